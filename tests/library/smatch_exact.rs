//! Exact Smatch (`--smatch-exact`) against an independent exact solver written here from the
//! Smatch definition, on pairs generated from the benchmark's gold networks.

use crate::common;

use cookingbot::base::profile::Profile;
use cookingbot::language::ast::{Arg, Predicate};
use cookingbot::metrics::smatch::{SmatchConfig, Triples, format_score, smatch, triples};
use std::collections::VecDeque;
use std::path::PathBuf;

fn gold_networks() -> Vec<(String, Vec<Predicate>)> {
    let dir = common::benchmark_dir().join("data/gold-standard-solutions/meaning-only");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "solution"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        let parsed = cookingbot::language::parse::parse(&text);
        assert!(!parsed.has_errors(), "{f:?} does not parse");
        out.extend(
            parsed
                .file
                .recipes
                .into_iter()
                .map(|r| (r.id, r.predicates)),
        );
    }
    assert_eq!(out.len(), 30);
    out
}

/// The benchmark's two families of recipes: salads (ids naming a salad, a slaw or dill, as in
/// cucumber-slices-with-dill) and baked goods (cookies, biscuits, brownies, cupcakes, bread…).
fn is_salad(id: &str) -> bool {
    ["salad", "slaw", "dill"].iter().any(|k| id.contains(k))
}

fn exact() -> SmatchConfig {
    SmatchConfig {
        exact: true,
        runs: 1,
        ..SmatchConfig::default()
    }
}

fn renamed(ps: &[Predicate]) -> Vec<Predicate> {
    let mut out = ps.to_vec();
    for p in &mut out {
        for a in &mut p.args {
            if let Arg::Var(v) = a {
                *v = (format!("other-{}", v.len() * 7 % 13) + v).into();
            }
        }
    }
    out
}

fn permuted(ps: &[Predicate], k: usize) -> Vec<Predicate> {
    let mut out = ps.to_vec();
    out.reverse();
    let k = k % out.len();
    out.rotate_left(k);
    out
}

// ---- the independent solver ----

/// Max-weight matching of rows to columns (every weight positive, so as many pairs as
/// possible) by successive shortest paths with Bellman–Ford queues on a flow network.
fn best_matching(rows: usize, cols: usize, weight: &dyn Fn(usize, usize) -> i64) -> i64 {
    // Nodes: 0 source, 1..=rows, rows+1..=rows+cols, sink.
    let sink = rows + cols + 1;
    let n = sink + 1;
    // Edges as (to, capacity, cost); edge e and e ^ 1 are each other's reverse.
    let mut edges: Vec<(usize, i64, i64)> = Vec::new();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut add = |from: usize, to: usize, cost: i64| {
        out[from].push(edges.len());
        edges.push((to, 1, cost));
        out[to].push(edges.len());
        edges.push((from, 0, -cost));
    };
    for r in 0..rows {
        add(0, 1 + r, 0);
        for c in 0..cols {
            add(1 + r, 1 + rows + c, -weight(r, c));
        }
    }
    for c in 0..cols {
        add(1 + rows + c, sink, 0);
    }
    let mut total = 0;
    loop {
        let mut dist = vec![i64::MAX; n];
        let mut via = vec![usize::MAX; n];
        let mut queued = vec![false; n];
        let mut queue = VecDeque::from([0]);
        dist[0] = 0;
        while let Some(v) = queue.pop_front() {
            queued[v] = false;
            for &e in &out[v] {
                let (to, cap, cost) = edges[e];
                if cap > 0 && dist[v] + cost < dist[to] {
                    dist[to] = dist[v] + cost;
                    via[to] = e;
                    if !queued[to] {
                        queued[to] = true;
                        queue.push_back(to);
                    }
                }
            }
        }
        if dist[sink] == i64::MAX || dist[sink] >= 0 {
            return total;
        }
        total -= dist[sink];
        let mut v = sink;
        while v != 0 {
            let e = via[v];
            edges[e].1 -= 1;
            edges[e ^ 1].1 += 1;
            v = edges[e ^ 1].0;
        }
    }
}

