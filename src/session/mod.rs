//! The kitchen as an environment for agents: a network written one action at a time, each
//! action run on the kitchen the earlier ones left, observed, taken back, and scored at the
//! end exactly as the network's `.solution` file is scored.
//!
//! A [`Session`] holds one recipe's network. [`Session::act`] appends a line and runs its
//! action on the current bindings ([`Stepwise`]: no search, no replay); every line given is
//! kept, whatever became of it, because the reference reads a file whole: an action that
//! cannot run yet may run once later actions bind its inputs, and a line the reference
//! refuses refuses the file. [`Session::undo`] takes the last line back. So the network is
//! always the text of the lines given, and [`Session::finish`] evaluates that text through
//! [`Evaluator::evaluate`], the path of the `evaluate` command: the score is the file's
//! score by construction. Sessions share nothing but the read-only [`Evaluator`].

pub mod admissible;
mod advice;
pub mod describe;
pub mod failed;
pub mod hint;
pub mod language;
pub mod observation;
pub mod progress;
pub mod trajectory;
pub mod words;

use crate::base::budget::{self, Budget, Phase};
use crate::base::profile::Profile;
use crate::base::suggest::closest;
use crate::benchmark::{Benchmark, DataSource};
use crate::evaluate::{Evaluator, Refusal};
use crate::language::diagnostic::LineIndex;
use crate::language::parse::parse;
use crate::language::validate::so_far::NetworkSoFar;
use crate::metrics::metric::{Metric, MetricSet};
use crate::report::batch_report::{RefusalReport, Row, UnitOutcome};
use crate::simulation::stepwise::{Pushed, Standing, Stepwise};
use crate::simulation::{Binding, Model, SimError};
use observation::{Located, ObjectView, Observation, Opening, Outcome, Score, View};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The most lines a session's network may have: twenty times the longest gold network (53
/// actions). A line is validated against what the lines before it established, not with
/// them, so this bounds the session's memory, not an act's work.
pub const MAX_LINES: usize = 1_000;

/// The longest line accepted, in bytes: the gold networks' lines are under 200.
pub const MAX_LINE_BYTES: usize = 4_096;

/// Why a session cannot do what it was asked; the session is unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error("{0}")]
    Data(String),
    #[error("the benchmark has no recipe `{recipe}`{hint}")]
    UnknownRecipe { recipe: String, hint: String },
    #[error("a line of {bytes} bytes; lines of at most {MAX_LINE_BYTES} bytes are accepted")]
    LineTooLong { bytes: usize },
    #[error("one line at a time: the text holds a line break")]
    NotOneLine,
    #[error("the network has {MAX_LINES} lines, the most a session takes")]
    TooManyLines,
    #[error(
        "a session writes the network of `{recipe}` alone: a header may only open it and name it"
    )]
    Header { recipe: String },
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("no variable or place `{name}` in the kitchen{hint}")]
    UnknownName { name: String, hint: String },
}

/// One line of the network, with its action when it holds one.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    action: Option<usize>,
}

/// One agent's network of one recipe, run as it is written. A clone is a fork: an independent
/// session with the same lines (sharing the evaluator and every kitchen object it has not
/// changed), logging nowhere.
#[derive(Clone)]
pub struct Session {
    evaluator: Arc<Evaluator>,
    recipe: String,
    /// The header line: `#recipe`, or the one the agent gave first.
    header: String,
    lines: Vec<Line>,
    /// The network's text: the header, then the lines, each ended by a line feed.
    text: String,
    /// Where each line of `text` starts (the header at 0), and where the next would.
    starts: Vec<usize>,
    /// The line (index into `lines`) of each action of `run`.
    action_lines: Vec<usize>,
    run: Stepwise,
    /// What the lines so far established, against which a new line is validated.
    so_far: NetworkSoFar,
    /// Where the calls are logged, if anywhere ([`trajectory`]).
    log: trajectory::LogSlot,
    /// What [`Session::progress`] measured of the steps that ran, for the next measure.
    progress: progress::Memo,
}

