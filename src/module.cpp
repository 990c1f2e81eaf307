// numcu._core: the pybind11 module. Everything Python-facing is bound here; the work is done in
// intake.cpp, elementwise_call.cpp and ndarray.cpp, and in the kernels library.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "array_api.hpp"
#include "assign.hpp"
#include "docstrings.hpp"
#include "elementwise_call.hpp"
#include "fastcall.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/launch_check.hpp"
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

// _launch_check: a three-operand elementwise plan (operand 0 the output) through the quick
// dense test (`full` false) or the whole check (`full` true). "" where it passes, else the
// check's message, or "dense test: no" where the dense test leaves the plan to the whole check.
// For tests: the two must never disagree on a plan the dense test passes.
std::string launch_check(const std::vector<std::uintptr_t>& data, std::int64_t size,
                         const std::vector<std::int64_t>& shape,
                         const std::vector<std::vector<std::int64_t>>& strides,
                         const std::vector<int>& itemsizes, const std::vector<int>& alignments,
                         unsigned scalar_mask, bool full) {
  constexpr int N = 3;
  const int ndim = static_cast<int>(shape.size());
  if (data.size() != N || strides.size() != N || itemsizes.size() != N ||
      (!alignments.empty() && alignments.size() != N) || ndim > kMaxKernelDims) {
    throw_value_error("_launch_check: three operands of at most kMaxKernelDims dimensions");
  }
  ElementwisePlan<N> p;
  p.size = size;
  p.ndim = ndim;
  p.scalar_mask = scalar_mask;
  for (int d = 0; d < ndim; ++d) p.shape[d] = shape[d];
  for (int i = 0; i < N; ++i) {
    if (static_cast<int>(strides[i].size()) != ndim) throw_value_error("_launch_check: strides");
    p.data[i] = reinterpret_cast<char*>(data[i]);
    for (int d = 0; d < ndim; ++d) p.strides[i][d] = strides[i][d];
  }
  const int* align = alignments.empty() ? nullptr : alignments.data();
  if (!full) return dense_plan_fits(p, itemsizes.data(), align) ? "" : "dense test: no";
  try {
    check_launch_full(p, itemsizes.data(), align);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

namespace numcu::python {
void bind_streams(py::module_& c);
void bind_threads(py::module_& m);
void bind_host_memory(py::module_& m);
void bind_placement(py::module_& m);
void bind_linalg(py::module_& m);  // linalg.cpp
void bind_fft(py::module_& m);     // fft.cpp
void bind_random(py::module_& m);
void bind_fused(py::module_& m);
}  // namespace numcu::python

void numcu::python::set_python_error(const Error& e) {
  if (e.kind() == ErrorKind::out_of_memory) {
    PyObject* exc = PyObject_CallFunction(g_out_of_memory, "s", e.what());
    if (exc == nullptr) return;
    PyObject* nbytes = PyLong_FromSize_t(e.nbytes());
    PyObject_SetAttrString(exc, "nbytes", nbytes);
    Py_XDECREF(nbytes);
    PyErr_SetObject(g_out_of_memory, exc);
    Py_DECREF(exc);
    return;
  }
  // By ErrorKind (out_of_memory above).
  PyObject* const types[] = {PyExc_TypeError, PyExc_ValueError, PyExc_OverflowError,
                             g_cuda_error,    nullptr,          g_cuda_unavailable};
  PyErr_SetString(types[static_cast<int>(e.kind())], e.what());
}

namespace {

constexpr float kFloat32Max = 3.4028234663852886e38f;

// Docstrings: the table's line (ops.hpp's NUMCU_UFUNCS) above one shared body per signature.
const char* const kInputsDoc =
    "    NumPy or other buffer-protocol arrays, numcu.ndarray, any object with\n"
    "    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python\n"
    "    scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).\n";
const char* const kOutDoc =
    "out : array, optional\n"
    "    Where to write the result (cast with casting='same_kind'); it is returned.\n";
const char* const kNumcuArgsDoc =
    "dev_id, sync, output :\n"
    "    AMYPAD NumCu's arguments: ``dev_id=False`` runs on the CPU, ``dev_id=N`` on GPU N;\n"
    "    ``sync=True`` waits for the GPU; ``output`` is ``out``.\n";
const char* const kWhereDoc =
    "device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional\n"
    "    Where to compute. By default device arrays stay on their GPU, and host arrays are\n"
    "    computed on the GPU when there is one (copied in and out), else on the CPU.\n"
    "stream : optional\n"
    "    The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,\n"
    "    an object with ``__cuda_stream__``, or a handle); by default the current one.\n";
const char* const kReturnsDoc =
    "\nReturns\n-------\n"
    "numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is\n"
    "NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.\n";

// The text signature CPython shows, then the docstring.
std::string ufunc_doc(Ufunc op, const char* signature, const char* inputs,
                      const char* extra_params) {
  const UfuncInfo& info = ufunc_info(op);
  return std::string(signature) + "\n--\n\n" + info.doc + "\n\nParameters\n----------\n" + inputs +
         " : array_like\n" + kInputsDoc + "    dtypes: " +
         dtypes_line([op](DType d) { return ufunc_supports(op, ufunc_loop_dtype(op, d)); }) +
         ".\n" + kOutDoc + extra_params + kWhereDoc + kReturnsDoc;
}

py::handle pick_out(PyObject* out, PyObject* output, const char* fname) {
  if (out != nullptr && out != Py_None && output != nullptr && output != Py_None) {
    throw py::type_error(std::string(fname) + ": give out= or output=, not both");
  }
  return out != nullptr && out != Py_None ? out : given(output);
}

// NumPy's signature: (x[, x2], /, out=None, *, device=None, stream=None).
template <Ufunc Op>
PyObject* numpy_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  constexpr int arity = ufunc_traits<Op>::functor::arity;
  static const char* const unary[] = {"x", "out", "device", "stream"};
  static const char* const binary[] = {"x1", "x2", "out", "device", "stream"};
  static const ArgSpec spec{
      ufunc_info(Op).fname, arity == 1 ? unary : binary, arity + 3, arity, arity + 1, arity};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    const DeviceRequest req = parse_device(v[arity + 1], v[arity + 2], spec.fname);
    if constexpr (arity == 1) {
      return ufunc_call(Op, {v[0]}, given(v[1]), req);
    } else {
      return ufunc_call(Op, {v[0], v[1]}, given(v[2]), req);
    }
  });
}

