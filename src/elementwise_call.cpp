#include "elementwise_call.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include "execution.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

// ---------------------------------------------------------------------------------------------
// Plan: dtypes and shapes.

// NumPy 2's promotion with NEP 50: a Python scalar ("weak") takes the other operand's dtype
// when that dtype can hold its kind, so int8 + 3 stays int8 and float32 + 2.5 stays float32.
DType result_type(const Operand& a, const Operand& b) {
  if (a.weak == b.weak) return promote_types(a.view.dtype, b.view.dtype);
  const DType weak = a.weak ? a.view.dtype : b.view.dtype;
  const DType strong = a.weak ? b.view.dtype : a.view.dtype;
  const char wk = dtype_kind(weak), sk = dtype_kind(strong);
  const bool strong_integral = sk == 'b' || sk == 'i' || sk == 'u';
  if (wk == 'i' || wk == 'u') return sk == 'b' ? weak : strong;
  if (wk == 'f') return strong_integral ? DType::float64 : strong;
  // complex
  if (strong_integral) return DType::complex128;
  if (sk == 'f') return strong == DType::float64 ? DType::complex128 : DType::complex64;
  return strong;
}

// NumPy 2 refuses a Python integer that its integer result dtype cannot hold.
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

const char* binary_fname(BinaryOp op) {
  switch (op) {
    case BinaryOp::add:
      return "numcu.add";
    case BinaryOp::subtract:
      return "numcu.subtract";
    case BinaryOp::multiply:
      return "numcu.multiply";
    case BinaryOp::divide:
      return "numcu.divide";
    case BinaryOp::div_default:
      return "numcu.div";
  }
  return "numcu";
}

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
    throw_type_error(std::string(fname) + ": stream must be a CUDA stream (numcu.cuda.Stream, a "
                                          "CuPy or PyTorch stream, or an int handle), not " +
                     Py_TYPE(stream.ptr())->tp_name);
  }
  const unsigned long long h = handle.cast<unsigned long long>();
  if (h == 0 || h == 1) return nullptr;  // the legacy default stream
  if (h == 2) return reinterpret_cast<Stream>(static_cast<std::uintptr_t>(0x2));  // per-thread
  return reinterpret_cast<Stream>(static_cast<std::uintptr_t>(h));
}

