// CPU loops of the reductions sum, prod, mean and their nan-functions, and the second pass of var
// and std.
#include "reduce_cpu.hpp"

NUMCU_DEFINE_REDUCE_CPU(sum, Sum)
NUMCU_DEFINE_REDUCE_CPU(prod, Prod)
NUMCU_DEFINE_REDUCE_CPU(mean, Mean)
NUMCU_DEFINE_REDUCE_CPU(nansum, NanSum)
NUMCU_DEFINE_REDUCE_CPU(nanprod, NanProd)
NUMCU_DEFINE_REDUCE_CPU(nanmean, NanMean)
NUMCU_DEFINE_REDUCE_CPU(sqdev, SqDev)
