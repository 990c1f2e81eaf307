"""A downstream CMake project builds against the installed numcu and computes what NumPy does.

tests/downstream is a project of its own: ``find_package(numcu)`` with CMAKE_PREFIX_PATH set to
``numcu.cmake_prefix``, then numcu's Add and Multiply functors (numcu/ops.hpp) on every dtype
reached through ``visit_dtype`` (numcu/dtype.hpp), on the host and, with nvcc, in a kernel.

Specification:
- the project configures and builds against the installed headers in two ways: with the CUDA
  toolkit's types (``NUMCU_WITH_CUDA=1``; needs the toolkit) and without
  (``CMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit``: ``_Float16`` and ``std::complex``);
- its host program gives NumPy's add and multiply for all 14 dtypes on random data, in both;
- with nvcc its kernel program builds as well, and on a GPU gives the same (gpu);
- ``find_package(numcu X.Y)`` accepts numcu's own major.minor and refuses the next minor;
- a CMake whose FindCUDAToolkit leaves out CUDA 13's libcu++ folder gets numcu's message naming
  the CMake versions that work, not a missing header (every such CMake on PATH is tried; skipped
  where there is none).

Every test here configures or builds a project (seconds to a minute on two cores): slow.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import DTYPE_NAMES, assert_matches, poisoned, random_array, reference

import numcu

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "downstream"
MIN_CMAKE = (3, 18)  # tests/downstream's cmake_minimum_required
SIZE = 1031  # odd, so no vector width divides it


def cmake_version(executable: str) -> tuple[int, ...]:
    out = subprocess.run([executable, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"version (\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(part) for part in match.groups()) if match else (0,)


def cmakes_on_path() -> dict[str, tuple[int, ...]]:
    """Every distinct cmake executable on PATH, with its version."""
    found = {}
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, "cmake")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            real = os.path.realpath(candidate)
            if real not in found:
                found[real] = cmake_version(candidate)
    return found


def misses_cccl(version: tuple[int, ...]) -> bool:
    """Whether this CMake's FindCUDAToolkit is known to leave out CUDA 13's include/cccl.

    3.31.6 and 4.0.2 do, 3.31.10 and 4.0.3 do not; the releases in between were not tried.
    """
    return version < (3, 31, 7) or (4, 0, 0) <= version < (4, 0, 3)


def cuda_toolkit_major() -> int | None:
    """The major version of the CUDA toolkit whose nvcc is on PATH, or None."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        return None
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"release (\d+)\.", out)
    return int(match.group(1)) if match else None


def configure(cmake: str, build: Path, *defines: str) -> subprocess.CompletedProcess:
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    return subprocess.run(
        [cmake, "-S", str(PROJECT), "-B", str(build), *generator]
        + [f"-DCMAKE_PREFIX_PATH={numcu.cmake_prefix}", "-DCMAKE_BUILD_TYPE=Release", *defines],
        capture_output=True,
        text=True,
        timeout=600,
    )


