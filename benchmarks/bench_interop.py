"""Benchmark of numcu on other libraries' arrays, and of NumPy in, NumPy out with pinned inputs.

Times numcu with CuPy and PyTorch (each only when importable and able to run on the GPU;
numcu must run) in one run, on the same random inputs::

    python benchmarks/bench_interop.py            # full run
    python benchmarks/bench_interop.py --quick    # fewer repeats and synchronised calls
    python benchmarks/bench_interop.py --json results.json

What
----
- Add with out=, float32, n = 2^10, where the per-call cost is all there is:
  ``numcu.add(x, y, out=z)`` with x, y, z numcu arrays, CuPy arrays and PyTorch CUDA tensors
  (taken through ``__cuda_array_interface__``), side by side with ``cupy.add(x, y, out=z)``
  and ``torch.add(x, y, out=z)`` on their own arrays.
- The forms of ``stream=``, float32, n = 2^10: ``numcu.add(x, y, out=z, stream=s)`` on numcu
  arrays with ``s`` a numcu.cuda.Stream, a CuPy stream and a PyTorch stream, each as the
  object and as its raw int handle, next to no ``stream=``. A handle numcu did not create is
  checked once (its address, readable memory there, ``cudaStreamGetId``) and then looked up:
  the per-call rows show the lookup; "first call with a new handle" is the median time of the
  first call with each of 100 fresh CuPy streams' handles (the one-off check plus the call).
- NumPy in, NumPy out add, float32, n = 2^24: ``numcu.add(a, b)``;
  ``cp.asnumpy(cp.add(cp.asarray(a), cp.asarray(b)))``;
  ``torch.add(torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()).cpu().numpy()``;
  each on pageable inputs and on page-locked (pinned) inputs holding the same values: numcu's
  from ``numcu.empty((n,), "float32", memory="pinned")``, CuPy's from
  ``cupyx.empty_pinned``, PyTorch's from ``torch.empty(n, pin_memory=True).numpy()``. The
  results come back in new pageable arrays in every case. ``numpy.add`` on the CPU too.

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise; per call =
  wall / K. K is chosen so one measurement lasts at least 50 ms (K capped at 100,000), after
  three warm-up calls; the median of 5 measurements is reported (20 ms and 3 with --quick).
  numcu.add on a library's arrays and the library's own add take their measurements in turn.
- The extra time of numcu.add on other libraries' arrays over numcu arrays ("+us"): paired
  rounds, each timing K back-to-back calls on numcu arrays and K on the other arrays (order
  alternating, K as for numcu arrays); the median of the rounds' differences (21 rounds, 13 with
  --quick). A difference of two medians taken seconds apart moves with the host's load by
  more than the cost it measures. "+us x only" is the same with only x the other library's
  (y and out numcu arrays): what one foreign operand costs, the call's one-off reads of its
  library (its current stream) included.
- Synchronised each call: the median over 2000 single calls (300 with --quick), each followed
  by a device synchronisation: launch latency plus completion, as a caller who waits sees it.
- Every synchronisation waits for the whole device (the arrays' own library's, which is
  cudaDeviceSynchronize), so numcu's work on other libraries' arrays is covered whichever
  stream it runs on, and both adds on those arrays are timed with the same one.
- NumPy in, NumPy out: the median of 5 single calls (3 with --quick) after a warm-up call.
- Checked before timing: numcu's add with out= on each kind of array, into an out array
  poisoned with NaN (it must return out), and every NumPy-in/NumPy-out result, against
  ``numpy.add``. Whether the pinned inputs are page-locked is printed (as PyTorch, else CuPy,
  sees it).
- Ratios are the other library's time over numcu's: > 1, numcu is faster.

The per-call table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

N_SMALL = 1 << 10  # add with out=: the per-call cost
N_HOST = 1 << 24  # NumPy in, NumPy out
MEMORIES = ("pageable", "pinned")

HostAdd = Callable[[np.ndarray, np.ndarray], np.ndarray]


def random_pair(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two float32 arrays of n values in [0.5, 1.5): random, and never zero."""
    a = rng.random(n, dtype=np.float32)
    a += 0.5
    b = rng.random(n, dtype=np.float32)
    b += 0.5
    return a, b


def to_device(backend: timing.Backend, host: np.ndarray) -> Any:
    """A device copy of host, as the backend's own array type."""
    if backend.name == "torch":
        return backend.module.from_numpy(host).cuda()
    return backend.module.asarray(host)


