"""``python -m cookingbot.agents``: run an agent on recipes or a split and write its
trajectories and table (see :mod:`cookingbot.agents`). Exit 0 when every episode finished, 2
when the run could not start or stopped (what finished is kept: run it again to resume)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from . import AGENTS, MODEL_AGENTS, RESULTS, Run, ServerError, run, tasks
from .client import ChatClient
from .episodes import Settings


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m cookingbot.agents",
        description="Run an agent on recipes of the benchmark and tabulate its episodes.",
    )
    p.add_argument("--agent", required=True, choices=AGENTS)
    p.add_argument("--base-url", help="the OpenAI-compatible server, http://HOST:PORT/v1")
    p.add_argument("--model", help="the model's name on the server")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--recipes", nargs="+", metavar="ID", help="recipe ids")
    which.add_argument("--split", choices=("train", "dev", "test"), help="an official split")
    p.add_argument("-k", type=int, default=1, help="episodes per recipe (default 1)")
    p.add_argument("--out", type=Path, required=True, help="folder of the run (resumed)")
    p.add_argument("--benchmark", help="the official data folder, or demo (default: located)")
    p.add_argument("--heldout", help="the held-out benchmark (default: benchmarks/heldout)")
    p.add_argument("--examples", type=int, default=1, help="few-shot examples (default 1)")
    p.add_argument("--max-steps", type=int, default=40, help="steps of react/tools (40)")
    p.add_argument("--history", type=int, default=8, help="react exchanges kept (8)")
    p.add_argument("--max-tokens", type=int, default=512, help="per answer (512)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per request (120)")
    p.add_argument("--retries", type=int, default=2, help="after a failed request (2)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    client = None
    if args.agent in MODEL_AGENTS:
        if not args.base_url or not args.model:
            print(f"error: --agent {args.agent} needs --base-url and --model", file=sys.stderr)
            return 2
        client = ChatClient(args.base_url, args.model, timeout=args.timeout,
                            retries=args.retries, max_tokens=args.max_tokens)
    if args.k < 1:
        print(f"error: -k {args.k}: expected at least 1", file=sys.stderr)
        return 2
    try:
        chosen = tasks(args.recipes, args.split, official=args.benchmark,
                       heldout=args.heldout,
                       examples=args.examples if client else 0)
        settings = Settings(client, max_steps=args.max_steps, history=args.history)
        r = Run(args.agent, args.model or args.agent, chosen, args.k, args.out, settings)
        run(r, say=lambda s: print(s, flush=True))
    except ServerError as e:
        print(f"error: {e}", file=sys.stderr)
        if (args.out / RESULTS).is_file():
            print(f"the finished episodes and their table are in {args.out}; run the same "
                  "command again to resume", file=sys.stderr)
        return 2
    except (ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
