#include "numcu/ops.hpp"

namespace numcu {

UfuncInfo ufunc_info(Ufunc op) {
  switch (op) {
#define NUMCU_CASE(e, F, group) \
  case Ufunc::e:                \
    return UfuncInfo{F::name, F::arity, F::condition_first, F::loop_per_input};
    NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
  }
  return UfuncInfo{"?", 0, false, false};
}

DType ufunc_loop_dtype(Ufunc op, DType promoted) {
  switch (op) {
#define NUMCU_CASE(e, F, group) \
  case Ufunc::e:                \
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
#define NUMCU_CASE(e, F, group) \
  case Ufunc::e:                \
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
#define NUMCU_CASE(e, F, group) \
  case Ufunc::e:                \
    return dtype_of_v<typename F::template out_t<T>>;
      NUMCU_UFUNCS(NUMCU_CASE)
#undef NUMCU_CASE
    }
    return loop;
  });
}

}  // namespace numcu
