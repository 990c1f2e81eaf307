"""DLPack, both ways.

- Any object with ``__dlpack__``/``__dlpack_device__`` is an operand: host producers (NumPy's
  own DLPack export) run like NumPy arrays, GPU producers (PyTorch, CuPy, JAX) without a copy.
- Legacy ("dltensor") and versioned ("dltensor_versioned") capsules are both taken; a read-only
  versioned tensor cannot be `out`.
- ``numcu.ndarray.__dlpack__`` exports the same memory to PyTorch, CuPy and JAX, honouring
  ``max_version``, ``copy`` and ``dl_device``; ``numcu.from_dlpack`` imports.
- ``__dlpack__(dl_device=(kDLCPU, 0))`` exports to the host: a C-ordered copy, queued on the
  array's stream and complete when the capsule is returned, flagged as copied; ``copy=False``
  raises BufferError and a stream other than None ValueError. ``numpy.from_dlpack(x,
  device="cpu")`` therefore works on numcu arrays.
- ``numcu.from_dlpack(x, device=None, copy=None)``: by default where `x` is (NumPy arrays for
  host producers, numcu arrays sharing a GPU producer's memory); ``device="cpu"`` copies a GPU
  producer's data to the host, a GPU device copies host data to it; ``copy=True`` always
  copies, ``copy=False`` raises BufferError where a copy is needed.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from conftest import assert_matches, import_or_skip, jax_gpu, random_array
from dlpack_ctypes import DLManagedTensorVersioned

import numcu


class DLPackOnly:
    """Exposes only NumPy's DLPack methods: neither the buffer protocol nor NumPy's type.

    With `legacy`, the capsule is the pre-1.0 "dltensor" whatever the consumer asks for.
    """

    def __init__(self, array, legacy=False):
        self._array = array
        self._legacy = legacy

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self._legacy:
            return self._array.__dlpack__()
        return self._array.__dlpack__(max_version=max_version)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


class NotACapsule:
    def __dlpack__(self, **kwargs):
        return 42

    def __dlpack_device__(self):
        return (1, 0)


@pytest.mark.parametrize("legacy", [False, True], ids=["versioned", "legacy"])
@pytest.mark.parametrize("dtype", ["int16", "uint64", "float32", "complex128", "bool"])
def test_host_dlpack_producers_are_host_operands(dtype, legacy, host_backend, rng):
    x = random_array(rng, (5, 7), dtype)
    y = random_array(rng, (7,), dtype)

    result = numcu.multiply(
        DLPackOnly(x[:, ::-1], legacy), DLPackOnly(y, legacy), device=host_backend
    )

    assert_matches(result, np.multiply(x[:, ::-1], y))


def test_read_only_dlpack_tensor_cannot_be_out(rng):
    x = random_array(rng, (4,), np.float64)
    frozen = x.copy()
    frozen.flags.writeable = False

    with pytest.raises(ValueError, match="numcu.add: out is read-only"):
        numcu.add(x, x, out=DLPackOnly(frozen), device="cpu")


def test_dlpack_that_returns_no_capsule():
    with pytest.raises(ValueError, match="numcu.add: __dlpack__ did not return"):
        numcu.add(NotACapsule(), 1.0, device="cpu")


def test_from_dlpack_needs_dlpack():
    with pytest.raises(TypeError, match="numcu.from_dlpack: the object has no __dlpack__"):
        numcu.from_dlpack([1, 2, 3])


GPU_PRODUCERS = ["torch", "cupy", "jax"]


def make_gpu(library, a):
    """`a` on the GPU as `library`'s array, or skip."""
    if library == "torch":
        torch = import_or_skip("torch")
        if not torch.cuda.is_available():
            pytest.skip("torch sees no GPU")
        return torch.from_numpy(np.ascontiguousarray(a)).cuda()
    if library == "cupy":
        return import_or_skip("cupy").asarray(a)
    jax, device = jax_gpu()
    # JAX's host-to-device copy is asynchronous and its __dlpack__ does not order it before
    # the consumer's stream: wait for it here, as a JAX user must.
    return jax.device_put(a, device).block_until_ready()


def pointer_of(library, x):
    if library == "torch":
        return x.data_ptr()
    if library == "cupy":
        return x.data.ptr
    return x.unsafe_buffer_pointer()


def to_numpy(library, x):
    if library == "torch":
        return x.cpu().numpy()
    if library == "cupy":
        return x.get()
    return np.asarray(x)


