//! `guide` as users run it, on the demo benchmark built into the program (no data needed): the
//! guide for a terminal, its JSON against `simulate`'s schedule, Markdown, the page (nothing
//! fetched, user text escaped, drawn and printed on portrait pages by headless Chromium), a file
//! written whole or not at all, and networks that get no guide.

use crate::common;
use crate::html_report::{assert_self_contained, chromium, have_chromium, screenshot};

use common::{Outcome, Scratch, evaluator, outcome};
use serde_json::Value;
use std::process::Stdio;

fn perfect() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/demo-perfect.solution"
    )
    .to_owned()
}

/// `--benchmark demo guide ARGS...` on the demo's shortbread.
fn shortbread(args: &[&str]) -> Outcome {
    outcome(
        evaluator()
            .args(["--benchmark", "demo", "guide", &perfect()])
            .args(["--recipe", "demo-shortbread-rounds"])
            .args(args),
    )
}

#[test]
fn the_shortbread_guide_tells_its_timers_its_idle_times_and_its_total() {
    let run = shortbread(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let text = &run.stdout;
    assert!(text.starts_with(
        "cook's guide for demo-shortbread-rounds: 39:05 (2345 s), 18 steps

  start     end  line  step
   0:00    0:00    42  get kitchen: the kitchen at 0:00
   0:00    0:30    43  fetch and proportion: a medium bowl (used) holding 115 g butter at 5 °C
   0:30   13:50    44  bring to temperature: a medium bowl (used) holding 115 g butter at 18 °C  (timer)
                      alongside lines 45, 46, 47, 48
"
    ));
    assert!(text.contains(
        "
timers:
   0:30  bring to temperature now: 18 °C, ready at 13:50 (line 44: a medium bowl (used) holding 115 g butter at 18 °C)
   1:30  preheat oven now: 170 °C, ready at 11:45 (line 47: an oven at 170 °C (name \"Oven\"))
"
    ));
    assert!(text.ends_with(
        "
idle:
   1:45–13:50  waiting for lines 44, 47
  24:35–39:05  waiting for lines 58, 59

total time: 39:05
"
    ));
}

#[test]
fn the_json_guide_is_simulates_schedule_in_start_order() {
    let run = shortbread(&["--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let guide: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let simulated = outcome(
        evaluator()
            .args(["--benchmark", "demo", "simulate", &perfect()])
            .args(["--recipe", "demo-shortbread-rounds", "--json"]),
    );
    assert_eq!(simulated.code, 0, "{}", simulated.stderr);
    let simulated: Value = serde_json::from_str(&simulated.stdout).expect("JSON");
    let simulated = &simulated["report"];
    assert_eq!(guide["total_time"], simulated["execution_time"]);
    let key = |s: &Value| {
        (
            s["action"].as_u64(),
            s["line"].as_u64(),
            s["end"].to_string(),
        )
    };
    let mut ran: Vec<_> = simulated["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(key)
        .collect();
    let mut steps: Vec<_> = guide["steps"].as_array().unwrap().iter().map(key).collect();
    assert_eq!(steps.len(), 18);
    ran.sort();
    steps.sort();
    assert_eq!(steps, ran);
    let starts: Vec<f64> = guide["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["start"].as_f64().unwrap())
        .collect();
    assert!(starts.is_sorted());
    assert_eq!(
        guide["timers"][1],
        serde_json::json!({"action": 6, "line": 47, "what": "preheat oven",
            "makes": "an oven at 170 °C (name \"Oven\")", "temperature": "170 °C",
            "start": 90, "cook_free": 105, "ready": 705})
    );
    // The cooling's temperature, an exact ratio in the simulation, reads as a decimal.
    assert_eq!(guide["timers"][3]["temperature"], "132.22 °C");
}

#[test]
fn markdown_has_a_row_per_step_and_the_timers_and_idle_times_as_lists() {
    let run = outcome(
        evaluator()
            .args(["--benchmark", "demo", "guide", &perfect()])
            .args([
                "--recipe",
                "demo-cinnamon-toast-bites",
                "--format",
                "markdown",
            ]),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let md = &run.stdout;
    assert!(md.starts_with(
        "# Cook's guide: demo-cinnamon-toast-bites\n\nTotal time 20:15 (1215 s), 17 steps.\n\n\
         | start | end | line | step | alongside |\n|---:|---:|---:|---|---|\n"
    ));
    assert_eq!(md.lines().filter(|l| l.starts_with("| ")).count(), 18);
    assert!(md.contains(
        "| 0:00 | 10:15 | 24 | preheat oven: an oven at 200 °C (name \"Oven\") (timer) | lines 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39 |\n"
    ));
    // The oven is hot at 10:15, after the toast is ready for it: the cook waits from 7:55.
    assert!(md.ends_with("\n## Idle\n\n- **7:55–20:15** waiting for lines 24, 39\n"));
}

#[test]
fn the_page_is_self_contained_escapes_user_text_and_prints_on_portrait_pages() {
    let scratch = Scratch::new("guide-page");
    let page = scratch.path("guide.html");
    let run = shortbread(&["--format", "html", "-o", page.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert_self_contained(&html);
    assert!(html.contains("<h1>Cook's guide: demo-shortbread-rounds</h1>"));
    assert_eq!(html.matches("<tr class=\"timer\">").count(), 4);
    assert!(html.contains("@page { size: A4 portrait; margin: 14mm; }"));

    let marked = scratch.write(
        "marked.solution",
        "#<b>&amp\n(get-kitchen ?kitchen)\n(fetch ?tray ?ks-1 ?kitchen baking-tray 1)\n",
    );
    let escaped = scratch.path("escaped.html");
    let run = outcome(evaluator().args([
        "guide",
        marked.to_str().unwrap(),
        "--format",
        "html",
        "-o",
        escaped.to_str().unwrap(),
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&escaped).unwrap();
    assert!(html.contains("<h1>Cook's guide: &lt;b&gt;&amp;amp</h1>"));
    assert!(!html.contains("<b>&amp"));

    if !have_chromium() {
        return;
    }
    screenshot(&page, &scratch);
    let pdf = scratch.path("guide.pdf");
    chromium(
        &page,
        &scratch,
        &format!("--print-to-pdf={}", pdf.display()),
        Stdio::null(),
    );
    let pdf = std::fs::read(&pdf).expect("a PDF");
    assert!(pdf.starts_with(b"%PDF-"));
    let text = String::from_utf8_lossy(&pdf);
    let boxes: Vec<&str> = text
        .match_indices("/MediaBox")
        .map(|(i, _)| &text[i..])
        .collect();
    assert!(!boxes.is_empty());
    for b in &boxes {
        let numbers: Vec<f64> = b["/MediaBox".len()..]
            .trim_start()
            .trim_start_matches('[')
            .split(']')
            .next()
            .unwrap()
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        // A4 in points, portrait: 595 × 842.
        let (width, height) = (numbers[2] - numbers[0], numbers[3] - numbers[1]);
        assert!(
            (width - 595.0).abs() < 2.0 && (height - 842.0).abs() < 2.0,
            "{b:.40}"
        );
    }
}

#[test]
fn networks_with_errors_or_without_an_execution_get_no_guide_and_no_file() {
    let scratch = Scratch::new("guide-refused");
    let out = scratch.path("guide.json");
    let broken = scratch.write("broken.solution", "#x\n(get-kitchen ?kitchen\n");
    let run = outcome(evaluator().args([
        "guide",
        broken.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]));
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.ends_with("has errors; no guide was written\n"),
        "{}",
        run.stderr
    );
    let stuck = scratch.write(
        "stuck.solution",
        "#stuck\n(get-kitchen ?kitchen)\n(beat ?beaten ?ks-2 ?kitchen ?never-made ?whisk)\n",
    );
    let run = outcome(evaluator().args([
        "guide",
        stuck.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "error: {}: recipe stuck does not execute (1 action(s) could not run: beat (action \
             2) lacks ?never-made), so it has no schedule to guide a cook by\n",
            stuck.display()
        )
    );
    assert_eq!(scratch.listing(), ["broken.solution", "stuck.solution"]);
}
