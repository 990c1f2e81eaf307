// numcu.random's distributions: one table (NUMCU_DISTRIBUTIONS) of transform functors that turn
// words of NumPy's Philox stream into values, for the CUDA kernels and the CPU backend alike.
//
// The stream. NumPy's Philox(counter, key) hands out the 64-bit words of block counter + 1, then
// of counter + 2, ... (a block is four words), and 32-bit draws as the low, then the high half
// of each word; its state also holds the words of the current block not yet used (buffer,
// buffer_pos) and a pending high half (has_uint32, uinteger). A call that makes n values of a
// distribution takes exactly n * draws units (words, or 32-bit halves) from that stream, value i
// the i-th group, so every value is a function of (key, its position) alone: no thread, block
// size, chunking or device changes it, and two calls of n/2 values give one call's n values.
// The state afterwards is NumPy's after the same draws, so NumPy can carry on from it.
//
// Where NumPy draws a variable number of words per value (rejection sampling: Lemire's bounded
// integers, gamma, Poisson, binomial), a value's first attempt uses its own units and any
// further attempts use words of its own substream: Philox under a key derived from the stream's,
// counter (the unit's block counter, the unit's place in its block, the attempt). The values stay
// functions of (key, position); they are NumPy's as long as NumPy accepts the first attempt.
//
// A table line: X(name, Functor, draws, dtypes, doc) with
// - name: the Generator method;
// - Functor: the transform (see below);
// - draws: units a value takes from the stream, 0 where its parameters decide (integers);
// - dtypes: the result dtypes (DTypeMask), the first listed bit being the default;
// - doc: the docstring's first lines.
// A functor has `params` (name, default, NumPy's constraint), `Binding` flags, `unit<T>` (the
// unit kind for result type T) and either operator()(Draw, Args) -> T, or for values that come
// in pairs from two units (Box-Muller normals) pair(u0, u1, z0, z1) and finish(z, Args) -> T.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numcu/backend.hpp"
#include "numcu/config.hpp"
#include "numcu/dtype.hpp"
#include "numcu/philox.hpp"
#include "numcu/random_math.hpp"

