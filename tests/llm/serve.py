"""Serve a GGUF model over llama.cpp's OpenAI-compatible HTTP API on 127.0.0.1 (xllamacpp's
prebuilt CPU wheel), one thread, for the real-model end-to-end test and the agents' table.
Prints the base URL on its first line of output, then serves until killed.

    python3 tests/llm/serve.py MODEL.gguf PORT [TEMPLATE]

TEMPLATE names one of llama.cpp's built-in chat templates (e.g. ``gemma``), for a GGUF that
carries none: without it llama.cpp formats such a model's chat as ChatML, which Gemma was never
trained on (its answers then continue the ChatML turns as text). Without TEMPLATE the GGUF's
own template is used (SmolLM2's is ChatML)."""

import sys
import time

import xllamacpp


def main():
    model, port = sys.argv[1], int(sys.argv[2])
    params = xllamacpp.CommonParams()
    params.model.path = model
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = 8192  # SmolLM2's trained context
    params.n_parallel = 1
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    params.n_threads_http = 1
    if len(sys.argv) > 3:
        # A built-in template is a name, not Jinja source: llama.cpp's own formatter applies it.
        params.use_jinja = False
        params.chat_template = sys.argv[3]
    server = xllamacpp.Server(params)
    print(f"http://127.0.0.1:{port}/v1", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
