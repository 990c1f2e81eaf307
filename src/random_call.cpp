// numcu.random's compiled entry points: one function _random_<name>(bit_generator, ...) for
// every line of NUMCU_DISTRIBUTIONS (numcu/distributions.hpp), with the Generator method's
// signature, which numcu/random.py makes a method of numcu.random.Generator. Each reads the
// NumPy Philox bit generator's state, checks the parameters as NumPy does (before any work is
// queued), writes the state NumPy would have after the call's draws, and then makes the values
// where numcu's creation functions put new arrays (the current GPU, else the host), or in `out`.
#include <pybind11/eval.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "execution.hpp"
#include "fastcall.hpp"
#include "host_memory.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/checked.hpp"
#include "numcu/distributions.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "transfer.hpp"

namespace numcu::python {
// A named namespace, not an anonymous one: the module's files are compiled as unity batches,
// where anonymous namespaces of different files meet.
namespace random_call {

using random::Constraint;
using random::Distribution;
using random::DistributionInfo;

py::object numpy_module() {
  // Held for the process's life and never released: a static py::object would be released by
  // the C++ exit handlers after Python has finalized, and crash there.
  static PyObject* np = py::module_::import("numpy").release().ptr();
  return py::reinterpret_borrow<py::object>(np);
}

// ---------------------------------------------------------------------------------------------
// NumPy's Philox state.

random::PhiloxState read_state(py::handle bit_generator, const char* fname) {
  py::object state = bit_generator.attr("state");
  if (!py::isinstance<py::dict>(state) ||
      py::str(state["bit_generator"]).cast<std::string>() != "Philox") {
    throw_type_error(
        std::string(fname) +
        ": numcu's Generator needs a Philox bit generator (counter-based), not " +
        py::str(py::type::handle_of(bit_generator).attr("__name__")).cast<std::string>());
  }
  random::PhiloxState s{};
  py::object inner = state["state"];
  py::object counter = inner["counter"], key = inner["key"], buffer = state["buffer"];
  for (int i = 0; i < 4; ++i) {
    s.counter[i] = py::int_(counter[py::int_(i)]).cast<std::uint64_t>();
    s.buffer[i] = py::int_(buffer[py::int_(i)]).cast<std::uint64_t>();
  }
  for (int i = 0; i < 2; ++i) s.key[i] = py::int_(key[py::int_(i)]).cast<std::uint64_t>();
  s.buffer_pos = state["buffer_pos"].cast<int>();
  s.has_uint32 = state["has_uint32"].cast<int>() != 0;
  s.uinteger = state["uinteger"].cast<std::uint32_t>();
  return s;
}

void write_state(py::handle bit_generator, const random::PhiloxState& s) {
  py::list counter, key, buffer;
  for (int i = 0; i < 4; ++i) {
    counter.append(py::int_(s.counter[i]));
    buffer.append(py::int_(s.buffer[i]));
  }
  for (int i = 0; i < 2; ++i) key.append(py::int_(s.key[i]));
  py::dict inner, state;
  inner["counter"] = counter;
  inner["key"] = key;
  state["bit_generator"] = "Philox";
  state["state"] = inner;
  state["buffer"] = buffer;
  state["buffer_pos"] = s.buffer_pos;
  state["has_uint32"] = s.has_uint32 ? 1 : 0;
  state["uinteger"] = s.uinteger;
  bit_generator.attr("state") = state;
}

// The bit generator's lock, as NumPy's Generator holds it while it draws.
class LockGuard {
 public:
  explicit LockGuard(py::handle bit_generator) {
    if (py::hasattr(bit_generator, "lock")) {
      lock_ = bit_generator.attr("lock");
      lock_.attr("acquire")();
    }
  }
  ~LockGuard() {
    if (lock_) {
      try {
        lock_.attr("release")();
      } catch (py::error_already_set& e) {
        e.discard_as_unraisable(__func__);
      }
    }
  }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;

