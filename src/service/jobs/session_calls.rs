//! The kitchen session's calls as jobs: start a session, give it a line, ask what runs now,
//! its language, what a variable or a place holds, take a line back, how far it is, finish
//! it; and, with no session, the kitchen's inventory and the action language.
//!
//! A call names its session in one of two ways ([`SessionAt`]): by the id `kitchen_start`
//! gave, in the store of a front end that keeps sessions between calls (the tool server's), or
//! by its recipe and the lines given so far, a session made for the call alone. The second
//! form keeps nothing, so the same request gets the same answer from every front end, the
//! one-shot ones (the command line's `job`, Python's `job`) too.
//!
//! Who holds the sessions named by id is a [`SessionHolder`]: the tool server's
//! [`SessionStore`] (many sessions, started by `kitchen_start`), or Python's `Kitchen`, which
//! holds its own one session (named by no id). A call works on either alike, so a Kitchen's
//! call answers what the tool server answers for the same session.

use super::refusal::Refusal;
use crate::benchmark::DataChoice;
use crate::evaluate::Evaluator;
use crate::metrics::metric::{Metric, MetricSet};
use crate::report::dish_tree::{self, DishNode};
use crate::service::scoring::score_json;
use crate::service::sessions::{Finished, SessionStore, StoreError, kitchen_summary};
use crate::service::variation::Variation;
use crate::service::workspace::Workspace;
use crate::session::admissible::{Candidate, Query};
use crate::session::language::{Primitive, primitives as language_of};
use crate::session::observation::{Located, Observation, Outcome, View};
use crate::session::progress::Progress;
use crate::session::trajectory::Log;
use crate::session::{Session, SessionError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

/// How many admissible lines an answer gives unless asked: they fit a session's answer.
const ADMISSIBLE_IN_AN_ANSWER: usize = 20;

/// No arguments.
#[derive(Deserialize, JsonSchema)]
pub struct LanguageRequest {}

/// No arguments.
#[derive(Deserialize, JsonSchema)]
pub struct InventoryRequest {}

/// The action language of the workspace's kitchen.
#[derive(Serialize)]
pub struct LanguageAnswer {
    pub primitives: Vec<Primitive>,
}

/// What the workspace's initial kitchen holds, as a dish tree.
#[derive(Serialize)]
pub struct InventoryAnswer {
    pub kitchen: DishNode,
}

/// The action language of the workspace's kitchen, no session needed.
pub fn language(workspace: &Workspace, _: LanguageRequest) -> Result<LanguageAnswer, Refusal> {
    let primitives = language_of(&workspace.model().catalogue);
    Ok(LanguageAnswer { primitives })
}

/// The workspace's initial kitchen: its places and what they hold, with amounts.
pub fn inventory(workspace: &Workspace, _: InventoryRequest) -> Result<InventoryAnswer, Refusal> {
    let model = workspace.model();
    let kitchen = dish_tree::build(model, &model.kitchen);
    Ok(InventoryAnswer { kitchen })
}

/// The data a session is scored by: `profile` and `benchmark` as kitchen_start takes them.
#[derive(Deserialize, JsonSchema)]
pub struct SessionData {
    /// The reference version: `2024` or `2023` (default: the front end's, `--reference`).
    pub profile: Option<String>,
    /// `demo` for the demo benchmark, or the folder of a benchmark on the evaluator's machine
    /// (default: the front end's, `--benchmark`).
    pub benchmark: Option<String>,
}

impl SessionData {
    /// The evaluator of the data asked for, with the workspace's other settings.
    fn evaluator(&self, workspace: &Workspace) -> Result<Arc<Evaluator>, Refusal> {
        let profile = self.profile.as_deref().map(str::parse).transpose();
        let profile = profile.map_err(|e: String| Refusal::new(e))?;
        let benchmark = self
            .benchmark
            .as_ref()
            .map(|b| DataChoice::from(OsString::from(b)));
        workspace
            .evaluator_of(profile, benchmark)
            .map_err(|e| Refusal::new(e.to_string()))
    }
}

/// Who holds the sessions a call names: the tool server's store, or a front end's own session
/// (Python's `Kitchen`). A session call works on a holder's session through these alone.
pub trait SessionHolder {
    /// The store that starts sessions (`kitchen_start`), when the holder is one.
    fn store(&self) -> Option<&SessionStore>;
    /// `work` on the session `id` names; no id: the holder's own session, when it has one.
    fn with_session(
        &self,
        id: Option<&str>,
        work: &mut dyn FnMut(&mut Session),
    ) -> Result<(), Refusal>;
    /// One line given to the session `id` names ([`Session::act`], within the holder's
    /// bounds); `attempt`: a line the session does not take is a `rejected` observation
    /// ([`Session::attempt`]), not a refusal.
    fn act(&self, id: Option<&str>, line: &str, attempt: bool) -> Result<Observation, Refusal>;
    /// The session's network scored; whether the session ends with it is the holder's to say.
    fn finish(&self, id: Option<&str>) -> Result<Finished, Refusal>;
    /// A fork of the session `id` names, held by the holder: its id, for a holder of many.
    fn fork(&self, id: Option<&str>) -> Result<Option<String>, Refusal>;
    /// The generated variation the session `id` names is on, if any (a store's sessions are
    /// on the official tasks).
    fn variation(&self, _id: Option<&str>) -> Option<Arc<Variation>> {
        None
    }
}

/// The refusal of a call that names no session where the holder has none of its own.
fn unnamed() -> Refusal {
    Refusal::request(
        "name the session: `session` (the id kitchen_start gave), or `recipe` and the `lines` given so far",
    )
}

/// The store's session `id`, or [`unnamed`].
fn named(id: Option<&str>) -> Result<&str, Refusal> {
    id.ok_or_else(unnamed)
}

impl SessionHolder for SessionStore {
    fn store(&self) -> Option<&SessionStore> {
        Some(self)
    }

    fn with_session(
        &self,
        id: Option<&str>,
        work: &mut dyn FnMut(&mut Session),
    ) -> Result<(), Refusal> {
        self.with(named(id)?, work).map_err(store_refusal)
    }

    fn act(&self, id: Option<&str>, line: &str, attempt: bool) -> Result<Observation, Refusal> {
        // Through the store, which bounds its sessions' lines.
        SessionStore::act(self, named(id)?, line, attempt).map_err(store_refusal)
    }

    /// The session ends: its id answers no more.
    fn finish(&self, id: Option<&str>) -> Result<Finished, Refusal> {
        SessionStore::finish(self, named(id)?).map_err(store_refusal)
    }

    /// A new session of the store, with its own id.
    fn fork(&self, id: Option<&str>) -> Result<Option<String>, Refusal> {
        let fork = self
            .with(named(id)?, |s| s.clone())
            .map_err(store_refusal)?;
        self.open(fork).map(Some).map_err(store_refusal)
    }
}

/// Which session a call is on: `session`, an open one of the front end's (none: the front
/// end's own, Python's `Kitchen`); or, without it, a session made for this call alone from
/// `recipe` and the `lines` given so far.
#[derive(Deserialize, JsonSchema)]
pub struct SessionAt {
    /// The session's id, as kitchen_start gave it.
    pub session: Option<String>,
    /// Without `session`: the recipe of a session made for this call alone (as kitchen_start
    /// takes it), which is given `lines` first.
    pub recipe: Option<String>,
    /// Without `session`: the lines the session holds so far, in order (a header first, when
    /// one was given); each must be one the session takes.
    #[serde(default)]
    pub lines: Vec<String>,
    #[serde(flatten)]
    pub data: SessionData,
}

/// A call's session.
pub(super) enum Target<'a> {
    /// A session of the holder: by its id, or (none) the holder's own.
    Held(Option<&'a str>),
    /// A session made for the call.
    Alone(Box<Session>),
}

fn store_refusal(e: StoreError) -> Refusal {
    Refusal::new(e.to_string())
}

fn session_refusal(e: SessionError) -> Refusal {
    Refusal::new(e.to_string())
}

impl SessionAt {
    /// The session the call names, made and given its lines when it has no id.
    pub(super) fn target(&self, workspace: &Workspace) -> Result<Target<'_>, Refusal> {
        let alone = self.recipe.is_some()
            || !self.lines.is_empty()
            || self.data.profile.is_some()
            || self.data.benchmark.is_some();
        match (&self.session, &self.recipe) {
            (Some(_), _) if alone => Err(Refusal::request(
                "name the session by `session` alone, or by `recipe` and `lines` without it",
            )),
            (Some(id), _) => Ok(Target::Held(Some(id))),
            (None, None) => Ok(Target::Held(None)),
            (None, Some(recipe)) => {
                let evaluator = self.data.evaluator(workspace)?;
                let mut session =
                    Session::with_evaluator(evaluator, recipe).map_err(session_refusal)?;
                for (i, line) in self.lines.iter().enumerate() {
                    session.act(line).map_err(|e| {
                        Refusal::request(format!("line {} of `lines` is not taken: {e}", i + 1))
                    })?;
                }
                Ok(Target::Alone(Box::new(session)))
            }
        }
    }
}

