"""Device arrays from other libraries go in as they are (all gpu).

Specification, for every producer (numcu, a bare __cuda_array_interface__ object, CuPy,
PyTorch, Numba; one that is not installed skips):
- the binary ops take the producer's arrays, of any dtype it can hold, in any layout it can make
  (transposed, strided, offset, negative strides), and return a numcu.ndarray on that device
  with NumPy's values;
- Python scalars, 0-d host arrays and numcu arrays mix with them;
- ``out=`` may be the producer's array: it is written and returned as the same object;
- ``numcu.asarray(obj)`` wraps the producer's memory without a copy (same pointer), so writes
  through numcu are seen by the producer;
- a CAI object with a null pointer and no elements is a valid empty array.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import (
    OPS,
    CAIArray,
    assert_matches,
    poisoned,
    random_array,
    reference,
)

import numcu

pytestmark = pytest.mark.gpu

PRODUCER_DTYPES = [
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]

# (shape of x1, shape of x2)
SHAPE_PAIRS = {
    "odd1001": ((1001,), (1001,)),
    "2d": ((13, 17), (13, 17)),
    "broadcast_3d": ((4, 1, 3), (5, 1)),
    "size0": ((0,), (0,)),
    "0d_with_1d": ((), (7,)),
}

# name -> (base shape, view); the view is made by the producer on the device.
DEVICE_VIEWS = {
    "transposed": ((9, 6), lambda a: a.T),
    "step2": ((40,), lambda a: a[::2]),
    "offset": ((41,), lambda a: a[1:]),
    "columns_step2": ((6, 14), lambda a: a[:, 1::2]),
    "reversed": ((40,), lambda a: a[::-1]),
    "negative_strides_2d": ((6, 14), lambda a: a[::-1, ::-2]),
}


def device_pair(producer, rng, op, dtype, shape1, shape2):
    x1 = random_array(rng, shape1, dtype)
    x2 = random_array(rng, shape2, dtype, nonzero=op == "divide")
    return x1, x2, producer.from_numpy(x1), producer.from_numpy(x2)


def cai_pointer(obj):
    return obj.__cuda_array_interface__["data"][0]


def op_dtypes():
    return [
        pytest.param(op, dtype, id=f"{op}-{dtype}")
        for op in OPS
        for dtype in PRODUCER_DTYPES
        if not (op == "subtract" and dtype == "bool")
    ]


@pytest.mark.parametrize("shapes", SHAPE_PAIRS)
@pytest.mark.parametrize(("op", "dtype"), op_dtypes())
def test_binary_ops_take_producer_arrays(producer, op, dtype, shapes, rng):
    x1, x2, d1, d2 = device_pair(producer, rng, op, dtype, *SHAPE_PAIRS[shapes])

    result = getattr(numcu, op)(d1, d2)

    assert isinstance(result, numcu.ndarray)
    assert result.device.id == 0
    assert_matches(result.get(), reference(op, x1, x2))
    assert_matches(producer.to_numpy(d1), x1)  # inputs untouched
    assert_matches(producer.to_numpy(d2), x2)


@pytest.mark.parametrize("view", DEVICE_VIEWS)
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex64"])
@pytest.mark.parametrize("op", ["add", "divide"])
def test_producer_views(producer, op, dtype, view, rng):
    """Strides, offsets and negative strides of the producer's own views are honoured."""
    base_shape, index = DEVICE_VIEWS[view]
    base1 = random_array(rng, base_shape, dtype)
    base2 = random_array(rng, base_shape, dtype, nonzero=True)
    x1, x2 = index(base1), index(base2)
    d1 = producer.view(producer.from_numpy(base1), base1, index)
    d2 = producer.view(producer.from_numpy(base2), base2, index)
    assert tuple(d1.__cuda_array_interface__["shape"]) == x1.shape

    result = getattr(numcu, op)(d1, d2)

    assert isinstance(result, numcu.ndarray)
    assert_matches(result.get(), reference(op, x1, x2))


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_producer_view_mixed_with_contiguous(producer, dtype, rng):
    base = random_array(rng, (8, 10), dtype)
    other = random_array(rng, (10, 8), dtype)
    transposed = producer.view(producer.from_numpy(base), base, lambda a: a.T)

    result = numcu.multiply(transposed, producer.from_numpy(other))

    assert_matches(result.get(), reference("multiply", base.T, other))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
