// Assignment through index arrays, the inverse of the gathers in array_api.cpp:
// numcu._core._scatter(x, indices, values), which numcu.ndarray.__setitem__ uses for
// x[i_0, ..., i_{k-1}] = values and x[mask] = values. Queued on the stream like any other work:
// the host waits for nothing here (a mask's positions, found before, wait for their count).
#include "assign.hpp"

#include <algorithm>
#include <string>

#include "arguments.hpp"
#include "execution.hpp"
#include "intake.hpp"
#include "numcu/errors.hpp"
#include "numcu/indexing.hpp"
#include "pipeline.hpp"
#include "promotion.hpp"

namespace numcu::python {

std::int64_t run_indexed(Call& call, const GatherPlan& p, bool scatter) {
  const Exec& ex = call.exec();
  std::int64_t bad = -1;
  call.run([&] {
    if (ex.gpu) {
      (scatter ? scatter_cuda : gather_cuda)(p, ex.stream);
    } else {
      bad = (scatter ? scatter_cpu : gather_cpu)(p);
    }
  });
  return bad;
}
namespace {

// x[indices[0], ..., indices[k-1]] = values, in place. `indices`: int64 of shape (k, *B), one row
// per leading axis of x, already broadcast together; `values` broadcasts to (*B, *x.shape[k:])
// and is cast to x's dtype (NumPy's unsafe casting of assignment).
void scatter_call(py::handle x_obj, py::handle idx_obj, py::handle values_obj,
                  const DeviceRequest& req) {
  const char* fname = "numcu.ndarray.__setitem__";
  Call call(fname, req);
  call.output(x_obj);
  const Operand& idx = call.array_input(idx_obj);
  const Operand& val = call.array_input(values_obj);
  const char k = dtype_kind(idx.view.dtype);
  if (k != 'i' && k != 'u') {
    throw_type_error(std::string(fname) + ": indices must be integers, not " +
                     dtype_name(idx.view.dtype));
  }
  // x is written where it is: host data is not moved to a GPU and back for this.
  const Exec& ex = call.place(Call::host_data_stays);
  const ArrayView xv = call.out().view;
  // A Python integer the dtype cannot hold is refused, as NumPy's assignment does.
  check_weak_int(val, xv.dtype, fname);
  const int rows = idx.view.ndim == 0 ? 0 : static_cast<int>(idx.view.shape[0]);
  if (idx.view.ndim == 0 || rows < 1 || rows > xv.ndim || rows > kMaxIndexArrays) {
    throw_value_error(std::string(fname) + ": between 1 and " +
                      std::to_string(std::min(xv.ndim, kMaxIndexArrays)) +
                      " index arrays are supported");
  }
  // The assigned block's shape: the indices' broadcast shape, then x's dimensions past them.
  std::int64_t shape[kMaxDims];
  int ndim = 0;
  const int batch = idx.view.ndim - 1;
  if (batch + xv.ndim - rows > kMaxGatherDims || batch + xv.ndim - rows > kMaxDims) {
    throw_value_error(std::string(fname) + ": at most " + std::to_string(kMaxGatherDims) +
                      " dimensions are supported");
  }
  for (int e = 1; e < idx.view.ndim; ++e) shape[ndim++] = idx.view.shape[e];
  for (int d = rows; d < xv.ndim; ++d) shape[ndim++] = xv.shape[d];

  // The values, broadcast to the block (NumPy's rule: aligned at the right).
  const ArrayView given = call.prepare(val, xv.dtype);
  if (given.ndim > ndim) {
    // NumPy drops leading dimensions of size 1 from the values.
    for (int d = 0; d < given.ndim - ndim; ++d) {
      if (given.shape[d] != 1) {
        throw_value_error(std::string(fname) + ": values of shape " +
                          shape_str(val.view.shape, val.view.ndim) +
                          " could not be broadcast to the indexed shape " + shape_str(shape, ndim));
      }
    }
  }
  ArrayView spread = given;
  spread.ndim = ndim;
  for (int d = 0; d < ndim; ++d) {
    const int g = d - (ndim - given.ndim);
    const std::int64_t n = g >= 0 ? given.shape[g] : 1;
    if (n != shape[d] && n != 1) {
      throw_value_error(std::string(fname) + ": values of shape " +
                        shape_str(val.view.shape, val.view.ndim) +
                        " could not be broadcast to the indexed shape " + shape_str(shape, ndim));
    }
    spread.shape[d] = shape[d];
    spread.strides[d] = g >= 0 && n != 1 ? given.strides[g] : 0;
  }
  // Dense values the kernel reads while it writes x: a copy, unless they are dense already and
  // apart from x's memory.
  ArrayView values = spread;
  if (!spread.is_c_contiguous() || overlap(xv, spread) != Overlap::none) {
    values = call.scratch_view(xv.dtype, ndim, shape, nullptr);
    run_cast(ex, values, spread, fname);
  }
  const ArrayView iv = call.unaliased(xv, call.prepare(idx, DType::int64), false);

  GatherPlan p;
  p.itemsize = itemsize(xv.dtype);
  p.x = xv.data;
  p.out = values.data;
  p.arrays = rows;
  p.ndim = ndim;
  std::copy(shape, shape + ndim, p.shape);
  for (int e = 1; e < iv.ndim; ++e) {
    for (int j = 0; j < rows; ++j) p.index_strides[j][e - 1] = iv.strides[e];
  }
  for (int d = rows; d < xv.ndim; ++d) p.x_strides[batch + d - rows] = xv.strides[d];
  p.n = 1;
  for (int d = 0; d < ndim; ++d) p.n *= shape[d];
  for (int j = 0; j < rows; ++j) {
    p.index[j] = reinterpret_cast<const std::int64_t*>(iv.data + j * iv.strides[0]);
    p.extent[j] = xv.shape[j];
    p.axis_strides[j] = xv.strides[j];
    if (p.extent[j] == 0 && p.n > 0) {
      throw py::index_error(std::string(fname) + ": index out of bounds for an axis of size 0");
    }
  }
  const std::int64_t bad = run_indexed(call, p, true);
  call.finish();
  if (bad >= 0) {
    throw py::index_error(std::string(fname) + ": an index is out of bounds (at element " +
                          std::to_string(bad) + " of the assigned values)");
  }
}

}  // namespace

void bind_assign(py::module_& m) {
  m.def(
      "_scatter",
      [](py::handle x, py::handle indices, py::handle values, py::handle stream) {
        scatter_call(
            x, indices, values,
            parse_device(py::none(), py::none(), py::none(), "numcu.ndarray.__setitem__", stream));
      },
      py::arg("x"), py::arg("indices"), py::arg("values"), py::arg("stream") = py::none(),
      "x[i_0, ..., i_{k-1}] = values in place, for an int64 array `indices` of shape (k, ...): one "
      "row of broadcast indices per leading axis of x (the inverse of _gather). `values` "
      "broadcasts to the indexed shape and is cast to x's dtype. Where positions repeat, one of "
      "their values lands (on the GPU, any). Out-of-bounds indices raise IndexError on the CPU, "
      "where nothing is written then; on the GPU they write the nearest element.");
}

}  // namespace numcu::python
