"""`cookingbot.compare` is the command's JSON. The statistics themselves are checked against
numpy and scipy by scripts/check_statistics.py (tests/python/test_statistics.py)."""

import json
import subprocess

import pytest


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
    assert same["p_paired_bootstrap"] == same["p_randomization"] == 1.0
    assert same["randomization"] == "exact, 2^0 assignments"


def test_the_python_compare_refuses_a_misspelt_metric(benchmark):
    import cookingbot

    gold = benchmark / "data" / "gold-standard-solutions" / "meaning-only"
    with pytest.raises(ValueError, match="did you mean `goal-condition-success`"):
        cookingbot.compare(gold, gold, metrics=["goal-condition-sucess"], benchmark=benchmark)
