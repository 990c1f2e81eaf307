"""Generate numcu's type stubs (``.pyi``) from the installed module, or check the committed ones.

``python .ci/stubgen.py`` rewrites the stubs in numcu/ from the numcu that Python imports
(build and install it first; ``nox -s stubs`` does both). ``python .ci/stubgen.py --check``
writes nothing and exits with status 1, showing the difference, when the committed stubs are not
what the installed module generates.

The stubs come from pybind11-stubgen with a few corrections that numcu's module needs:

- Functions on CPython's vectorcall convention carry their signature as ``__text_signature__``,
  which pybind11-stubgen reads through ``inspect.getfullargspec``: that drops the ``/`` of
  positional-only parameters and leaves every parameter unannotated, so ``mypy --strict`` calls
  them untyped. Their parameters come from ``inspect.signature`` here, annotated ``typing.Any``.
- A function whose parameters are all positional-only keeps its ``/``.
- Strings known only at install time (``include_path``, ``cmake_prefix``, ``__version__``) are
  stubbed by type, not value, so that the stubs do not depend on where or which version numcu is
  installed; a tuple or list of strings (the dtype and ufunc lists) is typed ``tuple[str, ...]``
  or ``list[str]`` and keeps its value.
- The slot wrappers ``__buffer__`` and ``__release_buffer__``, which Python 3.12 and later give
  every type that has the buffer protocol (PEP 688) and earlier versions do not, are left out, so
  that the stubs are the same whichever Python generates them.
"""

from __future__ import annotations

import argparse
import difflib
import filecmp
import importlib.metadata
import inspect
import re
import sys
import tempfile
from pathlib import Path

try:
    import pybind11_stubgen
    from pybind11_stubgen.printer import Printer
    from pybind11_stubgen.structs import Argument, Identifier, Value
    from pybind11_stubgen.writer import Writer
except ImportError:  # pragma: no cover - reported by main()
    pybind11_stubgen = None

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "numcu"
# The committed stubs: every .pyi under numcu/, all of them generated here.
STUB_GLOB = "**/*.pyi"
# Exit status of --check when the installed generator is not the pinned one, whose output
# the committed stubs are: another version may print the same API differently.
OTHER_GENERATOR = 3


def pinned_generator_version() -> str | None:
    """The pybind11-stubgen version pyproject.toml's test extra pins (==), if it pins one."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'"pybind11-stubgen==([^";\s]+)', text)
    return match.group(1) if match else None


# Class members that only some Python versions have (see the module docstring).
VERSION_DEPENDENT_MEMBERS = frozenset({"__buffer__", "__release_buffer__"})


class _Corrections:
    """Parser mixin: the corrections listed in the module docstring."""

    def handle_class_member(self, path, class_, member):
        if str(path[-1]) in VERSION_DEPENDENT_MEMBERS:
            return None
        return super().handle_class_member(path, class_, member)

    def handle_function(self, path, func):
        result = super().handle_function(path, func)
        if getattr(func, "__text_signature__", None) is None or len(result) != 1:
            return result
        try:
            signature = inspect.signature(func)
        except (TypeError, ValueError):
            return result
        any_type = self.parse_annotation_str("typing.Any")
        kind = inspect.Parameter
        result[0].args = [
            Argument(
                name=Identifier(p.name),
                pos_only=p.kind is kind.POSITIONAL_ONLY,
                kw_only=p.kind is kind.KEYWORD_ONLY,
                variadic=p.kind is kind.VAR_POSITIONAL,
                kw_variadic=p.kind is kind.VAR_KEYWORD,
                default=None if p.default is kind.empty else self.handle_value(p.default),
                annotation=any_type,
            )
            for p in signature.parameters.values()
        ]
        result[0].returns = any_type
        return result

    def handle_attribute(self, path, value):
        result = super().handle_attribute(path, value)
        if result is None:
            return None
        if isinstance(value, str):
            result.value = Value(repr=repr(value), is_print_safe=False)
        elif isinstance(value, (tuple, list)) and value and all(isinstance(v, str) for v in value):
            spelled = "tuple[str, ...]" if isinstance(value, tuple) else "list[str]"
            result.annotation = self.parse_annotation_str(spelled)
        return result


class _Printer(Printer):
    def print_function(self, func):
        args = func.args
        if args and all(arg.pos_only for arg in args):
            # The base printer writes "/" only before a parameter that is not positional-only.
            func.args = [*args, Argument(name=Identifier("/"), pos_only=True)]
        try:
            return super().print_function(func)
        finally:
            func.args = args


def generate(output_dir: Path) -> None:
    """Write the stubs of the importable numcu under output_dir/numcu."""
    args = pybind11_stubgen.arg_parser().parse_args(["--exit-code", PACKAGE])
    base = type(pybind11_stubgen.stub_parser_from_args(args))
    parser = type("NumcuStubParser", (_Corrections, base), {})()
    pybind11_stubgen.run(
        parser,
        _Printer(invalid_expr_as_ellipses=True),
        [PACKAGE],
        str(output_dir),
        root_suffix=None,
        dry_run=False,
        writer=Writer(stub_ext="pyi"),
    )


def stub_files(folder: Path) -> list[str]:
    """The stubs under folder (a numcu package folder), as sorted relative paths."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.glob(STUB_GLOB))


