"""Reductions and scans: NumPy's results, for every dtype, axis form, layout and backend.

Specification, with NumPy as the oracle:
- every reduction and scan of numcu's tables (sum, prod, mean, var, std, min, max, argmin, argmax,
  any, all, count_nonzero, nansum, nanprod, nanmin, nanmax, nanmean, cumsum, cumprod, nancumsum,
  nancumprod, ...) on all 14 dtypes, with NumPy's result dtypes (small integers sum to
  int64/uint64, float16 stays float16, mean of ints is float64), or NumPy's TypeError where
  NumPy has no loop;
- axis None, int (negative too), tuple; keepdims; dtype=; out= (poisoned first);
- 0-size, 0-d, one element, odd, 2-D, 3-D, transposed and negative-stride inputs;
- host input reduced to one value gives a NumPy scalar, device input a 0-d numcu.ndarray;
- empty reductions: identities, NaN means, NumPy's ValueError for min/max/argmin/argmax;
- float32 sums of 10**8 elements no worse than NumPy's pairwise sum, and the same bits run to
  run (gpu, slow).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import DTYPES, TOLERANCES, gpu_param, import_or_skip, poisoned, random_array

import numcu

AxisError = getattr(np, "exceptions", np).AxisError

# The lists come from numcu's tables (numcu._core.reduction_table: name, form, result rule,
# NumPy's name for an empty reduction without identity, whether NaNs are skipped, summary), so a
# reduction added to the table is tested here without a line of its own.
TABLE = {row[0]: row for row in numcu._core.reduction_table}
REDUCTIONS = tuple(numcu._core.reductions)
SCANS = tuple(numcu._core.scans)
SINGLE_AXIS = tuple(n for n in REDUCTIONS if TABLE[n][1] == "arg")
NO_IDENTITY = tuple(n for n in REDUCTIONS if TABLE[n][3] is not None)
NO_OUT = tuple(n for n in REDUCTIONS if TABLE[n][1] == "count")
TAKES_DTYPE = tuple(n for n in TABLE if TABLE[n][1] in ("with_dtype", "var", "scan"))
# Tolerance classes, by arithmetic: products, and results that are sums of many terms (their
# tolerance grows with the terms' size).
PRODUCTS = ("prod", "nanprod", "cumprod", "nancumprod")
SUMMING = tuple(
    n
    for n in TABLE
    if TABLE[n][2] in ("accumulated", "mean", "variance", "deviation") and n not in PRODUCTS
)


def reference(name, a, **kwargs):
    """NumPy's answer; its warnings (empty and all-NaN slices, overflow) are not errors here."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(np, name)(a, **kwargs)


