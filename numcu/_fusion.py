"""Fused expressions: ``numcu.evaluate`` (numexpr's language), ``numcu.fuse`` (cupy.fuse's).

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

import ast
import functools
import operator
import sys
import types
from typing import Any, Callable

import numpy as np

from ._load import load_core

_core = load_core()

__all__ = ["evaluate", "fuse"]

#: The ops a fused expression may call by name: numcu's ufunc table (every entry, so that a ufunc
#: added to ``NUMCU_UFUNCS`` is available with no other edit) and numexpr's functions that are
#: not ufuncs. Name -> (op number, arity).
OPS: dict[str, tuple[int, int]] = dict(_core._fused_ops)
_CAST = _core._fused_cast_op

#: numexpr's names for numcu's ufuncs.
_ALIASES = {"abs": "absolute", "pow": "power", "arctan2": "arctan2", "conjugate": "conj"}

#: numexpr functions numcu has no op for, with what to say.
_UNSUPPORTED = {
    "fmod": "numcu has no fmod ufunc; remainder(x1, x2) is Python's % (the sign of x2)",
    "nextafter": "numcu has no nextafter ufunc",
    "contains": "numcu has no string dtypes",
    "round": "use rint (rounds halves to even, as numpy.round does)",
}

#: Outer reductions: the expression's name -> numcu's.
_REDUCTIONS = {"sum": "sum", "prod": "prod", "min": "min", "max": "max"}

#: Python's operators: the ast node -> numcu's ufunc and Python's own function, which folds
#: literals as Python would and names the special method (operator.add: ``__add__``, with
#: ``__radd__`` for the binary operators; comparisons reflect into each other). The parser of
#: expressions and the traced values (_Var) both read these rows; ``not`` has no method.
_OPERATORS: dict[type, tuple[str, Callable | None]] = {
    ast.Add: ("add", operator.add),
    ast.Sub: ("subtract", operator.sub),
    ast.Mult: ("multiply", operator.mul),
    ast.Div: ("divide", operator.truediv),
    ast.FloorDiv: ("floor_divide", operator.floordiv),
    ast.Mod: ("remainder", operator.mod),
    ast.Pow: ("power", operator.pow),
    ast.LShift: ("left_shift", operator.lshift),
    ast.RShift: ("right_shift", operator.rshift),
    ast.BitAnd: ("bitwise_and", operator.and_),
    ast.BitOr: ("bitwise_or", operator.or_),
    ast.BitXor: ("bitwise_xor", operator.xor),
    ast.Lt: ("less", operator.lt),
    ast.LtE: ("less_equal", operator.le),
    ast.Gt: ("greater", operator.gt),
    ast.GtE: ("greater_equal", operator.ge),
    ast.Eq: ("equal", operator.eq),
    ast.NotEq: ("not_equal", operator.ne),
    ast.USub: ("negative", operator.neg),
    ast.UAdd: ("positive", operator.pos),
    ast.Invert: ("invert", operator.invert),
    ast.Not: ("logical_not", None),
}


def _method_name(python_op: Callable, reflected: bool = False) -> str:
    """The special method of one of _OPERATORS' functions: operator.and_ -> __and__/__rand__."""
    return f"__{'r' if reflected else ''}{python_op.__name__.rstrip('_')}__"


_SCALARS = (bool, int, float, complex)


