// ArrayView: what numcu knows of an array it did not allocate, whoever made it.
#pragma once

#include <cstdint>
#include <cstring>

#include "numcu/config.hpp"
#include "numcu/dtype.hpp"

namespace numcu {

// Where an array's memory lives: the host, or a CUDA device by index.
constexpr int kHost = -1;

// Only the first ndim entries of shape and strides mean anything: a new view leaves the rest
// unset, and a copy copies only those, or the first kSmallDims (a view holds room for kMaxDims
// dimensions, 1 KiB, which zeroing and copying whole cost a quarter of a small call's time).
struct ArrayView {
  char* data = nullptr;
  DType dtype = DType::float64;
  int ndim = 0;
  std::int64_t shape[kMaxDims];
  std::int64_t strides[kMaxDims];  // in bytes, any sign
  int device = kHost;
  bool readonly = false;

  static constexpr int kSmallDims = 4;

  ArrayView() {}  // user-provided: ArrayView() and ArrayView{} do not zero the arrays either
  ArrayView(const ArrayView& o) { *this = o; }
  ArrayView& operator=(const ArrayView& o) {
    if (this == &o) return *this;
    data = o.data;
    dtype = o.dtype;
    ndim = o.ndim;
    device = o.device;
    readonly = o.readonly;
    // Views of up to kSmallDims dimensions, nearly all of them, copy that many entries as a
    // fixed-size block (a few vector moves) where a copy of ndim entries is two library calls.
    // memcpy copies whatever bytes the unused entries hold, as the standard allows.
    if (ndim <= kSmallDims) {
      std::memcpy(shape, o.shape, sizeof(std::int64_t) * kSmallDims);
      std::memcpy(strides, o.strides, sizeof(std::int64_t) * kSmallDims);
    } else {
      std::memcpy(shape, o.shape, sizeof(std::int64_t) * static_cast<unsigned>(ndim));
      std::memcpy(strides, o.strides, sizeof(std::int64_t) * static_cast<unsigned>(ndim));
    }
    return *this;
  }

  std::int64_t size() const {
    std::int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= shape[d];
    return n;
  }
  bool is_c_contiguous() const {
    std::int64_t expected = itemsize(dtype);
    for (int d = ndim - 1; d >= 0; --d) {
      if (shape[d] == 0) return true;
      if (shape[d] != 1 && strides[d] != expected) return false;
      expected *= shape[d];
    }
    return true;
  }
};

// The byte range [lo, hi) an array's elements occupy, relative to its data pointer: what must
// be copied to move a strided view between host and device with its strides kept.
struct ByteSpan {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
};
inline ByteSpan byte_span(const ArrayView& v) {
  ByteSpan s;
  if (v.size() == 0) return s;
  for (int d = 0; d < v.ndim; ++d) {
    const std::int64_t extent = (v.shape[d] - 1) * v.strides[d];
    if (extent < 0) {
      s.lo += extent;
    } else {
      s.hi += extent;
    }
  }
  s.hi += itemsize(v.dtype);
  return s;
}

}  // namespace numcu
