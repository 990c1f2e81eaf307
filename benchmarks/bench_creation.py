"""Benchmark of creating device arrays: numcu.empty, zeros and full next to PyTorch's and CuPy's.

Times numcu with CuPy and PyTorch (each only when importable and able to run on the GPU;
numcu must run) in one run::

    python benchmarks/bench_creation.py            # full run
    python benchmarks/bench_creation.py --quick    # fewer sizes and repeats
    python benchmarks/bench_creation.py --json results.json

What
----
A new float32 device array of n elements, on the current device and stream, the call's result
dropped at once (its memory going back to the library's allocator), at n = 2^10 (--quick) and
also 2^16 and 2^20:

- empty: ``numcu.empty(n, "float32")``, ``cupy.empty(n, "float32")``,
  ``torch.empty(n, dtype=torch.float32, device="cuda")``;
- zeros: ``numcu.zeros(n, "float32")``, ``cupy.zeros(...)``, ``torch.zeros(...)``;
- full: ``numcu.full(n, 1.5, "float32")``, ``cupy.full(n, 1.5, "float32")``,
  ``torch.full((n,), 1.5, dtype=torch.float32, device="cuda")``;
- empty with the dtype as a NumPy type: ``numcu.empty(n, numpy.float32)`` and CuPy's (PyTorch
  has no such form).

At 2^10 the per-call cost is all there is: argument parsing, the dtype and shape, the
allocation, the Python object, and for zeros and full one launch.

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise; per call =
  wall / K. K is chosen so one measurement lasts at least 50 ms (K capped at 100,000), after
  three warm-up calls; the median of 5 measurements is reported (20 ms and 3 with --quick).
  The libraries' calls of one row take their measurements in turn (benchmarks/timing.py's
  per_call_interleaved), so that a slow spell of the host falls on all of them alike.
- Checked before timing: each library's zeros and full hold the values asked for.
- Ratios are the other library's time over numcu's: > 1, numcu is faster.

The table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np
import timing

#: A call that makes one array of n elements.
Maker = Callable[[int], Any]


def makers(backends: dict[str, timing.Backend]) -> dict[str, dict[str, Maker]]:
    """Row name -> library -> a function of n that makes the row's array."""
    rows: dict[str, dict[str, Maker]] = {"empty": {}, "zeros": {}, "full": {}, "empty(np type)": {}}
    for name in ("numcu", "cupy"):  # the same NumPy-style calls
        if name in backends:
            m = backends[name].module
            rows["empty"][name] = lambda n, m=m: m.empty(n, "float32")
            rows["zeros"][name] = lambda n, m=m: m.zeros(n, "float32")
            rows["full"][name] = lambda n, m=m: m.full(n, 1.5, "float32")
            rows["empty(np type)"][name] = lambda n, m=m: m.empty(n, np.float32)
    if "torch" in backends:
        torch = backends["torch"].module
        f32 = torch.float32
        rows["empty"]["torch"] = lambda n: torch.empty(n, dtype=f32, device="cuda")
        rows["zeros"]["torch"] = lambda n: torch.zeros(n, dtype=f32, device="cuda")
        rows["full"]["torch"] = lambda n: torch.full((n,), 1.5, dtype=f32, device="cuda")
    return rows


def to_host(backend: timing.Backend, a: Any) -> np.ndarray:
    if backend.name == "numcu":
        return a.get()
    if backend.name == "cupy":
        return backend.module.asnumpy(a)
    return a.cpu().numpy()


def check(backends: dict[str, timing.Backend], rows: dict[str, dict[str, Maker]]) -> None:
    """Each library's zeros and full hold what was asked for (float32, n = 1000)."""
    for row, expected in (("zeros", 0.0), ("full", 1.5)):
        for name, make in rows[row].items():
            got = to_host(backends[name], make(1000))
            if got.dtype != np.float32 or got.shape != (1000,) or not np.all(got == expected):
                raise AssertionError(f"{name} {row}: not 1000 float32 values of {expected}")


def bench(
    backends: dict[str, timing.Backend],
    rows: dict[str, dict[str, Maker]],
    exponents: list[int],
    opts: Any,
) -> dict[str, dict[int, dict[str, float]]]:
    """row -> n -> library -> microseconds per call, back to back."""
    results: dict[str, dict[int, dict[str, float]]] = {}
    for row, libs in rows.items():
        results[row] = {}
        for e in exponents:
            n = 1 << e
            calls = {
                name: ((lambda make=make, n=n: make(n)), backends[name].synchronize)
                for name, make in libs.items()
            }
            measured = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
            results[row][n] = {name: r.seconds * 1e6 for name, r in measured.items()}
            print(
                f"{row} n=2^{e}: "
                + " | ".join(f"{k} {v:.2f} us" for k, v in results[row][n].items()),
                flush=True,
            )
    return results


def format_table(results: dict[str, dict[int, dict[str, float]]], libraries: list[str]) -> str:
    peers = [name for name in libraries if name != "numcu"]
    header = ["call", "n", *(f"{name} us" for name in libraries)]
    header += [f"{name}/numcu" for name in peers]
    table = []
    for row, per_n in results.items():
        for n, us in per_n.items():
            cells = [row, f"2^{n.bit_length() - 1}"]
            cells += [timing.cell(us.get(name), ".2f") for name in libraries]
            cells += [timing.cell(timing.ratio(us.get(p), us.get("numcu")), ".2f") for p in peers]
            table.append(cells)
    return timing.format_table(header, table)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the results, the table last.

    Returns
    -------
    int
        0, or 1 when numcu cannot run on a GPU; failed checks raise (and so exit non-zero).
    """
    opts = timing.parse_args(__doc__, argv, quick_help="n = 2^10 only, fewer repeats")
    exponents = [10] if opts.quick else [10, 16, 20]
    backends, skipped = timing.load_backends()
    if "numcu" not in backends:
        print("numcu cannot run on a GPU here (see above): nothing to compare")
        return 1
    device = timing.device_name(backends)
    vers = timing.versions(backends)
    banner = timing.banner(device, vers)
    print(banner, flush=True)

    rows = makers(backends)
    check(backends, rows)
    results = bench(backends, rows, exponents, opts)

    if opts.json:
        report = {
            "device": device,
            "versions": vers,
            "skipped": skipped,
            "method": {"min_time_s": opts.min_time, "repeats": opts.repeats, "dtype": "float32"},
            "per_call_us": {
                row: {str(n): us for n, us in per_n.items()} for row, per_n in results.items()
            },
        }
        timing.write_json(opts.json, report)

    print()
    print(banner)
    print(
        f"new float32 device arrays, calls back to back: median of {opts.repeats} runs of "
        f">= {opts.min_time * 1e3:.0f} ms; ratios: the other library's time over numcu's "
        "(> 1: numcu faster)"
    )
    print(format_table(results, list(backends)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
