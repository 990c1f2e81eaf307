"""Host (NumPy) operands on the GPU path, and where host-only calls run.

On the GPU, host inputs move in chunks through page-locked staging (or pinned in place) on
several streams, and NumPy results land in blocks of a page-locked pool that go back when the
array dies. The tests make chunks tiny, so that a few elements cross several chunks and every
stream, and compare with NumPy for every layout: contiguous, strided, transposed, reversed,
broadcast, scalars, `out=` of every kind. The placement model (numcu.placement) is checked on any
machine.
"""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest
from conftest import assert_matches, poisoned, quiet, random_array

import numcu
from numcu import _core

gpu = pytest.mark.gpu

# Element counts around the chunk boundaries of CHUNK (bytes): 64 bytes hold 16 float32 or 8
# float64 elements.
CHUNK = 64
SIZES = (1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 100, 1000, 4099)


@pytest.fixture(params=[2, 3], ids=["streams2", "streams3"])
def small_chunks(request):
    """Every host operand of the GPU path chunked at CHUNK bytes, on 2 or 3 streams."""
    before = _core._host_path_config()
    _core._host_path_config(chunk_bytes=CHUNK, pipeline_min_bytes=0, streams=request.param)
    yield request.param
    _core._host_path_config(**before)


@pytest.fixture(params=[False, True], ids=["staged", "registered"])
def input_mode(request, small_chunks):
    """Pageable inputs staged by the CPU threads, or pinned in place per array."""
    _core._host_path_config(register_inputs=request.param, register_min_bytes=1)
    return request.param


def check(got, expected, what, **tol):
    """assert_matches, the failure naming the case."""
    try:
        assert_matches(got, expected, **tol)
    except AssertionError as e:
        raise AssertionError(f"{what}: {e}") from None


def summed(x):
    """Tolerances for sums of x, whose order of additions differs from NumPy's."""
    if x.dtype.kind not in "fc":
        return {}
    eps = float(np.finfo(x.dtype).eps)
    return {"rtol": 10 * eps, "atol": 4 * eps * float(np.abs(x).sum()) + eps}


def pool():
    return _core._host_pool_info()


def is_pooled(a):
    base = a
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    return type(base).__name__ == "PyCapsule"


# --------------------------------------------------------------------------------------------
# Elementwise functions, every layout, sizes around chunk boundaries
# --------------------------------------------------------------------------------------------


def layouts(rng, n, dtype):
    """(name, array of n or about n elements) for each layout the path must read."""
    a = random_array(rng, (2 * n + 3,), dtype)
    m = random_array(rng, (n, 3), dtype)
    return [
        ("contiguous", random_array(rng, (n,), dtype)),
        ("strided", a[1 : 2 * n + 1 : 2]),
        ("reversed", a[::-1][:n]),
        ("transposed", m.T),
        ("fortran", np.asfortranarray(random_array(rng, (3, n), dtype))),
        ("offset", a[3 : n + 3]),
    ]


@gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
def test_binary_layouts(rng, input_mode, n, dtype):
    for name, x in layouts(rng, n, dtype):
        y = random_array(rng, x.shape, dtype)
        for op in ("add", "multiply"):
            got = getattr(numcu, op)(x, y, device="cuda")
            check(got, getattr(np, op)(x, y), f"{op} {name} n={n}")


@gpu
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_layouts(rng, input_mode, n, dtype):
    for name, x in layouts(rng, n, dtype):
        for op in ("sin", "exp", "negative"):
            with quiet():
                expected = getattr(np, op)(x)
            got = getattr(numcu, op)(x, device="cuda")
            check(got, expected, f"{op} {name} n={n}")


