"""NumPy in, NumPy out: numcu on host arrays, side by side with NumPy, CuPy and PyTorch.

Float32 add, multiply, sin, exp and sum of NumPy arrays, each result a new NumPy array (or
scalar), for n from 2^10 to 2^26, on every path that can run here, in one run::

    python benchmarks/bench_host.py                   # n = 2^10, 2^12, ... 2^26
    python benchmarks/bench_host.py --step 1          # every power of two
    python benchmarks/bench_host.py --quick           # fewer repeats and sizes
    python benchmarks/bench_host.py --plot host.png --json host.json

Paths (a path that cannot run here is left out and its column shows "-"):

- ``numpy``: NumPy's own function (one thread).
- ``numcu``: numcu with its default placement (the GPU when there is one, else the CPU).
- ``cpu 1t`` and ``cpu Nt``: numcu with ``device="cpu"`` on one thread and on all N cores of
  this process (``numcu.set_num_threads``).
- ``cuda``: numcu with ``device="cuda"``: host inputs copied by the CPU threads into
  page-locked staging, chunk by chunk, while earlier chunks are copied and computed on several
  streams; results in blocks of numcu's page-locked pool.
- ``cuda reg``: the same with the inputs pinned in place instead (``cudaHostRegister`` once per
  array, kept while it lives): which of the two is faster per size is what this column is for.
- ``cupy`` and ``torch``: copy in (``cupy.asarray``, ``torch.from_numpy(x).cuda()``), the
  operation, copy out (``cupy.asnumpy``, ``.cpu().numpy()``).

Method
------
- Inputs: standard normal float32, drawn once at the largest size and sliced. Every path's
  result is checked against NumPy's at n = 2^20 before anything is timed. ``cuda reg`` gets
  copies of its inputs, which die with its row: a registration covers the whole buffer an
  array views and lasts while that buffer lives, so pinning the shared inputs would turn every
  later ``cuda`` and ``numcu`` cell into the pinned path too.
- Each cell: warm-up calls, then K back-to-back calls lasting at least 50 ms, median of 5
  such samples (20 ms and 3 with --quick). The paths of a row take their samples in turn, so
  the machine's slow spells (this host's own NumPy times moved by a third between runs) fall
  on every path alike and the ratios hold. The paths return host results, so no extra
  synchronisation is needed.
- Ratios are NumPy's time over the path's: above 1 is faster than NumPy.
- Copy bandwidth: NumPy's copyto of N contiguous slices on N Python threads (NumPy releases
  the GIL) into an existing array of 2^24 and of 2^26 float32; the larger figure counts.
  Bandwidth is bytes read plus written (copy 8 bytes per element, add 12), 1e9 B/s.
- The aims of the host-data issue are evaluated last, from the same measurements.

The aims and the tables are printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

import numcu  # noqa: E402

OPS = ("add", "multiply", "sin", "exp", "sum")
PATHS = ("numpy", "numcu", "cpu 1t", "cpu Nt", "cuda", "cuda reg", "cupy", "torch")
# Host path settings per path (numcu._core._host_path_config), where the build has them: builds
# before the chunked path had one way only, and their rows stay comparable.
HOST_PATH = {"cuda reg": {"register_inputs": True}}
BYTES_PER_ELEMENT = {"add": 12, "multiply": 12, "sin": 8, "exp": 8, "sum": 4}
CHECK_N = 1 << 20
HEADLINE_N = 1 << 24


def cores() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# A path gives, per op, a function of NumPy arrays and the device= keyword it takes (or None).
Path = tuple[Callable[..., Any], Optional[str]]


def numpy_path(op: str) -> Path:
    return getattr(np, op), None


def numcu_path(op: str, device: str | None = None) -> Path:
    return getattr(numcu, op), device


def cupy_path(cp: Any, op: str) -> Path:
    fn = getattr(cp, op)
    return (lambda *args: cp.asnumpy(fn(*(cp.asarray(a) for a in args)))), None


def torch_path(torch: Any, op: str) -> Path:
    fn = getattr(torch, op)
    return (lambda *args: fn(*(torch.from_numpy(a).cuda() for a in args)).cpu().numpy()), None


def inputs_for(path: str, args: tuple) -> tuple:
    """The arrays a path runs on: copies of its own where it pins its inputs in place."""
    if HOST_PATH.get(path, {}).get("register_inputs"):
        return tuple(np.array(a, copy=True) for a in args)
    return args


def call_of(path: Path, args: tuple) -> Callable[[], Any]:
    """The call of a path's function on `args` as a script spells it: the arrays positional and
    device= a keyword. (A wrapper merging the keyword, as functools.partial does, adds its own
    quarter microsecond to numcu's small sizes.)"""
    fn, device = path
    if len(args) == 1:
        (a,) = args
        return (lambda: fn(a)) if device is None else (lambda: fn(a, device=device))
    a, b = args
    return (lambda: fn(a, b)) if device is None else (lambda: fn(a, b, device=device))


def make_paths(peers: dict[str, timing.Backend], gpu: bool) -> dict[str, Callable[[str], Path]]:
    """path name -> (op -> the path's function and device keyword)."""
    paths: dict[str, Callable[[str], Path]] = {
        "numpy": numpy_path,
        "numcu": numcu_path,
        "cpu 1t": lambda op: numcu_path(op, device="cpu"),
        "cpu Nt": lambda op: numcu_path(op, device="cpu"),
    }
    if gpu:
        paths["cuda"] = lambda op: numcu_path(op, device="cuda")
        if hasattr(numcu._core, "_host_path_config"):
            paths["cuda reg"] = lambda op: numcu_path(op, device="cuda")
    if "cupy" in peers:
        paths["cupy"] = lambda op: cupy_path(peers["cupy"].module, op)
    if "torch" in peers:
        paths["torch"] = lambda op: torch_path(peers["torch"].module, op)
    return paths


def threads_for(path: str, all_threads: int) -> int:
    return 1 if path == "cpu 1t" else all_threads


_DEFAULT_HOST_PATH: dict[str, Any] = {}


def enter(path: str, all_threads: int) -> None:
    """The thread count and host path settings of `path`."""
    numcu.set_num_threads(threads_for(path, all_threads))
    config = getattr(numcu._core, "_host_path_config", None)
    if config is None:
        return
    if not _DEFAULT_HOST_PATH:
        _DEFAULT_HOST_PATH.update(config())
    config(**{**_DEFAULT_HOST_PATH, **HOST_PATH.get(path, {})})


def check(paths, x, y, all_threads) -> None:
    """Every path's results agree with NumPy's at n = CHECK_N (a wrong answer is not timed)."""
    a, b = x[:CHECK_N], y[:CHECK_N]
    for op in OPS:
        args = (a, b) if op in ("add", "multiply") else (a,)
        expected = np.asarray(getattr(np, op)(*args), dtype=np.float64)
        for path, make in paths.items():
            enter(path, all_threads)
            got = np.asarray(call_of(make(op), inputs_for(path, args))(), dtype=np.float64)
            scale = np.sqrt(CHECK_N) * np.abs(a).max() if op == "sum" else 0.0
            if not np.allclose(got, expected, rtol=1e-5, atol=1e-6 + 1e-6 * scale):
                raise AssertionError(f"bench_host: {path} {op} differs from NumPy's")
    enter("numcu", all_threads)


def placement_lines(x, exponents) -> list[str]:
    """Where the default placement sends each op, per n (numcu.placement), where it exists."""
    model = getattr(numcu, "placement", None)
    if model is None:
        return []
    lines = [f"placement constants: {model.constants}"]
    for op in OPS:
        cells = []
        for e in exponents:
            a = x[: 1 << e]
            d = model(op, *((a, a) if op in ("add", "multiply") else (a,)))
            cells.append(f"2^{e} {d['device']}")
        lines.append(f"  {op}: " + ", ".join(cells))
    return lines


def copy_bandwidth(src: np.ndarray, threads: int, opts) -> float:
    """GB/s of NumPy copies of `threads` slices of src on as many Python threads."""
    dst = np.empty_like(src)
    bounds = np.linspace(0, src.size, threads + 1).astype(int)
    parts = list(zip(bounds[:-1], bounds[1:]))
    with ThreadPoolExecutor(threads) as pool:

        def copy() -> None:
            list(pool.map(lambda p: np.copyto(dst[p[0] : p[1]], src[p[0] : p[1]]), parts))

        t = timing.per_call_back_to_back(copy, lambda: None, opts.min_time, opts.repeats).seconds
    return timing.gbps(8 * src.size, t)


def measure(paths, x, y, exponents, all_threads, opts) -> dict[str, dict[str, dict[int, float]]]:
    """op -> path -> n -> seconds per call: the median of opts.repeats samples of K back-to-back
    calls. The paths take their samples in turn, so that a slow spell of the machine falls on
    every path of a row alike, not on whichever path it was measuring then."""
    results: dict[str, dict[str, dict[int, float]]] = {op: {p: {} for p in paths} for op in OPS}
    for e in exponents:
        n = 1 << e
        a, b = x[:n], y[:n]
        for op in OPS:
            args = (a, b) if op in ("add", "multiply") else (a,)
            calls = {
                path: (call_of(make(op), inputs_for(path, args)), lambda: None)
                for path, make in paths.items()
            }
            timed = timing.per_call_interleaved(
                calls, opts.min_time, opts.repeats, before=lambda path: enter(path, all_threads)
            )
            for path in paths:
                results[op][path][n] = timed[path].seconds
            del calls, timed
            print(
                f"  2^{e} {op}: " + " | ".join(f"{p} {fmt_time(results[op][p][n])}" for p in paths),
                flush=True,
            )
    enter("numcu", all_threads)
    return results


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f}us"
    return f"{seconds * 1e3:.2f}ms"


