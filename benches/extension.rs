//! The cost of loading a benchmark's `ontology.json` (docs/extending.md): 2,000, 4,000 and
//! 10,000 classes (the bound) in a tree of multiple inheritance, read as every command reads
//! it (JSON with each key once, then each class's precedence list merged from its parents'),
//! and 100,000 classes, refused by the bound on classes. Loading was cubic in the classes
//! (2,000 took 11 s, 4,000 over a minute); it is now n log n.

use cookingbot::base::profile::Profile;
use cookingbot::simulation::benchmark_world::{DataText, World};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// `n` classes under `feta-cheese`: class `c{i}` the child of `c{(i-1)/2}` and, for every other
/// class, of `c{(i-1)/4}` too.
fn ontology(n: usize) -> World {
    let classes: serde_json::Map<String, serde_json::Value> = (0..n)
        .map(|i| {
            let parents = match i {
                0 => vec!["feta-cheese".to_owned()],
                _ if i > 3 && i % 2 == 0 && (i - 1) / 4 != (i - 1) / 2 => {
                    vec![format!("c{}", (i - 1) / 2), format!("c{}", (i - 1) / 4)]
                }
                _ => vec![format!("c{}", (i - 1) / 2)],
            };
            (format!("c{i}"), serde_json::json!({ "is_a": parents }))
        })
        .collect();
    World {
        ontology: Some(DataText {
            path: "ontology.json".into(),
            text: serde_json::json!({ "classes": classes }).to_string(),
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
