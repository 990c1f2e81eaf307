#include "pipeline.hpp"

#include <pybind11/numpy.h>

#include <algorithm>

#include "ndarray.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {

Operand& Call::array_input(py::handle obj) {
  Operand& x = input(obj);
  if (x.kind == Operand::Kind::scalar) {
    x.kind = Operand::Kind::host;
    x.view.data = reinterpret_cast<char*>(x.value);
    x.view.ndim = 0;
    x.view.device = kHost;
  }
  return x;
}

bool Call::device_input() const {
  for (int i = 0; i < nin_; ++i) {
    if (in_[i].kind == Operand::Kind::device) return true;
  }
  return false;
}

const Exec& Call::place(unsigned options) {
  const Operand* all[kMaxInputs + 1] = {};
  for (int i = 0; i < nin_; ++i) all[i] = &in_[i];
  all[nin_] = has_out_ ? &out_ : nullptr;
  DeviceRequest req = req_;
  if ((options & host_data_stays) && req.kind == DeviceRequest::Kind::automatic &&
      !device_input() && !(has_out_ && out_.kind == Operand::Kind::device)) {
    req.kind = DeviceRequest::Kind::cpu;
  }
  ex_ = python::place(fname_, all, nin_ + 1, req, (options & no_prefetch) == 0);
  if (ex_.gpu) cuda::activate(ex_.device);
  if (has_out_ && out_.has_producer_stream) cuda::stream_wait(ex_.stream, out_.producer_stream);
  return ex_;
}

const ArrayView& Call::destination(DType dtype, int ndim, const std::int64_t* shape,
                                   const ArrayView* like) {
  if (has_out_) {
    result_ = py::reinterpret_borrow<py::object>(out_obj_);
    dest_ = out_.view;
  } else if (ex_.gpu && device_input()) {
    NdArray a = NdArray::empty(dtype, ndim, shape, ex_.device, ex_.stream, like);
    dest_ = a.view();
    result_ = py::cast(std::move(a));
    dest_is_ndarray_ = true;
  } else {
    std::int64_t strides[kMaxDims];
    dense_strides(dtype, ndim, shape, like, strides);
    result_ = numpy_empty(dtype, ndim, shape, strides);
    dest_ = ArrayView{};
    dest_.dtype = dtype;
    dest_.ndim = ndim;
    std::copy(shape, shape + ndim, dest_.shape);
    std::copy(strides, strides + ndim, dest_.strides);
    dest_.data = static_cast<char*>(py::array(result_).mutable_data());
  }
  return dest_;
}

ArrayView Call::target(const ArrayView& dest, DType loop_dtype, bool need_dense) {
  const bool same_side = ex_.gpu == (dest.device != kHost);
  if (same_side && dest.dtype == loop_dtype && (!need_dense || dest.is_c_contiguous())) {
    return dest;
  }
  // A kernel that needs a dense target writes C order, whatever the destination's order.
  const ArrayView res =
      dense_view(scratch_, ex_, loop_dtype, dest.ndim, dest.shape, need_dense ? nullptr : &dest);
  pending_dest_ = dest;
  pending_res_ = res;
  pending_ = true;
  return res;
}

ArrayView Call::prepare(const Operand& x, DType dtype) {
  ArrayView v = x.view;
  if (ex_.gpu && x.kind == Operand::Kind::host) v = upload(scratch_, ex_, v);
  if (x.has_producer_stream) cuda::stream_wait(ex_.stream, x.producer_stream);
  if (v.dtype != dtype) {
    const ArrayView cast = dense_view(scratch_, ex_, dtype, v.ndim, v.shape, &v);
    run_cast(ex_, cast, v, fname_);
    v = cast;
  }
  return v;
}

void Call::move_results() {
  if (pending_) {
    const ArrayView& dest = pending_dest_;
    const ArrayView& res = pending_res_;
    if (ex_.gpu && dest.device == kHost) {
      // The scratch result has the destination's layout when that is dense, so it comes down
      // in one copy; otherwise through a host buffer and a host-side cast.
      const ByteSpan span = byte_span(res);
      const auto bytes = static_cast<std::size_t>(span.hi - span.lo);
      if (dest.dtype == res.dtype && is_dense(dest) &&
          std::equal(dest.strides, dest.strides + dest.ndim, res.strides)) {
        cuda::copy_async(dest.data + byte_span(dest).lo, res.data + span.lo, bytes, ex_.stream);
        cuda::synchronize(ex_.stream);
      } else {
        char* host = scratch_.allocate_host(bytes);
        cuda::copy_async(host, res.data + span.lo, bytes, ex_.stream);
        cuda::synchronize(ex_.stream);
        ArrayView staged = res;
        staged.data = host - span.lo;
        staged.device = kHost;
        run_cast(Exec{}, dest, staged, fname_);
      }
    } else {
      run_cast(ex_, dest, res, fname_);
    }
  }
  if (ex_.gpu && req_.sync) cuda::synchronize(ex_.stream);
}

py::object Call::finish(bool array_for_0d) {
  const Operand* all[kMaxInputs + 1] = {};
  for (int i = 0; i < nin_; ++i) all[i] = &in_[i];
  all[nin_] = has_out_ ? &out_ : nullptr;
  finish_streams(ex_, all, nin_ + 1,
                 dest_is_ndarray_ ? result_.cast<const NdArray&>().allocation().get() : nullptr);
  if (!has_out_ && !dest_is_ndarray_ && dest_.ndim == 0 && !array_for_0d) {
    return result_[py::tuple()];
  }
  return std::move(result_);
}

}  // namespace numcu::python
