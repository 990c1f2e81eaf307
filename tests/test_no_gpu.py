"""A machine without a GPU: what README.md promises there.

Specification:
- with no GPU visible, every public function that takes host data runs on the CPU backend
  without ``device=`` and gives NumPy's answer as a NumPy array or scalar; creation functions
  and ``asarray`` give NumPy arrays (numcu's default device is then the host);
- ``numcu.cuda.synchronize()``, ``memory_info()``, ``release_memory()`` and
  ``current_stream().synchronize()`` work without a GPU: the first returns at once, the second
  reports an empty pool; asking for a GPU (a device, a stream, an event) raises
  CUDAUnavailableError;
- the reason (``numcu.cuda.unavailable_reason()`` and every CUDAUnavailableError) names the
  cause: no NVIDIA driver, a driver older than the CUDA numcu was built with (both versions),
  ``CUDA_VISIBLE_DEVICES`` empty or naming no GPU, or a CPU-only build; never a source file.

The checks without a GPU run in a fresh interpreter with ``CUDA_VISIBLE_DEVICES`` empty, so
they run on machines with a GPU too.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numcu

HAS_CUDA_BACKEND = "cuda" in numcu.build_info()["backends"]


def driver_installed() -> bool:
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


def run_python(script: str, **env: str) -> str:
    """Runs `script` in a fresh interpreter with `env` added; returns its output."""
    completed = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed.stdout


def reason_with(**env: str) -> str:
    return run_python("import numcu; print(numcu.cuda.unavailable_reason())", **env).strip()


# Calls every public function on host data without device=, and compares with NumPy.
EVERY_FUNCTION = r"""
import re

import numpy as np
import numcu

assert not numcu.cuda.is_available(), numcu.cuda.unavailable_reason()
rng = np.random.default_rng(11)
x = rng.uniform(0.25, 0.75, (5, 4))  # inside every function's domain
y = rng.uniform(1.5, 2.5, (4,))
ix = rng.integers(1, 9, (5, 4))
iy = rng.integers(1, 4, (4,))
checked = 0


def same(result, expected, what):
    global checked
    assert type(result) in (np.ndarray, type(expected)), (what, type(result))
    np.testing.assert_allclose(result, expected, rtol=1e-12, err_msg=what)
    assert np.asarray(result).dtype == np.asarray(expected).dtype, what
    checked += 1


integer_only = {"invert", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}
with np.errstate(all="ignore"):
    for name in numcu.UFUNCS:
        ufunc = getattr(np, name)
        a, b = (ix, iy) if name in integer_only else (x, y)
        if ufunc.nin == 1:
            same(getattr(numcu, name)(a), ufunc(a), name)
        else:
            same(getattr(numcu, name)(a, b), ufunc(a, b), name)
    for name in ("sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax",
                 "nansum", "nanprod", "nanmean", "nanmin", "nanmax", "cumsum", "cumprod",
                 "nancumsum", "nancumprod"):
        same(getattr(numcu, name)(x, axis=0), getattr(np, name)(x, axis=0), name)
        same(getattr(numcu, name)(x), getattr(np, name)(x), name + " of all")
    for name in ("any", "all", "count_nonzero"):
        same(getattr(numcu, name)(ix > 4, axis=1), getattr(np, name)(ix > 4, axis=1), name)
same(numcu.where(x > 0.5, x, y), np.where(x > 0.5, x, y), "where")
same(numcu.clip(x, 0.3, 0.6), np.clip(x, 0.3, 0.6), "clip")
same(numcu.astype(x, np.float32), x.astype(np.float32), "astype")
same(numcu.mul(x, y), x * y, "mul")
same(numcu.div(x, y), x / y, "div")
for name, expected in (("empty", None), ("zeros", np.zeros(3)), ("ones", np.ones(3))):
    result = getattr(numcu, name)(3)
    assert type(result) is np.ndarray and result.shape == (3,), name
    if expected is not None:
        same(result, expected, name)
same(numcu.full(3, 2.5), np.full(3, 2.5), "full")
same(numcu.arange(0, 1, 0.125), np.arange(0, 1, 0.125), "arange")
same(numcu.linspace(-1, 1, 9), np.linspace(-1, 1, 9), "linspace")
for name in ("zeros_like", "ones_like"):
    same(getattr(numcu, name)(x), getattr(np, name)(x), name)
same(numcu.full_like(x, 7), np.full_like(x, 7), "full_like")
assert type(numcu.empty_like(x)) is np.ndarray
assert numcu.asarray(x) is x
same(numcu.asarray(x, dtype=np.float32), x.astype(np.float32), "asarray")
same(numcu.asnumpy(x), x, "asnumpy")
same(numcu.from_dlpack(x), x, "from_dlpack")

