#include "pipeline.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "host_memory.hpp"
#include "ndarray.hpp"
#include "numcu/cpu_threads.hpp"
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

std::atomic<int> placement_probes{0};

PlacementProbe*& placement_probe() {
  thread_local PlacementProbe* probe = nullptr;
  return probe;
}

const Exec& Call::place(unsigned options) {
  if (placement_probes.load(std::memory_order_relaxed) > 0) {
    if (const PlacementProbe* probe = placement_probe()) report_placement(*probe, options);
  }
  const Operand* all[kMaxInputs + 1] = {};
  for (int i = 0; i < nin_; ++i) all[i] = &in_[i];
  all[nin_] = has_out_ ? &out_ : nullptr;
  const DeviceRequest req = placed_request(options, 0, nullptr);
  ex_ = python::place(fname_, all, nin_ + 1, req, (options & no_prefetch) == 0);
  if (ex_.gpu) cuda::activate(ex_.device);
  if (has_out_ && out_.has_producer_stream && producers_.insert(out_.producer_stream)) {
    cuda::stream_wait(ex_.stream, out_.producer_stream);
  }
  return ex_;
}

void Call::hold_stream_object(const DeviceRequest& req) {
  stream_keeper_ = stream_object_keeper(req.stream_object, req.stream);
}

Call::HostCost Call::host_cost(int threads) const {
  HostCost c;
  const HostPathConfig& config = host_path_config();
  for (int i = 0; i < nin_; ++i) {
    const ArrayView& v = in_[i].view;
    if (in_[i].kind != Operand::Kind::host || v.ndim == 0) continue;
    const double b = static_cast<double>(v.size()) * static_cast<double>(itemsize(v.dtype));
    c.in_bytes += b;
    c.largest_bytes = std::max(c.largest_bytes, b);
    // Arrays the host path pins in place count as page-locked: registration is paid once.
    // Arrays below the chunked path's size are not looked up (two locked registries a call):
    // their copies cost little beside the GPU's latency, page-locked or not.
    if (b < static_cast<double>(config.pipeline_min_bytes)) continue;
    if ((config.register_inputs && b >= static_cast<double>(config.register_min_bytes)) ||
        pinned_by_numcu(v)) {
      c.pinned_bytes += b;
    }
  }
  c.threads = threads;
  if (c.threads <= 0) {
    c.threads = 1;
    try {
      c.threads = cpu::get_num_threads();
    } catch (const Error&) {
      // A bad NUMCU_NUM_THREADS is the CPU backend's to report, should the call go there.
    }
  }
  c.estimate = estimate_placement(cost_class_, c.in_bytes, c.pinned_bytes, c.largest_bytes,
                                  cost_out_bytes_, !has_out_, cost_elements_, c.threads);
  return c;
}

DeviceRequest Call::placed_request(unsigned options, int threads, std::string* why) const {
  DeviceRequest req = req_;
  if (req.kind != DeviceRequest::Kind::automatic) {
    if (why != nullptr) *why = "device= asks for it";
    return req;
  }
  if (device_operand()) {
    if (why != nullptr) *why = "a device array is among the operands";
    return req;
  }
  if (options & host_data_stays) {
    if (why != nullptr) *why = std::string(fname_) + " keeps host data on the host";
    req.kind = DeviceRequest::Kind::cpu;
    return req;
  }
  // A stream named is a GPU asked for; calls that give no cost keep host data on the GPU where
  // there is one.
  if (req.has_stream) {
    if (why != nullptr) *why = "stream= asks for a GPU";
    return req;
  }
  if (!has_cost_) {
    if (why != nullptr)
      *why = std::string(fname_) + " sends host data to the GPU where there is one";
    return req;
  }
  if (!cuda::is_available()) {
    if (why != nullptr) *why = "no CUDA device is available";
    return req;
  }
  const PlacementModel& model = placement_model();
  if (model.mode != PlacementModel::Mode::automatic) {
    if (why != nullptr)
      *why = std::string("numcu.placement mode is '") + mode_name(model.mode) + "'";
    if (model.mode == PlacementModel::Mode::cpu) req.kind = DeviceRequest::Kind::cpu;
    return req;
  }
  const HostCost c = host_cost(threads);
  if (why != nullptr) {
    char text[160];
    std::snprintf(text, sizeof text, "estimated %.3f ms on %d CPU threads, %.3f ms on the GPU",
                  c.estimate.cpu_s * 1e3, c.threads, c.estimate.gpu_s * 1e3);
    *why = text;
  }
  if (!c.estimate.gpu) req.kind = DeviceRequest::Kind::cpu;
  return req;
}