class _Graph:
    """Nodes in the order they are made (each node's arguments come before it)."""

    def __init__(self, fname: str):
        self.fname = fname
        self.nodes: list[tuple] = []
        self.literal_values: dict[int, Any] = {}  # node -> its literal, for folding

    def literal(self, value: Any) -> int:
        self.nodes.append(("literal", value))
        index = len(self.nodes) - 1
        self.literal_values[index] = value
        return index

    def input(self, k: int) -> int:
        self.nodes.append(("input", k))
        return len(self.nodes) - 1

    def op(self, name: str, args: tuple[int, ...], params=None, python_op=None) -> int:
        number, arity = OPS[name]
        if len(args) != arity:
            raise TypeError(f"{self.fname}: {name} takes {arity} arguments, not {len(args)}")
        # Python's arithmetic on literals only is done now, as Python does it.
        if python_op is not None and all(a in self.literal_values for a in args):
            try:
                value = python_op(*(self.literal_values[a] for a in args))
            except Exception:  # left to the call, which raises what Python raises
                pass
            else:
                if isinstance(value, _SCALARS):
                    return self.literal(value)
        self.nodes.append(("op", number, tuple(args), params, python_op))
        return len(self.nodes) - 1

    def cast(self, arg: int, dtype) -> int:
        number = -1 if dtype is None else _core.dtypes.index(np.dtype(dtype).name)
        self.nodes.append(("op", _CAST, (arg,), (float(number), 0.0), None))
        return len(self.nodes) - 1

    def pruned(self, root: int) -> list[tuple]:
        """The nodes the root depends on, renumbered, the root last."""
        keep: set[int] = set()
        stack = [root]
        while stack:
            i = stack.pop()
            if i in keep:
                continue
            keep.add(i)
            if self.nodes[i][0] == "op":
                stack.extend(self.nodes[i][2])
        order = sorted(keep)
        new = {old: k for k, old in enumerate(order)}
        out = []
        for old in order:
            n = self.nodes[old]
            if n[0] == "op":
                n = ("op", n[1], tuple(new[a] for a in n[2]), n[3], n[4])
            out.append(n)
        return out


# --------------------------------------------------------------------------------------------
# numcu.evaluate


class _Parsed:
    """An expression string parsed: its graph, the names it reads, and its outer reduction."""

    __slots__ = ("expr", "names", "reduction", "axis")

    def __init__(self, expr, names, reduction, axis):
        self.expr = expr
        self.names = names
        self.reduction = reduction
        self.axis = axis


def _error(cls, ex: str, message: str, node: ast.AST | None = None):
    where = ""
    if node is not None and hasattr(node, "col_offset"):
        where = f" at position {node.col_offset}"
    return cls(f"numcu.evaluate: {message}{where} in {ex!r}")


