// numcu.fft on the GPU: NumPy's FFT functions (fft, ifft, rfft, irfft, hfft, ihfft, their n-D and
// 2-D forms) through cuFFT, loaded at first use (vendor_library.hpp), with a plan cache per
// device whose limits are counted in plans and in bytes. Host data goes to numpy.fft itself,
// with the caller's arguments.
//
// A call is one or more passes, each one cuFFT plan of rank 1 to 3 batched over every other axis
// (cufftXtMakePlanMany's advanced layout): an input whose layout the plan can read (the
// transformed axes nested with one stride unit, the others collapsing into one batch stride) is
// read where it is; any other (and an input to pad, convert or protect: cuFFT's complex-to-real
// transforms overwrite their input) is copied first, the other axes first and the transformed
// ones last. The output of a pass is dense in that order and returned as a view in the caller's
// axis order (C-contiguous where the axes are the last ones, in order). More than three axes, or
// an axis repeated, take several passes, in NumPy's order.
//
// The cache's hit path, all in C++ with the GIL held: a key of the plan's shape and layout, one
// hash lookup under the cache's lock (where another thread holds it, and on a miss, the GIL is
// released first), cufftSetStream where the plan last ran on another stream, and cufftXtExec.
// A plan holds its work area (from the stream-ordered pool); work on another stream is ordered
// after the last use, with an event, as numcu orders arrays. Nothing here waits for the GPU.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "arguments.hpp"
#include "execution.hpp"
#include "fastcall.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/linalg.hpp"
#include "numcu/runtime.hpp"
#include "numcu/types.hpp"
#include "pipeline.hpp"
#include "vendor_library.hpp"

#if NUMCU_WITH_CUDA
#include "vendor_api.hpp"
#endif

namespace numcu::python {

namespace py = pybind11;

namespace gpu_fft {
namespace {

enum class Kind : int { c2c, r2c, c2r };

// One cuFFT plan: its shape and both layouts (in elements), as cufftXtMakePlanMany takes them.
struct PlanKey {
  int device = 0;
  Kind kind = Kind::c2c;
  bool single = true;
  int rank = 1;
  long long n[3] = {0, 0, 0};
  long long inembed[3] = {0, 0, 0}, onembed[3] = {0, 0, 0};
  long long istride = 1, idist = 1, ostride = 1, odist = 1, batch = 1;

  bool operator==(const PlanKey& o) const {
    return device == o.device && kind == o.kind && single == o.single && rank == o.rank &&
           std::equal(n, n + 3, o.n) && std::equal(inembed, inembed + 3, o.inembed) &&
           std::equal(onembed, onembed + 3, o.onembed) && istride == o.istride &&
           idist == o.idist && ostride == o.ostride && odist == o.odist && batch == o.batch;
  }
};

struct PlanKeyHash {
  std::size_t operator()(const PlanKey& k) const {
    std::size_t h = static_cast<std::size_t>(k.device) * 131 +
                    static_cast<std::size_t>(k.kind) * 7 + (k.single ? 1 : 0) +
                    static_cast<std::size_t>(k.rank) * 17;
    auto mix = [&h](long long v) { h = (h ^ static_cast<std::size_t>(v)) * 1099511628211ull; };
    for (int i = 0; i < 3; ++i) {
      mix(k.n[i]);
      mix(k.inembed[i]);
      mix(k.onembed[i]);
    }
    mix(k.istride);
    mix(k.idist);
    mix(k.ostride);
    mix(k.odist);
    mix(k.batch);
    return h;
  }
};

std::string key_text(const PlanKey& k) {
  std::ostringstream s;
  s << (k.kind == Kind::c2c   ? "C2C"
        : k.kind == Kind::r2c ? "R2C"
                              : "C2R")
    << (k.single ? "32" : "64") << " n=(";
  for (int i = 0; i < k.rank; ++i) s << (i ? ", " : "") << k.n[i];
  s << ") batch=" << k.batch << " istride=" << k.istride << " idist=" << k.idist
    << " ostride=" << k.ostride << " odist=" << k.odist;
  return s.str();
}

#if NUMCU_WITH_CUDA

// cuFFT's names as its documentation spells them (numcu's declarations: vendor_api.hpp).
using namespace vendor;  // NOLINT(google-build-using-namespace)

struct FftLibrary {
  VendorLibrary so{{"cuFFT", "libcufft.so.", vendor::kCufftMajor, "NUMCU_CUFFT", "cufft",
                    "nvidia-cufft", "FFTs on the GPU (numcu.fft) need it"}};
  std::mutex lock;
  vendor::cufftCreate* create = nullptr;
  vendor::cufftDestroy* destroy = nullptr;
  vendor::cufftSetAutoAllocation* set_auto_allocation = nullptr;
  vendor::cufftXtMakePlanMany* make_plan = nullptr;
  vendor::cufftSetWorkArea* set_work_area = nullptr;
  vendor::cufftSetStream* set_stream = nullptr;
  vendor::cufftXtExec* exec = nullptr;
  std::atomic<bool> ready{false};  // the functions are found: calls skip load_fft's locks
};

FftLibrary& fft_library() {
  static auto* lib = new FftLibrary();  // never destroyed: cuFFT outlives Python's exit
  return *lib;
}

// Loads cuFFT, the GIL held.
FftLibrary& load_fft(const char* fname) {
  FftLibrary& lib = fft_library();
  lib.so.open(fname);
  std::lock_guard<std::mutex> guard(lib.lock);
  if (lib.exec == nullptr) {
    lib.create = lib.so.function<vendor::cufftCreate*>("cufftCreate", fname);
    lib.destroy = lib.so.function<vendor::cufftDestroy*>("cufftDestroy", fname);
    lib.set_auto_allocation =
        lib.so.function<vendor::cufftSetAutoAllocation*>("cufftSetAutoAllocation", fname);
    lib.make_plan = lib.so.function<vendor::cufftXtMakePlanMany*>("cufftXtMakePlanMany", fname);
    lib.set_work_area = lib.so.function<vendor::cufftSetWorkArea*>("cufftSetWorkArea", fname);
    lib.set_stream = lib.so.function<vendor::cufftSetStream*>("cufftSetStream", fname);
    lib.exec = lib.so.function<vendor::cufftXtExec*>("cufftXtExec", fname);
    lib.ready.store(true, std::memory_order_release);
  }
  return lib;
}

// cuFFT, loaded where it is not yet (the GIL held).
void ensure_fft(const char* fname) {
  if (!fft_library().ready.load(std::memory_order_acquire)) load_fft(fname);
}

const char* fft_status(cufftResult r) {
  switch (r) {
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE:
      return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      return "cuFFT error";
  }
}

void check_fft(cufftResult r, const char* fname, const char* what) {
  if (r == CUFFT_SUCCESS) return;
  throw Error(r == CUFFT_ALLOC_FAILED ? ErrorKind::out_of_memory : ErrorKind::cuda_error,
              std::string(fname) + ": " + what + " failed: " + fft_status(r));
}

#endif  // NUMCU_WITH_CUDA

// A plan and the work area it holds.
struct Plan {
  PlanKey key;
  int handle = 0;
  bool made = false;
  // The stream cuFFT last ran the plan on: cufftSetStream is called only when it changes.
  Stream stream = nullptr;
  bool has_stream = false;
  std::size_t work_bytes = 0;
  std::unique_ptr<DeviceAllocation> work;

  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
#if NUMCU_WITH_CUDA
    if (made) {
      // cuFFT frees the plan's own memory with its device current.
      cuda::DeviceRestore restore;
      cuda::activate(key.device);
      fft_library().destroy(handle);
    }
#endif
  }
};

// The plans of one device, most recently used first, up to max_size plans and max_memsize
// bytes of work areas (-1: no limit). A size of 0 turns caching off: each call then makes its
// plan and destroys it after.
class PlanCache {
 public:
  explicit PlanCache(int device) : device_(device) {}

