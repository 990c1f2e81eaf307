// numcu.linalg's decompositions, solves and determinants on the GPU: cuSOLVER (loaded at first
// use, as cuBLAS is: vendor_library.hpp) for single matrices and stacks of large ones, cuBLAS's
// and cuSOLVER's batched routines for stacks of medium ones, and numcu's own kernel
// (cuda/src/linalg_small.cu) for LU work on stacks of matrices of order up to 32 (16 for complex
// dtypes: linalg::small_lu_max), in one launch.
// numcu/linalg.py promotes dtypes, broadcasts stacks, handles empty arrays and composes the rest
// (norms, pinv, lstsq, ...); these functions take device arrays of one of float32, float64,
// complex64 and complex128 whose batch dimensions already agree.
//
// Layouts: the libraries are column-major. A C-ordered copy of A is A^T to them, so the LU
// routines work on that copy (factoring A^T, solving with its transpose); the others take a copy
// of A's transposed view (column-major A). Results whose column-major layout is NumPy's
// transposed are returned as transposed views of dense arrays, without another copy. Cholesky
// and eigh always ask cuSOLVER for the lower triangle, as PyTorch does: on an H200
// (bench_linalg_fft.py --quick) potrf of 8192^2 float32 took 13.8 ms on the upper triangle of a
// C-ordered copy (numcu then, and CuPy) and 8.9 ms in PyTorch, on the lower one of a
// column-major copy; syevd of 4096^2 float32 94.9 ms on the upper (numcu then) and 88.3 ms on
// the lower (CuPy and PyTorch). The triangle is the one difference between those calls.
//
// Synchronisation: solve, inv, cholesky, eigh, eigvalsh, svd, svdvals and eig wait for the GPU
// once, at the end, to read one int (the largest `info` code of the whole stack) and raise
// NumPy's LinAlgError where a matrix is singular, not positive definite, or did not converge, as
// NumPy does. det, slogdet and qr never wait.
#include "numcu/linalg.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "blas.hpp"
#include "execution.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "pipeline.hpp"
#include "vendor_library.hpp"

#if NUMCU_WITH_CUDA
#include "vendor_api.hpp"
#endif

