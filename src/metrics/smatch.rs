//! Smatch between a predicted network and the gold network, without Python.
//!
//! The reference prints both networks as Lisp text (predicates sorted by name, symbols
//! upper-cased) and hands them to a customised `smatch.py` whose reader turns every predicate
//! occurrence and every distinct variable into a node. [`triples`] reproduces that reader on the
//! same text, quirks included, so triple counts are those of the reference.
//!
//! Matching is smatch 1.0.4's hill-climbing (smart start plus random restarts, best move or swap
//! until no gain), made deterministic by a seeded generator and fast by precomputing the
//! candidate table and pair weights once and keeping, for every test node and gold node, the
//! gain of mapping one to the other given the rest of the mapping. Optional branch and bound
//! proves the optimum when the search stays within a budget.

use crate::language::ast::{Arg, Predicate};
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
    /// Seed of the restarts, so that a score is reproducible.
    pub seed: u64,
    /// Also run branch and bound to prove (or improve on) the hill-climbing result.
    pub exact: bool,
    /// Search nodes branch and bound may visit before giving up on a proof.
    pub exact_budget: u64,
}

impl Default for SmatchConfig {
    fn default() -> Self {
        SmatchConfig {
            restarts: 4,
            seed: 0,
            exact: false,
            exact_budget: 500_000,
        }
    }
}

/// Outcome of one comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct SmatchResult {
    pub precision: f64,
    pub recall: f64,
    pub f_score: f64,
    /// Matched triples of the best mapping found (by either search).
    pub matched: usize,
    pub test_triples: usize,
    pub gold_triples: usize,
    /// The proven maximum, when exact mode finished within its budget.
    pub exact_optimum: Option<usize>,
    /// Exact mode found a better mapping than hill-climbing.
    pub hill_climbing_fell_short: bool,
}

/// The most actions a network may have to be compared. Hill-climbing costs about the product
/// of both networks' node counts per improving step, and the steps grow with the networks: a
/// 1,000-action network takes seconds against a gold network, 4,000 over a minute. Gold
/// networks have about 40 actions.
pub const MAX_ACTIONS: usize = 2_000;

