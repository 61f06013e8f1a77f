//! The OpenAI-compatible chat-completions protocol: the request we send, a permissive reading
//! of the response (every field optional), and the backends that answer a request: an HTTP
//! client over `ureq` with a deadline, bounded retries and bounded sizes, and a response cache.

use crate::language::diagnostic::terminal_safe;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most bytes of an answer read from a server: an answer of a few thousand tokens is tens
/// of kB, so a server sending more is broken or hostile and is not read further.
pub const MAX_RESPONSE_BYTES: u64 = 1 << 20;

/// The most bytes of a request: the prompt, one earlier answer (at most
/// [`MAX_RESPONSE_BYTES`]) and its problems fit far below it.
pub const MAX_REQUEST_BYTES: usize = 4 << 20;

/// The most characters of a server's error body quoted in a message.
const QUOTED_BODY_CHARS: usize = 300;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn new(role: &str, content: impl Into<String>) -> Message {
        Message {
            role: role.into(),
            content: content.into(),
        }
    }
}

/// A chat-completions request. Serialised with fields in declaration order, which makes the
/// JSON text canonical (the cache key hashes it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChatRequest {
    pub model: String,
    pub messages: Vec<Message>,
    pub temperature: f32,
    /// Varies samples on servers that honour it.
    pub seed: u64,
    pub max_tokens: u32,
    /// A GBNF grammar for llama.cpp's constrained decoding (omitted for other servers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grammar: Option<String>,
}

impl ChatRequest {
    /// The canonical JSON text of the request.
    pub fn canonical(&self) -> String {
        serde_json::to_string(self).expect("a request always serialises")
    }

    /// SHA-256 of the canonical request, in hex: the cache key.
    pub fn key(&self) -> String {
        Sha256::digest(self.canonical().as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

#[derive(Debug, Default, Deserialize)]
struct ChatResponse {
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Debug, Default, Deserialize)]
struct Choice {
    #[serde(default)]
    message: Option<ChoiceMessage>,
    /// Completion-style servers put the text here.
    #[serde(default)]
    text: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ChoiceMessage {
    #[serde(default)]
    content: Option<String>,
}

/// The text of the first choice of a response body.
pub fn response_text(body: &str) -> Result<String, ChatError> {
    let r: ChatResponse = serde_json::from_str(body)
        .map_err(|e| ChatError::Protocol(format!("the response is not JSON: {e}")))?;
    if let Some(e) = r.error {
        return Err(ChatError::Protocol(format!(
            "the server reports an error: {e}"
        )));
    }
    r.choices
        .unwrap_or_default()
        .into_iter()
        .next()
        .and_then(|c| c.message.and_then(|m| m.content).or(c.text))
        .ok_or_else(|| ChatError::Protocol("the response has no choice with content".into()))
}

/// Why a request got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatError {
    /// Connection failures, timeouts and 5xx/429 answers, after every retry.
    Unavailable(String),
    /// An answer we cannot use (4xx, not JSON, no content).
    Protocol(String),
    /// Offline replay: the request is not in the cache.
    NotCached(String),
}

impl fmt::Display for ChatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChatError::Unavailable(m) => write!(f, "the language model server is unavailable: {m}"),
            ChatError::Protocol(m) => {
                write!(f, "unusable answer from the language model server: {m}")
            }
            ChatError::NotCached(k) => write!(
                f,
                "request {k} is not in the response cache and no server is configured"
            ),
        }
    }
}

impl std::error::Error for ChatError {}

/// Something that answers chat requests.
pub trait ChatBackend {
    /// Answer `request` before `deadline`: the requests for one recipe share one deadline, so
    /// a slow or trickling server holds a recipe for that long at most, retries included.
    fn complete(&mut self, request: &ChatRequest, deadline: Instant) -> Result<String, ChatError>;
}

/// Where the server is and how to talk to it.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Base URL; `/chat/completions` is appended (`http://127.0.0.1:8080/v1`).
    pub url: String,
    pub key: Option<String>,
    /// Attempts after the first one.
    pub retries: u32,
    /// Wait before the first retry; doubled each time.
    pub backoff: Duration,
}

/// An OpenAI-compatible chat-completions server over HTTP.
pub struct HttpBackend {
    config: ServerConfig,
    agent: ureq::Agent,
}

impl HttpBackend {
    pub fn new(config: ServerConfig) -> HttpBackend {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        HttpBackend { config, agent }
    }

    fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.config.url.trim_end_matches('/'))
    }

    /// One attempt with `time` left: `Ok(Ok(text))` answered, `Ok(Err(reason))` worth
    /// retrying, `Err` final.
    fn attempt(&self, body: &str, time: Duration) -> Result<Result<String, String>, ChatError> {
        let mut req = self
            .agent
            .post(&self.endpoint())
            .config()
            .timeout_global(Some(time))
            .build()
            .header("Content-Type", "application/json");
        if let Some(key) = &self.config.key {
            req = req.header("Authorization", &format!("Bearer {key}"));
        }
        let mut resp = match req.send(body) {
            Ok(r) => r,
            Err(e) => return Ok(Err(e.to_string())),
        };
        let status = resp.status().as_u16();
        let read = resp
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE_BYTES)
            .read_to_string();
        let text = match read {
            Ok(t) => t,
            Err(ureq::Error::BodyExceedsLimit(_)) => {
                return Err(ChatError::Protocol(format!(
                    "the answer is larger than {MAX_RESPONSE_BYTES} bytes"
                )));
            }
            Err(e) => return Ok(Err(e.to_string())),
        };
        match status {
            200..=299 => response_text(&text).map(Ok),
            429 | 500..=599 => Ok(Err(format!("HTTP {status}"))),
            _ => Err(ChatError::Protocol(format!(
                "HTTP {status}: {}",
                quoted(text.trim())
            ))),
        }
    }
}

/// A server's text as a message may quote it: cut short, control characters shown as `?`.
fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(QUOTED_BODY_CHARS).collect();
    let more = if cut.len() < text.len() { "..." } else { "" };
    format!("{}{more}", terminal_safe(&cut))
}

impl ChatBackend for HttpBackend {
    fn complete(&mut self, request: &ChatRequest, deadline: Instant) -> Result<String, ChatError> {
        let body = request.canonical();
        if body.len() > MAX_REQUEST_BYTES {
            return Err(ChatError::Protocol(format!(
                "the request is {} bytes, over the limit of {MAX_REQUEST_BYTES}",
                body.len()
            )));
        }
        let mut wait = self.config.backoff;
        let mut last = String::from("none made");
        let mut made = 0;
        while made <= self.config.retries {
            if made > 0 {
                std::thread::sleep(wait.min(deadline.saturating_duration_since(Instant::now())));
                wait *= 2;
            }
            let time = deadline.saturating_duration_since(Instant::now());
            if time.is_zero() {
                return Err(ChatError::Unavailable(format!(
                    "no answer before the recipe's deadline ({made} attempts; last: {last})"
                )));
            }
            made += 1;
            match self.attempt(&body, time)? {
                Ok(text) => return Ok(text),
                Err(reason) => last = reason,
            }
        }
        Err(ChatError::Unavailable(format!(
            "{made} attempts failed; last: {last}"
        )))
    }
}

/// A directory of answered requests, one `<sha256>.json` file each holding the canonical
/// request and the answer text. With a server behind it, misses are asked and stored; without
/// one it replays offline, byte for byte.
pub struct CachedBackend {
    dir: PathBuf,
    inner: Option<Box<dyn ChatBackend>>,
}

#[derive(Serialize, Deserialize)]
struct CacheEntry {
    request: serde_json::Value,
    response: String,
}

impl CachedBackend {
    pub fn new(dir: PathBuf, inner: Option<Box<dyn ChatBackend>>) -> CachedBackend {
        CachedBackend { dir, inner }
    }
}

impl ChatBackend for CachedBackend {
    fn complete(&mut self, request: &ChatRequest, deadline: Instant) -> Result<String, ChatError> {
        let key = request.key();
        let path = self.dir.join(format!("{key}.json"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let entry: CacheEntry = serde_json::from_str(&text).map_err(|e| {
                ChatError::Protocol(format!("{}: not a cache entry: {e}", path.display()))
            })?;
            return Ok(entry.response);
        }
        let Some(inner) = self.inner.as_mut() else {
            return Err(ChatError::NotCached(key));
        };
        let response = inner.complete(request, deadline)?;
        let entry = CacheEntry {
            request: serde_json::from_str(&request.canonical()).unwrap_or_default(),
            response: response.clone(),
        };
        let text = serde_json::to_string_pretty(&entry).unwrap_or_default();
        std::fs::create_dir_all(&self.dir)
            .and_then(|()| crate::report::write_atomically(&path, text.as_bytes()))
            .map_err(|e| ChatError::Protocol(format!("{}: cannot store: {e}", path.display())))?;
        Ok(response)
    }
}
