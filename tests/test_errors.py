"""Every bad input gets a clear Python exception, and the process survives.

Specification: each error of the contract, with its exception type and message. Those that need
no GPU run everywhere (the checks happen before any device is touched); the others are gpu.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import OPS, CAIArray, assert_matches, gpu_available, random_array

import numcu


def exact(message):
    """A pytest.raises `match` pattern for a message that contains `message` verbatim."""
    return re.escape(message)


# --------------------------------------------------------------------------------------------
# The exception types
# --------------------------------------------------------------------------------------------


def test_exception_hierarchy():
    assert issubclass(numcu.cuda.CUDAError, RuntimeError)
    assert issubclass(numcu.cuda.OutOfMemoryError, MemoryError)
    assert issubclass(numcu.cuda.CUDAUnavailableError, RuntimeError)


# --------------------------------------------------------------------------------------------
# dtypes
# --------------------------------------------------------------------------------------------

UNSUPPORTED = {
    "datetime64": lambda: np.array(["2020-01-01", "2021-06-30", "2022-12-31"], "datetime64[D]"),
    "timedelta64": lambda: np.array([1, 2, 3], "timedelta64[s]"),
    "object": lambda: np.array([1, "a", None], dtype=object),
    "byteswapped_f4": lambda: np.arange(3, dtype=">f4"),
    "byteswapped_i8": lambda: np.arange(3, dtype=">i8"),
    "str": lambda: np.array(["ab", "cd", "ef"]),
    "bytes": lambda: np.array([b"ab", b"cd", b"ef"]),
    "structured": lambda: np.zeros(3, dtype=[("x", np.float32), ("y", np.int8)]),
}
if np.dtype(np.longdouble).itemsize > 8:
    UNSUPPORTED["longdouble"] = lambda: np.ones(3, np.longdouble)


@pytest.mark.parametrize("kind", UNSUPPORTED)
@pytest.mark.parametrize("op", OPS)
def test_unsupported_dtype(op, kind, host_backend):
    bad = UNSUPPORTED[kind]()
    good = np.ones(3, np.float32)
    message = f"numcu.{op}: unsupported dtype {bad.dtype}"

    with pytest.raises(TypeError, match=exact(message)):
        getattr(numcu, op)(bad, bad, device=host_backend)
    with pytest.raises(TypeError, match=exact(message)):
        getattr(numcu, op)(good, bad, device=host_backend)
    with pytest.raises(TypeError, match=exact(message)):
        getattr(numcu, op)(bad, good, device=host_backend)


@pytest.mark.parametrize("kind", ["datetime64", "object", "byteswapped_f4"])
def test_unsupported_dtype_div(kind):
    bad = UNSUPPORTED[kind]()

    with pytest.raises(TypeError, match=r"numcu\.\w+: unsupported dtype " + exact(str(bad.dtype))):
        numcu.div(bad, bad, dev_id=False)


@pytest.mark.parametrize("kind", ["byteswapped_f4", "object", "str"])
def test_unsupported_out_dtype(kind):
    bad_out = UNSUPPORTED[kind]()

    with pytest.raises(TypeError):
        numcu.add(np.ones(3, np.float32), np.ones(3, np.float32), out=bad_out, device="cpu")


@pytest.mark.gpu
@pytest.mark.parametrize("kind", ["datetime64", "object", "byteswapped_f4"])
def test_asarray_unsupported_dtype(kind):
    with pytest.raises(TypeError, match="unsupported dtype"):
        numcu.asarray(UNSUPPORTED[kind]())


def test_bool_subtract_has_no_loop(host_backend):
    x = np.array([True, False, True])

    with pytest.raises(TypeError, match=r"numcu\.subtract: .*bool"):
        numcu.subtract(x, x, device=host_backend)
    with pytest.raises(TypeError, match=r"numcu\.subtract: .*bool"):
        numcu.subtract(x, True, device=host_backend)


@pytest.mark.gpu
def test_bool_subtract_on_device_arrays():
    x = numcu.asarray(np.array([True, False, True]))

    with pytest.raises(TypeError, match=r"numcu\.subtract: .*bool"):
        numcu.subtract(x, x)


# --------------------------------------------------------------------------------------------
# Shapes and out
# --------------------------------------------------------------------------------------------


def test_shapes_that_do_not_broadcast(host_backend):
    message = "numcu.add: operands could not be broadcast together with shapes (3,) (4,)"

    with pytest.raises(ValueError, match=exact(message)):
        numcu.add(np.ones(3), np.ones(4), device=host_backend)


@pytest.mark.parametrize(
    ("shape1", "shape2"), [((2, 3), (4,)), ((5, 1, 3), (4, 2)), ((0,), (2,))], ids=str
)
def test_shapes_that_do_not_broadcast_nd(shape1, shape2, host_backend):
    with pytest.raises(ValueError, match=r"numcu\.multiply: operands could not be broadcast"):
        numcu.multiply(np.ones(shape1), np.ones(shape2), device=host_backend)


def test_out_of_the_wrong_shape(host_backend):
    message = "numcu.add: out has shape (2,) but the result has shape (3,)"

    with pytest.raises(ValueError, match=exact(message)):
        numcu.add(np.ones(3), np.ones(3), out=np.empty(2), device=host_backend)


@pytest.mark.parametrize("out_shape", [(1,), (3, 1), ()], ids=str)
def test_out_smaller_than_the_result(out_shape, host_backend):
    """out is never broadcast: it must hold the whole result."""
    with pytest.raises(ValueError, match=r"numcu\.add: out has shape .* but the result has shape"):
        numcu.add(np.ones(3), np.ones(3), out=np.empty(out_shape), device=host_backend)


def test_out_read_only(host_backend):
    out = np.zeros(3)
    out.flags.writeable = False

    with pytest.raises(ValueError, match=exact("numcu.add: out is read-only")):
        numcu.add(np.ones(3), np.ones(3), out=out, device=host_backend)
    np.testing.assert_array_equal(out, np.zeros(3))


def test_out_unsafe_cast(host_backend):
    message = "numcu.add: cannot cast the result from float64 to int32 (casting='same_kind')"
    out = np.full(3, 77, np.int32)

    with pytest.raises(TypeError, match=exact(message)):
        numcu.add(np.ones(3), np.ones(3), out=out, device=host_backend)
    with pytest.raises(TypeError, match=exact(message)):
        numcu.add(np.ones(3, np.int32), 2.5, out=out, device=host_backend)
    np.testing.assert_array_equal(out, np.full(3, 77, np.int32))


@pytest.mark.parametrize(
    ("dtype", "out_dtype", "op"),
    [("complex128", "float64", "add"), ("int32", "int32", "divide"), ("float32", "bool", "add")],
)
def test_out_unsafe_cast_other_kinds(dtype, out_dtype, op, host_backend):
    result_dtype = np.result_type(dtype, np.float64) if op == "divide" else np.dtype(dtype)
    message = (
        f"numcu.{op}: cannot cast the result from {result_dtype} to {np.dtype(out_dtype)} "
        "(casting='same_kind')"
    )
    with pytest.raises(TypeError, match=exact(message)):
        getattr(numcu, op)(
            np.ones(3, dtype), np.ones(3, dtype), out=np.empty(3, out_dtype), device=host_backend
        )


# --------------------------------------------------------------------------------------------
# Devices
# --------------------------------------------------------------------------------------------


def test_launch_floor_probe():
    """The benchmarks' launch floor (numcu._core._launch_empty): no arguments; one empty kernel
    on the current stream where there is a GPU, numcu's own error where there is none."""
    probe = numcu._core._launch_empty
    with pytest.raises(TypeError, match=exact("numcu._launch_empty takes no arguments")):
        probe(1)
    if gpu_available():
        with numcu.cuda.Stream() as stream:
            assert probe() is None
        stream.synchronize()
    else:
        with pytest.raises(numcu.cuda.CUDAUnavailableError, match="no CUDA device"):
            probe()


