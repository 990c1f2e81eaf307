// Matrix products through cuBLAS, which numcu loads at the first product on a GPU (dlopen) from
// the CUDA toolkit or NVIDIA's cuBLAS wheel instead of linking it: the module stays small and
// imports fast, and machines without cuBLAS lose only floating matmul on the GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"

namespace numcu::python {

// One strided-batched GEMM per outer batch index: C (dense, row-major) = A @ B.
struct Gemm {
  DType dtype = DType::float32;
  std::int64_t m = 0, n = 0, k = 0;
  // In cuBLAS's column-major terms, C^T = B^T A^T: operand one is B, operand two is A.
  bool trans_b = false, trans_a = false;
  std::int64_t ldb = 1, lda = 1;
  std::int64_t batch = 1;                   // matrices per call
  std::int64_t stride_a = 0, stride_b = 0;  // elements between them
  const char* a = nullptr;
  const char* b = nullptr;
  char* c = nullptr;
  // Outer batch dimensions (looped on the host), with byte strides.
  int outer_ndim = 0;
  std::int64_t outer_shape[kMaxDims] = {};
  std::int64_t outer_a[kMaxDims] = {}, outer_b[kMaxDims] = {}, outer_c[kMaxDims] = {};
};

// The plan for dest C = A @ B (A: (..., m, k), B: (..., k, n), one batch shape, C dense).
// Operands whose matrices have neither unit row nor unit column stride go through `densify`.
Gemm gemm_plan(const char* fname, const ArrayView& A, const ArrayView& B, const ArrayView& C,
               const std::function<ArrayView(const ArrayView&)>& densify);
// Queues the products on `stream` of `device` (current); loads cuBLAS on first use.
void run_gemm(const Gemm& g, int device, Stream stream, const char* fname);
// Where cuBLAS was loaded from (loading it now), or a RuntimeError naming what to install.
std::string cublas_path();

// cuBLAS for other callers (numcu.linalg's batched routines): the device's handle with its stream
// set, held (with cuBLAS's lock, so that no other thread resets its stream) while the session
// lives. Load cuBLAS first (cublas_path(), with the GIL held).
class CublasSession {
 public:
  CublasSession(int device, Stream stream, const char* fname);
  void* handle() const { return handle_; }
  // A cuBLAS function by name, or a RuntimeError naming it. Takes no lock: the session holds
  // cuBLAS's, and taking it again would deadlock.
  void* function(const char* symbol) const;

 private:
  std::unique_lock<std::mutex> guard_;
  void* handle_ = nullptr;
  const char* fname_ = nullptr;
};
// Loads cuBLAS (the GIL held), or raises a RuntimeError naming `fname` and what to install.
void load_cublas(const char* fname);
// cuBLAS's text for a status code.
const char* cublas_status_string(int status);

}  // namespace numcu::python
