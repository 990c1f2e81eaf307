"""numcu's build backend: scikit-build-core's, which also asks for NVIDIA's CUDA compiler wheels.

A source build (``pip install .``, an sdist, a package that depends on numcu where no wheel fits)
gets the CUDA backend from the machine's CUDA toolkit when it has one. Where no ``nvcc`` is found,
the wheel hooks add NVIDIA's compiler wheels to the build requirements, and pip installs them
into the build's environment only, where CMake finds them (cuda/cmake/numcu_nvcc.cmake):

- ``nvidia-cuda-nvcc`` (nvcc, ptxas, fatbinary, nvlink), ``nvidia-nvvm`` (cicc),
  ``nvidia-cuda-crt``, ``nvidia-cuda-runtime`` (headers, ``libcudart_static.a``) and
  ``nvidia-cuda-cccl`` (CUB, Thrust, libcu++), all of CUDA 13.0, the CUDA numcu's wheels and
  CI build with; about 100 MB to download.

They are not asked for when the build is CPU-only on request (``NUMCU_CUDA=OFF`` in the
environment, or ``-Ccmake.define.NUMCU_CUDA=OFF``), when ``NUMCU_CUDA_WHEELS=0``, where NVIDIA
publishes no such wheels (only Linux on x86-64 and aarch64, and Windows), where the driver is
older than CUDA 13's (NVIDIA's CUDA 12 compiler wheels hold ptxas and libnvvm but no nvcc), and
where pip runs without a package index (``PIP_NO_INDEX``). The module built then is CPU-only, and
says why (``numcu.build_info()["no_cuda_reason"]``, ``python -m numcu``, the first GPU call).

Every other hook is scikit-build-core's own.
"""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import sys

from scikit_build_core import build as _scikit
from scikit_build_core.build import *  # noqa: F403 (the hooks this module does not change)

CUDA_MAJOR = 13
COMPILER_WHEELS = [
    f"{name}=={CUDA_MAJOR}.0.*"
    for name in (
        "nvidia-cuda-nvcc",
        "nvidia-nvvm",
        "nvidia-cuda-crt",
        "nvidia-cuda-runtime",
        "nvidia-cuda-cccl",
    )
]
OFF = ("0", "off", "no", "false")


def _cmake_define(name: str, config_settings: dict | None) -> str | None:
    """The value given to CMake for ``name`` by the environment, config settings or CMAKE_ARGS."""
    value = os.environ.get(name)
    for key, given in (config_settings or {}).items():
        if key in (f"cmake.define.{name}", f"skbuild.cmake.define.{name}"):
            value = given if isinstance(given, str) else str(given)
    for item in os.environ.get("SKBUILD_CMAKE_DEFINE", "").split(";"):
        if item.partition("=")[0].partition(":")[0].strip() == name:
            value = item.partition("=")[2]
    for arg in os.environ.get("CMAKE_ARGS", "").split():
        if arg.startswith(f"-D{name}=") or arg.startswith(f"-D{name}:"):
            value = arg.partition("=")[2]
    return value


def find_nvcc(config_settings: dict | None = None) -> str | None:
    """Where CMake will find nvcc without the wheels (cuda/cmake/numcu_nvcc.cmake searches so)."""
    for given in (_cmake_define("CMAKE_CUDA_COMPILER", config_settings), os.environ.get("CUDACXX")):
        if given:
            return given
    on_path = shutil.which("nvcc")
    if on_path:
        return on_path
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.isfile(os.path.join(root, "bin", "nvcc")):
            return os.path.join(root, "bin", "nvcc")
    return None


def driver_cuda_version() -> int | None:
    """The CUDA version this machine's driver supports (13000 for 13.0), or None: no driver."""
    names = {"Linux": "libcuda.so.1", "Windows": "nvcuda.dll"}
    try:
        lib = ctypes.CDLL(names.get(platform.system(), "libcuda.so.1"))
        version = ctypes.c_int(0)
        if lib.cuDriverGetVersion(ctypes.byref(version)) == 0 and version.value > 0:
            return version.value
    except (OSError, AttributeError):
        pass
    return None


def compiler_wheels(config_settings: dict | None = None) -> tuple[list[str], str]:
    """The compiler wheels this build needs, and why none are asked for where that matters."""
    cuda = _cmake_define("NUMCU_CUDA", config_settings)
    if cuda is not None and cuda.strip().lower() in OFF:
        return [], ""
    if find_nvcc(config_settings):
        return [], ""
    if os.environ.get("NUMCU_CUDA_WHEELS", "").strip().lower() in OFF:
        return [], "NUMCU_CUDA_WHEELS=0 keeps NVIDIA's compiler wheels out of the build"
    machine = platform.machine().lower()
    system = platform.system()
    if not (
        (system == "Linux" and machine in ("x86_64", "amd64", "aarch64", "arm64"))
        or (system == "Windows" and machine in ("amd64", "x86_64"))
    ):
        return [], f"NVIDIA publishes no CUDA compiler wheels for {system} on {machine}"
    driver = driver_cuda_version()
    if driver is not None and driver < CUDA_MAJOR * 1000:
        return [], (
            f"this machine's NVIDIA driver supports CUDA {driver // 1000}.{driver % 1000 // 10}, "
            f"older than the CUDA {CUDA_MAJOR} of NVIDIA's compiler wheels, and CUDA 12's "
            "compiler wheels hold no nvcc: install numcu-cuda12x, or a CUDA 12 toolkit and "
            "rebuild"
        )
    if os.environ.get("PIP_NO_INDEX", "").strip().lower() not in ("", *OFF):
        return (
            [],
            "pip runs without a package index (PIP_NO_INDEX), where NVIDIA's compiler wheels "
            "come from",
        )
    return list(COMPILER_WHEELS), ""


def _note(config_settings: dict | None) -> None:
    wheels, note = compiler_wheels(config_settings)
    if wheels:
        print(
            f"numcu: no nvcc found: building with NVIDIA's compiler wheels ({', '.join(wheels)})",
            file=sys.stderr,
        )
    if note:
        # For the message of a CPU-only build (CMakeLists.txt reads it).
        os.environ["NUMCU_NO_CUDA_NOTE"] = note


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    return [
        *_scikit.get_requires_for_build_wheel(config_settings),
        *compiler_wheels(config_settings)[0],
    ]


def get_requires_for_build_editable(config_settings: dict | None = None) -> list[str]:
    return [
        *_scikit.get_requires_for_build_editable(config_settings),
        *compiler_wheels(config_settings)[0],
    ]


def build_wheel(
    wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None
) -> str:
    _note(config_settings)
    return _scikit.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(
    wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None
) -> str:
    _note(config_settings)
    return _scikit.build_editable(wheel_directory, config_settings, metadata_directory)
