"""Pickling numcu arrays: a device array pickles as its host copy and unpickles onto the
current GPU of the process that loads it (the device index is not kept: the loading process
may have other GPUs, or see them under other numbers). Task graphs of Dask's distributed
scheduler and multiprocessing carry device arrays this way; protocol 5 passes the bytes out of
band, as NumPy's own pickling does."""

from ._load import load_core

_core = load_core()


def rebuild(host):
    """Unpickle: the host copy back onto the current GPU (NumPy, without one)."""
    return _core.asarray(host)


def reduce(self):
    """numcu.ndarray.__reduce__: rebuilt from its host copy."""
    # asnumpy waits for the array's queued work: pickling needs the bytes now.
    return rebuild, (_core.asnumpy(self),)
