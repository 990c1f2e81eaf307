#include "reduce_call.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "elementwise_call.hpp"
#include "execution.hpp"
#include "fastcall.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

// The public reductions; var and std are a mean pass and a squared-deviation pass.
enum class Reduction {
  sum,
  prod,
  mean,
  min,
  max,
  argmin,
  argmax,
  any,
  all,
  count_nonzero,
  nansum,
  nanprod,
  nanmean,
  nanmin,
  nanmax,
  var,
  std_,
};

struct ReductionInfo {
  const char* fname;
  ReduceOp op;             // the loop (var and std: the second pass)
  ReduceOp op_exact;       // the loop on integers and bool, where NaN cannot occur
  const char* numpy_name;  // in NumPy's error message for empty reductions; null: has identity
};

ReductionInfo info_of(Reduction r) {
  switch (r) {
    case Reduction::sum:
      return {"numcu.sum", ReduceOp::sum, ReduceOp::sum, nullptr};
    case Reduction::prod:
      return {"numcu.prod", ReduceOp::prod, ReduceOp::prod, nullptr};
    case Reduction::mean:
      return {"numcu.mean", ReduceOp::mean, ReduceOp::mean, nullptr};
    case Reduction::min:
      return {"numcu.min", ReduceOp::min, ReduceOp::min, "minimum"};
    case Reduction::max:
      return {"numcu.max", ReduceOp::max, ReduceOp::max, "maximum"};
    case Reduction::argmin:
      return {"numcu.argmin", ReduceOp::argmin, ReduceOp::argmin, "argmin"};
    case Reduction::argmax:
      return {"numcu.argmax", ReduceOp::argmax, ReduceOp::argmax, "argmax"};
    case Reduction::any:
      return {"numcu.any", ReduceOp::any, ReduceOp::any, nullptr};
    case Reduction::all:
      return {"numcu.all", ReduceOp::all, ReduceOp::all, nullptr};
    case Reduction::count_nonzero:
      return {"numcu.count_nonzero", ReduceOp::count_nonzero, ReduceOp::count_nonzero, nullptr};
    case Reduction::nansum:
      return {"numcu.nansum", ReduceOp::nansum, ReduceOp::sum, nullptr};
    case Reduction::nanprod:
      return {"numcu.nanprod", ReduceOp::nanprod, ReduceOp::prod, nullptr};
    case Reduction::nanmean:
      return {"numcu.nanmean", ReduceOp::nanmean, ReduceOp::mean, nullptr};
    case Reduction::nanmin:
      return {"numcu.nanmin", ReduceOp::nanmin, ReduceOp::min, "fmin"};
    case Reduction::nanmax:
      return {"numcu.nanmax", ReduceOp::nanmax, ReduceOp::max, "fmax"};
    case Reduction::var:
      return {"numcu.var", ReduceOp::sqdev, ReduceOp::sqdev, nullptr};
    case Reduction::std_:
      return {"numcu.std", ReduceOp::sqdev, ReduceOp::sqdev, nullptr};
  }
  return {"numcu", ReduceOp::sum, ReduceOp::sum, nullptr};
}

bool is_arg(Reduction r) { return r == Reduction::argmin || r == Reduction::argmax; }

DType real_dtype(DType d) {
  if (d == DType::complex64) return DType::float32;
  if (d == DType::complex128) return DType::float64;
  return d;
}

// NumPy's result dtype of sum and prod (and their scans): small integers widen, float16 stays.
DType sum_result_dtype(DType t) {
  return t == DType::float16 ? t : reduce_out_dtype(ReduceOp::sum, t);
}

