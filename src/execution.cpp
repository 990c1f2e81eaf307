#include "execution.hpp"

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include "elementwise_call.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {

ArrayView dense_view(Scratch& scratch, const Exec& ex, DType dtype, int ndim,
                     const std::int64_t* shape, const ArrayView* like) {
  ArrayView v = dense_layout(dtype, ndim, shape, ex.gpu ? ex.device : kHost, like);
  v.data = scratch.allocate(ex, static_cast<std::size_t>(v.size()) * itemsize(dtype));
  return v;
}

void cuda_unavailable(const char* fname, const char* why) {
  throw Error(ErrorKind::cuda_unavailable, std::string(fname) + ": " + why +
                                               "no CUDA device is available (" +
                                               cuda::unavailable_reason() + ")");
}

namespace {

// src (one element by value where scalar) converted into dst on ex's backend.
void run_copy(const Exec& ex, const ArrayView& dst, const ArrayView& src, const void* scalar,
              const char* fname) {
  const ArrayView* views[2] = {&dst, &src};
  const bool is_scalar[2] = {false, scalar != nullptr};
  const void* values[2] = {nullptr, scalar};
  const ElementwisePlan<2> plan = make_plan<2>(views, is_scalar, values, fname);
  if (ex.gpu) {
    cast_cuda(dst.dtype, src.dtype, plan, ex.stream);
  } else {
    cast_cpu(dst.dtype, src.dtype, plan);
  }
}

}  // namespace

void run_cast(const Exec& ex, const ArrayView& dst, const ArrayView& src, const char* fname) {
  run_copy(ex, dst, src, nullptr, fname);
}

// Copies a host array's bytes to the device, strides kept.
ArrayView upload(Scratch& scratch, const Exec& ex, const ArrayView& host) {
  ArrayView v = host;
  const ByteSpan span = byte_span(host);
  char* dev = scratch.allocate(ex, static_cast<std::size_t>(span.hi - span.lo));
  cuda::copy_async(dev, host.data + span.lo, static_cast<std::size_t>(span.hi - span.lo),
                   ex.stream);
  v.data = dev - span.lo;
  v.device = ex.device;
  return v;
}

bool is_dense(const ArrayView& v) {
  const ByteSpan s = byte_span(v);
  return s.hi - s.lo == v.size() * itemsize(v.dtype);
}

Overlap overlap(const ArrayView& out, const ArrayView& in) {
  const ByteSpan o = byte_span(out), i = byte_span(in);
  if (o.lo == o.hi || i.lo == i.hi) return Overlap::none;  // no elements
  const auto o_lo = reinterpret_cast<std::uintptr_t>(out.data) + o.lo;
  const auto i_lo = reinterpret_cast<std::uintptr_t>(in.data) + i.lo;
  if (i_lo + (i.hi - i.lo) <= o_lo || o_lo + (o.hi - o.lo) <= i_lo) return Overlap::none;
  if (in.data != out.data || itemsize(in.dtype) != itemsize(out.dtype) || in.ndim > out.ndim) {
    return Overlap::partial;
  }
  const int lead = out.ndim - in.ndim;
  for (int d = 0; d < out.ndim; ++d) {
    if (out.shape[d] == 1) continue;
    const bool broadcast = d < lead || in.shape[d - lead] == 1;
    const std::int64_t stride = broadcast ? 0 : in.strides[d - lead];
    if (stride != out.strides[d]) return Overlap::partial;
  }
  return Overlap::same;
}

ArrayView unaliased(Scratch& scratch, const Exec& ex, const ArrayView& out, const ArrayView& in,
                    bool in_place, const char* fname) {
  const Overlap o = overlap(out, in);
  if (o == Overlap::none || (in_place && o == Overlap::same)) return in;
  const ArrayView copy = dense_view(scratch, ex, in.dtype, in.ndim, in.shape, &in);
  run_cast(ex, copy, in, fname);
  return copy;
}

void prefetch(const Exec& ex, const DeviceAllocation* allocation, const ArrayView& view) {
  if (!ex.gpu || allocation == nullptr || !allocation->managed()) return;
  cuda::activate(ex.device);
  const ByteSpan span = byte_span(view);
  cuda::prefetch_to_device(view.data + span.lo, static_cast<std::size_t>(span.hi - span.lo),
                           ex.device, ex.stream);
}

void run_fill(const Exec& ex, const ArrayView& dst, const Operand& value, const char* fname) {
  alignas(16) unsigned char converted[16] = {};
  ArrayView scalar;
  scalar.dtype = dst.dtype;
  scalar.data = reinterpret_cast<char*>(converted);
  run_cast(Exec{}, scalar, value.view, fname);
  run_copy(ex, dst, scalar, converted, fname);
}

