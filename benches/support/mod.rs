//! Shared by the benches: where the benchmark data is, and the gold networks with their runs.
#![allow(dead_code)]

use cookingbot::base::profile::Profile;
use cookingbot::benchmark::{Benchmark, GoldRecipe};
use cookingbot::language::ast::Recipe;
use cookingbot::language::parse::parse;
use cookingbot::metrics::{GoldRun, gold_run};
use cookingbot::simulation::{MAX_ACTIONS, Model};
use criterion::measurement::Measurement;
use criterion::{Bencher, Criterion, Throughput};
use std::path::PathBuf;

/// The data folder of a profile: `COOKINGBOT_BENCHMARK` (2024, default `../shared/benchmark`)
/// and `COOKINGBOT_BENCHMARK_2023` (default `benchmark-2023` beside it).
pub fn data_dir(profile: Profile) -> PathBuf {
    let data_2024 = std::env::var_os("COOKINGBOT_BENCHMARK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmark"));
    match profile {
        Profile::R2024 => data_2024,
        Profile::R2023 => std::env::var_os("COOKINGBOT_BENCHMARK_2023")
            .map(PathBuf::from)
            .unwrap_or_else(|| data_2024.join("../benchmark-2023")),
    }
}

pub fn benchmark(profile: Profile) -> Benchmark {
    let dir = data_dir(profile);
    Benchmark::load(profile, &dir.into())
        .unwrap_or_else(|e| panic!("{e} (set COOKINGBOT_BENCHMARK)"))
}

/// The texts of the 30 gold files, in manifest order.
pub fn gold_texts(benchmark: &Benchmark) -> Vec<String> {
    benchmark
        .recipes
        .iter()
        .map(|g| std::fs::read_to_string(&g.file).expect("readable gold file"))
        .collect()
}

/// Every gold network with its gold run.
pub fn gold_runs(model: &Model, benchmark: &Benchmark) -> Vec<(GoldRecipe, GoldRun)> {
    benchmark
        .recipes
        .iter()
        .map(|g| {
            let run = gold_run(model, &g.network, &g.primary_output_var).expect("gold runs");
            (g.clone(), run)
        })
        .collect()
}

/// One recipe of `actions` actions: `get-kitchen`, then `fetch-and-proportion`s chained through
/// their kitchen states, as real networks are. Once the kitchen runs out of bowls every further
/// action fails (binding failed objects), which is the expensive case for the simulator.
pub fn chain(actions: usize) -> String {
    let mut s = String::from("#afghan-biscuits\n(get-kitchen ?ks-0)\n");
    for i in 0..actions.saturating_sub(1) {
        s.push_str(&format!(
            "(fetch-and-proportion ?butter-{i} ?ks-{} ?ks-{i} ?container-{i} butter 1/2 g)\n",
            i + 1
        ));
    }
    s
}

/// One recipe of `actions` actions: `get-kitchen`, then `action(i)` for the others, the `i`th
/// taking kitchen state `?ks{i-1}` and making `?ks{i}`: the long chains whose memory per action
/// the sharing of kitchen states bounds.
pub fn kitchen_chain(actions: usize, action: impl Fn(usize) -> String) -> String {
    let mut s = String::from("#afghan-biscuits\n(get-kitchen ?ks0)\n");
    for i in 1..actions {
        s.push_str(&action(i));
        s.push('\n');
    }
    s
}

/// The longest chains of one action each: fetching whisks (failed objects once the kitchen
/// has none left) and preheating ovens (a changed oven in every kitchen state), each of
/// `MAX_ACTIONS` actions, benched in the group `{family}/kitchen-chain` (ten samples, per
/// action) by `run`, given the bencher and the chain's recipe: the memory and simulate benches
/// measure the same chains.
pub fn bench_kitchen_chains<M: Measurement>(
    c: &mut Criterion<M>,
    family: &str,
    mut run: impl FnMut(&mut Bencher<'_, M>, &Recipe),
) {
    let actions = MAX_ACTIONS;
    let chains = [
        (
            "fetch",
            kitchen_chain(actions, |i| {
                format!("(fetch ?thing{i} ?ks{i} ?ks{} whisk 1)", i - 1)
            }),
        ),
        (
            "preheat-oven",
            kitchen_chain(actions, |i| {
                format!(
                    "(preheat-oven ?hot{i} ?ks{i} ?ks{} ?oven{i} 180 degrees-celsius)",
                    i - 1
                )
            }),
        ),
    ];
    let mut group = c.benchmark_group(format!("{family}/kitchen-chain"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(actions as u64));
    for (name, text) in chains {
        let parsed = parse(&text);
        let recipe = &parsed.file.recipes[0];
        group.bench_function(format!("{name}-{actions}"), |b| run(b, recipe));
    }
    group.finish();
}

/// One recipe of `actions` `fetch-and-proportion`s that all start from the first kitchen state
/// (the stale-state mistake at its worst): every order runs, so the 2024 search, which goes on
/// after the execution looking for an error in another ordering, meets 2^actions sets of
/// executed actions unless its budget stops it.
pub fn independent(actions: usize) -> String {
    let mut s = String::from("#afghan-biscuits\n(get-kitchen ?ks-0)\n");
    for i in 0..actions {
        s.push_str(&format!(
            "(fetch-and-proportion ?butter-{i} ?ks-{} ?ks-0 ?container-{i} butter 1/2 g)\n",
            i + 1
        ));
    }
    s
}