// NumPy's signature with AMYPAD NumCu's arguments (add, subtract, multiply, divide).
template <Ufunc Op>
PyObject* numcu_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"x1",   "x2",     "out",    "dev_id",
                                      "sync", "output", "device", "stream"};
  static const ArgSpec spec{ufunc_info(Op).fname, names, 8, 2, 5, 2};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    const DeviceRequest req =
        parse_device(given(v[6]), given(v[3]), given(v[4]), spec.fname, given(v[7]));
    return ufunc_call(Op, {v[0], v[1]}, pick_out(v[2], v[5], spec.fname), req);
  });
}

template <Ufunc Op>
void def_ufunc(py::module_& m) {
  const UfuncInfo& info = ufunc_info(Op);
  if constexpr (ufunc_traits<Op>::functor::binding == ops::Binding::numcu) {
    const std::string sig = std::string(info.name) +
                            "(x1, x2, /, out=None, dev_id=None, sync=None, *, output=None, "
                            "device=None, stream=None)";
    def_fastcall(m, info.name, &numcu_entry<Op>,
                 keep(ufunc_doc(Op, sig.c_str(), "x1, x2", kNumcuArgsDoc)));
  } else if constexpr (ufunc_traits<Op>::functor::binding == ops::Binding::numpy) {
    const bool unary = info.arity == 1;
    const std::string sig =
        std::string(info.name) + (unary ? "(x, /, out=None, *, device=None, stream=None)"
                                        : "(x1, x2, /, out=None, *, device=None, stream=None)");
    def_fastcall(m, info.name, &numpy_entry<Op>,
                 keep(ufunc_doc(Op, sig.c_str(), unary ? "x" : "x1, x2", "")));
  }
}

PyObject* mul_entry(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return numcu_entry<Ufunc::multiply>(self, args, nargs, kwnames);
}