 private:
  py::object lock_;
};

// ---------------------------------------------------------------------------------------------
// Parameters.

[[noreturn]] void constraint_error(const char* name, Constraint c, bool array, bool too_large) {
  const std::string n = name;
  switch (c) {
    case Constraint::non_negative:
      throw_value_error(n + " < 0");
    case Constraint::positive:
      throw_value_error(n + " <= 0");
    case Constraint::bounded_0_1:
      throw_value_error(n + " < 0, " + n + " > 1 or " + n + (array ? " contains NaNs" : " is NaN"));
    case Constraint::bounded_gt_0_1:
      throw_value_error(n + " <= 0, " + n + " > 1 or " + n + " contains NaNs");
    case Constraint::poisson:
      if (too_large) throw_value_error(n + " value too large");
      throw_value_error(n + " < 0 or " + n + (array ? " contains NaNs" : " is NaN"));
    case Constraint::none:
      break;
  }
  throw_value_error(n + ": invalid");
}

// NumPy's largest lam: int64's largest value less ten of its square roots.
constexpr double kPoissonLamMax = 9.2233720064847708e18;

void check_value(double v, const char* name, Constraint c, bool array) {
  switch (c) {
    case Constraint::none:
      return;
    case Constraint::non_negative:
      if (!std::isnan(v) && std::signbit(v)) constraint_error(name, c, array, false);
      return;
    case Constraint::positive:
      if (v <= 0) constraint_error(name, c, array, false);
      return;
    case Constraint::bounded_0_1:
      if (!(v >= 0) || !(v <= 1)) constraint_error(name, c, array, false);
      return;
    case Constraint::bounded_gt_0_1:
      if (!(v > 0) || !(v <= 1)) constraint_error(name, c, array, false);
      return;
    case Constraint::poisson:
      if (array) {
        if (!(v <= kPoissonLamMax) && !std::isnan(v)) constraint_error(name, c, array, true);
        if (!(v >= 0)) constraint_error(name, c, array, false);
      } else {
        if (!(v >= 0)) constraint_error(name, c, array, false);
        if (!(v <= kPoissonLamMax)) constraint_error(name, c, array, true);
      }
      return;
  }
}

bool is_device_object(py::handle obj) {
  return ndarray_of(obj) != nullptr || py::hasattr(obj, "__cuda_array_interface__");
}

// A parameter: a scalar (Python or NumPy number, 0-d host array) or an array (host or device),
// the latter as a float64 (or, for integers, uint64) NumPy array.
struct Param {
  bool scalar = true;
  double value = 0;
  py::array array;
};

Param take_param(py::handle obj, const char* fname, py::handle np_dtype, bool is_double) {
  Param p;
  py::object host = py::reinterpret_borrow<py::object>(obj);
  if (is_device_object(obj)) host = asnumpy(obj, py::none(), py::none(), true, fname);
  py::array a = numpy_module().attr("asarray")(host, np_dtype);
  if (a.ndim() == 0) {
    if (is_double) p.value = py::float_(a.attr("item")()).cast<double>();
    p.array = a;
    return p;
  }
  p.scalar = false;
  p.array = a;
  return p;
}

std::vector<std::int64_t> shape_of(const py::array& a) {
  return std::vector<std::int64_t>(a.shape(), a.shape() + a.ndim());
}

// ---------------------------------------------------------------------------------------------
// The call.

struct Call {
  const DistributionInfo* info;
  Distribution dist;
  std::string fname;
};

// Where the values go: `out`, or a new array on the destination (creation functions' rule).
struct Output {
  py::object object;
  ArrayView view;
  std::shared_ptr<DeviceAllocation> allocation;
  Operand operand;  // `out`, when given
  Exec ex;
  bool has_out = false;
};

DType result_dtype(const Call& c, py::handle dtype_obj) {
  if (dtype_obj.is_none()) return c.info->default_dtype;
  py::object d = numpy_module().attr("dtype")(dtype_obj);
  DType dt = DType::float64;
  bool known = true;
  try {
    dt = dtype_from_python(d, c.fname.c_str());
  } catch (const Error&) {
    known = false;
  }
  if (!known || (c.info->dtypes & random::dtype_bit(dt)) == 0) {
    if (!d.attr("isnative").cast<bool>() && c.dist == Distribution::integers) {
      throw_value_error(
          "Providing a dtype with a non-native byteorder is not supported. If you require "
          "platform-independent byteorder, call byteswap when required.");
    }
    throw_type_error("Unsupported dtype " + py::repr(d).cast<std::string>() + " for " +
                     c.info->name);
  }
  return dt;
}

// `out` checked as NumPy's check_output does.
void check_out(const Operand& out, DType dtype, bool size_given,
               const std::vector<std::int64_t>& size, bool c_order_only) {
  const ArrayView& v = out.view;
  bool f_contiguous = true;
  {
    std::int64_t expected = itemsize(v.dtype);
    for (int d = 0; d < v.ndim; ++d) {
      if (v.shape[d] == 0) break;
      if (v.shape[d] != 1 && v.strides[d] != expected) f_contiguous = false;
      expected *= v.shape[d];
    }
  }
  if (!(v.is_c_contiguous() || (f_contiguous && !c_order_only)) || v.readonly) {
    throw_value_error(std::string("Supplied output array must be ") + (c_order_only ? "C-" : "") +
                      "contiguous, writable, aligned, and in machine byte-order.");
  }
  if (v.dtype != dtype) {
    throw_type_error(std::string("Supplied output array has the wrong type. Expected ") +
                     dtype_name(dtype) + ", got " + dtype_name(v.dtype));
  }
  if (size_given && std::vector<std::int64_t>(v.shape, v.shape + v.ndim) != size) {
    throw_value_error("size must match out.shape when used together");
  }
}

// The values' shape: `size`, else out's, else the parameters' broadcast shape; parameters must
// broadcast to it.
std::vector<std::int64_t> values_shape(const Call& c, py::handle size, const Output& o,
                                       const std::vector<Param*>& params) {
  std::vector<std::int64_t> shape;
  // Every parameter's shape (scalars: ()), so that NumPy's broadcast error numbers them as
  // NumPy does.
  py::list shapes;
  bool any_array = false;
  for (const Param* p : params) {
    shapes.append(
        py::tuple(py::cast(p->scalar ? std::vector<std::int64_t>{} : shape_of(p->array))));
    any_array = any_array || !p->scalar;
  }
  if (!size.is_none()) {
    shape = shape_from(size, c.fname.c_str());
  } else if (o.has_out) {
    shape.assign(o.view.shape, o.view.shape + o.view.ndim);
  } else if (any_array) {
    py::object b = numpy_module().attr("broadcast_shapes")(*shapes);
    return shape_from(b, c.fname.c_str());
  } else {
    return shape;
  }
  checked::check_shape(c.fname.c_str(), shape.data(), static_cast<int>(shape.size()),
                       DType::float64);
  if (any_array) {
    // NumPy's broadcast of (values, parameters...): its ValueError where they do not broadcast,
    // and validate_output_shape's where they broadcast to more than the values' shape.
    py::list all;
    all.append(py::tuple(py::cast(shape)));
    for (py::handle t : shapes) all.append(t);
    const std::vector<std::int64_t> b =
        shape_from(numpy_module().attr("broadcast_shapes")(*all), c.fname.c_str());
    if (b != shape) {
      throw_value_error("Output size " +
                        checked::shape_text(shape.data(), static_cast<int>(shape.size())) +
                        " is not compatible with broadcast dimensions of inputs " +
                        checked::shape_text(b.data(), static_cast<int>(b.size())) + ".");
    }
  }
  return shape;
}

// A parameter array as the kernels read it: broadcast to `shape`, dense, in C order, on the
// backend's side.
const void* dense_param(const py::array& a, const std::vector<std::int64_t>& shape, const Exec& ex,
                        Scratch& scratch, std::vector<py::object>& keep) {
  py::object np = numpy_module();
  py::array dense = np.attr("ascontiguousarray")(np.attr("broadcast_to")(a, py::cast(shape)));
  keep.push_back(dense);
  if (!ex.gpu) return dense.data();
  const std::size_t bytes = static_cast<std::size_t>(dense.nbytes());
  char* dev = scratch.allocate(ex, bytes);
  cuda::activate(ex.device);
  cuda::copy_async(dev, dense.data(), bytes, ex.stream);
  return dev;
}

// Makes the output and places the work: `out` decides where; else device= and the parameters'
// device (a device-array parameter keeps the work on its GPU); else numcu's default device.
Output make_output(const Call& c, py::handle out_obj, const DeviceRequest& req, int follow) {
  Output o;
  if (!out_obj.is_none()) {
    o.has_out = true;
    o.operand = intake(out_obj, c.fname.c_str(), Role::output);
    o.view = o.operand.view;
    if (o.operand.kind == Operand::Kind::device) {
      const Operand* ops[1] = {&o.operand};
      cuda::activate(o.view.device);
      o.ex = place(c.fname.c_str(), ops, 1, req);
    } else {
      if (req.kind == DeviceRequest::Kind::cuda) {
        throw_value_error(c.fname + ": out is a host array but device='cuda' was requested");
      }
      o.ex = Exec{};
    }
    o.object = py::reinterpret_borrow<py::object>(out_obj);
    return o;
  }
  o.ex = destination(c.fname.c_str(), req, follow);
  return o;
}

void allocate(Output& o, DType dtype, const std::vector<std::int64_t>& shape) {
  const int ndim = static_cast<int>(shape.size());
  if (o.ex.gpu) {
    cuda::activate(o.ex.device);
    NdArray a = NdArray::empty(dtype, ndim, shape.data(), o.ex.device, o.ex.stream);
    o.view = a.view();
    o.allocation = a.allocation();
    o.object = py::cast(std::move(a));
    return;
  }
  ArrayView& v = o.view;
  v.dtype = dtype;
  v.ndim = ndim;
  v.device = kHost;
  std::copy(shape.begin(), shape.end(), v.shape);
  dense_strides(dtype, ndim, shape.data(), nullptr, v.strides);
  // In a block of the page-locked pool where there is one (as the CPU backend's other results):
  // its pages are not faulted in again on every call.
  o.object =
      numpy_result(dtype, ndim, v.shape, v.strides, &v.data, host_path_config().cpu_pool_min_bytes);
}

// The shared body: `params` are the distribution's parameters (integers: off and rng), `size`,
// `dtype`, `out` (None where the method has none), device= and stream=.
py::object draw(const Call& c, py::handle bit_generator, const std::vector<py::handle>& param_objs,
                py::handle size, py::handle dtype_obj, py::handle out_obj, py::handle device,
                py::handle stream) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  const char* fname = c.fname.c_str();
  const bool integers = c.dist == Distribution::integers;
  const DType dtype = result_dtype(c, dtype_obj);