/// The Smatch optimum by exhaustive search over the predicate nodes' images, the variables
/// matched optimally for each. Only predicate nodes carry attributes and start relations, and
/// only variable nodes end them, so a predicate mapped to a variable (or the reverse) matches
/// nothing: predicates map to predicates or nothing, variables to variables.
fn exhaustive_optimum(t: &Triples, g: &Triples) -> i64 {
    for s in [t, g] {
        assert!(s.relations.iter().all(|r| s.instances[r.source] != "var"));
        assert!(s.relations.iter().all(|r| s.instances[r.target] == "var"));
    }
    let nodes = |s: &Triples, var: bool| -> Vec<usize> {
        (0..s.instances.len())
            .filter(|&i| (s.instances[i] == "var") == var)
            .collect()
    };
    let mut search = Exhaustive {
        t,
        g,
        test_predicates: nodes(t, false),
        gold_predicates: nodes(g, false),
        test_variables: nodes(t, true),
        gold_variables: nodes(g, true),
        image: vec![None; t.instances.len()],
        taken: vec![false; g.instances.len()],
        best: 0,
    };
    search.extend(0, 0);
    search.best
}

struct Exhaustive<'a> {
    t: &'a Triples,
    g: &'a Triples,
    test_predicates: Vec<usize>,
    gold_predicates: Vec<usize>,
    test_variables: Vec<usize>,
    gold_variables: Vec<usize>,
    image: Vec<Option<usize>>,
    taken: Vec<bool>,
    best: i64,
}

impl Exhaustive<'_> {
    /// Instance and attribute triples matched by mapping predicate i to x.
    fn unary(&self, i: usize, x: usize) -> i64 {
        let label = (self.t.instances[i] == self.g.instances[x]) as i64;
        let attributes = self.t.attributes.iter().filter(|a| a.node == i);
        label
            + attributes
                .map(|a| {
                    let same = |b: &&cookingbot::metrics::smatch::Attribute| {
                        b.node == x && b.role == a.role && b.value == a.value
                    };
                    self.g.attributes.iter().filter(same).count() as i64
                })
                .sum::<i64>()
    }

    /// Triples matched by mapping variable v to u, given the predicates' images.
    fn variable(&self, v: usize, u: usize) -> i64 {
        let relations = self.t.relations.iter().filter(|r| r.target == v);
        1 + relations
            .map(|r| match self.image[r.source] {
                Some(x) => {
                    let gold = self.g.relations.iter();
                    gold.filter(|b| b.role == r.role && b.source == x && b.target == u)
                        .count() as i64
                }
                None => 0,
            })
            .sum::<i64>()
    }

    fn extend(&mut self, depth: usize, score: i64) {
        if depth == self.test_predicates.len() {
            let (tv, gv) = (&self.test_variables, &self.gold_variables);
            let vars = best_matching(tv.len(), gv.len(), &|r, c| self.variable(tv[r], gv[c]));
            self.best = self.best.max(score + vars);
            return;
        }
        let i = self.test_predicates[depth];
        self.extend(depth + 1, score);
        for n in 0..self.gold_predicates.len() {
            let x = self.gold_predicates[n];
            if self.taken[x] {
                continue;
            }
            self.taken[x] = true;
            self.image[i] = Some(x);
            self.extend(depth + 1, score + self.unary(i, x));
            self.image[i] = None;
            self.taken[x] = false;
        }
    }
}

/// Pairs of every kind the issue names, with the optimum each must have: permuted, renamed
/// and dropped-line networks against their gold (an explicit alignment matches every test
/// triple, so the optimum is the test side's triple count), and near-miss pairs (a window of
/// five lines of one recipe's gold against the same window of the next recipe of its family),
/// solved by exhaustive search.
#[test]
fn exact_mode_equals_an_independent_exact_solver() {
    common::require_data!(Profile::R2024);
    let gold = gold_networks();
    let mut pairs: Vec<(String, Vec<Predicate>, Vec<Predicate>, i64)> = Vec::new();
    for (n, (id, ps)) in gold.iter().enumerate() {
        let all = triples(ps).len() as i64;
        pairs.push((format!("{id} permuted"), permuted(ps, n), ps.clone(), all));
        pairs.push((format!("{id} renamed"), renamed(ps), ps.clone(), all));
        let mut dropped = permuted(ps, n + 3);
        dropped.remove(n % dropped.len());
        let kept = triples(&dropped).len() as i64;
        pairs.push((format!("{id} dropped line"), dropped, ps.clone(), kept));
    }
    for (n, (id, ps)) in gold.iter().enumerate() {
        let next = gold
            .iter()
            .cycle()
            .skip(n + 1)
            .find(|(o, _)| is_salad(o) == is_salad(id))
            .map(|(o, q)| (o, q))
            .unwrap_or_else(|| panic!("no other recipe of {id}'s family"));
        for at in [1, 10] {
            let window = |q: &[Predicate]| q[at.min(q.len() - 5)..][..5].to_vec();
            let (test, gold) = (window(ps), window(next.1));
            let optimum = exhaustive_optimum(&triples(&test), &triples(&gold));
            pairs.push((format!("{id} vs {} at {at}", next.0), test, gold, optimum));
        }
    }
    assert!(pairs.len() >= 100);
    for (name, test, gold, optimum) in &pairs {
        let r = smatch(test, gold, &exact());
        assert!(r.proven, "{name}: unproven, bound {:?}", r.bound);
        assert_eq!(r.optimum, Some(*optimum as usize), "{name}");
        assert_eq!(r.matched as i64, *optimum, "{name}");
        assert_eq!(r.bound, r.optimum, "{name}");
    }
}