def to_host(backend: timing.Backend, array: Any) -> np.ndarray:
    """A NumPy copy of one of the backend's device arrays."""
    if backend.name == "torch":
        return array.cpu().numpy()
    return backend.module.asnumpy(array)


def host_add(backend: timing.Backend) -> HostAdd:
    """The backend's NumPy-in, NumPy-out add: copies in, the add, the copy back."""
    if backend.name == "numcu":
        return backend.module.add
    if backend.name == "cupy":
        cp = backend.module
        return lambda a, b: cp.asnumpy(cp.add(cp.asarray(a), cp.asarray(b)))
    torch = backend.module
    return lambda a, b: (
        torch.add(torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()).cpu().numpy()
    )


def pinned_empty(backend: timing.Backend, n: int) -> np.ndarray | str:
    """An uninitialised float32 NumPy array of n values in page-locked memory from the backend.

    Returns a string saying why there is none when the backend cannot make one.
    """
    if backend.name == "numcu":
        try:
            array = backend.module.empty((n,), "float32", memory="pinned")
        except (TypeError, ValueError) as exc:  # an older numcu without memory=
            return f"numcu.empty(..., memory='pinned') failed ({type(exc).__name__}: {exc})"
    elif backend.name == "cupy":
        cupyx = timing.import_optional("cupyx")
        if isinstance(cupyx, str):
            return f"cupyx {cupyx}"
        array = cupyx.empty_pinned((n,), dtype=np.float32)
    else:
        torch = backend.module
        array = torch.empty(n, dtype=torch.float32, pin_memory=True).numpy()
    if type(array) is not np.ndarray or array.shape != (n,) or array.dtype != np.float32:
        return f"the pinned array is {type(array).__name__} {getattr(array, 'shape', '')}"
    return array


def page_locked(array: np.ndarray, backends: dict[str, timing.Backend]) -> bool | None:
    """Whether CUDA sees array's memory as page-locked host memory (None: no one to ask)."""
    if "torch" in backends:
        return bool(backends["torch"].module.from_numpy(array).is_pinned())
    if "cupy" in backends:
        runtime = backends["cupy"].module.cuda.runtime
        return runtime.pointerGetAttributes(array.ctypes.data).type == 1  # cudaMemoryTypeHost
    return None


def check_add_out(
    numcu: Any, backend: timing.Backend, x_host: np.ndarray, y_host: np.ndarray
) -> None:
    """Assert numcu.add(x, y, out=z) on the backend's arrays returns z holding numpy.add's."""
    x, y = to_device(backend, x_host), to_device(backend, y_host)
    z = to_device(backend, np.full(x_host.shape, np.nan, dtype=np.float32))  # poisoned
    returned = numcu.add(x, y, out=z)
    backend.synchronize()
    assert returned is z, f"numcu.add(x, y, out=z) on {backend.name} arrays did not return z"
    assert np.array_equal(to_host(backend, z), np.add(x_host, y_host)), (
        f"numcu.add(x, y, out=z) on {backend.name} arrays differs from numpy.add"
    )


