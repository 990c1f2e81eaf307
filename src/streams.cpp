// numcu.cuda.Stream, Event and the device's memory statistics.
#include <pybind11/pybind11.h>

#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#endif

#include "elementwise_call.hpp"
#include "foreign.hpp"
#include "intake.hpp"
#include "ndarray.hpp"
#include "numcu/errors.hpp"
#include "numcu/runtime.hpp"

namespace numcu::python {
namespace {

// Destroys a stream numcu created once neither its Python object nor any memory last used on
// it needs it.
struct StreamOwner {
  explicit StreamOwner(Stream h) : handle(h) {}
  ~StreamOwner() { cuda::destroy_stream(handle); }
  StreamOwner(const StreamOwner&) = delete;
  StreamOwner& operator=(const StreamOwner&) = delete;
  Stream handle;
};

// Streams numcu owns, by handle (accessed with the GIL held).
std::unordered_map<Stream, std::weak_ptr<StreamOwner>>& owned_streams() {
  static auto* map = new std::unordered_map<Stream, std::weak_ptr<StreamOwner>>();
  return *map;
}

class PyStream {
 public:
  PyStream(Stream handle, bool owned) : handle_(handle) {
    if (owned) {
      owner_ = std::make_shared<StreamOwner>(handle);
      owned_streams()[handle] = owner_;
    }
  }
  PyStream(const PyStream&) = delete;
  PyStream& operator=(const PyStream&) = delete;

  Stream handle() const { return handle_; }
  std::uintptr_t ptr() const { return reinterpret_cast<std::uintptr_t>(handle_); }
  void enter() {
    saved_.push_back(cuda::current_stream());
    cuda::set_current_stream(handle_);
  }
  void exit() {
    cuda::set_current_stream(saved_.back());
    saved_.pop_back();
  }

 private:
  Stream handle_;
  std::shared_ptr<StreamOwner> owner_;
  std::vector<Stream> saved_;
};

PyTypeObject* g_stream_type = nullptr;  // numcu.cuda.Stream, set when the module binds it

class PyEvent {
 public:
  explicit PyEvent(bool timing) : event_(cuda::create_event(timing)) {}
  ~PyEvent() { cuda::destroy_event(event_); }
  PyEvent(const PyEvent&) = delete;
  PyEvent& operator=(const PyEvent&) = delete;
  void* get() const { return event_; }

