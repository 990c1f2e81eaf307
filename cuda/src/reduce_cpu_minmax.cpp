// CPU loops of the reductions min, max, nanmin and nanmax.
#include "reduce_cpu.hpp"

NUMCU_DEFINE_REDUCE_CPU(min, Min)
NUMCU_DEFINE_REDUCE_CPU(max, Max)
NUMCU_DEFINE_REDUCE_CPU(nanmin, NanMin)
NUMCU_DEFINE_REDUCE_CPU(nanmax, NanMax)
