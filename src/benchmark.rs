//! The benchmark: which recipes exist, where their gold networks are, and which variable is
//! each recipe's dish. The manifest (`gold/benchmark.json`) is ours; the gold networks are
//! third-party data read from the benchmark's folder, never copied into the project. The small
//! demo benchmark (`gold/demo/`: our own recipes and gold networks) is compiled in, so the
//! program runs on a fresh machine with no data at all.

use crate::language::ast::Recipe;
use crate::manifest::{self, ProfileManifest};
pub use crate::manifest::{FileEntry, RecipeEntry, manifest, sha256_hex};
use crate::profile::Profile;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

const DEMO_MANIFEST: &str = include_str!("../gold/demo/benchmark.json");

/// The demo's gold networks, keyed by their `gold_file` in the demo manifest.
const DEMO_GOLD: [(&str, &str); 3] = [
    (
        "garden-salad.solution",
        include_str!("../gold/demo/garden-salad.solution"),
    ),
    (
        "cinnamon-toast-bites.solution",
        include_str!("../gold/demo/cinnamon-toast-bites.solution"),
    ),
    (
        "shortbread-rounds.solution",
        include_str!("../gold/demo/shortbread-rounds.solution"),
    ),
];

/// The `--benchmark` value that selects the embedded demo instead of a data folder.
pub const DEMO: &str = "demo";

/// Whether a run scored against the published benchmark: the signature says which, so that a
/// replaced gold file cannot pass for the benchmark's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DataStatus {
    /// Every gold file read matches the manifest's checksum.
    Official,
    /// Some gold file differs from the manifest's checksum (or the manifest has none for it).
    Modified,
    /// The embedded demo benchmark: our own recipes, not the benchmark's.
    Demo,
}

impl DataStatus {
    pub fn name(self) -> &'static str {
        match self {
            DataStatus::Official => "official",
            DataStatus::Modified => "modified",
            DataStatus::Demo => "demo",
        }
    }
}

/// What identifies the gold data a benchmark was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldFingerprint {
    /// SHA-256 over the gold files read, concatenated in manifest order.
    pub sha256: String,
    pub status: DataStatus,
    /// The first gold file that differs from the manifest, and how.
    pub first_difference: Option<String>,
}

/// Where a profile's gold networks come from.
#[derive(Clone, Debug, PartialEq)]
pub enum DataSource {
    /// A benchmark data folder (holding `data/gold-standard-solutions`).
    Folder(PathBuf),
    /// The demo benchmark compiled into the program (profile 2024 only).
    Demo,
}

/// A path is always a folder, even `demo`: the name selects the demo only through [`locate`].
impl<P: AsRef<Path>> From<P> for DataSource {
    fn from(dir: P) -> DataSource {
        DataSource::Folder(dir.as_ref().to_path_buf())
    }
}

impl DataSource {
    /// Which recipes the source has for a profile.
    pub fn manifest(&self, profile: Profile) -> Result<ProfileManifest, DataError> {
        match self {
            DataSource::Folder(_) => Ok(manifest(profile)),
            DataSource::Demo => {
                manifest::parse(DEMO_MANIFEST, profile).ok_or(DataError::NoDemo { profile })
            }
        }
    }

    /// The text of a gold file named by the manifest, with the path to show in messages.
    fn gold_text(&self, gold_file: &str) -> Result<(PathBuf, Cow<'static, str>), DataError> {
        match self {
            DataSource::Folder(root) => {
                let path = root.join(gold_file);
                match std::fs::read_to_string(&path) {
                    Ok(text) => Ok((path, Cow::Owned(text))),
                    Err(e) => Err(DataError::Unreadable {
                        path,
                        reason: e.to_string(),
                    }),
                }
            }
            DataSource::Demo => {
                let path = Path::new("gold/demo").join(gold_file);
                match DEMO_GOLD.iter().find(|(name, _)| *name == gold_file) {
                    Some((_, text)) => Ok((path, Cow::Borrowed(text))),
                    None => Err(DataError::Unreadable {
                        path,
                        reason: "not compiled into the program".into(),
                    }),
                }
            }
        }
    }
}

impl fmt::Display for DataSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataSource::Folder(dir) => write!(f, "{}", dir.display()),
            DataSource::Demo => write!(f, "the embedded demo benchmark"),
        }
    }
}

