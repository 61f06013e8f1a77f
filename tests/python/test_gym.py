"""The kitchen as a gymnasium environment (`cookingbot.gym.KitchenEnv`): gymnasium's own checker,
a gold network played to its score, the step limit, and the message without gymnasium."""

import importlib
import sys
from pathlib import Path

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import cookingbot
from cookingbot.gym import KitchenEnv

#: The held-out recipes' benchmark, in the repository.
HELDOUT = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout"


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


def test_the_spaces_print_on_one_line_and_hold_what_the_environment_gives():
    env = KitchenEnv("cole-slaw")
    assert repr(env.action_space) == "ActionLines(max_length=4096)"
    assert repr(env.observation_space) == "Text(max_length=65536)"
    obs, _ = env.reset()
    assert obs in env.observation_space
    assert "a\x00b" not in env.observation_space and "" not in env.observation_space
    assert "x" * 4097 not in env.action_space and 3 not in env.action_space


def test_a_sampled_action_is_an_admissible_line_drawn_by_the_seeded_space():
    env = KitchenEnv("cole-slaw")
    env.reset()
    env.step("(get-kitchen ?kitchen)")
    offered = [c.example for c in env.kitchen.admissible(50)]
    env.action_space.seed(7)
    drawn = [env.action_space.sample() for _ in range(8)]
    assert set(drawn) <= set(offered) and len(set(drawn)) > 1
    env.action_space.seed(7)
    assert [env.action_space.sample() for _ in range(8)] == drawn
    obs, _, _, _, info = env.step(drawn[0])
    assert info["observation"].ok, obs
    with pytest.raises(ValueError, match="sample without a mask"):
        env.action_space.sample(mask=[1])


def test_every_registered_id_makes_an_environment_and_a_vector_of_four():
    from cookingbot.gym import ENV_IDS

    assert list(ENV_IDS) == [
        "cookingbot/Kitchen-v0",
        "cookingbot/Kitchen-train-v0",
        "cookingbot/Kitchen-dev-v0",
        "cookingbot/Kitchen-test-v0",
    ]
    for env_id in ENV_IDS:
        assert env_id in gymnasium.registry
        recipe = {"recipe_id": "cole-slaw"} if env_id == "cookingbot/Kitchen-v0" else {}
        envs = gymnasium.make_vec(env_id, num_envs=4, heldout=HELDOUT, **recipe)
        obs, _ = envs.reset(seed=1)
        assert len(obs) == 4 and all(o.startswith("Title: ") for o in obs)
        obs, rewards, terminated, truncated, _ = envs.step(["(get-kitchen ?kitchen)"] * 4)
        assert not any(terminated)
        assert obs == ("get-kitchen ran: ?kitchen = the kitchen at 0:00, ready at 0:00",) * 4
        envs.close()


def test_a_variation_tells_its_task_and_its_gold_earns_a_full_score():
    env = KitchenEnv("cole-slaw", variation=1)
    obs, _ = env.reset()
    assert obs.startswith("Variation 1 of this recipe: make ")
    gold = env.kitchen.variation_gold()
    official = cookingbot.Kitchen("cole-slaw").variation_gold()
    assert gold != official and official.strip() == cookingbot.Benchmark()["cole-slaw"].gold.strip()
    assert env.kitchen.variation == 1
    for line in gold.splitlines()[1:]:
        obs, *_, info = env.step(line)
        assert info["observation"].ok, obs
    obs, reward, terminated, *_ = env.step("finish")
    assert (reward, terminated) == (1.0, True)
    assert obs.startswith("smatch 1.00, goal-condition success 1.00, dish 1.00")
    again = cookingbot.Kitchen("cole-slaw", variation=1)
    assert again.variation_gold() == gold and again.opening.recipe_text == env.kitchen.opening.recipe_text


def test_a_variation_below_zero_or_on_a_model_is_refused():
    with pytest.raises(ValueError, match="variation must be 0"):
        cookingbot.Kitchen("cole-slaw", variation=-1)
    with pytest.raises(ValueError, match="a Kitchen on a model has no variations"):
        cookingbot.Kitchen("cole-slaw", model=cookingbot.Model(), variation=1)


@pytest.mark.parametrize("name", ["train", "dev", "test"])
def test_a_split_environment_draws_its_recipes_from_the_split_by_its_seed(name):
    env = gymnasium.make(f"cookingbot/Kitchen-{name}-v0", heldout=HELDOUT)
    ids = {r.id for r in cookingbot.splits()[name]}
    drawn = [env.reset(seed=seed)[1]["recipe"] for seed in range(12)]
    assert set(drawn) <= ids and len(set(drawn)) > 1, drawn
    again = gymnasium.make(f"cookingbot/Kitchen-{name}-v0", heldout=HELDOUT)
    assert [again.reset(seed=seed)[1]["recipe"] for seed in range(12)] == drawn
    obs, info = env.reset(seed=3)
    assert info["recipe"] == drawn[3] and info["network"] == f"#{drawn[3]}\n"
    assert obs.startswith("Title: ") and "\nThe kitchen:\n" in obs


def test_a_drawn_held_out_recipe_plays_its_gold_from_its_own_benchmark(tmp_path):
    env = KitchenEnv(split="test", heldout=HELDOUT, log=tmp_path)
    heldout = {r.id for r in cookingbot.splits()["test"] if r.benchmark == "heldout"}
    seed = next(s for s in range(100) if env.reset(seed=s)[1]["recipe"] in heldout)
    _, info = env.reset(seed=seed)
    recipe = info["recipe"]
    gold = cookingbot.Benchmark("2024", HELDOUT)[recipe].gold
    for line in [l for l in gold.splitlines()[1:] if l]:
        obs, *_, info = env.step(line)
        assert info["observation"].ok, obs
    _, reward, terminated, *_ = env.step("finish")
    assert (reward, terminated) == (1.0, True)
    assert cookingbot.replay(tmp_path / f"{recipe}.jsonl").identical


def test_a_split_environment_is_refused_without_its_held_out_folder_or_with_a_recipe(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="the train split holds held-out recipes: give heldout="):
        KitchenEnv(split="train")
    with pytest.raises(ValueError, match="unknown split 'val': expected train, dev or test"):
        KitchenEnv(split="val", heldout=HELDOUT)
    with pytest.raises(ValueError, match="a recipe_id or a split, not both"):
        KitchenEnv("cole-slaw", split="dev", heldout=HELDOUT)
    with pytest.raises(RuntimeError, match="reset first"):
        KitchenEnv(split="dev", heldout=HELDOUT).step("finish")
