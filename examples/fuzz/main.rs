//! A seeded fuzzer (docs/fuzz.md), on the stable toolchain.
//!
//! ```text
//! RAYON_NUM_THREADS=1 cargo run --release --example fuzz -- [--target T] PROFILE CORPUS_DIR [EXECUTIONS] [SEED] [SMATCH_EVERY]
//! ```
//! Targets: `networks` (the default: mutated gold networks, read from the benchmark data folder
//! located as the CLI locates it), `extensions` (hostile `ontology.json` and `kitchen.json`
//! files of a benchmark of one's own) and `jsonrpc` (hostile streams to the tool server, the
//! `cookingbot-evaluator` beside this example or `COOKINGBOT_BIN`). An input that panics, takes
//! more than [`TIME_BUDGET`], raises the peak memory above [`MEMORY_BUDGET_KB`] or that the
//! target judges wrong (an abort, a request left unanswered) is written to CORPUS_DIR as a
//! reproducer (`panic-N.*`, `slow-N.*`, `memory-N.*`, `wrong-N.*`, with a `.txt` beside it
//! saying why). The input being run is always in `CORPUS_DIR/current.*`, so an abort (which no
//! handler sees) leaves its reproducer too; the slowest input so far is in `slowest.*`.

mod extension;
mod jsonrpc;
mod network;

use cookingbot::base::profile::Profile;
use cookingbot::base::random::SplitMix64;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// An input slower than this is a reproducer (the issue's bound).
const TIME_BUDGET: Duration = Duration::from_secs(20);
/// An input that raises the peak resident memory (the process's, or the server's for
/// `jsonrpc`) above this is a reproducer.
pub const MEMORY_BUDGET_KB: u64 = 2 * 1024 * 1024;

/// One input: the files that reproduce it, each a suffix (`solution`, `ontology.json`) and
/// its text.
pub struct Input {
    pub files: Vec<(&'static str, String)>,
}

impl Input {
    pub fn one(suffix: &'static str, text: String) -> Input {
        Input {
            files: vec![(suffix, text)],
        }
    }

    fn write(&self, base: &Path) -> Result<(), String> {
        for (suffix, text) in &self.files {
            let path = PathBuf::from(format!("{}.{suffix}", base.display()));
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(())
    }
}

/// What a target made of an input.
pub enum Verdict {
    Ran,
    /// Refused with a message (the budget's, when `at_budget`): a right answer to bad input.
    Refused {
        at_budget: bool,
    },
    /// A wrong answer the target can see and a handler cannot: an abort, a hang, a request
    /// left unanswered, a server over the memory budget.
    Wrong(String),
}

/// A kind of input and the work it goes through.
pub trait Target {
    fn describe(&self) -> String;
    fn input(&self, rng: &mut SplitMix64) -> Input;
    fn run(&self, n: u64, input: &Input) -> Verdict;
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let target = match args.first().map(String::as_str) {
        Some("--target") if args.len() > 1 => {
            let name = args.remove(1);
            args.remove(0);
            name
        }
        _ => "networks".to_string(),
    };
    let parsed = match &args[..] {
        [profile, dir, rest @ ..] if rest.len() <= 3 => (|| {
            let profile: Profile = profile.parse()?;
            let number = |i: usize, default: u64| {
                rest.get(i).map_or(Ok(default), |s| {
                    s.parse::<u64>().map_err(|e| format!("{s}: {e}"))
                })
            };
            Ok::<_, String>((
                profile,
                PathBuf::from(dir),
                number(0, 1_000_000)?,
                number(1, 1)?,
                number(2, 1)?.max(1),
            ))
        })(),
        _ => Err(
            "usage: fuzz [--target networks|extensions|jsonrpc] PROFILE CORPUS_DIR [EXECUTIONS] [SEED] [SMATCH_EVERY]"
                .into(),
        ),
    };
    let run = parsed.and_then(|(profile, dir, executions, seed, smatch_every)| {
        let target: Box<dyn Target> = match target.as_str() {
            "networks" => Box::new(network::Networks::new(profile, smatch_every)?),
            "extensions" => Box::new(extension::Extensions::new(profile)),
            "jsonrpc" => Box::new(jsonrpc::Streams::new(profile)?),
            other => return Err(format!("unknown target `{other}`")),
        };
        fuzz(target.as_ref(), &dir, executions, seed)
    });
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The process's peak resident memory in kB since the last [`reset_peak`] (Linux).
fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The CPU time this thread has used: on a shared machine the wall time also counts waiting.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Reset the peak to the current resident memory, so that each input is measured alone.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// What the run has seen so far.
#[derive(Default)]
struct Tally {
    refused: u64,
    at_budget: u64,
    panics: u64,
    slow: u64,
    heavy: u64,
    wrong: u64,
    max_time: Duration,
    max_cpu: Duration,
    max_peak: u64,
}

impl Tally {
    fn reproducers(&self) -> u64 {
        self.panics + self.slow + self.heavy + self.wrong
    }

