"""Assignment through index arrays: ``x[mask] = values`` and ``x[i, j] = values`` on numcu arrays.

Specification (NumPy's semantics, numcu.ndarray.__setitem__):
- a boolean mask (alone, or followed by '...') over x's leading dimensions takes a scalar, an
  array broadcasting to the selected block (count, *rest) with 1 for the count, or one value
  per selected element (``x[mask] = y[mask]``); values are cast to x's dtype;
- integer arrays, integers, full slices and '...' together (adjacent index arrays or not, as in
  ``x[key]``) take values broadcasting to ``x[key]``'s shape;
- x may be any view (strided, reversed, transposed, offset): the base array changes there
  only; values may be numcu arrays (overlapping x too), NumPy arrays, lists or scalars;
- errors: a mask of the wrong shape is an IndexError, values that do not fit a ValueError
  naming the shapes (or counts), a Python integer x's dtype cannot hold an OverflowError,
  non-integer index arrays and out-of-bounds host indices IndexError;
- the host waits for nothing, except for a mask with one value per element, whose count it
  needs (one small copy).

Backends: "numcu" assigns into device arrays (gpu). "cpu" runs the same composition
(numcu._array_api.setitem) on NumPy arrays with numcu's CPU kernels, so that CI checks its
logic; NumPy's own assignment on the same fresh random data is the oracle throughout.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, gpu_param, random_array
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numcu
from numcu import _array_api

BACKENDS = ["cpu", gpu_param("numcu")]
DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex128]

# Views of a (6, 8, 5) array: the assignment's target.
VIEWS = {
    "whole": lambda x: x,
    "strided": lambda x: x[::2, 1::2],
    "reversed": lambda x: x[::-1, :, ::-1],
    "transposed": lambda x: x.transpose((2, 0, 1)),
    "offset": lambda x: x[1:, 2:7],
}


def device(a, backend):
    if backend == "cpu":
        return a
    d = numcu.asarray(a)
    assert isinstance(d, numcu.ndarray)
    return d


def assign(backend, target, key, value):
    if backend == "cpu":
        _array_api.setitem(target, key, value)
    else:
        target[key] = value


def host(x):
    return x.get() if isinstance(x, numcu.ndarray) else x


def values_as(kind, v, backend):
    """The values as a numcu array, a NumPy array, a list or (0-d) a scalar."""
    if kind == "numcu":
        return device(v, backend)
    if kind == "list":
        return v.tolist()
    if kind == "scalar":
        return v.reshape(-1)[0].item()
    return v


def check(rng, backend, dtype, view, key_of, value_shape_of, kind):
    base = random_array(rng, (6, 8, 5), dtype)
    expected = base.copy()
    target_np = VIEWS[view](expected)
    key = key_of(rng, target_np)
    shape = value_shape_of(target_np, key)
    v = random_array(rng, shape, dtype)
    target_np[key] = v
    d = device(base, backend)
    assign(backend, VIEWS[view](d), key, values_as(kind, v, backend))
    assert_matches(host(d), expected)


def random_mask(rng, shape):
    m = rng.random(shape) < 0.4
    m.reshape(-1)[0] = True
    return m


MASKS = {
    "full": lambda rng, t: random_mask(rng, t.shape),
    "leading": lambda rng, t: random_mask(rng, t.shape[:1]),
    "two_leading": lambda rng, t: random_mask(rng, t.shape[:2]),
    "leading_ellipsis": lambda rng, t: (random_mask(rng, t.shape[:1]), Ellipsis),
}


def count(key):
    mask = key[0] if isinstance(key, tuple) else key
    return int(np.count_nonzero(mask))


def block(t, key):
    mask = key[0] if isinstance(key, tuple) else key
    return t.shape[mask.ndim :]


MASK_VALUES = {
    "per_element": lambda t, key: (count(key), *block(t, key)),
    "broadcast_row": lambda t, key: block(t, key),
    "one": lambda t, key: (1, *block(t, key)),
    "last_axis": lambda t, key: block(t, key)[-1:],
    "scalar": lambda t, key: (),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("values", MASK_VALUES)
def test_mask_assignment(rng, backend, dtype, mask, values):
    check(rng, backend, dtype, "whole", MASKS[mask], MASK_VALUES[values], "numcu")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("kind", ["numcu", "numpy", "list", "scalar"])
def test_mask_assignment_into_views(rng, backend, view, kind):
    values = "scalar" if kind == "scalar" else "per_element"
    check(rng, backend, np.float32, view, MASKS["full"], MASK_VALUES[values], kind)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mask_assignment_from_the_same_array(rng, backend):
    """x[mask] = y[mask] and x[mask] = x[::-1][mask]: values read before any is written."""
    a = random_array(rng, (40,), np.float64)
    b = random_array(rng, (40,), np.float64)
    m = random_mask(rng, (40,))
    d, e, dm = device(a.copy(), backend), device(b, backend), device(m, backend)
    assign(backend, d, dm, e[dm] if backend == "numcu" else e[m])
    expected = a.copy()
    expected[m] = b[m]
    assert_matches(host(d), expected)
    flipped = d[::-1]
    assign(backend, d, dm, flipped[dm] if backend == "numcu" else flipped[m])
    expected[m] = expected[::-1][m]
    assert_matches(host(d), expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mask_edge_cases(rng, backend):
    a = random_array(rng, (4, 3), np.int32)
    for mask, value in (
        (np.zeros((4, 3), bool), np.zeros((0,), np.int32)),  # nothing selected
        (np.zeros(4, bool), 5),
        (np.array(True), 9),  # a 0-d mask: x[True] = v is x[None][[True]] = v
        (np.array(False), 9),
        (np.ones((4, 3), bool), random_array(rng, (12,), np.int32)),
    ):
        expected = a.copy()
        expected[mask] = value
        d = device(a.copy(), backend)
        assign(backend, d, mask, value)
        assert_matches(host(d), expected)


# Integer-array keys of a (6, 8, 5) target, as functions of rng.
def idx(rng, n, shape):
    return rng.integers(-n, n, shape)


INDEX_KEYS = {
    "first": lambda rng, t: idx(rng, t.shape[0], (4,)),
    "first_2d": lambda rng, t: idx(rng, t.shape[0], (2, 3)),
    "middle": lambda rng, t: (slice(None), idx(rng, t.shape[1], (3,))),
    "two_adjacent": lambda rng, t: (
        slice(None),
        idx(rng, t.shape[1], (3,)),
        idx(rng, t.shape[2], (1,)),
    ),
    "two_apart": lambda rng, t: (
        idx(rng, t.shape[0], (2, 1)),
        slice(None),
        idx(rng, t.shape[2], (3,)),
    ),
    "int_and_array": lambda rng, t: (1, slice(None), idx(rng, t.shape[2], (4,))),
    "ellipsis": lambda rng, t: (Ellipsis, idx(rng, t.shape[2], (2,))),
    "list": lambda rng, t: [0, 2, -1],
    "all_three": lambda rng, t: tuple(idx(rng, n, (5,)) for n in t.shape),
}


def result_shape(t, key):
    return t[key].shape


INDEX_VALUES = {
    "full": result_shape,
    "last_axis": lambda t, key: result_shape(t, key)[-1:],
    "scalar": lambda t, key: (),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("key", INDEX_KEYS)
@pytest.mark.parametrize("values", INDEX_VALUES)
def test_integer_array_assignment(rng, backend, dtype, key, values):
    def distinct(rng, t):
        # Draw until the positions are distinct (NumPy's last-wins is not the GPU's rule).
        for _ in range(200):
            k = INDEX_KEYS[key](rng, t)
            flat = np.arange(t.size).reshape(t.shape)[k]
            if np.unique(flat).size == flat.size:
                return k
        raise AssertionError("no distinct key drawn")

    check(rng, backend, dtype, "whole", distinct, INDEX_VALUES[values], "numcu")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("kind", ["numcu", "numpy", "list", "scalar"])
def test_integer_array_assignment_into_views(rng, backend, view, kind):
    def key_of(rng, t):
        return (rng.permutation(t.shape[0])[:3], slice(None), rng.permutation(t.shape[2])[:1])

    values = INDEX_VALUES["scalar" if kind == "scalar" else "full"]
    check(rng, backend, np.float64, view, key_of, values, kind)


@pytest.mark.parametrize("backend", BACKENDS)
def test_repeated_positions_write_one_of_their_values(rng, backend):
    a = random_array(rng, (5,), np.float64)
    d = device(a.copy(), backend)
    v = random_array(rng, (4,), np.float64)
    assign(backend, d, np.array([1, 3, 1, 1]), v)
    got = host(d)
    assert got[1] in (v[0], v[2], v[3])
    assert got[3] == v[1] and np.array_equal(got[[0, 2, 4]], a[[0, 2, 4]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_assignment_errors(rng, backend):
    a = random_array(rng, (4, 3), np.uint8)
    d = device(a.copy(), backend)
    m = random_mask(rng, (4, 3))
    with pytest.raises(IndexError, match="boolean index of shape"):
        assign(backend, d, np.ones((3,), bool), 1)
    with pytest.raises(ValueError, match=r"cannot assign 2 values to the \d+ elements"):
        assign(backend, d, m, np.ones(2, np.uint8))
    with pytest.raises(ValueError, match="could not be broadcast"):
        assign(backend, d, np.ones(4, bool), np.ones((4, 2), np.uint8))
    with pytest.raises(ValueError, match="could not be broadcast"):
        assign(backend, d, np.array([0, 1]), np.ones((3, 3), np.uint8))
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for uint8"):
        assign(backend, d, np.array([0, 1]), 300)
    with pytest.raises(IndexError, match="out of bounds"):
        assign(backend, d, np.array([0, 4]), 1)
    with pytest.raises(IndexError, match="integers"):
        assign(backend, d, np.array([0.0, 1.0]), 1)
    with pytest.raises(IndexError, match="the only index"):
        assign(backend, d, (np.ones(4, bool), np.array([0])), 1)
    with pytest.raises(IndexError, match="too many indices"):
        assign(backend, d, (np.array([0]), 0, 0), 1)
    assert_matches(host(d), a)  # nothing written by a refused assignment


@pytest.mark.gpu
def test_assignment_does_not_wait_for_the_gpu(rng):
    """Integer-array assignment and a mask with one value for all return while the GPU is busy
    (test_no_sync.py's method)."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    x = numcu.asarray(random_array(rng, (1000,), np.float64))
    idx = numcu.asarray(rng.permutation(1000)[:100])
    vals = numcu.asarray(random_array(rng, (100,), np.float64))
    mask = numcu.asarray(rng.random(1000) < 0.5)
    one = numcu.asarray(np.float64(1.5))  # made here: a copy from pageable memory would wait
    stream = torch.cuda.Stream()
    with numcu.cuda.Stream(ptr=stream.cuda_stream):
        x[idx] = vals  # kernels loaded outside the measured window
        x[mask] = 2.5
        numcu.cuda.synchronize()
        stream.synchronize()
        with torch.cuda.stream(stream):
            torch.cuda._sleep(2_000_000_000)
        x[idx] = vals
        x[mask] = 2.5
        x[mask] = one
        busy = not stream.query()
    stream.synchronize()
    assert busy, "an assignment waited for the GPU's earlier work"


# --------------------------------------------------------------------------------------------
# Property-based: random shapes, keys and values against NumPy's assignment


@pytest.mark.parametrize("backend", BACKENDS)
@given(data=st.data())
def test_assignment_matches_numpy(backend, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=5))
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    base = random_array(rng, shape, dtype)
    if data.draw(st.booleans(), label="mask"):
        k = data.draw(st.integers(1, len(shape)), label="mask_dims")
        key = rng.random(shape[:k]) < data.draw(st.floats(0, 1), label="density")
        if data.draw(st.booleans(), label="ellipsis"):
            key = (key, Ellipsis)
    else:
        axes = data.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1), label="axes")
        index_shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, max_side=4))
        assume(all(shape[a] > 0 for a in axes))
        key = tuple(
            rng.integers(-shape[d], shape[d], index_shape) if d in axes else slice(None)
            for d in range(len(shape))
        )
        positions = np.arange(base.size).reshape(shape)[key]
        assume(np.unique(positions).size == positions.size)  # the GPU's rule for repeats
    target = base[key].shape
    # Values that broadcast to the target: a suffix of its shape, some extents 1.
    kept = target[len(target) - data.draw(st.integers(0, len(target)), label="value_dims") :]
    value_shape = tuple(n if data.draw(st.booleans()) else 1 for n in kept)
    value = random_array(rng, value_shape, dtype)
    expected = base.copy()
    expected[key] = value
    d = device(base.copy(), backend)
    assign(backend, d, key, device(value, backend))
    assert_matches(host(d), expected)
