"""
CUDA devices: availability, synchronisation, and the exceptions GPU work raises.
"""
from __future__ import annotations
from numcu._core import cuda as _cuda
from numcu._core.cuda import Device
from numcu._core.cuda import Event
from numcu._core.cuda import Stream
from numcu._core.cuda import current_stream
from numcu._core.cuda import device_count
from numcu._core.cuda import is_available
from numcu._core.cuda import memory_info
from numcu._core.cuda import memory_kind
from numcu._core.cuda import release_memory
from numcu._core.cuda import synchronize
from numcu._core.cuda import unavailable_reason
from numcu._load import load_core
__all__: list[str] = ['CUDAError', 'CUDAUnavailableError', 'Device', 'Event', 'OutOfMemoryError', 'Stream', 'current_stream', 'device_count', 'is_available', 'memory_info', 'memory_kind', 'release_memory', 'synchronize', 'unavailable_reason']
class CUDAError(RuntimeError):
    """
    A CUDA call failed (the message names it).
    """
class OutOfMemoryError(MemoryError):
    """
    The device is out of memory; `nbytes` is the size asked for. Later calls still work.
    """
class CUDAUnavailableError(RuntimeError):
    """
    A GPU was asked for, but there is none (no device, no driver, or a CPU-only build).
    """
