#include "dlpack.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "elementwise_call.hpp"
#include "fastcall.hpp"
#include "numcu/checked.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

constexpr const char* kLegacyName = "dltensor";
constexpr const char* kVersionedName = "dltensor_versioned";

// numcu's kind character of each DLPack type code (dl::kInt ... dl::kBool), 'B' for bfloat16's
// and 0 where numcu has no dtype of the code.
constexpr char kKindOfCode[] = {'i', 'u', 'f', 0, 'B', 'c', 'b'};
static_assert(dl::kInt == 0 && dl::kBfloat == 4 && dl::kBool == 6);

bool dtype_from_dl(const dl::DataType& t, DType* out) {
  if (t.lanes != 1 || t.code >= sizeof kKindOfCode || t.bits % 8 != 0) return false;
  const char kind = kKindOfCode[t.code];
  if (kind == 'B') {
    *out = DType::bfloat16;
    return t.bits == 16;
  }
  return kind != 0 && (kind != 'b' || t.bits == 8) && dtype_from_kind(kind, t.bits / 8, out);
}

dl::DataType dl_from_dtype(DType d) {
  const char kind = d == DType::bfloat16 ? 'B' : dtype_kind(d);
  dl::DataType t;
  for (std::uint8_t code = 0; code < sizeof kKindOfCode; ++code) {
    if (kKindOfCode[code] == kind) t.code = code;
  }
  t.bits = static_cast<std::uint8_t>(8 * itemsize(d));
  t.lanes = 1;
  return t;
}