// The dtype NumPy returns, given the input dtype and dtype= (when has_dtype).
DType result_dtype(Reduction r, DType t, bool has_dtype, DType requested) {
  switch (r) {
    case Reduction::sum:
    case Reduction::prod:
    case Reduction::nansum:
    case Reduction::nanprod:
      return has_dtype ? requested : sum_result_dtype(t);
    case Reduction::mean:
    case Reduction::nanmean:
      return has_dtype ? requested : (is_inexact(t) ? t : DType::float64);
    case Reduction::var:
    case Reduction::std_:
      return real_dtype(has_dtype ? requested : (is_inexact(t) ? t : DType::float64));
    case Reduction::min:
    case Reduction::max:
    case Reduction::nanmin:
    case Reduction::nanmax:
      return t;
    case Reduction::argmin:
    case Reduction::argmax:
    case Reduction::count_nonzero:
      return DType::int64;
    case Reduction::any:
    case Reduction::all:
      return DType::bool_;
  }
  return t;
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

// Which axes `axis` reduces (None: all). argmin and argmax take one axis or None.
void parse_axes(py::handle axis, int ndim, bool single, const char* fname, bool* reduced) {
  std::fill(reduced, reduced + ndim, axis.is_none());
  if (axis.is_none()) return;
  if (py::isinstance<py::tuple>(axis) || py::isinstance<py::list>(axis)) {
    if (single) {
      throw_type_error(std::string(fname) + ": axis must be an integer or None, not " +
                       py::repr(axis).cast<std::string>());
    }
    for (py::handle item : axis) {
      const int a = normalize_axis(item, ndim, fname);
      if (reduced[a]) throw_value_error(std::string(fname) + ": duplicate value in 'axis'");
      reduced[a] = true;
    }
    return;
  }
  reduced[normalize_axis(axis, ndim, fname)] = true;
}

// A Python scalar as a 0-d host array over the Operand's own value.
void scalar_as_array(Operand& x) {
  if (x.kind != Operand::Kind::scalar) return;
  x.kind = Operand::Kind::host;
  x.view.data = reinterpret_cast<char*>(x.value);
  x.view.ndim = 0;
  x.view.device = kHost;
}

void check_out_shape(const Operand& out, int ndim, const std::int64_t* shape, const char* fname) {
  if (out.view.ndim != ndim || !std::equal(shape, shape + ndim, out.view.shape)) {
    throw_value_error(std::string(fname) + ": out has shape " +
                      shape_str(out.view.shape, out.view.ndim) + " but the result has shape " +
                      shape_str(shape, ndim));
  }
}

// Where a result ends up: `out`, a new numcu.ndarray (device input) or a new NumPy array.
struct Destination {
  py::object result;
  ArrayView view;
};

Destination make_destination(bool has_out, py::handle out_obj, const Operand& out, const Exec& ex,
                             bool device_input, DType dtype, int ndim, const std::int64_t* shape) {
  Destination d;
  if (has_out) {
    d.result = py::reinterpret_borrow<py::object>(out_obj);
    d.view = out.view;
  } else if (ex.gpu && device_input) {
    NdArray a = NdArray::empty(dtype, ndim, shape, ex.device, ex.stream);
    d.view = a.view();
    d.result = py::cast(std::move(a));
  } else {
    std::int64_t strides[kMaxDims];
    dense_strides(dtype, ndim, shape, nullptr, strides);
    d.result = numpy_empty(dtype, ndim, shape, strides);
    d.view.dtype = dtype;
    d.view.ndim = ndim;
    std::copy(shape, shape + ndim, d.view.shape);
    std::copy(strides, strides + ndim, d.view.strides);
    d.view.data = static_cast<char*>(py::array(d.result).mutable_data());
    d.view.device = kHost;
  }
  return d;
}

// The view a loop writes: the destination itself when it is on the backend's side and of the
// loop's dtype (and, when `need_dense`, C-contiguous), else dense scratch.
ArrayView loop_target(Scratch& scratch, const Exec& ex, const ArrayView& dest, DType loop_out,
                      bool need_dense) {
  const bool same_side = ex.gpu == (dest.device != kHost);
  if (same_side && dest.dtype == loop_out && (!need_dense || dest.is_c_contiguous())) return dest;
  return dense_view(scratch, ex, loop_out, dest.ndim, dest.shape, nullptr);
}

// Moves what the loop wrote in `res` to `dest` (same shape): a download from the GPU for host
// destinations, and a dtype conversion where they differ. Runs without the GIL.
void finish(Scratch& scratch, const Exec& ex, const ArrayView& dest, const ArrayView& res,
            const char* fname) {
  if (res.data == dest.data && res.dtype == dest.dtype) return;
  const bool download = ex.gpu && dest.device == kHost;
  if (!download) {
    run_cast(ex, dest, res, fname);
    return;
  }
  const ByteSpan span = byte_span(res);
  const std::size_t bytes = static_cast<std::size_t>(span.hi - span.lo);
  if (dest.dtype == res.dtype && is_dense(dest) &&
      std::equal(dest.strides, dest.strides + dest.ndim, res.strides)) {
    cuda::copy_async(dest.data + byte_span(dest).lo, res.data + span.lo, bytes, ex.stream);
    cuda::synchronize(ex.stream);
    return;
  }
  char* host = scratch.allocate_host(bytes);
  cuda::copy_async(host, res.data + span.lo, bytes, ex.stream);
  cuda::synchronize(ex.stream);
  ArrayView staged = res;
  staged.data = host - span.lo;
  staged.device = kHost;
  run_cast(Exec{}, dest, staged, fname);
}

// Brings the input to the backend in dtype `loop`.
ArrayView prepare_input(Scratch& scratch, const Exec& ex, const Operand& x, DType loop,
                        const char* fname) {
  ArrayView v = x.view;
  if (ex.gpu && x.kind == Operand::Kind::host) v = upload(scratch, ex, v);
  if (x.has_producer_stream) cuda::stream_wait(ex.stream, x.producer_stream);
  if (v.dtype != loop) {
    const ArrayView cast = dense_view(scratch, ex, loop, v.ndim, v.shape, &v);
    run_cast(ex, cast, v, fname);
    v = cast;
  }
  return v;
}

void run_reduce(const Exec& ex, ReduceOp op, DType dtype, const ReducePlan& plan,
                const ReduceParams& params) {
  if (ex.gpu) {
    reduce_cuda(op, dtype, plan, params, ex.stream);
  } else {
    reduce_cpu(op, dtype, plan, params);
  }
}

py::object reduce_call(Reduction red, py::handle a, py::handle axis, py::handle dtype_obj,
                       py::handle out_obj, bool keepdims, double ddof, const DeviceRequest& req) {
  const ReductionInfo info = info_of(red);
  const char* fname = info.fname;
  Operand x = intake(a, fname);
  scalar_as_array(x);
  const int ndim = x.view.ndim;

  bool reduced[kMaxDims];
  parse_axes(axis, ndim, is_arg(red), fname, reduced);

  // dtypes: the loop's input (dtype= converts the input first), its output, and NumPy's result
  const DType t = x.view.dtype;
  const bool has_dtype = !dtype_obj.is_none();
  const DType requested = has_dtype ? dtype_from_python(dtype_obj, fname) : t;
  const DType loop_in = requested;
  const ReduceOp op = is_inexact(loop_in) ? info.op : info.op_exact;
  if (!reduce_supports(op, loop_in)) {
    throw_type_error(std::string(fname) + ": no loop for dtype " + dtype_name(loop_in));
  }
  const DType loop_out = reduce_out_dtype(op, loop_in);
  const DType result = result_dtype(red, t, has_dtype, requested);

  // shapes
  std::int64_t shape[kMaxDims];
  int rndim = 0;
  std::int64_t n_red = 1;
  for (int d = 0; d < ndim; ++d) {
    if (reduced[d]) {
      n_red *= x.view.shape[d];
      if (keepdims) shape[rndim++] = 1;
    } else {
      shape[rndim++] = x.view.shape[d];
    }
  }
  if (n_red == 0 && info.numpy_name != nullptr) {
    if (is_arg(red)) {
      throw_value_error(std::string(fname) + ": attempt to get " + info.numpy_name +
                        " of an empty sequence");
    }
    throw_value_error(std::string(fname) + ": zero-size array to reduction operation " +
                      info.numpy_name + " which has no identity");
  }
  const bool has_out = !out_obj.is_none();
  Operand out;
  if (has_out) {
    out = intake(out_obj, fname, Role::output);
    check_out_shape(out, rndim, shape, fname);
  }

  // placement
  const Operand* operands[2] = {&x, has_out ? &out : nullptr};
  const Exec ex = place(fname, operands, 2, req);
  if (ex.gpu) cuda::activate(ex.device);

  Scratch scratch;
  ArrayView in = prepare_input(scratch, ex, x, loop_in, fname);
  const Destination dest = make_destination(has_out, out_obj, out, ex,
                                            x.kind == Operand::Kind::device, result, rndim, shape);
  // The destination without keepdims' size-1 axes: the kept axes the plan walks.
  ArrayView kept = dest.view;
  if (keepdims) {
    kept.ndim = 0;
    for (int d = 0; d < ndim; ++d) {
      if (reduced[d]) continue;
      kept.shape[kept.ndim] = dest.view.shape[d];
      kept.strides[kept.ndim++] = dest.view.strides[d];
    }
  }
  const ArrayView res = loop_target(scratch, ex, kept, loop_out, false);
  // A reduction reads many input elements per output element: an `out` sharing any memory
  // with the input gets a copy of the input.
  if (has_out && res.data == kept.data) in = unaliased(scratch, ex, res, in, false, fname);
  const ReducePlan plan = make_reduce_plan(in, reduced, res, fname);

  ReduceParams params;
  params.n = n_red;
  params.ddof = ddof;
  params.root = red == Reduction::std_;
  ArrayView means;
  ReducePlan mean_plan;
  const bool two_pass = red == Reduction::var || red == Reduction::std_;
  if (two_pass) {
    means = dense_view(scratch, ex, reduce_out_dtype(ReduceOp::mean, loop_in), kept.ndim,
                       kept.shape, nullptr);
    mean_plan = make_reduce_plan(in, reduced, means, fname);
    params.mean = means.data;
  }
  {
    py::gil_scoped_release release;
    if (two_pass) run_reduce(ex, ReduceOp::mean, loop_in, mean_plan, params);
    run_reduce(ex, op, loop_in, plan, params);
    finish(scratch, ex, kept, res, fname);
    if (ex.gpu && req.sync) cuda::synchronize(ex.stream);
  }
  finish_streams(ex, operands, 2,
                 py::isinstance<NdArray>(dest.result)
                     ? dest.result.cast<const NdArray&>().allocation().get()
                     : nullptr);
  // Like NumPy, a 0-d host result is a NumPy scalar.
  if (!has_out && rndim == 0 && !py::isinstance<NdArray>(dest.result)) {
    return dest.result[py::tuple()];
  }
  return dest.result;
}

py::object scan_call(ScanOp op, const char* fname, py::handle a, py::handle axis_obj,
                     py::handle dtype_obj, py::handle out_obj, const DeviceRequest& req) {
  Operand x = intake(a, fname);
  scalar_as_array(x);
  const DType t = x.view.dtype;
  const bool has_dtype = !dtype_obj.is_none();
  const DType loop_in = has_dtype ? dtype_from_python(dtype_obj, fname) : t;
  const DType loop_out = scan_out_dtype(op, loop_in);
  const DType result = has_dtype ? loop_in : sum_result_dtype(t);

  // axis=None scans the array flattened in C order
  const bool flatten = axis_obj.is_none();
  const int axis = flatten ? 0 : normalize_axis(axis_obj, x.view.ndim, fname);
  std::int64_t shape[kMaxDims];
  int rndim = x.view.ndim;
  if (flatten) {
    rndim = 1;
    shape[0] = x.view.size();
  } else {
    std::copy(x.view.shape, x.view.shape + rndim, shape);
  }
  const bool has_out = !out_obj.is_none();
  Operand out;
  if (has_out) {
    out = intake(out_obj, fname, Role::output);
    check_out_shape(out, rndim, shape, fname);
  }
  const Operand* operands[2] = {&x, has_out ? &out : nullptr};
  const Exec ex = place(fname, operands, 2, req);
  if (ex.gpu) cuda::activate(ex.device);

  Scratch scratch;
  ArrayView in = prepare_input(scratch, ex, x, loop_in, fname);
  // One line scans fastest contiguous (CUB on the GPU): flatten into a dense copy if needed.
  if ((flatten && in.ndim != 1) || (rndim == 1 && !in.is_c_contiguous())) {
    if (!in.is_c_contiguous()) {
      const ArrayView dense = dense_view(scratch, ex, in.dtype, in.ndim, in.shape, nullptr);
      run_cast(ex, dense, in, fname);
      in = dense;
    }
    in.ndim = 1;
    in.shape[0] = shape[0];
    in.strides[0] = itemsize(in.dtype);
  }
  const Destination dest = make_destination(has_out, out_obj, out, ex,
                                            x.kind == Operand::Kind::device, result, rndim, shape);
  const ArrayView res = loop_target(scratch, ex, dest.view, loop_out, rndim == 1);
  // Scans run in place (CUB's device scan allows it; the line loops read each element before
  // writing its position), so cumsum(x, out=x) needs no copy; any other overlap does.
  if (has_out && res.data == dest.view.data) in = unaliased(scratch, ex, res, in, true, fname);
  const ReducePlan plan = make_scan_plan(in, axis, res, fname);
  {
    py::gil_scoped_release release;
    if (ex.gpu) {
      scan_cuda(op, loop_in, plan, ex.stream);
    } else {
      scan_cpu(op, loop_in, plan);
    }
    finish(scratch, ex, dest.view, res, fname);
    if (ex.gpu && req.sync) cuda::synchronize(ex.stream);
  }
  finish_streams(ex, operands, 2,
                 py::isinstance<NdArray>(dest.result)
                     ? dest.result.cast<const NdArray&>().allocation().get()
                     : nullptr);
  return dest.result;
}

bool truthy(py::handle h) {
  const int r = PyObject_IsTrue(h.ptr());
  if (r < 0) throw py::error_already_set();
  return r == 1;
}

double ddof_value(py::handle h) { return py::float_(py::reinterpret_borrow<py::object>(h)); }

// Docstrings: one template, NumPy-style, filled in per function.
std::string doc(const char* summary, const char* params, const char* returns, const char* dtypes) {
  return std::string(summary) +
         "\n\nParameters\n----------\n"
         "a : array_like\n"
         "    NumPy or other buffer-protocol arrays, numcu.ndarray, any object with\n"
         "    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.\n"
         "    dtypes: " +
         dtypes + "\n" + params +
         "device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional\n"
         "    Where to compute. Device arrays stay on their GPU; host arrays are reduced on\n"
         "    the GPU when there is one (copied in, the result copied out), else on the CPU.\n"
         "stream : optional\n"
         "    The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch\n"
         "    stream, an object with ``__cuda_stream__``, or a handle); by default the\n"
         "    current stream.\n"
         "\nReturns\n-------\n" +
         returns +
         "\n    Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.\n"
         "    Device input: a numcu.ndarray (0-d for one value), returned without waiting\n"
         "    for the GPU. With `out`, `out`.\n";
}

const char* kAxis =
    "axis : None, int or tuple of ints, optional\n"
    "    Axes to reduce (negative counts from the end); None reduces all.\n";
const char* kDtype =
    "dtype : dtype, optional\n"
    "    The dtype to accumulate in and return; the input is converted to it first.\n";
const char* kOut =
    "out : array, optional\n"
    "    Where to write the result; its shape must be the result's (any dtype: the result\n"
    "    is converted, as NumPy does).\n";
const char* kKeepdims =
    "keepdims : bool, optional\n"
    "    Keep the reduced axes with size one.\n";
const char* kAll = "all 14 (bool, int8-64, uint8-64, float16/32/64, complex64/128).";

// The argument lists, parsed on CPython's vectorcall convention (fastcall.hpp): a reduction of
// a small device array costs little more than its launch, so pybind11's general argument
// machinery would be a large part of it.
enum class Form { with_dtype, plain, arg, var, count, scan };

struct FormSpec {
  const char* const* names;
  int count;
  int max_positional;
};

FormSpec form_spec(Form f) {
  static const char* const with_dtype[] = {"a",        "axis",   "dtype", "out",
                                           "keepdims", "device", "stream"};
  static const char* const plain[] = {"a", "axis", "out", "keepdims", "device", "stream"};
  static const char* const var[] = {"a",    "axis",     "dtype",  "out",
                                    "ddof", "keepdims", "device", "stream"};
  static const char* const count[] = {"a", "axis", "keepdims", "device", "stream"};
  static const char* const scan[] = {"a", "axis", "dtype", "out", "device", "stream"};
  switch (f) {
    case Form::with_dtype:
      return {with_dtype, 7, 5};
    case Form::plain:
      return {plain, 6, 4};
    case Form::arg:  // keepdims is keyword-only, as in NumPy
      return {plain, 6, 3};
    case Form::var:
      return {var, 8, 6};
    case Form::count:
      return {count, 5, 2};
    case Form::scan:
      return {scan, 6, 4};
  }
  return {plain, 6, 4};
}

// The text signature CPython shows for a form (fastcall docstrings start with it).
std::string signature(const char* name, Form f) {
  const FormSpec spec = form_spec(f);
  std::string sig = std::string(name) + "(a";
  for (int i = 1; i < spec.count; ++i) {
    sig += i == spec.max_positional ? ", *, " : ", ";
    const std::string param = spec.names[i];
    sig += param + (param == "keepdims" ? "=False" : param == "ddof" ? "=0" : "=None");
  }
  return sig + ")\n--\n\n";
}

py::handle given(PyObject* value) { return value != nullptr ? value : Py_None; }

template <Reduction R, Form F>
PyObject* reduce_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&]() -> py::object {
    static const FormSpec form = form_spec(F);
    static const ArgSpec spec{info_of(R).fname, form.names, form.count, 0, form.max_positional, 1};
    // Where each parameter stands in this form's list, found once (-1: not in the form).
    enum Param { axis, dtype, out, keepdims, ddof, device, stream, count };
    static const auto slots = [] {
      static const char* const params[count] = {"axis", "dtype",  "out",   "keepdims",
                                                "ddof", "device", "stream"};
      std::array<int, count> at;
      for (int k = 0; k < count; ++k) {
        at[k] = -1;
        for (int i = 0; i < form.count; ++i) {
          if (std::string_view(form.names[i]) == params[k]) at[k] = i;
        }
      }
      return at;
    }();
    PyObject* v[8];
    parse_fastcall(spec, args, nargs, kwnames, v);
    auto value = [&](Param k) { return slots[k] < 0 ? nullptr : v[slots[k]]; };
    const DeviceRequest req = parse_device(given(value(device)), py::none(), py::none(), spec.fname,
                                           given(value(stream)));
    PyObject* ddof_given = value(ddof);
    return reduce_call(R, given(v[0]), given(value(axis)), given(value(dtype)), given(value(out)),
                       truthy(given(value(keepdims))),
                       ddof_given != nullptr ? ddof_value(ddof_given) : 0, req);
  });
}

