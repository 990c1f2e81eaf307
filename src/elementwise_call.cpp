#include "elementwise_call.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "execution.hpp"
#include "host_memory.hpp"
#include "numcu/checked.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "pipeline.hpp"
#include "placement.hpp"

namespace numcu::python {
namespace {

// The ufunc's dtypes: the loop every input (but a condition) is converted to, and what it writes.
struct UfuncTypes {
  DType loop;
  DType out;
};

std::string dtypes_str(const Call& call) {
  std::string s;
  for (int i = 0; i < call.inputs(); ++i) {
    if (i > 0) s += ", ";
    s += dtype_name(call.input(i).view.dtype);
  }
  return s;
}

std::string shapes_str(const Call& call) {
  std::string s;
  for (int i = 0; i < call.inputs(); ++i) {
    if (i > 0) s += " ";
    s += shape_str(call.input(i).view.shape, call.input(i).view.ndim);
  }
  return s;
}

// A comparison of an integer array with a Python integer beyond its dtype's range (NEP 50): the
// answer is the same for every element, and the comparison with the range's bound in the value's
// place that always (x <= max, x >= min) or never (x > max, x < min) holds gives it, through the
// same kernel, shape, device and `out`. `op` itself for any other ufunc. `at`: which input the
// value is; side > 0: above the range, < 0: below it.
Ufunc side_free_op(Ufunc op, int at, int side) {
  // As "array op value": with the value first, the order comparisons turn round.
  Ufunc as_array_first = op;
  if (at == 0) {
    constexpr Ufunc kTurned[][2] = {{Ufunc::less, Ufunc::greater},
                                    {Ufunc::less_equal, Ufunc::greater_equal},
                                    {Ufunc::greater, Ufunc::less},
                                    {Ufunc::greater_equal, Ufunc::less_equal}};
    for (const auto& t : kTurned) {
      if (op == t[0]) as_array_first = t[1];
    }
  }
  // Whether "array op value" holds for every element.
  bool truth;
  if (as_array_first == Ufunc::equal || as_array_first == Ufunc::not_equal) {
    truth = as_array_first == Ufunc::not_equal;
  } else if (as_array_first == Ufunc::less || as_array_first == Ufunc::less_equal) {
    truth = side > 0;
  } else if (as_array_first == Ufunc::greater || as_array_first == Ufunc::greater_equal) {
    truth = side < 0;
  } else {
    return op;
  }
  // The bound in the value's place: x <= max and x >= min always hold, x > max and x < min never.
  const bool above = side > 0;
  if (at == 1) {
    if (truth) return above ? Ufunc::less_equal : Ufunc::greater_equal;
    return above ? Ufunc::greater : Ufunc::less;
  }
  if (truth) return above ? Ufunc::greater_equal : Ufunc::less_equal;
  return above ? Ufunc::less : Ufunc::greater;
}

bool is_comparison(Ufunc op) {
  return op == Ufunc::equal || op == Ufunc::not_equal || op == Ufunc::less ||
         op == Ufunc::less_equal || op == Ufunc::greater || op == Ufunc::greater_equal;
}

// NumPy's loop search. The inputs promote (a condition stays apart), then the ufunc maps the
// promoted dtype to its loop. Float functions map each input to its own loop first; a Python
// scalar among them stands for the dtype NEP 50 gives it against the others, so 2.5 with an
// int8 array or 3 with a bool array runs on float64, as in NumPy, and 3 with int8 on float16.
UfuncTypes ufunc_types(Ufunc& op, const UfuncInfo& info, Call& call) {
  const int nin = std::min(call.inputs(), Call::kMaxInputs);
  const int first = info.condition_first ? 1 : 0;
  Typed given[Call::kMaxInputs], typed[Call::kMaxInputs];
  for (int i = first; i < nin; ++i) given[i] = Typed{call.input(i).view.dtype, call.input(i).weak};
  const Typed nep50 = promote_all(given + first, nin - first);
  DType promoted = nep50.dtype;  // the inputs' own dtypes promoted, unless mapped per input
  if (info.loop_per_input) {
    for (int i = first; i < nin; ++i) {
      const Operand& x = call.input(i);
      typed[i] = Typed{ufunc_loop_dtype(op, x.weak ? nep50.dtype : x.view.dtype), nep50.weak};
    }
    promoted = promote_all(typed + first, nin - first).dtype;
  }
  const DType loop = ufunc_loop_dtype(op, promoted);
  if (!ufunc_supports(op, loop)) {
    if (op == Ufunc::subtract && loop == DType::bool_) {
      throw_type_error(std::string(info.fname) +
                       ": boolean subtract is not supported (dtype bool); use "
                       "numcu.logical_xor or the ^ operator instead");
    }
    throw_type_error(std::string(info.fname) + ": no loop for dtype " + dtype_name(loop) +
                     " (inputs: " + dtypes_str(call) + ")");
  }
  for (int i = first; i < nin; ++i) {
    const int side = weak_int_side(call.input(i), loop);
    if (side == 0) continue;
    // NumPy 2 compares with a Python integer beyond the dtype's range, and takes it as true in
    // logical functions (it is not zero); everything else refuses it.
    if (op == Ufunc::logical_and || op == Ufunc::logical_or || op == Ufunc::logical_xor) {
      clamp_weak_int(call.input(i), loop, 0);
      continue;
    }
    if (!is_comparison(op)) check_weak_int(call.input(i), loop, info.fname);
    clamp_weak_int(call.input(i), loop, side);
    op = side_free_op(op, i, side);
  }
  const DType out = ufunc_out_dtype(op, loop);
  if (call.has_out() && !can_cast_same_kind(out, call.out().view.dtype)) {
    throw_type_error(std::string(info.fname) + ": cannot cast the result from " + dtype_name(out) +
                     " to " + dtype_name(call.out().view.dtype) + " (casting='same_kind')");
  }
  return {loop, out};
}

// NumPy's broadcast of the inputs, which `out` must have (it may not widen it).
Shape ufunc_shape(const Call& call) {
  Shape shape;
  for (int i = 0; i < call.inputs(); ++i) {
    if (!broadcast_into(shape, call.input(i).view)) {
      throw_value_error(std::string(call.fname()) +
                        ": operands could not be broadcast together with shapes " +
                        shapes_str(call));
    }
  }
  if (call.has_out()) {
    const ArrayView& out = call.out().view;
    const bool fits = out.ndim >= shape.ndim && [&] {
      Shape with_out = shape;
      return broadcast_into(with_out, out) &&
             std::equal(out.shape, out.shape + out.ndim, with_out.dims);
    }();
    if (!fits) {
      throw_value_error(std::string(call.fname()) + ": out has shape " +
                        shape_str(out.shape, out.ndim) + " but the result has shape " +
                        shape_str(shape.dims, shape.ndim));
    }
    shape.ndim = out.ndim;
    std::copy(out.shape, out.shape + out.ndim, shape.dims);
  }
  return shape;
}

// Whether an integer exponent held on the host is negative (NumPy refuses those). Device
// arrays are not looked at: that would make the host wait for the GPU.
bool negative_host_exponent(const Operand& x, const ArrayView& by_value, bool is_scalar, DType loop,
                            Scratch& scratch, const char* fname) {
  if (is_scalar) {
    return visit_dtype(loop, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) {
        T value;
        std::memcpy(&value, by_value.data, sizeof(T));
        return value < T(0);
      }
      return false;
    });
  }
  if (x.kind != Operand::Kind::host || x.view.size() == 0) return false;
  const Exec host{};
  const ArrayView values =
      dense_view(scratch, host, DType::int64, x.view.ndim, x.view.shape, nullptr);
  run_cast(host, values, x.view, fname);
  const auto* e = reinterpret_cast<const std::int64_t*>(values.data);
  return std::any_of(e, e + values.size(), [](std::int64_t v) { return v < 0; });
}

