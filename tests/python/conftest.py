"""Shared fixtures: the benchmark data and the reference's values, located as the Rust tests
locate them ($COOKINGBOT_BENCHMARK, else ../shared/benchmark beside the clone)."""

import csv
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The tool of each job of the table, as the tool server lists it (`test_jobs.py` asks each,
# `test_mcp.py` checks the list).
JOB_TOOLS = {
    "check": "check_network", "simulate": "simulate_network", "score": "score_network",
    "score_each": "score_networks", "smatch": "smatch_networks", "diet": "check_diet", "guide": "cooking_guide",
    "substitute": "substitute_ingredient", "suggest": "suggest_substitutes",
    "scale": "scale_recipe", "translate": "translate_recipe",
    "evaluate": "evaluate_solutions", "compare": "compare_systems",
    "replay": "replay_trajectory", "splits": "list_splits", "variation": "variation_gold",
    "language": "list_primitives", "inventory": "kitchen_inventory",
    **{name: name for name in (
        "kitchen_start", "kitchen_act", "kitchen_admissible", "kitchen_primitives",
        "kitchen_look", "kitchen_undo", "kitchen_progress", "kitchen_finish",
        "kitchen_opening", "kitchen_reset", "kitchen_network", "kitchen_gold", "kitchen_fork",
    )},
}

# The jobs of the table the tool server does not serve: the hint reveals the gold to an agent
# being scored. The command line's `job` and Python answer them.
WITHHELD_JOBS = ("kitchen_hint",)


def benchmark_dir() -> Path:
    env = os.environ.get("COOKINGBOT_BENCHMARK")
    path = Path(env) if env else ROOT.parent / "shared" / "benchmark"
    if not (path / "data").is_dir():
        pytest.fail(f"benchmark data not found at {path} (set COOKINGBOT_BENCHMARK)")
    return path.resolve()


def reference_rows(profile: str, name: str) -> list[dict]:
    """The reference's rows of one TSV, with `solution` made absolute."""
    folder = benchmark_dir().parent / "reference" / profile
    with open(folder / name, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for row in rows:
        row["solution"] = (folder / row["solution"]).resolve()
    return rows


@pytest.fixture(scope="session")
def benchmark() -> Path:
    return benchmark_dir()


@pytest.fixture(scope="session")
def command() -> str:
    """The installed `cookingbot-evaluator` command (the wheel's entry point)."""
    beside = Path(sys.executable).parent / "cookingbot-evaluator"
    found = os.environ.get("COOKINGBOT_EVALUATOR") or (
        str(beside) if beside.is_file() else shutil.which("cookingbot-evaluator")
    )
    if not found:
        pytest.fail("cookingbot-evaluator is not installed (pip install .)")
    return found