  // Parameters, checked as NumPy checks them (scalars, then arrays).
  py::object np = numpy_module();
  py::object f64 = np.attr("float64"), u64 = np.attr("uint64");
  std::vector<Param> params(param_objs.size());
  std::vector<Param*> pointers;
  int device_param = kHost;
  for (std::size_t k = 0; k < param_objs.size(); ++k) {
    if (is_device_object(param_objs[k])) {
      const Operand x = intake(param_objs[k], fname);
      if (x.kind == Operand::Kind::device) device_param = x.view.device;
    }
    params[k] = take_param(param_objs[k], fname, integers ? u64 : f64, !integers);
    pointers.push_back(&params[k]);
  }
  bool any_array = false;
  for (const Param& p : params) any_array = any_array || !p.scalar;
  if (!integers) {
    for (std::size_t k = 0; k < params.size(); ++k) {
      const random::ParamSpec& spec = c.info->params[k];
      if (params[k].scalar) {
        check_value(params[k].value, spec.name, spec.constraint, false);
      } else {
        const py::ssize_t n = params[k].array.size();
        py::array contiguous = np.attr("ascontiguousarray")(params[k].array);
        const auto* data = static_cast<const double*>(contiguous.data());
        for (py::ssize_t i = 0; i < n; ++i) check_value(data[i], spec.name, spec.constraint, true);
      }
    }
    if (c.dist == Distribution::uniform) {
      // NumPy: the range high - low must be finite.
      if (!any_array) {
        if (!std::isfinite(params[1].value - params[0].value)) {
          PyErr_SetString(PyExc_OverflowError, "high - low range exceeds valid bounds");
          throw py::error_already_set();
        }
      } else {
        py::object range = np.attr("subtract")(params[1].array, params[0].array);
        if (!np.attr("all")(np.attr("isfinite")(range)).cast<bool>()) {
          PyErr_SetString(PyExc_OverflowError, "Range exceeds valid bounds");
          throw py::error_already_set();
        }
      }
    }
  }

