// CPU loops of the reduction group "sum" (see NUMCU_REDUCTIONS).
#define NUMCU_REDUCE_IN_GROUP_sum NUMCU_DEFINE_REDUCE_CPU

#include "reduce_cpu.hpp"

NUMCU_REDUCTIONS(NUMCU_REDUCE_SELECT_GROUP)
