//! The cook's guide: its schedule built from runs already made (the 30 gold networks of 2024,
//! and networks of 2,000 actions: a chain of fetches, and 2,000 timers running at once), and
//! end to end from the text (parse, validate, simulate, schedule).

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::language::parse::parse;
use cookingbot::service::guide::{guide_text, schedule};
use cookingbot::simulation::Model;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// `get-kitchen`, a bowl of butter, then `n` actions bringing it to room temperature, all
/// running at once (the kitchen waits for none of them).
fn timers(n: usize) -> String {
    let mut text = String::from(
        "#timers\n(get-kitchen ?ks-0)\n(fetch-and-proportion ?butter ?ks-1 ?ks-0 ?bowl butter 100 g)\n",
    );
    for i in 1..=n {
        text.push_str(&format!(
            "(bring-to-temperature ?soft-{i} ?ks-{} ?ks-{i} ?butter 18 degrees-celsius)\n",
            i + 1
        ));
    }
    text
}

fn guide(c: &mut Criterion) {
    let profile = Profile::R2024;
    let model = Model::builtin(profile);
    let benchmark = support::benchmark(profile);
    let texts = support::gold_texts(&benchmark);
    let runs: Vec<_> = support::gold_runs(&model, &benchmark)
        .into_iter()
        .zip(&texts)
        .map(|((_, run), text)| (run, text))
        .collect();
    let mut group = c.benchmark_group(format!("guide/{profile}/gold-30"));
    group.throughput(Throughput::Elements(runs.len() as u64));
    group.bench_function("schedule", |b| {
        b.iter(|| {
            runs.iter()
                .map(|(run, text)| {
                    schedule(&model, &run.recipe, text, black_box(&run.execution))
                        .steps
                        .len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("end-to-end", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|text| {
                    guide_text(&model, black_box(text), None)
                        .expect("a guide")
                        .steps
                        .len()
                })
                .sum::<usize>()
        })
    });
    group.finish();

    let mut group = c.benchmark_group(format!("guide/{profile}/2000-actions"));
    group.sample_size(10);
    for (name, text) in [("chain", support::chain(2_000)), ("timers", timers(2_000))] {
        let recipe = parse(&text).file.recipes.remove(0);
        let run = model.execute(&recipe).expect("it runs");
        group.bench_function(format!("schedule-{name}"), |b| {
            b.iter(|| {
                schedule(&model, &recipe, &text, black_box(&run))
                    .steps
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, guide);
criterion_main!(benches);