  const DeviceRequest req = parse_device(device, py::none(), py::none(), fname, stream);
  Output o = make_output(c, out_obj, req, device_param != kHost ? device_param : kDefaultDevice);
  std::vector<std::int64_t> size_shape;
  if (!size.is_none()) size_shape = shape_from(size, fname);
  if (o.has_out) {
    check_out(o.operand, dtype, !size.is_none(), size_shape,
              !(c.info->binding & random::kFill) || any_array);
  }
  const std::vector<std::int64_t> shape = values_shape(c, size, o, pointers);
  checked::check_shape(fname, shape.data(), static_cast<int>(shape.size()), dtype);
  if (!o.has_out) allocate(o, dtype, shape);
  std::int64_t n = 1;
  for (std::int64_t e : shape) n *= e;

  // The plan, and NumPy's state after its draws, written before any work is queued.
  Scratch scratch;
  std::vector<py::object> keep;
  random::Params q;
  for (std::size_t k = 0; k < params.size() && !integers; ++k) {
    if (params[k].scalar) {
      q.value[k] = params[k].value;
    } else if (n > 0) {
      q.array[k] =
          static_cast<const double*>(dense_param(params[k].array, shape, o.ex, scratch, keep));
    }
  }
  if (integers) {
    if (params[0].scalar) q.off = py::int_(params[0].array.attr("item")()).cast<std::uint64_t>();
    if (params[1].scalar) q.rng = py::int_(params[1].array.attr("item")()).cast<std::uint64_t>();
    if (n > 0 && !params[0].scalar) {
      q.off_array = static_cast<const std::uint64_t*>(
          dense_param(params[0].array, shape, o.ex, scratch, keep));
    }
    if (n > 0 && !params[1].scalar) {
      q.rng_array = static_cast<const std::uint64_t*>(
          dense_param(params[1].array, shape, o.ex, scratch, keep));
    }
  }
  const random::Draws draws = random::distribution_draws(c.dist, dtype, q, any_array);
  {
    LockGuard lock(bit_generator);
    const random::PhiloxState before = read_state(bit_generator, fname);
    const random::Plan plan = random::make_plan(n, draws, before, q);
    write_state(bit_generator, random::advance_state(before, draws.unit, random::plan_units(plan)));
    if (n > 0) {
      if (o.ex.gpu) {
        cuda::activate(o.ex.device);
        random::random_cuda(c.dist, dtype, plan, o.view.data, o.ex.stream);
        const Operand* ops[1] = {&o.operand};
        finish_streams(o.ex, o.has_out ? ops : nullptr, o.has_out ? 1 : 0, o.allocation.get());
      } else {
        py::gil_scoped_release release;
        random::random_cpu(c.dist, dtype, plan, o.view.data);
      }
    }
  }
  // NumPy gives a Python number for a single value (size=None, scalar parameters); a GPU's value
  // stays a 0-d numcu.ndarray, as numcu's reductions give.
  if (size.is_none() && !o.has_out && !any_array && !o.ex.gpu && !integers) {
    return o.object.attr("item")();
  }
  return o.object;
}

// ---------------------------------------------------------------------------------------------
// Bindings from the table.

struct Entry {
  Call call;
  std::string function_name;
  // The parameters' defaults as Python objects (kept for the life of the process).
  std::vector<PyObject*> defaults;
  std::vector<std::string> names;
  std::vector<const char*> name_ptrs;
  ArgSpec spec{};
  std::string doc;
  int nparams = 0;
  int i_size = 0, i_dtype = -1, i_method = -1, i_out = -1, i_device = 0, i_stream = 0;
};

Entry g_entries[random::kNumDistributions];

template <Distribution D>
PyObject* entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  Entry& e = g_entries[static_cast<int>(D)];
  return run_fastcall(e.spec, args, nargs, kwnames, [&e](PyObject* const* v) {
    std::vector<py::handle> params;
    for (int k = 0; k < e.nparams; ++k) {
      params.push_back(v[1 + k] != nullptr ? py::handle(v[1 + k]) : py::handle(e.defaults[k]));
    }
    const py::handle none = py::none();
    return draw(
        e.call, v[0], params, given(v[e.i_size]), e.i_dtype >= 0 ? given(v[e.i_dtype]) : none,
        e.i_out >= 0 ? given(v[e.i_out]) : none, given(v[e.i_device]), given(v[e.i_stream]));
  });
}