Exec destination(const char* fname, const DeviceRequest& req, int follow) {
  Exec ex;
  if (req.kind == DeviceRequest::Kind::cpu) return ex;
  if (req.kind == DeviceRequest::Kind::automatic) {
    if (follow == kHost || (follow == kDefaultDevice && !cuda::is_available())) return ex;
  } else if (!cuda::is_available()) {
    cuda_unavailable(fname);
  }
  ex.gpu = true;
  ex.device = req.device >= 0 ? req.device : follow >= 0 ? follow : cuda::current_device();
  ex.stream = req.has_stream ? req.stream : cuda::current_stream();
  return ex;
}

namespace {

bool all_device_operands_managed(const Operand* const* operands, int count) {
  for (int i = 0; i < count; ++i) {
    const Operand* x = operands[i];
    if (x == nullptr || x->kind != Operand::Kind::device) continue;
    const bool managed = x->allocation
                             ? x->allocation->managed()
                             : cuda::pointer_kind(x->view.data) == cuda::PointerKind::managed;
    if (!managed) return false;
  }
  return true;
}

}  // namespace

Exec place(const char* fname, const Operand* const* operands, int count, const DeviceRequest& req,
           bool prefetch_managed) {
  int device = kHost;
  bool host_array = false;
  for (int i = 0; i < count; ++i) {
    const Operand* x = operands[i];
    if (x == nullptr) continue;
    if (x->kind == Operand::Kind::device) {
      if (device != kHost && device != x->view.device) {
        throw_value_error(std::string(fname) + ": operands are on different devices: " +
                          device_str(device) + " and " + device_str(x->view.device));
      }
      device = x->view.device;
    } else if (x->kind == Operand::Kind::host && (x->view.ndim > 0 || i == count - 1)) {
      host_array = true;
    }
  }
  Exec ex;
  if (device != kHost) {
    // Host data meets device arrays only when those are managed memory, which the GPU reaches
    // from anywhere (AMYPAD NumCu's CuVec arrays): the work runs on their GPU, host inputs are
    // copied in and host outputs copied out. Asked only here, so that the common calls pay no
    // pointer query.
    if (host_array && !all_device_operands_managed(operands, count)) {
      throw_value_error(std::string(fname) + ": operands are on different devices: cpu and " +
                        device_str(device) + " (move host data with numcu.asarray)");
    }
    if (req.kind == DeviceRequest::Kind::cpu) {
      throw_value_error(std::string(fname) +
                        ": device='cpu' was requested but the operands are on " +
                        device_str(device) + " (call .get() for host copies)");
    }
    if (req.kind == DeviceRequest::Kind::cuda && req.device >= 0 && req.device != device) {
      throw_value_error(std::string(fname) + ": device='cuda:" + std::to_string(req.device) +
                        "' was requested but the operands are on " + device_str(device));
    }
    ex.gpu = true;
    ex.device = device;
    ex.stream = req.has_stream ? req.stream : cuda::current_stream();
    // Arrays last used on another stream: this stream waits for that work (once a stream, the
    // operands usually share one), and the arrays move to this stream when it can be their home
    // (see finish_streams for the others).
    StreamSet waited;
    int home = -1;  // whether ex.stream can be a home: asked once, and only when needed
    for (int i = 0; i < count; ++i) {
      const Operand* x = operands[i];
      if (x == nullptr || !x->allocation || x->allocation->stream() == ex.stream) continue;
      if (waited.insert(x->allocation->stream())) {
        cuda::activate(device);
        cuda::stream_wait(ex.stream, x->allocation->stream());
      }
      if (home < 0) home = home_stream(ex.stream) == ex.stream ? 1 : 0;
      if (home == 1) x->allocation->set_stream(ex.stream);
    }
    if (prefetch_managed) {
      for (int i = 0; i < count; ++i) {
        if (operands[i] != nullptr) prefetch(ex, operands[i]->allocation.get(), operands[i]->view);
      }
    }
    return ex;
  }
  bool gpu = false;
  if (req.kind == DeviceRequest::Kind::cuda) {
    if (!cuda::is_available()) cuda_unavailable(fname, "device='cuda' was requested but ");
    gpu = true;
  } else if (req.kind == DeviceRequest::Kind::automatic) {
    gpu = cuda::is_available();
  }
  if (gpu) {
    ex.gpu = true;
    ex.device = req.device >= 0 ? req.device : cuda::current_device();
    ex.stream = req.has_stream ? req.stream : cuda::current_stream();
  }
  return ex;
}

void finish_streams(const Exec& ex, const Operand* const* operands, int count,
                    const DeviceAllocation* result) {
  if (!ex.gpu) return;
  // One event on ex.stream serves every allocation of the same home: the operands and the
  // result usually share one.
  StreamSet handed;
  auto hand_back = [&](const DeviceAllocation* a) {
    if (a != nullptr && a->stream() != ex.stream && handed.insert(a->stream())) {
      cuda::stream_wait(a->stream(), ex.stream);
    }
  };
  for (int i = 0; i < count; ++i) {
    if (operands[i] != nullptr) hand_back(operands[i]->allocation.get());
  }
  hand_back(result);
}

}  // namespace numcu::python
