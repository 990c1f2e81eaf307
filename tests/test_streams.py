"""Streams, events, devices and memory statistics.

- Every operation takes ``stream=`` (numcu.cuda.Stream, CuPy and PyTorch streams, anything
  with ``__cuda_stream__``, int handles); ``with numcu.cuda.Stream():`` sets the current one.
- Arrays remember the stream they were last used on: work on another stream waits for it,
  and ``__cuda_array_interface__`` reports it.
- A producer writing on a side stream is joined without a host synchronisation.
"""

from __future__ import annotations

import gc
import sys
import warnings

import numpy as np
import pytest
from conftest import CAIArray, assert_matches, import_or_skip, random_array

import numcu

pytestmark = pytest.mark.gpu

N = 1 << 22


def test_with_stream_sets_the_current_stream(rng):
    a = random_array(rng, (N,), np.float32)
    b = random_array(rng, (N,), np.float32)
    da, db = numcu.asarray(a), numcu.asarray(b)
    s = numcu.cuda.Stream(non_blocking=True)

    with s:
        assert numcu.cuda.current_stream() == s
        r = numcu.multiply(da, db)
        r = numcu.add(r, da)
    assert numcu.cuda.current_stream().ptr == 0

    assert r.__cuda_array_interface__["stream"] == s.ptr
    assert_matches(r.get(), a * b + a)


@pytest.mark.parametrize("kind", ["numcu", "int", "cupy", "torch", "protocol"])
def test_stream_argument_kinds(kind, rng):
    a = random_array(rng, (1000,), np.float64)
    da = numcu.asarray(a)
    if kind == "numcu":
        stream = numcu.cuda.Stream()
    elif kind == "int":
        owner = numcu.cuda.Stream()  # the handle is valid while its Stream lives
        stream = owner.ptr
    elif kind == "cupy":
        stream = import_or_skip("cupy").cuda.Stream(non_blocking=True)
    elif kind == "torch":
        stream = import_or_skip("torch").cuda.Stream()
    else:
        inner = numcu.cuda.Stream()

        class Protocol:
            def __cuda_stream__(self):
                return (0, inner.ptr)

        stream = Protocol()

    r = numcu.add(da, 2.0, stream=stream)

    assert_matches(r.get(), a + 2.0)
    if kind == "int":
        del owner


def test_arrays_used_on_another_stream_are_ordered(rng):
    a = random_array(rng, (N,), np.float32)
    da = numcu.asarray(a)
    s1, s2 = numcu.cuda.Stream(non_blocking=True), numcu.cuda.Stream(non_blocking=True)

    for _ in range(20):  # a long queue on s1 ...
        numcu.multiply(da, 1.0, out=da, stream=s1)
    numcu.add(da, 1.0, out=da, stream=s1)
    r = numcu.add(da, da, stream=s2)  # ... that s2 must wait for

    assert_matches(r.get(), (a + 1.0) * 2)


@pytest.mark.parametrize("third", ["numcu", "cupy", "torch"])
def test_operands_last_used_on_two_streams_are_both_waited_for(third, rng):
    """Three operands, two last written on one stream and one on another, read on a third
    stream (numcu's own, or another library's stream object, which the arrays' memory moves to
    as to numcu's own): the third waits for both, and the first, writing again, waits for the
    third's reads."""
    a, b, c = (random_array(rng, (N,), np.float32) for _ in range(3))
    s1, s2 = numcu.cuda.Stream(non_blocking=True), numcu.cuda.Stream(non_blocking=True)
    da, db, dc = numcu.asarray(a), numcu.asarray(b), numcu.asarray(c)
    for stream, d in ((s1, da), (s2, db), (s1, dc)):
        for _ in range(10):  # long queues that the third stream must wait for
            numcu.multiply(d, 1.0, out=d, stream=stream)
        numcu.add(d, 1.0, out=d, stream=stream)
    if third == "numcu":
        s3 = numcu.cuda.Stream(non_blocking=True)
    elif third == "cupy":
        s3 = import_or_skip("cupy").cuda.Stream(non_blocking=True)
    else:
        s3 = import_or_skip("torch").cuda.Stream()
    r = numcu.add(numcu.add(da, db, stream=s3), dc, stream=s3)
    numcu.multiply(da, 0.0, out=da, stream=s1)  # after s3 has read da
    numcu.multiply(dc, 0.0, out=dc, stream=s1)

    assert_matches(r.get(), (a + 1.0) + (b + 1.0) + (c + 1.0))
    assert not np.any(dc.get())


