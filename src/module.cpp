// numcu._core: the pybind11 module. Everything Python-facing is bound here; the work is done in
// intake.cpp, elementwise_call.cpp and ndarray.cpp, and in the kernels library.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "elementwise_call.hpp"
#include "fastcall.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "reduce_call.hpp"
#include "transfer.hpp"

namespace py = pybind11;
using namespace numcu;
using namespace numcu::python;

namespace {

PyObject* g_cuda_error = nullptr;
PyObject* g_out_of_memory = nullptr;
PyObject* g_cuda_unavailable = nullptr;

}  // namespace

namespace numcu::python {
void bind_streams(py::module_& c);
void bind_threads(py::module_& m);
}  // namespace numcu::python

void numcu::python::set_python_error(const Error& e) {
  switch (e.kind()) {
    case ErrorKind::type_error:
      PyErr_SetString(PyExc_TypeError, e.what());
      return;
    case ErrorKind::value_error:
      PyErr_SetString(PyExc_ValueError, e.what());
      return;
    case ErrorKind::overflow_error:
      PyErr_SetString(PyExc_OverflowError, e.what());
      return;
    case ErrorKind::cuda_error:
      PyErr_SetString(g_cuda_error, e.what());
      return;
    case ErrorKind::cuda_unavailable:
      PyErr_SetString(g_cuda_unavailable, e.what());
      return;
    case ErrorKind::out_of_memory: {
      PyObject* exc = PyObject_CallFunction(g_out_of_memory, "s", e.what());
      if (exc == nullptr) return;
      PyObject* nbytes = PyLong_FromSize_t(e.nbytes());
      PyObject_SetAttrString(exc, "nbytes", nbytes);
      Py_XDECREF(nbytes);
      PyErr_SetObject(g_out_of_memory, exc);
      Py_DECREF(exc);
      return;
    }
  }
}

namespace {

constexpr float kFloat32Max = 3.4028234663852886e38f;

const char* kBinaryDoc =
    R"doc({fn}(x1, x2, /, out=None, dev_id=None, sync=None, *, output=None, device=None, stream=None)
--

Elementwise {name} with NumPy's semantics: broadcasting, NumPy 2 type promotion (Python
scalars are weak), any strides.

Parameters
----------
x1, x2 : array_like
    NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars. Every NumPy
    numeric dtype: bool, int8-64, uint8-64, float16/32/64, complex64/128.
out : array, optional
    Where to write the result (cast with casting='same_kind'); it is returned.
dev_id, sync, output :
    AMYPAD NumCu's arguments: ``dev_id=False`` runs on the CPU, ``dev_id=N`` on GPU N;
    ``sync=True`` waits for the GPU; ``output`` is ``out``.
device : {{None, 'cpu', 'cuda', 'cuda:N', int}}, optional
    Where to compute. By default device arrays stay on their GPU, and host arrays are
    computed on the GPU when there is one (copied in and out), else on the CPU.