template <int N>
void run_ufunc(Ufunc op, DType loop, const Exec& ex, const ArrayView* views, const bool* is_scalar,
               const unsigned char (*values)[16], const OpParams& params, const char* fname) {
  const ArrayView* plan_views[N];
  const void* plan_values[N];
  for (int i = 0; i < N; ++i) {
    plan_views[i] = &views[i];
    plan_values[i] = values[i];
  }
  const ElementwisePlan<N> plan = make_plan<N>(plan_views, is_scalar, plan_values, fname);
  if (ex.gpu) {
    ufunc_cuda<N>(op, loop, plan, params, ex.stream);
  } else {
    ufunc_cpu<N>(op, loop, plan, params);
  }
}

// run_ufunc for `nin` inputs.
void run_ufunc_of(int nin, Ufunc op, DType loop, const Exec& ex, const ArrayView* views,
                  const bool* is_scalar, const unsigned char (*values)[16], const OpParams& params,
                  const char* fname) {
  if (nin == 1) {
    run_ufunc<2>(op, loop, ex, views, is_scalar, values, params, fname);
  } else if (nin == 2) {
    run_ufunc<3>(op, loop, ex, views, is_scalar, values, params, fname);
  } else {
    run_ufunc<4>(op, loop, ex, views, is_scalar, values, params, fname);
  }
}

