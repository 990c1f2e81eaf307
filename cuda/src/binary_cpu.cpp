#include <string>

#include "cpu_elementwise.hpp"
#include "numcu/backend.hpp"
#include "numcu/errors.hpp"

namespace numcu {
namespace {

template <class F>
void run_binary(DType dtype, const ElementwisePlan<3>& plan, const OpParams& params) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (F::template supports<T>) {
      cpu::run_elementwise<F, T, T, T>(F(params), plan);
    } else {
      throw_type_error(std::string("numcu.") + F::name + ": no loop for dtype " + dtype_name(dtype));
    }
  });
}

}  // namespace

void binary_cpu(BinaryOp op, DType dtype, const ElementwisePlan<3>& plan, const OpParams& params) {
  switch (op) {
#define NUMCU_CASE(e, F) \
  case BinaryOp::e:      \
    return run_binary<F>(dtype, plan, params);
    NUMCU_BINARY_OPS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

}  // namespace numcu