Returns
-------
numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`.
)doc";

std::string binary_doc(const char* fn, const char* name) {
  std::string doc = kBinaryDoc;
  doc.replace(doc.find("{fn}"), 4, fn);
  const std::string key = "{name}";
  doc.replace(doc.find(key), key.size(), name);
  std::string::size_type p;
  while ((p = doc.find("{{")) != std::string::npos) doc.replace(p, 2, "{");
  while ((p = doc.find("}}")) != std::string::npos) doc.replace(p, 2, "}");
  return doc;
}

py::handle pick_out(PyObject* out, PyObject* output, const char* fname) {
  if (out != nullptr && out != Py_None && output != nullptr && output != Py_None) {
    throw py::type_error(std::string(fname) + ": give out= or output=, not both");
  }
  return out != nullptr && out != Py_None ? out : (output != nullptr ? output : Py_None);
}

py::handle or_none(PyObject* p) { return p != nullptr ? p : Py_None; }

template <Ufunc Op>
PyObject* binary_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    static const char* const names[] = {"x1",   "x2",     "out",    "dev_id",
                                        "sync", "output", "device", "stream"};
    static const std::string fname = std::string("numcu.") + ufunc_info(Op).name;
    static const ArgSpec spec{fname.c_str(), names, 8, 2, 5, 2};
    PyObject* v[8];
    parse_fastcall(spec, args, nargs, kwnames, v);
    const DeviceRequest req =
        parse_device(or_none(v[6]), or_none(v[3]), or_none(v[4]), spec.fname, or_none(v[7]));
    return ufunc_call(Op, {v[0], v[1]}, pick_out(v[2], v[5], spec.fname), req);
  });
}

template <Ufunc Op>
void def_binary(py::module_& m, const char* name, const char* what) {
  // The docstring lives as long as the module's function object: for good.
  def_fastcall(m, name, &binary_entry<Op>, (new std::string(binary_doc(name, what)))->c_str());
}

PyObject* div_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    static const char* const names[] = {"numerator", "divisor", "default", "output", "dev_id",
                                        "sync",      "out",     "device",  "stream"};
    static const ArgSpec spec{"numcu.div", names, 9, 2, 6, 2};
    PyObject* v[9];
    parse_fastcall(spec, args, nargs, kwnames, v);
    const DeviceRequest req =
        parse_device(or_none(v[7]), or_none(v[4]), or_none(v[5]), spec.fname, or_none(v[8]));
    OpParams params;
    params.real = kFloat32Max;
    if (v[2] != nullptr && PyComplex_Check(v[2])) {
      params.real = PyComplex_RealAsDouble(v[2]);
      params.imag = PyComplex_ImagAsDouble(v[2]);
    } else if (v[2] != nullptr) {
      params.real = py::float_(py::reinterpret_borrow<py::object>(v[2])).cast<double>();
    }
    return ufunc_call(Ufunc::div_default, {v[0], v[1]}, pick_out(v[6], v[3], spec.fname), req,
                      params);
  });
}

const char* kDivDoc =
    R"doc(div(numerator, divisor, /, default=3.4028234663852886e+38, output=None, dev_id=None, sync=None, *, out=None, device=None, stream=None)
--

AMYPAD NumCu's division: ``numerator / divisor`` where the divisor is non-zero, `default`
(float32's largest value unless given) where it is zero. Result dtype as numcu.divide
(float16/32/64 or complex; integers promote to float64). Other arguments as numcu.divide.
)doc";

// One line per ufunc for its docstring: what it computes, and the dtypes NumPy has it for.
struct UfuncDoc {
  Ufunc op;
  const char* summary;
};
constexpr UfuncDoc kUfuncDocs[] = {
    {Ufunc::negative, "Numerical negative, -x. Every dtype but bool."},
    {Ufunc::positive, "Numerical positive, +x (a copy). Every dtype but bool."},
    {Ufunc::absolute, "Absolute value; |z| of complex is real. Every dtype."},
    {Ufunc::sign, "-1, 0 or 1 (NaN stays NaN; z/|z| for complex). Every dtype but bool."},
    {Ufunc::reciprocal, "1/x (integer division for integers, 1/0 gives 0). Every dtype."},
    {Ufunc::square, "x*x (integers wrap). Every dtype."},
    {Ufunc::sqrt,
     "Square root. Float and complex; integers compute in the smallest float that "
     "holds them."},
    {Ufunc::cbrt, "Cube root. Float; integers compute in the smallest float that holds them."},
    {Ufunc::logical_not, "NOT x, as bool. Every dtype."},
    {Ufunc::invert, "Bitwise NOT (logical NOT for bool). bool and integers."},
    {Ufunc::exp, "e**x. Float and complex."},
    {Ufunc::exp2, "2**x. Float and complex."},
    {Ufunc::expm1, "e**x - 1, accurate for small x. Float and complex."},
    {Ufunc::log, "Natural logarithm. Float and complex."},
    {Ufunc::log2, "Base-2 logarithm. Float and complex."},
    {Ufunc::log10, "Base-10 logarithm. Float and complex."},
    {Ufunc::log1p, "log(1 + x), accurate for small x. Float and complex."},
    {Ufunc::sin, "Sine. Float and complex."},
    {Ufunc::cos, "Cosine. Float and complex."},
    {Ufunc::tan, "Tangent. Float and complex."},
    {Ufunc::arcsin, "Inverse sine. Float and complex."},
    {Ufunc::arccos, "Inverse cosine. Float and complex."},
    {Ufunc::arctan, "Inverse tangent. Float and complex."},
    {Ufunc::sinh, "Hyperbolic sine. Float and complex."},
    {Ufunc::cosh, "Hyperbolic cosine. Float and complex."},
    {Ufunc::tanh, "Hyperbolic tangent. Float and complex."},
    {Ufunc::arcsinh, "Inverse hyperbolic sine. Float and complex."},
    {Ufunc::arccosh, "Inverse hyperbolic cosine. Float and complex."},
    {Ufunc::arctanh, "Inverse hyperbolic tangent. Float and complex."},
    {Ufunc::deg2rad, "Degrees to radians. Float."},
    {Ufunc::rad2deg, "Radians to degrees. Float."},
    {Ufunc::floor, "Largest integer <= x; integers stay as they are. Every dtype but complex."},
    {Ufunc::ceil, "Smallest integer >= x; integers stay as they are. Every dtype but complex."},
    {Ufunc::trunc, "x rounded towards zero; integers stay as they are. Every dtype but complex."},
    {Ufunc::rint, "x rounded to the nearest integer, halves to even. Float and complex."},
    {Ufunc::isnan, "Whether x is NaN, as bool. Every dtype."},
    {Ufunc::isinf, "Whether x is infinite, as bool. Every dtype."},
    {Ufunc::isfinite, "Whether x is finite, as bool. Every dtype."},
    {Ufunc::signbit, "Whether the sign bit is set, as bool. Every dtype but complex."},
    {Ufunc::floor_divide,
     "Floor division x1 // x2, Python's signs; integer x // 0 gives 0. "
     "Every dtype but complex."},
    {Ufunc::remainder,
     "x1 % x2 with the sign of x2 (Python's); integer x % 0 gives 0. Every "
     "dtype but complex."},
    {Ufunc::power,
     "x1 ** x2; integers wrap, and negative integer exponents raise ValueError. "
     "Every dtype."},
    {Ufunc::maximum, "Elementwise maximum; NaN propagates. Every dtype."},
    {Ufunc::minimum, "Elementwise minimum; NaN propagates. Every dtype."},
    {Ufunc::fmax, "Elementwise maximum ignoring NaN. Every dtype."},
    {Ufunc::fmin, "Elementwise minimum ignoring NaN. Every dtype."},
    {Ufunc::equal, "x1 == x2, as bool. Every dtype."},
    {Ufunc::not_equal, "x1 != x2, as bool. Every dtype."},
    {Ufunc::less, "x1 < x2, as bool (complex: lexicographic). Every dtype."},
    {Ufunc::less_equal, "x1 <= x2, as bool (complex: lexicographic). Every dtype."},
    {Ufunc::greater, "x1 > x2, as bool (complex: lexicographic). Every dtype."},
    {Ufunc::greater_equal, "x1 >= x2, as bool (complex: lexicographic). Every dtype."},
    {Ufunc::logical_and, "x1 AND x2, as bool. Every dtype."},
    {Ufunc::logical_or, "x1 OR x2, as bool. Every dtype."},
    {Ufunc::logical_xor, "x1 XOR x2, as bool. Every dtype."},
    {Ufunc::bitwise_and, "Bitwise AND. bool and integers."},
    {Ufunc::bitwise_or, "Bitwise OR. bool and integers."},
    {Ufunc::bitwise_xor, "Bitwise XOR. bool and integers."},
    {Ufunc::left_shift, "x1 << x2; shifts by the bit width or more give 0. Integers."},
    {Ufunc::right_shift,
     "x1 >> x2 (arithmetic for signed); shifts by the bit width or more "
     "give 0 or -1. Integers."},
    {Ufunc::logaddexp, "log(exp(x1) + exp(x2)) without overflow. Float."},
    {Ufunc::arctan2, "The angle of the point (x2, x1), quadrant-aware. Float."},
    {Ufunc::hypot, "sqrt(x1**2 + x2**2) without overflow. Float."},
    {Ufunc::copysign, "x1 with the sign of x2. Float."},
};

const char* kUfuncDocTemplate = R"doc({summary}

Parameters
----------
{inputs} : array_like
    NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars; broadcast
    together, promoted as NumPy 2 does (Python scalars are weak).
out : array, optional
    Where to write the result (cast with casting='same_kind'); it is returned.
device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
    Where to compute. By default device arrays stay on their GPU, and host arrays are
    computed on the GPU when there is one (copied in and out), else on the CPU.
stream : optional
    The CUDA stream to queue the work on; by default the current stream.

Returns
-------
numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
)doc";

std::string ufunc_doc(Ufunc op, const char* inputs) {
  const char* summary = "";
  for (const UfuncDoc& d : kUfuncDocs) {
    if (d.op == op) summary = d.summary;
  }
  std::string doc = kUfuncDocTemplate;
  for (auto [key, value] : {std::pair<std::string, std::string>{"{summary}", summary},
                            std::pair<std::string, std::string>{"{inputs}", inputs}}) {
    doc.replace(doc.find(key), key.size(), value);
  }
  return doc;
}

template <Ufunc Op>
void def_ufunc(py::module_& m) {
  const UfuncInfo info = ufunc_info(Op);
  if (info.arity == 1) {
    m.def(
        info.name,
        [](py::handle x, py::handle out, py::handle device, py::handle stream) {
          const std::string fname = std::string("numcu.") + ufunc_info(Op).name;
          const DeviceRequest req =
              parse_device(device, py::none(), py::none(), fname.c_str(), stream);
          return ufunc_call(Op, {x}, out, req);
        },
        py::arg("x"), py::pos_only(), py::arg("out") = py::none(), py::kw_only(),
        py::arg("device") = py::none(), py::arg("stream") = py::none(), ufunc_doc(Op, "x").c_str());
  } else {
    m.def(
        info.name,
        [](py::handle x1, py::handle x2, py::handle out, py::handle device, py::handle stream) {
          const std::string fname = std::string("numcu.") + ufunc_info(Op).name;
          const DeviceRequest req =
              parse_device(device, py::none(), py::none(), fname.c_str(), stream);
          return ufunc_call(Op, {x1, x2}, out, req);
        },
        py::arg("x1"), py::arg("x2"), py::pos_only(), py::arg("out") = py::none(), py::kw_only(),
        py::arg("device") = py::none(), py::arg("stream") = py::none(),
        ufunc_doc(Op, "x1, x2").c_str());
  }
}

void def_selection(py::module_& m) {
  m.def(
      "where",
      [](py::handle condition, py::handle x, py::handle y, py::handle device) {
        const DeviceRequest req = parse_device(device, py::none(), py::none(), "numcu.where");
        return ufunc_call(Ufunc::where, {condition, x, y}, py::none(), req);
      },
      py::arg("condition"), py::arg("x"), py::arg("y"), py::pos_only(), py::kw_only(),
      py::arg("device") = py::none(), R"doc(
Elements of `x` where `condition` is true, of `y` elsewhere (NumPy's three-argument where).

`condition` is taken as bool (non-zero is true); `x` and `y` are promoted together as NumPy 2
does, and all three broadcast. Every dtype. Inputs and `device` as numcu.add.
)doc");
  m.def(
      "clip",
      [](py::handle a, py::handle a_min, py::handle a_max, py::handle out, py::handle device) {
        const DeviceRequest req = parse_device(device, py::none(), py::none(), "numcu.clip");
        if (a_min.is_none() && a_max.is_none()) {
          throw py::value_error("numcu.clip: one of a_min and a_max must be given");
        }
        if (a_min.is_none()) return ufunc_call(Ufunc::minimum, {a, a_max}, out, req);
        if (a_max.is_none()) return ufunc_call(Ufunc::maximum, {a, a_min}, out, req);
        return ufunc_call(Ufunc::clip, {a, a_min, a_max}, out, req);
      },
      py::arg("a"), py::arg("a_min"), py::arg("a_max"), py::pos_only(), py::arg("out") = py::none(),
      py::kw_only(), py::arg("device") = py::none(), R"doc(
`a` limited to [a_min, a_max]: minimum(maximum(a, a_min), a_max), NaN propagating as NumPy's
clip. Either bound may be None. Every dtype. Inputs, `out` and `device` as numcu.add.
)doc");
  m.def("astype", &astype, py::arg("x"), py::arg("dtype"), R"doc(
`x` converted to `dtype`, between any two of numcu's dtypes, as NumPy's astype (unsafe
casting: complex to real keeps the real part, floats to integers truncate).

Host arrays give a NumPy array (cast on the host); device arrays a numcu.ndarray on their GPU.
)doc");
}

py::dict build_info() {
  py::dict d;
  d["version"] = NUMCU_VERSION;
  const int v = numcu::cuda::runtime_version();
  d["cuda_version"] =
      v ? py::object(py::str(std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10)))
        : py::object(py::none());
  d["cuda_architectures"] = numcu::cuda::compiled_architectures();
  py::list backends;
  backends.append("cpu");
  if (v) backends.append("cuda");
  d["backends"] = backends;
  py::list dtypes;
  for (int i = 0; i < kNumDTypes; ++i) dtypes.append(dtype_name(static_cast<DType>(i)));
  d["dtypes"] = dtypes;
  return d;
}

struct Device {
  int id;
  std::vector<int> saved;  // devices to restore on leaving `with` blocks
};

void bind_cuda(py::module_& m) {
  py::module_ c = m.def_submodule("cuda", "CUDA devices and their errors.");
  g_cuda_error = PyErr_NewExceptionWithDoc("numcu.cuda.CUDAError",
                                           "A CUDA call failed (the message names it).",
                                           PyExc_RuntimeError, nullptr);
  g_out_of_memory = PyErr_NewExceptionWithDoc(
      "numcu.cuda.OutOfMemoryError",
      "The device is out of memory; `nbytes` is the size asked for. Later calls still work.",
      PyExc_MemoryError, nullptr);
  g_cuda_unavailable = PyErr_NewExceptionWithDoc(
      "numcu.cuda.CUDAUnavailableError",
      "A GPU was asked for, but there is none (no device, no driver, or a CPU-only build).",
      PyExc_RuntimeError, nullptr);
  c.attr("CUDAError") = py::handle(g_cuda_error);
  c.attr("OutOfMemoryError") = py::handle(g_out_of_memory);
  c.attr("CUDAUnavailableError") = py::handle(g_cuda_unavailable);

  c.def("is_available", &numcu::cuda::is_available,
        "Whether a CUDA device can be used (False without a GPU, a driver or the CUDA build).");
  c.def("device_count", &numcu::cuda::device_count, "The number of CUDA devices (0 without any).");
  c.def(
      "synchronize",
      [](py::object device) {
        const int d = device.is_none() ? numcu::cuda::current_device() : device.cast<int>();
        py::gil_scoped_release release;
        numcu::cuda::synchronize_device(d);
      },
      py::arg("device") = py::none(), "Wait for all work queued on the device.");
  c.def("unavailable_reason", &numcu::cuda::unavailable_reason,
        "Why is_available() is False (empty when it is True).");

  py::class_<Device>(c, "Device", "A CUDA device, by index.")
      .def(py::init([](int id) {
             if (id < 0) throw py::value_error("numcu.cuda.Device: the index must be >= 0");
             return Device{id, {}};
           }),
           py::arg("id") = 0)
      .def_readonly("id", &Device::id)
      .def_property_readonly("name", [](const Device& d) { return numcu::cuda::device_name(d.id); })
      .def("__repr__", [](const Device& d) { return "<CUDA Device " + std::to_string(d.id) + ">"; })
      .def("__eq__",
           [](const Device& a, py::object b) {
             return py::isinstance<Device>(b) && b.cast<const Device&>().id == a.id;
           })
      .def("__hash__", [](const Device& d) { return std::hash<int>()(d.id); })
      .def("__enter__",
           [](Device& d) {
             d.saved.push_back(numcu::cuda::current_device());
             numcu::cuda::activate(d.id);
             return d;
           })
      .def("__exit__",
           [](Device& d, py::args) {
             numcu::cuda::activate(d.saved.back());
             d.saved.pop_back();
           })
      .def("synchronize", [](const Device& d) {
        py::gil_scoped_release release;
        numcu::cuda::synchronize_device(d.id);
      });
  bind_streams(c);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "numcu's compiled core: array intake, planning, and the CPU and CUDA backends.";
  m.attr("__version__") = NUMCU_VERSION;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      set_python_error(e);
    }
  });
  bind_cuda(m);
  bind_ndarray(m);

  // add, subtract, multiply and divide also take AMYPAD NumCu's arguments.
  def_binary<Ufunc::add>(m, "add", "addition");
  def_binary<Ufunc::subtract>(m, "subtract", "subtraction");
  def_binary<Ufunc::multiply>(m, "multiply", "multiplication");
  def_binary<Ufunc::divide>(m, "divide", "true division");
  def_binary<Ufunc::multiply>(m, "mul", "multiplication (AMYPAD NumCu's name)");
#define NUMCU_DEF(e, F, group)                                                           \
  if constexpr (F::arity < 3 && Ufunc::e != Ufunc::add && Ufunc::e != Ufunc::subtract && \
                Ufunc::e != Ufunc::multiply && Ufunc::e != Ufunc::divide &&              \
                Ufunc::e != Ufunc::div_default) {                                        \
    def_ufunc<Ufunc::e>(m);                                                              \
  }
  NUMCU_UFUNCS(NUMCU_DEF)
#undef NUMCU_DEF
  // The names numcu/__init__.py re-exports: NumPy's one- and two-input ufuncs numcu binds.
  py::list ufunc_names;
#define NUMCU_NAME(e, F, group) \
  if (F::arity < 3 && Ufunc::e != Ufunc::div_default) ufunc_names.append(F::name);
  NUMCU_UFUNCS(NUMCU_NAME)
#undef NUMCU_NAME
  m.attr("ufuncs") = py::tuple(ufunc_names);
  def_selection(m);

  def_fastcall(m, "div", &div_entry, kDivDoc);

  bind_reductions(m);

  bind_transfer(m);
  bind_creation(m);
  bind_threads(m);

  m.def("build_info", &build_info,
        "Version, CUDA version, compiled CUDA architectures, backends and dtypes of this build.");
  py::list names;
  for (int i = 0; i < kNumDTypes; ++i) names.append(dtype_name(static_cast<DType>(i)));
  m.attr("dtypes") = py::tuple(names);
}
