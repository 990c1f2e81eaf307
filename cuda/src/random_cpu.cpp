// numcu.random on the CPU backend: the plan's Philox blocks split over the threads in contiguous
// ranges (any split gives the same values: each is a function of its position), each range made
// kChunk blocks at a time: their units first (Philox, scalar 64-bit multiplies), then a loop over
// the values that the compiler vectorizes for the transforms without rejection (cloned for
// AVX-512, AVX2 and the baseline, as the elementwise loops are).
#include <algorithm>
#include <type_traits>

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

// Values [first, first + count) from the units of consecutive blocks b0, b0 + 1, ... (units
// holds each block's units in turn).
template <class F, class T, class U, int V>
void block_values(const F& f, const Plan& p, std::int64_t b0, const U* units, std::int64_t first,
                  std::int64_t count, T* out) {
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  if constexpr (F::paired) {
    static_assert(V == kUnits, "pairs take one unit per value");
    for (std::int64_t k = 0; k < count; k += 2) {
      T z0, z1;
      F::pair(units[k], units[k + 1], z0, z1);
      out[first + k] = f.finish(z0, args_at(p.params, first + k));
      if (k + 1 < count) out[first + k + 1] = f.finish(z1, args_at(p.params, first + k + 1));
    }
  } else {
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t b = k / V;
      const philox::Counter c =
          philox::add(p.stream.counter, static_cast<std::uint64_t>(b0 + b) + 1);
      out[first + k] = loop::block_value<F, T, U>(f, p, units + b * kUnits, c,
                                                  static_cast<int>(k % V), first + k);
    }
  }
}

template <class F, class T, class U, int V>
NUMCU_CPU_CLONES void block_values_avx512(const F& f, const Plan& p, std::int64_t b0,
                                          const U* units, std::int64_t first, std::int64_t count,
                                          T* out) {
  block_values<F, T, U, V>(f, p, b0, units, first, count, out);
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
  constexpr int kUnits = loop::kUnitsPerBlock<U>;
  cpu::parallel_for(p.blocks, kGrainBlocks, [&](std::int64_t begin, std::int64_t end) {
    alignas(64) U units[kChunk * kUnits];
    for (std::int64_t b = begin; b < end; b += kChunk) {
      const int nb = static_cast<int>(std::min<std::int64_t>(kChunk, end - b));
      for (int k = 0; k < nb; ++k) loop::block_units(p, b + k, units + k * kUnits);
      const std::int64_t first = p.head + b * V;
      const std::int64_t count = std::min<std::int64_t>(std::int64_t{nb} * V, p.n - first);
      block_values_avx512<F, T, U, V>(f, p, b, units, first, count, out);
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
