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

import argparse
import importlib
import json
import platform
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

LIBRARIES = ("numcu", "cupy", "torch")


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except Exception as exc:  # a broken install counts as absent
        return f"not importable ({type(exc).__name__}: {exc})"


class Library:
    """One array library: device arrays, synchronisation and the operations under test."""

    def __init__(self, name, version, sync, to_device, ops):
        self.name = name
        self.version = version
        self.sync = sync
        self.to_device = to_device
        self.ops = ops  # case name -> function of the device array


def load_numcu():
    numcu = _import("numcu")
    if isinstance(numcu, str):
        return numcu
    if not numcu.cuda.is_available():
        return "imported, but numcu.cuda.is_available() is False"
    ops = {
        "sum": numcu.sum,
        "sum_last": lambda x: numcu.sum(x, axis=-1),
        "sum_first": lambda x: numcu.sum(x, axis=0),
        "argmax": numcu.argmax,
        "cumsum": numcu.cumsum,
        "sum_small": numcu.sum,
    }
    return Library("numcu", numcu.__version__, numcu.cuda.synchronize, numcu.asarray, ops)


def load_cupy():
    cp = _import("cupy")
    if isinstance(cp, str):
        return cp
    try:
        if cp.cuda.runtime.getDeviceCount() == 0:
            return "no CUDA device"
    except Exception as exc:
        return f"no CUDA device ({exc})"
    ops = {
        "sum": cp.sum,
        "sum_last": lambda x: cp.sum(x, axis=-1),
        "sum_first": lambda x: cp.sum(x, axis=0),
        "argmax": cp.argmax,
        "cumsum": cp.cumsum,
        "sum_small": cp.sum,
    }
    return Library("cupy", cp.__version__, cp.cuda.Device().synchronize, cp.asarray, ops)


def load_torch():
    torch = _import("torch")
    if isinstance(torch, str):
        return torch
    if not torch.cuda.is_available():
        return "torch.cuda.is_available() is False"
    ops = {
        "sum": torch.sum,
        "sum_last": lambda x: torch.sum(x, dim=-1),
        "sum_first": lambda x: torch.sum(x, dim=0),
        "argmax": torch.argmax,
        "cumsum": lambda x: torch.cumsum(x, dim=0),
        "sum_small": torch.sum,
    }
    return Library(
        "torch",
        torch.__version__,
        torch.cuda.synchronize,
        lambda a: torch.from_numpy(a).to("cuda"),
        ops,
    )


# case name -> (description, input shape, bytes moved per element, unit)
CASES = {
    "sum": ("sum, n=2^27", (1 << 27,), 4, "GB/s"),
    "sum_last": ("sum axis=-1, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "sum_first": ("sum axis=0, (2^14, 2^13)", (1 << 14, 1 << 13), 4, "GB/s"),
    "argmax": ("argmax, n=2^27", (1 << 27,), 4, "GB/s"),
    "cumsum": ("cumsum, n=2^27", (1 << 27,), 8, "GB/s"),
    "sum_small": ("sum to a device scalar, n=2^10", (1 << 10,), 4, "us/call"),
}


def time_per_call(lib: Library, fn: Callable[[], Any], min_seconds: float, repeats: int):
    fn()
    lib.sync()
    k = 1
    while True:
        lib.sync()
        start = time.perf_counter()
        for _ in range(k):
            fn()
        lib.sync()
        wall = time.perf_counter() - start
        if wall >= min_seconds or k >= 100_000:
            break
        k = min(100_000, max(k * 2, int(k * min_seconds / max(wall, 1e-9)) + 1))
    samples = [wall / k]
    for _ in range(repeats - 1):
        lib.sync()
        start = time.perf_counter()
        for _ in range(k):
            fn()
        lib.sync()
        samples.append((time.perf_counter() - start) / k)
    return statistics.median(samples)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    min_seconds, repeats = (0.02, 3) if args.quick else (0.05, 5)

    libs, absent = [], {}
    for name, loader in zip(LIBRARIES, (load_numcu, load_cupy, load_torch)):
        lib = loader()
        if isinstance(lib, str):
            absent[name] = lib
        else:
            libs.append(lib)
    print(f"python {platform.python_version()}, numpy {np.__version__}")
    for lib in libs:
        print(f"{lib.name} {lib.version}")
    for name, why in absent.items():
        print(f"{name}: {why}")
    if not libs or libs[0].name != "numcu":
        print("numcu cannot run on a GPU here: nothing to compare")
        return 1
    import numcu

    print(f"device: {numcu.cuda.Device(0).name}")

    rng = np.random.default_rng(0)
    results: dict[str, dict[str, float]] = {}
    for case, (_, shape, _, _) in CASES.items():
        host = rng.standard_normal(shape, dtype=np.float32)
        results[case] = {}
        for lib in libs:
            x = lib.to_device(host)
            op = lib.ops[case]
            t = time_per_call(lib, lambda op=op, x=x: op(x), min_seconds, repeats)
            results[case][lib.name] = t
            del x
        print(f"measured {case}", file=sys.stderr)

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seconds_per_call": results, "absent": absent}, f, indent=2)

    names = [lib.name for lib in libs]
    others = [n for n in names if n != "numcu"]
    header = f"{'work':34}" + "".join(f"{n:>12}" for n in names)
    header += "".join(f"{'vs ' + n:>12}" for n in others) + "  unit"
    print()
    print(header)
    print("-" * len(header))
    for case, (title, shape, per_element, unit) in CASES.items():
        n = int(np.prod(shape))
        row = f"{title:34}"
        values = {}
        for name in names:
            t = results[case][name]
            values[name] = t * 1e6 if unit == "us/call" else n * per_element / t / 1e9
            row += f"{values[name]:12.1f}"
        for name in others:
            # > 1: numcu is faster (more GB/s, or fewer us per call)
            ratio = results[case][name] / results[case]["numcu"]
            row += f"{ratio:11.2f}x"
        print(row + f"  {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
