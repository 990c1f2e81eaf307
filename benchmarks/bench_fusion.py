"""Fused expressions side by side: numcu.evaluate, separate calls, cupy.fuse, PyTorch, numexpr.

Each library only when importable and able to run here (numexpr and NumPy run on the CPU), in
one run, on the same random inputs::

    python benchmarks/bench_fusion.py --quick     # about a minute on an H200
    python benchmarks/bench_fusion.py             # a few minutes (--dtype float32: half)
    python benchmarks/bench_fusion.py --json results.json

Expressions: ``a*b + c``; ``2*a + 3*b - c*d``; ``sin(a)*cos(b) + sqrt(abs(c - d))*2 - exp(-a)``;
a degree-8 polynomial in Horner form; ``where(a > b, a*c, b*d)``; float32 and float64; n from
2^10 to 2^27 (--quick: 2^10, 2^20 and 2^27).

Columns, per call (back to back: synchronise, K calls, synchronise; the median of 5, 3 with
--quick):

- numcu fused: ``numcu.evaluate`` on numcu arrays into ``out=``, its GB/s and its share of the
  device copy bandwidth measured in the same run (bytes: one read of each input, one write of
  the output: the memory limit);
- numcu separate: the expression as numcu's ufunc calls one by one (numcu.ndarray's operators);
- cupy.fuse, steady (a fused function called again);
- torch eager; torch.compile where it works (its first call, compilation included, in its own
  column at 2^27 only; skipped where it fails);
- numexpr and NumPy on the CPU with host copies (n <= 2^24: NumPy takes seconds at 2^27).

Then, at 2^27 float32: the first call of a new expression in a fresh process for numcu, and for
cupy.fuse with an empty kernel cache (CUPY_CACHE_DIR a new temporary folder, the in-memory cache
of a fresh process empty), against each one's steady call; and at 2^10 a fused call against one
numcu.add into ``out=``.

A CPU section last: numcu.evaluate(..., device="cpu") on NumPy arrays against numexpr on the same
number of threads, n >= 2^16.

The tables are printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

HORNER = "(((((((0.5*a + 1.25)*a - 0.75)*a + 1.5)*a - 0.25)*a + 2.0)*a - 1.75)*a + 0.125)*a - 1.0"
EXPRESSIONS = {
    "a*b+c": ("a*b + c", "abc"),
    "2a+3b-cd": ("2*a + 3*b - c*d", "abcd"),
    "trig": ("sin(a)*cos(b) + sqrt(abs(c - d))*2 - exp(-a)", "abcd"),
    "horner8": (HORNER, "a"),
    "where": ("where(a > b, a*c, b*d)", "abcd"),
}
DTYPES = ("float32", "float64")
SIZES = [2**k for k in (10, 14, 18, 20, 22, 24, 27)]
SIZES_QUICK = [2**10, 2**20, 2**27]
CPU_MAX = 2**24
CPU_SIZES = [2**16, 2**20, 2**24]
CPU_SIZES_QUICK = [2**16, 2**22]


def namespace(mod, name: str) -> dict[str, Any]:
    """The expression's functions in a library."""
    if name == "torch":
        return {"sin": mod.sin, "cos": mod.cos, "sqrt": mod.sqrt, "abs": mod.abs,
                "exp": mod.exp, "where": mod.where}  # fmt: skip
    return {f: getattr(mod, f) for f in ("sin", "cos", "sqrt", "abs", "exp", "where")}


def function_of(expr: str, args: str, names: dict[str, Any]) -> Callable:
    """A Python function of `args` computing `expr` with `names`' functions."""
    src = f"def f({', '.join(args)}):\n    return {expr}\n"
    scope: dict[str, Any] = dict(names)
    exec(src, scope)  # noqa: S102 (the benchmark's own expressions)
    return scope["f"]