def compare(generated: Path, committed: Path) -> list[str]:
    """Unified diffs between two stub folders; empty when they hold the same files."""
    diffs = []
    new, old = stub_files(generated), stub_files(committed)
    for name in sorted(set(new) | set(old)):
        a = committed / name
        b = generated / name
        if a.exists() and b.exists() and filecmp.cmp(a, b, shallow=False):
            continue
        a_lines = a.read_text(encoding="utf-8").splitlines(keepends=True) if a.exists() else []
        b_lines = b.read_text(encoding="utf-8").splitlines(keepends=True) if b.exists() else []
        diffs.append(
            "".join(
                difflib.unified_diff(
                    a_lines, b_lines, f"committed/{PACKAGE}/{name}", f"generated/{PACKAGE}/{name}"
                )
            )
            or f"{name}: differs\n"
        )
    return diffs


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument(
        "--check",
        action="store_true",
        help="compare with the committed stubs instead of rewriting them",
    )
    options = cli.parse_args(argv)
    pinned = pinned_generator_version()
    if pybind11_stubgen is None:
        print(
            f"stubgen: pybind11-stubgen is not installed (pip install pybind11-stubgen=={pinned})"
        )
        return 2
    installed = importlib.metadata.version("pybind11-stubgen")
    if pinned is not None and installed != pinned:
        print(
            f"stubgen: the stubs are generated with pybind11-stubgen {pinned} (pyproject.toml's "
            f"test extra), not {installed}: pip install pybind11-stubgen=={pinned}"
        )
        return OTHER_GENERATOR

    committed = ROOT / PACKAGE
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        generated = Path(tmp) / PACKAGE
        diffs = compare(generated, committed)
        if options.check:
            if diffs:
                sys.stdout.writelines(diffs)
                print(
                    f"stubgen: {len(diffs)} stub file(s) differ from the installed module; "
                    "regenerate them with `nox -s stubs`"
                )
                return 1
            print(f"stubgen: the {len(stub_files(committed))} committed stub files are current")
            return 0
        old = stub_files(committed)
        for name in old:
            (committed / name).unlink()
        # A folder that held only stubs (numcu/_core/) goes too, should it have none left.
        for folder in sorted({(committed / n).parent for n in old}, reverse=True):
            if folder != committed and not any(folder.iterdir()):
                folder.rmdir()
        for name in stub_files(generated):
            target = committed / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((generated / name).read_bytes())
        print(f"stubgen: wrote {len(stub_files(committed))} stub files, {len(diffs)} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
