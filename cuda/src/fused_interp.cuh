// The GPU interpreter of fused programs (fused.hpp, fused_gpu.hpp): one kernel per class of
// dtypes, included by fused_<class>.cu.
//
// A block of kGpuBlock threads takes a tile of E * kGpuBlock consecutive output elements (thread
// t E of them, in groups of V side by side: Config) and:
// 1. stages every input's tile in shared memory (its slot, in the tile's order): 16-byte
//    asynchronous copies (cp.async, no registers involved, all inputs in flight at once) where
//    the input is dense and aligned, else element copies, loaded before any is stored;
// 2. runs the program: each instruction is one warp-uniform case (a short path for the
//    commonest, else a switch), the ufunc's functor applied to the thread's E elements, its
//    operands from the accumulator (registers: the previous instruction's result), a slot of
//    shared memory (a group an access), or a constant;
// 3. writes the output once, a group a store, each warp's stores covering whole 128-byte lines.
// Nothing is indexed at run time but shared memory and the kernel's argument: the accumulator
// is only touched by fully unrolled code, so that it stays in registers.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <mutex>
#include <type_traits>
#include <vector>

#include "fused_gpu.hpp"
#include "numcu/cuda_check.hpp"
#include "numcu/fused.hpp"
#include "numcu/ops.hpp"
#include "numcu/types.hpp"

// NUMCU_FUSED_EMULATE (a test build's option): the interpreter's device functions compiled for the
// host too, so that fused_emulate.cu can run the encoded programs on the CPU, thread by thread.
#ifdef NUMCU_FUSED_EMULATE
#define NUMCU_FUSED_FN __host__ __device__ __forceinline__
#define NUMCU_FUSED_NOINLINE __host__ __device__ __noinline__
#else
#define NUMCU_FUSED_FN __device__ __forceinline__
#define NUMCU_FUSED_NOINLINE __device__ __noinline__
#endif

namespace numcu::fused::gpu {

#ifdef NUMCU_FUSED_EMULATE
// The emulator's current thread of the block.
inline int g_emulated_thread = 0;
#endif
#if defined(NUMCU_FUSED_EMULATE) && !defined(__CUDA_ARCH__)
NUMCU_FUSED_FN int thread_index() { return g_emulated_thread; }
#else
NUMCU_FUSED_FN int thread_index() { return static_cast<int>(threadIdx.x); }
#endif

NUMCU_FUSED_FN float bits_float(std::uint32_t w) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(w);
#else
  float f;
  std::memcpy(&f, &w, sizeof f);
  return f;
#endif
}
NUMCU_FUSED_FN std::uint32_t float_bits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  std::uint32_t w;
  std::memcpy(&w, &f, sizeof w);
  return w;
#endif
}
NUMCU_FUSED_FN double bits_double(std::uint32_t lo, std::uint32_t hi) {
#ifdef __CUDA_ARCH__
  return __hiloint2double(static_cast<int>(hi), static_cast<int>(lo));
#else
  const std::uint64_t u = (static_cast<std::uint64_t>(hi) << 32) | lo;
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
#endif
}
NUMCU_FUSED_FN void double_bits(double d, std::uint32_t* w) {
#ifdef __CUDA_ARCH__
  w[0] = static_cast<std::uint32_t>(__double2loint(d));
  w[1] = static_cast<std::uint32_t>(__double2hiint(d));
#else
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  w[0] = static_cast<std::uint32_t>(u);
  w[1] = static_cast<std::uint32_t>(u >> 32);
#endif
}

template <GpuClass C>
struct Config {
  static constexpr int W = gpu_class_width(C);
  static constexpr int E = gpu_class_elements(C);
  static constexpr int B = kGpuBlock;
  static constexpr int kTile = E * B;
  // A thread's elements lie in groups of V side by side (16 bytes of the widest dtype): element
  // j of thread t is element t * V + at(j) of the tile. A group is one 16-byte access (or
  // narrower, for narrower dtypes) to shared or global memory, and a warp's accesses to a group
  // cover consecutive bytes.
  static constexpr int V = 16 / W;
  static constexpr int kGroups = E / V;
  NUMCU_FUSED_FN static constexpr int at(int j) { return (j / V) * (V * B) + j % V; }
  template <class T>
  static constexpr bool has = gpu_class_has(C, gpu_type_index(dtype_of_v<T>));
};

constexpr int kAccWords = kAccBytes / 4;
using Acc = std::uint32_t[kAccWords];

