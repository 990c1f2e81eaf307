// sort, argsort, unique and searchsorted on the GPU. Elements become the order-preserving keys
// of sorting.hpp and go through CUB's radix sort, whose instantiations are shared by every dtype:
// keys-only and key-index pairs, for 32- and 64-bit keys. Rows (a sort along an axis of an array
// of more than one row) sort together: the row number goes into the key's high bits when it
// fits beside the element's bits, and otherwise a second, stable sort by row number follows the
// sort by key.
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/functional>
#include <cuda/version>
#include <stdexcept>

#include "numcu/cuda_check.hpp"
#include "numcu/indexing.hpp"
#include "numcu/runtime.hpp"
#include "numcu/sorting.hpp"

namespace numcu {
namespace {

using sorting::Transform;
constexpr int kBlock = 256;

// The minimum and maximum operators of CUB's block reduction: ::cuda::minimum and ::cuda::maximum
// from CCCL 2.8 on (CCCL 3 has no other); CCCL 2.3, which comes with the CUDA 12.4 toolkit that
// builds numcu-cuda12x, has only cub::Min and cub::Max.
#if CCCL_VERSION >= 2008000
using MinOp = ::cuda::minimum<>;
using MaxOp = ::cuda::maximum<>;
#else
using MinOp = cub::Min;
using MaxOp = cub::Max;
#endif

unsigned grid_for(std::int64_t n) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + kBlock - 1) / kBlock, 1, 1 << 20));
}

#define NUMCU_GRID_STRIDE(i, n)                                                                    \
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

// Stream-ordered scratch on the current device.
class Buffer {
 public:
  Buffer(std::size_t bytes, cudaStream_t stream)
      : bytes_(std::max<std::size_t>(bytes, 1)), device_(cuda::current_device()), stream_(stream) {
    ptr_ = cuda::allocate(bytes_, device_, stream_);
  }
  ~Buffer() { cuda::deallocate(ptr_, bytes_, device_, stream_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
  int device_;
  cudaStream_t stream_;
};

void check_launch_error(const char* what) { NUMCU_CUDA_TRY(cudaGetLastError(), what); }

// --- CUB, one instantiation per key width

template <class K>
void radix_keys(const K* in, K* out, std::int64_t n, int end_bit, cudaStream_t s) {
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n, 0, end_bit, s),
                 "CUB radix sort (sizing)");
  Buffer temp(bytes, s);
  NUMCU_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.as<void>(), bytes, in, out, n, 0, end_bit, s),
                 "CUB radix sort");
}

template <class K, class V>
void radix_pairs(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::int64_t n,
                 int end_bit, cudaStream_t s) {
  // 32-bit keys travel with 32-bit positions only (sort_with_order widens positions of 2^32 and
  // more to 64-bit keys), so that pairing is never instantiated.
  static_assert(sizeof(K) == 8 || sizeof(V) == 4);
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, values_in,
                                                 values_out, n, 0, end_bit, s),
                 "CUB radix sort (sizing)");
  Buffer temp(bytes, s);
  NUMCU_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.as<void>(), bytes, keys_in, keys_out,
                                                 values_in, values_out, n, 0, end_bit, s),
                 "CUB radix sort");
}

// out = one of each run of equal keys of the sorted `in`; *count = their number (device).
template <class K>
void distinct_keys(const K* in, K* out, std::int64_t* count, std::int64_t n, cudaStream_t s) {
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(cub::DeviceSelect::Unique(nullptr, bytes, in, out, count, n, s),
                 "CUB unique (sizing)");
  Buffer temp(bytes, s);
  NUMCU_CUDA_TRY(cub::DeviceSelect::Unique(temp.as<void>(), bytes, in, out, count, n, s),
                 "CUB unique");
}

// pos = inclusive running sum of pos, in place.
void running_sum(std::int64_t* pos, std::int64_t n, cudaStream_t s) {
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, pos, pos, n, s),
                 "CUB scan (sizing)");
  Buffer temp(bytes, s);
  NUMCU_CUDA_TRY(cub::DeviceScan::InclusiveSum(temp.as<void>(), bytes, pos, pos, n, s), "CUB scan");
}