  std::mutex lock;

  std::size_t max_size() const { return max_size_; }
  long long max_memsize() const { return max_memsize_; }
  std::size_t size() const { return plans_.size(); }
  std::size_t memsize() const { return memsize_; }
  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }
  int device() const { return device_; }

  void set_max_size(std::size_t n) {
    max_size_ = n;
    evict(0, 0);
  }
  void set_max_memsize(long long bytes) {
    max_memsize_ = bytes;
    evict(0, 0);
  }
  void clear() {
    plans_.clear();
    index_.clear();
    memsize_ = 0;
  }
  const std::list<std::unique_ptr<Plan>>& plans() const { return plans_; }

  // The cached plan for `key` (moved to the front), or null: a miss, counted unless `tentative`
  // (the GIL-held attempt, whose miss execute then finds and counts).
  Plan* find(const PlanKey& key, bool tentative = false) {
    auto it = index_.find(key);
    if (it == index_.end()) {
      if (!tentative) ++misses_;
      return nullptr;
    }
    ++hits_;
    if (it->second != plans_.begin()) plans_.splice(plans_.begin(), plans_, it->second);
    return it->second->get();
  }
  // Keeps `plan` where the limits allow, evicting the least recently used; else hands it back
  // (the caller destroys it after use).
  std::unique_ptr<Plan> insert(std::unique_ptr<Plan> plan) {
    if (max_size_ == 0 ||
        (max_memsize_ >= 0 && plan->work_bytes > static_cast<std::size_t>(max_memsize_))) {
      return plan;
    }
    evict(1, plan->work_bytes);
    memsize_ += plan->work_bytes;
    plans_.push_front(std::move(plan));
    index_.emplace(plans_.front()->key, plans_.begin());
    return nullptr;
  }

 private:
  // Drops plans from the back until `more_plans` and `more_bytes` fit.
  void evict(std::size_t more_plans, std::size_t more_bytes) {
    while (!plans_.empty() && (plans_.size() + more_plans > max_size_ ||
                               (max_memsize_ >= 0 &&
                                memsize_ + more_bytes > static_cast<std::size_t>(max_memsize_)))) {
      memsize_ -= plans_.back()->work_bytes;
      index_.erase(plans_.back()->key);
      plans_.pop_back();
    }
  }