/// The text the reference passes to smatch for one network: predicates stably sorted by name,
/// case-insensitively, each printed by the Lisp printer (`~a`, upper-case symbols), joined by
/// spaces.
pub fn reference_input(predicates: &[Predicate]) -> String {
    let mut sorted: Vec<&Predicate> = predicates.iter().collect();
    // `string-lessp` folds case; `sort_by` is stable like the list merge sort it replaces.
    sorted.sort_by_key(|p| p.name.to_uppercase());
    let mut out = String::new();
    for (i, p) in sorted.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push('(');
        out.push_str(&p.name.to_uppercase());
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
        let key = format!("{}{}", tokens[0], i);
        nodes.insert(key.clone(), t.instances.len());
        t.instances.push(tokens[0].to_lowercase());
        for (j, tok) in tokens.iter().enumerate().skip(1) {
            let role = format!("arg{}", j - 1);
            let source = nodes.get(&key).copied().unwrap_or(0);
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

/// Compare a predicted network (`test`) with the gold network.
pub fn smatch(test: &[Predicate], gold: &[Predicate], cfg: &SmatchConfig) -> SmatchResult {
    smatch_triples(&triples(test), &triples(gold), cfg)
}

/// Compare two triple sets (exposed so tests can feed the same triples to other tools).
pub fn smatch_triples(test: &Triples, gold: &Triples, cfg: &SmatchConfig) -> SmatchResult {
    let problem = Problem::new(test, gold);
    let hill = problem.hill_climb(cfg.restarts, cfg.seed);
    let mut matched = hill.score;
    let mut exact_optimum = None;
    if cfg.exact {
        let (best, proven) = problem.branch_and_bound(&hill.mapping, hill.score, cfg.exact_budget);
        matched = matched.max(best);
        if proven {
            exact_optimum = Some(best as usize);
        }
    }
    let matched = matched.max(0) as usize;
    let (precision, recall, f_score) = compute_f(matched, test.len(), gold.len());
    SmatchResult {
        precision,
        recall,
        f_score,
        matched,
        test_triples: test.len(),
        gold_triples: gold.len(),
        exact_optimum,
        hill_climbing_fell_short: matched as i64 > hill.score,
    }
}

/// A node mapping and its number of matched triples; `-1` marks an unmapped test node.
#[derive(Clone, Debug)]
struct Mapping {
    mapping: Vec<i32>,
    score: i64,
}

/// Everything about a pair of triple sets that does not depend on the mapping (smatch's
/// candidate pool and weight table), laid out densely over test × gold nodes.
struct Problem {
    n1: usize,
    n2: usize,
    /// Instance and attribute triples matched by mapping test node i to gold node x.
    unary: Vec<i32>,
    /// Gold nodes that earn something when test node i maps to them, ascending.
    cand: Vec<Vec<u32>>,
    /// Pair (i, x) → range in `adj` of the pairs (k, y, w): relation triples matched (w of
    /// them) when also k maps to y. Sorted by (k, y).
    adj_start: Vec<u32>,
    adj: Vec<(u32, u32, i32)>,
    /// For every test node, the test nodes it shares a relation with (only then does a swap
    /// interact), ascending. Lists, not a matrix: a large network has hundreds of thousands
    /// of nodes.
    linked: Vec<Vec<u32>>,
    /// Normalised instance label ids, shared between sides.
    label1: Vec<u32>,
    label2: Vec<u32>,
    labels: usize,
    /// Instance labels compared without normalisation, as the smart start does.
    raw1: Vec<u32>,
    raw2: Vec<u32>,
    /// Upper bound from counting triples by kind alone.
    multiset_bound: i64,
}

/// smatch's comparison key: lower-case, trailing underscores removed.
fn normalize(s: &str) -> String {
    s.to_lowercase().trim_end_matches('_').to_string()
}

struct Interner(HashMap<String, u32>);

impl Interner {
    fn id(&mut self, s: String) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(s).or_insert(next)
    }
}

impl Problem {
    fn new(t: &Triples, g: &Triples) -> Problem {
        let (n1, n2) = (t.instances.len(), g.instances.len());
        let mut unary = vec![0i32; n1 * n2];
        let mut norm = Interner(HashMap::new());
        let label1: Vec<u32> = t.instances.iter().map(|l| norm.id(normalize(l))).collect();
        let label2: Vec<u32> = g.instances.iter().map(|l| norm.id(normalize(l))).collect();
        let labels = norm.0.len();
        let mut raw = Interner(HashMap::new());
        let raw1 = t.instances.iter().map(|l| raw.id(l.clone())).collect();
        let raw2 = g.instances.iter().map(|l| raw.id(l.clone())).collect();
        let mut multiset_bound = 0i64;

        // Instance triples.
        let mut c1 = vec![0i64; labels];
        let mut c2 = vec![0i64; labels];
        for &l in &label1 {
            c1[l as usize] += 1;
        }
        for &l in &label2 {
            c2[l as usize] += 1;
        }
        multiset_bound += c1.iter().zip(&c2).map(|(a, b)| *a.min(b)).sum::<i64>();
        for i in 0..n1 {
            for x in 0..n2 {
                if label1[i] == label2[x] {
                    unary[i * n2 + x] += 1;
                }
            }
        }

        // Attribute triples, grouped by (role, value).
        let mut gold_attr: HashMap<(String, String), Vec<usize>> = HashMap::new();
        for a in &g.attributes {
            gold_attr
                .entry((normalize(&a.role), normalize(&a.value)))
                .or_default()
                .push(a.node);
        }
        let mut test_attr: HashMap<(String, String), i64> = HashMap::new();
        for a in &t.attributes {
            let key = (normalize(&a.role), normalize(&a.value));
            if let Some(nodes) = gold_attr.get(&key) {
                for &x in nodes {
                    unary[a.node * n2 + x] += 1;
                }
            }
            *test_attr.entry(key).or_default() += 1;
        }
        for (key, n) in &test_attr {
            let m = gold_attr.get(key).map_or(0, |v| v.len() as i64);
            multiset_bound += (*n).min(m);
        }

        // Relation triples, grouped by role.
        let mut gold_rel: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
        for r in &g.relations {
            gold_rel
                .entry(normalize(&r.role))
                .or_default()
                .push((r.source, r.target));
        }
        let mut test_rel: HashMap<String, i64> = HashMap::new();
        let mut entries: Vec<(u32, u32, u32, i32)> = Vec::new();
        let mut linked = vec![Vec::new(); n1];
        for r in &t.relations {
            let role = normalize(&r.role);
            let (a, b) = (r.source, r.target);
            linked[a].push(b as u32);
            linked[b].push(a as u32);
            if let Some(pairs) = gold_rel.get(&role) {
                for &(c, d) in pairs {
                    if a == b && c == d {
                        unary[a * n2 + c] += 1;
                    } else {
                        entries.push(((a * n2 + c) as u32, b as u32, d as u32, 1));
                        entries.push(((b * n2 + d) as u32, a as u32, c as u32, 1));
                    }
                }
            }
            *test_rel.entry(role).or_default() += 1;
        }
        for l in &mut linked {
            l.sort_unstable();
            l.dedup();
        }
        for (role, n) in &test_rel {
            let m = gold_rel.get(role).map_or(0, |v| v.len() as i64);
            multiset_bound += (*n).min(m);
        }
        entries.sort_unstable();
        let mut adj: Vec<(u32, u32, i32)> = Vec::with_capacity(entries.len());
        let mut adj_start = vec![0u32; n1 * n2 + 1];
        let mut last: Option<(u32, u32, u32)> = None;
        for (pair, k, y, w) in entries {
            if last == Some((pair, k, y)) {
                if let Some(e) = adj.last_mut() {
                    e.2 += w;
                }
            } else {
                adj.push((k, y, w));
                adj_start[pair as usize + 1] += 1;
                last = Some((pair, k, y));
            }
        }
        for p in 0..n1 * n2 {
            adj_start[p + 1] += adj_start[p];
        }

        let cand = (0..n1)
            .map(|i| {
                (0..n2)
                    .filter(|&x| {
                        let p = i * n2 + x;
                        unary[p] > 0 || adj_start[p + 1] > adj_start[p]
                    })
                    .map(|x| x as u32)
                    .collect()
            })
            .collect();

        Problem {
            n1,
            n2,
            unary,
            cand,
            adj_start,
            adj,
            linked,
            label1,
            label2,
            labels,
            raw1,
            raw2,
            multiset_bound,
        }
    }

    fn pair_adj(&self, i: usize, x: usize) -> &[(u32, u32, i32)] {
        let p = i * self.n2 + x;
        &self.adj[self.adj_start[p] as usize..self.adj_start[p + 1] as usize]
    }

    /// Relation triples matched by mapping i → x together with k → y.
    fn w(&self, i: usize, x: i32, k: usize, y: i32) -> i32 {
        if x < 0 || y < 0 {
            return 0;
        }
        self.pair_adj(i, x as usize)
            .iter()
            .find(|e| e.0 as usize == k && e.1 == y as u32)
            .map_or(0, |e| e.2)
    }

    /// Matched triples of a complete mapping, from scratch (for checks).
    fn score_of(&self, mapping: &[i32]) -> i64 {
        let mut s = 0i64;
        for (i, &x) in mapping.iter().enumerate() {
            if x < 0 {
                continue;
            }
            s += self.unary[i * self.n2 + x as usize] as i64;
            for &(k, y, w) in self.pair_adj(i, x as usize) {
                if (k as usize) > i && mapping[k as usize] == y as i32 {
                    s += w as i64;
                }
            }
        }
        s
    }

    /// smatch's search: one smart start, then `restarts` random starts, each climbed by the
    /// single best move or swap until nothing gains.
    fn hill_climb(&self, restarts: usize, seed: u64) -> Mapping {
        let mut best = Mapping {
            mapping: vec![-1; self.n1],
            score: 0,
        };
        if self.n1 == 0 || self.n2 == 0 {
            return best;
        }
        let mut rng = SplitMix64(seed);
        let mut st = Climber::new(self);
        for round in 0..=restarts {
            if round == 0 {
                st.smart_start(&mut rng);
            } else {
                st.random_start(&mut rng);
            }
            st.climb();
            if st.score > best.score {
                best.score = st.score;
                best.mapping.copy_from_slice(&st.f);
            }
            // Nothing can beat a mapping that reaches the counting bound; skipping the
            // remaining restarts cannot change the result.
            if best.score >= self.multiset_bound {
                break;
            }
        }
        debug_assert_eq!(self.score_of(&best.mapping), best.score);
        best
    }
}

/// A small, well-known generator (SplitMix64): reproducible on every platform and run.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; the bias is far below anything observable here).
    fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Hill-climbing state; all buffers are allocated once per comparison.
struct Climber<'a> {
    p: &'a Problem,
    /// Test node → gold node or -1.
    f: Vec<i32>,
    /// Gold node → test node or -1.
    inv: Vec<i32>,
    /// `g[i*n2+x]`: triples matched by i → x given the other test nodes' current mapping.
    g: Vec<i32>,
    score: i64,
    /// Test nodes without a same-label start (smart start).
    pending: Vec<usize>,
}

