#include "arguments.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "bfloat16.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"

namespace numcu::python {

Stream stream_from_python(py::handle stream, const char* fname) {
  Stream own;
  if (numcu_stream_handle(stream, &own)) {
    const auto h = reinterpret_cast<std::uintptr_t>(own);
    if (h == 0 || h == 2) return own;  // the legacy and per-thread default streams
    return foreign_stream(h, fname, "stream", StreamFrom::vouched);  // one lookup
  }
  // Another library's stream object that numcu memory holds already (one lookup).
  if (!PyLong_Check(stream.ptr()) && held_stream(stream, &own)) return own;
  py::object handle;
  if (PyLong_Check(stream.ptr())) {
    handle = py::reinterpret_borrow<py::object>(stream);
  } else if (py::hasattr(stream, "__cuda_stream__")) {
    py::object proto = stream.attr("__cuda_stream__");
    py::object value = PyCallable_Check(proto.ptr()) ? proto() : proto;
    handle = PyTuple_Check(value.ptr()) ? py::object(value[py::int_(1)]) : value;
  } else if (py::hasattr(stream, "cuda_stream")) {
    handle = stream.attr("cuda_stream");
  } else if (py::hasattr(stream, "ptr")) {
    handle = stream.attr("ptr");
  } else {
    throw_type_error(std::string(fname) +
                     ": stream must be a CUDA stream (numcu.cuda.Stream, a "
                     "CuPy or PyTorch stream, or an int handle), not " +
                     Py_TYPE(stream.ptr())->tp_name);
  }
  if (!PyLong_Check(handle.ptr())) {
    throw_type_error(std::string(fname) + ": a stream's handle must be an int, not " +
                     Py_TYPE(handle.ptr())->tp_name);
  }
  const unsigned long long h = PyLong_AsUnsignedLongLong(handle.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw_value_error(std::string(fname) + ": stream " + py::repr(handle).cast<std::string>() +
                      " is not a CUDA stream (handles are addresses, from 0 to 2**64 - 1)");
  }
  if (h == 0 || h == 1) return nullptr;  // the legacy default stream
  if (h == 2) return reinterpret_cast<Stream>(static_cast<std::uintptr_t>(0x2));  // per-thread
  return foreign_stream(
      static_cast<std::uintptr_t>(h), fname, "stream",
      PyLong_Check(stream.ptr()) ? StreamFrom::user_integer : StreamFrom::vouched);
}

namespace {
// s == word, in a few inlined instructions (GCC leaves string_view's operator== a call to
// compare, a fifth of a small call's argument parsing).
template <std::size_t N>
bool is_word(std::string_view s, const char (&word)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), word, N - 1) == 0;
}
}  // namespace

DeviceRequest parse_device(py::handle device, py::handle dev_id, py::handle sync, const char* fname,
                           py::handle stream) {
  DeviceRequest r;
  if (!stream.is_none()) {
    r.has_stream = true;
    r.stream = stream_from_python(stream, fname);
    if (!PyLong_Check(stream.ptr())) r.stream_object = stream.ptr();
  }
  auto bad = [&](py::handle what) {
    throw_value_error(std::string(fname) +
                      ": device must be None, 'cpu', 'cuda', 'cuda:N' or a device index, not " +
                      py::repr(what).cast<std::string>());
  };
  auto from_index = [&](py::handle idx) {
    const long long i = idx.cast<long long>();
    if (i < 0) bad(idx);
    r.kind = DeviceRequest::Kind::cuda;
    r.device = static_cast<int>(i);
  };
  if (!device.is_none()) {
    if (PyUnicode_Check(device.ptr())) {
      // UTF-8 of a str is cached by CPython: no copy, and an ASCII str's is its own data.
      Py_ssize_t size = 0;
      const char* text = PyUnicode_AsUTF8AndSize(device.ptr(), &size);
      if (text == nullptr) throw py::error_already_set();
      const std::string_view s(text, static_cast<std::size_t>(size));
      if (is_word(s, "cpu")) {
        r.kind = DeviceRequest::Kind::cpu;
      } else if (is_word(s, "cuda")) {
        r.kind = DeviceRequest::Kind::cuda;
      } else if (s.substr(0, 5) == "cuda:" && s.size() > 5 && s.size() <= 14 &&
                 s.find_first_not_of("0123456789", 5) == std::string_view::npos) {
        r.kind = DeviceRequest::Kind::cuda;
        r.device = std::stoi(std::string(s.substr(5)));
      } else {
        bad(device);
      }
    } else if (PyLong_Check(device.ptr()) && !PyBool_Check(device.ptr())) {
      from_index(device);
    } else if (py::hasattr(device, "id")) {
      from_index(device.attr("id"));
    } else {
      bad(device);
    }
  }
  if (!dev_id.is_none()) {
    DeviceRequest d;
    if (PyBool_Check(dev_id.ptr())) {
      // NumCu: dev_id=False means the CPU.
      d.kind = dev_id.ptr() == Py_False ? DeviceRequest::Kind::cpu : DeviceRequest::Kind::cuda;
    } else if (PyLong_Check(dev_id.ptr()) && dev_id.cast<long long>() >= 0) {
      d.kind = DeviceRequest::Kind::cuda;
      d.device = dev_id.cast<int>();
    } else {
      throw_value_error(std::string(fname) + ": dev_id must be a device index or False, not " +
                        py::repr(dev_id).cast<std::string>());
    }
    if (r.kind != DeviceRequest::Kind::automatic && (r.kind != d.kind || r.device != d.device)) {
      throw_value_error(std::string(fname) + ": device= and dev_id= disagree");
    }
    r.kind = d.kind;
    r.device = d.device;
  }
  r.sync = !sync.is_none() && PyObject_IsTrue(sync.ptr()) == 1;
  return r;
}

