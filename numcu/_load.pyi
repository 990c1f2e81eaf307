"""
Finding the compiled module.

Run from a numcu source checkout (``python -m numcu`` or ``python -m pytest`` in its root),
Python imports the source folder, which has no compiled ``_core``: the one the installed
package carries is loaded in its place, so the source folder behaves like the installation.
"""
from __future__ import annotations
import importlib as importlib
import os as os
import sys as sys
__all__: list[str] = ['importlib', 'load_core', 'os', 'sys']
def load_core():
    """
    Return numcu._core, from this folder or else from an installed numcu.
    """
