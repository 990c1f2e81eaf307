// The CPU backend of fused programs (fused.hpp), numexpr's way: the output's elements in blocks
// of kBlock, shared out over the CPU threads; in each block every instruction runs over the whole
// block with the ufunc table's own CPU loops (ufunc_cpu and cast_cpu on a dense plan of the
// block: the vectorised loops the ufunc calls run), its values in buffers of the thread a few
// KiB each, which stay in its caches. Dense inputs are read where they are and a dense output is
// written in place; strided and broadcast operands are gathered into (or scattered from) a
// buffer a row at a time.
//
// Blocks begin at multiples of kBlock, the grid on which the ufunc calls split their loops of
// glibc's vector math (cpu_parallel.hpp's parallel_for_elements), so that an element of a
// contiguous operand is computed by the same vector or scalar code as in the unfused call.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu_elementwise.hpp"
#include "cpu_parallel.hpp"
#include "numcu/backend.hpp"
#include "numcu/cpu_threads.hpp"
#include "numcu/errors.hpp"
#include "numcu/fused.hpp"

namespace numcu::fused {
namespace {

constexpr std::int64_t kBlock = 4096;

// out[k] = F(in...[k]) for an extra (fused.hpp's functions that are not ufuncs), k < n, on
// dense operands (a scalar input where its bit of `scalars` is set, its value at in[i]).
template <int N>
void run_extra(int op, DType loop, const ElementwisePlan<N>& p) {
  visit_dtype(loop, [&](auto dtag) {
    using T = typename decltype(dtag)::type;
    switch (static_cast<Extra>(op - kFirstExtra)) {
#define NUMCU_CASE(e, F)                                                                   \
  case Extra::e:                                                                           \
    if constexpr (F::arity + 1 == N && F::template supports<T> && !is_narrow_float_v<T>) { \
      using Out = typename F::template out_t<T>;                                           \
      Out* out = reinterpret_cast<Out*>(p.data[0]);                                        \
      const F f{};                                                                         \
      const auto in = [&](int i, std::int64_t k) {                                         \
        T v;                                                                               \
        if ((p.scalar_mask >> i) & 1u) {                                                   \
          std::memcpy(static_cast<void*>(&v), p.scalars[i], sizeof(T));                    \
        } else {                                                                           \
          std::memcpy(static_cast<void*>(&v), p.data[i] + k * sizeof(T), sizeof(T));       \
        }                                                                                  \
        return v;                                                                          \
      };                                                                                   \
      for (std::int64_t k = 0; k < p.size; ++k) {                                          \
        if constexpr (N == 2) {                                                            \
          out[k] = convert<Out>(f(in(1, k)));                                              \
        } else {                                                                           \
          out[k] = convert<Out>(f(in(1, k), in(2, k)));                                    \
        }                                                                                  \
      }                                                                                    \
      return;                                                                              \
    }                                                                                      \
    break;
      NUMCU_FUSED_EXTRAS(NUMCU_CASE)
#undef NUMCU_CASE
    }
    throw_type_error(std::string("numcu: ") + op_info(op).name + ": no CPU loop for dtype " +
                     dtype_name(loop));
  });
}

// One instruction's plan over a block: its N operands (the result, then the inputs), patched
// with the block's pointers before each run.
struct Step {
  const Instruction* ins = nullptr;
  int n = 0;  // operands
  ElementwisePlan<2> p2;
  ElementwisePlan<3> p3;
  ElementwisePlan<4> p4;
};

template <int N>
void run_step(const Instruction& ins, const ElementwisePlan<N>& p) {
  if (ins.op == kCastOp) {
    if constexpr (N == 2) cast_cpu(ins.out, ins.loop, p);
  } else if (ins.op >= kFirstExtra) {
    run_extra<N>(ins.op, ins.loop, p);
  } else {
    ufunc_cpu<N>(static_cast<Ufunc>(ins.op), ins.loop, p, ins.params);
  }
}

// Copies between an operand's elements [begin, end) (strided, C order of the layout's shape)
// and a dense buffer, a row at a time (cpu_elementwise.hpp's walk_rows).
struct Strided {
  ElementwisePlan<2> plan;  // operand 0: the dense run (C-contiguous strides), 1: the operand
  int size = 0;
};

Strided strided_of(const Layout& L, int i) {
  Strided s;
  s.size = L.itemsize[i];
  s.plan.size = L.size;
  s.plan.ndim = L.ndim;
  std::int64_t step = s.size;
  for (int d = L.ndim - 1; d >= 0; --d) {
    s.plan.shape[d] = L.shape[d];
    s.plan.strides[0][d] = step;
    s.plan.strides[1][d] = L.strides[i][d];
    step *= L.shape[d];
  }
  s.plan.data[1] = L.data[i];
  return s;
}

// The body of one strided copy (walk_rows passes row starts, not strides).
struct StridedCopy {
  int size;
  std::int64_t stride;  // the operand's innermost stride
  bool gather;
  static void row(const void* body, char* const* at, std::int64_t count) {
    const StridedCopy& c = *static_cast<const StridedCopy*>(body);
    char* run = at[0];
    char* x = at[1];
    const std::int64_t size = c.size;
    if (c.stride == size) {
      if (c.gather) {
        std::memcpy(run, x, static_cast<std::size_t>(count * size));
      } else {
        std::memcpy(x, run, static_cast<std::size_t>(count * size));
      }
      return;
    }
    for (std::int64_t k = 0; k < count; ++k) {
      if (c.gather) {
        std::memcpy(run + k * size, x + k * c.stride, static_cast<std::size_t>(size));
      } else {
        std::memcpy(x + k * c.stride, run + k * size, static_cast<std::size_t>(size));
      }
    }
  }
};

void copy_block(const Strided& s, char* buffer, std::int64_t begin, std::int64_t end, bool gather) {
  ElementwisePlan<2> p = s.plan;
  // The dense run's element e is buffer[e - begin].
  p.data[0] = buffer - begin * s.size;
  StridedCopy c{s.size, p.ndim > 0 ? p.strides[1][p.ndim - 1] : 0, gather};
  if (p.ndim == 0) {
    if (gather) {
      std::memcpy(buffer, p.data[1], static_cast<std::size_t>(s.size));
    } else {
      std::memcpy(p.data[1], buffer, static_cast<std::size_t>(s.size));
    }
    return;
  }
  cpu::walk_rows<2>(p, begin, end, &StridedCopy::row, &c);
}

// Per thread: the buffers of a block's values, kept between calls.
std::vector<unsigned char>& thread_buffer() {
  thread_local std::vector<unsigned char> buffer;
  return buffer;
}

}  // namespace

void run_cpu(const Program& prog, const Layout& L) {
  if (L.size == 0) return;
  const int nin = static_cast<int>(prog.input_dtype.size());
  const int ninstr = static_cast<int>(prog.code.size());

  // Buffers of a block: each instruction's result (reused once its last reader has run), the
  // gathered strided inputs, and the output's when it is strided.
  std::vector<int> last_use(ninstr, -1);
  for (int i = 0; i < ninstr; ++i) {
    for (int k = 0; k < prog.code[i].arity; ++k) {
      const Value& v = prog.code[i].src[k];
      if (v.kind == Value::temp) last_use[v.index] = i;
    }
  }
  const bool dense_out = L.dense[0];
  std::vector<std::int64_t> temp_offset(ninstr, -1);
  std::vector<std::int64_t> input_offset(nin, -1);
  std::int64_t bytes = 0;
  const auto block_bytes = [](DType d) {
    return (kBlock * itemsize(d) + 63) / 64 * 64;  // cache-line aligned
  };
  for (int k = 0; k < nin; ++k) {
    if (!L.dense[1 + k]) {
      input_offset[k] = bytes;
      bytes += block_bytes(prog.input_dtype[k]);
    }
  }
  {
    // Free buffers by size, for reuse.
    std::vector<std::pair<std::int64_t, std::int64_t>> free_list;  // (bytes, offset)
    for (int i = 0; i < ninstr; ++i) {
      const bool last = i == ninstr - 1;
      if (!(last && dense_out)) {
        const std::int64_t need = block_bytes(prog.code[i].out);
        auto it = std::find_if(free_list.begin(), free_list.end(),
                               [&](const auto& f) { return f.first >= need; });
        if (it != free_list.end()) {
          temp_offset[i] = it->second;
          free_list.erase(it);
        } else {
          temp_offset[i] = bytes;
          bytes += need;
        }
      }
      for (int k = 0; k < prog.code[i].arity; ++k) {
        const Value& v = prog.code[i].src[k];
        if (v.kind == Value::temp && last_use[v.index] == i && temp_offset[v.index] >= 0) {
          free_list.emplace_back(block_bytes(prog.code[v.index].out), temp_offset[v.index]);
          temp_offset[v.index] = -2 - temp_offset[v.index];  // freed, offset kept encoded
        }
      }
    }
    for (int i = 0; i < ninstr; ++i) {
      if (temp_offset[i] <= -2) temp_offset[i] = -2 - temp_offset[i];
    }
  }

  // The plans of the steps, every operand dense with its item size as stride.
  std::vector<Step> steps(ninstr);
  bool costly = false;
  for (int i = 0; i < ninstr; ++i) {
    const Instruction& ins = prog.code[i];
    Step& s = steps[i];
    s.ins = &ins;
    s.n = ins.arity + 1;
    if (ins.op != kCastOp && op_info(ins.op).costly) costly = true;
    const auto setup = [&](auto& p) {
      p.ndim = 1;
      p.contiguous = true;
      p.strides[0][0] = itemsize(ins.out);
      for (int k = 0; k < ins.arity; ++k) {
        const Value& v = ins.src[k];
        const DType d = v.kind == Value::input      ? prog.input_dtype[v.index]
                        : v.kind == Value::constant ? prog.const_dtype[v.index]
                                                    : prog.code[v.index].out;
        p.strides[1 + k][0] = itemsize(d);
        if (v.kind == Value::constant) {
          p.scalar_mask |= 1u << (1 + k);
          std::memcpy(p.scalars[1 + k], prog.constant(v.index), 16);
        }
      }
    };
    if (s.n == 2) setup(s.p2);
    if (s.n == 3) setup(s.p3);
    if (s.n == 4) setup(s.p4);
  }
  std::vector<Strided> strided(1 + nin);
  for (int i = 0; i < 1 + nin; ++i) {
    if (!L.dense[i]) strided[i] = strided_of(L, i);
  }
  // The output of a strided layout comes from the last instruction's buffer.
  const std::int64_t grain =
      costly ? cpu::kGrainCostly : std::max<std::int64_t>(kBlock, cpu::kGrainElementwise / ninstr);

  cpu::parallel_for_elements<kBlock>(L.size, grain, [&](std::int64_t begin, std::int64_t end) {
    const std::int64_t len = end - begin;
    std::vector<unsigned char>& buffer = thread_buffer();
    if (static_cast<std::int64_t>(buffer.size()) < bytes + 64) {
      buffer.resize(static_cast<std::size_t>(bytes + 64));
    }
    // 64-byte aligned base.
    unsigned char* base = buffer.data();
    base += (64 - reinterpret_cast<std::uintptr_t>(base) % 64) % 64;
    const auto at_input = [&](int k) -> char* {
      if (L.dense[1 + k]) return L.data[1 + k] + begin * L.itemsize[1 + k];
      return reinterpret_cast<char*>(base + input_offset[k]);
    };
    for (int k = 0; k < nin; ++k) {
      if (!L.dense[1 + k]) copy_block(strided[1 + k], at_input(k), begin, end, true);
    }
    for (int i = 0; i < ninstr; ++i) {
      const Step& s = steps[i];
      const Instruction& ins = *s.ins;
      char* out = temp_offset[i] >= 0 ? reinterpret_cast<char*>(base + temp_offset[i])
                                      : L.data[0] + begin * L.itemsize[0];
      // A copy of the step's plan: the steps are shared by the threads.
      const auto patch = [&](auto p) {
        p.size = len;
        p.shape[0] = len;
        p.data[0] = out;
        for (int k = 0; k < ins.arity; ++k) {
          const Value& v = ins.src[k];
          if (v.kind == Value::input) {
            p.data[1 + k] = at_input(v.index);
          } else if (v.kind == Value::temp) {
            p.data[1 + k] = reinterpret_cast<char*>(base + temp_offset[v.index]);
          }
        }
        run_step(ins, p);
      };
      if (s.n == 2) {
        patch(s.p2);
      } else if (s.n == 3) {
        patch(s.p3);
      } else {
        patch(s.p4);
      }
    }
    if (!dense_out) {
      copy_block(strided[0], reinterpret_cast<char*>(base + temp_offset[ninstr - 1]), begin, end,
                 false);
    }
  });
}

}  // namespace numcu::fused
