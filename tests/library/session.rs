//! The agent session (`cookingbot::session`): gold and campaign networks given line by line
//! run in file order and finish exactly as their files are evaluated; undo, look, bad lines
//! and sessions side by side.

use crate::common;
use cookingbot::agent::gold_script;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataSource;
use cookingbot::data::primitive_words;
use cookingbot::evaluate::Evaluator;
use cookingbot::language::diagnostic::{Diagnostic, Diagnostics, MAX_RENDERED};
use cookingbot::language::parse::parse_into;
use cookingbot::language::validate::Validator;
use cookingbot::language::validate::so_far::NetworkSoFar;
use cookingbot::metrics::metric::Metric;
use cookingbot::session::observation::{Located, Observation, Outcome};
use cookingbot::session::{MAX_LINE_BYTES, Session, SessionError};
use cookingbot::simulation::Execution;
use cookingbot::simulation::stepwise::Stepwise;
use cookingbot::world::Value;
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

fn demo() -> Arc<Evaluator> {
    static DEMO: OnceLock<Arc<Evaluator>> = OnceLock::new();
    DEMO.get_or_init(|| {
        let ev = Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads");
        Arc::new(ev)
    })
    .clone()
}

/// A network's text given to a new session line by line: the session and every observation.
fn replay(ev: &Arc<Evaluator>, recipe: &str, text: &str) -> (Session, Vec<Observation>) {
    replay_watching(ev, recipe, text, |_| {})
}

/// [`replay`], `watch` shown the session after every line.
fn replay_watching(
    ev: &Arc<Evaluator>,
    recipe: &str,
    text: &str,
    mut watch: impl FnMut(&Session),
) -> (Session, Vec<Observation>) {
    let mut session = Session::with_evaluator(ev.clone(), recipe).expect("a benchmark recipe");
    let body = text.strip_suffix('\n').unwrap_or(text);
    let observations = body
        .split('\n')
        .enumerate()
        .filter(|(i, line)| !(*i == 0 && *line == format!("#{recipe}")))
        .map(|(_, line)| {
            let id = session.network().lines().count();
            let seen = session
                .act(line)
                .unwrap_or_else(|e| panic!("{recipe}, after line {id}: {line:?}: {e}"));
            watch(&session);
            seen
        })
        .collect();
    (session, observations)
}

/// Every gold network of a profile, given action by action: each runs when given, and
/// `finish` scores the network as its file is scored: Smatch 1 against itself, the
/// reference's values for the gold file (`tests/data/reference/<profile>/gold.tsv`), and the
/// execution time of what ran in file order. Along the way the share of gold goals reached
/// never falls, and it ends at the evaluation's goal-condition success: 1, but where the
/// gold itself makes a failed object (its goal no action reaches), which is `failed`.
fn gold_replay(profile: Profile) {
    common::require_data!(profile);
    let ev = common::benchmark_evaluator(profile);
    let reference = common::reference_rows(profile.name(), "gold.tsv");
    let (mut replayed, mut against_reference, mut forks, mut gold_failed) = (0, 0, 0, 0);
    for gold in &ev.benchmark.recipes {
        let text = gold_script(&ev.benchmark, &gold.id).expect("the recipe is the benchmark's");
        let mut shares = Vec::new();
        let (session, observations) = replay_watching(&ev, &gold.id, &text, |s| {
            shares.push(s.progress().expect("the gold runs").goal_share);
        });
        assert!(
            shares.windows(2).all(|w| w[0] <= w[1]),
            "{}: {shares:?}",
            gold.id
        );
        let opening = session.opening();
        let recipe_text = opening.recipe_text.unwrap_or_default();
        assert!(recipe_text.contains("\nIngredients:\n- "), "{}", gold.id);
        assert_eq!(opening.time, serde_json::json!(0));
        let mut failed = 0;
        for o in &observations {
            failed += usize::from(o.outcome == Outcome::Failed);
            assert!(
                o.ok || o.outcome == Outcome::Failed,
                "{} line {}: {}",
                gold.id,
                o.line,
                o.text
            );
            assert!(matches!(
                o.outcome,
                Outcome::Ran | Outcome::RunsWithFirst | Outcome::Failed
            ));
            // Some gold networks give a kitchen state to two actions, and are warned.
            let fork = |d: &&Located| d.message.contains("the kitchen forks");
            let made_failed = |d: &&Located| d.message.contains("made a failed object");
            assert!(
                o.diagnostics
                    .iter()
                    .all(|d| d.severity == "warning" && (fork(&d) || made_failed(&d))),
                "{} line {}: {o:?}",
                gold.id,
                o.line
            );
            forks += o.diagnostics.iter().filter(fork).count();
        }
        assert_eq!(session.network(), text);
        assert!(!session.has_errors(), "{}", gold.id);
        assert!(session.waiting().is_empty() && session.unbound().is_empty());
        let score = session.finish();
        let name = session.file_name();
        assert_eq!(
            (score.csv.clone(), score.json.clone()),
            common::file_score(&ev, &name, &text)
        );
        let row = score.result.expect("the gold network scores");
        let cells: Vec<String> = Metric::ALL.iter().map(|&m| row.formatted(m)).collect();
        assert_eq!(cells[0], "1.00", "{}", gold.id);
        let gcs = row.goal_condition_success.map(|n| n.to_f64());
        assert_eq!(shares.last().copied(), gcs, "{}", gold.id);
        match failed {
            0 => assert_eq!(gcs, Some(1.0), "{}", gold.id),
            _ => gold_failed += 1,
        }
        assert_eq!(row.execution_time, session.execution_time(), "{}", gold.id);
        let same_file = |r: &&common::RefRow| {
            r.solution.file_name() == gold.file.file_name() && r.recipe == gold.id
        };
        if let Some(r) = reference.iter().find(same_file) {
            assert_eq!(
                cells[1..],
                [r.gcs.clone(), r.dish.clone(), r.time.clone()],
                "{}",
                gold.id
            );
            against_reference += 1;
        }
        replayed += 1;
    }
    assert_eq!(replayed, 30);
    assert!(against_reference >= 29, "{against_reference}");
    eprintln!(
        "profile {profile}: {replayed} gold networks replayed, every action ran; \
         {against_reference} scored as the reference scores their gold file; {forks} forks; \
         {gold_failed} make a failed object"
    );
}

