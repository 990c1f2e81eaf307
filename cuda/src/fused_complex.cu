// The GPU interpreter of fused programs for the "complex" class of dtypes (fused_gpu.hpp).
#include "fused_interp.cuh"

void numcu::fused::launch_fused_complex(const GpuParams& p, unsigned grid, int smem,
                                        Stream stream) {
  gpu::launch<GpuClass::complex>(p, grid, smem, stream);
}
