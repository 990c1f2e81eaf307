"""No hidden device-to-host synchronisation: every function returns while the GPU is busy.

Specification:
- every function numcu has that takes device arrays and queues work (each ufunc of the ufunc
  table, where, clip, astype, every reduction and scan, the creation functions on a device,
  asarray's device copies, the array methods that compute, sort, argsort, searchsorted, take,
  take_along_axis, matmul) returns before earlier work on its
  stream has finished: it never waits for the GPU;
- the lists come from numcu's own tables (numcu.UFUNCS, numcu.REDUCTIONS), so a function added
  to a table is checked without touching this file.

Method: PyTorch's ``torch.cuda._sleep`` keeps a stream busy for about a second; each function
then runs on that stream (``stream=`` the stream's handle), and the stream must still be busy
right after each call returns. A call that waited for the GPU would find the sleep finished.
Every function runs once beforehand, so that lazily loaded kernels are loaded outside the
measured window.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import gpu_available

import numcu

pytestmark = pytest.mark.gpu


def _dtype_for(name):
    """A dtype NumPy has a loop for: float64, else int64 (bitwise functions and shifts)."""
    ufunc = getattr(np, name)
    for dtype in (np.float64, np.int64):
        try:
            with np.errstate(all="ignore"):
                ufunc(*[np.ones(2, dtype=dtype)] * ufunc.nin)
            return dtype
        except TypeError:
            continue
    raise AssertionError(f"no dtype for {name}")


def _calls():
    """(label, function of (arrays, stream) that queues work) for every operation."""
    calls = []
    for name in numcu.UFUNCS:
        dtype = _dtype_for(name)
        arity = getattr(np, name).nin

        def call(a, s, name=name, dtype=dtype, arity=arity):
            x = a[np.dtype(dtype).name]
            return getattr(numcu, name)(*([x] * arity), stream=s)

        calls.append((name, call))
        if arity == 2:

            def call_out(a, s, name=name, dtype=dtype):
                x = a[np.dtype(dtype).name]
                return getattr(numcu, name)(x, x, out=a["out_" + np.dtype(dtype).name], stream=s)

            calls.append((name + "(out=)", call_out))
    for name in numcu.REDUCTIONS:
        fn = getattr(numcu, name)
        calls.append((name, lambda a, s, fn=fn: fn(a["float64_2d"], stream=s)))
        calls.append((name + "(axis=0)", lambda a, s, fn=fn: fn(a["float64_2d"], axis=0, stream=s)))
    calls += [
        ("where", lambda a, s: numcu.where(a["bool"], a["float64"], 0.5, stream=s)),
        ("clip", lambda a, s: numcu.clip(a["float64"], 0.2, 0.8, stream=s)),
        ("astype", lambda a, s: numcu.astype(a["float64"], "float32", stream=s)),
        ("div", lambda a, s: numcu.div(a["float64"], a["float64"], stream=s)),
        ("mul", lambda a, s: numcu.mul(a["float64"], a["float64"], stream=s)),
        ("zeros", lambda a, s: numcu.zeros(1000, stream=s)),
        ("full", lambda a, s: numcu.full(1000, 2.5, stream=s)),
        ("arange", lambda a, s: numcu.arange(1000, stream=s)),
        ("linspace", lambda a, s: numcu.linspace(0, 1, 1000, stream=s)),
        ("zeros_like", lambda a, s: numcu.zeros_like(a["float64"], stream=s)),
        ("asarray(dtype=)", lambda a, s: numcu.asarray(a["float64"], "float32", stream=s)),
        ("asarray(copy=True)", lambda a, s: numcu.asarray(a["float64"], copy=True, stream=s)),
        ("sort", lambda a, s: numcu.sort(a["float64_2d"], axis=0, stream=s)),
        ("argsort", lambda a, s: numcu.argsort(a["float64"], stream=s)),
        ("searchsorted", lambda a, s: numcu.searchsorted(a["float64"], a["float64"], stream=s)),
        ("take", lambda a, s: numcu.take(a["float64"], a["int64"], stream=s)),
        (
            "take_along_axis",
            lambda a, s: numcu.take_along_axis(a["float64"], a["int64"], axis=0, stream=s),
        ),
        ("matmul", lambda a, s: numcu._core._matmul(a["float64_2d"], a["float64_2d"].T, stream=s)),
        ("matmul(int64)", lambda a, s: numcu._core._matmul(a["int64_2d"], a["int64_2d"], stream=s)),
    ]
    return calls


@pytest.mark.skipif(not gpu_available(), reason="needs a CUDA device")
def test_no_function_waits_for_the_gpu():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    rng = np.random.default_rng(7)
    arrays = {
        "float64": numcu.asarray(rng.random(1000)),
        "int64": numcu.asarray(rng.integers(1, 50, 1000)),
        "bool": numcu.asarray(rng.random(1000) < 0.5),
        "float64_2d": numcu.asarray(rng.random((40, 25))),
        "int64_2d": numcu.asarray(rng.integers(1, 50, (30, 30))),
        "out_float64": numcu.asarray(np.empty(1000)),
        "out_int64": numcu.asarray(np.empty(1000, dtype=np.int64)),
    }
    calls = _calls()
    stream = torch.cuda.Stream()
    handle = stream.cuda_stream
    for _, call in calls:  # load every kernel before the measured window
        call(arrays, handle)
    numcu.cuda.synchronize()
    stream.synchronize()

    with torch.cuda.stream(stream):
        torch.cuda._sleep(2_000_000_000)  # about a second at H100 clocks
    waited = []
    for label, call in calls:
        call(arrays, handle)
        if stream.query():
            waited.append(label)
            break
    stream.synchronize()
    assert not waited, f"returned only after the GPU's earlier work finished: {waited}"
