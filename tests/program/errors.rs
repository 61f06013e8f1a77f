//! The evaluator binary on bad input: the exit code, a precise message (file, and line:column
//! where the problem is in the text), no panic, and no output file unless results were written.

use crate::common;

use common::{Outcome, Scratch, gold_file, outcome};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A run of the evaluator with `args`, with no 2023 data.
fn run_os<S: AsRef<OsStr>>(args: &[S]) -> Outcome {
    outcome(
        common::evaluator()
            .args(args)
            .env_remove("COOKINGBOT_BENCHMARK_2023"),
    )
}

/// `-input INPUT -output OUTPUT`, as the reference is invoked.
fn evaluate(input: &Path, output: &Path) -> Outcome {
    evaluate_with(input, output, &[])
}

/// `evaluate` with more arguments after the input and output.
fn evaluate_with(input: &Path, output: &Path, more: &[&str]) -> Outcome {
    let mut args = vec![
        OsStr::new("-input"),
        input.as_os_str(),
        OsStr::new("-output"),
        output.as_os_str(),
    ];
    args.extend(more.iter().map(OsStr::new));
    run_os(&args)
}

fn assert_stderr(o: &Outcome, expected: &[&str]) {
    for e in expected {
        assert!(
            o.stderr.contains(e),
            "stderr lacks {e:?}; it is:\n{}",
            o.stderr
        );
    }
}

/// A refused or unusable input: exit code, messages, no output and no leftover file.
fn assert_failed(o: &Outcome, code: i32, expected: &[&str], output: &Path) {
    assert_eq!(o.code, code, "exit code; stderr:\n{}", o.stderr);
    assert_stderr(o, expected);
    assert!(!output.exists(), "{} was written", output.display());
}

const REFUSED: &str = "was refused; no results were written";

#[test]
fn missing_input_file() {
    let s = Scratch::new("missing");
    let input = s.path("nowhere.solution");
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let msg = format!("error: {}: no such file or directory", input.display());
    assert_failed(&o, 2, &[&msg], &out);
    assert!(s.listing().is_empty());
}

#[test]
fn exact_budget_needs_exact_mode_and_a_node() {
    let s = Scratch::new("exact-budget");
    let input = s.path("demo.solution");
    std::fs::write(&input, "#afghan-biscuits\n").expect("scratch file");
    let out = s.path("results.csv");
    let o = evaluate_with(&input, &out, &["--smatch-exact-budget", "50"]);
    assert_failed(
        &o,
        2,
        &["error: the following required arguments were not provided:\n  --smatch-exact\n"],
        &out,
    );
    let o = evaluate_with(
        &input,
        &out,
        &["--smatch-exact", "--smatch-exact-budget", "0"],
    );
    assert_failed(
        &o,
        2,
        &["invalid value '0' for '--smatch-exact-budget <NODES>'"],
        &out,
    );
}

#[test]
fn directory_as_input() {
    let s = Scratch::new("directory");
    let input = s.path("folder.solution");
    std::fs::create_dir(&input).expect("make directory");
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    // A directory is a batch: it is walked for `*.solution` files, and this one has none.
    let msg = format!("error: {}: no .solution files to evaluate", input.display());
    assert_failed(&o, 2, &[&msg], &out);
}

#[test]
fn binary_junk() {
    let s = Scratch::new("junk");
    // Pseudo-random bytes (a fixed linear congruential sequence) with NULs among them.
    let mut x: u32 = 0x2545_f491;
    let junk: Vec<u8> = (0..4096)
        .map(|i| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            if i % 97 == 0 { 0 } else { (x >> 24) as u8 }
        })
        .collect();
    let input = s.write("junk.solution", &junk);
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let msg = format!(
        "error: {}:1:1: a NUL byte: a binary file, not a .solution text",
        input.display()
    );
    assert_failed(&o, 2, &[&msg], &out);
    assert_eq!(s.listing(), ["junk.solution"]);
}

#[test]
fn syntax_error_is_located() {
    common::require_data!();
    let s = Scratch::new("syntax");
    let input = s.write(
        "unclosed.solution",
        "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?butter ?ks ?kitchen ?bowl butter 230 g\n",
    );
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let at = format!("{}:3:1", input.display());
    let refused = format!("error: {} {REFUSED}", input.display());
    assert_failed(
        &o,
        1,
        &[
            "error[E0002]: this `(` is not closed on its line",
            &at,
            "add the missing `)`",
            &refused,
        ],
        &out,
    );
    assert_eq!(s.listing(), ["unclosed.solution"]);
}

#[test]
fn invalid_token_is_located() {
    common::require_data!();
    let s = Scratch::new("token");
    let input = s.write(
        "ratio.solution",
        "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch-and-proportion ?butter ?ks ?kitchen ?bowl butter 2/0 g)\n",
    );
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let at = format!("{}:3:57", input.display());
    assert_failed(
        &o,
        1,
        &["error[E0006]: the ratio 2/0 divides by zero", &at, REFUSED],
        &out,
    );
}

