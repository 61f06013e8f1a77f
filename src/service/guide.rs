//! `guide`: a cook's guide from the simulated schedule. One recipe of a `.solution` file is run
//! and its executed actions told in start order with their kitchen times and words, the
//! actions that overlap, the timers (actions the kitchen finishes by itself: an oven heating, a
//! bake), the times the cook only waits, and the total time, which is the execution time.

use super::DataContext;
use super::outcome::{Exit, Outcome};
use super::simulate::{SimulateFailure, run_checked, text_and_model};
use crate::base::number::Number;
use crate::language::ast::Recipe;
use crate::language::diagnostic::{LineIndex, terminal_safe};
use crate::metrics::primary_output;
use crate::report::cook_guide::{Guide, GuideStep, IdleGap, MAX_LISTED, Timer};
use crate::report::dish_tree::DishNode;
use crate::report::html::with_decimals;
use crate::report::simulation::{SimulationReport, StepTimes};
use crate::session::describe;
use crate::simulation::{Execution, Model, Step};
use std::cmp::Ordering;
use std::collections::{BTreeSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How the guide is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GuideFormat {
    /// For a terminal.
    #[default]
    Text,
    /// The steps as a table, timers and idle times as lists.
    Markdown,
    /// `{"recipe", "total_time", "steps", "timers", "idle"}`, times in seconds.
    Json,
    /// One self-contained page, laid out for printing.
    Html,
}

pub struct GuideOptions {
    pub file: PathBuf,
    /// The recipe to guide (default: the first in the file).
    pub recipe: Option<String>,
    pub data: DataContext,
    pub format: GuideFormat,
    /// Where to write the guide (default, or `-`: standard output).
    pub output: Option<PathBuf>,
}

/// Run the command: the guide on `out` (or `-o`), problems on `err`. Exit codes: 0 written,
/// 1 the file has errors, the network does not execute or crashes, 2 the file, the kitchen or
/// the data cannot be used.
pub fn run(opts: &GuideOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let (text, model) = text_and_model(&opts.file, opts.output.as_deref(), &opts.data)?;
    let name = opts.file.display().to_string();
    let guide = match guide_text(&model, &text, opts.recipe.as_deref()) {
        Ok(guide) => guide,
        Err(SimulateFailure::Invalid(errors)) => {
            let _ = write!(err, "{}", errors.render(&name, &text));
            let _ = writeln!(err, "error: {name} has errors; no guide was written");
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Recipe(msg) | SimulateFailure::Data(msg)) => {
            let _ = writeln!(err, "error: {name}: {msg}");
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Crashed(e)) => {
            let _ = writeln!(err, "{}", terminal_safe(&e.render(&name)));
            return Ok(Exit::Failed);
        }
    };
    let written = match opts.format {
        GuideFormat::Text => terminal_safe(&guide.text()).into_owned(),
        GuideFormat::Markdown => guide.markdown(),
        GuideFormat::Json => crate::report::json::pretty(&guide),
        GuideFormat::Html => guide.html(),
    };
    let output = opts
        .output
        .as_deref()
        .unwrap_or(Path::new(super::scoring::STDOUT));
    super::scoring::write_report(output, written.as_bytes(), out)?;
    Ok(Exit::Success)
}

/// The guide of one recipe of a text (`recipe`, else the first): the one pipeline behind
/// `guide`, the tool server and the Python package. A network that does not execute has no
/// schedule: `Recipe` with why.
pub fn guide_text(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
) -> Result<Guide, SimulateFailure> {
    let (recipe, exec) = run_checked(model, text, recipe)?;
    if !exec.solved {
        let why = SimulationReport::new(model, &recipe, text, &exec, "", None).reason;
        return Err(SimulateFailure::Recipe(format!(
            "recipe {} does not execute ({why}), so it has no schedule to guide a cook by",
            recipe.id
        )));
    }
    Ok(schedule(model, &recipe, text, &exec))
}

/// The guide of a run that executed, `text` the file it was read from (for lines).
pub fn schedule(model: &Model, recipe: &Recipe, text: &str, exec: &Execution) -> Guide {
    let lines = LineIndex::new(text);
    let times: Vec<Times> = exec
        .steps
        .iter()
        .map(|s| Times::of(model, recipe, exec, s))
        .collect();
    let mut order: Vec<usize> = (0..exec.steps.len()).collect();
    order.sort_by(|&a, &b| times[a].start.num_cmp(&times[b].start));
    let spans: Vec<(f64, f64)> = order
        .iter()
        .map(|&i| (times[i].start.to_f64(), times[i].end.to_f64()))
        .collect();
    let parallel = overlaps(&spans, &spans, true);
    let mut steps = Vec::with_capacity(order.len());
    let mut timers = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let step = &exec.steps[i];
        let t = &times[i];
        let p = &recipe.predicates[step.predicate];
        let what = describe::spaced(&p.name);
        let output = primary_output(exec, i);
        let makes = decimals(describe::brief(model, output));
        let action_of = |k: usize| exec.steps[order[k]].predicate + 1;
        let (listed, omitted) = &parallel[k];
        let mut listed: Vec<usize> = listed.iter().map(|&k| action_of(k)).collect();
        listed.sort_unstable();
        let line = lines.line_col(p.span.start).0;
        if t.timer {
            timers.push(Timer {
                action: step.predicate + 1,
                line,
                what: what.clone(),
                makes: makes.clone(),
                temperature: describe::tree(model, output)
                    .and_then(|n| temperature(&n))
                    .map(decimals),
                start: t.start,
                cook_free: t.cook_free,
                ready: t.end,
            });
        }
        steps.push(GuideStep {
            action: step.predicate + 1,
            line,
            text: p.to_string(),
            words: format!("{what}: {makes}"),
            start: t.start,
            end: t.end,
            timer: t.timer,
            parallel: listed,
            parallel_omitted: *omitted,
        });
    }
    let total_time = exec.execution_time().unwrap_or(Number::ZERO);
    let idle = idle_gaps(&times, total_time, &timers);
    Guide {
        recipe: recipe.id.clone(),
        total_time,
        steps,
        timers,
        idle,
    }
}

