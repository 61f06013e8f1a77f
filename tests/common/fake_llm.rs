//! A scripted fake of an OpenAI-compatible chat-completions server on 127.0.0.1, for the
//! tests of the language-model translator and the language-model agent: it answers each
//! connection with the next scripted answer and records the request bodies.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted answer of the fake server: status, body, delay before answering, and how the
/// body is sent.
#[derive(Clone)]
pub struct Scripted {
    pub status: u16,
    pub body: String,
    pub delay: Duration,
    pub pace: Pace,
}

#[derive(Clone, Copy, PartialEq)]
pub enum Pace {
    /// The whole body at once.
    Whole,
    /// One byte per second (a trickling server).
    Trickle,
    /// The body repeated until the client hangs up (no length: the connection's end ends it).
    Endless,
}

pub fn ok(content: &str) -> Scripted {
    let body = serde_json::json!({"id": "x", "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}], "usage": null});
    Scripted {
        status: 200,
        body: body.to_string(),
        delay: Duration::ZERO,
        pace: Pace::Whole,
    }
}

pub fn status(code: u16) -> Scripted {
    Scripted {
        status: code,
        body: "{\"error\": \"busy\"}".into(),
        delay: Duration::ZERO,
        pace: Pace::Whole,
    }
}

/// A fake chat-completions server on 127.0.0.1 answering connections with the script in
/// order; returns its base URL and the request bodies it received.
pub fn fake_server_on_localhost(script: Vec<Scripted>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for answer in script {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            assert!(
                request_line.starts_with("POST /v1/chat/completions "),
                "{request_line}"
            );
            loop {
                let mut h = String::new();
                reader.read_line(&mut h).unwrap();
                if h == "\r\n" || h.is_empty() {
                    break;
                }
                if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            log.lock().unwrap().push(String::from_utf8(body).unwrap());
            std::thread::sleep(answer.delay);
            let mut stream = stream;
            let length = match answer.pace {
                Pace::Endless => String::new(),
                _ => format!("Content-Length: {}\r\n", answer.body.len()),
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {} X\r\nContent-Type: application/json\r\n{length}Connection: close\r\n\r\n",
                answer.status,
            );
            match answer.pace {
                Pace::Whole => {
                    let _ = stream.write_all(answer.body.as_bytes());
                }
                Pace::Trickle => {
                    for b in answer.body.bytes() {
                        if stream.write_all(&[b]).is_err() {
                            break;
                        }
                        std::thread::sleep(Duration::from_secs(1));
                    }
                }
                Pace::Endless => while stream.write_all(answer.body.as_bytes()).is_ok() {},
            }
        }
    });
    (url, seen)
}
