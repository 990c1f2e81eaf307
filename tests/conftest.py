"""Shared test machinery: backends, array producers, random data and the NumPy oracle.

Every kernel test follows one pattern: draw fresh random data with `random_array` (seeded from
the test's own id, so a failure reproduces), poison any `out` before the call, run numcu on a
backend, and compare with NumPy through `assert_matches`.

Backends (the `backend` fixture):
- "cpu":   host operands, ``device="cpu"``; the result is a numpy.ndarray.
- "cuda":  host operands, ``device="cuda"`` (gpu); the result is still a numpy.ndarray.
- "numcu": operands copied to the GPU with ``numcu.asarray`` (gpu); the result is a
           numcu.ndarray, brought back with ``.get()``.

Producers (the `producer` fixture, all gpu): numcu, a bare ``__cuda_array_interface__`` object
over numcu memory ("cai"), cupy, torch and numba. A producer whose library is not importable, or
that cannot hold a dtype, skips.

Tests marked ``gpu`` are skipped when ``numcu.cuda.is_available()`` is False.
"""

from __future__ import annotations

import functools
import importlib
import os
import subprocess
import sys
import warnings
import zlib

import numpy as np
import pytest

import numcu

# JAX (a producer in test_dlpack.py and test_bfloat16.py) shares the GPU with numcu and with the
# other xdist workers: it must neither take most of the GPU's memory at start (its default) nor
# keep a pool of its own. Set here, before any test module can import jax.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
os.environ.setdefault("XLA_PYTHON_CLIENT_ALLOCATOR", "platform")

# The 14 dtypes of the contract, in its order.
DTYPE_NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
DTYPES = tuple(np.dtype(name) for name in DTYPE_NAMES)
FLOAT_DTYPES = tuple(dt for dt in DTYPES if dt.kind in "fc")

# (rtol, atol) per inexact dtype; integers and bool compare exactly.
TOLERANCES = {
    np.dtype(np.float16): (1e-3, 0.0),
    np.dtype(np.float32): (1e-6, 0.0),
    np.dtype(np.float64): (1e-12, 0.0),
    np.dtype(np.complex64): (1e-6, 0.0),
    np.dtype(np.complex128): (1e-12, 0.0),
}

# Integer ranges: sums never overflow; products of the narrow types wrap (as NumPy does, and
# well defined after C++'s promotion to int); products of the wide types stay in range so the
# kernels never meet signed overflow.
INT_RANGES = {
    np.dtype(np.int8): (-64, 64),
    np.dtype(np.int16): (-16384, 16384),
    np.dtype(np.int32): (-(2**15), 2**15),
    np.dtype(np.int64): (-(2**31), 2**31),
    np.dtype(np.uint8): (0, 128),
    np.dtype(np.uint16): (0, 32768),
    np.dtype(np.uint32): (0, 2**16),
    np.dtype(np.uint64): (0, 2**32),
}

OPS = ("add", "subtract", "multiply", "divide")


def quiet():
    """NumPy reference computations must not turn overflow or x/0 into errors (filterwarnings)."""
    return np.errstate(all="ignore")


def gpu_available() -> bool:
    return bool(numcu.cuda.is_available())


def pytest_report_header(config):
    info = numcu.build_info()
    return (
        f"numcu {numcu.__version__}: backends {info['backends']}, CUDA available: {gpu_available()}"
    )


# Hypothesis profiles for the property-based suite (test_properties.py), chosen with
# NUMCU_HYPOTHESIS_PROFILE. "ci" (the default): 40 examples per test, the file's 74 CPU tests in
# about 20 s on two cores. "gpu": 600 per test; on the GPU machine the file has 224 tests
# (three backends), so about 1.3 * 10^5 examples, of which some are abandoned while drawing
# (the summary line counts those that ran to the end). The whole suite with the earlier 1000
# per test did not finish in 7 minutes with `-n 14` on the H100 machine; the file alone, at
# 600, is meant to take about 5.
HYPOTHESIS_PROFILE = os.environ.get("NUMCU_HYPOTHESIS_PROFILE", "ci")
try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the property-based tests skip
    pass
else:
    # An example builds arrays and runs numcu and NumPy: slower than Hypothesis expects. The
    # example counter is a function-scoped fixture meant to span a test's examples.
    _relaxed = [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ]
    settings.register_profile(
        "ci", max_examples=40, deadline=None, print_blob=True, suppress_health_check=_relaxed
    )
    settings.register_profile(
        "gpu",
        max_examples=600,
        deadline=None,
        print_blob=True,
        database=None,
        suppress_health_check=_relaxed,
    )
    # Under compute-sanitizer (tests/sanitize.py), where every kernel launch is slow.
    settings.register_profile(
        "sanitize", max_examples=10, deadline=None, database=None, suppress_health_check=_relaxed
    )
    settings.load_profile(HYPOTHESIS_PROFILE)