/// A gold network with its lines in another order (and its variables renamed) scores 1.00 in
/// exact mode, proven, whatever the climb does.
#[test]
fn a_permuted_gold_network_scores_one() {
    common::require_data!(Profile::R2024);
    for (n, (id, ps)) in gold_networks().iter().enumerate() {
        let r = smatch(&renamed(&permuted(ps, n)), ps, &exact());
        assert!(r.proven, "{id}");
        assert_eq!(r.optimum, Some(r.gold_triples), "{id}");
        assert_eq!(format_score(r.f_score), "1.00", "{id}");
    }
}

/// The independent solver itself, on a pair small enough to count by hand: two actions whose
/// variables can line up only one way round.
#[test]
fn the_independent_solver_counts_by_the_definition() {
    let t = cookingbot::metrics::smatch::triples_from_text("(A ?X ?Y) (B ?Y 1)");
    let g = cookingbot::metrics::smatch::triples_from_text("(B ?Q 1) (A ?P ?Q)");
    // 2 labels, 1 attribute, 3 relations, 2 variables.
    assert_eq!(exhaustive_optimum(&t, &g), 8);
    let g = cookingbot::metrics::smatch::triples_from_text("(B ?Q 2) (A ?Q ?P)");
    // The attribute differs, and Y follows either A's second argument or B's first, not both:
    // 2 labels, 2 relations, 2 variables.
    assert_eq!(exhaustive_optimum(&t, &g), 6);
}

/// When the budget runs out the result says so, and the bound it reached still holds: a longer
/// search never finds more than it.
#[test]
fn an_exhausted_budget_reports_a_bound_that_holds() {
    common::require_data!(Profile::R2024);
    let gold = gold_networks();
    let find = |id: &str| &gold.iter().find(|(i, _)| i == id).expect(id).1;
    let (test, other) = (find("afghan-biscuits"), find("almond-crescent-cookies-2"));
    let short = smatch(
        test,
        other,
        &SmatchConfig {
            exact_budget: 1,
            ..exact()
        },
    );
    assert!(!short.proven);
    let (found, bound) = (
        short.optimum.expect("exact mode"),
        short.bound.expect("exact mode"),
    );
    assert!(found < bound && found >= short.reference_climb);
    let long = smatch(test, other, &exact());
    assert!(long.optimum.expect("exact mode") >= found);
    assert!(long.bound.expect("exact mode") <= bound);
    assert!(long.optimum <= Some(bound));
}

/// The JSON report carries the reference's climb, the exact value, whether it is proven and the
/// bound, beside each other.
#[test]
fn json_reports_the_exact_value_beside_the_default() {
    common::require_data!(Profile::R2024);
    let dir = tempfile::tempdir().expect("a scratch folder");
    let output = dir.path().join("results.json");
    let example =
        common::benchmark_dir().join("documentation/examples/evaluation/partial-failure.solution");
    let o = common::with_data(&mut std::process::Command::new(env!(
        "CARGO_BIN_EXE_cookingbot-evaluator"
    )))
    .args(["-input", &example.display().to_string(), "-output"])
    .arg(&output)
    .args([
        "-metrics",
        "smatch-score",
        "--smatch-exact",
        "--smatch-exact-budget",
        "50",
        "--format",
        "json",
    ])
    .output()
    .expect("the binary runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&output).expect("JSON written");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["signature"]["smatch"]["exact_budget"], 50);
    let s = &v["recipes"][0]["smatch"];
    let number = |key: &str| s[key].as_u64().unwrap_or_else(|| panic!("{key} in {s}"));
    assert_eq!(number("matched_triples"), number("optimum"));
    assert!(number("optimum") >= number("reference_climb"));
    let proven = s["proven"].as_bool().expect("proven");
    assert_eq!(proven, number("bound") == number("optimum"), "{s}");
    assert!(number("bound") >= number("optimum"));
}