namespace numcu::python {

namespace py = pybind11;

namespace gpu_linalg {
namespace {

using linalg::identity_cuda;
using linalg::lu_det_cuda;
using linalg::LuDet;
using linalg::pointer_array_cuda;

// The cuSOLVER routine svd uses for matrices outside small stacks (_linalg_svd_driver).
std::string svd_driver_name = "gesvdj";

#if NUMCU_WITH_CUDA

// cuBLAS's and cuSOLVER's names as their documentation spells them (numcu's declarations:
// vendor_api.hpp).
using namespace vendor;  // NOLINT(google-build-using-namespace)

// Raises numpy.linalg.LinAlgError (the GIL held).
[[noreturn]] void linalg_error(const std::string& what) {
  py::object cls = py::module_::import("numpy.linalg").attr("LinAlgError");
  PyErr_SetString(cls.ptr(), what.c_str());
  throw py::error_already_set();
}

// `v` with its last two axes swapped.
ArrayView swapped(ArrayView v) {
  const int nd = v.ndim;
  std::swap(v.shape[nd - 2], v.shape[nd - 1]);
  std::swap(v.strides[nd - 2], v.strides[nd - 1]);
  return v;
}

std::int64_t batch_count(const ArrayView& v) {
  std::int64_t b = 1;
  for (int d = 0; d < v.ndim - 2; ++d) b *= v.shape[d];
  return b;
}

// Whether the batch dimensions of `v` walk its matrices with one stride (bytes, in *stride).
bool one_batch_stride(const ArrayView& v, std::int64_t* stride) {
  std::int64_t s = 0, expect = 0;
  bool first = true;
  for (int d = v.ndim - 3; d >= 0; --d) {
    if (v.shape[d] == 1) continue;
    if (first) {
      s = v.strides[d];
      expect = s * v.shape[d];
      first = false;
    } else if (v.strides[d] != expect) {
      return false;
    } else {
      expect *= v.shape[d];
    }
  }
  *stride = s;
  return true;
}

bool supported(DType dt) {
  return dt == DType::float32 || dt == DType::float64 || dt == DType::complex64 ||
         dt == DType::complex128;
}

DType real_dtype(DType dt) {
  if (dt == DType::complex64) return DType::float32;
  if (dt == DType::complex128) return DType::float64;
  return dt;
}

// A stack of matrices, as numcu/linalg.py hands it over: a device array of a supported dtype
// with at least two dimensions.
const Operand& matrices(Call& call, py::handle obj, bool square) {
  const char* fname = call.fname();
  const Operand& x = call.array_input(obj);
  if (x.kind != Operand::Kind::device) {
    throw_value_error(std::string(fname) + ": the GPU path takes device arrays");
  }
  const ArrayView& v = x.view;
  if (!supported(v.dtype)) {
    throw_type_error(std::string(fname) + ": array type " + dtype_name(v.dtype) +
                     " is unsupported in linalg");
  }
  if (v.ndim < 2) {
    throw_value_error(std::string(fname) + ": " + std::to_string(v.ndim) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
  if (square && v.shape[v.ndim - 1] != v.shape[v.ndim - 2]) {
    throw_value_error(std::string(fname) + ": last 2 dimensions of the array must be square, not " +
                      shape_str(v.shape, v.ndim));
  }
  return x;
}

void int_sizes(const char* fname, std::int64_t a, std::int64_t b = 0, std::int64_t c = 0) {
  if (a > INT32_MAX || b > INT32_MAX || c > INT32_MAX) {
    throw_value_error(std::string(fname) +
                      ": matrices with a dimension (or a stack) of 2**31 or more are not "
                      "supported on the GPU");
  }
}

// The results of a call: new device arrays on the call's device and stream, handed back to
// their home streams when the work is queued.
class LinalgOutputs {
 public:
  explicit LinalgOutputs(const Exec& ex) : ex_(ex) {}
  NdArray& make(DType dt, int nd, const std::int64_t* shape) {
    arrays_.push_back(NdArray::empty(dt, nd, shape, ex_.device, ex_.stream));
    return arrays_.back();
  }
  void finish() {
    for (const NdArray& a : arrays_) finish_streams(ex_, nullptr, 0, a.allocation().get());
  }

 private:
  const Exec& ex_;
  std::deque<NdArray> arrays_;
};

py::object as_object(const NdArray& a) { return py::cast(a); }
py::object transposed_object(const NdArray& a) { return py::cast(a.with_view(swapped(a.view()))); }

// Reads the device int a call's `info` codes were reduced to: the call's one synchronisation.
int read_flag(const int* flag, Stream stream) {
  int host = 0;
  cuda::copy_async(&host, flag, sizeof host, stream);
  cuda::synchronize(stream);
  return host;
}

// ---------------------------------------------------------------------------------------------
// cuSOLVER, loaded at first use

struct SolverLibrary {
  VendorLibrary so{{"cuSOLVER", "libcusolver.so.", kCusolverMajor, "NUMCU_CUSOLVER", "cusolver",
                    "nvidia-cusolver", "linear algebra on the GPU (numcu.linalg) needs it"}};
  std::mutex lock;
  cusolverDnHandle_t handles[64] = {};
  cusolverDnParams_t params[64] = {};
  std::unordered_map<std::string, void*> functions;
};

SolverLibrary& solver_library() {
  static auto* lib = new SolverLibrary();  // never destroyed: cuSOLVER outlives Python's exit
  return *lib;
}

// Loads cuBLAS (cuSOLVER's dependency, whose batched routines numcu.linalg calls too) and
// cuSOLVER, with the GIL held.
void load_solver(const char* fname) {
  load_cublas(fname);
  solver_library().so.open(fname);
}

const char* solver_status(cusolverStatus_t st) {
  switch (st) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default:
      return "cuSOLVER error";
  }
}

// cuSOLVER on the call's device and stream, its lock held while the session lives (a handle
// is one stream at a time).
class Solver {
 public:
  Solver(const Exec& ex, const char* fname)
      : lib_(solver_library()), guard_(lib_.lock), fname_(fname) {
    if (ex.device < 0 || ex.device >= 64) throw_value_error(std::string(fname) + ": device index");
    cusolverDnHandle_t& h = lib_.handles[ex.device];
    if (h == nullptr) {
      check(fn<vendor::cusolverDnCreate*>("cusolverDnCreate")(&h), "cusolverDnCreate");
      check(fn<vendor::cusolverDnCreateParams*>("cusolverDnCreateParams")(&lib_.params[ex.device]),
            "cusolverDnCreateParams");
    }
    handle = h;
    params = lib_.params[ex.device];
    check(fn<vendor::cusolverDnSetStream*>("cusolverDnSetStream")(
              h, static_cast<cudaStream_t>(ex.stream)),
          "cusolverDnSetStream");
  }

  // A function by name, or null where this cuSOLVER lacks it.
  void* find(const std::string& name) {
    auto it = lib_.functions.find(name);
    if (it != lib_.functions.end()) return it->second;
    void* f = lib_.so.find(name.c_str());
    lib_.functions.emplace(name, f);
    return f;
  }
  template <class F>
  F fn(const std::string& name) {
    void* f = find(name);
    if (f == nullptr) lib_.so.require(name.c_str(), fname_);
    return reinterpret_cast<F>(f);
  }
  void check(cusolverStatus_t st, const char* what) const {
    if (st == CUSOLVER_STATUS_SUCCESS) return;
    throw Error(
        st == CUSOLVER_STATUS_ALLOC_FAILED ? ErrorKind::out_of_memory : ErrorKind::cuda_error,
        std::string(fname_) + ": " + what + " failed: " + solver_status(st));
  }
  const std::string& path() { return lib_.so.open(fname_); }

  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;

 private:
  SolverLibrary& lib_;
  std::lock_guard<std::mutex> guard_;
  const char* fname_;
};

void check_blas(int st, const char* fname, const char* what) {
  if (st == CUBLAS_STATUS_SUCCESS) return;
  throw Error(st == CUBLAS_STATUS_ALLOC_FAILED ? ErrorKind::out_of_memory : ErrorKind::cuda_error,
              std::string(fname) + ": " + what + " failed: " + cublas_status_string(st));
}

// The library types of numcu's four dtypes.
template <class T>
struct Lib;
template <>
struct Lib<float> {
  using type = float;
  using real = float;
  static constexpr char letter = 'S';
  static constexpr cudaDataType data = CUDA_R_32F, real_data = CUDA_R_32F;
};
template <>
struct Lib<double> {
  using type = double;
  using real = double;
  static constexpr char letter = 'D';
  static constexpr cudaDataType data = CUDA_R_64F, real_data = CUDA_R_64F;
};
template <>
struct Lib<complex64> {
  using type = cuComplex;
  using real = float;
  static constexpr char letter = 'C';
  static constexpr cudaDataType data = CUDA_C_32F, real_data = CUDA_R_32F;
};
template <>
struct Lib<complex128> {
  using type = cuDoubleComplex;
  using real = double;
  static constexpr char letter = 'Z';
  static constexpr cudaDataType data = CUDA_C_64F, real_data = CUDA_R_64F;
};
template <class T>
using Cu = typename Lib<T>::type;
template <class T>
using CuReal = typename Lib<T>::real;
template <class T>
constexpr bool is_cplx = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

// The typed routines, by name: "cusolverDn" or "cublas", the type's letter, the stem (real and
// complex stems differ for the symmetric and orthogonal ones).
template <class T>
std::string typed(const char* prefix, const char* real_stem, const char* complex_stem = nullptr) {
  return std::string(prefix) + Lib<T>::letter +
         (is_cplx<T> && complex_stem ? complex_stem : real_stem);
}

// Their types, for numcu's element type T (vendor_api.hpp declares them for the libraries' own,
// and tests/vendor_api_check.cpp compares those with the libraries' headers).
template <class T>
using GetrfBatched = vendor::cublasTgetrfBatched<Cu<T>>*;
template <class T>
using GetrsBatched = vendor::cublasTgetrsBatched<Cu<T>>*;
template <class T>
using GetriBatched = vendor::cublasTgetriBatched<Cu<T>>*;
template <class T>
using PotrfBatched = vendor::cusolverDnTpotrfBatched<Cu<T>>*;
template <class T>
using OrgqrSize = vendor::cusolverDnTorgqr_bufferSize<Cu<T>>*;
template <class T>
using Orgqr = vendor::cusolverDnTorgqr<Cu<T>>*;
template <class T>
using SyevjBatchedSize = vendor::cusolverDnTsyevjBatched_bufferSize<Cu<T>>*;
template <class T>
using SyevjBatched = vendor::cusolverDnTsyevjBatched<Cu<T>>*;
template <class T>
using GesvdjSize = vendor::cusolverDnTgesvdj_bufferSize<Cu<T>>*;
template <class T>
using Gesvdj = vendor::cusolverDnTgesvdj<Cu<T>>*;
template <class T>
using GesvdjBatchedSize = vendor::cusolverDnTgesvdjBatched_bufferSize<Cu<T>>*;
template <class T>
using GesvdjBatched = vendor::cusolverDnTgesvdjBatched<Cu<T>>*;

// The 64-bit API's routines (one per operation, the dtype an argument).
#define NUMCU_SOLVER_FN(s, name) (s).fn<vendor::name*>(#name)

template <class F>
void on_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::float32:
      return f(type_tag<float>{});
    case DType::float64:
      return f(type_tag<double>{});
    case DType::complex64:
      return f(type_tag<complex64>{});
    case DType::complex128:
      return f(type_tag<complex128>{});
    default:
      throw_type_error("numcu.linalg: unsupported dtype");
  }
}

// Device memory for a call's work, from the stream-ordered pool (freed when the call returns,
// in stream order), and host workspace where the 64-bit API asks for it.
struct Work {
  Scratch& scratch;
  const Exec& ex;
  template <class T = char>
  T* device(std::size_t count) {
    return reinterpret_cast<T*>(scratch.allocate(ex, std::max<std::size_t>(count, 1) * sizeof(T)));
  }
  std::vector<char> host;
  char* host_bytes(std::size_t n) {
    if (host.size() < n) host.resize(n);
    return host.data();
  }
};

// Matrices of order up to this many go to the batched routines when they come in stacks; larger
// ones are factored one after another (the batched routines are written for small matrices).
constexpr std::int64_t kBatchedMax = 128;

// ---------------------------------------------------------------------------------------------
// LU: solve, inv, det, slogdet

// Factors `batch` C-ordered n x n matrices at `a` (A^T to the libraries) and then, with
// `rhs` (solve: column-major n x k right-hand sides, trans T; inverse: null, the result to
// `inverse`, C order), solves; or, with `det` set, writes determinants. `info` gets each
// matrix's getrf code. Runs without the GIL.
template <class T>
void lu_large(const Exec& ex, Work& w, const char* fname, char* a, std::int64_t n,
              std::int64_t batch, char* rhs, std::int64_t k, char* inverse, const LuDet* det,
              int* info) {
  using C = Cu<T>;
  const cudaDataType dt = Lib<T>::data;
  const std::int64_t stride = n * n;
  const bool batched = batch > 1 && n <= kBatchedMax;
  if (batched) {
    int_sizes(fname, n, batch, k);
    CublasSession s(ex.device, ex.stream, fname);
    auto handle = static_cast<cublasHandle_t>(s.handle());
    C** ptrs = w.device<C*>(static_cast<std::size_t>(batch));
    pointer_array_cuda(reinterpret_cast<void**>(ptrs), a, stride * sizeof(T), batch, ex.stream);
    int* piv = w.device<int>(static_cast<std::size_t>(batch * n));
    const int in = static_cast<int>(n), ib = static_cast<int>(batch);
    check_blas(
        reinterpret_cast<GetrfBatched<T>>(s.function(typed<T>("cublas", "getrfBatched").c_str()))(
            handle, in, ptrs, in, piv, info, ib),
        fname, "getrfBatched");
    if (det != nullptr) {
      LuDet p = *det;
      p.batch = batch;
      p.n = n;
      p.lda = n;
      p.batch_stride = stride;
      p.lu = a;
      p.pivots = piv;
      p.pivots64 = false;
      p.pivot_stride = n;
      lu_det_cuda(dtype_of_v<T>, p, ex.stream);
    } else if (inverse != nullptr) {
      C** out = w.device<C*>(static_cast<std::size_t>(batch));
      pointer_array_cuda(reinterpret_cast<void**>(out), inverse, stride * sizeof(T), batch,
                         ex.stream);
      int* info2 = w.device<int>(static_cast<std::size_t>(batch));
      check_blas(
          reinterpret_cast<GetriBatched<T>>(s.function(typed<T>("cublas", "getriBatched").c_str()))(
              handle, in, ptrs, in, piv, out, in, info2, ib),
          fname, "getriBatched");
    } else {
      C** bptrs = w.device<C*>(static_cast<std::size_t>(batch));
      pointer_array_cuda(reinterpret_cast<void**>(bptrs), rhs, n * k * sizeof(T), batch, ex.stream);
      int host_info = 0;
      check_blas(
          reinterpret_cast<GetrsBatched<T>>(s.function(typed<T>("cublas", "getrsBatched").c_str()))(
              handle, CUBLAS_OP_T, in, static_cast<int>(k), ptrs, in, piv, bptrs, in, &host_info,
              ib),
          fname, "getrsBatched");
    }
    return;
  }
  Solver s(ex, fname);
  std::size_t dev_bytes = 0, host_bytes = 0;
  s.check(NUMCU_SOLVER_FN(s, cusolverDnXgetrf_bufferSize)(s.handle, s.params, n, n, dt, a, n, dt,
                                                          &dev_bytes, &host_bytes),
          "cusolverDnXgetrf_bufferSize");
  char* ws = w.device(dev_bytes);
  char* hws = w.host_bytes(host_bytes);
  std::int64_t* piv = w.device<std::int64_t>(static_cast<std::size_t>(det ? batch * n : n));
  int* rs_info = w.device<int>(1);
  if (inverse != nullptr) identity_cuda(dtype_of_v<T>, inverse, batch, n, ex.stream);
  for (std::int64_t i = 0; i < batch; ++i) {
    char* ai = a + i * stride * static_cast<std::int64_t>(sizeof(T));
    std::int64_t* pi = det ? piv + i * n : piv;
    s.check(NUMCU_SOLVER_FN(s, cusolverDnXgetrf)(s.handle, s.params, n, n, dt, ai, n, pi, dt, ws,
                                                 dev_bytes, hws, host_bytes, info + i),
            "cusolverDnXgetrf");
    if (det != nullptr) continue;
    // Solve: (A^T)^T X = B; inverse: A^T Y = I, whose column-major Y is A^-1 in C order.
    char* bi = inverse != nullptr ? inverse + i * stride * static_cast<std::int64_t>(sizeof(T))
                                  : rhs + i * n * k * static_cast<std::int64_t>(sizeof(T));
    s.check(NUMCU_SOLVER_FN(s, cusolverDnXgetrs)(
                s.handle, s.params, inverse != nullptr ? CUBLAS_OP_N : CUBLAS_OP_T, n,
                inverse != nullptr ? n : k, dt, ai, n, pi, dt, bi, n, rs_info),
            "cusolverDnXgetrs");
  }
  if (det != nullptr) {
    LuDet p = *det;
    p.batch = batch;
    p.n = n;
    p.lda = n;
    p.batch_stride = stride;
    p.lu = a;
    p.pivots = piv;
    p.pivots64 = true;
    p.pivot_stride = n;
    lu_det_cuda(dtype_of_v<T>, p, ex.stream);
  }
}

// The small kernel's view of a stack: element strides, one batch stride; false where the
// array's layout has none (the caller copies it to a dense one).
bool small_layout(const ArrayView& v, std::int64_t* batch, std::int64_t* row, std::int64_t* col) {
  const int is = itemsize(v.dtype), nd = v.ndim;
  std::int64_t b = 0;
  if (!one_batch_stride(v, &b)) return false;
  const std::int64_t r = v.strides[nd - 2], c = v.strides[nd - 1];
  if (b % is != 0 || r % is != 0 || c % is != 0) return false;
  *batch = b / is;
  *row = r / is;
  *col = c / is;
  return true;
}

ArrayView dense_copy(Call& call, const ArrayView& v) {
  const ArrayView d = call.scratch_view(v.dtype, v.ndim, v.shape, nullptr);
  run_cast(call.exec(), d, v, call.fname());
  return d;
}

// solve(a, b): a (..., n, n), b (..., n, k), one batch shape and dtype.
py::object solve(py::handle a_obj, py::handle b_obj) {
  const char* fname = "numcu.linalg.solve";
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, true);
  const Operand& b = matrices(call, b_obj, false);
  const ArrayView &av = a.view, &bv = b.view;
  const int nd = av.ndim;
  if (bv.ndim != nd || bv.dtype != av.dtype || !std::equal(av.shape, av.shape + nd - 2, bv.shape) ||
      bv.shape[nd - 2] != av.shape[nd - 1]) {
    throw_value_error(std::string(fname) + ": operands of shapes " + shape_str(av.shape, nd) +
                      " and " + shape_str(bv.shape, bv.ndim) + " and dtypes " +
                      dtype_name(av.dtype) + ", " + dtype_name(bv.dtype) + " do not make a solve");
  }
  const DType dt = av.dtype;
  const std::int64_t n = av.shape[nd - 1], k = bv.shape[nd - 1], batch = batch_count(av);
  const bool small = linalg::small_lu_fits(dt, std::max(n, k));
  if (!small && batch * n * k > 0) {
    load_solver(fname);
  }
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt), B = call.prepare(b, dt);
  LinalgOutputs out(ex);
  std::int64_t shape[kMaxDims];
  std::copy(av.shape, av.shape + nd, shape);
  shape[nd - 1] = k;
  py::object result;
  int singular = 0;
  if (batch * n * k == 0) {
    result = as_object(out.make(dt, nd, shape));
  } else if (small) {
    NdArray& x = out.make(dt, nd, shape);
    linalg::SmallLu p;
    p.mode = linalg::SmallLuMode::solve;
    p.batch = batch;
    p.n = static_cast<int>(n);
    p.nrhs = static_cast<int>(k);
    if (!small_layout(A, &p.a_batch, &p.a_row, &p.a_col)) {
      A = dense_copy(call, A);
      small_layout(A, &p.a_batch, &p.a_row, &p.a_col);
    }
    if (!small_layout(B, &p.b_batch, &p.b_row, &p.b_col)) {
      B = dense_copy(call, B);
      small_layout(B, &p.b_batch, &p.b_row, &p.b_col);
    }
    p.a = A.data;
    p.b = B.data;
    p.out0 = x.view().data;
    int* flag = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int)));
    p.info = flag;
    call.run([&] {
      linalg::info_max_cuda(flag, 0, flag, ex.stream);
      linalg::small_lu_cuda(dt, p, ex.stream);
      singular = read_flag(flag, ex.stream);
    });
    result = as_object(x);
  } else {
    std::int64_t tshape[kMaxDims];
    std::copy(shape, shape + nd, tshape);
    std::swap(tshape[nd - 2], tshape[nd - 1]);
    NdArray& xt = out.make(dt, nd, tshape);  // column-major X: (..., k, n) in C order
    const ArrayView lu = call.scratch_view(dt, nd, av.shape, nullptr);
    int* info = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int) * (batch + 1)));
    int* flag = info + batch;
    Work w{call.scratch(), ex, {}};
    call.run([&] {
      run_cast(ex, lu, A, fname);
      run_cast(ex, xt.view(), swapped(B), fname);
      on_dtype(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        lu_large<T>(ex, w, fname, lu.data, n, batch, xt.view().data, k, nullptr, nullptr, info);
      });
      linalg::info_max_cuda(info, batch, flag, ex.stream);
      singular = read_flag(flag, ex.stream);
    });
    result = transposed_object(xt);
  }
  out.finish();
  call.finish(true);
  if (singular > 0) linalg_error(std::string(fname) + ": Singular matrix");
  return result;
}

