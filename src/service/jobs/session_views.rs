//! The kitchen session's calls beside acting on it: its opening (and starting it again), the
//! network written so far, the gold of its task, the hint, and a fork. A Python `Kitchen`'s
//! `reset`, `opening`, `network`, `lines`, `waiting`, `unbound`, `recipe`, `variation`,
//! `variation_gold`, `hint` and `clone` are these jobs on its own session, as the tool
//! server's tools are on its store's.

use super::refusal::Refusal;
use super::session_calls::{SessionAt, SessionHolder, Target, on_session};
use crate::service::variation::Variation;
use crate::service::workspace::Workspace;
use crate::session::Session;
use crate::session::hint::Hint;
use crate::session::observation::Opening;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A session, for the calls on it that take nothing else.
#[derive(Deserialize, JsonSchema)]
pub struct ViewRequest {
    #[serde(flatten)]
    pub at: SessionAt,
}

/// The generated variation of the holder's session the call names; none for a session made
/// for the call alone (named by its recipe), which is on the official task.
fn variation_of(sessions: &dyn SessionHolder, at: &SessionAt) -> Option<Arc<Variation>> {
    match at.recipe {
        Some(_) => None,
        None => sessions.variation(at.session.as_deref()),
    }
}

/// The session's opening, with the task of the variation it is on (if any) before the recipe
/// text: what an agent reads first.
fn opening_of(session: &Session, sessions: &dyn SessionHolder, at: &SessionAt) -> Opening {
    let mut opening = session.opening();
    if let Some(v) = variation_of(sessions, at) {
        let text = opening.recipe_text.take().unwrap_or_default();
        opening.recipe_text = Some(format!("{}\n\n{text}", v.task()));
    }
    opening
}

/// What the session starts with: the recipe, its text (the variation's task first), the
/// kitchen in words, its places and the action language.
pub fn kitchen_opening(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: ViewRequest,
) -> Result<Opening, Refusal> {
    let at = &request.at;
    on_session(workspace, sessions, at, |s| Ok(opening_of(s, sessions, at)))
}

/// The session's network started again, empty: its opening.
pub fn kitchen_reset(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: ViewRequest,
) -> Result<Opening, Refusal> {
    let at = &request.at;
    on_session(workspace, sessions, at, |s| {
        s.reset()?;
        Ok(opening_of(s, sessions, at))
    })
}

/// The network written so far.
#[derive(Serialize)]
pub struct NetworkAnswer {
    /// The recipe's id as the benchmark spells it.
    pub recipe: String,
    /// The generated variation the session is on (0: the official task).
    pub variation: u64,
    /// The lines given that the network holds (the header when one was given first): a new
    /// session given them is this one again.
    pub lines: Vec<String>,
    /// The network as a `.solution` text.
    pub network: String,
    /// The lines of the actions still waiting to run.
    pub waiting: Vec<usize>,
    /// The variables no action has bound yet.
    pub unbound: Vec<String>,
}

/// The session's network so far: its lines, its text, what waits and what is unbound.
pub fn kitchen_network(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: ViewRequest,
) -> Result<NetworkAnswer, Refusal> {
    let variation = variation_of(sessions, &request.at);
    on_session(workspace, sessions, &request.at, |s| {
        Ok(NetworkAnswer {
            recipe: s.recipe().to_owned(),
            variation: variation.as_ref().map_or(0, |v| v.number),
            lines: s.lines_given(),
            network: s.network(),
            waiting: s.waiting(),
            unbound: s.unbound(),
        })
    })
}

/// The gold network of the session's task.
#[derive(Serialize)]
pub struct GoldAnswer {
    pub variation: u64,
    /// The variation's gold (the official gold scaled and substituted), or the benchmark's
    /// own for variation 0, as a `.solution` text.
    pub gold: String,
}

/// The gold network of the session's task: its variation's, or the benchmark's.
pub fn kitchen_gold(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: ViewRequest,
) -> Result<GoldAnswer, Refusal> {
    if let Some(v) = variation_of(sessions, &request.at) {
        // Asked for the session, so that a call naming none the holder has is refused.
        on_session(workspace, sessions, &request.at, |_| Ok(()))?;
        return Ok(GoldAnswer {
            variation: v.number,
            gold: v.gold.clone(),
        });
    }
    let gold = on_session(workspace, sessions, &request.at, |s| Ok(s.gold()))?;
    let gold = gold.ok_or_else(|| Refusal::new("the session's recipe has no gold network"))?;
    Ok(GoldAnswer { variation: 0, gold })
}

/// The gold's next action.
#[derive(Serialize)]
pub struct HintAnswer {
    /// None when the network matches the whole gold.
    pub hint: Option<Hint>,
}

/// The gold network's next action the session's network does not match yet, with its
/// variables. It reveals the gold: the tool server, where agents are scored, does not serve it.
pub fn kitchen_hint(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: ViewRequest,
) -> Result<HintAnswer, Refusal> {
    let hint = on_session(workspace, sessions, &request.at, |s| Ok(s.hint()))?;
    Ok(HintAnswer { hint })
}

/// A session forked.
#[derive(Serialize)]
pub struct ForkAnswer {
    /// The fork's id, in a holder of many sessions (the tool server's store); a Python
    /// `Kitchen`'s fork is the `Kitchen` its `clone` returns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The lines of its network (the header aside).
    pub lines: usize,
}

/// An independent session with the same lines, sharing every kitchen object neither changes;
/// it logs nowhere.
pub fn kitchen_fork(
    workspace: &Workspace,
    sessions: &dyn SessionHolder,
    request: ViewRequest,
) -> Result<ForkAnswer, Refusal> {
    let (session, lines) = match request.at.target(workspace)? {
        Target::Held(id) => {
            let lines = on_session(workspace, sessions, &request.at, |s| Ok(s.line_count() - 1))?;
            (sessions.fork(id)?, lines)
        }
        // A session made for the call alone forks into one that ends with it too.
        Target::Alone(session) => (None, session.line_count() - 1),
    };
    Ok(ForkAnswer { session, lines })
}
