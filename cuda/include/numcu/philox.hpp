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
  // The compiler shares the partial products of these two (232 instructions for a block on
  // sm_90, against 320 with the products written out in 32-bit halves).
  hi = __umul64hi(a, b);
  return a * b;
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
#if defined(__CUDA_ARCH__)
  // One carry chain of eight 32-bit adds (the compiler's compares and selects take twice that).
  std::uint32_t w[8];
  asm("add.cc.u32 %0, %8, %16;\n\t"
      "addc.cc.u32 %1, %9, %17;\n\t"
      "addc.cc.u32 %2, %10, 0;\n\t"
      "addc.cc.u32 %3, %11, 0;\n\t"
      "addc.cc.u32 %4, %12, 0;\n\t"
      "addc.cc.u32 %5, %13, 0;\n\t"
      "addc.cc.u32 %6, %14, 0;\n\t"
      "addc.u32 %7, %15, 0;"
      : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3]), "=r"(w[4]), "=r"(w[5]), "=r"(w[6]),
        "=r"(w[7])
      : "r"(static_cast<std::uint32_t>(c.v[0])), "r"(static_cast<std::uint32_t>(c.v[0] >> 32)),
        "r"(static_cast<std::uint32_t>(c.v[1])), "r"(static_cast<std::uint32_t>(c.v[1] >> 32)),
        "r"(static_cast<std::uint32_t>(c.v[2])), "r"(static_cast<std::uint32_t>(c.v[2] >> 32)),
        "r"(static_cast<std::uint32_t>(c.v[3])), "r"(static_cast<std::uint32_t>(c.v[3] >> 32)),
        "r"(static_cast<std::uint32_t>(n)), "r"(static_cast<std::uint32_t>(n >> 32)));
  for (int i = 0; i < 4; ++i) c.v[i] = (static_cast<std::uint64_t>(w[2 * i + 1]) << 32) | w[2 * i];
  return c;
#else
  c.v[0] += n;
  if (c.v[0] < n) {
    for (int i = 1; i < 4; ++i) {
      if (++c.v[i] != 0) break;
    }
  }
  return c;
#endif
}

}  // namespace numcu::philox
