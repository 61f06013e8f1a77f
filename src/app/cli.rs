//! The cookingbot command line: the reference evaluator's own invocation plus subcommands.
//! The binary in `src/bin` only calls [`main_from_args`].

use crate::app::bench_translate::{self, BenchOptions};
use crate::app::check::{self, CheckOptions};
use crate::app::compare::{self, CompareFormat, CompareOptions};
use crate::app::console::{ColorWhen, Console};
use crate::app::data::DataContext;
use crate::app::evaluate::{self, EvaluateOptions, Format, GoldFile, MergeOptions};
use crate::app::fetch::{self, FetchOptions};
use crate::app::outcome::{AppError, Exit, Outcome};
use crate::app::report::{self, ReportOptions};
use crate::app::simulate::{self, SimulateOptions};
use crate::app::translate::{
    self, Fallback, LlmOptions, Setup, TranslateFormat, TranslateOptions, TranslatorKind,
};
use crate::app::user_benchmark::{self, AddRecipe, NewRecipe};
use crate::benchmark::{DataChoice, DataError, DataSource};
use crate::extension::World;
use crate::metrics::smatch::SmatchConfig;
use crate::profile::Profile;
use crate::report::batch::{Bootstrap, Shard, Threshold};
use crate::report::{Metric, MetricSet};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "cookingbot-evaluator",
    version,
    long_version = env!("COOKINGBOT_LONG_VERSION"),
    about = "Evaluate, check and inspect MUHAI Cooking Language networks as the MUHAI Recipe Execution Benchmark's reference evaluator does",
    after_help = EXAMPLES_AND_EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    evaluate: EvaluateArgs,
    #[command(flatten)]
    data: DataContext,
    #[command(flatten)]
    console: ConsoleArgs,
}

#[derive(Args)]
#[command(next_help_heading = "Console")]
struct ConsoleArgs {
    /// When to colour errors, warnings and summaries: auto (on a terminal, unless NO_COLOR is
    /// set), always or never.
    #[arg(long, global = true, value_enum, default_value = "auto")]
    color: ColorWhen,
    /// Print only results, errors and warnings: no summaries, notes or signatures.
    #[arg(short, long, global = true)]
    quiet: bool,
}

/// The reference's invocation; `-input`, `-output`, `-metrics`, `-show-output` and `-lib-dir`
/// are accepted with one dash, as the reference takes them.
#[derive(Args)]
struct EvaluateArgs {
    /// A .solution file (- for standard input), or a directory searched for *.solution files;
    /// repeat for a batch (scored in parallel; reports gain a file column; a file named twice
    /// is scored once).
    #[arg(long)]
    input: Vec<PathBuf>,
    /// The file to write (parent directories are created), or - for standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Metrics to compute: smatch-score goal-condition-success dish-approximation-score
    /// execution-time, or none (default: the three simulation metrics).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = metric_word)]
    metrics: Vec<String>,
    /// `t` or `true`: also write the HTML report beside the output (`results.html`) and open
    /// it in a browser (the reference's browser view).
    #[arg(long)]
    show_output: Option<String>,
    /// Accepted for compatibility; Smatch needs no Python library here.
    #[arg(long)]
    lib_dir: Option<PathBuf>,
    /// Output format: csv (the reference's, byte for byte), json (unrounded values with their
    /// detail and a signature), junit (a test case per recipe) or markdown (tables and means).
    #[arg(long, value_enum, default_value = "csv")]
    format: FormatArg,
    #[command(flatten)]
    fail_under: FailUnder,
    /// Score only shard I of N of the batch's recipes (round-robin); needs --format json and
    /// writes the shard's results for `merge`.
    #[arg(long, help_heading = "Batches", value_name = "I/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Prove the Smatch optimum: colour refinement, then branch and bound (notes on stderr
    /// where hill-climbing fell short). A search over its node budget, or over 4,000,000 test ×
    /// gold node pairs, stays unproven (`proven: false` in JSON, with the `bound` it reached).
    #[arg(long, help_heading = "Smatch")]
    smatch_exact: bool,
    /// Search nodes branch and bound may take per pair in exact mode. Every pair of 2024 gold
    /// networks of one family is proven within 2,000. The work is capped with it, whatever the
    /// networks' size: a pair left unproven costs at most about 4 s plus 0.16 s a node.
    #[arg(
        long,
        help_heading = "Smatch",
        value_name = "NODES",
        requires = "smatch_exact",
        default_value_t = SmatchConfig::default().exact_budget,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    smatch_exact_budget: u64,
    /// First run of the reference's smatch.py to replay (Python's `random` seeded with
    /// 1000 + SEED); the value most of three runs (SEED, SEED+1, SEED+2) print is reported.
    #[arg(long, help_heading = "Smatch", default_value_t = SmatchConfig::default().seed)]
    smatch_seed: u64,
    /// Smatch's random restarts after the smart start.
    #[arg(long, help_heading = "Smatch", default_value_t = SmatchConfig::default().restarts)]
    smatch_restarts: usize,
    #[command(flatten)]
    ci: CiArgs,
    /// Score against this gold network alone (its first network, matched by its header), with
    /// no benchmark: the signature says `user`.
    #[arg(long, value_name = "FILE", conflicts_with = "benchmark")]
    gold: Option<PathBuf>,
    /// The dish variable of --gold (default: the output of its last action).
    #[arg(long, value_name = "?VAR", requires = "gold")]
    dish: Option<String>,
}

