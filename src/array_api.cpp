// The Array API standard's operations that need kernels of their own (sort, argsort, unique,
// searchsorted, nonzero, take, take_along_axis, integer-array indexing, matmul), on the call
// pipeline, and the compositions numcu's Python layer registers (array_api.hpp).
//
// nonzero and unique make arrays whose size depends on the data: on the GPU they wait for the
// count (one small copy to the host), as CuPy's do. Every other function here queues its work
// and returns.
#include "array_api.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "assign.hpp"
#include "blas.hpp"
#include "execution.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/indexing.hpp"
#include "numcu/runtime.hpp"
#include "numcu/sorting.hpp"
#include "pipeline.hpp"

namespace numcu::python {

namespace {

constexpr const char* kCompositionNames[] = {"getitem",         "setitem",
                                             "full_from_array", "full_like_from_array",
                                             "asarray_nested",  "unique_complex"};
constexpr int kCompositions = sizeof(kCompositionNames) / sizeof(kCompositionNames[0]);

// Held for the life of the process (registered once, at numcu's import).
PyObject* g_compositions[kCompositions] = {};

void register_composition(const std::string& name, py::object fn) {
  for (int i = 0; i < kCompositions; ++i) {
    if (name == kCompositionNames[i]) {
      Py_XDECREF(g_compositions[i]);
      g_compositions[i] = fn.release().ptr();
      return;
    }
  }
  throw py::value_error("numcu._core._register_composition: no composition named " + name);
}

}  // namespace

py::handle composition(Composition which) {
  const int i = static_cast<int>(which);
  if (g_compositions[i] == nullptr) {
    throw py::type_error(std::string("numcu: ") + kCompositionNames[i] +
                         " is composed in numcu's Python layer, which has not registered it "
                         "(import numcu first)");
  }
  return g_compositions[i];
}

namespace {

// `v` with axis `axis` moved to the end.
ArrayView axis_last(const ArrayView& v, int axis) {
  ArrayView r = v;
  int k = 0;
  for (int d = 0; d < v.ndim; ++d) {
    if (d == axis) continue;
    r.shape[k] = v.shape[d];
    r.strides[k++] = v.strides[d];
  }
  r.shape[k] = v.shape[axis];
  r.strides[k] = v.strides[axis];
  return r;
}

// `v` (on the backend) as a dense C-ordered array, copied when it is not one.
ArrayView dense(Call& call, const ArrayView& v) {
  if (v.is_c_contiguous()) return v;
  const ArrayView d = call.scratch_view(v.dtype, v.ndim, v.shape, nullptr);
  run_cast(call.exec(), d, v, call.fname());
  return d;
}

ArrayView flat(ArrayView v) {
  const std::int64_t n = v.size();
  v.ndim = 1;
  v.shape[0] = n;
  v.strides[0] = itemsize(v.dtype);
  return v;
}

void check_sortable(DType dtype, const char* fname) {
  if (!sorting::sortable(dtype)) {
    throw_type_error(std::string(fname) + ": complex numbers have no order to sort by (dtype " +
                     dtype_name(dtype) + ")");
  }
}

// Results beyond the pipeline's one destination (unique's four, nonzero's): device arrays for
// device inputs; else NumPy arrays, which the GPU's results are copied into at the end.
class Results {
 public:
  explicit Results(Call& call) : call_(call) {}
  ArrayView add(DType dtype, int ndim, const std::int64_t* shape) {
    const Exec& ex = call_.exec();
    Item it;
    if (ex.gpu && call_.device_input()) {
      NdArray a = NdArray::empty(dtype, ndim, shape, ex.device, ex.stream);
      it.kernel = a.view();
      it.allocation = a.allocation();
      it.object = py::cast(std::move(a));
    } else {
      std::int64_t strides[kMaxDims];
      dense_strides(dtype, ndim, shape, nullptr, strides);
      it.object = numpy_empty(dtype, ndim, shape, strides);
      ArrayView host;
      host.dtype = dtype;
      host.ndim = ndim;
      std::copy(shape, shape + ndim, host.shape);
      std::copy(strides, strides + ndim, host.strides);
      host.data = static_cast<char*>(py::array(it.object).mutable_data());
      if (ex.gpu) {
        it.kernel = call_.scratch_view(dtype, ndim, shape, nullptr);
        it.host = host;
        it.download = true;
      } else {
        it.kernel = host;
      }
    }
    items_.push_back(std::move(it));
    return items_.back().kernel;
  }
  py::object object(int i) const { return items_[i].object; }
  // Downloads (the host waits for them) and streams handed back; call without the GIL.
  void finish() {
    const Exec& ex = call_.exec();
    if (!ex.gpu) return;
    bool waits = false;
    for (const Item& it : items_) {
      if (it.download) {
        const auto bytes = static_cast<std::size_t>(it.kernel.size()) * itemsize(it.kernel.dtype);
        if (bytes > 0) cuda::copy_async(it.host.data, it.kernel.data, bytes, ex.stream);
        waits = true;
      } else if (it.allocation && it.allocation->stream() != ex.stream) {
        cuda::stream_wait(it.allocation->stream(), ex.stream);
      }
    }
    if (waits) cuda::synchronize(ex.stream);
  }

