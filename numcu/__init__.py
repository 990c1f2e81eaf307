"""numcu: GPU array kernels for the arrays you already have.

NumPy arrays, numcu device arrays and anything with ``__cuda_array_interface__`` (CuPy,
PyTorch, Numba) go in; every NumPy numeric dtype, broadcasting and any strides are taken.
Host data runs on the GPU when there is one, else on the CPU backend.
"""

from ._load import load_core

_core = load_core()

# NumPy's elementwise functions, by NumPy's names (the bindings in _core generate them from
# numcu's one list of ufuncs).
UFUNCS = (
    "absolute", "add", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2",
    "arctanh", "bitwise_and", "bitwise_or", "bitwise_xor", "cbrt", "ceil", "copysign", "cos",
    "cosh", "deg2rad", "divide", "equal", "exp", "exp2", "expm1", "floor", "floor_divide",
    "fmax", "fmin", "greater", "greater_equal", "hypot", "invert", "isfinite", "isinf", "isnan",
    "left_shift", "less", "less_equal", "log", "log10", "log1p", "log2", "logaddexp",
    "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
    "negative", "not_equal", "positive", "power", "rad2deg", "reciprocal", "remainder",
    "right_shift", "rint", "sign", "signbit", "sin", "sinh", "sqrt", "square", "subtract", "tan",
    "tanh", "trunc",
)  # fmt: skip
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


__all__ = [  # noqa: PLE0604
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