/// `work` on the call's session: the holder's, or one made for the call.
pub(super) fn on_session<R>(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    at: &SessionAt,
    work: impl FnOnce(&mut Session) -> Result<R, SessionError>,
) -> Result<R, Refusal> {
    match at.target(workspace)? {
        Target::Held(id) => {
            let (mut work, mut done) = (Some(work), None);
            sessions.with_session(id, &mut |session| done = work.take().map(|w| w(session)))?;
            done.ok_or_else(|| Refusal::new("the session's holder did not reach it"))?
        }
        Target::Alone(mut session) => work(&mut session),
    }
    .map_err(session_refusal)
}

/// A session to start.
#[derive(Deserialize, JsonSchema)]
pub struct StartRequest {
    /// The recipe's id, such as `afghan-biscuits` (the gold networks' resources list them).
    pub recipe: String,
    #[serde(flatten)]
    pub data: SessionData,
    /// A file on the evaluator's machine to log the session's calls to, as JSON lines (a
    /// trajectory that `replay` runs again); it must not exist yet (no file is replaced).
    pub log: Option<PathBuf>,
}

/// A session started.
#[derive(Serialize)]
pub struct StartAnswer {
    pub session: String,
    pub recipe: String,
    pub recipe_text: Option<String>,
    /// The kitchen in short ([`kitchen_summary`]).
    pub kitchen: String,
    pub time: Value,
    pub limits: StartLimits,
}