/// Why benchmark data could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum DataError {
    /// No folder was given and none was found.
    NotFound {
        profile: Profile,
        tried: Vec<PathBuf>,
    },
    /// None was found, and downloading the data (as `fetch` does) failed.
    NotDownloaded {
        profile: Profile,
        tried: Vec<PathBuf>,
        cause: crate::fetch::FetchError,
    },
    /// The demo benchmark was asked for a profile it has no gold networks for.
    NoDemo { profile: Profile },
    /// A gold file is missing or unreadable.
    Unreadable { path: PathBuf, reason: String },
    /// A gold file does not parse as a network.
    Malformed { path: PathBuf, reason: String },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::NotFound { profile, tried } => {
                not_found(f, *profile, tried)?;
                write!(f, "; ")?;
                how_to_get(f, *profile)?;
                write!(f, ", or try the embedded demo with --benchmark {DEMO}")
            }
            DataError::NotDownloaded {
                profile,
                tried,
                cause,
            } => {
                not_found(f, *profile, tried)?;
                write!(f, " and downloading it failed: {cause}; ")?;
                how_to_get(f, *profile)
            }
            DataError::NoDemo { profile } => write!(
                f,
                "the embedded demo benchmark has gold networks for profile {} only, not {profile}; drop --reference {profile} or pass --benchmark DIR with the profile's data",
                Profile::R2024
            ),
            DataError::Unreadable { path, reason } => write!(f, "{}: {reason}", path.display()),
            DataError::Malformed { path, reason } => {
                write!(f, "{}: not a valid gold network: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for DataError {}

fn not_found(f: &mut fmt::Formatter<'_>, profile: Profile, tried: &[PathBuf]) -> fmt::Result {
    write!(f, "no benchmark data for profile {profile} was found")?;
    if !tried.is_empty() {
        let list: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
        write!(f, " (looked in {})", list.join(", "))?;
    }
    Ok(())
}

/// The three ways to get a profile's data: download, install from a copy, or point at a folder.
fn how_to_get(f: &mut fmt::Formatter<'_>, profile: Profile) -> fmt::Result {
    write!(
        f,
        "get it with `cookingbot-evaluator fetch --reference {profile}` (on a machine without internet: `cookingbot-evaluator fetch --reference {profile} --from ARCHIVE_OR_DIR`), pass --benchmark DIR (the folder holding `data/gold-standard-solutions`) or set {}",
        env_var(profile)
    )
}

/// The environment variable naming a profile's data folder.
pub fn env_var(profile: Profile) -> &'static str {
    match profile {
        Profile::R2024 => "COOKINGBOT_BENCHMARK",
        Profile::R2023 => "COOKINGBOT_BENCHMARK_2023",
    }
}

/// Where a profile's data is: `--benchmark demo` is the embedded demo; `--benchmark DIR`, else
/// the profile's environment variable, else (profile 2023) a `benchmark-2023` folder beside the
/// 2024 data, else the data installed by `cookingbot-evaluator fetch`
/// ([`crate::fetch::cache_dir`]).
pub fn locate(profile: Profile, explicit: Option<&Path>) -> Result<DataSource, DataError> {
    if explicit == Some(Path::new(DEMO)) {
        DataSource::Demo.manifest(profile)?;
        return Ok(DataSource::Demo);
    }
    let mut tried = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(dir) = explicit {
        candidates.push(dir.to_path_buf());
    } else {
        if let Some(dir) = std::env::var_os(env_var(profile)) {
            candidates.push(PathBuf::from(dir));
        }
        if profile == Profile::R2023
            && let Some(dir) = std::env::var_os(env_var(Profile::R2024))
        {
            candidates.push(PathBuf::from(dir).join("../benchmark-2023"));
        }
        candidates.extend(crate::fetch::cache_dir(profile));
    }
    let first_gold = manifest(profile)
        .recipes
        .first()
        .map(|r| r.gold_file.clone())
        .unwrap_or_default();
    for dir in candidates {
        if dir.join(&first_gold).is_file() {
            return Ok(DataSource::Folder(dir));
        }
        tried.push(dir);
    }
    Err(DataError::NotFound { profile, tried })
}

/// A recipe of the benchmark with its gold network.
#[derive(Clone, Debug)]
pub struct GoldRecipe {
    pub id: String,
    pub network: Recipe,
    pub primary_output_var: String,
    pub file: PathBuf,
}

/// The gold standard of one profile, read from a data folder or the embedded demo.
#[derive(Clone, Debug)]
pub struct Benchmark {
    pub profile: Profile,
    pub source: DataSource,
    pub recipes: Vec<GoldRecipe>,
    pub fingerprint: GoldFingerprint,
}

impl Benchmark {
    /// Read every gold network of a profile from `source`. The reference takes the first
    /// network of each gold file whatever its header says (`black-bean-salad-2.solution`
    /// starts with `#black-bean-salad-4`).
    pub fn load(profile: Profile, source: &DataSource) -> Result<Benchmark, DataError> {
        let mut recipes = Vec::new();
        let manifest = source.manifest(profile)?;
        let mut sum = Sha256::new();
        let mut first_difference = None;
        for entry in manifest.recipes {
            let (path, text) = source.gold_text(&entry.gold_file)?;
            sum.update(text.as_bytes());
            if first_difference.is_none() && *source != DataSource::Demo {
                let published = manifest.files.iter().find(|f| f.path == entry.gold_file);
                first_difference = match published.map(|f| f.check(text.as_bytes())) {
                    Some(Ok(())) => None,
                    Some(Err(reason)) => Some(format!("{} {reason}", entry.gold_file)),
                    None => Some(format!(
                        "{} has no checksum in the manifest",
                        entry.gold_file
                    )),
                };
            }
            let parsed = crate::language::parse::parse(&text);
            if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
                return Err(DataError::Malformed {
                    path,
                    reason: d.message.clone(),
                });
            }
            let network =
                parsed
                    .file
                    .recipes
                    .into_iter()
                    .next()
                    .ok_or_else(|| DataError::Malformed {
                        path: path.clone(),
                        reason: "no recipe".into(),
                    })?;
            recipes.push(GoldRecipe {
                id: entry.id,
                network,
                primary_output_var: entry.primary_output_var,
                file: path,
            });
        }
        let status = match (source, &first_difference) {
            (DataSource::Demo, _) => DataStatus::Demo,
            (_, None) => DataStatus::Official,
            (_, Some(_)) => DataStatus::Modified,
        };
        Ok(Benchmark {
            profile,
            source: source.clone(),
            recipes,
            fingerprint: GoldFingerprint {
                sha256: manifest::hex(&sum.finalize()),
                status,
                first_difference,
            },
        })
    }

    pub fn recipe(&self, id: &str) -> Option<&GoldRecipe> {
        self.recipes.iter().find(|r| r.id == id)
    }

    pub fn ids(&self) -> Vec<&str> {
        self.recipes.iter().map(|r| r.id.as_str()).collect()
    }
}