std::string dl_type_text(const dl::DataType& t) {
  static const char* names[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  std::string s = t.code <= 6 ? names[t.code] + std::to_string(t.bits)
                              : "DLPack type code " + std::to_string(t.code) + " (" +
                                    std::to_string(t.bits) + " bits)";
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

// Calls the deleter of a consumed tensor when the last numcu view of it goes.
template <class Managed>
py::object owner_of(Managed* m) {
  return py::capsule(m, [](void* p) {
    auto* managed = static_cast<Managed*>(p);
    if (managed->deleter != nullptr) managed->deleter(managed);
  });
}

// A non-negative int that fits in an int (a device type or id, a version number), or -1.
int small_index(py::handle item) {
  if (!PyLong_Check(item.ptr()) || PyBool_Check(item.ptr())) return -1;
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(item.ptr(), &overflow);
  return overflow == 0 && value >= 0 && value <= 0x7fffffff ? static_cast<int>(value) : -1;
}

[[noreturn]] void version_unsupported(const char* fname, const dl::PackVersion& v) {
  throw_value_error(std::string(fname) + ": DLPack version " + std::to_string(v.major) + "." +
                    std::to_string(v.minor) + " is not supported (1.x is)");
}

// t's array into op.view and op.kind (op.view.readonly already holds the tensor's flag), with every
// check numcu makes of an array it did not allocate; ValueError/TypeError naming fname otherwise.
void take_tensor(const dl::Tensor& tensor, const char* fname, Role role, Operand& op) {
  const dl::Tensor* t = &tensor;
  const int type = t->device.device_type;
  const bool on_gpu = type == dl::kCUDA || type == dl::kCUDAManaged;
  if (!on_gpu && type != dl::kCPU && type != dl::kCUDAHost) {
    throw_value_error(std::string(fname) + ": DLPack device type " + std::to_string(type) +
                      " is neither the CPU nor CUDA");
  }
  auto malformed = [&](const std::string& what) {
    throw_value_error(std::string(fname) + ": malformed DLPack tensor: " + what);
  };
  if (on_gpu && t->device.device_id < 0) {
    malformed("device id " + std::to_string(t->device.device_id));
  }
  DType dtype;
  if (!dtype_from_dl(t->dtype, &dtype)) {
    throw_type_error(std::string(fname) + ": unsupported dtype " + dl_type_text(t->dtype));
  }
  if (t->ndim < 0 || t->ndim > kMaxDims) {
    throw_value_error(std::string(fname) + ": DLPack tensor with " + std::to_string(t->ndim) +
                      " dimensions");
  }
  if (t->ndim > 0 && t->shape == nullptr) malformed("null shape");
  ArrayView& v = op.view;
  v.dtype = dtype;
  v.ndim = t->ndim;
  std::copy(t->shape, t->shape + v.ndim, v.shape);
  if (checked::shape_status(v.shape, v.ndim, itemsize(dtype)) != checked::ShapeStatus::ok) {
    malformed(checked::shape_problem(v));
  }
  const int size = itemsize(dtype);
  if (t->strides == nullptr) {
    checked::c_strides(v);
  } else {
    for (int d = 0; d < v.ndim; ++d) {
      if (!checked::mul(t->strides[d], size, v.strides[d])) {
        malformed("strides (in elements) too large for 64-bit byte strides");
      }
    }
  }
  const auto base = reinterpret_cast<std::uintptr_t>(t->data);
  if (t->byte_offset > static_cast<std::uint64_t>(checked::kMaxBytes) ||
      base > UINTPTR_MAX - t->byte_offset) {
    malformed("byte_offset " + std::to_string(t->byte_offset) + " runs past the address space");
  }
  v.data = reinterpret_cast<char*>(base + t->byte_offset);
  // Kernels load typed elements from device memory: it must be aligned.
  if (!checked::view_fits(v, on_gpu)) malformed(checked::view_problem(v, on_gpu));
  if (t->data == nullptr && v.size() != 0) {
    throw_value_error(std::string(fname) + ": DLPack tensor has a null data pointer for " +
                      std::to_string(v.size()) + " elements");
  }
  if (on_gpu) {
    op.kind = Operand::Kind::device;
    v.device = t->device.device_id;
  } else {
    op.kind = Operand::Kind::host;
    v.device = kHost;
  }
  if (role == Role::output && v.readonly) {
    throw_value_error(std::string(fname) + ": out is read-only");
  }
  if (!on_gpu) align_host_elements(op, fname, role);
}

}  // namespace

bool intake_dlpack(py::handle obj, const char* fname, Role role, Operand& op) {
  if (!py::hasattr(obj, "__dlpack__") || !py::hasattr(obj, "__dlpack_device__")) return false;
  py::object where = obj.attr("__dlpack_device__")();
  // The specification's answer is a tuple (device type, device id) of ints, often IntEnums.
  const bool pair = PyTuple_Check(where.ptr()) && PyTuple_GET_SIZE(where.ptr()) == 2;
  const int type = pair ? small_index(PyTuple_GET_ITEM(where.ptr(), 0)) : -1;
  const int id = pair ? small_index(PyTuple_GET_ITEM(where.ptr(), 1)) : -1;
  if (type < 0 || id < 0) {
    throw_value_error(std::string(fname) + ": __dlpack_device__ returned " +
                      py::repr(where).cast<std::string>() +
                      ", not a (device type, device id) tuple of non-negative ints");
  }
  const bool on_gpu = type == dl::kCUDA || type == dl::kCUDAManaged;
  if (!on_gpu && type != dl::kCPU && type != dl::kCUDAHost) {
    throw_value_error(std::string(fname) + ": DLPack device type " + std::to_string(type) +
                      " is neither the CPU nor CUDA");
  }
  py::dict kwargs;
  // The producer orders its work before the stream numcu works on.
  if (on_gpu) {
    const Stream s = cuda::current_stream();
    kwargs["stream"] = s == nullptr ? py::int_(1) : py::int_(reinterpret_cast<std::uintptr_t>(s));
    // Work numcu queues on another stream (stream=) waits for this one.
    op.has_producer_stream = true;
    op.producer_stream = s;
  }
  kwargs["max_version"] = py::make_tuple(1, 1);
  py::object capsule;
  try {
    capsule = obj.attr("__dlpack__")(**kwargs);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    kwargs.attr("pop")("max_version");  // a producer older than DLPack 1.0
    capsule = obj.attr("__dlpack__")(**kwargs);
  }
  PyObject* cap = capsule.ptr();
  const dl::Tensor* t = nullptr;
  if (PyCapsule_IsValid(cap, kVersionedName)) {
    auto* m = static_cast<dl::ManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersionedName));
    PyCapsule_SetName(cap, "used_dltensor_versioned");
    op.keepalive = owner_of(m);
    if (m->version.major != 1) version_unsupported(fname, m->version);
    op.view.readonly = (m->flags & dl::kFlagReadOnly) != 0;
    t = &m->dl_tensor;
  } else if (PyCapsule_IsValid(cap, kLegacyName)) {
    auto* m = static_cast<dl::ManagedTensor*>(PyCapsule_GetPointer(cap, kLegacyName));
    PyCapsule_SetName(cap, "used_dltensor");
    op.keepalive = owner_of(m);
    t = &m->dl_tensor;
  } else {
    throw_value_error(std::string(fname) +
                      ": __dlpack__ did not return a 'dltensor' or 'dltensor_versioned' capsule");
  }
  if (t->device.device_type != type || t->device.device_id != id) {
    throw_value_error(std::string(fname) + ": malformed DLPack tensor: its device (" +
                      std::to_string(t->device.device_type) + ", " +
                      std::to_string(t->device.device_id) +
                      ") is not the one __dlpack_device__ gave (" + std::to_string(type) + ", " +
                      std::to_string(id) + ")");
  }
  take_tensor(*t, fname, role, op);
  return true;
}

