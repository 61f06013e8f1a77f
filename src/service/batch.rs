//! Scoring many solution files at once: finding them, cutting them into work units (one per
//! recipe, or one for a file refused before scoring), dealing the units to a shard and scoring
//! them in parallel. Results come back in the batch's order whatever the number of threads.

use crate::base::budget;
use crate::evaluate::{Evaluator, Refusal};
use crate::language::ast::Recipe;
use crate::language::diagnostic::terminal_safe;
use crate::metrics::metric::{MetricSet, RecipeResult};
use crate::report::batch_report::{
    RefusalReport, Row, Shard, ShardFile, ShardReport, UnitOutcome, UnitResult,
};
use crate::report::content::Signature;
use crate::service::outcome::AppError;
use crate::service::solution_file::{STDIN, read_solution_text};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a folder's walk stopped: the work's budget (the tool server's 60 s for a call) ran out.
pub const WALK_STOPPED: &str = "the folder was not searched for solution files within the call's time budget; give a smaller folder, or its files";

/// The solution files the inputs name, in order: a file as given (`-`: standard input); for a
/// directory, every `*.solution` below it that is not a directory, sorted by path: links to
/// files are followed, and what cannot be read (a dangling link, a FIFO) is that file's
/// refusal, never left out unsaid; a link to a directory is skipped with a warning (followed,
/// it could loop). A file named twice (given and
/// found in a folder given too, say) is scored once, with a warning on `err`. `Err` names an
/// input that does not exist or a batch with no file at all.
pub fn solution_files(inputs: &[PathBuf], err: &mut dyn Write) -> Result<Vec<PathBuf>, AppError> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found = Vec::new();
            for entry in walkdir::WalkDir::new(input) {
                // A call of the tool server walks within its budget: a huge folder is
                // refused, not walked on after its answer.
                if budget::spent() {
                    return Err(AppError::File {
                        path: input.clone(),
                        reason: WALK_STOPPED.into(),
                    });
                }
                let entry = entry.map_err(|e| AppError::File {
                    path: input.clone(),
                    reason: e.to_string(),
                })?;
                let is_solution = entry.path().extension().is_some_and(|x| x == "solution");
                if !is_solution || entry.file_type().is_dir() {
                    continue;
                }
                if entry.path_is_symlink() && entry.path().is_dir() {
                    let warning = format!(
                        "warning: {} is a link to a directory; links to directories are not followed, so it is skipped",
                        entry.path().display()
                    );
                    let _ = writeln!(err, "{}", terminal_safe(&warning));
                    continue;
                }
                found.push(entry.into_path());
            }
            found.sort();
            files.extend(found);
        } else if input.exists() || input.as_path() == Path::new(STDIN) {
            files.push(input.clone());
        } else {
            return Err(AppError::File {
                path: input.clone(),
                reason: "no such file or directory".into(),
            });
        }
    }
    let mut seen: HashMap<PathBuf, PathBuf> = HashMap::new();
    files.retain(|f| {
        let Ok(real) = std::fs::canonicalize(f) else {
            return true;
        };
        match seen.get(&real) {
            Some(first) => {
                let also = if first == f {
                    String::new()
                } else {
                    format!(" (also as {})", first.display())
                };
                let warning = format!(
                    "warning: {} is named twice{also}; it is scored once",
                    f.display()
                );
                let _ = writeln!(err, "{}", terminal_safe(&warning));
                false
            }
            None => {
                seen.insert(real, f.clone());
                true
            }
        }
    });
    if files.is_empty() {
        let names: Vec<String> = inputs.iter().map(|i| i.display().to_string()).collect();
        return Err(AppError::Options(format!(
            "{}: no .solution files to evaluate",
            names.join(", ")
        )));
    }
    Ok(files)
}

/// Whether the inputs make a batch (reports with a file column): more than one file, or a
/// directory. The shape of the output follows the command, not what a directory happens to
/// hold.
pub fn is_batch(inputs: &[PathBuf], files: &[PathBuf]) -> bool {
    files.len() > 1 || inputs.iter().any(|i| i.is_dir())
}

/// A solution file as its name in reports and its text, or why it cannot be read.
pub struct Input {
    pub name: String,
    pub text: Result<String, String>,
}

impl Input {
    /// The file at `path`, read as the command line reads it.
    pub fn read(path: &Path) -> Input {
        Input {
            name: path.display().to_string(),
            text: read_solution_text(path).map_err(|e| e.to_string()),
        }
    }
}

fn read_inputs(files: &[PathBuf]) -> Vec<Input> {
    files.par_iter().map(|path| Input::read(path)).collect()
}

/// A file ready to score: its recipes in the reference's order, or its refusal.
struct Prepared<'a> {
    input: &'a Input,
    recipes: Result<Vec<Recipe>, RefusalReport>,
}

impl Prepared<'_> {
    fn units(&self) -> usize {
        self.recipes.as_ref().map_or(1, Vec::len)
    }
}