#[test]
fn unknown_primitive_suggests_the_nearest() {
    common::require_data!();
    let s = Scratch::new("primitive");
    let input = s.write(
        "typo.solution",
        "#afghan-biscuits\n(get-kitchen ?kitchen)\n(fetch-and-portion ?butter ?ks ?kitchen ?bowl butter 230 g)\n",
    );
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let at = format!("{}:3:2", input.display());
    assert_failed(
        &o,
        1,
        &[
            "unknown primitive `fetch-and-portion`",
            &at,
            "help: did you mean `fetch-and-proportion`?",
            REFUSED,
        ],
        &out,
    );
}

#[test]
fn unknown_recipe_id() {
    common::require_data!();
    let s = Scratch::new("recipe");
    let input = s.write(
        "other.solution",
        "#afghan-biscuits\n(get-kitchen ?kitchen)\n\n#lemon-meringue-pie\n(get-kitchen ?kitchen)\n",
    );
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let at = format!("{}:4:2", input.display());
    assert_failed(
        &o,
        1,
        &[
            "recipe `lemon-meringue-pie` is not supported by the benchmark",
            &at,
            REFUSED,
        ],
        &out,
    );
}

#[test]
fn refused_at_simulation_time() {
    common::require_data!();
    let s = Scratch::new("simulation");
    let input = common::rebuilt("2024")
        .join("perturbed/almond-crescent-cookies-5--drop-rechain--1.solution");
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let msg = format!(
        "error: {}: The ingredient EGG-YOLK has no entry in the conversion table!",
        input.display()
    );
    assert_failed(&o, 1, &[&msg, REFUSED], &out);
    assert!(s.listing().is_empty(), "left behind: {:?}", s.listing());
}

#[test]
fn output_directory_is_created() {
    common::require_data!();
    let s = Scratch::new("mkdir");
    let out = s.path("deeper/still/results.csv");
    let o = evaluate(&gold_file("afghan-biscuits"), &out);
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    // The reference's row (reference/2024/gold.tsv).
    assert_eq!(
        std::fs::read_to_string(&out).expect("results written"),
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n\
         afghan-biscuits,1.00,1.00,2735\n"
    );
    assert!(o.stdout.ends_with("The simulation process has finished.\n"));
}

#[test]
fn output_under_a_regular_file() {
    common::require_data!();
    let s = Scratch::new("blocked");
    let blocker = s.write("results", "not a directory");
    let out = blocker.join("run/results.csv");
    let o = evaluate(&gold_file("afghan-biscuits"), &out);
    let msg = format!(
        "error: cannot write {}: {} is a file, not a directory",
        out.display(),
        blocker.display()
    );
    assert_failed(&o, 2, &[&msg], &out);
    assert_eq!(s.listing(), ["results"]);
    assert_eq!(
        std::fs::read_to_string(&blocker).expect("still there"),
        "not a directory"
    );
}

#[test]
fn metrics_none_writes_nothing() {
    common::require_data!();
    let s = Scratch::new("none");
    let out = s.path("results.csv");
    let input = gold_file("afghan-biscuits");
    let o = evaluate_with(&input, &out, &["-metrics", "none"]);
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    assert_eq!(o.stdout, "The simulation process has finished.\n");
    assert!(!out.exists());
    assert!(s.listing().is_empty());
}

#[test]
fn profile_2023_reproduces_the_documented_script_example() {
    common::require_data!(
        cookingbot::base::profile::Profile::R2024,
        cookingbot::base::profile::Profile::R2023
    );
    let s = Scratch::new("script");
    let example = common::benchmark_dir().join("documentation/examples/script");
    let out = s.path("results.csv");
    let input = example.join("example-multiple-recipes.solution");
    let o = evaluate_with(&input, &out, &["--reference", "2023"]);
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    assert_eq!(
        std::fs::read(&out).expect("results written"),
        std::fs::read(example.join("results.csv")).expect("documented results")
    );
}

/// One recipe of `n` `fetch-and-proportion` actions chained through their kitchen states.
fn chain(n: usize) -> String {
    let mut s = String::from("#afghan-biscuits\n(get-kitchen ?ks-0)\n");
    for i in 0..n {
        s.push_str(&format!(
            "(fetch-and-proportion ?butter-{i} ?ks-{} ?ks-{i} ?container-{i} butter 1/2 g)\n",
            i + 1
        ));
    }
    s
}

#[test]
fn twenty_megabytes_refused_at_the_last_line() {
    common::require_data!();
    let s = Scratch::new("large-refused");
    let n = 250_000;
    let mut text = chain(n);
    text.push_str(&format!(
        "(fetch-and-portion ?last ?ks-last ?ks-{n} ?bowl butter 1 g)\n"
    ));
    assert!(text.len() > 20_000_000);
    let input = s.write("large.solution", &text);
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let at = format!("{}:{}:2", input.display(), n + 3);
    assert_failed(
        &o,
        1,
        &[
            "unknown primitive `fetch-and-portion`",
            &at,
            "did you mean `fetch-and-proportion`?",
            REFUSED,
        ],
        &out,
    );
}