@pytest.mark.gpu
@pytest.mark.parametrize("library", GPU_PRODUCERS)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_from_dlpack_is_zero_copy(library, dtype, rng):
    a = random_array(rng, (33, 5), dtype)
    x = make_gpu(library, a)

    d = numcu.from_dlpack(x)

    assert isinstance(d, numcu.ndarray)
    assert d.__cuda_array_interface__["data"][0] == pointer_of(library, x)
    assert_matches(d.get(), a)
    assert_matches(numcu.add(d, d).get(), a + a)


@pytest.mark.gpu
@pytest.mark.parametrize("library", GPU_PRODUCERS)
def test_gpu_dlpack_producer_as_operand(library, rng):
    a = random_array(rng, (64,), np.float32)
    b = random_array(rng, (64,), np.float32)
    x = make_gpu(library, a)

    class OnlyDLPack:
        def __dlpack__(self, **kwargs):
            return x.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return x.__dlpack_device__()

    result = numcu.subtract(OnlyDLPack(), numcu.asarray(b))

    assert_matches(result.get(), a - b)


@pytest.mark.gpu
@pytest.mark.parametrize("library", GPU_PRODUCERS)
@pytest.mark.parametrize("dtype", ["uint8", "int64", "float16", "float32", "complex128"])
def test_export_to_library_is_zero_copy(library, dtype, rng):
    a = random_array(rng, (6, 9), dtype)
    d = numcu.asarray(a)
    if library == "torch":
        torch = import_or_skip("torch")
        if dtype == "uint64":
            pytest.skip("torch has no uint64 arithmetic")
        x = torch.from_dlpack(d)
    elif library == "cupy":
        x = import_or_skip("cupy").from_dlpack(d)
    else:
        jax, _ = jax_gpu()
        x = jax.dlpack.from_dlpack(d)

    if library != "jax":  # JAX may copy into its own allocation
        assert pointer_of(library, x) == d.__cuda_array_interface__["data"][0]
    assert_matches(to_numpy(library, x), a)


@pytest.mark.gpu
def test_dlpack_export_protocol(rng):
    a = random_array(rng, (3, 4), np.float32)
    d = numcu.asarray(a)

    assert d.__dlpack_device__() == (2, d.device.id)
    assert "dltensor" in repr(d.__dlpack__())
    assert "dltensor_versioned" in repr(d.__dlpack__(max_version=(1, 0)))
    copied = numcu.from_dlpack(_Wrap(d, copy=True))
    assert copied.__cuda_array_interface__["data"][0] != d.__cuda_array_interface__["data"][0]
    assert_matches(copied.get(), a)
    for elsewhere in ((2, d.device.id + 99), (4, 0), (1, 1)):
        with pytest.raises(BufferError, match=r"numcu exports to its own device \(2, "):
            d.__dlpack__(dl_device=elsewhere)
    with pytest.raises(ValueError, match="stream=0"):
        d.__dlpack__(stream=0)


class _Wrap:
    """Forwards DLPack to a numcu array with fixed keyword arguments."""

    def __init__(self, array, **fixed):
        self._array = array
        self._fixed = fixed

    def __dlpack__(self, **kwargs):
        kwargs.update(self._fixed)
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


# --------------------------------------------------------------------------------------------
# Export to the host and from_dlpack in both directions

# A view of a (12, 7) device array `d` and the same view of its host copy `a`.
HOST_LAYOUTS = {
    "dense": lambda d: d,
    "strided": lambda d: d[::2, 1::3],
    "reversed": lambda d: d[::-1, ::-2],
    "transposed": lambda d: d.T,
    "empty": lambda d: d[:0],
    "0-d": lambda d: d[3, 4],
}


