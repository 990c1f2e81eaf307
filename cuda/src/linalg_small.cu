// numcu.linalg's and numcu.fft's own kernels (numcu/linalg.hpp): LU of small matrices in
// registers, determinants from LU factors, and the small helpers around the vendor libraries.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "numcu/cuda_check.hpp"
#include "numcu/linalg.hpp"
#include "numcu/ops.hpp"
#include "numcu/types.hpp"

namespace numcu::linalg {
namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kBlock = 256;

unsigned grid_for(std::int64_t n, int block = kBlock) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + block - 1) / block, 1, 1 << 20));
}

using ops::real_t;

// Arithmetic written out on the parts: libcu++'s complex operators recover infinities and NaNs
// as C99's Annex G asks, which costs branches in the innermost loops and changes no finite
// result.
template <class T>
__device__ __forceinline__ T mul(T a, T b) {
  return a * b;
}
template <class R>
__device__ __forceinline__ complex<R> mul(complex<R> a, complex<R> b) {
  return complex<R>(a.real() * b.real() - a.imag() * b.imag(),
                    a.real() * b.imag() + a.imag() * b.real());
}
// c - a * b
template <class T>
__device__ __forceinline__ T mulsub(T c, T a, T b) {
  return c - a * b;
}
template <class R>
__device__ __forceinline__ complex<R> mulsub(complex<R> c, complex<R> a, complex<R> b) {
  return complex<R>(c.real() - (a.real() * b.real() - a.imag() * b.imag()),
                    c.imag() - (a.real() * b.imag() + a.imag() * b.real()));
}
template <class T>
__device__ __forceinline__ T recip(T a) {
  return T(1) / a;
}
template <class R>
__device__ __forceinline__ complex<R> recip(complex<R> a) {
  // Scaled by the larger part, so that neither |a|^2 nor its parts overflow or underflow first.
  const R s = fmax(fabs(a.real()), fabs(a.imag()));
  const R re = a.real() / s, im = a.imag() / s;
  const R d = s * (re * re + im * im);
  return complex<R>(re / d, -im / d);
}
// LAPACK's pivot measure: |re| + |im|.
template <class T>
__device__ __forceinline__ T abs1(T a) {
  return fabs(a);
}
template <class R>
__device__ __forceinline__ R abs1(complex<R> a) {
  return fabs(a.real()) + fabs(a.imag());
}
template <class T>
__device__ __forceinline__ T absolute(T a) {
  return fabs(a);
}
template <class R>
__device__ __forceinline__ R absolute(complex<R> a) {
  return hypot(a.real(), a.imag());
}
template <class T>
__device__ __forceinline__ bool is_zero(T a) {
  return a == T(0);
}
template <class R>
__device__ __forceinline__ bool is_zero(complex<R> a) {
  return a.real() == R(0) && a.imag() == R(0);
}
// a / |a| (a != 0): the sign of a real number, the phase of a complex one.
template <class T>
__device__ __forceinline__ T unit(T a) {
  return a < T(0) ? T(-1) : T(1);
}
template <class R>
__device__ __forceinline__ complex<R> unit(complex<R> a) {
  const R m = hypot(a.real(), a.imag());
  return complex<R>(a.real() / m, a.imag() / m);
}

template <class T>
__device__ __forceinline__ T shfl(T v, int src, int width) {
  return __shfl_sync(kFull, v, src, width);
}
template <class R>
__device__ __forceinline__ complex<R> shfl(complex<R> v, int src, int width) {
  return complex<R>(__shfl_sync(kFull, v.real(), src, width),
                    __shfl_sync(kFull, v.imag(), src, width));
}
template <class T>
__device__ __forceinline__ T shfl_xor(T v, int mask, int width) {
  return __shfl_xor_sync(kFull, v, mask, width);
}
template <class R>
__device__ __forceinline__ complex<R> shfl_xor(complex<R> v, int mask, int width) {
  return complex<R>(__shfl_xor_sync(kFull, v.real(), mask, width),
                    __shfl_xor_sync(kFull, v.imag(), mask, width));
}

// The sign (or phase) of det A from the product of the diagonal's and the permutation's parity:
// a singular matrix's is +0, as NumPy's (the product of a zero and signs -1 may be -0).
template <class T>
__device__ __forceinline__ T det_phase(T product, bool odd) {
  return is_zero(product) ? T(0) : odd ? T(0) - product : product;
}

