"""Several GPUs in one process: arrays on any device, copies between devices, operations that
mix devices refused, the caller's current device left alone, threads driving different GPUs.

Every test needs two GPUs and skips with fewer. NumPy on fresh random data is the oracle.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import warnings

import numpy as np
import pytest
from conftest import assert_matches, import_or_skip, random_array

import numcu

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(numcu.cuda.device_count() < 2, reason="needs two CUDA devices"),
]


def runtime_device():
    """The CUDA runtime's current device of this thread, as other libraries see it."""
    return numcu.empty((1,), np.uint8).device.id


@pytest.fixture(autouse=True)
def _start_on_device_0():
    with numcu.cuda.Device(0):
        yield


@pytest.mark.parametrize("device", ["cuda:1", 1, numcu.cuda.Device(1)])
def test_create_and_compute_on_device_1(rng, device):
    a, b = random_array(rng, (300, 7), np.float32), random_array(rng, (7,), np.float32)
    x = numcu.asarray(a, device=device)
    y = numcu.asarray(b, device=device)
    assert x.device == numcu.cuda.Device(1) and y.device.id == 1
    z = numcu.sin(x) * y + 1
    assert z.device.id == 1
    # sin is within a few units in the last place of NumPy's, and adding 1 to a product near -1
    # leaves that error on a small result: an absolute tolerance of a few ulps of 1 as well.
    assert_matches(z.get(), np.sin(a) * b + np.float32(1), rtol=1e-5, atol=1e-6)
    s = numcu.sum(z, axis=0)
    assert s.device.id == 1
    assert_matches(s.get(), np.sum(np.sin(a) * b + np.float32(1), axis=0), rtol=1e-5)
    for make in (numcu.zeros, numcu.ones, numcu.empty):
        assert make((3, 2), device=device).device.id == 1
    assert numcu.arange(10, device=device).device.id == 1


def test_operations_leave_current_device_alone(rng):
    x1 = numcu.asarray(random_array(rng, (50,), np.float64), device="cuda:1")
    assert runtime_device() == 0
    numcu.exp(x1)
    numcu.sum(x1)
    x1.copy()
    x1[3:7] = 2.5
    x1.get()
    numcu.zeros(4, device="cuda:1")
    numcu.cuda.memory_info(1)
    numcu.cuda.synchronize(1)
    assert runtime_device() == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import cupy
        except Exception:  # not installed, or broken: nothing more to check
            return
    # CuPy's current device is the runtime's.
    assert cupy.cuda.runtime.getDevice() == 0


def test_device_context(rng):
    a = random_array(rng, (64,), np.int32)
    with numcu.cuda.Device(1):
        x = numcu.asarray(a)
        assert x.device.id == 1
        assert numcu.add(x, 1).device.id == 1
        with numcu.cuda.Device(0):
            assert numcu.asarray(a).device.id == 0
        assert numcu.zeros(3).device.id == 1
    assert numcu.zeros(3).device.id == 0
    assert_matches(x.get(), a)


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
@pytest.mark.parametrize("layout", ["c", "transposed", "strided"])
@pytest.mark.parametrize(("src", "dst"), [(0, 1), (1, 0)])
def test_copy_between_devices(rng, dtype, layout, src, dst):
    a = random_array(rng, (33, 20), dtype)
    x = numcu.asarray(a, device=src)
    view = {"c": x, "transposed": x.T, "strided": x[::3, ::-2]}[layout]
    expected = {"c": a, "transposed": a.T, "strided": a[::3, ::-2]}[layout]
    y = numcu.asarray(view, device=f"cuda:{dst}")
    assert y.device.id == dst
    # Work queued right after the copy, on both sides, sees the copied values.
    z = y + 0
    view[...] = 0
    assert_matches(z.get(), expected)
    source = numcu.asarray(expected, device=src)
    converted = numcu.asarray(source, dtype=np.complex128, device=dst)
    assert converted.device.id == dst and converted.dtype == np.complex128
    assert_matches(converted.get(), expected.astype(np.complex128))
    if hasattr(source, "to_device"):
        moved = source.to_device(f"cuda:{dst}")
        assert moved.device.id == dst
        assert_matches(moved.get(), expected)


