#include "dlpack.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "elementwise_call.hpp"
#include "numcu/checked.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

constexpr const char* kLegacyName = "dltensor";
constexpr const char* kVersionedName = "dltensor_versioned";

bool dtype_from_dl(const dl::DataType& t, DType* out) {
  if (t.lanes != 1) return false;
  switch (t.code) {
    case dl::kBool:
      return t.bits == 8 && dtype_from_kind('b', 1, out);
    case dl::kInt:
      return dtype_from_kind('i', t.bits / 8, out) && t.bits % 8 == 0;
    case dl::kUInt:
      return dtype_from_kind('u', t.bits / 8, out) && t.bits % 8 == 0;
    case dl::kFloat:
      return dtype_from_kind('f', t.bits / 8, out) && t.bits % 8 == 0;
    case dl::kComplex:
      return dtype_from_kind('c', t.bits / 8, out) && t.bits % 8 == 0;
    default:
      return false;
  }
}

dl::DataType dl_from_dtype(DType d) {
  dl::DataType t;
  switch (dtype_kind(d)) {
    case 'b':
      t.code = dl::kBool;
      break;
    case 'i':
      t.code = dl::kInt;
      break;
    case 'u':
      t.code = dl::kUInt;
      break;
    case 'f':
      t.code = dl::kFloat;
      break;
    default:
      t.code = dl::kComplex;
      break;
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
    if (m->version.major != 1) {
      throw_value_error(std::string(fname) + ": DLPack version " +
                        std::to_string(m->version.major) + "." + std::to_string(m->version.minor) +
                        " is not supported (1.x is)");
    }
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
  auto malformed = [&](const std::string& what) {
    throw_value_error(std::string(fname) + ": malformed DLPack tensor: " + what);
  };
  if (t->device.device_type != type || t->device.device_id != id) {
    malformed("its device (" + std::to_string(t->device.device_type) + ", " +
              std::to_string(t->device.device_id) + ") is not the one __dlpack_device__ gave (" +
              std::to_string(type) + ", " + std::to_string(id) + ")");
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
    v.device = id;
  } else {
    op.kind = Operand::Kind::host;
    v.device = kHost;
  }
  if (role == Role::output && v.readonly) {
    throw_value_error(std::string(fname) + ": out is read-only");
  }
  if (!on_gpu) align_host_elements(op, fname, role);
  return true;
}

namespace {

// What an exported tensor holds on to: the array (so its memory stays), and the shape and
// strides the DLTensor points at.
struct ExportContext {
  NdArray array;
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

}  // namespace

py::object export_dlpack(const NdArray& a, py::handle stream, py::handle max_version,
                         py::handle dl_device, py::handle copy) {
  const char* fname = "numcu.ndarray.__dlpack__";
  const ArrayView& v = a.view();
  if (!dl_device.is_none()) {
    const bool pair = PyTuple_Check(dl_device.ptr()) && PyTuple_GET_SIZE(dl_device.ptr()) == 2;
    const int type = pair ? small_index(PyTuple_GET_ITEM(dl_device.ptr(), 0)) : -1;
    const int id = pair ? small_index(PyTuple_GET_ITEM(dl_device.ptr(), 1)) : -1;
    if (type < 0 || id < 0) {
      throw_type_error(std::string(fname) + ": dl_device must be a (device type, device id) " +
                       "tuple of non-negative ints, not " +
                       py::repr(dl_device).cast<std::string>());
    }
    if (type != dl::kCUDA || id != v.device) {
      PyErr_SetString(PyExc_BufferError,
                      (std::string(fname) + ": numcu exports only to its own device (" +
                       std::to_string(dl::kCUDA) + ", " + std::to_string(v.device) + ")")
                          .c_str());
      throw py::error_already_set();
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
      const Stream consumer =
          h <= 2 ? reinterpret_cast<Stream>(h) : foreign_stream(h, fname, "stream");
      if (reinterpret_cast<Stream>(h == 1 ? 0 : h) != a.last_stream()) {
        cuda::activate(v.device);
        cuda::stream_wait(consumer, a.last_stream());
      }
    }
  }
  auto* ctx = new ExportContext();
  const bool copied = !copy.is_none() && PyObject_IsTrue(copy.ptr()) == 1;
  if (copied) {
    cuda::activate(v.device);
    ctx->array = NdArray::empty(v.dtype, v.ndim, v.shape, v.device, a.last_stream());
    copy_into(ctx->array.view(), v, a.last_stream(), fname);
  } else {
    ctx->array = a;
  }
  const ArrayView& e = ctx->array.view();
  const int size = itemsize(e.dtype);
  for (int d = 0; d < e.ndim; ++d) {
    ctx->shape[d] = e.shape[d];
    ctx->strides[d] = e.strides[d] / size;
  }
  dl::Tensor t;
  t.data = e.data;
  t.device = dl::Device{dl::kCUDA, e.device};
  t.ndim = e.ndim;
  t.dtype = dl_from_dtype(e.dtype);
  t.shape = ctx->shape;
  t.strides = ctx->strides;
  t.byte_offset = 0;
  PyObject* cap;
  if (versioned) {
    ctx->versioned.version = dl::PackVersion{1, 0};
    ctx->versioned.manager_ctx = ctx;
    ctx->versioned.deleter = [](dl::ManagedTensorVersioned* m) {
      release(static_cast<ExportContext*>(m->manager_ctx));
    };
    ctx->versioned.flags = (e.readonly ? dl::kFlagReadOnly : 0) | (copied ? dl::kFlagIsCopied : 0);
    ctx->versioned.dl_tensor = t;
    cap = PyCapsule_New(&ctx->versioned, kVersionedName, [](PyObject* c) {
      if (PyCapsule_IsValid(c, kVersionedName)) {
        auto* m = static_cast<dl::ManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersionedName));
        m->deleter(m);
      }
    });
  } else {
    ctx->legacy.manager_ctx = ctx;
    ctx->legacy.deleter = [](dl::ManagedTensor* m) {
      release(static_cast<ExportContext*>(m->manager_ctx));
    };
    ctx->legacy.dl_tensor = t;
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

}  // namespace numcu::python
