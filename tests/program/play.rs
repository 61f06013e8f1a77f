//! `play` as a person types it at a terminal (a pseudo-terminal: line editing, Tab completion,
//! Ctrl-D) and as a script feeds it (plain lines on a pipe).

use crate::common::{self, Scratch, outcome, require_data};
use rexpect::process::WaitStatus;
use std::io::Write;
use std::process::Stdio;

const RECIPE: &str = "afghan-biscuits";

/// The first `n` action lines of the recipe's gold network.
fn gold_lines(n: usize) -> Vec<String> {
    let text = common::read(&common::gold_file(RECIPE));
    text.lines().skip(1).take(n).map(str::to_string).collect()
}

#[test]
fn at_a_terminal_tab_completes_a_typo_is_caught_and_undone_and_the_lines_accepted_are_written() {
    require_data!();
    let scratch = Scratch::new("play-terminal");
    let written = scratch.path("typed.solution");
    let gold = gold_lines(3);
    let mut command = common::evaluator();
    command
        .args(["play", RECIPE, "-o"])
        .arg(&written)
        .env("TERM", "xterm");
    let mut terminal = rexpect::session::spawn_command(command, Some(30_000)).expect("a pty");
    let prompt = |n: usize| format!("{RECIPE} {n}> ");

    // `(get-kitc` and Tab: the only primitive it can begin is get-kitchen.
    terminal.exp_string(&prompt(2)).unwrap();
    assert!(gold[0].starts_with("(get-kitchen ?kitchen-state)"));
    terminal.send("(get-kitc\t").unwrap();
    terminal.send_line(" ?kitchen-state)").unwrap();
    terminal
        .exp_string("ran (line 2): get-kitchen ran: ?kitchen-state = the kitchen at 0:00")
        .unwrap();

    // A typo in an ingredient: refused, with the did-you-mean; then taken back.
    terminal.exp_string(&prompt(3)).unwrap();
    terminal
        .send_line(&gold[1].replace(" butter ", " buter "))
        .unwrap();
    terminal
        .exp_string("`buter` is not a class of the ontology")
        .unwrap();
    terminal.exp_string("did you mean `butter`").unwrap();
    terminal.exp_string(&prompt(4)).unwrap();
    terminal.send_line(":undo").unwrap();
    terminal.exp_string("took back: ").unwrap();
    terminal.exp_string(&prompt(3)).unwrap();
    terminal.send_line(&gold[1]).unwrap();
    terminal
        .exp_string("ran (line 3): fetch-and-proportion ran")
        .unwrap();

    // Tab after `?kitchen-state-with-b`: the network's only variable it can begin.
    terminal.exp_string(&prompt(4)).unwrap();
    let (head, tail) = gold[2]
        .split_once("?kitchen-state-with-butter ")
        .expect("the gold line uses ?kitchen-state-with-butter");
    terminal
        .send(&format!("{head}?kitchen-state-with-b\t"))
        .unwrap();
    terminal.send_line(&format!(" {tail}")).unwrap();
    terminal
        .exp_string("ran (line 4): bring-to-temperature ran")
        .unwrap();

    // Ctrl-D ends the session and writes the network.
    terminal.exp_string(&prompt(5)).unwrap();
    terminal.send_control('d').unwrap();
    terminal
        .exp_string(&format!(
            "wrote the network (3 lines) to {}",
            written.display()
        ))
        .unwrap();
    terminal.exp_eof().unwrap();
    assert!(matches!(
        terminal.process().wait(),
        Ok(WaitStatus::Exited(_, 0))
    ));
    let expected = format!("#{RECIPE}\n{}\n", gold.join("\n"));
    assert_eq!(common::read(&written), expected);
}

