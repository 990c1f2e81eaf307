"""NumPy's elementwise functions: every function x dtype against NumPy, on every backend.

Specification, with NumPy as the oracle:
- every ufunc numcu exports, on each of the 14 dtypes: NumPy's values and NumPy's result dtype,
  or a TypeError naming the function where NumPy has no loop (bitwise on floats, floor on
  complex, ...); float functions of integers run on the smallest float that holds them;
- data are fresh random values with NaN, +-inf, +-0 and the extremes of the dtype mixed in;
- contiguous, broadcast (column with row), transposed (small, and wide enough for the tiled
  kernel, with odd row counts) and Python-scalar operands;
- ``out=`` (poisoned first) is written and returned;
- integer division and remainder by 0 and of INT_MIN by -1 give NumPy's values without a trap;
  shifts by the bit width or more as NumPy; integer power with a negative exponent held on the
  host raises ValueError (device arrays are not checked: 1 / x**-e truncated);
- where, clip and astype (every pair of dtypes), and numcu.ndarray's operators (gpu).
"""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest
from conftest import (
    DTYPES,
    assert_matches,
    call_on,
    gpu_param,
    poisoned,
    quiet,
    random_array,
)

import numcu

# Every ufunc of numcu's table (numcu.UFUNCS), by NumPy's input count: a function added to the
# table is tested here without a line of its own.
UNARY = [name for name in numcu.UFUNCS if getattr(np, name).nin == 1]
BINARY = [name for name in numcu.UFUNCS if getattr(np, name).nin == 2]
# Transcendental functions: a few ulp apart between libraries (and between CPU and GPU).
TRANSCENDENTAL = set(
    "sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh "
    "tanh arcsinh arccosh arctanh logaddexp arctan2 hypot power divide reciprocal deg2rad "
    "rad2deg".split()
)
# (rtol, atol) for them; atol covers results that cancel to near zero (sin(pi) ...).
LOOSE = {
    np.dtype(np.float16): (2e-3, 1e-3),
    np.dtype(np.float32): (1e-5, 1e-6),
    np.dtype(np.float64): (1e-12, 1e-14),
    np.dtype(np.complex64): (3e-5, 3e-6),
    np.dtype(np.complex128): (1e-11, 1e-13),
}


def test_every_function_is_exported():
    for name in [*UNARY, *BINARY, "where", "clip", "astype"]:
        assert callable(getattr(numcu, name)), name
        assert name in numcu.__all__


def special_values(dtype):
    """Values worth meeting: NaN, +-inf, +-0 and the extremes of the dtype."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        return np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, info.max, info.tiny], dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([info.min, info.max, 0, 1, -1 if dtype.kind == "i" else 2], dtype)
    if dtype.kind == "b":
        return np.array([True, False])
    # Complex specials differ between C99 Annex G implementations; finite values and zero only.
    return np.array([0, 1, -1j, 1 + 1j], dtype)


def ufunc_data(rng, name, shape, dtype, position):
    """Random data of `dtype` with special values mixed in, fit for input `position` of `name`."""
    dtype = np.dtype(dtype)
    a = random_array(rng, shape, dtype)
    if dtype.kind in "iu" and name in ("left_shift", "right_shift") and position == 1:
        # Shift counts from 0 to past the bit width.
        return rng.integers(0, 8 * dtype.itemsize + 3, size=shape).astype(dtype)
    if dtype.kind in "iub" and name == "power" and position == 1:
        return rng.integers(0, 6, size=shape).astype(dtype)
    flat = a.reshape(-1)
    specials = special_values(dtype)
    if name == "reciprocal" and dtype.kind in "iu":
        specials = specials[specials != 0]  # NumPy's integer 1/0 differs between its loops
    if flat.size >= 2 * specials.size:
        where = rng.permutation(flat.size)[: specials.size]
        flat[where] = specials
    return a


def expected_or_error(name, *operands):
    """NumPy's result, or the TypeError NumPy raises (no loop)."""
    with quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return getattr(np, name)(*operands), None
        except TypeError as exc:
            return None, exc


