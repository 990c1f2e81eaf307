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

template <GpuClass C>
void emulate(const GpuParams& p, int slots) {
  using Cfg = gpu::Config<C>;
  std::vector<uint4> memory(static_cast<std::size_t>(slots) * kSlotBytes / sizeof(uint4));
  char* smem = reinterpret_cast<char*>(memory.data());
  std::vector<std::uint32_t> acc(static_cast<std::size_t>(Cfg::B) * gpu::kAccWords, 0);
  for (std::int64_t start = 0; start < p.n; start += Cfg::kTile) {
    const std::int64_t left = p.n - start;
    const int valid = left < Cfg::kTile ? static_cast<int>(left) : Cfg::kTile;
    for (int t = 0; t < Cfg::B; ++t) {
      gpu::g_emulated_thread = t;
      gpu::stage_inputs<Cfg>(p, smem, start, valid);
    }
    for (int t = 0; t < Cfg::B; ++t) {
      gpu::g_emulated_thread = t;
      auto& a = *reinterpret_cast<gpu::Acc*>(acc.data() + t * gpu::kAccWords);
      gpu::interpret<Cfg>(p, a, smem);
      gpu::store_any<Cfg>(p, a, smem, start, valid);
    }
  }
}

}  // namespace

void emulate_cuda(const Program& program, const Layout& layout) {
  std::string why;
  const std::shared_ptr<const GpuPlan> plan = gpu_plan(program, -1, &why);
  if (!plan) throw_value_error("numcu: the GPU interpreter does not hold this program: " + why);
  if (layout.size == 0) return;
  unsigned grid = 0;
  const GpuParams p = gpu_params(*plan, program, layout, &grid);
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
