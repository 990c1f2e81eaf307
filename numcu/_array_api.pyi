"""
numcu as an Array API namespace (revision 2025.12), and NumPy's dispatch protocols.

The standard's functions that need kernels (sort, argsort, unique, searchsorted, nonzero, take,
take_along_axis, matmul on the GPU) are in numcu._core; this module holds the ones that are
compositions of numcu's operations, views and copies, the standard's names for NumPy's
functions, and numcu.ndarray's ``__array_ufunc__`` and ``__array_function__`` (through which
NumPy's own functions, called on numcu arrays, run numcu's).

Host data stays NumPy: where an input is a NumPy array, manipulation functions (concat,
reshape, ...) are NumPy's, and the result is a NumPy array. Device arrays stay numcu.ndarray on
their GPU; nothing is copied to the host behind the caller's back, and what numcu cannot do
returns NotImplemented to NumPy, which then raises TypeError.
"""
from __future__ import annotations
import ast as ast
import builtins as builtins
from collections import namedtuple
import inspect as inspect
import math as math
import numcu as _numcu
import numcu._core
from numcu import _core
from numcu._core import absolute as abs
from numcu._core import arccos as acos
from numcu._core import arccosh as acosh
from numcu._core import arcsin as asin
from numcu._core import arcsinh as asinh
from numcu._core import arctan as atan
from numcu._core import arctan2 as atan2
from numcu._core import arctanh as atanh
from numcu._core import deg2rad as radians
from numcu._core import divide as true_divide
from numcu._core import invert as bitwise_invert
from numcu._core import invert as bitwise_not
from numcu._core import left_shift as bitwise_left_shift
from numcu._core import max as amax
from numcu._core import min as amin
from numcu._core import ndarray
from numcu._core import power as pow
from numcu._core import rad2deg as degrees
from numcu._core import remainder as mod
from numcu._core import right_shift as bitwise_right_shift
from numcu._load import load_core
import numpy
import numpy as np
import numpy.dtypes
import operator as operator
import re as re
import typing as typing
__all__: list[str] = ['NAMESPACE', 'UniqueAllResult', 'UniqueCountsResult', 'UniqueInverseResult', 'abs', 'acos', 'acosh', 'amax', 'amin', 'around', 'array_function', 'array_namespace', 'array_ufunc', 'asarray_nested', 'asin', 'asinh', 'ast', 'astype', 'atan', 'atan2', 'atanh', 'bitwise_invert', 'bitwise_left_shift', 'bitwise_not', 'bitwise_right_shift', 'bool', 'broadcast_arrays', 'broadcast_shapes', 'broadcast_to', 'builtins', 'can_cast', 'check_host_indices', 'clip', 'complex128', 'complex64', 'concat', 'concatenate', 'conj', 'conjugate', 'cumulative_prod', 'cumulative_sum', 'degrees', 'diff', 'e', 'expand_dims', 'eye', 'finfo', 'flip', 'float16', 'float32', 'float64', 'from_dlpack', 'full_from_array', 'full_like_from_array', 'getitem', 'iinfo', 'imag', 'index', 'inf', 'inspect', 'install', 'int16', 'int32', 'int64', 'int8', 'isdtype', 'isin', 'load_core', 'math', 'matmul', 'matmul_inplace', 'matmul_operator', 'matrix_transpose', 'meshgrid', 'mod', 'moveaxis', 'namedtuple', 'nan', 'ndarray', 'newaxis', 'nextafter', 'nonzero', 'np', 'operator', 'permute_dims', 'pi', 'pow', 'radians', 'ravel_multi_index', 're', 'real', 'repeat', 'reshape', 'result_type', 'roll', 'round', 'setitem', 'squeeze', 'stack', 'std', 'take', 'tensordot', 'tile', 'to_device', 'transpose', 'tril', 'triu', 'true_divide', 'typing', 'uint16', 'uint32', 'uint64', 'uint8', 'unique_all', 'unique_complex', 'unique_counts', 'unique_inverse', 'unique_values', 'unravel_index', 'unstack', 'var', 'vecdot']
class _Info:
    """
    The standard's ``__array_namespace_info__()``: devices, dtypes and capabilities.
    """
    def capabilities(self):
        ...
    def default_device(self):
        ...
    def default_dtypes(self, *, device = None):
        ...
    def devices(self):
        ...
    def dtypes(self, *, device = None, kind = None):
        ...
