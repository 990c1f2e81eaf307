"""Creation functions: arange, linspace, empty/zeros/ones/full and their *_like forms.

Specification:
- ``arange`` and ``linspace`` give NumPy's length, dtype and values (integers exactly, floats
  within rounding) for every argument form: one to three arguments, negative and float steps,
  empty results, NumPy scalars, explicit dtypes; ``linspace`` takes num, endpoint, retstep.
- Every creation function puts its array where ``device=`` and ``memory=`` say: a NumPy array
  for ``device='cpu'``; a numcu.ndarray on the GPU for ``device='cuda'``; managed memory (a
  numcu.ndarray NumPy can view) for ``memory='managed'``; a NumPy array in page-locked memory
  for ``memory='pinned'``.
- Without ``device=`` a new array goes to numcu's default device: the current GPU when one can
  be used, else the host (a NumPy array). ``*_like(a)`` goes where ``a`` is: a NumPy array for
  host data (as NumPy's), a numcu.ndarray on ``a``'s GPU for device arrays.
- ``*_like(a)`` takes the shape, dtype and layout of any array numcu takes (host or device),
  with ``dtype=`` and ``shape=`` overriding them.
- Bad arguments raise TypeError / ValueError / ZeroDivisionError / OverflowError naming the
  function; a GPU or CUDA memory asked for without one raises CUDAUnavailableError.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import (
    DTYPE_NAMES,
    TOLERANCES,
    CAIProducer,
    assert_matches,
    gpu_available,
    gpu_param,
    random_array,
)

import numcu

# Where a creation function puts its result, as keyword arguments; "cpu" runs everywhere.
WHERE = {
    "cpu": {"device": "cpu"},
    "cuda": {"device": "cuda"},
    "managed": {"memory": "managed"},
    "pinned": {"memory": "pinned"},
}


@pytest.fixture(params=["cpu", gpu_param("cuda"), gpu_param("managed"), gpu_param("pinned")])
def where(request):
    """Where the result goes: "cpu", "cuda" (device memory), "managed" or "pinned"."""
    return request.param


def to_numpy(result, where):
    """The result as NumPy data, after checking that it is the kind of array `where` asks for."""
    if where in ("cpu", "pinned"):
        assert type(result) is np.ndarray, f"{where} gave {type(result)!r}"
        if where == "pinned":
            assert numcu.cuda.memory_kind(result) == "pinned"
        return result
    assert isinstance(result, numcu.ndarray), f"{where} gave {type(result)!r}"
    if where == "managed":
        assert result.memory == "managed"
        numcu.cuda.synchronize()
        view = np.asarray(result)
        assert view.__array_interface__["data"][0] == result.__cuda_array_interface__["data"][0]
        return view.copy()
    assert result.memory == "device"
    return result.get()


def exact(message):
    return re.escape(message)


def assert_sequence_matches(result, expected, scale=1.0):
    """Exact for integers and bool; within rounding (of the largest magnitude) for floats."""
    if expected.dtype.kind in "fc":
        rtol = TOLERANCES[expected.dtype][0] if expected.dtype in TOLERANCES else 1e-12
        assert_matches(result, expected, atol=rtol * max(scale, 1.0))
    else:
        assert_matches(result, expected)


# --------------------------------------------------------------------------------------------
# arange
# --------------------------------------------------------------------------------------------

ARANGE_CASES = {
    "stop": ((10,), {}),
    "zero": ((0,), {}),
    "negative_stop": ((-3,), {}),
    "start_stop": ((3, 17), {}),
    "step": ((2, 23, 4), {}),
    "negative_step": ((10, -7, -3), {}),
    "empty_backwards": ((5, 1), {}),
    "empty_wrong_sign": ((0, 10, -1), {}),
    "float_step": ((0.1, 1.0, 0.3), {}),
    "float_negative_step": ((2.5, -1.0, -0.25), {}),
    "float_stop": ((7.5,), {}),
    "tiny_ratio": ((1e-320, 1.0, 1e300), {}),
    "complex": ((1 + 1j, 5 + 10j, 1 + 0.5j), {}),
    "numpy_float32": ((np.float32(0.5), np.float32(4.0), np.float32(0.25)), {}),
    "numpy_int8": ((np.int8(2), np.int8(9)), {}),
    "numpy_uint64": ((np.uint64(3), 12), {}),
    "numpy_float16": ((np.float16(1.5), 6), {}),
    "int_dtype_float_step": ((0, 5, 0.5), {"dtype": "int64"}),
    "float32": ((0.1, 3.0, 0.3), {"dtype": "float32"}),
    "float16": ((-3.5, 7.25, 0.37), {"dtype": "float16"}),
    "int8_wraps": ((120, 130, 3), {"dtype": "int8"}),
    "uint8": ((3, 250, 7), {"dtype": "uint8"}),
    "int16_negative": ((100, -200, -9), {"dtype": "int16"}),
    "uint64": ((0, 1000, 13), {"dtype": "uint64"}),
    "complex64": ((0, 4, 0.5), {"dtype": "complex64"}),
    "bool_two": ((2,), {"dtype": "bool"}),
    "bool_from_one": ((1, 3), {"dtype": "bool"}),
    "long": ((0, 100_000, 3), {}),
}


@pytest.mark.parametrize("case", ARANGE_CASES)
def test_arange_like_numpy(case, where):
    args, kwargs = ARANGE_CASES[case]
    expected = np.arange(*args, **kwargs)

    result = to_numpy(numcu.arange(*args, **kwargs, **WHERE[where]), where)

    scale = max(abs(complex(a)) for a in args)
    assert_sequence_matches(result, expected, scale)


@pytest.mark.parametrize("dtype", [None, *[d for d in DTYPE_NAMES if d != "bool"]])
def test_arange_random_arguments(dtype, where, rng):
    """Fresh random start/stop/step (integers, then floats) for every dtype."""
    unsigned = dtype is not None and np.dtype(dtype).kind == "u"
    for _ in range(3):
        low = 0 if unsigned else -60
        start, stop = (int(v) for v in rng.integers(low, 60, size=2))
        step = int(rng.integers(1, 6)) * (1 if stop >= start or unsigned else -1)
        if unsigned and stop < start:
            start, stop = stop, start
        expected = np.arange(start, stop, step, dtype=dtype)
        result = numcu.arange(start, stop, step, dtype=dtype, **WHERE[where])
        assert_sequence_matches(to_numpy(result, where), expected, 60)
    if dtype is None or np.dtype(dtype).kind in "fc":
        start, stop = rng.uniform(-20, 20, size=2)
        step = rng.uniform(0.05, 2.0) * (1 if stop >= start else -1)
        expected = np.arange(start, stop, step, dtype=dtype)
        result = numcu.arange(start, stop, step, dtype=dtype, **WHERE[where])
        assert_sequence_matches(to_numpy(result, where), expected, 20)


def test_arange_keywords_and_stop_alone():
    assert_matches(numcu.arange(start=2, stop=9, step=3, device="cpu"), np.arange(2, 9, 3))
    assert_matches(numcu.arange(6, dtype=np.uint16, device="cpu"), np.arange(6, dtype=np.uint16))


ARANGE_ERRORS = {
    "zero_step": (lambda: numcu.arange(0, 10, 0, device="cpu"), ZeroDivisionError, "step"),
    "zero_float_step": (lambda: numcu.arange(0, 1, 0.0, device="cpu"), ZeroDivisionError, "step"),
    "nan": (lambda: numcu.arange(0, float("nan"), device="cpu"), ValueError, "length"),
    "inf": (lambda: numcu.arange(0, float("inf"), device="cpu"), ValueError, "size"),
    "array_start": (lambda: numcu.arange(np.ones(3), device="cpu"), TypeError, "start"),
    "array_step": (lambda: numcu.arange(0, 5, np.ones(2), device="cpu"), TypeError, "step"),
    "string": (lambda: numcu.arange("a", device="cpu"), TypeError, "unsupported dtype"),
    "none": (lambda: numcu.arange(None, device="cpu"), TypeError, "start"),
    "bool_too_long": (lambda: numcu.arange(3, dtype=bool, device="cpu"), TypeError, "bool"),
    "out_of_int8": (
        lambda: numcu.arange(250, 260, dtype="int8", device="cpu"),
        OverflowError,
        "250",
    ),
    "bad_dtype": (lambda: numcu.arange(5, dtype="datetime64[s]", device="cpu"), TypeError, "dtype"),
    "complex_length_for_float": (
        lambda: numcu.arange(0, 1 + 1j, dtype=float, device="cpu"),
        TypeError,
        "",
    ),
}


@pytest.mark.parametrize("case", ARANGE_ERRORS)
def test_arange_errors(case):
    call, error, words = ARANGE_ERRORS[case]

    with pytest.raises(error, match=r"^numcu\.arange: .*" + re.escape(words)):
        call()


# --------------------------------------------------------------------------------------------
# linspace
# --------------------------------------------------------------------------------------------

LINSPACE_CASES = {
    "default": ((0, 1), {}),
    "seven": ((0, 1, 7), {}),
    "no_endpoint": ((1, 0, 7), {"endpoint": False}),
    "backwards": ((5.5, -2.25, 12), {}),
    "one": ((3, 8, 1), {}),
    "one_no_endpoint": ((3, 8, 1), {"endpoint": False}),
    "none": ((0, 1, 0), {}),
    "equal_ends": ((2, 2, 5), {}),
    "denormal_step": ((0, 1e-320, 3), {}),
    "float32_start": ((np.float32(0), 1, 13), {}),
    "float16_start": ((np.float16(1), 3, 9), {}),
    "complex": ((1 + 2j, 3 - 1j, 6), {}),
    "int_dtype": ((0, 10, 7), {"dtype": "int64"}),
    "int_dtype_negative": ((-3, 7, 11), {"dtype": "int8"}),
    "uint_dtype": ((0, 200, 9), {"dtype": "uint8"}),
    "float32_dtype": ((0, 10, 7), {"dtype": "float32"}),
    "bool_dtype": ((0, 10, 7), {"dtype": "bool"}),
    "complex_dtype": ((0, 2, 5), {"dtype": "complex64"}),
    "numpy_ints": ((np.int32(-4), np.int32(9), 6), {}),
    "large": ((-1e3, 1e3, 100_001), {}),
}


@pytest.mark.parametrize("case", LINSPACE_CASES)
def test_linspace_like_numpy(case, where):
    args, kwargs = LINSPACE_CASES[case]
    expected = np.linspace(*args, **kwargs)

    result = to_numpy(numcu.linspace(*args, **kwargs, **WHERE[where]), where)

    scale = max(abs(complex(a)) for a in args[:2])
    assert_sequence_matches(result, expected, scale)


@pytest.mark.parametrize("dtype", [None, "float16", "float32", "int32", "uint16", "complex128"])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_random_arguments(dtype, endpoint, where, rng):
    low = 0 if dtype == "uint16" else -100
    for num in (int(rng.integers(2, 40)), int(rng.integers(100, 3000))):
        start, stop = rng.uniform(low, 100, size=2)
        expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
        result = numcu.linspace(start, stop, num, endpoint=endpoint, dtype=dtype, **WHERE[where])
        # float16 values and floors of nearly-integral values may round one step apart.
        values = to_numpy(result, where)
        if dtype in (None, "float32", "complex128"):
            assert_sequence_matches(values, expected, 100)
        else:
            assert values.dtype == expected.dtype and values.shape == expected.shape
            tolerance = 1 if values.dtype.kind in "iu" else 0.1
            assert np.max(np.abs(values.astype(float) - expected.astype(float))) <= tolerance


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((0, 1, 6), {}), ((0, 1, 1), {}), ((np.float32(0), np.float32(1), 5), {}), ((2, 0, 4), {})],
)
def test_linspace_retstep(args, kwargs):
    values, step = numcu.linspace(*args, retstep=True, device="cpu", **kwargs)
    expected_values, expected_step = np.linspace(*args, retstep=True, **kwargs)

    assert_matches(values, expected_values)
    assert type(step) is type(expected_step)
    np.testing.assert_allclose(step, expected_step, rtol=1e-6, equal_nan=True)


LINSPACE_ERRORS = {
    "negative_num": (lambda: numcu.linspace(0, 1, -1, device="cpu"), ValueError, "-1"),
    "float_num": (lambda: numcu.linspace(0, 1, 2.5, device="cpu"), TypeError, "num"),
    "array_start": (lambda: numcu.linspace(np.zeros(2), 1, device="cpu"), TypeError, "start"),
    "array_stop": (lambda: numcu.linspace(0, [1, 2], device="cpu"), TypeError, "stop"),
    "complex_to_int": (
        lambda: numcu.linspace(0, 1j, 3, dtype=int, device="cpu"),
        TypeError,
        "complex",
    ),
    "bad_dtype": (lambda: numcu.linspace(0, 1, dtype="U3", device="cpu"), TypeError, "dtype"),
}


@pytest.mark.parametrize("case", LINSPACE_ERRORS)
def test_linspace_errors(case):
    call, error, words = LINSPACE_ERRORS[case]

    with pytest.raises(error, match=r"^numcu\.linspace: .*" + re.escape(words)):
        call()


# --------------------------------------------------------------------------------------------
# empty, zeros, ones, full
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 5), (2, 0, 3)], ids=str)
def test_zeros_ones_full(shape, dtype, where, rng):
    value = random_array(rng, (), dtype).item()

    zeros = to_numpy(numcu.zeros(shape, dtype, **WHERE[where]), where)
    ones = to_numpy(numcu.ones(shape, dtype=dtype, **WHERE[where]), where)
    full = to_numpy(numcu.full(shape, value, dtype=dtype, **WHERE[where]), where)
    empty = to_numpy(numcu.empty(shape, dtype, **WHERE[where]), where)

    assert_matches(zeros, np.zeros(shape, dtype))
    assert_matches(ones, np.ones(shape, dtype))
    assert_matches(full, np.full(shape, value, dtype))
    assert empty.shape == shape and empty.dtype == np.dtype(dtype)


@pytest.mark.parametrize("value", [7, 2.5, 1 + 2j, True, np.float32(1.5), np.int8(-3)], ids=repr)
def test_full_takes_the_dtype_of_its_value(value, where):
    result = to_numpy(numcu.full((2, 3), value, **WHERE[where]), where)

    assert_matches(result, np.full((2, 3), value))


@pytest.mark.parametrize("value_shape", [(), (3,), (2, 1)], ids=str)
@pytest.mark.parametrize("device", ["cpu", gpu_param("cuda"), gpu_param("numcu")])
def test_full_broadcasts_an_array_value(value_shape, device, rng):
    """An array fill value is broadcast to the shape, as NumPy's full does; a device array's
    (a 0-d one included) is copied on the GPU."""
    value = random_array(rng, value_shape, np.float32)
    base = np.zeros((2, 3), np.int64)
    if device == "numcu":
        got = numcu.full((2, 3), numcu.asarray(value))
        like = numcu.full_like(numcu.asarray(base), numcu.asarray(value))
    else:
        got = numcu.full((2, 3), value, device=device)
        like = numcu.full_like(base, value, device=device)
    for result, want in ((got, np.full((2, 3), value)), (like, np.full_like(base, value))):
        assert isinstance(result, numcu.ndarray) == (device != "cpu")
        result = result.get() if isinstance(result, numcu.ndarray) else result
        assert result.flags["C_CONTIGUOUS"] and result.dtype == want.dtype
        assert_matches(result, want)


DTYPE_FORMS = {
    "name": lambda name: name,
    "numpy.dtype": np.dtype,
    "type": lambda name: np.dtype(name).type,
    "char": lambda name: np.dtype(name).char,
}


@pytest.mark.parametrize("form", DTYPE_FORMS)
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_every_form_of_dtype(name, form):
    """dtype= as a name, a numpy.dtype, a scalar type or a character: NumPy's dtype for it, the
    same on every call (numcu keeps the answers for the objects it sees again)."""
    dtype = DTYPE_FORMS[form](name)
    for _ in range(3):
        for made in (
            numcu.empty(3, dtype, device="cpu"),
            numcu.zeros((2, 1), dtype=dtype, device="cpu"),
            numcu.full(2, 1, dtype, device="cpu"),
            numcu.ones_like(np.zeros(2), dtype, device="cpu"),
        ):
            assert made.dtype == np.dtype(dtype), (name, form, made.dtype)


def test_builtin_types_as_dtype():
    for given, expected in ((float, "float64"), (int, "int64"), (bool, "bool"), (complex, "c16")):
        assert numcu.zeros(2, given, device="cpu").dtype == np.dtype(expected)


def test_default_dtype_is_float64():
    empty = numcu.empty((2, 2), device="cpu")

    assert_matches(numcu.zeros(4, device="cpu"), np.zeros(4))
    assert_matches(numcu.ones((), device="cpu"), np.ones(()))
    assert type(empty) is np.ndarray and empty.dtype == np.float64 and empty.shape == (2, 2)


# --------------------------------------------------------------------------------------------
# *_like
# --------------------------------------------------------------------------------------------

LIKE_LAYOUTS = {
    "c": lambda a: a,
    "fortran": lambda a: np.asfortranarray(a),
    "transposed": lambda a: a.T,
    "strided": lambda a: a[:, ::2],
}


@pytest.mark.parametrize("layout", LIKE_LAYOUTS)
@pytest.mark.parametrize("dtype", ["bool", "int16", "uint32", "float32", "complex128"])
def test_like_functions_on_host_arrays(dtype, layout, where, rng):
    a = LIKE_LAYOUTS[layout](random_array(rng, (4, 6), dtype))
    value = random_array(rng, (), dtype).item()

    zeros = numcu.zeros_like(a, **WHERE[where])
    ones = to_numpy(numcu.ones_like(a, **WHERE[where]), where)
    full = to_numpy(numcu.full_like(a, value, **WHERE[where]), where)
    empty = numcu.empty_like(a, **WHERE[where])

    assert_matches(to_numpy(zeros, where), np.zeros_like(a))
    assert_matches(ones, np.ones_like(a))
    assert_matches(full, np.full_like(a, value))
    assert empty.shape == a.shape and empty.dtype == a.dtype
    # NumPy's order='K': a dense array with the input's order of dimensions.
    if layout in ("fortran", "transposed"):
        assert zeros.flags["F_CONTIGUOUS"]
    else:
        assert zeros.flags["C_CONTIGUOUS"]


@pytest.mark.parametrize(
    ("dtype", "shape"), [("float32", None), (None, (5,)), ("int8", (2, 3, 2)), ("uint16", 4)]
)
def test_like_overrides(dtype, shape, where, rng):
    a = random_array(rng, (3, 4), np.float64)
    np_shape = shape

    result = to_numpy(numcu.full_like(a, 3, dtype=dtype, shape=shape, **WHERE[where]), where)
    zeros = to_numpy(numcu.zeros_like(a, dtype=dtype, shape=shape, **WHERE[where]), where)

    assert_matches(result, np.full_like(a, 3, dtype=dtype, shape=np_shape))
    assert_matches(zeros, np.zeros_like(a, dtype=dtype, shape=np_shape))


def test_like_takes_scalars_and_lists():
    assert_matches(numcu.zeros_like(3.5, device="cpu"), np.zeros_like(3.5))
    assert_matches(numcu.ones_like([[1, 2], [3, 4]], device="cpu"), np.ones_like([[1, 2], [3, 4]]))
    assert_matches(numcu.full_like([1, 2, 3], 9, device="cpu"), np.full_like([1, 2, 3], 9))


@pytest.mark.gpu
@pytest.mark.parametrize("memory", ["device", "managed", "pinned"])
def test_like_functions_on_device_arrays(memory, rng):
    a = random_array(rng, (5, 3), np.int32)
    d = numcu.asarray(a).T

    result = numcu.full_like(d, 4, dtype=np.float16, memory=memory)
    on_host = numcu.zeros_like(d, device="cpu")

    if memory == "pinned":
        assert type(result) is np.ndarray
        assert_matches(result, np.full((3, 5), 4, np.float16))
    else:
        assert isinstance(result, numcu.ndarray)
        assert result.memory == memory
        assert result.device == d.device
        assert result.flags["F_CONTIGUOUS"]
        assert_matches(result.get(), np.full((3, 5), 4, np.float16))
    assert type(on_host) is np.ndarray
    assert_matches(on_host, np.zeros((3, 5), np.int32))


@pytest.mark.gpu
def test_like_functions_on_foreign_device_arrays(rng):
    a = random_array(rng, (4, 2), np.float32)
    foreign = CAIProducer().from_numpy(a)

    result = numcu.ones_like(foreign, shape=(2, 4))

    assert isinstance(result, numcu.ndarray)
    assert_matches(result.get(), np.ones((2, 4), np.float32))


# --------------------------------------------------------------------------------------------
# Where an array goes without device=
# --------------------------------------------------------------------------------------------

NEW_ARRAYS = ("empty", "zeros", "ones", "full", "arange", "linspace")
LIKE_ARRAYS = ("empty_like", "zeros_like", "ones_like", "full_like")


@pytest.mark.parametrize("name", NEW_ARRAYS)
def test_new_arrays_go_to_the_default_device(name):
    result = CREATORS[name]()

    if gpu_available():
        assert isinstance(result, numcu.ndarray)
        assert result.device == numcu.cuda.Device(0)
    else:
        assert type(result) is np.ndarray


@pytest.mark.parametrize("name", LIKE_ARRAYS)
def test_like_of_host_data_is_a_numpy_array(name):
    result = CREATORS[name]()

    assert type(result) is np.ndarray
    assert result.shape == (3,) and result.dtype == np.float64


@pytest.mark.gpu
@pytest.mark.parametrize("name", LIKE_ARRAYS)
def test_like_of_host_data_goes_to_a_gpu_when_asked(name):
    assert isinstance(CREATORS[name](device="cuda"), numcu.ndarray)
    assert isinstance(CREATORS[name](memory="managed"), numcu.ndarray)


# --------------------------------------------------------------------------------------------
# Streams
# --------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_creation_on_a_stream():
    stream = numcu.cuda.Stream(non_blocking=True)

    values = numcu.arange(1 << 20, dtype=np.float32, stream=stream)
    ones = numcu.ones_like(values, stream=stream)
    stream.synchronize()

    assert values.__cuda_array_interface__["stream"] == stream.ptr
    assert_matches(values.get(), np.arange(1 << 20, dtype=np.float32))
    assert_matches(numcu.add(values, ones).get(), np.arange(1, (1 << 20) + 1, dtype=np.float32))


# --------------------------------------------------------------------------------------------
# Errors of every creation function
# --------------------------------------------------------------------------------------------

CREATORS = {
    "empty": lambda **k: numcu.empty(3, **k),
    "zeros": lambda **k: numcu.zeros(3, **k),
    "ones": lambda **k: numcu.ones(3, **k),
    "full": lambda **k: numcu.full(3, 1.5, **k),
    "empty_like": lambda **k: numcu.empty_like(np.ones(3), **k),
    "zeros_like": lambda **k: numcu.zeros_like(np.ones(3), **k),
    "ones_like": lambda **k: numcu.ones_like(np.ones(3), **k),
    "full_like": lambda **k: numcu.full_like(np.ones(3), 2, **k),
    "arange": lambda **k: numcu.arange(3, **k),
    "linspace": lambda **k: numcu.linspace(0, 1, 3, **k),
}


@pytest.mark.parametrize("name", CREATORS)
@pytest.mark.parametrize("memory", ["host", "Managed", "", 3, None])
def test_bad_memory(name, memory):
    message = f"numcu.{name}: memory must be 'device', 'managed' or 'pinned', not {memory!r}"

    with pytest.raises(ValueError, match=exact(message)):
        CREATORS[name](memory=memory, device="cpu")


@pytest.mark.parametrize("name", CREATORS)
def test_managed_memory_is_not_for_the_host(name):
    with pytest.raises(ValueError, match=exact(f"numcu.{name}: memory='managed' arrays live on")):
        CREATORS[name](memory="managed", device="cpu")


@pytest.mark.parametrize("name", CREATORS)
@pytest.mark.parametrize("device", ["gpu", "cuda:x", -1])
def test_bad_device(name, device):
    with pytest.raises(ValueError, match=exact(f"numcu.{name}: device must be")):
        CREATORS[name](device=device)


@pytest.mark.parametrize("name", CREATORS)
def test_bad_stream(name):
    with pytest.raises(TypeError, match=exact(f"numcu.{name}: stream must be a CUDA stream")):
        CREATORS[name](stream="default")


@pytest.mark.skipif(gpu_available(), reason="a CUDA device is available")
@pytest.mark.parametrize("name", CREATORS)
@pytest.mark.parametrize(
    "kwargs", [{"device": "cuda"}, {"memory": "managed"}, {"memory": "pinned"}], ids=str
)
def test_gpu_memory_without_a_gpu(name, kwargs):
    with pytest.raises(numcu.cuda.CUDAUnavailableError, match=rf"^numcu\.{name}: .*no CUDA device"):
        CREATORS[name](**kwargs)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: numcu.zeros(2.5, device="cpu"), TypeError, "numcu.zeros: shape must be"),
        (lambda: numcu.ones("3", device="cpu"), TypeError, "numcu.ones: shape must be"),
        (lambda: numcu.empty((2, -1), device="cpu"), ValueError, "numcu.empty: negative"),
        (
            lambda: numcu.full(3, np.ones(2), device="cpu"),
            ValueError,
            "numcu.full: a fill value of shape (2,) cannot be broadcast to (3,)",
        ),
        (lambda: numcu.full(3, None, device="cpu"), TypeError, "numcu.full: fill_value"),
        (lambda: numcu.full(3, 300, dtype=np.int8, device="cpu"), OverflowError, "numcu.full: "),
        (lambda: numcu.zeros(3, dtype="U2", device="cpu"), TypeError, "numcu.zeros: unsupported"),
        (lambda: numcu.zeros_like(np.ones(2), shape=(-1,), device="cpu"), ValueError, "negative"),
        (lambda: numcu.full_like(np.ones(2), [1, 2, 3], device="cpu"), ValueError, "fill value"),
        (
            lambda: numcu.empty_like(np.array(["a"]), device="cpu"),
            TypeError,
            "numcu.empty_like: unsupported dtype",
        ),
    ],
)
def test_bad_shapes_values_and_dtypes(call, error, words):
    with pytest.raises(error, match=exact(words)):
        call()
