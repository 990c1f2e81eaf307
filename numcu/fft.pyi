"""
numcu.fft: NumPy's ``numpy.fft`` and the Array API standard's fft extension, on the GPU.

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
from numcu import _array_api as _api
from numcu import _core
from numcu._load import load_core
import numpy as np
import types as types
import typing
__all__: list[str] = ['fft', 'ifft', 'fftn', 'ifftn', 'rfft', 'irfft', 'rfftn', 'irfftn', 'hfft', 'ihfft', 'fftfreq', 'rfftfreq', 'fftshift', 'ifftshift', 'fft2', 'ifft2', 'rfft2', 'irfft2', 'config']
def _device_index(device):
    ...
def _frequencies(n, d, dtype, device, half):
    ...
def _shift(x, axes, sign, name):
    ...
def fft(a: typing.Any, n: typing.Any = None, axis: typing.Any = -1, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.fft, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def fft2(a: typing.Any, s: typing.Any = None, axes: typing.Any = (-2, -1), norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.fft2, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def fftfreq(n, d = 1.0, *, dtype = None, device = None):
    """
    The sample frequencies of an FFT of length n, spacing d: ``[0, 1, ..., -1] / (d * n)``.
    
        float64 unless `dtype` says otherwise; on `device` (numcu's default device when None: the
        current GPU where there is one, else a NumPy array), as ``numcu.arange`` places arrays.
        
    """
def fftn(a: typing.Any, s: typing.Any = None, axes: typing.Any = None, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.fftn, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def fftshift(x, axes = None):
    """
    The zero frequency moved to the middle of `axes` (all by default): numpy.fft.fftshift.
    """
def get_plan_cache(device = None):
    """
    The cuFFT plan cache of a GPU (the current one by default).
    
        Methods as CuPy's: ``get_size``/``set_size`` (the most plans kept, 16 by default; 0 turns
        caching off), ``get_memsize``/``set_memsize`` (the most bytes of work areas kept, -1 for no
        limit, the default), ``get_curr_size``, ``get_curr_memsize``, ``clear`` and ``show_info``.
        
    """
def hfft(a: typing.Any, n: typing.Any = None, axis: typing.Any = -1, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.hfft, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def ifft(a: typing.Any, n: typing.Any = None, axis: typing.Any = -1, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.ifft, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def ifft2(a: typing.Any, s: typing.Any = None, axes: typing.Any = (-2, -1), norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.ifft2, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def ifftn(a: typing.Any, s: typing.Any = None, axes: typing.Any = None, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.ifftn, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def ifftshift(x, axes = None):
    """
    fftshift undone: numpy.fft.ifftshift.
    """
def ihfft(a: typing.Any, n: typing.Any = None, axis: typing.Any = -1, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.ihfft, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def irfft(a: typing.Any, n: typing.Any = None, axis: typing.Any = -1, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.irfft, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def irfft2(a: typing.Any, s: typing.Any = None, axes: typing.Any = (-2, -1), norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.irfft2, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def irfftn(a: typing.Any, s: typing.Any = None, axes: typing.Any = None, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.irfftn, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def rfft(a: typing.Any, n: typing.Any = None, axis: typing.Any = -1, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.rfft, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def rfft2(a: typing.Any, s: typing.Any = None, axes: typing.Any = (-2, -1), norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.rfft2, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def rfftfreq(n, d = 1.0, *, dtype = None, device = None):
    """
    The sample frequencies of rfft of length n: ``[0, 1, ..., n // 2] / (d * n)``; dtype and
        device as fftfreq's.
    """
def rfftn(a: typing.Any, s: typing.Any = None, axes: typing.Any = None, norm: typing.Any = None, out: typing.Any = None) -> typing.Any:
    """
    numpy.fft.rfftn, with NumPy's arguments and result dtypes (float32 and complex64 stay single precision).
    Device arrays (numcu's, CuPy's, PyTorch's, ...) are transformed on their GPU by cuFFT, loaded at first use, through numcu's plan cache (numcu.fft.config.get_plan_cache()); the result is a numcu.ndarray, queued on the current stream. Host data goes to numpy.fft.
    out= is taken for host data only.
    """
def show_plan_cache_info(device = None):
    """
    Prints the plan cache's limits, use and plans (``get_plan_cache(device).show_info()``).
    """
config: types.SimpleNamespace