PyObject* div_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"numerator", "divisor", "default", "output", "dev_id",
                                      "sync",      "out",     "device",  "stream"};
  static const ArgSpec spec{"numcu.div", names, 9, 2, 6, 2};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    const DeviceRequest req =
        parse_device(given(v[7]), given(v[4]), given(v[5]), spec.fname, given(v[8]));
    OpParams params;
    params.real = kFloat32Max;
    if (v[2] != nullptr && PyComplex_Check(v[2])) {
      params.real = PyComplex_RealAsDouble(v[2]);
      params.imag = PyComplex_ImagAsDouble(v[2]);
    } else if (v[2] != nullptr) {
      params.real = py::float_(py::reinterpret_borrow<py::object>(v[2])).cast<double>();
    }
    return ufunc_call(Ufunc::div, {v[0], v[1]}, pick_out(v[6], v[3], spec.fname), req, params);
  });
}

PyObject* where_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"condition", "x", "y", "device", "stream"};
  static const ArgSpec spec{"numcu.where", names, 5, 3, 3, 3};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    const DeviceRequest req = parse_device(v[3], v[4], spec.fname);
    return ufunc_call(Ufunc::where, {v[0], v[1], v[2]}, py::none(), req);
  });
}

PyObject* clip_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"a", "a_min", "a_max", "out", "device", "stream"};
  static const ArgSpec spec{"numcu.clip", names, 6, 3, 4, 1};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    const DeviceRequest req = parse_device(v[4], v[5], spec.fname);
    const py::handle lo = given(v[1]), hi = given(v[2]), out = given(v[3]);
    if (lo.is_none() && hi.is_none()) {
      throw py::value_error("numcu.clip: one of a_min and a_max must be given");
    }
    if (lo.is_none()) return ufunc_call(Ufunc::minimum, {v[0], hi}, out, req);
    if (hi.is_none()) return ufunc_call(Ufunc::maximum, {v[0], lo}, out, req);
    return ufunc_call(Ufunc::clip, {v[0], lo, hi}, out, req);
  });
}

PyObject* astype_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"x", "dtype", "device", "stream"};
  static const ArgSpec spec{"numcu.astype", names, 4, 2, 2, 2};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    const DeviceRequest req = parse_device(v[2], v[3], spec.fname);
    return astype(v[0], v[1], req);
  });
}

const char* const kDivDoc =
    "div(numerator, divisor, /, default=3.4028234663852886e+38, output=None, dev_id=None, "
    "sync=None, *, out=None, device=None, stream=None)\n--\n\n"
    "AMYPAD NumCu's division: ``numerator / divisor`` where the divisor is non-zero, `default`\n"
    "(float32's largest value unless given) where it is zero. Result dtype as numcu.divide\n"
    "(float16/32/64 or complex; integers promote to float64). Other arguments as numcu.divide.\n";

const char* const kMulDoc =
    "mul(x1, x2, /, out=None, dev_id=None, sync=None, *, output=None, device=None, "
    "stream=None)\n--\n\n"
    "AMYPAD NumCu's name for numcu.multiply (same arguments).\n";

const char* const kWhereFnDoc =
    "where(condition, x, y, /, *, device=None, stream=None)\n--\n\n"
    "Elements of `x` where `condition` is true, of `y` elsewhere (NumPy's three-argument\n"
    "where). `condition` is taken as bool (non-zero is true); `x` and `y` are promoted together\n"
    "as NumPy 2 does, and all three broadcast. Every dtype. Inputs, `device` and `stream` as\n"
    "numcu.add.\n";

const char* const kClipDoc =
    "clip(a, a_min, a_max, /, out=None, *, device=None, stream=None)\n--\n\n"
    "`a` limited to [a_min, a_max]: minimum(maximum(a, a_min), a_max), NaN propagating as\n"
    "NumPy's clip. Either bound may be None. Every dtype. Inputs, `out`, `device` and `stream`\n"
    "as numcu.add.\n";

const char* const kAstypeDoc =
    "astype(x, dtype, /, *, device=None, stream=None)\n--\n\n"
    "`x` converted to `dtype`, between any two of numcu's dtypes, as NumPy's astype (unsafe\n"
    "casting: complex to real keeps the real part, floats to integers truncate).\n\n"
    "Host arrays give a NumPy array (cast on the host); device arrays a numcu.ndarray on their\n"
    "GPU, queued on `stream` (by default the current one).\n";

// One empty kernel on numcu's current stream, from a call as cheap as numcu's own: the floor
// under numcu's small calls, for benchmarks/bench_add.py.
PyObject* launch_empty_entry(PyObject*, PyObject* const*, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    if (nargs != 0 || kwnames != nullptr)
      throw_type_error("numcu._launch_empty takes no arguments");
    numcu::cuda::launch_empty(numcu::cuda::current_stream());
    return py::none();
  });
}

