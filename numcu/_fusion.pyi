"""
Fused expressions: ``numcu.evaluate`` (numexpr's language), ``numcu.fuse`` (cupy.fuse's).

Both turn an expression into a graph of numcu's ops once (the string is parsed with Python's
``ast``; the function is traced with stand-in arguments) and hand it to the compiled module,
whose ``_FusedExpr`` types it per call signature exactly as the unfused ufunc calls would be
typed (NEP 50 per operator) and runs it in one pass over memory: precompiled interpreter
kernels on the GPU, the ufunc table's own loops in cache-sized blocks on the CPU. Nothing is
compiled at run time. An outer reduction (``sum``, ``prod``, ``min``, ``max``, with ``axis``)
runs numcu's reduction on the fused result.

The graph's nodes, as ``_core._FusedExpr`` takes them:

- ``("input", k)``: argument ``k`` of the call;
- ``("literal", value)``: a Python scalar written in the expression;
- ``("op", number, (arg, ...), params, python_op)``: an op of ``_core._fused_ops`` (every ufunc of
  numcu's table and numexpr's ``real``, ``imag``, ``conj``, ``complex``, ``ones_like``; the cast is
  ``_core._fused_cast_op`` with ``params = (dtype number, 0)``, or ``(-1, 0)`` for a copy);
  ``params`` is div's default; ``python_op`` is Python's operator for nodes written as operators,
  which the call applies where every operand is a Python scalar (as unfused code does).
"""
from __future__ import annotations
import _operator
import ast as ast
import functools as functools
import numcu as _numcu
from numcu import _core
from numcu._load import load_core
import numpy as np
import operator as operator
import sys as sys
import types as types
import typing
from typing import Any
__all__: list[str] = ['evaluate', 'fuse']
class _Graph:
    """
    Nodes in the order they are made (each node's arguments come before it).
    """
    def __init__(self, fname: str):
        ...
    def cast(self, arg: int, dtype) -> int:
        ...
    def input(self, k: int) -> int:
        ...
    def literal(self, value: typing.Any) -> int:
        ...
    def op(self, name: str, args: tuple[int, ...], params = None, python_op = None) -> int:
        ...
    def pruned(self, root: int) -> list[tuple]:
        """
        The nodes the root depends on, renumbered, the root last.
        """
class _Parsed:
    """
    An expression string parsed: its graph, the names it reads, and its outer reduction.
    """
    __slots__: typing.ClassVar[tuple[str, ...]] = ('expr', 'names', 'reduction', 'axis')
    def __init__(self, expr, names, reduction, axis):
        ...
class _Parser:
    def __init__(self, ex: str):
        ...
    def _reduction_args(self, call: ast.Call):
        ...
    def parse(self) -> _Parsed:
        ...
    def visit(self, node: ast.AST) -> int:
        ...
    def visit_call(self, node: ast.Call) -> int:
        ...
    def visit_operator(self, node: ast.AST, op: ast.AST, operands: tuple[ast.AST, ...]) -> int:
        ...
class _Reduced:
    """
    What numcu.sum(...) of a traced value gives: a reduction that must end the function.
    """
    def __abs__(self, *args, **kwargs):
        ...
    def __add__(self, *args, **kwargs):
        ...
    def __and__(self, *args, **kwargs):
        ...
    def __array_ufunc__(self, *args, **kwargs):
        ...
    def __floordiv__(self, *args, **kwargs):
        ...
    def __ge__(self, *args, **kwargs):
        ...
    def __getattr__(self, *args, **kwargs):
        ...
    def __gt__(self, *args, **kwargs):
        ...
    def __init__(self, name, var, kwargs):
        ...
    def __invert__(self, *args, **kwargs):
        ...
    def __le__(self, *args, **kwargs):
        ...
    def __lshift__(self, *args, **kwargs):
        ...
    def __lt__(self, *args, **kwargs):
        ...
    def __mod__(self, *args, **kwargs):
        ...
    def __mul__(self, *args, **kwargs):
        ...
    def __neg__(self, *args, **kwargs):
        ...
    def __or__(self, *args, **kwargs):
        ...
    def __pos__(self, *args, **kwargs):
        ...
    def __pow__(self, *args, **kwargs):
        ...
    def __radd__(self, *args, **kwargs):
        ...
    def __rand__(self, *args, **kwargs):
        ...
    def __rfloordiv__(self, *args, **kwargs):
        ...
    def __rlshift__(self, *args, **kwargs):
        ...
    def __rmod__(self, *args, **kwargs):
        ...
    def __rmul__(self, *args, **kwargs):
        ...
    def __ror__(self, *args, **kwargs):
        ...
    def __rpow__(self, *args, **kwargs):
        ...
    def __rrshift__(self, *args, **kwargs):
        ...
    def __rshift__(self, *args, **kwargs):
        ...
    def __rsub__(self, *args, **kwargs):
        ...
    def __rtruediv__(self, *args, **kwargs):
        ...
    def __rxor__(self, *args, **kwargs):
        ...
    def __sub__(self, *args, **kwargs):
        ...
    def __truediv__(self, *args, **kwargs):
        ...
    def __xor__(self, *args, **kwargs):
        ...
    def _refuse(self, *args, **kwargs):
        ...
