"""One episode of one agent on one recipe: what it said and did (the trajectory) and the
score of the network it left, which a :class:`cookingbot.Kitchen` computes exactly as the
network's ``.solution`` file is scored.

Agents: ``one-shot`` (the model writes the whole network; its lines are given to the kitchen
and the network scored), ``react`` (one line per request, each answered with the kitchen's
observation), ``tools`` (the kitchen's calls as function tools), and the library's rule
agents, which need no server: ``rules`` (the rules translator's network, one shot) and
``rules-repair`` (that network given line by line by the repairing agent)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .. import _native
from .._kitchen import Kitchen, Score
from . import prompts
from .client import ChatClient

MODEL_AGENTS = ("one-shot", "react", "tools")
RULE_AGENTS = ("rules", "rules-repair")
AGENTS = MODEL_AGENTS + RULE_AGENTS


@dataclass
class Task:
    """A recipe to cook: its id, the benchmark it comes from (``official``, ``heldout`` or the
    folder's name), the data folder (None: the official data as located by default), its dish
    kind and the few-shot examples (recipe text, gold network) shown with it."""

    recipe: str
    benchmark: str
    data: Optional[str]
    kind: str
    examples: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Episode:
    """What one episode left: the trajectory's records (messages, actions with their
    observations) and the score."""

    records: list[dict] = field(default_factory=list)
    score: Optional[Score] = None
    steps: int = 0
    tokens: int = 0

    def message(self, message: dict) -> None:
        self.records.append({"type": "message", **message})

    def act(self, kitchen: Kitchen, line: str) -> Any:
        seen = kitchen.step(line)
        self.steps += 1
        self.records.append({"type": "action", "line": line, "observation": seen.report})
        return seen


@dataclass
class Settings:
    """How model agents run: the client (None for the rule agents), the most steps of a
    stepping agent, and how many past exchanges a react prompt keeps."""

    client: Optional[ChatClient]
    max_steps: int = 40
    history: int = 8


def run_episode(agent: str, task: Task, settings: Settings, sample: int) -> Episode:
    """Run `agent` once on `task` (`sample` is the model's seed)."""
    kitchen = Kitchen(task.recipe, benchmark=task.data)
    kitchen.reset()
    episode = Episode()
    RUNNERS[agent](kitchen, task, settings, sample, episode)
    episode.score = kitchen.finish()
    episode.records.append({"type": "network", "text": kitchen.network()})
    return episode


def _ask(settings: Settings, episode: Episode, messages: list[dict], sample: int, **kw) -> dict:
    assert settings.client is not None, "a model agent needs a server"
    reply = settings.client.chat(messages, seed=sample, **kw)
    episode.tokens += reply.tokens
    episode.message({"role": "assistant", **reply.message, "tokens": reply.tokens})
    return reply.message


def _opening(kitchen: Kitchen, task: Task, agent: str, episode: Episode) -> list[dict]:
    messages = [{"role": "system", "content": prompts.system(kitchen, agent)}]
    messages += prompts.few_shot(task.examples)
    messages.append({"role": "user", "content": prompts.opening(kitchen)})
    for m in messages:
        episode.message(m)
    return messages


def one_shot(kitchen: Kitchen, task: Task, settings: Settings, sample: int, episode: Episode):
    messages = _opening(kitchen, task, "one-shot", episode)
    answer = _ask(settings, episode, messages, sample)
    for line in prompts.action_lines(answer.get("content")):
        episode.act(kitchen, line)


def react(kitchen: Kitchen, task: Task, settings: Settings, sample: int, episode: Episode):
    opening = _opening(kitchen, task, "react", episode)
    exchanges: list[dict] = []
    for _ in range(settings.max_steps):
        window = exchanges[-2 * settings.history :] if settings.history else []
        answer = _ask(settings, episode, opening + window, sample)
        lines = [line.strip() for line in (answer.get("content") or "").splitlines()]
        line = next((line for line in lines if line), "")
        if line.strip("`").lower() == "finish":
            return
        if line.strip("`").lower() == "undo":
            taken = kitchen.undo()
            said = f"took back {taken}" if taken else "there is no line to take back"
        elif line.startswith("("):
            seen = episode.act(kitchen, line)
            said = prompts.observation_text(seen)
            if seen.outcome == "refused":
                # A refused line makes the reference refuse the whole network: take it back
                # at once, as the Rust agent does, and say so.
                kitchen.undo()
                episode.records.append({"type": "undo"})
                said = f"{said}\nThe line was taken back: the network does not hold it."
        else:
            said = "Answer with one action line, `undo` or `finish`."
        exchanges += [{"role": "assistant", "content": line}, {"role": "user", "content": said}]
        episode.message({"role": "user", "content": said})


def tools(kitchen: Kitchen, task: Task, settings: Settings, sample: int, episode: Episode):
    messages = _opening(kitchen, task, "tools", episode)
    for _ in range(settings.max_steps):
        answer = _ask(settings, episode, messages, sample, tools=prompts.TOOLS)
        calls = answer.get("tool_calls") or []
        messages.append({"role": "assistant", "content": answer.get("content"), "tool_calls": calls})
        if not calls:
            messages.append({"role": "user", "content": "Call a tool: act, undo, look or finish."})
            continue
        for call in calls:
            name = call.get("function", {}).get("name")
            if name == "finish":
                return
            said = _tool(kitchen, episode, name, call.get("function", {}).get("arguments"))
            result = {"role": "tool", "tool_call_id": call.get("id", ""), "content": said}
            messages.append(result)
            episode.message(result)


def _tool(kitchen: Kitchen, episode: Episode, name: Optional[str], arguments: Any) -> str:
    """A tool call's answer in words; a call the kitchen cannot take is answered, not raised."""
    try:
        args = json.loads(arguments) if isinstance(arguments, str) else (arguments or {})
    except ValueError:
        return f"the arguments are not JSON: {arguments!r}"
    if name == "act":
        return prompts.observation_text(episode.act(kitchen, str(args.get("line", ""))))
    if name == "undo":
        taken = kitchen.undo()
        return f"took back {taken}" if taken else "there is no line to take back"
    if name == "look":
        try:
            return kitchen.look(str(args.get("name", ""))).text
        except ValueError as e:
            return str(e)
    return f"unknown tool {name!r}: act, undo, look or finish"


def _rules(task: Task) -> dict:
    return json.loads(_native.repair_rules(task.recipe, "2024", task.data))


def rules(kitchen: Kitchen, task: Task, settings: Settings, sample: int, episode: Episode):
    for line in prompts.action_lines(_rules(task)["script"]):
        episode.act(kitchen, line)


def rules_repair(kitchen: Kitchen, task: Task, settings: Settings, sample: int, episode: Episode):
    repaired = _rules(task)
    for turn in repaired["turns"]:
        episode.act(kitchen, turn["line"])
        if turn["taken_back"]:
            kitchen.undo()
            episode.records.append({"type": "undo"})
    episode.records.append({"type": "repairs", "repairs": repaired["repairs"]})


RUNNERS: dict[str, Callable[[Kitchen, Task, Settings, int, Episode], None]] = {
    "one-shot": one_shot,
    "react": react,
    "tools": tools,
    "rules": rules,
    "rules-repair": rules_repair,
}


def timed(agent: str, task: Task, settings: Settings, sample: int) -> tuple[Episode, float]:
    """An episode and its wall time in seconds."""
    start = time.monotonic()
    episode = run_episode(agent, task, settings, sample)
    return episode, time.monotonic() - start