namespace {

// What an exported tensor holds on to: the array (so its memory stays) or, for an export to the
// host, the host copy; and the shape and strides the DLTensor points at.
struct ExportContext {
  NdArray array;
  std::unique_ptr<char[]> host;
  std::int64_t shape[kMaxDims];
  std::int64_t strides[kMaxDims];
  dl::ManagedTensor legacy;
  dl::ManagedTensorVersioned versioned;
};

void release(ExportContext* ctx) {
  // Consumers may call the deleter from any thread; the array may hold a Python owner.
  if (!Py_IsInitialized()) return;
  PyGILState_STATE state = PyGILState_Ensure();
  delete ctx;
  PyGILState_Release(state);
}

[[noreturn]] void buffer_error(const char* fname, const std::string& what) {
  PyErr_SetString(PyExc_BufferError, (std::string(fname) + ": " + what).c_str());
  throw py::error_already_set();
}

// The DLTensor describing `e` on `device` (strides in elements), pointing at `shape` and
// `strides`; a BufferError naming fname when a stride is not a whole number of elements, which
// DLPack cannot describe.
dl::Tensor describe(const ArrayView& e, dl::Device device, const std::int64_t* shape,
                    std::int64_t* strides, const char* fname) {
  const int size = itemsize(e.dtype);
  for (int d = 0; d < e.ndim; ++d) {
    if (e.strides[d] % size != 0) {
      buffer_error(fname, "strides " + shape_str(e.strides, e.ndim) + " are not whole numbers of " +
                              std::to_string(size) +
                              "-byte elements, which DLPack cannot describe");
    }
    strides[d] = e.strides[d] / size;
  }
  dl::Tensor t;
  t.data = e.data;
  t.device = device;
  t.ndim = e.ndim;
  t.dtype = dl_from_dtype(e.dtype);
  t.shape = const_cast<std::int64_t*>(shape);
  t.strides = strides;
  t.byte_offset = 0;
  return t;
}

// Fills in both the versioned and the legacy struct of `ctx` for `e` (which ctx keeps alive) on
// `device`, deleting the context when called; `copied`: the data is a copy made for the consumer.
ExportContext* finish_export(std::unique_ptr<ExportContext> ctx, const ArrayView& e,
                             dl::Device device, bool copied, const char* fname) {
  std::copy(e.shape, e.shape + e.ndim, ctx->shape);
  const dl::Tensor t = describe(e, device, ctx->shape, ctx->strides, fname);
  ctx->versioned.version = dl::PackVersion{1, 0};
  ctx->versioned.manager_ctx = ctx.get();
  ctx->versioned.deleter = [](dl::ManagedTensorVersioned* m) {
    release(static_cast<ExportContext*>(m->manager_ctx));
  };
  ctx->versioned.flags = (e.readonly ? dl::kFlagReadOnly : 0) | (copied ? dl::kFlagIsCopied : 0);
  ctx->versioned.dl_tensor = t;
  ctx->legacy.manager_ctx = ctx.get();
  ctx->legacy.deleter = [](dl::ManagedTensor* m) {
    release(static_cast<ExportContext*>(m->manager_ctx));
  };
  ctx->legacy.dl_tensor = t;
  return ctx.release();
}

// An export of `array` on its GPU; `copied`: the array is a copy made for the consumer.
ExportContext* new_export(NdArray array, bool copied, const char* fname) {
  auto ctx = std::make_unique<ExportContext>();
  ctx->array = std::move(array);
  const ArrayView e = ctx->array.view();
  return finish_export(std::move(ctx), e, dl::Device{dl::kCUDA, e.device}, copied, fname);
}

// An export of `a`'s values to the host (dl_device=(kDLCPU, 0)): a C-ordered copy in host memory,
// queued on the array's own stream (gathered there first when the array is not C-ordered), which
// the host then waits for: the consumer reads the memory as soon as it has the capsule.
ExportContext* new_host_export(const NdArray& a, const char* fname) {
  const ArrayView& v = a.view();
  auto ctx = std::make_unique<ExportContext>();
  const std::size_t bytes = static_cast<std::size_t>(v.size()) * itemsize(v.dtype);
  ctx->host.reset(new char[std::max<std::size_t>(bytes, 1)]);
  ArrayView h = v;
  h.data = ctx->host.get();
  h.device = kHost;
  h.readonly = false;
  checked::c_strides(h);
  if (bytes > 0) {
    cuda::DeviceRestore restore;  // see runtime.hpp
    cuda::activate(v.device);
    const Stream s = a.last_stream();
    NdArray dense;
    const char* src = v.data;
    if (!v.is_c_contiguous()) {
      dense = NdArray::empty(v.dtype, v.ndim, v.shape, v.device, s);
      copy_into(dense.view(), v, s, fname);
      src = dense.view().data;
    }
    py::gil_scoped_release release;
    cuda::copy_async(h.data, src, bytes, s);
    cuda::synchronize(s);
  }
  return finish_export(std::move(ctx), h, dl::Device{dl::kCPU, 0}, true, fname);
}

// An export of `a` on its GPU (a copy there when `copy`), ordered before the consumer's `stream`.
ExportContext* device_export(const NdArray& a, py::handle stream, bool versioned, bool copy,
                             const char* fname) {
  const ArrayView& v = a.view();
  if (!versioned && v.readonly) {
    PyErr_SetString(PyExc_BufferError,
                    (std::string(fname) + ": a read-only array needs DLPack 1.0 or later "
                                          "(pass max_version=(1, 0))")
                        .c_str());
    throw py::error_already_set();
  }
  // Order numcu's work (on the legacy default stream) before the consumer's stream.
  if (!stream.is_none()) {
    // The consumer's stream: -1 (no ordering), 1 (legacy default), 2 (per-thread default) or
    // a handle, which is checked before CUDA dereferences it.
    if (!PyLong_Check(stream.ptr()) || PyBool_Check(stream.ptr())) {
      throw_type_error(std::string(fname) + ": stream must be None or an int, not " +
                       Py_TYPE(stream.ptr())->tp_name);
    }
    auto bad = [&] {
      throw_value_error(std::string(fname) + ": stream " + py::repr(stream).cast<std::string>() +
                        " is not a CUDA stream (-1, 1, 2 or a handle)");
    };
    int overflow = 0;
    const long long s = PyLong_AsLongLongAndOverflow(stream.ptr(), &overflow);
    std::uintptr_t h = static_cast<std::uintptr_t>(s);
    if (overflow > 0) {
      h = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLong(stream.ptr()));
      if (PyErr_Occurred()) {
        PyErr_Clear();
        bad();
      }
    } else if (overflow < 0 || s < -1) {
      bad();
    } else if (s == 0) {
      throw_value_error(std::string(fname) +
                        ": stream=0 is ambiguous for CUDA; use 1 (legacy "
                        "default), 2 (per-thread default) or a handle");
    }
    if (overflow > 0 || s != -1) {
      const Stream consumer = h <= 2 ? reinterpret_cast<Stream>(h)
                                     : foreign_stream(h, fname, "stream", StreamFrom::vouched);
      if (reinterpret_cast<Stream>(h == 1 ? 0 : h) != a.last_stream()) {
        cuda::activate(v.device);
        cuda::stream_wait(consumer, a.last_stream());
      }
    }
  }
  if (copy) {
    cuda::activate(v.device);
    NdArray copied = NdArray::empty(v.dtype, v.ndim, v.shape, v.device, a.last_stream());
    copy_into(copied.view(), v, a.last_stream(), fname);
    return new_export(std::move(copied), true, fname);
  }
  return new_export(a, false, fname);
}