// Whether the call's operands are all host data and its result big enough for the chunked GPU
// path (run_chunked), and nothing in it needs the whole-array path: integer powers check the
// exponents first; an output that shares memory with an input other than element for element
// needs the inputs read whole first.
bool host_only_call(const Call& call, Ufunc op, DType loop, std::int64_t out_bytes) {
  if (call.device_input() || out_bytes <= 0 || !use_chunked(static_cast<std::size_t>(out_bytes))) {
    return false;
  }
  if (op == Ufunc::power && dtype_kind(loop) == 'i') return false;
  if (!call.has_out()) return true;
  const Operand& out = call.out();
  if (out.kind != Operand::Kind::host) return false;
  for (int i = 0; i < call.inputs(); ++i) {
    const Operand& x = call.input(i);
    if (x.kind == Operand::Kind::host && x.view.ndim > 0 &&
        overlap(out.view, x.view) == Overlap::partial) {
      return false;
    }
  }
  return true;
}

// A ufunc's operands as its kernels take them: operand 0 the output, then the inputs, arrays
// as `array(x, dtype)` gives them and host scalars by value (kernel arguments, converted to
// their loop dtype here). The first array of the result's rank is what the result's layout
// follows (`like`).
struct UfuncOperands {
  ArrayView views[Call::kMaxInputs + 1];
  DType dtypes[Call::kMaxInputs + 1] = {};
  bool is_scalar[Call::kMaxInputs + 1] = {};
  alignas(16) unsigned char values[Call::kMaxInputs + 1][16] = {};
  const ArrayView* like = nullptr;

  template <class Array>
  UfuncOperands(Call& call, const UfuncInfo& info, DType loop, int ndim, Array&& array) {
    for (int i = 0; i < call.inputs(); ++i) {
      const Operand& x = call.input(i);
      const DType dtype = i == 0 && info.condition_first ? DType::bool_ : loop;
      dtypes[i + 1] = dtype;
      ArrayView& v = views[i + 1];
      if (x.kind != Operand::Kind::device && x.view.ndim == 0) {
        v.dtype = dtype;
        v.data = reinterpret_cast<char*>(values[i + 1]);
        run_cast(Exec{}, v, x.view, info.fname);
        is_scalar[i + 1] = true;
        continue;
      }
      v = array(x, dtype);
      if (like == nullptr && v.ndim == ndim) like = &v;
    }
  }
};

py::object chunked_ufunc_call(Call& call, Ufunc op, const UfuncInfo& info, DType loop,
                              DType out_dtype, const Shape& shape, const OpParams& params) {
  const int nin = call.inputs();
  const Exec& ex = call.exec();
  // Host arrays stay where they are: the chunks copy them up.
  UfuncOperands ops(call, info, loop, shape.ndim, [](const Operand& x, DType) {
    register_input(x);
    return x.view;
  });
  ops.views[0] = call.destination(out_dtype, shape.ndim, shape.dims, ops.like);
  ops.dtypes[0] = out_dtype;
  const char* fname = info.fname;
  call.run([&] {
    run_chunked(
        ex, nin + 1, ops.views, ops.dtypes, ops.is_scalar,
        [&](const ArrayView* chunk, Stream stream) {
          Exec on = ex;
          on.stream = stream;
          run_ufunc_of(nin, op, loop, on, chunk, ops.is_scalar, ops.values, params, fname);
        },
        fname);
  });
  return call.finish(op == Ufunc::where);
}

}  // namespace

