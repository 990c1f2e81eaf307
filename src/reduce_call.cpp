// Reductions (sum, mean, argmax, ...) and scans (cumsum, cumprod) on the call pipeline. What is
// theirs: axes, keepdims, NumPy's accumulator dtypes (a rule per reduction, in the table below),
// and empty reductions.
#include "reduce_call.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "arguments.hpp"
#include "docstrings.hpp"
#include "elementwise_call.hpp"
#include "fastcall.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/reduce.hpp"
#include "numcu/runtime.hpp"
#include "pipeline.hpp"

namespace numcu::python {
namespace {

using Result = ReduceResult;
using Form = ReduceForm;

// Whether converting dtype `from` to `to` loses NaNs: a float or complex input converted to an
// integer or bool, or a complex one to a real dtype (the imaginary part is dropped). A
// nan-function replaces them before such a conversion, as NumPy's do.
bool loses_nan(DType from, DType to) {
  const bool complex_to_real = dtype_kind(from) == 'c' && dtype_kind(to) != 'c';
  return is_inexact(from) && (!is_inexact(to) || complex_to_real);
}

// `x` on the backend in `loop_in`, for a reduction or a scan. A nan-function's (skips_nan) NaNs
// are replaced by `stand_in` first where the conversion would lose them.
ArrayView prepare_input(Call& call, const Operand& x, DType loop_in, bool skips_nan,
                        double stand_in) {
  if (!skips_nan || !loses_nan(x.view.dtype, loop_in)) return call.prepare(x, loop_in);
  const ArrayView clean = nan_replaced(call, call.prepare(x, x.view.dtype), stand_in);
  const ArrayView converted = call.scratch_view(loop_in, clean.ndim, clean.shape, &clean);
  run_cast(call.exec(), converted, clean, call.fname());
  return converted;
}

DType real_dtype(DType d) {
  if (d == DType::complex64) return DType::float32;
  if (d == DType::complex128) return DType::float64;
  return d;
}

// NumPy's result dtype of sum and prod (and their scans): small integers widen, float16 and
// bfloat16 stay (the loop's own output, as for every other dtype).
DType sum_result_dtype(DType t) { return reduce_out_dtype(ReduceOp::sum, t); }

// The dtype a sum, product, mean or scan of input dtype `t` computes in when dtype= is absent:
// NumPy's reduce and accumulate loop is the promotion of the input's dtype and out's, so a
// float32 sum into a float64 out adds in float64, a float16 cumsum into a float32 out adds in
// float32, and an int64 sum into a float64 out cannot wrap. numcu takes that promotion where it
// is inexact (the input is converted to it first, as for dtype=). Where it is an integer dtype,
// the input's own loop (64-bit, wrapping) gives the same result modulo out's range without the
// conversion. A mean's loop follows NumPy's only for the inexact dtypes numpy.mean passes
// through: it means float16 in float32 whatever out is, and integers in float64 (mean's own rule;
// nanmean keeps it too, where NumPy's nanmean would sum float16 in out's dtype).
DType loop_dtype_for_out(Result rule, DType t, const Call& call) {
  if (!call.has_out()) return t;
  const bool follows_out =
      rule == Result::accumulated ||
      (rule == Result::mean && is_inexact(t) && t != DType::float16 && t != DType::bfloat16);
  if (!follows_out) return t;
  const DType promoted = promote_types(t, call.out().view.dtype);
  return is_inexact(promoted) ? promoted : t;
}

// The dtype= and out dtypes NumPy refuses where it would otherwise convert, refused here too:
// - argmin and argmax write through an int64 (intp) buffer that out must cast to safely, so a
//   float, complex or uint64 out is refused (bool and narrower integers are taken);
// - std takes the square root into out with casting='same_kind', so an integer or bool out is,
//   and so is an integer dtype= without out for an array result (the square root goes back into
//   the variance's array of that dtype; a 0-d result is converted);
// - nanmean of a float or complex input wants both dtype= and out inexact;
// - var and std of bool with dtype=bool subtract bools, which NumPy does not.
void check_refused_dtypes(const ReductionInfo& info, DType t, bool has_dtype, DType requested,
                          int rndim, const Call& call, const char* fname) {
  const auto refuse = [&](const char* what, DType d, const std::string& why) {
    throw_type_error(std::string(fname) + ": " + what + " has dtype " + dtype_name(d) + "; " + why);
  };
  const bool nan_mean = info.result == Result::mean && info.skips_nan && is_inexact(t);
  if (has_dtype && nan_mean && !is_inexact(requested)) {
    refuse("dtype=", requested,
           "the mean of a float or complex input needs a float or complex "
           "dtype");
  }
  if (has_dtype && requested == DType::bool_ && t == DType::bool_ &&
      (info.result == Result::variance || info.result == Result::deviation)) {
    refuse("dtype=", requested, "deviations of bools cannot be taken in bool");
  }
  if (has_dtype && info.result == Result::deviation && !is_inexact(requested) && !call.has_out() &&
      rndim > 0) {
    refuse("dtype=", requested,
           "the square root of the variance, a float, cannot be written back into an array of "
           "it with casting='same_kind' (a 0-d result, a float dtype= or a float out= can)");
  }
  if (!call.has_out()) return;
  const DType out = call.out().view.dtype;
  if (info.result == Result::index && promote_types(out, DType::int64) != DType::int64) {
    refuse("out", out,
           "indices need an out that casts safely to int64 (bool, int8 to int64, "
           "uint8 to uint32)");
  }
  if (info.result == Result::deviation && !is_inexact(out)) {
    refuse("out", out,
           "the square root gives a float, which does not cast to it with "
           "casting='same_kind'");
  }
  if (nan_mean && !is_inexact(out)) {
    refuse("out", out, "the mean of a float or complex input needs a float or complex out");
  }
}

// The dtype NumPy returns, given the input dtype and dtype= (when has_dtype).
DType result_dtype(Result rule, DType t, bool has_dtype, DType requested) {
  switch (rule) {
    case Result::accumulated:
      return has_dtype ? requested : sum_result_dtype(t);
    case Result::mean:
      return has_dtype ? requested : (is_inexact(t) ? t : DType::float64);
    case Result::variance:
    case Result::deviation:
      return has_dtype ? requested : real_dtype(is_inexact(t) ? t : DType::float64);
    case Result::same:
      return t;
    case Result::index:
      return DType::int64;
    case Result::boolean:
      return DType::bool_;
  }
  return t;
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

void check_out_shape(const Operand& out, int ndim, const std::int64_t* shape, const char* fname) {
  if (out.view.ndim != ndim || !std::equal(shape, shape + ndim, out.view.shape)) {
    throw_value_error(std::string(fname) + ": out has shape " +
                      shape_str(out.view.shape, out.view.ndim) + " but the result has shape " +
                      shape_str(shape, ndim));
  }
}

py::object reduce_call(ReduceOp op, py::handle a, py::handle axis, py::handle dtype_obj,
                       py::handle out_obj, bool keepdims, double ddof, const DeviceRequest& req);

// var and std with a dtype= the two-pass kernels cannot follow, as NumPy computes them (its
// _var): an integer dtype=, or a real one for complex input. The mean is summed in the dtype
// (integers wrap) and the quotient written into it (integers truncate); the deviations are taken
// in the promotion of the input's dtype with it, squared (|x|**2 for complex input, whose
// imaginary parts stay in the deviations), summed in the dtype and divided by N - ddof, the
// quotient truncated into an integer dtype again (where out is given, the sum is converted into
// out's dtype and divided there). std takes the square root of that (check_refused_dtypes refuses
// what NumPy cannot write back). Made of numcu's sum, divide, subtract, multiply, absolute,
// square and sqrt on the call's side of the machine; the call then writes the result where it
// belongs.
py::object variance_in_dtype(Call& call, const Exec& ex, const ReductionInfo& info, py::handle a,
                             DType t, py::handle axis, py::handle dtype_obj, bool keepdims,
                             double ddof, std::int64_t n_red, DType result, int rndim,
                             const std::int64_t* shape, const DeviceRequest& req) {
  const char* fname = info.fname;
  const bool root = info.result == Result::deviation;
  const bool integer = !is_inexact(result);
  DeviceRequest here = req;  // every step on the call's side, device and stream
  here.kind = ex.gpu ? DeviceRequest::Kind::cuda : DeviceRequest::Kind::cpu;
  here.device = ex.gpu ? ex.device : -1;
  here.sync = false;
  const py::none none;
  // A float quotient into an integer dtype (a float dtype's quotient is in it already).
  const auto truncated = [&](const py::object& v) {
    return integer ? astype(v, dtype_obj, here) : v;
  };
  const py::object total = reduce_call(ReduceOp::sum, a, axis, dtype_obj, none, true, 0, here);
  const py::object mean =
      truncated(ufunc_call(Ufunc::divide, {total, py::int_(n_red)}, none, here));
  const py::object deviations = ufunc_call(Ufunc::subtract, {a, mean}, none, here);
  const py::object squares =
      dtype_kind(t) == 'c'
          ? ufunc_call(Ufunc::square, {ufunc_call(Ufunc::absolute, {deviations}, none, here)}, none,
                       here)
          : ufunc_call(Ufunc::multiply, {deviations, deviations}, none, here);
  py::object sum_of_squares =
      reduce_call(ReduceOp::sum, squares, axis, dtype_obj, none, keepdims, 0, here);
  // Into out, the sum is written in out's dtype first and divided there.
  if (call.has_out()) {
    sum_of_squares = astype(sum_of_squares, numpy_dtype(call.out().view.dtype), here);
  }
  const double divisor = std::max(static_cast<double>(n_red) - ddof, 0.0);
  py::object value = ufunc_call(Ufunc::divide, {sum_of_squares, py::float_(divisor)}, none, here);
  if (!call.has_out()) value = truncated(value);
  if (root) {
    value = ufunc_call(Ufunc::sqrt, {value}, none, here);
    if (!call.has_out()) value = truncated(value);
  }
  const Operand computed = intake(value, fname);
  const ArrayView in = call.prepare(computed, computed.view.dtype);
  const ArrayView& dest = call.destination(result, rndim, shape, nullptr);
  const ArrayView res = call.target(dest, dest.dtype);
  call.run([&] { run_cast(ex, res, in, fname); });
  return call.finish();
}

py::object reduce_call(ReduceOp op, py::handle a, py::handle axis, py::handle dtype_obj,
                       py::handle out_obj, bool keepdims, double ddof, const DeviceRequest& req) {
  const ReductionInfo& info = reduction_info(op);
  const char* fname = info.fname;
  Call call(fname, req);
  const Operand& x = call.array_input(a);
  const int ndim = x.view.ndim;
  bool reduced[kMaxDims];
  parse_axes(axis, ndim, info.form == Form::arg, fname, reduced);

  // dtypes: the loop's input (dtype= converts the input first), its output, and NumPy's result
  const DType t = x.view.dtype;
  const bool has_dtype = !dtype_obj.is_none();
  call.output(out_obj);
  const DType loop_in =
      has_dtype ? dtype_from_python(dtype_obj, fname) : loop_dtype_for_out(info.result, t, call);
  const DType loop_out = reduce_out_dtype(op, loop_in);
  const DType result = result_dtype(info.result, t, has_dtype, loop_in);

  // shapes: the result's (keepdims' size-1 axes included) and the kept axes the plan walks
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
  if (n_red == 0 && info.no_identity != nullptr) {
    if (info.result == Result::index) {
      throw_value_error(std::string(fname) + ": attempt to get " + info.no_identity +
                        " of an empty sequence");
    }
    throw_value_error(std::string(fname) + ": zero-size array to reduction operation " +
                      info.no_identity + " which has no identity");
  }
  // After the empty check, as NumPy's reductions composed of others (ptp: max - min) do.
  if (!reduce_supports(op, loop_in)) {
    throw_type_error(std::string(fname) + ": no loop for dtype " + dtype_name(loop_in));
  }
  if (call.has_out()) check_out_shape(call.out(), rndim, shape, fname);
  check_refused_dtypes(info, t, has_dtype, loop_in, rndim, call, fname);

  call.cost(OpClass::reduction, 0.0, static_cast<double>(x.view.size()));
  const Exec& ex = call.place();
  const bool two_pass = info.result == Result::variance || info.result == Result::deviation;
  if (two_pass && has_dtype &&
      (!is_inexact(loop_in) || (dtype_kind(t) == 'c' && dtype_kind(loop_in) != 'c'))) {
    return variance_in_dtype(call, ex, info, a, t, axis, dtype_obj, keepdims, ddof, n_red, result,
                             rndim, shape, req);
  }
  ArrayView in = prepare_input(call, x, loop_in, info.skips_nan, info.nan_stand_in);
  const ArrayView& dest = call.destination(result, rndim, shape, nullptr);
  ArrayView kept = dest;
  if (keepdims) {
    kept.ndim = 0;
    for (int d = 0; d < ndim; ++d) {
      if (reduced[d]) continue;
      kept.shape[kept.ndim] = dest.shape[d];
      kept.strides[kept.ndim++] = dest.strides[d];
    }
  }
  const ArrayView res = call.target(kept, loop_out);
  // A reduction reads many input elements per output element: an `out` sharing any memory
  // with the input gets a copy of the input.
  if (call.writes_out(res)) in = call.unaliased(res, in, false);
  const ReducePlan plan = make_reduce_plan(in, reduced, res, fname);

  ReduceParams params;
  params.n = n_red;
  params.ddof = ddof;
  params.root = info.result == Result::deviation;
  ReducePlan mean_plan;
  if (two_pass) {
    const ArrayView means = call.scratch_view(reduce_out_dtype(ReduceOp::mean, loop_in), kept.ndim,
                                              kept.shape, nullptr);
    mean_plan = make_reduce_plan(in, reduced, means, fname);
    params.mean = means.data;
  }
  call.run([&] {
    if (ex.gpu) {
      if (two_pass) reduce_cuda(ReduceOp::mean, loop_in, mean_plan, params, ex.stream);
      reduce_cuda(op, loop_in, plan, params, ex.stream);
    } else {
      if (two_pass) reduce_cpu(ReduceOp::mean, loop_in, mean_plan, params);
      reduce_cpu(op, loop_in, plan, params);
    }
  });
  return call.finish();
}

py::object scan_call(ScanOp op, py::handle a, py::handle axis_obj, py::handle dtype_obj,
                     py::handle out_obj, const DeviceRequest& req) {
  const ReductionInfo& info = scan_info(op);
  const char* fname = info.fname;
  Call call(fname, req);
  const Operand& x = call.array_input(a);
  const DType t = x.view.dtype;
  const bool has_dtype = !dtype_obj.is_none();
  call.output(out_obj);
  const DType loop_in = has_dtype ? dtype_from_python(dtype_obj, fname)
                                  : loop_dtype_for_out(Result::accumulated, t, call);
  // Every scan has a loop for every dtype (the nan-scans' exact loops are the plain ones).
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
  if (call.has_out()) check_out_shape(call.out(), rndim, shape, fname);
  call.cost(OpClass::scan, static_cast<double>(x.view.size()) * itemsize(result),
            static_cast<double>(x.view.size()));
  const Exec& ex = call.place();

  ArrayView in = prepare_input(call, x, loop_in, info.skips_nan, info.nan_stand_in);
  // One line scans fastest contiguous (CUB on the GPU): flatten into a dense copy if needed.
  if ((flatten && in.ndim != 1) || (rndim == 1 && !in.is_c_contiguous())) {
    if (!in.is_c_contiguous()) {
      const ArrayView dense = call.scratch_view(in.dtype, in.ndim, in.shape, nullptr);
      run_cast(ex, dense, in, fname);
      in = dense;
    }
    in.ndim = 1;
    in.shape[0] = shape[0];
    in.strides[0] = itemsize(in.dtype);
  }
  const ArrayView& dest = call.destination(result, rndim, shape, nullptr);
  const ArrayView res = call.target(dest, loop_out, rndim == 1);
  // Scans run in place (CUB's device scan allows it; the line loops read each element before
  // writing its position), so cumsum(x, out=x) needs no copy; any other overlap does.
  if (call.writes_out(res)) in = call.unaliased(res, in, true);
  const ReducePlan plan = make_scan_plan(in, axis, res, fname);
  call.run([&] {
    if (ex.gpu) {
      scan_cuda(op, loop_in, plan, ex.stream);
    } else {
      scan_cpu(op, loop_in, plan);
    }
  });
  return call.finish(true);
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
// var's and std's dtype=, which NumPy does not simply convert the input to.
const char* kDtypeVar =
    "dtype : dtype, optional\n"
    "    The dtype to accumulate in and return. As in NumPy, an integer dtype takes the mean,\n"
    "    the squared deviations' sum and the quotients in it (sums wrap, quotients truncate),\n"
    "    and a real dtype leaves complex input's imaginary parts in the deviations.\n";
const char* kOut =
    "out : array, optional\n"
    "    Where to write the result; its shape must be the result's. The result is converted\n"
    "    to its dtype, as NumPy does.\n";
// The outs NumPy refuses (check_refused_dtypes), by reduction.
const char* kOutIndex =
    "    Its dtype must cast safely to int64 (bool, int8 to int64, uint8 to uint32).\n";
const char* kOutDeviation = "    Its dtype must be float or complex.\n";
const char* kOutNanMean =
    "    For a float or complex input, its dtype and dtype= must be float or complex.\n";
// Sums, products, means and scans: out's dtype also takes part in the loop's
// (loop_dtype_for_out).
const char* kOutLoop =
    "    Without dtype=, the loop runs in the promotion of the input's dtype and out's where\n"
    "    that is a float or complex dtype, as NumPy's does.\n";
const char* kOutLoopMean = "    A mean takes it for float32, float64 and complex inputs only.\n";
const char* kKeepdims =
    "keepdims : bool, optional\n"
    "    Keep the reduced axes with size one.\n";

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

template <ReduceOp R, Form F>
PyObject* reduce_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const FormSpec form = form_spec(F);
  static const ArgSpec spec{reduction_info(R).fname, form.names, form.count, 0,
                            form.max_positional,     1};
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
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    auto value = [&](Param k) { return slots[k] < 0 ? nullptr : v[slots[k]]; };
    const DeviceRequest req = parse_device(value(device), value(stream), spec.fname);
    PyObject* ddof_given = value(ddof);
    return reduce_call(R, given(v[0]), given(value(axis)), given(value(dtype)), given(value(out)),
                       truthy(given(value(keepdims))),
                       ddof_given != nullptr ? ddof_value(ddof_given) : 0, req);
  });
}

template <ScanOp S>
PyObject* scan_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const fname = scan_info(S).fname;
  static const FormSpec form = form_spec(Form::scan);
  static const ArgSpec spec{fname, form.names, form.count, 0, form.max_positional, 1};
  return run_fastcall(spec, args, nargs, kwnames, [](PyObject* const* v) {
    const DeviceRequest req = parse_device(v[4], v[5], fname);
    return scan_call(S, given(v[0]), given(v[1]), given(v[2]), given(v[3]), req);
  });
}

