"""Property-based differential tests: numcu against NumPy on shapes, layouts and dtypes drawn
at random by Hypothesis.

Specification, with NumPy as the oracle: for any
- shape from 0-d to 6-d, zero-size dimensions included, and wide 1-D and 2-D shapes;
- layout: C-contiguous, strided and offset slices of a larger buffer, negative steps,
  transposes, broadcast (stride 0) views, and all of these at once;
- dtype and pair of dtypes of the 14 (DTYPE_NAMES), arrays, 0-d arrays and Python scalars;
- representative ufuncs (arithmetic including divide, floor_divide and power, comparisons,
  logical and bitwise, unary math), where and clip, reductions over random axes with keepdims,
  dtype= and out=, scans, casts (astype, asarray's dtype=), basic indexing and item assignment;
- `out=` of any writable layout and any same-kind dtype, poisoned first, and `out=` that
  overlaps the inputs;
numcu gives NumPy's values, dtype and shape (or NumPy's exception type, with a message that
names the numcu function), writes nothing outside `out`, and leaves its inputs alone.

Backends: "cpu" always; with a GPU also "cuda" (host operands, device="cuda") and "numcu"
(device arrays: numcu's own views, or bare ``__cuda_array_interface__`` views of numcu memory
for layouts numcu cannot make, such as stride 0).

How many examples each test runs is set by the Hypothesis profile (conftest.py;
NUMCU_HYPOTHESIS_PROFILE=ci|gpu); the run ends with a line counting the examples executed.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")

import test_reductions as red  # noqa: E402
import test_ufuncs as uf  # noqa: E402
from conftest import (  # noqa: E402
    BACKENDS,
    DTYPES,
    TOLERANCES,
    CAIArray,
    assert_matches,
    poisoned,
    quiet,
    random_array,
)
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

import numcu  # noqa: E402

# --------------------------------------------------------------------------------------------
# Counting the examples that ran (conftest's terminal summary adds them up, across xdist workers)
# --------------------------------------------------------------------------------------------

EXAMPLES = [0]


def counted(test):
    """Counts the examples of `test` that ran to the end (Hypothesis's own count also has the
    ones it abandoned while drawing)."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        test(*args, **kwargs)
        EXAMPLES[0] += 1

    return run


@pytest.fixture(autouse=True)
def _count_examples(request):
    before = EXAMPLES[0]
    yield
    request.node.user_properties.append(("hypothesis_examples", EXAMPLES[0] - before))


# --------------------------------------------------------------------------------------------
# Shapes, layouts and values
# --------------------------------------------------------------------------------------------

# Shapes of results: 0-d to 6-d with zero-size dimensions, or wide enough in one or two
# dimensions for the GPU's vectorised and tiled paths.
RESULT_SHAPES = st.one_of(
    hnp.array_shapes(min_dims=0, max_dims=6, min_side=0, max_side=4),
    hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=150),
)
SEEDS = st.integers(0, 2**32 - 1)
DTYPE_ST = st.sampled_from(DTYPES)
LAYOUT_KINDS = ("contiguous", "strided", "reversed", "transposed", "offset", "broadcast", "mixed")
OUT_LAYOUT_KINDS = tuple(k for k in LAYOUT_KINDS if k != "broadcast")


@st.composite
def operand_shapes(draw, result_shape):
    """A shape that broadcasts to `result_shape`: leading dimensions dropped, some set to 1."""
    n = len(result_shape)
    drop = draw(st.integers(0, n))
    ones = draw(st.integers(0, 2 ** (n - drop) - 1)) if n > drop else 0
    return tuple(1 if ones >> k & 1 else e for k, e in enumerate(result_shape[drop:]))


