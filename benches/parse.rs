//! Parse + dependency graph throughput: the 30 gold files, and generated files of 10k, 50k and
//! 100k actions (a kitchen-state chain, as real networks are) to show the cost is linear.

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::data::catalogue::Catalogue;
use cookingbot::language::dependencies::Network;
use cookingbot::language::parse::parse;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

fn gold_texts() -> Vec<String> {
    let dir = std::env::var_os("COOKINGBOT_BENCHMARK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmark"))
        .join("data/gold-standard-solutions/meaning-only");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (set COOKINGBOT_BENCHMARK)", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect()
}

fn parse_and_graph(text: &str, catalogue: &Catalogue) -> usize {
    let parsed = parse(text);
    parsed
        .file
        .recipes
        .iter()
        .map(|r| {
            Network::build(r, catalogue)
                .topological_order()
                .map_or(0, |o| o.len())
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let catalogue = Catalogue::builtin(Profile::R2024);
    let gold = gold_texts();
    let bytes: usize = gold.iter().map(String::len).sum();
    let mut group = c.benchmark_group("parse+dag");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("gold-30", |b| {
        b.iter(|| {
            gold.iter()
                .map(|t| parse_and_graph(black_box(t), &catalogue))
                .sum::<usize>()
        })
    });
    group.sample_size(10);
    for n in [10_000, 50_000, 100_000] {
        let text = support::chain(n);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("generated-{n}"), |b| {
            b.iter(|| parse_and_graph(black_box(&text), &catalogue))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