py::object inv(py::handle a_obj) {
  const char* fname = "numcu.linalg.inv";
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, true);
  const ArrayView& av = a.view;
  const int nd = av.ndim;
  const DType dt = av.dtype;
  const std::int64_t n = av.shape[nd - 1], batch = batch_count(av);
  const bool small = linalg::small_lu_fits(dt, n);
  if (!small && batch * n > 0) load_solver(fname);
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt);
  LinalgOutputs out(ex);
  NdArray& x = out.make(dt, nd, av.shape);
  int singular = 0;
  if (batch * n > 0 && small) {
    linalg::SmallLu p;
    p.mode = linalg::SmallLuMode::inverse;
    p.batch = batch;
    p.n = static_cast<int>(n);
    if (!small_layout(A, &p.a_batch, &p.a_row, &p.a_col)) {
      A = dense_copy(call, A);
      small_layout(A, &p.a_batch, &p.a_row, &p.a_col);
    }
    p.a = A.data;
    p.out0 = x.view().data;
    int* flag = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int)));
    p.info = flag;
    call.run([&] {
      linalg::info_max_cuda(flag, 0, flag, ex.stream);
      linalg::small_lu_cuda(dt, p, ex.stream);
      singular = read_flag(flag, ex.stream);
    });
  } else if (batch * n > 0) {
    const ArrayView lu = call.scratch_view(dt, nd, av.shape, nullptr);
    int* info = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int) * (batch + 1)));
    int* flag = info + batch;
    Work w{call.scratch(), ex, {}};
    call.run([&] {
      run_cast(ex, lu, A, fname);
      on_dtype(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        lu_large<T>(ex, w, fname, lu.data, n, batch, nullptr, 0, x.view().data, nullptr, info);
      });
      linalg::info_max_cuda(info, batch, flag, ex.stream);
      singular = read_flag(flag, ex.stream);
    });
  }
  out.finish();
  call.finish(true);
  if (singular > 0) linalg_error(std::string(fname) + ": Singular matrix");
  return as_object(x);
}

