// The CPU backend's reductions: runs along the innermost reduced dimension are combined
// pairwise, as NumPy sums, so that float sums lose about log2(n) roundings, not n.
//
// Threads never change a result: a long run is cut into subtrees of its pairwise tree, which
// threads evaluate while the tree above them is combined in its usual order; the runs of one
// output are folded in order after threads have reduced them; and many outputs are shared out
// whole. Every reduction therefore gives the same bits on 1 thread as on 16.
//
// What a reducer compiles for each dtype is its trees, its walk over outputs on one thread, and a
// few operations on its accumulator (ReduceLoop); how work is shared out over threads is
// compiled once (reduce_cpu.cpp) and reaches them through ReduceLoop's function pointers, which
// it calls per output or per subtree, never per element. The loops are instantiated by
// reduce_cpu_*.cpp, a few reductions each, so that the files compile in parallel;
// reduce_cpu.cpp holds the one switch over them, and the scans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "cast_rules.hpp"
#include "cpu_parallel.hpp"
#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"
#include "reduce_groups.hpp"

namespace numcu {

namespace cpu_reduce {

template <class T>
T load(const char* p) {
  return *reinterpret_cast<const T*>(p);
}

constexpr std::int64_t kPairwiseBlock = 128;

// The pairwise tree: a run of more than kPairwiseBlock elements combines its first
// pairwise_half(n) elements with the rest.
inline std::int64_t pairwise_half(std::int64_t n) {
  const std::int64_t half = n / 2;
  return half - half % 8;
}

// A run of n <= kPairwiseBlock elements `stride` bytes apart (sizeof(In) when Dense), whose
// first has reduced index k: eight accumulators, as NumPy's pairwise sum.
template <bool Dense, class R>
NUMCU_FORCEINLINE typename R::Acc pairwise_block(const R& r, const char* p, std::int64_t n,
                                                 std::int64_t stride, std::int64_t k,
                                                 std::int64_t o) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  const std::int64_t step = Dense ? static_cast<std::int64_t>(sizeof(T)) : stride;
  if (n < 8) {
    Acc acc = r.identity();
    for (std::int64_t i = 0; i < n; ++i) acc = r(acc, r.leaf(load<T>(p + i * step), k + i, o));
    return acc;
  }
#if defined(__GNUC__)
  if constexpr (Dense && R::lanewise) {
    // The eight accumulators as the lanes of one vector: lane j takes elements j, j + 8, ...,
    // the same additions in the same order as eight scalars, so the same bits, without the
    // eight scalar chains' limit of two additions a cycle.
    typedef T Lanes __attribute__((vector_size(8 * sizeof(T))));
    Lanes a, x;
    std::memcpy(&a, p, sizeof(Lanes));
    std::int64_t i = 8;
    for (; i + 8 <= n; i += 8) {
      __builtin_prefetch(p + (i + 512 / static_cast<std::int64_t>(sizeof(T))) * step, 0, 3);
      std::memcpy(&x, p + i * step, sizeof(Lanes));
      R::lanes(a, x);
    }
    Acc acc = r(r(r(a[0], a[1]), r(a[2], a[3])), r(r(a[4], a[5]), r(a[6], a[7])));
    for (; i < n; ++i) acc = r(acc, load<T>(p + i * step));
    return acc;
  }
#endif
  Acc a[8];
  for (int j = 0; j < 8; ++j) a[j] = r.leaf(load<T>(p + j * step), k + j, o);
  std::int64_t i = 8;
  for (; i + 8 <= n; i += 8) {
    // Hardware prefetchers lose track of runs this short: fetch 512 bytes ahead, as NumPy does.
    __builtin_prefetch(p + (i + 512 / static_cast<std::int64_t>(sizeof(T))) * step, 0, 3);
    T x[8];
    for (int j = 0; j < 8; ++j) x[j] = load<T>(p + (i + j) * step);
    for (int j = 0; j < 8; ++j) a[j] = r(a[j], r.leaf(x[j], k + i + j, o));
  }
  Acc acc = r(r(r(a[0], a[1]), r(a[2], a[3])), r(r(a[4], a[5]), r(a[6], a[7])));
  for (; i < n; ++i) acc = r(acc, r.leaf(load<T>(p + i * step), k + i, o));
  return acc;
}

// The pairwise tree of a run, walked depth first with an explicit stack. (The recursive walk
// this replaces, with the block inlined, ran sums of arrays larger than the caches several
// times slower than NumPy on GCC 12.)
template <bool Dense, class R>
NUMCU_FORCEINLINE typename R::Acc pairwise_tree(const R& r, const char* p, std::int64_t n,
                                                std::int64_t stride, std::int64_t k,
                                                std::int64_t o) {
  using Acc = typename R::Acc;
  const std::int64_t step = Dense ? static_cast<std::int64_t>(sizeof(typename R::In)) : stride;
  // Runs of 8 to kPairwiseBlock elements are the first frame's block, so that the block's main
  // loop is inlined once, below; shorter ones take only its scalar loop, here.
  if (n < 8) return pairwise_block<Dense>(r, p, n, stride, k, o);
  struct Frame {
    std::int64_t begin, n;
    Acc left;
    bool right;  // the left half is done and its value is in `left`
  };
  Frame stack[64];  // each level halves the run: 64 levels are never reached
  int top = 0;
  stack[0] = Frame{0, n, Acc(), false};
  for (;;) {
    const Frame f = stack[top];
    if (f.n > kPairwiseBlock) {
      stack[++top] = Frame{f.begin, pairwise_half(f.n), Acc(), false};
      continue;
    }
    Acc value = pairwise_block<Dense>(r, p + f.begin * step, f.n, stride, k + f.begin, o);
    for (;;) {
      if (top == 0) return value;
      Frame& parent = stack[top - 1];
      if (!parent.right) {
        parent.left = value;
        parent.right = true;
        const std::int64_t half = pairwise_half(parent.n);
        stack[top] = Frame{parent.begin + half, parent.n - half, Acc(), false};
        break;
      }
      value = r(parent.left, value);
      --top;
    }
  }
}

// The trees are compiled without vectorisation. GCC 12 at -O3 vectorises the eight-accumulator
// loop wrongly for int8 input widened to int64 (sums of more than 128 elements come out wrong);
// and where it is right, the vectorised block (one chain of vector adds, then a horizontal
// combine every 128 elements) measured slower than eight scalar chains, as NumPy's loop is.
#if defined(__GNUC__) && !defined(__clang__)
#define NUMCU_NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#else
#define NUMCU_NO_VECTORIZE
#endif

template <class R>
NUMCU_NO_VECTORIZE typename R::Acc dense_tree(const R& r, const char* p, std::int64_t n,
                                              std::int64_t k, std::int64_t o) {
  return pairwise_tree<true>(r, p, n, 0, k, o);
}

template <class R>
NUMCU_NO_VECTORIZE typename R::Acc strided_tree(const R& r, const char* p, std::int64_t n,
                                                std::int64_t stride, std::int64_t k,
                                                std::int64_t o) {
  return pairwise_tree<false>(r, p, n, stride, k, o);
}

#undef NUMCU_NO_VECTORIZE

// One run of n elements `stride` bytes apart, whose first has reduced index k.
template <class R>
typename R::Acc pairwise(const R& r, const char* p, std::int64_t n, std::int64_t stride,
                         std::int64_t k, std::int64_t o) {
  if (stride == static_cast<std::int64_t>(sizeof(typename R::In))) {
    return dense_tree(r, p, n, k, o);
  }
  return strided_tree(r, p, n, stride, k, o);
}

// Sets index[0..ndim) to position `pos` of `shape` in C order; returns the byte offset.
inline std::int64_t seek(std::int64_t pos, const std::int64_t* shape, const std::int64_t* strides,
                         int ndim, std::int64_t* index) {
  std::int64_t offset = 0;
  for (int d = ndim - 1; d >= 0; --d) {
    index[d] = pos % shape[d];
    pos /= shape[d];
    offset += index[d] * strides[d];
  }
  return offset;
}

// Steps an odometer over `shape` by one position, moving each pointer by its strides.
template <int M>
void step(std::int64_t* index, const std::int64_t* shape, int ndim,
          const std::int64_t* const (&strides)[M], const char* (&ptrs)[M]) {
  for (int d = ndim - 1; d >= 0; --d) {
    for (int i = 0; i < M; ++i) ptrs[i] += strides[i][d];
    if (++index[d] < shape[d]) return;
    for (int i = 0; i < M; ++i) ptrs[i] -= strides[i][d] * shape[d];
    index[d] = 0;
  }
}

// Runs [begin, end) of one output's reduced elements (each `inner` long), in C order.
template <class Body>
void for_runs(const ReducePlan& p, const char* base, std::int64_t begin, std::int64_t end,
              const Body& body) {
  const int outer = p.red_ndim - 1;
  std::int64_t index[kMaxKernelDims] = {};
  const std::int64_t* const strides[1] = {p.red_strides};
  const char* ptr[1] = {base + seek(begin, p.red_shape, p.red_strides, outer, index)};
  for (std::int64_t j = begin; j < end; ++j) {
    body(j, ptr[0]);
    step(index, p.red_shape, outer, strides, ptr);
  }
}

// Output o's accumulator, on the calling thread.
template <class R>
typename R::Acc reduce_one(const R& r, const ReducePlan& p, const char* base, std::int64_t o) {
  using Acc = typename R::Acc;
  Acc acc = r.identity();
  if (p.n_red == 0) return acc;
  const int last = p.red_ndim - 1;
  const std::int64_t inner = p.red_shape[last];
  for_runs(p, base, 0, p.n_red / inner, [&](std::int64_t j, const char* ptr) {
    acc = r(acc, pairwise(r, ptr, inner, p.red_strides[last], j * inner, o));
  });
  return acc;
}

// The outputs in C order from output `begin`: each one's first input element and its place.
struct OutputWalk {
  const ReducePlan& p;
  std::int64_t index[kMaxKernelDims] = {};
  const std::int64_t* const strides[2];
  const char* ptrs[2];

