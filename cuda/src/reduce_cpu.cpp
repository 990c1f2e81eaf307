// The CPU backend's reductions and scans. Runs along the innermost reduced dimension are
// combined pairwise, as NumPy sums, so that float sums lose about log2(n) roundings, not n.
#include <cstdint>
#include <string>

#include "numcu/errors.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"

namespace numcu {
namespace {

template <class T>
T load(const char* p) {
  return *reinterpret_cast<const T*>(p);
}

constexpr std::int64_t kPairwiseBlock = 128;

// GCC 12 at -O3 vectorises the eight-accumulator loop below wrongly for int8 input widened to
// int64 (sums of more than 128 elements come out wrong); the loop is kept scalar there.
#if defined(__GNUC__) && !defined(__clang__)
#define NUMCU_NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#else
#define NUMCU_NO_VECTORIZE
#endif

// One run of n elements `stride` bytes apart, whose first has reduced index k.
template <class R>
NUMCU_NO_VECTORIZE typename R::Acc pairwise(const R& r, const char* p, std::int64_t n,
                                            std::int64_t stride, std::int64_t k, std::int64_t o) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  if (n < 8) {
    Acc acc = r.identity();
    for (std::int64_t i = 0; i < n; ++i) acc = r(acc, r.leaf(load<T>(p + i * stride), k + i, o));
    return acc;
  }
  if (n <= kPairwiseBlock) {
    Acc a[8];
    for (int j = 0; j < 8; ++j) a[j] = r.leaf(load<T>(p + j * stride), k + j, o);
    std::int64_t i = 8;
    for (; i + 8 <= n; i += 8) {
      T x[8];
      for (int j = 0; j < 8; ++j) x[j] = load<T>(p + (i + j) * stride);
      for (int j = 0; j < 8; ++j) a[j] = r(a[j], r.leaf(x[j], k + i + j, o));
    }
    Acc acc = r(r(r(a[0], a[1]), r(a[2], a[3])), r(r(a[4], a[5]), r(a[6], a[7])));
    for (; i < n; ++i) acc = r(acc, r.leaf(load<T>(p + i * stride), k + i, o));
    return acc;
  }
  std::int64_t half = n / 2;
  half -= half % 8;
  return r(pairwise(r, p, half, stride, k, o),
           pairwise(r, p + half * stride, n - half, stride, k + half, o));
}

template <class R>
typename R::Acc reduce_one(const R& r, const ReducePlan& p, const char* base, std::int64_t o) {
  using Acc = typename R::Acc;
  Acc acc = r.identity();
  if (p.n_red == 0) return acc;
  const int last = p.red_ndim - 1;
  const std::int64_t inner = p.red_shape[last];
  std::int64_t index[kMaxKernelDims] = {};
  const char* ptr = base;
  for (std::int64_t k = 0; k < p.n_red; k += inner) {
    acc = r(acc, pairwise(r, ptr, inner, p.red_strides[last], k, o));
    for (int d = last - 1; d >= 0; --d) {
      ptr += p.red_strides[d];
      if (++index[d] < p.red_shape[d]) break;
      ptr -= p.red_strides[d] * p.red_shape[d];
      index[d] = 0;
    }
  }
  return acc;
}

template <class R>
void run_reduce(const R& r, const ReducePlan& p) {
  using Out = typename R::Out;
  std::int64_t index[kMaxKernelDims] = {};
  const char* in = p.in;
  char* out = p.out;
  for (std::int64_t o = 0; o < p.n_out; ++o) {
    *reinterpret_cast<Out*>(out) = r.finalize(reduce_one(r, p, in, o), o);
    for (int d = p.out_ndim - 1; d >= 0; --d) {
      in += p.out_in_strides[d];
      out += p.out_strides[d];
      if (++index[d] < p.out_shape[d]) break;
      in -= p.out_in_strides[d] * p.out_shape[d];
      out -= p.out_strides[d] * p.out_shape[d];
      index[d] = 0;
    }
  }
}

template <template <class> class R>
void dispatch_reduce(const char* name, DType dtype, const ReducePlan& plan,
                     const ReduceParams& params) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (R<T>::template supports<T>) {
      R<T> r;
      r.p = params;
      run_reduce(r, plan);
    } else {
      throw_type_error(std::string("numcu.") + name + ": no loop for dtype " + dtype_name(dtype));
    }
  });
}

template <class S>
void run_scan(const S& s, const ReducePlan& p) {
  using T = typename S::In;
  using Out = typename S::Out;
  std::int64_t index[kMaxKernelDims] = {};
  const char* in = p.in;
  char* out = p.out;
  for (std::int64_t o = 0; o < p.n_out; ++o) {
    auto acc = s.identity();
    for (std::int64_t k = 0; k < p.n_red; ++k) {
      acc = s(acc, s.leaf(load<T>(in + k * p.red_strides[0])));
      *reinterpret_cast<Out*>(out + k * p.out_red_stride) = s.finalize(acc);
    }
    for (int d = p.out_ndim - 1; d >= 0; --d) {
      in += p.out_in_strides[d];
      out += p.out_strides[d];
      if (++index[d] < p.out_shape[d]) break;
      in -= p.out_in_strides[d] * p.out_shape[d];
      out -= p.out_strides[d] * p.out_shape[d];
      index[d] = 0;
    }
  }
}

}  // namespace

void reduce_cpu(ReduceOp op, DType dtype, const ReducePlan& plan, const ReduceParams& params) {
  check_launch(plan, itemsize(dtype), itemsize(reduce_out_dtype(op, dtype)), false, false);
  if (plan.n_out == 0) return;
  switch (op) {
#define NUMCU_CASE(e, R) \
  case ReduceOp::e:      \
    return dispatch_reduce<reduce::R>(#e, dtype, plan, params);
    NUMCU_REDUCE_OPS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

void scan_cpu(ScanOp op, DType dtype, const ReducePlan& plan) {
  check_launch(plan, itemsize(dtype), itemsize(scan_out_dtype(op, dtype)), true, false);
  if (plan.n_out == 0 || plan.n_red == 0) return;
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define NUMCU_CASE(e, S) \
  case ScanOp::e:        \
    return run_scan(reduce::S<T>{}, plan);
      NUMCU_SCAN_OPS(NUMCU_CASE)
#undef NUMCU_CASE
    }
  });
}

}  // namespace numcu
