"""numcu.ndarray as a chunk type of dask.array and a message type of distributed.

``import numcu`` never imports this module, and nothing here imports Dask at module level.
Dask finds it through the entry points in numcu's package metadata:

- ``dask.sizeof``, which Dask loads while ``import dask`` runs: :func:`register_sizeof` gives
  dask.sizeof the device bytes of numcu arrays, and arranges for the rest of the registration
  to happen as soon as ``dask.array`` or ``distributed``'s serialization is imported (a
  registration there and then would import them in the middle of ``import dask``).
- ``dask.array.backends``, which Dask loads when asked for it by name:
  ``dask.config.set({"array.backend": "numcu"})`` makes dask.array's ``ones``, ``zeros``,
  ``empty``, ``full`` and ``arange`` build numcu chunks, and ``x.to_backend("numcu")`` moves a
  Dask array's chunks to the GPU.

What is registered (dask.array's tables the first time they meet a numcu array):

- dask's tokens (a device array is never copied to compute one).
- dask.array: ``concatenate`` (rechunk, reductions' combine steps, ``da.concatenate``'s
  computation), ``numel``/``nannumel`` (``mean``, ``var``, ``std``), ``empty``, ``take``,
  ``tensordot``, ``percentile``, and the conversions to NumPy and CuPy chunks.
- distributed's ``cuda`` serialization family: a device array travels as one device buffer
  (a transport such as UCX moves it GPU to GPU) and arrives as a numcu array viewing that
  buffer; the ``dask`` family (TCP and the other host transports): the bytes are staged
  through host memory and arrive on the receiving worker's current GPU.

Without a GPU (or in a CPU-only build) numcu makes NumPy arrays, so Dask's NumPy support does
all the work and numcu's functions still run per chunk on the CPU backend.
"""

from __future__ import annotations

import functools
import importlib.abc
import sys
import threading
import uuid

import numpy as np

from . import _array_api
from ._load import load_core

_core = load_core()
ndarray = _core.ndarray

__all__ = ["array_backend", "register", "register_sizeof"]


def _sizeof(x):
    # Dask's memory accounting (spilling, the dashboard) counts the bytes a chunk holds.
    return int(x.nbytes)


def register_sizeof(sizeof):
    """The ``dask.sizeof`` entry point: numcu arrays' sizes, then the rest (see the module)."""
    sizeof.register(ndarray, _sizeof)
    register()


# ---------------------------------------------------------------------------------------------
# Registration once Dask's modules are imported.

# Module -> what registers numcu with it. Each runs once, right after its module has run, or at
# once where the module is already imported.
_AFTER_IMPORT = {}
_lock = threading.Lock()


def _after_import(module_name):
    def decorate(fn):
        _AFTER_IMPORT[module_name] = fn
        return fn

    return decorate


class _RegisteringLoader(importlib.abc.Loader):
    """Runs a module with its own loader, then numcu's registration with that module."""

    def __init__(self, loader, register_with):
        self._loader = loader
        self._register_with = register_with

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._register_with(module)

    def __getattr__(self, name):
        # get_code, get_source, is_package and the rest: the module's own loader answers.
        return getattr(self._loader, name)


class _AfterImportFinder(importlib.abc.MetaPathFinder):
    """Finds nothing itself: hands the modules numcu waits for a loader that registers."""

    def find_spec(self, fullname, path, target=None):
        with _lock:
            register_with = _AFTER_IMPORT.pop(fullname, None)
            if not _AFTER_IMPORT and self in sys.meta_path:
                sys.meta_path.remove(self)
        if register_with is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _RegisteringLoader(spec.loader, register_with)
                return spec
        return None


_finder = _AfterImportFinder()


def register():
    """Register numcu.ndarray with dask.array's dispatch tables and distributed's serializers.

    Runs by itself through Dask's ``dask.sizeof`` entry point wherever numcu is installed;
    call it only where entry points are not read (numcu run from a source folder that was
    never installed). Safe to call more than once.
    """
    now = []
    with _lock:
        for name in list(_AFTER_IMPORT):
            if name in sys.modules:
                now.append((_AFTER_IMPORT.pop(name), sys.modules[name]))
        if _AFTER_IMPORT and _finder not in sys.meta_path:
            sys.meta_path.insert(0, _finder)
    for register_with, module in now:
        register_with(module)


