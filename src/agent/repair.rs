//! The repairing agent: it gives a script (a translator's network) to a session line by line
//! and, when a line does not run, repairs it from the observation, then finishes.
//!
//! Every decision reads a structured field, never the observation's words: the outcome, a
//! diagnostic's place (line and column), severity and did-you-mean names, which variables are
//! still unbound, and the catalogue's role and type of the argument a note stands at. The
//! repairs, taken from the line's first diagnostic that has one, at most
//! [`MAX_REPAIRS_PER_LINE`] times for a line:
//!
//! - an unknown name (primitive, class): its first did-you-mean ([`RepairKind::Suggested`]);
//! - a wrong number of arguments (`E0104`; a network of the other profile's `cut`): the
//!   arguments past the primitive's arity dropped when they are variables, fresh variables
//!   added for the ones missing ([`RepairKind::Arity`]);
//! - an input no action made, with bound variables written like it: the first of them
//!   ([`RepairKind::Rebound`]);
//! - an output bound already: a new variable, which the lines ahead follow
//!   ([`RepairKind::Renamed`]);
//! - a tool or container of the wrong type where the primitive takes the kitchen's default: a
//!   fresh variable, so that the kitchen picks one that fits ([`RepairKind::DefaultTool`]);
//! - an input held in a container of the wrong type: a container of the kitchen of that type
//!   fetched, the contents moved into it and the action given that ([`RepairKind::Moved`]);
//! - anything else (an error the primitive signalled, arguments that are no case of it): the
//!   line is left out, and the lines ahead take its inputs for its outputs (its kitchen state
//!   in for its kitchen state out, its first input for its outputs) ([`RepairKind::LeftOut`]).
//!
//! A line waiting for inputs that lines ahead make stays in the network. One still waiting when
//! the script is done would never run (the line that was to make its input was repaired or
//! left out): the lines from it on are taken back and given again, with what the lines before
//! them were left as, and this time it may not wait.

use super::{Episode, Turn};
use crate::data::catalogue::{PrimitiveSig, Role};
use crate::language::ast::{Predicate, Span};
use crate::language::parse::parse;
use crate::session::observation::{Observation, Outcome};
use crate::session::{Session, SessionError};
use serde::Serialize;
use std::collections::{HashMap, HashSet, VecDeque};

/// The code of a diagnostic saying an action has the wrong number of arguments.
const WRONG_ARITY: &str = "E0104";

/// Repairs tried on one line before it is left out.
pub const MAX_REPAIRS_PER_LINE: usize = 4;

/// What the agent did to a line that did not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairKind {
    /// An unknown name replaced by its first did-you-mean.
    Suggested,
    /// The arguments fitted to the primitive's arity.
    Arity,
    /// An unbound input replaced by the bound variable written like it.
    Rebound,
    /// An output bound already given a new variable.
    Renamed,
    /// A defaulted argument of the wrong type left to the kitchen's default.
    DefaultTool,
    /// An input moved into a container of the argument's type first.
    Moved,
    /// The line left out, its outputs rewired to its inputs.
    LeftOut,
}

impl RepairKind {
    pub const ALL: [RepairKind; 7] = [
        RepairKind::Suggested,
        RepairKind::Arity,
        RepairKind::Rebound,
        RepairKind::Renamed,
        RepairKind::DefaultTool,
        RepairKind::Moved,
        RepairKind::LeftOut,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RepairKind::Suggested => "suggested",
            RepairKind::Arity => "arity",
            RepairKind::Rebound => "rebound",
            RepairKind::Renamed => "renamed",
            RepairKind::DefaultTool => "default-tool",
            RepairKind::Moved => "moved",
            RepairKind::LeftOut => "left-out",
        }
    }
}

/// One repair: the line as it failed, what was given in its place and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Repair {
    pub kind: RepairKind,
    pub line: String,
    /// The lines given instead, in order (none when the line was left out).
    pub instead: Vec<String>,
    /// The session's reason, in its words (for people; the repair was chosen from fields).
    pub why: String,
}

/// The repairing agent's episode and the repairs it made.
#[derive(Clone, Debug)]
pub struct Repaired {
    pub episode: Episode,
    pub repairs: Vec<Repair>,
}

/// Give `script`'s actions (its header and blank lines left out) to `session` one by one,
/// repairing those that do not run, then finish.
pub fn repair(session: &mut Session, script: &str) -> Result<Repaired, SessionError> {
    let mut agent = Agent::new(session, script);
    agent.run()?;
    let score = agent.session.finish();
    Ok(Repaired {
        episode: Episode {
            turns: agent.turns,
            score,
        },
        repairs: agent.repairs,
    })
}

