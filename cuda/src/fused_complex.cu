// The GPU interpreter of fused programs for the "complex" class of dtypes (fused_gpu.hpp).
#include "fused_interp.cuh"

void numcu::fused::launch_fused_complex(GpuParams& p, std::int64_t tiles, int slots,
                                        Stream stream) {
  gpu::launch<GpuClass::complex>(p, tiles, slots, stream);
}

void numcu::fused::prepare_fused_complex(int device) {
  gpu::kernel_facts<GpuClass::complex>(device, 0, 0);
}
