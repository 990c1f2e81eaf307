#include "ndarray.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <utility>

#include "bfloat16.hpp"
#include "dlpack.hpp"
#include "elementwise_call.hpp"
#include "foreign.hpp"
#include "intake.hpp"
#include "numcu/checked.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "transfer.hpp"

namespace numcu::python {

const char* memory_name(Memory memory) {
  static constexpr const char* kNames[] = {"device", "managed", "foreign"};
  return kNames[static_cast<int>(memory)];
}

DeviceAllocation::DeviceAllocation(std::size_t bytes, int device, Stream stream, bool managed)
    : bytes_(bytes),
      device_(device),
      managed_(managed),
      stream_(stream),
      keeper_(stream_keeper(stream)) {
  ptr_ = managed ? cuda::allocate_managed(bytes, device) : cuda::allocate(bytes, device, stream);
}

DeviceAllocation::~DeviceAllocation() {
  if (managed_) {
    cuda::free_managed(ptr_, device_, stream_);
  } else {
    cuda::deallocate(ptr_, bytes_, device_, stream_);
  }
}

void dense_strides(DType dtype, int ndim, const std::int64_t* shape, const ArrayView* like,
                   std::int64_t* strides) {
  if (ndim == 1) {  // the common result: no order to find
    strides[0] = itemsize(dtype);
    return;
  }
  int order[kMaxDims];
  std::iota(order, order + ndim, 0);
  if (like != nullptr && like->ndim == ndim) {
    // Dimensions by decreasing |stride|, ties in order: an insertion sort, stable and without
    // std::stable_sort's buffer (a malloc and free per result).
    for (int i = 1; i < ndim; ++i) {
      const int d = order[i];
      const std::int64_t key = std::llabs(like->strides[d]);
      int j = i;
      for (; j > 0 && std::llabs(like->strides[order[j - 1]]) < key; --j) order[j] = order[j - 1];
      order[j] = d;
    }
  }
  std::int64_t s = itemsize(dtype);
  for (int k = ndim - 1; k >= 0; --k) {
    strides[order[k]] = s;
    s *= std::max<std::int64_t>(shape[order[k]], 1);
  }
}

ArrayView dense_layout(DType dtype, int ndim, const std::int64_t* shape, int device,
                       const ArrayView* like) {
  ArrayView v;
  v.dtype = dtype;
  v.ndim = ndim;
  v.device = device;
  std::copy(shape, shape + ndim, v.shape);
  dense_strides(dtype, ndim, shape, like, v.strides);
  return v;
}

NdArray NdArray::empty(DType dtype, int ndim, const std::int64_t* shape, int device, Stream stream,
                       const ArrayView* like, Memory memory) {
  NdArray a;
  // Callers check shapes that come from users, naming the function; this is the last guard.
  const auto bytes = static_cast<std::size_t>(checked::check_shape("numcu", shape, ndim, dtype));
  ArrayView& v = a.view_;
  v = dense_layout(dtype, ndim, shape, device, like);
  const Stream home = home_stream(stream);
  a.allocation_ =
      std::make_shared<DeviceAllocation>(bytes, device, home, memory == Memory::managed);
  // Memory allocated on the home stream is ready for work on `stream` once that waits for it.
  if (home != stream) cuda::stream_wait(stream, home);
  v.data = a.allocation_->data();
  // New managed memory has no pages yet: made on the device, the first kernel does not fault.
  if (memory == Memory::managed) cuda::prefetch_to_device(v.data, bytes, device, stream);
  return a;
}

NdArray NdArray::wrap(const ArrayView& view, py::object owner) {
  NdArray a;
  a.view_ = view;
  a.owner_ = std::make_shared<py::object>(std::move(owner));
  return a;
}

std::int64_t* NdArray::element_strides() const {
  if (!element_strides_) {
    const int size = itemsize(view_.dtype);
    for (int d = 0; d < view_.ndim; ++d) {
      if (view_.strides[d] % size != 0) return nullptr;
    }
    element_strides_.reset(new std::int64_t[std::max(view_.ndim, 1)]);
    for (int d = 0; d < view_.ndim; ++d) element_strides_[d] = view_.strides[d] / size;
  }
  return element_strides_.get();
}

Stream NdArray::last_stream() const {
  return allocation_ ? allocation_->stream() : cuda::current_stream();
}

py::tuple NdArray::shape() const {
  py::tuple t(view_.ndim);
  for (int d = 0; d < view_.ndim; ++d) t[d] = py::int_(view_.shape[d]);
  return t;
}

py::tuple NdArray::strides() const {
  py::tuple t(view_.ndim);
  for (int d = 0; d < view_.ndim; ++d) t[d] = py::int_(view_.strides[d]);
  return t;
}

namespace {

std::string typestr(DType dtype) {
  // As NumPy describes ml_dtypes' bfloat16: the interface has no code of its own for it.
  if (dtype == DType::bfloat16) return "<V2";
  const char kind = dtype_kind(dtype);
  const int size = itemsize(dtype);
  return std::string(size == 1 ? "|" : "<") + kind + std::to_string(size);
}

}  // namespace

py::dict NdArray::cuda_array_interface() const {
  py::dict d;
  d["shape"] = shape();
  d["typestr"] = typestr(view_.dtype);
  d["data"] = py::make_tuple(py::int_(reinterpret_cast<std::uintptr_t>(view_.data)),
                             py::bool_(view_.readonly));
  d["version"] = 3;
  d["strides"] = view_.is_c_contiguous() ? py::object(py::none()) : py::object(strides());
  // The stream the data was last written on; the interface numbers the legacy default 1.
  const Stream s = last_stream();
  d["stream"] = s == nullptr ? py::int_(1) : py::int_(reinterpret_cast<std::uintptr_t>(s));
  return d;
}

py::object numpy_dtype(DType dtype) {
  static const std::array<py::object, kNumDTypes>* table = [] {
    auto* t = new std::array<py::object, kNumDTypes>();
    py::object np_dtype = py::module_::import("numpy").attr("dtype");
    for (int i = 0; i < kNumDTypes; ++i) {
      if (static_cast<DType>(i) != DType::bfloat16) {
        (*t)[i] = np_dtype(dtype_name(static_cast<DType>(i)));
      }
    }
    return t;
  }();
  // Asked for each time: ml_dtypes may be installed, or imported, after the first call.
  if (dtype == DType::bfloat16) return ml_bfloat16_dtype("numcu");
  return (*table)[static_cast<int>(dtype)];
}

py::object numpy_empty(DType dtype, int ndim, const std::int64_t* shape,
                       const std::int64_t* strides) {
  // NumPy's own constructor, as py::array's calls it, without the two vectors and the dtype
  // conversion around it (a tenth of a small call). It takes the reference to the descriptor.
  static_assert(sizeof(Py_intptr_t) == sizeof(std::int64_t), "64-bit extents");
  auto* dims = const_cast<Py_intptr_t*>(reinterpret_cast<const Py_intptr_t*>(shape));
  // C-order strides are left to NumPy, which then sets the array's flags as it fills them in
  // instead of deriving them from given strides (about 90 instructions a call, by callgrind).
  std::int64_t expected = itemsize(dtype);
  bool c_order = true;
  for (int d = ndim - 1; d >= 0 && c_order; --d) {
    c_order = strides[d] == expected;
    if (shape[d] != 0) expected *= shape[d];
  }
  auto* steps =
      c_order ? nullptr : const_cast<Py_intptr_t*>(reinterpret_cast<const Py_intptr_t*>(strides));
  PyObject* a = foreign::numpy_new(numpy_dtype(dtype).release().ptr(), ndim, dims, steps);
  if (a == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(a);
}

namespace {

std::string repr(py::handle self) {
  const NdArray& a = self.cast<const NdArray&>();
  py::object values = asnumpy(self, py::none(), py::none(), true, "numcu.ndarray.__repr__");
  std::string body = py::repr(values).cast<std::string>();
  // "array([1., 2.], dtype=float32)" -> "numcu.ndarray([1., 2.], dtype=float32, device='cuda:0')"
  std::string prefix = "array(";
  if (body.rfind(prefix, 0) == 0) body = body.substr(prefix.size());
  if (!body.empty() && body.back() == ')') body.pop_back();
  if (body.find("dtype=") == std::string::npos) {
    body += ", dtype=" + std::string(dtype_name(a.view().dtype));
  }
  body += ", device='" + device_str(a.view().device) + "'";
  if (a.memory() == Memory::managed) body += ", memory='managed'";
  return "numcu.ndarray(" + body + ")";
}

// The buffer protocol, for managed arrays only: their memory is the host's too, so NumPy (and
// anything else that takes buffers) views it without a copy.
struct BufferLayout {
  std::vector<Py_ssize_t> shape, strides;
};

// PEP 3118's format of a dtype, from its kind and size (bfloat16 has none; it is refused before
// it is asked for).
const char* buffer_format(DType dtype) {
  const bool long64 = sizeof(long) == 8;
  const int size = itemsize(dtype);
  const int at = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;  // 1, 2, 4, 8 bytes
  static constexpr const char* kSigned[] = {"b", "h", "i", "q"};
  static constexpr const char* kUnsigned[] = {"B", "H", "I", "Q"};
  static constexpr const char* kFloat[] = {"B", "e", "f", "d"};
  switch (dtype_kind(dtype)) {
    case 'b':
      return "?";
    case 'i':
      return at == 3 && long64 ? "l" : kSigned[at];
    case 'u':
      return at == 3 && long64 ? "L" : kUnsigned[at];
    case 'f':
      return dtype == DType::bfloat16 ? "B" : kFloat[at];
    default:
      return size == 8 ? "Zf" : "Zd";
  }
}

int buffer_refused(const char* what) {
  PyErr_SetString(PyExc_BufferError, what);
  return -1;
}

int ndarray_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  view->obj = nullptr;
  try {
    const py::handle owner(self);
    const NdArray& a = owner.cast<const NdArray&>();
    const ArrayView& v = a.view();
    if (a.memory() != Memory::managed) {
      return buffer_refused(
          "numcu.ndarray: device memory cannot be read by the host (arrays made with "
          "memory='managed' can); call .get() or numcu.asnumpy for a NumPy copy");
    }
    ArrayView reversed = v;
    std::reverse(reversed.shape, reversed.shape + v.ndim);
    std::reverse(reversed.strides, reversed.strides + v.ndim);
    const bool c_order = v.is_c_contiguous();
    const bool f_order = reversed.is_c_contiguous();
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && v.readonly) {
      return buffer_refused("numcu.ndarray: the array is read-only");
    }
    if (v.dtype == DType::bfloat16) {
      return buffer_refused(
          "numcu.ndarray: the buffer protocol has no format for bfloat16; use DLPack or "
          "numcu.asnumpy (with ml_dtypes installed)");
    }
    if (((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c_order) ||
        ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f_order) ||
        ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c_order && !f_order) ||
        ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c_order)) {
      return buffer_refused("numcu.ndarray: the array is not contiguous in the layout asked for");
    }
    auto layout = std::make_unique<BufferLayout>();
    layout->shape.assign(v.shape, v.shape + v.ndim);
    layout->strides.assign(v.strides, v.strides + v.ndim);
    view->buf = v.data;
    view->itemsize = itemsize(v.dtype);
    view->len = static_cast<Py_ssize_t>(v.size()) * view->itemsize;
    view->readonly = v.readonly ? 1 : 0;
    view->ndim = v.ndim;
    view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT
                       ? const_cast<char*>(buffer_format(v.dtype))
                       : nullptr;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? layout->shape.data() : nullptr;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? layout->strides.data() : nullptr;
    view->suboffsets = nullptr;
    view->internal = layout.release();
    Py_INCREF(self);
    view->obj = self;
    return 0;
  } catch (const std::exception& e) {
    return buffer_refused(e.what());
  }
}

