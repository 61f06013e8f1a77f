//! The cookingbot command line: the reference evaluator's own invocation plus subcommands.

use clap::{Args, Parser, Subcommand};
use cookingbot::app::check::{self, CheckOptions};
use cookingbot::app::evaluate::{self, EvaluateOptions};
use cookingbot::app::fetch::{self, FetchOptions};
use cookingbot::ontology::Ontology;
use cookingbot::profile::Profile;
use cookingbot::report::MetricSet;
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// (the documented January 2023 release); `fetch` also takes `all`.
    #[arg(long, global = true, default_value = "2024")]
    reference: Reference,
    /// Folder of the benchmark data (holding `data/gold-standard-solutions`); default
    /// $COOKINGBOT_BENCHMARK.
    #[arg(long, global = true)]
    benchmark: Option<PathBuf>,
}

/// The reference's invocation; `-input`, `-output`, `-metrics`, `-show-output` and `-lib-dir`
/// are accepted with one dash, as the reference takes them.
#[derive(Args)]
struct EvaluateArgs {
    /// The .solution file to evaluate.
    #[arg(long)]
    input: Option<PathBuf>,
    /// The CSV file to write (parent directories are created).
    #[arg(long)]
    output: Option<PathBuf>,
    /// Metrics to compute: smatch-score goal-condition-success dish-approximation-score
    /// execution-time, or none (default: the three simulation metrics).
    #[arg(long, num_args = 1..)]
    metrics: Vec<String>,
    /// Accepted for compatibility with the reference (its browser view is not reproduced).
    #[arg(long)]
    show_output: Option<String>,
    /// Accepted for compatibility; Smatch needs no Python library here.
    #[arg(long)]
    lib_dir: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Report every problem in .solution files (exit 1 on errors, 2 on unreadable files).
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Recipe ids to accept (default: the benchmark's 30 recipes).
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
    /// Download the benchmark data of the reference profile (or `--reference all`), verify every
    /// file against the project's SHA-256 sums and install it where evaluation finds it.
    Fetch {
        /// A local .tar.gz or .zip laid out like GitHub's archive, or a folder laid out like the
        /// data, for machines without internet.
        #[arg(long, value_name = "ARCHIVE_OR_DIR")]
        from: Option<PathBuf>,
        /// The data directory (default $COOKINGBOT_DATA_DIR, else the platform's, such as
        /// ~/.local/share/cookingbot); the data goes to DIR/benchmark/PROFILE.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
    },
}

/// `--reference`: one profile, or `all` (only `fetch` handles more than one).
#[derive(Clone, Copy)]
enum Reference {
    One(Profile),
    All,
}

impl std::str::FromStr for Reference {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "all" => Ok(Reference::All),
            _ => s.parse().map(Reference::One),
        }
    }
}

/// The reference's keys, matched case-insensitively with one dash.
const REFERENCE_KEYS: [&str; 5] = ["-input", "-output", "-show-output", "-lib-dir", "-metrics"];

/// Rewrite the reference's single-dash keys into this program's long options.
fn normalise(args: impl Iterator<Item = String>) -> Vec<String> {
    args.map(
        |a| match REFERENCE_KEYS.iter().find(|k| k.eq_ignore_ascii_case(&a)) {
            Some(k) => format!("-{k}"),
            None => a,
        },
    )
    .collect()
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(normalise(std::env::args()));
    let mut stderr = std::io::stderr();
    let mut stdout = std::io::stdout();
    let profile = match cli.reference {
        Reference::One(profile) => Some(profile),
        Reference::All => None,
    };
    let code = match (cli.command, profile) {
        (Some(Command::Fetch { from, data_dir }), _) => {
            let opts = FetchOptions {
                profiles: profile.map_or(Profile::ALL.to_vec(), |p| vec![p]),
                from,
                data_dir,
            };
            fetch::run(&opts, &mut stdout, &mut stderr)
        }
        (_, None) => {
            eprintln!("error: `--reference all` is only for `fetch`; choose 2023 or 2024");
            evaluate::EXIT_UNUSABLE
        }
        (
            Some(Command::Check {
                files,
                known_recipes,
            }),
            Some(profile),
        ) => {
            let onto = Ontology::builtin(profile);
            let files: Vec<&std::path::Path> = files.iter().map(PathBuf::as_path).collect();
            let opts = CheckOptions {
                profile,
                known_recipes,
                classes: Some(&onto),
            };
            check::check_files(&files, &opts, &mut stderr)
        }
        (Some(Command::Graph { file, recipe }), Some(profile)) => {
            check::graph(&file, recipe.as_deref(), profile, &mut stdout, &mut stderr)
        }
        (None, Some(profile)) => {
            let e = cli.evaluate;
            match (e.input, e.output) {
                (Some(input), Some(output)) => {
                    let opts = EvaluateOptions {
                        input,
                        output,
                        metrics: MetricSet::from_words(&e.metrics),
                        profile,
                        benchmark: cli.benchmark,
                    };
                    evaluate::run(&opts, &mut stdout, &mut stderr)
                }
                _ => {
                    eprintln!(
                        "usage: cookingbot-evaluator -input FILE.solution -output RESULTS.csv [-metrics ...]\n       cookingbot-evaluator check FILE...\n       cookingbot-evaluator fetch [--reference 2024|2023|all]\n       cookingbot-evaluator --help"
                    );
                    evaluate::EXIT_UNUSABLE
                }
            }
        }
    };
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}