  int device_;
  std::size_t max_size_ = 16;
  long long max_memsize_ = -1;
  std::size_t memsize_ = 0;
  std::uint64_t hits_ = 0, misses_ = 0;
  std::list<std::unique_ptr<Plan>> plans_;
  std::unordered_map<PlanKey, std::list<std::unique_ptr<Plan>>::iterator, PlanKeyHash> index_;
};

PlanCache& plan_cache(int device) {
  static std::mutex lock;
  static auto* caches = new std::unordered_map<int, std::unique_ptr<PlanCache>>();
  std::lock_guard<std::mutex> guard(lock);
  auto& c = (*caches)[device];
  if (!c) c = std::make_unique<PlanCache>(device);
  return *c;
}

#if NUMCU_WITH_CUDA

cudaDataType data_type(bool single, bool complex) {
  if (single) return complex ? CUDA_C_32F : CUDA_R_32F;
  return complex ? CUDA_C_64F : CUDA_R_64F;
}

std::unique_ptr<Plan> make_plan(FftLibrary& lib, const PlanKey& k, const Exec& ex,
                                const char* fname) {
  auto plan = std::make_unique<Plan>();
  plan->key = k;
  cufftHandle h = 0;
  check_fft(lib.create(&h), fname, "cufftCreate");
  plan->handle = h;
  plan->made = true;
  check_fft(lib.set_auto_allocation(h, 0), fname, "cufftSetAutoAllocation");
  PlanKey mk = k;  // cufftXtMakePlanMany takes non-const arrays
  std::size_t work = 0;
  check_fft(lib.make_plan(h, k.rank, mk.n, mk.inembed, k.istride, k.idist,
                          data_type(k.single, k.kind != Kind::r2c), mk.onembed, k.ostride, k.odist,
                          data_type(k.single, k.kind != Kind::c2r), k.batch, &work,
                          data_type(k.single, true)),
            fname, "cufftXtMakePlanMany");
  plan->work_bytes = work;
  if (work > 0) {
    plan->work = std::make_unique<DeviceAllocation>(work, ex.device, home_stream(ex.stream));
    check_fft(lib.set_work_area(h, plan->work->data()), fname, "cufftSetWorkArea");
  }
  return plan;
}

// Runs `plan` on ex.stream, ordered after the last use of its work area, which then belongs to
// ex.stream (or, where numcu cannot keep that stream alive, is handed back to its home).
void run_plan(FftLibrary& lib, Plan& plan, const Exec& ex, void* in, void* out, int direction,
              const char* fname) {
  DeviceAllocation* work = plan.work.get();
  const bool other = work != nullptr && work->stream() != ex.stream;
  if (other) cuda::stream_wait(ex.stream, work->stream());
  if (!plan.has_stream || plan.stream != ex.stream) {
    check_fft(lib.set_stream(plan.handle, static_cast<cudaStream_t>(ex.stream)), fname,
              "cufftSetStream");
    plan.stream = ex.stream;
    plan.has_stream = true;
  }
  check_fft(lib.exec(plan.handle, in, out, direction), fname, "cufftXtExec");
  if (other) {
    if (home_stream(ex.stream) == ex.stream) {
      work->set_stream(ex.stream);
    } else {
      cuda::stream_wait(work->stream(), ex.stream);
    }
  }
}

// The cache's hit path, the GIL held: runs the cached plan for `key` where the cache's lock is
// free and the plan is there, and says whether it did. Nothing here waits for the GIL or, the
// GIL held, for the lock; a miss, or a lock another thread holds, goes to execute with the GIL
// released.
bool execute_cached(const PlanKey& key, const Exec& ex, void* in, void* out, int direction,
                    const char* fname) {
  PlanCache& cache = plan_cache(ex.device);
  std::unique_lock<std::mutex> guard(cache.lock, std::try_to_lock);
  if (!guard.owns_lock()) return false;
  Plan* plan = cache.find(key, true);
  if (plan == nullptr) return false;
  run_plan(fft_library(), *plan, ex, in, out, direction, fname);
  return true;
}

// Finds or makes the plan for `key` and runs it (the cache's lock held throughout: a plan is
// one stream at a time), the GIL released.
void execute(const PlanKey& key, const Exec& ex, void* in, void* out, int direction,
             const char* fname) {
  FftLibrary& lib = fft_library();
  PlanCache& cache = plan_cache(ex.device);
  std::lock_guard<std::mutex> guard(cache.lock);
  Plan* plan = cache.find(key);
  std::unique_ptr<Plan> uncached;
  if (plan == nullptr) {
    std::unique_ptr<Plan> made = make_plan(lib, key, ex, fname);
    Plan* p = made.get();
    uncached = cache.insert(std::move(made));
    plan = uncached ? uncached.get() : p;
  }
  run_plan(lib, *plan, ex, in, out, direction, fname);
}

#endif  // NUMCU_WITH_CUDA

// ---------------------------------------------------------------------------------------------
// Arguments

enum class Norm { backward, ortho, forward };

Norm parse_norm(py::handle obj, const char* fname) {
  if (obj.is_none()) return Norm::backward;
  if (py::isinstance<py::str>(obj)) {
    const std::string s = obj.cast<std::string>();
    if (s == "backward") return Norm::backward;
    if (s == "ortho") return Norm::ortho;
    if (s == "forward") return Norm::forward;
  }
  throw py::value_error(std::string(fname) + ": Invalid norm value " +
                        py::str(obj).cast<std::string>() +
                        "; should be \"backward\", \"ortho\" or \"forward\".");
}

long long parse_points(py::handle obj, const char* fname) {
  PyObject* index = PyNumber_Index(obj.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    throw py::type_error(std::string(fname) + ": the number of points must be an integer, not " +
                         py::repr(obj).cast<std::string>());
  }
  const long long n = PyLong_AsLongLong(index);
  Py_DECREF(index);
  if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
  return n;
}

void check_points(long long n, const char* fname) {
  if (n < 1) {
    throw py::value_error(std::string(fname) + ": Invalid number of FFT data points (" +
                          std::to_string(n) + ") specified.");
  }
}

// The precision numpy.fft computes a 1-D transform's norm factor in: the real dtype of that
// transform's input after NEP 50 promotion with a Python float (result_type(a.real.dtype, 1.0)).
enum class Precision { half, single, dbl };

// numpy.fft's norm factor for one axis of length n, as _raw_fft computes it:
// reciprocal(sqrt(n, dtype=p)) (ortho) or reciprocal(n, dtype=p), each step rounded to p (NumPy's
// float16 ufuncs compute in float32 and round to float16). NumPy multiplies each 1-D result by
// its factor in the result's precision (float16's passed as float32); numcu multiplies once, by
// the product of the axes' factors: over one axis the same product, over several a rounding
// apart.
double axis_factor(long long n, bool ortho, Precision p) {
  if (p == Precision::dbl) {
    const double d = static_cast<double>(n);
    return 1.0 / (ortho ? std::sqrt(d) : d);
  }
  if (p == Precision::single) {
    const float f = static_cast<float>(n);
    return static_cast<double>(1.0f / (ortho ? std::sqrt(f) : f));
  }
  auto round_half = [](float x) { return half_to_float(float_to_half(x)); };
  const float h = round_half(static_cast<float>(n));  // inf beyond 65519, and the factor 0
  const float r = ortho ? round_half(std::sqrt(h)) : h;
  return static_cast<double>(round_half(1.0f / r));
}

// What a public function is.
struct Spec {
  const char* name;   // numpy.fft's name
  const char* fname;  // "numcu.fft.fft"
  Kind kind;          // of the last pass
  bool forward;
  bool hermitian;  // hfft and ihfft: conjugated, the norm's direction swapped
  bool nd;         // (s, axes) instead of (n, axis)
  bool two;        // the 2-D family: axes default to (-2, -1)
  ArgSpec args;    // its parameters (a function's static: keyword names interned once)
};

const char* const kOneAxis[] = {"a", "n", "axis", "norm", "out"};
const char* const kAxes[] = {"a", "s", "axes", "norm", "out"};

// Whether `obj` is a device array (numcu's, or another library's through its CUDA interfaces).
bool on_device(py::handle obj) {
  if (ndarray_of(obj) != nullptr) return true;
  if (py::isinstance<py::array>(obj) || PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()) ||
      PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyComplex_Check(obj.ptr())) {
    return false;
  }
  if (py::hasattr(obj, "__cuda_array_interface__")) return true;
  if (py::hasattr(obj, "__dlpack_device__")) {
    py::object dev = obj.attr("__dlpack_device__")();
    const int type = py::cast<int>(py::tuple(dev)[0]);
    return type == 2 || type == 13;  // CUDA, CUDA managed
  }
  return false;
}

