"""Type stubs: installed, generated from the module, current, and usable by a type checker.

Specification:
- the installed package is typed (PEP 561): it carries ``py.typed`` and a ``.pyi`` stub for
  numcu, numcu.cuda and numcu._core (with its cuda submodule);
- the committed stubs are exactly what ``.ci/stubgen.py`` generates from the installed module
  (regenerate them with ``nox -s stubs``); skipped without pybind11-stubgen, and in an sdist,
  which leaves the CI's scripts out;
- ``mypy --strict`` accepts tests/typecheck/uses_numcu.py (creation, ufuncs, reductions, asnumpy,
  numcu.cuda's devices, streams and errors) and rejects every call in
  tests/typecheck/misuses_numcu.py with the error code its ``# error:`` comment names, and no
  other; skipped without mypy.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import numcu

ROOT = Path(__file__).resolve().parent.parent
TYPECHECK = Path(__file__).resolve().parent / "typecheck"
# The installed package (tests may import numcu from the source folder, _core never).
INSTALLED = Path(numcu._core.__file__).parent


def test_installed_package_is_typed():
    expected = ["py.typed", "__init__.pyi", "cuda.pyi", "_core/__init__.pyi", "_core/cuda.pyi"]

    missing = [name for name in expected if not (INSTALLED / name).is_file()]

    assert not missing, f"not installed in {INSTALLED}: {missing}"


def test_committed_stubs_are_what_the_module_generates():
    pytest.importorskip("pybind11_stubgen")
    if not (ROOT / ".ci" / "stubgen.py").exists():
        pytest.skip("needs numcu's repository (.ci/stubgen.py; an sdist leaves it out)")

    completed = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "stubgen.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if completed.returncode == 3:
        pytest.skip(completed.stdout.strip())

    assert completed.returncode == 0, completed.stdout + completed.stderr


def _mypy_errors(output: str, filename: str) -> set[tuple[int, str]]:
    pattern = re.compile(rf"^{re.escape(filename)}:(\d+): error: .*\[([a-z-]+)\]$", re.M)
    return {(int(line), code) for line, code in pattern.findall(output)}


@pytest.mark.slow
def test_mypy_accepts_typed_use_and_rejects_misuse(tmp_path):
    pytest.importorskip("mypy")
    # Checked from a folder of their own, so that mypy sees the installed numcu, stubs and all.
    for name in ("uses_numcu.py", "misuses_numcu.py"):
        shutil.copy(TYPECHECK / name, tmp_path / name)
    expected = {
        (number, code)
        for number, line in enumerate((TYPECHECK / "misuses_numcu.py").read_text().splitlines(), 1)
        for code in re.findall(r"# error: ([a-z-]+)", line)
    }
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "MYPY_CONFIG_FILE_DIR")}

    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache")]
        + ["uses_numcu.py", "misuses_numcu.py"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env=env,
    )
    output = completed.stdout + completed.stderr

    assert not re.search(r"^uses_numcu\.py:", output, re.M), output
    assert _mypy_errors(output, "misuses_numcu.py") == expected, output
    assert len(expected) >= 9
