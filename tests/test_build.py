"""What the installed package says about itself: version, build info, dtypes, CUDA presence.

Specification:
- ``numcu.__version__`` is a string and equals ``build_info()["version"]``;
- ``build_info()`` has version, cuda_version, cuda_architectures, backends and dtypes; "cpu" is
  always a backend, and a usable GPU implies the "cuda" backend was compiled in;
- ``numcu.dtypes`` (and build_info's) are exactly the 14 NumPy dtype names and bfloat16;
- ``numcu.cuda.device_count()`` is an int >= 0 and ``is_available()`` a bool;
- ``python -m numcu`` runs and prints the version;
- ``import numcu`` works, and host data runs on the CPU, where no GPU can be seen;
- the compiled module imports none of numcu's Python modules: what it hands over to Python
  (array fill values, unique of complex numbers, array indices, lists of device arrays) goes to
  what ``import numcu`` registered, with any later import of a numcu module refused.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from conftest import DTYPE_NAMES

import numcu

PUBLIC_NAMES = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "mul",
    "div",
    "asarray",
    "asnumpy",
    "arange",
    "linspace",
    "empty_like",
    "zeros_like",
    "ones_like",
    "full_like",
    "ndarray",
    "build_info",
    "dtypes",
    "cuda",
    "__version__",
)


def test_public_names():
    missing = [name for name in PUBLIC_NAMES if not hasattr(numcu, name)]
    assert not missing


def test_cuda_module_names():
    for name in (
        "is_available",
        "device_count",
        "synchronize",
        "Device",
        "CUDAError",
        "OutOfMemoryError",
        "CUDAUnavailableError",
        "memory_kind",
    ):
        assert hasattr(numcu.cuda, name), name


def test_version():
    assert isinstance(numcu.__version__, str)
    assert numcu.__version__
    assert numcu.build_info()["version"] == numcu.__version__


def test_build_info():
    info = numcu.build_info()

    assert isinstance(info, dict)
    assert {"version", "cuda_version", "cuda_architectures", "backends", "dtypes"} <= set(info)
    assert isinstance(info["backends"], list)
    assert "cpu" in info["backends"]
    assert set(info["backends"]) <= {"cpu", "cuda"}
    assert isinstance(info["cuda_architectures"], list)
    assert all(isinstance(arch, str) for arch in info["cuda_architectures"])
    if "cuda" in info["backends"]:
        assert isinstance(info["cuda_version"], str)
        assert info["cuda_version"].split(".")[0].isdigit()
    else:
        assert info["cuda_version"] is None
        assert not numcu.cuda.is_available()


def test_dtypes_are_the_15_supported():
    info_dtypes = numcu.build_info()["dtypes"]
    names = (*DTYPE_NAMES, "bfloat16")  # bfloat16 is NumPy's through ml_dtypes

    assert isinstance(numcu.dtypes, tuple)
    assert len(numcu.dtypes) == len(set(numcu.dtypes)) == 15
    assert sorted(numcu.dtypes) == sorted(names)
    assert sorted(info_dtypes) == sorted(names)
    assert all(np.dtype(name).name == name for name in DTYPE_NAMES)


def test_cuda_presence_queries():
    count = numcu.cuda.device_count()
    available = numcu.cuda.is_available()

    assert type(count) is int
    assert count >= 0
    assert type(available) is bool
    if available:
        assert count >= 1


def test_python_dash_m_numcu_prints_the_version():
    completed = subprocess.run(
        [sys.executable, "-m", "numcu"],
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert completed.returncode == 0, completed.stderr
    assert numcu.__version__ in completed.stdout


def test_import_and_cpu_run_with_no_visible_gpu():
    """With CUDA_VISIBLE_DEVICES="" numcu imports, sees no GPU, and computes on the CPU."""
    script = (
        "import numpy as np, numcu\n"
        "assert numcu.cuda.is_available() is False, 'a GPU is visible'\n"
        "assert numcu.cuda.device_count() == 0\n"
        "x = np.arange(1, 8, dtype=np.float32)\n"
        "r = numcu.add(x, 0.5)\n"
        "assert type(r) is np.ndarray and r.dtype == np.float32\n"
        "assert np.array_equal(r, x + np.float32(0.5))\n"
        "print('ok')\n"
    )
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")

    completed = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip().endswith("ok")


def test_compiled_module_imports_no_python_module_of_numcu():
    script = (
        "import sys, numpy as np, numcu\n"
        "class Refuse:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith('numcu'):\n"
        "            raise ImportError('imported ' + name)\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "for name in [m for m in sys.modules if m.startswith('numcu.') and m != 'numcu._core']:\n"
        "    del sys.modules[name]\n"
        "full = numcu.full((2, 3), np.arange(3.0), device='cpu')\n"
        "assert np.array_equal(full, np.broadcast_to(np.arange(3.0), (2, 3)))\n"
        "like = numcu.full_like(np.zeros((2, 3)), np.arange(3.0))\n"
        "assert np.array_equal(like, full)\n"
        "z = np.array([1 + 1j, 1j, 1 + 1j])\n"
        "values = numcu._core._unique(z, True, False, False, False, device='cpu')[0]\n"
        "assert np.array_equal(values, np.unique(z))\n"
        "if numcu.cuda.is_available():\n"
        "    a = np.arange(6.0).reshape(2, 3)\n"
        "    d = numcu.asarray(a)\n"
        "    assert np.array_equal(d[np.array([1, 0])].get(), a[[1, 0]])\n"
        "    d[d.get() > 2] = 0\n"
        "    assert numcu.asarray([d, d]).shape == (2, 2, 3)\n"
        "    assert np.sum(d, axis=0).shape == (3,)\n"
        "print('ok')\n"
    )

    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip().endswith("ok")


def test_headers_and_cmake_config_are_installed():
    """Downstream C++/CUDA code finds numcu's headers and its CMake package config."""
    assert os.path.isfile(os.path.join(numcu.include_path, "numcu", "dtype.hpp"))
    assert os.path.isfile(os.path.join(numcu.include_path, "numcu", "ops.hpp"))
    config = os.path.join(numcu.cmake_prefix, "numcu", "numcuConfig.cmake")
    assert os.path.isfile(config)
