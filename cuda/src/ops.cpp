#include "numcu/ops.hpp"

namespace numcu {

const UfuncInfo& ufunc_info(Ufunc op) {
  static constexpr UfuncInfo kInfo[] = {
#define NUMCU_INFO(e, F, group, cost, doc)                                                    \
  UfuncInfo{#e,         "numcu." #e,    doc, F::arity, F::condition_first, F::loop_per_input, \
            F::binding, CostClass::cost},
      NUMCU_UFUNCS(NUMCU_INFO)
#undef NUMCU_INFO
  };
  return kInfo[static_cast<int>(op)];
}

DType ufunc_loop_dtype(Ufunc op, DType promoted) {
  switch (op) {
#define NUMCU_CASE(e, F, group, cost, doc) \
  case Ufunc::e:                           \
    return F::loop_dtype(promoted);
    NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  return promoted;
}

namespace {

// What a ufunc's functor answers per loop dtype, tabulated once: the pipeline asks on every call.
struct UfuncDTypes {
  PerDType<bool> supports;
  PerDType<DType> out;
};

template <class F>
constexpr UfuncDTypes ufunc_dtypes() {
  UfuncDTypes u{};
  u.supports =
      per_dtype([](auto tag) { return F::template supports<typename decltype(tag)::type>; });
  u.out = per_dtype([](auto tag) {
    return dtype_of_v<typename F::template out_t<typename decltype(tag)::type>>;
  });
  return u;
}

constexpr UfuncDTypes kUfuncDTypes[] = {
#define NUMCU_ROW(e, F, group, cost, doc) ufunc_dtypes<F>(),
    NUMCU_UFUNCS(NUMCU_ROW)
#undef NUMCU_ROW
};

}  // namespace

bool ufunc_supports(Ufunc op, DType loop) {
  return kUfuncDTypes[static_cast<int>(op)].supports[loop];
}

DType ufunc_out_dtype(Ufunc op, DType loop) { return kUfuncDTypes[static_cast<int>(op)].out[loop]; }

}  // namespace numcu
