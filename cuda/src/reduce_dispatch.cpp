#include "numcu/reduce.hpp"
#include "reduce_cuda_ops.hpp"

namespace numcu {

void reduce_cuda(ReduceOp op, DType dtype, const ReducePlan& plan, const ReduceParams& params,
                 Stream stream) {
  switch (op) {
#define NUMCU_CASE(e, R) \
  case ReduceOp::e:      \
    return reduce_cuda_##e(dtype, plan, params, stream);
    NUMCU_REDUCE_OPS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

}  // namespace numcu
