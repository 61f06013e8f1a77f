"""Trajectories and forks from Python: a Kitchen, a KitchenEnv and the tool server's sessions
log their calls, and every gold network of both profiles so logged replays identically
(`cookingbot.replay`, the `replay` command); a clone goes on without its parent; a Kitchen
pickles."""

import json
import pickle
import subprocess

import pytest

import cookingbot
from test_mcp import run


def gold_actions(recipe):
    return [line for line in recipe.gold.splitlines()[1:] if line]


@pytest.mark.parametrize("reference", ["2024", "2023"])
def test_every_gold_network_logged_from_a_kitchen_replays_identically(reference, tmp_path):
    for recipe in cookingbot.Benchmark(reference=reference):
        log = tmp_path / f"{recipe.id}.jsonl"
        kitchen = cookingbot.Kitchen(recipe.id, reference=reference, log=log)
        kitchen.reset()
        actions = gold_actions(recipe)
        for line in actions:
            kitchen.step(line)
        kitchen.undo()
        kitchen.step(actions[-1])
        progress = kitchen.progress()
        score = kitchen.finish()
        records = [json.loads(line) for line in log.read_text().splitlines()]
        assert [r["call"] for r in records[1:]] == [
            "reset", *["act"] * len(actions), "undo", "act", "progress", "finish"
        ]
        assert records[0]["recipe"] == recipe.id and records[0]["profile"] == reference
        assert records[-2]["progress"]["goal_share"] == progress.goal_share
        assert records[-1]["score"]["csv"] == score.csv
        replayed = cookingbot.replay(log)
        assert replayed == cookingbot.Replay(True, len(actions) + 5, None), recipe.id


def test_a_gym_episode_logs_and_replays(tmp_path):
    gym = pytest.importorskip("cookingbot.gym")
    recipe = cookingbot.Benchmark()["afghan-biscuits"]
    log = tmp_path / "episode.jsonl"
    env = gym.KitchenEnv(recipe.id, reward_mode="progress", log=log)
    env.reset()
    for line in gold_actions(recipe):
        env.step(line)
    env.step("finish")
    env.reset()
    calls = [json.loads(line)["call"] for line in log.read_text().splitlines()[1:]]
    actions = len(gold_actions(recipe))
    assert calls == ["reset", *["act", "progress"] * actions, "finish", "reset"]
    assert cookingbot.replay(log).identical


