// The creation functions: numcu.empty, zeros, ones, full, their *_like forms, arange and
// linspace. Arrays go to a GPU (device or managed memory) or to the host (a NumPy array, in
// page-locked memory for memory='pinned'). Without device=, an array goes to numcu's default
// device (the current GPU, or the host when none can be used), and a *_like array goes where
// its model is, as NumPy's *_like give NumPy arrays.
#include <pybind11/numpy.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "array_api.hpp"
#include "docstrings.hpp"
#include "elementwise_call.hpp"
#include "execution.hpp"
#include "fastcall.hpp"
#include "foreign.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/checked.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "numcu/sequence.hpp"

namespace numcu::python {
namespace {

enum class MemoryRequest { device, managed, pinned };

MemoryRequest parse_memory(py::handle memory, const char* fname) {
  if (!memory) return MemoryRequest::device;  // not given
  if (PyUnicode_Check(memory.ptr())) {
    const std::string name = memory.cast<std::string>();
    if (name == "device") return MemoryRequest::device;
    if (name == "managed") return MemoryRequest::managed;
    if (name == "pinned") return MemoryRequest::pinned;
  }
  throw_value_error(std::string(fname) + ": memory must be 'device', 'managed' or 'pinned', not " +
                    py::repr(memory).cast<std::string>());
}

// Where a creation function's array goes, and in what memory.
struct Target {
  Exec ex;  // ex.gpu false: a NumPy array
  MemoryRequest memory = MemoryRequest::device;
};

Target target_of(const char* fname, py::handle device, py::handle stream, py::handle memory,
                 int follow) {
  Target t;
  t.memory = parse_memory(memory, fname);
  const DeviceRequest req = parse_device(device, py::none(), py::none(), fname, stream);
  if (t.memory == MemoryRequest::pinned) {
    if (!cuda::is_available()) cuda_unavailable(fname, "memory='pinned' needs CUDA, and ");
    return t;  // page-locked host memory, usable by every device
  }
  if (req.kind == DeviceRequest::Kind::cpu && t.memory == MemoryRequest::managed) {
    throw_value_error(std::string(fname) +
                      ": memory='managed' arrays live on a GPU; device='cpu' cannot have them");
  }
  DeviceRequest where = req;
  // Managed memory belongs to a GPU: asking for it asks for one.
  if (t.memory == MemoryRequest::managed && where.kind == DeviceRequest::Kind::automatic) {
    where.kind = DeviceRequest::Kind::cuda;
  }
  t.ex = destination(fname, where, follow);
  return t;
}

// A new array: a numcu.ndarray on the GPU, or a NumPy array.
struct Created {
  py::object object;
  ArrayView view;
  std::shared_ptr<DeviceAllocation> allocation;
};

void free_pinned(void* ptr) { cuda::free_pinned(ptr); }

Created create(const Target& t, DType dtype, int ndim, const std::int64_t* shape,
               const ArrayView* like) {
  Created c;
  if (t.ex.gpu) {
    cuda::activate(t.ex.device);
    NdArray a =
        NdArray::empty(dtype, ndim, shape, t.ex.device, t.ex.stream, like,
                       t.memory == MemoryRequest::managed ? Memory::managed : Memory::device);
    c.view = a.view();
    c.allocation = a.allocation();
    c.object = py::cast(std::move(a));
    return c;
  }
  ArrayView& v = c.view;
  v = dense_layout(dtype, ndim, shape, kHost, like);
  if (t.memory == MemoryRequest::pinned) {
    void* ptr = cuda::allocate_pinned(static_cast<std::size_t>(v.size()) * itemsize(dtype));
    // NumPy frees the memory through this owner when the array (and every view) is gone.
    py::capsule owner(ptr, &free_pinned);
    std::vector<py::ssize_t> sh(v.shape, v.shape + ndim), st(v.strides, v.strides + ndim);
    c.object = py::array(py::dtype::from_args(numpy_dtype(dtype)), sh, st, ptr, owner);
    v.data = static_cast<char*>(ptr);
  } else {
    c.object = numpy_empty(dtype, ndim, v.shape, v.strides);
    v.data = foreign::numpy_array(c.object.ptr())->data;  // a new array of its own memory
  }
  return c;
}

void fill_created(const Target& t, const Created& c, const Operand& value, const char* fname) {
  if (c.view.size() == 0) return;
  if (t.ex.gpu) {
    run_fill(t.ex, c.view, value, fname);
  } else {
    py::gil_scoped_release release;
    run_fill(Exec{}, c.view, value, fname);
  }
}

// Work on a GPU array queued on a stream numcu does not own: its home stream waits for it.
void finish(const Target& t, const Created& c) {
  if (t.ex.gpu) finish_streams(t.ex, nullptr, 0, c.allocation.get());
}

// Whether a fill value is an array (a device array, or a host array of one or more dimensions)
// rather than a scalar: NumPy's full broadcasts such a value to the shape, which
// numcu/_array_api.py does through broadcast_to and a copy (on the GPU without waiting for it).
bool array_fill(const Operand& value) {
  return value.kind == Operand::Kind::device || value.view.ndim != 0;
}

// What empty, zeros, ones and full (and their *_like forms) fill the new array with.
enum class Fill { none, zeros, ones, value };

// The fill value as an operand: zeros' and ones' are made once.
const Operand& fill_operand(Fill fill, py::handle value, Operand& given, const char* fname) {
  if (fill == Fill::zeros) {
    static const Operand* zero = new Operand(intake(py::int_(0), "numcu.zeros"));
    return *zero;
  }
  if (fill == Fill::ones) {
    static const Operand* one = new Operand(intake(py::int_(1), "numcu.ones"));
    return *one;
  }
  given = intake(value, fname);
  return given;
}

// numcu.empty, zeros, ones and full; with a model array `like` (not null), their *_like forms:
// like's shape, dtype, layout and place unless shape, dtype or device say otherwise. `memory`
// null: not given.
py::object create_filled(const char* fname, Fill fill, const py::handle* like, py::handle shape_obj,
                         py::handle value, py::handle dtype_obj, py::handle device,
                         py::handle stream, py::handle memory) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  Operand given;
  const Operand* v = nullptr;
  if (fill != Fill::none) {
    v = &fill_operand(fill, value, given, fname);
    if (array_fill(*v)) {
      const py::object memory_obj =
          memory ? py::reinterpret_borrow<py::object>(memory) : py::object(py::str("device"));
      if (like == nullptr) {
        return composition(Composition::full_from_array)(shape_obj, value, dtype_obj, device,
                                                         stream, memory_obj, fname);
      }
      return composition(Composition::full_like_from_array)(*like, value, dtype_obj, shape_obj,
                                                            device, stream, memory_obj, fname);
    }
  }
  Operand model;
  if (like != nullptr) model = intake(*like, fname);
  std::int64_t shape[kMaxDims];
  const int ndim = shape_obj.is_none() && like != nullptr
                       ? (std::copy(model.view.shape, model.view.shape + model.view.ndim, shape),
                          model.view.ndim)
                       : shape_into(shape_obj, fname, shape);
  // NumPy: full's dtype follows the value, empty's (zeros', ones') is float64; *_like's is the
  // model's.
  const DType dtype = !dtype_obj.is_none()  ? dtype_from_python(dtype_obj, fname)
                      : like != nullptr     ? model.view.dtype
                      : fill == Fill::value ? v->view.dtype
                                            : DType::float64;
  checked::check_shape(fname, shape, ndim, dtype);
  if (v != nullptr) check_weak_int(*v, dtype, fname);
  const int follow = like == nullptr                       ? kDefaultDevice
                     : model.kind == Operand::Kind::device ? model.view.device
                                                           : kHost;
  const Target t = target_of(fname, device, stream, memory, follow);
  // NumPy's order='K' for *_like: the layout of `like` (dense), where the number of dimensions
  // is kept.
  const Created c = create(t, dtype, ndim, shape, like == nullptr ? nullptr : &model.view);
  if (v != nullptr) fill_created(t, c, *v, fname);
  finish(t, c);
  return c.object;
}

// ------------------------------------------------------------------------------------------
// Sequences

[[noreturn]] void rethrow_named(const char* fname) {
  py::error_already_set e;
  const std::string message = std::string(fname) + ": " + py::str(e.value()).cast<std::string>();
  PyErr_SetString(e.type().ptr(), message.c_str());
  throw py::error_already_set();
}

py::object checked(PyObject* result, const char* fname) {
  if (result == nullptr) rethrow_named(fname);
  return py::reinterpret_steal<py::object>(result);
}

// A start/stop/step argument: a host scalar; its dtype.
DType sequence_scalar(py::handle obj, const char* what, const char* fname) {
  const Operand x = intake(obj, fname);
  if (x.kind == Operand::Kind::device || x.view.ndim != 0) {
    throw_type_error(std::string(fname) + ": " + what +
                     " must be a scalar (a Python or NumPy number), not " +
                     (x.kind == Operand::Kind::device
                          ? std::string("a device array")
                          : "an array of shape " + shape_str(x.view.shape, x.view.ndim)));
  }
  return x.view.dtype;
}

// ceil(value) as a length, as NumPy's arange computes it.
std::int64_t ceil_length(double value, const char* fname) {
  const double c = std::ceil(value);
  if (std::isnan(c)) throw_value_error(std::string(fname) + ": cannot compute the length");
  if (!(c >= -9.2233720368547758e18 && c < 9.2233720368547758e18)) {
    throw_value_error(std::string(fname) + ": maximum allowed size exceeded");
  }
  return static_cast<std::int64_t>(c);
}

// NumPy's arange length: ceil((stop - start) / step), computed with the arguments' own
// arithmetic (Python's, or NumPy's for NumPy scalars); the smaller of the two parts' for complex.
std::int64_t arange_length(py::handle start, py::handle stop, py::handle step, bool complex_result,
                           const char* fname) {
  py::object zero = py::int_(0);
  py::object distance = checked(PyNumber_Subtract(stop.ptr(), start.ptr()), fname);
  const int distance_nonzero = PyObject_RichCompareBool(distance.ptr(), zero.ptr(), Py_NE);
  if (distance_nonzero < 0) rethrow_named(fname);
  py::object ratio = checked(PyNumber_TrueDivide(distance.ptr(), step.ptr()), fname);
  const int ratio_zero = PyObject_RichCompareBool(ratio.ptr(), zero.ptr(), Py_EQ);
  if (ratio_zero < 0) rethrow_named(fname);
  std::int64_t length;
  if (complex_result && PyComplex_Check(ratio.ptr())) {
    length = std::min(ceil_length(PyComplex_RealAsDouble(ratio.ptr()), fname),
                      ceil_length(PyComplex_ImagAsDouble(ratio.ptr()), fname));
  } else {
    const double value = PyFloat_AsDouble(ratio.ptr());
    if (value == -1.0 && PyErr_Occurred()) rethrow_named(fname);
    if (ratio_zero && distance_nonzero) {
      // The ratio underflowed (or the step is infinite): one element, or none going backwards.
      length = std::signbit(value) ? 0 : 1;
    } else {
      length = ceil_length(value, fname);
    }
  }
  return std::max<std::int64_t>(length, 0);
}

// `obj` converted to `dtype` as NumPy stores a value into an array of it, as bytes.
void store_as(py::handle obj, DType dtype, unsigned char* bytes, const char* fname) {
  if (dtype == DType::bfloat16) {
    // Through float64 and then float32, as ml_dtypes rounds, and without needing ml_dtypes.
    unsigned char wide[8];
    store_as(obj, DType::float64, wide, fname);
    double value;
    std::memcpy(&value, wide, sizeof value);
    const bfloat16 narrow = convert<bfloat16>(value);
    std::memcpy(bytes, &narrow, sizeof narrow);
    return;
  }
  // Never released (see random_call.cpp's numpy_module).
  static PyObject* numpy_array =
      py::object(py::module_::import("numpy").attr("array")).release().ptr();
  py::object converted;
  try {
    converted = py::handle(numpy_array)(obj, numpy_dtype(dtype));
  } catch (py::error_already_set& e) {
    e.restore();
    rethrow_named(fname);
  }
  std::memcpy(bytes, py::array(converted).data(), static_cast<std::size_t>(itemsize(dtype)));
}

void run_sequence(const Target& t, const ArrayView& dst, DType dtype, const SequenceParams& p) {
  if (t.ex.gpu) {
    sequence_cuda(dtype, p, dst.data, t.ex.stream);
  } else {
    py::gil_scoped_release release;
    sequence_cpu(dtype, p, dst.data);
  }
}

py::object arange(py::handle start_obj, py::handle stop_obj, py::handle step_obj,
                  py::handle dtype_obj, py::handle device, py::handle stream, py::handle memory) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  const char* fname = "numcu.arange";
  py::object start = py::reinterpret_borrow<py::object>(start_obj);
  py::object stop = py::reinterpret_borrow<py::object>(stop_obj);
  py::object step = py::reinterpret_borrow<py::object>(step_obj);
  if (start.is_none()) throw_type_error(std::string(fname) + ": start must be given");
  // NumPy's result dtype: at least int64, promoted with every argument given.
  DType dtype = DType::int64;
  for (auto [obj, what] : {std::pair<py::handle, const char*>{start, "start"},
                           std::pair<py::handle, const char*>{stop, "stop"},
                           std::pair<py::handle, const char*>{step, "step"}}) {
    if (!obj.is_none()) dtype = promote_types(dtype, sequence_scalar(obj, what, fname));
  }
  if (!dtype_obj.is_none()) dtype = dtype_from_python(dtype_obj, fname);
  if (stop.is_none()) {
    stop = start;
    start = py::int_(0);
  }
  if (step.is_none()) step = py::int_(1);
  const int step_zero = PyObject_RichCompareBool(step.ptr(), py::int_(0).ptr(), Py_EQ);
  if (step_zero < 0) rethrow_named(fname);
  if (step_zero == 1) {
    PyErr_SetString(PyExc_ZeroDivisionError, "numcu.arange: step must not be zero");
    throw py::error_already_set();
  }
  const std::int64_t length = arange_length(start, stop, step, dtype_kind(dtype) == 'c', fname);
  if (dtype == DType::bool_ && length > 2) {
    throw_type_error(std::string(fname) +
                     ": boolean sequences can have at most two elements (like NumPy's arange)");
  }
  SequenceParams p;
  p.kind = SequenceKind::arange;
  p.n = length;
  // NumPy stores start and start + step, then extends their difference.
  if (length >= 1) store_as(start, dtype, p.a, fname);
  if (length >= 2) {
    py::object next = checked(PyNumber_Add(start.ptr(), step.ptr()), fname);
    store_as(next, dtype, p.b, fname);
  }
  checked::check_shape(fname, &length, 1, dtype);
  const Target t = target_of(fname, device, stream, memory, kDefaultDevice);
  const Created c = create(t, dtype, 1, &length, nullptr);
  run_sequence(t, c.view, dtype, p);
  finish(t, c);
  return c.object;
}

