"""The `cookingbot-evaluator` command installed by the wheel: the Rust command line, run in
this process."""

import os
import signal
import sys

from . import _native


def main() -> None:
    # `ray-score` runs Ray's driver in a Python that has cookingbot: this one, unless told.
    os.environ.setdefault("COOKINGBOT_PYTHON", sys.executable)
    # Python only notes Ctrl-C for its own code, which does not run until the command returns:
    # give the signal back its default effect, as the Rust binary has it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_native.main(sys.argv))
