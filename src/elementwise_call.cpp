#include "elementwise_call.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "execution.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/checked.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

// ---------------------------------------------------------------------------------------------
// Plan: dtypes and shapes.

// A dtype with NEP 50's weakness: Python scalars are "weak".
struct Typed {
  DType dtype;
  bool weak;
};

// NumPy 2's promotion with NEP 50: a Python scalar ("weak") takes the other operand's dtype
// when that dtype can hold its kind, so int8 + 3 stays int8 and float32 + 2.5 stays float32.
Typed promote(Typed a, Typed b) {
  if (a.weak == b.weak) return {promote_types(a.dtype, b.dtype), a.weak};
  const DType weak = a.weak ? a.dtype : b.dtype;
  const DType strong = a.weak ? b.dtype : a.dtype;
  const char wk = dtype_kind(weak), sk = dtype_kind(strong);
  const bool strong_integral = sk == 'b' || sk == 'i' || sk == 'u';
  DType r;
  if (wk == 'b') {
    r = strong;
  } else if (wk == 'i' || wk == 'u') {
    r = sk == 'b' ? weak : strong;
  } else if (wk == 'f') {
    r = strong_integral ? DType::float64 : strong;
  } else if (strong_integral) {  // complex
    r = DType::complex128;
  } else if (sk == 'f') {
    r = strong == DType::float64 ? DType::complex128 : DType::complex64;
  } else {
    r = strong;
  }
  return {r, false};
}

// NumPy's result type of three or more dtypes: the smallest every one casts to safely, which
// pairwise promotion can miss (int8, uint8, float16 gives float16, not int16's float32).
DType common_dtype(const Typed* t, int n, DType pairwise) {
  static constexpr DType kBySize[] = {
      DType::bool_,   DType::int8,    DType::uint8,     DType::int16,     DType::uint16,
      DType::int32,   DType::uint32,  DType::int64,     DType::uint64,    DType::float16,
      DType::float32, DType::float64, DType::complex64, DType::complex128};
  for (DType c : kBySize) {
    if (c == pairwise) break;
    bool all = true;
    for (int i = 0; i < n && all; ++i) all = t[i].weak || promote_types(t[i].dtype, c) == c;
    if (all) return c;
  }
  return pairwise;
}

// NEP 50 over several operands: the arrays (strong) promote among themselves, and the Python
// scalars (weak) then meet their result, so (bool array, 5, int8 array) gives int8 in any
// order, where promoting pairwise from the left would let 5 meet bool alone and make int64.
Typed promote_all(const Typed* t, int n) {
  Typed strong{}, weak{};
  int strongs = 0, weaks = 0;
  for (int i = 0; i < n; ++i) {
    Typed& acc = t[i].weak ? weak : strong;
    int& count = t[i].weak ? weaks : strongs;
    acc = count > 0 ? promote(acc, t[i]) : t[i];
    ++count;
  }
  if (strongs > 2) strong.dtype = common_dtype(t, n, strong.dtype);
  if (weaks == 0) return strong;
  if (strongs == 0) return weak;
  return promote(strong, weak);
}

}  // namespace

void check_weak_int(const Operand& x, DType loop, const char* fname) {
  const char k = dtype_kind(loop);
  if (!x.weak || (k != 'i' && k != 'u')) return;
  const char xk = dtype_kind(x.view.dtype);
  if (xk != 'i' && xk != 'u') return;
  std::int64_t s = 0;
  std::uint64_t u = 0;
  const bool is_unsigned = xk == 'u';
  std::memcpy(is_unsigned ? static_cast<void*>(&u) : static_cast<void*>(&s), x.value, 8);
  bool fits = visit_dtype(loop, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (is_unsigned) return u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
      if constexpr (std::is_unsigned_v<T>) {
        return s >= 0 && static_cast<std::uint64_t>(s) <= std::numeric_limits<T>::max();
      } else {
        return s >= std::numeric_limits<T>::min() && s <= std::numeric_limits<T>::max();
      }
    }
    return true;
  });
  if (!fits) {
    const std::string value = is_unsigned ? std::to_string(u) : std::to_string(s);
    throw Error(ErrorKind::overflow_error, std::string(fname) + ": Python integer " + value +
                                               " out of bounds for " + dtype_name(loop));
  }
}

