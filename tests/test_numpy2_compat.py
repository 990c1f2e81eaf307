"""NumPy 2's behaviours that numcu follows, where code written for NumPy meets numcu arrays.

Specification:
- a comparison of an integer array with a Python integer beyond its dtype's range (uint8 with
  -55 or 300, int64 with 2**64 - 1) gives NumPy 2's booleans (NEP 50: the exact answer, the same
  for every element) on every route: numcu's functions with and without ``out=``, the operators,
  NumPy's ufuncs through ``__array_ufunc__``; host and device. logical_and/or/xor take such an
  integer as true, as NumPy does; clip ignores such a bound on the side where it binds nothing
  (NumPy's rule). Arithmetic with it still raises OverflowError naming the function, as NumPy's;
- NumPy's other names for numcu's ufuncs and functions are there and are the same functions:
  true_divide, mod, bitwise_not, degrees, radians, conjugate, amax, amin, around,
  concatenate, transpose; NumPy's ufuncs of those names dispatch to numcu on device arrays;
- ``np.unravel_index`` and ``np.ravel_multi_index`` run on numcu arrays (``__array_function__``)
  and give NumPy's coordinates and positions (orders C and F, modes wrap and clip), host
  coordinates out of bounds raising ValueError.

Backends: "cpu" (host operands, device="cpu"), "cuda" (host operands on the GPU, gpu) and
"numcu" (device operands, gpu). NumPy on fresh random data is the oracle.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import BACKENDS, assert_matches, call_on, gpu_param, poisoned, to_backend

import numcu
from numcu import _array_api

COMPARISONS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def full_range(rng, dtype, n=64):
    """Integers over the dtype's whole range, its extremes included."""
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
    a[:2] = info.min, info.max
    return a


def beyond(dtype):
    """Python integers just and far beyond the dtype's range (within 64 bits)."""
    info = np.iinfo(dtype)
    values = [int(info.max) + 1, -1 if info.min == 0 else int(info.min) - 1]
    values += [v for v in (2**64 - 1, -(2**63), 300, -55) if not info.min <= v <= info.max]
    return sorted(set(v for v in values if -(2**63) <= v < 2**64))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
@pytest.mark.parametrize("name", COMPARISONS)
def test_comparison_with_python_int_beyond_range(rng, backend, dtype, name):
    a = full_range(rng, dtype).reshape(8, 8)
    fn = getattr(numcu, name)
    for value in beyond(dtype):
        for args in ((a, value), (value, a)):
            expected = getattr(np, name)(*args)
            assert_matches(call_on(backend, fn, *args), expected)
        out = poisoned(a.shape, np.bool_, getattr(np, name)(a, value))
        if backend == "numcu":
            d_out = numcu.asarray(out)
            assert fn(to_backend(a, backend), value, out=d_out) is d_out
            out = d_out.get()
        else:
            assert fn(a, value, out=out, device=backend) is out
        assert_matches(out, getattr(np, name)(a, value))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64, np.uint64], ids=str)
def test_comparison_operators_and_numpy_ufuncs_beyond_range(rng, dtype):
    a = full_range(rng, dtype)
    d = numcu.asarray(a)
    for value in beyond(dtype):
        pairs = [
            (d == value, a == value),
            (d != value, a != value),
            (d < value, a < value),
            (d <= value, a <= value),
            (d > value, a > value),
            (d >= value, a >= value),
            (value < d, value < a),
            (value >= d, value >= a),
        ]
        pairs += [(getattr(np, n)(d, value), getattr(np, n)(a, value)) for n in COMPARISONS]
        pairs += [(getattr(np, n)(value, d), getattr(np, n)(value, a)) for n in COMPARISONS]
        for got, expected in pairs:
            assert isinstance(got, numcu.ndarray)
            assert_matches(got.get(), expected)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.uint64], ids=str)
def test_comparison_through_array_ufunc_on_the_cpu_backend(rng, dtype):
    a = full_range(rng, dtype)
    for value in beyond(dtype):
        for name in COMPARISONS:
            got = _array_api.array_ufunc(None, getattr(np, name), "__call__", a, value)
            assert_matches(got, getattr(np, name)(a, value))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
