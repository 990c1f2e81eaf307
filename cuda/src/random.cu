// numcu.random's kernels: one kernel template for every line of NUMCU_DISTRIBUTIONS, each thread
// making the values of whole Philox blocks (several values per block, stored as 16-byte
// vectors where the output allows) and the first thread(s) the head of values taken from
// NumPy's buffer. Compiled with -fmad=false (CMakeLists.txt), as the CPU backend is with
// -ffp-contract=off: the transforms' arithmetic is written with its fused multiply-adds spelled
// out, so that both backends round every operation the same way.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "numcu/cuda_check.hpp"
#include "numcu/distributions.hpp"
#include "numcu/errors.hpp"
#include "random_loop.hpp"

namespace numcu::random {
namespace {

constexpr int kThreads = 256;
// At most this many thread blocks: each thread then makes several Philox blocks' values,
// which spreads the per-thread set-up over more values.
constexpr std::int64_t kMaxGrid = 4096;

// out[0 .. count) = v[0 .. count), as 16-byte vectors when all N fit and out is aligned.
template <class T, int N>
__device__ __forceinline__ void store_values(T* out, const T (&v)[N], int count) {
  if constexpr ((N * sizeof(T)) % 16 == 0) {
    if (count >= N && (reinterpret_cast<std::uintptr_t>(out) & 15) == 0) {
      const uint4* src = reinterpret_cast<const uint4*>(v);
      uint4* dst = reinterpret_cast<uint4*>(out);
#pragma unroll
      for (int k = 0; k < static_cast<int>(N * sizeof(T) / 16); ++k) dst[k] = src[k];
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < N; ++k) {
    if (k < count) out[k] = v[k];
  }
}

// The bytes a thread's V values take in its warp's staging area, where they fit: staged, a warp
// writes the 32 * V values of its 32 consecutive Philox blocks as one contiguous, coalesced run
// (16-byte vectors where the run is aligned, else lane after lane), whatever the head's length
// does to the alignment of each thread's own values. Unstaged, a thread's stores are V values
// apart from its neighbours' (32 or 64 bytes), and single values where the head left them
// unaligned: measured on an H200, float32 random 4.3x slower and int64 integers (64 bytes a
// thread) 4.4x slower than their staged runs.
template <class T, int V>
constexpr int kStagedBytes = V * sizeof(T) <= 64 ? V * static_cast<int>(sizeof(T)) : 0;

// out[0 .. 32 * V) = stage[0 .. 32 * V), written by the 32 lanes of a warp together.
template <class T, int V>
__device__ __forceinline__ void warp_store(T* out, const T* stage, int lane) {
  constexpr int kValues = 32 * V;
  constexpr int kVectors = kValues * static_cast<int>(sizeof(T)) / 16;
  const auto at = reinterpret_cast<std::uintptr_t>(out);
  if ((at & 15) == 0) {
    const uint4* src = reinterpret_cast<const uint4*>(stage);
    uint4* dst = reinterpret_cast<uint4*>(out);
#pragma unroll
    for (int k = lane; k < kVectors; k += 32) dst[k] = src[k];
  } else if (sizeof(T) < 4 && (at & 3) == 0) {
    const std::uint32_t* src = reinterpret_cast<const std::uint32_t*>(stage);
    std::uint32_t* dst = reinterpret_cast<std::uint32_t*>(out);
#pragma unroll
    for (int k = lane; k < 4 * kVectors; k += 32) dst[k] = src[k];
  } else {
#pragma unroll
    for (int k = lane; k < kValues; k += 32) out[k] = stage[k];
  }
}

template <class F, class T, class U, int V>
__global__ void __launch_bounds__(kThreads)
    random_kernel(T* __restrict__ out, const NUMCU_GRID_CONSTANT Plan p) {
  const F f{};
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  // Values per store: at most 32 bytes' worth in registers at a time.
  constexpr int kChunk = std::max<int>(1, std::min<int>(V, 32 / static_cast<int>(sizeof(T))));
  constexpr int kStaged = kStagedBytes<T, V>;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  __shared__ alignas(16) unsigned char staging[kStaged > 0 ? kThreads * kStaged : 16];
  T* const warp_stage = reinterpret_cast<T*>(staging) + (threadIdx.x & ~31u) * V;
  // Blocks b < whole make V values each; a warp whose 32 blocks are all whole stages them where
  // a thread's own stores would be poor: single values (the head left the values unaligned, or a
  // thread's values are not whole 16-byte vectors) or 64 bytes a thread. Aligned runs of 16 or 32
  // bytes a thread are stored directly: the trip through shared memory cost them 5-11% (H200).
  const std::int64_t whole = (p.n - p.head) / V;
  const bool stage_warps =
      kStaged > 0 && (kStaged % 16 != 0 || kStaged > 32 ||
                      (reinterpret_cast<std::uintptr_t>(out + p.head) & 15) != 0);
  // (Not for integers: with it, int32 integers(0, 1000) measured 3% slower on an H200, int64
  // 1.5% faster; why was not found.)
  const bool shared_high = !std::is_same_v<F, Integers> && loop::counters_share_high_words(p);
  for (std::int64_t b = tid; b < p.blocks; b += stride) {
    U units[kUnits];
    const philox::Counter c =
        shared_high ? loop::block_units_shared_high(p, b, units) : loop::block_units(p, b, units);
    const std::int64_t first = p.head + b * V;
    const int count = static_cast<int>(std::min<std::int64_t>(V, p.n - first));
    // Uniform across the warp (b - lane is its first block); every lane is then in the loop.
    const bool staged = stage_warps && b - lane + 32 <= whole;
    T* const dst = staged ? warp_stage + lane * V : out + first;
    if constexpr (F::paired) {
      static_assert(V == kUnits, "pairs take one unit per value");
      alignas(16) T v[V];
#pragma unroll
      for (int q = 0; q < V / 2; ++q) {
        T z0, z1;
        F::pair(units[2 * q], units[2 * q + 1], z0, z1);
        if (2 * q < count) v[2 * q] = f.finish(z0, args_at(p.params, first + 2 * q));
        if (2 * q + 1 < count) v[2 * q + 1] = f.finish(z1, args_at(p.params, first + 2 * q + 1));
      }
      store_values(dst, v, count);
    } else if constexpr ((F::binding & kReject) != 0 && !std::is_same_v<F, Integers>) {
      // Long transforms (rejection loops): one copy of the transform, not one per value.
#pragma unroll 1
      for (int k = 0; k < count; ++k) {
        dst[k] = loop::block_value<F, T, U, V>(f, p, units, c, k, first + k);
      }
    } else if (count == V) {  // a whole block: no test per value
#pragma unroll
      for (int c0 = 0; c0 < V; c0 += kChunk) {
        alignas(16) T v[kChunk];
#pragma unroll
        for (int k = 0; k < kChunk; ++k) {
          v[k] = loop::block_value<F, T, U, V>(f, p, units, c, c0 + k, first + c0 + k);
        }
        store_values(dst + c0, v, kChunk);
      }
    } else {  // the last block, cut short
      // Its values are indexed at run time, so their units live in local memory: a copy of
      // its own, which keeps the whole blocks' units in registers (the compiler otherwise
      // stores every block's units to the stack before it branches: 32 bytes a block).
      U rest[kUnits];
#pragma unroll
      for (int k = 0; k < kUnits; ++k) rest[k] = units[k];
#pragma unroll 1
      for (int k = 0; k < count; ++k) {
        dst[k] = loop::block_value<F, T, U, V>(f, p, rest, c, k, first + k);
      }
    }
    if (staged) {
      __syncwarp();
      warp_store<T, V>(out + (first - static_cast<std::int64_t>(lane) * V), warp_stage, lane);
      __syncwarp();  // the stage is free for the warp's next blocks
    }
  }
  for (std::int64_t i = tid; i < p.head; i += stride) out[i] = loop::value_at<F, T, U>(f, p, i);
}

template <class F, class T, class U, int V>
void launch_variant(const Plan& p, void* out, cudaStream_t s) {
  const std::int64_t work = std::max<std::int64_t>(p.blocks, p.head);
  const auto grid = static_cast<unsigned>(
      std::clamp<std::int64_t>((work + kThreads - 1) / kThreads, 1, kMaxGrid));
  random_kernel<F, T, U, V><<<grid, kThreads, 0, s>>>(static_cast<T*>(out), p);
  NUMCU_CUDA_TRY(cudaGetLastError(), "random kernel launch");
}

template <class F, class T, class U>
void launch_unit(const Plan& p, void* out, cudaStream_t s) {
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  if constexpr (std::is_same_v<F, Integers>) {
    constexpr int kPacked = kUnits * loop::pack_of<T>;
    if constexpr (sizeof(U) == 4 && kPacked != kUnits) {
      if (p.values_per_block == kPacked) return launch_variant<F, T, U, kPacked>(p, out, s);
    }
    return launch_variant<F, T, U, kUnits>(p, out, s);
  } else {
    constexpr int kDraws = loop::table_traits<F>::draws;
    return launch_variant<F, T, U, kUnits / kDraws>(p, out, s);
  }
}

template <class F>
void launch(DType dtype, const Plan& p, void* out, cudaStream_t s) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (p.draws.unit == Unit::word) {
      if constexpr (loop::makes<F, T, std::uint64_t>()) {
        return launch_unit<F, T, std::uint64_t>(p, out, s);
      }
    } else {
      if constexpr (loop::makes<F, T, std::uint32_t>()) {
        return launch_unit<F, T, std::uint32_t>(p, out, s);
      }
    }
    throw_type_error(std::string("numcu.random: no kernel for ") + dtype_name(dtype));
  });
}

}  // namespace

void random_cuda(Distribution d, DType dtype, const Plan& plan, void* out, Stream stream) {
  if (plan.n <= 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  switch (d) {
#define NUMCU_CASE(name, F, draws, dtypes, doc) \
  case Distribution::name:                      \
    return launch<F>(dtype, plan, out, s);
    NUMCU_DISTRIBUTIONS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

}  // namespace numcu::random
