// numcu's own declarations of the parts of cuBLAS, cuSOLVER and cuFFT that it calls.
//
// numcu loads these libraries at first use (vendor_library.hpp) and finds each function by name
// with dlsym, so it needs their types, constants and function signatures, and nothing else of
// their headers. It declares them here instead of including cublas_api.h, cusolverDn.h and
// cufft.h: those headers come with a CUDA toolkit or with the libraries' own wheels (hundreds of
// MB each), not with NVIDIA's compiler wheels, which are all a build without a toolkit fetches.
// The types the CUDA runtime's headers define (cudaStream_t, cudaDataType, cuComplex) are
// taken from there: NVIDIA's runtime wheel has them.
//
// Written from the libraries' documented APIs (cuBLAS, cuSOLVER, cuFFT, CUDA 12 and 13): the
// values and signatures are the libraries' ABI and must match it exactly.
// tests/test_vendor_api.py compiles tests/vendor_api_check.cpp, which compares every name
// declared here with the real headers wherever a toolkit has them.
//
// Functions are declared as function types named after the function (a pointer to one is what
// dlsym's result is cast to); the routines that exist once per element type (cublasSgetrfBatched,
// cublasDgetrfBatched, ...) as templates over the element type T (float, double, cuComplex,
// cuDoubleComplex: the letters S, D, C, Z), with R the matching real type.
#pragma once

#include <cuComplex.h>
#include <cuda_runtime_api.h>
#include <library_types.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace numcu::vendor {

static_assert(CUDART_VERSION >= 12000, "numcu needs CUDA 12 or later");

// The sonames' major versions of the libraries of the CUDA numcu is built with (the headers'
// CUBLAS_VER_MAJOR, CUSOLVER_VER_MAJOR and CUFFT_VER_MAJOR): libcublas.so.12, libcusolver.so.11
// and libcufft.so.11 in CUDA 12; libcublas.so.13, libcusolver.so.12 and libcufft.so.12 in 13.
constexpr int kCublasMajor = CUDART_VERSION / 1000;
constexpr int kCusolverMajor = CUDART_VERSION / 1000 - 1;
constexpr int kCufftMajor = CUDART_VERSION / 1000 - 1;

// The real type of a library element type.
template <class T>
using real_element_t =
    std::conditional_t<std::is_same_v<T, cuComplex>, float,
                       std::conditional_t<std::is_same_v<T, cuDoubleComplex>, double, T>>;

// ---------------------------------------------------------------------------------------------
// cuBLAS

struct cublasContext;
using cublasHandle_t = cublasContext*;

enum cublasStatus_t : int {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
};
enum cublasOperation_t : int {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
};
enum cublasFillMode_t : int {
  CUBLAS_FILL_MODE_LOWER = 0,
};
enum cublasComputeType_t : int {
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_64F = 70,
};
enum cublasGemmAlgo_t : int {
  CUBLAS_GEMM_DEFAULT = -1,
};

using cublasCreate_v2 = cublasStatus_t(cublasHandle_t* handle);
using cublasSetStream_v2 = cublasStatus_t(cublasHandle_t handle, cudaStream_t stream);
using cublasGetStatusString = const char*(cublasStatus_t status);
using cublasGemmStridedBatchedEx =
    cublasStatus_t(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                   int n, int k, const void* alpha, const void* A, cudaDataType Atype, int lda,
                   long long strideA, const void* B, cudaDataType Btype, int ldb, long long strideB,
                   const void* beta, void* C, cudaDataType Ctype, int ldc, long long strideC,
                   int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);

// cublas<T>getrfBatched, getrsBatched, getriBatched.
template <class T>
using cublasTgetrfBatched = cublasStatus_t(cublasHandle_t handle, int n, T* const A[], int lda,
                                           int* P, int* info, int batchSize);
template <class T>
using cublasTgetrsBatched = cublasStatus_t(cublasHandle_t handle, cublasOperation_t trans, int n,
                                           int nrhs, const T* const A[], int lda,
                                           const int* devIpiv, T* const B[], int ldb, int* info,
                                           int batchSize);
template <class T>
using cublasTgetriBatched = cublasStatus_t(cublasHandle_t handle, int n, const T* const A[],
                                           int lda, const int* P, T* const C[], int ldc, int* info,
                                           int batchSize);

// ---------------------------------------------------------------------------------------------
// cuSOLVER (its dense API, cusolverDn)

