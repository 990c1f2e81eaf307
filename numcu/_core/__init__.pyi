"""
numcu's compiled core: array intake, planning, and the CPU and CUDA backends.
"""
from __future__ import annotations
import collections.abc
from numcu.fft import fft as _fft_fft
from numcu.fft import fft2 as _fft_fft2
from numcu.fft import fftn as _fft_fftn
from numcu.fft import hfft as _fft_hfft
from numcu.fft import ifft as _fft_ifft
from numcu.fft import ifft2 as _fft_ifft2
from numcu.fft import ifftn as _fft_ifftn
from numcu.fft import ihfft as _fft_ihfft
from numcu.fft import irfft as _fft_irfft
from numcu.fft import irfft2 as _fft_irfft2
from numcu.fft import irfftn as _fft_irfftn
from numcu.fft import rfft as _fft_rfft
from numcu.fft import rfft2 as _fft_rfft2
from numcu.fft import rfftn as _fft_rfftn
import typing
from . import cuda
__all__: list[str] = ['absolute', 'add', 'all', 'any', 'arange', 'arccos', 'arccosh', 'arcsin', 'arcsinh', 'arctan', 'arctan2', 'arctanh', 'argmax', 'argmin', 'argsort', 'asarray', 'asnumpy', 'astype', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'build_info', 'cbrt', 'ceil', 'clip', 'copysign', 'cos', 'cosh', 'count_nonzero', 'cuda', 'cumprod', 'cumsum', 'deg2rad', 'div', 'divide', 'dtypes', 'empty', 'empty_like', 'equal', 'exp', 'exp2', 'expm1', 'floor', 'floor_divide', 'fmax', 'fmin', 'from_dlpack', 'full', 'full_like', 'get_num_threads', 'greater', 'greater_equal', 'heaviside', 'hypot', 'invert', 'isfinite', 'isinf', 'isnan', 'left_shift', 'less', 'less_equal', 'linspace', 'log', 'log10', 'log1p', 'log2', 'logaddexp', 'logical_and', 'logical_not', 'logical_or', 'logical_xor', 'max', 'maximum', 'mean', 'min', 'minimum', 'mul', 'multiply', 'nancumprod', 'nancumsum', 'nanmax', 'nanmean', 'nanmin', 'nanprod', 'nansum', 'ndarray', 'negative', 'not_equal', 'ones', 'ones_like', 'positive', 'power', 'prod', 'ptp', 'rad2deg', 'random_distributions', 'reciprocal', 'reduction_table', 'reductions', 'remainder', 'right_shift', 'rint', 'scans', 'searchsorted', 'set_num_threads', 'sign', 'signbit', 'sin', 'sinh', 'sort', 'sqrt', 'square', 'std', 'subtract', 'sum', 'take', 'take_along_axis', 'tan', 'tanh', 'threading_info', 'trunc', 'ufunc_table', 'ufuncs', 'var', 'where', 'zeros', 'zeros_like']
class ndarray:
    """
    A CUDA device array.
    
    numcu returns one for every operation with device operands; ``numcu.asarray`` makes one from
    host data (copying) or from another library's device array (zero-copy). It exports
    ``__cuda_array_interface__`` (version 3), so CuPy, PyTorch and Numba take it without a copy.
    ``get()`` copies it to a NumPy array; NumPy never converts it implicitly, except for arrays in
    managed memory (``memory == "managed"``), which NumPy views without a copy through the buffer
    protocol: synchronise (``numcu.cuda.synchronize()``) before the host reads what the GPU wrote.
    """
    __dlpack_c_exchange_api__: typing.ClassVar[typing.Any]
    __hash__: typing.ClassVar[None] = None
    def __abs__(self) -> typing.Any:
        ...
    def __add__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __and__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __array__(self, *args, **kwargs) -> typing.Any:
        ...
    def __array_function__(self, func: typing.Any, types: typing.Any, args: typing.Any, kwargs: typing.Any) -> typing.Any:
        """
        NumPy functions on numcu arrays run numcu's (NotImplemented where numcu has none).
        """
    def __array_namespace__(self, *, api_version: typing.Any = None) -> typing.Any:
        """
        The numcu module, which follows the Array API standard (2025.12); for an earlier
                revision (2021.12 to 2024.12) a namespace object with numcu's functions as that revision
                has them (lists where 2025.12 made tuples). ValueError for any other api_version.
        """
    def __array_ufunc__(self, ufunc: typing.Any, method: str, *inputs: typing.Any, **kwargs: typing.Any) -> typing.Any:
        """
        NumPy ufuncs on numcu arrays run numcu's function (NotImplemented where numcu has none).
        """
    def __bool__(self) -> typing.Any:
        ...
    def __complex__(self) -> typing.Any:
        ...
    def __dlpack__(self, *, stream: typing.Any = None, max_version: typing.Any = None, dl_device: typing.Any = None, copy: typing.Any = None) -> typing.Any:
        """
        Export as a DLPack capsule (versioned when max_version >= (1, 0)), ordered before the consumer's `stream`.
        """
    def __dlpack_device__(self) -> tuple[int, int]:
        ...
    def __eq__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __float__(self) -> float:
        ...
    def __floordiv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ge__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __getitem__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __gt__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __iadd__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __iand__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ifloordiv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ilshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __imatmul__(self, other: typing.Any) -> typing.Any:
        ...
    def __imod__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __imul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __index__(self) -> int:
        ...
    def __int__(self) -> int:
        ...
    def __invert__(self) -> typing.Any:
        ...
    def __ior__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ipow__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __irshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __isub__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __itruediv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ixor__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __le__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __len__(self) -> int:
        ...
    def __lshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __lt__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __matmul__(self, other: typing.Any) -> typing.Any:
        ...
    def __mod__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __mul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ne__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __neg__(self) -> typing.Any:
        ...
    def __or__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __pos__(self) -> typing.Any:
        ...
    def __pow__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __radd__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rand__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __reduce__(self):
        """
        numcu.ndarray.__reduce__: rebuilt from its host copy.
        """
    def __repr__(self) -> str:
        ...
    def __rfloordiv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rlshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rmatmul__(self, other: typing.Any) -> typing.Any:
        ...
    def __rmod__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rmul__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __ror__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rpow__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rrshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rshift__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rsub__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rtruediv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __rxor__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __setitem__(self, arg0: typing.Any, arg1: typing.Any) -> None:
        ...
    def __sub__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __truediv__(self, arg0: typing.Any) -> typing.Any:
        ...
    def __xor__(self, arg0: typing.Any) -> typing.Any:
        ...
    def all(self, *args, **kwargs):
        """
        numcu.all of this array: ``x.all(...)`` is ``numcu.all(x, ...)``.
        """
    def any(self, *args, **kwargs):
        """
        numcu.any of this array: ``x.any(...)`` is ``numcu.any(x, ...)``.
        """
    def argmax(self, *args, **kwargs):
        """
        numcu.argmax of this array: ``x.argmax(...)`` is ``numcu.argmax(x, ...)``.
        """
    def argmin(self, *args, **kwargs):
        """
        numcu.argmin of this array: ``x.argmin(...)`` is ``numcu.argmin(x, ...)``.
        """
    def astype(self, dtype: typing.Any, copy: bool = True) -> ndarray:
        """
        A copy converted to `dtype` (NumPy's unsafe casting: complex to real keeps the real part).
        """
    def copy(self) -> ndarray:
        """
        A C-contiguous copy on the same device.
        """
    def cumprod(self, *args, **kwargs):
        """
        numcu.cumprod of this array: ``x.cumprod(...)`` is ``numcu.cumprod(x, ...)``.
        """
    def cumsum(self, *args, **kwargs):
        """
        numcu.cumsum of this array: ``x.cumsum(...)`` is ``numcu.cumsum(x, ...)``.
        """
    def fill(self, value: typing.Any) -> None:
        """
        Set every element to `value` (converted to the array's dtype).
        """
    def get(self, out: typing.Any = None, stream: typing.Any = None, blocking: bool = True) -> typing.Any:
        """
        A NumPy copy, or the copy into `out`; as numcu.asnumpy.
        """
    def max(self, *args, **kwargs):
        """
        numcu.max of this array: ``x.max(...)`` is ``numcu.max(x, ...)``.
        """
    def mean(self, *args, **kwargs):
        """
        numcu.mean of this array: ``x.mean(...)`` is ``numcu.mean(x, ...)``.
        """
    def min(self, *args, **kwargs):
        """
        numcu.min of this array: ``x.min(...)`` is ``numcu.min(x, ...)``.
        """
    def prod(self, *args, **kwargs):
        """
        numcu.prod of this array: ``x.prod(...)`` is ``numcu.prod(x, ...)``.
        """
    def ravel(self) -> ndarray:
        """
        A 1-D view (a copy when the array is not C-contiguous).
        """
    def reshape(self, *args) -> ndarray:
        """
        A view with a new shape (a copy first when the array is not C-contiguous).
        """
    def std(self, *args, **kwargs):
        """
        numcu.std of this array: ``x.std(...)`` is ``numcu.std(x, ...)``.
        """
    def sum(self, *args, **kwargs):
        """
        numcu.sum of this array: ``x.sum(...)`` is ``numcu.sum(x, ...)``.
        """
    def to_device(self, device: typing.Any, *, stream: typing.Any = None) -> typing.Any:
        """
        A copy on `device` ('cpu': a NumPy array), or the array itself when it is there.
        """
    def transpose(self, *args) -> ndarray:
        """
        A view with the axes permuted (reversed by default).
        """
    def var(self, *args, **kwargs):
        """
        numcu.var of this array: ``x.var(...)`` is ``numcu.var(x, ...)``.
        """
    @property
    def T(self) -> ndarray:
        ...
    @property
    def __cuda_array_interface__(self) -> dict:
        ...
    @property
    def data_ptr(self) -> int:
        """
        The device address of the first element.
        """
    @property
    def device(self) -> typing.Any:
        ...
    @property
    def dtype(self) -> typing.Any:
        ...
    @property
    def flags(self) -> dict:
        """
        C_CONTIGUOUS, F_CONTIGUOUS and WRITEABLE, as a dict.
        """
    @property
    def itemsize(self) -> int:
        ...
    @property
    def mT(self) -> typing.Any:
        """
        The view with the last two axes swapped.
        """
    @property
    def memory(self) -> str:
        """
        'device' (numcu's stream-ordered device memory), 'managed' (numcu's managed memory, which the host can read and write too) or 'foreign' (another library's memory).
        """
    @property
    def nbytes(self) -> int:
        ...
    @property
    def ndim(self) -> int:
        ...
    @property
    def shape(self) -> tuple:
        ...
    @property
    def size(self) -> int:
        ...
    @property
    def strides(self) -> tuple:
        """
        Strides in bytes.
        """
