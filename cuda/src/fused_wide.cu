// The GPU interpreter of fused programs for the "wide" class of dtypes (fused_gpu.hpp).
#include "fused_interp.cuh"

void numcu::fused::launch_fused_wide(const GpuParams& p, unsigned grid, int smem, Stream stream) {
  gpu::launch<GpuClass::wide>(p, grid, smem, stream);
}
