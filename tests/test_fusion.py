"""Fused expressions: numcu.evaluate (numexpr's language) and numcu.fuse (cupy.fuse's shape).

Specification, with two oracles: NumPy (values within the dtype's tolerance, and NumPy's result
dtype: NEP 50 per operator), and numcu's own ufuncs called one by one on the same backend, which
a fused result must equal bit for bit (the program's instructions are their functors):
- every dtype of the 14 (the GPU interpreter holds bool, int32, int64, float32, float64,
  complex64 and complex128; the others run there as unfused calls, with the same results);
- expressions of arithmetic, comparisons, bitwise and logical operators, where, numexpr's
  functions, any ufunc by name, Python scalars (weak, and Python's own arithmetic where every
  operand is one), literals, and an outer sum/prod/min/max with axis;
- shapes: 0-size, 0-d, one block and several (the CPU backend's blocks are 4096 elements, the
  GPU's tiles 512 to 2048), broadcast, transposed, reversed, offset views;
- out= (poisoned first): its dtype by casting=, strided, the same array as an input, and
  partly overlapping one;
- bad input: a syntax error naming its position, unknown names, unsupported functions, dtypes
  without a loop, casting, shapes: clear exceptions naming numcu.evaluate / numcu.fuse;
- caching: an expression is parsed once; a typed program per call signature;
- threads: the same bits on any number of CPU threads;
- the GPU (marked gpu): device arrays and host arrays, other libraries' arrays, streams, programs
  too large for the interpreter (unfused calls), strided and unaligned operands.
"""

from __future__ import annotations

import operator
import re
import warnings

import numpy as np
import pytest
from conftest import DTYPE_NAMES, gpu_param, import_or_skip, poisoned, quiet, random_array

import numcu
from numcu import _fusion

# Every op the language knows, by the name NumPy gives it (extras: real, imag, conj, complex,
# ones_like).
ALL_OPS = sorted(_fusion.OPS)


# --------------------------------------------------------------------------------------------
# The two references
# --------------------------------------------------------------------------------------------


class Unfused:
    """An operand of the unfused reference: its operators call numcu's ufuncs on `device`."""

    def __init__(self, value, device):
        self.value = value
        self.device = device

    def _call(self, name, *args):
        return _unfused_call(name, self.device, *args)


def _raw(x):
    return x.value if isinstance(x, Unfused) else x


def _unfused_call(name, device, *args):
    if name == "complex":  # numcu has no complex(): re + im*1j gives the same values
        return _unfused_call("add", device, args[0], _unfused_call("multiply", device, args[1], 1j))
    kwargs = {} if device == "numcu" else {"device": device}
    if name == "copy":
        return Unfused(numcu.astype(_raw(args[0]), _raw(args[0]).dtype, **kwargs), device)
    fn = getattr(numcu, name)
    if name in ("real", "imag", "conj"):
        kwargs = {}
    if name == "ones_like":
        x = _raw(args[0])
        return Unfused(numcu.add(numcu.multiply(x, 0, **kwargs), 1, **kwargs), device)
    return Unfused(fn(*map(_raw, args), **kwargs), device)


def _install_operators():
    table = {
        "add": "add",
        "sub": "subtract",
        "mul": "multiply",
        "truediv": "divide",
        "floordiv": "floor_divide",
        "mod": "remainder",
        "pow": "power",
        "lshift": "left_shift",
        "rshift": "right_shift",
        "and": "bitwise_and",
        "or": "bitwise_or",
        "xor": "bitwise_xor",
    }
    for py, name in table.items():
        setattr(Unfused, f"__{py}__", lambda a, b, n=name: a._call(n, a, b))
        setattr(Unfused, f"__r{py}__", lambda a, b, n=name: a._call(n, b, a))
    for py, name in [
        ("lt", "less"),
        ("le", "less_equal"),
        ("gt", "greater"),
        ("ge", "greater_equal"),
        ("eq", "equal"),
        ("ne", "not_equal"),
    ]:
        setattr(Unfused, f"__{py}__", lambda a, b, n=name: a._call(n, a, b))
    Unfused.__neg__ = lambda a: a._call("negative", a)
    Unfused.__pos__ = lambda a: a._call("positive", a)
    Unfused.__invert__ = lambda a: a._call("invert", a)
    Unfused.__hash__ = None
    Unfused.real = property(lambda a: a._call("real", a))
    Unfused.imag = property(lambda a: a._call("imag", a))


_install_operators()

NUMPY_NAMES = {"abs": np.abs, "conj": np.conj, "real": np.real, "imag": np.imag}


def numpy_eval(ex, env):
    """NumPy's answer for the expression (the language is Python's, its functions NumPy's)."""
    names = {name: getattr(np, name) for name in ALL_OPS if hasattr(np, name)}
    names.update(NUMPY_NAMES)
    names["complex"] = lambda a, b: np.asarray(a) + 1j * np.asarray(b)
    names["where"] = np.where
    names["ones_like"] = np.ones_like
    names["copy"] = np.copy
    with quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(ex, {"__builtins__": {}}, {**names, **env})  # noqa: S307


def unfused_eval(ex, env, device):
    """numcu's ufuncs called one by one on `device`, the arrays wrapped so operators call them."""
    names = {name: (lambda *a, n=name: _unfused_call(n, device, *a)) for name in ALL_OPS}
    names["abs"] = names["absolute"]
    names["copy"] = lambda a: _unfused_call("copy", device, a)
    wrapped = {
        k: (Unfused(v, device) if not isinstance(v, (bool, int, float, complex)) else v)
        for k, v in env.items()
    }
    result = eval(ex, {"__builtins__": {}}, {**names, **wrapped})  # noqa: S307
    return _raw(result)


