"""Outputs that share memory with inputs: NumPy's answer, as if every input were read first.

Specification, with NumPy (which makes every such call overlap-safe) as the oracle:
- elementwise functions (unary, binary, clip's three operands, in-place operators) whose `out`
  is a shifted, reversed, transposed, interleaved or broadcast-over view of an input's memory;
- the common in-place case (`out` is an input, element for element) stays correct, and so do
  0-d and zero-size overlaps;
- item assignment between views of one array (``x[1:] = x[:-1]``, ``x[::-1] = x``);
- reductions and scans whose `out` lies inside their input, and in-place scans;
- asnumpy's `out=` over host data that overlaps the source;
- on every backend: "cpu" (the CPU backend walks memory in one order, so an overlap shows),
  "cuda" (host operands, uploaded first) and "numcu" (device views of one allocation).

Outputs cannot be poisoned here (they are the inputs); the data is random and the whole base
array is compared, so a value read after it was overwritten, or a write outside `out`, fails.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, quiet, random_array

import numcu

# Sizes: a few elements (one thread, one vector), and enough for many blocks on the GPU, odd so
# that vector and tile edges are crossed.
LENGTHS = (9, 70001)


def run_case(backend, base, case, **tolerance):
    """Apply `case(module, array, **kwargs)` to a copy of `base` with NumPy and with numcu on
    `backend`; the whole arrays must match afterwards (`tolerance`: assert_matches's)."""
    expected = base.copy()
    with quiet():
        case(np, expected)
    if backend == "numcu":
        device = numcu.asarray(base)
        case(numcu, device)
        got = device.get()
    else:
        got = base.copy()
        case(numcu, got, device=backend)
    assert_matches(got, expected, **tolerance)


# Each case: (module, x, **kwargs) -> None, on a 1-D x of length >= 3.
ELEMENTWISE_1D = {
    "shift_forward": lambda m, x, **kw: m.add(x[1:], x[:-1], out=x[1:], **kw),
    "shift_backward": lambda m, x, **kw: m.add(x[:-1], x[1:], out=x[:-1], **kw),
    "reversed": lambda m, x, **kw: m.add(x, x[::-1], out=x, **kw),
    "reversed_second_out": lambda m, x, **kw: m.subtract(x[::-1], x, out=x, **kw),
    "out_reversed": lambda m, x, **kw: m.multiply(x, x[1:2], out=x[::-1], **kw),
    "in_place": lambda m, x, **kw: m.add(
        x[: x.shape[0] // 2], x[x.shape[0] // 2 : -1], out=x[: x.shape[0] // 2], **kw
    ),
    "all_three_same": lambda m, x, **kw: m.add(x, x, out=x, **kw),
    "interleaved": lambda m, x, **kw: m.add(
        x[: x.shape[0] // 2 * 2 : 2], x[1::2], out=x[1::2], **kw
    ),
    "step_two_shift": lambda m, x, **kw: m.subtract(x[2::2], x[:-2:2], out=x[:-2:2], **kw),
    "unary_reversed": lambda m, x, **kw: m.negative(x[::-1], out=x, **kw),
    "unary_shift": lambda m, x, **kw: m.negative(x[:-1], out=x[1:], **kw),
    "maximum_shift": lambda m, x, **kw: m.maximum(x[2:], x[:-2], out=x[1:-1], **kw),
    "clip_reversed": lambda m, x, **kw: m.clip(x[::-1], -1, 1, out=x, **kw),
    "clip_bounds_overlap": lambda m, x, **kw: m.clip(
        x[1:], x[:-1], x[:-1] + 5 if m is np else m.add(x[:-1], 5), out=x[:-1], **kw
    ),
    "zero_size": lambda m, x, **kw: m.add(x[:0], x[1:1], out=x[2:2], **kw),
}


@pytest.mark.parametrize("case", list(ELEMENTWISE_1D))
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
def test_elementwise_1d(backend, case, n, dtype, rng):
    if case.startswith("clip") and np.dtype(dtype).kind == "c":
        pytest.skip("clip orders complex values lexicographically; not the subject here")
    run_case(backend, random_array(rng, (n,), dtype), ELEMENTWISE_1D[case])


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16"])
def test_shift_every_kind(backend, dtype, rng):
    op = "logical_xor" if dtype == "bool" else "add"
    base = random_array(rng, (4099,), dtype)
    run_case(backend, base, lambda m, x, **kw: getattr(m, op)(x[1:], x[:-1], out=x[1:], **kw))


# Each case: (module, a, **kwargs) -> None, on a square 2-D a.
ELEMENTWISE_2D = {
    "transposed": lambda m, a, **kw: m.add(a, a.T, out=a, **kw),
    "out_transposed": lambda m, a, **kw: m.subtract(a, 1, out=a.T, **kw),
    "row_broadcast": lambda m, a, **kw: m.multiply(a, a[0], out=a, **kw),
    "column_broadcast": lambda m, a, **kw: m.add(a[:, -1:], a, out=a, **kw),
    "first_row_kept_dims": lambda m, a, **kw: m.add(a[:1], a, out=a, **kw),
    "rows_shifted": lambda m, a, **kw: m.add(a[1:], a[:-1], out=a[1:], **kw),
    "columns_shifted": lambda m, a, **kw: m.add(a[:, 1:], a[:, :-1], out=a[:, :-1], **kw),
    "flipped_both": lambda m, a, **kw: m.subtract(a[::-1, ::-1], a, out=a, **kw),
    "in_place_strided": lambda m, a, **kw: m.add(a[::2, 1::3], 2, out=a[::2, 1::3], **kw),
    "diagonal_block": lambda m, a, **kw: m.add(a[1:, 1:], a[:-1, :-1], out=a[:-1, 1:], **kw),
}


@pytest.mark.parametrize("case", list(ELEMENTWISE_2D))
@pytest.mark.parametrize("n", [5, 300])
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex64"])
def test_elementwise_2d(backend, case, n, dtype, rng):
    run_case(backend, random_array(rng, (n, n), dtype), ELEMENTWISE_2D[case])


def test_zero_d_input_inside_out(backend, rng):
    """A 0-d view of one element of `out`, broadcast over it, is read before out is written."""
    base = random_array(rng, (4099,), np.float64)
    run_case(backend, base, lambda m, x, **kw: m.add(x[7, ...], x, out=x, **kw))
    run_case(
        backend, base, lambda m, x, **kw: m.multiply(x[3, ...], x[1, ...], out=x[3, ...], **kw)
    )


@pytest.mark.gpu
@pytest.mark.parametrize("n", LENGTHS)
def test_in_place_operator_on_device_views(n, rng):
    base = random_array(rng, (n,), np.float64)
    expected = base.copy()
    view = expected[1:]
    view += expected[:-1]
    expected[::-1] *= expected
    device = numcu.asarray(base)
    shifted = device[1:]
    shifted += device[:-1]
    flipped = device[::-1]
    flipped *= device
    assert_matches(device.get(), expected)


# --------------------------------------------------------------------------------------------
# Item assignment (device arrays)
# --------------------------------------------------------------------------------------------


def _set(dst_index, src_index):
    def assign(m, x):
        x[dst_index] = x[src_index]

    return assign


SETITEM = {
    "shift_forward": _set(slice(1, None), slice(None, -1)),
    "shift_backward": _set(slice(None, -1), slice(1, None)),
    "reversed": _set(slice(None, None, -1), slice(None)),
    "same": _set(slice(None), slice(None)),
    "interleaved": _set(slice(1, None, 2), slice(0, -1, 2)),
}


@pytest.mark.gpu
@pytest.mark.parametrize("case", list(SETITEM))
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", ["uint8", "float64", "complex64"])
def test_setitem_between_views(case, n, dtype, rng):
    run_case("numcu", random_array(rng, (n,), dtype), SETITEM[case])


@pytest.mark.gpu
@pytest.mark.parametrize("n", [6, 257])
def test_setitem_transposed_and_broadcast(n, rng):
    def transposed(m, a):
        a[...] = a.T

    def broadcast_row(m, a):
        a[1:] = a[0]

    def rows_shifted(m, a):
        a[:-1] = a[1:]

    for case in (transposed, broadcast_row, rows_shifted):
        run_case("numcu", random_array(rng, (n, n), np.float32), case)


# --------------------------------------------------------------------------------------------
# Reductions and scans
# --------------------------------------------------------------------------------------------

REDUCTIONS_2D = {
    "sum_into_first_row": lambda m, a, **kw: m.sum(a, axis=0, out=a[0], **kw),
    "max_into_last_column": lambda m, a, **kw: m.max(a, axis=1, out=a[:, -1], **kw),
    "mean_into_row_reversed": lambda m, a, **kw: m.mean(a, axis=0, out=a[2, ::-1], **kw),
    "prod_keepdims": lambda m, a, **kw: m.prod(a, axis=1, keepdims=True, out=a[:, 1:2], **kw),
    "std_into_first_row": lambda m, a, **kw: m.std(a, axis=0, out=a[0], **kw),
    "cumsum_in_place": lambda m, a, **kw: m.cumsum(a, axis=0, out=a, **kw),
    "cumsum_shifted": lambda m, a, **kw: m.cumsum(a[:-1], axis=0, out=a[1:], **kw),
    "cumsum_transposed": lambda m, a, **kw: m.cumsum(a, axis=1, out=a.T, **kw),
    "cumprod_reversed": lambda m, a, **kw: m.cumprod(a[::-1], axis=0, out=a, **kw),
    "cumsum_flat_in_place": lambda m, a, **kw: m.cumsum(a[0], out=a[0], **kw),
    "cumsum_flat_reversed": lambda m, a, **kw: m.cumsum(a[0], out=a[0, ::-1], **kw),
}


# Sums are compared as sums of many terms are: NumPy's pairwise order is not numcu's.
SUM_TOLERANCE = {"rtol": 1e-9, "atol": 1e-9}


@pytest.mark.parametrize("case", list(REDUCTIONS_2D))
@pytest.mark.parametrize("n", [7, 300])
def test_reductions_into_their_input(backend, case, n, rng):
    if case.startswith("cumprod"):
        base = rng.uniform(0.9, 1.1, (n, n))  # products of many terms stay finite
    else:
        base = random_array(rng, (n, n), np.float64)
    run_case(backend, base, REDUCTIONS_2D[case], **SUM_TOLERANCE)


SCANS_1D = {
    "in_place": lambda m, x, **kw: m.cumsum(x, out=x, **kw),
    "shift_forward": lambda m, x, **kw: m.cumsum(x[:-1], out=x[1:], **kw),
    "shift_backward": lambda m, x, **kw: m.cumsum(x[1:], out=x[:-1], **kw),
    "reversed": lambda m, x, **kw: m.cumsum(x[::-1], out=x, **kw),
    "prod_in_place": lambda m, x, **kw: m.cumprod(x, out=x, **kw),
}


@pytest.mark.parametrize("case", list(SCANS_1D))
@pytest.mark.parametrize("n", [5, 100003])
def test_scans_1d(backend, case, n, rng):
    """Long lines take CUB's device scan on the GPU, which runs in place but not shifted."""
    if case.startswith("prod"):
        base = rng.uniform(0.999, 1.001, n)
    else:
        base = random_array(rng, (n,), np.float64)
    run_case(backend, base, SCANS_1D[case], **SUM_TOLERANCE)


# --------------------------------------------------------------------------------------------
# asnumpy(out=) over host data
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", LENGTHS)
def test_asnumpy_out_overlapping_host_source(n, rng):
    base = random_array(rng, (n,), np.int64)
    expected = base[::-1].copy()
    result = numcu.asnumpy(base[::-1], out=base)
    assert result is base
    assert_matches(base, expected)


@pytest.mark.parametrize("n", LENGTHS)
def test_asnumpy_out_shifted_host_source(n, rng):
    base = random_array(rng, (n,), np.float32)
    expected = base.copy()
    expected[1:] = expected[:-1]
    numcu.asnumpy(base[:-1], out=base[1:])
    assert_matches(base, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("reverse", [False, True])
def test_asnumpy_managed_into_its_own_host_view(reverse, rng):
    """The copy engines would copy a managed array onto its own host view in no set order."""
    base = random_array(rng, (1 << 20,), np.float64)
    m = numcu.empty(base.shape, dtype=base.dtype, memory="managed")
    m[...] = numcu.asarray(base)
    numcu.cuda.synchronize()
    host_view = np.asarray(m)
    source = m[::-1] if reverse else m
    numcu.asnumpy(source, out=host_view)
    assert_matches(host_view, base[::-1] if reverse else base)
