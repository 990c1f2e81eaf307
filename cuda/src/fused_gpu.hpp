// What the GPU interpreter of fused programs (fused_interp.cuh) and its host side
// (fused_cuda.cpp) share: the kernel classes, the encoding of a program, and which instructions
// keep their values in shared memory. Plain C++ as well as CUDA.
#pragma once

#include <cstdint>
#include <type_traits>

#include "numcu/elementwise.hpp"
#include "numcu/fused.hpp"
#include "numcu/ops.hpp"

namespace numcu::fused {

// The interpreter kernels, one per class of dtypes, each in its own source file: a program runs
// on the narrowest class that holds every dtype it uses. A class is a set of dtypes, the widest
// of W bytes; each thread computes E = 64 / W elements an instruction (its accumulator holds
// 64 bytes: sixteen 32-bit registers), a block of kGpuBlock threads a tile of E * kGpuBlock
// elements, and a value kept in shared memory takes kSlotBytes of it whatever its dtype.
//   narrow:  bool, int32, float32                                W = 4, E = 16
//   wide:    bool, int32, int64, float32, float64                W = 8, E = 8
//   complex: bool, float32, float64, complex64, complex128      W = 16, E = 4
// (Programs of complex numbers with int32 or int64 values run unfused: the complex kernel is the
// costliest to compile, and its integer loops would add a third to it.)
enum class GpuClass { narrow, wide, complex };
constexpr int kGpuClasses = 3;
constexpr int kGpuBlock = 128;
constexpr int kAccBytes = 64;
constexpr int kSlotBytes = kGpuBlock * kAccBytes;  // 8 KiB

constexpr int gpu_class_width(GpuClass c) {
  return c == GpuClass::narrow ? 4 : c == GpuClass::wide ? 8 : 16;
}
constexpr int gpu_class_elements(GpuClass c) { return kAccBytes / gpu_class_width(c); }
// The blocks of each class's kernel a multiprocessor is to hold at once (its launch bounds: at
// most 65536 / (kGpuBlock * this) registers a thread). The narrow kernel fits 80 registers: 6
// blocks, 24 warps to hide the interpreter's latencies (float32 horner8 ran 1.06x faster than at
// 4 blocks on an H100). The wide and complex kernels keep 4 (117 and 120 registers for sm_90):
// the wide one held to 80 registers ran float64 trig 10% slower.
constexpr int gpu_min_blocks(GpuClass c) { return c == GpuClass::narrow ? 6 : 4; }
// Whether class c holds the dtype of interpreter type index `type` (fused.hpp's order).
constexpr bool gpu_class_has(GpuClass c, int type) {
  switch (c) {
    case GpuClass::narrow:
      return type == 0 || type == 1 || type == 3;
    case GpuClass::wide:
      return type >= 0 && type <= 4;
    default:
      return type == 0 || (type >= 3 && type < kNumGpuTypes);
  }
}

// An instruction of the encoded program: `code` = op_slot * 8 + the type index of the loop
// dtype, op_slot being the op's number (fused.hpp) for ufuncs and extras, and kCastOp + the
// target's type index for casts. Operands and the destination: kAcc (the accumulator),
// kConstBit | k (constant k), or a slot number.
//
// An inline instruction computes A = op(A, B, C) on three register arrays of the thread: A is the
// accumulator, which holds the previous instruction's result. Before the switch, the operands it
// reads are brought into them by `fetch` (2 bits an operand: operand 0 kInAcc or kLoad into A;
// operands 1 and 2 kUnused, kLoad, or kFromAcc: a copy of A taken before A is loaded), each of
// the item size class `sizes` gives (2 bits an operand, then 2 for the result: 0 for 1 byte, 1
// for 4, 2 for 8, 3 for 16); after it, kStore in `fetch` writes A to slot `dst`. An out-of-line
// instruction (gpu_inline false) reads its operands from shared memory or constants itself and
// writes slot `dst`; its `fetch` is 0.
struct GpuInstr {
  std::uint16_t code;  // the code (kCodeMask's bits) and the hot op (GpuHot) above it
  std::uint8_t dst;
  std::uint8_t src[3];
  std::uint8_t fetch;
  std::uint8_t sizes;
};
constexpr unsigned kCodeMask = 0xfff;
constexpr int kHotShift = 12;
// The commonest instructions, float add, subtract and multiply, are also marked in the top bits
// of `code`: the kernel tests those bits before its switch over every code, which the compiler
// makes a tree of about ten comparisons and branches (it makes no jump table), so that these take
// two or three.
enum GpuHot : unsigned {
  kNotHot = 0,
  kAddFloat32,
  kSubtractFloat32,
  kMultiplyFloat32,
  kAddFloat64,
  kSubtractFloat64,
  kMultiplyFloat64
};
constexpr unsigned gpu_hot(int op, int type) {
  const unsigned base = type == gpu_type_index(DType::float32)   ? kAddFloat32
                        : type == gpu_type_index(DType::float64) ? kAddFloat64
                                                                 : 0u;
  if (base == 0) return kNotHot;
  return op == static_cast<int>(Ufunc::add)        ? base
         : op == static_cast<int>(Ufunc::subtract) ? base + 1
         : op == static_cast<int>(Ufunc::multiply) ? base + 2
                                                   : kNotHot;
}
constexpr std::uint8_t kAcc = 0xff;
constexpr std::uint8_t kConstBit = 0x80;
enum : unsigned { kInAcc = 0, kUnused = 0, kLoad = 1, kFromAcc = 2, kStore = 0x80 };
constexpr int size_class(int itemsize) {
  return itemsize == 1 ? 0 : itemsize == 4 ? 1 : itemsize == 8 ? 2 : 3;
}
// Slots of shared memory a kernel may use: kSlotBytes each, at most 224 KiB (the device's
// per-block limit decides how many a launch may have).
constexpr int kMaxSlots = 28;

constexpr int gpu_code(int op_slot, int type) { return op_slot * 8 + type; }
static_assert(gpu_code(kCastOp + kNumGpuTypes, 0) <= kCodeMask + 1, "codes take 12 bits");

// How an input's tile reaches shared memory: 16-byte asynchronous copies (dense, its data
// 16-byte aligned), element copies (dense, less aligned), or one element at a time from its
// strides (broadcast or strided).
enum GpuInputMode : std::int32_t { kDense16 = 0, kDenseElements = 1, kStrided = 2 };

// The kernel's one argument (passed as a __grid_constant__, so it is read where it lies).
struct GpuParams {
  std::int64_t n = 0;  // elements of the output
  std::int32_t ndim = 0;
  std::int32_t ninstr = 0;
  std::int32_t ninputs = 0;
  std::int32_t out_size = 0;   // the output's item size
  std::int32_t out_dense = 0;  // 1: element e at out + e * out_size; 0: by out_strides
  std::int32_t out_src = 0;    // where the last instruction leaves the output: kAcc or a slot
  std::int64_t shape[kMaxKernelDims] = {};
  char* out = nullptr;
  std::int64_t out_strides[kMaxKernelDims] = {};
  const char* in_data[kMaxGpuInputs] = {};
  std::int32_t in_mode[kMaxGpuInputs] = {};
  std::int32_t in_size[kMaxGpuInputs] = {};
  std::int32_t in_slot[kMaxGpuInputs] = {};
  std::int64_t in_strides[kMaxGpuInputs][kMaxKernelDims] = {};
  GpuInstr code[kMaxGpuInstructions] = {};
  alignas(16) unsigned char consts[kMaxGpuConstants][16] = {};
};

// An encoded program (fused.hpp's GpuPlan): its kernel class, the slots it takes, and the
// kernel's argument with everything but the layout and the constants filled in.
struct GpuPlan {
  GpuClass cls = GpuClass::complex;
  int slots = 0;
  int nconsts = 0;  // the program's own; functors with parameters follow them
  GpuParams params;
};

// The kernel's argument for `plan` over `layout` with the program's constants, and its grid.
GpuParams gpu_params(const GpuPlan& plan, const Program& program, const Layout& layout,
                     unsigned* grid);

// The launchers (fused_narrow.cu, fused_wide.cu, fused_complex.cu): `grid` blocks of kGpuBlock
// threads with `smem` bytes of dynamic shared memory each.
void launch_fused_narrow(const GpuParams& p, unsigned grid, int smem, Stream stream);
void launch_fused_wide(const GpuParams& p, unsigned grid, int smem, Stream stream);
void launch_fused_complex(const GpuParams& p, unsigned grid, int smem, Stream stream);

// Instructions inlined into the interpreter's switch, whose operands and result may be in the
// accumulator: the arithmetic, comparisons, logic and selections expressions are mostly made of,
// short bodies unrolled over a thread's elements. Every other instruction (float functions,
// integer division, rounding, the complex functions but arithmetic) runs out of line, one element
// at a time, its operands and result in shared memory (or constants): the accumulator can only
// be indexed by fully unrolled inline code. Out of line, each body is compiled once and apart,
// which keeps the kernels' compile time linear in the ops they hold.
template <class F, class T>
constexpr bool gpu_inline() {
  using namespace ops;
  if constexpr (is_complex_v<T>) {
    return is_any_of_v<F, Add, Subtract, Multiply, Negative, Positive, Conj, Real, Imag, Where,
                       Equal, NotEqual>;
  } else {
    return is_any_of_v<F, Add, Subtract, Multiply, Divide, Negative, Positive, Absolute, Square,
                       Sqrt, Maximum, Minimum, Fmax, Fmin, Equal, NotEqual, Less, LessEqual,
                       Greater, GreaterEqual, LogicalAnd, LogicalOr, LogicalXor, LogicalNot,
                       BitwiseAnd, BitwiseOr, BitwiseXor, Invert, Where, Clip, MakeComplex, Real,
                       Imag, Conj, OnesLike>;
  }
}
template <class F, class T>
constexpr bool gpu_rolled() {
  return !gpu_inline<F, T>();
}

// The same, at run time (fused_ops.cpp), for the host's allocation of values.
bool op_gpu_rolled(int op, DType loop);

}  // namespace numcu::fused
