// CPU loops of the ufunc groups: intdiv minmax.
#define NUMCU_IN_GROUP_intdiv NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_minmax NUMCU_DEFINE_UFUNC_CPU

#include "cpu_elementwise.hpp"
#include "ufunc_dispatch.hpp"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
