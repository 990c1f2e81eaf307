"""Side-by-side benchmark of reductions and scans on float32 device arrays.

Times numcu, CuPy and PyTorch (each only when importable and able to run on the GPU) in one
run, on the same random inputs::

    python benchmarks/bench_reduce.py            # full run
    python benchmarks/bench_reduce.py --quick    # fewer repeats
    python benchmarks/bench_reduce.py --json results.json
    python benchmarks/bench_reduce.py --no-sweep  # without the small-sum sweep
    python benchmarks/bench_reduce.py --sweep-only

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise; per call =
  wall / K. K is chosen so one measurement lasts at least 50 ms (K capped at 100,000); the
  median of 5 measurements is reported (20 ms and 3 with --quick). The libraries take their
  measurements of a case in turn, so that a slow spell of the host falls on all of them.
- Bandwidth counts bytes read plus written (a reduction reads 4 bytes per element; cumsum
  reads and writes 8); GB/s are 1e9 bytes per second. The small sum reports us per call.
- Sweep: float32 sums to a 0-d device array at every power of two from 2^10 to 2^27, us per
  call back to back (launch rate for small arrays, bandwidth for large ones).
- Goals (H100): full sum >= CuPy; sums over the last and the first axis >= 0.9x PyTorch;
  argmax and cumsum >= PyTorch; every sweep size no more us/call than PyTorch. Ratios are
  numcu's throughput over the other library's (> 1: numcu is faster).

The main table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402


def make_ops(backend: timing.Backend) -> dict[str, Callable[[Any], Any]]:
    """Case name -> the operation under test, a function of the device array."""
    if backend.name == "numcu":
        numcu = backend.module
        return {
            "sum": numcu.sum,
            "sum_last": lambda x: numcu.sum(x, axis=-1),
            "sum_first": lambda x: numcu.sum(x, axis=0),
            "argmax": numcu.argmax,
            "cumsum": numcu.cumsum,
            "sum_small": numcu.sum,
            "sum_int32": numcu.sum,
            "max_last": lambda x: numcu.max(x, axis=-1),
            "argmax_first": lambda x: numcu.argmax(x, axis=0),
            "sum_long_rows": lambda x: numcu.sum(x, axis=-1),
            "sum_long_cols": lambda x: numcu.sum(x, axis=0),
            "mean_mid": lambda x: numcu.mean(x, axis=1),
        }
    if backend.name == "cupy":
        cp = backend.module
        return {
            "sum": cp.sum,
            "sum_last": lambda x: cp.sum(x, axis=-1),
            "sum_first": lambda x: cp.sum(x, axis=0),
            "argmax": cp.argmax,
            "cumsum": cp.cumsum,
            "sum_small": cp.sum,
            "sum_int32": cp.sum,
            "max_last": lambda x: cp.max(x, axis=-1),
            "argmax_first": lambda x: cp.argmax(x, axis=0),
            "sum_long_rows": lambda x: cp.sum(x, axis=-1),
            "sum_long_cols": lambda x: cp.sum(x, axis=0),
            "mean_mid": lambda x: cp.mean(x, axis=1),
        }
    torch = backend.module
    return {
        "sum": torch.sum,
        "sum_last": lambda x: torch.sum(x, dim=-1),
        "sum_first": lambda x: torch.sum(x, dim=0),
        "argmax": torch.argmax,
        "cumsum": lambda x: torch.cumsum(x, dim=0),
        "sum_small": torch.sum,
        "sum_int32": torch.sum,
        "max_last": lambda x: torch.amax(x, dim=-1),
        "argmax_first": lambda x: torch.argmax(x, dim=0),
        "sum_long_rows": lambda x: torch.sum(x, dim=-1),
        "sum_long_cols": lambda x: torch.sum(x, dim=0),
        "mean_mid": lambda x: torch.mean(x, dim=1),
    }


def to_device(backend: timing.Backend, host: np.ndarray) -> Any:
    """A device copy of host, as the backend's own array type."""
    if backend.name == "torch":
        return backend.module.from_numpy(host).to("cuda")
    return backend.module.asarray(host)


