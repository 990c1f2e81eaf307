"""Hostile input: impossible sizes, malformed foreign interfaces and made-up streams.

Specification:

- Sizes are checked, never wrapped. An array whose size times its item size exceeds 2**63 - 1
  bytes (NumPy's limit) is ValueError "array is too big" from every creation function (all
  devices and memories), reshape and broadcasting, before anything is allocated; zero extents
  do not hide an impossible one. A valid size that cannot be allocated is MemoryError
  (numcu.cuda.OutOfMemoryError on a GPU), and the next call works.
- ``__cuda_array_interface__`` is validated field by field before use: versions 0 to 3 (the
  ones the specification defines), typestr of the form '<f4', shape a tuple of non-negative
  ints, strides as long as the shape, data a (pointer: int, read-only: bool) tuple, elements
  aligned to the item size and within the address space, stream None, 1, 2 or a handle.
- DLPack tensors are validated the same way: the capsule's version (1.x), the device (it must
  be the one ``__dlpack_device__`` gave), dtype (lanes 1), shape, strides and byte offset.
- A stream handle (``stream=``, a CAI 'stream', a consumer's ``__dlpack__`` stream) is checked
  before CUDA sees it: a made-up integer is ValueError, never a crash.
- Host arrays whose elements are not aligned to their item size (fields of packed records;
  complex128 8 bytes past a 16-byte boundary, which NumPy calls aligned) are copied into
  aligned memory as inputs and refused as outputs: typed loads of them crash the CPU loops and
  fault GPU kernels.

The checks happen before any CUDA call, so most of this runs without a GPU. Cases whose failure
could crash the interpreter or, with a GPU, launch a kernel on a bad address (which loses the
CUDA context for the rest of the run) run in a fresh interpreter, which must survive them and
then still compute correctly on the GPU.
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import CAIArray, assert_matches, gpu_available, import_or_skip, random_array
from dlpack_ctypes import (
    CPU,
    CUDA,
    DL_CODES,
    DLDataType,
    DLDevice,
    DLManagedTensor,
    DLManagedTensorVersioned,
    DLPackVersion,
    DLTensor,
)
from test_errors import FAKE_POINTER, FakeCAI, exact, interface

import numcu

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
HUGE_40 = 2**40  # (2**40, 2**40) overflows an element count
SMALL = np.arange(1.0, 4.0, dtype=np.float32)  # the `a` of the *_like functions


def too_big(fname, shape, dtype):
    return f"{fname}: array is too big: shape {shape} of {dtype} needs more than 2**63 - 1 bytes"


# --------------------------------------------------------------------------------------------
# Running cases, in this interpreter or a fresh one
# --------------------------------------------------------------------------------------------


def outcome(expression):
    """What evaluating `expression` here raises: [type name, is a MemoryError, message]."""
    try:
        eval(expression, globals())
    except Exception as exc:
        return [type(exc).__name__, isinstance(exc, MemoryError), str(exc)]
    return ["no error", False, ""]


def survived():
    """Whether the GPU still computes correctly (None without a GPU)."""
    if not gpu_available():
        return None
    rng = np.random.default_rng(20)
    a, b = rng.standard_normal(1001), rng.standard_normal(1001)
    result = numcu.add(numcu.asarray(a), numcu.asarray(b)).get()
    return bool(np.allclose(result, a + b, rtol=1e-12, atol=0))


def fresh_outcomes(expressions):
    """outcome() of each expression, in a fresh interpreter that must survive them all."""
    code = f"""
    import json, sys
    sys.path.insert(0, {TESTS_DIR!r})
    import test_hardening as t
    results = {{}}
    for label, expression in json.loads({json.dumps(expressions)!r}).items():
        print("case", label, file=sys.stderr, flush=True)
        results[label] = t.outcome(expression)
    results["<survived>"] = t.survived()
    print(json.dumps(results))
    """
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"the interpreter died ({proc.returncode}):\n{proc.stderr[-4000:]}"
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert results.pop("<survived>") in (True, None), "the GPU computes wrongly after the cases"
    return results


@functools.cache
def outcomes_of(table_name):
    """Every case of a table, run once, in one fresh interpreter."""
    return fresh_outcomes({label: case[0] for label, case in TABLES[table_name].items()})


def check(table_name, case):
    expression, error, message = TABLES[table_name][case]
    got_type, is_memory_error, got_message = outcomes_of(table_name)[case]
    assert got_type != "no error", f"{expression} raised nothing"
    if error is MemoryError:
        assert is_memory_error, f"{expression} raised {got_type}: {got_message}"
    else:
        assert got_type == error.__name__, f"{expression} raised {got_type}: {got_message}"
    assert message in got_message, f"{expression} raised {got_type}: {got_message}"


# --------------------------------------------------------------------------------------------
# Creation: sizes beyond 2**63 - 1 bytes are ValueError, on every device and memory
# --------------------------------------------------------------------------------------------

# name: (call with {kw} for the placement arguments, message)
TOO_BIG = {
    "empty_2**62_float64": (
        "numcu.empty(2**62, dtype='float64'{kw})",
        too_big("numcu.empty", "(4611686018427387904,)", "float64"),
    ),
    "empty_2**40_squared": (
        "numcu.empty((2**40, 2**40){kw})",
        too_big("numcu.empty", "(1099511627776, 1099511627776)", "float64"),
    ),
    "empty_zero_extent_hides_nothing": (
        "numcu.empty((0, 2**62, 2**62){kw})",
        too_big("numcu.empty", "(0, 4611686018427387904, 4611686018427387904)", "float64"),
    ),
    "zeros_exactly_2**63_bytes": (
        "numcu.zeros((2**31, 2**31, 2), dtype='int8'{kw})",
        too_big("numcu.zeros", "(2147483648, 2147483648, 2)", "int8"),
    ),
    "ones_2**61_complex64": (
        "numcu.ones(2**61, dtype='complex64'{kw})",
        too_big("numcu.ones", "(2305843009213693952,)", "complex64"),
    ),
    "full_2**61": (
        "numcu.full(2**61, 1.0{kw})",
        too_big("numcu.full", "(2305843009213693952,)", "float64"),
    ),
    "full_uint8": (
        "numcu.full((2**62, 2), 7, dtype='uint8'{kw})",
        too_big("numcu.full", "(4611686018427387904, 2)", "uint8"),
    ),
    "empty_like_shape": (
        "numcu.empty_like(SMALL, shape=(2**40, 2**40){kw})",
        too_big("numcu.empty_like", "(1099511627776, 1099511627776)", "float32"),
    ),
    "zeros_like_shape": (
        "numcu.zeros_like(SMALL, shape=2**62{kw})",
        too_big("numcu.zeros_like", "(4611686018427387904,)", "float32"),
    ),
    "ones_like_dtype": (
        "numcu.ones_like(SMALL, dtype='complex128', shape=(2**30, 2**30){kw})",
        too_big("numcu.ones_like", "(1073741824, 1073741824)", "complex128"),
    ),
    "full_like_shape": (
        "numcu.full_like(SMALL, 2.5, shape=(3, 2**62){kw})",
        too_big("numcu.full_like", "(3, 4611686018427387904)", "float32"),
    ),
    "arange_2**62": (
        "numcu.arange(2**62{kw})",
        too_big("numcu.arange", "(4611686018427387904,)", "int64"),
    ),
    "arange_float_step": (
        "numcu.arange(0.0, 2.0**62, 0.5{kw})",
        "numcu.arange: maximum allowed size exceeded",
    ),
    "linspace_2**62": (
        "numcu.linspace(0, 1, 2**62{kw})",
        too_big("numcu.linspace", "(4611686018427387904,)", "float64"),
    ),
    "linspace_num_beyond_64_bits": (
        "numcu.linspace(0, 1, 2**64{kw})",
        "numcu.linspace: number of samples, 18446744073709551616, does not fit in 64 bits",
    ),
}
PLACEMENTS = {
    "cpu": ", device='cpu'",
    "gpu": "",
    "managed": ", memory='managed'",
    "pinned": ", memory='pinned'",
}


@pytest.mark.parametrize("case", TOO_BIG)
def test_too_big_on_the_host(case):
    call, message = TOO_BIG[case]

    with pytest.raises(ValueError, match=exact(message)):
        eval(call.format(kw=PLACEMENTS["cpu"]))


@pytest.mark.parametrize("placement", ["gpu", "managed", "pinned"])
@pytest.mark.parametrize("case", TOO_BIG)
def test_too_big_for_a_gpu(case, placement):
    """Checked before the GPU is touched: without one it is still ValueError."""
    check(f"too_big_{placement}", case)


def test_nbytes_and_size_of_the_largest_arrays():
    """Up to the limit: 2**63 - 1 bytes of int8 is a valid size, and nothing wraps."""
    with pytest.raises(MemoryError):
        numcu.empty(2**63 - 1, dtype="int8", device="cpu")
    for shape in [(0, 2**62), (2**62, 0, 1)]:
        empty = numcu.empty(shape, dtype="int8", device="cpu")
        assert empty.shape == shape
        assert empty.size == 0
        assert empty.nbytes == 0


# --------------------------------------------------------------------------------------------
# Valid sizes that cannot be allocated are MemoryError
# --------------------------------------------------------------------------------------------

# A (2**29, 1) and a (1, 2**29) float64 view of one element: their sum has 2**61 bytes.
COLUMN_29 = np.broadcast_to(np.float64(1.5), (2**29, 1))
ROW_29 = np.broadcast_to(np.float64(2.5), (1, 2**29))

UNALLOCATABLE = {
    "empty": "numcu.empty(2**59{kw})",
    "full": "numcu.full(2**59, 1.0{kw})",
    "zeros_like": "numcu.zeros_like(SMALL, shape=(2**30, 2**30){kw})",
    "arange_int8": "numcu.arange(0, 2**62, dtype='int8'{kw})",
    "linspace": "numcu.linspace(0, 1, 2**59{kw})",
}


@pytest.mark.parametrize("case", UNALLOCATABLE)
def test_unallocatable_on_the_host(case):
    with pytest.raises(MemoryError):
        eval(UNALLOCATABLE[case].format(kw=PLACEMENTS["cpu"]))


def test_unallocatable_broadcast_on_the_host():
    with pytest.raises(MemoryError):
        numcu.add(COLUMN_29, ROW_29, device="cpu")


@pytest.mark.gpu
@pytest.mark.parametrize("placement", ["gpu", "managed", "pinned"])
@pytest.mark.parametrize("case", UNALLOCATABLE)
def test_unallocatable_on_a_gpu(case, placement):
    """numcu.cuda.OutOfMemoryError (a MemoryError) for device and managed memory, MemoryError
    for pinned memory; the interpreter survives and the GPU still computes."""
    check(f"unallocatable_{placement}", case)


# --------------------------------------------------------------------------------------------
# Broadcasting, reshape and indexing
# --------------------------------------------------------------------------------------------

COLUMN_40 = np.broadcast_to(np.float64(1.5), (HUGE_40, 1))
ROW_40 = np.broadcast_to(np.float64(2.5), (1, HUGE_40))


@pytest.mark.parametrize(
    ("op", "x1", "x2", "dtype"),
    [
        ("add", COLUMN_40, ROW_40, "float64"),
        ("multiply", np.broadcast_to(np.float32(1.5), (HUGE_40, 1)), ROW_40, "float64"),
        ("less", COLUMN_40, ROW_40, "bool"),
        (
            "subtract",
            np.broadcast_to(np.int8(3), (2**32, 1, 1)),
            np.broadcast_to(np.int8(1), (2**31, 1)),
            "int8",
        ),
    ],
    ids=["add", "multiply", "less", "int8_three_dims"],
)
def test_broadcast_too_big(op, x1, x2, dtype, host_backend):
    """Two valid shapes whose broadcast is too big: ValueError before any allocation."""
    ndim = max(x1.ndim, x2.ndim)
    shape = tuple(
        max(a, b)
        for a, b in zip((1,) * (ndim - x1.ndim) + x1.shape, (1,) * (ndim - x2.ndim) + x2.shape)
    )

    with pytest.raises(ValueError, match=exact(too_big(f"numcu.{op}", shape, dtype))):
        getattr(numcu, op)(x1, x2, device=host_backend)


def device_view(shape, dtype=np.float64, strides=None):
    """A CAI view with `shape` and `strides` (zero strides by default) over a numcu array of
    one random element, so that it is a valid array of any size."""
    owner = numcu.asarray(np.random.default_rng(3).standard_normal(1).astype(dtype))
    if strides is None:
        strides = (0,) * len(shape)
    return CAIArray(owner, owner.__cuda_array_interface__["data"][0], shape, dtype, strides)


TOO_BIG_ON_DEVICE = {
    "broadcast": (
        "numcu.add(device_view((2**40, 1)), device_view((1, 2**40)))",
        ValueError,
        too_big("numcu.add", "(1099511627776, 1099511627776)", "float64"),
    ),
    "broadcast_three_dims": (
        "numcu.multiply(device_view((2**31, 1, 1)), device_view((2**31, 2)))",
        ValueError,
        too_big("numcu.multiply", "(2147483648, 2147483648, 2)", "float64"),
    ),
    "reshape_zero_extent_hides_nothing": (
        "numcu.empty(0).reshape(0, 2**62, 2)",
        ValueError,
        too_big("numcu.ndarray.reshape", "(0, 4611686018427387904, 2)", "float64"),
    ),
    "reshape_known_extents_overflow": (
        "numcu.empty(0).reshape(2**62, 4, 0)",
        ValueError,
        "numcu.ndarray.reshape: cannot reshape array of size 0 into shape "
        "(4611686018427387904, 4, 0)",
    ),
    "reshape_product_overflows": (
        "numcu.empty(12).reshape(2**40, 2**40)",
        ValueError,
        "numcu.ndarray.reshape: cannot reshape array of size 12 into shape "
        "(1099511627776, 1099511627776)",
    ),
    "reshape_unknown_overflows": (
        "numcu.empty(0).reshape(-1, 2**62, 2**62)",
        ValueError,
        "numcu.ndarray.reshape: cannot reshape array of size 0 into shape "
        "(-1, 4611686018427387904, 4611686018427387904)",
    ),
    "unallocatable_broadcast": (
        "numcu.add(device_view((2**29, 1)), device_view((1, 2**29)))",
        MemoryError,
        "out of device memory",
    ),
}


@pytest.mark.gpu
@pytest.mark.parametrize("case", TOO_BIG_ON_DEVICE)
def test_too_big_on_device(case):
    check("too_big_on_device", case)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "key",
    [
        slice(None, None, 2**62),
        slice(None, None, -(2**63)),
        slice(2, None, 2**63 - 1),
        (slice(None, None, 2**62), None),
    ],
    ids=["step_2**62", "step_-2**63", "start_and_huge_step", "with_newaxis"],
)
def test_huge_slice_steps(key, rng):
    a = random_array(rng, (7,), np.float32)

    view = numcu.asarray(a)[key]

    assert_matches(view.get(), a[key])
    assert_matches(numcu.multiply(view, 2.0).get(), a[key] * 2)


@pytest.mark.gpu
@pytest.mark.parametrize("index", [2**63 - 1, 2**70, -(2**63), -(2**70)], ids=str)
def test_huge_integer_index(index):
    x = numcu.asarray(np.arange(5.0))

    with pytest.raises(IndexError, match=r"numcu\.ndarray: index .* is out of bounds for axis 0"):
        x[index]  # noqa: B018


# --------------------------------------------------------------------------------------------
# __cuda_array_interface__, field by field
# --------------------------------------------------------------------------------------------


@functools.cache
def unreadable_address():
    """The address of a mapped page that cannot be read (PROT_NONE), mapped once; Linux."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int]
    libc.mmap.argtypes += [ctypes.c_int, ctypes.c_long]
    map_private, map_anonymous, prot_none = 0x02, 0x20, 0
    address = libc.mmap(None, 4096, prot_none, map_private | map_anonymous, -1, 0)
    assert address not in (None, ctypes.c_void_p(-1).value), "mmap failed"
    return address