#[test]
fn gold_networks_2024_replay_in_file_order() {
    gold_replay(Profile::R2024);
}

#[test]
fn gold_networks_2023_replay_in_file_order() {
    gold_replay(Profile::R2023);
}

/// Counts of a campaign replay.
#[derive(Default, Debug)]
struct Tally {
    networks: usize,
    sections: usize,
    refused: usize,
    waited: usize,
    same_time: usize,
    headless: usize,
    failed: usize,
    never: usize,
    plain_words: usize,
}

/// Every failed object an observation shows says why in words, and the line that made it is
/// `failed`, not `ok`, with a warning that says the same.
fn failed_objects_say_why(id: &str, o: &Observation, tally: &mut Tally) {
    for object in &o.objects {
        let failed = object.words.starts_with("a failed object");
        assert_eq!(failed, object.failed.is_some(), "{id}: {object:?}");
        let Some(why) = &object.failed else { continue };
        assert!(
            !why.is_empty() && object.words.ends_with(why.as_str()),
            "{id}: {object:?}"
        );
        if object.line == o.line && o.outcome != Outcome::Refused {
            assert_eq!((o.outcome, o.ok), (Outcome::Failed, false), "{id}: {o:?}");
            assert!(
                o.diagnostics
                    .iter()
                    .any(|d| d.severity == "warning" && d.message.ends_with(why.as_str())),
                "{id}: {o:?}"
            );
            tally.failed += 1;
        }
    }
}

/// One campaign network, section by section: the session's network is the section's text,
/// its score the section's, and every line that does not run says why, at its line.
fn campaign_network(ev: &Arc<Evaluator>, id: &str, text: &str, tally: &mut Tally) {
    tally.networks += 1;
    let recipes = common::benchmark_sections(ev, text);
    tally.headless += common::sections(text).len() - recipes.len();
    for (recipe, section) in recipes {
        // Progress after every line: each measure matches only the steps that ran since.
        let (session, observations) = replay_watching(ev, &recipe, &section, |s| {
            s.progress().expect("the gold runs");
        });
        assert_eq!(session.network(), section, "{id}");
        assert_eq!(
            session.has_errors(),
            ev.prepare(&section).is_err(),
            "{id}: {section}"
        );
        let (fresh, _) = replay(ev, &recipe, &section);
        assert_eq!(session.progress(), fresh.progress(), "{id}");
        let score = session.finish();
        let expected = common::file_score(ev, &session.file_name(), &section);
        assert_eq!((score.csv.clone(), score.json.clone()), expected, "{id}");
        for o in &observations {
            failed_objects_say_why(id, o, tally);
            for d in o
                .diagnostics
                .iter()
                .filter(|d| d.reference_message.is_some())
            {
                // The reference's Lisp text is kept, and the message says it in plain words.
                assert!(!d.message.contains("generic function"), "{id}: {d:?}");
                assert!(o.text.contains(&d.message), "{id}: {o:?}");
                tally.plain_words += 1;
            }
        }
        for o in observations.iter().filter(|o| !o.ok) {
            assert!(
                !o.text.is_empty() && !o.diagnostics.is_empty(),
                "{id}: {o:?}"
            );
            if matches!(o.outcome, Outcome::Waiting | Outcome::Never) {
                tally.waited += usize::from(o.outcome == Outcome::Waiting);
                tally.never += usize::from(o.outcome == Outcome::Never);
                // Its notes are at its line; anything else is the recipe's, at its header
                // (the network still lacks its get-kitchen).
                assert!(
                    o.diagnostics
                        .iter()
                        .all(|d| d.line == o.line || d.line == 1),
                    "{id}: {o:?}"
                );
            } else {
                assert!(
                    matches!(o.outcome, Outcome::Refused | Outcome::Failed),
                    "{id}: {o:?}"
                );
            }
        }
        tally.sections += 1;
        let all_ran = session.waiting().is_empty() && session.unbound().is_empty();
        let refused_line = observations.iter().any(|o| o.outcome == Outcome::Refused);
        match &score.result {
            Err(_) => tally.refused += 1,
            // What ran in file order is the search's first path: when it completes the
            // network, it is the execution.
            Ok(row) if all_ran && !refused_line => {
                assert_eq!(row.execution_time, session.execution_time(), "{id}");
                let progress = session.progress().expect("the gold runs");
                let gcs = row.goal_condition_success.map(|n| n.to_f64());
                assert_eq!(Some(progress.goal_share), gcs, "{id}");
                assert_eq!(progress.dish_score, row.dish_approximation_score, "{id}");
                assert_eq!(score.why_no_dish, None, "{id}");
                tally.same_time += 1;
            }
            Ok(_) => {}
        }
    }
}

/// Every `step`-th network of the differential campaign of a profile.
fn campaign_replay(profile: Profile, step: usize) -> Tally {
    let ev = common::benchmark_evaluator(profile);
    let mut tally = Tally::default();
    for (id, text) in common::campaign_networks(&ev, profile, step) {
        campaign_network(&ev, &id, &text, &mut tally);
    }
    eprintln!("profile {profile}: {tally:?}");
    tally
}

#[test]
fn campaign_networks_finish_as_their_files() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let a = campaign_replay(Profile::R2024, 10);
    let b = campaign_replay(Profile::R2023, 10);
    assert!(a.networks + b.networks >= 500, "{a:?} {b:?}");
    // Every kind of outcome is met: refusals, waiting actions, complete first paths, failed
    // objects and the reference's errors in plain words.
    for t in [&a, &b] {
        assert!(t.refused > 0 && t.waited > 0 && t.same_time > 0, "{t:?}");
        assert!(t.failed > 0 && t.plain_words > 0, "{t:?}");
    }
}

fn shortbread() -> (Session, Vec<String>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gold/demo/shortbread-rounds.solution"
    );
    let text = std::fs::read_to_string(path).expect("the demo's gold network");
    let lines = text.lines().skip(1).map(String::from).collect();
    let session = Session::with_evaluator(demo(), "demo-shortbread-rounds").expect("a demo recipe");
    (session, lines)
}

