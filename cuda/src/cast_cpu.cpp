#include "cpu_elementwise.hpp"
#include "numcu/backend.hpp"

namespace numcu {

void cast_cpu(DType to, DType from, const ElementwisePlan<2>& plan) {
  visit_dtype(to, [&](auto to_tag) {
    using To = typename decltype(to_tag)::type;
    visit_dtype(from, [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      cpu::run_elementwise<ops::Copy, To, From>(ops::Copy{}, plan);
    });
  });
}

}  // namespace numcu