@gpu
@pytest.mark.parametrize("n", (1, 15, 16, 17, 100))
def test_broadcast_scalars_and_promotion(rng, small_chunks, n):
    row = random_array(rng, (1, n), "float32")
    col = random_array(rng, (5, 1), "float64")
    assert_matches(numcu.add(row, col, device="cuda"), np.add(row, col))
    x = random_array(rng, (4, n), "int16")
    assert_matches(numcu.multiply(x, 2.5, device="cuda"), np.multiply(x, 2.5))
    assert_matches(numcu.subtract(3, x, device="cuda"), np.subtract(3, x))
    assert_matches(numcu.less(x, row, device="cuda"), np.less(x, row))
    cond = random_array(rng, (4, n), "bool")
    assert_matches(numcu.where(cond, x, row, device="cuda"), np.where(cond, x, row))


@gpu
@pytest.mark.parametrize("n", (1, 15, 16, 17, 33, 1000))
def test_out_every_kind(rng, input_mode, n):
    x = random_array(rng, (n,), "float32")
    y = random_array(rng, (n,), "float32")
    expected = np.add(x, y)
    # a contiguous out, a strided view, a reversed view, another dtype
    out = poisoned((n,), "float32")
    assert numcu.add(x, y, out=out, device="cuda") is out
    assert_matches(out, expected)
    big = poisoned((3 * n,), "float32")
    numcu.add(x, y, out=big[::3], device="cuda")
    assert_matches(big[::3], expected)
    assert np.isnan(big[1::3]).all() and np.isnan(big[2::3]).all()
    rev = poisoned((n,), "float32")
    numcu.add(x, y, out=rev[::-1], device="cuda")
    assert_matches(rev[::-1], expected)
    wide = poisoned((n,), "float64")
    numcu.add(x, y, out=wide, device="cuda")
    expected_wide = np.empty(n, np.float64)
    np.add(x, y, out=expected_wide)
    assert_matches(wide, expected_wide)
    # a pool result as the out of the next call (page-locked: copied into directly)
    r = numcu.multiply(x, y, device="cuda")
    numcu.add(x, y, out=r, device="cuda")
    assert_matches(r, expected)


@gpu
@pytest.mark.parametrize("n", (1, 16, 17, 1000))
def test_in_place_and_overlap(rng, small_chunks, n):
    x = random_array(rng, (n,), "float64")
    y = random_array(rng, (n,), "float64")
    expected = x + y
    numcu.add(x, y, out=x, device="cuda")
    assert_matches(x, expected)
    # an out that overlaps an input shifted by one element: NumPy's answer is as if every input
    # were read first
    a = random_array(rng, (n + 1,), "float64")
    expected = a[:-1] * 2.0
    numcu.multiply(a[:-1], 2.0, out=a[1:], device="cuda")
    assert_matches(a[1:], expected)


@gpu
def test_pool_results_as_inputs(rng, small_chunks):
    x = random_array(rng, (2000,), "float32")
    s = numcu.sin(x, device="cuda")
    assert is_pooled(s)
    assert_matches(numcu.exp(s, device="cuda"), np.exp(np.sin(x)), rtol=1e-5)
    assert_matches(numcu.add(s, s[::-1], device="cuda"), np.add(s, s[::-1]))


# --------------------------------------------------------------------------------------------
# Reductions and scans on host data
# --------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("n", (1, 15, 16, 17, 100, 1000))
@pytest.mark.parametrize("dtype", ["float32", "int32", "float64"])
def test_reductions_and_scans(rng, input_mode, n, dtype):
    for name, x in layouts(rng, n, dtype):
        tol = summed(x)
        check(numcu.sum(x, device="cuda"), np.sum(x), f"sum {name}", **tol)
        check(numcu.max(x, axis=0, device="cuda"), np.max(x, axis=0), f"max {name}")
        check(numcu.cumsum(x, device="cuda"), np.cumsum(x), f"cumsum {name}", **tol)
        if x.ndim == 2:
            check(numcu.sum(x, axis=1, device="cuda"), np.sum(x, axis=1), f"sum1 {name}", **tol)
            got = numcu.cumsum(x, axis=1, device="cuda")
            check(got, np.cumsum(x, axis=1), f"cumsum1 {name}", **tol)
    x = random_array(rng, (n,), dtype)
    out = poisoned((n,), "float64")
    numcu.cumsum(x, out=out, device="cuda")
    expected = np.empty(n, np.float64)
    np.cumsum(x, out=expected)
    check(out, expected, "cumsum out=", **summed(x))


