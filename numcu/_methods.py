"""NumPy's reduction and scan methods on numcu.ndarray (``x.sum(axis=0)``, ``x.max()``, ...).

Code written for NumPy arrays calls them on whatever array it is given: Dask's reductions
(``std`` and ``var`` combine with ``.sum``), xarray, and users' own. Each is numcu's function of
the same name with the array as its first argument, so the two never disagree.
"""

import numpy as _np

from ._load import load_core

_core = load_core()

# The reductions and scans of numcu's tables that numpy.ndarray has as methods: a reduction added
# to the table becomes a method where NumPy has one of its name.
METHODS = tuple(
    name for name in _core.reductions + _core.scans if callable(getattr(_np.ndarray, name, None))
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