/// One step's schedule as the cook lives it.
struct Times {
    /// When it starts (its input kitchen's time; `get-kitchen`, which has none, at its end).
    start: Number,
    /// When its result is ready.
    end: Number,
    /// When the cook's hands are on it: from when its inputs are all ready (the cook waits
    /// before that) until the kitchen moves on.
    begin: Number,
    cook_free: Number,
    timer: bool,
}

impl Times {
    fn of(model: &Model, recipe: &Recipe, exec: &Execution, step: &Step) -> Times {
        let t = StepTimes::of(model, recipe, exec, step);
        let end = t.end.or(t.start).unwrap_or(Number::ZERO);
        let start = t.start.unwrap_or(end);
        let end = latest(start, end);
        let cook_free = latest(start, t.kitchen_free.unwrap_or(end));
        let ready = inputs_ready(model, recipe, exec, step).unwrap_or(start);
        let begin = earliest(latest(start, ready), cook_free);
        Times {
            start,
            end,
            begin,
            cook_free,
            timer: t.goes_on_by_itself(),
        }
    }
}

fn latest(a: Number, b: Number) -> Number {
    if a.num_cmp(&b).is_lt() { b } else { a }
}

fn earliest(a: Number, b: Number) -> Number {
    if b.num_cmp(&a).is_lt() { b } else { a }
}

/// When the last input of a step became available (its input kitchen state included).
fn inputs_ready(model: &Model, recipe: &Recipe, exec: &Execution, step: &Step) -> Option<Number> {
    let sig = model
        .catalogue
        .get(&recipe.predicates[step.predicate].name)?;
    let case = sig.cases.get(step.case)?;
    exec.slots[step.predicate]
        .iter()
        .enumerate()
        .filter(|&(i, _)| case.is_input(i))
        .filter_map(|(_, &slot)| exec.bindings[slot].available_at)
        .reduce(latest)
}

/// The times between 0 and `total` when the cook's hands are on no step, each with the timers
/// running meanwhile.
fn idle_gaps(times: &[Times], total: Number, timers: &[Timer]) -> Vec<IdleGap> {
    // A step whose inputs are ready only when the kitchen moves on keeps the cook's hands
    // for no time: it leaves no mark between two gaps.
    let mut busy: Vec<(Number, Number)> = times
        .iter()
        .filter(|t| t.begin.num_cmp(&t.cook_free).is_lt())
        .map(|t| (t.begin, t.cook_free))
        .collect();
    busy.sort_by(|a, b| a.0.num_cmp(&b.0));
    let mut gaps = Vec::new();
    let mut cursor = Number::ZERO;
    for (begin, free) in busy.into_iter().chain([(total, total)]) {
        if cursor.num_cmp(&begin).is_lt() {
            gaps.push((cursor, earliest(begin, total)));
        }
        cursor = latest(cursor, free);
        if cursor.num_cmp(&total) != Ordering::Less {
            break;
        }
    }
    gaps.retain(|(from, to)| from.num_cmp(to).is_lt());
    let running: Vec<(f64, f64)> = timers
        .iter()
        .map(|t| (t.start.to_f64(), t.ready.to_f64()))
        .collect();
    let spans: Vec<(f64, f64)> = gaps.iter().map(|(a, b)| (a.to_f64(), b.to_f64())).collect();
    let waiting = overlaps(&running, &spans, false);
    gaps.into_iter()
        .zip(waiting)
        .map(|((from, to), (listed, omitted))| {
            let mut waiting_for: Vec<usize> = listed.iter().map(|&i| timers[i].action).collect();
            waiting_for.sort_unstable();
            IdleGap {
                from,
                to,
                waiting_for,
                waiting_for_omitted: omitted,
            }
        })
        .collect()
}