class _Parser:
    def __init__(self, ex: str):
        self.ex = ex
        self.graph = _Graph("numcu.evaluate")
        self.names: list[str] = []
        self.name_nodes: dict[str, int] = {}

    def parse(self) -> _Parsed:
        ex = self.ex
        if not isinstance(ex, str):
            raise TypeError(
                f"numcu.evaluate: the expression must be a str, not {type(ex).__name__}"
            )
        try:
            tree = ast.parse(ex.strip(), mode="eval")
        except SyntaxError as e:
            offset = (e.offset or 1) - 1
            raise SyntaxError(
                f"numcu.evaluate: invalid syntax at position {offset} in {ex!r}: {e.msg}"
            ) from None
        body = tree.body
        reduction, axis = None, None
        if isinstance(body, ast.Call) and isinstance(body.func, ast.Name):
            if body.func.id in _REDUCTIONS:
                reduction = _REDUCTIONS[body.func.id]
                body, axis = self._reduction_args(body)
        root = self.visit(body)
        nodes = self.graph.pruned(root)
        expr = _core._FusedExpr(nodes, len(self.names), "numcu.evaluate", ex)
        return _Parsed(expr, tuple(self.names), reduction, axis)

    def _reduction_args(self, call: ast.Call):
        args = list(call.args)
        axis_node = None
        if len(args) == 2:
            axis_node = args.pop()
        for kw in call.keywords:
            if kw.arg == "axis" and axis_node is None:
                axis_node = kw.value
            else:
                raise _error(ValueError, self.ex, f"{call.func.id}() takes only axis=", kw)
        if len(args) != 1:
            raise _error(
                TypeError, self.ex, f"{call.func.id}() takes one expression and an axis", call
            )
        axis = None
        if axis_node is not None:
            try:
                axis = ast.literal_eval(axis_node)
            except ValueError:
                raise _error(ValueError, self.ex, "axis must be a literal int", axis_node) from None
            if axis is not None and not isinstance(axis, int):
                raise _error(ValueError, self.ex, "axis must be a literal int", axis_node)
        return args[0], axis

    def visit(self, node: ast.AST) -> int:
        g = self.graph
        if isinstance(node, ast.Constant):
            if isinstance(node.value, _SCALARS):
                return g.literal(node.value)
            raise _error(
                TypeError, self.ex, f"{type(node.value).__name__} constants are not supported", node
            )
        if isinstance(node, ast.Name):
            name = node.id
            if name not in self.name_nodes:
                self.names.append(name)
                self.name_nodes[name] = g.input(len(self.names) - 1)
            return self.name_nodes[name]
        if isinstance(node, ast.BinOp):
            return self.visit_operator(node, node.op, (node.left, node.right))
        if isinstance(node, ast.UnaryOp):
            return self.visit_operator(node, node.op, (node.operand,))
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                raise _error(
                    ValueError, self.ex, "chained comparisons are not supported (use &)", node
                )
            return self.visit_operator(node, node.ops[0], (node.left, node.comparators[0]))
        if isinstance(node, ast.BoolOp):
            name = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
            acc = self.visit(node.values[0])
            for v in node.values[1:]:
                acc = g.op(name, (acc, self.visit(v)))
            return acc
        if isinstance(node, ast.Attribute):
            if node.attr in ("real", "imag"):
                return g.op(node.attr, (self.visit(node.value),))
            raise _error(ValueError, self.ex, f"attribute .{node.attr} is not supported", node)
        if isinstance(node, ast.Call):
            return self.visit_call(node)
        raise _error(ValueError, self.ex, f"{type(node).__name__} is not supported", node)

    def visit_operator(self, node: ast.AST, op: ast.AST, operands: tuple[ast.AST, ...]) -> int:
        entry = _OPERATORS.get(type(op))
        if entry is None:  # @ (MatMult), is, in
            raise _error(ValueError, self.ex, f"operator {type(op).__name__}", node)
        args = tuple(self.visit(x) for x in operands)
        return self.graph.op(entry[0], args, python_op=entry[1])

    def visit_call(self, node: ast.Call) -> int:
        g = self.graph
        if not isinstance(node.func, ast.Name):
            raise _error(ValueError, self.ex, "only functions called by name are supported", node)
        name = node.func.id
        if node.keywords:
            raise _error(ValueError, self.ex, f"{name}() takes no keyword arguments", node)
        if name in _REDUCTIONS:
            raise _error(
                ValueError,
                self.ex,
                f"{name}() may only be the outermost call (one reduction)",
                node,
            )
        if name == "copy":
            if len(node.args) != 1:
                raise _error(TypeError, self.ex, "copy() takes one argument", node)
            return g.cast(self.visit(node.args[0]), None)
        op = _ALIASES.get(name, name)
        if op not in OPS:
            why = _UNSUPPORTED.get(name, "not one of numcu's ufuncs nor numexpr's functions")
            raise _error(ValueError, self.ex, f"function {name!r} is not supported: {why}", node)
        args = tuple(self.visit(a) for a in node.args)
        number, arity = OPS[op]
        if op == "div" and len(args) == 3:
            default = g.literal_values.get(args[2])
            if default is None:
                raise _error(ValueError, self.ex, "div's default must be a literal", node)
            return g.op("div", args[:2], params=_div_params(default))
        if len(args) != arity:
            raise _error(
                TypeError, self.ex, f"{name}() takes {arity} arguments, not {len(args)}", node
            )
        if op == "div":
            return g.op("div", args, params=_div_params(np.finfo(np.float32).max))
        return g.op(op, args)


def _div_params(default) -> tuple[float, float]:
    c = complex(default)
    return (c.real, c.imag)


_parsed: dict[str, _Parsed] = {}
_PARSED_MAX = 4096


def _parse(ex: str) -> _Parsed:
    p = _parsed.get(ex)
    if p is None:
        p = _Parser(ex).parse()
        if len(_parsed) >= _PARSED_MAX:
            _parsed.clear()
        _parsed[ex] = p
    return p