class _Var:
    """
    A value of a traced function: a node of the graph. Operators make new nodes.
    """
    __array_priority__: typing.ClassVar[int] = 1000
    __hash__: typing.ClassVar[None] = None
    def __abs__(self):
        ...
    def __add__(self, o):
        ...
    def __and__(self, o):
        ...
    def __array_function__(self, func, types_, args, kwargs):
        ...
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        ...
    def __bool__(self):
        ...
    def __eq__(self, o):
        ...
    def __floordiv__(self, o):
        ...
    def __ge__(self, o):
        ...
    def __gt__(self, o):
        ...
    def __init__(self, graph: _Graph, node: int, dtype = None, ndim = None):
        ...
    def __invert__(self):
        ...
    def __le__(self, o):
        ...
    def __lshift__(self, o):
        ...
    def __lt__(self, o):
        ...
    def __mod__(self, o):
        ...
    def __mul__(self, o):
        ...
    def __ne__(self, o):
        ...
    def __neg__(self):
        ...
    def __or__(self, o):
        ...
    def __pos__(self):
        ...
    def __pow__(self, o):
        ...
    def __radd__(self, o):
        ...
    def __rand__(self, o):
        ...
    def __rfloordiv__(self, o):
        ...
    def __rlshift__(self, o):
        ...
    def __rmod__(self, o):
        ...
    def __rmul__(self, o):
        ...
    def __ror__(self, o):
        ...
    def __rpow__(self, o):
        ...
    def __rrshift__(self, o):
        ...
    def __rshift__(self, o):
        ...
    def __rsub__(self, o):
        ...
    def __rtruediv__(self, o):
        ...
    def __rxor__(self, o):
        ...
    def __sub__(self, o):
        ...
    def __truediv__(self, o):
        ...
    def __xor__(self, o):
        ...
    def _bin(self, other, name, python_op, reflected = False):
        ...
    def _unary(self, name, python_op):
        ...
    def astype(self, dtype):
        ...
    def conj(self):
        ...
    def copy(self):
        ...
    @property
    def imag(self):
        ...
    @property
    def real(self):
        ...
class _TracingModule(types.ModuleType):
    """
    numcu as a fused function sees it while traced: its ufuncs, where, clip and the outer
        reductions take traced values; everything else is numcu's.
    """
    def __getattr__(self, name):
        ...
    def __init__(self, module, replacements):
        ...
class _Traced:
    __slots__: typing.ClassVar[tuple[str, ...]] = ('expr', 'reduction', 'kwargs', 'constant')
    def __init__(self, expr, reduction, kwargs, constant = None):
        ...
class Fused:
    """
    A function fused with numcu.fuse: traced once per signature, run as one program.
    """
    def __call__(self, *args, device = None, stream = None):
        ...
    def __init__(self, func, name = None):
        ...
    def __repr__(self):
        ...
    def _trace(self, args) -> _Traced:
        ...
def _as_node(graph: _Graph, x):
    ...
def _axis_arg(args):
    ...
def _binary_method(name: str, python_op: typing.Callable, reflected: bool) -> typing.Callable:
    ...
def _div_params(default) -> tuple[float, float]:
    ...
