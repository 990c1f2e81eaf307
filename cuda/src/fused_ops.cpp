// The ops of fused programs (fused.hpp): the ufunc table's, the extras, and the cast, asked at
// run time. Every answer comes from the functors' own traits, as ufunc_info's do.
#include <string>
#include <type_traits>

#include "fused_gpu.hpp"
#include "numcu/errors.hpp"
#include "numcu/fused.hpp"
#include "numcu/ops.hpp"

namespace numcu::fused {
namespace {

template <class F>
constexpr bool costly_functor() {
  return std::is_base_of_v<ops::FloatLoop, F> ||
         is_any_of_v<F, ops::Power, ops::FloorDivide, ops::Remainder, ops::Divide, ops::DivDefault>;
}

template <class F>
constexpr OpInfo extra_info(const char* name) {
  return OpInfo{name, F::arity, F::condition_first, F::loop_per_input, costly_functor<F>()};
}

// Calls f(type_tag<F>{}) with the functor of op (not the cast).
template <class Fn>
decltype(auto) visit_op(int op, Fn&& f) {
  if (op < kNumUfuncs) {
    switch (static_cast<Ufunc>(op)) {
#define NUMCU_CASE(e, F, group, cost, doc) \
  case Ufunc::e:                           \
    return f(type_tag<F>{});
      NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
    }
  }
  switch (static_cast<Extra>(op - kFirstExtra)) {
#define NUMCU_CASE(e, F) \
  case Extra::e:         \
    return f(type_tag<F>{});
    NUMCU_FUSED_EXTRAS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  return f(type_tag<ops::Copy>{});  // unreachable for valid ops
}

// Calls f(type_tag<F>{}, type_tag<T>{}) with the functor of op (not the cast) and the element
// type of `loop`.
template <class Fn>
decltype(auto) visit_op_loop(int op, DType loop, Fn&& f) {
  return visit_dtype(
      loop, [&](auto dtag) { return visit_op(op, [&](auto tag) { return f(tag, dtag); }); });
}

}  // namespace

const OpInfo& op_info(int op) {
  static const OpInfo kInfo[kNumOps] = {
#define NUMCU_INFO(e, F, group, cost, doc) \
  OpInfo{#e, F::arity, F::condition_first, F::loop_per_input, costly_functor<F>()},
      NUMCU_UFUNCS(NUMCU_INFO)
#undef NUMCU_INFO
#define NUMCU_INFO(e, F) extra_info<F>(#e),
          NUMCU_FUSED_EXTRAS(NUMCU_INFO)
#undef NUMCU_INFO
              OpInfo{"astype", 1, false, false, false},
  };
  return kInfo[op];
}

DType op_loop_dtype(int op, DType promoted) {
  if (op == kCastOp) return promoted;
  return visit_op(op, [&](auto tag) {
    using F = typename decltype(tag)::type;
    return F::loop_dtype(promoted);
  });
}

bool op_supports(int op, DType loop) {
  if (op == kCastOp) return true;
  return visit_op_loop(op, loop, [](auto tag, auto dtag) {
    using F = typename decltype(tag)::type;
    return F::template supports<typename decltype(dtag)::type>;
  });
}

DType op_out_dtype(int op, DType loop) {
  return visit_op_loop(op, loop, [&](auto tag, auto dtag) {
    using F = typename decltype(tag)::type;
    using T = typename decltype(dtag)::type;
    if constexpr (F::template supports<T>) {
      return dtype_of_v<typename F::template out_t<T>>;
    } else {
      return loop;
    }
  });
}

bool op_takes_params(int op) {
  if (op == kCastOp) return false;
  return visit_op(op, [&](auto tag) {
    using F = typename decltype(tag)::type;
    return std::is_constructible_v<F, const OpParams&>;
  });
}

#if !NUMCU_WITH_CUDA
// A CPU-only build: no GPU plan, and nothing reaches the GPU.
std::shared_ptr<const GpuPlan> gpu_plan(const Program&, int, std::string* why) {
  if (why != nullptr) *why = "this numcu was built without CUDA";
  return nullptr;
}
bool gpu_supports(const Program& program, int device, std::string* why) {
  return gpu_plan(program, device, why) != nullptr;
}
int gpu_slots(const GpuPlan&) { return 0; }
void run_cuda(const GpuPlan&, const Program&, const Layout&, Stream) {
  throw_value_error("numcu: internal error: a fused program reached the GPU of a CPU-only build");
}
void run_cuda(const Program&, const Layout&, int, Stream) {
  throw_value_error("numcu: internal error: a fused program reached the GPU of a CPU-only build");
}
#endif

bool op_gpu_rolled(int op, DType loop) {
  if (op == kCastOp) return false;
  return visit_op_loop(op, loop, [](auto tag, auto dtag) {
    return gpu_rolled<typename decltype(tag)::type, typename decltype(dtag)::type>();
  });
}

}  // namespace numcu::fused
