#!/usr/bin/env python3
"""Check every statistic `cookingbot-evaluator compare` prints against numpy, and scipy where
it is installed (docs/compare.md, "How the statistics were checked").

    scripts/check_statistics.py --evaluator PATH [--benchmark DIR] BASELINE SYSTEM...

runs `compare --format json --dump-resamples` on the systems and recomputes, per metric and
system:

- the mean, the 95 % interval and the paired difference with its interval, from the dumped
  resample indices and per-recipe scores (numpy; must agree to 1e-12);
- the paired bootstrap p-value, (1 + #{b : |Δ*_b − Δ| ≥ |Δ|}) / (N + 1), from the same
  resamples (to 1e-12), and from an independent numpy bootstrap of 20,000 resamples (within
  4 standard errors), and, where the recipes are few enough (n^n ≤ 10^6), from the exact
  bootstrap distribution over all n^n resamples (within 4 standard errors);
- the paired randomization p-value: with at most 20 differing recipes, the exact share of the
  2^n sign assignments (numpy enumeration, to 1e-12; scipy.stats.permutation_test, exact,
  to 1e-9); beyond, a replay of the tool's seeded SplitMix64 draws (to 1e-12) and an
  independent numpy randomization of 100,000 trials (within 4 standard errors);
- wins, ties and losses, and each leaderboard p against the best;
- with scipy, the intervals against scipy.stats.bootstrap (percentile method, 9,999
  resamples): an end may move by a step of the resampled means' grid, so within 1.5/n.

Ties are decided as the tool decides them: a statistic within 1e-9 × (largest per-recipe
difference) × (terms summed) of the observed one is at least as extreme. Prints one line per
check and exits 1 when any disagrees; without numpy it prints why and exits 0 having checked
nothing.
"""

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import numpy as np
except ImportError:
    print("not run: numpy is not installed (pip install numpy)")
    sys.exit(0)
try:
    from scipy import stats
except ImportError:
    stats = None

MASK = (1 << 64) - 1
EXACT_UP_TO = 20
TIE = 1e-9


class SplitMix64:
    """The tool's generator (src/random.rs), bit for bit."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def percentile_95(values):
    ordered = np.sort(values)
    cut = len(ordered) // 40
    return ordered[cut], ordered[len(ordered) - cut - 1]


def at_least(statistics, observed, slack):
    return np.abs(statistics) >= abs(observed) - slack


def bootstrap_p(diffs, indices):
    observed = diffs.mean()
    sampled = diffs[indices].mean(axis=1)
    slack = TIE * np.abs(diffs).max(initial=0.0)
    count = int(np.sum(at_least(sampled - observed, observed, slack)))
    return (count + 1) / (len(sampled) + 1)


def exact_bootstrap_p(diffs):
    """The share of all n^n equally likely resamples at least as extreme (no +1 rule)."""
    n = len(diffs)
    codes = np.arange(n**n)
    indices = np.stack([(codes // n**j) % n for j in range(n)], axis=1)
    observed = diffs.mean()
    slack = TIE * np.abs(diffs).max(initial=0.0)
    return float(np.mean(at_least(diffs[indices].mean(axis=1) - observed, observed, slack)))


def exact_randomization_p(differing):
    n = len(differing)
    observed = differing.sum()
    slack = TIE * np.abs(differing).max(initial=0.0) * n
    bits = np.arange(n)
    count = 0
    for start in range(0, 1 << n, 1 << 16):
        masks = np.arange(start, min(start + (1 << 16), 1 << n))
        signs = 1 - 2 * ((masks[:, None] >> bits) & 1)
        count += int(np.sum(at_least(signs @ differing, observed, slack)))
    return count / (1 << n)


def replayed_randomization_p(differing, trials, seed):
    """The tool's sampled test, replaying its draws: per trial one u64 per 64 recipes, bit i
    of it flipping recipe i."""
    rng = SplitMix64(seed)
    n = len(differing)
    observed = differing.sum()
    slack = TIE * np.abs(differing).max(initial=0.0) * n
    words = (n + 63) // 64
    bits = np.arange(n)
    signs = np.empty((trials, n))
    for t in range(trials):
        draws = [rng.next_u64() for _ in range(words)]
        word = np.array([draws[i // 64] for i in range(n)], dtype=np.uint64)
        signs[t] = 1 - 2 * ((word >> (bits % 64).astype(np.uint64)) & np.uint64(1)).astype(float)
    count = int(np.sum(at_least(signs @ differing, observed, slack)))
    return (count + 1) / (trials + 1)


def numpy_randomization_p(differing, trials, rng):
    signs = rng.choice([-1.0, 1.0], size=(trials, len(differing)))
    observed = differing.sum()
    slack = TIE * np.abs(differing).max(initial=0.0) * len(differing)
    return (int(np.sum(at_least(signs @ differing, observed, slack))) + 1) / (trials + 1)


def mc_error(p, *draws):
    """Four standard errors of the difference of shares estimated from `draws` draws each,
    plus the +1 rule's shift."""
    variance = sum(p * (1 - p) / d for d in draws)
    return 4 * math.sqrt(variance) + sum(2 / d for d in draws)


class Checks:
    def __init__(self):
        self.failed = 0
        self.count = 0

    def close(self, label, tool, ours, tolerance):
        self.count += 1
        ok = abs(tool - ours) <= tolerance
        self.failed += not ok
        print(f"{'ok ' if ok else 'BAD'} {label}: tool {tool:.6f}, check {ours:.6f}, "
              f"|difference| {abs(tool - ours):.2e} <= {tolerance:.1e}")

    def equal(self, label, tool, ours):
        self.count += 1
        ok = tool == ours
        self.failed += not ok
        print(f"{'ok ' if ok else 'BAD'} {label}: tool {tool}, check {ours}")