@pytest.mark.parametrize("how", ["setitem_scalar", "setitem_array", "fill"])
def test_item_assignment_is_ordered_after_other_streams(how, rng):
    """Assignment runs on the current stream, after the work other streams queued on both the
    target and the source (here a long queue on a non-blocking stream)."""
    a = random_array(rng, (N,), np.float32)
    b = random_array(rng, (16,), np.float32)
    side = numcu.cuda.Stream(non_blocking=True)
    with side:
        r = numcu.multiply(numcu.asarray(a), 2.0)
        source = numcu.asarray(b)
        for _ in range(20):
            numcu.multiply(r, 1.0, out=r)
            numcu.multiply(source, 1.0, out=source)
    expected = a * 2.0
    if how == "setitem_scalar":
        r[:16] = 7.0
        expected[:16] = 7.0
    elif how == "setitem_array":
        r[:16] = source
        del source  # its memory goes back to the pool only after the copy has read it
        expected[:16] = b
    else:
        r.fill(3.0)
        expected[:] = 3.0
    with side:  # and work back on the side stream comes after the assignment
        numcu.add(r, 1.0, out=r)

    assert_matches(r.get(), expected + 1.0)


def test_cupy_default_stream_producer_is_joined_by_a_non_blocking_stream(rng):
    """CuPy's default stream is the legacy one (1 in its interface): numcu's work on a
    non-blocking stream, which CUDA does not order with it, waits for CuPy's queued work."""
    cp = import_or_skip("cupy")
    a = random_array(rng, (N,), np.float32)
    x = cp.asarray(a)
    for _ in range(20):  # a long queue on CuPy's default stream
        x *= 1.0
    x += 1.0
    s = numcu.cuda.Stream(non_blocking=True)

    r = numcu.add(x, 1.0, stream=s)

    assert_matches(r.get(), a + 2.0)


def test_torch_side_stream_producer_is_joined(rng):
    torch = import_or_skip("torch")
    a = random_array(rng, (N,), np.float32)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x = torch.from_numpy(a).cuda()
        for _ in range(20):
            x = x * 1.0
        x = x + 1.0

        r = numcu.add(x, 1.0)  # CAI v3 carries the side stream: numcu waits for it

    assert_matches(r.get(), a + 2.0)


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_each_call_joins_the_producers_stream_of_its_time(library, rng):
    """A producer's current stream is read once a call for all its operands (CuPy's attributes,
    PyTorch's exchange table): after a call made on one of the producer's streams, a call made
    on another joins that other one, for every operand. numcu works on a non-blocking stream
    of its own, which CUDA orders with neither."""
    lib = import_or_skip(library)
    a = random_array(rng, (N,), np.float32)
    mine = numcu.cuda.Stream(non_blocking=True)
    if library == "cupy":
        first, second = lib.cuda.Stream(non_blocking=True), lib.cuda.Stream(non_blocking=True)
        x, y = lib.asarray(a), lib.asarray(a)
        lib.cuda.Device().synchronize()
        on = lambda stream: stream  # noqa: E731
    else:
        first, second = lib.cuda.Stream(), lib.cuda.Stream()
        x, y = lib.from_numpy(a).cuda(), lib.from_numpy(a).cuda()
        lib.cuda.synchronize()
        on = lib.cuda.stream
    with on(first):
        numcu.add(x, y, stream=mine)
    mine.synchronize()
    with on(second):
        for _ in range(20):  # a long queue on the second stream
            x *= 1.0
            y *= 1.0
        x += 1.0
        y += 2.0

        r = numcu.add(x, y, stream=mine)

    assert_matches(r.get(), 2 * a + 3.0)


def _library_stream(library):
    """A stream of `library` that owns its CUDA stream, and that stream's handle."""
    lib = import_or_skip(library)
    if library == "cupy":
        stream = lib.cuda.Stream(non_blocking=True)
        return stream, stream.ptr
    stream = lib.cuda.Stream()
    return stream, stream.cuda_stream


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_another_librarys_stream_object_becomes_the_home_of_memory_used_on_it(library, rng):
    """Memory used on a CuPy or PyTorch Stream object makes that stream its home, as numcu's own
    streams do: the next call there waits for nothing, the object is held while memory lives
    there (its stream outlives the memory freed on it) and let go when the memory moves on, and
    work on another stream still waits for the work queued there."""
    a, b = random_array(rng, (N,), np.float32), random_array(rng, (N,), np.float32)
    stream, handle = _library_stream(library)
    refs = sys.getrefcount(stream)
    da, db = numcu.asarray(a), numcu.asarray(b)

    for _ in range(20):  # a long queue on the other library's stream
        numcu.multiply(da, 1.0, out=da, stream=stream)
    numcu.add(da, 1.0, out=da, stream=stream)
    r = numcu.add(da, db, stream=stream)

    assert da.__cuda_array_interface__["stream"] == handle
    assert r.__cuda_array_interface__["stream"] == handle
    assert db.__cuda_array_interface__["stream"] == handle
    assert sys.getrefcount(stream) == refs + 1  # one keeper, shared by the three arrays
    del stream
    gc.collect()
    s = numcu.add(r, da)  # on the legacy stream: waits for the queue, and the arrays move there
    assert s.__cuda_array_interface__["stream"] == 1
    assert da.__cuda_array_interface__["stream"] == 1
    del r, db  # freed on the other library's stream, which the keeper kept alive
    assert_matches(s.get(), ((a + 1.0) + b) + (a + 1.0))
    numcu.cuda.synchronize()


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_a_stream_object_lets_go_when_its_memory_moves_on(library, rng):
    stream, _ = _library_stream(library)
    refs = sys.getrefcount(stream)
    da = numcu.asarray(random_array(rng, (1000,), np.float32))

    numcu.add(da, 1.0, out=da, stream=stream)
    assert sys.getrefcount(stream) == refs + 1
    numcu.add(da, 1.0, out=da)  # back on the legacy stream
    assert sys.getrefcount(stream) == refs
    numcu.add(da, 1.0, out=da, stream=stream)
    del da
    assert sys.getrefcount(stream) == refs


