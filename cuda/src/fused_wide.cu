// The GPU interpreter of fused programs for the "wide" class of dtypes (fused_gpu.hpp).
#include "fused_interp.cuh"

void numcu::fused::launch_fused_wide(GpuParams& p, std::int64_t tiles, int slots, Stream stream) {
  gpu::launch<GpuClass::wide>(p, tiles, slots, stream);
}

void numcu::fused::prepare_fused_wide(int device) {
  gpu::kernel_facts<GpuClass::wide>(device, 0, 0);
}
