#include "placement.hpp"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "host_memory.hpp"
#include "numcu/cpu_threads.hpp"
#include "numcu/errors.hpp"
#include "pipeline.hpp"
#include "reduce_call.hpp"

namespace numcu::python {

namespace py = pybind11;

const char* op_class_name(OpClass c) {
  static constexpr const char* kNames[] = {"elementwise", "transcendental", "reduction", "scan"};
  return kNames[static_cast<int>(c)];
}

namespace {
// A ufunc's class: its table line's cost (ops.hpp's NUMCU_UFUNCS).
constexpr OpClass kUfuncClasses[] = {
#define NUMCU_CLASS(e, F, group, cost, doc) \
  CostClass::cost == CostClass::transcendental ? OpClass::transcendental : OpClass::elementwise,
    NUMCU_UFUNCS(NUMCU_CLASS)
#undef NUMCU_CLASS
};
}  // namespace

OpClass op_class_of(const char* name) {
  // "numcu.sin" and "sin" alike
  const char* dot = std::strrchr(name, '.');
  const char* n = dot != nullptr ? dot + 1 : name;
  for (int i = 0; i < kNumUfuncs; ++i) {
    if (std::strcmp(ufunc_info(static_cast<Ufunc>(i)).name, n) == 0) return kUfuncClasses[i];
  }
  if (is_reduction_name(n)) return OpClass::reduction;
  if (is_scan_name(n)) return OpClass::scan;
  return OpClass::elementwise;
}

OpClass op_class_of(Ufunc op) { return kUfuncClasses[static_cast<int>(op)]; }

PlacementModel& placement_model() {
  static PlacementModel model;
  return model;
}

namespace {

// All threads' GB/s over `bytes` of host memory.
double host_gbps_all(const PlacementModel& m, double bytes) {
  const double large = m.host_gbps_large > 0 ? m.host_gbps_large : m.host_gbps_max;
  if (bytes <= PlacementModel::kHostBytesMid) return m.host_gbps_max;
  if (bytes >= PlacementModel::kHostBytesLarge) return large;
  const double f = std::log(bytes / PlacementModel::kHostBytesMid) /
                   std::log(PlacementModel::kHostBytesLarge / PlacementModel::kHostBytesMid);
  return m.host_gbps_max + f * (large - m.host_gbps_max);
}

}  // namespace

PlacementEstimate estimate_placement(OpClass c, double in_bytes, double pinned_bytes,
                                     double largest_bytes, double out_bytes, bool fresh_out,
                                     double elements, int threads) {
  const PlacementModel& m = placement_model();
  // A scan of one line runs on one thread (scans split over lines only).
  const double t = c == OpClass::scan ? 1.0 : std::max(threads, 1);
  const double host_bw = std::min(m.host_gbps_1 * t, host_gbps_all(m, in_bytes + out_bytes)) * 1e9;
  PlacementEstimate e;
  e.cpu_s = m.cpu_latency_s + (in_bytes + out_bytes) / host_bw +
            elements * m.cpu_ns[static_cast<int>(c)] * 1e-9 / t;
  // The GPU side is a pipeline of chunks (host_memory.hpp's run_chunked): the CPU threads stage
  // pageable inputs (and move results into pageable out=), the copy engines move them in and
  // out. The slowest stage sets the pace; the other stages of the first and last chunks are
  // not overlapped with it.
  const double staged = std::max(in_bytes - pinned_bytes, 0.0) + (fresh_out ? 0.0 : out_bytes);
  const double stage = staged / host_bw;
  const double in = in_bytes / (m.h2d_gbps * 1e9);
  const double out = out_bytes / (m.d2h_gbps * 1e9);
  const double pace = std::max({stage, in, out, (in_bytes + out_bytes) / (m.duplex_gbps * 1e9)});
  const double chunk = static_cast<double>(host_path_config().chunk_bytes);
  const double chunks = std::max(1.0, std::ceil(std::max(largest_bytes, out_bytes) / chunk));
  e.gpu_s = m.gpu_latency_s + pace + (stage + in + out - std::max({stage, in, out})) / chunks;
  e.gpu = e.gpu_s < e.cpu_s;
  return e;
}

const char* mode_name(PlacementModel::Mode mode) {
  switch (mode) {
    case PlacementModel::Mode::cpu:
      return "cpu";
    case PlacementModel::Mode::cuda:
      return "cuda";
    default:
      return "auto";
  }
}

namespace {

py::dict model_dict() {
  using namespace py::literals;
  const PlacementModel& m = placement_model();
  py::dict d("mode"_a = mode_name(m.mode), "gpu_latency_s"_a = m.gpu_latency_s,
             "cpu_latency_s"_a = m.cpu_latency_s, "h2d_gbps"_a = m.h2d_gbps,
             "d2h_gbps"_a = m.d2h_gbps, "duplex_gbps"_a = m.duplex_gbps,
             "host_gbps_1"_a = m.host_gbps_1, "host_gbps_max"_a = m.host_gbps_max,
             "host_gbps_large"_a = m.host_gbps_large);
  for (int c = 0; c < 4; ++c) {
    d[py::str(std::string("cpu_ns_") + op_class_name(static_cast<OpClass>(c)))] = m.cpu_ns[c];
  }
  return d;
}

}  // namespace

PyObject* placement_probe_type() {
  // Made once, with the GIL held; it lives as long as the process.
  static PyObject* type =
      PyErr_NewException("numcu._core._PlacementProbe", PyExc_Exception, nullptr);
  return type;
}

void bind_placement(py::module_& m) {
  if (placement_probe_type() == nullptr) throw py::error_already_set();
  m.attr("_PlacementProbe") = py::handle(placement_probe_type());
  m.def(
      "_placement_of",
      [](py::object func, py::tuple args, py::object out, int threads) -> py::object {
        // The call runs up to its placement, which raises the report (pipeline.cpp).
        struct Scope {
          PlacementProbe* saved;
          explicit Scope(PlacementProbe* probe) : saved(placement_probe()) {
            placement_probe() = probe;
            placement_probes.fetch_add(1);
          }
          ~Scope() {
            placement_probes.fetch_sub(1);
            placement_probe() = saved;
          }
          Scope(const Scope&) = delete;
          Scope& operator=(const Scope&) = delete;
        };
        PlacementProbe probe;
        probe.threads = threads;
        {
          Scope scope(&probe);
          try {
            py::dict kwargs;
            if (!out.is_none()) kwargs["out"] = out;
            func(*args, **kwargs);
          } catch (py::error_already_set& e) {
            if (!e.matches(placement_probe_type())) throw;
            return py::reinterpret_borrow<py::object>(e.value()).attr("args")[py::int_(0)];
          }
        }
        throw py::type_error("numcu.placement: " + py::repr(func).cast<std::string>() +
                             " does not place work on a side: it is not a function of numcu's "
                             "call pipeline");
      },
      py::arg("func"), py::arg("args"), py::arg("out") = py::none(), py::arg("threads") = 0,
      "What func(*args, out=out) decides at its placement, as a dict (numcu.placement's "
      "report): the call runs up to there and no further.");
  m.def(
      "_placement_model",
      [](py::kwargs kwargs) {
        PlacementModel next = placement_model();
        const char* fname = "numcu.placement.set";
        for (auto item : kwargs) {
          const std::string key = py::str(item.first);
          py::handle v = item.second;
          if (key == "mode") {
            const std::string s = py::str(v);
            if (s == "auto") {
              next.mode = PlacementModel::Mode::automatic;
            } else if (s == "cpu") {
              next.mode = PlacementModel::Mode::cpu;
            } else if (s == "cuda") {
              next.mode = PlacementModel::Mode::cuda;
            } else {
              throw_value_error(std::string(fname) +
                                ": mode must be 'auto', 'cpu' or 'cuda', not '" + s + "'");
            }
            continue;
          }
          double* field = nullptr;
          if (key == "gpu_latency_s") field = &next.gpu_latency_s;
          if (key == "cpu_latency_s") field = &next.cpu_latency_s;
          if (key == "h2d_gbps") field = &next.h2d_gbps;
          if (key == "d2h_gbps") field = &next.d2h_gbps;
          if (key == "duplex_gbps") field = &next.duplex_gbps;
          if (key == "host_gbps_1") field = &next.host_gbps_1;
          if (key == "host_gbps_max") field = &next.host_gbps_max;
          if (key == "host_gbps_large") field = &next.host_gbps_large;
          for (int c = 0; c < 4; ++c) {
            if (key == std::string("cpu_ns_") + op_class_name(static_cast<OpClass>(c))) {
              field = &next.cpu_ns[c];
            }
          }
          if (field == nullptr) {
            throw_type_error(std::string(fname) + ": unknown constant '" + key + "'");
          }
          const double x = v.cast<double>();
          // host_gbps_large may be 0: "as host_gbps_max"
          const bool rate = key.find("gbps") != std::string::npos && key != "host_gbps_large";
          if (!(x >= 0) || (rate && !(x > 0))) {
            throw_value_error(std::string(fname) + ": " + key + " must be " +
                              (rate ? "positive" : "non-negative") + ", not " +
                              std::string(py::str(v)));
          }
          *field = x;
        }
        placement_model() = next;
        return model_dict();
      },
      "The placement model's constants, changed by keyword; returns them all.");
  m.def(
      "_placement_estimate",
      [](const std::string& op, double in_bytes, double pinned_bytes, double largest_bytes,
         double out_bytes, bool fresh_out, double elements, int threads) {
        const OpClass c = op_class_of(op.c_str());
        if (threads <= 0) threads = cpu::get_num_threads();
        const PlacementEstimate e = estimate_placement(c, in_bytes, pinned_bytes, largest_bytes,
                                                       out_bytes, fresh_out, elements, threads);
        py::dict d;
        d["op_class"] = op_class_name(c);
        d["cpu_s"] = e.cpu_s;
        d["gpu_s"] = e.gpu_s;
        d["model_choice"] = e.gpu ? "cuda" : "cpu";
        d["threads"] = threads;
        return d;
      },
      py::arg("op"), py::arg("in_bytes"), py::arg("pinned_bytes"), py::arg("largest_bytes"),
      py::arg("out_bytes"), py::arg("fresh_out"), py::arg("elements"), py::arg("threads") = 0);
}

}  // namespace numcu::python
