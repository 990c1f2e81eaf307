// CPU loops of the ufunc group select (where, clip).
#define NUMCU_IN_GROUP_select NUMCU_DEFINE_UFUNC_CPU

#include "cpu_elementwise.hpp"
#include "ufunc_dispatch.hpp"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