// A value of type T in the accumulator: `words` 32-bit registers (bool and 4-byte types one).
template <class T>
struct Pack;
template <>
struct Pack<bool> {
  static constexpr int words = 1;
  NUMCU_FUSED_FN static bool get(const std::uint32_t* w) { return w[0] != 0; }
  NUMCU_FUSED_FN static void put(std::uint32_t* w, bool v) { w[0] = v ? 1u : 0u; }
};
template <>
struct Pack<std::int32_t> {
  static constexpr int words = 1;
  NUMCU_FUSED_FN static std::int32_t get(const std::uint32_t* w) {
    return static_cast<std::int32_t>(w[0]);
  }
  NUMCU_FUSED_FN static void put(std::uint32_t* w, std::int32_t v) {
    w[0] = static_cast<unsigned>(v);
  }
};
template <>
struct Pack<float> {
  static constexpr int words = 1;
  NUMCU_FUSED_FN static float get(const std::uint32_t* w) { return bits_float(w[0]); }
  NUMCU_FUSED_FN static void put(std::uint32_t* w, float v) { w[0] = float_bits(v); }
};
template <>
struct Pack<std::int64_t> {
  static constexpr int words = 2;
  NUMCU_FUSED_FN static std::int64_t get(const std::uint32_t* w) {
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(w[1]) << 32) | w[0]);
  }
  NUMCU_FUSED_FN static void put(std::uint32_t* w, std::int64_t v) {
    w[0] = static_cast<std::uint32_t>(v);
    w[1] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) >> 32);
  }
};
template <>
struct Pack<double> {
  static constexpr int words = 2;
  NUMCU_FUSED_FN static double get(const std::uint32_t* w) { return bits_double(w[0], w[1]); }
  NUMCU_FUSED_FN static void put(std::uint32_t* w, double v) { double_bits(v, w); }
};
template <>
struct Pack<complex64> {
  static constexpr int words = 2;
  NUMCU_FUSED_FN static complex64 get(const std::uint32_t* w) {
    return complex64(Pack<float>::get(w), Pack<float>::get(w + 1));
  }
  NUMCU_FUSED_FN static void put(std::uint32_t* w, complex64 v) {
    Pack<float>::put(w, v.real());
    Pack<float>::put(w + 1, v.imag());
  }
};
template <>
struct Pack<complex128> {
  static constexpr int words = 4;
  NUMCU_FUSED_FN static complex128 get(const std::uint32_t* w) {
    return complex128(Pack<double>::get(w), Pack<double>::get(w + 2));
  }
  NUMCU_FUSED_FN static void put(std::uint32_t* w, complex128 v) {
    Pack<double>::put(w, v.real());
    Pack<double>::put(w + 2, v.imag());
  }
};

template <class T>
NUMCU_FUSED_FN T constant(const GpuParams& p, unsigned k) {
  return *reinterpret_cast<const T*>(p.consts[k]);
}

// The words of an element of S bytes in a register array (Pack's layout).
template <int S>
constexpr int words_of() {
  return S <= 4 ? 1 : S / 4;
}

// A group of elements as one access of G bytes.
template <int G>
struct Group;
template <>
struct Group<1> {
  using type = std::uint8_t;
};
template <>
struct Group<2> {
  using type = std::uint16_t;
};
template <>
struct Group<4> {
  using type = std::uint32_t;
};
template <>
struct Group<8> {
  using type = uint2;
};
template <>
struct Group<16> {
  using type = uint4;
};

// Group g of a thread's E values of S bytes in Pack's layout (w), and back: an element of S >= 4
// bytes is S / 4 words, one of a byte the low byte of a word.
template <class Cfg, int S>
using GroupOf = typename Group<S * Cfg::V>::type;

template <class Cfg, int S>
NUMCU_FUSED_FN GroupOf<Cfg, S> pack_group(const std::uint32_t* w, int g) {
  constexpr int G = S * Cfg::V;
  GroupOf<Cfg, S> x;
  if constexpr (S == 1) {
    const std::uint32_t* b = w + g * Cfg::V;
    std::uint32_t v = 0;
#pragma unroll
    for (int r = 0; r < Cfg::V; ++r) v |= (b[r] & 0xffu) << (8 * r);
    x = static_cast<GroupOf<Cfg, S>>(v);
  } else if constexpr (G == 4) {
    x = w[g];
  } else if constexpr (G == 8) {
    x = make_uint2(w[2 * g], w[2 * g + 1]);
  } else {
    x = make_uint4(w[4 * g], w[4 * g + 1], w[4 * g + 2], w[4 * g + 3]);
  }
  return x;
}

template <class Cfg, int S>
NUMCU_FUSED_FN void unpack_group(GroupOf<Cfg, S> x, std::uint32_t* w, int g) {
  constexpr int G = S * Cfg::V;
  if constexpr (S == 1) {
    const std::uint32_t v = x;
#pragma unroll
    for (int r = 0; r < Cfg::V; ++r) w[g * Cfg::V + r] = (v >> (8 * r)) & 0xffu;
  } else if constexpr (G == 4) {
    w[g] = x;
  } else if constexpr (G == 8) {
    w[2 * g] = x.x;
    w[2 * g + 1] = x.y;
  } else {
    w[4 * g] = x.x;
    w[4 * g + 1] = x.y;
    w[4 * g + 2] = x.z;
    w[4 * g + 3] = x.w;
  }
}

// The thread's groups of S-byte elements in slot s: group g at [g * Cfg::B] (a warp's accesses
// to one group are consecutive).
template <class Cfg, int S>
NUMCU_FUSED_FN GroupOf<Cfg, S>* slot_groups(char* smem, unsigned s) {
  return reinterpret_cast<GroupOf<Cfg, S>*>(smem + s * kSlotBytes) + thread_index();
}

// w = the thread's E values of S bytes in slot s (all loads issued before any is used).
template <class Cfg, int S>
NUMCU_FUSED_FN void load_slot(unsigned s, Acc& w, char* smem) {
  using X = GroupOf<Cfg, S>;
  const X* src = slot_groups<Cfg, S>(smem, s);
  X x[Cfg::kGroups];
#pragma unroll
  for (int g = 0; g < Cfg::kGroups; ++g) x[g] = src[g * Cfg::B];
#pragma unroll
  for (int g = 0; g < Cfg::kGroups; ++g) unpack_group<Cfg, S>(x[g], w, g);
}

