"""Side-by-side benchmark of reductions and scans on float32 device arrays.

Times numcu, CuPy and PyTorch (each only when importable and able to run on the GPU) in one
run, on the same random inputs::

    python benchmarks/bench_reduce.py            # full run
    python benchmarks/bench_reduce.py --quick    # fewer repeats
    python benchmarks/bench_reduce.py --json results.json

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise; per call =
  wall / K. K is chosen so one measurement lasts at least 50 ms (K capped at 100,000); the
  median of 5 measurements is reported (20 ms and 3 with --quick).
- Bandwidth counts bytes read plus written (a reduction reads 4 bytes per element; cumsum
  reads and writes 8); GB/s are 1e9 bytes per second. The small sum reports us per call.
- Goals (H100): full sum >= CuPy; sums over the last and the first axis >= 0.9x PyTorch;
  argmax and cumsum >= PyTorch. Ratios are numcu's throughput over the other library's.

The table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

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
        }
    torch = backend.module
    return {
        "sum": torch.sum,
        "sum_last": lambda x: torch.sum(x, dim=-1),
        "sum_first": lambda x: torch.sum(x, dim=0),
        "argmax": torch.argmax,
        "cumsum": lambda x: torch.cumsum(x, dim=0),
        "sum_small": torch.sum,
    }


def to_device(backend: timing.Backend, host: np.ndarray) -> Any:
    """A device copy of host, as the backend's own array type."""
    if backend.name == "torch":
        return backend.module.from_numpy(host).to("cuda")
    return backend.module.asarray(host)


# case name -> (description, input shape, bytes moved per element, unit)
CASES = {
    "sum": ("sum, n=2^27", (1 << 27,), 4, "GB/s"),
    "sum_last": ("sum axis=-1, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "sum_first": ("sum axis=0, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "argmax": ("argmax, n=2^27", (1 << 27,), 4, "GB/s"),
    "cumsum": ("cumsum, n=2^27", (1 << 27,), 8, "GB/s"),
    "sum_small": ("sum to a device scalar, n=2^10", (1 << 10,), 4, "us/call"),
}


def main(argv=None) -> int:
    opts = timing.parse_args(__doc__, argv)

    backends, skipped = timing.load_backends()
    if "numcu" not in backends:
        print("numcu cannot run on a GPU here (see above): nothing to compare")
        return 1
    print(timing.banner(timing.device_name(backends), timing.versions(backends)), flush=True)

    rng = np.random.default_rng(0)
    results: dict[str, dict[str, float]] = {}
    for case, (_, shape, _, _) in CASES.items():
        host = rng.standard_normal(shape, dtype=np.float32)
        results[case] = {}
        for name, backend in backends.items():
            x = to_device(backend, host)
            op = make_ops(backend)[case]
            per_call = timing.per_call_back_to_back(
                lambda op=op, x=x: op(x),
                backend.synchronize,
                opts.min_time,
                opts.repeats,
                opts.k_max,
            )
            results[case][name] = per_call.seconds
            del x
        print(f"measured {case}", file=sys.stderr, flush=True)

    if opts.json:
        timing.write_json(opts.json, {"seconds_per_call": results, "absent": skipped})

    names = list(backends)
    others = [n for n in names if n != "numcu"]
    header = ["work", *names, *(f"vs {n}" for n in others), "unit"]
    rows = []
    for case, (title, shape, per_element, unit) in CASES.items():
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