#[test]
fn long_chain_is_simulated() {
    common::require_data!();
    let s = Scratch::new("large-run");
    let n = 5_000;
    let input = s.write("chain.solution", chain(n));
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    let csv = std::fs::read_to_string(&out).expect("results written");
    let row = csv.lines().nth(1).expect("one row");
    // fetch-and-proportion takes 30 s of kitchen time (spec primitives.md §3).
    assert!(row.starts_with("afghan-biscuits,"), "{row}");
    assert!(row.ends_with(&format!(",{}", 30 * n)), "{row}");
}

/// A chain one action over `limit`, evaluated with `metrics`: refused with `why`.
fn assert_over_limit(test: &str, limit: usize, metrics: &str, why: &str) {
    let s = Scratch::new(test);
    // `chain(limit)` has `limit` actions after `get-kitchen`: one more than the limit.
    let input = s.write("over.solution", chain(limit));
    let out = s.path("results.csv");
    let o = evaluate_with(&input, &out, &["-metrics", metrics]);
    let msg = format!(
        "error: {}: recipe afghan-biscuits has {} actions; {why}",
        input.display(),
        limit + 1
    );
    assert_failed(&o, 1, &[&msg, REFUSED], &out);
}

#[test]
fn network_over_the_action_limit_is_refused_before_its_run() {
    common::require_data!();
    let n = cookingbot::simulation::MAX_ACTIONS;
    let why = format!("networks of at most {n} actions are simulated");
    assert_over_limit("over-limit", n, "execution-time", &why);
}

#[test]
fn smatch_over_its_action_limit_is_refused() {
    common::require_data!();
    let n = cookingbot::metrics::smatch::MAX_ACTIONS;
    let why = format!("Smatch compares networks of at most {n} actions");
    assert_over_limit("smatch-over-limit", n, "smatch-score", &why);
}

#[test]
fn input_over_the_size_limit_is_refused_unread() {
    let s = Scratch::new("over-size");
    let input = s.path("huge.solution");
    let size = cookingbot::service::solution_file::MAX_INPUT_BYTES + 1;
    // A sparse file: its size is checked before anything is read.
    std::fs::File::create(&input)
        .and_then(|f| f.set_len(size))
        .expect("sparse file");
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let msg = format!(
        "error: {}: {size} bytes; solution files of at most {} bytes (64 MiB) are read",
        input.display(),
        size - 1
    );
    assert_failed(&o, 2, &[&msg], &out);
}

/// The CSV of the gold afghan-biscuits (reference/2024/gold.tsv).
const AFGHAN_BISCUITS_CSV: &str = "recipe-id,goal-condition-success,dish-approximation-score,\
                                   execution-time\nafghan-biscuits,1.00,1.00,2735\n";

#[test]
fn output_that_is_the_input_is_refused() {
    let s = Scratch::new("same-file");
    let input = s.write("mine.solution", "(not even read)");
    // The same file under another name: a hard link, through a `..` detour.
    std::fs::hard_link(&input, s.path("results.csv")).expect("hard link");
    std::fs::create_dir(s.path("sub")).expect("subdirectory");
    let out = s.path("sub/../results.csv");
    let o = evaluate(&input, &out);
    assert_eq!(o.code, 2, "stderr:\n{}", o.stderr);
    assert_stderr(
        &o,
        &[&format!(
            "error: the output {} is the input {}; refusing to overwrite it",
            out.display(),
            input.display()
        )],
    );
    assert_eq!(
        std::fs::read_to_string(&input).expect("input kept"),
        "(not even read)"
    );
    assert_eq!(s.listing(), ["mine.solution", "results.csv", "sub"]);
}

#[test]
fn symlink_output_keeps_the_link_and_replaces_its_target() {
    common::require_data!();
    let s = Scratch::new("symlink-out");
    let target = s.write("kept.csv", "old results");
    let link = s.path("results.csv");
    std::os::unix::fs::symlink("kept.csv", &link).expect("symlink");
    let o = evaluate(&gold_file("afghan-biscuits"), &link);
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    let meta = std::fs::symlink_metadata(&link).expect("link still there");
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    assert_eq!(
        std::fs::read_to_string(&target).expect("target"),
        AFGHAN_BISCUITS_CSV
    );
    assert_eq!(s.listing(), ["kept.csv", "results.csv"]);
}

#[test]
fn dangling_symlink_output_is_refused() {
    common::require_data!();
    let s = Scratch::new("dangling-out");
    let link = s.path("results.csv");
    std::os::unix::fs::symlink("elsewhere/nothing.csv", &link).expect("symlink");
    let o = evaluate(&gold_file("afghan-biscuits"), &link);
    assert_eq!(o.code, 2, "stderr:\n{}", o.stderr);
    assert_stderr(
        &o,
        &[&format!(
            "error: cannot write {0}: {0} is a symbolic link to nothing",
            link.display()
        )],
    );
    assert_eq!(s.listing(), ["results.csv"]);
}

#[test]
fn dash_output_is_standard_output() {
    common::require_data!();
    let o = run_os(&[
        OsStr::new("-input"),
        gold_file("afghan-biscuits").as_os_str(),
        OsStr::new("-output"),
        OsStr::new("-"),
    ]);
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    assert_eq!(o.stdout, AFGHAN_BISCUITS_CSV);
    assert_stderr(&o, &["The simulation process has finished."]);
    assert!(!Path::new("-").exists(), "a file named - was written");
}

