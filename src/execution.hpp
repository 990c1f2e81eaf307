// Execution: where an operation runs (the CPU backend or a GPU and stream), the scratch memory
// it needs there, and the moves between host and device every operation shares.
#pragma once

#include <memory>
#include <new>
#include <vector>

#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"

namespace numcu::python {

struct DeviceRequest;

struct Exec {
  bool gpu = false;
  int device = kHost;
  Stream stream = nullptr;
};

// numcu.cuda.CUDAUnavailableError: "<fname>: <why>no CUDA device is available (<reason>)".
[[noreturn]] void cuda_unavailable(const char* fname, const char* why = "");

// The distinct streams a call has ordered its stream after (or handed its work back to): each
// needs one event, however many operands share it. Past kMax streams it stops deduplicating,
// which costs a redundant wait, never a missing one.
class StreamSet {
 public:
  // Whether `s` is new to the set (the caller then waits for it).
  bool insert(Stream s) {
    for (int i = 0; i < n_; ++i) {
      if (streams_[i] == s) return false;
    }
    if (n_ < kMax) streams_[n_++] = s;
    return true;
  }

 private:
  static constexpr int kMax = 8;
  Stream streams_[kMax] = {};
  int n_ = 0;
};

struct HostDelete {
  void operator()(char* p) const { ::operator delete[](p, std::align_val_t{64}); }
};

// Scratch memory on the backend's side, freed when the call returns (stream-ordered on the GPU,
// so it may go before the queued work that uses it has run).
class Scratch {
 public:
  char* allocate(const Exec& ex, std::size_t bytes) {
    if (ex.gpu) {
      device_.push_back(std::make_unique<DeviceAllocation>(bytes, ex.device, ex.stream));
      return device_.back()->data();
    }
    host_.emplace_back(static_cast<char*>(::operator new[](bytes + 1, std::align_val_t{64})));
    return host_.back().get();
  }
  char* allocate_host(std::size_t bytes) {
    host_.emplace_back(static_cast<char*>(::operator new[](bytes + 1, std::align_val_t{64})));
    return host_.back().get();
  }

 private:
  std::vector<std::unique_ptr<DeviceAllocation>> device_;
  std::vector<std::unique_ptr<char, HostDelete>> host_;
};

// A dense array of `shape` in scratch memory, its dimensions ordered like `like`'s.
ArrayView dense_view(Scratch& scratch, const Exec& ex, DType dtype, int ndim,
                     const std::int64_t* shape, const ArrayView* like);
// dst = src with dtype conversion, on the backend.
void run_cast(const Exec& ex, const ArrayView& dst, const ArrayView& src, const char* fname);
// A host array's bytes copied to the device (strides kept), in scratch memory.
ArrayView upload(Scratch& scratch, const Exec& ex, const ArrayView& host);
// Whether an array's elements fill its byte span (any order of dimensions).
bool is_dense(const ArrayView& v);

// How an input shares memory with the output an operation writes (addresses compare across
// host, device, managed and pinned memory: CUDA gives them one virtual address space).
// `same`: the input, broadcast to the output's shape, is the output element for element (the
// same data pointer, item size and strides along every axis longer than 1), as in `x += y`.
// `partial`: any other sharing of bytes, judged from the byte spans, so views that interleave
// without touching a common byte count too (NumPy's may_share_memory, not its exact test).
enum class Overlap { none, same, partial };
Overlap overlap(const ArrayView& out, const ArrayView& in);

// `in` as an operation writing `out` may read it: itself when they share no memory, or when it
// is the output element for element and the work can run `in_place` (it reads each input
// element before it writes the output element at that position, and never reads it again:
// elementwise work, scans); else a copy in scratch, queued before the work, so that the result
// is NumPy's: as if every input were read before any output is written.
ArrayView unaliased(Scratch& scratch, const Exec& ex, const ArrayView& out, const ArrayView& in,
                    bool in_place, const char* fname);
// Chooses the backend for operands (nullptr entries skipped; the last is the output, whose
// host-ness counts even when 0-d): device arrays keep their GPU (all on one, no host arrays
// among them), host data goes to the GPU when one is there and the request allows. The stream
// is the request's or the current one; numcu arrays last used on another stream are ordered
// after that work and move to this stream.
// Managed memory among the operands is prefetched to the GPU, unless `prefetch` is false.
Exec place(const char* fname, const Operand* const* operands, int count, const DeviceRequest& req,
           bool prefetch = true);

// `follow` for destination(): no array to follow, so numcu's default device (the current GPU
// when one can be used, else the host).
constexpr int kDefaultDevice = -2;

// Where a new array goes (creation functions, asarray), and on which stream (the requested or
// the current one). device='cpu': the host. A GPU named (device='cuda', 'cuda:N', N): that GPU,
// or else `follow` when it is a GPU, or else the current one; raises cuda_unavailable without
// a GPU. No device named: `follow`, the device of the array the call is about (kHost for host
// data, as NumPy's *_like give NumPy arrays), or kDefaultDevice.
Exec destination(const char* fname, const DeviceRequest& req, int follow = kDefaultDevice);

// Managed memory that work on ex's GPU is about to use, migrated there first on ex.stream.
void prefetch(const Exec& ex, const DeviceAllocation* allocation, const ArrayView& view);

// dst[...] = value (a host scalar, already checked to be one), converted to dst's dtype as NumPy
// converts it, on the backend.
void run_fill(const Exec& ex, const ArrayView& dst, const Operand& value, const char* fname);

// After an operation's work is queued on ex.stream: arrays whose home is another stream (the
// work ran on a stream numcu does not own) get that stream ordered after the work, so that
// their later use and release wait for it. `result` is a new array's allocation, or null.
void finish_streams(const Exec& ex, const Operand* const* operands, int count,
                    const DeviceAllocation* result);

}  // namespace numcu::python
