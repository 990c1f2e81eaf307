"""The GPU reduction kernel's layouts, each reached on purpose and compared with NumPy.

One kernel serves every reduction; per call it chooses how a block's threads split the work
(see cuda/src/reduce_layout.hpp). These tests pick shapes that select each choice:
- lanes along the reduced elements (they are the innermost): whole arrays and rows, in 16-byte
  vectors when contiguous (any start: rows that begin off a 16-byte boundary) or one element at
  a time (strided, or too short);
- lanes across the reduced elements (outputs innermost): columns read one output at a time or
  several neighbouring outputs in one vector, with one lane per output or several;
- several blocks per output whose partial results the last block to finish combines: whole
  arrays, a few long rows, a few long columns; and the same bits every run;
- reduced dimensions that do not merge (reduced offsets computed per element);
- every reducer on each of these;
- the tuning knobs (NUMCU_REDUCE_TUNING) pushed to their ends in a child process, which sends
  many more shapes through the several-blocks pass and the unvectorised paths;
- scratch kept per stream: numcu's own streams, several at once, and a stream destroyed right
  after its work is queued.
All tests need a GPU.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import import_or_skip, random_array
from test_reductions import REDUCTIONS, check, data, reference

import numcu

pytestmark = pytest.mark.gpu

# The dtypes whose vector widths differ: 1, 2, 4, 8 and 16-byte elements, and the float16
# and bool special cases.
PATH_DTYPES = ("bool", "int8", "float16", "int32", "float32", "float64", "complex128")


def run(name, a, **kwargs):
    """numcu's `name` on a device copy of `a` (a NumPy array or view), checked against NumPy."""
    expected = reference(name, a, **kwargs)
    result = getattr(numcu, name)(numcu.asarray(a), **kwargs)
    check(result.get(), expected, name, a, scalar_ok=False)


def device_view(a, offset):
    """A device view of a[offset:] whose start is `offset` elements past an allocation's."""
    return numcu.asarray(a)[offset:]


# --------------------------------------------------------------------------------------------
# Whole arrays: one block, several blocks and the last-block pass, misaligned starts
# --------------------------------------------------------------------------------------------

WHOLE_SIZES = (1, 5, 31, 33, 1000, 1 << 14, (1 << 16) + 3, (1 << 20) + 7, 3 * (1 << 20) + 1)


@pytest.mark.parametrize("offset", [0, 1, 3])
@pytest.mark.parametrize("n", WHOLE_SIZES)
@pytest.mark.parametrize("dtype", PATH_DTYPES)
def test_whole_sum_max_argmax(rng, dtype, n, offset):
    for name in ("sum", "max", "argmax"):
        a = data(rng, (n + offset,), dtype, name)
        expected = reference(name, a[offset:])
        result = getattr(numcu, name)(device_view(a, offset))
        check(result.get(), expected, name, a[offset:], scalar_ok=False)


@pytest.mark.parametrize("n", [7, (1 << 16) + 3, 3 * (1 << 20) + 1])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_whole_every_reducer(rng, name, n):
    for dtype in ("float32", "int16", "complex64"):
        a = data(rng, (n + 1,), dtype, name)
        expected = reference(name, a[1:])
        result = getattr(numcu, name)(device_view(a, 1))
        check(result.get(), expected, name, a[1:], scalar_ok=False)


def test_whole_strided():
    # Every other element: lanes along the reduced elements, one element at a time.
    rng = np.random.default_rng(7)
    a = random_array(rng, (2 * ((1 << 18) + 5),), "float32")
    for name in ("sum", "min", "argmin", "nanmean"):
        run(name, a[::2])
        run(name, a[::-3])


# --------------------------------------------------------------------------------------------
# Rows: the reduced elements innermost
# --------------------------------------------------------------------------------------------

ROW_SHAPES = (
    (3, 5),  # short rows: fewer lanes than a warp, several rows a warp
    (100, 37),
    (13, 1001),  # odd length: each row starts at another 16-byte alignment
    (64, 1000),
    (4096, 33),
    (2, 300_001),  # few long rows: several blocks per row
    (17, 1 << 18),
)