  OutputWalk(const ReducePlan& plan, std::int64_t begin)
      : p(plan), strides{plan.out_in_strides, plan.out_strides}, ptrs{plan.in, plan.out} {
    seek(begin, p.out_shape, p.out_strides, p.out_ndim, index);
    for (int d = 0; d < p.out_ndim; ++d) {
      ptrs[0] += index[d] * p.out_in_strides[d];
      ptrs[1] += index[d] * p.out_strides[d];
    }
  }
  const char* in() const { return ptrs[0]; }
  char* out() const { return const_cast<char*>(ptrs[1]); }
  void next() { step(index, p.out_shape, p.out_ndim, strides, ptrs); }
};

// Outputs [begin, end), each on the calling thread.
template <class R>
void reduce_outputs(const R& r, const ReducePlan& p, std::int64_t begin, std::int64_t end) {
  using Out = typename R::Out;
  OutputWalk w(p, begin);
  for (std::int64_t o = begin; o < end; ++o, w.next()) {
    *reinterpret_cast<Out*>(w.out()) = r.finalize(reduce_one(r, p, w.in(), o), o);
  }
}

// One reducer on one dtype, as the walk shared by every reducer (run_reduce, reduce_cpu.cpp) sees
// it: accumulators are opaque bytes, `acc_size` each, that only these functions read.
struct ReduceLoop {
  const void* reducer;
  std::size_t acc_size;
  // Outputs [begin, end), each on the calling thread.
  void (*outputs)(const void* r, const ReducePlan& p, std::int64_t begin, std::int64_t end);
  // values[j] = the value of run first + j of output o, whose first input element is at base.
  void (*runs)(const void* r, const ReducePlan& p, const char* base, std::int64_t first,
               std::int64_t count, std::int64_t o, void* values);
  // *value = the pairwise value of n elements from p, `stride` bytes apart, the first of them
  // with reduced index k.
  void (*tree)(const void* r, const char* p, std::int64_t n, std::int64_t stride, std::int64_t k,
               std::int64_t o, void* value);
  void (*identity)(const void* r, void* acc);
  // *acc = r(*acc, values[j]) for j < count, in order.
  void (*fold)(const void* r, void* acc, const void* values, std::int64_t count);
  // *out = r(*left, *right).
  void (*combine)(const void* r, void* out, const void* left, const void* right);
  // Output o's element at `out` = r.finalize(*acc, o).
  void (*finalize)(const void* r, const void* acc, std::int64_t o, char* out);
};

// The largest accumulator, in bytes: argmin's index with a complex128 value, or nanmean's
// complex128 sum with its count. The walk holds accumulators on its stack in slots of this size.
constexpr std::size_t kMaxAcc = 32;

void run_reduce(const ReduceLoop& loop, const ReducePlan& p);

template <class Acc>
Acc get_acc(const void* p) {
  Acc a{};
  std::memcpy(static_cast<void*>(&a), p, sizeof(Acc));
  return a;
}
template <class Acc>
void set_acc(void* p, const Acc& a) {
  std::memcpy(p, static_cast<const void*>(&a), sizeof(Acc));
}

template <class R>
ReduceLoop reduce_loop(const R& reducer) {
  using Acc = typename R::Acc;
  static_assert(std::is_trivially_copyable_v<Acc> && sizeof(Acc) <= kMaxAcc &&
                alignof(Acc) <= alignof(std::max_align_t));
  ReduceLoop l;
  l.reducer = &reducer;
  l.acc_size = sizeof(Acc);
  l.outputs = [](const void* r, const ReducePlan& p, std::int64_t begin, std::int64_t end) {
    reduce_outputs(*static_cast<const R*>(r), p, begin, end);
  };
  l.runs = [](const void* rp, const ReducePlan& p, const char* base, std::int64_t first,
              std::int64_t count, std::int64_t o, void* values) {
    const R& r = *static_cast<const R*>(rp);
    const int last = p.red_ndim - 1;
    const std::int64_t inner = p.red_shape[last];
    for_runs(p, base, first, first + count, [&](std::int64_t j, const char* ptr) {
      set_acc(static_cast<char*>(values) + (j - first) * sizeof(Acc),
              pairwise(r, ptr, inner, p.red_strides[last], j * inner, o));
    });
  };
  l.tree = [](const void* r, const char* p, std::int64_t n, std::int64_t stride, std::int64_t k,
              std::int64_t o, void* value) {
    set_acc(value, pairwise(*static_cast<const R*>(r), p, n, stride, k, o));
  };
  l.identity = [](const void* r, void* acc) { set_acc(acc, static_cast<const R*>(r)->identity()); };
  l.fold = [](const void* rp, void* acc, const void* values, std::int64_t count) {
    const R& r = *static_cast<const R*>(rp);
    Acc a = get_acc<Acc>(acc);
    for (std::int64_t j = 0; j < count; ++j) {
      a = r(a, get_acc<Acc>(static_cast<const char*>(values) + j * sizeof(Acc)));
    }
    set_acc(acc, a);
  };
  l.combine = [](const void* r, void* out, const void* left, const void* right) {
    set_acc(out, (*static_cast<const R*>(r))(get_acc<Acc>(left), get_acc<Acc>(right)));
  };
  l.finalize = [](const void* r, const void* acc, std::int64_t o, char* out) {
    *reinterpret_cast<typename R::Out*>(out) =
        static_cast<const R*>(r)->finalize(get_acc<Acc>(acc), o);
  };
  return l;
}

// The loop a reducer runs on the CPU: itself, but any, all and count_nonzero read only whether
// an element is nonzero, so on integers and bool they run the loops of the unsigned integer of
// their size.
template <class T>
using truth_t =
    std::conditional_t<is_integer_v<T> || std::is_same_v<T, bool>, bits_t<sizeof(T)>, T>;

template <class R>
struct cpu_loop_of {
  static const R& make(const R& r) { return r; }
};
#define NUMCU_TRUTH_LOOP(Reducer)                                          \
  template <class T>                                                       \
  struct cpu_loop_of<reduce::Reducer<T>> {                                 \
    static reduce::Reducer<truth_t<T>> make(const reduce::Reducer<T>& r) { \
      reduce::Reducer<truth_t<T>> f;                                       \
      f.p = r.p;                                                           \
      return f;                                                            \
    }                                                                      \
  };
NUMCU_TRUTH_LOOP(Any)
NUMCU_TRUTH_LOOP(All)
NUMCU_TRUTH_LOOP(CountNonzero)
#undef NUMCU_TRUTH_LOOP

template <class R>
void run_loop_of(const R& r, const ReducePlan& plan) {
  const auto runs_as = cpu_loop_of<R>::make(r);
  run_reduce(reduce_loop(runs_as), plan);
}

}  // namespace cpu_reduce
}  // namespace numcu

// Defines reduce_cpu_<e> for the reduction `e` of NUMCU_REDUCTIONS, whose reducer is R.
#define NUMCU_DEFINE_REDUCE_CPU(e, R)                                                            \
  void numcu::reduce_cpu_##e(DType dtype, const ReducePlan& plan, const ReduceParams& params) {  \
    visit_reducer<::numcu::reduce::R>(#e, dtype, params,                                         \
                                      [&](const auto& r) { cpu_reduce::run_loop_of(r, plan); }); \
  }