// det A = (-1)^odd * prod U_kk, as sign (or phase) and log|det|, NumPy's way: `d` is this lane's
// diagonal element (1 past the order), the product is taken over W lanes, and where `write`
// (one lane of the group) the result goes to matrix `mat`'s slot(s). A zero on the diagonal
// gives sign +0 and log|det| = -inf, as NumPy's slogdet does for a singular matrix.
template <int W, class T>
__device__ __forceinline__ void write_det(const SmallLu& p, std::int64_t mat, T d, bool odd,
                                          bool write) {
  using R = real_t<T>;
  const bool z = is_zero(d);
  R logabs = z ? -INFINITY : log(absolute(d));
  T phase = z ? T(0) : unit(d);
#pragma unroll
  for (int off = W / 2; off > 0; off /= 2) {
    logabs += __shfl_xor_sync(kFull, logabs, off, W);
    phase = mul(phase, shfl_xor(phase, off, W));
  }
  phase = det_phase(phase, odd);
  if (write) {
    if (p.mode == SmallLuMode::slogdet) {
      reinterpret_cast<T*>(p.out0)[mat] = phase;
      reinterpret_cast<R*>(p.out1)[mat] = logabs;
    } else {
      reinterpret_cast<T*>(p.out0)[mat] = mul(phase, T(exp(logabs)));
    }
  }
}

// v[k] for a k known only at run time, without indexing the array: a dynamic index would put the
// array in local memory, where a chain of selects keeps it in registers.
template <class T, int W>
__device__ __forceinline__ T get(const T (&v)[W], int k) {
  T r = v[0];
#pragma unroll
  for (int i = 1; i < W; ++i) {
    if (i == k) r = v[i];
  }
  return r;
}
template <class T, int W>
__device__ __forceinline__ void put(T (&v)[W], int k, T x) {
#pragma unroll
  for (int i = 0; i < W; ++i) {
    if (i == k) v[i] = x;
  }
}

// One group of W lanes per matrix (32 / W matrices a warp), lane l holding column l of A and of
// B (or of the identity, for the inverse) in registers: Gaussian elimination with partial
// pivoting applies each row operation to both, then back substitution leaves X = A^-1 B in B's
// registers. n <= W is the same for the whole launch, so the groups of a warp take the same
// branches and the shuffles see every lane. The loops over rows are unrolled (constant register
// indices); those over the elimination's steps are unrolled for W <= 8 only, which keeps the
// code, and its compile time, linear in W.
template <class T, int W>
__global__ void __launch_bounds__(128) small_lu_kernel(const SmallLu p) {
  using R = real_t<T>;
  constexpr int G = 32 / W;
  constexpr int kSteps = W <= 8 ? W : 1;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const int l = lane % W;
  const int g = lane / W;
  const int n = p.n;
  const int cols = p.mode == SmallLuMode::inverse ? n : p.nrhs;
  const bool solves = p.mode == SmallLuMode::solve || p.mode == SmallLuMode::inverse;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::int64_t w = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
       w * G < p.batch; w += warps) {
    const std::int64_t mat = w * G + g;
    const bool active = mat < p.batch;
    const T* A = reinterpret_cast<const T*>(p.a) + (active ? mat * p.a_batch : 0);
    const T* B = reinterpret_cast<const T*>(p.b) + (active ? mat * p.b_batch : 0);
    T a[W], b[W];
#pragma unroll
    for (int i = 0; i < W; ++i) {
      a[i] = active && i < n && l < n ? A[i * p.a_row + l * p.a_col] : T(0);
      if (p.mode == SmallLuMode::solve) {
        b[i] = active && i < n && l < cols ? B[i * p.b_row + l * p.b_col] : T(0);
      } else {
        b[i] = p.mode == SmallLuMode::inverse && i == l && l < n ? T(1) : T(0);
      }
    }
    int swaps = 0;
    bool singular = false;
#pragma unroll kSteps
    for (int k = 0; k < n; ++k) {
      // Lane k holds column k: it finds the pivot row (the first of the largest), which every
      // lane then swaps with row k.
      int piv = k;
      R best = -1;
#pragma unroll
      for (int i = 0; i < W; ++i) {
        if (i >= k && i < n && abs1(a[i]) > best) {
          best = abs1(a[i]);
          piv = i;
        }
      }
      piv = __shfl_sync(kFull, piv, k, W);
      if (piv != k) {
        ++swaps;
        const T ak = get(a, k), bk = get(b, k);
        put(a, k, get(a, piv));
        put(a, piv, ak);
        put(b, k, get(b, piv));
        put(b, piv, bk);
      }
      const T ak = get(a, k), bk = get(b, k);
      const T pivot = shfl(ak, k, W);
      const bool zero = is_zero(pivot);
      singular |= zero;
      // A zero pivot (a singular matrix, reported) leaves the rows below as they are.
      const T r = zero ? T(0) : recip(pivot);
#pragma unroll
      for (int i = 0; i < W; ++i) {
        if (i > k && i < n) {
          const T m = mul(shfl(a[i], k, W), r);
          a[i] = mulsub(a[i], m, ak);
          if (solves) b[i] = mulsub(b[i], m, bk);
        }
      }
    }
    if (solves) {
#pragma unroll kSteps
      for (int k = n - 1; k >= 0; --k) {
        const T d = shfl(get(a, k), k, W);
        const T x = mul(get(b, k), is_zero(d) ? T(0) : recip(d));
        put(b, k, x);
#pragma unroll
        for (int i = 0; i < W; ++i) {
          if (i < k) b[i] = mulsub(b[i], shfl(a[i], k, W), x);
        }
      }
      if (active && l < cols) {
        T* X = reinterpret_cast<T*>(p.out0) + mat * n * cols;
#pragma unroll
        for (int i = 0; i < W; ++i) {
          if (i < n) X[i * cols + l] = b[i];
        }
      }
      if (active && singular && l == 0) atomicMax(p.info, 1);
    } else {
      write_det<W>(p, mat, l < n ? get(a, l) : T(1), (swaps & 1) != 0, active && l == 0);
    }
  }
}