#[test]
fn undo_restores_the_session_exactly() {
    let (mut session, lines) = shortbread();
    for line in &lines[..8] {
        session.act(line).expect("acts");
    }
    let network = session.network();
    let looks: Vec<String> = ["?soft-butter", "?output-ks-b", "counter-top"]
        .iter()
        .map(|n| format!("{:?}", session.look(n).map(|v| v.text)))
        .collect();
    let first = session.act(&lines[8]).expect("acts").json();
    assert_eq!(session.undo().as_deref(), Ok(lines[8].as_str()));
    assert_eq!(session.network(), network);
    let again: Vec<String> = ["?soft-butter", "?output-ks-b", "counter-top"]
        .iter()
        .map(|n| format!("{:?}", session.look(n).map(|v| v.text)))
        .collect();
    assert_eq!(again, looks);
    assert!(matches!(
        session.look("?creamed-butter"),
        Err(SessionError::UnknownName { .. })
    ));
    assert_eq!(session.act(&lines[8]).expect("acts").json(), first);
    // Back to the start, and no further.
    while session.undo().is_ok() {}
    assert_eq!(session.network(), "#demo-shortbread-rounds\n");
    assert_eq!(session.undo(), Err(SessionError::NothingToUndo));
}

/// A line with an error makes `finish` refuse the network as its file is refused, and once
/// the line is taken back the network scores as its file again.
#[test]
fn an_error_taken_back_no_longer_refuses_the_network() {
    let (mut session, lines) = shortbread();
    let ev = demo();
    for line in &lines[..8] {
        session.act(line).expect("acts");
    }
    assert!(!session.has_errors());
    let name = session.file_name();
    let partial = session.network();
    let before = session.finish();
    assert_eq!(
        (before.csv.clone(), before.json.clone()),
        common::file_score(&ev, &name, &partial)
    );
    for bad in [
        "(fetch ?x ?ks large-bowl 1",
        "(no-such-primitive ?x ?y)",
        "fetch",
    ] {
        session.act(bad).expect("a line taken");
        assert!(session.has_errors(), "{bad}");
        let refused = session.finish();
        assert!(refused.result.is_err(), "{bad}");
        assert_eq!(
            (refused.csv.clone(), refused.json.clone()),
            common::file_score(&ev, &name, &session.network()),
            "{bad}"
        );
        assert_eq!(session.undo().as_deref(), Ok(bad));
        assert!(!session.has_errors(), "{bad}");
        let again = session.finish();
        assert_eq!(
            (again.csv, again.json),
            (before.csv.clone(), before.json.clone())
        );
    }
    // The whole network, every action run: scored on the session's run, as its file.
    for line in &lines[8..] {
        session.act(line).expect("acts");
    }
    assert!(!session.has_errors() && session.waiting().is_empty());
    let whole = session.finish();
    let file = common::file_score(&ev, &name, &session.network());
    assert_eq!((whole.csv, whole.json), file);
}

/// The simulation's search replays the steps a session ran rather than running them again: its
/// execution holds the objects the session's run made (the search alone shares only the initial
/// kitchen's with it) and takes the same steps to the same end. The demo's gold networks, and
/// the benchmark's of both profiles.
#[test]
fn the_search_replays_the_steps_a_session_ran() {
    search_replays_the_steps_a_session_ran(&demo());
    common::require_data!(Profile::R2024, Profile::R2023);
    for profile in [Profile::R2024, Profile::R2023] {
        search_replays_the_steps_a_session_ran(&common::benchmark_evaluator(profile));
    }
}

fn search_replays_the_steps_a_session_ran(ev: &Evaluator) {
    let (model, profile) = (&ev.model, ev.model.profile);
    for gold in &ev.benchmark.recipes {
        let mut run = Stepwise::new(model, &gold.id);
        for p in &gold.network.predicates {
            run.push(model, p.clone(), true);
        }
        let replayed = (model.execute_after(run.recipe(), Some(run.first_path())))
            .expect("the gold network runs");
        let own = model.execute(&gold.network).expect("the gold network runs");
        let steps = |e: &Execution| -> Vec<(usize, usize)> {
            e.steps.iter().map(|s| (s.predicate, s.case)).collect()
        };
        assert_eq!(steps(&replayed), steps(&own), "{profile} {}", gold.id);
        assert!(replayed.solved && own.solved, "{profile} {}", gold.id);
        let run_objects = |e: &Execution| {
            (0..e.bindings.len())
                .filter(|&s| {
                    let (Value::Obj(a), Some(Value::Obj(b))) =
                        (&e.bindings[s].value, run.binding(s).map(|b| &b.value))
                    else {
                        return false;
                    };
                    Arc::ptr_eq(a, b)
                })
                .count()
        };
        let (replayed, own_shared) = (run_objects(&replayed), run_objects(&own));
        assert!(
            replayed > own_shared + own.steps.len(),
            "{profile} {}: {replayed}, {own_shared}",
            gold.id
        );
    }
}

/// What an agent may do to a session: give a line of the demo's gold network (by index), a
/// line with an error, or take the last line back.
#[derive(Clone, Debug)]
enum Step {
    Gold(usize),
    Bad(usize),
    Undo,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        6 => (0..18usize).prop_map(Step::Gold),
        1 => (0..4usize).prop_map(Step::Bad),
        2 => Just(Step::Undo),
    ];
    proptest::collection::vec(step, 0..40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever lines are given, in whatever order, with errors and lines taken back, `finish`
    /// scores the network as its file is scored, and `has_errors` is the file's refusal.
    #[test]
    fn finish_is_the_files_score_after_any_lines_and_undos(steps in steps()) {
        const BAD: [&str; 4] = [
            "(fetch ?x ?ks large-bowl 1",
            "(no-such-primitive ?x ?y)",
            "(get-kitchen)",
            "#demo-shortbread-rounds",
        ];
        let (mut session, lines) = shortbread();
        let ev = demo();
        for step in &steps {
            let _ = match step {
                Step::Gold(i) => session.act(&lines[i % lines.len()]).map(|_| ()),
                Step::Bad(i) => session.act(BAD[*i]).map(|_| ()),
                Step::Undo => session.undo().map(|_| ()),
            };
        }
        let network = session.network();
        prop_assert_eq!(session.has_errors(), ev.prepare(&network).is_err(), "{}", network);
        let score = session.finish();
        let file = common::file_score(&ev, &session.file_name(), &network);
        prop_assert_eq!((score.csv, score.json), file, "{}", network);
    }
}

