#include "numcu/runtime.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <utility>

#include "fused_gpu.hpp"
#include "numcu/cuda_check.hpp"
#include "stream_scratch.hpp"

namespace numcu::cuda {
namespace {

struct Probe {
  int count = 0;
  cudaError_t status = cudaSuccess;
  std::string reason;  // why no device can be used; empty when one can
};

std::string version_str(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// The oldest Linux driver of a CUDA major (NVIDIA's compatibility tables: 525.60.13 for CUDA 12,
// 580.65.06 for CUDA 13), and the release wheel for older drivers and GPUs.
const char* driver_needed(int cuda_major) { return cuda_major >= 13 ? "580" : "525"; }
const char* kOtherWheel = "numcu-cuda12x (built with CUDA 12, for drivers from 525 on)";

// Whether the module holds code a GPU of compute capability major.minor can run: machine code
// for its major and a minor no higher (NN-real, or NN, which CMake builds as both), or PTX for
// an architecture no newer (NN-virtual, NN), which the driver compiles.
bool architectures_cover(int major, int minor) {
  const int cc = major * 10 + minor;
  for (const std::string& item : compiled_architectures()) {
    if (item == "all" || item == "all-major" || item == "native") return true;
    std::size_t digits = 0;
    while (digits < item.size() && item[digits] >= '0' && item[digits] <= '9') ++digits;
    if (digits == 0) continue;
    const int arch = std::stoi(item.substr(0, digits));
    const std::string rest = item.substr(digits);
    const bool specific = !rest.empty() && rest[0] >= 'a' && rest[0] <= 'z';  // 90a: that GPU only
    const bool real = rest.find("-virtual") == std::string::npos;
    const bool virt = rest.find("-real") == std::string::npos;
    if (real && (specific ? arch == cc : arch / 10 == major && arch % 10 <= minor)) return true;
    if (virt && !specific && arch <= cc) return true;
  }
  return false;
}

// Why no visible GPU can run this module's kernels, or "" when one can.
std::string unsupported_gpus(int count) {
  std::string gpus;
  int lowest = 1000;
  for (int d = 0; d < count; ++d) {
    int major = 0;
    int minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d) != cudaSuccess) {
      cudaGetLastError();
      return std::string();  // let the first call say what is wrong
    }
    if (architectures_cover(major, minor)) return std::string();
    lowest = std::min(lowest, major * 10 + minor);
    if (!gpus.empty()) gpus += ", ";
    gpus += std::to_string(major) + "." + std::to_string(minor);
  }
  std::string list;
  for (const std::string& item : compiled_architectures()) list += (list.empty() ? "" : " ") + item;
  std::string why = "no GPU here can run this numcu's kernels: compute capability " + gpus +
                    ", and this numcu holds code for " + list;
  if (CUDART_VERSION >= 13000 && lowest < 75) {
    why += ". CUDA 13 does not support GPUs below compute capability 7.5: install " +
           std::string(kOtherWheel);
  } else {
    why +=
        ": reinstall numcu built for this GPU (NUMCU_CUDA_ARCHITECTURES=" + std::to_string(lowest) +
        " pip install numcu, from source)";
  }
  return why;
}

// Names the cause a user can act on. The runtime reports a missing driver and an old one alike
// (cudaErrorInsufficientDriver), and every way of seeing no device alike (cudaErrorNoDevice):
// the driver's version and CUDA_VISIBLE_DEVICES tell them apart.
std::string diagnose(const Probe& p) {
  if (p.status == cudaSuccess && p.count > 0) return std::string();
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) {
    cudaGetLastError();
    driver = 0;
  }
  if (driver == 0) {
    return "no NVIDIA driver is installed: the CUDA driver library, libcuda.so.1, cannot be "
           "loaded";
  }
  if (driver < CUDART_VERSION && p.status == cudaErrorInsufficientDriver) {
    const int major = CUDART_VERSION / 1000;
    return "the NVIDIA driver is too old: it supports CUDA " + version_str(driver) +
           ", and this numcu (" NUMCU_DISTRIBUTION_NAME ") was built with CUDA " +
           version_str(CUDART_VERSION) + ", which needs driver " + driver_needed(major) +
           " or newer: update the driver" +
           (major >= 13 ? std::string(", or install ") + kOtherWheel : std::string());
  }
  if (p.status == cudaSuccess || p.status == cudaErrorNoDevice) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    if (visible != nullptr && std::string(visible).find_first_not_of(" \t") == std::string::npos) {
      return "CUDA_VISIBLE_DEVICES is set but empty, which hides every GPU";
    }
    if (visible != nullptr) {
      return std::string("CUDA_VISIBLE_DEVICES is '") + visible +
             "', which names no GPU this machine has";
    }
    return "the NVIDIA driver (CUDA " + version_str(driver) + ") sees no GPU";
  }
  return std::string("CUDA cannot start: ") + cudaGetErrorName(p.status) + " (" +
         cudaGetErrorString(p.status) + ")";
}

