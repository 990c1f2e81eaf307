// CPU loops of the ufunc groups: arith addsub muldiv.
#define NUMCU_IN_GROUP_arith NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_addsub NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_muldiv NUMCU_DEFINE_UFUNC_CPU

#include "cpu_elementwise.hpp"
#include "ufunc_dispatch.hpp"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