 private:
  struct Item {
    ArrayView kernel, host;
    bool download = false;
    py::object object;
    std::shared_ptr<DeviceAllocation> allocation;
  };
  Call& call_;
  std::vector<Item> items_;
};

// The last element of an int64 array on the backend, read by the host (on the GPU: a copy and a
// wait, the one synchronisation of nonzero and unique).
std::int64_t read_last(const Exec& ex, const std::int64_t* pos, std::int64_t n) {
  if (n == 0) return 0;
  if (!ex.gpu) return pos[n - 1];
  std::int64_t v = 0;
  cuda::copy_async(&v, pos + (n - 1), sizeof v, ex.stream);
  cuda::synchronize(ex.stream);
  return v;
}

// ---------------------------------------------------------------------------------------------
// sort, argsort

py::object sort_call(bool indices, py::handle obj, py::handle axis_obj, bool descending,
                     const DeviceRequest& req) {
  const char* fname = indices ? "numcu.argsort" : "numcu.sort";
  Call call(fname, req);
  const Operand& x = call.array_input(obj);
  const DType dt = x.view.dtype;
  check_sortable(dt, fname);
  const bool flatten = axis_obj.is_none();
  const int axis = flatten ? 0 : normalize_axis(axis_obj, x.view.ndim, fname);
  const Exec& ex = call.place();
  ArrayView in = call.prepare(x, dt);
  if (flatten) in = flat(dense(call, in));
  const ArrayView moved = dense(call, axis_last(in, axis));
  const DType rdt = indices ? DType::int64 : dt;
  const ArrayView& dest = call.destination(rdt, in.ndim, in.shape, nullptr);
  const ArrayView res = call.target(axis_last(dest, axis), rdt, true);
  SortParams p;
  p.dtype = dt;
  p.len = in.ndim == 0 ? 1 : in.shape[axis];
  p.rows = p.len == 0 ? 0 : in.size() / p.len;
  p.descending = descending;
  call.run([&] {
    if (ex.gpu) {
      if (indices) {
        argsort_cuda(p, moved.data, reinterpret_cast<std::int64_t*>(res.data), ex.stream);
      } else {
        sort_cuda(p, moved.data, res.data, ex.stream);
      }
    } else if (indices) {
      argsort_cpu(p, moved.data, reinterpret_cast<std::int64_t*>(res.data));
    } else {
      sort_cpu(p, moved.data, res.data);
    }
  });
  return call.finish(true);
}

// ---------------------------------------------------------------------------------------------
// unique: (values, indices, inverse, counts), None for those not asked for

py::tuple unique_call(py::handle obj, bool want_values, bool want_indices, bool want_inverse,
                      bool want_counts, bool nan_distinct, py::handle device, py::handle stream) {
  const char* fname = "numcu.unique";
  Call call(fname, parse_device(device, py::none(), py::none(), fname, stream));
  const Operand& x = call.array_input(obj);
  const DType dt = x.view.dtype;
  if (!sorting::sortable(dt)) {
    // Complex numbers have no sort keys: NumPy's order is composed from argsorts of the parts.
    return composition(Composition::unique_complex)(obj, want_values, want_indices, want_inverse,
                                                    want_counts, nan_distinct, device, stream)
        .cast<py::tuple>();
  }
  const Exec& ex = call.place();
  const ArrayView in = flat(dense(call, call.prepare(x, dt)));
  const std::int64_t n = in.size();
  // Positions only where indices or inverse need them; else a sort of the elements alone.
  const bool positions = want_indices || want_inverse;
  if (ex.gpu && want_values && !positions && !want_counts &&
      (dtype_kind(dt) != 'f' || !nan_distinct)) {
    // The distinct values alone (unique_values of integers): one of each sorted key is kept
    // by CUB's select, without the int64 running count the general route needs.
    const std::int64_t room = n * unique_key_bytes(dt);
    const ArrayView keys = call.scratch_view(DType::uint8, 1, &room, nullptr);
    const std::int64_t one = 1;
    const ArrayView found = call.scratch_view(DType::int64, 1, &one, nullptr);
    auto* found_p = reinterpret_cast<std::int64_t*>(found.data);
    std::int64_t count = 0;
    {
      py::gil_scoped_release release;
      unique_distinct_cuda(dt, n, in.data, keys.data, found_p, ex.stream);
      count = read_last(ex, found_p, 1);
    }
    Results results(call);
    void* values = results.add(dt, 1, &count).data;
    {
      py::gil_scoped_release release;
      unique_distinct_fill_cuda(dt, count, keys.data, values, ex.stream);
      results.finish();
    }
    call.finish(true);
    py::tuple t(4);
    t[0] = results.object(0);
    for (int i = 1; i < 4; ++i) t[i] = py::none();
    return t;
  }
  const ArrayView perm = call.scratch_view(positions ? DType::int64 : dt, 1, &n, nullptr);
  const ArrayView pos = call.scratch_view(DType::int64, 1, &n, nullptr);
  auto* perm_p = positions ? reinterpret_cast<std::int64_t*>(perm.data) : nullptr;
  void* sorted = positions ? nullptr : perm.data;
  auto* pos_p = reinterpret_cast<std::int64_t*>(pos.data);
  std::int64_t count = 0;
  {
    py::gil_scoped_release release;
    if (ex.gpu) {
      unique_sort_cuda(dt, n, in.data, nan_distinct, perm_p, sorted, pos_p, ex.stream);
    } else {
      unique_sort_cpu(dt, n, in.data, nan_distinct, perm_p, sorted, pos_p);
    }
    count = read_last(ex, pos_p, n);
  }
  Results results(call);
  UniqueOutputs out;
  int slot[4] = {-1, -1, -1, -1};
  int made = 0;
  if (want_values) {
    out.values = results.add(dt, 1, &count).data;
    slot[0] = made++;
  }
  if (want_indices) {
    out.indices = reinterpret_cast<std::int64_t*>(results.add(DType::int64, 1, &count).data);
    slot[1] = made++;
  }
  if (want_inverse) {
    out.inverse =
        reinterpret_cast<std::int64_t*>(results.add(DType::int64, x.view.ndim, x.view.shape).data);
    slot[2] = made++;
  }
  if (want_counts) {
    out.counts = reinterpret_cast<std::int64_t*>(results.add(DType::int64, 1, &count).data);
    slot[3] = made++;
  }
  {
    py::gil_scoped_release release;
    if (ex.gpu) {
      unique_fill_cuda(dt, n, count, in.data, perm_p, sorted, pos_p, out, ex.stream);
    } else {
      unique_fill_cpu(dt, n, count, in.data, perm_p, sorted, pos_p, out);
    }
    results.finish();
  }
  call.finish(true);
  py::tuple t(4);
  for (int i = 0; i < 4; ++i) t[i] = slot[i] < 0 ? py::none() : results.object(slot[i]);
  return t;
}

// ---------------------------------------------------------------------------------------------
// searchsorted

py::object searchsorted_call(py::handle x1_obj, py::handle x2_obj, py::handle side,
                             const DeviceRequest& req) {
  const char* fname = "numcu.searchsorted";
  const std::string s = py::str(side).cast<std::string>();
  if (s != "left" && s != "right") {
    throw_value_error(std::string(fname) + ": side must be 'left' or 'right', not " +
                      py::repr(side).cast<std::string>());
  }
  Call call(fname, req);
  const Operand& x1 = call.array_input(x1_obj);
  const Operand& x2 = call.array_input(x2_obj);
  if (x1.view.ndim != 1) {
    throw_value_error(std::string(fname) + ": x1 must be one-dimensional, not of shape " +
                      shape_str(x1.view.shape, x1.view.ndim));
  }
  const DType dt = promote_types(x1.view.dtype, x2.view.dtype);
  check_sortable(dt, fname);
  const Exec& ex = call.place();
  const ArrayView hay = dense(call, call.prepare(x1, dt));
  const ArrayView needles = dense(call, call.prepare(x2, dt));
  const ArrayView& dest = call.destination(DType::int64, needles.ndim, needles.shape, nullptr);
  const ArrayView res = call.target(dest, DType::int64, true);
  const bool right = s == "right";
  call.run([&] {
    auto* out = reinterpret_cast<std::int64_t*>(res.data);
    if (ex.gpu) {
      searchsorted_cuda(dt, hay.size(), hay.data, needles.size(), needles.data, right, out,
                        ex.stream);
    } else {
      searchsorted_cpu(dt, hay.size(), hay.data, needles.size(), needles.data, right, out);
    }
  });
  return call.finish(true);
}

// ---------------------------------------------------------------------------------------------
// nonzero: one (ndim, count) int64 array, whose rows Python hands out

py::object nonzero_call(py::handle obj, const DeviceRequest& req) {
  const char* fname = "numcu.nonzero";
  Call call(fname, req);
  const Operand& x = call.array_input(obj);
  if (x.view.ndim == 0) {
    throw_value_error(std::string(fname) +
                      ": a 0-d array has no positions; use atleast_1d or expand_dims first");
  }
  if (x.view.ndim > kMaxGatherDims) {
    throw_value_error(std::string(fname) + ": at most " + std::to_string(kMaxGatherDims) +
                      " dimensions are supported");
  }
  const Exec& ex = call.place();
  const ArrayView in = call.prepare(x, x.view.dtype);
  // Non-zero as NumPy's bool conversion sees it (complex: either part), on the backend.
  ArrayView mask = call.scratch_view(DType::bool_, in.ndim, in.shape, nullptr);
  run_cast(ex, mask, in, fname);
  const std::int64_t n = in.size();
  const ArrayView pos = call.scratch_view(DType::int64, 1, &n, nullptr);
  auto* pos_p = reinterpret_cast<std::int64_t*>(pos.data);
  const auto* mask_p = reinterpret_cast<const bool*>(mask.data);
  std::int64_t count = 0;
  {
    py::gil_scoped_release release;
    if (ex.gpu) {
      count_true_cuda(n, mask_p, pos_p, ex.stream);
    } else {
      count_true_cpu(n, mask_p, pos_p);
    }
    count = read_last(ex, pos_p, n);
  }
  Results results(call);
  const std::int64_t shape[2] = {in.ndim, count};
  const ArrayView out = results.add(DType::int64, 2, shape);
  NonzeroPlan p;
  p.ndim = in.ndim;
  std::copy(in.shape, in.shape + in.ndim, p.shape);
  p.n = n;
  p.count = count;
  {
    py::gil_scoped_release release;
    auto* o = reinterpret_cast<std::int64_t*>(out.data);
    if (ex.gpu) {
      nonzero_cuda(p, mask_p, pos_p, o, ex.stream);
    } else {
      nonzero_cpu(p, mask_p, pos_p, o);
    }
    results.finish();
  }
  call.finish(true);
  return results.object(0);
}

// ---------------------------------------------------------------------------------------------
// Gathers

enum class GatherKind { take, along, nd };

void check_index_dtype(DType d, const char* fname) {
  const char k = dtype_kind(d);
  if (k != 'i' && k != 'u') {
    throw_type_error(std::string(fname) + ": indices must be integers, not " + dtype_name(d));
  }
}

py::object gather_call(GatherKind kind, py::handle x_obj, py::handle idx_obj, py::handle axis_obj,
                       const DeviceRequest& req) {
  const char* fname = kind == GatherKind::take    ? "numcu.take"
                      : kind == GatherKind::along ? "numcu.take_along_axis"
                                                  : "numcu.ndarray.__getitem__";
  Call call(fname, req);
  const Operand& x = call.array_input(x_obj);
  const Operand& idx = call.array_input(idx_obj);
  check_index_dtype(idx.view.dtype, fname);
  call.place();
  ArrayView xv = call.prepare(x, x.view.dtype);
  const ArrayView iv = call.prepare(idx, DType::int64);
  GatherPlan p;
  p.itemsize = itemsize(xv.dtype);
  p.x = xv.data;
  p.arrays = 1;
  p.index[0] = reinterpret_cast<const std::int64_t*>(iv.data);
  std::int64_t shape[kMaxDims];
  int ndim = 0;
  auto too_many = [&] {
    throw_value_error(std::string(fname) + ": at most " + std::to_string(kMaxGatherDims) +
                      " dimensions are supported");
  };
  if (kind == GatherKind::take) {
    if (axis_obj.is_none()) {
      xv = flat(dense(call, xv));
      p.x = xv.data;  // a strided x was copied dense
    }
    if (xv.ndim == 0) axis_error(fname, 0, 0);
    const int axis = axis_obj.is_none() ? 0 : normalize_axis(axis_obj, xv.ndim, fname);
    if (xv.ndim - 1 + iv.ndim > kMaxGatherDims) too_many();
    for (int d = 0; d < xv.ndim; ++d) {
      if (d == axis) {
        for (int e = 0; e < iv.ndim; ++e) {
          shape[ndim] = iv.shape[e];
          p.index_strides[0][ndim] = iv.strides[e];
          p.x_strides[ndim++] = 0;
        }
      } else {
        shape[ndim] = xv.shape[d];
        p.x_strides[ndim++] = xv.strides[d];
      }
    }
    p.extent[0] = xv.shape[axis];
    p.axis_strides[0] = xv.strides[axis];
  } else if (kind == GatherKind::along) {
    if (xv.ndim == 0) axis_error(fname, 0, 0);
    const int axis = normalize_axis(axis_obj, xv.ndim, fname);
    if (iv.ndim != xv.ndim) {
      throw_value_error(std::string(fname) + ": indices must have as many dimensions as x (" +
                        std::to_string(xv.ndim) + "), not " + std::to_string(iv.ndim));
    }
    if (xv.ndim > kMaxGatherDims) too_many();
    for (int d = 0; d < xv.ndim; ++d) {
      const std::int64_t a = xv.shape[d], b = iv.shape[d];
      if (d != axis && a != b && a != 1 && b != 1) {
        throw_value_error(std::string(fname) + ": shapes " + shape_str(xv.shape, xv.ndim) +
                          " and " + shape_str(iv.shape, iv.ndim) +
                          " do not broadcast outside the axis");
      }
      shape[ndim] = d == axis ? b : (a == 1 ? b : a);
      p.x_strides[ndim] = d == axis || a == 1 ? 0 : xv.strides[d];
      p.index_strides[0][ndim++] = b == 1 ? 0 : iv.strides[d];
    }
    p.extent[0] = xv.shape[axis];
    p.axis_strides[0] = xv.strides[axis];
  } else {
    // iv: (k, *B), one row per indexed leading axis of x, already broadcast together
    const int k = iv.ndim == 0 ? 0 : static_cast<int>(iv.shape[0]);
    if (iv.ndim == 0 || k < 1 || k > xv.ndim || k > kMaxIndexArrays) {
      throw_value_error(std::string(fname) + ": between 1 and " +
                        std::to_string(std::min(xv.ndim, kMaxIndexArrays)) +
                        " index arrays are supported");
    }
    if (iv.ndim - 1 + xv.ndim - k > kMaxGatherDims) too_many();
    p.arrays = k;
    for (int e = 1; e < iv.ndim; ++e) {
      shape[ndim] = iv.shape[e];
      for (int j = 0; j < k; ++j) p.index_strides[j][ndim] = iv.strides[e];
      p.x_strides[ndim++] = 0;
    }
    for (int d = k; d < xv.ndim; ++d) {
      shape[ndim] = xv.shape[d];
      p.x_strides[ndim++] = xv.strides[d];
    }
    for (int j = 0; j < k; ++j) {
      p.index[j] = reinterpret_cast<const std::int64_t*>(iv.data + j * iv.strides[0]);
      p.extent[j] = xv.shape[j];
      p.axis_strides[j] = xv.strides[j];
    }
  }
  for (int j = 0; j < p.arrays; ++j) {
    if (p.extent[j] == 0) {
      std::int64_t n = 1;
      for (int d = 0; d < ndim; ++d) n *= shape[d];
      if (n > 0) throw py::index_error(std::string(fname) + ": cannot take from an empty axis");
    }
  }
  p.ndim = ndim;
  std::copy(shape, shape + ndim, p.shape);
  p.n = 1;
  for (int d = 0; d < ndim; ++d) p.n *= shape[d];
  const ArrayView& dest = call.destination(xv.dtype, ndim, shape, nullptr);
  const ArrayView res = call.target(dest, xv.dtype, true);
  p.out = res.data;
  const std::int64_t bad = run_indexed(call, p, false);
  if (bad >= 0) {
    throw py::index_error(std::string(fname) + ": an index is out of bounds (at element " +
                          std::to_string(bad) + " of the result)");
  }
  return call.finish(true);
}

// ---------------------------------------------------------------------------------------------
// matmul on the GPU: a (..., m, k) @ b (..., k, n), one dtype, batch dimensions already
// broadcast to one shape (Python does promotion, 1-D operands and broadcasting)

py::object matmul_call(py::handle a_obj, py::handle b_obj, const DeviceRequest& req) {
  const char* fname = "numcu.matmul";
  Call call(fname, req);
  const Operand& a = call.array_input(a_obj);
  const Operand& b = call.array_input(b_obj);
  const ArrayView &av = a.view, &bv = b.view;
  const int nd = av.ndim;
  if (nd < 2 || bv.ndim != nd || av.dtype != bv.dtype ||
      !std::equal(av.shape, av.shape + nd - 2, bv.shape) || av.shape[nd - 1] != bv.shape[nd - 2]) {
    throw_value_error(std::string(fname) + ": operands of shapes " + shape_str(av.shape, nd) +
                      " and " + shape_str(bv.shape, bv.ndim) + " and dtypes " +
                      dtype_name(av.dtype) + ", " + dtype_name(bv.dtype) +
                      " do not make a matrix product");
  }
  const Exec& ex = call.place();
  if (!ex.gpu) throw_value_error(std::string(fname) + ": the CPU path is NumPy's matmul");
  const DType dt = av.dtype;
  ArrayView A = call.prepare(a, dt), B = call.prepare(b, dt);
  std::int64_t shape[kMaxDims];
  std::copy(av.shape, av.shape + nd - 1, shape);
  shape[nd - 1] = bv.shape[nd - 1];
  const ArrayView& dest = call.destination(dt, nd, shape, nullptr);
  const ArrayView C = call.target(dest, dt, true);
  const std::int64_t m = av.shape[nd - 2], k = av.shape[nd - 1], n = bv.shape[nd - 1];
  std::int64_t batch = 1;
  for (int d = 0; d < nd - 2; ++d) batch *= shape[d];
  if (k == 0 || batch == 0 || m == 0 || n == 0) {
    if (C.size() > 0) {
      Operand zero = scalar_operand(py::int_(0), fname);
      run_fill(ex, C, zero, fname);
    }
    call.run([] {});
    return call.finish(true);
  }
  if (dtype_kind(dt) == 'b' || dtype_kind(dt) == 'i' || dtype_kind(dt) == 'u') {
    // The exact kernel walks any strides but one batch stride: batch dimensions made dense.
    if (nd > 3) {
      A = dense(call, A);
      B = dense(call, B);
    }
    MatmulPlan p;
    const int is = itemsize(dt);
    p.batch = batch;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = A.data;
    p.b = B.data;
    p.c = C.data;
    p.a_batch = nd > 2 ? A.strides[nd - 3] / is : 0;
    p.b_batch = nd > 2 ? B.strides[nd - 3] / is : 0;
    p.a_row = A.strides[nd - 2] / is;
    p.a_col = A.strides[nd - 1] / is;
    p.b_row = B.strides[nd - 2] / is;
    p.b_col = B.strides[nd - 1] / is;
    call.run([&] { matmul_exact_cuda(dt, p, ex.stream); });
    return call.finish(true);
  }
  Gemm g = gemm_plan(fname, A, B, C, [&](const ArrayView& v) { return dense(call, v); });
  call.run([&] { run_gemm(g, ex.device, ex.stream, fname); });
  return call.finish(true);
}

// A view of numcu.ndarray `a` with another shape, strides (bytes), byte offset and dtype, inside
// the bytes `a` spans (numcu/_array_api.py's broadcast_to, real, imag, diagonals).
NdArray view_of(const NdArray& a, py::handle shape_obj, py::handle strides_obj, std::int64_t offset,
                py::handle dtype_obj) {
  const char* fname = "numcu._view";
  const ArrayView& v = a.view();
  ArrayView r = v;
  if (!dtype_obj.is_none()) r.dtype = dtype_from_python(dtype_obj, fname);
  const std::vector<std::int64_t> shape = shape_from(shape_obj, fname);
  const std::vector<std::int64_t> strides = shape_from(strides_obj, fname);
  if (shape.size() != strides.size()) throw_value_error(std::string(fname) + ": ranks differ");
  r.ndim = static_cast<int>(shape.size());
  std::copy(shape.begin(), shape.end(), r.shape);
  std::copy(strides.begin(), strides.end(), r.strides);
  r.data = v.data + offset;
  const ByteSpan outer = byte_span(v), inner = byte_span(r);
  for (auto e : shape) {
    if (e < 0) throw_value_error(std::string(fname) + ": negative extent");
  }
  if (r.size() > 0 &&
      (v.size() == 0 || offset + inner.lo < outer.lo || offset + inner.hi > outer.hi)) {
    throw_value_error(std::string(fname) + ": the view reaches outside the array");
  }
  return a.with_view(r);
}

}  // namespace

namespace {

// Whether `key` holds only integers, slices, None and Ellipsis (a view, done in C++).
bool basic_key(py::handle key) {
  auto basic = [](py::handle k) {
    PyObject* o = k.ptr();
    return o == Py_None || o == Py_Ellipsis || PySlice_Check(o) ||
           (PyLong_Check(o) && !PyBool_Check(o));
  };
  if (!PyTuple_Check(key.ptr())) return basic(key);
  for (py::handle k : key) {
    if (!basic(k)) return false;
  }
  return true;
}

}  // namespace

py::object advanced_getitem(py::handle a, py::handle key) {
  if (basic_key(key)) return py::object();
  return composition(Composition::getitem)(a, key);
}

bool advanced_setitem(py::handle a, py::handle key, py::handle value) {
  if (basic_key(key)) return false;
  composition(Composition::setitem)(a, key, value);
  return true;
}

void bind_array_api(py::module_& m) {
  auto req = [](py::handle device, py::handle stream, const char* fname) {
    return parse_device(device, py::none(), py::none(), fname, stream);
  };
  const char* kWhere =
      "\ndevice, stream :\n    Where to compute and the CUDA stream to queue on, as for "
      "numcu.add.\n";
  // sort and argsort: one signature, the flag for indices apart.
  auto def_sort = [&](const char* name, const char* fname, bool indices, const char* doc) {
    m.def(
        name,
        [req, indices, fname](py::handle x, py::handle axis, bool descending, bool,
                              py::handle device, py::handle stream) {
          return sort_call(indices, x, axis, descending, req(device, stream, fname));
        },
        py::arg("x"), py::pos_only(), py::kw_only(), py::arg("axis") = -1,
        py::arg("descending") = false, py::arg("stable") = true, py::arg("device") = py::none(),
        py::arg("stream") = py::none(), (std::string(doc) + kWhere).c_str());
  };
  def_sort("sort", "numcu.sort", false,
           "The elements of `x` sorted along `axis` (None: flattened), ascending unless "
           "`descending`. NaNs sort last (first when descending), as NumPy sorts them. "
           "Every real dtype; complex raises TypeError. CUB's radix sort on the GPU.\n");
  def_sort("argsort", "numcu.argsort", true,
           "int64 indices that sort `x` along `axis` (None: flattened); always stable "
           "(equal elements keep their order, also when `descending`; -0.0 equals 0.0 "
           "and NaNs equal each other and sort last).\n");
  m.def(
      "_unique",
      [](py::handle x, bool values, bool indices, bool inverse, bool counts, bool nan_distinct,
         py::handle device, py::handle stream) {
        return unique_call(x, values, indices, inverse, counts, nan_distinct, device, stream);
      },
      py::arg("x"), py::arg("values"), py::arg("indices"), py::arg("inverse"), py::arg("counts"),
      py::arg("nan_distinct") = true, py::arg("device") = py::none(),
      py::arg("stream") = py::none(),
      "(values, indices, inverse, counts) of x's distinct elements, None where not asked for. "
      "On the GPU this waits for the number of distinct elements.");
  m.def(
      "searchsorted",
      [req](py::handle x1, py::handle x2, py::handle side, py::handle sorter, py::handle device,
            py::handle stream) {
        const DeviceRequest r = req(device, stream, "numcu.searchsorted");
        if (!sorter.is_none()) {
          // x1 in sorted order first: x1[sorter], on the call's device and stream.
          const py::object sorted = gather_call(GatherKind::take, x1, sorter, py::none(), r);
          return searchsorted_call(sorted, x2, side, r);
        }
        return searchsorted_call(x1, x2, side, r);
      },
      py::arg("x1"), py::arg("x2"), py::pos_only(), py::kw_only(), py::arg("side") = "left",
      py::arg("sorter") = py::none(), py::arg("device") = py::none(),
      py::arg("stream") = py::none(),
      (std::string("int64 insertion points of `x2`'s elements into the sorted 1-D `x1` "
                   "(`sorter`: indices that sort it) keeping it sorted: before equal elements "
                   "(side='left') or after them ('right'). NaNs order last.\n") +
       kWhere)
          .c_str());
  m.def(
      "_nonzero",
      [req](py::handle x, py::handle device, py::handle stream) {
        return nonzero_call(x, req(device, stream, "numcu.nonzero"));
      },
      py::arg("x"), py::arg("device") = py::none(), py::arg("stream") = py::none(),
      "An (ndim, count) int64 array of the positions of x's non-zero elements. On the GPU this "
      "waits for the count.");
  m.def(
      "take",
      [req](py::handle x, py::handle indices, py::handle axis, py::handle device,
            py::handle stream) {
        return gather_call(GatherKind::take, x, indices, axis, req(device, stream, "numcu.take"));
      },
      py::arg("x"), py::arg("indices"), py::pos_only(), py::kw_only(), py::arg("axis") = py::none(),
      py::arg("device") = py::none(), py::arg("stream") = py::none(),
      (std::string("Elements of `x` at `indices` (integers, negative ones count from the end) "
                   "along `axis` (None: of the flattened array). Out-of-bounds indices raise "
                   "IndexError on the CPU; on the GPU, which the host does not wait for, they "
                   "read the nearest element.\n") +
       kWhere)
          .c_str());
  m.def(
      "take_along_axis",
      [req](py::handle x, py::handle indices, py::handle axis, py::handle device,
            py::handle stream) {
        return gather_call(GatherKind::along, x, indices, axis,
                           req(device, stream, "numcu.take_along_axis"));
      },
      py::arg("x"), py::arg("indices"), py::pos_only(), py::kw_only(), py::arg("axis") = -1,
      py::arg("device") = py::none(), py::arg("stream") = py::none(),
      (std::string("x's elements at `indices` along `axis` (indices has x's number of "
                   "dimensions and broadcasts with it elsewhere), as argsort's result picks "
                   "sorted values. Out-of-bounds indices as in numcu.take.\n") +
       kWhere)
          .c_str());
  m.def(
      "_gather",
      [req](py::handle x, py::handle indices, py::handle device, py::handle stream) {
        return gather_call(GatherKind::nd, x, indices, py::none(),
                           req(device, stream, "numcu.ndarray.__getitem__"));
      },
      py::arg("x"), py::arg("indices"), py::arg("device") = py::none(),
      py::arg("stream") = py::none(),
      "x[i_0, ..., i_{k-1}] for an int64 array `indices` of shape (k, ...): one row of "
      "broadcast indices per leading axis of x.");
  m.def(
      "_matmul",
      [req](py::handle a, py::handle b, py::handle device, py::handle stream) {
        return matmul_call(a, b, req(device, stream, "numcu.matmul"));
      },
      py::arg("a"), py::arg("b"), py::arg("device") = py::none(), py::arg("stream") = py::none(),
      "a @ b on the GPU for operands of one dtype and broadcast batch dimensions: cuBLAS for "
      "floating and complex dtypes (loaded at first use), a kernel of numcu's for integers.");
  m.def("_view", &view_of, py::arg("a"), py::arg("shape"), py::arg("strides"),
        py::arg("offset") = 0, py::arg("dtype") = py::none(),
        "A view of `a` with another shape, byte strides, byte offset and dtype, inside a's "
        "bytes.");
  m.def("_cublas_path", &cublas_path,
        "The cuBLAS library numcu loaded (loading it now if it can), or raises.");

  m.def("_register_composition", &register_composition, py::arg("name"), py::arg("fn"),
        "Registers a composition numcu's Python layer makes for the compiled module (once, at "
        "import): getitem, setitem, full_from_array, full_like_from_array, asarray_nested or "
        "unique_complex.");
}

}  // namespace numcu::python
