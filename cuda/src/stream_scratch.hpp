// Device scratch for kernels that need a little global memory during one launch (the partial
// results and block counters of a reduction), without an allocation and a free per call.
//
// Each stream numcu can see the whole life of (the legacy default stream of each device, and the
// streams numcu creates) keeps one buffer, reused by every launch on it: work on one stream runs
// in order, so a launch never meets the previous one's data. Other streams (another library's,
// whose handle may be destroyed and reused without numcu knowing) get a buffer per call. The
// buffers come from a memory pool of their own, so that the default pool's statistics count
// arrays only.
//
// A buffer starts with kScratchCounters zeroed 32-bit counters: a kernel that uses counters must
// leave them zero when it finishes, so that the next launch finds them so.
#pragma once

#include <cstddef>
#include <mutex>

#include "numcu/backend.hpp"

namespace numcu::cuda {

constexpr int kScratchCounters = 8192;
constexpr std::size_t kScratchCounterBytes = kScratchCounters * sizeof(unsigned);

class ScratchLease {
 public:
  // At least `bytes` of device memory after the counters, for work queued on `stream` (of the
  // current device) while the lease lives; other threads' leases on the same stream wait.
  ScratchLease(Stream stream, std::size_t bytes);
  ~ScratchLease();
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;

  unsigned* counters() const { return static_cast<unsigned*>(base_); }
  void* data() const { return static_cast<char*>(base_) + kScratchCounterBytes; }

 private:
  std::unique_lock<std::mutex> lock_;
  void* base_ = nullptr;
  void* owned_ = nullptr;  // a buffer for this call only, freed (stream-ordered) with the lease
  int device_ = 0;
  Stream stream_ = nullptr;
};

// Returns the buffer of a stream numcu created, before the stream is destroyed.
void release_stream_scratch(Stream stream) noexcept;
// Registers a stream numcu created, whose buffer may then be kept between calls.
void register_stream_scratch(Stream stream) noexcept;

}  // namespace numcu::cuda
