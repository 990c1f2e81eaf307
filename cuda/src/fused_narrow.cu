// The GPU interpreter of fused programs for the "narrow" class of dtypes (fused_gpu.hpp).
#include "fused_interp.cuh"

void numcu::fused::launch_fused_narrow(const GpuParams& p, unsigned grid, int smem, Stream stream) {
  gpu::launch<GpuClass::narrow>(p, grid, smem, stream);
}