@pytest.mark.parametrize("library", ["cupy", "torch"])
@pytest.mark.parametrize("form", ["handle", "external", "wrapped"])
def test_streams_numcu_cannot_keep_alive_are_not_made_homes(library, form, rng):
    """A bare handle, or another library's stream object wrapping a stream it did not make
    (ExternalStream; CuPy's Stream.from_external and a PyTorch Stream made from a handle, both of
    the plain Stream type), may name a stream its owner destroys: memory used on it keeps the
    legacy default stream as its home, and the call hands it back there, so that the result is
    still ordered after the work."""
    lib = import_or_skip(library)
    owner, handle = _library_stream(library)
    if form == "handle":
        stream = handle
    elif form == "external":
        with warnings.catch_warnings():  # CuPy 14 deprecates ExternalStream for from_external
            warnings.simplefilter("ignore", DeprecationWarning)
            stream = lib.cuda.ExternalStream(handle)
    elif library == "torch":
        stream = lib.cuda.Stream(stream_ptr=handle)
        assert type(stream) is lib.cuda.Stream
    elif hasattr(lib.cuda.Stream, "from_external"):
        stream = lib.cuda.Stream.from_external(numcu.cuda.Stream(ptr=handle))
        assert type(stream) is lib.cuda.Stream
    else:
        pytest.skip("this CuPy has no Stream.from_external")
    a = random_array(rng, (N,), np.float32)
    da = numcu.asarray(a)

    for _ in range(20):
        numcu.multiply(da, 1.0, out=da, stream=stream)
    numcu.add(da, 1.0, out=da, stream=stream)

    assert da.__cuda_array_interface__["stream"] == 1
    r = numcu.multiply(da, 2.0)
    assert_matches(r.get(), 2 * (a + 1.0))
    del owner


def test_events_and_timing(rng):
    da = numcu.asarray(random_array(rng, (N,), np.float32))
    start, end = numcu.cuda.Event(timing=True), numcu.cuda.Event(timing=True)

    start.record()
    numcu.add(da, da)
    end.record()
    end.synchronize()

    assert end.query()
    assert start.elapsed_time(end) >= 0.0


def test_device_context_and_memory_info(rng):
    with numcu.cuda.Device(0) as device:
        d = numcu.asarray(random_array(rng, (1 << 20,), np.float64))
        info = numcu.cuda.memory_info()
        device.synchronize()

    assert info["used_bytes"] >= d.nbytes
    assert info["reserved_bytes"] >= info["used_bytes"]
    del d
    numcu.cuda.release_memory()
    assert numcu.cuda.memory_info()["reserved_bytes"] <= info["reserved_bytes"]


def test_bad_stream():
    with pytest.raises(TypeError, match="numcu.add: stream must be a CUDA stream"):
        numcu.add(numcu.asarray(np.ones(3)), 1.0, stream="fast")


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_a_destroyed_numcu_streams_address_made_again_by_another_library(library, rng):
    """The driver hands a destroyed stream's address to the next stream made: numcu refuses a
    bare integer there (it might be the dead stream), but takes a producer's interface naming
    the new stream and the new stream's object."""
    lib = import_or_skip(library)
    make = (
        (lambda: lib.cuda.Stream(non_blocking=True))
        if library == "cupy"
        else (lambda: lib.cuda.Stream())
    )
    kept = []
    for _ in range(32):
        own = numcu.cuda.Stream(non_blocking=True)
        handle = own.ptr
        del own
        other = make()
        kept.append(other)
        if (other.ptr if library == "cupy" else other.cuda_stream) == handle:
            break
    else:
        pytest.skip("the driver did not make a stream at a destroyed one's address")
    a = random_array(rng, (1000,), np.float64)
    da = numcu.asarray(a)
    with pytest.raises(ValueError, match="has destroyed it since; if another library"):
        numcu.add(da, 2.0, stream=handle)
    view = CAIArray(da, da.__cuda_array_interface__["data"][0], a.shape, a.dtype)
    view._cai["stream"] = handle
    assert_matches(numcu.multiply(view, 3.0).get(), a * 3.0)
    assert_matches(numcu.add(da, 2.0, stream=other).get(), a + 2.0)
    # The address is now known as the other library's stream: its integer passes too.
    assert_matches(numcu.subtract(da, 1.0, stream=handle).get(), a - 1.0)
