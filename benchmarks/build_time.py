"""How long ``pip install .`` takes, as a new user runs it, and where the CPU time goes.

    python benchmarks/build_time.py                      # the default architectures
    python benchmarks/build_time.py --archs 90           # one architecture, as CI builds
    python benchmarks/build_time.py --json build/build-time.json

Makes a fresh virtual environment (``build/build-time/venv``, without the system's packages),
removes its build folder, and runs ``pip install .`` there with the compiler cache off, as the
README's Install section says, with ``CMAKE_BUILD_PARALLEL_LEVEL`` set to the machine's cores
(``--jobs``). It reports:

- the wall time of the whole ``pip install`` (pip fetching the build requirements included),
  and its CPU time (user + system of every process it ran);
- the CPU seconds of each compiled file and of the link, measured by a compiler launcher that
  waits for each compiler process and records its resource use (``--launch``, below); the CPU
  times hold on a busy machine, where wall times do not;
- the last files to finish, which decide the wall time once one core is idle.

``--no-per-unit`` leaves the launcher out, for a wall time with nothing added (it costs about
a tenth of a second per file). The ``--launch RECORD -- COMMAND...`` form is the launcher.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "build-time"


def launch(record: str, command: list[str]) -> int:
    """Run one compiler command; append its CPU and wall seconds to `record` (JSON lines)."""
    start = time.perf_counter()
    process = subprocess.Popen(command)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    output = next((command[i + 1] for i, a in enumerate(command[:-1]) if a == "-o"), command[-1])
    line = {
        "output": output,
        "cpu": usage.ru_utime + usage.ru_stime,
        "wall": wall,
        "end": time.time(),
        "cuda": any(os.path.basename(a) == "nvcc" for a in command[:2]),
    }
    with open(record, "a") as f:
        f.write(json.dumps(line) + "\n")
    return os.waitstatus_to_exitcode(status)


def unit_name(output: str) -> str:
    name = os.path.basename(output)
    for suffix in (".o", ".obj"):
        name = name.removesuffix(suffix)
    return name


def measure(archs: str, jobs: int, per_unit: bool) -> dict:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    venv.create(WORK / "venv", with_pip=True)
    python = WORK / "venv" / "bin" / "python"
    record = WORK / "units.jsonl"
    env = {k: v for k, v in os.environ.items() if k not in ("SKBUILD_CMAKE_DEFINE", "CMAKE_ARGS")}
    env.update(
        CCACHE_DISABLE="1",
        CMAKE_BUILD_PARALLEL_LEVEL=str(jobs),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    if archs:
        env["NUMCU_CUDA_ARCHITECTURES"] = archs
    else:
        env.pop("NUMCU_CUDA_ARCHITECTURES", None)
    cmd = [str(python), "-m", "pip", "install", f"-Cbuild-dir={WORK / 'build'}", str(ROOT)]
    if per_unit:
        launcher = f"{sys.executable};{Path(__file__).resolve()};--launch;{record};--"
        cmd[4:4] = [
            f"-Ccmake.define.CMAKE_CUDA_COMPILER_LAUNCHER={launcher}",
            f"-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER={launcher}",
        ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    units = []
    if per_unit and record.exists():
        units = [json.loads(line) for line in record.read_text().splitlines() if line.strip()]
    return {
        "archs": archs or "(the build's own choice)",
        "jobs": jobs,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "units": units,
    }


def report(result: dict) -> None:
    print(f"\npip install . ({result['archs']}, {result['jobs']} jobs)")
    print(f"  wall {result['wall_s']:.1f} s, CPU {result['cpu_s']:.1f} s (user + system)")
    units = result["units"]
    if not units:
        return
    cuda = sum(u["cpu"] for u in units if u["cuda"])
    cxx = sum(u["cpu"] for u in units if not u["cuda"])
    print(f"  compiled files: {len(units)}, CPU {cuda:.1f} s in nvcc, {cxx:.1f} s in C++")
    print("  slowest (CPU s):")
    for u in sorted(units, key=lambda u: -u["cpu"])[:12]:
        print(f"    {u['cpu']:7.1f}  {unit_name(u['output'])}")
    last = max(u["end"] for u in units)
    print("  last to finish (s before the last compile ended):")
    for u in sorted(units, key=lambda u: -u["end"])[:4]:
        print(f"    {last - u['end']:7.1f}  {unit_name(u['output'])} ({u['wall']:.1f} s wall)")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--launch"]:
        return launch(argv[1], argv[3:] if argv[2:3] == ["--"] else argv[2:])
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("--archs", default="", help="NUMCU_CUDA_ARCHITECTURES (default: unset)")
    cli.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    cli.add_argument("--no-per-unit", action="store_true", help="no compiler launcher")
    cli.add_argument("--json", help="write the result here")
    options = cli.parse_args(argv)
    result = measure(options.archs, options.jobs, not options.no_per_unit)
    report(result)
    if options.json:
        Path(options.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
