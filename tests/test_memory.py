"""Memory kinds: device (the default), managed and pinned; ndarray.memory and
numcu.cuda.memory_kind.

Specification:
- ``memory='managed'`` arrays are numcu.ndarrays (``memory == "managed"``) that also export the
  buffer protocol: ``numpy.asarray`` views them without a copy (the same address as their
  ``__cuda_array_interface__``). After numcu's work and a synchronisation the view holds the
  results; what NumPy writes there, numcu reads. Views keep the memory kind; results of
  operations are device memory. Device memory still refuses NumPy (TypeError / BufferError).
- host data mixes with managed arrays as AMYPAD NumCu's users expect: host inputs with a managed
  ``out``/``output`` (numcu's or another library's managed memory, through its CAI) run on the
  GPU and fill the managed array; host with plain device memory is still a ValueError.
- ``memory='pinned'`` arrays are plain numpy.ndarrays in page-locked memory (memory_kind
  "pinned"), which every numcu function takes like any NumPy array, and which asarray/asnumpy
  copy to and from directly.
- ``numcu.cuda.memory_kind(x)`` says "host", "pinned", "device" or "managed" for an array or an
  address; ndarray.memory is "device", "managed" or "foreign".
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from conftest import CAIArray, CAIProducer, assert_matches, poisoned, random_array

import numcu


def address(x):
    if isinstance(x, np.ndarray):
        return x.__array_interface__["data"][0]
    return x.__cuda_array_interface__["data"][0]


# --------------------------------------------------------------------------------------------
# Without a GPU too
# --------------------------------------------------------------------------------------------


def test_memory_kind_of_host_memory(rng):
    a = random_array(rng, (5,), np.float32)

    assert numcu.cuda.memory_kind(a) == "host"
    assert numcu.cuda.memory_kind(address(a)) == "host"
    assert numcu.cuda.memory_kind(memoryview(bytearray(8))) == "host"


def test_memory_kind_needs_an_array():
    with pytest.raises(TypeError, match=r"^numcu\.cuda\.memory_kind: expected an array"):
        numcu.cuda.memory_kind(2.5)


# --------------------------------------------------------------------------------------------
# Managed memory
# --------------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
def test_managed_arrays_are_viewed_by_numpy(dtype, rng):
    a = random_array(rng, (6, 7), dtype)
    m = numcu.empty(a.shape, dtype, memory="managed")

    m[...] = a
    numcu.cuda.synchronize()
    view = np.asarray(m)

    assert isinstance(m, numcu.ndarray)
    assert m.memory == "managed"
    assert numcu.cuda.memory_kind(m) == "managed"
    assert type(view) is np.ndarray
    assert view.dtype == np.dtype(dtype) and view.shape == a.shape
    assert address(view) == address(m)
    assert_matches(view, a)
    assert "memory='managed'" in repr(m)


@pytest.mark.gpu
def test_managed_results_of_numcu_work(rng):
    a = random_array(rng, (1000,), np.float32)
    b = random_array(rng, (1000,), np.float32)
    m = numcu.full(a.shape, np.nan, np.float32, memory="managed")
    view = np.asarray(m)

    numcu.add(numcu.asarray(a), numcu.asarray(b), out=m)
    numcu.cuda.synchronize()

    assert_matches(view, a + b)
    total = numcu.sum(m)
    assert isinstance(total, numcu.ndarray)
    assert total.memory == "device"  # results of operations are device memory
    np.testing.assert_allclose(float(total), np.sum(a + b, dtype=np.float32), rtol=1e-5)


@pytest.mark.gpu
def test_numpy_writes_are_seen_by_numcu(rng):
    a = random_array(rng, (64, 3), np.int32)
    m = numcu.zeros(a.shape, np.int32, memory="managed")
    numcu.cuda.synchronize()

    np.asarray(m)[...] = a
    doubled = numcu.multiply(m, 2)

    assert_matches(doubled.get(), a * 2)
    assert_matches(m.get(), a)


@pytest.mark.gpu
def test_views_of_managed_arrays(rng):
    a = random_array(rng, (8, 10), np.float64)
    m = numcu.asarray(numcu.zeros(a.shape, memory="managed"))
    m[...] = a
    numcu.cuda.synchronize()

    for index in (np.s_[2:5], np.s_[:, ::3], np.s_[::-1, 1], np.s_[3, 4]):
        view = m[index]
        assert view.memory == "managed"
        host = np.asarray(view)
        assert host.shape == np.shape(a[index])
        np.testing.assert_array_equal(host, a[index])
    transposed = np.asarray(m.T)
    assert address(transposed) == address(m)
    assert_matches(transposed, a.T)


@pytest.mark.gpu
def test_managed_memory_through_the_buffer_protocol(rng):
    m = numcu.arange(12, dtype=np.int64, memory="managed").reshape(3, 4)
    numcu.cuda.synchronize()

    buffer = memoryview(m)

    assert buffer.shape == (3, 4) and buffer.itemsize == 8 and not buffer.readonly
    assert buffer.tolist() == np.arange(12).reshape(3, 4).tolist()
    buffer.release()


@pytest.mark.gpu
def test_numpy_views_of_managed_memory_go_back_without_a_copy(rng):
    a = random_array(rng, (20,), np.float32)
    m = numcu.asarray(a, dtype=np.float32)  # device memory, for contrast
    managed = numcu.empty(20, np.float32, memory="managed")
    managed[...] = m
    numcu.cuda.synchronize()
    host_view = np.asarray(managed)

    again = numcu.asarray(host_view, copy=False)
    on_host = numcu.asarray(managed, device="cpu", copy=False)

    assert address(again) == address(managed)
    assert again.memory == "foreign"
    assert_matches(again.get(), a)
    assert type(on_host) is np.ndarray and address(on_host) == address(managed)


@pytest.mark.gpu
def test_device_memory_refuses_numpy(rng):
    d = numcu.asarray(random_array(rng, (4,), np.float32))

    assert d.memory == "device"
    assert numcu.cuda.memory_kind(d) == "device"
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        np.asarray(d)
    with pytest.raises(BufferError, match="memory='managed'"):
        memoryview(d)


@pytest.mark.gpu
def test_foreign_memory(rng):
    foreign = numcu.asarray(CAIProducer().from_numpy(random_array(rng, (3,), np.int16)))

    assert foreign.memory == "foreign"


@pytest.mark.gpu
def test_many_managed_arrays_are_freed():
    for _ in range(200):
        m = numcu.ones(1 << 16, np.float64, memory="managed")
        numcu.multiply(m, 3.0, out=m)
    numcu.cuda.synchronize()
    assert_matches(np.asarray(m), np.full(1 << 16, 3.0))
    del m
    gc.collect()


@pytest.mark.gpu
def test_small_device_blocks_come_back(rng):
    # Small blocks freed on the default stream go back to the pool in batches: results and
    # scratch dropped without a synchronisation are all returned by the next one, and memory
    # reused meanwhile holds the right values.
    a = random_array(rng, (1 << 20,), np.float32)
    x = numcu.asarray(a)
    numcu.cuda.synchronize()
    before = numcu.cuda.memory_info()["used_bytes"]
    for _ in range(300):
        numcu.sum(x)
    kept = [numcu.sum(x) for _ in range(100)]
    numcu.cuda.synchronize()
    expected = np.sum(a, dtype=np.float64)
    values = {float(r.get()) for r in kept}
    assert len(values) == 1
    np.testing.assert_allclose(values.pop(), expected, rtol=1e-5)
    del kept
    numcu.cuda.synchronize()
    assert numcu.cuda.memory_info()["used_bytes"] == before


@pytest.mark.gpu
def test_a_small_block_waiting_to_be_freed_is_taken_back_only_when_nothing_holds_it(rng):
    # An allocation of the size of a small block freed on the default stream takes that block
    # back (the pool's own stream-ordered reuse, without asking CUDA); a block a view still holds
    # is not free, and a block of another size is not taken.
    a = random_array(rng, (1000,), np.float32)
    x = numcu.asarray(a)
    numcu.cuda.synchronize()  # the blocks waiting until now go back to the pool
    y = numcu.multiply(x, 2.0)
    view = y[10:20]
    place = address(y)
    del y
    z = numcu.multiply(x, 3.0)  # y's block is held by the view
    assert address(z) != place
    np.testing.assert_array_equal(view.get(), a[10:20] * np.float32(2))
    del view
    w = numcu.multiply(x, 4.0)  # free now: taken back, after y's work in stream order
    assert address(w) == place
    del w
    shorter = numcu.asarray(a[:999])
    u = numcu.multiply(shorter, 5.0)  # another size: w's block stays where it waits
    assert place not in (address(shorter), address(u))
    v = numcu.multiply(x, 6.0)
    assert address(v) == place
    np.testing.assert_array_equal(z.get(), a * np.float32(3))
    np.testing.assert_array_equal(u.get(), a[:999] * np.float32(5))
    np.testing.assert_array_equal(v.get(), a * np.float32(6))


# --------------------------------------------------------------------------------------------
# Pinned memory
# --------------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32", "complex128"])
def test_pinned_arrays_are_numpy_arrays(dtype, rng):
    a = random_array(rng, (9, 4), dtype)

    p = numcu.empty(a.shape, dtype, memory="pinned")
    p[...] = a

    assert type(p) is np.ndarray
    assert p.flags["C_CONTIGUOUS"] and p.flags["WRITEABLE"]
    assert numcu.cuda.memory_kind(p) == "pinned"
    assert numcu.cuda.memory_kind(p[2:]) == "pinned"
    assert numcu.cuda.memory_kind(address(p)) == "pinned"
    assert_matches(p, a)


@pytest.mark.gpu
def test_pinned_arrays_through_numcu(rng):
    a = random_array(rng, (1 << 16,), np.float32)
    b = random_array(rng, (1 << 16,), np.float32)
    pa = numcu.empty_like(a, memory="pinned")
    pb = numcu.empty_like(b, memory="pinned")
    pa[...] = a
    pb[...] = b

    on_gpu = numcu.add(pa, pb, device="cuda")
    on_cpu = numcu.add(pa, pb, device="cpu")
    device = numcu.asarray(pa)
    back = numcu.zeros_like(a, memory="pinned")
    numcu.asnumpy(numcu.multiply(device, pb[0]), out=back)

    assert type(on_gpu) is np.ndarray
    assert_matches(on_gpu, a + b)
    assert_matches(on_cpu, a + b)
    assert_matches(device.get(), a)
    assert_matches(back, a * b[0])


@pytest.mark.gpu
def test_pinned_memory_outlives_its_views_and_is_freed():
    p = numcu.arange(1000, dtype=np.int32, memory="pinned")
    view = p[10:20]
    del p
    gc.collect()

    assert_matches(view, np.arange(10, 20, dtype=np.int32))
    for _ in range(50):
        numcu.ones(1 << 18, memory="pinned")
    gc.collect()


@pytest.mark.gpu
@pytest.mark.parametrize("keyword", ["out", "output"])
def test_host_inputs_into_a_managed_output(keyword, rng):
    a = random_array(rng, (1000,), np.float32)
    b = random_array(rng, (1000,), np.float32)
    m = numcu.full(1000, np.nan, dtype="float32", memory="managed")
    returned = numcu.mul(a, b, **{keyword: m})
    numcu.cuda.synchronize()
    assert returned is m
    assert_matches(np.asarray(m), a * b)


@pytest.mark.gpu
def test_host_and_managed_inputs_mix(rng):
    a = random_array(rng, (7, 9), np.float64)
    m = numcu.asarray(random_array(rng, (9,), np.float64))
    managed = numcu.zeros(9, dtype="float64", memory="managed")
    managed[...] = m
    r = numcu.add(a, managed)
    assert isinstance(r, numcu.ndarray)
    assert_matches(r.get(), a + m.get())
    assert_matches(numcu.sum(a, axis=0, out=numcu.zeros(9, memory="managed")).get(), a.sum(0))


@pytest.mark.gpu
def test_foreign_managed_memory_through_its_interface(rng):
    """A CuVec-like object: another library's managed memory, seen through its CAI."""
    managed = numcu.zeros(100, dtype="float32", memory="managed")
    cai = managed.__cuda_array_interface__
    foreign = CAIArray(managed, cai["data"][0], (100,), np.float32)
    a = random_array(rng, (100,), np.float32)
    numcu.add(a, 1.5, out=foreign)
    numcu.cuda.synchronize()
    assert_matches(np.asarray(managed), a + np.float32(1.5))


@pytest.mark.gpu
def test_host_with_plain_device_memory_still_refused(rng):
    a = random_array(rng, (10,), np.float32)
    d = numcu.asarray(poisoned((10,), np.float32))
    with pytest.raises(ValueError, match=r"numcu\.add: operands are on different devices"):
        numcu.add(a, a, out=d)