def evaluate(
    ex,
    local_dict=None,
    global_dict=None,
    out=None,
    casting="safe",
    device=None,
    stream=None,
):
    """Evaluate an array expression in one pass over memory, as numexpr.evaluate does.

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
    p = _parsed.get(ex)
    if p is None:
        p = _parse(ex)
    if local_dict is None or global_dict is None:
        frame = sys._getframe(1)
        if local_dict is None:
            local_dict = frame.f_locals
        if global_dict is None:
            global_dict = frame.f_globals
    args = []
    for name in p.names:
        try:
            value = local_dict[name]
        except KeyError:
            try:
                value = global_dict[name]
            except KeyError:
                raise NameError(
                    f"numcu.evaluate: name {name!r} is not defined (in {ex!r})"
                ) from None
        args.append(value)
    if p.reduction is None:
        return _core._fused_call(p.expr, tuple(args), out, casting, device, stream)
    result = _core._fused_call(p.expr, tuple(args), None, casting, device, stream)
    return getattr(_core, p.reduction)(result, axis=p.axis, out=out)


# --------------------------------------------------------------------------------------------
# numcu.fuse


class _Reduced:
    """What numcu.sum(...) of a traced value gives: a reduction that must end the function."""

    def __init__(self, name, var, kwargs):
        self.name = name
        self.var = var
        self.kwargs = kwargs

    def _refuse(self, *args, **kwargs):
        raise TypeError("numcu.fuse: a reduction may only end the fused function")

    # Every operator a traced value has (_OPERATORS, and abs) refuses; == and != stay the
    # identity comparison every object has.
    __getattr__ = _refuse
    for _node, (_, _python_op) in _OPERATORS.items():
        if _python_op is not None and _node not in (ast.Eq, ast.NotEq):
            locals()[_method_name(_python_op)] = _refuse
            if issubclass(_node, ast.operator):
                locals()[_method_name(_python_op, True)] = _refuse
    __abs__ = __array_ufunc__ = _refuse
    del _node, _, _python_op


class _Var:
    """A value of a traced function: a node of the graph. Operators make new nodes."""

    __array_priority__ = 1000

    def __init__(self, graph: _Graph, node: int, dtype=None, ndim=None):
        self._graph = graph
        self._node = node
        self.dtype = dtype
        self.ndim = ndim

    # Operators, reflected forms included; Python scalars become literals.
    def _bin(self, other, name, python_op, reflected=False):
        g = self._graph
        o = _as_node(g, other)
        if o is None:
            return NotImplemented
        a, b = (o, self._node) if reflected else (self._node, o)
        return _Var(g, g.op(name, (a, b), python_op=python_op))

    __hash__ = None  # type: ignore[assignment]

    def _unary(self, name, python_op):
        return _Var(self._graph, self._graph.op(name, (self._node,), python_op=python_op))

    def __abs__(self):
        return self._unary("absolute", abs)

    def __bool__(self):
        raise TypeError(
            "numcu.fuse: the truth value of a traced array is not known while tracing "
            "(use numcu.where instead of if/and/or on arrays)"
        )

    @property
    def real(self):
        return _Var(self._graph, self._graph.op("real", (self._node,)))

    @property
    def imag(self):
        return _Var(self._graph, self._graph.op("imag", (self._node,)))

    def conj(self):
        return _Var(self._graph, self._graph.op("conj", (self._node,)))

    def astype(self, dtype):
        return _Var(self._graph, self._graph.cast(self._node, dtype), np.dtype(dtype))

    def copy(self):
        return _Var(self._graph, self._graph.cast(self._node, None), self.dtype, self.ndim)

    # NumPy's ufuncs and functions called on traced values.
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__" or kwargs:
            return NotImplemented
        name = _ALIASES.get(ufunc.__name__, ufunc.__name__)
        if name not in OPS:
            return NotImplemented
        return _traced_call(name, inputs)

    def __array_function__(self, func, types_, args, kwargs):
        name = func.__name__
        if name in ("where", "clip") and not kwargs:
            return _traced_call(name, args)
        if name in _REDUCTIONS or name in ("amin", "amax"):
            red = {"amin": "min", "amax": "max"}.get(name, name)
            return _Reduced(red, args[0], dict(kwargs, **_axis_arg(args)))
        return NotImplemented


def _binary_method(name: str, python_op: Callable, reflected: bool) -> Callable:
    def method(self, o):
        return self._bin(o, name, python_op, reflected)

    method.__name__ = _method_name(python_op, reflected)
    method.__qualname__ = f"_Var.{method.__name__}"
    return method


def _unary_method(name: str, python_op: Callable) -> Callable:
    def method(self):
        return self._unary(name, python_op)

    method.__name__ = _method_name(python_op)
    method.__qualname__ = f"_Var.{method.__name__}"
    return method


# _Var's operators, from _OPERATORS: the binary ones with their reflected forms.
for _node, (_ufunc, _python_op) in _OPERATORS.items():
    if _python_op is None:
        continue
    if issubclass(_node, ast.unaryop):
        setattr(_Var, _method_name(_python_op), _unary_method(_ufunc, _python_op))
        continue
    setattr(_Var, _method_name(_python_op), _binary_method(_ufunc, _python_op, False))
    if issubclass(_node, ast.operator):
        setattr(_Var, _method_name(_python_op, True), _binary_method(_ufunc, _python_op, True))
del _node, _ufunc, _python_op


def _axis_arg(args):
    return {"axis": args[1]} if len(args) > 1 else {}


def _as_node(graph: _Graph, x):
    if isinstance(x, _Var):
        if x._graph is not graph:
            raise TypeError("numcu.fuse: values of two different traces were mixed")
        return x._node
    if isinstance(x, _SCALARS):
        return graph.literal(x)
    return None


def _traced_call(name: str, args):
    graph = next((a._graph for a in args if isinstance(a, _Var)), None)
    nodes = []
    for a in args:
        n = _as_node(graph, a)
        if n is None:
            raise TypeError(
                f"numcu.fuse: {name} takes traced values and Python scalars, not "
                f"{type(a).__name__} (pass arrays as arguments of the fused function)"
            )
        nodes.append(n)
    if name == "div":
        return _Var(
            graph, graph.op("div", tuple(nodes), params=_div_params(np.finfo(np.float32).max))
        )
    return _Var(graph, graph.op(name, tuple(nodes)))


def _tracing_op(name: str, real: Callable) -> Callable:
    @functools.wraps(real)
    def op(*args, **kwargs):
        if any(isinstance(a, _Var) for a in args):
            if kwargs:
                raise TypeError(
                    f"numcu.fuse: numcu.{name} takes no keyword arguments in a fused function"
                )
            return _traced_call(name, args)
        return real(*args, **kwargs)

    return op


def _tracing_reduction(name: str, real: Callable) -> Callable:
    @functools.wraps(real)
    def red(a, *args, **kwargs):
        if isinstance(a, _Var):
            if args:
                kwargs = dict(kwargs, axis=args[0])
            return _Reduced(name, a, kwargs)
        return real(a, *args, **kwargs)

    return red


class _TracingModule(types.ModuleType):
    """numcu as a fused function sees it while traced: its ufuncs, where, clip and the outer
    reductions take traced values; everything else is numcu's."""

    def __init__(self, module, replacements):
        super().__init__(module.__name__)
        self._module = module
        self._replacements = replacements

    def __getattr__(self, name):
        r = self._replacements.get(name)
        return r if r is not None else getattr(self._module, name)