def bad_cai(**changes):
    return FakeCAI(interface(**changes))


def malformed(what):
    return "numcu.add: malformed __cuda_array_interface__: " + what


def not_a_stream(handle, why="not a valid address"):
    return f"numcu.add: __cuda_array_interface__ 'stream' {handle} is not a CUDA stream ({why}"


# name: (expression, exception type, message fragment); nothing was allocated at FAKE_POINTER, so
# every case must fail before anything dereferences it.
CAI = {
    "version_99": (
        "numcu.add(bad_cai(version=99), 1.0)",
        ValueError,
        malformed("'version' 99 is not a version of the interface numcu knows (0 to 3)"),
    ),
    "version_negative": (
        "numcu.add(bad_cai(version=-1), 1.0)",
        ValueError,
        malformed("'version' -1"),
    ),
    "version_beyond_64_bits": (
        "numcu.add(bad_cai(version=2**64), 1.0)",
        ValueError,
        malformed("'version' 18446744073709551616"),
    ),
    "version_str": ("numcu.add(bad_cai(version='3'), 1.0)", ValueError, malformed("'version' '3'")),
    "version_bool": (
        "numcu.add(bad_cai(version=True), 1.0)",
        ValueError,
        malformed("'version' True"),
    ),
    "version_missing": (
        "numcu.add(bad_cai(version=KeyError), 1.0)",
        ValueError,
        malformed("no 'version'"),
    ),
    "typestr_trailing": (
        "numcu.add(bad_cai(typestr='<f4x'), 1.0)",
        ValueError,
        malformed("'typestr' '<f4x' is not of the form '<f4'"),
    ),
    "typestr_no_size": (
        "numcu.add(bad_cai(typestr='<f'), 1.0)",
        ValueError,
        malformed("'typestr' '<f'"),
    ),
    "typestr_no_order": (
        "numcu.add(bad_cai(typestr='f4'), 1.0)",
        ValueError,
        malformed("'typestr' 'f4'"),
    ),
    "typestr_bad_order": (
        "numcu.add(bad_cai(typestr='*f4'), 1.0)",
        ValueError,
        malformed("'typestr' '*f4'"),
    ),
    "typestr_empty": ("numcu.add(bad_cai(typestr=''), 1.0)", ValueError, malformed("'typestr' ''")),
    "typestr_long_size": (
        "numcu.add(bad_cai(typestr='<f00004'), 1.0)",
        ValueError,
        malformed("'typestr' '<f00004'"),
    ),
    "typestr_void": (
        "numcu.add(bad_cai(typestr='|V8'), 1.0)",
        TypeError,
        "numcu.add: unsupported dtype |V8",
    ),
    "typestr_big_endian": (
        "numcu.add(bad_cai(typestr='>f4'), 1.0)",
        TypeError,
        "unsupported dtype >f4",
    ),
    "typestr_float128": (
        "numcu.add(bad_cai(typestr='<f16'), 1.0)",
        TypeError,
        "unsupported dtype <f16",
    ),
    "shape_list": (
        "numcu.add(bad_cai(shape=[3]), 1.0)",
        ValueError,
        malformed("'shape' must be a tuple"),
    ),
    "shape_negative": ("numcu.add(bad_cai(shape=(2, -1)), 1.0)", ValueError, malformed("negative")),
    "shape_bool": (
        "numcu.add(bad_cai(shape=(True,)), 1.0)",
        ValueError,
        malformed("'shape' entries must be integers"),
    ),
    "shape_beyond_64_bits": (
        "numcu.add(bad_cai(shape=(2**64,)), 1.0)",
        ValueError,
        malformed("'shape' entries must fit in 64 bits"),
    ),
    "shape_product_overflows": (
        "numcu.add(bad_cai(shape=(2**40, 2**40)), 1.0)",
        ValueError,
        malformed("array is too big: shape (1099511627776, 1099511627776) of float32"),
    ),
    "shape_zero_extent_hides_nothing": (
        "numcu.add(bad_cai(shape=(0, 2**62, 2**62)), 1.0)",
        ValueError,
        malformed("array is too big: shape (0, 4611686018427387904, 4611686018427387904)"),
    ),
    "shape_too_many_dimensions": (
        "numcu.add(bad_cai(shape=(1,) * 65), 1.0)",
        ValueError,
        "numcu.add: arrays of 65 dimensions are not supported (at most 64)",
    ),
    "strides_list": (
        "numcu.add(bad_cai(strides=[4]), 1.0)",
        ValueError,
        malformed("'strides' must be None or a tuple as long as 'shape'"),
    ),
    "strides_bool": (
        "numcu.add(bad_cai(strides=(True,)), 1.0)",
        ValueError,
        malformed("'strides' entries must be integers"),
    ),
    "strides_not_multiples_of_the_item_size": (
        "numcu.add(bad_cai(strides=(6,)), 1.0)",
        ValueError,
        malformed("strides (6,) are not multiples of the item size 4"),
    ),
    "strides_overflow": (
        "numcu.add(bad_cai(strides=(2**62,)), 1.0)",
        ValueError,
        malformed("strides (4611686018427387904,) with shape (3,) reach more than 2**63 - 1 bytes"),
    ),
    "strides_below_address_zero": (
        "numcu.add(bad_cai(strides=(-(2**46),)), 1.0)",
        ValueError,
        malformed(
            f"the elements at data pointer {FAKE_POINTER} with strides (-70368744177664,) lie "
            "beyond the ends of the address space"
        ),
    ),
    "strides_past_the_top": (
        "numcu.add(bad_cai(data=(2**64 - 4096, False), strides=(4096,)), 1.0)",
        ValueError,
        malformed(
            "the elements at data pointer 18446744073709547520 with strides (4096,) lie beyond"
        ),
    ),
    "data_pointer_str": (
        "numcu.add(bad_cai(data=('0x7f0000000000', False)), 1.0)",
        ValueError,
        malformed("the data pointer must be an integer"),
    ),
    "data_pointer_negative": (
        "numcu.add(bad_cai(data=(-4, False)), 1.0)",
        ValueError,
        malformed("the data pointer is not a valid address"),
    ),
    "data_pointer_beyond_64_bits": (
        "numcu.add(bad_cai(data=(2**64, False)), 1.0)",
        ValueError,
        malformed("the data pointer is not a valid address"),
    ),
    "data_pointer_misaligned": (
        "numcu.add(bad_cai(data=(FAKE_POINTER + 2, False)), 1.0)",
        ValueError,
        malformed(f"data pointer {FAKE_POINTER + 2} is not a multiple of the item size 4"),
    ),
    "data_list": (
        "numcu.add(bad_cai(data=[FAKE_POINTER, False]), 1.0)",
        ValueError,
        malformed("'data' must be a tuple (pointer, read_only)"),
    ),
    "data_three_items": (
        "numcu.add(bad_cai(data=(FAKE_POINTER, False, 0)), 1.0)",
        ValueError,
        malformed("'data' must be a tuple (pointer, read_only)"),
    ),
    "read_only_int": (
        "numcu.add(bad_cai(data=(FAKE_POINTER, 0)), 1.0)",
        ValueError,
        malformed("the read-only flag of 'data' must be a bool, not 0"),
    ),
    "read_only_none": (
        "numcu.add(bad_cai(data=(FAKE_POINTER, None)), 1.0)",
        ValueError,
        malformed("the read-only flag of 'data' must be a bool, not None"),
    ),
    "read_only_str": (
        "numcu.add(bad_cai(data=(FAKE_POINTER, 'no')), 1.0)",
        ValueError,
        malformed("the read-only flag of 'data' must be a bool, not 'no'"),
    ),
    "stream_zero": (
        "numcu.add(bad_cai(stream=0), 1.0)",
        ValueError,
        malformed("'stream' 0 is disallowed by the interface"),
    ),
    "stream_negative": (
        "numcu.add(bad_cai(stream=-1), 1.0)",
        ValueError,
        malformed("'stream' -1 is not a stream handle"),
    ),
    "stream_beyond_64_bits": (
        "numcu.add(bad_cai(stream=2**64), 1.0)",
        ValueError,
        malformed("'stream' 18446744073709551616 is not a stream handle"),
    ),
    "stream_str": (
        "numcu.add(bad_cai(stream='1'), 1.0)",
        ValueError,
        malformed("'stream' must be None"),
    ),
    "stream_bool": (
        "numcu.add(bad_cai(stream=True), 1.0)",
        ValueError,
        malformed("'stream' must be None"),
    ),
    "stream_12345": ("numcu.add(bad_cai(stream=12345), 1.0)", ValueError, not_a_stream(12345)),
    "stream_2**63": ("numcu.add(bad_cai(stream=2**63), 1.0)", ValueError, not_a_stream(2**63)),
    "stream_misaligned": (
        "numcu.add(bad_cai(stream=FAKE_POINTER + 4), 1.0)",
        ValueError,
        not_a_stream(FAKE_POINTER + 4),
    ),
    "stream_in_the_first_pages": (
        "numcu.add(bad_cai(stream=4096), 1.0)",
        ValueError,
        not_a_stream(4096),
    ),
    "stream_in_kernel_space": (
        "numcu.add(bad_cai(stream=0xFFFF800000000000), 1.0)",
        ValueError,
        not_a_stream(0xFFFF800000000000),
    ),
    "readonly_out": (
        "numcu.add(1.0, 2.0, out=bad_cai(data=(FAKE_POINTER, True)))",
        ValueError,
        "numcu.add: out is read-only",
    ),
}


