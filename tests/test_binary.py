"""add, subtract, multiply and divide: NumPy's results, for every dtype, layout and backend.

Specification, with NumPy as the oracle:
- every supported dtype, on every layout NumPy accepts: 0-size, 0-d, one element, odd and
  large sizes, 2-D and 3-D, broadcasting, transposed, negative strides, offset views;
- NumPy 2 promotion: mixed dtypes, weak Python scalars, true division (ints -> float64);
- host operands give a numpy.ndarray whatever the device, device operands a numcu.ndarray;
- ``out=`` is written (under 'same_kind' casting), returned, and nothing outside it changes;
- inputs are never modified; x/0 and NaN/inf follow IEEE as NumPy does;
- arrays over 2**31 elements (gpu, slow).
"""

from __future__ import annotations

import array
import re

import numpy as np
import pytest
from conftest import (
    DTYPES,
    OPS,
    CAIArray,
    assert_matches,
    call_on,
    gpu_param,
    poisoned,
    python_scalar,
    quiet,
    random_array,
    reference,
)

import numcu

NUMPY_2 = int(np.__version__.split(".")[0]) >= 2

# Every (op, dtype) NumPy has a loop for: bool - bool is an error (see test_errors.py).
OP_DTYPES = [
    pytest.param(op, dtype, id=f"{op}-{dtype}")
    for op in OPS
    for dtype in DTYPES
    if not (op == "subtract" and dtype == np.bool_)
]


class Operands:
    """Draws the two operands of one call; the second is the divisor, so non-zero for divide."""

    def __init__(self, rng, op, dtype1, dtype2=None):
        self.rng = rng
        self.op = op
        self.dtype1 = np.dtype(dtype1)
        self.dtype2 = self.dtype1 if dtype2 is None else np.dtype(dtype2)

    def first(self, shape):
        return random_array(self.rng, shape, self.dtype1)

    def second(self, shape):
        return random_array(self.rng, shape, self.dtype2, nonzero=self.op == "divide")

    def first_scalar(self):
        return python_scalar(self.dtype1)

    def second_scalar(self):
        return python_scalar(self.dtype2)


# Each layout draws (x1, x2) with the shapes and memory layouts it names.
LAYOUTS = {
    "size0": lambda d: (d.first((0,)), d.second((0,))),
    "size0_2d": lambda d: (d.first((3, 0)), d.second((3, 0))),
    "size0_broadcast": lambda d: (d.first((0, 1)), d.second((1, 5))),
    "0d": lambda d: (d.first(()), d.second(())),
    "0d_with_1d": lambda d: (d.first(()), d.second((7,))),
    "1d_with_0d": lambda d: (d.first((7,)), d.second(())),
    "one": lambda d: (d.first((1,)), d.second((1,))),
    "one_broadcast": lambda d: (d.first((1,)), d.second((6,))),
    "odd7": lambda d: (d.first((7,)), d.second((7,))),
    "odd1001": lambda d: (d.first((1001,)), d.second((1001,))),
    "large": lambda d: (d.first((2**17 + 3,)), d.second((2**17 + 3,))),
    "2d": lambda d: (d.first((13, 17)), d.second((13, 17))),
    "3d": lambda d: (d.first((3, 4, 5)), d.second((3, 4, 5))),
    "column_row": lambda d: (d.first((5, 1)), d.second((1, 7))),
    "broadcast_3d": lambda d: (d.first((4, 1, 3)), d.second((5, 1))),
    "row_into_2d": lambda d: (d.first((6, 9)), d.second((9,))),
    "transposed": lambda d: (d.first((9, 6)).T, d.second((6, 9))),
    "transposed_3d": lambda d: (d.first((3, 4, 5)).transpose(2, 0, 1), d.second((5, 3, 4))),
    "reversed": lambda d: (d.first((101,))[::-1], d.second((101,))),
    "negative_strides_2d": lambda d: (d.first((5, 14))[:, ::-2], d.second((5, 7))[::-1]),
    "offset": lambda d: (d.first((12,))[1:], d.second((12,))[:-1]),
    "strided_offset": lambda d: (d.first((30,))[2:-1:3], d.second((19,))[1::2]),
    "scalar_right": lambda d: (d.first((11,)), d.second_scalar()),
    "scalar_left": lambda d: (d.first_scalar(), d.second((11,))),
    "scalar_with_0d": lambda d: (d.first(()), d.second_scalar()),
    "scalar_with_strided_rows": lambda d: (d.first_scalar(), d.second((6, 40))[::2]),
    "transposed_with_scalar": lambda d: (d.first((9, 6)).T, d.second_scalar()),
}


