//! The agent session (`cookingbot::service::session`): gold and campaign networks given line by line
//! run in file order and finish exactly as their files are evaluated; undo, look, bad lines
//! and sessions side by side.

use crate::common;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataSource;
use cookingbot::evaluate::Evaluator;
use cookingbot::language::diagnostic::{Diagnostic, Diagnostics, MAX_RENDERED};
use cookingbot::language::parse::parse_into;
use cookingbot::language::validate::Validator;
use cookingbot::language::validate::so_far::NetworkSoFar;
use cookingbot::metrics::metric::Metric;
use cookingbot::service::agent::gold_script;
use cookingbot::service::session::observation::{Located, Observation, Outcome};
use cookingbot::service::session::{MAX_LINE_BYTES, Session, SessionError};
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
    let mut session = Session::with_evaluator(ev.clone(), recipe).expect("a benchmark recipe");
    let body = text.strip_suffix('\n').unwrap_or(text);
    let observations = body
        .split('\n')
        .enumerate()
        .filter(|(i, line)| !(*i == 0 && *line == format!("#{recipe}")))
        .map(|(_, line)| {
            let id = session.network().lines().count();
            session
                .act(line)
                .unwrap_or_else(|e| panic!("{recipe}, after line {id}: {line:?}: {e}"))
        })
        .collect();
    (session, observations)
}

/// Every gold network of a profile, given action by action: each runs when given, and
/// `finish` scores the network as its file is scored: Smatch 1 against itself, the
/// reference's values for the gold file (`tests/data/reference/<profile>/gold.tsv`), and the
/// execution time of what ran in file order.
fn gold_replay(profile: Profile) {
    common::require_data!(profile);
    let ev = common::benchmark_evaluator(profile);
    let reference = common::reference_rows(profile.name(), "gold.tsv");
    let (mut replayed, mut against_reference) = (0, 0);
    for gold in &ev.benchmark.recipes {
        let text = gold_script(&ev.benchmark, &gold.id).expect("the recipe is the benchmark's");
        let (session, observations) = replay(&ev, &gold.id, &text);
        let opening = session.opening();
        let recipe_text = opening.recipe_text.unwrap_or_default();
        assert!(recipe_text.contains("\nIngredients:\n- "), "{}", gold.id);
        assert_eq!(opening.time, serde_json::json!(0));
        for o in &observations {
            assert!(o.ok, "{} line {}: {}", gold.id, o.line, o.text);
            assert!(matches!(o.outcome, Outcome::Ran | Outcome::RunsWithFirst));
        }
        assert_eq!(session.network(), text);
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
         {against_reference} scored as the reference scores their gold file"
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
}

/// One campaign network, section by section: the session's network is the section's text,
/// its score the section's, and every line that does not run says why, at its line.
fn campaign_network(ev: &Arc<Evaluator>, id: &str, text: &str, tally: &mut Tally) {
    tally.networks += 1;
    let recipes = common::benchmark_sections(ev, text);
    tally.headless += common::sections(text).len() - recipes.len();
    for (recipe, section) in recipes {
        let (session, observations) = replay(ev, &recipe, &section);
        assert_eq!(session.network(), section, "{id}");
        let score = session.finish();
        let expected = common::file_score(ev, &session.file_name(), &section);
        assert_eq!((score.csv.clone(), score.json.clone()), expected, "{id}");
        for o in observations.iter().filter(|o| !o.ok) {
            assert!(
                !o.text.is_empty() && !o.diagnostics.is_empty(),
                "{id}: {o:?}"
            );
            if o.outcome == Outcome::Waiting {
                tally.waited += 1;
                // Its notes are at its line; anything else is the recipe's, at its header
                // (the network still lacks its get-kitchen).
                assert!(
                    o.diagnostics
                        .iter()
                        .all(|d| d.line == o.line || d.line == 1),
                    "{id}: {o:?}"
                );
            } else {
                assert_eq!(o.outcome, Outcome::Refused, "{id}");
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
    // Every kind of outcome is met: refusals, waiting actions, complete first paths.
    for t in [&a, &b] {
        assert!(t.refused > 0 && t.waited > 0 && t.same_time > 0, "{t:?}");
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

/// Portions heaped on the counter-top until an action would hold more than the memory budget:
/// that action is refused where it is, and the session answers on.
#[test]
fn an_action_past_the_memory_budget_is_refused_and_the_session_goes_on() {
    let mut session =
        Session::with_evaluator(demo(), "demo-shortbread-rounds").expect("a demo recipe");
    let heap = common::portion_heap("demo-shortbread-rounds", "butter", 24);
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
    assert_eq!((refused.outcome, refused.line), (Outcome::Refused, 50));
    let budget = "recipe demo-shortbread-rounds was not scored within its memory budget of \
                  24000000 kitchen cells (objects, their slots and list items, about 1 GB); \
                  it was in the simulation at action 49 (`portion-and-arrange`)";
    assert_eq!(
        refused.text,
        format!("portion-and-arrange was refused by the recipe's budget: {budget}")
    );
    assert_eq!(refused.diagnostics[0].message, budget);
    // The kitchen state before the refused action is there to go on from, and what the refused
    // action made is not counted: the next line runs.
    let oven = session
        .act("(preheat-oven ?hot-oven ?ks-oven ?ks23 ?oven 180 degrees-celsius)")
        .expect("acts");
    assert_eq!(oven.outcome, Outcome::Ran, "{}", oven.text);
    // Taken back to line 48 and given again, line 49 runs again and line 50 is refused again.
    assert!(session.undo().is_ok() && session.undo().is_ok() && session.undo().is_ok());
    let line = |n: usize| heap.lines().nth(n - 1).expect("a line of the heap");
    assert_eq!(session.act(line(49)).expect("acts").outcome, Outcome::Ran);
    assert_eq!(session.act(line(50)).expect("acts"), *refused);
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
