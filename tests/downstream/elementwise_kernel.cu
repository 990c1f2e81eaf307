// numcu's functors in a CUDA kernel of the downstream project's own.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <numcu/ops.hpp>
#include <numcu/types.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "elementwise_files.hpp"

template <class T, class Op>
__global__ void apply(const T* x, const T* y, T* out, std::int64_t n, Op op) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    using C = numcu::compute_t<T>;
    out[i] = numcu::convert<T>(op(numcu::convert<C>(x[i]), numcu::convert<C>(y[i])));
  }
}

static void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(status));
  }
}

template <class T, class Op>
void run_on_gpu(const std::vector<char>& x, const std::vector<char>& y, std::vector<char>& out,
                Op op) {
  const auto n = static_cast<std::int64_t>(x.size() / sizeof(T));
  void* d = nullptr;
  check(cudaMalloc(&d, 3 * x.size() + 1), "cudaMalloc");
  T* dx = static_cast<T*>(d);
  T* dy = dx + n;
  T* dout = dy + n;
  check(cudaMemcpy(dx, x.data(), x.size(), cudaMemcpyHostToDevice), "cudaMemcpy x");
  check(cudaMemcpy(dy, y.data(), y.size(), cudaMemcpyHostToDevice), "cudaMemcpy y");
  if (n > 0) {
    apply<<<static_cast<unsigned>((n + 255) / 256), 256>>>(dx, dy, dout, n, op);
    check(cudaGetLastError(), "kernel launch");
  }
  check(cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost), "cudaMemcpy out");
  check(cudaFree(d), "cudaFree");
}

int main(int argc, char** argv) {
  return downstream::for_each_dtype(
      argc, argv, [](auto tag, const auto& x, const auto& y, auto& sum, auto& product) {
        using T = typename decltype(tag)::type;
        run_on_gpu<T>(x, y, sum, numcu::ops::Add{});
        run_on_gpu<T>(x, y, product, numcu::ops::Multiply{});
      });
}
