//! `cookingbot-evaluator mcp`: the kitchen as a Model Context Protocol tool server on stdio,
//! so that an LLM agent writing a network can ask whether it runs and what fails while it
//! works, judge its dish against a diet, substitute an ingredient or scale a recipe and see
//! what changes, or write one action at a time in a kitchen session: a tool per entry of the
//! service's job table (`service::jobs::JOBS`), the sessions the server's. Every tool answers with short
//! structured JSON located at lines and columns; inputs are bounded ([`MAX_NETWORK_BYTES`], the
//! simulation's own action limit, a session's lines).

use crate::base::budget::Budget;
use crate::service::context::DataContext;
use crate::service::jobs::{Fit, JOBS, Job};
use crate::service::outcome::{AppError, Exit, Outcome};
use crate::service::sessions::{Limits, SessionStore, SystemClock};
use crate::service::workspace::Workspace;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolResult, Implementation, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool_handler};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use transport::LineTransport;

mod session_tools;
mod transport;

/// The largest network text a tool takes: gold networks are a few kilobytes, so a megabyte is
/// far beyond any real network and keeps one call's work small.
pub const MAX_NETWORK_BYTES: usize = 1 << 20;

/// The longest JSON-RPC message read: larger than any accepted argument with room to spare
/// (a network's text escaped in JSON), so that an oversized network still arrives and gets a
/// clear refusal; a longer line gets a JSON-RPC error.
const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// The longest a tool call may take: past it the call is answered with an error and its work
/// stops (the work runs within a [`Budget`] that the answer cancels).
const CALL_SECONDS: u64 = 60;

/// The most calls whose work runs at once. A call's work may hold a run of a network at the
/// size bound (some hundreds of megabytes), so the calls a client sends together wait their
/// turn, within their own deadline, instead of growing the server's memory with their number.
const CALLS_AT_ONCE: usize = 4;

/// The most entries a list in an answer holds (diagnostics, steps, actions that never ran):
/// the rest is counted in a `<list>_omitted` field beside it, so that an answer stays short
/// for an agent's context whatever the network.
const MAX_LIST_ITEMS: usize = 100;

/// The longest text in an answer (an action's text, a message): longer ones are cut, marked
/// with an ellipsis.
const MAX_TEXT_CHARS: usize = 1_000;

const RECIPE_URI: &str = "cookingbot://recipe/";

/// The tool server: the workspace of its command line's data (the model, the evaluators the
/// jobs and the agents' kitchen sessions are scored by) and the sessions.
#[derive(Clone)]
pub struct KitchenServer {
    workspace: Arc<Workspace>,
    sessions: Arc<SessionStore>,
    /// A permit per call whose work runs ([`CALLS_AT_ONCE`]).
    working: Arc<tokio::sync::Semaphore>,
}

/// A refused call: what is wrong, said so that the agent can fix it.
pub(super) fn refuse(value: Value) -> CallToolResult {
    CallToolResult::structured_error(value)
}

/// A request whose texts (a network, a recipe, each of a list of networks) are all at most
/// [`MAX_NETWORK_BYTES`]; a larger one is refused before any work starts.
fn bounded(request: &Value) -> Result<(), CallToolResult> {
    let fields = request
        .as_object()
        .into_iter()
        .flat_map(|fields| fields.values());
    let texts = fields.flat_map(|value| match value {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    });
    let longest = texts.filter_map(Value::as_str).map(str::len).max();
    match longest {
        Some(len) if len > MAX_NETWORK_BYTES => Err(refuse(json!({
            "error": format!(
                "the network is {len} bytes; networks of at most {MAX_NETWORK_BYTES} bytes are taken"
            ),
        }))),
        _ => Ok(()),
    }
}

/// The tool of a job of the table: its input schema the request type's.
fn job_route(job: &'static Job) -> ToolRoute<KitchenServer> {
    let schema = match serde_json::to_value((job.schema)()) {
        Ok(Value::Object(schema)) => schema,
        _ => serde_json::Map::new(),
    };
    let tool = Tool::new(job.tool, job.description, Arc::new(schema));
    ToolRoute::new_dyn(tool, move |context: ToolCallContext<'_, KitchenServer>| {
        let server = context.service.clone();
        let request = Value::Object(context.arguments.unwrap_or_default());
        Box::pin(async move { Ok(server.serve_job(job, request).await.into()) })
    })
}

impl KitchenServer {
    /// The server of a command line's data: its benchmark's own classes and kitchen too.
    pub fn new(data: &DataContext) -> Result<KitchenServer, AppError> {
        Ok(KitchenServer {
            workspace: Arc::new(Workspace::open(data.clone())?),
            sessions: Arc::new(SessionStore::new(Limits::default(), Arc::new(SystemClock))),
            working: Arc::new(tokio::sync::Semaphore::new(CALLS_AT_ONCE)),
        })
    }