@pytest.mark.parametrize("op", OPS)
def test_host_scalars_mix_with_producer_arrays(producer, op, dtype, rng):
    """Python scalars and 0-d host arrays may join device operands, on either side."""
    x = random_array(rng, (5, 6), dtype, nonzero=True)
    zero_d = random_array(rng, (), dtype, nonzero=True)
    d = producer.from_numpy(x)
    fn = getattr(numcu, op)

    for operands in ((d, 3), (2.5, d), (d, zero_d), (zero_d, d)):
        host_operands = [x if o is d else o for o in operands]
        result = fn(*operands)
        assert isinstance(result, numcu.ndarray)
        assert_matches(result.get(), reference(op, *host_operands))


@pytest.mark.parametrize("dtype", ["uint8", "float16", "float64"])
def test_producer_arrays_mix_with_numcu_arrays(producer, dtype, rng):
    x1 = random_array(rng, (6, 1), dtype)
    x2 = random_array(rng, (1, 9), dtype)

    result = numcu.add(producer.from_numpy(x1), numcu.asarray(x2))
    swapped = numcu.add(numcu.asarray(x2), producer.from_numpy(x1))

    assert_matches(result.get(), reference("add", x1, x2))
    assert_matches(swapped.get(), reference("add", x2, x1))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float16", "float32", "complex64"])
@pytest.mark.parametrize("op", OPS)
def test_out_is_the_producer_array(producer, op, dtype, rng):
    if op == "subtract" and dtype == "bool":
        pytest.skip("bool - bool has no loop (test_errors.py)")
    x1, x2, d1, d2 = device_pair(producer, rng, op, dtype, (7, 9), (9,))
    expected = reference(op, x1, x2)
    out = producer.from_numpy(poisoned(expected.shape, expected.dtype, expected))

    result = getattr(numcu, op)(d1, d2, out=out)

    assert result is out
    numcu.cuda.synchronize()  # the producer may read on another stream
    assert_matches(producer.to_numpy(out), expected)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32", "complex128"])
def test_asarray_is_zero_copy(producer, dtype, rng):
    host = random_array(rng, (4, 25), dtype)
    obj = producer.from_numpy(host)

    wrapped = numcu.asarray(obj)

    assert isinstance(wrapped, numcu.ndarray)
    assert cai_pointer(wrapped) == cai_pointer(obj)
    assert wrapped.shape == host.shape
    assert wrapped.dtype == host.dtype
    assert_matches(wrapped.get(), host)

    # Writing through numcu changes the producer's array: the memory is shared.
    result = numcu.add(wrapped, wrapped, out=wrapped)
    assert result is wrapped
    numcu.cuda.synchronize()
    assert_matches(producer.to_numpy(obj), reference("add", host, host))


def test_asarray_keeps_a_producer_view(producer, rng):
    base = random_array(rng, (6, 14), np.float32)
    view = producer.view(producer.from_numpy(base), base, lambda a: a[:, 1::2])

    wrapped = numcu.asarray(view)

    assert cai_pointer(wrapped) == cai_pointer(view)
    assert wrapped.shape == (6, 7)
    assert_matches(wrapped.get(), base[:, 1::2])


def test_empty_cai_with_null_pointer_is_valid():
    empty = CAIArray(None, 0, (0,), np.float32)

    result = numcu.add(empty, empty)

    assert isinstance(result, numcu.ndarray)
    assert result.shape == (0,)
    assert result.dtype == np.float32
    assert result.get().shape == (0,)


def test_readonly_cai_is_accepted_as_input(rng):
    host = random_array(rng, (10,), np.float64)
    owner = numcu.asarray(host)
    readonly = CAIArray(owner, cai_pointer(owner), host.shape, host.dtype, readonly=True)

    result = numcu.multiply(readonly, 2.0)

    assert_matches(result.get(), host * 2.0)