DeviceRequest parse_device(py::handle device, py::handle dev_id, py::handle sync,
                           const char* fname, py::handle stream) {
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
    if (r.kind != DeviceRequest::Kind::automatic &&
        (r.kind != d.kind || r.device != d.device)) {
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

py::object binary_call(BinaryOp op, py::handle x1, py::handle x2, py::handle out_obj,
                       const DeviceRequest& req, const OpParams& params) {
  const char* fname = binary_fname(op);
  Operand in[2] = {intake(x1, fname), intake(x2, fname)};
  const bool has_out = !out_obj.is_none();
  Operand out;
  if (has_out) out = intake(out_obj, fname, Role::output);

  // dtypes
  const DType loop = binary_loop_dtype(op, result_type(in[0], in[1]));
  if (!binary_supports(op, loop)) {
    if (op == BinaryOp::subtract && loop == DType::bool_) {
      throw_type_error(std::string(fname) +
                       ": boolean subtract is not supported (dtype bool); use "
                       "numcu.logical_xor or the ^ operator instead");
    }
    throw_type_error(std::string(fname) + ": no loop for dtype " + dtype_name(loop));
  }
  for (const Operand& x : in) check_weak_int(x, loop, fname);
  if (has_out && !can_cast_same_kind(loop, out.view.dtype)) {
    throw_type_error(std::string(fname) + ": cannot cast the result from " + dtype_name(loop) +
                     " to " + dtype_name(out.view.dtype) + " (casting='same_kind')");
  }

  // shape
  Shape shape;
  for (const Operand& x : in) {
    if (!broadcast_into(shape, x.view)) {
      throw_value_error(std::string(fname) +
                        ": operands could not be broadcast together with shapes " +
                        shape_str(in[0].view.shape, in[0].view.ndim) + " " +
                        shape_str(in[1].view.shape, in[1].view.ndim));
    }
  }
  if (has_out) {
    Shape with_out = shape;
    const bool ok = broadcast_into(with_out, out.view) && with_out.ndim == out.view.ndim &&
                    std::equal(out.view.shape, out.view.shape + out.view.ndim, with_out.dims);
    if (!ok) {
      throw_value_error(std::string(fname) + ": out has shape " +
                        shape_str(out.view.shape, out.view.ndim) + " but the result has shape " +
                        shape_str(shape.dims, shape.ndim));
    }
    shape = with_out;
  }

  // placement
  const Operand* all[3] = {&in[0], &in[1], has_out ? &out : nullptr};
  const Exec ex = place(fname, all, 3, req);
  if (ex.gpu) cuda::activate(ex.device);

  Scratch scratch;
  ArrayView views[3];
  bool is_scalar[3] = {false, false, false};
  alignas(16) unsigned char values[3][16] = {};
  const ArrayView* like = nullptr;
  for (int i = 0; i < 2; ++i) {
    const Operand& x = in[i];
    ArrayView& v = views[i + 1];
    if (x.kind != Operand::Kind::device && x.view.ndim == 0) {
      // Host scalars travel by value as kernel arguments, converted here to the loop dtype.
      ArrayView dst;
      dst.dtype = loop;
      dst.data = reinterpret_cast<char*>(values[i + 1]);
      v = dst;
      run_cast(Exec{}, dst, x.view, fname);
      is_scalar[i + 1] = true;
      continue;
    }
    v = x.view;
    if (ex.gpu && x.kind == Operand::Kind::host) v = upload(scratch, ex, v);
    if (x.has_producer_stream) cuda::stream_wait(ex.stream, x.producer_stream);
    if (v.dtype != loop) {
      const ArrayView cast = dense_view(scratch, ex, loop, v.ndim, v.shape, &v);
      run_cast(ex, cast, v, fname);
      v = cast;
    }
    if (like == nullptr && v.ndim == shape.ndim) like = &v;
  }

  // output
  ArrayView& res = views[0];
  py::object result;
  bool download = false;  // host result computed on the GPU
  ArrayView final_view;   // where the result finally goes, when res is scratch
  bool finish_cast = false;
  if (has_out) {
    result = py::reinterpret_borrow<py::object>(out_obj);
    final_view = out.view;
    if (out.has_producer_stream) cuda::stream_wait(ex.stream, out.producer_stream);
    const bool same_side = !ex.gpu || out.kind == Operand::Kind::device;
    if (same_side && out.view.dtype == loop) {
      res = out.view;
    } else {
      res = dense_view(scratch, ex, loop, shape.ndim, shape.dims, &out.view);
      download = ex.gpu && out.kind == Operand::Kind::host;
      finish_cast = true;
    }
  } else if (ex.gpu && (in[0].kind == Operand::Kind::device || in[1].kind == Operand::Kind::device)) {
    NdArray a = NdArray::empty(loop, shape.ndim, shape.dims, ex.device, ex.stream, like);
    res = a.view();
    result = py::cast(std::move(a));
  } else {
    std::int64_t strides[kMaxDims];
    dense_strides(loop, shape.ndim, shape.dims, like, strides);
    result = numpy_empty(loop, shape.ndim, shape.dims, strides);
    ArrayView host;
    host.dtype = loop;
    host.ndim = shape.ndim;
    std::copy(shape.dims, shape.dims + shape.ndim, host.shape);
    std::copy(strides, strides + shape.ndim, host.strides);
    host.data = static_cast<char*>(py::array(result).mutable_data());
    final_view = host;
    if (ex.gpu) {
      res = dense_view(scratch, ex, loop, shape.ndim, shape.dims, &host);
      download = true;
    } else {
      res = host;
    }
  }

  const ArrayView* plan_views[3] = {&views[0], &views[1], &views[2]};
  const void* plan_values[3] = {values[0], values[1], values[2]};
  const ElementwisePlan<3> plan = make_plan<3>(plan_views, is_scalar, plan_values, fname);
  {
    py::gil_scoped_release release;
    if (ex.gpu) {
      binary_cuda(op, loop, plan, params, ex.stream);
    } else {
      binary_cpu(op, loop, plan, params);
    }
    if (download) {
      // The device result has the final view's layout when that is dense, so it comes down in
      // one copy; otherwise through a host buffer and a host-side cast.
      if (final_view.dtype == loop && is_dense(final_view) &&
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

  finish_streams(ex, all, 3,
                 py::isinstance<NdArray>(result) ? result.cast<const NdArray&>().allocation().get()
                                                 : nullptr);
  // Like NumPy, a 0-d host result comes back as a NumPy scalar.
  if (!has_out && shape.ndim == 0 && !py::isinstance<NdArray>(result)) {
    return result[py::tuple()];
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

py::object asarray(py::handle obj, py::handle dtype_obj) {
  const char* fname = "numcu.asarray";
  Operand x = intake(obj, fname);
  const DType want = dtype_obj.is_none() ? x.view.dtype : dtype_from_python(dtype_obj, fname);
  if (x.kind == Operand::Kind::device) {
    if (want == x.view.dtype) {
      if (py::isinstance<NdArray>(obj)) return py::reinterpret_borrow<py::object>(obj);
      cuda::activate(x.view.device);
      if (x.has_producer_stream) cuda::stream_wait(cuda::current_stream(), x.producer_stream);
      return py::cast(NdArray::wrap(x.view, x.keepalive));
    }
    cuda::activate(x.view.device);
    const Stream stream = x.allocation ? x.allocation->stream() : cuda::current_stream();
    if (x.has_producer_stream) cuda::stream_wait(stream, x.producer_stream);
    NdArray a = NdArray::empty(want, x.view.ndim, x.view.shape, x.view.device, stream, &x.view);
    copy_into(a.view(), x.view, stream, fname);
    return py::cast(std::move(a));
  }
  if (!cuda::is_available()) {
    throw Error(ErrorKind::cuda_unavailable,
                std::string(fname) + ": no CUDA device is available (" +
                    cuda::unavailable_reason() + ")");
  }
  Exec ex;
  ex.gpu = true;
  ex.device = cuda::current_device();
  ex.stream = cuda::current_stream();
  cuda::activate(ex.device);
  NdArray a = NdArray::empty(want, x.view.ndim, x.view.shape, ex.device, ex.stream);
  const std::size_t bytes = static_cast<std::size_t>(x.view.size()) * itemsize(want);
  if (want == x.view.dtype && x.view.is_c_contiguous()) {
    py::gil_scoped_release release;
    cuda::copy_async(a.view().data, x.view.data, bytes, ex.stream);
  } else {
    Scratch scratch;
    const ArrayView staged = upload(scratch, ex, x.view);
    copy_into(a.view(), staged, ex.stream, fname);
  }
  return py::cast(std::move(a));
}

}  // namespace numcu::python
