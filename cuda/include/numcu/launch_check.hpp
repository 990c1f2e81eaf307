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

namespace numcu {

template <int N>
struct ElementwisePlan;
struct ReducePlan;
struct SequenceParams;

// `itemsizes[i]` is operand i's element size; `alignments` (null on the CPU, which loads
// unaligned elements) its element alignment. A dense plan (dense_plan_fits) is passed in a few
// instructions per operand; any other goes to the whole check (check_launch_full).
template <int N>
void check_launch(const ElementwisePlan<N>& plan, const int* itemsizes, const int* alignments);

// Whether `plan` is one dense run (one dimension, every array operand's stride its item size)
// whose every operand passes: non-null data, a byte count that fits in int64 and does not wrap
// the address space, and the alignment asked for. False leaves the plan to the whole check,
// which decides it and says what is wrong.
template <int N>
bool dense_plan_fits(const ElementwisePlan<N>& plan, const int* itemsizes, const int* alignments);

// The whole check of an elementwise plan, for any plan.
template <int N>
void check_launch_full(const ElementwisePlan<N>& plan, const int* itemsizes, const int* alignments);

// A reduction (`scan` false) or scan plan over elements of `in_size` bytes into elements of
// `out_size` bytes; `device`: a GPU launch (alignment and grid limits apply).
void check_launch(const ReducePlan& plan, int in_size, int out_size, bool scan, bool device);

// A sequence of p.n elements of `size` bytes written to `out`.
void check_launch(const SequenceParams& p, const void* out, int size);

}  // namespace numcu
