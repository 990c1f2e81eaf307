"""Side-by-side benchmark of float32 ``add`` into a preallocated output.

Times numcu, CuPy and PyTorch (each only when importable and able to run on the GPU)
in one run, on the same random inputs::

    python benchmarks/bench_add.py            # full run, about a minute on an H100
    python benchmarks/bench_add.py --quick    # fewer sizes and repeats
    python benchmarks/bench_add.py --json results.json

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise;
  per call = wall / K. K is chosen so one measurement lasts at least 50 ms (K capped at
  100,000); the median of 5 such measurements is reported (20 ms and 3 with --quick).
- Synchronised each call (n = 2^10): the median over many single calls, each followed by
  a device synchronisation: launch latency plus completion, as a caller who waits sees it.
- Bandwidth counts bytes read plus written: 12 bytes per element for add (read a, read b,
  write c), 8 for a copy; GB/s are 1e9 bytes per second.
- NumPy in, NumPy out (n = 2^24): host-to-device copies, the add and the copy back,
  as one call each library offers; median of 5 after a warm-up, and NumPy on the CPU.

The main table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

ADD_BYTES_PER_ELEMENT = 12
COPY_BYTES_PER_ELEMENT = 8
LIBRARIES = ("numcu", "cupy", "torch")


@dataclass
class Library:
    """One array library under test: how to make device arrays, add, synchronise."""

    name: str
    version: str
    synchronize: Callable[[], None]
    to_device: Callable[[np.ndarray], Any]
    empty_like: Callable[[Any], Any]
    add_out: Callable[[Any, Any, Any], Any]
    to_host: Callable[[Any], np.ndarray]
    host_add: Callable[[np.ndarray, np.ndarray], np.ndarray]
    module: Any = field(repr=False, default=None)


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except Exception as exc:  # a broken install (missing CUDA libraries...) counts as absent
        return f"not importable ({type(exc).__name__}: {exc})"


def _load_numcu() -> Library | str:
    numcu = _import("numcu")
    if isinstance(numcu, str):
        return numcu
    if not numcu.cuda.is_available():
        return "imported, but numcu.cuda.is_available() is False"
    return Library(
        name="numcu",
        version=numcu.__version__,
        synchronize=numcu.cuda.synchronize,
        to_device=numcu.asarray,
        # numcu has no empty(): a device copy of an uninitialised host array serves.
        empty_like=lambda x: numcu.asarray(np.empty(x.shape, dtype=x.dtype)),
        add_out=lambda a, b, c: numcu.add(a, b, out=c),
        to_host=numcu.asnumpy,
        host_add=lambda a, b: numcu.add(a, b),  # host in, host out; on the GPU when present
        module=numcu,
    )


def _load_cupy() -> Library | str:
    cp = _import("cupy")
    if isinstance(cp, str):
        return cp
    return Library(
        name="cupy",
        version=cp.__version__,
        synchronize=lambda: cp.cuda.Device().synchronize(),
        to_device=cp.asarray,
        empty_like=cp.empty_like,
        add_out=lambda a, b, c: cp.add(a, b, out=c),
        to_host=cp.asnumpy,
        host_add=lambda a, b: cp.asnumpy(cp.add(cp.asarray(a), cp.asarray(b))),
        module=cp,
    )


def _load_torch() -> Library | str:
    torch = _import("torch")
    if isinstance(torch, str):
        return torch
    if not torch.cuda.is_available():
        return "imported, but torch.cuda.is_available() is False"

    def host_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ta = torch.from_numpy(a).cuda()
        tb = torch.from_numpy(b).cuda()
        return torch.add(ta, tb).cpu().numpy()

    return Library(
        name="torch",
        version=torch.__version__,
        synchronize=torch.cuda.synchronize,
        to_device=lambda x: torch.from_numpy(x).cuda(),
        empty_like=torch.empty_like,
        add_out=lambda a, b, c: torch.add(a, b, out=c),
        to_host=lambda x: x.cpu().numpy(),
        host_add=host_add,
        module=torch,
    )


def _probe(lib: Library) -> None:
    """Raise if lib cannot add two small arrays on the GPU."""
    a = lib.to_device(np.arange(1, 8, dtype=np.float32))
    c = lib.empty_like(a)
    lib.add_out(a, a, c)
    lib.synchronize()


def load_libraries() -> dict[str, Library]:
    """Import each library and keep those whose add works on the GPU.

    Returns
    -------
    dict
        Library name -> Library, in the order numcu, cupy, torch.
    """
    loaders = {"numcu": _load_numcu, "cupy": _load_cupy, "torch": _load_torch}
    libs = {}
    for name, load in loaders.items():
        lib = load()
        if isinstance(lib, str):
            print(f"{name}: skipped: {lib}")
            continue
        if name != "numcu":
            # A peer that imports but cannot run (driver mismatch...) is left out; a numcu
            # failure is what is under test, so it propagates.
            try:
                _probe(lib)
            except Exception as exc:
                print(f"{name}: skipped: cannot run on the GPU ({type(exc).__name__}: {exc})")
                continue
        libs[name] = lib
    return libs


def device_name(libs: dict[str, Library]) -> str:
    """Name of GPU 0 as torch or cupy report it, else what numcu knows."""
    if "torch" in libs:
        return libs["torch"].module.cuda.get_device_name(0)
    if "cupy" in libs:
        name = libs["cupy"].module.cuda.runtime.getDeviceProperties(0)["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    if "numcu" in libs:
        return f"CUDA device 0 (of {libs['numcu'].module.cuda.device_count()})"
    return "no CUDA device"


def versions(libs: dict[str, Library]) -> dict[str, str]:
    """Versions of Python, NumPy and every library under test."""
    out = {"python": platform.python_version(), "numpy": np.__version__}
    for name, lib in libs.items():
        out[name] = lib.version
    if "numcu" in libs:
        info = libs["numcu"].module.build_info()
        out["numcu_cuda"] = str(info.get("cuda_version"))
        out["numcu_archs"] = ";".join(info.get("cuda_architectures") or [])
    if "torch" in libs:
        out["torch_cuda"] = str(libs["torch"].module.version.cuda)
    if "cupy" in libs:
        out["cupy_cuda_runtime"] = str(libs["cupy"].module.cuda.runtime.runtimeGetVersion())
    return out


def random_inputs(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two float32 arrays of n values in [0.5, 1.5): random, and never zero."""
    rng = np.random.default_rng(seed)
    a = rng.random(n, dtype=np.float32)
    a += 0.5
    b = rng.random(n, dtype=np.float32)
    b += 0.5
    return a, b


