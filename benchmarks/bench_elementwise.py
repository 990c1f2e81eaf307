"""Side-by-side benchmark of elementwise functions into preallocated outputs.

numcu, CuPy and PyTorch (each only when importable and able to run on the GPU), in one run,
on the same random inputs::

    python benchmarks/bench_elementwise.py             # about a minute on an H100
    python benchmarks/bench_elementwise.py --quick     # fewer repeats, smaller arrays
    python benchmarks/bench_elementwise.py --json results.json

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise; per call =
  wall / K. K is chosen so one measurement lasts at least 50 ms; the median of 5 measurements
  is reported (20 ms and 3 with --quick).
- Bandwidth counts bytes read plus written once each (add of float32: 12 bytes per element;
  a broadcast column plus row: only the output, as its inputs are tiny); GB/s = 1e9 B/s.
- Cases: contiguous binary functions of float32, float16 and float64 at n = 2^27; a column
  (2^13, 1) plus a row (1, 2^14); a transposed operand (a.T + b, both 2^14 x 2^13); exp and
  sin of float32. The broadcast and transposed cases are also given as a fraction of numcu's
  own contiguous float32 add.

The table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

N = 2**27
ROWS, COLS = 2**13, 2**14


@dataclass
class Case:
    name: str  # the row label
    func: str  # NumPy's name of the function
    dtype: str
    make: Callable[[np.random.Generator, str], list[np.ndarray]]  # host inputs
    out_shape: tuple[int, ...]
    bytes_moved: int
    transpose_first: bool = False  # pass inputs[0].T (a strided view) instead of inputs[0]


def normal(rng, shape, dtype):
    """Random normal data, drawn in float32 (fast) unless float64 is asked for."""
    draw = np.float64 if dtype == "float64" else np.float32
    return rng.standard_normal(shape, dtype=draw).astype(dtype, copy=False)


def contiguous(n):
    def make(rng, dtype):
        return [normal(rng, n, dtype) for _ in range(2)]

    return make


def unary(n):
    def make(rng, dtype):
        return [normal(rng, n, dtype)]

    return make


def column_row(rng, dtype):
    return [normal(rng, (ROWS, 1), dtype), normal(rng, (1, COLS), dtype)]


def transposed(rng, dtype):
    return [normal(rng, (ROWS, COLS), dtype), normal(rng, (COLS, ROWS), dtype)]


def cases(n):
    out = []
    for dtype, funcs in (
        ("float32", ("add", "multiply", "maximum", "divide", "subtract")),
        ("float16", ("add", "multiply", "maximum")),
        ("float64", ("add", "multiply", "maximum")),
    ):
        size = np.dtype(dtype).itemsize
        for func in funcs:
            out.append(Case(f"{func} {dtype} n=2^{n.bit_length() - 1}", func, dtype,
                            contiguous(n), (n,), 3 * size * n))  # fmt: skip
    out.append(Case("add float32 (2^13,1)+(1,2^14)", "add", "float32", column_row,
                    (ROWS, COLS), 4 * ROWS * COLS))  # fmt: skip
    out.append(Case("add float32 a.T + b (2^14,2^13)", "add", "float32", transposed,
                    (COLS, ROWS), 12 * ROWS * COLS, transpose_first=True))  # fmt: skip
    for func in ("exp", "sin"):
        out.append(Case(f"{func} float32 n=2^{n.bit_length() - 1}", func, "float32", unary(n),
                        (n,), 8 * n))  # fmt: skip
    return out


@dataclass
class Library:
    name: str
    version: str
    synchronize: Callable[[], None]
    to_device: Callable[[np.ndarray], Any]
    empty: Callable[[tuple[int, ...], str], Any]
    call: Callable[..., Any]  # call(func, *inputs, out=out)
    transpose: Callable[[Any], Any]


def _import(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:  # a broken install counts as absent
        return f"not importable ({type(exc).__name__}: {exc})"


def load_numcu():
    numcu = _import("numcu")
    if isinstance(numcu, str):
        return numcu
    if not numcu.cuda.is_available():
        return "imported, but numcu.cuda.is_available() is False"

    def transpose(a):
        cai = dict(a.__cuda_array_interface__)
        shape = tuple(reversed(cai["shape"]))
        itemsize = a.itemsize
        strides = (itemsize, itemsize * a.shape[1])

        class View:  # a transposed view over numcu memory, through the array interface
            __cuda_array_interface__ = {**cai, "shape": shape, "strides": strides}
            owner = a

        return View()

    return Library(
        "numcu",
        numcu.__version__,
        numcu.cuda.synchronize,
        numcu.asarray,
        lambda shape, dtype: numcu.asarray(np.empty(shape, dtype)),
        lambda func, *xs, out: getattr(numcu, func)(*xs, out=out),
        transpose,
    )


def load_cupy():
    cp = _import("cupy")
    if isinstance(cp, str):
        return cp
    try:
        if cp.cuda.runtime.getDeviceCount() == 0:
            return "no CUDA device"
    except Exception as exc:
        return f"no CUDA device ({exc})"
    return Library(
        "cupy",
        cp.__version__,
        cp.cuda.Device().synchronize,
        cp.asarray,
        lambda shape, dtype: cp.empty(shape, dtype),
        lambda func, *xs, out: getattr(cp, func)(*xs, out=out),
        lambda a: a.T,
    )


def load_torch():
    torch = _import("torch")
    if isinstance(torch, str):
        return torch
    if not torch.cuda.is_available():
        return "torch.cuda.is_available() is False"
    names = {"add": "add", "multiply": "mul", "maximum": "maximum", "divide": "div",
             "subtract": "sub", "exp": "exp", "sin": "sin"}  # fmt: skip
    return Library(
        "torch",
        torch.__version__,
        torch.cuda.synchronize,
        lambda a: torch.from_numpy(a).to("cuda"),
        lambda shape, dtype: torch.empty(shape, dtype=getattr(torch, dtype), device="cuda"),
        lambda func, *xs, out: getattr(torch, names[func])(*xs, out=out),
        lambda a: a.T,
    )


def time_calls(lib, fn, min_seconds, repeats):
    fn()
    lib.synchronize()
    k = 1
    while True:  # find K so that one measurement lasts at least min_seconds
        start = time.perf_counter()
        for _ in range(k):
            fn()
        lib.synchronize()
        wall = time.perf_counter() - start
        if wall >= min_seconds or k >= 100_000:
            break
        k = max(k * 2, int(k * min_seconds / max(wall, 1e-9)))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(k):
            fn()
        lib.synchronize()
        samples.append((time.perf_counter() - start) / k)
    return statistics.median(samples)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    min_seconds, repeats = (0.02, 3) if args.quick else (0.05, 5)
    n = 2**24 if args.quick else N

    libs, notes = [], []
    for loader in (load_numcu, load_cupy, load_torch):
        lib = loader()
        if isinstance(lib, Library):
            libs.append(lib)
        else:
            notes.append(f"{loader.__name__[5:]}: {lib}")
    if not libs or libs[0].name != "numcu":
        print("numcu cannot run on a GPU here:", *notes, sep="\n  ")
        return 1

    import numcu

    print(f"device: {numcu.cuda.Device(0).name}")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          + ", ".join(f"{lib.name} {lib.version}" for lib in libs))  # fmt: skip
    for note in notes:
        print(f"not compared: {note}")

    rng = np.random.default_rng(0)
    results = {}
    for case in cases(n):
        host = case.make(rng, case.dtype)
        for lib in libs:
            inputs = [lib.to_device(x) for x in host]
            if case.transpose_first:
                inputs[0] = lib.transpose(inputs[0])
            out = lib.empty(case.out_shape, case.dtype)
            call = functools.partial(lib.call, case.func, *inputs, out=out)
            seconds = time_calls(lib, call, min_seconds, repeats)
            results[(case.name, lib.name)] = case.bytes_moved / seconds / 1e9
            del inputs, out, call
        print(f"done: {case.name}", file=sys.stderr)

    names = [lib.name for lib in libs]
    others = [name for name in names if name != "numcu"]
    header = f"{'case':34s}" + "".join(f"{name + ' GB/s':>13s}" for name in names)
    header += "".join(f"{'vs ' + name:>10s}" for name in others)
    lines = [header, "-" * len(header)]
    for case in cases(n):
        row = f"{case.name:34s}" + "".join(f"{results[(case.name, x)]:13.0f}" for x in names)
        ours = results[(case.name, "numcu")]
        row += "".join(f"{ours / results[(case.name, x)]:9.2f}x" for x in others)
        lines.append(row)
    contiguous_add = results[(cases(n)[0].name, "numcu")]
    for case in cases(n):
        if "(" in case.name and "numcu" in names:
            ratio = results[(case.name, "numcu")] / contiguous_add
            lines.append(f"numcu {case.name}: {ratio:.2f}x of its contiguous float32 add")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{c} | {lib}": v for (c, lib), v in results.items()}, f, indent=1)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