def table(op: str, per_path: dict[str, dict[int, float]], exponents) -> str:
    header = ["n", *(p for p in PATHS)]
    rows = []
    for e in exponents:
        n = 1 << e
        base = per_path["numpy"].get(n)
        row = [f"2^{e}"]
        for p in PATHS:
            t = per_path.get(p, {}).get(n)
            if t is None:
                row.append("-")
            elif p == "numpy":
                row.append(fmt_time(t))
            else:
                row.append(f"{fmt_time(t)} {timing.cell(timing.ratio(base, t), '.2f', 'x')}")
        rows.append(row)
    return f"{op} (float32, NumPy in, NumPy out; ratio = NumPy's time / the path's)\n" + (
        timing.format_table(header, rows)
    )


def aims(results, exponents, copy_gbps) -> list[str]:
    """The host-data issue's aims, each PASS, FAIL or '-' (not measured here)."""
    lines = []

    def get(op, path, n):
        return results[op].get(path, {}).get(n)

    def verdict(ok: bool | None) -> str:
        return "-   " if ok is None else ("PASS" if ok else "FAIL")

    def fraction_aim(op, path, n, limit, against="numpy"):
        t, ref = get(op, path, n), get(op, against, n)
        r = timing.ratio(t, ref)
        ok = None if r is None else r <= limit
        lines.append(
            f"{verdict(ok)} {op} 2^{n.bit_length() - 1}: {path} at most {limit:.2f} of "
            f"{against}'s time: {timing.cell(r, '.3f')}"
        )

    n24, n26 = 1 << 24, 1 << 26
    for op, limit in (("add", 0.25), ("multiply", 0.25), ("sin", 0.2), ("exp", 0.2)):
        fraction_aim(op, "numcu", n24, limit)
    fraction_aim("sum", "numcu", n26, 0.25)
    fraction_aim("add", "cuda", n24, 0.25, against="cupy")

    worst = None
    for op in OPS:
        for e in exponents:
            n = 1 << e
            t, ref = get(op, "numcu", n), get(op, "numpy", n)
            if t is None or ref is None:
                continue
            ok = t <= 1.1 * ref if e >= 14 else t <= ref + 1e-6
            excess = t / ref if e >= 14 else (t - ref) * 1e6
            if not ok and (worst is None or e < worst[1]):
                worst = (op, e, excess)
    measured = any(get(op, "numcu", 1 << e) for op in OPS for e in exponents)
    lines.append(
        f"{verdict(None if not measured else worst is None)} default placement: at most 1.1x "
        "NumPy's time from 2^14, at most 1 us more below"
        + (
            ""
            if worst is None
            else f": first miss {worst[0]} 2^{worst[1]} "
            + (f"{worst[2]:.2f}x" if worst[1] >= 14 else f"+{worst[2]:.1f} us")
        )
    )

    slower = [
        f"{op} 2^{e} {timing.ratio(get(op, 'numpy', 1 << e), get(op, 'cpu 1t', 1 << e)):.2f}x"
        for op in OPS
        for e in exponents
        if get(op, "cpu 1t", 1 << e) and get(op, "cpu 1t", 1 << e) > get(op, "numpy", 1 << e)
    ]
    lines.append(
        f"{verdict(not slower)} device='cpu', 1 thread: at least NumPy's speed for every op "
        f"and n" + (f": slower at {', '.join(slower)}" if slower else "")
    )
    for op in ("sin", "exp"):
        r = timing.ratio(get(op, "numpy", n24), get(op, "cpu Nt", n24))
        ok = None if r is None else r >= 6
        lines.append(
            f"{verdict(ok)} {op} 2^24 device='cpu', all threads: at least 6x NumPy's speed: "
            f"{timing.cell(r, '.2f', 'x')}"
        )
    t = get("add", "cpu Nt", n24)
    add_gbps = timing.gbps(12 * n24, t) if t else None
    r = timing.ratio(add_gbps, copy_gbps)
    lines.append(
        f"{verdict(None if r is None else r >= 0.8)} add 2^24 device='cpu', all threads: at "
        f"least 80% of the copy bandwidth: {timing.cell(add_gbps, '.1f', ' GB/s')} = "
        f"{timing.cell(None if r is None else 100 * r, '.0f', '%')} of "
        f"{timing.cell(copy_gbps, '.1f', ' GB/s')}"
    )
    return lines


