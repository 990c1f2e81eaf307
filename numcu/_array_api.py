"""numcu as an Array API namespace (revision 2025.12), and NumPy's dispatch protocols.

The standard's functions that need kernels (sort, argsort, unique, searchsorted, nonzero, take,
take_along_axis, matmul on the GPU) are in numcu._core; this module holds the ones that are
compositions of numcu's operations, views and copies, the standard's names for NumPy's
functions, and numcu.ndarray's ``__array_ufunc__`` and ``__array_function__`` (through which
NumPy's own functions, called on numcu arrays, run numcu's).

Host data stays NumPy: where an input is a NumPy array, manipulation functions (concat,
reshape, ...) are NumPy's, and the result is a NumPy array. Device arrays stay numcu.ndarray on
their GPU; nothing is copied to the host behind the caller's back, and what numcu cannot do
returns NotImplemented to NumPy, which then raises TypeError.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import math
import operator
import re
import typing
from collections import namedtuple

import numpy as np

from ._load import load_core

_core = load_core()
ndarray = _core.ndarray

__array_api_version__ = "2025.12"
_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

e = math.e
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None

# numcu's dtypes by name but bfloat16 (which NumPy knows only through ml_dtypes): the standard's
# and float16, as NumPy dtype objects (they compare equal to arrays' .dtype). `bool` shadows the
# builtin here, as the standard names it.
_DTYPES = {name: np.dtype(name) for name in _core.dtypes if name != "bfloat16"}
globals().update(_DTYPES)
_BOOL = _DTYPES["bool"]


def _is_device(x):
    return isinstance(x, ndarray)


def _device_arg(x):
    """What device= takes to put a new array where `x` is."""
    return x.device if _is_device(x) else "cpu"


def _same_place(arrays, fname):
    devices = {a.device.id if _is_device(a) else None for a in arrays}
    if len(devices) > 1:
        names = sorted("cpu" if d is None else f"cuda:{d}" for d in devices)
        raise ValueError(f"numcu.{fname}: arrays are on different devices ({', '.join(names)})")
    return next(iter(devices), None) is not None


def _as_array(x, like=None):
    """`x` as an array: arrays as they are, anything else on `like`'s side."""
    if _is_device(x) or isinstance(x, np.ndarray):
        return x
    if like is not None and _is_device(like):
        return _core.asarray(x, device=like.device)
    return np.asarray(x)


def _as_input(x):
    """`x` as an array a composed operation works on: numcu and NumPy arrays as they are, other
    libraries' device arrays (CUDA Array Interface, DLPack on CUDA) as numcu arrays without a
    copy, anything else through NumPy."""
    if _is_device(x) or isinstance(x, np.ndarray):
        return x
    dl = getattr(x, "__dlpack_device__", None)
    if hasattr(x, "__cuda_array_interface__") or (dl is not None and dl()[0] in (2, 13)):
        return _core.asarray(x)
    return np.asarray(x)


def _dtype_of(x):
    if _is_device(x) or isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    return np.dtype(x)


def _normalize_axis(axis, ndim, fname):
    if not -ndim <= axis < max(ndim, 1) or (ndim == 0 and axis not in (0, -1)):
        raise np.exceptions.AxisError(axis, ndim, f"numcu.{fname}")
    return axis % ndim if ndim else 0


def _axes(axis, ndim, fname):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    out = tuple(_normalize_axis(a, ndim, fname) for a in axis)
    if len(set(out)) != len(out):
        raise ValueError(f"numcu.{fname}: repeated axis")
    return out


def _into(out, result):
    """`result`, or written into `out` (returned) where one was given."""
    if out is None:
        return result
    out[...] = result
    return out


# ------------------------------------------------------------------------------------------------
# Namespace information and array methods


