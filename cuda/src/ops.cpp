#include "numcu/ops.hpp"

namespace numcu {

const UfuncInfo& ufunc_info(Ufunc op) {
  static constexpr UfuncInfo kInfo[] = {
#define NUMCU_INFO(e, F, group, doc) \
  UfuncInfo{#e, "numcu." #e, doc, F::arity, F::condition_first, F::loop_per_input, F::binding},
      NUMCU_UFUNCS(NUMCU_INFO)
#undef NUMCU_INFO
  };
  return kInfo[static_cast<int>(op)];
}

DType ufunc_loop_dtype(Ufunc op, DType promoted) {
  switch (op) {
#define NUMCU_CASE(e, F, group, doc) \
  case Ufunc::e:                     \
    return F::loop_dtype(promoted);
    NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  return promoted;
}

bool ufunc_supports(Ufunc op, DType loop) {
  return visit_dtype(loop, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define NUMCU_CASE(e, F, group, doc) \
  case Ufunc::e:                     \
    return F::template supports<T>;
      NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
    }
    return false;
  });
}

DType ufunc_out_dtype(Ufunc op, DType loop) {
  return visit_dtype(loop, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
#define NUMCU_CASE(e, F, group, doc) \
  case Ufunc::e:                     \
    return dtype_of_v<typename F::template out_t<T>>;
      NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
    }
    return loop;
  });
}

}  // namespace numcu
