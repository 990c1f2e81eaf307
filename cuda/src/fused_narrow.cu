// The GPU interpreter of fused programs for the "narrow" class of dtypes (fused_gpu.hpp).
#include "fused_interp.cuh"

void numcu::fused::launch_fused_narrow(GpuParams& p, std::int64_t tiles, int slots, Stream stream) {
  gpu::launch<GpuClass::narrow>(p, tiles, slots, stream);
}

void numcu::fused::prepare_fused_narrow(int device) {
  gpu::kernel_facts<GpuClass::narrow>(device, 0, 0);
}
