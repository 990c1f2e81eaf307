// Reductions and scans: the plan both backends take, the operations, and their entry points.
#pragma once

#include <cstdint>

#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"
#include "numcu/dtype.hpp"
#include "numcu/elementwise.hpp"

namespace numcu {

// How a reduction's result dtype follows from the input's (dtype= overrides where NumPy lets it).
enum class ReduceResult {
  accumulated,  // sum and prod: small integers widen (int64/uint64), the rest stays
  mean,         // float64 for integers and bool
  variance,     // var: mean's, real for complex; a mean pass, then the reducer's
  deviation,    // std: as var, and the reducer takes the square root
  same,         // min, max: the input dtype, whatever dtype= says
  index,        // argmin, argmax, count_nonzero: int64
  boolean,      // any, all
};

// A reduction's Python argument list (see src/reduce_call.cpp for the names and defaults).
enum class ReduceForm {
  with_dtype,  // (a, axis, dtype, out, keepdims)
  plain,       // (a, axis, out, keepdims)
  arg,         // (a, axis, out, *, keepdims): one axis or None
  var,         // (a, axis, dtype, out, ddof, keepdims)
  count,       // (a, axis, *, keepdims): no out
  scan,        // (a, axis, dtype, out): every scan's
};

// The reduction table: X(name, reducer, group, form, result, summary, returns), one line per
// public reduction, from which the enum, the kernels and CPU loops, the bindings and their
// docstrings, numcu.REDUCTIONS, __all__, the ndarray methods, NumPy's dispatch to numcu, the
// stubs and the tests' lists derive. `name` is NumPy's; `reducer` a template in numcu::reduce
// (reducers.hpp), which also says which dtypes have a loop, whether NaNs are skipped and what an
// empty reduction gives. `group` names the compile unit of its kernels and CPU loops (see
// cuda/src/reduce_groups.hpp). `form` and `result` are above. `summary` and `returns` are the
// docstring's first line and its Returns text.
#define NUMCU_REDUCTIONS(X)                                                                        \
  X(sum, Sum, sum, with_dtype, accumulated,                                                        \
    "Sum of array elements over the given axes (float sums are pairwise on the CPU and "           \
    "tree-shaped on the GPU; the same input gives the same bits run to run).",                     \
    "The sums: int64 for bool and signed integers, uint64 for unsigned ones, else the input "      \
    "dtype (float16 accumulated in float32).")                                                     \
  X(prod, Prod, sum, with_dtype, accumulated,                                                      \
    "Product of array elements over the given axes (integers wrap as in NumPy).",                  \
    "The products, in sum's dtypes.")                                                              \
  X(mean, Mean, sum, with_dtype, mean,                                                             \
    "Arithmetic mean over the given axes; NaN for an empty "                                       \
    "reduction.",                                                                                  \
    "The means: float64 for integers and bool, else the input dtype.")                             \
  X(var, SqDev, sum, var, variance,                                                                \
    "Variance over the given axes: mean(|x - x.mean()|**2) * N / (N - ddof), in two passes.",      \
    "float64 for integers and bool, the real dtype for complex, else the input dtype.")            \
  X(std, SqDev, sum, var, deviation,                                                               \
    "Standard deviation over the given axes: the square root of var.", "As var.")                  \
  X(min, Min, extreme, plain, same,                                                                \
    "Minimum over the given axes; NaN propagates; complex numbers order lexicographically. "       \
    "ValueError for an empty reduction.",                                                          \
    "The minima, in the input dtype.")                                                             \
  X(max, Max, extreme, plain, same,                                                                \
    "Maximum over the given axes; NaN propagates; complex numbers order lexicographically. "       \
    "ValueError for an empty reduction.",                                                          \
    "The maxima, in the input dtype.")                                                             \
  X(argmin, ArgMin, arg, arg, index,                                                               \
    "Index of the first minimum (of the first NaN, if any) along an axis.", "int64 indices.")      \
  X(argmax, ArgMax, arg, arg, index,                                                               \
    "Index of the first maximum (of the first NaN, if any) along an axis.", "int64 indices.")      \
  X(any, Any, arg, plain, boolean, "Whether any element is non-zero (NaN counts as non-zero).",    \
    "bool.")                                                                                       \
  X(all, All, arg, plain, boolean, "Whether every element is non-zero (NaN counts as non-zero).",  \
    "bool.")                                                                                       \
  X(count_nonzero, CountNonzero, arg, count, index,                                                \
    "Number of non-zero elements over the given axes.", "int64 counts.")                           \
  X(nansum, NanSum, sum, with_dtype, accumulated,                                                  \
    "Sum treating NaN as zero (on integers and bool: sum).", "The sums, in sum's dtypes.")         \
  X(nanprod, NanProd, sum, with_dtype, accumulated,                                                \
    "Product treating NaN as one (on integers and bool: prod).", "The products, in sum's dtypes.") \
  X(nanmean, NanMean, sum, with_dtype, mean,                                                       \
    "Mean of the elements that are not NaN; NaN where all are.", "The means, in mean's dtypes.")   \
  X(nanmin, NanMin, extreme, plain, same, "Minimum ignoring NaN (NaN where all are NaN).",         \
    "The minima, in the input dtype.")                                                             \
  X(nanmax, NanMax, extreme, plain, same, "Maximum ignoring NaN (NaN where all are NaN).",         \
    "The maxima, in the input dtype.")                                                             \
  X(ptp, Ptp, extreme, plain, same,                                                                \
    "Range of values (maximum - minimum) over the given axes; NaN propagates; integers wrap. "     \
    "ValueError for an empty reduction.",                                                          \
    "The ranges, in the input dtype.")

enum class ReduceOp {
#define NUMCU_ENUM(e, R, group, form, result, summary, returns) e,
  NUMCU_REDUCTIONS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

constexpr int kNumReductions = 0
#define NUMCU_COUNT(e, R, group, form, result, summary, returns) +1
    NUMCU_REDUCTIONS(NUMCU_COUNT)
#undef NUMCU_COUNT
    ;

// The scan table: X(name, scanner, summary, returns), as the reduction table's; `scanner` is a
// template in numcu::reduce (reducers.hpp). Every scan takes (a, axis, dtype, out) and gives sum's
// dtypes.
#define NUMCU_SCANS(X)                                                                           \
  X(cumsum, CumSum, "Cumulative sum along an axis.", "The running sums, in sum's dtypes.")       \
  X(cumprod, CumProd, "Cumulative product along an axis.",                                       \
    "The running products, in sum's dtypes.")                                                    \
  X(nancumsum, NanCumSum, "Cumulative sum treating NaN as zero (on integers and bool: cumsum).", \
    "The running sums, in sum's dtypes.")                                                        \
  X(nancumprod, NanCumProd,                                                                      \
    "Cumulative product treating NaN as one (on integers and bool: cumprod).",                   \
    "The running products, in sum's dtypes.")

enum class ScanOp {
#define NUMCU_ENUM(e, S, summary, returns) e,
  NUMCU_SCANS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

constexpr int kNumScans = 0
#define NUMCU_COUNT(e, S, summary, returns) +1
    NUMCU_SCANS(NUMCU_COUNT)
#undef NUMCU_COUNT
    ;

// Run-time questions about a reduction or a scan, answered from its table line and reducer.
struct ReductionInfo {
  const char* name;     // NumPy's
  const char* fname;    // "numcu.sum", for messages
  const char* summary;  // the table's docstring lines
  const char* returns;
  ReduceForm form;
  ReduceResult result;
  // A nan-function: NaNs are skipped; where the input is converted to a dtype without NaN first
  // (dtype=), they are replaced by nan_stand_in before.
  bool skips_nan;
  double nan_stand_in;
  // NumPy's name in its error for an empty reduction (the ufunc whose reduce has no identity),
  // or nullptr where the reducer has an identity.
  const char* no_identity;
  // The NumPy ufunc whose reduce (a scan: accumulate) this is (sum: add), or nullptr.
  const char* ufunc;
};
const ReductionInfo& reduction_info(ReduceOp op);
const ReductionInfo& scan_info(ScanOp op);

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
  const void* mean = nullptr;  // var/std: one mean per output, in the mean loop's output dtype
};

// Builds the plan for `in` reduced over the axes with reduced[d] set, into `out`, whose
// dimensions are in's kept axes in order (keepdims' size-1 axes removed). Throws value_error
// when more than kMaxKernelDims dimensions of either kind remain.
ReducePlan make_reduce_plan(const ArrayView& in, const bool* reduced, const ArrayView& out,
                            const char* fname);
// The plan for scanning `in` along `axis` into `out` of the same shape.
ReducePlan make_scan_plan(const ArrayView& in, int axis, const ArrayView& out, const char* fname);

// The dtype a loop writes for input dtype `in` (sum of int8 -> int64, mean of int -> float64,
// float16 sums -> float32, argmin -> int64 ...), and whether there is a loop at all (a
// nan-function's on integers and bool is its plain reducer's).
DType reduce_out_dtype(ReduceOp op, DType in);
bool reduce_supports(ReduceOp op, DType in);
DType scan_out_dtype(ScanOp op, DType in);

void reduce_cpu(ReduceOp op, DType in, const ReducePlan& plan, const ReduceParams& params);
void reduce_cuda(ReduceOp op, DType in, const ReducePlan& plan, const ReduceParams& params,
                 Stream stream);
void scan_cpu(ScanOp op, DType in, const ReducePlan& plan);
void scan_cuda(ScanOp op, DType in, const ReducePlan& plan, Stream stream);

}  // namespace numcu