// The capsule handing `ctx`'s tensor over: versioned (DLPack 1.x) or legacy.
py::object capsule_of(ExportContext* ctx, bool versioned) {
  PyObject* cap;
  if (versioned) {
    cap = PyCapsule_New(&ctx->versioned, kVersionedName, [](PyObject* c) {
      if (PyCapsule_IsValid(c, kVersionedName)) {
        auto* m = static_cast<dl::ManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersionedName));
        m->deleter(m);
      }
    });
  } else {
    cap = PyCapsule_New(&ctx->legacy, kLegacyName, [](PyObject* c) {
      if (PyCapsule_IsValid(c, kLegacyName)) {
        auto* m = static_cast<dl::ManagedTensor*>(PyCapsule_GetPointer(c, kLegacyName));
        m->deleter(m);
      }
    });
  }
  if (cap == nullptr) {
    delete ctx;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(cap);
}
}  // namespace

py::object export_dlpack(const NdArray& a, py::handle stream, py::handle max_version,
                         py::handle dl_device, py::handle copy) {
  const char* fname = "numcu.ndarray.__dlpack__";
  const ArrayView& v = a.view();
  bool to_host = false;
  if (!dl_device.is_none()) {
    const bool pair = PyTuple_Check(dl_device.ptr()) && PyTuple_GET_SIZE(dl_device.ptr()) == 2;
    const int type = pair ? small_index(PyTuple_GET_ITEM(dl_device.ptr(), 0)) : -1;
    const int id = pair ? small_index(PyTuple_GET_ITEM(dl_device.ptr(), 1)) : -1;
    if (type < 0 || id < 0) {
      throw_type_error(std::string(fname) + ": dl_device must be a (device type, device id) " +
                       "tuple of non-negative ints, not " +
                       py::repr(dl_device).cast<std::string>());
    }
    to_host = type == dl::kCPU && id == 0;
    if (!to_host && (type != dl::kCUDA || id != v.device)) {
      buffer_error(fname, "numcu exports to its own device (" + std::to_string(dl::kCUDA) + ", " +
                              std::to_string(v.device) + ") or to the CPU (" +
                              std::to_string(dl::kCPU) + ", 0), not (" + std::to_string(type) +
                              ", " + std::to_string(id) + ")");
    }
  }
  bool versioned = false;
  if (!max_version.is_none()) {
    const bool pair = PyTuple_Check(max_version.ptr()) && PyTuple_GET_SIZE(max_version.ptr()) == 2;
    const int major = pair ? small_index(PyTuple_GET_ITEM(max_version.ptr(), 0)) : -1;
    if (major < 0 || small_index(PyTuple_GET_ITEM(max_version.ptr(), 1)) < 0) {
      throw_type_error(std::string(fname) + ": max_version must be a (major, minor) tuple of " +
                       "non-negative ints, not " + py::repr(max_version).cast<std::string>());
    }
    versioned = major >= 1;
  }
  const bool copy_given = !copy.is_none();
  const int copy_flag = copy_given ? PyObject_IsTrue(copy.ptr()) : 0;
  if (copy_flag < 0) throw py::error_already_set();
  ExportContext* ctx;
  if (to_host) {
    // The consumer reads host memory, which the copy is complete in: no stream to order.
    if (!stream.is_none()) {
      throw_value_error(std::string(fname) + ": stream must be None when dl_device is the CPU " +
                        "(the copy to the host is complete on return), not " +
                        py::repr(stream).cast<std::string>());
    }
    if (copy_given && copy_flag == 0) {
      buffer_error(fname,
                   "the array is in GPU memory: exporting it to the CPU needs a copy, "
                   "but copy=False");
    }
    ctx = new_host_export(a, fname);
  } else {
    ctx = device_export(a, stream, versioned, copy_flag == 1, fname);
  }
  return capsule_of(ctx, versioned);
}

