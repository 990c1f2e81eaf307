"""Benchmark of bfloat16 add and sum at n = 2^27, numcu beside PyTorch on the same tensors.

    python benchmarks/bench_bfloat16.py            # full run
    python benchmarks/bench_bfloat16.py --quick    # fewer repeats
    python benchmarks/bench_bfloat16.py --json results.json

What
----
- Add into out, bfloat16, n = 2^27: ``numcu.add(x, y, out=z)`` on numcu arrays and on the
  PyTorch tensors they were taken from (DLPack), beside ``torch.add(x, y, out=z)``; bytes
  moved: 3 * 2 * n.
- Sum to a 0-d device array, bfloat16, n = 2^27: ``numcu.sum(x)`` on a numcu array and on the
  tensor, beside ``torch.sum(x)`` (both accumulate in float32); bytes moved: 2 * n.
- float32 add and sum at the same n, for reference (numcu only).
- Casts into bfloat16 from float32, float64, int32 and int64, n = 2^27:
  ``numcu.astype(a, "bfloat16")`` beside ``t.to(torch.bfloat16)`` (both allocate their result);
  bytes moved: (itemsize + 2) * n. numcu rounds once from every source, as ml_dtypes 0.7 does;
  PyTorch goes through float32 from the wide sources, so the check there is within one unit.

Method
------
Back to back (timing.py): synchronise, time K calls, synchronise; the median of 5
measurements (3 with --quick). Before timing, numcu's add into an out poisoned with NaN is
checked bit for bit against PyTorch's, its sum against PyTorch's within one bfloat16 unit, and
each cast against PyTorch's (float32 bit for bit, the wide sources within one bfloat16 unit).
Bandwidth counts bytes read plus written, in GB/s (1e9 bytes per second).
"""

from __future__ import annotations

import sys

import timing

N = 1 << 27


def main(argv: list[str] | None = None) -> int:
    opts = timing.parse_args(__doc__, argv)
    backends, skipped = timing.load_backends(("numcu", "torch"))
    if "numcu" not in backends or "torch" not in backends:
        print("needs numcu and PyTorch on a GPU")
        return 1
    numcu = backends["numcu"].module
    torch = backends["torch"].module
    sync = backends["torch"].synchronize
    print(timing.banner(timing.device_name(backends), timing.versions(backends)), flush=True)

    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(N, device="cuda", generator=gen).to(torch.bfloat16)
    y = torch.randn(N, device="cuda", generator=gen).to(torch.bfloat16)
    z = torch.full((N,), float("nan"), device="cuda", dtype=torch.bfloat16)
    nx, ny, nz = numcu.from_dlpack(x), numcu.from_dlpack(y), numcu.from_dlpack(z)

    numcu.add(nx, ny, out=nz)
    sync()
    mine = z.clone()
    theirs = torch.add(x, y)
    assert torch.equal(mine.view(torch.int16), theirs.view(torch.int16)), "add differs"
    s_mine = torch.from_dlpack(numcu.sum(nx)).float().item()
    s_theirs = torch.sum(x).float().item()
    assert abs(s_mine - s_theirs) <= 2.0**-7 * abs(s_theirs) + 1e-3 * N**0.5, (s_mine, s_theirs)

    f32 = numcu.astype(nx, "float32")
    f32_y = numcu.astype(ny, "float32")
    f32_out = numcu.astype(nz, "float32")

    # Casts into bfloat16: random values over a wide range, and integers of every magnitude.
    srcs = {
        "float32": torch.randn(N, device="cuda", generator=gen) * 1e3,
        "float64": torch.randn(N, device="cuda", generator=gen, dtype=torch.float64) * 1e3,
        "int32": torch.randint(
            -(2**31), 2**31 - 1, (N,), device="cuda", generator=gen, dtype=torch.int32
        )
        >> torch.randint(0, 31, (N,), device="cuda", generator=gen, dtype=torch.int32),
        "int64": torch.randint(-(2**62), 2**62, (N,), device="cuda", generator=gen)
        >> torch.randint(0, 63, (N,), device="cuda", generator=gen),
    }
    cast_src = {name: (t, numcu.from_dlpack(t)) for name, t in srcs.items()}
    for name, (t, a) in cast_src.items():
        mine = torch.from_dlpack(numcu.astype(a, "bfloat16")).view(torch.int16).int()
        theirs = t.to(torch.bfloat16).view(torch.int16).int()
        worst = int((mine - theirs).abs().max())
        assert worst <= (0 if name == "float32" else 1), (name, worst)
    sync()

    def run(fn):
        return timing.per_call_back_to_back(fn, sync, opts.min_time, opts.repeats).seconds

    rows = []
    cases = [
        ("add bfloat16, numcu arrays", lambda: numcu.add(nx, ny, out=nz), 6 * N),
        ("add bfloat16, numcu on torch tensors", lambda: numcu.add(x, y, out=z), 6 * N),
        ("add bfloat16, torch.add", lambda: torch.add(x, y, out=z), 6 * N),
        ("add float32, numcu arrays", lambda: numcu.add(f32, f32_y, out=f32_out), 12 * N),
        ("sum bfloat16, numcu array", lambda: numcu.sum(nx), 2 * N),
        ("sum bfloat16, numcu on a torch tensor", lambda: numcu.sum(x), 2 * N),
        ("sum bfloat16, torch.sum", lambda: torch.sum(x), 2 * N),
        ("sum float32, numcu array", lambda: numcu.sum(f32), 4 * N),
    ]
    for name, (t, a) in cast_src.items():
        nbytes = (t.element_size() + 2) * N
        cases.append(
            (f"cast {name} to bfloat16, numcu", lambda a=a: numcu.astype(a, "bfloat16"), nbytes)
        )
        cases.append((f"cast {name} to bfloat16, torch", lambda t=t: t.to(torch.bfloat16), nbytes))
    report = {}
    for name, fn, nbytes in cases:
        seconds = run(fn)
        bandwidth = timing.gbps(nbytes, seconds)
        report[name] = {"us": seconds * 1e6, "GB/s": bandwidth}
        rows.append([name, timing.cell(seconds * 1e6, ".1f"), timing.cell(bandwidth, ".0f")])
    print(
        timing.format_table(
            ["n = 2^27 (checked: add exact, sum and wide casts within 1 ulp)", "us/call", "GB/s"],
            rows,
        )
    )
    if opts.json:
        timing.write_json(opts.json, {"n": N, "results": report, "skipped": skipped})
    return 0


if __name__ == "__main__":
    sys.exit(main())
