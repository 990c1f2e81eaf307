"""
Pickling numcu arrays: a device array pickles as its host copy and unpickles onto the
current GPU of the process that loads it (the device index is not kept: the loading process
may have other GPUs, or see them under other numbers). Task graphs of Dask's distributed
scheduler and multiprocessing carry device arrays this way; protocol 5 passes the bytes out of
band, as NumPy's own pickling does.
"""
from __future__ import annotations
from numcu import _core
from numcu._load import load_core
__all__: list[str] = ['load_core', 'rebuild', 'reduce']
def rebuild(host):
    """
    Unpickle: the host copy back onto the current GPU (NumPy, without one).
    """
def reduce(self):
    """
    numcu.ndarray.__reduce__: rebuilt from its host copy.
    """
