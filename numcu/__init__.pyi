"""
numcu: GPU array kernels for the arrays you already have.

NumPy arrays, numcu device arrays and anything with ``__cuda_array_interface__`` (CuPy,
PyTorch, Numba) go in; every NumPy numeric dtype, broadcasting and any strides are taken.
Host data runs on the GPU when there is one, else on the CPU backend.
"""
from __future__ import annotations
from numcu._core import absolute
from numcu._core import add
from numcu._core import all
from numcu._core import any
from numcu._core import arange
from numcu._core import arccos
from numcu._core import arccosh
from numcu._core import arcsin
from numcu._core import arcsinh
from numcu._core import arctan
from numcu._core import arctan2
from numcu._core import arctanh
from numcu._core import argmax
from numcu._core import argmin
from numcu._core import asarray
from numcu._core import asnumpy
from numcu._core import astype
from numcu._core import bitwise_and
from numcu._core import bitwise_or
from numcu._core import bitwise_xor
from numcu._core import build_info
from numcu._core import cbrt
from numcu._core import ceil
from numcu._core import clip
from numcu._core import copysign
from numcu._core import cos
from numcu._core import cosh
from numcu._core import count_nonzero
from numcu._core import cumprod
from numcu._core import cumsum
from numcu._core import deg2rad
from numcu._core import div
from numcu._core import divide
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
from numcu._core import from_dlpack
from numcu._core import full
from numcu._core import full_like
from numcu._core import get_num_threads
from numcu._core import greater
from numcu._core import greater_equal
from numcu._core import heaviside
from numcu._core import hypot
from numcu._core import invert
from numcu._core import isfinite
from numcu._core import isinf
from numcu._core import isnan
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
from numcu._core import max
from numcu._core import maximum
from numcu._core import mean
from numcu._core import min
from numcu._core import minimum
from numcu._core import mul
from numcu._core import multiply
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
from numcu._core import power
from numcu._core import prod
from numcu._core import rad2deg
from numcu._core import reciprocal
from numcu._core import remainder
from numcu._core import right_shift
from numcu._core import rint
from numcu._core import set_num_threads
from numcu._core import sign
from numcu._core import signbit
from numcu._core import sin
from numcu._core import sinh
from numcu._core import sqrt
from numcu._core import square
from numcu._core import std
from numcu._core import subtract
from numcu._core import sum
from numcu._core import tan
from numcu._core import tanh
from numcu._core import threading_info
from numcu._core import trunc
from numcu._core import var
from numcu._core import where
from numcu._core import zeros
from numcu._core import zeros_like
from numcu._load import load_core
import os as _os
from . import _load
from . import _core
from . import cuda
__all__: list[str] = ['negative', 'positive', 'absolute', 'sign', 'reciprocal', 'square', 'sqrt', 'cbrt', 'logical_not', 'invert', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'deg2rad', 'rad2deg', 'floor', 'ceil', 'trunc', 'rint', 'isnan', 'isinf', 'isfinite', 'signbit', 'add', 'subtract', 'multiply', 'divide', 'floor_divide', 'remainder', 'power', 'maximum', 'minimum', 'fmax', 'fmin', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'logaddexp', 'arctan2', 'hypot', 'copysign', 'heaviside', 'sum', 'prod', 'mean', 'var', 'std', 'min', 'max', 'argmin', 'argmax', 'any', 'all', 'count_nonzero', 'nansum', 'nanprod', 'nanmean', 'nanmin', 'nanmax', 'cumsum', 'cumprod', 'arange', 'asarray', 'asnumpy', 'astype', 'build_info', 'clip', 'cmake_prefix', 'cuda', 'div', 'dtypes', 'empty', 'empty_like', 'from_dlpack', 'full', 'full_like', 'get_num_threads', 'include_path', 'linspace', 'mul', 'ndarray', 'ones', 'ones_like', 'set_num_threads', 'threading_info', 'where', 'zeros', 'zeros_like']
REDUCTIONS: tuple[str, ...] = ('sum', 'prod', 'mean', 'var', 'std', 'min', 'max', 'argmin', 'argmax', 'any', 'all', 'count_nonzero', 'nansum', 'nanprod', 'nanmean', 'nanmin', 'nanmax', 'cumsum', 'cumprod')
UFUNCS: tuple[str, ...] = ('negative', 'positive', 'absolute', 'sign', 'reciprocal', 'square', 'sqrt', 'cbrt', 'logical_not', 'invert', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'deg2rad', 'rad2deg', 'floor', 'ceil', 'trunc', 'rint', 'isnan', 'isinf', 'isfinite', 'signbit', 'add', 'subtract', 'multiply', 'divide', 'floor_divide', 'remainder', 'power', 'maximum', 'minimum', 'fmax', 'fmin', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'logaddexp', 'arctan2', 'hypot', 'copysign', 'heaviside')
__version__: str
cmake_prefix: str
dtypes: tuple[str, ...] = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64', 'complex64', 'complex128', 'bfloat16')
include_path: str
