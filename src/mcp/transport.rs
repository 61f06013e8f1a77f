//! The tool server's stdio transport: one JSON-RPC message per line, and an error reply to
//! every line that is not one, so that a client never waits on a message the server dropped.
//!
//! The SDK's own line transport ignores lines that are not JSON, drops lines over its length
//! cap with a log entry, and hands a known method whose params have the wrong shape to the
//! router as an unknown method (-32601). Here each gets the JSON-RPC error it is: -32700 for
//! text that is not UTF-8 or not JSON, -32600 for JSON that is not one request (two objects on
//! a line, a batch, a line over the cap), -32602 for a known method's params of the wrong
//! shape, each with the request's `id` where one can be read, and `"id": null` where none can
//! (JSON-RPC 2.0).
//!
//! The SDK answers a request by its `id` alone: of requests sharing an `id` while the first is
//! being answered, all run and one answer comes back. Here such a request gets an error of its
//! own (-32600) and does not run. At the end of the input (a last line needs no newline) the
//! transport ends only once every request read is answered (each within its call's deadline,
//! bounded by `linger`), since the SDK waits for answers only seconds after its input ends.

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, ErrorCode, ErrorData, JsonRpcMessage,
    RequestId,
};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::{Arc, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Notify};
use tokio::time::Instant;

/// The methods of the protocol the server knows: a request for one of them whose params do
/// not have the method's shape is invalid params, not an unknown method.
const KNOWN_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

/// Lines of JSON-RPC on a reader and a writer, at most `max_line` bytes a message.
pub struct LineTransport<R, W> {
    read: BufReader<R>,
    write: Arc<Mutex<W>>,
    max_line: usize,
    /// The line read so far: kept across a cancelled read, which the service loop makes
    /// whenever it has a reply to send first.
    line: Vec<u8>,
    /// Skipping the rest of a line over the cap, until its newline.
    discarding: bool,
    /// The requests read and not yet answered.
    in_flight: Arc<InFlight>,
    /// How long the end of the input waits for the answers still due.
    linger: Duration,
    /// When the end of the input was first read, past which no answer is waited for.
    give_up_at: Option<Instant>,
}

/// The ids of the requests being answered, and a signal when the last is.
#[derive(Default)]
struct InFlight {
    ids: std::sync::Mutex<HashSet<RequestId>>,
    none_left: Notify,
}

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, HashSet<RequestId>> {
        self.ids.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Take `id` as a request being answered; `false` when one with that id already is.
    fn admit(&self, id: &RequestId) -> bool {
        self.ids().insert(id.clone())
    }

    /// `id` is answered (or cancelled, and will not be).
    fn done(&self, id: &RequestId) {
        let mut ids = self.ids();
        if ids.remove(id) && ids.is_empty() {
            // A stored permit if no one waits yet: the next wait sees it.
            self.none_left.notify_one();
        }
    }

    /// Until every request is answered, or `until`.
    async fn settle(&self, until: Instant) {
        let all_answered = async {
            while !self.ids().is_empty() {
                self.none_left.notified().await;
            }
        };
        let _ = tokio::time::timeout_at(until, all_answered).await;
    }
}

