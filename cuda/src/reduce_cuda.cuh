// The CUDA reductions: one kernel per reducer and input type, laid out per call (see
// reduce_layout.hpp). A launch does the whole reduction: lanes fold their elements with
// kReduceUnroll independent accumulators, a block combines its lanes (warp shuffles along x,
// shared memory along y), and where several blocks share an output the last of them to finish
// combines their partial results. Every combination happens in an order fixed by the layout,
// which depends only on the plan and the device: the same input gives the same bits run to run.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "numcu/cuda_check.hpp"
#include "numcu/dtype.hpp"
#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"
#include "output_position.cuh"
#include "reduce_families.hpp"
#include "reduce_groups.hpp"
#include "reduce_layout.hpp"
#include "stream_scratch.hpp"

namespace numcu {
namespace kernels {

template <class T, int V>
struct alignas(sizeof(T) * V) ReduceVec {
  T v[V];
};

// Elements a lane of a contiguous row loads as one vector (16 bytes, or fewer for reducers whose
// combination is long: argmin/argmax and nanmean keep at most four elements a vector, so that a
// tile's unrolled body stays small), and neighbouring outputs a slot reads at once (at most four,
// so that a slot holds at most four accumulators).
template <class R>
constexpr int in_vector() {
  using T = typename R::In;
  constexpr int fit = sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));
  constexpr bool long_combine = sizeof(typename R::Acc) > 8;
  return long_combine && fit > 4 ? 4 : fit;
}
template <class T>
constexpr int out_vector() {
  return sizeof(T) >= 16 ? 1 : (16 / sizeof(T) > 4 ? 4 : static_cast<int>(16 / sizeof(T)));
}

// A trivially copyable value of any size, as 32-bit words, for shuffles and uncached loads.
template <class A>
struct Words {
  static constexpr int count = static_cast<int>((sizeof(A) + 3) / 4);
  unsigned w[count];
};

template <class A>
__device__ __forceinline__ A shuffle_down(A value, int offset, int width) {
  Words<A> words{};
  std::memcpy(&words, &value, sizeof(A));
#pragma unroll
  for (int i = 0; i < Words<A>::count; ++i) {
    words.w[i] = __shfl_down_sync(0xffffffffu, words.w[i], offset, width);
  }
  std::memcpy(&value, &words, sizeof(A));
  return value;
}

// A value another block wrote in this launch: from L2, past this multiprocessor's L1, which may
// hold the line from an earlier read of a neighbouring block's partial results.
template <class A>
__device__ __forceinline__ A load_from_l2(const A* ptr) {
  A value;
  if constexpr (sizeof(A) % 8 == 0 && alignof(A) >= 8) {
    unsigned long long w[sizeof(A) / 8];
#pragma unroll
    for (std::size_t i = 0; i < sizeof(A) / 8; ++i) {
      w[i] = __ldcg(reinterpret_cast<const unsigned long long*>(ptr) + i);
    }
    std::memcpy(&value, w, sizeof(A));
  } else if constexpr (sizeof(A) % 4 == 0 && alignof(A) >= 4) {
    unsigned w[sizeof(A) / 4];
#pragma unroll
    for (std::size_t i = 0; i < sizeof(A) / 4; ++i) {
      w[i] = __ldcg(reinterpret_cast<const unsigned*>(ptr) + i);
    }
    std::memcpy(&value, w, sizeof(A));
  } else {
    unsigned char b[sizeof(A)];
#pragma unroll
    for (std::size_t i = 0; i < sizeof(A); ++i) {
      b[i] = __ldcg(reinterpret_cast<const unsigned char*>(ptr) + i);
    }
    std::memcpy(&value, b, sizeof(A));
  }
  return value;
}

template <class T>
__device__ __forceinline__ T load_element(const char* p) {
  return *reinterpret_cast<const T*>(p);
}

// A 16-byte vector through the read-only path.
template <class Vec>
__device__ __forceinline__ Vec load_vector(const Vec* p) {
  if constexpr (sizeof(Vec) == 16) {
    const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
    Vec v;
    std::memcpy(&v, &raw, sizeof(Vec));
    return v;
  } else {
    return *p;
  }
}

