"""numcu's declarations of cuBLAS, cuSOLVER and cuFFT (src/vendor_api.hpp) are the libraries' own.

numcu calls these libraries through dlsym with its own declarations of their types, constants
and functions, so that a build needs none of their headers (NVIDIA's compiler wheels have none).
A wrong value or signature would not fail to compile: it would call the library wrongly.

Specification:
- tests/vendor_api_check.cpp, which compares every declaration of src/vendor_api.hpp with the
  real headers (values by static_assert, function types exactly), compiles against the headers
  of every CUDA toolkit found: CUDA_HOME, CUDA_PATH, /usr/local/cuda, the toolkit of the nvcc on
  PATH, and the toolkit folders in NUMCU_TEST_CUDA_ROOTS (os.pathsep-separated: another CUDA
  major's, say); skipped where none has the libraries' headers;
- a function the headers of one version do not declare (cuSOLVER's newer routines) is compared
  where they do;
- every name src/vendor_api.hpp declares is compared by tests/vendor_api_check.cpp.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "src" / "vendor_api.hpp"
CHECK = Path(__file__).resolve().parent / "vendor_api_check.cpp"
LIBRARY_HEADERS = ("cublas_v2.h", "cusolverDn.h", "cufft.h", "cufftXt.h", "cuda_runtime_api.h")
# Routines not every supported CUDA declares (vendor_api.hpp says which).
NEWER = {
    "cusolverDnXsyevBatched": "cusolverDn.h",
    "cusolverDnXgeev": "cusolverDn.h",
}

pytestmark = pytest.mark.skipif(not HEADER.exists(), reason="needs numcu's source tree")


def toolkit_includes() -> list[Path]:
    """The include folders of the CUDA toolkits found here that have the libraries' headers."""
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    nvcc = shutil.which("nvcc")
    if nvcc:
        roots.append(str(Path(nvcc).resolve().parent.parent))
    roots += os.environ.get("NUMCU_TEST_CUDA_ROOTS", "").split(os.pathsep)
    found: list[Path] = []
    for root in filter(None, roots):
        include = (Path(root) / "include").resolve()
        if include not in found and all((include / h).is_file() for h in LIBRARY_HEADERS):
            found.append(include)
    return found


def cuda_version(include: Path) -> str:
    text = (include / "cuda_runtime_api.h").read_text(errors="replace")
    found = re.search(r"#define CUDART_VERSION\s+(\d+)", text)
    return f"{int(found.group(1)) // 1000}.{int(found.group(1)) % 1000 // 10}" if found else "?"


def compiler() -> str | None:
    for candidate in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


INCLUDES = toolkit_includes()


@pytest.mark.skipif(
    not INCLUDES, reason="no CUDA toolkit with cuBLAS's, cuSOLVER's, cuFFT's headers"
)
@pytest.mark.parametrize("include", INCLUDES, ids=lambda p: f"cuda{cuda_version(p)}")
def test_declarations_are_the_libraries(include):
    cxx = compiler()
    if cxx is None:
        pytest.skip("no C++ compiler")
    defines = []
    for name, header in NEWER.items():
        if re.search(rf"\b{name}\b", (include / header).read_text(errors="replace")):
            defines.append(f"-DNUMCU_CHECK_{name}")
    done = subprocess.run(
        [
            cxx,
            "-std=c++17",
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
            *defines,
            f"-I{HEADER.parent}",
            f"-I{include}",
            str(CHECK),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-6000:]


def test_every_declaration_is_compared():
    header = HEADER.read_text()
    body = header[header.index("namespace numcu::vendor {") :]
    declared = set(re.findall(r"^using (\w+) =", body, re.M))
    declared |= set(re.findall(r"^\s+([A-Z][A-Z0-9_]+) = -?\d+,$", body, re.M))
    declared |= set(re.findall(r"^constexpr int (\w+) =", body, re.M))
    declared |= set(re.findall(r"^enum (\w+) : int \{", body, re.M))
    declared |= set(re.findall(r"^struct (\w+);", body, re.M))
    declared -= {"real_element_t"}  # a helper of numcu's, not the libraries'
    check = CHECK.read_text()
    assert len(declared) > 60
    assert not sorted(name for name in declared if not re.search(rf"\b{name}\b", check))
