"""CUDA devices: availability, synchronisation, and the exceptions GPU work raises."""

from ._load import load_core

_cuda = load_core().cuda

is_available = _cuda.is_available
device_count = _cuda.device_count
synchronize = _cuda.synchronize
unavailable_reason = _cuda.unavailable_reason
Device = _cuda.Device
CUDAError = _cuda.CUDAError
OutOfMemoryError = _cuda.OutOfMemoryError
CUDAUnavailableError = _cuda.CUDAUnavailableError

__all__ = [
    "CUDAError",
    "CUDAUnavailableError",
    "Device",
    "OutOfMemoryError",
    "device_count",
    "is_available",
    "synchronize",
    "unavailable_reason",
]