impl<'a> Climber<'a> {
    fn new(p: &'a Problem) -> Self {
        Climber {
            p,
            f: vec![-1; p.n1],
            inv: vec![-1; p.n2],
            g: vec![0; p.n1 * p.n2],
            score: 0,
            pending: Vec::with_capacity(p.n1),
        }
    }

    fn clear(&mut self) {
        self.f.fill(-1);
        self.inv.fill(-1);
        self.g.copy_from_slice(&self.p.unary);
        self.score = 0;
    }

    fn gain(&self, i: usize, x: i32) -> i32 {
        if x < 0 {
            0
        } else {
            self.g[i * self.p.n2 + x as usize]
        }
    }

    /// Map test node i to x (or nothing), keeping `g` and the score current.
    fn set(&mut self, i: usize, x: i32) {
        let n2 = self.p.n2;
        let old = self.f[i];
        if old == x {
            return;
        }
        if old >= 0 {
            self.score -= self.gain(i, old) as i64;
            self.inv[old as usize] = -1;
            for &(k, y, w) in self.p.pair_adj(i, old as usize) {
                if k as usize != i {
                    self.g[k as usize * n2 + y as usize] -= w;
                }
            }
        }
        self.f[i] = x;
        if x >= 0 {
            self.score += self.gain(i, x) as i64;
            self.inv[x as usize] = i as i32;
            for &(k, y, w) in self.p.pair_adj(i, x as usize) {
                if k as usize != i {
                    self.g[k as usize * n2 + y as usize] += w;
                }
            }
        }
    }