def moving_strides(info):
    """The strides of an _intake_info result along its dimensions longer than one."""
    return tuple(s for n, s in zip(info["shape"], info["strides"]) if n > 1)


def test_fast_routes_read_what_the_interfaces_say(producer, rng):
    """The route numcu takes for a producer's arrays (DLPack's C exchange table, a CuPy array's
    own attributes) reads the same memory, shape, strides, dtype and device as the interfaces
    (__cuda_array_interface__, then __dlpack__) do, views included; CuPy's joins the same
    stream, also on a stream of CuPy's own. The arrays cover the shortcuts of CuPy's route: one
    dimension (its size read as its shape), no dimension, and C-contiguous arrays (strides
    computed) among them one whose dimension of one has a stride no contiguous array has,
    an empty one, and views that are not contiguous."""
    base = random_array(rng, (6, 14), np.float32)
    whole = producer.from_numpy(base)
    row = producer.from_numpy(base[1])
    views = {
        "columns": (whole, base, lambda a: a[:, 1::2]),
        "one column": (whole, base, lambda a: a[:, 3:4]),
        "one row, stride of four rows": (whole, base, lambda a: a[::4][:1]),
        "no rows": (whole, base, lambda a: a[:0]),
        "every third": (row, base[1], lambda a: a[::3]),
        "offset": (row, base[1], lambda a: a[5:]),
    }
    arrays = [whole, row, producer.from_numpy(base[2, 3:4].reshape(()))]
    arrays += [producer.view(*views[name]) for name in views]
    for x in arrays:
        fast = numcu._core._intake_info(x)
        slow = numcu._core._intake_info(x, "interfaces")
        for key in ("shape", "dtype", "device", "readonly", "kind"):
            assert fast[key] == slow[key], (producer.name, fast["route"], key)
        # An empty array's address is never read: CuPy's interface gives 0 for it.
        if np.prod(fast["shape"]) > 0:
            assert fast["data"] == slow["data"], (producer.name, fast["route"])
        # A dimension of one has no step to take: a producer may report any stride for it.
        assert moving_strides(fast) == moving_strides(slow), (producer.name, fast["route"])
        if producer.name == "cupy":
            assert fast["route"] == "cupy"
            assert fast["strides"] == slow["strides"]
            assert fast["stream"] == slow["stream"]
            with producer.cp.cuda.Stream(non_blocking=True) as side:
                on_side = numcu._core._intake_info(x)
                assert on_side["stream"] == numcu._core._intake_info(x, "interfaces")["stream"]
                assert on_side["stream"] == side.ptr
            # Back on CuPy's default stream, and on streams made and dropped in turn (a new
            # stream may get a freed one's address): each call reads the stream current then.
            assert numcu._core._intake_info(x)["stream"] == slow["stream"]
            for _ in range(3):
                with producer.cp.cuda.Stream(non_blocking=True) as side:
                    assert numcu._core._intake_info(x)["stream"] == side.ptr
                del side
                assert numcu._core._intake_info(x)["stream"] == slow["stream"]


def test_cupy_route_reads_each_threads_current_stream(rng):
    """CuPy's current stream is a thread's own: a call on a thread inside a stream of CuPy's
    joins that stream, while calls on the main thread, before and after, join CuPy's default."""
    cp = pytest.importorskip("cupy")
    if not numcu.cuda.is_available():
        pytest.skip("needs a GPU")
    x = cp.asarray(random_array(rng, (64,), np.float32))
    default = numcu._core._intake_info(x, "interfaces")["stream"]
    seen = {}

    def on_a_thread() -> None:
        with cp.cuda.Stream(non_blocking=True) as side:
            seen["side"] = side.ptr
            seen["read"] = numcu._core._intake_info(x)["stream"]

    assert numcu._core._intake_info(x)["stream"] == default
    worker = threading.Thread(target=on_a_thread)
    worker.start()
    worker.join()
    assert seen["read"] == seen["side"] != default
    assert numcu._core._intake_info(x)["stream"] == default
