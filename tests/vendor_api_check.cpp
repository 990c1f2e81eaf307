// Compiled (never run) by tests/test_vendor_api.py against a CUDA toolkit's headers: every type,
// constant and function numcu declares in src/vendor_api.hpp is the library's own, or this file
// does not compile. A function numcu declares is compared with the header's through a mapping of
// numcu's types onto the header's (Theirs), applied to each parameter and the result.
//
// Functions that not every header declares are checked where the test defines
// NUMCU_CHECK_<name> (it does where the header has them).
// cublas_v2.h: CUDA 12's cublas_api.h is not meant to be included alone.
#include <cublas_v2.h>
#include <cufft.h>
#include <cufftXt.h>
#include <cusolverDn.h>

#include <type_traits>

#include "vendor_api.hpp"

namespace v = numcu::vendor;

namespace {

// The header's type for each of numcu's.
template <class T>
struct Theirs {
  using type = T;
};
template <class T>
using theirs_t = typename Theirs<T>::type;
template <class T>
struct Theirs<T*> {
  using type = theirs_t<T>*;
};
template <class T>
struct Theirs<const T> {
  using type = const theirs_t<T>;
};
template <class R, class... A>
struct Theirs<R(A...)> {
  using type = theirs_t<R>(theirs_t<A>...);
};
#define NUMCU_THEIRS(ours, header) \
  template <>                      \
  struct Theirs<v::ours> {         \
    using type = ::header;         \
  }
NUMCU_THEIRS(cublasContext, cublasContext);
NUMCU_THEIRS(cublasStatus_t, cublasStatus_t);
NUMCU_THEIRS(cublasOperation_t, cublasOperation_t);
NUMCU_THEIRS(cublasFillMode_t, cublasFillMode_t);
NUMCU_THEIRS(cublasComputeType_t, cublasComputeType_t);
NUMCU_THEIRS(cublasGemmAlgo_t, cublasGemmAlgo_t);
NUMCU_THEIRS(cusolverDnContext, cusolverDnContext);
NUMCU_THEIRS(cusolverDnParams, cusolverDnParams);
NUMCU_THEIRS(syevjInfo, syevjInfo);
NUMCU_THEIRS(gesvdjInfo, gesvdjInfo);
NUMCU_THEIRS(cusolverStatus_t, cusolverStatus_t);
NUMCU_THEIRS(cusolverEigMode_t, cusolverEigMode_t);
NUMCU_THEIRS(cufftResult, cufftResult);
#undef NUMCU_THEIRS

// A function: the header's, of exactly the type numcu's declaration maps to (for a name the
// header overloads, as cuBLAS's C++ API does, the overload of that type).
#define NUMCU_SAME_FUNCTION(name) \
  [[maybe_unused]] constexpr theirs_t<v::name>* numcu_check_##name = &::name

// A routine per element type: numcu's template for float, double, cuComplex, cuDoubleComplex
// against the header's S, D, C and Z routines.
#define NUMCU_SAME_TYPED(ours, S, D, C, Z)                                         \
  [[maybe_unused]] constexpr theirs_t<v::ours<float>>* numcu_check_##S = &::S;     \
  [[maybe_unused]] constexpr theirs_t<v::ours<double>>* numcu_check_##D = &::D;    \
  [[maybe_unused]] constexpr theirs_t<v::ours<cuComplex>>* numcu_check_##C = &::C; \
  [[maybe_unused]] constexpr theirs_t<v::ours<cuDoubleComplex>>* numcu_check_##Z = &::Z

// A constant: the header's value.
#define NUMCU_SAME_VALUE(name) \
  static_assert(static_cast<long long>(v::name) == static_cast<long long>(::name), #name)

// The handles are the headers' (pointers to their opaque structs; cuFFT's an int).
static_assert(std::is_same_v<theirs_t<v::cublasHandle_t>, ::cublasHandle_t>);
static_assert(std::is_same_v<theirs_t<v::cusolverDnHandle_t>, ::cusolverDnHandle_t>);
static_assert(std::is_same_v<theirs_t<v::cusolverDnParams_t>, ::cusolverDnParams_t>);
static_assert(std::is_same_v<theirs_t<v::syevjInfo_t>, ::syevjInfo_t>);
static_assert(std::is_same_v<theirs_t<v::gesvdjInfo_t>, ::gesvdjInfo_t>);
static_assert(std::is_same_v<v::cufftHandle, ::cufftHandle>);
// numcu's enumerations pass as the headers' do (C enumerations: the size of an int).
static_assert(sizeof(v::cublasStatus_t) == sizeof(::cublasStatus_t));
static_assert(sizeof(v::cublasOperation_t) == sizeof(::cublasOperation_t));
static_assert(sizeof(v::cublasFillMode_t) == sizeof(::cublasFillMode_t));
static_assert(sizeof(v::cublasComputeType_t) == sizeof(::cublasComputeType_t));
static_assert(sizeof(v::cublasGemmAlgo_t) == sizeof(::cublasGemmAlgo_t));
static_assert(sizeof(v::cusolverStatus_t) == sizeof(::cusolverStatus_t));
static_assert(sizeof(v::cusolverEigMode_t) == sizeof(::cusolverEigMode_t));
static_assert(sizeof(v::cufftResult) == sizeof(::cufftResult));

// The sonames' versions.
static_assert(v::kCublasMajor == CUBLAS_VER_MAJOR);
static_assert(v::kCusolverMajor == CUSOLVER_VER_MAJOR);
static_assert(v::kCufftMajor == CUFFT_VER_MAJOR);

// cuBLAS
NUMCU_SAME_VALUE(CUBLAS_STATUS_SUCCESS);
NUMCU_SAME_VALUE(CUBLAS_STATUS_ALLOC_FAILED);
NUMCU_SAME_VALUE(CUBLAS_OP_N);
NUMCU_SAME_VALUE(CUBLAS_OP_T);
NUMCU_SAME_VALUE(CUBLAS_FILL_MODE_LOWER);
NUMCU_SAME_VALUE(CUBLAS_COMPUTE_32F);
NUMCU_SAME_VALUE(CUBLAS_COMPUTE_64F);
NUMCU_SAME_VALUE(CUBLAS_GEMM_DEFAULT);
NUMCU_SAME_FUNCTION(cublasCreate_v2);
NUMCU_SAME_FUNCTION(cublasSetStream_v2);
NUMCU_SAME_FUNCTION(cublasGetStatusString);
NUMCU_SAME_FUNCTION(cublasGemmStridedBatchedEx);
NUMCU_SAME_TYPED(cublasTgetrfBatched, cublasSgetrfBatched, cublasDgetrfBatched, cublasCgetrfBatched,
                 cublasZgetrfBatched);
NUMCU_SAME_TYPED(cublasTgetrsBatched, cublasSgetrsBatched, cublasDgetrsBatched, cublasCgetrsBatched,
                 cublasZgetrsBatched);
NUMCU_SAME_TYPED(cublasTgetriBatched, cublasSgetriBatched, cublasDgetriBatched, cublasCgetriBatched,
                 cublasZgetriBatched);

// cuSOLVER
NUMCU_SAME_VALUE(CUSOLVER_STATUS_SUCCESS);
NUMCU_SAME_VALUE(CUSOLVER_STATUS_NOT_INITIALIZED);
NUMCU_SAME_VALUE(CUSOLVER_STATUS_ALLOC_FAILED);
NUMCU_SAME_VALUE(CUSOLVER_STATUS_INVALID_VALUE);
NUMCU_SAME_VALUE(CUSOLVER_STATUS_ARCH_MISMATCH);
NUMCU_SAME_VALUE(CUSOLVER_STATUS_EXECUTION_FAILED);
NUMCU_SAME_VALUE(CUSOLVER_STATUS_INTERNAL_ERROR);
NUMCU_SAME_VALUE(CUSOLVER_STATUS_NOT_SUPPORTED);
NUMCU_SAME_VALUE(CUSOLVER_EIG_MODE_NOVECTOR);
NUMCU_SAME_VALUE(CUSOLVER_EIG_MODE_VECTOR);
NUMCU_SAME_FUNCTION(cusolverDnCreate);
NUMCU_SAME_FUNCTION(cusolverDnCreateParams);
NUMCU_SAME_FUNCTION(cusolverDnSetStream);
NUMCU_SAME_FUNCTION(cusolverDnCreateSyevjInfo);
NUMCU_SAME_FUNCTION(cusolverDnDestroySyevjInfo);
NUMCU_SAME_FUNCTION(cusolverDnCreateGesvdjInfo);
NUMCU_SAME_FUNCTION(cusolverDnDestroyGesvdjInfo);
NUMCU_SAME_FUNCTION(cusolverDnXgetrf_bufferSize);
NUMCU_SAME_FUNCTION(cusolverDnXgetrf);
NUMCU_SAME_FUNCTION(cusolverDnXgetrs);
NUMCU_SAME_FUNCTION(cusolverDnXpotrf_bufferSize);
NUMCU_SAME_FUNCTION(cusolverDnXpotrf);
NUMCU_SAME_FUNCTION(cusolverDnXgeqrf_bufferSize);
NUMCU_SAME_FUNCTION(cusolverDnXgeqrf);
NUMCU_SAME_FUNCTION(cusolverDnXsyevd_bufferSize);
NUMCU_SAME_FUNCTION(cusolverDnXsyevd);
#ifdef NUMCU_CHECK_cusolverDnXsyevBatched
NUMCU_SAME_FUNCTION(cusolverDnXsyevBatched_bufferSize);
NUMCU_SAME_FUNCTION(cusolverDnXsyevBatched);
#endif
NUMCU_SAME_FUNCTION(cusolverDnXgesvd_bufferSize);
NUMCU_SAME_FUNCTION(cusolverDnXgesvd);
#ifdef NUMCU_CHECK_cusolverDnXgeev
NUMCU_SAME_FUNCTION(cusolverDnXgeev_bufferSize);
NUMCU_SAME_FUNCTION(cusolverDnXgeev);
#endif
NUMCU_SAME_TYPED(cusolverDnTpotrfBatched, cusolverDnSpotrfBatched, cusolverDnDpotrfBatched,
                 cusolverDnCpotrfBatched, cusolverDnZpotrfBatched);
NUMCU_SAME_TYPED(cusolverDnTorgqr_bufferSize, cusolverDnSorgqr_bufferSize,
                 cusolverDnDorgqr_bufferSize, cusolverDnCungqr_bufferSize,
                 cusolverDnZungqr_bufferSize);
NUMCU_SAME_TYPED(cusolverDnTorgqr, cusolverDnSorgqr, cusolverDnDorgqr, cusolverDnCungqr,
                 cusolverDnZungqr);
NUMCU_SAME_TYPED(cusolverDnTsyevjBatched_bufferSize, cusolverDnSsyevjBatched_bufferSize,
                 cusolverDnDsyevjBatched_bufferSize, cusolverDnCheevjBatched_bufferSize,
                 cusolverDnZheevjBatched_bufferSize);
NUMCU_SAME_TYPED(cusolverDnTsyevjBatched, cusolverDnSsyevjBatched, cusolverDnDsyevjBatched,
                 cusolverDnCheevjBatched, cusolverDnZheevjBatched);
NUMCU_SAME_TYPED(cusolverDnTgesvdj_bufferSize, cusolverDnSgesvdj_bufferSize,
                 cusolverDnDgesvdj_bufferSize, cusolverDnCgesvdj_bufferSize,
                 cusolverDnZgesvdj_bufferSize);
NUMCU_SAME_TYPED(cusolverDnTgesvdj, cusolverDnSgesvdj, cusolverDnDgesvdj, cusolverDnCgesvdj,
                 cusolverDnZgesvdj);
NUMCU_SAME_TYPED(cusolverDnTgesvdjBatched_bufferSize, cusolverDnSgesvdjBatched_bufferSize,
                 cusolverDnDgesvdjBatched_bufferSize, cusolverDnCgesvdjBatched_bufferSize,
                 cusolverDnZgesvdjBatched_bufferSize);
NUMCU_SAME_TYPED(cusolverDnTgesvdjBatched, cusolverDnSgesvdjBatched, cusolverDnDgesvdjBatched,
                 cusolverDnCgesvdjBatched, cusolverDnZgesvdjBatched);

// cuFFT
NUMCU_SAME_VALUE(CUFFT_SUCCESS);
NUMCU_SAME_VALUE(CUFFT_INVALID_PLAN);
NUMCU_SAME_VALUE(CUFFT_ALLOC_FAILED);
NUMCU_SAME_VALUE(CUFFT_INVALID_TYPE);
NUMCU_SAME_VALUE(CUFFT_INVALID_VALUE);
NUMCU_SAME_VALUE(CUFFT_INTERNAL_ERROR);
NUMCU_SAME_VALUE(CUFFT_EXEC_FAILED);
NUMCU_SAME_VALUE(CUFFT_SETUP_FAILED);
NUMCU_SAME_VALUE(CUFFT_INVALID_SIZE);
NUMCU_SAME_VALUE(CUFFT_NOT_SUPPORTED);
static_assert(v::kCufftForward == CUFFT_FORWARD && v::kCufftInverse == CUFFT_INVERSE);
NUMCU_SAME_FUNCTION(cufftCreate);
NUMCU_SAME_FUNCTION(cufftDestroy);
NUMCU_SAME_FUNCTION(cufftSetAutoAllocation);
NUMCU_SAME_FUNCTION(cufftSetWorkArea);
NUMCU_SAME_FUNCTION(cufftSetStream);
NUMCU_SAME_FUNCTION(cufftXtMakePlanMany);
NUMCU_SAME_FUNCTION(cufftXtExec);

}  // namespace