if sys.platform.startswith("linux"):
    CAI["stream_unreadable"] = (
        "numcu.add(bad_cai(stream=unreadable_address()), 1.0)",
        ValueError,
        "is not a CUDA stream (no memory is readable at that address)",
    )


@pytest.mark.parametrize("case", CAI)
def test_malformed_cuda_array_interface(case):
    check("cai", case)


@pytest.mark.gpu
@pytest.mark.parametrize("version", [0, 1, 2, 3])
@pytest.mark.parametrize("stream", [None, 1, 2, "numcu"])
def test_every_interface_version_is_taken(version, stream, rng):
    a = random_array(rng, (5, 3), np.float32)
    owner = numcu.asarray(a)
    side = numcu.cuda.Stream()
    view = CAIArray(owner, owner.__cuda_array_interface__["data"][0], a.shape, a.dtype)
    view._cai["version"] = version
    view._cai["stream"] = side.ptr if stream == "numcu" else stream

    assert_matches(numcu.add(view, 1.0).get(), a + np.float32(1.0))


# --------------------------------------------------------------------------------------------
# stream= arguments
# --------------------------------------------------------------------------------------------


class PtrStream:
    """A stream-like object whose `ptr` is whatever the test says."""

    def __init__(self, ptr):
        self.ptr = ptr


