"""An independent check of `compare`'s paired bootstrap: numpy recomputes the difference, its
interval and the p-value from the resample indices and scores the tool dumps
(`--dump-resamples`), and must agree to 1e-12."""

import json
import shutil
import subprocess

import numpy as np
import pytest

TOLERANCE = 1e-12


def percentile_95(values):
    """The order statistics 1/40 of the way in from either end, as docs/compare.md says."""
    ordered = np.sort(values)
    cut = len(ordered) // 40
    return ordered[cut], ordered[len(ordered) - cut - 1]


def paired_bootstrap(system, baseline, indices):
    """The difference, its 95 % interval and the null-centred two-sided p-value."""
    diffs = system - baseline
    observed = diffs.mean()
    sampled = diffs[indices].mean(axis=1)
    centred = np.abs(sampled - sampled.mean())
    slack = 1e-12 * (1 + abs(observed))
    extreme = int(np.sum(centred >= abs(observed) - slack))
    return observed, percentile_95(sampled), (extreme + 1) / (len(sampled) + 1)


def test_paired_bootstrap_agrees_with_numpy(command, benchmark, tmp_path):
    gold = sorted((benchmark / "data" / "gold-standard-solutions" / "meaning-only").glob("*.solution"))
    # Two systems that leave out different recipes, so they win, tie and lose.
    systems = []
    for name, step in (("baseline", 3), ("system", 4)):
        folder = tmp_path / name
        folder.mkdir()
        for i, path in enumerate(gold):
            if i % step:
                shutil.copy(path, folder / path.name)
        systems.append(str(folder))
    dump = tmp_path / "resamples.json"
    run = subprocess.run(
        [command, "compare", *systems, "--benchmark", str(benchmark), "--offline",
         "--format", "json", "--dump-resamples", str(dump), "--seed", "3"],
        capture_output=True, text=True, check=True,
    )
    report = json.loads(run.stdout)
    dumped = json.loads(dump.read_text())
    indices = np.array(dumped["resamples"])
    assert indices.shape == (1000, 30)
    assert dumped["systems"] == systems
    assert [m["metric"] for m in report["metrics"]] == [m["metric"] for m in dumped["metrics"]]
    for metric, scores in zip(report["metrics"], dumped["metrics"]):
        baseline, system = (np.array(s) for s in scores["scores"])
        for row, values in zip(metric["systems"], (baseline, system)):
            assert abs(row["mean"] - values.mean()) <= TOLERANCE
            low, high = percentile_95(values[indices].mean(axis=1))
            assert abs(row["ci"][0] - low) <= TOLERANCE and abs(row["ci"][1] - high) <= TOLERANCE
        difference, (low, high), p = paired_bootstrap(system, baseline, indices)
        row = metric["systems"][1]
        assert row["difference"] != 0
        assert abs(row["difference"] - difference) <= TOLERANCE
        assert abs(row["difference_ci"][0] - low) <= TOLERANCE
        assert abs(row["difference_ci"][1] - high) <= TOLERANCE
        assert abs(row["p_paired_bootstrap"] - p) <= TOLERANCE


def test_the_python_compare_is_the_command_s_json(command, benchmark, tmp_path):
    import cookingbot

    gold = benchmark / "data" / "gold-standard-solutions" / "meaning-only"
    run = subprocess.run(
        [command, "compare", str(gold), str(gold), "--benchmark", str(benchmark), "--offline",
         "--format", "json", "--seed", "7"],
        capture_output=True, text=True, check=True,
    )
    report = cookingbot.compare(gold, gold, seed=7, benchmark=benchmark)
    assert report == json.loads(run.stdout)
    same = report["metrics"][0]["systems"][1]
    assert (same["difference"], same["difference_ci"]) == (0.0, [0.0, 0.0])
    assert same["p_paired_bootstrap"] == same["p_approximate_randomization"] == 1.0


def test_the_python_compare_refuses_a_misspelt_metric(benchmark):
    import cookingbot

    gold = benchmark / "data" / "gold-standard-solutions" / "meaning-only"
    with pytest.raises(ValueError, match="did you mean `goal-condition-success`"):
        cookingbot.compare(gold, gold, metrics=["goal-condition-sucess"], benchmark=benchmark)
