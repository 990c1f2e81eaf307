// The CPU backend's entry points for reductions, the walk that shares a reduction out over
// threads (the loops: reduce_cpu.hpp), and the scans, which are sequential along their line and
// split over threads by lines.
#include "reduce_cpu.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cpu_parallel.hpp"
#include "numcu/errors.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"

namespace numcu {
namespace cpu_reduce {
namespace {

// An accumulator on the stack.
struct AccSlot {
  alignas(std::max_align_t) unsigned char bytes[kMaxAcc];
};

// The subtrees of at most `leaf` elements (leaf >= kPairwiseBlock) of a run's pairwise tree,
// in order, as (first element, elements).
void collect_subtrees(std::int64_t begin, std::int64_t n, std::int64_t leaf,
                      std::vector<std::pair<std::int64_t, std::int64_t>>& out) {
  if (n <= leaf) {
    out.emplace_back(begin, n);
    return;
  }
  const std::int64_t half = pairwise_half(n);
  collect_subtrees(begin, half, leaf, out);
  collect_subtrees(begin + half, n - half, leaf, out);
}

// The tree above those subtrees, combined as pairwise() combines it, into *out.
void combine_subtrees(const ReduceLoop& l, std::int64_t n, std::int64_t leaf,
                      const std::vector<unsigned char>& values, std::size_t& next, void* out) {
  if (n <= leaf) {
    std::memcpy(out, values.data() + next++ * l.acc_size, l.acc_size);
    return;
  }
  const std::int64_t half = pairwise_half(n);
  AccSlot left, right;
  combine_subtrees(l, half, leaf, values, next, left.bytes);
  combine_subtrees(l, n - half, leaf, values, next, right.bytes);
  l.combine(l.reducer, out, left.bytes, right.bytes);
}

// pairwise() of a long run on `team` threads, into *value: the same tree, so the same value.
void pairwise_parallel(const ReduceLoop& l, const char* p, std::int64_t n, std::int64_t stride,
                       std::int64_t k, std::int64_t o, int team, void* value) {
  // About four subtrees a thread, so that uneven ones even out.
  std::int64_t leaf = n / (4 * static_cast<std::int64_t>(team));
  if (leaf < kPairwiseBlock) leaf = kPairwiseBlock;
  std::vector<std::pair<std::int64_t, std::int64_t>> subtrees;
  collect_subtrees(0, n, leaf, subtrees);
  std::vector<unsigned char> values(subtrees.size() * l.acc_size);
  cpu::parallel_for(
      static_cast<std::int64_t>(subtrees.size()), 1,
      [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t j = begin; j < end; ++j) {
          const auto [first, count] = subtrees[static_cast<std::size_t>(j)];
          l.tree(l.reducer, p + first * stride, count, stride, k + first, o,
                 values.data() + j * l.acc_size);
        }
      },
      team);
  std::size_t next = 0;
  combine_subtrees(l, n, leaf, values, next, value);
}

// Elements whose runs' values are found at once before they are folded in order.
constexpr std::int64_t kFoldBatch = std::int64_t{1} << 22;

// Output o's accumulator into *acc, on `team` threads.
void reduce_one_parallel(const ReduceLoop& l, const ReducePlan& p, const char* base, std::int64_t o,
                         int team, void* acc) {
  l.identity(l.reducer, acc);
  const int last = p.red_ndim - 1;
  const std::int64_t inner = p.red_shape[last];
  const std::int64_t stride = p.red_strides[last];
  const std::int64_t runs = p.n_red / inner;
  if (runs == 1 || inner >= 4 * cpu::kGrainReduce) {
    AccSlot value;
    for_runs(p, base, 0, runs, [&](std::int64_t j, const char* ptr) {
      pairwise_parallel(l, ptr, inner, stride, j * inner, o, team, value.bytes);
      l.fold(l.reducer, acc, value.bytes, 1);
    });
    return;
  }
  const std::int64_t batch = kFoldBatch / inner > 1 ? kFoldBatch / inner : 1;
  std::vector<unsigned char> values(static_cast<std::size_t>(runs < batch ? runs : batch) *
                                    l.acc_size);
  for (std::int64_t first = 0; first < runs; first += batch) {
    const std::int64_t count = runs - first < batch ? runs - first : batch;
    cpu::parallel_for(
        count, cpu::kGrainReduce / inner > 1 ? cpu::kGrainReduce / inner : 1,
        [&](std::int64_t begin, std::int64_t end) {
          l.runs(l.reducer, p, base, first + begin, end - begin, o,
                 values.data() + begin * l.acc_size);
        },
        team);
    l.fold(l.reducer, acc, values.data(), count);
  }
}

}  // namespace

void run_reduce(const ReduceLoop& l, const ReducePlan& p) {
  const std::int64_t n_red = p.n_red > 0 ? p.n_red : 1;
  const int team = cpu::team_size(p.n_out * n_red, cpu::kGrainReduce);
  if (team <= 1) {
    l.outputs(l.reducer, p, 0, p.n_out);
    return;
  }
  // Many outputs are shared out whole; a few long ones are each split.
  if (p.n_out >= 4 * team || p.n_red < 4 * cpu::kGrainReduce) {
    const std::int64_t grain = cpu::kGrainReduce / n_red > 1 ? cpu::kGrainReduce / n_red : 1;
    cpu::parallel_for(p.n_out, grain, [&](std::int64_t begin, std::int64_t end) {
      l.outputs(l.reducer, p, begin, end);
    });
    return;
  }
  OutputWalk w(p, 0);
  AccSlot acc;
  for (std::int64_t o = 0; o < p.n_out; ++o, w.next()) {
    reduce_one_parallel(l, p, w.in(), o, team, acc.bytes);
    l.finalize(l.reducer, acc.bytes, o, w.out());
  }
}

}  // namespace cpu_reduce