def on_backend(env, backend):
    """The arrays as `backend` takes them: device arrays for 'numcu'."""
    if backend != "numcu":
        return env
    return {k: (numcu.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in env.items()}


def host(x):
    return x.get() if isinstance(x, numcu.ndarray) else x


def evaluate_on(ex, env, backend, **kwargs):
    if backend == "numcu":
        return numcu.evaluate(ex, local_dict=env, global_dict={}, **kwargs)
    return numcu.evaluate(ex, local_dict=env, global_dict={}, device=backend, **kwargs)


def same_bits(a, b):
    """The same dtype, shape and bytes (NaN payloads and the signs of zeros included)."""
    a, b = np.asarray(host(a)), np.asarray(host(b))
    assert a.dtype == b.dtype, f"dtype {a.dtype}, unfused {b.dtype}"
    assert a.shape == b.shape, f"shape {a.shape}, unfused {b.shape}"
    if a.size:
        diff = np.ascontiguousarray(a).view(np.uint8) != np.ascontiguousarray(b).view(np.uint8)
        assert not diff.any(), f"bits differ at {np.argwhere(diff.reshape(a.shape + (-1,)))[:3]}"


def close_to_numpy(result, expected, dtype=None):
    result = np.asarray(host(result))
    expected = np.asarray(expected)
    assert result.dtype == expected.dtype, f"dtype {result.dtype}, NumPy's {expected.dtype}"
    assert result.shape == expected.shape
    if expected.dtype.kind in "fc":
        tol = {4: 2e-5, 8: 1e-5 if expected.dtype.kind == "c" else 1e-12, 16: 1e-12, 2: 2e-3}
        rtol = tol.get(expected.dtype.itemsize, 1e-6)
        if expected.dtype.kind == "f" and expected.dtype.itemsize == 4:
            rtol = 2e-5
        np.testing.assert_allclose(result, expected, rtol=rtol, atol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(result, expected)


# --------------------------------------------------------------------------------------------
# Expressions per dtype
# --------------------------------------------------------------------------------------------

EVERY = ["a*b + c", "where(a > b, a, c)", "maximum(a, b) * c", "(a == b) | (c != a)"]
NOT_BOOL = ["a - b*c", "-a + b*2", "square(a) + 1"]
INTEGER = ["a // b + a % b", "(a << 2) | b", "a ^ (b & c)", "abs(a) + 3", "a * 2 ** 3"]
FLOAT = [
    "sin(a)*cos(b) + sqrt(abs(c - a))*2 - exp(-a)",
    "a / b - c ** 2",
    "arctan2(a, b) + hypot(b, c) * log1p(abs(c))",
    "(((a*0.5 + 1.5)*a - 2.0)*a + 3.0)*a - 1.25",
    "where(isnan(a) | (a < 0), b, floor(c))",
    "tanh(a) + expm1(b / 8) - log10(abs(c) + 1)",
    # Constants and slots on either side, and results kept for later (the GPU's short paths).
    "1.5 - a*(2 + b) + (0.5*c - a) * (a + c) - sqrt(abs(-b))",
]
COMPLEX = [
    "a*b + conj(c)",
    "exp(a / 8) - sqrt(b)",
    "real(a) + imag(b) * abs(c)",
    "a.real * 2 + c.imag",
    "where(a != b, a / b, c)",
]


def expressions_for(dtype):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return EVERY + ["a & ~b ^ c"]
    if kind in "iu":
        return EVERY + NOT_BOOL + INTEGER
    if kind == "f":
        return EVERY + NOT_BOOL + FLOAT
    return ["a*b + c", "(a == b) | (c != a)"] + NOT_BOOL + COMPLEX


CASES = [(name, ex) for name in DTYPE_NAMES for ex in expressions_for(name)]
BACKENDS = ["cpu", gpu_param("cuda"), gpu_param("numcu")]


def operands(rng, dtype, shape=(1000,)):
    return {
        "a": random_array(rng, shape, dtype),
        "b": random_array(rng, shape, dtype, nonzero=True),
        "c": random_array(rng, shape, dtype),
    }


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("dtype", "ex"), CASES)
def test_every_dtype_bit_identical_to_unfused(rng, backend, dtype, ex):
    env = operands(rng, dtype)
    dev = on_backend(env, backend)
    with quiet():
        fused = evaluate_on(ex, dev, backend)
        unfused = unfused_eval(ex, dev, backend)
    same_bits(fused, unfused)
    close_to_numpy(fused, numpy_eval(ex, env))


# Mixed dtypes and Python scalars: NEP 50 per operator, as the unfused calls promote.
MIXED = [
    ("a*b + c", {"a": "int32", "b": "float32", "c": "int64"}),
    ("a*b + c", {"a": "int8", "b": "uint8", "c": "float16"}),
    ("a * 2.5 + x", {"a": "float32", "x": 3}),
    ("a * (x + 1)", {"a": "float32", "x": 2.5}),
    ("a * (x + 1)", {"a": "float32", "x": np.float64(2.5)}),
    ("a + x * 1j", {"a": "float32", "x": 2.0}),
    ("sin(x) * a", {"a": "float32", "x": 0.5}),
    ("a // 3 + b", {"a": "int16", "b": "bool"}),
    ("where(c, a, b) + 1", {"a": "int64", "b": "uint32", "c": "bool"}),
    ("sqrt(a) + b", {"a": "int16", "b": "float32"}),
    ("a / b", {"a": "int32", "b": "int32"}),
    ("complex(a, b) * 2", {"a": "float32", "b": "float32"}),
    ("complex(a, b)", {"a": "int32", "b": "float64"}),
    ("ones_like(a) + a", {"a": "uint16"}),
    ("copy(a) * 2", {"a": "complex64"}),
    ("a + True", {"a": "int8"}),
    ("a > 0.5", {"a": "float16"}),
    ("x + y * 2", {"x": 3.0, "y": 4}),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("ex", "kinds"), MIXED)
def test_mixed_dtypes_and_python_scalars(rng, backend, ex, kinds):
    env = {}
    for k, v in kinds.items():
        env[k] = random_array(rng, (300,), v, nonzero=True) if isinstance(v, str) else v
    dev = on_backend(env, backend)
    fused = evaluate_on(ex, dev, backend)
    if all(not isinstance(v, np.ndarray) for v in env.values()):
        # Python's arithmetic on Python scalars: a Python scalar, as unfused code gives.
        assert fused == numpy_eval(ex, env) and type(fused) is type(numpy_eval(ex, env))
        return
    same_bits(fused, unfused_eval(ex, dev, backend))
    close_to_numpy(fused, numpy_eval(ex, env))


@pytest.mark.parametrize("name", ALL_OPS)
def test_every_op_by_name(rng, name):
    """Any op of the table by name (a ufunc added to NUMCU_UFUNCS needs no other edit)."""
    arity = _fusion.OPS[name][1]
    dtype = "float64" if name not in _INT_ONLY else "int32"
    env = {k: random_array(rng, (50,), dtype, nonzero=True) for k in "abc"[:arity]}
    if name == "where":
        env["a"] = env["a"] > 0
    ex = f"{name}({', '.join('abc'[:arity])})"
    with quiet():
        fused = numcu.evaluate(ex, local_dict=env, device="cpu")
        unfused = unfused_eval(ex, env, "cpu")
    same_bits(fused, unfused)


_INT_ONLY = {"bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"}


# --------------------------------------------------------------------------------------------
# Shapes and layouts
# --------------------------------------------------------------------------------------------

N_BLOCKS = 3 * 4096 + 17  # several CPU blocks and GPU tiles, with a tail


def layouts(rng, dtype):
    big = random_array(rng, (N_BLOCKS,), dtype)
    m = random_array(rng, (37, 61), dtype)
    cube = random_array(rng, (5, 6, 7), dtype)
    return {
        "0-size": (random_array(rng, (0,), dtype), random_array(rng, (0,), dtype)),
        "0-d": (random_array(rng, (), dtype), random_array(rng, (), dtype)),
        "one": (random_array(rng, (1,), dtype), random_array(rng, (1,), dtype)),
        "blocks": (big, random_array(rng, (N_BLOCKS,), dtype)),
        "row-broadcast": (m, random_array(rng, (61,), dtype)),
        "column-broadcast": (m, random_array(rng, (37, 1), dtype)),
        "outer": (random_array(rng, (37, 1), dtype), random_array(rng, (1, 61), dtype)),
        "transposed": (m.T, random_array(rng, (61, 37), dtype)),
        "reversed": (big[::-1], random_array(rng, (2 * N_BLOCKS,), dtype)[::-2]),
        "offset": (big[1:], big[:-1]),
        "3-d strided": (cube[:, ::2, 1:], cube[::-1, 1::2, :-1].copy()),
        "0-d with array": (random_array(rng, (), dtype), m),
    }


LAYOUT_NAMES = list(layouts(np.random.default_rng(0), "float32"))


# Layouts whose operands are the output's shape and contiguous (in the output's order).
DENSE_LAYOUTS = {"0-size", "0-d", "one", "blocks"}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64", "uint8"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_layouts(rng, backend, dtype, layout):
    a, b = layouts(rng, dtype)[layout]
    env = {"a": a, "b": b}
    dev = on_backend(env, backend)
    for ex in ["a*b + a - b*2", "exp(a / 8)*b + sqrt(abs(a - b))"]:
        if np.dtype(dtype).kind in "iub" and "exp" in ex:
            continue
        with quiet():
            fused = evaluate_on(ex, dev, backend)
            unfused = unfused_eval(ex, dev, backend)
        vector_math = "exp" in ex and np.dtype(dtype).kind == "f"
        if backend == "cpu" and vector_math and layout not in DENSE_LAYOUTS:
            # glibc's vector math (CPU): the unfused call picks vector or scalar code per row and
            # block of its own operand's layout, the fused one per block of the output; both
            # are within libmvec's 4 ulp of the exact value.
            scale = np.abs(host(unfused)).max() if np.size(host(unfused)) else 0
            np.testing.assert_allclose(
                host(fused), host(unfused), rtol=0, atol=8 * np.finfo(dtype).eps * scale
            )
        else:
            same_bits(fused, unfused)
        close_to_numpy(fused, numpy_eval(ex, env))
        if backend == "cpu" and a.ndim == 0 and b.ndim == 0:
            assert isinstance(fused, np.generic), "a 0-d host result is a NumPy scalar"


# --------------------------------------------------------------------------------------------
# out=
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_poisoned_and_returned(rng, backend):
    env = operands(rng, "float32", (N_BLOCKS,))
    dev = on_backend(env, backend)
    expected = numpy_eval("a*b + c", env)
    out = poisoned((N_BLOCKS,), "float32", expected)
    out_dev = numcu.asarray(out) if backend == "numcu" else out
    result = evaluate_on("a*b + c", dev, backend, out=out_dev)
    assert result is out_dev
    same_bits(result, unfused_eval("a*b + c", dev, backend))


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_dtype_follows_casting(rng, backend):
    env = operands(rng, "float64", (100,))
    dev = on_backend(env, backend)
    out = poisoned((100,), "float32")
    out_dev = numcu.asarray(out) if backend == "numcu" else out
    with pytest.raises(TypeError, match=r"numcu.evaluate: cannot cast .* float64 .* float32.*safe"):
        evaluate_on("a*b + c", dev, backend, out=out_dev)
    result = evaluate_on("a*b + c", dev, backend, out=out_dev, casting="same_kind")
    expected = numcu.astype(unfused_eval("a*b + c", dev, backend), "float32")
    same_bits(result, expected)
    # Widening is safe.
    wide = poisoned((100,), "complex128")
    wide_dev = numcu.asarray(wide) if backend == "numcu" else wide
    same_bits(
        evaluate_on("a*b", dev, backend, out=wide_dev),
        numcu.astype(unfused_eval("a*b", dev, backend), "complex128"),
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_strided_and_broadcast_into(rng, backend):
    a = random_array(rng, (40, 30), "float64")
    b = random_array(rng, (30,), "float64")
    base = poisoned((40, 60), "float64")
    env = {"a": a, "b": b}
    dev = on_backend(env, backend)
    base_dev = numcu.asarray(base) if backend == "numcu" else base
    out = base_dev[:, ::2]
    evaluate_on("a*b - 1", dev, backend, out=out)
    close_to_numpy(host(base_dev)[:, ::2], numpy_eval("a*b - 1", env))
    assert np.isnan(host(base_dev)[:, 1::2]).all(), "only out's elements are written"
    # A scalar expression broadcast into out.
    full = poisoned((5, 3), "float64")
    full_dev = numcu.asarray(full) if backend == "numcu" else full
    kwargs = {} if backend == "numcu" else {"device": backend}
    numcu.evaluate("x * 2", local_dict={"x": 1.5}, out=full_dev, **kwargs)
    np.testing.assert_array_equal(host(full_dev), np.full((5, 3), 3.0))


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_aliasing_inputs(rng, backend):
    a = random_array(rng, (N_BLOCKS,), "float64")
    b = random_array(rng, (N_BLOCKS,), "float64")
    expected = numpy_eval("a*2 + b", {"a": a, "b": b})
    dev = on_backend({"a": a.copy(), "b": b}, backend)
    evaluate_on("a*2 + b", dev, backend, out=dev["a"])
    close_to_numpy(dev["a"], expected)
    # Partly overlapping: the result is as if every input were read before out is written.
    x = random_array(rng, (N_BLOCKS,), "float64")
    expected = numpy_eval("x[:-1] * 3 + 1", {"x": x})
    xd = numcu.asarray(x) if backend == "numcu" else x.copy()
    kwargs = {} if backend == "numcu" else {"device": backend}
    numcu.evaluate("y * 3 + 1", local_dict={"y": xd[:-1]}, out=xd[1:], **kwargs)
    close_to_numpy(host(xd)[1:], expected)


# --------------------------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "ex",
    [
        "sum(a*b)",
        "sum(a*b + 1, axis=1)",
        "prod(a / 4 + 1, axis=0)",
        "min(a - b, 1)",
        "max(where(a > b, a, b))",
    ],
)
def test_outer_reduction(rng, backend, ex):
    env = operands(rng, "float64", (30, 40))
    dev = on_backend(env, backend)
    result = evaluate_on(ex, dev, backend)
    expected = numpy_eval(
        ex.replace("sum(", "np_sum(")
        .replace("prod(", "np_prod(")
        .replace("min(", "np_min(")
        .replace("max(", "np_max("),
        {**env, "np_sum": np.sum, "np_prod": np.prod, "np_min": np.min, "np_max": np.max},
    )
    # The reduction is numcu's, of the fused result: the unfused reduction's bits.
    name = ex.split("(")[0]
    inner = ex[len(name) + 1 : -1]
    axis = None
    if inner.endswith((", axis=1", ", axis=0", ", 1")):
        inner, axis = inner.rsplit(",", 1)
        axis = int(axis.split("=")[-1])
    unfused = getattr(numcu, name)(unfused_eval(inner, dev, backend), axis=axis)
    same_bits(result, unfused)
    close_to_numpy(result, expected)


def test_reduction_into_out(rng):
    env = operands(rng, "float64", (30, 40))
    out = poisoned((40,), "float64")
    assert numcu.evaluate("sum(a*b, axis=0)", local_dict=env, out=out, device="cpu") is out
    close_to_numpy(out, np.sum(env["a"] * env["b"], axis=0))


# --------------------------------------------------------------------------------------------
# Names, caching, threads
# --------------------------------------------------------------------------------------------


def test_names_from_the_callers_frame(rng):
    a = random_array(rng, (20,), "float64")
    scale = 3.0

    def inner():
        b = random_array(rng, (20,), "float64")
        # `a` and `scale` are closure variables of inner, so its frame has them (numexpr's rule:
        # the caller's locals, then its globals).
        return numcu.evaluate("a * scale + b", device="cpu"), b, a, scale

    result, b, _, _ = inner()
    close_to_numpy(result, a * 3.0 + b)
    with pytest.raises(NameError, match=r"numcu.evaluate: name 'nowhere' is not defined"):
        numcu.evaluate("a + nowhere")
    # local_dict replaces the frame's locals, global_dict its globals.
    r = numcu.evaluate("a + q", local_dict={"a": a}, global_dict={"q": 1.0}, device="cpu")
    close_to_numpy(r, a + 1.0)


def test_parsed_once_and_programs_cached_per_signature(rng):
    ex = "a * 2 + b  # cache test"
    ex = ex.split("#")[0] + " + 0"
    f32 = operands(rng, "float32", (10,))
    numcu.evaluate(ex, local_dict=f32, device="cpu")
    parsed = _fusion._parsed[ex]
    assert parsed.expr.cached_programs == 1
    numcu.evaluate(ex, local_dict=operands(rng, "float32", (99,)), device="cpu")
    assert _fusion._parsed[ex] is parsed and parsed.expr.cached_programs == 1, "same signature"
    numcu.evaluate(ex, local_dict=operands(rng, "float64", (10,)), device="cpu")
    assert parsed.expr.cached_programs == 2
    numcu.evaluate(ex, local_dict={"a": f32["a"], "b": 2.0}, device="cpu")
    assert parsed.expr.cached_programs == 3, "a Python scalar is a signature of its own"


def test_program_listing_matches_the_unfused_dtypes():
    """describe() shows each instruction's loop and result dtype: NumPy's loop search."""
    a = np.ones(3, np.int16)
    b = np.ones(3, np.float32)
    steps = _fusion._parse("sqrt(a) + b * 2").expr.describe((a, b))
    ops = [s[1:] for s in steps if s[0] == "program"]
    assert ("astype", "int16", "float32") in ops  # sqrt(int16) runs on float32
    assert ("sqrt", "float32", "float32") in ops
    assert ("multiply", "float32", "float32") in ops
    assert ("add", "float32", "float32") in ops
    # Scalars only: computed on the host, as numcu.sin(2.0) is.
    host_steps = _fusion._parse("sin(x) * a").expr.describe((np.float64(2.0), a))
    assert host_steps[0][:2] == ("host", "sin")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_threads_give_the_same_bits(rng, dtype):
    env = operands(rng, dtype, (5 * 4096 + 3,))
    ex = "exp(a / 8) * b + sqrt(abs(c))" if dtype != "complex128" else "exp(a / 8) * b + c"
    before = numcu.get_num_threads()
    try:
        results = []
        for threads in (1, 2, 3):
            numcu.set_num_threads(threads)
            results.append(numcu.evaluate(ex, local_dict=env, device="cpu"))
    finally:
        numcu.set_num_threads(before)
    same_bits(results[0], results[1])
    same_bits(results[0], results[2])
    same_bits(results[0], unfused_eval(ex, env, "cpu"))


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ex", "error", "match"),
    [
        ("a +* b", SyntaxError, r"numcu.evaluate: invalid syntax at position 3 in 'a \+\* b'"),
        ("a + (b", SyntaxError, r"numcu.evaluate: invalid syntax at position"),
        ("fmod(a, b)", ValueError, r"numcu.evaluate: function 'fmod' is not supported"),
        ("frobnicate(a)", ValueError, r"function 'frobnicate' is not supported: .* at position 0"),
        ("a[0] + b", ValueError, r"numcu.evaluate: Subscript is not supported at position 0"),
        ("a.T + b", ValueError, r"numcu.evaluate: attribute .T is not supported"),
        ("a < b < a", ValueError, r"chained comparisons are not supported"),
        ("sin(sum(a))", ValueError, r"sum\(\) may only be the outermost call"),
        ("sin(a, b)", TypeError, r"numcu.evaluate: sin\(\) takes 1 arguments, not 2"),
        ("a + 'x'", TypeError, r"str constants are not supported"),
        ("a & b", TypeError, r"numcu.evaluate: bitwise_and has no loop for dtype float64"),
        ("(a > b) - (b > a)", TypeError, r"boolean subtract is not supported"),
    ],
)
def test_bad_expressions(rng, ex, error, match):
    env = operands(rng, "float64", (5,))
    with pytest.raises(error, match=match):
        numcu.evaluate(ex, local_dict=env, device="cpu")