const char* const kDeviceDoc =
    "device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional\n"
    "    Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's\n"
    "    default device (the current GPU, else the host), the GPU of a device-array parameter,\n"
    "    or where `out` is.\n"
    "stream : optional\n"
    "    The CUDA stream the work is queued on; by default the current one.\n";

std::string make_doc(const Entry& e, const std::string& signature) {
  const DistributionInfo& info = *e.call.info;
  std::string doc = signature + "\n--\n\n" + info.doc + "\n\n";
  const unsigned b = info.binding;
  if (b & random::kNumPy) {
    doc +=
        "With the same Philox state, the same values as NumPy's Generator (bit for bit), on\n"
        "the CPU and on every GPU.\n";
  } else if (b & random::kFirstExact) {
    doc +=
        "NumPy's values (Lemire's method on the same draws) until NumPy rejects a draw, which\n"
        "for scalar bounds happens with probability (2**w mod range) / 2**w per value\n"
        "(w = 8, 16, 32 or 64 bits); numcu then draws from the value's own substream, so that\n"
        "every value still takes a fixed number of draws.\n";
  } else if (info.dtypes & random::kInt64 && !(info.dtypes & random::kFloat64)) {
    doc +=
        "NumPy draws a variable number of words per value here; numcu draws a fixed number\n"
        "(further attempts come from each value's own substream), so its values are not\n"
        "NumPy's, but the same on the CPU and every GPU for the same state.\n";
  } else {
    doc +=
        "Not NumPy's values (NumPy's algorithm draws a variable number of words per value):\n"
        "numcu's take a fixed number of draws each, the same on the CPU and every GPU.\n";
  }
  doc += "Each value takes ";
  if (info.draws == 0) {
    doc += "one 32- or 64-bit draw (or a field of one, as NumPy\npacks small integers)";
  } else {
    doc += std::to_string(info.draws) + (info.draws == 1 ? " draw" : " draws") +
           " of the bit generator's stream";
  }
  doc +=
      ";\nthe bit generator's state afterwards is the one NumPy would have.\n\nParameters\n"
      "----------\n";
  for (int k = 0; k < info.nparams; ++k) {
    doc += std::string(info.params[k].name) + " : float or array_like of floats\n";
  }
  doc +=
      "size : int or tuple of ints, optional\n"
      "    Output shape; None (default) gives one value when the parameters are scalars.\n";
  if (e.i_dtype >= 0) doc += "dtype : {float64, float32}, optional\n";
  if (e.i_method >= 0) {
    doc +=
        "method : str, optional\n"
        "    Accepted for NumPy's signature; numcu always inverts the distribution function\n"
        "    (NumPy's 'inv'), having no ziggurat.\n";
  }
  if (e.i_out >= 0) {
    doc +=
        "out : array, optional\n"
        "    Where to write the values: contiguous, of the result's dtype and shape.\n";
  }
  doc += kDeviceDoc;
  return doc;
}

