//! Smatch against the reference's triple conversion and python smatch 1.0.4.

use crate::common;
use common::{examples_dir, gold_dir, solution_files};

use cookingbot::base::number::Number;
use cookingbot::base::profile::Profile;
use cookingbot::language::ast::{Arg, Predicate, Span};
use cookingbot::metrics::smatch::{
    SmatchConfig, Triples, format_score, smatch, smatch_triples, triples,
};
use proptest::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const GOLD: &str = "data/gold-standard-solutions/meaning-only";

/// The gold networks of the 2023 release (the thesis repository's, the same networks modulo
/// variable names as those embedded in the reference).
fn reference_gold_dir() -> PathBuf {
    common::data_dir(Profile::R2023).join(GOLD)
}

/// The recipes of a solution file, read with the project's parser.
fn read_solutions(path: &Path) -> Vec<(String, Vec<Predicate>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let parsed = cookingbot::language::parse::parse(&text);
    assert!(!parsed.has_errors(), "{path:?} does not parse");
    parsed
        .file
        .recipes
        .into_iter()
        .map(|r| (r.id, r.predicates))
        .collect()
}

fn pred(name: &str, args: Vec<Arg>) -> Predicate {
    let n = args.len();
    Predicate {
        name: name.to_string(),
        args,
        span: Span::default(),
        name_span: Span::default(),
        arg_spans: vec![Span::default(); n].into(),
    }
}

fn reference_gold(id: &str) -> Vec<Predicate> {
    let file = reference_gold_dir().join(format!("{id}.solution"));
    read_solutions(&file)
        .into_iter()
        .find(|(i, _)| i == id)
        .map(|(_, p)| p)
        .unwrap_or_else(|| panic!("no {id} in {}", file.display()))
}

fn exact() -> SmatchConfig {
    SmatchConfig {
        exact: true,
        ..SmatchConfig::default()
    }
}

#[test]
fn every_gold_network_matches_itself() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let files = solution_files(&gold_dir());
    assert_eq!(files.len(), 30);
    let mut networks: Vec<(String, Vec<Predicate>)> = Vec::new();
    for f in &files {
        networks.extend(read_solutions(f));
    }
    for f in &solution_files(&reference_gold_dir()) {
        networks.extend(read_solutions(f));
    }
    assert_eq!(networks.len(), 60);
    for (id, ps) in &networks {
        assert!(!ps.is_empty(), "{id}");
        let r = smatch(ps, ps, &SmatchConfig::default());
        assert_eq!(r.matched, r.gold_triples, "{id}");
        assert_eq!(format_score(r.f_score), "1.00", "{id}");
        let e = smatch(ps, ps, &exact());
        assert_eq!(e.optimum, Some(e.gold_triples), "{id}");
        assert!(e.proven, "{id}");
        assert!(!e.hill_climbing_fell_short, "{id}");
    }
}