def time_k_calls(fn: Callable[[], Any], sync: Callable[[], None], k: int) -> float:
    """Wall time of k back-to-back calls, bracketed by synchronisations."""
    sync()
    t0 = time.perf_counter()
    for _ in range(k):
        fn()
    sync()
    return time.perf_counter() - t0


def choose_k(fn: Callable[[], Any], sync: Callable[[], None], min_time: float, k_max: int) -> int:
    """A call count whose back-to-back measurement lasts at least min_time (at most k_max)."""
    k = 1
    while True:
        wall = time_k_calls(fn, sync, k)
        if wall >= min_time or k >= k_max:
            return k
        if wall < min_time / 16:
            k = min(k * 16, k_max)
        else:
            # One step close to the target, 20% over so noise does not leave it short.
            return min(k_max, max(k + 1, int(k * 1.2 * min_time / wall) + 1))


def per_call_back_to_back(
    fn: Callable[[], Any], sync: Callable[[], None], min_time: float, repeats: int, k_max: int
) -> tuple[float, int, list[float]]:
    """Median seconds per call over ``repeats`` measurements of K back-to-back calls.

    Returns
    -------
    tuple
        (median seconds per call, K, every per-call sample).
    """
    for _ in range(3):  # warm-up: allocator pools, kernel loading, clocks
        fn()
    sync()
    k = choose_k(fn, sync, min_time, k_max)
    samples = [time_k_calls(fn, sync, k) / k for _ in range(repeats)]
    return statistics.median(samples), k, samples


def per_call_synchronised(fn: Callable[[], Any], sync: Callable[[], None], calls: int) -> float:
    """Median seconds of one call followed by a synchronisation."""
    for _ in range(10):
        fn()
    sync()
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def median_seconds(fn: Callable[[], Any], sync: Callable[[], None], repeats: int) -> float:
    """Median wall time of single calls, after one warm-up call."""
    fn()
    sync()
    times = []
    for _ in range(repeats):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def gbps(nbytes: float, seconds: float) -> float | None:
    """Bandwidth in GB/s (1e9 bytes per second)."""
    return nbytes / seconds / 1e9 if seconds > 0 else None