class Layout:
    """How a view of `shape` is cut from a C-contiguous parent buffer.

    The view is ``parent[key]``, broadcast along the `zero` dimensions (stride 0), then
    transposed by `perm`. Several layouts of one shape can share a parent (`parent_shape`),
    which is how overlapping operands are made. The key, applied to a numcu.ndarray, makes
    the same view on the device; broadcast views go through a bare CAI object instead.
    """

    def __init__(self, shape, perm, steps, offsets, zero, lead):
        self.shape = tuple(shape)
        self.perm = tuple(perm)
        # The dimensions before the transpose: physical[perm[i]] is shape[i].
        self.physical = tuple(shape[self.perm.index(k)] for k in range(len(shape)))
        self.steps, self.offsets, self.zero, self.lead = steps, offsets, zero, lead

    @classmethod
    def draw(cls, rng, shape, kind, writable=False):
        """A layout of `kind` (LAYOUT_KINDS), its details from `rng`; no stride 0 if `writable`."""
        n = len(shape)
        perm, steps, offsets, zero, lead = list(range(n)), [1] * n, [0] * n, [False] * n, None
        mixed = kind == "mixed"
        if kind == "transposed" or (mixed and rng.random() < 0.5):
            perm = [int(k) for k in rng.permutation(n)]
            if kind == "transposed" and n >= 2 and perm == sorted(perm):
                perm = perm[::-1]
        if kind == "strided" or mixed:
            steps = [int(rng.choice([1, 2, 3])) for _ in range(n)]
        if kind in ("strided", "offset") or mixed:
            offsets = [int(o) for o in rng.integers(0, 3, n)]
        if kind == "reversed" or mixed:
            flip = rng.random(n) < 0.6
            if kind == "reversed" and n:
                flip[rng.integers(n)] = True
            steps = [-s if f else s for s, f in zip(steps, flip)]
        if kind == "offset" or (mixed and rng.random() < 0.5):
            lead = int(rng.integers(0, 3))
        if not writable and (kind == "broadcast" or (mixed and rng.random() < 0.3)):
            zero = [bool(z) for z in rng.random(n) < 0.5]
        return cls(shape, perm, steps, offsets, zero, lead)

    def need(self):
        """The parent extent each physical dimension needs (leading dimension first)."""
        dims = []
        for e, step, offset, zero in zip(self.physical, self.steps, self.offsets, self.zero):
            if zero:
                dims.append(offset + 1)
            else:
                dims.append(offset + (abs(step) * (e - 1) + 1 if e else 0))
        return ((self.lead or 0) + 1, *dims)

    def key(self, parent_shape):
        """The parent's index (ending in '...', so that a 0-d view stays a view)."""
        key = [self.lead or 0]
        for k, (e, step, offset, zero) in enumerate(
            zip(self.physical, self.steps, self.offsets, self.zero)
        ):
            extent = parent_shape[k + 1]
            if zero:
                key.append(slice(offset, offset + 1))
            elif e == 0:
                key.append(slice(0, 0, step))
            elif step > 0:
                key.append(slice(offset, offset + step * e, step))
            else:
                start = extent - 1 - offset
                stop = start + step * e
                key.append(slice(start, stop if stop >= 0 else None, step))
        return (*key, Ellipsis)

    def numpy_view(self, parent):
        v = parent[self.key(parent.shape)]
        if any(self.zero):
            v = np.broadcast_to(v, self.physical)
        return v.transpose(self.perm)

    def device_view(self, device_parent, parent, through_cai=False):
        if through_cai or any(self.zero):
            return CAIArray.view_of(device_parent, parent, self.numpy_view(parent))
        return device_parent[self.key(parent.shape)].transpose(self.perm)

    def covered(self, parent_shape):
        """A mask of the parent elements the view reaches."""
        index = np.arange(int(np.prod(parent_shape))).reshape(parent_shape)
        mask = np.zeros(parent_shape, bool)
        mask.reshape(-1)[self.numpy_view(index).reshape(-1)] = True
        return mask

    def __repr__(self):
        return (
            f"Layout(shape={self.shape}, perm={self.perm}, steps={self.steps}, "
            f"offsets={self.offsets}, zero={self.zero}, lead={self.lead})"
        )


def parent_shape(rng, layouts):
    """The smallest parent all `layouts` fit in, with a little slack at the ends."""
    needs = np.max([layout.need() for layout in layouts], axis=0)
    return tuple(int(n + rng.integers(0, 2)) for n in needs)


class Operand:
    """One input: a Python scalar, or a host array (any layout) with its device twin."""

    def __init__(self, value, layout=None, parent=None):
        self.value = value  # what NumPy gets
        self.layout = layout
        self.parent = parent

    def on(self, backend, through_cai=False):
        if backend != "numcu" or not isinstance(self.value, np.ndarray):
            return self.value
        if self.layout is None:  # 0-d
            return numcu.asarray(self.value)
        return self.layout.device_view(numcu.asarray(self.parent), self.parent, through_cai)


def draw_operand(data, rng, result_shape, make_values, scalars=True):
    """An operand that broadcasts to `result_shape`: values from make_values(shape)."""
    kind = data.draw(st.sampled_from(("array", "0d", "python") if scalars else ("array",)))
    if kind == "python":
        return Operand(make_values(()).item())
    if kind == "0d":
        return Operand(make_values(()))
    shape = data.draw(operand_shapes(result_shape))
    layout = Layout.draw(rng, shape, data.draw(st.sampled_from(LAYOUT_KINDS)))
    parent = make_values(parent_shape(rng, [layout]))
    return Operand(layout.numpy_view(parent), layout, parent)