namespace numcu::random {

// The unit a distribution draws: a 64-bit word, or a 32-bit half (NumPy's next_uint32).
enum class Unit : std::uint8_t { word, half };

// NumPy's parameter checks (numpy/random/_common.pyx), with NumPy's messages.
enum class Constraint : std::uint8_t {
  none,
  non_negative,    // "{name} < 0" (signbit: -0.0 too; NaN passes)
  positive,        // "{name} <= 0"
  bounded_0_1,     // "{name} < 0, {name} > 1 or {name} is NaN"
  bounded_gt_0_1,  // "{name} <= 0, {name} > 1 or {name} contains NaNs"
  poisson,         // "{name} < 0 or {name} is NaN", "{name} value too large"
};

struct ParamSpec {
  const char* name;
  const char* default_value;  // Python source of the default, or nullptr: required
  Constraint constraint;
};

// How many parameters a distribution's params[] names (one that takes none holds a single
// nameless entry: a C array cannot be empty).
template <class F>
constexpr int param_count() {
  int n = 0;
  for (const ParamSpec& p : F::params) n += p.name != nullptr ? 1 : 0;
  return n;
}

// The Python signature's extras after size=, in NumPy's order.
enum Binding : unsigned {
  kFill = 1,     // NumPy's *_fill methods: size=None gives a Python float; out may be F-ordered
  kDtype = 2,    // dtype= (the table's dtypes)
  kMethod = 4,   // method= (standard_exponential)
  kOut = 8,      // out=
  kOwn = 16,     // bound by hand (integers)
  kNumPy = 32,   // bit-identical to NumPy's Generator(Philox) for the same state
  kReject = 64,  // draws from the substream when a first attempt is rejected
  kFirstExact = 128,  // NumPy's values while NumPy accepts the first attempt (integers)
};

// Result dtypes, one bit per DType.
using DTypeMask = std::uint32_t;
constexpr DTypeMask dtype_bit(DType d) { return DTypeMask{1} << static_cast<int>(d); }
constexpr DTypeMask kFloat64 = dtype_bit(DType::float64);
constexpr DTypeMask kFloats = kFloat64 | dtype_bit(DType::float32);
constexpr DTypeMask kInt64 = dtype_bit(DType::int64);
constexpr DTypeMask kIntegers = kInt64 | dtype_bit(DType::int8) | dtype_bit(DType::int16) |
                                dtype_bit(DType::int32) | dtype_bit(DType::uint8) |
                                dtype_bit(DType::uint16) | dtype_bit(DType::uint32) |
                                dtype_bit(DType::uint64) | dtype_bit(DType::bool_);

// A distribution's parameters: scalars, or per-value arrays (dense, in the output's element
// order; on the device where the values are made).
struct Params {
  double value[3] = {};
  const double* array[3] = {};
  // integers: values in [off, off + rng] (wrapping in the result type), `width` bits per draw.
  std::uint64_t off = 0, rng = 0;
  const std::uint64_t* off_array = nullptr;
  const std::uint64_t* rng_array = nullptr;
  int width = 64;
};

// One value's parameters.
struct Args {
  double p[3];
  std::uint64_t off, rng;
  int width;
};

NUMCU_HD NUMCU_FORCEINLINE Args args_at(const Params& q, std::int64_t i) {
  Args a;
  for (int k = 0; k < 3; ++k) a.p[k] = q.array[k] ? q.array[k][i] : q.value[k];
  a.off = q.off_array ? q.off_array[i] : q.off;
  a.rng = q.rng_array ? q.rng_array[i] : q.rng;
  a.width = q.width;
  return a;
}

// The stream at the start of a call, from NumPy's state (see the top of this file).
struct StreamState {
  philox::RoundKeys<> keys;        // the main stream's
  philox::RoundKeys<> retry_keys;  // the substreams'
  philox::Counter counter;         // NumPy's counter: the block `buffer` came from
  std::uint64_t buffer[4];
  int buffer_pos;    // 0..4: buffer[buffer_pos..3] come first
  bool has_pending;  // NumPy's has_uint32: the first half is `pending`
  std::uint32_t pending;
};

// How a distribution takes units: `units` per value, or with pack > 1 `pack` values per unit
// (8- and 16-bit and bool integers: fields of a 32-bit half, NumPy's buffered draws). Paired
// distributions make the two values of an aligned pair of units (the two halves of a word, or
// words 0-1 and 2-3 of a block) together.
struct Draws {
  Unit unit = Unit::word;
  int units = 1;
  int pack = 1;
  bool paired = false;
  int width = 64;  // integers: the bits a value's draw takes (Params::width)
};

// A call: n values of a distribution, from `stream` on.
struct Plan {
  std::int64_t n = 0;
  Draws draws;
  // Units taken from NumPy's buffer and pending half before the first whole block of the
  // stream (counter + 1), and the values computed one at a time from them.
  int lead = 0;
  std::int64_t head = 0;
  // Whole blocks after the head, each making values_per_block values (0 blocks: every value
  // is computed one at a time, as when a value's units straddle a block).
  std::int64_t blocks = 0;
  int values_per_block = 0;
  StreamState stream;
  Params params;
};

// ---------------------------------------------------------------------------------------------
// Units into numbers.

// NumPy's next_double: (w >> 11) * 2^-53, exact either way. The CPU builds it from the bits (x86's
// vector units below AVX-512 have no conversion from 64-bit integers); a GPU converts and scales:
// 2 instructions against 7, and the conversion runs beside the arithmetic.
NUMCU_HD NUMCU_FORCEINLINE double uniform53(std::uint64_t w) {
  const std::uint64_t m = w >> 11;
#if defined(__CUDA_ARCH__)
  return __ull2double_rn(m) * 0x1p-53;
#else
  return (rmath::as_double(0x3FF0000000000000ull | (m >> 1)) - 1.0) + ((m & 1) ? 0x1p-53 : 0.0);
#endif
}
// NumPy's next_float: (h >> 8) * 2^-24, exact either way (as uniform53).
NUMCU_HD NUMCU_FORCEINLINE float uniform24(std::uint32_t h) {
  const std::uint32_t m = h >> 8;
#if defined(__CUDA_ARCH__)
  return __uint2float_rn(m) * 0x1p-24f;
#else
  return (rmath::as_float(0x3F800000u | (m >> 1)) - 1.0f) + ((m & 1) ? 0x1p-24f : 0.0f);
#endif
}
// NumPy's uniform of a T from one unit: next_float of a half for float32, else next_double of a
// word (HalvesForFloat32's units).
template <class T, class U>
NUMCU_HD NUMCU_FORCEINLINE T uniform_of(U unit) {
  if constexpr (std::is_same_v<T, float>) {
    return uniform24(unit);
  } else {
    return uniform53(unit);
  }
}
// (w + 1/2) 2^-64 and (h + 1/2) 2^-32: in (0, 1], never 0 (for logarithms).
NUMCU_HD NUMCU_FORCEINLINE double open_uniform64(std::uint64_t w) {
  return static_cast<double>(w) * 0x1p-64 + 0x1p-65;
}
NUMCU_HD NUMCU_FORCEINLINE float open_uniform32(std::uint32_t h) {
  return static_cast<float>(h) * 0x1p-32f + 0x1p-33f;
}
NUMCU_HD NUMCU_FORCEINLINE double open_uniform32d(std::uint32_t h) {
  return static_cast<double>(h) * 0x1p-32 + 0x1p-33;
}

// A value's substream: words for the attempts after the first, and for the extra draws some
// values need. Block k of it is Philox(retry key, (unit's block counter [0..2], place << 32 | k)).
struct Retry {
  const philox::RoundKeys<>* keys;
  philox::Counter base;
  NUMCU_HD philox::Block block(std::uint32_t k) const {
    philox::Counter c = base;
    c.v[3] |= k;
    return philox::generate_out_of_line(c, *keys);
  }
};

// The substream's words in order, from block `first` on.
struct RetryWords {
  const Retry& retry;
  std::uint32_t block_index;
  int used = 4;
  philox::Block b{};
  NUMCU_HD RetryWords(const Retry& r, std::uint32_t first = 0) : retry(r), block_index(first) {}
  NUMCU_HD std::uint64_t next() {
    if (used == 4) {
      b = retry.block(block_index++);
      used = 0;
    }
    return b.v[used++];
  }
};

// What a value's transform gets: its units, the field of a packed unit, its substream.
template <class U>
struct Draw {
  const U* u;
  int sub;
  Retry retry;
};

// ---------------------------------------------------------------------------------------------
// The transforms.

// Default unit: float32 results take 32-bit halves (NumPy's next_float), others whole words.
struct HalvesForFloat32 {
  template <class T>
  static constexpr Unit unit = std::is_same_v<T, float> ? Unit::half : Unit::word;
  static constexpr bool paired = false;
};
struct Words {
  template <class T>
  static constexpr Unit unit = Unit::word;
  static constexpr bool paired = false;
};

struct Random : HalvesForFloat32 {
  static constexpr unsigned binding = kFill | kDtype | kOut | kNumPy;
  static constexpr ParamSpec params[] = {{nullptr, nullptr, Constraint::none}};
  template <class T, class U>
  NUMCU_HD NUMCU_FORCEINLINE T operator()(const Draw<U>& d, const Args&) const {
    return uniform_of<T>(d.u[0]);
  }
};

struct Uniform : Words {
  static constexpr unsigned binding = kNumPy;
  static constexpr ParamSpec params[] = {{"low", "0.0", Constraint::none},
                                         {"high", "1.0", Constraint::none}};
  // NumPy's random_uniform: lower + range * next_double, range = high - low.
  template <class T, class U>
  NUMCU_HD NUMCU_FORCEINLINE T operator()(const Draw<U>& d, const Args& a) const {
    return a.p[0] + (a.p[1] - a.p[0]) * uniform53(d.u[0]);
  }
};

// Box-Muller on an aligned pair of units: z0 = r cos(2 pi u2), z1 = r sin(2 pi u2) with
// r = sqrt(-2 log u1), u1 in (0, 1] from the first unit (all its bits), u2 in [0, 1) from the
// second. NumPy draws normals by the ziggurat (a rejection method): numcu's are not NumPy's.
template <class T>
NUMCU_HD NUMCU_FORCEINLINE void box_muller(T u1, T u2, T& z0, T& z1) {
  const T r = rmath::sqrt(T(-2) * rmath::log_normal(u1));
  T s, c;
  rmath::sincos_2pi(u2, s, c);
  z0 = r * c;
  z1 = r * s;
}

struct NormalPairs {
  template <class T>
  static constexpr Unit unit = std::is_same_v<T, float> ? Unit::half : Unit::word;
  static constexpr bool paired = true;
  template <class T>
  NUMCU_HD NUMCU_FORCEINLINE static void pair(std::uint32_t u0, std::uint32_t u1, T& z0, T& z1) {
    box_muller(open_uniform32(u0), uniform24(u1), z0, z1);
  }
  template <class T>
  NUMCU_HD NUMCU_FORCEINLINE static void pair(std::uint64_t u0, std::uint64_t u1, T& z0, T& z1) {
    box_muller(open_uniform64(u0), uniform53(u1), z0, z1);
  }
};

struct StandardNormal : NormalPairs {
  static constexpr unsigned binding = kFill | kDtype | kOut;
  static constexpr ParamSpec params[] = {{nullptr, nullptr, Constraint::none}};
  template <class T>
  NUMCU_HD NUMCU_FORCEINLINE T finish(T z, const Args&) const {
    return z;
  }
};

struct Normal : NormalPairs {
  static constexpr unsigned binding = 0;
  static constexpr ParamSpec params[] = {{"loc", "0.0", Constraint::none},
                                         {"scale", "1.0", Constraint::non_negative}};
  // NumPy's random_normal: loc + scale * z.
  template <class T>
  NUMCU_HD NUMCU_FORCEINLINE T finish(T z, const Args& a) const {
    return a.p[0] + a.p[1] * z;
  }
};

// NumPy's random_lognormal: exp(normal(mean, sigma)).
struct Lognormal : Normal {
  static constexpr ParamSpec params[] = {{"mean", "0.0", Constraint::none},
                                         {"sigma", "1.0", Constraint::non_negative}};
  template <class T>
  NUMCU_HD NUMCU_FORCEINLINE T finish(T z, const Args& a) const {
    return rmath::exp(Normal::finish(z, a));
  }
};

// NumPy's method='inv': -log1p(-U), U NumPy's uniform (as -log(1 - U), 1 - U exact), computed
// in float64 for both dtypes.
NUMCU_HD NUMCU_FORCEINLINE double exponential_of(double u) { return -rmath::log_normal(1.0 - u); }

struct StandardExponential : HalvesForFloat32 {
  static constexpr unsigned binding = kFill | kDtype | kMethod | kOut;
  static constexpr ParamSpec params[] = {{nullptr, nullptr, Constraint::none}};
  template <class T, class U>
  NUMCU_HD NUMCU_FORCEINLINE T operator()(const Draw<U>& d, const Args&) const {
    return static_cast<T>(exponential_of(uniform_of<T>(d.u[0])));
  }
};

struct Exponential : Words {
  static constexpr unsigned binding = 0;
  static constexpr ParamSpec params[] = {{"scale", "1.0", Constraint::non_negative}};
  template <class T, class U>
  NUMCU_HD NUMCU_FORCEINLINE T operator()(const Draw<U>& d, const Args& a) const {
    return a.p[0] * exponential_of(uniform53(d.u[0]));
  }
};

// A standard normal from one word (Box-Muller's cosine on its two halves).
NUMCU_HD NUMCU_FORCEINLINE double normal_of_word(std::uint64_t w) {
  const double r =
      rmath::sqrt(-2.0 * rmath::log_normal(open_uniform32d(static_cast<std::uint32_t>(w))));
  double s, c;
  rmath::sincos_2pi(static_cast<double>(static_cast<std::uint32_t>(w >> 32)) * 0x1p-32, s, c);
  return r * c;
}

// Marsaglia and Tsang's gamma (NumPy's for shape >= 1), each attempt a normal and a uniform:
// the first from the value's two words, later ones from the substream (blocks first_block on).
// Shape < 1: Gamma(shape + 1) * U^(1 / shape), U from substream block boost_block. Returns
// log(X) where `want_log`, else X.
NUMCU_HD inline __attribute__((noinline)) double gamma_variate(double shape, std::uint64_t w0,
                                                               std::uint64_t w1, Retry retry,
                                                               std::uint32_t first_block,
                                                               std::uint32_t boost_block,
                                                               bool want_log) {
  if (shape == 0.0) return want_log ? -rmath::infinity<double>() : 0.0;
  const double a = shape < 1.0 ? shape + 1.0 : shape;
  const double d = a - 1.0 / 3.0;
  const double c = 1.0 / rmath::sqrt(9.0 * d);
  RetryWords more(retry, first_block);
  double result = 0.0;
  for (bool first = true;; first = false) {
    const double x = normal_of_word(first ? w0 : more.next());
    const double u = uniform53(first ? w1 : more.next());
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2 || rmath::log(u) < 0.5 * x2 + d * (1.0 - v + rmath::log(v))) {
      result = d * v;
      break;
    }
  }
  if (shape < 1.0) {
    const double u = open_uniform64(retry.block(boost_block).v[0]);
    if (want_log) return rmath::log(result) + rmath::log(u) / shape;
    return result * rmath::exp(rmath::log(u) / shape);
  }
  return want_log ? rmath::log(result) : result;
}