@_after_import("dask.sizeof")
def _register_sizeof(sizeof_module):
    sizeof_module.sizeof.register(ndarray, _sizeof)


@_after_import("dask.tokenize")
def _register_tokenize(tokenize):
    # Dask's default tokenizes an object by pickling it three times, which for a device array
    # is three copies to the host and back. A token from the bytes would still be one copy;
    # one from the address could be reused by a later array at that address. A fresh token per
    # call is safe: the same array wrapped twice gives two names, as Dask does for any object
    # it cannot hash.
    tokenize.normalize_token.register(ndarray, _fresh_token)


def _fresh_token(x):
    return "numcu.ndarray", uuid.uuid4().hex


@_after_import("dask.array.dispatch")
def _register_dask_array(dispatch):
    # Lazily, by numcu's top-level name: the functions below import dask.array, which is still
    # being imported when this runs.
    for table in (
        "concatenate_lookup",
        "take_lookup",
        "tensordot_lookup",
        "empty_lookup",
        "percentile_lookup",
        "numel_lookup",
        "nannumel_lookup",
        "to_numpy_dispatch",
    ):
        getattr(dispatch, table).register_lazy("numcu", _fill_dask_array_tables)
    dispatch.to_cupy_dispatch.register_lazy("numcu", _fill_dask_array_tables)


def _fill_dask_array_tables():
    from dask.array import dispatch
    from dask.array.backends import percentile

    dispatch.concatenate_lookup.register(ndarray, _concatenate)
    dispatch.empty_lookup.register(ndarray, _core.empty)
    dispatch.numel_lookup.register(ndarray, _numel)
    dispatch.nannumel_lookup.register(ndarray, _nannumel)
    dispatch.percentile_lookup.register(ndarray, percentile)
    dispatch.to_numpy_dispatch.register(ndarray, _to_numpy)
    dispatch.to_cupy_dispatch.register(ndarray, _to_cupy)
    dispatch.take_lookup.register(ndarray, _take)
    dispatch.tensordot_lookup.register(ndarray, _tensordot)


def _concatenate(arrays, axis=0):
    return _array_api.concat(list(arrays), axis=axis)


def _normalize_axis(axis, ndim, fname):
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim, f"numcu.{fname}")
    return axis % ndim


def _take(a, indices, axis=0):
    return _array_api.take(a, indices, axis=axis)


def _tensordot(a, b, axes=2):
    return _array_api.tensordot(a, b, axes=axes)


def _numel(x, **kwargs):
    """Element counts of a reduction over ``axis``, as a numcu array on x's device."""
    shape = x.shape
    keepdims = kwargs.get("keepdims", False)
    axis = kwargs.get("axis")
    dtype = kwargs.get("dtype", np.float64)
    if axis is None:
        axes = range(len(shape))
    elif isinstance(axis, (tuple, list)):
        axes = [_normalize_axis(a, len(shape), "numel") for a in axis]
    else:
        axes = [_normalize_axis(axis, len(shape), "numel")]
    count = 1
    for d in axes:
        count *= shape[d]
    if axis is None and not keepdims:
        # A NumPy scalar, as Dask's own numel gives for a full reduction.
        return np.asarray(count, dtype=dtype)[()]
    if keepdims:
        out_shape = tuple(1 if d in axes else n for d, n in enumerate(shape))
    else:
        out_shape = tuple(n for d, n in enumerate(shape) if d not in axes)
    return _core.full(out_shape, count, dtype=dtype, device=x.device)


def _nannumel(x, **kwargs):
    """Counts of the non-NaN elements of a reduction over ``axis``, on x's device."""
    dtype = kwargs.pop("dtype", np.float64)
    return _core.sum(_core.logical_not(_core.isnan(x)), dtype=dtype, **kwargs)


def _to_numpy(x, **kwargs):
    return _core.asnumpy(x, **kwargs)


def _to_cupy(x, **kwargs):
    import cupy

    # A view through __cuda_array_interface__: no copy.
    return cupy.asarray(x, **kwargs)


# ---------------------------------------------------------------------------------------------
# distributed: the "cuda" and "dask" serialization families (pickling is numcu/_pickle.py's).