impl Session {
    /// A session on `recipe` of a profile's benchmark (the official data's folder, a user
    /// benchmark's or the demo), with an evaluator of its own. Sessions on one benchmark share
    /// one with [`Session::with_evaluator`].
    pub fn start(
        recipe: &str,
        profile: Profile,
        benchmark: impl Into<DataSource>,
    ) -> Result<Session, SessionError> {
        let evaluator =
            Evaluator::new(profile, benchmark).map_err(|e| SessionError::Data(e.to_string()))?;
        Session::with_evaluator(Arc::new(evaluator), recipe)
    }

    /// A session on `recipe` scored by `evaluator`.
    pub fn with_evaluator(
        evaluator: Arc<Evaluator>,
        recipe: &str,
    ) -> Result<Session, SessionError> {
        let recipe = recipe.to_lowercase();
        if evaluator.benchmark.recipe(&recipe).is_none() {
            let close = closest(&recipe, evaluator.benchmark.ids().into_iter(), 3);
            let hint = match close.is_empty() {
                true => String::new(),
                false => format!(" (did you mean {}?)", close.join(", ")),
            };
            return Err(SessionError::UnknownRecipe { recipe, hint });
        }
        let run = Stepwise::new(&evaluator.model, &recipe);
        let mut session = Session {
            header: String::new(),
            recipe,
            lines: Vec::new(),
            text: String::new(),
            starts: Vec::new(),
            action_lines: Vec::new(),
            run,
            so_far: NetworkSoFar::new(""),
            evaluator,
            log: Default::default(),
            progress: progress::Memo::default(),
        };
        session.open(format!("#{}", session.recipe));
        Ok(session)
    }

    /// The model the session runs on: its catalogue (the primitives' arguments and their
    /// roles) and ontology (the classes) are what an agent reads its observations against.
    pub fn model(&self) -> &Model {
        &self.evaluator.model
    }

    /// The recipe, its text and the initial kitchen: described once per evaluator, as every
    /// session on it opens in the same kitchen ([`KitchenWords`]), and each recipe's text read
    /// once ([`RecipeTexts`]).
    pub fn opening(&self) -> Opening {
        let words = self.evaluator.derived(KitchenWords::of);
        Opening {
            recipe: self.recipe.clone(),
            recipe_text: self.recipe_text(),
            kitchen: words.kitchen.clone(),
            places: words.places.clone(),
            time: words.time.clone(),
            language: words.language.clone(),
        }
    }

    /// The action language: every primitive of the session's catalogue with its arguments,
    /// cases, defaults and what it does.
    pub fn primitives(&self) -> Vec<language::Primitive> {
        language::primitives(&self.model().catalogue)
    }

    /// The lines that run now, as `query` asks (see [`admissible`]): each tried on a copy of
    /// the run, within the model's time budget; the session is unchanged.
    pub fn admissible(&self, query: &admissible::Query) -> Vec<admissible::Candidate> {
        let model = self.model();
        let offered = Budget::new(model.time_budget).run(|| {
            budget::enter(Phase::Simulation);
            let mut scene = admissible::Scene::new(model, &self.run, self.variables_written());
            scene.candidates(query)
        });
        self.record_admissible(query, &offered);
        offered
    }

    /// The gold network's next action the network written does not match yet, with the
    /// agent's variables (see [`hint`]): for learning and debugging only, as it reveals the
    /// gold. None when every gold action is matched.
    pub fn hint(&self) -> Option<hint::Hint> {
        let hint = self.hint_unlogged();
        self.record_hint(&hint);
        hint
    }

    fn hint_unlogged(&self) -> Option<hint::Hint> {
        let model = self.model();
        let gold = &self.evaluator.benchmark.recipe(&self.recipe)?.network;
        let kitchen = admissible::kitchen_variable(model, &self.run);
        let written: std::collections::HashSet<&str> = self.variables_written().collect();
        let kitchen = kitchen.as_deref().map(|k| k.trim_start_matches('?'));
        hint::next(model, gold, &self.run, kitchen, &written)
    }

