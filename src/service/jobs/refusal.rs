//! Why a job gave no answer, as every front end says it.

use crate::report::json::value;
use serde::Serialize;
use serde_json::{Map, Value};

/// Why a job gave no answer: `error` says it so that an agent can act on it; the other fields
/// locate it (`diagnostics`, `at`) or say what was wrong (`kind`: `request`, `network`, ...).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refusal {
    pub error: String,
    #[serde(flatten)]
    pub detail: Map<String, Value>,
}

impl Refusal {
    pub fn new(error: impl Into<String>) -> Refusal {
        Refusal {
            error: error.into(),
            detail: Map::new(),
        }
    }

    /// A request that cannot be asked: a misspelt diet, a factor out of range.
    pub fn request(error: impl Into<String>) -> Refusal {
        Refusal::new(error).with("kind", "request")
    }

    pub fn with(mut self, key: &str, detail: impl Serialize) -> Refusal {
        self.detail.insert(key.to_owned(), value(&detail));
        self
    }

    /// A refusal the service already says as JSON (`{"error": ..., ...}`).
    pub fn of_json(refusal: Value) -> Refusal {
        let Value::Object(mut detail) = refusal else {
            return Refusal::new(refusal.to_string());
        };
        let error = match detail.remove("error") {
            Some(Value::String(error)) => error,
            other => other.map(|e| e.to_string()).unwrap_or_default(),
        };
        Refusal { error, detail }
    }

    pub fn to_json(&self) -> Value {
        value(self)
    }
}
