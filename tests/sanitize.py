"""Run part of the GPU test suite under compute-sanitizer's four tools; fail on any error.

    python tests/sanitize.py                      # memcheck, initcheck, racecheck, synccheck
    python tests/sanitize.py --tool memcheck      # one tool (repeat --tool for several)
    python tests/sanitize.py -- tests/test_overlap.py -k numcu   # another pytest selection

numcu must be installed (``pip install .``) and a GPU present. The sanitizer is found through
$COMPUTE_SANITIZER, then PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, and the
nvidia-cuda-sanitizer-api wheel. Each tool runs pytest once over the selection; a tool fails
when the sanitizer reports an error (--error-exitcode) or a test fails. Logs go to --log-dir.

The default selection (SELECTION below) is numcu's own arrays and host data only: no CuPy,
PyTorch, Numba or JAX in the sanitized process (their kernels and allocators are not ours to
check). It takes one dtype of each kind and the layouts that choose different kernels, because
the sanitizer instruments every kernel the first time it runs and slows each launch: the whole
suite's ~5000 kernel instantiations would take hours, this part minutes.
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

# One dtype per kind (bool, signed, unsigned, float, complex) and the main layouts, on the
# device arrays ("numcu") and host data on the GPU ("cuda") backends.
DTYPES = "bool or int32 or uint8 or float32 or complex64"
SELECTION = [
    "tests/test_binary.py",
    "tests/test_ufuncs.py",
    "tests/test_reductions.py",
    "tests/test_overlap.py",
    "tests/test_transfer.py",
    "tests/test_ndarray.py",
    "tests/test_properties.py",
    "-k",
    f"(numcu or cuda) and not (cupy or torch or numba or jax or slow) and ({DTYPES} or overlap "
    "or transfer or ndarray or properties)",
    "-m",
    "not slow",
]


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
    command = [
        sanitizer,
        "--tool",
        tool,
        *TOOLS[tool],
        *SHARED_OPTIONS,
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        *pytest_args,
    ]
    env = dict(os.environ)
    env.setdefault("NUMCU_HYPOTHESIS_PROFILE", "ci")
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
    errors = re.findall(r"ERROR SUMMARY: (\d+) error", text)
    tests = re.findall(r"^=*\s*(\d+ (?:passed|failed).*?) in [\d.]+s", text, re.MULTILINE)
    reported = sum(int(n) for n in errors)
    ok = code == 0 and reported == 0 and bool(errors)
    summary = (
        f"{tool}: {'ok' if ok else 'FAILED'} in {seconds:.0f} s, exit code {code}, "
        f"{reported if errors else 'no'} sanitizer errors reported, "
        f"tests: {tests[-1] if tests else 'no summary'} (log: {log})"
    )
    return ok, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", action="append", choices=list(TOOLS), help="default: all four")
    parser.add_argument("--sanitizer", help="path of compute-sanitizer")
    parser.add_argument("--log-dir", default="build/sanitize", help="default: build/sanitize")
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's selection and options")
    args = parser.parse_args()
    sanitizer = find_sanitizer(args.sanitizer)
    log_dir = Path(args.log_dir)
    if not log_dir.is_absolute():
        log_dir = ROOT / log_dir
    log_dir.mkdir(parents=True, exist_ok=True)
    pytest_args = args.pytest_args or SELECTION
    results = [run_tool(sanitizer, tool, pytest_args, log_dir) for tool in args.tool or TOOLS]
    for _, summary in results:
        print("sanitize: " + summary, flush=True)
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
