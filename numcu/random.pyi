"""
Random numbers: NumPy's ``Generator`` on numcu's devices, with NumPy's Philox stream.

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
import math as math
from numcu import _array_api
from numcu import _core
from numcu._load import load_core
import numpy
import numpy as _np
from numpy.random._philox import Philox
from numpy.random.bit_generator import BitGenerator
from numpy.random.bit_generator import SeedSequence
import operator as _operator
__all__: list[str] = ['DISTRIBUTIONS', 'BitGenerator', 'Generator', 'Philox', 'SeedSequence', 'choice', 'default_rng', 'get_generator', 'normal', 'permutation', 'rand', 'randint', 'randn', 'random', 'seed', 'shuffle', 'uniform']
class Generator:
    """
    NumPy's ``numpy.random.Generator`` on numcu's devices (see the module's docstring).
    
        Parameters
        ----------
        bit_generator : numpy.random.Philox
            The counter-based bit generator whose stream the values come from; its state advances
            as NumPy's Generator would advance it.
        
    """
    def __init__(self, bit_generator):
        ...
    def __reduce__(self):
        ...
    def __repr__(self):
        ...
    def __str__(self):
        ...
    def _choice_p_no_replace(self, p, count, shape, where, stream):
        ...
    def _words(self, shape, device, stream):
        ...
    def beta(self, a, b, size = None, *, device = None, stream = None):
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
    def binomial(self, n, p, size = None, *, device = None, stream = None):
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
    def chisquare(self, df, size = None, *, device = None, stream = None):
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
    def choice(self, a, size = None, replace = True, p = None, axis = 0, shuffle = True, *, device = None, stream = None):
        """
        Random samples of `a` (an int n: ``arange(n)``), NumPy's arguments and checks.
        
                - With replacement, no `p`: ``integers(0, len(a), size)``, NumPy's values.
                - With replacement and `p`: NumPy's inversion of p's cumulative sum (computed on the
                  host, as NumPy does) at ``random(size)``: NumPy's values.
                - Without replacement, `p` given: NumPy's repeated draws (on the host): NumPy's values.
                - Without replacement, no `p`: the first values of ``permutation(len(a))`` (NumPy uses
                  Floyd's or a partial Fisher-Yates shuffle: not its values).
                
        """
    def exponential(self, scale = 1.0, size = None, *, device = None, stream = None):
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
    def gamma(self, shape, scale = 1.0, size = None, *, device = None, stream = None):
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
    def geometric(self, p, size = None, *, device = None, stream = None):
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
    def integers(self, low, high = None, size = None, dtype = numpy.int64, endpoint = False, *, device = None, stream = None):
        """
        Integers uniform on [low, high), or [low, high] with ``endpoint=True``.
        
                NumPy's arguments, dtypes (bool and the signed and unsigned integers), checks and
                messages. The values are NumPy's (Lemire's method on the same draws: a 32-bit draw
                where the range fits 32 bits, else 64; fields of one for 8- and 16-bit dtypes and
                bool) until NumPy rejects a draw (probability ``(2**w mod range) / 2**w`` per value);
                numcu then draws from the value's own substream, so every value takes one draw and the
                state advances by exactly n draws (NumPy's, for n a multiple of the values per draw).
                With array bounds every value takes a 32-bit draw (64-bit for 64-bit dtypes).
        
                device, stream : where the values are made (numcu's default device unless given).
                
        """
    def lognormal(self, mean = 0.0, sigma = 1.0, size = None, *, device = None, stream = None):
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
    def normal(self, loc = 0.0, scale = 1.0, size = None, *, device = None, stream = None):
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
    def permutation(self, x, axis = 0, *, device = None, stream = None):
        """
        A random permutation of ``arange(x)`` (x an int), or a permuted copy of `x` along `axis`.
        
                One raw 64-bit draw per element; the order sorts them (see above). Host arrays give NumPy
                arrays, device arrays a _core.ndarray on their GPU; an int follows numcu's default device.
                
        """
    def permuted(self, x, *, axis = None, out = None, device = None, stream = None):
        """
        `x` with each slice along `axis` permuted independently (axis None: all of it).
        
                One raw draw per element, in C order; each slice takes the order that sorts its draws.
                
        """
    def poisson(self, lam = 1.0, size = None, *, device = None, stream = None):
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
    def random(self, size = None, dtype = 'float64', out = None, *, device = None, stream = None):
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
    def shuffle(self, x, axis = 0, *, device = None, stream = None):
        """
        Permute `x` in place along `axis` (the values ``permutation(x, axis)`` gives).
        """
    def spawn(self, n_children):
        """
        Independent child Generators, through the bit generator's ``SeedSequence``.
        """
    def standard_exponential(self, size = None, dtype = 'float64', method = 'zig', out = None, *, device = None, stream = None):
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
    def standard_gamma(self, shape, size = None, dtype = 'float64', out = None, *, device = None, stream = None):
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
    def standard_normal(self, size = None, dtype = 'float64', out = None, *, device = None, stream = None):
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
    def uniform(self, low = 0.0, high = 1.0, size = None, *, device = None, stream = None):
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
    @property
    def bit_generator(self):
        """
        The bit generator (a ``numpy.random.Philox``) the values come from.
        """
def _array_and_device(x, device):
    """
    `x` as an array numcu takes (device arrays kept on their GPU), and where to work on it.
    """
def _array_bounds(lo, hi, endpoint, dt, info):
    ...
def _as_ints(a):
    """
    `a` as an object array of Python ints (floats truncated, as NumPy casts them).
    """
def _bounds_error(closed, low):
    ...
def _checked_p(p, pop_size):
    """
    NumPy's checks of choice's probabilities; p as float64 on the host.
    """
def _device_of(x):
    ...
def _generator():
    ...
def _host(x):
    """
    `x` as a NumPy array (device arrays are copied to the host).
    """
def _integer_info(dt):
    ...
def _is_device_array(x):
    ...
def _is_int(x):
    ...
def _method(name):
    ...
def _normalize_axis(axis, ndim):
    ...
def _on_host(x):
    ...
def _placed_like(pool, idx, stream):
    """
    `pool` (choice's population, the array permutation or permuted reorders) where the indices
        `idx` are, the device the caller asked for: copied once where it is elsewhere (a NumPy array
        for a GPU result, a GPU array for a host result or another GPU's).
    """
def _scalar_bounds(low, high, endpoint, dt, info):
    ...
def _shape(args):
    ...
def _size_count(size):
    ...
def _spawn_bit_generators(bit_generator, n):
    ...
def choice(a, size = None, replace = True, p = None, *, device = None, stream = None):
    """
    Random samples of `a` (see Generator.choice).
    """
def default_rng(seed = None):
    """
    A Generator on a Philox bit generator seeded through NumPy's ``SeedSequence``.
    
        ``seed``: None (fresh entropy), an int or sequence of ints, a ``SeedSequence``, a
        ``numpy.random.Philox``, or a Generator (numcu's is returned as it is; NumPy's on a Philox
        shares its bit generator). NumPy's ``default_rng`` makes a PCG64 instead: the same seed
        gives other values there, but ``numpy.random.Generator(numpy.random.Philox(seed))`` gives
        numcu's ``random``, ``uniform`` and ``integers`` values.
        
    """
def get_generator():
    """
    The Generator the module-level functions draw from.
    """
def normal(loc = 0.0, scale = 1.0, size = None, *, device = None, stream = None):
    """
    Normal values of mean `loc` and standard deviation `scale`.
    """
def permutation(x, *, device = None, stream = None):
    """
    A permuted ``arange(x)``, or a permuted copy of `x` along its first axis.
    """
def rand(*shape, device = None, stream = None):
    """
    Floats uniform on [0, 1) of the given shape (a float with no arguments).
    """
def randint(low, high = None, size = None, dtype = int, *, device = None, stream = None):
    """
    Integers uniform on [low, high) (on [0, low) without `high`), int64 by default.
    """
def randn(*shape, device = None, stream = None):
    """
    Standard normal values of the given shape (a float with no arguments).
    """
def random(size = None, *, device = None, stream = None):
    """
    Floats uniform on [0, 1).
    """
def seed(seed = None):
    """
    Reseed the module-level Generator: ``Philox(seed)`` (not NumPy's MT19937 seeding).
    """
def shuffle(x, *, device = None, stream = None):
    """
    Permute `x` in place along its first axis.
    """
def uniform(low = 0.0, high = 1.0, size = None, *, device = None, stream = None):
    """
    Floats uniform on [low, high).
    """
DISTRIBUTIONS: tuple = (('random', tuple(), 1, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': True, 'numpy_first_attempt': False, 'rejection': False, 'fill': True}, "Floats uniform on [0, 1), NumPy's values (53 bits of a word; float32: 24 bits of a half)."), ('uniform', (('low', '0.0'), ('high', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': True, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, "Floats uniform on [low, high): low + (high - low) * random(), NumPy's values."), ('integers', (('off', None), ('rng', None)), 0, ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'), {'own_binding': True, 'numpy_exact': False, 'numpy_first_attempt': True, 'rejection': True, 'fill': False}, 'Integers uniform on [low, high) (or [low, high] with endpoint=True).'), ('standard_normal', tuple(), 1, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': True}, 'Standard normal values (mean 0, standard deviation 1).'), ('normal', (('loc', '0.0'), ('scale', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Normal values: loc + scale * standard_normal().'), ('lognormal', (('mean', '0.0'), ('sigma', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Log-normal values: exp(normal(mean, sigma)).'), ('standard_exponential', tuple(), 1, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': True}, "Standard exponential values (scale 1): -log(1 - random()), NumPy's method='inv'."), ('exponential', (('scale', '1.0')), 1, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Exponential values: scale * standard_exponential().'), ('standard_gamma', (('shape', None)), 2, ('float32', 'float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, "Gamma values of scale 1 (Marsaglia and Tsang's method)."), ('gamma', (('shape', None), ('scale', '1.0')), 2, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Gamma values: scale * standard_gamma(shape).'), ('beta', (('a', None), ('b', None)), 4, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Beta values: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).'), ('chisquare', (('df', None)), 2, ('float64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Chi-square values with df degrees of freedom: 2 * standard_gamma(df / 2).'), ('poisson', (('lam', '1.0')), 2, ('int64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Poisson counts of mean lam.'), ('binomial', (('n', None), ('p', None)), 2, ('int64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': True, 'fill': False}, 'Binomial counts: successes in n trials of probability p.'), ('geometric', (('p', None)), 1, ('int64'), {'own_binding': False, 'numpy_exact': False, 'numpy_first_attempt': False, 'rejection': False, 'fill': False}, 'Geometric counts: trials up to and including the first success of probability p.'))
_INTEGER_DTYPES: tuple[str, ...] = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64')
_global: list = [None]
