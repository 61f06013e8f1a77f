//! Snapshots (insta, `snapshots/`) of every output format on the documentation's example
//! solutions: the CSV, JSON, JUnit and markdown reports of one batch over them, and a digest
//! of the HTML report of one example. The runs start in the examples' folder so that files are
//! named by relative paths, the same on every machine, and the program's version is masked.
//! The benchmark's networks stay out of the snapshots: the JSON's `gold_text` values are
//! replaced by their predicate's name, and of the HTML page only its headings, metric cards
//! and counts of network nodes and goal rows are kept.

use crate::common;

const METRICS: [&str; 4] = [
    "smatch-score",
    "goal-condition-success",
    "dish-approximation-score",
    "execution-time",
];

/// The evaluator started in the folder that holds the examples' folder (`evaluation/`).
fn in_examples() -> std::process::Command {
    let mut command = common::evaluator();
    command.current_dir(common::examples_dir().join(".."));
    command
}

/// The report of one batch over the examples in `format` (all four metrics), on stdout.
fn batch(format: &str) -> String {
    let o = in_examples()
        .args(["--input", "evaluation", "--format", format, "-o", "-"])
        .arg("--metrics")
        .args(METRICS)
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    without_version(&common::stdout(&o))
}

/// `text` with the program's version, as the reports print it, masked.
fn without_version(text: &str) -> String {
    let version = env!("CARGO_PKG_VERSION");
    text.replace(
        &format!("cookingbot-evaluator {version}"),
        "cookingbot-evaluator [version]",
    )
    .replace(
        &format!("\"version\": \"{version}\""),
        "\"version\": \"[version]\"",
    )
    .replace(&format!("value=\"{version}\""), "value=\"[version]\"")
}

#[test]
fn text_formats_of_the_examples() {
    common::require_data!();
    for format in ["csv", "junit", "markdown"] {
        insta::assert_snapshot!(format!("{format}_of_the_examples"), batch(format));
    }
}

#[test]
fn json_of_the_examples() {
    common::require_data!();
    let json = batch("json");
    let gold_lines = json.matches("\"gold_text\": ").count();
    assert!(gold_lines > 0, "the examples miss gold goals");
    insta::assert_snapshot!(without_gold_text(&json));
}

/// Each `"gold_text": "(predicate ...)"` of a JSON report as `"gold_text": "(predicate …)"`.
fn without_gold_text(json: &str) -> String {
    const KEY: &str = "\"gold_text\": \"(";
    let mut out = String::with_capacity(json.len());
    for line in json.lines() {
        match line.find(KEY) {
            Some(at) => {
                let text = &line[at + KEY.len()..];
                let predicate = text.split([' ', ')']).next().unwrap_or_default();
                let comma = if line.ends_with(',') { "," } else { "" };
                out.push_str(&format!("{}{KEY}{predicate} …)\"{comma}", &line[..at]));
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[test]
fn html_report_of_an_example() {
    common::require_data!();
    let dir = tempfile::tempdir().expect("a scratch folder");
    let page = dir.path().join("report.html");
    let o = in_examples()
        .args(["report", "evaluation/wrong-ingredient.solution", "-o"])
        .arg(&page)
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    insta::assert_snapshot!(html_digest(&common::read(&page)));
}

/// What a reader of the page sees first, one line each: the headings in order, the metric
/// cards, and how many nodes the network section draws and goal rows of each kind.
fn html_digest(html: &str) -> String {
    let mut digest = String::new();
    for (tag, text) in elements(html, &["<h1>", "<h2>", "<h3>", "<h4>"]) {
        digest.push_str(&format!(
            "{}{text}\n",
            "#".repeat(tag[2..3].parse().unwrap_or(1))
        ));
    }
    let labels = elements(html, &["<div class=\"label\">"]);
    let values = elements(html, &["<div class=\"value\">"]);
    for ((_, label), (_, value)) in labels.iter().zip(&values) {
        digest.push_str(&format!("card {label}: {value}\n"));
    }
    let network = html
        .split_once("<h3>Network</h3>")
        .and_then(|(_, rest)| rest.split_once("<h3>"))
        .map_or("", |(network, _)| network);
    digest.push_str(&format!(
        "network nodes: {}\n",
        network.matches("<g><title>#").count()
    ));
    for kind in ["reached", "missed"] {
        let rows = html.matches(&format!("<tr class=\"{kind}\">")).count();
        digest.push_str(&format!("goal rows {kind}: {rows}\n"));
    }
    digest
}

/// The text up to the next tag after each occurrence of any of `openings`, with the opening
/// it follows, in page order.
fn elements<'h>(html: &'h str, openings: &[&'h str]) -> Vec<(&'h str, &'h str)> {
    let mut found: Vec<(usize, &str, &str)> = openings
        .iter()
        .flat_map(|opening| {
            html.match_indices(opening).map(move |(at, _)| {
                let text = &html[at + opening.len()..];
                (at, *opening, &text[..text.find('<').unwrap_or(text.len())])
            })
        })
        .collect();
    found.sort_by_key(|(at, _, _)| *at);
    found.into_iter().map(|(_, o, t)| (o, t)).collect()
}
