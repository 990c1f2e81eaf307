#include "transfer.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <memory>
#include <string>

#include "array_api.hpp"
#include "elementwise_call.hpp"
#include "execution.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

enum class CopyMode { if_needed, always, never };

CopyMode parse_copy(py::handle copy, const char* fname) {
  if (copy.is_none()) return CopyMode::if_needed;
  static PyObject* numpy_bool =
      py::object(py::module_::import("numpy").attr("bool_")).release().ptr();
  if (PyBool_Check(copy.ptr()) || PyObject_IsInstance(copy.ptr(), numpy_bool) == 1) {
    return PyObject_IsTrue(copy.ptr()) == 1 ? CopyMode::always : CopyMode::never;
  }
  throw_type_error(std::string(fname) + ": copy must be True, False or None, not " +
                   py::repr(copy).cast<std::string>());
}

[[noreturn]] void copy_refused(const char* fname, const std::string& why) {
  throw_value_error(std::string(fname) + ": " + why + ", but copy=False");
}

std::string conversion(DType from, DType to) {
  return std::string("converting ") + dtype_name(from) + " to " + dtype_name(to) + " needs a copy";
}

// A copy of device operand `x` as `dtype` on its own GPU (layout kept), queued on `stream`.
NdArray device_copy(const Operand& x, DType dtype, Stream stream, const char* fname) {
  DeviceRequest req;
  req.kind = DeviceRequest::Kind::cuda;
  req.device = x.view.device;
  req.has_stream = true;
  req.stream = stream;
  const Operand* operands[1] = {&x};
  const Exec ex = place(fname, operands, 1, req);
  cuda::activate(ex.device);
  if (x.has_producer_stream) cuda::stream_wait(ex.stream, x.producer_stream);
  NdArray a = NdArray::empty(dtype, x.view.ndim, x.view.shape, ex.device, ex.stream, &x.view);
  copy_into(a.view(), x.view, ex.stream, fname);
  finish_streams(ex, operands, 1, a.allocation().get());
  return a;
}

// Destroys an event numcu made for one call; CUDA keeps it until the work it marks is done.
struct EventDelete {
  void operator()(void* event) const { cuda::destroy_event(event); }
};
using OwnedEvent = std::unique_ptr<void, EventDelete>;

// A copy of device operand `x` as `dtype` on another GPU (ex.device), C-ordered: gathered on its
// own GPU, then copied across (peer to peer where the GPUs can, their pools then shared, and
// staged by CUDA otherwise). No host wait: the copy on ex.stream waits for the source's work
// through an event, and the source's stream waits for the copy before anything there may free
// or overwrite the source (a stream may wait for an event of another device).
NdArray copy_across(const Operand& x, DType dtype, const Exec& ex, const char* fname) {
  DeviceRequest req;
  req.kind = DeviceRequest::Kind::cuda;
  req.device = x.view.device;
  // The source side runs on the source array's own stream (the legacy stream for another
  // library's arrays): the thread's current stream may belong to the destination GPU.
  req.has_stream = true;
  req.stream = x.allocation ? x.allocation->stream() : nullptr;
  const Operand* operands[1] = {&x};
  const Exec src_ex = place(fname, operands, 1, req, false);
  cuda::activate(src_ex.device);
  if (x.has_producer_stream) cuda::stream_wait(src_ex.stream, x.producer_stream);
  Scratch scratch;
  ArrayView src = x.view;
  if (dtype != x.view.dtype || !x.view.is_c_contiguous()) {
    src = dense_view(scratch, src_ex, dtype, x.view.ndim, x.view.shape, nullptr);
    run_cast(src_ex, src, x.view, fname);
  }
  const OwnedEvent source_ready(cuda::create_event(false));
  cuda::record_event(source_ready.get(), src_ex.stream);

  cuda::activate(ex.device);
  NdArray a = NdArray::empty(dtype, x.view.ndim, x.view.shape, ex.device, ex.stream);
  cuda::wait_event(ex.stream, source_ready.get());
  cuda::copy_between_devices(a.view().data, ex.device, src.data, src_ex.device,
                             static_cast<std::size_t>(src.size()) * itemsize(dtype), ex.stream);
  const OwnedEvent copied(cuda::create_event(false));
  cuda::record_event(copied.get(), ex.stream);

  // Before `scratch` is released on the source's stream.
  cuda::activate(src_ex.device);
  cuda::wait_event(src_ex.stream, copied.get());
  finish_streams(src_ex, operands, 1, nullptr);
  return a;
}

