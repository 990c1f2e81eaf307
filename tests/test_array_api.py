"""The Array API standard (2025.12) as numcu's namespace, against NumPy (which follows it).

Backends: "cpu" (NumPy operands: results are NumPy arrays) and "numcu" (device operands, gpu:
results stay numcu.ndarray). Kernel functions (sort, argsort, unique, searchsorted, take,
take_along_axis, nonzero) also run with host operands on the GPU ("cuda"). Inputs are fresh
random data with NaNs and signed zeros where the dtype has them.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import BACKENDS, DTYPES, assert_matches, random_array, to_backend

import numcu

REAL_DTYPES = tuple(dt for dt in DTYPES if dt.kind != "c")
# Shapes of the sorting tests: empty, one element, odd, 2-D and 3-D.
SORT_SHAPES = ((0,), (1,), (37,), (5, 7), (3, 4, 6))

# Every function and constant the standard requires of a namespace.
REQUIRED = """e inf nan newaxis pi
bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128
arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like
tril triu zeros zeros_like
astype can_cast finfo iinfo isdtype result_type
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert
bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp
expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal
log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum
multiply negative nextafter not_equal positive pow real reciprocal remainder round sign signbit
sin sinh square sqrt subtract tan tanh trunc
take take_along_axis __array_namespace_info__
matmul matrix_transpose tensordot vecdot
broadcast_arrays broadcast_shapes broadcast_to concat expand_dims flip moveaxis permute_dims
repeat reshape roll squeeze stack tile unstack
argmax argmin count_nonzero nonzero searchsorted where
isin unique_all unique_counts unique_inverse unique_values
argsort sort
cumulative_prod cumulative_sum max mean min prod std sum var
all any diff""".split()


def special_data(rng, shape, dtype):
    """Random data of `dtype` with ties, and NaNs and signed zeros where the dtype has them."""
    a = random_array(rng, shape, dtype)
    if a.size and dtype.kind in "iu":
        a.reshape(-1)[::3] = a.reshape(-1)[0]  # ties, for stability
    if a.size and dtype.kind == "f":
        flat = a.reshape(-1)
        flat[rng.random(flat.size) < 0.1] = np.nan
        flat[rng.random(flat.size) < 0.1] = -0.0
        flat[rng.random(flat.size) < 0.1] = 0.0
        flat[rng.random(flat.size) < 0.05] = np.inf
        flat[rng.random(flat.size) < 0.05] = -np.inf
    return a


def get(x):
    """Back to NumPy, checking that device operands gave a device result."""
    if isinstance(x, numcu.ndarray):
        return x.get()
    assert isinstance(x, (np.ndarray, np.generic)), type(x)
    return np.asarray(x)


def check_type(result, backend):
    if backend == "numcu":
        assert isinstance(result, numcu.ndarray), type(result)
    else:
        assert isinstance(result, (np.ndarray, np.generic)), type(result)


def run_kernel(fn, backend, *args, **kwargs):
    """numcu's kernel function on `backend` (host operands with device= for cpu and cuda)."""
    if backend == "numcu":
        args = [to_backend(a, backend) for a in args]
        r = fn(*args, **kwargs)
    else:
        r = fn(*args, device=backend, **kwargs)
    return r


# --------------------------------------------------------------------------------------------
# The namespace


def test_every_required_name_exists():
    missing = [name for name in REQUIRED if not hasattr(numcu, name)]
    assert not missing, f"numcu lacks the standard's {missing}"


def test_ndarray_has_the_protocol_methods():
    # ndarray.cpp's `__array_ufunc__ = None` is replaced when the Array API methods are bound.
    for name in ("__array_ufunc__", "__array_function__", "__array_namespace__", "to_device"):
        assert callable(getattr(numcu.ndarray, name, None)), name
    assert hasattr(numcu.ndarray, "mT")


def test_namespace_info():
    info = numcu.__array_namespace_info__()
    assert numcu.__array_api_version__ == "2025.12"
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    assert "cpu" in info.devices()
    assert info.default_dtypes()["indexing"] == np.int64
    assert set(info.dtypes(kind="integral")) == {
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
    }
    assert set(info.dtypes(kind="real floating")) >= {"float32", "float64"}


def test_isdtype_result_type_can_cast():
    assert numcu.isdtype(numcu.int8, "signed integer")
    assert not numcu.isdtype(numcu.float32, "integral")
    assert numcu.isdtype(numcu.complex64, ("real floating", "complex floating"))
    assert numcu.result_type(numcu.int8, numcu.uint8) == np.int16
    assert numcu.result_type(np.ones(2, np.float32), 1.0) == np.float32
    assert numcu.can_cast(numcu.int8, numcu.int16)
    assert not numcu.can_cast(numcu.float64, numcu.int64)
    assert numcu.finfo(numcu.float32).eps == np.finfo(np.float32).eps
    assert numcu.iinfo(numcu.int16).max == 32767


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
def test_finfo_gives_python_numbers(dtype):
    """The standard's finfo attributes are Python numbers, NumPy's values; NumPy's extras stay."""
    got, want = numcu.finfo(dtype), np.finfo(dtype)
    for name in ("eps", "max", "min", "smallest_normal"):
        assert type(getattr(got, name)) is float
        assert getattr(got, name) == float(getattr(want, name))
    assert type(got.bits) is int and got.bits == want.bits
    assert got.dtype == want.dtype and got.tiny == want.tiny
    assert numcu.finfo(np.ones(2, dtype)).eps == float(want.eps)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.uint64, np.int64])