template <ScanOp S>
PyObject* scan_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&]() -> py::object {
    static const char* const fname = S == ScanOp::cumsum ? "numcu.cumsum" : "numcu.cumprod";
    static const FormSpec form = form_spec(Form::scan);
    static const ArgSpec spec{fname, form.names, form.count, 0, form.max_positional, 1};
    PyObject* v[6];
    parse_fastcall(spec, args, nargs, kwnames, v);
    const DeviceRequest req = parse_device(given(v[4]), py::none(), py::none(), fname, given(v[5]));
    return scan_call(S, fname, given(v[0]), given(v[1]), given(v[2]), given(v[3]), req);
  });
}

// Docstrings live as long as the module (CPython keeps pointers to them).
const char* keep(std::string text) { return (new std::string(std::move(text)))->c_str(); }

template <Reduction R, Form F>
void def_reduction(py::module_& m, const char* name, const std::string& docstring) {
  def_fastcall(m, name, &reduce_entry<R, F>, keep(signature(name, F) + docstring));
}

template <ScanOp S>
void def_scan(py::module_& m, const char* name, const std::string& docstring) {
  def_fastcall(m, name, &scan_entry<S>, keep(signature(name, Form::scan) + docstring));
}

}  // namespace

void bind_reductions(py::module_& m) {
  const std::string with_dtype = std::string(kAxis) + kDtype + kOut + kKeepdims;
  const std::string plain = std::string(kAxis) + kOut + kKeepdims;
  const std::string arg =
      std::string(
          "axis : None or int, optional\n"
          "    The axis to search along; None searches the flattened array.\n") +
      kOut + kKeepdims;
  const std::string var = std::string(kAxis) + kDtype + kOut +
                          "ddof : float, optional\n"
                          "    The divisor is N - ddof (N: elements per result).\n" +
                          kKeepdims;

  def_reduction<Reduction::sum, Form::with_dtype>(
      m, "sum",
      doc("Sum of array elements over the given axes (float sums are pairwise on the CPU and "
          "tree-shaped on the GPU; the same input gives the same bits run to run).",
          with_dtype.c_str(),
          "The sums: int64 for bool and signed integers, uint64 for unsigned ones, else the "
          "input dtype (float16 accumulated in float32).",
          kAll));
  def_reduction<Reduction::prod, Form::with_dtype>(
      m, "prod",
      doc("Product of array elements over the given axes (integers wrap as in NumPy).",
          with_dtype.c_str(), "The products, in sum's dtypes.", kAll));
  def_reduction<Reduction::mean, Form::with_dtype>(
      m, "mean",
      doc("Arithmetic mean over the given axes; NaN for an empty reduction.", with_dtype.c_str(),
          "The means: float64 for integers and bool, else the input dtype.", kAll));
  def_reduction<Reduction::nansum, Form::with_dtype>(
      m, "nansum",
      doc("Sum treating NaN as zero (on integers and bool: sum).", with_dtype.c_str(),
          "The sums, in sum's dtypes.", kAll));
  def_reduction<Reduction::nanprod, Form::with_dtype>(
      m, "nanprod",
      doc("Product treating NaN as one (on integers and bool: prod).", with_dtype.c_str(),
          "The products, in sum's dtypes.", kAll));
  def_reduction<Reduction::nanmean, Form::with_dtype>(
      m, "nanmean",
      doc("Mean of the elements that are not NaN; NaN where all are.", with_dtype.c_str(),
          "The means, in mean's dtypes.", kAll));
  def_reduction<Reduction::min, Form::plain>(
      m, "min",
      doc("Minimum over the given axes; NaN propagates; complex numbers order lexicographically. "
          "ValueError for an empty reduction.",
          plain.c_str(), "The minima, in the input dtype.", kAll));
  def_reduction<Reduction::max, Form::plain>(
      m, "max",
      doc("Maximum over the given axes; NaN propagates; complex numbers order lexicographically. "
          "ValueError for an empty reduction.",
          plain.c_str(), "The maxima, in the input dtype.", kAll));
  def_reduction<Reduction::nanmin, Form::plain>(
      m, "nanmin",
      doc("Minimum ignoring NaN (NaN where all are NaN).", plain.c_str(),
          "The minima, in the input dtype.", kAll));
  def_reduction<Reduction::nanmax, Form::plain>(
      m, "nanmax",
      doc("Maximum ignoring NaN (NaN where all are NaN).", plain.c_str(),
          "The maxima, in the input dtype.", kAll));
  def_reduction<Reduction::argmin, Form::arg>(
      m, "argmin",
      doc("Index of the first minimum (of the first NaN, if any) along an axis.", arg.c_str(),
          "int64 indices.", kAll));
  def_reduction<Reduction::argmax, Form::arg>(
      m, "argmax",
      doc("Index of the first maximum (of the first NaN, if any) along an axis.", arg.c_str(),
          "int64 indices.", kAll));
  def_reduction<Reduction::any, Form::plain>(
      m, "any",
      doc("Whether any element is non-zero (NaN counts as non-zero).", plain.c_str(), "bool.",
          kAll));
  def_reduction<Reduction::all, Form::plain>(
      m, "all",
      doc("Whether every element is non-zero (NaN counts as non-zero).", plain.c_str(), "bool.",
          kAll));
  def_reduction<Reduction::count_nonzero, Form::count>(
      m, "count_nonzero",
      doc("Number of non-zero elements over the given axes.",
          (std::string(kAxis) + kKeepdims).c_str(), "int64 counts.", kAll));
  def_reduction<Reduction::var, Form::var>(
      m, "var",
      doc("Variance over the given axes: mean(|x - x.mean()|**2) * N / (N - ddof), in two "
          "passes.",
          var.c_str(),
          "float64 for integers and bool, the real dtype for complex, else the input dtype.",
          kAll));
  def_reduction<Reduction::std_, Form::var>(
      m, "std",
      doc("Standard deviation over the given axes: the square root of var.", var.c_str(), "As var.",
          kAll));

  const std::string scan = std::string(
                               "axis : None or int, optional\n"
                               "    The axis to scan along; None scans the flattened array.\n") +
                           kDtype +
                           "out : array, optional\n"
                           "    Where to write the result; its shape must be the result's.\n";
  def_scan<ScanOp::cumsum>(m, "cumsum",
                           doc("Cumulative sum along an axis.", scan.c_str(),
                               "The running sums, in sum's dtypes.", kAll));
  def_scan<ScanOp::cumprod>(m, "cumprod",
                            doc("Cumulative product along an axis.", scan.c_str(),
                                "The running products, in sum's dtypes.", kAll));
}

}  // namespace numcu::python
