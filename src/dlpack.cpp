#include "dlpack.hpp"

#include <string>

#include "elementwise_call.hpp"
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
  const std::string base = t.code <= 6 ? names[t.code] : "code " + std::to_string(t.code);
  std::string s = base + std::to_string(t.bits);
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

}  // namespace

bool intake_dlpack(py::handle obj, const char* fname, Role role, Operand& op) {
  if (!py::hasattr(obj, "__dlpack__") || !py::hasattr(obj, "__dlpack_device__")) return false;
  py::tuple where = obj.attr("__dlpack_device__")();
  const int type = where[0].cast<int>();
  const int id = where[1].cast<int>();
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
  DType dtype;
  if (!dtype_from_dl(t->dtype, &dtype)) {
    throw_type_error(std::string(fname) + ": unsupported dtype " + dl_type_text(t->dtype));
  }
  if (t->ndim < 0 || t->ndim > kMaxDims) {
    throw_value_error(std::string(fname) + ": DLPack tensor with " + std::to_string(t->ndim) +
                      " dimensions");
  }
  ArrayView& v = op.view;
  v.dtype = dtype;
  v.ndim = t->ndim;
  v.data = static_cast<char*>(t->data) + t->byte_offset;
  const int size = itemsize(dtype);
  std::int64_t contiguous = size;
  for (int d = v.ndim - 1; d >= 0; --d) {
    v.shape[d] = t->shape[d];
    v.strides[d] = t->strides != nullptr ? t->strides[d] * size : contiguous;
    contiguous *= t->shape[d];
  }
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
    py::tuple want = py::reinterpret_borrow<py::tuple>(dl_device);
    if (want[0].cast<int>() != dl::kCUDA || want[1].cast<int>() != v.device) {
      PyErr_SetString(PyExc_BufferError,
                      (std::string(fname) + ": numcu exports only to its own device (" +
                       std::to_string(dl::kCUDA) + ", " + std::to_string(v.device) + ")")
                          .c_str());
      throw py::error_already_set();
    }
  }
  bool versioned = false;
  if (!max_version.is_none()) {
    py::tuple mv = py::reinterpret_borrow<py::tuple>(max_version);
    versioned = mv[0].cast<int>() >= 1;
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
    const long long s = stream.cast<long long>();
    if (s == 0) {
      throw_value_error(std::string(fname) +
                        ": stream=0 is ambiguous for CUDA; use 1 (legacy "
                        "default), 2 (per-thread default) or a handle");
    }
    if (s != -1 &&
        reinterpret_cast<Stream>(static_cast<std::uintptr_t>(s == 1 ? 0 : s)) != a.last_stream()) {
      cuda::activate(v.device);
      cuda::stream_wait(reinterpret_cast<Stream>(static_cast<std::uintptr_t>(s)), a.last_stream());
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
