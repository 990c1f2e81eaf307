// Host data on the GPU path: results in page-locked blocks from a pool (so that their pages are
// faulted in once, not on every call), and host operands moved in chunks through page-locked
// staging on several streams, so that the host-side copies, the copy engines and the kernels
// overlap instead of running one after the other.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <functional>

#include "execution.hpp"
#include "intake.hpp"
#include "numcu/array_view.hpp"
#include "numcu/dtype.hpp"

namespace numcu::python {

namespace py = pybind11;

// Settings of the host path (numcu._core._host_path_config reads and changes them; tests make
// chunks small so that a few elements cross several). Sizes in bytes.
struct HostPathConfig {
  // Host results of at least this many bytes from GPU work come from the page-locked pool.
  std::size_t pool_min_bytes = 4096;
  // Host results of the CPU backend of at least this many bytes come from the pool too, where
  // there is one (a GPU is present): its blocks are faulted in once, where fresh memory of this
  // size costs its page faults on every call (NumPy's own add of 2^24 float32 spends about
  // half its time there). Smaller results come from malloc, which reuses memory it has faulted.
  std::size_t cpu_pool_min_bytes = std::size_t{1} << 20;
  // Host data of at least this many bytes is moved in chunks; less in one copy.
  std::size_t pipeline_min_bytes = std::size_t{1} << 20;
  // The most one operand's chunk holds (more only where one row of the chunked axis is longer).
  std::size_t chunk_bytes = std::size_t{4} << 20;
  // Streams (and staging slots) the chunks rotate over.
  int streams = 3;
  // How pageable inputs reach the GPU: false, copied by the CPU threads into page-locked staging
  // chunks; true, pinned in place (cudaHostRegister) once per NumPy array, kept while the array
  // lives, and copied by the copy engines directly. Which is faster depends on the machine and
  // the size: benchmarks/bench_host.py measures both.
  bool register_inputs = false;
  // Arrays smaller than this are staged even when register_inputs is set.
  std::size_t register_min_bytes = std::size_t{1} << 20;
};
HostPathConfig& host_path_config();

// A new NumPy array of `shape` and byte `strides` (a dense layout), uninitialised, in a block of
// the page-locked pool when there is one and it holds at least `pool_min_bytes` (the block goes
// back to the pool when the array and every view of it are gone), else an ordinary NumPy array.
// `data` receives its memory.
py::object numpy_result(DType dtype, int ndim, const std::int64_t* shape,
                        const std::int64_t* strides, char** data, std::size_t pool_min_bytes);

// Whether the bytes of `v` (host data) are page-locked by numcu (a pool block, an array pinned
// in place), so that the copy engines reach them without staging.
bool pinned_by_numcu(const ArrayView& v);

// A host array's bytes on the GPU, in scratch memory (dense, its dimensions ordered like the host
// array's, dtype kept): upload() for small or page-locked data, else chunks gathered by the CPU
// threads into page-locked staging (strided data made dense on the way) while earlier chunks
// are copied. Work queued on ex.stream after this sees the data.
ArrayView upload_host(Scratch& scratch, const Exec& ex, const ArrayView& host);

// dst (host) = src (on ex's GPU, dense) with dtype conversion: one copy into page-locked or
// same-layout memory, else chunks copied into page-locked staging and moved into dst by the CPU
// threads while the next chunk is copied. Waits for the work queued on ex.stream; returns when
// dst holds the values.
void download_host(const Exec& ex, const ArrayView& dst, const ArrayView& src);

// The elementwise GPU path when every operand is host data: the output's elements cut into
// chunks along its outermost axis, and for each chunk, on one of several streams, the inputs
// copied in (gathered and converted to their loop dtypes by the CPU threads, or straight from
// page-locked memory), `kernel` run on dense device chunks, the output copied out (straight into
// page-locked destinations, else through staging into `dest`). Chunks on different streams
// overlap. views[0] is the destination (host, any layout), views[1..n) the inputs (host arrays,
// or scalars where is_scalar, passed through as given); dtypes[i] is the dtype the kernel
// writes (0) or reads (others). kernel(chunk_views, stream) queues the work for one chunk.
using ChunkKernel = std::function<void(const ArrayView* views, Stream stream)>;
void run_chunked(const Exec& ex, int n, const ArrayView* views, const DType* dtypes,
                 const bool* is_scalar, const ChunkKernel& kernel, const char* fname);
// Whether run_chunked is worth it for a result of `bytes`.
bool use_chunked(std::size_t bytes);

// Pins the memory of a pageable NumPy array `x` (an input, or a host out=) in place when
// register_inputs asks for it: the whole buffer of the array that owns it, cached while that
// array lives (see HostPathConfig). Needs the GIL.
void register_input(const Operand& x);

// numcu._core._host_pool_info, _host_pool_release, _host_registry_info, _host_path_config.
void bind_host_memory(py::module_& m);

}  // namespace numcu::python
