"""The installed distribution holds what numcu's wheel must ship.

Specification (the list is .ci/wheel_report.py's, which ``nox -s wheel`` checks a wheel
against, derived from the source tree):
- the distribution's RECORD lists the compiled module, every Python file and committed stub of
  numcu/, ``py.typed``, every header of cuda/include/numcu, numcuConfig.cmake and
  numcuConfigVersion.cmake, and the LICENSE file when the source tree has one;
- each of them is on disk where RECORD says.
The distribution is the one numcu was installed as: numcu from source, numcu-cuda13x or
numcu-cuda12x from a release wheel. Skipped for an editable install, whose RECORD lists none of
them, and in an sdist, which leaves the CI's scripts out.
"""

from __future__ import annotations

import fnmatch
import importlib.metadata
import json
import sys
from pathlib import Path

import pytest

import numcu

ROOT = Path(__file__).resolve().parent.parent
if not (ROOT / ".ci" / "wheel_report.py").exists():
    pytest.skip("needs numcu's repository (.ci/wheel_report.py)", allow_module_level=True)
sys.path.insert(0, str(ROOT / ".ci"))
from wheel_report import required_members  # noqa: E402


@pytest.fixture(scope="module")
def distribution():
    dist = importlib.metadata.distribution(numcu.build_info()["distribution"])
    direct_url = dist.read_text("direct_url.json")
    if direct_url and json.loads(direct_url).get("dir_info", {}).get("editable"):
        pytest.skip("an editable install")
    return dist


def test_record_lists_every_required_file(distribution):
    recorded = [path.as_posix() for path in distribution.files]

    missing = [p for p in required_members() if not fnmatch.filter(recorded, p)]

    assert not missing


def test_required_files_are_installed(distribution):
    wanted = required_members()
    installed = [
        path
        for path in distribution.files
        if any(fnmatch.fnmatch(path.as_posix(), p) for p in wanted)
    ]

    absent = [str(path) for path in installed if not Path(distribution.locate_file(path)).is_file()]

    assert len(installed) >= len(wanted)
    assert not absent