// w = the thread's E values of S bytes from constant or slot `src`, in Pack's layout.
template <class Cfg, int S>
NUMCU_FUSED_FN void load_words(unsigned src, Acc& w, char* smem, const GpuParams& p) {
  constexpr int K = words_of<S>();
  if (src & kConstBit) {
    const unsigned char* c = p.consts[src & ~unsigned{kConstBit}];
    std::uint32_t v[K];
    if constexpr (S == 1) {
      v[0] = c[0];
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = reinterpret_cast<const std::uint32_t*>(c)[k];
    }
#pragma unroll
    for (int j = 0; j < Cfg::E; ++j) {
#pragma unroll
      for (int k = 0; k < K; ++k) w[j * K + k] = v[k];
    }
  } else {
    load_slot<Cfg, S>(src, w, smem);
  }
}

// Slot `dst` = the thread's E values of S bytes in w.
template <class Cfg, int S>
NUMCU_FUSED_FN void store_words(unsigned dst, const Acc& w, char* smem) {
  GroupOf<Cfg, S>* d = slot_groups<Cfg, S>(smem, dst);
#pragma unroll
  for (int g = 0; g < Cfg::kGroups; ++g) d[g * Cfg::B] = pack_group<Cfg, S>(w, g);
}

// The item sizes a class's registers hold: 1 and 4 bytes, and up to its widest.
template <class Cfg>
NUMCU_FUSED_FN void load_sized(unsigned size_class, unsigned src, Acc& w, char* smem,
                               const GpuParams& p) {
  if (size_class == 0) {
    load_words<Cfg, 1>(src, w, smem, p);
  } else if (size_class == 1 || Cfg::W == 4) {
    load_words<Cfg, 4>(src, w, smem, p);
  } else if (size_class == 2 || Cfg::W == 8) {
    load_words<Cfg, (Cfg::W >= 8 ? 8 : 4)>(src, w, smem, p);
  } else {
    load_words<Cfg, Cfg::W>(src, w, smem, p);
  }
}

template <class Cfg>
NUMCU_FUSED_FN void store_sized(unsigned size_class, unsigned dst, const Acc& w, char* smem) {
  if (size_class == 0) {
    store_words<Cfg, 1>(dst, w, smem);
  } else if (size_class == 1 || Cfg::W == 4) {
    store_words<Cfg, 4>(dst, w, smem);
  } else if (size_class == 2 || Cfg::W == 8) {
    store_words<Cfg, (Cfg::W >= 8 ? 8 : 4)>(dst, w, smem);
  } else {
    store_words<Cfg, Cfg::W>(dst, w, smem);
  }
}

// Group g of the thread's elements of operand `src` of an out-of-line instruction (a slot, one
// access; or a constant, given to all V), and back into slot `dst`.
template <class Cfg, class T>
NUMCU_FUSED_FN void fetch_group(unsigned src, int g, T* x, char* smem, const GpuParams& p) {
  if (src & kConstBit) {
    const T v = constant<T>(p, src & ~unsigned{kConstBit});
#pragma unroll
    for (int r = 0; r < Cfg::V; ++r) x[r] = v;
  } else {
    using X = GroupOf<Cfg, sizeof(T)>;
    static_assert(sizeof(X) == sizeof(T) * Cfg::V);
    const X w = slot_groups<Cfg, sizeof(T)>(smem, src)[g * Cfg::B];
    std::memcpy(static_cast<void*>(x), &w, sizeof w);
  }
}

template <class Cfg, class T>
NUMCU_FUSED_FN void put_group(unsigned dst, int g, const T* x, char* smem) {
  GroupOf<Cfg, sizeof(T)> w;
  std::memcpy(&w, static_cast<const void*>(x), sizeof w);
  slot_groups<Cfg, sizeof(T)>(smem, dst)[g * Cfg::B] = w;
}

// An instruction's fields, decoded from its 8 bytes (GpuInstr's layout) into registers.
struct Op {
  unsigned code, hot, dst, src0, src1, src2, fetch, sizes;
  NUMCU_FUSED_FN static Op decode(uint2 w) {
    return Op{w.x & kCodeMask, (w.x & 0xffffu) >> kHotShift, (w.x >> 16) & 0xffu, w.x >> 24,
              w.y & 0xffu,     (w.y >> 8) & 0xffu,           (w.y >> 16) & 0xffu, w.y >> 24};
  }
};

template <class F>
NUMCU_FUSED_FN F make_functor(unsigned src2, const GpuParams& p) {
  if constexpr (std::is_constructible_v<F, const OpParams&>) {
    // A functor with run-time parameters (div's default), made on the host and copied as bytes
    // into the constant the unused third operand names.
    static_assert(std::is_trivially_copyable_v<F> && sizeof(F) <= 16);
    return *reinterpret_cast<const F*>(p.consts[src2 & ~unsigned{kConstBit}]);
  } else {
    return F{};
  }
}

template <class Cfg, class F, class T>
constexpr bool enabled() {
  if constexpr (!F::template supports<T>) {
    return false;
#ifdef NUMCU_FUSED_EXPERIMENT
  } else if constexpr (!NUMCU_FUSED_EXPERIMENT) {
    return false;
#endif
  } else {
    return Cfg::template has<T> && Cfg::template has<typename F::template out_t<T>>;
  }
}

