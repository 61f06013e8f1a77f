//! The tool server's stdio transport: one JSON-RPC message per line, and an error reply to
//! every line that is not one, so that a client never waits on a message the server dropped.
//!
//! The SDK's own line transport ignores lines that are not JSON, drops lines over its length
//! cap with a log entry, and hands a known method whose params have the wrong shape to the
//! router as an unknown method (-32601). Here each gets the JSON-RPC error it is: -32700 for
//! text that is not UTF-8 or not JSON, -32600 for JSON that is not one request (two objects on
//! a line, a batch, a line over the cap), -32602 for a known method's params of the wrong
//! shape, each with the request's `id` where one can be read.

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, RequestId};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

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
}

impl<R: AsyncRead + Unpin + Send, W: AsyncWrite + Unpin + Send + 'static> LineTransport<R, W> {
    pub fn new(read: R, write: W, max_line: usize) -> Self {
        LineTransport {
            read: BufReader::new(read),
            write: Arc::new(Mutex::new(write)),
            max_line,
            line: Vec::new(),
            discarding: false,
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
                return None;
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
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Some(Ok(line));
            }
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

async fn write_message<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    message: &TxJsonRpcMessage<RoleServer>,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut w = write.lock().await;
    w.write_all(&bytes).await?;
    w.flush().await
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
        let write = self.write.clone();
        async move { write_message(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = match self.next_line().await? {
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
            match classify(&line) {
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

    fn json(v: impl Into<Value>) -> Value {
        v.into()
    }
}