namespace {

// The objects dtype= is most often given as, numpy.dtype instances and scalar types (np.float32,
// float), are long-lived singletons: each one's answer is kept, with a reference that keeps the
// object (and so its address) alive. A few dozen at most are ever seen.
struct KnownDtypes {
  static constexpr int kSize = 64;
  PyObject* objects[kSize] = {};
  DType dtypes[kSize] = {};
  int count = 0;

  const DType* find(PyObject* o) const {
    for (int i = 0; i < count; ++i) {
      if (objects[i] == o) return &dtypes[i];
    }
    return nullptr;
  }
  void add(PyObject* o, DType d) {
    if (count == kSize) return;
    Py_INCREF(o);
    objects[count] = o;
    dtypes[count++] = d;
  }
};

KnownDtypes& known_dtypes() {
  static KnownDtypes* k = new KnownDtypes;  // the GIL guards it
  return *k;
}

// The dtype a str names, where it is one of numcu's dtype names (what numpy.dtype() makes of it
// too); false for any other text, which numpy.dtype() reads.
bool dtype_by_name(py::handle text, DType* out) {
  Py_ssize_t size = 0;
  const char* s = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (s == nullptr) {
    PyErr_Clear();
    return false;
  }
  for (int i = 0; i < kNumDTypes; ++i) {
    const char* name = dtype_name(static_cast<DType>(i));
    if (std::strlen(name) == static_cast<std::size_t>(size) && std::memcmp(name, s, size) == 0) {
      *out = static_cast<DType>(i);
      return true;
    }
  }
  return false;
}

}  // namespace

DType dtype_from_python(py::handle dtype, const char* fname) {
  KnownDtypes& known = known_dtypes();
  if (const DType* hit = known.find(dtype.ptr())) return *hit;
  // By name, bfloat16 needs no ml_dtypes: device arrays of it work without.
  DType named;
  if (PyUnicode_Check(dtype.ptr()) && dtype_by_name(dtype, &named)) return named;
  py::object d = py::module_::import("numpy").attr("dtype")(dtype);
  const bool singleton = PyType_Check(dtype.ptr()) || py::isinstance<py::dtype>(dtype);
  if (is_ml_bfloat16(d)) {
    if (singleton) known.add(dtype.ptr(), DType::bfloat16);
    return DType::bfloat16;
  }
  const std::string kind = d.attr("kind").cast<std::string>();
  const int size = d.attr("itemsize").cast<int>();
  const std::string order = d.attr("byteorder").cast<std::string>();
  DType out;
  if (kind.size() != 1 || order == ">" || !dtype_from_kind(kind[0], size, &out)) {
    throw_type_error(std::string(fname) + ": unsupported dtype " + py::str(d).cast<std::string>());
  }
  if (singleton) known.add(dtype.ptr(), out);
  return out;
}

[[noreturn]] void axis_error(const char* fname, long long axis, int ndim) {
  py::object np = py::module_::import("numpy");
  py::object type = py::hasattr(np, "exceptions") ? np.attr("exceptions").attr("AxisError")
                                                  : np.attr("AxisError");
  py::object exc = type(axis, ndim, fname);
  PyErr_SetObject(type.ptr(), exc.ptr());
  throw py::error_already_set();
}

int normalize_axis(py::handle item, int ndim, const char* fname) {
  PyObject* index = PyNumber_Index(item.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    throw_type_error(std::string(fname) +
                     ": axis must be None, an integer or a tuple of integers, not " +
                     py::repr(item).cast<std::string>());
  }
  const long long a = PyLong_AsLongLong(index);
  Py_DECREF(index);
  if (a == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (a < -ndim || a >= ndim) axis_error(fname, a, ndim);
  return static_cast<int>(a < 0 ? a + ndim : a);
}

}  // namespace numcu::python