def plot(path: str, results, exponents, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(15, 9))
    for ax, op in zip(axes.flat, OPS):
        for p in PATHS:
            pts = sorted(results[op].get(p, {}).items())
            if pts:
                ax.loglog([n for n, _ in pts], [t * 1e3 for _, t in pts], marker="o", label=p)
        ax.set_title(f"{op} (float32)")
        ax.set_xlabel("n")
        ax.set_ylabel("ms per call")
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend()
    axes.flat[-1].axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"plot saved to {path}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, every 4th power")
    parser.add_argument("--step", type=int, default=2, help="exponent step from 2^10 (2)")
    parser.add_argument("--max-exponent", type=int, default=26, help="largest n is 2^this (26)")
    parser.add_argument("--plot", metavar="PATH", help="save a PNG of time against n")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    opts = parser.parse_args(argv)
    opts.min_time = timing.MIN_TIME_QUICK if opts.quick else timing.MIN_TIME
    opts.repeats = timing.REPEATS_QUICK if opts.quick else timing.REPEATS
    step = 4 if opts.quick else opts.step
    opts.exponents = sorted({*range(10, opts.max_exponent + 1, step), 24, opts.max_exponent})
    opts.exponents = [e for e in opts.exponents if e <= opts.max_exponent]
    return opts


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    gpu = bool(numcu.cuda.is_available())
    peers, _ = timing.load_backends(("cupy", "torch")) if gpu else ({}, {})
    all_threads = cores()
    numcu.set_num_threads(all_threads)
    info = numcu.threading_info()
    device = numcu.cuda.Device(0).name if gpu else "no CUDA device"
    vers = {"python": platform.python_version(), "numpy": np.__version__}
    vers["numcu"] = numcu.__version__
    vers.update({name: b.version for name, b in peers.items()})
    banner = (
        f"{timing.banner(device, vers)}\n"
        f"cpu: {cpu_name()}, {all_threads} cores for this process | numcu cpu backend: "
        f"{info['layer']}, {info['simd']}, {info['num_threads']} threads"
    )
    print(banner, flush=True)

    n_max = 1 << max(opts.exponents)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(max(n_max, CHECK_N), dtype=np.float32)
    y = rng.standard_normal(max(n_max, CHECK_N), dtype=np.float32)
    paths = make_paths(peers, gpu)
    check(paths, x, y, all_threads)

    copy_sizes = sorted({min(HEADLINE_N, n_max), n_max})
    copies = {n: copy_bandwidth(x[:n], all_threads, opts) for n in copy_sizes}
    copy_gbps = max(copies.values())
    out = np.empty(HEADLINE_N, np.float32) if n_max >= HEADLINE_N else None

    t0 = time.perf_counter()
    results = measure(paths, x, y, opts.exponents, all_threads, opts)
    add_out = None
    if out is not None:
        a, b = x[:HEADLINE_N], y[:HEADLINE_N]
        add_out = timing.per_call_back_to_back(
            lambda: numcu.add(a, b, out=out, device="cpu"),
            lambda: None,
            opts.min_time,
            opts.repeats,
        ).seconds
    print(f"measured in {time.perf_counter() - t0:.0f} s", flush=True)

    title = f"{device} | {cpu_name()}, {all_threads} cores | NumPy in, NumPy out, float32"
    if opts.plot:
        try:
            plot(opts.plot, results, opts.exponents, title)
        except ImportError as exc:
            print(f"no plot: {exc}")
    if opts.json:
        timing.write_json(
            opts.json,
            {
                "device": device,
                "cpu": cpu_name(),
                "cores": all_threads,
                "threading": info,
                "versions": vers,
                "method": {"min_time_s": opts.min_time, "repeats": opts.repeats},
                "copy_gbps": {str(n): g for n, g in copies.items()},
                "seconds": {
                    op: {p: {str(n): t for n, t in v.items()} for p, v in per.items()}
                    for op, per in results.items()
                },
                "add_out_cpu_all_threads_2^24_s": add_out,
            },
        )

    print()
    print(banner)
    for op in OPS:
        print()
        print(table(op, results[op], opts.exponents))
    print()
    print(
        "host copy bandwidth, all threads: "
        + ", ".join(f"2^{n.bit_length() - 1}: {g:.1f} GB/s" for n, g in copies.items())
    )
    if add_out is not None:
        g = timing.gbps(12 * HEADLINE_N, add_out)
        print(
            f"add 2^24 into an existing out=, device='cpu', all threads: {fmt_time(add_out)}, "
            f"{g:.1f} GB/s ({100 * g / copy_gbps:.0f}% of the copy bandwidth)"
        )
    for line in placement_lines(x, opts.exponents):
        print(line)
    if hasattr(numcu._core, "_host_pool_info"):
        print(f"host path: {numcu._core._host_path_config()}")
        print(f"page-locked pool: {numcu._core._host_pool_info()}")
    print()
    print("aims:")
    for line in aims(results, opts.exponents, copy_gbps):
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