// det (log false) or (sign, logabsdet) (log true) of a (..., n, n) stack, n >= 1. No wait.
py::object det(py::handle a_obj, bool log) {
  const char* fname = log ? "numcu.linalg.slogdet" : "numcu.linalg.det";
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, true);
  const ArrayView& av = a.view;
  const int nd = av.ndim;
  const DType dt = av.dtype;
  const std::int64_t n = av.shape[nd - 1], batch = batch_count(av);
  if (n == 0) throw_value_error(std::string(fname) + ": the GPU path takes matrices of order >= 1");
  const bool small = linalg::small_lu_fits(dt, n);
  if (!small && batch > 0) load_solver(fname);
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt);
  LinalgOutputs out(ex);
  NdArray& d0 = out.make(dt, nd - 2, av.shape);
  NdArray* d1 = log ? &out.make(real_dtype(dt), nd - 2, av.shape) : nullptr;
  if (batch > 0 && small) {
    linalg::SmallLu p;
    p.mode = log ? linalg::SmallLuMode::slogdet : linalg::SmallLuMode::det;
    p.batch = batch;
    p.n = static_cast<int>(n);
    if (!small_layout(A, &p.a_batch, &p.a_row, &p.a_col)) {
      A = dense_copy(call, A);
      small_layout(A, &p.a_batch, &p.a_row, &p.a_col);
    }
    p.a = A.data;
    p.out0 = d0.view().data;
    p.out1 = d1 ? d1->view().data : nullptr;
    call.run([&] { linalg::small_lu_cuda(dt, p, ex.stream); });
  } else if (batch > 0) {
    const ArrayView lu = call.scratch_view(dt, nd, av.shape, nullptr);
    int* info = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int) * batch));
    Work w{call.scratch(), ex, {}};
    linalg::LuDet p;
    p.log = log;
    p.out0 = d0.view().data;
    p.out1 = d1 ? d1->view().data : nullptr;
    call.run([&] {
      run_cast(ex, lu, A, fname);
      on_dtype(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        lu_large<T>(ex, w, fname, lu.data, n, batch, nullptr, 0, nullptr, &p, info);
      });
    });
  }
  out.finish();
  call.finish(true);
  if (log) return py::make_tuple(as_object(d0), as_object(*d1));
  return as_object(d0);
}

// ---------------------------------------------------------------------------------------------
// Cholesky, QR, eigh, SVD, eig