/// The bounds of a session of the store.
#[derive(Serialize)]
pub struct StartLimits {
    pub idle_seconds: u64,
    pub lines: usize,
}

/// A new session of the store on a recipe: its id, the recipe text and the kitchen in short.
pub fn kitchen_start(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: StartRequest,
) -> Result<StartAnswer, Refusal> {
    let sessions = sessions.store().ok_or_else(|| {
        Refusal::request("this front end's session is its own (Python: a `Kitchen`); kitchen_start starts sessions of the tool server's store")
    })?;
    let evaluator = request.data.evaluator(workspace)?;
    // Made before the session, so that a log that exists is refused before any session
    // opens; removed again when the start is refused, so that a refusal leaves no file.
    let log = request.log.as_deref().map(Log::create_new).transpose();
    let log = log.map_err(|e| Refusal::new(e.to_string()))?;
    let started = sessions.start(evaluator.clone(), &request.recipe);
    let (id, opening) = started.map_err(|e| {
        if let Some(log) = &log {
            let _ = std::fs::remove_file(log.path());
        }
        store_refusal(e)
    })?;
    if let Some(log) = log {
        let kitchen = workspace.data().kitchen.as_deref();
        sessions
            .log_into(&id, log, kitchen)
            .map_err(store_refusal)?;
    }
    let limits = sessions.limits();
    Ok(StartAnswer {
        session: id,
        recipe: opening.recipe,
        recipe_text: opening.recipe_text,
        kitchen: kitchen_summary(&evaluator.model, &opening.places),
        time: opening.time,
        limits: StartLimits {
            idle_seconds: limits.idle.as_secs(),
            lines: limits.lines,
        },
    })
}

/// A line for a session.
#[derive(Deserialize, JsonSchema)]
pub struct ActRequest {
    #[serde(flatten)]
    pub at: SessionAt,
    /// One line of MUHAI Cooking Language: an action such as
    /// `(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 115 g)`.
    pub line: String,
    /// The observation whole, the objects' trees (`object`) with their words, and a line the
    /// session does not take answered as an observation (outcome `rejected`), not refused:
    /// what a program reads (Python's `Kitchen.step`).
    #[serde(default)]
    pub detail: bool,
}

/// What a line did: in short, or (asked `detail`) the observation whole.
#[derive(Serialize)]
#[serde(untagged)]
pub enum ActAnswer {
    Short(Acted),
    Detailed(Box<Observation>),
}

/// What a line did, the objects in words.
#[derive(Serialize)]
pub struct Acted {
    pub ok: bool,
    pub outcome: Outcome,
    pub line: usize,
    /// The observation in words, without the objects' words `objects` gives.
    pub text: String,
    pub objects: Vec<Made>,
    pub diagnostics: Vec<Located>,
    pub time: Value,
}