def check(name, result_or_call, expected, operands=None):
    dtype = np.asarray(expected).dtype
    if name in ("tan", "tanh") and dtype.kind == "c" and operands is not None:
        # Near a pole (tan's at pi/2 + k pi, tanh's on the imaginary axis) the function's
        # condition number is about |f(z)| |z|: an error of one rounding in z becomes that many
        # in f(z), whichever library computes it. The tolerance grows with it.
        rtol, atol = LOOSE[dtype]
        result = np.asarray(result_or_call)
        assert result.dtype == dtype and result.shape == np.shape(expected)
        z = np.asarray(operands[0]).astype(np.complex128)
        want = np.asarray(expected).astype(np.complex128)
        got = result.astype(np.complex128)
        finite = np.isfinite(want)
        np.testing.assert_array_equal(np.isfinite(got), finite)
        allowed = atol + rtol * np.abs(want) * np.maximum(1.0, np.abs(want) * np.abs(z))
        assert np.all(np.abs(got - want)[finite] <= allowed[finite]), (
            f"{name}: {int(np.sum(np.abs(got - want)[finite] > allowed[finite]))} elements "
            "beyond the conditioned tolerance"
        )
        return
    if name in TRANSCENDENTAL and dtype in LOOSE:
        rtol, atol = LOOSE[dtype]
        assert_matches(result_or_call, expected, rtol=rtol, atol=atol)
    else:
        assert_matches(result_or_call, expected)


def run_case(name, operands, backend):
    expected, error = expected_or_error(name, *operands)
    if error is not None:
        with pytest.raises(TypeError, match=rf"numcu\.{name}: "):
            call_on(backend, getattr(numcu, name), *operands)
        return
    result = call_on(backend, getattr(numcu, name), *operands)
    check(name, result, expected)


UNARY_LAYOUTS = {
    "contiguous": lambda make: (make((257,), 0),),
    "transposed": lambda make: (make((9, 6), 0).T,),
    "reversed_2d": lambda make: (make((7, 10), 0)[::-1, ::2],),
}
BINARY_LAYOUTS = {
    "contiguous": lambda make: (make((257,), 0), make((257,), 1)),
    "column_row": lambda make: (make((33, 1), 0), make((1, 40), 1)),
    "transposed": lambda make: (make((9, 6), 0).T, make((6, 9), 1)),
    # 2-D operands at least 32 columns wide take the tiled kernel: rows in runs of four (one
    # vector load where aligned, else one by one), and a last run shorter than four.
    "transposed_tiled": lambda make: (make((36, 68), 0)[:, :67].T, make((67, 36), 1)),
    "transposed_rows_odd": lambda make: (make((40, 66), 0).T, make((66, 40), 1)),
    "scalar": lambda make: (make((31,), 0), make((), 1)[()].item()),
}