const Probe& probe() {
  static const Probe p = [] {
    Probe r;
    r.status = cudaGetDeviceCount(&r.count);
    if (r.status != cudaSuccess) {
      r.count = 0;
      cudaGetLastError();
    }
    r.reason = diagnose(r);
    if (r.reason.empty()) {
      r.reason = unsupported_gpus(r.count);
      if (!r.reason.empty()) r.count = 0;
    }
    return r;
  }();
  return p;
}

// The error every call that needs a GPU raises when there is none, with the cause.
[[noreturn]] void throw_unavailable() {
  throw Error(ErrorKind::cuda_unavailable,
              "numcu: no CUDA device is available (" + probe().reason + ")");
}

constexpr int kMaxDevices = 64;

// Devices numcu has made current (bit d: device d), whose work freeing pinned memory waits for.
std::atomic<std::uint64_t> g_used_devices{0};

}  // namespace

bool is_available() { return probe().count > 0; }

std::string unavailable_reason() { return probe().reason; }

int device_count() { return probe().count; }

int runtime_version() { return CUDART_VERSION; }

std::vector<std::string> compiled_architectures() {
  std::vector<std::string> out;
  std::stringstream list(NUMCU_CUDA_ARCHITECTURES);
  std::string item;
  while (std::getline(list, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string device_name(int device) {
  if (!is_available()) throw_unavailable();
  cudaDeviceProp prop;
  NUMCU_CUDA_TRY(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  return prop.name;
}

int current_device() {
  if (!is_available()) throw_unavailable();
  int device = 0;
  NUMCU_CUDA_TRY(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

namespace {
// Where the innermost DeviceRestore of this thread keeps the device to put back (-1: none yet).
thread_local int* g_restore_slot = nullptr;
}  // namespace

DeviceRestore::DeviceRestore() noexcept : outer_(g_restore_slot) { g_restore_slot = &saved_; }

DeviceRestore::~DeviceRestore() {
  g_restore_slot = outer_;
  if (saved_ < 0) return;
  // Errors are dropped: nothing can be raised from here, and the next call reports them.
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess) {
    cudaGetLastError();
  } else if (current != saved_ && cudaSetDevice(saved_) != cudaSuccess) {
    cudaGetLastError();
  }
}

void activate(int device) {
  if (!is_available()) throw_unavailable();
  if (device < 0 || device >= device_count()) {
    throw_value_error("numcu: CUDA device " + std::to_string(device) + " does not exist (" +
                      std::to_string(device_count()) + " device(s) present)");
  }
  int current = -1;
  NUMCU_CUDA_TRY(cudaGetDevice(&current), "cudaGetDevice");
  if (current != device) {
    if (g_restore_slot != nullptr && *g_restore_slot < 0) *g_restore_slot = current;
    NUMCU_CUDA_TRY(cudaSetDevice(device), "cudaSetDevice");
  }

  static std::once_flag pool_ready[kMaxDevices];
  if (device < kMaxDevices) {
    std::call_once(pool_ready[device], [device] {
      g_used_devices.fetch_or(std::uint64_t{1} << device);
      cudaMemPool_t pool;
      NUMCU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
      std::uint64_t threshold = UINT64_MAX;
      NUMCU_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold),
                     "cudaMemPoolSetAttribute");
      fused::prepare_gpu_interpreters(device);
    });
  }
}

namespace {
// Runs `release` with `device` current and restores the caller's device after; skips it when
// the runtime is shutting down (the driver reclaims everything then). Errors are dropped: a
// release happens in destructors, where nothing can be raised.
template <class Release>
void release_on(int device, Release&& release) noexcept {
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  if (current != device) cudaSetDevice(device);
  release();
  if (current != device) cudaSetDevice(current);
}

void free_now(void* ptr, int device, Stream stream) noexcept {
  release_on(device, [&] {
    if (cudaFreeAsync(ptr, static_cast<cudaStream_t>(stream)) != cudaSuccess) cudaGetLastError();
  });
}

// Small frees on the legacy default stream wait here and go to CUDA together. Every
// cudaFreeAsync is an operation in the stream, and the GPU spends about 1.3 us on one between
// two kernels: on the H100, a float32 sum of 2^27 elements that frees its scratch and result
// each call ran at 3014 GB/s, and at 3038 GB/s without the frees; a batch of frees costs about
// what one does. Only the legacy stream's frees wait: it lives as long as the process, and
// every thread's work on it is one order, so a free issued later, from any thread, is still
// after the work that used the memory. For the same reason an allocation of the same size on
// the same device and stream takes a waiting block back, as the pool would hand it out again
// (stream-ordered reuse), without a cudaMallocAsync and a cudaFreeAsync: a loop of small calls
// then asks CUDA for nothing. A failed allocation issues the waiting frees and tries again;
// synchronisation and the pool's statistics issue them first.
constexpr std::size_t kDeferredBytes = std::size_t{64} << 10;
constexpr int kDeferredFrees = 64;

struct DeferredFree {
  void* ptr;
  std::size_t bytes;
  int device;
};

struct DeferredFrees {
  std::mutex mutex;
  DeferredFree waiting[kDeferredFrees];
  int count = 0;
};

// Never destroyed: frees may come from destructors that run at exit, after statics are gone.
DeferredFrees& deferred() {
  static DeferredFrees* d = new DeferredFrees;
  return *d;
}

}  // namespace

void* allocate(std::size_t bytes, int device, Stream stream) {
  activate(device);
  if (bytes == 0) return nullptr;
  if (bytes <= kDeferredBytes && is_legacy_stream(stream)) {
    DeferredFrees& d = deferred();
    std::lock_guard<std::mutex> lock(d.mutex);
    for (int i = d.count - 1; i >= 0; --i) {  // the latest first
      if (d.waiting[i].bytes == bytes && d.waiting[i].device == device) {
        void* ptr = d.waiting[i].ptr;
        d.waiting[i] = d.waiting[--d.count];
        return ptr;
      }
    }
  }
  void* ptr = nullptr;
  cudaError_t status = cudaMallocAsync(&ptr, bytes, static_cast<cudaStream_t>(stream));
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    issue_deferred_frees();
    status = cudaMallocAsync(&ptr, bytes, static_cast<cudaStream_t>(stream));
  }
  NUMCU_CUDA_TRY_ALLOC(status, "cudaMallocAsync", bytes);
  return ptr;
}

void issue_deferred_frees() noexcept {
  DeferredFree batch[kDeferredFrees];
  int count = 0;
  {
    DeferredFrees& d = deferred();
    std::lock_guard<std::mutex> lock(d.mutex);
    count = d.count;
    std::copy(d.waiting, d.waiting + count, batch);
    d.count = 0;
  }
  for (int i = 0; i < count; ++i) free_now(batch[i].ptr, batch[i].device, nullptr);
}

void deallocate(void* ptr, std::size_t bytes, int device, Stream stream) noexcept {
  if (ptr == nullptr) return;
  if (bytes > kDeferredBytes || !is_legacy_stream(stream)) {
    free_now(ptr, device, stream);
    return;
  }
  bool full = false;
  {
    DeferredFrees& d = deferred();
    std::lock_guard<std::mutex> lock(d.mutex);
    d.waiting[d.count++] = DeferredFree{ptr, bytes, device};
    full = d.count == kDeferredFrees;
  }
  if (full) issue_deferred_frees();
}

void copy_async(void* dst, const void* src, std::size_t bytes, Stream stream) {
  if (bytes == 0) return;
  NUMCU_CUDA_TRY(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream)),
      "cudaMemcpyAsync");
}

