#include "intake.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "arguments.hpp"
#include "bfloat16.hpp"
#include "dlpack.hpp"
#include "foreign.hpp"
#include "ndarray.hpp"
#include "numcu/checked.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

std::string repr_of(py::handle obj) {
  try {
    return py::repr(obj).cast<std::string>();
  } catch (const py::error_already_set&) {
    return "<unprintable>";
  }
}

[[noreturn]] void unsupported_dtype(const char* fname, const std::string& what) {
  throw_type_error(std::string(fname) + ": unsupported dtype " + what);
}

// The dtype an object says it has, for error messages ("datetime64[ns]", ">f4").
std::string dtype_text(py::handle obj, const char* fallback) {
  if (py::hasattr(obj, "dtype")) {
    try {
      return py::str(obj.attr("dtype")).cast<std::string>();
    } catch (const py::error_already_set&) {
    }
  }
  return std::string("'") + fallback + "'";
}

// A PEP 3118 format string to a dtype (native or little-endian only).
bool dtype_from_format(const char* format, int size, DType* out) {
  const char* f = format ? format : "B";
  if (*f == '@' || *f == '=' || *f == '<') {
    ++f;
  } else if (*f == '>' || *f == '!') {
    if (size > 1) return false;
    ++f;
  }
  char kind;
  switch (*f) {
    case '?':
      kind = 'b';
      break;
    case 'b':
    case 'h':
    case 'i':
    case 'l':
    case 'q':
    case 'n':
      kind = 'i';
      break;
    case 'B':
    case 'H':
    case 'I':
    case 'L':
    case 'Q':
    case 'N':
      kind = 'u';
      break;
    case 'e':
    case 'f':
    case 'd':
      kind = 'f';
      break;
    case 'Z':
      if (f[1] != 'e' && f[1] != 'f' && f[1] != 'd') return false;
      kind = 'c';
      ++f;
      break;
    default:
      return false;
  }
  if (f[1] != '\0') return false;
  return dtype_from_kind(kind, size, out);
}

void check_ndim(const char* fname, Py_ssize_t ndim) {
  if (ndim < 0 || ndim > kMaxDims) {
    throw_value_error(std::string(fname) + ": arrays of " + std::to_string(ndim) +
                      " dimensions are not supported (at most " + std::to_string(kMaxDims) + ")");
  }
}

// The checks every host view takes, then `op` as that host operand.
void take_host_view(py::handle obj, const char* fname, Role role, Operand& op, bool aligned) {
  ArrayView& v = op.view;
  if (!checked::view_fits(v, false)) {
    throw_value_error(std::string(fname) + ": the buffer of a " + Py_TYPE(obj.ptr())->tp_name +
                      " is not a valid array: " + checked::view_problem(v, false));
  }
  if (role == Role::output && v.readonly) {
    throw_value_error(std::string(fname) + ": out is read-only");
  }
  op.kind = Operand::Kind::host;
  op.keepalive = py::reinterpret_borrow<py::object>(obj);
  if (!aligned) align_host_elements(op, fname, role);
}

// A numpy.ndarray read from its own fields (the layout NumPy 1.x and 2.x share for them, as
// pybind11 reads them), without a Py_buffer and its format string: a tenth of a small call.
// False for what the buffer protocol is left to decide: user-defined dtypes (bfloat16, numbered
// from NPY_USERDEF), dtypes numcu has no kind and size for (datetime64, records, longdouble),
// non-native byte order.
bool intake_numpy(py::handle obj, const char* fname, Role role, Operand& op) {
  constexpr int kUserDefined = 256;  // NPY_USERDEF
  const auto* a = foreign::numpy_array(obj.ptr());
  const auto* d = foreign::numpy_descr(a->descr);
  DType dtype;
  if (d->type_num >= kUserDefined || d->byteorder == '>' ||
      !dtype_from_kind(d->kind,
                       static_cast<int>(py::reinterpret_borrow<py::dtype>(a->descr).itemsize()),
                       &dtype)) {
    return false;
  }
  check_ndim(fname, a->nd);
  ArrayView& v = op.view;
  v.data = a->data;
  v.dtype = dtype;
  v.ndim = a->nd;
  v.device = kHost;
  v.readonly = (a->flags & foreign::kNumpyWriteable) == 0;
  for (int i = 0; i < v.ndim; ++i) {
    v.shape[i] = a->dimensions[i];
    v.strides[i] = a->strides[i];
  }
  // NumPy's aligned flag is numcu's test but for complex numbers, which NumPy aligns to their
  // parts and numcu's loops to their size.
  take_host_view(obj, fname, role, op,
                 (a->flags & foreign::kNumpyAligned) != 0 && dtype_kind(dtype) != 'c');
  return true;
}

bool intake_buffer(py::handle obj, const char* fname, Role role, Operand& op) {
  if (!PyObject_CheckBuffer(obj.ptr())) return false;
  auto buf = std::unique_ptr<Py_buffer, BufferRelease>(new Py_buffer);
  if (PyObject_GetBuffer(obj.ptr(), buf.get(), PyBUF_RECORDS_RO) != 0) {
    // NumPy refuses buffers for dtypes PEP 3118 cannot describe (datetime64, ...), ml_dtypes'
    // bfloat16 among them: that one comes in through a uint16 view of its memory.
    PyErr_Clear();
    delete buf.release();
    const py::object bits = bfloat16_bits(obj);
    if (!bits.is_none() && intake_buffer(bits, fname, role, op)) {
      op.view.dtype = DType::bfloat16;
      return true;
    }
    unsupported_dtype(fname, dtype_text(obj, "?"));
  }
  DType dtype;
  if (!dtype_from_format(buf->format, static_cast<int>(buf->itemsize), &dtype)) {
    unsupported_dtype(fname, dtype_text(obj, buf->format ? buf->format : "?"));
  }
  check_ndim(fname, buf->ndim);
  ArrayView& v = op.view;
  v.data = static_cast<char*>(buf->buf);
  v.dtype = dtype;
  v.ndim = buf->ndim;
  v.device = kHost;
  v.readonly = buf->readonly != 0;
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = buf->shape[d];
    v.strides[d] = buf->strides ? buf->strides[d] : 0;
  }
  if (!buf->strides &&
      checked::shape_status(v.shape, v.ndim, buf->itemsize) == checked::ShapeStatus::ok) {
    checked::c_strides(v);
  }
  op.buffer = std::move(buf);
  take_host_view(obj, fname, role, op, false);
  return true;
}

