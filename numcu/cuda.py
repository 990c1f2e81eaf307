"""CUDA devices: availability, synchronisation, and the exceptions GPU work raises."""

from ._load import load_core

_cuda = load_core().cuda

is_available = _cuda.is_available
device_count = _cuda.device_count
synchronize = _cuda.synchronize
unavailable_reason = _cuda.unavailable_reason
Device = _cuda.Device
Stream = _cuda.Stream
Event = _cuda.Event
current_stream = _cuda.current_stream
memory_info = _cuda.memory_info
memory_kind = _cuda.memory_kind
release_memory = _cuda.release_memory
CUDAError = _cuda.CUDAError
OutOfMemoryError = _cuda.OutOfMemoryError
CUDAUnavailableError = _cuda.CUDAUnavailableError

__all__ = [
    "CUDAError",
    "CUDAUnavailableError",
    "Device",
    "Event",
    "OutOfMemoryError",
    "Stream",
    "current_stream",
    "device_count",
    "is_available",
    "memory_info",
    "memory_kind",
    "release_memory",
    "synchronize",
    "unavailable_reason",
]