struct cusolverDnContext;
using cusolverDnHandle_t = cusolverDnContext*;
struct cusolverDnParams;
using cusolverDnParams_t = cusolverDnParams*;
struct syevjInfo;
using syevjInfo_t = syevjInfo*;
struct gesvdjInfo;
using gesvdjInfo_t = gesvdjInfo*;

enum cusolverStatus_t : int {
  CUSOLVER_STATUS_SUCCESS = 0,
  CUSOLVER_STATUS_NOT_INITIALIZED = 1,
  CUSOLVER_STATUS_ALLOC_FAILED = 2,
  CUSOLVER_STATUS_INVALID_VALUE = 3,
  CUSOLVER_STATUS_ARCH_MISMATCH = 4,
  CUSOLVER_STATUS_EXECUTION_FAILED = 6,
  CUSOLVER_STATUS_INTERNAL_ERROR = 7,
  CUSOLVER_STATUS_NOT_SUPPORTED = 9,
};
enum cusolverEigMode_t : int {
  CUSOLVER_EIG_MODE_NOVECTOR = 0,
  CUSOLVER_EIG_MODE_VECTOR = 1,
};

using cusolverDnCreate = cusolverStatus_t(cusolverDnHandle_t* handle);
using cusolverDnCreateParams = cusolverStatus_t(cusolverDnParams_t* params);
using cusolverDnSetStream = cusolverStatus_t(cusolverDnHandle_t handle, cudaStream_t stream);
using cusolverDnCreateSyevjInfo = cusolverStatus_t(syevjInfo_t* info);
using cusolverDnDestroySyevjInfo = cusolverStatus_t(syevjInfo_t info);
using cusolverDnCreateGesvdjInfo = cusolverStatus_t(gesvdjInfo_t* info);
using cusolverDnDestroyGesvdjInfo = cusolverStatus_t(gesvdjInfo_t info);

// The 64-bit API: one routine per operation, the element type an argument. Each *_bufferSize
// returns the device and host workspace sizes, in bytes, of its routine.
using cusolverDnXgetrf_bufferSize =
    cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params, std::int64_t m,
                     std::int64_t n, cudaDataType dataTypeA, const void* A, std::int64_t lda,
                     cudaDataType computeType, std::size_t* deviceBytes, std::size_t* hostBytes);
using cusolverDnXgetrf = cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                          std::int64_t m, std::int64_t n, cudaDataType dataTypeA,
                                          void* A, std::int64_t lda, std::int64_t* ipiv,
                                          cudaDataType computeType, void* deviceWork,
                                          std::size_t deviceBytes, void* hostWork,
                                          std::size_t hostBytes, int* info);
using cusolverDnXgetrs = cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                          cublasOperation_t trans, std::int64_t n,
                                          std::int64_t nrhs, cudaDataType dataTypeA, const void* A,
                                          std::int64_t lda, const std::int64_t* ipiv,
                                          cudaDataType dataTypeB, void* B, std::int64_t ldb,
                                          int* info);
using cusolverDnXpotrf_bufferSize =
    cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params, cublasFillMode_t uplo,
                     std::int64_t n, cudaDataType dataTypeA, const void* A, std::int64_t lda,
                     cudaDataType computeType, std::size_t* deviceBytes, std::size_t* hostBytes);
using cusolverDnXpotrf = cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                          cublasFillMode_t uplo, std::int64_t n,
                                          cudaDataType dataTypeA, void* A, std::int64_t lda,
                                          cudaDataType computeType, void* deviceWork,
                                          std::size_t deviceBytes, void* hostWork,
                                          std::size_t hostBytes, int* info);
using cusolverDnXgeqrf_bufferSize = cusolverStatus_t(
    cusolverDnHandle_t handle, cusolverDnParams_t params, std::int64_t m, std::int64_t n,
    cudaDataType dataTypeA, const void* A, std::int64_t lda, cudaDataType dataTypeTau,
    const void* tau, cudaDataType computeType, std::size_t* deviceBytes, std::size_t* hostBytes);
using cusolverDnXgeqrf = cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                          std::int64_t m, std::int64_t n, cudaDataType dataTypeA,
                                          void* A, std::int64_t lda, cudaDataType dataTypeTau,
                                          void* tau, cudaDataType computeType, void* deviceWork,
                                          std::size_t deviceBytes, void* hostWork,
                                          std::size_t hostBytes, int* info);