/// Python with smatch 1.0.4 importable; installs it with pip when missing.
fn python_with_smatch() -> String {
    let py = "python3".to_string();
    let ok = |py: &str| {
        Command::new(py)
            .args(["-c", "import smatch"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !ok(&py) {
        let _ = Command::new(&py)
            .args(["-m", "pip", "install", "--quiet", "smatch==1.0.4"])
            .status();
    }
    assert!(
        ok(&py),
        "python smatch 1.0.4 is needed for the cross-check: `python3 -m pip install smatch==1.0.4` failed"
    );
    py
}

fn py_triples(t: &Triples, prefix: &str) -> String {
    let q = |s: &str| format!("{s:?}");
    let inst: Vec<String> = t
        .instances
        .iter()
        .enumerate()
        .map(|(i, l)| format!("('instance', '{prefix}{i}', {})", q(l)))
        .collect();
    let attr: Vec<String> = t
        .attributes
        .iter()
        .map(|a| format!("({}, '{prefix}{}', {})", q(&a.role), a.node, q(&a.value)))
        .collect();
    let rel: Vec<String> = t
        .relations
        .iter()
        .map(|r| {
            format!(
                "({}, '{prefix}{}', '{prefix}{}')",
                q(&r.role),
                r.source,
                r.target
            )
        })
        .collect();
    format!(
        "[{}], [{}], [{}]",
        inst.join(","),
        attr.join(","),
        rel.join(",")
    )
}

/// Matched-triple counts of `runs` independent python smatch runs (5 iterations each, the
/// reference's setting) on exactly our triples.
fn python_matches(py: &str, pairs: &[(Triples, Triples)], runs: usize) -> Vec<Vec<usize>> {
    let mut script = String::from("import smatch, sys\nsmatch.iteration_num = 5\nres = []\n");
    for (t, g) in pairs {
        script.push_str(&format!(
            "i1, a1, r1 = {}\ni2, a2, r2 = {}\nrow = []\nfor _ in range({runs}):\n    smatch.match_triple_dict.clear()\n    row.append(smatch.get_best_match(i1, a1, r1, i2, a2, r2, 'a', 'b')[1])\nprint(' '.join(map(str, row)))\n",
            py_triples(t, "a"),
            py_triples(g, "b")
        ));
    }
    let mut child = Command::new(py)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write script");
    let out = child.wait_with_output().expect("python output");
    assert!(out.status.success(), "python smatch failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|n| n.parse().expect("count"))
                .collect()
        })
        .collect()
}

#[test]
fn documentation_examples_agree_with_python_smatch() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let gold = reference_gold("almond-crescent-cookies");
    let gold_t = triples(&gold);
    let files = solution_files(&examples_dir());
    assert_eq!(files.len(), 10);
    let mut rows = Vec::new();
    let mut pairs = Vec::new();
    for f in &files {
        let name = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        let (_, ps) = read_solutions(f)
            .into_iter()
            .find(|(id, _)| id == "almond-crescent-cookies")
            .expect("almond-crescent-cookies in example");
        let test_t = triples(&ps);
        let start = Instant::now();
        let hill = smatch_triples(&test_t, &gold_t, &SmatchConfig::default());
        let hill_time = start.elapsed();
        let start = Instant::now();
        let ex = smatch_triples(&test_t, &gold_t, &exact());
        let ex_time = start.elapsed();
        assert!(
            ex.matched >= hill.matched,
            "{name}: exact below hill-climbing"
        );
        assert_eq!(ex.hill_climbing_fell_short, ex.matched > hill.matched);
        rows.push((name, hill, ex, hill_time, ex_time));
        pairs.push((test_t, gold_t.clone()));
    }
    let py = python_with_smatch();
    let runs = 1;
    let py_counts = python_matches(&py, &pairs, runs);
    assert_eq!(py_counts.len(), rows.len());
    for ((name, hill, ex, ht, et), counts) in rows.iter().zip(&py_counts) {
        let best = counts.iter().copied().max().unwrap_or(0);
        let f = |m: usize| {
            let (p, r) = (
                m as f64 / hill.test_triples as f64,
                m as f64 / hill.gold_triples as f64,
            );
            if p + r == 0.0 {
                0.0
            } else {
                2.0 * p * r / (p + r)
            }
        };
        let py_fs: Vec<String> = counts.iter().map(|&m| format_score(f(m))).collect();
        println!(
            "{name:28} ours {} ({}/{}/{}) exact {} ({:?}) python runs {:?} | {:?} {:?}",
            format_score(hill.f_score),
            hill.matched,
            hill.test_triples,
            hill.gold_triples,
            format_score(ex.f_score),
            ex.optimum,
            py_fs,
            ht,
            et
        );
        // Python's climb is seeded from the clock, as the reference's is, so the local optimum
        // it reaches varies from run to run: now and then it finds a better one than every seed
        // of ours (missing-minor-implicit: 272 triples, where the documented run and our default
        // find 264). So python is held only to what every run must satisfy: no run matches more
        // triples than either side has, or than the proven optimum.
        assert!(
            best <= hill.test_triples.min(hill.gold_triples),
            "{name}: python matched {best} triples"
        );
        // Exact mode's bound holds for every mapping, proven or not.
        let bound = ex.bound.expect("exact mode reports its bound");
        assert!(bound >= best, "{name}: python beat the exact bound");
    }
}

#[test]
fn hill_climbing_is_reproducible() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let gold = reference_gold("almond-crescent-cookies");
    let test = read_solutions(&examples_dir().join("partial-failure.solution"))
        .remove(0)
        .1;
    let cfg = SmatchConfig {
        seed: 42,
        ..SmatchConfig::default()
    };
    let a = smatch(&test, &gold, &cfg);
    for _ in 0..3 {
        assert_eq!(smatch(&test, &gold, &cfg), a);
    }
    let ex = SmatchConfig {
        exact: true,
        exact_budget: 50,
        ..cfg
    };
    let e = smatch(&test, &gold, &ex);
    assert_eq!(smatch(&test, &gold, &ex), e);
}

