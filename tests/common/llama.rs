//! A real language model for the end-to-end tests: SmolLM2-135M-Instruct (GGUF, named by
//! `COOKINGBOT_SMOLLM2_GGUF`, which `.ci/run` sets) served by llama.cpp through xllamacpp's
//! prebuilt CPU wheel (`tests/llm/serve.py`) on 127.0.0.1 with one thread.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The server process, stopped when dropped.
pub struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The model served on a free port and the server's base URL; none (the test skipped, and
/// saying so) when `COOKINGBOT_SMOLLM2_GGUF` is not set.
pub fn smollm2() -> Option<(Server, String)> {
    let Some(gguf) = std::env::var_os("COOKINGBOT_SMOLLM2_GGUF") else {
        eprintln!("skipped: COOKINGBOT_SMOLLM2_GGUF is not set");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/llm/serve.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(&gguf)
        .arg(port.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs");
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut url = String::new();
    BufReader::new(stdout).read_line(&mut url).unwrap();
    let url = url.trim().to_string();
    assert_eq!(url, format!("http://127.0.0.1:{port}/v1"));
    Some((server, url))
}
