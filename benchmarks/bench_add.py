"""Side-by-side benchmark of float32 ``add`` into a preallocated output.

Times numcu, CuPy and PyTorch (each only when importable and able to run on the GPU)
in one run, on the same random inputs::

    python benchmarks/bench_add.py            # full run, about a minute on an H100
    python benchmarks/bench_add.py --quick    # fewer sizes and repeats
    python benchmarks/bench_add.py --json results.json
    python benchmarks/bench_add.py --plot benchmarks/add_bandwidth.png   # needs matplotlib

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise;
  per call = wall / K. K is chosen so one measurement lasts at least 50 ms (K capped at
  100,000); the median of 5 such measurements is reported (20 ms and 3 with --quick). The
  libraries take their measurements of a size in turn, so that a slow spell of the host falls
  on all of them alike.
- The launch floor (n = 2^10 row): numcu's private ``_core._launch_empty()``, a call as cheap
  as numcu's own that queues one empty kernel, timed back to back with the libraries' adds:
  what one kernel launch costs this host by itself, under every library's small add.
- Synchronised each call (n = 2^10): the median over many single calls, each followed by
  a device synchronisation: launch latency plus completion, as a caller who waits sees it.
- Bandwidth counts bytes read plus written: 12 bytes per element for add (read a, read b,
  write c), 8 for a copy; GB/s are 1e9 bytes per second.
- NumPy in, NumPy out (n = 2^24): host-to-device copies, the add and the copy back,
  as one call each library offers; median of 5 after a warm-up, and NumPy on the CPU.
- ``--plot PATH`` draws the back-to-back table (GB/s against n, one line per library, the
  device copy as the ceiling) into a PNG: the plot README.md shows.

The main table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

ADD_BYTES_PER_ELEMENT = 12
COPY_BYTES_PER_ELEMENT = 8


@dataclass
class Library:
    """One array library under test: how to make device arrays, add, synchronise."""

    name: str
    module: Any
    synchronize: Callable[[], None]
    to_device: Callable[[np.ndarray], Any]
    empty_like: Callable[[Any], Any]
    add_out: Callable[[Any, Any, Any], Any]
    to_host: Callable[[Any], np.ndarray]
    host_add: Callable[[np.ndarray, np.ndarray], np.ndarray]


def make_library(backend: timing.Backend) -> Library:
    """The operations under test, written with the backend's module."""
    sync = backend.synchronize
    if backend.name == "numcu":
        numcu = backend.module
        return Library(
            "numcu",
            numcu,
            sync,
            to_device=numcu.asarray,
            # A device copy of an uninitialised host array (kept from before numcu.empty).
            empty_like=lambda x: numcu.asarray(np.empty(x.shape, dtype=x.dtype)),
            add_out=lambda a, b, c: numcu.add(a, b, out=c),
            to_host=numcu.asnumpy,
            host_add=lambda a, b: numcu.add(a, b),  # host in, host out; on the GPU when present
        )
    if backend.name == "cupy":
        cp = backend.module
        return Library(
            "cupy",
            cp,
            sync,
            to_device=cp.asarray,
            empty_like=cp.empty_like,
            add_out=lambda a, b, c: cp.add(a, b, out=c),
            to_host=cp.asnumpy,
            host_add=lambda a, b: cp.asnumpy(cp.add(cp.asarray(a), cp.asarray(b))),
        )
    torch = backend.module

    def host_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ta = torch.from_numpy(a).cuda()
        tb = torch.from_numpy(b).cuda()
        return torch.add(ta, tb).cpu().numpy()

    return Library(
        "torch",
        torch,
        sync,
        to_device=lambda x: torch.from_numpy(x).cuda(),
        empty_like=torch.empty_like,
        add_out=lambda a, b, c: torch.add(a, b, out=c),
        to_host=lambda x: x.cpu().numpy(),
        host_add=host_add,
    )


