//! The command line's definition: the reference's options, every command's arguments, their
//! help and their parsers, as clap reads them. Nothing here runs a command.

use super::EXAMPLES_AND_EXIT_STATUS;
use super::arg_values::*;
use super::rewrite_commands::{ScaleArgs, SubstituteArgs};
use crate::cli::console::ColorWhen;
use crate::data::diet_table::Diet;
use crate::metrics::smatch::SmatchConfig;
use crate::report::batch_report::{Bootstrap, Shard, Threshold};
use crate::service::comparison;
use crate::service::context::DataContext;
use crate::service::diet_check::DietFormat;
use crate::service::translation::{Fallback, LlmOptions, TranslateFormat, TranslatorKind};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "cookingbot-evaluator",
    version,
    long_version = env!("COOKINGBOT_LONG_VERSION"),
    about = "Evaluate, check and inspect MUHAI Cooking Language networks as the MUHAI Recipe Execution Benchmark's reference evaluator does",
    after_help = EXAMPLES_AND_EXIT_STATUS
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Option<Command>,
    #[command(flatten)]
    pub(super) evaluate: EvaluateArgs,
    #[command(flatten)]
    pub(super) data: DataContext,
    #[command(flatten)]
    pub(super) console: ConsoleArgs,
}

#[derive(Args)]
#[command(next_help_heading = "Console")]
pub(super) struct ConsoleArgs {
    /// When to colour errors, warnings and summaries: auto (on a terminal, unless NO_COLOR is
    /// set), always or never.
    #[arg(long, global = true, value_enum, default_value = "auto")]
    pub(super) color: ColorWhen,
    /// Print only results, errors and warnings: no summaries, notes or signatures.
    #[arg(short, long, global = true)]
    pub(super) quiet: bool,
}

/// The reference's invocation; `-input`, `-output`, `-metrics`, `-show-output` and `-lib-dir`
/// are accepted with one dash, as the reference takes them.
#[derive(Args)]
pub(super) struct EvaluateArgs {
    /// A .solution file (- for standard input), or a directory searched for *.solution files;
    /// repeat for a batch (scored in parallel; reports gain a file column; a file named twice
    /// is scored once).
    #[arg(long)]
    pub(super) input: Vec<PathBuf>,
    /// The file to write (parent directories are created), or - for standard output.
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
    /// Metrics to compute: smatch-score goal-condition-success dish-approximation-score
    /// execution-time, or none (default: the three simulation metrics). `diet:NAME` (such as
    /// diet:vegan) adds a column of our own after them: 1 when the simulated dish keeps the
    /// diet, 0 when it does not, NIL without an execution.
    #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = evaluation_metric_word)]
    pub(super) metrics: Vec<String>,
    /// `t` or `true`: also write the HTML report beside the output (`results.html`) and open
    /// it in a browser (the reference's browser view).
    #[arg(long)]
    pub(super) show_output: Option<String>,
    /// Accepted for compatibility; Smatch needs no Python library here.
    #[arg(long)]
    pub(super) lib_dir: Option<PathBuf>,
    /// Output format: csv (the reference's, byte for byte), json (unrounded values with their
    /// detail and a signature), junit (a test case per recipe) or markdown (tables and means).
    #[arg(long, value_enum, default_value = "csv")]
    pub(super) format: FormatArg,
    #[command(flatten)]
    pub(super) fail_under: FailUnder,
    /// Score only shard I of N of the batch's recipes (round-robin); needs --format json and
    /// writes the shard's results for `merge`.
    #[arg(long, help_heading = "Batches", value_name = "I/N", value_parser = parse_shard)]
    pub(super) shard: Option<Shard>,
    /// Prove the Smatch optimum: colour refinement, then branch and bound (notes on stderr
    /// where hill-climbing fell short). A search over its node budget, or over 4,000,000 test ×
    /// gold node pairs, stays unproven (`proven: false` in JSON, with the `bound` it reached).
    #[arg(long, help_heading = "Smatch")]
    pub(super) smatch_exact: bool,
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
    pub(super) smatch_exact_budget: u64,
    /// First run of the reference's smatch.py to replay (Python's `random` seeded with
    /// 1000 + SEED); the value most of three runs (SEED, SEED+1, SEED+2) print is reported.
    #[arg(long, help_heading = "Smatch", default_value_t = SmatchConfig::default().seed)]
    pub(super) smatch_seed: u64,
    /// Smatch's random restarts after the smart start.
    #[arg(long, help_heading = "Smatch", default_value_t = SmatchConfig::default().restarts)]
    pub(super) smatch_restarts: usize,
    #[command(flatten)]
    pub(super) ci: CiArgs,
    /// Score against this gold network alone (its first network, matched by its header), with
    /// no benchmark: the signature says `user`.
    #[arg(long, value_name = "FILE", conflicts_with = "benchmark")]
    pub(super) gold: Option<PathBuf>,
    /// The dish variable of --gold (default: the output of its last action).
    #[arg(long, value_name = "?VAR", requires = "gold")]
    pub(super) dish: Option<String>,
}