py::object cholesky(py::handle a_obj, bool upper) {
  const char* fname = "numcu.linalg.cholesky";
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, true);
  const ArrayView& av = a.view;
  const int nd = av.ndim;
  const DType dt = av.dtype;
  const std::int64_t n = av.shape[nd - 1], batch = batch_count(av);
  if (batch * n > 0) load_solver(fname);
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt);
  LinalgOutputs out(ex);
  NdArray& r = out.make(dt, nd, av.shape);
  int failed = 0;
  if (batch * n > 0) {
    int* info = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int) * (batch + 1)));
    int* flag = info + batch;
    Work w{call.scratch(), ex, {}};
    char* data = r.view().data;
    // cuSOLVER factors the lower triangle (see the file's comment) of column-major matrices.
    // upper=False: a copy of A's transposed view is column-major A, read from its lower triangle
    // as NumPy reads it, and L (column-major) is returned as a transposed view. upper=True: a
    // C-ordered copy is column-major A^T = conj(A), whose lower triangle is A's upper one, and
    // its lower factor conj(U^H) read in C order is U. Either way the strict lower triangle of
    // the C-ordered buffer is zeroed.
    const cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;
    call.run([&] {
      run_cast(ex, upper ? r.view() : swapped(r.view()), A, fname);
      on_dtype(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        Solver s(ex, fname);
        if (batch > 1 && n <= kBatchedMax) {
          int_sizes(fname, n, batch);
          Cu<T>** ptrs = w.device<Cu<T>*>(static_cast<std::size_t>(batch));
          pointer_array_cuda(reinterpret_cast<void**>(ptrs), data, n * n * sizeof(T), batch,
                             ex.stream);
          s.check(s.fn<PotrfBatched<T>>(typed<T>("cusolverDn", "potrfBatched"))(
                      s.handle, uplo, static_cast<int>(n), ptrs, static_cast<int>(n), info,
                      static_cast<int>(batch)),
                  "potrfBatched");
        } else {
          const cudaDataType cdt = Lib<T>::data;
          std::size_t dev = 0, host = 0;
          s.check(NUMCU_SOLVER_FN(s, cusolverDnXpotrf_bufferSize)(s.handle, s.params, uplo, n, cdt,
                                                                  data, n, cdt, &dev, &host),
                  "cusolverDnXpotrf_bufferSize");
          char* ws = w.device(dev);
          char* hws = w.host_bytes(host);
          for (std::int64_t i = 0; i < batch; ++i) {
            s.check(NUMCU_SOLVER_FN(s, cusolverDnXpotrf)(
                        s.handle, s.params, uplo, n, cdt,
                        data + i * n * n * static_cast<std::int64_t>(sizeof(T)), n, cdt, ws, dev,
                        hws, host, info + i),
                    "cusolverDnXpotrf");
          }
        }
      });
      linalg::zero_triangle_cuda(dt, data, batch, n, n, n * n, false, ex.stream);
      linalg::info_max_cuda(info, batch, flag, ex.stream);
      failed = read_flag(flag, ex.stream);
    });
  }
  out.finish();
  call.finish(true);
  if (failed > 0) linalg_error(std::string(fname) + ": Matrix is not positive definite");
  return upper ? as_object(r) : transposed_object(r);
}

// qr(a, mode): mode "reduced" (Q (..., m, k), R (..., k, n)), "complete" (Q (..., m, m),
// R (..., m, n)) or "r" (R (..., k, n) alone); k = min(m, n). Stacks are factored one matrix after
// another (cuSOLVER has no batched QR). No wait.
py::object qr(py::handle a_obj, const std::string& mode) {
  const char* fname = "numcu.linalg.qr";
  if (mode != "reduced" && mode != "complete" && mode != "r") {
    throw_value_error(std::string(fname) + ": mode must be 'reduced', 'complete' or 'r', not '" +
                      mode + "'");
  }
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, false);
  const ArrayView& av = a.view;
  const int nd = av.ndim;
  const DType dt = av.dtype;
  const std::int64_t m = av.shape[nd - 2], n = av.shape[nd - 1], k = std::min(m, n);
  const std::int64_t batch = batch_count(av);
  const bool complete = mode == "complete";
  const std::int64_t qcols = complete ? m : k, rrows = complete ? m : k;
  // The factored matrices, column-major m x bcols: Q's columns are made in place.
  const std::int64_t bcols = complete ? std::max(m, n) : n;
  if (batch * m * n == 0) {
    throw_value_error(std::string(fname) + ": the GPU path takes non-empty stacks");
  }
  load_solver(fname);
  int_sizes(fname, m, bcols);
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt);
  LinalgOutputs out(ex);
  std::int64_t shape[kMaxDims];
  std::copy(av.shape, av.shape + nd, shape);
  shape[nd - 2] = bcols;
  shape[nd - 1] = m;
  NdArray& buf = out.make(dt, nd, shape);  // C order (..., bcols, m): column-major m x bcols
  shape[nd - 2] = rrows;
  shape[nd - 1] = n;
  NdArray& r = out.make(dt, nd, shape);
  // Q: the column-major m x qcols start of each buffer, as a C-ordered (..., m, qcols) view.
  ArrayView qv = buf.view();
  qv.shape[nd - 2] = m;
  qv.shape[nd - 1] = qcols;
  qv.strides[nd - 2] = itemsize(dt);
  qv.strides[nd - 1] = m * itemsize(dt);
  Work w{call.scratch(), ex, {}};
  ArrayView head = buf.view();  // the first n columns take A
  head.shape[nd - 2] = n;
  // R: the upper triangle of the first rrows (<= m) rows of each factored matrix.
  ArrayView rsrc = qv;
  rsrc.shape[nd - 2] = rrows;
  rsrc.shape[nd - 1] = n;
  call.run([&] {
    run_cast(ex, head, swapped(A), fname);
    on_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const cudaDataType cdt = Lib<T>::data;
      Solver s(ex, fname);
      const std::int64_t bstride = bcols * m * static_cast<std::int64_t>(sizeof(T));
      T* tau = w.device<T>(static_cast<std::size_t>(batch * k));
      int* info = w.device<int>(1);
      std::size_t dev = 0, host = 0;
      s.check(NUMCU_SOLVER_FN(s, cusolverDnXgeqrf_bufferSize)(
                  s.handle, s.params, m, n, cdt, buf.view().data, m, cdt, tau, cdt, &dev, &host),
              "cusolverDnXgeqrf_bufferSize");
      char* ws = w.device(dev);
      char* hws = w.host_bytes(host);
      for (std::int64_t i = 0; i < batch; ++i) {
        s.check(NUMCU_SOLVER_FN(s, cusolverDnXgeqrf)(s.handle, s.params, m, n, cdt,
                                                     buf.view().data + i * bstride, m, cdt,
                                                     tau + i * k, cdt, ws, dev, hws, host, info),
                "cusolverDnXgeqrf");
      }
      run_cast(ex, r.view(), rsrc, fname);
      linalg::zero_triangle_cuda(dt, r.view().data, batch, rrows, n, rrows * n, false, ex.stream);
      if (mode == "r") return;
      // Q's columns past n (complete mode, m > n) are made by orgqr from the identity's.
      int lwork = 0;
      const auto size_fn =
          s.fn<OrgqrSize<T>>(typed<T>("cusolverDn", "orgqr_bufferSize", "ungqr_bufferSize"));
      const auto orgqr = s.fn<Orgqr<T>>(typed<T>("cusolverDn", "orgqr", "ungqr"));
      const int im = static_cast<int>(m), iq = static_cast<int>(qcols), ik = static_cast<int>(k);
      s.check(size_fn(s.handle, im, iq, ik, reinterpret_cast<Cu<T>*>(buf.view().data), im,
                      reinterpret_cast<Cu<T>*>(tau), &lwork),
              "orgqr_bufferSize");
      Cu<T>* work = w.device<Cu<T>>(static_cast<std::size_t>(lwork));
      for (std::int64_t i = 0; i < batch; ++i) {
        s.check(orgqr(s.handle, im, iq, ik, reinterpret_cast<Cu<T>*>(buf.view().data + i * bstride),
                      im, reinterpret_cast<Cu<T>*>(tau + i * k), work, lwork, info),
                "orgqr");
      }
    });
  });
  out.finish();
  call.finish(true);
  if (mode == "r") return as_object(r);
  return py::make_tuple(py::cast(buf.with_view(qv)), as_object(r));
}

