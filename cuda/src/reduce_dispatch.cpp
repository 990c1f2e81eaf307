#include "numcu/launch_check.hpp"
#include "numcu/reduce.hpp"
#include "reduce_groups.hpp"

namespace numcu {

void reduce_cuda(ReduceOp op, DType dtype, const ReducePlan& plan, const ReduceParams& params,
                 Stream stream) {
  check_launch(plan, itemsize(dtype), itemsize(reduce_out_dtype(op, dtype)), false, true);
  switch (op) {
#define NUMCU_CASE(e, R, group, form, result, summary, returns) \
  case ReduceOp::e:                                             \
    return reduce_cuda_##e(dtype, plan, params, stream);
    NUMCU_REDUCTIONS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

}  // namespace numcu