/// An object a line made, in words.
#[derive(Serialize)]
pub struct Made {
    pub variable: String,
    pub words: String,
}

/// One line appended to the session's network and run on its kitchen.
pub fn kitchen_act(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: ActRequest,
) -> Result<ActAnswer, Refusal> {
    let (line, attempt) = (&request.line, request.detail);
    let seen = match request.at.target(workspace)? {
        Target::Held(id) => sessions.act(id, line, attempt)?,
        Target::Alone(mut session) if attempt => session.attempt(line),
        Target::Alone(mut session) => session.act(line).map_err(session_refusal)?,
    };
    if attempt {
        return Ok(ActAnswer::Detailed(Box::new(seen)));
    }
    Ok(ActAnswer::Short(Acted {
        ok: seen.ok,
        outcome: seen.outcome,
        line: seen.line,
        text: without_objects(&seen).to_owned(),
        objects: seen
            .objects
            .iter()
            .map(|o| Made {
                variable: o.variable.clone(),
                words: o.words.clone(),
            })
            .collect(),
        diagnostics: seen.diagnostics.clone(),
        time: seen.time.clone(),
    }))
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

/// The lines that run now, filtered.
#[derive(Deserialize, JsonSchema)]
pub struct AdmissibleRequest {
    #[serde(flatten)]
    pub at: SessionAt,
    /// At most this many lines (default 20).
    pub limit: Option<usize>,
    /// Only lines of this primitive (`transfer-contents`).
    pub primitive: Option<String>,
    /// Only lines taking this variable (`?butter`) as an input.
    pub using: Option<String>,
    /// Each line with its primitive and what each input uses (`inputs`): what a program reads
    /// (Python's `Kitchen.admissible`).
    #[serde(default)]
    pub detail: bool,
}

#[derive(Serialize)]
pub struct AdmissibleAnswer {
    pub admissible: Admissible,
}

/// The lines that run now: in short, or (asked `detail`) whole.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Admissible {
    Short(Vec<AdmissibleLine>),
    Detailed(Vec<Candidate>),
}

/// A line that runs now.
#[derive(Serialize)]
pub struct AdmissibleLine {
    pub line: String,
    pub example: String,
    pub placeholders: Vec<Free>,
    pub fails: bool,
}

/// A free value of an admissible line.
#[derive(Serialize)]
pub struct Free {
    pub argument: String,
    pub bound: String,
    pub example: String,
}

/// The lines that run now in the session's kitchen.
pub fn kitchen_admissible(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: AdmissibleRequest,
) -> Result<AdmissibleAnswer, Refusal> {
    let query = Query {
        limit: request.limit.unwrap_or(ADMISSIBLE_IN_AN_ANSWER),
        primitive: request.primitive,
        using: request.using,
    };
    let found = on_session(workspace, sessions, &request.at, |s| {
        Ok(s.admissible(&query))
    })?;
    if request.detail {
        return Ok(AdmissibleAnswer {
            admissible: Admissible::Detailed(found),
        });
    }
    let short = found
        .into_iter()
        .map(|c| AdmissibleLine {
            line: c.line,
            example: c.example,
            placeholders: c
                .placeholders
                .into_iter()
                .map(|p| Free {
                    argument: p.argument,
                    bound: p.bound,
                    example: p.example,
                })
                .collect(),
            fails: c.fails,
        })
        .collect();
    Ok(AdmissibleAnswer {
        admissible: Admissible::Short(short),
    })
}

/// A session's language, or one primitive of it.
#[derive(Deserialize, JsonSchema)]
pub struct PrimitivesRequest {
    #[serde(flatten)]
    pub at: SessionAt,
    /// One primitive to tell in full (its arguments with role, type and default, its cases,
    /// what it does); without it, every primitive's form and what it does.
    pub primitive: Option<String>,
    /// Without `primitive`: every primitive in full, what a program reads (Python's
    /// `Kitchen.primitives`).
    #[serde(default)]
    pub detail: bool,
}

/// One primitive in full, or every primitive's form (`form ; what it does`).
#[derive(Serialize)]
#[serde(untagged)]
pub enum PrimitivesAnswer {
    One { primitive: Box<Primitive> },
    Every { primitives: Vec<String> },
    Full { primitives: Vec<Primitive> },
}