void def_entry(py::module_& m, Distribution d, FastFunction fn) {
  Entry& e = g_entries[static_cast<int>(d)];
  const DistributionInfo& info = random::distribution_info(d);
  e.call = Call{&info, d, std::string("numcu.random.Generator.") + info.name};
  e.nparams = info.nparams;
  e.names.push_back("bit_generator");
  std::string sig = std::string("_random_") + info.name + "(bit_generator, /";
  int required = 1;
  for (int k = 0; k < info.nparams; ++k) {
    e.defaults.push_back(info.params[k].default_value
                             ? py::eval(info.params[k].default_value).release().ptr()
                             : Py_None);
    e.names.push_back(info.params[k].name);
    sig += std::string(", ") + info.params[k].name;
    if (info.params[k].default_value) {
      sig += std::string("=") + info.params[k].default_value;
    } else {
      required = 2 + k;
    }
  }
  e.i_size = static_cast<int>(e.names.size());
  e.names.push_back("size");
  sig += ", size=None";
  // The parameters after size that the distribution's binding has, with their defaults.
  const struct {
    unsigned flag;
    const char* name;
    const char* default_text;
    int* at;
  } optional[] = {
      {random::kDtype, "dtype", info.dtypes & random::kFloat64 ? "'float64'" : "'int64'",
       &e.i_dtype},
      {random::kMethod, "method", "'zig'", &e.i_method},
      {random::kOut, "out", "None", &e.i_out},
  };
  for (const auto& o : optional) {
    if ((info.binding & o.flag) == 0) continue;
    *o.at = static_cast<int>(e.names.size());
    e.names.push_back(o.name);
    sig += std::string(", ") + o.name + "=" + o.default_text;
  }
  const int positional = static_cast<int>(e.names.size());
  e.i_device = positional;
  e.names.push_back("device");
  e.i_stream = positional + 1;
  e.names.push_back("stream");
  sig += ", *, device=None, stream=None)";
  for (const std::string& s : e.names) e.name_ptrs.push_back(s.c_str());
  e.spec.fname = e.call.fname.c_str();
  e.spec.names = e.name_ptrs.data();
  e.spec.count = static_cast<int>(e.names.size());
  e.spec.positional_only = 1;
  e.spec.max_positional = positional;
  e.spec.required = required;
  e.doc = make_doc(e, sig);
  e.function_name = std::string("_random_") + info.name;
  def_fastcall(m, e.function_name.c_str(), fn, e.doc.c_str());
}