impl<R: AsyncRead + Unpin + Send, W: AsyncWrite + Unpin + Send + 'static> LineTransport<R, W> {
    /// Lines of at most `max_line` bytes; at the end of the input the answers still due are
    /// waited for `linger` at most.
    pub fn new(read: R, write: W, max_line: usize, linger: Duration) -> Self {
        LineTransport {
            read: BufReader::new(read),
            write: Arc::new(Mutex::new(write)),
            max_line,
            line: Vec::new(),
            discarding: false,
            in_flight: Arc::default(),
            linger,
            give_up_at: None,
        }
    }

    /// The next whole line (without its newline), or `Err(id)` for one over the cap (with
    /// the `id` read from its start, where it can be), or `None` at the end of the input.
    /// Reads through `fill_buf`/`consume` with no await between a copy and its consume, so a
    /// cancelled call leaves its partial line for the next.
    async fn next_line(&mut self) -> Option<Result<Vec<u8>, Option<RequestId>>> {
        loop {
            let available = self.read.fill_buf().await.ok()?;
            if available.is_empty() {
                // A last line without its newline is a line all the same.
                let last = std::mem::take(&mut self.line);
                return (!last.is_empty() && !self.discarding).then(|| Ok(trimmed(last)));
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let over = !self.discarding && self.line.len() + take > self.max_line + 1;
            if !self.discarding {
                let room = if over {
                    HEAD_BYTES.saturating_sub(self.line.len())
                } else {
                    take
                };
                self.line.extend_from_slice(&available[..take.min(room)]);
            }
            self.read.consume(take);
            if over {
                let id = sniff_id(&self.line);
                self.line.clear();
                self.discarding = newline.is_none();
                return Some(Err(id));
            }
            if newline.is_some() {
                if self.discarding {
                    self.discarding = false;
                    continue;
                }
                let mut line = std::mem::take(&mut self.line);
                line.pop();
                return Some(Ok(trimmed(line)));
            }
        }
    }

    /// `message`, unless it is a request whose id is that of one still being answered: then
    /// the error reply it gets. A cancelled request will not be answered.
    fn admit(
        &self,
        message: RxJsonRpcMessage<RoleServer>,
    ) -> Result<RxJsonRpcMessage<RoleServer>, Box<TxJsonRpcMessage<RoleServer>>> {
        match &message {
            JsonRpcMessage::Request(r) if !self.in_flight.admit(&r.id) => {
                Err(Box::new(TxJsonRpcMessage::<RoleServer>::error(
                    ErrorData::new(
                        ErrorCode::INVALID_REQUEST,
                        format!(
                            "invalid request: the id {} is that of a request still being answered; give each request in flight an id of its own",
                            r.id
                        ),
                        None,
                    ),
                    Some(r.id.clone()),
                )))
            }
            JsonRpcMessage::Notification(n) => {
                if let ClientNotification::CancelledNotification(c) = &n.notification
                    && let Some(id) = &c.params.request_id
                {
                    self.in_flight.done(id);
                }
                Ok(message)
            }
            _ => Ok(message),
        }
    }

    /// Write an error reply on its own task: the write must not be cut short when the service
    /// loop drops the read that found the error.
    fn reply(&self, error: TxJsonRpcMessage<RoleServer>) {
        let write = self.write.clone();
        tokio::spawn(async move {
            let _ = write_message(&write, &error).await;
        });
    }
}

/// A line without its trailing carriage return.
fn trimmed(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    line
}