    /// A uniformly chosen free candidate of test node i, or -1.
    fn random_free(&self, i: usize, rng: &mut SplitMix64) -> i32 {
        let free = self.p.cand[i]
            .iter()
            .filter(|&&x| self.inv[x as usize] < 0)
            .count();
        if free == 0 {
            return -1;
        }
        let pick = rng.below(free);
        self.p.cand[i]
            .iter()
            .filter(|&&x| self.inv[x as usize] < 0)
            .nth(pick)
            .map_or(-1, |&x| x as i32)
    }

    /// smatch's smart start: each test node takes the first free candidate with the same
    /// concept; the others then take random free candidates.
    fn smart_start(&mut self, rng: &mut SplitMix64) {
        self.clear();
        self.pending.clear();
        let p = self.p;
        for i in 0..p.n1 {
            if p.cand[i].is_empty() {
                continue;
            }
            let same = p.cand[i]
                .iter()
                .find(|&&x| p.raw1[i] == p.raw2[x as usize] && self.inv[x as usize] < 0);
            match same {
                Some(&x) => self.set(i, x as i32),
                None => self.pending.push(i),
            }
        }
        for n in 0..self.pending.len() {
            let i = self.pending[n];
            let x = self.random_free(i, rng);
            self.set(i, x);
        }
    }

    fn random_start(&mut self, rng: &mut SplitMix64) {
        self.clear();
        for i in 0..self.p.n1 {
            let x = self.random_free(i, rng);
            self.set(i, x);
        }
    }

    /// Gain of exchanging the images of test nodes i and j.
    fn swap_gain(&self, i: usize, j: usize) -> i32 {
        let (m, m2) = (self.f[i], self.f[j]);
        let mut d = self.gain(i, m2) - self.gain(i, m) + self.gain(j, m) - self.gain(j, m2);
        if self.p.linked[i].binary_search(&(j as u32)).is_ok() {
            let p = self.p;
            d += p.w(i, m, j, m2) + p.w(i, m2, j, m) - p.w(i, m2, j, m2) - p.w(i, m, j, m);
        }
        d
    }