_hypothesis_examples = {"examples": 0, "tests": 0}


def pytest_runtest_logreport(report):
    """Adds up the examples property-based tests ran (under xdist: reported by the workers)."""
    if report.when != "teardown":
        return
    for name, value in report.user_properties:
        if name == "hypothesis_examples":
            _hypothesis_examples["examples"] += value
            _hypothesis_examples["tests"] += 1


def pytest_terminal_summary(terminalreporter):
    if _hypothesis_examples["tests"]:
        terminalreporter.write_line(
            f"hypothesis ({HYPOTHESIS_PROFILE} profile): {_hypothesis_examples['examples']} "
            f"examples ran in {_hypothesis_examples['tests']} property-based tests"
        )


def pytest_collection_modifyitems(config, items):
    if gpu_available():
        return
    skip_gpu = pytest.mark.skip(reason="needs a CUDA device: numcu.cuda.is_available() is False")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip_gpu)


def gpu_param(value, id=None):
    """A parameter value whose tests need a GPU."""
    return pytest.param(value, id=id, marks=pytest.mark.gpu)


# --------------------------------------------------------------------------------------------
# Random data
# --------------------------------------------------------------------------------------------


@pytest.fixture
def rng(request):
    """A generator seeded from the test id (its parameters included): reproducible per test."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


def random_array(rng, shape, dtype, *, nonzero=False):
    """Random data of `dtype`: never all zeros; with `nonzero`, no zero at all (divisors)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        if nonzero:
            return np.ones(shape, dtype)
        return np.asarray(rng.random(shape) > 0.5)
    if dtype.kind in "iu":
        low, high = INT_RANGES[dtype]
        a = np.asarray(rng.integers(low, high, size=shape, dtype=dtype))
        a[a == 0] = 1  # zeros are placed on purpose, where a test is about them
        return a
    if dtype.kind == "f":
        a = np.asarray(rng.standard_normal(shape) * 4).astype(dtype)
    elif dtype.kind == "c":
        parts = rng.standard_normal((2, *shape)) * 4
        a = np.asarray(parts[0] + 1j * parts[1]).astype(dtype)
    else:
        raise AssertionError(f"no random data for {dtype}")
    if nonzero:
        a[a == 0] = 1
    return a


def python_scalar(dtype):
    """A non-zero Python scalar of the same kind as `dtype` (a weak scalar under NEP 50)."""
    kind = np.dtype(dtype).kind
    return {"b": True, "i": 3, "u": 3, "f": 2.5, "c": complex(1.5, -2.0)}[kind]


def poisoned(shape, dtype, expected=None):
    """An output array filled with values the result will not hold: NaN, 77, or ~expected."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        if expected is None:
            return np.ones(shape, dtype)
        return np.logical_not(np.broadcast_to(expected, shape)).copy()
    if dtype.kind in "fc":
        return np.full(shape, np.nan, dtype)
    return np.full(shape, 77, dtype)


# --------------------------------------------------------------------------------------------
# The oracle
# --------------------------------------------------------------------------------------------


def assert_matches(result, expected, *, rtol=None, atol=None):
    """`result` (a numpy.ndarray from numcu) equals NumPy's `expected` in dtype, shape, values.

    Integers and bool compare exactly, inexact dtypes within TOLERANCES; NaN equals NaN.
    Where NumPy gives a NumPy scalar (0-d results), numcu must too; elsewhere an ndarray.
    """
    if isinstance(expected, np.generic):
        assert isinstance(result, np.generic), f"expected a NumPy scalar, got {type(result)!r}"
    else:
        assert isinstance(result, np.ndarray), f"expected a numpy.ndarray, got {type(result)!r}"
    result, expected = np.asarray(result), np.asarray(expected)
    assert result.dtype == expected.dtype, f"dtype {result.dtype}, expected {expected.dtype}"
    assert result.shape == expected.shape, f"shape {result.shape}, expected {expected.shape}"
    if expected.dtype.kind in "fc":
        default_rtol, default_atol = TOLERANCES[expected.dtype]
        np.testing.assert_allclose(
            result,
            expected,
            rtol=default_rtol if rtol is None else rtol,
            atol=default_atol if atol is None else atol,
            equal_nan=True,
        )
    else:
        np.testing.assert_array_equal(result, expected)


def reference(op, *operands, **kwargs):
    """NumPy's answer for `op` ("add", ...), with floating-point warnings silenced."""
    with quiet():
        return getattr(np, op)(*operands, **kwargs)