#[test]
fn fifo_output_is_written_in_place() {
    common::require_data!();
    let s = Scratch::new("fifo-out");
    let fifo = s.path("results.csv");
    let status = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo failed");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read the FIFO"))
    };
    let o = evaluate(&gold_file("afghan-biscuits"), &fifo);
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    assert_eq!(reader.join().expect("reader"), AFGHAN_BISCUITS_CSV);
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::symlink_metadata(&fifo).expect("FIFO still there");
    assert!(meta.file_type().is_fifo(), "the FIFO was replaced");
    assert_eq!(s.listing(), ["results.csv"]);
}

/// Run `script` (sh) in a private mount namespace with a tmpfs over `/dev`, where device nodes
/// can be made and replaced without touching the real `/dev`; `$0` is the evaluator and `$1`
/// the gold afghan-biscuits. `None` (the test reported as not run) without root or `unshare`.
fn in_private_dev(test: &str, script: &str) -> Option<Outcome> {
    let setup = "set -e; mount -t tmpfs cookingbot-test /dev; ";
    let probe = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c"])
        .arg(format!("{setup}mknod /dev/null c 1 3"))
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("test {test} not run: needs root and `unshare --mount`");
        return None;
    }
    let out = common::with_data(&mut Command::new("unshare"))
        .args(["--mount", "--propagation", "private", "sh", "-c"])
        .arg(format!("{setup}{script}"))
        .arg(env!("CARGO_BIN_EXE_cookingbot-evaluator"))
        .arg(gold_file("afghan-biscuits"))
        .output()
        .expect("unshare runs");
    Some(Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

#[test]
fn dev_null_output_stays_a_device() {
    common::require_data!();
    let script = "mknod /dev/null c 1 3; \
                  \"$0\" -input \"$1\" -output /dev/null; \
                  test -c /dev/null && echo still-a-device; ls -A /dev";
    let Some(o) = in_private_dev("dev_null_output_stays_a_device", script) else {
        return;
    };
    assert_eq!(o.code, 0, "stderr:\n{}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    // The summary, the device check and a /dev holding nothing but the device.
    assert!(
        o.stdout
            .ends_with("The simulation process has finished.\nstill-a-device\nnull\n"),
        "stdout:\n{}",
        o.stdout
    );
}

#[test]
fn dev_full_output_fails_and_stays_a_device() {
    common::require_data!();
    let script = "mknod /dev/full c 1 7; \
                  code=0; \"$0\" -input \"$1\" -output /dev/full || code=$?; \
                  test -c /dev/full && echo still-a-device; ls -A /dev; exit $code";
    let Some(o) = in_private_dev("dev_full_output_fails_and_stays_a_device", script) else {
        return;
    };
    assert_eq!(o.code, 2, "stderr:\n{}", o.stderr);
    assert_stderr(
        &o,
        &["error: cannot write /dev/full: No space left on device"],
    );
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert_eq!(o.stdout, "still-a-device\nfull\n");
}

#[test]
fn file_size_limit_fails_the_write_and_leaves_nothing() {
    common::require_data!();
    let s = Scratch::new("ulimit-f");
    let out = s.path("results.csv");
    let run = common::with_data(&mut Command::new("sh"))
        .arg("-c")
        .arg("ulimit -f 0 && exec \"$0\" -input \"$1\" -output \"$2\"")
        .arg(env!("CARGO_BIN_EXE_cookingbot-evaluator"))
        .arg(gold_file("afghan-biscuits"))
        .arg(&out)
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "stderr:\n{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: cannot write {}: File too large",
            out.display()
        )),
        "stderr:\n{stderr}"
    );
    assert!(s.listing().is_empty(), "left behind: {:?}", s.listing());
}

#[test]
fn invalid_utf8_is_located() {
    let s = Scratch::new("latin1");
    let input = s.write("latin1.solution", b"(a)\n(caf\xe9 b)\n");
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    let msg = format!(
        "error: {}:2:5: not UTF-8 text (invalid byte 0xE9)",
        input.display()
    );
    assert_failed(&o, 2, &[&msg], &out);
}

#[test]
fn fifo_input_is_refused_unread() {
    let s = Scratch::new("fifo-in");
    let input = s.path("pipe.solution");
    let status = Command::new("mkfifo")
        .arg(&input)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo failed");
    let out = s.path("results.csv");
    // No writer ever opens the FIFO: reading it would block for ever.
    let o = evaluate(&input, &out);
    let msg = format!(
        "error: {}: a FIFO (named pipe), not a regular file; only regular files are read",
        input.display()
    );
    assert_failed(&o, 2, &[&msg], &out);
}

#[test]
fn endless_device_input_is_refused_unread() {
    let s = Scratch::new("dev-zero-in");
    let out = s.path("results.csv");
    // Opened for reading only; /dev/zero never ends.
    let o = evaluate(Path::new("/dev/zero"), &out);
    let msg =
        "error: /dev/zero: a character device, not a regular file; only regular files are read";
    assert_failed(&o, 2, &[msg], &out);
    assert!(s.listing().is_empty());
}