template <class T, int W>
void launch_small_lu(const SmallLu& p, Stream stream) {
  constexpr int kThreads = 128;
  constexpr int kPerBlock = kThreads / W;
  small_lu_kernel<T, W>
      <<<grid_for(p.batch, kPerBlock), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(p);
  NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: small LU launch");
}

// Order 17 to 32, real dtypes: one warp a matrix, lane i holding ROW i of A and of B (of the
// identity, for the inverse) in registers, where small_lu_kernel holds columns. A step's pivot
// is the warp's largest |a| in the step's column among the rows not yet pivots (the lowest lane
// on a tie; NaN counts as the largest, so that it spreads as LAPACK's would), found with one
// reduction instruction (two for float64; sm_80 on) and a ballot. Its row swap costs nothing: the
// pivot row stays in its lane, which records the step (`mine`), and the rows not yet pivots
// (`rest`, a bit a lane) are eliminated against it. The pivot lane writes its row to shared
// memory in 16-byte stores and every lane reads it back in 16-byte broadcasts, after one
// __syncwarp (float32: 8 + 8 instructions a step where a shuffle an element took 31), and the
// written rows are U for the back substitution. Each step shifts every row's registers one
// place left, so the step's column is always a[0] and every register index is a constant while
// the steps stay a loop (unrolled, they took ptxas a minute an architecture); the registers past
// a row's end are left to hold what they hold, unread.
// C is the number of B's columns held (1, or 32 for more and for the inverse). A dense matrix
// is read through shared memory, the warp's loads coalesced; X is written the same way.
// The row permutation's sign, for det and slogdet, counts its inversions: at each step, the rows
// not yet pivots in lanes below the pivot's. Complex dtypes stop at 16 (linalg::small_lu_max).
constexpr int kRow = 36;  // a shared row's stride: 16-byte aligned, and a column's reads spread

template <class T, int N>
__device__ __forceinline__ void store_row(T* dst, const T (&v)[N]) {
  if constexpr (std::is_same_v<T, float> && N % 4 == 0) {
#pragma unroll
    for (int i = 0; i < N; i += 4) {
      *reinterpret_cast<float4*>(dst + i) = make_float4(v[i], v[i + 1], v[i + 2], v[i + 3]);
    }
  } else if constexpr (std::is_same_v<T, double> && N % 2 == 0) {
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      *reinterpret_cast<double2*>(dst + i) = make_double2(v[i], v[i + 1]);
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) dst[i] = v[i];
  }
}
template <class T, int N>
__device__ __forceinline__ void load_row(const T* src, T (&v)[N]) {
  if constexpr (std::is_same_v<T, float> && N % 4 == 0) {
#pragma unroll
    for (int i = 0; i < N; i += 4) {
      const float4 q = *reinterpret_cast<const float4*>(src + i);
      v[i] = q.x;
      v[i + 1] = q.y;
      v[i + 2] = q.z;
      v[i + 3] = q.w;
    }
  } else if constexpr (std::is_same_v<T, double> && N % 2 == 0) {
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      const double2 q = *reinterpret_cast<const double2*>(src + i);
      v[i] = q.x;
      v[i + 1] = q.y;
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = src[i];
  }
}

