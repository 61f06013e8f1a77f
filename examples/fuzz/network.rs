//! Networks: gold networks mutated token by token, and one mutation in [`STRUCTURE_ONE_IN`]
//! a structure a careless or hostile writer makes (chains, deep mixtures, repeated constants,
//! 2^N orderings, portion bombs, dense unknown constants). Every input goes through the whole
//! evaluation; one in [`SESSION_ONE_IN`] is also given line by line to a kitchen session.

use crate::{Input, Target, Verdict};
use cookingbot::base::profile::Profile;
use cookingbot::base::random::SplitMix64;
use cookingbot::benchmark::{DataSource, locate, manifest};
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::service::session::Session;
use cookingbot::service::solution_file::MAX_INPUT_BYTES;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The time budget of each recipe (`--timeout-per-recipe`): an input has at most a few
/// recipes (spliced headers), so all of them refused at this budget stay under the input's.
pub const RECIPE_BUDGET: Duration = Duration::from_secs(1);
/// One mutation in this many is a structure mutation (see [`Corpus::mutate`]).
const STRUCTURE_ONE_IN: usize = 400;
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
            // A mutation that takes the text past the bound every front end reads (64 MiB) is
            // dropped: such a file is refused unread, and compounded mutations reached 1.7 GB.
            let before = lines.clone();
            self.mutate(&mut lines, rng);
            let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
            if bytes as u64 > MAX_INPUT_BYTES {
                lines = before;
            }
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

/// The network target: the corpus and an evaluator with the fuzzer's budgets.
pub struct Networks {
    corpus: Corpus,
    evaluator: Arc<Evaluator>,
    all: MetricSet,
    without_smatch: MetricSet,
    smatch_every: u64,
}

impl Networks {
    pub fn new(profile: Profile, smatch_every: u64) -> Result<Networks, String> {
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
        let all = Metric::ALL
            .into_iter()
            .fold(MetricSet::empty(), MetricSet::with);
        let without_smatch = Metric::ALL
            .into_iter()
            .filter(|&m| m != Metric::SmatchScore)
            .fold(MetricSet::empty(), MetricSet::with);
        Ok(Networks {
            corpus,
            evaluator: Arc::new(evaluator),
            all,
            without_smatch,
            smatch_every,
        })
    }
}

impl Target for Networks {
    fn describe(&self) -> String {
        format!(
            "Smatch on every {}. input, the other metrics on all; one input in {SESSION_ONE_IN} also through a kitchen session",
            self.smatch_every
        )
    }

    fn input(&self, rng: &mut SplitMix64) -> Input {
        Input::one("solution", self.corpus.mutant(rng))
    }

    fn run(&self, n: u64, input: &Input) -> Verdict {
        let text = &input.files[0].1;
        if n.is_multiple_of(SESSION_ONE_IN) {
            through_session(&self.evaluator, text);
        }
        let metrics = match n.is_multiple_of(self.smatch_every) {
            true => &self.all,
            false => &self.without_smatch,
        };
        match self.evaluator.evaluate(text, metrics) {
            Ok(_) => Verdict::Ran,
            Err(refusal) => Verdict::Refused {
                at_budget: refusal.message.contains("--timeout-per-recipe"),
            },
        }
    }
}
