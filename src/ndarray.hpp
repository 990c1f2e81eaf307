// numcu.ndarray: a device array, either allocated by numcu from CUDA's stream-ordered pool or
// a zero-copy view of another library's array (which it keeps alive).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "numcu/array_view.hpp"
#include "numcu/backend.hpp"

namespace numcu::python {

namespace py = pybind11;

// Keeps a stream alive while memory may still be freed on it: a numcu-created stream, or
// another library's stream object held by stream_object_keeper's keeper while that keeper lives
// somewhere; null for the others (the legacy default stream, handles of other libraries' streams).
std::shared_ptr<void> stream_keeper(Stream stream);

// The stream numcu arrays used on `stream` call home: `stream` itself when numcu can keep it
// alive (its own streams, the legacy default stream, another library's stream object held as
// stream_keeper says), else the legacy default stream, because another library may destroy its
// stream while numcu memory is still to be freed on it.
Stream home_stream(Stream stream);

// For a stream object `obj` of another library whose stream lives at least as long as the object
// (CuPy's and PyTorch's Stream over a stream of their own; not their ExternalStream, CuPy's
// Stream.from_external or a PyTorch Stream over an external handle, which wrap streams someone
// else may destroy), a keeper holding the object, shared by every keeper of the same stream;
// null for other objects. While a keeper lives, stream_keeper(stream) returns it: memory used on
// the stream then makes it its home, and later calls on the stream do not hand that memory back to
// another stream after each call. A Call takes one for a stream= object, for the call's length;
// memory homed on the stream holds it after. The object is released with the GIL taken.
std::shared_ptr<void> stream_object_keeper(py::handle obj, Stream stream);

// Whether `obj` is the object a live keeper of stream_object_keeper's holds, and its stream: an
// object's stream was read and checked when its keeper was made.
bool held_stream(py::handle obj, Stream* stream);

// A stream handle from outside numcu (stream=, a __cuda_array_interface__'s 'stream', a
// consumer's __dlpack__ stream), not one of the special values 0, 1 and 2, checked before CUDA
// sees it, because the driver dereferences a handle and a made-up one crashes the process.
// numcu's own live streams pass at once. Others must look like a user-space address, have
// readable memory there, and be known to the driver; a handle that passes is remembered, so
// that later calls with it cost a lookup. ValueError naming `fname` and `what` ("stream")
// otherwise. What cannot be seen: a stream its library destroyed after numcu checked it.
// `from`: a bare integer the user passed as stream= is refused where numcu destroyed a stream at
// that address; a stream object's handle, or one a producer or consumer hands over (CAI,
// DLPack), vouches for the live stream the driver has made there since.
enum class StreamFrom { user_integer, vouched };
Stream foreign_stream(std::uintptr_t handle, const char* fname, const char* what, StreamFrom from);

// Whether `obj` is a numcu.cuda.Stream, and its handle: the common stream= argument, read
// without Python attribute lookups.
bool numcu_stream_handle(py::handle obj, Stream* handle);

// What a numcu.ndarray's memory is (its `memory` attribute): numcu's device memory from the
// stream-ordered pool, numcu's managed (unified) memory, or another library's memory it views.
enum class Memory { device, managed, foreign };
const char* memory_name(Memory memory);

// Memory numcu allocated on a device: from the stream-ordered pool, returned to it when the last
// array using it goes, or managed memory (`managed`), freed once the work queued on it is done.
class DeviceAllocation {
 public:
  DeviceAllocation(std::size_t bytes, int device, Stream stream, bool managed = false);
  ~DeviceAllocation();
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;
  char* data() const { return static_cast<char*>(ptr_); }
  // The stream the memory was last used on: where it is freed, and what later work on another
  // stream must wait for.
  Stream stream() const { return stream_; }
  void set_stream(Stream stream) {
    if (stream == stream_) return;
    stream_ = stream;
    keeper_ = stream_keeper(stream);
  }
  bool managed() const { return managed_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
  int device_;
  bool managed_;
  Stream stream_;
  std::shared_ptr<void> keeper_;  // destroyed after the memory is freed on stream_
};

class NdArray {
 public:
  // A new dense array; `like` (optional) gives the dimension order to copy (NumPy's
  // order='K'), otherwise C order. Managed memory is prefetched to the device on `stream`.
  static NdArray empty(DType dtype, int ndim, const std::int64_t* shape, int device, Stream stream,
                       const ArrayView* like = nullptr, Memory memory = Memory::device);
  // A zero-copy view of memory `owner` keeps alive.
  static NdArray wrap(const ArrayView& view, py::object owner);

  const ArrayView& view() const { return view_; }
  // numcu's allocation behind the array; null for views of other libraries' memory.
  const std::shared_ptr<DeviceAllocation>& allocation() const { return allocation_; }
  Memory memory() const {
    if (!allocation_) return Memory::foreign;
    return allocation_->managed() ? Memory::managed : Memory::device;
  }
  // The stream work on this array should be ordered after.
  Stream last_stream() const;
  // Another view of the same memory (kept alive by both).
  NdArray with_view(const ArrayView& view) const {
    NdArray a = *this;
    a.view_ = view;
    a.element_strides_.reset();
    return a;
  }
  // The strides in elements, as DLPack's non-owning views describe them: kept with the array,
  // made on first request; null when a stride is not a whole number of elements.
  std::int64_t* element_strides() const;

  py::tuple shape() const;
  py::tuple strides() const;
  py::dict cuda_array_interface() const;

 private:
  ArrayView view_;
  std::shared_ptr<DeviceAllocation> allocation_;
  std::shared_ptr<py::object> owner_;
  mutable std::shared_ptr<std::int64_t[]> element_strides_;
};

// The NdArray a numcu.ndarray holds, or null for any other object: the first question every
// intake asks, answered for the exact type by one pointer comparison instead of pybind11's type
// lookups (subclasses take the general route).
const NdArray* ndarray_of(py::handle obj);

// Dense byte strides for `shape`, with the dimensions ordered like `like`'s strides (largest
// first) when it is given, else C order.
void dense_strides(DType dtype, int ndim, const std::int64_t* shape, const ArrayView* like,
                   std::int64_t* strides);
// A view of `dtype` and `shape` on `device` with those strides; its data left null.
ArrayView dense_layout(DType dtype, int ndim, const std::int64_t* shape, int device,
                       const ArrayView* like);

// numpy.dtype objects for numcu's dtypes.
py::object numpy_dtype(DType dtype);

// A NumPy array for `view`'s memory layout, freshly allocated (data uninitialised).
py::object numpy_empty(DType dtype, int ndim, const std::int64_t* shape,
                       const std::int64_t* strides);

void bind_ndarray(py::module_& m);
// Views, shape changes, copies, fills and item assignment (array_methods.cpp).
void bind_array_methods(py::class_<NdArray>& cls);
// numcu.empty, zeros, ones, full, their *_like forms, arange and linspace (creation.cpp).
void bind_creation(py::module_& m);

}  // namespace numcu::python
