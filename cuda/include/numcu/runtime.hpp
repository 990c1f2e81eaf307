// The little of the CUDA runtime numcu's bindings need, behind plain C++ so that the bindings
// compile without CUDA headers. In a CPU-only build every call that needs a GPU throws
// cuda_unavailable and is_available() is false.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "numcu/backend.hpp"

namespace numcu::cuda {

// Whether a CUDA device and driver can be used; asks the driver once, on first call.
bool is_available();
// Why not, when is_available() is false.
std::string unavailable_reason();
int device_count();
// CUDA runtime version the module was built with, e.g. 13000; 0 in a CPU-only build.
int runtime_version();
std::vector<std::string> compiled_architectures();
std::string device_name(int device);

int current_device();
// Makes `device` current on this thread and raises its memory pool's release threshold so
// that freed blocks are kept for reuse (once per device).
void activate(int device);

// Stream-ordered allocation from the device's default pool (cudaMallocAsync).
void* allocate(std::size_t bytes, int device, Stream stream);
void deallocate(void* ptr, int device, Stream stream) noexcept;

// cudaMemcpyAsync with the direction inferred from the pointers.
void copy_async(void* dst, const void* src, std::size_t bytes, Stream stream);
void synchronize(Stream stream);
void synchronize_device(int device);
// Makes `consumer` wait for the work queued on `producer` so far, without blocking the host.
void stream_wait(Stream consumer, Stream producer);
// The device a pointer belongs to.
int pointer_device(const void* ptr);

}  // namespace numcu::cuda