def check_numcu(lib: Library, host_a: np.ndarray, host_b: np.ndarray, n: int) -> None:
    """Assert numcu's add matches NumPy's, on device arrays with out= and on host arrays."""
    a, b = lib.to_device(host_a[:n]), lib.to_device(host_b[:n])
    c = lib.to_device(np.full(n, np.nan, dtype=np.float32))  # poisoned: stale data fails
    returned = lib.add_out(a, b, c)
    lib.synchronize()
    expected = np.add(host_a[:n], host_b[:n])
    assert returned is c, "numcu.add(a, b, out=c) did not return c"
    assert np.allclose(lib.to_host(c), expected), "numcu.add on device arrays differs from NumPy"
    assert np.allclose(lib.host_add(host_a[:n], host_b[:n]), expected), (
        "numcu.add on NumPy arrays differs from NumPy"
    )
    print(f"numcu.add matches numpy.add at n=2^{n.bit_length() - 1}")


def bench_sizes(
    libs: dict[str, Library],
    host_a: np.ndarray,
    host_b: np.ndarray,
    exponents: list[int],
    opts: argparse.Namespace,
) -> dict[str, dict[int, dict[str, Any]]]:
    """Back-to-back add into out for every library and size."""
    results: dict[str, dict[int, dict[str, Any]]] = {name: {} for name in libs}
    for e in exponents:
        n = 1 << e
        line = [f"n=2^{e}:"]
        for name, lib in libs.items():
            a, b = lib.to_device(host_a[:n]), lib.to_device(host_b[:n])
            c = lib.empty_like(a)
            sec, k, samples = per_call_back_to_back(
                lambda lib=lib, a=a, b=b, c=c: lib.add_out(a, b, c),
                lib.synchronize,
                opts.min_time,
                opts.repeats,
                opts.k_max,
            )
            results[name][n] = {
                "us": sec * 1e6,
                "gbps": gbps(ADD_BYTES_PER_ELEMENT * n, sec),
                "k": k,
                "samples_us": [s * 1e6 for s in samples],
            }
            line.append(f"{name} {sec * 1e6:.2f} us (K={k})")
            del a, b, c
        print(" ".join(line), file=sys.stderr, flush=True)
    return results


def bench_synchronised(
    libs: dict[str, Library], host_a: np.ndarray, host_b: np.ndarray, n: int, calls: int
) -> dict[str, float]:
    """Microseconds of one add into out followed by a synchronisation, per library."""
    out = {}
    for name, lib in libs.items():
        a, b = lib.to_device(host_a[:n]), lib.to_device(host_b[:n])
        c = lib.empty_like(a)
        sec = per_call_synchronised(
            lambda lib=lib, a=a, b=b, c=c: lib.add_out(a, b, c), lib.synchronize, calls
        )
        out[name] = sec * 1e6
    return out


def bench_copy(
    libs: dict[str, Library], host_a: np.ndarray, n: int, opts: argparse.Namespace
) -> dict[str, Any] | None:
    """Device-to-device copy bandwidth at n (torch, else cupy): the ceiling for add."""
    if "torch" in libs:
        lib, how = libs["torch"], "torch c.copy_(a)"
    elif "cupy" in libs:
        lib, how = libs["cupy"], "cupy cp.copyto(c, a)"
    else:
        return None
    a = lib.to_device(host_a[:n])
    c = lib.empty_like(a)

    def copy() -> None:
        if lib.name == "torch":
            c.copy_(a)
        else:
            lib.module.copyto(c, a)

    sec, _, _ = per_call_back_to_back(
        copy, lib.synchronize, opts.min_time, opts.repeats, opts.k_max
    )
    return {"how": how, "n": n, "us": sec * 1e6, "gbps": gbps(COPY_BYTES_PER_ELEMENT * n, sec)}


def bench_host_roundtrip(
    libs: dict[str, Library], host_a: np.ndarray, host_b: np.ndarray, n: int, repeats: int
) -> dict[str, float]:
    """Milliseconds for NumPy in, NumPy out add, per library, and NumPy on the CPU."""
    a, b = np.ascontiguousarray(host_a[:n]), np.ascontiguousarray(host_b[:n])
    expected = np.add(a, b)
    out = {}
    for name, lib in libs.items():
        result = lib.host_add(a, b)
        assert isinstance(result, np.ndarray), f"{name}: host add returned {type(result)}"
        assert np.allclose(result, expected), f"{name}: host add differs from NumPy"
        sec = median_seconds(lambda lib=lib: lib.host_add(a, b), lib.synchronize, repeats)
        out[name] = sec * 1e3
    out["numpy"] = median_seconds(lambda: np.add(a, b), lambda: None, repeats) * 1e3
    return out


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _ratio(num: float | None, den: float | None) -> float | None:
    return None if not num or not den else num / den


