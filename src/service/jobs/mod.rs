//! The job table: every job an agent may ask for, as one typed function
//! `fn(&Workspace, Request) -> Result<Answer, Refusal>` with serde request and answer types.
//! The front ends serve the table, never a job of their own: the tool server makes a tool of
//! each entry (its input schema derived from the request type), the Python package calls
//! `_native.job(name, request)`, and the command line's `job NAME REQUEST` prints the answer.
//! So an answer is made, and written as JSON, in one place ([`Job::answer`]): the same
//! request gets the same answer from every front end.
//!
//! The kitchen session's calls are jobs too (`session_calls.rs`): they take the front end's
//! [`SessionHolder`] besides the workspace (the tool server's [`SessionStore`], or Python's
//! `Kitchen`, which holds its one session), and a front end that keeps nothing between calls
//! answers them on a session made for the call from the lines given so far.
//!
//! A new job is a function here (or in a file of this folder) and one entry in [`JOBS`].

mod networks;
mod refusal;
mod run_answers;
mod scored_files;
mod session_calls;
mod session_views;
mod tasks;

pub use networks::*;
pub use refusal::Refusal;
pub use run_answers::*;
pub use scored_files::*;
pub use session_calls::*;
pub use session_views::*;
pub use tasks::*;

use super::context::DataContext;
use super::outcome::{AppError, Exit, Outcome};
use super::sessions::SessionStore;
use super::workspace::Workspace;
use crate::base::suggest::closest;
use crate::report::json::{pretty, value};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::{Read, Write};

/// One entry of the table.
pub struct Job {
    /// The job's name: `_native.job`'s and `job NAME`'s.
    pub name: &'static str,
    /// The tool the tool server serves it as.
    pub tool: &'static str,
    /// What it answers, for an agent choosing a tool.
    pub description: &'static str,
    /// How the tool server keeps the answer short for an agent's context.
    pub fit: Fit,
    /// The request's JSON schema.
    pub schema: fn() -> schemars::Schema,
    /// The job on a request as JSON, in a workspace and with a front end's kitchen sessions,
    /// its answer as JSON.
    pub run: fn(&Workspace, &dyn SessionHolder, Value) -> Result<Value, Refusal>,
}

/// How the tool server keeps a job's answer short for an agent's context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Long lists and texts cut at every depth, but for the field named, which an agent needs
    /// whole (a rewritten network).
    Shortened { whole: Option<&'static str> },
    /// A kitchen session's answer, read after every action: cut as a whole to a few thousand
    /// characters (its longest texts first).
    Session,
    /// A session's score: shortened as `score_network`'s answer is, then cut as a session's
    /// answer.
    SessionScore,
    /// A session's call the tool server does not serve: it reveals the gold to an agent being
    /// scored (the hint). The command line's `job` and Python answer it.
    Withheld,
}

impl Job {
    /// The entry named `name` (a job's or its tool's name).
    pub fn named(name: &str) -> Result<&'static Job, Refusal> {
        JOBS.iter()
            .find(|job| job.name == name || job.tool == name)
            .ok_or_else(|| {
                let names: Vec<&str> = JOBS.iter().map(|job| job.name).collect();
                let close = closest(name, JOBS.iter().flat_map(|j| [j.name, j.tool]), 1);
                let hint = close
                    .first()
                    .map(|c| format!("did you mean `{c}`? "))
                    .unwrap_or_default();
                Refusal::request(format!(
                    "no job `{name}`; {hint}the jobs are {}",
                    names.join(", ")
                ))
            })
    }

    /// The answer to `request` (a JSON object), or the refusal, for a front end that keeps
    /// nothing between calls (the command line's `job`, Python's `job`): its kitchen sessions
    /// are a store of the call's own, which ends with it.
    pub fn answer(&self, workspace: &Workspace, request: Value) -> Result<Value, Refusal> {
        self.answer_in(workspace, &SessionStore::default(), request)
    }

    /// The answer to `request` with the kitchen sessions `sessions` holds (the tool server's
    /// store, kept between calls, or Python's `Kitchen`, one session); the one place an answer
    /// becomes JSON.
    pub fn answer_in(
        &self,
        workspace: &Workspace,
        sessions: &dyn SessionHolder,
        request: Value,
    ) -> Result<Value, Refusal> {
        (self.run)(workspace, sessions, request)
    }

    /// Whether the tool server serves the job as a tool.
    pub fn is_served(&self) -> bool {
        self.fit != Fit::Withheld
    }

    /// Whether the job is a call of a kitchen session (it works on a [`SessionHolder`]'s
    /// session), not one of the workspace alone.
    pub fn is_session_call(&self) -> bool {
        !matches!(self.fit, Fit::Shortened { .. })
    }
}

