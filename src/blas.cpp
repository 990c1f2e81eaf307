#include "blas.hpp"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "intake.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "vendor_library.hpp"

#if NUMCU_WITH_CUDA
#include "vendor_api.hpp"
#endif

namespace numcu::python {

namespace py = pybind11;

namespace {

// How a matrix of `rows` x `cols` with element strides (sr, sc) reads as the transpose cuBLAS
// (column-major) is asked for: as it is (op N: unit column stride) or transposed (op T: unit row
// stride), with its leading dimension; false when neither fits.
bool as_transpose(std::int64_t rows, std::int64_t cols, std::int64_t sr, std::int64_t sc,
                  bool* trans, std::int64_t* ld) {
  if ((sc == 1 || cols == 1) && (rows == 1 || sr >= std::max<std::int64_t>(cols, 1))) {
    *trans = false;
    *ld = rows == 1 ? std::max<std::int64_t>(cols, 1) : sr;
    return true;
  }
  if ((sr == 1 || rows == 1) && (cols == 1 || sc >= std::max<std::int64_t>(rows, 1))) {
    *trans = true;
    *ld = cols == 1 ? std::max<std::int64_t>(rows, 1) : sc;
    return true;
  }
  return false;
}

}  // namespace

Gemm gemm_plan(const char* fname, const ArrayView& A0, const ArrayView& B0, const ArrayView& C,
               const std::function<ArrayView(const ArrayView&)>& densify) {
  cublas_path();  // loaded now, while the caller holds the GIL
  Gemm g;
  const int nd = C.ndim;
  const int is = itemsize(C.dtype);
  g.dtype = C.dtype;
  g.m = C.shape[nd - 2];
  g.n = C.shape[nd - 1];
  g.k = A0.shape[nd - 1];
  if (g.m > INT32_MAX || g.n > INT32_MAX || g.k > INT32_MAX) {
    throw_value_error(std::string(fname) +
                      ": matrices with a dimension of 2**31 or more are "
                      "not supported on the GPU");
  }
  auto fits = [&](const ArrayView& v, std::int64_t rows, std::int64_t cols, bool* trans,
                  std::int64_t* ld) {
    const std::int64_t sr = v.strides[nd - 2], sc = v.strides[nd - 1];
    if (sr % is != 0 || sc % is != 0 || sr < 0 || sc < 0) return false;
    for (int d = 0; d < nd - 2; ++d) {
      if (v.strides[d] < 0 || v.strides[d] % is != 0) return false;
    }
    return as_transpose(rows, cols, sr / is, sc / is, trans, ld);
  };
  ArrayView A = A0, B = B0;
  if (!fits(A, g.m, g.k, &g.trans_a, &g.lda)) {
    A = densify(A);
    fits(A, g.m, g.k, &g.trans_a, &g.lda);
  }
  if (!fits(B, g.k, g.n, &g.trans_b, &g.ldb)) {
    B = densify(B);
    fits(B, g.k, g.n, &g.trans_b, &g.ldb);
  }
  g.a = A.data;
  g.b = B.data;
  g.c = C.data;
  // The innermost batch dimension goes to cuBLAS; the others are looped over.
  if (nd > 2) {
    g.batch = C.shape[nd - 3];
    g.stride_a = A.strides[nd - 3] / is;
    g.stride_b = B.strides[nd - 3] / is;
    g.outer_ndim = nd - 3;
    for (int d = 0; d < nd - 3; ++d) {
      g.outer_shape[d] = C.shape[d];
      g.outer_a[d] = A.strides[d];
      g.outer_b[d] = B.strides[d];
      g.outer_c[d] = C.strides[d];
    }
  }
  if (g.batch > INT32_MAX) throw_value_error(std::string(fname) + ": too many matrices");
  return g;
}

#if NUMCU_WITH_CUDA

// cuBLAS's names as its documentation spells them (numcu's declarations: vendor_api.hpp).
using namespace vendor;  // NOLINT(google-build-using-namespace)

namespace {

struct Library {
  VendorLibrary so{{"cuBLAS", "libcublas.so.", kCublasMajor, "NUMCU_CUBLAS", "cublas",
                    "nvidia-cublas", "matrix products and linear algebra on the GPU need it"}};
  vendor::cublasCreate_v2* create = nullptr;
  vendor::cublasSetStream_v2* set_stream = nullptr;
  vendor::cublasGetStatusString* status = nullptr;
  vendor::cublasGemmStridedBatchedEx* gemm = nullptr;
  cublasHandle_t handles[64] = {};
  std::mutex lock;
};

Library& library() {
  static Library* lib = new Library();  // never destroyed: cuBLAS outlives Python's exit
  return *lib;
}

Library& loaded(const char* fname) {
  Library& lib = library();
  lib.so.open(fname);
  std::lock_guard<std::mutex> guard(lib.lock);
  if (lib.gemm == nullptr) {
    lib.create = lib.so.function<vendor::cublasCreate_v2*>("cublasCreate_v2", fname);
    lib.set_stream = lib.so.function<vendor::cublasSetStream_v2*>("cublasSetStream_v2", fname);
    lib.status = lib.so.function<vendor::cublasGetStatusString*>("cublasGetStatusString", fname);
    lib.gemm =
        lib.so.function<vendor::cublasGemmStridedBatchedEx*>("cublasGemmStridedBatchedEx", fname);
  }
  return lib;
}

// The device's handle, made on first use, with its stream set; the caller holds lib.lock.
cublasHandle_t handle_on(Library& lib, int device, Stream stream, const char* fname) {
  auto check = [&](cublasStatus_t st, const char* what) {
    if (st != CUBLAS_STATUS_SUCCESS) {
      throw Error(
          st == CUBLAS_STATUS_ALLOC_FAILED ? ErrorKind::out_of_memory : ErrorKind::cuda_error,
          std::string(fname) + ": " + what + " failed: " + lib.status(st));
    }
  };
  if (device < 0 || device >= 64) throw_value_error(std::string(fname) + ": device index");
  cublasHandle_t& handle = lib.handles[device];
  if (handle == nullptr) check(lib.create(&handle), "cublasCreate");
  check(lib.set_stream(handle, static_cast<cudaStream_t>(stream)), "cublasSetStream");
  return handle;
}

}  // namespace

std::string cublas_path() { return loaded("numcu.matmul").so.open("numcu.matmul"); }

void load_cublas(const char* fname) { loaded(fname); }

CublasSession::CublasSession(int device, Stream stream, const char* fname)
    : guard_(loaded(fname).lock), fname_(fname) {
  handle_ = handle_on(library(), device, stream, fname);
}

void* CublasSession::function(const char* symbol) const {
  return library().so.require(symbol, fname_);
}

const char* cublas_status_string(int status) {
  return library().status(static_cast<cublasStatus_t>(status));
}

void run_gemm(const Gemm& g, int device, Stream stream, const char* fname) {
  Library& lib = loaded(fname);
  std::lock_guard<std::mutex> guard(lib.lock);
  auto check = [&](cublasStatus_t st, const char* what) {
    if (st != CUBLAS_STATUS_SUCCESS) {
      throw Error(
          st == CUBLAS_STATUS_ALLOC_FAILED ? ErrorKind::out_of_memory : ErrorKind::cuda_error,
          std::string(fname) + ": " + what + " failed: " + lib.status(st));
    }
  };
  cublasHandle_t handle = handle_on(lib, device, stream, fname);
  cudaDataType type = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  // alpha = 1, beta = 0 in the compute type (complex: real part 1 or 0, imaginary 0).
  double one[2] = {1, 0}, zero[2] = {0, 0};
  float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
  const void* alpha = one_f;
  const void* beta = zero_f;
  // cuBLAS's type of each dtype it multiplies.
  constexpr std::pair<DType, cudaDataType> kTypes[] = {
      {DType::float16, CUDA_R_16F},   {DType::bfloat16, CUDA_R_16BF},
      {DType::float32, CUDA_R_32F},   {DType::float64, CUDA_R_64F},
      {DType::complex64, CUDA_C_32F}, {DType::complex128, CUDA_C_64F}};
  const auto* found = std::find_if(std::begin(kTypes), std::end(kTypes),
                                   [&](const auto& t) { return t.first == g.dtype; });
  if (found == std::end(kTypes)) {
    throw_type_error(std::string(fname) + ": cuBLAS has no loop for " + dtype_name(g.dtype));
  }
  type = found->second;
  if (type == CUDA_R_64F || type == CUDA_C_64F) {  // double precision computes in it
    compute = CUBLAS_COMPUTE_64F;
    alpha = one;
    beta = zero;
  }
  std::int64_t outer = 1;
  for (int d = 0; d < g.outer_ndim; ++d) outer *= g.outer_shape[d];
  std::int64_t idx[kMaxDims] = {};
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t oa = 0, ob = 0, oc = 0;
    for (int d = 0; d < g.outer_ndim; ++d) {
      oa += idx[d] * g.outer_a[d];
      ob += idx[d] * g.outer_b[d];
      oc += idx[d] * g.outer_c[d];
    }
    check(lib.gemm(handle, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N,
                   g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(g.n),
                   static_cast<int>(g.m), static_cast<int>(g.k), alpha, g.b + ob, type,
                   static_cast<int>(g.ldb), g.stride_b, g.a + oa, type, static_cast<int>(g.lda),
                   g.stride_a, beta, g.c + oc, type, static_cast<int>(g.n), g.m * g.n,
                   static_cast<int>(g.batch), compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmStridedBatchedEx");
    for (int d = g.outer_ndim - 1; d >= 0; --d) {
      if (++idx[d] < g.outer_shape[d]) break;
      idx[d] = 0;
    }
  }
}

#else

std::string cublas_path() {
  throw Error(ErrorKind::cuda_unavailable,
              "numcu.matmul: this numcu was built without its CUDA backend (no cuBLAS)");
}

CublasSession::CublasSession(int, Stream, const char* fname) {
  throw Error(ErrorKind::cuda_unavailable, std::string(fname) + ": no CUDA backend");
}

void load_cublas(const char* fname) {
  throw Error(ErrorKind::cuda_unavailable, std::string(fname) + ": no CUDA backend");
}

void* CublasSession::function(const char*) const {
  throw Error(ErrorKind::cuda_unavailable, std::string(fname_) + ": no CUDA backend");
}

const char* cublas_status_string(int) { return "no CUDA backend"; }

void run_gemm(const Gemm&, int, Stream, const char* fname) {
  throw Error(ErrorKind::cuda_unavailable, std::string(fname) + ": no CUDA backend");
}

#endif

}  // namespace numcu::python
