"""docs/compare.md's check of every statistic `compare` prints against numpy and scipy:
scripts/check_statistics.py on three pairs of systems. Skipped, saying why, without numpy;
without scipy the script says so and checks with numpy alone."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_statistics.py"


def check(command, *args):
    pytest.importorskip("numpy", reason="numpy is not installed: the statistics check needs it")
    run = subprocess.run([sys.executable, str(SCRIPT), "--evaluator", command, *args],
                         capture_output=True, text=True)
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    last = run.stdout.splitlines()[-1]
    agree, _, total = last.split()[:3]
    assert agree == total and int(total) > 0, last


def gold_files(benchmark):
    return sorted((benchmark / "data" / "gold-standard-solutions" / "meaning-only").glob("*.solution"))


def test_the_demo_pair_against_numpy_and_scipy(command):
    """One differing recipe of three: the bootstrap p against all 27 resamples (5/9)."""
    check(command, "--benchmark", "demo", "--bootstrap", "10000",
          str(ROOT / "examples" / "demo-perfect.solution"),
          str(ROOT / "examples" / "demo-mistake.solution"))


def test_few_differing_recipes_against_numpy_and_scipy(command, benchmark, tmp_path):
    """Leaving out different gold networks, one of them shortened by its last line: fewer than
    20 recipes differ, so the randomization test is exact."""
    gold = gold_files(benchmark)
    systems = []
    for name, left_out in (("baseline", range(0, 6)), ("system", range(20, 24))):
        folder = tmp_path / name
        folder.mkdir()
        for i, path in enumerate(gold):
            if i not in left_out:
                (folder / path.name).write_text(path.read_text())
        systems.append(str(folder))
    shortened = gold[10].read_text().rstrip("\n").rsplit("\n", 1)[0] + "\n"
    (tmp_path / "system" / gold[10].name).write_text(shortened)
    check(command, "--benchmark", str(benchmark), "--seed", "3", *systems)


def test_many_differing_recipes_against_numpy_and_scipy(command, benchmark, tmp_path):
    """Every gold network headed as the next recipe's: all 30 recipes differ, so the
    randomization test samples, and the script replays its draws."""
    gold = gold_files(benchmark)
    folder = tmp_path / "shifted"
    folder.mkdir()
    for path, other in zip(gold, gold[1:] + gold[:1]):
        body = path.read_text().split("\n", 1)[1]
        header = other.read_text().split("\n", 1)[0]
        (folder / path.name).write_text(f"{header}\n{body}")
    base = gold[0].parent
    check(command, "--benchmark", str(benchmark), "--trials", "2000", str(base), str(folder))
