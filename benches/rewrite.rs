//! Substituting and scaling: each a rewrite of the network, two runs (the original and the
//! rewrite) and three scorings (the rewrite against the original, both against the gold
//! network; two where the network is its gold itself, whose run is then the original's). The
//! jobs as a front end calls them (`rewrite/job`, on a workspace whose evaluator keeps the gold
//! runs: a gold file's original run is the kept one); per gold recipe (afghan-biscuits, with the
//! gold data kept and, as the jobs' old path, a benchmark read for the call;
//! croutons-vinegar-salad, the largest gold (53 actions); and whole-wheat-ginger-snaps, whose
//! scorings cost the most), over every butter recipe of the
//! benchmark, over the 30 gold networks, and on generated chains of 1k and 4k actions without
//! gold data, to show how the cost grows with the network.

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataChoice;
use cookingbot::evaluate::Evaluator;
use cookingbot::service::context::DataContext;
use cookingbot::service::golds::{GoldSource, Golds};
use cookingbot::service::jobs::{self, ScaleRequest, SubstituteRequest};
use cookingbot::service::scale::scale_text;
use cookingbot::service::substitute::substitute_text;
use cookingbot::service::workspace::Workspace;
use cookingbot::simulation::Model;
use cookingbot::world::rewrite::scaling::Factor;
use cookingbot::world::rewrite::substitution::AmountRule;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let profile = Profile::R2024;
    let benchmark = support::benchmark(profile);
    let texts = support::gold_texts(&benchmark);
    // The gold data as the jobs give it: the evaluator's, its gold runs kept.
    let evaluator = Arc::new(Evaluator::with(Model::builtin(profile), benchmark));
    let (model, benchmark) = (&evaluator.model, &evaluator.benchmark);
    let mut gold = |_: &str| Ok(Some(Golds::Kept(evaluator.clone())));
    let gold_text = |id: &str| {
        let at = benchmark.recipes.iter().position(|r| r.id == id);
        &texts[at.unwrap_or_else(|| panic!("{id} is a gold recipe"))]
    };
    let afghan = gold_text("afghan-biscuits");
    let croutons = gold_text("croutons-vinegar-salad");
    let substitute_one =
        |model: &Model, text: &str, replace: (&str, &str), gold: &mut GoldSource<'_>| {
            substitute_text(
                model,
                text,
                None,
                replace,
                Some(AmountRule::SameWeight),
                gold,
            )
            .expect("substitutes")
        };
    let substitute = |model: &Model, text: &str, gold: &mut GoldSource<'_>| {
        substitute_one(model, text, ("butter", "coconut-oil"), gold)
    };
    let scale = |model: &Model, text: &str, factor: &str, gold: &mut GoldSource<'_>| {
        scale_text(
            model,
            text,
            None,
            Factor::parse(factor).expect("factor"),
            gold,
        )
        .expect("scales")
    };

    // The jobs as a front end calls them, on a workspace whose evaluator is loaded.
    let workspace = Workspace::open(DataContext {
        profile,
        benchmark: Some(DataChoice::Folder(support::data_dir(profile))),
        offline: true,
        ..DataContext::default()
    })
    .expect("the workspace opens");
    let mut group = c.benchmark_group("rewrite/job");
    group.bench_function("substitute-afghan-biscuits", |b| {
        b.iter(|| {
            let request = SubstituteRequest {
                network: afghan.clone(),
                replace: "butter".into(),
                with: "coconut-oil".into(),
                amount_rule: None,
                recipe: None,
            };
            jobs::substitute(&workspace, black_box(request)).expect("substitutes")
        })
    });
    group.bench_function("scale-afghan-biscuits-3/2", |b| {
        b.iter(|| {
            let request = ScaleRequest {
                network: afghan.clone(),
                factor: Some("3/2".into()),
                servings: None,
                serves: None,
                recipe: None,
            };
            jobs::scale(&workspace, black_box(request)).expect("scales")
        })
    });
    group.finish();

    let mut group = c.benchmark_group("substitute");
    group.bench_function("afghan-biscuits", |b| {
        b.iter(|| substitute(model, black_box(afghan), &mut gold))
    });
    // The benchmark read for the call (a command's way): every run made again.
    group.bench_function("afghan-biscuits-benchmark-read", |b| {
        b.iter(|| {
            let mut read = |_: &str| Ok(Some(Golds::Read(Arc::new(benchmark.clone()))));
            substitute(model, black_box(afghan), &mut read)
        })
    });
    // The largest gold: its olive oil, in the croutons and the dressing, becomes vegetable oil.
    group.bench_function("croutons-vinegar-salad", |b| {
        b.iter(|| {
            let replace = ("extra-virgin-olive-oil", "vegetable-oil");
            substitute_one(model, black_box(croutons), replace, &mut gold)
        })
    });
    let butter: Vec<&String> = texts.iter().filter(|t| t.contains(" butter ")).collect();
    group.throughput(Throughput::Elements(butter.len() as u64));
    group.bench_function("butter-recipes", |b| {
        b.iter(|| {
            butter
                .iter()
                .map(|t| {
                    substitute(model, black_box(t), &mut gold)
                        .comparison
                        .changes
                        .len()
                })
                .sum::<usize>()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("scale");
    group.bench_function("afghan-biscuits-3/2", |b| {
        b.iter(|| scale(model, black_box(afghan), "3/2", &mut gold))
    });
    group.bench_function("croutons-vinegar-salad-x2", |b| {
        b.iter(|| scale(model, black_box(croutons), "2", &mut gold))
    });
    // The gold whose scorings cost the most (its dish is compared step by step).
    let ginger_snaps = gold_text("whole-wheat-ginger-snaps");
    group.bench_function("whole-wheat-ginger-snaps-x2", |b| {
        b.iter(|| scale(model, black_box(ginger_snaps), "2", &mut gold))
    });
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.bench_function("gold-30-x2", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| scale(model, black_box(t), "2", &mut gold).proportions.len())
                .sum::<usize>()
        })
    });
    group.finish();

    let mut no_gold = |_: &str| Ok::<_, String>(None);
    let mut group = c.benchmark_group("rewrite/chain");
    group.sample_size(10);
    for n in [1_000, 4_000] {
        let chain = support::chain(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("scale-{n}"), |b| {
            b.iter(|| scale(model, black_box(&chain), "2", &mut no_gold))
        });
        let chain = chain.replace(" butter ", " salted-butter ");
        group.bench_function(format!("substitute-{n}"), |b| {
            b.iter(|| {
                substitute_text(
                    model,
                    black_box(&chain),
                    None,
                    ("salted-butter", "butter"),
                    Some(AmountRule::SameWeight),
                    &mut no_gold,
                )
                .expect("substitutes")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