/// Portions heaped on the counter-top until an action would hold more than the memory budget:
/// that action is refused where it is, and the session answers on.
#[test]
fn an_action_past_the_memory_budget_is_refused_and_the_session_goes_on() {
    let mut session =
        Session::with_evaluator(demo(), "demo-shortbread-rounds").expect("a demo recipe");
    // 71 pairs: each kitchen state shares the counter-top's list of portions (copying it, the
    // 24th pair was past the budget).
    let heap = common::portion_heap("demo-shortbread-rounds", "butter", 71);
    let observations: Vec<Observation> = heap
        .lines()
        .skip(1)
        .map(|line| session.act(line).expect("acts"))
        .collect();
    let (refused, ran) = observations.split_last().expect("lines");
    assert!(
        ran.iter().all(|o| o.outcome == Outcome::Ran),
        "{:?}",
        ran.last()
    );
    assert_eq!((refused.outcome, refused.line), (Outcome::Refused, 144));
    let budget = "recipe demo-shortbread-rounds was not scored within its memory budget of \
                  24000000 kitchen cells (objects, their slots and list items, about 1 GB); \
                  it was in the simulation at action 143 (`portion-and-arrange`)";
    assert_eq!(
        refused.text,
        format!("portion-and-arrange was refused by the recipe's budget: {budget}")
    );
    assert_eq!(refused.diagnostics[0].message, budget);
    // The kitchen state before the refused action is there to go on from, and what the refused
    // action made is not counted: the next line runs.
    let oven = session
        .act("(preheat-oven ?hot-oven ?ks-oven ?ks70 ?oven 180 degrees-celsius)")
        .expect("acts");
    assert_eq!(oven.outcome, Outcome::Ran, "{}", oven.text);
    // Taken back to line 142 and given again, line 143 runs again and line 144 is refused again.
    assert!(session.undo().is_ok() && session.undo().is_ok() && session.undo().is_ok());
    let line = |n: usize| heap.lines().nth(n - 1).expect("a line of the heap");
    assert_eq!(session.act(line(143)).expect("acts").outcome, Outcome::Ran);
    assert_eq!(session.act(line(144)).expect("acts"), *refused);
}

/// The network's missing get-kitchen is an error of the whole network, not of the lines
/// written before it: they wait, it is reported at the header, and once get-kitchen is given
/// they run, as the finished network's evaluation runs them.
#[test]
fn lines_before_get_kitchen_wait_for_it() {
    let (mut session, lines) = shortbread();
    let (get_kitchen, actions) = lines.split_first().expect("a network");
    assert!(get_kitchen.starts_with("(get-kitchen "));
    let first = session.act(&actions[0]).expect("acts");
    assert_eq!(first.outcome, Outcome::Waiting, "{first:?}");
    let error = first.diagnostics.iter().find(|d| d.severity == "error");
    assert_eq!(
        error.map(|d| (d.line, d.code, d.message.as_str())),
        Some((
            1,
            Some("E0101"),
            "recipe `demo-shortbread-rounds` needs exactly one get-kitchen, found 0"
        ))
    );
    for line in &actions[1..] {
        let seen = session.act(line).expect("acts");
        assert_eq!(seen.outcome, Outcome::Waiting, "{seen:?}");
        assert!(
            seen.diagnostics.iter().all(|d| d.severity != "error"),
            "{seen:?}"
        );
    }
    assert_eq!(session.waiting().len(), actions.len());
    let last = session.act(get_kitchen).expect("acts");
    assert_eq!(last.outcome, Outcome::Ran, "{last:?}");
    assert!(last.diagnostics.is_empty(), "{last:?}");
    assert_eq!(session.waiting(), Vec::<usize>::new());
    assert_eq!(session.unbound(), Vec::<String>::new());
    let score = session.finish();
    let expected = common::file_score(&demo(), &session.file_name(), &session.network());
    assert_eq!((score.csv.clone(), score.json.clone()), expected);
    let row = score.result.expect("the network scores");
    assert_eq!(row.execution_time, session.execution_time());
}

#[test]
fn look_describes_what_the_kitchen_holds() {
    let (mut session, lines) = shortbread();
    let opening = session.opening();
    assert!(
        opening.kitchen.contains("fridge holds"),
        "{}",
        opening.kitchen
    );
    assert!(opening.places.iter().any(|p| p.place == "pantry"));
    let first = session.act(&lines[0]).expect("acts");
    assert_eq!(
        (first.ok, first.outcome, first.line),
        (true, Outcome::Ran, 2)
    );
    let fetched = session.act(&lines[1]).expect("acts");
    assert_eq!(fetched.objects[0].variable, "?proportioned-butter");
    assert!(
        fetched.objects[0].words.contains("115 g butter"),
        "{}",
        fetched.objects[0].words
    );
    let butter = session.look("?proportioned-butter").expect("bound");
    assert!(
        butter.text.starts_with("?proportioned-butter = a "),
        "{}",
        butter.text
    );
    assert!(
        butter.text.contains("holding 115 g butter at 5 °C"),
        "{}",
        butter.text
    );
    let counter = session.look("counter-top").expect("a place");
    assert!(counter.text.contains("115 g butter"), "{}", counter.text);
    let miss = session.look("fridg").expect_err("no such place");
    assert!(miss.to_string().contains("did you mean fridge"), "{miss}");
}

