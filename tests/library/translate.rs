//! Recipe text → network: the three input forms, the rule-based translator on our own
//! recipes and (when the data is there) on every benchmark recipe, and the `translate`
//! command.

use crate::common;

use cookingbot::profile::Profile;
use cookingbot::simulation::Model;
use cookingbot::translate::recipe_text::{self, RecipeText};
use cookingbot::translate::rules::RulesTranslator;
use cookingbot::translate::{Translator, check_solution};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/translate")
        .join(name)
}

#[test]
fn reads_benchmark_style_xml() {
    let r = recipe_text::read(&fixture("lemonade.xml")).unwrap();
    assert_eq!(
        r,
        RecipeText {
            id: "lemon-sugar-water".into(),
            title: "Lemon & Sugar Water".into(),
            ingredients: vec![
                "1/2 cup lemon juice".into(),
                "2 tablespoons white sugar".into(),
                "1 l water".into()
            ],
            instructions: vec![
                "Combine the lemon juice, sugar and water in a large bowl.".into(),
                "Stir until the sugar dissolves, then refrigerate for 1 hour.".into()
            ],
        }
    );
}

#[test]
fn reads_plain_text_with_headings_and_bullets() {
    let r = recipe_text::read(&fixture("butter-cookies.txt")).unwrap();
    assert_eq!(r.id, "butter-cookies");
    assert_eq!(
        r.ingredients,
        [
            "115 g butter, softened",
            "½ cup white sugar",
            "1 1/2 cups all-purpose flour"
        ]
    );
    assert_eq!(r.instructions.len(), 4);
    assert_eq!(r.instructions[0], "Preheat the oven to 350°F.");
}

#[test]
fn reads_plain_text_split_by_a_blank_line() {
    let r = recipe_text::from_text("# toast\n1 white bread slice\n\nBake for 5 minutes.\n", "x")
        .unwrap();
    assert_eq!(r.id, "toast");
    assert_eq!(r.ingredients, ["1 white bread slice"]);
    assert_eq!(r.instructions, ["Bake for 5 minutes."]);
}

#[test]
fn reads_json_ld_recipe_from_a_page() {
    let r = recipe_text::read(&fixture("cucumber-salad.html")).unwrap();
    assert_eq!(r.id, "cucumber-salad");
    assert_eq!(r.title, "Quick Cucumber Salad");
    assert_eq!(
        r.ingredients,
        [
            "2 cucumbers, sliced",
            "1 teaspoon salt",
            "2 tablespoons cider vinegar"
        ]
    );
    assert_eq!(
        r.instructions,
        [
            "Put the cucumbers in a bowl & add the salt.",
            "Pour over the vinegar and toss.",
            "Cover and refrigerate 30 minutes."
        ]
    );
}

#[test]
fn a_page_without_a_recipe_is_an_error() {
    let e = recipe_text::from_text(
        "<html><script type=\"application/ld+json\">{\"@type\":\"WebSite\"}</script></html>",
        "x",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "no schema.org Recipe in a <script type=\"application/ld+json\"> block"
    );
}

fn assert_translates(model: &Model, path: &Path) -> String {
    let recipe = recipe_text::read(path).unwrap();
    let mut t = RulesTranslator::new(model);
    let tr = t.translate(&recipe, 0).unwrap();
    assert!(
        tr.solution
            .starts_with(&format!("#{}\n(get-kitchen ?kitchen)\n", recipe.id))
    );
    let checked = check_solution(model, &tr.solution);
    assert!(
        checked.errors.is_empty(),
        "{}: {:?}",
        path.display(),
        checked.errors
    );
    let run = checked
        .execution
        .unwrap_or_else(|| panic!("{}: {:?}", path.display(), checked.crash));
    assert!(
        run.solved,
        "{}: the network does not run to the end",
        path.display()
    );
    tr.solution
}

