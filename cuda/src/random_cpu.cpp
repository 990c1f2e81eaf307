// numcu.random on the CPU backend: the plan's Philox blocks split over the threads in contiguous
// ranges (any split gives the same values: each is a function of its position), each range made
// kChunk blocks at a time: their units first (Philox, scalar 64-bit multiplies), then a loop over
// the values that the compiler vectorizes for the transforms without rejection (cloned for
// AVX-512, AVX2 and the baseline, as the elementwise loops are).
#include <algorithm>
#include <type_traits>
#include <vector>

#include "cpu_parallel.hpp"
#include "numcu/distributions.hpp"
#include "numcu/errors.hpp"
#include "random_loop.hpp"

namespace numcu::random {
namespace {

// Blocks whose units are made before their values: 2 KiB of words, in the L1 cache.
constexpr int kChunk = 64;
// Blocks a thread takes at least (about 2^14 values).
constexpr std::int64_t kGrainBlocks = 1 << 11;

// The same, value by value, each with its substream (rejection sampling).
template <class F, class T, class U, int V>
NUMCU_FORCEINLINE void block_values_one_by_one(const F& f, const Plan& p, std::int64_t b0,
                                               const U* units, std::int64_t first,
                                               std::int64_t count, T* out) {
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int64_t b = k / V;
    const philox::Counter c = philox::add(p.stream.counter, static_cast<std::uint64_t>(b0 + b) + 1);
    out[first + k] = loop::block_value<F, T, U, V>(f, p, units + b * kUnits, c,
                                                   static_cast<int>(k % V), first + k);
  }
}

bool has_array_params(const Params& q) {
  return q.array[0] || q.array[1] || q.array[2] || q.off_array || q.rng_array;
}

// Values [first, first + count) from the units of consecutive blocks b0, b0 + 1, ... (units
// holds each block's units in turn). The loops the compiler vectorizes come first: transforms
// without rejection, their parameters the same for every value; then integers (Lemire's
// products for all values, the rare rejected ones made again alone); the rest value by value.
template <class F, class T, class U, int V>
NUMCU_FORCEINLINE void block_values(const F& f, const Plan& p, std::int64_t b0, const U* units,
                                    std::int64_t first, std::int64_t count, T* out) {
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  T* o = out + first;
  const bool arrays = has_array_params(p.params);
  if constexpr (F::paired) {
    static_assert(V == kUnits, "pairs take one unit per value");
    const std::int64_t pairs = count / 2;
    if (!arrays) {
      const Args a = args_at(p.params, 0);
      for (std::int64_t k = 0; k < pairs; ++k) {
        T z0, z1;
        F::pair(units[2 * k], units[2 * k + 1], z0, z1);
        o[2 * k] = f.finish(z0, a);
        o[2 * k + 1] = f.finish(z1, a);
      }
    } else {
      for (std::int64_t k = 0; k < pairs; ++k) {
        T z0, z1;
        F::pair(units[2 * k], units[2 * k + 1], z0, z1);
        o[2 * k] = f.finish(z0, args_at(p.params, first + 2 * k));
        o[2 * k + 1] = f.finish(z1, args_at(p.params, first + 2 * k + 1));
      }
    }
    if (count % 2) {
      T z0, z1;
      F::pair(units[count - 1], units[count], z0, z1);
      o[count - 1] = f.finish(z0, args_at(p.params, first + count - 1));
    }
  } else if constexpr ((F::binding & kReject) == 0) {
    constexpr int kDraws = loop::table_traits<F>::draws;
    const Retry none{};
    if (!arrays) {
      const Args a = args_at(p.params, 0);
      for (std::int64_t k = 0; k < count; ++k) {
        o[k] = f.template operator()<T, U>(Draw<U>{units + k * kDraws, 0, none}, a);
      }
    } else {
      for (std::int64_t k = 0; k < count; ++k) {
        o[k] = f.template operator()<T, U>(Draw<U>{units + k * kDraws, 0, none},
                                           args_at(p.params, first + k));
      }
    }
  } else if constexpr (std::is_same_v<F, Integers>) {
    // Lemire's method without its rejection branch, and a count of the draws it would reject.
    const int w = p.params.width;
    const std::uint64_t full = w == 64 ? ~0ull : (1ull << w) - 1u;
    const std::uint64_t off = p.params.off, rng = p.params.rng;
    if (arrays || w == 64 || w == 1 || rng == 0 || rng == full) {
      return block_values_one_by_one<F, T, U, V>(f, p, b0, units, first, count, out);
    }
    using R = typename std::conditional_t<std::is_same_v<T, bool>, std::common_type<std::uint8_t>,
                                          std::make_unsigned<T>>::type;
    const std::uint64_t excl = rng + 1;
    const std::uint64_t threshold = (full - rng) % excl;
    constexpr int kPack = V / kUnits;
    std::int64_t rejected = 0;
    for (std::int64_t k = 0; k < count; ++k) {
      const std::uint64_t unit = units[k / kPack];
      const std::uint64_t x = kPack > 1 ? (unit >> ((k % kPack) * (32 / kPack))) & full : unit;
      const std::uint64_t m = x * excl;
      rejected += (m & full) < threshold;
      o[k] = static_cast<T>(static_cast<R>(off + (m >> w)));
    }
    if (rejected > 0) {
      for (std::int64_t k = 0; k < count; ++k) {
        const std::uint64_t unit = units[k / kPack];
        const std::uint64_t x = kPack > 1 ? (unit >> ((k % kPack) * (32 / kPack))) & full : unit;
        if (((x * excl) & full) < threshold) {
          const std::int64_t b = k / V;
          const philox::Counter c =
              philox::add(p.stream.counter, static_cast<std::uint64_t>(b0 + b) + 1);
          o[k] = loop::block_value<F, T, U, V>(f, p, units + b * kUnits, c, static_cast<int>(k % V),
                                               first + k);
        }
      }
    }
  } else {
    block_values_one_by_one<F, T, U, V>(f, p, b0, units, first, count, out);
  }
}

// Blocks [b, b + nb): their units, then their values (one function, compiled for AVX-512, AVX2
// and the baseline, the right one picked at run time).
template <class F, class T, class U, int V>
NUMCU_CPU_CLONES void chunk(const F& f, const Plan& p, std::int64_t b, int nb, T* out) {
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  alignas(64) U units[kChunk * kUnits];
  for (int k = 0; k < nb; ++k) loop::block_units(p, b + k, units + k * kUnits);
  const std::int64_t first = p.head + b * V;
  const std::int64_t count = std::min<std::int64_t>(std::int64_t{nb} * V, p.n - first);
  block_values<F, T, U, V>(f, p, b, units, first, count, out);
}

template <class F, class T, class U, int V>
void run_variant(const Plan& p, T* out) {
  const F f{};
  if (p.head > 0) {
    cpu::parallel_for(p.head, kGrainBlocks, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i) out[i] = loop::value_at<F, T, U>(f, p, i);
    });
  }
  if (p.blocks <= 0) return;
  cpu::parallel_for(p.blocks, kGrainBlocks, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t b = begin; b < end; b += kChunk) {
      chunk<F, T, U, V>(f, p, b, static_cast<int>(std::min<std::int64_t>(kChunk, end - b)), out);
    }
  });
}

