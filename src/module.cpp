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
}

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

const char* kBinaryDoc = R"doc({fn}(x1, x2, /, out=None, dev_id=None, sync=None, *, output=None, device=None, stream=None)
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

template <BinaryOp Op>
PyObject* binary_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    static const char* const names[] = {"x1",     "x2",     "out",   "dev_id",
                                        "sync",   "output", "device", "stream"};
    static const ArgSpec spec{binary_fname(Op), names, 8, 2, 5, 2};
    PyObject* v[8];
    parse_fastcall(spec, args, nargs, kwnames, v);
    const DeviceRequest req =
        parse_device(or_none(v[6]), or_none(v[3]), or_none(v[4]), spec.fname, or_none(v[7]));
    return binary_call(Op, v[0], v[1], pick_out(v[2], v[5], spec.fname), req, OpParams{});
  });
}

template <BinaryOp Op>
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
    return binary_call(BinaryOp::div_default, v[0], v[1], pick_out(v[6], v[3], spec.fname), req,
                       params);
  });
}

const char* kDivDoc = R"doc(div(numerator, divisor, /, default=3.4028234663852886e+38, output=None, dev_id=None, sync=None, *, out=None, device=None, stream=None)
--

AMYPAD NumCu's division: ``numerator / divisor`` where the divisor is non-zero, `default`
(float32's largest value unless given) where it is zero. Result dtype as numcu.divide
(float16/32/64 or complex; integers promote to float64). Other arguments as numcu.divide.
)doc";

py::dict build_info() {
  py::dict d;
  d["version"] = NUMCU_VERSION;
  const int v = numcu::cuda::runtime_version();
  d["cuda_version"] = v ? py::object(py::str(std::to_string(v / 1000) + "." +
                                             std::to_string((v % 1000) / 10)))
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
      .def("__eq__", [](const Device& a, py::object b) {
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

  def_binary<BinaryOp::add>(m, "add", "addition");
  def_binary<BinaryOp::subtract>(m, "subtract", "subtraction");
  def_binary<BinaryOp::multiply>(m, "multiply", "multiplication");
  def_binary<BinaryOp::divide>(m, "divide", "true division");
  def_binary<BinaryOp::multiply>(m, "mul", "multiplication (AMYPAD NumCu's name)");

  def_fastcall(m, "div", &div_entry, kDivDoc);

  bind_reductions(m);

  m.def("asarray", &asarray, py::arg("obj"), py::arg("dtype") = py::none(), R"doc(
A numcu.ndarray on the GPU for `obj`: host data is copied to the current device; device
arrays (numcu.ndarray, any ``__cuda_array_interface__`` object) are taken without a copy
unless `dtype` asks for a conversion.
)doc");

  m.def(
      "from_dlpack",
      [](py::handle x) {
        if (!py::hasattr(x, "__dlpack__")) {
          throw py::type_error("numcu.from_dlpack: the object has no __dlpack__ method");
        }
        return asarray(x, py::none());
      },
      py::arg("x"), R"doc(
A numcu.ndarray sharing `x`'s memory through DLPack (JAX, PyTorch, CuPy arrays on the GPU);
host data (a CPU tensor, a NumPy array) is copied to the current device.
)doc");

  m.def("build_info", &build_info,
        "Version, CUDA version, compiled CUDA architectures, backends and dtypes of this build.");
  py::list names;
  for (int i = 0; i < kNumDTypes; ++i) names.append(dtype_name(static_cast<DType>(i)));
  m.attr("dtypes") = py::tuple(names);
}
