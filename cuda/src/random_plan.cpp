// numcu.random's host side: the table at run time, how a call takes its units, and NumPy's
// Philox state before and after a call.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "numcu/distributions.hpp"
#include "numcu/errors.hpp"
#include "random_loop.hpp"

namespace numcu::random {

namespace {

constexpr DType default_dtype_of(DTypeMask mask) {
  return (mask & kFloat64) ? DType::float64 : DType::int64;
}

const DistributionInfo kInfo[] = {
#define NUMCU_INFO(name, F, draws, dtypes, doc) \
  {#name, doc, draws, dtypes, default_dtype_of(dtypes), F::binding, param_count<F>(), F::params},
    NUMCU_DISTRIBUTIONS(NUMCU_INFO)
#undef NUMCU_INFO
};

template <class F>
Draws draws_of(DType dtype) {
  Draws d;
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr ((loop::table_traits<F>::dtypes & dtype_bit(dtype_of_v<T>)) != 0) {
      d.unit = F::template unit<T>;
    } else {
      throw_type_error(std::string("numcu.random: no ") + dtype_name(dtype) + " values");
    }
  });
  d.units = loop::table_traits<F>::draws;
  d.paired = F::paired;
  return d;
}

// A block's derived key for the substreams: Philox of a fixed counter (hexadecimal digits of
// pi) under the stream's key.
constexpr philox::Counter kRetryKeyCounter = {
    {0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull, 0x082EFA98EC4E6C89ull}};

}  // namespace

const DistributionInfo& distribution_info(Distribution d) { return kInfo[static_cast<int>(d)]; }

Draws distribution_draws(Distribution d, DType dtype, const Params& params, bool array_params) {
  if (d != Distribution::integers) {
    switch (d) {
#define NUMCU_CASE(name, F, draws, dtypes, doc) \
  case Distribution::name:                      \
    return draws_of<F>(dtype);
      NUMCU_DISTRIBUTIONS(NUMCU_CASE)
#undef NUMCU_CASE
    }
  }
  // NumPy's draws for integers (random_bounded_uint*_fill, scalar bounds): none for an empty
  // range; packed fields of 32-bit halves for 8- and 16-bit results and bool; a half where the
  // range fits 32 bits, else a word. Per-value bounds: one half each (one word for 64-bit
  // results), every value alike.
  Draws w;
  w.unit = Unit::half;
  w.units = 1;
  const int bits = dtype == DType::bool_ ? 1 : 8 * itemsize(dtype);
  if (array_params) {
    w.width = bits == 64 ? 64 : 32;
    w.unit = bits == 64 ? Unit::word : Unit::half;
    return w;
  }
  if (params.rng == 0) {
    w.units = 0;
    return w;
  }
  if (bits < 32) {
    w.width = bits;
    w.pack = 32 / bits;
  } else if (params.rng <= 0xFFFFFFFFull) {
    w.width = 32;
  } else {
    w.width = 64;
    w.unit = Unit::word;
  }
  return w;
}

PhiloxState advance_state(const PhiloxState& state, Unit unit, std::uint64_t units) {
  PhiloxState s = state;
  if (s.buffer_pos > 4) s.buffer_pos = 4;
  auto take_words = [&](std::uint64_t k) {
    const std::uint64_t in_buffer = std::min<std::uint64_t>(k, 4 - s.buffer_pos);
    s.buffer_pos += static_cast<int>(in_buffer);
    k -= in_buffer;
    if (k == 0) return;
    const std::uint64_t blocks = (k + 3) / 4;
    philox::Counter c{{s.counter[0], s.counter[1], s.counter[2], s.counter[3]}};
    c = philox::add(c, blocks);
    for (int i = 0; i < 4; ++i) s.counter[i] = c.v[i];
    const philox::Block b = philox::generate(c, philox::RoundKeys<>::from(s.key[0], s.key[1]));
    for (int i = 0; i < 4; ++i) s.buffer[i] = b.v[i];
    s.buffer_pos = static_cast<int>(k - 4 * (blocks - 1));
  };
  if (unit == Unit::word) {
    take_words(units);
    return s;
  }
  if (units == 0) return s;
  if (s.has_uint32) {
    s.has_uint32 = false;
    --units;
  }
  const std::uint64_t words = units / 2 + units % 2;
  if (words == 0) return s;
  take_words(words);
  // NumPy keeps the last word's high half in uinteger even once it has handed it out.
  s.has_uint32 = units % 2 != 0;
  s.uinteger = static_cast<std::uint32_t>(s.buffer[s.buffer_pos - 1] >> 32);
  return s;
}