// A strided view's elements copied, as bytes, to dense C-ordered memory at `dst`: no typed load
// touches an element that may be misaligned.
void gather_bytes(const ArrayView& v, char* dst) {
  const int size = itemsize(v.dtype);
  std::int64_t index[kMaxDims] = {};
  const char* src = v.data;
  const std::int64_t n = v.size();
  for (std::int64_t k = 0; k < n; ++k) {
    std::memcpy(dst + k * size, src, static_cast<std::size_t>(size));
    for (int d = v.ndim - 1; d >= 0; --d) {
      src += v.strides[d];
      if (++index[d] < v.shape[d]) break;
      src -= v.strides[d] * v.shape[d];
      index[d] = 0;
    }
  }
}

[[noreturn]] void malformed(const char* fname, const std::string& what) {
  throw_value_error(std::string(fname) + ": malformed __cuda_array_interface__: " + what);
}

std::int64_t as_int(py::handle item, const char* fname, const char* what) {
  if (!PyLong_Check(item.ptr()) || PyBool_Check(item.ptr())) {
    malformed(fname, std::string(what) + " must be integers");
  }
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(item.ptr(), &overflow);
  if (overflow != 0) malformed(fname, std::string(what) + " must fit in 64 bits");
  return value;
}

// Interned names for the lookups made on every call: an interned str is matched by identity
// (CPython's type attribute cache, dict lookups) and its hash is kept, where
// PyObject_GetAttrString and PyDict_GetItemString make and hash a new str each time.
struct Names {
  PyObject* cai;
  PyObject* version;
  PyObject* mask;
  PyObject* shape;
  PyObject* typestr;
  PyObject* data;
  PyObject* strides;
  PyObject* stream;
  PyObject* ptr;
  PyObject* device_id;
  PyObject* dtype;
  PyObject* ndim;
  PyObject* size;
  PyObject* c_contiguous;
};

const Names& names() {
  static const Names n = [] {
    auto intern = [](const char* s) {
      PyObject* o = PyUnicode_InternFromString(s);
      if (o == nullptr) throw py::error_already_set();
      return o;  // kept for the life of the process
    };
    return Names{intern("__cuda_array_interface__"),
                 intern("version"),
                 intern("mask"),
                 intern("shape"),
                 intern("typestr"),
                 intern("data"),
                 intern("strides"),
                 intern("stream"),
                 intern("ptr"),
                 intern("device_id"),
                 intern("dtype"),
                 intern("ndim"),
                 intern("size"),
                 intern(foreign::kCupyCContiguous)};
  }();
  return n;
}

// The versions the CUDA Array Interface specification defines: 0 to 3 (3 added 'stream').
constexpr long long kNewestCAIVersion = 3;

// A typestr's item size: the digits after the byte order and kind characters, or -1.
int typestr_size(const std::string& ts) {
  if (ts.size() < 3 || ts.size() > 5) return -1;
  int size = 0;
  for (std::size_t k = 2; k < ts.size(); ++k) {
    if (ts[k] < '0' || ts[k] > '9') return -1;
    size = size * 10 + (ts[k] - '0');
  }
  return size;
}

// The stream a producer's data is written on, as the interface numbers it: 1 the legacy default
// stream (numcu's null stream: work on a non-blocking stream must still wait for it), 2 the
// per-thread default stream, anything else a stream's address.
void set_producer_stream(Operand& op, unsigned long long s, const char* fname, const char* what) {
  op.has_producer_stream = true;
  if (s == 1) {
    op.producer_stream = nullptr;
  } else if (s == 2) {
    op.producer_stream = reinterpret_cast<Stream>(std::uintptr_t{2});
  } else {
    op.producer_stream =
        foreign_stream(static_cast<std::uintptr_t>(s), fname, what, StreamFrom::vouched);
  }
}