# --------------------------------------------------------------------------------------------
# Backends
# --------------------------------------------------------------------------------------------

BACKENDS = ("cpu", gpu_param("cuda"), gpu_param("numcu"))
HOST_BACKENDS = ("cpu", gpu_param("cuda"))


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Where and how a call runs: "cpu", "cuda" (host operands) or "numcu" (device operands)."""
    return request.param


@pytest.fixture(params=HOST_BACKENDS)
def host_backend(request):
    """The device= value for host operands: "cpu" always, "cuda" with a GPU."""
    return request.param


def to_backend(operand, backend):
    """The operand as `backend` takes it: host arrays go to the GPU for "numcu"."""
    if backend == "numcu" and isinstance(operand, np.ndarray):
        device_array = numcu.asarray(operand)
        assert isinstance(device_array, numcu.ndarray)
        return device_array
    return operand


def call_on(backend, fn, *operands, **kwargs):
    """Call numcu `fn` on `backend`; check the result type and return it as NumPy data."""
    args = [to_backend(x, backend) for x in operands]
    if backend == "numcu":
        result = fn(*args, **kwargs)
        assert isinstance(result, numcu.ndarray), f"device operands gave {type(result)!r}"
        # A 0-d device result stays a 0-d array (as in CuPy); compare it as NumPy's scalar.
        return result.get()[()] if result.ndim == 0 else result.get()
    result = fn(*args, device=backend, **kwargs)
    # NumPy's own types: an ndarray, or a NumPy scalar for a 0-d result.
    assert type(result) is np.ndarray or isinstance(result, np.generic), (
        f"host operands gave {type(result)!r}"
    )
    return result


# --------------------------------------------------------------------------------------------
# Producers of device arrays
# --------------------------------------------------------------------------------------------


def import_or_skip(name):
    """Import an optional producer library, skipping on any import failure.

    Third-party imports may warn; warnings are errors in this suite, so they are silenced here.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return importlib.import_module(name)
        except Exception as exc:  # an installed but broken library also means "not available"
            pytest.skip(f"{name} is not importable: {exc}")


@functools.cache
def _jax_gpu_problem():
    """Why JAX's GPU backend cannot start here, or None: tried in a child process, once per
    session (per xdist worker), because where it fails to start (a driver it does not take, no
    memory left for its handles) XLA aborts the process, which no except clause catches and
    which would kill the worker and the tests it still had."""
    probe = "import jax; jax.devices('gpu')[0]"
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the probe did not run: {exc}"
    if done.returncode == 0:
        return None
    lines = (done.stderr or done.stdout or "").strip().splitlines()
    return f"exit status {done.returncode}: {lines[-1] if lines else 'no output'}"


def jax_gpu():
    """(jax, its first GPU device) with 64-bit dtypes on, or skip: where jax is not importable,
    has no GPU backend, or its GPU backend cannot start (see _jax_gpu_problem)."""
    jax = import_or_skip("jax")
    problem = _jax_gpu_problem()
    if problem is not None:
        pytest.skip(f"JAX's GPU backend does not start here ({problem})")
    jax.config.update("jax_enable_x64", True)  # keep 64-bit dtypes 64-bit
    try:
        return jax, jax.devices("gpu")[0]
    except RuntimeError as exc:
        pytest.skip(f"jax has no GPU backend: {exc}")


def numpy_view_offset(view, base):
    """Byte offset of `view`'s first element from `base`'s (both NumPy, `view` derived)."""
    return view.__array_interface__["data"][0] - base.__array_interface__["data"][0]


class CAIArray:
    """A bare object exposing ``__cuda_array_interface__`` (v3) over someone else's memory.

    It keeps `owner` alive. Built from a NumPy view of a base array, it describes the same
    view of the device copy of that base: that is how strided, offset and negative-stride
    device views are made without a third-party library.
    """

    def __init__(self, owner, ptr, shape, dtype, strides=None, readonly=False):
        self.owner = owner
        self._cai = {
            "version": 3,
            "shape": tuple(shape),
            "typestr": np.dtype(dtype).str,
            "data": (int(ptr), bool(readonly)),
            "strides": None if strides is None else tuple(strides),
            "stream": None,
        }

    @property
    def __cuda_array_interface__(self):
        return dict(self._cai)

    @classmethod
    def view_of(cls, device_base, numpy_base, numpy_view, readonly=False):
        """The view of `device_base` that `numpy_view` is of `numpy_base` (C-contiguous)."""
        assert numpy_base.flags.c_contiguous
        cai = device_base.__cuda_array_interface__
        assert tuple(cai["shape"]) == numpy_base.shape
        if numpy_base.size > 1:
            assert cai["strides"] in (None, numpy_base.strides), "not C-contiguous on the device"
        ptr = cai["data"][0]
        return cls(
            device_base,
            ptr + numpy_view_offset(numpy_view, numpy_base),
            numpy_view.shape,
            numpy_view.dtype,
            numpy_view.strides,
            readonly,
        )


