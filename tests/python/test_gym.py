"""The kitchen as a gymnasium environment (`cookingbot.gym.KitchenEnv`): gymnasium's own checker,
a gold network played to its score, the step limit, and the message without gymnasium."""

import importlib
import sys

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import cookingbot
from cookingbot.gym import KitchenEnv


def gold_lines(recipe_id):
    lines = cookingbot.Benchmark()[recipe_id].gold.splitlines()[1:]
    return [line for line in lines if line]


def test_gymnasium_checks_the_environment():
    for render_mode in [None, "ansi"]:
        env = gymnasium.make(
            "cookingbot/Kitchen-v0", recipe_id="afghan-biscuits", render_mode=render_mode
        )
        check_env(env.unwrapped, skip_render_check=False)


def test_a_gold_network_played_to_finish_earns_its_dish_score():
    env = gymnasium.make("cookingbot/Kitchen-v0", recipe_id="cole-slaw")
    obs, info = env.reset(seed=0)
    assert obs.startswith("Title: ") and "\nThe kitchen:\n" in obs
    assert env.observation_space.contains(obs)
    for line in gold_lines("cole-slaw"):
        obs, reward, terminated, truncated, info = env.step(line)
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert info["observation"].ok and obs == info["observation"].text
    network = info["network"]
    obs, reward, terminated, truncated, info = env.step("finish")
    expected = cookingbot.evaluate(network)[0].dish_approximation_score
    assert (reward, terminated, truncated) == (expected, True, False)
    assert info["score"].printed[0] == "1.00"
    assert obs == ", ".join(
        f"{name} {cell}"
        for name, cell in zip(["smatch", "goal-condition success", "dish", "time"], info["score"].printed)
    )


def test_undo_look_and_a_refused_line_in_words():
    env = KitchenEnv("afghan-biscuits")
    env.reset()
    env.step("(get-kitchen ?kitchen)")
    obs, reward, *_ = env.step("(fetch-and-proportion ?b ?ks ?kitchen ?bowl buter 100 g)")
    assert reward == 0.0
    assert obs == (
        "the reference refuses a network with this line: `buter` is not a class of the ontology\n"
        "line 3, column 45: error: `buter` is not a class of the ontology (did you mean `butter`, `water`?)"
    )
    obs, *_ = env.step("undo")
    assert obs == "took back: (fetch-and-proportion ?b ?ks ?kitchen ?bowl buter 100 g)"
    obs, *_ = env.step("look ?kitchen")
    assert obs == "?kitchen = the kitchen at 0:00, ready at 0:00"
    obs, *_ = env.step("look ?kitchn")
    assert obs == "no variable or place `?kitchn` in the kitchen (did you mean ?kitchen?)"
    obs, reward, terminated, _, info = env.step("finish")
    assert terminated and reward == info["score"].dish_approximation_score


def test_an_episode_is_truncated_after_max_steps_without_a_score():
    env = KitchenEnv("afghan-biscuits", max_steps=2)
    env.reset()
    assert env.step("(get-kitchen ?kitchen)")[3] is False
    _, reward, terminated, truncated, info = env.step("; a comment")
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert "score" not in info
    with pytest.raises(ValueError, match="max_steps must be at least 1"):
        KitchenEnv("afghan-biscuits", max_steps=0)


def test_without_gymnasium_the_import_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "cookingbot.gym")
    with pytest.raises(ImportError, match="pip install gymnasium"):
        importlib.import_module("cookingbot.gym")
    with pytest.raises(ImportError, match="pip install gymnasium"):
        cookingbot.KitchenEnv  # noqa: B018


def test_progress_rewards_add_up_to_the_goal_share_and_score_does_not_end_the_episode():
    env = KitchenEnv("cole-slaw", reward_mode="progress")
    env.reset()
    rewards = []
    for line in gold_lines("cole-slaw"):
        obs, reward, terminated, truncated, info = env.step(line)
        assert not terminated and reward >= 0.0
        rewards.append(reward)
    assert info["progress"].goal_share == 1.0
    assert sum(rewards) == pytest.approx(1.0)
    obs, reward, terminated, truncated, info = env.step("score")
    assert (reward, terminated, truncated) == (0.0, False, False)
    goals = info["progress"].goals
    assert obs.startswith(f"{goals} of {goals} goals of the recipe reached (100 %); best dish so far: 1.00")
    # Taking an action back takes its goal back.
    obs, reward, *_ = env.step("undo")
    assert reward == pytest.approx(-1.0 / goals)
    obs, reward, terminated, *_ = env.step("finish")
    assert (reward, terminated) == (0.0, True)


def test_score_in_the_final_mode_earns_nothing_and_a_bad_mode_is_refused():
    env = KitchenEnv("cole-slaw")
    env.reset()
    obs, reward, terminated, truncated, info = env.step("score")
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["progress"].goals_reached == 0
    with pytest.raises(ValueError, match="reward_mode 'dense': one of final, progress"):
        KitchenEnv("cole-slaw", reward_mode="dense")