    /// A job of the table: the request bounded ([`bounded`]), the work run off the protocol's
    /// thread ([`Self::off_thread`]) with the server's kitchen sessions, the answer or the
    /// refusal kept short as the job says ([`fit`]).
    async fn serve_job(&self, job: &'static Job, request: Value) -> CallToolResult {
        if let Err(refusal) = bounded(&request) {
            return refusal;
        }
        let answered = self
            .off_thread(move |server| job.answer_in(&server.workspace, &*server.sessions, request))
            .await;
        match answered {
            Ok(Ok(mut answer)) => {
                fit(&mut answer, job.fit);
                CallToolResult::structured(answer)
            }
            Ok(Err(refusal)) => {
                let mut refusal = refusal.to_json();
                fit(&mut refusal, job.fit);
                refuse(refusal)
            }
            Err(error) => refuse(json!({ "error": error })),
        }
    }

    /// Run `work` on a thread of its own once one of the [`CALLS_AT_ONCE`] permits is free,
    /// within a [`Budget`] of [`CALL_SECONDS`] from the call's arrival that also stops it when
    /// the call is answered without it (past the deadline, or when the client cancels and the
    /// call's future is dropped). `Err` says why there is no answer: the server was busy, or
    /// the work outlasted the deadline.
    ///
    /// The permit is given back when the work ends, or at the deadline if the work goes on
    /// past it: a stopped call's work ends at its next look at the budget, but work blocked
    /// in the system (a read of a FIFO no one writes) never looks, and must not keep the
    /// server busy for good. The memory the work freed is given back to the system after it
    /// ([`give_back_memory`]).
    async fn off_thread<T: Send + 'static>(
        &self,
        work: impl FnOnce(&KitchenServer) -> T + Send + 'static,
    ) -> Result<T, String> {
        let server = self.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let deadline = tokio::time::Instant::now() + Duration::from_secs(CALL_SECONDS);
        let waited = tokio::time::timeout_at(deadline, self.working.clone().acquire_owned());
        let Ok(Ok(permit)) = waited.await else {
            return Err(format!(
                "the server was busy with {CALLS_AT_ONCE} calls for {CALL_SECONDS} s; ask again"
            ));
        };
        let permit = Arc::new(std::sync::Mutex::new(Some(permit)));
        let at_deadline = permit.clone();
        let release = tokio::spawn(async move {
            tokio::time::sleep_until(deadline).await;
            drop(take_permit(&at_deadline));
        });
        let budget = Budget::new(Duration::from_secs(CALL_SECONDS)).cancelled_by(stop);
        let running = tokio::task::spawn_blocking(move || {
            let result = budget.run(|| work(&server));
            drop(take_permit(&permit));
            release.abort();
            give_back_memory();
            result
        });
        match tokio::time::timeout_at(deadline, running).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(e)) => Err(format!("the call failed: {e}")),
            Err(_) => Err(format!(
                "the call took over {CALL_SECONDS} s and was stopped; a smaller network answers sooner"
            )),
        }
    }
}

/// The permit of a call's work, taken at most once: by the work's end or by its deadline.
fn take_permit(
    slot: &std::sync::Mutex<Option<tokio::sync::OwnedSemaphorePermit>>,
) -> Option<tokio::sync::OwnedSemaphorePermit> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
}

/// Give the memory a call's work freed back to the system: glibc keeps freed pages in its
/// arenas (one per thread that allocated), so a server that parsed a megabyte of network once
/// would otherwise keep a gigabyte after answering. Trimming walks the arenas' free lists, a
/// small cost beside any call's work.
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of glibc's arenas to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Sets a call's stop flag when the call ends, however it ends: its work, if still running,
/// stops at its next look at the budget.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Keep an answer short: lists past [`MAX_LIST_ITEMS`] cut (with `<key>_omitted` counting
/// the rest) and texts past [`MAX_TEXT_CHARS`] cut, at every depth, walked with an explicit
/// stack (a dish tree nests as deep as the simulation allows).
pub(super) fn shorten(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                let mut omitted = Vec::new();
                for (key, field) in map.iter_mut() {
                    if let Value::Array(items) = field
                        && items.len() > MAX_LIST_ITEMS
                    {
                        omitted.push((format!("{key}_omitted"), items.len() - MAX_LIST_ITEMS));
                        items.truncate(MAX_LIST_ITEMS);
                    }
                }
                for (key, n) in omitted {
                    map.insert(key, json!(n));
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::String(text) => {
                if let Some((cut, _)) = text.char_indices().nth(MAX_TEXT_CHARS) {
                    text.truncate(cut);
                    text.push('…');
                }
            }
            _ => {}
        }
    }
}