#: The numcu module, handed over by install(). numcu imports this module while it is being
#: made, so this module cannot import numcu at its top; install() replaces the imports in
#: function bodies that would otherwise break that cycle.
_numcu: types.ModuleType | None = None


def install(namespace: types.ModuleType) -> None:
    """Hands this module numcu's namespace, whose functions traced functions call: once, at
    ``import numcu``, which passes its own module."""
    global _numcu
    _numcu = namespace


@functools.lru_cache(maxsize=1)
def _replacements():
    """numcu's functions a traced function may call -> their tracing versions (by name)."""
    r = {}
    for name in OPS:
        real = getattr(_numcu, name, None)
        if callable(real):
            r[name] = _tracing_op(name, real)
    for name in _REDUCTIONS:
        r[name] = _tracing_reduction(name, getattr(_numcu, name))
    return r


def _tracing_function(func):
    """func with numcu (the module, and its functions by identity) replaced by tracing versions
    in its globals and closure."""
    numcu = _numcu
    rep = _replacements()
    by_id = {id(getattr(numcu, name)): f for name, f in rep.items() if hasattr(numcu, name)}
    module = _TracingModule(numcu, rep)

    def swap(value):
        if value is numcu:
            return module
        if isinstance(value, Fused):
            return value
        return by_id.get(id(value), value)

    glob = {k: swap(v) for k, v in func.__globals__.items()}
    closure = None
    if func.__closure__:
        closure = tuple(types.CellType(swap(c.cell_contents)) for c in func.__closure__)
    traced = types.FunctionType(func.__code__, glob, func.__name__, func.__defaults__, closure)
    traced.__kwdefaults__ = func.__kwdefaults__
    return traced