#[test]
fn bad_lines_are_located_with_did_you_mean() {
    let (mut session, lines) = shortbread();
    session.act(&lines[0]).expect("acts");
    let typo = session
        .act("(fecth-and-proportion ?b ?ks ?kitchen ?bowl butter 115 g)")
        .expect("an observation");
    assert_eq!(
        (typo.ok, typo.outcome, typo.line),
        (false, Outcome::Refused, 3)
    );
    let d = &typo.diagnostics[0];
    assert_eq!((d.line, d.column, d.code), (3, 2, Some("E0103")), "{d:?}");
    assert!(
        d.hint
            .as_deref()
            .unwrap_or("")
            .contains("fetch-and-proportion"),
        "{d:?}"
    );
    session.undo().expect("undoes");
    let ingredient = session
        .act("(fetch-and-proportion ?b ?ks ?kitchen ?bowl buter 115 g)")
        .expect("an observation");
    assert_eq!(ingredient.outcome, Outcome::Refused);
    let d = &ingredient.diagnostics[0];
    assert_eq!((d.line, d.column), (3, 45), "{d:?}");
    assert!(d.hint.as_deref().unwrap_or("").contains("butter"), "{d:?}");
    session.undo().expect("undoes");
    let syntax = session
        .act("(beat ?x ?ks ?kitchen ?bowl")
        .expect("an observation");
    assert_eq!(
        (syntax.outcome, syntax.diagnostics[0].line),
        (Outcome::Refused, 3)
    );
    session.undo().expect("undoes");
    let early = session.act(&lines[2]).expect("an observation");
    assert_eq!(early.outcome, Outcome::Waiting);
    let warning = &early.diagnostics[0];
    assert_eq!((warning.severity, warning.code), ("warning", Some("W0004")));
    let d = early.diagnostics.iter().find(|d| d.severity == "note");
    let d = d.expect("a note on why it waits");
    assert!(
        d.message
            .starts_with("?ks-with-butter (kitchen-state-in) is not bound"),
        "{d:?}"
    );
    assert_eq!((d.line, d.column), (3, 57), "{d:?}");
    // Given its input, the waiting action runs after the action that makes it.
    let then = session.act(&lines[1]).expect("acts");
    assert!(
        then.objects.iter().filter(|o| o.line == 3).count() >= 2,
        "{then:?}"
    );
    assert!(then.text.contains("then line 3 ran"), "{}", then.text);
}

#[test]
fn lines_out_of_bounds_are_errors_never_panics() {
    let (mut session, lines) = shortbread();
    let long = format!("(get-kitchen ?{})", "k".repeat(MAX_LINE_BYTES));
    assert!(matches!(
        session.act(&long),
        Err(SessionError::LineTooLong { .. })
    ));
    assert_eq!(session.act("(a)\n(b)"), Err(SessionError::NotOneLine));
    assert!(matches!(
        session.act("#afghan-biscuits"),
        Err(SessionError::Header { .. })
    ));
    assert_eq!(session.network(), "#demo-shortbread-rounds\n");
    // Every prefix of every gold line, and lines of odd characters, give observations.
    for line in &lines {
        for cut in (0..=line.len()).filter(|&c| line.is_char_boundary(c)) {
            session.act(&line[..cut]).expect("an observation");
            session.undo().expect("undoes");
        }
    }
    for odd in [
        "(",
        ")",
        "((((",
        "\t",
        "\r",
        "\u{feff}(get-kitchen ?k)",
        "(get-kitchen ?k ?k)",
        "(x 1/0)",
        "(bake \"s\")",
    ] {
        let o = session.act(odd).expect("an observation");
        assert!(!o.ok || o.outcome == Outcome::NoAction, "{odd:?}: {o:?}");
    }
    assert_eq!(session.network().lines().count(), 10);
}

#[test]
fn sessions_side_by_side_stay_independent() {
    fn is_send<T: Send>() {}
    is_send::<Session>();
    let (mut alone, lines) = shortbread();
    let solo: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| alone.act(l).expect("acts").json())
        .collect();
    let (mut a, _) = shortbread();
    let (mut b, _) = shortbread();
    let mut from_a = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        from_a.push(a.act(line).expect("acts").json());
        // b lags one line behind and takes each of its lines back once.
        if i > 0 {
            b.act(&lines[i - 1]).expect("acts");
            b.undo().expect("undoes");
            b.act(&lines[i - 1]).expect("acts");
        }
    }
    assert_eq!(from_a, solo);
    assert_eq!(a.finish().json, alone.finish().json);
    assert_ne!(b.network(), a.network());
    b.act(&lines[lines.len() - 1]).expect("acts");
    assert_eq!(b.finish().json, a.finish().json);
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let lines = lines.clone();
            std::thread::spawn(move || {
                let (mut s, _) = shortbread();
                lines
                    .iter()
                    .map(|l| s.act(l).map(|o| o.json()))
                    .collect::<Result<Vec<_>, _>>()
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().expect("no panic"), Ok(solo.clone()));
    }
}

#[test]
fn play_completes_the_word_after_a_space_of_several_bytes() {
    use cookingbot::benchmark::DataChoice;
    use cookingbot::service::context::DataContext;
    use cookingbot::service::play::{Play, PlayOptions};
    let opts = PlayOptions {
        log: None,
        recipe: "demo-shortbread-rounds".into(),
        data: DataContext {
            benchmark: Some(DataChoice::from(std::ffi::OsString::from("demo"))),
            ..DataContext::default()
        },
        output: None,
    };
    let play = Play::start(&opts).expect("the demo's session");
    // A no-break space (2 bytes) and an ideographic space (3 bytes) separate words too.
    for space in ['\u{a0}', '\u{3000}'] {
        let line = format!("(fetch-and-proportion{space}caster-su");
        let (start, words) = play.completion().complete(&line, line.len());
        assert_eq!(start, line.len() - "caster-su".len(), "{space:?}");
        assert_eq!(words, ["caster-sugar"], "{space:?}");
    }
}