class _FloatInfo:
    """
    finfo's answer: the standard's attributes as Python numbers (NumPy's finfo gives float32
        scalars for float32), anything else NumPy's finfo has (tiny, resolution, ...) from it.
    """
    def __getattr__(self, name):
        ...
    def __init__(self, dtype):
        ...
    def __repr__(self):
        ...
class UniqueAllResult(tuple):
    """
    UniqueAllResult(values, indices, inverse_indices, counts)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('values', 'indices', 'inverse_indices', 'counts')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('values', 'indices', 'inverse_indices', 'counts')
    @staticmethod
    def __new__(_cls, values, indices, inverse_indices, counts):
        """
        Create new instance of UniqueAllResult(values, indices, inverse_indices, counts)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new UniqueAllResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new UniqueAllResult object replacing specified fields with new values
        """
class UniqueCountsResult(tuple):
    """
    UniqueCountsResult(values, counts)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('values', 'counts')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('values', 'counts')
    @staticmethod
    def __new__(_cls, values, counts):
        """
        Create new instance of UniqueCountsResult(values, counts)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new UniqueCountsResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new UniqueCountsResult object replacing specified fields with new values
        """
class UniqueInverseResult(tuple):
    """
    UniqueInverseResult(values, inverse_indices)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('values', 'inverse_indices')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('values', 'inverse_indices')
    @staticmethod
    def __new__(_cls, values, inverse_indices):
        """
        Create new instance of UniqueInverseResult(values, inverse_indices)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new UniqueInverseResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new UniqueInverseResult object replacing specified fields with new values
        """
def __array_namespace_info__():
    ...
def _adapted(func, fn):
    """
    fn called with the arguments NumPy's func takes (see above).
    """
def _argwhere(a):
    ...
def _array(obj, dtype = None, *, copy = True, order = 'K', subok = False, ndmin = 0, like = None, device = None):
    ...
def _array_equal(a1, a2, equal_nan = False):
    ...
def _as_array(x, like = None):
    """
    `x` as an array: arrays as they are, anything else on `like`'s side.
    """
def _as_input(x):
    """
    `x` as an array a composed operation works on: numcu and NumPy arrays as they are, other
        libraries' device arrays (CUDA Array Interface, DLPack on CUDA) as numcu arrays without a
        copy, anything else through NumPy.
    """
def _assign_indexed(a, key, value):
    """
    a[key] = value for integer arrays (and integers, full slices, '...') in `key`.
    """
def _assign_masked(a, mask, value):
    ...
def _atleast(arrays, n, always_list = False):
    ...
def _axes(axis, ndim, fname):
    ...
def _copyto(dst, src, casting = 'same_kind', where = True):
    ...
def _device_arg(x):
    """
    What device= takes to put a new array where `x` is.
    """
def _dot(a, b, out = None):
    ...
def _dtype_of(x):
    ...
def _into(out, result):
    """
    `result`, or written into `out` (returned) where one was given.
    """
def _is_default(value, default):
    ...
def _is_device(x):
    ...
def _isclose(a, b, rtol = 1e-05, atol = 1e-08, equal_nan = False):
    ...
def _lookup(func, namespace):
    ...
def _no(name, value, default = None, fname = ''):
    ...
def _normalize_axis(axis, ndim, fname):
    ...
def _parameters(fn):
    """
    (names that may go by position, names that may go by keyword, takes *args) of fn, from its
        signature, or for a pybind11 function from the one its docstring starts with; None when
        neither says.
    """
def _part(x, which):
    """
    The real (0) or imaginary (1) part of a complex array, as a view.
    """
def _same_place(arrays, fname):
    ...
def _sort(kernel, name):
    ...
def _squeeze(a, axis = None):
    ...
def _stacked(n, axis_of):
    ...
def _swapaxes(a, axis1, axis2):
    ...
def _triangle(x, k, lower):
    ...
def _unique(ar, return_index = False, return_inverse = False, return_counts = False, axis = None, *, equal_nan = True, sorted = True):
    ...
def _unsupported(fname, name):
    ...
def _where(condition, x = None, y = None):
    ...
def _with_correction(core_fn):
    """
    core_fn (std or var) taking the standard's `correction` as another name for `ddof`.
    """
def _with_initial(fn, identity, x, axis, dtype, include_initial, fname):
    ...
def array_function(self: typing.Any, func: typing.Any, types: typing.Any, args: typing.Any, kwargs: typing.Any) -> typing.Any:
    """
    NumPy functions on numcu arrays run numcu's (NotImplemented where numcu has none).
    """
def array_namespace(api_version = None):
    """
    numcu (the module install() was handed), or numcu as an earlier revision has it.
    """
def array_ufunc(self: typing.Any, ufunc: typing.Any, method: str, *inputs: typing.Any, **kwargs: typing.Any) -> typing.Any:
    """
    NumPy ufuncs on numcu arrays run numcu's function (NotImplemented where numcu has none).
    """
def asarray_nested(obj, dtype, copy, device, stream):
    """
    numcu.asarray of a list or tuple that holds numcu device arrays (NumPy cannot read them):
        each item converted on the device (the first device array's, unless `device` is given), then
        stacked there, level by level; the host does not wait for the GPU.
    """
def astype(x, dtype, *, copy = True, device = None, stream = None):
    ...
def broadcast_arrays(*arrays):
    ...
def broadcast_shapes(*shapes):
    """
    The shape the given shapes broadcast to (a tuple; ``()`` for none): ValueError naming them
        where they do not broadcast.
    """
def broadcast_to(x, shape):
    ...
def can_cast(from_, to):
    ...
def check_host_indices(indices, n, fname, axis):
    """
    IndexError for host-held integer indices outside [-n, n) (NumPy's rule).
    
        Indices on the GPU are not checked (that would make the host wait): the kernels read the
        nearest element. Host indices cost one pass of NumPy here and are checked wherever the work
        runs, so the answer does not depend on placement.
        
    """
def clip(x, min = None, max = None, out = None, *, a_min = None, a_max = None, device = None, stream = None):
    ...
def concat(arrays, *, axis = 0, dtype = None, out = None):
    ...
def concatenate(arrays, axis = 0, out = None, *, dtype = None, casting = 'same_kind'):
    """
    NumPy's name and signature for concat.
    """
def conj(x):
    ...
def cumulative_prod(x, *, axis = None, dtype = None, include_initial = False):
    ...
def cumulative_sum(x, *, axis = None, dtype = None, include_initial = False):
    ...
def diff(x, *, axis = -1, n = 1, prepend = None, append = None):
    ...
def expand_dims(x, axis = 0):
    ...
def eye(n_rows, n_cols = None, *, k = 0, dtype = None, device = None, stream = None):
    ...
def finfo(type):
    ...
def flip(x, *, axis = None):
    ...
def from_dlpack(x, *, device = None, copy = None):
    """
    `x` (any ``__dlpack__`` producer) as an array on `device`: by default where `x` is (a
        numcu.ndarray sharing its GPU memory, or a NumPy array for host data); ``device='cpu'`` asks
        the producer for a host copy (DLPack's ``dl_device=(kDLCPU, 0)``), a GPU copies host data to
        it. ``copy=False`` raises BufferError where a copy is needed, ``copy=True`` always copies.
    """
def full_from_array(shape, value, dtype, device, stream, memory, fname):
    """
    numcu.full with an array as the fill value, which NumPy broadcasts to the shape: the
        value converted and placed as asarray does, then a C-ordered copy of its broadcast view.
    """
def full_like_from_array(a, value, dtype, shape, device, stream, memory, fname):
    """
    numcu.full_like with an array as the fill value (see full_from_array): a's shape and dtype
        unless given, on a's side unless `device` is.
    """
def getitem(a, key):
    """
    a[key] with integer or boolean arrays in `key` (numcu.ndarray's advanced indexing).
    """
def iinfo(type):
    ...
def imag(x):
    ...
def index(x):
    """
    The int a 0-d integer array holds (``operator.index``).
    """
def install(namespace):
    """
    Sets numcu.ndarray's protocol methods written here, and registers with the compiled module
        what it hands over to this module (array indices, array fill values, lists of device arrays,
        unique of complex numbers): once, at ``import numcu``, which passes its own module. Data flows
        down: numcu._core never imports numcu's Python modules.
    """
def isdtype(dtype, kind):
    ...
def isin(x1, x2, assume_unique = False, invert = False, *, kind = None):
    """
    Whether each element of `x1` is among the elements of `x2` (value equality, so NaN is in
        nothing and -0.0 matches 0.0), as a bool array of x1's shape; ``invert=True`` asks the
        opposite. Either may be a Python scalar. Host data is NumPy's isin; on a GPU, x2 is sorted
        and x1's elements looked up in it by binary search (complex x2, which has no order, is
        compared with every element of x1: fine for the small sets isin is used with).
        ``assume_unique`` and ``kind`` are NumPy's, accepted and not needed.
    """
def matmul(x1, x2):
    ...
def matmul_inplace(x1, x2):
    """
    x1 @= x2: the product written into x1, whose shape it must have.
    """
def matmul_operator(x1, x2):
    """
    x1 @ x2 (numcu.matmul), or NotImplemented for an operand that is not an array.
    """
def matrix_transpose(x):
    ...
def meshgrid(*arrays, indexing = 'xy'):
    ...
def moveaxis(x, source, destination):
    ...
def nextafter(x1, x2):
    ...
def nonzero(x):
    ...
def permute_dims(x, axes):
    ...
def ravel_multi_index(multi_index, dims, mode = 'raise', order = 'C'):
    """
    NumPy's ravel_multi_index: flat positions in an array of shape `dims` of the coordinate
        arrays in `multi_index` (broadcast together), int64, computed where they are. `mode` per
        dimension: 'wrap' and 'clip' as NumPy's; 'raise' checks host coordinates (ValueError) and not
        those on the GPU (that would make the host wait): one out of bounds gives a position past
        the others.
    """
def real(x):
    ...
def repeat(x, repeats, *, axis = None):
    ...
def reshape(x, shape, *, copy = None):
    ...
def result_type(*arrays_and_dtypes):
    ...
def roll(x, shift, *, axis = None):
    ...
def round(x, decimals = 0, out = None):
    ...
def setitem(a, key, value):
    """
    a[key] = value with arrays in `key` (numcu.ndarray's advanced assignment).
    
        A boolean mask (alone, or followed by '...') covers a's leading dimensions. A value that is
        the same for every selected element (a scalar, or an array broadcasting to the selected
        block with 1 for the count) is written through numcu.where, and the host does not wait. One
        value per selected element (a leading dimension equal to the count, as ``x[mask] =
        y[mask]``) needs the selected positions first, which waits for their count (one small copy
        to the host, as CuPy and PyTorch do), then scatters the values there.
    
        Integer arrays (with integers, full slices and '...' between them, as in ``a[key]``):
        `value` broadcasts to ``a[key]``'s shape and is scattered, without a wait. Where positions
        repeat, one of their values lands (NumPy's is the last; on the GPU it may be any).
        
    """
def squeeze(x, axis):
    ...
def stack(arrays, *, axis = 0, out = None, dtype = None):
    ...
def std(x, axis = None, dtype = None, out = None, ddof = 0, keepdims = False, *, correction = None, device = None, stream = None):
    ...
def take(x, indices, *, axis = None, device = None, stream = None):
    """
    take(x: object, indices: object, /, *, axis: object = None, device: object = None, stream: object = None) -> object
    
    Elements of `x` at `indices` (integers, negative ones count from the end) along `axis` (None: of the flattened array). Out-of-bounds indices raise IndexError on the CPU; on the GPU, which the host does not wait for, they read the nearest element.
    
    device, stream :
        Where to compute and the CUDA stream to queue on, as for numcu.add.
    
    """
def tensordot(x1, x2, *, axes = 2):
    ...
def tile(x, repetitions):
    ...
def to_device(x, device, stream = None):
    """
    A copy on `device` ('cpu': a NumPy array), or the array itself when it is there.
    """
def transpose(a, axes = None):
    """
    NumPy's transpose: a view with the axes permuted (reversed by default).
    """
def tril(x, *, k = 0):
    ...
def triu(x, *, k = 0):
    ...
def unique_all(x):
    ...
def unique_complex(x, want_values, want_indices, want_inverse, want_counts, nan_distinct, device, stream):
    """
    numcu.unique of complex numbers, which have no sort keys of their own (C++ hands over).
    
        Three stable argsorts put the elements in NumPy's order: by imaginary part, then real part,
        then where the NaNs are (neither part, the imaginary, the real, both). Complex equality with
        the element before then marks where each distinct value starts: NaNs are each distinct,
        unless not nan_distinct, where all of them are one value (NumPy's equal_nan). The outputs
        are those of numcu's unique of real numbers: first positions, inverse, int64 counts.
        
    """
def unique_counts(x):
    ...
def unique_inverse(x):
    ...
def unique_values(x):
    ...
def unravel_index(indices, shape, order = 'C'):
    """
    NumPy's unravel_index: the coordinates in an array of `shape` of flat positions `indices`,
        a tuple of int64 arrays shaped like `indices`, computed where `indices` is. Positions held on
        the host are checked (ValueError, as NumPy's); those on the GPU are not (that would make the
        host wait): one out of bounds wraps around.
    """
def unstack(x, *, axis = 0):
    ...
def var(x, axis = None, dtype = None, out = None, ddof = 0, keepdims = False, *, correction = None, device = None, stream = None):
    ...
def vecdot(x1, x2, *, axis = -1):
    ...
NAMESPACE: list[str] = ['__array_api_version__', '__array_namespace_info__', 'e', 'inf', 'nan', 'pi', 'newaxis', 'bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64', 'complex64', 'complex128', 'astype', 'can_cast', 'finfo', 'iinfo', 'isdtype', 'result_type', 'abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bitwise_invert', 'bitwise_left_shift', 'bitwise_right_shift', 'pow', 'true_divide', 'mod', 'bitwise_not', 'degrees', 'radians', 'real', 'imag', 'conj', 'conjugate', 'round', 'around', 'amax', 'amin', 'nextafter', 'clip', 'eye', 'tril', 'triu', 'meshgrid', 'from_dlpack', 'broadcast_to', 'broadcast_arrays', 'broadcast_shapes', 'concat', 'concatenate', 'transpose', 'stack', 'expand_dims', 'flip', 'permute_dims', 'moveaxis', 'reshape', 'roll', 'squeeze', 'tile', 'unstack', 'repeat', 'nonzero', 'unravel_index', 'ravel_multi_index', 'unique_all', 'unique_counts', 'unique_inverse', 'unique_values', 'isin', 'cumulative_sum', 'cumulative_prod', 'std', 'var', 'diff', 'matmul', 'tensordot', 'vecdot', 'matrix_transpose']
_ACCUMULATE: dict = {'add': 'cumsum', 'multiply': 'cumprod'}
_ALIASES: dict = {'abs': 'absolute', 'acos': 'arccos', 'acosh': 'arccosh', 'asin': 'arcsin', 'asinh': 'arcsinh', 'atan': 'arctan', 'atan2': 'arctan2', 'atanh': 'arctanh', 'bitwise_invert': 'invert', 'bitwise_left_shift': 'left_shift', 'bitwise_right_shift': 'right_shift', 'pow': 'power'}
_BOOL: numpy.dtypes.BoolDType
_CREATION: frozenset
_DTYPES: dict
_FUNCTIONS: dict = {}
_NUMPY_ALIASES: dict = {'true_divide': 'divide', 'mod': 'remainder', 'bitwise_not': 'invert', 'degrees': 'rad2deg', 'radians': 'deg2rad'}
_NUMPY_ONLY: dict
_OPERAND_TYPES: tuple = (numcu._core.ndarray, int, float, complex, bool, numpy.ndarray, numpy.generic)
_REDUCE: dict = {'add': 'sum', 'multiply': 'prod', 'minimum': 'min', 'maximum': 'max', 'logical_or': 'any', 'logical_and': 'all', 'fmin': 'nanmin', 'fmax': 'nanmax'}
_RENAMED: dict = {'asanyarray': 'asarray', 'ascontiguousarray': 'asarray'}
_SCALARS: tuple = (int, float, complex, bool)
_TABLE: dict = {'sum': ('sum', 'with_dtype', 'accumulated', None, False, 'add', 'Sum of array elements over the given axes (float sums are pairwise on the CPU and tree-shaped on the GPU; the same input gives the same bits run to run).'), 'prod': ('prod', 'with_dtype', 'accumulated', None, False, 'multiply', 'Product of array elements over the given axes (integers wrap as in NumPy).'), 'mean': ('mean', 'with_dtype', 'mean', None, False, None, 'Arithmetic mean over the given axes; NaN for an empty reduction.'), 'var': ('var', 'var', 'variance', None, False, None, 'Variance over the given axes: mean(|x - x.mean()|**2) * N / (N - ddof), in two passes.'), 'std': ('std', 'var', 'deviation', None, False, None, 'Standard deviation over the given axes: the square root of var.'), 'min': ('min', 'plain', 'same', 'minimum', False, 'minimum', 'Minimum over the given axes; NaN propagates; complex numbers order lexicographically. ValueError for an empty reduction.'), 'max': ('max', 'plain', 'same', 'maximum', False, 'maximum', 'Maximum over the given axes; NaN propagates; complex numbers order lexicographically. ValueError for an empty reduction.'), 'argmin': ('argmin', 'arg', 'index', 'argmin', False, None, 'Index of the first minimum (of the first NaN, if any) along an axis.'), 'argmax': ('argmax', 'arg', 'index', 'argmax', False, None, 'Index of the first maximum (of the first NaN, if any) along an axis.'), 'any': ('any', 'plain', 'boolean', None, False, 'logical_or', 'Whether any element is non-zero (NaN counts as non-zero).'), 'all': ('all', 'plain', 'boolean', None, False, 'logical_and', 'Whether every element is non-zero (NaN counts as non-zero).'), 'count_nonzero': ('count_nonzero', 'count', 'index', None, False, None, 'Number of non-zero elements over the given axes.'), 'nansum': ('nansum', 'with_dtype', 'accumulated', None, True, None, 'Sum treating NaN as zero (on integers and bool: sum).'), 'nanprod': ('nanprod', 'with_dtype', 'accumulated', None, True, None, 'Product treating NaN as one (on integers and bool: prod).'), 'nanmean': ('nanmean', 'with_dtype', 'mean', None, True, None, 'Mean of the elements that are not NaN; NaN where all are.'), 'nanmin': ('nanmin', 'plain', 'same', 'fmin', True, 'fmin', 'Minimum ignoring NaN (NaN where all are NaN).'), 'nanmax': ('nanmax', 'plain', 'same', 'fmax', True, 'fmax', 'Maximum ignoring NaN (NaN where all are NaN).'), 'ptp': ('ptp', 'plain', 'same', 'maximum', False, None, 'Range of values (maximum - minimum) over the given axes; NaN propagates; integers wrap. ValueError for an empty reduction.'), 'cumsum': ('cumsum', 'scan', 'accumulated', None, False, 'add', 'Cumulative sum along an axis.'), 'cumprod': ('cumprod', 'scan', 'accumulated', None, False, 'multiply', 'Cumulative product along an axis.'), 'nancumsum': ('nancumsum', 'scan', 'accumulated', None, True, None, 'Cumulative sum treating NaN as zero (on integers and bool: cumsum).'), 'nancumprod': ('nancumprod', 'scan', 'accumulated', None, True, None, 'Cumulative product treating NaN as one (on integers and bool: cumprod).')}
_UFUNC_EXTRA: dict = {'conjugate': conj, 'matmul': matmul, 'vecdot': vecdot}
_UFUNC_IMPLS: dict = {'negative': numcu._core.negative, 'positive': numcu._core.positive, 'absolute': numcu._core.absolute, 'sign': numcu._core.sign, 'reciprocal': numcu._core.reciprocal, 'square': numcu._core.square, 'sqrt': numcu._core.sqrt, 'cbrt': numcu._core.cbrt, 'logical_not': numcu._core.logical_not, 'invert': numcu._core.invert, 'exp': numcu._core.exp, 'exp2': numcu._core.exp2, 'expm1': numcu._core.expm1, 'log': numcu._core.log, 'log2': numcu._core.log2, 'log10': numcu._core.log10, 'log1p': numcu._core.log1p, 'sin': numcu._core.sin, 'cos': numcu._core.cos, 'tan': numcu._core.tan, 'arcsin': numcu._core.arcsin, 'arccos': numcu._core.arccos, 'arctan': numcu._core.arctan, 'sinh': numcu._core.sinh, 'cosh': numcu._core.cosh, 'tanh': numcu._core.tanh, 'arcsinh': numcu._core.arcsinh, 'arccosh': numcu._core.arccosh, 'arctanh': numcu._core.arctanh, 'deg2rad': numcu._core.deg2rad, 'rad2deg': numcu._core.rad2deg, 'floor': numcu._core.floor, 'ceil': numcu._core.ceil, 'trunc': numcu._core.trunc, 'rint': numcu._core.rint, 'isnan': numcu._core.isnan, 'isinf': numcu._core.isinf, 'isfinite': numcu._core.isfinite, 'signbit': numcu._core.signbit, 'add': numcu._core.add, 'subtract': numcu._core.subtract, 'multiply': numcu._core.multiply, 'divide': numcu._core.divide, 'floor_divide': numcu._core.floor_divide, 'remainder': numcu._core.remainder, 'power': numcu._core.power, 'maximum': numcu._core.maximum, 'minimum': numcu._core.minimum, 'fmax': numcu._core.fmax, 'fmin': numcu._core.fmin, 'equal': numcu._core.equal, 'not_equal': numcu._core.not_equal, 'less': numcu._core.less, 'less_equal': numcu._core.less_equal, 'greater': numcu._core.greater, 'greater_equal': numcu._core.greater_equal, 'logical_and': numcu._core.logical_and, 'logical_or': numcu._core.logical_or, 'logical_xor': numcu._core.logical_xor, 'bitwise_and': numcu._core.bitwise_and, 'bitwise_or': numcu._core.bitwise_or, 'bitwise_xor': numcu._core.bitwise_xor, 'left_shift': numcu._core.left_shift, 'right_shift': numcu._core.right_shift, 'logaddexp': numcu._core.logaddexp, 'arctan2': numcu._core.arctan2, 'hypot': numcu._core.hypot, 'copysign': numcu._core.copysign, 'heaviside': numcu._core.heaviside, 'true_divide': numcu._core.divide, 'mod': numcu._core.remainder, 'bitwise_not': numcu._core.invert, 'degrees': numcu._core.rad2deg, 'radians': numcu._core.deg2rad, 'conjugate': conj, 'matmul': matmul, 'vecdot': vecdot}
_VERSIONS: tuple[str, ...] = ('2021.12', '2022.12', '2023.12', '2024.12', '2025.12')
__array_api_version__: str
_name: str
_target: str
bool: numpy.dtypes.BoolDType
complex128: numpy.dtypes.Complex128DType
complex64: numpy.dtypes.Complex64DType
e: float = 2.718281828459045
float16: numpy.dtypes.Float16DType
float32: numpy.dtypes.Float32DType
float64: numpy.dtypes.Float64DType
inf: float
int16: numpy.dtypes.Int16DType
int32: numpy.dtypes.Int32DType
int64: numpy.dtypes.Int64DType
int8: numpy.dtypes.Int8DType
nan: float
newaxis = None
pi: float = 3.141592653589793
uint16: numpy.dtypes.UInt16DType
uint32: numpy.dtypes.UInt32DType
uint64: numpy.dtypes.UInt64DType
uint8: numpy.dtypes.UInt8DType
conjugate = conj
around = round
