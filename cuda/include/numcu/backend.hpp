// Entry points of the two backends. The CUDA ones queue work on `stream` and return; the CPU
// ones run to completion on the calling thread.
#pragma once

#include "numcu/dtype.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/ops.hpp"

namespace numcu {

// A cudaStream_t, kept opaque so that code which includes this header needs no CUDA headers.
using Stream = void*;

// out = op(inputs...) on a plan of N = arity + 1 operands: the output, of
// ufunc_out_dtype(op, loop), then the inputs, of dtype `loop` (a condition input: bool).
template <int N>
void ufunc_cpu(Ufunc op, DType loop, const ElementwisePlan<N>& plan, const OpParams& params);
template <int N>
void ufunc_cuda(Ufunc op, DType loop, const ElementwisePlan<N>& plan, const OpParams& params,
                Stream stream);

#define NUMCU_EXTERN_UFUNC_BACKENDS(N)                                                         \
  extern template void ufunc_cpu<N>(Ufunc, DType, const ElementwisePlan<N>&, const OpParams&); \
  extern template void ufunc_cuda<N>(Ufunc, DType, const ElementwisePlan<N>&, const OpParams&, \
                                     Stream);
NUMCU_EXTERN_UFUNC_BACKENDS(2)
NUMCU_EXTERN_UFUNC_BACKENDS(3)
NUMCU_EXTERN_UFUNC_BACKENDS(4)
#undef NUMCU_EXTERN_UFUNC_BACKENDS

// out = static_cast<to>(in) on plan (operands: out of dtype `to`, in of dtype `from`).
void cast_cpu(DType to, DType from, const ElementwisePlan<2>& plan);
void cast_cuda(DType to, DType from, const ElementwisePlan<2>& plan, Stream stream);

}  // namespace numcu
