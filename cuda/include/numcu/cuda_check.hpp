// Checking CUDA calls: every failure becomes a numcu::Error naming the error, the operation
// and the place; out-of-memory is its own kind so that Python sees a MemoryError.
#pragma once

#include <cuda_runtime_api.h>

#include <cstring>
#include <string>

#include "numcu/errors.hpp"

namespace numcu {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* what, const char* file,
                                          int line, std::size_t nbytes = 0) {
  cudaGetLastError();  // clear the error unless it is sticky
  const char* slash = std::strrchr(file, '/');
  file = slash ? slash + 1 : file;
  std::string msg = std::string("numcu: ") + what + " failed: " + cudaGetErrorName(err) + " (" +
                    cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line);
  if (err == cudaErrorMemoryAllocation) {
    throw Error(ErrorKind::out_of_memory,
                "numcu: out of device memory allocating " + std::to_string(nbytes) + " bytes (" +
                    what + " at " + file + ":" + std::to_string(line) + ")",
                nbytes);
  }
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) {
    throw Error(ErrorKind::cuda_unavailable, msg);
  }
  throw Error(ErrorKind::cuda_error, msg);
}

}  // namespace numcu

#define NUMCU_CUDA_TRY(call, what)                                     \
  do {                                                                 \
    const cudaError_t numcu_err_ = (call);                             \
    if (numcu_err_ != cudaSuccess)                                     \
      ::numcu::throw_cuda_error(numcu_err_, what, __FILE__, __LINE__); \
  } while (0)

#define NUMCU_CUDA_TRY_ALLOC(call, what, nbytes)                               \
  do {                                                                         \
    const cudaError_t numcu_err_ = (call);                                     \
    if (numcu_err_ != cudaSuccess)                                             \
      ::numcu::throw_cuda_error(numcu_err_, what, __FILE__, __LINE__, nbytes); \
  } while (0)