__device__ __forceinline__ unsigned warp_max(unsigned v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(kFull, v);
#else
#pragma unroll
  for (int off = 16; off > 0; off /= 2) v = max(v, __shfl_xor_sync(kFull, v, off));
  return v;
#endif
}
// The lowest lane holding the warp's largest key (a float's or a double's bits + 1, which order
// as the non-negative numbers do).
__device__ __forceinline__ int lowest_argmax(unsigned key) {
  return __ffs(__ballot_sync(kFull, key == warp_max(key))) - 1;
}
__device__ __forceinline__ int lowest_argmax(unsigned long long key) {
  const unsigned hi = static_cast<unsigned>(key >> 32), lo = static_cast<unsigned>(key);
  const bool top = hi == warp_max(hi);
  const unsigned lo_top = warp_max(top ? lo : 0u);
  return __ffs(__ballot_sync(kFull, top && lo == lo_top)) - 1;
}
__device__ __forceinline__ unsigned pivot_key(float mag) { return __float_as_uint(mag) + 1u; }
__device__ __forceinline__ unsigned long long pivot_key(double mag) {
  return static_cast<unsigned long long>(__double_as_longlong(mag)) + 1ull;
}

// Lane l of the warp walks a dense block of `count` elements, `cols` a row, l + 32 q at a time:
// f(e, row, col) for each.
template <class F>
__device__ __forceinline__ void dense_walk(int lane, int count, int cols, F f) {
  int row = lane / cols, col = lane % cols;
  const int drow = 32 / cols, dcol = 32 % cols;
  for (int e = lane; e < count; e += 32) {
    f(e, row, col);
    row += drow;
    col += dcol;
    if (col >= cols) {
      col -= cols;
      ++row;
    }
  }
}

