// How one launch of the reduction kernel covers a plan: chosen per call on the host from the
// plan's shape and strides and the device's multiprocessor count, so that one kernel per reducer
// serves whole arrays, rows, columns and everything between.
//
// A block's threads are lanes and slots. Lanes share an output and split its reduced elements;
// slots take different outputs. Lanes run along x when the reduced elements are the input's
// innermost (neighbouring lanes read neighbouring elements, in 16-byte vectors where the rows
// are contiguous), along y otherwise, where slots along x read neighbouring outputs (several at
// once, in one vector, where those are contiguous). When the outputs alone do not give the GPU
// enough blocks, `ctas` blocks (grid y) share each output's elements; each writes its partial
// result, and the last of them to finish (a counter per output tile) combines the partials in a
// fixed order and writes the outputs: one launch, the same bits every run.
#pragma once

#include <cstddef>
#include <cstdint>

#include "numcu/reduce.hpp"

namespace numcu::kernels {

// Vectors each lane loads before it combines any (a tile is kReduceUnroll x lanes vectors).
constexpr int kReduceUnroll = 4;
// The largest block; the kernel's launch bounds.
constexpr int kReduceMaxBlock = 512;

struct ReduceLayout {
  int block_x = 32;
  int block_y = 1;
  unsigned grid_x = 1;  // output tiles
  unsigned ctas = 1;    // grid y: blocks sharing each output
  bool lanes_along_x = true;
  bool vector_in = false;    // lanes read contiguous rows in 16-byte vectors
  int outputs_per_slot = 1;  // neighbouring outputs a slot reads as one vector
  std::size_t shared_bytes = 0;
  unsigned* counters = nullptr;  // ctas > 1: one per output tile, zero before and after
  void* partial = nullptr;       // ctas > 1: grid_x x ctas x slots x outputs_per_slot
};

// What the kernel instantiation for the reducer can do: element and accumulator sizes, elements
// a row's lane loads as one vector (1: no vector loads), outputs a slot may read at once, and
// the threads a multiprocessor holds at once (in blocks of the largest size).
struct ReduceTypeInfo {
  int item;
  int acc_size;
  int in_vector;
  int out_vector;
  int resident_per_sm;
};

// The layout for `plan` (n_out > 0) on the current device.
ReduceLayout choose_reduce_layout(const ReducePlan& plan, const ReduceTypeInfo& type);

// Bytes of partial results the layout needs (0 when ctas == 1).
std::size_t reduce_partial_bytes(const ReduceLayout& layout, int acc_size);

// The multiprocessor count of `device`, asked once.
int multiprocessor_count(int device);

}  // namespace numcu::kernels