namespace {

std::atomic<bool> g_force_staged{false};

// Whether GPUs a and b reach each other's default-pool allocations: decided, and where both can
// reach the other granted, once per pair (cudaMemPoolSetAccess maps the pool's existing and
// future allocations into the other GPU; cudaDeviceEnablePeerAccess does not cover pools).
bool pools_shared(int a, int b) {
  if (a == b) return true;
  if (a < 0 || b < 0 || a >= kMaxDevices || b >= kMaxDevices) return false;
  enum : unsigned char { unknown, shared, apart };
  static std::mutex mutex;
  static unsigned char state[kMaxDevices][kMaxDevices] = {};
  std::lock_guard<std::mutex> lock(mutex);
  unsigned char& st = state[std::min(a, b)][std::max(a, b)];
  if (st == unknown) {
    int ab = 0, ba = 0;
    NUMCU_CUDA_TRY(cudaDeviceCanAccessPeer(&ab, a, b), "cudaDeviceCanAccessPeer");
    NUMCU_CUDA_TRY(cudaDeviceCanAccessPeer(&ba, b, a), "cudaDeviceCanAccessPeer");
    if (ab != 0 && ba != 0 && !g_force_staged.load()) {
      for (const auto& [owner, peer] : {std::pair{a, b}, std::pair{b, a}}) {
        cudaMemPool_t pool;
        NUMCU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, owner), "cudaDeviceGetDefaultMemPool");
        cudaMemAccessDesc access{};
        access.location.type = cudaMemLocationTypeDevice;
        access.location.id = peer;
        access.flags = cudaMemAccessFlagsProtReadWrite;
        NUMCU_CUDA_TRY(cudaMemPoolSetAccess(pool, &access, 1), "cudaMemPoolSetAccess");
      }
      st = shared;
    } else {
      st = apart;
    }
  }
  return st == shared;
}

}  // namespace