class _Info:
    """The standard's ``__array_namespace_info__()``: devices, dtypes and capabilities."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        # Creation functions without device= put arrays on the current GPU when there is one.
        cuda = _core.cuda
        return cuda.Device() if cuda.is_available() else "cpu"

    def devices(self):
        cuda = _core.cuda
        gpus = [cuda.Device(i) for i in range(cuda.device_count())] if cuda.is_available() else []
        return ("cpu", *gpus)

    def default_dtypes(self, *, device=None):
        return {
            "real floating": _DTYPES["float64"],
            "complex floating": _DTYPES["complex128"],
            "integral": _DTYPES["int64"],
            "indexing": _DTYPES["int64"],
        }

    def dtypes(self, *, device=None, kind=None):
        names = {k: v for k, v in _DTYPES.items() if k != "float16"}  # the standard has no float16
        if kind is None:
            return names
        return {k: v for k, v in names.items() if isdtype(v, kind)}


def __array_namespace_info__():
    return _Info()


def array_namespace(api_version=None):
    """numcu (the module install() was handed), or numcu as an earlier revision has it."""
    if api_version is not None and api_version not in _VERSIONS:
        raise ValueError(
            f"numcu: api_version {api_version!r} is not supported (numcu follows "
            f"{__array_api_version__}; also accepted: {', '.join(_VERSIONS[:-1])})"
        )
    if api_version is None or api_version == __array_api_version__:
        return _numcu
    # _api_versions imports this module: it is imported when first asked for.
    from . import _api_versions

    return _api_versions.namespace(api_version, _numcu)


def to_device(x, device, stream=None):
    """A copy on `device` ('cpu': a NumPy array), or the array itself when it is there."""
    if isinstance(device, str) and device == "cpu":
        return x.get(stream=stream) if _is_device(x) else x
    return _core.asarray(x, device=device, stream=stream)


def matrix_transpose(x, /):
    if x.ndim < 2:
        raise ValueError(f"numcu.matrix_transpose: x must have 2 or more dimensions, not {x.ndim}")
    axes = list(range(x.ndim))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return x.transpose(axes)


def index(x):
    """The int a 0-d integer array holds (``operator.index``)."""
    if x.ndim != 0 or x.dtype.kind not in "iu":
        raise TypeError("only 0-d integer numcu arrays can be used as an index")
    return int(x)


# ------------------------------------------------------------------------------------------------
# Data-type functions


def astype(x, dtype, /, *, copy=True, device=None, stream=None):
    # bfloat16 by name needs no ml_dtypes: device arrays of it work without it.
    if not (isinstance(dtype, str) and dtype == "bfloat16"):
        dtype = np.dtype(dtype)
    if device is not None:
        x = to_device(x, device, stream)
    try:  # a foreign array (CAI, DLPack) may have no dtype: _core.astype reads it
        same = getattr(x, "dtype", None) == dtype
    except TypeError:  # a bfloat16 device array's dtype, where ml_dtypes is missing
        same = False
    if not copy and same:
        return x
    if same and (isinstance(x, np.ndarray) or _is_device(x)):
        return x.copy()
    return _core.astype(x, dtype, stream=stream)


def asarray_nested(obj, dtype, copy, device, stream):
    """numcu.asarray of a list or tuple that holds numcu device arrays (NumPy cannot read them):
    each item converted on the device (the first device array's, unless `device` is given), then
    stacked there, level by level; the host does not wait for the GPU."""
    if copy is False:
        raise ValueError("numcu.asarray: a list holding device arrays needs a copy (copy=False)")

    def first_device(o):
        for item in o:
            if _is_device(item):
                return item.device
            if isinstance(item, (list, tuple)):
                found = first_device(item)
                if found is not None:
                    return found
        return None

    dev = first_device(obj) if device is None else device

    def build(o):
        if isinstance(o, (list, tuple)) and first_device(o) is not None:
            return stack([build(item) for item in o], dtype=dtype)
        return _core.asarray(o, dtype=dtype, device=dev, stream=stream)

    return build(obj)


def full_from_array(shape, value, dtype, device, stream, memory, fname):
    """numcu.full with an array as the fill value, which NumPy broadcasts to the shape: the
    value converted and placed as asarray does, then a C-ordered copy of its broadcast view."""
    if memory != "device":
        raise ValueError(f"{fname}: an array fill value takes memory='device', not {memory!r}")
    shape = (operator.index(shape),) if not hasattr(shape, "__len__") else tuple(shape)
    v = _core.asarray(value, dtype=dtype, device=device, stream=stream)
    try:
        view = broadcast_to(v, tuple(operator.index(n) for n in shape))
    except ValueError:
        raise ValueError(
            f"{fname}: a fill value of shape {tuple(v.shape)} cannot be broadcast to {shape}"
        ) from None
    return view.copy()


def full_like_from_array(a, value, dtype, shape, device, stream, memory, fname):
    """numcu.full_like with an array as the fill value (see full_from_array): a's shape and dtype
    unless given, on a's side unless `device` is."""
    a = _as_input(a)
    return full_from_array(
        a.shape if shape is None else shape,
        value,
        a.dtype if dtype is None else dtype,
        _device_arg(a) if device is None else device,
        stream,
        memory,
        fname,
    )


def can_cast(from_, to, /):
    return np.can_cast(_dtype_of(from_), np.dtype(to))


class _FloatInfo:
    """finfo's answer: the standard's attributes as Python numbers (NumPy's finfo gives float32
    scalars for float32), anything else NumPy's finfo has (tiny, resolution, ...) from it."""

    def __init__(self, dtype):
        if dtype.name == "bfloat16":  # NumPy's finfo does not know ml_dtypes' types
            import ml_dtypes

            info = ml_dtypes.finfo(dtype)
        else:
            info = np.finfo(dtype)
        self._numpy = info
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.dtype = np.dtype(info.dtype)

    def __getattr__(self, name):
        return getattr(self.__dict__["_numpy"], name)

    def __repr__(self):
        return f"numcu.finfo(min={self.min}, max={self.max}, eps={self.eps}, dtype={self.dtype})"


def finfo(type, /):  # noqa: A002 (the standard's name)
    return _FloatInfo(_dtype_of(type))


def iinfo(type, /):  # noqa: A002
    return np.iinfo(_dtype_of(type))


def isdtype(dtype, kind):
    return np.isdtype(np.dtype(dtype), kind)


def result_type(*arrays_and_dtypes):
    return np.result_type(*(x.dtype if _is_device(x) else x for x in arrays_and_dtypes))


# ------------------------------------------------------------------------------------------------
# Elementwise functions the standard names differently, or that numcu composes

_ALIASES = {
    "abs": "absolute",
    "acos": "arccos",
    "acosh": "arccosh",
    "asin": "arcsin",
    "asinh": "arcsinh",
    "atan": "arctan",
    "atan2": "arctan2",
    "atanh": "arctanh",
    "bitwise_invert": "invert",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "pow": "power",
}


# NumPy's other names for numcu's elementwise functions: NumPy 2 keeps true_divide, mod and
# bitwise_not as the very ufuncs divide, remainder and invert are; degrees and radians are ufuncs
# of their own that compute what rad2deg and deg2rad do.
_NUMPY_ALIASES = {
    "true_divide": "divide",
    "mod": "remainder",
    "bitwise_not": "invert",
    "degrees": "rad2deg",
    "radians": "deg2rad",
}


def _part(x, which):
    """The real (0) or imaginary (1) part of a complex array, as a view."""
    if isinstance(x, np.ndarray):
        return x.real if which == 0 else x.imag
    half = x.itemsize // 2
    return _core._view(x, x.shape, x.strides, which * half, np.dtype(f"f{half}"))


def real(x, /):
    x = _as_array(x)
    if x.dtype.kind != "c":
        return astype(x, x.dtype)
    return astype(_part(x, 0), np.dtype(f"f{x.itemsize // 2}"))


def imag(x, /):
    x = _as_array(x)
    if x.dtype.kind != "c":
        return _core.zeros_like(x)
    return astype(_part(x, 1), np.dtype(f"f{x.itemsize // 2}"))


def conj(x, /):
    x = _as_array(x)
    out = astype(x, x.dtype)
    if x.dtype.kind == "c":
        im = _part(out, 1)
        _core.negative(im, out=im)
    return out


conjugate = conj  # NumPy's name


def round(x, /, decimals=0, out=None):  # noqa: A001 (the standard's name)
    x = _as_array(x)
    if x.dtype.kind in "biu":
        if out is None:
            return astype(x, x.dtype)
        out[...] = x
        return out
    if decimals == 0:
        return _core.rint(x, out=out)
    scale = 10.0**decimals
    return _core.divide(_core.rint(_core.multiply(x, scale)), scale, out=out)


around = round  # NumPy's names
amax = _core.max
amin = _core.min


def nextafter(x1, x2, /):
    dtype = result_type(x1, x2)
    if dtype.kind != "f":
        raise TypeError(f"numcu.nextafter: no loop for dtype {dtype}")
    like = x1 if _is_device(x1) else x2
    a, b = broadcast_arrays(astype(_as_array(x1, like), dtype), astype(_as_array(x2, like), dtype))
    a = astype(a, dtype)  # dense, so that it can be read as integers
    ity = np.dtype(f"i{dtype.itemsize}")
    bits = a.view(ity) if isinstance(a, np.ndarray) else _core._view(a, a.shape, a.strides, 0, ity)
    up = _core.equal(_core.less(a, b), _core.greater(a, 0))
    step = _core.where(up, 1, -1).astype(ity) if _is_device(a) else np.where(up, 1, -1).astype(ity)
    moved = _core.add(bits, step)
    tiny = _core.where(_core.signbit(b), np.iinfo(ity).min + 1, 1)
    moved = astype(_core.where(_core.equal(a, 0), tiny, moved), ity)
    out = (
        moved.view(dtype)
        if isinstance(moved, np.ndarray)
        else _core._view(astype(moved, ity), moved.shape, moved.strides, 0, dtype)
    )
    out = _core.where(_core.equal(a, b), b, out)
    return _core.where(_core.logical_or(_core.isnan(a), _core.isnan(b)), nan, out)


def clip(x, /, min=None, max=None, out=None, *, a_min=None, a_max=None, device=None, stream=None):  # noqa: A002
    lo = min if min is not None else a_min
    hi = max if max is not None else a_max
    try:
        kind = x.dtype.kind
    except (AttributeError, TypeError):  # a scalar; a bfloat16 array without ml_dtypes
        kind = ""
    if kind in ("i", "u"):
        # NumPy's rule: a Python integer bound beyond an integer dtype's range on the side that
        # binds nothing is no bound (the other side's beyond-range bound stays an error).
        info = np.iinfo(x.dtype)
        lo = None if type(lo) is int and lo <= info.min else lo
        hi = None if type(hi) is int and hi >= info.max else hi
    if lo is None and hi is None:
        if out is None:
            return astype(x, x.dtype) if hasattr(x, "dtype") else _as_array(x)
        out[...] = x
        return out
    # NumPy's promotion: with bounds of x's dtype or Python scalars (what the standard asks
    # for) the result has x's dtype; other dtypes are left to the implementation.
    return _core.clip(x, lo, hi, out=out, device=device, stream=stream)


# ------------------------------------------------------------------------------------------------
# Creation


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, stream=None):
    n_cols = n_rows if n_cols is None else n_cols
    z = _core.zeros((n_rows, n_cols), dtype, device=device, stream=stream)
    first = builtins.max(-k, 0) * n_cols + builtins.max(k, 0)
    count = builtins.max(0, builtins.min(n_rows + builtins.min(k, 0), n_cols - builtins.max(k, 0)))
    if count > 0:
        if isinstance(z, np.ndarray):
            z.reshape(-1)[first :: n_cols + 1][:count] = 1
        else:
            step = (z.strides[0] + z.strides[1],)
            _core._view(z, (count,), step, first * z.itemsize).fill(1)
    return z


def _triangle(x, k, lower):
    if x.ndim < 2:
        raise ValueError("numcu.tril/triu: x must have 2 or more dimensions")
    n, m = x.shape[-2:]
    dev = _device_arg(x)
    rows = _core.arange(n, device=dev).reshape(n, 1)
    cols = _core.arange(m, device=dev).reshape(1, m)
    diff = _core.subtract(cols, rows)
    mask = _core.less_equal(diff, k) if lower else _core.greater_equal(diff, k)
    res = _core.where(mask, x, _core.zeros((), x.dtype, device=dev))
    return res if res.dtype == x.dtype else astype(res, x.dtype)


def tril(x, /, *, k=0):
    return _triangle(x, k, True)


def triu(x, /, *, k=0):
    return _triangle(x, k, False)


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("numcu.meshgrid: indexing must be 'xy' or 'ij'")
    n = len(arrays)
    if n == 0:
        return ()
    shape = [a.size for a in arrays]
    if indexing == "xy" and n > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        s = [1] * n
        pos = i
        if indexing == "xy" and n > 1 and i < 2:
            pos = 1 - i
        s[pos] = a.size
        out.append(astype(broadcast_to(reshape(a, tuple(s)), tuple(shape)), a.dtype))
    return tuple(out)


def from_dlpack(x, /, *, device=None, copy=None):
    """`x` (any ``__dlpack__`` producer) as an array on `device`: by default where `x` is (a
    numcu.ndarray sharing its GPU memory, or a NumPy array for host data); ``device='cpu'`` asks
    the producer for a host copy (DLPack's ``dl_device=(kDLCPU, 0)``), a GPU copies host data to
    it. ``copy=False`` raises BufferError where a copy is needed, ``copy=True`` always copies."""
    if not hasattr(x, "__dlpack__"):
        raise TypeError("numcu.from_dlpack: the object has no __dlpack__ method")
    on_gpu = int(x.__dlpack_device__()[0]) in (2, 13)  # kDLCUDA, kDLCUDAManaged
    if device is None and not on_gpu or isinstance(device, str) and device == "cpu":
        try:
            return np.from_dlpack(x, device="cpu", copy=copy)
        except BufferError:
            if copy is False or not on_gpu:
                raise
        # A GPU producer that exports only to its own device: numcu copies its data to the host.
        return _core.asnumpy(_core.from_dlpack(x))
    if not on_gpu:
        if copy is False:
            raise BufferError(
                "numcu.from_dlpack: host data must be copied to a GPU, but copy=False"
            )
        return _core.asarray(np.from_dlpack(x), device=device)
    try:
        return _core.asarray(_core.from_dlpack(x), copy=copy, device=device)
    except ValueError as e:
        if copy is False:
            raise BufferError(str(e)) from None
        raise