#[test]
fn thousands_of_diagnostics_are_capped() {
    let s = Scratch::new("many-args");
    // 30 KB: one action with 10,000 arguments, each a problem.
    let args = vec!["?x"; 10_000].join(" ");
    let input = s.write(
        "many.solution",
        format!("#afghan-biscuits\n(get-kitchen ?k)\n(fetch ?a ?b ?k {args})\n"),
    );
    let o = run_os(&[OsStr::new("check"), input.as_os_str()]);
    assert_eq!(
        o.code,
        1,
        "stderr:\n{}",
        &o.stderr[..o.stderr.len().min(2000)]
    );
    assert_eq!(o.stderr.matches("error[").count(), 100);
    assert!(
        o.stderr.ends_with(&format!(
            "{}: and 9900 more diagnostic(s), not shown\n\
             checked 1 file(s) against profile 2024: 10000 error(s), 0 warning(s)\n",
            input.display()
        )),
        "{}",
        &o.stderr[o.stderr.len().saturating_sub(2000)..]
    );
}

/// The numbers that aborted on memory or never ended, each refused by `check` and by
/// an evaluation before any simulation: exit 1, the value and its bound at file:line:col, no
/// output.
#[test]
fn huge_numbers_are_refused_before_simulation() {
    common::require_data!();
    let fetch = "(fetch-and-proportion ?b ?ks2 ?ks ?t butter";
    let cases = [
        (
            "(fetch-and-proportion ?p ?ks2 ?ks ?t tomato 2147483648 piece)".to_string(),
            "the quantity 2147483648 is over the bound of 1000000",
        ),
        (
            "(fetch ?b ?ks2 ?ks large-bowl 4294967296)".to_string(),
            "the quantity 4294967296 is over the bound of 1000000",
        ),
        (
            format!("{fetch} 1.5e38 g)"),
            "the quantity 1.5e38 is over the bound of 1000000",
        ),
        (
            // 1e11 g of butter, then portions of 25 g.
            format!("{fetch} 1e11 g)\n(portion-and-arrange ?p ?ks3 ?ks2 ?b 25 g ?pattern ?top)"),
            // Shown as the evaluator reads it, a float.
            "the quantity 1.0e11 is over the bound of 1000000",
        ),
        (
            format!("{fetch} 1/9223372036854775807 g)"),
            "the quantity 1/9223372036854775807 is under the bound of 0.001 (other than 0)",
        ),
    ];
    for (action, message) in cases {
        let s = Scratch::new("huge-numbers");
        let text = format!("#afghan-biscuits\n(get-kitchen ?ks)\n{action}\n");
        let input = s.write("huge.solution", &text);
        let value = message.split(' ').nth(2).unwrap().replace("1.0e", "1e");
        let col = action.find(&value).unwrap() + 1;
        let at = format!("{}:3:{col}", input.display());
        let error = format!("error[E0109]: {message}");
        let checked = run_os(&[OsStr::new("check"), input.as_os_str()]);
        assert_eq!(checked.code, 1, "{action}: {}", checked.stderr);
        assert_stderr(&checked, &[&error, &at]);
        let out = s.path("results.csv");
        assert_failed(&evaluate(&input, &out), 1, &[&error, &at, REFUSED], &out);
        assert_eq!(s.listing(), ["huge.solution"], "{action}");
    }
}

#[test]
fn escape_sequences_in_a_file_are_shown_escaped() {
    let s = Scratch::new("escapes");
    let input = s.write(
        "escapes.solution",
        "#afghan-biscuits\n(get-kitchen ?ks)\n(fe\u{1b}]0;owned\u{7}tch ?b ?ks2 ?ks large-bowl 1)\n",
    );
    let o = run_os(&[OsStr::new("check"), input.as_os_str()]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    // Control characters end a token: the form is cut there, and its line shown escaped.
    assert_stderr(
        &o,
        &[
            "error[E0002]: this `(` is not closed on its line",
            &format!("{}:3:1", input.display()),
            "3 │ (fe?]0;owned?tch ?b ?ks2 ?ks large-bowl 1)\n",
        ],
    );
    assert!(
        !o.stderr.chars().any(|c| c.is_control() && c != '\n'),
        "{:?}",
        o.stderr
    );
}

/// A batch is read a few files at a time: 20 files of 8 MB (160 MB) are scored in well under
/// their total size. The peak is the child's, as the kernel counts it.
#[test]
fn a_batch_of_large_files_is_not_held_in_memory() {
    common::require_data!();
    let s = Scratch::new("large-batch");
    let gold = std::fs::read_to_string(gold_file("afghan-biscuits")).unwrap();
    let padded = format!("{gold}\n{}\n", " ".repeat(8 << 20));
    for i in 0..20 {
        s.write(&format!("f{i:02}.solution"), &padded);
    }
    let out = s.path("results.csv");
    let peak = "import resource, subprocess, sys\n\
        r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n\
        print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let Ok(run) = common::with_data(&mut Command::new("python3"))
        .args([
            "-c",
            peak,
            env!("CARGO_BIN_EXE_cookingbot-evaluator"),
            "-input",
        ])
        .arg(&*s)
        .arg("-output")
        .arg(&out)
        .env("RAYON_NUM_THREADS", "2")
        .output()
    else {
        eprintln!("skipped: python3 is needed to measure the child's peak memory");
        return;
    };
    let said = String::from_utf8(run.stdout).unwrap();
    let (code, kb) = said.trim().split_once(' ').unwrap();
    assert_eq!(code, "0", "{said}");
    let kb: u64 = kb.parse().unwrap();
    assert!(kb < 100 * 1024, "peak {kb} kB for 160 MB of files");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        csv.lines()
            .filter(|l| l.contains("afghan-biscuits"))
            .count(),
        20
    );
}

