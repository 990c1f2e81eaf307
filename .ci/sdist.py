"""Build numcu's sdist and check it: what a build needs is there, nothing else is.

``python .ci/sdist.py --out dist`` (what ``nox -s sdist`` runs) builds ``numcu-VERSION.tar.gz``
with numcu's build backend (scikit-build-core's sdist: the files git does not ignore, less
pyproject.toml's ``sdist.exclude``), prints its size and file count, and exits with status 1 if
a required file is missing, or if it holds anything but the build's inputs and the tests (the
CI's other scripts, the benchmarks, a build folder, a compiled module, a wheel, caches).
"""

from __future__ import annotations

import argparse
import fnmatch
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = (
    "pyproject.toml",
    "CMakeLists.txt",
    "README.md",
    "LICENSE",
    ".ci/numcu_backend.py",
    "cuda/CMakeLists.txt",
    "cuda/cmake/numcuConfig.cmake",
    "cuda/cmake/numcu_nvcc.cmake",
    "cuda/cmake/numcu_manylinux.cmake",
    "cuda/cmake/find_nvidia_nvcc.py",
    "cuda/include/numcu/*.hpp",
    "cuda/src/*.cu",
    "cuda/src/*.cpp",
    "src/CMakeLists.txt",
    "src/*.cpp",
    "src/vendor_api.hpp",
    "numcu/__init__.py",
    "numcu/*.pyi",
    "numcu/py.typed",
    "tests/test_*.py",
)
# Everything in the sdist is one of these: the build's inputs, the metadata, the tests.
ALLOWED = (
    "PKG-INFO",
    "pyproject.toml",
    "CMakeLists.txt",
    "README.md",
    "LICENSE",
    "CITATION.cff",
    ".ci/numcu_backend.py",
    "cuda/*",
    "src/*",
    "numcu/*",
    "tests/*",
)
FORBIDDEN = (
    "build/*",
    "dist/*",
    "*.so",
    "*.o",
    "*.whl",
    "*/__pycache__/*",
    "*.egg-info/*",
    "*/.hypothesis/*",
)


def build(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    code = (
        "import sys; sys.path.insert(0, '.ci'); import numcu_backend; "
        f"print(numcu_backend.build_sdist({str(out)!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return out / done.stdout.strip().splitlines()[-1]


def check(sdist: Path) -> list[str]:
    with tarfile.open(sdist) as archive:
        names = [m.name.split("/", 1)[1] for m in archive.getmembers() if m.isfile()]
    problems = [f"missing {p}" for p in REQUIRED if not fnmatch.filter(names, p)]
    problems += [
        f"build output {n}" for n in names if any(fnmatch.fnmatch(n, p) for p in FORBIDDEN)
    ]
    problems += [
        f"not for a build: {n}" for n in names if not any(fnmatch.fnmatch(n, p) for p in ALLOWED)
    ]
    print(f"sdist: {sdist.name}: {sdist.stat().st_size / 1e6:.2f} MB, {len(names)} files")
    return problems


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("--out", default=str(ROOT / "dist"))
    options = cli.parse_args(argv)
    sdist = build(Path(options.out).resolve())
    problems = check(sdist)
    for problem in problems:
        print(f"  {problem}")
    print("  holds what a build needs, and nothing else" if not problems else "  FAILED")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
