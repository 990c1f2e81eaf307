// The CPU backend's one switch over the ufuncs; the loops are in ufunc_cpu_*.cpp.
#include <cstring>
#include <vector>

#include "numcu/backend.hpp"
#include "ufunc_dispatch.hpp"

namespace numcu {

namespace {

// The plan of out = in for operand `i` of `plan` into (or, with `back`, from) a dense float32
// copy at `dense`.
template <int N>
ElementwisePlan<2> copy_plan(const ElementwisePlan<N>& plan, int i, float* dense,
                             const std::int64_t* dense_strides, bool back) {
  ElementwisePlan<2> c;
  c.size = plan.size;
  c.ndim = plan.ndim;
  c.contiguous = plan.contiguous;
  const int to = back ? 1 : 0;
  for (int d = 0; d < plan.ndim; ++d) {
    c.shape[d] = plan.shape[d];
    c.strides[to][d] = dense_strides[d];
    c.strides[1 - to][d] = plan.strides[i][d];
  }
  c.data[to] = reinterpret_cast<char*>(dense);
  c.data[1 - to] = plan.data[i];
  return c;
}

// A bfloat16 ufunc on the CPU: the float32 loop over float32 copies of the bfloat16 operands,
// its result rounded to bfloat16 once, which is what a bfloat16 loop computes (every functor
// computes bfloat16 in float32). The module then holds casts for bfloat16 on the CPU, not a
// loop per ufunc. The inputs are all read before the output is written, so aliasing is safe.
template <int N>
void ufunc_cpu_bfloat16(Ufunc op, const ElementwisePlan<N>& plan, const OpParams& params) {
  if (plan.size == 0) return;
  const bool narrow_out = ufunc_out_dtype(op, DType::bfloat16) == DType::bfloat16;
  const int first = ufunc_info(op).condition_first ? 2 : 1;  // where's condition stays bool
  std::int64_t dense[kMaxKernelDims] = {};
  std::int64_t step = static_cast<std::int64_t>(sizeof(float));
  for (int d = plan.ndim - 1; d >= 0; --d) {
    dense[d] = step;
    step *= plan.shape[d];
  }
  ElementwisePlan<N> wide = plan;
  std::vector<float> copies[N];
  const auto use_copy = [&](int i) {
    copies[i].resize(static_cast<std::size_t>(plan.size));
    wide.data[i] = reinterpret_cast<char*>(copies[i].data());
    for (int d = 0; d < plan.ndim; ++d) wide.strides[i][d] = dense[d];
  };
  for (int i = first; i < N; ++i) {
    if ((plan.scalar_mask >> i) & 1u) {
      bfloat16 b;
      std::memcpy(static_cast<void*>(&b), plan.scalars[i], sizeof b);
      const float f = convert<float>(b);
      std::memcpy(wide.scalars[i], &f, sizeof f);
    } else {
      use_copy(i);
      cast_cpu(DType::float32, DType::bfloat16, copy_plan(plan, i, copies[i].data(), dense, false));
    }
  }
  if (narrow_out) use_copy(0);
  ufunc_cpu<N>(op, DType::float32, wide, params);
  if (narrow_out) {
    cast_cpu(DType::bfloat16, DType::float32, copy_plan(plan, 0, copies[0].data(), dense, true));
  }
}

}  // namespace

template <int N>
void ufunc_cpu(Ufunc op, DType loop, const ElementwisePlan<N>& plan, const OpParams& params) {
  if (loop == DType::bfloat16) return ufunc_cpu_bfloat16<N>(op, plan, params);
  switch (op) {
#define NUMCU_CASE(e, F, group, cost, doc)                                     \
  case Ufunc::e:                                                               \
    if constexpr (F::arity + 1 == N) return ufunc_cpu_##e(loop, plan, params); \
    break;
    NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  throw_value_error(std::string(ufunc_info(op).fname) + ": called with " + std::to_string(N - 1) +
                    " inputs");
}

template void ufunc_cpu<2>(Ufunc, DType, const ElementwisePlan<2>&, const OpParams&);
template void ufunc_cpu<3>(Ufunc, DType, const ElementwisePlan<3>&, const OpParams&);
template void ufunc_cpu<4>(Ufunc, DType, const ElementwisePlan<4>&, const OpParams&);

}  // namespace numcu