// _random_candidates(bit_generator, n, k, device, stream): choice's candidates for k of n
// without replacement (distributions.hpp's Candidates) as (words, indices), after n raw words
// of the stream; None where they would not save work.
py::object candidates(py::handle bit_generator, std::int64_t n, std::int64_t k, py::handle device,
                      py::handle stream, py::handle threshold) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  const char* fname = "numcu.random.Generator.choice";
  if (n < 0 || k < 0 || k > n) throw_value_error(std::string(fname) + ": need 0 <= k <= n");
  random::Candidates c = random::plan_candidates(n, k);
  if (c.capacity == 0) return py::none();
  // Tests: a threshold that fails, to reach the exact search.
  if (!threshold.is_none()) c.threshold = threshold.cast<std::uint64_t>();
  const DeviceRequest req = parse_device(device, py::none(), py::none(), fname, stream);
  const Exec ex = destination(fname, req, kDefaultDevice);
  random::Draws draws;  // raw words: one word a value
  Output words, indices;
  words.ex = indices.ex = ex;
  allocate(words, DType::uint64, {c.capacity});
  allocate(indices, DType::int64, {c.capacity});
  Scratch scratch;
  LockGuard lock(bit_generator);
  const random::PhiloxState before = read_state(bit_generator, fname);
  const random::Plan plan = random::make_plan(n, draws, before, random::Params{});
  write_state(bit_generator, random::advance_state(before, draws.unit, random::plan_units(plan)));
  auto* w = reinterpret_cast<std::uint64_t*>(words.view.data);
  auto* i = reinterpret_cast<std::int64_t*>(indices.view.data);
  if (ex.gpu) {
    cuda::activate(ex.device);
    void* buffer = scratch.allocate(ex, random::candidates_scratch_bytes(plan));
    random::candidates_cuda(plan, c, w, i, buffer, ex.stream);
    finish_streams(ex, nullptr, 0, words.allocation.get());
    finish_streams(ex, nullptr, 0, indices.allocation.get());
  } else {
    py::gil_scoped_release release;
    random::candidates_cpu(plan, c, w, i);
  }
  return py::make_tuple(words.object, indices.object);
}

}  // namespace random_call

