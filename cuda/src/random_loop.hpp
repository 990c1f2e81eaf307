// How the CPU backend and the kernels walk a random plan (numcu/distributions.hpp): which units
// a value takes, where each comes from, and the two paths that make values. Both backends run
// these functions, so a value's bits cannot depend on which backend, thread or block made it.
//
// - The block path: whole Philox blocks of the stream after the head, each making
//   values_per_block values from its units in registers (the fast path).
// - The one-value path: value i alone, fetching its units (from NumPy's buffered words and
//   pending half, or from the block that holds them); for the head, and for every value of a
//   call whose values straddle blocks.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numcu/config.hpp"
#include "numcu/distributions.hpp"
#include "numcu/philox.hpp"

namespace numcu::random::loop {

template <class U>
constexpr int kUnitsPerBlock = sizeof(U) == 8 ? 4 : 8;

template <class U>
constexpr Unit unit_of = sizeof(U) == 8 ? Unit::word : Unit::half;

// Where a unit sits in the stream: its block counter and its place in the block (a word: 0..3;
// a half: 4 + 2 * word + (0 low, 1 high); 12: a pending half whose word is not known). A value's
// substream is keyed by the place of its first unit.
struct Place {
  philox::Counter block;
  std::uint32_t place;
};

NUMCU_HD NUMCU_FORCEINLINE Retry retry_at(const Plan& p, const Place& at) {
  Retry r;
  r.keys = &p.stream.retry_keys;
  r.base = philox::Counter{
      {at.block.v[0], at.block.v[1], at.block.v[2], static_cast<std::uint64_t>(at.place) << 32}};
  return r;
}

// NumPy's pending half is the high half of buffer[buffer_pos - 1] when nothing took words since
// (the state numcu and NumPy leave): then it has that word's place, and its low half is known.
NUMCU_HD NUMCU_FORCEINLINE bool pending_word_known(const StreamState& s) {
  return s.buffer_pos >= 1 &&
         static_cast<std::uint32_t>(s.buffer[s.buffer_pos - 1] >> 32) == s.pending;
}

// The units of a call, one at a time (the one-value path). Remembers the last block it made.
template <class U>
struct UnitFetcher {
  const Plan& p;
  std::uint64_t cached = ~0ull;
  philox::Block block{};

  NUMCU_HD explicit UnitFetcher(const Plan& plan) : p(plan) {}

  NUMCU_HD int lead_words() const { return 4 - p.stream.buffer_pos; }

  // Word k of the call's words (NumPy's buffer first, then the blocks counter + 1, ...).
  NUMCU_HD std::uint64_t word(std::uint64_t k, Place* at) {
    const std::uint64_t lead = static_cast<std::uint64_t>(lead_words());
    if (k < lead) {
      const int w = p.stream.buffer_pos + static_cast<int>(k);
      if (at) *at = Place{p.stream.counter, static_cast<std::uint32_t>(w)};
      return p.stream.buffer[w];
    }
    const std::uint64_t t = k - lead;
    const std::uint64_t b = t / 4;
    const int w = static_cast<int>(t % 4);
    const philox::Counter c = philox::add(p.stream.counter, b + 1);
    if (b != cached) {
      block = philox::generate_out_of_line(c, p.stream.keys);
      cached = b;
    }
    if (at) *at = Place{c, static_cast<std::uint32_t>(w)};
    return block.v[w];
  }

  // Unit j of the call.
  NUMCU_HD U unit(std::uint64_t j, Place* at) {
    if constexpr (sizeof(U) == 8) {
      return word(j, at);
    } else {
      const std::uint64_t pending = p.stream.has_pending ? 1 : 0;
      if (j < pending) {
        if (at) {
          if (pending_word_known(p.stream)) {
            *at = Place{p.stream.counter,
                        static_cast<std::uint32_t>(4 + 2 * (p.stream.buffer_pos - 1) + 1)};
          } else {
            *at = Place{p.stream.counter, 12};
          }
        }
        return p.stream.pending;
      }
      const std::uint64_t h = j - pending;
      const std::uint64_t w = word(h / 2, at);
      const std::uint32_t half = static_cast<std::uint32_t>(h % 2);
      if (at) at->place = 4 + 2 * at->place + half;
      return static_cast<std::uint32_t>(half ? w >> 32 : w);
    }
  }

