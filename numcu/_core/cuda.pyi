"""
CUDA devices and their errors.
"""
from __future__ import annotations
from numcu.cuda import CUDAError
from numcu.cuda import CUDAUnavailableError
from numcu.cuda import OutOfMemoryError
import typing
__all__: list[str] = ['CUDAError', 'CUDAUnavailableError', 'Device', 'Event', 'OutOfMemoryError', 'Stream', 'current_stream', 'device_count', 'is_available', 'memory_info', 'memory_kind', 'release_memory', 'synchronize', 'unavailable_reason']
class Device:
    """
    A CUDA device, by index.
    """
    def __enter__(self) -> Device:
        ...
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __exit__(self, *args) -> None:
        ...
    def __hash__(self) -> int:
        ...
    def __init__(self, id: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def synchronize(self) -> None:
        ...
    @property
    def id(self) -> int:
        ...
    @property
    def name(self) -> str:
        ...
class Event:
    """
    A CUDA event: mark a point in a stream, wait for it, time between two.
    """
    def __init__(self, timing: bool = False) -> None:
        ...
    def elapsed_time(self, end: Event) -> float:
        """
        Milliseconds from this event to `end` (both made with timing=True).
        """
    def query(self) -> bool:
        """
        Whether the work before the event has finished.
        """
    def record(self, stream: typing.Any = None) -> Event:
        """
        Record on `stream` (the current stream by default).
        """
    def synchronize(self) -> None:
        ...
class Stream:
    """
    A CUDA stream. ``Stream()`` creates one (``non_blocking=True``: not ordered with the legacy
    default stream); ``Stream(ptr=handle)`` wraps another library's. ``with stream:`` makes it
    the current stream of this thread, which every numcu operation queues on unless given
    ``stream=``. It speaks the ``__cuda_stream__`` protocol.
    """
    def __cuda_stream__(self) -> tuple[int, int]:
        ...
    def __enter__(self) -> Stream:
        ...
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __exit__(self, *args) -> None:
        ...
    def __hash__(self) -> int:
        ...
    def __init__(self, non_blocking: bool = False, ptr: typing.Any = None) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def record(self, event: Event = None) -> Event:
        """
        Record an event on this stream and return it.
        """
    def synchronize(self) -> None:
        ...
    def wait_event(self, event: Event) -> None:
        ...
    def wait_stream(self, stream: typing.Any) -> None:
        """
        Order this stream after the work queued on `stream` so far.
        """
    @property
    def ptr(self) -> int:
        """
        The cudaStream_t handle as an int.
        """
def current_stream() -> Stream:
    """
    The stream numcu queues work on in this thread (the legacy default stream, ptr 0, unless set).
    """
def device_count() -> int:
    """
    The number of CUDA devices (0 without any).
    """
def is_available() -> bool:
    """
    Whether a CUDA device can be used (False without a GPU, a driver or the CUDA build).
    """
def memory_info(device: typing.Any = None) -> dict:
    """
    Bytes of the device's memory pool held by arrays, and held by the pool in all (freed blocks are kept for reuse); both 0 without a GPU.
    """
def memory_kind(x: typing.Any) -> str:
    """
    What CUDA knows of the memory of `x` (an array numcu takes, or an address as an int):
    'host' (ordinary pageable host memory), 'pinned' (page-locked host memory, such as
    ``memory='pinned'`` arrays), 'device' or 'managed'. Without a GPU, everything is 'host'.
    """
def release_memory(device: typing.Any = None) -> None:
    """
    Synchronise the device and return the pool's unused blocks to it (nothing without a GPU).
    """
def synchronize(device: typing.Any = None) -> None:
    """
    Wait for all work queued on the device (the current one by default; without a GPU, return at once).
    """
def unavailable_reason() -> str:
    """
    Why is_available() is False (empty when it is True).
    """