/// The request read as `Req`.
fn read<Req: DeserializeOwned>(request: Value) -> Result<Req, Refusal> {
    serde_json::from_value(request)
        .map_err(|e| Refusal::request(format!("the request does not fit: {e}")))
}

/// The request read as `Req`, given to `job`, its answer as the written report's JSON.
fn through<Req: DeserializeOwned, Ans: Serialize>(
    workspace: &Workspace,
    request: Value,
    job: fn(&Workspace, Req) -> Result<Ans, Refusal>,
) -> Result<Value, Refusal> {
    job(workspace, read(request)?).map(|answer| value(&answer))
}

/// [`through`] for a kitchen session's call, which takes the front end's sessions too.
fn through_sessions<Req: DeserializeOwned, Ans: Serialize>(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: Value,
    job: fn(&Workspace, &dyn SessionHolder, Req) -> Result<Ans, Refusal>,
) -> Result<Value, Refusal> {
    job(workspace, sessions, read(request)?).map(|answer| value(&answer))
}

/// The JSON schema of a request, in the draft the Model Context Protocol names (2020-12).
fn schema<Req: JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<Req>()
}

/// An entry of [`JOBS`]: the typed function, its name, its tool's name and description; a
/// kitchen session's call (`session`) is named as its tool and takes the sessions too.
macro_rules! job {
    ($job:ident: $request:ty, $tool:literal, $description:literal $(, whole $whole:literal)?) => {
        Job {
            name: stringify!($job),
            tool: $tool,
            description: $description,
            fit: Fit::Shortened { whole: job!(@whole $($whole)?) },
            schema: schema::<$request>,
            run: |workspace, _, request| through(workspace, request, $job),
        }
    };
    (session $job:ident: $request:ty, $description:literal $(, $fit:ident)?) => {
        Job {
            name: stringify!($job),
            tool: stringify!($job),
            description: $description,
            fit: job!(@fit $($fit)?),
            schema: schema::<$request>,
            run: |workspace, sessions, request| through_sessions(workspace, sessions, request, $job),
        }
    };
    (@whole) => { None };
    (@whole $whole:literal) => { Some($whole) };
    (@fit) => { Fit::Session };
    (@fit $fit:ident) => { Fit::$fit };
}

