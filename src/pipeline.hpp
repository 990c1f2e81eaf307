// The one call pipeline. Every operation that computes (ufuncs, where and clip, casts,
// reductions, scans) goes through the same stages, in this order:
//
//   intake     every argument becomes an Operand (intake.hpp), `out=` as a writable one
//   dtypes     the operation's own rule (NEP 50 promotion and loop search for ufuncs, NumPy's
//              accumulators for reductions): a trait of the operation, not of the pipeline
//   shape      broadcast, reduced or scanned shape: the operation's rule again
//   placement  the CPU backend or a GPU and stream, from where the operands live (place())
//   outputs    `out` checked and used directly when the kernel can write it, else a new array
//              on the result's side, or scratch that the finish stage moves into place
//   run        inputs brought to the backend in the loop's dtype, overlap with the output
//              resolved, the kernel queued with the GIL released
//   finish     scratch results downloaded or cast into the destination, streams handed back,
//              a 0-d host result returned as a NumPy scalar
//
// An operation's code declares what differs and calls these stages; nothing in here knows
// which operation runs.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include "arguments.hpp"
#include "execution.hpp"
#include "intake.hpp"
#include "numcu/array_view.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "placement.hpp"

namespace numcu::python {

namespace py = pybind11;

// numcu.placement's probe: while one is set on this thread, a call stops at its placement and
// raises numcu._core._PlacementProbe, whose argument is a dict of where the call would run, why,
// and the cost model's inputs and estimates: what the call itself computes, not a second account
// of it (placement.cpp's _placement_of sets it). `threads` > 0 stands for the CPU threads.
struct PlacementProbe {
  int threads = 0;
};
// The probe set on this thread, and how many threads have one set: calls read the count first,
// so that they look up no thread-local variable while no probe is set anywhere.
PlacementProbe*& placement_probe();
extern std::atomic<int> placement_probes;

class Call {
 public:
  static constexpr int kMaxInputs = 3;

