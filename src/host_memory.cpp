#include "host_memory.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "foreign.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {

HostPathConfig& host_path_config() {
  static HostPathConfig config;
  return config;
}

bool use_chunked(std::size_t bytes) { return bytes >= host_path_config().pipeline_min_bytes; }

// --- Results

py::object numpy_result(DType dtype, int ndim, const std::int64_t* shape,
                        const std::int64_t* strides, char** data, std::size_t pool_min_bytes) {
  std::int64_t elements = 1;
  for (int d = 0; d < ndim; ++d) elements *= shape[d];
  const auto bytes = static_cast<std::size_t>(elements) * itemsize(dtype);
  void* block = bytes >= pool_min_bytes && bytes > 0 ? cuda::allocate_host_pooled(bytes) : nullptr;
  if (block == nullptr) {
    py::object a = numpy_empty(dtype, ndim, shape, strides);
    *data = foreign::numpy_array(a.ptr())->data;  // a new, writable array of its own memory
    return a;
  }
  // The capsule is the array's base: the block goes back when the last view of it is gone.
  py::capsule owner(block, [](void* p) { cuda::free_host_pooled(p); });
  std::vector<py::ssize_t> sh(shape, shape + ndim), st(strides, strides + ndim);
  // Dense strides may be negative nowhere, so the block starts at the element with the lowest
  // address, which is element 0.
  py::array a(py::dtype::from_args(numpy_dtype(dtype)), sh, st, block, owner);
  *data = static_cast<char*>(block);
  return py::object(std::move(a));
}

// --- Arrays pinned in place

namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::uintptr_t, std::uintptr_t> spans;  // lo -> hi
  std::size_t bytes = 0;
};

Registry& registry() {
  static Registry* r = new Registry;  // weakref callbacks may run during interpreter exit
  return *r;
}

bool registered(std::uintptr_t lo, std::uintptr_t hi) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.spans.upper_bound(lo);
  if (it == r.spans.begin()) return false;
  --it;
  return lo >= it->first && hi <= it->second;
}

// Weak references whose arrays died, with the GIL held.
std::vector<PyObject*>& dead_weakrefs() {
  static auto* dead = new std::vector<PyObject*>;
  return *dead;
}

}  // namespace

bool pinned_by_numcu(const ArrayView& v) {
  const ByteSpan span = byte_span(v);
  if (span.hi <= span.lo) return false;
  const char* lo = v.data + span.lo;
  const auto bytes = static_cast<std::size_t>(span.hi - span.lo);
  if (cuda::is_host_pooled(lo, bytes)) return true;
  const auto l = reinterpret_cast<std::uintptr_t>(lo);
  return registered(l, l + bytes);
}

void register_input(const Operand& x) {
  for (PyObject* weak : dead_weakrefs()) Py_DECREF(weak);
  dead_weakrefs().clear();
  const HostPathConfig& config = host_path_config();
  if (!config.register_inputs || x.kind != Operand::Kind::host || !x.keepalive) return;
  // The NumPy array that owns the memory (views lead to it through .base): its lifetime is the
  // memory's, so a weak reference to it says when the registration must go. Its whole buffer is
  // registered, which serves every view of it.
  if (!py::isinstance<py::array>(x.keepalive)) return;
  py::array a = py::reinterpret_borrow<py::array>(x.keepalive);
  while (!(a.flags() & foreign::kNumpyOwnData)) {
    py::object base = a.base();
    if (!py::isinstance<py::array>(base)) return;
    a = py::reinterpret_borrow<py::array>(base);
  }
  const auto bytes = static_cast<std::size_t>(a.nbytes());
  if (bytes < config.register_min_bytes) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(a.data());
  if (registered(lo, lo + bytes)) return;
  bool ok = false;
  {
    py::gil_scoped_release release;
    ok = cuda::host_register(const_cast<void*>(a.data()), bytes);
  }
  if (!ok) return;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.spans[lo] = lo + bytes;
    r.bytes += bytes;
  }
  // NumPy clears an array's weak references before it frees the array's memory.
  py::cpp_function forget([lo](py::handle weak) {
    std::uintptr_t hi = 0;
    {
      Registry& r = registry();
      std::lock_guard<std::mutex> lock(r.mutex);
      auto it = r.spans.find(lo);
      if (it == r.spans.end()) return;
      hi = it->second;
      r.bytes -= hi - lo;
      r.spans.erase(it);
    }
    cuda::host_unregister(reinterpret_cast<void*>(lo));
    // The reference that kept the weak reference alive goes at the next registration: dropping
    // it here could free the object while its callback runs.
    dead_weakrefs().push_back(weak.ptr());
  });
  py::weakref weak(a, forget);
  weak.release();
}