def copies(*operands):
    return [x.copy() if isinstance(x, np.ndarray) else x for x in operands]


def assert_unchanged(operands, originals):
    for x, original in zip(operands, originals):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, original, err_msg="an input was modified")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("op", "dtype"), OP_DTYPES)
def test_matches_numpy(op, dtype, layout, backend, rng):
    """Same dtype on both sides, every layout: NumPy's values and result dtype."""
    x1, x2 = LAYOUTS[layout](Operands(rng, op, dtype))
    originals = copies(x1, x2)
    expected = reference(op, x1, x2)

    result = call_on(backend, getattr(numcu, op), x1, x2)

    assert_matches(result, expected)
    assert_unchanged((x1, x2), originals)


@pytest.mark.parametrize("layout", ["0d", "odd1001", "column_row", "reversed", "scalar_left"])
@pytest.mark.parametrize(("op", "dtype"), OP_DTYPES)
def test_host_operands_default_device_give_numpy(op, dtype, layout, rng):
    """With device=None host data runs wherever numcu chooses, and a numpy.ndarray comes back."""
    x1, x2 = LAYOUTS[layout](Operands(rng, op, dtype))

    result = getattr(numcu, op)(x1, x2)

    assert isinstance(result, (np.ndarray, np.generic))
    assert_matches(result, reference(op, x1, x2))


@pytest.mark.parametrize("device", [gpu_param("cuda:0"), gpu_param(0, id="int0")])
@pytest.mark.parametrize("op", OPS)
def test_device_spellings(op, device, rng):
    """device="cuda:0" and device=0 mean the first GPU; host data still comes back as NumPy."""
    x1, x2 = LAYOUTS["column_row"](Operands(rng, op, np.float32))

    result = getattr(numcu, op)(x1, x2, device=device)

    assert isinstance(result, (np.ndarray, np.generic))
    assert_matches(result, reference(op, x1, x2))


# --------------------------------------------------------------------------------------------
# Promotion
# --------------------------------------------------------------------------------------------

# (dtype1, dtype2, result of add/subtract/multiply): NumPy 2's promotion table.
MIXED_DTYPES = [
    ("int8", "float32", "float32"),
    ("uint64", "int64", "float64"),
    ("int16", "uint16", "int32"),
    ("uint8", "int8", "int16"),
    ("uint32", "int32", "int64"),
    ("uint8", "uint16", "uint16"),
    ("bool", "int8", "int8"),
    ("bool", "float16", "float16"),
    ("float16", "int16", "float32"),
    ("float16", "float32", "float32"),
    ("int32", "float32", "float64"),
    ("complex64", "float64", "complex128"),
    ("complex64", "float16", "complex64"),
    ("int64", "complex64", "complex128"),
]


def divide_dtype(dtype):
    """True division: integer and bool results become float64."""
    dtype = np.dtype(dtype)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


@pytest.mark.parametrize("swap", [False, True], ids=["as_listed", "swapped"])
@pytest.mark.parametrize(
    ("dtype1", "dtype2", "promoted"), MIXED_DTYPES, ids=["+".join(m[:2]) for m in MIXED_DTYPES]
)
@pytest.mark.parametrize("op", OPS)
def test_mixed_dtypes_promote_like_numpy(op, dtype1, dtype2, promoted, swap, backend, rng):
    if swap:
        dtype1, dtype2 = dtype2, dtype1
    promoted = divide_dtype(promoted) if op == "divide" else np.dtype(promoted)
    x1, x2 = LAYOUTS["column_row"](Operands(rng, op, dtype1, dtype2))
    expected = reference(op, x1, x2)
    if NUMPY_2:
        assert expected.dtype == promoted, "the table above disagrees with NumPy"

    result = call_on(backend, getattr(numcu, op), x1, x2)

    assert result.dtype == promoted
    assert_matches(result, expected)