 private:
  void* event_;
};

Stream stream_or_current(py::handle stream) {
  return stream.is_none() ? cuda::current_stream() : stream_from_python(stream, "numcu.cuda");
}

int device_or_current(py::handle device) {
  if (device.is_none()) return cuda::current_device();
  if (py::hasattr(device, "id")) return device.attr("id").cast<int>();
  return device.cast<int>();
}

// Other libraries' stream objects held by keepers (stream_object_keeper), by handle. Weak: an
// entry lives as long as some memory or call holds its keeper; expired entries are swept when
// the map grows.
struct ObjectStreams {
  std::mutex mutex;
  std::unordered_map<Stream, std::weak_ptr<void>> keepers;
  // The same keepers by the object they hold, with its stream: a call that passes a held object
  // again finds its stream without asking the object (held_stream).
  std::unordered_map<PyObject*, std::pair<Stream, std::weak_ptr<void>>> by_object;
};
constexpr std::size_t kObjectStreamsSweep = 64;

ObjectStreams& object_streams() {
  static auto* map = new ObjectStreams();  // never destroyed: keepers may outlive the module
  return *map;
}

std::shared_ptr<void> object_stream_keeper(Stream stream) {
  ObjectStreams& objects = object_streams();
  std::lock_guard<std::mutex> lock(objects.mutex);
  auto it = objects.keepers.find(stream);
  return it == objects.keepers.end() ? nullptr : it->second.lock();
}

// The live keeper that holds `obj`, and its stream; null where there is none. A keeper whose
// object is alive keeps the object's address from being reused.
std::shared_ptr<void> held_keeper(py::handle obj, Stream* stream) {
  ObjectStreams& objects = object_streams();
  std::shared_ptr<void> alive;  // let go after the lock where it is not the one
  {
    std::lock_guard<std::mutex> lock(objects.mutex);
    auto it = objects.by_object.find(obj.ptr());
    if (it == objects.by_object.end()) return nullptr;
    alive = it->second.second.lock();
    *stream = it->second.first;
  }
  if (alive && static_cast<py::object*>(alive.get())->ptr() == obj.ptr()) return alive;
  return nullptr;
}

enum class StreamType {
  other,
  cupy,                // a CuPy without Stream.from_external: every Stream made its stream
  cupy_from_external,  // CuPy 14 on: a Stream may wrap a foreign stream object
  torch,
};

// Which library's own Stream type `type` is exactly (not a subclass such as ExternalStream),
// where that library is imported.
StreamType stream_type(PyTypeObject* type) {
  static LibraryHook cupy, torch;
  const auto* t = reinterpret_cast<PyObject*>(type);
  if (find_hook(cupy, "cupy.cuda.stream", "Stream", "") && t == cupy.type) {
    static const bool wraps = PyObject_HasAttrString(cupy.type, "from_external") != 0;
    return wraps ? StreamType::cupy_from_external : StreamType::cupy;
  }
  if (find_hook(torch, "torch.cuda.streams", "Stream", "") && t == torch.type) {
    return StreamType::torch;
  }
  return StreamType::other;
}

// Whether `obj` keeps its stream alive for as long as it lives: a CuPy Stream that made its
// stream (CuPy destroys it when the object dies), a PyTorch Stream from PyTorch's pool (never
// destroyed). Not a CuPy Stream.from_external (it holds the foreign object, which may not own
// its stream), nor a PyTorch Stream over an external stream (whose id is the handle itself).
bool owns_its_stream(py::handle obj) {
  switch (stream_type(Py_TYPE(obj.ptr()))) {
    case StreamType::cupy:
      return true;
    case StreamType::cupy_from_external: {
      // CuPy marks a wrapped foreign stream by the reference it holds to the foreign object.
      // Where the mark is not found, the stream is not taken to be the object's.
      PyObject* ref = PyObject_GetAttrString(obj.ptr(), foreign::kCupyForeignStreamRef);
      if (ref == nullptr) {
        PyErr_Clear();
        return false;
      }
      const bool own = ref == Py_None;
      Py_DECREF(ref);
      return own;
    }
    case StreamType::torch: {
      PyObject* id = PyObject_GetAttrString(obj.ptr(), "stream_id");
      PyObject* handle = id ? PyObject_GetAttrString(obj.ptr(), "cuda_stream") : nullptr;
      bool own = false;
      if (id != nullptr && handle != nullptr) {
        const int cmp = PyObject_RichCompareBool(id, handle, Py_NE);
        own = cmp == 1;
      }
      if (PyErr_Occurred()) PyErr_Clear();
      Py_XDECREF(id);
      Py_XDECREF(handle);
      return own;
    }
    case StreamType::other:
      break;
  }
  return false;
}

}  // namespace

std::shared_ptr<void> stream_keeper(Stream stream) {
  if (stream == nullptr) return nullptr;
  auto& map = owned_streams();
  auto it = map.find(stream);
  // An expired entry stays: foreign_stream tells a destroyed numcu stream by it.
  if (it != map.end()) return it->second.lock();
  return object_stream_keeper(stream);
}

bool held_stream(py::handle obj, Stream* stream) { return held_keeper(obj, stream) != nullptr; }

std::shared_ptr<void> stream_object_keeper(py::handle obj, Stream stream) {
  if (stream == nullptr || stream == reinterpret_cast<Stream>(2)) return nullptr;
  ObjectStreams& objects = object_streams();
  // The object a live keeper holds was judged when the keeper was made: calls that pass it
  // again read none of its attributes.
  Stream held_on = nullptr;
  std::shared_ptr<void> held = held_keeper(obj, &held_on);
  if (held && held_on == stream) return held;
  if (!owns_its_stream(obj)) return nullptr;
  std::lock_guard<std::mutex> lock(objects.mutex);
  std::weak_ptr<void>& entry = objects.keepers[stream];
  if (std::shared_ptr<void> alive = entry.lock()) return alive;
  std::shared_ptr<void> keeper(new py::object(py::reinterpret_borrow<py::object>(obj)),
                               [](void* object) {
                                 // Left to the process's end if Python is gone already.
                                 if (!Py_IsInitialized()) return;
                                 py::gil_scoped_acquire gil;
                                 delete static_cast<py::object*>(object);
                               });
  entry = keeper;
  objects.by_object[obj.ptr()] = {stream, keeper};
  if (objects.keepers.size() >= kObjectStreamsSweep ||
      objects.by_object.size() >= kObjectStreamsSweep) {
    for (auto it = objects.keepers.begin(); it != objects.keepers.end();) {
      it = it->second.expired() ? objects.keepers.erase(it) : std::next(it);
    }
    for (auto it = objects.by_object.begin(); it != objects.by_object.end();) {
      it = it->second.second.expired() ? objects.by_object.erase(it) : std::next(it);
    }
  }
  return keeper;
}

Stream home_stream(Stream stream) {
  return stream == nullptr || stream_keeper(stream) ? stream : nullptr;
}

namespace {

// Handles of other libraries' streams that passed foreign_stream's checks: each is probed once,
// and later calls with it pay a lookup. Bounded, so that a program making streams without end
// does not grow it without end: when full it is emptied, and handles are probed again.
struct CheckedStreams {
  std::mutex mutex;
  std::unordered_set<std::uintptr_t> handles;
};
constexpr std::size_t kMaxCheckedStreams = 4096;

CheckedStreams& checked_streams() {
  static auto* checked = new CheckedStreams();  // never destroyed: used until exit
  return *checked;
}

// A stream handle is the address of the driver's stream object: nothing is mapped below Linux's
// default mmap_min_addr, user space ends below 2^56 on every 64-bit architecture CUDA supports
// (x86-64 with 5-level paging included), and the object is at least 8-byte aligned.
constexpr std::uintptr_t kLowestAddress = std::uintptr_t{1} << 16;
constexpr std::uintptr_t kAddressLimit = std::uintptr_t{1} << 56;
// How much of the stream object the probe reads.
constexpr std::size_t kProbeBytes = 256;

// Whether `bytes` bytes at `address` can be read without a fault: the kernel copies them into a
// pipe, and reports EFAULT instead of faulting where it cannot.
bool readable(std::uintptr_t address, std::size_t bytes) {
#if defined(__linux__)
  static std::mutex mutex;
  static int fds[2] = {-1, -1};
  static pid_t owner = 0;
  std::lock_guard<std::mutex> lock(mutex);
  if (owner != getpid()) {  // a forked child gets a pipe of its own
    if (fds[0] >= 0) {
      close(fds[0]);
      close(fds[1]);
    }
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
      fds[0] = fds[1] = -1;
      return true;  // no probe possible: the driver query still runs
    }
    owner = getpid();
  }
  ssize_t written;
  do {
    written = write(fds[1], reinterpret_cast<const void*>(address), bytes);
  } while (written < 0 && errno == EINTR);
  const bool fault = written < 0 ? errno == EFAULT : written != static_cast<ssize_t>(bytes);
  char sink[kProbeBytes];
  while (read(fds[0], sink, sizeof sink) > 0) {
  }
  return !fault;
#else
  (void)address;
  (void)bytes;
  return true;
#endif
}

[[noreturn]] void not_a_stream(const char* fname, const char* what, std::uintptr_t handle,
                               const std::string& why) {
  throw_value_error(std::string(fname) + ": " + what + " " + std::to_string(handle) +
                    " is not a CUDA stream (" + why + ")");
}

}  // namespace

