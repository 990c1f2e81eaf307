"""numcu: GPU array kernels for the arrays you already have.

NumPy arrays, numcu device arrays and anything with ``__cuda_array_interface__`` (CuPy,
PyTorch, Numba) go in; every NumPy numeric dtype, broadcasting and any strides are taken.
Host data runs on the GPU when there is one, else on the CPU backend.
"""

import os as _os
import sys as _sys

from ._load import load_core

_core = load_core()

# NumPy's elementwise functions, reductions and scans by NumPy's names, as _core binds them from
# numcu's tables (ops.hpp's NUMCU_UFUNCS, reduce.hpp's NUMCU_REDUCTIONS and NUMCU_SCANS).
# The reductions shadow the builtins sum, min, max, any and all here, as NumPy's names do.
UFUNCS = _core.ufuncs
REDUCTIONS = _core.reductions + _core.scans
globals().update({name: getattr(_core, name) for name in UFUNCS + REDUCTIONS})


__version__ = _core.__version__
mul = _core.mul
div = _core.div
where = _core.where
clip = _core.clip
astype = _core.astype
ndarray = _core.ndarray
asarray = _core.asarray
asnumpy = _core.asnumpy
from_dlpack = _core.from_dlpack
empty = _core.empty
zeros = _core.zeros
ones = _core.ones
full = _core.full
empty_like = _core.empty_like
zeros_like = _core.zeros_like
ones_like = _core.ones_like
full_like = _core.full_like
arange = _core.arange
linspace = _core.linspace
build_info = _core.build_info
set_num_threads = _core.set_num_threads
get_num_threads = _core.get_num_threads
threading_info = _core.threading_info
dtypes = _core.dtypes

from . import _methods, _pickle, cuda, random  # noqa: E402

ndarray.__reduce__ = _pickle.reduce
_methods.install(ndarray)

# The Array API standard (2025.12): numcu's kernels of its own (sort, take, ...) and the
# standard's names and compositions from _array_api.py. numcu.ndarray.__array_namespace__()
# returns this module. The dtype names shadow the builtin bool here, as NumPy's do.
sort = _core.sort
argsort = _core.argsort
searchsorted = _core.searchsorted
take_along_axis = _core.take_along_axis
from . import _array_api  # noqa: E402

take = _array_api.take

# Fused expressions: numexpr's evaluate and cupy's fuse, with no compiler at run time.
from . import _fusion  # noqa: E402
from ._fusion import evaluate, fuse  # noqa: E402

globals().update({name: getattr(_array_api, name) for name in _array_api.NAMESPACE})
# numcu.ndarray's protocol methods, and what _core hands over to Python, handed this module;
# so is the fused functions' tracing, which matches a function's references to numcu's.
_array_api.install(_sys.modules[__name__])
_fusion.install(_sys.modules[__name__])

from . import fft, linalg  # noqa: E402  (the standard's extensions, numpy.fft and numpy.linalg)
from ._placement import Placement as _Placement  # noqa: E402

#: Where host-only calls run without ``device=``: see ``numcu._placement``.
placement = _Placement(_core, _sys.modules[__name__])

#: Folder of numcu's C++/CUDA headers (``#include <numcu/dtype.hpp>``).
include_path = _os.path.join(_os.path.dirname(_core.__file__), "include")
#: Prefix for CMake's ``find_package(numcu)`` (target ``numcu::headers``).
cmake_prefix = _os.path.join(_os.path.dirname(_core.__file__), "share", "cmake")


__all__ = [
    *UFUNCS,
    *REDUCTIONS,
    *(name for name in _array_api.NAMESPACE if not name.startswith("__")),
    "argsort",
    "searchsorted",
    "sort",
    "take",
    "take_along_axis",
    "arange",
    "asarray",
    "asnumpy",
    "astype",
    "build_info",
    "clip",
    "cmake_prefix",
    "cuda",
    "div",
    "fft",
    "linalg",
    "dtypes",
    "empty",
    "empty_like",
    "evaluate",
    "from_dlpack",
    "full",
    "full_like",
    "fuse",
    "get_num_threads",
    "include_path",
    "linspace",
    "mul",
    "ndarray",
    "ones",
    "ones_like",
    "placement",
    "random",
    "set_num_threads",
    "threading_info",
    "where",
    "zeros",
    "zeros_like",
]