  Call(const char* fname, const DeviceRequest& request) : fname_(fname), req_(request) {
    if (request.stream_object != nullptr) hold_stream_object(request);
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  const char* fname() const { return fname_; }
  const DeviceRequest& request() const { return req_; }

  // --- intake
  Operand& input(py::handle obj) {
    if (nin_ == kMaxInputs) throw_type_error(std::string(fname_) + ": too many inputs");
    Operand& x = in_[nin_++];
    intake_into(x, obj, fname_, Role::input, &memo_);
    return x;
  }
  // A Python scalar taken as a 0-d host array over its own value (reductions and scans take
  // scalars as arrays).
  Operand& array_input(py::handle obj);
  Operand& input(int i) { return in_[i]; }
  const Operand& input(int i) const { return in_[i]; }
  int inputs() const { return nin_; }
  // `out=`: None for none.
  void output(py::handle obj) {
    if (obj.is_none()) return;
    out_obj_ = obj;
    intake_into(out_, obj, fname_, Role::output, &memo_);
    has_out_ = true;
  }
  bool has_out() const { return has_out_; }
  const Operand& out() const { return out_; }
  // Whether any input is a device array (results then are numcu.ndarrays).
  bool device_input() const;
  // Whether any input or `out` is a device array (the call then runs on a GPU).
  bool device_operand() const {
    return device_input() || (has_out_ && out_.kind == Operand::Kind::device);
  }

  // --- placement: where the work runs, from the operands and the request (execution.hpp's
  // place()). Options: host data stays on the host even when a GPU is there (casts: one pass
  // over memory costs less than the trip); managed memory is not prefetched to the GPU.
  enum Placement : unsigned { default_placement = 0, host_data_stays = 1, no_prefetch = 2 };
  // The work, for placing calls whose operands are all host data when no device is asked for
  // (placement.hpp's model): its class, the bytes it writes and the elements it visits. Calls
  // that give none keep host data on the GPU when there is one.
  void cost(OpClass c, double out_bytes, double elements) {
    cost_class_ = c;
    cost_out_bytes_ = out_bytes;
    cost_elements_ = elements;
    has_cost_ = true;
  }
  const Exec& place(unsigned options = default_placement);
  const Exec& exec() const { return ex_; }
  Scratch& scratch() { return scratch_; }

  // --- outputs
  // Where the result goes: `out` (its shape already checked by the operation) or a new array:
  // a numcu.ndarray on the GPU when an input is a device array, else a NumPy array (the
  // kernel's result is downloaded to it when the work ran on the GPU). `like` orders a new
  // array's dimensions (NumPy's order='K'); null: C order.
  const ArrayView& destination(DType dtype, int ndim, const std::int64_t* shape,
                               const ArrayView* like);
  // The view the kernel writes for the destination `dest` (the destination itself, or a view
  // of it such as the kept axes of a keepdims reduction): `dest` when the backend can write
  // it directly in `loop_dtype` (same side, same dtype, C-contiguous when `need_dense`), else
  // scratch whose values the finish stage moves into `dest`.
  ArrayView target(const ArrayView& dest, DType loop_dtype, bool need_dense = false);
  // Whether the kernel writes `out` itself (then inputs overlapping it need unaliased()).
  bool writes_out(const ArrayView& target) const {
    return has_out_ && target.data == out_.view.data;
  }

  // --- run
  // `x` on the backend in `dtype`: uploaded when host data goes to the GPU, ordered after its
  // producer's stream, converted when its dtype differs.
  ArrayView prepare(const Operand& x, DType dtype);
  // Dense scratch on the backend.
  ArrayView scratch_view(DType dtype, int ndim, const std::int64_t* shape, const ArrayView* like) {
    return dense_view(scratch_, ex_, dtype, ndim, shape, like);
  }
  // `in` as the kernel may read it while writing `target` (see execution.hpp's unaliased).
  ArrayView unaliased(const ArrayView& target, const ArrayView& in, bool in_place) {
    return python::unaliased(scratch_, ex_, target, in, in_place, fname_);
  }
  // Runs kernel() without the GIL, then the moves target() set up, then a synchronisation when
  // the caller asked for one (NumCu's sync=True). CPU work of at most kGilKeptElements (one
  // thread's, a few microseconds) keeps the GIL: releasing and taking it back would cost a
  // tenth of the call.
  static constexpr double kGilKeptElements = 4096;
  template <class Kernel>
  void run(Kernel&& kernel) {
    if (!ex_.gpu && has_cost_ && cost_elements_ <= kGilKeptElements) {
      std::forward<Kernel>(kernel)();
      move_results();
      return;
    }
    py::gil_scoped_release release;
    std::forward<Kernel>(kernel)();
    move_results();
  }

  // --- finish: the Python result. A 0-d result computed from host data is a NumPy scalar
  // unless `array_for_0d` (NumPy's where returns a 0-d array).
  py::object finish(bool array_for_0d = false);

 private:
  void move_results();
  // Takes stream_keeper_ for req's stream= object (out of line: few calls pass one).
  __attribute__((noinline)) void hold_stream_object(const DeviceRequest& req);

  // First, so that it is destroyed last: the caller's device comes back after the scratch
  // memory has been released on the call's device.
  cuda::DeviceRestore restore_;
  // Another library's stream object given as stream=, held for the call where it owns its
  // stream (stream_object_keeper): memory the call uses on it then makes it its home. Destroyed
  // after the scratch memory freed on that stream.
  std::shared_ptr<void> stream_keeper_;
  const char* fname_;
  DeviceRequest req_;
  Operand in_[kMaxInputs];
  int nin_ = 0;
  Operand out_;
  py::handle out_obj_;
  bool has_out_ = false;
  IntakeMemo memo_;
  Exec ex_;
  Scratch scratch_;
  // The destination and the Python object holding it.
  py::object result_;
  ArrayView dest_;
  bool dest_is_ndarray_ = false;
  // Results the kernel wrote to scratch, to move into their destinations (at most one for the
  // operations numcu has).
  ArrayView pending_dest_, pending_res_;
  bool pending_ = false;
  bool pinned_upload_ = false;
  // Producers' streams (CAI, DLPack, PyTorch) ex_.stream already waits for.
  StreamSet producers_;
  OpClass cost_class_ = OpClass::elementwise;
  double cost_out_bytes_ = 0, cost_elements_ = 0;
  bool has_cost_ = false;
  // The cost model's inputs for this call's host operands and its estimate on `threads` CPU
  // threads (0: the backend's own number).
  struct HostCost {
    double in_bytes = 0, pinned_bytes = 0, largest_bytes = 0;
    int threads = 1;
    PlacementEstimate estimate;
  };
  HostCost host_cost(int threads) const;
  // The request place() hands to python::place: the caller's, or the CPU where host data stays
  // (`options`) or the placement model picks it (on `threads` CPU threads, 0: the backend's).
  // `why`, when given, says which rule decided, for numcu.placement's report.
  DeviceRequest placed_request(unsigned options, int threads, std::string* why) const;
  [[noreturn]] void report_placement(const PlacementProbe& probe, unsigned options) const;
};

}  // namespace numcu::python
