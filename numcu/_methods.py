"""NumPy's reduction and scan methods on numcu.ndarray (``x.sum(axis=0)``, ``x.max()``, ...).

Code written for NumPy arrays calls them on whatever array it is given: Dask's reductions
(``std`` and ``var`` combine with ``.sum``), xarray, and users' own. Each is numcu's function of
the same name with the array as its first argument, so the two never disagree.
"""

from ._load import load_core

_core = load_core()

METHODS = (
    "all",
    "any",
    "argmax",
    "argmin",
    "cumprod",
    "cumsum",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
)


def _method(name):
    function = getattr(_core, name)

    def method(self, *args, **kwargs):
        return function(self, *args, **kwargs)

    method.__name__ = name
    method.__qualname__ = f"ndarray.{name}"
    method.__doc__ = f"numcu.{name} of this array: ``x.{name}(...)`` is ``numcu.{name}(x, ...)``."
    return method


def install(ndarray):
    """Add the methods numcu has functions for and the class does not define itself."""
    for name in METHODS:
        if hasattr(_core, name) and name not in vars(ndarray):
            setattr(ndarray, name, _method(name))