#[test]
fn a_billion_portions_are_refused_not_cut() {
    common::require_data!();
    let s = Scratch::new("portions");
    // Both quantities are within bounds; the number of portions they make is not.
    let input = s.write(
        "portions.solution",
        "#afghan-biscuits\n(get-kitchen ?ks)\n\
         (fetch-and-proportion ?butter ?ks2 ?ks ?t butter 1000000 g)\n\
         (portion-and-arrange ?portions ?ks3 ?ks2 ?butter 1/1000 g ?pattern ?countertop)\n",
    );
    let out = s.path("results.csv");
    let o = evaluate(&input, &out);
    assert_failed(
        &o,
        1,
        &[
            "portion-and-arrange: 1000000000 portions of 1/1000; at most 20000 are cut in one action",
            REFUSED,
        ],
        &out,
    );
}

#[test]
fn translation_over_its_own_input_is_refused() {
    let s = Scratch::new("translate-same");
    let input = s.write("recipe.txt", "Cookies\n\nIngredients\n- 100 g butter\n");
    let o = run_os(&[
        OsStr::new("translate"),
        input.as_os_str(),
        OsStr::new("--output"),
        s.path("./recipe.txt").as_os_str(),
    ]);
    assert_eq!(o.code, 2, "stderr:\n{}", o.stderr);
    assert_stderr(
        &o,
        &[&format!(
            "error: the output {} is the input {}; refusing to overwrite it",
            s.path("./recipe.txt").display(),
            input.display()
        )],
    );
    assert_eq!(
        std::fs::read_to_string(&input).expect("input kept"),
        "Cookies\n\nIngredients\n- 100 g butter\n"
    );
    assert_eq!(s.listing(), ["recipe.txt"]);
}

#[test]
fn translation_to_dash_is_standard_output() {
    let s = Scratch::new("translate-dash");
    let input =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/translate/butter-cookies.txt");
    let run = common::evaluator()
        .current_dir(&*s)
        .args([
            OsStr::new("translate"),
            input.as_os_str(),
            OsStr::new("-o"),
            OsStr::new("-"),
        ])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "stderr:\n{stderr}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.starts_with('#'), "not a .solution text:\n{stdout}");
    assert!(stdout.contains("(get-kitchen "), "{stdout}");
    assert!(
        s.listing().is_empty(),
        "written to a file: {:?}",
        s.listing()
    );
}

fn demo_example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-mistake.solution")
}

/// The evaluator on the demo's mistake example (`--benchmark demo -input ...`) and `more`.
fn on_demo_example(more: &[&OsStr]) -> Outcome {
    let example = demo_example();
    let mut args = vec![
        OsStr::new("--benchmark"),
        OsStr::new("demo"),
        OsStr::new("-input"),
        example.as_os_str(),
    ];
    args.extend_from_slice(more);
    run_os(&args)
}

#[test]
fn misspelt_metric_is_refused_with_the_closest_name() {
    let s = Scratch::new("metric-typo");
    let out = s.path("results.csv");
    let o = evaluate_with(
        &demo_example(),
        &out,
        &["--benchmark", "demo", "-metrics", "smatch-scor"],
    );
    assert_failed(
        &o,
        2,
        &[
            "`smatch-scor` is not a metric (one of smatch-score, goal-condition-success, dish-approximation-score, execution-time); did you mean `smatch-score`?",
        ],
        &out,
    );
    assert!(s.listing().is_empty());
}

#[test]
fn metrics_separated_by_commas_or_spaces_are_the_same_columns() {
    let s = Scratch::new("metric-lists");
    let (comma, space) = (s.path("comma.csv"), s.path("space.csv"));
    let a = evaluate_with(
        &demo_example(),
        &comma,
        &[
            "--benchmark",
            "demo",
            "-metrics",
            "execution-time,GOAL-CONDITION-SUCCESS",
        ],
    );
    let b = evaluate_with(
        &demo_example(),
        &space,
        &[
            "--benchmark",
            "demo",
            "-metrics",
            "execution-time",
            "goal-condition-success",
        ],
    );
    assert_eq!((a.code, b.code), (0, 0), "{}{}", a.stderr, b.stderr);
    let header = |p: &Path| {
        let text = std::fs::read_to_string(p).expect("results written");
        text.lines().next().map(str::to_owned)
    };
    assert_eq!(
        header(&comma).as_deref(),
        Some("recipe-id,goal-condition-success,execution-time")
    );
    assert_eq!(header(&comma), header(&space));
}