// Byte offset of reduced element k (C order over the reduced dimensions).
__device__ __forceinline__ std::int64_t reduced_offset(const ReducePlan& p, std::int64_t k) {
  std::int64_t offset = 0;
#pragma unroll 1
  for (int d = p.red_ndim - 1; d >= 0; --d) {
    const std::int64_t q = k / p.red_shape[d];
    offset += (k - q * p.red_shape[d]) * p.red_strides[d];
    k = q;
  }
  return offset;
}

// Where a lane's elements are: tiles of kReduceUnroll x lanes units, the tiles dealt out to the
// blocks sharing the output in turn; lane l takes units l, l + lanes, ... of each of its tiles.
struct LaneWalk {
  std::int64_t first;      // the lane's first unit
  std::int64_t lanes;      // lanes of a block sharing the output
  std::int64_t tile_step;  // from one of the lane's tiles to its next
  std::int64_t global;     // the lane's index among all lanes of the output
  std::int64_t all;        // all lanes of the output
};

// Folds element x (index k of output o) into an accumulator that holds only elements before k:
// the reducer's fold_next where it has one (cheaper when order decides ties), else leaf and
// combine.
template <class R, class = void>
struct has_fold_next : std::false_type {};
template <class R>
struct has_fold_next<R, std::void_t<decltype(&R::fold_next)>> : std::true_type {};

template <class R>
__device__ __forceinline__ typename R::Acc fold_next(const R& r, typename R::Acc a,
                                                     typename R::In x, std::int64_t k,
                                                     std::int64_t o) {
  if constexpr (has_fold_next<R>::value) {
    return r.fold_next(a, x, k, o);
  } else {
    return r(a, r.leaf(x, k, o));
  }
}

// A reducer's fold_vector, where it has one, folds a whole vector of elements that follow the
// accumulator's (cheaper than one fold_next each where most of an element's cost is its index).
template <class R, class = void>
struct has_fold_vector : std::false_type {};
template <class R>
struct has_fold_vector<
    R, std::void_t<decltype(std::declval<const R&>().fold_vector(
           std::declval<typename R::Acc>(), std::declval<const typename R::In (&)[1]>(),
           std::int64_t{}, std::int64_t{}))>> : std::true_type {};

template <class R, class Acc>
__device__ __forceinline__ Acc fold_accumulators(const R& r, Acc (&a)[kReduceUnroll]) {
#pragma unroll
  for (int u = 1; u < kReduceUnroll; ++u) a[0] = r(a[0], a[u]);
  return a[0];
}

// A contiguous row of n elements from `row`: the elements before the first vector boundary and
// after the last whole vector one at a time, the rest in vectors.
template <class R>
__device__ __forceinline__ typename R::Acc fold_row_vectors(const R& r, const char* row,
                                                            std::int64_t n, std::int64_t o,
                                                            const LaneWalk& w) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  constexpr int V = in_vector<R>();
  using Vec = ReduceVec<T, V>;
  constexpr std::uintptr_t bytes = sizeof(Vec);
  const std::uintptr_t misaligned = reinterpret_cast<std::uintptr_t>(row) % bytes;
  std::int64_t head =
      misaligned == 0 ? 0 : static_cast<std::int64_t>((bytes - misaligned) / sizeof(T));
  if (head > n) head = n;
  const Vec* vec = reinterpret_cast<const Vec*>(row + head * static_cast<std::int64_t>(sizeof(T)));
  const std::int64_t nvec = (n - head) / V;
  Acc a[kReduceUnroll];
#pragma unroll
  for (int u = 0; u < kReduceUnroll; ++u) a[u] = r.identity();
  // Each accumulator meets its elements in index order: the head first, then the vectors,
  // then the tail.
  const T* elements = reinterpret_cast<const T*>(row);
  for (std::int64_t k = w.global; k < head; k += w.all)
    a[0] = fold_next(r, a[0], elements[k], k, o);
  // One loop for whole tiles and the last one, which may run past the end: predicated loads
  // cost a memory-bound loop nothing and keep one copy of the unrolled body.
