"""NumPy's dispatch protocols on numcu.ndarray: __array_ufunc__ and __array_function__.

NumPy code handed numcu arrays runs numcu's kernels and gets numcu arrays back; what numcu does
not implement raises NumPy's TypeError, and nothing is copied to the host behind the caller's
back.

Backends: "numcu" (gpu) hands device arrays to NumPy's own functions and ufuncs, which dispatch
to numcu. "cpu" calls the protocol methods' implementations directly with NumPy arrays (NumPy
would not dispatch host arrays to numcu), so that CI checks the translation of NumPy's
signatures onto numcu's functions on the CPU backend.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, gpu_param, random_array

import numcu
from numcu import _array_api

DTYPES = [np.int32, np.float32, np.float64]


@pytest.fixture(params=["cpu", gpu_param("numcu")])
def backend(request):
    return request.param


def dev(a, backend="numcu"):
    if backend == "cpu":
        return a
    d = numcu.asarray(a)
    assert isinstance(d, numcu.ndarray)
    return d


def host(r, backend="numcu"):
    if backend == "cpu":
        assert isinstance(r, (np.ndarray, np.generic)), f"expected NumPy data, got {type(r)!r}"
        return r
    assert isinstance(r, numcu.ndarray), f"expected a numcu.ndarray, got {type(r)!r}"
    return r.get()


def ufunc(backend, uf, *inputs, method="__call__", **kwargs):
    """`uf` (a NumPy ufunc) or its `method` on `inputs`, through numcu.ndarray.__array_ufunc__."""
    if backend == "numcu":
        return (uf if method == "__call__" else getattr(uf, method))(*inputs, **kwargs)
    if "out" in kwargs and not isinstance(kwargs["out"], tuple):
        kwargs["out"] = (kwargs["out"],)  # as NumPy hands it over
    r = _array_api.array_ufunc(None, uf, method, *inputs, **kwargs)
    assert r is not NotImplemented
    return r


def function(backend, fn, *args, **kwargs):
    """NumPy's `fn` on `args`, through numcu.ndarray.__array_function__."""
    if backend == "numcu":
        return fn(*args, **kwargs)
    if isinstance(fn, np.ufunc):  # np.matmul
        return ufunc(backend, fn, *args, **kwargs)
    r = _array_api.array_function(None, fn, (np.ndarray,), args, kwargs)
    assert r is not NotImplemented, fn.__name__
    return r


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(
    "uf", [np.add, np.multiply, np.maximum, np.less, np.arctan2, np.logical_xor]
)
def test_binary_ufuncs(rng, backend, dtype, uf):
    if uf is np.arctan2 and np.dtype(dtype).kind != "f":
        pytest.skip("arctan2 of integers gives float64 in both; covered by the float cases")
    a = random_array(rng, (4, 5), dtype)
    b = random_array(rng, (5,), dtype)
    da, db = dev(a, backend), dev(b, backend)
    assert_matches(host(ufunc(backend, uf, da, db), backend), uf(a, b))
    # A Python scalar and a NumPy scalar beside an array.
    assert_matches(host(ufunc(backend, uf, da, 3), backend), uf(a, 3))
    assert_matches(host(ufunc(backend, uf, da, dtype(2)), backend), uf(a, dtype(2)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
@pytest.mark.parametrize("uf", [np.sin, np.exp, np.sqrt, np.negative, np.absolute, np.isnan])
def test_unary_ufuncs(rng, backend, dtype, uf):
    a = np.abs(random_array(rng, (3, 7), dtype))
    assert_matches(host(ufunc(backend, uf, dev(a, backend)), backend), uf(a))


def test_ufunc_out_where_dtype(rng, backend):
    a = random_array(rng, (6, 4), np.float64)
    b = random_array(rng, (6, 4), np.float64)
    da, db = dev(a, backend), dev(b, backend)
    out = dev(np.full((6, 4), np.nan), backend)
    assert ufunc(backend, np.add, da, db, out=out) is out
    assert_matches(host(out, backend), a + b)
    assert ufunc(backend, np.multiply, da, db, out=(out,)) is out
    assert_matches(host(out, backend), a * b)
    where = a > 0
    poison = np.full((6, 4), 7.5)
    out = dev(poison.copy(), backend)
    ufunc(backend, np.subtract, da, db, out=out, where=dev(where, backend))
    assert_matches(host(out, backend), np.where(where, a - b, poison))
    i = random_array(rng, (6, 4), np.int32)
    got = ufunc(backend, np.add, dev(i, backend), dev(i, backend), dtype=np.float32)
    assert_matches(host(got, backend), np.add(i, i, dtype=np.float32))
    with pytest.raises(TypeError):
        ufunc(backend, np.add, da, db, dtype=np.int32)  # not a same_kind cast
    # outer
    x, y = a[:, 0], b[0]
    assert_matches(
        host(
            ufunc(backend, np.multiply, dev(x, backend), dev(y, backend), method="outer"), backend
        ),
        np.multiply.outer(x, y),
    )


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reduce_and_accumulate(rng, backend, dtype):
    a = random_array(rng, (5, 6, 3), dtype)
    d = dev(a, backend)
    for axis in (0, 1, None, (0, 2)):
        for keepdims in (False, True):
            for uf in (np.add, np.maximum, np.minimum, np.logical_or):
                got = ufunc(backend, uf, d, method="reduce", axis=axis, keepdims=keepdims)
                expected = uf.reduce(a, axis=axis, keepdims=keepdims)
                assert_matches(np.asarray(host(got, backend)), np.asarray(expected), rtol=1e-5)
    for uf, axis in ((np.add, 1), (np.multiply, 0)):
        got = ufunc(backend, uf, d, method="accumulate", axis=axis)
        assert_matches(host(got, backend), uf.accumulate(a, axis=axis), rtol=1e-5)
    out = dev(np.full((6, 3), 77, np.int64 if dtype == np.int32 else dtype), backend)
    assert ufunc(backend, np.add, d, method="reduce", axis=0, out=out) is out
    assert_matches(host(out, backend), np.add.reduce(a, axis=0).astype(out.dtype), rtol=1e-5)
    got = ufunc(backend, np.add, d, method="reduce", axis=1, dtype=np.float64)
    assert_matches(host(got, backend), np.add.reduce(a, axis=1, dtype=np.float64), rtol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reduction_functions(rng, backend, dtype):
    a = random_array(rng, (4, 7, 3), dtype)
    d = dev(a, backend)
    for fn in (np.sum, np.prod, np.mean, np.min, np.max, np.any, np.all, np.std, np.var):
        for axis in (None, 0, -1, (0, 1)):
            for keepdims in (False, True):
                got = function(backend, fn, d, axis=axis, keepdims=keepdims)
                expected = fn(a, axis=axis, keepdims=keepdims)
                try:
                    assert_matches(np.asarray(host(got, backend)), np.asarray(expected), rtol=1e-4)
                except AssertionError as exc:
                    msg = f"{fn.__name__} axis={axis} keepdims={keepdims}: {exc}"
                    raise AssertionError(msg) from None
    for fn in (np.argmin, np.argmax, np.cumsum, np.cumprod, np.count_nonzero):
        for axis in (None, 1):
            got = function(backend, fn, d, axis=axis)
            assert_matches(np.asarray(host(got, backend)), np.asarray(fn(a, axis=axis)), rtol=1e-4)
    out = dev(np.full((7, 3), np.nan), backend)
    assert function(backend, np.sum, d, axis=0, out=out, dtype=np.float64) is out
    assert_matches(host(out, backend), np.sum(a, axis=0, dtype=np.float64))
    got = function(backend, np.std, d, axis=1, ddof=1)
    assert_matches(host(got, backend), np.std(a, axis=1, ddof=1), rtol=1e-4)
    with pytest.raises(TypeError, match="where"):
        function(backend, np.sum, d, where=dev(a > 0, backend))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_manipulation_functions(rng, backend, dtype):
    a = random_array(rng, (3, 4), dtype)
    b = random_array(rng, (3, 4), dtype)
    da, db = dev(a, backend), dev(b, backend)
    two = dev(np.array([2, 0]), backend)
    cases = [
        (np.concatenate, ([da, db],), ([a, b],), {"axis": 1}),
        (np.concatenate, ([da, db],), ([a, b],), {"axis": None}),
        (np.stack, ([da, db],), ([a, b],), {"axis": -1}),
        (np.vstack, ([da, db],), ([a, b],), {}),
        (np.hstack, ([da, db],), ([a, b],), {}),
        (np.reshape, (da, (2, 6)), (a, (2, 6)), {}),
        (np.transpose, (da,), (a,), {}),
        (np.swapaxes, (da, 0, 1), (a, 0, 1), {}),
        (np.moveaxis, (da, 0, 1), (a, 0, 1), {}),
        (np.expand_dims, (da, 1), (a, 1), {}),
        (np.atleast_3d, (da,), (a,), {}),
        (np.flip, (da,), (a,), {"axis": 0}),
        (np.roll, (da, 2), (a, 2), {"axis": 1}),
        (np.tile, (da, 2), (a, 2), {}),
        (np.repeat, (da, 2), (a, 2), {"axis": 0}),
        (np.broadcast_to, (da, (2, 3, 4)), (a, (2, 3, 4)), {}),
        (np.where, (da > 0, da, db), (a > 0, a, b), {}),
        (np.clip, (da, -1, 1), (a, -1, 1), {}),
        (np.sort, (da,), (a,), {"axis": 0}),
        (np.argsort, (da,), (a,), {"axis": 1, "kind": "stable"}),
        (np.take, (da, two), (a, np.array([2, 0])), {"axis": 1}),
        (
            np.take_along_axis,
            (da, dev(np.argsort(a, axis=0), backend)),
            (a, np.argsort(a, axis=0)),
            {"axis": 0},
        ),
        (np.searchsorted, (dev(np.sort(a[0]), backend), db), (np.sort(a[0]), b), {"side": "right"}),
        (np.diff, (da,), (a,), {"axis": 0}),
        (np.ravel, (da,), (a,), {}),
        (np.squeeze, (da[:1],), (a[:1],), {}),
        (np.tril, (da,), (a,), {}),
        (np.triu, (da,), (a,), {"k": 1}),
        (np.argwhere, (da > 0,), (a > 0,), {}),
        (np.flatnonzero, (da > 0,), (a > 0,), {}),
        (np.zeros_like, (da,), (a,), {}),
        (np.ones_like, (da,), (a,), {"dtype": np.float32}),
        (np.full_like, (da, 3), (a, 3), {}),
        (np.matmul, (da, db.T if backend == "cpu" else db.transpose()), (a, b.T), {}),
        (np.dot, (da, db.T if backend == "cpu" else db.transpose()), (a, b.T), {}),
        (np.tensordot, (da, db), (a, b), {"axes": ([0], [0])}),
        (np.round, (da,), (a,), {}),
    ]
    for fn, dargs, hargs, kwargs in cases:
        got = function(backend, fn, *dargs, **kwargs)
        try:
            assert_matches(host(got, backend), fn(*hargs, **kwargs), rtol=1e-5)
        except AssertionError as exc:
            raise AssertionError(f"{fn.__name__}: {exc}") from None
    for got, expected in zip(function(backend, np.nonzero, da > 0), np.nonzero(a > 0), strict=True):
        assert_matches(host(got, backend), expected)
    small = (a % 3).astype(dtype)
    got = function(backend, np.unique, dev(small, backend), return_counts=True, return_inverse=True)
    expected = np.unique(small, return_counts=True, return_inverse=True)
    for g, e in zip(got, expected, strict=True):
        assert_matches(host(g, backend), e)
    same = dev(a.copy(), backend)
    assert function(backend, np.allclose, da, same)
    assert function(backend, np.array_equal, da, same)
    assert not function(backend, np.array_equal, da, db)
    assert function(backend, np.shape, da) == a.shape
    assert function(backend, np.ndim, da) == 2
    assert function(backend, np.size, da) == 12
    out = dev(np.full((3, 4), np.nan), backend)
    function(backend, np.copyto, out, da)
    assert_matches(host(out, backend), a.astype(out.dtype))


@pytest.mark.parametrize("name", [n for n in numcu.REDUCTIONS if hasattr(np, n)])
def test_every_reduction_reaches_numpys_function_of_its_name(rng, backend, name):
    """numcu's reductions and scans are found by NumPy's names: one added to numcu's table is
    reached without a line of its own."""
    a = random_array(rng, (4, 5), np.float64)
    got = function(backend, getattr(np, name), dev(a, backend), axis=0)
    assert_matches(host(got, backend), getattr(np, name)(a, axis=0), rtol=1e-10)


def test_numpys_arguments_by_position_at_their_default_and_out(rng, backend):
    """NumPy's positional arguments reach numcu's keyword-only parameters by NumPy's names; a
    NumPy argument numcu does not take is accepted at NumPy's default and refused otherwise; an
    out= numcu's function does not take gets the result."""
    a = random_array(rng, (3, 4), np.float64)
    b = random_array(rng, (3, 4), np.float64)
    da, db = dev(a, backend), dev(b, backend)
    cases = [
        (np.stack, ([da, db], 1), ([a, b], 1)),
        (np.concatenate, ([da, db], 1, None), ([a, b], 1, None)),
        (np.expand_dims, (da, 0), (a, 0)),
        (np.flip, (da, 1), (a, 1)),
        (np.roll, (da, 1, 0), (a, 1, 0)),
        (np.repeat, (da, 2, 1), (a, 2, 1)),
        (np.reshape, (da, (4, 3), "C"), (a, (4, 3), "C")),
        (np.take, (da, dev(np.array([1, 0]), backend), 0), (a, np.array([1, 0]), 0)),
        (np.diff, (da, 2), (a, 2)),
    ]
    for fn, dargs, hargs in cases:
        assert_matches(host(function(backend, fn, *dargs), backend), fn(*hargs))
    out = dev(np.full((3, 2), np.nan), backend)
    got = function(backend, np.take, da, dev(np.array([2, 0]), backend), 1, out)
    assert got is out
    assert_matches(host(out, backend), np.take(a, [2, 0], 1))
    with pytest.raises(TypeError, match="numcu.reshape: NumPy's order= is not supported"):
        function(backend, np.reshape, da, (4, 3), "F")
    with pytest.raises(TypeError, match="numcu.take: NumPy's mode= is not supported"):
        function(backend, np.take, da, dev(np.array([1]), backend), mode="clip")


@pytest.mark.gpu
def test_device_arrays_stay_on_the_gpu(rng):
    a = random_array(rng, (3, 4), np.float64)
    d = dev(a)
    assert isinstance(np.concatenate([d, d]), numcu.ndarray)
    assert isinstance(np.sum(d, axis=0, keepdims=True), numcu.ndarray)
    assert isinstance(np.add(d, 1), numcu.ndarray)
    assert isinstance(d @ d.transpose(), numcu.ndarray)


@pytest.mark.gpu
def test_unimplemented_gives_numpys_type_error(rng):
    # What numcu lacks (in numcu, in numcu.linalg, among a ufunc's methods and arguments) is
    # NumPy's TypeError, never a silent copy to the host.
    for name, module in [("median", numcu), ("tensorsolve", numcu.linalg)]:
        assert not hasattr(module, name), f"{name} exists now: pick another unimplemented one"
    d = dev(random_array(rng, (4, 4), np.float64))
    numpys = "no implementation found|returned NotImplemented"  # NumPy's words, not numcu's
    with pytest.raises(TypeError, match=numpys):
        np.linalg.tensorsolve(d, d[0])
    with pytest.raises(TypeError, match=numpys):
        np.add.reduceat(d, [0, 2])
    with pytest.raises(TypeError, match=numpys):
        np.add(d, d, casting="unsafe", dtype=np.int32)
    with pytest.raises(TypeError, match=numpys):
        np.median(d)


@pytest.mark.gpu
def test_mixed_numpy_and_device_operands_are_not_copied(rng):
    a = random_array(rng, (4,), np.float64)
    d = dev(a)
    # A NumPy array beside a device array: numcu refuses (different devices), NumPy raises.
    with pytest.raises((TypeError, ValueError)):
        np.add(d, a)
    with pytest.raises((TypeError, ValueError)):
        np.concatenate([d, a])


@pytest.mark.gpu
def test_like_creation_goes_to_the_gpu(rng):
    d = dev(random_array(rng, (3,), np.float64))
    host_data = random_array(rng, (2, 2), np.float32)
    for r, expected in [
        (np.asarray(host_data, like=d), host_data),
        (np.array(host_data, like=d), host_data),
        (np.zeros((2, 3), like=d), np.zeros((2, 3))),
        (np.ones(4, dtype=np.int32, like=d), np.ones(4, dtype=np.int32)),
        (np.full((2,), 7.5, like=d), np.full((2,), 7.5)),
        (np.arange(5, like=d), np.arange(5)),
        (np.eye(3, like=d), np.eye(3)),
    ]:
        assert_matches(host(r), expected)


@pytest.mark.gpu
def test_xarray_wraps_device_arrays(rng):
    xr = pytest.importorskip("xarray")
    a = random_array(rng, (4, 5), np.float64)
    da = xr.DataArray(dev(a), dims=("x", "y"))
    assert isinstance(da.data, numcu.ndarray)
    r = (da * 2 + 1).mean("x")
    assert isinstance(r.data, numcu.ndarray)
    assert_matches(r.data.get(), (a * 2 + 1).mean(axis=0), rtol=1e-12)
    s = da.sum("y")
    assert_matches(s.data.get(), a.sum(axis=1), rtol=1e-12)
    m = da.max()
    assert_matches(np.asarray(m.data.get()), np.asarray(a.max()))


@pytest.mark.gpu
def test_array_api_compat_finds_numcu_and_its_helpers_work(rng):
    """array-api-compat, which SciPy and scikit-learn write against, finds numcu's namespace for
    numcu arrays; its helpers work on them, and code written against the namespace runs on the
    GPU and gives NumPy's values."""
    compat = pytest.importorskip("array_api_compat")
    a = random_array(rng, (6, 5), np.float64)
    d = dev(a)
    assert compat.is_array_api_obj(d)
    assert compat.array_namespace(d, dev(a[:1]), 2.0) is numcu
    assert compat.device(d) == d.device
    assert compat.size(d) == a.size
    assert compat.is_writeable_array(d)
    host = compat.to_device(d, "cpu")
    assert isinstance(host, np.ndarray)
    assert_matches(host, a)

    def standardize(x):
        xp = compat.array_namespace(x)
        return (x - xp.mean(x, axis=0)) / xp.std(x, axis=0)

    r = standardize(d)
    assert isinstance(r, numcu.ndarray)
    assert_matches(r.get(), (a - a.mean(axis=0)) / a.std(axis=0), rtol=1e-12)
    sorted_rows = compat.array_namespace(d).sort(d, axis=1)
    assert_matches(sorted_rows.get(), np.sort(a, axis=1))