#[test]
fn misspelt_single_dash_option_names_the_closest_option() {
    let s = Scratch::new("option-typo");
    let out = s.path("results.csv");
    let example = demo_example();
    let o = run_os(&[
        OsStr::new("-inptu"),
        example.as_os_str(),
        OsStr::new("-output"),
        out.as_os_str(),
    ]);
    assert_failed(
        &o,
        2,
        &["unexpected argument '--inptu' found", "'--input'"],
        &out,
    );
}

#[test]
fn missing_output_is_named() {
    let o = on_demo_example(&[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_stderr(
        &o,
        &["error: the evaluation needs -output FILE (or -o FILE; - for standard output)"],
    );
}

#[test]
fn short_o_is_the_output_of_the_main_command() {
    let s = Scratch::new("short-o");
    let out = s.path("results.csv");
    let o = on_demo_example(&[OsStr::new("-o"), out.as_os_str()]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let csv = std::fs::read_to_string(&out).expect("results written");
    assert!(
        csv.starts_with(
            "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n"
        ),
        "{csv}"
    );
}

#[test]
fn completions_for_bash_are_a_script_bash_can_source() {
    let s = Scratch::new("completions");
    let o = run_os(&["completions", "bash"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let script = s.write("cookingbot.bash", &o.stdout);
    let sourced = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {} && complete -p cookingbot-evaluator",
            script.display()
        ))
        .output()
        .expect("bash runs");
    assert!(sourced.status.success(), "{sourced:?}");
    assert!(String::from_utf8_lossy(&sourced.stdout).contains("cookingbot-evaluator"));
    assert!(o.stdout.contains("simulate") && o.stdout.contains("--fail-under"));
}

#[test]
fn the_manual_page_is_roff_with_every_command() {
    let o = run_os(&["manpage"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains(".TH cookingbot-evaluator 1"),
        "{}",
        o.stdout
    );
    for command in ["check", "simulate", "compare", "report", "completions"] {
        assert!(o.stdout.contains(command), "no {command} in the page");
    }
}

#[test]
fn check_writes_a_json_answer_with_located_diagnostics() {
    let s = Scratch::new("check-json");
    let bad = s.write(
        "bad.solution",
        "(get-kitchen ?kitchen)\n(fetch-and-proportion ?x ?k ?kitchen ?t flour 100 g)\n",
    );
    let o = run_os(&[
        OsStr::new("check"),
        OsStr::new("--format"),
        OsStr::new("json"),
        bad.as_os_str(),
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        o.stdout.lines().count(),
        1,
        "one line per file: {}",
        o.stdout
    );
    let answer: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON on stdout");
    assert_eq!(answer["ok"], false);
    let first = &answer["diagnostics"][0];
    assert_eq!(first["severity"], "error");
    assert!(first["line"].as_u64().is_some() && first["column"].as_u64().is_some());
    assert_eq!(answer["diagnostics_omitted"], 0);
    assert_eq!(o.stderr, "", "the answer replaces the rendered diagnostics");
}

/// The evaluator with `env` set, on a missing input: an error to colour.
fn refused_with(env: &[(&str, &str)], more: &[&str]) -> Outcome {
    let mut binary = Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"));
    let command = common::with_data(&mut binary);
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command
        .args(more)
        .args([
            "--benchmark",
            "demo",
            "-input",
            "no-such.solution",
            "-o",
            "-",
        ])
        .output()
        .expect("the binary runs");
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn colour_follows_color_and_no_color() {
    let always = refused_with(&[], &["--color", "always"]);
    assert_eq!(always.code, 2);
    assert!(
        always
            .stderr
            .starts_with("\x1b[1m\x1b[31merror:\x1b[0m no-such.solution"),
        "{:?}",
        always.stderr
    );
    for plain in [
        refused_with(&[], &["--color", "never"]),
        refused_with(&[("NO_COLOR", "1")], &[]),
        refused_with(&[], &[]),
    ] {
        assert_eq!(plain.code, 2);
        assert!(!plain.stderr.contains('\x1b'), "{:?}", plain.stderr);
        assert!(plain.stderr.starts_with("error: no-such.solution"));
    }
}

#[test]
fn quiet_leaves_out_the_summary_and_the_signature() {
    let s = Scratch::new("quiet");
    let out = s.path("results.csv");
    let loud = on_demo_example(&[OsStr::new("-o"), out.as_os_str()]);
    let quiet = on_demo_example(&[OsStr::new("-q"), OsStr::new("-o"), out.as_os_str()]);
    assert_eq!((loud.code, quiet.code), (0, 0), "{}", quiet.stderr);
    assert!(loud.stdout.contains("RECIPE: demo-shortbread-rounds"));
    assert!(loud.stderr.contains("signature: "));
    assert_eq!((quiet.stdout.as_str(), quiet.stderr.as_str()), ("", ""));
    assert!(std::fs::read_to_string(&out).is_ok_and(|csv| csv.starts_with("recipe-id,")));
}

#[test]
fn data_options_go_before_or_after_the_command_and_only_where_data_is_read() {
    let example = demo_example();
    let example = example.to_str().expect("a UTF-8 path");
    let before = run_os(&[
        "--benchmark",
        "demo",
        "--reference",
        "2024",
        "simulate",
        example,
    ]);
    let after = run_os(&[
        "simulate",
        example,
        "--benchmark",
        "demo",
        "--reference",
        "2024",
    ]);
    assert_eq!((before.code, after.code), (0, 0), "{}", before.stderr);
    assert_eq!(before.stdout, after.stdout);
    let fetch = run_os(&["fetch", "--kitchen", "k.json"]);
    assert_eq!(fetch.code, 2);
    assert_stderr(
        &fetch,
        &["error: `fetch` reads no benchmark data: --kitchen would do nothing"],
    );
    let merge = run_os(&["--benchmark", "demo", "merge", "a.json", "-o", "x.csv"]);
    assert_eq!(merge.code, 2);
    assert_stderr(&merge, &["`merge` reads no benchmark data: --benchmark"]);
    let misplaced = run_os(&["-input", example, "check", example]);
    assert_eq!(misplaced.code, 2);
    assert_stderr(
        &misplaced,
        &["error: --input is an option of the evaluation, not of `check`"],
    );
}

#[test]
fn the_long_version_names_the_commit_and_the_features() {
    let o = run_os(&["--version"]);
    assert_eq!(o.code, 0);
    let line = o.stdout.trim_end();
    let rest = line
        .strip_prefix(concat!(
            "cookingbot-evaluator ",
            env!("CARGO_PKG_VERSION"),
            " (commit "
        ))
        .unwrap_or_else(|| panic!("{line}"));
    let (commit, features) = rest.split_once("; features: ").expect("features named");
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{commit}"
    );
    assert!(features.ends_with(')'), "{features}");
}

#[test]
fn every_command_that_writes_takes_short_o() {
    let s = Scratch::new("short-o-everywhere");
    let example = demo_example();
    let example = example.to_str().expect("a UTF-8 path");
    let report = s.path("page.html");
    let compared = s.path("compare.md");
    let translated = s.path("t.solution");
    let recipe = s.write(
        "pancakes.txt",
        "Ingredients:\n200 g flour\n2 eggs\n300 ml milk\n\nInstructions:\n1. Mix the flour, eggs and milk in a bowl.\n",
    );
    let runs = [
        run_os(&[
            "--benchmark",
            "demo",
            "report",
            example,
            "-o",
            report.to_str().unwrap(),
        ]),
        run_os(&[
            "--benchmark",
            "demo",
            "compare",
            example,
            example,
            "--format",
            "markdown",
            "-o",
            compared.to_str().unwrap(),
        ]),
        run_os(&[
            "translate",
            recipe.to_str().unwrap(),
            "-o",
            translated.to_str().unwrap(),
        ]),
    ];
    for (o, path) in runs.iter().zip([&report, &compared, &translated]) {
        assert!(
            std::fs::metadata(path).is_ok_and(|m| m.len() > 0),
            "{} not written: {}",
            path.display(),
            o.stderr
        );
    }
}

#[test]
fn a_solution_on_standard_input_scores_as_the_file_does() {
    use std::io::Write as _;
    let example = demo_example();
    let from_file = on_demo_example(&[OsStr::new("-o"), OsStr::new("-")]);
    let mut child = common::evaluator()
        .args(["--benchmark", "demo", "-input", "-", "-output", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let text = std::fs::read(&example).expect("the demo example");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(&text)
        .expect("written");
    let piped = child.wait_with_output().expect("the run ends");
    assert_eq!(
        piped.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    assert_eq!(
        (from_file.code, String::from_utf8_lossy(&piped.stdout)),
        (0, from_file.stdout.into())
    );
}

#[test]
fn a_file_named_twice_is_scored_once_with_a_warning() {
    let s = Scratch::new("twice");
    let folder = s.path("solutions");
    std::fs::create_dir(&folder).expect("a folder");
    let file = folder.join("demo.solution");
    std::fs::copy(demo_example(), &file).expect("copied");
    let out = s.path("results.csv");
    let o = run_os(&[
        OsStr::new("--benchmark"),
        OsStr::new("demo"),
        OsStr::new("--input"),
        file.as_os_str(),
        OsStr::new("--input"),
        folder.as_os_str(),
        OsStr::new("-o"),
        out.as_os_str(),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_stderr(
        &o,
        &[&format!(
            "warning: {} is named twice; it is scored once",
            file.display()
        )],
    );
    let csv = std::fs::read_to_string(&out).expect("results written");
    let rows = csv
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file,"))
        .count();
    let once = on_demo_example(&[OsStr::new("-o"), OsStr::new("-")]);
    let recipes = once.stdout.lines().count() - 1;
    assert_eq!(rows, recipes, "{csv}");
}

#[test]
fn every_command_has_examples_in_its_help() {
    for command in [
        "check",
        "graph",
        "simulate",
        "fetch",
        "merge",
        "compare",
        "report",
        "translate",
        "benchmark",
        "completions",
    ] {
        let o = run_os(&[command, "--help"]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(
            o.stdout
                .contains(&format!("\nExamples:\n  cookingbot-evaluator {command}")),
            "{command}: {}",
            o.stdout
        );
    }
}