# (array dtype, Python scalar, result of add): Python scalars are weak (NEP 50).
WEAK_SCALARS = [
    ("int8", 3, "int8"),
    ("uint8", 3, "uint8"),
    ("int16", 3, "int16"),
    ("uint64", 3, "uint64"),
    ("float16", 3, "float16"),
    ("float16", 2.5, "float16"),
    ("float32", 2.5, "float32"),
    ("complex64", 2.5, "complex64"),
    ("int32", 2.5, "float64"),
    ("uint8", 2.5, "float64"),
    ("bool", 1, "int64"),
    ("bool", True, "bool"),
    ("bool", 2.5, "float64"),
    ("float32", 1j, "complex64"),
    ("int16", 1j, "complex128"),
]


@pytest.mark.parametrize("scalar_first", [False, True], ids=["array_op_scalar", "scalar_op_array"])
@pytest.mark.parametrize(
    ("dtype", "scalar", "promoted"),
    WEAK_SCALARS,
    ids=[f"{d}-{type(s).__name__}{s}" for d, s, _ in WEAK_SCALARS],
)
@pytest.mark.parametrize("op", ["add", "multiply", "subtract", "divide"])
def test_python_scalars_are_weak(op, dtype, scalar, promoted, scalar_first, backend, rng):
    if op == "subtract" and dtype == "bool" and isinstance(scalar, bool):
        pytest.skip("bool - bool has no loop (test_errors.py)")
    promoted = divide_dtype(promoted) if op == "divide" else np.dtype(promoted)
    x = random_array(rng, (4, 5), dtype, nonzero=op == "divide" and scalar_first)
    operands = (scalar, x) if scalar_first else (x, scalar)
    expected = reference(op, *operands)
    if NUMPY_2:
        assert expected.dtype == promoted, "the table above disagrees with NumPy"

    result = call_on(backend, getattr(numcu, op), *operands)

    assert result.dtype == promoted
    assert_matches(result, expected)


@pytest.mark.skipif(not NUMPY_2, reason="NumPy 2 promotion is the reference")
@pytest.mark.parametrize(
    ("dtype", "zero_d", "promoted"),
    [
        ("int8", np.array(3, np.int64), "int64"),
        ("float32", np.array(2.5, np.float64), "float64"),
        ("uint8", np.array(3, np.int8), "int16"),
        ("float16", np.array(3, np.int32), "float64"),
    ],
    ids=["int8+0d_int64", "float32+0d_float64", "uint8+0d_int8", "float16+0d_int32"],
)
@pytest.mark.parametrize("op", OPS)
def test_0d_arrays_are_not_weak(op, dtype, zero_d, promoted, host_backend, rng):
    """A 0-d array keeps its dtype in promotion (NumPy 2), unlike a Python scalar."""
    x = random_array(rng, (9,), dtype)
    expected = reference(op, x, zero_d)

    result = getattr(numcu, op)(x, zero_d, device=host_backend)

    assert result.dtype == (divide_dtype(promoted) if op == "divide" else np.dtype(promoted))
    assert_matches(result, expected)


@pytest.mark.parametrize(
    ("op", "x1", "x2"),
    [("add", 2, 3), ("multiply", 2.5, 4), ("subtract", 1j, 2.0), ("divide", 7, 2)],
)
def test_python_scalars_alone_give_numpy_scalar(op, x1, x2, host_backend):
    """Only Python scalars: NumPy's dtype and value, as a NumPy scalar (as NumPy returns)."""
    result = getattr(numcu, op)(x1, x2, device=host_backend)

    assert isinstance(result, np.generic)
    assert_matches(result, reference(op, x1, x2))


@pytest.mark.parametrize(
    ("typecode", "op"),
    [
        ("b", "add"),
        ("h", "subtract"),
        ("i", "multiply"),
        ("q", "add"),
        ("f", "divide"),
        ("d", "multiply"),
        ("B", "add"),
        ("L", "subtract"),
    ],
)
def test_buffer_protocol_operands(typecode, op, host_backend, rng):
    """array.array and memoryview are host data too: they give a numpy.ndarray."""
    dtype = np.asarray(array.array(typecode)).dtype
    a1 = random_array(rng, (10,), dtype)
    a2 = random_array(rng, (10,), dtype, nonzero=True)
    x1 = array.array(typecode, a1.tolist())
    x2 = memoryview(a2)

    result = getattr(numcu, op)(x1, x2, device=host_backend)

    assert isinstance(result, (np.ndarray, np.generic))
    assert_matches(result, reference(op, a1, a2))


# --------------------------------------------------------------------------------------------
# out=
# --------------------------------------------------------------------------------------------