def test_asarray_of_a_list_keeps_every_integer(backend, dtype):
    """A list with a dtype converts to that dtype directly: integers past 2^53 (and uint64's
    past int64's range) are not rounded through float64."""
    values = [2**63 + 1, 1, 2**64 - 3] if dtype == np.uint64 else [2**62 + 1, -(2**53) - 1, 7]
    kwargs = {} if backend == "numcu" else {"device": backend}
    for seq in (values, tuple(values)):
        got = numcu.asarray(seq, dtype=dtype, **kwargs)
        assert_matches(get(got), np.asarray(values, dtype=dtype))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64, np.int16])
def test_repeat_counts_of_any_integer_dtype(rng, backend, dtype):
    x = random_array(rng, (5, 3), np.float32)
    reps = rng.integers(0, 4, 5).astype(dtype)
    want = np.repeat(x, reps.astype(np.int64), axis=0)
    got = numcu.repeat(to_backend(x, backend), to_backend(reps, backend), axis=0)
    assert_matches(get(got), want)


@pytest.mark.gpu
def test_array_namespace_of_a_device_array():
    x = numcu.asarray(np.arange(3.0))
    assert x.__array_namespace__() is numcu
    assert x.__array_namespace__(api_version="2025.12") is numcu
    # An earlier revision: a namespace object for it (the standard asks for "an object
    # representing the array API namespace"), numcu's functions with that revision's lists.
    old = x.__array_namespace__(api_version="2023.12")
    assert old.__array_api_version__ == "2023.12" and old.add is numcu.add
    assert type(old.broadcast_arrays(x, x)) is list
    with pytest.raises(ValueError, match="api_version"):
        x.__array_namespace__(api_version="1999.01")
    assert x.to_device("cpu").__class__ is np.ndarray
    y = numcu.asarray(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(y.mT.get(), np.arange(6.0).reshape(2, 3).T)


# --------------------------------------------------------------------------------------------
# Sorting


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("shape", SORT_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", REAL_DTYPES, ids=str)
def test_sort_and_argsort(rng, backend, dtype, shape, descending):
    x = special_data(rng, shape, dtype)
    for axis in sorted({-1, 0}):
        expected = np.sort(x, axis=axis)
        order = np.argsort(x, axis=axis, kind="stable")
        if descending:
            n = x.shape[axis]
            expected = np.flip(np.sort(x, axis=axis), axis=axis)
            order = n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)
        values = run_kernel(numcu.sort, backend, x, axis=axis, descending=descending)
        check_type(values, backend)
        assert_matches(get(values), expected)
        indices = run_kernel(numcu.argsort, backend, x, axis=axis, descending=descending)
        check_type(indices, backend)
        got = get(indices)
        assert got.dtype == np.int64
        if dtype.kind == "f":
            # -0.0 and 0.0 are ties: compare what the indices pick, NaNs as NaNs.
            assert_matches(np.take_along_axis(x, got, axis), np.take_along_axis(x, order, axis))
            got_zero = np.take_along_axis(x, got, axis) == 0
            np.testing.assert_array_equal(np.where(got_zero, 0, got), np.where(got_zero, 0, order))
        else:
            np.testing.assert_array_equal(got, order)


def test_sort_flattened_and_errors(rng):
    x = random_array(rng, (4, 5), np.float64)
    assert_matches(numcu.sort(x, axis=None), np.sort(x, axis=None))
    with pytest.raises(TypeError, match="complex"):
        numcu.sort(np.ones(3, np.complex64))
    with pytest.raises(np.exceptions.AxisError):
        numcu.sort(x, axis=2)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64], ids=str)
def test_searchsorted(rng, backend, dtype, side):
    dtype = np.dtype(dtype)
    hay = np.sort(special_data(rng, (101,), dtype))
    needles = special_data(rng, (7, 5), dtype)
    needles.reshape(-1)[:5] = hay[[0, 3, 50, 100, 100]]
    got = run_kernel(numcu.searchsorted, backend, hay, needles, side=side)
    check_type(got, backend)
    assert_matches(get(got), np.searchsorted(hay, needles, side=side))
    sorter = rng.permutation(101)
    shuffled = hay[np.argsort(sorter)]
    got = numcu.searchsorted(
        shuffled, needles, side=side, sorter=np.argsort(shuffled, kind="stable")
    )
    assert_matches(got, np.searchsorted(hay, needles, side=side))
    with pytest.raises(ValueError, match="side"):
        numcu.searchsorted(hay, needles, side="middle")


