//! A seeded mutation fuzzer over the gold corpus (docs/fuzz.md), on the stable toolchain.
//!
//! ```text
//! RAYON_NUM_THREADS=1 cargo run --release --example fuzz -- PROFILE CORPUS_DIR [EXECUTIONS] [SEED] [SMATCH_EVERY]
//! ```
//! Each input is a gold network (read from the benchmark data folder, located as the CLI
//! locates it: `COOKINGBOT_BENCHMARK`, ...) mutated one to four times: tokens replaced from a
//! dictionary of huge numbers, units, primitive and ingredient names; lines duplicated, dropped,
//! swapped or spliced from another recipe; very long tokens. Every input is parsed, checked,
//! simulated and scored with the four metrics in this process (Smatch on every
//! SMATCH_EVERY-th input only, when given: its cost follows the network's shape, never its
//! numbers, and it is three quarters of the time per input). An input that panics, takes more
//! than the time budget or raises the peak memory above the memory budget is written to
//! CORPUS_DIR as a reproducer (`panic-N.solution`, `slow-N.solution`, `memory-N.solution`, with
//! a `.txt` beside it saying why). The input being run is always in `CORPUS_DIR/current.solution`,
//! so an abort (which no handler sees) leaves its reproducer too; the slowest input so far is in
//! `CORPUS_DIR/slowest.solution`.

