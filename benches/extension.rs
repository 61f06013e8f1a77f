//! The cost of loading a benchmark's `ontology.json` (docs/extending.md): 2,000, 4,000 and
//! 10,000 classes (the bound) in `tests/common`'s tree of multiple inheritance, read as every
//! command reads it (JSON with each key once, then each class's precedence list merged from its
//! parents'), and 100,000 classes, refused by the bound on classes. Loading was cubic in the
//! classes (2,000 took 11 s, 4,000 92 s); it is now n log n.

use cookingbot::base::profile::Profile;
use cookingbot::simulation::benchmark_world::{DataText, World};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "../tests/common/ontology_tree.rs"]
mod ontology_tree;

/// The world of an `ontology.json` of `n` classes ([`ontology_tree`]).
fn ontology(n: usize) -> World {
    World {
        ontology: Some(DataText {
            path: "ontology.json".into(),
            text: ontology_tree::tree_ontology(n).to_string(),
        }),
        kitchen: None,
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("extension/ontology");
    group.sample_size(10);
    for n in [2_000, 4_000, 10_000, 100_000] {
        let world = ontology(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("classes-{n}"), |b| {
            b.iter(|| black_box(&world).ontology(Profile::R2024).map(|o| o.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
