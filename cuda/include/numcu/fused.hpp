// Fused expressions: a small program of the op table's functors, run over arrays in one pass by
// precompiled interpreters (no compiler at run time), on the CPU backend and on the GPU.
//
// A program is a list of instructions in SSA form: each computes one value from up to three
// earlier values (array inputs, constants held by value, or results of earlier instructions)
// with a ufunc of NUMCU_UFUNCS on one loop dtype, a cast, or one of the few extra functions of
// numexpr's language that are not ufuncs (real, imag, conj, complex, ones_like). The last
// instruction's value is the output. Types are resolved before a program gets here: every
// instruction's inputs already have its loop dtype (casts are instructions of their own), as the
// unfused ufunc calls convert their inputs before running, so each instruction computes exactly
// what one ufunc call computes for those elements, with the same functor: a fused result is
// bit-identical to the unfused calls.
//
// Backends:
// - CPU (fused_cpu.cpp): the output's elements in blocks of kCpuBlock, on all threads; each
//   instruction runs over a block with the ufunc table's own contiguous CPU loops (vectorised,
//   the same code the ufunc calls run), its values in per-thread buffers a few KiB each.
// - GPU (fused_cuda.cpp, fused_interp.cuh): one kernel per class of dtypes interprets the program
//   over tiles of the output, each thread several elements per instruction; the inputs of a tile
//   are staged in shared memory (16-byte asynchronous copies where contiguous), the values
//   between instructions are kept in registers (an accumulator) or shared memory, and the output
//   is written once. Ops and dtypes the GPU kernels do not hold run as unfused calls (one
//   kernel per instruction over whole arrays), with the same results.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "numcu/backend.hpp"
#include "numcu/config.hpp"
#include "numcu/dtype.hpp"
#include "numcu/elementwise.hpp"
#include "numcu/ops.hpp"
#include "numcu/types.hpp"

namespace numcu::fused {

// ---------------------------------------------------------------------------------------------
// The functions of numexpr's language that are not NumPy ufuncs, as functors in the shape of
// ops.hpp's (loop_dtype, supports, out_t, operator()).

// real(x), imag(x) and conj(x): a complex number's parts and its conjugate; a real x is its own
// real part and conjugate, and its imaginary part is 0.
enum class Part { real, imag, conj };
template <Part P>
struct ComplexPart : ops::SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  using out_t = std::conditional_t<P == Part::conj, T, ops::real_t<T>>;
  template <class T>
  NUMCU_HD out_t<T> operator()(T a) const {
    if constexpr (!is_complex_v<T>) {
      return P == Part::imag ? T(0) : a;
    } else if constexpr (P == Part::conj) {
      return T(a.real(), -a.imag());
    } else {
      return P == Part::real ? a.real() : a.imag();
    }
  }
};
using Real = ComplexPart<Part::real>;
using Imag = ComplexPart<Part::imag>;
using Conj = ComplexPart<Part::conj>;

template <class T>
struct complex_of {
  using type = std::conditional_t<std::is_same_v<T, float>, complex64, complex128>;
};

// complex(re, im) of real inputs: float32 (and float16) pairs make complex64, any other
// complex128, as `re + 1j*im` does in NumPy 2; complex inputs have no loop.
struct MakeComplex : ops::SameLoop {
  static constexpr int arity = 2;
  static DType loop_dtype(DType d) {
    return d == DType::float32 || d == DType::float16 || d == DType::bfloat16 ? DType::float32
           : is_inexact(d) && dtype_kind(d) == 'c'                            ? d
                                                                              : DType::float64;
  }
  template <class T>
  static constexpr bool supports = std::is_same_v<T, float> || std::is_same_v<T, double>;
  template <class T>
  using out_t = typename complex_of<T>::type;
  template <class T>
  NUMCU_HD out_t<T> operator()(T a, T b) const {
    return out_t<T>(a, b);
  }
};

// ones_like(x): 1 in x's dtype.
struct OnesLike : ops::SameLoop {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool supports = true;
  template <class T>
  NUMCU_HD T operator()(T) const {
    return T(1);
  }
};

// X(name, functor)
#define NUMCU_FUSED_EXTRAS(X)             \
  X(real, ::numcu::fused::Real)           \
  X(imag, ::numcu::fused::Imag)           \
  X(conj, ::numcu::fused::Conj)           \
  X(complex, ::numcu::fused::MakeComplex) \
  X(ones_like, ::numcu::fused::OnesLike)

enum class Extra {
#define NUMCU_ENUM(e, F) e,
  NUMCU_FUSED_EXTRAS(NUMCU_ENUM)
#undef NUMCU_ENUM
};

constexpr int kNumExtras = 0
#define NUMCU_COUNT(e, F) +1
    NUMCU_FUSED_EXTRAS(NUMCU_COUNT)
#undef NUMCU_COUNT
    ;

// Op numbers: the ufuncs of NUMCU_UFUNCS first (Ufunc's values), then the extras, then the cast.
constexpr int kFirstExtra = kNumUfuncs;
constexpr int kCastOp = kNumUfuncs + kNumExtras;
constexpr int kNumOps = kCastOp + 1;