template <class T, int C>
__global__ void __launch_bounds__(128) lu32_kernel(const SmallLu p) {
  using R = real_t<T>;
  constexpr int W = 32;
  constexpr int kWarps = 4;  // 128 threads
  // A warp's rows: A staged for the registers, then U (rows[k][j] = U(k, k + j)), then X staged
  // for the global memory. And the pivot's B row, one buffer for even steps and one for odd.
  __shared__ __align__(16) T rows_of[kWarps][W][kRow];
  __shared__ __align__(16) T brows_of[kWarps][2][C];
  const int lane = static_cast<int>(threadIdx.x & 31);
  T(*rows)[kRow] = rows_of[threadIdx.x >> 5];
  T(*brows)[C] = brows_of[threadIdx.x >> 5];
  const int n = p.n;
  const int cols = p.mode == SmallLuMode::inverse ? n : p.nrhs;
  const bool solves = p.mode == SmallLuMode::solve || p.mode == SmallLuMode::inverse;
  const bool dense = p.a_col == 1 && p.a_row == n;
  const bool row = lane < n;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::int64_t mat = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
       mat < p.batch; mat += warps) {
    const T* A = reinterpret_cast<const T*>(p.a) + mat * p.a_batch;
    const T* B = reinterpret_cast<const T*>(p.b) + mat * p.b_batch;
    T a[W], b[C];
    if (dense) {
      dense_walk(lane, n * n, n, [&](int e, int i, int j) { rows[i][j] = A[e]; });
      __syncwarp();
      load_row(rows[lane], a);
#pragma unroll
      for (int j = 0; j < W; ++j) a[j] = row && j < n ? a[j] : T(0);
      __syncwarp();  // the steps overwrite the rows
    } else {
#pragma unroll
      for (int j = 0; j < W; ++j) a[j] = row && j < n ? A[lane * p.a_row + j * p.a_col] : T(0);
    }
#pragma unroll
    for (int c = 0; c < C; ++c) {
      if (p.mode == SmallLuMode::solve) {
        b[c] = row && c < cols ? B[lane * p.b_row + c * p.b_col] : T(0);
      } else {
        b[c] = p.mode == SmallLuMode::inverse && c == lane && row ? T(1) : T(0);
      }
    }
    unsigned rest = n == W ? kFull : (1u << n) - 1u;
    int mine = W;  // the step at which this lane's row became the pivot row
    T diag = T(1);
    int inversions = 0;
    bool singular = false;
    for (int k = 0; k < n; ++k) {
      const R mag = abs1(a[0]);
      const int piv = lowest_argmax((rest >> lane) & 1u ? pivot_key(mag != mag ? R(INFINITY) : mag)
                                                        : decltype(pivot_key(mag))(0));
      inversions += __popc(rest & ((1u << piv) - 1u));
      rest &= ~(1u << piv);
      if (lane == piv) {
        mine = k;
        diag = a[0];
        store_row(rows[k], a);
        if (solves) store_row(brows[k & 1], b);
      }
      __syncwarp();
      const T pivot = rows[k][0];
      const bool zero = is_zero(pivot);
      singular |= zero;
      if (!zero) {
        // Rows already pivots, and the lanes past n, take m = 0: their registers are no longer
        // read, but B's rows are, so B's update is a select.
        const bool elim = (rest >> lane) & 1u;
        const T m = elim ? mul(a[0], recip(pivot)) : T(0);
        T u[W];
        load_row(rows[k], u);
#pragma unroll
        for (int j = 1; j < W; ++j) a[j - 1] = mulsub(a[j], m, u[j]);
        if (solves) {
          T v[C];
          load_row(brows[k & 1], v);
#pragma unroll
          for (int c = 0; c < C; ++c) b[c] = elim ? mulsub(b[c], m, v[c]) : b[c];
        }
      } else {
        // A zero pivot (a singular matrix, reported) leaves the other rows as they are.
#pragma unroll
        for (int j = 1; j < W; ++j) a[j - 1] = a[j];
      }
    }
    __syncwarp();
    if (solves) {
      const T r = is_zero(diag) ? T(0) : recip(diag);
      for (int k = n - 1; k >= 0; --k) {
        if (mine == k) {
#pragma unroll
          for (int c = 0; c < C; ++c) b[c] = mul(b[c], r);
          store_row(brows[k & 1], b);
        }
        __syncwarp();
        if (mine < k) {
          const T ukk = rows[mine][k - mine];  // U(mine, k)
          T x[C];
          load_row(brows[k & 1], x);
#pragma unroll
          for (int c = 0; c < C; ++c) b[c] = mulsub(b[c], ukk, x[c]);
        }
      }
      T* X = reinterpret_cast<T*>(p.out0) + mat * n * cols;
      if constexpr (C == 1) {
        if (row && mine < n) X[mine] = b[0];
      } else {
        __syncwarp();  // the rows' last reads before they take X
        if (row && mine < n) store_row(rows[mine], b);
        __syncwarp();
        dense_walk(lane, n * cols, cols, [&](int e, int i, int j) { X[e] = rows[i][j]; });
      }
      if (singular && lane == 0) atomicMax(p.info, 1);
    } else {
      write_det<32>(p, mat, diag, (inversions & 1) != 0, lane == 0);
    }
    __syncwarp();  // the next matrix overwrites the rows
  }
}

template <class T, int C>
void launch_lu32(const SmallLu& p, Stream stream) {
  constexpr int kThreads = 128;
  lu32_kernel<T, C>
      <<<grid_for(p.batch, kThreads / 32), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(p);
  NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: small LU launch");
}

template <class T>
void small_lu_width(const SmallLu& p, Stream stream) {
  const int need = std::max(p.n, p.mode == SmallLuMode::solve ? p.nrhs : 0);
  if (need <= 4) return launch_small_lu<T, 4>(p, stream);
  if (need <= 8) return launch_small_lu<T, 8>(p, stream);
  if (need <= 16) return launch_small_lu<T, 16>(p, stream);
  if constexpr (small_lu_max(dtype_of_v<T>) == 32) {
    if (need <= 32) {
      const bool one = p.mode != SmallLuMode::inverse && p.nrhs <= 1;
      return one ? launch_lu32<T, 1>(p, stream) : launch_lu32<T, 32>(p, stream);
    }
  }
  throw_value_error("numcu.linalg: order " + std::to_string(need) + " is over small_lu's largest");
}