def scipy_percentile_interval(values, rng):
    """scipy.stats.bootstrap's percentile interval (its generator argument was renamed)."""
    try:
        result = stats.bootstrap((values,), np.mean, method="percentile", rng=rng)
    except TypeError:
        result = stats.bootstrap((values,), np.mean, method="percentile", random_state=rng)
    return result.confidence_interval


def randomization_checks(checks, label, tool_p, method, differing, trials, seed, rng):
    n = len(differing)
    if n <= EXACT_UP_TO:
        checks.equal(f"{label} method", method, f"exact, 2^{n} assignments")
        checks.close(f"{label} randomization p (numpy enumeration)", tool_p,
                     exact_randomization_p(differing), 1e-12)
        if stats is not None and n >= 2:  # scipy needs two observations
            result = stats.permutation_test(
                (differing, np.zeros(n)), lambda x, y, axis: np.mean(x - y, axis=axis),
                permutation_type="samples", n_resamples=np.inf, vectorized=True,
                alternative="two-sided", batch=1 << 16)
            checks.close(f"{label} randomization p (scipy, exact)", tool_p,
                         float(result.pvalue), 1e-9)
    else:
        checks.equal(f"{label} method", method, f"sampled, {trials} trials")
        checks.close(f"{label} randomization p (SplitMix64 replay)", tool_p,
                     replayed_randomization_p(differing, trials, seed), 1e-12)
        independent = numpy_randomization_p(differing, 100_000, rng)
        checks.close(f"{label} randomization p (numpy, 100,000 trials)", tool_p, independent,
                     mc_error(independent, trials, 100_000))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evaluator", default="cookingbot-evaluator")
    parser.add_argument("--benchmark", help="--benchmark for the evaluator (a folder or demo)")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=10000)
    parser.add_argument("systems", nargs="+", help="the baseline, then the systems")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    checks = Checks()
    with tempfile.TemporaryDirectory() as scratch:
        dump = Path(scratch) / "resamples.json"
        command = [args.evaluator]
        if args.benchmark:
            command += ["--benchmark", args.benchmark]
        command += ["compare", *args.systems, "--format", "json", "--offline",
                    "--seed", str(args.seed), "--bootstrap", str(args.bootstrap),
                    "--trials", str(args.trials), "--dump-resamples", str(dump)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"BAD {' '.join(command)} exited {run.returncode}:\n{run.stderr}")
            return 1
        report = json.loads(run.stdout)
        dumped = json.loads(dump.read_text())
    indices = np.array(dumped["resamples"])
    print(f"{len(args.systems)} systems, {indices.shape[1]} recipes, {indices.shape[0]} "
          f"resamples, seed {args.seed}; scipy {'not installed' if stats is None else stats.__name__}")
    for metric, scored in zip(report["metrics"], dumped["metrics"]):
        name = metric["metric"]
        scores = [np.array(s, dtype=float) for s in scored["scores"]]
        baseline = scores[0]
        n = len(baseline)
        for k, (row, values) in enumerate(zip(metric["systems"], scores)):
            label = f"{name} {Path(row['system']).name}"
            checks.close(f"{label} mean", row["mean"], values.mean(), 1e-12)
            low, high = percentile_95(values[indices].mean(axis=1))
            checks.close(f"{label} CI low", row["ci"][0], low, 1e-12)
            checks.close(f"{label} CI high", row["ci"][1], high, 1e-12)
            if stats is not None:
                ci = scipy_percentile_interval(values, rng)
                checks.close(f"{label} CI low (scipy)", row["ci"][0], ci.low, 1.5 / n)
                checks.close(f"{label} CI high (scipy)", row["ci"][1], ci.high, 1.5 / n)
            if k == 0:
                continue
            diffs = values - baseline
            checks.close(f"{label} difference", row["difference"], diffs.mean(), 1e-12)
            low, high = percentile_95(diffs[indices].mean(axis=1))
            checks.close(f"{label} difference CI low", row["difference_ci"][0], low, 1e-12)
            checks.close(f"{label} difference CI high", row["difference_ci"][1], high, 1e-12)
            p = row["p_paired_bootstrap"]
            checks.close(f"{label} bootstrap p (same resamples)", p, bootstrap_p(diffs, indices),
                         1e-12)
            independent = bootstrap_p(diffs, rng.integers(0, n, size=(20_000, n)))
            checks.close(f"{label} bootstrap p (numpy, 20,000 resamples)", p, independent,
                         mc_error(independent, len(indices), 20_000))
            if n**n <= 10**6:
                exact = exact_bootstrap_p(diffs)
                checks.close(f"{label} bootstrap p (all {n}^{n} resamples)", p, exact,
                             mc_error(exact, len(indices)))
            randomization_checks(checks, label, row["p_randomization"], row["randomization"],
                                 diffs[diffs != 0], args.trials, args.seed, rng)
            wins = (int(np.sum(diffs > 0)), int(np.sum(diffs == 0)), int(np.sum(diffs < 0)))
            checks.equal(f"{label} wins/ties/losses", (row["wins"], row["ties"], row["losses"]),
                         wins)
        best = metric["leaderboard"][0]["system"]
        best_scores = scores[[s["system"] for s in metric["systems"]].index(best)]
        for entry in metric["leaderboard"][1:]:
            k = [s["system"] for s in metric["systems"]].index(entry["system"])
            diffs = scores[k] - best_scores
            randomization_checks(checks, f"{name} {Path(entry['system']).name} against the best",
                                 entry["p_against_best"], entry["randomization"],
                                 diffs[diffs != 0], args.trials, args.seed, rng)
    print(f"{checks.count - checks.failed} of {checks.count} checks agree")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
