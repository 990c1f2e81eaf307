"""Random numbers: NumPy's ``Generator`` on numcu's devices, with NumPy's Philox stream.

``numcu.random.default_rng(seed)`` and ``numcu.random.Generator(bit_generator)`` take NumPy's
``Philox`` bit generator (counter-based: its k-th word depends only on its key and on k),
seeded through NumPy's ``SeedSequence``. Every value is a function of the key and of its
position in the stream, so:

- the CPU backend and every GPU give the same bits for the same state, whatever the threads,
  blocks or streams;
- making an array in two calls gives the same values as making it in one, and the bit
  generator's state afterwards is the one NumPy's Generator leaves after the same draws, so NumPy
  can carry on from it;
- ``random`` (float64 and float32), ``uniform``, ``integers`` (until NumPy rejects a draw) and
  ``geometric`` (p >= 1/3) are NumPy's own values. Where NumPy draws a variable number of words
  per value (ziggurat normals and exponentials, rejection samplers), numcu takes a fixed number
  of draws per value instead (Box-Muller normals, inverse-function exponentials, and a value's
  own substream for any further attempts of a rejection sampler): its values are then not
  NumPy's, but the stream advances exactly as the method's docstring says.

New arrays go where numcu's creation functions put them (the current GPU, else the host, or
``device=``), or into ``out=``. The module-level functions (``rand``, ``randn``, ``randint``,
``random``, ``seed``, ...) draw from a module-level Generator on a Philox bit generator: they are
not NumPy's legacy MT19937 stream, and ``seed(s)`` does not give ``numpy.random.seed(s)``'s
values.
"""

from __future__ import annotations

import inspect as _inspect
import math
import operator as _operator

import numpy as _np

from . import _array_api
from ._load import load_core

_core = load_core()

Philox = _np.random.Philox
SeedSequence = _np.random.SeedSequence
BitGenerator = _np.random.BitGenerator

#: The distributions' table (numcu/distributions.hpp): name, parameters, draws per value,
#: dtypes, flags, docstring.
DISTRIBUTIONS = _core.random_distributions


def _is_device_array(x):
    return hasattr(x, "__cuda_array_interface__") or type(x).__module__.startswith("numcu")


def _host(x):
    """`x` as a NumPy array (device arrays are copied to the host)."""
    if _is_device_array(x) and not isinstance(x, _np.ndarray):
        return _core.asnumpy(x)
    return _np.asarray(x)