@pytest.mark.parametrize("layout", UNARY_LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_numpy(name, dtype, layout, backend, rng):
    operands = UNARY_LAYOUTS[layout](lambda shape, i: ufunc_data(rng, name, shape, dtype, i))
    run_case(name, operands, backend)


@pytest.mark.parametrize("layout", BINARY_LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_binary_matches_numpy(name, dtype, layout, backend, rng):
    operands = BINARY_LAYOUTS[layout](lambda shape, i: ufunc_data(rng, name, shape, dtype, i))
    if layout == "scalar" and np.dtype(dtype).kind in "iu" and name != "power":
        operands = (operands[0], 3)  # a Python int the dtype holds, a weak scalar
    run_case(name, operands, backend)


# Mixed dtypes: promotion first, then the loop (signed with unsigned, int with float ...).
MIXED = [
    ("int8", "uint8"),
    ("int64", "uint64"),
    ("int16", "float16"),
    ("uint32", "int32"),
    ("float32", "complex64"),
    ("bool", "int8"),
    ("float16", "int64"),
]


@pytest.mark.parametrize(("dtype1", "dtype2"), MIXED, ids=["+".join(m) for m in MIXED])
@pytest.mark.parametrize(
    "name",
    ["add", "floor_divide", "remainder", "maximum", "less", "bitwise_or", "right_shift", "hypot",
     "arctan2", "copysign", "power", "logical_xor"],
)  # fmt: skip
def test_mixed_dtypes(name, dtype1, dtype2, backend, rng):
    x1 = ufunc_data(rng, name, (5, 1), dtype1, 0)
    x2 = ufunc_data(rng, name, (1, 6), dtype2, 1)
    if name == "power":
        x2 = np.abs(x2) % 5 if np.dtype(dtype2).kind != "c" else x2
    run_case(name, (x1, x2), backend)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(
    "name",
    [
        "sqrt",
        "exp",
        "sin",
        "isnan",
        "floor",
        "negative",
        "absolute",
        "add",
        "less",
        "bitwise_and",
        "power",
        "maximum",
    ],
)
def test_out_is_written_and_returned(name, dtype, backend, rng):
    """out= (poisoned first) receives NumPy's values and is what the call returns."""
    arity = 1 if name in UNARY else 2
    operands = [ufunc_data(rng, name, (3, 40), dtype, i) for i in range(arity)]
    expected, error = expected_or_error(name, *operands)
    if error is not None:
        pytest.skip("NumPy has no loop")
    out = poisoned(expected.shape, expected.dtype, expected)
    if backend == "numcu":
        out_dev = numcu.asarray(out)
        result = getattr(numcu, name)(*[numcu.asarray(x) for x in operands], out=out_dev)
        assert result is out_dev
        got = out_dev.get()
    else:
        result = getattr(numcu, name)(*operands, out=out, device=backend)
        assert result is out
        got = out
    check(name, got, expected)


# --------------------------------------------------------------------------------------------
# Integer corner cases that trap in hardware or are undefined in C++
# --------------------------------------------------------------------------------------------

SIGNED = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
INTEGERS = [dt for dt in DTYPES if dt.kind in "iu"]


@pytest.mark.parametrize("dtype", SIGNED, ids=str)
@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_int_min_by_minus_one_and_by_zero(name, dtype, backend):
    info = np.iinfo(dtype)
    x1 = np.array([info.min, info.min, info.max, -7, 7, -7, 7, 0, info.min], dtype)
    x2 = np.array([-1, 0, -1, 2, -2, -2, 2, 0, 1], dtype)
    expected, _ = expected_or_error(name, x1, x2)
    assert_matches(call_on(backend, getattr(numcu, name), x1, x2), expected)


@pytest.mark.parametrize("dtype", INTEGERS, ids=str)
@pytest.mark.parametrize("name", ["left_shift", "right_shift"])
def test_shifts_by_the_bit_width_and_more(name, dtype, backend):
    bits = 8 * dtype.itemsize
    info = np.iinfo(dtype)
    x1 = np.array([1, info.max, info.min, 5, info.min, info.max], dtype)
    x2 = np.array([bits - 1, bits, bits + 1, bits * 3, bits, 0], dtype)
    expected, _ = expected_or_error(name, x1, x2)
    assert_matches(call_on(backend, getattr(numcu, name), x1, x2), expected)


@pytest.mark.parametrize("dtype", SIGNED, ids=str)
def test_integer_power_with_negative_exponent_raises(dtype, backend, rng):
    """Exponents the host holds are checked (NumPy's ValueError); device arrays are not (the
    check would wait for the GPU): a negative exponent there gives 1 / x**-e truncated."""
    base = random_array(rng, (8,), dtype)
    base[:3] = [1, -1, 0]
    exponent = np.array([-3, -3, -1, -1, 3, 1, -2, 0], dtype)
    with pytest.raises(ValueError, match="numcu.power: integers to negative integer powers"):
        call_on(backend, numcu.power, base, -2)
    if backend != "numcu":
        with pytest.raises(ValueError, match="numcu.power: integers to negative integer powers"):
            call_on(backend, numcu.power, base, exponent)
        return
    with quiet():
        expected = np.power(base, np.abs(exponent))
    truncated = np.where(base == 1, 1, np.where(base == -1, (-1) ** (np.abs(exponent) % 2), 0))
    expected = np.where(exponent < 0, truncated, expected).astype(dtype)
    assert_matches(call_on(backend, numcu.power, base, exponent), expected)


@pytest.mark.parametrize(
    ("name", "dtype"),
    [("bitwise_and", "float32"), ("invert", "float64"), ("floor", "complex64"),
     ("left_shift", "float32"), ("arctan2", "complex128"), ("subtract", "bool"),
     ("negative", "bool"), ("signbit", "complex64"), ("cbrt", "complex128")],
)  # fmt: skip
def test_no_loop_raises_type_error_naming_function_and_dtype(name, dtype):
    x = np.ones(3, dtype)
    arity = 1 if name in UNARY else 2
    with pytest.raises(TypeError, match=rf"numcu\.{name}: .*{dtype}"):
        getattr(numcu, name)(*[x] * arity, device="cpu")


@pytest.mark.parametrize(
    ("dtype", "loop"),
    [("bool", "float16"), ("int8", "float16"), ("uint8", "float16"), ("int16", "float32"),
     ("uint16", "float32"), ("int32", "float64"), ("uint64", "float64")],
)  # fmt: skip
def test_float_functions_of_integers_pick_numpys_loop(dtype, loop, host_backend):
    x = np.array([1, 4, 9], dtype)
    assert numcu.sqrt(x, device=host_backend).dtype == np.dtype(loop)
    assert numcu.arctan2(x, x, device=host_backend).dtype == np.dtype(loop)


# --------------------------------------------------------------------------------------------
# where, clip, astype
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_where(dtype, backend, rng):
    condition = rng.random((4, 1)) > 0.5
    x = ufunc_data(rng, "where", (4, 7), dtype, 1)
    y = ufunc_data(rng, "where", (7,), dtype, 2)
    assert_matches(call_on(backend, numcu.where, condition, x, y), np.where(condition, x, y))
    # A non-bool condition is taken as "not zero"; x and y promote together.
    cond = random_array(rng, (7,), np.int16)
    cond[::3] = 0
    y32 = y.astype(np.float32) if dtype.kind != "c" else y
    assert_matches(call_on(backend, numcu.where, cond, x, y32), np.where(cond, x, y32))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_clip(dtype, backend, rng):
    a = ufunc_data(rng, "clip", (5, 9), dtype, 0)
    lo = ufunc_data(rng, "clip", (9,), dtype, 1)
    hi = ufunc_data(rng, "clip", (5, 1), dtype, 2)
    with quiet():
        expected = np.clip(a, lo, hi)
    assert_matches(call_on(backend, numcu.clip, a, lo, hi), expected)
    with quiet():
        expected = np.clip(a, None, hi)
    assert_matches(call_on(backend, numcu.clip, a, None, hi), expected)


def astype_source(rng, dtype, to):
    """Values every conversion defines: NumPy and C++ leave NaN, inf and out-of-range floats to
    integers undefined, so integer targets get small non-negative values."""
    a = random_array(rng, (3, 17), dtype)
    if np.dtype(to).kind in "iu" and dtype.kind in "fc":
        a = (np.abs(a) % 100).astype(dtype)
    return a


@pytest.mark.parametrize("to", DTYPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_astype_every_pair(dtype, to, rng):
    a = astype_source(rng, dtype, to)[:, ::2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex to real: NumPy's ComplexWarning
        expected = a.astype(to)
    result = numcu.astype(a, to)
    assert type(result) is np.ndarray
    assert_matches(result, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("to", DTYPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_astype_on_device(dtype, to, rng):
    a = astype_source(rng, dtype, to)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = a.astype(to)
    d = numcu.asarray(a)
    for result in (numcu.astype(d, to), d.astype(to)):
        assert isinstance(result, numcu.ndarray)
        assert_matches(result.get(), expected)


# --------------------------------------------------------------------------------------------
# numcu.ndarray operators (device arrays)
# --------------------------------------------------------------------------------------------

OPERATORS = {
    "+": (operator.add, operator.iadd, "add"),
    "-": (operator.sub, operator.isub, "subtract"),
    "*": (operator.mul, operator.imul, "multiply"),
    "/": (operator.truediv, operator.itruediv, "divide"),
    "//": (operator.floordiv, operator.ifloordiv, "floor_divide"),
    "%": (operator.mod, operator.imod, "remainder"),
    "**": (operator.pow, operator.ipow, "power"),
    "&": (operator.and_, operator.iand, "bitwise_and"),
    "|": (operator.or_, operator.ior, "bitwise_or"),
    "^": (operator.xor, operator.ixor, "bitwise_xor"),
    "<<": (operator.lshift, operator.ilshift, "left_shift"),
    ">>": (operator.rshift, operator.irshift, "right_shift"),
    "==": (operator.eq, None, "equal"),
    "!=": (operator.ne, None, "not_equal"),
    "<": (operator.lt, None, "less"),
    "<=": (operator.le, None, "less_equal"),
    ">": (operator.gt, None, "greater"),
    ">=": (operator.ge, None, "greater_equal"),
}
OPERATOR_DTYPES = [np.dtype(t) for t in ("int32", "uint8", "float32", "float64", "bool")]


def operator_operands(rng, name, dtype):
    x1 = ufunc_data(rng, name, (4, 5), dtype, 0)
    x2 = ufunc_data(rng, name, (5,), dtype, 1)
    if name in ("floor_divide", "remainder", "power", "left_shift", "right_shift"):
        x1 = np.nan_to_num(x1, nan=1.0, posinf=3.0, neginf=-3.0) if dtype.kind == "f" else x1
    return x1, x2


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", OPERATOR_DTYPES, ids=str)
@pytest.mark.parametrize("symbol", OPERATORS)
def test_ndarray_operators(symbol, dtype, rng):
    fn, ifn, name = OPERATORS[symbol]
    x1, x2 = operator_operands(rng, name, dtype)
    expected, error = expected_or_error(name, x1, x2)
    d1, d2 = numcu.asarray(x1), numcu.asarray(x2)
    if error is not None:
        with pytest.raises(TypeError):
            fn(d1, d2)
        return
    result = fn(d1, d2)
    assert isinstance(result, numcu.ndarray)
    check(name, result.get(), expected)
    # Reflected: a Python scalar on the left.
    scalar = 2 if dtype.kind in "iub" else 1.5
    if dtype.kind != "b" or name not in ("subtract",):
        expected_r, error_r = expected_or_error(name, scalar, x2)
        if error_r is None:
            check(name, fn(scalar, d2).get(), expected_r)
    # In place: the left operand is written, and is what the operator returns.
    if ifn is not None and expected.dtype == x1.dtype:
        left = numcu.asarray(x1)
        same = ifn(left, d2)
        assert same is left
        check(name, left.get(), expected)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", OPERATOR_DTYPES, ids=str)
@pytest.mark.parametrize(
    ("fn", "name"),
    [(operator.neg, "negative"), (operator.pos, "positive"), (operator.abs, "absolute"),
     (operator.invert, "invert")],
)  # fmt: skip
def test_ndarray_unary_operators(fn, name, dtype, rng):
    x = ufunc_data(rng, name, (3, 7), dtype, 0)
    expected, error = expected_or_error(name, x)
    d = numcu.asarray(x)
    if error is not None:
        with pytest.raises(TypeError):
            fn(d)
        return
    check(name, fn(d).get(), expected)


@pytest.mark.parametrize("backend_", [gpu_param("numcu")])
def test_ndarray_equality_with_foreign_objects_falls_back(backend_):
    d = numcu.asarray(np.ones(3, np.float32))
    assert (d == None) is False  # noqa: E711
    assert (d != "text") is True
