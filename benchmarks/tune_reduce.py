"""Sweep of the reduction kernel's layout knobs: one table, a column per setting.

The GPU reduction kernel chooses its block shape, lanes per output and blocks per output per
call from the device's multiprocessor count and a few knobs (cuda/src/reduce_layout.cpp). The
knobs can be overridden per process with NUMCU_REDUCE_TUNING; this script runs the reduction
cases of bench_reduce.py (float32, back to back) once per setting, each in a fresh process,
plus PyTorch once for reference::

    python benchmarks/tune_reduce.py                      # the default list of settings
    python benchmarks/tune_reduce.py "" "threads=256" "min_values=4,row_lanes=64"
    python benchmarks/tune_reduce.py --json tune.json

Knobs (comma-separated key=value): threads (most threads in a block, a power of two up to
512), row_threads (most threads in a block that reduces several rows), threads_per_sm
(resident threads each multiprocessor is given; 0: its maximum), min_values (fewest elements
or vectors a lane takes before more lanes or blocks are added), row_lanes (lanes a contiguous
row gets at least, where each still takes min_values), vector_in and vector_out (0 turns the
vector loads of rows and of neighbouring outputs off). The empty setting is the default.

Small sums report us per call (fewer is better), the rest GB/s (more is better); the best
setting of each row is marked with '*'. The table is printed last.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_reduce  # noqa: E402
import timing  # noqa: E402

DEFAULT_SETTINGS = (
    "",
    "threads=256",
    "min_values=4",
    "min_values=16",
    "min_values=32",
    "threads_per_sm=1024",
    "threads_per_sm=4096",
    "row_threads=512",
    "row_threads=128",
    "row_lanes=32",
    "row_lanes=64",
    "row_lanes=256",
    "vector_out=0",
    "threads=256,threads_per_sm=4096",
)

# case -> (title, shape, op name in bench_reduce.make_ops, unit)
CASES = {
    **{
        f"sum_2^{k}": (f"sum, n=2^{k}", (1 << k,), "sum", "us/call")
        for k in (10, 12, 14, 16, 18, 20, 22)
    },
    "sum_2^24": ("sum, n=2^24", (1 << 24,), "sum", "GB/s"),
    "sum_2^27": ("sum, n=2^27", (1 << 27,), "sum", "GB/s"),
    "argmax": ("argmax, n=2^27", (1 << 27,), "argmax", "GB/s"),
    "sum_last": ("sum axis=-1, (2^14, 2^13)", (1 << 14, 1 << 13), "sum_last", "GB/s"),
    "sum_first": ("sum axis=0, (2^14, 2^13)", (1 << 14, 1 << 13), "sum_first", "GB/s"),
    "max_last": ("max axis=-1, (2^14, 2^13)", (1 << 14, 1 << 13), "max_last", "GB/s"),
    "argmax_first": ("argmax axis=0, (2^14, 2^13)", (1 << 14, 1 << 13), "argmax_first", "GB/s"),
    "sum_long_rows": ("sum axis=-1, (16, 2^23)", (16, 1 << 23), "sum_long_rows", "GB/s"),
    "sum_long_cols": ("sum axis=0, (2^23, 16)", (1 << 23, 16), "sum_long_cols", "GB/s"),
    "mean_mid": ("mean axis=1, (2^10, 2^10, 2^7)", (1 << 10, 1 << 10, 1 << 7), "mean_mid", "GB/s"),
    "sum_rows_2^10": ("sum axis=-1, (2^10, 2^10)", (1 << 10, 1 << 10), "sum_last", "us/call"),
    "sum_cols_2^10": ("sum axis=0, (2^10, 2^10)", (1 << 10, 1 << 10), "sum_first", "us/call"),
}


def child(library: str, cases: list[str]) -> int:
    """Measure the cases with one library; print {case: seconds per call} as JSON."""
    backends, _ = timing.load_backends((library,))
    if library not in backends:
        return 1
    backend = backends[library]
    ops = bench_reduce.make_ops(backend)
    rng = np.random.default_rng(0)
    out = {}
    for case in cases:
        _, shape, op, _ = CASES[case]
        x = bench_reduce.to_device(backend, rng.standard_normal(shape, dtype=np.float32))
        fn = ops[op]
        out[case] = timing.per_call_back_to_back(
            lambda fn=fn, x=x: fn(x),
            backend.synchronize,
            timing.MIN_TIME_QUICK,
            timing.REPEATS_QUICK,
        ).seconds
        del x
    print("RESULT " + json.dumps(out), flush=True)
    return 0


def run_child(library: str, setting: str, cases: list[str]) -> dict[str, float] | str:
    env = dict(os.environ, NUMCU_REDUCE_TUNING=setting)
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", library, "--cases", ",".join(cases)],
        env=env,
        capture_output=True,
        text=True,
    )
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    return (done.stderr.strip().splitlines() or ["no output"])[-1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="*", help="NUMCU_REDUCE_TUNING values to compare")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--cases", metavar="A,B", help="only these cases (default: all): " + ", ".join(CASES)
    )
    parser.add_argument("--child", metavar="LIBRARY", help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    cases = opts.cases.split(",") if opts.cases else list(CASES)
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        parser.error(f"unknown cases: {', '.join(unknown)}")
    if opts.child:
        return child(opts.child, cases)

    settings = opts.settings or list(DEFAULT_SETTINGS)
    columns: dict[str, dict[str, float]] = {}
    torch = run_child("torch", "", cases)
    if isinstance(torch, str):
        print(f"torch: skipped: {torch}", flush=True)
    for setting in settings:
        got = run_child("numcu", setting, cases)
        label = setting or "default"
        if isinstance(got, str):
            print(f"{label}: failed: {got}", flush=True)
            continue
        columns[label] = got
        print(f"measured {label}", file=sys.stderr, flush=True)
    if opts.json:
        timing.write_json(opts.json, {"numcu": columns, "torch": torch})
    if not columns:
        return 1

    labels = list(columns)
    header = ["case", *labels] + (["torch"] if isinstance(torch, dict) else []) + ["unit"]
    rows = []
    for case in cases:
        title, shape, _, unit = CASES[case]
        n = int(np.prod(shape))

        def value(seconds, unit=unit, n=n):
            return seconds * 1e6 if unit == "us/call" else timing.gbps(4 * n, seconds)

        values = [value(columns[label][case]) for label in labels]
        best = min(values) if unit == "us/call" else max(values)
        row = [title] + [f"{v:.1f}" + ("*" if v == best else "") for v in values]
        if isinstance(torch, dict):
            row.append(f"{value(torch[case]):.1f}")
        rows.append(row + [unit])
    print()
    print(timing.format_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
