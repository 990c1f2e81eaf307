"""Side-by-side benchmark of elementwise functions into preallocated outputs.

numcu, CuPy and PyTorch (each only when importable and able to run on the GPU), in one run,
on the same random inputs::

    python benchmarks/bench_elementwise.py             # about a minute on an H100
    python benchmarks/bench_elementwise.py --quick     # fewer repeats, smaller arrays
    python benchmarks/bench_elementwise.py --json results.json

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise; per call =
  wall / K. K is chosen so one measurement lasts at least 50 ms (K capped at 100,000); the
  median of 5 measurements is reported (20 ms and 3 with --quick).
- Bandwidth counts bytes read plus written once each (add of float32: 12 bytes per element;
  a broadcast column plus row: only the output, as its inputs are tiny); GB/s = 1e9 B/s.
- Cases: contiguous binary functions of float32, float16 and float64 at n = 2^27; a column
  (2^13, 1) plus a row (1, 2^14); a transposed operand (a.T + b, both 2^14 x 2^13); exp and
  sin of float32. The broadcast and transposed cases are also given as a fraction of numcu's
  own contiguous float32 add.

The table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

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
    synchronize: Callable[[], None]
    to_device: Callable[[np.ndarray], Any]
    empty: Callable[[tuple[int, ...], str], Any]
    call: Callable[..., Any]  # call(func, *inputs, out=out)
    transpose: Callable[[Any], Any]


def make_library(backend: timing.Backend) -> Library:
    """The operations under test, written with the backend's module."""
    sync = backend.synchronize
    if backend.name == "numcu":
        numcu = backend.module

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
            sync,
            numcu.asarray,
            lambda shape, dtype: numcu.asarray(np.empty(shape, dtype)),
            lambda func, *xs, out: getattr(numcu, func)(*xs, out=out),
            transpose,
        )
    if backend.name == "cupy":
        cp = backend.module
        return Library(
            "cupy",
            sync,
            cp.asarray,
            lambda shape, dtype: cp.empty(shape, dtype),
            lambda func, *xs, out: getattr(cp, func)(*xs, out=out),
            lambda a: a.T,
        )
    torch = backend.module
    names = {"add": "add", "multiply": "mul", "maximum": "maximum", "divide": "div",
             "subtract": "sub", "exp": "exp", "sin": "sin"}  # fmt: skip
    return Library(
        "torch",
        sync,
        lambda a: torch.from_numpy(a).to("cuda"),
        lambda shape, dtype: torch.empty(shape, dtype=getattr(torch, dtype), device="cuda"),
        lambda func, *xs, out: getattr(torch, names[func])(*xs, out=out),
        lambda a: a.T,
    )


def main(argv=None):
    opts = timing.parse_args(__doc__, argv, quick_help="fewer repeats, smaller arrays")
    n = 2**24 if opts.quick else N

    backends, _ = timing.load_backends()
    if "numcu" not in backends:
        print("numcu cannot run on a GPU here (see above): nothing to compare")
        return 1
    libs = [make_library(backend) for backend in backends.values()]
    print(timing.banner(timing.device_name(backends), timing.versions(backends)), flush=True)

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
            per_call = timing.per_call_back_to_back(
                call, lib.synchronize, opts.min_time, opts.repeats, opts.k_max
            )
            results[(case.name, lib.name)] = timing.gbps(case.bytes_moved, per_call.seconds)
            del inputs, out, call
        print(f"done: {case.name}", file=sys.stderr, flush=True)

    names = [lib.name for lib in libs]
    others = [name for name in names if name != "numcu"]
    header = ["case", *(f"{name} GB/s" for name in names), *(f"vs {name}" for name in others)]
    rows = []
    for case in cases(n):
        ours = results[(case.name, "numcu")]
        row = [case.name]
        row += [timing.cell(results[(case.name, x)], ".0f") for x in names]
        row += [
            timing.cell(timing.ratio(ours, results[(case.name, x)]), ".2f", "x") for x in others
        ]
        rows.append(row)
    lines = [timing.format_table(header, rows)]
    contiguous_add = results[(cases(n)[0].name, "numcu")]
    for case in cases(n):
        if "(" in case.name:
            fraction = timing.cell(
                timing.ratio(results[(case.name, "numcu")], contiguous_add), ".2f"
            )
            lines.append(f"numcu {case.name}: {fraction}x of its contiguous float32 add")
    if opts.json:
        timing.write_json(opts.json, {f"{c} | {lib}": v for (c, lib), v in results.items()})
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