def test_bad_arguments(rng):
    a = random_array(rng, (5,), "float64")
    b = random_array(rng, (4,), "float64")
    with pytest.raises(
        ValueError, match=r"numcu.evaluate: operands could not be broadcast .*\(5,\) \(4,\)"
    ):
        numcu.evaluate("a + b", device="cpu")
    with pytest.raises(ValueError, match=r"numcu.evaluate: out has shape \(4,\) but the result"):
        numcu.evaluate("a * 2", out=b, device="cpu")
    with pytest.raises(TypeError, match=r"numcu.evaluate: the expression must be a str"):
        numcu.evaluate(3)
    with pytest.raises(ValueError, match=r"casting must be one of"):
        numcu.evaluate("a * 2", casting="sometimes", device="cpu")
    i8 = {"i8": np.arange(5, dtype=np.int8)}
    with pytest.raises(OverflowError, match=r"numcu.evaluate: Python integer 300 out of bounds"):
        numcu.evaluate("i8 + 300", local_dict=i8, device="cpu")
    with pytest.raises(ValueError, match=r"integers to negative integer powers are not allowed"):
        numcu.evaluate("i8 ** -1", local_dict=i8, device="cpu")
    with pytest.raises(TypeError, match=r"numcu.evaluate"):
        numcu.evaluate("a + b", local_dict={"a": a, "b": object()}, device="cpu")
    readonly = np.zeros(5)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match=r"numcu.evaluate"):
        numcu.evaluate("a * 2", out=readonly, device="cpu")