void intake_cai(py::handle obj, py::handle cai_obj, const char* fname, Role role, Operand& op) {
  if (!PyDict_Check(cai_obj.ptr())) malformed(fname, "it is not a dict");
  py::dict cai = py::reinterpret_borrow<py::dict>(cai_obj);
  ArrayView& v = op.view;
  v.device = 0;

  PyObject* version = PyDict_GetItem(cai.ptr(), names().version);
  if (!version) malformed(fname, "no 'version'");
  int overflow = 0;
  const long long ver = PyLong_Check(version) && !PyBool_Check(version)
                            ? PyLong_AsLongLongAndOverflow(version, &overflow)
                            : -1;
  if (overflow != 0 || ver < 0 || ver > kNewestCAIVersion) {
    malformed(fname, "'version' " + repr_of(version) +
                         " is not a version of the interface numcu knows (0 to " +
                         std::to_string(kNewestCAIVersion) + ")");
  }

  PyObject* mask = PyDict_GetItem(cai.ptr(), names().mask);
  if (mask && mask != Py_None) {
    throw_value_error(std::string(fname) +
                      ": __cuda_array_interface__ with a mask is not supported");
  }
  PyObject* shape = PyDict_GetItem(cai.ptr(), names().shape);
  if (!shape) malformed(fname, "no 'shape'");
  if (!PyTuple_Check(shape)) malformed(fname, "'shape' must be a tuple");
  const Py_ssize_t ndim = PyTuple_GET_SIZE(shape);
  check_ndim(fname, ndim);
  v.ndim = static_cast<int>(ndim);
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = as_int(PyTuple_GET_ITEM(shape, d), fname, "'shape' entries");
    if (v.shape[d] < 0) malformed(fname, "negative 'shape' entry");
  }

  PyObject* typestr = PyDict_GetItem(cai.ptr(), names().typestr);
  if (!typestr) malformed(fname, "no 'typestr'");
  if (!PyUnicode_Check(typestr)) malformed(fname, "'typestr' must be a str");
  const std::string ts = py::reinterpret_borrow<py::str>(typestr).cast<std::string>();
  const char order = ts.empty() ? '?' : ts[0];
  const int size = typestr_size(ts);
  if (size < 0 || (order != '<' && order != '>' && order != '|' && order != '=')) {
    malformed(fname, "'typestr' " + repr_of(typestr) +
                         " is not of the form '<f4' (byte order, kind, item size)");
  }
  DType dtype;
  if (!dtype_from_kind(ts[1], size, &dtype) || (order == '>' && size > 1)) {
    unsupported_dtype(fname, ts);
  }
  v.dtype = dtype;
  if (checked::shape_status(v.shape, v.ndim, size) != checked::ShapeStatus::ok) {
    malformed(fname, checked::shape_problem(v));
  }

  PyObject* data = PyDict_GetItem(cai.ptr(), names().data);
  if (!data) malformed(fname, "no 'data'");
  if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2) {
    malformed(fname, "'data' must be a tuple (pointer, read_only)");
  }
  PyObject* ptr = PyTuple_GET_ITEM(data, 0);
  if (!PyLong_Check(ptr)) malformed(fname, "the data pointer must be an integer");
  v.data = reinterpret_cast<char*>(PyLong_AsUnsignedLongLong(ptr));
  if (PyErr_Occurred()) {
    PyErr_Clear();
    malformed(fname, "the data pointer is not a valid address");
  }
  PyObject* readonly = PyTuple_GET_ITEM(data, 1);
  if (!PyBool_Check(readonly)) {
    malformed(fname, "the read-only flag of 'data' must be a bool, not " + repr_of(readonly));
  }
  v.readonly = readonly == Py_True;

  PyObject* strides = PyDict_GetItem(cai.ptr(), names().strides);
  if (strides && strides != Py_None) {
    if (!PyTuple_Check(strides) || PyTuple_GET_SIZE(strides) != ndim) {
      malformed(fname, "'strides' must be None or a tuple as long as 'shape'");
    }
    for (int d = 0; d < v.ndim; ++d) {
      v.strides[d] = as_int(PyTuple_GET_ITEM(strides, d), fname, "'strides' entries");
    }
  } else {
    checked::c_strides(v);
  }
  // Kernels load typed elements from this memory: they need it aligned.
  if (!checked::view_fits(v, true)) malformed(fname, checked::view_problem(v, true));
  if (v.data == nullptr && v.size() != 0) {
    throw_value_error(std::string(fname) +
                      ": __cuda_array_interface__ has a null data pointer for " +
                      std::to_string(v.size()) + " elements");
  }
  PyObject* stream = PyDict_GetItem(cai.ptr(), names().stream);
  if (stream && stream != Py_None) {
    if (!PyLong_Check(stream) || PyBool_Check(stream)) {
      malformed(fname, "'stream' must be None or an integer");
    }
    const unsigned long long s = PyLong_AsUnsignedLongLong(stream);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      malformed(fname, "'stream' " + repr_of(stream) +
                           " is not a stream handle (handles are 1, 2 or an address)");
    }
    if (s == 0) malformed(fname, "'stream' 0 is disallowed by the interface (use 1 or 2)");
    set_producer_stream(op, s, fname, "__cuda_array_interface__ 'stream'");
  }
  if (role == Role::output && v.readonly) {
    throw_value_error(std::string(fname) + ": out is read-only");
  }
  if (v.data != nullptr) v.device = cuda::pointer_device(v.data);
  op.kind = Operand::Kind::device;
  op.keepalive = py::reinterpret_borrow<py::object>(obj);
}

}  // namespace

bool find_hook(LibraryHook& hook, const char* module, const char* type_name,
               const std::string& function_path) {
  if (hook.type != nullptr) return true;
  PyObject* lib = PyDict_GetItemString(PyImport_GetModuleDict(), module);  // borrowed
  if (lib == nullptr) return false;
  py::object type = py::reinterpret_steal<py::object>(PyObject_GetAttrString(lib, type_name));
  py::object fn = py::reinterpret_borrow<py::object>(lib);
  for (std::size_t at = 0; fn && !function_path.empty() && at <= function_path.size();) {
    const std::size_t dot = std::min(function_path.find('.', at), function_path.size());
    const std::string name = function_path.substr(at, dot - at);
    fn = py::reinterpret_steal<py::object>(PyObject_GetAttrString(fn.ptr(), name.c_str()));
    at = dot + 1;
  }
  if (!type || !PyType_Check(type.ptr()) ||
      (!function_path.empty() && (!fn || !PyCallable_Check(fn.ptr())))) {
    PyErr_Clear();
    return false;
  }
  hook.type = type.release().ptr();
  if (!function_path.empty()) hook.function = fn.release().ptr();
  return true;
}