// numcu.asarray(..., device='cpu'): a NumPy array.
py::object asarray_on_host(py::handle obj, const Operand& x, DType want, CopyMode copy,
                           py::handle stream, const char* fname) {
  const bool convert = want != x.view.dtype;
  if (x.kind == Operand::Kind::device) {
    if (!convert && copy != CopyMode::always && x.allocation && x.allocation->managed()) {
      // The host can address managed memory: a view, once the work queued on it is done.
      cuda::activate(x.view.device);
      {
        py::gil_scoped_release release;
        cuda::synchronize(x.allocation->stream());
      }
      return py::module_::import("numpy").attr("asarray")(obj);
    }
    if (copy == CopyMode::never) {
      copy_refused(fname, "the array is in GPU memory: it must be copied to the host");
    }
    if (!convert) return asnumpy(obj, py::none(), stream, true, fname);
    cuda::activate(x.view.device);
    const Stream s = stream.is_none() ? cuda::current_stream() : stream_from_python(stream, fname);
    py::object converted = py::cast(device_copy(x, want, s, fname));
    return asnumpy(converted, py::none(), stream, true, fname);
  }
  // Host data NumPy can view (the object itself exports a buffer) needs no copy.
  const bool viewable = x.kind == Operand::Kind::host && x.keepalive.ptr() == obj.ptr();
  if (!convert && copy != CopyMode::always && viewable) {
    return py::module_::import("numpy").attr("asarray")(obj);
  }
  if (copy == CopyMode::never) {
    copy_refused(fname, convert                           ? conversion(x.view.dtype, want)
                        : x.kind == Operand::Kind::scalar ? "a scalar must be copied into an array"
                                                          : "the input is not an array NumPy can "
                                                            "view: NumPy must copy it");
  }
  std::int64_t strides[kMaxDims];
  dense_strides(want, x.view.ndim, x.view.shape, &x.view, strides);
  py::object result = numpy_empty(want, x.view.ndim, x.view.shape, strides);
  ArrayView dst = x.view;
  dst.dtype = want;
  dst.readonly = false;
  std::copy(strides, strides + x.view.ndim, dst.strides);
  dst.data = static_cast<char*>(py::array(result).mutable_data());
  {
    py::gil_scoped_release release;
    run_cast(Exec{}, dst, x.view, fname);
  }
  return result;
}

// Whether a list or tuple holds a numcu device array at any depth: NumPy cannot read those, so
// numcu/_array_api.py stacks the items on their device instead.
bool holds_device_array(PyObject* seq, int depth) {
  if (depth > kMaxDims) return false;
  const bool is_list = PyList_Check(seq);
  const Py_ssize_t n = is_list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = is_list ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
    if (ndarray_of(item) != nullptr) return true;
    if ((PyList_Check(item) || PyTuple_Check(item)) && holds_device_array(item, depth + 1)) {
      return true;
    }
  }
  return false;
}

std::string out_layout_error(const char* fname) {
  return std::string(fname) +
         ": out must be contiguous (C-ordered, or any layout whose elements fill its memory)";
}

}  // namespace

py::object asarray(py::handle obj, py::handle dtype_obj, py::handle copy_obj, py::handle device_obj,
                   py::handle stream_obj) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  const char* fname = "numcu.asarray";
  const CopyMode copy = parse_copy(copy_obj, fname);
  const DeviceRequest req = parse_device(device_obj, py::none(), py::none(), fname, stream_obj);
  py::object source = py::reinterpret_borrow<py::object>(obj);
  const bool sequence = PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr());
  if (sequence && holds_device_array(obj.ptr(), 0)) {
    return composition(Composition::asarray_nested)(obj, dtype_obj, copy_obj, device_obj,
                                                    stream_obj);
  }
  if (!dtype_obj.is_none() && sequence) {
    // A list or tuple goes to NumPy with the dtype asked for: NumPy's own choice first would
    // take integers past int64's range through float64.
    source = py::module_::import("numpy").attr("asarray")(
        obj, numpy_dtype(dtype_from_python(dtype_obj, fname)));
  }
  Operand x = intake(source, fname);
  const DType want = dtype_obj.is_none() ? x.view.dtype : dtype_from_python(dtype_obj, fname);
  const bool convert = want != x.view.dtype;
  if (req.kind == DeviceRequest::Kind::cpu) {
    return asarray_on_host(obj, x, want, copy, stream_obj, fname);
  }
  const bool on_device = x.kind == Operand::Kind::device;
  const Exec ex = destination(fname, req, on_device ? x.view.device : kDefaultDevice);
  if (!ex.gpu) return asarray_on_host(obj, x, want, copy, stream_obj, fname);

  if (on_device && x.view.device == ex.device) {
    if (!convert && copy != CopyMode::always) {
      if (py::isinstance<NdArray>(obj)) return py::reinterpret_borrow<py::object>(obj);
      cuda::activate(ex.device);
      if (x.has_producer_stream) cuda::stream_wait(ex.stream, x.producer_stream);
      return py::cast(NdArray::wrap(x.view, x.keepalive));
    }
    if (copy == CopyMode::never) copy_refused(fname, conversion(x.view.dtype, want));
    return py::cast(device_copy(x, want, ex.stream, fname));
  }
  if (on_device) {
    if (copy == CopyMode::never) {
      copy_refused(fname, "the array is on " + device_str(x.view.device) + ": moving it to " +
                              device_str(ex.device) + " needs a copy");
    }
    return py::cast(copy_across(x, want, ex, fname));
  }

  // Host data. Managed memory (a NumPy view of a managed array) is the GPU's too: no copy.
  if (!convert && copy != CopyMode::always && x.kind == Operand::Kind::host &&
      x.view.data != nullptr && cuda::pointer_kind(x.view.data) == cuda::PointerKind::managed) {
    ArrayView v = x.view;
    v.device = ex.device;
    cuda::activate(ex.device);
    return py::cast(NdArray::wrap(v, x.keepalive));
  }
  if (copy == CopyMode::never) {
    copy_refused(fname, "host data must be copied to " + device_str(ex.device));
  }
  cuda::activate(ex.device);
  NdArray a = NdArray::empty(want, x.view.ndim, x.view.shape, ex.device, ex.stream);
  const std::size_t bytes = static_cast<std::size_t>(x.view.size()) * itemsize(want);
  if (!convert && x.view.is_c_contiguous()) {
    // Straight from the host memory: page-locked memory is copied by DMA without staging.
    py::gil_scoped_release release;
    cuda::copy_async(a.view().data, x.view.data, bytes, ex.stream);
  } else {
    Scratch scratch;
    const ArrayView staged = upload(scratch, ex, x.view);
    copy_into(a.view(), staged, ex.stream, fname);
  }
  finish_streams(ex, nullptr, 0, a.allocation().get());
  return py::cast(std::move(a));
}