# --------------------------------------------------------------------------------------------
# numcu.fuse
# --------------------------------------------------------------------------------------------


@numcu.fuse
def _poly(x, y, s):
    return numcu.sin(x) * y + s * 2 - numcu.where(x > y, x, y)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex64"])
def test_fuse_bit_identical_to_unfused(rng, backend, dtype):
    x = random_array(rng, (N_BLOCKS,), dtype)
    y = random_array(rng, (N_BLOCKS,), dtype)
    if np.dtype(dtype).kind == "c":
        f = numcu.fuse(lambda x, y, s: numcu.exp(x / 8) * y + s)
        ex = "exp(x / 8) * y + s"
    else:
        f, ex = _poly, "sin(x) * y + s * 2 - where(x > y, x, y)"
    env = {"x": x, "y": y}
    dev = on_backend(env, backend)
    args = (dev["x"], dev["y"], 1.5)
    kwargs = {} if backend == "numcu" else {"device": backend}
    with quiet():
        result = f(*args, **kwargs)
        unfused = unfused_eval(ex, {**dev, "s": 1.5}, backend)
    same_bits(result, unfused)


def test_fuse_cache_per_signature(rng):
    @numcu.fuse
    def f(x, y):
        return x * y + 1

    a32 = random_array(rng, (10,), "float32")
    a64 = random_array(rng, (10,), "float64")
    f(a32, a32, device="cpu")
    f(random_array(rng, (10,), "float32"), a32, device="cpu")
    assert len(f._traces) == 1
    f(a64, a32, device="cpu")
    f(a32, 2.0, device="cpu")
    f(a32, 2, device="cpu")
    f(a32.reshape(2, 5), a32.reshape(2, 5), device="cpu")
    assert len(f._traces) == 5


