//! Agents that write a network through a [`Session`], one line at a time, each reading the
//! observation of the line before choosing the next: a scripted replay, an agent that repairs a
//! translator's network from what the kitchen answers ([`repair`]), and a language-model loop
//! ([`llm`]). They use the session's public API and the model it runs on (the catalogue's
//! roles, the ontology's classes), as an agent of one's own would; [`table`] measures the
//! repairing agent against the translation it starts from.

pub mod llm;
pub mod repair;
pub mod table;

use crate::base::profile::Profile;
use crate::benchmark::{Benchmark, DataSource};
use crate::evaluate::Refusal;
use crate::metrics::metric::{Metric, RecipeResult};
use crate::session::observation::{Observation, Score};
use crate::session::{Session, SessionError};

/// One line given to the session and what came back.
#[derive(Clone, Debug)]
pub struct Turn {
    pub line: String,
    pub observation: Observation,
    /// Whether the agent took the line back (`undo`) afterwards: the network does not hold it.
    pub taken_back: bool,
}

/// What an agent did: every line it gave, in order, and the score of the network it left.
#[derive(Clone, Debug)]
pub struct Episode {
    pub turns: Vec<Turn>,
    pub score: Score,
}

/// The scripted agent: every line of `network` given in file order (a first line that is a
/// header left out: the session writes its own), then `finish`. A gold network replayed this
/// way scores exactly as its file.
pub fn replay(session: &mut Session, network: &str) -> Result<Episode, SessionError> {
    let body = network.strip_suffix('\n').unwrap_or(network);
    let mut lines = body.split('\n').filter(|_| !body.is_empty()).peekable();
    lines.next_if(|l| l.starts_with('#'));
    let mut turns = Vec::new();
    for line in lines {
        let observation = session.act(line)?;
        turns.push(Turn {
            line: line.to_string(),
            observation,
            taken_back: false,
        });
    }
    Ok(Episode {
        turns,
        score: session.finish(),
    })
}

/// The gold network of `recipe` as the benchmark read it, a line per action under its header:
/// the script of the replaying agent.
pub fn gold_script(benchmark: &Benchmark, recipe: &str) -> Option<String> {
    let gold = benchmark.recipe(recipe)?;
    let lines: String = gold
        .network
        .predicates
        .iter()
        .map(|p| format!("{p}\n"))
        .collect();
    Some(format!("#{}\n{lines}", gold.id))
}

/// A profile's benchmark data where it is found (the environment variable, the `fetch` cache),
/// else the demo benchmark compiled into the program: what the example agents act on.
pub fn data_or_demo(profile: Profile) -> DataSource {
    crate::benchmark::locate(profile, None).unwrap_or(DataSource::Demo)
}

/// An observation as an agent (or its reader) takes it in: the words, then each located
/// diagnostic with its code and hint, a line each.
pub fn observation_words(seen: &Observation) -> String {
    let mut s = seen.text.clone();
    for d in &seen.diagnostics {
        let code = d.code.map(|c| format!("[{c}]")).unwrap_or_default();
        s.push_str(&format!(
            "\n- line {}:{} {}{code}: {}",
            d.line, d.column, d.severity, d.message
        ));
        if let Some(hint) = &d.hint {
            s.push_str(&format!(" ({hint})"));
        }
    }
    s
}

/// A turn as the examples print it: the line (marked when it was taken back), then its
/// observation's words, indented.
pub fn turn_words(turn: &Turn) -> String {
    let back = if turn.taken_back {
        "  (taken back)"
    } else {
        ""
    };
    let words = observation_words(&turn.observation).replace('\n', "\n  ");
    format!("{}{back}\n  {words}", turn.line)
}

/// A score in one line: the four metrics as the reference prints them, or why the reference
/// refuses the network.
pub fn score_words(result: Result<&RecipeResult, &Refusal>) -> String {
    match result {
        Ok(row) => Metric::ALL
            .iter()
            .map(|&m| format!("{} {}", m.name(), row.formatted(m)))
            .collect::<Vec<_>>()
            .join(", "),
        Err(refusal) => format!("refused: {}", refusal.message),
    }
}