struct StandardGamma : Words {
  static constexpr unsigned binding = kDtype | kOut | kReject;
  static constexpr ParamSpec params[] = {{"shape", nullptr, Constraint::non_negative}};
  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    return static_cast<T>(gamma_variate(a.p[0], d.u[0], d.u[1], d.retry, 0, 0xFFFFFFFFu, false));
  }
};

struct Gamma : Words {
  static constexpr unsigned binding = kReject;
  static constexpr ParamSpec params[] = {{"shape", nullptr, Constraint::non_negative},
                                         {"scale", "1.0", Constraint::non_negative}};
  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    return a.p[1] * gamma_variate(a.p[0], d.u[0], d.u[1], d.retry, 0, 0xFFFFFFFFu, false);
  }
};

struct Chisquare : Words {
  static constexpr unsigned binding = kReject;
  static constexpr ParamSpec params[] = {{"df", nullptr, Constraint::positive}};
  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    return 2.0 * gamma_variate(a.p[0] / 2.0, d.u[0], d.u[1], d.retry, 0, 0xFFFFFFFFu, false);
  }
};

// Beta(a, b) = X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b) (words 0-1 and 2-3), through their
// logarithms where a shape is below 1, so that tiny shapes do not underflow both.
struct Beta : Words {
  static constexpr unsigned binding = kReject;
  static constexpr ParamSpec params[] = {{"a", nullptr, Constraint::positive},
                                         {"b", nullptr, Constraint::positive}};
  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    constexpr std::uint32_t kSecond = 0x80000000u;
    if (a.p[0] >= 1.0 && a.p[1] >= 1.0) {
      const double x = gamma_variate(a.p[0], d.u[0], d.u[1], d.retry, 0, 0, false);
      const double y = gamma_variate(a.p[1], d.u[2], d.u[3], d.retry, kSecond, 0, false);
      return x / (x + y);
    }
    const double lx = gamma_variate(a.p[0], d.u[0], d.u[1], d.retry, 0, 0xFFFFFFFFu, true);
    const double ly = gamma_variate(a.p[1], d.u[2], d.u[3], d.retry, kSecond, 0xFFFFFFFEu, true);
    const double t = ly - lx;                 // X / (X + Y) = 1 / (1 + e^t)
    if (t != t) return lx >= ly ? 1.0 : 0.0;  // both -inf (or both +inf)
    if (t > 0) {
      const double e = rmath::exp(-t);
      return e / (1.0 + e);
    }
    return 1.0 / (1.0 + rmath::exp(t));
  }
};