bool numcu_stream_handle(py::handle obj, Stream* handle) {
  if (g_stream_type == nullptr || Py_TYPE(obj.ptr()) != g_stream_type) return false;
  *handle = foreign::pybind_value<const PyStream>(obj.ptr())->handle();
  return true;
}

Stream foreign_stream(std::uintptr_t handle, const char* fname, const char* what, StreamFrom from) {
  const Stream stream = reinterpret_cast<Stream>(handle);
  auto& owned = owned_streams();
  auto it = owned.find(stream);
  if (it != owned.end()) {
    if (!it->second.expired()) return stream;
    // numcu made a stream at this address and destroyed it. The driver may crash on a destroyed
    // stream's handle, so a bare integer from the user is refused without asking it. A stream
    // object or a library's handle (CAI, DLPack) speaks for a live stream: the driver has made
    // another one at the same address, which is checked below like any other.
    if (from == StreamFrom::user_integer) {
      not_a_stream(fname, what, handle,
                   "numcu made that stream and has destroyed it since; if another library "
                   "made a stream at the same address since, pass its stream object");
    }
    owned.erase(it);
  }
  CheckedStreams& checked = checked_streams();
  {
    std::lock_guard<std::mutex> lock(checked.mutex);
    if (checked.handles.count(handle) != 0) return stream;
  }
  if (handle < kLowestAddress || handle >= kAddressLimit || handle % 8 != 0) {
    not_a_stream(fname, what, handle,
                 "not a valid address; a stream is 1 (the legacy default stream), 2 (the "
                 "per-thread default stream) or a cudaStream_t handle");
  }
  if (!readable(handle, kProbeBytes)) {
    not_a_stream(fname, what, handle, "no memory is readable at that address");
  }
  const std::string error = cuda::stream_query_error(stream);
  if (!error.empty()) {
    not_a_stream(fname, what, handle, "the CUDA driver does not know it: " + error);
  }
  std::lock_guard<std::mutex> lock(checked.mutex);
  if (checked.handles.size() >= kMaxCheckedStreams) checked.handles.clear();
  checked.handles.insert(handle);
  return stream;
}