/// What a line given to a session adds to the diagnostics as validating the whole network
/// again finds it (the session's semantics before it validated a line at a time): the line's
/// own errors and warnings, and the errors of the network it adds elsewhere, errors first,
/// each in the order the whole text's validation finds them.
fn whole_network_step(validator: &Validator, before: &str, line: &str) -> Vec<Diagnostic> {
    let all = |text: &str| {
        let mut parsed = parse_into(text, Diagnostics::unbounded());
        validator.validate_into(&parsed.file, &mut parsed.diagnostics);
        parsed.diagnostics.into_kept()
    };
    let key = |d: &Diagnostic| (d.span, d.kind, d.message.clone());
    let mut earlier: HashMap<_, usize> = HashMap::new();
    for d in all(before).iter().filter(|d| d.is_error()) {
        *earlier.entry(key(d)).or_default() += 1;
    }
    let (errors, warnings): (Vec<_>, Vec<_>) = all(&format!("{before}{line}\n"))
        .into_iter()
        .partition(Diagnostic::is_error);
    let new_errors = errors
        .into_iter()
        .filter(|d| match earlier.get_mut(&key(d)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        });
    let at = before.len();
    new_errors
        .chain(warnings.into_iter().filter(|d| d.span.start >= at))
        .collect()
}

/// Give `text` (a header, then lines) to a [`NetworkSoFar`] line by line: each line's
/// diagnostics are what validating the whole network again adds for it, and taking a line
/// back then giving it again gives the same. The lines given.
fn same_as_whole_network(validator: &Validator, text: &str, what: &str) -> usize {
    let (header, body) = text.split_once('\n').unwrap_or((text, ""));
    let mut so_far = NetworkSoFar::new(header);
    let mut before = format!("{header}\n");
    let lines: Vec<&str> = body
        .strip_suffix('\n')
        .unwrap_or(body)
        .split('\n')
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let expected = whole_network_step(validator, &before, line);
        let got = so_far.add(validator, line, before.len());
        assert_eq!(
            got.diagnostics,
            expected,
            "{what}, line {}: {line:?}",
            i + 2
        );
        if i % 3 == 1 {
            so_far.undo();
            let again = so_far.add(validator, line, before.len());
            assert_eq!(again.diagnostics, expected, "{what}, line {} again", i + 2);
        }
        before.push_str(line);
        before.push('\n');
    }
    lines.len()
}

/// Scripts a hostile agent writes: dense lines of unknown names and repeated variables, a
/// network without or with several get-kitchens, actions nobody reads, outputs made twice,
/// unknown primitives sharing variables, cycles.
fn hostile_scripts(recipe: &str) -> Vec<String> {
    let dense = |head: &str, arg: &str, n: usize| format!("{head} {})", vec![arg; n].join(" "));
    let script = |lines: Vec<String>| format!("#{recipe}\n{}\n", lines.join("\n"));
    vec![
        script(vec![dense("(fetch ?b ?c ?ks0", "zq", 1_350); 12]),
        script(vec![dense("(fetch ?a ?a", "?a", 1_350); 12]),
        script(vec![
            "(fetch ?b ?ks1 ?ks0 medium-bowl 1)".into(),
            "(get-kitchen ?ks0)".into(),
            "(get-kitchen ?ks9)".into(),
            "(get-kitchen ?ks8)".into(),
            "; a comment".into(),
            "(fetch ?b ?ks2 ?ks1 large-bowl 1)".into(),
            "(frobnicate ?b ?ks2 ?x)".into(),
            "(fetch ?x ?ks3 ?ks2 medium-bowl 1)".into(),
            "(mix ?m ?ks4 ?ks3 ?m ?whisk)".into(),
            "(transfer-contents ?t ?r ?ks5 ?ks4 ?t ?b ?q)".into(),
            "  (indented ?a)".into(),
            "(fetch ?y ?ks6 ?ks5 medium-bowl 1d0) trailing".into(),
            "(get-kitchen)".into(),
            "(fetch ?z ?ks7 ?ks7 medium-bowl 1)".into(),
        ]),
    ]
}

/// A line validated against what the lines before it established adds exactly what
/// validating the whole network again adds, on every stored campaign network of both
/// profiles (every second one), the gold networks and hostile scripts.
#[test]
fn a_line_validated_alone_adds_what_the_whole_network_adds() {
    common::require_data!(Profile::R2024, Profile::R2023);
    for profile in [Profile::R2024, Profile::R2023] {
        let ev = common::benchmark_evaluator(profile);
        let ids = ev.benchmark.ids();
        let validator = ev.model.validator().with_known_recipes(&ids);
        let mut lines = 0;
        for (id, text) in common::campaign_networks(&ev, profile, 2) {
            for (_, section) in common::benchmark_sections(&ev, &text) {
                lines += same_as_whole_network(&validator, &section, &id);
            }
        }
        for gold in &ev.benchmark.recipes {
            let text = gold_script(&ev.benchmark, &gold.id).expect("a gold network");
            lines += same_as_whole_network(&validator, &text, &gold.id);
        }
        for (i, script) in hostile_scripts("afghan-biscuits").iter().enumerate() {
            lines += same_as_whole_network(&validator, script, &format!("hostile script {i}"));
        }
        assert!(lines > 10_000, "{profile}: {lines} lines");
    }
}

/// A session of dense lines (1,350 unknown names each): every step reports its own line's
/// 2,700 errors, whatever the network before it, and the finished network's refusal keeps
/// the first 100 errors and counts the rest.
#[test]
fn dense_lines_each_report_their_own_errors_and_the_refusal_counts_the_rest() {
    let ev = demo();
    let mut session = Session::with_evaluator(ev, "demo-shortbread-rounds").expect("a demo recipe");
    let zq = vec!["zq"; 1_350].join(" ");
    let dense = format!("(fetch ?b ?c ?ks0 {zq})");
    assert!(dense.len() <= MAX_LINE_BYTES);
    for step in 0..40 {
        let seen = session.act(&dense).expect("acts");
        let line = step + 2;
        assert_eq!(seen.outcome, Outcome::Refused, "line {line}");
        let codes = |code: &str| {
            let of = |d: &&Located| d.code == Some(code);
            seen.diagnostics.iter().filter(of).count()
        };
        // The arity, each repeated `zq` after the first, each unknown `zq`; at the header the
        // missing get-kitchen, when the first line changes it.
        assert_eq!(
            (codes("E0104"), codes("E0102"), codes("E0106")),
            (1, 1_349, 1_350),
            "line {line}"
        );
        let elsewhere: Vec<usize> = seen
            .diagnostics
            .iter()
            .map(|d| d.line)
            .filter(|&l| l != line)
            .collect();
        assert_eq!(elsewhere, if step == 0 { vec![1] } else { vec![] });
    }
    let refusal = session.finish().result.expect_err("refused");
    assert_eq!(refusal.diagnostics.len(), MAX_RENDERED);
    assert_eq!(refusal.diagnostics.errors(), 1 + 40 * 2_700);
    assert_eq!(refusal.diagnostics.unkept(), 1 + 40 * 2_700 - MAX_RENDERED);
    let rendered = refusal.render(&session.file_name(), &session.network());
    assert!(
        rendered.ends_with(&format!(
            "demo-shortbread-rounds.solution: and {} more diagnostic(s), not shown\n",
            40 * 2_700 + 1 - MAX_RENDERED
        )),
        "{}",
        &rendered[rendered.len().saturating_sub(300)..]
    );
}