// ---------------------------------------------------------------------------------------------
// The C exchange API: numcu as a consumer of other producers' tables, and its own table.

namespace {

// The oldest table layout numcu reads: the exchange table first appeared in DLPack 1.2, with the
// layout 1.3 keeps (1.3 moved it into the capsule numcu looks for).
constexpr std::uint32_t kOldestExchangeMinor = 2;
// How far numcu follows a table's chain of older versions.
constexpr int kMaxExchangeChain = 8;

}  // namespace

const dl::ExchangeAPI* usable_exchange_api(PyObject* capsule) {
  if (capsule == nullptr || !PyCapsule_IsValid(capsule, dl::kExchangeCapsuleName)) return nullptr;
  auto* header = static_cast<const dl::ExchangeAPIHeader*>(
      PyCapsule_GetPointer(capsule, dl::kExchangeCapsuleName));
  // Only the header is common to every major version: a table of another major version is
  // read no further than its version and its link to an older table.
  for (int k = 0; header != nullptr && header->version.major != 1; ++k) {
    header = k < kMaxExchangeChain ? header->prev_api : nullptr;
  }
  if (header == nullptr || header->version.minor < kOldestExchangeMinor) return nullptr;
  const auto* api = reinterpret_cast<const dl::ExchangeAPI*>(header);
  if (api->managed_tensor_from_py_object_no_sync == nullptr ||
      api->current_work_stream == nullptr) {
    return nullptr;
  }
  return api;
}