def copy_bandwidth(backends, n: int, opts) -> tuple[float | None, str]:
    """The device copy's GB/s (bytes read plus written) at n float32, and who measured it."""
    if "torch" in backends:
        torch = backends["torch"].module
        a = torch.empty(n, dtype=torch.float32, device="cuda")
        b = torch.empty_like(a)
        t = timing.per_call_back_to_back(lambda: b.copy_(a), backends["torch"].synchronize,
                                         opts.min_time, opts.repeats, opts.k_max)  # fmt: skip
        return timing.gbps(8 * n, t.seconds), "torch copy_ (cudaMemcpy)"
    if "cupy" in backends:
        cp = backends["cupy"].module
        a = cp.empty(n, dtype=cp.float32)
        b = cp.empty_like(a)
        t = timing.per_call_back_to_back(lambda: b.data.copy_from_device(a.data, 4 * n),
                                         backends["cupy"].synchronize, opts.min_time,
                                         opts.repeats, opts.k_max)  # fmt: skip
        return timing.gbps(8 * n, t.seconds), "cupy copy_from_device (cudaMemcpy)"
    numcu = backends["numcu"].module
    a = numcu.empty(n, dtype="float32")
    b = numcu.empty(n, dtype="float32")
    t = timing.per_call_back_to_back(lambda: numcu.positive(a, out=b),
                                     backends["numcu"].synchronize, opts.min_time, opts.repeats,
                                     opts.k_max)  # fmt: skip
    return timing.gbps(8 * n, t.seconds), "numcu.positive into out= (a copy kernel)"


FIRST_CALL_NUMCU = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    import numcu
    n, dtype = int(sys.argv[1]), sys.argv[2]
    rng = np.random.default_rng(1)
    env = {k: numcu.asarray(rng.standard_normal(n).astype(dtype)) for k in "abcd"}
    out = numcu.empty(n, dtype=dtype)
    numcu.add(env["a"], env["b"], out=out)  # the GPU's context and memory pool, not the expression
    numcu.cuda.synchronize()
    expr = "sin(a)*cos(b) + sqrt(abs(c - d))*2 - exp(-a) + 0.0625"  # parsed nowhere before
    t0 = time.perf_counter()
    numcu.evaluate(expr, local_dict=env, out=out)
    numcu.cuda.synchronize()
    first = time.perf_counter() - t0
    steady = []
    for _ in range(20):
        numcu.cuda.synchronize()
        t0 = time.perf_counter()
        numcu.evaluate(expr, local_dict=env, out=out)
        numcu.cuda.synchronize()
        steady.append(time.perf_counter() - t0)
    print(json.dumps({"first": first, "steady": sorted(steady)[10]}))
    """
)

FIRST_CALL_CUPY = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    import cupy as cp
    n, dtype = int(sys.argv[1]), sys.argv[2]
    rng = np.random.default_rng(1)
    env = [cp.asarray(rng.standard_normal(n).astype(dtype)) for _ in range(4)]
    (env[0] + env[1]).sum()  # the GPU's context, not the expression
    cp.cuda.Device().synchronize()

    @cp.fuse()
    def f(a, b, c, d):
        return cp.sin(a)*cp.cos(b) + cp.sqrt(cp.abs(c - d))*2 - cp.exp(-a) + 0.0625

    t0 = time.perf_counter()
    f(*env)
    cp.cuda.Device().synchronize()
    first = time.perf_counter() - t0
    steady = []
    for _ in range(20):
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        f(*env)
        cp.cuda.Device().synchronize()
        steady.append(time.perf_counter() - t0)
    print(json.dumps({"first": first, "steady": sorted(steady)[10]}))
    """
)


