"""bfloat16, a dtype like the others.

- On the host a bfloat16 array is a NumPy array of ml_dtypes' bfloat16 (an optional package:
  without it numcu imports and runs, device arrays of ``dtype="bfloat16"`` included, and host
  results of bfloat16 raise a TypeError that names ml_dtypes).
- Casts into bfloat16 round once, to nearest even, from every dtype, as ml_dtypes does from 0.7
  (earlier versions went through float32 and could round twice); casts from it widen through
  float32, as ml_dtypes does.
- Float ufuncs, comparisons and reductions compute in float32 and round the result to bfloat16,
  as PyTorch does; elementwise results equal ml_dtypes' own loops, reductions equal the float32
  reduction rounded once.
- Promotion: bool and 8-bit integers stay bfloat16, float32 and wider win, as ml_dtypes defines;
  float16 and 16-bit integers meet it in float32, wider integers in float64; a Python float
  stays bfloat16 (NEP 50's weak scalar, as in PyTorch and JAX).
- DLPack's kDLBfloat both ways: PyTorch's bfloat16 tensors in and out, with PyTorch's results.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
from fractions import Fraction

import numpy as np
import pytest
from conftest import DTYPE_NAMES, call_on, import_or_skip, jax_gpu, random_array

import numcu

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.dtype(np.float32)

# One bfloat16 unit in the last place, relative: what float32 results that differ in their last
# bits (another libm, another summation order) can become once rounded.
ULP = 2.0**-7


def bf16_array(rng, shape, *, positive=False, nonzero=False):
    """Random bfloat16 data: never zeros, with fresh values per test."""
    a = random_array(rng, shape, F32, nonzero=nonzero)
    if positive:
        a = np.abs(a) + np.float32(0.25)
    return a.astype(BF16)


def poison_bf16(shape):
    return np.full(shape, np.nan, F32).astype(BF16)


def assert_bf16(result, expected, *, rtol=0.0, atol=0.0):
    """Same dtype and shape; values equal (NaN to NaN) within rtol/atol, compared in float32."""
    result, expected = np.asarray(result), np.asarray(expected)
    assert result.dtype == expected.dtype, f"dtype {result.dtype}, expected {expected.dtype}"
    assert result.shape == expected.shape, f"shape {result.shape}, expected {expected.shape}"
    if expected.dtype == BF16:
        result, expected = result.astype(F32), expected.astype(F32)
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(result, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(result, expected)


def in_float32(op, *operands):
    """op computed on the operands as float32, rounded to bfloat16 (bool results stay bool)."""
    with np.errstate(all="ignore"):
        r = getattr(np, op)(*[x.astype(F32) if x.dtype == BF16 else x for x in operands])
    return r.astype(BF16) if r.dtype == F32 else r


# --------------------------------------------------------------------------------------------
# The dtype


def test_bfloat16_is_a_numcu_dtype():
    assert "bfloat16" in numcu.dtypes
    assert "bfloat16" in numcu.build_info()["dtypes"]


SHAPES = [(), (1,), (7,), (5, 33), (0, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_host_round_trip_keeps_bits(shape, rng):
    a = bf16_array(rng, shape)
    result = numcu.astype(a, BF16, device="cpu")
    assert result.dtype == BF16
    np.testing.assert_array_equal(np.asarray(result).view(np.uint16), a.view(np.uint16))


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_device_round_trip_keeps_bits(shape, rng):
    a = bf16_array(rng, shape)
    d = numcu.asarray(a)
    assert isinstance(d, numcu.ndarray)
    assert d.dtype == BF16
    assert d.__cuda_array_interface__["typestr"] == "<V2"
    np.testing.assert_array_equal(d.get().view(np.uint16), a.view(np.uint16))


# --------------------------------------------------------------------------------------------
# Casts


# Values that round to bfloat16 differently through float32 than directly: float32 drops their
# last bit and leaves a tie, which goes to even, where the value itself is past the halfway point.
ROUND_ONCE = {
    "f": [1 + 2.0**-8 + 2.0**-30, -3.5, np.inf, np.nan],
    "c": [complex(1 + 2.0**-8 + 2.0**-30, 0.5)],
    "int32": [2**24 + 2**16 + 1, -(2**24 + 2**16 + 1), 2**31 - 1, -(2**31)],
    "uint32": [2**24 + 2**16 + 1, 2**32 - 1],
    "int64": [2**60 + 2**52 + 1, -(2**60 + 2**52 + 1), 2**24 + 2**16 + 1, 2**63 - 1, -(2**63)],
    "uint64": [2**63 + 2**55 + 1, 2**24 + 2**16 + 1, 2**64 - 1],
}


def cast_source(rng, dtype, shape=(6, 11)):
    x = random_array(rng, shape, dtype)
    dtype = np.dtype(dtype)
    special = ROUND_ONCE.get(dtype.name, ROUND_ONCE.get(dtype.kind, []))
    x.flat[: len(special)] = np.array(special, dtype=dtype)
    return x


def bf16_bits_value(bits):
    """The exact value of a bfloat16 given by its bits (None where not finite)."""
    value = float(np.array(bits << 16, np.uint32).view(F32))
    return Fraction(value) if math.isfinite(value) else None


def bfloat16_nearest(values):
    """The bits of the bfloat16 nearest each value (ties to even), found with Python's exact
    fractions: the reference for casts into bfloat16. NaN is left to the caller (bits 0)."""
    out = []
    for v in np.asarray(values).ravel().tolist():
        if isinstance(v, float) and not math.isfinite(v):
            out.append(0 if math.isnan(v) else (0x7F80 if v > 0 else 0xFF80))
            continue
        exact = Fraction(v)
        # float32's nearest, cut to its upper half, is within one bfloat16 step of the answer.
        guess = int(np.array(float(v), F32).view(np.uint32)) >> 16
        candidates = [
            (abs(value - exact), b & 1, b)
            for b in (guess - 1, guess, guess + 1)
            if 0 <= b < 2**16 and (value := bf16_bits_value(b)) is not None
        ]
        out.append(min(candidates)[2])
    return np.array(out, np.uint16).reshape(np.shape(values))


def cast_on(backend, x, dtype):
    """numcu.astype on `backend`: the host, device= (the Array API's: the result lands there), or
    a device array."""
    if backend == "cpu":
        result = numcu.astype(x, dtype)
        assert type(result) is np.ndarray
        return result
    if backend == "cuda":
        result = numcu.astype(x, dtype, device="cuda")
    else:
        result = numcu.astype(numcu.asarray(x), dtype)
    assert isinstance(result, numcu.ndarray)
    return result.get()


@pytest.mark.parametrize("source", DTYPE_NAMES)
def test_cast_to_bfloat16_rounds_once(source, backend, rng):
    x = cast_source(rng, source)
    real = x.real if x.dtype.kind == "c" else x
    expected_bits = bfloat16_nearest(real)
    nan = np.isnan(real.astype(np.float64))

    result = cast_on(backend, x, BF16)

    assert np.asarray(result).dtype == BF16
    bits = np.asarray(result).view(np.uint16)
    np.testing.assert_array_equal(bits[~nan], expected_bits[~nan])
    assert np.isnan(np.asarray(result).astype(F32)[nan]).all()
    if tuple(int(p) for p in ml_dtypes.__version__.split(".")[:2]) >= (0, 7):
        # ml_dtypes rounds once too since 0.7: the reference is NumPy's own cast.
        np.testing.assert_array_equal(real.astype(BF16).view(np.uint16)[~nan], bits[~nan])


@pytest.mark.parametrize("target", DTYPE_NAMES)
def test_cast_from_bfloat16_matches_ml_dtypes(target, backend, rng):
    x = bf16_array(rng, (5, 13))
    if np.dtype(target).kind == "u":
        x = np.abs(x.astype(F32)).astype(BF16)  # negative to unsigned is platform-defined
    with np.errstate(invalid="ignore"):
        expected = x.astype(target)

    result = cast_on(backend, x, target)

    np.testing.assert_array_equal(np.asarray(result), expected)
    assert np.asarray(result).dtype == expected.dtype


def test_strided_and_reversed_host_views(rng):
    base = bf16_array(rng, (8, 10))
    view = base[::2, ::-3]

    result = numcu.add(view, view, device="cpu")

    assert_bf16(result, view + view)


# --------------------------------------------------------------------------------------------
# Elementwise: float32 arithmetic, rounded once


BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "power",
    "arctan2",
    "hypot",
    "copysign",
    "logaddexp",
    "floor_divide",
    "remainder",
]
EXACT_BINARY = {
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "copysign",
}


@pytest.mark.parametrize("op", BINARY)
def test_binary_ufuncs_compute_in_float32(op, backend, rng):
    a = bf16_array(rng, (4, 9), positive=op == "power")
    b = bf16_array(rng, (9,), nonzero=True)
    if op == "power":
        b = (b.astype(F32) / 4).astype(BF16)

    result = call_on(backend, getattr(numcu, op), a, b)

    expected = in_float32(op, a, b)
    # The basic arithmetic is correctly rounded in float32, so bit-exact; the functions may differ
    # from NumPy's libm in float32's last bit, and so by one bfloat16 ulp.
    assert_bf16(result, expected, rtol=0 if op in EXACT_BINARY else ULP)
    if op in EXACT_BINARY:
        with np.errstate(all="ignore"):
            assert_bf16(result, getattr(np, op)(a, b))  # ml_dtypes' own loop agrees


UNARY = [
    "negative",
    "absolute",
    "square",
    "sqrt",
    "exp",
    "log",
    "sin",
    "cos",
    "tanh",
    "floor",
    "ceil",
    "rint",
    "reciprocal",
    "sign",
    "expm1",
    "log1p",
    "cbrt",
]
EXACT_UNARY = {
    "negative",
    "absolute",
    "square",
    "sqrt",
    "floor",
    "ceil",
    "rint",
    "reciprocal",
    "sign",
}


@pytest.mark.parametrize("op", UNARY)
def test_unary_ufuncs_compute_in_float32(op, backend, rng):
    positive = op in ("sqrt", "log", "log1p")
    a = bf16_array(rng, (3, 17), positive=positive, nonzero=True)

    result = call_on(backend, getattr(numcu, op), a)

    assert_bf16(result, in_float32(op, a), rtol=0 if op in EXACT_UNARY else ULP)


@pytest.mark.parametrize(
    "op", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
)
def test_comparisons_match_ml_dtypes(op, backend, rng):
    a = bf16_array(rng, (6, 8))
    b = a.copy()
    b[::2] = bf16_array(rng, (3, 8))  # equal and unequal pairs both

    result = call_on(backend, getattr(numcu, op), a, b)

    expected = getattr(np, op)(a, b)
    assert_bf16(result, expected)


@pytest.mark.parametrize("op", ["isnan", "isinf", "isfinite", "signbit"])
def test_predicates(op, backend, rng):
    a = bf16_array(rng, (20,))
    a[:3] = np.array([np.nan, np.inf, -np.inf]).astype(BF16)

    result = call_on(backend, getattr(numcu, op), a)

    assert_bf16(result, getattr(np, op)(a.astype(F32)))


def test_where_and_clip(backend, rng):
    a = bf16_array(rng, (5, 6))
    b = bf16_array(rng, (6,))
    cond = random_array(rng, (5, 6), np.bool_)

    assert_bf16(call_on(backend, numcu.where, cond, a, b), np.where(cond, a, b))
    lo, hi = np.array(-1.0, BF16), np.array(2.0, BF16)
    expected = np.clip(a.astype(F32), -1.0, 2.0).astype(BF16)
    assert_bf16(call_on(backend, numcu.clip, a, lo, hi), expected)


def test_out_is_poisoned_then_written(rng):
    a = bf16_array(rng, (31,))
    b = bf16_array(rng, (31,))
    out = poison_bf16((31,))

    result = numcu.multiply(a, b, out=out, device="cpu")

    assert result is out
    assert_bf16(out, a * b)


def test_in_place_on_a_strided_view(rng):
    base = bf16_array(rng, (6, 10))
    view = base[::2, ::-1]
    other = bf16_array(rng, (10,))
    expected = view + other
    untouched = base[1::2].copy()

    result = numcu.add(view, other, out=view, device="cpu")

    assert result is view
    assert_bf16(view, expected)
    np.testing.assert_array_equal(base[1::2].view(np.uint16), untouched.view(np.uint16))


# --------------------------------------------------------------------------------------------
# Promotion


PROMOTION = {
    "bool": "bfloat16",
    "int8": "bfloat16",
    "uint8": "bfloat16",
    "int16": "float32",
    "uint16": "float32",
    "int32": "float64",
    "uint32": "float64",
    "int64": "float64",
    "uint64": "float64",
    "float16": "float32",
    "float32": "float32",
    "float64": "float64",
    "complex64": "complex64",
    "complex128": "complex128",
}


@pytest.mark.parametrize("other", DTYPE_NAMES)
def test_promotion_with_every_dtype(other, rng):
    a = bf16_array(rng, (4,))
    b = random_array(rng, (4,), other)
    want = BF16 if PROMOTION[other] == "bfloat16" else np.dtype(PROMOTION[other])

    assert np.asarray(numcu.add(a, b, device="cpu")).dtype == want
    assert np.asarray(numcu.add(b, a, device="cpu")).dtype == want
    # Where ml_dtypes defines the pair, it agrees.
    try:
        theirs = np.result_type(BF16, np.dtype(other))
    except TypeError:
        return
    assert theirs == want


@pytest.mark.parametrize(
    "scalar, want",
    [(3, BF16), (2.5, BF16), (True, BF16), (complex(1, 2), np.dtype(np.complex64))],
    ids=["int", "float", "bool", "complex"],
)
def test_python_scalars_are_weak(scalar, want, backend, rng):
    a = bf16_array(rng, (9,))

    result = call_on(backend, numcu.multiply, a, scalar)

    expected = (
        a.astype(F32) * np.float32(scalar)
        if not isinstance(scalar, complex)
        else a.astype(np.complex64) * np.complex64(scalar)
    )
    assert np.asarray(result).dtype == want
    assert_bf16(result, expected.astype(want))


def test_three_operands_find_the_smallest_common_dtype(rng):
    a = bf16_array(rng, (3,))
    cond = random_array(rng, (3,), np.bool_)
    i8 = random_array(rng, (3,), np.int8)

    assert np.asarray(numcu.where(cond, a, i8, device="cpu")).dtype == BF16
    f16 = random_array(rng, (3,), np.float16)
    assert np.asarray(numcu.where(cond, a, f16, device="cpu")).dtype == F32


def test_unsafe_out_is_refused(rng):
    a = bf16_array(rng, (4,))
    out = np.zeros(4, np.int32)
    with pytest.raises(TypeError, match="numcu.add: cannot cast the result from bfloat16"):
        numcu.add(a, a, out=out, device="cpu")


# --------------------------------------------------------------------------------------------
# Reductions: accumulated in float32, rounded once


REDUCTIONS = ["sum", "mean", "prod", "min", "max", "nansum", "nanmax"]


@pytest.mark.parametrize("axis", [None, 0, 1], ids=lambda a: f"axis={a}")
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_accumulate_in_float32(name, axis, backend, rng):
    a = bf16_array(rng, (37, 65))
    if name == "prod":
        a = (1 + a.astype(F32) / 64).astype(BF16)
    if name.startswith("nan"):
        a[3, ::7] = np.nan

    result = call_on(backend, getattr(numcu, name), a, axis=axis)

    expected = getattr(np, name)(a.astype(F32), axis=axis).astype(BF16)
    scale = np.nansum(np.abs(a.astype(F32)), axis=axis) * 1e-6
    assert_bf16(result, expected, rtol=ULP, atol=np.max(scale) if name != "prod" else 0)


@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_arg_reductions(name, backend, rng):
    a = bf16_array(rng, (12, 40))

    result = call_on(backend, getattr(numcu, name), a, axis=1)

    np.testing.assert_array_equal(np.asarray(result), getattr(np, name)(a.astype(F32), axis=1))


def test_cumsum_stays_bfloat16(backend, rng):
    a = bf16_array(rng, (50,))

    result = call_on(backend, numcu.cumsum, a)

    expected = np.cumsum(a.astype(F32)).astype(BF16)
    assert_bf16(result, expected, rtol=ULP, atol=np.abs(a.astype(F32)).sum() * 1e-6)


# --------------------------------------------------------------------------------------------
# Sorting: bfloat16 keys have 7 mantissa bits


def sort_input(rng):
    a = bf16_array(rng, (3, 40))
    # Values above float16's range (whose infinity bits are finite bfloat16) and the specials.
    a[:, :6] = np.array([1e37, -1e37, np.nan, np.inf, -np.inf, -0.0]).astype(BF16)
    return a


def test_sort_and_argsort_order_as_numpy_float32(backend, rng):
    a = sort_input(rng)
    order = np.argsort(a.astype(F32), axis=1, kind="stable")

    result = call_on(backend, numcu.sort, a)
    indices = call_on(backend, numcu.argsort, a)

    assert_bf16(result, np.take_along_axis(a, order, axis=1))
    np.testing.assert_array_equal(np.asarray(indices), order)


def test_descending_sort_orders_as_float32(backend, rng):
    a = sort_input(rng)

    result = call_on(backend, numcu.sort, a, descending=True)
    indices = call_on(backend, numcu.argsort, a, descending=True)

    # NumPy's stable descending order of the float32 values (NaNs first, equal elements in
    # their order): the stable ascending order of each reversed row, reversed.
    wide = a.astype(F32)
    order = a.shape[1] - 1 - np.flip(np.argsort(np.flip(wide, 1), axis=1, kind="stable"), 1)
    assert_bf16(result, np.take_along_axis(a, order, axis=1))
    np.testing.assert_array_equal(np.asarray(indices), order)


# --------------------------------------------------------------------------------------------
# Without ml_dtypes


def test_numcu_runs_without_ml_dtypes():
    script = textwrap.dedent(
        """
        import sys
        sys.modules["ml_dtypes"] = None  # import ml_dtypes now raises ImportError
        import numpy as np
        import numcu
        assert "bfloat16" in numcu.dtypes
        x = np.arange(6, dtype=np.float32)
        assert numcu.add(x, x, device="cpu")[5] == 10
        try:
            numcu.astype(x, "bfloat16", device="cpu")
        except TypeError as e:
            assert "numcu" in str(e) and "ml_dtypes" in str(e), str(e)
        else:
            raise AssertionError("a host bfloat16 result without ml_dtypes")
        if numcu.cuda.is_available():
            d = numcu.astype(numcu.asarray(x), "bfloat16")
            back = numcu.astype(numcu.add(d, d), "float32").get()
            assert (back == x + x).all(), back
        print("ok")
        """
    )
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# --------------------------------------------------------------------------------------------
# DLPack and PyTorch (GPU)


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "legacy"])
def test_host_dlpack_kdlbfloat_is_bfloat16(versioned, rng):
    from test_hardening import HandMadeTensor  # a DLPack producer written with ctypes

    a = bf16_array(rng, (4, 6))
    b = bf16_array(rng, (6,))
    tensor = HandMadeTensor(a.view(np.uint16), versioned=versioned, code=4, bits=16)

    result = numcu.add(tensor, b, device="cpu")

    assert_bf16(result, a + b)


def torch_cuda():
    torch = import_or_skip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no GPU")
    return torch


def torch_bf16(torch, a):
    """A CUDA bfloat16 tensor holding the bits of the ml_dtypes array `a`."""
    bits = torch.from_numpy(np.ascontiguousarray(a).view(np.int16).copy())
    return bits.view(torch.bfloat16).cuda()


def torch_to_numpy(torch, t):
    return t.cpu().view(torch.int16).numpy().view(BF16)


@pytest.mark.gpu
def test_dlpack_both_ways_with_torch(rng):
    torch = torch_cuda()
    a = bf16_array(rng, (7, 12))
    t = torch_bf16(torch, a)

    d = numcu.from_dlpack(t)
    assert d.dtype == BF16
    assert d.__cuda_array_interface__["data"][0] == t.data_ptr()
    np.testing.assert_array_equal(d.get().view(np.uint16), a.view(np.uint16))

    back = torch.from_dlpack(numcu.multiply(d, d))
    assert back.dtype == torch.bfloat16
    np.testing.assert_array_equal(
        torch_to_numpy(torch, back).view(np.uint16), (a * a).view(np.uint16)
    )


@pytest.mark.gpu
def test_dlpack_both_ways_with_jax(rng):
    jax, device = jax_gpu()
    a = bf16_array(rng, (7, 12))
    # JAX's bfloat16 is ml_dtypes'; its copy to the GPU is waited for, as a JAX user must.
    x = jax.device_put(a, device).block_until_ready()

    d = numcu.from_dlpack(x)
    assert d.dtype == BF16
    np.testing.assert_array_equal(d.get().view(np.uint16), a.view(np.uint16))

    back = jax.dlpack.from_dlpack(numcu.multiply(d, d))
    assert back.dtype == BF16
    np.testing.assert_array_equal(np.asarray(back).view(np.uint16), (a * a).view(np.uint16))


@pytest.mark.gpu
@pytest.mark.parametrize("op", ["add", "multiply", "divide", "maximum", "sqrt", "exp", "sin"])
def test_elementwise_equals_torch(op, rng):
    torch = torch_cuda()
    a = bf16_array(rng, (1000,), positive=op == "sqrt", nonzero=True)
    b = bf16_array(rng, (1000,), nonzero=True)
    ta, tb = torch_bf16(torch, a), torch_bf16(torch, b)

    if op in ("sqrt", "exp", "sin"):
        ours, theirs = getattr(numcu, op)(ta), getattr(torch, op)(ta)
    else:
        ours, theirs = getattr(numcu, op)(ta, tb), getattr(torch, op)(ta, tb)

    mine = torch_to_numpy(torch, torch.from_dlpack(ours))
    rtol = 0 if op in ("add", "multiply", "divide", "maximum", "sqrt") else ULP
    assert_bf16(mine, torch_to_numpy(torch, theirs), rtol=rtol)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 7, 8, 8191, 8192, 8193, 3 * 8192 + 13, (1 << 20) + 3])
@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "less"])
def test_binary_kernel_writes_every_element_once(op, n, rng):
    """Two-input bfloat16 kernels have a block shape of their own (512 threads, two vectors of
    eight each): sizes around its tile of 8192 elements, with a tail past the last whole vector,
    are written whole into a poisoned out, and an offset view takes the unaligned path."""
    a, b = bf16_array(rng, (n + 1,)), bf16_array(rng, (n + 1,))
    for start in (0, 1):  # 1: two bytes past the vectors' alignment
        expected = in_float32(op, a[start : start + n], b[start : start + n])
        assert expected.dtype == (bool if op == "less" else BF16)
        x, y = numcu.asarray(a)[start : start + n], numcu.asarray(b)[start : start + n]
        out = numcu.asarray(poison_bf16((n,)) if op != "less" else ~expected)

        assert getattr(numcu, op)(x, y, out=out) is out

        assert_bf16(out.get(), expected)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["sum", "mean", "amax"])
def test_reductions_equal_torch(name, rng):
    torch = torch_cuda()
    a = bf16_array(rng, (64, 300))
    t = torch_bf16(torch, a)

    ours = getattr(numcu, "max" if name == "amax" else name)(t, axis=1)
    theirs = getattr(torch, name)(t, dim=1)

    assert theirs.dtype == torch.bfloat16
    atol = np.abs(a.astype(F32)).sum(axis=1).max() * 1e-6
    assert_bf16(
        torch_to_numpy(torch, torch.from_dlpack(ours)),
        torch_to_numpy(torch, theirs),
        rtol=ULP,
        atol=atol,
    )


@pytest.mark.gpu
def test_device_arrays_by_name(rng):
    a = bf16_array(rng, (10,))
    z = numcu.zeros((10,), dtype="bfloat16")
    assert z.dtype == BF16
    s = numcu.add(z, numcu.asarray(a))
    np.testing.assert_array_equal(s.get().view(np.uint16), a.view(np.uint16))


def test_unique_keeps_nans_apart_and_joins_signed_zeros(backend, rng):
    """The standard's unique: NaNs each distinct, -0 and +0 one value; on every backend."""
    x = bf16_array(rng, (300,))
    x[::7] = BF16.type(float("nan"))
    x[1::11] = BF16.type(-0.0)
    x[2::13] = BF16.type(0.0)
    reference = x.astype(np.float32)
    expected_values, expected_counts = np.unique(reference, return_counts=True, equal_nan=False)
    data = numcu.asarray(x) if backend == "numcu" else x
    kwargs = {} if backend == "numcu" else {"device": backend}
    values, _, _, counts = numcu._core._unique(data, True, False, False, True, **kwargs)
    alone = numcu._core._unique(data, True, False, False, False, **kwargs)[0]
    values, counts, alone = (
        r.get() if isinstance(r, numcu.ndarray) else np.asarray(r) for r in (values, counts, alone)
    )
    for got in (values, alone):
        assert got.dtype == BF16
        np.testing.assert_array_equal(got.astype(np.float32), expected_values)
    np.testing.assert_array_equal(counts, expected_counts)