class Producer:
    """Makes device arrays of one library from NumPy data, and reads them back."""

    name = "?"

    def from_numpy(self, a):
        raise NotImplementedError

    def to_numpy(self, x):
        raise NotImplementedError

    def view(self, device_base, numpy_base, index):
        """Apply `index` (a function of an array) on the device, as on `numpy_base`."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return index(device_base)
        except Exception as exc:  # the producer's own failure, not numcu's
            pytest.skip(f"{self.name} cannot make this view: {type(exc).__name__}: {exc}")

    def checked(self, x):
        """`x`, once it is known to export ``__cuda_array_interface__`` (else skip)."""
        try:
            x.__cuda_array_interface__  # noqa: B018
        except (TypeError, KeyError, ValueError, RuntimeError, AttributeError) as exc:
            pytest.skip(f"{self.name} cannot export {x!r} through CAI: {exc}")
        return x


class NumcuProducer(Producer):
    name = "numcu"

    def from_numpy(self, a):
        return numcu.asarray(a)

    def to_numpy(self, x):
        return x.get()

    def view(self, device_base, numpy_base, index):
        return CAIArray.view_of(device_base, numpy_base, index(numpy_base))


class CAIProducer(NumcuProducer):
    """numcu memory seen only through a plain Python ``__cuda_array_interface__`` object."""

    name = "cai"

    def from_numpy(self, a):
        a = np.array(a, order="C")
        owner = numcu.asarray(a)
        return CAIArray(owner, owner.__cuda_array_interface__["data"][0], a.shape, a.dtype)

    def to_numpy(self, x):
        return numcu.asarray(x).get()

    def view(self, device_base, numpy_base, index):
        return CAIArray.view_of(device_base.owner, numpy_base, index(numpy_base))


class CupyProducer(Producer):
    name = "cupy"

    def __init__(self):
        self.cp = import_or_skip("cupy")
        if self.cp.cuda.runtime.getDeviceCount() == 0:
            pytest.skip("cupy sees no CUDA device")

    def from_numpy(self, a):
        return self.checked(self.cp.asarray(a))

    def to_numpy(self, x):
        return self.cp.asnumpy(x)


class TorchProducer(Producer):
    name = "torch"

    def __init__(self):
        self.torch = import_or_skip("torch")
        if not self.torch.cuda.is_available():
            pytest.skip("torch sees no CUDA device")

    def from_numpy(self, a):
        try:
            tensor = self.torch.from_numpy(np.array(a, order="C")).to("cuda")
        except (TypeError, RuntimeError) as exc:
            pytest.skip(f"torch cannot hold {a.dtype}: {exc}")
        return self.checked(tensor)

    def to_numpy(self, x):
        try:
            return x.cpu().numpy()
        except (TypeError, RuntimeError) as exc:
            pytest.skip(f"torch cannot return {x.dtype} to NumPy: {exc}")


class NumbaProducer(Producer):
    name = "numba"

    def __init__(self):
        import_or_skip("numba")
        self.cuda = import_or_skip("numba.cuda")
        try:
            available = self.cuda.is_available()
        except Exception as exc:  # numba-cuda needs the toolkit's NVVM; a driver alone has none
            pytest.skip(f"numba cannot use the GPU here: {type(exc).__name__}: {exc}"[:300])
        if not available:
            pytest.skip("numba sees no CUDA device")

    def from_numpy(self, a):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                device_array = self.cuda.to_device(np.array(a, order="C"))
        except (TypeError, ValueError, NotImplementedError) as exc:
            pytest.skip(f"numba cannot hold {a.dtype}: {exc}")
        return self.checked(device_array)

    def to_numpy(self, x):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return x.copy_to_host()


PRODUCERS = {
    "numcu": NumcuProducer,
    "cai": CAIProducer,
    "cupy": CupyProducer,
    "torch": TorchProducer,
    "numba": NumbaProducer,
}


@pytest.fixture(params=[gpu_param(name) for name in PRODUCERS])
def producer(request):
    """A library that makes device arrays (gpu; skipped where the library is missing)."""
    return PRODUCERS[request.param]()