bool intake_exchange(const dl::ExchangeAPI* api, py::handle obj, const char* fname, Role role,
                     Operand& op, IntakeMemo* memo) {
  dl::Tensor view;
  const dl::Tensor* t = &view;
  if (api->dltensor_from_py_object_no_sync != nullptr) {
    if (api->dltensor_from_py_object_no_sync(obj.ptr(), &view) != 0) {
      PyErr_Clear();
      return false;
    }
    // The view's data lives as long as the object, which the operand holds for the call; its
    // shape and strides are copied below.
    op.keepalive = py::reinterpret_borrow<py::object>(obj);
  } else {
    dl::ManagedTensorVersioned* m = nullptr;
    if (api->managed_tensor_from_py_object_no_sync(obj.ptr(), &m) != 0 || m == nullptr) {
      PyErr_Clear();
      return false;
    }
    op.keepalive = owner_of(m);
    if (m->version.major != 1) version_unsupported(fname, m->version);
    op.view.readonly = (m->flags & dl::kFlagReadOnly) != 0;
    t = &m->dl_tensor;
  }
  take_tensor(*t, fname, role, op);
  if (op.kind == Operand::Kind::device) {
    const std::int32_t type = t->device.device_type, id = t->device.device_id;
    void* current = nullptr;
    if (memo != nullptr && memo->exchange_api == api && memo->exchange_device_type == type &&
        memo->exchange_device_id == id) {
      current = memo->exchange_stream;
    } else {
      if (api->current_work_stream(type, id, &current) != 0) {
        if (PyErr_Occurred()) throw py::error_already_set();
        throw_value_error(std::string(fname) +
                          ": the DLPack producer's current_work_stream failed for device " +
                          std::to_string(id));
      }
      if (memo != nullptr) {
        memo->exchange_api = api;
        memo->exchange_device_type = type;
        memo->exchange_device_id = id;
        memo->exchange_stream = current;
      }
    }
    // The producer's data is ready on its current stream: the work joins it (a no-op when numcu
    // queues on that stream too). 0 and 1 both name the legacy default stream.
    const auto h = reinterpret_cast<std::uintptr_t>(current);
    op.has_producer_stream = true;
    op.producer_stream = h <= 1   ? nullptr
                         : h == 2 ? current
                                  : foreign_stream(h, fname, "the DLPack producer's current stream",
                                                   StreamFrom::vouched);
  }
  return true;
}

