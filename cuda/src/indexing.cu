// Gathers, non-zero positions and exact (integer and bool) matrix products on the GPU, and
// numcu.arange and numcu.linspace (one thread per element, grid-stride).
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "numcu/cuda_check.hpp"
#include "numcu/indexing.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/sequence.hpp"

namespace numcu {
namespace {

constexpr int kBlock = 256;

unsigned grid_for(std::int64_t n) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + kBlock - 1) / kBlock, 1, 1 << 20));
}

struct alignas(8) Bytes16 {
  std::uint64_t lo, hi;
};

// An index into an extent, negative ones from the end. Out-of-bounds indices are clamped: the
// host is not told (that would need a synchronisation), and no memory outside x is read.
__device__ inline std::int64_t clamped_index(std::int64_t i, std::int64_t extent) {
  if (i < 0) i += extent;
  return i < 0 ? 0 : (i >= extent ? extent - 1 : i);
}

// One thread per output element.
template <class E>
__global__ void gather_kernel(const GatherPlan p) {
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < p.n;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t rest = e;
    std::int64_t offset = 0;
    std::int64_t at[kMaxIndexArrays] = {};
    for (int d = p.ndim - 1; d >= 0; --d) {
      const std::int64_t o = rest % p.shape[d];
      rest /= p.shape[d];
      offset += o * p.x_strides[d];
      for (int j = 0; j < p.arrays; ++j) at[j] += o * p.index_strides[j][d];
    }
    for (int j = 0; j < p.arrays; ++j) {
      const std::int64_t i =
          *reinterpret_cast<const std::int64_t*>(reinterpret_cast<const char*>(p.index[j]) + at[j]);
      offset += clamped_index(i, p.extent[j]) * p.axis_strides[j];
    }
    reinterpret_cast<E*>(p.out)[e] = *reinterpret_cast<const E*>(p.x + offset);
  }
}

// A gather's inverse: one thread per value, written where the gather would have read.
template <class E>
__global__ void scatter_kernel(const GatherPlan p) {
  char* x = const_cast<char*>(p.x);
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < p.n;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t rest = e;
    std::int64_t offset = 0;
    std::int64_t at[kMaxIndexArrays] = {};
    for (int d = p.ndim - 1; d >= 0; --d) {
      const std::int64_t o = rest % p.shape[d];
      rest /= p.shape[d];
      offset += o * p.x_strides[d];
      for (int j = 0; j < p.arrays; ++j) at[j] += o * p.index_strides[j][d];
    }
    for (int j = 0; j < p.arrays; ++j) {
      const std::int64_t i =
          *reinterpret_cast<const std::int64_t*>(reinterpret_cast<const char*>(p.index[j]) + at[j]);
      offset += clamped_index(i, p.extent[j]) * p.axis_strides[j];
    }
    *reinterpret_cast<E*>(x + offset) = reinterpret_cast<const E*>(p.out)[e];
  }
}

// The common gather: one index array, dense, picking elements of a one-dimensional x (take
// with axis=None or of a vector). No coordinates to work out, and kItems elements a thread with
// their index and element loads in flight together: the general kernel's 64-bit divisions kept
// it at two thirds of CuPy's and PyTorch's throughput.
constexpr int kFlatItems = 4;

template <class E>
__global__ void gather_flat_kernel(const char* x, std::int64_t stride, std::int64_t extent,
                                   const std::int64_t* index, E* out, std::int64_t n) {
  const std::int64_t tile = static_cast<std::int64_t>(blockDim.x) * kFlatItems;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile + threadIdx.x; base < n;
       base += static_cast<std::int64_t>(gridDim.x) * tile) {
    std::int64_t at[kFlatItems];
#pragma unroll
    for (int k = 0; k < kFlatItems; ++k) {
      const std::int64_t e = base + static_cast<std::int64_t>(k) * blockDim.x;
      at[k] = e < n ? index[e] : 0;
    }
    E v[kFlatItems];
#pragma unroll
    for (int k = 0; k < kFlatItems; ++k) {
      v[k] = *reinterpret_cast<const E*>(x + clamped_index(at[k], extent) * stride);
    }
#pragma unroll
    for (int k = 0; k < kFlatItems; ++k) {
      const std::int64_t e = base + static_cast<std::int64_t>(k) * blockDim.x;
      if (e < n) out[e] = v[k];
    }
  }
}