    /// Apply the best improving move (to a free candidate) or swap until none improves;
    /// moves are preferred on ties, earlier nodes before later ones, as in smatch.
    fn climb(&mut self) {
        let p = self.p;
        loop {
            let mut best = 0i32;
            let mut step: Option<(usize, i32, bool)> = None;
            for i in 0..p.n1 {
                let base = self.gain(i, self.f[i]);
                for &x in &p.cand[i] {
                    if self.inv[x as usize] < 0 {
                        let d = self.g[i * p.n2 + x as usize] - base;
                        if d > best {
                            best = d;
                            step = Some((i, x as i32, false));
                        }
                    }
                }
            }
            // Pairs in order (i, then j > i), skipping those with neither node mapped (no
            // gain): at most one test node per gold node is mapped, so this is linear in the
            // test network where all pairs would be quadratic.
            let mapped: Vec<usize> = (0..p.n1).filter(|&i| self.f[i] >= 0).collect();
            for i in 0..p.n1 {
                let partners: &mut dyn Iterator<Item = usize> = if self.f[i] >= 0 {
                    &mut (i + 1..p.n1)
                } else {
                    let from = mapped.partition_point(|&j| j <= i);
                    &mut mapped[from..].iter().copied()
                };
                for j in partners {
                    let d = self.swap_gain(i, j);
                    if d > best {
                        best = d;
                        step = Some((i, j as i32, true));
                    }
                }
            }
            let Some((i, other, swap)) = step else { break };
            let before = self.score;
            if swap {
                let j = other as usize;
                let (m, m2) = (self.f[i], self.f[j]);
                // Free i's image first so the inverse map stays consistent.
                self.set(i, -1);
                self.set(j, m);
                self.set(i, m2);
            } else {
                self.set(i, other);
            }
            debug_assert_eq!(self.score, before + best as i64);
            if self.score <= before {
                break;
            }
        }
    }
}

impl Problem {
    /// Branch and bound over test nodes in breadth-first order; returns the best score found
    /// and whether it is proven optimal (the budget was not exhausted).
    fn branch_and_bound(&self, start: &[i32], start_score: i64, budget: u64) -> (i64, bool) {
        if self.n1 == 0 || self.n2 == 0 || start_score >= self.multiset_bound {
            return (start_score, true);
        }
        let order = self.bfs_order();
        let mut pos = vec![0usize; self.n1];
        for (d, &i) in order.iter().enumerate() {
            pos[i] = d;
        }
        // Relation triples to later nodes, each counted at the earlier node, at their best.
        let mut fwd = vec![0i32; self.n1 * self.n2];
        for i in 0..self.n1 {
            for &x in &self.cand[i] {
                let mut total = 0;
                let mut cur: Option<(u32, i32)> = None;
                for &(k, _, w) in self.pair_adj(i, x as usize) {
                    if pos[k as usize] <= pos[i] {
                        continue;
                    }
                    match cur {
                        Some((ck, cw)) if ck == k => cur = Some((k, cw.max(w))),
                        Some((_, cw)) => {
                            total += cw;
                            cur = Some((k, w));
                        }
                        None => cur = Some((k, w)),
                    }
                }
                total += cur.map_or(0, |c| c.1);
                fwd[i * self.n2 + x as usize] = total;
            }
        }
        let mut un_test = vec![0i64; self.labels];
        for &l in &self.label1 {
            un_test[l as usize] += 1;
        }
        let mut free_gold = vec![0i64; self.labels];
        for &l in &self.label2 {
            free_gold[l as usize] += 1;
        }
        let mut s = Search {
            p: self,
            order,
            fwd,
            ga: vec![0; self.n1 * self.n2],
            f: vec![-1; self.n1],
            inv: vec![-1; self.n2],
            score: 0,
            best: start_score,
            best_f: start.to_vec(),
            nodes: 0,
            budget,
            aborted: false,
            un_test,
            free_gold,
            options: vec![Vec::with_capacity(self.n2 + 1); self.n1],
        };
        s.search(0);
        debug_assert_eq!(self.score_of(&s.best_f), s.best);
        (s.best, !s.aborted)
    }

    /// Test nodes breadth-first along relations, so that neighbours are decided close together
    /// and the bound tightens quickly.
    fn bfs_order(&self) -> Vec<usize> {
        let mut seen = vec![false; self.n1];
        let mut order = Vec::with_capacity(self.n1);
        for root in 0..self.n1 {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut head = order.len();
            order.push(root);
            while head < order.len() {
                let i = order[head];
                head += 1;
                for &k in &self.linked[i] {
                    let k = k as usize;
                    if !seen[k] {
                        seen[k] = true;
                        order.push(k);
                    }
                }
            }
        }
        order
    }
}

