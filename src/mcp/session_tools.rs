//! How the tool server keeps the answers of the kitchen session's calls (`kitchen_start`,
//! `kitchen_act`, ...: jobs of `service::jobs::session_calls`, on the server's sessions; no hint, as
//! it reveals the gold to an agent being scored) short: at most [`MAX_ANSWER_CHARS`]
//! characters of JSON.

use serde_json::{Value, json};

/// The longest answer of a session tool, in characters of its JSON: an agent reads one after
/// every action, so each stays within about a thousand tokens. The opening of the largest
/// gold recipe (its text and the kitchen) and every answer of a replay of it fit whole; a
/// longer answer has its longest texts cut, then its longest lists, and says `truncated`.
pub const MAX_ANSWER_CHARS: usize = 6_000;

/// The shortest a text is cut to when an answer is too long.
const SHORTEST_CUT: usize = 200;

/// A session tool's answer cut to [`MAX_ANSWER_CHARS`].
pub(super) fn fit_answer(answer: &mut Value) {
    fit(answer, MAX_ANSWER_CHARS);
}

/// Cut `answer` until its JSON is at most `limit` characters: the longest text to what the
/// excess leaves of it (no shorter than [`SHORTEST_CUT`]), then, when every text is short,
/// the longest list by half; `truncated: true` says so. Every step makes the answer shorter,
/// so it ends.
pub(super) fn fit(answer: &mut Value, limit: usize) {
    let length = |answer: &Value| answer.to_string().chars().count();
    if length(answer) <= limit {
        return;
    }
    if let Value::Object(map) = answer {
        map.insert("truncated".into(), json!(true));
    }
    loop {
        let excess = length(answer).saturating_sub(limit);
        if excess == 0 {
            break;
        }
        let text = longest(answer, texts).filter(|t| t.chars().count() > SHORTEST_CUT + 1);
        if let Some(text) = text {
            let keep = text.chars().count().saturating_sub(excess + 1);
            if let Some((at, _)) = text.char_indices().nth(keep.max(SHORTEST_CUT)) {
                text.truncate(at);
                text.push('…');
            }
        } else if let Some(items) = longest(answer, lists).filter(|l| !l.is_empty()) {
            items.truncate(items.len() / 2);
        } else {
            break;
        }
    }
}

/// The largest of the parts `pick` finds in `value` (by the length of its JSON).
fn longest<'v, T: serde::Serialize + 'v>(
    value: &'v mut Value,
    pick: fn(&'v mut Value, &mut Vec<&'v mut T>),
) -> Option<&'v mut T> {
    let mut found = Vec::new();
    pick(value, &mut found);
    found
        .into_iter()
        .max_by_key(|part| serde_json::to_string(&**part).map_or(0, |s| s.chars().count()))
}

/// Every text in `value`, walked with an explicit stack (a dish tree nests deep).
fn texts<'v>(value: &'v mut Value, found: &mut Vec<&'v mut String>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(text) => found.push(text),
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}

/// Every list in `value` that holds no list (cutting an outer list's last entries may keep
/// the long one).
fn lists<'v>(value: &'v mut Value, found: &mut Vec<&'v mut Vec<Value>>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => {
                if items.iter().any(Value::is_array) {
                    stack.extend(items.iter_mut());
                } else {
                    found.push(items);
                }
            }
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_over_the_limit_is_cut_to_it_and_says_so() {
        let mut answer = json!({
            "text": "a".repeat(5_000),
            "objects": (0..300).map(|i| json!({"words": format!("object {i}")})).collect::<Vec<_>>(),
            "ok": true,
        });
        fit(&mut answer, 2_000);
        let length = answer.to_string().chars().count();
        assert!(length <= 2_000, "{length}");
        assert_eq!(answer["truncated"], json!(true));
        assert_eq!(
            answer["text"].as_str().map(|t| t.chars().count()),
            Some(201)
        );
        assert_eq!(answer["ok"], json!(true));
    }

    #[test]
    fn an_answer_within_the_limit_is_left_alone() {
        let mut answer = json!({"text": "é".repeat(100), "objects": [1, 2, 3]});
        let before = answer.clone();
        fit(&mut answer, 200);
        assert_eq!(answer, before);
    }

    #[test]
    fn a_long_text_is_cut_by_the_excess_and_no_more() {
        let mut answer = json!({"text": "x".repeat(1_000)});
        fit(&mut answer, 900);
        // `{"text":"`, `","truncated":true}`: 28 characters around the text, which keeps 871
        // and the ellipsis.
        assert_eq!(
            answer["text"].as_str().map(|t| t.chars().count()),
            Some(872)
        );
        assert_eq!(answer.to_string().chars().count(), 900);
    }
}