def test_fuse_numpy_ufuncs_reductions_and_nesting(rng):
    @numcu.fuse
    def inner(x):
        return np.cos(x) * 2

    @numcu.fuse(kernel_name="outer")
    def outer(x, y):
        return numcu.sum(inner(x) + np.where(x > y, x, y) + abs(y), axis=0)

    x = random_array(rng, (30, 20), "float64")
    y = random_array(rng, (20,), "float64")
    expected = np.sum(np.cos(x) * 2 + np.where(x > y, x, y) + abs(y), axis=0)
    close_to_numpy(outer(x, y, device="cpu"), expected)
    assert repr(outer) == "<numcu.fuse of outer>"

    @numcu.fuse
    def typed(x):
        return (x.astype(np.float32) * 2).real + x.copy()

    close_to_numpy(
        typed(np.arange(4), device="cpu"), np.arange(4).astype(np.float32) * 2 + np.arange(4)
    )


def test_fuse_python_scalars_follow_python(rng):
    @numcu.fuse
    def f(a, s):
        return a * (s + 1)

    a = random_array(rng, (10,), "float32")
    # s + 1 of a Python float is a Python float (weak): float32 stays float32.
    assert f(a, 2.5, device="cpu").dtype == np.float32
    assert f(a, np.float64(2.5), device="cpu").dtype == np.float64

    @numcu.fuse
    def constant(a):
        return 7

    assert constant(a) == 7