def test_copy_between_devices_staged(rng):
    """Copies between the GPUs by CUDA's staged route, their pools not shared, as between GPUs
    that cannot reach each other: in a new process, where no copy has paired the two yet."""
    seed = int(rng.integers(1 << 31))
    script = textwrap.dedent(
        f"""
        import numpy as np
        import numcu
        numcu._core._force_staged_copies(True)
        rng = np.random.default_rng({seed})
        a = rng.standard_normal((257, 33)).astype(np.float32)
        for src, dst in ((0, 1), (1, 0)):
            x = numcu.asarray(a, device=src)
            for view, want in ((x, a), (x.T, a.T), (x[::3, ::-2], a[::3, ::-2])):
                y = numcu.asarray(view, device=dst)
                assert y.device.id == dst
                np.testing.assert_array_equal(y.get(), want)
                z = numcu.asarray(view, dtype=np.float64, device=dst)
                np.testing.assert_array_equal(z.get(), want.astype(np.float64))
        print("copied")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.split() == ["copied"], done.stderr


def test_copy_refused_without_copy():
    x = numcu.zeros(5, device=0)
    with pytest.raises(ValueError, match="cuda:0.*cuda:1"):
        numcu.asarray(x, device="cuda:1", copy=False)


@pytest.mark.parametrize("op", ["add", "multiply", "greater"])
def test_mixing_devices_is_refused(rng, op):
    x0 = numcu.asarray(random_array(rng, (8,), np.float32), device=0)
    x1 = numcu.asarray(random_array(rng, (8,), np.float32), device=1)
    with pytest.raises(ValueError, match=r"different devices: cuda:0 and cuda:1"):
        getattr(numcu, op)(x0, x1)
    with pytest.raises(ValueError, match=r"different devices"):
        getattr(numcu, op)(
            x0, 1, out=numcu.empty(8, x0.dtype if op != "greater" else bool, device=1)
        )
    with pytest.raises(ValueError, match=r"cuda:1"):
        numcu.sum(x1, device="cuda:0")


def test_streams_per_device(rng):
    a = random_array(rng, (1000,), np.float32)
    with numcu.cuda.Device(1):
        s1 = numcu.cuda.Stream()
        x = numcu.asarray(a)
        with s1:
            y = numcu.multiply(x, 2)
        s1.synchronize()
    assert_matches(y.get(), a * 2)


def test_threads_drive_different_devices(rng):
    data = [random_array(rng, (1 << 16,), np.float32) for _ in range(2)]
    results, errors = {}, []

    def work(device):
        try:
            with numcu.cuda.Device(device):
                x = numcu.asarray(data[device])
                for _ in range(20):
                    x = numcu.add(numcu.multiply(x, 0.5), 1.0)
                results[device] = (x.device.id, numcu.zeros(1).device.id, x.get())
        except Exception as exc:  # reported below, in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for device in (0, 1):
        expected = data[device]
        for _ in range(20):
            expected = expected * np.float32(0.5) + np.float32(1.0)
        got_device, default_device, got = results[device]
        assert got_device == device and default_device == device
        assert_matches(got, expected, rtol=1e-5)


def test_memory_pools_per_device():
    before = [numcu.cuda.memory_info(d)["used_bytes"] for d in (0, 1)]
    x = numcu.empty(1 << 22, np.uint8, device=1)
    after = [numcu.cuda.memory_info(d)["used_bytes"] for d in (0, 1)]
    assert after[1] - before[1] >= 1 << 22
    assert after[0] == before[0]
    del x


def test_foreign_array_on_device_1(rng):
    cupy = import_or_skip("cupy")
    a = random_array(rng, (40,), np.float64)
    with cupy.cuda.Device(1):
        c = cupy.asarray(a)
    r = numcu.sqrt(numcu.abs(c))
    assert isinstance(r, numcu.ndarray) and r.device.id == 1
    assert_matches(r.get(), np.sqrt(np.abs(a)))
    assert cupy.cuda.runtime.getDevice() == 0


def test_cupy_array_joins_the_stream_current_on_its_device(rng):
    """A CuPy array on device 1, read while device 0 is current: its data is ready on CuPy's
    current stream of device 1, which intake joins, while device 0's current stream is another."""
    cupy = import_or_skip("cupy")
    a, b = random_array(rng, (1 << 16,), np.float32), random_array(rng, (1 << 16,), np.float32)
    with cupy.cuda.Device(1):
        side = cupy.cuda.Stream(non_blocking=True)
        with side:
            c = cupy.asarray(a) * 3
            assert numcu._core._intake_info(c)["stream"] == side.ptr
    with cupy.cuda.Device(1):
        side.use()
    try:
        other = cupy.cuda.Stream(non_blocking=True)  # device 0's
        with other:
            assert cupy.cuda.runtime.getDevice() == 0
            info = numcu._core._intake_info(c)
            assert info["device"] == 1 and info["stream"] == side.ptr
            x = numcu.asarray(b, device=1)
            with numcu.cuda.Device(1):
                r = numcu.add(c, x)
            assert_matches(r.get(), a * np.float32(3) + b)
    finally:
        with cupy.cuda.Device(1):
            cupy.cuda.Stream.null.use()
