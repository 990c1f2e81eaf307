// Gathers and non-zero positions on the CPU (see indexing.hpp).
#include <algorithm>
#include <cstring>

#include "numcu/indexing.hpp"

namespace numcu {

std::int64_t gather_cpu(const GatherPlan& p) {
  std::int64_t o[kMaxGatherDims] = {};
  const auto size = static_cast<std::size_t>(p.itemsize);
  for (std::int64_t e = 0; e < p.n; ++e) {
    std::int64_t offset = 0;
    for (int d = 0; d < p.ndim; ++d) offset += o[d] * p.x_strides[d];
    for (int j = 0; j < p.arrays; ++j) {
      std::int64_t at = 0;
      for (int d = 0; d < p.ndim; ++d) at += o[d] * p.index_strides[j][d];
      std::int64_t i =
          *reinterpret_cast<const std::int64_t*>(reinterpret_cast<const char*>(p.index[j]) + at);
      if (i < 0) i += p.extent[j];
      if (i < 0 || i >= p.extent[j]) return e;
      offset += i * p.axis_strides[j];
    }
    std::memcpy(p.out + e * p.itemsize, p.x + offset, size);
    for (int d = p.ndim - 1; d >= 0; --d) {
      if (++o[d] < p.shape[d]) break;
      o[d] = 0;
    }
  }
  return -1;
}

std::int64_t scatter_cpu(const GatherPlan& p) {
  // Every index is checked before anything is written: a bad one leaves x as it was.
  std::int64_t o[kMaxGatherDims] = {};
  for (int pass = 0; pass < 2; ++pass) {
    std::fill(o, o + kMaxGatherDims, 0);
    for (std::int64_t e = 0; e < p.n; ++e) {
      std::int64_t offset = 0;
      for (int d = 0; d < p.ndim; ++d) offset += o[d] * p.x_strides[d];
      for (int j = 0; j < p.arrays; ++j) {
        std::int64_t at = 0;
        for (int d = 0; d < p.ndim; ++d) at += o[d] * p.index_strides[j][d];
        std::int64_t i =
            *reinterpret_cast<const std::int64_t*>(reinterpret_cast<const char*>(p.index[j]) + at);
        if (i < 0) i += p.extent[j];
        if (i < 0 || i >= p.extent[j]) return e;
        offset += i * p.axis_strides[j];
      }
      if (pass == 1) {
        std::memcpy(const_cast<char*>(p.x) + offset, p.out + e * p.itemsize,
                    static_cast<std::size_t>(p.itemsize));
      }
      for (int d = p.ndim - 1; d >= 0; --d) {
        if (++o[d] < p.shape[d]) break;
        o[d] = 0;
      }
    }
  }
  return -1;
}

void count_true_cpu(std::int64_t n, const bool* mask, std::int64_t* pos) {
  std::int64_t c = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    c += mask[i] ? 1 : 0;
    pos[i] = c;
  }
}

void nonzero_cpu(const NonzeroPlan& p, const bool* mask, const std::int64_t*, std::int64_t* out) {
  std::int64_t o[kMaxGatherDims] = {};
  std::int64_t k = 0;
  for (std::int64_t i = 0; i < p.n; ++i) {
    if (mask[i]) {
      for (int d = 0; d < p.ndim; ++d) out[d * p.count + k] = o[d];
      ++k;
    }
    for (int d = p.ndim - 1; d >= 0; --d) {
      if (++o[d] < p.shape[d]) break;
      o[d] = 0;
    }
  }
}

}  // namespace numcu