def test_fuse_errors(rng):
    @numcu.fuse
    def branches(x):
        return x if x > 0 else -x

    with pytest.raises(TypeError, match=r"numcu.fuse: the truth value of a traced array"):
        branches(np.ones(3))

    @numcu.fuse
    def returns_tuple(x):
        return x, x

    with pytest.raises(TypeError, match=r"numcu.fuse: returns_tuple must return an array"):
        returns_tuple(np.ones(3))

    @numcu.fuse
    def reduces_twice(x):
        return numcu.sum(x) * 2

    with pytest.raises(TypeError, match=r"numcu.fuse: a reduction may only end"):
        reduces_twice(np.ones(3))

    @numcu.fuse
    def bad_dtype(x):
        return x & x

    with pytest.raises(TypeError, match=r"numcu.fuse: bitwise_and has no loop for dtype float64"):
        bad_dtype(np.ones(3), device="cpu")

    @numcu.fuse
    def mismatched(x, y):
        return x + y

    with pytest.raises(ValueError, match=r"numcu.fuse: operands could not be broadcast"):
        mismatched(np.ones(3), np.ones(4), device="cpu")
    with pytest.raises(TypeError, match=r"numcu.fuse: use @numcu.fuse"):
        numcu.fuse(1, 2)


# --------------------------------------------------------------------------------------------
# Random expressions (property-based)
# --------------------------------------------------------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

_LEAVES = ["a", "b", "c", "2", "0.5", "x"]
_BIN = ["+", "-", "*", "/", "**"]
_FUN1 = ["sin", "exp", "sqrt", "abs", "negative", "square", "log1p", "tanh", "floor"]
_FUN2 = ["maximum", "minimum", "hypot", "arctan2", "fmax"]
_ALL_OPS = (_LEAVES, _BIN, _FUN1, _FUN2)


@st.composite
def expressions(draw, depth=3, vocabulary=_ALL_OPS):
    """Random expressions of `vocabulary`: (leaves, binary operators, functions of one argument,
    functions of two), and where."""
    leaves, binary, fun1, fun2 = vocabulary
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(leaves))
    choice = draw(st.integers(0, 3))

    def sub():
        return draw(expressions(depth - 1, vocabulary))

    if choice == 0:
        return f"({sub()} {draw(st.sampled_from(binary))} {sub()})"
    if choice == 1:
        return f"{draw(st.sampled_from(fun1))}({sub()})"
    if choice == 2:
        return f"{draw(st.sampled_from(fun2))}({sub()}, {sub()})"
    return f"where({sub()} > {sub()}, {sub()}, {sub()})"


@hypothesis.given(
    ex=expressions(),
    dtypes=st.tuples(*[st.sampled_from(["float32", "float64", "int32", "int64", "bool"])] * 3),
    n=st.sampled_from([1, 7, 4096, 4097]),
    x=st.sampled_from([1.5, 3, np.float32(0.25)]),
)
def test_random_expressions(ex, dtypes, n, x):
    rng = np.random.default_rng(abs(hash((ex, dtypes, n))) % 2**32)
    env = {k: random_array(rng, (n,), d) for k, d in zip("abc", dtypes)}
    env["x"] = x
    try:
        with quiet():
            expected = numpy_eval(ex, env)
    except Exception:
        hypothesis.assume(False)
    if not isinstance(expected, np.ndarray):
        hypothesis.assume(False)
    with quiet():
        try:
            fused = numcu.evaluate(ex, local_dict=env, device="cpu")
        except (TypeError, ValueError):
            with pytest.raises((TypeError, ValueError)):
                unfused_eval(ex, env, "cpu")
            return
        unfused = unfused_eval(ex, env, "cpu")
    same_bits(fused, unfused)
    assert np.asarray(fused).dtype == expected.dtype


# --------------------------------------------------------------------------------------------
# The GPU
# --------------------------------------------------------------------------------------------

GPU_DTYPES = ["bool", "int32", "int64", "float32", "float64", "complex64", "complex128"]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_gpu_runs_fused_for_the_interpreters_dtypes(rng, dtype):
    env = operands(rng, dtype, (10,))
    ex = "a*b + c" if dtype != "bool" else "a & b | c"
    steps = _fusion._parse(ex).expr.describe(tuple(env.values()), device=0)
    assert steps[-1][0] == "gpu"
    if dtype in GPU_DTYPES:
        assert steps[-1][1] == "fused", steps
    else:
        assert steps[-1][1] == "unfused" and "dtype" in steps[-1][2], steps


def fewer_values_case(rng, dtype):
    """An expression that holds 5 values at once in its own order and 4 in another: sin(a)'s
    result needs a fifth slot while a, b, c and d still hold theirs; computing
    sqrt(abs(c - d))*2 first frees c's and d's."""
    env = operands(rng, dtype, (N_BLOCKS,))
    env["d"] = random_array(rng, (N_BLOCKS,), dtype)
    if dtype == "int32":
        return "(a >> 1)*(b << 1) + abs(c - d)*2 - (-a)", env
    return "sin(a)*cos(b) + sqrt(abs(c - d))*2 - exp(-a)", env


@pytest.mark.skipif(
    "cuda" not in numcu.build_info()["backends"], reason="a CPU-only build makes no GPU plans"
)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_gpu_plan_takes_the_order_that_holds_fewer_values(rng, dtype):
    ex, env = fewer_values_case(rng, dtype)
    p = _fusion._parse(ex)
    steps = p.expr.describe(tuple(env[k] for k in p.names), device=0)
    assert steps[-1][:2] == ("gpu", "fused") and steps[-1][3] == "4 slots", steps


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_gpu_order_that_holds_fewer_values_same_bits(rng, dtype):
    ex, env = fewer_values_case(rng, dtype)
    dev = on_backend(env, "numcu")
    with quiet():
        same_bits(evaluate_on(ex, dev, "numcu"), unfused_eval(ex, dev, "numcu"))


