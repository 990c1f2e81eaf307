#include "ndarray.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <string>

#include "dlpack.hpp"
#include "elementwise_call.hpp"
#include "intake.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {

DeviceAllocation::DeviceAllocation(std::size_t bytes, int device, Stream stream)
    : device_(device), stream_(stream), keeper_(stream_keeper(stream)) {
  ptr_ = cuda::allocate(bytes, device, stream);
}

DeviceAllocation::~DeviceAllocation() { cuda::deallocate(ptr_, device_, stream_); }

void dense_strides(DType dtype, int ndim, const std::int64_t* shape, const ArrayView* like,
                   std::int64_t* strides) {
  int order[kMaxDims];
  std::iota(order, order + ndim, 0);
  if (like != nullptr && like->ndim == ndim) {
    std::stable_sort(order, order + ndim, [&](int a, int b) {
      return std::llabs(like->strides[a]) > std::llabs(like->strides[b]);
    });
  }
  std::int64_t s = itemsize(dtype);
  for (int k = ndim - 1; k >= 0; --k) {
    strides[order[k]] = s;
    s *= std::max<std::int64_t>(shape[order[k]], 1);
  }
}

NdArray NdArray::empty(DType dtype, int ndim, const std::int64_t* shape, int device,
                       Stream stream, const ArrayView* like) {
  NdArray a;
  ArrayView& v = a.view_;
  v.dtype = dtype;
  v.ndim = ndim;
  v.device = device;
  std::copy(shape, shape + ndim, v.shape);
  dense_strides(dtype, ndim, shape, like, v.strides);
  const std::size_t bytes = static_cast<std::size_t>(v.size()) * itemsize(dtype);
  const Stream home = home_stream(stream);
  a.allocation_ = std::make_shared<DeviceAllocation>(bytes, device, home);
  // Memory allocated on the home stream is ready for work on `stream` once that waits for it.
  if (home != stream) cuda::stream_wait(stream, home);
  v.data = a.allocation_->data();
  return a;
}

NdArray NdArray::wrap(const ArrayView& view, py::object owner) {
  NdArray a;
  a.view_ = view;
  a.owner_ = std::make_shared<py::object>(std::move(owner));
  return a;
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
    for (int i = 0; i < kNumDTypes; ++i) (*t)[i] = np_dtype(dtype_name(static_cast<DType>(i)));
    return t;
  }();
  return (*table)[static_cast<int>(dtype)];
}

py::object numpy_empty(DType dtype, int ndim, const std::int64_t* shape,
                       const std::int64_t* strides) {
  std::vector<py::ssize_t> sh(shape, shape + ndim), st(strides, strides + ndim);
  return py::array(py::dtype::from_args(numpy_dtype(dtype)), sh, st);
}

py::object NdArray::get() const {
  const ArrayView* src = &view_;
  NdArray dense;
  if (!view_.is_c_contiguous()) {
    // Gather on the device first, then one copy down.
    dense = NdArray::empty(view_.dtype, view_.ndim, view_.shape, view_.device, last_stream());
    copy_into(dense.view(), view_, last_stream(), "numcu.ndarray.get");
    src = &dense.view_;
  }
  std::int64_t strides[kMaxDims];
  dense_strides(src->dtype, src->ndim, src->shape, nullptr, strides);
  py::object out = numpy_empty(src->dtype, src->ndim, src->shape, strides);
  const std::size_t bytes = static_cast<std::size_t>(src->size()) * itemsize(src->dtype);
  if (bytes > 0) {
    void* host = py::array(out).mutable_data();
    cuda::activate(src->device);
    const Stream stream = last_stream();
    py::gil_scoped_release release;
    cuda::copy_async(host, src->data, bytes, stream);
    cuda::synchronize(stream);
  }
  return out;
}