void copy_between_devices(void* dst, int dst_device, const void* src, int src_device,
                          std::size_t bytes, Stream stream) {
  if (bytes == 0) return;
  pools_shared(dst_device, src_device);  // otherwise the copy is staged
  NUMCU_CUDA_TRY(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes,
                                     static_cast<cudaStream_t>(stream)),
                 "cudaMemcpyPeerAsync");
}

void force_staged_copies(bool staged) { g_force_staged.store(staged); }

void synchronize(Stream stream) {
  // Without a device nothing can have been queued, on this stream or any other.
  if (!is_available()) return;
  issue_deferred_frees();
  NUMCU_CUDA_TRY(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), "cudaStreamSynchronize");
}

void synchronize_device(int device) {
  activate(device);
  issue_deferred_frees();
  NUMCU_CUDA_TRY(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

namespace {
// The blocking streams numcu made (numcu.cuda.Stream() by default): known without asking the
// driver. Other libraries' streams are not asked about (a wait costs little more than the query).
// Never destroyed: streams may be destroyed by Python's finalisation after static destructors.
struct BlockingStreams {
  std::mutex mutex;
  std::set<Stream> streams;
};
BlockingStreams& blocking_streams() {
  static auto* b = new BlockingStreams;
  return *b;
}

bool numcu_blocking_stream(Stream s) {
  BlockingStreams& b = blocking_streams();
  std::lock_guard<std::mutex> lock(b.mutex);
  return b.streams.count(s) != 0;
}
}  // namespace

void stream_wait(Stream consumer, Stream producer) {
  if (consumer == producer) return;
  // CUDA orders the legacy default stream with every blocking stream itself (the per-thread
  // default stream included): work queued on one waits for what the other queued before. Known
  // blocking here: the per-thread default stream and numcu's own blocking streams.
  if (is_legacy_stream(consumer) || is_legacy_stream(producer)) {
    const Stream other = is_legacy_stream(consumer) ? producer : consumer;
    if (is_legacy_stream(other) || other == reinterpret_cast<Stream>(2)) return;
    if (numcu_blocking_stream(other)) return;
  }
  // One event per thread and device, re-recorded each time: a wait captures the event's state
  // when it is queued, so reuse is safe. An event is recorded only on streams of the device it
  // was made on, and the streams here are the current device's.
  thread_local cudaEvent_t events[kMaxDevices] = {};
  int device = 0;
  NUMCU_CUDA_TRY(cudaGetDevice(&device), "cudaGetDevice");
  cudaEvent_t& event = events[device < kMaxDevices ? device : 0];
  if (event == nullptr) {
    NUMCU_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
  }
  NUMCU_CUDA_TRY(cudaEventRecord(event, static_cast<cudaStream_t>(producer)), "cudaEventRecord");
  NUMCU_CUDA_TRY(cudaStreamWaitEvent(static_cast<cudaStream_t>(consumer), event, 0),
                 "cudaStreamWaitEvent");
}

std::string stream_query_error(Stream stream) {
  if (!is_available()) return std::string();
  unsigned long long id = 0;
  const cudaError_t err = cudaStreamGetId(static_cast<cudaStream_t>(stream), &id);
  if (err == cudaSuccess) return std::string();
  cudaGetLastError();
  return cudaGetErrorName(err);
}

namespace {
thread_local Stream g_current_stream = nullptr;
}  // namespace

Stream current_stream() { return g_current_stream; }
void set_current_stream(Stream stream) { g_current_stream = stream; }

Stream create_stream(bool non_blocking) {
  if (!is_available()) throw_unavailable();
  cudaStream_t s;
  NUMCU_CUDA_TRY(
      cudaStreamCreateWithFlags(&s, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault),
      "cudaStreamCreate");
  register_stream_scratch(s);
  if (!non_blocking) {
    BlockingStreams& b = blocking_streams();
    std::lock_guard<std::mutex> lock(b.mutex);
    b.streams.insert(s);
  }
  return s;
}

void destroy_stream(Stream stream) noexcept {
  release_stream_scratch(stream);
  {
    BlockingStreams& b = blocking_streams();
    std::lock_guard<std::mutex> lock(b.mutex);
    b.streams.erase(stream);
  }
  if (cudaStreamDestroy(static_cast<cudaStream_t>(stream)) != cudaSuccess) cudaGetLastError();
}

void* create_event(bool timing) {
  if (!is_available()) throw_unavailable();
  cudaEvent_t e;
  NUMCU_CUDA_TRY(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming),
                 "cudaEventCreate");
  return e;
}

void destroy_event(void* event) noexcept {
  if (cudaEventDestroy(static_cast<cudaEvent_t>(event)) != cudaSuccess) cudaGetLastError();
}

void record_event(void* event, Stream stream) {
  NUMCU_CUDA_TRY(
      cudaEventRecord(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream)),
      "cudaEventRecord");
}

