//! What the evaluator must never take in silence: encodings and line ends the reference would
//! misread, empty files, links in a folder, a closed standard output, an HTML page with no file
//! to go beside, file names that hold line breaks, huge lines and recipe texts. Each on the demo
//! benchmark, so that none needs the benchmark data.

use crate::common;

use common::{Outcome, Scratch, outcome};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The demo's gold networks as one solution file: every score 1.
fn perfect() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-perfect.solution")
}

/// A run on the demo benchmark with `args` after `--benchmark demo`.
fn demo<S: AsRef<OsStr>>(args: &[S]) -> Outcome {
    outcome(demo_command().args(args))
}

fn demo_command() -> Command {
    let mut command = common::evaluator();
    command.args(["--benchmark", "demo"]);
    command
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[test]
fn a_byte_order_mark_is_one_error() {
    let dir = Scratch::new("byte-order-mark");
    let text = std::fs::read_to_string(perfect()).expect("demo solution");
    let input = dir.write("bom.solution", format!("\u{FEFF}{text}"));
    let o = demo(&["check", s(&input)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "error[E0010]: the file starts with a UTF-8 byte-order mark, which the reference reads as a character of the first line and refuses the file\n  ┌─ {}:1:1\n  │\n1 │ \\u{{FEFF}}#demo-garden-salad\n  │ ^^^^^^^^ byte-order-mark\n  │\n  = help: save the file as UTF-8 without a byte-order mark (BOM)\n\nchecked 1 file(s) against profile 2024: 1 error(s), 0 warning(s)\n",
            input.display()
        )
    );
}

#[test]
fn carriage_return_line_ends_are_one_error() {
    let dir = Scratch::new("cr-line-ends");
    let text = std::fs::read_to_string(perfect()).expect("demo solution");
    let input = dir.write("mac.solution", text.replace('\n', "\r"));
    let out = dir.path("results.csv");
    let o = demo(&["-input", s(&input), "-output", s(&out)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(o.stderr.matches("error[").count(), 1, "{}", o.stderr);
    assert!(
        o.stderr.starts_with(&format!(
            "error[E0011]: the lines end with a carriage return (CR) alone: the reference reads the file as one line, a recipe id followed by text it ignores, and refuses it\n  ┌─ {}:1:19\n",
            input.display()
        )),
        "{}",
        o.stderr
    );
    assert!(!out.exists());
    // CR LF is read as LF is (blank lines left out: holding a CR, they are not blank).
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let crlf = dir.write("windows.solution", lines.join("\r\n"));
    let o = demo(&["check", s(&crlf)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn utf16_is_named_as_utf16() {
    let dir = Scratch::new("utf16");
    let text = std::fs::read_to_string(perfect()).expect("demo solution");
    let units = |big: bool| -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    let with_bom = [&[0xFF, 0xFE][..], &units(false)].concat();
    for (name, bytes, encoding) in [
        ("bom.solution", with_bom, "UTF-16"),
        ("le.solution", units(false), "UTF-16LE"),
        ("be.solution", units(true), "UTF-16BE"),
    ] {
        let input = dir.write(name, bytes);
        let out = dir.path("results.csv");
        let o = demo(&["-input", s(&input), "-output", s(&out)]);
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert_eq!(
            o.stderr,
            format!(
                "error: {}: UTF-16 text; solution files are read as UTF-8: convert it, e.g. `iconv -f {encoding} -t UTF-8`\n",
                input.display()
            )
        );
    }
}

#[test]
fn an_empty_file_is_warned_about_and_fails_fail_under() {
    let dir = Scratch::new("empty-file");
    let empty = dir.write("empty.solution", "");
    let out = dir.path("results.csv");
    let o = demo(&["-input", s(&empty), "-output", s(&out)]);
    // The reference writes the bare header for a file with no recipe; so does this, saying so.
    assert_eq!(o.code, 0, "{}", o.stderr);
    let warning = format!(
        "warning: {} holds no recipe (no `#recipe-id` line): nothing in it is scored\n",
        empty.display()
    );
    assert!(o.stderr.starts_with(&warning), "{}", o.stderr);
    assert_eq!(
        std::fs::read_to_string(&out).expect("results"),
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n"
    );
    let o = demo(&[
        "-input",
        s(&empty),
        "-output",
        s(&out),
        "--fail-under",
        "goal-condition-success=0.5",
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.ends_with(&format!(
            "error: values below --fail-under:\n  file{pad}  recipe       metric                  value  threshold\n  {}  (no recipe)  goal-condition-success  NIL    < 0.5\n",
            empty.display(),
            pad = " ".repeat(empty.display().to_string().len() - 4)
        )),
        "{}",
        o.stderr
    );
    // In JUnit, a failing test case of its own.
    let xml = dir.path("results.xml");
    let o = demo(&[
        "-input",
        s(&empty),
        "-output",
        s(&xml),
        "--format",
        "junit",
        "--fail-under",
        "goal-condition-success=0.5",
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let junit = std::fs::read_to_string(&xml).expect("junit");
    assert!(
        junit.contains(&format!(
            "    <testcase classname=\"{}\" name=\"(no recipe)\">\n      <failure type=\"fail-under\" message=\"the file holds no recipe to score\"/>\n    </testcase>\n",
            empty.display()
        )),
        "{junit}"
    );
}

#[test]
fn links_in_a_folder_are_followed_or_named() {
    let dir = Scratch::new("links");
    let folder = dir.path("submissions");
    std::fs::create_dir(&folder).expect("folder");
    let elsewhere = dir.write("kept-elsewhere.solution", std::fs::read(perfect()).unwrap());
    std::os::unix::fs::symlink(&elsewhere, folder.join("linked.solution")).expect("link");
    std::os::unix::fs::symlink(dir.path("gone"), folder.join("dangling.solution")).expect("link");
    let sub = dir.path("sub.solution");
    std::fs::create_dir(&sub).expect("folder");
    std::os::unix::fs::symlink(&sub, folder.join("folder.solution")).expect("link");
    let out = dir.path("results.csv");
    let o = demo(&["--input", s(&folder), "-output", s(&out)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let csv = std::fs::read_to_string(&out).expect("results");
    // The linked file is scored: its three recipes, under the link's name.
    let linked = folder.join("linked.solution");
    assert_eq!(
        csv.lines()
            .filter(|l| l.starts_with(&format!("{},", linked.display())))
            .count(),
        3,
        "{csv}"
    );
    // The dangling link is refused, by name; the link to a folder is named and skipped.
    assert!(
        o.stderr.starts_with(&format!(
            "warning: {} is a link to a directory; links to directories are not followed, so it is skipped\n",
            folder.join("folder.solution").display()
        )),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains(&format!(
            "error: {}: cannot read: No such file or directory (os error 2)\n",
            folder.join("dangling.solution").display()
        )),
        "{}",
        o.stderr
    );
}

#[test]
fn a_closed_standard_output_is_an_error() {
    let o = outcome(
        Command::new("sh")
            .args(["-c", r#""$0" --benchmark demo -input "$1" -output - >&-"#])
            .arg(env!("CARGO_BIN_EXE_cookingbot-evaluator"))
            .arg(perfect()),
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "error: cannot write to standard output: it is closed\n"
    );
    // A pipe whose reader has gone: the write fails, and says so.
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let o = outcome(
        demo_command()
            .args(["-input", s(&perfect()), "-output", "-"])
            .stdout(Stdio::from(writer)),
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .starts_with("error: cannot write to standard output: Broken pipe (os error 32)\n"),
        "{}",
        o.stderr
    );
}

#[test]
fn show_output_with_standard_output_is_refused() {
    let dir = Scratch::new("show-output-stdout");
    let o = outcome(demo_command().current_dir(&*dir).args([
        "-input",
        s(&perfect()),
        "-o",
        "-",
        "--show-output",
        "t",
    ]));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "error: -show-output t writes the HTML page beside the output file, and -output - names no file: write the results to a file, or make the page with `cookingbot-evaluator report FILE -o PAGE.html`\n"
    );
    assert_eq!(o.stdout, "");
    assert!(dir.listing().is_empty(), "{:?}", dir.listing());
}

#[test]
fn markdown_shows_line_breaks_in_file_names() {
    let dir = Scratch::new("markdown-newline");
    let text = std::fs::read(perfect()).expect("demo solution");
    let odd = dir.write("two\nlines.solution", &text);
    let plain = dir.write("plain.solution", &text);
    let o = demo(&[
        "--input",
        s(&odd),
        "--input",
        s(&plain),
        "-o",
        "-",
        "--format",
        "markdown",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let heading = format!("### {}\\nlines.solution\n", dir.path("two").display());
    assert!(o.stdout.contains(&heading), "{}", o.stdout);
    assert!(!o.stdout.contains("\nlines.solution"), "{}", o.stdout);
}

#[test]
fn a_huge_line_is_shown_as_a_window() {
    let dir = Scratch::new("huge-line");
    // One predicate line of about a megabyte: every argument an unknown class, a diagnostic
    // each, and each shown with its line.
    let args: String = (0..100_000).map(|i| format!(" x{i}")).collect();
    let line = format!("(get-kitchen ?k{args})");
    let input = dir.write("long.solution", format!("#demo-garden-salad\n{line}\n"));
    let o = demo(&["check", s(&input)]);
    assert_eq!(o.code, 1);
    // 100 diagnostics shown, each in a few hundred bytes, then the count of the rest.
    assert!(o.stderr.len() < 100_000, "{} bytes", o.stderr.len());
    // The line is shown from 40 characters before the problem, 120 characters in all.
    let at = line.find(" x50 ").expect("x50") + 1;
    let block = format!(
        "error[E0106]: `x50` is not a class of the ontology\n  ┌─ {}:2:{}\n  │\n2 │ ...{}...\n  │ {}^^^ unknown-class\n",
        input.display(),
        at + 1,
        &line[at - 40..at + 80],
        " ".repeat(3 + 40),
    );
    assert!(o.stderr.contains(&block), "{}", &o.stderr[..3000]);
    assert!(
        o.stderr.ends_with(&format!(
            "{}: and 99901 more diagnostic(s), not shown\nchecked 1 file(s) against profile 2024: 100001 error(s), 0 warning(s)\n",
            input.display()
        )),
        "{}",
        &o.stderr[o.stderr.len() - 500..]
    );
}

#[test]
fn an_oversized_recipe_text_is_refused_by_its_name() {
    let dir = Scratch::new("translate-size");
    // 8 MiB and a byte: one over the limit.
    let input = dir.write("page.html", vec![b' '; (8 << 20) + 1]);
    let out = dir.path("page.solution");
    let o = demo(&["translate", s(&input), "-o", s(&out)]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "error: {}: more than 8388608 bytes (8 MiB); recipe texts of at most that are read\n",
            input.display()
        )
    );
    assert!(!out.exists());
    // Many lines under the size limit: refused by their number, before any translation.
    let many = format!(
        "Ingredients\n{}Instructions\n{}",
        "200 g sugar\n".repeat(700),
        "Mix the sugar.\n".repeat(700)
    );
    let input = dir.write("long.txt", many);
    let o = demo(&["translate", s(&input), "-o", s(&out)]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        format!(
            "error: {}: 700 ingredient and 700 instruction lines; recipes of at most 1000 lines are translated\n",
            input.display()
        )
    );
}

#[test]
fn invisible_characters_in_names_are_shown_by_their_code() {
    let dir = Scratch::new("invisible-names");
    let text = std::fs::read_to_string(perfect()).expect("demo solution");
    // A right-to-left override and a zero-width space inside a variable's name.
    let odd = text.replace("?proportioned-olive-oil", "?olive\u{202E}lio-\u{200B}");
    let input = dir.write("odd.solution", odd);
    let o = demo(&["simulate", "--trace", s(&input)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("?olive\\u{202E}lio-\\u{200B}"),
        "{}",
        o.stdout
    );
    assert!(!o.stdout.contains(['\u{202E}', '\u{200B}']), "{}", o.stdout);
}