def fresh_process(script: str, n: int, dtype: str, env_extra: dict[str, str]) -> dict | str:
    """Run `script` in a new Python process; its JSON line, or why it failed."""
    env = dict(os.environ, **env_extra)
    try:
        p = subprocess.run([sys.executable, "-c", script, str(n), dtype], env=env,
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timed out"
    if p.returncode != 0:
        return f"failed: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode}"
    return json.loads(p.stdout.strip().splitlines()[-1])


def bench_gpu(backends, opts, results, notes):
    numcu = backends["numcu"].module
    sync = backends["numcu"].synchronize
    sizes = SIZES_QUICK if opts.quick else SIZES
    rng = np.random.default_rng(0)
    ne = timing.import_optional("numexpr")
    if isinstance(ne, str):
        notes.append(f"numexpr: skipped: {ne}")
        ne = None
    torch_compile_ok = "torch" in backends
    for dtype in DTYPES:
        for n in sizes:
            host = {k: rng.standard_normal(n, dtype=np.float32).astype(dtype) for k in "abcd"}
            dev = {k: numcu.asarray(v) for k, v in host.items()}
            out = numcu.empty(n, dtype=dtype)
            calls: dict[str, tuple[Callable, Callable]] = {}
            for name, (expr, args) in EXPRESSIONS.items():
                env = {k: dev[k] for k in args}
                calls[f"{name}|numcu fused"] = (
                    lambda expr=expr, env=env, o=out: numcu.evaluate(expr, local_dict=env, out=o),
                    sync,
                )
                sep = function_of(expr, args, namespace(numcu, "numcu"))
                calls[f"{name}|numcu separate"] = (lambda sep=sep, env=env: sep(**env), sync)
                if "cupy" in backends:
                    cp = backends["cupy"].module
                    cenv = {k: cp.asarray(host[k]) for k in args}
                    fused = cp.fuse(function_of(expr, args, namespace(cp, "cupy")))
                    # cupy.fuse's functions take positional arguments only.
                    calls[f"{name}|cupy.fuse"] = (lambda f=fused, e=cenv: f(*e.values()),
                                                  backends["cupy"].synchronize)  # fmt: skip
                if "torch" in backends:
                    torch = backends["torch"].module
                    tenv = {k: torch.from_numpy(host[k]).to("cuda") for k in args}
                    tf = function_of(expr, args, namespace(torch, "torch"))
                    calls[f"{name}|torch"] = (lambda f=tf, e=tenv: f(**e),
                                              backends["torch"].synchronize)  # fmt: skip
                    if torch_compile_ok and n == sizes[-1]:
                        try:
                            compiled = torch.compile(tf, dynamic=False)
                            backends["torch"].synchronize()
                            t0 = time.perf_counter()
                            compiled(**tenv)
                            backends["torch"].synchronize()
                            results[(f"{name}|torch.compile first", dtype, n)] = (
                                time.perf_counter() - t0
                            )
                            calls[f"{name}|torch.compile"] = (
                                lambda f=compiled, e=tenv: f(**e),
                                backends["torch"].synchronize,
                            )
                        except Exception as exc:  # no compiler toolchain, no Triton...
                            notes.append(
                                f"torch.compile: skipped: {type(exc).__name__}: {exc}"[:200]
                            )
                            torch_compile_ok = False
                if n <= CPU_MAX:
                    henv = {k: host[k] for k in args}
                    npf = function_of(expr, args, namespace(np, "numpy"))
                    calls[f"{name}|numpy"] = (lambda f=npf, e=henv: f(**e), lambda: None)
                    if ne is not None:
                        calls[f"{name}|numexpr"] = (
                            lambda expr=expr, e=henv: ne.evaluate(expr, local_dict=e),
                            lambda: None)  # fmt: skip
            timed = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
            for key, t in timed.items():
                results[(key, dtype, n)] = t.seconds
            if n == 2**10:
                small = {
                    "add": (lambda d=dev, o=out: numcu.add(d["a"], d["b"], out=o), sync),
                    "fused": (
                        lambda d=dev, o=out: numcu.evaluate("a*b + c", local_dict=d, out=o),
                        sync,
                    ),
                }
                t = timing.per_call_interleaved(small, opts.min_time, opts.repeats, opts.k_max)
                results[("small|numcu.add", dtype, n)] = t["add"].seconds
                results[("small|fused a*b+c", dtype, n)] = t["fused"].seconds
            print(f"done: {dtype} n=2^{n.bit_length() - 1}", file=sys.stderr, flush=True)
            del host, dev, out, calls, timed


def bench_cpu(opts, results, notes):
    import numcu

    ne = timing.import_optional("numexpr")
    if isinstance(ne, str):
        notes.append(f"numexpr (CPU section): skipped: {ne}")
        ne = None
    threads = numcu.get_num_threads()
    if ne is not None:
        ne.set_num_threads(threads)
    rng = np.random.default_rng(2)
    for dtype in DTYPES:
        for n in CPU_SIZES_QUICK if opts.quick else CPU_SIZES:
            host = {k: rng.standard_normal(n, dtype=np.float32).astype(dtype) for k in "abcd"}
            out = np.empty(n, dtype)
            calls = {}
            for name, (expr, args) in EXPRESSIONS.items():
                env = {k: host[k] for k in args}
                calls[f"{name}|numcu cpu"] = (
                    lambda expr=expr, env=env, o=out: numcu.evaluate(
                        expr, local_dict=env, out=o, device="cpu"
                    ),
                    lambda: None,
                )
                if ne is not None:
                    calls[f"{name}|numexpr"] = (
                        lambda expr=expr, env=env, o=out: ne.evaluate(expr, local_dict=env, out=o),
                        lambda: None,
                    )
            # Each library's calls timed apart from the other's: two thread pools taking turns
            # call by call would leave one's threads spinning while the other works.
            for lib in ("numcu cpu", "numexpr"):
                mine = {k: v for k, v in calls.items() if k.endswith(lib)}
                timed = timing.per_call_interleaved(mine, opts.min_time, opts.repeats, opts.k_max)
                for key, t in timed.items():
                    results[("cpu|" + key, dtype, n)] = t.seconds
            print(f"done: CPU {dtype} n=2^{n.bit_length() - 1}", file=sys.stderr, flush=True)
    return threads


def main(argv=None):
    opts = timing.parse_args(
        __doc__,
        argv,
        quick_help="three sizes, fewer repeats",
        more=lambda p: p.add_argument(
            "--dtype", choices=DTYPES, help="one dtype only (a full run in two parts)"
        ),
    )
    global DTYPES
    if opts.dtype:
        DTYPES = (opts.dtype,)
    # torch.compile's first call compiles: an empty cache folder, so that it does here too.
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", tempfile.mkdtemp(prefix="inductor-"))
    backends, _ = timing.load_backends()
    notes: list[str] = []
    results: dict[tuple, float] = {}
    lines: list[str] = []
    gpu = "numcu" in backends
    if gpu:
        print(timing.banner(timing.device_name(backends), timing.versions(backends)), flush=True)
        big = (SIZES_QUICK if opts.quick else SIZES)[-1]
        copy_gbps, copy_how = copy_bandwidth(backends, big, opts)
        bench_gpu(backends, opts, results, notes)
        first_numcu = fresh_process(FIRST_CALL_NUMCU, big, "float32", {})
        first_cupy = ("cupy not loaded" if "cupy" not in backends else
                      fresh_process(FIRST_CALL_CUPY, big, "float32",
                                    {"CUPY_CACHE_DIR": tempfile.mkdtemp(prefix="cupy-cache-"),
                                     "CUPY_CACHE_IN_MEMORY": "0"}))  # fmt: skip
    else:
        print("numcu cannot run on a GPU here: the CPU section only", flush=True)
    threads = bench_cpu(opts, results, notes)

    # Tables.
    if gpu:
        sizes = SIZES_QUICK if opts.quick else SIZES
        libs = ["numcu fused", "numcu separate", "cupy.fuse", "torch", "torch.compile", "numexpr",
                "numpy"]  # fmt: skip
        for dtype in DTYPES:
            header = ["expression, n", "GB/s fused", "% of copy", *(f"{x} us" for x in libs),
                      "vs separate", "vs cupy.fuse"]  # fmt: skip
            rows = []
            for name, (_, args) in EXPRESSIONS.items():
                for n in sizes:
                    t = {lib: results.get((f"{name}|{lib}", dtype, n)) for lib in libs}
                    nbytes = (len(args) + 1) * n * np.dtype(dtype).itemsize
                    g = timing.gbps(nbytes, t["numcu fused"]) if t["numcu fused"] else None
                    share = (
                        (100 * g / copy_gbps) if g and copy_gbps and dtype == "float32" else None
                    )
                    rows.append([f"{name} 2^{n.bit_length() - 1}", timing.cell(g, ".0f"),
                                 timing.cell(share, ".0f", "%"),
                                 *(timing.cell(None if v is None else v * 1e6, ".1f")
                                   for v in t.values()),
                                 timing.cell(timing.ratio(t["numcu separate"], t["numcu fused"]),
                                             ".2f", "x"),
                                 timing.cell(timing.ratio(t["cupy.fuse"], t["numcu fused"]),
                                             ".2f", "x")])  # fmt: skip
            lines.append(f"\n{dtype} on the GPU (times per call; numpy and numexpr on the CPU):")
            lines.append(timing.format_table(header, rows))
        copy = timing.cell(copy_gbps, ".0f")
        lines.append(
            f"\ndevice copy: {copy} GB/s at 2^{big.bit_length() - 1} float32 ({copy_how}); "
            "% of copy = fused GB/s / that"
        )
        for dtype in DTYPES:
            for name in EXPRESSIONS:
                first = results.get((f"{name}|torch.compile first", dtype, big))
                if first is not None:
                    lines.append(f"torch.compile first call, {name} {dtype} 2^"
                                 f"{big.bit_length() - 1}: {first:.2f} s")  # fmt: skip
        for lib, first in (
            ("numcu.evaluate", first_numcu),
            ("cupy.fuse (empty cache)", first_cupy),
        ):
            if isinstance(first, dict):
                ms, steady = first["first"] * 1e3, first["steady"] * 1e3
                lines.append(
                    f"{lib} first call of a new expression in a fresh process (trig + 0.0625, "
                    f"float32 2^{big.bit_length() - 1}): {ms:.2f} ms, steady {steady:.3f} ms, "
                    f"first/steady {ms / steady:.1f}x"
                )
            else:
                lines.append(f"{lib} first call: {first}")
        if isinstance(first_numcu, dict) and isinstance(first_cupy, dict):
            lines.append(f"cupy.fuse first call / numcu first call: "
                         f"{first_cupy['first'] / first_numcu['first']:.0f}x")  # fmt: skip
        for dtype in DTYPES:
            add = results.get(("small|numcu.add", dtype, 2**10))
            fused = results.get(("small|fused a*b+c", dtype, 2**10))
            if add and fused:
                lines.append(f"n=2^10 {dtype}: numcu.add {add * 1e6:.2f} us, evaluate('a*b + c') "
                             f"{fused * 1e6:.2f} us: {fused / add:.2f}x one add")  # fmt: skip
    header = ["CPU: expression, n", "numcu us", "numexpr us", "numexpr / numcu"]
    rows = []
    for dtype in DTYPES:
        for name in EXPRESSIONS:
            for n in CPU_SIZES_QUICK if opts.quick else CPU_SIZES:
                a = results.get((f"cpu|{name}|numcu cpu", dtype, n))
                b = results.get((f"cpu|{name}|numexpr", dtype, n))
                rows.append([f"{name} {dtype} 2^{n.bit_length() - 1}",
                             timing.cell(None if a is None else a * 1e6, ".1f"),
                             timing.cell(None if b is None else b * 1e6, ".1f"),
                             timing.cell(timing.ratio(b, a), ".2f", "x")])  # fmt: skip
    lines.append(f"\nCPU backend, NumPy arrays, {threads} threads for both (numcu.evaluate "
                 f"device='cpu' into out=, numexpr.evaluate into out=):")  # fmt: skip
    lines.append(timing.format_table(header, rows))
    lines.extend(notes)
    if opts.json:
        timing.write_json(opts.json, {" | ".join(map(str, k)): v for k, v in results.items()})
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
