"""Run part of the GPU test suite under compute-sanitizer's four tools; fail on any error.

    python tests/sanitize.py                      # memcheck, initcheck, racecheck, synccheck
    python tests/sanitize.py --tool memcheck      # one tool (repeat --tool for several)
    python tests/sanitize.py -- tests/test_overlap.py -k numcu   # another pytest selection
    python tests/sanitize.py --list               # the default selection, without a GPU

numcu must be installed (``pip install .``) and a GPU present. The sanitizer is found through
$COMPUTE_SANITIZER, then PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, and the
nvidia-cuda-sanitizer-api wheel. Each tool runs pytest once over the selection; a tool fails
when the sanitizer reports an error (--error-exitcode) or a test fails. Logs go to --log-dir.

The default selection (FILES below) is numcu's own arrays and host data only: no CuPy,
PyTorch, Numba or JAX in the sanitized process (their kernels and allocators are not ours to
check). It takes one dtype of each kind and the layouts that choose different kernels, about
1600 tests, because the sanitizer instruments every kernel the first time it runs and slows
every launch: the whole GPU suite (some 25,000 tests over every dtype) would take hours.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

# Per tool: its options besides the shared ones.
TOOLS = {
    # Out-of-bounds and misaligned accesses; with the stream-ordered allocator's races: memory
    # used on a stream before its allocation or after its free reached that stream.
    "memcheck": ["--track-stream-ordered-races", "all"],
    # Reads of device memory never written. Unused allocations are not reported (that check,
    # --track-unused-memory, is off unless asked for): the pool's blocks are reused whole.
    "initcheck": [],
    # Shared-memory hazards between the threads of a block (reductions, scans, tiles).
    "racecheck": ["--racecheck-report", "all"],
    # Barriers and warp-synchronous primitives used where not every thread reaches them.
    "synccheck": [],
}
SHARED_OPTIONS = [
    "--error-exitcode",
    "1",
    "--print-limit",
    "25",
    # numcu checks every CUDA call and turns a failure into a Python exception, which fails the
    # test that caused it; the sanitizer would also count the failures tests provoke on purpose.
    "--report-api-errors",
    "no",
]

# The default selection: GPU tests on numcu's own arrays (the "numcu" backend: host data on
# the GPU runs the same kernels after an upload) from these files, each file's rule choosing
# among its tests. One dtype per kind (bool, signed, unsigned, float, complex) where a test
# runs every dtype, a float and an integer one where it runs every function and layout.
ONE_PER_KIND = {"bool", "int32", "uint8", "float32", "complex64"}
FLOAT_AND_INT = {"float32", "int32"}
REDUCTIONS = {"sum", "max", "argmin", "std"}
FILES = {
    # every elementwise function on the contiguous, broadcast, transposed and tiled paths
    "test_ufuncs.py": lambda name, p: (
        (
            name in ("test_unary_matches_numpy", "test_binary_matches_numpy")
            and p.get("dtype") == "float32"
        )
        or (
            name in ("test_where", "test_clip", "test_astype_on_device")
            and p["dtype"] in ONE_PER_KIND
        )
    ),
    # the arithmetic on every layout numcu tells apart (0-size to 2^17, strided, offset, 0-d)
    "test_binary.py": lambda name, p: name == "test_matches_numpy" and p["dtype"] in FLOAT_AND_INT,
    # every reduction on one dtype per kind; axes, layouts, NaN and out= on float64
    "test_reductions.py": lambda name, p: (
        (name == "test_dtypes" and p["dtype"] in ONE_PER_KIND)
        or (name == "test_axes_and_layouts" and p["dtype"] == "float64" and p["name"] in REDUCTIONS)
        or name in ("test_out", "test_nan", "test_scan_layouts")
    ),
    # the reduction kernel's layouts (one launch, last-block pass) on 1, 4 and 16-byte elements
    "test_reduce_paths.py": lambda name, p: (
        p.get("dtype", "float32") in ("float32", "int8", "complex128")
    ),
    # host operands on the GPU: pinned pool, chunked copies on several streams, registration;
    # the layouts and reductions on 4- and 8-byte elements at sizes around a chunk's (16 and
    # 8 elements), not at the thousands of chunks of the largest sizes (minutes a test here)
    "test_host_path.py": lambda name, p: (
        p.get("dtype", "float32") in ("float32", "complex64")
        and p.get("n", "1") in ("1", "8", "9", "16", "17", "100")
        if name in ("test_binary_layouts", "test_unary_layouts", "test_reductions_and_scans")
        else True
    ),
    "test_overlap.py": lambda name, p: True,
    "test_streams.py": lambda name, p: True,
    # transfers, views, item assignment and casts
    "test_transfer.py": lambda name, p: p.get("dtype", "bool") in ONE_PER_KIND,
    "test_array_methods.py": lambda name, p: p.get("dtype", "bool") in ONE_PER_KIND,
    "test_ndarray.py": lambda name, p: p.get("dtype", "bool") in ONE_PER_KIND,
    # random layouts and dtype pairs (10 examples a test: the "sanitize" profile)
    "test_properties.py": lambda name, p: True,
}
OTHER_LIBRARIES = ("cupy", "torch", "numba", "jax")


class Selection:
    """A pytest plugin that keeps the tests FILES chooses: GPU ones, no other library's."""

    @staticmethod
    def chosen(item) -> bool:
        rule = FILES.get(item.path.name)
        if rule is None or item.get_closest_marker("gpu") is None:
            return False
        if item.get_closest_marker("slow") or any(lib in item.name for lib in OTHER_LIBRARIES):
            return False
        params = {
            key: str(value) if key != "dtype" else str(np.dtype(value))
            for key, value in getattr(getattr(item, "callspec", None), "params", {}).items()
        }
        if params.get("producer", "numcu") not in ("numcu", "cai"):
            return False
        if params.get("backend", "numcu") != "numcu":
            return False
        return rule(item.originalname, params)

    def pytest_collection_modifyitems(self, config, items):
        kept = [item for item in items if self.chosen(item)]
        # SANITIZE_ONLY=text keeps the tests whose id contains it; SANITIZE_EXCLUDE=text drops them.
        only, exclude = os.environ.get("SANITIZE_ONLY"), os.environ.get("SANITIZE_EXCLUDE")
        if only:
            kept = [item for item in kept if only in item.nodeid]
        if exclude:
            kept = [item for item in kept if exclude not in item.nodeid]
        # SANITIZE_SHARD=k/n then keeps every n-th test from the k-th: shards run side by side.
        shard = os.environ.get("SANITIZE_SHARD")
        if shard:
            k, n = (int(v) for v in shard.split("/"))
            kept = kept[k::n]
        config.hook.pytest_deselected(items=[item for item in items if not self.chosen(item)])
        items[:] = kept