def _signature(x):
    """What a fused function's program depends on for argument x: its type, dtype and ndim."""
    if isinstance(x, _SCALARS):
        return type(x)
    dtype = getattr(x, "dtype", None)
    ndim = getattr(x, "ndim", None)
    if dtype is None:
        return type(x)
    return (type(x), str(dtype), ndim)


class _Traced:
    __slots__ = ("expr", "reduction", "kwargs", "constant")

    def __init__(self, expr, reduction, kwargs, constant=None):
        self.expr = expr
        self.reduction = reduction
        self.kwargs = kwargs
        self.constant = constant


class Fused:
    """A function fused with numcu.fuse: traced once per signature, run as one program."""

    def __init__(self, func, name=None):
        functools.update_wrapper(self, func)
        self._func = func
        self._name = name or getattr(func, "__name__", "fused")
        self._traces: dict[tuple, _Traced] = {}

    def _trace(self, args) -> _Traced:
        graph = _Graph("numcu.fuse")
        vars_ = []
        for k, a in enumerate(args):
            dtype = None if isinstance(a, _SCALARS) else getattr(a, "dtype", None)
            ndim = None if isinstance(a, _SCALARS) else getattr(a, "ndim", None)
            vars_.append(_Var(graph, graph.input(k), dtype, ndim))
        result = _tracing_function(self._func)(*vars_)
        reduction, kwargs = None, {}
        if isinstance(result, _Reduced):
            reduction, kwargs, result = result.name, result.kwargs, result.var
        if isinstance(result, _SCALARS):
            return _Traced(None, None, {}, constant=result)
        if not isinstance(result, _Var):
            raise TypeError(
                f"numcu.fuse: {self._name} must return an array expression of its arguments "
                f"(or one reduction of it), not {type(result).__name__}"
            )
        nodes = graph.pruned(result._node)
        expr = _core._FusedExpr(nodes, len(args), "numcu.fuse", self._name)
        return _Traced(expr, reduction, kwargs)

    def __call__(self, *args, device=None, stream=None):
        if any(isinstance(a, _Var) for a in args):
            # Called from another traced function: traced into its graph.
            return self._func(*args)
        key = tuple(map(_signature, args))
        t = self._traces.get(key)
        if t is None:
            t = self._traces[key] = self._trace(args)
        if t.expr is None:
            return t.constant
        result = _core._fused_call(t.expr, args, None, "unsafe", device, stream)
        if t.reduction is None:
            return result
        return getattr(_core, t.reduction)(result, **t.kwargs)

    def __repr__(self):
        return f"<numcu.fuse of {self._name}>"


def fuse(*args, kernel_name=None):
    """Fuse a function of arrays and scalars into one pass over memory, as cupy.fuse does.

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
    if len(args) == 1 and callable(args[0]) and kernel_name is None:
        return Fused(args[0])
    if args:
        raise TypeError("numcu.fuse: use @numcu.fuse or @numcu.fuse(kernel_name=...)")
    return lambda f: Fused(f, kernel_name)