namespace {

// PyTorch exports __cuda_array_interface__ version 2, which does not say which stream its data
// is written on: PyTorch's current stream. For a tensor, this returns PyTorch's query for that
// stream (the raw-stream query its own compiler emits, one C call); null for anything else, or
// when this PyTorch has no such query (the caller then takes the DLPack route).
PyObject* torch_stream_query(py::handle obj) {
  static LibraryHook torch;
  if (!find_hook(torch, "torch", "Tensor", "_C._cuda_getCurrentRawStream")) return nullptr;
  return PyObject_TypeCheck(obj.ptr(), reinterpret_cast<PyTypeObject*>(torch.type)) ? torch.function
                                                                                    : nullptr;
}

// PyTorch's current stream on `device` (0, its default stream, is the legacy default stream).
Stream torch_current_stream(PyObject* query, int device) {
  py::object handle = py::reinterpret_steal<py::object>(PyObject_CallFunction(query, "i", device));
  if (!handle) throw py::error_already_set();
  const unsigned long long s = PyLong_AsUnsignedLongLong(handle.ptr());
  if (PyErr_Occurred()) throw py::error_already_set();
  return reinterpret_cast<Stream>(static_cast<std::uintptr_t>(s));
}

void set_weak(Operand& op, DType dtype, const void* value, std::size_t bytes) {
  op.kind = Operand::Kind::scalar;
  op.weak = true;
  op.view.dtype = dtype;
  op.view.ndim = 0;
  op.view.device = kHost;
  std::memcpy(op.value, value, bytes);
  op.view.data = reinterpret_cast<char*>(op.value);
}

bool intake_python_scalar(py::handle obj, const char* fname, Operand& op) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) {
    const bool b = o == Py_True;
    set_weak(op, DType::bool_, &b, sizeof b);
    op.weak = false;  // Python bool promotes like NumPy's bool
    return true;
  }
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) {
      const std::int64_t v = x;
      set_weak(op, DType::int64, &v, sizeof v);
      return true;
    }
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) {
        const std::uint64_t v = u;
        set_weak(op, DType::uint64, &v, sizeof v);
        return true;
      }
      PyErr_Clear();
    }
    throw Error(ErrorKind::overflow_error, std::string(fname) + ": Python integer " + repr_of(obj) +
                                               " is out of bounds for int64");
  }
  if (PyFloat_CheckExact(o)) {
    const double d = PyFloat_AS_DOUBLE(o);
    set_weak(op, DType::float64, &d, sizeof d);
    return true;
  }
  if (PyComplex_CheckExact(o)) {
    const double c[2] = {PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)};
    set_weak(op, DType::complex128, c, sizeof c);
    return true;
  }
  return false;
}

}  // namespace

std::string shape_str(const std::int64_t* shape, int ndim) {
  return checked::shape_text(shape, ndim);
}

std::string device_str(int device) {
  return device == kHost ? "cpu" : "cuda:" + std::to_string(device);
}

void align_host_elements(Operand& op, const char* fname, Role role) {
  ArrayView& v = op.view;
  if (checked::elements_aligned(v)) return;
  const int size = itemsize(v.dtype);
  if (role == Role::output) {
    throw_value_error(std::string(fname) + ": out's elements are not aligned to their item size (" +
                      std::to_string(size) + " bytes), which numcu's loops need");
  }
  ArrayView dense = v;
  dense_strides(v.dtype, v.ndim, v.shape, nullptr, dense.strides);
  op.aligned_copy = numpy_empty(v.dtype, v.ndim, v.shape, dense.strides);
  dense.data = static_cast<char*>(py::array(op.aligned_copy).mutable_data());
  gather_bytes(v, dense.data);
  v = dense;
}

Operand scalar_operand(py::handle obj, const char* fname) {
  Operand x = intake(obj, fname);
  if (x.kind == Operand::Kind::device || x.view.ndim != 0) {
    throw_value_error(std::string(fname) + ": the fill value must be a scalar, not " +
                      (x.kind == Operand::Kind::device
                           ? std::string("a device array")
                           : "an array of shape " + shape_str(x.view.shape, x.view.ndim)));
  }
  return x;
}

int shape_into(py::handle shape, const char* fname, std::int64_t* out) {
  auto bad = [&] {
    throw_type_error(std::string(fname) + ": shape must be an int or a sequence of ints, not " +
                     repr_of(shape));
  };
  auto extent = [&](PyObject* item) -> std::int64_t {
    long long value;
    if (PyLong_CheckExact(item)) {
      value = PyLong_AsLongLong(item);
    } else {
      if (PyBool_Check(item) || !PyIndex_Check(item)) bad();
      py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item));
      if (!index) throw py::error_already_set();
      value = PyLong_AsLongLong(index.ptr());
    }
    if (value == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      throw_value_error(std::string(fname) + ": array dimension " + repr_of(py::handle(item)) +
                        " is too large");
    }
    return value;
  };
  PyObject* s = shape.ptr();
  if (PyLong_Check(s) || PyIndex_Check(s)) {
    out[0] = extent(s);
    return 1;
  }
  if (!PySequence_Check(s) || PyUnicode_Check(s)) bad();
  int ndim = 0;
  auto add = [&](PyObject* item) {
    if (ndim == kMaxDims) {
      throw_value_error(std::string(fname) + ": at most " + std::to_string(kMaxDims) +
                        " dimensions");
    }
    out[ndim++] = extent(item);
  };
  if (PyTuple_CheckExact(s)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(s); ++i) add(PyTuple_GET_ITEM(s, i));
  } else {
    for (py::handle item : shape) add(item.ptr());
  }
  return ndim;
}

