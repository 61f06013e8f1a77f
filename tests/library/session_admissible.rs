//! What a session tells an agent it can do: the action language, the admissible lines and
//! the gold's hint, on every gold network of both profiles and on the demo.

use crate::common;
use cookingbot::agent::gold_script;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataSource;
use cookingbot::evaluate::Evaluator;
use cookingbot::language::ast::Arg;
use cookingbot::session::Session;
use cookingbot::session::admissible::{Candidate, MAX_LIMIT, Query};
use cookingbot::session::observation::Outcome;
use std::collections::HashSet;
use std::sync::Arc;

fn demo() -> Arc<Evaluator> {
    Arc::new(Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads"))
}

/// Whether `candidate` is the gold action `line` with the inputs it takes now: the same
/// inputs (kitchen state aside), each the same variable or class; free values match any
/// number or unit.
fn is_gold(
    candidate: &Candidate,
    line: &cookingbot::language::ast::Predicate,
    bound: &HashSet<String>,
    session: &Session,
) -> bool {
    let sig = session
        .model()
        .catalogue
        .get(&line.name)
        .expect("a primitive");
    let gold_inputs: Vec<(String, String)> = line
        .args
        .iter()
        .enumerate()
        .filter(|(i, _)| sig.args[*i].ty != "kitchen-state")
        .filter_map(|(i, a)| {
            let uses = match a {
                Arg::Var(v) if bound.contains(&**v) => format!("?{v}"),
                Arg::Var(_) => return None,
                other => other.to_string(),
            };
            Some((sig.args[i].name.clone(), uses))
        })
        .collect();
    let inputs: Vec<(String, String)> = candidate
        .inputs
        .iter()
        .map(|u| (u.argument.clone(), u.uses.clone()))
        .collect();
    candidate.primitive == line.name
        && inputs.len() == gold_inputs.len()
        && inputs.iter().zip(&gold_inputs).all(|((a, u), (b, g))| {
            a == b
                && (u == g
                    || candidate
                        .inputs
                        .iter()
                        .any(|x| &x.argument == a && x.kind == "free"))
        })
}

/// Every gold network of a profile, action by action: before each action, the gold's action
/// (its primitive, with the inputs bound so far) is admissible; one admissible line of the
/// default list per step, given to the session, runs and is taken back. Returns how many
/// sampled lines ran.
fn gold_actions_are_admissible(profile: Profile) -> usize {
    let ev = common::benchmark_evaluator(profile);
    let mut sampled = 0;
    for (r, gold) in ev.benchmark.recipes.iter().enumerate() {
        let mut session = Session::with_evaluator(ev.clone(), &gold.id).expect("a recipe");
        let mut bound: HashSet<String> = HashSet::new();
        for (step, action) in gold.network.predicates.iter().enumerate() {
            let using = action.args.iter().rev().find_map(|a| match a {
                Arg::Var(v)
                    if bound.contains(&**v)
                        && session
                            .model()
                            .catalogue
                            .get(&action.name)
                            .is_some_and(|s| {
                                s.args
                                    .iter()
                                    .zip(&action.args)
                                    .any(|(s, b)| b == a && s.ty != "kitchen-state")
                            }) =>
                {
                    Some(v.to_string())
                }
                _ => None,
            });
            let query = Query {
                limit: MAX_LIMIT,
                primitive: Some(action.name.clone()),
                using,
            };
            let found = session.admissible(&query);
            assert!(
                found.iter().any(|c| is_gold(c, action, &bound, &session)),
                "{profile} {} action {}: {action} is not among {:#?}",
                gold.id,
                step + 1,
                found.iter().map(|c| &c.line).collect::<Vec<_>>()
            );
            let offered = session.admissible(&Query::default());
            assert!(!offered.is_empty(), "{} action {}", gold.id, step + 1);
            let pick = &offered[(step * 31 + r * 17) % offered.len()];
            let seen = session
                .act(&pick.example)
                .expect("a line the session takes");
            // An admissible line runs: it may make a failed object, as the reference's actions
            // do, but it is never refused and never waits.
            assert!(
                matches!(seen.outcome, Outcome::Ran | Outcome::Failed),
                "{} action {}: {} gave {}",
                gold.id,
                step + 1,
                pick.example,
                seen.text
            );
            session.undo().expect("the sampled line taken back");
            sampled += 1;
            let seen = session.act(&action.to_string()).expect("the gold line");
            // A gold line runs as the evaluation runs it (one 2024 gold's own `top-with` makes a
            // failed object).
            assert!(
                matches!(
                    seen.outcome,
                    Outcome::Ran | Outcome::RunsWithFirst | Outcome::Failed
                ),
                "{}: {}",
                gold.id,
                seen.text
            );
            bound.extend(
                action
                    .args
                    .iter()
                    .filter_map(|a| a.as_var().map(str::to_string)),
            );
        }
    }
    sampled
}

#[test]
fn the_gold_action_is_admissible_at_every_step_and_admissible_lines_run() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let sampled =
        gold_actions_are_admissible(Profile::R2024) + gold_actions_are_admissible(Profile::R2023);
    assert!(sampled >= 1_000, "{sampled}");
    eprintln!("{sampled} sampled admissible lines ran");
}