#pragma unroll 1
  for (std::int64_t i = w.first; i < nvec; i += w.tile_step) {
    Vec x[kReduceUnroll];
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) {
      if (i + u * w.lanes < nvec) x[u] = load_vector(vec + i + u * w.lanes);
    }
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) {
      const std::int64_t c = i + u * w.lanes;
      if (c < nvec) {
        if constexpr (has_fold_vector<R>::value) {
          a[u] = r.fold_vector(a[u], x[u].v, head + c * V, o);
        } else {
#pragma unroll
          for (int j = 0; j < V; ++j) a[u] = fold_next(r, a[u], x[u].v[j], head + c * V + j, o);
        }
      }
    }
  }
  for (std::int64_t k = head + nvec * V + w.global; k < n; k += w.all) {
    a[0] = fold_next(r, a[0], elements[k], k, o);
  }
  return fold_accumulators(r, a);
}

// Any reduced elements of one output, one at a time. Reduced dimensions that did not merge take
// a loop that is not unrolled: it divides the index down the dimensions for every element, and
// 64-bit divisions are long.
template <class R>
__device__ __forceinline__ typename R::Acc fold_elements(const R& r, const ReducePlan& p,
                                                         const char* in, std::int64_t o,
                                                         const LaneWalk& w) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  const std::int64_t n = p.n_red;
  Acc a[kReduceUnroll];
#pragma unroll
  for (int u = 0; u < kReduceUnroll; ++u) a[u] = r.identity();
  if (p.red_ndim != 1) {
#pragma unroll 1
    for (std::int64_t t = w.first; t < n; t += w.tile_step) {
#pragma unroll 1
      for (std::int64_t k = t; k < n && k < t + kReduceUnroll * w.lanes; k += w.lanes) {
        a[0] = fold_next(r, a[0], load_element<T>(in + reduced_offset(p, k)), k, o);
      }
    }
    return a[0];
  }
  const std::int64_t stride = p.red_strides[0];
#pragma unroll 1
  for (std::int64_t k = w.first; k < n; k += w.tile_step) {
    T x[kReduceUnroll];
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) {
      if (k + u * w.lanes < n) x[u] = load_element<T>(in + (k + u * w.lanes) * stride);
    }
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) {
      if (k + u * w.lanes < n) a[u] = fold_next(r, a[u], x[u], k + u * w.lanes, o);
    }
  }
  return fold_accumulators(r, a);
}

// OV neighbouring outputs from o, read as one vector per reduced element. Each accumulator meets
// its elements in index order, as in the loops above.
template <class R, int OV>
__device__ __forceinline__ void fold_output_vectors(const R& r, const ReducePlan& p, const char* in,
                                                    std::int64_t o, const LaneWalk& w,
                                                    typename R::Acc (&a)[OV]) {
  using T = typename R::In;
  using Vec = ReduceVec<T, OV>;
  const std::int64_t n = p.n_red;
  if (p.red_ndim != 1) {
#pragma unroll 1
    for (std::int64_t t = w.first; t < n; t += w.tile_step) {
#pragma unroll 1
      for (std::int64_t k = t; k < n && k < t + kReduceUnroll * w.lanes; k += w.lanes) {
        const Vec x = *reinterpret_cast<const Vec*>(in + reduced_offset(p, k));
#pragma unroll
        for (int j = 0; j < OV; ++j) a[j] = fold_next(r, a[j], x.v[j], k, o + j);
      }
    }
    return;
  }
  const std::int64_t stride = p.red_strides[0];
#pragma unroll 1
  for (std::int64_t k = w.first; k < n; k += w.tile_step) {
    Vec x[kReduceUnroll];
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) {
      if (k + u * w.lanes < n)
        x[u] = *reinterpret_cast<const Vec*>(in + (k + u * w.lanes) * stride);
    }
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) {
      if (k + u * w.lanes < n) {
#pragma unroll
        for (int j = 0; j < OV; ++j) a[j] = fold_next(r, a[j], x[u].v[j], k + u * w.lanes, o + j);
      }
    }
  }
}

