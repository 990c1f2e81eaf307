// Gathers (take, take_along_axis, integer-array and boolean-mask indexing) and the positions of
// non-zero elements, on both backends. Elements are moved as bytes, so one loop per item size
// serves every dtype.
#pragma once

#include <cstdint>

#include "numcu/backend.hpp"
#include "numcu/config.hpp"

namespace numcu {

constexpr int kMaxGatherDims = 32;
constexpr int kMaxIndexArrays = 8;

// out (dense, C order, `ndim` dimensions of `shape`) at position o is the element of `x` at byte
// offset  sum_d o[d] * x_strides[d]  +  sum_j i_j * axis_strides[j],  where i_j is index array
// j (int64) read at  sum_d o[d] * index_strides[j][d],  negative values counting from the end
// of extent[j]. take, take_along_axis: one index array; x[i0, i1, ...]: one per indexed axis.
struct GatherPlan {
  int itemsize = 1;
  int ndim = 0;
  std::int64_t n = 0;  // elements of out
  std::int64_t shape[kMaxGatherDims] = {};
  std::int64_t x_strides[kMaxGatherDims] = {};
  const char* x = nullptr;
  char* out = nullptr;
  int arrays = 0;
  const std::int64_t* index[kMaxIndexArrays] = {};
  std::int64_t index_strides[kMaxIndexArrays][kMaxGatherDims] = {};  // bytes
  std::int64_t extent[kMaxIndexArrays] = {};
  std::int64_t axis_strides[kMaxIndexArrays] = {};  // bytes
};

// Returns -1, or on the CPU the position in out of the first index out of bounds (nothing is
// then written past it). On the GPU an index out of bounds reads the nearest element: checking
// would need the host to wait for the GPU.
std::int64_t gather_cpu(const GatherPlan& p);
void gather_cuda(const GatherPlan& p, Stream stream);

// A gather's inverse, for assignment through index arrays (x[i] = v, x[mask] = v): the element
// of `x` at the offset the plan gives position o is set to out[o]; `x` is written here and `out`
// holds the values (dense, C order, the plan's shape). Where positions repeat, one of their values
// lands (on the CPU the last; on the GPU any, as in CuPy and PyTorch). Indices out of bounds as
// for a gather: on the CPU, nothing is written and the first bad position returned (-1: none);
// on the GPU, clamped.
std::int64_t scatter_cpu(const GatherPlan& p);
void scatter_cuda(const GatherPlan& p, Stream stream);

// pos[i] = the number of true elements among mask[0..i] (dense bool of n elements).
void count_true_cpu(std::int64_t n, const bool* mask, std::int64_t* pos);
void count_true_cuda(std::int64_t n, const bool* mask, std::int64_t* pos, Stream stream);
// For every true element of the dense C-ordered mask of `shape`, its coordinates: out holds
// ndim rows of `count` int64 (row d: the coordinates along axis d, in C order of the elements).
struct NonzeroPlan {
  int ndim = 0;
  std::int64_t shape[kMaxGatherDims] = {};
  std::int64_t n = 0;
  std::int64_t count = 0;
};
void nonzero_cpu(const NonzeroPlan& p, const bool* mask, const std::int64_t* pos,
                 std::int64_t* out);
void nonzero_cuda(const NonzeroPlan& p, const bool* mask, const std::int64_t* pos,
                  std::int64_t* out, Stream stream);

// C = A @ B for integer and bool dtypes (cuBLAS has no such types): `batch` products of row-major
// (m x k) by (k x n) matrices whose elements and batches sit at the given element strides, into
// dense C; integers wrap, bool is OR of ANDs, as NumPy's matmul.
struct MatmulPlan {
  std::int64_t batch = 1, m = 0, n = 0, k = 0;
  std::int64_t a_batch = 0, a_row = 0, a_col = 0;  // element strides
  std::int64_t b_batch = 0, b_row = 0, b_col = 0;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
};
void matmul_exact_cuda(DType dtype, const MatmulPlan& p, Stream stream);

}  // namespace numcu
