// CPU loops of the ufunc groups: trig atrig hyp.
#define NUMCU_IN_GROUP_trig NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_atrig NUMCU_DEFINE_UFUNC_CPU
#define NUMCU_IN_GROUP_hyp NUMCU_DEFINE_UFUNC_CPU

#include "cpu_elementwise.hpp"
#include "ufunc_dispatch.hpp"

NUMCU_UFUNCS(NUMCU_SELECT_GROUP)
