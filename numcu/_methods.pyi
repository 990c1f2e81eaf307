"""
NumPy's reduction and scan methods on numcu.ndarray (``x.sum(axis=0)``, ``x.max()``, ...).

Code written for NumPy arrays calls them on whatever array it is given: Dask's reductions
(``std`` and ``var`` combine with ``.sum``), xarray, and users' own. Each is numcu's function of
the same name with the array as its first argument, so the two never disagree.
"""
from __future__ import annotations
from numcu import _core
from numcu._load import load_core
import numpy as _np
__all__: list[str] = ['METHODS', 'install', 'load_core']
def _method(name):
    ...
def install(ndarray):
    """
    Add the methods numcu has functions for and the class does not define itself.
    """
METHODS: tuple[str, ...] = ('sum', 'prod', 'mean', 'var', 'std', 'min', 'max', 'argmin', 'argmax', 'any', 'all', 'cumsum', 'cumprod')