def random_inputs(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two float32 arrays of n values in [0.5, 1.5): random, and never zero."""
    rng = np.random.default_rng(seed)
    a = rng.random(n, dtype=np.float32)
    a += 0.5
    b = rng.random(n, dtype=np.float32)
    b += 0.5
    return a, b


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
) -> tuple[dict[str, dict[int, dict[str, Any]]], dict[str, Any] | None]:
    """Back-to-back add into out for every library and size; and at the first size the launch
    floor (one empty kernel per call), where numcu has it."""
    results: dict[str, dict[int, dict[str, Any]]] = {name: {} for name in libs}
    floor = None
    numcu = libs["numcu"].module if "numcu" in libs else None
    launch_empty = getattr(getattr(numcu, "_core", None), "_launch_empty", None)
    for e in exponents:
        n = 1 << e
        line = [f"n=2^{e}:"]
        calls = {}
        for name, lib in libs.items():
            a, b = lib.to_device(host_a[:n]), lib.to_device(host_b[:n])
            c = lib.empty_like(a)
            calls[name] = (lambda lib=lib, a=a, b=b, c=c: lib.add_out(a, b, c)), lib.synchronize
        if launch_empty is not None and e == exponents[0]:
            calls["launch floor"] = launch_empty, libs["numcu"].synchronize
        per_call = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
        del calls
        for name, (sec, k, samples) in per_call.items():
            if name == "launch floor":
                floor = {"n": n, "us": sec * 1e6, "k": k, "samples_us": [s * 1e6 for s in samples]}
                line.append(f"{name} {sec * 1e6:.2f} us (K={k})")
                continue
            results[name][n] = {
                "us": sec * 1e6,
                "gbps": timing.gbps(ADD_BYTES_PER_ELEMENT * n, sec),
                "k": k,
                "samples_us": [s * 1e6 for s in samples],
            }
            line.append(f"{name} {sec * 1e6:.2f} us (K={k})")
        print(" ".join(line), file=sys.stderr, flush=True)
    return results, floor


def bench_synchronised(
    libs: dict[str, Library], host_a: np.ndarray, host_b: np.ndarray, n: int, calls: int
) -> dict[str, float]:
    """Microseconds of one add into out followed by a synchronisation, per library."""
    out = {}
    for name, lib in libs.items():
        a, b = lib.to_device(host_a[:n]), lib.to_device(host_b[:n])
        c = lib.empty_like(a)
        sec = timing.per_call_synchronised(
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

    sec = timing.per_call_back_to_back(
        copy, lib.synchronize, opts.min_time, opts.repeats, opts.k_max
    ).seconds
    gbps = timing.gbps(COPY_BYTES_PER_ELEMENT * n, sec)
    return {"how": how, "n": n, "us": sec * 1e6, "gbps": gbps}


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
        sec = timing.per_call_synchronised(
            lambda lib=lib: lib.host_add(a, b), lib.synchronize, repeats, warmup=1
        )
        out[name] = sec * 1e3
    sec = timing.per_call_synchronised(lambda: np.add(a, b), lambda: None, repeats, warmup=1)
    out["numpy"] = sec * 1e3
    return out


def format_table(results: dict[str, dict[int, dict[str, Any]]], exponents: list[int]) -> str:
    """The main table: per-call microseconds and GB/s per library, and numcu's ratios."""
    header = ["n"]
    for name in timing.LIBRARIES:
        header += [f"{name} us", f"{name} GB/s"]
    header += ["numcu/torch", "numcu/cupy"]
    rows = []
    for e in exponents:
        n = 1 << e
        row = [f"2^{e}"]
        bw = {}
        for name in timing.LIBRARIES:
            r = results.get(name, {}).get(n)
            us, bw[name] = (r["us"], r["gbps"]) if r else (None, None)
            row += [timing.cell(us, ".2f"), timing.cell(bw[name], ".1f")]
        row += [
            timing.cell(timing.ratio(bw["numcu"], bw["torch"]), ".2f"),
            timing.cell(timing.ratio(bw["numcu"], bw["cupy"]), ".2f"),
        ]
        rows.append(row)
    return timing.format_table(header, rows)


def plot(
    results: dict[str, dict[int, dict[str, Any]]],
    copy: dict[str, Any] | None,
    title: str,
    path: str,
) -> None:
    """Bandwidth of add into out against n per library, and the copy ceiling, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=150)
    for name in timing.LIBRARIES:
        per_n = results.get(name)
        if not per_n:
            continue
        sizes = sorted(per_n)
        ax.plot(sizes, [per_n[n]["gbps"] for n in sizes], marker="o", ms=3, label=name)
    if copy:
        ax.axhline(copy["gbps"], color="grey", ls="--", lw=1, label=f"device copy ({copy['how']})")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("elements (float32)")
    ax.set_ylabel("GB/s (12 bytes per element)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """--quick, --json and --plot, the timing settings, and this benchmark's sizes and calls."""

    def more(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--plot", metavar="PATH", help="also draw GB/s against n into a PNG")

    opts = timing.parse_args(__doc__, argv, quick_help="fewer sizes and repeats", more=more)
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
    backends, _ = timing.load_backends()
    if not backends:
        sys.exit("bench_add: none of numcu, cupy, torch can run on a CUDA device")
    libs = {name: make_library(backend) for name, backend in backends.items()}

    device = timing.device_name(backends)
    vers = timing.versions(backends)
    banner = timing.banner(device, vers)
    print(banner, flush=True)

    n_max = 1 << max(opts.exponents)
    roundtrip_n = 1 << 24
    host_a, host_b = random_inputs(max(n_max, roundtrip_n))
    if "numcu" in libs:
        check_numcu(libs["numcu"], host_a, host_b, 1 << 20)

    sizes, floor = bench_sizes(libs, host_a, host_b, opts.exponents, opts)
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
            "launch_floor_us": floor,
            "copy": copy,
            "numpy_in_numpy_out_ms": {"n": roundtrip_n, **roundtrip},
        }
        timing.write_json(opts.json, report)

    if opts.plot:
        plot(sizes, copy, f"float32 add into out, back to back: {device}", opts.plot)
        print(f"plot written to {opts.plot}", file=sys.stderr)

    print()
    print(banner)
    if copy:
        print(
            f"device-to-device copy, n=2^{n_max.bit_length() - 1} ({copy['how']}): "
            f"{copy['gbps']:.0f} GB/s ({copy['us']:.1f} us), the ceiling"
        )
    if floor:
        n = floor["n"]
        above = " | ".join(
            f"{name} +{per_n[n]['us'] - floor['us']:.2f} us"
            for name, per_n in sizes.items()
            if n in per_n
        )
        print(
            f"one empty kernel per call, back to back (the launch floor): {floor['us']:.2f} us; "
            f"add into out at n=2^{n.bit_length() - 1} above it: {above}"
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
