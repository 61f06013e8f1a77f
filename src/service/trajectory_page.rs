//! A trajectory log as the report page shows it (`report --trajectory LOG`): each record in
//! words, with the kitchen time after it.

use crate::report::html::{TrajectoryPage, TrajectoryStep};
use crate::session::trajectory::{self, Call, Record, TrajectoryError};
use serde_json::Value;
use std::path::Path;

/// The log at `path` read (as a replay reads it, without running it) into the page's model.
pub fn page(path: &Path) -> Result<TrajectoryPage, TrajectoryError> {
    let (header, records) = trajectory::read(path)?;
    Ok(TrajectoryPage {
        source: path.display().to_string(),
        recipe: header.recipe,
        variation: header.variation,
        steps: (records.iter().enumerate())
            .map(|(i, r)| step(i + 1, r))
            .collect(),
    })
}

/// A string field of a logged answer (`text`, `error`, `line`), empty when it has none.
fn field(value: Option<&Value>, name: &str) -> String {
    let found = value.and_then(|v| v.get(name)).and_then(Value::as_str);
    found.unwrap_or_default().to_string()
}

/// What a logged answer says: its `text`, else why there is none (`error`).
fn said(value: Option<&Value>) -> String {
    match field(value, "text") {
        text if text.is_empty() => field(value, "error"),
        text => text,
    }
}

fn step(record: usize, r: &Record) -> TrajectoryStep {
    let line = r.line.clone().unwrap_or_default();
    let (call, given, message) = match r.call {
        Call::Act => ("act", line, said(r.observation.as_ref())),
        Call::Undo => {
            let message = match r.line {
                Some(_) => "took the line back",
                None => "nothing to undo",
            };
            ("undo", line, message.to_string())
        }
        Call::Progress => ("progress", String::new(), said(r.progress.as_ref())),
        Call::Finish => {
            let csv = field(r.score.as_ref(), "csv");
            let why = field(r.score.as_ref(), "why_no_dish");
            let message = [csv.trim(), why.trim()].join("\n").trim().to_string();
            ("finish", String::new(), message)
        }
        Call::Reset => (
            "reset",
            String::new(),
            "the network started again, empty".to_string(),
        ),
        Call::Look => (
            "look",
            r.name.clone().unwrap_or_default(),
            said(r.view.as_ref()),
        ),
        Call::Hint => {
            let message = match field(r.hint.as_ref(), "line") {
                line if line.is_empty() => "the network matches the whole gold".to_string(),
                line => format!("the gold's next action: {line}"),
            };
            ("hint", String::new(), message)
        }
        Call::Admissible => {
            let offered = r.admissible.as_ref().and_then(Value::as_array);
            let message = format!("{} line(s) run now", offered.map_or(0, Vec::len));
            ("admissible", query_words(r.query.as_ref()), message)
        }
    };
    TrajectoryStep {
        record,
        call: call.to_string(),
        given,
        outcome: (r.outcome.as_ref().and_then(Value::as_str))
            .unwrap_or_default()
            .to_string(),
        message,
        time: r.time.as_f64().unwrap_or_default(),
    }
}

/// An `admissible` query in words: `limit 3, primitive cut, using ?bowl`.
fn query_words(query: Option<&Value>) -> String {
    let limit = query.and_then(|q| q.get("limit")).and_then(Value::as_u64);
    let mut words = vec![format!("limit {}", limit.unwrap_or_default())];
    for name in ["primitive", "using"] {
        let value = field(query, name);
        if !value.is_empty() {
            words.push(format!("{name} {value}"));
        }
    }
    words.join(", ")
}