def bench_add_out(
    backends: dict[str, timing.Backend], x_host: np.ndarray, y_host: np.ndarray, opts: Any
) -> dict[str, dict[str, float]]:
    """Per-call microseconds of each add with out=, back to back and synchronised each call.

    Returns
    -------
    dict
        "back_to_back_us", "k" and "synchronised_each_call_us", each mapping a label such as
        "numcu.add on cupy" or "cupy.add on cupy" to its value; "extra_us", mapping each other
        library's name to numcu.add's extra time on its arrays (paired_extra); "extra_one_us",
        the same with only x the library's.
    """
    numcu = backends["numcu"].module
    results: dict[str, dict[str, float]] = {
        "back_to_back_us": {},
        "k": {},
        "synchronised_each_call_us": {},
        "extra_us": {},
        "extra_one_us": {},
    }
    own = backends["numcu"]
    base = [to_device(own, x_host), to_device(own, y_host), to_device(own, np.empty_like(x_host))]
    on_numcu = functools.partial(numcu.add, base[0], base[1], out=base[2])
    for name, backend in backends.items():
        x, y = to_device(backend, x_host), to_device(backend, y_host)
        z = to_device(backend, np.empty_like(x_host))
        calls = {f"numcu.add on {name}": functools.partial(numcu.add, x, y, out=z)}
        if name != "numcu":
            calls[f"{name}.add on {name}"] = functools.partial(backend.module.add, x, y, out=z)
            extra = paired_extra(on_numcu, calls[f"numcu.add on {name}"], backend.synchronize, opts)
            results["extra_us"][name] = extra * 1e6
            one = functools.partial(numcu.add, x, base[1], out=base[2])
            results["extra_one_us"][name] = (
                paired_extra(on_numcu, one, backend.synchronize, opts) * 1e6
            )
        # numcu's add and the library's own, their measurements taken in turn
        timed = timing.per_call_interleaved(
            {label: (call, backend.synchronize) for label, call in calls.items()},
            opts.min_time,
            opts.repeats,
            opts.k_max,
        )
        for label, call in calls.items():
            per_call = timed[label]
            synced = timing.per_call_synchronised(call, backend.synchronize, opts.sync_calls)
            results["back_to_back_us"][label] = per_call.seconds * 1e6
            results["k"][label] = per_call.k
            results["synchronised_each_call_us"][label] = synced * 1e6
            print(
                f"{label}: {per_call.seconds * 1e6:.2f} us (K={per_call.k}), "
                f"synchronised {synced * 1e6:.2f} us",
                file=sys.stderr,
                flush=True,
            )
        del x, y, z, calls
    return results


def paired_extra(
    base: Callable[[], object], call: Callable[[], object], sync: Any, opts: Any
) -> float:
    """Median over rounds of call's seconds per call minus base's, both timed in each round.

    Each round times K back-to-back calls of one, then of the other (the order alternating), so
    a slow stretch of the host weighs on both sides of a difference; 4 * repeats + 1 rounds.
    """
    for fn in (base, call):
        for _ in range(timing.WARMUP_CALLS):
            fn()
    k = timing.choose_k(base, sync, opts.min_time, opts.k_max)
    diffs = []
    for r in range(4 * opts.repeats + 1):
        order = (base, call) if r % 2 == 0 else (call, base)
        seconds = {id(fn): timing.time_k_calls(fn, sync, k) / k for fn in order}
        diffs.append(seconds[id(call)] - seconds[id(base)])
    return statistics.median(diffs)


FRESH_HANDLES = 100  # new CuPy streams whose first use is timed


def stream_forms(backends: dict[str, timing.Backend]) -> dict[str, Any]:
    """label -> the stream= value: each library's stream object and its raw int handle."""
    numcu = backends["numcu"].module
    forms: dict[str, Any] = {"none": None}
    own = numcu.cuda.Stream(non_blocking=True)
    forms["numcu.cuda.Stream"], forms["numcu int handle"] = own, own.ptr
    if "cupy" in backends:
        cupy_stream = backends["cupy"].module.cuda.Stream(non_blocking=True)
        forms["cupy Stream"], forms["cupy int handle"] = cupy_stream, cupy_stream.ptr
    if "torch" in backends:
        torch_stream = backends["torch"].module.cuda.Stream()
        forms["torch Stream"] = torch_stream
        forms["torch int handle"] = torch_stream.cuda_stream
    return forms


def bench_stream_forms(
    backends: dict[str, timing.Backend], x_host: np.ndarray, y_host: np.ndarray, opts: Any
) -> dict[str, float]:
    """Per-call microseconds of numcu.add(x, y, out=z, stream=s) for each form of s, back to
    back, and the median first call with a fresh CuPy handle (when CuPy is here)."""
    numcu_backend = backends["numcu"]
    numcu = numcu_backend.module
    x, y = numcu.asarray(x_host), numcu.asarray(y_host)
    z = numcu.asarray(np.full(x_host.shape, np.nan, dtype=np.float32))
    results: dict[str, float] = {}
    for label, stream in stream_forms(backends).items():
        call = functools.partial(numcu.add, x, y, out=z, stream=stream)
        call()
        numcu.cuda.synchronize()
        assert np.array_equal(z.get(), np.add(x_host, y_host)), f"stream={label}: wrong sums"
        per_call = timing.per_call_back_to_back(
            call, numcu_backend.synchronize, opts.min_time, opts.repeats, opts.k_max
        )
        results[label] = per_call.seconds * 1e6
        print(f"stream={label}: {results[label]:.2f} us", file=sys.stderr, flush=True)
    if "cupy" in backends:
        cp = backends["cupy"].module
        firsts = []
        for _ in range(FRESH_HANDLES):
            fresh = cp.cuda.Stream(non_blocking=True)
            numcu.cuda.synchronize()
            start = time.perf_counter()
            numcu.add(x, y, out=z, stream=fresh.ptr)
            firsts.append(time.perf_counter() - start)
            fresh.synchronize()
            del fresh
        results["first call with a new handle"] = statistics.median(firsts) * 1e6
    return results