    fn recipe_text(&self) -> Option<String> {
        let texts = self.evaluator.derived(|_| RecipeTexts::default());
        let mut read = texts.0.lock().unwrap_or_else(PoisonError::into_inner);
        let text = read
            .entry(self.recipe.clone())
            .or_insert_with(|| read_recipe_text(&self.evaluator.benchmark, &self.recipe));
        text.clone()
    }

    /// The network so far as a `.solution` text.
    pub fn network(&self) -> String {
        self.text.clone()
    }

    /// Start the network, of no line yet, with `header`.
    fn open(&mut self, header: String) {
        self.so_far = NetworkSoFar::new(&header);
        self.text = format!("{header}\n");
        self.starts = vec![0, self.text.len()];
        self.header = header;
    }

    /// Append one line of MUHAI Cooking Language and run its action on the current kitchen,
    /// within the model's time budget.
    pub fn act(&mut self, line: &str) -> Result<Observation, SessionError> {
        let result = self.act_unlogged(line);
        self.record_act(line, &result);
        result
    }

    fn act_unlogged(&mut self, line: &str) -> Result<Observation, SessionError> {
        if line.len() > MAX_LINE_BYTES {
            return Err(SessionError::LineTooLong { bytes: line.len() });
        }
        if line.contains('\n') {
            return Err(SessionError::NotOneLine);
        }
        if self.lines.len() >= MAX_LINES {
            return Err(SessionError::TooManyLines);
        }
        if line.starts_with('#') {
            return self.act_header(line);
        }
        Budget::new(self.model().time_budget).run(|| {
            budget::enter(Phase::Simulation);
            Ok(self.act_line(line))
        })
    }

    /// [`Session::act`] for a front end that answers every line with an observation: a line
    /// the session cannot take (too long, holding a line break, past the line bound, a header
    /// out of place) is `rejected`, with the reason as an error at the line it would have
    /// been, and the network stays as it was.
    pub fn attempt(&mut self, line: &str) -> Observation {
        self.act(line).unwrap_or_else(|e| self.rejected(&e))
    }

    /// The observation of a line the session did not take for `error`.
    fn rejected(&self, error: &SessionError) -> Observation {
        let hint = match error {
            SessionError::TooManyLines => "undo() takes lines back; finish() scores the network",
            SessionError::NotOneLine => "give one line at a time",
            _ => "the network is unchanged",
        };
        let number = self.lines.len() + 2;
        Observation {
            ok: false,
            outcome: Outcome::Rejected,
            line: number,
            text: format!("the line was not taken: {error}"),
            objects: Vec::new(),
            diagnostics: vec![Located::signalled(number, 1, &error.to_string(), hint, "")],
            time: self.time(),
        }
    }

    /// A header given first names the recipe as the agent writes it (`#AFGHAN-BISCUITS`).
    fn act_header(&mut self, line: &str) -> Result<Observation, SessionError> {
        let text = format!("{line}\n");
        let names_it = parse(&text)
            .file
            .recipes
            .first()
            .is_some_and(|r| r.id == self.recipe);
        if !self.lines.is_empty() || !names_it {
            return Err(SessionError::Header {
                recipe: self.recipe.clone(),
            });
        }
        self.open(line.to_string());
        Ok(Observation {
            ok: true,
            outcome: Outcome::NoAction,
            line: 1,
            text: format!("the network of {}", self.recipe),
            objects: Vec::new(),
            diagnostics: Vec::new(),
            time: self.time(),
        })
    }

