"""Side-by-side benchmark of numcu.fft and numcu.linalg on device arrays against CuPy and PyTorch.

Times numcu, CuPy and PyTorch (each only when importable and able to run on the GPU) in one run,
on the same data (made once on the GPU by numcu and shared without copies)::

    python benchmarks/bench_linalg_fft.py            # full run
    python benchmarks/bench_linalg_fft.py --quick    # fewer repeats (about 2-3 minutes on an H200)
    python benchmarks/bench_linalg_fft.py --only fft,solve --json results.json

Cases
-----
- FFTs: complex64 FFT of 2^24; rfft of 2^25 float32; fft2 over a batch of 64 x 1024 x 1024
  complex64. Back to back: K calls between two synchronisations (timing.per_call_interleaved).
- Dense linear algebra in float32 and float64: solve of 8192^2 with 1 and 64 right-hand sides,
  Cholesky and QR (reduced) of 8192^2, eigh and SVD of 4096^2 (numcu's SVD with both of its
  cuSOLVER drivers, gesvdj, the default, and gesvd). Each call synchronised, the median of
  `repeats` (1 for eigh and SVD with --quick), after a warm-up at a small size that loads the
  libraries and makes their handles, then one untimed call at the timed size: CUDA loads a
  library's kernels at their first use, and where two libraries share one cuSOLVER, the
  library timed first would otherwise pay for the others (numcu's first float32 eigh of
  4096^2 took 271.7 ms, CuPy's and PyTorch's after it 88.2 and 88.0, on an H200). numcu's
  solve waits for the GPU once per call to raise LinAlgError for a singular matrix, as
  PyTorch's does.
- Batched small matrices: solve (one right-hand side) and inv of 2^16 matrices of 3 x 3 and of
  32 x 32, float32, back to back.
- The plan cache's hit cost: numcu.fft.fft of 64 complex64 back to back, against cuFFT's own
  execution of the same cached plan in a C++ loop (numcu._core._fft_exec_loop: cufftSetStream
  and cufftXtExec each time, as CuPy and PyTorch call them; numcu's hit path calls
  cufftSetStream only when the stream changes); the difference is what a call costs beyond
  cuFFT. CuPy's and PyTorch's per-call times for the same FFT are shown beside, and in the
  note two numcu calls that bound what any call producing a new device array costs:
  numcu.empty_like of the same array (an allocation and a Python array) and numcu.negative of
  it (those and one kernel launch through numcu's general call path).

Ratios are the other library's time over numcu's: > 1 means numcu is faster. Goals (H200):
>= 0.95x CuPy and PyTorch for the FFTs and the dense cases, >= 1x PyTorch for the batched small
solves and inverses, a hit overhead <= 2 us.

The main table is printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

GROUPS = ("fft", "solve", "dense", "eig", "batched", "overhead")


def share(backend: timing.Backend, x: Any) -> Any:
    """The numcu device array `x` as the backend's own array, without a copy."""
    if backend.name == "numcu":
        return x
    if backend.name == "cupy":
        return backend.module.asarray(x)
    return backend.module.from_dlpack(x)


def ops(backend: timing.Backend) -> dict[str, Callable[..., Any]]:
    """Case -> the library's function (the three spell these alike)."""
    la, fft = backend.module.linalg, backend.module.fft
    return {
        "fft": fft.fft,
        "rfft": fft.rfft,
        "fft2": fft.fft2,
        "solve": la.solve,
        "cholesky": la.cholesky,
        "qr": la.qr,
        "eigh": la.eigh,
        "svd": lambda x: la.svd(x, full_matrices=False),
        "inv": la.inv,
    }


def synchronised(fn: Callable[[], Any], sync: Callable[[], None], repeats: int) -> float:
    """Median seconds of `repeats` calls, each started on an idle GPU and waited for."""
    times = []
    for _ in range(repeats):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def random_device(numcu: Any, rng: np.random.Generator, shape, dtype) -> Any:
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        real = rng.standard_normal((2, *shape), dtype=np.float32)
        host = (real[0] + 1j * real[1]).astype(dtype)
    else:
        host = rng.standard_normal(shape, dtype=np.float32).astype(dtype)
    return numcu.asarray(host)


