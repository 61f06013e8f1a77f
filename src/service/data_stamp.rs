//! Whether the files an evaluator was loaded from are still as they were: a front end that
//! keeps evaluators between calls (the Python package) reuses one only while its stamp holds,
//! so an edited `kitchen.json` is read again, as the command line reads it on every run.

use crate::benchmark::{DataChoice, DataSource};
use crate::data::manifest::USER_MANIFEST;
use crate::evaluate::Evaluator;
use crate::simulation::benchmark_world::{KITCHEN_FILE, ONTOLOGY_FILE};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Each file's path with its size and modification time (none while the file is absent, so a
/// file that appears counts as a change too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataStamp(Vec<(PathBuf, Option<(u64, SystemTime)>)>);

impl DataStamp {
    /// The stamp of what `evaluator` was loaded from: the kitchen file, the benchmark folder's
    /// manifest, ontology and kitchen, and every gold network. Taken right after loading, so
    /// an edit made while it loaded may be seen only at the next edit.
    pub fn of(evaluator: &Evaluator, kitchen: Option<&Path>) -> DataStamp {
        let folder = match &evaluator.benchmark.source {
            DataSource::User(user) => Some(user.root.as_path()),
            DataSource::Folder(dir) => Some(dir.as_path()),
            DataSource::Demo => None,
        };
        let world = world_files(folder);
        let gold = evaluator.benchmark.recipes.iter().map(|r| r.file.clone());
        DataStamp::of_paths(
            kitchen
                .into_iter()
                .map(Path::to_owned)
                .chain(world)
                .chain(gold),
        )
    }

    /// The stamp of what a model of `--benchmark` and `--kitchen` is made from: the kitchen
    /// file, and a folder's manifest, ontology and kitchen.
    pub fn of_world(benchmark: Option<&DataChoice>, kitchen: Option<&Path>) -> DataStamp {
        let folder = match benchmark {
            Some(DataChoice::Folder(dir)) => Some(dir.as_path()),
            _ => None,
        };
        DataStamp::of_paths(
            kitchen
                .into_iter()
                .map(Path::to_owned)
                .chain(world_files(folder)),
        )
    }

    fn of_paths(paths: impl Iterator<Item = PathBuf>) -> DataStamp {
        DataStamp(paths.map(|p| (p.clone(), seen(&p))).collect())
    }

    /// Whether every file is as it was when the stamp was taken.
    pub fn holds(&self) -> bool {
        self.0.iter().all(|(path, was)| seen(path) == *was)
    }
}

/// A benchmark folder's manifest, ontology and kitchen.
fn world_files(folder: Option<&Path>) -> impl Iterator<Item = PathBuf> + '_ {
    folder
        .into_iter()
        .flat_map(|dir| [USER_MANIFEST, ONTOLOGY_FILE, KITCHEN_FILE].map(|f| dir.join(f)))
}

fn seen(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}
