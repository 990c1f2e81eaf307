"""Side-by-side benchmark of random numbers: numcu.random, PyTorch, CuPy and NumPy.

GPU (n = 2^27 values, device arrays): numcu's Generator on NumPy's Philox, torch.rand/randn/
randint/randperm (Philox4x32-10 on CUDA) and cupy.random (cuRAND's XORWOW), each only when
importable and able to run on the GPU. CPU (n = 2^24, NumPy arrays): numcu's CPU backend on all
its threads against NumPy's default_rng (PCG64). One run::

    python benchmarks/bench_random.py            # full run
    python benchmarks/bench_random.py --quick    # fewer repeats (under 90 s on an H200)
    python benchmarks/bench_random.py --json results.json
    python benchmarks/bench_random.py --cpu-only # the CPU table alone (no GPU needed)
    python benchmarks/bench_random.py --gpu-only # the GPU table alone

Method
------
- Back to back: synchronise, time K calls with ``time.perf_counter``, synchronise; per call =
  wall / K, K chosen so one measurement lasts at least 50 ms; the median of 5 measurements (20 ms
  and 3 with --quick), the libraries measured in turn (benchmarks/timing.py). Every call makes
  a new array (each library's memory pool).
- GB/s count the bytes written (random numbers read nothing); the write ceiling is a fill of a
  float32 array of the same size (numcu's ``ndarray.fill``, PyTorch's ``fill_``).
- "off a block": numcu's generator one word into a Philox block, so that its values do not
  start at a block boundary (the other libraries' calls are the same as above).
- choice: 2^20 of 2^27 without replacement (PyTorch: ``randperm(2^27)[:2^20]``, CuPy:
  ``choice(2^27, 2^20, replace=False)``); permutation: of 2^27 (``randperm``).
- Goals (H100/H200, n = 2^27): float32 random, standard_normal and integers(0, 1000) at least
  PyTorch's and CuPy's throughput; float32 random at >= 80% of the write ceiling; float64
  random at least PyTorch's; choice at least PyTorch's randperm way; on the CPU with all
  threads (16 on the lead's machine), random and standard_normal >= 8x NumPy's. Ratios are
  numcu's throughput over the other's (> 1: numcu is faster).

The tables are printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

N_GPU = 2**27
N_CPU = 2**24
CHOICE_K = 2**20

# case -> (title, bytes written per value)
GPU_CASES = {
    "random_f32": ("random float32", 4),
    "random_f64": ("random float64", 8),
    "normal_f32": ("standard_normal float32", 4),
    "normal_f64": ("standard_normal float64", 8),
    "integers_i64": ("integers(0, 1000) int64", 8),
    "integers_i32": ("integers(0, 1000) int32", 4),
    "random_f32_off": ("random float32, stream off a block", 4),
    "integers_i64_off": ("integers(0, 1000) int64, off a block", 8),
    "uniform_f64": ("uniform(-1, 1) float64", 8),
    "exponential_f64": ("exponential float64", 8),
    "choice": ("choice 2^20 of 2^27, no replacement", None),
    "permutation": ("permutation of 2^27", None),
}

# Cases only numcu's generator tells apart: the other libraries make them with the same call as
# the case named here.
NUMCU_ONLY = {"random_f32_off": "random_f32", "integers_i64_off": "integers_i64"}

CPU_CASES = {
    "random_f64": ("random float64", 8),
    "random_f32": ("random float32", 4),
    "normal_f64": ("standard_normal float64", 8),
    "normal_f32": ("standard_normal float32", 4),
    "integers_i64": ("integers(0, 1000) int64", 8),
    "exponential_f64": ("standard_exponential float64", 8),
}


def gpu_calls(backend: timing.Backend, n: int) -> dict[str, Callable[[], Any]]:
    """Case -> a call making n values on the GPU with this library."""
    if backend.name == "numcu":
        import numcu.random as nr

        g = nr.default_rng(0)
        # A generator one word into a Philox block (three words left in NumPy's buffer), as
        # after any call that took a number of words not a multiple of 4; each call of 2^27
        # values leaves it there again.
        g_off = nr.default_rng(0)
        g_off.random(1)
        return {
            "random_f32": lambda: g.random(n, dtype=np.float32),
            "random_f64": lambda: g.random(n),
            "normal_f32": lambda: g.standard_normal(n, dtype=np.float32),
            "normal_f64": lambda: g.standard_normal(n),
            "integers_i64": lambda: g.integers(0, 1000, n),
            "integers_i32": lambda: g.integers(0, 1000, n, dtype=np.int32),
            "random_f32_off": lambda: g_off.random(n, dtype=np.float32),
            "integers_i64_off": lambda: g_off.integers(0, 1000, n),
            "uniform_f64": lambda: g.uniform(-1.0, 1.0, n),
            "exponential_f64": lambda: g.exponential(1.0, n),
            "choice": lambda: g.choice(N_GPU, CHOICE_K, replace=False),
            "permutation": lambda: g.permutation(N_GPU),
        }
    if backend.name == "torch":
        torch = backend.module
        dev = "cuda"
        return {
            "random_f32": lambda: torch.rand(n, device=dev),
            "random_f64": lambda: torch.rand(n, device=dev, dtype=torch.float64),
            "normal_f32": lambda: torch.randn(n, device=dev),
            "normal_f64": lambda: torch.randn(n, device=dev, dtype=torch.float64),
            "integers_i64": lambda: torch.randint(0, 1000, (n,), device=dev),
            "integers_i32": lambda: torch.randint(0, 1000, (n,), device=dev, dtype=torch.int32),
            "uniform_f64": lambda: torch.empty(n, device=dev, dtype=torch.float64).uniform_(-1, 1),
            "exponential_f64": lambda: torch.empty(
                n, device=dev, dtype=torch.float64
            ).exponential_(),
            "choice": lambda: torch.randperm(N_GPU, device=dev)[:CHOICE_K],
            "permutation": lambda: torch.randperm(N_GPU, device=dev),
        }
    cp = backend.module
    rs = cp.random.RandomState(0)
    return {
        "random_f32": lambda: rs.random_sample(n, dtype=np.float32),
        "random_f64": lambda: rs.random_sample(n),
        "normal_f32": lambda: rs.standard_normal(n, dtype=np.float32),
        "normal_f64": lambda: rs.standard_normal(n),
        "integers_i64": lambda: rs.randint(0, 1000, n, dtype=np.int64),
        "integers_i32": lambda: rs.randint(0, 1000, n, dtype=np.int32),
        "uniform_f64": lambda: rs.uniform(-1.0, 1.0, n),
        "exponential_f64": lambda: rs.standard_exponential(n),
        "choice": lambda: rs.choice(N_GPU, CHOICE_K, replace=False),
        "permutation": lambda: rs.permutation(N_GPU),
    }


def write_ceiling(backends: dict[str, timing.Backend], n: int, opts) -> float | None:
    """GB/s of a float32 fill of n values (the device's write bandwidth)."""
    calls = {}
    if "numcu" in backends:
        import numcu

        a = numcu.empty(n, dtype="float32")
        calls["numcu"] = (lambda: a.fill(1.0)), backends["numcu"].synchronize
    if "torch" in backends:
        t = backends["torch"].module.empty(n, device="cuda")
        calls["torch"] = (lambda: t.fill_(1.0)), backends["torch"].synchronize
    if not calls:
        return None
    per = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
    return max(timing.gbps(4 * n, p.seconds) for p in per.values())


def gpu_table(backends, opts) -> tuple[dict, str]:
    ceiling = write_ceiling(backends, N_GPU, opts)
    calls_of = {name: gpu_calls(b, N_GPU) for name, b in backends.items()}
    for calls in calls_of.values():
        for case, same in NUMCU_ONLY.items():
            calls.setdefault(case, calls[same])
    results: dict[str, dict[str, float]] = {}
    for case in GPU_CASES:
        calls = {name: (calls_of[name][case], b.synchronize) for name, b in backends.items()}
        per = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
        results[case] = {name: p.seconds for name, p in per.items()}
        print(f"measured {case}", file=sys.stderr, flush=True)
    names = list(backends)
    others = [n for n in names if n != "numcu"]
    header = ["GPU, n = 2^27", *(f"{n} ms" for n in names), *(f"vs {n}" for n in others)]
    header += ["numcu GB/s", "of ceiling"]
    rows = []
    for case, (title, per_value) in GPU_CASES.items():
        row = [title] + [timing.cell(results[case][n] * 1e3, ".3f") for n in names]
        row += [
            timing.cell(timing.ratio(results[case][o], results[case]["numcu"]), ".2f", "x")
            for o in others
        ]
        gb = timing.gbps(per_value * N_GPU, results[case]["numcu"]) if per_value else None
        row += [timing.cell(gb, ".0f"), timing.cell(timing.ratio(gb, ceiling), ".0%")]
        rows.append(row)
    rows.append(
        [
            "write ceiling (float32 fill)",
            *([""] * (len(header) - 3)),
            timing.cell(ceiling, ".0f"),
            "",
        ]
    )
    return {"seconds_per_call": results, "write_ceiling_gbps": ceiling}, timing.format_table(
        header, rows
    )


def cpu_table(opts) -> tuple[dict, str]:
    import numcu
    import numcu.random as nr

    g = nr.default_rng(0)
    ng = np.random.default_rng(0)
    n = N_CPU
    numcu_calls = {
        "random_f64": lambda: g.random(n, device="cpu"),
        "random_f32": lambda: g.random(n, dtype=np.float32, device="cpu"),
        "normal_f64": lambda: g.standard_normal(n, device="cpu"),
        "normal_f32": lambda: g.standard_normal(n, dtype=np.float32, device="cpu"),
        "integers_i64": lambda: g.integers(0, 1000, n, device="cpu"),
        "exponential_f64": lambda: g.standard_exponential(n, device="cpu"),
    }
    numpy_calls = {
        "random_f64": lambda: ng.random(n),
        "random_f32": lambda: ng.random(n, dtype=np.float32),
        "normal_f64": lambda: ng.standard_normal(n),
        "normal_f32": lambda: ng.standard_normal(n, dtype=np.float32),
        "integers_i64": lambda: ng.integers(0, 1000, n),
        "exponential_f64": lambda: ng.standard_exponential(n),
    }
    results: dict[str, dict[str, float]] = {}
    for case in CPU_CASES:
        calls = {
            "numcu": (numcu_calls[case], lambda: None),
            "numpy": (numpy_calls[case], lambda: None),
        }
        per = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
        results[case] = {name: p.seconds for name, p in per.items()}
        print(f"measured cpu {case}", file=sys.stderr, flush=True)
    threads = numcu.get_num_threads()
    header = [
        f"CPU, n = 2^24, numcu on {threads} threads",
        "numcu ms",
        "NumPy ms",
        "vs NumPy",
        "numcu GB/s",
    ]
    rows = []
    for case, (title, per_value) in CPU_CASES.items():
        r = results[case]
        rows.append(
            [
                title,
                timing.cell(r["numcu"] * 1e3, ".2f"),
                timing.cell(r["numpy"] * 1e3, ".2f"),
                timing.cell(timing.ratio(r["numpy"], r["numcu"]), ".1f", "x"),
                timing.cell(timing.gbps(per_value * n, r["numcu"]), ".1f"),
            ]
        )
    report = {"seconds_per_call": results, "threads": threads}
    return report, timing.format_table(header, rows)


def add_options(parser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--cpu-only", action="store_true", help="the CPU backend's table only")
    which.add_argument("--gpu-only", action="store_true", help="the GPU table only")


def main(argv=None) -> int:
    opts = timing.parse_args(
        __doc__,
        argv,
        more=add_options,
    )
    report: dict[str, Any] = {}
    tables = []
    if not opts.cpu_only:
        backends, skipped = timing.load_backends()
        report["absent"] = skipped
        if "numcu" in backends:
            print(
                timing.banner(timing.device_name(backends), timing.versions(backends)), flush=True
            )
            report["gpu"], table = gpu_table(backends, opts)
            tables.append(table)
        else:
            if opts.gpu_only:
                print("numcu cannot run on a GPU here: no GPU table", flush=True)
                return 1
            print("numcu cannot run on a GPU here: the CPU table only", flush=True)
    if not opts.gpu_only:
        report["cpu"], table = cpu_table(opts)
        tables.append(table)
    if opts.json:
        timing.write_json(opts.json, report)
    for table in tables:
        print()
        print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
