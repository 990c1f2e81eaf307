#include "numcu/ops.hpp"

namespace numcu {

DType binary_loop_dtype(BinaryOp op, DType promoted) {
  switch (op) {
#define NUMCU_CASE(e, F) \
  case BinaryOp::e:      \
    return F::result_dtype(promoted);
    NUMCU_BINARY_OPS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  return promoted;
}

bool binary_supports(BinaryOp op, DType dtype) {
  return visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define NUMCU_CASE(e, F) \
  case BinaryOp::e:      \
    return F::template supports<T>;
      NUMCU_BINARY_OPS(NUMCU_CASE)
#undef NUMCU_CASE
    }
    return false;
  });
}

}  // namespace numcu