#[derive(Args)]
pub(super) struct CiArgs {
    /// Add the 95 % bootstrap interval to each mean of the summary (--format markdown or
    /// json, and the HTML report), drawn as `compare` draws its intervals.
    #[arg(long)]
    pub(super) ci: bool,
    /// Bootstrap resamples for --ci (1 to 1,000,000; warned under 1,000).
    #[arg(long, default_value_t = 1000, requires = "ci")]
    pub(super) bootstrap: usize,
    /// Seed of the --ci resamples; the same seed gives the same intervals.
    #[arg(long, default_value_t = 12345, requires = "ci")]
    pub(super) seed: u64,
}

impl CiArgs {
    pub(super) fn bootstrap(&self) -> Option<Bootstrap> {
        self.ci.then_some(Bootstrap {
            resamples: self.bootstrap,
            seed: self.seed,
        })
    }
}

#[derive(Args)]
pub(super) struct FailUnder {
    /// Exit 1 and list the rows where METRIC prints below VALUE or NIL (repeatable).
    #[arg(long, value_name = "METRIC=VALUE", value_parser = parse_threshold)]
    pub(super) fail_under: Vec<Threshold>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(super) enum CheckFormat {
    Human,
    Json,
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// Report every problem in .solution files (exit 1 on errors, 2 on unreadable files).
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator check my.solution\n  cookingbot-evaluator check --format json submissions/*.solution > diagnostics.jsonl\n  cookingbot-evaluator --benchmark demo check examples/demo-mistake.solution"
    )]
    Check(CheckArgs),
    /// Print a shell's completion script, generated from this program's options:
    /// `source <(cookingbot-evaluator completions bash)`.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator completions zsh > ~/.zfunc/_cookingbot-evaluator\n  source <(cookingbot-evaluator completions bash)"
    )]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), generated from this program's options:
    /// `cookingbot-evaluator manpage > cookingbot-evaluator.1`.
    Manpage,
    /// Print a recipe's dependency graph in Graphviz DOT.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator graph my.solution | dot -Tsvg > network.svg\n  cookingbot-evaluator graph my.solution --recipe cole-slaw"
    )]
    Graph(GraphArgs),
    /// Run one recipe and show each action with its times and bindings, and the final dish:
    /// the dish approximation score's best candidate when the benchmark has the recipe, else
    /// the last action whose output no other action uses. Exit 1 where the reference's
    /// simulation crashes, or where its dish approximation score fails (the evaluator refuses
    /// such a file; the run is shown without a final dish).
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator simulate my.solution\n  cookingbot-evaluator simulate my.solution --recipe cole-slaw --trace\n  cookingbot-evaluator simulate my.solution --json > run.json"
    )]
    Simulate(SimulateArgs),
    /// Replace one ingredient by another (--replace butter=coconut-oil), run the network again
    /// and compare it with the original by the evaluation's own metrics (the original's dish
    /// as the gold dish): whether it executes, the dish's differences, the actions changed.
    /// Or propose substitutes from the role table (--suggest butter [--diet vegan]).
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator substitute my.solution --replace butter=coconut-oil\n  cookingbot-evaluator substitute my.solution --replace egg=banana --amount-rule same-count --format json -o answer.json\n  cookingbot-evaluator substitute my.solution --suggest butter"
    )]
    Substitute(SubstituteArgs),
    /// Scale every ingredient amount (--factor 1.5, or --servings N --serves M), run the
    /// network again and compare it with the original: execution time, the dish's proportions
    /// ingredient by ingredient, counts rounded as a cook would, and what the kitchen model
    /// says no longer fits.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator scale my.solution --factor 2\n  cookingbot-evaluator scale my.solution --servings 6 --serves 4 --format json -o answer.json\n  cookingbot-evaluator scale my.solution --factor 1/2 --network-output half.solution"
    )]
    Scale(ScaleArgs),
    /// Does the dish a network makes keep a diet? Run one recipe and judge its final dish (the
    /// one `simulate` shows) against the diet table (kitchens/diet.json, docs/diet.md): every
    /// ingredient the diet excludes, with its amount in the dish and the actions that brought
    /// it in. Exit 0 when the dish keeps the diet; 1 when it does not, when the network
    /// makes no dish (no verdict) or has errors.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator diet my.solution --diet vegan\n  cookingbot-evaluator diet my.solution --diet gluten-free --format json -o verdict.json\n  cookingbot-evaluator --reference 2023 diet my.solution --diet nut-free --recipe cole-slaw"
    )]
    Diet(DietArgs),
    /// A cook's guide from the simulated schedule: one recipe's executed actions in start
    /// order with their kitchen times, line and words, what overlaps, the timers (an oven
    /// heating, a bake: started, then ready later by themselves), the times the cook only
    /// waits, and the total time (the execution time). Exit 1 when the network has errors or
    /// does not execute.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator guide my.solution\n  cookingbot-evaluator guide my.solution --recipe cole-slaw --format markdown\n  cookingbot-evaluator guide my.solution --format html -o guide.html"
    )]
    Guide(super::guide_args::GuideArgs),
    /// Download the benchmark data of the reference profile (or of both with `--all`), verify
    /// every file against the project's SHA-256 sums and install it where evaluation finds it.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator fetch\n  cookingbot-evaluator fetch --all\n  cookingbot-evaluator fetch --reference 2023 --from recipe-execution-benchmark.tar.gz"
    )]
    Fetch(FetchArgs),
    /// Combine the shard reports of one batch (`--shard I/N --format json`) into exactly what
    /// one run over the whole batch writes.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator merge shard-*.json -o results.csv\n  cookingbot-evaluator merge shard-*.json -o summary.md --format markdown --fail-under goal-condition-success=0.8"
    )]
    Merge(MergeArgs),
    /// Is a system better than a baseline? Score each system (a .solution file or a directory
    /// of them) as `evaluate` scores an --input, or read a system's results (a .json report of
    /// a whole run: `--shard 1/1 --format json`, `cookingbot.ray.write_system`); per metric print the corpus mean (a recipe
    /// without execution scores 0) with its 95 % bootstrap interval and coverage, and against
    /// the baseline the difference with its paired-bootstrap interval, the paired bootstrap
    /// and randomization p-values and the per-recipe wins/ties/losses.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator compare baseline/ system-a/ system-b/\n  cookingbot-evaluator compare baseline/ system-a/ --format html -o leaderboard.html\n  cookingbot-evaluator compare baseline/ system-a/ --metrics smatch-score,dish-approximation-score --seed 7"
    )]
    Compare(CompareArgs),
    /// Evaluate and write a self-contained HTML page showing why each recipe scored as it did:
    /// metrics, network graph, execution timeline, goals reached and missed, dish vs gold.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator report my.solution --open\n  cookingbot-evaluator report my.solution --recipe cole-slaw -o cole-slaw.html --ci"
    )]
    Report(ReportArgs),
    /// Open the desktop launcher (also what running the program with no arguments does):
    /// pick the input and output, tick the metrics, start, and see why each recipe scored as
    /// it did.
    #[cfg(feature = "gui")]
    Gui(GuiArgs),
    /// Translate recipe text (benchmark XML, plain text, or an HTML page with a schema.org
    /// Recipe in JSON-LD) into a checked network.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator translate recipe.txt -o recipe.solution\n  cookingbot-evaluator translate page.html --format json\n  cookingbot-evaluator translate recipe.txt --translator llm --llm-url http://localhost:8080/v1 --fallback rules"
    )]
    Translate(TranslateArgs),
    /// Answer one request of the job table exactly as the tool server's tool and the Python
    /// package's function of the same job answer it: the answer's JSON (exit 0), or the
    /// refusal's (exit 1). The request's fields are the tool's arguments.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator job check '{\"network\": \"#cole-slaw\\n(get-kitchen ?k)\\n\"}'\n  cookingbot-evaluator --kitchen my-kitchen.json job simulate < request.json"
    )]
    Job(JobArgs),
    /// Create a benchmark of your own recipes: the official data's layout (recipe texts under
    /// data/recipe-texts/, gold networks under data/gold-standard-solutions/meaning-only/) and
    /// an empty manifest, benchmark.json. Every command reads it with --benchmark DIR.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator new-benchmark my-benchmark\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --text pancakes.txt --gold pancakes.solution\n  cookingbot-evaluator --benchmark my-benchmark -input my.solution -output results.csv"
    )]
    NewBenchmark(NewBenchmarkArgs),
    /// Add a recipe to a benchmark of your own: its text and gold network are copied in and
    /// listed in the manifest. A gold network with errors is refused (exit 1).
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --text pancakes.txt --gold pancakes.solution\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --text soup.xml --gold soup.solution --id tomato-soup --dish ?served-soup\n  cookingbot-evaluator add-recipe --benchmark my-benchmark --official cole-slaw"
    )]
    AddRecipe(AddRecipeArgs),
    /// Serve the Model Context Protocol on stdin and stdout: tools for an LLM agent to check,
    /// simulate and score networks, list the primitives and the kitchen; the benchmark's gold
    /// networks as resources.
    #[cfg(feature = "mcp")]
    Mcp,
    /// Write a recipe's network one action at a time at a prompt: each line runs on the
    /// kitchen the earlier ones left and what it made, or why not, is printed; :look, :undo,
    /// :network, :finish, :help and :quit. Line editing, history and Tab completion at a
    /// terminal; plain lines from a script. The network is written to a .solution file when
    /// the session ends.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator play afghan-biscuits\n  cookingbot-evaluator play demo-shortbread-rounds --benchmark demo -o mine.solution\n  cookingbot-evaluator play cole-slaw < lines.txt"
    )]
    Play(PlayArgs),
    /// Run a trajectory log (`play --log`, a Python Kitchen's `log=`, the tool server's
    /// `kitchen_start` with `log`) again from its header and compare every record: exit 0 when
    /// every observation is identical, 1 at the first difference (record, field, what the log
    /// holds and what the run gave), 2 for a log that cannot be read (file:line: why).
    #[command(after_help = "Examples:\n  cookingbot-evaluator replay run.jsonl")]
    Replay(ReplayArgs),
    /// Score .solution files on a Ray cluster and write what the evaluation writes for the
    /// same files (the CSV with its signature, or --format json, junit, markdown). Runs Ray's
    /// driver, `cookingbot.ray`, in the Python of `pip install "cookingbot[ray]"`
    /// ($COOKINGBOT_PYTHON, else python3); docs/scale.md.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator ray-score --address 10.0.0.1:6379 --input samples/ -output results.csv --concurrency 8\n  cookingbot-evaluator ray-score --input samples/ -output results.json --format json"
    )]
    RayScore(super::ray_score::RayScoreArgs),
    /// Translate every benchmark recipe's text and score the translations against the gold
    /// networks: a table per recipe, the mean of each metric and pass@k.
    #[command(
        after_help = "Examples:\n  cookingbot-evaluator benchmark --out baseline\n  cookingbot-evaluator benchmark --translator llm --llm-url http://localhost:8080/v1 --samples 5 --out llm-run"
    )]
    Benchmark(BenchmarkArgs),
}

#[derive(Args)]
pub(super) struct CheckArgs {
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
    /// Recipe ids to accept (default: the benchmark's 30 recipes; with `--benchmark demo`
    /// or a user benchmark's folder, its recipes).
    #[arg(long, num_args = 1..)]
    pub(super) known_recipes: Option<Vec<String>>,
    /// human: rendered diagnostics on stderr; json: on stdout one line per file, in the order
    /// given, each the check job's answer for it (`ok`, the diagnostics with line, column,
    /// code and hint), or `{"error"}` for a file that cannot be read.
    #[arg(long, value_enum, default_value = "human")]
    pub(super) format: CheckFormat,
}

#[derive(Args)]
pub(super) struct CompletionsArgs {
    pub(super) shell: clap_complete::Shell,
}

#[derive(Args)]
pub(super) struct GraphArgs {
    pub(super) file: PathBuf,
    /// The recipe to draw (default: the first in the file).
    #[arg(long)]
    pub(super) recipe: Option<String>,
}

#[derive(Args)]
pub(super) struct SimulateArgs {
    pub(super) file: PathBuf,
    /// The recipe to run (default: the first in the file).
    #[arg(long)]
    pub(super) recipe: Option<String>,
    /// Show every argument's binding, not only those an action produced.
    #[arg(long)]
    pub(super) trace: bool,
    /// Print the simulate job's answer as JSON: the `report` and, where the evaluator would
    /// refuse the file, why (`refused`).
    #[arg(long)]
    pub(super) json: bool,
}

#[derive(Args)]
pub(super) struct JobArgs {
    /// The job: check, simulate, score, smatch, diet, guide, substitute, suggest, scale or
    /// translate (or its tool's name, such as simulate_network).
    pub(super) name: String,
    /// The request, a JSON object; `-` or none: standard input.
    pub(super) request: Option<String>,
}

#[derive(Args)]
pub(super) struct DietArgs {
    pub(super) file: PathBuf,
    /// The diet: vegan, vegetarian, gluten-free, dairy-free, nut-free or egg-free.
    #[arg(long, value_parser = Diet::named)]
    pub(super) diet: Diet,
    /// The recipe to judge (default: the first in the file).
    #[arg(long)]
    pub(super) recipe: Option<String>,
    /// text: the verdict for people; json: the verdict, each violation with its ingredient,
    /// tags, amount and actions.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: DietFormat,
    /// The file to write (default: standard output).
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
}

#[derive(Args)]
pub(super) struct FetchArgs {
    /// Fetch the data of both profiles.
    #[arg(long)]
    pub(super) all: bool,
    /// A local .tar.gz or .zip laid out like GitHub's archive, or a folder laid out like the
    /// data, for machines without internet.
    #[arg(long, value_name = "ARCHIVE_OR_DIR")]
    pub(super) from: Option<PathBuf>,
    /// The data directory (default $COOKINGBOT_DATA_DIR, else the platform's, such as
    /// ~/.local/share/cookingbot); the data goes to DIR/benchmark/PROFILE.
    #[arg(long, value_name = "DIR")]
    pub(super) data_dir: Option<PathBuf>,
}

#[derive(Args)]
pub(super) struct MergeArgs {
    #[arg(required = true)]
    pub(super) shards: Vec<PathBuf>,
    /// The file to write, or - for standard output.
    #[arg(short, long)]
    pub(super) output: PathBuf,
    #[arg(long, value_enum, default_value = "csv")]
    pub(super) format: FormatArg,
    #[command(flatten)]
    pub(super) fail_under: FailUnder,
}

#[derive(Args)]
pub(super) struct CompareArgs {
    pub(super) baseline: PathBuf,
    #[arg(required = true)]
    pub(super) systems: Vec<PathBuf>,
    /// The file to write, or - for standard output.
    #[arg(short, long, default_value = "-")]
    pub(super) output: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: CompareFormatArg,
    /// Bootstrap resamples of the recipes (1 to 1,000,000; warned under 1,000).
    #[arg(long, default_value_t = 1000)]
    pub(super) bootstrap: usize,
    /// Randomization trials when more than 20 recipes differ (fewer are enumerated
    /// exactly; 1 to 1,000,000, warned under 1,000).
    #[arg(long, default_value_t = comparison::RANDOMIZATION_TRIALS)]
    pub(super) trials: usize,
    /// Seed of the resamples and randomization trials; the same seed gives the same output.
    #[arg(long, default_value_t = 12345)]
    pub(super) seed: u64,
    /// Metrics to compare (default: goal-condition-success dish-approximation-score).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = metric_word)]
    pub(super) metrics: Vec<String>,
    /// Also write the bootstrap resample indices and the per-recipe scores (JSON), to
    /// check the statistics with another implementation.
    #[arg(long, value_name = "FILE")]
    pub(super) dump_resamples: Option<PathBuf>,
}

#[derive(Args)]
pub(super) struct ReportArgs {
    pub(super) file: PathBuf,
    /// Only this recipe (default: every recipe in the file).
    #[arg(long)]
    pub(super) recipe: Option<String>,
    /// The HTML file to write (default: the input's name with `.html`, in the current
    /// folder).
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
    /// Open the page in a browser afterwards.
    #[arg(long)]
    pub(super) open: bool,
    /// Also show a trajectory log (`play --log`, `Kitchen(log=...)`): its calls with their
    /// outcomes and messages on the kitchen's timeline.
    #[arg(long, value_name = "LOG")]
    pub(super) trajectory: Option<PathBuf>,
    /// Metrics to compute (default: all four).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = metric_word)]
    pub(super) metrics: Vec<String>,
    #[command(flatten)]
    pub(super) ci: CiArgs,
}

#[cfg(feature = "gui")]
#[derive(Args)]
pub(super) struct GuiArgs {
    /// The .solution file to fill in.
    #[arg(long)]
    pub(super) input: Option<PathBuf>,
    /// The CSV file to fill in.
    #[arg(long)]
    pub(super) output: Option<PathBuf>,
    /// Metrics to tick (default: all four).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = metric_word)]
    pub(super) metrics: Vec<String>,
    /// Start the evaluation at once (needs --input and --output).
    #[arg(long)]
    pub(super) run: bool,
}

#[derive(Args)]
pub(super) struct TranslateArgs {
    pub(super) input: PathBuf,
    /// The .solution file to write (default: standard output).
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "rules")]
    pub(super) translator: TranslatorKind,
    /// What to write when the language model gives no valid network (default: nothing,
    /// exit 1).
    #[arg(long, value_enum)]
    pub(super) fallback: Option<Fallback>,
    /// What to write: the .solution text, or JSON with the notes on what was left out.
    #[arg(long, value_enum, default_value = "solution")]
    pub(super) format: TranslateFormat,
    #[command(flatten)]
    pub(super) llm: LlmOptions,
}

#[derive(Args)]
pub(super) struct NewBenchmarkArgs {
    /// The folder to create (or an empty one to fill).
    pub(super) dir: PathBuf,
}

#[derive(Args)]
pub(super) struct AddRecipeArgs {
    /// The recipe text: benchmark XML, plain text, or an HTML page with a schema.org Recipe.
    #[arg(long, required_unless_present = "official")]
    pub(super) text: Option<PathBuf>,
    /// The gold network (.solution; the first network in the file).
    #[arg(long, required_unless_present = "official")]
    pub(super) gold: Option<PathBuf>,
    /// The recipe's id (default: the gold network's header).
    #[arg(long)]
    pub(super) id: Option<String>,
    /// The variable whose value is the dish (default: the output of the gold network's
    /// last action, as the official recipes name it).
    #[arg(long, value_name = "?VAR")]
    pub(super) dish: Option<String>,
    /// Include a recipe of the official benchmark instead, read from the official data
    /// (found as without --benchmark).
    #[arg(long, value_name = "ID", conflicts_with_all = ["text", "gold", "id", "dish"])]
    pub(super) official: Option<String>,
    /// Add a gold network whose dish is a failed object in the benchmark's kitchen (an
    /// action of it fails there), which is refused otherwise: it scores 0 against itself.
    #[arg(long, conflicts_with = "official")]
    pub(super) allow_failing_gold: bool,
}

#[derive(Args)]
pub(super) struct BenchmarkArgs {
    #[arg(long, value_enum, default_value = "rules")]
    pub(super) translator: TranslatorKind,
    /// Samples per recipe (K of pass@k).
    #[arg(long, default_value_t = 1)]
    pub(super) samples: usize,
    /// A sample passes when its dish approximation score is at least this.
    #[arg(long, default_value_t = 0.9)]
    pub(super) pass_threshold: f32,
    /// Only the recipes of this official split (train, dev or test; gold/splits.json, drawn
    /// as docs/agents.md says) that the benchmark in use holds: the official ones, or with
    /// `--benchmark benchmarks/heldout` the held-out ones.
    #[arg(long, value_name = "NAME")]
    pub(super) split: Option<crate::data::splits::Split>,
    /// Folder for baseline-<translator>.csv and .md (baseline-<translator>-2023.* with
    /// `--reference 2023`; created; the committed baselines are regenerated with `--out docs`)
    /// and samples/<recipe>/<k>.solution + <k>.json, every
    /// sample with its provenance and notes (k from 0; the folder is replaced whole).
    #[arg(long, default_value = "cookingbot-baseline")]
    pub(super) out: PathBuf,
    #[command(flatten)]
    pub(super) llm: LlmOptions,
}

#[derive(Args)]
pub(super) struct PlayArgs {
    /// The recipe's id (`afghan-biscuits`).
    pub(super) recipe: String,
    /// The .solution file the network is written to (default: RECIPE.solution here).
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
    /// Log every line, undo, progress and finish to this file as JSON lines (a trajectory
    /// that `replay` runs again).
    #[arg(long, value_name = "PATH")]
    pub(super) log: Option<PathBuf>,
}

#[derive(Args)]
pub(super) struct ReplayArgs {
    /// The trajectory log (JSON lines, its header first).
    pub(super) log: PathBuf,
}