// One pass: one plan over up to three axes (in plan order; for r2c and c2r the last is the
// halved one) with their logical lengths.
struct Pass {
  Kind kind = Kind::c2c;
  bool forward = true;
  int rank = 0;
  int axes[3] = {0, 0, 0};
  long long n[3] = {0, 0, 0};
};

DType complex_of(bool single) { return single ? DType::complex64 : DType::complex128; }
DType real_of(bool single) { return single ? DType::float32 : DType::float64; }

// The plan's input (in) and output (out) lengths of pass axis j.
long long in_length(const Pass& p, int j) {
  return p.kind == Kind::c2r && j == p.rank - 1 ? p.n[j] / 2 + 1 : p.n[j];
}
long long out_length(const Pass& p, int j) {
  return p.kind == Kind::r2c && j == p.rank - 1 ? p.n[j] / 2 + 1 : p.n[j];
}

// The result of a pass: its array (dense, the batch axes first) and a view in the caller's order.
struct PassOut {
  NdArray array;
  ArrayView view;
};

// Reads v's layout as cuFFT's advanced layout for the plan axes `tax` (plan order) and the batch
// axes `bax` (outer first); false where it has none.
bool layout_of(const ArrayView& v, const int* tax, int rank, const int* bax, int nb,
               long long* stride, long long* embed, long long* dist, long long* batch) {
  const int is = itemsize(v.dtype);
  if (reinterpret_cast<std::uintptr_t>(v.data) % static_cast<std::uintptr_t>(is) != 0) return false;
  auto elem = [&](int axis, long long* e) {
    const std::int64_t s = v.strides[axis];
    if (v.shape[axis] <= 1) return true;
    if (s <= 0 || s % is != 0) return false;
    *e = s / is;
    return true;
  };
  long long e_last = 1;
  if (!elem(tax[rank - 1], &e_last)) return false;
  *stride = v.shape[tax[rank - 1]] > 1 ? e_last : 1;
  long long unit = *stride;
  for (int j = rank - 1; j >= 1; --j) {
    const long long nj = v.shape[tax[j]];
    long long e_outer = 0;
    if (v.shape[tax[j - 1]] <= 1) {
      embed[j] = nj;
    } else {
      if (!elem(tax[j - 1], &e_outer) || e_outer % unit != 0) return false;
      embed[j] = e_outer / unit;
      if (embed[j] < nj) return false;
    }
    unit *= embed[j];
  }
  embed[0] = v.shape[tax[0]];
  // The batch axes must nest, outer first, into one stride.
  long long b = 1, d = 0, expect = 0;
  bool first = true;
  for (int i = nb - 1; i >= 0; --i) {
    const long long ni = v.shape[bax[i]];
    b *= ni;
    if (ni <= 1) continue;
    long long e = 0;
    if (!elem(bax[i], &e)) return false;
    if (first) {
      d = e;
      first = false;
    } else if (e != expect) {
      return false;
    }
    expect = e * ni;
  }
  *dist = first ? unit * embed[0] : d;
  *batch = b;
  return true;
}

// The view of a dense array laid out in `order` (axes of the caller's array, outer first) with
// `shape` (the caller's axis order), in the caller's axis order.
ArrayView permuted_dense(DType dt, int nd, const std::int64_t* shape, const int* order, char* data,
                         int device) {
  ArrayView v;
  v.dtype = dt;
  v.ndim = nd;
  v.data = data;
  v.device = device;
  std::int64_t s = itemsize(dt);
  for (int i = nd - 1; i >= 0; --i) {
    v.shape[order[i]] = shape[order[i]];
    v.strides[order[i]] = s;
    s *= std::max<std::int64_t>(shape[order[i]], 1);
  }
  return v;
}