// An out-of-line instruction (gpu_inline false): the switch holds a call where the body would
// be, and the compiler optimises each body once and apart. A group of V elements a step: one
// shared-memory access an operand, and V independent bodies for the compiler to interleave.
template <class Cfg, class F, class T>
NUMCU_FUSED_NOINLINE void exec_rolled(unsigned dst, unsigned src0, unsigned src1, unsigned src2,
                                      char* smem, const GpuParams& p) {
  using Out = typename F::template out_t<T>;
  using I0 = ops::input_t<F, T, 0>;
  constexpr int A = F::arity;
  constexpr int V = Cfg::V;
  const F op = make_functor<F>(src2, p);
#pragma unroll 1
  for (int g = 0; g < Cfg::kGroups; ++g) {
    I0 a[V];
    T b[V], c[V];
    fetch_group<Cfg, I0>(src0, g, a, smem, p);
    if constexpr (A >= 2) fetch_group<Cfg, T>(src1, g, b, smem, p);
    if constexpr (A == 3) fetch_group<Cfg, T>(src2, g, c, smem, p);
    Out r[V];
#pragma unroll
    for (int v = 0; v < V; ++v) {
      if constexpr (A == 1) {
        r[v] = convert<Out>(op(convert<compute_t<I0>>(a[v])));
      } else if constexpr (A == 2) {
        r[v] = convert<Out>(op(convert<compute_t<I0>>(a[v]), convert<compute_t<T>>(b[v])));
      } else {
        r[v] = convert<Out>(op(convert<compute_t<I0>>(a[v]), convert<compute_t<T>>(b[v]),
                               convert<compute_t<T>>(c[v])));
      }
    }
    put_group<Cfg, Out>(dst, g, r, smem);
  }
}

// One instruction of functor F on loop type T: inline, A = op(A, B, C) over the thread's E
// elements (all results computed before any is written back: an output element may take more
// words than an input one), or out of line.
template <class Cfg, class F, class T>
NUMCU_FUSED_FN void exec(const Op& in, Acc& a, const Acc& b, const Acc& c, char* smem,
                         const GpuParams& p) {
  if constexpr (enabled<Cfg, F, T>()) {
    if constexpr (gpu_rolled<F, T>()) {
      exec_rolled<Cfg, F, T>(in.dst, in.src0, in.src1, in.src2, smem, p);
    } else {
      using Out = typename F::template out_t<T>;
      using I0 = ops::input_t<F, T, 0>;
      constexpr int A = F::arity;
      const F op = make_functor<F>(in.src2, p);
      Out r[Cfg::E];
#pragma unroll
      for (int j = 0; j < Cfg::E; ++j) {
        const I0 x = Pack<I0>::get(a + j * Pack<I0>::words);
        if constexpr (A == 1) {
          r[j] = convert<Out>(op(convert<compute_t<I0>>(x)));
        } else if constexpr (A == 2) {
          const T y = Pack<T>::get(b + j * Pack<T>::words);
          r[j] = convert<Out>(op(convert<compute_t<I0>>(x), convert<compute_t<T>>(y)));
        } else {
          const T y = Pack<T>::get(b + j * Pack<T>::words);
          const T z = Pack<T>::get(c + j * Pack<T>::words);
          r[j] = convert<Out>(
              op(convert<compute_t<I0>>(x), convert<compute_t<T>>(y), convert<compute_t<T>>(z)));
        }
      }
#pragma unroll
      for (int j = 0; j < Cfg::E; ++j) Pack<Out>::put(a + j * Pack<Out>::words, r[j]);
    }
  }
}

// A cast, as the cast kernels compute it (ops::Copy with a conversion on store).
template <class Cfg, class To, class From>
NUMCU_FUSED_FN void exec_cast(Acc& a) {
  if constexpr (Cfg::template has<To> && Cfg::template has<From>) {
    To r[Cfg::E];
#pragma unroll
    for (int j = 0; j < Cfg::E; ++j) {
      r[j] = convert<To>(ops::Copy{}(Pack<From>::get(a + j * Pack<From>::words)));
    }
#pragma unroll
    for (int j = 0; j < Cfg::E; ++j) Pack<To>::put(a + j * Pack<To>::words, r[j]);
  }
}

// A hot instruction (fused_gpu.hpp, GpuHotOp) of loop type T: the variable operand V (the
// accumulator, or the slot src0 loaded into it) and, for binary ops, the other operand O (slot or
// constant src1, on V's right or left), computed as exec computes them.
template <class F, class T>
NUMCU_FUSED_FN T apply_hot(T x, T y) {
  return convert<T>(F{}(convert<compute_t<T>>(x), convert<compute_t<T>>(y)));
}

template <class Cfg, class F, class T, bool kSlot, bool kLeft>
NUMCU_FUSED_FN void hot_binary(Acc& a, unsigned src1, char* smem, const GpuParams& p) {
  constexpr int K = Pack<T>::words;
  if constexpr (kSlot) {
    Acc o;
    load_slot<Cfg, sizeof(T)>(src1, o, smem);
#pragma unroll
    for (int j = 0; j < Cfg::E; ++j) {
      const T v = Pack<T>::get(a + j * K), w = Pack<T>::get(o + j * K);
      Pack<T>::put(a + j * K, kLeft ? apply_hot<F, T>(w, v) : apply_hot<F, T>(v, w));
    }
  } else {
    const T o = constant<T>(p, src1 & ~unsigned{kConstBit});
#pragma unroll
    for (int j = 0; j < Cfg::E; ++j) {
      const T v = Pack<T>::get(a + j * K);
      Pack<T>::put(a + j * K, kLeft ? apply_hot<F, T>(o, v) : apply_hot<F, T>(v, o));
    }
  }
}

template <class Cfg, class F, class T>
NUMCU_FUSED_FN void hot_unary(Acc& a) {
  constexpr int K = Pack<T>::words;
#pragma unroll
  for (int j = 0; j < Cfg::E; ++j) {
    Pack<T>::put(a + j * K, convert<T>(F{}(convert<compute_t<T>>(Pack<T>::get(a + j * K)))));
  }
}

