// numcu.ndarray's methods beyond arithmetic: basic indexing as views, reshape, transpose,
// astype, copy, fill, item assignment, conversions of one-element arrays; and the creation
// functions. Views share their memory and keep it alive.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "array_api.hpp"
#include "elementwise_call.hpp"
#include "execution.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/checked.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "transfer.hpp"

namespace numcu::python {
namespace {

[[noreturn]] void index_error(const std::string& what) { throw py::index_error(what); }

ArrayView index_view(const ArrayView& v, py::handle key) {
  py::tuple items =
      PyTuple_Check(key.ptr()) ? py::reinterpret_borrow<py::tuple>(key) : py::make_tuple(key);
  int consuming = 0;
  bool ellipsis = false;
  for (py::handle item : items) {
    if (item.ptr() == Py_Ellipsis) {
      if (ellipsis) index_error("numcu.ndarray: an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (!item.is_none()) {
      ++consuming;
    }
  }
  if (consuming > v.ndim) {
    index_error("numcu.ndarray: too many indices: the array is " + std::to_string(v.ndim) +
                "-dimensional, but " + std::to_string(consuming) + " were indexed");
  }
  ArrayView r = v;
  r.ndim = 0;
  int d = 0;
  auto keep = [&](std::int64_t extent, std::int64_t stride) {
    if (r.ndim == kMaxDims) index_error("numcu.ndarray: too many dimensions");
    r.shape[r.ndim] = extent;
    r.strides[r.ndim] = stride;
    ++r.ndim;
  };
  for (py::handle item : items) {
    PyObject* o = item.ptr();
    if (o == Py_Ellipsis) {
      const int take = v.ndim - consuming;
      for (int k = 0; k < take; ++k, ++d) keep(v.shape[d], v.strides[d]);
    } else if (o == Py_None) {
      keep(1, 0);
    } else if (PySlice_Check(o)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(o, &start, &stop, &step) < 0) throw py::error_already_set();
      const Py_ssize_t n =
          PySlice_AdjustIndices(static_cast<Py_ssize_t>(v.shape[d]), &start, &stop, step);
      if (n > 0) r.data += start * v.strides[d];
      // A step beyond the extent leaves at most one element, whose stride is never used (it
      // could not be computed: stride * step overflows for steps near 2**63).
      std::int64_t stride = 0;
      if (!checked::mul(v.strides[d], step, stride)) stride = 0;
      keep(n, stride);
      ++d;
    } else if (PyIndex_Check(o) && !PyBool_Check(o)) {
      py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(o));
      if (!index) {  // arrays have an __index__ slot that refuses all but one element
        PyErr_Clear();
        index_error(
            "numcu.ndarray: only integers, slices (':'), ellipsis ('...') and None are valid "
            "indices (advanced indexing with arrays is not supported), not " +
            std::string(Py_TYPE(o)->tp_name));
      }
      int overflow = 0;
      std::int64_t i = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
      if (i < 0 && overflow == 0) i += v.shape[d];
      if (overflow != 0 || i < 0 || i >= v.shape[d]) {
        index_error("numcu.ndarray: index " + py::str(item).cast<std::string>() +
                    " is out of bounds for axis " + std::to_string(d) + " with size " +
                    std::to_string(v.shape[d]));
      }
      r.data += i * v.strides[d];
      ++d;
    } else {
      index_error(
          "numcu.ndarray: only integers, slices (':'), ellipsis ('...') and None are valid "
          "indices (advanced indexing with arrays is not supported), not " +
          std::string(Py_TYPE(o)->tp_name));
    }
  }
  for (; d < v.ndim; ++d) keep(v.shape[d], v.strides[d]);
  return r;
}

// Item assignment runs on the current stream, ordered after the work queued on the arrays it
// touches, whatever streams that went to, as every operation is (place() and finish_streams()).
Operand destination_operand(const ArrayView& dst,
                            const std::shared_ptr<DeviceAllocation>& allocation) {
  Operand target;
  target.kind = Operand::Kind::device;
  target.view = dst;
  target.allocation = allocation;
  return target;
}

Exec place_assignment(const char* fname, const Operand* const* operands, int count, int device) {
  DeviceRequest req;
  req.kind = DeviceRequest::Kind::cuda;
  req.device = device;
  cuda::activate(device);
  return place(fname, operands, count, req);
}

// dst[...] = scalar, on dst's device (whose numcu allocation, if any, is `allocation`).
void fill_view(const ArrayView& dst, const std::shared_ptr<DeviceAllocation>& allocation,
               py::handle value, const char* fname) {
  const Operand x = scalar_operand(value, fname);
  check_weak_int(x, dst.dtype, fname);
  const Operand target = destination_operand(dst, allocation);
  const Operand* operands[1] = {&target};
  const Exec ex = place_assignment(fname, operands, 1, dst.device);
  run_fill(ex, dst, x, fname);
  finish_streams(ex, operands, 1, nullptr);
}

// dst[...] = src, broadcasting src, converting its dtype; host sources are uploaded.
void assign_view(const ArrayView& dst, const std::shared_ptr<DeviceAllocation>& allocation,
                 py::handle value, const char* fname) {
  if (dst.readonly) throw_value_error(std::string(fname) + ": the array is read-only");
  Operand x = intake(value, fname);
  if (x.kind != Operand::Kind::device && x.view.ndim == 0) {
    fill_view(dst, allocation, value, fname);
    return;
  }
  for (int k = 1; k <= x.view.ndim; ++k) {
    const int dd = dst.ndim - k, sd = x.view.ndim - k;
    if (dd < 0 || (x.view.shape[sd] != 1 && x.view.shape[sd] != dst.shape[dd])) {
      throw_value_error(std::string(fname) + ": could not broadcast input array from shape " +
                        shape_str(x.view.shape, x.view.ndim) + " into shape " +
                        shape_str(dst.shape, dst.ndim));
    }
  }
  const Operand target = destination_operand(dst, allocation);
  const Operand* operands[2] = {x.kind == Operand::Kind::device ? &x : nullptr, &target};
  const Exec ex = place_assignment(fname, operands, 2, dst.device);
  Scratch scratch;
  ArrayView src = x.view;
  if (x.kind == Operand::Kind::host) src = upload(scratch, ex, src);
  if (x.has_producer_stream) cuda::stream_wait(ex.stream, x.producer_stream);
  // x[1:] = x[:-1] assigns the values as they were before the assignment, as in NumPy.
  src = unaliased(scratch, ex, dst, src, true, fname);
  run_cast(ex, dst, src, fname);
  finish_streams(ex, operands, 2, nullptr);
}

NdArray reshape(const NdArray& a, py::handle shape_obj) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  const char* fname = "numcu.ndarray.reshape";
  std::vector<std::int64_t> shape = shape_from(shape_obj, fname);
  const ArrayView& v = a.view();
  const int ndim = static_cast<int>(shape.size());
  auto cannot = [&] {
    throw_value_error(std::string(fname) + ": cannot reshape array of size " +
                      std::to_string(v.size()) + " into shape " + shape_str(shape.data(), ndim));
  };
  std::int64_t known = 1;
  bool known_fits = true;
  int unknown = -1;
  for (int k = 0; k < ndim; ++k) {
    if (shape[k] == -1) {
      if (unknown >= 0)
        throw_value_error(std::string(fname) + ": can only specify one unknown dimension");
      unknown = k;
    } else if (shape[k] < 0) {
      throw_value_error(std::string(fname) + ": negative dimensions are not allowed");
    } else {
      known_fits = known_fits && checked::mul(known, shape[k], known);
    }
  }
  if (!known_fits) cannot();
  if (unknown >= 0) shape[unknown] = known == 0 ? 0 : v.size() / known;
  std::int64_t total = 1;
  for (auto e : shape) {
    if (!checked::mul(total, e, total)) cannot();
  }
  if (total != v.size()) cannot();
  checked::check_shape(fname, shape.data(), ndim, v.dtype);
  NdArray src = a;
  if (!v.is_c_contiguous()) {
    cuda::activate(v.device);
    src = NdArray::empty(v.dtype, v.ndim, v.shape, v.device, a.last_stream());
    copy_into(src.view(), v, a.last_stream(), fname);
  }
  ArrayView r = src.view();
  r.ndim = static_cast<int>(shape.size());
  std::copy(shape.begin(), shape.end(), r.shape);
  dense_strides(r.dtype, r.ndim, r.shape, nullptr, r.strides);
  return src.with_view(r);
}

