//! Smatch between a predicted network and the gold network, without Python.
//!
//! The reference prints both networks as Lisp text (predicates sorted by name, symbols
//! upper-cased) and hands them to a customised `smatch.py` whose reader turns every predicate
//! occurrence and every distinct variable into a node. [`triples`] reproduces that reader on the
//! same text, quirks included, so triple counts are those of the reference.
//!
//! Matching is smatch 1.0.4's hill-climbing (smart start plus random restarts, best move or swap
//! until no gain), made deterministic by a seeded generator (`climb`) over tables that grow
//! with the networks, not with their product (`problem`). Exact mode starts from the better of
//! that climb and a colour-refinement alignment (`canonical`), then branch and bound proves the
//! optimum or, when its budget runs out, reports the bound it reached (`exact`).

mod canonical;
mod climb;
mod cpython;
mod exact;
mod problem;

use crate::language::ast::{Arg, Predicate};
use climb::Work;
use problem::Problem;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// An attribute triple `(role, node, value)`: a constant argument of a predicate node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub role: String,
    pub node: usize,
    pub value: String,
}

/// A relation triple `(role, source, target)`: a predicate node's variable argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    pub role: String,
    pub source: usize,
    pub target: usize,
}

/// The triples the reference's reader builds from one network, lower-cased.
///
/// Node `i` has the instance triple `(instance, i, instances[i])`; predicate nodes are labelled
/// with the primitive name, variable nodes with `var`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Triples {
    pub instances: Vec<String>,
    pub attributes: Vec<Attribute>,
    pub relations: Vec<Relation>,
}

impl Triples {
    /// Number of triples, the denominator of precision or recall.
    pub fn len(&self) -> usize {
        self.instances.len() + self.attributes.len() + self.relations.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How to search for the best node mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmatchConfig {
    /// Random restarts after the smart start (the reference passes smatch's default, 4).
    pub restarts: usize,
    /// Runs of smatch.py replayed (seeds `seed`, `seed + 1`, …); the value most of them print
    /// is reported. Three: the oracle's count, and enough for a majority.
    pub runs: usize,
    /// Which run of smatch.py to replay first: Python's `random` is seeded with 1000 + `seed`
    /// before its search. The reference seeds it from the system, so every seed is one of the
    /// runs the reference can make; seed k is the k-th run of `smatch_ref.py`, the oracle's
    /// script.
    pub seed: u64,
    /// Also search for the optimum: colour refinement, then branch and bound to prove (or
    /// improve on) the best mapping found. Its tables are test nodes × gold nodes, so pairs of
    /// networks with more than [`EXACT_MAX_PAIRS`] node pairs are left unproven unless
    /// hill-climbing reaches the counting bound.
    pub exact: bool,
    /// Search nodes branch and bound may visit before giving up on a proof (the root runs up
    /// to 500 subgradient steps and a neighbourhood search, every other node up to 50 steps,
    /// each an assignment problem: about 0.2–10 ms on a benchmark-sized pair). Work is capped
    /// with it, so that larger networks do not make a node slower without bound.
    pub exact_budget: u64,
    /// Work (gain-table cells scanned, see `climb::Work`) the replayed runs of smatch.py's
    /// search may do together before they stop: [`CLIMB_WORK`] unless set.
    pub climb_work: u64,
}

/// The work the replayed searches may do by default, about 8 s (some 2.5e8 cells a second).
/// The most the benchmark's pairs take is 7e7 (a 403- against a 375-triple gold network of
/// another variant), a 500-action chain against a gold network 4.5e7; the cost grows with the
/// cube of the networks' size, so a 400-action network against a 400-action gold network of
/// its own would take over a minute. Past this bound the recipe is refused with a message,
/// since the value the reference would print is not known.
pub const CLIMB_WORK: u64 = 2_000_000_000;

impl Default for SmatchConfig {
    fn default() -> Self {
        SmatchConfig {
            restarts: 4,
            runs: 3,
            seed: 0,
            exact: false,
            exact_budget: 200,
            climb_work: CLIMB_WORK,
        }
    }
}

/// Outcome of one comparison, in the JSON report's field order and names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SmatchResult {
    pub f_score: f64,
    pub precision: f64,
    pub recall: f64,
    /// Matched triples of the best mapping found (by either search).
    #[serde(rename = "matched_triples")]
    pub matched: usize,
    pub test_triples: usize,
    pub gold_triples: usize,
    /// Matched triples of smatch.py's own search (smart start, then random restarts) in the
    /// replayed run that prints the majority value (see [`SmatchConfig::runs`]).
    pub reference_climb: usize,
    /// Exact mode only: matched triples of the best mapping it found, the optimum when
    /// `proven`.
    pub optimum: Option<usize>,
    /// Exact mode proved that no mapping matches more than `optimum`.
    pub proven: bool,
    /// Exact mode only: no mapping matches more triples than this (`optimum` when proven; the
    /// bound branch and bound reached when its budget ran out).
    pub bound: Option<usize>,
    /// Exact mode found a better mapping than hill-climbing.
    pub hill_climbing_fell_short: bool,
    /// The replay of smatch.py's search ran to its end. When false it stopped at its work
    /// bound ([`SmatchConfig::climb_work`]) or the recipe's time budget, and `reference_climb`
    /// is where it had got: no run of the reference prints that value, so the evaluation
    /// refuses the recipe unless exact mode reports its best alignment instead.
    #[serde(default = "yes")]
    pub climb_complete: bool,
}

fn yes() -> bool {
    true
}

/// The most actions a network may have to be compared: the simulator's bound, so that one
/// limit holds whichever metrics are asked for. Hill-climbing's cost grows with the predicted
/// network's size times the gold network's (about 40 actions), so this bound is about memory
/// for the triples, not time.
pub const MAX_ACTIONS: usize = crate::simulation::MAX_ACTIONS;

/// Node pairs up to which exact mode searches (see [`SmatchConfig::exact`]).
pub use exact::MAX_PAIRS as EXACT_MAX_PAIRS;

/// The text the reference passes to smatch for one network: predicates stably sorted by name,
/// case-insensitively, each printed by the Lisp printer (`~a`, upper-case symbols), joined by
/// spaces.
pub fn reference_input(predicates: &[Predicate]) -> String {
    // Each name upper-cased once: the sort key and what is printed.
    let mut sorted: Vec<(String, &Predicate)> = predicates
        .iter()
        .map(|p| (p.name.to_uppercase(), p))
        .collect();
    // `string-lessp` folds case; `sort_by` is stable like the list merge sort it replaces.
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (i, (name, p)) in sorted.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push('(');
        out.push_str(name);
        for a in &p.args {
            out.push(' ');
            princ_arg(a, &mut out);
        }
        out.push(')');
    }
    out
}

