"""Side-by-side benchmark of the Array API functions with kernels of their own.

sort, argsort (float32, int32), unique (int32), take, concat (float32) at n = 2^20 and 2^27,
and matmul (float32, float16, bfloat16; square, 8192^3 at the top) for numcu, CuPy and PyTorch, each
only when importable and able to run on the GPU, on the same random data in one run::

    python benchmarks/bench_array_api.py            # full run, a few minutes on an H100
    python benchmarks/bench_array_api.py --quick    # fewer repeats
    python benchmarks/bench_array_api.py --json results.json

Method: back to back as timing.py describes (median of the repeats of K calls between two
synchronisations). Throughput is elements per second of the input (Gelem/s) for sort,
argsort, unique and take; GB/s read plus written for concat; TFLOP/s (2 m n k) for matmul.
unique waits for its number of distinct values in every library (data-dependent size). The
issue's aims are evaluated at the end: sort/argsort 2^27 float32 and int32 at least PyTorch's
throughput, unique 2^24 int32 at least PyTorch's, matmul 8192^3 float32 within 5% of
PyTorch's. The main table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

SIZES = (2**20, 2**27)
UNIQUE_SIZES = (2**20, 2**24)
MATMUL_SIZES = (1024, 4096, 8192)


def operations(name, xp):
    """name -> (function of device arrays) for one library."""
    if name == "numcu":
        return {
            "sort": lambda x: xp.sort(x),
            "argsort": lambda x: xp.argsort(x),
            "unique": lambda x: xp.unique_values(x),
            "take": lambda x, i: xp.take(x, i),
            "concat": lambda a, b: xp.concat([a, b]),
            "matmul": lambda a, b: xp.matmul(a, b),
        }
    if name == "cupy":
        return {
            "sort": lambda x: xp.sort(x),
            "argsort": lambda x: xp.argsort(x),
            "unique": lambda x: xp.unique(x),
            "take": lambda x, i: xp.take(x, i),
            "concat": lambda a, b: xp.concatenate([a, b]),
            "matmul": lambda a, b: xp.matmul(a, b),
        }
    return {
        "sort": lambda x: xp.sort(x, stable=True)[0],
        "argsort": lambda x: xp.argsort(x, stable=True),
        "unique": lambda x: xp.unique(x),
        "take": lambda x, i: xp.take(x, i),
        "concat": lambda a, b: xp.cat([a, b]),
        "matmul": lambda a, b: xp.matmul(a, b),
    }


def to_device(name, xp, a):
    if name == "torch":
        return xp.from_numpy(np.ascontiguousarray(a)).cuda()
    return xp.asarray(a)


def to_device_as(name, xp, a, dtype):
    """float32 host data on the GPU as `dtype` (a name; bfloat16 converted on the device)."""
    if name == "cupy" and dtype == "bfloat16":
        raise TypeError("CuPy has no bfloat16")
    if dtype != "bfloat16":
        return to_device(name, xp, a.astype(dtype))
    if name == "torch":
        return to_device(name, xp, a).to(xp.bfloat16)
    return xp.astype(xp.asarray(a), "bfloat16")


def main(argv=None):
    opts = timing.parse_args(__doc__, argv)
    backends, _ = timing.load_backends()
    if not backends:
        print("no library can run on the GPU here")
        return 1
    print(timing.banner(timing.device_name(backends), timing.versions(backends)))
    rng = np.random.default_rng(0)
    rows, report = [], {}

    def measure(label, work, unit, amount):
        row = [label]
        for name in timing.LIBRARIES:
            if name not in backends:
                row.append("-")
                continue
            b = backends[name]
            try:
                fn = work(name, b.module, operations(name, b.module))
                t = timing.per_call_back_to_back(fn, b.synchronize, opts.min_time, opts.repeats)
                value = amount / t.seconds / 1e9
            except Exception as exc:  # a peer that cannot do it: shown, not fatal
                print(f"{label} {name}: {type(exc).__name__}: {exc}", flush=True)
                row.append("-")
                continue
            report.setdefault(label, {})[name] = value
            row.append(f"{value:.2f}")
            b.synchronize()
        rows.append(row)
        print(" | ".join(row), f"({unit})", flush=True)

    for n in SIZES:
        for dtype in (np.float32, np.int32):
            if dtype == np.float32:
                host = rng.standard_normal(n).astype(dtype)
            else:
                host = rng.integers(-(2**31), 2**31 - 1, n, dtype=dtype)
            for op in ("sort", "argsort"):

                def work(name, xp, ops, op=op, host=host):
                    x = to_device(name, xp, host)
                    return lambda: ops[op](x)

                measure(f"{op} {np.dtype(dtype).name} 2^{n.bit_length() - 1}", work, "Gelem/s", n)
        host = rng.standard_normal(n).astype(np.float32)
        idx = rng.integers(0, n, n).astype(np.int64)

        def take_work(name, xp, ops, host=host, idx=idx):
            x, i = to_device(name, xp, host), to_device(name, xp, idx)
            return lambda: ops["take"](x, i)

        measure(f"take float32 2^{n.bit_length() - 1}", take_work, "Gelem/s", n)

        def concat_work(name, xp, ops, host=host):
            half = host.size // 2
            a = to_device(name, xp, host[:half])
            b = to_device(name, xp, host[half:])
            return lambda: ops["concat"](a, b)

        measure(f"concat float32 2^{n.bit_length() - 1}", concat_work, "GB/s", 8 * n)
    for n in UNIQUE_SIZES:
        host = rng.integers(0, n // 4, n, dtype=np.int32)

        def unique_work(name, xp, ops, host=host):
            x = to_device(name, xp, host)
            return lambda: ops["unique"](x)

        measure(f"unique int32 2^{n.bit_length() - 1}", unique_work, "Gelem/s", n)
    for m in MATMUL_SIZES:
        for dtype in ("float32", "float16", "bfloat16"):
            a = rng.standard_normal((m, m)).astype(np.float32)
            b = rng.standard_normal((m, m)).astype(np.float32)

            def mm_work(name, xp, ops, a=a, b=b, dtype=dtype):
                da, db = to_device_as(name, xp, a, dtype), to_device_as(name, xp, b, dtype)
                return lambda: ops["matmul"](da, db)

            measure(f"matmul {dtype} {m}^3", mm_work, "TFLOP/s", 2 * m**3 / 1e3)

    aims = [
        ("sort float32 2^27", "sort"),
        ("sort int32 2^27", "sort"),
        ("argsort float32 2^27", "argsort"),
        ("argsort int32 2^27", "argsort"),
        ("unique int32 2^24", "unique"),
        ("matmul float32 8192^3", "matmul"),
    ]
    print("\nAims (numcu / PyTorch; at least 1.00, matmul at least 0.95):")
    for label, _ in aims:
        r = report.get(label, {})
        q = timing.ratio(r.get("numcu"), r.get("torch"))
        print(f"  {label}: {timing.cell(q, '.3f')}")
    if opts.json:
        timing.write_json(opts.json, report)
    print()
    print(timing.format_table(["work", *timing.LIBRARIES], rows))
    print("units: Gelem/s of input (sort, argsort, take, unique), GB/s (concat), TFLOP/s (matmul)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
