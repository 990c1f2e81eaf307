"""numcu.ndarray beyond arithmetic, checked against the same operations on NumPy arrays.

- Basic indexing (integers, slices with any step, ``...``, ``None``) gives views of the same
  memory; out-of-range and array indices raise IndexError.
- Item assignment broadcasts scalars, NumPy arrays and device arrays, converting dtypes.
- reshape (with -1), transpose / .T, ravel; astype between dtypes; copy; fill.
- numcu.empty / zeros / ones / full take NumPy's dtype rules.
- One-element arrays convert with bool(), int(), float(), complex().
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import DTYPES, assert_matches, random_array

import numcu

pytestmark = pytest.mark.gpu

KEYS = {
    "int": 1,
    "negative_int": -1,
    "slice": slice(1, 4),
    "reversed_then_int": (slice(None, None, -1), 2),
    "ellipsis_int": (Ellipsis, 0),
    "none_int_step": (None, 1, slice(0, 6, 2)),
    "int_ellipsis_none": (0, Ellipsis, None),
    "empty_slice": (slice(3, 1),),
    "all": (slice(None), slice(None), slice(None)),
}


def address(x):
    return x.__cuda_array_interface__["data"][0]


@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_basic_indexing_gives_views(key, rng):
    a = random_array(rng, (5, 6, 7), np.float32)
    d = numcu.asarray(a)

    view = d[key]

    expected = a[key]
    assert view.shape == expected.shape
    assert_matches(view.get(), expected)
    if expected.size:
        offset = expected.__array_interface__["data"][0] - a.__array_interface__["data"][0]
        assert address(view) == address(d) + offset


def test_index_errors(rng):
    d = numcu.asarray(random_array(rng, (3, 4), np.int32))

    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        d[3]
    with pytest.raises(IndexError, match="too many indices"):
        d[0, 0, 0]
    with pytest.raises(IndexError, match="arrays used as indices must be integers"):
        d[np.array([0.0, 1.0])]
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        d[np.array([0, 3])]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_setitem_scalar_array_and_device_array(dtype, rng):
    a = random_array(rng, (4, 5), dtype)
    d = numcu.asarray(a)
    row = random_array(rng, (5,), dtype)
    block = random_array(rng, (2, 1), dtype)
    value = random_array(rng, (), dtype).item()

    d[1] = row
    a[1] = row
    d[2:, 1:3] = numcu.asarray(block)
    a[2:, 1:3] = block
    d[0, ::-2] = value
    a[0, ::-2] = value

    assert_matches(d.get(), a)


def test_setitem_shape_mismatch(rng):
    d = numcu.asarray(random_array(rng, (4, 5), np.float64))

    with pytest.raises(ValueError, match="could not broadcast input array from shape"):
        d[1] = np.ones(4)


def test_reshape_transpose_ravel(rng):
    a = random_array(rng, (4, 6), np.float64)
    d = numcu.asarray(a)

    assert_matches(d.reshape(3, -1).get(), a.reshape(3, -1))
    assert_matches(d.reshape((2, 2, 6)).get(), a.reshape((2, 2, 6)))
    assert_matches(d.T.get(), a.T)
    assert_matches(d.transpose(1, 0).get(), a.transpose(1, 0))
    assert_matches(d.T.reshape(-1).get(), a.T.reshape(-1))
    assert_matches(d[:, ::2].ravel().get(), a[:, ::2].ravel())
    assert address(d.reshape(24)) == address(d)
    with pytest.raises(ValueError, match="cannot reshape array of size 24 into shape"):
        d.reshape(5, 5)
    with pytest.raises(ValueError, match="axes don't match array"):
        d.transpose(0, 0)


@pytest.mark.parametrize("to", DTYPES, ids=str)
@pytest.mark.parametrize("frm", ["bool", "int8", "uint32", "float16", "float64", "complex64"])
def test_astype(frm, to, rng):
    a = random_array(rng, (9, 3), frm)
    if np.dtype(frm).kind in "fc" and to.kind in "biu":
        a = np.abs(a.real) * 3  # in range of every integer type
        a = a.astype(frm)

    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's ComplexWarning for complex -> real
        expected = a[:, ::-1].astype(to)
    result = numcu.asarray(a)[:, ::-1].astype(to)

    assert result.dtype == to
    assert_matches(result.get(), expected)


def test_copy_and_fill(rng):
    a = random_array(rng, (5, 4), np.int16)
    d = numcu.asarray(a)

    c = d[::2].copy()
    d.fill(7)

    assert address(c) != address(d)
    assert_matches(c.get(), a[::2])
    assert_matches(d.get(), np.full((5, 4), 7, np.int16))
    assert d.flags["C_CONTIGUOUS"] and d.T.flags["F_CONTIGUOUS"] and d.flags["WRITEABLE"]


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda: numcu.zeros((2, 3)), np.zeros((2, 3))),
        (lambda: numcu.ones(4, dtype=np.int8), np.ones(4, np.int8)),
        (lambda: numcu.full((3,), 2.5, dtype="float16"), np.full((3,), 2.5, np.float16)),
        (lambda: numcu.full((2, 2), 7), np.full((2, 2), 7)),
        (lambda: numcu.full((2,), 1 + 2j), np.full((2,), 1 + 2j)),
    ],
)
def test_creation(make, expected):
    result = make()

    assert isinstance(result, numcu.ndarray)
    assert_matches(result.get(), expected)


def test_empty_has_shape_and_dtype():
    e = numcu.empty((3, 0, 2), dtype=np.uint16)

    assert e.shape == (3, 0, 2) and e.dtype == np.uint16 and e.size == 0


def test_one_element_conversions(rng):
    assert float(numcu.asarray(np.array([2.5]))) == 2.5
    assert int(numcu.asarray(np.array(7, np.int64))) == 7
    assert bool(numcu.asarray(np.array([True])))
    assert complex(numcu.asarray(np.array(1 + 2j))) == 1 + 2j
    with pytest.raises(TypeError, match="only one-element numcu arrays"):
        float(numcu.asarray(np.ones(2)))