# --------------------------------------------------------------------------------------------
# The pool: results are ordinary NumPy arrays whose blocks come back
# --------------------------------------------------------------------------------------------


@gpu
def test_results_are_ordinary_numpy_arrays(rng):
    x = random_array(rng, (1 << 16,), "float32")
    r = numcu.sin(x, device="cuda")
    assert type(r) is np.ndarray
    assert is_pooled(r)
    assert r.flags.writeable and r.flags.c_contiguous and r.flags.aligned
    r[0] = 5.0  # writable, like any result
    assert r[0] == 5.0
    import pickle

    back = pickle.loads(pickle.dumps(r))
    assert type(back) is np.ndarray and not is_pooled(back)
    np.testing.assert_array_equal(back, r)
    t = numcu.add(x.reshape(256, 256).T, 1.0, device="cuda")
    assert t.strides == (x.reshape(256, 256).T + 1.0).strides  # NumPy's order='K'
    assert not is_pooled(numcu.sin(x[:4], device="cuda"))  # small results: ordinary memory


@gpu
@pytest.mark.parametrize("func", ["sin", "add", "cumsum"])
def test_cpu_results_come_from_the_pool(rng, func):
    # Where there is a GPU, the CPU backend's large results live in blocks of the page-locked
    # pool too: their pages are faulted in once, not on every call.
    limit = _core._host_path_config()["cpu_pool_min_bytes"]
    x = random_array(rng, (limit // 4,), "float32")
    args = (x, x[::-1]) if func == "add" else (x,)
    start = pool()
    r = getattr(numcu, func)(*args, device="cpu")
    assert is_pooled(r) and type(r) is np.ndarray
    assert pool()["live_blocks"] == start["live_blocks"] + 1
    assert_matches(r, getattr(np, func)(*args))
    del r
    gc.collect()
    assert pool()["live_blocks"] == start["live_blocks"]
    small = getattr(numcu, func)(*(a[: limit // 4 - 1] for a in args), device="cpu")
    assert not is_pooled(small)
    assert_matches(small, getattr(np, func)(*(a[: limit // 4 - 1] for a in args)))


@gpu
def test_pool_blocks_return():
    _core._host_pool_release()
    x = np.random.default_rng(1).standard_normal(1 << 18).astype(np.float32)
    numcu.sin(x, device="cuda")  # the pool's first blocks (staging, result) made and returned
    gc.collect()
    start = pool()
    r = numcu.sin(x, device="cuda")
    held = pool()
    assert held["live_blocks"] == start["live_blocks"] + 1
    assert held["live_bytes"] >= r.nbytes
    view = r[10:20]
    del r
    gc.collect()
    assert pool()["live_blocks"] == start["live_blocks"] + 1  # the view keeps the block
    del view
    gc.collect()
    after = pool()
    assert after["live_blocks"] == start["live_blocks"]
    assert after["cached_bytes"] >= start["cached_bytes"]
    # the next result of that size reuses the block
    r = numcu.sin(x, device="cuda")
    assert pool()["hits"] > after["hits"]
    del r


@gpu
def test_no_leaks(rng, small_chunks):
    x = random_array(rng, (5000,), "float32")
    y = random_array(rng, (5000,), "float32")
    for _ in range(3):
        numcu.add(x, y, device="cuda")
    gc.collect()
    start = pool()
    for _ in range(200):
        numcu.add(x[::-1], y, device="cuda")
        numcu.sum(x[::2], device="cuda")
        numcu.cumsum(x, device="cuda")
    gc.collect()
    end = pool()
    assert end["live_blocks"] == start["live_blocks"]
    assert end["live_bytes"] == start["live_bytes"]
    assert end["cached_bytes"] <= end["cache_limit"]
    # staging and results of one size come from the cache after the first call
    assert end["misses"] - start["misses"] <= 8


@gpu
def test_registered_arrays_unregister_when_they_die(rng, small_chunks):
    _core._host_path_config(register_inputs=True, register_min_bytes=1 << 12)
    x = random_array(rng, (1 << 14,), "float32")
    y = random_array(rng, (1 << 14,), "float32")
    before = _core._host_registry_info()
    assert_matches(numcu.add(x, y, device="cuda"), np.add(x, y))
    during = _core._host_registry_info()
    assert during["arrays"] == before["arrays"] + 2
    assert during["bytes"] == before["bytes"] + x.nbytes + y.nbytes
    assert_matches(numcu.add(x, y, device="cuda"), np.add(x, y))  # cached, not pinned again
    assert _core._host_registry_info()["arrays"] == during["arrays"]
    del x, y
    gc.collect()
    assert _core._host_registry_info() == before


@gpu
def test_placement_counts_the_memory_numcu_page_locked(rng, small_chunks):
    # numcu.placement asks the call's own test: pool blocks and arrays pinned in place (and
    # views of them) are page-locked; ordinary NumPy memory is not.
    x = random_array(rng, (1 << 14,), "float32")
    pooled = numcu.negative(x, device="cuda")
    assert is_pooled(pooled) and _core._pinned_by_numcu(pooled)
    assert _core._pinned_by_numcu(pooled[::-2])
    assert not _core._pinned_by_numcu(x)
    _core._host_path_config(register_inputs=True, register_min_bytes=1 << 12)
    assert_matches(numcu.negative(x, device="cuda"), np.negative(x))
    assert _core._pinned_by_numcu(x) and _core._pinned_by_numcu(x[5:100])
    assert not _core._pinned_by_numcu(x.copy())


@gpu
def test_threads_share_the_path(rng, small_chunks):
    xs = [random_array(rng, (999,), "float32") for _ in range(4)]
    errors = []

    def work(x):
        try:
            for _ in range(20):
                assert_matches(numcu.multiply(x, x[::-1], device="cuda"), x * x[::-1])
                assert_matches(numcu.sum(x, device="cuda"), np.sum(x), rtol=1e-5)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(x,)) for x in xs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


# --------------------------------------------------------------------------------------------
# Placement of host-only calls
# --------------------------------------------------------------------------------------------


@pytest.fixture
def model():
    yield numcu.placement
    numcu.placement.reset()


def test_placement_constants_and_overrides(model):
    c = model.constants
    assert c["mode"] == "auto"
    for key in ("h2d_gbps", "d2h_gbps", "host_gbps_1", "host_gbps_max", "gpu_latency_s"):
        assert c[key] > 0
    changed = model.set(h2d_gbps=12.5, cpu_ns_transcendental=3.0)
    assert changed["h2d_gbps"] == 12.5 and changed["cpu_ns_transcendental"] == 3.0
    assert model.reset()["h2d_gbps"] == c["h2d_gbps"]
    with pytest.raises(ValueError, match="numcu.placement.set: mode must be"):
        model.set(mode="tpu")
    with pytest.raises(TypeError, match="unknown constant 'h2d'"):
        model.set(h2d=1.0)
    with pytest.raises(ValueError, match="h2d_gbps must be positive"):
        model.set(h2d_gbps=0)
    assert model.constants == c  # a refused change changes nothing


def test_placement_host_bandwidth_falls_to_the_large_figure(model):
    # no work per element, one GB/s per thread beyond reach: the CPU estimate is the bytes over
    # all threads' bandwidth, host_gbps_max up to 12 * 2^24 bytes, host_gbps_large from 12 * 2^26
    model.set(host_gbps_1=1e6, host_gbps_max=100.0, host_gbps_large=25.0, cpu_latency_s=0.0)
    model.set(cpu_ns_elementwise=0.0)

    def cpu_gbps(e):
        n = float(1 << e)
        est = numcu._core._placement_estimate("add", 8 * n, 0.0, 4 * n, 4 * n, True, n, 16)
        return 12 * n / est["cpu_s"] / 1e9

    assert cpu_gbps(20) == pytest.approx(100.0)
    assert cpu_gbps(24) == pytest.approx(100.0)
    assert cpu_gbps(25) == pytest.approx(62.5)  # halfway in log bytes
    assert cpu_gbps(26) == pytest.approx(25.0)
    assert cpu_gbps(28) == pytest.approx(25.0)
    model.set(host_gbps_large=0.0)  # 0: as host_gbps_max
    assert cpu_gbps(28) == pytest.approx(100.0)
    with pytest.raises(ValueError, match="host_gbps_large must be non-negative"):
        model.set(host_gbps_large=-1.0)


def test_placement_classes_and_estimates(model):
    small = np.ones(16, np.float32)
    big = np.ones(1 << 24, np.float32)
    assert model("sin", small)["op_class"] == "transcendental"
    assert model(numcu.add, small, small)["op_class"] == "elementwise"
    assert model(numcu.sum, big)["op_class"] == "reduction"
    assert model("cumsum", big)["op_class"] == "scan"
    # tiny work stays on the CPU (a GPU round trip costs tens of microseconds); a large float
    # function goes to the GPU under the default constants
    assert model("add", small, small)["model_choice"] == "cpu"
    e = model("sin", big, threads=1)
    assert e["model_choice"] == "cuda" and e["gpu_s"] < e["cpu_s"]
    assert e["in_bytes"] == big.nbytes and e["out_bytes"] == big.nbytes
    # slower copies move the crossover: the same call on a 1 GB/s link stays on the CPU
    model.set(h2d_gbps=0.5, d2h_gbps=0.5, duplex_gbps=0.5)
    assert model("sin", big, threads=16)["model_choice"] == "cpu"
    # a forced mode decides where a GPU is
    model.set(mode="cpu")
    d = model("sin", big)
    assert d["device"] == "cpu"
    if numcu.cuda.is_available():
        model.set(mode="cuda")
        assert model("add", small, small)["device"] == "cuda"
    else:
        assert "no CUDA device" in d["reason"]


def test_placement_is_the_calls_own(model):
    # numcu.placement runs the call up to its placement: the call's dtype rule (sin of int8
    # gives float16), its shape rule and its errors, and nothing is computed or written.
    x = np.ones(1 << 20, np.int8)
    e = model(numcu.sin, x)
    assert e["in_bytes"] == x.nbytes and e["out_bytes"] == 2 * x.size
    assert e["elements"] == x.size and e["op_class"] == "transcendental"
    col, row = np.ones((256, 1), np.float32), np.ones((1, 512), np.float64)
    e = model("add", col, row)
    assert e["out_bytes"] == 8 * 256 * 512 and e["largest_bytes"] == row.nbytes
    out = np.full(1 << 10, np.nan, np.float32)
    e = model(numcu.multiply, out, out, out=out)
    assert e["out_bytes"] == out.nbytes
    assert np.isnan(out).all()
    assert model(numcu.sum, x)["out_bytes"] == 0.0
    with pytest.raises(ValueError, match="operands could not be broadcast"):
        model(numcu.add, np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="numcu has no function 'sine'"):
        model("sine", x)
    with pytest.raises(TypeError, match="does not place work"):
        model(lambda a: a, x)
    # the probe is gone after each: calls compute again
    assert_matches(numcu.add(col, row), col + row)


@gpu
def test_default_placement_follows_the_model(rng, model):
    x = random_array(rng, (1 << 16,), "float32")
    model.set(mode="cuda")
    r = numcu.sin(x)
    assert is_pooled(r)  # came from the GPU path
    assert_matches(r, np.sin(x))
    model.set(mode="cpu")
    r = numcu.sin(x)
    assert not is_pooled(r)
    assert_matches(r, np.sin(x))
    model.set(mode="auto")
    assert model(numcu.add, x[:8], x[:8])["device"] == "cpu"
    assert not is_pooled(numcu.add(x[:2048], x[:2048]))
    # device= still forces a side whatever the model says
    model.set(mode="cpu")
    assert is_pooled(numcu.sin(x, device="cuda"))