// Poisson: inversion for lam < 10 (one uniform, a sequential search; NumPy multiplies uniforms
// instead), Hoermann's PTRS for lam >= 10 (NumPy's, first attempt from the value's two words).
NUMCU_HD inline __attribute__((noinline)) double poisson_variate(double lam, std::uint64_t w0,
                                                                 std::uint64_t w1, Retry retry) {
  if (lam == 0.0) return 0.0;
  RetryWords more(retry);
  if (lam < 10.0) {
    const double p0 = rmath::exp(-lam);
    for (bool first = true;; first = false) {
      double u = uniform53(first ? w0 : more.next());
      double p = p0;
      double k = 0;
      // Subtracting the probabilities keeps u's precision; a u left above the rounded total
      // (about 1e-16 of the time) draws again.
      while (u > p && k < 256.0) {
        u -= p;
        k += 1.0;
        p = p * lam / k;
      }
      if (k < 256.0) return k;
    }
  }
  const double slam = rmath::sqrt(lam);
  const double loglam = rmath::log(lam);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (bool first = true;; first = false) {
    const double u = uniform53(first ? w0 : more.next()) - 0.5;
    const double v = uniform53(first ? w1 : more.next());
    const double us = 0.5 - (u < 0 ? -u : u);
    if (!(us > 0.0)) continue;
    const double k = rmath::floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (rmath::log(v) + rmath::log(invalpha) - rmath::log(a / (us * us) + b) <=
        -lam + k * loglam - rmath::log_factorial(k)) {
      return k;
    }
  }
}

