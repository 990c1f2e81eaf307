// Host memory for work on host data: blocks for results that do not page-fault on every call (a
// pool), input arrays pinned in place while they live (a registry), and what is known of an
// address (page-locked or not), which decides how bytes reach a GPU.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>

#include "intake.hpp"
#include "numcu/array_view.hpp"
#include "numcu/dtype.hpp"

namespace numcu::python {

namespace py = pybind11;

// Settings of the host path, changed only with the GIL held (a fitted placement model sets them,
// tests make them small). Sizes in bytes.
struct HostPathConfig {
  // Results of at least this many bytes come from the pool.
  std::size_t pool_min_bytes = std::size_t{1} << 20;
  // Per operand, the most a chunk of the pipelined GPU path holds, and the streams it uses.
  std::size_t chunk_bytes = std::size_t{4} << 20;
  int streams = 3;
  // Host threads that copy between pageable memory and page-locked staging blocks (0: as many as
  // the CPUs, at most 8).
  int copy_threads = 0;
  // Pageable inputs and outputs of at least this many bytes are pinned in place (cudaHostRegister)
  // the second time a call on the GPU meets the same array; smaller ones are staged.
  std::size_t register_min_bytes = std::size_t{8} << 20;
  // Pageable data of at least this many bytes goes through page-locked staging blocks, copied by
  // several threads while the copy engines move the blocks before; less is copied directly.
  std::size_t staging_min_bytes = std::size_t{1} << 20;
};
HostPathConfig& host_path_config();

// --- Results

// A new NumPy array of `shape` with byte `strides` (a dense layout), uninitialised. At least
// pool_min_bytes come from the pool: CUDA's pool of page-locked host memory where a GPU can be
// used, else blocks numcu keeps for reuse, so that a result's pages are faulted in once, not on
// every call. The block goes back to the pool when the array and all its views are gone. Less, or
// when the pool cannot give the block, is an ordinary NumPy array. `data` receives its memory.
py::object numpy_result(DType dtype, int ndim, const std::int64_t* shape,
                        const std::int64_t* strides, char** data);

// What the pool holds, for numcu._core._host_pool_info: its kind ("cuda": page-locked blocks
// from CUDA's pool, "host": blocks numcu keeps), the live results' blocks and bytes, and the bytes
// kept for reuse.
py::dict host_pool_info();

// --- Page-locked memory

enum class HostMemory {
  pageable,  // ordinary memory: copies go through staging blocks (or the driver's)
  pinned,    // page-locked: the copy engines reach it directly
  managed,   // CUDA managed memory: reachable from the GPU, the driver migrates it
};
const char* host_memory_name(HostMemory memory);

// How the GPU can reach host operand `x`'s bytes, looked up without changing anything: the pool's
// blocks and the arrays registered here are page-locked, and for other memory CUDA is asked.
// Needs the GIL; without a GPU everything is pageable.
HostMemory host_memory(const Operand& x);
HostMemory host_memory(const char* lo, std::size_t bytes);

// host_memory(x), but a pageable NumPy array of at least register_min_bytes met a second time is
// pinned in place now (the GIL is released while the driver pins it) and stays so, without a
// further cost, until it is garbage: the registration is undone before its memory is freed.
// Registrations are capped (a quarter of the RAM); past that, arrays are staged.
HostMemory pin_for_gpu(const Operand& x);

// Whether [lo, lo + bytes) is memory numcu page-locked itself (a pool block, a registered array):
// memory that goes back to the pool or is unregistered when its array dies, so a call that leaves
// a copy from it queued must wait for that copy before returning.
bool pinned_by_numcu(const char* lo, std::size_t bytes);

// The registry, for numcu._core._host_registry_info: how many arrays are pinned in place and
// their bytes.
py::dict host_registry_info();

// Page-locked staging memory from CUDA's host pool for one call; null (`data()`) where there is
// no such pool. Freed when it goes out of scope, so the caller waits for every copy that uses it
// first.
class StagingBlock {
 public:
  explicit StagingBlock(std::size_t bytes);
  ~StagingBlock();
  StagingBlock(const StagingBlock&) = delete;
  StagingBlock& operator=(const StagingBlock&) = delete;
  char* data() const { return data_; }

 private:
  char* data_ = nullptr;
};

}  // namespace numcu::python
