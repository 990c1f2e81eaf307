"""What revision 2025.12 of the Array API standard changed, in numcu's namespace.

Specification:
- ``__array_api_version__`` is "2025.12"; ``x.__array_namespace__(api_version=...)`` also gives
  2024.12 and the revisions before it (where ``devices()``, ``broadcast_arrays`` and ``meshgrid``
  return lists), and refuses any other with ValueError;
- ``__array_namespace_info__().devices()``, ``broadcast_arrays`` and ``meshgrid`` return tuples;
- new: ``broadcast_shapes(*shapes)`` (a tuple; ValueError naming the shapes that do not
  broadcast) and ``isin(x1, x2, /, *, invert=False)`` (value equality: NaN is in nothing, -0.0
  matches 0.0; either may be a Python scalar; a Python integer beyond x's range matches nothing);
- changed: ``expand_dims`` takes a tuple of axes and its axis positionally; ``permute_dims``
  takes negative axes; ``searchsorted`` takes a Python scalar x2 (a 0-d int64 result);
- ``sqrt`` of complex numbers has C99's special values (2025.12's corrected list: -inf + yi
  gives +0 + inf i, +inf + yi gives +inf + 0i) and is exact where the root is.

Backends as in test_array_api.py: "cpu" (NumPy operands), "numcu" (device operands, gpu); the
kernels also run with host operands on the GPU ("cuda"). NumPy is the oracle, on fresh random
data.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import BACKENDS, assert_matches, gpu_param, quiet, random_array, to_backend

import numcu


def get(x):
    if isinstance(x, numcu.ndarray):
        return x.get()
    assert isinstance(x, (np.ndarray, np.generic)), type(x)
    return x


def check_type(result, backend):
    expected = numcu.ndarray if backend == "numcu" else (np.ndarray, np.generic)
    assert isinstance(result, expected), type(result)


# --------------------------------------------------------------------------------------------
# The namespace and its revisions


def test_version_and_tuples():
    assert numcu.__array_api_version__ == "2025.12"
    devices = numcu.__array_namespace_info__().devices()
    assert type(devices) is tuple and "cpu" in devices
    a, b = np.arange(3.0), np.arange(4.0)
    assert type(numcu.meshgrid(a, b)) is tuple
    assert numcu.meshgrid() == ()
    assert type(numcu.broadcast_arrays(a, a)) is tuple


@pytest.mark.parametrize("version", ["2021.12", "2022.12", "2023.12", "2024.12"])
def test_earlier_revisions_are_selectable(version):
    ns = numcu._array_api.array_namespace(version)
    assert ns.__array_api_version__ == version
    assert type(ns.__array_namespace_info__().devices()) is list
    a, b = np.arange(3.0), np.arange(2.0)
    grids = ns.meshgrid(a, b)
    assert type(grids) is list
    for got, expected in zip(grids, np.meshgrid(a, b)):
        assert_matches(got, expected)
    assert type(ns.broadcast_arrays(a, a[:1])) is list
    assert ns.add is numcu.add and ns.isin is numcu.isin
    assert numcu._array_api.array_namespace(version) is ns  # made once
    assert numcu._array_api.array_namespace("2025.12") is numcu
    assert numcu._array_api.array_namespace(None) is numcu


def test_unknown_revision_is_refused():
    with pytest.raises(ValueError, match="api_version '2026.12' is not supported"):
        numcu._array_api.array_namespace("2026.12")


@pytest.mark.gpu
def test_array_namespace_of_a_device_array():
    x = numcu.asarray(np.arange(3.0))
    assert x.__array_namespace__() is numcu
    assert x.__array_namespace__(api_version="2024.12").__array_api_version__ == "2024.12"
    with pytest.raises(ValueError, match="not supported"):
        x.__array_namespace__(api_version="2020.10")


# --------------------------------------------------------------------------------------------
# broadcast_shapes


@pytest.mark.parametrize(
    "shapes",
    [(), ((),), ((3,),), ((2, 1), (3,)), ((5, 1, 4), (3, 1), (1,)), ((0, 1), (1, 4)), ((1,), ())],
    ids=str,
)
def test_broadcast_shapes(shapes):
    got = numcu.broadcast_shapes(*shapes)
    assert type(got) is tuple and all(type(n) is int for n in got)
    assert got == np.broadcast_shapes(*shapes)


def test_broadcast_shapes_takes_integers_and_random_shapes(rng):
    assert numcu.broadcast_shapes(4, (3, 1)) == (3, 4)
    for _ in range(50):
        ndim = int(rng.integers(0, 5))
        target = tuple(int(n) for n in rng.integers(0, 4, ndim))
        shapes = []
        for _ in range(int(rng.integers(1, 4))):
            drop = int(rng.integers(0, ndim + 1))
            shapes.append(tuple(n if rng.random() < 0.6 else 1 for n in target[drop:]))
        assert numcu.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)


@pytest.mark.parametrize("shapes", [((2,), (3,)), ((4, 3), (2, 1, 4)), ((0,), (2,))], ids=str)
def test_broadcast_shapes_error(shapes):
    with pytest.raises(ValueError, match=r"numcu.broadcast_shapes: shapes .* do not broadcast"):
        numcu.broadcast_shapes(*shapes)


def test_broadcast_shapes_negative_dimension():
    with pytest.raises(ValueError, match="negative dimension"):
        numcu.broadcast_shapes((2, -1))


# --------------------------------------------------------------------------------------------
# isin


ISIN_DTYPES = [np.int8, np.uint8, np.int64, np.uint64, np.float16, np.float32, np.float64]


def set_data(rng, dtype, n1, n2):
    """x1 and x2 of `dtype`, about half of x1's elements drawn from x2 (floats: with NaN and
    signed zeros in both)."""
    x2 = random_array(rng, (n2,), dtype)
    x1 = random_array(rng, (n1,), dtype)
    if n2:
        pick = rng.random(n1) < 0.5
        x1[pick] = x2[rng.integers(0, n2, int(pick.sum()))]
    if np.dtype(dtype).kind == "f" and n1 and n2:
        x2[0], x1[0] = np.nan, np.nan
        x2[-1], x1[-1] = 0.0, -0.0
    return x1, x2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ISIN_DTYPES, ids=str)
@pytest.mark.parametrize(("n1", "n2"), [(40, 13), (1, 1), (25, 0), (0, 5), (300, 1000)])
def test_isin(rng, backend, dtype, n1, n2):
    x1, x2 = set_data(rng, dtype, n1, n2)
    shaped = x1.reshape(-1, 5) if n1 % 5 == 0 and n1 else x1
    for invert in (False, True):
        got = numcu.isin(to_backend(shaped, backend), to_backend(x2, backend), invert=invert)
        check_type(got, backend)
        assert_matches(get(got), np.isin(shaped, x2, invert=invert))


@pytest.mark.parametrize("backend", BACKENDS)
def test_isin_mixed_dtypes_and_complex(rng, backend):
    a = random_array(rng, (30,), np.int16)
    b = np.concatenate([a[::3].astype(np.float32) + 0.5, a[1::4].astype(np.float32)])
    got = numcu.isin(to_backend(a, backend), to_backend(b, backend))
    assert_matches(get(got), np.isin(a, b))
    c = random_array(rng, (20,), np.complex64)
    d = np.concatenate([c[::2], random_array(rng, (5,), np.complex64)])
    got = numcu.isin(to_backend(c, backend), to_backend(d, backend))
    assert_matches(get(got), np.isin(c, d))


@pytest.mark.parametrize("backend", BACKENDS)
def test_isin_scalars(rng, backend):
    x = random_array(rng, (6, 7), np.uint8)
    x[0, 0] = 9
    d = to_backend(x, backend)
    for value in (9, 300, -1):
        for invert in (False, True):
            got = numcu.isin(d, value, invert=invert)
            check_type(got, backend)
            assert_matches(get(got), np.isin(x, value, invert=invert))
            got = numcu.isin(value, d, invert=invert)
            check_type(got, backend)
            assert np.asarray(get(got)).shape == ()
            assert bool(get(got)) == bool(np.isin(value, x, invert=invert))


@pytest.mark.gpu
def test_isin_through_numpy(rng):
    x1, x2 = set_data(rng, np.float64, 50, 20)
    got = np.isin(numcu.asarray(x1), numcu.asarray(x2), invert=True)
    assert isinstance(got, numcu.ndarray)
    assert_matches(got.get(), np.isin(x1, x2, invert=True))


@pytest.mark.gpu
def test_isin_refuses_arrays_on_different_devices(rng):
    x1, x2 = set_data(rng, np.int64, 10, 5)
    with pytest.raises(ValueError, match="numcu.isin: arrays are on different devices"):
        numcu.isin(numcu.asarray(x1), x2)


# --------------------------------------------------------------------------------------------
# expand_dims, permute_dims, searchsorted


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("axis", [0, -1, (0, 1), (0, -1), (-1, -2), (1, 3, 4), (4, 0, 2)], ids=str)
def test_expand_dims_with_tuples(rng, backend, axis):
    x = random_array(rng, (3, 2), np.float32)
    d = to_backend(x, backend)
    got = numcu.expand_dims(d, axis=axis)
    check_type(got, backend)
    assert_matches(get(got), np.expand_dims(x, axis))
    assert_matches(get(numcu.expand_dims(d, axis)), np.expand_dims(x, axis))  # positional


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("axis", "error"), [((0, 0), ValueError), ((0, 5), IndexError), (7, IndexError)]
)
def test_expand_dims_errors(rng, backend, axis, error):
    d = to_backend(random_array(rng, (3, 2), np.float32), backend)
    with pytest.raises(error, match="expand_dims"):
        numcu.expand_dims(d, axis=axis)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("axes", [(-1, 0, 1), (2, -3, -2), (-1, -2, -3), (0, 1, 2)], ids=str)
def test_permute_dims_negative_axes(rng, backend, axes):
    x = random_array(rng, (2, 3, 4), np.int32)
    got = numcu.permute_dims(to_backend(x, backend), axes)
    check_type(got, backend)
    assert_matches(get(got), np.transpose(x, axes))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("axes", [(0, 1), (0, 0, 1), (0, 1, 3)], ids=str)
def test_permute_dims_errors(rng, backend, axes):
    d = to_backend(random_array(rng, (2, 3, 4), np.int32), backend)
    with pytest.raises(ValueError):
        numcu.permute_dims(d, axes)


SEARCH_BACKENDS = ["cpu", gpu_param("cuda"), gpu_param("numcu")]


@pytest.mark.parametrize("backend", SEARCH_BACKENDS)
@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.float32, np.float64], ids=str)
def test_searchsorted_with_a_scalar(rng, backend, dtype):
    x1 = np.sort(random_array(rng, (41,), dtype))
    scalars = [x1[7].item(), x1[0].item(), x1[-1].item(), 3]
    if np.dtype(dtype).kind == "f":
        scalars += [2.5, -1e30, float(np.inf)]
    for value in scalars:
        for side in ("left", "right"):
            if backend == "numcu":
                got = numcu.searchsorted(to_backend(x1, backend), value, side=side)
            else:
                got = numcu.searchsorted(x1, value, side=side, device=backend)
            check_type(got, backend)
            got = np.asarray(get(got))
            assert got.shape == () and got.dtype == np.int64
            assert int(got) == int(np.searchsorted(x1, value, side=side)), (value, side)


# --------------------------------------------------------------------------------------------
# Complex sqrt

INF, NAN = float("inf"), float("nan")
# (input, C99's result) for the special values, signs of zero included; None: unspecified sign.
SQRT_SPECIAL = [
    (complex(0.0, 0.0), complex(0.0, 0.0)),
    (complex(-0.0, 0.0), complex(0.0, 0.0)),
    (complex(0.0, -0.0), complex(0.0, -0.0)),
    (complex(1.5, INF), complex(INF, INF)),
    (complex(NAN, INF), complex(INF, INF)),
    (complex(-INF, -INF), complex(INF, -INF)),
    (complex(2.0, NAN), complex(NAN, NAN)),
    (complex(-INF, 3.0), complex(0.0, INF)),
    (complex(-INF, -3.0), complex(0.0, -INF)),
    (complex(INF, 3.0), complex(INF, 0.0)),
    (complex(INF, -3.0), complex(INF, -0.0)),
    (complex(INF, NAN), complex(INF, NAN)),
    (complex(NAN, 3.0), complex(NAN, NAN)),
    (complex(NAN, NAN), complex(NAN, NAN)),
    (complex(-4.0, 0.0), complex(0.0, 2.0)),
    (complex(-4.0, -0.0), complex(0.0, -2.0)),
    (complex(9.0, 0.0), complex(3.0, 0.0)),
]


def same_part(got, want):
    if np.isnan(want):
        return np.isnan(got)
    return got == want and np.signbit(got) == np.signbit(want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
def test_complex_sqrt_special_values(backend, dtype):
    x = np.array([z for z, _ in SQRT_SPECIAL], dtype)
    if backend == "numcu":
        got = get(numcu.sqrt(to_backend(x, backend)))
    else:
        got = numcu.sqrt(x, device=backend)
    for z, r, w in zip(x, got, (w for _, w in SQRT_SPECIAL)):
        assert same_part(r.real, w.real) and same_part(r.imag, w.imag), (z, r, w)
    # -inf + NaN i: NaN + inf i, the imaginary part's sign unspecified.
    tricky = np.array([complex(-INF, NAN)], dtype)
    r = get(numcu.sqrt(to_backend(tricky, backend))) if backend == "numcu" else None
    r = numcu.sqrt(tricky, device=backend) if r is None else r
    assert np.isnan(r[0].real) and np.isinf(r[0].imag)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
def test_complex_sqrt_of_random_and_extreme_values(rng, backend, dtype):
    x = random_array(rng, (500,), dtype)
    info = np.finfo(dtype)
    extremes = [info.max, -info.max, info.tiny, -info.tiny, info.max / 3, 1.0, -1.0]
    x[: len(extremes) ** 2] = [complex(a, b) for a in extremes for b in extremes]
    got = get(numcu.sqrt(to_backend(x, backend))) if backend == "numcu" else None
    got = numcu.sqrt(x, device=backend) if got is None else got
    with quiet():
        expected = np.sqrt(x.astype(np.complex256 if hasattr(np, "complex256") else np.complex128))
    assert np.all(np.isfinite(got))
    rtol = 4 * float(info.eps)
    scale = np.maximum(np.abs(expected), float(info.tiny))
    assert np.all(np.abs(got.astype(expected.dtype) - expected) <= rtol * scale)