struct Search<'a> {
    p: &'a Problem,
    order: Vec<usize>,
    fwd: Vec<i32>,
    /// `ga[i*n2+x]`: relation triples matched by i → x with the already assigned nodes.
    ga: Vec<i32>,
    f: Vec<i32>,
    inv: Vec<i32>,
    score: i64,
    best: i64,
    best_f: Vec<i32>,
    nodes: u64,
    budget: u64,
    aborted: bool,
    /// Per label: unassigned test nodes and free gold nodes (caps instance matches).
    un_test: Vec<i64>,
    free_gold: Vec<i64>,
    /// Per depth: the options of that node, best first (reused buffers).
    options: Vec<Vec<(i32, i32)>>,
}

impl Search<'_> {
    fn value(&self, i: usize, x: usize) -> i32 {
        let q = i * self.p.n2 + x;
        self.p.unary[q] + self.ga[q] + self.fwd[q]
    }

    /// Score of the assigned part plus the better of two relaxations for the rest: each node at
    /// its best free option; or the same without instance triples plus the per-label cap on
    /// how many instance triples can still match.
    fn bound(&self, depth: usize) -> i64 {
        let p = self.p;
        let (mut b1, mut b2) = (0i64, 0i64);
        for &i in &self.order[depth..] {
            let (mut v1, mut v2) = (0i32, 0i32);
            for &x in &p.cand[i] {
                if self.inv[x as usize] >= 0 {
                    continue;
                }
                let v = self.value(i, x as usize);
                let inst = (p.label1[i] == p.label2[x as usize]) as i32;
                v1 = v1.max(v);
                v2 = v2.max(v - inst);
            }
            b1 += v1 as i64;
            b2 += v2 as i64;
        }
        let cap: i64 = self
            .un_test
            .iter()
            .zip(&self.free_gold)
            .map(|(a, b)| *a.min(b))
            .sum();
        self.score + b1.min(b2 + cap)
    }

    fn assign(&mut self, i: usize, x: i32) {
        let p = self.p;
        self.un_test[p.label1[i] as usize] -= 1;
        self.f[i] = x;
        if x < 0 {
            return;
        }
        let xu = x as usize;
        self.score += (p.unary[i * p.n2 + xu] + self.ga[i * p.n2 + xu]) as i64;
        self.inv[xu] = i as i32;
        self.free_gold[p.label2[xu] as usize] -= 1;
        for &(k, y, w) in p.pair_adj(i, xu) {
            if k as usize != i {
                self.ga[k as usize * p.n2 + y as usize] += w;
            }
        }
    }

    fn unassign(&mut self, i: usize, x: i32) {
        let p = self.p;
        self.un_test[p.label1[i] as usize] += 1;
        self.f[i] = -1;
        if x < 0 {
            return;
        }
        let xu = x as usize;
        for &(k, y, w) in p.pair_adj(i, xu) {
            if k as usize != i {
                self.ga[k as usize * p.n2 + y as usize] -= w;
            }
        }
        self.free_gold[p.label2[xu] as usize] += 1;
        self.inv[xu] = -1;
        self.score -= (p.unary[i * p.n2 + xu] + self.ga[i * p.n2 + xu]) as i64;
    }

    fn search(&mut self, depth: usize) {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return;
        }
        if depth == self.order.len() {
            if self.score > self.best {
                self.best = self.score;
                self.best_f.copy_from_slice(&self.f);
            }
            return;
        }
        if self.bound(depth) <= self.best {
            return;
        }
        let i = self.order[depth];
        let mut opts = std::mem::take(&mut self.options[depth]);
        opts.clear();
        for &x in &self.p.cand[i] {
            if self.inv[x as usize] < 0 {
                opts.push((self.value(i, x as usize), x as i32));
            }
        }
        // Best first; ties keep ascending gold order (stable sort).
        opts.sort_by_key(|o| std::cmp::Reverse(o.0));
        opts.push((0, -1));
        for &(_, x) in &opts {
            self.assign(i, x);
            self.search(depth + 1);
            self.unassign(i, x);
            if self.aborted {
                break;
            }
        }
        self.options[depth] = opts;
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
        let mut c = Climber::new(&p);
        let mut rng = SplitMix64(7);
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