class Out:
    """A poisoned `out` of any writable layout, on the host and (numcu backend) the device."""

    def __init__(self, data, rng, shape, dtype, expected=None):
        kind = data.draw(st.sampled_from(OUT_LAYOUT_KINDS))
        self.layout = Layout.draw(rng, shape, kind, writable=True)
        self.parent = poisoned(parent_shape(rng, [self.layout]), dtype)
        if dtype.kind == "b" and expected is not None:
            self.layout.numpy_view(self.parent)[...] = np.logical_not(expected)
        self.through_cai = data.draw(st.booleans())

    def make(self, backend):
        """(the out argument for `backend`, a function reading its parent back)."""
        if backend == "numcu":
            device_parent = numcu.asarray(self.parent)
            view = self.layout.device_view(device_parent, self.parent, self.through_cai)
            return view, device_parent.get
        host = self.parent.copy()
        return self.layout.numpy_view(host), lambda: host

    def check(self, parent_after, expected_view, compare):
        """`compare` the view with NumPy's; everything outside it is as poisoned."""
        compare(self.layout.numpy_view(parent_after), expected_view)
        outside = ~self.layout.covered(self.parent.shape)
        np.testing.assert_array_equal(
            parent_after[outside], self.parent[outside], err_msg="written outside out"
        )


def call_numcu(fn, backend, args, **kwargs):
    if backend != "numcu":
        kwargs["device"] = backend
    return fn(*args, **kwargs)


def to_host(result, backend, scalar_0d=True):
    """A numcu result as NumPy data: device arrays copied back (0-d ones as NumPy scalars, unless
    not `scalar_0d`: where's 0-d result is an array, as NumPy's)."""
    if isinstance(result, numcu.ndarray):
        host = result.get()
        return host[()] if host.ndim == 0 and scalar_0d else host
    return result


def numpy_or_error(fn, *args, **kwargs):
    """NumPy's result, or the exception NumPy raises (TypeError: no loop; OverflowError: a
    Python int the dtype cannot hold; ValueError: a negative integer power ...)."""
    with quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kwargs), None
        except (TypeError, ValueError, OverflowError) as exc:
            return None, exc


def assert_same_error(error, call):
    """`call` raises what NumPy raised (its builtin type: NumPy's own are subclasses), with a
    message that names the numcu function."""
    kind = next(t for t in (OverflowError, TypeError, ValueError) if isinstance(error, t))
    with pytest.raises(kind, match=r"numcu\."):
        call()


def same_kind_targets(dtype):
    return [d for d in DTYPES if np.can_cast(dtype, d, "same_kind")]


# NumPy 2 lets a Python int outside an integer array's range through where (wrapped to the
# dtype) and clip (a bound beyond the range on the side that binds nothing is ignored); numcu's
# where refuses it with OverflowError naming the function, as NumPy itself does for arithmetic.
# Comparisons and logical functions give NumPy's exact answers, and are checked against it.
LENIENT_WITH_PYTHON_INTS = {"where", "clip"}


def call_or_refused(name, operands, call):
    """`call()`, or None where numcu refuses what NumPy lets through (LENIENT_WITH_PYTHON_INTS)."""
    python_int = any(type(x.value) is int for x in operands)
    try:
        return call()
    except OverflowError as exc:
        if name in LENIENT_WITH_PYTHON_INTS and python_int and "out of bounds" in str(exc):
            assert str(exc).startswith(f"numcu.{name}: Python integer ")
            return None
        raise


def eps(dtype):
    return float(np.finfo(dtype).eps) if dtype.kind in "fc" else 0.0


def out_tolerance(name, computed, stored):
    """(rtol, atol) for a result computed in dtype `computed` and stored in `out` of `stored`:
    those of the less precise of the two (NumPy's and numcu's values round differently there)."""
    coarse = max(computed, stored, key=eps)
    if coarse.kind not in "fc":
        return 0, 0
    if name in uf.TRANSCENDENTAL:
        return uf.LOOSE[coarse]
    return TOLERANCES[coarse]


# --------------------------------------------------------------------------------------------
# Elementwise functions
# --------------------------------------------------------------------------------------------