/// Every job agents may ask for, in the order the tools are listed.
pub const JOBS: &[Job] = &[
    job!(check: CheckRequest, "check_network",
        "Check a MUHAI Cooking Language network without running it: every error and warning with its line, column, code and a hint. `ok` is true when the evaluator would accept the text."),
    job!(simulate: NetworkRequest, "simulate_network",
        "Run a network in the simulated kitchen: the `report` (each executed action with its start and end time and bindings, the actions that never ran and why, the execution time and the final dish) and, where the evaluator would refuse the file, why (`refused`)."),
    job!(score: ScoreRequest, "score_network",
        "Score a network against the benchmark's gold network of its recipe: Smatch, goal-condition success, dish approximation score and execution time, with the gold goals it missed and how its dish differs."),
    job!(score_each: ScoreEachRequest, "score_networks",
        "Score several networks (texts of .solution files) at once, in parallel, each against the benchmark's gold network of its recipes: per network, in order, what score_network answers for it or its refusal (`scores`). The metrics default to the three simulation metrics, as evaluate_solutions scores."),
    job!(smatch: SmatchRequest, "smatch_networks",
        "Smatch between the first recipes of two networks (test and gold): F-score, precision, recall and the triples matched; in exact mode, the optimum and whether it is proven."),
    job!(diet: DietRequest, "check_diet",
        "Does the dish a network makes keep a diet (vegan, vegetarian, gluten-free, dairy-free, nut-free, egg-free)? The network is simulated and its final dish judged, not its text: `satisfied` (null with a `reason` when there is no dish), and each excluded ingredient in `violations` with its tags, its amount in the dish and the actions that brought it in."),
    job!(guide: NetworkRequest, "cooking_guide",
        "A cook's guide from the simulated schedule of a network: `total_time` (seconds; the execution time) and the executed actions in start order (`steps`: each with start and end in seconds, line, text, words, whether it is a timer and the actions it overlaps), the `timers` (actions the kitchen finishes by itself, such as an oven heating or a bake, with their temperature and when they are ready) and the `idle` times when the cook only waits."),
    job!(substitute: SubstituteRequest, "substitute_ingredient",
        "Replace one ingredient of a network by another (amounts converted by the ontology's gram table: same-weight, same-volume, same-count or same-effect, the default where the role table gives the two different strengths), run it again and compare it with the original by the evaluation's metrics (the original's dish as the gold dish): whether it executes, goal-condition success, dish approximation score with the dish's differences, execution time, the actions changed and the new network.",
        whole "network"),
    job!(suggest: SuggestRequest, "suggest_substitutes",
        "Substitutes for an ingredient: the classes sharing a role with it (fat, sugar, flour, acid, ...) in the documented role table, filtered by a diet; given a network, each is tried in it and scored against the original."),
    job!(scale: ScaleRequest, "scale_recipe",
        "Scale every ingredient amount of a network by a factor (or to a number of servings), counts rounded as a cook would, run it again and compare it with the original: the evaluation's metrics, the dish's proportions ingredient by ingredient, the counts rounded, and what the kitchen model says no longer fits (stock, portions; it has no capacities).",
        whole "network"),
    job!(translate: TranslateRequest, "translate_recipe",
        "Translate a recipe's text (benchmark XML, plain text or an HTML page with a schema.org Recipe) into a network with the rule-based translator: the `solution` and `notes` on what was left out.",
        whole "solution"),
    job!(evaluate: EvaluateRequest, "evaluate_solutions",
        "Score solution files or folders of them (paths on the machine the evaluator runs on) against the benchmark's gold networks, as `evaluate --format json` does: the signature and each recipe's metrics with their detail (a batch: each file with its recipes or its refusal); with `bootstrap`, the means with their 95 % intervals."),
    job!(compare: CompareRequest, "compare_systems",
        "Is a system better? Each of `systems` (the baseline first) is a solution file or a folder of them, scored as evaluate_solutions scores it; per metric, each system's corpus mean with its bootstrap interval and coverage, against the baseline the paired-bootstrap interval and p-value, the paired randomization p-value and wins/ties/losses, and the leaderboard: what `compare --format json` writes."),
    job!(replay: ReplayRequest, "replay_trajectory",
        "Run a kitchen session's log (a trajectory: the JSON lines kitchen_start's `log` writes, a path on the machine the evaluator runs on) again from its header and compare every record: `identical`, the `records` compared and the first `difference` located in the log."),
    job!(splits: SplitsRequest, "list_splits",
        "The official splits (train, dev, test) over the 30 official recipes and the 18 held-out ones: each recipe's id, benchmark (`official` or `heldout`), dish kind and split; with `split`, that split's alone."),
    job!(variation: VariationRequest, "variation_gold",
        "Generated variation `variation` (from 1) of a recipe of the benchmark: the task in words (servings scaled by a factor, an ingredient the kitchen lacks with the substitute it holds in its place), the stock changed, and the variation's gold network as a `.solution` text (`gold`), which scores as the official gold scores.",
        whole "gold"),
    job!(language: LanguageRequest, "list_primitives",
        "Deprecated: kitchen_primitives tells a session's language. The action language of the server's kitchen, no session needed: every primitive with what it does, its arguments in order (name, role, type, default), the cases it runs under and its compact form."),
    job!(inventory: InventoryRequest, "kitchen_inventory",
        "What the initial kitchen holds: its places and the tools, containers and ingredients in them, with amounts."),
    job!(session kitchen_start: StartRequest,
        "Start writing the network of a recipe one action at a time, in a kitchen session of your own: gives the session id, the recipe text and what the kitchen holds. Sessions end when finished or after 30 minutes unused."),
    job!(session kitchen_act: ActRequest,
        "Add one action (one line of MUHAI Cooking Language) to a session's network and run it on the current kitchen: whether it ran (outcome ran, failed, waiting, never, runs-with-first, refused, no-action), what it made in words, why not (diagnostics with line, column and did-you-mean) and the kitchen time. Every line given stays in the network until kitchen_undo takes it back."),
    job!(session kitchen_admissible: AdmissibleRequest,
        "The lines that run now in a session's kitchen, in a fixed order: each built from the variables bound so far and the classes the kitchen holds, with fresh output variables, and tried on a copy of the kitchen. Free numbers (amounts, times, temperatures) are placeholders `<argument>` with what bounds them; `example` is the line with values that run. Filter by `primitive` or by a variable it takes (`using`)."),
    job!(session kitchen_primitives: PrimitivesRequest,
        "The action language of a session: every primitive's form (arguments in order: `?out` a fresh output, `?ks-out`/`?ks-in` the kitchen states, `[arg]` optional, `arg:type` a constant of a type) and what it does; with `primitive`, that one in full (roles, types, defaults, the cases it runs under)."),
    job!(session kitchen_look: LookRequest,
        "What a variable of a session (`?butter`) or a place of its kitchen (`fridge`) holds now, in words."),
    job!(session kitchen_undo: SessionRequest,
        "Take back the last line of a session's network; the kitchen is as it was before it."),
    job!(session kitchen_progress: SessionRequest,
        "How far a session's network is, without ending it: the share of the recipe's goal conditions the actions that ran reach (goals_reached of goals, goal_share) and the dish approximation score of the best dish made so far (dish_score, at dish_line)."),
    job!(session kitchen_finish: FinishRequest,
        "End a session and score its network against the gold network: exactly what score_network answers for the same text (Smatch, goal-condition success with the missed goals, dish approximation score with the dish's differences, execution time).",
        SessionScore),
    job!(session kitchen_opening: ViewRequest,
        "What a session starts with: the recipe, its text (a generated variation's task first), the kitchen in words (`kitchen`, a line per place), its places as trees (`places`), the time and the action language in a line per primitive."),
    job!(session kitchen_reset: ViewRequest,
        "Start a session's network again, empty (every line taken back at once): its opening, as kitchen_opening answers it."),
    job!(session kitchen_network: ViewRequest,
        "A session's network so far: the recipe, the variation (0: the official task), the `lines` given (a new session given them is this one again), the `network` as a .solution text, the lines of the actions still `waiting` and the variables no action has bound (`unbound`)."),
    job!(session kitchen_gold: ViewRequest,
        "The gold network of a session's task as a .solution text: its generated variation's, or the benchmark's own gold for the official task (variation 0)."),
    job!(session kitchen_fork: ViewRequest,
        "Fork a session: an independent session with the same lines (the new `session` id), which logs nowhere; the original goes on unchanged."),
    job!(session kitchen_hint: ViewRequest,
        "The gold network's next action the session's network does not match yet, as a line with the session's variables (`hint`: line, primitive, action of actions; null when the network matches the whole gold). It reveals the gold: for imitation learning and debugging, so the tool server, where agents are scored, does not serve it.",
        Withheld),
];

