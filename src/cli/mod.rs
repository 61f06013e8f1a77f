//! The cookingbot command line: the reference evaluator's own invocation plus subcommands.
//! It parses (`args`), runs one command (`commands`) over the service layer and prints how it
//! ended; the program's entry ([`crate::entry`]) hands it the other front ends it can open.

mod arg_values;
mod args;
mod commands;
pub mod console;
mod guide_args;
mod ray_score;
#[cfg(feature = "repl")]
mod repl;
mod rewrite_commands;
mod signals;

#[cfg(feature = "gui")]
use crate::cli::console::ColorWhen;
use crate::cli::console::Console;
use crate::service::context::DataContext;
#[cfg(feature = "gui")]
use crate::service::launch::LaunchSettings;
use crate::service::outcome::{AppError, Exit, Outcome};
use args::{Cli, Command, ConsoleArgs, EvaluateArgs};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches};
use std::ffi::OsString;
use std::io::Write;

/// The front ends the command line opens: its `gui` and `mcp` commands (and running with no
/// arguments) call these, which the program's entry supplies, so that no front end names
/// another.
#[derive(Clone, Copy)]
pub struct FrontEnds {
    /// Open the desktop launcher and wait until it is closed; `Err` says why no window opened.
    #[cfg(feature = "gui")]
    pub launcher: fn(LaunchSettings) -> Result<(), String>,
    /// Serve the tool server on standard input and output, on the command's data.
    #[cfg(feature = "mcp")]
    pub tool_server: fn(&DataContext) -> Outcome,
    /// Whether the process ends when the command returns (the binary, not the Python package's
    /// entry point, which a program may call again): an evaluation then leaves its data to
    /// the operating system rather than freeing it ([`crate::service::scoring::run_once`]).
    pub process_ends: bool,
}

/// The reference's keys, matched case-insensitively with one dash.
const REFERENCE_KEYS: [&str; 5] = ["-input", "-output", "-show-output", "-lib-dir", "-metrics"];

/// Rewrite the reference's single-dash keys into this program's long options, and any other
/// single-dash word (`-inptu`) into a long option too, so that a typo is reported as an unknown
/// option with the closest one, not as the short flag `-i`.
fn normalise(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    args.map(|a| {
        let Some(word) = a.to_str() else { return a };
        match REFERENCE_KEYS.iter().find(|k| k.eq_ignore_ascii_case(word)) {
            Some(k) => format!("-{k}").into(),
            None if is_single_dash_word(word) => format!("-{word}").into(),
            None => a,
        }
    })
    .collect()
}

/// `-word`: one dash, then two or more letters or dashes (not `-o`, `-`, or `-0.5`).
fn is_single_dash_word(a: &str) -> bool {
    a.strip_prefix('-').is_some_and(|w| {
        w.len() >= 2
            && w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
    })
}

/// Examples and the statuses of [`Exit`], for `--help`.
pub(super) const EXAMPLES_AND_EXIT_STATUS: &str = "Examples:
  cookingbot-evaluator -input my.solution -output results.csv
  cookingbot-evaluator -input submissions/ -output results.md --format markdown --fail-under dish-approximation-score=0.8
  cookingbot-evaluator check my.solution
  cookingbot-evaluator report my.solution --open
  cookingbot-evaluator compare baseline/ system-a/ system-b/
  cookingbot-evaluator --benchmark demo -input examples/demo-mistake.solution -output -

Exit status:
  0  done: results written, files clean (warnings allowed)
  1  what the command checks failed: a solution refused as the reference refuses it, a row below
     --fail-under, errors in checked files, a translation with no usable network, data that failed
     verification
  2  the input, the data, the options or the output could not be used (usage errors too); nothing
     was written";

/// The usage printed where the command line was not understood or no window could open: the
/// reference's invocation, then every command's usage rendered from the parser's definition,
/// so that a new command is listed without anyone adding it here.
pub fn usage() -> String {
    let mut cli = command();
    cli.build();
    let commands = cli
        .get_subcommands_mut()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.render_usage().to_string());
    let mut lines = vec![
        "cookingbot-evaluator -input FILE.solution|DIR [-input ...] -output FILE [OPTIONS]"
            .to_string(),
    ];
    lines.extend(commands.map(|u| u.trim_start_matches("Usage: ").trim_end().to_string()));
    format!("usage: {}", lines.join("\n       "))
}

/// The command line's definition (options, commands, help), as clap builds it.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Run the command line on `args` (the program name first, as `std::env::args_os` gives it)
/// in this process, and return its exit status: the binary, the Python package's
/// `cookingbot-evaluator` entry point and tests share it.
pub fn main_from_args(args: impl IntoIterator<Item = OsString>, front_ends: FrontEnds) -> u8 {
    let args = normalise(args.into_iter());
    #[cfg(feature = "gui")]
    if args.len() == 1 {
        let mut err = Console::new(std::io::stderr(), ColorWhen::Auto, false);
        return exit_status(commands::launch(&front_ends, Default::default()), &mut err);
    }
    let parsed = Cli::command()
        .try_get_matches_from(args)
        .and_then(|matches| {
            check_placement(&matches)?;
            Cli::from_arg_matches(&matches)
        });
    match parsed {
        Ok(cli) => {
            let ConsoleArgs { color, quiet } = cli.console;
            let mut out = Console::new(std::io::stdout(), color, false);
            let mut err = Console::new(std::io::stderr(), color, quiet);
            let outcome = cli.run(&mut out, &mut err, front_ends);
            // What is still held for standard output is part of the result: not written, the
            // command failed.
            let flushed = out.flush().map_err(AppError::Stdout);
            exit_status(outcome.and_then(|exit| flushed.map(|()| exit)), &mut err)
        }
        Err(e) => {
            // Help and version print to stdout and succeed; usage errors exit 2, as clap does.
            let _ = e.print();
            u8::try_from(e.exit_code()).unwrap_or(Exit::Unusable.code())
        }
    }
}