    fn act_line(&mut self, line: &str) -> Observation {
        let start = self.text.len();
        self.text.push_str(line);
        self.text.push('\n');
        self.starts.push(self.text.len());
        let validator = self.evaluator.model.validator();
        let checked = self.so_far.add(&validator, line, start);
        let index = LineIndex::with_starts(&self.text, &self.starts);
        let mut diagnostics: Vec<Located> = checked
            .diagnostics
            .iter()
            .map(|d| Located::diagnostic(d, &index))
            .collect();
        let errors = || checked.diagnostics.iter().filter(|d| d.is_error());
        let refused = errors().next().is_some();
        // An error in this line's own text keeps its action from ever running; one elsewhere
        // (the network still lacks its get-kitchen) clears with later lines, and the action
        // then runs as the finished network's evaluation runs it.
        let own_error = errors().any(|d| d.span.start >= start);
        let number = self.lines.len() + 2;
        let predicate = checked.predicate;
        let action = predicate.as_ref().map(|_| self.action_lines.len());
        self.lines.push(Line {
            text: line.to_string(),
            action,
        });
        let Some(predicate) = predicate else {
            let (outcome, text) = match refused {
                true => (Outcome::Refused, refusal_words(&diagnostics)),
                false => (Outcome::NoAction, "nothing to run".to_string()),
            };
            return self.observation(number, outcome, text, diagnostics, Vec::new());
        };
        self.action_lines.push(number - 2);
        let latest = describe::kitchen_time(self.model(), self.run.kitchen(self.model()));
        let pushed = self.run.push(&self.evaluator.model, predicate, !own_error);
        let p = self.action_lines.len() - 1;
        let (mut outcome, mut text) = self.standing_words(p, &mut diagnostics, &index);
        diagnostics.extend(self.fork_warning(p, latest, &index));
        let objects = self.ran_words(&pushed, p, &mut text);
        diagnostics.extend(
            pushed
                .ran
                .iter()
                .filter_map(|&q| self.misuse_warning(q, &index)),
        );
        let failed = (objects.iter()).find_map(|o| o.failed.as_ref().filter(|_| o.line == number));
        if let Some(why) = failed {
            let name = &self.run.recipe().predicates[p].name;
            let ran = format!("{name} ran");
            if let Some(rest) = text.strip_prefix(&ran) {
                text = format!("{ran} but made a failed object{rest}");
            }
            let (line, column) = index.line_col(self.run.recipe().predicates[p].span.start);
            let message = format!("{name} made a failed object: {why}");
            diagnostics.push(Located::note(line, column, "warning", message, Vec::new()));
            outcome = Outcome::Failed;
        }
        if let Some(q) = pushed.refused.filter(|&q| q != p) {
            self.refusal_note(q, &mut text, &mut diagnostics, &index);
        }
        self.observation(number, outcome, text, diagnostics, objects)
    }

    fn observation(
        &self,
        line: usize,
        outcome: Outcome,
        text: String,
        diagnostics: Vec<Located>,
        objects: Vec<ObjectView>,
    ) -> Observation {
        Observation {
            ok: matches!(
                outcome,
                Outcome::Ran | Outcome::RunsWithFirst | Outcome::NoAction
            ),
            outcome,
            line,
            text,
            objects,
            diagnostics,
            time: self.time(),
        }
    }

