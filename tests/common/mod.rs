//! Test support: locating the shared benchmark data and reading the reference's TSVs.
#![allow(dead_code)]

use cookingbot::language::ast::{Arg, Predicate, Recipe, SolutionFile, Span};
use cookingbot::number::Number;
use std::path::PathBuf;

/// The official benchmark data (profile 2024): `COOKINGBOT_BENCHMARK` or `../shared/benchmark`.
pub fn benchmark_dir() -> PathBuf {
    let dir = std::env::var_os("COOKINGBOT_BENCHMARK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmark"));
    assert!(
        dir.join("data").is_dir(),
        "benchmark data not found at {} (set COOKINGBOT_BENCHMARK)",
        dir.display()
    );
    dir
}

/// `../shared`, the parent of the benchmark folder.
pub fn shared_dir() -> PathBuf {
    benchmark_dir().join("..")
}

/// One row of a reference TSV.
#[derive(Debug, Clone)]
pub struct RefRow {
    pub solution: PathBuf,
    pub recipe: String,
    pub gcs: String,
    pub dish: String,
    pub time: String,
    pub error: String,
}

pub fn reference_rows(profile: &str, name: &str) -> Vec<RefRow> {
    let dir = shared_dir().join("reference").join(profile);
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let get = |i: usize| f.get(i).copied().unwrap_or("").to_string();
            RefRow {
                solution: dir.join(get(0)),
                recipe: get(1),
                gcs: get(2),
                dish: get(3),
                time: get(4),
                error: get(5),
            }
        })
        .collect()
}

/// A minimal reader for well-formed `.solution` files, for tests that must not depend on the
/// full parser: `#id` headers, `;` comments, one `(name args...)` per line.
pub fn read_solution(text: &str) -> SolutionFile {
    let mut file = SolutionFile::default();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(h) = line.strip_prefix('#') {
            let id = h.split_whitespace().next().unwrap_or("").to_lowercase();
            file.recipes.push(Recipe {
                id,
                id_span: Span::default(),
                predicates: Vec::new(),
            });
        } else if line.starts_with('(') {
            let inner = line.trim_start_matches('(');
            let inner = &inner[..inner.find(')').unwrap_or(inner.len())];
            let mut toks = inner.split_whitespace();
            let name = toks.next().unwrap_or("").to_lowercase();
            let args: Vec<Arg> = toks.map(token).collect();
            let n = args.len();
            file.recipes
                .last_mut()
                .expect("header first")
                .predicates
                .push(Predicate {
                    name,
                    args,
                    span: Span::default(),
                    name_span: Span::default(),
                    arg_spans: vec![Span::default(); n],
                });
        }
    }
    file
}

fn token(t: &str) -> Arg {
    let t = t.to_lowercase();
    if let Some(v) = t.strip_prefix('?') {
        return Arg::Var(v.to_string());
    }
    if let Some((n, d)) = t.split_once('/')
        && let (Ok(n), Ok(d)) = (n.parse::<i64>(), d.parse::<i64>())
    {
        return Arg::Num(Number::ratio(n, d).expect("non-zero denominator"));
    }
    if let Ok(i) = t.parse::<i64>() {
        return Arg::Num(Number::int(i));
    }
    if t.contains('.')
        && let Ok(f) = t.parse::<f32>()
    {
        return Arg::Num(Number::float(f));
    }
    Arg::Sym(t)
}