std::uint64_t plan_units(const Plan& plan) {
  const auto n = static_cast<std::uint64_t>(plan.n);
  if (plan.draws.pack > 1) return (n + plan.draws.pack - 1) / plan.draws.pack;
  return n * static_cast<std::uint64_t>(plan.draws.units);
}

Plan make_plan(std::int64_t n, const Draws& draws, const PhiloxState& state, const Params& params) {
  if (state.buffer_pos < 0) throw_value_error("numcu.random: the Philox state's buffer_pos < 0");
  Plan p;
  p.n = n;
  p.draws = draws;
  p.params = params;
  p.params.width = draws.width;
  StreamState& s = p.stream;
  s.keys = philox::RoundKeys<>::from(state.key[0], state.key[1]);
  const philox::Block derived = philox::generate(kRetryKeyCounter, s.keys);
  s.retry_keys = philox::RoundKeys<>::from(derived.v[0], derived.v[1]);
  for (int i = 0; i < 4; ++i) {
    s.counter.v[i] = state.counter[i];
    s.buffer[i] = state.buffer[i];
  }
  s.buffer_pos = std::min(state.buffer_pos, 4);
  s.has_pending = state.has_uint32;
  s.pending = state.uinteger;
  const int lead_words = 4 - s.buffer_pos;
  p.lead = draws.unit == Unit::word ? lead_words : (s.has_pending ? 1 : 0) + 2 * lead_words;
  const int per_block = draws.unit == Unit::word ? 4 : 8;
  if (draws.units == 0) {  // no draws: every value from its parameters alone
    p.head = n;
    return p;
  }
  if (draws.pack > 1) {
    p.head = std::min<std::int64_t>(n, std::int64_t{p.lead} * draws.pack);
    p.values_per_block = per_block * draws.pack;
  } else if (p.lead % draws.units == 0) {
    p.head = std::min<std::int64_t>(n, p.lead / draws.units);
    p.values_per_block = per_block / draws.units;
  } else {  // values straddle blocks: one at a time
    p.head = n;
    return p;
  }
  if (n > p.head) p.blocks = (n - p.head + p.values_per_block - 1) / p.values_per_block;
  return p;
}

Candidates plan_candidates(std::int64_t n, std::int64_t k) {
  // Expected candidates: k and 12 standard deviations and 64 more, so that fewer than k is a
  // Chernoff bound below 1e-30 away; capacity as far above.
  Candidates c;
  c.k = k;
  const double mean = static_cast<double>(k) + 12.0 * std::sqrt(static_cast<double>(k)) + 64.0;
  const double capacity = std::ceil(mean + 12.0 * std::sqrt(mean) + 64.0);
  if (n <= 0 || capacity * 2.0 > static_cast<double>(n)) return c;  // capacity 0: sort all
  c.capacity = static_cast<std::int64_t>(capacity);
  c.threshold = static_cast<std::uint64_t>(std::ldexp(mean / static_cast<double>(n), 64));
  return c;
}

philox::Block philox_block(const philox::Counter& counter, std::uint64_t key0, std::uint64_t key1,
                           int rounds) {
  if (rounds == 7) return philox::generate(counter, philox::RoundKeys<7>::from(key0, key1));
  if (rounds == 10) return philox::generate(counter, philox::RoundKeys<10>::from(key0, key1));
  throw_value_error("numcu.random: Philox4x64 with 7 or 10 rounds");
}

}  // namespace numcu::random