/// A session of the demo's shortbread with its first `n` gold lines given.
fn shortbread_after(n: usize) -> (Session, Vec<String>) {
    let (mut session, lines) = shortbread();
    for line in &lines[..n] {
        let seen = session.act(line).expect("acts");
        assert_eq!(seen.outcome, Outcome::Ran, "{seen:?}");
    }
    (session, lines)
}

/// A fetch of an ingredient the kitchen lacks runs as the reference runs it, but makes a
/// failed object: the line is `failed`, not ok, and says what was looked for and where.
#[test]
fn a_fetch_of_what_the_kitchen_lacks_fails_and_says_why() {
    let (mut session, _) = shortbread_after(1);
    let seen = session
        .act("(fetch-and-proportion ?bacon ?ks-bacon ?kitchen ?bowl bacon 100 g)")
        .expect("acts");
    assert_eq!(
        (seen.ok, seen.outcome, seen.line),
        (false, Outcome::Failed, 3)
    );
    let why = "the kitchen holds no bacon: looked in kitchen sink, stove, microwave, counter \
               top, oven, fridge, freezer, pantry, kitchen cabinet";
    assert_eq!(seen.objects[0].failed.as_deref(), Some(why), "{seen:?}");
    assert!(
        seen.text.starts_with(
            "fetch-and-proportion ran but made a failed object: ?bacon = a failed object"
        ),
        "{}",
        seen.text
    );
    let warning = &seen.diagnostics[0];
    assert_eq!(
        (warning.severity, warning.line, warning.message.as_str()),
        (
            "warning",
            3,
            format!("fetch-and-proportion made a failed object: {why}").as_str()
        )
    );
    // Advice only: the network and its score are the file's.
    let score = session.finish();
    let expected = common::file_score(&demo(), &session.file_name(), &session.network());
    assert_eq!((score.csv.clone(), score.json.clone()), expected);
}

/// An action whose output variable is bound already, or whose bound input holds the wrong
/// kind of thing, can never run: `never`, apart from `waiting`, whose input is only not bound
/// yet; `finish` on the network says which line keeps it from making a dish.
#[test]
fn never_is_told_apart_from_waiting() {
    let (mut session, _) = shortbread_after(2);
    let waiting = session
        .act("(beat ?whipped ?ks-whipped ?ks-with-butter ?bowl-later ?whisk)")
        .expect("acts");
    assert_eq!(
        (waiting.ok, waiting.outcome),
        (false, Outcome::Waiting),
        "{waiting:?}"
    );
    assert_eq!(
        session.undo().as_deref(),
        Ok("(beat ?whipped ?ks-whipped ?ks-with-butter ?bowl-later ?whisk)")
    );
    let bound = session
        .act("(fetch-and-proportion ?proportioned-butter ?ks-again ?ks-with-butter ?bowl-2 butter 50 g)")
        .expect("acts");
    assert_eq!(
        (bound.ok, bound.outcome),
        (false, Outcome::Never),
        "{bound:?}"
    );
    assert_eq!(
        bound.text,
        "fetch-and-proportion can never run in this network: ?proportioned-butter \
         (container-with-ingredient) is bound already, and this primitive makes it: an output \
         needs a new variable; undo() takes the line back"
    );
    assert!(session.undo().is_ok());
    let knife = session
        .act("(fetch ?knife ?ks-knife ?ks-with-butter knife 1)")
        .expect("acts");
    assert_eq!(knife.outcome, Outcome::Ran, "{knife:?}");
    let mistyped = session
        .act("(beat ?whipped ?ks-whipped ?ks-knife ?knife ?whisk)")
        .expect("acts");
    assert_eq!(
        (mistyped.ok, mistyped.outcome),
        (false, Outcome::Never),
        "{mistyped:?}"
    );
    assert_eq!(
        mistyped.text,
        "beat can never run in this network: ?knife (container-with-ingredients) holds a \
         knife, not a transferable-container; undo() takes the line back"
    );
    let score = session.finish();
    let expected = common::file_score(&demo(), &session.file_name(), &session.network());
    assert_eq!((score.csv.clone(), score.json.clone()), expected);
    assert_eq!(
        score.why_no_dish.as_deref(),
        Some(
            "line 5 (beat) can never run in this network; 16 of 17 gold goals never reached: \
             (bring-to-temperature ?soft-butter ?ks-with-soft-butter ?ks-with-butter \
             ?proportioned-butter ?room-temp-quantity ?room-temp-unit), (fetch-and-proportion \
             ?proportioned-sugar ?ks-with-sugar ?ks-with-soft-butter ?target-container-2 \
             caster-sugar 55 g), (fetch-and-proportion ?proportioned-flour ?ks-with-flour \
             ?ks-with-sugar ?target-container-3 all-purpose-flour 180 g), (preheat-oven \
             ?preheated-oven ?ks-with-preheated-oven ?ks-with-flour ?oven 170 degrees-celsius), \
             (transfer-contents ?output-container-a ?rest-a ?output-ks-a ?ks-with-preheated-oven \
             ?empty-bowl ?soft-butter ?quantity-a ?unit-a) and 11 more"
        )
    );
}

