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
  std::uint16_t code;  // the code (kCodeMask's bits) and the hot code (gpu_hot_code) above it
  std::uint8_t dst;
  std::uint8_t src[3];
  std::uint8_t fetch;
  std::uint8_t sizes;
};
constexpr unsigned kCodeMask = 0x7ff;
constexpr int kHotShift = 11;
// The commonest instructions are also marked in the top bits of `code` (GpuHot): the kernel runs
// those on a short path before its switch over every code (which the compiler makes a tree of
// about ten comparisons and branches; it makes no jump table). A hot instruction is float32 or
// float64 add, subtract or multiply, its first operand the accumulator or a slot and its second
// a slot or a constant, or negative, absolute or sqrt of the accumulator or a slot; its result
// goes to the accumulator, and to slot `dst` where `fetch` says kStore (its only bit that counts).
// Its src[0] is the variable operand V (kAcc, or the slot loaded into the accumulator), src[1]
// the other operand, on either side as the form says. Operands are read as they are used: none
// is first copied into the operand registers, nor a constant spread over them. Slots are read a
// group at a time (16 bytes a thread: Config in fused_interp.cuh).
enum GpuHotOp : unsigned {
  // Binary: (add, subtract, multiply) + 3 * the form: V op slot, V op constant, slot op V,
  // constant op V (V the variable operand).
  kHotAdd,
  kHotSubtract,
  kHotMultiply,
  kHotBinary = 12,
  kHotNegative = kHotBinary,
  kHotAbsolute,
  kHotSqrt,
  kHotOps
};
// GpuHot: 0 (not hot), else 1 + the op (GpuHotOp) for float32, 1 + kHotOps + the op for float64.
constexpr unsigned kNotHot = 0;
constexpr unsigned gpu_hot_code(int type, GpuHotOp op) {
  return type == gpu_type_index(DType::float32)   ? 1u + op
         : type == gpu_type_index(DType::float64) ? 1u + kHotOps + op
                                                  : kNotHot;
}
static_assert(1 + 2 * kHotOps <= (0xffffu >> kHotShift), "hot codes take the top bits");
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
static_assert(gpu_code(kCastOp + kNumGpuTypes, 0) <= kCodeMask + 1, "codes take 11 bits");

// How an input's tile reaches shared memory: 16-byte asynchronous copies (dense, its data
// 16-byte aligned), element copies (dense, less aligned), or one element at a time from its
// strides (broadcast or strided).
enum GpuInputMode : std::int32_t { kDense16 = 0, kDenseElements = 1, kStrided = 2 };

// The program as it runs on a tile: its instructions, the slots its inputs are staged in, and
// where the last instruction leaves the output (kAcc or a slot). A program that prefetches has
// two frames, tiles taking them in turn: the second's slots are the first's, but for the slots of
// the inputs (0 to ninputs - 1, also reused by later values), which it moves past the program's
// slots, so that one tile's inputs can be copied in while the tile before runs.
struct GpuFrame {
  GpuInstr code[kMaxGpuInstructions] = {};
  std::int32_t in_slot[kMaxGpuInputs] = {};
  std::int32_t out_src = 0;
};

// The kernel's one argument (passed as a __grid_constant__, so it is read where it lies).
struct GpuParams {
  std::int64_t n = 0;  // elements of the output
  std::int32_t ndim = 0;
  std::int32_t ninstr = 0;
  std::int32_t ninputs = 0;
  std::int32_t out_size = 0;   // the output's item size
  std::int32_t out_dense = 0;  // 1: element e at out + e * out_size; 0: by out_strides
  // 1: each block runs tiles blockIdx.x, + gridDim.x, ... in the frames by turns, copying a tile's
  // inputs in while the one before runs; 0: frame 0 only, a tile a block.
  std::int32_t prefetch = 0;
  std::int64_t shape[kMaxKernelDims] = {};
  char* out = nullptr;
  std::int64_t out_strides[kMaxKernelDims] = {};
  const char* in_data[kMaxGpuInputs] = {};
  std::int32_t in_mode[kMaxGpuInputs] = {};
  std::int32_t in_size[kMaxGpuInputs] = {};
  std::int64_t in_strides[kMaxGpuInputs][kMaxKernelDims] = {};
  GpuFrame frame[2];
  alignas(16) unsigned char consts[kMaxGpuConstants][16] = {};
};
// Kernel arguments of up to 4 KiB are taken by every driver the module runs on.
static_assert(sizeof(GpuParams) <= 4096, "the fused kernel's argument is over 4 KiB");

