"""The harness's table over finished episodes: per recipe and overall, the dish approximation
score, goal-condition success, Smatch, executed, pass@k and pass^k, steps, tokens and wall
time. Overall means carry the 95 % bootstrap interval `compare` draws (the library's own
statistics, ``_native.corpus_interval``: a recipe without an execution scores 0, and a recipe
sampled several times scores the mean of its samples)."""

from __future__ import annotations

import csv
import io
import json
import struct
from math import comb
from typing import Optional

from .. import _native

#: A sample passes when its dish approximation score is at least this (as `benchmark`).
PASS_THRESHOLD = 0.9
#: `compare`'s defaults.
BOOTSTRAP, SEED = 1000, 12345

METRICS = (
    ("dish", "dish-approximation-score"),
    ("goal-condition success", "goal-condition-success"),
    ("Smatch", "smatch-score"),
)


def pass_at(n: int, c: int, k: int) -> float:
    """pass@k over n samples of which c pass: that at least one of k drawn passes."""
    return 1.0 - comb(n - c, k) / comb(n, k) if n >= k else float(c > 0)


def pass_hat(n: int, c: int, k: int) -> float:
    """pass^k (τ-bench) over n samples of which c pass: that all of k drawn pass."""
    return comb(c, k) / comb(n, k) if n >= k else float(c == n and n > 0)


def exact(x: Optional[float]) -> Optional[float]:
    """A score as the library holds it: the reports print single floats by their shortest
    decimals, and `compare` averages the single float itself, which this gives back."""
    return None if x is None else struct.unpack("f", struct.pack("f", x))[0]


def recipe_value(values: list[Optional[float]]) -> Optional[float]:
    """A recipe's score over its samples, `compare`'s rule: None when no sample has a value,
    else the mean with a None counted as 0."""
    if all(v is None for v in values):
        return None
    return sum(v or 0.0 for v in values) / len(values)


def interval(values: list[Optional[float]]) -> dict:
    return json.loads(_native.corpus_interval(values, BOOTSTRAP, SEED))


def rows(results: list[dict], k: int) -> tuple[list[dict], dict]:
    """Per-recipe rows (in first-seen order) and the overall row, from episode results."""
    recipes: dict[tuple[str, str], list[dict]] = {}
    for r in results:
        recipes.setdefault((r["benchmark"], r["recipe"]), []).append(r)
    table = []
    for (benchmark, recipe), samples in recipes.items():
        n = len(samples)
        passed = sum((s["dish-approximation-score"] or 0.0) >= PASS_THRESHOLD for s in samples)
        row = {"recipe": recipe, "benchmark": benchmark, "samples": n}
        for _, key in METRICS:
            row[key] = recipe_value([exact(s[key]) for s in samples])
        row["executed"] = sum(s["dish-approximation-score"] is not None for s in samples)
        row["pass@k"] = pass_at(n, passed, k)
        row["pass^k"] = pass_hat(n, passed, k)
        for key in ("steps", "tokens", "wall"):
            row[key] = sum(s[key] for s in samples) / n
        table.append(row)
    overall: dict = {"recipes": len(table), "samples": sum(r["samples"] for r in table)}
    for _, key in METRICS:
        overall[key] = interval([r[key] for r in table])
    for key in ("pass@k", "pass^k"):
        overall[key] = interval([r[key] for r in table])
    overall["executed"] = sum(r["executed"] for r in table)
    for key in ("steps", "tokens", "wall"):
        overall[key] = sum(r[key] * r["samples"] for r in table) / max(overall["samples"], 1)
    return table, overall


def cell(x: Optional[float]) -> str:
    return "NIL" if x is None else f"{x:.2f}"


def mean_cell(m: dict) -> str:
    return f"{m['mean']:.3f} [{m['ci'][0]:.3f}, {m['ci'][1]:.3f}]"


HEADER = [
    "recipe", "benchmark", "samples", "dish", "goal-condition success", "Smatch",
    "executed", "pass@k", "pass^k", "steps", "tokens", "wall s",
]


def markdown(table: list[dict], overall: dict, k: int, title: str) -> str:
    lines = [
        f"# {title}",
        "",
        f"k = {k}; a sample passes at dish ≥ {PASS_THRESHOLD}; overall: mean over recipes "
        f"[95 % bootstrap interval, {BOOTSTRAP} resamples, seed {SEED}, as `compare`], a recipe "
        "without an execution scoring 0; steps, tokens and wall time per episode.",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|---|---|" + "---:|" * (len(HEADER) - 2),
    ]
    for r in table:
        cells = [r["recipe"], r["benchmark"], str(r["samples"])]
        cells += [cell(r[key]) for _, key in METRICS]
        cells += [f"{r['executed']}/{r['samples']}", f"{r['pass@k']:.2f}", f"{r['pass^k']:.2f}"]
        cells += [f"{r['steps']:.1f}", f"{r['tokens']:.0f}", f"{r['wall']:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    o = overall
    cells = ["**overall**", f"{o['recipes']} recipes", str(o["samples"])]
    cells += [mean_cell(o[key]) for _, key in METRICS]
    cells += [f"{o['executed']}/{o['samples']}", mean_cell(o["pass@k"]), mean_cell(o["pass^k"])]
    cells += [f"{o['steps']:.1f}", f"{o['tokens']:.0f}", f"{o['wall']:.1f}"]
    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def csv_text(table: list[dict], overall: dict) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    keys = [key for _, key in METRICS]
    w.writerow(["recipe", "benchmark", "samples", *keys, "executed", "pass@k", "pass^k",
                "steps", "tokens", "wall_s"])
    for r in table:
        w.writerow([r["recipe"], r["benchmark"], r["samples"],
                    *["NIL" if r[key] is None else f"{r[key]:.4f}" for key in keys],
                    r["executed"], f"{r['pass@k']:.4f}", f"{r['pass^k']:.4f}",
                    f"{r['steps']:.2f}", f"{r['tokens']:.0f}", f"{r['wall']:.2f}"])
    o = overall
    means = [f"{o[key]['mean']:.4f}" for key in (*keys, "pass@k", "pass^k")]
    w.writerow(["overall", "", o["samples"], *means[:3], o["executed"], *means[3:],
                f"{o['steps']:.2f}", f"{o['tokens']:.0f}", f"{o['wall']:.2f}"])
    w.writerow(["overall 95% CI low", "", "", *[f"{o[key]['ci'][0]:.4f}" for key in keys], "",
                *[f"{o[key]['ci'][0]:.4f}" for key in ("pass@k", "pass^k")], "", "", ""])
    w.writerow(["overall 95% CI high", "", "", *[f"{o[key]['ci'][1]:.4f}" for key in keys], "",
                *[f"{o[key]['ci'][1]:.4f}" for key in ("pass@k", "pass^k")], "", "", ""])
    return out.getvalue()
