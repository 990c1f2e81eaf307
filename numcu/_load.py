"""Finding the compiled module.

Run from a numcu source checkout (``python -m numcu`` or ``python -m pytest`` in its root),
Python imports the source folder, which has no compiled ``_core``: the one the installed
package carries is loaded in its place, so the source folder behaves like the installation.
"""

import importlib
import importlib.machinery
import importlib.util
import os
import sys


def load_core():
    """Return numcu._core, from this folder or else from an installed numcu."""
    if "numcu._core" in sys.modules:
        return sys.modules["numcu._core"]
    error = None
    try:
        module = importlib.import_module("numcu._core")
        # The source folder's numcu/_core/ holds only type stubs, which Python imports as an
        # empty namespace package (no __file__) when no compiled _core sits beside it.
        if getattr(module, "__file__", None) is not None:
            return module
        del sys.modules["numcu._core"]
    except ImportError as err:
        error = err
    here = os.path.realpath(os.path.dirname(__file__))
    for entry in sys.path:
        folder = os.path.realpath(os.path.join(entry or os.getcwd(), "numcu"))
        if folder == here or not os.path.isdir(folder):
            continue
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_core" + suffix)
            if os.path.exists(path):
                spec = importlib.util.spec_from_file_location("numcu._core", path)
                module = importlib.util.module_from_spec(spec)
                sys.modules["numcu._core"] = module
                spec.loader.exec_module(module)
                return module
    raise ImportError(
        "numcu's compiled module (_core) is missing: install numcu with `pip install .` "
        "(a source folder alone cannot be imported)"
    ) from error