NdArray transpose(const NdArray& a, py::args axes_in) {
  const ArrayView& v = a.view();
  std::vector<int> axes;
  py::handle spec = axes_in.size() == 1 ? axes_in[0] : py::handle(axes_in);
  if (axes_in.size() == 0 || spec.is_none()) {
    for (int d = v.ndim - 1; d >= 0; --d) axes.push_back(d);
  } else {
    for (py::handle item : spec) {
      int ax = item.cast<int>();
      if (ax < 0) ax += v.ndim;
      axes.push_back(ax);
    }
  }
  std::vector<bool> seen(v.ndim, false);
  bool ok = static_cast<int>(axes.size()) == v.ndim;
  for (int ax : axes) {
    ok = ok && ax >= 0 && ax < v.ndim && !seen[ax];
    if (ok) seen[ax] = true;
  }
  if (!ok) throw_value_error("numcu.ndarray.transpose: axes don't match array");
  ArrayView r = v;
  for (int k = 0; k < v.ndim; ++k) {
    r.shape[k] = v.shape[axes[k]];
    r.strides[k] = v.strides[axes[k]];
  }
  return a.with_view(r);
}

NdArray copy_of(const NdArray& a, DType dtype, const char* fname) {
  cuda::DeviceRestore restore;  // see runtime.hpp
  const ArrayView& v = a.view();
  cuda::activate(v.device);
  Exec ex;
  ex.gpu = true;
  ex.device = v.device;
  ex.stream = a.last_stream();
  prefetch(ex, a.allocation().get(), v);
  NdArray out = NdArray::empty(dtype, v.ndim, v.shape, v.device, a.last_stream());
  copy_into(out.view(), v, a.last_stream(), fname);
  return out;
}