namespace {

using cpu_reduce::load;
using cpu_reduce::OutputWalk;

// Scanned lines [begin, end), each on the calling thread: a scan is sequential along its line.
template <class S>
void scan_lines(const S& s, const ReducePlan& p, std::int64_t begin, std::int64_t end) {
  using T = typename S::In;
  using Out = typename S::Out;
  OutputWalk w(p, begin);
  for (std::int64_t o = begin; o < end; ++o, w.next()) {
    const char* in = w.in();
    char* out = w.out();
    auto acc = s.identity();
    for (std::int64_t k = 0; k < p.n_red; ++k) {
      acc = s(acc, s.leaf(load<T>(in + k * p.red_strides[0])));
      *reinterpret_cast<Out*>(out + k * p.out_red_stride) = s.finalize(acc);
    }
  }
}

template <class S>
void run_scan(const S& s, const ReducePlan& p) {
  const std::int64_t grain = cpu::kGrainReduce / p.n_red > 1 ? cpu::kGrainReduce / p.n_red : 1;
  cpu::parallel_for(p.n_out, grain,
                    [&](std::int64_t begin, std::int64_t end) { scan_lines(s, p, begin, end); });
}

}  // namespace

void reduce_cpu(ReduceOp op, DType dtype, const ReducePlan& plan, const ReduceParams& params) {
  check_launch(plan, itemsize(dtype), itemsize(reduce_out_dtype(op, dtype)), false, false);
  if (plan.n_out == 0) return;
  switch (op) {
#define NUMCU_CASE(e, R, group, form, result, summary, returns) \
  case ReduceOp::e:                                             \
    return reduce_cpu_##e(dtype, plan, params);
    NUMCU_REDUCTIONS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}

void scan_cpu(ScanOp op, DType dtype, const ReducePlan& plan) {
  check_launch(plan, itemsize(dtype), itemsize(scan_out_dtype(op, dtype)), true, false);
  if (plan.n_out == 0 || plan.n_red == 0) return;
  reduce::visit_scan(op, dtype, [&](const auto& s) { run_scan(s, plan); });
}

}  // namespace numcu
