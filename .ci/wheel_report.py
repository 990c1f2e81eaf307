"""Report a numcu wheel's size and check that it holds what the package must ship.

``python .ci/wheel_report.py dist/numcu-*.whl`` prints the wheel's size, the compiled module's
size, and what is missing: the compiled module, the Python files, every header of
cuda/include/numcu, the CMake package files, every committed stub, ``py.typed``, and the
LICENSE file when the source tree has one. Exits with status 1 if anything is missing.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1e6


def required_members() -> list[str]:
    """Glob patterns of the wheel members numcu must ship, derived from the source tree."""
    patterns = ["numcu/_core.*.so", "numcu/py.typed"]
    patterns += [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "numcu").glob("*.py"))]
    patterns += [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "numcu").rglob("*.pyi"))]
    headers = ROOT / "cuda" / "include"
    patterns += [
        "numcu/include/" + p.relative_to(headers).as_posix()
        for p in sorted(headers.rglob("*"))
        if p.suffix in (".hpp", ".cuh")
    ]
    patterns += [f"numcu/share/cmake/numcu/numcu{n}.cmake" for n in ("Config", "ConfigVersion")]
    patterns += [f"*.dist-info/licenses/{p.name}" for p in sorted(ROOT.glob("LICENSE*"))]
    return patterns


def report(wheel: Path) -> int:
    with zipfile.ZipFile(wheel) as archive:
        members = {info.filename: info for info in archive.infolist()}
    missing = [p for p in required_members() if not fnmatch.filter(members, p)]
    core = [info for name, info in members.items() if fnmatch.fnmatch(name, "numcu/_core.*.so")]
    unpacked = sum(info.file_size for info in members.values())
    headers = fnmatch.filter(members, "numcu/include/*")
    stubs = fnmatch.filter(members, "*.pyi")

    print(f"wheel: {wheel.name}")
    print(f"  size: {wheel.stat().st_size / MB:.1f} MB ({unpacked / MB:.1f} MB unpacked)")
    for info in core:
        print(f"  {info.filename}: {info.file_size / MB:.1f} MB")
    print(f"  {len(members)} files: {len(headers)} headers, {len(stubs)} stubs")
    if missing:
        print("  missing:", *missing, sep="\n    ")
        return 1
    print("  every required file is there")
    return 0


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("wheels", nargs="+", type=Path)
    options = cli.parse_args(argv)
    return max(report(wheel) for wheel in options.wheels)


if __name__ == "__main__":
    sys.exit(main())