/// Where a column of a line falls: the primitive's name or an argument.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Name,
    Arg(usize),
}

/// One line read as an action, its spans counted in the line.
struct Action {
    text: String,
    predicate: Predicate,
}

/// What a line is parsed under, alone: a header naming no benchmark recipe.
const HEADER: &str = "#line\n";

impl Action {
    /// The line's one action, none when the line is not exactly one.
    fn read(line: &str) -> Option<Action> {
        let parsed = parse(&format!("{HEADER}{line}\n"));
        let recipe = parsed.file.recipes.into_iter().next()?;
        let [mut predicate] = <[Predicate; 1]>::try_from(recipe.predicates).ok()?;
        let back = |s: Span| Span::new(s.start - HEADER.len(), s.end - HEADER.len());
        let arg_spans = predicate.arg_spans.iter().map(back).collect();
        predicate.arg_spans = arg_spans;
        predicate.name_span = back(predicate.name_span);
        Some(Action {
            text: line.to_string(),
            predicate,
        })
    }

    /// Argument `i` as a variable (`?bowl`), if it is one.
    fn var(&self, i: usize) -> Option<String> {
        let v = self.predicate.args.get(i)?.as_var()?;
        Some(format!("?{v}"))
    }

    fn vars(&self) -> impl Iterator<Item = (usize, String)> + '_ {
        (0..self.predicate.args.len()).filter_map(|i| Some((i, self.var(i)?)))
    }

    /// What starts at 1-based character `column` of the line.
    fn at(&self, column: usize) -> Option<Place> {
        let (byte, _) = self.text.char_indices().nth(column.checked_sub(1)?)?;
        if self.predicate.name_span.start == byte {
            return Some(Place::Name);
        }
        let spans = &self.predicate.arg_spans;
        spans.iter().position(|s| s.start == byte).map(Place::Arg)
    }

    /// The line with the name or arguments at `edits` written anew.
    fn edited(&self, edits: &[(Place, String)]) -> String {
        let mut spans: Vec<(Span, &str)> = edits
            .iter()
            .filter_map(|(place, text)| {
                let span = match place {
                    Place::Name => self.predicate.name_span,
                    Place::Arg(i) => self.predicate.arg_spans.get(*i)?,
                };
                Some((span, text.as_str()))
            })
            .collect();
        spans.sort_by_key(|(s, _)| std::cmp::Reverse(s.start));
        let mut text = self.text.clone();
        for (span, new) in spans {
            text.replace_range(span.start..span.end, new);
        }
        text
    }
}

/// A repair to try: lines to give first, the line in place of the failed one, and variables
/// the lines ahead follow.
struct Fix {
    kind: RepairKind,
    before: Vec<String>,
    line: String,
    renames: Vec<(String, String)>,
}

impl Fix {
    fn replace(kind: RepairKind, line: String) -> Fix {
        Fix {
            kind,
            before: Vec::new(),
            line,
            renames: Vec::new(),
        }
    }
}

struct Agent<'s> {
    session: &'s mut Session,
    /// The script's lines not given yet.
    ahead: VecDeque<String>,
    /// The lines of the network now, in order, each with the turn that gave it.
    given: Vec<(String, Option<usize>)>,
    /// What the lines ahead say in place of a variable.
    renames: HashMap<String, String>,
    /// Every variable of the network and the script, so that a fresh one is new.
    names: HashSet<String>,
    /// The kitchen's containers that contents can be moved into, in the kitchen's order.
    containers: Vec<String>,
    /// Lines still waiting at the script's end, taken back and given again: they may not wait
    /// a second time.
    rewound: HashSet<String>,
    turns: Vec<Turn>,
    repairs: Vec<Repair>,
}