// eigh (vectors) or eigvalsh of a non-empty (..., n, n) stack, from its lower triangle as
// NumPy's UPLO='L': eigenvalues ascending (..., n) and eigenvectors as columns.
py::object eigh(py::handle a_obj, bool vectors) {
  const char* fname = vectors ? "numcu.linalg.eigh" : "numcu.linalg.eigvalsh";
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, true);
  const ArrayView& av = a.view;
  const int nd = av.ndim;
  const DType dt = av.dtype;
  const std::int64_t n = av.shape[nd - 1], batch = batch_count(av);
  if (batch * n == 0)
    throw_value_error(std::string(fname) + ": the GPU path takes non-empty stacks");
  load_solver(fname);
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt);
  LinalgOutputs out(ex);
  NdArray& wv = out.make(real_dtype(dt), nd - 1, av.shape);
  NdArray* vecs = vectors ? &out.make(dt, nd, av.shape) : nullptr;
  const ArrayView vbuf = vecs ? vecs->view() : call.scratch_view(dt, nd, av.shape, nullptr);
  int failed = 0;
  int* info = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int) * (batch + 1)));
  int* flag = info + batch;
  Work w{call.scratch(), ex, {}};
  call.run([&] {
    // A copy of A's transposed view: column-major A, read from its lower triangle (NumPy's
    // UPLO='L', and the triangle cuSOLVER's syevd is faster on: see the file's comment); the
    // eigenvectors come back column-major in the same buffer.
    run_cast(ex, swapped(vbuf), A, fname);
    on_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      Solver s(ex, fname);
      const cusolverEigMode_t jobz =
          vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
      const cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;
      const cudaDataType cdt = Lib<T>::data, rdt = Lib<T>::real_data;
      char* data = vbuf.data;
      char* wdata = wv.view().data;
      if (batch > 1 && n <= 32) {
        int_sizes(fname, n, batch);
        syevjInfo_t params = nullptr;
        s.check(NUMCU_SOLVER_FN(s, cusolverDnCreateSyevjInfo)(&params), "CreateSyevjInfo");
        int lwork = 0;
        const int in = static_cast<int>(n), ib = static_cast<int>(batch);
        cusolverStatus_t st = s.fn<SyevjBatchedSize<T>>(
            typed<T>("cusolverDn", "syevjBatched_bufferSize", "heevjBatched_bufferSize"))(
            s.handle, jobz, uplo, in, reinterpret_cast<Cu<T>*>(data), in,
            reinterpret_cast<CuReal<T>*>(wdata), &lwork, params, ib);
        if (st == CUSOLVER_STATUS_SUCCESS) {
          Cu<T>* work = w.device<Cu<T>>(static_cast<std::size_t>(lwork));
          st = s.fn<SyevjBatched<T>>(typed<T>("cusolverDn", "syevjBatched", "heevjBatched"))(
              s.handle, jobz, uplo, in, reinterpret_cast<Cu<T>*>(data), in,
              reinterpret_cast<CuReal<T>*>(wdata), work, lwork, info, params, ib);
        }
        NUMCU_SOLVER_FN(s, cusolverDnDestroySyevjInfo)(params);
        s.check(st, "syevjBatched");
        return;
      }
      std::size_t dev = 0, host = 0;
      const auto batched_size = s.find("cusolverDnXsyevBatched_bufferSize");
      const auto batched = s.find("cusolverDnXsyevBatched");
      if (batch > 1 && n <= kBatchedMax && batched_size != nullptr && batched != nullptr) {
        s.check(reinterpret_cast<vendor::cusolverDnXsyevBatched_bufferSize*>(batched_size)(
                    s.handle, s.params, jobz, uplo, n, cdt, data, n, rdt, wdata, cdt, &dev, &host,
                    batch),
                "cusolverDnXsyevBatched_bufferSize");
        char* ws = w.device(dev);
        char* hws = w.host_bytes(host);
        s.check(reinterpret_cast<vendor::cusolverDnXsyevBatched*>(batched)(
                    s.handle, s.params, jobz, uplo, n, cdt, data, n, rdt, wdata, cdt, ws, dev, hws,
                    host, info, batch),
                "cusolverDnXsyevBatched");
        return;
      }
      s.check(NUMCU_SOLVER_FN(s, cusolverDnXsyevd_bufferSize)(
                  s.handle, s.params, jobz, uplo, n, cdt, data, n, rdt, wdata, cdt, &dev, &host),
              "cusolverDnXsyevd_bufferSize");
      char* ws = w.device(dev);
      char* hws = w.host_bytes(host);
      const std::int64_t is = sizeof(T), rs = sizeof(CuReal<T>);
      for (std::int64_t i = 0; i < batch; ++i) {
        s.check(NUMCU_SOLVER_FN(s, cusolverDnXsyevd)(
                    s.handle, s.params, jobz, uplo, n, cdt, data + i * n * n * is, n, rdt,
                    wdata + i * n * rs, cdt, ws, dev, hws, host, info + i),
                "cusolverDnXsyevd");
      }
    });
    linalg::info_max_cuda(info, batch, flag, ex.stream);
    failed = read_flag(flag, ex.stream);
  });
  out.finish();
  call.finish(true);
  if (failed > 0) linalg_error(std::string(fname) + ": Eigenvalues did not converge");
  if (!vectors) return as_object(wv);
  return py::make_tuple(as_object(wv), transposed_object(*vecs));
}

