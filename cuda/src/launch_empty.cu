// An empty kernel: what one launch costs by itself, the floor benchmarks/bench_add.py measures
// numcu's small calls against.
#include <cuda_runtime.h>

#include "numcu/cuda_check.hpp"
#include "numcu/runtime.hpp"

namespace numcu::cuda {
namespace {

__global__ void empty_kernel() {}

}  // namespace

void launch_empty(Stream stream) {
  current_device();  // raises numcu's error where there is no GPU
  empty_kernel<<<1, 32, 0, static_cast<cudaStream_t>(stream)>>>();
  NUMCU_CUDA_TRY(cudaGetLastError(), "empty kernel launch");
}

}  // namespace numcu::cuda
