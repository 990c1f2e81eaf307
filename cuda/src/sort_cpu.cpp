// sort, argsort, unique and searchsorted on the CPU: the keys of sorting.hpp, sorted with the
// standard library (stable where the order of ties shows), so that both backends give the same
// results.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "numcu/sorting.hpp"

namespace numcu {
namespace {

using sorting::Transform;

// Calls f(U{}) with the key type for `dtype`: 32-bit keys up to 32 bits, else 64-bit.
template <class F>
void with_key_type(DType dtype, F&& f) {
  if (sorting::key_bits(dtype) <= 32) {
    f(std::uint32_t{});
  } else {
    f(std::uint64_t{});
  }
}

template <class U>
U load_bits(const void* base, std::int64_t i, int size) {
  U v = 0;  // size <= sizeof(U); the min keeps GCC's bounds analysis from seeing a wider copy
  std::memcpy(&v, static_cast<const char*>(base) + i * size,
              std::min(static_cast<std::size_t>(size), sizeof(U)));
  return v;
}

template <class U>
void store_bits(void* base, std::int64_t i, int size, U v) {
  std::memcpy(static_cast<char*>(base) + i * size, &v,
              std::min(static_cast<std::size_t>(size), sizeof(U)));
}

template <class U>
U key_at(DType dtype, const void* in, std::int64_t i, Transform t) {
  const int size = itemsize(dtype);
  return sorting::to_key<U>(load_bits<U>(in, i, size), sorting::key_kind(dtype), 8 * size, t);
}

template <class U>
U key_mask(DType dtype) {
  const int bits = sorting::key_bits(dtype);
  return bits == 8 * static_cast<int>(sizeof(U)) ? ~U(0) : static_cast<U>((U(1) << bits) - 1);
}

}  // namespace

void sort_cpu(const SortParams& p, const void* in, void* values) {
  with_key_type(p.dtype, [&](auto tag) {
    using U = decltype(tag);
    const int size = itemsize(p.dtype);
    const char kind = sorting::key_kind(p.dtype);
    const U flip = p.descending ? key_mask<U>(p.dtype) : U(0);
    std::vector<U> keys(static_cast<std::size_t>(p.len));
    for (std::int64_t r = 0; r < p.rows; ++r) {
      const std::int64_t base = r * p.len;
      for (std::int64_t i = 0; i < p.len; ++i) {
        keys[i] = key_at<U>(p.dtype, in, base + i, Transform::exact) ^ flip;
      }
      std::sort(keys.begin(), keys.end());
      for (std::int64_t i = 0; i < p.len; ++i) {
        store_bits<U>(values, base + i, size, sorting::from_key<U>(keys[i] ^ flip, kind, 8 * size));
      }
    }
  });
}

void argsort_cpu(const SortParams& p, const void* in, std::int64_t* indices) {
  with_key_type(p.dtype, [&](auto tag) {
    using U = decltype(tag);
    const U flip = p.descending ? key_mask<U>(p.dtype) : U(0);
    std::vector<std::pair<U, std::int64_t>> items(static_cast<std::size_t>(p.len));
    for (std::int64_t r = 0; r < p.rows; ++r) {
      const std::int64_t base = r * p.len;
      for (std::int64_t i = 0; i < p.len; ++i) {
        items[i] = {key_at<U>(p.dtype, in, base + i, Transform::canonical) ^ flip, i};
      }
      std::stable_sort(items.begin(), items.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::int64_t i = 0; i < p.len; ++i) indices[base + i] = items[i].second;
    }
  });
}

void unique_sort_cpu(DType dtype, std::int64_t n, const void* in, bool nan_distinct,
                     std::int64_t* perm, void* sorted, std::int64_t* pos) {
  with_key_type(dtype, [&](auto tag) {
    using U = decltype(tag);
    const U nan_key = key_mask<U>(dtype);
    const bool floating = dtype_kind(dtype) == 'f';
    auto fresh = [&](std::int64_t i, U key, U previous) {
      return i == 0 || key != previous || (nan_distinct && floating && key == nan_key);
    };
    std::int64_t distinct = 0;
    if (perm == nullptr) {
      const int size = itemsize(dtype);
      std::vector<U> keys(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) keys[i] = key_at<U>(dtype, in, i, Transform::canonical);
      std::sort(keys.begin(), keys.end());
      for (std::int64_t i = 0; i < n; ++i) {
        store_bits<U>(sorted, i, size,
                      sorting::from_key<U>(keys[i], sorting::key_kind(dtype), 8 * size));
        distinct += fresh(i, keys[i], i > 0 ? keys[i - 1] : U(0)) ? 1 : 0;
        pos[i] = distinct;
      }
      return;
    }
    std::vector<std::pair<U, std::int64_t>> items(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      items[i] = {key_at<U>(dtype, in, i, Transform::canonical), i};
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::int64_t i = 0; i < n; ++i) {
      perm[i] = items[i].second;
      distinct += fresh(i, items[i].first, i > 0 ? items[i - 1].first : U(0)) ? 1 : 0;
      pos[i] = distinct;
    }
  });
}

void unique_fill_cpu(DType dtype, std::int64_t n, std::int64_t count, const void* in,
                     const std::int64_t* perm, const void* sorted, const std::int64_t* pos,
                     const UniqueOutputs& out) {
  const int size = itemsize(dtype);
  std::vector<std::int64_t> starts(static_cast<std::size_t>(count) + 1, n);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t s = pos[i] - 1;
    const bool first = i == 0 || pos[i] != pos[i - 1];
    if (first) {
      starts[s] = i;
      if (out.values != nullptr) {
        const char* from = perm != nullptr ? static_cast<const char*>(in) + perm[i] * size
                                           : static_cast<const char*>(sorted) + i * size;
        std::memcpy(static_cast<char*>(out.values) + s * size, from,
                    static_cast<std::size_t>(size));
      }
      if (out.indices != nullptr) out.indices[s] = perm[i];
    }
    if (out.inverse != nullptr) out.inverse[perm[i]] = s;
  }
  if (out.counts != nullptr) {
    for (std::int64_t s = 0; s < count; ++s) out.counts[s] = starts[s + 1] - starts[s];
  }
}

void searchsorted_cpu(DType dtype, std::int64_t n, const void* haystack, std::int64_t m,
                      const void* needles, bool right, std::int64_t* out) {
  with_key_type(dtype, [&](auto tag) {
    using U = decltype(tag);
    std::vector<U> keys(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      keys[i] = key_at<U>(dtype, haystack, i, Transform::canonical);
    }
    for (std::int64_t j = 0; j < m; ++j) {
      const U v = key_at<U>(dtype, needles, j, Transform::canonical);
      const auto it = right ? std::upper_bound(keys.begin(), keys.end(), v)
                            : std::lower_bound(keys.begin(), keys.end(), v);
      out[j] = it - keys.begin();
    }
  });
}

}  // namespace numcu