# name -> (shape of x1, shape of x2, shape of the out buffer, the view of it that is `out`)
OUT_LAYOUTS = {
    "2d": ((6, 7), (6, 7), (6, 7), lambda a: a),
    "broadcast": ((5, 1), (1, 7), (5, 7), lambda a: a),
    "row_into_2d": ((4, 9), (9,), (4, 9), lambda a: a),
    "every_other_row": ((5, 7), (5, 7), (10, 7), lambda a: a[::2]),
    "transposed": ((5, 7), (5, 7), (7, 5), lambda a: a.T),
    "reversed_offset": ((9,), (9,), (12,), lambda a: a[10:1:-1]),
    "size0": ((0, 3), (0, 3), (0, 3), lambda a: a),
    "0d": ((), (), (), lambda a: a),
}


def run_into_out(backend, fn, x1, x2, out_base, out_view, **kwargs):
    """Call `fn` with out= on `backend`; check that out is returned; return the base's values.

    For "numcu" the out buffer is copied to the GPU and `out` is the same view of it, made
    through a plain __cuda_array_interface__ object.
    """
    if backend == "numcu":
        device_base = numcu.asarray(out_base)
        out = CAIArray.view_of(device_base, out_base, out_view(out_base))
        args = [numcu.asarray(x) if isinstance(x, np.ndarray) else x for x in (x1, x2)]
        result = fn(*args, out=out, **kwargs)
        assert result is out
        return device_base.get()
    out = out_view(out_base)
    result = fn(x1, x2, out=out, device=backend, **kwargs)
    assert result is out
    return out_base


@pytest.mark.parametrize("layout", OUT_LAYOUTS)
@pytest.mark.parametrize(("op", "dtype"), OP_DTYPES)
def test_out_is_written_and_returned(op, dtype, layout, backend, rng):
    """The result lands in out (any layout), and nothing else of out's buffer changes."""
    shape1, shape2, base_shape, view = OUT_LAYOUTS[layout]
    d = Operands(rng, op, dtype)
    x1, x2 = d.first(shape1), d.second(shape2)
    expected = reference(op, x1, x2)
    out_base = poisoned(base_shape, expected.dtype)
    if expected.dtype == np.bool_:
        view(out_base)[...] = np.logical_not(expected)
    expected_base = out_base.copy()
    view(expected_base)[...] = expected

    written = run_into_out(backend, getattr(numcu, op), x1, x2, out_base, view)

    assert_matches(written, expected_base)


# (input dtype, out dtype): out's dtype differs from the result's.
OUT_CASTS = [
    ("int8", "int64"),
    ("int64", "int8"),
    ("uint8", "float16"),
    ("int32", "float32"),
    ("bool", "int8"),
    ("float32", "float64"),
    ("float64", "float16"),
    ("float32", "complex64"),
    ("complex128", "complex64"),
    ("float64", "int32"),
]


@pytest.mark.parametrize(
    ("dtype", "out_dtype"), OUT_CASTS, ids=[f"{a}-into-{b}" for a, b in OUT_CASTS]
)
@pytest.mark.parametrize("op", OPS)
def test_out_casts_same_kind(op, dtype, out_dtype, backend, rng):
    """The result is cast into out under 'same_kind', as NumPy does; otherwise a TypeError."""
    if op == "subtract" and dtype == "bool":
        pytest.skip("bool - bool has no loop (test_errors.py)")
    d = Operands(rng, op, dtype)
    x1, x2 = d.first((6, 7)), d.second((6, 7))
    result_dtype = reference(op, x1, x2).dtype
    out_base = poisoned((6, 7), out_dtype)

    if not np.can_cast(result_dtype, out_dtype, casting="same_kind"):
        message = (
            f"numcu.{op}: cannot cast the result from {result_dtype} to {np.dtype(out_dtype)} "
            "(casting='same_kind')"
        )
        with pytest.raises(TypeError, match=re.escape(message)):
            run_into_out(backend, getattr(numcu, op), x1, x2, out_base, lambda a: a)
        return

    expected = poisoned((6, 7), out_dtype)
    reference(op, x1, x2, out=expected)
    written = run_into_out(backend, getattr(numcu, op), x1, x2, out_base, lambda a: a)

    assert_matches(written, expected)


def test_out_may_be_an_input(host_backend, rng):
    """out= may alias an operand exactly (in-place x += y)."""
    x1 = random_array(rng, (1001,), np.float64)
    x2 = random_array(rng, (1001,), np.float64)
    expected = x1 + x2

    result = numcu.add(x1, x2, out=x1, device=host_backend)

    assert result is x1
    assert_matches(x1, expected)