/// An action given a kitchen state an earlier action took already forks the kitchen: it runs,
/// with a warning at the argument that says which line took it and the times of both.
#[test]
fn an_older_kitchen_state_forks_the_kitchen_with_a_warning() {
    let (mut session, lines) = shortbread_after(3);
    assert!(lines[2].contains("?ks-with-butter ?proportioned-butter"));
    let forked = session
        .act("(fetch-and-proportion ?sugar ?ks-sugar ?ks-with-butter ?bowl-s caster-sugar 55 g)")
        .expect("acts");
    assert_eq!(forked.outcome, Outcome::Ran, "{forked:?}");
    let warning = &forked.diagnostics[0];
    assert_eq!(
        (
            warning.severity,
            warning.line,
            warning.column,
            warning.message.as_str()
        ),
        (
            "warning",
            5,
            40,
            "?ks-with-butter was given to line 4 already: the kitchen forks here, and this \
             action does not see what line 4 and the actions after it did (this kitchen is at \
             0:30, the latest at 0:30)"
        )
    );
}

/// Progress is the gold goals reached by what ran and the best dish so far; asking for it
/// changes nothing, and it ends where the evaluation does.
#[test]
fn progress_counts_the_goals_reached_so_far() {
    let (mut session, lines) = shortbread();
    let start = session.progress().expect("the gold runs");
    assert_eq!(
        (start.goals_reached, start.goal_share, start.dish_line),
        (0, 0.0, None)
    );
    for line in &lines[..2] {
        session.act(line).expect("acts");
    }
    let network = session.network();
    let two = session.progress().expect("the gold runs");
    assert_eq!(session.network(), network);
    assert_eq!(
        two.text,
        "1 of 17 goals of the recipe reached (6 %); best dish so far: 0.19 (line 3)"
    );
    for line in &lines[2..] {
        session.act(line).expect("acts");
    }
    let end = session.progress().expect("the gold runs");
    let row = session.finish().result.expect("scores");
    assert_eq!(
        (end.goals_reached, end.goals, end.goal_share),
        (17, 17, 1.0)
    );
    assert_eq!(end.dish_score, row.dish_approximation_score);
    assert_eq!(end.dish_line, Some(19));
}

/// Progress after a line taken back and another given is the progress of a session that was
/// only given the lines that stand: what was measured of the line taken back is forgotten.
#[test]
fn progress_after_undo_is_that_of_the_lines_that_stand() {
    let (mut session, lines) = shortbread();
    for line in &lines[..4] {
        session.act(line).expect("acts");
        session.progress().expect("the gold runs");
    }
    assert!(session.undo().is_ok());
    let other = "(fetch-and-proportion ?flour ?ks-flour ?ks-with-soft-butter ?bowl-f all-purpose-flour 180 g)";
    session.act(other).expect("acts");
    let measured = session.progress().expect("the gold runs");
    let (mut fresh, _) = shortbread();
    for line in lines[..3].iter().map(String::as_str).chain([other]) {
        fresh.act(line).expect("acts");
    }
    assert_eq!(measured, fresh.progress().expect("the gold runs"));
    assert_eq!(
        measured.text,
        "3 of 17 goals of the recipe reached (18 %); best dish so far: 0.21 (line 5)"
    );
}

/// Cracking salt (the kitchen's is coarse salt) runs as the reference runs it, with a warning
/// in plain words at the argument: crack is meant for eggs. Cracking an egg is not warned, and
/// the network scores as its file.
#[test]
fn a_primitive_on_an_ingredient_it_is_not_meant_for_is_warned() {
    let mut session = Session::with_evaluator(demo(), "demo-garden-salad").expect("demo");
    for line in [
        "(get-kitchen ?kitchen)",
        "(fetch-and-proportion ?salt ?ks-salt ?kitchen ?bowl-1 salt 5 g)",
        "(fetch-and-proportion ?egg ?ks-egg ?ks-salt ?bowl-2 egg 1 piece)",
    ] {
        let seen = session.act(line).expect("acts");
        assert_eq!(seen.outcome, Outcome::Ran, "{seen:?}");
    }
    let cracked = session
        .act("(crack ?cracked-salt ?ks-cracked ?ks-egg ?salt ?bowl-3)")
        .expect("acts");
    assert_eq!(
        (cracked.ok, cracked.outcome),
        (true, Outcome::Ran),
        "{cracked:?}"
    );
    // The reference makes an egg of every gram of salt.
    assert!(
        cracked.text.starts_with(
            "crack ran: ?cracked-salt = a medium bowl (used) holding 5 × 50 g whole egg"
        ),
        "{}",
        cracked.text
    );
    let warnings: Vec<(usize, usize, &str)> = (cracked.diagnostics.iter())
        .map(|d| (d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        [(
            5,
            42,
            "crack on coarse salt makes no culinary sense: crack is meant for eggs, and ?salt \
             holds coarse salt (it runs all the same, as the reference runs it)"
        )]
    );
    assert_eq!(cracked.diagnostics[0].severity, "warning");
    let egg = session
        .act("(crack ?cracked-egg ?ks-cracked-egg ?ks-cracked ?egg ?bowl-4)")
        .expect("acts");
    assert_eq!(egg.outcome, Outcome::Ran, "{egg:?}");
    assert!(egg.diagnostics.is_empty(), "{egg:?}");
    let score = session.finish();
    let expected = common::file_score(&demo(), &session.file_name(), &session.network());
    assert_eq!((score.csv.clone(), score.json.clone()), expected);
}

/// The classes the words file names (what a primitive is meant for, what an argument read by
/// its class takes) are classes of both profiles' ontologies.
#[test]
fn the_classes_of_the_primitive_words_are_the_ontologys() {
    for profile in Profile::ALL {
        let model = cookingbot::simulation::Model::builtin(profile);
        for (name, words) in primitive_words::builtin() {
            let named = (words.meant_for.values())
                .flat_map(|m| m.classes.iter())
                .chain(words.by_class.values());
            for class in named {
                assert!(
                    model.onto.class_id(class).is_some(),
                    "{profile} {name}: {class}"
                );
            }
        }
    }
}