std::vector<std::int64_t> shape_from(py::handle shape, const char* fname) {
  std::int64_t dims[kMaxDims];
  const int ndim = shape_into(shape, fname, dims);
  return std::vector<std::int64_t>(dims, dims + ndim);
}

Operand intake(py::handle obj, const char* fname, Role role) {
  Operand op;
  intake_into(op, obj, fname, role);
  return op;
}

namespace {

// How objects of one Python type come in, decided at the type's first sight, so that later
// objects of it go straight to their fastest route and pay no failed lookups for interfaces the
// type lacks. Every route still checks each object and falls back where the object declines.
enum class Route : std::uint8_t {
  numpy,     // numpy.ndarray: its own fields (intake_numpy), else the buffer protocol
  exchange,  // DLPack's C exchange table (type(x).__dlpack_c_exchange_api__)
  cupy,      // cupy.ndarray: its own attributes (intake_cupy)
  general,   // __cuda_array_interface__, then __dlpack__, the buffer protocol, numpy.asarray
};

struct TypeRoute {
  PyTypeObject* type = nullptr;  // a reference is held: the address names no other type
  unsigned int version = 0;      // the type's version tag when decided (0: none was assigned)
  Route route = Route::general;
  PyObject* capsule = nullptr;  // the exchange table's capsule, held
  const dl::ExchangeAPI* api = nullptr;
};

// A handful of types covers a program (the GIL guards the table); more only cost a decision.
constexpr int kCachedRoutes = 8;
TypeRoute g_routes[kCachedRoutes];
int g_next_route = 0;

// CuPy's cupy.cuda.get_current_stream where `type` is exactly cupy.ndarray (CuPy imported);
// null otherwise. Subclasses keep the general route.
PyObject* cupy_current_stream(PyTypeObject* type) {
  static LibraryHook cupy;
  if (!find_hook(cupy, "cupy", "ndarray", "cuda.get_current_stream")) return nullptr;
  return reinterpret_cast<PyObject*>(type) == cupy.type ? cupy.function : nullptr;
}

// CuPy's current stream on `device`, the handle of cupy.cuda.get_current_stream(device). CuPy
// hands back the same Stream object for as long as a stream stays current, and a Stream's
// handle never changes, so the handle of the last one seen is kept with a reference to it
// (which keeps that object, and so its address, from being reused): a call then costs
// get_current_stream(device) and a comparison. The array's device is named, where CuPy's
// interface reports the current device's stream: the two agree whenever the array is on the
// current device, and naming it spares CuPy a cudaGetDevice through its own runtime library.
// (CuPy 14's exported C function get_current_stream_ptr, measured on the H100 host, takes twice
// as long as the Python call.) False where CuPy answers with no int handle.
bool read_cupy_stream(PyObject* current_stream, int device, unsigned long long& s) {
  static PyObject* last = nullptr;  // a reference is held
  static unsigned long long last_handle = 0;
  const py::object id = py::reinterpret_steal<py::object>(PyLong_FromLong(device));
  PyObject* current = id ? PyObject_CallOneArg(current_stream, id.ptr()) : nullptr;
  if (current == nullptr) {
    PyErr_Clear();
    return false;
  }
  if (current == last) {
    Py_DECREF(current);
    s = last_handle;
    return true;
  }
  const py::object handle =
      py::reinterpret_steal<py::object>(PyObject_GetAttr(current, names().ptr));
  if (!handle || !PyLong_Check(handle.ptr())) {
    Py_DECREF(current);
    PyErr_Clear();
    return false;
  }
  const unsigned long long h = PyLong_AsUnsignedLongLong(handle.ptr());
  if (PyErr_Occurred()) {
    Py_DECREF(current);
    PyErr_Clear();
    return false;
  }
  PyObject* previous = last;  // released after the new entry is in place: its finaliser may run
  last = current;
  last_handle = h;
  Py_XDECREF(previous);
  s = h;
  return true;
}

// One attribute of an extension type, read as getattr reads it but without getattr's lookup:
// the type's own data descriptor (a getset, which no instance attribute can hide), whose getter
// is called directly. Objects of other types, and attributes that are not getsets, go through
// getattr.
struct Attribute {
  PyTypeObject* type = nullptr;
  PyObject* name = nullptr;
  getter get = nullptr;
  void* closure = nullptr;

  Attribute(PyTypeObject* t, PyObject* n) : type(t), name(n) {
    PyObject* d = t ? PyObject_GetAttr(reinterpret_cast<PyObject*>(t), n) : nullptr;
    if (d != nullptr && Py_IS_TYPE(d, &PyGetSetDescr_Type)) {
      const PyGetSetDef* def = reinterpret_cast<PyGetSetDescrObject*>(d)->d_getset;
      get = def->get;
      closure = def->closure;
    }
    Py_XDECREF(d);  // the type holds the descriptor for the life of the process
    PyErr_Clear();
  }