UNARY = (
    "negative absolute sign square reciprocal sqrt exp log1p sin arctanh floor rint isnan "
    "isfinite logical_not invert"
).split()
BINARY = (
    "add subtract multiply divide floor_divide remainder power maximum fmin equal less "
    "greater_equal logical_and logical_xor bitwise_and left_shift right_shift arctan2 hypot "
    "copysign"
).split()


def ufunc_values(rng, name, dtype, position, loop_is_complex):
    """uf.ufunc_data's values (specials mixed in); power's exponents are kept small, and real
    operands of complex loops finite (C99 leaves complex arithmetic on inf and NaN open)."""

    def make(shape):
        a = uf.ufunc_data(rng, name, shape, dtype, position)
        if loop_is_complex and dtype.kind == "f":
            a[~np.isfinite(a)] = 1.5
        if name == "power" and position == 1 and dtype.kind in "fc" and not loop_is_complex:
            with quiet():
                a = (np.abs(a) % 5).astype(dtype)  # as test_ufuncs's mixed-dtype power
        return a

    return make


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", UNARY + BINARY)
@given(data=st.data())
@counted
def test_ufunc(name, backend, data):
    nin = 1 if name in UNARY else 2
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(RESULT_SHAPES, label="shape")
    dtypes = [data.draw(DTYPE_ST, label=f"dtype{i}") for i in range(nin)]
    loop_is_complex = any(d.kind == "c" for d in dtypes)
    operands = [
        draw_operand(data, rng, shape, ufunc_values(rng, name, d, i, loop_is_complex))
        for i, d in enumerate(dtypes)
    ]
    if all(not isinstance(x.value, np.ndarray) for x in operands):
        operands[0] = draw_operand(
            data, rng, shape, ufunc_values(rng, name, dtypes[0], 0, loop_is_complex), False
        )
    values = [x.value for x in operands]
    originals = [x.parent.copy() for x in operands if x.parent is not None]
    np_fn, fn = getattr(np, name), getattr(numcu, name)
    expected, error = numpy_or_error(np_fn, *values)
    through_cai = data.draw(st.booleans(), label="through_cai")
    args = [x.on(backend, through_cai) for x in operands]
    if error is not None:
        assert_same_error(error, lambda: call_numcu(fn, backend, args))
        return
    with quiet():
        overflowed = loop_is_complex and not np.all(np.isfinite(expected))
        overflowed = overflowed and all(np.all(np.isfinite(v)) for v in values)
    if overflowed:
        # A complex result that overflows from finite operands: C99 leaves the parts of an
        # infinite complex result to the implementation (NumPy's 8.98e37+infj is CUDA's inf+infj).
        return

    if data.draw(st.booleans(), label="with_out"):
        want = np.asarray(expected)
        out_dtype = data.draw(st.sampled_from(same_kind_targets(want.dtype)), label="out_dtype")
        with quiet():
            out = Out(data, rng, want.shape, out_dtype, want.astype(out_dtype))
        reference_parent = out.parent.copy()
        # The oracle is NumPy's result assigned into a copy of out, not NumPy's own out=:
        # NumPy 2.4's float32 negative from a strided input into a strided out (16-byte steps,
        # two elements or more) writes wrong values.
        with quiet():
            out.layout.numpy_view(reference_parent)[...] = np.asarray(expected)
        target, read_back = out.make(backend)
        result = call_or_refused(name, operands, lambda: call_numcu(fn, backend, args, out=target))
        if result is not None:
            assert result is target
            rtol, atol = out_tolerance(name, want.dtype, out_dtype)
            out.check(
                read_back(),
                out.layout.numpy_view(reference_parent),
                lambda got, w: assert_matches(got, w, rtol=rtol, atol=atol),
            )
    else:
        result = call_or_refused(name, operands, lambda: call_numcu(fn, backend, args))
        if result is not None:
            uf.check(name, to_host(result, backend), expected)
    parents = [x.parent for x in operands if x.parent is not None]
    for parent, original in zip(parents, originals):
        np.testing.assert_array_equal(parent, original, err_msg="an input was modified")


