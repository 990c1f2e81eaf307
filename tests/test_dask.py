"""numcu with Dask: dask.array over numcu chunks, and distributed moving them between workers.

Two chunk backends: "numpy" (host chunks; numcu's functions run on them per chunk, on the CPU
backend where there is no GPU) and "numcu" (gpu: device chunks, numcu.ndarray from end to end,
Dask's meta included). NumPy on the same random data is the oracle. The distributed tests use
a LocalCluster of two workers (threads; processes on the GPU), which on one GPU share it.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from conftest import assert_matches, gpu_param, random_array

import numcu

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    da = pytest.importorskip("dask.array")
    import dask

BACKENDS = ("numpy", gpu_param("numcu"))
SHAPES_CHUNKS = [((37,), (10,)), ((24, 31), (7, 9)), ((6, 5, 9), (4, 2, 5))]
FLOAT32 = np.dtype(np.float32)


def needs_protocol(backend, name):
    """Dask's NumPy-level calls on numcu chunks need NumPy's protocols on numcu.ndarray (the
    Array API issue): np.sin(x), np.add(x, y) through __array_ufunc__; np.sum,
    np.concatenate and the others through __array_function__."""
    if backend == "numcu" and not hasattr(numcu.ndarray, name):
        pytest.skip(f"numcu.ndarray.{name} is not there yet")


@pytest.fixture(params=BACKENDS)
def chunks_on(request):
    return request.param


@pytest.fixture(autouse=True)
def _synchronous():
    # The local threaded scheduler runs tasks on a pool; one thread keeps CI time small and
    # failures deterministic (the distributed tests use their own clusters).
    with dask.config.set(scheduler="sync"):
        yield


def chunk_type(backend):
    return numcu.ndarray if backend == "numcu" else np.ndarray


def dask_array(host, chunks, backend):
    """`host` as a Dask array whose chunks are `backend`'s arrays."""
    if backend == "numcu":
        x = numcu.asarray(host)
        assert isinstance(x, numcu.ndarray)
        return da.from_array(x, chunks=chunks, asarray=False)
    return da.from_array(host, chunks=chunks)


def block_types(x):
    """The types of x's chunks, each computed on its own."""
    return {type(b) for b in dask.compute(*x.to_delayed().ravel())}


def computed(x, backend):
    """x.compute(), checked to be of the backend's type, as NumPy data."""
    result = x.compute()
    if backend == "numcu":
        assert isinstance(result, numcu.ndarray), type(result)
        return result.get()
    assert isinstance(result, (np.ndarray, np.generic)), type(result)
    return result


# ---------------------------------------------------------------------------------------------
# Registration