fn refusal_report(input: &Input, refusal: &Refusal) -> RefusalReport {
    let text = input.text.as_deref().unwrap_or("");
    RefusalReport {
        message: refusal.message.clone(),
        rendered: refusal.render(&input.name, text),
        recipes: refusal.recipes.clone(),
    }
}

/// The units (in order) of a stretch of the batch's unit list starting at position `first`
/// that belong to `shard`.
pub fn deal<T>(units: impl IntoIterator<Item = T>, first: usize, shard: Shard) -> Vec<T> {
    units
        .into_iter()
        .enumerate()
        .filter(|(k, _)| shard.takes(first + k))
        .map(|(_, unit)| unit)
        .collect()
}

/// What a run scores and how.
pub struct Run<'a> {
    pub evaluator: &'a Evaluator,
    pub metrics: &'a MetricSet,
    pub shard: Shard,
    pub batch: bool,
    pub signature: Signature,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Networks scored earlier with the same evaluator and metrics.
    pub memo: &'a Memo,
}

/// Scores of networks already scored, keyed by the network's canonical text: `compare` scores a
/// network once however many systems hold it (systems agree on many recipes, and a batch may
/// hold a file twice). A score depends on the network alone, not on where its text lies.
/// Refusals are not kept: their diagnostics point into the file that holds the network.
/// Keyed by the SHA-256 of the text rather than the text, which was as long as the network
/// and held as long as the memo.
#[derive(Default)]
pub struct Memo(Mutex<HashMap<[u8; 32], RecipeResult>>);

impl Memo {
    fn evaluate(
        &self,
        evaluator: &Evaluator,
        recipe: &Recipe,
        metrics: &MetricSet,
    ) -> Result<RecipeResult, Refusal> {
        let key = network_key(recipe);
        let known = self.0.lock().ok().and_then(|m| m.get(&key).cloned());
        if let Some(result) = known {
            return Ok(result);
        }
        let result = evaluator.evaluate_recipe(recipe, metrics)?;
        if let Ok(mut m) = self.0.lock() {
            m.insert(key, result.clone());
        }
        Ok(result)
    }
}

/// The SHA-256 of a network's canonical text, written into the hash as it is made.
fn network_key(recipe: &Recipe) -> [u8; 32] {
    struct Hashing(Sha256);
    impl std::fmt::Write for Hashing {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.update(s.as_bytes());
            Ok(())
        }
    }
    let mut hashing = Hashing(Sha256::new());
    let _ = std::fmt::Write::write_fmt(&mut hashing, format_args!("{recipe}"));
    hashing.0.finalize().into()
}

/// The text a chunk of the batch's files may hold at once beyond one file per thread (its
/// networks take about 20 times as much once parsed).
const CHUNK_BYTES: u64 = 8 << 20;
/// The most files a chunk holds.
const CHUNK_FILES: usize = 1_024;

/// The batch's files in chunks read and scored together: one file per thread at least, then
/// more while their texts come to under [`CHUNK_BYTES`]. Files of a chunk are scored side by
/// side, each chunk after the one before, so a batch of any size holds a few megabytes of text
/// at once, and one of small files is not held up at every other file by the slower of two.
fn chunks(files: &[PathBuf], threads: usize) -> Vec<&[PathBuf]> {
    // A file that cannot be measured (standard input, a missing file) counts as empty: it is
    // read, or its error reported, when its chunk is.
    let size = |path: &PathBuf| match path.as_os_str() == STDIN {
        true => 0,
        false => std::fs::metadata(path).map_or(0, |m| m.len()),
    };
    let mut out = Vec::new();
    let mut rest = files;
    while !rest.is_empty() {
        let (mut n, mut bytes) = (0, 0u64);
        while n < rest.len() && n < CHUNK_FILES {
            let more = size(&rest[n]);
            if n >= threads && bytes.saturating_add(more) > CHUNK_BYTES {
                break;
            }
            bytes = bytes.saturating_add(more);
            n += 1;
        }
        let (chunk, tail) = rest.split_at(n);
        out.push(chunk);
        rest = tail;
    }
    out
}