# --------------------------------------------------------------------------------------------
# where and clip
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@given(data=st.data())
@counted
def test_where(backend, data):
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(RESULT_SHAPES, label="shape")
    cond_dtype, x_dtype, y_dtype = (data.draw(DTYPE_ST) for _ in range(3))

    def condition(s):
        c = random_array(rng, s, cond_dtype)
        c.reshape(-1)[rng.random(c.size) < 0.4] = 0  # zeros are false; random_array has none
        return c

    operands = [
        draw_operand(data, rng, shape, condition, scalars=False),
        draw_operand(data, rng, shape, lambda s: uf.ufunc_data(rng, "where", s, x_dtype, 1)),
        draw_operand(data, rng, shape, lambda s: uf.ufunc_data(rng, "where", s, y_dtype, 2)),
    ]
    values = [x.value for x in operands]
    expected, error = numpy_or_error(np.where, *values)
    args = [x.on(backend, data.draw(st.booleans())) for x in operands]
    if error is not None:
        assert_same_error(error, lambda: call_numcu(numcu.where, backend, args))
        return
    result = call_or_refused("where", operands, lambda: call_numcu(numcu.where, backend, args))
    if result is not None:
        assert_matches(to_host(result, backend, scalar_0d=False), expected)


@pytest.mark.parametrize("backend", BACKENDS)
@given(data=st.data())
@counted
def test_clip(backend, data):
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(RESULT_SHAPES, label="shape")
    dtypes = [data.draw(DTYPE_ST) for _ in range(3)]
    operands = [
        draw_operand(
            data, rng, shape, lambda s, d=d, i=i: uf.ufunc_data(rng, "clip", s, d, i), i > 0
        )
        for i, d in enumerate(dtypes)
    ]
    if dtypes[0].kind in "iu":
        # NumPy 2 drops a Python int bound at or beyond the limits of `a`'s dtype even when the
        # other bound widens the result (clip(int8, int32 9792, 6463) is 9792): keep them inside.
        info = np.iinfo(dtypes[0])
        for x in operands[1:]:
            if type(x.value) is int:
                x.value = min(max(x.value, int(info.min) + 1), int(info.max) - 1)
    values = [x.value for x in operands]
    expected, error = numpy_or_error(np.clip, *values)
    args = [x.on(backend, data.draw(st.booleans())) for x in operands]
    if error is not None:
        assert_same_error(error, lambda: call_numcu(numcu.clip, backend, args))
        return
    want = np.asarray(expected)
    out = Out(data, rng, want.shape, want.dtype, want) if data.draw(st.booleans()) else None
    target, read_back = out.make(backend) if out else (None, None)
    result = call_or_refused(
        "clip", operands, lambda: call_numcu(numcu.clip, backend, args, out=target)
    )
    if result is None:
        return
    if out is None:
        assert_matches(to_host(result, backend), expected)
        return
    assert result is target
    out.check(read_back(), want, assert_matches)


# --------------------------------------------------------------------------------------------
# Overlapping out: inputs cut from the same buffer as out
# --------------------------------------------------------------------------------------------

OVERLAP_OPS = ("add", "subtract", "multiply", "maximum", "copysign", "negative", "absolute")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", OVERLAP_OPS)
@given(data=st.data())
@counted
def test_overlapping_out(name, backend, data):
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6))
    kinds = "f" if name == "copysign" else "iufc"
    dtype = data.draw(st.sampled_from([d for d in DTYPES if d.kind in kinds]))
    if name == "absolute" and dtype.kind == "c":
        dtype = np.dtype(np.float64)  # |z| is real: not the same dtype as z
    nin = 1 if name in ("negative", "absolute") else 2
    out_layout = Layout.draw(rng, shape, data.draw(st.sampled_from(OUT_LAYOUT_KINDS)), True)
    shared = [data.draw(st.booleans(), label=f"shared{i}") for i in range(nin)]
    if not any(shared):
        shared[0] = True
    layouts = [Layout.draw(rng, shape, data.draw(st.sampled_from(LAYOUT_KINDS))) for _ in shared]
    pshape = parent_shape(rng, [out_layout] + [lay for lay, s in zip(layouts, shared) if s])
    parent = uf.ufunc_data(rng, name, pshape, dtype, 0)
    own = [uf.ufunc_data(rng, name, parent_shape(rng, [lay]), dtype, 1) for lay in layouts]

    expected = parent.copy()
    np_inputs = [lay.numpy_view(expected if s else p) for lay, s, p in zip(layouts, shared, own)]
    with quiet():  # every input read before out is written, by definition
        out_layout.numpy_view(expected)[...] = getattr(np, name)(*np_inputs)

    fn = getattr(numcu, name)
    if backend == "numcu":
        device = numcu.asarray(parent)
        inputs = [
            lay.device_view(device, parent) if s else lay.device_view(numcu.asarray(p), p)
            for lay, s, p in zip(layouts, shared, own)
        ]
        fn(*inputs, out=out_layout.device_view(device, parent))
        got = device.get()
    else:
        got = parent.copy()
        inputs = [lay.numpy_view(got if s else p) for lay, s, p in zip(layouts, shared, own)]
        fn(*inputs, out=out_layout.numpy_view(got), device=backend)
    uf.check(name, got, expected)


