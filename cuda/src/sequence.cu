// numcu.arange and numcu.linspace on the GPU: one thread per element, grid-stride.
#include <cuda_runtime.h>

#include <algorithm>

#include "numcu/cuda_check.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/sequence.hpp"

namespace numcu {
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
  constexpr int kBlock = 256;
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