class _DeviceBuffer:
    """A received device frame shown to numcu.asarray as an array of `typestr` and `shape`.

    Holds the frame, so that the numcu array viewing its memory keeps it alive.
    """

    def __init__(self, frame, typestr, shape):
        cai = frame.__cuda_array_interface__
        self._frame = frame
        self.__cuda_array_interface__ = {
            "version": 3,
            "data": (cai["data"][0], False),
            "typestr": typestr,
            "shape": tuple(shape),
            "strides": None,
            # The frame's producer stream, so that numcu orders its work after the transfer.
            "stream": cai.get("stream"),
        }


def _header(x):
    # Frames always hold C-ordered bytes: Dask's chunks are C-ordered, and any other layout is
    # gathered once on the sending side.
    return {"typestr": x.dtype.str, "shape": tuple(x.shape)}


def _c_ordered(x):
    return x if x.flags["C_CONTIGUOUS"] else x.copy()


def cuda_serialize(x):
    """distributed's ``cuda`` family: the array's bytes as one device buffer."""
    x = _c_ordered(x)
    # The frame is a flat view of the array (its __cuda_array_interface__ says where the bytes
    # are and its nbytes how many); the header carries dtype and shape.
    return _header(x), [x.reshape(-1)]


def cuda_deserialize(header, frames):
    typestr, shape = header["typestr"], tuple(header["shape"])
    if len(frames) != 1 or not hasattr(frames[0], "__cuda_array_interface__"):
        # A transport that delivered host memory after all.
        return dask_deserialize(header, frames)
    (frame,) = frames
    if isinstance(frame, ndarray) and frame.dtype.str == typestr:
        # Delivered as sent (in-process transports).
        return frame.reshape(shape)
    return _core.asarray(_DeviceBuffer(frame, typestr, shape))


def dask_serialize(x):
    """distributed's ``dask`` family: the bytes staged through host memory, one frame."""
    host = _core.asnumpy(x)  # C-ordered
    return _header(x), [memoryview(host.reshape(-1)).cast("B")]


def dask_deserialize(header, frames):
    data = frames[0] if len(frames) == 1 else b"".join(memoryview(f).cast("B") for f in frames)
    host = np.frombuffer(data, dtype=np.dtype(header["typestr"]))
    # Onto the receiving worker's current GPU.
    return _core.asarray(host.reshape(tuple(header["shape"])))


@_after_import("distributed.protocol.serialize")
def _register_dask_family(serialize):
    serialize.dask_serialize.register(ndarray, dask_serialize)
    serialize.dask_deserialize.register(ndarray, dask_deserialize)


@_after_import("distributed.protocol.cuda")
def _register_cuda_family(cuda):
    cuda.cuda_serialize.register(ndarray, cuda_serialize)
    cuda.cuda_deserialize.register(ndarray, cuda_deserialize)


# ---------------------------------------------------------------------------------------------
# dask.array's "numcu" backend.


def array_backend():
    """The ``dask.array.backends`` entry point: dask.array's creation functions on numcu."""
    import dask.array as da
    from dask import config
    from dask.array.backends import ArrayBackendEntrypoint
    from dask.array.utils import meta_from_array

    register()

    def with_numcu_meta(name, *args, meta=None, **kwargs):
        meta = _core.empty(()) if meta is None else meta
        with config.set({"array.backend": "numpy"}):
            return getattr(da, name)(*args, meta=meta, **kwargs)

    class NumcuBackendEntrypoint(ArrayBackendEntrypoint):
        @classmethod
        def to_backend_dispatch(cls):
            return _core.asarray

        @classmethod
        def to_backend(cls, data, **kwargs):
            if isinstance(meta_from_array(data), ndarray):
                return data
            return data.map_blocks(_core.asarray, meta=_core.empty((0,) * data.ndim), **kwargs)

        @property
        def RandomState(self):
            raise NotImplementedError(
                "numcu has no random number generators: use the numpy "
                "backend and x.to_backend('numcu')"
            )

        @property
        def default_bit_generator(self):
            return self.RandomState

        @staticmethod
        def arange(*args, like=None, **kwargs):
            like = _core.empty(()) if like is None else like
            with config.set({"array.backend": "numpy"}):
                return da.arange(*args, like=like, **kwargs)

    # ones, zeros, empty and full: dask.array's own, with numcu chunks as their meta.
    for name in ("ones", "zeros", "empty", "full"):
        creator = staticmethod(functools.partial(with_numcu_meta, name))
        setattr(NumcuBackendEntrypoint, name, creator)
    return NumcuBackendEntrypoint()