// ---- properties on small random networks ----

fn small_network() -> impl Strategy<Value = Vec<Predicate>> {
    let arg = prop_oneof![
        (0u8..5).prop_map(|v| Arg::Var(format!("v{v}").into())),
        prop::sample::select(vec!["butter", "g", "bowl"]).prop_map(|s| Arg::Sym(s.into())),
        (1i64..4).prop_map(|n| Arg::Num(Number::int(n))),
    ];
    let p = (
        prop::sample::select(vec!["fetch", "mix", "bake"]),
        prop::collection::vec(arg, 1..4),
    )
        .prop_map(|(n, args)| pred(n, args));
    prop::collection::vec(p, 1..5)
}

fn rename(ps: &[Predicate]) -> Vec<Predicate> {
    ps.iter()
        .map(|p| {
            let args = p
                .args
                .iter()
                .map(|a| match a {
                    Arg::Var(v) => Arg::Var(format!("renamed-{v}").into()),
                    other => other.clone(),
                })
                .collect();
            pred(&p.name, args)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn exact_score_is_invariant(test in small_network(), gold in small_network(), rot in 0usize..5) {
        let base = smatch(&test, &gold, &exact());
        prop_assert!(base.proven);
        let renamed = smatch(&rename(&test), &gold, &exact());
        prop_assert!(renamed.proven);
        prop_assert_eq!(renamed.optimum, base.optimum);
        let mut permuted = test.clone();
        permuted.reverse();
        let k = rot % permuted.len();
        permuted.rotate_left(k);
        let permuted = smatch(&permuted, &gold, &exact());
        prop_assert_eq!(permuted.optimum, base.optimum);
        let hill = smatch(&test, &gold, &SmatchConfig::default());
        prop_assert!(base.matched >= hill.matched);
        let me = smatch(&test, &test, &exact());
        prop_assert_eq!(format_score(me.f_score), "1.00");
    }
}

// ---- the reference's own smatch.py on edited gold networks ----

/// A gold file with one described edit applied to its lines (1-based, header included):
/// `drop:L`, `swap:A:B`, `dup:L` (a copy after the line), `tok:L:I:NEW` (token I of the
/// predicate, 0 being its name, replaced).
fn edited(text: &str, edit: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let parts: Vec<&str> = edit.split(':').collect();
    let line = |k: usize| -> usize { parts[k].parse::<usize>().expect("line number") - 1 };
    match parts[0] {
        "drop" => {
            lines.remove(line(1));
        }
        "swap" => lines.swap(line(1), line(2)),
        "dup" => {
            let l = lines[line(1)].clone();
            lines.insert(line(1) + 1, l);
        }
        "tok" => {
            let l = line(1);
            let body = lines[l].trim();
            let mut toks: Vec<&str> = body[1..body.len() - 1].split(' ').collect();
            toks[parts[2].parse::<usize>().expect("token index")] = parts[3];
            lines[l] = format!("({})", toks.join(" "));
        }
        other => panic!("unknown edit {other}"),
    }
    lines.join("\n") + "\n"
}

/// `recipe/edit`: the 2024 gold network of the recipe with the edit applied, and the gold.
fn edited_pair(pair: &str) -> (Vec<Predicate>, Vec<Predicate>) {
    let (recipe, edit) = pair.split_once('/').expect("recipe/edit");
    let text = std::fs::read_to_string(gold_dir().join(format!("{recipe}.solution")))
        .unwrap_or_else(|e| panic!("{recipe}: {e}"));
    let parse = |t: &str| {
        let mut recipes = cookingbot::language::parse::parse(t).file.recipes;
        assert_eq!(recipes.len(), 1, "{pair}");
        recipes.remove(0).predicates
    };
    (parse(&edited(&text, edit)), parse(&text))
}

/// One row of `tests/data/differential/smatch-2024.tsv`: what the reference's smatch.py
/// (`../shared/oracle/smatch_ref.py`, 5 iterations under Python's `random.seed(1000 + k)`)
/// matched on an edited gold network against its gold network.
struct OracleRow {
    pair: String,
    best: String,
    worst: String,
    per_seed: Vec<usize>,
    test_triples: usize,
    gold_triples: usize,
}

fn oracle_rows() -> Vec<OracleRow> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/differential/smatch-2024.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let n = |s: &str| s.parse::<usize>().expect("count");
            OracleRow {
                pair: c[0].to_string(),
                best: c[1].to_string(),
                worst: c[2].to_string(),
                per_seed: c[3].split(',').map(n).collect(),
                test_triples: n(c[4]),
                gold_triples: n(c[5]),
            }
        })
        .collect()
}

