"""Serve a GGUF model over llama.cpp's OpenAI-compatible HTTP API on 127.0.0.1 (xllamacpp's
prebuilt CPU wheel), one thread, for the real-model end-to-end test. Prints the base URL on
its first line of output, then serves until killed."""

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
    server = xllamacpp.Server(params)
    print(f"http://127.0.0.1:{port}/v1", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