class ProtocolStream:
    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


HOST = np.arange(1.0, 4.0)


def not_a_stream_argument(fname, handle, why="not a valid address"):
    return f"{fname}: stream {handle} is not a CUDA stream ({why}"


STREAM_ARGUMENTS = {
    "int_12345": (
        "numcu.add(HOST, HOST, device='cpu', stream=12345)",
        ValueError,
        not_a_stream_argument("numcu.add", 12345),
    ),
    "int_2**63": (
        "numcu.add(HOST, HOST, device='cpu', stream=2**63)",
        ValueError,
        not_a_stream_argument("numcu.add", 2**63),
    ),
    "int_negative": (
        "numcu.add(HOST, HOST, device='cpu', stream=-1)",
        ValueError,
        "numcu.add: stream -1 is not a CUDA stream (handles are addresses",
    ),
    "int_beyond_64_bits": (
        "numcu.add(HOST, HOST, device='cpu', stream=2**64)",
        ValueError,
        "numcu.add: stream 18446744073709551616 is not a CUDA stream (handles are addresses",
    ),
    "ptr_not_an_int": (
        "numcu.add(HOST, HOST, device='cpu', stream=PtrStream('0x10'))",
        TypeError,
        "numcu.add: a stream's handle must be an int, not str",
    ),
    "ptr_garbage": (
        "numcu.subtract(HOST, HOST, device='cpu', stream=PtrStream(12345))",
        ValueError,
        not_a_stream_argument("numcu.subtract", 12345),
    ),
    "protocol_garbage": (
        "numcu.sqrt(HOST, device='cpu', stream=ProtocolStream(8))",
        ValueError,
        not_a_stream_argument("numcu.sqrt", 8),
    ),
    "reduction": (
        "numcu.sum(HOST, device='cpu', stream=12345)",
        ValueError,
        not_a_stream_argument("numcu.sum", 12345),
    ),
    "creation": (
        "numcu.empty(3, device='cpu', stream=12345)",
        ValueError,
        not_a_stream_argument("numcu.empty", 12345),
    ),
    "asnumpy": (
        "numcu.asnumpy(HOST, stream=12345)",
        ValueError,
        not_a_stream_argument("numcu.asnumpy", 12345),
    ),
    "wrapped_stream": (
        "numcu.cuda.Stream(ptr=12345)",
        ValueError,
        not_a_stream_argument("numcu.cuda.Stream", 12345),
    ),
}