async fn write_message<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    message: &TxJsonRpcMessage<RoleServer>,
) -> std::io::Result<()> {
    let mut bytes = serialised(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut w = write.lock().await;
    w.write_all(&bytes).await?;
    w.flush().await
}

/// A message as JSON text: an error reply to a request whose id could not be read has
/// `"id": null`, as JSON-RPC 2.0 requires (the SDK leaves the member out).
fn serialised(message: &TxJsonRpcMessage<RoleServer>) -> serde_json::Result<Vec<u8>> {
    match message {
        JsonRpcMessage::Error(e) if e.id.is_none() => {
            let error = serde_json::to_string(&e.error)?;
            Ok(format!(r#"{{"jsonrpc":"2.0","id":null,"error":{error}}}"#).into_bytes())
        }
        _ => serde_json::to_vec(message),
    }
}

/// One line read as a client message, or the error reply it gets.
fn classify(
    line: &[u8],
) -> Result<Option<RxJsonRpcMessage<RoleServer>>, Box<TxJsonRpcMessage<RoleServer>>> {
    let error = |code: ErrorCode, message: String, id: Option<RequestId>| {
        Box::new(TxJsonRpcMessage::<RoleServer>::error(
            ErrorData::new(code, message, None),
            id,
        ))
    };
    let Ok(text) = std::str::from_utf8(line) else {
        return Err(error(
            ErrorCode::PARSE_ERROR,
            "parse error: the message is not UTF-8 text".into(),
            None,
        ));
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(None);
    }
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let first = match values.next() {
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            return Err(error(
                ErrorCode::PARSE_ERROR,
                format!("parse error: {e}"),
                None,
            ));
        }
        None => return Ok(None),
    };
    let id = request_id(&first);
    if values.next().is_some() {
        return Err(error(
            ErrorCode::INVALID_REQUEST,
            "invalid request: one JSON-RPC message per line, and this line holds more than one"
                .into(),
            id,
        ));
    }
    if first.is_array() {
        return Err(error(
            ErrorCode::INVALID_REQUEST,
            "invalid request: batches are not part of the Model Context Protocol; send one message per line".into(),
            None,
        ));
    }
    let method = first
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_string);
    match serde_json::from_value::<ClientJsonRpcMessage>(first) {
        Ok(ClientJsonRpcMessage::Request(r)) if matches!(&r.request, ClientRequest::CustomRequest(c) if KNOWN_METHODS.contains(&c.method.as_str())) => {
            Err(error(
                ErrorCode::INVALID_PARAMS,
                format!(
                    "invalid params: the params of `{}` do not have the method's shape",
                    method.unwrap_or_default()
                ),
                Some(r.id),
            ))
        }
        Ok(message) => Ok(Some(message)),
        Err(e) => match method {
            Some(m) if id.is_some() && KNOWN_METHODS.contains(&m.as_str()) => Err(error(
                ErrorCode::INVALID_PARAMS,
                format!("invalid params: the params of `{m}` do not have the method's shape: {e}"),
                id,
            )),
            _ => Err(error(
                ErrorCode::INVALID_REQUEST,
                format!("invalid request: {e}"),
                id,
            )),
        },
    }
}

/// How much of a line over the cap is kept to read its `id` from: clients write the `id`
/// before the params.
const HEAD_BYTES: usize = 4096;

/// The `id` of a message cut short: the value after the first `"id":` of its start.
fn sniff_id(head: &[u8]) -> Option<RequestId> {
    let text = String::from_utf8_lossy(head);
    let (_, rest) = text.split_once("\"id\"")?;
    let rest = rest.trim_start().strip_prefix(':')?;
    let value = serde_json::Deserializer::from_str(rest)
        .into_iter::<Value>()
        .next()?
        .ok()?;
    request_id(&serde_json::json!({ "id": value }))
}

/// The `id` of a request, when it has one of a usable type.
fn request_id(value: &Value) -> Option<RequestId> {
    match value.get("id")? {
        Value::Number(n) => n.as_i64().map(RequestId::Number),
        Value::String(s) => Some(RequestId::String(s.as_str().into())),
        _ => None,
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Done before the answer is written, so that a client may use the id again as soon
        // as it reads the answer.
        match &item {
            JsonRpcMessage::Response(r) => self.in_flight.done(&r.id),
            JsonRpcMessage::Error(e) => {
                if let Some(id) = &e.id {
                    self.in_flight.done(id);
                }
            }
            _ => {}
        }
        let write = self.write.clone();
        async move { write_message(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let Some(read) = self.next_line().await else {
                let until = *self
                    .give_up_at
                    .get_or_insert_with(|| Instant::now() + self.linger);
                self.in_flight.settle(until).await;
                return None;
            };
            let line = match read {
                Ok(line) => line,
                Err(id) => {
                    self.reply(TxJsonRpcMessage::<RoleServer>::error(
                        ErrorData::new(
                            ErrorCode::INVALID_REQUEST,
                            format!(
                                "invalid request: the message is over {} bytes, the most one line may hold",
                                self.max_line
                            ),
                            None,
                        ),
                        id,
                    ));
                    continue;
                }
            };
            match classify(&line).and_then(|m| m.map(|m| self.admit(m)).transpose()) {
                Ok(Some(message)) => return Some(message),
                Ok(None) => {}
                Err(reply) => self.reply(*reply),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Value {
        let reply = classify(line.as_bytes()).expect_err("an error reply");
        serde_json::to_value(reply).expect("a reply serialises")
    }

    #[test]
    fn each_malformed_line_gets_its_json_rpc_error() {
        let r = reply("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"");
        assert_eq!(r["error"]["code"], -32700);
        assert!(r.get("id").is_none());
        let r = reply(
            r#"{"jsonrpc":"2.0","id":7,"method":"ping"} {"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        );
        assert_eq!(
            (r["error"]["code"].clone(), r["id"].clone()),
            (json(-32600), json(7))
        );
        let r = reply(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
        assert_eq!(r["error"]["code"], -32600);
        let r = reply(r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":"check"}"#);
        assert_eq!(
            (r["error"]["code"].clone(), r["id"].clone()),
            (json(-32602), json("a"))
        );
        let r = reply(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"check_network","arguments":5}}"#,
        );
        assert_eq!(
            (r["error"]["code"].clone(), r["id"].clone()),
            (json(-32602), json(3))
        );
        let invalid = classify(b"{\"id\": 1, \"method\": \"ping\xff\"}").unwrap_err();
        assert_eq!(
            serde_json::to_value(invalid).unwrap()["error"]["code"],
            -32700
        );
    }

    #[test]
    fn a_request_and_blank_lines_pass() {
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Ok(Some(ClientJsonRpcMessage::Request(_)))
        ));
        assert!(matches!(classify(b"  "), Ok(None)));
    }

    #[test]
    fn the_id_of_a_message_cut_short_is_read_from_its_start() {
        let head = br#"{"jsonrpc":"2.0","id": 42,"method":"tools/call","params":{"arguments":{"network":"xxxx"#;
        assert_eq!(sniff_id(head), Some(RequestId::Number(42)));
        assert_eq!(
            sniff_id(br#"{"id":"k-1","#),
            Some(RequestId::String("k-1".into()))
        );
        assert_eq!(sniff_id(br#"{"method":"ping","params":{"#), None);
    }

    #[test]
    fn an_error_reply_without_a_readable_id_says_id_null() {
        let r = reply("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"");
        let text = serialised(&serde_json::from_value(r).unwrap()).unwrap();
        let written: Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(written["id"], Value::Null);
        assert_eq!(written["error"]["code"], -32700);
    }

    /// The messages `input` gives a transport, and what it wrote back.
    fn received(input: &'static [u8]) -> (Vec<Value>, Vec<Value>) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut transport = LineTransport::new(input, Vec::new(), 1 << 10, Duration::ZERO);
            let mut messages = Vec::new();
            while let Some(message) = transport.receive().await {
                messages.push(serde_json::to_value(message).unwrap());
            }
            // The error replies are written by tasks of their own.
            tokio::task::yield_now().await;
            let written = transport.write.lock().await.clone();
            let replies = written
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice(l).unwrap())
                .collect();
            (messages, replies)
        })
    }

    #[test]
    fn a_last_line_without_its_newline_is_read() {
        let (messages, replies) = received(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0]["id"], 1);
        assert!(replies.is_empty());
    }

    #[test]
    fn a_request_whose_id_is_in_flight_gets_an_error_and_does_not_run() {
        let (messages, replies) = received(
            b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}\n",
        );
        let ids: Vec<&Value> = messages.iter().map(|m| &m["id"]).collect();
        assert_eq!(ids, [&json(5), &json(6)]);
        assert_eq!(
            replies,
            [
                serde_json::json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32600,
                "message": "invalid request: the id 5 is that of a request still being answered; give each request in flight an id of its own"}})
            ]
        );
    }

    #[test]
    fn an_answered_or_cancelled_id_may_be_used_again() {
        let in_flight = InFlight::default();
        let id = RequestId::Number(3);
        assert!(in_flight.admit(&id));
        assert!(!in_flight.admit(&id));
        in_flight.done(&id);
        assert!(in_flight.admit(&id));
    }

    fn json(v: impl Into<Value>) -> Value {
        v.into()
    }
}
