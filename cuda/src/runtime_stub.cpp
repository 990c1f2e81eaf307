// The runtime of a CPU-only build: no device, and every entry point that needs one says so,
// with why this build has no CUDA backend and how to get one (NUMCU_NO_CUDA_REASON, from CMake).
// Every function runtime.hpp declares has its twin here: a CPU-only build that misses one fails
// to import (CI builds, imports and tests a CPU-only module for that reason).
#include <string>

#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/runtime.hpp"
#include "numcu/sequence.hpp"

namespace numcu {
namespace {

[[noreturn]] void unavailable() {
  throw Error(ErrorKind::cuda_unavailable,
              "numcu: no CUDA device is available (" + cuda::unavailable_reason() + ")");
}

}  // namespace

template <int N>
void ufunc_cuda(Ufunc, DType, const ElementwisePlan<N>&, const OpParams&, Stream) {
  unavailable();
}
template void ufunc_cuda<2>(Ufunc, DType, const ElementwisePlan<2>&, const OpParams&, Stream);
template void ufunc_cuda<3>(Ufunc, DType, const ElementwisePlan<3>&, const OpParams&, Stream);
template void ufunc_cuda<4>(Ufunc, DType, const ElementwisePlan<4>&, const OpParams&, Stream);
void cast_cuda(DType, DType, const ElementwisePlan<2>&, Stream) { unavailable(); }
void reduce_cuda(ReduceOp, DType, const ReducePlan&, const ReduceParams&, Stream) { unavailable(); }
void scan_cuda(ScanOp, DType, const ReducePlan&, Stream) { unavailable(); }
void sequence_cuda(DType, const SequenceParams&, void*, Stream) { unavailable(); }

namespace cuda {

bool is_available() { return false; }
std::string unavailable_reason() { return NUMCU_NO_CUDA_REASON; }
int device_count() { return 0; }
int runtime_version() { return 0; }
std::vector<std::string> compiled_architectures() { return {}; }
std::string device_name(int) { unavailable(); }
int current_device() { unavailable(); }
void activate(int) { unavailable(); }
DeviceRestore::DeviceRestore() noexcept : outer_(nullptr) {}
DeviceRestore::~DeviceRestore() = default;
void* allocate(std::size_t, int, Stream) { unavailable(); }
void deallocate(void*, std::size_t, int, Stream) noexcept {}
void issue_deferred_frees() noexcept {}
void copy_async(void*, const void*, std::size_t, Stream) { unavailable(); }
void copy_between_devices(void*, int, const void*, int, std::size_t, Stream) { unavailable(); }
void force_staged_copies(bool) {}  // no pairs of GPUs to decide
void synchronize(Stream) {}        // nothing can have been queued
void synchronize_device(int) { unavailable(); }
void launch_empty(Stream) { unavailable(); }
void stream_wait(Stream, Stream) { unavailable(); }
std::string stream_query_error(Stream) { return std::string(); }
int pointer_device(const void*) { unavailable(); }
Stream current_stream() { return nullptr; }
void set_current_stream(Stream) {}
Stream create_stream(bool) { unavailable(); }
void destroy_stream(Stream) noexcept {}
void* create_event(bool) { unavailable(); }
void destroy_event(void*) noexcept {}
void record_event(void*, Stream) { unavailable(); }
void wait_event(Stream, void*) { unavailable(); }
void synchronize_event(void*) { unavailable(); }
bool query_event(void*) { unavailable(); }
float elapsed_ms(void*, void*) { unavailable(); }
void memory_info(int, std::size_t*, std::size_t*) { unavailable(); }
void release_cached_memory(int) { unavailable(); }
void* allocate_managed(std::size_t, int) { unavailable(); }
void free_managed(void*, int, Stream) noexcept {}
void prefetch_to_device(const void*, std::size_t, int, Stream) { unavailable(); }
void* allocate_pinned(std::size_t) { unavailable(); }
void free_pinned(void*) noexcept {}
void* allocate_host_pooled(std::size_t) { return nullptr; }
void free_host_pooled(void*) noexcept {}
bool is_host_pooled(const void*, std::size_t) { return false; }
bool host_pool_available() { return false; }
HostPoolInfo host_pool_info() { return {}; }
void release_host_pool() noexcept {}
bool host_register(void*, std::size_t) { return false; }
void host_unregister(void*) noexcept {}
PointerKind pointer_kind(const void*) { return PointerKind::host; }

}  // namespace cuda
}  // namespace numcu
