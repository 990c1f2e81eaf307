"""The example notebook, tests/notebooks/quickstart.ipynb, runs on the CPU backend.

Specification: every cell runs without an error in a fresh Jupyter kernel that sees no GPU
(``CUDA_VISIBLE_DEVICES`` empty), so the notebook's own comparisons with NumPy hold there, and
its text about machines without a GPU is true. Needs nbclient and ipykernel (the ``test``
extra); skipped without them.
"""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parent / "notebooks" / "quickstart.ipynb"


def import_quietly(name):
    """Jupyter's packages may warn about their own settings on import; that is not numcu's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return importlib.import_module(name)
        except ImportError as exc:
            pytest.skip(f"{name} is not installed: {exc}")


def test_quickstart_notebook_runs_without_a_gpu(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    nbformat = import_quietly("nbformat")
    nbclient = import_quietly("nbclient")
    import_quietly("ipykernel")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )

    with warnings.catch_warnings():
        # The kernel's machinery (zmq, tornado, jupyter_client) warns about its own matters.
        warnings.simplefilter("ignore")
        client.execute()

    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "GPU available: False" in printed
