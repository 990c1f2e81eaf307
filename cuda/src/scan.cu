// cumsum and cumprod: CUB's device scan for one contiguous line; otherwise a thread per line,
// which reads coalesced when the lines are the columns of a C-ordered array (scans along a
// leading axis).
#include "numcu/launch_check.hpp"
#include "reduce_cuda.cuh"

namespace numcu {
namespace kernels {
namespace {

template <class S>
__global__ void __launch_bounds__(kReduceBlock) scan_lines_kernel(S s, ReducePlan p) {
  using T = typename S::In;
  using Out = typename S::Out;
  const std::int64_t o = static_cast<std::int64_t>(blockIdx.x) * kReduceBlock + threadIdx.x;
  if (o >= p.n_out) return;
  const char* in = p.in;
  std::int64_t out_offset = 0;
  output_position(p, o, in, out_offset);
  char* out = p.out + out_offset;
  auto acc = s.identity();
  for (std::int64_t k = 0; k < p.n_red; ++k) {
    acc = s(acc, s.leaf(load<T>(in + k * p.red_strides[0])));
    *reinterpret_cast<Out*>(out + k * p.out_red_stride) = s.finalize(acc);
  }
}

template <class S>
struct ScanLeaf {
  S s;
  NUMCU_HD typename S::Acc operator()(typename S::In x) const { return s.leaf(x); }
};

template <class S>
struct ScanStore {
  S s;
  NUMCU_HD typename S::Out operator()(typename S::Acc a) const { return s.finalize(a); }
};

template <class In, class Out, class Op>
void device_scan(In in, Out out, Op op, std::int64_t n, cudaStream_t stream) {
  std::size_t bytes = 0;
  NUMCU_CUDA_TRY(cub::DeviceScan::InclusiveScan(nullptr, bytes, in, out, op, n, stream),
                 "CUB scan (sizing)");
  DeviceScratch temp(bytes, stream);
  NUMCU_CUDA_TRY(cub::DeviceScan::InclusiveScan(temp.get(), bytes, in, out, op, n, stream),
                 "CUB scan");
}

// float and double cumsums reach CUB as its own plus over plain pointers, which CUB has sm_90
// tunings for (128 threads x 24 items, measured lookback delays); any other operator gets its
// generic policy (128 x 15).
template <class S>
constexpr bool scans_with_cub_plus =
    std::is_same_v<S, reduce::CumSum<float>> || std::is_same_v<S, reduce::CumSum<double>>;

template <class S>
void launch_scan(const S& s, const ReducePlan& p, cudaStream_t stream) {
  using T = typename S::In;
  using Out = typename S::Out;
  if (p.n_out == 0 || p.n_red == 0) return;
  if (p.n_out == 1 && p.red_strides[0] == sizeof(T) && p.out_red_stride == sizeof(Out) &&
      p.n_red > kReduceBlock) {
    if constexpr (scans_with_cub_plus<S>) {
      device_scan(reinterpret_cast<const T*>(p.in), reinterpret_cast<Out*>(p.out),
                  ::cuda::std::plus<>{}, p.n_red, stream);
    } else {
      device_scan(
          thrust::make_transform_iterator(reinterpret_cast<const T*>(p.in), ScanLeaf<S>{s}),
          thrust::make_transform_output_iterator(reinterpret_cast<Out*>(p.out), ScanStore<S>{s}), s,
          p.n_red, stream);
    }
    return;
  }
  scan_lines_kernel<S><<<reduce_grid(p.n_out), kReduceBlock, 0, stream>>>(s, p);
  NUMCU_CUDA_TRY(cudaGetLastError(), "scan kernel launch");
}

}  // namespace
}  // namespace kernels

void scan_cuda(ScanOp op, DType dtype, const ReducePlan& plan, Stream stream) {
  check_launch(plan, itemsize(dtype), itemsize(scan_out_dtype(op, dtype)), true, true);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define NUMCU_CASE(e, S) \
  case ScanOp::e:        \
    return kernels::launch_scan(reduce::S<T>{}, plan, static_cast<cudaStream_t>(stream));
      NUMCU_SCAN_OPS(NUMCU_CASE)
#undef NUMCU_CASE
    }
  });
}

}  // namespace numcu