template <class Cfg, class F, class T>
NUMCU_FUSED_FN void hot_variant(unsigned variant, Acc& a, unsigned src1, char* smem,
                                const GpuParams& p) {
  if (variant == 0) {
    hot_binary<Cfg, F, T, true, false>(a, src1, smem, p);
  } else if (variant == 1) {
    hot_binary<Cfg, F, T, false, false>(a, src1, smem, p);
  } else if (variant == 2) {
    hot_binary<Cfg, F, T, true, true>(a, src1, smem, p);
  } else {
    hot_binary<Cfg, F, T, false, true>(a, src1, smem, p);
  }
}

template <class Cfg, class T>
NUMCU_FUSED_FN void exec_hot_type(unsigned op, const Op& in, Acc& a, char* smem,
                                  const GpuParams& p) {
  if constexpr (Cfg::template has<T>) {
    using namespace ops;
    if (in.src0 != kAcc) load_words<Cfg, sizeof(T)>(in.src0, a, smem, p);
    if (op < kHotBinary) {
      // op = variant * 3 + (add, subtract, multiply)
      const unsigned variant = op >= 6 ? (op >= 9 ? 3u : 2u) : (op >= 3 ? 1u : 0u);
      const unsigned f = op - 3 * variant;
      if (f == 0) {
        hot_variant<Cfg, Add, T>(variant, a, in.src1, smem, p);
      } else if (f == 1) {
        hot_variant<Cfg, Subtract, T>(variant, a, in.src1, smem, p);
      } else {
        hot_variant<Cfg, Multiply, T>(variant, a, in.src1, smem, p);
      }
    } else if (op == kHotNegative) {
      hot_unary<Cfg, Negative, T>(a);
    } else if (op == kHotAbsolute) {
      hot_unary<Cfg, Absolute, T>(a);
    } else {
      hot_unary<Cfg, Sqrt, T>(a);
    }
    if (in.fetch & kStore) store_words<Cfg, sizeof(T)>(in.dst, a, smem);
  }
}

template <class Cfg>
NUMCU_FUSED_FN void exec_hot(const Op& in, Acc& a, char* smem, const GpuParams& p) {
  if (in.hot <= kHotOps) {
    exec_hot_type<Cfg, float>(in.hot - 1, in, a, smem, p);
  } else {
    exec_hot_type<Cfg, double>(in.hot - 1 - kHotOps, in, a, smem, p);
  }
}

#define NUMCU_FUSED_CASES(SLOT, F)                    \
  case gpu_code(SLOT, 0):                             \
    exec<Cfg, F, bool>(in, a, b, c, smem, p);         \
    break;                                            \
  case gpu_code(SLOT, 1):                             \
    exec<Cfg, F, std::int32_t>(in, a, b, c, smem, p); \
    break;                                            \
  case gpu_code(SLOT, 2):                             \
    exec<Cfg, F, std::int64_t>(in, a, b, c, smem, p); \
    break;                                            \
  case gpu_code(SLOT, 3):                             \
    exec<Cfg, F, float>(in, a, b, c, smem, p);        \
    break;                                            \
  case gpu_code(SLOT, 4):                             \
    exec<Cfg, F, double>(in, a, b, c, smem, p);       \
    break;                                            \
  case gpu_code(SLOT, 5):                             \
    exec<Cfg, F, complex64>(in, a, b, c, smem, p);    \
    break;                                            \
  case gpu_code(SLOT, 6):                             \
    exec<Cfg, F, complex128>(in, a, b, c, smem, p);   \
    break;
#define NUMCU_FUSED_UFUNC_CASES(e, F, group, cost, doc) \
  NUMCU_FUSED_CASES(static_cast<int>(Ufunc::e), F)
#define NUMCU_FUSED_EXTRA_CASES(e, F) NUMCU_FUSED_CASES(kFirstExtra + static_cast<int>(Extra::e), F)
#define NUMCU_FUSED_CAST_CASE(TO, To, FROM, From) \
  case gpu_code(kCastOp + (TO), FROM):            \
    exec_cast<Cfg, To, From>(a);                  \
    break;
#define NUMCU_FUSED_CAST_CASES(TO, To)           \
  NUMCU_FUSED_CAST_CASE(TO, To, 0, bool)         \
  NUMCU_FUSED_CAST_CASE(TO, To, 1, std::int32_t) \
  NUMCU_FUSED_CAST_CASE(TO, To, 2, std::int64_t) \
  NUMCU_FUSED_CAST_CASE(TO, To, 3, float)        \
  NUMCU_FUSED_CAST_CASE(TO, To, 4, double)       \
  NUMCU_FUSED_CAST_CASE(TO, To, 5, complex64)    \
  NUMCU_FUSED_CAST_CASE(TO, To, 6, complex128)