struct Poisson : Words {
  static constexpr unsigned binding = kReject;
  static constexpr ParamSpec params[] = {{"lam", "1.0", Constraint::poisson}};
  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    return static_cast<T>(poisson_variate(a.p[0], d.u[0], d.u[1], d.retry));
  }
};

// Binomial(n, p): for p > 1/2, n - Binomial(n, 1 - p); inversion (one uniform, NumPy's search)
// where n p < 10, else Hoermann's BTRS (NumPy has BTPE), first attempt from the two words.
NUMCU_HD inline __attribute__((noinline)) double binomial_variate(double n, double p0,
                                                                  std::uint64_t w0,
                                                                  std::uint64_t w1, Retry retry) {
  if (n == 0.0 || p0 == 0.0) return 0.0;
  const bool flip = p0 > 0.5;
  const double p = flip ? 1.0 - p0 : p0;
  const double q = 1.0 - p;
  const double np = n * p;
  RetryWords more(retry);
  double k = 0;
  if (np < 10.0) {
    const double qn = rmath::exp(n * rmath::log1p(-p));
    const double bound = rmath::floor(np + 10.0 * rmath::sqrt(np * q + 1.0));
    const double limit = bound < n ? bound : n;
    for (bool first = true;; first = false) {
      double u = uniform53(first ? w0 : more.next());
      double px = qn;
      k = 0;
      while (u > px && k <= limit) {
        u -= px;
        k += 1.0;
        px = ((n - k + 1.0) * p * px) / (k * q);
      }
      if (k <= limit) break;
    }
  } else {
    const double spq = rmath::sqrt(np * q);
    const double b = 1.15 + 2.53 * spq;
    const double a = -0.0873 + 0.0248 * b + 0.01 * p;
    const double c = np + 0.5;
    const double alpha = (2.83 + 5.1 / b) * spq;
    const double vr = 0.92 - 4.2 / b;
    const double m = rmath::floor((n + 1.0) * p);
    const double lpq = rmath::log(p / q);
    const double h = rmath::log_factorial(m) + rmath::log_factorial(n - m);
    for (bool first = true;; first = false) {
      const double u = uniform53(first ? w0 : more.next()) - 0.5;
      const double v = uniform53(first ? w1 : more.next());
      const double us = 0.5 - (u < 0 ? -u : u);
      if (!(us > 0.0)) continue;
      k = rmath::floor((2.0 * a / us + b) * u + c);
      if (k < 0.0 || k > n) continue;
      if (us >= 0.07 && v <= vr) break;
      const double lv = rmath::log(v * alpha / (a / (us * us) + b));
      if (lv <= h - rmath::log_factorial(k) - rmath::log_factorial(n - k) + (k - m) * lpq) break;
    }
  }
  return flip ? n - k : k;
}