# --------------------------------------------------------------------------------------------
# Sets


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(0,), (1,), (200,), (6, 9)], ids=str)
@pytest.mark.parametrize(
    "dtype", [np.bool_, np.int8, np.int64, np.uint16, np.float16, np.float32, np.float64], ids=str
)
def test_unique(rng, backend, dtype, shape):
    dtype = np.dtype(dtype)
    x = special_data(rng, shape, dtype)
    if dtype.kind in "iu":
        x = (x % 13).astype(dtype)  # repeats
    xb = to_backend(x, backend)
    values, indices, inverse, counts = numcu.unique_all(xb)
    for r in (values, indices, inverse, counts):
        check_type(r, backend)
    v, i, inv, c = (get(r) for r in (values, indices, inverse, counts))
    ev, ei, einv, ec = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    assert_matches(v, ev)
    assert_matches(c, ec)
    assert inv.shape == x.shape and inv.dtype == np.int64
    assert_matches(v[inv], x)  # each element's value
    assert_matches(x.reshape(-1)[i], v)  # an occurrence of each value
    assert_matches(get(numcu.unique_values(xb)), ev)
    assert_matches(get(numcu.unique_counts(xb).counts), ec)
    assert_matches(get(numcu.unique_inverse(xb).values), ev)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(0,), (1,), (300,), (7, 8)], ids=str)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