// Runs one pass of `x` (a device view) and returns its output. `owned`: x is a copy this call
// made, which a complex-to-real plan may overwrite. `conj_input`: hfft's conjugate.
PassOut run_pass(Call& call, const ArrayView& x, const Pass& pass, bool single, bool owned,
                 bool conj_input) {
  const char* fname = call.fname();
  const Exec& ex = call.exec();
  const int nd = x.ndim;
  const DType in_dt = pass.kind == Kind::r2c ? real_of(single) : complex_of(single);
  const DType out_dt = pass.kind == Kind::c2r ? real_of(single) : complex_of(single);
  // Plan order: for c2c any (the transform is separable), for r2c and c2r the halved axis last;
  // the others by decreasing stride, as are the batch axes, so that a view in another order
  // still reads where it is.
  Pass p = pass;
  const int sortable = p.kind == Kind::c2c ? p.rank : p.rank - 1;
  auto by_stride = [&](int a, int b) {
    return std::abs(x.strides[a]) * (x.shape[a] > 1) > std::abs(x.strides[b]) * (x.shape[b] > 1);
  };
  {
    int order[3] = {0, 1, 2};
    std::stable_sort(order, order + sortable,
                     [&](int i, int j) { return by_stride(p.axes[i], p.axes[j]); });
    Pass q = p;
    for (int j = 0; j < sortable; ++j) {
      q.axes[j] = p.axes[order[j]];
      q.n[j] = p.n[order[j]];
    }
    p = q;
  }
  int bax[kMaxDims];
  int nb = 0;
  for (int d = 0; d < nd; ++d) {
    if (std::find(p.axes, p.axes + p.rank, d) == p.axes + p.rank) bax[nb++] = d;
  }
  std::stable_sort(bax, bax + nb, by_stride);
  int order[kMaxDims];
  std::copy(bax, bax + nb, order);
  std::copy(p.axes, p.axes + p.rank, order + nb);

  // The input: truncated where longer than the plan reads, copied where it must be.
  ArrayView in = x;
  bool pad = false;
  std::int64_t in_shape[kMaxDims];
  std::copy(x.shape, x.shape + nd, in_shape);
  for (int j = 0; j < p.rank; ++j) {
    const long long len = in_length(p, j);
    in_shape[p.axes[j]] = len;
    if (x.shape[p.axes[j]] < len) pad = true;
    in.shape[p.axes[j]] = std::min<std::int64_t>(x.shape[p.axes[j]], len);
  }
  PlanKey key;
  key.device = ex.device;
  key.kind = p.kind;
  key.single = single;
  key.rank = p.rank;
  for (int j = 0; j < p.rank; ++j) key.n[j] = p.n[j];
  const bool must_copy = pad || x.dtype != in_dt || conj_input || (p.kind == Kind::c2r && !owned);
  if (must_copy ||
      !layout_of(in, p.axes, p.rank, bax, nb, &key.istride, key.inembed, &key.idist, &key.batch)) {
    std::int64_t count = 1;
    for (int d = 0; d < nd; ++d) count *= in_shape[d];
    char* buf = call.scratch().allocate(ex, static_cast<std::size_t>(count) * itemsize(in_dt));
    const ArrayView full = permuted_dense(in_dt, nd, in_shape, order, buf, ex.device);
    ArrayView part = full;
    std::copy(in.shape, in.shape + nd, part.shape);
    if (pad) linalg::zero_cuda(buf, static_cast<std::size_t>(count) * itemsize(in_dt), ex.stream);
    if (part.size() > 0) run_cast(ex, part, in, fname);
    if (conj_input) linalg::conjugate_cuda(in_dt, buf, count, ex.stream);
    in = full;
    layout_of(in, p.axes, p.rank, bax, nb, &key.istride, key.inembed, &key.idist, &key.batch);
  }
  // The output: dense in `order`.
  std::int64_t out_shape[kMaxDims];
  std::copy(x.shape, x.shape + nd, out_shape);
  long long box = 1;
  for (int j = 0; j < p.rank; ++j) {
    out_shape[p.axes[j]] = out_length(p, j);
    key.onembed[j] = out_length(p, j);
    box *= out_length(p, j);
  }
  key.ostride = 1;
  key.odist = box;
  std::int64_t dense_shape[kMaxDims];
  for (int i = 0; i < nd; ++i) dense_shape[i] = out_shape[order[i]];
  PassOut out{NdArray::empty(out_dt, nd, dense_shape, ex.device, ex.stream), ArrayView()};
  out.view = permuted_dense(out_dt, nd, out_shape, order, out.array.view().data, ex.device);
  if (key.batch > 0 && box > 0) {
#if NUMCU_WITH_CUDA
    const int direction = pass.forward ? kCufftForward : kCufftInverse;
    char* src = in.data;
    char* dst = out.array.view().data;
    if (!execute_cached(key, ex, src, dst, direction, fname)) {
      py::gil_scoped_release release;
      execute(key, ex, src, dst, direction, fname);
    }
#endif
  }
  return out;
}

// The passes of a call: axes and their logical lengths, in NumPy's order of application.
std::vector<Pass> plan_passes(Kind kind, bool forward, const std::vector<int>& axes,
                              const std::vector<long long>& lens) {
  std::vector<Pass> passes;
  const int count = static_cast<int>(axes.size());
  auto chunk = [&](int first, int last, Kind k) {  // axes[first..last), as few passes as may be
    int i = last;
    std::vector<Pass> rev;
    while (i > first) {
      Pass p;
      p.kind = k;
      p.forward = forward;
      // Taken from the end: axes[j..i), each once (a repeated axis starts the next pass).
      int j = i;
      int held[3] = {0, 0, 0};
      while (j > first && p.rank < 3 &&
             std::find(held, held + p.rank, axes[j - 1]) == held + p.rank) {
        held[p.rank++] = axes[--j];
      }
      for (int t = 0; t < p.rank; ++t) {
        p.axes[t] = axes[j + t];
        p.n[t] = lens[j + t];
      }
      rev.push_back(p);
      i = j;
    }
    return rev;  // the last axes' pass first
  };
  if (kind == Kind::c2c) return chunk(0, count, Kind::c2c);
  // r2c: the halved (last) axis with up to two before it first, then the others from the end;
  // c2r: the others first (inverse transforms commute), then the halved axis with up to two.
  Pass last;
  last.kind = kind;
  last.forward = forward;
  int j = count - 1;
  last.rank = 1;
  int held[3] = {axes[count - 1], 0, 0};
  while (j > 0 && last.rank < 3 &&
         std::find(held, held + last.rank, axes[j - 1]) == held + last.rank) {
    held[last.rank++] = axes[--j];
  }
  for (int t = 0; t < last.rank; ++t) {
    last.axes[t] = axes[j + t];
    last.n[t] = lens[j + t];
  }
  std::vector<Pass> rest = chunk(0, j, Kind::c2c);
  if (kind == Kind::r2c) {
    passes.push_back(last);
    passes.insert(passes.end(), rest.begin(), rest.end());
  } else {
    passes.assign(rest.rbegin(), rest.rend());
    passes.push_back(last);
  }
  return passes;
}