// --- keys

struct KeyFormat {
  char kind;
  int bits;
  Transform transform;
  // The key of element `v` (loaded as the unsigned type of its size).
  template <class U, class L>
  __device__ U key(L v) const {
    return static_cast<U>(sorting::to_key<U>(static_cast<U>(v), kind, bits, transform));
  }
};

// keys[i] = (key of in[i] ^ flip) | (row << row_shift); values[i] = i, or i within its row.
template <class L, class U, class V>
__global__ void make_keys_kernel(const L* in, KeyFormat f, U flip, std::int64_t n, std::int64_t len,
                                 int row_shift, U* keys, V* values, bool row_positions) {
  NUMCU_GRID_STRIDE(i, n) {
    U k = static_cast<U>(f.key<U>(in[i]) ^ flip);
    if (row_shift >= 0) k |= static_cast<U>(static_cast<U>(i / len) << row_shift);
    keys[i] = k;
    if (values != nullptr) values[i] = static_cast<V>(row_positions ? i % len : i);
  }
}

// out[i] = the element whose exact key is keys[i] (row bits masked off, flip undone).
template <class L, class U>
__global__ void values_from_keys_kernel(const U* keys, KeyFormat f, U mask, U flip, std::int64_t n,
                                        L* out) {
  NUMCU_GRID_STRIDE(i, n) {
    out[i] = static_cast<L>(
        sorting::from_key<U>(static_cast<U>((keys[i] & mask) ^ flip), f.kind, f.bits));
  }
}

// Positions below this travel through the radix passes as 32-bit values.
constexpr std::int64_t kNarrowPositions = std::int64_t(1) << 32;

__global__ void widen_kernel(const std::uint32_t* in, std::int64_t n, std::int64_t* out) {
  NUMCU_GRID_STRIDE(i, n) { out[i] = static_cast<std::int64_t>(in[i]); }
}

// make_keys_kernel's keys sorted into `sorted`, and the positions they came from (within their
// row when row_positions) into `order`. Positions below 2^32 go through the radix passes as
// 32-bit values, a third less traffic a pass than 64-bit ones beside 32-bit keys, and are widened
// once at the end; 32-bit keys with wider positions are the caller's to avoid (it takes 64-bit
// keys then).
template <class L, class U>
void sort_with_order(const L* in, KeyFormat f, U flip, std::int64_t n, std::int64_t len,
                     int row_shift, bool row_positions, int end_bit, U* keys, U* sorted,
                     std::int64_t* order, cudaStream_t s) {
  const unsigned grid = grid_for(n);
  if ((row_positions ? len : n) <= kNarrowPositions) {
    Buffer in_order(n * 4, s), out_order(n * 4, s);
    make_keys_kernel<L, U, std::uint32_t><<<grid, kBlock, 0, s>>>(
        in, f, flip, n, len, row_shift, keys, in_order.as<std::uint32_t>(), row_positions);
    check_launch_error("sort key kernel launch");
    radix_pairs<U, std::uint32_t>(keys, sorted, in_order.as<std::uint32_t>(),
                                  out_order.as<std::uint32_t>(), n, end_bit, s);
    widen_kernel<<<grid, kBlock, 0, s>>>(out_order.as<std::uint32_t>(), n, order);
    check_launch_error("sort index kernel launch");
  } else if constexpr (sizeof(U) == 8) {
    Buffer in_order(n * 8, s);
    make_keys_kernel<L, U, std::uint64_t><<<grid, kBlock, 0, s>>>(
        in, f, flip, n, len, row_shift, keys, in_order.as<std::uint64_t>(), row_positions);
    check_launch_error("sort key kernel launch");
    radix_pairs<U, std::uint64_t>(keys, sorted, in_order.as<std::uint64_t>(),
                                  reinterpret_cast<std::uint64_t*>(order), n, end_bit, s);
  } else {
    throw std::logic_error("sort: 32-bit keys with positions of 2^32 or more");
  }
}

