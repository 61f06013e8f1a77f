//! The kitchen session tools (`kitchen_start`, `kitchen_act`, `kitchen_look`, `kitchen_undo`,
//! `kitchen_progress`, `kitchen_finish`, `kitchen_admissible`, `kitchen_primitives`; no hint, as
//! it reveals the gold to an agent being scored): a call's arguments turned into a call of the server's
//! [`SessionStore`](crate::service::sessions::SessionStore), and its answer into short JSON, at most [`MAX_ANSWER_CHARS`] characters.

use super::{KitchenServer, refuse};
use crate::benchmark::DataChoice;
use crate::metrics::metric::{Metric, MetricSet};
use crate::service::scoring::score_json;
use crate::service::session::admissible::Query;
use crate::service::session::observation::Observation;
use crate::service::session::trajectory::Log;
use crate::service::sessions::{StoreError, kitchen_summary};
use rmcp::model::CallToolResult;
use rmcp::schemars;
use serde::Deserialize;
use serde_json::{Value, json};
use std::ffi::OsString;
use std::path::Path;

/// The longest answer of a session tool, in characters of its JSON: an agent reads one after
/// every action, so each stays within about a thousand tokens. The opening of the largest
/// gold recipe (its text and the kitchen) and every answer of a replay of it fit whole; a
/// longer answer has its longest texts cut, then its longest lists, and says `truncated`.
pub const MAX_ANSWER_CHARS: usize = 6_000;

