"""Typed use of numcu that a type checker must accept (``mypy --strict``); never executed."""

from __future__ import annotations

import numpy as np

import numcu
import numcu.cuda


def host_pipeline(values: np.ndarray) -> np.ndarray:
    x = numcu.arange(values.size, dtype="float32", device="cpu")
    y = numcu.zeros(values.shape, dtype="float32", device="cpu")
    total = numcu.add(x, values, out=y)
    angle = numcu.sin(total)
    mean = numcu.mean(angle, axis=0, keepdims=True)
    summed = numcu.sum(angle, axis=None, dtype="float64")
    result: np.ndarray = numcu.asnumpy(numcu.multiply(mean, summed))
    return result


def device_pipeline(values: np.ndarray) -> np.ndarray | None:
    if not numcu.cuda.is_available():
        reason: str = numcu.cuda.unavailable_reason()
        print(reason)
        return None
    count: int = numcu.cuda.device_count()
    with numcu.cuda.Device(count - 1), numcu.cuda.Stream(non_blocking=True) as stream:
        d = numcu.asarray(values, stream=stream)
        shape: tuple[int, ...] = d.shape
        squares = numcu.square(d, stream=stream)
        event = stream.record()
        event.synchronize()
        print(shape, numcu.cuda.memory_info())
        try:
            result: np.ndarray = numcu.asnumpy(numcu.cumsum(squares, axis=0), stream=stream)
            return result
        except numcu.cuda.OutOfMemoryError:
            numcu.cuda.release_memory()
            raise


names: tuple[str, ...] = numcu.dtypes
where: str = numcu.include_path + numcu.cmake_prefix + numcu.__version__