# --------------------------------------------------------------------------------------------
# IEEE special values
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "int8", "int32", "uint16", "int64", "bool"]
)
def test_divide_by_zero_gives_inf_and_nan(dtype, backend, rng):
    """x/0 -> +-inf and 0/0 -> nan (ints too: true division is in float64), like NumPy."""
    x1 = random_array(rng, (60,), dtype)
    x2 = random_array(rng, (60,), dtype, nonzero=True)
    x1[::5] = 0
    x2[::3] = 0
    if np.dtype(dtype).kind == "f":
        x2[1::6] = -0.0

    result = call_on(backend, numcu.divide, x1, x2)

    expected = reference("divide", x1, x2)
    assert np.isinf(expected).any() and np.isnan(expected).any()
    assert_matches(result, expected)
    signed = ~np.isnan(expected)  # the sign of a NaN is not specified
    np.testing.assert_array_equal(np.signbit(result[signed]), np.signbit(expected[signed]))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nan_and_inf_propagate(op, dtype, backend, rng):
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5], dtype)
    x1 = np.repeat(specials, len(specials))
    x2 = np.tile(specials, len(specials))
    noise = random_array(rng, x1.shape, dtype)
    x1 = np.concatenate([x1, noise])
    x2 = np.concatenate([x2, noise[::-1]])

    result = call_on(backend, getattr(numcu, op), x1, x2)

    assert_matches(result, reference(op, x1, x2))


# --------------------------------------------------------------------------------------------
# Arrays over 2**31 elements
# --------------------------------------------------------------------------------------------

CHUNK = 2**27


def large_int8(rng, shape, period):
    """Random int8 data of `shape`, cheaply: a random block of `period` elements, repeated.

    The period is prime to 2**31, so an element read from the wrong 32-bit index holds a
    different value than the right one.
    """
    return np.resize(rng.integers(-128, 128, size=period, dtype=np.int8), shape)


def assert_rows_equal(result, expected_rows, count):
    """Compare result[i:i+CHUNK] with expected_rows(slice) chunk by chunk (bounded memory)."""
    step = max(1, CHUNK // max(1, result[0].size if result.ndim > 1 else 1))
    for start in range(0, count, step):
        part = slice(start, min(start + step, count))
        got, want = result[part], expected_rows(part)
        if not np.array_equal(got, want):
            bad = np.flatnonzero(got != want)[0]
            pytest.fail(f"first mismatch at flat index {start * (got.size // len(got)) + bad}")


@pytest.mark.gpu
@pytest.mark.slow
def test_int8_add_over_2_31_elements(rng):
    """64-bit indexing on the contiguous path: every element, around 2**31 and at the end."""
    n = 2**31 + 17
    x1 = large_int8(rng, n, 1_000_003)
    x2 = large_int8(rng, n, 999_983)

    device_result = numcu.add(numcu.asarray(x1), numcu.asarray(x2))
    assert isinstance(device_result, numcu.ndarray)
    assert device_result.shape == (n,)
    assert device_result.size == n
    result = device_result.get()
    del device_result

    assert result.shape == (n,)
    assert result.dtype == np.int8
    with quiet():
        for where in (slice(2**31 - 1000, 2**31 + 1000), slice(n - 1000, n)):
            np.testing.assert_array_equal(result[where], x1[where] + x2[where])
        assert_rows_equal(result, lambda part: x1[part] + x2[part], n)


@pytest.mark.gpu
@pytest.mark.slow
def test_int8_broadcast_add_over_2_31_elements(rng):
    """64-bit indexing on the broadcast path: (65539, 1) + (1, 32769) has 2**31 + 196611."""
    rows, cols = 2**16 + 3, 2**15 + 1
    x1 = rng.integers(-128, 128, size=(rows, 1), dtype=np.int8)
    x2 = rng.integers(-128, 128, size=(1, cols), dtype=np.int8)
    assert rows * cols > 2**31

    result = numcu.add(numcu.asarray(x1), numcu.asarray(x2)).get()

    assert result.shape == (rows, cols)
    assert result.dtype == np.int8
    with quiet():
        np.testing.assert_array_equal(result[-1], x1[-1] + x2[0])
        assert_rows_equal(result, lambda part: x1[part] + x2, rows)