// numpy.fft's function of the same name, called with the caller's arguments.
PyObject* numpy_fft(const char* name, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static PyObject* module = nullptr;
  if (module == nullptr) {
    module = PyImport_ImportModule("numpy.fft");
    if (module == nullptr) throw py::error_already_set();
  }
  py::object fn = py::reinterpret_steal<py::object>(PyObject_GetAttrString(module, name));
  if (!fn) throw py::error_already_set();
  PyObject* r = PyObject_Vectorcall(fn.ptr(), args, static_cast<std::size_t>(nargs), kwnames);
  if (r == nullptr) throw py::error_already_set();
  return r;
}

py::object fft_call(const Spec& spec, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* v[5];
  parse_fastcall(spec.args, args, nargs, kwnames, v);
  if (!on_device(v[0])) {
    return py::reinterpret_steal<py::object>(numpy_fft(spec.name, args, nargs, kwnames));
  }
  const char* fname = spec.fname;
  auto given = [](PyObject* o) { return o != nullptr && o != Py_None; };
  if (given(v[4]))
    throw py::type_error(std::string(fname) + ": out= is not supported for device arrays");
  const Norm norm = parse_norm(v[3] ? py::handle(v[3]) : py::none(), fname);
  Call call(fname, DeviceRequest{});
  const Operand& x = call.array_input(v[0]);
  const ArrayView& xv = x.view;
  const int nd = xv.ndim;
  const DType dt = xv.dtype;
  if (dtype_kind(dt) == 'c' && spec.kind == Kind::r2c) {
    throw py::type_error(std::string(fname) + ": the input must be real, not " + dtype_name(dt));
  }
  if (dtype_kind(dt) != 'b' && dtype_kind(dt) != 'i' && dtype_kind(dt) != 'u' &&
      dtype_kind(dt) != 'f' && dtype_kind(dt) != 'c') {
    throw py::type_error(std::string(fname) + ": unsupported dtype " + dtype_name(dt));
  }
  const bool single = dt == DType::float16 || dt == DType::bfloat16 || dt == DType::float32 ||
                      dt == DType::complex64;
  // Axes and lengths, as numpy.fft's _cook_nd_args makes them.
  std::vector<int> axes;
  std::vector<long long> lens;
  const bool halved_input = spec.kind == Kind::c2r;
  if (!spec.nd) {
    axes.push_back(normalize_axis(given(v[2]) ? py::handle(v[2]) : py::int_(-1), nd, fname));
    lens.push_back(given(v[1]) ? parse_points(v[1], fname) : -1);
  } else {
    const bool has_s = given(v[1]);
    // The 2-D family's axes default to (-2, -1); None given to it is every axis, as NumPy's.
    py::object axes_obj = given(v[2])                   ? py::reinterpret_borrow<py::object>(v[2])
                          : spec.two && v[2] == nullptr ? py::object(py::make_tuple(-2, -1))
                                                        : py::object(py::none());
    if (!axes_obj.is_none()) {
      for (py::handle a : axes_obj) axes.push_back(normalize_axis(a, nd, fname));
    }
    if (has_s) {
      for (py::handle n : py::reinterpret_borrow<py::object>(v[1])) {
        lens.push_back(n.is_none() ? -1 : parse_points(n, fname));
      }
      if (axes_obj.is_none()) {
        const int k = static_cast<int>(lens.size());
        if (k > nd) axis_error(fname, -k, nd);
        for (int i = nd - k; i < nd; ++i) axes.push_back(i);
      } else if (lens.size() != axes.size()) {
        throw py::value_error(std::string(fname) + ": Shape and axes have different lengths.");
      }
    } else {
      if (axes_obj.is_none()) {
        for (int i = 0; i < nd; ++i) axes.push_back(i);
      }
      lens.assign(axes.size(), -1);
    }
  }
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (lens[i] == -1) {
      const long long m = xv.shape[axes[i]];
      lens[i] = halved_input && i + 1 == axes.size() ? 2 * (m - 1) : m;
    }
    check_points(lens[i], fname);
  }
  if (axes.empty()) {
    if (spec.kind != Kind::c2c) {
      throw py::value_error(std::string(fname) + ": at least one axis must be transformed");
    }
    return py::reinterpret_borrow<py::object>(v[0]);
  }
#if NUMCU_WITH_CUDA
  ensure_fft(fname);
#endif
  const Exec& ex = call.place();
  const ArrayView input = call.prepare(x, dt);
  // The norm's factor: 1/n or 1/sqrt(n) per axis, or 1; hfft and ihfft swap the direction
  // (NumPy's hfft is irfft of the conjugate with the norm swapped). Each axis's factor is the
  // value numpy.fft computes for its 1-D transform of that axis (see axis_factor); the product
  // is applied once, in the result's precision.
  Norm effective = norm;
  if (spec.hermitian && norm != Norm::ortho) {
    effective = norm == Norm::backward ? Norm::forward : Norm::backward;
  }
  double factor = 1;
  if (effective == Norm::ortho || (effective == Norm::forward) == spec.forward) {
    // NumPy's first 1-D transform reads the input's dtype, the others complex results: float16
    // input gives a float16 factor for the first axis NumPy transforms (the last one, but the
    // first for irfftn, whose complex passes come first) and float32 ones for the rest.
    const Precision first = dt == DType::float16 ? Precision::half
                            : single             ? Precision::single
                                                 : Precision::dbl;
    const std::size_t first_axis = spec.kind == Kind::c2r ? 0 : lens.size() - 1;
    for (std::size_t i = 0; i < lens.size(); ++i) {
      const Precision p = i == first_axis || first != Precision::half ? first : Precision::single;
      factor *= axis_factor(lens[i], effective == Norm::ortho, p);
    }
  }
  const std::vector<Pass> passes = plan_passes(spec.kind, spec.forward, axes, lens);
  std::vector<PassOut> outs;
  outs.reserve(passes.size());  // no reallocation: each pass reads the one before
  ArrayView cur = input;
  bool owned = false;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const bool conj = spec.hermitian && spec.kind == Kind::c2r && i + 1 == passes.size();
    outs.push_back(run_pass(call, cur, passes[i], single, owned, conj));
    cur = outs.back().view;
    owned = true;
  }
  PassOut& res = outs.back();
  const std::int64_t count = res.array.view().size();
  const DType out_dt = res.array.view().dtype;
  if (factor != 1) linalg::scale_cuda(out_dt, res.array.view().data, count, factor, ex.stream);
  if (spec.hermitian && spec.kind == Kind::r2c) {
    linalg::conjugate_cuda(out_dt, res.array.view().data, count, ex.stream);
  }
  py::object result;
  const DeviceAllocation* alloc = res.array.allocation().get();
  if (dt == DType::float16 && spec.kind == Kind::c2r && axes.size() == 1) {
    // NumPy gives float16 back from irfft and hfft of float16 input (and from irfftn over one
    // axis); over more axes irfftn's complex passes come first, and their complex64 results
    // make its result float32.
    NdArray half = NdArray::empty(DType::float16, nd, res.view.shape, ex.device, ex.stream);
    run_cast(ex, half.view(), res.view, fname);
    alloc = half.allocation().get();
    result = py::cast(std::move(half));
  } else {
    result = py::cast(res.array.with_view(res.view));
  }
  for (const PassOut& o : outs) finish_streams(ex, nullptr, 0, o.array.allocation().get());
  finish_streams(ex, nullptr, 0, alloc);
  call.finish(true);
  return result;
}

