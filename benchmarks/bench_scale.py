"""The same Dask work on 1, 2, ... GPUs: numcu-backed Dask beside CuPy-backed Dask.

One Dask worker process per GPU, pinned to it with CUDA_VISIBLE_DEVICES (as dask-cuda's
LocalCUDACluster does), one thread each. On each cluster, for each library (numcu, cupy):

- ``make``: a float32 array of --gib GiB (the same on every GPU count: the speed-up is that of
  the same work) in chunks of --chunk-mib MiB, each chunk made on its worker's GPU (an
  ``arange`` in float64, scaled and rounded to float32, so the data is not constant), persisted.
- ``chain``: ``(x * 1.5 + 0.25) * x`` (three elementwise operations) persisted, one new array.
- ``sum``: ``x.sum()`` computed to the client (a tree reduction; partial sums move between
  workers through distributed's serialization).
- ``tiny``: the chain and the sum on an array of 64 chunks of 2^10 elements: Dask's per-chunk
  overhead with each library's chunks.

Each timing is the best of --repeat runs after one warm-up, and ends when the workers' GPUs
have finished the work queued on them (Dask's tasks end when their kernels are queued);
throughput counts bytes read plus written (make 4 B per element, chain 8, sum 4). Speed-up is
the one-GPU time over the N-GPU time of the same library and work. The sums are checked against
the closed form. Usage::

    python benchmarks/bench_scale.py                    # 1 GPU and all GPUs, 4 GiB
    python benchmarks/bench_scale.py --gpus 1 2 --gib 32  # the issue's 2 x 16 GiB
    python benchmarks/bench_scale.py --json scale.json

The tables are printed last because only the tail of the output may be kept.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import uuid
import warnings

import numpy as np


def make_chunk(library, n, block_info=None):
    """Chunk `block_info`'s of `n` float32 elements, made on this worker's GPU."""
    start = block_info[None]["array-location"][0][0]
    if library == "numcu":
        import numcu as xp
    else:
        import cupy as xp
    # In float64, then rounded. A float32 arange steps by float32(start + 1) - float32(start)
    # (NumPy's rule, which numcu follows), which past 2^24 is 0 or a whole unit in the last place,
    # not the 1 that the closed-form sum assumes.
    x = xp.arange(start, start + n, dtype=np.float64) * 1e-9
    return x.astype(np.float32)


def meta_of(library):
    if library == "numcu":
        import numcu

        return numcu.empty((0,), np.float32)
    import cupy

    return cupy.empty((0,), np.float32)


def synchronize_gpu(library):
    """On a worker: wait for the work queued on its GPU (tasks finish when their kernels are
    queued, so a timing that ends at Dask's `wait` would leave the GPU's work out)."""
    if library == "numcu":
        import numcu

        numcu.cuda.Device().synchronize()
    else:
        import cupy

        cupy.cuda.Device().synchronize()


def build(da, library, chunks, n_chunks):
    return da.map_blocks(
        make_chunk,
        library,
        chunks,
        chunks=((chunks,) * n_chunks,),
        dtype=np.float32,
        meta=meta_of(library),
        name=f"make-{library}-{uuid.uuid4().hex}",
    )


def same(block):
    return block


def fresh(x):
    """`x` under task keys never used before. Dask keeps results it still holds for keys it has
    seen (a repeat's are often not yet released), so a repeat under the same keys could skip the
    work; the identity step fuses with the work before it."""
    return x.map_blocks(same, dtype=x.dtype, meta=x._meta, name=f"fresh-{uuid.uuid4().hex}")


def chain(x):
    return fresh((x * np.float32(1.5) + np.float32(0.25)) * x)


def expected_sum(total):
    # sum of 1e-9 * k for k < total, in float64; float32 partial sums are within 1e-3 of it.
    return 1e-9 * (total - 1) * total / 2


def best_of(repeat, fn):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def cluster_on(gpus):
    from distributed import Nanny, Scheduler, SpecCluster

    workers = {
        f"gpu{i}": {
            "cls": Nanny,
            "options": {
                "nthreads": 1,
                # The chunks live in GPU memory: a host-memory limit (a share of the machine's
                # RAM by default) would count them against it and spill them to disk.
                "memory_limit": 0,
                "env": {"CUDA_VISIBLE_DEVICES": str(i), "DASK_LOGGING__DISTRIBUTED": "error"},
            },
        }
        for i in gpus
    }
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=40)


def measure(client, da, library, n_gpus, gib, chunk_mib, repeat):
    from distributed import wait

    chunk = chunk_mib * (1 << 20) // 4
    n_chunks = max(1, int(gib * (1 << 30)) // (chunk * 4))
    total = chunk * n_chunks
    rows = []

    x = None

    def finished(persisted):
        wait(persisted)
        client.run(synchronize_gpu, library)

    def make():
        nonlocal x
        x = None
        x = build(da, library, chunk, n_chunks).persist()
        finished(x)

    rows.append(("make", best_of(1, make), total * 4))

    def run_chain():
        y = chain(x).persist()
        finished(y)
        del y

    rows.append(("chain", best_of(repeat, run_chain), total * 8))

    result = {}

    def run_sum():
        result["sum"] = float(fresh(x).sum(dtype=np.float32).compute())

    rows.append(("sum", best_of(repeat, run_sum), total * 4))
    want = expected_sum(total)
    if abs(result["sum"] - want) > 1e-3 * abs(want):
        raise AssertionError(f"{library} sum on {n_gpus} GPU(s): {result['sum']} != {want}")
    x = None

    tiny = build(da, library, 1 << 10, 64).persist()
    finished(tiny)

    def run_tiny():
        finished(chain(tiny).persist())
        float(fresh(tiny).sum(dtype=np.float32).compute())

    rows.append(("tiny", best_of(repeat, run_tiny), 0))
    return [(library, n_gpus, name, seconds, nbytes, total) for name, seconds, nbytes in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, nargs="*", help="GPU counts (default: 1 and all)")
    parser.add_argument("--gib", type=float, default=4.0, help="GiB of input (all GPUs)")
    parser.add_argument("--chunk-mib", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--libraries", nargs="*", default=["numcu", "cupy"])
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()

    warnings.simplefilter("ignore")
    logging.getLogger("distributed").setLevel(logging.ERROR)
    import dask
    import dask.array as da
    from distributed import Client

    import numcu

    available = numcu.cuda.device_count()
    if available == 0:
        sys.exit("bench_scale: no CUDA device")
    counts = sorted(set(args.gpus or [1, available]))
    if max(counts) > available:
        sys.exit(f"bench_scale: {max(counts)} GPUs asked for, {available} present")
    libraries = []
    for lib in args.libraries:
        try:
            __import__(lib)
            libraries.append(lib)
        except ImportError:
            print(f"bench_scale: {lib} is not importable: left out")
    names = [numcu.cuda.Device(i).name for i in range(max(counts))]
    print(f"devices: {', '.join(f'{i}: {n}' for i, n in enumerate(names))}")
    print(f"dask {dask.__version__}, numcu {numcu.__version__}")

    rows = []
    for n in counts:
        with cluster_on(range(n)) as cluster, Client(cluster) as client:
            client.wait_for_workers(n)
            for lib in libraries:
                rows.extend(measure(client, da, lib, n, args.gib, args.chunk_mib, args.repeat))
                print(f"done: {lib} on {n} GPU(s)", flush=True)

    one = {(lib, name): s for lib, n, name, s, _, _ in rows if n == min(counts)}
    print()
    print(
        f"{'library':8} {'gpus':>4} {'work':6} {'elements':>12} {'seconds':>9} {'GB/s':>8} "
        f"{'speed-up':>8}"
    )
    for lib, n, name, seconds, nbytes, total in rows:
        rate = f"{nbytes / seconds / 1e9:8.1f}" if nbytes else f"{'-':>8}"
        speedup = one[(lib, name)] / seconds
        elements = total if name != "tiny" else 64 << 10
        print(f"{lib:8} {n:>4} {name:6} {elements:>12} {seconds:>9.4f} {rate} {speedup:>8.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "devices": names,
                    "rows": [
                        dict(zip(("library", "gpus", "work", "seconds", "bytes", "elements"), r))
                        for r in rows
                    ],
                },
                f,
                indent=1,
            )


if __name__ == "__main__":
    main()
