//! `ray-score`: the evaluation's files scored on a Ray cluster. Ray's driver is a Python
//! program, so this command runs `cookingbot.ray` in the environment's Python (the one
//! `pip install "cookingbot[ray]"` installed into: `$COOKINGBOT_PYTHON`, else `python3`) with
//! the options given here, and ends as it ends. Where that Python, Ray or cookingbot is
//! missing, it says which and how to install them (exit 2) before anything is scored.

use super::Session;
use super::arg_values::{FormatArg, evaluation_metric_word, parse_threshold};
use crate::benchmark::DataChoice;
use crate::service::outcome::{AppError, Exit, Outcome};
use clap::{Args, ValueEnum};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

/// The variable naming the Python that holds `cookingbot[ray]`.
pub(super) const PYTHON_VAR: &str = "COOKINGBOT_PYTHON";

/// The Python run with `-c`: the command's own module, or, where it cannot be imported, the
/// reason on one line and exit 2 (a traceback would hide which package is missing).
const DRIVER: &str = r#"import sys
try:
    from cookingbot.ray import main
except ImportError as e:
    print(f"error: ray-score needs cookingbot and Ray in the Python at {sys.executable} ({e}): "
          'pip install "cookingbot[ray]" there, or set COOKINGBOT_PYTHON to a Python that has them',
          file=sys.stderr)
    sys.exit(2)
sys.exit(main(sys.argv[1:]))
"#;

#[derive(Args)]
pub(super) struct RayScoreArgs {
    /// The Ray cluster: HOST:PORT of its head (`ray start --head` prints it), `auto`, or
    /// `ray://HOST:10001`; none starts a local one for the run. An address nothing answers
    /// at fails within seconds.
    #[arg(long)]
    address: Option<String>,
    /// A .solution file, or a directory searched for *.solution files (repeatable), found as
    /// the evaluation finds them; read here, so the cluster's workers need not see them.
    #[arg(long, required = true)]
    input: Vec<PathBuf>,
    /// The file to write (whole or not at all), or - for standard output.
    #[arg(short, long)]
    output: PathBuf,
    /// Metrics, as the evaluation's --metrics (default: its three).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_parser = evaluation_metric_word)]
    metrics: Vec<String>,
    /// What to write: the evaluation's output of that format for the same files, byte for
    /// byte (csv: the reference's, with the signature line in a batch).
    #[arg(long, value_enum, default_value = "csv")]
    format: FormatArg,
    /// Exit 1 and list the rows where METRIC prints below VALUE or NIL (repeatable).
    #[arg(long, value_name = "METRIC=VALUE", value_parser = threshold_word)]
    fail_under: Vec<String>,
    /// Ray actors scoring at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// The CPUs each actor asks Ray for (below 1 by default: Ray Data's pool needs CPUs left
    /// for the tasks that feed it).
    #[arg(long, default_value_t = 0.5)]
    num_cpus: f64,
}

/// A `--fail-under` threshold checked here and handed on as written.
fn threshold_word(s: &str) -> Result<String, String> {
    parse_threshold(s).map(|_| s.to_owned())
}

impl RayScoreArgs {
    pub(super) fn run(self, Session(data, quiet, _, _, _): Session<'_>) -> Outcome {
        let python = std::env::var_os(PYTHON_VAR).unwrap_or_else(|| "python3".into());
        let mut args: Vec<OsString> = vec!["-c".into(), DRIVER.into()];
        let mut option = |name: &str, value: OsString| {
            args.push(format!("--{name}").into());
            args.push(value);
        };
        if let Some(address) = self.address {
            option("address", address.into());
        }
        for input in self.input {
            option("input", input.into());
        }
        option("output", self.output.into());
        if !self.metrics.is_empty() {
            option("metrics", self.metrics.join(",").into());
        }
        let format = self
            .format
            .to_possible_value()
            .map(|v| v.get_name().to_owned());
        option("format", format.unwrap_or_default().into());
        for threshold in self.fail_under {
            option("fail-under", threshold.into());
        }
        option("concurrency", self.concurrency.to_string().into());
        option("num-cpus", self.num_cpus.to_string().into());
        option("reference", data.profile.to_string().into());
        match data.benchmark {
            Some(DataChoice::Demo) => option("benchmark", crate::benchmark::DEMO.into()),
            Some(DataChoice::Folder(dir)) => option("benchmark", dir.into()),
            None => {}
        }
        if let Some(kitchen) = data.kitchen {
            option("kitchen", kitchen.into());
        }
        if quiet {
            args.push("--quiet".into());
        }
        let status = Command::new(&python).args(&args).status().map_err(|e| {
            AppError::Options(format!(
                "ray-score runs Ray's driver in Python, and `{}` could not be run ({e}): install Python with `pip install \"cookingbot[ray]\"`, or set {PYTHON_VAR} to the Python that has it",
                python.to_string_lossy()
            ))
        })?;
        match status.code() {
            Some(0) => Ok(Exit::Success),
            Some(1) => Ok(Exit::Failed),
            Some(_) => Ok(Exit::Unusable),
            None => Err(AppError::Failed(format!(
                "ray-score's Python driver ended without an exit status ({status})"
            ))),
        }
    }
}
