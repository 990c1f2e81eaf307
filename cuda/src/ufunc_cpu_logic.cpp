// CPU loops of the ufunc groups: logic compare select round.
#define NUMCU_IN_GROUP_logic NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_compare NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_select NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_round NUMCU_DEFINE_UFUNC_CPU

#include "cpu_elementwise.hpp"
#include "ufunc_dispatch.hpp"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