if sys.platform.startswith("linux"):
    STREAM_ARGUMENTS["unreadable"] = (
        "numcu.add(HOST, HOST, device='cpu', stream=unreadable_address())",
        ValueError,
        "is not a CUDA stream (no memory is readable at that address)",
    )


@pytest.mark.parametrize("case", STREAM_ARGUMENTS)
def test_made_up_stream_arguments(case):
    """Host operands on the CPU: the handle is checked all the same, before CUDA sees it."""
    expression, error, message = STREAM_ARGUMENTS[case]

    with pytest.raises(error, match=exact(message)):
        eval(expression)


@pytest.mark.gpu
@pytest.mark.parametrize("case", ["numcu", "cupy", "torch"])
def test_foreign_stream_handles_are_taken(case, rng):
    """Raw int handles of live streams pass the checks (the first call probes, later calls look
    the handle up) and order the work as the stream objects do."""
    if case == "numcu":
        owner = numcu.cuda.Stream(non_blocking=True)
        handle = owner.ptr
    elif case == "cupy":
        owner = import_or_skip("cupy").cuda.Stream(non_blocking=True)
        handle = owner.ptr
    else:
        owner = import_or_skip("torch").cuda.Stream()
        handle = owner.cuda_stream
    a = random_array(rng, (1 << 20,), np.float32)
    b = random_array(rng, (1 << 20,), np.float32)
    x, y = numcu.asarray(a), numcu.asarray(b)
    out = numcu.asarray(np.full(a.shape, np.nan, np.float32))

    for _ in range(3):
        numcu.add(x, y, out=out, stream=handle)
    numcu.multiply(out, 2.0, out=out, stream=handle)
    numcu.cuda.Stream(ptr=handle).synchronize()

    assert_matches(out.get(), (a + b) * np.float32(2.0))


# Handles that pass every check but the driver's: run in a fresh interpreter, because a driver
# that dereferences a made-up handle crashes it.
MADE_UP_STREAMS_ON_A_GPU = {
    "argument": (
        "numcu.add(numcu.asarray(HOST), 1.0, stream=readable_non_stream())",
        ValueError,
        "the CUDA driver does not know it",
    ),
    "wrapped": (
        "numcu.cuda.Stream(ptr=readable_non_stream())",
        ValueError,
        "the CUDA driver does not know it",
    ),
    "interface": (
        "numcu.add(device_cai_with_stream(readable_non_stream()), 1.0)",
        ValueError,
        "the CUDA driver does not know it",
    ),
    "dlpack_export": (
        "numcu.asarray(HOST).__dlpack__(stream=readable_non_stream())",
        ValueError,
        "numcu.ndarray.__dlpack__: stream",
    ),
    "destroyed_numcu_stream": (
        "numcu.add(numcu.asarray(HOST), 1.0, stream=destroyed_stream())",
        ValueError,
        "numcu made that stream and has destroyed it since",
    ),
}


# Readable memory that is no stream: inside a bytes object, aligned, with 256 readable bytes on.
READABLE = bytes(4096)


def readable_non_stream():
    return (id(READABLE) + 64) // 16 * 16


def destroyed_stream():
    """The handle of a stream numcu made and destroyed."""
    stream = numcu.cuda.Stream()
    handle = stream.ptr
    del stream
    return handle


def device_cai_with_stream(stream):
    owner = numcu.asarray(HOST)
    view = CAIArray(owner, owner.__cuda_array_interface__["data"][0], HOST.shape, HOST.dtype)
    view._cai["stream"] = stream
    return view


