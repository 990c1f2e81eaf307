// Reductions and scans: the plan both backends take, the operations, and their entry points.
#pragma once

#include <cstdint>

#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"
#include "numcu/dtype.hpp"
#include "numcu/elementwise.hpp"

namespace numcu {

// X(enumerator, reducer template in numcu::reduce): every reduction with a loop. sqdev is the
// second pass of var and std (squared deviations from per-output means).
#define NUMCU_REDUCE_OPS(X)      \
  X(sum, Sum)                    \
  X(prod, Prod)                  \
  X(mean, Mean)                  \
  X(min, Min)                    \
  X(max, Max)                    \
  X(argmin, ArgMin)              \
  X(argmax, ArgMax)              \
  X(any, Any)                    \
  X(all, All)                    \
  X(count_nonzero, CountNonzero) \
  X(nansum, NanSum)              \
  X(nanprod, NanProd)            \
  X(nanmean, NanMean)            \
  X(nanmin, NanMin)              \
  X(nanmax, NanMax)              \
  X(sqdev, SqDev)

enum class ReduceOp {
#define NUMCU_ENUM(e, R) e,
  NUMCU_REDUCE_OPS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

#define NUMCU_SCAN_OPS(X) \
  X(cumsum, CumSum)       \
  X(cumprod, CumProd)     \
  X(nancumsum, NanCumSum) \
  X(nancumprod, NanCumProd)

enum class ScanOp {
#define NUMCU_ENUM(e, S) e,
  NUMCU_SCAN_OPS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

// An input split into output dimensions (kept axes, walked by output index o in C order) and
// reduced dimensions (walked by index k in C order, which argmin/argmax report). Both lists
// have size-1 dimensions dropped and neighbours merged, and hold at least one dimension (an
// empty list becomes one dimension of the element count). A scan uses the same plan with one
// reduced dimension, the scanned axis, whose output stride is out_red_stride.
struct ReducePlan {
  const char* in = nullptr;
  char* out = nullptr;
  std::int64_t n_out = 1;
  int out_ndim = 1;
  std::int64_t out_shape[kMaxKernelDims] = {1};
  std::int64_t out_in_strides[kMaxKernelDims] = {};  // bytes, input side
  std::int64_t out_strides[kMaxKernelDims] = {};     // bytes, output side
  std::int64_t n_red = 1;
  int red_ndim = 1;
  std::int64_t red_shape[kMaxKernelDims] = {1};
  std::int64_t red_strides[kMaxKernelDims] = {};  // bytes, input side
  std::int64_t out_red_stride = 0;                // scans: bytes along the scanned axis
};

// Run-time parameters of a reduction.
struct ReduceParams {
  std::int64_t n = 0;          // elements reduced into each output (mean's divisor)
  double ddof = 0;             // var/std: the divisor is max(n - ddof, 0)
  bool root = false;           // std: the square root of the variance
  const void* mean = nullptr;  // sqdev: one mean per output, in the mean loop's output dtype
};

// Builds the plan for `in` reduced over the axes with reduced[d] set, into `out`, whose
// dimensions are in's kept axes in order (keepdims' size-1 axes removed). Throws value_error
// when more than kMaxKernelDims dimensions of either kind remain.
ReducePlan make_reduce_plan(const ArrayView& in, const bool* reduced, const ArrayView& out,
                            const char* fname);
// The plan for scanning `in` along `axis` into `out` of the same shape.
ReducePlan make_scan_plan(const ArrayView& in, int axis, const ArrayView& out, const char* fname);

// The dtype a loop writes for input dtype `in` (sum of int8 -> int64, mean of int -> float64,
// float16 sums -> float32, argmin -> int64 ...), and whether there is a loop at all.
DType reduce_out_dtype(ReduceOp op, DType in);
bool reduce_supports(ReduceOp op, DType in);
DType scan_out_dtype(ScanOp op, DType in);

void reduce_cpu(ReduceOp op, DType in, const ReducePlan& plan, const ReduceParams& params);
void reduce_cuda(ReduceOp op, DType in, const ReducePlan& plan, const ReduceParams& params,
                 Stream stream);
void scan_cpu(ScanOp op, DType in, const ReducePlan& plan);
void scan_cuda(ScanOp op, DType in, const ReducePlan& plan, Stream stream);

}  // namespace numcu
