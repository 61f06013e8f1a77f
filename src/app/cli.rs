//! The cookingbot command line: the reference evaluator's own invocation plus subcommands.
//! The binary in `src/bin` only calls [`main_from_args`].

use crate::app::bench_translate::{self, BenchOptions};
use crate::app::check::{self, CheckOptions};
use crate::app::compare::{self, CompareFormat, CompareOptions};
use crate::app::data::OFFLINE_VAR;
use crate::app::evaluate::{self, EvaluateOptions, Format, MergeOptions};
use crate::app::fetch::{self, FetchOptions};
use crate::app::report::{self, ReportOptions};
use crate::app::simulate::{self, SimulateOptions};
use crate::app::translate::{self, Fallback, LlmOptions, Setup, TranslateOptions, TranslatorKind};
use crate::benchmark::{self, DataError, DataSource};
use crate::metrics::smatch::SmatchConfig;
use crate::ontology::Ontology;
use crate::profile::Profile;
use crate::report::batch::{Bootstrap, Shard, Threshold};
use crate::report::{Metric, MetricSet};
use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "cookingbot-evaluator",
    version,
    about = "Evaluate, check and inspect MUHAI Cooking Language networks as the MUHAI Recipe Execution Benchmark's reference evaluator does",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    evaluate: EvaluateArgs,
    /// Reference version to reproduce: 2024 (Babel HEAD, official benchmark data) or 2023
    /// (the documented January 2023 release).
    #[arg(long, global = true, default_value = "2024")]
    reference: Profile,
    /// Folder of the benchmark data (holding `data/gold-standard-solutions`), or `demo` for
    /// the small demo benchmark built into the program; default $COOKINGBOT_BENCHMARK, else
    /// the data `fetch` installs (downloaded first when missing, unless --offline).
    #[arg(long, global = true)]
    benchmark: Option<PathBuf>,
    /// Another initial kitchen state (a JSON file in the format of `kitchens/`).
    #[arg(long, global = true)]
    kitchen: Option<PathBuf>,
    /// Never download benchmark data. Without it, a command that needs the official data and
    /// finds none (--benchmark, $COOKINGBOT_BENCHMARK, the `fetch` cache) downloads and
    /// installs it first, as `fetch` does.
    #[arg(long, global = true, env = OFFLINE_VAR, value_parser = BoolishValueParser::new())]
    offline: bool,
}