// svd (compute_uv: (U, S, Vh)) or svdvals (S) of a non-empty (..., m, n) stack. Stacks of
// matrices up to 32 x 32: cuSOLVER's batched Jacobi SVD; others one after another, by Jacobi
// (gesvdj, the default) or by QR iteration (gesvd), as _linalg_svd_driver chooses.
py::object svd(py::handle a_obj, bool full, bool compute_uv) {
  const char* fname = compute_uv ? "numcu.linalg.svd" : "numcu.linalg.svdvals";
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, false);
  const ArrayView& av = a.view;
  const int nd = av.ndim;
  const DType dt = av.dtype;
  const std::int64_t m = av.shape[nd - 2], n = av.shape[nd - 1], k = std::min(m, n);
  const std::int64_t batch = batch_count(av);
  if (batch * k == 0)
    throw_value_error(std::string(fname) + ": the GPU path takes non-empty stacks");
  const bool batched = batch > 1 && m <= 32 && n <= 32;
  const bool jacobi = batched || svd_driver_name == "gesvdj";
  load_solver(fname);
  int_sizes(fname, m, n, batched ? batch : 0);
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt);
  LinalgOutputs out(ex);
  std::int64_t shape[kMaxDims];
  std::copy(av.shape, av.shape + nd, shape);
  shape[nd - 2] = k;
  NdArray& sv = out.make(real_dtype(dt), nd - 1, shape);
  // The factored copy: column-major A (m x n, from A's transposed view) for Jacobi and for gesvd
  // with m >= n; column-major A^T (n x m, a plain copy) for gesvd with m < n, whose U and V^H
  // read in C order are A's V^H and U (see the file's comment).
  const bool flip = !jacobi && m < n;
  const std::int64_t rows = flip ? n : m, cols = flip ? m : n;  // of the factored matrix
  shape[nd - 2] = cols;
  shape[nd - 1] = rows;
  const ArrayView fac = call.scratch_view(dt, nd, shape, nullptr);
  // The factored matrix's left vectors (rows x ucols) and right ones (V: n x vcols for Jacobi,
  // V^H: vrows x cols for gesvd), column-major; which of them is A's U follows.
  const std::int64_t ucols = batched || full ? rows : k;
  const std::int64_t vcount = batched || full ? cols : k;
  NdArray* left = nullptr;
  NdArray* right = nullptr;
  if (compute_uv) {
    shape[nd - 2] = ucols;
    shape[nd - 1] = rows;
    left = &out.make(dt, nd, shape);  // C order (..., ucols, rows)
    if (jacobi) {
      shape[nd - 2] = vcount;  // V column-major n x vcount: C order (..., vcount, n) = V^T
      shape[nd - 1] = cols;
    } else {
      shape[nd - 2] = cols;  // V^H column-major vcount x cols, ldvt = vcount: (..., cols, vcount)
      shape[nd - 1] = vcount;
    }
    right = &out.make(dt, nd, shape);
  }
  int failed = 0;
  int* info = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int) * (batch + 1)));
  int* flag = info + batch;
  Work w{call.scratch(), ex, {}};
  call.run([&] {
    run_cast(ex, fac, flip ? A : swapped(A), fname);
    on_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = Cu<T>;
      Solver s(ex, fname);
      const std::int64_t is = sizeof(T), rs = sizeof(CuReal<T>);
      char* f = fac.data;
      char* sd = sv.view().data;
      C* u = left ? reinterpret_cast<C*>(left->view().data) : nullptr;
      C* v = right ? reinterpret_cast<C*>(right->view().data) : nullptr;
      const std::int64_t ustride = left ? ucols * rows : 0;
      const std::int64_t vstride = right ? vcount * cols : 0;
      const cusolverEigMode_t jobz =
          compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
      if (jacobi && !compute_uv) {
        // Singular values alone: U and V still get buffers (m x m and n x n per matrix, scratch).
        // With null ones, gesvdjBatched with CUSOLVER_EIG_MODE_NOVECTOR failed (EXECUTION_FAILED,
        // then an illegal address) against the cuSOLVER of NVIDIA's CUDA 13 wheel, run without a
        // toolkit; cuSOLVER's documentation does not say that they may be null.
        const std::size_t count = static_cast<std::size_t>(batched ? batch : 1);
        u = w.device<C>(count * static_cast<std::size_t>(m * m));
        v = w.device<C>(count * static_cast<std::size_t>(n * n));
      }
      if (jacobi) {
        gesvdjInfo_t params = nullptr;
        s.check(NUMCU_SOLVER_FN(s, cusolverDnCreateGesvdjInfo)(&params), "CreateGesvdjInfo");
        const int im = static_cast<int>(m), in = static_cast<int>(n);
        int lwork = 0;
        cusolverStatus_t st;
        if (batched) {
          st = s.fn<GesvdjBatchedSize<T>>(typed<T>("cusolverDn", "gesvdjBatched_bufferSize"))(
              s.handle, jobz, im, in, reinterpret_cast<C*>(f), im, reinterpret_cast<CuReal<T>*>(sd),
              u, im, v, in, &lwork, params, static_cast<int>(batch));
          if (st == CUSOLVER_STATUS_SUCCESS) {
            C* work = w.device<C>(static_cast<std::size_t>(lwork));
            st = s.fn<GesvdjBatched<T>>(typed<T>("cusolverDn", "gesvdjBatched"))(
                s.handle, jobz, im, in, reinterpret_cast<C*>(f), im,
                reinterpret_cast<CuReal<T>*>(sd), u, im, v, in, work, lwork, info, params,
                static_cast<int>(batch));
          }
        } else {
          const int econ = full ? 0 : 1;
          st = s.fn<GesvdjSize<T>>(typed<T>("cusolverDn", "gesvdj_bufferSize"))(
              s.handle, jobz, econ, im, in, reinterpret_cast<C*>(f), im,
              reinterpret_cast<CuReal<T>*>(sd), u, im, v, in, &lwork, params);
          if (st == CUSOLVER_STATUS_SUCCESS) {
            C* work = w.device<C>(static_cast<std::size_t>(lwork));
            const auto gesvdj = s.fn<Gesvdj<T>>(typed<T>("cusolverDn", "gesvdj"));
            for (std::int64_t i = 0; i < batch && st == CUSOLVER_STATUS_SUCCESS; ++i) {
              st = gesvdj(s.handle, jobz, econ, im, in, reinterpret_cast<C*>(f + i * m * n * is),
                          im, reinterpret_cast<CuReal<T>*>(sd + i * k * rs), u + i * ustride, im,
                          v + i * vstride, in, work, lwork, info + i, params);
            }
          }
        }
        NUMCU_SOLVER_FN(s, cusolverDnDestroyGesvdjInfo)(params);
        s.check(st, batched ? "gesvdjBatched" : "gesvdj");
        // Jacobi gives V; V^H is its conjugate transpose, and V^T is what the C order reads.
        if (right != nullptr && dtype_kind(dt) == 'c') {
          linalg::conjugate_cuda(dt, right->view().data, right->view().size(), ex.stream);
        }
        return;
      }
      const cudaDataType cdt = Lib<T>::data, rdt = Lib<T>::real_data;
      const signed char jobu = !compute_uv ? 'N' : full ? 'A' : 'S';
      const signed char jobvt = !compute_uv ? 'N' : full ? 'A' : 'S';
      const std::int64_t ldvt = compute_uv ? vcount : 1;
      std::size_t dev = 0, host = 0;
      s.check(NUMCU_SOLVER_FN(s, cusolverDnXgesvd_bufferSize)(s.handle, s.params, jobu, jobvt, rows,
                                                              cols, cdt, f, rows, rdt, sd, cdt, u,
                                                              rows, cdt, v, ldvt, cdt, &dev, &host),
              "cusolverDnXgesvd_bufferSize");
      char* ws = w.device(dev);
      char* hws = w.host_bytes(host);
      for (std::int64_t i = 0; i < batch; ++i) {
        s.check(NUMCU_SOLVER_FN(s, cusolverDnXgesvd)(
                    s.handle, s.params, jobu, jobvt, rows, cols, cdt, f + i * m * n * is, rows, rdt,
                    sd + i * k * rs, cdt, u ? u + i * ustride : nullptr, rows, cdt,
                    v ? v + i * vstride : nullptr, ldvt, cdt, ws, dev, hws, host, info + i),
                "cusolverDnXgesvd");
      }
    });
    linalg::info_max_cuda(info, batch, flag, ex.stream);
    failed = read_flag(flag, ex.stream);
  });
  out.finish();
  call.finish(true);
  if (failed > 0) linalg_error(std::string(fname) + ": SVD did not converge");
  if (!compute_uv) return as_object(sv);
  py::object U, Vh;
  if (flip) {
    // gesvd of A^T: its V^H (m x m, C order) is A's U; its U (n x ucols) read in C order is A's
    // V^H.
    U = as_object(*right);
    Vh = as_object(*left);
  } else {
    NdArray uu = left->with_view(swapped(left->view()));                      // (..., m, ucols)
    NdArray vv = jacobi ? *right : right->with_view(swapped(right->view()));  // (..., vcount, n)
    if (batched && !full) {
      ArrayView uv = uu.view(), vhv = vv.view();
      uv.shape[nd - 1] = k;
      vhv.shape[nd - 2] = k;
      uu = uu.with_view(uv);
      vv = vv.with_view(vhv);
    }
    U = py::cast(uu);
    Vh = py::cast(vv);
  }
  return py::make_tuple(U, as_object(sv), Vh);
}

