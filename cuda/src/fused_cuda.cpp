// The GPU backend of fused programs, host side: the kernel class a program needs, where each of
// its values lives (the accumulator, a slot of shared memory, a constant), the program encoded
// for the interpreter (fused_gpu.hpp), and the launch.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "fused_gpu.hpp"
#include "numcu/cuda_check.hpp"
#include "numcu/errors.hpp"
#include "numcu/fused.hpp"

namespace numcu::fused {
namespace {

bool class_holds(GpuClass c, DType d) { return gpu_class_has(c, gpu_type_index(d)); }

// The dtypes a program uses: its inputs', constants', and each instruction's loop and result.
bool program_in_class(const Program& prog, GpuClass c) {
  for (DType d : prog.input_dtype) {
    if (!class_holds(c, d)) return false;
  }
  for (DType d : prog.const_dtype) {
    if (!class_holds(c, d)) return false;
  }
  for (const Instruction& ins : prog.code) {
    if (!class_holds(c, ins.loop) || !class_holds(c, ins.out)) return false;
  }
  return true;
}

// Whether operand k of `ins` is a value it has not read already (x*x reads one value, once).
bool first_read(const Instruction& ins, int k) {
  for (int q = 0; q < k; ++q) {
    if (ins.src[q].kind == ins.src[k].kind && ins.src[q].index == ins.src[k].index) return false;
  }
  return true;
}

// The hot code (fused_gpu.hpp) of an inline instruction whose result is of its loop type, with
// its operands at `src` (kAcc, a constant, or a slot), which it rewrites into the hot form: src[0]
// the variable operand (kAcc, or the slot loaded into the accumulator), src[1] the other (a slot
// or a constant); kNotHot where the instruction is not of a hot form.
unsigned hot_encoding(const Instruction& ins, int type, unsigned* src) {
  struct HotUfunc {
    Ufunc ufunc;
    GpuHotOp op;  // binary ops: the form's offset is added
  };
  static constexpr HotUfunc kHot[] = {
      {Ufunc::add, kHotAdd},           {Ufunc::subtract, kHotSubtract},
      {Ufunc::multiply, kHotMultiply}, {Ufunc::negative, kHotNegative},
      {Ufunc::absolute, kHotAbsolute}, {Ufunc::sqrt, kHotSqrt}};
  if (gpu_hot_code(type, kHotAdd) == kNotHot) return kNotHot;
  const HotUfunc* hot = std::find_if(std::begin(kHot), std::end(kHot), [&](const HotUfunc& h) {
    return ins.op == static_cast<int>(h.ufunc);
  });
  if (hot == std::end(kHot)) return kNotHot;
  const auto is_const = [](unsigned s) { return s != kAcc && (s & kConstBit) != 0; };
  if (ins.arity == 1) return is_const(src[0]) ? kNotHot : gpu_hot_code(type, hot->op);
  // Forms: V op slot, V op constant, slot op V, constant op V.
  unsigned form;
  if (!is_const(src[0]) && src[1] != kAcc) {
    form = is_const(src[1]) ? 1 : 0;
  } else if (!is_const(src[1]) && src[0] != kAcc) {
    form = is_const(src[0]) ? 3 : 2;
    std::swap(src[0], src[1]);
  } else {
    return kNotHot;
  }
  return gpu_hot_code(type, static_cast<GpuHotOp>(form * 3 + hot->op));
}

using Encoding = GpuPlan;
// Encodes `prog` into enc->params (the layout's fields aside); false with `why` where the
// interpreter cannot run it.
bool encode(const Program& prog, int device, Encoding* enc, std::string* why) {
  const int ninstr = static_cast<int>(prog.code.size());
  const int nin = static_cast<int>(prog.input_dtype.size());
  if (ninstr == 0) {
    *why = "the program is empty";
    return false;
  }
  if (ninstr > kMaxGpuInstructions) {
    *why = std::to_string(ninstr) + " instructions (the GPU interpreter takes at most " +
           std::to_string(kMaxGpuInstructions) + ")";
    return false;
  }
  if (nin > kMaxGpuInputs) {
    *why = std::to_string(nin) + " array inputs (the GPU interpreter takes at most " +
           std::to_string(kMaxGpuInputs) + ")";
    return false;
  }
  GpuClass cls;
  if (program_in_class(prog, GpuClass::narrow)) {
    cls = GpuClass::narrow;
  } else if (program_in_class(prog, GpuClass::wide)) {
    cls = GpuClass::wide;
  } else if (program_in_class(prog, GpuClass::complex)) {
    cls = GpuClass::complex;
  } else {
    *why = "a dtype outside bool, int32, int64, float32, float64, complex64 and complex128";
    return false;
  }
  for (const Instruction& ins : prog.code) {
    if (ins.op != kCastOp && !op_supports(ins.op, ins.loop)) {
      *why = std::string("no loop of ") + op_info(ins.op).name + " for " + dtype_name(ins.loop);
      return false;
    }
  }
  enc->cls = cls;
  GpuParams& p = enc->params;
  p = GpuParams{};
  p.ninstr = ninstr;
  p.ninputs = nin;

  // Constants: the program's, then functors made with their parameters (div's default).
  int nconst = static_cast<int>(prog.const_dtype.size());
  if (nconst > kMaxGpuConstants) {
    *why = std::to_string(nconst) + " constants (the GPU interpreter takes at most " +
           std::to_string(kMaxGpuConstants) + ")";
    return false;
  }
  for (int k = 0; k < nconst; ++k) std::memcpy(p.consts[k], prog.constant(k), 16);

  // Uses of each value.
  std::vector<int> uses(ninstr, 0), last_use(ninstr, -1), input_last(nin, -1);
  for (int i = 0; i < ninstr; ++i) {
    const Instruction& ins = prog.code[i];
    for (int k = 0; k < ins.arity; ++k) {
      const Value& v = ins.src[k];
      if (v.kind == Value::temp) {
        // Counted once per reading instruction: x*x reads its operand twice from one place.
        if (first_read(ins, k)) ++uses[v.index];
        last_use[v.index] = i;
      } else if (v.kind == Value::input) {
        input_last[v.index] = i;
      }
    }
  }
  const auto is_inline = [&](int i) {
    return prog.code[i].op == kCastOp || !op_gpu_rolled(prog.code[i].op, prog.code[i].loop);
  };
  // A result stays in the accumulator where the next instruction, inline, is its only reader
  // (or it is the output, computed inline).
  std::vector<bool> in_acc(ninstr, false);
  for (int i = 0; i < ninstr; ++i) {
    if (!is_inline(i)) continue;
    if (i == ninstr - 1) {
      in_acc[i] = true;
    } else {
      in_acc[i] = uses[i] == 1 && last_use[i] == i + 1 && is_inline(i + 1);
    }
  }

  // Slots: every input's from the start to its last reader, results not in the accumulator
  // from their instruction to their last reader. A slot freed by an instruction is reused from
  // the next one on (an instruction writing a slot it reads could overwrite, with results wider
  // than its inputs, elements other threads have yet to read), and only by a value of the same
  // item size: a thread's elements lie at other places of a slot for another size, where another
  // thread may not have read the old value yet (threads meet only between tiles).
  std::vector<std::pair<int, int>> free_slots;  // (item size, slot)
  int nslots = 0;
  const auto take = [&](int size) {
    for (auto it = free_slots.begin(); it != free_slots.end(); ++it) {
      if (it->first == size) {
        const int s = it->second;
        free_slots.erase(it);
        return s;
      }
    }
    return nslots++;
  };
  std::vector<int> input_slot(nin, -1), temp_slot(ninstr, -1);
  for (int k = 0; k < nin; ++k) {
    input_slot[k] = take(itemsize(prog.input_dtype[k]));
    p.frame[0].in_slot[k] = input_slot[k];
  }
  const auto location = [&](const Value& v) -> unsigned {
    if (v.kind == Value::input) return static_cast<unsigned>(input_slot[v.index]);
    if (v.kind == Value::constant) return kConstBit | static_cast<unsigned>(v.index);
    return in_acc[v.index] ? kAcc : static_cast<unsigned>(temp_slot[v.index]);
  };
  const auto operand_dtype = [&](const Value& v) {
    return v.kind == Value::input      ? prog.input_dtype[v.index]
           : v.kind == Value::constant ? prog.const_dtype[v.index]
                                       : prog.code[v.index].out;
  };
  for (int i = 0; i < ninstr; ++i) {
    const Instruction& ins = prog.code[i];
    GpuInstr& g = p.frame[0].code[i];
    const int tindex = gpu_type_index(ins.loop);
    const int slot_op = ins.op == kCastOp ? kCastOp + gpu_type_index(ins.out) : ins.op;
    unsigned hot = kNotHot;
    unsigned src[3] = {0, 0, 0};
    for (int k = 0; k < ins.arity; ++k) src[k] = location(ins.src[k]);
    if (op_takes_params(ins.op)) {
      if (nconst == kMaxGpuConstants) {
        *why = "too many constants for the GPU interpreter";
        return false;
      }
      // The functor, made here with its parameters, as the third operand's constant.
      std::memcpy(p.consts[nconst], &ins.params, sizeof ins.params);
      src[2] = kConstBit | static_cast<unsigned>(nconst++);
    }
    // The result's place: the slot of an operand it is the last reader of, of the result's item
    // size (each thread reads its elements of it before writing the same elements), else a slot
    // taken before the operands' slots are given back.
    unsigned dst = kAcc;
    if (!in_acc[i]) {
      const int size = itemsize(ins.out);
      for (int k = 0; k < ins.arity && temp_slot[i] < 0; ++k) {
        const Value& v = ins.src[k];
        int* held = v.kind == Value::input  ? &input_slot[v.index]
                    : v.kind == Value::temp ? &temp_slot[v.index]
                                            : nullptr;
        const bool last = v.kind == Value::input  ? input_last[v.index] == i
                          : v.kind == Value::temp ? last_use[v.index] == i
                                                  : false;
        if (held != nullptr && last && *held >= 0 && itemsize(operand_dtype(v)) == size) {
          temp_slot[i] = *held;
          *held = -1 - *held;  // not given back below
        }
      }
      if (temp_slot[i] < 0) temp_slot[i] = take(size);
      dst = static_cast<unsigned>(temp_slot[i]);
    }
    // A hot instruction reads its operands itself: of `fetch`, only kStore counts.
    if (is_inline(i) && ins.out == ins.loop) hot = hot_encoding(ins, tindex, src);
    unsigned fetch = 0, sizes = 0;
    if (is_inline(i) && hot != kNotHot) {
      if (dst != kAcc) fetch = kStore;
    } else if (is_inline(i)) {
      for (int k = 0; k < ins.arity; ++k) {
        const Value& v = ins.src[k];
        const bool from_acc = v.kind == Value::temp && in_acc[v.index];
        unsigned mode;
        if (k == 0) {
          mode = from_acc ? kInAcc : kLoad;
        } else {
          mode = from_acc ? kFromAcc : kLoad;
        }
        fetch |= mode << (2 * k);
        sizes |= static_cast<unsigned>(size_class(itemsize(operand_dtype(v)))) << (2 * k);
      }
      if (dst != kAcc) fetch |= kStore;
      sizes |= static_cast<unsigned>(size_class(itemsize(ins.out))) << 6;
    }
    g.code = static_cast<std::uint16_t>(gpu_code(slot_op, tindex) | hot << kHotShift);
    g.dst = static_cast<std::uint8_t>(dst);
    for (int k = 0; k < 3; ++k) g.src[k] = static_cast<std::uint8_t>(src[k]);
    g.fetch = static_cast<std::uint8_t>(fetch);
    g.sizes = static_cast<std::uint8_t>(sizes);
    // Slots whose last reader this is go back (inputs too).
    for (int k = 0; k < ins.arity; ++k) {
      const Value& v = ins.src[k];
      if (v.kind == Value::input && input_last[v.index] == i && input_slot[v.index] >= 0) {
        free_slots.emplace_back(itemsize(prog.input_dtype[v.index]), input_slot[v.index]);
        input_slot[v.index] = -1 - input_slot[v.index];
      } else if (v.kind == Value::temp && last_use[v.index] == i && temp_slot[v.index] >= 0) {
        free_slots.emplace_back(itemsize(prog.code[v.index].out), temp_slot[v.index]);
        temp_slot[v.index] = -1 - temp_slot[v.index];
      }
    }
  }
  // The output's result is read by no instruction: its slot was never given back.
  p.frame[0].out_src = in_acc[ninstr - 1] ? static_cast<int>(kAcc) : temp_slot[ninstr - 1];
  const int most = std::min(kMaxSlots, gpu_max_shared_memory(device) / kSlotBytes);
  if (nslots > most) {
    *why = std::to_string(nslots) + " values held at once (this GPU's shared memory holds " +
           std::to_string(most) + " of " + std::to_string(kSlotBytes / 1024) + " KiB a block)";
    return false;
  }
  enc->slots = std::max(nslots, 1);
  return true;
}

// Another order of `prog`'s instructions, which may hold fewer values at once than the
// program's own: the results are the same in any order that computes each value before its
// readers (instructions are pure), bit for bit. Greedy: of the instructions whose operands are
// computed, the next is the one that adds the fewest held values (its result, less the operands
// whose last reader it is); ties go to a reader of the previous result (which may then stay in
// the accumulator), then to program order. The output stays last. Writes `out` and returns true
// only where the order differs from the program's.
bool held_values_order(const Program& prog, Program* out) {
  const int n = static_cast<int>(prog.code.size());
  const int nin = static_cast<int>(prog.input_dtype.size());
  // Each instruction's operands other than constants, each once; how many instructions read
  // each value; how many of an instruction's operands are yet to be computed.
  std::vector<std::vector<Value>> reads(n);
  std::vector<int> readers(n, 0), input_readers(nin, 0), pending(n, 0);
  for (int i = 0; i < n; ++i) {
    const Instruction& ins = prog.code[i];
    for (int k = 0; k < ins.arity; ++k) {
      const Value& v = ins.src[k];
      if (v.kind == Value::constant || !first_read(ins, k)) continue;
      reads[i].push_back(v);
      if (v.kind == Value::temp) {
        ++readers[v.index];
        ++pending[i];
      } else {
        ++input_readers[v.index];
      }
    }
  }
  const auto readers_left = [&](const Value& v) -> int& {
    return v.kind == Value::temp ? readers[v.index] : input_readers[v.index];
  };
  std::vector<int> order, position(n, -1);
  order.reserve(n);
  int previous = -1;
  for (int step = 0; step < n; ++step) {
    int best = -1, best_added = 0;
    bool best_chains = false;
    for (int i = 0; i < n; ++i) {
      if (position[i] >= 0 || pending[i] > 0 || (i == n - 1 && step < n - 1)) continue;
      int added = 1;
      bool chains = false;
      for (const Value& v : reads[i]) {
        if (readers_left(v) == 1) --added;
        chains = chains || (v.kind == Value::temp && v.index == previous);
      }
      if (best < 0 || added < best_added || (added == best_added && chains && !best_chains)) {
        best = i;
        best_added = added;
        best_chains = chains;
      }
    }
    if (best < 0) return false;  // not a program in SSA form: keep its order
    for (const Value& v : reads[best]) --readers_left(v);
    for (int i = best + 1; i < n; ++i) {
      for (const Value& v : reads[i]) {
        if (v.kind == Value::temp && v.index == best) --pending[i];
      }
    }
    position[best] = step;
    order.push_back(best);
    previous = best;
  }
  bool same = true;
  for (int j = 0; j < n; ++j) same = same && order[j] == j;
  if (same) return false;
  *out = prog;
  for (int j = 0; j < n; ++j) {
    Instruction ins = prog.code[order[j]];
    for (int k = 0; k < ins.arity; ++k) {
      if (ins.src[k].kind == Value::temp) ins.src[k].index = position[ins.src[k].index];
    }
    out->code[j] = ins;
  }
  return true;
}

}  // namespace

std::shared_ptr<const GpuPlan> gpu_plan(const Program& program, int device, std::string* why) {
  auto plan = std::make_shared<GpuPlan>();
  std::string reason;
  bool ok = encode(program, device, plan.get(), &reason);
  // The program in another order where that holds fewer values (slots) at once: more blocks a
  // multiprocessor, or a program that fits at all.
  Program reordered;
  if (held_values_order(program, &reordered)) {
    auto other = std::make_shared<GpuPlan>();
    std::string other_reason;
    if (encode(reordered, device, other.get(), &other_reason) &&
        (!ok || other->slots < plan->slots)) {
      plan = std::move(other);
      ok = true;
    }
  }
  if (!ok) {
    if (why != nullptr) *why = reason;
    return nullptr;
  }
  plan->nconsts = static_cast<int>(program.const_dtype.size());
  return plan;
}

bool gpu_supports(const Program& program, int device, std::string* why) {
  return gpu_plan(program, device, why) != nullptr;
}

int gpu_slots(const GpuPlan& plan) { return plan.slots; }

void run_cuda(const Program& program, const Layout& L, int device, Stream stream) {
  std::string why;
  const std::shared_ptr<const GpuPlan> plan = gpu_plan(program, device, &why);
  if (!plan) {
    throw_value_error("numcu: internal error: a fused program the GPU cannot run reached it (" +
                      why + ")");
  }
  run_cuda(*plan, program, L, stream);
}

GpuParams gpu_params(const GpuPlan& plan, const Program& program, const Layout& L,
                     std::int64_t* tiles) {
  GpuParams p = plan.params;
  for (int k = 0; k < plan.nconsts; ++k) std::memcpy(p.consts[k], program.constant(k), 16);
  p.n = L.size;
  p.ndim = L.ndim;
  for (int d = 0; d < L.ndim; ++d) p.shape[d] = L.shape[d];
  p.out = L.data[0];
  p.out_size = L.itemsize[0];
  p.out_dense = L.dense[0] ? 1 : 0;
  for (int d = 0; d < L.ndim; ++d) p.out_strides[d] = L.strides[0][d];
  for (int k = 0; k < p.ninputs; ++k) {
    const int i = 1 + k;
    p.in_data[k] = L.data[i];
    p.in_size[k] = L.itemsize[i];
    for (int d = 0; d < L.ndim; ++d) p.in_strides[k][d] = L.strides[i][d];
    if (L.dense[i]) {
      p.in_mode[k] =
          reinterpret_cast<std::uintptr_t>(L.data[i]) % 16 == 0 ? kDense16 : kDenseElements;
    } else {
      p.in_mode[k] = kStrided;
    }
  }
  const std::int64_t tile = static_cast<std::int64_t>(gpu_class_elements(plan.cls)) * kGpuBlock;
  *tiles = (L.size + tile - 1) / tile;
  return p;
}

void add_second_frame(GpuParams& p, int slots) {
  // The inputs' slots are the first ninputs (encode takes them first); the second frame moves
  // them, and every later value that reuses one, past the program's slots.
  const auto moved = [&](unsigned s) {
    return s < static_cast<unsigned>(p.ninputs) ? s + static_cast<unsigned>(slots) : s;
  };
  const GpuFrame& a = p.frame[0];
  GpuFrame& b = p.frame[1];
  for (int i = 0; i < p.ninstr; ++i) {
    GpuInstr g = a.code[i];
    if (g.dst != kAcc) g.dst = static_cast<std::uint8_t>(moved(g.dst));
    for (std::uint8_t& s : g.src) {
      if (s != kAcc && (s & kConstBit) == 0) s = static_cast<std::uint8_t>(moved(s));
    }
    b.code[i] = g;
  }
  for (int k = 0; k < p.ninputs; ++k) b.in_slot[k] = static_cast<std::int32_t>(moved(a.in_slot[k]));
  b.out_src = a.out_src == kAcc ? a.out_src : static_cast<std::int32_t>(moved(a.out_src));
}

int gpu_max_shared_memory(int device) {
  if (device < 0) return 227 * 1024;
  static std::mutex mutex;
  static std::vector<int> known;
  std::lock_guard<std::mutex> lock(mutex);
  if (device >= static_cast<int>(known.size())) known.resize(device + 1, -1);
  if (known[device] < 0) {
    int bytes = 48 * 1024;
    if (cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
        cudaSuccess) {
      cudaGetLastError();
      bytes = 48 * 1024;
    }
    known[device] = bytes;
  }
  return known[device];
}

void prepare_gpu_interpreters(int device) noexcept {
  for (void (*prepare)(int) : {prepare_fused_narrow, prepare_fused_wide, prepare_fused_complex}) {
    try {
      prepare(device);
    } catch (...) {
      cudaGetLastError();
    }
  }
}

bool gpu_prefetch_pays(const GpuParams& p, int without, int with) {
  // (A setting for measurements, read once: NUMCU_FUSED_PREFETCH=0 never, 1 wherever a block
  // fits.)
  static const char forced = [] {
    const char* env = std::getenv("NUMCU_FUSED_PREFETCH");
    return env != nullptr && (env[0] == '0' || env[0] == '1') ? env[0] : '\0';
  }();
  if (forced == '0') return false;
  if (forced == '1') return with > 0;
  return with > 0 && with >= without && p.ninstr >= kPrefetchInstructions * p.ninputs;
}

void run_cuda(const GpuPlan& plan, const Program& program, const Layout& L, Stream stream) {
  if (L.size == 0) return;
  std::int64_t tiles = 0;
  GpuParams p = gpu_params(plan, program, L, &tiles);
  switch (plan.cls) {
    case GpuClass::narrow:
      launch_fused_narrow(p, tiles, plan.slots, stream);
      break;
    case GpuClass::wide:
      launch_fused_wide(p, tiles, plan.slots, stream);
      break;
    default:
      launch_fused_complex(p, tiles, plan.slots, stream);
      break;
  }
}

}  // namespace numcu::fused