/// `princ` of one argument: symbols upper-cased, strings without quotes, numbers as printed.
fn princ_arg(arg: &Arg, out: &mut String) {
    match arg {
        Arg::Var(v) => {
            out.push('?');
            out.push_str(&v.to_uppercase());
        }
        Arg::Sym(s) => out.push_str(&s.to_uppercase()),
        Arg::Num(n) => out.push_str(&n.to_string()),
        Arg::Str(s) => out.push_str(s),
        Arg::List(items) => {
            out.push('(');
            for (i, a) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                princ_arg(a, out);
            }
            out.push(')');
        }
    }
}

/// The triples of a network exactly as the reference derives them.
pub fn triples(predicates: &[Predicate]) -> Triples {
    triples_from_text(&reference_input(predicates))
}

/// The reference's reader on already printed text.
///
/// It deletes every `(`, cuts at `)` and splits each piece on single spaces, so a nested list
/// ends its predicate early and its tail becomes a one-token piece that is skipped. A token
/// longer than one character starting with `?` is a variable; anything else is a constant.
/// Pieces with no argument are skipped (but still count for numbering). A piece whose name is a
/// variable makes the reference's script crash; it is skipped here.
pub fn triples_from_text(text: &str) -> Triples {
    let cleaned = text.trim().replace('(', "");
    let mut t = Triples::default();
    // One table for predicate keys (name + piece index) and variable names, as the reader
    // keeps them, so even their (absurd) collisions behave alike.
    let mut nodes: HashMap<String, usize> = HashMap::new();
    let pieces = cleaned.split(')').filter(|p| !p.is_empty());
    for (i, piece) in pieces.enumerate() {
        let tokens: Vec<&str> = piece.trim().split(' ').collect();
        if tokens.len() < 2 || is_variable(tokens[0]) {
            continue;
        }
        // The key names this node for the rest of the piece: a variable spelled like it is
        // then found under it, never added.
        let source = t.instances.len();
        nodes.insert(format!("{}{}", tokens[0], i), source);
        t.instances.push(tokens[0].to_lowercase());
        for (j, tok) in tokens.iter().enumerate().skip(1) {
            let role = format!("arg{}", j - 1);
            if is_variable(tok) {
                let target = match nodes.get(*tok) {
                    Some(&n) => n,
                    None => {
                        let n = t.instances.len();
                        nodes.insert((*tok).to_string(), n);
                        t.instances.push("var".to_string());
                        n
                    }
                };
                t.relations.push(Relation {
                    role,
                    source,
                    target,
                });
            } else {
                t.attributes.push(Attribute {
                    role,
                    node: source,
                    value: tok.to_lowercase(),
                });
            }
        }
    }
    t
}