// make_keys_kernel's keys alone, sorted into `sorted` (no positions: sort_with_order's sibling).
template <class L, class U>
void sort_keys(const L* in, KeyFormat f, U flip, std::int64_t n, std::int64_t len, int row_shift,
               int end_bit, U* keys, U* sorted, cudaStream_t s) {
  make_keys_kernel<L, U, std::uint32_t>
      <<<grid_for(n), kBlock, 0, s>>>(in, f, flip, n, len, row_shift, keys, nullptr, false);
  check_launch_error("sort key kernel launch");
  radix_keys<U>(keys, sorted, n, end_bit, s);
}

__device__ inline void atomic_min(std::uint32_t* p, std::uint32_t v) { atomicMin(p, v); }
__device__ inline void atomic_min(std::uint64_t* p, std::uint64_t v) {
  atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ inline void atomic_max(std::uint32_t* p, std::uint32_t v) { atomicMax(p, v); }
__device__ inline void atomic_max(std::uint64_t* p, std::uint64_t v) {
  atomicMax(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

// span[0] = min(span[0], every key of in), span[1] = max(span[1], every key). One atomic pair
// a block (blocks of kBlock threads, reduced by CUB).
template <class L, class U>
__global__ void key_span_kernel(const L* in, KeyFormat f, std::int64_t n, U* span) {
  U lo = ~U(0), hi = U(0);
  NUMCU_GRID_STRIDE(i, n) {
    const U k = f.key<U>(in[i]);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  }
  using Reduce = cub::BlockReduce<U, kBlock>;
  __shared__ typename Reduce::TempStorage lo_temp, hi_temp;
  lo = Reduce(lo_temp).Reduce(lo, MinOp{});
  hi = Reduce(hi_temp).Reduce(hi, MaxOp{});
  if (threadIdx.x == 0) {
    atomic_min(&span[0], lo);
    atomic_max(&span[1], hi);
  }
}

template <class U>
struct KeySpan {
  U lo, hi;
  int bits;
};

// The smallest and largest key of in, and how many low bits a radix sort of the keys needs:
// every key lies between the two, so above the highest bit where they differ all keys are the
// same and the passes over those bits are skipped (integer labels of a small range, floats of
// one binade). Reads `in` once and waits for the device: only for unique, which waits for its
// output's size anyway.
template <class L, class U>
KeySpan<U> key_span(const L* in, KeyFormat f, std::int64_t n, cudaStream_t s) {
  Buffer span(2 * sizeof(U), s);
  NUMCU_CUDA_TRY(cudaMemsetAsync(span.as<U>(), 0xff, sizeof(U), s), "cudaMemsetAsync");
  NUMCU_CUDA_TRY(cudaMemsetAsync(span.as<U>() + 1, 0, sizeof(U), s), "cudaMemsetAsync");
  const unsigned grid = std::min(grid_for(n), 2048u);
  key_span_kernel<L, U><<<grid, kBlock, 0, s>>>(in, f, n, span.as<U>());
  check_launch_error("unique key span kernel launch");
  U host[2] = {};
  NUMCU_CUDA_TRY(cudaMemcpyAsync(host, span.as<U>(), sizeof host, cudaMemcpyDeviceToHost, s),
                 "cudaMemcpyAsync");
  NUMCU_CUDA_TRY(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  int bits = 0;
  for (U differ = host[0] ^ host[1]; differ != 0; differ >>= 1) ++bits;
  return {host[0], host[1], std::max(bits, 1)};
}

// present[key - lo] = 1 for every key of in.
template <class L, class U>
__global__ void mark_present_kernel(const L* in, KeyFormat f, std::int64_t n, U lo,
                                    std::uint8_t* present) {
  NUMCU_GRID_STRIDE(i, n) {
    const U k = f.key<U>(in[i]);
    present[k - lo] = 1;
  }
}

// Integer keys spanning at most this many values (and at most a few per element) find their
// distinct values by marking each present one, not by sorting.
constexpr std::uint64_t kMaxMarkedRange = std::uint64_t(1) << 24;

// keys = the present keys lo + j in order, *count = their number (device).
template <class U>
void marked_keys(const std::uint8_t* present, U lo, std::int64_t range, U* keys,
                 std::int64_t* count, cudaStream_t s) {
  const thrust::counting_iterator<U> candidates(lo);
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(
      cub::DeviceSelect::Flagged(nullptr, bytes, candidates, present, keys, count, range, s),
      "CUB select (sizing)");
  Buffer temp(bytes, s);
  NUMCU_CUDA_TRY(cub::DeviceSelect::Flagged(temp.as<void>(), bytes, candidates, present, keys,
                                            count, range, s),
                 "CUB select");
}

// Row numbers of flat positions, as keys of a second sort.
__global__ void row_keys_kernel(const std::uint64_t* flat, std::int64_t n, std::int64_t len,
                                std::uint64_t* rows) {
  NUMCU_GRID_STRIDE(i, n) { rows[i] = flat[i] / static_cast<std::uint64_t>(len); }
}

__global__ void within_row_kernel(const std::uint64_t* flat, std::int64_t n, std::int64_t len,
                                  std::int64_t* out) {
  NUMCU_GRID_STRIDE(i, n) { out[i] = static_cast<std::int64_t>(flat[i] % len); }
}

int bits_for(std::int64_t v) {
  int b = 0;
  while (b < 63 && (std::int64_t(1) << b) <= v) ++b;
  return b;
}

template <class U>
U low_mask(int bits) {
  return bits >= 8 * static_cast<int>(sizeof(U)) ? ~U(0) : static_cast<U>((U(1) << bits) - 1);
}

// Calls f(L{}) with the unsigned type of the dtype's item size.
template <class F>
void with_load_type(DType dtype, F&& f) {
  switch (itemsize(dtype)) {
    case 1:
      return f(std::uint8_t{});
    case 2:
      return f(std::uint16_t{});
    case 4:
      return f(std::uint32_t{});
    default:
      return f(std::uint64_t{});
  }
}

// Calls f(U{}) with the unsigned key type: 64 bits where `wide`, else 32.
template <class F>
void with_key_type(bool wide, F&& f) {
  if (wide) {
    f(std::uint64_t{});
  } else {
    f(std::uint32_t{});
  }
}

// The sort every entry point shares. Writes sorted values (`values`, in the dtype) and/or the
// row positions of the stable order (`indices`).
void sort_rows(const SortParams& p, const void* in, void* values, std::int64_t* indices,
               Transform transform, cudaStream_t s) {
  const std::int64_t n = p.rows * p.len;
  if (n == 0) return;
  const KeyFormat f{sorting::key_kind(p.dtype), sorting::key_bits(p.dtype), transform};
  const int row_bits = p.rows > 1 ? bits_for(p.rows - 1) : 0;
  const unsigned grid = grid_for(n);
  with_load_type(p.dtype, [&](auto load_tag) {
    using L = decltype(load_tag);
    auto run = [&](auto key_tag, bool combined) {
      using U = decltype(key_tag);
      const U flip = p.descending ? low_mask<U>(f.bits) : U(0);
      const int end_bit = combined ? f.bits + row_bits : f.bits;
      const int row_shift = combined && row_bits > 0 ? f.bits : -1;
      Buffer keys(n * sizeof(U), s), sorted(n * sizeof(U), s);
      if (indices != nullptr) {
        sort_with_order<L, U>(static_cast<const L*>(in), f, flip, n, p.len, row_shift, true,
                              end_bit, keys.as<U>(), sorted.as<U>(), indices, s);
      } else {
        sort_keys<L, U>(static_cast<const L*>(in), f, flip, n, p.len, row_shift, end_bit,
                        keys.as<U>(), sorted.as<U>(), s);
      }
      if (values != nullptr) {
        values_from_keys_kernel<L, U><<<grid, kBlock, 0, s>>>(
            sorted.as<U>(), f, low_mask<U>(f.bits), flip, n, static_cast<L*>(values));
        check_launch_error("sort value kernel launch");
      }
    };
    // Positions of 2^32 and more go with 64-bit keys (sort_with_order).
    const bool wide_positions = indices != nullptr && p.len > kNarrowPositions;
    if (p.rows == 1 || f.bits + row_bits <= 32) {
      if (f.bits <= 32 && !wide_positions) {
        run(std::uint32_t{}, true);
      } else {
        run(std::uint64_t{}, true);
      }
      return;
    }
    if (f.bits + row_bits <= 64) {
      run(std::uint64_t{}, true);
      return;
    }
    // 64-bit keys of several rows: sort everything by key, then stably by row.
    using U = std::uint64_t;
    const U flip = p.descending ? ~U(0) : U(0);
    Buffer keys(n * 8, s), sorted(n * 8, s), flat(n * 8, s), flat_sorted(n * 8, s);
    make_keys_kernel<L, U, std::uint64_t><<<grid, kBlock, 0, s>>>(static_cast<const L*>(in), f,
                                                                  flip, n, p.len, -1, keys.as<U>(),
                                                                  flat.as<std::uint64_t>(), false);
    check_launch_error("sort key kernel launch");
    radix_pairs<U, std::uint64_t>(keys.as<U>(), sorted.as<U>(), flat.as<std::uint64_t>(),
                                  flat_sorted.as<std::uint64_t>(), n, 64, s);
    // The row keys go where the first keys were; the second sort carries what the caller wants.
    row_keys_kernel<<<grid, kBlock, 0, s>>>(flat_sorted.as<std::uint64_t>(), n, p.len,
                                            keys.as<U>());
    check_launch_error("sort row kernel launch");
    Buffer row_sorted(n * 8, s);
    if (indices != nullptr) {
      radix_pairs<U, std::uint64_t>(keys.as<U>(), row_sorted.as<U>(),
                                    flat_sorted.as<std::uint64_t>(), flat.as<std::uint64_t>(), n,
                                    row_bits, s);
      within_row_kernel<<<grid, kBlock, 0, s>>>(flat.as<std::uint64_t>(), n, p.len, indices);
      check_launch_error("sort index kernel launch");
    }
    if (values != nullptr) {
      radix_pairs<U, std::uint64_t>(keys.as<U>(), row_sorted.as<U>(), sorted.as<std::uint64_t>(),
                                    flat.as<std::uint64_t>(), n, row_bits, s);
      values_from_keys_kernel<L, U>
          <<<grid, kBlock, 0, s>>>(flat.as<U>(), f, ~U(0), flip, n, static_cast<L*>(values));
      check_launch_error("sort value kernel launch");
    }
  });
}

// --- unique

template <class U>
__global__ void run_starts_kernel(const U* keys, std::int64_t n, U nan_key, bool floating,
                                  std::int64_t* pos) {
  NUMCU_GRID_STRIDE(i, n) {
    const bool fresh = i == 0 || keys[i] != keys[i - 1] || (floating && keys[i] == nan_key);
    pos[i] = fresh ? 1 : 0;
  }
}

// perm null: the values come from the sorted elements, and neither indices nor inverse is
// asked for.
template <class L>
__global__ void unique_fill_kernel(std::int64_t n, const L* in, const std::int64_t* perm,
                                   const L* sorted, const std::int64_t* pos, L* values,
                                   std::int64_t* indices, std::int64_t* inverse,
                                   std::int64_t* starts) {
  NUMCU_GRID_STRIDE(i, n) {
    const std::int64_t s = pos[i] - 1;
    if (i == 0 || pos[i] != pos[i - 1]) {
      if (starts != nullptr) starts[s] = i;
      if (values != nullptr) values[s] = perm != nullptr ? in[perm[i]] : sorted[i];
      if (indices != nullptr) indices[s] = perm[i];
    }
    if (inverse != nullptr) inverse[perm[i]] = s;
  }
}

__global__ void counts_kernel(const std::int64_t* starts, std::int64_t count, std::int64_t n,
                              std::int64_t* counts) {
  NUMCU_GRID_STRIDE(s, count) { counts[s] = (s + 1 < count ? starts[s + 1] : n) - starts[s]; }
}

// --- searchsorted

template <class L, class U>
__global__ void searchsorted_kernel(const L* hay, std::int64_t n, const L* needles, std::int64_t m,
                                    KeyFormat f, bool right, std::int64_t* out) {
  NUMCU_GRID_STRIDE(j, m) {
    const U v = f.key<U>(needles[j]);
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const U k = f.key<U>(hay[mid]);
      if (right ? !(v < k) : k < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    out[j] = lo;
  }
}

__global__ void mask_to_count_kernel(const bool* mask, std::int64_t n, std::int64_t* pos) {
  NUMCU_GRID_STRIDE(i, n) { pos[i] = mask[i] ? 1 : 0; }
}

}  // namespace

void sort_cuda(const SortParams& p, const void* in, void* values, Stream stream) {
  sort_rows(p, in, values, nullptr, Transform::exact, static_cast<cudaStream_t>(stream));
}

void argsort_cuda(const SortParams& p, const void* in, std::int64_t* indices, Stream stream) {
  sort_rows(p, in, nullptr, indices, Transform::canonical, static_cast<cudaStream_t>(stream));
}

void unique_sort_cuda(DType dtype, std::int64_t n, const void* in, bool nan_distinct,
                      std::int64_t* perm, void* sorted, std::int64_t* pos, Stream stream) {
  if (n == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  const KeyFormat f{sorting::key_kind(dtype), sorting::key_bits(dtype), Transform::canonical};
  const unsigned grid = grid_for(n);
  with_load_type(dtype, [&](auto load_tag) {
    using L = decltype(load_tag);
    auto run = [&](auto key_tag) {
      using U = decltype(key_tag);
      const int end_bit = key_span<L, U>(static_cast<const L*>(in), f, n, s).bits;
      Buffer keys(n * sizeof(U), s), sorted_keys(n * sizeof(U), s);
      if (perm != nullptr) {
        sort_with_order<L, U>(static_cast<const L*>(in), f, U(0), n, n, -1, false, end_bit,
                              keys.as<U>(), sorted_keys.as<U>(), perm, s);
      } else {
        sort_keys<L, U>(static_cast<const L*>(in), f, U(0), n, n, -1, end_bit, keys.as<U>(),
                        sorted_keys.as<U>(), s);
        values_from_keys_kernel<L, U><<<grid, kBlock, 0, s>>>(
            sorted_keys.as<U>(), f, low_mask<U>(f.bits), U(0), n, static_cast<L*>(sorted));
        check_launch_error("unique value kernel launch");
      }
      run_starts_kernel<U><<<grid, kBlock, 0, s>>>(sorted_keys.as<U>(), n, low_mask<U>(f.bits),
                                                   nan_distinct && sorting::float_key(f.kind), pos);
      check_launch_error("unique flag kernel launch");
      running_sum(pos, n, s);
    };
    with_key_type(f.bits > 32 || (perm != nullptr && n > kNarrowPositions), run);
  });
}

void unique_distinct_cuda(DType dtype, std::int64_t n, const void* in, void* keys,
                          std::int64_t* count, Stream stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (n == 0) {
    NUMCU_CUDA_TRY(cudaMemsetAsync(count, 0, sizeof *count, s), "cudaMemsetAsync");
    return;
  }
  const KeyFormat f{sorting::key_kind(dtype), sorting::key_bits(dtype), Transform::canonical};
  with_load_type(dtype, [&](auto load_tag) {
    using L = decltype(load_tag);
    auto run = [&](auto key_tag) {
      using U = decltype(key_tag);
      const KeySpan<U> span = key_span<L, U>(static_cast<const L*>(in), f, n, s);
      const std::uint64_t range_less_one = static_cast<std::uint64_t>(span.hi - span.lo);
      if (!sorting::float_key(f.kind) && range_less_one < kMaxMarkedRange &&
          range_less_one < 4 * static_cast<std::uint64_t>(n)) {
        // Integers of a narrow range: mark the values present, keep the marked ones in order.
        const auto range = static_cast<std::int64_t>(range_less_one) + 1;
        Buffer present(range, s);
        NUMCU_CUDA_TRY(cudaMemsetAsync(present.as<void>(), 0, range, s), "cudaMemsetAsync");
        mark_present_kernel<L, U><<<grid_for(n), kBlock, 0, s>>>(
            static_cast<const L*>(in), f, n, span.lo, present.as<std::uint8_t>());
        check_launch_error("unique mark kernel launch");
        marked_keys<U>(present.as<std::uint8_t>(), span.lo, range, static_cast<U*>(keys), count, s);
        return;
      }
      const int end_bit = span.bits;
      Buffer raw(n * sizeof(U), s), sorted(n * sizeof(U), s);
      sort_keys<L, U>(static_cast<const L*>(in), f, U(0), n, n, -1, end_bit, raw.as<U>(),
                      sorted.as<U>(), s);
      distinct_keys<U>(sorted.as<U>(), static_cast<U*>(keys), count, n, s);
    };
    with_key_type(f.bits > 32, run);
  });
}

void unique_distinct_fill_cuda(DType dtype, std::int64_t count, const void* keys, void* values,
                               Stream stream) {
  if (count == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  const KeyFormat f{sorting::key_kind(dtype), sorting::key_bits(dtype), Transform::canonical};
  with_load_type(dtype, [&](auto load_tag) {
    using L = decltype(load_tag);
    auto run = [&](auto key_tag) {
      using U = decltype(key_tag);
      values_from_keys_kernel<L, U>
          <<<grid_for(count), kBlock, 0, s>>>(static_cast<const U*>(keys), f, low_mask<U>(f.bits),
                                              U(0), count, static_cast<L*>(values));
      check_launch_error("unique value kernel launch");
    };
    with_key_type(f.bits > 32, run);
  });
}

void unique_fill_cuda(DType dtype, std::int64_t n, std::int64_t count, const void* in,
                      const std::int64_t* perm, const void* sorted, const std::int64_t* pos,
                      const UniqueOutputs& out, Stream stream) {
  if (n == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  Buffer starts(out.counts != nullptr ? count * 8 : 0, s);
  std::int64_t* starts_ptr = out.counts != nullptr ? starts.as<std::int64_t>() : nullptr;
  auto launch = [&](auto tag) {
    using L = decltype(tag);
    unique_fill_kernel<L><<<grid_for(n), kBlock, 0, s>>>(
        n, static_cast<const L*>(in), perm, static_cast<const L*>(sorted), pos,
        static_cast<L*>(out.values), out.indices, out.inverse, starts_ptr);
  };
  with_load_type(dtype, launch);
  check_launch_error("unique fill kernel launch");
  if (out.counts != nullptr && count > 0) {
    counts_kernel<<<grid_for(count), kBlock, 0, s>>>(starts_ptr, count, n, out.counts);
    check_launch_error("unique count kernel launch");
  }
}

void searchsorted_cuda(DType dtype, std::int64_t n, const void* haystack, std::int64_t m,
                       const void* needles, bool right, std::int64_t* out, Stream stream) {
  if (m == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  const KeyFormat f{sorting::key_kind(dtype), sorting::key_bits(dtype), Transform::canonical};
  with_load_type(dtype, [&](auto load_tag) {
    using L = decltype(load_tag);
    using U = std::conditional_t<sizeof(L) == 8, std::uint64_t, std::uint32_t>;
    searchsorted_kernel<L, U><<<grid_for(m), kBlock, 0, s>>>(
        static_cast<const L*>(haystack), n, static_cast<const L*>(needles), m, f, right, out);
    check_launch_error("searchsorted kernel launch");
  });
}

void count_true_cuda(std::int64_t n, const bool* mask, std::int64_t* pos, Stream stream) {
  if (n == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  mask_to_count_kernel<<<grid_for(n), kBlock, 0, s>>>(mask, n, pos);
  check_launch_error("count kernel launch");
  running_sum(pos, n, s);
}

}  // namespace numcu