@pytest.mark.parametrize("shape", ROW_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", PATH_DTYPES)
def test_rows(rng, dtype, shape):
    for name in ("sum", "min", "argmax", "any"):
        a = data(rng, shape, dtype, name)
        run(name, a, axis=-1)


@pytest.mark.parametrize("shape", [(5, 37), (13, 1001), (3, 200_003)], ids=str)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_rows_every_reducer(rng, name, shape):
    for dtype in ("float32", "uint8", "complex128"):
        a = data(rng, shape, dtype, name)
        run(name, a, axis=-1)


def test_rows_of_a_column_slice(rng):
    # Rows of a sliced array: row starts a stride apart that is not a multiple of 16 bytes.
    a = random_array(rng, (300, 1003), "float32")
    for name in ("sum", "max", "argmin", "mean"):
        run(name, a[:, 2:], axis=1)
        run(name, a[1:, 1:999], axis=-1)


# --------------------------------------------------------------------------------------------
# Columns: the outputs innermost
# --------------------------------------------------------------------------------------------

COLUMN_SHAPES = (
    (5, 7),
    (1000, 64),  # neighbouring outputs read as one vector
    (1000, 63),  # not a whole number of vectors: one output a slot
    (100_000, 8),  # few outputs: several blocks per output
    (3, 100_000),  # short columns: one lane per output
    (1 << 12, 1 << 10),
)


@pytest.mark.parametrize("shape", COLUMN_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", PATH_DTYPES)
def test_columns(rng, dtype, shape):
    for name in ("sum", "max", "argmin", "all"):
        a = data(rng, shape, dtype, name)
        run(name, a, axis=0)


@pytest.mark.parametrize("shape", [(9, 40), (1000, 64), (50_000, 12)], ids=str)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_columns_every_reducer(rng, name, shape):
    for dtype in ("float32", "int8", "complex64"):
        a = data(rng, shape, dtype, name)
        run(name, a, axis=0)


def test_columns_misaligned_and_transposed(rng):
    a = random_array(rng, (2000, 129), "float32")
    for name in ("sum", "argmax", "nanmax", "var"):
        run(name, a[:, 1:], axis=0)  # vectors of outputs would start off their alignment
        run(name, a[:, 1:].T, axis=1)  # the same reduction through a transposed view
        run(name, a[::-1], axis=0)  # negative stride along the reduced axis


# --------------------------------------------------------------------------------------------
# Reduced dimensions that do not merge, and the axis forms between rows and columns
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape, axis",
    [((6, 5, 7), (0, 2)), ((40, 3, 1000), (0, 2)), ((64, 70, 9), (0, 2)), ((8, 9, 10, 11), (1, 3))],
    ids=str,
)
@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_unmerged_reduced_dimensions(rng, dtype, shape, axis):
    for name in ("sum", "max", "mean", "var"):
        a = data(rng, shape, dtype, name)
        if name == "var" and dtype == "float16" and a.size > 1024:
            # NumPy sums float16 squares in float16, which overflows past about 1000 elements;
            # numcu accumulates in float32 and rounds the result, as NumPy does for float32.
            expected = np.var(a.astype(np.float32), axis=axis).astype(np.float16)
            result = numcu.var(numcu.asarray(a), axis=axis)
            check(result.get(), expected, name, a, scalar_ok=False)
            continue
        run(name, a, axis=axis)


# --------------------------------------------------------------------------------------------
# Determinism and ties across blocks
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape, axis", [((3 * (1 << 20) + 1,), None), ((100_000, 8), 0), ((3, 300_001), 1)], ids=str
)
def test_same_bits_every_run(rng, shape, axis):
    a = random_array(rng, shape, "float32")
    x = numcu.asarray(a)
    first = numcu.sum(x, axis=axis).get().tobytes()
    for _ in range(20):
        assert numcu.sum(x, axis=axis).get().tobytes() == first


@pytest.mark.parametrize("dtype", ["float32", "int8", "float64"])
def test_ties_and_nans_in_rows_and_columns(rng, dtype):
    a = rng.integers(0, 3, (5, 200_001)).astype(dtype)  # every value repeats: the first wins
    for name in ("argmax", "argmin"):
        run(name, a, axis=1)
        run(name, np.ascontiguousarray(a.T), axis=0)
    if np.dtype(dtype).kind == "f":
        a[:, [150_000, 70_001, 190_000]] = np.nan  # the first NaN wins
        for name in ("argmax", "argmin", "max", "min"):
            run(name, a, axis=1)
            run(name, np.ascontiguousarray(a.T), axis=0)