// --- Streams and chunks

namespace {

// Per device: the streams the chunks rotate over, an event per stream marking its last queued
// copy, and a lock, held while a call uses them (calls run with the GIL released, so two
// threads could otherwise share a stream's staging slot).
struct Slots {
  std::mutex mutex;
  std::vector<Stream> streams;
  std::vector<void*> events;
  void* start = nullptr;
};

Slots& slots_for(int device) {
  static std::mutex lock;
  static std::map<int, std::unique_ptr<Slots>>* all = new std::map<int, std::unique_ptr<Slots>>;
  std::lock_guard<std::mutex> guard(lock);
  std::unique_ptr<Slots>& s = (*all)[device];
  if (!s) s = std::make_unique<Slots>();
  return *s;
}

int slot_count() { return std::clamp(host_path_config().streams, 2, 16); }

// Makes sure `s` (its lock held) has `count` streams and events on the current device.
void ensure_slots(Slots& s, int count) {
  if (s.start == nullptr) s.start = cuda::create_event(false);
  while (static_cast<int>(s.streams.size()) < count) {
    s.streams.push_back(cuda::create_stream(true));
    s.events.push_back(cuda::create_event(false));
  }
}

struct PooledBlock {
  char* data = nullptr;
  PooledBlock() = default;
  explicit PooledBlock(std::size_t bytes) {
    data = static_cast<char*>(cuda::allocate_host_pooled(bytes));
    if (data == nullptr && bytes > 0) {
      data = static_cast<char*>(cuda::allocate_pinned(bytes));
      plain = true;
    }
  }
  PooledBlock(const PooledBlock&) = delete;
  PooledBlock& operator=(const PooledBlock&) = delete;
  ~PooledBlock() {
    if (plain) {
      cuda::free_pinned(data);
    } else {
      cuda::free_host_pooled(data);
    }
  }
  bool plain = false;
};

// The device's slots for the length of one chunked transfer: locked, made, with the page-locked
// staging blocks it asks for. On the way out, exceptions included, every slot's queued copies
// are waited for before the blocks are freed and the lock released (so that neither staging nor
// scratch declared before the lease is freed under a copy).
class SlotLease {
 public:
  explicit SlotLease(int device) : count(slot_count()), s(slots_for(device)), lock_(s.mutex) {
    ensure_slots(s, count);
  }
  SlotLease(const SlotLease&) = delete;
  SlotLease& operator=(const SlotLease&) = delete;
  ~SlotLease() {
    for (int k = 0; k < count; ++k) {
      try {
        cuda::synchronize_event(s.events[k]);
      } catch (...) {
      }
    }
  }
  // A page-locked staging block of `bytes`, freed with the lease.
  char* stage(std::size_t bytes) {
    staging_.push_back(std::make_unique<PooledBlock>(bytes));
    return staging_.back()->data;
  }
  // The slots' streams wait for the work queued on `stream` so far (the chunks' memory was
  // allocated in its order): call once that memory is allocated.
  void start_after(Stream stream) {
    cuda::record_event(s.start, stream);
    for (int k = 0; k < count; ++k) cuda::wait_event(s.streams[k], s.start);
  }

  const int count;
  Slots& s;

 private:
  std::lock_guard<std::mutex> lock_;
  std::vector<std::unique_ptr<PooledBlock>> staging_;
};

constexpr int kMaxViews = 4;

// Views of the same shape, their dimensions reordered by views[0]'s strides (outermost first),
// then merged where every view is contiguous across them, so that a dense operation on
// C-ordered arrays has one dimension. Elementwise work is the same in any order of dimensions.
struct ChunkLayout {
  int n = 0;
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[kMaxViews][kMaxDims] = {};
  char* data[kMaxViews] = {};
  std::int64_t row_elements = 1;  // elements per index of dimension 0

