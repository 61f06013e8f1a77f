//! Simulation throughput: executing the 30 gold networks of each profile, and loading a
//! profile's model (ontology, catalogue, kitchen).

mod support;

use cookingbot::profile::Profile;
use cookingbot::simulation::Model;
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
