//! The cost of a primitive of one's own per call: `examples/custom_primitive.rs`'s Rust `grill`
//! run in chains of 0 and 1,000 actions (each grilling what the one before grilled), through
//! the simulator as an evaluation runs it. `scripts/python_primitive_cost.py` times the same
//! chains with the same `grill` written in Python; docs/extending.md compares the two.

#[path = "../examples/custom_primitive.rs"]
mod custom_primitive;

use cookingbot::language::parse::parse;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// The example's recipe with `grills` grill actions in a chain.
fn chain(grills: usize) -> String {
    let mut text = String::from(
        "#grilled-halloumi\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?g0 ?ks0 ?kitchen ?bowl halloumi 1 piece)\n",
    );
    for i in 1..=grills {
        let j = i - 1;
        text.push_str(&format!("(grill ?g{i} ?ks{i} ?ks{j} ?g{j} 4 minute)\n"));
    }
    text
}

fn bench(c: &mut Criterion) {
    let model = custom_primitive::model().expect("the example's model");
    let mut group = c.benchmark_group("custom-primitive/rust-grill");
    group.sample_size(20);
    for grills in [0, 1_000] {
        let parsed = parse(&chain(grills));
        let recipe = &parsed.file.recipes[0];
        group.throughput(Throughput::Elements(grills.max(1) as u64));
        group.bench_function(format!("chain-{grills}"), |b| {
            b.iter(|| model.execute(black_box(recipe)).expect("runs").steps.len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