  ChunkLayout(int count, const ArrayView* const* views) : n(count) {
    const ArrayView& first = *views[0];
    int order[kMaxDims];
    int m = 0;
    for (int d = 0; d < first.ndim; ++d) {
      if (first.shape[d] != 1) order[m++] = d;
    }
    std::stable_sort(order, order + m, [&](int a, int b) {
      return std::llabs(first.strides[a]) > std::llabs(first.strides[b]);
    });
    for (int i = 0; i < n; ++i) data[i] = views[i]->data;
    for (int k = 0; k < m; ++k) {
      const int d = order[k];
      bool merge = ndim > 0;
      for (int i = 0; merge && i < n; ++i) {
        merge = strides[i][ndim - 1] == views[i]->strides[d] * first.shape[d];
      }
      if (merge) {
        shape[ndim - 1] *= first.shape[d];
        for (int i = 0; i < n; ++i) strides[i][ndim - 1] = views[i]->strides[d];
      } else {
        shape[ndim] = first.shape[d];
        for (int i = 0; i < n; ++i) strides[i][ndim] = views[i]->strides[d];
        ++ndim;
      }
    }
    if (ndim == 0) {  // one element
      shape[0] = 1;
      for (int i = 0; i < n; ++i) strides[i][0] = 0;
      ndim = 1;
    }
    for (int d = 1; d < ndim; ++d) row_elements *= shape[d];
  }

  // View i's rows [r0, r0 + rows) of dimension 0, in `dtype` (its own).
  ArrayView rows(int i, DType dtype, int device, std::int64_t r0, std::int64_t count) const {
    ArrayView v;
    v.dtype = dtype;
    v.ndim = ndim;
    v.device = device;
    std::copy(shape, shape + ndim, v.shape);
    std::copy(strides[i], strides[i] + ndim, v.strides);
    v.shape[0] = count;
    v.data = data[i] + r0 * strides[i][0];
    return v;
  }

  // A dense C-ordered chunk of `count` rows at `base`.
  ArrayView dense(DType dtype, int device, char* base, std::int64_t count) const {
    ArrayView v;
    v.dtype = dtype;
    v.ndim = ndim;
    v.device = device;
    std::copy(shape, shape + ndim, v.shape);
    v.shape[0] = count;
    std::int64_t stride = static_cast<std::int64_t>(itemsize(dtype));
    for (int d = ndim - 1; d >= 0; --d) {
      v.strides[d] = stride;
      stride *= v.shape[d];
    }
    v.data = base;
    return v;
  }

  // Whether view i's rows are C-contiguous with item size `size` (then a chunk of rows is one
  // range of bytes).
  bool contiguous(int i, std::size_t size) const {
    std::int64_t stride = static_cast<std::int64_t>(size);
    for (int d = ndim - 1; d >= 0; --d) {
      if (shape[d] != 1 && strides[i][d] != stride) return false;
      stride *= shape[d];
    }
    return true;
  }

  std::int64_t rows_per_chunk(std::size_t widest_item) const {
    const std::size_t row_bytes = static_cast<std::size_t>(row_elements) * widest_item;
    const std::size_t chunk = host_path_config().chunk_bytes;
    const auto rows = static_cast<std::int64_t>(chunk / std::max<std::size_t>(row_bytes, 1));
    return std::clamp<std::int64_t>(rows, 1, std::max<std::int64_t>(shape[0], 1));
  }
};

std::size_t bytes_of(std::int64_t elements, DType dtype) {
  return static_cast<std::size_t>(elements) * itemsize(dtype);
}

// A copy between a device array and a host array of its shape, in chunks of rows that rotate
// over the slots, each staged in its slot's page-locked block: what upload_host and
// download_host share. Construct it without the GIL.
struct StagedRows {
  StagedRows(const Exec& ex, const ArrayView& device_side, const ArrayView& host_side)
      : views{&device_side, &host_side},
        layout(2, views),
        step(layout.rows_per_chunk(itemsize(device_side.dtype))),
        rows(layout.shape[0]),
        row_bytes(bytes_of(layout.row_elements, device_side.dtype)),
        lease(ex.device) {
    for (int k = 0; k < lease.count; ++k) {
      staging.push_back(lease.stage(static_cast<std::size_t>(step) * row_bytes));
    }
    lease.start_after(ex.stream);
  }
  // The device array's rows from r0, and the bytes of n rows.
  char* device_rows(std::int64_t r0) const {
    return layout.data[0] + r0 * static_cast<std::int64_t>(row_bytes);
  }
  std::size_t bytes(std::int64_t n) const { return static_cast<std::size_t>(n) * row_bytes; }