// One block per matrix: each thread takes every blockDim-th diagonal element and pivot, then the
// block combines (log|d| added, phases multiplied, swaps counted).
template <class T, class P>
__global__ void lu_det_kernel(const LuDet p) {
  using R = real_t<T>;
  __shared__ R logs[kBlock];
  // Raw storage: libcu++'s complex has a constructor, which __shared__ variables may not run.
  __shared__ __align__(16) unsigned char phase_bytes[kBlock * sizeof(T)];
  __shared__ int swaps[kBlock];
  T* phases = reinterpret_cast<T*>(phase_bytes);
  for (std::int64_t mat = blockIdx.x; mat < p.batch; mat += gridDim.x) {
    const T* lu = reinterpret_cast<const T*>(p.lu) + mat * p.batch_stride;
    const P* piv = reinterpret_cast<const P*>(p.pivots) + mat * p.pivot_stride;
    R logabs = 0;
    T phase = T(1);
    int odd = 0;
    for (std::int64_t j = threadIdx.x; j < p.n; j += blockDim.x) {
      const T d = lu[j * (p.lda + 1)];
      if (is_zero(d)) {
        phase = T(0);
        logabs = -INFINITY;
      } else {
        phase = mul(phase, unit(d));
        logabs += log(absolute(d));
      }
      odd ^= static_cast<std::int64_t>(piv[j]) != j + 1;
    }
    logs[threadIdx.x] = logabs;
    phases[threadIdx.x] = phase;
    swaps[threadIdx.x] = odd;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
      if (static_cast<int>(threadIdx.x) < s) {
        logs[threadIdx.x] += logs[threadIdx.x + s];
        phases[threadIdx.x] = mul(phases[threadIdx.x], phases[threadIdx.x + s]);
        swaps[threadIdx.x] ^= swaps[threadIdx.x + s];
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      const T ph = det_phase(phases[0], swaps[0] != 0);
      if (p.log) {
        reinterpret_cast<T*>(p.out0)[mat] = ph;
        reinterpret_cast<R*>(p.out1)[mat] = logs[0];
      } else {
        reinterpret_cast<T*>(p.out0)[mat] = mul(ph, T(exp(logs[0])));
      }
    }
    __syncthreads();
  }
}

template <class T>
__global__ void zero_triangle_kernel(T* data, std::int64_t batch, std::int64_t rows,
                                     std::int64_t cols, std::int64_t batch_stride, bool upper) {
  const std::int64_t total = batch * rows * cols;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t j = e % cols, i = (e / cols) % rows, m = e / (rows * cols);
    if (upper ? j > i : j < i) data[m * batch_stride + i * cols + j] = T(0);
  }
}

template <class T>
__global__ void identity_kernel(T* data, std::int64_t batch, std::int64_t n) {
  const std::int64_t total = batch * n * n;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t j = e % n, i = (e / n) % n;
    data[e] = i == j ? T(1) : T(0);
  }
}

__global__ void pointer_array_kernel(void** out, char* base, std::int64_t stride,
                                     std::int64_t count) {
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    out[e] = base + e * stride;
  }
}

__global__ void info_max_kernel(const int* info, std::int64_t count, int* flag) {
  int m = 0;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    m = max(m, info[e]);
  }
  for (int off = 16; off > 0; off /= 2) m = max(m, __shfl_xor_sync(kFull, m, off));
  if ((threadIdx.x & 31) == 0 && m != 0) atomicMax(flag, m);
}

template <class R>
__global__ void scale_kernel(R* data, std::int64_t count, R factor) {
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    data[e] *= factor;
  }
}

template <class R>
__global__ void conjugate_kernel(R* data, std::int64_t count) {
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    data[2 * e + 1] = -data[2 * e + 1];
  }
}

// The one dtype switch of this file: float32, float64, complex64 and complex128.
template <class F>
void dispatch(DType dtype, const char* what, F&& f) {
  switch (dtype) {
    case DType::float32:
      return f(type_tag<float>{});
    case DType::float64:
      return f(type_tag<double>{});
    case DType::complex64:
      return f(type_tag<complex64>{});
    case DType::complex128:
      return f(type_tag<complex128>{});
    default:
      throw_type_error(std::string(what) + ": no loop for " + dtype_name(dtype));
  }
}

cudaStream_t cu(Stream s) { return static_cast<cudaStream_t>(s); }

}  // namespace

