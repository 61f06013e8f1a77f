//! The cook's guide against the simulator and the evaluation: on every gold network of both
//! profiles its total time is the execution-time metric (the reference's `gold.tsv`, and the
//! evaluator's value) and its steps are the actions the simulator ran, at `simulate`'s times;
//! the campaign's mistaken networks have a guide exactly when their evaluation has a time, and
//! it lasts that time; networks of our own for timers, idle times and a network that starts
//! thousands of timers.

use crate::common;
use cookingbot::base::profile::Profile;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::report::cook_guide::{Guide, MAX_LISTED};
use cookingbot::report::figures::number;
use cookingbot::service::guide::guide_text;
use cookingbot::service::simulate::{SimulateFailure, simulate_text};
use cookingbot::simulation::Model;
use serde_json::{Value, json};

fn guide(model: &Model, text: &str) -> Guide {
    match guide_text(model, text, None) {
        Ok(guide) => guide,
        Err(SimulateFailure::Recipe(why)) => panic!("{why}"),
        Err(e) => panic!("no guide: {e:?}"),
    }
}

/// Each step as (action, text, start, end), times as JSON numbers.
fn steps(guide: &Guide) -> Vec<(usize, String, Value, Value)> {
    guide
        .steps
        .iter()
        .map(|s| (s.action, s.text.clone(), number(s.start), number(s.end)))
        .collect()
}

/// The schedule accounts for the whole time: the last step ends at it.
fn ends_at_its_total_time(guide: &Guide, at: &str) {
    let last = guide
        .steps
        .iter()
        .map(|s| s.end.to_f64())
        .fold(0.0, f64::max);
    assert_eq!(last, guide.total_time.to_f64(), "{at}");
}

#[test]
fn every_gold_guide_lasts_the_execution_time_and_holds_the_steps_the_simulator_ran() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let mut checked = 0;
    for profile in Profile::ALL {
        let model = Model::builtin(profile);
        let evaluator = common::benchmark_evaluator(profile);
        let time_only = MetricSet::empty().with(Metric::ExecutionTime);
        let rows = common::reference_rows(profile.name(), "gold.tsv");
        assert_eq!(rows.len(), 30);
        for row in &rows {
            let text = common::read(&row.solution);
            let at = format!("{profile} {}", row.recipe);
            let guide = guide(&model, &text);
            assert_eq!(guide.recipe, row.recipe);
            // The reference's execution time, and the evaluation's metric.
            assert_eq!(guide.total_time.to_string(), row.time, "{at}");
            let scored = evaluator.evaluate(&text, &time_only).unwrap();
            let metric = scored[0].execution_time.expect("an execution time");
            assert!(metric.num_eq(&guide.total_time), "{at}");
            ends_at_its_total_time(&guide, &at);
            // The steps are simulate's trace, every action it ran with the same text and times,
            // in the trace's order sorted (stably) by start (get-kitchen, which has no input
            // kitchen, starts when it ends).
            let simulated = simulate_text(&model, "builtin", &text, None, &mut |_| Ok(None))
                .unwrap_or_else(|_| panic!("{at} simulates"));
            let mut ran: Vec<(usize, String, Value, Value)> = simulated
                .report
                .steps
                .iter()
                .map(|s| {
                    let end = s.end.clone().unwrap();
                    let start = s.start.clone().unwrap_or(end.clone());
                    (s.action.action, s.action.text.clone(), start, end)
                })
                .collect();
            ran.sort_by(|a, b| a.2.as_f64().unwrap().total_cmp(&b.2.as_f64().unwrap()));
            assert_eq!(steps(&guide), ran, "{at}");
            // Timers are the steps that go on by themselves; idle times lie within the total,
            // one after the other.
            for t in &guide.timers {
                let step = guide.steps.iter().find(|s| s.action == t.action).unwrap();
                assert!(
                    step.timer && t.cook_free.to_f64() < t.ready.to_f64(),
                    "{at}"
                );
            }
            assert_eq!(
                guide.steps.iter().filter(|s| s.timer).count(),
                guide.timers.len()
            );
            let mut cursor = 0.0;
            for g in &guide.idle {
                assert!(
                    cursor <= g.from.to_f64() && g.from.to_f64() < g.to.to_f64(),
                    "{at}"
                );
                cursor = g.to.to_f64();
            }
            assert!(cursor <= guide.total_time.to_f64(), "{at}");
            checked += 1;
        }
    }
    assert_eq!(checked, 60);
}