namespace {

std::string repr(const NdArray& a) {
  py::object values = a.get();
  std::string body = py::repr(values).cast<std::string>();
  // "array([1., 2.], dtype=float32)" -> "numcu.ndarray([1., 2.], dtype=float32, device='cuda:0')"
  std::string prefix = "array(";
  if (body.rfind(prefix, 0) == 0) body = body.substr(prefix.size());
  if (!body.empty() && body.back() == ')') body.pop_back();
  if (body.find("dtype=") == std::string::npos) {
    body += ", dtype=" + std::string(dtype_name(a.view().dtype));
  }
  return "numcu.ndarray(" + body + ", device='" + device_str(a.view().device) + "')";
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

// The operator, its reflected form and its in-place form, as NumPy's ndarray has them.
template <Ufunc Op, class Class>
void def_operator(Class& cls, const char* name) {
  const std::string n(name);
  cls.def(("__" + n + "__").c_str(), &forward<Op>, py::is_operator());
  cls.def(("__r" + n + "__").c_str(), &reflected<Op>, py::is_operator());
  cls.def(("__i" + n + "__").c_str(), &inplace<Op>, py::is_operator());
}

}  // namespace

void bind_ndarray(py::module_& m) {
  py::class_<NdArray> cls(m, "ndarray", R"doc(
A CUDA device array.

numcu returns one for every operation with device operands; ``numcu.asarray`` makes one from
host data (copying) or from another library's device array (zero-copy). It exports
``__cuda_array_interface__`` (version 3), so CuPy, PyTorch and Numba take it without a copy.
``get()`` copies it to a NumPy array; NumPy never converts it implicitly.
)doc");
  cls.def_property_readonly("shape", &NdArray::shape)
      .def_property_readonly("strides", &NdArray::strides, "Strides in bytes.")
      .def_property_readonly("dtype", [](const NdArray& a) { return numpy_dtype(a.view().dtype); })
      .def_property_readonly("ndim", [](const NdArray& a) { return a.view().ndim; })
      .def_property_readonly("size", [](const NdArray& a) { return a.view().size(); })
      .def_property_readonly("itemsize", [](const NdArray& a) { return itemsize(a.view().dtype); })
      .def_property_readonly("nbytes",
                             [](const NdArray& a) {
                               return a.view().size() * itemsize(a.view().dtype);
                             })
      .def_property_readonly("device",
                             [](const NdArray& a) {
                               return py::module_::import("numcu._core")
                                   .attr("cuda")
                                   .attr("Device")(a.view().device);
                             })
      .def_property_readonly(
          "data_ptr", [](const NdArray& a) { return reinterpret_cast<std::uintptr_t>(a.view().data); },
          "The device address of the first element.")
      .def_property_readonly("__cuda_array_interface__", &NdArray::cuda_array_interface)
      .def("get", &NdArray::get, "Copy to a new NumPy array (waits for the copy).")
      .def("__len__",
           [](const NdArray& a) {
             if (a.view().ndim == 0) throw py::type_error("len() of unsized numcu.ndarray");
             return a.view().shape[0];
           })
      .def("__repr__", &repr)
      .def("__array__",
           [](const NdArray&, py::args, py::kwargs) -> py::object {
             throw py::type_error(
                 "numcu.ndarray is on the GPU: NumPy cannot convert it implicitly; call .get() "
                 "(or numcu.asnumpy) for a NumPy copy");
           })
      .def("__dlpack__", &export_dlpack, py::kw_only(), py::arg("stream") = py::none(),
           py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(),
           py::arg("copy") = py::none(),
           "Export as a DLPack capsule (versioned when max_version >= (1, 0)), ordered before "
           "the consumer's `stream`.")
      .def("__dlpack_device__",
           [](const NdArray& a) { return py::make_tuple(static_cast<int>(dl::kCUDA), a.view().device); })
      .def("__neg__", &unary<Ufunc::negative>)
      .def("__pos__", &unary<Ufunc::positive>)
      .def("__abs__", &unary<Ufunc::absolute>)
      .def("__invert__", &unary<Ufunc::invert>)
      .def("__eq__", &forward<Ufunc::equal>, py::is_operator())
      .def("__ne__", &forward<Ufunc::not_equal>, py::is_operator())
      .def("__lt__", &forward<Ufunc::less>, py::is_operator())
      .def("__le__", &forward<Ufunc::less_equal>, py::is_operator())
      .def("__gt__", &forward<Ufunc::greater>, py::is_operator())
      .def("__ge__", &forward<Ufunc::greater_equal>, py::is_operator());
  def_operator<Ufunc::add>(cls, "add");
  def_operator<Ufunc::subtract>(cls, "sub");
  def_operator<Ufunc::multiply>(cls, "mul");
  def_operator<Ufunc::divide>(cls, "truediv");
  def_operator<Ufunc::floor_divide>(cls, "floordiv");
  def_operator<Ufunc::remainder>(cls, "mod");
  def_operator<Ufunc::power>(cls, "pow");
  def_operator<Ufunc::bitwise_and>(cls, "and");
  def_operator<Ufunc::bitwise_or>(cls, "or");
  def_operator<Ufunc::bitwise_xor>(cls, "xor");
  def_operator<Ufunc::left_shift>(cls, "lshift");
  def_operator<Ufunc::right_shift>(cls, "rshift");
  // Hashing a mutable array by identity would disagree with the elementwise ==.
  cls.attr("__hash__") = py::none();
  cls.attr("__array_ufunc__") = py::none();
  bind_array_methods(m, cls);

}

}  // namespace numcu::python
