"""Calls a type checker must reject: each line marked ``# error: CODE`` fails with that code."""

import numcu
import numcu.cuda

numcu.add(1.0)  # error: call-arg
numcu.add(x1=1.0, x2=2.0)  # error: call-arg
numcu.sum([1.0, 2.0], axes=0)  # error: call-arg
numcu.asnumpy()  # error: call-arg
numcu.cuda.device_count(0)  # error: call-arg
numcu.cuda.Stream(blocking=False)  # error: call-arg
count: str = numcu.cuda.device_count()  # error: assignment
numcu.no_such_function()  # error: attr-defined
numcu.cuda.no_such_function()  # error: attr-defined