def find_sanitizer(given: str | None) -> str:
    candidates = [given, os.environ.get("COMPUTE_SANITIZER"), shutil.which("compute-sanitizer")]
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            candidates.append(os.path.join(home, "bin", "compute-sanitizer"))
    # The pip wheel (nvidia-cuda-sanitizer-api) puts it under site-packages/nvidia/.
    for site in sys.path:
        candidates += glob.glob(os.path.join(site, "nvidia", "cu*", "bin", "compute-sanitizer"))
        candidates += glob.glob(
            os.path.join(site, "nvidia", "cuda_sanitizer_api", "compute-sanitizer", "*sanitizer")
        )
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    sys.exit("sanitize: compute-sanitizer not found (set COMPUTE_SANITIZER to its path)")


def run_tool(sanitizer: str, tool: str, pytest_args: list[str], log_dir: Path) -> tuple[bool, str]:
    # The sanitized process is this script in its pytest mode (with Selection unless a selection
    # was given), so that nothing but Python, pytest and numcu runs under the tool.
    mode = "--pytest" if pytest_args else "--pytest-selection"
    command = [sanitizer, "--tool", tool, *TOOLS[tool], *SHARED_OPTIONS]
    command += [sys.executable, __file__, mode, "-q", "-p", "no:cacheprovider", *pytest_args]
    env = dict(os.environ)
    env.setdefault("NUMCU_HYPOTHESIS_PROFILE", "sanitize")
    env["PYTHONFAULTHANDLER"] = "1"
    log = log_dir / f"{tool}.log"
    print(f"sanitize: {tool}: {' '.join(command)}", flush=True)
    start = time.monotonic()
    with open(log, "w") as f:
        code = subprocess.run(
            command, cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT
        ).returncode
    seconds = time.monotonic() - start
    text = log.read_text(errors="replace")
    # The tool's last line: "ERROR SUMMARY: N errors", or racecheck's "RACECHECK SUMMARY: H
    # hazards displayed (E errors, W warnings)"; none at all means it did not finish.
    errors = [int(n) for n in re.findall(r"ERROR SUMMARY: (\d+) error", text)]
    errors += [int(n) for n in re.findall(r"RACECHECK SUMMARY: .*?\((\d+) error", text)]
    warnings = sum(int(n) for n in re.findall(r"RACECHECK SUMMARY: .*?(\d+) warning", text))
    tests = re.findall(r"^=*\s*(\d+ (?:passed|failed).*?) in [\d.]+s", text, re.MULTILINE)
    # (no test passing, such as every test skipped for want of a GPU, is a failure too)
    ok = code == 0 and bool(errors) and sum(errors) == 0 and bool(tests)
    summary = (
        f"{tool}: {'ok' if ok else 'FAILED'} in {seconds:.0f} s, exit code {code}, "
        f"{sum(errors) if errors else 'no summary of'} errors"
        + (f" ({warnings} race warnings)" if warnings else "")
        + f", tests: {tests[-1] if tests else 'no summary'} (log: {log})"
    )
    return ok, summary


def run_pytest(args: list[str], select: bool) -> int:
    import pytest

    os.chdir(ROOT)
    default = ["tests/" + name for name in FILES] if select else []
    return pytest.main([*args, *default], plugins=[Selection()] if select else [])


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] in ("--pytest", "--pytest-selection"):
        return run_pytest(sys.argv[2:], sys.argv[1] == "--pytest-selection")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", action="append", choices=list(TOOLS), help="default: all four")
    parser.add_argument("--sanitizer", help="path of compute-sanitizer")
    parser.add_argument("--log-dir", default="build/sanitize", help="default: build/sanitize")
    parser.add_argument(
        "--list", action="store_true", help="list the default selection's tests and stop"
    )
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's selection and options")
    args = parser.parse_args()
    if args.list:
        return run_pytest(["--collect-only", "-q", "-p", "no:cacheprovider"], True)
    sanitizer = find_sanitizer(args.sanitizer)
    log_dir = Path(args.log_dir)
    if not log_dir.is_absolute():
        log_dir = ROOT / log_dir
    log_dir.mkdir(parents=True, exist_ok=True)
    tools = args.tool or list(TOOLS)
    results = [run_tool(sanitizer, tool, args.pytest_args, log_dir) for tool in tools]
    for _, summary in results:
        print("sanitize: " + summary, flush=True)
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