py::object ufunc_call(Ufunc op, std::initializer_list<py::handle> inputs, py::handle out_obj,
                      const DeviceRequest& req, const OpParams& params) {
  const UfuncInfo& info = ufunc_info(op);
  const int nin = static_cast<int>(inputs.size());
  if (nin != info.arity || nin < 1 || nin > Call::kMaxInputs) {
    throw_type_error(std::string(info.fname) + ": takes " + std::to_string(info.arity) +
                     " inputs, not " + std::to_string(nin));
  }
  Call call(info.fname, req);
  for (py::handle x : inputs) call.input(x);
  call.output(out_obj);
  const UfuncTypes types = ufunc_types(op, info, call);
  const Shape shape = ufunc_shape(call);
  // Two valid shapes can broadcast to one too big to exist: (2**40, 1) with (1, 2**40).
  checked::check_shape(info.fname, shape.dims, shape.ndim, types.out);
  std::int64_t out_elements = 1;
  for (int d = 0; d < shape.ndim; ++d) out_elements *= shape.dims[d];
  call.cost(op_class_of(op),
            static_cast<double>(out_elements) * static_cast<double>(itemsize(types.out)),
            static_cast<double>(out_elements));
  const Exec& ex = call.place();
  if (ex.gpu && host_only_call(call, op, types.loop,
                               out_elements * static_cast<std::int64_t>(itemsize(types.out)))) {
    return chunked_ufunc_call(call, op, info, types.loop, types.out, shape, params);
  }

  // Arrays on the backend in their loop dtype.
  UfuncOperands ops(call, info, types.loop, shape.ndim,
                    [&](const Operand& x, DType dtype) { return call.prepare(x, dtype); });
  ArrayView* views = ops.views;
  const bool* is_scalar = ops.is_scalar;
  auto& values = ops.values;
  if (op == Ufunc::power && dtype_kind(types.loop) == 'i' &&
      negative_host_exponent(call.input(1), views[2], is_scalar[2], types.loop, call.scratch(),
                             info.fname)) {
    throw_value_error(std::string(info.fname) +
                      ": integers to negative integer powers are not allowed");
  }

  const ArrayView& dest = call.destination(types.out, shape.ndim, shape.dims, ops.like);
  views[0] = call.target(dest, types.out);
  // An input that shares memory with the output it is written into, other than element for
  // element, is read whole first.
  if (call.writes_out(views[0])) {
    for (int i = 1; i <= nin; ++i) {
      if (!is_scalar[i]) views[i] = call.unaliased(views[0], views[i], true);
    }
  }
  call.run(
      [&] { run_ufunc_of(nin, op, types.loop, ex, views, is_scalar, values, params, info.fname); });
  // Like NumPy, a 0-d host result comes back as a NumPy scalar (where's as a 0-d array).
  return call.finish(op == Ufunc::where);
}

py::object astype(py::handle obj, py::handle dtype_obj, const DeviceRequest& req) {
  const char* fname = "numcu.astype";
  const DType want = dtype_from_python(dtype_obj, fname);
  Call call(fname, req);
  const Operand& x = call.array_input(obj);
  // Host data is cast on the host: a cast is one pass over memory, cheaper than the trip to a
  // GPU and back.
  call.place(Call::host_data_stays);
  const ArrayView src = call.prepare(x, x.view.dtype);
  const ArrayView& dest = call.destination(want, src.ndim, src.shape, &src);
  const ArrayView dst = call.target(dest, want);
  call.run([&] { run_cast(call.exec(), dst, src, fname); });
  return call.finish(true);
}

ArrayView nan_replaced(Call& call, const ArrayView& x, double value) {
  const Exec& ex = call.exec();
  const char* fname = call.fname();
  const OpParams params{};
  // values[i]: operand i's value where it is a scalar; here only where's `value`.
  alignas(16) unsigned char values[4][16] = {};
  // mask = isnan(x)
  const ArrayView mask = call.scratch_view(DType::bool_, x.ndim, x.shape, &x);
  const ArrayView test[2] = {mask, x};
  const bool test_scalar[2] = {false, false};
  run_ufunc<2>(Ufunc::isnan, x.dtype, ex, test, test_scalar, values, params, fname);
  // clean = where(mask, value, x), the value converted to x's dtype
  ArrayView given;
  given.dtype = DType::float64;
  given.data = reinterpret_cast<char*>(&value);
  ArrayView scalar;
  scalar.dtype = x.dtype;
  scalar.data = reinterpret_cast<char*>(values[2]);
  run_cast(Exec{}, scalar, given, fname);
  const ArrayView clean = call.scratch_view(x.dtype, x.ndim, x.shape, &x);
  const ArrayView select[4] = {clean, mask, scalar, x};
  const bool select_scalar[4] = {false, false, true, false};
  run_ufunc<4>(Ufunc::where, x.dtype, ex, select, select_scalar, values, params, fname);
  return clean;
}

void copy_into(const ArrayView& dst, const ArrayView& src, Stream stream, const char* fname) {
  Exec ex;
  ex.gpu = true;
  ex.device = dst.device;
  ex.stream = stream;
  run_cast(ex, dst, src, fname);
}

}  // namespace numcu::python
