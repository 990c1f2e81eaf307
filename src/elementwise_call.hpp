// The elementwise operations on the call pipeline (pipeline.hpp): ufuncs, where and clip, and
// casts. What is theirs: NumPy's loop search over NEP 50 promotion, broadcasting, and Python
// scalars passed to the kernels by value.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "arguments.hpp"
#include "intake.hpp"
#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"
#include "numcu/ops.hpp"
#include "promotion.hpp"

namespace numcu::python {

namespace py = pybind11;

// out = op(inputs...) with NumPy's semantics: intake, dtypes (NEP 50 promotion, then the
// ufunc's loop), broadcasting, placement, input casts, one kernel, and the result back.
py::object ufunc_call(Ufunc op, std::initializer_list<py::handle> inputs, py::handle out,
                      const DeviceRequest& request, const OpParams& params = {});

// numcu.astype: `obj` converted to `dtype` (any pair of dtypes, unsafe casting as NumPy's
// astype), on the side where it is: a NumPy array for host data, a numcu.ndarray for device data.
py::object astype(py::handle obj, py::handle dtype, const DeviceRequest& request);

class Call;

// A broadcast shape, built up operand by operand.
struct Shape {
  int ndim = 0;
  std::int64_t dims[kMaxDims];  // the first ndim set
};

// acc broadcast with v's shape, in place; false where they do not broadcast.
inline bool broadcast_into(Shape& acc, const ArrayView& v) {
  const int nd = std::max(acc.ndim, v.ndim);
  const int shift_a = nd - acc.ndim, shift_v = nd - v.ndim;
  // Last dimension first: acc's dimensions move right, each read before it is overwritten.
  for (int d = nd - 1; d >= 0; --d) {
    const std::int64_t ea = d >= shift_a ? acc.dims[d - shift_a] : 1;
    const std::int64_t ev = d >= shift_v ? v.shape[d - shift_v] : 1;
    if (ea != ev && ea != 1 && ev != 1) return false;
    acc.dims[d] = ea == 1 ? ev : ea;
  }
  acc.ndim = nd;
  return true;
}

// `x` (on the call's backend) with every NaN, and every complex number with a NaN part, replaced
// by `value`, in x's dtype: what NumPy's nan-functions reduce when dtype= converts the input to
// a dtype that cannot hold NaN.
ArrayView nan_replaced(::numcu::python::Call& call, const ArrayView& x, double value);

// dst = src (with a dtype conversion where they differ), both on the GPU, queued on `stream`.
void copy_into(const ArrayView& dst, const ArrayView& src, Stream stream, const char* fname);

}  // namespace numcu::python
