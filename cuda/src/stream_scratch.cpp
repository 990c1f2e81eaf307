#include "stream_scratch.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "numcu/cuda_check.hpp"
#include "numcu/runtime.hpp"

namespace numcu::cuda {
namespace {

constexpr int kMaxDevices = 64;
// A kept buffer grows to what the largest launch on its stream needed, at least this much.
constexpr std::size_t kMinKeptBytes = std::size_t{64} << 10;

struct Buffer {
  std::mutex mutex;
  void* ptr = nullptr;
  std::size_t bytes = 0;  // after the counters
  int device = 0;
};

struct Registry {
  std::mutex mutex;
  Buffer legacy[kMaxDevices];
  std::unordered_map<Stream, Buffer*> owned;
};

// Never destroyed: leases may be taken while the process exits.
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

cudaMemPool_t scratch_pool(int device) {
  if (device < 0 || device >= kMaxDevices) {
    throw_value_error("numcu: CUDA device " + std::to_string(device) + " is beyond the " +
                      std::to_string(kMaxDevices) + " devices numcu supports");
  }
  static std::once_flag made[kMaxDevices];
  static cudaMemPool_t pools[kMaxDevices] = {};
  std::call_once(made[device], [device] {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    NUMCU_CUDA_TRY(cudaMemPoolCreate(&pools[device], &props), "cudaMemPoolCreate (scratch)");
    std::uint64_t threshold = UINT64_MAX;
    NUMCU_CUDA_TRY(
        cudaMemPoolSetAttribute(pools[device], cudaMemPoolAttrReleaseThreshold, &threshold),
        "cudaMemPoolSetAttribute (scratch)");
  });
  return pools[device];
}

// Scratch of `bytes` after zeroed counters, queued on `stream`.
void* allocate_zeroed(std::size_t bytes, int device, Stream stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const std::size_t total = kScratchCounterBytes + bytes;
  void* ptr = nullptr;
  cudaError_t status = cudaMallocFromPoolAsync(&ptr, total, scratch_pool(device), s);
  if (status == cudaErrorMemoryAllocation) {
    // The default pool keeps what arrays freed: hand its unused memory back and try again.
    cudaGetLastError();
    issue_deferred_frees();
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) cudaMemPoolTrimTo(pool, 0);
    cudaGetLastError();
    status = cudaMallocFromPoolAsync(&ptr, total, scratch_pool(device), s);
  }
  NUMCU_CUDA_TRY_ALLOC(status, "cudaMallocFromPoolAsync (scratch)", total);
  const cudaError_t zeroed = cudaMemsetAsync(ptr, 0, kScratchCounterBytes, s);
  if (zeroed != cudaSuccess) {
    cudaFreeAsync(ptr, s);
    NUMCU_CUDA_TRY(zeroed, "cudaMemsetAsync (scratch counters)");
  }
  return ptr;
}

Buffer* kept_buffer(Stream stream, int device) {
  Registry& r = registry();
  if (is_legacy_stream(stream)) return device < kMaxDevices ? &r.legacy[device] : nullptr;
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.owned.find(stream);
  if (it == r.owned.end() || it->second->device != device) return nullptr;
  return it->second;
}

}  // namespace

ScratchLease::ScratchLease(Stream stream, std::size_t bytes)
    : device_(current_device()), stream_(stream) {
  bytes = (bytes + 255) / 256 * 256;
  Buffer* b = kept_buffer(stream, device_);
  if (b == nullptr) {
    owned_ = allocate_zeroed(bytes, device_, stream);
    base_ = owned_;
    return;
  }
  lock_ = std::unique_lock<std::mutex>(b->mutex);
  if (b->ptr == nullptr || b->bytes < bytes) {
    const std::size_t grown = std::max({bytes, 2 * b->bytes, kMinKeptBytes});
    if (b->ptr != nullptr) {
      // Stream-ordered: the launches that used the old buffer come first.
      cudaFreeAsync(b->ptr, static_cast<cudaStream_t>(stream));
      cudaGetLastError();
      b->ptr = nullptr;
      b->bytes = 0;
    }
    b->ptr = allocate_zeroed(grown, device_, stream);
    b->bytes = grown;
  }
  base_ = b->ptr;
}

ScratchLease::~ScratchLease() {
  if (owned_ != nullptr &&
      cudaFreeAsync(owned_, static_cast<cudaStream_t>(stream_)) != cudaSuccess) {
    cudaGetLastError();
  }
}

void register_stream_scratch(Stream stream) noexcept {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Buffer*& b = r.owned[stream];
  if (b == nullptr) b = new Buffer;
  b->device = device;
}

void release_stream_scratch(Stream stream) noexcept {
  Buffer* b = nullptr;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.owned.find(stream);
    if (it == r.owned.end()) return;
    b = it->second;
    r.owned.erase(it);
  }
  {
    std::lock_guard<std::mutex> lock(b->mutex);  // a lease still being queued finishes first
    if (b->ptr != nullptr) {
      int current = -1;
      if (cudaGetDevice(&current) == cudaSuccess && current != b->device) cudaSetDevice(b->device);
      if (cudaFreeAsync(b->ptr, static_cast<cudaStream_t>(stream)) != cudaSuccess) {
        cudaGetLastError();
      }
      if (current >= 0 && current != b->device) cudaSetDevice(current);
    }
  }
  delete b;
}

}  // namespace numcu::cuda