void Call::report_placement(const PlacementProbe& probe, unsigned options) const {
  std::string reason;
  const DeviceRequest req = placed_request(options, probe.threads, &reason);
  const bool gpu =
      req.kind != DeviceRequest::Kind::cpu &&
      (req.kind == DeviceRequest::Kind::cuda || device_operand() || cuda::is_available());
  py::dict d;
  d["mode"] = mode_name(placement_model().mode);
  d["op_class"] =
      has_cost_ ? py::object(py::str(op_class_name(cost_class_))) : py::object(py::none());
  if (has_cost_) {
    // The model's figures, also where another rule decided.
    const HostCost c = host_cost(probe.threads);
    d["in_bytes"] = c.in_bytes;
    d["pinned_bytes"] = c.pinned_bytes;
    d["largest_bytes"] = c.largest_bytes;
    d["out_bytes"] = cost_out_bytes_;
    d["elements"] = cost_elements_;
    d["threads"] = c.threads;
    d["cpu_s"] = c.estimate.cpu_s;
    d["gpu_s"] = c.estimate.gpu_s;
    d["model_choice"] = c.estimate.gpu ? "cuda" : "cpu";
  }
  d["device"] = gpu ? "cuda" : "cpu";
  d["reason"] = reason;
  PyErr_SetObject(placement_probe_type(), d.ptr());
  throw py::error_already_set();
}

const ArrayView& Call::destination(DType dtype, int ndim, const std::int64_t* shape,
                                   const ArrayView* like) {
  if (has_out_) {
    result_ = py::reinterpret_borrow<py::object>(out_obj_);
    dest_ = out_.view;
    // A host out= pinned in place (where the host path's setting asks for it) is copied into
    // directly.
    if (ex_.gpu) register_input(out_);
  } else if (ex_.gpu && device_input()) {
    NdArray a = NdArray::empty(dtype, ndim, shape, ex_.device, ex_.stream, like);
    dest_ = a.view();
    result_ = py::cast(std::move(a));
    dest_is_ndarray_ = true;
  } else {
    std::int64_t strides[kMaxDims];
    dense_strides(dtype, ndim, shape, like, strides);
    dest_ = ArrayView();
    dest_.dtype = dtype;
    dest_.ndim = ndim;
    std::copy(shape, shape + ndim, dest_.shape);
    std::copy(strides, strides + ndim, dest_.strides);
    // Results land in page-locked blocks where there is a pool: GPU work copies into them at
    // full speed, and neither side faults their pages in again.
    const HostPathConfig& config = host_path_config();
    result_ = numpy_result(dtype, ndim, shape, strides, &dest_.data,
                           ex_.gpu ? config.pool_min_bytes : config.cpu_pool_min_bytes);
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
  if (ex_.gpu && x.kind == Operand::Kind::host) {
    register_input(x);
    v = upload_host(scratch_, ex_, v);
    // A copy from page-locked memory is asynchronous: the call waits for it before the memory
    // can go back to its pool or its array die (see finish).
    if (pinned_by_numcu(x.view)) pinned_upload_ = true;
  }
  if (x.has_producer_stream && producers_.insert(x.producer_stream)) {
    cuda::stream_wait(ex_.stream, x.producer_stream);
  }
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
      download_host(ex_, dest, res);
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
  if (pinned_upload_ && ex_.gpu) {
    py::gil_scoped_release release;
    cuda::synchronize(ex_.stream);
  }
  finish_streams(ex_, all, nin_ + 1,
                 dest_is_ndarray_ ? result_.cast<const NdArray&>().allocation().get() : nullptr);
  if (!has_out_ && !dest_is_ndarray_ && dest_.ndim == 0 && !array_for_0d) {
    return result_[py::tuple()];
  }
  return std::move(result_);
}

}  // namespace numcu::python