# --------------------------------------------------------------------------------------------
# The tuning knobs at their ends, in a child process (they are read once per process)
# --------------------------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import numpy as np
    import numcu
    rng = np.random.default_rng(3)
    cases = [((1 << 20) + 3,), (5, 1001), (1001, 5), (3, 7, 2000), (70_000, 6), (6, 70_000)]
    bad = []
    for shape in cases:
        a = (rng.standard_normal(shape) * 4).astype(np.float32)
        for axis in [None, 0, -1]:
            for name in ["sum", "max", "argmin", "mean", "nanmin", "count_nonzero"]:
                got = getattr(numcu, name)(numcu.asarray(a), axis=axis).get()
                want = getattr(np, name)(a, axis=axis)
                if not np.allclose(got, want, rtol=1e-4, atol=0.05):
                    bad.append((shape, axis, name))
    print("BAD", bad)
    """
)

TUNINGS = (
    "threads=32,min_values=1,row_lanes=1",
    "threads=64,threads_per_sm=100000,min_values=1,vector_in=0,vector_out=0",
    "threads=512,threads_per_sm=64,min_values=1000000",
    "row_threads=512,row_lanes=512,min_values=2",
    "row_threads=32,row_lanes=512,min_values=1",
)


@pytest.mark.parametrize("tuning", TUNINGS)
def test_tuning_extremes(tuning):
    env = dict(os.environ, NUMCU_REDUCE_TUNING=tuning)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "BAD []" in done.stdout, done.stdout


@pytest.mark.parametrize("bad", ["threads=48", "row_threads=1024"])
def test_bad_tuning_is_an_error(bad):
    env = dict(os.environ, NUMCU_REDUCE_TUNING=bad)
    code = "import numcu, numpy as np; numcu.sum(numcu.asarray(np.ones(10)))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode != 0
    assert "NUMCU_REDUCE_TUNING" in done.stderr and bad in done.stderr


# --------------------------------------------------------------------------------------------
# Scratch kept per stream
# --------------------------------------------------------------------------------------------


def test_streams_each_keep_their_scratch(rng):
    a = random_array(rng, (3 * (1 << 20) + 1,), "float32")
    cols = random_array(rng, (100_000, 8), "float64")
    x, y = numcu.asarray(a), numcu.asarray(cols)
    numcu.cuda.synchronize()
    streams = [numcu.cuda.Stream(non_blocking=True) for _ in range(4)]
    results = []
    for _ in range(5):
        for s in streams:
            results.append((numcu.sum(x, stream=s), numcu.argmax(y, axis=0, stream=s)))
    for s in streams:
        s.synchronize()
    total = reference("sum", a)
    for total_got, arg_got in results:
        check(total_got.get(), total, "sum", a, scalar_ok=False)
        np.testing.assert_array_equal(arg_got.get(), np.argmax(cols, axis=0))


def test_stream_destroyed_after_queueing(rng):
    a = random_array(rng, (3 * (1 << 20) + 1,), "float32")
    x = numcu.asarray(a)
    for _ in range(3):
        s = numcu.cuda.Stream(non_blocking=True)
        result = numcu.max(x, stream=s)
        del s  # its scratch is returned in stream order, after the reduction
        np.testing.assert_array_equal(result.get(), np.max(a))


def test_foreign_stream(rng):
    cupy = import_or_skip("cupy")
    a = random_array(rng, (3 * (1 << 20) + 1,), "float32")
    x = numcu.asarray(a)
    s = cupy.cuda.Stream(non_blocking=True)
    # CuPy's stream object, not its address as a bare integer: the driver may have made it where
    # a numcu stream of an earlier test was destroyed, and numcu refuses a bare integer there.
    results = [numcu.sum(x, stream=s) for _ in range(5)]
    s.synchronize()
    for r in results:
        check(r.get(), reference("sum", a), "sum", a, scalar_ok=False)


# --------------------------------------------------------------------------------------------
# Scans of one long contiguous line: CUB's scan on the accumulator type, after a conversion
# for the other input types
# --------------------------------------------------------------------------------------------

SCAN_DTYPES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)


@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("dtype", SCAN_DTYPES)
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_long_line_scans(rng, name, dtype, offset):
    # Long enough for CUB's scan (more than 256 elements); NumPy accumulates float16 in
    # float16 and numcu in float32, which drift apart over many terms, and float products of
    # many terms leave the range.
    n = 20_011
    if dtype == "float16":
        n = 300
    elif name == "cumprod" and np.dtype(dtype).kind in "fc":
        n = 2000
    a = data(rng, (n + offset,), dtype, name)
    expected = reference(name, a[offset:])
    result = getattr(numcu, name)(device_view(a, offset))
    check(result.get(), expected, name, a[offset:], scalar_ok=False)


@pytest.mark.parametrize("dtype", ["float16", "int32", "float32"])
def test_long_line_scan_in_place(rng, dtype):
    a = data(rng, (300 if dtype == "float16" else 5000,), dtype, "cumsum")
    x = numcu.asarray(a)
    expected = reference("cumsum", a)
    if np.dtype(dtype) == np.int32:
        expected = expected.astype(np.int32)  # written back into int32 (same_kind wraps)
    numcu.cumsum(x, out=x)
    check(x.get(), expected, "cumsum", a, scalar_ok=False)
