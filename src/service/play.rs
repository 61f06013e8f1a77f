//! `play`: a recipe's network written at a prompt, one line at a time, over a kitchen
//! [`Session`]: each action line runs on the kitchen the earlier ones left and its
//! observation is printed; `:look`, `:undo`, `:network`, `:progress`, `:finish`, `:help` and
//! `:quit` do
//! the rest. When the session ends (`:finish`, `:quit`, the end of input) the network is
//! written to a `.solution` file, whole or not at all. Where the lines come from (a line
//! editor at a terminal, or plain lines from a script) is the front end's [`LineSource`];
//! what completes a word at the prompt is [`Completion`], here, so that every front end
//! completes alike.

use super::context::DataContext;
use super::outcome::{AppError, Exit, Outcome};
use super::session::observation::{Located, Observation, Score};
use super::session::trajectory::Log;
use super::session::{self, Session, words};
use super::sessions::kitchen_summary;
use super::workspace::load_evaluator;
use crate::base::number::Number;
use crate::base::suggest::closest;
use crate::evaluate::Evaluator;
use crate::metrics::metric::{Metric, MetricSet};
use crate::report::content::RecipeReport;
use crate::report::write_atomically;
use crate::service::session::admissible::Query;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The commands besides action lines, as typed.
const COMMANDS: [&str; 9] = [
    ":look",
    ":undo",
    ":network",
    ":progress",
    ":admissible",
    ":hint",
    ":finish",
    ":help",
    ":quit",
];

const HELP: &str = "\
Type an action, such as (get-kitchen ?kitchen), to add it to the network and run it on the
kitchen as the earlier lines left it. Every line given stays in the network until :undo.
  :look NAME   what a variable (?bowl) or a place of the kitchen (fridge) holds now
  :undo        take the last line back
  :network     print the network so far
  :progress    the recipe's goals reached so far and the best dish so far
  :admissible [PRIMITIVE|?VARIABLE]
               lines that run now (free numbers as <placeholders>, with their bounds)
  :hint        the gold network's next action, with your variables (it reveals the gold)
  :finish      score the network, write it and end
  :help        this help
  :quit        write the network and end (Ctrl-D too)
Tab completes primitives, ingredients, tools and the network's variables; a blank line does
nothing.

The actions, arguments in order:
";

pub struct PlayOptions {
    /// The recipe's id.
    pub recipe: String,
    pub data: DataContext,
    /// The file the network is written to (default: `RECIPE.solution` here).
    pub output: Option<PathBuf>,
    /// The trajectory log the session's calls are written to, if any.
    pub log: Option<PathBuf>,
}

/// One line read, or why there is none.
pub enum Input {
    Line(String),
    /// A line longer than a session takes, skipped unread (its length in bytes).
    TooLong(usize),
    /// The end of input (Ctrl-D at a terminal).
    End,
}

/// Where the lines typed come from.
pub trait LineSource {
    /// The next line; `prompt` is shown and `words` completes where a terminal edits the line.
    fn read(&mut self, prompt: &str, words: &Completion) -> io::Result<Input>;
}

/// Plain lines, as a script gives them: no prompt, no completion. A line longer than a
/// session takes is read no further than that (its length counted), so memory stays bounded.
pub struct PlainLines<R: BufRead>(pub R);

impl<R: BufRead> LineSource for PlainLines<R> {
    fn read(&mut self, _prompt: &str, _words: &Completion) -> io::Result<Input> {
        let mut bytes = Vec::new();
        let (mut length, mut read_any) = (0, false);
        loop {
            let chunk = self.0.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            read_any = true;
            let end = chunk.iter().position(|&b| b == b'\n');
            let part = &chunk[..end.unwrap_or(chunk.len())];
            let room = (session::MAX_LINE_BYTES + 1).saturating_sub(bytes.len());
            bytes.extend_from_slice(&part[..part.len().min(room)]);
            length += part.len();
            let used = end.map_or(chunk.len(), |i| i + 1);
            self.0.consume(used);
            if end.is_some() {
                break;
            }
        }
        if !read_any {
            return Ok(Input::End);
        }
        if length == bytes.len() && bytes.last() == Some(&b'\r') {
            bytes.pop();
            length -= 1;
        }
        if length > session::MAX_LINE_BYTES {
            return Ok(Input::TooLong(length));
        }
        Ok(Input::Line(String::from_utf8_lossy(&bytes).into_owned()))
    }
}

/// The words a network is written with, from the loaded model.
struct Vocabulary {
    primitives: Vec<String>,
    /// The concepts a network names: ingredients, tools, containers, units, patterns (the
    /// ontology's conceptualizable classes).
    concepts: Vec<String>,
    /// The places of the kitchen (`fridge`, `pantry` ...).
    places: Vec<String>,
}