  const ArrayView* views[2];
  const ChunkLayout layout;
  const std::int64_t step, rows;
  const std::size_t row_bytes;
  SlotLease lease;
  std::vector<char*> staging;
};

}  // namespace

ArrayView upload_host(Scratch& scratch, const Exec& ex, const ArrayView& host) {
  const std::size_t bytes = bytes_of(host.size(), host.dtype);
  if (host.size() == 0 || !use_chunked(bytes) || pinned_by_numcu(host)) {
    return upload(scratch, ex, host);
  }
  const ArrayView dev = dense_view(scratch, ex, host.dtype, host.ndim, host.shape, &host);
  py::gil_scoped_release release;
  StagedRows c(ex, dev, host);
  Slots& s = c.lease.s;
  for (std::int64_t r0 = 0, i = 0; r0 < c.rows; r0 += c.step, ++i) {
    const int k = static_cast<int>(i % c.lease.count);
    const std::int64_t n = std::min(c.step, c.rows - r0);
    cuda::synchronize_event(s.events[k]);
    const ArrayView stage = c.layout.dense(host.dtype, kHost, c.staging[k], n);
    run_cast(Exec{}, stage, c.layout.rows(1, host.dtype, kHost, r0, n), "numcu (host upload)");
    cuda::copy_async(c.device_rows(r0), stage.data, c.bytes(n), s.streams[k]);
    cuda::record_event(s.events[k], s.streams[k]);
  }
  for (int k = 0; k < c.lease.count; ++k) cuda::wait_event(ex.stream, s.events[k]);
  return dev;
}

void download_host(const Exec& ex, const ArrayView& dst, const ArrayView& src) {
  const std::size_t bytes = bytes_of(src.size(), src.dtype);
  if (src.size() == 0) return;
  const bool same_layout = dst.dtype == src.dtype && is_dense(dst) &&
                           std::equal(dst.strides, dst.strides + dst.ndim, src.strides);
  if (same_layout && (!use_chunked(bytes) || pinned_by_numcu(dst))) {
    const ByteSpan span = byte_span(src);
    cuda::copy_async(dst.data + byte_span(dst).lo, src.data + span.lo, bytes, ex.stream);
    cuda::synchronize(ex.stream);
    return;
  }
  StagedRows c(ex, src, dst);
  Slots& s = c.lease.s;
  // Chunk i is copied out while chunk i - 1, already down, is moved into dst.
  auto scatter = [&](std::int64_t i) {
    const int k = static_cast<int>(i % c.lease.count);
    const std::int64_t r0 = i * c.step, n = std::min(c.step, c.rows - r0);
    cuda::synchronize_event(s.events[k]);
    run_cast(Exec{}, c.layout.rows(1, dst.dtype, kHost, r0, n),
             c.layout.dense(src.dtype, kHost, c.staging[k], n), "numcu (host download)");
  };
  std::int64_t i = 0;
  for (std::int64_t r0 = 0; r0 < c.rows; r0 += c.step, ++i) {
    const int k = static_cast<int>(i % c.lease.count);
    cuda::synchronize_event(s.events[k]);
    cuda::copy_async(c.staging[k], c.device_rows(r0), c.bytes(std::min(c.step, c.rows - r0)),
                     s.streams[k]);
    cuda::record_event(s.events[k], s.streams[k]);
    if (i > 0) scatter(i - 1);
  }
  scatter(i - 1);
}

