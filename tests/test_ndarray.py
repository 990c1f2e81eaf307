"""numcu.ndarray, numcu.asarray and numcu.asnumpy: the device array and its way in and out.

Specification (all gpu):
- ``numcu.asarray(host_array)`` copies to the GPU; its attributes match NumPy's for the same
  data: shape, dtype, strides (bytes), size, ndim, nbytes, itemsize, len(); device.id is 0;
- ``__cuda_array_interface__`` is version 3 with typestr, shape, (pointer, readonly) data,
  strides None or a tuple, and a "stream" key;
- ``.get()`` returns a NumPy copy equal to the original, for every dtype and layout;
- ``numcu.asarray(dtype=...)`` converts; ``numcu.asnumpy`` brings any array to NumPy;
- ``np.asarray(device_array)`` refuses with a TypeError that points to ``.get()``.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DTYPES, assert_matches, random_array

import numcu

pytestmark = pytest.mark.gpu

SHAPES = [(), (0,), (3, 0), (1,), (7,), (1001,), (13, 17), (3, 4, 5)]

# Host layouts asarray must copy correctly: each a view of a larger array.
HOST_VIEWS = {
    "transposed": ((9, 6), lambda a: a.T),
    "reversed": ((101,), lambda a: a[::-1]),
    "negative_strides_2d": ((5, 14), lambda a: a[:, ::-2]),
    "strided_offset": ((30,), lambda a: a[2:-1:3]),
    "broadcast": ((1, 7), lambda a: np.broadcast_to(a, (5, 7))),
}


def c_strides(shape, itemsize):
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_get_round_trips(dtype, shape, rng):
    host = random_array(rng, shape, dtype)

    device_array = numcu.asarray(host)
    result = device_array.get()

    assert isinstance(device_array, numcu.ndarray)
    assert isinstance(result, (np.ndarray, np.generic))
    assert_matches(result, host)
    np.testing.assert_array_equal(result, host)  # bit-exact, not only close


@pytest.mark.parametrize("layout", HOST_VIEWS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_asarray_copies_any_host_layout(dtype, layout, rng):
    base_shape, view = HOST_VIEWS[layout]
    host = view(random_array(rng, base_shape, dtype))

    result = numcu.asarray(host).get()

    assert result.shape == host.shape
    assert result.dtype == host.dtype
    np.testing.assert_array_equal(result, host)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_attributes_match_numpy(dtype, rng):
    host = random_array(rng, (3, 4, 5), dtype)

    device_array = numcu.asarray(host)

    assert device_array.shape == (3, 4, 5)
    assert type(device_array.shape) is tuple
    assert device_array.dtype == host.dtype
    assert isinstance(device_array.dtype, np.dtype)
    assert device_array.strides == host.strides
    assert type(device_array.strides) is tuple
    assert device_array.size == host.size == 60
    assert device_array.ndim == 3
    assert device_array.itemsize == host.itemsize
    assert device_array.nbytes == host.nbytes
    assert len(device_array) == 3
    assert isinstance(device_array.device, numcu.cuda.Device)
    assert device_array.device.id == 0
    assert type(device_array.device.id) is int


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (7,)], ids=str)
def test_attributes_of_small_and_empty_arrays(shape, rng):
    host = random_array(rng, shape, np.float64)

    device_array = numcu.asarray(host)

    assert device_array.shape == shape
    assert device_array.size == host.size
    assert device_array.ndim == len(shape)
    assert device_array.nbytes == host.nbytes
    assert device_array.strides == c_strides(shape, 8) or device_array.size == 0
    if shape:
        assert len(device_array) == shape[0]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_cuda_array_interface(dtype, rng):
    host = random_array(rng, (4, 6), dtype)
    device_array = numcu.asarray(host)

    cai = device_array.__cuda_array_interface__

    assert cai["version"] == 3
    assert cai["typestr"] == host.dtype.str
    assert tuple(cai["shape"]) == (4, 6)
    pointer, readonly = cai["data"]
    assert isinstance(pointer, int)
    assert pointer != 0
    assert readonly is False
    assert cai["strides"] is None or tuple(cai["strides"]) == host.strides
    assert "stream" in cai
    assert cai["stream"] is None or isinstance(cai["stream"], int)
    assert cai.get("mask") is None
    assert pointer == device_array.__cuda_array_interface__["data"][0]  # stable


def test_cuda_array_interface_of_0d_and_empty(rng):
    zero_d = numcu.asarray(random_array(rng, (), np.int32)).__cuda_array_interface__
    empty = numcu.asarray(random_array(rng, (3, 0), np.int32)).__cuda_array_interface__

    assert tuple(zero_d["shape"]) == ()
    assert zero_d["data"][0] != 0
    assert tuple(empty["shape"]) == (3, 0)


def test_distinct_arrays_have_distinct_memory(rng):
    host = random_array(rng, (100,), np.float32)

    first, second = numcu.asarray(host), numcu.asarray(host)

    assert first.__cuda_array_interface__["data"][0] != second.__cuda_array_interface__["data"][0]


def test_get_returns_an_independent_copy(rng):
    host = random_array(rng, (50,), np.int16)
    original = host.copy()
    device_array = numcu.asarray(host)

    first = device_array.get()
    first[:] = 77
    host[:] = 77

    np.testing.assert_array_equal(device_array.get(), original)


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_asarray_dtype_converts(dtype, rng):
    host = random_array(rng, (5, 8), np.int16)

    device_array = numcu.asarray(host, dtype=dtype)

    assert device_array.dtype == np.dtype(dtype)
    assert_matches(device_array.get(), host.astype(dtype))


def test_asarray_of_device_array_shares_memory(rng):
    device_array = numcu.asarray(random_array(rng, (64,), np.float32))

    again = numcu.asarray(device_array)

    assert (
        again.__cuda_array_interface__["data"][0]
        == device_array.__cuda_array_interface__["data"][0]
    )


@pytest.mark.parametrize("dtype", ["bool", "uint8", "float16", "complex128"])
def test_asnumpy(dtype, rng):
    host = random_array(rng, (3, 7), dtype)

    from_device = numcu.asnumpy(numcu.asarray(host))
    from_host = numcu.asnumpy(host)

    assert type(from_device) is np.ndarray
    assert_matches(from_device, host)
    assert type(from_host) is np.ndarray
    assert_matches(from_host, host)


def test_repr_names_the_type_or_shows_the_values():
    host = np.array([11, 22, 33], np.int32)

    text = repr(numcu.asarray(host))

    assert "numcu.ndarray" in text or "[11, 22, 33]" in text or "[11 22 33]" in text


def test_numpy_asarray_refuses_with_a_pointer_to_get(rng):
    device_array = numcu.asarray(random_array(rng, (4,), np.float32))

    with pytest.raises(TypeError, match=r"\.get\(\)"):
        np.asarray(device_array)


def test_device_object():
    device = numcu.cuda.Device(0)

    assert device.id == 0
    assert numcu.cuda.device_count() >= 1
    numcu.cuda.synchronize()