/// What completes a word at the prompt: the model's words and the session's variables.
#[derive(Clone)]
pub struct Completion {
    vocabulary: Arc<Vocabulary>,
    variables: Vec<String>,
}

impl Completion {
    /// Where the word before `pos` in `line` starts, and the words it may be: a command at
    /// the start of the line; a variable or place after `:look`; a variable for `?...`; a
    /// primitive right after `(`; otherwise a concept.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let head = line.get(..pos).unwrap_or(line);
        // After the separator's own bytes: a no-break space is whitespace of two.
        let start = head
            .char_indices()
            .rfind(|&(_, c)| c.is_whitespace() || c == '(' || c == ')')
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = head[start..].to_lowercase();
        let before = head[..start].trim_end();
        let command = head.trim_start().starts_with(':');
        let places = &self.vocabulary.places;
        let candidates: Box<dyn Iterator<Item = &String>> = if command && before.is_empty() {
            return (
                start,
                prefixed(COMMANDS.iter().map(|c| c.to_string()), &word),
            );
        } else if command && before == ":look" {
            Box::new(self.variables.iter().chain(places))
        } else if word.starts_with('?') {
            Box::new(self.variables.iter())
        } else if head[..start].ends_with('(') {
            Box::new(self.vocabulary.primitives.iter())
        } else {
            Box::new(self.vocabulary.concepts.iter())
        };
        (start, prefixed(candidates.cloned(), &word))
    }
}

/// The words that start with `word`, sorted, once each.
fn prefixed(words: impl Iterator<Item = String>, word: &str) -> Vec<String> {
    let mut found: Vec<String> = words.filter(|w| w.starts_with(word)).collect();
    found.sort();
    found.dedup();
    found
}

/// What one line typed gave: the text to print, and whether the session is over.
pub struct Reply {
    pub text: String,
    pub end: bool,
}

impl Reply {
    fn say(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            end: false,
        }
    }
}

/// A session at the prompt.
pub struct Play {
    recipe: String,
    session: Session,
    evaluator: Arc<Evaluator>,
    output: PathBuf,
    vocabulary: Arc<Vocabulary>,
}

impl Play {
    /// A session on `opts.recipe` of the data's benchmark (located as every command locates
    /// it).
    pub fn start(opts: &PlayOptions) -> Result<Play, AppError> {
        let evaluator = Arc::new(load_evaluator(&opts.data)?);
        let model = &evaluator.model;
        let conceptualizable = model.onto.class_id("conceptualizable");
        let concepts = model
            .onto
            .classes()
            .filter(|(id, _)| conceptualizable.is_some_and(|c| model.onto.is_a(*id, c)))
            .map(|(_, class)| class.name.clone());
        let mut primitives: Vec<String> = model.catalogue.iter().map(|p| p.name.clone()).collect();
        primitives.sort();
        let mut session = Session::with_evaluator(evaluator.clone(), &opts.recipe)
            .map_err(|e| AppError::Options(e.to_string()))?;
        if let Some(path) = &opts.log {
            let log = Log::create(path).map_err(|e| AppError::Failed(e.to_string()))?;
            session.log_into(log, opts.data.kitchen.as_deref());
        }
        let opening = session.opening();
        let places = opening.places.into_iter().map(|p| p.place);
        let vocabulary = Vocabulary {
            primitives,
            concepts: prefixed(concepts, ""),
            places: prefixed(places, ""),
        };
        let output = opts
            .output
            .clone()
            .unwrap_or_else(|| PathBuf::from(session.file_name()));
        crate::report::refuse_input_as_output(&output, opts.data.kitchen.as_deref())?;
        Ok(Play {
            recipe: opening.recipe,
            session,
            evaluator,
            output,
            vocabulary: Arc::new(vocabulary),
        })
    }

    /// What the session starts with: the recipe, its text, the kitchen and where the network
    /// goes.
    pub fn opening(&self) -> String {
        let opening = self.session.opening();
        let mut text = format!(
            "{}: write its network one action at a time (:help lists the commands).\n\n",
            opening.recipe
        );
        if let Some(recipe) = &opening.recipe_text {
            text.push_str(&format!("{}\n\n", recipe.trim_end()));
        }
        let kitchen = kitchen_summary(&self.evaluator.model, &opening.places);
        text.push_str(&format!(
            "The kitchen (:look PLACE for amounts):\n{kitchen}\n"
        ));
        text.push_str(&format!(
            "The network is written to {} when the session ends (:finish, :quit, Ctrl-D).\n",
            self.output.display()
        ));
        text
    }

    /// The prompt: the recipe and the number the next line will have.
    pub fn prompt(&self) -> String {
        let next = self.session.line_count() + 1;
        format!("{} {next}> ", self.recipe)
    }