void run_chunked(const Exec& ex, int n, const ArrayView* views, const DType* dtypes,
                 const bool* is_scalar, const ChunkKernel& kernel, const char* fname) {
  if (views[0].size() == 0) return;
  // Arrays among the operands (views[0], the destination, always), laid out together.
  int index[kMaxViews];
  const ArrayView* arrays[kMaxViews];
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || !is_scalar[i]) {
      index[m] = i;
      arrays[m++] = &views[i];
    }
  }
  // Inputs broadcast to the destination's shape.
  ArrayView full[kMaxViews];
  const ArrayView& dst = views[0];
  for (int j = 0; j < m; ++j) {
    const ArrayView& v = *arrays[j];
    ArrayView& f = full[j];
    f = v;
    f.ndim = dst.ndim;
    const int lead = dst.ndim - v.ndim;
    for (int d = 0; d < dst.ndim; ++d) {
      f.shape[d] = dst.shape[d];
      const bool broadcast = d < lead || v.shape[d - lead] == 1;
      f.strides[d] = broadcast ? 0 : v.strides[d - lead];
    }
    arrays[j] = &f;
  }
  const ChunkLayout layout(m, arrays);
  std::size_t widest = 1;
  for (int j = 0; j < m; ++j) widest = std::max<std::size_t>(widest, itemsize(dtypes[index[j]]));
  const std::int64_t step = layout.rows_per_chunk(widest);
  const std::int64_t rows = layout.shape[0];

  // Which operands move without staging: page-locked, contiguous, already in their dtype.
  bool direct[kMaxViews];
  for (int j = 0; j < m; ++j) {
    const DType want = dtypes[index[j]];
    direct[j] =
        full[j].dtype == want && layout.contiguous(j, itemsize(want)) && pinned_by_numcu(full[j]);
  }

  // Per slot and operand: a device chunk, and page-locked staging unless the operand is direct.
  Scratch scratch;
  SlotLease lease(ex.device);
  const int count = lease.count;
  Slots& s = lease.s;
  std::vector<char*> device_chunk(static_cast<std::size_t>(count * m), nullptr);
  std::vector<char*> stage_chunk(static_cast<std::size_t>(count * m), nullptr);
  for (int k = 0; k < count; ++k) {
    for (int j = 0; j < m; ++j) {
      const std::size_t b = bytes_of(step * layout.row_elements, dtypes[index[j]]);
      device_chunk[k * m + j] = scratch.allocate(ex, b);
      if (!direct[j]) stage_chunk[k * m + j] = lease.stage(b);
    }
  }
  lease.start_after(ex.stream);

  const DType out_dtype = dtypes[0];
  const std::size_t out_row_bytes = bytes_of(layout.row_elements, out_dtype);
  auto scatter = [&](std::int64_t i) {
    if (direct[0]) return;
    const int k = static_cast<int>(i % count);
    const std::int64_t r0 = i * step, c = std::min(step, rows - r0);
    cuda::synchronize_event(s.events[k]);
    run_cast(Exec{}, layout.rows(0, dst.dtype, kHost, r0, c),
             layout.dense(out_dtype, kHost, stage_chunk[k * m], c), fname);
  };
  std::int64_t i = 0;
  for (std::int64_t r0 = 0; r0 < rows; r0 += step, ++i) {
    const int k = static_cast<int>(i % count);
    const Stream stream = s.streams[k];
    const std::int64_t c = std::min(step, rows - r0);
    // The slot's previous chunk has left its staging and device memory.
    cuda::synchronize_event(s.events[k]);
    ArrayView chunk[kMaxViews];
    for (int t = 0; t < n; ++t) chunk[t] = views[t];  // scalars pass through
    for (int j = 0; j < m; ++j) {
      const DType want = dtypes[index[j]];
      const ArrayView dev = layout.dense(want, ex.device, device_chunk[k * m + j], c);
      chunk[index[j]] = dev;
      if (j == 0) continue;
      const std::size_t b = bytes_of(c * layout.row_elements, want);
      if (direct[j]) {
        cuda::copy_async(dev.data, layout.rows(j, want, kHost, r0, c).data, b, stream);
      } else {
        const ArrayView stage = layout.dense(want, kHost, stage_chunk[k * m + j], c);
        run_cast(Exec{}, stage, layout.rows(j, full[j].dtype, kHost, r0, c), fname);
        cuda::copy_async(dev.data, stage.data, b, stream);
      }
    }
    kernel(chunk, stream);
    char* out_host = direct[0] ? layout.data[0] + r0 * layout.strides[0][0] : stage_chunk[k * m];
    cuda::copy_async(out_host, chunk[0].data, static_cast<std::size_t>(c) * out_row_bytes, stream);
    cuda::record_event(s.events[k], stream);
    if (i > 0) scatter(i - 1);
  }
  if (i > 0) scatter(i - 1);
  for (int k = 0; k < count; ++k) cuda::synchronize_event(s.events[k]);
}