/// A time as a key of ordered sets.
#[derive(Clone, Copy, PartialEq)]
struct Key(f64);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// For each query interval, the items (indices into `items`) whose intervals overlap it, at
/// most [`MAX_LISTED`], and how many more; with `same`, `queries` are the items and an item is
/// not its own neighbour. Intervals of no length overlap nothing. One sweep over both sorted
/// by start: the work grows with their number times [`MAX_LISTED`], never with their product,
/// however many intervals overlap at once.
fn overlaps(items: &[(f64, f64)], queries: &[(f64, f64)], same: bool) -> Vec<(Vec<usize>, usize)> {
    let mut by_start: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].0 < items[i].1)
        .collect();
    by_start.sort_by(|&a, &b| items[a].0.total_cmp(&items[b].0));
    let starts: Vec<f64> = by_start.iter().map(|&i| items[i].0).collect();
    let mut order: Vec<usize> = (0..queries.len()).collect();
    order.sort_by(|&a, &b| queries[a].0.total_cmp(&queries[b].0));
    let mut active: BTreeSet<(Key, usize)> = BTreeSet::new();
    let mut next = 0;
    let mut found = vec![(Vec::new(), 0); queries.len()];
    for q in order {
        let (from, to) = queries[q];
        if from >= to {
            continue;
        }
        while next < by_start.len() && starts[next] <= from {
            let i = by_start[next];
            active.insert((Key(items[i].1), i));
            next += 1;
        }
        while active.first().is_some_and(|&(Key(end), _)| end <= from) {
            active.pop_first();
        }
        let later = &by_start[next..starts.partition_point(|&s| s < to).max(next)];
        let itself = usize::from(same);
        let count = active.len() + later.len() - itself;
        let listed: Vec<usize> = active
            .iter()
            .map(|&(_, i)| i)
            .chain(later.iter().copied())
            .filter(|&i| !(same && i == q))
            .take(MAX_LISTED)
            .collect();
        let omitted = count - listed.len();
        found[q] = (listed, omitted);
    }
    found
}

/// Words for people: the exact ratios the simulation printed (`1/3 percent`) as decimals.
fn decimals(words: String) -> String {
    with_decimals(&words).unwrap_or(words)
}

/// The first temperature the simulation gave a thing or what it holds, as people write it.
fn temperature(node: &DishNode) -> Option<String> {
    let mut queue = VecDeque::from([node]);
    while let Some(n) = queue.pop_front() {
        let found = n
            .properties
            .iter()
            .find(|p| p.name == "temperature")
            .and_then(|p| p.value.as_deref());
        if let Some(value) = found {
            return Some(describe::unit_names(value));
        }
        queue.extend(&n.parts);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_overlap_when_they_share_time_and_not_when_they_only_touch() {
        let items = [
            (0.0, 10.0),
            (5.0, 15.0),
            (10.0, 20.0),
            (3.0, 3.0),
            (0.0, 10.0),
        ];
        let found = overlaps(&items, &items, true);
        let listed: Vec<Vec<usize>> = found
            .iter()
            .map(|(l, _)| {
                let mut l = l.clone();
                l.sort_unstable();
                l
            })
            .collect();
        assert_eq!(
            listed,
            [vec![1, 4], vec![0, 2, 4], vec![1], vec![], vec![0, 1]]
        );
        assert!(found.iter().all(|(_, omitted)| *omitted == 0));
        // Gaps against timers: a gap that ends where a timer starts waits for none of it.
        let gaps = [(10.0, 12.0), (20.0, 25.0)];
        let waited = overlaps(&items, &gaps, false);
        assert_eq!(waited[0].0.len(), 2);
        assert_eq!(waited[1], (vec![], 0));
    }

    #[test]
    fn past_the_listed_bound_the_rest_is_counted() {
        let items = vec![(0.0, 1.0); MAX_LISTED + 5];
        let found = overlaps(&items, &items, true);
        assert!(
            found
                .iter()
                .all(|(listed, omitted)| listed.len() == MAX_LISTED && *omitted == 4)
        );
        assert!(found.iter().enumerate().all(|(i, (l, _))| !l.contains(&i)));
    }
}