struct Binomial : Words {
  static constexpr unsigned binding = kReject;
  static constexpr ParamSpec params[] = {{"n", nullptr, Constraint::non_negative},
                                         {"p", nullptr, Constraint::bounded_0_1}};
  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    return static_cast<T>(binomial_variate(a.p[0], a.p[1], d.u[0], d.u[1], d.retry));
  }
};

// Geometric(p), trials to the first success: NumPy's sequential search for p >= 1/3 (the same
// value as NumPy's from the same word), else ceil(log(U) / log1p(-p)) (NumPy inverts a
// ziggurat exponential instead).
struct Geometric : Words {
  static constexpr unsigned binding = 0;
  static constexpr ParamSpec params[] = {{"p", nullptr, Constraint::bounded_gt_0_1}};
  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    const double p = a.p[0];
    if (p >= 0.333333333333333333333333) {
      const double u = uniform53(d.u[0]);
      std::int64_t x = 1;
      double sum = p, prod = p;
      const double q = 1.0 - p;
      while (u > sum) {
        prod *= q;
        sum += prod;
        ++x;
      }
      return static_cast<T>(x);
    }
    const double z = rmath::floor(rmath::log(open_uniform64(d.u[0])) / rmath::log1p(-p)) + 1.0;
    if (z >= 9.223372036854776e+18) return static_cast<T>(INT64_MAX);
    return static_cast<T>(z);
  }
};