// --- Python

void bind_host_memory(py::module_& m) {
  using namespace py::literals;
  m.def("_host_pool_info", [] {
    const cuda::HostPoolInfo info = cuda::host_pool_info();
    return py::dict("available"_a = cuda::host_pool_available(), "live_blocks"_a = info.live_blocks,
                    "live_bytes"_a = info.live_bytes, "cached_blocks"_a = info.cached_blocks,
                    "cached_bytes"_a = info.cached_bytes, "cache_limit"_a = info.cache_limit,
                    "hits"_a = info.hits, "misses"_a = info.misses);
  });
  m.def("_host_pool_release", [] { cuda::release_host_pool(); });
  m.def(
      "_pinned_by_numcu",
      [](py::handle obj) {
        Operand op;
        intake_into(op, obj, "numcu._core._pinned_by_numcu");
        return op.kind == Operand::Kind::host && pinned_by_numcu(op.view);
      },
      py::arg("obj"),
      "Whether obj is host data numcu has page-locked (a pool block, an array pinned in place), "
      "as a call's placement counts it.");
  m.def("_host_registry_info", [] {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return py::dict("arrays"_a = r.spans.size(), "bytes"_a = r.bytes);
  });
  m.def(
      "_host_path_config",
      [](py::kwargs kwargs) {
        HostPathConfig next = host_path_config();
        for (auto item : kwargs) {
          const std::string key = py::str(item.first);
          py::handle v = item.second;
          auto size = [&](std::size_t lo) {
            const auto x = v.cast<long long>();
            if (x < static_cast<long long>(lo)) {
              throw_value_error("numcu._host_path_config: " + key + " must be at least " +
                                std::to_string(lo));
            }
            return static_cast<std::size_t>(x);
          };
          if (key == "pool_min_bytes") {
            next.pool_min_bytes = size(0);
          } else if (key == "cpu_pool_min_bytes") {
            next.cpu_pool_min_bytes = size(0);
          } else if (key == "pipeline_min_bytes") {
            next.pipeline_min_bytes = size(0);
          } else if (key == "chunk_bytes") {
            next.chunk_bytes = size(16);
          } else if (key == "streams") {
            next.streams = static_cast<int>(std::min<std::size_t>(size(2), 16));
          } else if (key == "register_inputs") {
            next.register_inputs = v.cast<bool>();
          } else if (key == "register_min_bytes") {
            next.register_min_bytes = size(1);
          } else {
            throw_type_error("numcu._host_path_config: unknown setting '" + key + "'");
          }
        }
        host_path_config() = next;
        const HostPathConfig& c = host_path_config();
        return py::dict(
            "pool_min_bytes"_a = c.pool_min_bytes, "cpu_pool_min_bytes"_a = c.cpu_pool_min_bytes,
            "pipeline_min_bytes"_a = c.pipeline_min_bytes, "chunk_bytes"_a = c.chunk_bytes,
            "streams"_a = c.streams, "register_inputs"_a = c.register_inputs,
            "register_min_bytes"_a = c.register_min_bytes);
      },
      "The host path's settings, changed by keyword (for tests and benchmarks); returns them.");
}

}  // namespace numcu::python