def test_unique_of_complex_numbers(rng, backend, dtype, shape):
    """Complex numbers have no sort keys: unique puts them in NumPy's order (a NaN part last:
    imaginary, then real, then both) from the parts' argsorts; ties of equal parts, signed
    zeros, infinities and NaNs in either part."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    parts = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan])
    x = np.empty(n, dtype)
    x.real = rng.choice(parts, n)
    x.imag = rng.choice(parts, n)
    x.real[::4] = rng.standard_normal(x[::4].size)  # and values seen once
    x = x.reshape(shape)
    kwargs = {} if backend == "numcu" else {"device": backend}
    got = numcu._core._unique(to_backend(x, backend), True, True, True, True, True, **kwargs)
    for r in got:
        check_type(r, backend)
    v, i, inv, c = (get(r) for r in got)
    ev, ec = np.unique(x, return_counts=True, equal_nan=False)
    assert v.dtype == dtype and i.dtype == c.dtype == inv.dtype == np.int64
    # NumPy's order, values holding a NaN each apart: part by part, NaNs where NumPy has them.
    np.testing.assert_array_equal(v.real, ev.real)
    np.testing.assert_array_equal(v.imag, ev.imag)
    np.testing.assert_array_equal(c, ec)
    assert inv.shape == x.shape
    np.testing.assert_array_equal(v[inv], x)
    flat = x.reshape(-1)
    np.testing.assert_array_equal(flat[i], v)
    for k, value in enumerate(v):  # the first occurrence of each value without a NaN
        if not np.isnan(value):
            assert i[k] == np.flatnonzero(flat == value)[0]
    # NumPy's equal_nan: every value with a NaN part is one value.
    joined = numcu._core._unique(to_backend(x, backend), True, False, False, True, False, **kwargs)
    ev, ec = np.unique(x, return_counts=True, equal_nan=True)
    np.testing.assert_array_equal(get(joined[0]).real, ev.real)
    np.testing.assert_array_equal(get(joined[0]).imag, ev.imag)
    np.testing.assert_array_equal(get(joined[3]), ec)
    assert_matches(get(numcu.unique_values(to_backend(x, backend))), np.unique(x, equal_nan=False))


def test_unique_joins_signed_zeros_and_keeps_nans_apart():
    x = np.array([0.0, -0.0, np.nan, 1.0, np.nan, -0.0])
    values, counts = numcu.unique_counts(x)
    assert values.size == 4
    assert_matches(counts, np.array([3, 1, 1, 1]))
    assert np.isnan(values[2:]).all()


# --------------------------------------------------------------------------------------------
# Indexing and searching


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128], ids=str)
def test_take(rng, backend, dtype):
    x = random_array(rng, (6, 5, 4), dtype)
    idx = rng.integers(-4, 4, size=(3, 2))
    for axis in (0, 1, -1):
        got = run_kernel(numcu.take, backend, x, idx, axis=axis)
        check_type(got, backend)
        assert_matches(get(got), np.take(x, idx, axis=axis))
    flat_idx = rng.integers(0, x.size, size=9)
    assert_matches(get(run_kernel(numcu.take, backend, x, flat_idx)), np.take(x, flat_idx))
    # A strided view.
    view = x[::2, ::-1]
    got = run_kernel(numcu.take, backend, view, idx, axis=1)
    assert_matches(get(got), np.take(view, idx, axis=1))
    # A vector by a 2-D index, negative entries included: dense (one kernel) and strided.
    vec = x.reshape(-1)
    idx2 = rng.integers(-vec.size, vec.size, size=(4, 7))
    for i in (idx2, idx2[:, ::2]):
        assert_matches(get(run_kernel(numcu.take, backend, vec, i)), np.take(vec, i))
    # Flattened (axis=None), which copies a strided x dense first.
    flat_idx = rng.integers(0, view.size, size=9)
    got = run_kernel(numcu.take, backend, view, flat_idx)
    assert_matches(get(got), np.take(view, flat_idx))


def test_take_out_of_bounds_raises():
    with pytest.raises(IndexError, match="out of bounds"):
        numcu.take(np.arange(4.0), np.array([0, 4]))
    with pytest.raises(TypeError, match="integers"):
        numcu.take(np.arange(4.0), np.array([0.0]))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.uint8], ids=str)
def test_take_along_axis(rng, backend, dtype):
    x = random_array(rng, (5, 6, 7), dtype)
    for axis in (0, 1, 2):
        idx = np.argsort(x, axis=axis, kind="stable")
        got = run_kernel(numcu.take_along_axis, backend, x, idx, axis=axis)
        check_type(got, backend)
        assert_matches(get(got), np.take_along_axis(x, idx, axis=axis))
    # indices broadcast with x outside the axis
    idx = rng.integers(0, 7, size=(1, 6, 3))
    got = run_kernel(numcu.take_along_axis, backend, x, idx, axis=2)
    assert_matches(get(got), np.take_along_axis(x, idx, axis=2))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(0,), (17,), (4, 5), (2, 3, 4)], ids=str)
@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64, np.complex64], ids=str)
def test_nonzero(rng, backend, dtype, shape):
    x = random_array(rng, shape, dtype)
    if x.size:
        x.reshape(-1)[rng.random(x.size) < 0.5] = 0
    got = numcu.nonzero(to_backend(x, backend))
    expected = np.nonzero(x)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        check_type(g, backend)
        assert_matches(get(g), e)


def test_nonzero_of_0d_raises():
    with pytest.raises(ValueError, match="0-d"):
        numcu.nonzero(np.array(3))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=str)
def test_advanced_indexing_of_device_arrays(rng, dtype):
    x = random_array(rng, (6, 5, 4), dtype)
    d = numcu.asarray(x)
    mask = x > x.mean()
    keys = [
        mask,
        mask[:, :, 0],
        np.array([0, -1, 2]),
        (np.array([0, 5]), slice(None), np.array([1, 2])),
        (slice(1, 4), np.array([[0, 1], [4, 3]])),
        (Ellipsis, np.array([3, 0])),
        (np.array([1, 2]), np.array([0, 4])),
    ]
    for key in keys:
        dkey = (
            tuple(numcu.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
            if isinstance(key, tuple)
            else numcu.asarray(key)
        )
        got = d[dkey]
        assert isinstance(got, numcu.ndarray)
        assert_matches(got.get(), x[key])
        got = d[key]  # host index arrays go up
        assert_matches(got.get(), x[key])


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3)])
def test_zero_dimensional_boolean_index(rng, shape):
    """x[True] and x[False] (a 0-d mask, host or device) add a leading axis of one or zero
    elements, as NumPy's do."""
    x = random_array(rng, shape, np.float32)
    d = numcu.asarray(x)
    for flag in (True, False):
        want = x[np.bool_(flag)]
        for key in (np.bool_(flag), numcu.asarray(np.array(flag))):
            got = d[key]
            assert isinstance(got, numcu.ndarray)
            assert got.shape == want.shape
            assert_matches(got.get(), want)


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("shape", "mask_shape"), [((0, 1), (0, 0)), ((2, 3), (2, 0)), ((2, 3), (0,)), ((0, 4), (0,))]
)
def test_boolean_index_with_empty_extents(rng, shape, mask_shape):
    """A boolean index whose extents are those of the array or zero selects nothing, as NumPy's
    does; any other extent is an IndexError."""
    x = random_array(rng, shape, np.float32)
    mask = np.zeros(mask_shape, bool)
    got = numcu.asarray(x)[numcu.asarray(mask)]
    assert isinstance(got, numcu.ndarray)
    assert got.shape == x[mask].shape and got.dtype == x.dtype
    with pytest.raises(IndexError, match="boolean index"):
        numcu.asarray(x)[numcu.asarray(np.zeros((1,) + mask_shape[1:], bool))]