// eig (vectors) or eigvals of a non-empty complex (..., n, n) stack (numcu/linalg.py promotes
// real ones): cuSOLVER's cusolverDnXgeev (CUDA 12.6 and later), one matrix after another.
py::object eig(py::handle a_obj, bool vectors) {
  const char* fname = vectors ? "numcu.linalg.eig" : "numcu.linalg.eigvals";
  Call call(fname, DeviceRequest{});
  const Operand& a = matrices(call, a_obj, true);
  const ArrayView& av = a.view;
  const int nd = av.ndim;
  const DType dt = av.dtype;
  const std::int64_t n = av.shape[nd - 1], batch = batch_count(av);
  if (dtype_kind(dt) != 'c')
    throw_type_error(std::string(fname) + ": the GPU path takes complex matrices");
  if (batch * n == 0)
    throw_value_error(std::string(fname) + ": the GPU path takes non-empty stacks");
  load_solver(fname);
  if (solver_library().so.find("cusolverDnXgeev") == nullptr) {
    throw std::runtime_error(std::string(fname) + ": " + solver_library().so.open(fname) +
                             " has no cusolverDnXgeev: eigenvalues of general matrices on the GPU "
                             "need cuSOLVER from CUDA 12.6 or later");
  }
  const Exec& ex = call.place();
  ArrayView A = call.prepare(a, dt);
  LinalgOutputs out(ex);
  NdArray& wv = out.make(dt, nd - 1, av.shape);
  NdArray* vecs = vectors ? &out.make(dt, nd, av.shape) : nullptr;
  const ArrayView fac = call.scratch_view(dt, nd, av.shape, nullptr);
  int failed = 0;
  int* info = reinterpret_cast<int*>(call.scratch().allocate(ex, sizeof(int) * (batch + 1)));
  int* flag = info + batch;
  Work w{call.scratch(), ex, {}};
  call.run([&] {
    run_cast(ex, fac, swapped(A), fname);  // column-major A
    on_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      Solver s(ex, fname);
      const cudaDataType cdt = Lib<T>::data;
      const cusolverEigMode_t jobvr =
          vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
      const std::int64_t is = sizeof(T);
      char* vr = vecs ? vecs->view().data : nullptr;
      std::size_t dev = 0, host = 0;
      s.check(NUMCU_SOLVER_FN(s, cusolverDnXgeev_bufferSize)(
                  s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, cdt, fac.data, n, cdt,
                  wv.view().data, cdt, nullptr, 1, cdt, vr, n, cdt, &dev, &host),
              "cusolverDnXgeev_bufferSize");
      char* ws = w.device(dev);
      char* hws = w.host_bytes(host);
      for (std::int64_t i = 0; i < batch; ++i) {
        s.check(NUMCU_SOLVER_FN(s, cusolverDnXgeev)(
                    s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, cdt,
                    fac.data + i * n * n * is, n, cdt, wv.view().data + i * n * is, cdt, nullptr, 1,
                    cdt, vr ? vr + i * n * n * is : nullptr, n, cdt, ws, dev, hws, host, info + i),
                "cusolverDnXgeev");
      }
    });
    linalg::info_max_cuda(info, batch, flag, ex.stream);
    failed = read_flag(flag, ex.stream);
  });
  out.finish();
  call.finish(true);
  if (failed > 0) linalg_error(std::string(fname) + ": Eigenvalues did not converge");
  if (!vectors) return as_object(wv);
  return py::make_tuple(as_object(wv), transposed_object(*vecs));
}

#else  // a build without CUDA has no device arrays: every entry point says so

[[noreturn]] void unavailable(const char* fname) {
  throw Error(ErrorKind::cuda_unavailable,
              std::string(fname) + ": this numcu was built without its CUDA backend");
}
py::object solve(py::handle, py::handle) { unavailable("numcu.linalg.solve"); }
py::object inv(py::handle) { unavailable("numcu.linalg.inv"); }
py::object det(py::handle, bool) { unavailable("numcu.linalg.det"); }
py::object cholesky(py::handle, bool) { unavailable("numcu.linalg.cholesky"); }
py::object qr(py::handle, const std::string&) { unavailable("numcu.linalg.qr"); }
py::object eigh(py::handle, bool) { unavailable("numcu.linalg.eigh"); }
py::object svd(py::handle, bool, bool) { unavailable("numcu.linalg.svd"); }
py::object eig(py::handle, bool) { unavailable("numcu.linalg.eig"); }

#endif  // NUMCU_WITH_CUDA

}  // namespace
}  // namespace gpu_linalg

void bind_linalg(py::module_& m) {
  using namespace gpu_linalg;
  m.def("_linalg_solve", &solve, py::arg("a"), py::arg("b"),
        "x with a @ x = b for device stacks a (..., n, n) and b (..., n, k) of one dtype and batch "
        "shape; LinAlgError for a singular matrix (the call waits for the GPU to know).");
  m.def("_linalg_inv", &inv, py::arg("a"), "The inverses of a device stack (..., n, n).");
  m.def("_linalg_det", &det, py::arg("a"), py::arg("log"),
        "det (log False) or (sign, logabsdet) of a device stack (..., n, n), n >= 1.");
  m.def("_linalg_cholesky", &cholesky, py::arg("a"), py::arg("upper"),
        "The Cholesky factors of a device stack of Hermitian positive-definite matrices.");
  m.def("_linalg_qr", &qr, py::arg("a"), py::arg("mode"),
        "(Q, R), or R for mode 'r', of a non-empty device stack (..., m, n).");
  m.def("_linalg_eigh", &eigh, py::arg("a"), py::arg("vectors"),
        "(eigenvalues, eigenvectors), or eigenvalues, of a non-empty device stack of Hermitian "
        "matrices (their lower triangles).");
  m.def("_linalg_svd", &svd, py::arg("a"), py::arg("full_matrices"), py::arg("compute_uv"),
        "(U, S, Vh), or S, of a non-empty device stack (..., m, n).");
  m.def("_linalg_eig", &eig, py::arg("a"), py::arg("vectors"),
        "(eigenvalues, eigenvectors), or eigenvalues, of a non-empty complex device stack.");
  m.def(
      "_linalg_svd_driver",
      [](const std::string& name) {
        const std::string old = svd_driver_name;
        if (!name.empty()) {
          if (name != "gesvdj" && name != "gesvd") {
            throw py::value_error("numcu._linalg_svd_driver: 'gesvdj' or 'gesvd', not '" + name +
                                  "'");
          }
          svd_driver_name = name;
        }
        return old;
      },
      py::arg("name") = "",
      "The cuSOLVER routine svd uses for matrices outside small stacks: 'gesvdj' (Jacobi, the "
      "default) or 'gesvd' (QR iteration); returns the previous one. For benchmarks.");
  m.def(
      "_cusolver_path",
      []() {
#if NUMCU_WITH_CUDA
        load_solver("numcu.linalg");
        return solver_library().so.open("numcu.linalg");
#else
        throw Error(ErrorKind::cuda_unavailable,
                    "numcu.linalg: this numcu was built without its CUDA backend");
        return std::string();
#endif
      },
      "The cuSOLVER library numcu loaded (loading it now if it can), or raises.");
}

}  // namespace numcu::python