# ------------------------------------------------------------------------------------------------
# Manipulation


def broadcast_to(x, /, shape):
    x = _as_array(x)
    shape = tuple(shape)
    if isinstance(x, np.ndarray):
        return np.broadcast_to(x, shape)
    if len(shape) < x.ndim:
        raise ValueError(f"numcu.broadcast_to: cannot broadcast shape {x.shape} to {shape}")
    lead = len(shape) - x.ndim
    strides = [0] * lead
    for d, (n, s) in enumerate(zip(x.shape, x.strides)):
        if n == shape[lead + d]:
            strides.append(s)
        elif n == 1:
            strides.append(0)
        else:
            raise ValueError(f"numcu.broadcast_to: cannot broadcast shape {x.shape} to {shape}")
    return _core._view(x, shape, tuple(strides), 0)


def broadcast_arrays(*arrays):
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return tuple(broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to (a tuple; ``()`` for none): ValueError naming them
    where they do not broadcast."""
    out = []
    for shape in shapes:
        shape = (operator.index(shape),) if not hasattr(shape, "__len__") else tuple(shape)
        for n in shape:
            if operator.index(n) < 0:
                raise ValueError(f"numcu.broadcast_shapes: negative dimension in {shape}")
        lead = len(shape) - len(out)
        if lead > 0:
            out = list(shape[:lead]) + out
        for k in range(1, len(shape) + 1):
            a, b = out[-k], shape[-k]
            if a != b and a != 1 and b != 1:
                raise ValueError(
                    "numcu.broadcast_shapes: shapes "
                    + ", ".join(str(tuple(s)) for s in shapes)
                    + " do not broadcast"
                )
            out[-k] = b if a == 1 else a
    return tuple(int(n) for n in out)


def concat(arrays, /, *, axis=0, dtype=None, out=None):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("numcu.concat: need at least one array")
    on_device = _same_place(arrays, "concat")
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    dtype = np.dtype(dtype) if dtype is not None else result_type(*arrays)
    if not on_device:
        return np.concatenate(arrays, axis=axis, dtype=dtype, out=out)
    first = arrays[0]
    if first.ndim == 0:
        raise ValueError("numcu.concat: zero-dimensional arrays cannot be concatenated")
    axis = _normalize_axis(axis, first.ndim, "concat")
    for a in arrays[1:]:
        if a.ndim != first.ndim or any(
            a.shape[d] != first.shape[d] for d in range(first.ndim) if d != axis
        ):
            raise ValueError(
                f"numcu.concat: shapes {first.shape} and {a.shape} differ outside axis {axis}"
            )
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    res = out if out is not None else _core.empty(tuple(shape), dtype, device=first.device)
    lead = (slice(None),) * axis
    at = 0
    for a in arrays:
        n = a.shape[axis]
        if n:
            res[(*lead, slice(at, at + n))] = a
        at += n
    return res


def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """NumPy's name and signature for concat."""
    if casting != "same_kind":
        raise TypeError(f"numcu.concatenate: casting={casting!r} is not supported")
    return concat(arrays, axis=axis, dtype=dtype, out=out)


def transpose(a, axes=None):
    """NumPy's transpose: a view with the axes permuted (reversed by default)."""
    a = _as_array(a)
    return a.transpose() if axes is None else a.transpose(tuple(axes))


def stack(arrays, /, *, axis=0, out=None, dtype=None):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("numcu.stack: need at least one array")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("numcu.stack: all input arrays must have the same shape")
    axis = _normalize_axis(axis, len(shape) + 1, "stack")
    return concat([expand_dims(a, axis=axis) for a in arrays], axis=axis, dtype=dtype, out=out)


def expand_dims(x, /, axis=0):
    x = _as_array(x)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    ndim = x.ndim + len(axes)
    axes = sorted(_normalize_axis(a, ndim, "expand_dims") for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("numcu.expand_dims: repeated axis")
    if isinstance(x, np.ndarray):
        return np.expand_dims(x, tuple(axes))
    shape, strides = list(x.shape), list(x.strides)
    for a in axes:
        shape.insert(a, 1)
        strides.insert(a, 0)
    return _core._view(x, tuple(shape), tuple(strides), 0)


def flip(x, /, *, axis=None):
    x = _as_array(x)
    axes = _axes(axis, x.ndim, "flip")
    key = tuple(slice(None, None, -1) if d in axes else slice(None) for d in range(x.ndim))
    return x[key]


def permute_dims(x, /, axes):
    return _as_array(x).transpose(tuple(axes))


def moveaxis(x, source, destination, /):
    x = _as_array(x)
    src = _axes(source, x.ndim, "moveaxis")
    dst = _axes(destination, x.ndim, "moveaxis")
    if len(src) != len(dst):
        raise ValueError("numcu.moveaxis: source and destination must have the same length")
    order = [d for d in range(x.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(tuple(order))


def reshape(x, /, shape, *, copy=None):
    x = _as_array(x)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if isinstance(x, np.ndarray):
        return np.reshape(x, shape, copy=copy)
    contiguous = x.flags["C_CONTIGUOUS"]
    if copy is False and not contiguous:
        raise ValueError("numcu.reshape: the array is not C-contiguous, so a copy is needed")
    if copy:
        x = x.copy()
    return x.reshape(shape)


def roll(x, /, shift, *, axis=None):
    x = _as_array(x)
    if isinstance(x, np.ndarray):
        return np.roll(x, shift, axis=axis)
    if axis is None:
        return reshape(roll(reshape(x, (-1,)), shift, axis=0), x.shape)
    shifts = (shift,) if isinstance(shift, int) else tuple(shift)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise ValueError("numcu.roll: shift and axis must have the same length")
    res = x
    for s, a in zip(shifts, axes):
        a = _normalize_axis(a, x.ndim, "roll")
        n = x.shape[a]
        if n == 0 or s % n == 0:
            continue
        s %= n
        lead = (slice(None),) * a
        res = concat([res[(*lead, slice(n - s, None))], res[(*lead, slice(0, n - s))]], axis=a)
    return res if res is not x else x.copy()


def squeeze(x, /, axis):
    x = _as_array(x)
    axes = _axes(axis, x.ndim, "squeeze")
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"numcu.squeeze: axis {a} of shape {x.shape} is not of size 1")
    if isinstance(x, np.ndarray):
        return np.squeeze(x, axis=axes)
    keep = [d for d in range(x.ndim) if d not in axes]
    return _core._view(x, tuple(x.shape[d] for d in keep), tuple(x.strides[d] for d in keep), 0)


def tile(x, repetitions, /):
    x = _as_array(x)
    reps = tuple(repetitions)
    if isinstance(x, np.ndarray):
        return np.tile(x, reps)
    nd = builtins.max(len(reps), x.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    shape = (1,) * (nd - x.ndim) + x.shape
    inter = tuple(v for r, n in zip(reps, shape) for v in (1, n))
    wide = tuple(v for r, n in zip(reps, shape) for v in (r, n))
    tiled = astype(broadcast_to(reshape(x, inter), wide), x.dtype)
    return tiled.reshape(tuple(r * n for r, n in zip(reps, shape)))


def unstack(x, /, *, axis=0):
    x = _as_array(x)
    axis = _normalize_axis(axis, x.ndim, "unstack")
    lead = (slice(None),) * axis
    return tuple(x[(*lead, i)] for i in range(x.shape[axis]))


def repeat(x, repeats, /, *, axis=None):
    x = _as_array(x)
    if isinstance(x, np.ndarray) and not _is_device(repeats):
        if isinstance(repeats, np.ndarray) and repeats.dtype.kind == "u":
            # Any integer dtype may count repeats; NumPy's repeat casts only safely to int64.
            if repeats.size and repeats.max() > np.iinfo(np.int64).max:
                raise ValueError("numcu.repeat: a repeat count is beyond int64's range")
            repeats = repeats.astype(np.int64)
        return np.repeat(x, repeats, axis=axis)
    if axis is None:
        x = reshape(x, (-1,))
        axis = 0
    axis = _normalize_axis(axis, x.ndim, "repeat")
    n = x.shape[axis]
    dev = _device_arg(x)
    if isinstance(repeats, int):
        idx = _core.floor_divide(_core.arange(n * repeats, device=dev), repeats)
    else:
        reps = _as_array(repeats, x)
        if reps.ndim == 0 or reps.size == 1:
            return repeat(x, int(reshape(reps, (1,))[0]), axis=axis)
        ends = _core.cumsum(reps)
        total = int(ends[-1]) if ends.size else 0  # the size depends on the data: waits
        idx = _core.searchsorted(ends, _core.arange(total, device=dev), side="right")
    return _core.take(x, idx, axis=axis)


# ------------------------------------------------------------------------------------------------
# Indexing, searching, sets


def unravel_index(indices, shape, order="C"):
    """NumPy's unravel_index: the coordinates in an array of `shape` of flat positions `indices`,
    a tuple of int64 arrays shaped like `indices`, computed where `indices` is. Positions held on
    the host are checked (ValueError, as NumPy's); those on the GPU are not (that would make the
    host wait): one out of bounds wraps around."""
    shape = (operator.index(shape),) if not hasattr(shape, "__len__") else tuple(shape)
    shape = tuple(operator.index(n) for n in shape)
    if order not in ("C", "F"):
        raise ValueError(f"numcu.unravel_index: order must be 'C' or 'F', not {order!r}")
    idx = _as_input(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"numcu.unravel_index: indices must be integers, not {idx.dtype}")
    if any(n < 0 for n in shape):
        raise ValueError(f"numcu.unravel_index: negative dimensions in shape {shape}")
    size = math.prod(shape)
    if size == 0:
        raise ValueError(f"numcu.unravel_index: cannot unravel into the empty shape {shape}")
    if not _is_device(idx):
        bad = (idx < 0) | (idx >= size)
        if np.any(bad):
            raise ValueError(
                f"numcu.unravel_index: index {np.asarray(idx)[bad].flat[0]} is out of bounds for "
                f"an array of size {size}"
            )
    rest = astype(idx, "int64", copy=False)
    coords = []
    for n in reversed(shape) if order == "C" else shape:
        coords.append(_core.remainder(rest, n))
        rest = _core.floor_divide(rest, n)
    return tuple(reversed(coords)) if order == "C" else tuple(coords)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """NumPy's ravel_multi_index: flat positions in an array of shape `dims` of the coordinate
    arrays in `multi_index` (broadcast together), int64, computed where they are. `mode` per
    dimension: 'wrap' and 'clip' as NumPy's; 'raise' checks host coordinates (ValueError) and not
    those on the GPU (that would make the host wait): one out of bounds gives a position past
    the others."""
    dims = (operator.index(dims),) if not hasattr(dims, "__len__") else tuple(dims)
    dims = tuple(operator.index(n) for n in dims)
    if order not in ("C", "F"):
        raise ValueError(f"numcu.ravel_multi_index: order must be 'C' or 'F', not {order!r}")
    coords = [_as_input(i) for i in multi_index]
    if len(coords) != len(dims):
        raise ValueError(
            f"numcu.ravel_multi_index: multi_index must have {len(dims)} arrays, one per "
            f"dimension of {dims}, not {len(coords)}"
        )
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims) or any(m not in ("raise", "wrap", "clip") for m in modes):
        raise ValueError(
            f"numcu.ravel_multi_index: mode must be 'raise', 'wrap' or 'clip' per "
            f"dimension, not {mode!r}"
        )
    for c in coords:
        if c.dtype.kind not in "iu":
            raise TypeError(f"numcu.ravel_multi_index: coordinates must be integers, not {c.dtype}")
    like = next((c for c in coords if _is_device(c)), None)
    if like is not None:
        _same_place(coords, "ravel_multi_index")
    strides = [1] * len(dims)
    axes = range(len(dims) - 2, -1, -1) if order == "C" else range(1, len(dims))
    for d in axes:
        strides[d] = strides[d + 1] * dims[d + 1] if order == "C" else strides[d - 1] * dims[d - 1]
    flat = _core.zeros((), "int64", device="cpu" if like is None else like.device)
    for c, n, m, stride in zip(coords, dims, modes, strides):
        if (
            m == "raise"
            and not _is_device(c)
            and np.any((np.asarray(c) < 0) | (np.asarray(c) >= n))
        ):
            raise ValueError(
                f"numcu.ravel_multi_index: a coordinate is outside [0, {n}) for a dimension of {n}"
            )
        c = astype(_as_array(c, like), "int64", copy=False)
        if m == "wrap":
            c = _core.remainder(c, n)
        elif m == "clip":
            c = _core.clip(c, 0, builtins.max(n - 1, 0))
        flat = _core.add(flat, _core.multiply(c, stride))
    return flat


def nonzero(x, /):
    x = _as_array(x)
    rows = _core._nonzero(x)
    return tuple(rows[d] for d in range(rows.shape[0]))


UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique_complex(
    x, want_values, want_indices, want_inverse, want_counts, nan_distinct, device, stream
):
    """numcu.unique of complex numbers, which have no sort keys of their own (C++ hands over).

    Three stable argsorts put the elements in NumPy's order: by imaginary part, then real part,
    then where the NaNs are (neither part, the imaginary, the real, both). Complex equality with
    the element before then marks where each distinct value starts: NaNs are each distinct,
    unless not nan_distinct, where all of them are one value (NumPy's equal_nan). The outputs
    are those of numcu's unique of real numbers: first positions, inverse, int64 counts.
    """
    x = _as_input(x)
    kw = {"device": device, "stream": stream}
    flat = reshape(x, (-1,))
    re, im = _part(flat, 0), _part(flat, 1)
    order = _core.argsort(im, **kw)
    order = _core.take(order, _core.argsort(_core.take(re, order, **kw), **kw), **kw)
    nans = _core.add(_core.multiply(_core.isnan(re, **kw), 2, **kw), _core.isnan(im, **kw), **kw)
    order = _core.take(order, _core.argsort(_core.take(nans, order, **kw), **kw), **kw)
    s = _core.take(flat, order, **kw)
    k = _core.arange(s.shape[0], device=_device_arg(s), stream=stream)
    before = _core.take(s, _core.maximum(_core.subtract(k, 1, **kw), 0, **kw), **kw)
    new = _core.not_equal(s, before, **kw)
    if not nan_distinct:
        nan = _core.logical_and(_core.isnan(s, **kw), _core.isnan(before, **kw), **kw)
        new = _core.logical_and(new, _core.logical_not(nan, **kw), **kw)
    new = _core.logical_or(new, _core.equal(k, 0, **kw), **kw)
    starts = _core._nonzero(new, **kw)[0]  # waits for the count on the GPU
    values = _core.take(s, starts, **kw) if want_values else None
    indices = _core.take(order, starts, **kw) if want_indices else None
    inverse = counts = None
    if want_inverse or want_counts:
        group = _core.subtract(_core.cumsum(new, **kw), 1, **kw)
        if want_inverse:
            inverse = _core.take(group, _core.argsort(order, **kw), **kw)
            inverse = reshape(inverse, tuple(x.shape))
        if want_counts:
            ids = _core.arange(starts.shape[0], device=_device_arg(s), stream=stream)
            ends = _core.searchsorted(group, ids, side="right", **kw)
            counts = _core.subtract(ends, starts, **kw)
    return values, indices, inverse, counts


def unique_all(x, /):
    v, i, inv, c = _core._unique(x, True, True, True, True)
    return UniqueAllResult(v, i, inv, c)


def unique_counts(x, /):
    v, _, _, c = _core._unique(x, True, False, False, True)
    return UniqueCountsResult(v, c)


def unique_inverse(x, /):
    v, _, inv, _ = _core._unique(x, True, False, True, False)
    return UniqueInverseResult(v, inv)


def unique_values(x, /):
    return _core._unique(x, True, False, False, False)[0]


_SCALARS = (int, float, complex, builtins.bool)


def isin(x1, x2, /, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `x1` is among the elements of `x2` (value equality, so NaN is in
    nothing and -0.0 matches 0.0), as a bool array of x1's shape; ``invert=True`` asks the
    opposite. Either may be a Python scalar. Host data is NumPy's isin; on a GPU, x2 is sorted
    and x1's elements looked up in it by binary search (complex x2, which has no order, is
    compared with every element of x1: fine for the small sets isin is used with).
    ``assume_unique`` and ``kind`` are NumPy's, accepted and not needed."""
    if not (_is_device(x1) or _is_device(x2)):
        return np.isin(x1, x2, assume_unique=assume_unique, invert=invert, kind=kind)
    if isinstance(x2, _SCALARS):
        return (_core.not_equal if invert else _core.equal)(x1, x2)
    if isinstance(x1, _SCALARS):
        found = _core.any(_core.equal(x2, x1))
        return _core.logical_not(found) if invert else found
    x1, x2 = _as_array(x1, x2), _as_array(x2, x1)
    _same_place([x1, x2], "isin")
    dtype = result_type(x1, x2)
    a = astype(x1, dtype, copy=False)
    b = reshape(astype(x2, dtype, copy=False), (-1,))
    if b.shape[0] == 0:
        found = _core.zeros(a.shape, bool, device=a.device)
    elif dtype.kind == "c":
        found = _core.any(_core.equal(expand_dims(a, axis=-1), b), axis=-1)
    else:
        s = _core.sort(b)
        at = _core.minimum(_core.searchsorted(s, a), s.shape[0] - 1)
        found = _core.equal(_core.take(s, at), a)
    return _core.logical_not(found) if invert else found


def check_host_indices(indices, n, fname, axis):
    """IndexError for host-held integer indices outside [-n, n) (NumPy's rule).

    Indices on the GPU are not checked (that would make the host wait): the kernels read the
    nearest element. Host indices cost one pass of NumPy here and are checked wherever the work
    runs, so the answer does not depend on placement.
    """
    if isinstance(indices, _core.ndarray) or getattr(indices, "__cuda_array_interface__", None):
        return
    idx = np.asarray(indices)
    if idx.size == 0 or idx.dtype.kind not in "iu":
        return
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        value = int(idx[bad].flat[0])
        raise IndexError(f"{fname}: index {value} is out of bounds for axis {axis} with size {n}")


def take(x, indices, /, *, axis=None, device=None, stream=None):
    # An array's own shape: np.shape would go through __array_function__ on numcu arrays.
    shape = tuple(x.shape) if hasattr(x, "shape") else np.shape(x)
    if axis is None:
        n = math.prod(shape)
    elif isinstance(axis, int) and -len(shape) <= axis < len(shape):
        n = shape[axis]
    else:
        n = None  # numcu.take names the bad axis
    if n is not None:
        check_host_indices(indices, n, "numcu.take", 0 if axis is None else axis)
    return _core.take(x, indices, axis=axis, device=device, stream=stream)


take.__doc__ = _core.take.__doc__


def setitem(a, key, value):
    """a[key] = value with arrays in `key` (numcu.ndarray's advanced assignment).

    A boolean mask (alone, or followed by '...') covers a's leading dimensions. A value that is
    the same for every selected element (a scalar, or an array broadcasting to the selected
    block with 1 for the count) is written through numcu.where, and the host does not wait. One
    value per selected element (a leading dimension equal to the count, as ``x[mask] =
    y[mask]``) needs the selected positions first, which waits for their count (one small copy
    to the host, as CuPy and PyTorch do), then scatters the values there.

    Integer arrays (with integers, full slices and '...' between them, as in ``a[key]``):
    `value` broadcasts to ``a[key]``'s shape and is scattered, without a wait. Where positions
    repeat, one of their values lands (NumPy's is the last; on the GPU it may be any).
    """
    items = key if isinstance(key, tuple) else (key,)
    items = tuple(np.asarray(k) if isinstance(k, list) else k for k in items)
    rest = [k for k in items if k is not Ellipsis]
    is_bool = [isinstance(k, builtins.bool) or getattr(k, "dtype", None) == _BOOL for k in rest]
    if isinstance(value, (list, tuple)) or isinstance(value, np.ndarray) and value.ndim > 0:
        value = _core.asarray(value, device=a.device)
    if any(is_bool):
        if len(rest) != 1 or (items[0] is Ellipsis and len(items) > 1):
            raise IndexError(
                "numcu.ndarray.__setitem__: a boolean mask must be the only index (besides a "
                "'...' after it)"
            )
        _assign_masked(a, _core.asarray(rest[0], device=a.device), value)
    else:
        _assign_indexed(a, items, value)


def _assign_masked(a, mask, value):
    fname = "numcu.ndarray.__setitem__"
    if mask.ndim > a.ndim or mask.shape != a.shape[: mask.ndim]:
        raise IndexError(
            f"{fname}: boolean index of shape {mask.shape} does not match the array's leading "
            f"dimensions {a.shape}"
        )
    if mask.ndim == 0:  # a[True] = v is a[None][[True]] = v (NumPy's)
        return _assign_masked(expand_dims(a, axis=0), expand_dims(mask, axis=0), value)
    block = a.shape[mask.ndim :]
    vshape = tuple(value.shape) if hasattr(value, "shape") else ()
    if len(vshape) > len(block) + 1:
        if any(n != 1 for n in vshape[: len(vshape) - len(block) - 1]):
            raise ValueError(
                f"{fname}: values of shape {vshape} could not be broadcast to the selected "
                f"elements, of shape (count, {', '.join(map(str, block))})"
            )
        value = value.reshape(vshape[len(vshape) - len(block) - 1 :])
        vshape = tuple(value.shape)
    if len(vshape) == len(block) + 1 and vshape[0] != 1:
        # One value per selected element: their positions first, which waits for the count.
        positions = _core._nonzero(mask)
        count = positions.shape[1]
        if vshape[0] != count:
            raise ValueError(
                f"{fname}: cannot assign {vshape[0]} values to the {count} elements where the "
                "mask is true"
            )
        _core._scatter(a, positions, value)
        return None
    if len(vshape) == len(block) + 1:
        value = value.reshape(vshape[1:])
        vshape = vshape[1:]
    try:
        broadcast_shapes(vshape, block)
    except ValueError:
        raise ValueError(
            f"{fname}: values of shape {vshape} could not be broadcast to the selected elements, "
            f"of shape (count, {', '.join(map(str, block))})"
        ) from None
    if broadcast_shapes(vshape, block) != block:
        raise ValueError(f"{fname}: values of shape {vshape} are larger than {block}")
    mask = mask.reshape(mask.shape + (1,) * len(block))
    a[...] = _core.where(mask, value, a)
    return None


def _assign_indexed(a, key, value):
    """a[key] = value for integer arrays (and integers, full slices, '...') in `key`."""
    fname = "numcu.ndarray.__setitem__"
    if any(k is None for k in key):
        raise IndexError(f"{fname}: None cannot be combined with integer array indices")
    ellipses = [i for i, k in enumerate(key) if k is Ellipsis]  # `in` would compare arrays
    if len(ellipses) > 1:
        raise IndexError(f"{fname}: an index can only have a single ellipsis ('...')")
    if ellipses:
        at = ellipses[0]
        key = key[:at] + (slice(None),) * (a.ndim - (len(key) - 1)) + key[at + 1 :]
    if len(key) > a.ndim:
        raise IndexError(f"{fname}: too many indices for an array of {a.ndim} dimensions")
    key = key + (slice(None),) * (a.ndim - len(key))
    positions = [d for d, k in enumerate(key) if not isinstance(k, slice)]
    others = [d for d in range(a.ndim) if d not in positions]
    # The indexed axes first, in a view of a: the scatter writes through it.
    y = a[tuple(slice(None) if d in positions else k for d, k in enumerate(key))]
    y = y.transpose(tuple(positions + others))
    for d in positions:
        check_host_indices(key[d], a.shape[d], fname, d)
    idx = [_core.asarray(key[d], device=a.device) for d in positions]
    for i in idx:
        if i.dtype.kind not in "iu":
            raise IndexError(f"{fname}: arrays used as indices must be integers, not {i.dtype}")
    shape = broadcast_shapes(*(i.shape for i in idx))
    stacked = _core.empty((len(idx), *shape), "int64", device=a.device)
    for j, i in enumerate(idx):
        stacked[j] = i
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    if adjacent and positions[0] > 0 and hasattr(value, "shape") and len(value.shape) > 0:
        # a[key]'s shape has the index dimensions where the indexed axes were; the scatter takes
        # them first.
        nb, before = len(shape), positions[0]
        kept = tuple(y.shape[len(positions) :])
        value = broadcast_to(_as_array(value, a), kept[:before] + shape + kept[before:])
        order = [*range(before, before + nb), *range(before), *range(before + nb, value.ndim)]
        value = value.transpose(tuple(order))
    _core._scatter(y, stacked, value)


def getitem(a, key):
    """a[key] with integer or boolean arrays in `key` (numcu.ndarray's advanced indexing)."""
    key = key if isinstance(key, tuple) else (key,)
    masks = [
        k for k in key if isinstance(k, builtins.bool) or (hasattr(k, "dtype") and k.dtype == _BOOL)
    ]
    if masks:
        rest = [k for k in key if k is not Ellipsis]
        if len(rest) != 1:
            raise IndexError(
                "numcu.ndarray: a boolean index must be the only index (besides '...')"
            )
        mask = _core.asarray(key[0] if key[0] is not Ellipsis else rest[0], device=a.device)
        if mask.ndim == 0:  # a[True] is a[None], a[False] an empty a[None] (NumPy's)
            return getitem(expand_dims(a, axis=0), (expand_dims(mask, axis=0),))
        lead = a.shape[: mask.ndim]
        if mask.ndim > a.ndim or any(m not in (n, 0) for m, n in zip(mask.shape, lead)):
            raise IndexError(
                f"numcu.ndarray: boolean index of shape {mask.shape} does not match the array's "
                f"leading dimensions {a.shape}"
            )
        if mask.shape != lead:  # an empty mask selects nothing from any extent (NumPy's)
            return _core.empty((0, *a.shape[mask.ndim :]), a.dtype, device=a.device)
        if key[-1] is Ellipsis and len(key) > 1 or key[0] is Ellipsis:
            if key[0] is Ellipsis:
                raise IndexError("numcu.ndarray: '...' before a boolean index is not supported")
        return _core._gather(a, _core._nonzero(mask))
    # Integer arrays and integers, with full slices and '...' between them.
    if any(k is None for k in key):
        raise IndexError("numcu.ndarray: None cannot be combined with integer array indices")
    ellipses = [i for i, k in enumerate(key) if k is Ellipsis]  # `in` would compare arrays
    if len(ellipses) > 1:
        raise IndexError("numcu.ndarray: an index can only have a single ellipsis ('...')")
    if ellipses:
        at = ellipses[0]
        fill = a.ndim - (len(key) - 1)
        key = key[:at] + (slice(None),) * fill + key[at + 1 :]
    if len(key) > a.ndim:
        raise IndexError(f"numcu.ndarray: too many indices for an array of {a.ndim} dimensions")
    key = key + (slice(None),) * (a.ndim - len(key))
    positions = [d for d, k in enumerate(key) if not isinstance(k, slice)]
    basic = tuple(slice(None) if d in positions else k for d, k in enumerate(key))
    y = a[basic]
    others = [d for d in range(a.ndim) if d not in positions]
    y = y.transpose(tuple(positions + others))
    for d in positions:
        check_host_indices(key[d], a.shape[d], "numcu.ndarray.__getitem__", d)
    idx = [_core.asarray(key[d], device=a.device) for d in positions]
    for i in idx:
        if i.dtype.kind not in "iu":
            raise IndexError(
                f"numcu.ndarray: arrays used as indices must be integers, not {i.dtype}"
            )
    shape = np.broadcast_shapes(*(i.shape for i in idx))
    stacked = _core.empty((len(idx), *shape), "int64", device=a.device)
    for j, i in enumerate(idx):
        stacked[j] = i
    r = _core._gather(y, stacked)
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    if adjacent and positions[0] > 0:
        nb = len(shape)
        before = positions[0]
        order = list(range(nb, nb + before)) + list(range(nb)) + list(range(nb + before, r.ndim))
        r = r.transpose(tuple(order))
    return r


# ------------------------------------------------------------------------------------------------
# Statistics and utilities


def _with_initial(fn, identity, x, axis, dtype, include_initial, fname):
    x = _as_array(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(
                f"numcu.{fname}: axis must be given for arrays of more than one dimension"
            )
        axis = 0
    if x.ndim == 0:
        raise ValueError(f"numcu.{fname}: x must have at least one dimension")
    axis = _normalize_axis(axis, x.ndim, fname)
    if not include_initial:
        return fn(x, axis=axis, dtype=dtype)
    res_dtype = fn(_core.empty((0,), x.dtype, device=_device_arg(x)), dtype=dtype).dtype
    shape = list(x.shape)
    shape[axis] += 1
    out = _core.empty(tuple(shape), res_dtype, device=_device_arg(x))
    lead = (slice(None),) * axis
    out[(*lead, slice(0, 1))] = identity
    if x.shape[axis]:
        fn(x, axis=axis, dtype=dtype, out=out[(*lead, slice(1, None))])
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _with_initial(_core.cumsum, 0, x, axis, dtype, include_initial, "cumulative_sum")


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _with_initial(_core.cumprod, 1, x, axis, dtype, include_initial, "cumulative_prod")


def _with_correction(core_fn):
    """core_fn (std or var) taking the standard's `correction` as another name for `ddof`."""

    def fn(
        x,
        /,
        axis=None,
        dtype=None,
        out=None,
        ddof=0,
        keepdims=False,
        *,
        correction=None,
        device=None,
        stream=None,
    ):
        ddof = correction if correction is not None else ddof
        return core_fn(x, axis, dtype, out, ddof, keepdims, device=device, stream=stream)

    fn.__name__ = fn.__qualname__ = core_fn.__name__
    return fn


std = _with_correction(_core.std)
var = _with_correction(_core.var)


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    x = _as_array(x)
    if x.ndim == 0:
        raise ValueError("numcu.diff: x must have at least one dimension")
    axis = _normalize_axis(axis, x.ndim, "diff")
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        parts = [
            p
            if hasattr(p, "ndim") and p.ndim == x.ndim
            else broadcast_to(_as_array(p, x), x.shape[:axis] + (1,) + x.shape[axis + 1 :])
            for p in parts
        ]
        x = concat(parts, axis=axis)
    lead = (slice(None),) * axis
    op = _core.not_equal if x.dtype == _BOOL else _core.subtract
    for _ in range(n):
        x = op(x[(*lead, slice(1, None))], x[(*lead, slice(None, -1))])
    return x


# ------------------------------------------------------------------------------------------------
# Linear algebra


def matmul(x1, x2, /):
    x1, x2 = _as_array(x1, x2), _as_array(x2, x1)
    if not _same_place([x1, x2], "matmul"):
        return np.matmul(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("numcu.matmul: operands must have at least one dimension")
    dtype = result_type(x1, x2)
    a = astype(x1, dtype, copy=False)
    b = astype(x2, dtype, copy=False)
    a = expand_dims(a, axis=0) if a.ndim == 1 else a
    b = expand_dims(b, axis=-1) if b.ndim == 1 else b
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"numcu.matmul: shapes {x1.shape} and {x2.shape} do not match: {a.shape[-1]} "
            f"(dim {x1.ndim - 1}) != {b.shape[-2]}"
        )
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = broadcast_to(a, batch + a.shape[-2:])
    b = broadcast_to(b, batch + b.shape[-2:])
    r = _core._matmul(a, b)
    if x1.ndim == 1:
        r = squeeze(r, axis=-2)
    if x2.ndim == 1:
        r = squeeze(r, axis=-1)
    return r


def matmul_operator(x1, x2):
    """x1 @ x2 (numcu.matmul), or NotImplemented for an operand that is not an array."""
    if not (hasattr(x2, "shape") or isinstance(x2, (list, tuple))):
        return NotImplemented
    return matmul(x1, x2)


def matmul_inplace(x1, x2):
    """x1 @= x2: the product written into x1, whose shape it must have."""
    r = matmul(x1, x2)
    if r.shape != x1.shape:
        raise ValueError("numcu.ndarray.__imatmul__: the product's shape differs from the array's")
    x1[...] = r
    return x1


def tensordot(x1, x2, /, *, axes=2):
    x1, x2 = _as_array(x1, x2), _as_array(x2, x1)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("numcu.tensordot: axes must be non-negative")
        a_axes = list(range(x1.ndim - axes, x1.ndim))
        b_axes = list(range(axes))
    else:
        a_axes, b_axes = ([a] if isinstance(a, int) else list(a) for a in axes)
    a_axes = [_normalize_axis(d, x1.ndim, "tensordot") for d in a_axes]
    b_axes = [_normalize_axis(d, x2.ndim, "tensordot") for d in b_axes]
    if len(a_axes) != len(b_axes) or any(
        x1.shape[i] != x2.shape[j] for i, j in zip(a_axes, b_axes)
    ):
        raise ValueError("numcu.tensordot: shape mismatch for sum")
    a_free = [d for d in range(x1.ndim) if d not in a_axes]
    b_free = [d for d in range(x2.ndim) if d not in b_axes]
    k = math.prod(x1.shape[d] for d in a_axes)
    a = reshape(permute_dims(x1, a_free + a_axes), (math.prod(x1.shape[d] for d in a_free), k))
    b = reshape(permute_dims(x2, b_axes + b_free), (k, math.prod(x2.shape[d] for d in b_free)))
    r = matmul(a, b)
    return reshape(r, tuple(x1.shape[d] for d in a_free) + tuple(x2.shape[d] for d in b_free))


def vecdot(x1, x2, /, *, axis=-1):
    x1, x2 = _as_array(x1, x2), _as_array(x2, x1)
    shape = np.broadcast_shapes(x1.shape, x2.shape)
    if not -len(shape) <= axis < 0 and not 0 <= axis < len(shape):
        raise np.exceptions.AxisError(axis, len(shape), "numcu.vecdot")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("numcu.vecdot: the contracted axis differs in size")
    prod = _core.multiply(conj(x1) if x1.dtype.kind == "c" else x1, x2)
    return _core.sum(prod, axis=axis, dtype=prod.dtype)


# ------------------------------------------------------------------------------------------------
# NumPy's protocols

# The reduction table's lines (reduce.hpp's NUMCU_REDUCTIONS and NUMCU_SCANS): (name, form, result,
# no_identity, skips_nan, ufunc, summary). A ufunc's reduce (accumulate) runs the reduction (scan)
# that is it: numpy.add.reduce is numcu.sum; with dtype= where the reduction takes one.
_TABLE = {row[0]: row for row in _core.reduction_table}
_REDUCE = {row[5]: row[0] for row in _core.reduction_table if row[5] and row[1] != "scan"}
_ACCUMULATE = {row[5]: row[0] for row in _core.reduction_table if row[5] and row[1] == "scan"}
_UFUNC_EXTRA = {"conjugate": conj, "matmul": matmul, "vecdot": vecdot}
_OPERAND_TYPES = (ndarray, int, float, complex, builtins.bool, np.ndarray, np.generic)
# NumPy ufunc name -> numcu's function (the extras take precedence).
_UFUNC_IMPLS = {
    **{name: getattr(_core, name) for name in _core.ufuncs},
    **{name: getattr(_core, target) for name, target in _NUMPY_ALIASES.items()},
    **_UFUNC_EXTRA,
}


def array_ufunc(
    self: typing.Any, ufunc: typing.Any, method: str, *inputs: typing.Any, **kwargs: typing.Any
) -> typing.Any:
    """NumPy ufuncs on numcu arrays run numcu's function (NotImplemented where numcu has none)."""
    if not all(isinstance(x, _OPERAND_TYPES) for x in inputs):
        return NotImplemented
    out = kwargs.pop("out", None)
    if out is not None:
        if len(out) != 1:
            return NotImplemented
        out = out[0]
    where = kwargs.pop("where", True)
    if kwargs.pop("casting", "same_kind") != "same_kind" or kwargs.pop("order", "K") != "K":
        return NotImplemented
    dtype = kwargs.pop("dtype", None)
    if method == "__call__":
        fn = _UFUNC_IMPLS.get(ufunc.__name__)
        if fn is None or kwargs or (dtype is not None and ufunc.__name__ in _UFUNC_EXTRA):
            return NotImplemented
        if dtype is not None:
            # NumPy's dtype= picks the loop: the inputs are cast to it, as NumPy's casting rule
            # allows.
            dtype = np.dtype(dtype)
            for x in inputs:
                if hasattr(x, "dtype") and not np.can_cast(x.dtype, dtype, "same_kind"):
                    raise TypeError(
                        f"numcu.{ufunc.__name__}: cannot cast input of dtype {x.dtype} to "
                        f"{dtype} with casting='same_kind'"
                    )
            inputs = tuple(
                x.astype(dtype) if hasattr(x, "dtype") and x.dtype != dtype else x for x in inputs
            )
        if ufunc.__name__ in _UFUNC_EXTRA:
            return _into(out, fn(*inputs))
        if where is True:
            return fn(*inputs, out=out)
        res = fn(*inputs)
        if out is None:
            return res  # NumPy leaves the elements where `where` is False undefined
        out[...] = _core.where(where, res, out)
        return out
    if where is not True or kwargs.pop("initial", None) is not None:
        return NotImplemented
    if method == "reduce" and ufunc.__name__ in _REDUCE:
        fn = getattr(_core, _REDUCE[ufunc.__name__])
        axis = kwargs.pop("axis", 0)
        keepdims = kwargs.pop("keepdims", False)
        if kwargs:
            return NotImplemented
        if dtype is not None and _TABLE[_REDUCE[ufunc.__name__]][1] == "with_dtype":
            return fn(inputs[0], axis, dtype, out, keepdims)
        if dtype is not None:
            return NotImplemented
        return fn(inputs[0], axis=axis, out=out, keepdims=keepdims)
    if method == "accumulate" and ufunc.__name__ in _ACCUMULATE:
        fn = getattr(_core, _ACCUMULATE[ufunc.__name__])
        axis = kwargs.pop("axis", 0)
        if kwargs:
            return NotImplemented
        return fn(inputs[0], axis, dtype, out)
    if method == "outer" and len(inputs) == 2 and not kwargs and dtype is None:
        fn = _UFUNC_IMPLS.get(ufunc.__name__)
        if fn is None:
            return NotImplemented
        a, b = (_as_array(x, self) for x in inputs)
        a = reshape(a, a.shape + (1,) * b.ndim)
        return fn(a, b, out=out)
    return NotImplemented


# NumPy's functions on numcu arrays (__array_function__): numcu's function of the same name, in
# numcu or in its submodule named as NumPy's (numpy.linalg.svd: numcu.linalg.svd), called with
# NumPy's arguments. Where numcu takes keyword-only what NumPy takes by position (the standard's
# signatures: stack's axis, expand_dims' axis), those go by NumPy's names; a NumPy argument numcu
# does not take is accepted at NumPy's default value, and raises TypeError otherwise; an out=
# numcu does not take receives the result. What numcu does not have returns NotImplemented, and
# NumPy raises TypeError. The exceptions: NumPy's names for numcu's functions that numcu's
# namespace does not have, and what NumPy has that the namespace does not (or takes otherwise).

_RENAMED = {"asanyarray": "asarray", "ascontiguousarray": "asarray"}


def _unsupported(fname, name):
    return TypeError(f"numcu.{fname}: NumPy's {name}= is not supported")


def _no(name, value, default=None, fname=""):
    if value is not default:
        raise _unsupported(fname, name)


def _where(condition, x=None, y=None, /):
    if x is None and y is None:
        return nonzero(condition)
    return _core.where(condition, x, y)


def _squeeze(a, axis=None):
    if axis is None:
        axis = tuple(d for d in range(a.ndim) if a.shape[d] == 1)
    return squeeze(a, axis)


def _sort(kernel, name):
    def impl(a, axis=-1, kind=None, order=None, *, stable=None):
        _no("order", order, fname=name)  # any kind: numcu's sorts are stable
        return kernel(a, axis=axis)

    return impl


def _unique(
    ar,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    *,
    equal_nan=True,
    sorted=True,  # noqa: A002 (NumPy's name)
):
    _no("axis", axis, fname="unique")
    v, i, inv, c = _core._unique(
        ar, True, return_index, return_inverse, return_counts, not equal_nan
    )
    wanted = ((i, return_index), (inv, return_inverse), (c, return_counts))
    extra = [r for r, want in wanted if want]
    if return_inverse and ar.ndim != 1:
        k = return_index
        extra[k] = reshape(extra[k], ar.shape)
    return (v, *extra) if extra else v


def _dot(a, b, out=None):
    if a.ndim > 2 or b.ndim > 2:
        raise TypeError("numcu.dot: arrays of more than 2 dimensions are not supported")
    return _into(out, matmul(a, b) if a.ndim and b.ndim else _core.multiply(a, b))


def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    close = _core.less_equal(
        _core.absolute(_core.subtract(a, b)),
        _core.add(atol, _core.multiply(rtol, _core.absolute(b))),
    )
    close = _core.logical_or(close, _core.equal(a, b))
    if equal_nan:
        close = _core.logical_or(close, _core.logical_and(_core.isnan(a), _core.isnan(b)))
    return close


def _array_equal(a1, a2, equal_nan=False):
    if a1.shape != a2.shape:
        return False
    same = _core.equal(a1, a2)
    if equal_nan:
        same = _core.logical_or(same, _core.logical_and(_core.isnan(a1), _core.isnan(a2)))
    return builtins.bool(_core.all(same))


def _array(obj, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None, device=None):
    _no("order", order, "K", "array")
    r = _core.asarray(obj, dtype, True if copy else None, device=device)
    while r.ndim < ndmin:
        r = expand_dims(r, axis=0)
    return r


def _copyto(dst, src, casting="same_kind", where=True):
    _no("casting", casting, "same_kind", "copyto")
    dst[...] = src if where is True else _core.where(where, src, dst)


def _swapaxes(a, axis1, axis2):
    axes = list(range(a.ndim))
    i, j = (_normalize_axis(axis, a.ndim, "swapaxes") for axis in (axis1, axis2))
    axes[i], axes[j] = axes[j], axes[i]
    return a.transpose(tuple(axes))


def _stacked(n, axis_of):
    def impl(tup, *, dtype=None, casting="same_kind"):
        _no("casting", casting, "same_kind", "stack")
        arrays = _atleast(list(tup), n, always_list=True)
        return concat(arrays, axis=axis_of(arrays), dtype=dtype)

    return impl


def _argwhere(a):
    if a.ndim == 0:
        return _core.empty((int(builtins.bool(a)), 0), "int64", device=_device_arg(a))
    return _core._nonzero(a).transpose()


_NUMPY_ONLY = {
    "where": _where,
    "squeeze": _squeeze,
    "tile": lambda A, reps: tile(A, (reps,) if isinstance(reps, int) else reps),
    "sort": _sort(_core.sort, "sort"),
    "argsort": _sort(_core.argsort, "argsort"),
    "unique": _unique,
    "dot": _dot,
    "isclose": _isclose,
    "allclose": lambda a, b, rtol=1e-05, atol=1e-08, equal_nan=False: builtins.bool(
        _core.all(_isclose(a, b, rtol, atol, equal_nan))
    ),
    "array_equal": _array_equal,
    "array": _array,
    "ravel": lambda a, order="C": reshape(a, (-1,)),
    "copy": lambda a, order="K", subok=False: a.copy(),
    "ndim": lambda a: a.ndim,
    "shape": lambda a: a.shape,
    "size": lambda a, axis=None: a.size if axis is None else a.shape[axis],
    "can_cast": lambda from_, to, casting="safe": np.can_cast(_dtype_of(from_), to, casting),
    "atleast_1d": lambda *arys: _atleast(arys, 1),
    "atleast_2d": lambda *arys: _atleast(arys, 2),
    "atleast_3d": lambda *arys: _atleast(arys, 3),
    "vstack": _stacked(2, lambda arrays: 0),
    "hstack": _stacked(1, lambda arrays: 0 if arrays[0].ndim == 1 else 1),
    "swapaxes": _swapaxes,
    "copyto": _copyto,
    "argwhere": _argwhere,
    "flatnonzero": lambda a: nonzero(reshape(a, (-1,)))[0],
}


def _parameters(fn):
    """(names that may go by position, names that may go by keyword, takes *args) of fn, from its
    signature, or for a pybind11 function from the one its docstring starts with; None when
    neither says."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        head = re.match(r"\w+\((.*)\) -> ", (getattr(fn, "__doc__", None) or "").split("\n", 1)[0])
        if head is None:
            return None
        try:
            args = ast.parse(f"def f({head.group(1)}): pass").body[0].args
        except SyntaxError:
            return None
        kind = inspect.Parameter
        params = [inspect.Parameter(a.arg, kind.POSITIONAL_ONLY) for a in args.posonlyargs]
        params += [inspect.Parameter(a.arg, kind.POSITIONAL_OR_KEYWORD) for a in args.args]
        params += [inspect.Parameter(a.arg, kind.KEYWORD_ONLY) for a in args.kwonlyargs]
        if args.vararg is not None:
            params.append(inspect.Parameter(args.vararg.arg, kind.VAR_POSITIONAL))
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return positional, keyword, any(p.kind is p.VAR_POSITIONAL for p in params)


def _adapted(func, fn):
    """fn called with the arguments NumPy's func takes (see above)."""
    ours = _parameters(fn)
    try:
        theirs = inspect.signature(func)
    except (TypeError, ValueError):
        theirs = None
    if ours is None or theirs is None:
        return fn
    positional, keyword, variadic = ours
    params = list(theirs.parameters.values())
    # NumPy's leading parameters that numcu takes at the same place: the array(s) first, then as
    # long as the names agree (numcu's positional-only ones take any name); all of them before
    # NumPy's *args, where numcu has *args too.
    by_position = 0
    for p, ours_name in zip(params, positional):
        same = by_position == 0 or p.name == ours_name or ours_name not in keyword
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or not same:
            break
        by_position += 1
    both_variadic = variadic and any(p.kind is p.VAR_POSITIONAL for p in params)
    place = {name: at for at, name in enumerate(theirs.parameters)}
    fname = func.__name__

    def call(*args, **kwargs):
        if (len(args) <= by_position or both_variadic) and all(k in keyword for k in kwargs):
            return fn(*args, **kwargs)
        bound = theirs.bind(*args, **kwargs).arguments
        args, kwargs, out = [], {}, None
        for name, value in bound.items():
            param = theirs.parameters[name]
            if param.kind is param.VAR_POSITIONAL:
                args.extend(value)
            elif param.kind is param.VAR_KEYWORD:
                for key in value:
                    raise _unsupported(fname, key)
            elif place[name] < by_position and len(args) == place[name]:
                args.append(value)
            elif name in keyword:
                kwargs[name] = value
            elif name == "out":
                out = value
            elif not _is_default(value, param.default):
                raise _unsupported(fname, name)
        return _into(out, fn(*args, **kwargs))

    return call


def _is_default(value, default):
    if value is default or default is inspect.Parameter.empty:
        return value is default
    return (
        type(value) is type(default) and isinstance(value, (str, int, float)) and value == default
    )


# numcu's namespace (the module), as install() hands it down; NumPy's functions found in it.
_numcu = None
_FUNCTIONS = {}
# NumPy's creation functions, which numcu serves for like=<numcu array>.
_CREATION = frozenset(
    ("asarray", "array", "asanyarray", "ascontiguousarray", "empty", "zeros", "ones", "full")
    + ("arange", "linspace", "eye")
)


def _lookup(func, namespace):
    name = getattr(func, "__name__", None)
    if name in _NUMPY_ONLY:
        return _NUMPY_ONLY[name]
    module = namespace
    for part in (getattr(func, "__module__", None) or "").split(".")[1:]:
        module = getattr(module, part, None)
    fn = getattr(module, _RENAMED.get(name, name), None) if name else None
    return _adapted(func, fn) if callable(fn) else None


def array_function(
    self: typing.Any, func: typing.Any, types: typing.Any, args: typing.Any, kwargs: typing.Any
) -> typing.Any:
    """NumPy functions on numcu arrays run numcu's (NotImplemented where numcu has none)."""
    impl = _FUNCTIONS.get(func, _lookup)
    if impl is _lookup:
        impl = _FUNCTIONS[func] = _lookup(func, _numcu)
    if impl is None or not all(issubclass(t, (ndarray, np.ndarray)) for t in types):
        return NotImplemented
    if func.__name__ in _CREATION:
        # NumPy's creation with like=<numcu array> (it drops like= before the call): the new
        # array goes on that array's GPU, where the caller asked for it.
        kwargs = {**kwargs, "device": kwargs.get("device") or self.device}
    return impl(*args, **kwargs)


def _atleast(arrays, n, always_list=False):
    out = []
    for a in arrays:
        a = _as_array(a)
        if n == 3 and a.ndim < 3:
            # NumPy's atleast_3d: (N,) -> (1, N, 1), (M, N) -> (M, N, 1).
            a = expand_dims(a, axis=0) if a.ndim == 0 else a
            a = expand_dims(a, axis=0) if a.ndim == 1 else a
            a = expand_dims(a, axis=-1)
        while a.ndim < n:
            a = expand_dims(a, axis=0)
        out.append(a)
    return out if always_list or len(out) != 1 else out[0]


def install(namespace):
    """Sets numcu.ndarray's protocol methods written here, and registers with the compiled module
    what it hands over to this module (array indices, array fill values, lists of device arrays,
    unique of complex numbers): once, at ``import numcu``, which passes its own module. Data flows
    down: numcu._core never imports numcu's Python modules."""
    global _numcu
    _numcu = namespace

    def __array_namespace__(self, /, *, api_version: typing.Any = None) -> typing.Any:
        """The numcu module, which follows the Array API standard (2025.12); for an earlier
        revision (2021.12 to 2024.12) a namespace object with numcu's functions as that revision
        has them (lists where 2025.12 made tuples). ValueError for any other api_version."""
        return array_namespace(api_version)

    def moved(self, device: typing.Any, /, *, stream: typing.Any = None) -> typing.Any:
        """A copy on `device` ('cpu': a NumPy array), or the array itself when it is there."""
        return to_device(self, device, stream)

    def mT(self) -> typing.Any:  # noqa: N802 (the standard's name)
        """The view with the last two axes swapped."""
        return matrix_transpose(self)

    def __matmul__(self, other: typing.Any) -> typing.Any:
        return matmul_operator(self, other)

    def __rmatmul__(self, other: typing.Any) -> typing.Any:
        return matmul_operator(other, self)

    def __imatmul__(self, other: typing.Any) -> typing.Any:
        return matmul_inplace(self, other)

    def __index__(self) -> int:
        return index(self)

    methods = {
        "__array_ufunc__": array_ufunc,
        "__array_function__": array_function,
        "__array_namespace__": __array_namespace__,
        "to_device": moved,
        "mT": property(mT),
        "__matmul__": __matmul__,
        "__rmatmul__": __rmatmul__,
        "__imatmul__": __imatmul__,
        "__index__": __index__,
    }
    for name, method in methods.items():
        setattr(ndarray, name, method)
    for name in (
        "getitem",
        "setitem",
        "full_from_array",
        "full_like_from_array",
        "asarray_nested",
        "unique_complex",
    ):
        _core._register_composition(name, globals()[name])


# ------------------------------------------------------------------------------------------------
# What numcu exports from here

NAMESPACE = [
    "__array_api_version__",
    "__array_namespace_info__",
    "e",
    "inf",
    "nan",
    "pi",
    "newaxis",
    *_DTYPES,
    "astype",
    "can_cast",
    "finfo",
    "iinfo",
    "isdtype",
    "result_type",
    *_ALIASES,
    *_NUMPY_ALIASES,
    "real",
    "imag",
    "conj",
    "conjugate",
    "round",
    "around",
    "amax",
    "amin",
    "nextafter",
    "clip",
    "eye",
    "tril",
    "triu",
    "meshgrid",
    "from_dlpack",
    "broadcast_to",
    "broadcast_arrays",
    "broadcast_shapes",
    "concat",
    "concatenate",
    "transpose",
    "stack",
    "expand_dims",
    "flip",
    "permute_dims",
    "moveaxis",
    "reshape",
    "roll",
    "squeeze",
    "tile",
    "unstack",
    "repeat",
    "nonzero",
    "unravel_index",
    "ravel_multi_index",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "isin",
    "cumulative_sum",
    "cumulative_prod",
    "std",
    "var",
    "diff",
    "matmul",
    "tensordot",
    "vecdot",
    "matrix_transpose",
]

for _name, _target in {**_ALIASES, **_NUMPY_ALIASES}.items():
    globals()[_name] = getattr(_core, _target)