const char* const kLaunchEmptyDoc =
    "_launch_empty()\n--\n\n"
    "Queues one empty kernel on the current stream: what a launch costs by itself, which\n"
    "benchmarks compare numcu's small calls with. Not part of the API.\n";

void def_ufuncs(py::module_& m) {
#define NUMCU_DEF(e, F, group, cost, doc) def_ufunc<Ufunc::e>(m);
  NUMCU_UFUNCS(NUMCU_DEF)
#undef NUMCU_DEF
  def_fastcall(m, "mul", &mul_entry, kMulDoc);
  def_fastcall(m, "div", &div_entry, kDivDoc);
  def_fastcall(m, "where", &where_entry, kWhereFnDoc);
  def_fastcall(m, "clip", &clip_entry, kClipDoc);
  def_fastcall(m, "astype", &astype_entry, kAstypeDoc);
  def_fastcall(m, "_launch_empty", &launch_empty_entry, kLaunchEmptyDoc);
  // The names numcu/__init__.py re-exports: NumPy's ufuncs with NumPy's signature.
  py::list names;
  for (int i = 0; i < kNumUfuncs; ++i) {
    const UfuncInfo& info = ufunc_info(static_cast<Ufunc>(i));
    if (info.binding != ops::Binding::own) names.append(info.name);
  }
  m.attr("ufuncs") = py::tuple(names);
  // The table itself, for tests and tools: (name, arity, doc) for every entry.
  py::list table;
  for (int i = 0; i < kNumUfuncs; ++i) {
    const UfuncInfo& info = ufunc_info(static_cast<Ufunc>(i));
    table.append(py::make_tuple(info.name, info.arity, info.doc));
  }
  m.attr("ufunc_table") = py::tuple(table);
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
  // The distribution this module came in (numcu from source, numcu-cuda13x or numcu-cuda12x),
  // and, in a build without the CUDA backend, why and how to get one.
  d["distribution"] = NUMCU_DISTRIBUTION;
  d["no_cuda_reason"] =
      v ? py::object(py::none()) : py::object(py::str(numcu::cuda::unavailable_reason()));
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
        // Without a GPU nothing can be queued: the plain call returns, so that code written for
        // both kinds of machine runs on either. Naming a device asks for one.
        if (device.is_none() && !numcu::cuda::is_available()) return;
        numcu::cuda::DeviceRestore restore;  // see runtime.hpp
        const int d = device.is_none() ? numcu::cuda::current_device() : device.cast<int>();
        py::gil_scoped_release release;
        numcu::cuda::synchronize_device(d);
      },
      py::arg("device") = py::none(),
      "Wait for all work queued on the device (the current one by default; without a GPU, "
      "return at once).");
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
        numcu::cuda::DeviceRestore restore;  // see runtime.hpp
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
  bind_intake(m);

  def_ufuncs(m);

  bind_reductions(m);

  bind_transfer(m);
  bind_creation(m);
  bind_array_api(m);
  bind_assign(m);
  bind_threads(m);
  bind_host_memory(m);
  bind_placement(m);
  bind_linalg(m);
  bind_fft(m);
  bind_random(m);
  bind_fused(m);

  m.def("_launch_check", &launch_check, py::arg("data"), py::arg("size"), py::arg("shape"),
        py::arg("strides"), py::arg("itemsizes"), py::arg("alignments"), py::arg("scalar_mask"),
        py::arg("full"));
  m.def("_force_staged_copies", &numcu::cuda::force_staged_copies, py::arg("staged"),
        "Tests: copies between two GPUs not yet paired in this process take CUDA's staged route "
        "(their pools not shared) even where the GPUs could copy peer to peer.");
  m.def(
      "build_info", &build_info,
      "Version, CUDA version, compiled CUDA architectures, backends and dtypes of this build; the\n"
      "distribution it came in, and why a build without the CUDA backend has none "
      "(\"no_cuda_reason\",\n"
      "None where the backend was built).");
  py::list names;
  for (int i = 0; i < kNumDTypes; ++i) names.append(dtype_name(static_cast<DType>(i)));
  m.attr("dtypes") = py::tuple(names);
}
