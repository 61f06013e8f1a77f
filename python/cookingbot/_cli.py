"""The `cookingbot-evaluator` command installed by the wheel: the Rust command line, run in
this process."""

import signal
import sys

from . import _native


def main() -> None:
    if sys.argv[1:2] == ["ray-score"]:
        # Scoring on a Ray cluster runs in Python (cookingbot.ray, the `ray` extra): the
        # command line hands it the rest of its arguments.
        try:
            from .ray import main as ray_score
        except ImportError as e:
            sys.exit(f"error: ray-score needs Ray ({e}): pip install \"cookingbot[ray]\"")
        sys.exit(ray_score(sys.argv[2:]))
    # Python only notes Ctrl-C for its own code, which does not run until the command returns:
    # give the signal back its default effect, as the Rust binary has it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_native.main(sys.argv))