// Combines the lanes of each slot; lane 0 ends with the result. Lanes along x: shuffles within
// each warp, then one warp per row over the warps' results. Lanes along y: a tree in shared
// memory, OV values a thread.
template <class R, int OV>
__device__ __forceinline__ void combine_lanes(const R& r, const ReduceLayout& c, int ov,
                                              typename R::Acc (&a)[OV], unsigned char* shared) {
  using Acc = typename R::Acc;
  Acc* smem = reinterpret_cast<Acc*>(shared);
  if (c.lanes_along_x) {
    const int lanes = blockDim.x;
    const int width = lanes < 32 ? lanes : 32;
    for (int offset = width / 2; offset > 0; offset /= 2) {
      a[0] = r(a[0], shuffle_down(a[0], offset, width));
    }
    if (lanes > 32) {
      const int warps = lanes / 32;
      if (threadIdx.x % 32 == 0) smem[threadIdx.y * warps + threadIdx.x / 32] = a[0];
      __syncthreads();
      if (threadIdx.x < 32) {
        if (static_cast<int>(threadIdx.x) < warps) a[0] = smem[threadIdx.y * warps + threadIdx.x];
        for (int offset = warps / 2; offset > 0; offset /= 2) {
          a[0] = r(a[0], shuffle_down(a[0], offset, warps));
        }
      }
      __syncthreads();  // the shared memory may be used again
    }
    return;
  }
  const int lanes = blockDim.y;
  if (lanes == 1) return;
  const int self = (threadIdx.y * blockDim.x + threadIdx.x) * ov;
  const int below = blockDim.x * ov;
#pragma unroll
  for (int j = 0; j < OV; ++j) {
    if (j < ov) smem[self + j] = a[j];
  }
  for (int offset = lanes / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (static_cast<int>(threadIdx.y) < offset) {
#pragma unroll
      for (int j = 0; j < OV; ++j) {
        if (j < ov) {
          a[j] = r(a[j], smem[self + offset * below + j]);
          smem[self + j] = a[j];
        }
      }
    }
  }
  __syncthreads();
}

template <class R>
__global__ void __launch_bounds__(kReduceMaxBlock)
    reduce_kernel(R r, ReducePlan p, ReduceLayout c) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  using Out = typename R::Out;
  constexpr int OV = out_vector<T>();
  extern __shared__ __align__(16) unsigned char shared[];
  __shared__ bool last_block;

  const bool along_x = c.lanes_along_x;
  const int lane = along_x ? threadIdx.x : threadIdx.y;
  const int lanes = along_x ? blockDim.x : blockDim.y;
  const int slot = along_x ? threadIdx.y : threadIdx.x;
  const int slots = along_x ? blockDim.y : blockDim.x;
  const int ov = c.outputs_per_slot;
  const std::int64_t o = (static_cast<std::int64_t>(blockIdx.x) * slots + slot) * ov;

  LaneWalk w;
  w.lanes = lanes;
  w.first = static_cast<std::int64_t>(blockIdx.y) * kReduceUnroll * lanes + lane;
  w.tile_step = static_cast<std::int64_t>(gridDim.y) * kReduceUnroll * lanes;
  w.global = static_cast<std::int64_t>(blockIdx.y) * lanes + lane;
  w.all = static_cast<std::int64_t>(gridDim.y) * lanes;

  Acc a[OV];
#pragma unroll
  for (int j = 0; j < OV; ++j) a[j] = r.identity();
  std::int64_t out_offset = 0;
  if (o < p.n_out) {
    const char* in = p.in;
    output_position(p, o, in, out_offset);
    if constexpr (in_vector<R>() > 1) {
      if (c.vector_in) {
        a[0] = fold_row_vectors(r, in, p.n_red, o, w);
      } else if (OV > 1 && ov > 1) {
        fold_output_vectors<R, OV>(r, p, in, o, w, a);
      } else {
        a[0] = fold_elements(r, p, in, o, w);
      }
    } else {
      a[0] = fold_elements(r, p, in, o, w);
    }
  }
  // Pass 0 combines the block's lanes; where several blocks share the outputs, the last of them
  // reads every block's result into its lanes and pass 1 combines those.