void ndarray_releasebuffer(PyObject*, Py_buffer* view) {
  delete static_cast<BufferLayout*>(view->internal);
  view->internal = nullptr;
}

// NumPy's __array__(dtype=None, copy=None): a view of a managed array's memory; device memory
// refuses.
py::object to_array(py::handle self, py::args args, py::kwargs kwargs) {
  const NdArray& a = self.cast<const NdArray&>();
  if (a.memory() != Memory::managed) {
    throw py::type_error(
        "numcu.ndarray is on the GPU: NumPy cannot convert it implicitly; call .get() "
        "(or numcu.asnumpy) for a NumPy copy");
  }
  py::object dtype = args.size() > 0 ? py::object(args[0]) : py::object(py::none());
  py::object copy = args.size() > 1 ? py::object(args[1]) : py::object(py::none());
  if (kwargs.contains("dtype")) dtype = kwargs["dtype"];
  if (kwargs.contains("copy")) copy = kwargs["copy"];
  py::object np = py::module_::import("numpy");
  py::object arr = np.attr("asarray")(py::memoryview(py::reinterpret_borrow<py::object>(self)));
  const bool must_copy = !copy.is_none() && PyObject_IsTrue(copy.ptr()) == 1;
  const bool no_copy = !copy.is_none() && PyObject_IsTrue(copy.ptr()) == 0;
  if (!dtype.is_none() && !py::object(arr.attr("dtype")).equal(np.attr("dtype")(dtype))) {
    if (no_copy) {
      throw py::value_error("numcu.ndarray.__array__: converting the dtype needs a copy");
    }
    return arr.attr("astype")(dtype);
  }
  return must_copy ? arr.attr("copy")() : arr;
}