// Whether `p` is gather_flat_kernel's case: one index array, C-contiguous, and x's position
// given by it alone (x one-dimensional).
bool flat_gather(const GatherPlan& p) {
  if (p.arrays != 1) return false;
  std::int64_t expect = static_cast<std::int64_t>(sizeof(std::int64_t));
  for (int d = p.ndim - 1; d >= 0; --d) {
    if (p.x_strides[d] != 0) return false;
    if (p.shape[d] != 1 && p.index_strides[0][d] != expect) return false;
    expect *= p.shape[d];
  }
  return true;
}

template <class E>
void launch_gather(const GatherPlan& p, cudaStream_t s) {
  if (flat_gather(p)) {
    const unsigned grid = grid_for((p.n + kFlatItems - 1) / kFlatItems);
    gather_flat_kernel<E><<<grid, kBlock, 0, s>>>(p.x, p.axis_strides[0], p.extent[0], p.index[0],
                                                  reinterpret_cast<E*>(p.out), p.n);
  } else {
    gather_kernel<E><<<grid_for(p.n), kBlock, 0, s>>>(p);
  }
}

__global__ void nonzero_kernel(const NonzeroPlan p, const bool* mask, const std::int64_t* pos,
                               std::int64_t* out) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (!mask[i]) continue;
    const std::int64_t k = pos[i] - 1;
    std::int64_t rest = i;
    for (int d = p.ndim - 1; d >= 0; --d) {
      out[d * p.count + k] = rest % p.shape[d];
      rest /= p.shape[d];
    }
  }
}

// A 16 x 16 tile of C per block, k in steps of 16 through shared memory.
constexpr int kTile = 16;

template <class T>
__global__ void matmul_exact_kernel(const MatmulPlan p) {
  __shared__ T as[kTile][kTile];
  __shared__ T bs[kTile][kTile];
  const std::int64_t bz = blockIdx.z;
  const T* a = static_cast<const T*>(p.a) + bz * p.a_batch;
  const T* b = static_cast<const T*>(p.b) + bz * p.b_batch;
  T* c = static_cast<T*>(p.c) + bz * p.m * p.n;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.y) * kTile + threadIdx.y;
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kTile + threadIdx.x;
  T acc = T(0);
  for (std::int64_t k0 = 0; k0 < p.k; k0 += kTile) {
    const std::int64_t ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    as[threadIdx.y][threadIdx.x] = row < p.m && ka < p.k ? a[row * p.a_row + ka * p.a_col] : T(0);
    bs[threadIdx.y][threadIdx.x] = kb < p.k && col < p.n ? b[kb * p.b_row + col * p.b_col] : T(0);
    __syncthreads();
    for (int kk = 0; kk < kTile; ++kk) {
      if constexpr (std::is_same_v<T, bool>) {
        acc = acc || (as[threadIdx.y][kk] && bs[kk][threadIdx.x]);
      } else {
        // Unsigned arithmetic wraps as NumPy's integers do, without undefined behaviour; at
        // least 32 bits wide, since narrower unsigned types promote to (signed) int.
        using W = std::conditional_t<(sizeof(T) < 4), std::uint32_t, std::make_unsigned_t<T>>;
        acc = static_cast<T>(static_cast<W>(acc) + static_cast<W>(as[threadIdx.y][kk]) *
                                                       static_cast<W>(bs[kk][threadIdx.x]));
      }
    }
    __syncthreads();
  }
  if (row < p.m && col < p.n) c[row * p.n + col] = acc;
}

// Calls f(type_tag<U>{}) with U an element type of `size` bytes that moves them as they are: the
// unsigned integer of the size, Bytes16 for 16.
template <class F>
void visit_bits(int size, F&& f) {
  switch (size) {
    case 1:
      return f(type_tag<std::uint8_t>{});
    case 2:
      return f(type_tag<std::uint16_t>{});
    case 4:
      return f(type_tag<std::uint32_t>{});
    case 8:
      return f(type_tag<std::uint64_t>{});
    default:
      return f(type_tag<Bytes16>{});
  }
}

}  // namespace