# --------------------------------------------------------------------------------------------
# Reductions and scans
# --------------------------------------------------------------------------------------------

# Every reduction and scan of numcu's tables, with their forms (test_reductions reads them).
REDUCTIONS = red.REDUCTIONS + red.SCANS
TAKES_DTYPE = red.TAKES_DTYPE
NO_OUT = red.NO_OUT
PRODUCTS = red.PRODUCTS
# var and std: two passes whose dtype= NumPy takes its own way (see below).
SPREADS = tuple(n for n in red.REDUCTIONS if red.TABLE[n][2] in ("variance", "deviation"))


@st.composite
def axes(draw, name, ndim):
    """axis= for `name` on an ndim-dimensional array: None, an int or a tuple (either sign)."""
    forms = ["none"]
    if ndim:
        forms.append("int")
        if name not in red.SINGLE_AXIS and name not in red.SCANS:
            forms.append("tuple")
    form = draw(st.sampled_from(forms))
    if form == "none":
        return None
    if form == "int":
        return draw(st.integers(-ndim, ndim - 1))
    chosen = draw(st.sets(st.integers(0, ndim - 1)))
    return tuple(a - ndim if draw(st.booleans()) else a for a in sorted(chosen))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", REDUCTIONS)
@given(data=st.data())
@counted
def test_reduction(name, backend, data):
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(RESULT_SHAPES, label="shape")
    if name in PRODUCTS:  # products of many terms leave float16's range at different steps
        hypothesis.assume(int(np.prod(shape)) <= 256)
    dtype = data.draw(DTYPE_ST, label="dtype")
    if name in SPREADS and dtype == np.float16:  # NumPy's float16 sum of squares overflows
        hypothesis.assume(int(np.prod(shape)) <= 1024)
    nans = dtype.kind in "fc" and data.draw(st.booleans(), label="nans")

    def values(s):
        a = red.data(rng, s, dtype, name)
        if nans and a.size:
            a.reshape(-1)[rng.random(a.size) < 0.2] = np.nan
        return a

    x = draw_operand(data, rng, shape, values, scalars=False)
    a = x.value
    kwargs = {"axis": data.draw(axes(name, a.ndim), label="axis")}
    if name not in red.SCANS and data.draw(st.booleans(), label="keepdims"):
        kwargs["keepdims"] = True
    if name in TAKES_DTYPE and data.draw(st.booleans(), label="with_dtype"):
        # NumPy's var and std with float32 subtract a float32 mean from the int64 data, losing
        # what numcu keeps; their integer dtype= (and a mean's) is tested in test_reductions.
        requested = ["float64"] if name in SPREADS else ["float32", "float64", "complex128"]
        if name in PRODUCTS and dtype.kind in "iub":
            requested = []  # integer products overflow floats to inf, and complex inf is C99's
        if red.TABLE[name][2] not in ("mean", "variance", "deviation"):
            requested.append("int64")
        requested = [d for d in requested if np.can_cast(dtype, d, "same_kind")]
        if requested:
            kwargs["dtype"] = data.draw(st.sampled_from(requested), label="dtype=")
    fn = getattr(numcu, name)
    arg = x.on(backend, data.draw(st.booleans(), label="through_cai"))
    try:
        expected = red.reference(name, a, **kwargs)
    except (ValueError, TypeError) as exc:
        assert_same_error(exc, lambda: call_numcu(fn, backend, [arg], **kwargs))
        return
    want = np.asarray(expected)

    if name not in NO_OUT and data.draw(st.booleans(), label="with_out"):
        out = Out(data, rng, want.shape, want.dtype, want)
        target, read_back = out.make(backend)
        assert call_numcu(fn, backend, [arg], out=target, **kwargs) is target
        out.check(
            read_back(),
            want,
            lambda got, w: red.check(got, w, name, a, scalar_ok=False),
        )
        return
    result = call_numcu(fn, backend, [arg], **kwargs)
    red.check(to_host(result, backend), expected, name, a)


# --------------------------------------------------------------------------------------------
# Casts
# --------------------------------------------------------------------------------------------