py::object asnumpy(py::handle obj, py::handle out_obj, py::handle stream_obj, bool blocking,
                   const char* fname) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  DeviceRequest req = parse_device(py::none(), py::none(), py::none(), fname, stream_obj);
  Operand x = intake(obj, fname);
  const bool has_out = !out_obj.is_none();
  Operand out;
  if (has_out) {
    out = intake(out_obj, fname, Role::output);
    if (out.kind == Operand::Kind::device) {
      throw_type_error(std::string(fname) +
                       ": out must be a host array (NumPy or another buffer-protocol object), "
                       "not a device array");
    }
    if (out.view.dtype != x.view.dtype) {
      throw_type_error(std::string(fname) + ": out has dtype " + dtype_name(out.view.dtype) +
                       " but the array has dtype " + dtype_name(x.view.dtype));
    }
    if (out.view.ndim != x.view.ndim ||
        !std::equal(x.view.shape, x.view.shape + x.view.ndim, out.view.shape)) {
      throw_value_error(std::string(fname) + ": out has shape " +
                        shape_str(out.view.shape, out.view.ndim) + " but the array has shape " +
                        shape_str(x.view.shape, x.view.ndim));
    }
    if (!is_dense(out.view)) throw_value_error(out_layout_error(fname));
  }

  if (x.kind != Operand::Kind::device) {
    if (!has_out) return py::module_::import("numpy").attr("asarray")(obj);
    Scratch scratch;
    const ArrayView src = unaliased(scratch, Exec{}, out.view, x.view, true, fname);
    {
      py::gil_scoped_release release;
      run_cast(Exec{}, out.view, src, fname);
    }
    return py::reinterpret_borrow<py::object>(out_obj);
  }

  const Operand* operands[1] = {&x};
  const Exec ex = place(fname, operands, 1, req, false);
  cuda::activate(ex.device);
  if (x.has_producer_stream) cuda::stream_wait(ex.stream, x.producer_stream);
  py::object result;
  ArrayView dst;
  if (has_out) {
    result = py::reinterpret_borrow<py::object>(out_obj);
    dst = out.view;
  } else {
    dst = x.view;
    dst.readonly = false;
    dst.device = kHost;
    dense_strides(dst.dtype, dst.ndim, dst.shape, nullptr, dst.strides);
    result = numpy_empty(dst.dtype, dst.ndim, dst.shape, dst.strides);
    dst.data = static_cast<char*>(py::array(result).mutable_data());
  }
  Scratch scratch;
  if (x.view.size() > 0) {
    // The device side takes the host array's exact layout (gathered there when it differs),
    // so that one copy of the whole byte span moves it.
    const ByteSpan span = byte_span(dst);
    const std::size_t bytes = static_cast<std::size_t>(span.hi - span.lo);
    ArrayView src = x.view;
    // A managed array copied into a host view of its own memory goes through scratch too:
    // the copy engines do not order the bytes of overlapping ranges.
    const bool same_layout = std::equal(dst.strides, dst.strides + dst.ndim, src.strides) &&
                             is_dense(src) && overlap(dst, src) == Overlap::none;
    if (!same_layout) {
      ArrayView gathered = dst;
      gathered.device = ex.device;
      gathered.data = scratch.allocate(ex, bytes) - span.lo;
      run_cast(ex, gathered, x.view, fname);
      src = gathered;
    }
    py::gil_scoped_release release;
    cuda::copy_async(dst.data + span.lo, src.data + span.lo, bytes, ex.stream);
    if (blocking) cuda::synchronize(ex.stream);
  }
  finish_streams(ex, operands, 1, nullptr);
  return result;
}