void wait_event(Stream stream, void* event) {
  NUMCU_CUDA_TRY(
      cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), static_cast<cudaEvent_t>(event), 0),
      "cudaStreamWaitEvent");
}

void synchronize_event(void* event) {
  NUMCU_CUDA_TRY(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), "cudaEventSynchronize");
}

bool query_event(void* event) {
  const cudaError_t err = cudaEventQuery(static_cast<cudaEvent_t>(event));
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  NUMCU_CUDA_TRY(err, "cudaEventQuery");
  return true;
}

float elapsed_ms(void* start, void* end) {
  float ms = 0;
  NUMCU_CUDA_TRY(
      cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(end)),
      "cudaEventElapsedTime");
  return ms;
}

void memory_info(int device, std::size_t* used, std::size_t* reserved) {
  activate(device);
  issue_deferred_frees();
  cudaMemPool_t pool;
  NUMCU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
  std::uint64_t u = 0, r = 0;
  NUMCU_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &u),
                 "cudaMemPoolGetAttribute");
  NUMCU_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &r),
                 "cudaMemPoolGetAttribute");
  *used = u;
  *reserved = r;
}

void release_cached_memory(int device) {
  activate(device);
  issue_deferred_frees();
  NUMCU_CUDA_TRY(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  cudaMemPool_t pool;
  NUMCU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
  NUMCU_CUDA_TRY(cudaMemPoolTrimTo(pool, 0), "cudaMemPoolTrimTo");
}

int pointer_device(const void* ptr) {
  if (device_count() <= 1) return 0;
  cudaPointerAttributes attr;
  NUMCU_CUDA_TRY(cudaPointerGetAttributes(&attr, ptr), "cudaPointerGetAttributes");
  return attr.device;
}

void* allocate_managed(std::size_t bytes, int device) {
  activate(device);
  void* ptr = nullptr;
  // A zero-byte request is refused by CUDA; one byte keeps every managed array's address valid.
  const std::size_t size = bytes > 0 ? bytes : 1;
  NUMCU_CUDA_TRY_ALLOC(cudaMallocManaged(&ptr, size, cudaMemAttachGlobal), "cudaMallocManaged",
                       size);
  return ptr;
}

void free_managed(void* ptr, int device, Stream stream) noexcept {
  if (ptr == nullptr) return;
  release_on(device, [&] {
    // cudaFree of managed memory need not wait for queued work that still uses it.
    if (cudaStreamSynchronize(static_cast<cudaStream_t>(stream)) != cudaSuccess) {
      cudaGetLastError();
    }
    if (cudaFree(ptr) != cudaSuccess) cudaGetLastError();
  });
}

namespace {

bool concurrent_managed_access(int device) {
  static std::once_flag asked[kMaxDevices];
  static int value[kMaxDevices] = {};
  if (device < 0 || device >= kMaxDevices) return false;
  std::call_once(asked[device], [device] {
    if (cudaDeviceGetAttribute(&value[device], cudaDevAttrConcurrentManagedAccess, device) !=
        cudaSuccess) {
      cudaGetLastError();
      value[device] = 0;
    }
  });
  return value[device] != 0;
}

}  // namespace

void prefetch_to_device(const void* ptr, std::size_t bytes, int device, Stream stream) {
  if (ptr == nullptr || bytes == 0 || !concurrent_managed_access(device)) return;
#if CUDART_VERSION >= 13000
  cudaMemLocation location{};
  location.type = cudaMemLocationTypeDevice;
  location.id = device;
  NUMCU_CUDA_TRY(cudaMemPrefetchAsync(ptr, bytes, location, 0, static_cast<cudaStream_t>(stream)),
                 "cudaMemPrefetchAsync");
#else
  // CUDA 12's cudaMemPrefetchAsync takes the device's number (CUDA 13's takes a location).
  NUMCU_CUDA_TRY(cudaMemPrefetchAsync(ptr, bytes, device, static_cast<cudaStream_t>(stream)),
                 "cudaMemPrefetchAsync");
#endif
}

void* allocate_pinned(std::size_t bytes) {
  activate(current_device());
  void* ptr = nullptr;
  const std::size_t size = bytes > 0 ? bytes : 1;
  NUMCU_CUDA_TRY_ALLOC(cudaHostAlloc(&ptr, size, cudaHostAllocPortable), "cudaHostAlloc", size);
  return ptr;
}

void free_pinned(void* ptr) noexcept {
  if (ptr == nullptr) return;
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  const std::uint64_t used = g_used_devices.load();
  for (int d = 0; d < kMaxDevices; ++d) {
    if (((used >> d) & 1u) == 0) continue;
    if (cudaSetDevice(d) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
      cudaGetLastError();
    }
  }
  cudaSetDevice(current);
  if (cudaFreeHost(ptr) != cudaSuccess) cudaGetLastError();
}

namespace {

// Page-locked blocks kept for reuse: cudaMallocHost costs about a millisecond per 64 MB and
// faults every page in, so results and staging come from blocks already made. Sizes are rounded
// to four classes per power of two (at most a quarter wasted), so that a block serves every
// request of its class.
struct PinnedPool {
  std::mutex mutex;
  std::map<std::size_t, std::vector<void*>> free;  // by class size
  std::map<void*, std::size_t> live;
  std::size_t live_bytes = 0, cached_bytes = 0;
  std::uint64_t hits = 0, misses = 0;
  std::size_t limit = 0;
};

PinnedPool& pinned_pool() {
  static PinnedPool* pool = [] {
    auto* p = new PinnedPool;  // never destroyed: blocks may come back during interpreter exit
    // Page-locked memory is taken from the system: keep at most 2 GiB, and an eighth of the RAM.
    std::uint64_t limit = std::uint64_t{2} << 30;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) {
      limit =
          std::min(limit, static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 8);
    }
    p->limit = static_cast<std::size_t>(limit);
    return p;
  }();
  return *pool;
}

std::size_t pinned_class(std::size_t bytes) {
  std::size_t c = 4096;
  while (c < bytes && c < (std::size_t{1} << 20)) c <<= 1;
  if (c >= bytes) return c;
  std::size_t top = std::size_t{1} << 20;
  while (top * 2 <= bytes) top <<= 1;
  const std::size_t step = top / 4;
  return (bytes + step - 1) / step * step;
}

// Frees cached blocks, largest first, until at most `keep` bytes stay cached. Called with the
// mutex held.
void trim_pinned(PinnedPool& p, std::size_t keep) {
  while (p.cached_bytes > keep && !p.free.empty()) {
    auto it = std::prev(p.free.end());
    void* ptr = it->second.back();
    it->second.pop_back();
    p.cached_bytes -= it->first;
    if (it->second.empty()) p.free.erase(it);
    if (cudaFreeHost(ptr) != cudaSuccess) cudaGetLastError();
  }
}

}  // namespace