using cusolverDnXsyevd_bufferSize =
    cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
                     cublasFillMode_t uplo, std::int64_t n, cudaDataType dataTypeA, const void* A,
                     std::int64_t lda, cudaDataType dataTypeW, const void* W,
                     cudaDataType computeType, std::size_t* deviceBytes, std::size_t* hostBytes);
using cusolverDnXsyevd = cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                          cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                          std::int64_t n, cudaDataType dataTypeA, void* A,
                                          std::int64_t lda, cudaDataType dataTypeW, void* W,
                                          cudaDataType computeType, void* deviceWork,
                                          std::size_t deviceBytes, void* hostWork,
                                          std::size_t hostBytes, int* info);
// Not in every cuSOLVER of CUDA 12 (12.4's lacks them): numcu looks for them and does without.
using cusolverDnXsyevBatched_bufferSize = cusolverStatus_t(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
    cublasFillMode_t uplo, std::int64_t n, cudaDataType dataTypeA, const void* A, std::int64_t lda,
    cudaDataType dataTypeW, const void* W, cudaDataType computeType, std::size_t* deviceBytes,
    std::size_t* hostBytes, std::int64_t batchSize);
using cusolverDnXsyevBatched =
    cusolverStatus_t(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
                     cublasFillMode_t uplo, std::int64_t n, cudaDataType dataTypeA, void* A,
                     std::int64_t lda, cudaDataType dataTypeW, void* W, cudaDataType computeType,
                     void* deviceWork, std::size_t deviceBytes, void* hostWork,
                     std::size_t hostBytes, int* info, std::int64_t batchSize);
using cusolverDnXgesvd_bufferSize = cusolverStatus_t(
    cusolverDnHandle_t handle, cusolverDnParams_t params, signed char jobu, signed char jobvt,
    std::int64_t m, std::int64_t n, cudaDataType dataTypeA, const void* A, std::int64_t lda,
    cudaDataType dataTypeS, const void* S, cudaDataType dataTypeU, const void* U, std::int64_t ldu,
    cudaDataType dataTypeVT, const void* VT, std::int64_t ldvt, cudaDataType computeType,
    std::size_t* deviceBytes, std::size_t* hostBytes);
using cusolverDnXgesvd = cusolverStatus_t(
    cusolverDnHandle_t handle, cusolverDnParams_t params, signed char jobu, signed char jobvt,
    std::int64_t m, std::int64_t n, cudaDataType dataTypeA, void* A, std::int64_t lda,
    cudaDataType dataTypeS, void* S, cudaDataType dataTypeU, void* U, std::int64_t ldu,
    cudaDataType dataTypeVT, void* VT, std::int64_t ldvt, cudaDataType computeType,
    void* deviceWork, std::size_t deviceBytes, void* hostWork, std::size_t hostBytes, int* info);
// cuSOLVER of CUDA 12.6 and later: numcu looks for them and says so where they are missing.
using cusolverDnXgeev_bufferSize = cusolverStatus_t(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
    cusolverEigMode_t jobvr, std::int64_t n, cudaDataType dataTypeA, const void* A,
    std::int64_t lda, cudaDataType dataTypeW, const void* W, cudaDataType dataTypeVL,
    const void* VL, std::int64_t ldvl, cudaDataType dataTypeVR, const void* VR, std::int64_t ldvr,
    cudaDataType computeType, std::size_t* deviceBytes, std::size_t* hostBytes);
using cusolverDnXgeev = cusolverStatus_t(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
    cusolverEigMode_t jobvr, std::int64_t n, cudaDataType dataTypeA, void* A, std::int64_t lda,
    cudaDataType dataTypeW, void* W, cudaDataType dataTypeVL, void* VL, std::int64_t ldvl,
    cudaDataType dataTypeVR, void* VR, std::int64_t ldvr, cudaDataType computeType,
    void* deviceWork, std::size_t deviceBytes, void* hostWork, std::size_t hostBytes, int* info);

// cusolverDn<T>potrfBatched.
template <class T>
using cusolverDnTpotrfBatched = cusolverStatus_t(cusolverDnHandle_t handle, cublasFillMode_t uplo,
                                                 int n, T* Aarray[], int lda, int* infoArray,
                                                 int batchSize);
