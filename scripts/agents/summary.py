"""The summary table of docs/baseline-agents.md: one row per run folder of
`python -m cookingbot.agents` (its finished episodes, `episodes.jsonl`), with the overall means
and intervals its own `table.md` gives.

    python scripts/agents/summary.py RUN_DIR... > summary.md
"""

import json
import sys
from pathlib import Path

from cookingbot.agents import table as tables

SPLIT_SIZE = 12


def main() -> int:
    print("| agent | model | recipes | dish | goal-condition success | Smatch | executed "
          "| pass@1 | steps | tokens | wall s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for folder in map(Path, sys.argv[1:]):
        lines = (folder / "episodes.jsonl").read_text().splitlines()
        results = [json.loads(line) for line in lines if line.strip()]
        _, o = tables.rows(results, 1)
        first = results[0]
        print(f"| {first['agent']} | {first['model']} | {o['recipes']}/{SPLIT_SIZE} | "
              f"{tables.mean_cell(o['dish-approximation-score'])} | {tables.mean_cell(o['goal-condition-success'])} | "
              f"{tables.mean_cell(o['smatch-score'])} | {o['executed']}/{o['samples']} | "
              f"{o['pass@k']['mean']:.3f} | {o['steps']:.1f} | {o['tokens']:.0f} | "
              f"{o['wall']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