    /// What became of action `p` and why, in words; notes on why it waits join `diagnostics`.
    fn standing_words(
        &self,
        p: usize,
        diagnostics: &mut Vec<Located>,
        index: &LineIndex<'_>,
    ) -> (Outcome, String) {
        let name = &self.run.recipe().predicates[p].name;
        match self.run.standing(p) {
            Some(Standing::Ran { .. }) => (Outcome::Ran, format!("{name} ran")),
            Some(Standing::Repeat { first }) => (
                Outcome::RunsWithFirst,
                format!(
                    "{name} repeats line {} word for word: the reference runs it with that one",
                    self.line_of(*first)
                ),
            ),
            Some(Standing::Refused(e)) => {
                let span = self.run.recipe().predicates[p].span;
                let (line, column) = index.line_col(span.start);
                let located = Located::signalled(
                    line,
                    column,
                    &e.message,
                    "undo() takes the line back",
                    name,
                );
                let text = format!("{name} {}", refused_words(e, &located.message));
                diagnostics.push(located);
                (Outcome::Refused, text)
            }
            Some(Standing::Inert) => (Outcome::Refused, refusal_words(diagnostics)),
            Some(Standing::Waiting) | None => {
                let notes = self.blocked_notes(p, index);
                let why = (notes.iter())
                    .map(|n| n.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; ");
                let seen = match self.never(p) {
                    true => (
                        Outcome::Never,
                        format!(
                            "{name} can never run in this network: {why}; undo() takes the line back"
                        ),
                    ),
                    false => (Outcome::Waiting, format!("{name} cannot run yet: {why}")),
                };
                diagnostics.extend(notes);
                seen
            }
        }
    }

    /// A note per argument that keeps waiting action `p` from running, at the argument.
    fn blocked_notes(&self, p: usize, index: &LineIndex<'_>) -> Vec<Located> {
        let model = self.model();
        let predicate = &self.run.recipe().predicates[p];
        let blocked = self.run.blocked(model, p);
        let sig = self.run.sig(model, p);
        let slots = self.run.slots(p);
        let at =
            |i: usize| index.line_col(predicate.arg_spans.get(i).unwrap_or(predicate.span).start);
        let arg_name = |i: usize| {
            sig.and_then(|s| s.args.get(i))
                .map_or("", |a| a.name.as_str())
        };
        let var = |i: usize| self.run.name(slots[i]).to_string();
        let mut notes = Vec::new();
        let mut note = |i: usize, message: String, suggestions: Vec<String>| {
            let (line, column) = at(i);
            notes.push(Located::note(line, column, "note", message, suggestions));
        };
        for &i in &blocked.mistyped {
            let ty = sig.map_or("", |s| s.args[i].ty.as_str());
            let held = self
                .run
                .binding(slots[i])
                .map(|b| describe::words(model, &b.value));
            let held = held.unwrap_or_default();
            note(
                i,
                format!("{} ({}) holds {held}, not a {ty}", var(i), arg_name(i)),
                Vec::new(),
            );
        }
        for &i in &blocked.unbound {
            let close = self.bound_like(&var(i));
            let message = format!(
                "{} ({}) is not bound: no action so far made it",
                var(i),
                arg_name(i)
            );
            note(i, message, close);
        }
        for &i in &blocked.bound {
            let message = format!(
                "{} ({}) is bound already, and this primitive makes it: an output needs a new variable",
                var(i),
                arg_name(i)
            );
            note(i, message, Vec::new());
        }
        if notes.is_empty() {
            let (line, column) = index.line_col(predicate.span.start);
            notes.push(Located::note(
                line,
                column,
                "note",
                "its bound arguments are no case of the primitive".into(),
                Vec::new(),
            ));
        }
        notes
    }

    /// Did-you-mean among the bound variables for an unbound one.
    fn bound_like(&self, variable: &str) -> Vec<String> {
        let bound: Vec<&str> = self
            .run
            .variables()
            .filter(|(_, b)| b.is_bound())
            .map(|(n, _)| n)
            .collect();
        let close = closest(variable, bound.into_iter(), 3);
        close.into_iter().map(str::to_string).collect()
    }

    /// The objects the actions that ran made, their lines added to `text` when they are
    /// waiting actions that ran now.
    fn ran_words(&self, pushed: &Pushed, p: usize, text: &mut String) -> Vec<ObjectView> {
        let mut objects = Vec::new();
        for &q in &pushed.ran {
            let made = self.made(q);
            if q != p {
                text.push_str(&format!(
                    "; then line {} ran ({}), which waited for it",
                    self.line_of(q),
                    self.run.recipe().predicates[q].name
                ));
            }
            objects.extend(made);
        }
        let made: Vec<String> = objects
            .iter()
            .map(|o| format!("{} = {}", o.variable, o.words))
            .collect();
        if !made.is_empty() {
            text.push_str(&format!(": {}", made.join("; ")));
        }
        objects
    }

    /// A waiting action `q` ran after this line's and signalled an error.
    fn refusal_note(
        &self,
        q: usize,
        text: &mut String,
        diagnostics: &mut Vec<Located>,
        index: &LineIndex<'_>,
    ) {
        if let Some(Standing::Refused(e)) = self.run.standing(q) {
            let (line, column) = index.line_col(self.run.recipe().predicates[q].span.start);
            let located = Located::signalled(
                line,
                column,
                &e.message,
                "undo() takes this line back",
                &self.run.recipe().predicates[q].name,
            );
            text.push_str(&format!(
                "; line {line} then {}",
                refused_words(e, &located.message)
            ));
            diagnostics.push(located);
        }
    }

    /// The objects action `q` bound, with its line.
    fn made(&self, q: usize) -> Vec<ObjectView> {
        let Some(sig) = self.run.sig(self.model(), q) else {
            return Vec::new();
        };
        self.produced(q)
            .into_iter()
            .filter_map(|(i, slot)| {
                let binding = self.run.binding(slot)?;
                Some(self.view(
                    self.line_of(q),
                    self.run.name(slot),
                    &sig.args[i].name,
                    binding,
                    Some(q),
                ))
            })
            .collect()
    }

    /// The arguments (position, slot) action `q` bound when it ran.
    fn produced(&self, q: usize) -> Vec<(usize, usize)> {
        let case = match (self.run.standing(q), self.run.sig(self.model(), q)) {
            (Some(Standing::Ran { case, .. }), Some(sig)) => sig.cases.get(*case),
            _ => None,
        };
        let Some(case) = case else {
            return Vec::new();
        };
        let slots = self.run.slots(q);
        (0..slots.len())
            .filter(|&i| !case.is_input(i))
            .map(|i| (i, slots[i]))
            .collect()
    }

    /// The object `binding` holds; `maker`, the action that made it, says why it is a failed
    /// object when it is one.
    fn view(
        &self,
        line: usize,
        variable: &str,
        argument: &str,
        binding: &Binding,
        maker: Option<usize>,
    ) -> ObjectView {
        let model = self.model();
        let mut said = describe::words(model, &binding.value);
        if let Some(t) = binding.available_at {
            said.push_str(&format!(", ready at {}", words::clock(t)));
        }
        let failed = (binding.value.as_obj())
            .filter(|e| model.onto.is_a(e.class, model.k.failed_object))
            .and(maker)
            .map(|q| failed::why(model, &self.run, q));
        if let Some(why) = &failed {
            said.push_str(&format!(": {why}"));
        }
        ObjectView {
            line,
            variable: variable.to_string(),
            argument: argument.to_string(),
            words: said,
            available_at: binding.available_at.map(crate::report::figures::number),
            object: describe::tree(model, &binding.value),
            failed,
        }
    }

    /// The 1-based network line of action `p`.
    fn line_of(&self, p: usize) -> usize {
        self.action_lines.get(p).map_or(0, |l| l + 2)
    }

    /// The kitchen time of the current kitchen state.
    fn time(&self) -> serde_json::Value {
        let model = self.model();
        let kitchen = self.run.kitchen(model);
        crate::report::figures::number(describe::kitchen_time(model, kitchen))
    }

    /// A variable (`?bowl`) with what it holds, or a place of the current kitchen (`fridge`)
    /// with what it holds now.
    pub fn look(&self, name: &str) -> Result<View, SessionError> {
        let view = self.look_unlogged(name);
        self.record_look(name, &view);
        view
    }

    fn look_unlogged(&self, name: &str) -> Result<View, SessionError> {
        let model = self.model();
        let name = name.trim().to_lowercase();
        let variable = name.strip_prefix('?').unwrap_or(&name);
        if let Some(slot) = self.run.variable(variable) {
            let binding = self.run.binding(slot).filter(|b| b.is_bound());
            let maker = (0..self.action_lines.len())
                .find(|&p| self.produced(p).iter().any(|&(_, s)| s == slot));
            return Ok(match binding {
                Some(b) => {
                    let view = self.view(
                        maker.map_or(0, |p| self.line_of(p)),
                        &format!("?{variable}"),
                        "",
                        b,
                        maker,
                    );
                    View {
                        text: format!("?{variable} = {}", view.words),
                        object: Some(view),
                        place: None,
                    }
                }
                None => View {
                    text: format!("?{variable} is not bound: no action so far made it"),
                    object: None,
                    place: None,
                },
            });
        }
        let kitchen = self.run.kitchen(model);
        let places = kitchen.val(model.k.contents).items();
        let found = places
            .iter()
            .filter_map(|v| v.as_obj())
            .find(|e| model.onto.class_name(e.class) == name);
        if let Some(place) = found {
            let place = describe::place(model, place);
            return Ok(View {
                text: place.words.clone(),
                object: None,
                place: Some(place),
            });
        }
        let mut known: Vec<&str> = self.run.variables().map(|(n, _)| n).collect();
        known.extend(
            places
                .iter()
                .filter_map(|v| v.as_obj())
                .map(|e| model.onto.class_name(e.class)),
        );
        let close = closest(&name, known.into_iter(), 3);
        let hint = match close.is_empty() {
            true => String::new(),
            false => format!(" (did you mean {}?)", close.join(", ")),
        };
        Err(SessionError::UnknownName { name, hint })
    }

    /// Take back the last line (and its action); the header given first when no line is left.
    pub fn undo(&mut self) -> Result<String, SessionError> {
        let undone = self.undo_unlogged();
        self.record_undo(undone.as_deref().ok());
        undone
    }

    fn undo_unlogged(&mut self) -> Result<String, SessionError> {
        let Some(line) = self.lines.pop() else {
            let default = format!("#{}", self.recipe);
            if self.header == default {
                return Err(SessionError::NothingToUndo);
            }
            let given = self.header.clone();
            self.open(default);
            return Ok(given);
        };
        if line.action.is_some() {
            self.action_lines.pop();
            self.run.undo();
        }
        self.starts.pop();
        self.text.truncate(self.starts.last().copied().unwrap_or(0));
        self.so_far.undo();
        Ok(line.text)
    }

    /// The four metrics of the network written, with their detail: the evaluation of
    /// [`Session::network`] as a `.solution` file. A network with an error goes through the
    /// `evaluate` command's path, which refuses it; a valid one is scored as read and checked
    /// line by line, not read again, and the simulation's search replays the steps the
    /// session ran (the path it takes first) rather than running them again.
    pub fn finish(&self) -> Score {
        let text = self.network();
        let metrics = Metric::ALL
            .into_iter()
            .fold(MetricSet::empty(), MetricSet::with);
        let result = Budget::new(self.model().time_budget).run(|| {
            if !self.has_errors() {
                let (recipe, first) = (self.run.recipe(), Some(self.run.first_path()));
                return self.evaluator.evaluate_after(recipe, first, &metrics);
            }
            let rows = self.evaluator.evaluate(&text, &metrics)?;
            rows.into_iter().next().ok_or_else(|| Refusal {
                message: "the network has no recipe".into(),
                diagnostics: Default::default(),
                recipes: Vec::new(),
            })
        });
        let (csv, unit) = match &result {
            Ok(row) => (
                crate::report::csv::render(std::slice::from_ref(row), &metrics),
                UnitOutcome::Scored(Box::new(Row::new(row, &metrics))),
            ),
            Err(refusal) => (
                String::new(),
                UnitOutcome::Refused(RefusalReport {
                    message: refusal.message.clone(),
                    rendered: refusal.render(&self.file_name(), &text),
                    recipes: refusal.recipes.clone(),
                }),
            ),
        };
        let no_dish = matches!(&result, Ok(row) if row.dish_approximation_score.is_none());
        let score = Score {
            result,
            csv,
            json: crate::report::json::value(&unit),
            why_no_dish: no_dish.then(|| self.why_no_dish()),
        };
        self.record_finish(&score);
        score
    }

    /// Whether the network as it stands has an error, for which its evaluation (and so
    /// [`Session::finish`]) refuses it, known without reading the network again.
    pub fn has_errors(&self) -> bool {
        self.so_far.has_errors()
    }

    /// The recipe's id as the benchmark spells it.
    pub fn recipe(&self) -> &str {
        &self.recipe
    }

    /// The gold network of the session's recipe as a `.solution` text (none when the
    /// benchmark has none).
    pub fn gold(&self) -> Option<String> {
        let gold = self.evaluator.benchmark.recipe(&self.recipe)?;
        Some(gold.network.to_string())
    }

    /// The name the network's diagnostics are rendered under: `RECIPE.solution`.
    pub fn file_name(&self) -> String {
        format!("{}.solution", self.recipe)
    }

    /// The lines of the actions still waiting to run.
    pub fn waiting(&self) -> Vec<usize> {
        (0..self.action_lines.len())
            .filter(|&p| self.run.standing(p) == Some(&Standing::Waiting))
            .map(|p| self.line_of(p))
            .collect()
    }

    /// How many lines the network has, its header's included.
    pub fn line_count(&self) -> usize {
        self.lines.len() + 1
    }

    /// The variables of the actions written, without `?` (each once, in no particular order),
    /// known without reading the network again.
    pub fn variables_written(&self) -> impl Iterator<Item = &str> {
        self.so_far.variables()
    }

    /// The variables no action has bound yet: a network is complete when none is left.
    pub fn unbound(&self) -> Vec<String> {
        self.run
            .variables()
            .filter(|(_, b)| !b.is_bound())
            .map(|(n, _)| n.to_string())
            .collect()
    }

    /// The execution time of what ran so far: the latest time any binding is ready.
    pub fn execution_time(&self) -> Option<crate::base::number::Number> {
        self.run
            .variables()
            .filter_map(|(_, b)| b.available_at)
            .reduce(|a, b| a.max(b))
    }
}

/// The initial kitchen of an evaluator's model in words and the action language of its
/// catalogue: the same for every session on the evaluator, and most of what describing an
/// opening cost (a tree of every place's contents).
struct KitchenWords {
    places: Vec<describe::Place>,
    kitchen: String,
    time: serde_json::Value,
    language: String,
}

impl KitchenWords {
    fn of(evaluator: &Evaluator) -> KitchenWords {
        let model = &evaluator.model;
        let places = describe::kitchen(model, &model.kitchen);
        KitchenWords {
            kitchen: places.iter().map(|p| format!("{}.\n", p.words)).collect(),
            places,
            time: crate::report::figures::number(describe::kitchen_time(model, &model.kitchen)),
            language: language::compact(&model.catalogue),
        }
    }
}

/// The recipe texts of an evaluator's benchmark as read the first time a session on each
/// opened, rendered; none where the benchmark has no text for it.
#[derive(Default)]
struct RecipeTexts(Mutex<HashMap<String, Option<String>>>);

fn read_recipe_text(benchmark: &Benchmark, recipe: &str) -> Option<String> {
    let manifest = benchmark.source.manifest(benchmark.profile).ok()?;
    let entry = manifest.recipes.iter().find(|r| r.id == recipe)?;
    let path = benchmark.source.recipe_text(entry)?;
    let text = crate::translate::recipe_text::read(&path).ok()?;
    Some(crate::translate::llm::retrieve::render_recipe(&text))
}

/// A line the reference refuses, in words: its first error.
fn refusal_words(diagnostics: &[Located]) -> String {
    let first = diagnostics.iter().find(|d| d.severity == "error");
    let why = first.map_or("an error", |d| d.message.as_str());
    format!("the reference refuses a network with this line: {why}")
}

/// Why an action was refused, after its name: its primitive signalled an error (which makes the
/// reference refuse the network), or the recipe's budget (memory, time, a stop) refused it,
/// which no primitive did; `message` is the error's words as the observation shows them.
fn refused_words(e: &SimError, message: &str) -> String {
    match e.budget {
        Some(_) => format!("was refused by the recipe's budget: {message}"),
        None => {
            format!("signalled an error, which makes the reference refuse the network: {message}")
        }
    }
}