numcu.cuda.synchronize()
numcu.cuda.current_stream().synchronize()
numcu.cuda.release_memory()
assert numcu.cuda.memory_info() == {"used_bytes": 0, "reserved_bytes": 0}
for call in (
    lambda: numcu.cuda.synchronize(0),
    lambda: numcu.cuda.Stream(),
    lambda: numcu.cuda.Event(),
    lambda: numcu.cuda.Device(0).name,
    lambda: numcu.zeros(3, device="cuda"),
    lambda: numcu.zeros_like(x, memory="managed"),
    lambda: numcu.asarray(x, device="cuda:0"),
    lambda: numcu.add(x, y, device="cuda"),
):
    try:
        call()
    except numcu.cuda.CUDAUnavailableError as error:
        message = str(error)
        assert numcu.cuda.unavailable_reason() in message, message
        assert not re.search(r"\.(cpp|hpp|cu|cuh)\b", message), message
    else:
        raise AssertionError("a GPU request without a GPU did not raise")
print("checked", checked)
"""


def test_every_function_on_host_data_runs_without_a_gpu():
    output = run_python(EVERY_FUNCTION, CUDA_VISIBLE_DEVICES="")

    checked = int(output.split()[-1])
    assert checked >= len(numcu.UFUNCS) + 40


@pytest.mark.skipif(numcu.cuda.is_available(), reason="a CUDA device is available")
def test_synchronize_and_memory_info_without_a_gpu():
    numcu.cuda.synchronize()

    assert numcu.cuda.memory_info() == {"used_bytes": 0, "reserved_bytes": 0}
    with pytest.raises(numcu.cuda.CUDAUnavailableError, match="no CUDA device is available"):
        numcu.cuda.synchronize(device=0)


# --------------------------------------------------------------------------------------------
# Why no GPU can be used
# --------------------------------------------------------------------------------------------


@pytest.mark.skipif(HAS_CUDA_BACKEND, reason="numcu was built with its CUDA backend")
def test_reason_of_a_cpu_only_build():
    assert reason_with().startswith("numcu was built without its CUDA backend")


@pytest.mark.skipif(not HAS_CUDA_BACKEND, reason="a CPU-only build")
@pytest.mark.skipif(driver_installed(), reason="an NVIDIA driver is installed")
def test_reason_without_a_driver():
    # CUDA_VISIBLE_DEVICES does not matter when there is no driver.
    for env in ({}, {"CUDA_VISIBLE_DEVICES": ""}):
        assert reason_with(**env) == (
            "no NVIDIA driver is installed: the CUDA driver library, libcuda.so.1, cannot be loaded"
        )


@pytest.mark.skipif(not HAS_CUDA_BACKEND, reason="a CPU-only build")
@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler to make a stand-in driver")
def test_reason_with_a_driver_too_old(tmp_path):
    """A stand-in libcuda.so.1 that reports CUDA 12.4, found first on LD_LIBRARY_PATH."""
    source = tmp_path / "old_driver.c"
    source.write_text(
        "int cuDriverGetVersion(int* v) { *v = 12040; return 0; }\n"
        "int cuInit(unsigned flags) { (void)flags; return 0; }\n"
    )
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-o", str(tmp_path / "libcuda.so.1"), str(source)], check=True
    )
    built_with = numcu.build_info()["cuda_version"]

    reason = reason_with(LD_LIBRARY_PATH=str(tmp_path))

    distribution = numcu.build_info()["distribution"]
    major = int(built_with.split(".")[0])
    expected = (
        f"the NVIDIA driver is too old: it supports CUDA 12.4, and this numcu ({distribution}) "
        f"was built with CUDA {built_with}, which needs driver {580 if major >= 13 else 525} or "
        "newer: update the driver"
    )
    if major >= 13:
        expected += ", or install numcu-cuda12x (built with CUDA 12, for drivers from 525 on)"
    assert reason == expected


@pytest.mark.gpu
def test_reason_with_cuda_visible_devices_empty():
    assert reason_with(CUDA_VISIBLE_DEVICES="") == (
        "CUDA_VISIBLE_DEVICES is set but empty, which hides every GPU"
    )


@pytest.mark.gpu
def test_reason_with_cuda_visible_devices_naming_no_gpu():
    assert reason_with(CUDA_VISIBLE_DEVICES="97") == (
        "CUDA_VISIBLE_DEVICES is '97', which names no GPU this machine has"
    )


@pytest.mark.gpu
def test_no_reason_with_a_gpu():
    assert numcu.cuda.unavailable_reason() == ""
    assert isinstance(numcu.zeros(3), numcu.ndarray)
    assert type(numcu.zeros_like(np.ones(3))) is np.ndarray