def capsule_tensor(capsule):
    """The DLManagedTensorVersioned a "dltensor_versioned" capsule holds (not consumed)."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return DLManagedTensorVersioned.from_address(get(capsule, b"dltensor_versioned"))


@pytest.mark.gpu
@pytest.mark.parametrize("layout", HOST_LAYOUTS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float32", "complex128"])
def test_export_to_the_host(rng, dtype, layout):
    a = random_array(rng, (12, 7), dtype)
    view = HOST_LAYOUTS[layout]
    d = view(numcu.asarray(a))
    expected = np.array(view(a), order="C")
    for copy in (None, True):
        got = np.from_dlpack(d, device="cpu", copy=copy)
        assert type(got) is np.ndarray and got.flags.c_contiguous
        assert_matches(got, expected)
        # The consumer's own copy: writing it leaves the device array as it was.
        if got.size:
            got.reshape(-1)[0] = got.reshape(-1)[-1] if got.size > 1 else 0
        assert_matches(np.asarray(d.get()), expected)


@pytest.mark.gpu
def test_host_capsule_is_a_flagged_copy(rng):
    a = random_array(rng, (5, 4), np.float64)
    d = numcu.asarray(a)[:, ::2]
    capsule = d.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    m = capsule_tensor(capsule)
    assert (m.dl_tensor.device.device_type, m.dl_tensor.device.device_id) == (1, 0)
    assert m.flags & 2 and not m.flags & 1  # IS_COPIED, not READ_ONLY
    assert m.dl_tensor.data != d.__cuda_array_interface__["data"][0]
    assert [m.dl_tensor.strides[k] for k in range(2)] == [2, 1]
    legacy = d.__dlpack__(dl_device=(1, 0))
    assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    del capsule, legacy  # unconsumed capsules free their copies


@pytest.mark.gpu
def test_export_to_the_host_waits_for_the_arrays_stream(rng):
    """The copy is queued on the array's stream behind the work that writes it, and complete
    when the host has the capsule."""
    torch = import_or_skip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no GPU")
    a = random_array(rng, (1 << 20,), np.float32)
    src = numcu.asarray(a)
    busy = torch.cuda.Stream()
    with numcu.cuda.Stream(ptr=busy.cuda_stream):
        with torch.cuda.stream(busy):
            torch.cuda._sleep(200_000_000)
        d = numcu.multiply(src, 3)
    got = np.from_dlpack(d, device="cpu")
    assert_matches(got, a * np.float32(3))


@pytest.mark.gpu
def test_export_to_the_host_errors(rng):
    d = numcu.asarray(random_array(rng, (4,), np.float32))
    with pytest.raises(BufferError, match=r"__dlpack__: the array is in GPU memory: .*copy=False"):
        d.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match="copy=False"):
        np.from_dlpack(d, device="cpu", copy=False)
    with pytest.raises(ValueError, match="stream must be None when dl_device is the CPU"):
        d.__dlpack__(dl_device=(1, 0), stream=1)
    with pytest.raises(TypeError, match="dl_device must be a"):
        d.__dlpack__(dl_device=("cpu", 0))


def test_from_dlpack_of_host_data_stays_on_the_host(rng):
    a = random_array(rng, (6, 5), np.int32)
    for device in (None, "cpu"):
        got = numcu.from_dlpack(a, device=device)
        assert type(got) is np.ndarray and np.shares_memory(got, a)
        copied = numcu.from_dlpack(a, device=device, copy=True)
        assert not np.shares_memory(copied, a)
        assert_matches(copied, a)
        assert_matches(numcu.from_dlpack(DLPackOnly(a), device=device), a)
        assert np.shares_memory(numcu.from_dlpack(a, device=device, copy=False), a)


@pytest.mark.gpu
def test_from_dlpack_to_and_from_the_gpu(rng):
    a = random_array(rng, (6, 5), np.complex64)
    d = numcu.asarray(a)
    for device in ("cuda", numcu.cuda.Device(0), d.device):
        up = numcu.from_dlpack(a, device=device)
        assert isinstance(up, numcu.ndarray) and up.device == d.device
        assert_matches(up.get(), a)
        with pytest.raises(BufferError, match="copied to a GPU, but copy=False"):
            numcu.from_dlpack(a, device=device, copy=False)
    down = numcu.from_dlpack(d, device="cpu")
    assert type(down) is np.ndarray
    assert_matches(down, a)
    with pytest.raises(BufferError, match="copy=False"):
        numcu.from_dlpack(d, device="cpu", copy=False)
    same = numcu.from_dlpack(d)
    assert same.__cuda_array_interface__["data"][0] == d.__cuda_array_interface__["data"][0]
    assert numcu.from_dlpack(d, device=d.device, copy=False).device == d.device
    copied = numcu.from_dlpack(d, copy=True)
    assert copied.__cuda_array_interface__["data"][0] != d.__cuda_array_interface__["data"][0]
    assert_matches(copied.get(), a)


@pytest.mark.gpu
@pytest.mark.parametrize("library", ["torch", "cupy"])  # JAX's path in is the tests' above
def test_from_dlpack_of_another_librarys_gpu_array_to_the_host(library, rng):
    a = random_array(rng, (9, 4), np.float64)
    x = make_gpu(library, a)
    got = numcu.from_dlpack(x, device="cpu")
    assert type(got) is np.ndarray
    assert_matches(got, a)
