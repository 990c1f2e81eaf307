#include "cuda_instantiate.cuh"

namespace numcu {

void binary_cuda(BinaryOp op, DType dtype, const ElementwisePlan<3>& plan, const OpParams& params,
                 Stream stream) {
  switch (op) {
#define NUMCU_CASE(e, F) \
  case BinaryOp::e:      \
    return binary_cuda_##e(dtype, plan, params, stream);
    NUMCU_BINARY_OPS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

void cast_cuda(DType to, DType from, const ElementwisePlan<2>& plan, Stream stream) {
  switch (to) {
#define NUMCU_CASE(e, T, name, kind, size) \
  case DType::e:                           \
    return cast_cuda_to_##e(from, plan, stream);
    NUMCU_DTYPES(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

}  // namespace numcu
