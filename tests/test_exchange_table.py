"""numcu.ndarray's own DLPack C exchange table (type(x).__dlpack_c_exchange_api__, DLPack 1.3),
called the way a C consumer calls it: through the capsule's function pointers (here by ctypes).

- The table is published: a capsule named "dlpack_exchange_api" holding version 1.3, no older
  table, and all five functions (checked without a GPU too).
- Misuse is a Python error, never a crash: objects that are not numcu arrays, a null tensor, a
  null output, a prototype of another device (the allocator reports through set_error).
- On the GPU: the non-owning view and the owning export describe the array as its
  __cuda_array_interface__ does (data, device, dtype, shape, strides in elements), views
  included; an export taken back in (managed_tensor_to_py_object_no_sync) is a numcu.ndarray on
  the same memory; the allocator makes an array of the prototype's dtype and shape; the current
  work stream is numcu's current stream; and numcu's own intake through the table reads what
  its numcu route reads.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from conftest import random_array
from dlpack_ctypes import (
    CPU,
    CUDA,
    DL_CODES,
    DLDataType,
    DLDevice,
    DLManagedTensorVersioned,
    DLPackVersion,
    DLTensor,
)

import numcu


class Header(ctypes.Structure):
    pass


Header._fields_ = [("version", DLPackVersion), ("prev_api", ctypes.POINTER(Header))]


class ExchangeAPI(ctypes.Structure):
    _fields_ = [
        ("header", Header),
        ("managed_tensor_allocator", ctypes.c_void_p),
        ("managed_tensor_from_py_object_no_sync", ctypes.c_void_p),
        ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
        ("dltensor_from_py_object_no_sync", ctypes.c_void_p),
        ("current_work_stream", ctypes.c_void_p),
    ]


SET_ERROR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
TENSOR_OUT = ctypes.POINTER(ctypes.POINTER(DLManagedTensorVersioned))
# The allocator takes the GIL itself and reports through set_error; the others need the GIL and
# report a Python error, which PYFUNCTYPE raises.
ALLOCATOR = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(DLTensor), TENSOR_OUT, ctypes.c_void_p, SET_ERROR
)
FROM_OBJECT = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, TENSOR_OUT)
TO_OBJECT = ctypes.PYFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(DLManagedTensorVersioned), ctypes.POINTER(ctypes.c_void_p)
)
VIEW = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(DLTensor))
STREAM = ctypes.PYFUNCTYPE(
    ctypes.c_int, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)
)


class Table:
    """The table behind numcu.ndarray's capsule, its functions callable."""

    def __init__(self) -> None:
        capsule = numcu.ndarray.__dlpack_c_exchange_api__
        is_valid = ctypes.pythonapi.PyCapsule_IsValid
        is_valid.argtypes, is_valid.restype = [ctypes.py_object, ctypes.c_char_p], ctypes.c_int
        assert is_valid(capsule, b"dlpack_exchange_api") == 1
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.argtypes, get.restype = [ctypes.py_object, ctypes.c_char_p], ctypes.c_void_p
        self.capsule = capsule  # the table lives as long as the process; the capsule too
        self.api = ctypes.cast(get(capsule, b"dlpack_exchange_api"), ctypes.POINTER(ExchangeAPI))[0]
        self.allocate = ALLOCATOR(self.api.managed_tensor_allocator)
        self.export = FROM_OBJECT(self.api.managed_tensor_from_py_object_no_sync)
        self.take = TO_OBJECT(self.api.managed_tensor_to_py_object_no_sync)
        self.view = VIEW(self.api.dltensor_from_py_object_no_sync)
        self.stream = STREAM(self.api.current_work_stream)

    def to_object(self, tensor):
        """managed_tensor_to_py_object_no_sync: the new reference it gives, as a Python object."""
        out = ctypes.c_void_p()
        assert self.take(tensor, ctypes.byref(out)) == 0
        obj = ctypes.cast(out, ctypes.py_object).value  # takes a reference of its own
        decref = ctypes.pythonapi.Py_DecRef
        decref.argtypes, decref.restype = [ctypes.py_object], None
        decref(obj)  # the one the function handed over
        return obj


@pytest.fixture(scope="module")
def table():
    return Table()


def test_the_table_is_published(table):
    header = table.api.header
    assert (header.version.major, header.version.minor) == (1, 3)
    assert not header.prev_api
    for name, _ in ExchangeAPI._fields_[1:]:
        assert getattr(table.api, name), name


def test_misuse_is_a_python_error(table):
    tensor = ctypes.POINTER(DLManagedTensorVersioned)()
    with pytest.raises(TypeError, match="takes a numcu.ndarray, not numpy.ndarray"):
        table.export(np.ones(3), ctypes.byref(tensor))
    with pytest.raises(TypeError, match="takes a numcu.ndarray, not list"):
        table.view([1.0], ctypes.byref(DLTensor()))
    with pytest.raises(ValueError, match="a null tensor"):
        table.take(ctypes.POINTER(DLManagedTensorVersioned)(), ctypes.byref(ctypes.c_void_p()))
    with pytest.raises(ValueError, match="current_work_stream needs an output"):
        table.stream(CUDA, 0, ctypes.POINTER(ctypes.c_void_p)())
    stream = ctypes.c_void_p(12345)
    assert table.stream(CPU, 0, ctypes.byref(stream)) == 0
    assert stream.value is None  # no stream for host memory