// cusolverDn<T>orgqr (S, D) and cusolverDn<T>ungqr (C, Z), and their _bufferSize.
template <class T>
using cusolverDnTorgqr_bufferSize = cusolverStatus_t(cusolverDnHandle_t handle, int m, int n, int k,
                                                     const T* A, int lda, const T* tau, int* lwork);
template <class T>
using cusolverDnTorgqr = cusolverStatus_t(cusolverDnHandle_t handle, int m, int n, int k, T* A,
                                          int lda, const T* tau, T* work, int lwork, int* info);
// cusolverDn<T>syevjBatched (S, D) and cusolverDn<T>heevjBatched (C, Z), and their _bufferSize.
template <class T>
using cusolverDnTsyevjBatched_bufferSize = cusolverStatus_t(
    cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, const T* A,
    int lda, const real_element_t<T>* W, int* lwork, syevjInfo_t params, int batchSize);
template <class T>
using cusolverDnTsyevjBatched = cusolverStatus_t(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                                                 cublasFillMode_t uplo, int n, T* A, int lda,
                                                 real_element_t<T>* W, T* work, int lwork,
                                                 int* info, syevjInfo_t params, int batchSize);
// cusolverDn<T>gesvdj and cusolverDn<T>gesvdjBatched, and their _bufferSize.
template <class T>
using cusolverDnTgesvdj_bufferSize = cusolverStatus_t(cusolverDnHandle_t handle,
                                                      cusolverEigMode_t jobz, int econ, int m,
                                                      int n, const T* A, int lda,
                                                      const real_element_t<T>* S, const T* U,
                                                      int ldu, const T* V, int ldv, int* lwork,
                                                      gesvdjInfo_t params);
template <class T>
using cusolverDnTgesvdj = cusolverStatus_t(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                                           int econ, int m, int n, T* A, int lda,
                                           real_element_t<T>* S, T* U, int ldu, T* V, int ldv,
                                           T* work, int lwork, int* info, gesvdjInfo_t params);
template <class T>
using cusolverDnTgesvdjBatched_bufferSize =
    cusolverStatus_t(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n, const T* A,
                     int lda, const real_element_t<T>* S, const T* U, int ldu, const T* V, int ldv,
                     int* lwork, gesvdjInfo_t params, int batchSize);
template <class T>
using cusolverDnTgesvdjBatched = cusolverStatus_t(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                                                  int m, int n, T* A, int lda, real_element_t<T>* S,
                                                  T* U, int ldu, T* V, int ldv, T* work, int lwork,
                                                  int* info, gesvdjInfo_t params, int batchSize);

// ---------------------------------------------------------------------------------------------
// cuFFT

using cufftHandle = int;

enum cufftResult : int {
  CUFFT_SUCCESS = 0,
  CUFFT_INVALID_PLAN = 1,
  CUFFT_ALLOC_FAILED = 2,
  CUFFT_INVALID_TYPE = 3,
  CUFFT_INVALID_VALUE = 4,
  CUFFT_INTERNAL_ERROR = 5,
  CUFFT_EXEC_FAILED = 6,
  CUFFT_SETUP_FAILED = 7,
  CUFFT_INVALID_SIZE = 8,
  CUFFT_NOT_SUPPORTED = 16,
};
// The direction argument of cufftXtExec (cufft.h's CUFFT_FORWARD and CUFFT_INVERSE, which are
// macros there: other names here, so that both headers can be read in one file).
constexpr int kCufftForward = -1;
constexpr int kCufftInverse = 1;

using cufftCreate = cufftResult(cufftHandle* plan);
using cufftDestroy = cufftResult(cufftHandle plan);
using cufftSetAutoAllocation = cufftResult(cufftHandle plan, int autoAllocate);
using cufftSetWorkArea = cufftResult(cufftHandle plan, void* workArea);
using cufftSetStream = cufftResult(cufftHandle plan, cudaStream_t stream);
using cufftXtMakePlanMany = cufftResult(cufftHandle plan, int rank, long long* n,
                                        long long* inembed, long long istride, long long idist,
                                        cudaDataType inputtype, long long* onembed,
                                        long long ostride, long long odist, cudaDataType outputtype,
                                        long long batch, std::size_t* workSize,
                                        cudaDataType executiontype);
using cufftXtExec = cufftResult(cufftHandle plan, void* input, void* output, int direction);

}  // namespace numcu::vendor