  py::object of(PyObject* o) const {
    return py::reinterpret_steal<py::object>(
        get != nullptr && Py_TYPE(o) == type ? get(o, closure) : PyObject_GetAttr(o, name));
  }
};

// The attributes intake_cupy reads, of cupy.ndarray (`type`: the only type intake_cupy is given)
// and of cupy.cuda.MemoryPointer (held from the first call on).
struct CupyAttributes {
  Attribute data, dtype, ndim, size, c_contiguous, shape, strides, ptr, device_id;
};

const CupyAttributes& cupy_attributes(PyTypeObject* type) {
  static const CupyAttributes a = [type] {
    const Names& n = names();
    PyObject* cupy = PyDict_GetItemString(PyImport_GetModuleDict(), "cupy.cuda.memory");
    PyObject* pointer = cupy ? PyObject_GetAttrString(cupy, "MemoryPointer") : nullptr;
    PyErr_Clear();
    auto* pointer_type = pointer != nullptr && PyType_Check(pointer)
                             ? reinterpret_cast<PyTypeObject*>(pointer)  // kept
                             : nullptr;
    if (pointer_type == nullptr) Py_XDECREF(pointer);
    return CupyAttributes{{type, n.data},    {type, n.dtype},        {type, n.ndim},
                          {type, n.size},    {type, n.c_contiguous}, {type, n.shape},
                          {type, n.strides}, {pointer_type, n.ptr},  {pointer_type, n.device_id}};
  }();
  return a;
}

// A cupy.ndarray read through its own attributes, not __cuda_array_interface__, whose property
// builds a seven-entry dict on every access (about a microsecond an operand): data.ptr and
// data.device_id, dtype, ndim, and as the stream its data is written on CuPy's current stream
// on its device, which is what its interface reports for an array on the current device. CuPy
// builds a new tuple for every read of `shape` or `strides` (each costs as much as the other reads
// together), so a one-dimensional array's shape is read as its `size`, and a C-contiguous array
// (CuPy's own flag, `_c_contiguous`, which its interface also goes by) takes the contiguous strides
// its interface would report. CuPy's arrays are always writable. False (the general route then) for
// anything unexpected: a missing attribute, an unknown dtype. `memo` (may be null) keeps CuPy's
// current stream for the call's other operands.
bool intake_cupy(PyObject* current_stream, py::handle obj, const char* fname, Operand& op,
                 IntakeMemo* memo) {
  const CupyAttributes& at = cupy_attributes(Py_TYPE(obj.ptr()));
  auto fail = [] {
    PyErr_Clear();
    return false;
  };
  const py::object data = at.data.of(obj.ptr());
  const py::object ptr = data ? at.ptr.of(data.ptr()) : py::object();
  const py::object device = data ? at.device_id.of(data.ptr()) : py::object();
  const py::object dtype = at.dtype.of(obj.ptr());
  const py::object ndim_obj = at.ndim.of(obj.ptr());
  if (!ptr || !device || !dtype || !ndim_obj || !PyLong_Check(ptr.ptr()) ||
      !PyLong_Check(device.ptr()) || !PyLong_Check(ndim_obj.ptr())) {
    return fail();
  }
  // dtype objects of the builtin types are NumPy's singletons: a few are remembered.
  struct Known {
    PyObject* dtype = nullptr;  // a reference is held
    DType value = DType::float64;
  };
  static Known known[16];
  static int next = 0;
  DType dt = DType::float64;
  bool found = false;
  for (const Known& k : known) {
    if (k.dtype == dtype.ptr()) {
      dt = k.value;
      found = true;
      break;
    }
  }
  if (!found) {
    try {
      dt = dtype_from_python(dtype, fname);
    } catch (const py::error_already_set&) {
      return fail();
    } catch (const Error&) {
      return false;
    }
    Known& slot = known[next];
    next = (next + 1) % 16;
    Py_XDECREF(slot.dtype);
    slot.dtype = dtype.inc_ref().ptr();
    slot.value = dt;
  }
  const long ndim = PyLong_AsLong(ndim_obj.ptr());
  if (ndim == -1 && PyErr_Occurred()) return fail();
  check_ndim(fname, ndim);
  ArrayView& v = op.view;
  v.dtype = dt;
  v.ndim = static_cast<int>(ndim);
  if (v.ndim == 1) {
    const py::object size = at.size.of(obj.ptr());
    if (!size) return fail();
    v.shape[0] = as_int(size.ptr(), fname, "'size'");
  } else if (v.ndim > 1) {
    const py::object shape = at.shape.of(obj.ptr());
    if (!shape || !PyTuple_Check(shape.ptr()) || PyTuple_GET_SIZE(shape.ptr()) != ndim) {
      return fail();
    }
    for (int d = 0; d < v.ndim; ++d) {
      v.shape[d] = as_int(PyTuple_GET_ITEM(shape.ptr(), d), fname, "'shape' entries");
    }
  }
  const py::object contiguous = at.c_contiguous.of(obj.ptr());
  if (contiguous.ptr() == Py_True) {
    checked::c_strides(v);
  } else {
    PyErr_Clear();  // no such flag (another CuPy): the strides are read
    const py::object strides = at.strides.of(obj.ptr());
    if (!strides || !PyTuple_Check(strides.ptr()) || PyTuple_GET_SIZE(strides.ptr()) != ndim) {
      return fail();
    }
    for (int d = 0; d < v.ndim; ++d) {
      v.strides[d] = as_int(PyTuple_GET_ITEM(strides.ptr(), d), fname, "'strides' entries");
    }
  }
  v.data = reinterpret_cast<char*>(PyLong_AsUnsignedLongLong(ptr.ptr()));
  v.device = static_cast<int>(PyLong_AsLong(device.ptr()));
  if (PyErr_Occurred()) return fail();
  v.readonly = false;
  if (!checked::view_fits(v, true)) {
    return false;  // the general route says what is wrong
  }
  unsigned long long s = 0;
  if (memo != nullptr && memo->cupy_device == v.device) {
    s = memo->cupy_stream;
  } else {
    if (!read_cupy_stream(current_stream, v.device, s)) return false;
    if (memo != nullptr) {
      memo->cupy_device = v.device;
      memo->cupy_stream = s;
    }
  }
  // CuPy's null stream is the legacy default stream (its interface says 1).
  set_producer_stream(op, s == 0 ? 1 : s, fname, "CuPy's current stream");
  op.kind = Operand::Kind::device;
  op.keepalive = py::reinterpret_borrow<py::object>(obj);
  return true;
}

PyTypeObject* numpy_ndarray_type() {
  static PyTypeObject* type = reinterpret_cast<PyTypeObject*>(
      py::object(py::module_::import("numpy").attr("ndarray")).release().ptr());
  return type;
}

// Whether a decision still holds: CPython gives a type a new version tag when its attributes
// change (an exchange table installed after the fact, say), and such a type is decided again.
bool route_current(const TypeRoute& r, PyTypeObject* type) {
  if (r.version == 0) return true;
#ifdef Py_TPFLAGS_VALID_VERSION_TAG
  if (!PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) return false;
#endif
  return type->tp_version_tag == r.version;
}

TypeRoute decide_route(PyTypeObject* type) {
  TypeRoute r;
  r.type = type;
  if (type == numpy_ndarray_type()) {
    r.route = Route::numpy;
  } else if (cupy_current_stream(type) != nullptr) {
    r.route = Route::cupy;
  } else {
    // Looked up on the type, as the specification says (an instance attribute does not count).
    PyObject* capsule =
        PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__dlpack_c_exchange_api__");
    if (capsule == nullptr) PyErr_Clear();
    r.api = usable_exchange_api(capsule);
    if (r.api != nullptr) {
      r.route = Route::exchange;
      r.capsule = capsule;
    } else {
      Py_XDECREF(capsule);
    }
  }
  r.version = type->tp_version_tag;  // assigned by the lookup above where CPython can
  return r;
}

const TypeRoute& route_of(PyTypeObject* type) {
  int slot = -1;
  for (int k = 0; k < kCachedRoutes; ++k) {
    if (g_routes[k].type == type) {
      if (route_current(g_routes[k], type)) return g_routes[k];
      slot = k;
      break;
    }
  }
  TypeRoute decided = decide_route(type);  // may run Python code: the table is written after
  if (slot < 0 || g_routes[slot].type != type) {
    slot = g_next_route;
    g_next_route = (g_next_route + 1) % kCachedRoutes;
  }
  const TypeRoute old = g_routes[slot];
  Py_INCREF(type);
  g_routes[slot] = decided;
  Py_XDECREF(old.capsule);
  Py_XDECREF(reinterpret_cast<PyObject*>(old.type));
  return g_routes[slot];
}

// __cuda_array_interface__, then __dlpack__: false when the object has neither.
bool intake_interfaces(Operand& op, py::handle obj, const char* fname, Role role) {
  PyObject* cai = PyObject_GetAttr(obj.ptr(), names().cai);
  if (cai) {
    py::object holder = py::reinterpret_steal<py::object>(cai);
    if (PyDict_Check(cai) && PyDict_GetItem(cai, names().stream) == nullptr) {
      // An interface without 'stream' (version 2) says nothing of the stream its data is
      // written on. PyTorch's is its current stream, read directly (fast); other objects
      // that also speak DLPack, whose __dlpack__(stream=) orders the producer's work before
      // numcu's stream, take that route.
      if (PyObject* query = torch_stream_query(obj)) {
        intake_cai(obj, holder, fname, role, op);
        if (op.view.data != nullptr) {
          op.has_producer_stream = true;
          op.producer_stream = torch_current_stream(query, op.view.device);
        }
        return true;
      }
      if (PyObject_HasAttrString(obj.ptr(), "__dlpack__") && intake_dlpack(obj, fname, role, op)) {
        return true;
      }
    }
    intake_cai(obj, holder, fname, role, op);
    return true;
  }
  PyErr_Clear();
  return intake_dlpack(obj, fname, role, op);
}

// The buffer protocol, then whatever numpy.asarray makes of the object.
void intake_host(Operand& op, py::handle obj, const char* fname, Role role) {
  if (intake_buffer(obj, fname, role, op)) return;
  if (role == Role::output) {
    throw_type_error(std::string(fname) +
                     ": out must be an array (NumPy, numcu or any object "
                     "with __cuda_array_interface__), not " +
                     std::string(Py_TYPE(obj.ptr())->tp_name));
  }
  // Lists, tuples, NumPy scalars without a buffer, CPU tensors: whatever NumPy makes of them.
  py::object arr;
  try {
    arr = py::module_::import("numpy").attr("asarray")(obj);
  } catch (const py::error_already_set&) {
    throw_type_error(std::string(fname) + ": unsupported input of type " +
                     Py_TYPE(obj.ptr())->tp_name);
  }
  if (!intake_buffer(arr, fname, role, op)) {
    throw_type_error(std::string(fname) + ": unsupported input of type " +
                     Py_TYPE(obj.ptr())->tp_name);
  }
}

// The routes intake takes, as named by numcu._core._intake_info.
enum class Taken { numcu, scalar, exchange, cupy, interfaces, host };

const char* taken_name(Taken t) {
  static constexpr const char* kNames[] = {"numcu", "scalar",     "exchange",
                                           "cupy",  "interfaces", "host"};
  return kNames[static_cast<int>(t)];
}

Taken intake_routed(Operand& op, py::handle obj, const char* fname, Role role, IntakeMemo* memo) {
  // numpy.ndarray itself, the commonest operand, is read from its fields at once: it is neither
  // a numcu.ndarray nor a Python scalar, and decide_route gives it NumPy's route.
  if (Py_TYPE(obj.ptr()) == numpy_ndarray_type() && intake_numpy(obj, fname, role, op)) {
    return Taken::host;
  }
  if (const NdArray* array = ndarray_of(obj)) {
    const NdArray& a = *array;
    op.view = a.view();
    op.kind = Operand::Kind::device;
    op.allocation = a.allocation();
    if (role == Role::output && op.view.readonly) {
      throw_value_error(std::string(fname) + ": out is read-only");
    }
    op.keepalive = py::reinterpret_borrow<py::object>(obj);
    return Taken::numcu;
  }
  if (role == Role::input && intake_python_scalar(obj, fname, op)) return Taken::scalar;
  const TypeRoute& route = route_of(Py_TYPE(obj.ptr()));
  const Route kind = route.route;
  if (kind == Route::exchange && intake_exchange(route.api, obj, fname, role, op, memo)) {
    return Taken::exchange;
  }
  if (kind == Route::cupy &&
      intake_cupy(cupy_current_stream(Py_TYPE(obj.ptr())), obj, fname, op, memo)) {
    return Taken::cupy;
  }
  // NumPy arrays are read from their fields, or else through the buffer protocol; anything else
  // is asked for __cuda_array_interface__ first (CuPy arrays have a buffer slot that refuses).
  if (kind == Route::numpy && intake_numpy(obj, fname, role, op)) return Taken::host;
  // The routes below may run Python code, which may change a library's current stream.
  if (memo != nullptr) *memo = IntakeMemo{};
  if (kind != Route::numpy && intake_interfaces(op, obj, fname, role)) return Taken::interfaces;
  intake_host(op, obj, fname, role);
  return Taken::host;
}

}  // namespace