def cast_values(rng, dtype, to):
    """As test_ufuncs.astype_source: floats going to integers are small and non-negative
    (NumPy and C++ leave NaN, inf and out-of-range conversions undefined)."""

    def make(shape):
        a = random_array(rng, shape, dtype)
        if np.dtype(to).kind in "iu" and dtype.kind in "fc":
            a = (np.abs(a) % 100).astype(dtype)
        return a

    return make


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@given(data=st.data())
@counted
def test_cast(dtype, backend, data):
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(RESULT_SHAPES, label="shape")
    to = data.draw(DTYPE_ST, label="to")
    x = draw_operand(data, rng, shape, cast_values(rng, dtype, to), scalars=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex to real: NumPy's ComplexWarning
        expected = x.value.astype(to)
    if backend == "cpu":
        results = [numcu.astype(x.value, to), numcu.asarray(x.value, dtype=to, device="cpu")]
        assert all(type(r) is np.ndarray for r in results)
    elif backend == "cuda":
        results = [numcu.asarray(x.value, dtype=to).get()]
    else:
        d = x.on(backend, data.draw(st.booleans(), label="through_cai"))
        results = [numcu.astype(d, to).get(), numcu.asarray(d, dtype=to).get()]
        if isinstance(d, numcu.ndarray):
            results.append(d.astype(to).get())
    for result in results:
        assert_matches(result, expected)


# --------------------------------------------------------------------------------------------
# Basic indexing and item assignment (device arrays)
# --------------------------------------------------------------------------------------------


@st.composite
def basic_keys(draw, shape):
    """A basic index for `shape`: ints (either sign), slices of any step, None and '...'."""
    n = len(shape)
    consumed = draw(st.integers(0, n))
    items = []
    for e in shape[:consumed]:
        if e and draw(st.booleans()):
            items.append(draw(st.integers(-e, e - 1)))
        else:
            bound = st.none() | st.integers(-e - 2, e + 2)
            step = st.none() | st.integers(-3, 3).filter(bool)
            items.append(slice(draw(bound), draw(bound), draw(step)))
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    if consumed < n and draw(st.booleans()):
        # After every item that consumes an axis: they were drawn for the leading axes.
        last = max((i + 1 for i, item in enumerate(items) if item is not None), default=0)
        items.insert(draw(st.integers(last, len(items))), Ellipsis)
    return tuple(items) if len(items) != 1 or draw(st.booleans()) else items[0]


@pytest.mark.gpu
@given(data=st.data())
@counted
def test_basic_indexing(data):
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=6, min_side=0, max_side=5))
    dtype = data.draw(DTYPE_ST, label="dtype")
    parent = random_array(rng, shape, dtype)
    device = numcu.asarray(parent)
    key = data.draw(basic_keys(shape), label="key")
    view, device_view = parent[key], device[key]
    if data.draw(st.booleans(), label="then"):
        second = data.draw(basic_keys(np.shape(view)), label="key2")
        view, device_view = np.asarray(view)[second], device_view[second]
    view = np.asarray(view)
    if view.ndim >= 2 and data.draw(st.booleans(), label="transpose"):
        perm = tuple(data.draw(st.permutations(range(view.ndim))))
        view, device_view = view.transpose(perm), device_view.transpose(perm)
    assert isinstance(device_view, numcu.ndarray)
    assert device_view.shape == view.shape
    if view.size:  # NumPy's strides of empty views have changed between its versions
        assert device_view.strides == view.strides
    assert_matches(device_view.get(), view)


@pytest.mark.gpu
@given(data=st.data())
@counted
def test_setitem(data):
    rng = np.random.default_rng(data.draw(SEEDS, label="seed"))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=5, min_side=0, max_side=6))
    dtype = data.draw(DTYPE_ST, label="dtype")
    parent = random_array(rng, shape, dtype)
    device = numcu.asarray(parent)
    key = data.draw(basic_keys(shape), label="key")
    target = np.asarray(parent[key]) if np.ndim(parent[key]) else None
    target_shape = np.shape(parent[key])
    source_dtype = data.draw(DTYPE_ST, label="source_dtype")
    make = cast_values(rng, source_dtype, dtype)
    kind = data.draw(st.sampled_from(["python", "host", "device", "same_buffer"]))
    if kind == "python" and not np.can_cast(source_dtype, dtype, "same_kind"):
        kind = "host"  # NumPy refuses e.g. a Python complex into a float array
    expected = parent.copy()
    if kind == "same_buffer" and target is not None:
        flips = tuple(
            slice(None, None, -1) if data.draw(st.booleans()) else slice(None) for _ in target_shape
        )
        source_np, source = expected[key][flips], device[key][flips]
    elif kind == "python" or target is None:
        source_np = make(())
        source = source_np.item() if kind == "python" else source_np
    else:
        source_np = make(data.draw(operand_shapes(target_shape)))
        source = source_np if kind == "host" else numcu.asarray(source_np)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex to real: NumPy's ComplexWarning
        try:
            # NumPy gets what numcu gets: a Python number is checked against the dtype's range
            # (OverflowError), a NumPy value is cast.
            expected[key] = source if kind == "python" else source_np
        except (OverflowError, ValueError, TypeError) as exc:
            error = exc
        else:
            error = None
    if error is not None:
        assert_same_error(error, lambda: device.__setitem__(key, source))
        return
    device[key] = source
    assert_matches(device.get(), expected)


