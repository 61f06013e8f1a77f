"""The figures of docs/scale.md: `cookingbot.ray.score` over N samples with 1 and 2 actors on a
local Ray cluster, against the command line on the same files.

    nice -n 10 python scripts/ray_scale.py --samples 10000 --cpus 2

Samples are made from the benchmark's gold networks ($COOKINGBOT_BENCHMARK) with the mistakes
tests/python/test_ray.py makes (`_variant`), written to a temporary folder that is removed
after; nothing of the benchmark is kept.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--samples", type=int, default=10000)
    p.add_argument("--cpus", type=int, default=2)
    p.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    p.add_argument("--batch-size", type=int, default=64)
    args = p.parse_args()

    import ray

    import cookingbot.ray
    from test_ray import _variant

    benchmark = Path(os.environ["COOKINGBOT_BENCHMARK"])
    gold = sorted((benchmark / "data" / "gold-standard-solutions" / "meaning-only").glob("*.solution"))
    folder = Path(tempfile.mkdtemp(prefix="cookingbot-scale-"))
    try:
        for k in range(args.samples):
            g = gold[k % len(gold)]
            text = g.read_text() if k < len(gold) else _variant(g.read_text(), k)
            (folder / f"{k:05}.solution").write_text(text)
        command = Path(sys.executable).parent / "cookingbot-evaluator"
        start = time.perf_counter()
        # Exit 1 when files are refused, as some variants are.
        run = subprocess.run([str(command), "--input", str(folder), "-o", str(folder / "cli.csv")],
                             capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(run.stderr)
        print(f"command line: {args.samples} samples in {time.perf_counter() - start:.1f} s")
        expected = (folder / "cli.csv").read_text()

        start = time.perf_counter()
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
        print(f"ray.init: {time.perf_counter() - start:.1f} s")
        names = sorted(str(f) for f in folder.glob("*.solution"))
        rows = [{"path": n, "network": Path(n).read_text()} for n in names]
        for actors in args.actors:
            ds = ray.data.from_items(rows)
            start = time.perf_counter()
            scored = cookingbot.ray.score(
                ds, metrics=cookingbot.ray.COMMAND_LINE_METRICS, concurrency=actors,
                batch_size=args.batch_size,
            ).take_all()
            took = time.perf_counter() - start
            start = time.perf_counter()
            same = cookingbot.ray.to_csv(scored, files=names) == expected
            csv = time.perf_counter() - start
            print(f"{actors} actor(s): {args.samples} samples in {took:.1f} s "
                  f"({args.samples / took:.0f}/s), to_csv {csv:.1f} s, "
                  f"CSV equal to the command line's: {same}")
        ray.shutdown()
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