def run_python(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_import_numcu_imports_no_dask():
    run_python(
        "import sys, numcu\n"
        "assert 'numcu._dask' not in sys.modules\n"
        "assert not any(m == 'dask' or m.startswith('dask.') for m in sys.modules)\n"
    )


def numcu_entry_point(group):
    """The value of numcu's entry point in `group`, or None (also where numcu's package
    metadata is not installed)."""
    from importlib.metadata import entry_points

    try:
        found = entry_points(group=group)
    except TypeError:  # Python 3.9: a dict of groups
        found = entry_points().get(group, [])
    return {ep.name: ep.value for ep in found}.get("numcu")


def test_entry_points_declared():
    if numcu_entry_point("dask.sizeof") is None:
        pytest.skip("numcu's package metadata is not installed")
    assert numcu_entry_point("dask.sizeof") == "numcu._dask:register_sizeof"
    assert numcu_entry_point("dask.array.backends") == "numcu._dask:array_backend"


def test_registered_by_importing_dask():
    """Importing dask.array and distributed, and nothing else, registers numcu everywhere."""
    pytest.importorskip("distributed")
    run_python(
        "import sys\n"
        "import numcu._dask\n"  # where entry points are not read (an uninstalled source folder)
        "import dask.array, distributed\n"
        "from dask.sizeof import sizeof\n"
        "from dask.tokenize import normalize_token\n"
        "from dask.array import dispatch\n"
        "from distributed.protocol.serialize import dask_serialize, dask_deserialize\n"
        "from distributed.protocol.cuda import cuda_serialize, cuda_deserialize\n"
        "import numcu, numcu._dask as nd\n"
        "nd.register()\n"
        "t = numcu.ndarray\n"
        "assert sizeof.dispatch(t) is nd._sizeof\n"
        "assert normalize_token.dispatch(t) is nd._fresh_token\n"
        "assert dispatch.concatenate_lookup.dispatch(t) is nd._concatenate\n"
        "assert dispatch.numel_lookup.dispatch(t) is nd._numel\n"
        "assert dispatch.nannumel_lookup.dispatch(t) is nd._nannumel\n"
        "assert dispatch.to_numpy_dispatch.dispatch(t) is nd._to_numpy\n"
        "assert dask_serialize.dispatch(t) is nd.dask_serialize\n"
        "assert dask_deserialize.dispatch(t) is nd.dask_deserialize\n"
        "assert cuda_serialize.dispatch(t) is nd.cuda_serialize\n"
        "assert cuda_deserialize.dispatch(t) is nd.cuda_deserialize\n"
        "assert nd._finder not in sys.meta_path\n"
    )


def test_registered_through_entry_point_alone():
    """With numcu installed, plain `import dask.array` is enough (no numcu import first)."""
    if numcu_entry_point("dask.sizeof") is None:
        pytest.skip("numcu's package metadata is not installed")
    run_python(
        "import sys\n"
        "import dask.array\n"
        "assert 'numcu._dask' in sys.modules\n"
        "import numcu\n"
        "from dask.array.dispatch import concatenate_lookup\n"
        "assert concatenate_lookup.dispatch(numcu.ndarray).__module__ == 'numcu._dask'\n"
    )


# ---------------------------------------------------------------------------------------------
# dask.array with numcu chunks


@pytest.mark.parametrize(("shape", "chunks"), SHAPES_CHUNKS)
def test_from_array_keeps_chunks_and_meta(rng, chunks_on, shape, chunks):
    host = random_array(rng, shape, FLOAT32)
    x = dask_array(host, chunks, chunks_on)
    assert type(x._meta) is chunk_type(chunks_on)
    assert x.dtype == FLOAT32
    assert block_types(x) == {chunk_type(chunks_on)}
    assert_matches(computed(x, chunks_on), host)


@pytest.mark.parametrize(("shape", "chunks"), SHAPES_CHUNKS)
def test_elementwise_chain(rng, chunks_on, shape, chunks):
    a, b = random_array(rng, shape, FLOAT32), random_array(rng, shape, FLOAT32)
    x, y = dask_array(a, chunks, chunks_on), dask_array(b, chunks, chunks_on)
    z = (x * 2.5 - y) / (abs(y) + 1) + x**2
    assert type(z._meta) is chunk_type(chunks_on)
    with np.errstate(all="ignore"):
        expected = (a * np.float32(2.5) - b) / (np.abs(b) + np.float32(1)) + a**2
    assert_matches(computed(z, chunks_on), expected)


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_map_blocks_with_numcu_functions(rng, chunks_on, dtype):
    a = random_array(rng, (40, 12), dtype)
    b = random_array(rng, (40, 12), dtype)
    x, y = dask_array(a, (9, 5), chunks_on), dask_array(b, (9, 5), chunks_on)
    z = da.map_blocks(numcu.add, x, y, dtype=a.dtype)
    z = z.map_blocks(numcu.negative, dtype=a.dtype)
    assert_matches(computed(z, chunks_on), -(a + b))
    if np.dtype(dtype).kind == "f":
        s = x.map_blocks(numcu.sin, dtype=a.dtype)
        assert_matches(computed(s, chunks_on), np.sin(a))


@pytest.mark.parametrize("ufunc", [np.sin, np.exp, np.negative, np.sqrt])
def test_numpy_ufuncs_on_dask_array(rng, chunks_on, ufunc):
    needs_protocol(chunks_on, "__array_ufunc__")
    a = np.abs(random_array(rng, (33, 20), FLOAT32))
    x = dask_array(a, (8, 7), chunks_on)
    z = ufunc(x)
    assert type(z._meta) is chunk_type(chunks_on)
    assert_matches(computed(z, chunks_on), ufunc(a))
    b = random_array(rng, (20,), FLOAT32)
    w = np.add(x, dask_array(b, (7,), chunks_on))
    assert_matches(computed(w, chunks_on), a + b)


AXES = [None, 0, 1, -1, (0, 1)]


@pytest.mark.parametrize("name", ["sum", "mean", "min", "max", "std", "argmax"])
@pytest.mark.parametrize("axis", AXES)
def test_reductions(rng, chunks_on, name, axis):
    needs_protocol(chunks_on, "__array_function__")
    if name == "argmax" and isinstance(axis, tuple):
        pytest.skip("argmax takes one axis")
    a = random_array(rng, (23, 17, 5), np.float64)
    x = dask_array(a, (6, 5, 2), chunks_on)
    z = getattr(da, name)(x, axis=axis)
    assert_matches(
        np.asarray(computed(z, chunks_on)), np.asarray(getattr(np, name)(a, axis=axis)), rtol=1e-10
    )


@pytest.mark.parametrize("name", ["sum", "min", "max"])
@pytest.mark.parametrize("axis", AXES)
def test_tree_reduction_with_numcu_functions(rng, chunks_on, name, axis):
    """Dask's tree reduction with numcu's reductions as chunk and aggregate steps."""
    a = random_array(rng, (23, 17, 5), np.float32)
    x = dask_array(a, (6, 5, 2), chunks_on)
    fn = getattr(numcu, name)
    z = da.reduction(
        x, fn, fn, axis=axis, dtype=a.dtype, split_every=2, concatenate=True, meta=x._meta
    )
    expected = getattr(np, name)(a, axis=axis)
    assert_matches(np.asarray(computed(z, chunks_on)), np.asarray(expected), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("new_chunks", [(5, 40), (40, 3), (11, 13)])
def test_rechunk(rng, chunks_on, new_chunks):
    a = random_array(rng, (40, 40), np.int16)
    x = dask_array(a, (7, 9), chunks_on).rechunk(new_chunks)
    assert x.chunks[0][0] == new_chunks[0] and x.chunks[1][0] == new_chunks[1]
    assert block_types(x) == {chunk_type(chunks_on)}
    assert_matches(computed(x, chunks_on), a)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concatenate(rng, chunks_on, axis):
    a, b = random_array(rng, (12, 10), np.float32), random_array(rng, (12, 10), np.float32)
    z = da.concatenate(
        [dask_array(a, (5, 4), chunks_on), dask_array(b, (3, 6), chunks_on)], axis=axis
    )
    assert block_types(z) == {chunk_type(chunks_on)}
    assert_matches(computed(z, chunks_on), np.concatenate([a, b], axis=axis))
    # Joined into one chunk: Dask's concatenate dispatch on numcu's chunks.
    one = z.rechunk(z.shape)
    assert block_types(one) == {chunk_type(chunks_on)}
    assert_matches(computed(one, chunks_on), np.concatenate([a, b], axis=axis))


def test_map_blocks_asnumpy_brings_it_home(rng, chunks_on):
    a = random_array(rng, (30, 8), np.float64)
    x = dask_array(a, (7, 8), chunks_on)
    home = (x + 1).map_blocks(numcu.asnumpy, meta=np.empty((0, 0), np.float64))
    result = home.compute()
    assert type(result) is np.ndarray
    assert_matches(result, a + 1)


def test_numcu_array_backend(rng):
    """dask.array's creation functions under the "numcu" backend (the dask.array.backends entry
    point): numcu chunks where there is a GPU, NumPy's without one."""
    if numcu_entry_point("dask.array.backends") is None:
        pytest.skip("numcu's package metadata is not installed")
    want = numcu.ndarray if numcu.cuda.is_available() else np.ndarray
    backend = "numcu" if want is numcu.ndarray else "numpy"
    with dask.config.set({"array.backend": "numcu"}):
        made = {
            "ones": (da.ones((10, 4), chunks=(3, 4), dtype=np.float32), np.ones((10, 4), "f4")),
            "zeros": (da.zeros((7,), chunks=2, dtype=np.int16), np.zeros(7, np.int16)),
            "full": (da.full((5, 3), 2.5, chunks=2), np.full((5, 3), 2.5)),
            "arange": (da.arange(3, 40, 4, chunks=4), np.arange(3, 40, 4)),
        }
    for name, (x, expected) in made.items():
        assert type(x._meta) is want, name
        assert_matches(computed(x, backend), expected)
    a = random_array(rng, (12, 5), np.float64)
    moved = da.from_array(a, chunks=(5, 5)).to_backend("numcu")
    assert type(moved._meta) is want
    assert_matches(computed(moved, backend), a)


# ---------------------------------------------------------------------------------------------
# The registered functions themselves (device arrays)


@pytest.mark.gpu
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_numel_and_nannumel(rng, axis, keepdims):
    from dask.array.dispatch import nannumel_lookup, numel_lookup

    a = random_array(rng, (7, 6), np.float64)
    a[rng.random(a.shape) < 0.3] = np.nan
    x = numcu.asarray(a)
    n = numel_lookup(x, axis=axis, keepdims=keepdims, dtype=np.float64)
    expected = np.sum(np.ones_like(a), axis=axis, keepdims=keepdims)
    got = n.get() if isinstance(n, numcu.ndarray) else n
    assert_matches(np.asarray(got), np.asarray(expected))
    nn = nannumel_lookup(x, axis=axis, keepdims=keepdims)
    got = nn.get() if isinstance(nn, numcu.ndarray) else nn
    assert_matches(
        np.asarray(got),
        np.asarray(np.sum(~np.isnan(a), axis=axis, keepdims=keepdims, dtype=np.float64)),
    )


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["sum", "mean", "min", "max", "argmax", "std", "var", "prod"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reduction_methods(rng, name, axis):
    """NumPy's methods, which Dask's reductions call on chunks (std combines with .sum)."""
    a = random_array(rng, (9, 13), np.float64)
    x = numcu.asarray(a)
    got = getattr(x, name)(axis=axis)
    expected = getattr(a, name)(axis=axis)
    got = got.get()[()] if isinstance(got, numcu.ndarray) and got.ndim == 0 else got
    got = got.get() if isinstance(got, numcu.ndarray) else got
    assert_matches(np.asarray(got), np.asarray(expected), rtol=1e-10)
    if name in ("sum", "max"):
        kept = getattr(x, name)(axis=axis, keepdims=True)
        assert_matches(kept.get(), getattr(a, name)(axis=axis, keepdims=True), rtol=1e-10)


@pytest.mark.gpu
def test_sizeof_and_tokenize():
    from dask.sizeof import sizeof
    from dask.tokenize import tokenize

    x = numcu.empty((1000, 3), np.float64)
    assert sizeof(x) == 24000
    # A fresh token per call: no copy to the host, and never one another array could share.
    assert tokenize(x) != tokenize(x)


LAYOUTS = ["c", "f", "strided"]


def device_array_in(a, layout):
    x = numcu.asarray(a)
    if layout == "f":
        return x.T.copy().T
    if layout == "strided":
        return x[::2, ::-1]
    return x


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("family", ["dask", "cuda"])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float16", "complex128"])
def test_serialization_round_trip(rng, family, layout, dtype):
    protocol = pytest.importorskip("distributed.protocol")
    a = random_array(rng, (9, 14), dtype)
    x = device_array_in(a, layout)
    expected = {"c": a, "f": a, "strided": a[::2, ::-1]}[layout]
    header, frames = protocol.serialize(x, serializers=(family,), on_error="raise")
    assert header["serializer"] == family
    if family == "cuda":
        assert all(hasattr(f, "__cuda_array_interface__") for f in frames)
    else:
        assert all(isinstance(f, (memoryview, bytes, bytearray)) for f in frames)
    y = protocol.deserialize(header, frames)
    assert isinstance(y, numcu.ndarray)
    assert_matches(y.get(), expected)


@pytest.mark.gpu
def test_cuda_family_from_foreign_device_buffer(rng):
    """A transport that hands back its own device buffer (UCX: a byte array of another
    library): the result views it without a copy."""
    protocol = pytest.importorskip("distributed.protocol")
    a = random_array(rng, (5, 6), np.float32)
    header, frames = protocol.serialize(numcu.asarray(a), serializers=("cuda",))

    class ByteBuffer:  # what a receiving transport allocates: raw device bytes
        def __init__(self, owner):
            cai = owner.__cuda_array_interface__
            self.owner = owner
            self.__cuda_array_interface__ = {
                "version": 3,
                "shape": (owner.nbytes,),
                "typestr": "|u1",
                "data": cai["data"],
                "strides": None,
                "stream": None,
            }

    received = ByteBuffer(frames[0].copy())
    y = protocol.deserialize(header, [received])
    assert isinstance(y, numcu.ndarray)
    assert y.data_ptr == received.__cuda_array_interface__["data"][0]
    assert_matches(y.get(), a)


@pytest.mark.gpu
@pytest.mark.parametrize("protocol", [2, 5])
def test_pickle_round_trip(rng, protocol):
    a = random_array(rng, (4, 7), np.complex64)
    y = pickle.loads(pickle.dumps(numcu.asarray(a)[:, 1:], protocol=protocol))
    assert isinstance(y, numcu.ndarray)
    assert_matches(y.get(), a[:, 1:])


# ---------------------------------------------------------------------------------------------
# distributed: several workers (on one GPU, sharing it)


def _worker_registration():
    from distributed.protocol.serialize import dask_serialize

    import numcu as nc
    import numcu._dask as nd

    return dask_serialize.dispatch(nc.ndarray) is nd.dask_serialize


def _count_serializations():
    from distributed.protocol.serialize import dask_serialize

    import numcu as nc
    import numcu._dask as nd

    calls = nd.__dict__.setdefault("_test_calls", [])

    def counting(x):
        calls.append(x.nbytes)
        return nd.dask_serialize(x)

    dask_serialize.register(nc.ndarray, counting)


def _serializations():
    import numcu._dask as nd

    return len(nd.__dict__.get("_test_calls", []))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("processes", [False, gpu_param(True, id="processes")])
def test_local_cluster(rng, processes, tmp_path):
    distributed = pytest.importorskip("distributed")
    backend = "numcu" if numcu.cuda.is_available() else "numpy"
    a = random_array(rng, (64, 48), np.float32)
    b = random_array(rng, (64, 48), np.float32)
    with (
        dask.config.set(scheduler=None),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=None,
            worker_dashboard_address=None,
            # The test's own scratch folder: the shared default one is locked and swept by every
            # cluster starting on the machine, which under parallel test workers took over 20 s.
            local_directory=str(tmp_path),
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert all(client.run(_worker_registration).values())
        if processes and backend == "numcu":
            client.run(_count_serializations)
        # Chunks made on the workers (the numcu ones on their GPU) and, for the graph-borne
        # input, pickled with it.
        x = da.from_array(a, chunks=(16, 12)).map_blocks(
            numcu.asarray if backend == "numcu" else np.asarray, dtype=a.dtype
        )
        y = dask_array(b, (16, 12), backend)
        chain = (x * 2 - y) * x + 1
        total = da.reduction(
            chain,
            numcu.sum,
            numcu.sum,
            axis=0,
            dtype=a.dtype,
            split_every=2,
            concatenate=True,
            meta=chain._meta,
        )
        # Each worker holds some chunks: the reduction's combine steps fetch the others'.
        z, t = client.compute([chain, total], sync=True)
        expected = (a * 2 - b) * a + 1
        for got, want in ((z, expected), (t, expected.sum(axis=0))):
            if backend == "numcu":
                assert isinstance(got, numcu.ndarray)
                got = got.get()
            assert_matches(got, want, rtol=1e-5, atol=1e-3)
        if processes:
            moved = client.run(lambda dask_worker: dask_worker.transfer_outgoing_count_total)
            assert sum(moved.values()) > 0, moved
            if backend == "numcu":
                # Device chunks sent by the workers went through numcu's serializer.
                assert sum(client.run(_serializations).values()) > 0