@pytest.mark.gpu
def test_asarray_of_lists_holding_device_arrays(rng):
    """A list (nested or not) of numcu arrays and numbers is stacked on the GPU, with or without
    a dtype, as NumPy would stack the same values."""
    x = random_array(rng, (3, 4), np.float32)
    d = numcu.asarray(x)
    rows = numcu.asarray([d[1], d[0]])
    assert isinstance(rows, numcu.ndarray)
    assert_matches(rows.get(), x[[1, 0]])
    transposed = numcu.asarray([[d[i, j] for i in range(3)] for j in range(4)], dtype=np.float64)
    assert transposed.dtype == np.float64
    assert_matches(transposed.get(), x.T.astype(np.float64))
    mixed = numcu.asarray([d[0, 0], 2.5, d[1, 1]])
    assert_matches(mixed.get(), np.array([x[0, 0], 2.5, x[1, 1]]))
    with pytest.raises(ValueError, match="copy"):
        numcu.asarray([d[0], d[1]], copy=False)


# --------------------------------------------------------------------------------------------
# Manipulation


def manipulations(xp, x, y):
    """Every manipulation function on `x` (6, 1, 4) and `y` (6, 1, 4)."""
    return {
        "broadcast_to": xp.broadcast_to(x, (2, 6, 5, 4)),
        "broadcast_arrays": xp.broadcast_arrays(x, y[:, :, :1])[1],
        "concat0": xp.concat([x, y], axis=0),
        "concat2": xp.concat([x, y], axis=-1),
        "concat_none": xp.concat([x, y], axis=None),
        "stack": xp.stack([x, y], axis=1),
        "expand_dims": xp.expand_dims(x, axis=-1),
        "flip": xp.flip(x, axis=(0, 2)),
        "flip_all": xp.flip(x),
        "moveaxis": xp.moveaxis(x, 0, -1),
        "permute_dims": xp.permute_dims(x, (2, 0, 1)),
        "repeat": xp.repeat(x, 3, axis=2),
        "repeat_flat": xp.repeat(x, 2),
        "reshape": xp.reshape(x, (4, 6)),
        "roll": xp.roll(x, 2, axis=0),
        "roll_flat": xp.roll(x, -5),
        "roll_two": xp.roll(x, (1, -1), axis=(0, 2)),
        "squeeze": xp.squeeze(x, axis=1),
        "tile": xp.tile(x, (2, 1, 3)),
        "unstack": xp.unstack(x, axis=2)[3],
        "diff": xp.diff(x, axis=0),
        "diff2": xp.diff(x, axis=-1, n=2),
        "cumsum": xp.cumulative_sum(x, axis=0),
        "cumsum_initial": xp.cumulative_sum(x, axis=2, include_initial=True),
        "tril": xp.tril(x[:, 0, :]),
        "triu": xp.triu(x[:, 0, :], k=1),
        "matrix_transpose": xp.matrix_transpose(x),
    }