// The parameters' text of a form, with a reduction's own rules on out.
std::string form_params(const ReductionInfo& info) {
  std::string out = kOut;
  if (info.result == Result::accumulated) out += kOutLoop;
  if (info.result == Result::mean) out += std::string(kOutLoop) + kOutLoopMean;
  if (info.result == Result::index) out += kOutIndex;
  if (info.result == Result::deviation) out += kOutDeviation;
  if (info.result == Result::mean && info.skips_nan) out += kOutNanMean;
  const std::string arg =
      "axis : None or int, optional\n"
      "    The axis to search along; None searches the flattened array.\n";
  const std::string ddof =
      "ddof : float, optional\n"
      "    The divisor is N - ddof (N: elements per result).\n";
  switch (info.form) {
    case Form::with_dtype:
      return std::string(kAxis) + kDtype + out + kKeepdims;
    case Form::plain:
      return std::string(kAxis) + out + kKeepdims;
    case Form::arg:
      return arg + out + kKeepdims;
    case Form::var:
      return std::string(kAxis) + kDtypeVar + out + ddof + kKeepdims;
    case Form::count:
      return std::string(kAxis) + kKeepdims;
    case Form::scan:
      return std::string(
                 "axis : None or int, optional\n"
                 "    The axis to scan along; None scans the flattened array.\n") +
             kDtype + kOut + kOutLoop;
  }
  return {};
}

