// Test builds only (CMake option NUMCU_FUSED_EMULATOR): the GPU interpreter of fused programs
// run on the CPU, one thread of a block after another in each phase of a tile (staging, then the
// program and the store), over host memory. It checks the encoding of programs (where values
// live, the operands' fetches) and the interpreter's logic on a machine without a GPU; the
// functions' last bits are the host's (glibc's), not the GPU's.
#define NUMCU_FUSED_EMULATE 1
#include <vector>

#include "fused_interp.cuh"

namespace numcu::fused {
namespace {

// As a prefetching launch runs them: tiles take the two frames by turns, and the next tile's
// inputs are staged before a tile runs, so that a value of one frame written over the other's
// inputs would show.
template <GpuClass C>
void emulate(GpuParams& p, int slots) {
  using Cfg = gpu::Config<C>;
  add_second_frame(p, slots);
  p.prefetch = 1;
  const std::size_t bytes = static_cast<std::size_t>(slots + p.ninputs) * kSlotBytes;
  std::vector<uint4> memory(bytes / sizeof(uint4));
  char* smem = reinterpret_cast<char*>(memory.data());
  std::vector<std::uint32_t> acc(static_cast<std::size_t>(Cfg::B) * gpu::kAccWords, 0);
  const auto stage = [&](std::int64_t start, const GpuFrame& f) {
    if (start >= p.n) return;
    for (int t = 0; t < Cfg::B; ++t) {
      gpu::g_emulated_thread = t;
      gpu::stage_inputs<Cfg>(p, f, smem, start, gpu::tile_elements<Cfg>(p, start));
    }
  };
  stage(0, p.frame[0]);
  int which = 0;
  for (std::int64_t start = 0; start < p.n; start += Cfg::kTile, which ^= 1) {
    stage(start + Cfg::kTile, p.frame[which ^ 1]);
    const GpuFrame& f = p.frame[which];
    const int valid = gpu::tile_elements<Cfg>(p, start);
    for (int t = 0; t < Cfg::B; ++t) {
      gpu::g_emulated_thread = t;
      auto& a = *reinterpret_cast<gpu::Acc*>(acc.data() + t * gpu::kAccWords);
      gpu::interpret<Cfg>(p, f, a, smem);
      gpu::store_any<Cfg>(p, f, a, smem, start, valid);
    }
  }
}

}  // namespace

void emulate_cuda(const Program& program, const Layout& layout) {
  std::string why;
  const std::shared_ptr<const GpuPlan> plan = gpu_plan(program, -1, &why);
  if (!plan) throw_value_error("numcu: the GPU interpreter does not hold this program: " + why);
  if (layout.size == 0) return;
  std::int64_t tiles = 0;
  GpuParams p = gpu_params(*plan, program, layout, &tiles);
  switch (plan->cls) {
    case GpuClass::narrow:
      return emulate<GpuClass::narrow>(p, plan->slots);
    case GpuClass::wide:
      return emulate<GpuClass::wide>(p, plan->slots);
    default:
      return emulate<GpuClass::complex>(p, plan->slots);
  }
}

}  // namespace numcu::fused
