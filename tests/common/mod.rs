//! Test support: locating the shared benchmark data and reading the reference's TSVs.
#![allow(dead_code)]

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
