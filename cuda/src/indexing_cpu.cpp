// Gathers and non-zero positions on the CPU (see indexing.hpp).
#include <algorithm>
#include <cstring>

#include "numcu/indexing.hpp"

namespace numcu {

namespace {

// Calls element(e, offset) for the plan's elements e in order, offset being x's byte offset of
// element e; stops at the first index out of bounds and returns its e, else -1.
template <class Element>
std::int64_t walk_elements(const GatherPlan& p, Element&& element) {
  std::int64_t o[kMaxGatherDims] = {};
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
    element(e, offset);
    for (int d = p.ndim - 1; d >= 0; --d) {
      if (++o[d] < p.shape[d]) break;
      o[d] = 0;
    }
  }
  return -1;
}

}  // namespace

std::int64_t gather_cpu(const GatherPlan& p) {
  const auto size = static_cast<std::size_t>(p.itemsize);
  return walk_elements(p, [&](std::int64_t e, std::int64_t offset) {
    std::memcpy(p.out + e * p.itemsize, p.x + offset, size);
  });
}

std::int64_t scatter_cpu(const GatherPlan& p) {
  // Every index is checked before anything is written: a bad one leaves x as it was.
  const std::int64_t bad = walk_elements(p, [](std::int64_t, std::int64_t) {});
  if (bad >= 0) return bad;
  const auto size = static_cast<std::size_t>(p.itemsize);
  return walk_elements(p, [&](std::int64_t e, std::int64_t offset) {
    std::memcpy(const_cast<char*>(p.x) + offset, p.out + e * p.itemsize, size);
  });
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