impl<'s> Agent<'s> {
    fn new(session: &'s mut Session, script: &str) -> Agent<'s> {
        let network = session.network();
        let given: Vec<(String, Option<usize>)> = network
            .lines()
            .skip(1)
            .map(|l| (l.to_string(), None))
            .collect();
        let ahead: VecDeque<String> = script
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        let names = given
            .iter()
            .map(|(l, _)| l)
            .chain(ahead.iter())
            .filter_map(|l| Action::read(l))
            .flat_map(|a| a.vars().map(|(_, v)| v).collect::<Vec<_>>())
            .collect();
        let containers = containers(session);
        Agent {
            session,
            ahead,
            given,
            renames: HashMap::new(),
            names,
            containers,
            rewound: HashSet::new(),
            turns: Vec::new(),
            repairs: Vec::new(),
        }
    }

    /// Every script line given, then each line still waiting given again with those after it.
    fn run(&mut self) -> Result<(), SessionError> {
        // Each line of the script is given again at most once for each line rewound.
        let most_rewinds = self.ahead.len();
        loop {
            while let Some(line) = self.ahead.pop_front() {
                self.give(&line)?;
            }
            let stuck = self.session.waiting().first().copied().unwrap_or_default();
            let line = self
                .given
                .get(stuck.saturating_sub(2))
                .map(|(l, _)| l.clone());
            match line {
                Some(line) if stuck > 1 && self.rewound.len() < most_rewinds => {
                    if !self.rewound.insert(line) {
                        return Ok(());
                    }
                    self.rewind_to(stuck)?;
                }
                _ => return Ok(()),
            }
        }
    }

    /// Give one script line, repaired until it runs or waits for a line ahead, else left out.
    fn give(&mut self, script_line: &str) -> Result<(), SessionError> {
        let mut line = self.renamed(script_line);
        let mut why = String::new();
        for attempt in 0..=MAX_REPAIRS_PER_LINE {
            let seen = match self.session.act(&line) {
                Ok(seen) => seen,
                Err(SessionError::TooManyLines) => return Err(SessionError::TooManyLines),
                Err(e) => {
                    why = e.to_string();
                    break;
                }
            };
            let settled = match seen.outcome {
                // A failed object is what the reference makes of the line too.
                Outcome::Ran | Outcome::Failed | Outcome::RunsWithFirst | Outcome::NoAction => true,
                // As before `never` was told apart: a line that can never run has nothing
                // ahead that makes it run, and is repaired.
                Outcome::Waiting | Outcome::Never => {
                    !self.rewound.contains(script_line) && self.waits_for_lines_ahead(&line, &seen)
                }
                // `act` gives no `Rejected` (it is an error there); either way the line did not run.
                Outcome::Refused | Outcome::Rejected => false,
            };
            self.turns.push(Turn {
                line: line.clone(),
                observation: seen.clone(),
                taken_back: false,
            });
            self.given.push((line.clone(), Some(self.turns.len() - 1)));
            if settled {
                return Ok(());
            }
            // The repair is chosen on the kitchen with the line in it (its variables known).
            let fix = match attempt < MAX_REPAIRS_PER_LINE {
                true => self.fix(&line, &seen),
                false => None,
            };
            self.take_back()?;
            why = reason(&seen);
            match fix {
                Some(fix) => match self.prepare(fix, &line, &why)? {
                    Some(next) => line = next,
                    None => break,
                },
                None => break,
            }
        }
        self.leave_out(&line, why);
        Ok(())
    }

    /// Take the network's last line back.
    fn take_back(&mut self) -> Result<(), SessionError> {
        self.session.undo()?;
        if let Some((_, Some(turn))) = self.given.pop() {
            self.turns[turn].taken_back = true;
        }
        Ok(())
    }

    /// Give a fix's lines to come first (each must run, else all are taken back and the fix
    /// is not made) and return the line to give in place of `line`.
    fn prepare(&mut self, fix: Fix, line: &str, why: &str) -> Result<Option<String>, SessionError> {
        for (n, before) in fix.before.iter().enumerate() {
            let seen = self.session.act(before)?;
            let ran = matches!(seen.outcome, Outcome::Ran | Outcome::Failed);
            self.turns.push(Turn {
                line: before.clone(),
                observation: seen,
                taken_back: false,
            });
            self.given
                .push((before.clone(), Some(self.turns.len() - 1)));
            if !ran {
                for _ in 0..=n {
                    self.take_back()?;
                }
                return Ok(None);
            }
        }
        self.renames.extend(fix.renames);
        let mut instead = fix.before;
        instead.push(fix.line.clone());
        self.repairs.push(Repair {
            kind: fix.kind,
            line: line.to_string(),
            instead,
            why: why.to_string(),
        });
        Ok(Some(fix.line))
    }

    /// The repair of the first of the line's own diagnostics that has one.
    fn fix(&mut self, line: &str, seen: &Observation) -> Option<Fix> {
        let action = Action::read(line)?;
        seen.diagnostics
            .iter()
            .filter(|d| d.line == seen.line)
            .find_map(|d| {
                if d.code == Some(WRONG_ARITY) {
                    return self.fit_arity(&action);
                }
                match (d.severity, action.at(d.column)?) {
                    ("error", place) => {
                        let name = d.suggestions.first()?;
                        let line = action.edited(&[(place, name.clone())]);
                        Some(Fix::replace(RepairKind::Suggested, line))
                    }
                    ("note", Place::Arg(i)) => self.fix_argument(&action, i, &d.suggestions),
                    _ => None,
                }
            })
    }

    /// The action with the primitive's number of arguments: variables past it dropped, fresh
    /// variables (named after the arguments) for the ones missing.
    fn fit_arity(&mut self, action: &Action) -> Option<Fix> {
        let sig = self
            .session
            .model()
            .catalogue
            .get(&action.predicate.name)?
            .clone();
        let (given, wanted) = (action.predicate.args.len(), sig.arity());
        let spans = &action.predicate.arg_spans;
        let kept_end = match wanted {
            0 => action.predicate.name_span.end,
            n => spans
                .get(n - 1)
                .map_or(action.predicate.name_span.end, |s| s.end),
        };
        if given > wanted && (wanted..given).any(|i| action.var(i).is_none()) {
            return None;
        }
        let added: Vec<String> = (given..wanted)
            .map(|i| self.fresh(&format!("?{}", sig.args[i].name)))
            .collect();
        let mut line = action.text[..kept_end].to_string();
        for var in added {
            line.push(' ');
            line.push_str(&var);
        }
        line.push(')');
        Some(Fix::replace(RepairKind::Arity, line))
    }

    /// The repair of argument `i`, which keeps the action from running.
    fn fix_argument(&mut self, action: &Action, i: usize, suggestions: &[String]) -> Option<Fix> {
        let var = action.var(i)?;
        if self.session.unbound().contains(&var) {
            let line = action.edited(&[(Place::Arg(i), suggestions.first()?.clone())]);
            return Some(Fix::replace(RepairKind::Rebound, line));
        }
        let sig = self.signature(action)?;
        match sig.args.get(i)?.role {
            Role::Output | Role::KitchenStateOut => {
                let fresh = self.fresh(&var);
                Some(Fix {
                    kind: RepairKind::Renamed,
                    before: Vec::new(),
                    line: action.edited(&[(Place::Arg(i), fresh.clone())]),
                    renames: vec![(var, fresh)],
                })
            }
            Role::Optional => {
                let fresh = self.fresh(&var);
                let line = action.edited(&[(Place::Arg(i), fresh)]);
                Some(Fix::replace(RepairKind::DefaultTool, line))
            }
            Role::Input | Role::KitchenStateIn => self.move_into(action, &sig, i, &var),
        }
    }

    /// Contents of the wrong container for argument `i` moved into a fetched one of its type:
    /// `fetch` a kitchen container of that type, `transfer-contents` into it, and the action
    /// on the container that holds them, after the transfer's kitchen state.
    fn move_into(
        &mut self,
        action: &Action,
        sig: &PrimitiveSig,
        i: usize,
        var: &str,
    ) -> Option<Fix> {
        let ks = sig
            .args
            .iter()
            .position(|a| a.role == Role::KitchenStateIn)?;
        let ks_in = action.var(ks)?;
        let onto = &self.session.model().onto;
        let wanted = onto.class_id(&sig.args[i].ty)?;
        let container = self
            .containers
            .iter()
            .find(|c| onto.class_id(c).is_some_and(|id| onto.is_a(id, wanted)))?
            .clone();
        let [fetched, fetched_ks, moved, rest, moved_ks, quantity, unit] = [
            "?container",
            "?ks-container",
            "?moved",
            "?rest",
            "?ks-moved",
            "?quantity",
            "?unit",
        ]
        .map(|base| self.fresh(base));
        let before = vec![
            format!("(fetch {fetched} {fetched_ks} {ks_in} {container} 1)"),
            format!(
                "(transfer-contents {moved} {rest} {moved_ks} {fetched_ks} {fetched} {var} {quantity} {unit})"
            ),
        ];
        Some(Fix {
            kind: RepairKind::Moved,
            before,
            line: action.edited(&[(Place::Arg(i), moved), (Place::Arg(ks), moved_ks)]),
            renames: Vec::new(),
        })
    }

    /// Whether a waiting line waits only for variables that lines ahead, or lines given that
    /// wait too, make.
    fn waits_for_lines_ahead(&self, line: &str, seen: &Observation) -> bool {
        let Some(action) = Action::read(line) else {
            return false;
        };
        let unbound = self.session.unbound();
        let mut notes = seen
            .diagnostics
            .iter()
            .filter(|d| d.line == seen.line && d.severity == "note")
            .peekable();
        notes.peek().is_some()
            && notes.all(|d| match action.at(d.column) {
                Some(Place::Arg(i)) => action
                    .var(i)
                    .is_some_and(|v| unbound.contains(&v) && self.made_later(&v)),
                _ => false,
            })
    }

    /// Whether a line ahead or a waiting line makes `var` (has it where its primitive binds
    /// an argument).
    fn made_later(&self, var: &str) -> bool {
        let waiting = self.session.waiting();
        let waiting = waiting
            .iter()
            .filter_map(|&l| self.given.get(l.saturating_sub(2)))
            .map(|(line, _)| line.clone());
        let ahead = self.ahead.iter().map(|line| self.renamed(line));
        waiting.chain(ahead).any(|line| {
            let Some(action) = Action::read(&line) else {
                return false;
            };
            let Some(sig) = self.signature(&action) else {
                return false;
            };
            action
                .vars()
                .any(|(i, v)| v == var && sig.args[i].role.can_produce())
        })
    }

    /// Leave `line` out: the lines ahead take its kitchen state in for its kitchen state out
    /// and its first input for its outputs.
    fn leave_out(&mut self, line: &str, why: String) {
        if let Some(action) = Action::read(line)
            && let Some(sig) = self.signature(&action)
        {
            let var_at = |role: Role| {
                let mut at = sig
                    .args
                    .iter()
                    .enumerate()
                    .filter(move |(_, a)| a.role == role);
                at.find_map(|(i, _)| action.var(i))
            };
            let mut rewired = Vec::new();
            if let (Some(out), Some(into)) =
                (var_at(Role::KitchenStateOut), var_at(Role::KitchenStateIn))
            {
                rewired.push((out, into));
            }
            if let Some(source) = var_at(Role::Input) {
                let outputs = sig
                    .args
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| a.role == Role::Output);
                let outputs: Vec<String> = outputs.filter_map(|(i, _)| action.var(i)).collect();
                rewired.extend(outputs.into_iter().map(|o| (o, source.clone())));
            }
            let rewired = rewired.into_iter().filter(|(from, to)| from != to);
            self.renames.extend(rewired);
        }
        self.repairs.push(Repair {
            kind: RepairKind::LeftOut,
            line: line.to_string(),
            instead: Vec::new(),
            why,
        });
    }

