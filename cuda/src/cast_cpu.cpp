#include "cast_rules.hpp"
#include "cpu_elementwise.hpp"
#include "numcu/backend.hpp"

namespace numcu {

void cast_cpu(DType to, DType from, const ElementwisePlan<2>& plan) {
  const CastLoop loop = cast_loop(to, from);
  visit_dtype(loop.to, [&](auto to_tag) {
    using To = typename decltype(to_tag)::type;
    visit_dtype(loop.from, [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      if constexpr (cast_loop_exists<To, From>) {
        cpu::run_elementwise<ops::Copy, To, From>(ops::Copy{}, plan);
      } else {
        throw_no_cast_loop();
      }
    });
  });
}

}  // namespace numcu