// What the compiler of programs needs to know of an op (fused_ops.cpp).
struct OpInfo {
  const char* name;  // NumPy's ufunc name, or the extra's
  int arity;
  bool condition_first;
  bool loop_per_input;
  // Whether the op computes something costly per element (float functions, integer division,
  // complex division): the CPU backend's grain counts it, as the ufuncs' CPU loops count their
  // functors. The placement model reads the ufunc table's cost class instead, as for ufuncs.
  bool costly;
};
const OpInfo& op_info(int op);
// The op's name as numcu knows it ("numcu.sin", "numcu.evaluate's real").
DType op_loop_dtype(int op, DType promoted);
bool op_supports(int op, DType loop);
DType op_out_dtype(int op, DType loop);
// Whether the op is a ufunc whose functor takes run-time parameters (div's default).
bool op_takes_params(int op);

// ---------------------------------------------------------------------------------------------
// Programs

// A value of a program: an array input, a constant held by value, or the result of an
// instruction (`index` counts each kind from 0).
struct Value {
  enum Kind : std::uint8_t { input, constant, temp };
  Kind kind = input;
  std::int32_t index = 0;
};

struct Instruction {
  std::int32_t op = 0;          // a Ufunc's value, kFirstExtra + an extra's number, or kCastOp
  DType loop = DType::float64;  // the loop's dtype (a cast's: the source dtype)
  DType out = DType::float64;   // what it writes (a cast's: the target dtype)
  int arity = 0;
  Value src[3];
  OpParams params;  // div's default
};

struct Program {
  std::vector<Instruction> code;  // in order; the last one's value is the output
  std::vector<DType> input_dtype;
  std::vector<DType> const_dtype;
  // Each constant's value in its dtype, 16 bytes each.
  std::vector<unsigned char> consts;
  DType out_dtype() const { return code.back().out; }
  const unsigned char* constant(int k) const { return consts.data() + 16 * k; }
};

// Where a program's operands are: the output (operand 0, of the program's output dtype) and the
// array inputs (operand 1 + k for input k), collapsed together as elementwise plans are: the
// output's elements in C order of `shape`, each operand's byte strides along it (0 along
// broadcast dimensions); `dense[i]`: operand i is one dense run of `size` elements in that
// order (its element e at data + e * itemsize).
struct Layout {
  std::int64_t size = 0;
  int ndim = 0;
  std::int64_t shape[kMaxKernelDims] = {};
  int noperands = 0;
  std::vector<char*> data;
  std::vector<std::array<std::int64_t, kMaxKernelDims>> strides;
  std::vector<int> itemsize;
  std::vector<bool> dense;
};

// The layout of `views` (views[0] the output, whose shape is the iteration shape; the others
// broadcast to it), with dimensions of size 1 dropped, dimensions every operand walks as one run
// merged, and the output's innermost stride last. Throws value_error if more than
// kMaxKernelDims dimensions remain.
Layout make_layout(const ArrayView* const* views, int n, const char* fname);

// The CPU backend: runs `program` over `layout` on the CPU threads; returns when done.
void run_cpu(const Program& program, const Layout& layout);

// Limits of a program the GPU interpreter runs. Larger programs run as unfused calls.
constexpr int kMaxGpuInstructions = 64;
constexpr int kMaxGpuInputs = 16;
constexpr int kMaxGpuConstants = 32;

// The GPU: `program` encoded for an interpreter kernel (fused_cuda.cpp), where one holds every
// instruction (its dtypes among bool, int32, int64, float32, float64, complex64 and
// complex128) within the limits above and the shared memory of `device`; null, with `why`
// saying what is missing, where none does. A plan depends on the program's instructions and
// dtypes, not on its constants' values: it is made once and kept.
struct GpuPlan;
std::shared_ptr<const GpuPlan> gpu_plan(const Program& program, int device, std::string* why);
bool gpu_supports(const Program& program, int device, std::string* why);
// The values a plan holds at once in shared memory (slots of a block's tile).
int gpu_slots(const GpuPlan& plan);
// Queues `program` (its constants as they are now) over `layout` (device memory) on `stream`.
void run_cuda(const GpuPlan& plan, const Program& program, const Layout& layout, Stream stream);
void run_cuda(const Program& program, const Layout& layout, int device, Stream stream);
#if NUMCU_FUSED_EMULATOR
// Test builds: the GPU interpreter run on the CPU over host memory (fused_emulate.cu).
void emulate_cuda(const Program& program, const Layout& layout);
#endif

// The interpreter's dtypes, in the order of its type index.
#define NUMCU_FUSED_GPU_DTYPES(X)  \
  X(bool_, bool)                   \
  X(int32, std::int32_t)           \
  X(int64, std::int64_t)           \
  X(float32, float)                \
  X(float64, double)               \
  X(complex64, ::numcu::complex64) \
  X(complex128, ::numcu::complex128)
constexpr int kNumGpuTypes = 0
#define NUMCU_COUNT(e, T) +1
    NUMCU_FUSED_GPU_DTYPES(NUMCU_COUNT)
#undef NUMCU_COUNT
    ;

// The interpreter's type index of a dtype (its place in NUMCU_FUSED_GPU_DTYPES), -1 where it has
// none.
constexpr int gpu_type_index(DType d) {
  constexpr DType kTypes[] = {
#define NUMCU_DTYPE(e, T) DType::e,
      NUMCU_FUSED_GPU_DTYPES(NUMCU_DTYPE)
#undef NUMCU_DTYPE
  };
  for (int i = 0; i < kNumGpuTypes; ++i) {
    if (kTypes[i] == d) return i;
  }
  return -1;
}

}  // namespace numcu::fused