def test_the_allocator_reports_through_set_error(table):
    errors = []

    @SET_ERROR
    def set_error(ctx, kind, message):
        errors.append((kind.decode(), message.decode()))

    shape = (ctypes.c_int64 * 1)(4)
    prototype = DLTensor(
        None, DLDevice(CPU, 0), 1, DLDataType(DL_CODES["f"], 32, 1), shape, None, 0
    )
    tensor = ctypes.POINTER(DLManagedTensorVersioned)()
    assert table.allocate(ctypes.byref(prototype), ctypes.byref(tensor), None, set_error) == -1
    assert not tensor
    assert errors and errors[0][0] == "ValueError"
    assert "numcu allocates CUDA memory" in errors[0][1]


def assert_describes(t, x):
    """The DLTensor `t` describes numcu array `x` as x's __cuda_array_interface__ does."""
    cai = x.__cuda_array_interface__
    dtype = np.dtype(x.dtype)
    assert t.data == cai["data"][0] and t.byte_offset == 0
    assert (t.device.device_type, t.device.device_id) == (CUDA, x.device.id)
    assert t.ndim == x.ndim
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (
        DL_CODES[dtype.kind],
        8 * dtype.itemsize,
        1,
    )
    assert tuple(t.shape[d] for d in range(t.ndim)) == x.shape
    strides = cai["strides"]
    if strides is None:  # C-contiguous
        strides = tuple(int(s) for s in np.empty(x.shape, dtype).strides)
    assert t.strides, "numcu always gives strides"
    assert tuple(t.strides[d] for d in range(t.ndim)) == tuple(s // dtype.itemsize for s in strides)


def arrays(rng):
    base = numcu.asarray(random_array(rng, (6, 10), np.float32))
    return {
        "2-d": base,
        "columns": base[:, 1::3],
        "transposed": base.T,
        "0-d": numcu.asarray(np.float64(2.5)),
        "complex64": numcu.asarray(random_array(rng, (5,), np.complex64)),
        "int16 reversed": numcu.asarray(random_array(rng, (7,), np.int16))[::-1],
        "bool": numcu.asarray(random_array(rng, (3, 2), np.bool_)),
    }


@pytest.mark.gpu
def test_view_and_export_describe_the_array(table, rng):
    counts = numcu._core._exchange_counts()
    cases = arrays(rng)
    for name, x in cases.items():
        view = DLTensor()
        assert table.view(x, ctypes.byref(view)) == 0, name
        assert_describes(view, x)
        tensor = ctypes.POINTER(DLManagedTensorVersioned)()
        assert table.export(x, ctypes.byref(tensor)) == 0, name
        assert tensor.contents.version.major == 1
        assert tensor.contents.flags & 1 == 0, "a writable array exports writable"
        assert_describes(tensor.contents.dl_tensor, x)
        # Taken back in: a numcu.ndarray on the same memory, which frees the export when it dies.
        y = table.to_object(tensor)
        assert isinstance(y, numcu.ndarray), name
        assert y.__cuda_array_interface__["data"][0] == x.__cuda_array_interface__["data"][0]
        assert y.shape == x.shape and y.dtype == x.dtype
        np.testing.assert_array_equal(y.get(), x.get())
    after = numcu._core._exchange_counts()
    n = len(cases)
    assert after["views"] - counts["views"] == n
    assert after["exports"] - counts["exports"] == n
    assert after["imports"] - counts["imports"] == n


@pytest.mark.gpu
def test_allocator_makes_the_prototypes_array(table):
    errors = []

    @SET_ERROR
    def set_error(ctx, kind, message):
        errors.append((kind, message))

    shape = (ctypes.c_int64 * 2)(3, 4)
    prototype = DLTensor(
        None, DLDevice(CUDA, 0), 2, DLDataType(DL_CODES["i"], 16, 1), shape, None, 0
    )
    tensor = ctypes.POINTER(DLManagedTensorVersioned)()
    assert table.allocate(ctypes.byref(prototype), ctypes.byref(tensor), None, set_error) == 0
    assert not errors
    y = table.to_object(tensor)
    assert isinstance(y, numcu.ndarray)
    assert y.shape == (3, 4) and y.dtype == np.int16 and y.device.id == 0
    y[...] = 7  # memory numcu can write, which frees it when y dies
    np.testing.assert_array_equal(y.get(), np.full((3, 4), 7, np.int16))


@pytest.mark.gpu
def test_current_work_stream_is_numcus_current_stream(table):
    stream = ctypes.c_void_p()
    with numcu.cuda.Stream(non_blocking=True) as s:
        assert table.stream(CUDA, 0, ctypes.byref(stream)) == 0
        assert (stream.value or 0) == s.ptr
    assert table.stream(CUDA, 0, ctypes.byref(stream)) == 0
    assert (stream.value or 0) == numcu.cuda.current_stream().ptr


@pytest.mark.gpu
def test_intake_through_the_table_reads_what_numcus_route_reads(rng):
    for name, x in arrays(rng).items():
        through_table = numcu._core._intake_info(x, "exchange")
        own = numcu._core._intake_info(x)
        assert own["route"] == "numcu" and through_table["route"] == "exchange", name
        for key in ("data", "shape", "strides", "dtype", "device", "readonly"):
            assert through_table[key] == own[key], (name, key)