template <class Cfg>
NUMCU_FUSED_FN void interpret(const GpuParams& p, const GpuFrame& f, Acc& a, char* smem) {
  Acc b, c;
#pragma unroll
  for (int i = 0; i < kAccWords; ++i) b[i] = c[i] = 0;
  const uint2* code = reinterpret_cast<const uint2*>(f.code);
  // Each instruction's word is read an instruction ahead, so that its load is not waited for
  // (the last one reads a word it does not use).
  static_assert((kMaxGpuInstructions & (kMaxGpuInstructions - 1)) == 0);
  uint2 next = code[0];
#pragma unroll 1
  for (int pc = 0; pc < p.ninstr; ++pc) {
    const Op in = Op::decode(next);
    next = code[(pc + 1) & (kMaxGpuInstructions - 1)];
    if (in.hot != kNotHot) {
      exec_hot<Cfg>(in, a, smem, p);
      continue;
    }
    const unsigned fetch = in.fetch, sizes = in.sizes;
    if (fetch & 0x3cu) {
      // Operands 1 and 2: copies of A first, as loading A overwrites it.
      if (((fetch >> 2) & 3u) == kFromAcc) {
#pragma unroll
        for (int i = 0; i < kAccWords; ++i) b[i] = a[i];
      }
      if (((fetch >> 4) & 3u) == kFromAcc) {
#pragma unroll
        for (int i = 0; i < kAccWords; ++i) c[i] = a[i];
      }
      if (((fetch >> 2) & 3u) == kLoad) load_sized<Cfg>((sizes >> 2) & 3u, in.src1, b, smem, p);
      if (((fetch >> 4) & 3u) == kLoad) load_sized<Cfg>((sizes >> 4) & 3u, in.src2, c, smem, p);
    }
    if ((fetch & 3u) == kLoad) load_sized<Cfg>(sizes & 3u, in.src0, a, smem, p);
    switch (in.code) {
      NUMCU_UFUNCS(NUMCU_FUSED_UFUNC_CASES)
      NUMCU_FUSED_EXTRAS(NUMCU_FUSED_EXTRA_CASES)
      NUMCU_FUSED_CAST_CASES(0, bool)
      NUMCU_FUSED_CAST_CASES(1, std::int32_t)
      NUMCU_FUSED_CAST_CASES(2, std::int64_t)
      NUMCU_FUSED_CAST_CASES(3, float)
      NUMCU_FUSED_CAST_CASES(4, double)
      NUMCU_FUSED_CAST_CASES(5, complex64)
      NUMCU_FUSED_CAST_CASES(6, complex128)
      default:
        break;
    }
    if (fetch & kStore) store_sized<Cfg>(sizes >> 6, in.dst, a, smem);
  }
}

#undef NUMCU_FUSED_CASES
#undef NUMCU_FUSED_UFUNC_CASES
#undef NUMCU_FUSED_EXTRA_CASES
#undef NUMCU_FUSED_CAST_CASE
#undef NUMCU_FUSED_CAST_CASES

// ---------------------------------------------------------------------------------------------
// Loads and stores

// An element of S bytes, copied as such (16 bytes as two 8-byte halves: complex128 elements of
// host-made arrays may be 8-byte aligned only).
template <int S>
struct Bytes;
template <>
struct Bytes<1> {
  std::uint8_t v;
};
template <>
struct Bytes<2> {
  std::uint16_t v;
};
template <>
struct Bytes<4> {
  std::uint32_t v;
};
template <>
struct Bytes<8> {
  std::uint64_t v;
};
template <>
struct Bytes<16> {
  std::uint64_t lo, hi;
};

// The byte offset of element `index` (C order of p.shape) along `strides`, divided down the
// dimensions in 32-bit arithmetic where every index fits.
template <class Index>
NUMCU_FUSED_FN std::int64_t offset_by(const GpuParams& p, const std::int64_t* strides,
                                      std::int64_t index) {
  Index rem = static_cast<Index>(index);
  std::int64_t off = 0;
#pragma unroll 1
  for (int d = p.ndim - 1; d >= 0; --d) {
    const Index extent = static_cast<Index>(p.shape[d]);
    const Index q = rem / extent;
    off += static_cast<std::int64_t>(rem - q * extent) * strides[d];
    rem = q;
  }
  return off;
}

static NUMCU_FUSED_NOINLINE std::int64_t offset_of(const GpuParams& p, const std::int64_t* strides,
                                                   std::int64_t index) {
  if (p.n <= 0xffffffffLL) return offset_by<std::uint32_t>(p, strides, index);
  return offset_by<std::uint64_t>(p, strides, index);
}

NUMCU_FUSED_FN void copy16_async(char* dst, const char* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
#else
  *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
#endif
}

NUMCU_FUSED_FN void wait_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Element copies of input k's tile, loads before stores: all of the thread's at once where the
// input is dense, four at a time where each offset is worked out from the strides (a call that
// keeps its registers to itself).
template <class Cfg, int S>
NUMCU_FUSED_FN void stage_elements(const GpuParams& p, int k, char* dst, std::int64_t start,
                                   int valid) {
  using U = Bytes<S>;
  const char* src = p.in_data[k];
  const int t = static_cast<int>(thread_index());
  if (p.in_mode[k] != kStrided) {
    // (Values given to every element, so that none is taken to live on from an earlier tile.)
    U v[Cfg::E] = {};
#pragma unroll
    for (int j = 0; j < Cfg::E; ++j) {
      const int e = j * Cfg::B + t;
      if (e < valid) v[j] = reinterpret_cast<const U*>(src)[start + e];
    }
#pragma unroll
    for (int j = 0; j < Cfg::E; ++j) {
      const int e = j * Cfg::B + t;
      if (e < valid) reinterpret_cast<U*>(dst)[e] = v[j];
    }
    return;
  }
  constexpr int G = Cfg::E < 4 ? Cfg::E : 4;
#pragma unroll 1
  for (int j0 = 0; j0 < Cfg::E; j0 += G) {
    std::int64_t off[G];
#pragma unroll
    for (int j = 0; j < G; ++j) {
      const int e = (j0 + j) * Cfg::B + t;
      off[j] = e < valid ? offset_of(p, p.in_strides[k], start + e) : 0;
    }
    U v[G] = {};
#pragma unroll
    for (int j = 0; j < G; ++j) {
      if ((j0 + j) * Cfg::B + t < valid) v[j] = *reinterpret_cast<const U*>(src + off[j]);
    }
#pragma unroll
    for (int j = 0; j < G; ++j) {
      const int e = (j0 + j) * Cfg::B + t;
      if (e < valid) reinterpret_cast<U*>(dst)[e] = v[j];
    }
  }
}

