// Launch checks: before a kernel (or a CPU loop) runs a plan, the plan's extents are checked
// with a few integer operations: counts that are non-negative and agree with the shape, data
// pointers that are not null where there are elements, byte offsets that fit in 64 bits and do
// not wrap the address space, and on the GPU elements aligned for typed loads and counts that the
// launch's grid covers. A plan that fails throws numcu::Error (value_error) and nothing runs: a
// kernel that faults loses the CUDA context, and every later CUDA call of the process fails.
//
// The views plans are made from are checked where they enter numcu (checked.hpp), so these
// checks are a last guard that should never fire.
#pragma once

#include <cstdint>
#include <limits>

#include "numcu/elementwise.hpp"

namespace numcu {

struct ReducePlan;
struct SequenceParams;

// The whole check of an elementwise plan (check_launch below).
template <int N>
void check_launch_full(const ElementwisePlan<N>& plan, const int* itemsizes, const int* alignments);

// Whether `plan` is one dense run (one dimension, every array operand's stride its item size)
// whose every operand passes: non-null data, a byte count that fits in int64 and does not wrap
// the address space, and the alignment asked for. False sends the plan to the whole check, which
// decides it and says what is wrong. Inline: in the launching templates the item sizes are
// constants, and this is the plan of most calls.
template <int N>
inline bool dense_plan_fits(const ElementwisePlan<N>& p, const int* itemsizes,
                            const int* alignments) {
  if (p.ndim != 1 || p.size < 1 || p.shape[0] != p.size) return false;
  for (int i = 0; i < N; ++i) {
    if ((p.scalar_mask >> i) & 1u) continue;
    const std::int64_t size = itemsizes[i];
    const auto base = reinterpret_cast<std::uintptr_t>(p.data[i]);
    std::int64_t bytes = 0;
    if (base == 0 || p.strides[i][0] != size || __builtin_mul_overflow(p.size, size, &bytes) ||
        base > std::numeric_limits<std::uintptr_t>::max() - static_cast<std::uintptr_t>(bytes)) {
      return false;
    }
    if (alignments != nullptr && alignments[i] > 1 &&
        (size % alignments[i] != 0 || base % static_cast<std::uintptr_t>(alignments[i]) != 0)) {
      return false;
    }
  }
  return true;
}

// `itemsizes[i]` is operand i's element size; `alignments` (null on the CPU, which loads
// unaligned elements) its element alignment.
template <int N>
inline void check_launch(const ElementwisePlan<N>& plan, const int* itemsizes,
                         const int* alignments) {
  if (!dense_plan_fits(plan, itemsizes, alignments)) check_launch_full(plan, itemsizes, alignments);
}

// A reduction (`scan` false) or scan plan over elements of `in_size` bytes into elements of
// `out_size` bytes; `device`: a GPU launch (alignment and grid limits apply).
void check_launch(const ReducePlan& plan, int in_size, int out_size, bool scan, bool device);

// A sequence of p.n elements of `size` bytes written to `out`.
void check_launch(const SequenceParams& p, const void* out, int size);

}  // namespace numcu