@pytest.mark.gpu
@pytest.mark.parametrize("case", MADE_UP_STREAMS_ON_A_GPU)
def test_made_up_streams_on_a_gpu(case):
    check("made_up_streams_on_a_gpu", case)


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("stream", "error", "message"),
    [
        (12345, ValueError, "numcu.ndarray.__dlpack__: stream 12345 is not a CUDA stream"),
        (-2, ValueError, "numcu.ndarray.__dlpack__: stream -2 is not a CUDA stream (-1, 1, 2"),
        (2**64, ValueError, "numcu.ndarray.__dlpack__: stream 18446744073709551616 is not a"),
        ("1", TypeError, "numcu.ndarray.__dlpack__: stream must be None or an int, not str"),
    ],
)
def test_made_up_dlpack_export_streams(stream, error, message):
    d = numcu.asarray(np.arange(1.0, 4.0))

    with pytest.raises(error, match=exact(message)):
        d.__dlpack__(stream=stream)


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dl_device": "cuda"}, "dl_device must be a (device type, device id) tuple"),
        ({"dl_device": (2,)}, "dl_device must be a (device type, device id) tuple"),
        ({"dl_device": (2, -1)}, "dl_device must be a (device type, device id) tuple"),
        ({"max_version": 1}, "max_version must be a (major, minor) tuple"),
        ({"max_version": (1, "0")}, "max_version must be a (major, minor) tuple"),
        ({"max_version": (2**64, 0)}, "max_version must be a (major, minor) tuple"),
    ],
    ids=str,
)
def test_malformed_dlpack_export_arguments(kwargs, message):
    d = numcu.asarray(np.arange(1.0, 4.0))

    with pytest.raises(TypeError, match=exact(f"numcu.ndarray.__dlpack__: {message}")):
        d.__dlpack__(**kwargs)


# --------------------------------------------------------------------------------------------
# DLPack capsules made field by field
# --------------------------------------------------------------------------------------------


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
VERSIONED_NAME = b"dltensor_versioned"
LEGACY_NAME = b"dltensor"


class HandMadeTensor:
    """An object whose __dlpack__ returns a capsule built here, field by field, over a NumPy
    array's memory (kept alive with the structs; no deleter, so nothing is freed twice).
    Keyword arguments override the fields: `versioned`, `version`, `device` (what
    __dlpack_device__ says), `tensor_device` (what the capsule says), `code`, `bits`, `lanes`,
    `ndim`, `shape` (None: a null pointer), `strides` (in elements; None: C order), `data`,
    `byte_offset`."""

    def __init__(self, array, **fields):
        self.array = np.ascontiguousarray(array)
        self.fields = fields
        self.kept = []

    def __dlpack_device__(self):
        return self.fields.get("device", (CPU, 0))

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        f, a = self.fields, self.array
        shape = f.get("shape", a.shape)
        strides = f.get("strides")
        shape_array = None if shape is None else (ctypes.c_int64 * max(len(shape), 1))(*shape)
        strides_array = (
            None if strides is None else (ctypes.c_int64 * max(len(strides), 1))(*strides)
        )
        device = f.get("tensor_device", self.__dlpack_device__())
        tensor = DLTensor(
            data=f.get("data", a.ctypes.data),
            device=DLDevice(*device),
            ndim=f.get("ndim", a.ndim),
            dtype=DLDataType(
                f.get("code", DL_CODES[a.dtype.kind]),
                f.get("bits", 8 * a.dtype.itemsize),
                f.get("lanes", 1),
            ),
            shape=shape_array,
            strides=strides_array,
            byte_offset=f.get("byte_offset", 0),
        )
        if f.get("versioned", True):
            managed = DLManagedTensorVersioned(
                version=DLPackVersion(*f.get("version", (1, 0))),
                flags=f.get("flags", 0),
                dl_tensor=tensor,
            )
            name = VERSIONED_NAME
        else:
            managed = DLManagedTensor(dl_tensor=tensor)
            name = LEGACY_NAME
        self.kept.append((managed, shape_array, strides_array))
        return _capsule_new(ctypes.addressof(managed), name, None)


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "legacy"])
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128", "bool"])
def test_hand_made_capsules_are_taken(versioned, dtype, host_backend, rng):
    """The harness builds valid tensors: the malformed ones below fail for what they break."""
    a = random_array(rng, (4, 5), dtype)
    b = random_array(rng, (4, 5), dtype)
    # b's rows reversed, through negative strides (in elements) and a byte offset.
    reversed_b = HandMadeTensor(b, versioned=versioned, strides=(5, -1), byte_offset=4 * b.itemsize)

    result = numcu.add(HandMadeTensor(a, versioned=versioned), reversed_b, device=host_backend)

    assert_matches(result, np.add(a, b[:, ::-1]))


def dl(**fields):
    return HandMadeTensor(np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3), **fields)


def malformed_tensor(what):
    return "numcu.add: malformed DLPack tensor: " + what