/// The shortest a text is cut to when an answer is too long.
const SHORTEST_CUT: usize = 200;

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct StartArgs {
    /// The recipe's id, such as `afghan-biscuits` (the gold networks' resources list them).
    recipe: String,
    /// The reference version: `2024` or `2023` (default: the server's, `--reference`).
    profile: Option<String>,
    /// `demo` for the demo benchmark, or the folder of a benchmark on the server's machine
    /// (default: the server's, `--benchmark`).
    benchmark: Option<String>,
    /// A file on the server's machine to log the session's calls to, as JSON lines (a
    /// trajectory that `replay` runs again); it must not exist yet (the server replaces no file).
    log: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct ActArgs {
    /// The session's id, as kitchen_start gave it.
    session: String,
    /// One line of MUHAI Cooking Language: an action such as
    /// `(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 115 g)`.
    line: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct LookArgs {
    /// The session's id, as kitchen_start gave it.
    session: String,
    /// A variable (`?butter`) or a place of the kitchen (`fridge`, `pantry`, `counter-top`).
    name: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct SessionArgs {
    /// The session's id, as kitchen_start gave it.
    session: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct AdmissibleArgs {
    /// The session's id, as kitchen_start gave it.
    session: String,
    /// At most this many lines (default 20).
    limit: Option<usize>,
    /// Only lines of this primitive (`transfer-contents`).
    primitive: Option<String>,
    /// Only lines taking this variable (`?butter`) as an input.
    using: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct PrimitivesArgs {
    /// The session's id, as kitchen_start gave it.
    session: String,
    /// One primitive to tell in full (its arguments with role, type and default, its cases,
    /// what it does); without it, every primitive's form and what it does.
    primitive: Option<String>,
}

/// How many admissible lines a tool answer gives unless asked: they fit the answer's limit.
const ADMISSIBLE_IN_AN_ANSWER: usize = 20;

fn failed(e: StoreError) -> CallToolResult {
    refuse(json!({ "error": e.to_string() }))
}

/// A session tool's answer cut to [`MAX_ANSWER_CHARS`].
pub(super) fn fit_answer(answer: &mut Value) {
    fit(answer, MAX_ANSWER_CHARS);
}

impl KitchenServer {
    pub(super) fn kitchen_start_work(&self, args: &StartArgs) -> CallToolResult {
        let profile = match args.profile.as_deref().map(str::parse).transpose() {
            Ok(profile) => profile,
            Err(e) => return refuse(json!({ "error": e })),
        };
        let benchmark = args
            .benchmark
            .as_ref()
            .map(|b| DataChoice::from(OsString::from(b)));
        let evaluator = match self.workspace.evaluator_of(profile, benchmark) {
            Ok(evaluator) => evaluator,
            Err(e) => return refuse(json!({ "error": e.to_string() })),
        };
        let log = match args
            .log
            .as_deref()
            .map(|p| Log::create_new(Path::new(p)))
            .transpose()
        {
            Ok(log) => log,
            Err(e) => return refuse(json!({ "error": e.to_string() })),
        };
        let (id, opening) = match self.sessions.start(evaluator.clone(), &args.recipe) {
            Ok(started) => started,
            Err(e) => return failed(e),
        };
        if let Some(log) = log {
            let kitchen = self.workspace.data().kitchen.as_deref();
            if let Err(e) = self.sessions.log_into(&id, log, kitchen) {
                return failed(e);
            }
        }
        let limits = self.sessions.limits();
        CallToolResult::structured(json!({
            "session": id,
            "recipe": opening.recipe,
            "recipe_text": opening.recipe_text,
            "kitchen": kitchen_summary(&evaluator.model, &opening.places),
            "time": opening.time,
            "limits": {"idle_seconds": limits.idle.as_secs(), "lines": limits.lines},
        }))
    }

    pub(super) fn kitchen_act_work(&self, args: &ActArgs) -> CallToolResult {
        match self.sessions.act(&args.session, &args.line) {
            Ok(seen) => {
                let objects: Vec<Value> = seen
                    .objects
                    .iter()
                    .map(|o| json!({"variable": o.variable, "words": o.words}))
                    .collect();
                CallToolResult::structured(json!({
                    "ok": seen.ok,
                    "outcome": seen.outcome,
                    "line": seen.line,
                    "text": without_objects(&seen),
                    "objects": objects,
                    "diagnostics": seen.diagnostics,
                    "time": seen.time,
                }))
            }
            Err(e) => failed(e),
        }
    }

    pub(super) fn kitchen_admissible_work(&self, args: &AdmissibleArgs) -> CallToolResult {
        let query = Query {
            limit: args.limit.unwrap_or(ADMISSIBLE_IN_AN_ANSWER),
            primitive: args.primitive.clone(),
            using: args.using.clone(),
        };
        match self.sessions.admissible(&args.session, &query) {
            Ok(found) => {
                let lines: Vec<Value> = found
                    .iter()
                    .map(|c| {
                        let free: Vec<Value> = c
                            .placeholders
                            .iter()
                            .map(|p| json!({"argument": p.argument, "bound": p.bound, "example": p.example}))
                            .collect();
                        json!({"line": c.line, "example": c.example, "placeholders": free, "fails": c.fails})
                    })
                    .collect();
                CallToolResult::structured(json!({ "admissible": lines }))
            }
            Err(e) => failed(e),
        }
    }

    pub(super) fn kitchen_primitives_work(&self, args: &PrimitivesArgs) -> CallToolResult {
        let primitives = match self.sessions.primitives(&args.session) {
            Ok(primitives) => primitives,
            Err(e) => return failed(e),
        };
        match &args.primitive {
            Some(name) => match primitives.iter().find(|p| &p.name == name) {
                Some(p) => CallToolResult::structured(json!({ "primitive": p })),
                None => {
                    refuse(json!({ "error": format!("no primitive `{name}` in the language") }))
                }
            },
            None => {
                let forms: Vec<String> = primitives
                    .iter()
                    .map(|p| format!("{} ; {}", p.form, p.does))
                    .collect();
                CallToolResult::structured(json!({ "primitives": forms }))
            }
        }
    }

    pub(super) fn kitchen_look_work(&self, args: &LookArgs) -> CallToolResult {
        match self.sessions.look(&args.session, &args.name) {
            Ok(view) => CallToolResult::structured(json!({ "text": view.text })),
            Err(e) => failed(e),
        }
    }

    pub(super) fn kitchen_progress_work(&self, args: &SessionArgs) -> CallToolResult {
        match self.sessions.progress(&args.session) {
            Ok(progress) => CallToolResult::structured(crate::report::json::value(&progress)),
            Err(e) => failed(e),
        }
    }

    pub(super) fn kitchen_undo_work(&self, args: &SessionArgs) -> CallToolResult {
        match self.sessions.undo(&args.session) {
            Ok(line) => CallToolResult::structured(json!({ "undone": line })),
            Err(e) => failed(e),
        }
    }

    pub(super) fn kitchen_finish_work(&self, args: &SessionArgs) -> CallToolResult {
        let finished = match self.sessions.finish(&args.session) {
            Ok(finished) => finished,
            Err(e) => return failed(e),
        };
        let metrics = MetricSet::from_words(&Metric::ALL.map(Metric::name));
        let evaluated = finished.score.result.map(|row| vec![row]);
        let mut score =
            score_json(&finished.network, evaluated, &metrics).unwrap_or_else(|refused| refused);
        // As score_network shortens the same evaluation.
        super::shorten(&mut score);
        let mut answer = json!({
            "session": args.session,
            "lines": finished.network.lines().count().saturating_sub(1),
            "score": score,
        });
        if let Some(why) = finished.score.why_no_dish {
            answer["why_no_dish"] = Value::from(why);
        }
        CallToolResult::structured(answer)
    }
}

/// The observation's text without the objects' words it ends with (`mix ran: ?dough = a
/// medium bowl holding ...`), which the answer's `objects` give: said once, an answer about
/// a large mixture stays half as long. A text that does not end with them is kept whole.
fn without_objects(seen: &Observation) -> &str {
    let made: Vec<String> = seen
        .objects
        .iter()
        .map(|o| format!("{} = {}", o.variable, o.words))
        .collect();
    let made = format!(": {}", made.join("; "));
    match seen.objects.is_empty() {
        true => &seen.text,
        false => seen.text.strip_suffix(&made).unwrap_or(&seen.text),
    }
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