def test_logical_functions_take_a_python_int_beyond_range_as_true(rng, backend, name):
    a = full_range(rng, np.uint8)
    a[2:10] = 0
    for value in (300, -1, 2**40):
        for args in ((a, value), (value, a)):
            assert_matches(call_on(backend, getattr(numcu, name), *args), getattr(np, name)(*args))


@pytest.mark.parametrize("backend", BACKENDS)
def test_clip_ignores_a_bound_beyond_range_where_it_binds_nothing(rng, backend):
    a = full_range(rng, np.uint8)
    d = to_backend(a, backend)
    for lo, hi in ((-5, 300), (-5, None), (None, 300), (3, 300), (-5, 200)):
        got = numcu.clip(d, lo, hi)
        assert_matches(np.asarray(got.get() if backend == "numcu" else got), np.clip(a, lo, hi))
    for lo, hi in ((300, None), (None, -5), (300, 400)):
        with pytest.raises(OverflowError, match=r"numcu\.\w+: Python integer"):
            numcu.clip(d, lo, hi)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "bitwise_and"])
def test_arithmetic_with_python_int_beyond_range_still_raises(rng, backend, name):
    a = full_range(rng, np.uint8)
    with pytest.raises(OverflowError, match=f"numcu.{name}: Python integer 300 out of bounds"):
        call_on(backend, getattr(numcu, name), a, 300)
    with pytest.raises(OverflowError):
        getattr(np, name)(a, 300)


# --------------------------------------------------------------------------------------------
# NumPy's other names

UFUNC_ALIASES = {
    "true_divide": "divide",
    "mod": "remainder",
    "bitwise_not": "invert",
    "degrees": "rad2deg",
    "radians": "deg2rad",
}
FUNCTION_ALIASES = {"conjugate": "conj", "amax": "max", "amin": "min", "around": "round"}


def test_aliases_are_the_same_functions():
    for alias, name in {**UFUNC_ALIASES, **FUNCTION_ALIASES}.items():
        assert getattr(numcu, alias) is getattr(numcu, name), alias
        assert alias in numcu.__all__, alias


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("alias", list(UFUNC_ALIASES))
def test_ufunc_aliases_match_numpy(rng, backend, alias):
    fn, np_fn = getattr(numcu, alias), getattr(np, alias)
    if alias == "bitwise_not":
        a = rng.integers(-100, 100, (5, 6)).astype(np.int16)
        assert_matches(call_on(backend, fn, a), np_fn(a))
        return
    a = rng.standard_normal((5, 6)).astype(np.float32) * 3
    b = rng.standard_normal((6,)).astype(np.float32) * 3 + 0.5
    args = (a, b) if np_fn.nin == 2 else (a,)
    assert_matches(call_on(backend, fn, *args), np_fn(*args), rtol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("alias", ["true_divide", "mod", "degrees", "radians", "conjugate"])
def test_numpy_aliases_dispatch_to_numcu(rng, alias):
    a = rng.standard_normal((4, 5)) + (
        1j * rng.standard_normal((4, 5)) if alias == "conjugate" else 0
    )
    b = rng.standard_normal(5) + 2.0
    np_fn = getattr(np, alias)
    args = (a, b) if np_fn.nin == 2 else (a,)
    got = np_fn(*(numcu.asarray(x) for x in args))
    assert isinstance(got, numcu.ndarray)
    assert_matches(got.get(), np_fn(*args), rtol=1e-12)


@pytest.mark.parametrize("backend", ["cpu", gpu_param("numcu")])
def test_function_aliases_match_numpy(rng, backend):
    a = rng.standard_normal((4, 5))
    b = rng.standard_normal((2, 5))
    d, e = to_backend(a, backend), to_backend(b, backend)

    def host(x):
        return x.get() if isinstance(x, numcu.ndarray) else x

    assert_matches(host(numcu.amax(d, axis=1)), np.amax(a, axis=1))
    assert_matches(host(numcu.amin(d, 0)), np.amin(a, 0))
    assert_matches(host(numcu.around(d, 2)), np.around(a, 2))
    assert_matches(host(numcu.concatenate([d, e])), np.concatenate([a, b]))
    assert_matches(host(numcu.concatenate((d, e), 0)), np.concatenate((a, b), 0))
    assert_matches(host(numcu.transpose(d)), np.transpose(a))
    assert_matches(host(numcu.transpose(d[None], (2, 0, 1))), np.transpose(a[None], (2, 0, 1)))
    with pytest.raises(TypeError, match="casting"):
        numcu.concatenate([d, e], casting="unsafe")


# --------------------------------------------------------------------------------------------
# unravel_index and ravel_multi_index


def through_numpy(backend, fn, *args, **kwargs):
    """NumPy's `fn` on numcu arrays (numcu), or its __array_function__ route called directly
    with host arrays (cpu), as test_numpy_protocols.py does."""
    if backend == "numcu":
        return fn(*args, **kwargs)
    r = _array_api.array_function(None, fn, (np.ndarray,), args, kwargs)
    assert r is not NotImplemented
    return r


def host_of(x):
    return x.get() if isinstance(x, numcu.ndarray) else x


@pytest.mark.parametrize("backend", ["cpu", gpu_param("numcu")])
@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 5, 3), (1, 6, 1, 2)], ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_index(rng, backend, shape, order):
    size = int(np.prod(shape))
    flat = rng.integers(0, size, (4, 5))
    # flat[0, 0] is a NumPy scalar (its reshape too): the 0-d case needs a 0-d array.
    for idx in (flat, flat[:, 0], np.array(flat[0, 0])):
        assert isinstance(idx, np.ndarray)
        got = through_numpy(backend, np.unravel_index, to_backend(idx, backend), shape, order=order)
        expected = np.unravel_index(idx, shape, order=order)
        assert type(got) is tuple and len(got) == len(shape)
        for g, e in zip(got, expected):
            if backend == "numcu":
                assert isinstance(g, numcu.ndarray)
            assert_matches(np.asarray(host_of(g)), np.asarray(e))