DLPACK = {
    "version_2": (
        "numcu.add(dl(version=(2, 0)), 1.0)",
        ValueError,
        "DLPack version 2.0 is not supported",
    ),
    "version_0": (
        "numcu.add(dl(version=(0, 8)), 1.0)",
        ValueError,
        "DLPack version 0.8 is not supported",
    ),
    "lanes": ("numcu.add(dl(lanes=4), 1.0)", TypeError, "numcu.add: unsupported dtype float32x4"),
    "opaque": ("numcu.add(dl(code=3), 1.0)", TypeError, "numcu.add: unsupported dtype opaque32"),
    "bfloat32": ("numcu.add(dl(code=4, bits=32), 1.0)", TypeError, "unsupported dtype bfloat32"),
    "float8": (
        "numcu.add(dl(code=7, bits=8), 1.0)",
        TypeError,
        "numcu.add: unsupported dtype DLPack type code 7 (8 bits)",
    ),
    "odd_bits": ("numcu.add(dl(code=0, bits=12), 1.0)", TypeError, "unsupported dtype int12"),
    "ndim_negative": (
        "numcu.add(dl(ndim=-1), 1.0)",
        ValueError,
        "numcu.add: DLPack tensor with -1 dimensions",
    ),
    "ndim_65": ("numcu.add(dl(ndim=65), 1.0)", ValueError, "DLPack tensor with 65 dimensions"),
    "null_shape": ("numcu.add(dl(shape=None), 1.0)", ValueError, malformed_tensor("null shape")),
    "negative_extent": (
        "numcu.add(dl(shape=(2, -3)), 1.0)",
        ValueError,
        malformed_tensor("negative extent in shape (2, -3)"),
    ),
    "shape_overflow": (
        "numcu.add(dl(shape=(2**40, 2**40)), 1.0)",
        ValueError,
        malformed_tensor("array is too big: shape (1099511627776, 1099511627776) of float32"),
    ),
    "strides_overflow_in_bytes": (
        "numcu.add(dl(strides=(2**62, 1)), 1.0)",
        ValueError,
        malformed_tensor("strides (in elements) too large for 64-bit byte strides"),
    ),
    "strides_reach_too_far": (
        "numcu.add(dl(strides=(2**60, 2**60)), 1.0)",
        ValueError,
        malformed_tensor(
            "strides (4611686018427387904, 4611686018427387904) with shape (2, 3) reach more than"
        ),
    ),
    "byte_offset_beyond_int64": (
        "numcu.add(dl(byte_offset=2**63), 1.0)",
        ValueError,
        malformed_tensor("byte_offset 9223372036854775808 runs past the address space"),
    ),
    "byte_offset_wraps": (
        "numcu.add(dl(data=2**64 - 8, byte_offset=2**62), 1.0)",
        ValueError,
        malformed_tensor("byte_offset 4611686018427387904 runs past the address space"),
    ),
    "elements_past_the_top": (
        "numcu.add(dl(data=2**64 - 16), 1.0)",
        ValueError,
        malformed_tensor(
            "the elements at data pointer 18446744073709551600 with strides (12, 4) lie beyond"
        ),
    ),
    "device_disagrees": (
        "numcu.add(dl(tensor_device=(CUDA, 0)), 1.0)",
        ValueError,
        malformed_tensor("its device (2, 0) is not the one __dlpack_device__ gave (1, 0)"),
    ),
    "device_id_disagrees": (
        "numcu.add(dl(tensor_device=(CPU, 3)), 1.0)",
        ValueError,
        malformed_tensor("its device (1, 3) is not the one __dlpack_device__ gave (1, 0)"),
    ),
    "device_type_vulkan": (
        "numcu.add(dl(device=(7, 0)), 1.0)",
        ValueError,
        "numcu.add: DLPack device type 7 is neither the CPU nor CUDA",
    ),
    "device_not_a_tuple": (
        "numcu.add(dl(device=[1, 0]), 1.0)",
        ValueError,
        "numcu.add: __dlpack_device__ returned [1, 0], not a (device type, device id) tuple",
    ),
    "device_too_short": (
        "numcu.add(dl(device=(1,)), 1.0)",
        ValueError,
        "__dlpack_device__ returned (1,)",
    ),
    "device_str": (
        "numcu.add(dl(device=('cpu', 0)), 1.0)",
        ValueError,
        "__dlpack_device__ returned ('cpu', 0)",
    ),
    "device_negative_id": (
        "numcu.add(dl(device=(1, -1)), 1.0)",
        ValueError,
        "__dlpack_device__ returned (1, -1)",
    ),
    "read_only_out": (
        "numcu.add(1.0, 2.0, out=dl(flags=1))",
        ValueError,
        "numcu.add: out is read-only",
    ),
}


@pytest.mark.parametrize("case", DLPACK)
def test_malformed_dlpack_tensors(case):
    check("dlpack", case)


def dl_on_gpu(dtype=np.float32, **fields):
    """A tensor that says it is on the GPU (at FAKE_POINTER unless `data` is given)."""
    fields.setdefault("data", FAKE_POINTER)
    fields.setdefault("device", (CUDA, 0))
    return HandMadeTensor(np.ones((2, 3), dtype), **fields)


# Tensors that claim device memory: a missed check would launch a kernel on a bad address.
DLPACK_ON_A_GPU = {
    "misaligned_data": (
        "numcu.add(dl_on_gpu(data=FAKE_POINTER + 2), 1.0)",
        ValueError,
        malformed_tensor(f"data pointer {FAKE_POINTER + 2} is not a multiple of the item size 4"),
    ),
    "misaligned_byte_offset": (
        "numcu.add(dl_on_gpu(np.complex128, byte_offset=8), 1.0)",
        ValueError,
        malformed_tensor(f"data pointer {FAKE_POINTER + 8} is not a multiple of the item size 16"),
    ),
    "shape_overflow": (
        "numcu.add(dl_on_gpu(shape=(2**31, 2**31)), 1.0)",
        ValueError,
        malformed_tensor("array is too big: shape (2147483648, 2147483648) of float32"),
    ),
    "strides_wrap": (
        "numcu.add(dl_on_gpu(strides=(-(2**45), 1)), 1.0)",
        ValueError,
        malformed_tensor(
            f"the elements at data pointer {FAKE_POINTER} with strides (-140737488355328, 4) lie"
        ),
    ),
    "null_data": (
        "numcu.add(dl_on_gpu(data=None), 1.0)",
        ValueError,
        "numcu.add: DLPack tensor has a null data pointer for 6 elements",
    ),
    "device_disagrees": (
        "numcu.add(dl_on_gpu(tensor_device=(CPU, 0)), 1.0)",
        ValueError,
        malformed_tensor("its device (1, 0) is not the one __dlpack_device__ gave (2, 0)"),
    ),
}


@pytest.mark.parametrize("case", DLPACK_ON_A_GPU)
def test_malformed_device_dlpack_tensors(case):
    check("dlpack_on_a_gpu", case)


# --------------------------------------------------------------------------------------------
# Host arrays whose elements are not aligned to their item size
# --------------------------------------------------------------------------------------------


def packed_field(rng, dtype, shape):
    """A field of a packed record array: strides that are not multiples of the item size."""
    record = np.dtype([("pad", np.int8), ("x", dtype)], align=False)
    records = np.zeros(shape, record)
    records["x"] = random_array(rng, shape, dtype)
    field = records["x"]
    assert any(s % field.itemsize for s in field.strides)
    return field


def complex128_at_8_bytes(rng, n):
    """complex128 elements 8 bytes past 16-byte boundaries: aligned as far as NumPy is concerned
    (its complex128 alignment is 8), not for numcu's complex128 (16)."""
    buffer = np.zeros(2 * n + 2, np.float64)
    offset = 1 if buffer.ctypes.data % 16 == 0 else 0
    a = buffer[offset : offset + 2 * n].view(np.complex128)
    a[...] = random_array(rng, (n,), np.complex128)
    assert a.ctypes.data % 16 == 8 and a.flags.aligned
    return a