    /// What completes a word now.
    pub fn completion(&self) -> Completion {
        let variables = self.session.variables_written().map(|v| format!("?{v}"));
        Completion {
            vocabulary: self.vocabulary.clone(),
            variables: prefixed(variables, ""),
        }
    }

    /// Do what one line typed says.
    pub fn enter(&mut self, line: &str) -> Reply {
        let typed = line.trim();
        if typed.is_empty() {
            return Reply::say("");
        }
        if !typed.starts_with(':') {
            return Reply::say(match self.session.act(line) {
                Ok(seen) => observation(&seen),
                Err(e) => format!("error: {e}\n"),
            });
        }
        let (command, argument) = typed.split_once(char::is_whitespace).unwrap_or((typed, ""));
        let argument = argument.trim();
        match command {
            ":look" if argument.is_empty() => Reply::say("error: :look NAME (?bowl, fridge)\n"),
            ":look" => Reply::say(match self.session.look(argument) {
                Ok(view) => format!("{}\n", view.text),
                Err(e) => format!("error: {e}\n"),
            }),
            ":undo" => Reply::say(match self.session.undo() {
                Ok(line) => format!("took back: {line}\n"),
                Err(e) => format!("error: {e}\n"),
            }),
            ":network" => Reply::say(self.session.network()),
            ":progress" => Reply::say(match self.session.progress() {
                Ok(progress) => format!("{}\n", progress.text),
                Err(e) => format!("error: {e}\n"),
            }),
            ":finish" => Reply {
                text: scores(&self.session.finish(), &self.session),
                end: true,
            },
            ":help" => Reply::say(format!(
                "{HELP}{}",
                crate::service::session::language::compact(&self.evaluator.model.catalogue)
                    .split_once('\n')
                    .map_or("", |(_, forms)| forms)
            )),
            ":admissible" => Reply::say(self.admissible(argument)),
            ":hint" => Reply::say(match self.session.hint() {
                Some(hint) => format!(
                    "gold action {} of {}: {}\n",
                    hint.action, hint.actions, hint.line
                ),
                None => "the network matches every gold action\n".to_string(),
            }),
            ":quit" => Reply {
                text: String::new(),
                end: true,
            },
            _ => {
                let close = closest(command, COMMANDS.into_iter(), 1);
                let hint = close
                    .first()
                    .map(|c| format!(" (did you mean {c}?)"))
                    .unwrap_or_default();
                Reply::say(format!(
                    "error: no command `{command}`{hint}; :help lists the commands\n"
                ))
            }
        }
    }

    pub fn network(&self) -> String {
        self.session.network()
    }

    /// The admissible lines, of a primitive or using a variable (`?bowl`) when asked.
    fn admissible(&self, argument: &str) -> String {
        let mut query = Query::default();
        match argument {
            "" => {}
            v if v.starts_with('?') => query.using = Some(v.to_string()),
            p => query.primitive = Some(p.to_lowercase()),
        }
        let found = self.session.admissible(&query);
        if found.is_empty() {
            return "nothing of that runs now\n".to_string();
        }
        let mut text = String::new();
        for c in &found {
            text.push_str(&format!("{}\n", c.line));
            for p in &c.placeholders {
                text.push_str(&format!("    <{}>: {}\n", p.argument, p.bound));
            }
        }
        text
    }
}

/// An observation as printed: what happened, the diagnostics with their hints, the time.
fn observation(seen: &Observation) -> String {
    let outcome = serde_json::to_value(seen.outcome)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut text = format!("{outcome} (line {}): {}\n", seen.line, seen.text);
    for d in &seen.diagnostics {
        text.push_str(&located(d));
    }
    let time = seen.time.as_i64().map_or_else(
        || format!("{} s", seen.time),
        |s| words::clock(Number::int(s)),
    );
    text.push_str(&format!("  kitchen time {time}\n"));
    text
}

fn located(d: &Located) -> String {
    let code = d.code.map(|c| format!("[{c}]")).unwrap_or_default();
    let mut text = format!(
        "  {}{code} {}:{}: {}\n",
        d.severity, d.line, d.column, d.message
    );
    if let Some(hint) = &d.hint {
        text.push_str(&format!("    {hint}\n"));
    }
    text
}