void bind_transfer(py::module_& m) {
  m.def("asarray", &asarray, py::arg("obj"), py::arg("dtype") = py::none(),
        py::arg("copy") = py::none(), py::kw_only(), py::arg("device") = py::none(),
        py::arg("stream") = py::none(), R"doc(
`obj` as a numcu.ndarray on a GPU (or, with ``device='cpu'``, as a NumPy array).

Parameters
----------
obj : array_like
    Host data (NumPy and other buffer-protocol arrays, lists, Python and NumPy scalars) is
    copied to the GPU; device arrays (numcu.ndarray, any ``__cuda_array_interface__`` or
    ``__dlpack__`` object) are taken as they are, without a copy.
dtype : optional
    Convert to this dtype (a copy).
copy : {None, True, False}
    As in NumPy 2 and the array API: True always copies, False never does (ValueError where a
    copy is needed: host data to a GPU, a dtype conversion, another device), None copies only
    where needed. Host data in managed memory (a NumPy view of a ``memory='managed'`` array)
    needs no copy.
device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
    The GPU (by default the array's own, else the current one), or 'cpu' for a NumPy array
    (a view, after a wait, for managed memory).
stream : optional
    The CUDA stream copies are queued on; by default the current stream.
)doc");

  m.def(
      "asnumpy",
      [](py::handle a, py::handle out, py::handle stream, bool blocking) {
        return asnumpy(a, out, stream, blocking, "numcu.asnumpy");
      },
      py::arg("a"), py::arg("out") = py::none(), py::arg("stream") = py::none(),
      py::arg("blocking") = true, R"doc(
`a` as a NumPy array: a copy from the GPU for device arrays, ``numpy.asarray(a)`` for host data.

Parameters
----------
a : array_like
    A numcu.ndarray, any device array numcu takes, or host data.
out : numpy.ndarray, optional
    The host array to copy into (returned): the same shape and dtype as `a`, writable, and
    contiguous (C order, or any layout whose elements fill its memory, such as Fortran order).
    Page-locked memory (``memory='pinned'``) makes the copy a direct, asynchronous DMA.
stream : optional
    The CUDA stream the copy is queued on (after the work on `a`); by default the current one.
blocking : bool
    Wait for the copy (default). False returns once it is queued: synchronise the stream before
    reading `out` (a copy into pageable memory is complete on return regardless).
)doc");

  m.def(
      "from_dlpack",
      [](py::handle x) {
        if (!py::hasattr(x, "__dlpack__")) {
          throw py::type_error("numcu.from_dlpack: the object has no __dlpack__ method");
        }
        return asarray(x, py::none(), py::none(), py::none(), py::none());
      },
      py::arg("x"), R"doc(
A numcu.ndarray sharing `x`'s memory through DLPack (JAX, PyTorch, CuPy arrays on the GPU);
host data (a CPU tensor, a NumPy array) is copied to the current device.
)doc");

  py::module_ cuda_module = m.attr("cuda");
  cuda_module.def(
      "memory_kind",
      [](py::handle x) {
        const void* ptr = nullptr;
        if (PyLong_Check(x.ptr()) && !PyBool_Check(x.ptr())) {
          ptr = reinterpret_cast<const void*>(
              static_cast<std::uintptr_t>(x.cast<unsigned long long>()));
        } else {
          Operand op = intake(x, "numcu.cuda.memory_kind");
          if (op.kind == Operand::Kind::scalar) {
            throw_type_error("numcu.cuda.memory_kind: expected an array or an address, not " +
                             std::string(Py_TYPE(x.ptr())->tp_name));
          }
          ptr = op.view.data;
        }
        switch (cuda::pointer_kind(ptr)) {
          case cuda::PointerKind::pinned:
            return "pinned";
          case cuda::PointerKind::device:
            return "device";
          case cuda::PointerKind::managed:
            return "managed";
          case cuda::PointerKind::host:
            break;
        }
        return "host";
      },
      py::arg("x"), R"doc(
What CUDA knows of the memory of `x` (an array numcu takes, or an address as an int):
'host' (ordinary pageable host memory), 'pinned' (page-locked host memory, such as
``memory='pinned'`` arrays), 'device' or 'managed'. Without a GPU, everything is 'host'.
)doc");
}

}  // namespace numcu::python