@pytest.mark.skipif(gpu_available(), reason="a CUDA device is available")
def test_cuda_requested_without_a_gpu():
    message = "numcu.add: device='cuda' was requested but no CUDA device is available"

    with pytest.raises(numcu.cuda.CUDAUnavailableError, match=exact(message)):
        numcu.add(np.ones(3), np.ones(3), device="cuda")


@pytest.mark.skipif(gpu_available(), reason="a CUDA device is available")
@pytest.mark.parametrize(
    "call",
    [
        lambda: numcu.add(np.ones(3), np.ones(3), device="cuda:0"),
        lambda: numcu.multiply(np.ones(3), np.ones(3), device=0),
        lambda: numcu.add(np.ones(3, np.float32), np.ones(3, np.float32), dev_id=0),
        lambda: numcu.asarray(np.ones(3), device="cuda"),
    ],
    ids=["cuda:0", "device=0", "dev_id=0", "asarray"],
)
def test_any_gpu_request_without_a_gpu(call):
    with pytest.raises(numcu.cuda.CUDAUnavailableError, match="no CUDA device is available"):
        call()


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:99", 99])
def test_device_that_does_not_exist(device):
    with pytest.raises((ValueError, numcu.cuda.CUDAError)):
        numcu.add(np.ones(3), np.ones(3), device=device)

    assert_matches(numcu.add(np.ones(3), np.ones(3), device="cuda"), np.full(3, 2.0))