/// The four metrics as the reference prints them, the gold goals missed and how the dish
/// differs; or why the reference refuses the network.
fn scores(score: &Score, session: &Session) -> String {
    let row = match &score.result {
        Ok(row) => row,
        Err(refusal) => {
            let rendered = refusal.render(&session.file_name(), &session.network());
            return format!(
                "refused: the reference writes no scores for this network: {}\n{rendered}",
                refusal.message
            );
        }
    };
    let all = MetricSet::from_words(&Metric::ALL.map(Metric::name));
    let mut text: String = Metric::ALL
        .iter()
        .map(|&m| format!("{} {}\n", m.name(), row.formatted(m)))
        .collect();
    let report = RecipeReport::new(row, &all);
    if let Some(goals) = &report.goal_condition_success {
        text.push_str(&format!(
            "gold goals reached: {} of {}\n",
            goals.numerator, goals.denominator
        ));
    }
    for goal in &report.missed_goals {
        text.push_str(&format!(
            "  missed: gold action {} {}: {}\n",
            goal.gold_action, goal.gold_text, goal.reason
        ));
    }
    if let Some(dish) = &report.dish {
        let d = &dish.detail;
        text.push_str(&format!("dish: the output of action {}", dish.action));
        for (what, items) in [
            ("missing", &d.missing),
            ("surplus", &d.surplus),
            ("container", &d.container_differences),
        ] {
            if !items.is_empty() {
                text.push_str(&format!("; {what}: {}", items.join(", ")));
            }
        }
        text.push('\n');
    }
    if let Some(why) = &score.why_no_dish {
        text.push_str(&format!("no dish: {why}\n"));
    }
    text
}

/// The network typed so far, kept where an end the prompt does not see (a signal, handled on
/// another thread while the prompt waits for a line) finds it: so that no line typed is lost
/// however the session ends.
#[derive(Clone, Default)]
pub struct Typed(Arc<Mutex<Kept>>);

#[derive(Default)]
struct Kept {
    /// Where the network goes, once the session has started.
    output: Option<PathBuf>,
    network: String,
    /// The network was dealt with (written, or printed where it could not be).
    settled: bool,
}

impl Typed {
    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// End the session from outside the prompt: the network written as the session's own
    /// end writes it, or printed on `err` where it cannot be, each said on `err` after
    /// `why`; then `end` (which exits), with the network held, so that the prompt cannot
    /// write it again meanwhile. A session that ended already only ends.
    pub fn rescue(&self, why: &str, err: &mut dyn Write, end: impl FnOnce()) {
        let mut kept = self.lock();
        if let (false, Some(output)) = (kept.settled, kept.output.clone()) {
            kept.settled = true;
            let said = match keep(&kept.network, &output) {
                Ok(said) => said,
                Err(e) => format!("{e}\n{}", unwritten(&kept.network)),
            };
            let _ = write!(err, "\n{why}: {said}");
        }
        end();
    }
}

/// Run a session at the prompt: the opening, then each line's reply, until the session ends;
/// then the network is written (when it holds a line). Where it cannot be, the network is
/// printed, so that nothing typed is lost, and the error returned. `typed` holds the network
/// after every line, for an end the prompt does not see.
pub fn run(
    opts: &PlayOptions,
    lines: &mut dyn LineSource,
    typed: &Typed,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let mut play = Play::start(opts)?;
    typed.lock().output = Some(play.output.clone());
    write!(out, "{}", play.opening()).map_err(AppError::Stdout)?;
    loop {
        out.flush().map_err(AppError::Stdout)?;
        let input = lines
            .read(&play.prompt(), &play.completion())
            .map_err(|e| AppError::Failed(format!("cannot read the next line: {e}")))?;
        let reply = match input {
            Input::Line(line) => play.enter(&line),
            Input::TooLong(bytes) => Reply::say(format!(
                "error: {}\n",
                session::SessionError::LineTooLong { bytes }
            )),
            Input::End => break,
        };
        typed.lock().network = play.network();
        if let Some(failure) = play.session.log_failure() {
            let _ = writeln!(err, "error: {failure}");
        }
        out.write_all(reply.text.as_bytes())
            .map_err(AppError::Stdout)?;
        if reply.end {
            break;
        }
    }
    let mut kept = typed.lock();
    if kept.settled {
        return Ok(Exit::Failed);
    }
    kept.settled = true;
    let network = play.network();
    match keep(&network, &play.output) {
        Ok(said) => {
            out.write_all(said.as_bytes()).map_err(AppError::Stdout)?;
            Ok(Exit::Success)
        }
        Err(e) => {
            let _ = write!(err, "{}", unwritten(&network));
            Err(e)
        }
    }
}

/// Write `network` to `output`, whole or not at all: what was done, to say; a network with
/// no line is not written (a file already at the path stays as it was).
fn keep(network: &str, output: &Path) -> Result<String, AppError> {
    let lines = network.lines().count().saturating_sub(1);
    if lines == 0 {
        return Ok("no line was given: nothing written\n".into());
    }
    write_atomically(output, network.as_bytes()).map_err(|source| AppError::Write {
        path: output.to_path_buf(),
        source,
    })?;
    let s = if lines == 1 { "" } else { "s" };
    Ok(format!(
        "wrote the network ({lines} line{s}) to {}\n",
        output.display()
    ))
}

/// The network printed where it could not be written, so that no line typed is lost.
fn unwritten(network: &str) -> String {
    format!("the network, which was not written:\n{network}")
}