/// Following the hint from an empty session writes the gold network: its evaluation is the
/// gold file's, CSV and JSON.
fn hints_rebuild_the_gold(profile: Profile) {
    let ev = common::benchmark_evaluator(profile);
    for gold in &ev.benchmark.recipes {
        let mut session = Session::with_evaluator(ev.clone(), &gold.id).expect("a recipe");
        let mut given = 0;
        while let Some(hint) = session.hint() {
            assert_eq!(hint.action, given + 1, "{}", gold.id);
            assert_eq!(hint.actions, gold.network.predicates.len());
            let seen = session.act(&hint.line).expect("a hint the session takes");
            // As the gold runs: one 2024 gold's own `top-with` makes a failed object.
            assert!(
                matches!(
                    seen.outcome,
                    Outcome::Ran | Outcome::RunsWithFirst | Outcome::Failed
                ),
                "{}: {} gave {}",
                gold.id,
                hint.line,
                seen.text
            );
            given += 1;
        }
        assert_eq!(given, gold.network.predicates.len(), "{}", gold.id);
        let text = gold_script(&ev.benchmark, &gold.id).expect("the recipe");
        let score = session.finish();
        let (csv, json) = common::file_score(&ev, &session.file_name(), &text);
        assert_eq!(
            score.csv,
            csv,
            "{}:\n{}\n{text}",
            gold.id,
            session.network()
        );
        assert_eq!(
            score.json["report"]["recipes"], json["report"]["recipes"],
            "{}",
            gold.id
        );
    }
}

#[test]
fn following_the_hint_from_an_empty_session_scores_as_the_gold_2024() {
    common::require_data!(Profile::R2024);
    hints_rebuild_the_gold(Profile::R2024);
}

#[test]
fn following_the_hint_from_an_empty_session_scores_as_the_gold_2023() {
    common::require_data!(Profile::R2023);
    hints_rebuild_the_gold(Profile::R2023);
}

/// The demo shortbread: the language is the catalogue's, the opening carries it, the first
/// admissible line is `get-kitchen` alone, then fetching butter is offered with its amount
/// as a placeholder bounded by what the kitchen holds; the hint names the agent's variables.
#[test]
fn the_demo_session_tells_its_language_admissible_lines_and_hint() {
    let mut session = Session::with_evaluator(demo(), "demo-shortbread-rounds").expect("demo");
    let primitives = session.primitives();
    assert_eq!(primitives.len(), session.model().catalogue.len());
    assert!(
        session
            .opening()
            .language
            .contains("\n(get-kitchen ?ks-out) ; the kitchen as the recipe starts")
    );
    let first = session.admissible(&Query::default());
    let lines: Vec<&str> = first.iter().map(|c| c.line.as_str()).collect();
    assert_eq!(lines, ["(get-kitchen ?ks-1)"]);
    assert_eq!(
        session.hint().map(|h| h.line),
        Some("(get-kitchen ?kitchen)".to_string())
    );
    session.act("(get-kitchen ?k)").expect("acts");
    let butter = session.admissible(&Query {
        limit: MAX_LIMIT,
        primitive: Some("fetch-and-proportion".into()),
        using: None,
    });
    let fetch = butter
        .iter()
        .find(|c| c.inputs.iter().any(|u| u.uses == "butter") && c.inputs.len() == 3)
        .expect("butter is offered");
    assert_eq!(
        fetch.line,
        "(fetch-and-proportion ?container-with-ingredient-1 ?ks-1 ?k ?target-container-1 butter <quantity> <unit>)"
    );
    assert_eq!(fetch.placeholders[0].kind, "amount");
    assert!(
        fetch.placeholders[0]
            .bound
            .starts_with("an amount of butter: at most "),
        "{}",
        fetch.placeholders[0].bound
    );
    let seen = session.act(&fetch.example).expect("acts");
    assert_eq!(seen.outcome, Outcome::Ran, "{}", seen.text);
    session.undo().expect("undoes");
    // The hint chains from the agent's kitchen state `?k`.
    assert_eq!(
        session.hint().map(|h| (h.line, h.action, h.actions)),
        Some((
            "(fetch-and-proportion ?proportioned-butter ?ks-with-butter ?k ?target-container-1 butter 115 g)".to_string(),
            2,
            18
        ))
    );
    let using = session.admissible(&Query {
        limit: 10,
        primitive: None,
        using: Some("?nothing".into()),
    });
    assert!(using.is_empty());
}
