// The little of the CUDA runtime numcu's bindings need, behind plain C++ so that the bindings
// compile without CUDA headers. In a CPU-only build every call that needs a GPU throws
// cuda_unavailable and is_available() is false.
#pragma once

#include <cstddef>
#include <cstdint>
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
// that freed blocks are kept for reuse (once per device). Inside a DeviceRestore's lifetime the
// switch is undone when it ends.
void activate(int device);

// Puts back, when it goes out of scope, the device that was current on this thread before the
// first activate() that changed it in its lifetime. Every call from Python holds one: an
// operation on another GPU's arrays must not change which GPU the caller, and other libraries
// on this thread (CuPy follows the runtime's current device), see as current. Costs nothing
// where nothing is switched: no CUDA call is made to construct it.
class DeviceRestore {
 public:
  DeviceRestore() noexcept;
  ~DeviceRestore();
  DeviceRestore(const DeviceRestore&) = delete;
  DeviceRestore& operator=(const DeviceRestore&) = delete;

 private:
  int saved_ = -1;
  int* outer_;
};

// Stream-ordered allocation from the device's default pool (cudaMallocAsync), and its return
// (cudaFreeAsync on `stream`). Blocks of at most 64 KiB freed on the legacy default stream are
// returned in batches, and an allocation of the same size there takes one of them back (see
// runtime.cpp); issue_deferred_frees returns those waiting now.
void* allocate(std::size_t bytes, int device, Stream stream);
void deallocate(void* ptr, std::size_t bytes, int device, Stream stream) noexcept;
void issue_deferred_frees() noexcept;

// cudaMemcpyAsync with the direction inferred from the pointers.
void copy_async(void* dst, const void* src, std::size_t bytes, Stream stream);
// A copy from `src` on GPU `src_device` to `dst` on GPU `dst_device`, queued on `stream` (of
// `dst_device`). Pool allocations are reachable from another GPU only where their pool grants
// it: the first copy between two GPUs that can reach each other grants each one's default pool
// to the other, and copies go peer to peer; between GPUs that cannot, CUDA stages the copy
// through host memory. force_staged_copies (tests): whether pairs of GPUs not yet decided take
// that staged route even where they could copy peer to peer (pools already shared stay so).
void copy_between_devices(void* dst, int dst_device, const void* src, int src_device,
                          std::size_t bytes, Stream stream);
void force_staged_copies(bool staged);
void synchronize(Stream stream);
void synchronize_device(int device);
// One empty kernel queued on `stream`: the cost of a launch by itself (benchmarks only).
void launch_empty(Stream stream);
// The stream numcu queues work on in this thread (nullptr: the legacy default stream), and
// setting it (what `with numcu.cuda.Stream(...)` does).
Stream current_stream();
// Whether `stream` is the legacy default stream: null, or its explicit handle 1
// (cudaStreamLegacy).
inline bool is_legacy_stream(Stream stream) {
  return stream == nullptr || stream == reinterpret_cast<Stream>(std::uintptr_t{1});
}
void set_current_stream(Stream stream);
// Streams numcu owns (numcu.cuda.Stream()).
Stream create_stream(bool non_blocking);
void destroy_stream(Stream stream) noexcept;
// Events, for ordering and timing.
void* create_event(bool timing);
void destroy_event(void* event) noexcept;
void record_event(void* event, Stream stream);
void wait_event(Stream stream, void* event);
void synchronize_event(void* event);
bool query_event(void* event);
float elapsed_ms(void* start, void* end);
// Pool statistics of a device: bytes in use by arrays, and bytes the pool holds.
void memory_info(int device, std::size_t* used, std::size_t* reserved);
// Returns the pool's cached, unused blocks to the device.
void release_cached_memory(int device);

// Makes `consumer` wait for the work queued on `producer` so far, without blocking the host.
void stream_wait(Stream consumer, Stream producer);
// What the driver says of a stream handle numcu did not create (cudaStreamGetId): an empty
// string for a stream, else the error's name. The driver reads the memory `stream` points at,
// so the caller must have made sure it is readable. Empty, without asking, when no GPU is
// available (nothing then queues work on the handle).
std::string stream_query_error(Stream stream);
// The device a pointer belongs to.
int pointer_device(const void* ptr);

// Managed (unified) memory, reachable from the host and every device (cudaMallocManaged, made
// while `device` is current).
void* allocate_managed(std::size_t bytes, int device);
// Waits for the work queued on `stream` (the last to use the memory), then frees it.
void free_managed(void* ptr, int device, Stream stream) noexcept;
// Migrates managed memory to `device` ahead of the work that follows on `stream`; nothing on
// devices without concurrent managed access, where the driver moves it at each launch.
void prefetch_to_device(const void* ptr, std::size_t bytes, int device, Stream stream);
// Page-locked host memory, usable by every device (cudaHostAlloc, portable).
void* allocate_pinned(std::size_t bytes);
// Waits until every device numcu has used is idle, so that no queued copy still uses the
// memory, then frees it.
void free_pinned(void* ptr) noexcept;

// Page-locked host memory from a pool numcu keeps (blocks made with cudaHostAlloc, portable to
// every device, kept after they are freed up to a limit of the RAM's eighth or 2 GiB): copies to
// and from it run at the copy engines' full speed and its pages are faulted in once, not on every
// call. allocate_host_pooled returns null without a GPU, for 0 bytes, and where CUDA cannot
// page-lock more (the caller then takes ordinary memory). Thread-safe.
void* allocate_host_pooled(std::size_t bytes);
// Returns a block to the pool; no copy may still be using it. Pointers not from the pool are
// ignored.
void free_host_pooled(void* ptr) noexcept;
// Whether [ptr, ptr + bytes) lies in a live block of the pool.
bool is_host_pooled(const void* ptr, std::size_t bytes);
bool host_pool_available();
struct HostPoolInfo {
  std::size_t live_blocks = 0, live_bytes = 0;      // handed out, not yet back
  std::size_t cached_blocks = 0, cached_bytes = 0;  // back in the pool, kept for reuse
  std::size_t cache_limit = 0;
  std::uint64_t hits = 0, misses = 0;  // requests served from the cache, and by CUDA
};
HostPoolInfo host_pool_info();
// Frees every cached block.
void release_host_pool() noexcept;

// Pins host memory in place (cudaHostRegister, for every device), so that copies reach it by DMA;
// false, with the error cleared, where CUDA refuses (memory it cannot pin, a range that overlaps
// one already registered). host_unregister undoes it; no copy may still be using the memory.
bool host_register(void* ptr, std::size_t bytes);
void host_unregister(void* ptr) noexcept;

// What CUDA knows of an address: ordinary (pageable) host memory, page-locked host memory,
// device memory, or managed memory.
enum class PointerKind { host, pinned, device, managed };
PointerKind pointer_kind(const void* ptr);

}  // namespace numcu::cuda