/// The campaign's networks (mistaken networks made from the gold ones, `cookingbot::mistakes`):
/// a network has a guide exactly when its evaluation has an execution time, and the guide lasts
/// that time; a network with errors, or one whose run crashes, has neither.
#[test]
fn every_campaign_guide_lasts_the_execution_time_its_file_is_scored_with() {
    common::require_data!(Profile::R2024, Profile::R2023);
    for profile in Profile::ALL {
        let ev = common::benchmark_evaluator(profile);
        let (mut timed, mut untimed, mut invalid, mut crashed, mut dish_refused) = (0, 0, 0, 0, 0);
        for (id, text) in common::campaign_networks(&ev, profile, 5) {
            for (_, section) in common::benchmark_sections(&ev, &text) {
                let at = format!("{profile} {id}");
                let file = ev.evaluate(&section, &MetricSet::default());
                match (guide_text(&ev.model, &section, None), file) {
                    (Ok(guide), Ok(rows)) => {
                        let time = rows[0].execution_time.as_ref().expect("an execution time");
                        assert!(time.num_eq(&guide.total_time), "{at}");
                        ends_at_its_total_time(&guide, &at);
                        timed += 1;
                    }
                    // The run executes; the evaluation is refused for its dish.
                    (Ok(_), Err(refusal)) => {
                        assert!(
                            refusal.message.contains("dish"),
                            "{at}: {}",
                            refusal.message
                        );
                        dish_refused += 1;
                    }
                    (Err(SimulateFailure::Recipe(why)), Ok(rows)) => {
                        assert_eq!(rows[0].execution_time, None, "{at}: {why}");
                        untimed += 1;
                    }
                    (Err(SimulateFailure::Invalid(_)), Err(_)) => invalid += 1,
                    (Err(SimulateFailure::Crashed(_)), Err(_)) => crashed += 1,
                    (guide, file) => panic!(
                        "{at}: guide {:?}, evaluation {:?}",
                        guide.err(),
                        file.err().map(|r| r.message)
                    ),
                }
            }
        }
        eprintln!(
            "profile {profile}: {timed} timed, {untimed} without a time, {invalid} invalid, \
             {crashed} crashed, {dish_refused} refused for the dish"
        );
        assert!(timed > 0 && untimed > 0 && invalid > 0, "{profile}");
        assert!(
            timed + untimed + invalid + crashed + dish_refused >= 500,
            "{profile}"
        );
    }
}

/// A bowl of butter left to come to room temperature while the oven heats, then the butter
/// moved into a bigger bowl once it is soft.
const SOFTEN_WHILE_PREHEATING: &str = "#soften
(get-kitchen ?kitchen)
(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 100 g)
(bring-to-temperature ?soft-butter ?ks-2 ?ks-1 ?butter 18 degrees-celsius)
(preheat-oven ?oven ?ks-3 ?ks-2 ?oven-place 180 degrees-celsius)
(transfer-contents ?moved ?rest ?ks-4 ?ks-3 ?large-bowl ?soft-butter ?quantity ?unit)
";

#[test]
fn timers_idle_times_and_overlaps_come_from_the_simulated_schedule() {
    let guide = guide(&Model::builtin(Profile::R2024), SOFTEN_WHILE_PREHEATING);
    let json = serde_json::to_value(&guide).unwrap();
    // The butter comes to 18 °C in 800 s and the oven heats in 615 s, both started at 0:30;
    // the oven takes the cook 15 s, the transfer waits for the butter and then takes 20 s.
    assert_eq!(json["total_time"], 850);
    let steps: Vec<Value> = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            json!([
                s["action"],
                s["line"],
                s["start"],
                s["end"],
                s["timer"],
                s["parallel"]
            ])
        })
        .collect();
    assert_eq!(
        steps,
        [
            json!([1, 2, 0.0, 0.0, false, []]),
            json!([2, 3, 0, 30, false, []]),
            json!([3, 4, 30, 830, true, [4, 5]]),
            json!([4, 5, 30, 645, true, [3, 5]]),
            json!([5, 6, 45, 850, false, [3, 4]]),
        ]
    );
    assert_eq!(
        json["steps"][3]["words"],
        "preheat oven: an oven at 180 °C (name \"Oven\")"
    );
    assert_eq!(
        json["timers"],
        json!([
            {"action": 3, "line": 4, "what": "bring to temperature",
             "makes": "a medium bowl (used) holding 100 g butter at 18 °C",
             "temperature": "18 °C", "start": 30, "cook_free": 30, "ready": 830},
            {"action": 4, "line": 5, "what": "preheat oven", "makes": "an oven at 180 °C (name \"Oven\")",
             "temperature": "180 °C", "start": 30, "cook_free": 45, "ready": 645}
        ])
    );
    assert_eq!(
        json["idle"],
        json!([{"from": 45, "to": 830, "waiting_for": [3, 4]}])
    );
    assert!(guide.text().contains(
        "   0:30  preheat oven now: 180 °C, ready at 10:45 (line 5: an oven at 180 °C (name \"Oven\"))\n"
    ));
    assert!(
        guide
            .text()
            .contains("   0:45–13:50  waiting for lines 4, 5\n")
    );
}

#[test]
fn a_network_that_does_not_execute_has_no_guide() {
    let stuck = "#stuck
(get-kitchen ?kitchen)
(beat ?beaten ?ks-2 ?kitchen ?never-made ?whisk)
";
    let Err(SimulateFailure::Recipe(why)) =
        guide_text(&Model::builtin(Profile::R2024), stuck, None)
    else {
        panic!("a guide of a network that does not execute")
    };
    assert_eq!(
        why,
        "recipe stuck does not execute (1 action(s) could not run: beat (action 2) lacks ?never-made), \
         so it has no schedule to guide a cook by"
    );
}

/// `get-kitchen`, a bowl of butter, then `n` actions that each bring it to room temperature:
/// the kitchen does not wait for any of them, so all `n` run at once.
fn many_timers(n: usize) -> String {
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

#[test]
fn a_network_that_starts_two_thousand_timers_lists_a_few_beside_each_and_counts_the_rest() {
    let n = 2_000;
    let guide = guide(&Model::builtin(Profile::R2024), &many_timers(n));
    assert_eq!(guide.steps.len(), n + 2);
    assert_eq!(guide.timers.len(), n);
    for s in guide.steps.iter().filter(|s| s.timer) {
        assert_eq!(s.parallel.len(), MAX_LISTED);
        assert_eq!(s.parallel.len() + s.parallel_omitted, n - 1);
    }
    let json = serde_json::to_string(&guide).unwrap();
    assert!(json.len() < 2_000_000, "{} bytes", json.len());
}