def run_checked(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    completed = subprocess.run(args, capture_output=True, text=True, timeout=900, **kwargs)
    assert completed.returncode == 0, f"{args}\n{completed.stdout}\n{completed.stderr}"
    return completed


@pytest.fixture(scope="module")
def cmake() -> str:
    """The newest CMake on PATH that tests/downstream accepts."""
    usable = {path: v for path, v in cmakes_on_path().items() if v >= MIN_CMAKE}
    if not usable:
        pytest.skip(f"no CMake {'.'.join(map(str, MIN_CMAKE))} or newer on PATH")
    return max(usable, key=usable.get)


@pytest.fixture(scope="module", params=["cuda-types", "host-types"])
def built(request, cmake, tmp_path_factory):
    """tests/downstream configured and built: (build folder, whether the kernel was built)."""
    with_cuda = request.param == "cuda-types"
    if with_cuda:
        major = cuda_toolkit_major()
        if major is None:
            pytest.skip("no CUDA toolkit (nvcc) for NUMCU_WITH_CUDA=1")
        if major >= 13 and misses_cccl(cmake_version(cmake)):
            pytest.skip(f"{cmake} is too old for CUDA 13's headers: numcu says so (tested below)")
        # The local GPU's architecture where there is one, else one that compiles everywhere.
        arch = "native" if numcu.cuda.is_available() else "90"
        defines = ["-DCHECK_KERNEL=ON", f"-DCMAKE_CUDA_ARCHITECTURES={arch}"]
    else:
        defines = ["-DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON"]
    build = tmp_path_factory.mktemp(request.param)

    configured = configure(cmake, build, *defines)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    assert f"numcu::headers: NUMCU_WITH_CUDA={int(with_cuda)}" in configured.stdout
    run_checked([cmake, "--build", str(build)])
    return build, with_cuda


def write_operands(folder: Path, rng) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Random x and y of every dtype in folder, and poisoned outputs the program must replace."""
    operands = {}
    for name in DTYPE_NAMES:
        x, y = random_array(rng, (SIZE,), name), random_array(rng, (SIZE,), name)
        x.tofile(folder / f"{name}.x")
        y.tofile(folder / f"{name}.y")
        for op in ("add", "multiply"):
            poisoned((SIZE,), name).tofile(folder / f"{name}.{op}")
        operands[name] = (x, y)
    return operands


def check_outputs(folder: Path, operands) -> None:
    for name, (x, y) in operands.items():
        for op in ("add", "multiply"):
            got = np.fromfile(folder / f"{name}.{op}", dtype=name)
            assert got.shape == (SIZE,), f"{name} {op}: {got.shape}"
            assert_matches(got, reference(op, x, y))


def test_host_program_matches_numpy(built, tmp_path, rng):
    build, _ = built
    operands = write_operands(tmp_path, rng)

    completed = run_checked([str(build / "elementwise_host"), str(tmp_path), *DTYPE_NAMES])

    assert completed.stdout.split() == [w for n in DTYPE_NAMES for w in (n, str(SIZE))]
    check_outputs(tmp_path, operands)


def test_kernel_program_builds_with_nvcc(built):
    build, with_cuda = built
    if not with_cuda:
        pytest.skip("the kernel is built with the CUDA toolkit's types")

    assert (build / "elementwise_kernel").is_file()


@pytest.mark.gpu
def test_kernel_program_matches_numpy(built, tmp_path, rng):
    build, with_cuda = built
    if not with_cuda:
        pytest.skip("the kernel is built with the CUDA toolkit's types")
    operands = write_operands(tmp_path, rng)

    run_checked([str(build / "elementwise_kernel"), str(tmp_path), *DTYPE_NAMES])

    check_outputs(tmp_path, operands)


def test_package_version_file(cmake, tmp_path):
    major, minor = (int(part) for part in numcu.__version__.split(".")[:2])
    host_only = "-DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON"

    same = configure(cmake, tmp_path / "same", host_only, f"-DNUMCU_VERSION={major}.{minor}")
    newer = configure(cmake, tmp_path / "newer", host_only, f"-DNUMCU_VERSION={major}.{minor + 1}")

    assert same.returncode == 0, same.stdout + same.stderr
    assert newer.returncode != 0
    assert f'requested version "{major}.{minor + 1}"' in newer.stderr, newer.stderr
    assert numcu.__version__ in newer.stderr


@pytest.mark.skipif((cuda_toolkit_major() or 0) < 13, reason="no CUDA 13 toolkit")
@pytest.mark.parametrize(
    "old_cmake",
    [path for path, v in cmakes_on_path().items() if MIN_CMAKE <= v and misses_cccl(v)]
    or [pytest.param(None, marks=pytest.mark.skip(reason="no CMake on PATH older than 3.31.7"))],
)
def test_old_cmake_gets_a_version_message(old_cmake, tmp_path):
    completed = configure(old_cmake, tmp_path)
    output = completed.stdout + completed.stderr

    assert completed.returncode != 0
    assert "numcu's headers need CUDA's libcu++" in output, output
    assert "4.0.3" in output and "3.31.10" in output