@pytest.mark.parametrize(
    "device", ["tpu", "gpu", "cuda:x", "cpu:0:1", "", "cuda:", "cuda:99999999999", "cpu\u00e9"]
)
def test_bad_device_string(device):
    with pytest.raises(ValueError, match=exact("numcu.add: device must be")):
        numcu.add(np.ones(3), np.ones(3), device=device)


def test_keywords_built_at_run_time_are_found(rng):
    # Keyword names a call site spells are interned str; these are built at run time, so they
    # are found by their text.
    a, b = rng.standard_normal(5), rng.standard_normal(5)
    out = np.full(5, np.nan)
    name = "".join(["ou", "t"])
    numcu.add(a, b, **{name: out, "".join(["dev", "ice"]): "cpu"})
    np.testing.assert_array_equal(out, a + b)
    with pytest.raises(
        TypeError, match=exact("numcu.add() got an unexpected keyword argument 'outt'")
    ):
        numcu.add(a, b, **{name + "t": out})
    with pytest.raises(
        TypeError, match=exact("numcu.add() got multiple values for argument 'out'")
    ):
        numcu.add(a, b, out, **{name: out})


@pytest.mark.gpu
def test_host_and_device_operands_mixed(rng):
    host = random_array(rng, (3,), np.float32)
    device = numcu.asarray(random_array(rng, (3,), np.float32))
    message = "numcu.add: operands are on different devices: cpu and cuda:0"

    with pytest.raises(ValueError, match=exact(message)):
        numcu.add(host, device)
    with pytest.raises(ValueError, match=r"numcu\.add: operands are on different devices: "):
        numcu.add(device, host)


@pytest.mark.gpu
def test_host_out_for_device_operands(rng):
    device = numcu.asarray(random_array(rng, (3,), np.float32))

    with pytest.raises(ValueError, match=r"numcu\.add: .*different devices.*cpu"):
        numcu.add(device, device, out=np.empty(3, np.float32))


# --------------------------------------------------------------------------------------------
# Malformed __cuda_array_interface__ (parsed before any device is touched)
# --------------------------------------------------------------------------------------------


class FakeCAI:
    """An object whose __cuda_array_interface__ is whatever the test says."""

    def __init__(self, interface):
        self.interface = interface

    @property
    def __cuda_array_interface__(self):
        return self.interface


# A plausible device address; the parsing must fail before anything dereferences it.
FAKE_POINTER = 0x7F0000000000


def interface(**changes):
    cai = {
        "version": 3,
        "shape": (3,),
        "typestr": "<f4",
        "data": (FAKE_POINTER, False),
        "strides": None,
        "stream": None,
    }
    for key, value in changes.items():
        if value is KeyError:
            del cai[key]
        else:
            cai[key] = value
    return cai