void intake_into(Operand& op, py::handle obj, const char* fname, Role role, IntakeMemo* memo) {
  intake_routed(op, obj, fname, role, memo);
}

namespace {

// numcu._core._intake_info(obj, route=None): what intake makes of obj, for tests that compare
// routes. route: None (the route numcu takes), "exchange" (the type's C exchange table), "cupy"
// (a cupy.ndarray's attributes), "buffer" (the buffer protocol, where a numpy.ndarray's own
// fields are read otherwise),
// "interfaces" (__cuda_array_interface__, then __dlpack__) or "dlpack" (__dlpack__ only).
py::dict intake_info(py::handle obj, py::handle route) {
  const char* fname = "numcu._core._intake_info";
  Operand op;
  Taken taken;
  const std::string name = route.is_none() ? "" : route.cast<std::string>();
  if (name.empty()) {
    taken = intake_routed(op, obj, fname, Role::input, nullptr);
  } else if (name == "exchange") {
    py::object capsule = py::type::of(obj).attr("__dlpack_c_exchange_api__");
    const dl::ExchangeAPI* api = usable_exchange_api(capsule.ptr());
    if (api == nullptr) throw_value_error(std::string(fname) + ": no usable exchange table");
    if (!intake_exchange(api, obj, fname, Role::input, op)) {
      throw_value_error(std::string(fname) + ": the producer declined the object");
    }
    taken = Taken::exchange;
  } else if (name == "cupy") {
    PyObject* current = cupy_current_stream(Py_TYPE(obj.ptr()));
    if (current == nullptr || !intake_cupy(current, obj, fname, op, nullptr)) {
      throw_value_error(std::string(fname) + ": not a cupy.ndarray numcu can read directly");
    }
    taken = Taken::cupy;
  } else if (name == "buffer") {
    intake_host(op, obj, fname, Role::input);
    taken = Taken::host;
  } else if (name == "interfaces" || name == "dlpack") {
    const bool found = name == "dlpack" ? intake_dlpack(obj, fname, Role::input, op)
                                        : intake_interfaces(op, obj, fname, Role::input);
    if (!found) throw_value_error(std::string(fname) + ": the object has no such interface");
    taken = Taken::interfaces;
  } else {
    throw_value_error(std::string(fname) + ": unknown route " + name);
  }
  const ArrayView& v = op.view;
  py::dict d;
  d["route"] = taken_name(taken);
  d["kind"] = op.kind == Operand::Kind::device ? "device"
              : op.kind == Operand::Kind::host ? "host"
                                               : "scalar";
  d["data"] = reinterpret_cast<std::uintptr_t>(v.data);
  py::tuple shape(v.ndim), strides(v.ndim);
  for (int k = 0; k < v.ndim; ++k) {
    shape[k] = py::int_(v.shape[k]);
    strides[k] = py::int_(v.strides[k]);
  }
  d["shape"] = shape;
  d["strides"] = strides;
  d["dtype"] = dtype_name(v.dtype);
  d["device"] = v.device;
  d["readonly"] = v.readonly;
  d["stream"] = op.has_producer_stream
                    ? py::object(py::int_(reinterpret_cast<std::uintptr_t>(op.producer_stream)))
                    : py::object(py::none());
  return d;
}

}  // namespace

void bind_intake(py::module_& m) {
  m.def("_intake_info", &intake_info, py::arg("obj"), py::arg("route") = py::none(),
        "What intake makes of obj (data, shape, strides in bytes, dtype, device, stream joined, "
        "route): for tests. route: None (numcu's choice), 'exchange', 'cupy', 'buffer', "
        "'interfaces' or 'dlpack'.");
  m.def(
      "_exchange_counts",
      [] {
        using namespace py::literals;
        const ExchangeCounts& c = exchange_counts();
        return py::dict("views"_a = c.views, "exports"_a = c.exports, "imports"_a = c.imports,
                        "allocations"_a = c.allocations);
      },
      "How many tensors numcu.ndarray's DLPack C exchange table has handed out and taken in.");
}

}  // namespace numcu::python
