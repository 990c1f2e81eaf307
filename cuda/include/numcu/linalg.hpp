// The kernels numcu.linalg and numcu.fft need around cuSOLVER, cuBLAS and cuFFT: LU solves,
// inverses and determinants of stacks of small matrices (each matrix in a few registers of a
// group of threads: one launch for the whole stack, where the libraries' batched routines make
// several), determinants from LU factors, the pointer arrays of cuBLAS's batched routines,
// triangles and identities, the reduction of a stack's `info` codes to one, scaling and
// conjugation in place. GPU only; every launcher queues its work on `stream` and returns.
#pragma once

#include <cstddef>
#include <cstdint>

#include "numcu/backend.hpp"
#include "numcu/dtype.hpp"

namespace numcu {

namespace linalg {

// The largest order small_lu takes: 32 for float32 and float64, 16 for complex64 and
// complex128. Orders up to 16 take small_lu_kernel (linalg_small.cu: a group of 4, 8 or 16
// lanes a matrix, a column a lane); real orders 17 to 32 take lu32_kernel (a warp a matrix, a
// row a lane, the pivot row passed through shared memory), which the complex dtypes would need
// twice the registers for. Orders above go, in stacks, to cuBLAS's batched LU (getrfBatched,
// getrsBatched, getriBatched) up to 128; a single matrix to cuSOLVER. On a 2^16 stack of
// 32 x 32 float32 (H200, bench_linalg_fft.py --quick) lu32_kernel solves in 0.61 ms and inverts
// in 1.27 ms, where cuBLAS's batched LU took 1.75 and 3.36; small_lu_kernel widened to 32 lanes
// had taken 2.02 ms to solve.
constexpr int small_lu_max(DType dtype) { return dtype_kind(dtype) == 'c' ? 16 : 32; }

// Whether small_lu takes matrices of order `n` of a dtype (float32, float64, complex64 or
// complex128).
constexpr bool small_lu_fits(DType dtype, std::int64_t n) {
  return n >= 1 && n <= small_lu_max(dtype);
}

// What small_lu computes for each matrix A of a stack: X = A^-1 B, X = A^-1, det A or
// (sign, log|det A|).
enum class SmallLuMode : int { solve, inverse, det, slogdet };

// A stack of `batch` matrices of order n: A at a + i * a_batch (element strides a_row, a_col),
// B (solve: n x nrhs) likewise. X (solve: n x nrhs; inverse: n x n) is written dense, C order.
// det: out0[i] = det; slogdet: out0[i] = sign (the dtype), out1[i] = log|det| (its real type).
// `info`: a device int that is set to 1 where a matrix is singular (solve and inverse; the
// caller zeroes it first).
struct SmallLu {
  SmallLuMode mode = SmallLuMode::solve;
  std::int64_t batch = 0;
  int n = 0, nrhs = 0;
  const char* a = nullptr;
  std::int64_t a_batch = 0, a_row = 0, a_col = 0;
  const char* b = nullptr;
  std::int64_t b_batch = 0, b_row = 0, b_col = 0;
  char* out0 = nullptr;
  char* out1 = nullptr;
  int* info = nullptr;
};
void small_lu_cuda(DType dtype, const SmallLu& p, Stream stream);

// det or (sign, log|det|) of a stack from its LU factors (getrf's: column-major, leading
// dimension lda, `batch_stride` elements apart, pivots 1-based, int64 (cuSOLVER's 64-bit API)
// or int32 (cuBLAS) `pivot_stride` apart). Outputs as SmallLu's.
struct LuDet {
  bool log = false;
  std::int64_t batch = 0, n = 0, lda = 0, batch_stride = 0;
  const char* lu = nullptr;
  const void* pivots = nullptr;
  bool pivots64 = true;
  std::int64_t pivot_stride = 0;
  char* out0 = nullptr;
  char* out1 = nullptr;
};
void lu_det_cuda(DType dtype, const LuDet& p, Stream stream);

// out[i] = base + i * stride_bytes, for cuBLAS's and cuSOLVER's batched routines.
void pointer_array_cuda(void** out, char* base, std::int64_t stride_bytes, std::int64_t count,
                        Stream stream);

// Zeros the strict upper (`upper`) or strict lower triangle of each of `batch` rows x cols
// matrices, C order, `batch_stride` elements apart.
void zero_triangle_cuda(DType dtype, char* data, std::int64_t batch, std::int64_t rows,
                        std::int64_t cols, std::int64_t batch_stride, bool upper, Stream stream);

// `batch` dense n x n identity matrices.
void identity_cuda(DType dtype, char* data, std::int64_t batch, std::int64_t n, Stream stream);

// *flag = the largest of count int codes (cuSOLVER's and cuBLAS's `info`), *flag zeroed first.
void info_max_cuda(const int* info, std::int64_t count, int* flag, Stream stream);

// `bytes` zero bytes at `data` (cudaMemsetAsync).
void zero_cuda(char* data, std::size_t bytes, Stream stream);

// data[i] *= factor for `count` dense elements of a floating or complex dtype.
void scale_cuda(DType dtype, char* data, std::int64_t count, double factor, Stream stream);

// data[i] = conj(data[i]) for `count` dense complex elements.
void conjugate_cuda(DType dtype, char* data, std::int64_t count, Stream stream);

}  // namespace linalg

}  // namespace numcu