class _PlacementProbe(Exception):
    pass
class _FftPlanCache:
    """
    numcu's cuFFT plans for one device, most recently used first, limited in number and in the bytes of their work areas (held from the device's stream-ordered pool).
    """
    def clear(self) -> None:
        """
        Destroys every kept plan and returns its work area to the pool.
        """
    def get_curr_memsize(self) -> int:
        """
        The bytes of work areas the kept plans hold now.
        """
    def get_curr_size(self) -> int:
        """
        How many plans are kept now.
        """
    def get_hits(self) -> int:
        """
        Calls that found their plan here.
        """
    def get_memsize(self) -> int:
        """
        The most bytes of work areas kept (-1: no limit).
        """
    def get_misses(self) -> int:
        """
        Calls that made a plan.
        """
    def get_size(self) -> int:
        """
        The most plans kept (0: caching off).
        """
    def set_memsize(self, size: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Keeps at most `size` bytes of work areas (-1: no limit).
        """
    def set_size(self, size: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Keeps at most `size` plans (0 turns caching off), evicting the least recently used.
        """
    def show_info(self) -> None:
        """
        Prints the limits, the use and the plans kept, most recently used first.
        """
    @property
    def device(self) -> int:
        ...
class _FusedExpr:
    """
    A fused expression's graph (numcu/_fusion.py builds it); its typed programs are cached per call signature.
    """
    def __init__(self, nodes: collections.abc.Sequence, ninputs: typing.SupportsInt | typing.SupportsIndex, fname: str, text: str) -> None:
        ...
    def describe(self, args: tuple, out: typing.Any = None, casting: typing.Any = None, device: typing.SupportsInt | typing.SupportsIndex = -1) -> list:
        """
        The typed program for these arguments: (where, op, loop dtype, result dtype) per step ('host' steps of scalars, 'program' instructions), and, given a GPU, whether it runs fused there, why not, and the values it holds at once in shared memory.
        """
    @property
    def cached_programs(self) -> int:
        """
        How many typed programs (call signatures) are cached.
        """
    @property
    def ninputs(self) -> int:
        ...
def _cublas_path() -> str:
    """
    The cuBLAS library numcu loaded (loading it now if it can), or raises.
    """
def _cufft_path() -> str:
    """
    The cuFFT library numcu loaded (loading it now if it can), or raises.
    """
def _cusolver_path() -> str:
    """
    The cuSOLVER library numcu loaded (loading it now if it can), or raises.
    """
def _exchange_counts() -> dict:
    """
    How many tensors numcu.ndarray's DLPack C exchange table has handed out and taken in.
    """
def _fft_exec_loop(x: typing.Any, repeats: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
    """
    Benchmarks: cuFFT's own cost, `repeats` executions of one cached plan (a forward complex FFT over the last axis of a dense device array) into one output.
    """
def _fft_plan_cache(device: typing.Any = None) -> _FftPlanCache:
    """
    The plan cache of CUDA device `device` (the current one by default).
    """
def _force_staged_copies(staged: bool) -> None:
    """
    Tests: copies between two GPUs not yet paired in this process take CUDA's staged route (their pools not shared) even where the GPUs could copy peer to peer.
    """
def _fused_call(expr: typing.Any, args: typing.Any, out: typing.Any = None, casting: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Runs a fused expression (numcu.evaluate and numcu.fuse call it).
    """
def _gather(x: typing.Any, indices: typing.Any, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x[i_0, ..., i_{k-1}] for an int64 array `indices` of shape (k, ...): one row of broadcast indices per leading axis of x.
    """
def _host_path_config(**kwargs) -> dict:
    """
    The host path's settings, changed by keyword (for tests and benchmarks); returns them.
    """
def _host_pool_info() -> dict:
    ...
def _host_pool_release() -> None:
    ...
def _host_registry_info() -> dict:
    ...
def _intake_info(obj: typing.Any, route: typing.Any = None) -> dict:
    """
    What intake makes of obj (data, shape, strides in bytes, dtype, device, stream joined, route): for tests. route: None (numcu's choice), 'exchange', 'cupy', 'buffer', 'interfaces' or 'dlpack'.
    """
def _launch_check(data: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], size: typing.SupportsInt | typing.SupportsIndex, shape: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], strides: collections.abc.Sequence[collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]], itemsizes: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], alignments: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], scalar_mask: typing.SupportsInt | typing.SupportsIndex, full: bool) -> str:
    ...
def _launch_empty() -> typing.Any:
    """
    Queues one empty kernel on the current stream: what a launch costs by itself, which
    benchmarks compare numcu's small calls with. Not part of the API.
    """
def _linalg_cholesky(a: typing.Any, upper: bool) -> typing.Any:
    """
    The Cholesky factors of a device stack of Hermitian positive-definite matrices.
    """
def _linalg_det(a: typing.Any, log: bool) -> typing.Any:
    """
    det (log False) or (sign, logabsdet) of a device stack (..., n, n), n >= 1.
    """
def _linalg_eig(a: typing.Any, vectors: bool) -> typing.Any:
    """
    (eigenvalues, eigenvectors), or eigenvalues, of a non-empty complex device stack.
    """
def _linalg_eigh(a: typing.Any, vectors: bool) -> typing.Any:
    """
    (eigenvalues, eigenvectors), or eigenvalues, of a non-empty device stack of Hermitian matrices (their lower triangles).
    """