// Starts the copies of a tile's inputs into frame f's slots (those of 16 bytes are asynchronous:
// wait_async_copies waits for them).
template <class Cfg>
NUMCU_FUSED_FN void stage_inputs(const GpuParams& p, const GpuFrame& f, char* smem,
                                 std::int64_t start, int valid) {
  const int t = static_cast<int>(thread_index());
#pragma unroll 1
  for (int k = 0; k < p.ninputs; ++k) {
    char* dst = smem + f.in_slot[k] * kSlotBytes;
    const int size = p.in_size[k];
    if (p.in_mode[k] == kDense16) {
      const char* src = p.in_data[k] + start * size;
      const int chunks = (valid * size) >> 4;
      // A tile of an input is at most kSlotBytes: kSlotBytes / 16 / B = 4 chunks a thread.
#pragma unroll
      for (int i = 0; i < kSlotBytes / 16 / Cfg::B; ++i) {
        const int c = t + i * Cfg::B;
        if (c < chunks) copy16_async(dst + c * 16, src + c * 16);
      }
      // The last tile's few elements past the last whole chunk.
      for (int e = ((chunks << 4) / size) + t; e < valid; e += Cfg::B) {
        for (int b = 0; b < size; ++b) dst[e * size + b] = src[e * size + b];
      }
      continue;
    }
    // Inputs are of the class's dtypes: 1, 4, and up to W bytes.
    if (size == 1) {
      stage_elements<Cfg, 1>(p, k, dst, start, valid);
    } else if (size == 4 || Cfg::W == 4) {
      stage_elements<Cfg, 4>(p, k, dst, start, valid);
    } else if (size == 8 || Cfg::W == 8) {
      stage_elements<Cfg, (Cfg::W >= 8 ? 8 : 4)>(p, k, dst, start, valid);
    } else {
      stage_elements<Cfg, Cfg::W>(p, k, dst, start, valid);
    }
  }
}

// Element j of the thread's values of S bytes in registers (Pack's layout), as S bytes.
template <int S>
NUMCU_FUSED_FN Bytes<S> acc_bytes(const Acc& acc, int j) {
  Bytes<S> b;
  if constexpr (S == 1) {
    b.v = static_cast<std::uint8_t>(acc[j]);
  } else if constexpr (S == 2) {
    b.v = static_cast<std::uint16_t>(acc[j]);
  } else if constexpr (S == 4) {
    b.v = acc[j];
  } else if constexpr (S == 8) {
    b.v = (static_cast<std::uint64_t>(acc[2 * j + 1]) << 32) | acc[2 * j];
  } else {
    b.lo = (static_cast<std::uint64_t>(acc[4 * j + 1]) << 32) | acc[4 * j];
    b.hi = (static_cast<std::uint64_t>(acc[4 * j + 3]) << 32) | acc[4 * j + 2];
  }
  return b;
}

template <class Cfg, int S>
NUMCU_FUSED_FN void store_output(const GpuParams& p, const GpuFrame& f, const Acc& acc, char* smem,
                                 std::int64_t start, int valid) {
  Acc w;
  if (f.out_src == kAcc) {
#pragma unroll
    for (int i = 0; i < kAccWords; ++i) w[i] = acc[i];
  } else {
    load_slot<Cfg, S>(static_cast<unsigned>(f.out_src), w, smem);
  }
  if (p.out_dense && valid == Cfg::kTile &&
      reinterpret_cast<std::uintptr_t>(p.out) % (S * Cfg::V) == 0) {
    // A whole tile of a dense output: a group a store, from one base address, no bounds.
    using X = GroupOf<Cfg, S>;
    X* o = reinterpret_cast<X*>(p.out + start * S) + thread_index();
#pragma unroll
    for (int g = 0; g < Cfg::kGroups; ++g) o[g * Cfg::B] = pack_group<Cfg, S>(w, g);
    return;
  }
#pragma unroll
  for (int j = 0; j < Cfg::E; ++j) {
    const int e = static_cast<int>(thread_index()) * Cfg::V + Cfg::at(j);
    if (e < valid) {
      const std::int64_t off = p.out_dense ? (start + e) * static_cast<std::int64_t>(S)
                                           : offset_of(p, p.out_strides, start + e);
      *reinterpret_cast<Bytes<S>*>(p.out + off) = acc_bytes<S>(w, j);
    }
  }
}

template <class Cfg>
NUMCU_FUSED_FN void store_any(const GpuParams& p, const GpuFrame& f, const Acc& acc, char* smem,
                              std::int64_t start, int valid) {
  if (p.out_size == 1) {
    store_output<Cfg, 1>(p, f, acc, smem, start, valid);
  } else if (p.out_size == 4 || Cfg::W == 4) {
    store_output<Cfg, 4>(p, f, acc, smem, start, valid);
  } else if (p.out_size == 8 || Cfg::W == 8) {
    store_output<Cfg, (Cfg::W >= 8 ? 8 : 4)>(p, f, acc, smem, start, valid);
  } else {
    store_output<Cfg, Cfg::W>(p, f, acc, smem, start, valid);
  }
}

