//! `substitute` and `scale` as users run them: answers written whole or not at all, the
//! rewritten network beside, the evaluation agreeing with the answer, and bad input refused
//! with a clear message and a non-zero exit, never a panic.

use crate::common::{self, Scratch, evaluator, outcome, require_data};

fn afghan() -> String {
    common::gold_file("afghan-biscuits").display().to_string()
}

#[test]
fn substitute_writes_its_answer_and_the_network_that_the_evaluation_scores_alike() {
    require_data!();
    let dir = Scratch::new("substitute-json");
    let (answer, network) = (dir.path("answer.json"), dir.path("coconut.solution"));
    let o = outcome(evaluator().args([
        "substitute",
        &afghan(),
        "--replace",
        "butter=coconut-oil",
        "--format",
        "json",
        "-o",
        answer.to_str().unwrap(),
        "--network-output",
        network.to_str().unwrap(),
    ]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout, "");
    let json: serde_json::Value = serde_json::from_str(&common::read(&answer)).unwrap();
    assert_eq!(json["replace"], "butter");
    assert_eq!(json["with"], "coconut-oil");
    assert_eq!(json["amount_rule"], "same-weight");
    assert_eq!(json["executes"], true);
    let against = &json["against_original"];
    assert_eq!(against["dish_approximation_score"], 0.72);
    assert_eq!(against["goal_condition_success"]["numerator"], 22);
    assert_eq!(against["execution_time"], 2735);
    assert_eq!(against["dish"]["missing"], serde_json::json!(["butter"]));
    assert_eq!(json["changes"][0]["line"], 3);
    assert_eq!(json["network"].as_str().unwrap(), common::read(&network));
    let scored =
        outcome(evaluator().args(["-input", network.to_str().unwrap(), "-output", "-", "-q"]));
    assert_eq!(scored.code, 0, "{}", scored.stderr);
    assert_eq!(
        scored.stdout,
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\nafghan-biscuits,0.55,0.72,2735\n"
    );
}

#[test]
fn scale_by_two_then_a_half_writes_back_the_network_as_written() {
    require_data!();
    let dir = Scratch::new("scale-back");
    let (twice, back, same) = (
        dir.path("twice.solution"),
        dir.path("back.solution"),
        dir.path("same.solution"),
    );
    for (input, factor, network) in [
        (afghan(), "2", &twice),
        (twice.display().to_string(), "0.5", &back),
        (afghan(), "1", &same),
    ] {
        let o = outcome(evaluator().args([
            "scale",
            &input,
            "--factor",
            factor,
            "--network-output",
            network.to_str().unwrap(),
            "-o",
            "/dev/null",
        ]));
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    assert_eq!(common::read(&back), common::read(&same));
    assert!(common::read(&twice).contains(" butter 400 g)"));
    let o = outcome(evaluator().args(["scale", &afghan(), "--servings", "6", "--serves", "4"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.starts_with("afghan-biscuits scaled by 1.5\n"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("  butter: 200 g → 300 g (20.3 % → 20.3 %)\n"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("Every proportion of the dish is kept.\n"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("  portions of action 26: 32 → 47\n"),
        "{}",
        o.stdout
    );
}

#[test]
fn answers_print_amounts_as_a_cook_reads_them_and_the_network_keeps_them_exact() {
    require_data!();
    let snaps = common::gold_file("whole-wheat-ginger-snaps")
        .display()
        .to_string();
    let o = outcome(evaluator().args([
        "substitute",
        &snaps,
        "--replace",
        "baking-powder=baking-soda",
        "--amount-rule",
        "same-weight",
    ]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains(
            "    (the same weight: 2 teaspoon of baking-powder weigh 8 g, as 1.6 teaspoon of baking-soda)\n"
        ),
        "{}",
        o.stdout
    );
    // The network line is the network: exact, as the simulator reads it.
    assert!(
        o.stdout.contains(" baking-soda 8/5 teaspoon)\n"),
        "{}",
        o.stdout
    );
    let json = outcome(evaluator().args([
        "substitute",
        &snaps,
        "--replace",
        "baking-powder=baking-soda",
        "--amount-rule",
        "same-weight",
        "--format",
        "json",
    ]));
    let json: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(
        json["network"]
            .as_str()
            .unwrap()
            .contains(" baking-soda 8/5 teaspoon)")
    );
    let banana = common::gold_file("easy-banana-bread").display().to_string();
    let o = outcome(evaluator().args(["scale", &banana, "--factor", "3/2"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .contains("    (3 piece × 1.5 = 4\u{bd} piece, rounded to 5 piece)\n"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains(
            "Rounded: action 5 (line 6): 3 piece banana × 1.5 = 4\u{bd} piece → 5 piece (× 1.67)\n"
        ),
        "{}",
        o.stdout
    );
    let snaps = outcome(evaluator().args(["scale", &snaps, "--factor", "0.8"]));
    assert!(
        snaps
            .stdout
            .contains("    (2 teaspoon × 0.8 = 1.6 teaspoon)\n"),
        "{}",
        snaps.stdout
    );
    // Text for people never holds a ratio but in the network's own lines.
    for line in o.stdout.lines().chain(snaps.stdout.lines()) {
        let network_line = line.contains("): (") || line.contains("now: (");
        let ratio = line.split([' ', ')']).any(|w| {
            w.split_once('/')
                .is_some_and(|(n, d)| n.parse::<u64>().is_ok() && d.parse::<u64>().is_ok())
        });
        assert!(network_line || !ratio, "a ratio for people: {line}");
    }
}

/// A command's arguments: the first ones, then the rest.
fn args<'a>(first: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    [first, rest].concat()
}

/// Runs each case's arguments with `-o ANSWER` added (unless they name their own `-o`): each
/// must exit with its code, say its message and write no answer.
fn refused_writing_nothing(dir: &Scratch, cases: &[(Vec<&str>, i32, &str)]) {
    let answer = dir.path("answer.json");
    for (args, code, message) in cases {
        let mut command = evaluator();
        command.args(args);
        if !args.contains(&"-o") {
            command.arg("-o").arg(&answer);
        }
        let o = outcome(&mut command);
        assert_eq!(o.code, *code, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(message), "{args:?}: {}", o.stderr);
        assert!(!answer.exists(), "{args:?} wrote an answer");
    }
}

#[test]
fn bad_substitutions_are_refused_with_what_is_wrong_and_nothing_written() {
    require_data!();
    let a = afghan();
    let replace = |what, rest: &[&'static str]| args(&["substitute", &a, "--replace", what], rest);
    let cases = [
        (
            replace("buter=coconut-oil", &[]),
            1,
            "error: no ingredient `buter` in the ontology; did you mean butter, water?",
        ),
        (
            replace("white-sugar=brown-sugar", &[]),
            1,
            "error: `white-sugar` is not in the network of afghan-biscuits",
        ),
        (replace("butter", &[]), 2, "is not FROM=TO"),
        (
            replace("butter=coconut-oil", &["--amount-rule", "same-wieght"]),
            2,
            "did you mean same-weight?",
        ),
        (
            replace("butter=coconut-oil", &["--recipe", "cole-slaw"]),
            1,
            "no recipe `cole-slaw` in the file",
        ),
    ];
    refused_writing_nothing(&Scratch::new("rewrite-bad-substitute"), &cases);
}

#[test]
fn bad_scalings_are_refused_with_what_is_wrong_and_nothing_written() {
    require_data!();
    let dir = Scratch::new("rewrite-bad-scale");
    let broken = dir.write(
        "broken.solution",
        "#afghan-biscuits\n(get-kitchen ?k)\n(fetch ?x ?k2 ?k (\n",
    );
    let pieces = dir.write(
        "pieces.solution",
        "#afghan-biscuits\n(get-kitchen ?k)\n(fetch-and-proportion ?e ?k2 ?k ?bowl egg 20 piece)\n",
    );
    let afghan = afghan();
    let (a, broken, pieces) = (
        afghan.as_str(),
        broken.to_str().unwrap(),
        pieces.to_str().unwrap(),
    );
    let scale = |file, rest: &[&'static str]| args(&["scale", file], rest);
    let cases = [
        (scale(a, &["--factor", "0"]), 2, "factors are above 0"),
        (scale(a, &["--factor", "-2"]), 2, "factors are above 0"),
        (
            scale(a, &["--factor", "1000"]),
            2,
            "beyond what scale takes: from 1/100 to 100",
        ),
        (scale(a, &["--factor", "two"]), 2, "is not a number"),
        (scale(a, &["--servings", "4"]), 2, "--serves"),
        (
            scale(a, &["--servings", "0", "--serves", "4"]),
            2,
            "--servings 0: servings are counted from 1 to 10000",
        ),
        (
            args(&["scale", a, "--factor", "2", "-o"], &[a]),
            2,
            "is the input",
        ),
        (
            scale(broken, &["--factor", "2"]),
            1,
            "has errors; nothing was run",
        ),
        (
            scale(pieces, &["--factor", "100"]),
            1,
            "error: the rewritten network has errors; nothing was run",
        ),
    ];
    refused_writing_nothing(&dir, &cases);
}

#[test]
fn suggest_lists_the_roles_substitutes_tried_in_the_network() {
    require_data!();
    let o = outcome(evaluator().args(["substitute", &afghan(), "--suggest", "butter"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "Substitutes for butter, tried in afghan-biscuits against the original:\n  \
         salted-butter (solid-fat; strength factor 1, same-weight; the kitchen holds 500 g): executes; dish 0.72, goals 0.55, time 2735\n    \
         note: salted butter holds about 1.5 % salt: leave out about ¼ teaspoon of the recipe's salt per 100 g\n  \
         coconut-oil (solid-fat; strength factor 1, same-weight; the kitchen holds 460.5 g): executes; dish 0.72, goals 0.55, time 2735\n    \
         note: coconut oil is solid below about 24 °C: cream it cool; it holds no water and tastes of coconut, so the bake is a little shorter and sweeter-smelling\n"
    );
}

#[test]
fn suggest_with_a_diet_keeps_what_the_diet_table_allows() {
    require_data!();
    let o = outcome(evaluator().args([
        "substitute",
        &afghan(),
        "--suggest",
        "butter",
        "--diet",
        "vegan",
    ]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "Substitutes for butter (vegan), tried in afghan-biscuits against the original:\n  \
         coconut-oil (solid-fat; strength factor 1, same-weight; the kitchen holds 460.5 g): executes; dish 0.72, goals 0.55, time 2735\n    \
         note: coconut oil is solid below about 24 °C: cream it cool; it holds no water and tastes of coconut, so the bake is a little shorter and sweeter-smelling\n\
         butter is not vegan: dairy\n  \
         excluded: salted-butter (dairy)\n"
    );
    let json = outcome(evaluator().args([
        "substitute",
        "--suggest",
        "butter",
        "--diet",
        "vegan",
        "--format",
        "json",
    ]));
    assert_eq!(json.code, 0, "{}", json.stderr);
    let answer: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(answer["diet"], "vegan");
    assert_eq!(
        answer["excluded"],
        serde_json::json!([{"class": "salted-butter", "because": ["dairy"]}])
    );
    let classes: Vec<&str> = answer["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["class"].as_str().unwrap())
        .collect();
    assert_eq!(classes, ["coconut-oil"]);
    let typo = outcome(evaluator().args(["substitute", "--suggest", "butter", "--diet", "vegn"]));
    assert_eq!(typo.code, 2);
    assert!(
        typo.stderr.contains("`vegn` is not a diet")
            && typo.stderr.contains("did you mean `vegan`?"),
        "{}",
        typo.stderr
    );
}

#[test]
fn the_time_budget_bounds_both_runs() {
    let dir = Scratch::new("rewrite-budget");
    // 2^24 sets of executed actions, none of which runs the last action.
    let text = common::independent_actions("demo-garden-salad", "salt", 24);
    let net = dir.write("search.solution", text);
    let net = net.to_str().unwrap();
    let budget = ["--benchmark", "demo", "--timeout-per-recipe", "1"];
    for args in [
        vec!["substitute", net, "--replace", "salt=coarse-salt"],
        vec!["scale", net, "--factor", "2"],
    ] {
        let o = outcome(evaluator().args(budget).args(&args));
        assert_eq!(o.code, 1, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains("recipe demo-garden-salad was not scored within its time budget of 1 s (--timeout-per-recipe); it was in the simulation at action "),
            "{args:?}: {}",
            o.stderr
        );
        assert_eq!(o.stdout, "");
    }
}

/// The demo's garden salad, our own network.
fn garden_salad() -> String {
    common::read(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("gold/demo/garden-salad.solution"),
    )
}

#[test]
fn a_factor_over_the_least_integer_is_refused_not_a_crash() {
    let dir = Scratch::new("scale-least-denominator");
    let net = dir.write("salad.solution", garden_salad());
    let o = outcome(evaluator().args([
        "scale",
        net.to_str().unwrap(),
        "--benchmark",
        "demo",
        "--factor",
        "1/-9223372036854775808",
    ]));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "the factor `1/-9223372036854775808` is not a number (such as 2, 1.5 or 3/2)"
        ),
        "{}",
        o.stderr
    );
    assert_eq!(o.stdout, "");
}

#[test]
fn an_answer_and_a_network_written_to_one_file_are_refused_before_any_work() {
    let dir = Scratch::new("rewrite-one-output");
    let net = dir.write("salad.solution", garden_salad());
    let kept = dir.write("kept.txt", "mine\n");
    let cases = [
        (
            vec!["scale", "salad.solution", "--factor", "2"],
            "out.txt",
            "./out.txt",
        ),
        (
            vec![
                "substitute",
                "salad.solution",
                "--replace",
                "salt=coarse-salt",
            ],
            "kept.txt",
            kept.to_str().unwrap(),
        ),
    ];
    for (args, answer, network) in cases {
        let o = outcome(
            evaluator()
                .current_dir(dir.as_ref() as &std::path::Path)
                .args(["--benchmark", "demo"])
                .args(&args)
                .args(["-o", answer, "--network-output", network]),
        );
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert_eq!(
            o.stderr,
            format!(
                "error: -o {answer} and --network-output {network} are one file: the answer would replace the network; give each a path of its own\n"
            )
        );
    }
    assert!(!dir.path("out.txt").exists());
    assert_eq!(common::read(&kept), "mine\n");
    assert!(net.exists());
}

#[test]
fn the_substitutes_tried_share_the_recipes_time_budget() {
    let dir = Scratch::new("suggest-budget");
    // 2^24 sets of executed actions, none of which runs the last action.
    let text = common::independent_actions("demo-garden-salad", "butter", 24);
    let net = dir.write("search.solution", text);
    let o = outcome(
        evaluator()
            .args(["--benchmark", "demo", "--timeout-per-recipe", "1"])
            .args([
                "substitute",
                net.to_str().unwrap(),
                "--suggest",
                "butter",
                "--format",
                "json",
            ]),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let answer: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let errors: Vec<&str> = answer["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["tried"]["error"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].starts_with("recipe demo-garden-salad was not scored within its time budget of 1 s (--timeout-per-recipe); it was in the simulation at action "),
        "{}",
        errors[0]
    );
    assert_eq!(
        &errors[1..],
        [
            "not tried: the time budget of 1 s (--timeout-per-recipe) was spent on the substitutes before it"
        ]
    );
}

#[test]
fn an_amount_that_cannot_be_converted_is_located_at_its_action() {
    let dir = Scratch::new("substitute-located");
    let net = dir.write("salad.solution", garden_salad());
    let net = net.to_str().unwrap();
    let o = outcome(evaluator().args([
        "--benchmark",
        "demo",
        "substitute",
        net,
        "--replace",
        "extra-virgin-olive-oil=avocado",
        "--amount-rule",
        "same-volume",
    ]));
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "error: {net}:3:1: action 2 (fetch-and-proportion): same-volume: the gram table gives no grams per tablespoon of avocado, so the dish could not be weighed; try same-weight\n"
        )
    );
    assert_eq!(o.stdout, "");
}

#[test]
fn where_the_original_fails_as_the_reference_fails_is_located_at_its_action() {
    let dir = Scratch::new("rewrite-original-fails");
    // The dish approximation score cannot weigh egg-yolk: the evaluator refuses the file.
    let net = dir.write(
        "yolk.solution",
        "#demo-garden-salad\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?egg ?ks-1 ?kitchen ?bowl egg 1 piece)\n(separate-eggs ?yolk ?white ?ks-2 ?ks-1 ?egg ?bowl-2 ?bowl-3 ?separator)\n",
    );
    let net = net.to_str().unwrap();
    let o = outcome(evaluator().args(["--benchmark", "demo", "scale", net, "--factor", "2"]));
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "error: {net}:4:1: (separate-eggs ?yolk ?white ?ks-2 ?ks-1 ?egg ?bowl-2 ?bowl-3 ?separator): The ingredient EGG-YOLK has no entry in the conversion table!\n"
        )
    );
    assert_eq!(o.stdout, "");
}

/// With no benchmark data to be found (none installed, a download that fails), `substitute
/// --suggest` runs the network once per substitute and the original: it says so once.
#[test]
fn suggest_without_benchmark_data_warns_once() {
    let dir = Scratch::new("suggest-no-data");
    let network = dir.path("butter.solution");
    std::fs::write(
        &network,
        "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?butter ?ks-1 ?kitchen ?bowl butter 100 g)\n",
    )
    .unwrap();
    let o = outcome(
        std::process::Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"))
            .env_remove("COOKINGBOT_BENCHMARK")
            .env_remove(cookingbot::service::context::OFFLINE_VAR)
            .env("COOKINGBOT_DATA_DIR", dir.path("data"))
            .env("COOKINGBOT_FETCH_BASE_URL", "http://127.0.0.1:9")
            .args([
                "substitute",
                network.to_str().unwrap(),
                "--suggest",
                "butter",
            ]),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // Several substitutes were tried, each a run that asked for the data.
    let tried = o
        .stdout
        .lines()
        .filter(|l| l.contains(": executes"))
        .count();
    assert!(tried >= 2, "{}", o.stdout);
    let warnings: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", o.stderr);
    assert!(
        warnings[0].starts_with("warning: no benchmark data for profile 2024 was found"),
        "{}",
        o.stderr
    );
}
