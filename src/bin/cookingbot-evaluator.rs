//! The cookingbot command line.

use clap::{Parser, Subcommand};
use cookingbot::app::check::{self, CheckOptions};
use cookingbot::profile::Profile;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cookingbot-evaluator",
    version,
    about = "Check, inspect and evaluate MUHAI Cooking Language networks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Report every problem in .solution files (exit 1 on errors, 2 on unreadable files).
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Reference version to check against.
        #[arg(long, default_value = "2024")]
        reference: Profile,
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
        #[arg(long, default_value = "2024")]
        reference: Profile,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stderr = std::io::stderr();
    let code = match cli.command {
        Command::Check {
            files,
            reference,
            known_recipes,
        } => {
            let files: Vec<&std::path::Path> = files.iter().map(PathBuf::as_path).collect();
            let opts = CheckOptions {
                profile: reference,
                known_recipes,
                classes: None,
            };
            check::check_files(&files, &opts, &mut stderr)
        }
        Command::Graph {
            file,
            recipe,
            reference,
        } => check::graph(
            &file,
            recipe.as_deref(),
            reference,
            &mut std::io::stdout(),
            &mut stderr,
        ),
    };
    ExitCode::from(code as u8)
}