bool host_pool_available() { return is_available(); }

void* allocate_host_pooled(std::size_t bytes) {
  if (bytes == 0 || !is_available()) return nullptr;
  const std::size_t size = pinned_class(bytes);
  PinnedPool& p = pinned_pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  void* ptr = nullptr;
  auto it = p.free.find(size);
  if (it != p.free.end()) {
    ptr = it->second.back();
    it->second.pop_back();
    if (it->second.empty()) p.free.erase(it);
    p.cached_bytes -= size;
    ++p.hits;
  } else {
    ++p.misses;
    if (cudaHostAlloc(&ptr, size, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();
      // Cached blocks of other sizes may be what stands in the way.
      trim_pinned(p, 0);
      if (cudaHostAlloc(&ptr, size, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
      }
    }
  }
  p.live.emplace(ptr, size);
  p.live_bytes += size;
  return ptr;
}

void free_host_pooled(void* ptr) noexcept {
  if (ptr == nullptr) return;
  PinnedPool& p = pinned_pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.live.find(ptr);
  if (it == p.live.end()) return;
  const std::size_t size = it->second;
  p.live.erase(it);
  p.live_bytes -= size;
  try {
    p.free[size].push_back(ptr);
    p.cached_bytes += size;
  } catch (...) {
    if (cudaFreeHost(ptr) != cudaSuccess) cudaGetLastError();
    return;
  }
  trim_pinned(p, p.limit);
}

bool is_host_pooled(const void* ptr, std::size_t bytes) {
  PinnedPool& p = pinned_pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.live.upper_bound(const_cast<void*>(ptr));
  if (it == p.live.begin()) return false;
  --it;
  const auto lo = reinterpret_cast<std::uintptr_t>(it->first);
  const auto x = reinterpret_cast<std::uintptr_t>(ptr);
  return x >= lo && x + bytes <= lo + it->second;
}

HostPoolInfo host_pool_info() {
  HostPoolInfo info;
  PinnedPool& p = pinned_pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  info.live_blocks = p.live.size();
  info.live_bytes = p.live_bytes;
  for (const auto& [size, blocks] : p.free) info.cached_blocks += blocks.size();
  info.cached_bytes = p.cached_bytes;
  info.cache_limit = p.limit;
  info.hits = p.hits;
  info.misses = p.misses;
  return info;
}

void release_host_pool() noexcept {
  PinnedPool& p = pinned_pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  trim_pinned(p, 0);
}

bool host_register(void* ptr, std::size_t bytes) {
  if (!is_available() || ptr == nullptr || bytes == 0) return false;
  if (cudaHostRegister(ptr, bytes, cudaHostRegisterPortable) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

void host_unregister(void* ptr) noexcept {
  if (ptr == nullptr) return;
  if (cudaHostUnregister(ptr) != cudaSuccess) cudaGetLastError();
}

PointerKind pointer_kind(const void* ptr) {
  if (ptr == nullptr || !is_available()) return PointerKind::host;
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
    cudaGetLastError();
    return PointerKind::host;
  }
  switch (attr.type) {
    case cudaMemoryTypeHost:
      return PointerKind::pinned;
    case cudaMemoryTypeDevice:
      return PointerKind::device;
    case cudaMemoryTypeManaged:
      return PointerKind::managed;
    default:
      return PointerKind::host;
  }
}

}  // namespace numcu::cuda