#[test]
fn rules_translate_the_fixtures_into_running_networks() {
    let model = Model::builtin(Profile::R2024);
    let cookies = assert_translates(&model, &fixture("butter-cookies.txt"));
    assert_eq!(
        cookies,
        "#butter-cookies
(get-kitchen ?kitchen)
(fetch-and-proportion ?proportioned-butter ?ks ?kitchen ?target-container butter 115 g)
(fetch-and-proportion ?proportioned-white-sugar ?ks-2 ?ks ?target-container-2 white-sugar 24 teaspoon)
(fetch-and-proportion ?proportioned-all-purpose-flour ?ks-3 ?ks-2 ?target-container-3 all-purpose-flour 72 teaspoon)
(preheat-oven ?preheated-oven ?ks-4 ?ks-3 ?oven 177 degrees-celsius)
(transfer-contents ?mixture ?rest ?ks-5 ?ks-4 ?bowl ?proportioned-butter ?quantity ?unit)
(transfer-contents ?mixture-2 ?rest-2 ?ks-6 ?ks-5 ?mixture ?proportioned-white-sugar ?quantity-2 ?unit-2)
(beat ?beaten ?ks-7 ?ks-6 ?mixture-2 ?beat-tool)
(transfer-contents ?mixture-3 ?rest-3 ?ks-8 ?ks-7 ?beaten ?proportioned-all-purpose-flour ?quantity-3 ?unit-3)
(mix ?mixed ?ks-9 ?ks-8 ?mixture-3 ?mix-tool)
(portion-and-arrange ?portions ?ks-10 ?ks-9 ?mixed 25 g ?pattern ?portion-destination)
(shape ?shaped ?ks-11 ?ks-10 ?portions ball-shape)
(fetch ?baking-tray ?ks-12 ?ks-11 baking-tray 1)
(transfer-items ?on-tray ?ks-13 ?ks-12 ?shaped ?pattern-2 ?baking-tray)
(bake ?baked ?ks-14 ?ks-13 ?on-tray ?preheated-oven 12 minute ?bake-temp ?bake-temp-unit)
(leave-for-time ?cooled ?ks-15 ?ks-14 ?baked 10 minute)
"
    );
    assert_translates(&model, &fixture("lemonade.xml"));
    assert_translates(&model, &fixture("cucumber-salad.html"));
    for demo in ["garden-salad", "cinnamon-toast-bites", "shortbread-rounds"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("gold/demo/{demo}.xml"));
        assert_translates(&model, &path);
    }
}

#[test]
fn rules_translate_every_benchmark_recipe_into_a_valid_running_network() {
    common::require_data!();
    let root = common::benchmark_dir();
    let model = Model::builtin(Profile::R2024);
    let manifest = cookingbot::benchmark::manifest(Profile::R2024);
    assert_eq!(manifest.recipes.len(), 30);
    for entry in &manifest.recipes {
        let path = root.join(&entry.recipe_text);
        let recipe = recipe_text::read(&path).unwrap();
        assert_eq!(recipe.id, entry.id);
        let tr = RulesTranslator::new(&model).translate(&recipe, 0).unwrap();
        let checked = check_solution(&model, &tr.solution);
        assert!(
            checked.errors.is_empty(),
            "{}: {:?}",
            entry.id,
            checked.errors
        );
        assert!(
            checked.execution.is_some(),
            "{}: {:?}",
            entry.id,
            checked.crash
        );
    }
}

#[test]
fn the_committed_rules_baseline_is_what_the_rules_translator_scores() {
    common::require_data!();
    use cookingbot::app::bench_translate::{BenchOptions, run};
    use cookingbot::app::data::DataContext;
    use cookingbot::app::outcome::Exit;
    let model = Model::builtin(Profile::R2024);
    let out = tempfile::tempdir().unwrap();
    let opts = BenchOptions {
        data: DataContext {
            profile: Profile::R2024,
            benchmark: Some(common::benchmark_dir()),
            kitchen: None,
            offline: true,
        },
        samples: 1,
        pass_threshold: 0.9,
        out: out.path().to_path_buf(),
    };
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = run(
        &opts,
        &mut RulesTranslator::new(&model),
        &mut stdout,
        &mut stderr,
    );
    assert!(
        matches!(code, Ok(Exit::Success)),
        "{code:?}: {}",
        String::from_utf8_lossy(&stderr)
    );
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    for name in ["baseline-rules.md", "baseline-rules.csv"] {
        let committed = std::fs::read_to_string(docs.join(name)).unwrap();
        let fresh = std::fs::read_to_string(out.path().join(name)).unwrap();
        assert_eq!(
            fresh, committed,
            "{name} changed: regenerate with `cookingbot-evaluator benchmark --translator rules --out docs` and review the difference"
        );
    }
    assert_eq!(
        String::from_utf8(stdout).unwrap(),
        std::fs::read_to_string(docs.join("baseline-rules.md")).unwrap()
    );
}

#[test]
fn pass_at_k_is_the_unbiased_estimator() {
    use cookingbot::app::bench_translate::pass_at_k;
    assert_eq!(pass_at_k(1, 1, 1), 1.0);
    assert_eq!(pass_at_k(3, 0, 3), 0.0);
    assert_eq!(pass_at_k(3, 3, 3), 1.0);
    assert!((pass_at_k(4, 1, 1) - 0.25).abs() < 1e-12);
    assert!((pass_at_k(4, 1, 2) - 0.5).abs() < 1e-12);
}

#[test]
fn the_grammar_names_exactly_the_catalogues_primitives() {
    let catalogue = cookingbot::catalogue::Catalogue::builtin(Profile::R2024);
    let mut names: Vec<&str> = catalogue
        .iter()
        .map(|p| p.name.as_str())
        .filter(|n| *n != "get-kitchen")
        .collect();
    names.sort_unstable();
    names.dedup();
    let grammar = cookingbot::translate::llm::GRAMMAR;
    let rule = grammar
        .lines()
        .skip_while(|l| !l.starts_with("primitive "))
        .take_while(|l| !l.starts_with("argument "))
        .collect::<String>();
    let mut listed: Vec<&str> = rule.split('"').skip(1).step_by(2).collect();
    listed.sort_unstable();
    assert_eq!(listed, names);
}