class NumpyAsStandard:
    """NumPy under the standard's names, as the oracle."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def concat(arrays, axis=0):
        return np.concatenate(arrays, axis=axis)

    @staticmethod
    def permute_dims(x, axes):
        return np.transpose(x, axes)

    @staticmethod
    def unstack(x, axis=0):
        return tuple(np.moveaxis(x, axis, 0))

    @staticmethod
    def cumulative_sum(x, axis=None, include_initial=False):
        r = np.cumsum(x, axis=axis)
        if include_initial:
            shape = list(x.shape)
            shape[axis] = 1
            r = np.concatenate([np.zeros(shape, r.dtype), r], axis=axis)
        return r

    @staticmethod
    def matrix_transpose(x):
        return np.swapaxes(x, -1, -2)

    @staticmethod
    def tril(x, k=0):
        return np.tril(x, k)

    @staticmethod
    def triu(x, k=0):
        return np.triu(x, k)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32, np.complex128], ids=str)
def test_manipulation(rng, backend, dtype):
    x = random_array(rng, (6, 1, 4), dtype)
    y = random_array(rng, (6, 1, 4), dtype)
    got = manipulations(numcu, to_backend(x, backend), to_backend(y, backend))
    expected = manipulations(NumpyAsStandard(), x, y)
    for name, e in expected.items():
        g = got[name]
        check_type(g, backend)
        try:
            assert_matches(np.asarray(get(g)), np.asarray(e))
        except AssertionError as exc:
            raise AssertionError(f"{name}: {exc}") from None


# --------------------------------------------------------------------------------------------
# Linear algebra


MATMUL_SHAPES = [
    ((3, 4), (4, 5)),
    ((4,), (4, 2)),
    ((3, 4), (4,)),
    ((4,), (4,)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((0, 3), (3, 2)),
    ((2, 0), (0, 3)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
@pytest.mark.parametrize(
    "dtype", [np.int32, np.uint8, np.bool_, np.float32, np.float64, np.complex64], ids=str
)
def test_matmul(rng, backend, dtype, shapes):
    a = random_array(rng, shapes[0], dtype)
    b = random_array(rng, shapes[1], dtype)
    got = numcu.matmul(to_backend(a, backend), to_backend(b, backend))
    check_type(got, backend)
    rtol = {np.float32: 1e-5, np.complex64: 1e-5}.get(dtype)
    assert_matches(np.asarray(get(got)), np.asarray(np.matmul(a, b)), rtol=rtol)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64], ids=str)
def test_matmul_layouts_on_the_gpu(rng, dtype):
    a = random_array(rng, (3, 6, 8), dtype)
    b = random_array(rng, (3, 8, 5), dtype)
    da, db = numcu.asarray(a), numcu.asarray(b)
    # Column-major matrices: a transposed view of a dense (3, 8, 6) array.
    fa = numcu.asarray(np.swapaxes(a, 1, 2).copy()).transpose((0, 2, 1))
    cases = [
        (da, db, a, b),
        (fa, db, a, b),
        (da[:, ::2], db[:, :, ::-1], a[:, ::2], b[:, :, ::-1]),  # strided, negative strides
        (da[:, :, :5], db[:, :5], a[:, :, :5], b[:, :5]),  # offsets, padded rows
        (da, db[0], a, b[0]),  # a broadcast batch
        (da[0], db.transpose((0, 2, 1))[1].transpose(), a[0], b[1]),
    ]
    for x, y, hx, hy in cases:
        got = x @ y
        assert isinstance(got, numcu.ndarray)
        assert_matches(got.get(), np.matmul(hx, hy), rtol=1e-5)
    if dtype != np.int64:
        assert "cublas" in numcu._core._cublas_path().lower()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex128], ids=str)
def test_tensordot_and_vecdot(rng, backend, dtype):
    a = random_array(rng, (3, 4, 5), dtype)
    b = random_array(rng, (4, 5, 2), dtype)
    da, db = to_backend(a, backend), to_backend(b, backend)
    got = numcu.tensordot(da, db, axes=2)
    check_type(got, backend)
    assert_matches(get(got), np.tensordot(a, b, axes=2))
    got = numcu.tensordot(da, db, axes=([1], [0]))
    assert_matches(get(got), np.tensordot(a, b, axes=([1], [0])))
    c = random_array(rng, (3, 4, 5), dtype)
    got = numcu.vecdot(da, to_backend(c, backend), axis=1)
    check_type(got, backend)
    assert_matches(get(got), np.vecdot(a, c, axis=1))


# --------------------------------------------------------------------------------------------
# Statistics, utilities and creation


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64], ids=str)
def test_statistics(rng, backend, dtype):
    x = random_array(rng, (5, 6), dtype)
    d = to_backend(x, backend)
    for axis in (None, 0, 1):
        for correction in (0, 1):
            if dtype == np.int16:
                continue
            assert_matches(
                np.asarray(get(numcu.std(d, axis=axis, correction=correction))),
                np.asarray(np.std(x, axis=axis, ddof=correction)),
                rtol=1e-4,
            )
            assert_matches(
                np.asarray(get(numcu.var(d, axis=axis, correction=correction, keepdims=True))),
                np.var(x, axis=axis, ddof=correction, keepdims=True),
                rtol=1e-4,
            )
    r = numcu.cumulative_prod(d, axis=1, include_initial=True)
    check_type(r, backend)
    expected = np.concatenate(
        [np.ones((5, 1), np.cumprod(x, axis=1).dtype), np.cumprod(x, axis=1)], axis=1
    )
    assert_matches(get(r), expected, rtol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
def test_creation_helpers(backend):
    dev = None if backend == "numcu" else "cpu"
    if backend != "numcu":
        e = numcu.eye(4, 5, k=1, dtype=np.float32, device=dev)
    else:
        e = numcu.eye(4, 5, k=1, dtype=np.float32, device=numcu.cuda.Device(0))
    check_type(e, backend)
    assert_matches(get(e), np.eye(4, 5, k=1, dtype=np.float32))
    a = to_backend(np.arange(3.0), backend)
    b = to_backend(np.arange(4.0), backend)
    for indexing in ("xy", "ij"):
        got = numcu.meshgrid(a, b, indexing=indexing)
        expected = np.meshgrid(np.arange(3.0), np.arange(4.0), indexing=indexing)
        for g, ex in zip(got, expected):
            assert_matches(get(g), ex)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.complex64], ids=str)
def test_real_imag_conj_round(rng, backend, dtype):
    x = random_array(rng, (7, 3), dtype)
    d = to_backend(x, backend)
    assert_matches(get(numcu.real(d)), np.real(x).copy())
    assert_matches(
        get(numcu.imag(d)), np.imag(x).copy() if dtype == np.complex64 else np.zeros_like(x)
    )
    assert_matches(get(numcu.conj(d)), np.conj(x))
    if dtype == np.float32:
        assert_matches(get(numcu.round(d)), np.round(x))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
def test_nextafter(rng, backend, dtype):
    x = random_array(rng, (20,), dtype)
    y = random_array(rng, (20,), dtype)
    x[:3] = [0.0, -0.0, 1.0]
    y[:3] = [1.0, -1.0, 1.0]
    got = numcu.nextafter(to_backend(x, backend), to_backend(y, backend))
    assert_matches(get(got), np.nextafter(x, y), rtol=0)


# --------------------------------------------------------------------------------------------
# The standard's type promotion and special cases


@pytest.mark.parametrize("backend", BACKENDS)
def test_type_promotion_table(backend):
    standard = [dt for dt in DTYPES if dt != np.float16]
    ones = {dt: to_backend(np.ones(3, dt), backend) for dt in standard}
    wrong = []
    for d1 in standard:
        for d2 in standard:
            expected = np.result_type(d1, d2)
            if numcu.result_type(d1, d2) != expected:
                wrong.append(f"result_type({d1}, {d2})")
            if d1 != np.bool_ or d2 != np.bool_:
                got = numcu.multiply(ones[d1], ones[d2]).dtype
                if got != expected:
                    wrong.append(f"multiply({d1}, {d2}) -> {got}, not {expected}")
    assert not wrong, wrong


@pytest.mark.parametrize("backend", BACKENDS)
def test_sort_special_values(backend):
    x = np.array([np.nan, 1.0, -0.0, -np.inf, 0.0, np.inf, -1.0, np.nan], dtype=np.float64)
    got = get(numcu.sort(to_backend(x, backend)))
    np.testing.assert_array_equal(got[:6], [-np.inf, -1.0, 0.0, 0.0, 1.0, np.inf])
    assert np.signbit(got[2]) and not np.signbit(got[3])  # -0 before +0
    assert np.isnan(got[6:]).all()
    got = get(numcu.sort(to_backend(x, backend), descending=True))
    assert np.isnan(got[:2]).all()
    np.testing.assert_array_equal(got[2:], [np.inf, 1.0, 0.0, 0.0, -1.0, -np.inf])
    # argsort: -0 and +0 are ties (stable), NaNs last in their order
    order = get(numcu.argsort(to_backend(x, backend)))
    np.testing.assert_array_equal(order, [3, 6, 2, 4, 1, 5, 0, 7])


def test_bad_inputs_raise_clear_errors():
    x = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ValueError, match="one-dimensional"):
        numcu.searchsorted(x, 1.0)
    with pytest.raises(ValueError, match="dimensions"):
        numcu.take_along_axis(x, np.zeros(3, np.int64), axis=0)
    with pytest.raises(ValueError, match="broadcast"):
        numcu.take_along_axis(x, np.zeros((2, 4), np.int64), axis=1)
    with pytest.raises(ValueError, match="matmul"):
        numcu.matmul(x, x)
    with pytest.raises(ValueError, match="matmul"):
        numcu.matmul(x, np.float64(2.0))
    with pytest.raises(ValueError, match="concat"):
        numcu.concat([x, x[:, :2]], axis=0)
    with pytest.raises(ValueError, match="squeeze"):
        numcu.squeeze(x, axis=0)
    with pytest.raises(np.exceptions.AxisError):
        numcu.expand_dims(x, axis=3)
    with pytest.raises(ValueError, match="matrix_transpose"):
        numcu.matrix_transpose(np.arange(3.0))
    with pytest.raises(ValueError, match="cumulative_sum"):
        numcu.cumulative_sum(x)  # axis is required above one dimension
    with pytest.raises(TypeError, match="complex"):
        numcu.argsort(np.ones(3, np.complex64))


def unique_alone(x, backend, equal_nan=False):
    """numcu's distinct values of x alone (NaNs joined with equal_nan) on `backend`, as NumPy."""
    kwargs = {} if backend == "numcu" else {"device": backend}
    values = numcu._core._unique(
        to_backend(x, backend), True, False, False, False, not equal_nan, **kwargs
    )[0]
    check_type(values, backend)
    return get(values)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("equal_nan", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.bool_], ids=str)