#define NUMCU_FFT_FUNCTIONS(X)                    \
  X(fft, Kind::c2c, true, false, false, false)    \
  X(ifft, Kind::c2c, false, false, false, false)  \
  X(rfft, Kind::r2c, true, false, false, false)   \
  X(irfft, Kind::c2r, false, false, false, false) \
  X(hfft, Kind::c2r, false, true, false, false)   \
  X(ihfft, Kind::r2c, true, true, false, false)   \
  X(fftn, Kind::c2c, true, false, true, false)    \
  X(ifftn, Kind::c2c, false, false, true, false)  \
  X(rfftn, Kind::r2c, true, false, true, false)   \
  X(irfftn, Kind::c2r, false, false, true, false) \
  X(fft2, Kind::c2c, true, false, true, true)     \
  X(ifft2, Kind::c2c, false, false, true, true)   \
  X(rfft2, Kind::r2c, true, false, true, true)    \
  X(irfft2, Kind::c2r, false, false, true, true)

#define NUMCU_FFT_ENTRY(name, kind, forward, hermitian, nd, two)                                  \
  PyObject* name##_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) { \
    static const Spec spec{#name,     "numcu.fft." #name,                                         \
                           kind,      forward,                                                    \
                           hermitian, nd,                                                         \
                           two,       {"numcu.fft." #name, nd ? kAxes : kOneAxis, 5, 0, 5, 1}};   \
    return guarded([&] { return fft_call(spec, args, nargs, kwnames); });                         \
  }
NUMCU_FFT_FUNCTIONS(NUMCU_FFT_ENTRY)
#undef NUMCU_FFT_ENTRY

// A module function on the vectorcall convention named `name` (its __name__, and the name its
// signature shows) for the module `module`, set as attribute `attr` of m.
void def_named(py::module_& m, const char* attr, const char* name, const char* module,
               FastFunction fn, const char* doc) {
  auto* def = new PyMethodDef{name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn)),
                              METH_FASTCALL | METH_KEYWORDS, doc};
  py::str module_name(module);
  PyObject* f = PyCFunction_NewEx(def, nullptr, module_name.ptr());
  if (f == nullptr) throw py::error_already_set();
  m.attr(attr) = py::reinterpret_steal<py::object>(f);
}

const char* fft_doc(const char* name, bool nd, bool two) {
  std::string sig =
      std::string(name) + (nd ? (two ? "(a, s=None, axes=(-2, -1), norm=None, out=None)"
                                     : "(a, s=None, axes=None, norm=None, out=None)")
                              : "(a, n=None, axis=-1, norm=None, out=None)");
  std::string doc =
      sig + "\n--\n\nnumpy.fft." + name +
      ", with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).\n"
      "Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, "
      "loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); "
      "the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft."
      "\nout= is taken for host data only.\n";
  return (new std::string(std::move(doc)))->c_str();
}

// cuFFT's own cost for the benchmarks: `repeats` executions of the plan for a forward complex
// FFT over the last axis of the dense device array x, into one output array (returned), with
// no allocation, argument parsing or lookup per execution.
#if NUMCU_WITH_CUDA
py::object exec_loop(py::handle x_obj, int repeats) {
  const char* fname = "numcu.fft._exec_loop";
  Call call(fname, DeviceRequest{});
  const Operand& x = call.array_input(x_obj);
  const ArrayView& xv = x.view;
  if (x.kind != Operand::Kind::device || dtype_kind(xv.dtype) != 'c' || !xv.is_c_contiguous() ||
      xv.ndim < 1 || xv.size() == 0) {
    throw py::value_error(std::string(fname) + ": a dense, non-empty complex device array");
  }
#if NUMCU_WITH_CUDA
  load_fft(fname);
#endif
  const Exec& ex = call.place();
  const ArrayView in = call.prepare(x, xv.dtype);
  NdArray out = NdArray::empty(xv.dtype, xv.ndim, xv.shape, ex.device, ex.stream);
#if NUMCU_WITH_CUDA
  PlanKey key;
  key.device = ex.device;
  key.single = xv.dtype == DType::complex64;
  const long long n = xv.shape[xv.ndim - 1];
  key.n[0] = key.inembed[0] = key.onembed[0] = n;
  key.idist = key.odist = n;
  key.batch = xv.size() / n;
  {
    py::gil_scoped_release release;
    execute(key, ex, in.data, out.view().data, kCufftForward, fname);
    // The plan, found once; then cuFFT alone.
    FftLibrary& lib = fft_library();
    PlanCache& cache = plan_cache(ex.device);
    std::lock_guard<std::mutex> guard(cache.lock);
    Plan* plan = cache.find(key);
    if (plan == nullptr && repeats > 1) {
      throw py::value_error(std::string(fname) + ": the plan cache is off");
    }
    if (repeats > 1) {
      check_fft(lib.set_stream(plan->handle, static_cast<cudaStream_t>(ex.stream)), fname,
                "cufftSetStream");
    }
    for (int i = 1; i < repeats; ++i) {
      check_fft(lib.exec(plan->handle, in.data, out.view().data, kCufftForward), fname,
                "cufftXtExec");
    }
  }
#endif
  finish_streams(ex, nullptr, 0, out.allocation().get());
  call.finish(true);
  return py::cast(std::move(out));
}
#else
py::object exec_loop(py::handle, int) {
  throw Error(ErrorKind::cuda_unavailable,
              "numcu.fft._exec_loop: this numcu was built without its CUDA backend");
}
#endif

}  // namespace
}  // namespace gpu_fft

