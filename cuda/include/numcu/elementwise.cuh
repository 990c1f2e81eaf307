// The elementwise CUDA kernels: one for contiguous operands (16-byte vector loads where every
// pointer is aligned for them), one for two collapsed dimensions, and one for any strides and
// broadcasts.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cuda/std/tuple>
#include <type_traits>
#include <utility>

#include "numcu/backend.hpp"
#include "numcu/cuda_check.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/ops.hpp"
#include "numcu/types.hpp"

namespace numcu::kernels {

constexpr int kBlock = 256;

// 16-byte vectors each thread of the contiguous kernel handles, all loaded before any is used,
// and the threads of its blocks. Measured on an H100 at n = 2^27: eight elements a thread keep
// the most bytes in flight without costing occupancy (float16 add: one vector of 8; float32 exp:
// two of 4); two-input float32 and wider types do best with four vectors. Two-input bfloat16,
// whose conversions to and from float32 take instructions float16's do not, does best with two
// vectors a thread in blocks of 512 (add: 3041 GB/s, against 3023 in float16's shape and 3035
// to 3036 in the other shapes of two vectors).
template <class Out, class... In>
constexpr bool bfloat16_binary =
    sizeof...(In) == 2 && (is_bfloat16_v<Out> || ... || is_bfloat16_v<In>);
constexpr int kBfloat16BinaryBlock = 512;
constexpr int kBfloat16BinaryVectors = 2;

template <int V, int Inputs>
constexpr int unroll_for() {
  if constexpr (V >= 8) {
    return 1;
  } else if constexpr (Inputs == 1) {
    return 8 / V;
  } else {
    return 4;
  }
}

template <class T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

template <int N>
struct ContiguousArgs {
  char* data[N];
  std::int64_t n;
  unsigned scalar_mask;
  alignas(16) unsigned char scalars[N][16];
};

template <class T, int N>
__device__ __forceinline__ T scalar_value(const unsigned char (&scalars)[N][16], int i) {
  T value;
  std::memcpy(&value, scalars[i], sizeof(T));
  return value;
}

template <class T, int V, int N>
__device__ __forceinline__ Vec<T, V> load_vec(const ContiguousArgs<N>& a, int i, std::int64_t e) {
  Vec<T, V> r;
  if ((a.scalar_mask >> i) & 1u) {
    const T s = scalar_value<T>(a.scalars, i);
#pragma unroll
    for (int k = 0; k < V; ++k) r.v[k] = s;
  } else {
    r = *reinterpret_cast<const Vec<T, V>*>(a.data[i] + e * static_cast<std::int64_t>(sizeof(T)));
  }
  return r;
}

template <class T, int N>
__device__ __forceinline__ T load_one(const ContiguousArgs<N>& a, int i, std::int64_t e) {
  if ((a.scalar_mask >> i) & 1u) return scalar_value<T>(a.scalars, i);
  return reinterpret_cast<const T*>(a.data[i])[e];
}

// The U vectors of one operand a thread of the contiguous kernel loads.
template <class T, int V, int U>
struct Vecs {
  Vec<T, V> u[U];
};

// Whole vectors only: the kernel below leaves the last n % V elements to one thread. The loads
// go into one array per operand (measured against one tuple per step: the same speed but for
// bfloat16 add in 512-thread blocks, 3041 GB/s against 3035).
template <int V, int U, int Block, class Op, class Out, class... In, std::size_t... I>
__device__ __forceinline__ void contiguous_tile(const Op& op,
                                                const ContiguousArgs<1 + sizeof...(In)>& a,
                                                std::int64_t first_vec, std::int64_t nvec,
                                                std::index_sequence<I...>) {
  cuda::std::tuple<Vecs<In, V, U>...> in;
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t c = first_vec + u * Block;
    if (c < nvec) {
      ((cuda::std::get<I>(in).u[u] = load_vec<In, V>(a, static_cast<int>(I) + 1, c * V)), ...);
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t c = first_vec + u * Block;
    if (c >= nvec) continue;
    Vec<Out, V> r;
#pragma unroll
    for (int k = 0; k < V; ++k) {
      r.v[k] = convert<Out>(op(convert<compute_t<In>>(cuda::std::get<I>(in).u[u].v[k])...));
    }
    *reinterpret_cast<Vec<Out, V>*>(a.data[0] + c * V * static_cast<std::int64_t>(sizeof(Out))) = r;
  }
}

template <class Op, class Out, class... In, std::size_t... I>
__device__ __forceinline__ void contiguous_element(const Op& op,
                                                   const ContiguousArgs<1 + sizeof...(In)>& a,
                                                   std::int64_t e, std::index_sequence<I...>) {
  reinterpret_cast<Out*>(a.data[0])[e] =
      convert<Out>(op(convert<compute_t<In>>(load_one<In>(a, static_cast<int>(I) + 1, e))...));
}

template <int V, int U, int Block, class Op, class Out, class... In>
__global__ void __launch_bounds__(Block)
    contiguous_kernel(Op op, ContiguousArgs<1 + sizeof...(In)> a) {
  const std::int64_t nvec = a.n / V;
  constexpr std::int64_t kTile = static_cast<std::int64_t>(Block) * U;
  for (std::int64_t tile = blockIdx.x; tile * kTile < nvec; tile += gridDim.x) {
    contiguous_tile<V, U, Block, Op, Out, In...>(op, a, tile * kTile + threadIdx.x, nvec,
                                                 std::index_sequence_for<In...>{});
  }
  if constexpr (V > 1) {
    if (blockIdx.x == 0 && threadIdx.x < a.n - nvec * V) {
      contiguous_element<Op, Out, In...>(op, a, nvec * V + threadIdx.x,
                                         std::index_sequence_for<In...>{});
    }
  }
}

template <class T, int N>
__device__ __forceinline__ T strided_load(const ElementwisePlan<N>& p, int i, std::int64_t offset) {
  if ((p.scalar_mask >> i) & 1u) return scalar_value<T>(p.scalars, i);
  return *reinterpret_cast<const T*>(p.data[i] + offset);
}

template <class Op, class Out, class... In, std::size_t... I>
__device__ __forceinline__ void strided_element(const Op& op,
                                                const ElementwisePlan<1 + sizeof...(In)>& p,
                                                const std::int64_t* off,
                                                std::index_sequence<I...>) {
  *reinterpret_cast<Out*>(p.data[0] + off[0]) = convert<Out>(
      op(convert<compute_t<In>>(strided_load<In>(p, static_cast<int>(I) + 1, off[I + 1]))...));
}

constexpr int kStridedPerThread = 4;

// Strided and broadcast operands: each element's offsets come from its index, divided down
// the dimensions in 32-bit arithmetic when the size allows it.
template <class Index, class Op, class Out, class... In>
__global__ void __launch_bounds__(kBlock)
    strided_kernel(Op op, ElementwisePlan<1 + sizeof...(In)> p) {
  constexpr int N = 1 + sizeof...(In);
  const Index n = static_cast<Index>(p.size);
  constexpr Index kTile = static_cast<Index>(kBlock) * kStridedPerThread;
  for (Index tile = blockIdx.x; tile * kTile < n; tile += gridDim.x) {
#pragma unroll 1
    for (int u = 0; u < kStridedPerThread; ++u) {
      const Index idx = tile * kTile + u * kBlock + threadIdx.x;
      if (idx >= n) break;
      std::int64_t off[N] = {};
      Index rem = idx;
#pragma unroll 1
      for (int d = p.ndim - 1; d >= 0; --d) {
        const Index extent = static_cast<Index>(p.shape[d]);
        const Index q = rem / extent;
        const std::int64_t r = static_cast<std::int64_t>(rem - q * extent);
        rem = q;
#pragma unroll
        for (int i = 0; i < N; ++i) off[i] += r * p.strides[i][d];
      }
      strided_element<Op, Out, In...>(op, p, off, std::index_sequence_for<In...>{});
    }
  }
}

// Two collapsed dimensions (broadcasts such as a column plus a row, transposed operands): no
// division at all. A warp covers 32 neighbouring columns, so the output (innermost last) is
// written in whole 128-byte lines; each thread takes kRunRows consecutive rows of its column,
// which an operand walked down its columns (a transposed one) holds side by side: one vector
// load, whose 32-byte sector the neighbouring thread rows of the block share through L1. A block
// goes down kTileRows rows. Operands constant along a dimension (broadcast) are loaded once.
constexpr int kTileCols = 32;
constexpr int kTileThreadRows = kBlock / kTileCols;
constexpr int kRunRows = 4;
constexpr int kTileRows = 128;

template <class T>
struct RunLoader {
  // The kRunRows values of operand i at column offset `base` from row `row` on.
  template <int N>
  __device__ __forceinline__ static void load(const ElementwisePlan<N>& p, int i, bool as_vector,
                                              std::int64_t base, std::int64_t row, int count,
                                              T (&v)[kRunRows]) {
    if ((p.scalar_mask >> i) & 1u) {
      const T s = scalar_value<T>(p.scalars, i);
#pragma unroll
      for (int j = 0; j < kRunRows; ++j) v[j] = s;
      return;
    }
    const std::int64_t s0 = p.strides[i][0];
    const char* ptr = p.data[i] + base + row * s0;
    if constexpr (sizeof(T) * kRunRows <= 16) {
      if (as_vector && count == kRunRows) {
        const Vec<T, kRunRows> x = *reinterpret_cast<const Vec<T, kRunRows>*>(ptr);
#pragma unroll
        for (int j = 0; j < kRunRows; ++j) v[j] = x.v[j];
        return;
      }
    }
    if (s0 == 0) {
      const T x = *reinterpret_cast<const T*>(ptr);
#pragma unroll
      for (int j = 0; j < kRunRows; ++j) v[j] = x;
      return;
    }
#pragma unroll
    for (int j = 0; j < kRunRows; ++j) {
      if (j < count) v[j] = *reinterpret_cast<const T*>(ptr + j * s0);
    }
  }
};

template <class Op, class Out, class... In, std::size_t... I>
__device__ __forceinline__ void tiled2d_run(const Op& op,
                                            const ElementwisePlan<1 + sizeof...(In)>& p,
                                            unsigned vector_mask, const std::int64_t* col_off,
                                            std::int64_t row, int count,
                                            std::index_sequence<I...>) {
  cuda::std::tuple<Vec<In, kRunRows>...> in;
  (RunLoader<In>::load(p, static_cast<int>(I) + 1, (vector_mask >> (I + 1)) & 1u, col_off[I + 1],
                       row, count, cuda::std::get<I>(in).v),
   ...);
  char* out = p.data[0] + col_off[0] + row * p.strides[0][0];
#pragma unroll
  for (int j = 0; j < kRunRows; ++j) {
    if (j < count) {
      *reinterpret_cast<Out*>(out + j * p.strides[0][0]) =
          convert<Out>(op(convert<compute_t<In>>(cuda::std::get<I>(in).v[j])...));
    }
  }
}

// vector_mask bit i: operand i's runs of kRunRows rows are contiguous and aligned for one load.
template <class Op, class Out, class... In>
__global__ void __launch_bounds__(kBlock)
    tiled2d_kernel(Op op, ElementwisePlan<1 + sizeof...(In)> p, unsigned vector_mask) {
  constexpr int N = 1 + sizeof...(In);
  const std::int64_t rows = p.shape[0], cols = p.shape[1];
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kTileCols + threadIdx.x;
  if (col >= cols) return;
  std::int64_t col_off[N];
#pragma unroll
  for (int i = 0; i < N; ++i) col_off[i] = col * p.strides[i][1];
  for (std::int64_t row0 = static_cast<std::int64_t>(blockIdx.y) * kTileRows; row0 < rows;
       row0 += static_cast<std::int64_t>(gridDim.y) * kTileRows) {
#pragma unroll
    for (int r = 0; r < kTileRows / (kTileThreadRows * kRunRows); ++r) {
      const std::int64_t row = row0 + (r * kTileThreadRows + threadIdx.y) * kRunRows;
      if (row < rows) {
        const int count = rows - row < kRunRows ? static_cast<int>(rows - row) : kRunRows;
        tiled2d_run<Op, Out, In...>(op, p, vector_mask, col_off, row, count,
                                    std::index_sequence_for<In...>{});
      }
    }
  }
}

// Which operands tiled2d_kernel may load kRunRows rows at a time.
template <class... T, int N>
unsigned run_vector_mask(const ElementwisePlan<N>& p) {
  constexpr std::size_t sizes[N] = {sizeof(T)...};
  unsigned mask = 0;
  for (int i = 1; i < N; ++i) {
    const std::int64_t run = static_cast<std::int64_t>(sizes[i]) * kRunRows;
    if (((p.scalar_mask >> i) & 1u) || run > 16) continue;
    const bool ok = p.strides[i][0] == static_cast<std::int64_t>(sizes[i]) &&
                    reinterpret_cast<std::uintptr_t>(p.data[i]) % run == 0 &&
                    p.strides[i][1] % run == 0;
    if (ok) mask |= 1u << i;
  }
  return mask;
}

inline unsigned grid_for(std::int64_t items, std::int64_t per_block) {
  const std::int64_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(blocks < 0x7fffffff ? (blocks > 0 ? blocks : 1) : 0x7fffffff);
}

template <class... T>
constexpr int vector_width() {
  constexpr std::size_t largest = std::max({sizeof(T)...});
  return static_cast<int>(16 / largest);
}

// How many kernels an operation instantiates. `full` (the hot arithmetic on real types): the
// vectorised and the unaligned contiguous kernels, the 2-D tiled kernel, and 32- and 64-bit
// indexed strided kernels. `lean` (everything else, casts included): the vectorised contiguous
// kernel and one 64-bit strided kernel, which also takes unaligned contiguous operands.
enum class Variants { full, lean };

// Functions with bodies of a hundred instructions or more run bound by computation, not memory:
// the contiguous kernel gives them one vector a thread, not several, which keeps their kernels a
// fraction of the size at the same speed. They are the complex functions other than the
// arithmetic below, float64 transcendental functions, and the float32 and float64 binary ones
// (float32 exp, sin and the like keep the unrolling measured for them).
template <class Op>
constexpr bool unary_transcendental =
    is_any_of_v<Op, ops::Cbrt, ops::Exp, ops::Exp2, ops::Expm1, ops::Log, ops::Log2, ops::Log10,
                ops::Log1p, ops::Sin, ops::Cos, ops::Tan, ops::Arcsin, ops::Arccos, ops::Arctan,
                ops::Sinh, ops::Cosh, ops::Tanh, ops::Arcsinh, ops::Arccosh, ops::Arctanh>;

template <class Op>
constexpr bool binary_transcendental = is_any_of_v<Op, ops::Power, ops::FloorDivide, ops::Remainder,
                                                   ops::Logaddexp, ops::Arctan2, ops::Hypot>;

template <class Op, class Out>
constexpr bool long_body =
    (is_complex_v<Out> &&
     !is_any_of_v<Op, ops::Add, ops::Subtract, ops::Multiply, ops::Negative, ops::Positive,
                  ops::Square, ops::Copy, ops::Where, ops::Maximum, ops::Minimum, ops::Fmax,
                  ops::Fmin, ops::Clip>) ||
    (std::is_same_v<Out, double> && unary_transcendental<Op>) ||
    (std::is_floating_point_v<Out> && binary_transcendental<Op>);

// Queues out = op(in...) over the plan on `stream`.
template <Variants Kinds, class Op, class Out, class... In>
void launch_elementwise_variants(const Op& op, const ElementwisePlan<1 + sizeof...(In)>& p,
                                 cudaStream_t stream) {
  constexpr int N = 1 + sizeof...(In);
  // Complex arithmetic takes the lean set: its bodies are several times longer, and the extra
  // kernels the full set adds for it would cost a third of the module's complex code. bfloat16
  // takes it too, to keep the fifteenth dtype's share of the module small.
  constexpr bool full = Kinds == Variants::full && !(is_complex_v<In> || ...) &&
                        !is_bfloat16_v<Out> && !(is_bfloat16_v<In> || ...);
  constexpr int kItemSizes[N] = {static_cast<int>(sizeof(Out)), static_cast<int>(sizeof(In))...};
  constexpr int kAlignments[N] = {static_cast<int>(alignof(Out)), static_cast<int>(alignof(In))...};
  check_launch(p, kItemSizes, kAlignments);
  if (p.size == 0) return;
  constexpr int V = vector_width<Out, In...>();
  if (p.contiguous) {
    ContiguousArgs<N> a;
    for (int i = 0; i < N; ++i) a.data[i] = p.data[i];
    a.n = p.size;
    a.scalar_mask = p.scalar_mask;
    std::memcpy(a.scalars, p.scalars, sizeof(a.scalars));
    constexpr std::size_t sizes[N] = {sizeof(Out), sizeof(In)...};
    bool aligned = true;
    for (int i = 0; i < N && aligned; ++i) {
      if (!((p.scalar_mask >> i) & 1u)) {
        aligned = reinterpret_cast<std::uintptr_t>(p.data[i]) % (sizes[i] * V) == 0;
      }
    }
    if (aligned) {
      constexpr bool bf16_shape = bfloat16_binary<Out, In...> && V == 8 && !long_body<Op, Out>;
      constexpr int U = long_body<Op, Out> ? 1
                        : bf16_shape       ? kBfloat16BinaryVectors
                                           : unroll_for<V, N - 1>();
      constexpr int B = bf16_shape ? kBfloat16BinaryBlock : kBlock;
      const unsigned grid = grid_for(p.size / V, B * U);
      contiguous_kernel<V, U, B, Op, Out, In...><<<grid, B, 0, stream>>>(op, a);
      NUMCU_CUDA_TRY(cudaGetLastError(), "elementwise kernel launch");
      return;
    }
    if constexpr (full && V > 1) {
      constexpr int U = long_body<Op, Out> ? 1 : unroll_for<1, N - 1>();
      contiguous_kernel<1, U, kBlock, Op, Out, In...>
          <<<grid_for(p.size, kBlock * U), kBlock, 0, stream>>>(op, a);
      NUMCU_CUDA_TRY(cudaGetLastError(), "elementwise kernel launch");
      return;
    }
  }
  if constexpr (full) {
    if (p.ndim == 2 && p.shape[1] >= kTileCols) {
      const std::int64_t tiles_y = (p.shape[0] + kTileRows - 1) / kTileRows;
      const dim3 grid(grid_for(p.shape[1], kTileCols),
                      static_cast<unsigned>(tiles_y < 65535 ? tiles_y : 65535));
      tiled2d_kernel<Op, Out, In...><<<grid, dim3(kTileCols, kTileThreadRows), 0, stream>>>(
          op, p, run_vector_mask<Out, In...>(p));
      NUMCU_CUDA_TRY(cudaGetLastError(), "elementwise kernel launch");
      return;
    }
    if (p.size <= 0xffffffffLL) {
      strided_kernel<std::uint32_t, Op, Out, In...>
          <<<grid_for(p.size, kBlock * kStridedPerThread), kBlock, 0, stream>>>(op, p);
      NUMCU_CUDA_TRY(cudaGetLastError(), "elementwise kernel launch");
      return;
    }
  }
  strided_kernel<std::uint64_t, Op, Out, In...>
      <<<grid_for(p.size, kBlock * kStridedPerThread), kBlock, 0, stream>>>(op, p);
  NUMCU_CUDA_TRY(cudaGetLastError(), "elementwise kernel launch");
}

}  // namespace numcu::kernels