/// What `job NAME REQUEST` asks.
pub struct JobOptions {
    /// The job's name, or its tool's.
    pub name: String,
    /// The request as JSON text; `-` or none: standard input.
    pub request: Option<String>,
    pub data: DataContext,
}

/// Answer one request as the tool server and the Python package answer it: the answer's JSON
/// on `out` (exit 0), or the refusal's (exit 1). An unknown job or a request that is no JSON
/// is an error of the options (exit 2).
pub fn run(opts: &JobOptions, out: &mut dyn Write) -> Outcome {
    let job = Job::named(&opts.name).map_err(|refusal| AppError::Options(refusal.error))?;
    let text = match opts.request.as_deref() {
        None | Some("-") => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| AppError::Options(format!("cannot read the request: {e}")))?;
            text
        }
        Some(text) => text.to_owned(),
    };
    let request: Value = serde_json::from_str(&text)
        .map_err(|e| AppError::Options(format!("the request is not JSON: {e}")))?;
    let workspace = Workspace::open(opts.data.clone())?;
    let (answer, exit) = match job.answer(&workspace, request) {
        Ok(answer) => (answer, Exit::Success),
        Err(refusal) => (refusal.to_json(), Exit::Failed),
    };
    out.write_all(pretty(&answer).as_bytes())
        .map_err(AppError::Stdout)?;
    Ok(exit)
}

#[cfg(test)]
mod tests;