std::string reduction_doc(const ReductionInfo& info, const std::string& dtypes) {
  return signature(info.name, info.form) +
         doc(info.summary, form_params(info).c_str(), info.returns, (dtypes + ".").c_str());
}

template <ReduceOp R, Form F>
void def_reduction(py::module_& m) {
  const ReductionInfo& info = reduction_info(R);
  const std::string dtypes = dtypes_line([](DType d) { return reduce_supports(R, d); });
  def_fastcall(m, info.name, &reduce_entry<R, F>, keep(reduction_doc(info, dtypes)));
}

template <ScanOp S>
void def_scan(py::module_& m) {
  const ReductionInfo& info = scan_info(S);
  // Every scan has a loop for every dtype (a nan-scan's on integers and bool is the plain one's).
  const std::string dtypes = dtypes_line([](DType) { return true; });
  def_fastcall(m, info.name, &scan_entry<S>, keep(reduction_doc(info, dtypes)));
}

const char* const kFormNames[] = {"with_dtype", "plain", "arg", "var", "count", "scan"};
const char* const kResultNames[] = {"accumulated", "mean",  "variance", "deviation",
                                    "same",        "index", "boolean"};

py::object str_or_none(const char* s) { return s != nullptr ? py::str(s) : py::object(py::none()); }