MALFORMED = {
    "missing_shape": interface(shape=KeyError),
    "missing_typestr": interface(typestr=KeyError),
    "missing_data": interface(data=KeyError),
    "typestr_not_a_string": interface(typestr=5),
    "shape_not_a_tuple": interface(shape="abc"),
    "shape_of_strings": interface(shape=("a",)),
    "data_not_a_tuple": interface(data="pointer"),
    "data_too_short": interface(data=(FAKE_POINTER,)),
    "strides_wrong_length": interface(strides=(4, 4)),
    "not_a_dict": [("shape", (3,))],
}


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_cuda_array_interface(case):
    bad = FakeCAI(MALFORMED[case])

    with pytest.raises(
        (ValueError, TypeError), match=exact("numcu.add: malformed __cuda_array_interface__: ")
    ):
        numcu.add(bad, bad)


def test_masked_cuda_array_interface():
    masked = FakeCAI(interface(mask=FakeCAI(interface(typestr="|b1"))))

    with pytest.raises(
        ValueError, match=exact("numcu.add: __cuda_array_interface__ with a mask is not supported")
    ):
        numcu.add(masked, masked)


@pytest.mark.parametrize("shape", [(3,), (2, 5), ()], ids=str)
def test_null_pointer_with_elements(shape):
    null = FakeCAI(interface(shape=shape, data=(0, False)))

    with pytest.raises(ValueError, match=r"numcu\.add: .*null data pointer"):
        numcu.add(null, null)


@pytest.mark.gpu
def test_read_only_device_out(rng):
    owner = numcu.asarray(random_array(rng, (3,), np.float32))
    readonly = CAIArray(
        owner, owner.__cuda_array_interface__["data"][0], (3,), np.float32, readonly=True
    )

    with pytest.raises(ValueError, match=exact("numcu.add: out is read-only")):
        numcu.add(owner, owner, out=readonly)


@pytest.mark.gpu
def test_device_out_of_the_wrong_shape(rng):
    x = numcu.asarray(random_array(rng, (3,), np.float32))
    out = numcu.asarray(np.full(2, 77, np.float32))

    with pytest.raises(
        ValueError, match=exact("numcu.add: out has shape (2,) but the result has shape (3,)")
    ):
        numcu.add(x, x, out=out)


# --------------------------------------------------------------------------------------------
# Device memory
# --------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_out_of_device_memory_is_recoverable(rng):
    """A 2**50-byte result: OutOfMemoryError with the size; the next call works."""
    column = numcu.asarray(np.ones((2**24, 1), np.float32))
    row = numcu.asarray(np.ones((1, 2**24), np.float32))

    with pytest.raises(numcu.cuda.OutOfMemoryError, match=r"out of device memory.* bytes") as info:
        numcu.add(column, row)

    assert isinstance(info.value, MemoryError)
    assert info.value.nbytes >= 2**50
    assert str(info.value.nbytes) in str(info.value)

    x1 = random_array(rng, (1001,), np.float32)
    x2 = random_array(rng, (1001,), np.float32)
    assert_matches(numcu.add(numcu.asarray(x1), numcu.asarray(x2)).get(), x1 + x2)
    assert_matches(numcu.add(x1, x2, device="cuda"), x1 + x2)


# --------------------------------------------------------------------------------------------
# Every error leaves numcu usable
# --------------------------------------------------------------------------------------------


def test_calls_work_after_errors(host_backend, rng):
    for bad_call in (
        lambda: numcu.add(np.ones(3), np.ones(4), device=host_backend),
        lambda: numcu.subtract(np.ones(2, bool), np.ones(2, bool), device=host_backend),
        lambda: numcu.add(UNSUPPORTED["object"](), 1, device=host_backend),
    ):
        with pytest.raises((TypeError, ValueError)):
            bad_call()

    x1 = random_array(rng, (7,), np.int16)
    x2 = random_array(rng, (7,), np.int16)
    assert_matches(numcu.add(x1, x2, device=host_backend), x1 + x2)