def _linalg_inv(a: typing.Any) -> typing.Any:
    """
    The inverses of a device stack (..., n, n).
    """
def _linalg_qr(a: typing.Any, mode: str) -> typing.Any:
    """
    (Q, R), or R for mode 'r', of a non-empty device stack (..., m, n).
    """
def _linalg_solve(a: typing.Any, b: typing.Any) -> typing.Any:
    """
    x with a @ x = b for device stacks a (..., n, n) and b (..., n, k) of one dtype and batch shape; LinAlgError for a singular matrix (the call waits for the GPU to know).
    """
def _linalg_svd(a: typing.Any, full_matrices: bool, compute_uv: bool) -> typing.Any:
    """
    (U, S, Vh), or S, of a non-empty device stack (..., m, n).
    """
def _linalg_svd_driver(name: str = '') -> str:
    """
    The cuSOLVER routine svd uses for matrices outside small stacks: 'gesvdj' (Jacobi, the default) or 'gesvd' (QR iteration); returns the previous one. For benchmarks.
    """
def _matmul(a: typing.Any, b: typing.Any, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    a @ b on the GPU for operands of one dtype and broadcast batch dimensions: cuBLAS for floating and complex dtypes (loaded at first use), a kernel of numcu's for integers.
    """
def _nonzero(x: typing.Any, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    An (ndim, count) int64 array of the positions of x's non-zero elements. On the GPU this waits for the count.
    """
def _philox(counter: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], key: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], rounds: typing.SupportsInt | typing.SupportsIndex = 10) -> list[int]:
    """
    Philox4x64 with 7 or 10 rounds of one counter under a key (tests: Random123's known-answer vectors).
    """
def _pinned_by_numcu(obj: typing.Any) -> bool:
    """
    Whether obj is host data numcu has page-locked (a pool block, an array pinned in place), as a call's placement counts it.
    """
def _placement_estimate(op: str, in_bytes: typing.SupportsFloat | typing.SupportsIndex, pinned_bytes: typing.SupportsFloat | typing.SupportsIndex, largest_bytes: typing.SupportsFloat | typing.SupportsIndex, out_bytes: typing.SupportsFloat | typing.SupportsIndex, fresh_out: bool, elements: typing.SupportsFloat | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex = 0) -> dict:
    ...
def _placement_model(**kwargs) -> dict:
    """
    The placement model's constants, changed by keyword; returns them all.
    """
def _placement_of(func: typing.Any, args: tuple, out: typing.Any = None, threads: typing.SupportsInt | typing.SupportsIndex = 0) -> typing.Any:
    """
    What func(*args, out=out) decides at its placement, as a dict (numcu.placement's report): the call runs up to there and no further.
    """
