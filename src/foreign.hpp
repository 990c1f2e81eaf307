// Other libraries' internals that numcu relies on, all of them, in this one file: what each is,
// why numcu reads it rather than a public interface, and what happens when its library changes
// it. Nothing else in numcu may use pybind11's detail namespace or another library's private
// (underscore) attributes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace numcu::python::foreign {

namespace py = pybind11;

// --- NumPy's array and descriptor structs, as pybind11 lays them out (py::detail::array_proxy,
// array_descriptor_proxy, npy_api). NumPy's C API (PyArray_DATA, PyArray_FLAGS...) would need
// numpy's headers at build time and import_array at load time; pybind11 already carries the
// field layout that NumPy 1.x and 2.x share for these fields and loads NumPy's C API table itself.
// Reading them directly makes a NumPy operand's intake a tenth of a small call (no Py_buffer and
// format string). When NumPy or pybind11 changes them: pybind11 follows NumPy's ABI (it changed
// the descriptor proxy for NumPy 2.0), so an update of pybind11 carries the change; a NumPy
// whose layout pybind11 does not know fails its own import check before numcu reads anything.

// NumPy's flags numcu reads.
inline constexpr int kNumpyWriteable = py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
inline constexpr int kNumpyAligned = py::detail::npy_api::NPY_ARRAY_ALIGNED_;
inline constexpr int kNumpyOwnData = py::detail::npy_api::NPY_ARRAY_OWNDATA_;

// The fields of a numpy.ndarray `a` (its type checked by the caller).
inline const auto* numpy_array(PyObject* a) { return py::detail::array_proxy(a); }
// The fields of a descriptor (numpy.dtype).
inline const auto* numpy_descr(PyObject* d) { return py::detail::array_descriptor_proxy(d); }

// NumPy's PyArray_NewFromDescr: a new array of `descr` (whose reference it takes) with the given
// extents and byte strides (null: C order), without py::array's vectors and dtype conversion.
inline PyObject* numpy_new(PyObject* descr, int ndim, Py_intptr_t* shape, Py_intptr_t* strides) {
  const auto& api = py::detail::npy_api::get();
  return api.PyArray_NewFromDescr_(api.PyArray_Type_, descr, ndim, shape, strides, nullptr, 0,
                                   nullptr);
}

// --- pybind11's instance layout (py::detail::instance). A numcu.ndarray or numcu.cuda.Stream
// operand is recognised by its exact type, and its C++ value is then read without pybind11's
// type caster, which looks the type up in its registry on every cast (the caster is a fifth of a
// small call). When pybind11 changes the layout, value_and_holder changes with it (it is how
// pybind11 reaches values itself): numcu builds against the pybind11 it is built with.
template <class T>
T* pybind_value(PyObject* instance) {
  auto* inst = reinterpret_cast<py::detail::instance*>(instance);
  return static_cast<T*>(inst->get_value_and_holder().value_ptr());
}

// --- CuPy's private attributes.
//
// cupy.ndarray._c_contiguous: CuPy's own C-contiguity flag, which its __cuda_array_interface__
// also goes by. Reading it spares reading `strides`, for which CuPy builds a new tuple on every
// access (as much as all the other reads of a CuPy operand together). When CuPy drops or renames
// it, the read fails and intake reads `strides` instead: the same result, slower.
inline constexpr const char* kCupyCContiguous = "_c_contiguous";
// cupy.cuda.Stream._foreign_stream_ref (CuPy 14 on): the foreign stream object a Stream made by
// Stream.from_external holds, None for a stream CuPy made itself. It says whether the Stream
// owns its stream (and so keeps it alive as long as it lives). When CuPy drops or renames it, the
// read fails and such a Stream is taken not to own its stream: numcu then still takes it, but
// memory made on its stream no longer holds the Stream object (as for any stream numcu cannot
// vouch for).
inline constexpr const char* kCupyForeignStreamRef = "_foreign_stream_ref";

}  // namespace numcu::python::foreign