// An encoded program (fused.hpp's GpuPlan): its kernel class, the slots it takes, and the
// kernel's argument with everything but the layout and the constants filled in.
struct GpuPlan {
  GpuClass cls = GpuClass::complex;
  int slots = 0;
  int nconsts = 0;  // the program's own; functors with parameters follow them
  GpuParams params;
};

// The kernel's argument for `plan` over `layout` with the program's constants, its frame 0 only
// (prefetch 0), and the number of tiles (its grid without prefetching).
GpuParams gpu_params(const GpuPlan& plan, const Program& program, const Layout& layout,
                     std::int64_t* tiles);
// Frame 1 of `p`, made from frame 0 for a program of `slots` slots.
void add_second_frame(GpuParams& p, int slots);

// The launchers (fused_narrow.cu, fused_wide.cu, fused_complex.cu): `p` (frame 0 made) over
// `tiles` tiles, a program of `slots` slots. Few tiles: a block a tile. Many, where prefetching
// pays (gpu_prefetch_pays): as many blocks as the device holds at once, each running its share of
// the tiles and copying each tile's inputs in while the one before runs.
void launch_fused_narrow(GpuParams& p, std::int64_t tiles, int slots, Stream stream);
void launch_fused_wide(GpuParams& p, std::int64_t tiles, int slots, Stream stream);
void launch_fused_complex(GpuParams& p, std::int64_t tiles, int slots, Stream stream);
// The most dynamic shared memory a block may have on `device` (asked once a device); device -1:
// Hopper's 227 KiB (the emulator of test builds).
int gpu_max_shared_memory(int device);
// Each launcher's kernel loaded on `device` (the current device), and let take as much shared
// memory as the device allows (fused_interp.cuh, kernel_facts). CUDA loads a kernel at its first
// use, about a millisecond for these: prepare_gpu_interpreters, called when a device is first
// made current (runtime.cpp), does it for all three then, not at a program's first call. It
// raises nothing: a launch reports what went wrong.
void prepare_fused_narrow(int device);
void prepare_fused_wide(int device);
void prepare_fused_complex(int device);
void prepare_gpu_interpreters(int device) noexcept;
// Tiles from which a launch considers prefetching.
constexpr std::int64_t kPrefetchTiles = 1024;
// Instructions an input from which prefetching pays.
constexpr int kPrefetchInstructions = 4;
// Whether prefetching pays for program `p`, of a kernel the device holds `without` blocks of a
// multiprocessor at once with the program's slots and `with` with the second frame's as well:
// where it costs no blocks and the program computes long enough on each tile to hide the next
// one's copies. Measured on an H100 at 2^27 elements: float32 horner8 (16 instructions, one
// input) 508 -> 501 us, float64 1482 -> 1372 us; a*b+c (2 instructions, 3 inputs) 685 -> 698 us;
// trig, which would go from 4 blocks to 2, 1436 -> 2260 us.
bool gpu_prefetch_pays(const GpuParams& p, int without, int with);

// Instructions inlined into the interpreter's switch, whose operands and result may be in the
// accumulator: the arithmetic, comparisons, logic and selections expressions are mostly made of,
// short bodies unrolled over a thread's elements, and float32 sin, cos and exp (unrolled, the
// thread's elements' bodies interleave: float32 trig at 2^27 on an H100 1082 -> 998 us, at the
// cost of 2200 more machine instructions in the narrow kernel, 1000 in the wide one, 500 in the
// complex one). Every other instruction (float functions, integer division, rounding, the
// complex functions but arithmetic) runs out of line, a group of elements (Config::V) at a time,
// its operands and result in shared memory (or constants): the accumulator can only be indexed
// by fully unrolled inline code. Out of line, each body is compiled once and apart, which keeps
// the kernels' compile time linear in the ops they hold.
template <class F, class T>
constexpr bool gpu_inline() {
  using namespace ops;
  if constexpr (std::is_same_v<T, float> && is_any_of_v<F, Sin, Cos, Exp>) {
    return true;
  } else if constexpr (is_complex_v<T>) {
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
