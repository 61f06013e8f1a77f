//! Smatch timings: every gold network against itself and without one action (the replay of
//! smatch.py's search), the largest pair, and generated chains
//! of 1k, 10k and 100k actions (the limit) against a gold network, to show the cost is linear
//! in the predicted network's size.

use cookingbot::language::ast::Predicate;
use cookingbot::metrics::smatch::{MAX_ACTIONS, SmatchConfig, smatch};
use cookingbot::profile::Profile;
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};

mod support;

/// The recipes of a solution file, read with the project's parser.
fn read(path: &Path) -> Vec<(String, Vec<Predicate>)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    cookingbot::language::parse::parse(&text)
        .file
        .recipes
        .into_iter()
        .map(|r| (r.id, r.predicates))
        .collect()
}

fn bench(c: &mut Criterion) {
    let data = support::data_dir(Profile::R2024);
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(data.join("data/gold-standard-solutions/meaning-only"))
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
    files.sort();
    let gold: Vec<(String, Vec<Predicate>)> = files.iter().flat_map(|f| read(f)).collect();
    let cfg = SmatchConfig::default();
    c.bench_function("smatch/30 gold networks against themselves", |b| {
        b.iter(|| {
            for (_, ps) in &gold {
                black_box(smatch(ps, ps, &cfg));
            }
        })
    });
    // The replay of smatch.py's search where it has work to do: every gold network without
    // its middle action against the gold network.
    let dropped: Vec<(Vec<Predicate>, &Vec<Predicate>)> = gold
        .iter()
        .map(|(_, ps)| {
            let mut test = ps.clone();
            test.remove(ps.len() / 2);
            (test, ps)
        })
        .collect();
    c.bench_function("smatch/30 gold networks without their middle action", |b| {
        b.iter(|| {
            for (test, ps) in &dropped {
                black_box(smatch(test, ps, &cfg));
            }
        })
    });
    let reference = read(&data.join("../spec/reference-gold-networks.solution"));
    let find = |list: &[(String, Vec<Predicate>)], recipe: &str| {
        list.iter()
            .find(|(id, _)| id == recipe)
            .map(|(_, p)| p.clone())
            .unwrap_or_default()
    };
    let croutons = "croutons-vinegar-salad";
    let (file_net, embedded) = (find(&gold, croutons), find(&reference, croutons));
    c.bench_function("smatch/croutons-vinegar-salad file vs embedded gold", |b| {
        b.iter(|| black_box(smatch(&file_net, &embedded, &cfg)))
    });
    let exact = SmatchConfig {
        exact: true,
        exact_budget: 20_000,
        ..SmatchConfig::default()
    };
    let mut group = c.benchmark_group("smatch-exact");
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("croutons-vinegar-salad, 20k-node budget", |b| {
        b.iter(|| black_box(smatch(&file_net, &embedded, &exact)))
    });
    group.finish();

    let afghan = find(&gold, "afghan-biscuits");
    let mut group = c.benchmark_group("smatch/chain against afghan-biscuits");
    group.sampling_mode(SamplingMode::Flat);
    for n in [1_000, 10_000, MAX_ACTIONS] {
        let chain = cookingbot::language::parse::parse(&support::chain(n))
            .file
            .recipes[0]
            .predicates
            .clone();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("actions-{n}"), |b| {
            b.iter(|| black_box(smatch(&chain, &afghan, &cfg)).matched)
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
