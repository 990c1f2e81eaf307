// numcu.random's choice without replacement on the GPU: the candidates (distributions.hpp's
// Candidates) in three passes over the stream's words, each CUDA block a fixed range of Philox
// blocks so that the candidates land in index order without any ordering between threads:
// counts per range, their offsets (and whether the threshold kept between k and capacity
// words), then the words again, written at their offsets. A fourth kernel, which returns at once
// unless the threshold failed (probability below 1e-30), finds an exact threshold alone.
#include <algorithm>

#include "numcu/cuda_check.hpp"
#include "numcu/distributions.hpp"
#include "random_loop.hpp"

namespace numcu::random {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxGroups = 2048;
constexpr std::uint64_t kAllOnes = ~0ull;

int groups_for(const Plan& p) {
  return static_cast<int>(
      std::clamp<std::int64_t>((p.blocks + kThreads - 1) / kThreads, 1, kMaxGroups));
}

// Exclusive prefix sum of v over the block's threads; `total` receives the sum.
__device__ int block_exclusive_sum(int v, int& total) {
  __shared__ int warp_sums[kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int x = v;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const int y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kThreads / 32 ? warp_sums[lane] : 0;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const int y = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += y;
    }
    if (lane < kThreads / 32) warp_sums[lane] = w;
  }
  __syncthreads();
  const int before = warp > 0 ? warp_sums[warp - 1] : 0;
  total = warp_sums[kThreads / 32 - 1];
  __syncthreads();
  return before + x - v;
}

// Counts (and with `write`, writes from `base` on, up to `capacity`) the words at most t of the
// Philox blocks [b0, b1) and, with `head`, the plan's head words first, in index order. Every
// thread of the block calls it and gets the count.
__device__ std::int64_t compact(const Plan& p, std::uint64_t t, std::int64_t b0, std::int64_t b1,
                                bool head, bool write, std::int64_t base, std::int64_t capacity,
                                std::uint64_t* words, std::int64_t* indices) {
  std::int64_t local = 0;
  if (head) {
    for (std::int64_t j = 0; j < p.head; ++j) {
      const std::uint64_t w = p.stream.buffer[p.stream.buffer_pos + j];
      if (w <= t) {
        if (write && threadIdx.x == 0 && base + local < capacity) {
          words[base + local] = w;
          indices[base + local] = j;
        }
        ++local;
      }
    }
  }
  for (std::int64_t r = b0; r < b1; r += kThreads) {
    const std::int64_t b = r + threadIdx.x;
    std::uint64_t units[4] = {kAllOnes, kAllOnes, kAllOnes, kAllOnes};
    int mine = 0;
    if (b < b1) {
      loop::block_units(p, b, units);
      for (int k = 0; k < 4; ++k) {
        mine += (units[k] <= t && p.head + 4 * b + k < p.n) ? 1 : 0;
      }
    }
    int total = 0;
    const int before = block_exclusive_sum(mine, total);
    if (write && mine > 0) {
      std::int64_t pos = base + local + before;
      for (int k = 0; k < 4; ++k) {
        if (units[k] <= t && p.head + 4 * b + k < p.n) {
          if (pos < capacity) {
            words[pos] = units[k];
            indices[pos] = p.head + 4 * b + k;
          }
          ++pos;
        }
      }
    }
    local += total;
  }
  return local;
}

__global__ void __launch_bounds__(kThreads)
    count_kernel(const NUMCU_GRID_CONSTANT Plan p, std::uint64_t t, int groups,
                 std::int64_t* counts) {
  const int g = blockIdx.x;
  const std::int64_t b0 = p.blocks * g / groups, b1 = p.blocks * (g + 1) / groups;
  const std::int64_t c = compact(p, t, b0, b1, g == 0, false, 0, 0, nullptr, nullptr);
  if (threadIdx.x == 0) counts[g] = c;
}

// counts -> exclusive offsets; status[0] = the total, status[1] = whether it missed [k, cap].
__global__ void offsets_kernel(std::int64_t* counts, int groups, std::int64_t k,
                               std::int64_t capacity, std::int64_t* status) {
  std::int64_t sum = 0;
  for (int g = 0; g < groups; ++g) {
    const std::int64_t c = counts[g];
    counts[g] = sum;
    sum += c;
  }
  status[0] = sum;
  status[1] = sum < k || sum > capacity ? 1 : 0;
}

__global__ void __launch_bounds__(kThreads)
    write_kernel(const NUMCU_GRID_CONSTANT Plan p, std::uint64_t t, int groups,
                 const std::int64_t* offsets, std::int64_t capacity, std::uint64_t* words,
                 std::int64_t* indices) {
  const int g = blockIdx.x;
  const std::int64_t b0 = p.blocks * g / groups, b1 = p.blocks * (g + 1) / groups;
  compact(p, t, b0, b1, g == 0, true, offsets[g], capacity, words, indices);
}

// One block: the smallest threshold keeping at least k words (bisection over all 64 bits),
// then the candidates again. Runs only where the chosen threshold failed.
__global__ void __launch_bounds__(kThreads)
    fallback_kernel(const NUMCU_GRID_CONSTANT Plan p, std::int64_t k, std::int64_t capacity,
                    const std::int64_t* status, std::uint64_t* words, std::int64_t* indices) {
  if (status[1] == 0) return;
  std::uint64_t lo = 0, hi = kAllOnes;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (compact(p, mid, 0, p.blocks, true, false, 0, 0, nullptr, nullptr) >= k) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  for (std::int64_t i = threadIdx.x; i < capacity; i += kThreads) {
    words[i] = kAllOnes;
    indices[i] = -1;
  }
  __syncthreads();
  compact(p, lo, 0, p.blocks, true, true, 0, capacity, words, indices);
}

}  // namespace

std::size_t candidates_scratch_bytes(const Plan& plan) {
  return sizeof(std::int64_t) * (static_cast<std::size_t>(groups_for(plan)) + 2);
}

void candidates_cuda(const Plan& p, const Candidates& c, std::uint64_t* words,
                     std::int64_t* indices, void* scratch, Stream stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const int groups = groups_for(p);
  auto* counts = static_cast<std::int64_t*>(scratch);
  std::int64_t* status = counts + groups;
  NUMCU_CUDA_TRY(cudaMemsetAsync(words, 0xFF, sizeof(std::uint64_t) * c.capacity, s),
                 "choice candidates");
  NUMCU_CUDA_TRY(cudaMemsetAsync(indices, 0xFF, sizeof(std::int64_t) * c.capacity, s),
                 "choice candidates");
  count_kernel<<<groups, kThreads, 0, s>>>(p, c.threshold, groups, counts);
  NUMCU_CUDA_TRY(cudaGetLastError(), "choice count kernel launch");
  offsets_kernel<<<1, 1, 0, s>>>(counts, groups, c.k, c.capacity, status);
  NUMCU_CUDA_TRY(cudaGetLastError(), "choice offsets kernel launch");
  write_kernel<<<groups, kThreads, 0, s>>>(p, c.threshold, groups, counts, c.capacity, words,
                                           indices);
  NUMCU_CUDA_TRY(cudaGetLastError(), "choice write kernel launch");
  fallback_kernel<<<1, kThreads, 0, s>>>(p, c.k, c.capacity, status, words, indices);
  NUMCU_CUDA_TRY(cudaGetLastError(), "choice fallback kernel launch");
}

}  // namespace numcu::random