def format_stream_table(results: dict[str, float]) -> str:
    """One row per form of stream=, with its extra time over no stream=."""
    base = results["none"]
    rows = [
        [label, timing.cell(us, ".2f"), timing.cell(us - base, "+.2f")]
        for label, us in results.items()
    ]
    return timing.format_table(["stream=", "us per call", "+us vs none"], rows)


def bench_host(
    backends: dict[str, timing.Backend], a: np.ndarray, b: np.ndarray, repeats: int
) -> tuple[dict[str, dict[str, float]], dict[str, str], dict[str, bool | None]]:
    """Milliseconds of NumPy-in, NumPy-out adds on pageable and pinned inputs, and numpy.add.

    Returns
    -------
    tuple
        (library -> memory -> ms, library -> why it has no pinned row,
        library -> whether its pinned inputs are page-locked).
    """
    expected = np.add(a, b)
    ms: dict[str, dict[str, float]] = {}
    no_pinned: dict[str, str] = {}
    locked: dict[str, bool | None] = {}
    for name, backend in backends.items():
        add = host_add(backend)
        inputs = {"pageable": (a, b)}
        pinned = [pinned_empty(backend, a.size) for _ in range(2)]
        if isinstance(pinned[0], str) or isinstance(pinned[1], str):
            why = pinned[0] if isinstance(pinned[0], str) else pinned[1]
            no_pinned[name] = why
            print(f"{name}: no pinned inputs: {why}", flush=True)
        else:
            np.copyto(pinned[0], a)
            np.copyto(pinned[1], b)
            inputs["pinned"] = (pinned[0], pinned[1])
            locked[name] = page_locked(pinned[0], backends)
        ms[name] = {}
        for memory, (ia, ib) in inputs.items():
            result = add(ia, ib)
            assert type(result) is np.ndarray, f"{name}: the add returned {type(result)}"
            assert np.array_equal(result, expected), (
                f"{name}: the add on {memory} inputs differs from numpy.add"
            )
            sec = timing.per_call_synchronised(
                functools.partial(add, ia, ib), backend.synchronize, repeats, warmup=1
            )
            ms[name][memory] = sec * 1e3
            print(f"{name} on {memory} inputs: {sec * 1e3:.2f} ms", file=sys.stderr, flush=True)
        del inputs, pinned
    sec = timing.per_call_synchronised(
        functools.partial(np.add, a, b), lambda: None, repeats, warmup=1
    )
    ms["numpy"] = {"pageable": sec * 1e3}
    return ms, no_pinned, locked


def format_add_out_table(results: dict[str, dict[str, float]], names: list[str]) -> str:
    """One row per kind of array: numcu.add on it, and its own library's add."""
    header = ["x, y, z", "numcu us", "+us vs numcu arrays", "+us x only", "own add", "own us"]
    header += ["own/numcu"]
    header += ["numcu sync us", "own sync us", "own/numcu sync"]
    b2b, synced = results["back_to_back_us"], results["synchronised_each_call_us"]
    rows = []
    for name in names:
        ours = f"numcu.add on {name}"
        own = None if name == "numcu" else f"{name}.add on {name}"
        extra = results["extra_us"].get(name)
        rows.append(
            [
                f"{name} tensors" if name == "torch" else f"{name} arrays",
                timing.cell(b2b[ours], ".2f"),
                timing.cell(extra, "+.2f"),
                timing.cell(results["extra_one_us"].get(name), "+.2f"),
                "-" if own is None else f"{name}.add",
                timing.cell(b2b.get(own), ".2f"),
                timing.cell(timing.ratio(b2b.get(own), b2b[ours]), ".2f", "x"),
                timing.cell(synced[ours], ".2f"),
                timing.cell(synced.get(own), ".2f"),
                timing.cell(timing.ratio(synced.get(own), synced[ours]), ".2f", "x"),
            ]
        )
    return timing.format_table(header, rows)