def _error(cls, ex: str, message: str, node: ast.AST | None = None):
    ...
def _method_name(python_op: typing.Callable, reflected: bool = False) -> str:
    """
    The special method of one of _OPERATORS' functions: operator.and_ -> __and__/__rand__.
    """
def _parse(ex: str) -> _Parsed:
    ...
def _replacements(*args, **kwargs):
    """
    numcu's functions a traced function may call -> their tracing versions (by name).
    """
def _signature(x):
    """
    What a fused function's program depends on for argument x: its type, dtype and ndim.
    """
def _traced_call(name: str, args):
    ...
def _tracing_function(func):
    """
    func with numcu (the module, and its functions by identity) replaced by tracing versions
        in its globals and closure.
    """
def _tracing_op(name: str, real: typing.Callable) -> typing.Callable:
    ...
def _tracing_reduction(name: str, real: typing.Callable) -> typing.Callable:
    ...
def _unary_method(name: str, python_op: typing.Callable) -> typing.Callable:
    ...
def evaluate(ex, local_dict = None, global_dict = None, out = None, casting = 'safe', device = None, stream = None):
    """
    Evaluate an array expression in one pass over memory, as numexpr.evaluate does.
    
        The expression is parsed once and cached by its text; its typed program is cached per
        call signature (the arguments' dtypes and which are scalars). Types follow NumPy 2 exactly
        as if each operator and function were called as numcu's ufunc (NEP 50: Python scalars are
        weak), and results are bit-identical to those calls: the program's instructions are the
        ufuncs' own functors. Nothing is compiled at run time.
    
        Parameters
        ----------
        ex : str
            The expression: arithmetic (``+ - * / // % **``), comparisons, bitwise and logical
            operators (``& | ^ ~ << >>``, ``and``, ``or``, ``not``), ``where(c, x, y)``,
            numexpr's functions (``sin`` ... ``arctan2``, ``sqrt``, ``exp``, ``expm1``, ``log``,
            ``log1p``, ``log10``, ``abs``, ``conj``, ``real``, ``imag``, ``complex``, ``copy``,
            ``ones_like``, ``x.real``, ``x.imag``), any numcu ufunc by name, and an outer
            ``sum``, ``prod``, ``min`` or ``max`` with ``axis=``.
        local_dict, global_dict : dict, optional
            Where names are looked up; by default the caller's locals, then its globals.
        out : array, optional
            Where to write the result (converted to its dtype by `casting`); it is returned.
        casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}
            The rule for converting the result into `out`.
        device, stream :
            As for numcu's ufuncs: device arrays stay on their GPU; host arrays run where the
            placement model says (``device='cpu'`` forces the CPU backend).
    
        Returns
        -------
        numpy.ndarray for host inputs, numcu.ndarray for device inputs, or `out`.
        
    """
def fuse(*args, kernel_name = None):
    """
    Fuse a function of arrays and scalars into one pass over memory, as cupy.fuse does.
    
        The function is traced once per call signature (each argument's dtype and ndim, or its
        Python scalar type): numcu's ufuncs (``numcu.sin(x)``, or NumPy's ``np.sin(x)``),
        operators, ``numcu.where`` and ``clip``, ``astype`` and ``.real``/``.imag`` become one
        program, typed and computed exactly as the unfused calls would be (bit-identical), with no
        compiler at run time. It may end with one reduction: ``numcu.sum(expr, axis=...)``,
        ``prod``, ``min`` or ``max``.
    
        Use as ``@numcu.fuse`` or ``@numcu.fuse(kernel_name=...)``. Functions the fused function
        calls must themselves be fused or use only operators and NumPy's ufuncs: numcu's functions
        are traced by name where the fused function itself refers to them (its globals and closure).
    
        The fused function takes the arrays numcu's ufuncs take (numcu, NumPy, CuPy, PyTorch, ...)
        and Python scalars positionally, and ``device=`` and ``stream=`` as the ufuncs do.
        
    """
def install(namespace: types.ModuleType) -> None:
    """
    Hands this module numcu's namespace, whose functions traced functions call: once, at
        ``import numcu``, which passes its own module.
    """