// Arithmetic of linspace's parameters in their type, as NumPy's scalars do it.
template <class T>
T subtract(T x, T y) {
  if constexpr (is_narrow_float_v<T>) {
    return convert<T>(convert<float>(x) - convert<float>(y));
  } else if constexpr (is_complex_v<T>) {
    return T(x.real() - y.real(), x.imag() - y.imag());
  } else {
    return x - y;
  }
}

// x / d for a real d, as NumPy divides by d + 0j (by multiplying with 1 / d) for complex x.
template <class T>
T divide(T x, T d) {
  if constexpr (is_narrow_float_v<T>) {
    return convert<T>(convert<float>(x) / convert<float>(d));
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const R scale = R(1) / d.real();
    return T(x.real() * scale, x.imag() * scale);
  } else {
    return x / d;
  }
}

template <class T>
bool is_zero(T x) {
  if constexpr (is_narrow_float_v<T>) {
    return convert<float>(x) == 0.0f;
  } else if constexpr (is_complex_v<T>) {
    return x.real() == 0 && x.imag() == 0;
  } else {
    return x == T(0);
  }
}

py::object linspace(py::handle start_obj, py::handle stop_obj, py::handle num_obj, bool endpoint,
                    bool retstep, py::handle dtype_obj, py::handle device, py::handle stream,
                    py::handle memory) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  const char* fname = "numcu.linspace";
  if (!PyIndex_Check(num_obj.ptr())) {
    throw_type_error(std::string(fname) + ": num must be an integer, not " +
                     Py_TYPE(num_obj.ptr())->tp_name);
  }
  int overflow = 0;
  const long long num =
      PyLong_AsLongLongAndOverflow(checked(PyNumber_Index(num_obj.ptr()), fname).ptr(), &overflow);
  if (overflow != 0) {
    throw_value_error(std::string(fname) + ": number of samples, " +
                      py::repr(num_obj).cast<std::string>() + ", does not fit in 64 bits");
  }
  if (num < 0) {
    throw_value_error(std::string(fname) + ": number of samples, " + std::to_string(num) +
                      ", must be non-negative");
  }
  sequence_scalar(start_obj, "start", fname);
  sequence_scalar(stop_obj, "stop", fname);
  const Operand start = intake(start_obj, fname);
  const Operand stop = intake(stop_obj, fname);
  // NumPy computes in the inexact result type of start and stop (Python numbers weak).
  const Operand* operands[2] = {&start, &stop};
  DType dt = result_dtype(operands, 2);
  if (!is_inexact(dt)) dt = DType::float64;
  const DType want = dtype_obj.is_none() ? dt : dtype_from_python(dtype_obj, fname);
  const bool integer = dtype_kind(want) == 'i' || dtype_kind(want) == 'u';
  if (integer && dtype_kind(dt) == 'c') {
    throw_type_error(std::string(fname) + ": complex values cannot be floored into " +
                     dtype_name(want) + " (NumPy's floor has no complex loop)");
  }
  const std::int64_t length = num;
  checked::check_shape(fname, &length, 1, want);
  const long long divisor = endpoint ? num - 1 : num;

  SequenceParams p;
  p.kind = SequenceKind::linspace;
  p.n = num;
  p.has_last = endpoint && num > 1;
  p.floor = integer;
  alignas(16) unsigned char start_bytes[16] = {}, stop_bytes[16] = {};
  for (auto [x, bytes] : {std::pair<const Operand*, unsigned char*>{&start, start_bytes},
                          std::pair<const Operand*, unsigned char*>{&stop, stop_bytes}}) {
    ArrayView dst;
    dst.dtype = dt;
    dst.data = reinterpret_cast<char*>(bytes);
    run_cast(Exec{}, dst, x->view, fname);
  }
  py::object step_value = py::float_(std::numeric_limits<double>::quiet_NaN());
  visit_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_inexact_v<T>) {
      T a, b;
      std::memcpy(static_cast<void*>(&a), start_bytes, sizeof(T));
      std::memcpy(static_cast<void*>(&b), stop_bytes, sizeof(T));
      const T delta = subtract(b, a);
      const T d = convert<T>(static_cast<std::int64_t>(divisor));
      T step = delta;
      if (divisor > 0) {
        step = divide(delta, d);
        // A step that underflowed to zero: (i / divisor) * delta instead (NumPy's gh-5437).
        p.divide = is_zero(step);
        if constexpr (is_bfloat16_v<T>) {
          // A Python float: NumPy's bfloat16 scalar would need ml_dtypes.
          step_value = py::float_(convert<double>(step));
        } else {
          alignas(16) unsigned char step_bytes[16] = {};
          std::memcpy(step_bytes, static_cast<const void*>(&step), sizeof(T));
          py::array holder(py::dtype::from_args(numpy_dtype(dt)), std::vector<py::ssize_t>{},
                           std::vector<py::ssize_t>{}, step_bytes);
          step_value = holder[py::tuple()];
        }
      }
      const T increment = divisor > 0 && !p.divide ? step : delta;
      std::memcpy(p.a, static_cast<const void*>(&a), sizeof(T));
      std::memcpy(p.b, static_cast<const void*>(&increment), sizeof(T));
      std::memcpy(p.divisor, static_cast<const void*>(&d), sizeof(T));
      std::memcpy(p.last, static_cast<const void*>(&b), sizeof(T));
    }
  });

  const Target t = target_of(fname, device, stream, memory, kDefaultDevice);
  const Created c = create(t, want, 1, &length, nullptr);
  if (num > 0) {
    if (want == dt) {
      run_sequence(t, c.view, dt, p);
    } else {
      // Computed in dt (floored for integer results), then converted, as NumPy does.
      Scratch scratch;
      const Exec& ex = t.ex;
      const ArrayView values = dense_view(scratch, ex, dt, 1, c.view.shape, nullptr);
      run_sequence(t, values, dt, p);
      if (ex.gpu) {
        run_cast(ex, c.view, values, fname);
      } else {
        py::gil_scoped_release release;
        run_cast(ex, c.view, values, fname);
      }
    }
  }
  finish(t, c);
  if (retstep) return py::make_tuple(c.object, step_value);
  return c.object;
}