  // The other unit of unit j's pair, and whether unit j is the pair's first.
  NUMCU_HD U partner(std::uint64_t j, bool& first) {
    Place at;
    unit(j, &at);
    if constexpr (sizeof(U) == 8) {
      first = (at.place & 1) == 0;
      const std::uint32_t other = at.place ^ 1;
      if (at.block.v[0] == p.stream.counter.v[0] && at.block.v[1] == p.stream.counter.v[1] &&
          at.block.v[2] == p.stream.counter.v[2] && at.block.v[3] == p.stream.counter.v[3]) {
        return p.stream.buffer[other];
      }
      return block.v[other];
    } else {
      if (at.place == 12) {  // a pending half of an unknown word: a low half from its substream
        first = false;
        return static_cast<std::uint32_t>(retry_at(p, at).block(0).v[0]);
      }
      first = (at.place & 1) == 0;
      const int w = static_cast<int>((at.place - 4) / 2);
      const bool from_buffer =
          at.block.v[0] == p.stream.counter.v[0] && at.block.v[1] == p.stream.counter.v[1] &&
          at.block.v[2] == p.stream.counter.v[2] && at.block.v[3] == p.stream.counter.v[3];
      const std::uint64_t word = from_buffer ? p.stream.buffer[w] : block.v[w];
      return static_cast<std::uint32_t>(first ? word >> 32 : word);
    }
  }
};

// Value i alone.
template <class F, class T, class U>
NUMCU_HD T value_at(const F& f, const Plan& p, std::int64_t i) {
  const Args a = args_at(p.params, i);
  UnitFetcher<U> fetch(p);
  if constexpr (F::paired) {
    bool first = true;
    const U mine = fetch.unit(static_cast<std::uint64_t>(i), nullptr);
    const U other = fetch.partner(static_cast<std::uint64_t>(i), first);
    T z0, z1;
    if (first) {
      F::pair(mine, other, z0, z1);
    } else {
      F::pair(other, mine, z0, z1);
    }
    return f.finish(first ? z0 : z1, a);
  } else {
    U u[4] = {};
    Place at{p.stream.counter, 13};
    const int units = p.draws.units;
    const int pack = p.draws.pack;
    const std::uint64_t j0 =
        pack > 1 ? static_cast<std::uint64_t>(i) / pack : static_cast<std::uint64_t>(i) * units;
    for (int k = 0; k < units && k < 4; ++k) u[k] = fetch.unit(j0 + k, k == 0 ? &at : nullptr);
    const Draw<U> d{u, pack > 1 ? static_cast<int>(i % pack) : 0, retry_at(p, at)};
    return f.template operator()<T, U>(d, a);
  }
}

// The units of block `c` (the block's counter), in stream order: its words, or their halves.
template <class U>
NUMCU_HD NUMCU_FORCEINLINE philox::Counter units_of(const Plan& p, const philox::Counter& c,
                                                    U* units) {
  const philox::Block blk = philox::generate(c, p.stream.keys);
  if constexpr (sizeof(U) == 8) {
    for (int k = 0; k < 4; ++k) units[k] = blk.v[k];
  } else {
    for (int k = 0; k < 4; ++k) {
      units[2 * k] = static_cast<std::uint32_t>(blk.v[k]);
      units[2 * k + 1] = static_cast<std::uint32_t>(blk.v[k] >> 32);
    }
  }
  return c;
}

// The units of block b of the block path (counter + 1 + b).
template <class U>
NUMCU_HD NUMCU_FORCEINLINE philox::Counter block_units(const Plan& p, std::int64_t b, U* units) {
  return units_of(p, philox::add(p.stream.counter, static_cast<std::uint64_t>(b) + 1), units);
}

// Whether the block path's counters (counter + 1 ... counter + blocks) differ in the low 32 bits
// of their first word only: then the rest of the counter is the same in every block, and so are
// the first round's second product and the second round's first product (they multiply the
// counter's third word, and the first round key xored with the counter's second word): the
// kernels (random.cu says which) make those once, not in every block. 2 of the 20 products of
// 64-bit words; every call but those whose blocks cross a multiple of 2^32 (one call in 256 of 2^24
// blocks, or 2^27 float32 values).
NUMCU_HD NUMCU_FORCEINLINE bool counters_share_high_words(const Plan& p) {
  return static_cast<std::uint64_t>(p.blocks) <=
         0xffffffffull - (p.stream.counter.v[0] & 0xffffffffull);
}

// block_units where counters_share_high_words(p) holds: the same bits, with the counter
// written so that the compiler sees which of its words are the same in every block.
template <class U>
NUMCU_HD NUMCU_FORCEINLINE philox::Counter block_units_shared_high(const Plan& p, std::int64_t b,
                                                                   U* units) {
  const philox::Counter& base = p.stream.counter;
  const std::uint32_t low =
      static_cast<std::uint32_t>(base.v[0]) + static_cast<std::uint32_t>(b) + 1u;
  return units_of(
      p, philox::Counter{{(base.v[0] & ~0xffffffffull) | low, base.v[1], base.v[2], base.v[3]}},
      units);
}

// Value k of a block that makes V values from its units (block counter `c`), which is value i
// of the call. A value takes UnitsPerBlock / V units, or shares one with V / UnitsPerBlock-1
// others (packed fields), both known at compile time.
template <class F, class T, class U, int V>
NUMCU_HD NUMCU_FORCEINLINE T block_value(const F& f, const Plan& p, const U* units,
                                         const philox::Counter& c, int k, std::int64_t i) {
  constexpr int kUnits = kUnitsPerBlock<U>;
  constexpr int kPack = V > kUnits ? V / kUnits : 1;
  constexpr int kDraws = V > kUnits ? 1 : kUnits / V;
  // The bits a value's draw takes follow from the unit and the packing (integers' width): as a
  // constant, the transform's tests of it vanish.
  Args a = args_at(p.params, i);
  a.width = sizeof(U) == 8 ? 64 : 32 / kPack;
  const int r = kPack > 1 ? k / kPack : k * kDraws;
  const std::uint32_t place = sizeof(U) == 8 ? static_cast<std::uint32_t>(r) : 4u + r;
  const Draw<U> d{units + r, kPack > 1 ? k % kPack : 0, retry_at(p, Place{c, place})};
  return f.template operator()<T, U>(d, a);
}

// The table's columns as compile-time traits of a functor.
template <class F>
struct table_traits;
#define NUMCU_TRAITS(name, F, draws_, dtypes_, doc)                  \
  template <>                                                        \
  struct table_traits<F> {                                           \
    static constexpr int draws = draws_;                             \
    static constexpr DTypeMask dtypes = dtypes_;                     \
    static constexpr Distribution distribution = Distribution::name; \
  };
NUMCU_DISTRIBUTIONS(NUMCU_TRAITS)
#undef NUMCU_TRAITS

// Whether functor F makes T from units of type U (integers: halves for every dtype, and words for
// the 64-bit ones; others: their unit<T>).
template <class F, class T, class U>
constexpr bool makes() {
  if constexpr ((table_traits<F>::dtypes & dtype_bit(dtype_of_v<T>)) == 0) {
    return false;
  } else if constexpr (std::is_same_v<F, Integers>) {
    return sizeof(U) == 4 || sizeof(T) == 8;
  } else {
    return F::template unit<T> == unit_of<U>;
  }
}

// The values a block makes, for the block-path variants a functor has: the table's draws, and
// for integers one unit per value or (8- and 16-bit results and bool from halves) NumPy's packed
// fields.
template <class T>
constexpr int pack_of = std::is_same_v<T, bool> ? 32
                        : sizeof(T) == 1        ? 4
                        : sizeof(T) == 2        ? 2
                                                : 1;

}  // namespace numcu::random::loop