/// The default Smatch prints the reference's value wherever every seed of smatch.py printed
/// the same, and replays smatch.py exactly under each of the oracle's seeds.
#[test]
fn default_prints_what_the_references_smatch_prints() {
    common::require_data!();
    let rows = oracle_rows();
    let (mut stable, mut stable_equal, mut failures) = (0, 0, Vec::new());
    for row in &rows {
        let (test, gold) = edited_pair(&row.pair);
        let (t, g) = (triples(&test), triples(&gold));
        assert_eq!(
            (t.len(), g.len()),
            (row.test_triples, row.gold_triples),
            "{}",
            row.pair
        );
        for (k, &m) in row.per_seed.iter().enumerate() {
            let cfg = SmatchConfig {
                seed: k as u64,
                runs: 1,
                ..SmatchConfig::default()
            };
            let r = smatch_triples(&t, &g, &cfg);
            if r.reference_climb != m {
                failures.push(format!(
                    "{} seed {k}: {} vs {m}",
                    row.pair, r.reference_climb
                ));
            }
        }
        // The default replays seeds 0, 1, 2 and keeps the first run printing the majority value.
        let default = smatch_triples(&t, &g, &SmatchConfig::default());
        let f = |m: usize| format_score(2.0 * m as f64 / (t.len() + g.len()) as f64);
        let votes = |m: usize| row.per_seed.iter().filter(|&&n| f(n) == f(m)).count();
        let majority = row
            .per_seed
            .iter()
            .copied()
            .reduce(|a, b| if votes(b) > votes(a) { b } else { a });
        if Some(default.reference_climb) != majority {
            failures.push(format!(
                "{}: default climbed to {}",
                row.pair, default.reference_climb
            ));
        }
        let printed = format_score(default.f_score);
        if row.best == row.worst {
            stable += 1;
            stable_equal += (printed == row.best) as usize;
        }
        let v: f64 = printed.parse().expect("score");
        let (lo, hi): (f64, f64) = (
            row.worst.parse().expect("worst"),
            row.best.parse().expect("best"),
        );
        if v < lo - 1e-9 || v > hi + 0.01 + 1e-9 {
            failures.push(format!(
                "{}: {printed} outside [{lo}, {hi} + 0.01]",
                row.pair
            ));
        }
    }
    println!("{stable_equal} of {stable} stable pairs print the reference's value");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        stable >= 200,
        "{stable} pairs where the reference's seeds agree"
    );
    assert!(
        stable_equal * 100 >= stable * 99,
        "{stable_equal} of {stable}"
    );
}