def _random_beta(bit_generator: typing.Any, /, a: typing.Any, b: typing.Any, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Beta values: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 4 draws of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    a : float or array_like of floats
    b : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_binomial(bit_generator: typing.Any, /, n: typing.Any, p: typing.Any, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Binomial counts: successes in n trials of probability p.
    
    NumPy draws a variable number of words per value here; numcu draws a fixed number
    (further attempts come from each value's own substream), so its values are not
    NumPy's, but the same on the CPU and every GPU for the same state.
    Each value takes 2 draws of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    n : float or array_like of floats
    p : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_candidates(bit_generator: typing.Any, n: typing.SupportsInt | typing.SupportsIndex, k: typing.SupportsInt | typing.SupportsIndex, *, device: typing.Any = None, stream: typing.Any = None, _threshold: typing.Any = None) -> typing.Any:
    """
    choice without replacement, k of n: (words, indices) of the candidates, padded with all-ones words, after n raw words of the stream; None where sorting all n is as cheap. Stably sorting the words and taking the first k indices gives permutation(n)[:k].
    """
def _random_chisquare(bit_generator: typing.Any, /, df: typing.Any, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Chi-square values with df degrees of freedom: 2 * standard_gamma(df / 2).
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 2 draws of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    df : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_exponential(bit_generator: typing.Any, /, scale: typing.Any = 1.0, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Exponential values: scale * standard_exponential().
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    scale : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_gamma(bit_generator: typing.Any, /, shape: typing.Any, scale: typing.Any = 1.0, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Gamma values: scale * standard_gamma(shape).
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 2 draws of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    shape : float or array_like of floats
    scale : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_geometric(bit_generator: typing.Any, /, p: typing.Any, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Geometric counts: trials up to and including the first success of probability p.
    
    NumPy draws a variable number of words per value here; numcu draws a fixed number
    (further attempts come from each value's own substream), so its values are not
    NumPy's, but the same on the CPU and every GPU for the same state.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    p : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_integers(bit_generator: typing.Any, /, off: typing.Any, rng: typing.Any, size: typing.Any = None, dtype: typing.Any = 'int64', *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Integers uniform on [low, high) (or [low, high] with endpoint=True).
    
    NumPy's values (Lemire's method on the same draws) until NumPy rejects a draw, which
    for scalar bounds happens with probability (2**w mod range) / 2**w per value
    (w = 8, 16, 32 or 64 bits); numcu then draws from the value's own substream, so that
    every value still takes a fixed number of draws.
    Each value takes one 32- or 64-bit draw (or a field of one, as NumPy
    packs small integers);
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    off : float or array_like of floats
    rng : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    dtype : {float64, float32}, optional
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_lognormal(bit_generator: typing.Any, /, mean: typing.Any = 0.0, sigma: typing.Any = 1.0, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Log-normal values: exp(normal(mean, sigma)).
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    mean : float or array_like of floats
    sigma : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_normal(bit_generator: typing.Any, /, loc: typing.Any = 0.0, scale: typing.Any = 1.0, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Normal values: loc + scale * standard_normal().
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    loc : float or array_like of floats
    scale : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_poisson(bit_generator: typing.Any, /, lam: typing.Any = 1.0, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Poisson counts of mean lam.
    
    NumPy draws a variable number of words per value here; numcu draws a fixed number
    (further attempts come from each value's own substream), so its values are not
    NumPy's, but the same on the CPU and every GPU for the same state.
    Each value takes 2 draws of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    lam : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_random(bit_generator: typing.Any, /, size: typing.Any = None, dtype: typing.Any = 'float64', out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Floats uniform on [0, 1), NumPy's values (53 bits of a word; float32: 24 bits of a half).
    
    With the same Philox state, the same values as NumPy's Generator (bit for bit), on
    the CPU and on every GPU.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    dtype : {float64, float32}, optional
    out : array, optional
        Where to write the values: contiguous, of the result's dtype and shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_standard_exponential(bit_generator: typing.Any, /, size: typing.Any = None, dtype: typing.Any = 'float64', method: typing.Any = 'zig', out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Standard exponential values (scale 1): -log(1 - random()), NumPy's method='inv'.
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    dtype : {float64, float32}, optional
    method : str, optional
        Accepted for NumPy's signature; numcu always inverts the distribution function
        (NumPy's 'inv'), having no ziggurat.
    out : array, optional
        Where to write the values: contiguous, of the result's dtype and shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_standard_gamma(bit_generator: typing.Any, /, shape: typing.Any, size: typing.Any = None, dtype: typing.Any = 'float64', out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Gamma values of scale 1 (Marsaglia and Tsang's method).
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 2 draws of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    shape : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    dtype : {float64, float32}, optional
    out : array, optional
        Where to write the values: contiguous, of the result's dtype and shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_standard_normal(bit_generator: typing.Any, /, size: typing.Any = None, dtype: typing.Any = 'float64', out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Standard normal values (mean 0, standard deviation 1).
    
    Not NumPy's values (NumPy's algorithm draws a variable number of words per value):
    numcu's take a fixed number of draws each, the same on the CPU and every GPU.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    dtype : {float64, float32}, optional
    out : array, optional
        Where to write the values: contiguous, of the result's dtype and shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _random_uniform(bit_generator: typing.Any, /, low: typing.Any = 0.0, high: typing.Any = 1.0, size: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Floats uniform on [low, high): low + (high - low) * random(), NumPy's values.
    
    With the same Philox state, the same values as NumPy's Generator (bit for bit), on
    the CPU and on every GPU.
    Each value takes 1 draw of the bit generator's stream;
    the bit generator's state afterwards is the one NumPy would have.
    
    Parameters
    ----------
    low : float or array_like of floats
    high : float or array_like of floats
    size : int or tuple of ints, optional
        Output shape; None (default) gives one value when the parameters are scalars.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where the values are made: 'cpu' for a NumPy array, or a GPU. By default numcu's
        default device (the current GPU, else the host), the GPU of a device-array parameter,
        or where `out` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current one.
    """
def _register_composition(name: str, fn: typing.Any) -> None:
    """
    Registers a composition numcu's Python layer makes for the compiled module (once, at import): getitem, setitem, full_from_array, full_like_from_array, asarray_nested or unique_complex.
    """
def _scatter(x: typing.Any, indices: typing.Any, values: typing.Any, stream: typing.Any = None) -> None:
    """
    x[i_0, ..., i_{k-1}] = values in place, for an int64 array `indices` of shape (k, ...): one row of broadcast indices per leading axis of x (the inverse of _gather). `values` broadcasts to the indexed shape and is cast to x's dtype. Where positions repeat, one of their values lands (on the GPU, any). Out-of-bounds indices raise IndexError on the CPU, where nothing is written then; on the GPU they write the nearest element.
    """
def _unique(x: typing.Any, values: bool, indices: bool, inverse: bool, counts: bool, nan_distinct: bool = True, device: typing.Any = None, stream: typing.Any = None) -> tuple:
    """
    (values, indices, inverse, counts) of x's distinct elements, None where not asked for. On the GPU this waits for the number of distinct elements.
    """
def _view(a: ndarray, shape: typing.Any, strides: typing.Any, offset: typing.SupportsInt | typing.SupportsIndex = 0, dtype: typing.Any = None) -> ndarray:
    """
    A view of `a` with another shape, byte strides, byte offset and dtype, inside a's bytes.
    """
def absolute(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Absolute value; |z| of complex is real.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def add(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, dev_id: typing.Any = None, sync: typing.Any = None, *, output: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Addition x1 + x2 (integers wrap; logical OR for bool).
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    dev_id, sync, output :
        AMYPAD NumCu's arguments: ``dev_id=False`` runs on the CPU, ``dev_id=N`` on GPU N;
        ``sync=True`` waits for the GPU; ``output`` is ``out``.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def all(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Whether every element is non-zero (NaN counts as non-zero).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    bool.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def any(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Whether any element is non-zero (NaN counts as non-zero).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    bool.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def arange(start: typing.Any, stop: typing.Any = None, step: typing.Any = None, dtype: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    Evenly spaced values in [start, stop) with spacing `step`, as NumPy's arange.
    
    ``arange(stop)`` starts at 0. The length is ceil((stop - start) / step) (none where that is not
    positive); the dtype is NumPy's: int64 for integers, else float64 or complex128 (NumPy scalars
    promote with int64), unless `dtype` is given. Values are NumPy's: start, start + step, then
    their difference repeated in the array's type (integers wrap).
    
    Parameters
    ----------
    start, stop, step : Python or NumPy numbers
    dtype : optional
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def arccos(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Inverse cosine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def arccosh(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Inverse hyperbolic cosine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def arcsin(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Inverse sine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def arcsinh(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Inverse hyperbolic sine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def arctan(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Inverse tangent.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def arctan2(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    The angle of the point (x2, x1), quadrant-aware.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def arctanh(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Inverse hyperbolic tangent.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def argmax(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, *, keepdims: typing.Any = False, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Index of the first maximum (of the first NaN, if any) along an axis.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None or int, optional
        The axis to search along; None searches the flattened array.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Its dtype must cast safely to int64 (bool, int8 to int64, uint8 to uint32).
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    int64 indices.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def argmin(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, *, keepdims: typing.Any = False, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Index of the first minimum (of the first NaN, if any) along an axis.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None or int, optional
        The axis to search along; None searches the flattened array.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Its dtype must cast safely to int64 (bool, int8 to int64, uint8 to uint32).
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    int64 indices.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def argsort(x: typing.Any, /, *, axis: typing.Any = -1, descending: bool = False, stable: bool = True, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    int64 indices that sort `x` along `axis` (None: flattened); always stable (equal elements keep their order, also when `descending`; -0.0 equals 0.0 and NaNs equal each other and sort last).
    
    device, stream :
        Where to compute and the CUDA stream to queue on, as for numcu.add.
    """
def asarray(obj: typing.Any, dtype: typing.Any = None, copy: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    `obj` as a numcu.ndarray on a GPU (or, with ``device='cpu'``, as a NumPy array).
    
    Parameters
    ----------
    obj : array_like
        Host data (NumPy and other buffer-protocol arrays, lists, Python and NumPy scalars) is
        copied to the GPU; device arrays (numcu.ndarray, any ``__cuda_array_interface__`` or
        ``__dlpack__`` object) are taken as they are, without a copy.
    dtype : optional
        Convert to this dtype (a copy).
    copy : {None, True, False}
        As in NumPy 2 and the array API: True always copies, False never does (ValueError where a
        copy is needed: host data to a GPU, a dtype conversion, another device), None copies only
        where needed. Host data in managed memory (a NumPy view of a ``memory='managed'`` array)
        needs no copy.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        The GPU (by default the array's own, else the current one), or 'cpu' for a NumPy array
        (a view, after a wait, for managed memory).
    stream : optional
        The CUDA stream copies are queued on; by default the current stream.
    """
def asnumpy(a: typing.Any, out: typing.Any = None, stream: typing.Any = None, blocking: bool = True) -> typing.Any:
    """
    `a` as a NumPy array: a copy from the GPU for device arrays, ``numpy.asarray(a)`` for host data.
    
    Parameters
    ----------
    a : array_like
        A numcu.ndarray, any device array numcu takes, or host data.
    out : numpy.ndarray, optional
        The host array to copy into (returned): the same shape and dtype as `a`, writable, and
        contiguous (C order, or any layout whose elements fill its memory, such as Fortran order).
        Page-locked memory (``memory='pinned'``) makes the copy a direct, asynchronous DMA.
    stream : optional
        The CUDA stream the copy is queued on (after the work on `a`); by default the current one.
    blocking : bool
        Wait for the copy (default). False returns once it is queued: synchronise the stream before
        reading `out` (a copy into pageable memory is complete on return regardless).
    """
def astype(x: typing.Any, dtype: typing.Any, /, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    `x` converted to `dtype`, between any two of numcu's dtypes, as NumPy's astype (unsafe
    casting: complex to real keeps the real part, floats to integers truncate).
    
    Host arrays give a NumPy array (cast on the host); device arrays a numcu.ndarray on their
    GPU, queued on `stream` (by default the current one).
    """
def bitwise_and(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Bitwise AND.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def bitwise_or(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Bitwise OR.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def bitwise_xor(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Bitwise XOR.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def build_info() -> dict:
    """
    Version, CUDA version, compiled CUDA architectures, backends and dtypes of this build; the
    distribution it came in, and why a build without the CUDA backend has none ("no_cuda_reason",
    None where the backend was built).
    """
def cbrt(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Cube root. Integers compute in the smallest float that holds them.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def ceil(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Smallest integer >= x; integers stay as they are.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def clip(a: typing.Any, a_min: typing.Any, a_max: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    `a` limited to [a_min, a_max]: minimum(maximum(a, a_min), a_max), NaN propagating as
    NumPy's clip. Either bound may be None. Every dtype. Inputs, `out`, `device` and `stream`
    as numcu.add.
    """
def copysign(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 with the sign of x2.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def cos(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Cosine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def cosh(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Hyperbolic cosine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def count_nonzero(a: typing.Any, axis: typing.Any = None, *, keepdims: typing.Any = False, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Number of non-zero elements over the given axes.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    int64 counts.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def cumprod(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Cumulative product along an axis.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None or int, optional
        The axis to scan along; None scans the flattened array.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The running products, in sum's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def cumsum(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Cumulative sum along an axis.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None or int, optional
        The axis to scan along; None scans the flattened array.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The running sums, in sum's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def deg2rad(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Degrees to radians.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def div(numerator: typing.Any, divisor: typing.Any, /, default: typing.Any = 3.4028234663852886e+38, output: typing.Any = None, dev_id: typing.Any = None, sync: typing.Any = None, *, out: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    AMYPAD NumCu's division: ``numerator / divisor`` where the divisor is non-zero, `default`
    (float32's largest value unless given) where it is zero. Result dtype as numcu.divide
    (float16/32/64 or complex; integers promote to float64). Other arguments as numcu.divide.
    """
def divide(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, dev_id: typing.Any = None, sync: typing.Any = None, *, output: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    True division x1 / x2. Integers and bool divide in float64.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    dev_id, sync, output :
        AMYPAD NumCu's arguments: ``dev_id=False`` runs on the CPU, ``dev_id=N`` on GPU N;
        ``sync=True`` waits for the GPU; ``output`` is ``out``.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def empty(shape: typing.Any, dtype: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new array of `shape` (float64 unless `dtype`), uninitialised.
    
    Parameters
    ----------
    shape : int or sequence of ints
    dtype : optional
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def empty_like(a: typing.Any, dtype: typing.Any = None, shape: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new uninitialised array like `a`.
    
    Parameters
    ----------
    a : array_like
        Any array numcu takes (host or device): its shape, dtype, layout (NumPy's order='K') and
        place are the defaults: a NumPy array for host data, a numcu.ndarray on `a`'s GPU for a
        device array.
    dtype : optional
        Overrides the dtype.
    shape : int or sequence of ints, optional
        Overrides the shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def equal(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 == x2, as bool.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def exp(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    e**x.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def exp2(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    2**x.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def expm1(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    e**x - 1, accurate for small x.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def floor(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Largest integer <= x; integers stay as they are.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def floor_divide(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Floor division x1 // x2, Python's signs; integer x // 0 gives 0.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def fmax(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Elementwise maximum ignoring NaN.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def fmin(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Elementwise minimum ignoring NaN.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def from_dlpack(x: typing.Any) -> typing.Any:
    """
    A numcu.ndarray sharing `x`'s memory through DLPack (JAX, PyTorch, CuPy arrays on the GPU);
    host data (a CPU tensor, a NumPy array) is copied to the current device.
    """
def full(shape: typing.Any, fill_value: typing.Any, dtype: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new array filled with `fill_value`, of its dtype unless `dtype` is given: a scalar, or an
    array broadcast to the shape (a device array's values are copied without the host waiting).
    
    Parameters
    ----------
    shape : int or sequence of ints
    fill_value : scalar or array
    dtype : optional
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def full_like(a: typing.Any, fill_value: typing.Any, dtype: typing.Any = None, shape: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new array like `a`, filled with `fill_value` (a scalar, or an array broadcast to the shape), converted to the dtype.
    
    Parameters
    ----------
    a : array_like
        Any array numcu takes (host or device): its shape, dtype, layout (NumPy's order='K') and
        place are the defaults: a NumPy array for host data, a numcu.ndarray on `a`'s GPU for a
        device array.
    dtype : optional
        Overrides the dtype.
    shape : int or sequence of ints, optional
        Overrides the shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def get_num_threads() -> int:
    """
    The number of threads the CPU backend splits its work over.
    
    It is, first to last: the value given to numcu.set_num_threads; the environment variable
    NUMCU_NUM_THREADS; OMP_NUM_THREADS; the CPUs this process may run on (OpenMP's default where
    OpenMP runs the threads, which also follows threadpoolctl's limits). In a forked child process
    it is 1, whatever was set (threads do not survive a fork;
    start workers with multiprocessing's "spawn" or "forkserver" methods for threads in each).
    Raises ValueError while NUMCU_NUM_THREADS is not a whole number from 1 to 1024 and
    set_num_threads has not been called.
    """
def greater(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 > x2, as bool (complex: lexicographic).
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def greater_equal(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 >= x2, as bool (complex: lexicographic).
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def heaviside(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Heaviside step: 0 where x1 < 0, x2 where x1 is 0, 1 where x1 > 0.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def hypot(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    sqrt(x1**2 + x2**2) without overflow.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def invert(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Bitwise NOT (logical NOT for bool).
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def isfinite(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Whether x is finite, as bool.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def isinf(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Whether x is infinite, as bool.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def isnan(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Whether x is NaN, as bool.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def left_shift(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 << x2; shifts by the bit width or more give 0.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def less(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 < x2, as bool (complex: lexicographic).
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def less_equal(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 <= x2, as bool (complex: lexicographic).
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def linspace(start: typing.Any, stop: typing.Any, num: typing.Any = 50, endpoint: bool = True, retstep: bool = False, dtype: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    `num` evenly spaced values from `start` to `stop` (included unless `endpoint` is False), as
    NumPy's linspace.
    
    Computed in the inexact type of `start` and `stop` (float64 for Python numbers) as
    ``start + i * step``, the last value set to `stop`; integer dtypes take the floor. With
    `retstep`, returns ``(values, step)`` (step NaN for fewer than two intervals).
    
    Parameters
    ----------
    start, stop : Python or NumPy numbers
    num : int
    endpoint : bool
    retstep : bool
    dtype : optional
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def log(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Natural logarithm.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def log10(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Base-10 logarithm.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def log1p(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    log(1 + x), accurate for small x.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def log2(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Base-2 logarithm.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def logaddexp(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    log(exp(x1) + exp(x2)) without overflow.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def logical_and(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 AND x2, as bool.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def logical_not(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    NOT x, as bool.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def logical_or(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 OR x2, as bool.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def logical_xor(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 XOR x2, as bool.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def max(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Maximum over the given axes; NaN propagates; complex numbers order lexicographically. ValueError for an empty reduction.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The maxima, in the input dtype.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def maximum(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Elementwise maximum; NaN propagates.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def mean(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Arithmetic mean over the given axes; NaN for an empty reduction.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
        A mean takes it for float32, float64 and complex inputs only.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The means: float64 for integers and bool, else the input dtype.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def min(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Minimum over the given axes; NaN propagates; complex numbers order lexicographically. ValueError for an empty reduction.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The minima, in the input dtype.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def minimum(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Elementwise minimum; NaN propagates.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def mul(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, dev_id: typing.Any = None, sync: typing.Any = None, *, output: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    AMYPAD NumCu's name for numcu.multiply (same arguments).
    """
def multiply(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, dev_id: typing.Any = None, sync: typing.Any = None, *, output: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Multiplication x1 * x2 (integers wrap; logical AND for bool).
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    dev_id, sync, output :
        AMYPAD NumCu's arguments: ``dev_id=False`` runs on the CPU, ``dev_id=N`` on GPU N;
        ``sync=True`` waits for the GPU; ``output`` is ``out``.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def nancumprod(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Cumulative product treating NaN as one (on integers and bool: cumprod).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None or int, optional
        The axis to scan along; None scans the flattened array.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The running products, in sum's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def nancumsum(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Cumulative sum treating NaN as zero (on integers and bool: cumsum).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None or int, optional
        The axis to scan along; None scans the flattened array.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The running sums, in sum's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def nanmax(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Maximum ignoring NaN (NaN where all are NaN).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The maxima, in the input dtype.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def nanmean(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Mean of the elements that are not NaN; NaN where all are.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
        A mean takes it for float32, float64 and complex inputs only.
        For a float or complex input, its dtype and dtype= must be float or complex.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The means, in mean's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def nanmin(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Minimum ignoring NaN (NaN where all are NaN).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The minima, in the input dtype.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def nanprod(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Product treating NaN as one (on integers and bool: prod).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The products, in sum's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def nansum(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Sum treating NaN as zero (on integers and bool: sum).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The sums, in sum's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def negative(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Numerical negative, -x.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def not_equal(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 != x2, as bool.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def ones(shape: typing.Any, dtype: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new array of ones (float64 unless `dtype`).
    
    Parameters
    ----------
    shape : int or sequence of ints
    dtype : optional
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def ones_like(a: typing.Any, dtype: typing.Any = None, shape: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new array of ones like `a`.
    
    Parameters
    ----------
    a : array_like
        Any array numcu takes (host or device): its shape, dtype, layout (NumPy's order='K') and
        place are the defaults: a NumPy array for host data, a numcu.ndarray on `a`'s GPU for a
        device array.
    dtype : optional
        Overrides the dtype.
    shape : int or sequence of ints, optional
        Overrides the shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def positive(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Numerical positive, +x (a copy).
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def power(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 ** x2; integers wrap, and negative integer exponents raise ValueError.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def prod(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Product of array elements over the given axes (integers wrap as in NumPy).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The products, in sum's dtypes.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def ptp(a: typing.Any, axis: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Range of values (maximum - minimum) over the given axes; NaN propagates; integers wrap. ValueError for an empty reduction.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128, bfloat16.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The ranges, in the input dtype.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def rad2deg(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Radians to degrees.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def reciprocal(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    1/x (integer division for integers, 1/0 gives 0).
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def remainder(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 % x2 with the sign of x2 (Python's); integer x % 0 gives 0.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def right_shift(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x1 >> x2 (arithmetic for signed); shifts by the bit width or more give 0 or -1.
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def rint(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x rounded to the nearest integer, halves to even.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def searchsorted(x1: typing.Any, x2: typing.Any, /, *, side: typing.Any = 'left', sorter: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    int64 insertion points of `x2`'s elements into the sorted 1-D `x1` (`sorter`: indices that sort it) keeping it sorted: before equal elements (side='left') or after them ('right'). NaNs order last.
    
    device, stream :
        Where to compute and the CUDA stream to queue on, as for numcu.add.
    """
def set_num_threads(n: typing.Any) -> None:
    """
    Set the number of threads the CPU backend splits its work over.
    
    Parameters
    ----------
    n : int
        From 1 to 1024. It replaces NUMCU_NUM_THREADS and the default for the whole process.
    
    Notes
    -----
    Arrays too small to gain from threads run on the calling thread whatever `n` is. Results do not
    depend on `n`: elementwise functions compute each element alike, and reductions combine their
    partial results in one fixed order (NumPy's pairwise order for sums).
    """
def sign(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    -1, 0 or 1 (NaN stays NaN; z/|z| for complex).
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def signbit(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Whether the sign bit is set, as bool.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def sin(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Sine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def sinh(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Hyperbolic sine.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def sort(x: typing.Any, /, *, axis: typing.Any = -1, descending: bool = False, stable: bool = True, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    The elements of `x` sorted along `axis` (None: flattened), ascending unless `descending`. NaNs sort last (first when descending), as NumPy sorts them. Every real dtype; complex raises TypeError. CUB's radix sort on the GPU.
    
    device, stream :
        Where to compute and the CUDA stream to queue on, as for numcu.add.
    """
def sqrt(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Square root. Integers compute in the smallest float that holds them.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def square(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x*x (integers wrap).
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def std(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, ddof: typing.Any = 0, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Standard deviation over the given axes: the square root of var.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return. As in NumPy, an integer dtype takes the mean,
        the squared deviations' sum and the quotients in it (sums wrap, quotients truncate),
        and a real dtype leaves complex input's imaginary parts in the deviations.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Its dtype must be float or complex.
    ddof : float, optional
        The divisor is N - ddof (N: elements per result).
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    As var.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def subtract(x1: typing.Any, x2: typing.Any, /, out: typing.Any = None, dev_id: typing.Any = None, sync: typing.Any = None, *, output: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Subtraction x1 - x2 (integers wrap).
    
    Parameters
    ----------
    x1, x2 : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    dev_id, sync, output :
        AMYPAD NumCu's arguments: ``dev_id=False`` runs on the CPU, ``dev_id=N`` on GPU N;
        ``sync=True`` waits for the GPU; ``output`` is ``out``.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def sum(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Sum of array elements over the given axes (float sums are pairwise on the CPU and tree-shaped on the GPU; the same input gives the same bits run to run).
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is converted to it first.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
        Without dtype=, the loop runs in the promotion of the input's dtype and out's where
        that is a float or complex dtype, as NumPy's does.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    The sums: int64 for bool and signed integers, uint64 for unsigned ones, else the input dtype (float16 accumulated in float32).
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def take(x: typing.Any, indices: typing.Any, /, *, axis: typing.Any = None, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Elements of `x` at `indices` (integers, negative ones count from the end) along `axis` (None: of the flattened array). Out-of-bounds indices raise IndexError on the CPU; on the GPU, which the host does not wait for, they read the nearest element.
    
    device, stream :
        Where to compute and the CUDA stream to queue on, as for numcu.add.
    """
def take_along_axis(x: typing.Any, indices: typing.Any, /, *, axis: typing.Any = -1, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x's elements at `indices` along `axis` (indices has x's number of dimensions and broadcasts with it elsewhere), as argsort's result picks sorted values. Out-of-bounds indices as in numcu.take.
    
    device, stream :
        Where to compute and the CUDA stream to queue on, as for numcu.add.
    """
def tan(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Tangent.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def tanh(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Hyperbolic tangent.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: all 15 of numcu.dtypes.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def threading_info() -> dict:
    """
    How the CPU backend runs: a dict with
    
    - ``layer``: "openmp" (GCC's OpenMP runtime; ``library`` is its file), or "threads" (numcu's
      own, in a build without OpenMP such as a manylinux wheel's, which ships no OpenMP runtime);
    - ``num_threads`` (as get_num_threads) and ``source``: "set_num_threads", "NUMCU_NUM_THREADS",
      "OpenMP", "OMP_NUM_THREADS", "available CPUs" or "forked child";
    - ``simd``: the instruction set its vectorised loops run with on this CPU ("x86-64-v4" is
      AVX-512, "x86-64-v3" AVX2);
    - ``grain``: elements per thread below which a loop is not split, for memory-bound elementwise
      loops, costly ones (float functions, integer division), reductions, and two kinds of unary
      float function apart from the other costly loops: those computed in float32 (float16,
      bfloat16 and float32 data) and those of complex numbers.
    """
def trunc(x: typing.Any, /, out: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    x rounded towards zero; integers stay as they are.
    
    Parameters
    ----------
    x : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or ``__dlpack__``, or Python
        scalars; broadcast together, promoted as NumPy 2 does (Python scalars are weak).
        dtypes: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, bfloat16.
    out : array, optional
        Where to write the result (cast with casting='same_kind'); it is returned.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. By default device arrays stay on their GPU, and host arrays are
        computed on the GPU when there is one (copied in and out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch stream,
        an object with ``__cuda_stream__``, or a handle); by default the current one.
    
    Returns
    -------
    numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`. The dtype is
    NumPy's for the same call; a dtype NumPy has no loop for raises TypeError.
    """
def var(a: typing.Any, axis: typing.Any = None, dtype: typing.Any = None, out: typing.Any = None, ddof: typing.Any = 0, keepdims: typing.Any = False, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Variance over the given axes: mean(|x - x.mean()|**2) * N / (N - ddof), in two passes.
    
    Parameters
    ----------
    a : array_like
        NumPy or other buffer-protocol arrays, numcu.ndarray, any object with
        ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), or Python scalars.
        dtypes: all 15 of numcu.dtypes.
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative counts from the end); None reduces all.
    dtype : dtype, optional
        The dtype to accumulate in and return. As in NumPy, an integer dtype takes the mean,
        the squared deviations' sum and the quotients in it (sums wrap, quotients truncate),
        and a real dtype leaves complex input's imaginary parts in the deviations.
    out : array, optional
        Where to write the result; its shape must be the result's. The result is converted
        to its dtype, as NumPy does.
    ddof : float, optional
        The divisor is N - ddof (N: elements per result).
    keepdims : bool, optional
        Keep the reduced axes with size one.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        Where to compute. Device arrays stay on their GPU; host arrays are reduced on
        the GPU when there is one (copied in, the result copied out), else on the CPU.
    stream : optional
        The CUDA stream to queue the work on (numcu.cuda.Stream, a CuPy or PyTorch
        stream, an object with ``__cuda_stream__``, or a handle); by default the
        current stream.
    
    Returns
    -------
    float64 for integers and bool, the real dtype for complex, else the input dtype.
        Host input: a NumPy scalar for a reduction to one value, else a numpy.ndarray.
        Device input: a numcu.ndarray (0-d for one value), returned without waiting
        for the GPU. With `out`, `out`.
    """
def where(condition: typing.Any, x: typing.Any, y: typing.Any, /, *, device: typing.Any = None, stream: typing.Any = None) -> typing.Any:
    """
    Elements of `x` where `condition` is true, of `y` elsewhere (NumPy's three-argument
    where). `condition` is taken as bool (non-zero is true); `x` and `y` are promoted together
    as NumPy 2 does, and all three broadcast. Every dtype. Inputs, `device` and `stream` as
    numcu.add.
    """
def zeros(shape: typing.Any, dtype: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new array of zeros (float64 unless `dtype`).
    
    Parameters
    ----------
    shape : int or sequence of ints
    dtype : optional
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
def zeros_like(a: typing.Any, dtype: typing.Any = None, shape: typing.Any = None, *, device: typing.Any = None, stream: typing.Any = None, memory: typing.Any = 'device') -> typing.Any:
    """
    A new array of zeros like `a`.
    
    Parameters
    ----------
    a : array_like
        Any array numcu takes (host or device): its shape, dtype, layout (NumPy's order='K') and
        place are the defaults: a NumPy array for host data, a numcu.ndarray on `a`'s GPU for a
        device array.
    dtype : optional
        Overrides the dtype.
    shape : int or sequence of ints, optional
        Overrides the shape.
    device : {None, 'cpu', 'cuda', 'cuda:N', int}, optional
        'cpu' for a NumPy array, or a GPU. By default numcu's default device: the current GPU, or
        the host (a NumPy array) where no GPU can be used; for the *_like functions, where `a` is.
    stream : optional
        The CUDA stream the work is queued on; by default the current stream.
    memory : {'device', 'managed', 'pinned'}
        'device' (default): numcu's stream-ordered device memory. 'managed': CUDA managed memory;
        still a numcu.ndarray, which NumPy can also view without a copy (``numpy.asarray``);
        synchronise before the host reads what the GPU wrote. 'pinned': a NumPy array in
        page-locked host memory, which GPU copies move by DMA, asynchronously; it is freed when
        NumPy drops it.
    """
__version__: str
_fused_cast_op: int = 77
_fused_limits: dict = {'gpu_instructions': 64, 'gpu_inputs': 16, 'gpu_constants': 32}
_fused_ops: dict = {'negative': (0, 1), 'positive': (1, 1), 'absolute': (2, 1), 'sign': (3, 1), 'reciprocal': (4, 1), 'square': (5, 1), 'sqrt': (6, 1), 'cbrt': (7, 1), 'logical_not': (8, 1), 'invert': (9, 1), 'exp': (10, 1), 'exp2': (11, 1), 'expm1': (12, 1), 'log': (13, 1), 'log2': (14, 1), 'log10': (15, 1), 'log1p': (16, 1), 'sin': (17, 1), 'cos': (18, 1), 'tan': (19, 1), 'arcsin': (20, 1), 'arccos': (21, 1), 'arctan': (22, 1), 'sinh': (23, 1), 'cosh': (24, 1), 'tanh': (25, 1), 'arcsinh': (26, 1), 'arccosh': (27, 1), 'arctanh': (28, 1), 'deg2rad': (29, 1), 'rad2deg': (30, 1), 'floor': (31, 1), 'ceil': (32, 1), 'trunc': (33, 1), 'rint': (34, 1), 'isnan': (35, 1), 'isinf': (36, 1), 'isfinite': (37, 1), 'signbit': (38, 1), 'add': (39, 2), 'subtract': (40, 2), 'multiply': (41, 2), 'divide': (42, 2), 'div': (43, 2), 'floor_divide': (44, 2), 'remainder': (45, 2), 'power': (46, 2), 'maximum': (47, 2), 'minimum': (48, 2), 'fmax': (49, 2), 'fmin': (50, 2), 'equal': (51, 2), 'not_equal': (52, 2), 'less': (53, 2), 'less_equal': (54, 2), 'greater': (55, 2), 'greater_equal': (56, 2), 'logical_and': (57, 2), 'logical_or': (58, 2), 'logical_xor': (59, 2), 'bitwise_and': (60, 2), 'bitwise_or': (61, 2), 'bitwise_xor': (62, 2), 'left_shift': (63, 2), 'right_shift': (64, 2), 'logaddexp': (65, 2), 'arctan2': (66, 2), 'hypot': (67, 2), 'copysign': (68, 2), 'heaviside': (69, 2), 'where': (70, 3), 'clip': (71, 3), 'real': (72, 1), 'imag': (73, 1), 'conj': (74, 1), 'complex': (75, 2), 'ones_like': (76, 1)}
dtypes: tuple[str, ...] = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64', 'complex64', 'complex128', 'bfloat16')
random_distributions: tuple = (('random', tuple(), 1, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': True, 'numpy_first_attempt': False, 'rejection': False, 'fill': True}, "Floats uniform on [0, 1), NumPy's values (53 bits of a word; float32: 24 bits of a half)."), ('uniform', (('low', '0.0'), ('high', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': True, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, "Floats uniform on [low, high): low + (high - low) * random(), NumPy's values."), ('integers', (('off', None), ('rng', None)), 0, ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'), {'own_binding': True, 'numpy_exact': False, 'numpy_first_attempt': True, 'rejection': True, 'fill': False}, 'Integers uniform on [low, high) (or [low, high] with endpoint=True).'), ('standard_normal', tuple(), 1, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': True}, 'Standard normal values (mean 0, standard deviation 1).'), ('normal', (('loc', '0.0'), ('scale', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Normal values: loc + scale * standard_normal().'), ('lognormal', (('mean', '0.0'), ('sigma', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Log-normal values: exp(normal(mean, sigma)).'), ('standard_exponential', tuple(), 1, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': True}, "Standard exponential values (scale 1): -log(1 - random()), NumPy's method='inv'."), ('exponential', (('scale', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Exponential values: scale * standard_exponential().'), ('standard_gamma', (('shape', None)), 2, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, "Gamma values of scale 1 (Marsaglia and Tsang's method)."), ('gamma', (('shape', None), ('scale', '1.0')), 2, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Gamma values: scale * standard_gamma(shape).'), ('beta', (('a', None), ('b', None)), 4, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Beta values: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).'), ('chisquare', (('df', None)), 2, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Chi-square values with df degrees of freedom: 2 * standard_gamma(df / 2).'), ('poisson', (('lam', '1.0')), 2, ('int64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Poisson counts of mean lam.'), ('binomial', (('n', None), ('p', None)), 2, ('int64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Binomial counts: successes in n trials of probability p.'), ('geometric', (('p', None)), 1, ('int64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Geometric counts: trials up to and including the first success of probability p.'))
reduction_table: tuple = (('sum', 'with_dtype', 'accumulated', None, False, 'add', 'Sum of array elements over the given axes (float sums are pairwise on the CPU and tree-shaped on the GPU; the same input gives the same bits run to run).'), ('prod', 'with_dtype', 'accumulated', None, False, 'multiply', 'Product of array elements over the given axes (integers wrap as in NumPy).'), ('mean', 'with_dtype', 'mean', None, False, None, 'Arithmetic mean over the given axes; NaN for an empty reduction.'), ('var', 'var', 'variance', None, False, None, 'Variance over the given axes: mean(|x - x.mean()|**2) * N / (N - ddof), in two passes.'), ('std', 'var', 'deviation', None, False, None, 'Standard deviation over the given axes: the square root of var.'), ('min', 'plain', 'same', 'minimum', False, 'minimum', 'Minimum over the given axes; NaN propagates; complex numbers order lexicographically. ValueError for an empty reduction.'), ('max', 'plain', 'same', 'maximum', False, 'maximum', 'Maximum over the given axes; NaN propagates; complex numbers order lexicographically. ValueError for an empty reduction.'), ('argmin', 'arg', 'index', 'argmin', False, None, 'Index of the first minimum (of the first NaN, if any) along an axis.'), ('argmax', 'arg', 'index', 'argmax', False, None, 'Index of the first maximum (of the first NaN, if any) along an axis.'), ('any', 'plain', 'boolean', None, False, 'logical_or', 'Whether any element is non-zero (NaN counts as non-zero).'), ('all', 'plain', 'boolean', None, False, 'logical_and', 'Whether every element is non-zero (NaN counts as non-zero).'), ('count_nonzero', 'count', 'index', None, False, None, 'Number of non-zero elements over the given axes.'), ('nansum', 'with_dtype', 'accumulated', None, True, None, 'Sum treating NaN as zero (on integers and bool: sum).'), ('nanprod', 'with_dtype', 'accumulated', None, True, None, 'Product treating NaN as one (on integers and bool: prod).'), ('nanmean', 'with_dtype', 'mean', None, True, None, 'Mean of the elements that are not NaN; NaN where all are.'), ('nanmin', 'plain', 'same', 'fmin', True, 'fmin', 'Minimum ignoring NaN (NaN where all are NaN).'), ('nanmax', 'plain', 'same', 'fmax', True, 'fmax', 'Maximum ignoring NaN (NaN where all are NaN).'), ('ptp', 'plain', 'same', 'maximum', False, None, 'Range of values (maximum - minimum) over the given axes; NaN propagates; integers wrap. ValueError for an empty reduction.'), ('cumsum', 'scan', 'accumulated', None, False, 'add', 'Cumulative sum along an axis.'), ('cumprod', 'scan', 'accumulated', None, False, 'multiply', 'Cumulative product along an axis.'), ('nancumsum', 'scan', 'accumulated', None, True, None, 'Cumulative sum treating NaN as zero (on integers and bool: cumsum).'), ('nancumprod', 'scan', 'accumulated', None, True, None, 'Cumulative product treating NaN as one (on integers and bool: cumprod).'))
reductions: tuple[str, ...] = ('sum', 'prod', 'mean', 'var', 'std', 'min', 'max', 'argmin', 'argmax', 'any', 'all', 'count_nonzero', 'nansum', 'nanprod', 'nanmean', 'nanmin', 'nanmax', 'ptp')
scans: tuple[str, ...] = ('cumsum', 'cumprod', 'nancumsum', 'nancumprod')
ufunc_table: tuple = (('negative', 1, 'Numerical negative, -x.'), ('positive', 1, 'Numerical positive, +x (a copy).'), ('absolute', 1, 'Absolute value; |z| of complex is real.'), ('sign', 1, '-1, 0 or 1 (NaN stays NaN; z/|z| for complex).'), ('reciprocal', 1, '1/x (integer division for integers, 1/0 gives 0).'), ('square', 1, 'x*x (integers wrap).'), ('sqrt', 1, 'Square root. Integers compute in the smallest float that holds them.'), ('cbrt', 1, 'Cube root. Integers compute in the smallest float that holds them.'), ('logical_not', 1, 'NOT x, as bool.'), ('invert', 1, 'Bitwise NOT (logical NOT for bool).'), ('exp', 1, 'e**x.'), ('exp2', 1, '2**x.'), ('expm1', 1, 'e**x - 1, accurate for small x.'), ('log', 1, 'Natural logarithm.'), ('log2', 1, 'Base-2 logarithm.'), ('log10', 1, 'Base-10 logarithm.'), ('log1p', 1, 'log(1 + x), accurate for small x.'), ('sin', 1, 'Sine.'), ('cos', 1, 'Cosine.'), ('tan', 1, 'Tangent.'), ('arcsin', 1, 'Inverse sine.'), ('arccos', 1, 'Inverse cosine.'), ('arctan', 1, 'Inverse tangent.'), ('sinh', 1, 'Hyperbolic sine.'), ('cosh', 1, 'Hyperbolic cosine.'), ('tanh', 1, 'Hyperbolic tangent.'), ('arcsinh', 1, 'Inverse hyperbolic sine.'), ('arccosh', 1, 'Inverse hyperbolic cosine.'), ('arctanh', 1, 'Inverse hyperbolic tangent.'), ('deg2rad', 1, 'Degrees to radians.'), ('rad2deg', 1, 'Radians to degrees.'), ('floor', 1, 'Largest integer <= x; integers stay as they are.'), ('ceil', 1, 'Smallest integer >= x; integers stay as they are.'), ('trunc', 1, 'x rounded towards zero; integers stay as they are.'), ('rint', 1, 'x rounded to the nearest integer, halves to even.'), ('isnan', 1, 'Whether x is NaN, as bool.'), ('isinf', 1, 'Whether x is infinite, as bool.'), ('isfinite', 1, 'Whether x is finite, as bool.'), ('signbit', 1, 'Whether the sign bit is set, as bool.'), ('add', 2, 'Addition x1 + x2 (integers wrap; logical OR for bool).'), ('subtract', 2, 'Subtraction x1 - x2 (integers wrap).'), ('multiply', 2, 'Multiplication x1 * x2 (integers wrap; logical AND for bool).'), ('divide', 2, 'True division x1 / x2. Integers and bool divide in float64.'), ('div', 2, "AMYPAD NumCu's division: x1 / x2 where x2 is not zero, `default` where it is."), ('floor_divide', 2, "Floor division x1 // x2, Python's signs; integer x // 0 gives 0."), ('remainder', 2, "x1 % x2 with the sign of x2 (Python's); integer x % 0 gives 0."), ('power', 2, 'x1 ** x2; integers wrap, and negative integer exponents raise ValueError.'), ('maximum', 2, 'Elementwise maximum; NaN propagates.'), ('minimum', 2, 'Elementwise minimum; NaN propagates.'), ('fmax', 2, 'Elementwise maximum ignoring NaN.'), ('fmin', 2, 'Elementwise minimum ignoring NaN.'), ('equal', 2, 'x1 == x2, as bool.'), ('not_equal', 2, 'x1 != x2, as bool.'), ('less', 2, 'x1 < x2, as bool (complex: lexicographic).'), ('less_equal', 2, 'x1 <= x2, as bool (complex: lexicographic).'), ('greater', 2, 'x1 > x2, as bool (complex: lexicographic).'), ('greater_equal', 2, 'x1 >= x2, as bool (complex: lexicographic).'), ('logical_and', 2, 'x1 AND x2, as bool.'), ('logical_or', 2, 'x1 OR x2, as bool.'), ('logical_xor', 2, 'x1 XOR x2, as bool.'), ('bitwise_and', 2, 'Bitwise AND.'), ('bitwise_or', 2, 'Bitwise OR.'), ('bitwise_xor', 2, 'Bitwise XOR.'), ('left_shift', 2, 'x1 << x2; shifts by the bit width or more give 0.'), ('right_shift', 2, 'x1 >> x2 (arithmetic for signed); shifts by the bit width or more give 0 or -1.'), ('logaddexp', 2, 'log(exp(x1) + exp(x2)) without overflow.'), ('arctan2', 2, 'The angle of the point (x2, x1), quadrant-aware.'), ('hypot', 2, 'sqrt(x1**2 + x2**2) without overflow.'), ('copysign', 2, 'x1 with the sign of x2.'), ('heaviside', 2, 'Heaviside step: 0 where x1 < 0, x2 where x1 is 0, 1 where x1 > 0.'), ('where', 3, 'Elements of x1 where condition is true, of x2 elsewhere.'), ('clip', 3, 'a limited to [a_min, a_max], NaN propagating.'))
ufuncs: tuple[str, ...] = ('negative', 'positive', 'absolute', 'sign', 'reciprocal', 'square', 'sqrt', 'cbrt', 'logical_not', 'invert', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'deg2rad', 'rad2deg', 'floor', 'ceil', 'trunc', 'rint', 'isnan', 'isinf', 'isfinite', 'signbit', 'add', 'subtract', 'multiply', 'divide', 'floor_divide', 'remainder', 'power', 'maximum', 'minimum', 'fmax', 'fmin', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'logaddexp', 'arctan2', 'hypot', 'copysign', 'heaviside')