// (name, form, result, no_identity, skips_nan, ufunc, summary) of a table line, for numcu's Python
// layer, tests and tools.
py::tuple table_row(const ReductionInfo& info) {
  return py::make_tuple(info.name, kFormNames[static_cast<int>(info.form)],
                        kResultNames[static_cast<int>(info.result)], str_or_none(info.no_identity),
                        info.skips_nan, str_or_none(info.ufunc), info.summary);
}

}  // namespace

bool is_reduction_name(const char* name) {
  for (int i = 0; i < kNumReductions; ++i) {
    if (std::strcmp(reduction_info(static_cast<ReduceOp>(i)).name, name) == 0) return true;
  }
  return false;
}

bool is_scan_name(const char* name) {
  for (int i = 0; i < kNumScans; ++i) {
    if (std::strcmp(scan_info(static_cast<ScanOp>(i)).name, name) == 0) return true;
  }
  return false;
}

void bind_reductions(py::module_& m) {
#define NUMCU_DEF(e, R, group, form, result, summary, returns) \
  def_reduction<ReduceOp::e, Form::form>(m);
  NUMCU_REDUCTIONS(NUMCU_DEF)
#undef NUMCU_DEF
#define NUMCU_DEF(e, S, summary, returns) def_scan<ScanOp::e>(m);
  NUMCU_SCANS(NUMCU_DEF)
#undef NUMCU_DEF
  // The names numcu/__init__.py re-exports, and the tables themselves (scans: form "scan").
  py::list reductions, scans, table;
  for (int i = 0; i < kNumReductions; ++i) {
    const ReductionInfo& info = reduction_info(static_cast<ReduceOp>(i));
    reductions.append(info.name);
    table.append(table_row(info));
  }
  for (int i = 0; i < kNumScans; ++i) {
    const ReductionInfo& info = scan_info(static_cast<ScanOp>(i));
    scans.append(info.name);
    table.append(table_row(info));
  }
  m.attr("reductions") = py::tuple(reductions);
  m.attr("scans") = py::tuple(scans);
  m.attr("reduction_table") = py::tuple(table);
}

}  // namespace numcu::python
