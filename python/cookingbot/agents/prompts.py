"""The prompts the harness ships: the action language (the session's primitives, from
``Kitchen.primitives()``), how to answer for each agent, and few-shot examples: gold networks
of the train split, read from the benchmark data at run time (never stored in the package)."""

from __future__ import annotations

from typing import Optional

from .._kitchen import Kitchen
from .._splits import SplitRecipe

#: What each model agent is told to answer, after the language.
ANSWER = {
    "one-shot": (
        "Write the whole network for the recipe below: one action per line, in the order a cook "
        "does them, starting with (get-kitchen ?kitchen). Answer with the lines only."
    ),
    "react": (
        "Write the network one action at a time. Answer each message with exactly one line: "
        "an action, or `undo` to take your last line back, or `finish` when the dish is made. "
        "After each line you are told what it did in the kitchen."
    ),
    "tools": (
        "Write the network one action at a time with the tools: `act` runs one line, `undo` "
        "takes the last one back, `look` shows a variable or a place, and `finish` scores the "
        "network and ends. Call `finish` when the dish is made."
    ),
}


def language(kitchen: Kitchen) -> str:
    """The action language: a line per primitive, its form and what it does."""
    lines = [f"{p.form}  ; {p.does}" for p in kitchen.primitives()]
    return "The actions (variables start with ?, outputs come first):\n" + "\n".join(lines)


def system(kitchen: Kitchen, agent: str) -> str:
    """The system message of a model agent."""
    return (
        "You write recipes as networks of kitchen actions in the MUHAI Cooking Language.\n"
        f"{language(kitchen)}\n\n{ANSWER[agent]}"
    )


def opening(kitchen: Kitchen) -> str:
    """The task: the recipe text and the kitchen (the session's opening, without the language,
    which the system message holds)."""
    o = kitchen.opening
    recipe = o.recipe_text.rstrip() if o.recipe_text else o.recipe
    return f"{recipe}\n\nThe kitchen:\n{o.kitchen}"


def example_recipes(train: list[SplitRecipe], kind: str, count: int) -> list[SplitRecipe]:
    """The `count` train recipes shown as examples of a recipe of `kind`: those of the same
    kind first, then the others, each group in the split's order."""
    same = [r for r in train if r.kind == kind]
    other = [r for r in train if r.kind != kind]
    return (same + other)[:count]


def few_shot(examples: list[tuple[str, str]]) -> list[dict]:
    """Example turns: per example its recipe text as the user and its gold network's lines as
    the assistant."""
    turns: list[dict] = []
    for text, gold in examples:
        body = "\n".join(line for line in gold.splitlines() if line.startswith("("))
        turns += [{"role": "user", "content": text}, {"role": "assistant", "content": body}]
    return turns


def action_lines(answer: Optional[str]) -> list[str]:
    """The lines of the language in a model's answer (code fences and prose left out)."""
    return [
        line.strip() for line in (answer or "").splitlines() if line.strip().startswith("(")
    ]


def observation_text(observation) -> str:
    """An observation as the model reads it: the words, then each diagnostic."""
    lines = [observation.text] + [str(d) for d in observation.diagnostics]
    return "\n".join(line for line in lines if line)


#: The kitchen's calls as function tools (OpenAI's `tools` format).
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "act",
            "description": "Append one line (one action) to the network and run it.",
            "parameters": {
                "type": "object",
                "properties": {"line": {"type": "string", "description": "one action"}},
                "required": ["line"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "undo",
            "description": "Take the last line back.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "look",
            "description": "Show a variable (?bowl) or a place of the kitchen (fridge).",
            "parameters": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "finish",
            "description": "Score the network and end.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]