def test_a_changed_log_names_its_first_difference_and_the_command_exits_1(tmp_path, command):
    log = tmp_path / "run.jsonl"
    kitchen = cookingbot.Kitchen("demo-garden-salad", benchmark="demo", log=log)
    for line in gold_actions(cookingbot.Benchmark(path="demo")["demo-garden-salad"]):
        kitchen.step(line)
    done = subprocess.run([command, "replay", str(log)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (
        0,
        f"identical: {len(log.read_text().splitlines()) - 1} record(s) of {log} replayed, each as logged\n",
    )
    lines = log.read_text().splitlines()
    second = json.loads(lines[2])
    second["time"] = 99
    lines[2] = json.dumps(second)
    log.write_text("\n".join(lines) + "\n")
    replayed = cookingbot.replay(log)
    assert replayed == cookingbot.Replay(
        False, 2, cookingbot._kitchen.Difference(2, 3, "time", 99, second["observation"]["time"])
    )
    done = subprocess.run([command, "replay", str(log)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout == (
        f"different at record 2 ({log}:3), time: the log holds 99, the replay gave "
        f"{json.dumps(second['observation']['time'])}\n"
    )


def test_a_malformed_log_is_a_value_error_and_exit_2_at_its_line(tmp_path, command):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"trajectory": "cookingbot-trajectory", "version": 1\n')
    message = f"{log}:1: column 52: EOF while parsing an object"
    with pytest.raises(ValueError) as raised:
        cookingbot.replay(log)
    assert str(raised.value) == message
    done = subprocess.run([command, "replay", str(log)], capture_output=True, text=True)
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""


def test_a_clone_goes_on_without_its_parent_and_a_kitchen_pickles(tmp_path):
    recipe = cookingbot.Benchmark()["croutons-vinegar-salad"]
    actions = gold_actions(recipe)
    half = len(actions) // 2
    log = tmp_path / "parent.jsonl"
    parent = cookingbot.Kitchen(recipe.id, log=log)
    for line in actions[:half]:
        parent.step(line)
    fork = parent.clone()
    pickled = pickle.loads(pickle.dumps(parent))
    assert fork.lines() == pickled.lines() == parent.lines() == actions[:half]
    forked = [fork.step(line).report for line in actions[half:]]
    assert fork.undo() == actions[-1]
    assert parent.lines() == actions[:half]
    assert len(log.read_text().splitlines()) == half + 1
    own = [parent.step(line).report for line in actions[half:]]
    assert own == forked == [pickled.step(line).report for line in actions[half:]]
    assert parent.finish().smatch_score == 1.0
    assert fork.lines() == actions[:-1]


def test_a_kitchen_on_a_model_takes_no_log_and_does_not_pickle(tmp_path):
    model = cookingbot.Model(benchmark="demo")
    with pytest.raises(ValueError, match="a Kitchen on a model takes no"):
        cookingbot.Kitchen("demo-garden-salad", model=model, log=tmp_path / "x.jsonl")
    with pytest.raises(TypeError, match="a Kitchen on a Model does not pickle"):
        pickle.dumps(cookingbot.Kitchen("demo-garden-salad", model=model))


@pytest.mark.parametrize("reference", ["2024", "2023"])
def test_every_gold_network_logged_by_the_tool_server_replays_identically(
    reference, tmp_path, command
):
    recipes = list(cookingbot.Benchmark(reference=reference))

    async def body(session):
        for recipe in recipes:
            log = str(tmp_path / f"{recipe.id}.jsonl")
            start = {"recipe": recipe.id, "profile": reference, "log": log}
            started = await session.call_tool("kitchen_start", start)
            id = started.structured_content["session"]
            for line in gold_actions(recipe):
                await session.call_tool("kitchen_act", {"session": id, "line": line})
            await session.call_tool("kitchen_progress", {"session": id})
            await session.call_tool("kitchen_finish", {"session": id})

    run(command, body)
    for recipe in recipes:
        log = tmp_path / f"{recipe.id}.jsonl"
        replayed = cookingbot.replay(log)
        assert replayed == cookingbot.Replay(True, len(gold_actions(recipe)) + 2, None), recipe.id


def test_the_tool_server_replaces_no_file_with_a_log(tmp_path, command):
    kept = tmp_path / "kept.txt"
    kept.write_text("mine\n")

    async def body(session):
        start = {"recipe": "demo-garden-salad", "benchmark": "demo", "log": str(kept)}
        refused = await session.call_tool("kitchen_start", start)
        assert refused.is_error
        assert refused.structured_content == {
            "error": f"{kept}: cannot write the trajectory log: File exists (os error 17)"
        }
        new = dict(start, log=str(tmp_path / "new.jsonl"))
        assert not (await session.call_tool("kitchen_start", new)).is_error

    run(command, body)
    assert kept.read_text() == "mine\n"
    assert (tmp_path / "new.jsonl").read_text().startswith("{")


def test_play_logs_its_session_and_the_log_replays(tmp_path, command):
    gold = gold_actions(cookingbot.Benchmark(path="demo")["demo-garden-salad"])
    script = "\n".join([*gold[:3], "(fetch ?x ?ks ?kitchen letuce)", ":undo", ":progress", ":finish"])
    log = tmp_path / "play.jsonl"
    done = subprocess.run(
        [command, "play", "demo-garden-salad", "--benchmark", "demo", "--log", str(log),
         "-o", str(tmp_path / "mine.solution")],
        input=script + "\n", capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    calls = [json.loads(line)["call"] for line in log.read_text().splitlines()[1:]]
    assert calls == ["act", "act", "act", "act", "undo", "progress", "finish"]
    assert cookingbot.replay(log) == cookingbot.Replay(True, 7, None)


def test_looks_hints_and_admissible_lines_are_logged_and_replayed(tmp_path):
    log = tmp_path / "looked.jsonl"
    kitchen = cookingbot.Kitchen("demo-garden-salad", benchmark="demo", log=log)
    kitchen.step("(get-kitchen ?kitchen)")
    view = kitchen.look("?kitchen")
    with pytest.raises(ValueError, match="no variable or place `nowhere` in the kitchen"):
        kitchen.look("nowhere")
    hint = kitchen.hint()
    offered = kitchen.admissible(2)
    records = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert [r["call"] for r in records] == ["act", "look", "look", "hint", "admissible"]
    assert (records[1]["name"], records[1]["view"]["text"]) == ("?kitchen", view.text)
    assert records[2]["view"] == {"error": "no variable or place `nowhere` in the kitchen"}
    assert records[3]["hint"]["line"] == hint.line
    assert records[4]["query"] == {"limit": 2, "primitive": None, "using": None}
    assert [c["example"] for c in records[4]["admissible"]] == [c.example for c in offered]
    assert cookingbot.replay(log) == cookingbot.Replay(True, 5, None)


def test_a_variation_logs_its_number_and_replays_on_the_same_variation(tmp_path, command):
    log = tmp_path / "varied.jsonl"
    kitchen = cookingbot.Kitchen("cole-slaw", variation=1, log=log)
    gold = kitchen.variation_gold()
    for line in gold.splitlines()[1:]:
        assert kitchen.step(line).ok, line
    assert kitchen.finish().dish_approximation_score == 1.0
    header = json.loads(log.read_text().splitlines()[0])
    assert (header["recipe"], header["variation"]) == ("cole-slaw", 1)
    actions = len([line for line in gold.splitlines()[1:] if line])
    assert cookingbot.replay(log) == cookingbot.Replay(True, actions + 1, None)
    done = subprocess.run([command, "replay", str(log)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    plain = tmp_path / "official.jsonl"
    official = cookingbot.Kitchen("cole-slaw", log=plain)
    official.step(gold.splitlines()[1])
    assert "variation" not in json.loads(plain.read_text().splitlines()[0])