class DLPackOf:
    """`array` seen only through DLPack (NumPy's own __dlpack__)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def unaligned_inputs(device):
    """Every loop kind on unaligned host inputs, checked against NumPy (raises on a mismatch)."""
    rng = np.random.default_rng(5)
    inputs = [packed_field(rng, dtype, (37, 3)) for dtype in ALIGNMENT_DTYPES]
    inputs.append(complex128_at_8_bytes(rng, 101))
    for a in inputs:
        b = random_array(rng, a.shape, a.dtype)
        assert_matches(numcu.add(a, b, device=device), a + b)
        assert_matches(numcu.multiply(a.T, 2, device=device), a.T * 2)
        if a.dtype.kind != "c":
            assert_matches(numcu.max(a, axis=0, device=device), a.max(axis=0))
        if device == "cpu":
            assert_matches(numcu.astype(a, np.complex128), a.astype(np.complex128))
        else:
            assert_matches(numcu.asarray(a).get(), a)
    # NumPy exports only strides that are multiples of the item size through DLPack.
    a = inputs[-1]
    b = random_array(rng, a.shape, a.dtype)
    assert_matches(numcu.subtract(DLPackOf(a), b, device=device), a - b)


ALIGNMENT_DTYPES = ["int16", "float32", "float64", "complex64", "complex128"]


def test_unaligned_host_inputs():
    """Their elements are copied, bytewise, into an aligned array first: typed loads of
    misaligned complex128 crash the CPU loops (an aligned 16-byte load), and misaligned device
    copies fault GPU kernels."""
    expressions = {"cpu": "unaligned_inputs('cpu')"}
    if gpu_available():
        expressions["cuda"] = "unaligned_inputs('cuda')"

    outcomes = fresh_outcomes(expressions)

    assert outcomes == {where: ["no error", False, ""] for where in expressions}


UNALIGNED_OUT = {
    "packed_field": (
        "numcu.add(1.0, 2.0, out=packed_field(np.random.default_rng(1), 'f8', (3,)))",
        ValueError,
        "numcu.add: out's elements are not aligned to their item size (8 bytes)",
    ),
    "complex128_at_8_bytes": (
        "numcu.negative(np.ones(5, 'c16'), out=complex128_at_8_bytes(np.random.default_rng(2), 5))",
        ValueError,
        "numcu.negative: out's elements are not aligned to their item size (16 bytes)",
    ),
    "reduction": (
        "numcu.sum(np.ones((5, 2), 'c16'), axis=1,"
        " out=complex128_at_8_bytes(np.random.default_rng(3), 5))",
        ValueError,
        "numcu.sum: out's elements are not aligned to their item size (16 bytes)",
    ),
}


@pytest.mark.parametrize("case", UNALIGNED_OUT)
def test_unaligned_host_out(case):
    check("unaligned_out", case)


# --------------------------------------------------------------------------------------------
# The issue's reproductions, each in a fresh interpreter
# --------------------------------------------------------------------------------------------

ISSUE = {
    "empty_nbytes_wrapped": (
        "numcu.empty(1 << 62, dtype='float64')",
        ValueError,
        too_big("numcu.empty", "(4611686018427387904,)", "float64"),
    ),
    "empty_size_wrapped": (
        "numcu.empty((1 << 40, 1 << 40))",
        ValueError,
        too_big("numcu.empty", "(1099511627776, 1099511627776)", "float64"),
    ),
    "full_wrote_past_its_allocation": (
        "numcu.full(1 << 61, 1.0)",
        ValueError,
        too_big("numcu.full", "(2305843009213693952,)", "float64"),
    ),
    "cai_overflowing_shape": (
        "numcu.add(device_cai(shape=(1 << 40, 1 << 40)), 1.0)",
        ValueError,
        malformed("array is too big: shape (1099511627776, 1099511627776) of float64"),
    ),
    "cai_version_99": (
        "numcu.add(device_cai(version=99), 1.0)",
        ValueError,
        malformed("'version' 99 is not a version of the interface"),
    ),
    "cai_garbage_stream": (
        "numcu.add(device_cai(stream=12345), 1.0)",
        ValueError,
        not_a_stream(12345),
    ),
    "cai_readable_garbage_stream": (
        "numcu.add(device_cai(stream=readable_non_stream()), 1.0)",
        ValueError,
        "the CUDA driver does not know it",
    ),
}


def device_cai(**changes):
    """A CAI over a numcu array of three random float64, with `changes` to its fields."""
    owner = numcu.asarray(np.random.default_rng(11).standard_normal(3))
    view = CAIArray(owner, owner.__cuda_array_interface__["data"][0], (3,), np.float64)
    view._cai.update(changes)
    return view


@pytest.mark.gpu
@pytest.mark.parametrize("case", ISSUE)
def test_issue_reproductions(case):
    check("issue", case)


TABLES = {
    **{
        f"too_big_{placement}": {
            name: (call.format(kw=PLACEMENTS[placement]), ValueError, message)
            for name, (call, message) in TOO_BIG.items()
        }
        for placement in ("gpu", "managed", "pinned")
    },
    **{
        f"unallocatable_{placement}": {
            name: (call.format(kw=PLACEMENTS[placement]), MemoryError, "")
            for name, call in UNALLOCATABLE.items()
        }
        for placement in ("gpu", "managed", "pinned")
    },
    "too_big_on_device": TOO_BIG_ON_DEVICE,
    "cai": CAI,
    "made_up_streams_on_a_gpu": MADE_UP_STREAMS_ON_A_GPU,
    "dlpack": DLPACK,
    "unaligned_out": UNALIGNED_OUT,
    "dlpack_on_a_gpu": DLPACK_ON_A_GPU,
    "issue": ISSUE,
}


NUMPY_NUMERIC = "bool int8 uint8 int16 uint16 int32 uint32 int64 uint64".split() + [
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


@pytest.mark.parametrize("dtype", NUMPY_NUMERIC)
def test_numpy_fields_read_what_the_buffer_protocol_says(rng, dtype):
    """A numpy.ndarray's own fields, which numcu reads instead of the buffer protocol, give the
    view the buffer protocol gives: strided, reversed, transposed, 0-d, empty, read-only and
    unaligned arrays (read through an aligned copy either way), and NumPy's results on them."""
    base = random_array(rng, (6, 14), dtype)
    readonly = base.copy()
    readonly.flags.writeable = False
    raw = np.zeros(base.nbytes + 1, np.uint8)
    unaligned = raw[1:].view(dtype).reshape(base.shape)
    unaligned[...] = base
    views = [base[:, 1::3], base[::-1, ::-2], base.T, base[2, 3], base[:0]]
    op = "logical_not" if dtype == "bool" else "negative"
    for x in [base, *views, readonly, unaligned, np.asfortranarray(base)]:
        x = np.asarray(x)
        fast = numcu._core._intake_info(x)
        slow = numcu._core._intake_info(x, "buffer")
        for key in ("route", "shape", "strides", "dtype", "device", "readonly", "kind"):
            assert fast[key] == slow[key], (key, x.shape, x.strides)
        own = x.__array_interface__["data"][0]
        assert (fast["data"] == own) == (slow["data"] == own)
        assert (fast["data"] == own) == (x is not unaligned or x.itemsize == 1)
        assert_matches(getattr(numcu, op)(x, device="cpu"), getattr(np, op)(x))