void bind_streams(py::module_& c) {
  py::class_<PyEvent, std::shared_ptr<PyEvent>>(c, "Event", R"doc(
A CUDA event: mark a point in a stream, wait for it, time between two.
)doc")
      .def(py::init([](bool timing) { return std::make_shared<PyEvent>(timing); }),
           py::arg("timing") = false)
      .def(
          "record",
          [](std::shared_ptr<PyEvent> e, py::handle stream) {
            cuda::record_event(e->get(), stream_or_current(stream));
            return e;
          },
          py::arg("stream") = py::none(), "Record on `stream` (the current stream by default).")
      .def("synchronize",
           [](const PyEvent& e) {
             py::gil_scoped_release release;
             cuda::synchronize_event(e.get());
           })
      .def(
          "query", [](const PyEvent& e) { return cuda::query_event(e.get()); },
          "Whether the work before the event has finished.")
      .def(
          "elapsed_time",
          [](const PyEvent& start, const PyEvent& end) {
            return cuda::elapsed_ms(start.get(), end.get());
          },
          py::arg("end"), "Milliseconds from this event to `end` (both made with timing=True).");

  py::class_<PyStream, std::shared_ptr<PyStream>> stream_class(c, "Stream", R"doc(
A CUDA stream. ``Stream()`` creates one (``non_blocking=True``: not ordered with the legacy
default stream); ``Stream(ptr=handle)`` wraps another library's. ``with stream:`` makes it
the current stream of this thread, which every numcu operation queues on unless given
``stream=``. It speaks the ``__cuda_stream__`` protocol.
)doc");
  stream_class
      .def(py::init([](bool non_blocking, py::handle ptr) {
             if (!ptr.is_none()) {
               return std::make_shared<PyStream>(stream_from_python(ptr, "numcu.cuda.Stream"),
                                                 false);
             }
             cuda::activate(cuda::current_device());
             return std::make_shared<PyStream>(cuda::create_stream(non_blocking), true);
           }),
           py::arg("non_blocking") = false, py::arg("ptr") = py::none())
      .def_property_readonly("ptr", &PyStream::ptr, "The cudaStream_t handle as an int.")
      .def("__cuda_stream__", [](const PyStream& s) { return py::make_tuple(0, s.ptr()); })
      .def("synchronize",
           [](const PyStream& s) {
             py::gil_scoped_release release;
             cuda::synchronize(s.handle());
           })
      .def(
          "record",
          [](const PyStream& s, std::shared_ptr<PyEvent> e) {
            if (!e) e = std::make_shared<PyEvent>(false);
            cuda::record_event(e->get(), s.handle());
            return e;
          },
          py::arg("event") = nullptr, "Record an event on this stream and return it.")
      .def(
          "wait_event",
          [](const PyStream& s, const PyEvent& e) { cuda::wait_event(s.handle(), e.get()); },
          py::arg("event"))
      .def(
          "wait_stream",
          [](const PyStream& s, py::handle other) {
            cuda::stream_wait(s.handle(), stream_from_python(other, "numcu.cuda.Stream"));
          },
          py::arg("stream"), "Order this stream after the work queued on `stream` so far.")
      .def("__enter__",
           [](std::shared_ptr<PyStream> s) {
             s->enter();
             return s;
           })
      .def("__exit__", [](PyStream& s, py::args) { s.exit(); })
      .def("__eq__",
           [](const PyStream& a, py::handle b) {
             return py::isinstance<PyStream>(b) && b.cast<const PyStream&>().ptr() == a.ptr();
           })
      .def("__hash__", [](const PyStream& s) { return std::hash<std::uintptr_t>()(s.ptr()); })
      .def("__repr__",
           [](const PyStream& s) { return "<numcu.cuda.Stream " + std::to_string(s.ptr()) + ">"; });
  g_stream_type = reinterpret_cast<PyTypeObject*>(stream_class.ptr());

  c.def(
      "current_stream", [] { return std::make_shared<PyStream>(cuda::current_stream(), false); },
      "The stream numcu queues work on in this thread (the legacy default stream, ptr 0, "
      "unless set).");
  c.def(
      "memory_info",
      [](py::handle device) {
        cuda::DeviceRestore restore;  // see runtime.hpp
        std::size_t used = 0, reserved = 0;
        // Without a GPU the plain call reports an empty pool (as synchronize() returns at once).
        if (!device.is_none() || cuda::is_available()) {
          cuda::memory_info(device_or_current(device), &used, &reserved);
        }
        py::dict d;
        d["used_bytes"] = used;
        d["reserved_bytes"] = reserved;
        return d;
      },
      py::arg("device") = py::none(),
      "Bytes of the device's memory pool held by arrays, and held by the pool in all (freed "
      "blocks are kept for reuse); both 0 without a GPU.");
  c.def(
      "release_memory",
      [](py::handle device) {
        if (device.is_none() && !cuda::is_available()) return;
        cuda::DeviceRestore restore;  // see runtime.hpp
        const int d = device_or_current(device);
        py::gil_scoped_release release;
        cuda::release_cached_memory(d);
      },
      py::arg("device") = py::none(),
      "Synchronise the device and return the pool's unused blocks to it (nothing without a "
      "GPU).");
}

}  // namespace numcu::python