void bind_fft(py::module_& m) {
  using namespace gpu_fft;
#define NUMCU_DEF_FFT(name, kind, forward, hermitian, nd, two) \
  def_named(m, "_fft_" #name, #name, "numcu.fft", &name##_entry, fft_doc(#name, nd, two));
  NUMCU_FFT_FUNCTIONS(NUMCU_DEF_FFT)
#undef NUMCU_DEF_FFT

  py::class_<PlanCache, std::unique_ptr<PlanCache, py::nodelete>>(
      m, "_FftPlanCache",
      "numcu's cuFFT plans for one device, most recently used first, limited in number and in "
      "the bytes of their work areas (held from the device's stream-ordered pool).")
      .def_property_readonly("device", &PlanCache::device)
      .def(
          "get_size",
          [](PlanCache& c) {
            std::lock_guard<std::mutex> g(c.lock);
            return c.max_size();
          },
          "The most plans kept (0: caching off).")
      .def(
          "set_size",
          [](PlanCache& c, long long n) {
            if (n < 0) throw py::value_error("numcu.fft: the plan cache's size must be >= 0");
            std::lock_guard<std::mutex> g(c.lock);
            c.set_max_size(static_cast<std::size_t>(n));
          },
          py::arg("size"),
          "Keeps at most `size` plans (0 turns caching off), evicting the least recently used.")
      .def(
          "get_curr_size",
          [](PlanCache& c) {
            std::lock_guard<std::mutex> g(c.lock);
            return c.size();
          },
          "How many plans are kept now.")
      .def(
          "get_memsize",
          [](PlanCache& c) {
            std::lock_guard<std::mutex> g(c.lock);
            return c.max_memsize();
          },
          "The most bytes of work areas kept (-1: no limit).")
      .def(
          "set_memsize",
          [](PlanCache& c, long long bytes) {
            if (bytes < -1)
              throw py::value_error("numcu.fft: the plan cache's memsize must be >= -1");
            std::lock_guard<std::mutex> g(c.lock);
            c.set_max_memsize(bytes);
          },
          py::arg("size"), "Keeps at most `size` bytes of work areas (-1: no limit).")
      .def(
          "get_curr_memsize",
          [](PlanCache& c) {
            std::lock_guard<std::mutex> g(c.lock);
            return c.memsize();
          },
          "The bytes of work areas the kept plans hold now.")
      .def(
          "get_hits",
          [](PlanCache& c) {
            std::lock_guard<std::mutex> g(c.lock);
            return c.hits();
          },
          "Calls that found their plan here.")
      .def(
          "get_misses",
          [](PlanCache& c) {
            std::lock_guard<std::mutex> g(c.lock);
            return c.misses();
          },
          "Calls that made a plan.")
      .def(
          "clear",
          [](PlanCache& c) {
            std::lock_guard<std::mutex> g(c.lock);
            c.clear();
          },
          "Destroys every kept plan and returns its work area to the pool.")
      .def(
          "show_info",
          [](PlanCache& c) {
            std::ostringstream s;
            {
              std::lock_guard<std::mutex> g(c.lock);
              s << "numcu cuFFT plan cache, device " << c.device() << "\n"
                << "  enabled: " << (c.max_size() > 0 ? "yes" : "no") << "\n"
                << "  plans: " << c.size() << " of at most " << c.max_size() << "\n"
                << "  work areas: " << c.memsize() << " bytes of at most "
                << (c.max_memsize() < 0 ? std::string("(no limit)")
                                        : std::to_string(c.max_memsize()))
                << "\n"
                << "  hits: " << c.hits() << ", misses: " << c.misses() << "\n";
              for (const auto& p : c.plans()) {
                s << "  " << key_text(p->key) << ", work area " << p->work_bytes << " bytes\n";
              }
            }
            py::print(s.str(), py::arg("end") = "");
          },
          "Prints the limits, the use and the plans kept, most recently used first.");
  m.def(
      "_fft_plan_cache",
      [](py::object device) {
        int d = 0;
        if (!device.is_none()) {
          d = device.cast<int>();
        } else if (cuda::is_available()) {
          d = cuda::current_device();
        }
        if (d < 0) throw py::value_error("numcu.fft: a device index is >= 0");
        return &plan_cache(d);
      },
      py::arg("device") = py::none(), py::return_value_policy::reference,
      "The plan cache of CUDA device `device` (the current one by default).");
  m.def("_fft_exec_loop", &exec_loop, py::arg("x"), py::arg("repeats"),
        "Benchmarks: cuFFT's own cost, `repeats` executions of one cached plan (a forward "
        "complex FFT over the last axis of a dense device array) into one output.");
  m.def(
      "_cufft_path",
      []() {
#if NUMCU_WITH_CUDA
        load_fft("numcu.fft");
        return fft_library().so.open("numcu.fft");
#else
        throw Error(ErrorKind::cuda_unavailable,
                    "numcu.fft: this numcu was built without its CUDA backend");
        return std::string();
#endif
      },
      "The cuFFT library numcu loaded (loading it now if it can), or raises.");
}

}  // namespace numcu::python