// Whether a binary operator can take `other` at all; if not, Python gets NotImplemented and
// tries the other operand's method (or, for ==, falls back to identity).
bool takes(py::handle other) {
  try {
    intake(other, "numcu.ndarray");
    return true;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::type_error) return false;
    throw;
  }
}

template <Ufunc Op>
py::object forward(py::handle self, py::handle other) {
  if (!takes(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return ufunc_call(Op, {self, other}, py::none(), DeviceRequest{});
}
template <Ufunc Op>
py::object reflected(py::handle self, py::handle other) {
  if (!takes(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return ufunc_call(Op, {other, self}, py::none(), DeviceRequest{});
}
template <Ufunc Op>
py::object inplace(py::handle self, py::handle other) {
  if (!takes(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return ufunc_call(Op, {self, other}, self, DeviceRequest{});
}
template <Ufunc Op>
py::object unary(py::handle self) {
  return ufunc_call(Op, {self}, py::none(), DeviceRequest{});
}

// Python's operators on numcu.ndarray, as NumPy's ndarray has them: the ufunc, and the stem of
// the special method's name ("add": __add__).
struct Operator {
  Ufunc op;
  const char* stem;
};
enum class Forms {
  unary,       // __neg__(self)
  comparison,  // __lt__(self, other): Python reflects comparisons into each other
  arithmetic,  // __add__, with its reflected and in-place forms (__radd__, __iadd__)
};
constexpr Operator kUnaryOperators[] = {{Ufunc::negative, "neg"},
                                        {Ufunc::positive, "pos"},
                                        {Ufunc::absolute, "abs"},
                                        {Ufunc::invert, "invert"}};
constexpr Operator kComparisons[] = {{Ufunc::equal, "eq"},   {Ufunc::not_equal, "ne"},
                                     {Ufunc::less, "lt"},    {Ufunc::less_equal, "le"},
                                     {Ufunc::greater, "gt"}, {Ufunc::greater_equal, "ge"}};
constexpr Operator kArithmetic[] = {
    {Ufunc::add, "add"},         {Ufunc::subtract, "sub"},          {Ufunc::multiply, "mul"},
    {Ufunc::divide, "truediv"},  {Ufunc::floor_divide, "floordiv"}, {Ufunc::remainder, "mod"},
    {Ufunc::power, "pow"},       {Ufunc::bitwise_and, "and"},       {Ufunc::bitwise_or, "or"},
    {Ufunc::bitwise_xor, "xor"}, {Ufunc::left_shift, "lshift"},     {Ufunc::right_shift, "rshift"}};

template <Ufunc Op, Forms F, class Class>
void def_operator(Class& cls, const char* stem) {
  const std::string n(stem);
  if constexpr (F == Forms::unary) {
    cls.def(("__" + n + "__").c_str(), &unary<Op>);
  } else {
    cls.def(("__" + n + "__").c_str(), &forward<Op>, py::is_operator());
  }
  if constexpr (F == Forms::arithmetic) {
    cls.def(("__r" + n + "__").c_str(), &reflected<Op>, py::is_operator());
    cls.def(("__i" + n + "__").c_str(), &inplace<Op>, py::is_operator());
  }
}

// Every operator of `table`, each bound to its own instantiation (no dispatch at call time).
template <Forms F, const auto& table, class Class, std::size_t... I>
void def_operators(Class& cls, std::index_sequence<I...>) {
  (def_operator<table[I].op, F>(cls, table[I].stem), ...);
}
template <Forms F, const auto& table, class Class>
void def_operators(Class& cls) {
  def_operators<F, table>(cls, std::make_index_sequence<std::size(table)>{});
}

}  // namespace

namespace {
PyTypeObject* g_ndarray_type = nullptr;  // numcu.ndarray, set when the module binds it
}  // namespace

const NdArray* ndarray_of(py::handle obj) {
  PyObject* o = obj.ptr();
  if (Py_TYPE(o) == g_ndarray_type) {
    return foreign::pybind_value<const NdArray>(o);
  }
  if (g_ndarray_type == nullptr || !PyObject_TypeCheck(o, g_ndarray_type)) return nullptr;
  return &obj.cast<const NdArray&>();
}

void bind_ndarray(py::module_& m) {
  py::class_<NdArray> cls(m, "ndarray", py::buffer_protocol(), R"doc(
A CUDA device array.

numcu returns one for every operation with device operands; ``numcu.asarray`` makes one from
host data (copying) or from another library's device array (zero-copy). It exports
``__cuda_array_interface__`` (version 3), so CuPy, PyTorch and Numba take it without a copy.
``get()`` copies it to a NumPy array; NumPy never converts it implicitly, except for arrays in
managed memory (``memory == "managed"``), which NumPy views without a copy through the buffer
protocol: synchronise (``numcu.cuda.synchronize()``) before the host reads what the GPU wrote.
)doc");
  g_ndarray_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  // The buffer slots are numcu's own, so that device memory refuses with a clear message.
  auto* heap_type = reinterpret_cast<PyHeapTypeObject*>(cls.ptr());
  heap_type->as_buffer.bf_getbuffer = &ndarray_getbuffer;
  heap_type->as_buffer.bf_releasebuffer = &ndarray_releasebuffer;
  cls.def_property_readonly("shape", &NdArray::shape)
      .def_property_readonly("strides", &NdArray::strides, "Strides in bytes.")
      .def_property_readonly("dtype", [](const NdArray& a) { return numpy_dtype(a.view().dtype); })
      .def_property_readonly("ndim", [](const NdArray& a) { return a.view().ndim; })
      .def_property_readonly("size", [](const NdArray& a) { return a.view().size(); })
      .def_property_readonly("itemsize", [](const NdArray& a) { return itemsize(a.view().dtype); })
      .def_property_readonly(
          "nbytes", [](const NdArray& a) { return a.view().size() * itemsize(a.view().dtype); })
      .def_property_readonly("device", [device = py::object(m.attr("cuda").attr("Device"))](
                                           const NdArray& a) { return device(a.view().device); })
      .def_property_readonly(
          "data_ptr",
          [](const NdArray& a) { return reinterpret_cast<std::uintptr_t>(a.view().data); },
          "The device address of the first element.")
      .def_property_readonly("__cuda_array_interface__", &NdArray::cuda_array_interface)
      .def_property_readonly(
          "memory", [](const NdArray& a) { return memory_name(a.memory()); },
          "'device' (numcu's stream-ordered device memory), 'managed' (numcu's managed memory, "
          "which the host can read and write too) or 'foreign' (another library's memory).")
      .def(
          "get",
          [](py::handle self, py::handle out, py::handle stream, bool blocking) {
            return asnumpy(self, out, stream, blocking, "numcu.ndarray.get");
          },
          py::arg("out") = py::none(), py::arg("stream") = py::none(), py::arg("blocking") = true,
          "A NumPy copy, or the copy into `out`; as numcu.asnumpy.")
      .def("__len__",
           [](const NdArray& a) {
             if (a.view().ndim == 0) throw py::type_error("len() of unsized numcu.ndarray");
             return a.view().shape[0];
           })
      .def("__repr__", &repr)
      .def("__array__", &to_array)
      .def("__dlpack__", &export_dlpack, py::kw_only(), py::arg("stream") = py::none(),
           py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(),
           py::arg("copy") = py::none(),
           "Export as a DLPack capsule (versioned when max_version >= (1, 0)), ordered before "
           "the consumer's `stream`.")
      .def("__dlpack_device__", [](const NdArray& a) {
        return py::make_tuple(static_cast<int>(dl::kCUDA), a.view().device);
      });
  def_operators<Forms::unary, kUnaryOperators>(cls);
  def_operators<Forms::comparison, kComparisons>(cls);
  def_operators<Forms::arithmetic, kArithmetic>(cls);
  // Hashing a mutable array by identity would disagree with the elementwise ==.
  cls.attr("__hash__") = py::none();
  // Consumers in C take numcu arrays through DLPack's C exchange table (type-level, as specified).
  cls.attr("__dlpack_c_exchange_api__") = exchange_api_capsule();
  cls.attr("__array_ufunc__") = py::none();
  bind_array_methods(cls);
}

}  // namespace numcu::python