#[derive(Args)]
struct CiArgs {
    /// Add the 95 % bootstrap interval to each mean of the summary (--format markdown or
    /// json, and the HTML report), drawn as `compare` draws its intervals.
    #[arg(long)]
    ci: bool,
    /// Bootstrap resamples for --ci (1 to 1,000,000; warned under 1,000).
    #[arg(long, default_value_t = 1000, requires = "ci")]
    bootstrap: usize,
    /// Seed of the --ci resamples; the same seed gives the same intervals.
    #[arg(long, default_value_t = 12345, requires = "ci")]
    seed: u64,
}

impl CiArgs {
    fn bootstrap(&self) -> Option<Bootstrap> {
        self.ci.then_some(Bootstrap {
            resamples: self.bootstrap,
            seed: self.seed,
        })
    }
}

#[derive(Args)]
struct FailUnder {
    /// Exit 1 and list the rows where METRIC prints below VALUE or NIL (repeatable).
    #[arg(long, value_name = "METRIC=VALUE", value_parser = parse_threshold)]
    fail_under: Vec<Threshold>,
}

/// A metric name or `none`: a typo is an error with the closest name, not a silently empty
/// column (the reference ignores unknown names; a CI job would record an empty score as a pass).
fn metric_word(s: &str) -> Result<String, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(s.to_owned());
    }
    Metric::named(s)
        .map(|_| s.to_owned())
        .map_err(|e| e.to_string())
}

fn parse_shard(s: &str) -> Result<Shard, String> {
    s.parse()
}

fn parse_threshold(s: &str) -> Result<Threshold, String> {
    s.parse()
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Csv,
    Json,
    Junit,
    Markdown,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Csv => Format::Csv,
            FormatArg::Json => Format::Json,
            FormatArg::Junit => Format::Junit,
            FormatArg::Markdown => Format::Markdown,
        }
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum CompareFormatArg {
    Text,
    Csv,
    Json,
    Markdown,
    Html,
}

