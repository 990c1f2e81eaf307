// CPU loops of the reductions argmin, argmax, any, all and count_nonzero.
#include "reduce_cpu.hpp"

NUMCU_DEFINE_REDUCE_CPU(argmin, ArgMin)
NUMCU_DEFINE_REDUCE_CPU(argmax, ArgMax)
NUMCU_DEFINE_REDUCE_CPU(any, Any)
NUMCU_DEFINE_REDUCE_CPU(all, All)
NUMCU_DEFINE_REDUCE_CPU(count_nonzero, CountNonzero)
