"""
numcu: GPU array kernels for the arrays you already have.

NumPy arrays, numcu device arrays and anything with ``__cuda_array_interface__`` (CuPy,
PyTorch, Numba) go in; every NumPy numeric dtype, broadcasting and any strides are taken.
Host data runs on the GPU when there is one, else on the CPU backend.
"""
from __future__ import annotations
from numcu._array_api import __array_namespace_info__
from numcu._array_api import astype
from numcu._array_api import broadcast_arrays
from numcu._array_api import broadcast_shapes
from numcu._array_api import broadcast_to
from numcu._array_api import can_cast
from numcu._array_api import clip
from numcu._array_api import concat
from numcu._array_api import concatenate
from numcu._array_api import conj
from numcu._array_api import conj as conjugate
from numcu._array_api import cumulative_prod
from numcu._array_api import cumulative_sum
from numcu._array_api import diff
from numcu._array_api import expand_dims
from numcu._array_api import eye
from numcu._array_api import finfo
from numcu._array_api import flip
from numcu._array_api import from_dlpack
from numcu._array_api import iinfo
from numcu._array_api import imag
from numcu._array_api import isdtype
from numcu._array_api import isin
from numcu._array_api import matmul
from numcu._array_api import matrix_transpose
from numcu._array_api import meshgrid
from numcu._array_api import moveaxis
from numcu._array_api import nextafter
from numcu._array_api import nonzero
from numcu._array_api import permute_dims
from numcu._array_api import ravel_multi_index
from numcu._array_api import real
from numcu._array_api import repeat
from numcu._array_api import reshape
from numcu._array_api import result_type
from numcu._array_api import roll
from numcu._array_api import round as around
from numcu._array_api import round
from numcu._array_api import squeeze
from numcu._array_api import stack
from numcu._array_api import std
from numcu._array_api import take
from numcu._array_api import tensordot
from numcu._array_api import tile
from numcu._array_api import transpose
from numcu._array_api import tril
from numcu._array_api import triu
from numcu._array_api import unique_all
from numcu._array_api import unique_counts
from numcu._array_api import unique_inverse
from numcu._array_api import unique_values
from numcu._array_api import unravel_index
from numcu._array_api import unstack
from numcu._array_api import var
from numcu._array_api import vecdot
from numcu._core import absolute as abs
from numcu._core import absolute
from numcu._core import add
from numcu._core import all
from numcu._core import any
from numcu._core import arange
from numcu._core import arccos as acos
from numcu._core import arccos
from numcu._core import arccosh as acosh
from numcu._core import arccosh
from numcu._core import arcsin
from numcu._core import arcsin as asin
from numcu._core import arcsinh
from numcu._core import arcsinh as asinh
from numcu._core import arctan
from numcu._core import arctan as atan
from numcu._core import arctan2
from numcu._core import arctan2 as atan2
from numcu._core import arctanh
from numcu._core import arctanh as atanh
from numcu._core import argmax
from numcu._core import argmin
from numcu._core import argsort
from numcu._core import asarray
from numcu._core import asnumpy
from numcu._core import bitwise_and
from numcu._core import bitwise_or
from numcu._core import bitwise_xor
from numcu._core import build_info
from numcu._core import cbrt
from numcu._core import ceil
from numcu._core import copysign
from numcu._core import cos
from numcu._core import cosh
from numcu._core import count_nonzero
from numcu._core import cumprod
from numcu._core import cumsum
from numcu._core import deg2rad
from numcu._core import deg2rad as radians
from numcu._core import div
from numcu._core import divide
from numcu._core import divide as true_divide
from numcu._core import empty
from numcu._core import empty_like
from numcu._core import equal
from numcu._core import exp
from numcu._core import exp2
from numcu._core import expm1
from numcu._core import floor
from numcu._core import floor_divide
from numcu._core import fmax
from numcu._core import fmin
from numcu._core import full
from numcu._core import full_like
from numcu._core import get_num_threads
from numcu._core import greater
from numcu._core import greater_equal
from numcu._core import heaviside
from numcu._core import hypot
from numcu._core import invert as bitwise_invert
from numcu._core import invert as bitwise_not
from numcu._core import invert
from numcu._core import isfinite
from numcu._core import isinf
from numcu._core import isnan
from numcu._core import left_shift as bitwise_left_shift
from numcu._core import left_shift
from numcu._core import less
from numcu._core import less_equal
from numcu._core import linspace
from numcu._core import log
from numcu._core import log10
from numcu._core import log1p
from numcu._core import log2
from numcu._core import logaddexp
from numcu._core import logical_and
from numcu._core import logical_not
from numcu._core import logical_or
from numcu._core import logical_xor
from numcu._core import max as amax
from numcu._core import max
from numcu._core import maximum
from numcu._core import mean
from numcu._core import min as amin
from numcu._core import min
from numcu._core import minimum
from numcu._core import mul
from numcu._core import multiply
from numcu._core import nancumprod
from numcu._core import nancumsum
from numcu._core import nanmax
from numcu._core import nanmean
from numcu._core import nanmin
from numcu._core import nanprod
from numcu._core import nansum
from numcu._core import ndarray
from numcu._core import negative
from numcu._core import not_equal
from numcu._core import ones
from numcu._core import ones_like
from numcu._core import positive
from numcu._core import power as pow
from numcu._core import power
from numcu._core import prod
from numcu._core import ptp
from numcu._core import rad2deg as degrees
from numcu._core import rad2deg
from numcu._core import reciprocal
from numcu._core import remainder as mod
from numcu._core import remainder
from numcu._core import right_shift as bitwise_right_shift
from numcu._core import right_shift
from numcu._core import rint
from numcu._core import searchsorted
from numcu._core import set_num_threads
from numcu._core import sign
from numcu._core import signbit
from numcu._core import sin
from numcu._core import sinh
from numcu._core import sort
from numcu._core import sqrt
from numcu._core import square
from numcu._core import subtract
from numcu._core import sum
from numcu._core import take_along_axis
from numcu._core import tan
from numcu._core import tanh
from numcu._core import threading_info
from numcu._core import trunc
from numcu._core import where
from numcu._core import zeros
from numcu._core import zeros_like
from numcu._fusion import evaluate
from numcu._fusion import fuse
from numcu._load import load_core
from numcu._placement import Placement as _Placement
import numpy.dtypes
import os as _os
import sys as _sys
from . import _load
from . import _core
from . import _methods
from . import _pickle
from . import cuda
from . import _array_api
from . import random
from . import _fusion
from . import fft
from . import linalg
from . import _placement
__all__: list[str] = ['negative', 'positive', 'absolute', 'sign', 'reciprocal', 'square', 'sqrt', 'cbrt', 'logical_not', 'invert', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'deg2rad', 'rad2deg', 'floor', 'ceil', 'trunc', 'rint', 'isnan', 'isinf', 'isfinite', 'signbit', 'add', 'subtract', 'multiply', 'divide', 'floor_divide', 'remainder', 'power', 'maximum', 'minimum', 'fmax', 'fmin', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'logaddexp', 'arctan2', 'hypot', 'copysign', 'heaviside', 'sum', 'prod', 'mean', 'var', 'std', 'min', 'max', 'argmin', 'argmax', 'any', 'all', 'count_nonzero', 'nansum', 'nanprod', 'nanmean', 'nanmin', 'nanmax', 'ptp', 'cumsum', 'cumprod', 'nancumsum', 'nancumprod', 'e', 'inf', 'nan', 'pi', 'newaxis', 'bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64', 'complex64', 'complex128', 'astype', 'can_cast', 'finfo', 'iinfo', 'isdtype', 'result_type', 'abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bitwise_invert', 'bitwise_left_shift', 'bitwise_right_shift', 'pow', 'true_divide', 'mod', 'bitwise_not', 'degrees', 'radians', 'real', 'imag', 'conj', 'conjugate', 'round', 'around', 'amax', 'amin', 'nextafter', 'clip', 'eye', 'tril', 'triu', 'meshgrid', 'from_dlpack', 'broadcast_to', 'broadcast_arrays', 'broadcast_shapes', 'concat', 'concatenate', 'transpose', 'stack', 'expand_dims', 'flip', 'permute_dims', 'moveaxis', 'reshape', 'roll', 'squeeze', 'tile', 'unstack', 'repeat', 'nonzero', 'unravel_index', 'ravel_multi_index', 'unique_all', 'unique_counts', 'unique_inverse', 'unique_values', 'isin', 'cumulative_sum', 'cumulative_prod', 'std', 'var', 'diff', 'matmul', 'tensordot', 'vecdot', 'matrix_transpose', 'argsort', 'searchsorted', 'sort', 'take', 'take_along_axis', 'arange', 'asarray', 'asnumpy', 'astype', 'build_info', 'clip', 'cmake_prefix', 'cuda', 'div', 'fft', 'linalg', 'dtypes', 'empty', 'empty_like', 'evaluate', 'from_dlpack', 'full', 'full_like', 'fuse', 'get_num_threads', 'include_path', 'linspace', 'mul', 'ndarray', 'ones', 'ones_like', 'placement', 'random', 'set_num_threads', 'threading_info', 'where', 'zeros', 'zeros_like']
REDUCTIONS: tuple[str, ...] = ('sum', 'prod', 'mean', 'var', 'std', 'min', 'max', 'argmin', 'argmax', 'any', 'all', 'count_nonzero', 'nansum', 'nanprod', 'nanmean', 'nanmin', 'nanmax', 'ptp', 'cumsum', 'cumprod', 'nancumsum', 'nancumprod')
UFUNCS: tuple[str, ...] = ('negative', 'positive', 'absolute', 'sign', 'reciprocal', 'square', 'sqrt', 'cbrt', 'logical_not', 'invert', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'deg2rad', 'rad2deg', 'floor', 'ceil', 'trunc', 'rint', 'isnan', 'isinf', 'isfinite', 'signbit', 'add', 'subtract', 'multiply', 'divide', 'floor_divide', 'remainder', 'power', 'maximum', 'minimum', 'fmax', 'fmin', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'logaddexp', 'arctan2', 'hypot', 'copysign', 'heaviside')
__array_api_version__: str
__version__: str
bool: numpy.dtypes.BoolDType
cmake_prefix: str
complex128: numpy.dtypes.Complex128DType
complex64: numpy.dtypes.Complex64DType
dtypes: tuple[str, ...] = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64', 'complex64', 'complex128', 'bfloat16')
e: float = 2.718281828459045
float16: numpy.dtypes.Float16DType
float32: numpy.dtypes.Float32DType
float64: numpy.dtypes.Float64DType
include_path: str
inf: float
int16: numpy.dtypes.Int16DType
int32: numpy.dtypes.Int32DType
int64: numpy.dtypes.Int64DType
int8: numpy.dtypes.Int8DType
nan: float
newaxis = None
pi: float = 3.141592653589793
placement: _placement.Placement
uint16: numpy.dtypes.UInt16DType
uint32: numpy.dtypes.UInt32DType
uint64: numpy.dtypes.UInt64DType
uint8: numpy.dtypes.UInt8DType