// Lemire's method after a first draw whose product's low part `low` fell below rng + 1: that
// draw stands unless `low` is below the threshold (the draw NumPy would reject); else further
// draws from the value's substream (the low `w` bits of each word). Out of line: it runs rarely.
NUMCU_HD inline __attribute__((noinline)) std::uint64_t lemire_again(Retry retry, std::uint64_t rng,
                                                                     std::uint64_t low,
                                                                     std::uint64_t high, int w) {
  const std::uint64_t excl = rng + 1;
  const std::uint64_t full = w == 64 ? ~0ull : (1ull << w) - 1u;
  const std::uint64_t threshold = (full - rng) % excl;
  RetryWords more(retry);
  while (low < threshold) {
    if (w == 64) {
      low = philox::mulhilo(more.next(), excl, high);
    } else {
      const std::uint64_t m = (more.next() & full) * excl;
      low = m & full;
      high = m >> w;
    }
  }
  return high;
}

// Integers in [off, off + rng] by Lemire's method on NumPy's draws: `width` bits per value
// (fields of a half for 8- and 16-bit results and bool, halves where rng < 2^32, else words);
// a rejected draw (NumPy draws again from its stream) draws from the value's substream.
struct Integers {
  static constexpr unsigned binding = kOwn | kDtype | kReject | kFirstExact;
  // The compiled entry takes NumPy's offset and inclusive range, which Generator.integers
  // (numcu/random.py) works out from low, high and endpoint as NumPy does.
  static constexpr ParamSpec params[] = {{"off", nullptr, Constraint::none},
                                         {"rng", nullptr, Constraint::none}};
  template <class T>
  static constexpr Unit unit = Unit::word;  // decided per call (draws_for)
  static constexpr bool paired = false;

  template <class T, class U>
  NUMCU_HD T operator()(const Draw<U>& d, const Args& a) const {
    using R = typename std::conditional_t<std::is_same_v<T, bool>, std::common_type<std::uint8_t>,
                                          std::make_unsigned<T>>::type;
    const int w = a.width;
    if (a.rng == 0) return static_cast<T>(static_cast<R>(a.off));
    if (w == 1) return static_cast<T>((d.u[0] >> d.sub) & 1u);
    std::uint64_t x = static_cast<std::uint64_t>(d.u[0]);
    if (w < 32) x = (x >> (d.sub * w)) & ((1u << w) - 1u);
    const std::uint64_t full = w == 64 ? ~0ull : (1ull << w) - 1u;
    if (a.rng == full) return static_cast<T>(static_cast<R>(a.off + x));
    std::uint64_t result;
    if (w == 64) {
      const std::uint64_t excl = a.rng + 1;
      std::uint64_t hi;
      const std::uint64_t lo = philox::mulhilo(x, excl, hi);
      result = lo < excl ? lemire_again(d.retry, a.rng, lo, hi, 64) : hi;
    } else {
      const std::uint64_t excl = a.rng + 1;
      const std::uint64_t m = x * excl;
      result = (m & full) < excl ? lemire_again(d.retry, a.rng, m & full, m >> w, w) : m >> w;
    }
    return static_cast<T>(static_cast<R>(a.off + result));
  }
};

// ---------------------------------------------------------------------------------------------
// The table.

#define NUMCU_DISTRIBUTIONS(X)                                                                    \
  X(random, ::numcu::random::Random, 1, ::numcu::random::kFloats,                                 \
    "Floats uniform on [0, 1), NumPy's values (53 bits of a word; float32: 24 bits of a half).")  \
  X(uniform, ::numcu::random::Uniform, 1, ::numcu::random::kFloat64,                              \
    "Floats uniform on [low, high): low + (high - low) * random(), NumPy's values.")              \
  X(integers, ::numcu::random::Integers, 0, ::numcu::random::kIntegers,                           \
    "Integers uniform on [low, high) (or [low, high] with endpoint=True).")                       \
  X(standard_normal, ::numcu::random::StandardNormal, 1, ::numcu::random::kFloats,                \
    "Standard normal values (mean 0, standard deviation 1).")                                     \
  X(normal, ::numcu::random::Normal, 1, ::numcu::random::kFloat64,                                \
    "Normal values: loc + scale * standard_normal().")                                            \
  X(lognormal, ::numcu::random::Lognormal, 1, ::numcu::random::kFloat64,                          \
    "Log-normal values: exp(normal(mean, sigma)).")                                               \
  X(standard_exponential, ::numcu::random::StandardExponential, 1, ::numcu::random::kFloats,      \
    "Standard exponential values (scale 1): -log(1 - random()), NumPy's method='inv'.")           \
  X(exponential, ::numcu::random::Exponential, 1, ::numcu::random::kFloat64,                      \
    "Exponential values: scale * standard_exponential().")                                        \
  X(standard_gamma, ::numcu::random::StandardGamma, 2, ::numcu::random::kFloats,                  \
    "Gamma values of scale 1 (Marsaglia and Tsang's method).")                                    \
  X(gamma, ::numcu::random::Gamma, 2, ::numcu::random::kFloat64,                                  \
    "Gamma values: scale * standard_gamma(shape).")                                               \
  X(beta, ::numcu::random::Beta, 4, ::numcu::random::kFloat64,                                    \
    "Beta values: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).")                                   \
  X(chisquare, ::numcu::random::Chisquare, 2, ::numcu::random::kFloat64,                          \
    "Chi-square values with df degrees of freedom: 2 * standard_gamma(df / 2).")                  \
  X(poisson, ::numcu::random::Poisson, 2, ::numcu::random::kInt64, "Poisson counts of mean lam.") \
  X(binomial, ::numcu::random::Binomial, 2, ::numcu::random::kInt64,                              \
    "Binomial counts: successes in n trials of probability p.")                                   \
  X(geometric, ::numcu::random::Geometric, 1, ::numcu::random::kInt64,                            \
    "Geometric counts: trials up to and including the first success of probability p.")