DType result_dtype(const Operand* const* operands, int count) {
  std::vector<Typed> t(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) t[i] = Typed{operands[i]->view.dtype, operands[i]->weak};
  return promote_all(t.data(), count).dtype;
}

namespace {

struct Shape {
  int ndim = 0;
  std::int64_t dims[kMaxDims] = {};
};

bool broadcast_into(Shape& acc, const ArrayView& v) {
  const int nd = std::max(acc.ndim, v.ndim);
  Shape r;
  r.ndim = nd;
  for (int d = 0; d < nd; ++d) {
    const int da = d - (nd - acc.ndim), dv = d - (nd - v.ndim);
    const std::int64_t ea = da >= 0 ? acc.dims[da] : 1;
    const std::int64_t ev = dv >= 0 ? v.shape[dv] : 1;
    if (ea != ev && ea != 1 && ev != 1) return false;
    r.dims[d] = ea == 1 ? ev : ea;
  }
  acc = r;
  return true;
}

}  // namespace

// -----------------------------------------------------------------------------------------------

Stream stream_from_python(py::handle stream, const char* fname) {
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
  return foreign_stream(static_cast<std::uintptr_t>(h), fname, "stream");
}

DeviceRequest parse_device(py::handle device, py::handle dev_id, py::handle sync, const char* fname,
                           py::handle stream) {
  DeviceRequest r;
  if (!stream.is_none()) {
    r.has_stream = true;
    r.stream = stream_from_python(stream, fname);
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
      const std::string s = device.cast<std::string>();
      if (s == "cpu") {
        r.kind = DeviceRequest::Kind::cpu;
      } else if (s == "cuda") {
        r.kind = DeviceRequest::Kind::cuda;
      } else if (s.rfind("cuda:", 0) == 0 && s.size() > 5 &&
                 s.find_first_not_of("0123456789", 5) == std::string::npos) {
        r.kind = DeviceRequest::Kind::cuda;
        r.device = std::stoi(s.substr(5));
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

void copy_into(const ArrayView& dst, const ArrayView& src, Stream stream, const char* fname) {
  Exec ex;
  ex.gpu = true;
  ex.device = dst.device;
  ex.stream = stream;
  run_cast(ex, dst, src, fname);
}

namespace {

// Whether any element of an integer array is negative: the exponents of an integer power. The
// values are gathered as int64 on the backend and scanned on the host (on the GPU that is a
// synchronising round trip, paid only by integer power).
bool any_negative(const Exec& ex, Scratch& scratch, const ArrayView& v, const char* fname) {
  if (v.size() == 0) return false;
  const ArrayView dense = dense_view(scratch, ex, DType::int64, v.ndim, v.shape, &v);
  run_cast(ex, dense, v, fname);
  const std::size_t bytes = static_cast<std::size_t>(v.size()) * sizeof(std::int64_t);
  const std::int64_t* values = reinterpret_cast<const std::int64_t*>(dense.data);
  if (ex.gpu) {
    char* host = scratch.allocate_host(bytes);
    cuda::copy_async(host, dense.data, bytes, ex.stream);
    cuda::synchronize(ex.stream);
    values = reinterpret_cast<const std::int64_t*>(host);
  }
  return std::any_of(values, values + v.size(), [](std::int64_t e) { return e < 0; });
}

std::string shapes_str(const Operand* in, int nin) {
  std::string s;
  for (int i = 0; i < nin; ++i) {
    if (i > 0) s += " ";
    s += shape_str(in[i].view.shape, in[i].view.ndim);
  }
  return s;
}

std::string dtypes_str(const Operand* in, int nin) {
  std::string s;
  for (int i = 0; i < nin; ++i) {
    if (i > 0) s += ", ";
    s += dtype_name(in[i].view.dtype);
  }
  return s;
}

}  // namespace

py::object ufunc_call(Ufunc op, std::initializer_list<py::handle> inputs, py::handle out_obj,
                      const DeviceRequest& req, const OpParams& params) {
  const UfuncInfo info = ufunc_info(op);
  const std::string fname_str = std::string("numcu.") + info.name;
  const char* fname = fname_str.c_str();
  const int nin = static_cast<int>(inputs.size());
  if (nin != info.arity || nin < 1 || nin > 3) {
    throw_type_error(fname_str + ": takes " + std::to_string(info.arity) + " inputs, not " +
                     std::to_string(nin));
  }
  Operand in[3];
  for (int i = 0; i < nin; ++i) {
    in[i] = intake(inputs.begin()[i], fname);  // Operand's move keeps a scalar's view valid
  }
  const bool has_out = !out_obj.is_none();
  Operand out;
  if (has_out) out = intake(out_obj, fname, Role::output);

  // dtypes: promote the inputs (a condition stays apart), then the ufunc's loop for them.
  // Float functions map each input to its own loop first (NumPy's loop search); a Python
  // scalar among them stands for the dtype NEP 50 gives it against the others, so 2.5 with an
  // int8 array or 3 with a bool array runs on float64, as in NumPy, and 3 with int8 on float16.
  const int first = info.condition_first ? 1 : 0;
  Typed given[3], typed[3];
  for (int i = first; i < nin; ++i) given[i] = Typed{in[i].view.dtype, in[i].weak};
  const Typed nep50 = promote_all(given + first, nin - first);
  for (int i = first; i < nin; ++i) {
    typed[i] =
        !info.loop_per_input
            ? given[i]
            : Typed{ufunc_loop_dtype(op, in[i].weak ? nep50.dtype : in[i].view.dtype), nep50.weak};
  }
  const Typed promoted = promote_all(typed + first, nin - first);
  const DType loop = ufunc_loop_dtype(op, promoted.dtype);
  if (!ufunc_supports(op, loop)) {
    if (op == Ufunc::subtract && loop == DType::bool_) {
      throw_type_error(fname_str +
                       ": boolean subtract is not supported (dtype bool); use "
                       "numcu.logical_xor or the ^ operator instead");
    }
    throw_type_error(fname_str + ": no loop for dtype " + dtype_name(loop) +
                     " (inputs: " + dtypes_str(in, nin) + ")");
  }
  DType in_dtype[3];
  for (int i = 0; i < nin; ++i) {
    in_dtype[i] = i < first ? DType::bool_ : loop;
    if (i >= first) check_weak_int(in[i], loop, fname);
  }
  const DType out_dtype = ufunc_out_dtype(op, loop);
  if (has_out && !can_cast_same_kind(out_dtype, out.view.dtype)) {
    throw_type_error(fname_str + ": cannot cast the result from " + dtype_name(out_dtype) + " to " +
                     dtype_name(out.view.dtype) + " (casting='same_kind')");
  }

  // shape
  Shape shape;
  for (int i = 0; i < nin; ++i) {
    if (!broadcast_into(shape, in[i].view)) {
      throw_value_error(fname_str + ": operands could not be broadcast together with shapes " +
                        shapes_str(in, nin));
    }
  }
  if (has_out) {
    Shape with_out = shape;
    const bool ok = broadcast_into(with_out, out.view) && with_out.ndim == out.view.ndim &&
                    std::equal(out.view.shape, out.view.shape + out.view.ndim, with_out.dims);
    if (!ok) {
      throw_value_error(fname_str + ": out has shape " + shape_str(out.view.shape, out.view.ndim) +
                        " but the result has shape " + shape_str(shape.dims, shape.ndim));
    }
    shape = with_out;
  }
  // Two valid shapes can broadcast to one too big to exist: (2**40, 1) with (1, 2**40).
  checked::check_shape(fname, shape.dims, shape.ndim, out_dtype);

  // placement
  const Operand* all[4] = {nullptr, nullptr, nullptr, nullptr};
  for (int i = 0; i < nin; ++i) all[i] = &in[i];
  all[nin] = has_out ? &out : nullptr;
  const Exec ex = place(fname, all, nin + 1, req);
  if (ex.gpu) cuda::activate(ex.device);

  Scratch scratch;
  ArrayView views[4];
  bool is_scalar[4] = {false, false, false, false};
  alignas(16) unsigned char values[4][16] = {};
  const ArrayView* like = nullptr;
  bool device_input = false;
  for (int i = 0; i < nin; ++i) {
    const Operand& x = in[i];
    ArrayView& v = views[i + 1];
    device_input = device_input || x.kind == Operand::Kind::device;
    if (x.kind != Operand::Kind::device && x.view.ndim == 0) {
      // Host scalars travel by value as kernel arguments, converted here to the loop dtype.
      ArrayView dst;
      dst.dtype = in_dtype[i];
      dst.data = reinterpret_cast<char*>(values[i + 1]);
      v = dst;
      run_cast(Exec{}, dst, x.view, fname);
      is_scalar[i + 1] = true;
      continue;
    }
    v = x.view;
    if (ex.gpu && x.kind == Operand::Kind::host) v = upload(scratch, ex, v);
    if (x.has_producer_stream) cuda::stream_wait(ex.stream, x.producer_stream);
    if (v.dtype != in_dtype[i]) {
      const ArrayView cast = dense_view(scratch, ex, in_dtype[i], v.ndim, v.shape, &v);
      run_cast(ex, cast, v, fname);
      v = cast;
    }
    if (like == nullptr && v.ndim == shape.ndim) like = &v;
  }

  // NumPy refuses negative integer exponents rather than return garbage.
  if (op == Ufunc::power && dtype_kind(loop) == 'i') {
    const ArrayView& e = views[2];
    const bool negative = is_scalar[2] ? visit_dtype(loop,
                                                     [&](auto tag) {
                                                       using T = typename decltype(tag)::type;
                                                       if constexpr (std::is_integral_v<T>) {
                                                         T value;
                                                         std::memcpy(&value, values[2], sizeof(T));
                                                         return value < T(0);
                                                       }
                                                       return false;
                                                     })
                                       : any_negative(ex, scratch, e, fname);
    if (negative) {
      throw_value_error(fname_str + ": integers to negative integer powers are not allowed");
    }
  }

  // output
  ArrayView& res = views[0];
  py::object result;
  bool download = false;  // host result computed on the GPU
  ArrayView final_view;   // where the result finally goes, when res is scratch
  bool finish_cast = false;
  bool writes_out = false;  // the kernel writes the caller's `out` itself
  if (has_out) {
    result = py::reinterpret_borrow<py::object>(out_obj);
    final_view = out.view;
    if (out.has_producer_stream) cuda::stream_wait(ex.stream, out.producer_stream);
    const bool same_side = !ex.gpu || out.kind == Operand::Kind::device;
    if (same_side && out.view.dtype == out_dtype) {
      res = out.view;
      writes_out = true;
    } else {
      res = dense_view(scratch, ex, out_dtype, shape.ndim, shape.dims, &out.view);
      download = ex.gpu && out.kind == Operand::Kind::host;
      finish_cast = true;
    }
  } else if (ex.gpu && device_input) {
    NdArray a = NdArray::empty(out_dtype, shape.ndim, shape.dims, ex.device, ex.stream, like);
    res = a.view();
    result = py::cast(std::move(a));
  } else {
    std::int64_t strides[kMaxDims];
    dense_strides(out_dtype, shape.ndim, shape.dims, like, strides);
    result = numpy_empty(out_dtype, shape.ndim, shape.dims, strides);
    ArrayView host;
    host.dtype = out_dtype;
    host.ndim = shape.ndim;
    std::copy(shape.dims, shape.dims + shape.ndim, host.shape);
    std::copy(strides, strides + shape.ndim, host.strides);
    host.data = static_cast<char*>(py::array(result).mutable_data());
    final_view = host;
    if (ex.gpu) {
      res = dense_view(scratch, ex, out_dtype, shape.ndim, shape.dims, &host);
      download = true;
    } else {
      res = host;
    }
  }

  // An input that shares memory with the output it is written into, other than element for
  // element, is read whole first (scratch results and new arrays share memory with nothing).
  if (writes_out) {
    for (int i = 1; i <= nin; ++i) {
      if (!is_scalar[i]) views[i] = unaliased(scratch, ex, res, views[i], true, fname);
    }
  }

  // One plan type per operand count; the rest of the call is the same for all.
  auto run = [&](auto operands) {
    constexpr int N = decltype(operands)::value;
    const ArrayView* plan_views[N];
    const void* plan_values[N];
    for (int i = 0; i < N; ++i) {
      plan_views[i] = &views[i];
      plan_values[i] = values[i];
    }
    const ElementwisePlan<N> plan = make_plan<N>(plan_views, is_scalar, plan_values, fname);
    py::gil_scoped_release release;
    if (ex.gpu) {
      ufunc_cuda<N>(op, loop, plan, params, ex.stream);
    } else {
      ufunc_cpu<N>(op, loop, plan, params);
    }
  };
  if (nin == 1) {
    run(std::integral_constant<int, 2>{});
  } else if (nin == 2) {
    run(std::integral_constant<int, 3>{});
  } else {
    run(std::integral_constant<int, 4>{});
  }
  {
    py::gil_scoped_release release;
    if (download) {
      // The device result has the final view's layout when that is dense, so it comes down in
      // one copy; otherwise through a host buffer and a host-side cast.
      if (final_view.dtype == out_dtype && is_dense(final_view) &&
          std::equal(final_view.strides, final_view.strides + final_view.ndim, res.strides)) {
        const ByteSpan span = byte_span(final_view);
        cuda::copy_async(final_view.data + span.lo, res.data + byte_span(res).lo,
                         static_cast<std::size_t>(span.hi - span.lo), ex.stream);
        cuda::synchronize(ex.stream);
      } else {
        ArrayView staged = res;
        const ByteSpan span = byte_span(res);
        char* host = scratch.allocate_host(static_cast<std::size_t>(span.hi - span.lo));
        cuda::copy_async(host, res.data + span.lo, static_cast<std::size_t>(span.hi - span.lo),
                         ex.stream);
        cuda::synchronize(ex.stream);
        staged.data = host - span.lo;
        staged.device = kHost;
        run_cast(Exec{}, final_view, staged, fname);
      }
    } else if (finish_cast) {
      run_cast(ex, final_view, res, fname);
    }
    if (ex.gpu && req.sync) cuda::synchronize(ex.stream);
  }

  finish_streams(
      ex, all, nin + 1,
      py::isinstance<NdArray>(result) ? result.cast<const NdArray&>().allocation().get() : nullptr);
  // Like NumPy, a 0-d host result comes back as a NumPy scalar (where's as a 0-d array).
  if (!has_out && shape.ndim == 0 && op != Ufunc::where && !py::isinstance<NdArray>(result)) {
    return result[py::tuple()];
  }
  return result;
}

py::object astype(py::handle obj, py::handle dtype_obj) {
  const char* fname = "numcu.astype";
  Operand x = intake(obj, fname);
  const DType want = dtype_from_python(dtype_obj, fname);
  if (x.kind == Operand::Kind::device) {
    cuda::activate(x.view.device);
    const Stream stream = x.allocation ? x.allocation->stream() : cuda::current_stream();
    if (x.has_producer_stream) cuda::stream_wait(stream, x.producer_stream);
    NdArray a = NdArray::empty(want, x.view.ndim, x.view.shape, x.view.device, stream, &x.view);
    copy_into(a.view(), x.view, stream, fname);
    return py::cast(std::move(a));
  }
  // Host data is cast on the host: a cast is one pass over memory, cheaper than the trip to a
  // GPU and back.
  std::int64_t strides[kMaxDims];
  dense_strides(want, x.view.ndim, x.view.shape, &x.view, strides);
  py::object result = numpy_empty(want, x.view.ndim, x.view.shape, strides);
  ArrayView dst;
  dst.dtype = want;
  dst.ndim = x.view.ndim;
  std::copy(x.view.shape, x.view.shape + x.view.ndim, dst.shape);
  std::copy(strides, strides + x.view.ndim, dst.strides);
  dst.data = static_cast<char*>(py::array(result).mutable_data());
  {
    py::gil_scoped_release release;
    run_cast(Exec{}, dst, x.view, fname);
  }
  return result;
}

DType dtype_from_python(py::handle dtype, const char* fname) {
  py::object d = py::module_::import("numpy").attr("dtype")(dtype);
  const std::string kind = d.attr("kind").cast<std::string>();
  const int size = d.attr("itemsize").cast<int>();
  const std::string order = d.attr("byteorder").cast<std::string>();
  DType out;
  if (kind.size() != 1 || order == ">" || !dtype_from_kind(kind[0], size, &out)) {
    throw_type_error(std::string(fname) + ": unsupported dtype " + py::str(d).cast<std::string>());
  }
  return out;
}

}  // namespace numcu::python