def format_table(results: dict[str, dict[int, dict[str, Any]]], exponents: list[int]) -> str:
    """The main table: per-call microseconds and GB/s per library, and numcu's ratios."""
    header = ["n"]
    for name in LIBRARIES:
        header += [f"{name} us", f"{name} GB/s"]
    header += ["numcu/torch", "numcu/cupy"]
    rows = [header]
    for e in exponents:
        n = 1 << e
        row = [f"2^{e}"]
        bw = {}
        for name in LIBRARIES:
            r = results.get(name, {}).get(n)
            us, bw[name] = (r["us"], r["gbps"]) if r else (None, None)
            row += [_fmt(us, ".2f"), _fmt(bw[name], ".1f")]
        row += [
            _fmt(_ratio(bw["numcu"], bw["torch"]), ".2f"),
            _fmt(_ratio(bw["numcu"], bw["cupy"]), ".2f"),
        ]
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [" | ".join(cell.rjust(w) for cell, w in zip(row, widths)) for row in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    opts = parser.parse_args(argv)
    opts.repeats = 3 if opts.quick else 5
    opts.min_time = 0.02 if opts.quick else 0.05  # seconds per back-to-back measurement
    opts.k_max = 100_000
    opts.sync_calls = 300 if opts.quick else 2000
    opts.exponents = [10, 14, 18, 22, 24] if opts.quick else [*range(10, 27, 2), 27]
    return opts


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the results, the main table last.

    Returns
    -------
    int
        0; failures raise (and so exit non-zero).
    """
    opts = parse_args(argv)
    libs = load_libraries()
    if not libs:
        sys.exit("bench_add: none of numcu, cupy, torch can run on a CUDA device")

    device = device_name(libs)
    vers = versions(libs)
    banner = f"device: {device} | " + " | ".join(f"{k} {v}" for k, v in vers.items())
    print(banner, flush=True)

    n_max = 1 << max(opts.exponents)
    roundtrip_n = 1 << 24
    host_a, host_b = random_inputs(max(n_max, roundtrip_n))
    if "numcu" in libs:
        check_numcu(libs["numcu"], host_a, host_b, 1 << 20)

    sizes = bench_sizes(libs, host_a, host_b, opts.exponents, opts)
    sync_n = 1 << 10
    synchronised = bench_synchronised(libs, host_a, host_b, sync_n, opts.sync_calls)
    copy = bench_copy(libs, host_a, n_max, opts)
    roundtrip = bench_host_roundtrip(libs, host_a, host_b, roundtrip_n, opts.repeats)

    if opts.json:
        report = {
            "device": device,
            "versions": vers,
            "method": {
                "min_time_s": opts.min_time,
                "repeats": opts.repeats,
                "sync_calls": opts.sync_calls,
                "add_bytes_per_element": ADD_BYTES_PER_ELEMENT,
            },
            "add_out_back_to_back": {
                name: {str(n): r for n, r in per_n.items()} for name, per_n in sizes.items()
            },
            "add_out_synchronised_each_call_us": {"n": sync_n, **synchronised},
            "copy": copy,
            "numpy_in_numpy_out_ms": {"n": roundtrip_n, **roundtrip},
        }
        with open(opts.json, "w") as f:
            json.dump(report, f, indent=2)

    print()
    print(banner)
    if copy:
        print(
            f"device-to-device copy, n=2^{n_max.bit_length() - 1} ({copy['how']}): "
            f"{copy['gbps']:.0f} GB/s ({copy['us']:.1f} us), the ceiling"
        )
    print(
        "add into out, n=2^10, synchronised each call (median of "
        f"{opts.sync_calls}): " + " | ".join(f"{k} {v:.1f} us" for k, v in synchronised.items())
    )
    print(
        f"NumPy in, NumPy out add, n=2^24 (median of {opts.repeats}; numpy on the CPU): "
        + " | ".join(f"{k} {v:.1f} ms" for k, v in roundtrip.items())
    )
    print()
    print(
        "float32 add into out, calls back to back: median of "
        f"{opts.repeats} runs of >= {opts.min_time * 1e3:.0f} ms; "
        f"GB/s = {ADD_BYTES_PER_ELEMENT} n bytes / time; ratios of GB/s, > 1: numcu faster"
    )
    print(format_table(sizes, opts.exponents), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