fn is_variable(token: &str) -> bool {
    token.len() > 1 && token.starts_with('?')
}

/// Python's `%.2f` of the F-score, the precision at which the reference reports Smatch.
/// Rust's formatter, like Python's, rounds the exact binary value half to even.
pub fn format_score(f_score: f64) -> String {
    format!("{f_score:.2}")
}

/// The value the reference ends up with: the two-decimal text read back as a number.
pub fn reference_score(f_score: f64) -> f64 {
    format_score(f_score).parse().unwrap_or(0.0)
}

/// Precision, recall and F as smatch computes them (in that float order, 0 on empty sides).
pub fn compute_f(matched: usize, test: usize, gold: usize) -> (f64, f64, f64) {
    if test == 0 || gold == 0 {
        return (0.0, 0.0, 0.0);
    }
    let p = matched as f64 / test as f64;
    let r = matched as f64 / gold as f64;
    if p + r == 0.0 {
        return (p, r, 0.0);
    }
    (p, r, 2.0 * p * r / (p + r))
}

/// The run of smatch.py whose printed value most of `cfg.runs` replayed runs print (the
/// earliest on ties): the value a user of the reference sees most often. Runs stop as soon as
/// one value has more than half of them.
fn reference_run(
    p: &Problem,
    test: usize,
    gold: usize,
    cfg: &SmatchConfig,
    work: &mut Work,
) -> climb::Mapping {
    let runs = cfg.runs.max(1);
    let mut done: Vec<(String, climb::Mapping)> = Vec::with_capacity(runs);
    let mut smart = None;
    for k in 0..runs {
        let seed = cfg.seed.wrapping_add(k as u64);
        let m = climb::hill_climb(p, cfg.restarts, seed, &mut smart, work);
        if work.exhausted() {
            // Not the value of any run of smatch.py; the caller says so.
            return m;
        }
        let printed = format_score(compute_f(m.score.max(0) as usize, test, gold).2);
        let same = done.iter().filter(|(v, _)| *v == printed).count() + 1;
        done.push((printed, m));
        if same * 2 > runs {
            break;
        }
    }
    let votes = |v: &String| done.iter().filter(|(w, _)| w == v).count();
    let mut best = 0;
    for (i, (v, _)) in done.iter().enumerate() {
        if votes(v) > votes(&done[best].0) {
            best = i;
        }
    }
    done.swap_remove(best).1
}

/// Compare a predicted network (`test`) with the gold network.
pub fn smatch(test: &[Predicate], gold: &[Predicate], cfg: &SmatchConfig) -> SmatchResult {
    smatch_triples(&triples(test), &triples(gold), cfg)
}

/// A gold network as Smatch compares networks with it: its triples and what a comparison
/// takes from them alone, made once, so that comparing many networks with one gold network
/// (an evaluator scoring sessions and files) does not build them again each time.
pub struct SmatchGold {
    triples: Triples,
    tables: problem::GoldTables,
}

impl SmatchGold {
    pub fn new(gold: &[Predicate]) -> SmatchGold {
        let triples = triples(gold);
        let tables = problem::GoldTables::new(&triples);
        SmatchGold { triples, tables }
    }
}

/// [`smatch`] against a gold network made once: the same result.
pub fn smatch_against(test: &[Predicate], gold: &SmatchGold, cfg: &SmatchConfig) -> SmatchResult {
    compare(&triples(test), &gold.triples, &gold.tables, cfg)
}

/// Compare two triple sets (exposed so tests can feed the same triples to other tools).
pub fn smatch_triples(test: &Triples, gold: &Triples, cfg: &SmatchConfig) -> SmatchResult {
    compare(test, gold, &problem::GoldTables::new(gold), cfg)
}