@pytest.mark.gpu
@pytest.mark.parametrize("backend", [gpu_param("numcu"), gpu_param("cuda")])
def test_gpu_program_too_large_runs_unfused(rng, backend):
    env = operands(rng, "float32", (N_BLOCKS,))
    ex = " + ".join(f"a*{k}" for k in range(1, 40))  # 78 instructions
    steps = _fusion._parse(ex).expr.describe(tuple(env.values())[:1], device=0)
    assert steps[-1][1] == "unfused" and "instructions" in steps[-1][2]
    dev = on_backend(env, backend)
    same_bits(evaluate_on(ex, {"a": dev["a"]}, backend), unfused_eval(ex, {"a": dev["a"]}, backend))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", GPU_DTYPES)
@pytest.mark.parametrize("n", [1, 511, 2048, 2049, (1 << 20) + 3])
def test_gpu_tiles_and_tails(rng, dtype, n):
    env = on_backend(operands(rng, dtype, (n,)), "numcu")
    for ex in expressions_for(dtype)[:3]:
        with quiet():
            same_bits(evaluate_on(ex, env, "numcu"), unfused_eval(ex, env, "numcu"))


@pytest.mark.gpu
def test_gpu_scalar_ops_run_where_the_unfused_calls_run(rng):
    """With device='cuda', ops of scalars alone (0-d host arrays, Python scalars) run on the GPU,
    as the unfused calls given device='cuda' do: float32's exp there differs from glibc's in the
    last bits for some values."""
    b = random_array(rng, (64,), "float32")
    for x in random_array(rng, (24,), "float32"):
        for ex, env in [
            ("exp(x / 8) * b", {"x": np.asarray(x), "b": b}),
            ("exp(x / 8) + 1", {"x": np.asarray(x)}),
            ("sin(y) * b", {"y": float(x), "b": b}),
        ]:
            with quiet():
                same_bits(evaluate_on(ex, env, "cuda"), unfused_eval(ex, env, "cuda"))


@pytest.mark.gpu
@pytest.mark.parametrize("backend", [gpu_param("numcu"), gpu_param("cuda")])
@pytest.mark.parametrize("dtype", ["uint16", "int8", "float16"])
def test_gpu_extras_outside_the_interpreters_dtypes(rng, backend, dtype):
    """real, imag, conj and ones_like of dtypes the GPU interpreter does not hold run unfused,
    as the other ops do."""
    env = {"a": random_array(rng, (300,), dtype)}
    dev = on_backend(env, backend)
    for ex in ["ones_like(a) + a", "real(a) * 2 + imag(a)", "conj(a) - a.imag"]:
        with quiet():
            fused = evaluate_on(ex, dev, backend)
            same_bits(fused, unfused_eval(ex, dev, backend))
        close_to_numpy(fused, numpy_eval(ex, env))


@pytest.mark.gpu
def test_gpu_unaligned_and_broadcast_inputs(rng):
    base = numcu.asarray(random_array(rng, (N_BLOCKS + 1,), "float32"))
    row = numcu.asarray(random_array(rng, (61,), "float32"))
    m = numcu.asarray(random_array(rng, (370, 61), "float32"))
    z = numcu.asarray(np.float32(1.25))
    for ex, env in [
        ("a * 2 + a", {"a": base[1:]}),  # 4 bytes past a 16-byte boundary
        ("m * r - r", {"m": m, "r": row}),
        ("m * z + 1", {"m": m, "z": z}),
        ("t * 3", {"t": m.T}),
    ]:
        same_bits(evaluate_on(ex, env, "numcu"), unfused_eval(ex, env, "numcu"))


@pytest.mark.gpu
def test_gpu_producers(rng, producer):
    a = random_array(rng, (1000,), "float32")
    b = random_array(rng, (1000,), "float32")
    env = {"x": producer.from_numpy(a), "y": producer.from_numpy(b)}
    result = numcu.evaluate("x*y + sin(x)", local_dict=env)
    assert isinstance(result, numcu.ndarray)
    expected = unfused_eval("x*y + sin(x)", {"x": numcu.asarray(a), "y": numcu.asarray(b)}, "numcu")
    same_bits(result, expected)


@pytest.mark.gpu
def test_gpu_stream(rng):
    env = {"a": numcu.asarray(random_array(rng, (N_BLOCKS,), "float64"))}
    s = numcu.cuda.Stream()
    with s:
        r = numcu.evaluate("a * 3 + 1", local_dict=env)
    r2 = numcu.evaluate("a * 3 + 1", local_dict=env, stream=s)
    s.synchronize()
    same_bits(r, r2)
    cp = import_or_skip("cupy")
    with cp.cuda.Stream() as cs:
        r3 = numcu.evaluate("a * 3 + 1", local_dict=env, stream=cs)
    cs.synchronize()
    same_bits(r, r3)


@pytest.mark.gpu
def test_gpu_fuse_with_torch(rng):
    torch = import_or_skip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    a = random_array(rng, (5000,), "float32")
    t = torch.from_numpy(a).cuda()
    result = _poly(t, t, 2.0)
    x = numcu.asarray(a)
    same_bits(
        result,
        unfused_eval(
            "sin(x) * y + s * 2 - where(x > y, x, y)", {"x": x, "y": x, "s": 2.0}, "numcu"
        ),
    )


def test_operator_table_matches_python():
    """The language's operators are Python's (numexpr's) with NumPy's ufunc names."""
    assert _fusion._OPERATORS[__import__("ast").Add] == ("add", operator.add)
    assert set(_fusion.OPS) >= set(numcu.UFUNCS)


# --------------------------------------------------------------------------------------------
# The GPU interpreter emulated on the CPU (test builds: -Ccmake.define.NUMCU_FUSED_EMULATOR=ON)
# --------------------------------------------------------------------------------------------

needs_emulator = pytest.mark.skipif(
    not hasattr(numcu._core._FusedExpr, "emulate_gpu"),
    reason="built without NUMCU_FUSED_EMULATOR (the GPU interpreter's CPU emulation)",
)