using namespace random_call;

void bind_random(py::module_& m) {
#define NUMCU_DEF(name, F, draws, dtypes, doc) \
  def_entry(m, Distribution::name, &entry<Distribution::name>);
  NUMCU_DISTRIBUTIONS(NUMCU_DEF)
#undef NUMCU_DEF
  // The table, for numcu/random.py, the tests and the docs: (name, parameters as (name,
  // default or None), draws per value, dtypes, bound by hand, NumPy-identical, rejection).
  py::list table;
  for (int i = 0; i < random::kNumDistributions; ++i) {
    const DistributionInfo& info = random::distribution_info(static_cast<Distribution>(i));
    py::list params, dtypes;
    for (int k = 0; k < info.nparams; ++k) {
      params.append(py::make_tuple(info.params[k].name,
                                   info.params[k].default_value
                                       ? py::object(py::str(info.params[k].default_value))
                                       : py::object(py::none())));
    }
    for (int t = 0; t < kNumDTypes; ++t) {
      if (info.dtypes & random::dtype_bit(static_cast<DType>(t))) {
        dtypes.append(dtype_name(static_cast<DType>(t)));
      }
    }
    py::dict flags;
    flags["own_binding"] = (info.binding & random::kOwn) != 0;
    flags["numpy_exact"] = (info.binding & random::kNumPy) != 0;
    flags["numpy_first_attempt"] = (info.binding & random::kFirstExact) != 0;
    flags["rejection"] = (info.binding & random::kReject) != 0;
    flags["fill"] = (info.binding & random::kFill) != 0;
    table.append(py::make_tuple(info.name, py::tuple(params), info.draws, py::tuple(dtypes), flags,
                                info.doc));
  }
  m.attr("random_distributions") = py::tuple(table);
  m.def("_random_candidates", &candidates, py::arg("bit_generator"), py::arg("n"), py::arg("k"),
        py::kw_only(), py::arg("device") = py::none(), py::arg("stream") = py::none(),
        py::arg("_threshold") = py::none(),
        "choice without replacement, k of n: (words, indices) of the candidates, padded with "
        "all-ones words, after n raw words of the stream; None where sorting all n is as cheap. "
        "Stably sorting the words and taking the first k indices gives permutation(n)[:k].");
  m.def(
      "_philox",
      [](std::vector<std::uint64_t> counter, std::vector<std::uint64_t> key, int rounds) {
        if (counter.size() != 4 || key.size() != 2) {
          throw py::value_error("_philox: a counter of 4 words and a key of 2");
        }
        const philox::Counter c{{counter[0], counter[1], counter[2], counter[3]}};
        const auto b = random::philox_block(c, key[0], key[1], rounds);
        return std::vector<std::uint64_t>(b.v, b.v + 4);
      },
      py::arg("counter"), py::arg("key"), py::arg("rounds") = 10,
      "Philox4x64 with 7 or 10 rounds of one counter under a key (tests: Random123's "
      "known-answer vectors).");
}

}  // namespace numcu::python
