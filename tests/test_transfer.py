"""Moving arrays: numcu.asarray's copy= and device=, numcu.asnumpy's and ndarray.get's out=,
stream= and blocking=.

Specification:
- ``asarray(obj, dtype=None, copy=None, *, device=None, stream=None)`` follows NumPy 2 and the
  array API: ``copy=True`` always copies (new memory), ``copy=None`` copies only where needed
  (host data to a GPU, a dtype conversion, device data to the host), and ``copy=False`` never
  does, raising ValueError where a copy is needed. Device arrays already on the right GPU
  (numcu's or another library's) are the same memory; ``device='cpu'`` gives NumPy arrays.
- ``asnumpy(a, out=None, stream=None, blocking=True)`` copies device data into `out` (same shape
  and dtype, writable, contiguous in any order) or a new array; host data comes back as
  ``numpy.asarray(a)`` (copied into `out` when given). ``blocking=False`` returns once the
  copy is queued. ``ndarray.get`` takes the same keywords.
- Bad arguments raise TypeError or ValueError naming the function.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import (
    DTYPES,
    CAIProducer,
    assert_matches,
    gpu_available,
    poisoned,
    random_array,
)

import numcu


def exact(message):
    return re.escape(message)


def address(x):
    if isinstance(x, np.ndarray):
        return x.__array_interface__["data"][0]
    return x.__cuda_array_interface__["data"][0]


# --------------------------------------------------------------------------------------------
# asarray to the host (device='cpu'): runs everywhere
# --------------------------------------------------------------------------------------------


def test_asarray_to_host_copy_modes(rng):
    a = random_array(rng, (4, 5), np.float32)

    same = numcu.asarray(a, device="cpu")
    never = numcu.asarray(a, copy=False, device="cpu")
    always = numcu.asarray(a, copy=True, device="cpu")

    assert same is a and never is a
    assert type(always) is np.ndarray and not np.shares_memory(always, a)
    assert_matches(always, a)


def test_asarray_to_host_converts_with_a_copy(rng):
    a = random_array(rng, (6, 3), np.int16).T

    converted = numcu.asarray(a, dtype=np.float64, device="cpu")

    assert_matches(converted, a.astype(np.float64))
    assert converted.flags["F_CONTIGUOUS"]  # the input's layout (order='K')
    with pytest.raises(ValueError, match=exact("numcu.asarray: converting int16 to float64")):
        numcu.asarray(a, dtype=np.float64, copy=False, device="cpu")


def test_asarray_to_host_views_buffers_and_copies_sequences():
    buffer = bytearray(b"\x01\x02\x03\x04")

    view = numcu.asarray(memoryview(buffer), copy=False, device="cpu")
    listed = numcu.asarray([[1, 2], [3, 4]], device="cpu")
    scalar = numcu.asarray(2.5, device="cpu")

    buffer[0] = 9
    assert view[0] == 9
    assert_matches(listed, np.array([[1, 2], [3, 4]]))
    assert_matches(scalar, np.asarray(2.5))
    for needs_a_copy in ([1, 2], 2.5):
        with pytest.raises(ValueError, match=r"numcu\.asarray: .*, but copy=False"):
            numcu.asarray(needs_a_copy, copy=False, device="cpu")


@pytest.mark.parametrize("copy", [2, "yes", 1.0])
def test_asarray_bad_copy(copy):
    with pytest.raises(TypeError, match=exact("numcu.asarray: copy must be True, False or None")):
        numcu.asarray(np.ones(2), copy=copy, device="cpu")


def test_asarray_bad_device_and_stream():
    with pytest.raises(ValueError, match=exact("numcu.asarray: device must be")):
        numcu.asarray(np.ones(2), device="gpu")
    with pytest.raises(TypeError, match=exact("numcu.asarray: stream must be a CUDA stream")):
        numcu.asarray(np.ones(2), stream=1.5)


@pytest.mark.skipif(gpu_available(), reason="a CUDA device is available")
def test_asarray_to_a_gpu_without_one():
    with pytest.raises(numcu.cuda.CUDAUnavailableError, match=r"^numcu\.asarray: no CUDA device"):
        numcu.asarray(np.ones(2), copy=True, device="cuda")


@pytest.mark.skipif(gpu_available(), reason="a CUDA device is available")
def test_asarray_without_a_gpu_keeps_host_data_on_the_host(rng):
    a = random_array(rng, (3, 4), np.float32)

    same = numcu.asarray(a)
    copied = numcu.asarray(a, copy=True)
    converted = numcu.asarray(a, dtype=np.float64)

    assert same is a
    assert type(copied) is np.ndarray and not np.shares_memory(copied, a)
    assert_matches(copied, a)
    assert_matches(converted, a.astype(np.float64))


# --------------------------------------------------------------------------------------------
# asarray to a GPU
# --------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_asarray_of_numcu_arrays(rng):
    a = random_array(rng, (8, 3), np.float64)
    d = numcu.asarray(a)

    assert numcu.asarray(d) is d
    assert numcu.asarray(d, copy=False) is d
    assert numcu.asarray(d, dtype=np.float64, copy=False) is d
    copied = numcu.asarray(d, copy=True)
    assert address(copied) != address(d)
    assert_matches(copied.get(), a)
    transposed = numcu.asarray(d.T, copy=True)
    assert transposed.flags["F_CONTIGUOUS"]  # d.T's order of dimensions (NumPy's order='K')
    assert_matches(transposed.get(), a.T)
    converted = numcu.asarray(d, dtype=np.float32)
    assert_matches(converted.get(), a.astype(np.float32))
    with pytest.raises(ValueError, match=exact("numcu.asarray: converting float64 to float32")):
        numcu.asarray(d, dtype=np.float32, copy=False)


@pytest.mark.gpu
def test_asarray_of_foreign_device_arrays(rng):
    a = random_array(rng, (5, 4), np.int32)
    foreign = CAIProducer().from_numpy(a)

    shared = numcu.asarray(foreign)
    never = numcu.asarray(foreign, copy=False)
    always = numcu.asarray(foreign, copy=True)

    assert address(shared) == address(foreign) == address(never)
    assert shared.memory == "foreign"
    assert address(always) != address(foreign)
    assert always.memory == "device"
    assert_matches(always.get(), a)
    assert_matches(shared.get(), a)


@pytest.mark.gpu
@pytest.mark.parametrize("copy", [None, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_asarray_copies_host_data(dtype, copy, rng):
    a = random_array(rng, (3, 7), dtype)

    d = numcu.asarray(a, copy=copy)

    assert isinstance(d, numcu.ndarray)
    assert d.memory == "device"
    assert_matches(d.get(), a)


@pytest.mark.gpu
def test_asarray_refuses_to_copy_host_data(rng):
    with pytest.raises(
        ValueError, match=exact("numcu.asarray: host data must be copied to cuda:0")
    ):
        numcu.asarray(random_array(rng, (3,), np.float32), copy=False)


@pytest.mark.gpu
def test_asarray_on_a_stream(rng):
    a = random_array(rng, (1 << 20,), np.float32)
    stream = numcu.cuda.Stream(non_blocking=True)

    d = numcu.asarray(a, stream=stream)
    stream.synchronize()

    assert_matches(d.get(), a)


@pytest.mark.gpu
def test_asarray_device_to_host(rng):
    a = random_array(rng, (4, 6), np.complex64)
    d = numcu.asarray(a)

    copied = numcu.asarray(d, device="cpu")
    converted = numcu.asarray(d[:, ::2], dtype=np.complex128, device="cpu")

    assert type(copied) is np.ndarray
    assert_matches(copied, a)
    assert_matches(converted, a[:, ::2].astype(np.complex128))
    with pytest.raises(ValueError, match=r"numcu\.asarray: the array is in GPU memory.*copy=False"):
        numcu.asarray(d, copy=False, device="cpu")


@pytest.mark.gpu
def test_asarray_to_a_gpu_that_does_not_exist():
    with pytest.raises((ValueError, numcu.cuda.CUDAError)):
        numcu.asarray(np.ones(3), device=numcu.cuda.device_count())


# --------------------------------------------------------------------------------------------
# asnumpy and get
# --------------------------------------------------------------------------------------------


def test_asnumpy_of_host_data(rng):
    a = random_array(rng, (3, 4), np.int64)
    out = poisoned((3, 4), np.int64)

    assert numcu.asnumpy(a) is a
    assert_matches(numcu.asnumpy([1, 2, 3]), np.array([1, 2, 3]))
    assert numcu.asnumpy(a, out=out) is out
    assert_matches(out, a)


OUT_LAYOUTS = {
    "c": lambda shape, dtype: poisoned(shape, dtype),
    "fortran": lambda shape, dtype: np.asfortranarray(poisoned(shape, dtype)),
    "reversed": lambda shape, dtype: poisoned(shape, dtype)[::-1],
}

SOURCE_VIEWS = {
    "c": lambda d: d,
    "transposed": lambda d: d.T,
    "strided": lambda d: d[::2],
}


@pytest.mark.gpu
@pytest.mark.parametrize("view", SOURCE_VIEWS)
@pytest.mark.parametrize("layout", OUT_LAYOUTS)
@pytest.mark.parametrize("dtype", ["bool", "uint16", "float32", "complex128"])
def test_asnumpy_into_out(dtype, layout, view, rng):
    a = random_array(rng, (6, 5), dtype)
    source = SOURCE_VIEWS[view](numcu.asarray(a))
    expected = SOURCE_VIEWS[view](a)
    out = OUT_LAYOUTS[layout](expected.shape, dtype)

    result = numcu.asnumpy(source, out=out)
    got = source.get(out=OUT_LAYOUTS[layout](expected.shape, dtype))

    assert result is out
    assert_matches(out, expected)
    assert_matches(got, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(), (0,), (1,), (1001,), (3, 0, 2)], ids=str)
def test_asnumpy_shapes(shape, rng):
    a = random_array(rng, shape, np.float64)

    result = numcu.asnumpy(numcu.asarray(a))

    assert type(result) is np.ndarray
    assert result.shape == shape
    assert_matches(result[()] if shape == () else result, a[()] if shape == () else a)


@pytest.mark.gpu
def test_asnumpy_on_a_stream_without_blocking(rng):
    a = random_array(rng, (1 << 20,), np.float32)
    stream = numcu.cuda.Stream(non_blocking=True)
    d = numcu.multiply(numcu.asarray(a), 2.0)
    out = numcu.empty(a.shape, a.dtype, memory="pinned")
    out[:] = np.nan

    result = numcu.asnumpy(d, out=out, stream=stream, blocking=False)
    stream.synchronize()

    assert result is out
    assert_matches(out, a * 2)
    got = d.get(stream=stream, blocking=True)
    assert_matches(got, a * 2)


@pytest.mark.gpu
def test_asnumpy_of_foreign_device_arrays(rng):
    a = random_array(rng, (7, 2), np.int8)

    result = numcu.asnumpy(CAIProducer().from_numpy(a))

    assert type(result) is np.ndarray
    assert_matches(result, a)


def device_or_host(rng, shape, dtype):
    """A device array where there is a GPU (the errors are the same for host data)."""
    a = random_array(rng, shape, dtype)
    return numcu.asarray(a) if gpu_available() else a


def test_asnumpy_out_errors(rng):
    x = device_or_host(rng, (4, 3), np.float32)
    readonly = np.zeros((4, 3), np.float32)
    readonly.flags.writeable = False

    with pytest.raises(
        ValueError, match=exact("numcu.asnumpy: out has shape (3, 4) but the array")
    ):
        numcu.asnumpy(x, out=np.empty((3, 4), np.float32))
    with pytest.raises(
        TypeError, match=exact("numcu.asnumpy: out has dtype float64 but the array")
    ):
        numcu.asnumpy(x, out=np.empty((4, 3), np.float64))
    with pytest.raises(ValueError, match=exact("numcu.asnumpy: out must be contiguous")):
        numcu.asnumpy(x, out=np.empty((4, 6), np.float32)[:, ::2])
    with pytest.raises(ValueError, match=exact("numcu.asnumpy: out is read-only")):
        numcu.asnumpy(x, out=readonly)
    with pytest.raises(TypeError, match=exact("numcu.asnumpy: out must be an array")):
        numcu.asnumpy(x, out=3)
    with pytest.raises(TypeError, match=exact("numcu.asnumpy: stream must be a CUDA stream")):
        numcu.asnumpy(x, stream="now")


@pytest.mark.gpu
def test_asnumpy_refuses_device_out(rng):
    x = numcu.asarray(random_array(rng, (3,), np.float32))

    with pytest.raises(TypeError, match=exact("numcu.asnumpy: out must be a host array")):
        numcu.asnumpy(x, out=numcu.empty(3, np.float32))
    with pytest.raises(TypeError, match=exact("numcu.ndarray.get: out must be a host array")):
        x.get(out=numcu.empty(3, np.float32))
    with pytest.raises(ValueError, match=exact("numcu.ndarray.get: out has shape (2,)")):
        x.get(out=np.empty(2, np.float32))