template <class F, class T, class U>
void run_unit(const Plan& p, void* out) {
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  T* o = static_cast<T*>(out);
  if constexpr (std::is_same_v<F, Integers>) {
    constexpr int kPacked = kUnits * loop::pack_of<T>;
    if constexpr (sizeof(U) == 4 && kPacked != kUnits) {
      if (p.values_per_block == kPacked) return run_variant<F, T, U, kPacked>(p, o);
    }
    return run_variant<F, T, U, kUnits>(p, o);
  } else {
    constexpr int kDraws = loop::table_traits<F>::draws;
    return run_variant<F, T, U, kUnits / kDraws>(p, o);
  }
}

template <class F>
void run(DType dtype, const Plan& p, void* out) {
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (p.draws.unit == Unit::word) {
      if constexpr (loop::makes<F, T, std::uint64_t>())
        return run_unit<F, T, std::uint64_t>(p, out);
    } else {
      if constexpr (loop::makes<F, T, std::uint32_t>())
        return run_unit<F, T, std::uint32_t>(p, out);
    }
    throw_type_error(std::string("numcu.random: no loop for ") + dtype_name(dtype));
  });
}

}  // namespace

void candidates_cpu(const Plan& p, const Candidates& c, std::uint64_t* words,
                    std::int64_t* indices) {
  std::fill(words, words + c.capacity, ~0ull);
  std::fill(indices, indices + c.capacity, std::int64_t{-1});
  const std::int64_t n = p.n;
  auto word_at = [&](std::int64_t j, std::uint64_t* block, std::int64_t& cached) {
    if (j < p.head) return p.stream.buffer[p.stream.buffer_pos + j];
    const std::int64_t b = (j - p.head) / 4;
    if (b != cached) {
      loop::block_units(p, b, block);
      cached = b;
    }
    return block[(j - p.head) % 4];
  };
  // The words at most t, per part of the range, then in index order.
  constexpr std::int64_t kPart = std::int64_t{1} << 16;
  const std::int64_t parts = (n + kPart - 1) / kPart;
  auto count_le = [&](std::uint64_t t, std::vector<std::int64_t>& counts) {
    counts.assign(static_cast<std::size_t>(parts), 0);
    cpu::parallel_for(parts, 1, [&](std::int64_t q0, std::int64_t q1) {
      std::uint64_t block[4];
      for (std::int64_t q = q0; q < q1; ++q) {
        std::int64_t cached = -1, count = 0;
        for (std::int64_t j = q * kPart; j < std::min(n, (q + 1) * kPart); ++j) {
          count += word_at(j, block, cached) <= t ? 1 : 0;
        }
        counts[static_cast<std::size_t>(q)] = count;
      }
    });
    std::int64_t total = 0;
    for (std::int64_t x : counts) total += x;
    return total;
  };
  std::vector<std::int64_t> counts;
  std::uint64_t t = c.threshold;
  const std::int64_t total = count_le(t, counts);
  if (total < c.k || total > c.capacity) {  // the smallest threshold keeping k (as the GPU does)
    std::uint64_t lo = 0, hi = ~0ull;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (count_le(mid, counts) >= c.k) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    t = lo;
    count_le(t, counts);
  }
  std::vector<std::int64_t> offsets(counts.size());
  std::int64_t sum = 0;
  for (std::size_t q = 0; q < counts.size(); ++q) {
    offsets[q] = sum;
    sum += counts[q];
  }
  cpu::parallel_for(parts, 1, [&](std::int64_t q0, std::int64_t q1) {
    std::uint64_t block[4];
    for (std::int64_t q = q0; q < q1; ++q) {
      std::int64_t cached = -1, pos = offsets[static_cast<std::size_t>(q)];
      for (std::int64_t j = q * kPart; j < std::min(n, (q + 1) * kPart); ++j) {
        const std::uint64_t w = word_at(j, block, cached);
        if (w <= t) {
          if (pos < c.capacity) {
            words[pos] = w;
            indices[pos] = j;
          }
          ++pos;
        }
      }
    }
  });
}

void random_cpu(Distribution d, DType dtype, const Plan& plan, void* out) {
  if (plan.n <= 0) return;
  switch (d) {
#define NUMCU_CASE(name, F, draws, dtypes, doc) \
  case Distribution::name:                      \
    return run<F>(dtype, plan, out);
    NUMCU_DISTRIBUTIONS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

}  // namespace numcu::random