def data(rng, shape, dtype, name):
    """Random data; products draw magnitudes near 1 so that float products stay finite."""
    dtype = np.dtype(dtype)
    if name in PRODUCTS and dtype.kind in "fc":
        size = int(np.prod(shape))
        mag = rng.uniform(0.7, 1.3, size) * rng.choice([-1.0, 1.0], size)
        if dtype.kind == "c":
            mag = mag * np.exp(1j * rng.uniform(0, 0.3, size))
        return mag.reshape(shape).astype(dtype)
    a = random_array(rng, shape, dtype)
    if name in ("any", "all", "count_nonzero") and a.size > 2:
        a.flat[rng.integers(0, a.size, a.size // 3)] = 0  # zeros matter to these three
    return a


def tolerance(name, a, expected):
    """(rtol, atol) for comparing numcu's result with NumPy's on input `a`."""
    expected = np.asarray(expected)
    if expected.dtype.kind not in "fc":
        return 0, 0
    rtol, _ = TOLERANCES[expected.dtype]
    eps = float(np.finfo(expected.dtype).eps)
    atol = 0.0
    if name in SUMMING and a.size:
        # Different summation orders differ by a few roundings of the largest partial sums.
        magnitudes = np.abs(a.astype(np.complex128))
        finite = magnitudes[np.isfinite(magnitudes)]
        big = float(finite.max()) if finite.size else 1.0
        scale = big * big if name in ("var", "std") else big
        atol = 4 * eps * scale * max(a.size, 1) ** 0.5 * 8
    if name in PRODUCTS:
        # NumPy rounds float16 products every step (numcu accumulates in float32), and complex
        # products round differently with the order.
        rtol = 2e-2 if expected.dtype == np.float16 else 10 * rtol
        # Long products drift to the subnormal range, where the last digits depend on the order
        # of the multiplications: below the smallest normal number only the magnitude counts.
        atol = max(atol, float(np.finfo(expected.dtype).tiny))
    if name in ("cumsum", "nancumsum") and expected.size:
        # NumPy rounds every partial sum to the result's type, in order; numcu's scan adds in
        # another order (and rounds float16 only at the outputs). Each result after k steps is
        # off by at most k half-ulps of the largest partial sum so far.
        partial = np.abs(expected[np.isfinite(expected)].astype(np.complex128))
        largest = float(partial.max()) if partial.size else 0.0
        atol = max(atol, 0.5 * eps * max(a.size, 1) * largest)
        if expected.dtype == np.float16:
            rtol, atol = 2e-2, max(0.5, atol)
    return rtol, atol


def check(result, expected, name, a, scalar_ok=True):
    expected = np.asarray(expected)
    if expected.ndim == 0 and scalar_ok:
        assert isinstance(result, np.generic), f"expected a NumPy scalar, got {type(result)!r}"
    result = np.asarray(result)
    assert result.dtype == expected.dtype, f"dtype {result.dtype}, expected {expected.dtype}"
    assert result.shape == expected.shape, f"shape {result.shape}, expected {expected.shape}"
    rtol, atol = tolerance(name, a, expected)
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(result, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(result, expected)


def call(backend, name, a, **kwargs):
    """numcu's `name` on `backend`; device results come back as NumPy (scalars as 0-d)."""
    fn = getattr(numcu, name)
    if backend == "numcu":
        result = fn(numcu.asarray(a), **kwargs)
        assert isinstance(result, numcu.ndarray), f"device input gave {type(result)!r}"
        return result.get(), False
    return fn(a, device=backend, **kwargs), True


def run_case(backend, name, a, **kwargs):
    """numcu's result against NumPy's, or NumPy's TypeError (a dtype it has no loop for)."""
    try:
        expected = reference(name, a, **kwargs)
    except TypeError:
        with pytest.raises(TypeError, match=f"numcu.{name}: "):
            call(backend, name, a, **kwargs)
        return
    result, host = call(backend, name, a, **kwargs)
    check(result, expected, name, a, scalar_ok=host)


# --------------------------------------------------------------------------------------------
# Every function on every dtype
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_dtypes(backend, rng, name, dtype):
    a = data(rng, (5, 37), dtype, name)
    run_case(backend, name, a)
    run_case(backend, name, a, axis=0)
    run_case(backend, name, a, axis=-1)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", SCANS)
def test_scan_dtypes(backend, rng, name, dtype):
    a = data(rng, (4, 9), dtype, name)
    for axis in (None, 0, -1):
        expected = reference(name, a, axis=axis)
        result, _ = call(backend, name, a, axis=axis)
        check(result, expected, name, a)


# --------------------------------------------------------------------------------------------
# Axis forms and layouts (float64, int32 and complex64 cover the three arithmetic families)
# --------------------------------------------------------------------------------------------

LAYOUTS = {
    "0d": ((), "c"),
    "empty": ((0,), "c"),
    "one": ((1,), "c"),
    "odd": ((1001,), "c"),
    "2d": ((6, 7), "c"),
    "3d": ((3, 4, 5), "c"),
    "transposed": ((6, 7), "T"),
    "3d-transposed": ((3, 4, 5), "T"),
    "negative": ((5, 9), "neg"),
    "empty-2d": ((0, 3), "c"),
}

AXIS_FORMS = {
    "none": {"axis": None},
    "0": {"axis": 0},
    "-1": {"axis": -1},
    "tuple": {"axis": (0, -1)},
    "keepdims": {"axis": 0, "keepdims": True},
    "none-keepdims": {"axis": None, "keepdims": True},
}


def layout(rng, shape, kind, dtype, name):
    if kind == "T":
        return data(rng, shape[::-1], dtype, name).T
    a = data(rng, shape, dtype, name)
    if kind == "neg":
        return a[::-1, ::-2]
    return a


@pytest.mark.parametrize("dtype", ["float64", "int32", "complex64"])
@pytest.mark.parametrize("axis_form", list(AXIS_FORMS))
@pytest.mark.parametrize("shape_name", list(LAYOUTS))
@pytest.mark.parametrize("name", REDUCTIONS)
def test_axes_and_layouts(backend, rng, name, shape_name, axis_form, dtype):
    shape, kind = LAYOUTS[shape_name]
    kwargs = dict(AXIS_FORMS[axis_form])
    ndim = len(shape)
    axis = kwargs["axis"]
    if ndim == 0 and axis is not None:
        pytest.skip("a 0-d array has no axis 0")
    if isinstance(axis, tuple) and (ndim < 2 or name in SINGLE_AXIS):
        pytest.skip("tuple axes need 2-D, and argmin/argmax take one axis")
    a = layout(rng, shape, kind, dtype, name)
    try:
        expected = reference(name, a, **kwargs)
    except ValueError as exc:
        with pytest.raises(ValueError, match=f"numcu.{name}: .*(empty|no identity)"):
            call(backend, name, a, **kwargs)
        assert "empty" in str(exc) or "identity" in str(exc)
        return
    result, host = call(backend, name, a, **kwargs)
    check(result, expected, name, a, scalar_ok=host)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("shape_name", ["0d", "empty", "odd", "3d", "3d-transposed", "negative"])
@pytest.mark.parametrize("name", SCANS)
def test_scan_layouts(backend, rng, name, shape_name, axis):
    shape, kind = LAYOUTS[shape_name]
    if axis is not None and not -len(shape) <= axis < len(shape):
        pytest.skip("axis out of range for this shape")
    a = layout(rng, shape, kind, "float64", name)
    expected = reference(name, a, axis=axis)
    result, _ = call(backend, name, a, axis=axis)
    check(result, expected, name, a)


# --------------------------------------------------------------------------------------------
# NaN, dtype= and out=
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex128"])
@pytest.mark.parametrize(
    "name",
    [
        "sum",
        "min",
        "max",
        "argmin",
        "argmax",
        "nansum",
        "nanprod",
        "nanmin",
        "nanmax",
        "nanmean",
        "mean",
    ],
)
def test_nan(backend, rng, name, dtype):
    a = data(rng, (6, 9), dtype, name)
    a[1, 3] = np.nan
    a[4, ::2] = np.nan
    a[2, :] = np.nan  # an all-NaN row
    run_case(backend, name, a)
    run_case(backend, name, a, axis=1)
    run_case(backend, name, a, axis=0)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("name", ["cumsum", "nancumsum", "nancumprod"])
def test_nan_scan_lines(backend, rng, name, dtype):
    """Scans with NaNs along lines long enough for the GPU's whole-line path (CUB), in place
    too, and along both axes of a C-ordered array."""
    a = data(rng, (1001,), dtype, name)
    a[rng.integers(0, a.size, 40)] = np.nan
    a[-1] = np.nan
    run_case(backend, name, a)
    expected = reference(name, a)
    out = poisoned(a.shape, expected.dtype)
    if backend == "numcu":
        out = numcu.asarray(out)
        result = getattr(numcu, name)(numcu.asarray(a), out=out)
    else:
        result = getattr(numcu, name)(a, out=out, device=backend)
    assert result is out
    check(out.get() if backend == "numcu" else out, expected, name, a)
    b = data(rng, (300, 7), dtype, name)
    b[rng.integers(0, 300, 30), rng.integers(0, 7, 30)] = np.nan
    run_case(backend, name, b, axis=0)
    run_case(backend, name, b, axis=1)


@pytest.mark.parametrize("requested", ["int64", "int8", "bool", "float64", "complex128"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nancumsum", "nancumprod"])
def test_nan_functions_replace_nan_before_dtype(backend, rng, name, dtype, requested):
    """dtype= converts the input after its NaNs are replaced, as NumPy's nan-functions do: a
    NaN converted to an integer or bool first, or a complex number with a NaN imaginary part
    converted to a real dtype first, would be summed as a number."""
    if name == "nanmean" and requested not in ("float64", "complex128"):
        pytest.skip("nanmean refuses dtype= that is not inexact (tested elsewhere)")
    a = data(rng, (5, 9), dtype, name) * 3
    a[1, 3] = np.nan
    a[4, ::2] = np.nan
    if a.dtype.kind == "c":
        a[2, 2] = complex(1.5, np.nan)
        a[3, 5] = complex(np.nan, 0.5)
    for axis in (None, 1):
        expected = reference(name, a, axis=axis, dtype=requested)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result, host = call(backend, name, a, axis=axis, dtype=requested)
        check(result, expected, name, a, scalar_ok=host and name not in SCANS)


@pytest.mark.parametrize(
    "name, dtype, requested",
    [
        ("sum", "int8", "int8"),
        ("sum", "float64", "float32"),
        ("sum", "uint16", "float64"),
        ("sum", "float16", "float32"),
        ("prod", "int16", "int32"),
        ("mean", "int32", "float32"),
        ("mean", "float32", "float64"),
        ("nansum", "float32", "float64"),
        ("var", "int64", "float32"),
        ("cumsum", "int8", "int16"),
        ("cumprod", "float32", "float64"),
    ],
)
def test_dtype_argument(backend, rng, name, dtype, requested):
    a = data(rng, (5, 11), dtype, name)
    for axis in (None, 0):
        expected = reference(name, a, axis=axis, dtype=requested)
        result, host = call(backend, name, a, axis=axis, dtype=requested)
        check(result, expected, name, a, scalar_ok=host and name not in SCANS)


# var and std with dtype= as NumPy computes them. With an integer dtype= they work in it: the mean
# is summed in it (wrapping) and truncated into it, the squared deviations summed in it and the
# quotient truncated again; std of an array result in it is refused (its square root casts with
# 'same_kind'), and into a float out the last quotient is not truncated. A real dtype= for complex
# input keeps the imaginary parts in the deviations; a complex dtype= gives a complex result.
VAR_DTYPE_CASES = [
    ("int32", "int64"),
    ("int16", "int8"),  # sums that wrap
    ("uint8", "uint16"),
    ("bool", "int32"),
    ("float64", "int64"),  # elements truncated into the dtype
    ("complex128", "int64"),
    ("int64", "uint8"),
    ("complex128", "float64"),
    ("complex64", "float32"),
    ("float32", "complex64"),
    ("int16", "complex128"),
]
VAR_DTYPE_KWARGS = [
    {"axis": None},
    {"axis": 1},
    {"axis": 0, "keepdims": True},
    {"axis": 1, "ddof": 2},
    {"axis": None, "ddof": 1.5},
]


@pytest.mark.parametrize("dtype, requested", VAR_DTYPE_CASES)
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_with_dtype(backend, rng, name, dtype, requested):
    a = data(rng, (6, 7), dtype, name)
    for kwargs in VAR_DTYPE_KWARGS:
        if numpy_refuses(name, a, dtype=requested, **kwargs):
            with pytest.raises(TypeError, match=f"numcu.{name}: dtype= has dtype {requested}"):
                call(backend, name, a, dtype=requested, **kwargs)
            continue
        run_case(backend, name, a, dtype=requested, **kwargs)


@pytest.mark.parametrize("dtype, requested", [*VAR_DTYPE_CASES[:3], ("complex64", "float32")])
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_with_dtype_into_a_float_out(backend, rng, name, dtype, requested):
    a = data(rng, (6, 7), dtype, name)
    expected = reference(name, a, axis=1, dtype=requested, out=np.zeros(6))
    out = poisoned((6,), "float64")
    if backend == "numcu":
        out_dev = numcu.asarray(out)
        result = getattr(numcu, name)(numcu.asarray(a), axis=1, dtype=requested, out=out_dev)
        assert result is out_dev
        got = out_dev.get()
    else:
        assert getattr(numcu, name)(a, axis=1, dtype=requested, out=out, device=backend) is out
        got = out
    # A float dtype= sums in its own precision (in another order than NumPy's): compared there.
    precision = np.dtype(requested) if np.dtype(requested).kind == "f" else np.dtype("float64")
    check(got.astype(precision), expected.astype(precision), name, a, scalar_ok=False)


@pytest.mark.parametrize(
    "name, out_dtype",
    [
        ("sum", "float64"),
        ("sum", "float32"),
        ("mean", "float64"),
        ("min", "float64"),
        ("argmax", "int64"),
        ("all", "bool"),
        ("std", "float64"),
        ("cumsum", "float64"),
    ],
)
@pytest.mark.parametrize("keepdims", [False, True])
def test_out(backend, rng, name, out_dtype, keepdims):
    a = data(rng, (7, 5), "float64", name)
    kwargs = {"axis": 0}
    if name not in SCANS:
        kwargs["keepdims"] = keepdims
    elif keepdims:
        pytest.skip("scans have no keepdims")
    expected = reference(name, a, **kwargs).astype(out_dtype)
    out = poisoned(expected.shape, out_dtype, expected)
    if backend == "numcu":
        out_dev = numcu.asarray(out)
        result = getattr(numcu, name)(numcu.asarray(a), out=out_dev, **kwargs)
        assert result is out_dev
        got = out_dev.get()
    else:
        result = getattr(numcu, name)(a, out=out, device=backend, **kwargs)
        assert result is out
        got = out
    check(got, expected, name, a, scalar_ok=False)


# Without dtype=, NumPy's reduce and accumulate loop runs in the promotion of the input's dtype and
# out's. Each case's data makes the input's own loop miss that result by far more than the case's
# tolerance: int64 sums past 2**63 (which wrap in int64), float32 sums with a cancelling 1e8 at
# each end (float32 drops the small terms beside it), products of 400 factors near 1, and float16
# and bfloat16 sums and products (rounded to their dtype once, or at every step of a scan).
LOOP_FOLLOWS_OUT = [
    ("sum", "int64", "float64"),
    ("nansum", "int64", "float64"),
    ("cumsum", "int64", "float64"),
    ("sum", "float32", "float64"),
    ("nansum", "float32", "float64"),
    ("mean", "float32", "float64"),
    ("nanmean", "float32", "float64"),
    ("cumsum", "float32", "float64"),
    ("sum", "float32", "complex128"),
    ("prod", "float32", "float64"),
    ("nanprod", "float32", "float64"),
    ("cumprod", "float32", "float64"),
    *(
        (name, narrow, "float32")
        for name in ("sum", "prod", "nansum", "cumsum", "cumprod")
        for narrow in ("float16", "bfloat16")
    ),
]


def draw_for_wide_loop(rng, name, dtype):
    """Fresh data for one LOOP_FOLLOWS_OUT case (see there), as float64 values to convert."""
    if dtype == "int64":
        return rng.integers(2**60, 2**61, 16)
    if name in PRODUCTS:
        return 1 + (rng.random(400) - 0.5) / 64
    values = rng.random(400 if dtype != "float32" else 1000) + 0.5
    if dtype == "float32":
        values[0], values[-1] = 1e8, -1e8
    if name.startswith("nan"):
        values[rng.integers(1, len(values) - 1)] = np.nan
    return values


@pytest.mark.parametrize(("name", "dtype", "out_dtype"), LOOP_FOLLOWS_OUT)
def test_loop_runs_in_the_promotion_of_input_and_out(backend, rng, name, dtype, out_dtype):
    """An out of a wider float or complex dtype, and no dtype=, makes the loop that dtype's, as
    NumPy's: a float32 sum into float64 adds in float64, an int64 sum into float64 cannot wrap,
    a float16 sum into float32 is not rounded to float16, nor a float16 cumsum at every step."""
    in_type = import_or_skip("ml_dtypes").bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    rtol = {"int64": 1e-12, "float32": 1e-9}.get(dtype, 5e-5)
    for _ in range(50):
        a = draw_for_wide_loop(rng, name, dtype).astype(in_type)
        shape = a.shape if name in SCANS else ()
        expected = np.empty(shape, out_dtype)
        if dtype == "bfloat16":  # NumPy promotes bfloat16 with float32 to float32
            reference(name, a.astype(np.float32), out=expected)
        else:
            reference(name, a, out=expected)
        # What the input's own loop gives, converted into out, must miss by 4x the tolerance; a
        # float16 or bfloat16 sum or product is out's result rounded once to the input's dtype.
        if name in SCANS or dtype not in ("float16", "bfloat16"):
            own = np.asarray(reference(name, a)).astype(out_dtype)
        else:
            own = expected.astype(in_type).astype(out_dtype)
        scale = np.max(np.abs(expected))
        if np.max(np.abs(own - expected)) > 4 * rtol * scale:
            break
    else:
        pytest.fail("no data found on which the input's own loop misses NumPy's result")
    out = poisoned(shape, out_dtype)
    if backend == "numcu":
        out_dev = numcu.asarray(out)
        assert getattr(numcu, name)(numcu.asarray(a), out=out_dev) is out_dev
        got = out_dev.get()
    else:
        assert getattr(numcu, name)(a, out=out, device=backend) is out
        got = out
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * scale)


def test_out_of_a_full_reduction_is_0d(rng):
    a = random_array(rng, (10,), "float32")
    out = poisoned((), "float32")
    assert numcu.sum(a, out=out, device="cpu") is out
    np.testing.assert_allclose(out, np.sum(a), rtol=1e-6)


def test_python_scalars_and_lists():
    assert numcu.sum(3, device="cpu") == 3
    assert numcu.sum([1.5, 2.5], device="cpu") == 4.0
    assert numcu.argmax([[1, 5], [7, 2]], device="cpu") == 2


def test_input_not_modified(rng):
    a = random_array(rng, (9, 4), "float32")
    copy = a.copy()
    numcu.var(a, axis=0, device="cpu")
    numcu.cumsum(a, device="cpu")
    np.testing.assert_array_equal(a, copy)


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmax", "cumsum"])
def test_axis_out_of_range(name):
    with pytest.raises(AxisError, match=f"numcu.{name}: axis 2 is out of bounds"):
        getattr(numcu, name)(np.ones((2, 3)), axis=2, device="cpu")
    with pytest.raises(AxisError, match=f"numcu.{name}"):
        getattr(numcu, name)(np.ones((2, 3)), axis=-3, device="cpu")


def test_axis_errors():
    with pytest.raises(ValueError, match="numcu.sum: duplicate value in 'axis'"):
        numcu.sum(np.ones((2, 3)), axis=(1, -1), device="cpu")
    with pytest.raises(TypeError, match="numcu.argmax: axis must be an integer or None"):
        numcu.argmax(np.ones((2, 3)), axis=(0, 1), device="cpu")
    with pytest.raises(TypeError, match="numcu.sum: axis must be"):
        numcu.sum(np.ones((2, 3)), axis=1.5, device="cpu")


@pytest.mark.parametrize(
    "name, message",
    [
        ("min", "zero-size array to reduction operation minimum which has no identity"),
        ("max", "zero-size array to reduction operation maximum which has no identity"),
        ("nanmax", "zero-size array to reduction operation fmax which has no identity"),
        ("argmin", "attempt to get argmin of an empty sequence"),
        ("argmax", "attempt to get argmax of an empty sequence"),
    ],
)
def test_empty_without_identity(name, message):
    with pytest.raises(ValueError, match=f"numcu.{name}: {message}"):
        getattr(numcu, name)(np.ones((0,), np.float32), device="cpu")
    with pytest.raises(ValueError, match=f"numcu.{name}: "):
        getattr(numcu, name)(np.ones((0, 3), np.float32), axis=0, device="cpu")
    # reducing a non-empty axis of an empty array is fine: nothing to reduce into
    assert getattr(numcu, name)(np.ones((0, 3), np.float32), axis=1, device="cpu").shape == (0,)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["sum", "mean"])
def test_cpu_float_sums_are_numpys_pairwise_sums(rng, name, dtype, threads):
    # The CPU backend sums a dense run as NumPy does (blocks of 128 on eight accumulators,
    # halves combined pairwise), so its float sums and means are NumPy's to the bit, whatever
    # the thread count; lengths around the block and accumulator boundaries.
    previous = numcu.get_num_threads()
    numcu.set_num_threads(threads)
    try:
        for n in (7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 1000, 4097, 65549, (1 << 20) + 7):
            x = random_array(rng, (n,), dtype) * rng.choice([1.0, 1e4, 1e-4], n).astype(dtype)
            got = np.asarray(getattr(numcu, name)(x, device="cpu"))
            want = np.asarray(getattr(np, name)(x))
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (name, n)
    finally:
        numcu.set_num_threads(previous)


@pytest.mark.parametrize("name", ["sum", "mean", "argmax", "cumsum"])
def test_unsupported_dtype(name):
    with pytest.raises(TypeError, match=f"numcu.{name}: unsupported dtype"):
        getattr(numcu, name)(np.array(["a", "b"]), device="cpu")
    with pytest.raises(TypeError, match=f"numcu.{name}: unsupported dtype"):
        getattr(numcu, name)(np.array([1, 2, 3], dtype="datetime64[s]"), device="cpu")


def test_unsupported_dtype_argument():
    with pytest.raises(TypeError, match="numcu.sum: unsupported dtype"):
        numcu.sum(np.ones(3), dtype="U3", device="cpu")


@pytest.mark.parametrize("name", ["sum", "max", "argmax", "mean", "cumsum"])
def test_out_shape_mismatch(name):
    with pytest.raises(ValueError, match=f"numcu.{name}: out has shape \\(2,\\) but the result"):
        getattr(numcu, name)(np.ones((3, 4)), axis=0, out=np.zeros(2), device="cpu")


def numpy_refuses(name, a, **kwargs):
    """Whether NumPy raises TypeError for this call (its other warnings and errors aside)."""
    try:
        reference(name, a, **kwargs)
    except TypeError:
        return True
    return False


# NumPy refuses some out and dtype= dtypes where it converts others: argmin and argmax into an out
# that does not cast safely to intp, std into an integer or bool out (its square root casts with
# 'same_kind'), nanmean of a float or complex input into a non-inexact out or dtype=, var and std
# of bool with dtype=bool. Every other pair is converted, as NumPy converts it.
@pytest.mark.parametrize("name", ["argmax", "argmin", "std", "var", "nanmean", "mean", "sum"])
def test_refuses_the_out_and_dtype_numpy_refuses(rng, name):
    refused = 0
    for in_dtype in DTYPES:
        a = data(rng, (5, 3), in_dtype, name)
        for out_dtype in DTYPES:
            expected = poisoned((3,), out_dtype)
            if numpy_refuses(name, a, axis=0, out=expected):
                refused += 1
                with pytest.raises(TypeError, match=f"numcu.{name}: out has dtype {out_dtype}"):
                    getattr(numcu, name)(a, axis=0, out=poisoned((3,), out_dtype), device="cpu")
                continue
            out = poisoned((3,), out_dtype)
            assert getattr(numcu, name)(a, axis=0, out=out, device="cpu") is out
            if name in SINGLE_AXIS:  # indices (0 to 4) convert to every accepted out exactly
                np.testing.assert_array_equal(out, expected)
                continue  # no dtype=
            kwargs = {"axis": 0, "dtype": out_dtype}
            if numpy_refuses(name, a, **kwargs):
                refused += 1
                with pytest.raises(TypeError, match=f"numcu.{name}: dtype= has dtype {out_dtype}"):
                    getattr(numcu, name)(a, device="cpu", **kwargs)
            else:
                getattr(numcu, name)(a, device="cpu", **kwargs)
    # The cases the rules cover: each of these reductions has some (mean and sum have none).
    assert (refused > 0) == (name not in ("mean", "sum"))


@pytest.mark.parametrize(
    "name, out_dtype", [("argmax", "float64"), ("std", "int64"), ("nanmean", "bool")]
)
def test_refused_out_on_every_backend(backend, rng, name, out_dtype):
    a = data(rng, (6,), "float32", name)
    out = poisoned((), out_dtype)
    if backend == "numcu":
        a, out = numcu.asarray(a), numcu.asarray(out)
    kwargs = {} if backend == "numcu" else {"device": backend}
    with pytest.raises(TypeError, match=f"numcu.{name}: out has dtype {out_dtype}"):
        getattr(numcu, name)(a, out=out, **kwargs)


def test_readonly_out():
    out = np.zeros(4)
    out.flags.writeable = False
    with pytest.raises((ValueError, TypeError), match="numcu.sum"):
        numcu.sum(np.ones((3, 4)), axis=0, out=out, device="cpu")


@pytest.mark.skipif(numcu.cuda.is_available(), reason="needs a machine without a GPU")
def test_cuda_requested_without_gpu():
    with pytest.raises(numcu.cuda.CUDAUnavailableError, match="numcu.sum"):
        numcu.sum(np.ones(3), device="cuda")


# --------------------------------------------------------------------------------------------
# Device arrays from every producer, accuracy and determinism
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16", "complex64"])
def test_sum_of_device_array(producer, rng, dtype):
    a = random_array(rng, (1000, 3), dtype)
    x = producer.from_numpy(a)
    total = numcu.sum(x)
    assert isinstance(total, numcu.ndarray) and total.shape == ()
    check(total.get(), np.sum(a), "sum", a, scalar_ok=False)
    columns = numcu.sum(x, axis=0)
    check(columns.get(), np.sum(a, axis=0), "sum", a, scalar_ok=False)


@pytest.mark.gpu
def test_device_scalar_result_without_sync(rng):
    a = random_array(rng, (1 << 20,), "float32")
    x = numcu.asarray(a)
    results = [numcu.sum(x) for _ in range(10)]
    bits = {r.get().tobytes() for r in results}
    assert len(bits) == 1


@pytest.mark.gpu
@pytest.mark.slow
def test_float32_sum_accuracy_1e8():
    rng = np.random.default_rng(12345)
    a = rng.random(10**8, dtype=np.float32)
    exact = np.sum(a, dtype=np.float64)
    numpy_error = abs(float(np.sum(a)) - exact)
    result = numcu.sum(numcu.asarray(a)).get()
    error = abs(float(result) - exact)
    assert error <= max(numpy_error, float(np.spacing(np.float32(exact)))), (error, numpy_error)


@pytest.mark.parametrize("backend_name", ["cpu", gpu_param("cuda"), gpu_param("numcu")])
def test_deterministic(rng, backend_name):
    a = random_array(rng, (1 << 16, 3), "float32")
    first = [
        np.asarray(call(backend_name, "sum", a, **kw)[0]).tobytes()
        for kw in ({}, {"axis": 0}, {"axis": 1})
    ]
    again = [
        np.asarray(call(backend_name, "sum", a, **kw)[0]).tobytes()
        for kw in ({}, {"axis": 0}, {"axis": 1})
    ]
    assert first == again


# --------------------------------------------------------------------------------------------
# Whole arrays on the GPU: one block for small arrays, vectorised blocks plus a pass over their
# partial results for large ones, and views that start off a 16-byte boundary
# --------------------------------------------------------------------------------------------

WHOLE_SIZES = (1, 7, 8191, 8192, 8193, 100_003, 3 * (1 << 17) + 5)


@pytest.mark.gpu
@pytest.mark.parametrize("offset", [0, 3])
@pytest.mark.parametrize("n", WHOLE_SIZES)
@pytest.mark.parametrize("dtype", ["float32", "int8", "float16", "complex64", "bool", "float64"])
@pytest.mark.parametrize(
    "name", ["sum", "mean", "max", "argmax", "argmin", "nansum", "count_nonzero", "any"]
)
def test_whole_array_paths(rng, name, dtype, n, offset):
    a = data(rng, (n + offset,), dtype, name)
    view = numcu.asarray(a)[offset:]
    result = getattr(numcu, name)(view)
    assert isinstance(result, numcu.ndarray) and result.shape == ()
    check(result.get(), reference(name, a[offset:]), name, a[offset:], scalar_ok=False)


@pytest.mark.gpu
@pytest.mark.parametrize("offset", [0, 3])
@pytest.mark.parametrize(
    "name, dtype",
    [
        ("sum", "float32"),
        ("sum", "float64"),
        ("sum", "complex64"),
        ("sum", "int64"),
        ("max", "float32"),
        ("min", "float64"),
        ("max", "uint64"),
        ("min", "int32"),
    ],
)
def test_whole_array_large_tiles(rng, name, dtype, offset):
    # From 2^24 elements, CUB's reduce runs with numcu's larger tiles.
    n = (1 << 24) + 5
    a = data(rng, (n + offset,), dtype, name)
    result = getattr(numcu, name)(numcu.asarray(a)[offset:])
    check(result.get(), reference(name, a[offset:]), name, a[offset:], scalar_ok=False)


@pytest.mark.gpu
@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex64"])
def test_long_contiguous_cumsum(rng, dtype, offset):
    # One contiguous line of many tiles goes to CUB's scan (float and double with CUB's plus).
    n = 21_005
    a = data(rng, (n + offset,), dtype, "cumsum")
    result = numcu.cumsum(numcu.asarray(a)[offset:])
    check(result.get(), reference("cumsum", a[offset:]), "cumsum", a[offset:], scalar_ok=False)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float16", "int16", "float64"])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_ties_and_nans_across_blocks(rng, name, dtype):
    n = 3 * (1 << 18) + 11
    a = rng.integers(0, 3, n).astype(dtype)  # every value repeats: the first one must win
    assert int(getattr(numcu, name)(numcu.asarray(a)).get()) == int(getattr(np, name)(a))
    if np.dtype(dtype).kind == "f":
        a[[n - 5, n // 2, n // 3 + 1]] = np.nan  # the first NaN wins
        assert int(getattr(numcu, name)(numcu.asarray(a)).get()) == n // 3 + 1


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["sum", "argmax", "mean", "cumsum"])
def test_reductions_take_a_stream(rng, name):
    a = random_array(rng, (3000, 7), "float32")
    stream = numcu.cuda.Stream()
    result = getattr(numcu, name)(numcu.asarray(a), stream=stream)
    stream.synchronize()
    check(result.get(), reference(name, a), name, a, scalar_ok=False)