/// The one place where a command's error is printed.
fn exit_status(outcome: Outcome, err: &mut dyn Write) -> u8 {
    match outcome {
        Ok(exit) => exit.code(),
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            Exit::Unusable.code()
        }
    }
}

/// The evaluation's options belong to the evaluation, and the data options to the commands
/// that read data: given elsewhere they would do nothing, so they are refused. (Data options
/// are accepted before or after a command's name.)
fn check_placement(matches: &ArgMatches) -> Result<(), clap::Error> {
    let Some((name, sub)) = matches.subcommand() else {
        return Ok(());
    };
    let given = |m: &ArgMatches, id: &str| {
        m.try_get_raw(id).is_ok_and(|v| v.is_some())
            && m.value_source(id) == Some(ValueSource::CommandLine)
    };
    let evaluation = EvaluateArgs::augment_args(clap::Command::new("evaluate"));
    let misplaced = evaluation
        .get_arguments()
        .find(|a| given(matches, a.get_id().as_str()))
        .map(|a| {
            let option = a.get_long().unwrap_or(a.get_id().as_str());
            format!("--{option} is an option of the evaluation, not of `{name}`")
        });
    let reads = |data: &str| match name {
        "merge" | "completions" | "manpage" | "new-benchmark" | "replay" => false,
        "add-recipe" => data != "kitchen" && data != "offline" && data != "timeout_per_recipe",
        "graph" | "fetch" => data == "profile",
        // The workers locate their data themselves and score with the default budget.
        "ray-score" => data != "offline" && data != "timeout_per_recipe",
        "check" => data != "timeout_per_recipe",
        _ => true,
    };
    let unread = [
        "profile",
        "benchmark",
        "kitchen",
        "offline",
        "timeout_per_recipe",
    ]
    .into_iter()
    .find(|id| !reads(id) && (given(matches, id) || given(sub, id)))
    .map(|id| match id {
        _ if name == "ray-score" => format!(
            "`ray-score` hands the cluster's workers --reference, --benchmark and --kitchen only: --{} would do nothing",
            id.replace('_', "-")
        ),
        "timeout_per_recipe" => {
            format!("`{name}` runs no recipe: --timeout-per-recipe would do nothing")
        }
        "profile" => format!("`{name}` reads no benchmark data: --reference would do nothing"),
        _ => format!("`{name}` reads no benchmark data: --{id} would do nothing"),
    });
    match misplaced.or(unread) {
        Some(message) => {
            Err(Cli::command().error(clap::error::ErrorKind::ArgumentConflict, message))
        }
        None => Ok(()),
    }
}

impl Cli {
    fn run(self, out: &mut dyn Write, err: &mut dyn Write, front_ends: FrontEnds) -> Outcome {
        let quiet = self.console.quiet;
        match self.command {
            Some(command) => {
                // What these commands print on stdout only says what they did.
                let mut sink = std::io::sink();
                let reports_only = matches!(
                    command,
                    Command::Report(_) | Command::Fetch(_) | Command::Benchmark(_)
                );
                let out: &mut dyn Write = if quiet && reports_only {
                    &mut sink
                } else {
                    out
                };
                command.run(Session(self.data, quiet, out, err, &front_ends))
            }
            None => self
                .evaluate
                .run(Session(self.data, quiet, out, err, &front_ends)),
        }
    }
}

/// What every command runs with: its data, `--quiet`, standard output and standard error, and
/// the front ends it may open (none in a build without the launcher and the tool server).
#[cfg_attr(not(any(feature = "gui", feature = "mcp")), allow(dead_code))]
struct Session<'a>(
    DataContext,
    bool,
    &'a mut dyn Write,
    &'a mut dyn Write,
    &'a FrontEnds,
);

impl Command {
    /// One command's own `run`, with what every command runs with.
    fn run(self, session: Session<'_>) -> Outcome {
        match self {
            Command::Completions(args) => args.run(session),
            Command::Manpage => commands::manpage(session),
            Command::Check(args) => args.run(session),
            Command::Graph(args) => args.run(session),
            Command::Simulate(args) => args.run(session),
            Command::Substitute(args) => args.run(session),
            Command::Scale(args) => args.run(session),
            Command::Diet(args) => args.run(session),
            Command::Guide(args) => args.run(session),
            Command::Fetch(args) => args.run(session),
            Command::Merge(args) => args.run(session),
            Command::Compare(args) => args.run(session),
            Command::Report(args) => args.run(session),
            #[cfg(feature = "gui")]
            Command::Gui(args) => args.run(session),
            Command::Translate(args) => args.run(session),
            Command::Job(args) => args.run(session),
            #[cfg(feature = "mcp")]
            Command::Mcp => commands::mcp(session),
            Command::NewBenchmark(args) => args.run(session),
            Command::AddRecipe(args) => args.run(session),
            Command::Benchmark(args) => args.run(session),
            Command::Play(args) => args.run(session),
            Command::Replay(args) => args.run(session),
            Command::RayScore(args) => args.run(session),
        }
    }
}