# case name -> (description, input shape, bytes moved per element, unit); float32 input
# unless DTYPES names another.
CASES = {
    "sum": ("sum, n=2^27", (1 << 27,), 4, "GB/s"),
    "sum_last": ("sum axis=-1, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "sum_first": ("sum axis=0, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "argmax": ("argmax, n=2^27", (1 << 27,), 4, "GB/s"),
    "cumsum": ("cumsum, n=2^27", (1 << 27,), 8, "GB/s"),
    "sum_small": ("sum to a device scalar, n=2^10", (1 << 10,), 4, "us/call"),
    "sum_int32": ("sum int32 -> int64, n=2^27", (1 << 27,), 4, "GB/s"),
    "max_last": ("max axis=-1, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "argmax_first": ("argmax axis=0, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "sum_long_rows": ("sum axis=-1, (16, 2^23)", (16, 1 << 23), 4, "GB/s"),
    "sum_long_cols": ("sum axis=0, (2^23, 16)", (1 << 23, 16), 4, "GB/s"),
    "mean_mid": ("mean axis=1, (2^10, 2^10, 2^7)", (1 << 10, 1 << 10, 1 << 7), 4, "GB/s"),
}
DTYPES = {"sum_int32": np.int32}

# Sizes of the small-sum sweep: float32 sums to a 0-d device array.
SWEEP_SIZES = tuple(1 << k for k in range(10, 28))


def host_input(rng: np.random.Generator, case: str, shape: tuple[int, ...]) -> np.ndarray:
    dtype = DTYPES.get(case, np.float32)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, shape, dtype=dtype)
    return rng.standard_normal(shape, dtype=np.float32)


def measure(backends, host, ops, opts) -> dict[str, float]:
    """Seconds per call back to back, per library, of ops[name](device copy of host)."""
    calls = {}
    for name, backend in backends.items():
        x, op = to_device(backend, host), ops[name]
        calls[name] = (lambda op=op, x=x: op(x)), backend.synchronize
    per_call = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
    del calls
    return {name: p.seconds for name, p in per_call.items()}


def sweep(backends, rng, opts) -> tuple[dict[int, dict[str, float]], str]:
    """The small-sum sweep's seconds per call, and its table."""
    sums = {name: make_ops(b)["sum_small"] for name, b in backends.items()}
    results: dict[int, dict[str, float]] = {}
    for n in SWEEP_SIZES:
        host = rng.standard_normal(n, dtype=np.float32)
        results[n] = measure(backends, host, sums, opts)
        print(f"measured sweep n=2^{n.bit_length() - 1}", file=sys.stderr, flush=True)
    names = list(backends)
    others = [n for n in names if n != "numcu"]
    header = ["sum to a 0-d device array", *(f"{n} us" for n in names)]
    header += [f"vs {n}" for n in others] + ["numcu GB/s"]
    rows = []
    for n, per in results.items():
        row = [f"n=2^{n.bit_length() - 1}"]
        row += [timing.cell(per[name] * 1e6, ".1f") for name in names]
        row += [timing.cell(timing.ratio(per[o], per["numcu"]), ".2f", "x") for o in others]
        row.append(timing.cell(timing.gbps(4 * n, per["numcu"]), ".0f"))
        rows.append(row)
    return results, timing.format_table(header, rows)


def main(argv=None) -> int:
    extra = argparse.ArgumentParser(add_help=False)
    extra.add_argument("--no-sweep", action="store_true")
    extra.add_argument("--sweep-only", action="store_true")
    sweep_opts, rest = extra.parse_known_args(argv)
    opts = timing.parse_args(__doc__, rest)

    backends, skipped = timing.load_backends()
    if "numcu" not in backends:
        print("numcu cannot run on a GPU here (see above): nothing to compare")
        return 1
    print(timing.banner(timing.device_name(backends), timing.versions(backends)), flush=True)

    rng = np.random.default_rng(0)
    sweep_results, sweep_table = {}, ""
    if not sweep_opts.no_sweep:
        sweep_results, sweep_table = sweep(backends, np.random.default_rng(1), opts)
    results: dict[str, dict[str, float]] = {}
    cases = {} if sweep_opts.sweep_only else CASES
    for case, (_, shape, _, _) in cases.items():
        host = host_input(rng, case, shape)
        ops = {name: make_ops(backend)[case] for name, backend in backends.items()}
        results[case] = measure(backends, host, ops, opts)
        print(f"measured {case}", file=sys.stderr, flush=True)

    if opts.json:
        report = {"seconds_per_call": results, "sweep_seconds_per_call": sweep_results}
        timing.write_json(opts.json, {**report, "absent": skipped})
    if sweep_table:
        print()
        print(sweep_table)
    if not cases:
        return 0

    names = list(backends)
    others = [n for n in names if n != "numcu"]
    header = ["work", *names, *(f"vs {n}" for n in others), "unit"]
    rows = []
    for case, (title, shape, per_element, unit) in cases.items():
        n = int(np.prod(shape))
        row = [title]
        for name in names:
            t = results[case][name]
            value = t * 1e6 if unit == "us/call" else timing.gbps(n * per_element, t)
            row.append(timing.cell(value, ".1f"))
        for name in others:
            # > 1: numcu is faster (more GB/s, or fewer us per call)
            ratio = timing.ratio(results[case][name], results[case]["numcu"])
            row.append(timing.cell(ratio, ".2f", "x"))
        rows.append(row + [unit])
    print()
    print(timing.format_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