/// The example: with one line dropped, smatch.py's climb stops at 332 matched triples
/// on every seed, though aligning the 347 remaining triples with their gold ones matches all.
/// The default prints what the reference prints; exact mode prints the optimum and keeps the
/// reference's climb beside it.
#[test]
fn default_keeps_the_references_local_optimum_and_exact_mode_the_true_one() {
    common::require_data!();
    let (test, gold) = edited_pair("almond-crescent-cookies-5/drop:7");
    for seed in 0..3 {
        let r = smatch(
            &test,
            &gold,
            &SmatchConfig {
                seed,
                runs: 1,
                ..SmatchConfig::default()
            },
        );
        assert_eq!((r.matched, r.test_triples, r.gold_triples), (332, 347, 354));
        assert_eq!(format_score(r.f_score), "0.95");
        assert_eq!(r.optimum, None);
    }
    let e = smatch(&test, &gold, &exact());
    assert_eq!(
        (e.reference_climb, e.matched, e.optimum, e.proven),
        (332, 347, Some(347), true)
    );
    assert!(e.hill_climbing_fell_short);
    assert_eq!(format_score(e.f_score), "0.99");
}

/// The documentation's Smatch values of its ten examples (against the embedded gold network),
/// printed by the default. wrong-ingredient is documented as 0.99, but the reference prints 1.00
/// on every run (284 of 285 triples, F = 0.9965); partial-failure's documented 0.84 is what most
/// of the reference's runs print (others give 0.85–0.89).
#[test]
fn default_prints_the_documented_values() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let gold = reference_gold("almond-crescent-cookies");
    let expected = [
        ("additional-side-dish", "0.90"),
        ("extended-main-dish", "0.92"),
        ("missing-minor-implicit", "0.94"),
        ("missing-tool-reuse", "0.93"),
        ("no-cooking", "0.12"),
        ("partial-failure", "0.84"),
        ("perfect-permuted-sequence", "1.00"),
        ("perfect-switched-operations", "0.99"),
        ("perfect", "1.00"),
        ("wrong-ingredient", "1.00"),
    ];
    let files = solution_files(&examples_dir());
    let printed: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let ps = read_solutions(f).remove(0).1;
            let name = f
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_string();
            (
                name,
                format_score(smatch(&ps, &gold, &SmatchConfig::default()).f_score),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    assert_eq!(printed, expected);
}

