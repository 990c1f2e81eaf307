// The CPU backend's entry points for reductions (the loops: reduce_cpu.hpp) and its scans,
// which are sequential along their line and split over threads by lines.
#include "reduce_cpu.hpp"

#include <cstdint>

#include "cpu_parallel.hpp"
#include "numcu/launch_check.hpp"
#include "numcu/reduce.hpp"
#include "numcu/reducers.hpp"

namespace numcu {
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
#define NUMCU_CASE(e, R) \
  case ReduceOp::e:      \
    return reduce_cpu_##e(dtype, plan, params);
    NUMCU_REDUCE_OPS(NUMCU_CASE)
#undef NUMCU_CASE
  }
}
void scan_cpu(ScanOp op, DType dtype, const ReducePlan& plan) {
  check_launch(plan, itemsize(dtype), itemsize(scan_out_dtype(op, dtype)), true, false);
  if (plan.n_out == 0 || plan.n_red == 0) return;
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define NUMCU_CASE(e, S) \
  case ScanOp::e:        \
    return run_scan(reduce::S<T>{}, plan);
      NUMCU_SCAN_OPS(NUMCU_CASE)
#undef NUMCU_CASE
    }
  });
}

}  // namespace numcu