const char* kCreationParams = R"doc(
device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
    'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
    the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
stream : optional
    The CUDA stream the work is queued on; by default the current stream.
memory : {'device', 'managed', 'pinned'}
    'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
    still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
    synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
    page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
    NumPy drops it.
)doc";

std::string creation_doc(const char* text) { return std::string(text) + kCreationParams; }

// The parameters of empty, zeros, ones and full, and of their *_like forms (Like: a model array
// first, and a shape after the dtype), by place: NumPy's names and order.
template <Fill F, bool Like>
struct CreationParams {
  static constexpr int value = F == Fill::value ? 1 : 0;  // fill_value, where there is one
  static constexpr int dtype = 1 + value;
  static constexpr int shape = Like ? dtype + 1 : 0;
  static constexpr int device = Like ? shape + 1 : dtype + 1;
  static constexpr int stream = device + 1;
  static constexpr int memory = device + 2;
  static constexpr int count = device + 3;
  static const char* const* names() {
    static const char* const plain[] = {"shape", "dtype", "device", "stream", "memory"};
    static const char* const valued[] = {"shape",  "fill_value", "dtype",
                                         "device", "stream",     "memory"};
    static const char* const like[] = {"a", "dtype", "shape", "device", "stream", "memory"};
    static const char* const like_valued[] = {"a",      "fill_value", "dtype", "shape",
                                              "device", "stream",     "memory"};
    if constexpr (Like) return value ? like_valued : like;
    return value ? valued : plain;
  }
};