    fn line(&self, executions: u64, elapsed: Duration) -> String {
        format!(
            "{executions} executions in {:.0} s: {} refused ({} at the recipe budget), {} panics, {} wrong, {} over {} s, {} over {} MB; slowest {:.3} s ({:.3} s of CPU at most), highest peak {} MB",
            elapsed.as_secs_f64(),
            self.refused,
            self.at_budget,
            self.panics,
            self.wrong,
            self.slow,
            TIME_BUDGET.as_secs(),
            self.heavy,
            MEMORY_BUDGET_KB / 1024,
            self.max_time.as_secs_f64(),
            self.max_cpu.as_secs_f64(),
            self.max_peak / 1024
        )
    }
}

fn fuzz(target: &dyn Target, dir: &Path, executions: u64, seed: u64) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Panics are counted and stored, not printed.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = SplitMix64::new(seed);
    let mut tally = Tally::default();
    let started = Instant::now();
    eprintln!("seed {seed}; {}", target.describe());
    let keep = |kind: &str, n: u64, input: &Input, why: &str| {
        let base = dir.join(format!("{kind}-{n}"));
        let _ = input.write(&base);
        let _ = std::fs::write(base.with_extension("txt"), format!("{why}\n"));
    };
    for n in 0..executions {
        let input = target.input(&mut rng);
        input.write(&dir.join("current"))?;
        reset_peak();
        let (t, cpu) = (Instant::now(), thread_cpu());
        let outcome = catch_unwind(AssertUnwindSafe(|| target.run(n, &input)));
        let took = t.elapsed();
        tally.max_cpu = tally.max_cpu.max(thread_cpu() - cpu);
        let peak = peak_kb();
        if took > tally.max_time {
            // The slowest input so far, to look at even when it is under the budget.
            tally.max_time = took;
            let _ = input.write(&dir.join("slowest"));
        }
        tally.max_peak = tally.max_peak.max(peak);
        match outcome {
            Ok(Verdict::Ran) => {}
            Ok(Verdict::Refused { at_budget }) => {
                tally.refused += 1;
                tally.at_budget += u64::from(at_budget);
            }
            Ok(Verdict::Wrong(why)) => {
                tally.wrong += 1;
                keep("wrong", tally.wrong, &input, &why);
            }
            Err(payload) => {
                tally.panics += 1;
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                keep("panic", tally.panics, &input, &format!("panic: {message}"));
            }
        }
        if took > TIME_BUDGET {
            tally.slow += 1;
            let why = format!("{:.1} s", took.as_secs_f64());
            keep("slow", tally.slow, &input, &why);
        }
        if peak > MEMORY_BUDGET_KB {
            tally.heavy += 1;
            keep("memory", tally.heavy, &input, &format!("peak {peak} kB"));
        }
        if (n + 1) % 1_000 == 0 || n + 1 == executions {
            eprintln!("{}", tally.line(n + 1, started.elapsed()));
        }
    }
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with("current.") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    match tally.reproducers() {
        0 => Ok(()),
        found => Err(format!("{found} reproducers in {}", dir.display())),
    }
}
