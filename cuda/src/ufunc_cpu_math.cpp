// CPU loops of the ufunc groups: exp log.
#define NUMCU_IN_GROUP_exp NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_log NUMCU_DEFINE_UFUNC_CPU

#include "cpu_elementwise.hpp"
#include "ufunc_dispatch.hpp"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