constexpr const char* creation_name(Fill fill, bool like) {
  switch (fill) {
    case Fill::none:
      return like ? "numcu.empty_like" : "numcu.empty";
    case Fill::zeros:
      return like ? "numcu.zeros_like" : "numcu.zeros";
    case Fill::ones:
      return like ? "numcu.ones_like" : "numcu.ones";
    case Fill::value:
      break;
  }
  return like ? "numcu.full_like" : "numcu.full";
}

// numcu.empty, zeros, ones, full and their *_like forms, on CPython's vectorcall convention
// (fastcall.hpp): a small creation costs little more than its allocation.
template <Fill F, bool Like>
PyObject* creation_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  using P = CreationParams<F, Like>;
  static const ArgSpec spec{
      creation_name(F, Like), P::names(), P::count, 0, P::device, 1 + P::value};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    if (P::value && given(v[P::value]).is_none()) {
      throw_type_error(std::string(spec.fname) + ": fill_value must be a scalar, not None");
    }
    const py::handle like = v[0];
    return create_filled(spec.fname, F, Like ? &like : nullptr, given(v[P::shape]),
                         P::value ? given(v[P::value]) : py::handle(Py_None), given(v[P::dtype]),
                         given(v[P::device]), given(v[P::stream]), v[P::memory]);
  });
}