void small_lu_cuda(DType dtype, const SmallLu& p, Stream stream) {
  if (p.batch == 0 || p.n == 0) return;
  dispatch(dtype, "numcu.linalg", [&](auto tag) {
    using T = typename decltype(tag)::type;
    small_lu_width<T>(p, stream);
  });
}

void lu_det_cuda(DType dtype, const LuDet& p, Stream stream) {
  if (p.batch == 0) return;
  dispatch(dtype, "numcu.linalg", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(p.batch, 1 << 20));
    if (p.pivots64) {
      lu_det_kernel<T, std::int64_t><<<grid, kBlock, 0, cu(stream)>>>(p);
    } else {
      lu_det_kernel<T, int><<<grid, kBlock, 0, cu(stream)>>>(p);
    }
    NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: determinant launch");
  });
}

void pointer_array_cuda(void** out, char* base, std::int64_t stride_bytes, std::int64_t count,
                        Stream stream) {
  if (count == 0) return;
  pointer_array_kernel<<<grid_for(count), kBlock, 0, cu(stream)>>>(out, base, stride_bytes, count);
  NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: pointer array launch");
}

void zero_triangle_cuda(DType dtype, char* data, std::int64_t batch, std::int64_t rows,
                        std::int64_t cols, std::int64_t batch_stride, bool upper, Stream stream) {
  const std::int64_t total = batch * rows * cols;
  if (total == 0) return;
  dispatch(dtype, "numcu.linalg", [&](auto tag) {
    using T = typename decltype(tag)::type;
    zero_triangle_kernel<T><<<grid_for(total), kBlock, 0, cu(stream)>>>(
        reinterpret_cast<T*>(data), batch, rows, cols, batch_stride, upper);
    NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: triangle launch");
  });
}

void identity_cuda(DType dtype, char* data, std::int64_t batch, std::int64_t n, Stream stream) {
  const std::int64_t total = batch * n * n;
  if (total == 0) return;
  dispatch(dtype, "numcu.linalg", [&](auto tag) {
    using T = typename decltype(tag)::type;
    identity_kernel<T>
        <<<grid_for(total), kBlock, 0, cu(stream)>>>(reinterpret_cast<T*>(data), batch, n);
    NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: identity launch");
  });
}

void info_max_cuda(const int* info, std::int64_t count, int* flag, Stream stream) {
  NUMCU_CUDA_TRY(cudaMemsetAsync(flag, 0, sizeof(int), cu(stream)), "numcu.linalg: memset");
  if (count == 0) return;
  info_max_kernel<<<grid_for(count), kBlock, 0, cu(stream)>>>(info, count, flag);
  NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: info launch");
}

void zero_cuda(char* data, std::size_t bytes, Stream stream) {
  if (bytes == 0) return;
  NUMCU_CUDA_TRY(cudaMemsetAsync(data, 0, bytes, cu(stream)), "numcu.fft: memset");
}

void scale_cuda(DType dtype, char* data, std::int64_t count, double factor, Stream stream) {
  if (count == 0) return;
  const bool cplx = dtype_kind(dtype) == 'c';
  const std::int64_t reals = cplx ? 2 * count : count;
  if (dtype == DType::float32 || dtype == DType::complex64) {
    scale_kernel<float><<<grid_for(reals), kBlock, 0, cu(stream)>>>(
        reinterpret_cast<float*>(data), reals, static_cast<float>(factor));
  } else if (dtype == DType::float64 || dtype == DType::complex128) {
    scale_kernel<double><<<grid_for(reals), kBlock, 0, cu(stream)>>>(
        reinterpret_cast<double*>(data), reals, factor);
  } else {
    throw_type_error(std::string("numcu.fft: no scaling for ") + dtype_name(dtype));
  }
  NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.fft: scale launch");
}

void conjugate_cuda(DType dtype, char* data, std::int64_t count, Stream stream) {
  if (count == 0) return;
  if (dtype == DType::complex64) {
    conjugate_kernel<float>
        <<<grid_for(count), kBlock, 0, cu(stream)>>>(reinterpret_cast<float*>(data), count);
  } else if (dtype == DType::complex128) {
    conjugate_kernel<double>
        <<<grid_for(count), kBlock, 0, cu(stream)>>>(reinterpret_cast<double*>(data), count);
  } else {
    return;
  }
  NUMCU_CUDA_TRY(cudaGetLastError(), "numcu.linalg: conjugate launch");
}

}  // namespace numcu::linalg