/// The benchmark could not be located or loaded: resources are unavailable.
fn unavailable(reason: String) -> ErrorData {
    ErrorData::internal_error(reason, None)
}

/// An answer kept short as its job says: shortened ([`shorten`]) but for the field an agent
/// needs whole, or cut whole as a session's answer ([`session_tools::fit_answer`]).
fn fit(answer: &mut Value, how: Fit) {
    match how {
        Fit::Shortened { whole } => shorten_keeping(answer, whole),
        Fit::Session => session_tools::fit_answer(answer),
        Fit::SessionScore => {
            if let Some(score) = answer.get_mut("score") {
                shorten(score);
            }
            session_tools::fit_answer(answer);
        }
        // Never served.
        Fit::Withheld => {}
    }
}

/// An answer shortened as every answer is ([`shorten`]), but for `whole`, a field an agent
/// needs whole (a rewritten network, no larger than the network it was given, give or take
/// the digits of its amounts).
fn shorten_keeping(answer: &mut Value, whole: Option<&str>) {
    let kept = whole.and_then(|field| Some((field, answer.as_object_mut()?.remove(field)?)));
    shorten(answer);
    if let (Some((field, kept)), Some(fields)) = (kept, answer.as_object_mut()) {
        fields.insert(field.to_owned(), kept);
    }
}

impl KitchenServer {
    /// Every tool: a tool per job of the table, but the jobs withheld from agents being scored
    /// (the hint).
    fn tools() -> ToolRouter<KitchenServer> {
        JOBS.iter()
            .filter(|job| job.is_served())
            .fold(ToolRouter::new(), |router, job| {
                router.with_route(job_route(job))
            })
    }
}

/// What the server tells a client it is for, naming every tool it serves (from [`JOBS`], so a
/// new job is named as soon as it is served; each tool's description says the rest).
fn instructions() -> String {
    let tools: Vec<&str> = (JOBS.iter())
        .filter(|job| job.is_served())
        .map(|job| job.tool)
        .collect();
    format!(
        "Check, simulate and score MUHAI Cooking Language networks against the benchmark's gold \
         networks, rewrite recipes, and write a network one action at a time in a kitchen \
         session (a session's call names it by `session`, or by `recipe` and the `lines` \
         given so far). Tools: {}. Resources are the benchmark's gold networks.",
        tools.join(", ")
    )
}

#[tool_handler(router = Self::tools())]
impl ServerHandler for KitchenServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new(
            "cookingbot-evaluator",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(instructions())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        // Off the protocol's thread: the benchmark's first load may take long.
        let listed = self.off_thread(|server| {
            let evaluator = server.workspace.evaluator().map_err(|e| e.to_string())?;
            let resources = evaluator
                .benchmark
                .recipes
                .iter()
                .map(|r| {
                    Resource::new(format!("{RECIPE_URI}{}", r.id), r.id.clone())
                        .with_description("the gold network")
                })
                .collect();
            Ok(ListResourcesResult::with_all_items(resources))
        });
        listed.await.and_then(|listed| listed).map_err(unavailable)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let read = self.off_thread(move |server| {
            let evaluator = server
                .workspace
                .evaluator()
                .map_err(|e| unavailable(e.to_string()))?;
            let recipe = uri
                .strip_prefix(RECIPE_URI)
                .and_then(|id| evaluator.benchmark.recipe(id))
                .ok_or_else(|| ErrorData::resource_not_found(format!("no recipe {uri}"), None))?;
            let text = format!("{}\n", recipe.network);
            Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).into())
        });
        read.await.map_err(unavailable)?
    }
}

