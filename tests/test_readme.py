"""README.md as a specification: its code runs, its lists name what the package has.

Specification:
- every ``python`` code block of README.md runs as written, each in a fresh namespace (a
  snippet must not depend on another); a block whose first line is ``# Needs <what>`` (a GPU,
  CuPy, PyTorch) is skipped where that is missing, and must run where it is present;
- the tables of "The API at a glance" name exactly the public names of ``numcu``,
  ``numcu.cuda``, ``numcu.linalg`` and ``numcu.fft``, each once, and a count given in a row's
  label is the number of its names;
- the two set-up commands at the top are the install command and a test command, and the test
  command is the one CI runs (.ci/run; where the repository is there, not in an sdist);
- the test command installs exactly pyproject.toml's ``test`` extra (from
  tests/requirements.txt), so it needs no build;
- LICENSE is the Apache License 2.0 that pyproject.toml names, and CITATION.cff has the
  package's version and license;
- (the example notebook the README points to runs in test_notebook.py).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import numcu

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

# What a "# Needs ..." line may name, and how to tell whether it is here.
NEEDS = {
    "gpu": lambda: numcu.cuda.is_available(),
    "cupy": lambda: importlib.util.find_spec("cupy") is not None and numcu.cuda.is_available(),
    "pytorch": lambda: importlib.util.find_spec("torch") is not None and numcu.cuda.is_available(),
}


def code_blocks(language: str) -> list[tuple[int, str]]:
    """(line number, text) of every fenced block of `language` in README.md."""
    blocks = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```$", README, re.S | re.M):
        blocks.append((README.count("\n", 0, match.start()) + 1, match.group(1)))
    return blocks


def needs_of(snippet: str) -> list[str]:
    """What a snippet's "# Needs ..." first line names (lower case), or nothing."""
    first = snippet.splitlines()[0] if snippet.strip() else ""
    if not first.startswith("# Needs"):
        return []
    named = [word for word in NEEDS if word in first.lower()]
    assert named, f"a Needs line names none of {sorted(NEEDS)}: {first!r}"
    return named


PYTHON_BLOCKS = code_blocks("python")


def test_the_readme_has_python_snippets():
    assert len(PYTHON_BLOCKS) >= 5


@pytest.mark.parametrize(
    "snippet", [b[1] for b in PYTHON_BLOCKS], ids=[f"line{b[0]}" for b in PYTHON_BLOCKS]
)
def test_snippet_runs(snippet, tmp_path, monkeypatch):
    missing = [need for need in needs_of(snippet) if not NEEDS[need]()]
    if missing:
        pytest.skip(f"the snippet needs {', '.join(missing)}")
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, "README.md snippet", "exec"), {"__name__": "__readme__"})
    numcu.cuda.synchronize()


# --------------------------------------------------------------------------------------------
# The API at a glance
# --------------------------------------------------------------------------------------------


def api_rows(heading: str) -> list[tuple[str, list[str]]]:
    """(label, names) per row of the table under `heading` in "The API at a glance"."""
    section = README.split("## The API at a glance", 1)[1].split("\n## ", 1)[0]
    part = section.split(heading, 1)[1].split("\n### ", 1)[0]
    rows = []
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or set(cells[0]) <= {"-", ":", " "} or cells[0] == "what":
            continue
        names = re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", cells[1])
        rows.append((cells[0], names))
    assert rows, f"no table under {heading!r}"
    return rows


def check_rows(rows, public):
    listed = [name for _, names in rows for name in names]
    duplicates = sorted({n for n in listed if listed.count(n) > 1})
    assert not duplicates, f"named more than once: {duplicates}"
    assert sorted(set(listed) - public) == [], "the README names what the package lacks"
    assert sorted(public - set(listed)) == [], "the README misses public names"
    for label, names in rows:
        count = re.search(r"\((\d+)", label)
        if count:
            assert int(count.group(1)) == len(names), f"{label!r} lists {len(names)} names"


def test_api_tables_name_every_public_function():
    public = {n for n in numcu.__all__ if not n.startswith("_")}
    check_rows(api_rows("### numcu"), public)


def test_api_tables_name_every_cuda_function():
    check_rows(api_rows("### numcu.cuda"), set(numcu.cuda.__all__))


def test_api_tables_name_every_linalg_and_fft_function():
    check_rows(api_rows("### numcu.linalg"), set(numcu.linalg.__all__))
    check_rows(api_rows("### numcu.fft"), set(numcu.fft.__all__))


def test_the_elementwise_row_is_numcu_ufuncs():
    rows = dict(api_rows("### numcu"))
    label = next(label for label in rows if label.startswith("Elementwise"))
    assert sorted(rows[label]) == sorted(numcu.UFUNCS)


# --------------------------------------------------------------------------------------------
# The set-up commands
# --------------------------------------------------------------------------------------------


def setup_commands() -> list[str]:
    """The command lines of the first shell block (comments apart): install, then test."""
    first = code_blocks("sh")[0][1]
    lines = [line.strip() for line in first.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_the_first_block_installs_then_tests():
    install, test = setup_commands()

    assert install == "pip install ."
    assert "python -m pytest" in test


def test_ci_runs_the_readme_commands():
    if not (ROOT / ".ci" / "run").exists():
        pytest.skip("needs numcu's repository (.ci/run; an sdist leaves it out)")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for command in setup_commands():
        assert command in [line.strip() for line in ci], f"{command!r} is not a line of .ci/run"


def test_the_test_command_installs_the_test_extra():
    """The requirements file the test command installs is pyproject.toml's test extra."""
    test = setup_commands()[1]
    path = re.search(r"pip install -r (\S+)", test).group(1)
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    installed = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    with open(ROOT / "pyproject.toml", "rb") as f:
        extra = tomllib.load(f)["project"]["optional-dependencies"]["test"]
    assert sorted(installed) == sorted(extra)


def test_license_and_citation_match_the_package():
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")

    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert 'license = { text = "Apache-2.0" }' in pyproject
    assert re.search(r"^license: Apache-2.0$", citation, re.M)
    assert re.search(rf"^version: {re.escape(numcu.__version__)}$", citation, re.M)