#pragma unroll 1
  for (int pass = 0;; ++pass) {
    combine_lanes<R, OV>(r, c, ov, a, shared);
    if (pass == 1 || gridDim.y == 1) break;
    Acc* partial = static_cast<Acc*>(c.partial);
    const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * gridDim.y;
    if (lane == 0) {
#pragma unroll
      for (int j = 0; j < OV; ++j) {
        if (j < ov) partial[((tile + blockIdx.y) * slots + slot) * ov + j] = a[j];
      }
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      const unsigned done = atomicAdd(&c.counters[blockIdx.x], 1u);
      last_block = done == gridDim.y - 1;
      // Every block of the tile has counted: the counter is free for the next launch.
      if (last_block) c.counters[blockIdx.x] = 0;
    }
    __syncthreads();
    if (!last_block) return;
    __threadfence();
#pragma unroll
    for (int j = 0; j < OV; ++j) a[j] = r.identity();
    for (int b = lane; b < static_cast<int>(gridDim.y); b += lanes) {
#pragma unroll
      for (int j = 0; j < OV; ++j) {
        if (j < ov) a[j] = r(a[j], load_from_l2(&partial[((tile + b) * slots + slot) * ov + j]));
      }
    }
  }

  if (lane == 0 && o < p.n_out) {
    const std::int64_t step = p.out_strides[p.out_ndim - 1];
#pragma unroll
    for (int j = 0; j < OV; ++j) {
      if (j < ov) *reinterpret_cast<Out*>(p.out + out_offset + j * step) = r.finalize(a[j], o + j);
    }
  }
}

template <class R>
void launch_reduce(const R& r, const ReducePlan& p, cudaStream_t stream) {
  using T = typename R::In;
  using Acc = typename R::Acc;
  if (p.n_out == 0) return;
  // Threads of this kernel a multiprocessor holds at once (its registers decide), asked once.
  static const int resident = [] {
    int blocks = 0;
    const std::size_t shared = std::size_t{kReduceMaxBlock} * out_vector<T>() * sizeof(Acc);
    NUMCU_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reduce_kernel<R>,
                                                                 kReduceMaxBlock, shared),
                   "reduction kernel occupancy");
    return (blocks > 0 ? blocks : 1) * kReduceMaxBlock;
  }();
  const ReduceTypeInfo type{static_cast<int>(sizeof(T)), static_cast<int>(sizeof(Acc)),
                            in_vector<R>(), out_vector<T>(), resident};
  ReduceLayout c = choose_reduce_layout(p, type);
  const dim3 grid(c.grid_x, c.ctas), block(c.block_x, c.block_y);
  if (c.ctas > 1) {
    cuda::ScratchLease scratch(stream, reduce_partial_bytes(c, type.acc_size));
    c.counters = scratch.counters();
    c.partial = scratch.data();
    reduce_kernel<R><<<grid, block, c.shared_bytes, stream>>>(r, p, c);
    NUMCU_CUDA_TRY(cudaGetLastError(), "reduction kernel launch");
    return;
  }
  reduce_kernel<R><<<grid, block, c.shared_bytes, stream>>>(r, p, c);
  NUMCU_CUDA_TRY(cudaGetLastError(), "reduction kernel launch");
}

template <class R>
void launch_family(const R& r, const ReducePlan& p, Stream stream) {
  launch_reduce(reduce::family_of<R>::make(r), p, static_cast<cudaStream_t>(stream));
}

}  // namespace kernels
}  // namespace numcu

// Defines reduce_cuda_<e> for the reduction `e` of NUMCU_REDUCTIONS, whose reducer is R.
#define NUMCU_DEFINE_REDUCE_CUDA(e, R)                                                         \
  void numcu::reduce_cuda_##e(DType dtype, const ReducePlan& plan, const ReduceParams& params, \
                              Stream stream) {                                                 \
    visit_reducer<::numcu::reduce::R>(                                                         \
        #e, dtype, params, [&](const auto& r) { kernels::launch_family(r, plan, stream); });   \
  }