/// The campaign's single-recipe networks (`cookingbot::mistakes`, regenerated from their ids)
/// against what the reference's smatch.py printed for them (`smatch_ref.py`, 3 seeds × 4
/// restarts; `tests/data/differential/smatch-campaign-2024.tsv`): where its best and worst
/// agree the default prints that value; elsewhere a value within [worst, best + 0.01].
#[test]
fn campaign_networks_print_what_the_references_smatch_prints() {
    use cookingbot::benchmark::{Benchmark, locate};
    use cookingbot::data::catalogue::Catalogue;
    use cookingbot::mistakes::Golds;
    common::require_data!();
    let source = locate(Profile::R2024, None).expect("benchmark data");
    let benchmark = Benchmark::load(Profile::R2024, &source).expect("benchmark loads");
    let golds = Golds::new(
        benchmark
            .recipes
            .iter()
            .map(|r| (r.id.as_str(), &r.network)),
        Catalogue::builtin(Profile::R2024),
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/differential/smatch-campaign-2024.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut failures = Vec::new();
    let mut rows = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let mistake = golds
            .mistake(c[0])
            .unwrap_or_else(|| panic!("{}: not generated", c[0]));
        let parse = |t: &str| cookingbot::language::parse::parse(t).file.recipes;
        let test = parse(&mistake.text);
        let recipe = c[0].split('/').next().expect("recipe id");
        let gold = benchmark
            .recipes
            .iter()
            .find(|r| r.id == recipe)
            .expect("gold");
        let (t, g) = (
            triples(&test[0].predicates),
            triples(&gold.network.predicates),
        );
        assert_eq!(
            (t.len().to_string(), g.len().to_string()),
            (c[4].into(), c[5].into()),
            "{}",
            c[0]
        );
        let printed = format_score(smatch_triples(&t, &g, &SmatchConfig::default()).f_score);
        let (best, worst) = (c[1], c[2]);
        let within = |v: &str| {
            let v: f64 = v.parse().expect("score");
            worst.parse::<f64>().expect("worst") - 1e-9 <= v
                && v <= best.parse::<f64>().expect("best") + 0.01 + 1e-9
        };
        let ok = if best == worst {
            printed == best
        } else {
            within(&printed)
        };
        if !ok {
            failures.push(format!(
                "{}: we print {printed}, smatch.py {worst}..{best}",
                c[0]
            ));
        }
        rows += 1;
    }
    assert!(rows > 0, "no stored rows");
    assert!(
        failures.is_empty(),
        "{} of {rows}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The triples of a mixing chain of `n` actions, `flour` its first ingredient.
fn chain_triples(n: usize, flour: &str) -> Triples {
    let text = common::mixing_chain("afghan-biscuits", flour, n);
    let parsed = cookingbot::language::parse::parse(&text);
    triples(&parsed.file.recipes[0].predicates)
}

#[test]
fn the_replayed_search_stops_at_its_work_bound_and_says_so() {
    let test = chain_triples(60, "white-sugar");
    let gold = chain_triples(60, "all-purpose-flour");
    let full = smatch_triples(&test, &gold, &SmatchConfig::default());
    assert!(full.climb_complete);
    let bounded = SmatchConfig {
        climb_work: 10_000,
        ..SmatchConfig::default()
    };
    let cut = smatch_triples(&test, &gold, &bounded);
    assert!(!cut.climb_complete);
    assert!(
        cut.reference_climb < full.reference_climb,
        "{} {}",
        cut.reference_climb,
        full.reference_climb
    );
    // Exact mode starts from where the climb got, and reports its best alignment found.
    let exact = smatch_triples(
        &test,
        &gold,
        &SmatchConfig {
            exact: true,
            ..bounded
        },
    );
    assert!(!exact.climb_complete);
    assert_eq!(exact.optimum, Some(exact.matched));
    assert!(exact.matched >= cut.reference_climb);
    assert!(exact.bound.is_some_and(|b| b >= exact.matched));
}

#[test]
fn an_evaluation_past_the_work_bound_is_a_documented_refusal() {
    use cookingbot::benchmark::DataSource;
    use cookingbot::evaluate::Evaluator;
    use cookingbot::metrics::metric::{Metric, MetricSet};
    let mut evaluator = Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads");
    evaluator.smatch.climb_work = 1_000;
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-perfect.solution"),
    )
    .expect("the demo example");
    let smatch_only = MetricSet::from_words(&[Metric::SmatchScore.name()]);
    let refusal = evaluator
        .evaluate(&text, &smatch_only)
        .expect_err("refused");
    assert!(
        refusal.message.starts_with(
            "recipe demo-shortbread-rounds: Smatch's replay of the reference's search stopped at \
             its work bound (1000 gain-table cells;"
        ),
        "{}",
        refusal.message
    );
    assert!(refusal.message.ends_with(
        "so the value the reference prints is not known; --smatch-exact reports the best \
         alignment found instead, or leave smatch-score out of --metrics"
    ));
    // The same networks in exact mode print the best alignment found.
    evaluator.smatch.exact = true;
    let rows = evaluator.evaluate(&text, &smatch_only).expect("scored");
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter()
            .any(|r| r.smatch.as_ref().is_some_and(|s| !s.climb_complete))
    );
}
