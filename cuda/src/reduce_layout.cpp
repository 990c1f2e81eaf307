#include "reduce_layout.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>

#include "numcu/cuda_check.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"
#include "stream_scratch.hpp"

namespace numcu::kernels {
namespace {

// The heuristics' knobs. NUMCU_REDUCE_TUNING="threads=256,min_values=4,..." overrides them for a
// process, so that one benchmark run can sweep them (benchmarks/tune_reduce.py).
struct Tuning {
  int threads = kReduceMaxBlock;  // the most threads in a block
  int row_threads = 256;          // the most threads in a block whose lanes run along several
                                  // outputs' rows
  int threads_per_sm = 0;         // resident threads a multiprocessor is given; 0: as many as
                                  // the kernel's registers allow
  std::int64_t min_values = 8;    // the fewest elements (vectors) a lane takes before more
                                  // lanes or blocks are added
  std::int64_t row_lanes = 128;   // lanes a contiguous row gets at least, where each still
                                  // takes min_values (and a warp where the row has that many)
  // row_threads and row_lanes: over (2^14, 2^13) float32 rows on the H200, blocks of 256
  // threads, two rows a block, summed 1.9% faster and took the max 1.2% faster than blocks of
  // 512 threads, sixteen rows a block, a warp a row (bench_reduce; tune_reduce.py sweeps them).
  bool vector_in = true;
  bool vector_out = true;
};

bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

Tuning read_tuning() {
  Tuning t;
  const char* env = std::getenv("NUMCU_REDUCE_TUNING");
  if (env == nullptr) return t;
  const std::string spec(env);
  std::size_t pos = 0;
  while (pos < spec.size()) {
    std::size_t end = spec.find(',', pos);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    char* stop = nullptr;
    const long long value =
        eq == std::string::npos ? -1 : std::strtoll(item.c_str() + eq + 1, &stop, 10);
    const bool number = eq != std::string::npos && stop != nullptr && *stop == '\0' && value >= 0;
    bool ok = number;
    if (ok && key == "threads") {
      ok = is_pow2(value) && value >= 32 && value <= kReduceMaxBlock;
      t.threads = static_cast<int>(value);
    } else if (ok && key == "row_threads") {
      ok = is_pow2(value) && value >= 32 && value <= kReduceMaxBlock;
      t.row_threads = static_cast<int>(value);
    } else if (ok && key == "threads_per_sm") {
      t.threads_per_sm = static_cast<int>(value);
    } else if (ok && key == "min_values") {
      ok = value >= 1;
      t.min_values = value;
    } else if (ok && key == "row_lanes") {
      ok = is_pow2(value) && value <= kReduceMaxBlock;
      t.row_lanes = value;
    } else if (ok && key == "vector_in") {
      t.vector_in = value != 0;
    } else if (ok && key == "vector_out") {
      t.vector_out = value != 0;
    } else {
      ok = false;
    }
    if (!ok) {
      throw_value_error("numcu: NUMCU_REDUCE_TUNING: cannot use '" + item +
                        "' (keys: threads, row_threads, threads_per_sm, min_values, row_lanes, "
                        "vector_in, vector_out; threads, row_threads and row_lanes powers of two "
                        "up to " +
                        std::to_string(kReduceMaxBlock) + ")");
    }
  }
  return t;
}

const Tuning& tuning() {
  static const Tuning t = read_tuning();
  return t;
}

constexpr int kMaxDevices = 64;

// A device attribute, asked once per device (`fallback` where the driver gives none).
template <cudaDeviceAttr Attr>
int device_attribute(int device, int fallback, const char* what) {
  static std::once_flag asked[kMaxDevices];
  static int value[kMaxDevices] = {};
  if (device < 0 || device >= kMaxDevices) return fallback;
  std::call_once(asked[device], [device, fallback, what] {
    int v = 0;
    NUMCU_CUDA_TRY(cudaDeviceGetAttribute(&v, Attr, device), what);
    value[device] = v > 0 ? v : fallback;
  });
  return value[device];
}

int threads_per_multiprocessor(int device) {
  return device_attribute<cudaDevAttrMaxThreadsPerMultiProcessor>(
      device, 2048, "reading the device's threads per multiprocessor");
}

std::int64_t pow2_ceil(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

std::int64_t pow2_floor(std::int64_t v) {
  std::int64_t p = 1;
  while (p * 2 <= v) p <<= 1;
  return p;
}

std::int64_t clamp(std::int64_t v, std::int64_t lo, std::int64_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

std::int64_t div_up(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::int64_t magnitude(std::int64_t v) { return v < 0 ? -v : v; }

// Whether slots can read out_vector neighbouring outputs as one aligned vector: the outputs'
// innermost dimension is contiguous in the input and a whole number of vectors, and every other
// step keeps the vectors aligned.
bool outputs_vectorise(const ReducePlan& p, int item, int vec) {
  const std::int64_t bytes = static_cast<std::int64_t>(item) * vec;
  const int last = p.out_ndim - 1;
  if (p.out_in_strides[last] != item || p.out_shape[last] % vec != 0) return false;
  if (reinterpret_cast<std::uintptr_t>(p.in) % bytes != 0) return false;
  for (int d = 0; d < last; ++d) {
    if (p.out_in_strides[d] % bytes != 0) return false;
  }
  for (int d = 0; d < p.red_ndim; ++d) {
    if (p.red_strides[d] % bytes != 0) return false;
  }
  return true;
}

}  // namespace

int multiprocessor_count(int device) {
  return device_attribute<cudaDevAttrMultiProcessorCount>(
      device < 0 || device >= kMaxDevices ? 0 : device, 1,
      "reading the device's multiprocessor count");
}

ReduceLayout choose_reduce_layout(const ReducePlan& p, const ReduceTypeInfo& type) {
  const Tuning& t = tuning();
  const int device = cuda::current_device();
  const std::int64_t per_sm =
      t.threads_per_sm > 0 ? t.threads_per_sm
                           : std::min(threads_per_multiprocessor(device), type.resident_per_sm);
  // Threads that keep every multiprocessor busy.
  const std::int64_t busy = static_cast<std::int64_t>(multiprocessor_count(device)) * per_sm;
  const std::int64_t max_block = t.threads;
  const std::int64_t n_out = p.n_out, n_red = p.n_red;
  const int last_red = p.red_ndim - 1, last_out = p.out_ndim - 1;

  ReduceLayout c;
  // Lanes along x when the reduced elements are closer together than the outputs.
  c.lanes_along_x = n_red > 1 && (n_out == 1 || magnitude(p.red_strides[last_red]) <=
                                                    magnitude(p.out_in_strides[last_out]));
  std::int64_t lanes_per_block, lanes_wanted;
  if (c.lanes_along_x) {
    c.vector_in = t.vector_in && type.in_vector > 1 && p.red_ndim == 1 &&
                  p.red_strides[0] == type.item && n_red >= 2 * type.in_vector;
    const std::int64_t units = c.vector_in ? div_up(n_red, type.in_vector) : n_red;
    // As many lanes per output as fill the GPU, without leaving a lane fewer than min_values;
    // and whatever the GPU's size, up to row_lanes a row: a warp (a lane a unit where the row
    // is shorter), more while each lane still takes min_values.
    lanes_wanted = clamp(busy / n_out, 1, std::max<std::int64_t>(1, units / t.min_values));
    const std::int64_t row =
        std::min(t.row_lanes, std::max(std::min<std::int64_t>(32, units), units / t.min_values));
    const std::int64_t lanes = std::max(lanes_wanted, row);
    const std::int64_t block =
        n_out > 1 ? std::min<std::int64_t>(t.row_threads, max_block) : max_block;
    const std::int64_t bx = std::min(pow2_ceil(lanes), block);
    std::int64_t by = std::min(block / bx, pow2_ceil(n_out));
    if (bx * by < 32) by = 32 / bx;  // whole warps: the lanes exchange values by shuffles
    c.block_x = static_cast<int>(bx);
    c.block_y = static_cast<int>(by);
    c.grid_x = static_cast<unsigned>(div_up(n_out, by));
    lanes_per_block = bx;
    // Rounded down: the blocks of all outputs together fit on the GPU at once, so that none
    // waits for a second wave.
    c.ctas = static_cast<unsigned>(
        clamp(std::min(lanes_wanted / bx, units / (bx * t.min_values)), 1, 65535));
  } else {
    c.outputs_per_slot =
        t.vector_out && type.out_vector > 1 && outputs_vectorise(p, type.item, type.out_vector)
            ? type.out_vector
            : 1;
    const std::int64_t width = n_out / c.outputs_per_slot;
    lanes_wanted = clamp(busy / width, 1, std::max<std::int64_t>(1, n_red / t.min_values));
    std::int64_t bx = std::min<std::int64_t>(pow2_ceil(width), 32);
    const std::int64_t by = std::min(pow2_floor(lanes_wanted), max_block / bx);
    if (by == 1) bx = std::min(pow2_ceil(width), max_block);
    if (bx * by < 32) bx = 32 / by;
    c.block_x = static_cast<int>(bx);
    c.block_y = static_cast<int>(by);
    c.grid_x = static_cast<unsigned>(div_up(width, bx));
    lanes_per_block = by;
    c.ctas = static_cast<unsigned>(clamp(lanes_wanted / by, 1, 65535));
  }
  if (c.grid_x > static_cast<unsigned>(cuda::kScratchCounters)) c.ctas = 1;

  // Shared memory for combining the lanes of a block (also the last block's second pass).
  const std::size_t acc = static_cast<std::size_t>(type.acc_size);
  if (c.lanes_along_x) {
    if (c.block_x > 32)
      c.shared_bytes = acc * static_cast<std::size_t>(c.block_y * (c.block_x / 32));
  } else if (lanes_per_block > 1) {
    c.shared_bytes = acc * static_cast<std::size_t>(c.block_x * c.block_y * c.outputs_per_slot);
  }
  return c;
}

std::size_t reduce_partial_bytes(const ReduceLayout& c, int acc_size) {
  if (c.ctas <= 1) return 0;
  const std::size_t slots = static_cast<std::size_t>(c.lanes_along_x ? c.block_y : c.block_x);
  return static_cast<std::size_t>(c.grid_x) * c.ctas * slots *
         static_cast<std::size_t>(c.outputs_per_slot) * static_cast<std::size_t>(acc_size);
}

}  // namespace numcu::kernels
