"""``python -m numcu``: what was built, whether it computes right, and how fast.

Prints the version and build information, the CUDA devices, a check of add, subtract,
multiply and divide against NumPy on every backend present, and a short float32 add
timing table. Exits with status 1 if any check fails. Runs in seconds on a machine
without a GPU (only the CPU backend is checked and timed there).
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from typing import Any, Callable, NamedTuple

import numpy as np

import numcu

OPS = ("add", "subtract", "multiply", "divide")
CHECK_DTYPES = ("float32", "float64", "int32", "complex64")
# (x shape, y shape): one contiguous odd length, and one broadcast of a row over a matrix.
CHECK_SHAPES = (((10_007,), (10_007,)), ((129, 31), (31,)))
TIMING_EXPONENTS = (20, 24)
ADD_BYTES_PER_ELEMENT = 12  # read x, read y, write out (float32)


def _optional_import(name: str) -> Any | None:
    """The module, or None when it is missing or fails to import."""
    try:
        return importlib.import_module(name)
    except Exception:
        return None


def _tolerance(dtype: np.dtype) -> dict[str, float]:
    """Tolerance for comparing with NumPy: exact for integers, a few ulps for floats."""
    if dtype.kind in "biu":
        return {"rtol": 0.0, "atol": 0.0}
    single = np.dtype(dtype).itemsize <= (8 if dtype.kind == "c" else 4)
    return {"rtol": 1e-5, "atol": 1e-6} if single else {"rtol": 1e-12, "atol": 1e-14}


def random_array(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Random values of dtype with no zeros (so division is defined) and both signs."""
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        magnitude = rng.integers(1, 100, size=shape)
        sign = rng.choice([-1, 1], size=shape) if dt.kind == "i" else 1
        return (magnitude * sign).astype(dt)
    values = rng.uniform(0.5, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    if dt.kind == "c":
        values = values + 1j * rng.uniform(-2.0, 2.0, size=shape)
    return values.astype(dt)


def check_op(op: str, dtype: str, run: Callable[..., Any], rng: np.random.Generator) -> str:
    """Compare one numcu op with NumPy over CHECK_SHAPES.

    Parameters
    ----------
    op : str
        Name of the operation in both numcu and NumPy, e.g. ``"add"``.
    dtype : str
        NumPy dtype name of both operands.
    run : callable
        ``run(func, x, y) -> numpy.ndarray`` calls the numcu function on one backend.
    rng : numpy.random.Generator
        Source of the operands.

    Returns
    -------
    str
        ``""`` when every shape matches NumPy, else what went wrong.
    """
    for x_shape, y_shape in CHECK_SHAPES:
        x = random_array(rng, x_shape, dtype)
        y = random_array(rng, y_shape, dtype)
        expected = getattr(np, op)(x, y)
        try:
            got = run(getattr(numcu, op), x, y)
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        if not isinstance(got, np.ndarray):
            return f"returned {type(got).__name__}, not a NumPy array"
        if got.dtype != expected.dtype or got.shape != expected.shape:
            return f"got {got.dtype}{got.shape}, NumPy gives {expected.dtype}{expected.shape}"
        if not np.allclose(got, expected, **_tolerance(expected.dtype)):
            bad = int(np.count_nonzero(~np.isclose(got, expected, **_tolerance(expected.dtype))))
            return f"{bad} of {got.size} values differ from NumPy (shapes {x_shape}, {y_shape})"
    return ""


def check_backend(label: str, run: Callable[..., Any]) -> bool:
    """Check every op and dtype on one backend; print one line per op. True if all pass."""
    rng = np.random.default_rng(0)
    print(f"\ncheck against NumPy: {label}")
    all_ok = True
    for op in OPS:
        cells, errors = [], []
        for dtype in CHECK_DTYPES:
            error = check_op(op, dtype, run, rng)
            cells.append(f"{dtype} {'FAIL' if error else 'OK'}")
            if error:
                errors.append(f"      {dtype}: {error}")
        ok = not errors
        all_ok &= ok
        print(f"  {op:<9} {'OK  ' if ok else 'FAIL'}  ({', '.join(cells)})")
        for line in errors:
            print(line)
    return all_ok


def seconds_per_call(
    fn: Callable[[], Any], sync: Callable[[], None], min_time: float = 0.02, repeats: int = 3
) -> float:
    """Median seconds per call over ``repeats`` runs of back-to-back calls.

    Each run lasts at least ``min_time`` (the call count doubles until it does) and is
    bracketed by ``sync`` so queued GPU work is counted.
    """
    fn()
    sync()
    calls = 1
    while True:
        sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        elapsed = time.perf_counter() - t0
        if elapsed >= min_time or calls >= 1 << 16:
            break
        calls *= 2
    samples = [elapsed / calls]
    for _ in range(repeats - 1):
        sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        samples.append((time.perf_counter() - t0) / calls)
    return statistics.median(samples)


def _no_sync() -> None:
    pass


class TimingRow(NamedTuple):
    """One timed variant: ``setup(n)`` makes the operands and returns ``(call, sync)``."""

    library: str
    call: str
    where: str
    setup: Callable[[int], tuple[Callable[[], Any], Callable[[], None]]]


def _host_operands(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    return rng.random(n, dtype=np.float32) + 0.5, rng.random(n, dtype=np.float32) + 0.5


def timing_rows(has_cuda: bool) -> list[TimingRow]:
    """The variants to time: the CPU ones always, the GPU ones when a device is usable."""

    def numpy_cpu(n: int):
        x, y = _host_operands(n)
        return (lambda: np.add(x, y)), _no_sync

    def numcu_cpu(n: int):
        x, y = _host_operands(n)
        return (lambda: numcu.add(x, y, device="cpu")), _no_sync

    rows = [
        TimingRow("numpy", "numpy.add(x, y)", "CPU", numpy_cpu),
        TimingRow("numcu", "numcu.add(x, y, device='cpu')", "CPU", numcu_cpu),
    ]
    if not has_cuda:
        return rows

    def numcu_cuda_host(n: int):
        x, y = _host_operands(n)
        return (lambda: numcu.add(x, y, device="cuda")), numcu.cuda.synchronize

    def numcu_cuda_device(n: int):
        dx, dy = (numcu.asarray(a) for a in _host_operands(n))
        out = numcu.add(dx, dy)
        return (lambda: numcu.add(dx, dy, out=out)), numcu.cuda.synchronize

    rows += [
        TimingRow("numcu", "numcu.add(x, y, device='cuda')", "GPU, NumPy in/out", numcu_cuda_host),
        TimingRow("numcu", "numcu.add(x, y, out=o)", "GPU, numcu arrays", numcu_cuda_device),
    ]

    cp = _optional_import("cupy")
    if cp is not None:

        def cupy_device(n: int):
            dx, dy = (cp.asarray(a) for a in _host_operands(n))
            out = cp.empty_like(dx)
            return (lambda: cp.add(dx, dy, out=out)), cp.cuda.Device().synchronize

        rows.append(TimingRow("cupy", "cupy.add(x, y, out=o)", "GPU, CuPy arrays", cupy_device))

    torch = _optional_import("torch")
    if torch is not None and torch.cuda.is_available():

        def torch_device(n: int):
            dx, dy = (torch.from_numpy(a).cuda() for a in _host_operands(n))
            out = torch.empty_like(dx)
            return (lambda: torch.add(dx, dy, out=out)), torch.cuda.synchronize

        rows.append(
            TimingRow("torch", "torch.add(x, y, out=o)", "GPU, torch tensors", torch_device)
        )
    return rows


def _format_time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def print_timings(has_cuda: bool) -> bool:
    """Time float32 add for each variant and size and print a table.

    Returns
    -------
    bool
        False if a numcu variant raised (other libraries' errors are only reported).
    """
    rows = timing_rows(has_cuda)
    call_width = max(len(r.call) for r in rows)
    where_width = max(len(r.where) for r in rows)
    print(
        f"\nfloat32 add, time per call (median of 3; GB/s counts {ADD_BYTES_PER_ELEMENT} B/element)"
    )
    header = f"  {'call':<{call_width}}  {'where':<{where_width}}"
    for e in TIMING_EXPONENTS:
        header += f"{'n=2^' + str(e):>12}{'GB/s':>8}"
    print(header)
    numcu_ok = True
    for row in rows:
        line = f"  {row.call:<{call_width}}  {row.where:<{where_width}}"
        for e in TIMING_EXPONENTS:
            n = 1 << e
            try:
                fn, sync = row.setup(n)
                sec = seconds_per_call(fn, sync)
            except Exception as exc:
                line += f"  error: {type(exc).__name__}: {exc}"
                numcu_ok &= row.library != "numcu"
                break
            line += f"{_format_time(sec):>12}{ADD_BYTES_PER_ELEMENT * n / sec / 1e9:>8.1f}"
        print(line)
    return numcu_ok


def device_names(count: int) -> list[str]:
    """Names of the CUDA devices as PyTorch or CuPy report them, else their indices."""
    torch = _optional_import("torch")
    if torch is not None and torch.cuda.is_available():
        return [f"{i}: {torch.cuda.get_device_name(i)}" for i in range(count)]
    cp = _optional_import("cupy")
    if cp is not None:
        try:
            names = [cp.cuda.runtime.getDeviceProperties(i)["name"] for i in range(count)]
            return [
                f"{i}: {n.decode() if isinstance(n, bytes) else n}" for i, n in enumerate(names)
            ]
        except Exception:
            pass
    return [f"{i}" for i in range(count)]


def print_header() -> bool:
    """Print version, build and device information. True if a CUDA device can be used."""
    info = numcu.build_info()
    print(f"numcu {numcu.__version__} (NumPy {np.__version__}, Python {sys.version.split()[0]})")
    print("build:")
    for key, value in info.items():
        if isinstance(value, (list, tuple)):
            value = ", ".join(str(v) for v in value) or "-"
        print(f"  {key}: {value}")
    if "cuda" not in info.get("backends", ()):
        print("  (a CPU-only build: no_cuda_reason says why, and how to get the CUDA backend)")

    has_cuda = numcu.cuda.is_available()
    count = numcu.cuda.device_count() if has_cuda else 0
    print(f"CUDA available: {'yes' if has_cuda else 'no'}, devices: {count}")
    if has_cuda:
        for name in device_names(count):
            print(f"  device {name}")
    else:
        print(f"  why: {numcu.cuda.unavailable_reason()}")
        print("  (only the CPU backend is checked and timed)")
    return has_cuda


def main() -> int:
    """Run ``python -m numcu``.

    Returns
    -------
    int
        0 if every check passed, 1 otherwise.
    """
    has_cuda = print_header()

    ok = check_backend("device='cpu', NumPy arrays", lambda f, x, y: f(x, y, device="cpu"))
    if has_cuda:
        ok &= check_backend("device='cuda', NumPy arrays", lambda f, x, y: f(x, y, device="cuda"))
        ok &= check_backend(
            "numcu.ndarray operands (result copied back with .get())",
            lambda f, x, y: f(numcu.asarray(x), numcu.asarray(y)).get(),
        )

    ok &= print_timings(has_cuda)
    print(f"\n{'all checks passed' if ok else 'FAILED: see above'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
