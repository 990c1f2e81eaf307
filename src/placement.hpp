// Where a call whose operands are all host data runs when `device=` is not given: a cost model of
// the two sides (bytes moved, the work per element, the CPU threads, the copy engines' and
// memory's bandwidths), whose constants a benchmark fits on the machine (numcu.placement).
#pragma once

#include <Python.h>

#include <cstddef>
#include <cstdint>

#include "numcu/ops.hpp"

namespace numcu::python {

enum class OpClass { elementwise, transcendental, reduction, scan };
const char* op_class_name(OpClass c);
// By the function's name, from the op tables: a ufunc's from its table line's cost class (float
// functions such as sin, exp and power, and integer division, cost more per element than their
// loads and stores),
// the reduction and scan tables' functions; anything else is elementwise.
OpClass op_class_of(const char* name);
OpClass op_class_of(Ufunc op);

struct PlacementModel {
  enum class Mode { automatic, cpu, cuda } mode = Mode::automatic;
  // Seconds per call besides the bytes: launches, events and streams on the GPU side.
  double gpu_latency_s = 40e-6;
  double cpu_latency_s = 3e-6;
  // GB/s: page-locked copies to and from the GPU, and both at once.
  double h2d_gbps = 50.0, d2h_gbps = 50.0, duplex_gbps = 90.0;
  // GB/s of a pass over host memory on one CPU thread, and the most all threads reach over
  // kHostBytesMid bytes (an add of 2^24 float32) and over kHostBytesLarge (2^26) or more; between
  // the two, interpolated in log bytes (the caches' share falls off). host_gbps_large 0 takes
  // host_gbps_max. (Fresh results cost no page faults on either side: large ones come from the
  // page-locked pool.)
  double host_gbps_1 = 8.0, host_gbps_max = 33.0, host_gbps_large = 0.0;
  static constexpr double kHostBytesMid = 12.0 * (1 << 24);
  static constexpr double kHostBytesLarge = 12.0 * (1 << 26);
  // Nanoseconds of work per element on one CPU thread beyond the memory traffic, per class.
  double cpu_ns[4] = {0.0, 1.0, 0.05, 0.5};
};
PlacementModel& placement_model();
// "auto", "cpu" or "cuda", as numcu.placement.constants names the mode.
const char* mode_name(PlacementModel::Mode mode);

struct PlacementEstimate {
  bool gpu = false;
  double cpu_s = 0, gpu_s = 0;
};

// The estimate for work reading `in_bytes` (of which `pinned_bytes` page-locked, and
// `largest_bytes` the largest operand's, the output's included) and writing `out_bytes` (into a
// fresh result when `fresh_out`, else into pageable `out=`) over `elements` on `threads` CPU
// threads; gpu says whether the GPU wins. The mode is not applied.
PlacementEstimate estimate_placement(OpClass c, double in_bytes, double pinned_bytes,
                                     double largest_bytes, double out_bytes, bool fresh_out,
                                     double elements, int threads);

// The exception type numcu.placement's probe raises (numcu._core._PlacementProbe).
PyObject* placement_probe_type();

}  // namespace numcu::python