use cookingbot::base::profile::Profile;
use cookingbot::base::random::SplitMix64;
use cookingbot::benchmark::{DataSource, locate, manifest};
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::service::session::Session;
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An input slower than this is a reproducer (the issue's bound).
const TIME_BUDGET: Duration = Duration::from_secs(20);
/// The time budget of each recipe (`--timeout-per-recipe`): an input has at most a few
/// recipes (spliced headers), so all of them refused at this budget stay under the input's.
const RECIPE_BUDGET: Duration = Duration::from_secs(1);
/// One mutation in this many is a structure mutation (see [`Corpus::mutate`]).
const STRUCTURE_ONE_IN: usize = 400;
/// An input that raises the process's peak resident memory above this is a reproducer.
const MEMORY_BUDGET_KB: u64 = 2 * 1024 * 1024;
/// One input in this many is also given line by line to a kitchen session (`service::session`,
/// what Python's `Kitchen`, the gym and the tool server's `kitchen_*` calls run), then finished:
/// a step must cost what its line costs, and the session's memory stay bounded as the
/// evaluation's does.
const SESSION_ONE_IN: u64 = 20;

/// Tokens no recipe holds but a hostile or confused writer may: the numbers that broke the
/// simulator before it was bounded, and their neighbours.
const HOSTILE_TOKENS: [&str; 22] = [
    "2147483648",
    "4294967296",
    "1.5e38",
    "1/9223372036854775807",
    "9223372036854775807",
    "18446744073709551616",
    "1e11",
    "1e308",
    "-0",
    "-1",
    "0",
    "0/0",
    "1/0",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e-320",
    "16000",
    "20001",
    "?",
    "()",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match &args[..] {
        [profile, dir, rest @ ..] if rest.len() <= 3 => (|| {
            let profile: Profile = profile.parse()?;
            let number = |i: usize, default: u64| {
                rest.get(i).map_or(Ok(default), |s| {
                    s.parse::<u64>().map_err(|e| format!("{s}: {e}"))
                })
            };
            Ok::<_, String>((
                profile,
                PathBuf::from(dir),
                number(0, 1_000_000)?,
                number(1, 1)?,
                number(2, 1)?.max(1),
            ))
        })(),
        _ => Err("usage: fuzz PROFILE CORPUS_DIR [EXECUTIONS] [SEED] [SMATCH_EVERY]".into()),
    };
    match parsed.and_then(|(profile, dir, executions, seed, smatch_every)| {
        fuzz(profile, &dir, executions, seed, smatch_every)
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The seeds and the dictionary.
struct Corpus {
    golds: Vec<Vec<String>>,
    dictionary: Vec<String>,
}

impl Corpus {
    fn load(profile: Profile, root: &Path, evaluator: &Evaluator) -> Result<Corpus, String> {
        let mut golds = Vec::new();
        let mut words = BTreeSet::new();
        for entry in manifest(profile).recipes {
            let path = root.join(&entry.gold_file);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            // Units, ingredient names and constants come from the gold networks themselves.
            for token in text.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
                if !token.is_empty() && !token.starts_with('#') {
                    words.insert(token.to_string());
                }
            }
            golds.push(text.lines().map(str::to_string).collect());
        }
        words.extend(evaluator.model.catalogue.iter().map(|s| s.name.clone()));
        words.extend(HOSTILE_TOKENS.iter().map(|t| t.to_string()));
        Ok(Corpus {
            golds,
            dictionary: words.into_iter().collect(),
        })
    }

    /// A gold network mutated one to four times.
    fn mutant(&self, rng: &mut SplitMix64) -> String {
        let mut lines = self.golds[rng.below(self.golds.len())].clone();
        for _ in 0..=rng.below(4) {
            self.mutate(&mut lines, rng);
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    fn mutate(&self, lines: &mut Vec<String>, rng: &mut SplitMix64) {
        if lines.is_empty() {
            lines.push("(get-kitchen ?kitchen)".into());
        }
        let at = rng.below(lines.len());
        // The structure mutations make inputs that run up to the recipe budget: one mutation
        // in STRUCTURE_ONE_IN, so that they are a few thousand of a million inputs.
        if rng.below(STRUCTURE_ONE_IN) == 0 {
            match rng.below(6) {
                0 => chain(lines, at, rng),
                1 => repeat_constant(&mut lines[at], rng),
                2 => deep_mixture(lines, rng),
                3 => portion_bomb(lines, rng),
                4 => dense_constants(lines, at, rng),
                _ => independent_actions(lines, at, rng),
            }
            return;
        }
        match rng.below(8) {
            0 => lines.insert(at, lines[at].clone()),
            1 => {
                lines.remove(at);
            }
            2 => {
                let other = rng.below(lines.len());
                lines.swap(at, other);
            }
            3 => {
                let donor = &self.golds[rng.below(self.golds.len())];
                let line = donor[rng.below(donor.len())].clone();
                lines.insert(at, line);
            }
            4 => {
                let long = rng
                    .pick(&self.dictionary)
                    .unwrap()
                    .repeat(1 + rng.below(20_000));
                replace_token(&mut lines[at], &long, rng);
            }
            5 => {
                let hostile = HOSTILE_TOKENS[rng.below(HOSTILE_TOKENS.len())];
                replace_token(&mut lines[at], hostile, rng);
            }
            6 => {
                let word = rng.pick(&self.dictionary).unwrap().clone();
                replace_token(&mut lines[at], &word, rng);
            }
            _ => {
                let word = rng.pick(&self.dictionary).unwrap().clone();
                insert_token(&mut lines[at], &word, rng);
            }
        }
    }
}

/// The variables of a line, in order.
fn variables(line: &str) -> Vec<String> {
    token_spans(line)
        .into_iter()
        .map(|(s, e)| &line[s..e])
        .filter(|t| t.starts_with('?') && t.len() > 1)
        .map(str::to_string)
        .collect()
}

/// Up to `most` actions of `primitive` inserted at `at`, each taking the previous one's first
/// two outputs (a container and a kitchen state, as mixing primitives have them) and all
/// sharing one tool variable: the chains that once overflowed the stack and took cubic time.
fn chain_of(
    lines: &mut Vec<String>,
    at: usize,
    mut container: String,
    mut kitchen: String,
    tool: &str,
    most: usize,
    rng: &mut SplitMix64,
) {
    const MIXERS: [&str; 4] = ["mix", "beat", "mingle", "shake"];
    let primitive = MIXERS[rng.below(MIXERS.len())];
    let length = 1 + rng.below(most);
    let chain = (0..length).map(|i| {
        let line =
            format!("({primitive} ?fz-chain-{i} ?fz-chain-ks-{i} {kitchen} {container} {tool})");
        container = format!("?fz-chain-{i}");
        kitchen = format!("?fz-chain-ks-{i}");
        line
    });
    let chain: Vec<String> = chain.collect();
    lines.splice(at..at, chain);
}

/// A chain over variables drawn from the network (often of the wrong types: then the chain's
/// actions never run, and the search has them to try).
fn chain(lines: &mut Vec<String>, at: usize, rng: &mut SplitMix64) {
    let all: Vec<String> = lines.iter().flat_map(|l| variables(l)).collect();
    let mut pick = || rng.pick(&all).cloned().unwrap_or_else(|| "?x".into());
    let (container, kitchen, tool) = (pick(), pick(), pick());
    chain_of(lines, at, container, kitchen, &tool, 1_500, rng);
}

/// A chain of mixing actions after the network's last action, on its output container and
/// kitchen state: each mixture holds the one before, nested as deep as the chain is long.
fn deep_mixture(lines: &mut Vec<String>, rng: &mut SplitMix64) {
    let Some(last) = lines.iter().rev().find(|l| variables(l).len() >= 2) else {
        return;
    };
    let vars = variables(last);
    let at = lines.len();
    chain_of(
        lines,
        at,
        vars[0].clone(),
        vars[1].clone(),
        "?fz-tool",
        1_500,
        rng,
    );
}

/// Up to 250 pairs of a huge proportion cut into small portions, each pair on the kitchen
/// state the one before left: tens of thousands of portions on the counter-top, carried into
/// every later kitchen state (the memory bomb of short lines).
fn portion_bomb(lines: &mut Vec<String>, rng: &mut SplitMix64) {
    let ingredients: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("(fetch-and-proportion "))
        .filter_map(|l| token_spans(l).get(5).map(|&(s, e)| l[s..e].to_string()))
        .collect();
    let ingredient = rng
        .pick(&ingredients)
        .cloned()
        .unwrap_or_else(|| "butter".into());
    let mut kitchen = lines
        .iter()
        .find_map(|l| {
            l.strip_prefix("(get-kitchen ")
                .map(|v| v.trim_end_matches(')').to_string())
        })
        .unwrap_or_else(|| "?kitchen".into());
    const GRAMS: [&str; 3] = ["1000000", "100000", "999999"];
    for i in 0..=rng.below(250) {
        let grams = GRAMS[rng.below(GRAMS.len())];
        let size = 1 + rng.below(50);
        lines.push(format!(
            "(fetch-and-proportion ?fz-lot-{i} ?fz-lot-ks-{i} {kitchen} ?fz-bowl-{i} {ingredient} {grams} g)"
        ));
        lines.push(format!(
            "(portion-and-arrange ?fz-portions-{i} ?fz-portions-ks-{i} ?fz-lot-ks-{i} ?fz-lot-{i} {size} g)"
        ));
        kitchen = format!("?fz-portions-ks-{i}");
    }
}

/// Up to 2,000 lines of an action with up to 1,500 unknown constants each: every constant a
/// diagnostic, the validator's output many times the file's size unless it is capped.
fn dense_constants(lines: &mut Vec<String>, at: usize, rng: &mut SplitMix64) {
    let constants = " zq".repeat(1 + rng.below(1_500));
    let line = format!("(fetch ?fz-dense ?fz-dense-ks ?kitchen{constants})");
    let copies = 1 + rng.below(2_000);
    lines.splice(at..at, std::iter::repeat_n(line, copies));
}

/// A constant of a line repeated up to 20,000 times after it.
fn repeat_constant(line: &mut String, rng: &mut SplitMix64) {
    let constants: Vec<String> = token_spans(line)
        .into_iter()
        .map(|(s, e)| line[s..e].to_string())
        .filter(|t| !t.starts_with('?') && !t.starts_with('#'))
        .collect();
    let Some(constant) = rng.pick(&constants).cloned() else {
        return;
    };
    let times = 1 + rng.below(20_000);
    let at = line.rfind(')').unwrap_or(line.len());
    line.insert_str(at, &format!(" {constant}").repeat(times));
}

/// Up to 24 copies of a line with fresh outputs (so that none needs another: every ordering
/// of them is a path of the search) and one action that can never run, so that no ordering
/// completes the network: 2^N sets of executed actions to search.
fn independent_actions(lines: &mut Vec<String>, at: usize, rng: &mut SplitMix64) {
    let line = lines[at].clone();
    let vars = variables(&line);
    if vars.len() < 2 {
        return;
    }
    let copies = 1 + rng.below(24);
    let mut inserted: Vec<String> = (0..copies)
        .map(|i| {
            line.replacen(&vars[0], &format!("?fz-copy-{i}"), 1)
                .replacen(&vars[1], &format!("?fz-copy-ks-{i}"), 1)
        })
        .collect();
    inserted.push(line.replacen(&vars[vars.len() - 1], "?fz-never-bound", 1));
    lines.splice(at + 1..at + 1, inserted);
}

/// Where each token of a line starts and ends (parentheses are their own tokens).
fn token_spans(line: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let separator = c.is_whitespace() || c == '(' || c == ')';
        match (separator, start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, line.len()));
    }
    spans
}

fn replace_token(line: &mut String, with: &str, rng: &mut SplitMix64) {
    let spans = token_spans(line);
    match rng.pick(&spans) {
        Some(&(s, e)) => line.replace_range(s..e, with),
        None => line.push_str(with),
    }
}

fn insert_token(line: &mut String, word: &str, rng: &mut SplitMix64) {
    let spans = token_spans(line);
    let at = rng.pick(&spans).map_or(line.len(), |&(_, e)| e);
    line.insert_str(at, &format!(" {word}"));
}

/// An input given line by line to a session on its first recipe, then finished: the lines
/// the session refuses are observations like any other, and only a panic or an abort is a
/// finding (an input whose first line names no benchmark recipe is skipped).
fn through_session(evaluator: &Arc<Evaluator>, input: &str) {
    let mut lines = input.lines();
    let Some(recipe) = lines.next().and_then(|h| h.strip_prefix('#')) else {
        return;
    };
    let Ok(mut session) = Session::with_evaluator(evaluator.clone(), recipe.trim()) else {
        return;
    };
    for line in lines {
        session.attempt(line);
    }
    session.finish();
}

/// The process's peak resident memory in kB since the last [`reset_peak`] (Linux).
fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The CPU time this thread has used: on a shared machine the wall time also counts waiting.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Reset the peak to the current resident memory, so that each input is measured alone.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn fuzz(
    profile: Profile,
    dir: &Path,
    executions: u64,
    seed: u64,
    smatch_every: u64,
) -> Result<(), String> {
    let source = locate(profile, None).map_err(|e| e.to_string())?;
    let DataSource::Folder(root) = &source else {
        return Err("the fuzzer needs a benchmark data folder (COOKINGBOT_BENCHMARK)".into());
    };
    let root = root.clone();
    let mut evaluator = Evaluator::new(profile, source).map_err(|e| e.to_string())?;
    evaluator.model.time_budget = RECIPE_BUDGET;
    // One replay of smatch.py's search instead of three: the same code runs, at a third of
    // the cost, which buys three times the inputs.
    evaluator.smatch.runs = 1;
    let corpus = Corpus::load(profile, &root, &evaluator)?;
    let evaluator = Arc::new(evaluator);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let all = Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let without_smatch = Metric::ALL
        .into_iter()
        .filter(|&m| m != Metric::SmatchScore)
        .fold(MetricSet::empty(), MetricSet::with);
    // Panics are counted and stored, not printed.
    std::panic::set_hook(Box::new(|_| {}));
    let current = dir.join("current.solution");
    let mut rng = SplitMix64::new(seed);
    let (mut panics, mut slow, mut heavy, mut refused) = (0u64, 0u64, 0u64, 0u64);
    let mut over_recipe_budget = 0u64;
    let (mut max_time, mut max_cpu, mut max_peak) = (Duration::ZERO, Duration::ZERO, 0u64);
    let started = Instant::now();
    eprintln!("seed {seed}; Smatch on every {smatch_every}. input, the other metrics on all");
    let keep = |kind: &str, n: u64, text: &str, why: &str| {
        let base = dir.join(format!("{kind}-{n}"));
        let _ = std::fs::write(base.with_extension("solution"), text);
        let _ = std::fs::write(base.with_extension("txt"), format!("{why}\n"));
    };
    for n in 0..executions {
        let input = corpus.mutant(&mut rng);
        std::fs::write(&current, &input).map_err(|e| format!("{}: {e}", current.display()))?;
        reset_peak();
        let (t, cpu) = (Instant::now(), thread_cpu());
        let metrics = if n % smatch_every == 0 {
            &all
        } else {
            &without_smatch
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            if n % SESSION_ONE_IN == 0 {
                through_session(&evaluator, &input);
            }
            evaluator.evaluate(&input, metrics)
        }));
        let took = t.elapsed();
        max_cpu = max_cpu.max(thread_cpu() - cpu);
        let peak = peak_kb();
        if took > max_time {
            // The slowest input so far, to look at even when it is under the budget.
            max_time = took;
            let _ = std::fs::write(dir.join("slowest.solution"), &input);
        }
        max_peak = max_peak.max(peak);
        match outcome {
            Ok(Ok(_)) => {}
            Ok(Err(refusal)) => {
                refused += 1;
                if refusal.message.contains("--timeout-per-recipe") {
                    over_recipe_budget += 1;
                }
            }
            Err(payload) => {
                panics += 1;
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                keep("panic", panics, &input, &format!("panic: {message}"));
            }
        }
        if took > TIME_BUDGET {
            slow += 1;
            keep(
                "slow",
                slow,
                &input,
                &format!("{:.1} s", took.as_secs_f64()),
            );
        }
        if peak > MEMORY_BUDGET_KB {
            heavy += 1;
            keep("memory", heavy, &input, &format!("peak {peak} kB"));
        }
        if (n + 1) % 1_000 == 0 || n + 1 == executions {
            eprintln!(
                "{} executions in {:.0} s: {refused} refused ({over_recipe_budget} at the recipe budget of {} s), {panics} panics, {slow} over {} s, {heavy} over {} MB; slowest {:.3} s ({:.3} s of CPU at most), highest peak {} MB",
                n + 1,
                started.elapsed().as_secs_f64(),
                RECIPE_BUDGET.as_secs(),
                TIME_BUDGET.as_secs(),
                MEMORY_BUDGET_KB / 1024,
                max_time.as_secs_f64(),
                max_cpu.as_secs_f64(),
                max_peak / 1024
            );
        }
    }
    let _ = std::fs::remove_file(&current);
    if panics + slow + heavy > 0 {
        return Err(format!(
            "{} reproducers in {}",
            panics + slow + heavy,
            dir.display()
        ));
    }
    Ok(())
}