/// Serve on stdin and stdout until the client closes them.
pub fn run(data: &DataContext) -> Outcome {
    let server = KitchenServer::new(data)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| AppError::Failed(format!("cannot start the tool server: {e}")))?;
    let served = runtime.block_on(async {
        // Every call read before the input ends is answered within its deadline.
        let linger = Duration::from_secs(CALL_SECONDS + 5);
        let transport = LineTransport::new(
            tokio::io::stdin(),
            tokio::io::stdout(),
            MAX_MESSAGE_BYTES,
            linger,
        );
        let service = server.serve(transport).await.map_err(|e| e.to_string())?;
        service.waiting().await.map_err(|e| e.to_string())
    });
    // Work abandoned by a timed-out call must not hold the exit.
    runtime.shutdown_background();
    served.map_err(|e| AppError::Failed(format!("the tool server stopped: {e}")))?;
    Ok(Exit::Success)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// The instructions name every tool served, and not the one withheld from agents.
    #[test]
    fn the_instructions_name_every_tool_served() {
        let text = instructions();
        let named = |tool: &str| {
            text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == tool)
        };
        for job in JOBS {
            assert_eq!(named(job.tool), job.is_served(), "{}", job.tool);
        }
        assert!(JOBS.iter().any(|job| !job.is_served()));
    }

    static RUNNING: AtomicUsize = AtomicUsize::new(0);
    static MOST: AtomicUsize = AtomicUsize::new(0);

    /// Work that counts how many calls work at once.
    fn counted(_: &KitchenServer) -> bool {
        let now = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
        MOST.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(50));
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        true
    }

    /// A server on the demo benchmark.
    fn demo_server() -> KitchenServer {
        let data = DataContext {
            benchmark: Some(crate::benchmark::DataChoice::Demo),
            ..DataContext::default()
        };
        KitchenServer::new(&data).expect("the demo's server")
    }

    /// `check_network` keeps the first 100 diagnostics in text order and counts the others;
    /// `ok` counts every error, kept or not: here the 100 kept are warnings.
    #[test]
    fn check_network_lists_the_first_diagnostics_and_counts_the_rest() {
        let server = demo_server();
        let mut network = String::from("#demo-garden-salad\n(get-kitchen ?ks)\n");
        for i in 0..150 {
            network.push_str(&format!("(fetch ?b{i} ?out{i} ?in{i} large-bowl 1)\n"));
        }
        network.push_str("(frobnicate ?x)\n");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let check = Job::named("check_network").unwrap();
        let answer = runtime.block_on(server.serve_job(check, json!({ "network": network })));
        let out = answer.structured_content.expect("structured");
        assert_eq!(out["ok"], json!(false));
        let listed = out["diagnostics"].as_array().expect("a list");
        assert_eq!(listed.len(), MAX_LIST_ITEMS);
        assert!(listed.iter().all(|d| d["severity"] == "warning"));
        // Each fetch's kitchen state in is produced by no action; then the unknown primitive.
        assert_eq!(out["diagnostics_omitted"], json!(150 + 1 - MAX_LIST_ITEMS));
    }

    /// Each network of a list (`score_networks`' `networks`) is bounded as one network is.
    #[test]
    fn each_network_of_a_list_is_bounded_as_one_network_is() {
        let large = "x".repeat(MAX_NETWORK_BYTES + 1);
        let refused = bounded(&json!({ "networks": ["#a\n", large] })).unwrap_err();
        assert_eq!(
            refused.structured_content,
            Some(json!({
                "error": format!(
                    "the network is {} bytes; networks of at most {MAX_NETWORK_BYTES} bytes are taken",
                    MAX_NETWORK_BYTES + 1
                ),
            }))
        );
        assert!(bounded(&json!({ "networks": ["#a\n"] })).is_ok());
    }

    /// Every entry of the job table is a tool, by its tool's name, with its request's schema,
    /// but the hint, which reveals the gold; there is no other tool.
    #[test]
    fn every_job_is_served_as_a_tool_and_every_tool_is_a_job() {
        let tools = KitchenServer::tools().list_all();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        let served = JOBS.iter().filter(|j| j.is_served());
        let mut jobs: Vec<&str> = served.map(|j| j.tool).collect();
        names.sort_unstable();
        jobs.sort_unstable();
        assert_eq!(names, jobs);
        assert!(!names.contains(&"kitchen_hint"));
        assert_eq!(JOBS.len(), names.len() + 1);
        for tool in &tools {
            let job = Job::named(&tool.name).unwrap();
            let schema = serde_json::to_value((job.schema)()).unwrap();
            assert_eq!(
                Value::Object((*tool.input_schema).clone()),
                schema,
                "{}",
                job.tool
            );
            assert_eq!(tool.description.as_deref(), Some(job.description));
        }
        for tool in [
            "kitchen_start",
            "kitchen_act",
            "kitchen_finish",
            "kitchen_inventory",
            "list_primitives",
            "replay_trajectory",
            "list_splits",
            "variation_gold",
            "kitchen_opening",
            "kitchen_reset",
            "kitchen_network",
            "kitchen_gold",
            "kitchen_fork",
        ] {
            assert!(names.contains(&tool), "{tool}");
        }
    }

    #[test]
    fn calls_sent_together_work_a_few_at_a_time_and_all_are_answered() {
        let server = demo_server();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let answers = runtime.block_on(async {
            let mut calls = tokio::task::JoinSet::new();
            for _ in 0..3 * CALLS_AT_ONCE {
                let server = server.clone();
                calls.spawn(async move { server.off_thread(counted).await });
            }
            calls.join_all().await
        });
        assert_eq!(answers.len(), 3 * CALLS_AT_ONCE);
        assert!(answers.iter().all(|a| a == &Ok(true)));
        let most = MOST.load(Ordering::SeqCst);
        assert!(
            (1..=CALLS_AT_ONCE).contains(&most),
            "{most} calls worked at once"
        );
    }
}
