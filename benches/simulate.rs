//! Simulation throughput: executing the 30 gold networks of each profile, loading a profile's
//! model (ontology, catalogue, kitchen), and long generated chains of 1k, 10k and 100k actions
//! (the simulator's limit) to show the cost is linear in the network's length; networks of 8, 16
//! and 24 actions that can run in any order, to show the 2024 search's check of the other
//! orderings stays bounded; the longest chains of `fetch` and of `preheat-oven`, whose kitchen
//! states share what each action leaves unchanged; pairs of portionings heaping 20,000 portions
//! each on the counter-top, whose list later kitchen states share; the kitchen's searches for
//! the first unused object of a class and for an object by its persistent id.

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::language::parse::parse;
use cookingbot::simulation::{MAX_ACTIONS, Model, kitchen};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    for profile in [Profile::R2024, Profile::R2023] {
        let model = Model::builtin(profile);
        let benchmark = support::benchmark(profile);
        let mut group = c.benchmark_group(format!("simulate/{profile}"));
        group.throughput(Throughput::Elements(benchmark.recipes.len() as u64));
        group.bench_function("gold-30", |b| {
            b.iter(|| {
                benchmark
                    .recipes
                    .iter()
                    .map(|g| {
                        model
                            .execute(black_box(&g.network))
                            .expect("gold runs")
                            .steps
                            .len()
                    })
                    .sum::<usize>()
            })
        });
        group.throughput(Throughput::Elements(1));
        group.bench_function("load-model", |b| {
            b.iter(|| Model::builtin(black_box(profile)))
        });
        group.finish();
    }
    let model = Model::builtin(Profile::R2024);
    let mut group = c.benchmark_group("simulate/chain");
    group.sample_size(10);
    for n in [1_000, 10_000, MAX_ACTIONS] {
        let parsed = parse(&support::chain(n));
        let recipe = &parsed.file.recipes[0];
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("actions-{n}"), |b| {
            b.iter(|| model.execute(black_box(recipe)).expect("runs").steps.len())
        });
    }
    group.finish();
    // The longest chains of one action each: fetching whisks (failed objects once the kitchen
    // has none left) and preheating ovens (a changed oven in every kitchen state).
    support::bench_kitchen_chains(c, "simulate", |b, recipe| {
        b.iter(|| model.execute(black_box(recipe)).expect("runs").steps.len())
    });
    // Pairs of a butter fetch and its 20,000 portions heaped on the counter-top: every later
    // kitchen state changes the counter-top, and shares its list's chunks rather than copying it.
    let mut group = c.benchmark_group("simulate/portion-heap");
    group.sample_size(10);
    for pairs in [5, 10, 20, 40] {
        let text = support::kitchen_chain(2 * pairs + 1, |i| match i % 2 {
            1 => format!(
                "(fetch-and-proportion ?dough{i} ?ks{i} ?ks{} ?bowl{i} butter 1000000 g)",
                i - 1
            ),
            _ => format!(
                "(portion-and-arrange ?portions{i} ?ks{i} ?ks{} ?dough{} 50 g ?pattern{i} ?counter{i})",
                i - 1,
                i - 1
            ),
        });
        let parsed = parse(&text);
        let recipe = &parsed.file.recipes[0];
        group.throughput(Throughput::Elements(pairs as u64));
        group.bench_function(format!("pairs-{pairs}"), |b| {
            b.iter(|| model.execute(black_box(recipe)).expect("runs").steps.len())
        });
    }
    group.finish();
    // The kitchen's searches on the full 2024 kitchen, which every `fetch` and every default
    // tool runs: the first unused object of a class (a tool found in a drawer; a bowl, passed
    // over in every ingredient's bowl first, found in a cupboard after them) and an object by
    // its persistent id (one no object has: every container walked).
    let mut group = c.benchmark_group("simulate/kitchen-search");
    let kitchen = &model.kitchen;
    for class in ["whisk", "medium-bowl", "baking-tray"] {
        let class = model.onto.known(class);
        let name = model.onto.class_name(class);
        group.bench_function(format!("first-unused-{name}"), |b| {
            b.iter(|| kitchen::find_unused(kitchen, &model, black_box(class), &[]))
        });
    }
    group.bench_function("by-persistent-id-absent", |b| {
        b.iter(|| kitchen::find_pid(kitchen, &model, &[], black_box(u32::MAX)))
    });
    group.finish();
    let mut group = c.benchmark_group("simulate/independent");
    group.sample_size(10);
    for n in [8, 16, 24] {
        let parsed = parse(&support::independent(n));
        let recipe = &parsed.file.recipes[0];
        group.bench_function(format!("actions-{n}"), |b| {
            b.iter(|| model.execute(black_box(recipe)).expect("runs").steps.len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