/// Score this run's shard of the files' work units, in parallel, chunk by chunk ([`chunks`]);
/// a file's text and networks are dropped once its chunk is scored.
pub fn score(run: Run<'_>, files: &[PathBuf]) -> ShardReport {
    // The bar stays under 79 columns: on a terminal whose width is not known (a pty of 0
    // columns, taken as 79), a longer one is counted as two lines, and clearing it took the
    // line above with it (a final dish's last line ran into `RECIPE:`).
    let bar = if run.progress {
        ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template(
                "{bar:20} {pos}/{len} recipes · {elapsed_precise}, ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    } else {
        ProgressBar::hidden()
    };
    let mut shard_files = Vec::with_capacity(files.len());
    // The batch position of the next file's first unit: units are dealt to shards by it.
    let mut first = 0;
    for paths in chunks(files, rayon::current_num_threads().max(1)) {
        let inputs = read_inputs(paths);
        shard_files.extend(score_chunk(&run, &inputs, &mut first, &bar));
    }
    bar.finish_and_clear();
    ShardReport {
        signature: run.signature,
        shard: run.shard,
        batch: run.batch,
        files: shard_files,
    }
}

/// Score every unit of files already read, as one whole batch of them (a front end that
/// holds the texts: the Python package's Ray actors score a batch of rows this way).
pub fn score_inputs(run: &Run<'_>, inputs: &[Input]) -> Vec<ShardFile> {
    score_chunk(run, inputs, &mut 0, &ProgressBar::hidden())
}

/// Score this run's shard of the units of `inputs`, the stretch of the batch whose first unit
/// is at position `first` (moved past them), in parallel on rayon's threads under the
/// caller's budget (a stopped call stops them).
fn score_chunk(
    run: &Run<'_>,
    inputs: &[Input],
    first: &mut usize,
    bar: &ProgressBar,
) -> Vec<ShardFile> {
    let budget = budget::handed_on();
    let prepared: Vec<Prepared> = inputs
        .par_iter()
        .map(|input| Prepared {
            input,
            recipes: prepare(run, input),
        })
        .collect();
    let units: Vec<(usize, usize)> = prepared
        .iter()
        .enumerate()
        .flat_map(|(f, p)| (0..p.units()).map(move |u| (f, u)))
        .collect();
    let count = units.len();
    let units = deal(units, *first, run.shard);
    *first += count;
    bar.inc_length(units.len() as u64);
    let results: Vec<(usize, UnitResult)> = units
        .par_iter()
        .map(|&(f, unit)| {
            let outcome = budget.run(|| score_unit(run, &prepared[f], unit));
            bar.inc(1);
            (f, UnitResult { unit, outcome })
        })
        .collect();
    let mut files: Vec<ShardFile> = prepared
        .iter()
        .map(|p| ShardFile {
            file: p.input.name.clone(),
            units: p.units(),
            results: Vec::new(),
        })
        .collect();
    for (f, result) in results {
        files[f].results.push(result);
    }
    files
}

/// A file's recipes, or the refusal of the whole file.
fn prepare(run: &Run<'_>, input: &Input) -> Result<Vec<Recipe>, RefusalReport> {
    match &input.text {
        Ok(text) => run
            .evaluator
            .prepare(text)
            .map_err(|r| refusal_report(input, &r)),
        Err(message) => Err(RefusalReport {
            message: message.clone(),
            rendered: terminal_safe(&format!("error: {message}\n")).into_owned(),
            recipes: Vec::new(),
        }),
    }
}

fn score_unit(run: &Run<'_>, p: &Prepared<'_>, unit: usize) -> UnitOutcome {
    match &p.recipes {
        Err(refusal) => UnitOutcome::Refused(refusal.clone()),
        Ok(recipes) => match run
            .memo
            .evaluate(run.evaluator, &recipes[unit], run.metrics)
        {
            Ok(result) => UnitOutcome::Scored(Box::new(Row::new(&result, run.metrics))),
            // One recipe refused refuses the file: all its recipes score 0. Prepared recipes
            // are in the reference's order, the reverse of the file.
            Err(refusal) => UnitOutcome::Refused(RefusalReport {
                recipes: recipes.iter().rev().map(|r| r.id.clone()).collect(),
                ..refusal_report(p.input, &refusal)
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small files make one chunk; files over the chunk's text go a thread's worth at a time;
    /// every file is in one chunk, in order; one that cannot be measured counts as empty.
    #[test]
    fn chunks_hold_small_files_together_and_large_ones_a_few_at_a_time() {
        let dir = std::env::temp_dir().join(format!("cookingbot-chunks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, bytes: usize| {
            let path = dir.join(name);
            std::fs::write(&path, vec![b';'; bytes]).unwrap();
            path
        };
        let small: Vec<PathBuf> = (0..30).map(|i| file(&format!("s{i}"), 5_000)).collect();
        assert_eq!(chunks(&small, 2), vec![&small[..]]);
        let large: Vec<PathBuf> = (0..5).map(|i| file(&format!("l{i}"), 3 << 20)).collect();
        let sizes: Vec<usize> = chunks(&large, 2).iter().map(|c| c.len()).collect();
        assert_eq!(sizes, [2, 2, 1]);
        assert_eq!(
            chunks(&large, 1)
                .iter()
                .map(|c| c.len())
                .collect::<Vec<_>>(),
            [2, 2, 1]
        );
        let mixed: Vec<PathBuf> = [&large[..1], &small[..3], &large[1..4], &[dir.join("gone")]]
            .concat()
            .into_iter()
            .chain([PathBuf::from(STDIN)])
            .collect();
        let cut = chunks(&mixed, 2);
        assert_eq!(cut.concat(), mixed);
        let sizes: Vec<usize> = cut.iter().map(|c| c.len()).collect();
        assert_eq!(sizes, [5, 4]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