namespace {

constexpr const char* kExchangeName = "numcu.ndarray.__dlpack_c_exchange_api__";

ExchangeCounts g_exchange_counts;

// Runs body, turning a C++ exception into a Python error and -1: the table is called from C.
template <class Body>
int exchange_call(Body&& body) noexcept {
  return python_errors(body) ? 0 : -1;
}

[[noreturn]] void buffer_error(const std::string& what) {
  PyErr_SetString(PyExc_BufferError, (std::string(kExchangeName) + ": " + what).c_str());
  throw py::error_already_set();
}

const NdArray& exchanged_array(void* py_object, const char* function) {
  py::handle obj(static_cast<PyObject*>(py_object));
  const NdArray* a = obj ? ndarray_of(obj) : nullptr;
  if (a == nullptr) {
    throw_type_error(std::string(kExchangeName) + ": " + function + " takes a numcu.ndarray, not " +
                     (obj ? Py_TYPE(obj.ptr())->tp_name : "NULL"));
  }
  return *a;
}

int exchange_view(void* py_object, dl::Tensor* out) {
  return exchange_call([&] {
    const NdArray& a = exchanged_array(py_object, "dltensor_from_py_object_no_sync");
    const ArrayView& v = a.view();
    // A view carries no read-only flag: read-only arrays cross only in owning exports.
    if (v.readonly) {
      buffer_error("a read-only array has no non-owning view (its owning export says read-only)");
    }
    std::int64_t* strides = a.element_strides();
    if (strides == nullptr) {
      buffer_error("strides " + shape_str(v.strides, v.ndim) + " are not whole numbers of " +
                   std::to_string(itemsize(v.dtype)) + "-byte elements");
    }
    out->data = v.data;
    out->device = dl::Device{dl::kCUDA, v.device};
    out->ndim = v.ndim;
    out->dtype = dl_from_dtype(v.dtype);
    out->shape = const_cast<std::int64_t*>(v.shape);
    out->strides = strides;
    out->byte_offset = 0;
    ++g_exchange_counts.views;
  });
}

int exchange_export(void* py_object, dl::ManagedTensorVersioned** out) {
  return exchange_call([&] {
    const NdArray& a = exchanged_array(py_object, "managed_tensor_from_py_object_no_sync");
    *out = &new_export(a, false, kExchangeName)->versioned;
    ++g_exchange_counts.exports;
  });
}

int exchange_import(dl::ManagedTensorVersioned* tensor, void** out_py_object) {
  return exchange_call([&] {
    if (tensor == nullptr) throw_value_error(std::string(kExchangeName) + ": a null tensor");
    // numcu owns the tensor from here, whatever happens: the owner calls its deleter.
    py::object owner = owner_of(tensor);
    if (tensor->version.major != 1) version_unsupported(kExchangeName, tensor->version);
    const int type = tensor->dl_tensor.device.device_type;
    if (type != dl::kCUDA && type != dl::kCUDAManaged) {
      buffer_error("a numcu.ndarray holds CUDA memory, not memory of DLPack device type " +
                   std::to_string(type));
    }
    Operand op;
    op.view.readonly = (tensor->flags & dl::kFlagReadOnly) != 0;
    take_tensor(tensor->dl_tensor, kExchangeName, Role::input, op);
    py::object array = py::cast(NdArray::wrap(op.view, std::move(owner)));
    *out_py_object = array.release().ptr();
    ++g_exchange_counts.imports;
  });
}

const char* error_kind_name(ErrorKind kind) {
  // By ErrorKind: the Python exception each becomes (numcu.cuda's errors are RuntimeError and
  // MemoryError subclasses).
  static constexpr const char* kNames[] = {"TypeError",    "ValueError",  "OverflowError",
                                           "RuntimeError", "MemoryError", "RuntimeError"};
  return kNames[static_cast<int>(kind)];
}

int exchange_allocate(dl::Tensor* prototype, dl::ManagedTensorVersioned** out, void* error_ctx,
                      void (*set_error)(void* error_ctx, const char* kind, const char* message)) {
  // The caller may not hold the GIL; numcu's stream bookkeeping needs it.
  const PyGILState_STATE gil = PyGILState_Ensure();
  int status = -1;
  try {
    const std::string fname = std::string(kExchangeName) + " managed_tensor_allocator";
    if (prototype == nullptr || out == nullptr) {
      throw_value_error(fname + ": a null prototype or output");
    }
    if (prototype->device.device_type != dl::kCUDA) {
      throw_value_error(fname + ": numcu allocates CUDA memory, not memory of DLPack device type " +
                        std::to_string(prototype->device.device_type));
    }
    DType dtype;
    if (!dtype_from_dl(prototype->dtype, &dtype)) {
      throw_type_error(fname + ": unsupported dtype " + dl_type_text(prototype->dtype));
    }
    if (prototype->ndim < 0 || prototype->ndim > kMaxDims ||
        (prototype->ndim > 0 && prototype->shape == nullptr)) {
      throw_value_error(fname + ": a shape of " + std::to_string(prototype->ndim) + " dimensions" +
                        (prototype->shape == nullptr ? " (null)" : ""));
    }
    checked::check_shape(fname.c_str(), prototype->shape, prototype->ndim, dtype);
    const int device = prototype->device.device_id;
    cuda::activate(device);
    NdArray a =
        NdArray::empty(dtype, prototype->ndim, prototype->shape, device, cuda::current_stream());
    *out = &new_export(std::move(a), false, fname.c_str())->versioned;
    ++g_exchange_counts.allocations;
    status = 0;
  } catch (py::error_already_set& e) {
    set_error(error_ctx, "RuntimeError", e.what());
  } catch (const Error& e) {
    set_error(error_ctx, error_kind_name(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    set_error(error_ctx, "MemoryError", "numcu: out of host memory");
  } catch (const std::exception& e) {
    set_error(error_ctx, "RuntimeError", e.what());
  }
  PyGILState_Release(gil);
  return status;
}

int exchange_stream(std::int32_t device_type, std::int32_t /*device_id*/, void** out_stream) {
  if (out_stream == nullptr) {
    PyErr_SetString(PyExc_ValueError,
                    (std::string(kExchangeName) + ": current_work_stream needs an output").c_str());
    return -1;
  }
  // The stream numcu queues on in this thread; numcu has no per-device streams.
  const bool cuda = device_type == dl::kCUDA || device_type == dl::kCUDAManaged;
  *out_stream = cuda ? cuda::current_stream() : nullptr;
  return 0;
}

// numcu publishes the table of DLPack 1.3.
dl::ExchangeAPI g_exchange_api = {
    {{1, 3}, nullptr}, exchange_allocate, exchange_export,
    exchange_import,   exchange_view,     exchange_stream,
};

}  // namespace

py::object exchange_api_capsule() {
  return py::reinterpret_steal<py::object>(
      PyCapsule_New(&g_exchange_api, dl::kExchangeCapsuleName, nullptr));
}

const ExchangeCounts& exchange_counts() { return g_exchange_counts; }

}  // namespace numcu::python