/// The reference's invocation; `-input`, `-output`, `-metrics`, `-show-output` and `-lib-dir`
/// are accepted with one dash, as the reference takes them.
#[derive(Args)]
struct EvaluateArgs {
    /// A .solution file, or a directory searched for *.solution files; repeat for a batch
    /// (scored in parallel; reports gain a file column).
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
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Prove the Smatch optimum: colour refinement, then branch and bound (notes on stderr
    /// where hill-climbing fell short). A search over its node budget, or over 4,000,000 test ×
    /// gold node pairs, stays unproven (`proven: false` in JSON, with the `bound` it reached).
    #[arg(long)]
    smatch_exact: bool,
    /// First run of the reference's smatch.py to replay (Python's `random` seeded with
    /// 1000 + SEED); the value most of three runs (SEED, SEED+1, SEED+2) print is reported.
    #[arg(long, default_value_t = SmatchConfig::default().seed)]
    smatch_seed: u64,
    /// Smatch's random restarts after the smart start.
    #[arg(long, default_value_t = SmatchConfig::default().restarts)]
    smatch_restarts: usize,
    /// Seconds one recipe's simulation may take; a recipe over it is refused (no hang).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::simulation::DEFAULT_TIME_BUDGET.as_secs())]
    timeout_per_recipe: u64,
    #[command(flatten)]
    ci: CiArgs,
}

#[derive(Args)]
struct CiArgs {
    /// Add the 95 % bootstrap interval to each mean of the summary (--format markdown or
    /// json, and the HTML report), drawn as `compare` draws its intervals.
    #[arg(long)]
    ci: bool,
    /// Bootstrap resamples for --ci.
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
    Metric::named(s).map(|_| s.to_owned())
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

#[derive(Subcommand)]
enum Command {
    /// Report every problem in .solution files (exit 1 on errors, 2 on unreadable files).
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Recipe ids to accept (default: the benchmark's 30 recipes; with `--benchmark demo`,
        /// the demo's).
        #[arg(long, num_args = 1..)]
        known_recipes: Option<Vec<String>>,
    },
    /// Print a recipe's dependency graph in Graphviz DOT.
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
    /// and approximate-randomization p-values and the per-recipe wins/ties/losses.
    Compare {
        baseline: PathBuf,
        #[arg(required = true)]
        systems: Vec<PathBuf>,
        /// The file to write, or - for standard output.
        #[arg(short, long, default_value = "-")]
        output: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: CompareFormatArg,
        /// Bootstrap resamples of the recipes.
        #[arg(long, default_value_t = 1000)]
        bootstrap: usize,
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
        #[command(flatten)]
        llm: LlmOptions,
    },
    /// Serve the Model Context Protocol on stdin and stdout: tools for an LLM agent to check,
    /// simulate and score networks, list the primitives and the kitchen; the benchmark's gold
    /// networks as resources.
    #[cfg(feature = "mcp")]
    Mcp,
    /// Translate every benchmark recipe's text and score the translations against the gold
    /// networks: a table per recipe, the mean of each metric and pass@k.
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
        /// regenerated with `--out docs`).
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

/// The demo's recipe ids when `--benchmark demo` selects it.
fn demo_recipes(
    profile: Profile,
    benchmark: Option<&Path>,
) -> Result<Option<Vec<String>>, DataError> {
    if benchmark != Some(Path::new(benchmark::DEMO)) {
        return Ok(None);
    }
    let manifest = DataSource::Demo.manifest(profile)?;
    Ok(Some(manifest.recipes.into_iter().map(|r| r.id).collect()))
}

/// Open the launcher; where no window can be opened, say why and how to use the command line.
#[cfg(feature = "gui")]
fn launch(settings: crate::gui::Settings) -> i32 {
    match crate::gui::run(settings) {
        Ok(()) => evaluate::EXIT_OK,
        Err(e) => {
            eprintln!("error: cannot open the launcher window: {e}\n{USAGE}");
            evaluate::EXIT_UNUSABLE
        }
    }
}

const USAGE: &str = "usage: cookingbot-evaluator -input FILE.solution|DIR [-input ...] -output RESULTS.csv [-metrics ...] [--format csv|json|junit|markdown] [--fail-under METRIC=VALUE] [--shard I/N] [--ci [--bootstrap N] [--seed S]]\n       cookingbot-evaluator merge SHARD.json... -o OUT [--format csv|json|junit|markdown]\n       cookingbot-evaluator simulate FILE [--recipe ID] [--trace] [--json]\n       cookingbot-evaluator check FILE...\n       cookingbot-evaluator compare BASELINE SYSTEM... [-o OUT] [--format text|csv|json|markdown|html] [--bootstrap N] [--seed S]\n       cookingbot-evaluator report FILE [--recipe ID] [-o OUT.html] [--open] [--ci]\n       cookingbot-evaluator --help";

/// Run the command line on `args` (the program name first, as `std::env::args_os` gives it)
/// in this process, and return its exit status: the binary, the Python package's
/// `cookingbot-evaluator` entry point and tests share it.
pub fn main_from_args(args: impl IntoIterator<Item = OsString>) -> u8 {
    let args = normalise(args.into_iter());
    #[cfg(feature = "gui")]
    if args.len() == 1 {
        return u8::try_from(launch(Default::default())).unwrap_or(2);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version print to stdout and succeed; usage errors exit 2, as clap does.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    let mut stderr = std::io::stderr();
    let mut stdout = std::io::stdout();
    let code = match cli.command {
        Some(Command::Check {
            files,
            known_recipes,
        }) => {
            let known_recipes = match known_recipes {
                Some(ids) => Some(ids),
                None => match demo_recipes(cli.reference, cli.benchmark.as_deref()) {
                    Ok(ids) => ids,
                    Err(e) => {
                        eprintln!("error: {e}");
                        return 2;
                    }
                },
            };
            let onto = Ontology::builtin(cli.reference);
            let files: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            let opts = CheckOptions {
                profile: cli.reference,
                known_recipes,
                classes: Some(&onto),
            };
            check::check_files(&files, &opts, &mut stderr)
        }
        Some(Command::Graph { file, recipe }) => check::graph(
            &file,
            recipe.as_deref(),
            cli.reference,
            &mut stdout,
            &mut stderr,
        ),
        Some(Command::Simulate {
            file,
            recipe,
            trace,
            json,
        }) => {
            let opts = SimulateOptions {
                file,
                recipe,
                profile: cli.reference,
                benchmark: cli.benchmark,
                offline: cli.offline,
                kitchen: cli.kitchen,
                trace,
                json,
            };
            simulate::run(&opts, &mut stdout, &mut stderr)
        }
        Some(Command::Fetch {
            all,
            from,
            data_dir,
        }) => {
            let opts = FetchOptions {
                profiles: if all {
                    Profile::ALL.to_vec()
                } else {
                    vec![cli.reference]
                },
                from,
                data_dir,
            };
            fetch::run(&opts, &mut stdout, &mut stderr)
        }
        Some(Command::Merge {
            shards,
            output,
            format,
            fail_under,
        }) => {
            let opts = MergeOptions {
                shards,
                output,
                format: format.into(),
                fail_under: fail_under.fail_under,
            };
            evaluate::merge(&opts, &mut stdout, &mut stderr)
        }
        Some(Command::Compare {
            baseline,
            systems,
            output,
            format,
            bootstrap,
            seed,
            metrics,
            dump_resamples,
        }) => {
            let metrics = if metrics.is_empty() {
                compare::default_metrics()
            } else {
                MetricSet::from_words(&metrics)
            };
            let opts = CompareOptions {
                systems: std::iter::once(baseline).chain(systems).collect(),
                evaluation: EvaluateOptions::scoring(
                    cli.reference,
                    cli.benchmark,
                    cli.kitchen,
                    metrics,
                    cli.offline,
                ),
                output,
                format: format.into(),
                bootstrap,
                seed,
                dump_resamples,
            };
            compare::run(&opts, &mut stdout, &mut stderr)
        }
        Some(Command::Report {
            file,
            recipe,
            output,
            open,
            metrics,
            ci,
        }) => {
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
                    ..EvaluateOptions::scoring(
                        cli.reference,
                        cli.benchmark,
                        cli.kitchen,
                        metrics,
                        cli.offline,
                    )
                },
                recipe,
                open,
            };
            report::run(&opts, &mut stdout, &mut stderr)
        }
        #[cfg(feature = "gui")]
        Some(Command::Gui {
            input,
            output,
            metrics,
            run,
        }) => {
            let defaults = crate::gui::Settings::default();
            launch(crate::gui::Settings {
                input,
                output,
                metrics: if metrics.is_empty() {
                    defaults.metrics
                } else {
                    MetricSet::from_words(&metrics)
                },
                profile: cli.reference,
                benchmark: cli.benchmark,
                start: run,
            })
        }
        Some(Command::Translate {
            input,
            output,
            translator,
            fallback,
            llm,
        }) => {
            let opts = TranslateOptions {
                input,
                output,
                profile: cli.reference,
                kitchen: cli.kitchen,
                translator,
                benchmark: cli.benchmark,
                offline: cli.offline,
                llm,
                fallback,
            };
            translate::run(&opts, &mut stdout, &mut stderr)
        }
        #[cfg(feature = "mcp")]
        Some(Command::Mcp) => crate::app::mcp::run(cli.reference, cli.offline, &mut stderr),
        Some(Command::Benchmark {
            translator,
            samples,
            pass_threshold,
            out,
            llm,
        }) => {
            let opts = BenchOptions {
                profile: cli.reference,
                benchmark: cli.benchmark.clone(),
                offline: cli.offline,
                samples,
                pass_threshold,
                out,
            };
            let setup = Setup {
                kind: translator,
                profile: cli.reference,
                kitchen: cli.kitchen.as_deref(),
                benchmark: cli.benchmark.as_deref(),
                offline: cli.offline,
                llm: &llm,
                // The table measures the model: a recipe it fails is NIL, not the rules' row.
                fallback: false,
            };
            translate::with_translator(&setup, &mut stderr, |_, t, err| {
                bench_translate::run(&opts, t, &mut stdout, err)
            })
        }
        None => {
            let e = cli.evaluate;
            match e.output {
                Some(output) if !e.input.is_empty() => {
                    let opts = EvaluateOptions {
                        inputs: e.input,
                        output,
                        metrics: MetricSet::from_words(&e.metrics),
                        profile: cli.reference,
                        benchmark: cli.benchmark,
                        offline: cli.offline,
                        kitchen: cli.kitchen,
                        format: e.format.into(),
                        smatch: SmatchConfig {
                            restarts: e.smatch_restarts,
                            seed: e.smatch_seed,
                            exact: e.smatch_exact,
                            ..SmatchConfig::default()
                        },
                        shard: e.shard,
                        fail_under: e.fail_under.fail_under,
                        progress: std::io::stderr().is_terminal(),
                        time_budget: std::time::Duration::from_secs(e.timeout_per_recipe),
                        ci: e.ci.bootstrap(),
                    };
                    let code = evaluate::run(&opts, &mut stdout, &mut stderr);
                    match e.show_output {
                        Some(v)
                            if code == evaluate::EXIT_OK && report::show_output_requested(&v) =>
                        {
                            let opts = ReportOptions {
                                html: report::beside(&opts.output),
                                evaluation: opts,
                                recipe: None,
                                open: true,
                            };
                            report::run(&opts, &mut stdout, &mut stderr)
                        }
                        _ => code,
                    }
                }
                output => {
                    let missing = match (e.input.is_empty(), output.is_none()) {
                        (true, true) => "-input FILE and -output FILE",
                        (true, false) => "-input FILE (a .solution file or a folder of them)",
                        _ => "-output FILE (or -o FILE; - for standard output)",
                    };
                    eprintln!("error: the evaluation needs {missing}\n{USAGE}");
                    evaluate::EXIT_UNUSABLE
                }
            }
        }
    };
    u8::try_from(code).unwrap_or(2)
}
