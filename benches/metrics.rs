//! Metric throughput on the 30 gold networks scored against themselves: each metric alone (and
//! the diet check of the gold dish against all six diets), then all four end to end through
//! `Evaluator::evaluate` (parse, validate, Smatch, simulate, score) on the gold files and on
//! the documentation's ten example files, and the gold files as the command scores them. And dishes of many identical items: the gold networks
//! whose eggs the project's `substitute` turns into bananas (100 g of banana cracks into 100
//! whole eggs, in every portion), and a dish of 500 portions; the same two shapes built here
//! from the demo's shortbread, so that they run without the benchmark data.

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::benchmark::{DataChoice, DataSource};
use cookingbot::data::diet_table::Diet;
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::diet::Dish;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::metrics::smatch::{SmatchConfig, smatch};
use cookingbot::metrics::{dish, goals};
use cookingbot::service::context::DataContext;
use cookingbot::service::golds::Golds;
use cookingbot::service::outcome::Exit;
use cookingbot::service::scoring::{self, EvaluateOptions, STDOUT};
use cookingbot::service::substitute::substitute_text;
use cookingbot::simulation::Model;
use cookingbot::world::rewrite::substitution::AmountRule;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

fn separate_metrics(c: &mut Criterion) {
    let profile = Profile::R2024;
    let model = Model::builtin(profile);
    let benchmark = support::benchmark(profile);
    let gold = support::gold_runs(&model, &benchmark);
    let n = gold.len() as u64;
    let mut group = c.benchmark_group(format!("metric/{profile}/gold-30"));
    group.throughput(Throughput::Elements(n));
    group.bench_function("goal-condition-success", |b| {
        b.iter(|| {
            gold.iter()
                .map(|(_, run)| {
                    let e = black_box(&run.execution);
                    goals::evaluate(&model, &run.recipe, e, &run.recipe, &run.execution).reached()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("dish-approximation-score", |b| {
        b.iter(|| {
            gold.iter()
                .map(|(_, run)| {
                    dish::best_dish_score(&model, black_box(&run.execution), run)
                        .expect("gold dish score")
                        .score
                })
                .sum::<f32>()
        })
    });
    // The dish (the gold's own), unfolded and traced to its actions, against all six diets.
    group.bench_function("diet-all-six", |b| {
        b.iter(|| {
            gold.iter()
                .map(|(_, run)| {
                    let e = black_box(&run.execution);
                    let dish = Dish::of(&model, &run.recipe, e, run.output_step);
                    Diet::ALL
                        .iter()
                        .filter(|&&d| dish.judge(&model.onto, d).satisfied() == Some(true))
                        .count()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("execution-time", |b| {
        b.iter(|| {
            gold.iter()
                .filter_map(|(_, run)| black_box(&run.execution).execution_time())
                .count()
        })
    });
    // One recipe whose final outputs hold the same mixtures: afghan-biscuits scores five trays
    // of 32 cookies (portioned, flattened, baked, cooled, iced), each unfolded and merged; the
    // unfoldings of one scoring share their comparisons of the objects the trays share.
    let (_, afghan) = gold
        .iter()
        .find(|(_, run)| run.recipe.id == "afghan-biscuits")
        .expect("afghan-biscuits in the benchmark");
    group.throughput(Throughput::Elements(1));
    group.bench_function("dish-approximation-score-afghan-biscuits", |b| {
        b.iter(|| {
            dish::best_dish_score(&model, black_box(&afghan.execution), afghan)
                .expect("gold dish score")
                .score
        })
    });
    group.throughput(Throughput::Elements(n));
    let config = SmatchConfig::default();
    group.sample_size(10);
    group.bench_function("smatch", |b| {
        b.iter(|| {
            gold.iter()
                .map(|(g, _)| {
                    let p = &g.network.predicates;
                    smatch(black_box(p), p, &config).f_score
                })
                .sum::<f64>()
        })
    });
    group.finish();
}

fn all_four() -> MetricSet {
    MetricSet::default().with(Metric::SmatchScore)
}

/// The documentation's ten example files (in the official benchmark's folder; both profiles
/// score them).
fn documentation_examples() -> Vec<String> {
    let dir = support::data_dir(Profile::R2024).join("documentation/examples/evaluation");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "solution"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 10, "{}", dir.display());
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable example"))
        .collect()
}

/// The gold files of a loaded benchmark, as a batch names them.
fn gold_files(evaluator: &Evaluator) -> Vec<PathBuf> {
    (evaluator.benchmark.recipes.iter())
        .map(|r| r.file.clone())
        .collect()
}

fn end_to_end(c: &mut Criterion) {
    let docs = documentation_examples();
    for profile in [Profile::R2024, Profile::R2023] {
        let dir = support::data_dir(profile);
        let evaluator = Evaluator::new(profile, &dir).expect("benchmark data");
        let gold = support::gold_texts(&evaluator.benchmark);
        let metrics = all_four();
        let evaluate_each = |evaluator: &Evaluator, texts: &[String]| {
            texts
                .iter()
                .map(|t| {
                    evaluator
                        .evaluate(black_box(t), &metrics)
                        .expect("scored")
                        .len()
                })
                .sum::<usize>()
        };
        let evaluate_all = |evaluator: &Evaluator| evaluate_each(evaluator, &gold);
        let mut group = c.benchmark_group(format!("evaluate/{profile}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(gold.len() as u64));
        // Gold runs computed on first use, then kept: a long-running evaluator.
        evaluate_all(&evaluator);
        group.bench_function("gold-30-all-metrics", |b| {
            b.iter(|| evaluate_all(&evaluator))
        });
        // A fresh process's work: load the model and gold networks, run the gold networks.
        group.bench_function("gold-30-all-metrics-cold", |b| {
            b.iter(|| evaluate_all(&Evaluator::new(profile, &dir).expect("benchmark data")))
        });
        // The batch the reference is timed against (docs/performance.md): a fresh process's
        // work with the three simulation metrics, the command's default and all the
        // reference's oracle computes, one recipe after the other (the command spreads them
        // over the cores).
        let simulation = MetricSet::default();
        group.bench_function("gold-30-simulation-metrics-cold", |b| {
            b.iter(|| {
                let evaluator = Evaluator::new(profile, &dir).expect("benchmark data");
                gold.iter()
                    .map(|t| {
                        let rows = evaluator.evaluate(black_box(t), &simulation);
                        rows.expect("scored").len()
                    })
                    .sum::<usize>()
            })
        });
        // The batch as the command scores it (`--input` each of the 30 gold files, default
        // metrics): the evaluator loaded, the files read and scored over the cores a chunk at
        // a time, the CSV written (here to nowhere). The process's start and exit aside, what
        // the batch against the reference times.
        let files = gold_files(&evaluator);
        let command = EvaluateOptions {
            inputs: files,
            output: PathBuf::from(STDOUT),
            ..EvaluateOptions::scoring(
                DataContext {
                    profile,
                    benchmark: Some(DataChoice::Folder(dir.clone())),
                    offline: true,
                    ..DataContext::default()
                },
                MetricSet::default(),
            )
        };
        group.bench_function("gold-30-command", |b| {
            b.iter(|| {
                let outcome = scoring::run(&command, &mut std::io::sink(), &mut std::io::sink());
                assert!(matches!(outcome, Ok(Exit::Success)));
            })
        });
        group.throughput(Throughput::Elements(docs.len() as u64));
        group.bench_function("documentation-examples-10", |b| {
            b.iter(|| evaluate_each(&evaluator, &docs))
        });
        group.finish();
    }
}

/// The three simulation metrics on networks generated from the gold ones: egg → banana (same
/// weight) in the three egg recipes that portion a dough, and the ginger snaps' dough in 500
/// portions of 2.86 g instead of 25 g.
fn big_dishes(c: &mut Criterion) {
    let profile = Profile::R2024;
    let model = Model::builtin(profile);
    let evaluator = Evaluator::new(profile, support::data_dir(profile)).expect("benchmark data");
    let gold_text = |id: &str| {
        let at = evaluator.benchmark.recipes.iter().position(|r| r.id == id);
        support::gold_texts(&evaluator.benchmark)[at.unwrap_or_else(|| panic!("{id}"))].clone()
    };
    let mut gold = |_: &str| {
        Ok::<_, String>(Some(Golds::Read(std::sync::Arc::new(
            evaluator.benchmark.clone(),
        ))))
    };
    let mut group = c.benchmark_group(format!("big-dish/{profile}"));
    group.sample_size(10);
    let metrics = MetricSet::default();
    for id in [
        "chocolate-fudge-cookies",
        "easy-oatmeal-cookies",
        "whole-wheat-ginger-snaps",
    ] {
        let banana = substitute_text(
            &model,
            &gold_text(id),
            None,
            ("egg", "banana"),
            Some(AmountRule::SameWeight),
            &mut gold,
        )
        .expect("substitutes")
        .comparison
        .network;
        evaluator.evaluate(&banana, &metrics).expect("scored");
        group.bench_function(format!("{id}-egg-to-banana"), |b| {
            b.iter(|| {
                evaluator
                    .evaluate(black_box(&banana), &metrics)
                    .expect("scored")
            })
        });
    }
    let snaps = gold_text("whole-wheat-ginger-snaps");
    let portions = snaps.replace("?dough 25 g", "?dough 2.86 g");
    assert_ne!(
        portions, snaps,
        "the ginger snaps portion their dough in 25 g"
    );
    evaluator.evaluate(&portions, &metrics).expect("scored");
    group.bench_function("whole-wheat-ginger-snaps-500-portions", |b| {
        b.iter(|| {
            evaluator
                .evaluate(black_box(&portions), &metrics)
                .expect("scored")
        })
    });
    group.finish();
}

/// The demo's shortbread (`gold/demo`) scored end to end in the shapes of [`big_dishes`]: its
/// dough in 500 portions of 0.7 g instead of 25 g, and its butter replaced by 100 eggs cracked
/// into the bowl, 100 identical whole eggs in the dough and in each of its portions.
fn demo_big_dishes(c: &mut Criterion) {
    let evaluator = Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo");
    let shortbread = include_str!("../gold/demo/shortbread-rounds.solution");
    let portions = shortbread.replace("?dough 25 g", "?dough 7/10 g");
    let butter = "(fetch-and-proportion ?proportioned-butter ?ks-with-butter ?kitchen \
                  ?target-container-1 butter 115 g)";
    let eggs = "(fetch-and-proportion ?eggs ?ks-with-eggs ?kitchen ?egg-bowl egg 100 piece)\n\
                (crack ?proportioned-butter ?ks-with-butter ?ks-with-eggs ?eggs ?target-container-1)";
    let cracked = shortbread.replace(butter, eggs);
    let metrics = MetricSet::default();
    let mut group = c.benchmark_group("big-dish/demo");
    group.sample_size(10);
    for (name, network) in [("500-portions", portions), ("100-cracked-eggs", cracked)] {
        assert_ne!(
            network, shortbread,
            "{name}: the shortbread's line is rewritten"
        );
        evaluator.evaluate(&network, &metrics).expect("scored");
        group.bench_function(name, |b| {
            b.iter(|| {
                evaluator
                    .evaluate(black_box(&network), &metrics)
                    .expect("scored")
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    separate_metrics,
    end_to_end,
    big_dishes,
    demo_big_dishes
);
criterion_main!(benches);
