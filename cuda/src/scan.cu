// cumsum, cumprod, nancumsum and nancumprod. One contiguous line goes to CUB's device scan,
// instantiated only for the accumulator types (int64/uint64 as one, float, double, complex64,
// complex128): an input of another type is first converted into the output (or, for float16,
// into float32 scratch) and scanned in place there; the nan-scans' input is likewise first
// written there with its NaNs replaced by the identity. Several lines take a thread each, which
// reads coalesced when the lines are the columns of a C-ordered array (scans along a leading axis).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <string>
#include <type_traits>

#include "numcu/backend.hpp"
#include "numcu/cuda_check.hpp"
#include "numcu/errors.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"
#include "numcu/runtime.hpp"
#include "output_position.cuh"

namespace numcu {
namespace kernels {
namespace {

constexpr int kScanBlock = 256;

// Device memory from the stream-ordered pool for the length of one call.
class PoolScratch {
 public:
  PoolScratch(std::size_t bytes, cudaStream_t stream)
      : bytes_(bytes), device_(cuda::current_device()), stream_(stream) {
    ptr_ = cuda::allocate(bytes, device_, stream_);
  }
  ~PoolScratch() { cuda::deallocate(ptr_, bytes_, device_, stream_); }
  PoolScratch(const PoolScratch&) = delete;
  PoolScratch& operator=(const PoolScratch&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
  int device_;
  cudaStream_t stream_;
};

template <class S>
__global__ void __launch_bounds__(kScanBlock) scan_lines_kernel(S s, ReducePlan p) {
  using T = typename S::In;
  using Out = typename S::Out;
  std::int64_t o = static_cast<std::int64_t>(blockIdx.x) * kScanBlock + threadIdx.x;
  if (o >= p.n_out) return;
  const char* in = p.in;
  std::int64_t out_offset = 0;
  output_position(p, o, in, out_offset);
  char* out = p.out + out_offset;
  auto acc = s.identity();
  for (std::int64_t k = 0; k < p.n_red; ++k) {
    acc = s(acc, s.leaf(*reinterpret_cast<const T*>(in + k * p.red_strides[0])));
    *reinterpret_cast<Out*>(out + k * p.out_red_stride) = s.finalize(acc);
  }
}

// The accumulator's arithmetic, as CUB's operator: sums and products wrap for integers (int64
// runs as uint64, whose wrapping sums and products have the same bits).
template <class A, bool Multiply>
struct Accumulate {
  NUMCU_HD A operator()(A a, A b) const {
    if constexpr (Multiply) {
      return a * b;
    } else {
      return a + b;
    }
  }
};

template <class A, class Op>
void device_scan(A* data_in, A* data_out, Op op, std::int64_t n, cudaStream_t stream) {
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(cub::DeviceScan::InclusiveScan(nullptr, bytes, data_in, data_out, op, n, stream),
                 "CUB scan (sizing)");
  PoolScratch temp(bytes, stream);
  NUMCU_CUDA_TRY(
      cub::DeviceScan::InclusiveScan(temp.get(), bytes, data_in, data_out, op, n, stream),
      "CUB scan");
}

// Scans n accumulators of type A from `in` into `out` (which may be `in`).
template <class A, bool Multiply>
void scan_accumulators(const void* in, void* out, std::int64_t n, cudaStream_t stream) {
  if constexpr (std::is_same_v<A, std::int64_t>) {
    scan_accumulators<std::uint64_t, Multiply>(in, out, n, stream);
  } else if constexpr (!Multiply && std::is_floating_point_v<A>) {
    // CUB's own plus over plain pointers has tuned sm_90 policies (128 threads x 24 items and
    // measured look-back delays); other operators get its generic one.
    device_scan(static_cast<A*>(const_cast<void*>(in)), static_cast<A*>(out), ::cuda::std::plus<>{},
                n, stream);
  } else {
    device_scan(static_cast<A*>(const_cast<void*>(in)), static_cast<A*>(out),
                Accumulate<A, Multiply>{}, n, stream);
  }
}

// out = in converted, n contiguous elements.
void convert_line(DType to, void* out, DType from, const void* in, std::int64_t n,
                  cudaStream_t stream) {
  ElementwisePlan<2> plan;
  plan.size = n;
  plan.ndim = 1;
  plan.shape[0] = n;
  plan.data[0] = static_cast<char*>(out);
  plan.data[1] = static_cast<char*>(const_cast<void*>(in));
  plan.strides[0][0] = itemsize(to);
  plan.strides[1][0] = itemsize(from);
  plan.contiguous = true;
  cast_cuda(to, from, plan, stream);
}

// acc[i] = s.leaf(in[i]) for n contiguous elements (acc may be in).
template <class S>
__global__ void __launch_bounds__(kScanBlock)
    leaf_line_kernel(S s, const typename S::In* in, typename S::Acc* acc, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kScanBlock;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kScanBlock + threadIdx.x; i < n;
       i += stride) {
    acc[i] = s.leaf(in[i]);
  }
}

// One contiguous line: its accumulators are written into out where out holds them, else into
// scratch (the input converted, or for the nan-scans replaced NaNs and all, by leaf_line_kernel),
// scanned in place there by CUB and, from scratch, converted into out. An input already in the
// accumulator's type with out in it too is scanned straight into out.
template <class S, bool Multiply>
void scan_line([[maybe_unused]] const S& s, const ReducePlan& p, cudaStream_t stream) {
  using T = typename S::In;
  using Acc = typename S::Acc;
  using Out = typename S::Out;
  const std::int64_t n = p.n_red;
  constexpr bool out_holds_acc = std::is_same_v<Out, Acc>;
  if constexpr (!S::skips_nan && std::is_same_v<T, Acc> && out_holds_acc) {
    scan_accumulators<Acc, Multiply>(p.in, p.out, n, stream);
  } else {
    std::optional<PoolScratch> scratch;
    void* acc = p.out;
    if constexpr (!out_holds_acc) {
      scratch.emplace(static_cast<std::size_t>(n) * sizeof(Acc), stream);
      acc = scratch->get();
    }
    if constexpr (S::skips_nan) {
      const std::int64_t blocks = std::min<std::int64_t>((n + kScanBlock - 1) / kScanBlock, 65536);
      leaf_line_kernel<S><<<static_cast<unsigned>(blocks), kScanBlock, 0, stream>>>(
          s, reinterpret_cast<const T*>(p.in), static_cast<Acc*>(acc), n);
      NUMCU_CUDA_TRY(cudaGetLastError(), "scan kernel launch");
    } else {
      convert_line(dtype_of_v<Acc>, acc, dtype_of_v<T>, p.in, n, stream);
    }
    scan_accumulators<Acc, Multiply>(acc, acc, n, stream);
    if constexpr (!out_holds_acc) {
      convert_line(dtype_of_v<Out>, p.out, dtype_of_v<Acc>, acc, n, stream);
    }
  }
}

template <class S, bool Multiply>
void launch_scan(const S& s, const ReducePlan& p, cudaStream_t stream) {
  using T = typename S::In;
  using Out = typename S::Out;
  if (p.n_out == 0 || p.n_red == 0) return;
  if (p.n_out == 1 && p.red_strides[0] == sizeof(T) && p.out_red_stride == sizeof(Out) &&
      p.n_red > kScanBlock) {
    scan_line<S, Multiply>(s, p, stream);
    return;
  }
  const std::int64_t blocks = (p.n_out + kScanBlock - 1) / kScanBlock;
  scan_lines_kernel<S><<<static_cast<unsigned>(blocks), kScanBlock, 0, stream>>>(s, p);
  NUMCU_CUDA_TRY(cudaGetLastError(), "scan kernel launch");
}

}  // namespace
}  // namespace kernels

void scan_cuda(ScanOp op, DType dtype, const ReducePlan& plan, Stream stream) {
  check_launch(plan, itemsize(dtype), itemsize(scan_out_dtype(op, dtype)), true, true);
  reduce::visit_scan(op, dtype, [&](const auto& s) {
    using S = std::decay_t<decltype(s)>;
    kernels::launch_scan<S, S::multiply>(s, plan, static_cast<cudaStream_t>(stream));
  });
}

}  // namespace numcu