OPS: dict = {'negative': (0, 1), 'positive': (1, 1), 'absolute': (2, 1), 'sign': (3, 1), 'reciprocal': (4, 1), 'square': (5, 1), 'sqrt': (6, 1), 'cbrt': (7, 1), 'logical_not': (8, 1), 'invert': (9, 1), 'exp': (10, 1), 'exp2': (11, 1), 'expm1': (12, 1), 'log': (13, 1), 'log2': (14, 1), 'log10': (15, 1), 'log1p': (16, 1), 'sin': (17, 1), 'cos': (18, 1), 'tan': (19, 1), 'arcsin': (20, 1), 'arccos': (21, 1), 'arctan': (22, 1), 'sinh': (23, 1), 'cosh': (24, 1), 'tanh': (25, 1), 'arcsinh': (26, 1), 'arccosh': (27, 1), 'arctanh': (28, 1), 'deg2rad': (29, 1), 'rad2deg': (30, 1), 'floor': (31, 1), 'ceil': (32, 1), 'trunc': (33, 1), 'rint': (34, 1), 'isnan': (35, 1), 'isinf': (36, 1), 'isfinite': (37, 1), 'signbit': (38, 1), 'add': (39, 2), 'subtract': (40, 2), 'multiply': (41, 2), 'divide': (42, 2), 'div': (43, 2), 'floor_divide': (44, 2), 'remainder': (45, 2), 'power': (46, 2), 'maximum': (47, 2), 'minimum': (48, 2), 'fmax': (49, 2), 'fmin': (50, 2), 'equal': (51, 2), 'not_equal': (52, 2), 'less': (53, 2), 'less_equal': (54, 2), 'greater': (55, 2), 'greater_equal': (56, 2), 'logical_and': (57, 2), 'logical_or': (58, 2), 'logical_xor': (59, 2), 'bitwise_and': (60, 2), 'bitwise_or': (61, 2), 'bitwise_xor': (62, 2), 'left_shift': (63, 2), 'right_shift': (64, 2), 'logaddexp': (65, 2), 'arctan2': (66, 2), 'hypot': (67, 2), 'copysign': (68, 2), 'heaviside': (69, 2), 'where': (70, 3), 'clip': (71, 3), 'real': (72, 1), 'imag': (73, 1), 'conj': (74, 1), 'complex': (75, 2), 'ones_like': (76, 1)}
_ALIASES: dict = {'abs': 'absolute', 'pow': 'power', 'arctan2': 'arctan2', 'conjugate': 'conj'}
_CAST: int = 77
_OPERATORS: dict = {ast.Add: ('add', _operator.add), ast.Sub: ('subtract', _operator.sub), ast.Mult: ('multiply', _operator.mul), ast.Div: ('divide', _operator.truediv), ast.FloorDiv: ('floor_divide', _operator.floordiv), ast.Mod: ('remainder', _operator.mod), ast.Pow: ('power', _operator.pow), ast.LShift: ('left_shift', _operator.lshift), ast.RShift: ('right_shift', _operator.rshift), ast.BitAnd: ('bitwise_and', _operator.and_), ast.BitOr: ('bitwise_or', _operator.or_), ast.BitXor: ('bitwise_xor', _operator.xor), ast.Lt: ('less', _operator.lt), ast.LtE: ('less_equal', _operator.le), ast.Gt: ('greater', _operator.gt), ast.GtE: ('greater_equal', _operator.ge), ast.Eq: ('equal', _operator.eq), ast.NotEq: ('not_equal', _operator.ne), ast.USub: ('negative', _operator.neg), ast.UAdd: ('positive', _operator.pos), ast.Invert: ('invert', _operator.invert), ast.Not: ('logical_not', None)}
_PARSED_MAX: int = 4096
_REDUCTIONS: dict = {'sum': 'sum', 'prod': 'prod', 'min': 'min', 'max': 'max'}
_SCALARS: tuple = (bool, int, float, complex)
_UNSUPPORTED: dict = {'fmod': "numcu has no fmod ufunc; remainder(x1, x2) is Python's % (the sign of x2)", 'nextafter': 'numcu has no nextafter ufunc', 'contains': 'numcu has no string dtypes', 'round': 'use rint (rounds halves to even, as numpy.round does)'}
_parsed: dict = {}
