"""Helpers shared by the benchmarks in this folder: loading, timing and reporting.

Every benchmark compares numcu with the peer libraries (CuPy, PyTorch) that are installed
and can run on the GPU here:

- Loading: :func:`load_backends` imports each library and skips, with a printed reason, one
  that cannot be imported or cannot run on the GPU. A peer must pass a small add on the GPU;
  numcu is not probed, because its failures are what is under test.
- Back to back: :func:`per_call_back_to_back` synchronises, times K calls with
  ``time.perf_counter``, synchronises; per call = wall / K. K is chosen so one measurement
  lasts at least ``min_time`` (K capped at :data:`K_MAX`), after a few warm-up calls; the
  median of ``repeats`` measurements is reported. :func:`per_call_interleaved` does the same for
  several calls compared side by side, their measurements taken in turn.
- Synchronised each call: :func:`per_call_synchronised` is the median over single calls, each
  followed by a synchronisation (launch latency plus completion, as a caller who waits sees it).
- Reporting: :func:`banner` (device and versions), :func:`format_table` with :func:`cell` and
  :func:`ratio`, :func:`gbps`, :func:`write_json`, and :func:`parse_args` for the options every
  benchmark takes (``--quick``, ``--json PATH``).

The scripts are run by path (``python benchmarks/bench_add.py``), which puts this folder
first on ``sys.path``; they import this module as ``timing``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np

#: The libraries compared, in the order tables list them.
LIBRARIES = ("numcu", "cupy", "torch")
#: Seconds one back-to-back measurement lasts at least, and with --quick.
MIN_TIME, MIN_TIME_QUICK = 0.05, 0.02
#: Back-to-back measurements per median, and with --quick.
REPEATS, REPEATS_QUICK = 5, 3
#: The most calls in one back-to-back measurement.
K_MAX = 100_000
#: Untimed calls before a measurement: allocator pools, kernel loading, clocks.
WARMUP_CALLS = 3

Sync = Callable[[], None]


@dataclass(frozen=True)
class Backend:
    """An array library that can run on the GPU here."""

    name: str  # "numcu", "cupy" or "torch"
    module: Any  # the imported module
    version: str
    synchronize: Sync  # waits for all work queued on the current device


def import_optional(name: str) -> Any:
    """The module ``name``, or a string saying why it could not be imported."""
    try:
        return importlib.import_module(name)
    except Exception as exc:  # a broken install (missing CUDA libraries...) counts as absent
        return f"not importable ({type(exc).__name__}: {exc})"


def _backend(name: str, module: Any) -> Backend | str:
    """A Backend for an imported library, or why it has no GPU."""
    if name == "numcu":
        if not module.cuda.is_available():
            return (
                "imported, but numcu.cuda.is_available() is False "
                f"({module.cuda.unavailable_reason()})"
            )
        return Backend(name, module, module.__version__, module.cuda.synchronize)
    if name == "cupy":
        return Backend(name, module, module.__version__, lambda: module.cuda.Device().synchronize())
    if name == "torch":
        if not module.cuda.is_available():
            return "imported, but torch.cuda.is_available() is False"
        return Backend(name, module, module.__version__, module.cuda.synchronize)
    raise ValueError(f"unknown library {name!r}")


def _probe(backend: Backend) -> None:
    """Raise unless the peer library can add two small float32 arrays on the GPU."""
    host = np.arange(1, 8, dtype=np.float32)
    if backend.name == "cupy":
        a = backend.module.asarray(host)
        backend.module.add(a, a, out=backend.module.empty_like(a))
    else:
        t = backend.module.from_numpy(host).cuda()
        backend.module.add(t, t, out=backend.module.empty_like(t))
    backend.synchronize()


def load_backends(
    names: Sequence[str] = LIBRARIES,
) -> tuple[dict[str, Backend], dict[str, str]]:
    """Import each library and keep those that can run on the GPU.

    A library left out is printed as ``name: skipped: reason``.

    Returns
    -------
    tuple
        (name -> Backend in the order of ``names``, name -> why it was skipped).
    """
    backends: dict[str, Backend] = {}
    skipped: dict[str, str] = {}
    for name in names:
        module = import_optional(name)
        found = module if isinstance(module, str) else _backend(name, module)
        if isinstance(found, Backend) and name != "numcu":
            # A peer that imports but cannot run (driver mismatch...) is left out; a numcu
            # failure is what is under test, so it propagates.
            try:
                _probe(found)
            except Exception as exc:
                found = f"cannot run on the GPU ({type(exc).__name__}: {exc})"
        if isinstance(found, str):
            print(f"{name}: skipped: {found}", flush=True)
            skipped[name] = found
        else:
            backends[name] = found
    return backends, skipped


def device_name(backends: dict[str, Backend]) -> str:
    """Name of the current GPU as numcu, else PyTorch, else CuPy reports it."""
    if "numcu" in backends:
        numcu = backends["numcu"].module
        return numcu.cuda.Device(0).name
    if "torch" in backends:
        return backends["torch"].module.cuda.get_device_name(0)
    if "cupy" in backends:
        name = backends["cupy"].module.cuda.runtime.getDeviceProperties(0)["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    return "no CUDA device"


def versions(backends: dict[str, Backend]) -> dict[str, str]:
    """Versions of Python, NumPy, every library loaded and the CUDA each was built with."""
    out = {"python": platform.python_version(), "numpy": np.__version__}
    for name, backend in backends.items():
        out[name] = backend.version
    if "numcu" in backends:
        info = backends["numcu"].module.build_info()
        out["numcu_cuda"] = str(info.get("cuda_version"))
        out["numcu_archs"] = ";".join(info.get("cuda_architectures") or [])
    if "torch" in backends:
        out["torch_cuda"] = str(backends["torch"].module.version.cuda)
    if "cupy" in backends:
        out["cupy_cuda_runtime"] = str(backends["cupy"].module.cuda.runtime.runtimeGetVersion())
    return out


def banner(device: str, vers: dict[str, str]) -> str:
    """One line: the device, then ``name version`` for everything in ``vers``."""
    return f"device: {device} | " + " | ".join(f"{k} {v}" for k, v in vers.items())


def time_k_calls(fn: Callable[[], object], sync: Sync, k: int) -> float:
    """Wall seconds of k back-to-back calls, bracketed by synchronisations."""
    sync()
    t0 = time.perf_counter()
    for _ in range(k):
        fn()
    sync()
    return time.perf_counter() - t0


def choose_k(fn: Callable[[], object], sync: Sync, min_time: float, k_max: int = K_MAX) -> int:
    """A call count whose back-to-back measurement lasts at least min_time (at most k_max)."""
    k = 1
    while True:
        wall = time_k_calls(fn, sync, k)
        if wall >= min_time or k >= k_max:
            return k
        if wall < min_time / 16:
            k = min(k * 16, k_max)
        else:
            # One step close to the target, 20% over so noise does not leave it short.
            return min(k_max, max(k + 1, int(k * 1.2 * min_time / wall) + 1))


class PerCall(NamedTuple):
    """A back-to-back result: the median seconds per call, K, and every per-call sample."""

    seconds: float
    k: int
    samples: list[float]


def per_call_back_to_back(
    fn: Callable[[], object],
    sync: Sync,
    min_time: float,
    repeats: int,
    k_max: int = K_MAX,
) -> PerCall:
    """Median seconds per call over ``repeats`` measurements of K back-to-back calls."""
    return per_call_interleaved({"": (fn, sync)}, min_time, repeats, k_max)[""]


def per_call_interleaved(
    calls: dict[str, tuple[Callable[[], object], Sync]],
    min_time: float,
    repeats: int,
    k_max: int = K_MAX,
    before: Callable[[str], object] | None = None,
) -> dict[str, PerCall]:
    """per_call_back_to_back for several calls (name -> (call, its sync)) compared in one table.

    Each call is warmed up and gets its own K; then the calls take their ``repeats``
    measurements in turn (round one: every call once, in order; round two; ...), so that a slow
    spell of the host falls on all of them alike instead of on whichever was being measured
    then, and their ratios hold. ``before(name)``, where given, runs before a call's warm-up and
    before each of its measurements (settings that differ from call to call).
    """
    ks: dict[str, int] = {}
    for name, (fn, sync) in calls.items():
        if before is not None:
            before(name)
        for _ in range(WARMUP_CALLS):
            fn()
        sync()
        ks[name] = choose_k(fn, sync, min_time, k_max)
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, (fn, sync) in calls.items():
            if before is not None:
                before(name)
            samples[name].append(time_k_calls(fn, sync, ks[name]) / ks[name])
    return {name: PerCall(statistics.median(s), ks[name], s) for name, s in samples.items()}


def per_call_synchronised(
    fn: Callable[[], object], sync: Sync, calls: int, warmup: int = 10
) -> float:
    """Median seconds of one call followed by a synchronisation, over ``calls`` calls.

    Each call starts on an idle device (the synchronisation before it is not timed).
    """
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(calls):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def gbps(nbytes: float, seconds: float) -> float | None:
    """Bandwidth in GB/s (1e9 bytes per second); None for a zero time."""
    return nbytes / seconds / 1e9 if seconds > 0 else None


def ratio(num: float | None, den: float | None) -> float | None:
    """num / den, or None when either is missing or zero."""
    return None if not num or not den else num / den


def cell(value: float | None, spec: str, suffix: str = "") -> str:
    """A table cell: value formatted with spec and suffix, or "-" when it is missing."""
    return "-" if value is None else format(value, spec) + suffix


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table: the first column left-aligned, the others right-aligned."""
    table = [list(header), *(list(row) for row in rows)]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]

    def line(row: list[str]) -> str:
        cells = [row[0].ljust(widths[0])]
        cells += [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        return " | ".join(cells)

    lines = [line(row) for row in table]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def parse_args(
    doc: str,
    argv: Sequence[str] | None,
    quick_help: str = "fewer repeats",
    more: Callable[[argparse.ArgumentParser], None] | None = None,
) -> argparse.Namespace:
    """Parse ``--quick`` and ``--json PATH``; the result also carries the timing settings.

    ``min_time`` (seconds per back-to-back measurement), ``repeats`` and ``k_max`` are set
    from --quick. ``doc``'s first line describes the script in ``--help``; ``more`` adds a
    script's own options to the parser.
    """
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick_help)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    if more is not None:
        more(parser)
    opts = parser.parse_args(argv)
    opts.min_time = MIN_TIME_QUICK if opts.quick else MIN_TIME
    opts.repeats = REPEATS_QUICK if opts.quick else REPEATS
    opts.k_max = K_MAX
    return opts


def write_json(path: str, report: dict[str, Any]) -> None:
    """Write report to path as indented JSON."""
    with open(path, "w") as f:
        json.dump(report, f, indent=2)