def test_unique_values_alone(rng, backend, dtype, equal_nan):
    """Distinct values without positions or counts, NaNs joined or not: on a GPU integers (and
    floats with equal_nan) take the route that keeps one of each sorted key."""
    dtype = np.dtype(dtype)
    n = 5000
    if dtype.kind == "f":
        x = (rng.integers(-50, 50, n) / 4).astype(dtype)
        x[rng.integers(0, n, 40)] = np.nan
        x[rng.integers(0, n, 40)] = -0.0
    else:
        x = (random_array(rng, (n,), dtype) % 97).astype(dtype)
    assert_matches(unique_alone(x, backend, equal_nan), np.unique(x, equal_nan=equal_nan))
    if backend == "numcu":  # NumPy's unique on a numcu array comes here too
        assert_matches(
            get(np.unique(numcu.asarray(x), equal_nan=equal_nan)), np.unique(x, equal_nan=equal_nan)
        )
    every = np.arange(n).astype(dtype)
    assert_matches(unique_alone(every, backend), np.unique(every))
    assert unique_alone(x[:0], backend).size == 0


def narrow_key_data(rng, dtype, case, n=3000):
    """Elements whose sort keys share their high bits (the span unique's GPU sort skips)."""
    if case == "equal":
        return np.full(n, 7, dtype)
    if case == "wide":  # the type's whole range, each value a few times: sorted, not counted
        if dtype.kind == "f":
            values = (rng.standard_normal(n // 3) * 1e4).astype(dtype)
        else:
            info = np.iinfo(dtype)
            values = rng.integers(info.min, info.max, n // 3, dtype=dtype, endpoint=True)
        return rng.permutation(np.concatenate([values, values[: n // 2], values[::7]]))
    if dtype.kind == "f":
        if case == "offset":  # one binade: sign and exponent bits shared
            return (1 + rng.integers(0, 64, n) / 64).astype(dtype)
        return (-rng.integers(1, 40, n) / 8).astype(dtype)  # negatives, several binades
    info = np.iinfo(dtype)
    if case == "offset":  # a few hundred values a third of the way up the type's range
        base = int(info.min) + (int(info.max) - int(info.min)) // 3
        return (base + rng.integers(0, 300, n)).astype(dtype)
    if info.min < 0:  # negatives only
        return (-rng.integers(1, 50, n)).astype(dtype)
    return dtype.type(info.max) - rng.integers(0, 50, n).astype(dtype)  # near the top


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", ["offset", "below", "equal", "wide"])
@pytest.mark.parametrize(
    "dtype", [np.int16, np.uint16, np.int32, np.int64, np.uint64, np.float32, np.float64], ids=str
)
def test_unique_of_keys_sharing_high_bits(rng, backend, dtype, case):
    """Unique's GPU sort covers only the key bits where elements differ, and the distinct
    integers of a narrow range are found by marking, not sorting: values, positions, inverse
    and counts stay NumPy's for narrow ranges anywhere in the type's range and for wide ones."""
    x = narrow_key_data(rng, np.dtype(dtype), case)
    ev, ec = np.unique(x, return_counts=True)
    assert len(ev) > 1 or case == "equal"
    assert_matches(unique_alone(x, backend), ev)
    xb = to_backend(x, backend)
    values, indices, inverse, counts = (get(r) for r in numcu.unique_all(xb))
    assert_matches(values, ev)
    assert_matches(counts, ec)
    assert_matches(values[inverse], x)
    assert_matches(x[indices], ev)
    assert_matches(get(numcu.unique_counts(xb).counts), ec)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_sign_of_either_zero_is_positive_zero(backend, dtype):
    """NumPy's and the standard's sign(-0.0) is +0.0; NaN stays NaN."""
    x = np.array([-0.0, 0.0, -2.5, 3.0, np.nan], dtype)
    got = get(run_kernel(numcu.sign, backend, x))
    assert_matches(got, np.sign(x))
    assert not np.signbit(got[:2]).any()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["arcsin", "arccos", "arcsinh", "arccosh"])
def test_complex_inverse_trigonometry_far_from_the_origin(rng, backend, dtype, name):
    """Inverse trigonometric and hyperbolic functions of complex numbers far from the origin,
    near it and on the axes are NumPy's (libcu++'s acos(-4096+1j) was -inf j for complex64,
    and its complex128 results lost three digits at |z| = 4e7)."""
    z = np.array([-4096 + 1j, 4096 - 1j, 3e30 - 2e30j, 1e-3 + 1e4j, -2e7 - 3e7j, 2.5, -3.0, 3j])
    scale = np.array([1e-8, 1, 1e3, 1e7])[rng.integers(0, 4, 200)]
    z = np.concatenate([z, (rng.standard_normal(200) + 1j * rng.standard_normal(200)) * scale])
    z = z.astype(dtype)
    want = getattr(np, name)(z)
    got = get(run_kernel(getattr(numcu, name), backend, z))
    eps = np.finfo(dtype).eps
    np.testing.assert_allclose(got.real, want.real, rtol=8 * eps, atol=8 * eps)
    np.testing.assert_allclose(got.imag, want.imag, rtol=8 * eps, atol=8 * eps)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_tanh_and_acosh_special_values(backend, dtype):
    """C99's (NumPy's, the Array API's) tanh and acosh at zeros, infinities and NaNs."""
    inf, nan = np.inf, np.nan
    z = np.array(
        [
            complex(0, inf),
            complex(0, nan),
            complex(-0.0, inf),
            complex(inf, 1),
            complex(inf, -2),
            complex(-inf, 1),
            complex(inf, inf),
            complex(nan, 0),
            complex(0, 0),
            complex(-0.0, 0),
            complex(0, -0.0),
            complex(0.5, 0),
        ],
        dtype,
    )
    with np.errstate(all="ignore"):
        for name in ("tanh", "arccosh"):
            want = getattr(np, name)(z)
            got = get(run_kernel(getattr(numcu, name), backend, z))
            for part in ("real", "imag"):
                g, w = getattr(got, part), getattr(want, part)
                np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{name} {part}")
                finite = ~np.isnan(w)
                np.testing.assert_allclose(g[finite], w[finite], rtol=4 * np.finfo(dtype).eps)
                zero = w == 0
                np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]))