py::object item(py::handle self, const char* what) {
  const NdArray& a = self.cast<const NdArray&>();
  if (a.view().size() != 1) {
    throw py::type_error(std::string("only one-element numcu arrays can be converted to ") + what +
                         " (this one has " + std::to_string(a.view().size()) + " elements)");
  }
  return asnumpy(self, py::none(), py::none(), true, "numcu.ndarray.item").attr("item")();
}

}  // namespace

void bind_array_methods(py::class_<NdArray>& cls) {
  cls.def("__getitem__",
          [](py::handle self, py::handle key) -> py::object {
            if (py::object r = advanced_getitem(self, key)) return r;
            const NdArray& a = self.cast<const NdArray&>();
            return py::cast(a.with_view(index_view(a.view(), key)));
          })
      .def("__setitem__",
           [](py::handle self, py::handle key, py::handle value) {
             if (advanced_setitem(self, key, value)) return;
             const NdArray& a = self.cast<const NdArray&>();
             cuda::DeviceRestore restore;  // see runtime.hpp
             assign_view(index_view(a.view(), key), a.allocation(), value,
                         "numcu.ndarray.__setitem__");
           })
      .def(
          "reshape",
          [](const NdArray& a, py::args shape) {
            return reshape(a, shape.size() == 1 ? shape[0] : py::handle(shape));
          },
          "A view with a new shape (a copy first when the array is not C-contiguous).")
      .def("transpose", &transpose, "A view with the axes permuted (reversed by default).")
      .def_property_readonly("T", [](const NdArray& a) { return transpose(a, py::args()); })
      .def(
          "ravel", [](const NdArray& a) { return reshape(a, py::int_(-1)); },
          "A 1-D view (a copy when the array is not C-contiguous).")
      .def(
          "astype",
          [](const NdArray& a, py::handle dtype, bool copy) {
            const DType d = dtype_from_python(dtype, "numcu.ndarray.astype");
            if (!copy && d == a.view().dtype) return a;
            return copy_of(a, d, "numcu.ndarray.astype");
          },
          py::arg("dtype"), py::arg("copy") = true,
          "A copy converted to `dtype` (NumPy's unsafe casting: complex to real keeps the "
          "real part).")
      .def(
          "copy", [](const NdArray& a) { return copy_of(a, a.view().dtype, "numcu.ndarray.copy"); },
          "A C-contiguous copy on the same device.")
      .def(
          "fill",
          [](const NdArray& a, py::handle value) {
            cuda::DeviceRestore restore;  // see runtime.hpp
            if (a.view().readonly) throw_value_error("numcu.ndarray.fill: the array is read-only");
            fill_view(a.view(), a.allocation(), value, "numcu.ndarray.fill");
          },
          py::arg("value"), "Set every element to `value` (converted to the array's dtype).")
      .def("__bool__", [](py::handle a) { return item(a, "bool").attr("__bool__")(); })
      .def("__int__", [](py::handle a) { return py::int_(item(a, "int")); })
      .def("__float__", [](py::handle a) { return py::float_(item(a, "float")); })
      .def("__complex__",
           [](py::handle a) {
             return py::module_::import("builtins").attr("complex")(item(a, "complex"));
           })
      .def_property_readonly(
          "flags",
          [](const NdArray& a) {
            const ArrayView& v = a.view();
            ArrayView rev = v;
            std::reverse(rev.shape, rev.shape + v.ndim);
            std::reverse(rev.strides, rev.strides + v.ndim);
            py::dict f;
            f["C_CONTIGUOUS"] = v.is_c_contiguous();
            f["F_CONTIGUOUS"] = rev.is_c_contiguous();
            f["WRITEABLE"] = !v.readonly;
            return f;
          },
          "C_CONTIGUOUS, F_CONTIGUOUS and WRITEABLE, as a dict.");
}

}  // namespace numcu::python