def format_host_table(ms: dict[str, dict[str, float]]) -> str:
    """One row per library: pageable and pinned inputs, and the ratios to numcu."""
    header = ["library", *(f"{m} ms" for m in MEMORIES), "pageable/pinned"]
    header += [f"vs numcu {m}" for m in MEMORIES]
    rows = []
    for name, per_memory in ms.items():
        label = "numpy (CPU)" if name == "numpy" else name
        row = [label, *(timing.cell(per_memory.get(m), ".2f") for m in MEMORIES)]
        row.append(
            timing.cell(timing.ratio(per_memory["pageable"], per_memory.get("pinned")), ".2f")
        )
        for m in MEMORIES:
            vs = None if name == "numcu" else timing.ratio(per_memory.get(m), ms["numcu"].get(m))
            row.append(timing.cell(vs, ".2f", "x"))
        rows.append(row)
    return timing.format_table(header, rows)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the results, the per-call table last.

    Returns
    -------
    int
        0, or 1 when numcu cannot run on a GPU; failed checks raise (and so exit non-zero).
    """
    opts = timing.parse_args(__doc__, argv, quick_help="fewer repeats and synchronised calls")
    opts.sync_calls = 300 if opts.quick else 2000

    backends, skipped = timing.load_backends()
    if "numcu" not in backends:
        print("numcu cannot run on a GPU here (see above): nothing to compare")
        return 1
    numcu = backends["numcu"].module
    device = timing.device_name(backends)
    vers = timing.versions(backends)
    banner = timing.banner(device, vers)
    print(banner, flush=True)

    rng = np.random.default_rng(0)
    x_host, y_host = random_pair(rng, N_SMALL)
    for backend in backends.values():
        check_add_out(numcu, backend, x_host, y_host)
    print(f"numcu.add(x, y, out=z) matches numpy.add on {', '.join(backends)} arrays")
    add_out = bench_add_out(backends, x_host, y_host, opts)
    streams = bench_stream_forms(backends, x_host, y_host, opts)

    a, b = random_pair(rng, N_HOST)
    host_ms, no_pinned, locked = bench_host(backends, a, b, opts.repeats)

    if opts.json:
        report = {
            "device": device,
            "versions": vers,
            "skipped": skipped,
            "method": {
                "min_time_s": opts.min_time,
                "repeats": opts.repeats,
                "sync_calls": opts.sync_calls,
            },
            "add_out": {"n": N_SMALL, "dtype": "float32", **add_out},
            "stream_forms_us": {"n": N_SMALL, "dtype": "float32", **streams},
            "numpy_in_numpy_out_ms": {"n": N_HOST, "dtype": "float32", **host_ms},
            "no_pinned_inputs": no_pinned,
            "pinned_inputs_page_locked": locked,
        }
        timing.write_json(opts.json, report)

    print()
    print(banner)
    if locked:
        seen = ", ".join(f"{k} {'-' if v is None else v}" for k, v in locked.items())
        print(f"pinned inputs page-locked: {seen}")
        if False in locked.values():
            print("WARNING: some pinned inputs are not page-locked; their pinned row is pageable")
    print()
    print(
        f"NumPy in, NumPy out float32 add, n=2^{N_HOST.bit_length() - 1}, ms: median of "
        f"{opts.repeats} after a warm-up (numpy on the CPU); results checked against numpy.add; "
        "vs numcu: the library's ms / numcu's, > 1: numcu faster"
    )
    print(format_host_table(host_ms))
    print()
    print(
        f"numcu.add(x, y, out=z, stream=s) on numcu float32 arrays, n=2^{N_SMALL.bit_length() - 1},"
        " us per call back to back; int handles of other libraries' streams are checked on first"
        " sight, then looked up; the last row: median first call with each of"
        f" {FRESH_HANDLES} new CuPy streams' handles"
    )
    print(format_stream_table(streams))
    print()
    print(
        f"float32 add with out=, n=2^{N_SMALL.bit_length() - 1}, us per call: back to back "
        f"(median of {opts.repeats} runs of >= {opts.min_time * 1e3:.0f} ms) and synchronised "
        f"each call (median of {opts.sync_calls}); own: the arrays' library adding them; "
        "+us: numcu.add's extra time over numcu arrays (median of paired rounds), x only: "
        "with y and out numcu arrays; "
        "own/numcu > 1: numcu faster"
    )
    print(format_add_out_table(add_out, list(backends)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
