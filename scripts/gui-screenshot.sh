#!/usr/bin/env bash
# A screenshot of the desktop launcher's real window: builds the program, starts a virtual X
# display (Xvfb), opens the launcher on the embedded demo benchmark with examples/demo-mistake
# preloaded and started, waits for the results and captures the window (ImageMagick's
# `import`). Needs no benchmark data and no network.
#
#   scripts/gui-screenshot.sh [OUT.png]      # default docs/gui.png
#
# The program is built where cargo builds it (`CARGO_TARGET_DIR` is honoured).
#
# Requirements: Xvfb, xdotool and ImageMagick (Debian/Ubuntu: `apt-get install xvfb xdotool
# imagemagick`; installed here when missing and run as root with apt-get) and an OpenGL
# driver (Mesa's software renderer, llvmpipe, does: libgl1-mesa-dri, libegl1).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/gui.png}"

missing=()
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xdotool >/dev/null || missing+=(xdotool)
command -v import >/dev/null || missing+=(imagemagick)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
    else
        echo "error: install ${missing[*]} first (apt-get install ${missing[*]})" >&2
        exit 1
    fi
fi

cargo build --release --bin cookingbot-evaluator
# Where cargo put it: `CARGO_TARGET_DIR` (relative to this folder) when set.
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
exe="$target/release/cookingbot-evaluator"
work="$(mktemp -d)"
pids=()
cleanup() {
    # The launcher first, then the display it draws on.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# The first free display from :99 on.
n=99
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
export DISPLAY=":$n"
Xvfb "$DISPLAY" -screen 0 1280x960x24 -nolisten tcp &
pids+=($!)
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done

# Run in the scratch folder so that the window shows short paths.
cp examples/demo-mistake.solution "$work/"
(cd "$work" && LIBGL_ALWAYS_SOFTWARE=1 exec "$exe" gui --benchmark demo \
    --input demo-mistake.solution --output results.csv --run) &
pids+=($!)

window="$(timeout 60 xdotool search --sync --onlyvisible --name 'cookingbot evaluator' | head -1)"
# The demo scores in well under a second; the CSV appears when the run is over.
for _ in $(seq 600); do [ -s "$work/results.csv" ] && break; sleep 0.1; done
[ -s "$work/results.csv" ] || { echo "error: the evaluation did not finish" >&2; exit 1; }
# The pointer off the window, so that no tooltip shows.
xdotool mousemove 1279 959
sleep 2
mkdir -p "$(dirname "$out")"
import -window "$window" "$out"
echo "wrote $out"
