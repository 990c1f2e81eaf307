"""The CPU backend's threads: their settings, and results that do not depend on them.

Specification:
- numcu.set_num_threads(n) and numcu.get_num_threads() round-trip n from 1 to 1024; any other
  int is a ValueError, anything but an int a TypeError, both naming numcu.set_num_threads;
- NUMCU_NUM_THREADS sets the default (an empty value counts as unset); a bad value makes
  get_num_threads() and every CPU call raise a ValueError naming the variable, until
  set_num_threads() is called; without it OMP_NUM_THREADS is the default (fresh interpreters),
  with OpenMP's threads and with numcu's own (a manylinux wheel's);
- threading_info() says which layer runs the threads, how many there are and why, the vector
  instruction set the loops run with, and the sizes below which loops are not split;
- a forked child runs numcu's CPU backend on one thread and finishes (GNU OpenMP would wait
  forever for the parent's threads);
- numcu's threads work alongside NumPy's (OpenBLAS) and PyTorch's thread pools, in turn and
  at once;
- on 1, 2, 3 and 7 threads, ufuncs (every dtype), casts, reductions, scans and sequences give
  NumPy's results (within the other suites' tolerances) and the same bits as on 1 thread, at
  sizes around the split thresholds and in every layout (strided, transposed, broadcast,
  negative strides, scalar operands, many outputs, few long outputs, several runs per output);
- Python threads that each run split work at once all get NumPy's results.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from conftest import DTYPES, assert_matches, poisoned, random_array
from test_reductions import REDUCTIONS, SCANS, data, reference
from test_reductions import check as check_reduction
from test_ufuncs import check as check_ufunc
from test_ufuncs import expected_or_error, ufunc_data

import numcu

INFO = numcu.threading_info()
GRAIN = INFO["grain"]["elementwise"]
COSTLY = INFO["grain"]["costly"]
SINGLE_FUNCTION = INFO["grain"]["float32_function"]
COMPLEX_FUNCTION = INFO["grain"]["complex_function"]
REDUCE = INFO["grain"]["reduction"]
OPENMP = INFO["layer"] == "openmp"
# numcu's own threads (a build without OpenMP, such as a manylinux wheel's).
OWN_THREADS = INFO["layer"] == "threads"
# Thread counts compared with one thread: more than this machine's cores is fine (and uneven).
MANY = (2, 3, 7)


@contextlib.contextmanager
def threads(n):
    saved = numcu.get_num_threads()
    numcu.set_num_threads(n)
    try:
        yield
    finally:
        numcu.set_num_threads(saved)


def on_threads(fn, counts=(1, *MANY)):
    """fn() on each thread count: the results, first of them on one thread."""
    results = []
    for n in counts:
        with threads(n):
            results.append(fn())
    return results


def assert_same_bits(results):
    """Every result equals the first one bit for bit (NaN payloads aside)."""
    first = np.asarray(results[0])
    for n, other in zip(MANY, results[1:]):
        other = np.asarray(other)
        assert other.dtype == first.dtype and other.shape == first.shape
        assert np.array_equal(other, first, equal_nan=first.dtype.kind in "fc"), (
            f"{n} threads differ from 1 thread"
        )


def run_python(code, **env):
    """Runs `code` in a fresh interpreter with `env` added; returns its stdout."""
    full = {
        k: v for k, v in os.environ.items() if k not in ("NUMCU_NUM_THREADS", "OMP_NUM_THREADS")
    }
    full.update(env)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# --------------------------------------------------------------------------------------------
# Settings
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 1024])
def test_set_and_get(n):
    with threads(n):
        assert numcu.get_num_threads() == n
        info = numcu.threading_info()
        assert info["num_threads"] == n and info["source"] == "set_num_threads"


def test_set_takes_integer_types():
    with threads(1):
        numcu.set_num_threads(np.int64(3))
        assert numcu.get_num_threads() == 3


@pytest.mark.parametrize("n", [0, -1, 1025, 2**70])
def test_set_refuses_out_of_range(n):
    before = numcu.get_num_threads()
    with pytest.raises(ValueError, match=r"numcu\.set_num_threads: .*from 1 to 1024"):
        numcu.set_num_threads(n)
    assert numcu.get_num_threads() == before


@pytest.mark.parametrize("n", [1.0, 2.5, "2", None, True, [2]])
def test_set_refuses_non_integers(n):
    with pytest.raises(TypeError, match=r"numcu\.set_num_threads: the number of threads must"):
        numcu.set_num_threads(n)


def test_threading_info():
    info = numcu.threading_info()
    assert info["layer"] in ("openmp", "threads")
    assert info["num_threads"] == numcu.get_num_threads() >= 1
    sources = ("set_num_threads", "NUMCU_NUM_THREADS", "OpenMP", "OMP_NUM_THREADS")
    assert info["source"] in (*sources, "available CPUs")
    assert isinstance(info["simd"], str) and info["simd"]
    assert set(info["grain"]) == {
        "elementwise",
        "costly",
        "reduction",
        "float32_function",
        "complex_function",
    }
    assert all(isinstance(g, int) and g > 0 for g in info["grain"].values())
    if info["layer"] == "openmp":
        assert "gomp" in info["library"] or "omp" in info["library"]


def test_environment_variable():
    out = run_python(
        """
        import numcu
        info = numcu.threading_info()
        print(numcu.get_num_threads(), info["source"])
        """,
        NUMCU_NUM_THREADS="3",
        OMP_NUM_THREADS="2",
    )
    assert out == "3 NUMCU_NUM_THREADS"


def test_environment_variable_empty_is_unset():
    out = run_python("import numcu; print(numcu.threading_info()['source'])", NUMCU_NUM_THREADS="")
    assert out in ("OpenMP", "available CPUs")


def test_omp_num_threads_is_the_default():
    out = run_python(
        "import numcu; print(numcu.get_num_threads(), numcu.threading_info()['source'])",
        OMP_NUM_THREADS="3",
    )
    assert out == ("3 OpenMP" if OPENMP else "3 OMP_NUM_THREADS")


@pytest.mark.skipif(not OWN_THREADS, reason="a build whose threads are OpenMP's")
def test_own_threads_default_to_the_cpus_this_process_may_use():
    out = run_python(
        "import os, numcu\n"
        "print(numcu.get_num_threads() == min(len(os.sched_getaffinity(0)), 1024))"
    )
    assert out == "True"


@pytest.mark.parametrize("value", ["abc", "0", "-2", "1025", "2.5", "4x"])
def test_bad_environment_variable(value):
    out = run_python(
        """
        import numpy as np, numcu
        for call in (numcu.get_num_threads, lambda: numcu.add(np.ones(3), 1, device="cpu"),
                     lambda: numcu.sum(np.ones(3), device="cpu")):
            try:
                call()
            except ValueError as e:
                print("ValueError:", e)
        numcu.set_num_threads(2)  # an explicit setting replaces the variable
        print(numcu.get_num_threads(), float(numcu.add(np.ones(3), 1, device="cpu")[0]))
        """,
        NUMCU_NUM_THREADS=value,
    )
    lines = out.splitlines()
    assert len(lines) == 4, out
    for line in lines[:3]:
        assert line.startswith("ValueError: numcu: the environment variable NUMCU_NUM_THREADS=")
        assert f"'{value}'" in line and "from 1 to 1024" in line
    assert lines[3] == "2 2.0"


@pytest.mark.skipif(not OPENMP, reason="a build without OpenMP")
def test_threadpoolctl_sees_and_limits_the_threads():
    pytest.importorskip("threadpoolctl")
    out = run_python(
        """
        import numcu, threadpoolctl
        import os
        library = os.path.realpath(numcu.threading_info()["library"])
        found = [p for p in threadpoolctl.threadpool_info()
                 if os.path.realpath(p["filepath"]) == library]
        with threadpoolctl.threadpool_limits(limits=1, user_api="openmp"):
            limited = numcu.get_num_threads()
        print(len(found), limited)
        """,
        OMP_NUM_THREADS="3",
    )
    assert out == "1 1"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_fork_after_threads_does_not_hang(rng):
    n = 4 * GRAIN + 3
    x, y = random_array(rng, n, "float32"), random_array(rng, n, "float32")
    with threads(3):
        assert_matches(numcu.add(x, y, device="cpu"), x + y)  # the threads have started
        read, write = os.pipe()
        with warnings.catch_warnings():
            # Python 3.12 warns that a process with threads forks (OpenMP's threads are idle).
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: numcu's calls must finish, on one thread
            code = 1
            try:
                ok = np.array_equal(numcu.add(x, y, device="cpu"), x + y)
                ok = ok and np.array_equal(numcu.multiply(x, 2, device="cpu"), x * 2)
                info = numcu.threading_info()
                ok = ok and info["num_threads"] == 1 and info["source"] == "forked child"
                code = 0 if ok else 2
            finally:
                os.write(write, bytes([code]))
                os._exit(code)
        os.close(write)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung in numcu")
        os.close(read)
        assert os.waitstatus_to_exitcode(status) == 0
        assert numcu.get_num_threads() == 3  # the parent keeps its threads
        assert_matches(numcu.add(x, y, device="cpu"), x + y)


@pytest.mark.parametrize("peer", ["numpy", "torch"])
def test_alongside_other_thread_pools(rng, peer):
    torch = pytest.importorskip("torch") if peer == "torch" else None
    n = 4 * GRAIN + 1
    x = random_array(rng, (n,), "float32")
    m = random_array(rng, (384, 384), "float64")
    expected_product = m @ m

    def peer_work():
        if torch is None:
            return m @ m  # OpenBLAS's threads
        t = torch.from_numpy(m)
        return (t @ t).numpy()  # PyTorch's intra-op threads

    def numcu_work():
        assert_matches(numcu.add(x, x, device="cpu"), x + x)
        check_reduction(numcu.sum(x, device="cpu"), np.sum(x), "sum", x)
        return True

    # The peer's product against NumPy's, within the bound on a dot product's rounding error
    # (n u |a| |b|, u = 2^-53): the two libraries sum in different orders (PyTorch's in an order
    # that depends on its threads), so near-zero entries differ by far more than 1e-12 relative.
    bound = m.shape[1] * np.finfo(np.float64).eps * (np.abs(m) @ np.abs(m))

    def check_peer(product):
        assert np.all(np.abs(product - expected_product) <= bound)
        return True

    with threads(3):
        for _ in range(3):
            numcu_work()
            check_peer(peer_work())
        with ThreadPoolExecutor(4) as pool:
            futures = [pool.submit(numcu_work) for _ in range(4)]
            futures += [pool.submit(lambda: check_peer(peer_work())) for _ in range(4)]
            assert all(f.result(timeout=120) for f in futures)


# --------------------------------------------------------------------------------------------
# Elementwise functions: every dtype, around the split thresholds
# --------------------------------------------------------------------------------------------

UFUNCS = (
    "add subtract multiply divide floor_divide remainder power maximum fmin equal less "
    "logical_and bitwise_xor left_shift negative absolute sign sqrt exp log1p sin cos tanh "
    "arctan2 hypot isnan rint copysign"
).split()


# Loops split from a smaller size: float functions and integer division.
COSTLY_UFUNCS = set(
    "divide sqrt exp log log1p sin cos tanh arctan2 hypot rint copysign floor_divide remainder "
    "power".split()
)


# Float functions (integers run on the smallest float that holds them): a unary one splits by
# the dtype it computes in.
FLOAT_FUNCTIONS = set("sqrt exp log log1p sin cos tanh arctan2 hypot rint copysign".split())


def split_grain(name, dtype):
    """The elements a thread takes before the loop of `name` on `dtype` is split."""
    if name not in COSTLY_UFUNCS:
        return GRAIN
    loop = np.result_type(dtype, np.float16)
    if name in FLOAT_FUNCTIONS and getattr(np, name).nin == 1:
        if loop.kind == "c":
            return COMPLEX_FUNCTION
        if loop.itemsize <= 4:
            return SINGLE_FUNCTION
    return COSTLY


def ufunc_sizes(name, dtype):
    """Sizes just below and above the first split, and one split on every thread count."""
    grain = split_grain(name, dtype)
    return (2 * grain - 1, 2 * grain + 1, 7 * grain + 65)


def run_ufunc_on_threads(name, operands, **kwargs):
    expected, error = expected_or_error(name, *operands)
    if error is not None:
        pytest.skip("NumPy has no loop")
    fn = getattr(numcu, name)
    results = on_threads(lambda: fn(*operands, device="cpu", **kwargs))
    check_ufunc(name, results[0], expected, operands)
    assert_same_bits(results)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", UFUNCS)
def test_ufuncs_on_threads(rng, name, dtype):
    arity = getattr(np, name).nin
    for n in ufunc_sizes(name, dtype):
        operands = [ufunc_data(rng, name, (n,), dtype, i) for i in range(arity)]
        run_ufunc_on_threads(name, operands)


LAYOUT_DTYPES = ("float32", "float64", "int16", "uint8", "bool", "float16", "complex64")


def layouts(rng, dtype, rows, cols):
    """(label, x, y): pairs of operands of every layout the strided path meets."""
    a = random_array(rng, (rows, cols), dtype)
    b = random_array(rng, (rows, cols), dtype)
    wide = random_array(rng, (rows, 2 * cols), dtype)
    yield "strided", wide[:, ::2], b
    yield "transposed", random_array(rng, (cols, rows), dtype).T, b
    yield "row broadcast", a, random_array(rng, (cols,), dtype)
    yield (
        "column broadcast",
        random_array(rng, (rows, 1), dtype),
        random_array(rng, (1, cols), dtype),
    )
    yield "negative strides", a[::-1, ::-1], b
    yield (
        "short rows",
        random_array(rng, (rows * cols // 3, 3), dtype),
        random_array(rng, (3,), dtype),
    )
    yield "scalar", a, 3 if np.dtype(dtype).kind in "iub" else 2.5
    yield "offset", wide[:, 1 : cols + 1], wide[:, cols - 1 : 2 * cols - 1]


@pytest.mark.parametrize("dtype", LAYOUT_DTYPES)
@pytest.mark.parametrize("name", ["add", "multiply", "less", "maximum", "sin", "exp"])
def test_layouts_on_threads(rng, name, dtype):
    rows, cols = 97, (3 * GRAIN) // 97 + 7  # about 3 grains: split on 2 threads and more
    for label, x, y in layouts(rng, dtype, rows, cols):
        operands = [x] if getattr(np, name).nin == 1 else [x, y]
        try:
            run_ufunc_on_threads(name, operands)
        except AssertionError as exc:
            raise AssertionError(f"{label}: {exc}") from exc


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("name", ["sin", "exp", "log", "tanh", "arctan2", "power"])
def test_vector_math_bits_do_not_depend_on_address(rng, name, dtype):
    # The same values at another address (4 bytes on) and of another length give the same bits:
    # no element moves between the vector function and the scalar one.
    n = 3 * split_grain(name, dtype) + 13
    a = random_array(rng, (n,), dtype)
    b = random_array(rng, (n,), dtype)
    if name in ("log", "power"):
        a = np.abs(a) + 1
    shifted = np.empty(2 * n + 16, dtype)[1 : n + 1]
    shifted[...] = a
    fn = getattr(numcu, name)
    args = (a,) if fn is not numcu.arctan2 and name != "power" else (a, b)
    moved = (shifted,) + args[1:]
    with threads(2):
        whole = fn(*args, device="cpu")
        check_ufunc(name, whole, expected_or_error(name, *args)[0])
        assert np.array_equal(fn(*moved, device="cpu"), whole, equal_nan=True)
        head = fn(*(x[: n - 5] for x in args), device="cpu")
        assert np.array_equal(head, whole[: n - 5], equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "int32", "complex128", "bool"])
@pytest.mark.parametrize("name", ["where", "clip"])
def test_ternary_on_threads(rng, name, dtype):
    n = 3 * GRAIN + 5
    a, b = random_array(rng, (n,), dtype), random_array(rng, (n,), dtype)
    if name == "where":
        operands = [rng.random(n) > 0.5, a, b[::-1]]
    else:
        operands = [a, np.minimum(a, b)[::-1], np.maximum(a, b)]
    expected = getattr(np, name)(*operands)
    results = on_threads(lambda: getattr(numcu, name)(*operands, device="cpu"))
    assert_matches(results[0], expected)
    assert_same_bits(results)


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "complex64"])
def test_out_on_threads(rng, dtype):
    n = 3 * GRAIN + 11
    x, y = random_array(rng, (n,), dtype), random_array(rng, (n,), dtype)
    for count in (1, *MANY):
        out = poisoned((n,), dtype)
        with threads(count):
            assert numcu.add(x, y, out=out, device="cpu") is out
        assert_matches(out, x + y)
        inplace = x.copy()
        with threads(count):
            numcu.multiply(inplace, y, out=inplace, device="cpu")
        assert_matches(inplace, x * y)


@pytest.mark.parametrize("to", DTYPES, ids=str)
@pytest.mark.parametrize("frm", DTYPES, ids=str)
def test_casts_on_threads(rng, frm, to):
    a = random_array(rng, (2 * GRAIN + 3,), frm)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        expected = a.astype(to)
        results = on_threads(lambda: numcu.astype(a, to))
        strided = on_threads(lambda: numcu.astype(a[::-2], to))
    assert_matches(results[0], expected)
    assert_same_bits(results)
    assert_matches(strided[0], expected[::-2])
    assert_same_bits(strided)


# --------------------------------------------------------------------------------------------
# Reductions and scans: every way of splitting them
# --------------------------------------------------------------------------------------------


def long_data(rng, shape, dtype, name):
    """Data for reductions of many elements.

    Products get +-1 with a few +-2 and +-0.5 (+-1j for complex): exact in every order, and far
    from overflow and underflow, which the other suites' data reach at these sizes.
    """
    dtype = np.dtype(dtype)
    if name not in ("prod", "nanprod", "cumprod") or dtype.kind not in "fc":
        return data(rng, shape, dtype, name)
    units = np.array([1, -1, 1j, -1j] if dtype.kind == "c" else [1, -1])
    a = rng.choice(units, shape)
    if dtype != np.float16:
        scaled = rng.random(shape) < 1e-3
        a = np.where(scaled, a * rng.choice([2, 0.5], shape), a)
    return a.astype(dtype)


def run_reduction_on_threads(name, a, **kwargs):
    try:
        expected = reference(name, a, **kwargs)
    except TypeError:  # a dtype NumPy has no loop for: numcu has none either
        with pytest.raises(TypeError, match=f"numcu.{name}: "):
            getattr(numcu, name)(a, device="cpu", **kwargs)
        return
    results = on_threads(lambda: getattr(numcu, name)(a, device="cpu", **kwargs))
    check_reduction(results[0], expected, name, a)
    assert_same_bits(results)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_whole_array_on_threads(rng, name, dtype):
    # One long run: its pairwise tree is cut into subtrees for the threads.
    if name in ("var", "std") and dtype == np.float16:
        pytest.skip("NumPy's float16 sum of squares overflows at these sizes")
    for n in (2 * REDUCE - 1, 4 * REDUCE + 3):
        run_reduction_on_threads(name, long_data(rng, (n,), dtype, name))


SPLITS = {
    # many outputs, each on one thread
    "many rows": ((1500, 173), {"axis": 1}),
    "many columns": ((2000, 131), {"axis": 0}),
    # a few long outputs, each split
    "few long rows": ((3, 4 * REDUCE + 5), {"axis": 1}),
    # several runs per output, reduced by threads and folded in order
    "transposed": ((700, 800), {"transpose": True}),
    "outer axes": ((20, 3, 5000), {"axis": (0, 2)}),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint32", "complex64", "bool"])
@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmin", "any", "nanmax", "std"])
@pytest.mark.parametrize("split", SPLITS)
def test_reduction_splits_on_threads(rng, split, name, dtype):
    shape, kwargs = SPLITS[split]
    kwargs = dict(kwargs)
    a = long_data(rng, shape, dtype, name)
    if kwargs.pop("transpose", False):
        a = a.T
    if name == "argmin" and isinstance(kwargs.get("axis"), tuple):
        pytest.skip("argmin takes one axis")
    run_reduction_on_threads(name, a, **kwargs)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_long_runs_per_output_on_threads(rng, dtype):
    # Several runs per output, each long enough to be split itself.
    a = data(rng, (3, 2, 4 * REDUCE + 1), dtype, "sum")
    run_reduction_on_threads("sum", a, axis=(0, 2))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "complex64"])
@pytest.mark.parametrize("name", SCANS)
def test_scans_on_threads(rng, name, dtype):
    a = long_data(rng, (3 * REDUCE // 500, 500), dtype, name)
    for axis in (0, 1):
        run_reduction_on_threads(name, a, axis=axis)
    run_reduction_on_threads(name, a[:7].reshape(-1))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "float16", "complex128"])
def test_sequences_on_threads(dtype):
    n = 2 * GRAIN + 5
    results = on_threads(lambda: numcu.arange(n, dtype=dtype, device="cpu"))
    assert_matches(results[0], np.arange(n, dtype=dtype))
    assert_same_bits(results)
    if np.dtype(dtype).kind in "fc":
        results = on_threads(lambda: numcu.linspace(-3, 7, n, dtype=dtype, device="cpu"))
        assert_matches(results[0], np.linspace(-3, 7, n, dtype=dtype))
        assert_same_bits(results)


def test_python_threads_each_splitting(rng):
    n = 4 * GRAIN + 9
    arrays = [random_array(rng, (n,), "float32") for _ in range(4)]
    expected = [(x + x, np.sin(x), np.sum(x)) for x in arrays]

    def work(i):
        x = arrays[i]
        for _ in range(5):
            assert_matches(numcu.add(x, x, device="cpu"), expected[i][0])
            check_ufunc("sin", numcu.sin(x, device="cpu"), expected[i][1])
            check_reduction(numcu.sum(x, device="cpu"), expected[i][2], "sum", x)
        return True

    with threads(3), ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, range(4)))
