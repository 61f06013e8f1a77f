//! Exact Smatch of every gold network of the 2024 benchmark against every other of its family
//! (salads with salads, baked goods with baked goods): the figures of docs/smatch.md.
//!
//! `cargo run --release --example smatch_families -- [BUDGET] [K/N]` with
//! `COOKINGBOT_BENCHMARK` set: one line per pair (test, gold, triples of each, optimum found,
//! bound, the replayed reference climb, seconds), then a summary on stderr. Pairs are unordered
//! (the optimum is symmetric); `K/N` runs only the pairs whose number is K modulo N, so that
//! N processes share the work; a third argument keeps only the pairs whose two names, joined
//! by a space, contain it.

use cookingbot::language::ast::Predicate;
use cookingbot::metrics::smatch::{SmatchConfig, smatch};
use std::path::PathBuf;
use std::time::Instant;

/// The benchmark's two families, by recipe name: salads (a salad, a slaw, or dill as in
/// cucumber-slices-with-dill) and baked goods (everything else).
fn is_salad(id: &str) -> bool {
    ["salad", "slaw", "dill"].iter().any(|k| id.contains(k))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let budget: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(200);
    let shard: (usize, usize) = args
        .get(1)
        .and_then(|s| {
            let (k, n) = s.split_once('/')?;
            Some((k.parse().ok()?, n.parse().ok()?))
        })
        .unwrap_or((0, 1));
    let only = args.get(2).cloned().unwrap_or_default();
    let Some(root) = std::env::var_os("COOKINGBOT_BENCHMARK") else {
        eprintln!("set COOKINGBOT_BENCHMARK to the benchmark's folder");
        std::process::exit(2);
    };
    let dir = PathBuf::from(root).join("data/gold-standard-solutions/meaning-only");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(d) => d.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            std::process::exit(2);
        }
    };
    files.sort();
    // Named by file: two files of the 2024 data carry the same recipe id.
    let gold: Vec<(String, Vec<Predicate>)> = files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).ok()?;
            let recipe = cookingbot::language::parse::parse(&text)
                .file
                .recipes
                .pop()?;
            Some((
                f.file_stem()?.to_string_lossy().into_owned(),
                recipe.predicates,
            ))
        })
        .collect();
    let cfg = SmatchConfig {
        exact: true,
        runs: 1,
        exact_budget: budget,
        ..SmatchConfig::default()
    };
    let (mut n, mut proven, mut times) = (0, 0, Vec::new());
    for (a, test) in &gold {
        for (b, reference) in &gold {
            if a >= b || is_salad(a) != is_salad(b) {
                continue;
            }
            n += 1;
            if n % shard.1 != shard.0 || !format!("{a} {b}").contains(&only) {
                continue;
            }
            let clock = Instant::now();
            let r = smatch(test, reference, &cfg);
            let seconds = clock.elapsed().as_secs_f64();
            times.push(seconds);
            proven += usize::from(r.proven);
            let show = |v: Option<usize>| v.map_or("-".to_string(), |v| v.to_string());
            println!(
                "{a}\t{b}\t{}\t{}\t{}\t{}\t{}\t{seconds:.3}",
                r.test_triples,
                r.gold_triples,
                show(r.optimum),
                show(r.bound),
                r.reference_climb
            );
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
    };
    eprintln!(
        "{} pairs, {proven} proven; seconds: total {:.1}, median {:.3}, p90 {:.3}, max {:.3}",
        times.len(),
        times.iter().sum::<f64>(),
        at(0.5).unwrap_or(0.0),
        at(0.9).unwrap_or(0.0),
        at(1.0).unwrap_or(0.0)
    );
}