template <class Cfg>
NUMCU_FUSED_FN int tile_elements(const GpuParams& p, std::int64_t start) {
  const std::int64_t left = p.n - start;
  return left < Cfg::kTile ? static_cast<int>(left) : Cfg::kTile;
}

template <class Cfg>
__device__ __forceinline__ void run_tiles(const GpuParams& p, char* smem) {
  Acc acc;
#pragma unroll
  for (int i = 0; i < kAccWords; ++i) acc[i] = 0;
  // One loop for both ways (one copy of the interpreter in the kernel). Prefetching: the first
  // tile's inputs are staged before the loop and each next tile's, into the other frame's slots,
  // while the tile before runs; that frame's last tile is done with them, as every thread has
  // passed the barrier since. Without: each tile stages its own inputs, after a barrier that
  // keeps them from overwriting slots other threads still read.
  const bool prefetch = p.prefetch != 0;
  const std::int64_t step = gridDim.x * std::int64_t{Cfg::kTile};
  std::int64_t start = blockIdx.x * std::int64_t{Cfg::kTile};
  if (prefetch && start < p.n) {
    stage_inputs<Cfg>(p, p.frame[0], smem, start, tile_elements<Cfg>(p, start));
  }
#pragma unroll 1
  for (int which = 0; start < p.n; start += step, which ^= prefetch ? 1 : 0) {
    const GpuFrame& f = p.frame[which];
    const int valid = tile_elements<Cfg>(p, start);
    if (!prefetch) stage_inputs<Cfg>(p, f, smem, start, valid);
    wait_async_copies();
    __syncthreads();
    const std::int64_t next = start + step;
    if (prefetch && next < p.n) {
      stage_inputs<Cfg>(p, p.frame[which ^ 1], smem, next, tile_elements<Cfg>(p, next));
    }
    interpret<Cfg>(p, f, acc, smem);
    store_any<Cfg>(p, f, acc, smem, start, valid);
    if (!prefetch) __syncthreads();
  }
}

template <GpuClass C>
__global__ void __launch_bounds__(kGpuBlock, gpu_min_blocks(C))
    fused_kernel(const NUMCU_GRID_CONSTANT GpuParams p) {
  extern __shared__ __align__(16) char smem[];
  run_tiles<Config<C>>(p, smem);
}

// What launches of fused_kernel<C> ask of a device, found once: its multiprocessors, and the
// blocks a multiprocessor holds at once with s slots of shared memory a block (0 where a block
// cannot have so much; -1 until asked). Found first, the kernel is let take as much shared memory
// as the device allows (past the default 48 KiB, a kernel has to say so); the setting is only ever
// raised to that one value: lowered, it could fail a launch of another thread's larger program.
struct KernelFacts {
  bool allowed = false;
  int sms = 1;
  int blocks[2 * kMaxSlots + 1];
  KernelFacts() { std::fill(std::begin(blocks), std::end(blocks), -1); }
};

// The facts of fused_kernel<C> on the current device `device`, as `slots` (and `slots_with`, if
// not 0) slots a block would need: the blocks a multiprocessor holds with each.
template <GpuClass C>
KernelFacts kernel_facts(int device, int slots, int slots_with) {
  static std::mutex mutex;
  static std::vector<KernelFacts> known;
  std::lock_guard<std::mutex> lock(mutex);
  if (device >= static_cast<int>(known.size())) known.resize(device + 1);
  KernelFacts& f = known[device];
  if (!f.allowed) {
    NUMCU_CUDA_TRY(
        cudaFuncSetAttribute(fused_kernel<C>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             gpu_max_shared_memory(device)),
        "cudaFuncSetAttribute (fused kernel)");
    NUMCU_CUDA_TRY(cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, device),
                   "cudaDeviceGetAttribute");
    f.allowed = true;
  }
  for (const int s : {slots, slots_with}) {
    if (s <= 0 || f.blocks[s] >= 0) continue;
    int blocks = 0;
    if (s * kSlotBytes <= gpu_max_shared_memory(device)) {
      NUMCU_CUDA_TRY(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fused_kernel<C>, kGpuBlock,
                                                        static_cast<std::size_t>(s) * kSlotBytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor (fused kernel)");
    }
    f.blocks[s] = blocks;
  }
  return f;
}

template <GpuClass C>
void launch(GpuParams& p, std::int64_t tiles, int slots, Stream stream) {
  int smem = slots * kSlotBytes;
  std::int64_t grid = tiles;
  if (tiles >= kPrefetchTiles || smem > 48 * 1024) {
    int device = 0;
    NUMCU_CUDA_TRY(cudaGetDevice(&device), "cudaGetDevice");
    const bool consider = tiles >= kPrefetchTiles;
    const int with_slots = slots + p.ninputs;
    const KernelFacts f = kernel_facts<C>(device, slots, consider ? with_slots : 0);
    if (consider && gpu_prefetch_pays(p, f.blocks[slots], f.blocks[with_slots])) {
      add_second_frame(p, slots);
      p.prefetch = 1;
      smem = with_slots * kSlotBytes;
      grid = std::min<std::int64_t>(tiles, static_cast<std::int64_t>(f.blocks[with_slots]) * f.sms);
    }
  }
  fused_kernel<C><<<static_cast<unsigned>(std::min<std::int64_t>(grid, 0x7fffffff)), kGpuBlock,
                    static_cast<std::size_t>(smem), static_cast<cudaStream_t>(stream)>>>(p);
  NUMCU_CUDA_TRY(cudaGetLastError(), "fused kernel launch");
}

}  // namespace numcu::fused::gpu