impl From<CompareFormatArg> for CompareFormat {
    fn from(f: CompareFormatArg) -> CompareFormat {
        match f {
            CompareFormatArg::Text => CompareFormat::Text,
            CompareFormatArg::Csv => CompareFormat::Csv,
            CompareFormatArg::Json => CompareFormat::Json,
            CompareFormatArg::Markdown => CompareFormat::Markdown,
            CompareFormatArg::Html => CompareFormat::Html,
        }
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum CheckFormat {
    Human,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Report every problem in .solution files (exit 1 on errors, 2 on unreadable files).
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator check my.solution\n  cookingbot-evaluator check --format json submissions/*.solution > diagnostics.json\n  cookingbot-evaluator --benchmark demo check examples/demo-mistake.solution"
    )]
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Recipe ids to accept (default: the benchmark's 30 recipes; with `--benchmark demo`
        /// or a user benchmark's folder, its recipes).
        #[arg(long, num_args = 1..)]
        known_recipes: Option<Vec<String>>,
        /// human: rendered diagnostics on stderr; json: a report on stdout (each file's
        /// diagnostics with line, column, code and hint, and the totals).
        #[arg(long, value_enum, default_value = "human")]
        format: CheckFormat,
    },
    /// Print a shell's completion script, generated from this program's options:
    /// `source <(cookingbot-evaluator completions bash)`.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator completions zsh > ~/.zfunc/_cookingbot-evaluator\n  source <(cookingbot-evaluator completions bash)"
    )]
    Completions { shell: clap_complete::Shell },
    /// Print the manual page (roff), generated from this program's options:
    /// `cookingbot-evaluator manpage > cookingbot-evaluator.1`.
    Manpage,
    /// Print a recipe's dependency graph in Graphviz DOT.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator graph my.solution | dot -Tsvg > network.svg\n  cookingbot-evaluator graph my.solution --recipe cole-slaw"
    )]
    Graph {
        file: PathBuf,
        /// The recipe to draw (default: the first in the file).
        #[arg(long)]
        recipe: Option<String>,
    },
    /// Run one recipe and show each action with its times and bindings, and the final dish:
    /// the dish approximation score's best candidate when the benchmark has the recipe, else
    /// the last action whose output no other action uses. Exit 1 where the reference's
    /// simulation crashes, or where its dish approximation score fails (the evaluator refuses
    /// such a file; the run is shown without a final dish).
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator simulate my.solution\n  cookingbot-evaluator simulate my.solution --recipe cole-slaw --trace\n  cookingbot-evaluator simulate my.solution --json > run.json"
    )]
    Simulate {
        file: PathBuf,
        /// The recipe to run (default: the first in the file).
        #[arg(long)]
        recipe: Option<String>,
        /// Show every argument's binding, not only those an action produced.
        #[arg(long)]
        trace: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Download the benchmark data of the reference profile (or of both with `--all`), verify
    /// every file against the project's SHA-256 sums and install it where evaluation finds it.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator fetch\n  cookingbot-evaluator fetch --all\n  cookingbot-evaluator fetch --reference 2023 --from recipe-execution-benchmark.tar.gz"
    )]
    Fetch {
        /// Fetch the data of both profiles.
        #[arg(long)]
        all: bool,
        /// A local .tar.gz or .zip laid out like GitHub's archive, or a folder laid out like the
        /// data, for machines without internet.
        #[arg(long, value_name = "ARCHIVE_OR_DIR")]
        from: Option<PathBuf>,
        /// The data directory (default $COOKINGBOT_DATA_DIR, else the platform's, such as
        /// ~/.local/share/cookingbot); the data goes to DIR/benchmark/PROFILE.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Combine the shard reports of one batch (`--shard I/N --format json`) into exactly what
    /// one run over the whole batch writes.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator merge shard-*.json -o results.csv\n  cookingbot-evaluator merge shard-*.json -o summary.md --format markdown --fail-under goal-condition-success=0.8"
    )]
    Merge {
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// The file to write, or - for standard output.
        #[arg(short, long)]
        output: PathBuf,
        #[arg(long, value_enum, default_value = "csv")]
        format: FormatArg,
        #[command(flatten)]
        fail_under: FailUnder,
    },
    /// Is a system better than a baseline? Score each system (a .solution file or a directory
    /// of them) as `evaluate` scores an --input; per metric print the corpus mean (a recipe
    /// without execution scores 0) with its 95 % bootstrap interval and coverage, and against
    /// the baseline the difference with its paired-bootstrap interval, the paired bootstrap
    /// and randomization p-values and the per-recipe wins/ties/losses.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator compare baseline/ system-a/ system-b/\n  cookingbot-evaluator compare baseline/ system-a/ --format html -o leaderboard.html\n  cookingbot-evaluator compare baseline/ system-a/ --metrics smatch-score,dish-approximation-score --seed 7"
    )]
    Compare {
        baseline: PathBuf,
        #[arg(required = true)]
        systems: Vec<PathBuf>,
        /// The file to write, or - for standard output.
        #[arg(short, long, default_value = "-")]
        output: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: CompareFormatArg,
        /// Bootstrap resamples of the recipes (1 to 1,000,000; warned under 1,000).
        #[arg(long, default_value_t = 1000)]
        bootstrap: usize,
        /// Randomization trials when more than 20 recipes differ (fewer are enumerated
        /// exactly; 1 to 1,000,000, warned under 1,000).
        #[arg(long, default_value_t = compare::RANDOMIZATION_TRIALS)]
        trials: usize,
        /// Seed of the resamples and randomization trials; the same seed gives the same output.
        #[arg(long, default_value_t = 12345)]
        seed: u64,
        /// Metrics to compare (default: goal-condition-success dish-approximation-score).
        #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = metric_word)]
        metrics: Vec<String>,
        /// Also write the bootstrap resample indices and the per-recipe scores (JSON), to
        /// check the statistics with another implementation.
        #[arg(long, value_name = "FILE")]
        dump_resamples: Option<PathBuf>,
    },
    /// Evaluate and write a self-contained HTML page showing why each recipe scored as it did:
    /// metrics, network graph, execution timeline, goals reached and missed, dish vs gold.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator report my.solution --open\n  cookingbot-evaluator report my.solution --recipe cole-slaw -o cole-slaw.html --ci"
    )]
    Report {
        file: PathBuf,
        /// Only this recipe (default: every recipe in the file).
        #[arg(long)]
        recipe: Option<String>,
        /// The HTML file to write (default: the input's name with `.html`, in the current
        /// folder).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Open the page in a browser afterwards.
        #[arg(long)]
        open: bool,
        /// Metrics to compute (default: all four).
        #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = metric_word)]
        metrics: Vec<String>,
        #[command(flatten)]
        ci: CiArgs,
    },
    /// Open the desktop launcher (also what running the program with no arguments does):
    /// pick the input and output, tick the metrics, start, and see why each recipe scored as
    /// it did.
    #[cfg(feature = "gui")]
    Gui {
        /// The .solution file to fill in.
        #[arg(long)]
        input: Option<PathBuf>,
        /// The CSV file to fill in.
        #[arg(long)]
        output: Option<PathBuf>,
        /// Metrics to tick (default: all four).
        #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = metric_word)]
        metrics: Vec<String>,
        /// Start the evaluation at once (needs --input and --output).
        #[arg(long)]
        run: bool,
    },
    /// Translate recipe text (benchmark XML, plain text, or an HTML page with a schema.org
    /// Recipe in JSON-LD) into a checked network.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator translate recipe.txt -o recipe.solution\n  cookingbot-evaluator translate page.html --format json\n  cookingbot-evaluator translate recipe.txt --translator llm --llm-url http://localhost:8080/v1 --fallback rules"
    )]
    Translate {
        input: PathBuf,
        /// The .solution file to write (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "rules")]
        translator: TranslatorKind,
        /// What to write when the language model gives no valid network (default: nothing,
        /// exit 1).
        #[arg(long, value_enum)]
        fallback: Option<Fallback>,
        /// What to write: the .solution text, or JSON with the notes on what was left out.
        #[arg(long, value_enum, default_value = "solution")]
        format: TranslateFormat,
        #[command(flatten)]
        llm: LlmOptions,
    },
    /// Create a benchmark of your own recipes: the official data's layout (recipe texts under
    /// data/recipe-texts/, gold networks under data/gold-standard-solutions/meaning-only/) and
    /// an empty manifest, benchmark.json. Every command reads it with --benchmark DIR.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator new-benchmark my-benchmark\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --text pancakes.txt --gold pancakes.solution\n  cookingbot-evaluator --benchmark my-benchmark -input my.solution -output results.csv"
    )]
    NewBenchmark {
        /// The folder to create (or an empty one to fill).
        dir: PathBuf,
    },
    /// Add a recipe to a benchmark of your own: its text and gold network are copied in and
    /// listed in the manifest. A gold network with errors is refused (exit 1).
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --text pancakes.txt --gold pancakes.solution\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --text soup.xml --gold soup.solution --id tomato-soup --dish ?served-soup\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --official cole-slaw"
    )]
    AddRecipe {
        /// The recipe text: benchmark XML, plain text, or an HTML page with a schema.org Recipe.
        #[arg(long, required_unless_present = "official")]
        text: Option<PathBuf>,
        /// The gold network (.solution; the first network in the file).
        #[arg(long, required_unless_present = "official")]
        gold: Option<PathBuf>,
        /// The recipe's id (default: the gold network's header).
        #[arg(long)]
        id: Option<String>,
        /// The variable whose value is the dish (default: the output of the gold network's
        /// last action, as the official recipes name it).
        #[arg(long, value_name = "?VAR")]
        dish: Option<String>,
        /// Include a recipe of the official benchmark instead, read from the official data
        /// (found as without --benchmark).
        #[arg(long, value_name = "ID", conflicts_with_all = ["text", "gold", "id", "dish"])]
        official: Option<String>,
    },
    /// Serve the Model Context Protocol on stdin and stdout: tools for an LLM agent to check,
    /// simulate and score networks, list the primitives and the kitchen; the benchmark's gold
    /// networks as resources.
    #[cfg(feature = "mcp")]
    Mcp,
    /// Translate every benchmark recipe's text and score the translations against the gold
    /// networks: a table per recipe, the mean of each metric and pass@k.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator benchmark --out baseline\n  cookingbot-evaluator benchmark --translator llm --llm-url http://localhost:8080/v1 --samples 5 --out llm-run"
    )]
    Benchmark {
        #[arg(long, value_enum, default_value = "rules")]
        translator: TranslatorKind,
        /// Samples per recipe (K of pass@k).
        #[arg(long, default_value_t = 1)]
        samples: usize,
        /// A sample passes when its dish approximation score is at least this.
        #[arg(long, default_value_t = 0.9)]
        pass_threshold: f32,
        /// Folder for baseline-<translator>.csv and .md (created; the committed baselines are
        /// regenerated with `--out docs`) and samples/<recipe>/<k>.solution + <k>.json, every
        /// sample with its provenance and notes (k from 0; the folder is replaced whole).
        #[arg(long, default_value = "cookingbot-baseline")]
        out: PathBuf,
        #[command(flatten)]
        llm: LlmOptions,
    },
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

/// The recipe ids of the benchmark `--benchmark` names when it is the demo or a user benchmark
/// (otherwise `check` accepts the official recipes).
fn named_benchmark_recipes(
    profile: Profile,
    benchmark: Option<&DataChoice>,
) -> Result<Option<Vec<String>>, DataError> {
    let source = match benchmark {
        None => return Ok(None),
        Some(DataChoice::Demo) => DataSource::Demo,
        Some(DataChoice::Folder(dir)) => match DataSource::of_folder(profile, dir.clone())? {
            DataSource::Folder(_) => return Ok(None),
            user => user,
        },
    };
    let manifest = source.manifest(profile)?;
    Ok(Some(manifest.recipes.into_iter().map(|r| r.id).collect()))
}

/// Open the launcher; where no window can be opened, say why and how to use the command line.
#[cfg(feature = "gui")]
fn launch(settings: crate::gui::Settings) -> Outcome {
    crate::gui::run(settings).map_err(|e| {
        AppError::Failed(format!("cannot open the launcher window: {e}\n{}", usage()))
    })?;
    Ok(Exit::Success)
}

/// Examples and the statuses of [`Exit`], for `--help`.
const EXAMPLES_AND_EXIT_STATUS: &str = "Examples:
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
pub fn main_from_args(args: impl IntoIterator<Item = OsString>) -> u8 {
    let args = normalise(args.into_iter());
    #[cfg(feature = "gui")]
    if args.len() == 1 {
        let mut err = Console::new(std::io::stderr(), ColorWhen::Auto, false);
        return exit_status(launch(Default::default()), &mut err);
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
            let outcome = cli.run(&mut out, &mut err);
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
        "merge" | "completions" | "manpage" | "new-benchmark" => false,
        "add-recipe" => data != "kitchen" && data != "offline" && data != "timeout_per_recipe",
        "graph" | "fetch" => data == "profile",
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
    fn run(self, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
        let quiet = self.console.quiet;
        match self.command {
            Some(command) => {
                // What these commands print on stdout only says what they did.
                let mut sink = std::io::sink();
                let reports_only = matches!(
                    command,
                    Command::Report { .. } | Command::Fetch { .. } | Command::Benchmark { .. }
                );
                let out: &mut dyn Write = if quiet && reports_only {
                    &mut sink
                } else {
                    out
                };
                command.run(Session(self.data, quiet, out, err))
            }
            None => self.evaluate.run(Session(self.data, quiet, out, err)),
        }
    }
}

/// What every command runs with: its data, `--quiet`, standard output and standard error.
struct Session<'a>(DataContext, bool, &'a mut dyn Write, &'a mut dyn Write);

impl EvaluateArgs {
    /// The reference's invocation, and the HTML view `-show-output t` asks for.
    fn run(self, Session(data, quiet, out, err): Session<'_>) -> Outcome {
        let output = match (self.input.is_empty(), self.output) {
            (false, Some(output)) => output,
            (no_input, output) => {
                let missing = match (no_input, output.is_none()) {
                    (true, true) => "-input FILE and -output FILE",
                    (true, false) => "-input FILE (a .solution file or a folder of them)",
                    _ => "-output FILE (or -o FILE; - for standard output)",
                };
                return Err(AppError::Options(format!(
                    "the evaluation needs {missing}\n{}",
                    usage()
                )));
            }
        };
        let show_output = self
            .show_output
            .as_deref()
            .is_some_and(report::show_output_requested);
        if show_output && output.as_os_str() == evaluate::STDOUT {
            // The page goes beside the output file, and `-` is none: it would be `-.html`.
            return Err(AppError::Options(
                "-show-output t writes the HTML page beside the output file, and -output - names no file: write the results to a file, or make the page with `cookingbot-evaluator report FILE -o PAGE.html`".into(),
            ));
        }
        let opts = EvaluateOptions {
            inputs: self.input,
            output,
            metrics: MetricSet::from_words(&self.metrics),
            data,
            format: self.format.into(),
            smatch: SmatchConfig {
                restarts: self.smatch_restarts,
                seed: self.smatch_seed,
                exact: self.smatch_exact,
                exact_budget: self.smatch_exact_budget,
                ..SmatchConfig::default()
            },
            shard: self.shard,
            fail_under: self.fail_under.fail_under,
            progress: !quiet && std::io::stderr().is_terminal(),
            quiet,
            ci: self.ci.bootstrap(),
            gold: self.gold.map(|path| GoldFile {
                path,
                dish: self.dish,
            }),
        };
        let exit = evaluate::run(&opts, out, err)?;
        if !show_output || exit != Exit::Success {
            return Ok(exit);
        }
        let opts = ReportOptions {
            html: report::beside(&opts.output),
            evaluation: opts,
            recipe: None,
            open: true,
        };
        report::run(&opts, out, err)
    }
}

impl Command {
    fn run(self, Session(data, quiet, out, err): Session<'_>) -> Outcome {
        match self {
            Command::Completions { shell } => {
                let mut bytes = Vec::new();
                clap_complete::generate(
                    shell,
                    &mut Cli::command(),
                    "cookingbot-evaluator",
                    &mut bytes,
                );
                out.write_all(&bytes).map_err(AppError::Stdout)?;
                Ok(Exit::Success)
            }
            Command::Manpage => {
                clap_mangen::Man::new(Cli::command())
                    .render(out)
                    .map_err(AppError::Stdout)?;
                Ok(Exit::Success)
            }
            Command::Check {
                files,
                known_recipes,
                format,
            } => {
                let known_recipes = match known_recipes {
                    Some(ids) => Some(ids),
                    None => named_benchmark_recipes(data.profile, data.benchmark.as_ref())?,
                };
                let onto = World::of(data.benchmark.as_ref(), None)?.ontology(data.profile)?;
                let files: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
                let opts = CheckOptions {
                    profile: data.profile,
                    known_recipes,
                    classes: Some(&onto),
                    json: matches!(format, CheckFormat::Json),
                };
                check::check_files(&files, &opts, out, err)
            }
            Command::Graph { file, recipe } => {
                check::graph(&file, recipe.as_deref(), data.profile, out, err)
            }
            Command::Simulate {
                file,
                recipe,
                trace,
                json,
            } => {
                let opts = SimulateOptions {
                    file,
                    recipe,
                    data,
                    trace,
                    json,
                };
                simulate::run(&opts, out, err)
            }
            Command::Fetch {
                all,
                from,
                data_dir,
            } => {
                let opts = FetchOptions {
                    profiles: if all {
                        Profile::ALL.to_vec()
                    } else {
                        vec![data.profile]
                    },
                    from,
                    data_dir,
                };
                fetch::run(&opts, out, err)
            }
            Command::Merge {
                shards,
                output,
                format,
                fail_under,
            } => {
                let opts = MergeOptions {
                    shards,
                    output,
                    format: format.into(),
                    fail_under: fail_under.fail_under,
                    quiet,
                };
                evaluate::merge(&opts, out, err)
            }
            Command::Compare {
                baseline,
                systems,
                output,
                format,
                bootstrap,
                trials,
                seed,
                metrics,
                dump_resamples,
            } => {
                let metrics = if metrics.is_empty() {
                    compare::default_metrics()
                } else {
                    MetricSet::from_words(&metrics)
                };
                let opts = CompareOptions {
                    systems: std::iter::once(baseline).chain(systems).collect(),
                    evaluation: EvaluateOptions::scoring(data, metrics),
                    output,
                    format: format.into(),
                    bootstrap,
                    trials,
                    seed,
                    dump_resamples,
                };
                compare::run(&opts, out, err)
            }
            Command::Report {
                file,
                recipe,
                output,
                open,
                metrics,
                ci,
            } => {
                let metrics = if metrics.is_empty() {
                    MetricSet::from_words(&Metric::ALL.map(Metric::name))
                } else {
                    MetricSet::from_words(&metrics)
                };
                let opts = ReportOptions {
                    html: output.unwrap_or_else(|| report::default_path(&file)),
                    evaluation: EvaluateOptions {
                        inputs: vec![file],
                        ci: ci.bootstrap(),
                        ..EvaluateOptions::scoring(data, metrics)
                    },
                    recipe,
                    open,
                };
                report::run(&opts, out, err)
            }
            #[cfg(feature = "gui")]
            Command::Gui {
                input,
                output,
                metrics,
                run,
            } => {
                let defaults = crate::gui::Settings::default();
                launch(crate::gui::Settings {
                    input,
                    output,
                    metrics: if metrics.is_empty() {
                        defaults.metrics
                    } else {
                        MetricSet::from_words(&metrics)
                    },
                    profile: data.profile,
                    benchmark: data.benchmark,
                    start: run,
                })
            }
            Command::Translate {
                input,
                output,
                translator,
                fallback,
                format,
                llm,
            } => {
                let opts = TranslateOptions {
                    input,
                    output,
                    data,
                    translator,
                    llm,
                    fallback,
                    format,
                };
                translate::run(&opts, out, err)
            }
            #[cfg(feature = "mcp")]
            Command::Mcp => crate::app::mcp::run(&data),
            Command::NewBenchmark { dir } => user_benchmark::new_benchmark(&dir, out),
            Command::AddRecipe {
                text,
                gold,
                id,
                dish,
                official,
            } => {
                let benchmark = match data.benchmark {
                    Some(DataChoice::Folder(dir)) => dir,
                    Some(DataChoice::Demo) => {
                        return Err(AppError::Options(
                            "add-recipe adds to a folder: the demo is built into the program \
                             (make your own with new-benchmark DIR)"
                                .into(),
                        ));
                    }
                    None => {
                        return Err(AppError::Options(
                            "add-recipe needs --benchmark DIR, the benchmark to add the recipe to"
                                .into(),
                        ));
                    }
                };
                let recipe = match (official, text, gold) {
                    (Some(id), _, _) => NewRecipe::Official(id),
                    (None, Some(text), Some(gold)) => NewRecipe::Own {
                        text,
                        gold,
                        id,
                        dish,
                    },
                    _ => {
                        return Err(AppError::Options(
                            "add-recipe needs --text and --gold, or --official ID".into(),
                        ));
                    }
                };
                let opts = AddRecipe {
                    benchmark,
                    profile: data.profile,
                    recipe,
                };
                user_benchmark::add_recipe(&opts, out, err)
            }
            Command::Benchmark {
                translator,
                samples,
                pass_threshold,
                out: folder,
                llm,
            } => {
                let opts = BenchOptions {
                    data: data.clone(),
                    samples,
                    pass_threshold,
                    out: folder,
                };
                let setup = Setup {
                    kind: translator,
                    data: &data,
                    llm: &llm,
                    // The table measures the model: a recipe it fails is NIL, not the rules' row.
                    fallback: false,
                };
                translate::with_translator(&setup, err, |_, t, err| {
                    bench_translate::run(&opts, t, out, err)
                })
            }
        }
    }
}
