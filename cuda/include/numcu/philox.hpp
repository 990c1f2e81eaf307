// Philox4x64: the counter-based generator of Salmon, Moraes, Dror and Shaw ("Parallel random
// numbers: as easy as 1, 2, 3", SC'11), and of NumPy's numpy.random.Philox (10 rounds, a 256-bit
// counter and a 128-bit key). One block of four 64-bit words is a function of (counter, key)
// alone, so any word of a stream can be computed anywhere, by any thread, in any order: the CPU
// backend and the kernels call the same code and get the same bits.
#pragma once

#include <cstdint>

#include "numcu/config.hpp"

namespace numcu::philox {

// The round's multipliers and the key schedule's increments (Weyl sequence: the golden ratio
// and sqrt(3) - 1 in 64-bit fixed point), as the Random123 specification gives them.
constexpr std::uint64_t kMultiplier0 = 0xD2E7470EE14C6C93ull;
constexpr std::uint64_t kMultiplier1 = 0xCA5A826395121157ull;
constexpr std::uint64_t kBump0 = 0x9E3779B97F4A7C15ull;
constexpr std::uint64_t kBump1 = 0xBB67AE8584CAA73Bull;
// NumPy's rounds.
constexpr int kRounds = 10;

struct Counter {
  std::uint64_t v[4];
};
struct Block {
  std::uint64_t v[4];
};

// The 128-bit product a * b: its low half returned, its high half in `hi`.
NUMCU_HD NUMCU_FORCEINLINE std::uint64_t mulhilo(std::uint64_t a, std::uint64_t b,
                                                 std::uint64_t& hi) {
#if defined(__CUDA_ARCH__)
  // From four 32 x 32 -> 64 products, each sum below 2^64, so that the compiler emits wide
  // multiply-adds and no separate carry handling (__umul64hi and a * b would compute the shared
  // partial products twice).
  const std::uint32_t a0 = static_cast<std::uint32_t>(a), a1 = static_cast<std::uint32_t>(a >> 32);
  const std::uint32_t b0 = static_cast<std::uint32_t>(b), b1 = static_cast<std::uint32_t>(b >> 32);
  const std::uint64_t p00 = static_cast<std::uint64_t>(a0) * b0;
  const std::uint64_t p01 = static_cast<std::uint64_t>(a0) * b1 + (p00 >> 32);
  const std::uint64_t p10 = static_cast<std::uint64_t>(a1) * b0 + static_cast<std::uint32_t>(p01);
  hi = static_cast<std::uint64_t>(a1) * b1 + (p01 >> 32) + (p10 >> 32);
  return (p10 << 32) | static_cast<std::uint32_t>(p00);
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  hi = static_cast<std::uint64_t>(p >> 64);
  return static_cast<std::uint64_t>(p);
#endif
}

// The key of every round, computed once for a whole launch: the kernels read them as constants
// instead of bumping the key in every thread.
template <int Rounds = kRounds>
struct RoundKeys {
  std::uint64_t k0[Rounds];
  std::uint64_t k1[Rounds];

  NUMCU_HD static RoundKeys from(std::uint64_t key0, std::uint64_t key1) {
    RoundKeys r;
    for (int i = 0; i < Rounds; ++i) {
      r.k0[i] = key0;
      r.k1[i] = key1;
      key0 += kBump0;
      key1 += kBump1;
    }
    return r;
  }
};

// Philox4x64-Rounds of counter `c` under the keys `rk`.
template <int Rounds>
NUMCU_HD NUMCU_FORCEINLINE Block generate(Counter c, const RoundKeys<Rounds>& rk) {
  std::uint64_t x0 = c.v[0], x1 = c.v[1], x2 = c.v[2], x3 = c.v[3];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < Rounds; ++i) {
    std::uint64_t hi0, hi1;
    const std::uint64_t lo0 = mulhilo(kMultiplier0, x0, hi0);
    const std::uint64_t lo1 = mulhilo(kMultiplier1, x2, hi1);
    x0 = hi1 ^ x1 ^ rk.k0[i];
    x1 = lo1;
    x2 = hi0 ^ x3 ^ rk.k1[i];
    x3 = lo0;
  }
  return Block{{x0, x1, x2, x3}};
}

// The same, out of line: for the paths that run rarely (a value's substream, values made one at a
// time), where one copy of the rounds serves every caller in a file.
NUMCU_HD inline __attribute__((noinline)) Block generate_out_of_line(const Counter& c,
                                                                     const RoundKeys<>& rk) {
  return generate(c, rk);
}

// The counter `c` + `n` (256-bit, wrapping), as NumPy's philox_advance adds its step.
NUMCU_HD NUMCU_FORCEINLINE Counter add(Counter c, std::uint64_t n) {
  c.v[0] += n;
  if (c.v[0] < n) {
    for (int i = 1; i < 4; ++i) {
      if (++c.v[i] != 0) break;
    }
  }
  return c;
}

}  // namespace numcu::philox