enum class Distribution {
#define NUMCU_ENUM(name, F, draws, dtypes, doc) name,
  NUMCU_DISTRIBUTIONS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

constexpr int kNumDistributions = 0
#define NUMCU_COUNT(name, F, draws, dtypes, doc) +1
    NUMCU_DISTRIBUTIONS(NUMCU_COUNT)
#undef NUMCU_COUNT
    ;

// A distribution's line of the table, at run time.
struct DistributionInfo {
  const char* name;
  const char* doc;
  int draws;
  DTypeMask dtypes;
  DType default_dtype;
  unsigned binding;
  int nparams;
  const ParamSpec* params;
};
const DistributionInfo& distribution_info(Distribution d);

// How a call of `d` with result dtype `dtype` and these parameters takes its units.
Draws distribution_draws(Distribution d, DType dtype, const Params& params, bool array_params);

// The plan of n values from NumPy's Philox state: where the units come from, and the state
// after them (NumPy's, after the same draws).
struct PhiloxState {
  std::uint64_t counter[4];
  std::uint64_t key[2];
  std::uint64_t buffer[4];
  int buffer_pos;
  bool has_uint32;
  std::uint32_t uinteger;
};
Plan make_plan(std::int64_t n, const Draws& draws, const PhiloxState& state, const Params& params);
// The state after `units` units of kind `unit`, as NumPy's next_uint64/next_uint32 leave it.
PhiloxState advance_state(const PhiloxState& state, Unit unit, std::uint64_t units);
// The units a plan takes.
std::uint64_t plan_units(const Plan& plan);

// out[0..plan.n) = the values, on the CPU backend or queued on `stream`.
void random_cpu(Distribution d, DType dtype, const Plan& plan, void* out);
void random_cuda(Distribution d, DType dtype, const Plan& plan, void* out, Stream stream);

// Choice without replacement: the first k values of the order that sorts n raw words (the
// plan's words 0 .. n-1) are the k smallest (word, index) pairs. Candidates: the pairs whose
// word is at most `threshold`, in index order, padded with all-ones words to `capacity`; a
// threshold is chosen so that their number lies in [k, capacity] but with a probability below
// 1e-30, and a slow exact search finds another threshold in that case. Sorting the candidates'
// words (stably) then gives the k values.
struct Candidates {
  std::uint64_t threshold = 0;
  std::int64_t capacity = 0;
  std::int64_t k = 0;
};
// The candidates' threshold and capacity for k of n, or capacity 0 where they would not save
// work (more than half of n).
Candidates plan_candidates(std::int64_t n, std::int64_t k);
void candidates_cpu(const Plan& plan, const Candidates& c, std::uint64_t* words,
                    std::int64_t* indices);
void candidates_cuda(const Plan& plan, const Candidates& c, std::uint64_t* words,
                     std::int64_t* indices, void* scratch, Stream stream);
// Scratch bytes candidates_cuda needs.
std::size_t candidates_scratch_bytes(const Plan& plan);

// Philox4x64 with 7 or 10 rounds of one counter (tests: the Random123 known-answer vectors).
philox::Block philox_block(const philox::Counter& counter, std::uint64_t key0, std::uint64_t key1,
                           int rounds);

}  // namespace numcu::random
