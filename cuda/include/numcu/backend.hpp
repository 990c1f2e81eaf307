// Entry points of the two backends. The CUDA ones queue work on `stream` and return; the CPU
// ones run to completion on the calling thread.
#pragma once

#include "numcu/dtype.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/ops.hpp"

namespace numcu {

// A cudaStream_t, kept opaque so that code which includes this header needs no CUDA headers.
using Stream = void*;

// out = op(a, b) on plan (operands: out, a, b), all of dtype `dtype`.
void binary_cpu(BinaryOp op, DType dtype, const ElementwisePlan<3>& plan, const OpParams& params);
void binary_cuda(BinaryOp op, DType dtype, const ElementwisePlan<3>& plan, const OpParams& params,
                 Stream stream);

// out = static_cast<to>(in) on plan (operands: out of dtype `to`, in of dtype `from`).
void cast_cpu(DType to, DType from, const ElementwisePlan<2>& plan);
void cast_cuda(DType to, DType from, const ElementwisePlan<2>& plan, Stream stream);

}  // namespace numcu
