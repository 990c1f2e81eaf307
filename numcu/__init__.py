"""numcu: GPU array kernels for the arrays you already have.

NumPy arrays, numcu device arrays and anything with ``__cuda_array_interface__`` (CuPy,
PyTorch, Numba) go in; every NumPy numeric dtype, broadcasting and any strides are taken.
Host data runs on the GPU when there is one, else on the CPU backend.
"""

from ._load import load_core

_core = load_core()

# NumPy's elementwise functions by NumPy's names, as _core binds them from numcu's one list of
# ufuncs (ops.hpp's NUMCU_UFUNCS).
UFUNCS = _core.ufuncs
globals().update({name: getattr(_core, name) for name in UFUNCS})

__version__ = _core.__version__
mul = _core.mul
div = _core.div
where = _core.where
clip = _core.clip
astype = _core.astype
ndarray = _core.ndarray
asarray = _core.asarray
build_info = _core.build_info
dtypes = _core.dtypes

from . import cuda  # noqa: E402


def asnumpy(a):
    """A NumPy array for `a`: a copy from the GPU for a numcu.ndarray, else numpy.asarray(a)."""
    if isinstance(a, ndarray):
        return a.get()
    import numpy

    return numpy.asarray(a)


__all__ = [
    *UFUNCS,
    "asarray",
    "asnumpy",
    "astype",
    "build_info",
    "clip",
    "cuda",
    "div",
    "dtypes",
    "mul",
    "ndarray",
    "where",
]