/// `play` with `lines` on its standard input, in `scratch`.
fn scripted(scratch: &Scratch, args: &[&str], lines: &str) -> common::Outcome {
    let mut command = common::evaluator();
    command
        .arg("play")
        .args(args)
        .current_dir(scratch.as_ref() as &std::path::Path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the binary runs");
    let mut stdin = child.stdin.take().expect("its stdin");
    stdin.write_all(lines.as_bytes()).expect("lines written");
    drop(stdin);
    let out = child.wait_with_output().expect("it ends");
    let stderr = common::stderr(&out);
    assert!(!stderr.contains("panicked"), "{stderr}");
    common::Outcome {
        code: out.status.code().expect("an exit code"),
        stdout: common::stdout(&out),
        stderr,
    }
}

#[test]
fn from_a_script_lines_are_read_plainly_and_finish_scores_and_writes_the_network() {
    require_data!();
    let scratch = Scratch::new("play-script");
    let gold = gold_lines(3);
    // The third gold line before the second: it waits for the butter, and runs once it is there.
    let script = format!(
        "{}\n{}\n\n(fecth-and-proportion ?x ?y ?z)\n:undo\n{}\n:look ?proportioned-butter\n:lok fridge\n{}\n:network\n:finish\nnot read\n",
        gold[0],
        gold[2],
        gold[1],
        "x".repeat(5_000)
    );
    let run = scripted(&scratch, &[RECIPE], &script);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    // No prompt: the lines come plainly.
    assert!(!out.contains(&format!("{RECIPE} 2> ")));
    assert!(out.contains("Title: Afghan Biscuits\n"), "{out}");
    assert!(out.contains("\nfridge: apple, avocado, banana, "));
    assert!(out.contains("waiting (line 3): bring-to-temperature cannot run yet: ?kitchen-state-with-butter (kitchen-state-in) is not bound: no action so far made it; ?proportioned-butter (container-with-ingredients) is not bound"), "{out}");
    assert!(out.contains("  error[E0103] 4:2: unknown primitive `fecth-and-proportion`\n    did you mean `fetch-and-proportion`?\n"));
    assert!(out.contains("took back: (fecth-and-proportion ?x ?y ?z)\n"));
    assert!(out.contains("ran (line 4): fetch-and-proportion ran; then line 3 ran (bring-to-temperature), which waited for it: "), "{out}");
    assert!(out.contains("\n?proportioned-butter = a medium bowl (used) holding 200 g butter at 5 °C, ready at 0:30\n"), "{out}");
    assert!(
        out.contains("error: no command `:lok` (did you mean :look?); :help lists the commands\n")
    );
    assert!(
        out.contains("error: a line of 5000 bytes; lines of at most 4096 bytes are accepted\n")
    );
    let network = format!("#{RECIPE}\n{}\n{}\n{}\n", gold[0], gold[2], gold[1]);
    assert!(out.contains(&network));
    assert!(out.contains("\nsmatch-score "));
    assert!(out.contains("\ngold goals reached: 2 of 40\n"), "{out}");
    assert!(out.ends_with(&format!(
        "wrote the network (3 lines) to {RECIPE}.solution\n"
    )));
    assert!(!out.contains("not read"));
    assert_eq!(
        common::read(&scratch.path(&format!("{RECIPE}.solution"))),
        network
    );
}

#[test]
fn a_session_given_no_line_leaves_the_file_at_its_path_as_it_was() {
    require_data!();
    let scratch = Scratch::new("play-nothing");
    let mine = scratch.write(&format!("{RECIPE}.solution"), "#afghan-biscuits\n; mine\n");
    let run = scripted(&scratch, &[RECIPE], "\n:network\n:quit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .ends_with(&format!("#{RECIPE}\nno line was given: nothing written\n"))
    );
    assert_eq!(common::read(&mine), "#afghan-biscuits\n; mine\n");
}

#[test]
fn an_output_that_cannot_be_written_prints_the_network_and_fails() {
    require_data!();
    let scratch = Scratch::new("play-unwritable");
    let gold = gold_lines(1);
    let run = scripted(&scratch, &[RECIPE, "-o", "."], &format!("{}\n", gold[0]));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains(&format!(
        "the network, which was not written:\n#{RECIPE}\n{}\n",
        gold[0]
    )));
    assert!(
        run.stderr
            .contains("error: cannot write .: . is a directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_unknown_recipe_is_refused_with_the_closest_ids() {
    let scratch = Scratch::new("play-unknown");
    let run = outcome(
        common::evaluator()
            .args(["play", "demo-garden-slad", "--benchmark", "demo"])
            .current_dir(scratch.as_ref() as &std::path::Path)
            .stdin(Stdio::null()),
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: the benchmark has no recipe `demo-garden-slad` (did you mean demo-garden-salad?)\n"
    );
    assert!(scratch.listing().is_empty());
}

#[test]
fn an_output_that_is_the_kitchen_read_is_refused_before_any_line() {
    let scratch = Scratch::new("play-kitchen-output");
    let kitchen_text = common::read(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kitchens/full-kitchen-2024.json"),
    );
    let kitchen = scratch.write("kitchen.json", &kitchen_text);
    let run = scripted(
        &scratch,
        &[
            "demo-garden-salad",
            "--benchmark",
            "demo",
            "--kitchen",
            "kitchen.json",
            "-o",
            "./kitchen.json",
        ],
        "(get-kitchen ?kitchen)\n:quit\n",
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert_eq!(
        run.stderr,
        "error: the output ./kitchen.json is the input kitchen.json; refusing to overwrite it\n"
    );
    assert_eq!(run.stdout, "");
    assert_eq!(common::read(&kitchen), kitchen_text);
}

/// `play` on the demo with `args`, in `scratch`, fed `lines` on a pipe and sent `signal` once
/// it has answered every line: how it ended.
fn signalled(
    scratch: &Scratch,
    args: &[&str],
    lines: &[&str],
    signal: libc::c_int,
) -> common::Outcome {
    use std::io::{BufRead, BufReader};
    let mut command = common::evaluator();
    command
        .args(["play", "demo-garden-salad", "--benchmark", "demo"])
        .args(args)
        .current_dir(scratch.as_ref() as &std::path::Path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the binary runs");
    let mut stdin = child.stdin.take().expect("its stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("a line written");
    }
    stdin.flush().expect("flushed");
    // The reply to the last line says its number; the input stays open, as a person's would.
    let last = format!("(line {})", lines.len() + 1);
    let mut stdout = BufReader::new(child.stdout.take().expect("its stdout"));
    let mut seen = String::new();
    while !seen.contains(&last) {
        let read = stdout.read_line(&mut seen).expect("its output");
        assert!(read > 0, "play ended before answering every line:\n{seen}");
    }
    // SAFETY: a signal to our own child.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("the rest of its output");
    let out = child.wait_with_output().expect("it ends");
    common::Outcome {
        code: out
            .status
            .code()
            .expect("an exit code, not death by the signal"),
        stdout: seen + &rest,
        stderr: common::stderr(&out),
    }
}

const TYPED: [&str; 2] = ["(get-kitchen ?kitchen)", "(fetch ?bowl ?kitchen)"];

#[test]
fn sigterm_writes_the_lines_typed_to_the_output_and_fails() {
    let scratch = Scratch::new("play-sigterm");
    let run = signalled(&scratch, &["-o", "typed.solution"], &TYPED, libc::SIGTERM);
    assert_eq!(run.code, 128 + libc::SIGTERM, "{}", run.stderr);
    let network = format!("#demo-garden-salad\n{}\n{}\n", TYPED[0], TYPED[1]);
    assert_eq!(common::read(&scratch.path("typed.solution")), network);
    assert_eq!(
        run.stderr,
        "\nplay ended by SIGTERM: wrote the network (2 lines) to typed.solution\n"
    );
}

#[test]
fn sighup_writes_the_lines_typed_where_the_session_said_or_prints_them() {
    let scratch = Scratch::new("play-sighup");
    let run = signalled(&scratch, &[], &TYPED[..1], libc::SIGHUP);
    assert_eq!(run.code, 128 + libc::SIGHUP, "{}", run.stderr);
    assert_eq!(
        common::read(&scratch.path("demo-garden-salad.solution")),
        format!("#demo-garden-salad\n{}\n", TYPED[0])
    );
    assert_eq!(
        run.stderr,
        "\nplay ended by SIGHUP: wrote the network (1 line) to demo-garden-salad.solution\n"
    );
    // An output that cannot be written: the network is printed instead.
    let run = signalled(&scratch, &["-o", "."], &TYPED, libc::SIGTERM);
    assert_eq!(run.code, 128 + libc::SIGTERM);
    assert_eq!(
        run.stderr,
        format!(
            "\nplay ended by SIGTERM: cannot write .: . is a directory\nthe network, which was not written:\n#demo-garden-salad\n{}\n{}\n",
            TYPED[0], TYPED[1]
        )
    );
}

#[test]
fn at_a_terminal_sigterm_writes_the_lines_typed() {
    let scratch = Scratch::new("play-terminal-sigterm");
    let written = scratch.path("typed.solution");
    let mut command = common::evaluator();
    command
        .args(["play", "demo-garden-salad", "--benchmark", "demo", "-o"])
        .arg(&written)
        .env("TERM", "xterm");
    let mut terminal = rexpect::session::spawn_command(command, Some(30_000)).expect("a pty");
    terminal.exp_string("demo-garden-salad 2> ").unwrap();
    terminal.send_line(TYPED[0]).unwrap();
    terminal.exp_string("demo-garden-salad 3> ").unwrap();
    terminal
        .process_mut()
        .signal(rexpect::process::Signal::SIGTERM)
        .unwrap();
    terminal
        .exp_string(&format!(
            "play ended by SIGTERM: wrote the network (1 line) to {}",
            written.display()
        ))
        .unwrap();
    terminal.exp_eof().unwrap();
    assert!(matches!(
        terminal.process().wait(),
        Ok(WaitStatus::Exited(_, 143))
    ));
    assert_eq!(
        common::read(&written),
        format!("#demo-garden-salad\n{}\n", TYPED[0])
    );
}
