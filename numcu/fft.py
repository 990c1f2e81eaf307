"""numcu.fft: NumPy's ``numpy.fft`` and the Array API standard's fft extension, on the GPU.

Device arrays (numcu's, and CuPy's, PyTorch's or any other through ``__cuda_array_interface__``
or DLPack) are transformed on their GPU by cuFFT, which numcu loads at first use from the CUDA
toolkit or NVIDIA's wheel (``pip install nvidia-cufft``; ``NUMCU_CUFFT`` names the library's
path). Results are numcu arrays, queued on the current stream; nothing waits for the GPU. Host
data (NumPy arrays, lists) is NumPy's business: it goes to ``numpy.fft`` with the same arguments.

NumPy's arguments (``n``, ``axis``, ``s``, ``axes``, ``norm``) and result dtypes: float32 and
complex64 stay single precision (NumPy 2's rule), integers and bool transform in double
precision. cuFFT plans are kept per device in a cache limited in number and in bytes:
``numcu.fft.config.get_plan_cache()``.
"""

from __future__ import annotations

import types

import numpy as np

from . import _array_api as _api
from ._load import load_core

_core = load_core()

fft = _core._fft_fft
ifft = _core._fft_ifft
rfft = _core._fft_rfft
irfft = _core._fft_irfft
hfft = _core._fft_hfft
ihfft = _core._fft_ihfft
fftn = _core._fft_fftn
ifftn = _core._fft_ifftn
rfftn = _core._fft_rfftn
irfftn = _core._fft_irfftn
fft2 = _core._fft_fft2
ifft2 = _core._fft_ifft2
rfft2 = _core._fft_rfft2
irfft2 = _core._fft_irfft2


def _frequencies(n, d, dtype, device, half):
    n = int(n)
    if n < 1:
        raise ValueError(f"numcu.fft.{'rfftfreq' if half else 'fftfreq'}: n must be >= 1, not {n}")
    scale = 1.0 / (n * d)
    if half:
        k = _core.arange(n // 2 + 1, dtype="int64", device=device)
    else:
        k = _core.arange(n, dtype="int64", device=device)
        k = _core.where(_core.less(k, (n - 1) // 2 + 1), k, _core.subtract(k, n))
    f = _core.multiply(k, scale)
    return f if dtype is None else _api.astype(f, dtype)


def fftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an FFT of length n, spacing d: ``[0, 1, ..., -1] / (d * n)``.

    float64 unless `dtype` says otherwise; on `device` (numcu's default device when None: the
    current GPU where there is one, else a NumPy array), as ``numcu.arange`` places arrays.
    """
    return _frequencies(n, d, dtype, device, half=False)


def rfftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of rfft of length n: ``[0, 1, ..., n // 2] / (d * n)``; dtype and
    device as fftfreq's."""
    return _frequencies(n, d, dtype, device, half=True)


def _shift(x, axes, sign, name):
    x = _api._as_input(x)
    if isinstance(x, np.ndarray):
        return getattr(np.fft, name)(x, axes=axes)
    axes = tuple(range(x.ndim)) if axes is None else axes
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    shifts = [sign * (x.shape[a] // 2) for a in axes]
    return _api.roll(x, shifts, axis=axes)


def fftshift(x, /, axes=None):
    """The zero frequency moved to the middle of `axes` (all by default): numpy.fft.fftshift."""
    return _shift(x, axes, 1, "fftshift")


def ifftshift(x, /, axes=None):
    """fftshift undone: numpy.fft.ifftshift."""
    return _shift(x, axes, -1, "ifftshift")


def _device_index(device):
    return None if device is None else int(getattr(device, "id", device))


def get_plan_cache(device=None):
    """The cuFFT plan cache of a GPU (the current one by default).

    Methods as CuPy's: ``get_size``/``set_size`` (the most plans kept, 16 by default; 0 turns
    caching off), ``get_memsize``/``set_memsize`` (the most bytes of work areas kept, -1 for no
    limit, the default), ``get_curr_size``, ``get_curr_memsize``, ``clear`` and ``show_info``.
    """
    return _core._fft_plan_cache(_device_index(device))


def show_plan_cache_info(device=None):
    """Prints the plan cache's limits, use and plans (``get_plan_cache(device).show_info()``)."""
    get_plan_cache(device).show_info()


#: The plan cache's settings, as ``cupy.fft.config`` has them.
config = types.SimpleNamespace(
    get_plan_cache=get_plan_cache, show_plan_cache_info=show_plan_cache_info
)

__all__ = [
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "config",
]