def well_conditioned(numcu: Any, rng, n: int, dtype) -> Any:
    a = random_device(numcu, rng, (n, n), dtype)
    return numcu.add(a, numcu.multiply(numcu.eye(n, dtype=dtype), float(n)))


def positive_definite(numcu: Any, rng, n: int, dtype) -> Any:
    a = random_device(numcu, rng, (n, n), dtype)
    g = numcu.matmul(a, numcu.matrix_transpose(a))
    return numcu.add(g, numcu.multiply(numcu.eye(n, dtype=dtype), float(n)))


def symmetric(numcu: Any, rng, n: int, dtype) -> Any:
    a = random_device(numcu, rng, (n, n), dtype)
    return numcu.add(a, numcu.matrix_transpose(a))


def main(argv=None) -> int:
    def more(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--only",
            default=",".join(GROUPS),
            help=f"comma-separated groups to run, of {', '.join(GROUPS)}",
        )
        parser.add_argument("--n", type=int, default=8192, help="order of solve, cholesky, qr")
        parser.add_argument("--n-eig", type=int, default=4096, help="order of eigh and svd")

    opts = timing.parse_args(__doc__, argv, "fewer repeats; one timed call of eigh and svd", more)
    groups = set(opts.only.split(","))
    backends, skipped = timing.load_backends()
    if "numcu" not in backends:
        print("numcu cannot run on a GPU here (see above): nothing to compare")
        return 1
    numcu = backends["numcu"].module
    print(timing.banner(timing.device_name(backends), timing.versions(backends)), flush=True)
    rng = np.random.default_rng(0)
    names = list(backends)
    table: list[tuple[str, dict[str, float], str]] = []  # (case, seconds per library, note)
    results: dict[str, dict[str, float]] = {}

    def record(case: str, seconds: dict[str, float], note: str = "") -> None:
        results[case] = seconds
        table.append((case, seconds, note))
        cells = ", ".join(f"{k} {v * 1e3:.3f} ms" for k, v in seconds.items())
        print(f"measured {case}: {cells}", file=sys.stderr, flush=True)

    def back_to_back(case: str, op: str, x: Any, note: str = "", **kw: Any) -> None:
        calls = {}
        for name, b in backends.items():
            fn, arg = ops(b)[op], share(b, x)
            calls[name] = (lambda fn=fn, arg=arg: fn(arg, **kw)), b.synchronize
        per = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
        record(case, {k: p.seconds for k, p in per.items()}, note)

    def each(case: str, op: str, args: tuple, warm: tuple, repeats: int, note: str = "") -> None:
        seconds = {}
        for name, b in backends.items():
            fn = ops(b)[op]
            shared = tuple(share(b, a) for a in args)
            small = tuple(share(b, a) for a in warm)
            fn(*small)  # libraries loaded, handles made, at a small size
            fn(*shared)  # the kernels of the timed size loaded
            b.synchronize()
            seconds[name] = synchronised(
                lambda fn=fn, shared=shared: fn(*shared), b.synchronize, repeats
            )
        record(case, seconds, note)

    if "fft" in groups:
        x = random_device(numcu, rng, (1 << 24,), np.complex64)
        back_to_back("fft complex64 n=2^24", "fft", x)
        x = random_device(numcu, rng, (1 << 25,), np.float32)
        back_to_back("rfft float32 n=2^25", "rfft", x)
        x = random_device(numcu, rng, (64, 1024, 1024), np.complex64)
        back_to_back("fft2 complex64 64 x 1024^2", "fft2", x)
        del x

    dense_repeats = 3 if opts.quick else 5
    eig_repeats = 1 if opts.quick else 3
    for dtype in (np.float32, np.float64):
        tag = np.dtype(dtype).name
        if "solve" in groups:
            n = opts.n
            a = well_conditioned(numcu, rng, n, dtype)
            wa = well_conditioned(numcu, rng, 64, dtype)
            for k in (1, 64):
                b = random_device(numcu, rng, (n,) if k == 1 else (n, k), dtype)
                wb = random_device(numcu, rng, (64,) if k == 1 else (64, k), dtype)
                each(f"solve {tag} {n}^2, {k} rhs", "solve", (a, b), (wa, wb), dense_repeats)
            del a
        if "dense" in groups:
            n = opts.n
            a = positive_definite(numcu, rng, n, dtype)
            w = positive_definite(numcu, rng, 64, dtype)
            each(f"cholesky {tag} {n}^2", "cholesky", (a,), (w,), dense_repeats)
            each(f"qr {tag} {n}^2", "qr", (a,), (w,), dense_repeats)
            del a
        if "eig" in groups:
            n = opts.n_eig
            a = symmetric(numcu, rng, n, dtype)
            w = symmetric(numcu, rng, 64, dtype)
            each(f"eigh {tag} {n}^2", "eigh", (a,), (w,), eig_repeats)
            each(f"svd {tag} {n}^2", "svd", (a,), (w,), eig_repeats, "numcu: gesvdj")
            old = numcu._core._linalg_svd_driver("gesvd")
            try:
                numcu.linalg.svd(w)
                t = synchronised(
                    lambda a=a: numcu.linalg.svd(a, full_matrices=False),
                    numcu.cuda.synchronize,
                    eig_repeats,
                )
            finally:
                numcu._core._linalg_svd_driver(old)
            record(f"svd {tag} {n}^2, numcu's gesvd", {"numcu": t}, "numcu: gesvd")
            del a

    if "batched" in groups:
        count = 1 << 16
        for n in (3, 32):
            a = numcu.add(
                random_device(numcu, rng, (count, n, n), np.float32),
                numcu.multiply(numcu.eye(n, dtype="float32"), float(4 * n)),
            )
            b = random_device(numcu, rng, (count, n, 1), np.float32)
            calls = {}
            for name, be in backends.items():
                fn, sa, sb = ops(be)["solve"], share(be, a), share(be, b)
                calls[name] = (lambda fn=fn, sa=sa, sb=sb: fn(sa, sb)), be.synchronize
            per = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
            record(f"solve float32 2^16 x {n}x{n}", {k: p.seconds for k, p in per.items()})
            back_to_back(f"inv float32 2^16 x {n}x{n}", "inv", a)
            del a, b

    if "overhead" in groups:
        x = random_device(numcu, rng, (64,), np.complex64)
        calls = {}
        for name, b in backends.items():
            fn, s = ops(b)["fft"], share(b, x)
            calls[name] = (lambda fn=fn, s=s: fn(s)), b.synchronize
        loop = 1000

        def exec_loop(x=x):
            numcu._core._fft_exec_loop(x, loop)

        calls["cuFFT alone"] = (exec_loop, numcu.cuda.synchronize)
        calls["numcu empty_like"] = (lambda x=x: numcu.empty_like(x), numcu.cuda.synchronize)
        calls["numcu negative"] = (lambda x=x: numcu.negative(x), numcu.cuda.synchronize)
        per = timing.per_call_interleaved(calls, opts.min_time, opts.repeats, opts.k_max)
        seconds = {k: p.seconds for k, p in per.items() if k != "cuFFT alone"}
        alone = per["cuFFT alone"].seconds / loop
        seconds["cuFFT alone"] = alone
        record(
            "fft complex64 n=64 per call (plan cache hit)",
            seconds,
            f"numcu - cuFFT alone = {(seconds['numcu'] - alone) * 1e6:.2f} us; "
            f"numcu.empty_like {seconds['numcu empty_like'] * 1e6:.2f} us, "
            f"numcu.negative {seconds['numcu negative'] * 1e6:.2f} us per call",
        )

    if opts.json:
        timing.write_json(opts.json, {"seconds_per_call": results, "absent": skipped})

    others = [n for n in names if n != "numcu"]
    header = ["work", *(f"{n} ms" for n in names), *(f"vs {n}" for n in others), "note"]
    rows = []
    for case, seconds, note in table:
        row = [case]
        row += [timing.cell(seconds[n] * 1e3 if n in seconds else None, ".4g") for n in names]
        row += [
            timing.cell(timing.ratio(seconds.get(o), seconds.get("numcu")), ".2f", "x")
            for o in others
        ]
        rows.append(row + [note])
    print()
    print(timing.format_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