def _method(name):
    function = getattr(_core, "_random_" + name)

    def method(self, *args, **kwargs):
        return function(self._bit_generator, *args, **kwargs)

    signature = _inspect.signature(function)
    parameters = list(signature.parameters.values())
    self_parameter = _inspect.Parameter("self", _inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__signature__ = signature.replace(parameters=[self_parameter, *parameters[1:]])
    method.__name__ = name
    method.__qualname__ = "Generator." + name
    method.__doc__ = function.__doc__
    return method


class Generator:
    """NumPy's ``numpy.random.Generator`` on numcu's devices (see the module's docstring).

    Parameters
    ----------
    bit_generator : numpy.random.Philox
        The counter-based bit generator whose stream the values come from; its state advances
        as NumPy's Generator would advance it.
    """

    def __init__(self, bit_generator):
        state = getattr(bit_generator, "state", None)
        if not isinstance(state, dict) or state.get("bit_generator") != "Philox":
            raise TypeError(
                "numcu.random.Generator: the bit generator must be a numpy.random.Philox (a "
                f"counter-based generator), not {type(bit_generator).__name__}"
            )
        self._bit_generator = bit_generator

    @property
    def bit_generator(self):
        """The bit generator (a ``numpy.random.Philox``) the values come from."""
        return self._bit_generator

    def __repr__(self):
        return f"{self} at 0x{id(self):X}"

    def __str__(self):
        return f"numcu.random.Generator({type(self._bit_generator).__name__})"

    def __reduce__(self):
        return (type(self), (self._bit_generator,))

    def spawn(self, n_children):
        """Independent child Generators, through the bit generator's ``SeedSequence``."""
        n_children = _operator.index(n_children)
        if n_children < 0:
            raise ValueError("n_children must be non-negative")
        return [type(self)(g) for g in _spawn_bit_generators(self._bit_generator, n_children)]

    def integers(
        self,
        low,
        high=None,
        size=None,
        dtype=_np.int64,
        endpoint=False,
        *,
        device=None,
        stream=None,
    ):
        """Integers uniform on [low, high), or [low, high] with ``endpoint=True``.

        NumPy's arguments, dtypes (bool and the signed and unsigned integers), checks and
        messages. The values are NumPy's (Lemire's method on the same draws: a 32-bit draw
        where the range fits 32 bits, else 64; fields of one for 8- and 16-bit dtypes and
        bool) until NumPy rejects a draw (probability ``(2**w mod range) / 2**w`` per value);
        numcu then draws from the value's own substream, so every value takes one draw and the
        state advances by exactly n draws (NumPy's, for n a multiple of the values per draw).
        With array bounds every value takes a 32-bit draw (64-bit for 64-bit dtypes).

        device, stream : where the values are made (numcu's default device unless given).
        """
        if high is None:
            high, low = low, 0
        dt = _np.dtype(dtype)
        info = _integer_info(dt)
        if info is None:  # the compiled entry raises NumPy's TypeError / ValueError
            return _core._random_integers(self._bit_generator, 0, 0, size, dt)
        lo = _host(low)
        hi = _host(high)
        if lo.ndim == 0 and hi.ndim == 0:
            off, rng = _scalar_bounds(int(lo), int(hi), endpoint, dt, info)
            result = _core._random_integers(
                self._bit_generator, off, rng, size, dt, device=device, stream=stream
            )
            if size is None and isinstance(result, _np.ndarray):
                result = result[()]
                if dtype is int or dtype is bool:
                    result = dtype(result)
            return result
        off, rng = _array_bounds(lo, hi, endpoint, dt, info)
        return _core._random_integers(
            self._bit_generator, off, rng, size, dt, device=device, stream=stream
        )

    # --------------------------------------------------------------------------------------------
    # Sampling and permutations. A permutation is the order that sorts one raw 64-bit word of the
    # stream per element (_core.argsort, stable: equal words, about n^2 / 2^65 of them, keep
    # their positions), so it is the same on the CPU and every GPU, and uniform over the
    # permutations but for those ties; NumPy shuffles by Fisher-Yates instead, with a variable
    # number of draws, so these are not NumPy's orders.

    def _words(self, shape, device, stream):
        return self.integers(0, 2**64, size=shape, dtype=_np.uint64, device=device, stream=stream)

    def permutation(self, x, axis=0, *, device=None, stream=None):
        """A random permutation of ``arange(x)`` (x an int), or a permuted copy of `x` along `axis`.

        One raw 64-bit draw per element; the order sorts them (see above). Host arrays give NumPy
        arrays, device arrays a _core.ndarray on their GPU; an int follows numcu's default device.
        """
        if isinstance(x, (int, _np.integer)):
            n = _operator.index(x)
            if n < 0:
                raise ValueError("negative dimensions are not allowed")
            return _core.argsort(self._words((n,), device, stream), stream=stream)
        arr, where = _array_and_device(x, device)
        if arr.ndim == 0:
            raise _np.exceptions.AxisError("x must be an integer or at least 1-dimensional")
        axis = _normalize_axis(axis, arr.ndim)
        order = _core.argsort(self._words((arr.shape[axis],), where, stream), stream=stream)
        arr = _placed_like(arr, order, stream)
        return _array_api.take(arr, order, axis=axis, stream=stream)

    def shuffle(self, x, axis=0, *, device=None, stream=None):
        """Permute `x` in place along `axis` (the values ``permutation(x, axis)`` gives)."""
        if isinstance(x, list):
            order = _host(self.permutation(len(x), device="cpu"))
            x[:] = [x[i] for i in order]
            return
        arr, _ = _array_and_device(x, device)
        if getattr(arr, "flags", None) is not None and not arr.flags.writeable:
            raise ValueError("array is read-only")
        arr[...] = self.permutation(arr, axis, device=device, stream=stream)

    def permuted(self, x, *, axis=None, out=None, device=None, stream=None):
        """`x` with each slice along `axis` permuted independently (axis None: all of it).

        One raw draw per element, in C order; each slice takes the order that sorts its draws.
        """
        arr, where = _array_and_device(x, device)
        if axis is None:
            flat = _array_api.reshape(arr, (-1,)) if arr.ndim != 1 else arr
            order = _core.argsort(self._words(flat.shape, where, stream))
            flat = _placed_like(flat, order, stream)
            result = _array_api.reshape(_array_api.take(flat, order, axis=0), arr.shape)
        else:
            axis = _normalize_axis(axis, arr.ndim)
            order = _core.argsort(self._words(arr.shape, where, stream), axis=axis)
            arr = _placed_like(arr, order, stream)
            result = _core.take_along_axis(arr, order, axis=axis)
        if out is None:
            return result
        if tuple(out.shape) != tuple(arr.shape):
            raise ValueError("out must have the same shape as x")
        out[...] = result
        return out

    def choice(
        self,
        a,
        size=None,
        replace=True,
        p=None,
        axis=0,
        shuffle=True,
        *,
        device=None,
        stream=None,
    ):
        """Random samples of `a` (an int n: ``arange(n)``), NumPy's arguments and checks.

        - With replacement, no `p`: ``integers(0, len(a), size)``, NumPy's values.
        - With replacement and `p`: NumPy's inversion of p's cumulative sum (computed on the
          host, as NumPy does) at ``random(size)``: NumPy's values.
        - Without replacement, `p` given: NumPy's repeated draws (on the host): NumPy's values.
        - Without replacement, no `p`: the first values of ``permutation(len(a))`` (NumPy uses
          Floyd's or a partial Fisher-Yates shuffle: not its values).
        """
        pool, where = (None, device) if _is_int(a) else _array_and_device(a, device)
        if pool is None:
            pop_size = _operator.index(a)
            if pop_size <= 0 and _size_count(size) > 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
        else:
            if pool.ndim == 0:
                raise ValueError(f"a must be a sequence or an integer, not {type(a)}")
            axis = _normalize_axis(axis, pool.ndim)
            pop_size = pool.shape[axis]
            if pop_size == 0 and _size_count(size) > 0:
                raise ValueError("a cannot be empty unless no samples are taken")
        shape = () if size is None else ((size,) if _is_int(size) else tuple(size))
        count = _size_count(size)
        if p is not None:
            p = _checked_p(p, pop_size)
        if replace:
            if p is not None:
                cdf = p.cumsum()
                cdf /= cdf[-1]
                u = self.random(shape, device=where, stream=stream)
                cdf_there = cdf if _on_host(u) else _core.asarray(cdf, device=_device_of(u))
                idx = _core.searchsorted(cdf_there, u, side="right", stream=stream)
            else:
                idx = self.integers(0, pop_size, size=shape, device=where, stream=stream)
        else:
            if count > pop_size:
                raise ValueError(
                    "Cannot take a larger sample than population when replace is False"
                )
            if count < 0:
                raise ValueError("negative dimensions are not allowed")
            if p is not None:
                idx = self._choice_p_no_replace(p, count, shape, where, stream)
            else:
                # The first `count` of permutation(pop_size), from the candidates (the words
                # below a threshold) where they are fewer than half of the population.
                found = _core._random_candidates(
                    self._bit_generator, pop_size, count, device=where, stream=stream
                )
                if found is None:
                    order = self.permutation(pop_size, device=where, stream=stream)[:count]
                else:
                    words, indices = found
                    first = _core.argsort(words, stream=stream)[:count]
                    order = _array_api.take(indices, first, stream=stream)
                idx = _array_api.reshape(order, shape)
        if pool is None:
            if size is None and not isinstance(idx, _core.ndarray):
                return _np.int64(_np.asarray(idx)[()])
            return idx
        pool = _placed_like(pool, idx, stream)
        result = _array_api.take(pool, _array_api.reshape(idx, (-1,)), axis=axis, stream=stream)
        out_shape = pool.shape[:axis] + shape + pool.shape[axis + 1 :]
        return _array_api.reshape(result, out_shape) if out_shape != result.shape else result

    def _choice_p_no_replace(self, p, count, shape, where, stream):
        # NumPy's loop: draw the missing values, drop repeats, zero the probabilities found.
        if _np.count_nonzero(p > 0) < count:
            raise ValueError("Fewer non-zero entries in p than size")
        p = p.copy()
        found = _np.zeros(count, dtype=_np.int64)
        n_uniq = 0
        while n_uniq < count:
            x = _host(self.random((count - n_uniq,), device="cpu"))
            if n_uniq > 0:
                p[found[0:n_uniq]] = 0
            cdf = _np.cumsum(p)
            cdf /= cdf[-1]
            new = cdf.searchsorted(x, side="right")
            _, unique_indices = _np.unique(new, return_index=True)
            unique_indices.sort()
            new = new.take(unique_indices)
            found[n_uniq : n_uniq + new.size] = new
            n_uniq += new.size
        found = found.reshape(shape)
        if where == "cpu" or (where is None and not _core.cuda.is_available()):
            return found
        return _core.asarray(found, device=where)


for _entry in DISTRIBUTIONS:
    if not _entry[4]["own_binding"]:
        setattr(Generator, _entry[0], _method(_entry[0]))
del _entry


# ------------------------------------------------------------------------------------------------
# Helpers of the sampling methods.


def _is_int(x):
    return isinstance(x, (int, _np.integer)) and not isinstance(x, bool)


def _size_count(size):
    if size is None:
        return 1
    if _is_int(size):
        return int(size)
    return int(_np.prod(tuple(size), dtype=_np.int64))


def _on_host(x):
    return not isinstance(x, _core.ndarray)


def _device_of(x):
    return x.device.id


def _array_and_device(x, device):
    """`x` as an array numcu takes (device arrays kept on their GPU), and where to work on it."""
    if isinstance(x, _core.ndarray):
        return x, device if device is not None else x.device.id
    if _is_device_array(x):
        arr = _core.asarray(x)
        return arr, device if device is not None else arr.device.id
    arr = _np.asarray(x)
    return arr, device if device is not None else "cpu"


def _placed_like(pool, idx, stream):
    """`pool` (choice's population, the array permutation or permuted reorders) where the indices
    `idx` are, the device the caller asked for: copied once where it is elsewhere (a NumPy array
    for a GPU result, a GPU array for a host result or another GPU's)."""
    if _on_host(idx):
        return _core.asarray(pool, device="cpu") if isinstance(pool, _core.ndarray) else pool
    if isinstance(pool, _core.ndarray) and pool.device.id == _device_of(idx):
        return pool
    return _core.asarray(pool, device=_device_of(idx), stream=stream)


def _normalize_axis(axis, ndim):
    axis = _operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _checked_p(p, pop_size):
    """NumPy's checks of choice's probabilities; p as float64 on the host."""
    atol = _np.sqrt(_np.finfo(_np.float64).eps)
    if isinstance(p, _np.ndarray) and _np.issubdtype(p.dtype, _np.floating):
        atol = max(atol, _np.sqrt(_np.finfo(p.dtype).eps))
    p = _np.ascontiguousarray(_host(p), dtype=_np.float64)
    if p.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if p.size != pop_size:
        raise ValueError("a and p must have same size")
    total = math.fsum(p.tolist())
    if _np.isnan(total):
        raise ValueError("Probabilities contain NaN")
    if _np.logical_or.reduce(p < 0):
        raise ValueError("Probabilities are not non-negative")
    if abs(total - 1.0) > atol:
        raise ValueError(
            "Probabilities do not sum to 1. See Notes section of docstring for more information."
        )
    return p


def _spawn_bit_generators(bit_generator, n):
    spawn = getattr(bit_generator, "spawn", None)
    if spawn is not None:  # NumPy 1.25 and later
        return spawn(n)
    seed_seq = bit_generator._seed_seq
    return [type(bit_generator)(s) for s in seed_seq.spawn(n)]


# ------------------------------------------------------------------------------------------------
# integers: NumPy's bounds (numpy/random/_bounded_integers.pyx), as an offset and an inclusive
# range for the compiled entry.

_INTEGER_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _integer_info(dt):
    if not dt.isnative or dt.name not in _INTEGER_DTYPES:
        return None
    if dt.kind == "b":
        return 0, 1
    ii = _np.iinfo(dt)
    return int(ii.min), int(ii.max)


def _bounds_error(closed, low):
    if not _np.any(low):
        return f"high {'<' if closed else '<='} 0"
    return f"low {'>' if closed else '>='} high"


def _scalar_bounds(low, high, endpoint, dt, info):
    lb, ub = info
    if not endpoint:
        high -= 1
    if low < lb:
        raise ValueError(f"low is out of bounds for {dt.name}")
    if high > ub:
        raise ValueError(f"high is out of bounds for {dt.name}")
    if low > high:
        raise ValueError(_bounds_error(endpoint, low))
    return low % 2**64, high - low


def _as_ints(a):
    """`a` as an object array of Python ints (floats truncated, as NumPy casts them)."""
    return _np.asarray(_np.frompyfunc(int, 1, 1)(a), dtype=object).reshape(a.shape)


def _array_bounds(lo, hi, endpoint, dt, info):
    lb, ub = info
    lo_i = _as_ints(lo)
    closed_hi = _as_ints(hi) - (0 if endpoint else 1)
    closed_hi = _np.asarray(closed_hi, dtype=object).reshape(hi.shape)
    if lo_i.size and _np.any(lo_i < lb):
        raise ValueError(f"low is out of bounds for {dt.name}")
    if closed_hi.size and _np.any(closed_hi > ub):
        raise ValueError(f"high is out of bounds for {dt.name}")
    lo_b, hi_b = _np.broadcast_arrays(lo_i, closed_hi)
    if _np.any(_np.greater(lo_b, hi_b)):
        raise ValueError(_bounds_error(endpoint, lo))
    off = _np.array([v % 2**64 for v in lo_b.ravel()], dtype=_np.uint64).reshape(lo_b.shape)
    rng = _np.array([h - v for v, h in zip(lo_b.ravel(), hi_b.ravel())], dtype=_np.uint64)
    return off, rng.reshape(lo_b.shape)


# ------------------------------------------------------------------------------------------------
# Construction.


def default_rng(seed=None):
    """A Generator on a Philox bit generator seeded through NumPy's ``SeedSequence``.

    ``seed``: None (fresh entropy), an int or sequence of ints, a ``SeedSequence``, a
    ``numpy.random.Philox``, or a Generator (numcu's is returned as it is; NumPy's on a Philox
    shares its bit generator). NumPy's ``default_rng`` makes a PCG64 instead: the same seed
    gives other values there, but ``numpy.random.Generator(numpy.random.Philox(seed))`` gives
    numcu's ``random``, ``uniform`` and ``integers`` values.
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _np.random.Generator):
        return Generator(seed.bit_generator)
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    return Generator(Philox(seed))


# ------------------------------------------------------------------------------------------------
# The module-level functions NumPy scripts call, on a module-level Generator. They are not
# NumPy's MT19937 stream: numpy.random.seed(s) and numcu.random.seed(s) give other values.

_global = [None]


def _generator():
    if _global[0] is None:
        _global[0] = Generator(Philox())
    return _global[0]


def seed(seed=None):
    """Reseed the module-level Generator: ``Philox(seed)`` (not NumPy's MT19937 seeding)."""
    _global[0] = Generator(Philox(seed))


def get_generator():
    """The Generator the module-level functions draw from."""
    return _generator()


def _shape(args):
    if len(args) == 1 and not isinstance(args[0], int) and hasattr(args[0], "__len__"):
        return tuple(args[0])
    return tuple(args) if args else None


def rand(*shape, device=None, stream=None):
    """Floats uniform on [0, 1) of the given shape (a float with no arguments)."""
    return _generator().random(_shape(shape), device=device, stream=stream)


def randn(*shape, device=None, stream=None):
    """Standard normal values of the given shape (a float with no arguments)."""
    return _generator().standard_normal(_shape(shape), device=device, stream=stream)


def randint(low, high=None, size=None, dtype=int, *, device=None, stream=None):
    """Integers uniform on [low, high) (on [0, low) without `high`), int64 by default."""
    return _generator().integers(low, high, size, dtype, device=device, stream=stream)


def random(size=None, *, device=None, stream=None):
    """Floats uniform on [0, 1)."""
    return _generator().random(size, device=device, stream=stream)


def normal(loc=0.0, scale=1.0, size=None, *, device=None, stream=None):
    """Normal values of mean `loc` and standard deviation `scale`."""
    return _generator().normal(loc, scale, size, device=device, stream=stream)


def uniform(low=0.0, high=1.0, size=None, *, device=None, stream=None):
    """Floats uniform on [low, high)."""
    return _generator().uniform(low, high, size, device=device, stream=stream)


def choice(a, size=None, replace=True, p=None, *, device=None, stream=None):
    """Random samples of `a` (see Generator.choice)."""
    return _generator().choice(a, size, replace, p, device=device, stream=stream)


def permutation(x, *, device=None, stream=None):
    """A permuted ``arange(x)``, or a permuted copy of `x` along its first axis."""
    return _generator().permutation(x, device=device, stream=stream)


def shuffle(x, *, device=None, stream=None):
    """Permute `x` in place along its first axis."""
    _generator().shuffle(x, device=device, stream=stream)


__all__ = [
    "DISTRIBUTIONS",
    "BitGenerator",
    "Generator",
    "Philox",
    "SeedSequence",
    "choice",
    "default_rng",
    "get_generator",
    "normal",
    "permutation",
    "rand",
    "randint",
    "randn",
    "random",
    "seed",
    "shuffle",
    "uniform",
]