@pytest.mark.parametrize("backend", ["cpu", gpu_param("numcu")])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("wrap", "clip", "raise")], ids=str)
def test_ravel_multi_index(rng, backend, order, mode):
    dims = (4, 3, 5)
    coords = [rng.integers(0, n, (6,)) for n in dims]
    if mode != "raise":
        coords[0] = rng.integers(-9, 9, (6,))
        coords[1] = rng.integers(-7, 7, (2, 1))  # broadcasts with the others
    args = tuple(to_backend(c, backend) for c in coords)
    got = through_numpy(backend, np.ravel_multi_index, args, dims, mode=mode, order=order)
    expected = np.ravel_multi_index(tuple(coords), dims, mode=mode, order=order)
    if backend == "numcu":
        assert isinstance(got, numcu.ndarray)
    assert_matches(np.asarray(host_of(got)).astype(np.intp), expected)


def test_unravel_and_ravel_errors():
    with pytest.raises(ValueError, match="numcu.unravel_index: index 12 is out of bounds"):
        numcu.unravel_index(np.array([3, 12]), (3, 4))
    with pytest.raises(ValueError, match="out of bounds"):
        numcu.unravel_index(np.array([-1]), (3, 4))
    with pytest.raises(TypeError, match="numcu.unravel_index: indices must be integers"):
        numcu.unravel_index(np.array([1.0]), (3, 4))
    with pytest.raises(ValueError, match="empty shape"):
        numcu.unravel_index(np.array([0]), (3, 0))
    with pytest.raises(ValueError, match="order must be 'C' or 'F'"):
        numcu.unravel_index(np.array([0]), (3,), order="K")
    with pytest.raises(ValueError, match="numcu.ravel_multi_index: a coordinate is outside"):
        numcu.ravel_multi_index((np.array([1]), np.array([4])), (3, 4))
    with pytest.raises(ValueError, match="must have 2 arrays"):
        numcu.ravel_multi_index((np.array([1]),), (3, 4))
    with pytest.raises(ValueError, match="mode must be"):
        numcu.ravel_multi_index((np.array([1]), np.array([1])), (3, 4), mode="bounce")
    with pytest.raises(TypeError, match="coordinates must be integers"):
        numcu.ravel_multi_index((np.array([1.0]), np.array([1])), (3, 4))


@pytest.mark.gpu
def test_device_positions_are_not_waited_for(rng):
    """Device positions are not checked (that would wait for the GPU): they wrap around."""
    got = numcu.unravel_index(numcu.asarray(np.array([13])), (3, 4))
    assert [int(g.get()[0]) for g in got] == [0, 1]