/// Compare test triples with gold triples, given the tables made of the gold ones.
fn compare(
    test: &Triples,
    gold: &Triples,
    tables: &problem::GoldTables,
    cfg: &SmatchConfig,
) -> SmatchResult {
    let problem = Problem::against(test, tables);
    let mut work = Work::new(cfg.climb_work);
    let hill = reference_run(&problem, test.len(), gold.len(), cfg, &mut work);
    let exact = cfg.exact.then(|| {
        let (aligned, score) = if problem.n1.saturating_mul(problem.n2) <= EXACT_MAX_PAIRS {
            canonical::aligned_mapping(&problem, test, gold)
        } else {
            (Vec::new(), -1)
        };
        let (start, start_score) = if score > hill.score {
            (&aligned, score)
        } else {
            (&hill.mapping, hill.score)
        };
        exact::branch_and_bound(&problem, start, start_score, cfg.exact_budget)
    });
    let matched = exact.map_or(hill.score, |e| e.best).max(0) as usize;
    let (precision, recall, f_score) = compute_f(matched, test.len(), gold.len());
    SmatchResult {
        precision,
        recall,
        f_score,
        matched,
        test_triples: test.len(),
        gold_triples: gold.len(),
        reference_climb: hill.score.max(0) as usize,
        optimum: exact.map(|e| e.best.max(0) as usize),
        proven: exact.is_some_and(|e| e.proven()),
        bound: exact.map(|e| e.bound.max(0) as usize),
        hill_climbing_fell_short: matched as i64 > hill.score,
        climb_complete: !work.exhausted(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_builds_nodes_like_the_reference() {
        let t = triples_from_text("(BOY ?X) (UNIQUE ?X 1/2)");
        assert_eq!(t.instances, vec!["boy", "var", "unique"]);
        assert_eq!(t.relations.len(), 2);
        assert_eq!(
            t.relations[1],
            Relation {
                role: "arg0".into(),
                source: 2,
                target: 1
            }
        );
        assert_eq!(
            t.attributes,
            vec![Attribute {
                role: "arg1".into(),
                node: 2,
                value: "1/2".into()
            }]
        );
        // A lone `?` is a constant; a predicate without arguments makes no node.
        let t = triples_from_text("(A ?) (B)");
        assert_eq!(t.instances, vec!["a"]);
        assert_eq!(t.attributes[0].value, "?");
        // A nested list cuts the predicate short.
        let t = triples_from_text("(F ?X (A B) C)");
        assert_eq!(t.len(), 1 + 1 + 1 + 2);
        // A predicate's key (its name and piece number) and a variable share one table: a
        // variable spelled like the key of its own predicate names that predicate's node.
        let t = triples_from_text("(X ?0) (? ?0 ?1)");
        assert_eq!(t.instances, vec!["x", "var", "?"]);
        let ends: Vec<(&str, usize, usize)> = (t.relations.iter())
            .map(|r| (r.role.as_str(), r.source, r.target))
            .collect();
        assert_eq!(ends, vec![("arg0", 0, 1), ("arg0", 2, 1), ("arg1", 2, 2)]);
    }

    #[test]
    fn formatting_rounds_like_python() {
        assert_eq!(format_score(0.9965), "1.00");
        assert_eq!(format_score(0.125), "0.12");
        assert_eq!(format_score(0.375), "0.38");
        assert_eq!(reference_score(0.8449), 0.84);
    }

    #[test]
    fn empty_sides_score_zero() {
        let t = triples_from_text("(A ?X)");
        let r = smatch_triples(&t, &Triples::default(), &SmatchConfig::default());
        assert_eq!(r.f_score, 0.0);
        let r = smatch_triples(&Triples::default(), &t, &SmatchConfig::default());
        assert_eq!(r.f_score, 0.0);
    }

    #[test]
    fn swap_gain_matches_recount() {
        let t = triples_from_text("(A ?X ?Y) (B ?Y ?Z 3) (A ?Z ?X) (C ?X 3)");
        let g = triples_from_text("(A ?P ?Q) (A ?Q ?R) (B ?R ?P 3) (C ?Q 2)");
        let p = Problem::new(&t, &g);
        let mut c = climb::Climber::new(&p);
        let mut rng = cpython::PyRandom::new(7);
        for _ in 0..50 {
            c.random_start(&mut rng);
            for i in 0..p.n1 {
                for j in i + 1..p.n1 {
                    let mut m = c.f.clone();
                    m.swap(i, j);
                    assert_eq!(p.score_of(&m) - c.score, c.swap_gain(i, j) as i64);
                }
            }
        }
    }
}