/// The action language of the session.
pub fn kitchen_primitives(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: PrimitivesRequest,
) -> Result<PrimitivesAnswer, Refusal> {
    let primitives = on_session(workspace, sessions, &request.at, |s| Ok(s.primitives()))?;
    match request.primitive {
        Some(name) => match primitives.into_iter().find(|p| p.name == name) {
            Some(primitive) => Ok(PrimitivesAnswer::One {
                primitive: Box::new(primitive),
            }),
            None => Err(Refusal::new(format!(
                "no primitive `{name}` in the language"
            ))),
        },
        None if request.detail => Ok(PrimitivesAnswer::Full { primitives }),
        None => Ok(PrimitivesAnswer::Every {
            primitives: primitives
                .iter()
                .map(|p| format!("{} ; {}", p.form, p.does))
                .collect(),
        }),
    }
}

/// A variable or a place to look at.
#[derive(Deserialize, JsonSchema)]
pub struct LookRequest {
    #[serde(flatten)]
    pub at: SessionAt,
    /// A variable (`?butter`) or a place of the kitchen (`fridge`, `pantry`, `counter-top`).
    pub name: String,
    /// Beside the words, the object's or the place's tree (`object`, `place`): what a program
    /// reads (Python's `Kitchen.look`).
    #[serde(default)]
    pub detail: bool,
}

/// What a variable or a place holds: in words, or (asked `detail`) with its tree.
#[derive(Serialize)]
#[serde(untagged)]
pub enum LookAnswer {
    Words { text: String },
    Detailed(Box<View>),
}

/// What a variable or a place of the session holds now, in words.
pub fn kitchen_look(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: LookRequest,
) -> Result<LookAnswer, Refusal> {
    let view = on_session(workspace, sessions, &request.at, |s| s.look(&request.name))?;
    Ok(match request.detail {
        true => LookAnswer::Detailed(Box::new(view)),
        false => LookAnswer::Words { text: view.text },
    })
}

/// A session, for the calls that take nothing else.
#[derive(Deserialize, JsonSchema)]
pub struct SessionRequest {
    #[serde(flatten)]
    pub at: SessionAt,
}

#[derive(Serialize)]
pub struct UndoAnswer {
    pub undone: String,
}

/// The session's last line taken back.
pub fn kitchen_undo(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: SessionRequest,
) -> Result<UndoAnswer, Refusal> {
    let undone = on_session(workspace, sessions, &request.at, Session::undo)?;
    Ok(UndoAnswer { undone })
}

/// How far the session's network is, the session going on.
pub fn kitchen_progress(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: SessionRequest,
) -> Result<Progress, Refusal> {
    on_session(workspace, sessions, &request.at, |s| s.progress())
}

/// A session to finish.
#[derive(Deserialize, JsonSchema)]
pub struct FinishRequest {
    #[serde(flatten)]
    pub at: SessionAt,
    /// Beside the score, the network's row as the reference's CSV prints it (`csv`) and its
    /// evaluation as `evaluate --format json` writes it (`unit`): what a program reads
    /// (Python's `Kitchen.finish`).
    #[serde(default)]
    pub detail: bool,
}

/// A session finished and scored.
#[derive(Serialize)]
pub struct FinishAnswer {
    /// The session's id, for a session of the store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The lines of its network (the header aside).
    pub lines: usize,
    /// What `score_network` answers for the network.
    pub score: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_no_dish: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub csv: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<Value>,
}

/// The session ended and its network scored against the gold network.
pub fn kitchen_finish(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: FinishRequest,
) -> Result<FinishAnswer, Refusal> {
    let (finished, id) = match request.at.target(workspace)? {
        Target::Held(id) => (sessions.finish(id)?, id.map(str::to_owned)),
        Target::Alone(session) => (
            Finished {
                score: session.finish(),
                network: session.network(),
            },
            None,
        ),
    };
    let metrics = MetricSet::from_words(&Metric::ALL.map(Metric::name));
    let Finished { score, network } = finished;
    let (csv, unit) = match request.detail {
        true => (Some(score.csv), Some(score.json)),
        false => (None, None),
    };
    let evaluated = score.result.map(|row| vec![row]);
    Ok(FinishAnswer {
        session: id,
        lines: network.lines().count().saturating_sub(1),
        score: score_json(&network, evaluated, &metrics).unwrap_or_else(|refused| refused),
        why_no_dish: score.why_no_dish,
        csv,
        unit,
    })
}
