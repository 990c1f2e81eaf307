"""Measures the constants of numcu's placement model (numcu.placement) on this machine.

Host-only calls without ``device=`` run on the GPU or on the CPU backend by an estimate of both
(see ``numcu/_placement.py``). This script measures what the estimate needs, prints the fitted
constants as JSON, and checks the model's choices against measured times of both sides::

    python benchmarks/fit_placement.py                 # measure, print, check
    python benchmarks/fit_placement.py --save          # also write numcu/placement.json
    python benchmarks/fit_placement.py --json fit.json # also write the fit and the checks

Measured (float32, ``timing.per_call_back_to_back``, median of repeats):

- ``h2d_gbps``, ``d2h_gbps``: ``numcu.asarray`` of a page-locked (pool) array of 2^26 elements,
  and ``numcu.asnumpy`` into one.
- ``duplex_gbps``: ``numcu.negative`` on the GPU of a pageable input of 2^24 elements into a
  pool result (the chunked path; as many bytes in as out), bytes in and out over the time less
  the latency and the pipeline's fill.
- ``gpu_latency_s``: an add of page-locked inputs at 2^10 elements.
- ``host_gbps_1`` and ``host_gbps_max``: ``numcu.add(..., out=, device="cpu")`` at 2^24 on one
  thread and on all; ``host_gbps_large``: the same on all threads at 2^26 (the caches' share is
  smaller); ``cpu_latency_s``: at 16 elements.
- ``cpu_ns_*``: ``sin``, ``sum`` and ``cumsum`` on one thread at 2^24, the time beyond the
  memory traffic, per element.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402

import numcu  # noqa: E402

PACKAGE_FILE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "numcu", "placement.json"
)


def seconds(fn, opts, sync=lambda: None) -> float:
    return timing.per_call_back_to_back(fn, sync, opts.min_time, opts.repeats).seconds


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def fit(opts) -> dict[str, float]:
    rng = np.random.default_rng(0)
    n_big, n_mid = 1 << 26, 1 << 24
    x = rng.standard_normal(n_big, dtype=np.float32)
    y = rng.standard_normal(n_big, dtype=np.float32)
    c: dict[str, float] = {}
    threads = cores()

    # CPU side: one thread, then all of them, at n_mid (arrays beyond the caches)
    out = np.empty(n_mid, np.float32)
    a, b = x[:n_mid], y[:n_mid]
    numcu.set_num_threads(1)
    t1 = seconds(lambda: numcu.add(a, b, out=out, device="cpu"), opts)
    c["host_gbps_1"] = 12 * n_mid / t1 / 1e9
    t_small = seconds(lambda: numcu.add(a[:16], b[:16], out=out[:16], device="cpu"), opts)
    c["cpu_latency_s"] = t_small
    mem_1 = 8 * n_mid / (c["host_gbps_1"] * 1e9)
    t_sin = seconds(lambda: numcu.sin(a, out=out, device="cpu"), opts)
    c["cpu_ns_transcendental"] = max(t_sin - mem_1, 0.0) / n_mid * 1e9
    t_sum = seconds(lambda: numcu.sum(a, device="cpu"), opts)
    c["cpu_ns_reduction"] = max(t_sum - mem_1 / 2, 0.0) / n_mid * 1e9
    t_scan = seconds(lambda: numcu.cumsum(a, out=out, device="cpu"), opts)
    c["cpu_ns_scan"] = max(t_scan - mem_1, 0.0) / n_mid * 1e9
    c["cpu_ns_elementwise"] = 0.0
    numcu.set_num_threads(threads)
    tn = seconds(lambda: numcu.add(a, b, out=out, device="cpu"), opts)
    c["host_gbps_max"] = 12 * n_mid / tn / 1e9
    out_big = np.empty(n_big, np.float32)
    t_large = seconds(lambda: numcu.add(x, y, out=out_big, device="cpu"), opts)
    c["host_gbps_large"] = 12 * n_big / t_large / 1e9

    if numcu.cuda.is_available():
        # page-locked inputs and outputs: pool results of GPU work
        xp = numcu.negative(numcu.negative(x, device="cuda"), device="cuda")
        yp = numcu.negative(numcu.negative(y, device="cuda"), device="cuda")
        dev = numcu.asarray(xp)
        # a copy from page-locked memory returns before it is done
        t_h2d = seconds(lambda: numcu.asarray(xp), opts, numcu.cuda.synchronize)
        c["h2d_gbps"] = 4 * n_big / t_h2d / 1e9
        t_d2h = seconds(lambda: numcu.asnumpy(dev, out=yp), opts)
        c["d2h_gbps"] = 4 * n_big / t_d2h / 1e9
        xs, ys = xp[:1024], yp[:1024]
        c["gpu_latency_s"] = seconds(lambda: numcu.add(xs, ys, device="cuda"), opts)
        del dev
        # Both directions at once, as the chunked path of pageable inputs reaches them: the
        # model's pace term, from a call moving as many bytes in as out (negative at n_mid), so
        # that neither direction alone sets the pace, less its latency and the pipeline's fill
        # (the other stages of one chunk; see estimate_placement in src/placement.cpp).
        t_duplex = seconds(lambda: numcu.negative(a, device="cuda"), opts)
        stage = 4 * n_mid / (c["host_gbps_max"] * 1e9)
        copy_in = 4 * n_mid / (c["h2d_gbps"] * 1e9)
        copy_out = 4 * n_mid / (c["d2h_gbps"] * 1e9)
        chunks = max(1, -(-4 * n_mid // numcu._core._host_path_config()["chunk_bytes"]))
        fill = (stage + copy_in + copy_out - max(stage, copy_in, copy_out)) / chunks
        pace = t_duplex - c["gpu_latency_s"] - fill
        c["duplex_gbps"] = 8 * n_mid / max(pace, 1e-6) / 1e9
    return c


def check(opts) -> list[str]:
    """The model's choice against the measured faster side, per op and n."""
    rng = np.random.default_rng(1)
    lines = []
    right = total = 0
    for e in (12, 16, 18, 20, 22, 24, 26):
        n = 1 << e
        a = rng.standard_normal(n, dtype=np.float32)
        b = rng.standard_normal(n, dtype=np.float32)
        for op in ("add", "sin", "sum", "cumsum"):
            args = (a, b) if op == "add" else (a,)
            fn = getattr(numcu, op)
            t_cpu = seconds(lambda fn=fn, args=args: fn(*args, device="cpu"), opts)
            t_gpu = seconds(lambda fn=fn, args=args: fn(*args, device="cuda"), opts)
            d = numcu.placement(fn, *args)
            best = "cpu" if t_cpu <= t_gpu else "cuda"
            chosen = d["model_choice"]
            ok = chosen == best or min(t_cpu, t_gpu) * 1.1 >= (t_cpu if chosen == "cpu" else t_gpu)
            right += ok
            total += 1
            lines.append(
                f"{'ok  ' if ok else 'MISS'} {op:7s} 2^{e}: cpu {t_cpu * 1e3:8.3f} ms "
                f"(model {d['cpu_s'] * 1e3:8.3f}), cuda {t_gpu * 1e3:8.3f} ms "
                f"(model {d['gpu_s'] * 1e3:8.3f}), chosen {chosen}"
            )
    lines.append(f"model within 10% of the faster side in {right} of {total} cases")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="write numcu/placement.json")
    parser.add_argument("--json", metavar="PATH", help="write the fit and the checks")
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    opts = parser.parse_args(argv)
    opts.min_time = timing.MIN_TIME_QUICK if opts.quick else timing.MIN_TIME
    opts.repeats = timing.REPEATS_QUICK if opts.quick else timing.REPEATS
    gpu = bool(numcu.cuda.is_available())
    device = numcu.cuda.Device(0).name if gpu else "no CUDA device"
    print(f"{device} | {cores()} cores | numcu {numcu.__version__}", flush=True)
    before = numcu.placement.constants
    fitted = fit(opts)
    numcu.placement.set(**fitted)
    report = {"device": device, "cores": cores(), "constants": numcu.placement.constants}
    report["constants"].pop("mode", None)
    print(json.dumps(report, indent=2), flush=True)
    lines = check(opts) if gpu else ["no GPU: the choices are not checked"]
    for line in lines:
        print(line)
    print(f"defaults were: {before}")
    if opts.save:
        with open(PACKAGE_FILE, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
        print(f"saved to {PACKAGE_FILE}")
    if opts.json:
        timing.write_json(opts.json, {**report, "checks": lines, "defaults": before})
    return 0


if __name__ == "__main__":
    sys.exit(main())
