#include "numcu/launch_check.hpp"

#include <cstdint>
#include <string>

#include "numcu/checked.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/sequence.hpp"

namespace numcu {
namespace {

[[noreturn]] void refuse(const char* kind, const std::string& why) {
  throw_value_error(std::string("numcu: ") + kind + " not launched: " + why +
                    " (numcu's checks should have caught this earlier; please report it)");
}

// The count of elements of `shape`, each extent at least 1; -1 where an extent is not, or the
// count does not fit in int64.
std::int64_t positive_count(const std::int64_t* shape, int ndim) {
  std::int64_t n = 1;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] < 1 || !checked::mul(n, shape[d], n)) return -1;
  }
  return n;
}

// Whether the elements a walk over `shape` with `strides` from `data` reaches lie within the
// address space, and, with `alignment` > 0, are aligned to it.
bool reachable(const void* data, const std::int64_t* shape, const std::int64_t* strides, int ndim,
               int size, int alignment) {
  ByteSpan span;
  if (data == nullptr || !checked::span_of(shape, strides, ndim, size, span) ||
      !checked::addresses_fit(data, span)) {
    return false;
  }
  if (alignment <= 1) return true;
  if (reinterpret_cast<std::uintptr_t>(data) % static_cast<std::uintptr_t>(alignment) != 0) {
    return false;
  }
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] > 1 && strides[d] % alignment != 0) return false;
  }
  return true;
}

// A walk over two lists of dimensions: a reduction's kept and reduced ones, as one shape.
struct Walk {
  int ndim = 0;
  std::int64_t shape[2 * kMaxKernelDims + 1] = {};
  std::int64_t strides[2 * kMaxKernelDims + 1] = {};
  void add(std::int64_t extent, std::int64_t stride) {
    shape[ndim] = extent;
    strides[ndim] = stride;
    ++ndim;
  }
};

// CUDA's largest grid in x, in blocks of the reduction kernels' 256 threads, each thread one
// output (or one scanned line).
constexpr std::int64_t kMaxThreadsInGrid = std::int64_t{0x7fffffff} * 256;

}  // namespace

template <int N>
bool dense_plan_fits(const ElementwisePlan<N>& p, const int* itemsizes, const int* alignments) {
  if (p.ndim != 1 || p.size < 1 || p.shape[0] != p.size) return false;
  for (int i = 0; i < N; ++i) {
    if ((p.scalar_mask >> i) & 1u) continue;
    const std::int64_t size = itemsizes[i];
    const auto base = reinterpret_cast<std::uintptr_t>(p.data[i]);
    ByteSpan span;  // [0, size * itemsize)
    if (base == 0 || p.strides[i][0] != size || !checked::mul(p.size, size, span.hi) ||
        !checked::addresses_fit(p.data[i], span)) {
      return false;
    }
    if (alignments != nullptr && alignments[i] > 1 &&
        (size % alignments[i] != 0 || base % static_cast<std::uintptr_t>(alignments[i]) != 0)) {
      return false;
    }
  }
  return true;
}

template <int N>
void check_launch(const ElementwisePlan<N>& p, const int* itemsizes, const int* alignments) {
  if (!dense_plan_fits(p, itemsizes, alignments)) check_launch_full(p, itemsizes, alignments);
}

template <int N>
void check_launch_full(const ElementwisePlan<N>& p, const int* itemsizes, const int* alignments) {
  const char* kind = "elementwise kernel";
  if (p.size < 0 || p.ndim < 0 || p.ndim > kMaxKernelDims) {
    refuse(kind, "a plan of " + std::to_string(p.size) + " elements in " + std::to_string(p.ndim) +
                     " dimensions");
  }
  if (p.size == 0) return;
  if (positive_count(p.shape, p.ndim) != p.size) {
    refuse(kind, "the plan's shape " + checked::shape_text(p.shape, p.ndim) +
                     " does not hold its " + std::to_string(p.size) + " elements");
  }
  for (int i = 0; i < N; ++i) {
    if ((p.scalar_mask >> i) & 1u) continue;
    if (!reachable(p.data[i], p.shape, p.strides[i], p.ndim, itemsizes[i],
                   alignments != nullptr ? alignments[i] : 0)) {
      refuse(kind, "operand " + std::to_string(i) + " (data " +
                       std::to_string(reinterpret_cast<std::uintptr_t>(p.data[i])) + ", strides " +
                       checked::shape_text(p.strides[i], p.ndim) +
                       ") is null, misaligned or beyond the address space");
    }
  }
}

#define NUMCU_INSTANTIATE(N)                                                           \
  template bool dense_plan_fits<N>(const ElementwisePlan<N>&, const int*, const int*); \
  template void check_launch<N>(const ElementwisePlan<N>&, const int*, const int*);    \
  template void check_launch_full<N>(const ElementwisePlan<N>&, const int*, const int*);
NUMCU_INSTANTIATE(2)
NUMCU_INSTANTIATE(3)
NUMCU_INSTANTIATE(4)
#undef NUMCU_INSTANTIATE

void check_launch(const ReducePlan& p, int in_size, int out_size, bool scan, bool device) {
  const char* kind = scan ? "scan kernel" : "reduction kernel";
  if (p.n_out < 0 || p.n_red < 0 || p.out_ndim < 1 || p.out_ndim > kMaxKernelDims ||
      p.red_ndim < 1 || p.red_ndim > kMaxKernelDims || (scan && p.red_ndim != 1)) {
    refuse(kind, "a plan of " + std::to_string(p.n_out) + " outputs of " + std::to_string(p.n_red) +
                     " elements");
  }
  if (p.n_out == 0) return;
  if (positive_count(p.out_shape, p.out_ndim) != p.n_out ||
      (p.n_red > 0 && positive_count(p.red_shape, p.red_ndim) != p.n_red)) {
    refuse(kind, "the plan's shapes do not hold its " + std::to_string(p.n_out) + " outputs of " +
                     std::to_string(p.n_red) + " elements");
  }
  if (device && p.n_out > kMaxThreadsInGrid) {
    refuse(kind, std::to_string(p.n_out) + " outputs are more than one launch covers");
  }
  const int align_in = device ? in_size : 0;
  const int align_out = device ? out_size : 0;
  Walk out;
  for (int d = 0; d < p.out_ndim; ++d) out.add(p.out_shape[d], p.out_strides[d]);
  if (scan && p.n_red > 0) out.add(p.n_red, p.out_red_stride);
  if (!(scan && p.n_red == 0) &&
      !reachable(p.out, out.shape, out.strides, out.ndim, out_size, align_out)) {
    refuse(kind, "the output is null, misaligned or beyond the address space");
  }
  if (p.n_red == 0) return;
  Walk in;
  for (int d = 0; d < p.out_ndim; ++d) in.add(p.out_shape[d], p.out_in_strides[d]);
  for (int d = 0; d < p.red_ndim; ++d) in.add(p.red_shape[d], p.red_strides[d]);
  if (!reachable(p.in, in.shape, in.strides, in.ndim, in_size, align_in)) {
    refuse(kind, "the input is null, misaligned or beyond the address space");
  }
}

void check_launch(const SequenceParams& p, const void* out, int size) {
  const std::int64_t stride = size;
  if (p.n < 0 || (p.n > 0 && !reachable(out, &p.n, &stride, 1, size, 0))) {
    refuse("sequence kernel", std::to_string(p.n) + " elements of " + std::to_string(size) +
                                  " bytes at " +
                                  std::to_string(reinterpret_cast<std::uintptr_t>(out)));
  }
}

}  // namespace numcu