void gather_cuda(const GatherPlan& p, Stream stream) {
  if (p.n == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  visit_bits(p.itemsize, [&](auto tag) { launch_gather<typename decltype(tag)::type>(p, s); });
  NUMCU_CUDA_TRY(cudaGetLastError(), "gather kernel launch");
}

void scatter_cuda(const GatherPlan& p, Stream stream) {
  if (p.n == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  const unsigned grid = grid_for(p.n);
  switch (p.itemsize) {
    case 1:
      scatter_kernel<std::uint8_t><<<grid, kBlock, 0, s>>>(p);
      break;
    case 2:
      scatter_kernel<std::uint16_t><<<grid, kBlock, 0, s>>>(p);
      break;
    case 4:
      scatter_kernel<std::uint32_t><<<grid, kBlock, 0, s>>>(p);
      break;
    case 8:
      scatter_kernel<std::uint64_t><<<grid, kBlock, 0, s>>>(p);
      break;
    default:
      scatter_kernel<Bytes16><<<grid, kBlock, 0, s>>>(p);
      break;
  }
  NUMCU_CUDA_TRY(cudaGetLastError(), "scatter kernel launch");
}

void nonzero_cuda(const NonzeroPlan& p, const bool* mask, const std::int64_t* pos,
                  std::int64_t* out, Stream stream) {
  if (p.n == 0 || p.count == 0) return;
  nonzero_kernel<<<grid_for(p.n), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(p, mask, pos,
                                                                                  out);
  NUMCU_CUDA_TRY(cudaGetLastError(), "nonzero kernel launch");
}

void matmul_exact_cuda(DType dtype, const MatmulPlan& p, Stream stream) {
  if (p.batch == 0 || p.m == 0 || p.n == 0) return;
  if (p.batch > 65535 || (p.m + kTile - 1) / kTile > 65535) {
    throw_value_error(
        "numcu.matmul: integer products of more than 65535 matrices or rows of "
        "tiles are not supported on the GPU");
  }
  const dim3 grid(static_cast<unsigned>((p.n + kTile - 1) / kTile),
                  static_cast<unsigned>((p.m + kTile - 1) / kTile), static_cast<unsigned>(p.batch));
  const dim3 block(kTile, kTile);
  const auto s = static_cast<cudaStream_t>(stream);
  const char kind = dtype_kind(dtype);
  if (kind == 'b') {
    matmul_exact_kernel<bool><<<grid, block, 0, s>>>(p);
  } else if (kind == 'i' || kind == 'u') {
    // Unsigned products and sums have the bits of the signed ones of their size.
    visit_bits(itemsize(dtype), [&](auto tag) {
      using U = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<U>) {
        matmul_exact_kernel<std::make_signed_t<U>><<<grid, block, 0, s>>>(p);
      }
    });
  } else {
    throw_type_error(std::string("numcu.matmul: no exact loop for ") + dtype_name(dtype));
  }
  NUMCU_CUDA_TRY(cudaGetLastError(), "matmul kernel launch");
}

// numcu.arange and numcu.linspace.
namespace {

template <class T>
__global__ void sequence_kernel(T* out, sequence::Sequence<T> s) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < s.n;
       i += stride) {
    out[i] = s(i);
  }
}

}  // namespace

void sequence_cuda(DType dtype, const SequenceParams& p, void* out, Stream stream) {
  check_launch(p, out, itemsize(dtype));
  if (p.n <= 0) return;
  const std::int64_t blocks = std::min<std::int64_t>((p.n + kBlock - 1) / kBlock, 1 << 16);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    sequence_kernel<T>
        <<<static_cast<unsigned>(blocks), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
            static_cast<T*>(out), sequence::Sequence<T>::from(p));
    NUMCU_CUDA_TRY(cudaGetLastError(), "sequence kernel launch");
  });
}

}  // namespace numcu