# --------------------------------------------------------------------------------------------
# Launch checks: the quick test of dense plans against the whole check

ADDRESS_MAX = 2**64 - 1
INT64_MAX = 2**63 - 1


# Each strategy is made once (Hypothesis validates a new strategy object at its first draw, which
# cost more than the checks themselves when they were made per draw).
@functools.cache
def edge_ints(lo: int, hi: int, edges: tuple[int, ...]) -> st.SearchStrategy[int]:
    """Integers in [lo, hi], often one of `edges` (or next to one), where overflow lives."""
    near = [e + d for e in edges for d in (-1, 0, 1) if lo <= e + d <= hi]
    return st.one_of(st.sampled_from(near), st.integers(lo, hi))


@functools.cache
def stride_of(itemsize: int) -> st.SearchStrategy[int]:
    """A stride in bytes: often the item size (or its negative, 0 or twice it), else any."""
    return st.sampled_from([itemsize, itemsize, -itemsize, 0, 2 * itemsize]) | edge_ints(
        -(2**63), INT64_MAX, (0, INT64_MAX)
    )


ITEMSIZE_LISTS = st.lists(st.sampled_from([1, 2, 4, 8, 16]), min_size=3, max_size=3)
POINTER_LISTS = st.lists(
    edge_ints(0, ADDRESS_MAX, (0, 16, 4096, 2**47, 2**63, ADDRESS_MAX - 4095, ADDRESS_MAX)),
    min_size=3,
    max_size=3,
)
SHAPES_OF_NDIM = {k: st.lists(edge_ints(-1, 2**40, (0, 1)), min_size=k, max_size=k) for k in (0, 2)}


@given(data=st.data())
@hypothesis.settings(max_examples=2000)
@counted
def test_dense_launch_test_never_passes_what_the_full_check_refuses(data):
    """Every kernel launch first asks a quick test whether its plan is one dense run that
    fits (launch_check.hpp's dense_plan_fits), and only where it says no runs the whole check.
    Plans near every overflow edge: a plan the quick test passes also passes the whole check,
    and a dense plan of real-looking pointers is passed by the quick test (else the fast path
    would be dead)."""
    itemsizes = data.draw(ITEMSIZE_LISTS)
    ndim = data.draw(st.sampled_from([1, 1, 1, 0, 2]), label="ndim")
    size = data.draw(edge_ints(-2, INT64_MAX, (0, 1, 2**31, 2**60, 2**62, INT64_MAX)))
    shape = [size] if ndim == 1 else data.draw(SHAPES_OF_NDIM[ndim])
    if ndim == 1 and data.draw(st.booleans(), label="other extent"):
        shape = [data.draw(edge_ints(-1, INT64_MAX, (0, 1, size)))]
    strides = [[data.draw(stride_of(s)) for _ in range(ndim)] for s in itemsizes]
    pointers = data.draw(POINTER_LISTS, label="data")
    alignments = data.draw(st.sampled_from([[], itemsizes]) | ITEMSIZE_LISTS)
    mask = data.draw(st.integers(0, 7), label="scalar mask")
    args = (pointers, size, shape, strides, itemsizes, alignments, mask)
    fast = numcu._core._launch_check(*args, full=False)
    full = numcu._core._launch_check(*args, full=True)
    assert fast in ("", "dense test: no")
    if fast == "":
        assert full == "", (args, full)

    # The same operands as one dense run that fits, their pointers aligned to 16: the whole
    # check passes it where every alignment divides its item size, and so does the quick test.
    n = data.draw(st.integers(2, 2**40), label="n")
    dense = [[s] for s in itemsizes]
    base = [16 * data.draw(st.integers(1, 2**40)) for _ in range(3)]
    args = (base, n, [n], dense, itemsizes, alignments, 0)
    aligned = all(s % a == 0 for a, s in zip(alignments or itemsizes, itemsizes))
    assert (numcu._core._launch_check(*args, full=True) == "") == aligned
    assert (numcu._core._launch_check(*args, full=False) == "") == aligned
