"""NumPy's dispatch protocols on numcu.ndarray: __array_ufunc__ and __array_function__.

NumPy code handed numcu arrays runs numcu's kernels and gets numcu arrays back; what numcu does
not implement raises NumPy's TypeError, and nothing is copied to the host behind the caller's
back. All of it needs device arrays, so every test here is gpu.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array

import numcu

pytestmark = pytest.mark.gpu

DTYPES = [np.int32, np.float32, np.float64]


def dev(a):
    d = numcu.asarray(a)
    assert isinstance(d, numcu.ndarray)
    return d


def host(r):
    assert isinstance(r, numcu.ndarray), f"expected a numcu.ndarray, got {type(r)!r}"
    return r.get()


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(
    "ufunc", [np.add, np.multiply, np.maximum, np.less, np.arctan2, np.logical_xor]
)
def test_binary_ufuncs(rng, dtype, ufunc):
    if ufunc is np.arctan2 and np.dtype(dtype).kind != "f":
        pytest.skip("arctan2 of integers gives float64 in both; covered by the float cases")
    a = random_array(rng, (4, 5), dtype)
    b = random_array(rng, (5,), dtype)
    assert_matches(host(ufunc(dev(a), dev(b))), ufunc(a, b))
    # A NumPy scalar and a Python scalar beside a device array.
    assert_matches(host(ufunc(dev(a), 3)), ufunc(a, 3))
    assert_matches(host(ufunc(dev(a), dtype(2))), ufunc(a, dtype(2)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
@pytest.mark.parametrize("ufunc", [np.sin, np.exp, np.sqrt, np.negative, np.absolute, np.isnan])
def test_unary_ufuncs(rng, dtype, ufunc):
    a = np.abs(random_array(rng, (3, 7), dtype))
    assert_matches(host(ufunc(dev(a))), ufunc(a))


def test_ufunc_out_and_where(rng):
    a = random_array(rng, (6, 4), np.float64)
    b = random_array(rng, (6, 4), np.float64)
    out = dev(np.full((6, 4), np.nan))
    r = np.add(dev(a), dev(b), out=out)
    assert r is out
    assert_matches(out.get(), a + b)
    r = np.multiply(dev(a), dev(b), out=(out,))
    assert r is out
    assert_matches(out.get(), a * b)
    where = a > 0
    poison = np.full((6, 4), 7.5)
    out = dev(poison)
    np.subtract(dev(a), dev(b), out=out, where=dev(where))
    assert_matches(out.get(), np.where(where, a - b, poison))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reduce_and_accumulate(rng, dtype):
    a = random_array(rng, (5, 6, 3), dtype)
    d = dev(a)
    for axis in (0, 1, None, (0, 2)):
        for keepdims in (False, True):
            assert_matches(
                np.asarray(host(np.add.reduce(d, axis=axis, keepdims=keepdims))),
                np.asarray(np.add.reduce(a, axis=axis, keepdims=keepdims)),
                rtol=1e-5,
            )
            assert_matches(
                np.asarray(host(np.maximum.reduce(d, axis=axis, keepdims=keepdims))),
                np.asarray(np.maximum.reduce(a, axis=axis, keepdims=keepdims)),
            )
    assert_matches(host(np.add.accumulate(d, axis=1)), np.add.accumulate(a, axis=1), rtol=1e-5)
    assert_matches(
        host(np.multiply.accumulate(d, axis=0)), np.multiply.accumulate(a, axis=0), rtol=1e-5
    )
    out = dev(np.full((6, 3), 77, dtype))
    assert np.add.reduce(d, axis=0, out=out) is out
    assert_matches(out.get(), np.add.reduce(a, axis=0))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reduction_functions(rng, dtype):
    a = random_array(rng, (4, 7, 3), dtype)
    d = dev(a)
    for fn in (np.sum, np.prod, np.mean, np.min, np.max, np.any, np.all, np.std, np.var):
        for axis in (None, 0, -1, (0, 1)):
            for keepdims in (False, True):
                got = fn(d, axis=axis, keepdims=keepdims)
                expected = fn(a, axis=axis, keepdims=keepdims)
                try:
                    assert_matches(np.asarray(host(got)), np.asarray(expected), rtol=1e-4)
                except AssertionError as exc:
                    raise AssertionError(
                        f"{fn.__name__} axis={axis} keepdims={keepdims}: {exc}"
                    ) from None
    for fn in (np.argmin, np.argmax, np.cumsum):
        for axis in (None, 1):
            assert_matches(
                np.asarray(host(fn(d, axis=axis))), np.asarray(fn(a, axis=axis)), rtol=1e-5
            )
    out = dev(np.full((7, 3), np.nan))
    assert np.sum(d, axis=0, out=out, dtype=np.float64) is out
    assert_matches(out.get(), np.sum(a, axis=0, dtype=np.float64))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_manipulation_functions(rng, dtype):
    a = random_array(rng, (3, 4), dtype)
    b = random_array(rng, (3, 4), dtype)
    da, db = dev(a), dev(b)
    cases = [
        (np.concatenate, ([da, db],), ([a, b],), {"axis": 1}),
        (np.concatenate, ([da, db],), ([a, b],), {"axis": None}),
        (np.stack, ([da, db],), ([a, b],), {"axis": -1}),
        (np.reshape, (da, (2, 6)), (a, (2, 6)), {}),
        (np.transpose, (da,), (a,), {}),
        (np.moveaxis, (da, 0, 1), (a, 0, 1), {}),
        (np.expand_dims, (da, 1), (a, 1), {}),
        (np.flip, (da,), (a,), {"axis": 0}),
        (np.roll, (da, 2), (a, 2), {"axis": 1}),
        (np.tile, (da, 2), (a, 2), {}),
        (np.repeat, (da, 2), (a, 2), {"axis": 0}),
        (np.broadcast_to, (da, (2, 3, 4)), (a, (2, 3, 4)), {}),
        (np.where, (da > 0, da, db), (a > 0, a, b), {}),
        (np.clip, (da, -1, 1), (a, -1, 1), {}),
        (np.sort, (da,), (a,), {"axis": 0}),
        (np.argsort, (da,), (a,), {"axis": 1, "kind": "stable"}),
        (np.take, (da, dev(np.array([2, 0]))), (a, np.array([2, 0])), {"axis": 1}),
        (np.diff, (da,), (a,), {"axis": 0}),
        (np.ravel, (da,), (a,), {}),
        (np.squeeze, (da[:1],), (a[:1],), {}),
        (np.tril, (da,), (a,), {}),
        (np.zeros_like, (da,), (a,), {}),
        (np.full_like, (da, 3), (a, 3), {}),
    ]
    for fn, dargs, hargs, kwargs in cases:
        got = fn(*dargs, **kwargs)
        try:
            assert_matches(host(got), fn(*hargs, **kwargs))
        except AssertionError as exc:
            raise AssertionError(f"{fn.__name__}: {exc}") from None
    values, counts = np.unique(dev((a % 3).astype(dtype)), return_counts=True)
    ev, ec = np.unique((a % 3).astype(dtype), return_counts=True)
    assert_matches(host(values), ev)
    assert_matches(host(counts), ec)
    assert np.allclose(da, da)
    assert np.array_equal(da, da)
    assert np.shape(da) == a.shape and np.ndim(da) == 2 and np.size(da) == 12


def test_linear_algebra_functions(rng):
    a = random_array(rng, (3, 4), np.float64)
    b = random_array(rng, (4, 5), np.float64)
    assert_matches(host(np.matmul(dev(a), dev(b))), a @ b)
    assert_matches(host(np.dot(dev(a), dev(b))), np.dot(a, b))
    assert_matches(host(np.tensordot(dev(a), dev(b), axes=1)), np.tensordot(a, b, axes=1))
    assert_matches(host(dev(a) @ dev(b)), a @ b)


def test_unimplemented_gives_numpys_type_error(rng):
    d = dev(random_array(rng, (4, 4), np.float64))
    with pytest.raises(TypeError):
        np.linalg.svd(d)  # no silent copy to the host
    with pytest.raises(TypeError):
        np.fft.fft(d)
    with pytest.raises(TypeError):
        np.add.reduceat(d, [0, 2])
    with pytest.raises(TypeError):
        np.add(d, d, casting="unsafe", dtype=np.int32)


def test_mixed_numpy_and_device_operands_are_not_copied(rng):
    a = random_array(rng, (4,), np.float64)
    d = dev(a)
    # A NumPy array beside a device array: numcu refuses (different devices), NumPy raises.
    with pytest.raises((TypeError, ValueError)):
        np.add(d, a)
    with pytest.raises((TypeError, ValueError)):
        np.concatenate([d, a])


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


def test_more_functions(rng):
    a = random_array(rng, (3, 4), np.float64)
    b = random_array(rng, (3, 4), np.float64)
    da, db = dev(a), dev(b)
    assert_matches(host(np.vstack([da, db])), np.vstack([a, b]))
    assert_matches(host(np.hstack([da, db])), np.hstack([a, b]))
    assert_matches(host(np.swapaxes(da, 0, 1)), np.swapaxes(a, 0, 1))
    assert_matches(host(np.atleast_3d(da)), np.atleast_3d(a))
    assert_matches(host(np.argwhere(da > 0)), np.argwhere(a > 0))
    assert_matches(host(np.flatnonzero(da > 0)), np.flatnonzero(a > 0))
    out = dev(np.full((3, 4), np.nan))
    np.copyto(out, da)
    assert_matches(out.get(), a)


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