    /// The lines from network line `stuck` (still waiting) on taken back, to be given again.
    fn rewind_to(&mut self, stuck: usize) -> Result<(), SessionError> {
        let index = stuck.saturating_sub(2);
        while self.given.len() > index {
            if let Some((line, _)) = self.given.last() {
                self.ahead.push_front(line.clone());
            }
            self.take_back()?;
        }
        Ok(())
    }

    /// The line with every variable the way the lines before it were left: renamed, rewired.
    fn renamed(&self, line: &str) -> String {
        let Some(action) = Action::read(line) else {
            return line.to_string();
        };
        let edits: Vec<(Place, String)> = action
            .vars()
            .filter_map(|(i, v)| {
                let mut now = v.clone();
                for _ in 0..=self.renames.len() {
                    match self.renames.get(&now) {
                        Some(next) => now = next.clone(),
                        None => break,
                    }
                }
                (now != v).then_some((Place::Arg(i), now))
            })
            .collect();
        match edits.is_empty() {
            true => line.to_string(),
            false => action.edited(&edits),
        }
    }

    /// A variable named like `base` that neither the network nor the script has.
    fn fresh(&mut self, base: &str) -> String {
        let name = (1..)
            .map(|n| match n {
                1 => base.to_string(),
                n => format!("{base}-{n}"),
            })
            .find(|name| !self.names.contains(name))
            .unwrap_or_default();
        self.names.insert(name.clone());
        name
    }

    /// The catalogue's entry for the action, when it names a primitive with its arity.
    fn signature(&self, action: &Action) -> Option<PrimitiveSig> {
        let sig = self.session.model().catalogue.get(&action.predicate.name)?;
        (sig.arity() == action.predicate.args.len()).then(|| sig.clone())
    }
}

/// The kitchen's transferable containers (what contents can be moved into), each class once,
/// in the order of the kitchen's places.
fn containers(session: &Session) -> Vec<String> {
    let onto = &session.model().onto;
    let Some(transferable) = onto.class_id("transferable-container") else {
        return Vec::new();
    };
    let mut seen = HashSet::new();
    session
        .opening()
        .places
        .iter()
        .flat_map(|p| p.contents.iter().map(|node| node.class.clone()))
        .filter(|c| {
            onto.class_id(c)
                .is_some_and(|id| onto.is_a(id, transferable))
        })
        .filter(|c| seen.insert(c.clone()))
        .collect()
}

/// Why the line did not run, in the session's words: its first diagnostic, else the text.
fn reason(seen: &Observation) -> String {
    let own = seen.diagnostics.iter().find(|d| d.line == seen.line);
    own.map_or_else(|| seen.text.clone(), |d| d.message.clone())
}