template <Fill F, bool Like>
void def_creation(py::module_& m, const char* text) {
  using P = CreationParams<F, Like>;
  const char* name = creation_name(F, Like) + 6;  // after "numcu."
  std::string sig = std::string(name) + "(";
  for (int i = 0; i < P::count; ++i) {
    const std::string param = P::names()[i];
    sig += i == 0 ? param : (i == P::device ? ", *, " : ", ") + param;
    if (i >= P::dtype) sig += param == "memory" ? "='device'" : "=None";
  }
  def_fastcall(m, name, &creation_entry<F, Like>, keep(sig + ")\n--\n\n" + creation_doc(text)));
}

}  // namespace

void bind_creation(py::module_& m) {
  const char* shape_params = R"doc(

Parameters
----------
shape : int or sequence of ints
dtype : optional)doc";
  def_creation<Fill::none, false>(
      m, (std::string("A new array of `shape` (float64 unless `dtype`), uninitialised.") +
          shape_params)
             .c_str());
  def_creation<Fill::zeros, false>(
      m, (std::string("A new array of zeros (float64 unless `dtype`).") + shape_params).c_str());
  def_creation<Fill::ones, false>(
      m, (std::string("A new array of ones (float64 unless `dtype`).") + shape_params).c_str());
  def_creation<Fill::value, false>(
      m,
      R"doc(A new array filled with `fill_value`, of its dtype unless `dtype` is given: a scalar, or an
array broadcast to the shape (a device array's values are copied without the host waiting).

Parameters
----------
shape : int or sequence of ints
fill_value : scalar or array
dtype : optional)doc");

  const char* like_params = R"doc(

Parameters
----------
a : array_like
    Any array numcu takes (host or device): its shape, dtype, layout (NumPy's order='K') and
    place are the defaults: a NumPy array for host data, a numcu.ndarray on `a`'s GPU for a
    device array.
dtype : optional
    Overrides the dtype.
shape : int or sequence of ints, optional
    Overrides the shape.)doc";
  def_creation<Fill::none, true>(
      m, (std::string("A new uninitialised array like `a`.") + like_params).c_str());
  def_creation<Fill::zeros, true>(
      m, (std::string("A new array of zeros like `a`.") + like_params).c_str());
  def_creation<Fill::ones, true>(
      m, (std::string("A new array of ones like `a`.") + like_params).c_str());
  def_creation<Fill::value, true>(
      m, (std::string("A new array like `a`, filled with `fill_value` (a scalar, or an array "
                      "broadcast to the shape), converted to the dtype.") +
          like_params)
             .c_str());

  static const std::string arange_doc = creation_doc(R"doc(
Evenly spaced values in [start, stop) with spacing `step`, as NumPy's arange.

``arange(stop)`` starts at 0. The length is ceil((stop - start) / step) (none where that is not
positive); the dtype is NumPy's: int64 for integers, else float64 or complex128 (NumPy scalars
promote with int64), unless `dtype` is given. Values are NumPy's: start, start + step, then
their difference repeated in the array's type (integers wrap).

Parameters
----------
start, stop, step : Python or NumPy numbers
dtype : optional)doc");
  m.def("arange", &arange, py::arg("start"), py::arg("stop") = py::none(),
        py::arg("step") = py::none(), py::arg("dtype") = py::none(), py::kw_only(),
        py::arg("device") = py::none(), py::arg("stream") = py::none(),
        py::arg("memory") = "device", arange_doc.c_str());

  static const std::string linspace_doc = creation_doc(R"doc(
`num` evenly spaced values from `start` to `stop` (included unless `endpoint` is False), as
NumPy's linspace.

Computed in the inexact type of `start` and `stop` (float64 for Python numbers) as
``start + i * step``, the last value set to `stop`; integer dtypes take the floor. With
`retstep`, returns ``(values, step)`` (step NaN for fewer than two intervals).

Parameters
----------
start, stop : Python or NumPy numbers
num : int
endpoint : bool
retstep : bool
dtype : optional)doc");
  m.def("linspace", &linspace, py::arg("start"), py::arg("stop"), py::arg("num") = 50,
        py::arg("endpoint") = true, py::arg("retstep") = false, py::arg("dtype") = py::none(),
        py::kw_only(), py::arg("device") = py::none(), py::arg("stream") = py::none(),
        py::arg("memory") = "device", linspace_doc.c_str());
}

}  // namespace numcu::python