VECTOR_MATH = (
    "sin",
    "cos",
    "exp",
    "log",
    "tan",
    "arctan",
    "hypot",
    "tanh",
    "expm1",
    "sqrt",
    "abs(",
    "**",
    "/",
    "log10",
    "log1p",
    "arcsin",
)


def emulated(ex, env):
    p = _fusion._parse(ex)
    return p.expr.emulate_gpu(tuple(env[n] for n in p.names))


@needs_emulator
@pytest.mark.parametrize(("dtype", "ex"), [c for c in CASES if c[0] in GPU_DTYPES])
@pytest.mark.parametrize("n", [1, 1000, N_BLOCKS])
def test_emulated_gpu_interpreter(rng, dtype, ex, n):
    """The encoding (accumulator, slots, fetches) and the interpreter against the CPU backend:
    exactly where the host's functions are the CPU loops' (arithmetic, comparisons, logic), and
    within the dtype's tolerance for the float functions (glibc's scalar code here)."""
    env = operands(rng, dtype, (n,))
    with quiet():
        result = emulated(ex, env)
        expected = numcu.evaluate(ex, local_dict=env, device="cpu")
    if any(f in ex for f in VECTOR_MATH) and np.dtype(dtype).kind in "fc":
        close_to_numpy(result, expected)
    else:
        same_bits(result, expected)


@needs_emulator
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex128", "bool"])
def test_emulated_gpu_layouts(rng, layout, dtype):
    a, b = layouts(rng, dtype if dtype != "bool" else "int32")[layout]
    if dtype == "bool":
        a, b = a > 0, b > 0
    env = {"a": a, "b": b}
    ex = "a*b + a" if dtype != "bool" else "a & b | a"
    with quiet():
        same_bits(emulated(ex, env), numcu.evaluate(ex, local_dict=env, device="cpu"))
    out = poisoned(np.broadcast_shapes(a.shape, b.shape), dtype)
    if out.ndim == 2:
        # A strided out (written through its strides, not as a dense run).
        base = poisoned((out.shape[0], 2 * out.shape[1]), dtype)
        p = _fusion._parse(ex)
        p.expr.emulate_gpu((a, b), base[:, ::2])
        same_bits(base[:, ::2], numcu.evaluate(ex, local_dict=env, device="cpu"))


@needs_emulator
def test_emulated_gpu_mixed_programs(rng):
    """Casts between classes, constants, where's bool condition, out-of-line functions feeding
    inline ones and back, values read twice, many values held at once."""
    env = {
        "a": random_array(rng, (N_BLOCKS,), "float32"),
        "b": random_array(rng, (N_BLOCKS,), "int64"),
        "c": random_array(rng, (N_BLOCKS,), "complex64"),
        "i": random_array(rng, (N_BLOCKS,), "int32"),
        "m": random_array(rng, (N_BLOCKS,), "bool"),
        "d": random_array(rng, (N_BLOCKS,), "float64"),
    }
    cases = [
        "a*b + i",
        "where(m, a, i) * 2.5",
        "(a + 1) * (a + 1) - a",
        "abs(c) + a * 2",
        "c * a + conj(c) * d",
        "floor_divide(i, 3) + (i << 2) - abs(i)",
        "maximum(a, i) + minimum(b, 7) * (m ^ (a > 0))",
        "a*1 + a*2 + a*3 + a*4 + a*5 + a*6 + a*7 + a*8 + i*9 + b*10",
        "((a + i) * (b - i) + (a - b) * (i + 1)) / ((a * b) + 1.5)",
        "complex(a, d) * c",
        "real(c) * imag(c) + a",
        "div(a, b)",
        "div(a, i, 7.0)",
    ]
    # Complex numbers with int32 or int64 values: not in the GPU kernels (they run unfused).
    with pytest.raises(ValueError, match=r"the GPU interpreter does not hold this program"):
        emulated("c * i", env)
    for ex in cases:
        with quiet():
            result = emulated(ex, env)
            expected = numcu.evaluate(ex, local_dict=env, device="cpu")
        if "/" in ex or "abs(c)" in ex:  # |z| is glibc's vector hypot in the CPU loop
            close_to_numpy(result, expected)
        else:
            same_bits(result, expected)


# Ops the emulator computes as the CPU loops do, bit for bit (IEEE arithmetic and sqrt): random
# expressions of them check the encoding (the order of instructions, slots, the accumulator) over
# many shapes of programs, values read twice and by several readers included.
_EXACT_OPS = (
    ["a", "b", "c", "d", "2", "0.5"],
    ["+", "-", "*", "/"],
    ["sqrt", "abs", "negative", "square", "floor"],
    ["maximum", "minimum", "fmax"],
)


@needs_emulator
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_emulated_order_that_holds_fewer_values(rng, dtype):
    ex, env = fewer_values_case(rng, dtype)
    with quiet():
        result = emulated(ex, env)
        expected = numcu.evaluate(ex, local_dict=env, device="cpu")
    if dtype == "int32":
        same_bits(result, expected)
    else:
        close_to_numpy(result, expected)


@needs_emulator
@hypothesis.given(
    ex=expressions(4, _EXACT_OPS),
    dtypes=st.tuples(*[st.sampled_from(["float32", "float64", "int32", "int64", "bool"])] * 4),
    n=st.sampled_from([1, 300, N_BLOCKS]),
)
def test_emulated_random_programs(ex, dtypes, n):
    rng = np.random.default_rng(abs(hash((ex, dtypes, n))) % 2**32)
    env = {k: random_array(rng, (n,), d) for k, d in zip("abcd", dtypes)}
    names = [k for k in "abcd" if re.search(rf"\b{k}\b", ex)]
    if not names:
        hypothesis.assume(False)
    with quiet():
        try:
            expected = numcu.evaluate(ex, local_dict=env, device="cpu")
        except (TypeError, ValueError):
            hypothesis.assume(False)
        try:
            result = emulated(ex, env)
        except ValueError as e:
            # Programs the GPU interpreter does not hold (dtypes, size) run unfused there.
            assert "does not hold" in str(e)
            return
    same_bits(result, expected)
