//! The benchmark: which recipes exist, where their gold networks are, and which variable is
//! each recipe's dish. The manifest (`gold/benchmark.json`) is ours; the gold networks are
//! third-party data read from the benchmark's folder, never copied into the project.

use crate::language::ast::Recipe;
use crate::profile::Profile;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

const MANIFEST: &str = include_str!("../gold/benchmark.json");

#[derive(Deserialize)]
struct ManifestFile {
    profiles: std::collections::BTreeMap<String, ProfileManifest>,
}

/// What the project knows about one profile's benchmark data.
#[derive(Clone, Debug, Deserialize)]
pub struct ProfileManifest {
    pub recipes: Vec<RecipeEntry>,
    #[serde(default)]
    pub files: Vec<FileEntry>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct RecipeEntry {
    pub id: String,
    /// The gold network's file, relative to the data folder.
    pub gold_file: String,
    /// The variable whose value is the recipe's dish (`?almond-crescent-cookies`).
    pub primary_output_var: String,
    pub recipe_text: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

/// The manifest of a profile.
pub fn manifest(profile: Profile) -> ProfileManifest {
    let file: ManifestFile = serde_json::from_str(MANIFEST)
        .expect("embedded gold/benchmark.json is valid (checked by tests)");
    file.profiles
        .get(profile.name())
        .cloned()
        .expect("gold/benchmark.json covers every profile (checked by tests)")
}

/// Why benchmark data could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum DataError {
    /// No folder was given and none was found.
    NotFound {
        profile: Profile,
        tried: Vec<PathBuf>,
    },
    /// A gold file is missing or unreadable.
    Unreadable { path: PathBuf, reason: String },
    /// A gold file does not parse as a network.
    Malformed { path: PathBuf, reason: String },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::NotFound { profile, tried } => {
                write!(f, "no benchmark data for profile {profile} was found")?;
                if !tried.is_empty() {
                    let list: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
                    write!(f, " (looked in {})", list.join(", "))?;
                }
                write!(
                    f,
                    "; pass --benchmark DIR (the folder holding `data/gold-standard-solutions`) or set {}",
                    env_var(*profile)
                )
            }
            DataError::Unreadable { path, reason } => write!(f, "{}: {reason}", path.display()),
            DataError::Malformed { path, reason } => {
                write!(f, "{}: not a valid gold network: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for DataError {}

/// The environment variable naming a profile's data folder.
pub fn env_var(profile: Profile) -> &'static str {
    match profile {
        Profile::R2024 => "COOKINGBOT_BENCHMARK",
        Profile::R2023 => "COOKINGBOT_BENCHMARK_2023",
    }
}

/// Where a profile's data is: `--benchmark DIR`, else the profile's environment variable, else
/// (profile 2023) a `benchmark-2023` folder beside the 2024 data, else the data installed by
/// `cookingbot-evaluator fetch` ([`crate::fetch::cache_dir`]).
pub fn locate(profile: Profile, explicit: Option<&Path>) -> Result<PathBuf, DataError> {
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
            return Ok(dir);
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

/// The gold standard of one profile, read from a data folder.
#[derive(Clone, Debug)]
pub struct Benchmark {
    pub profile: Profile,
    pub root: PathBuf,
    pub recipes: Vec<GoldRecipe>,
}

impl Benchmark {
    /// Read every gold network of a profile from `root`. The reference takes the first
    /// network of each gold file whatever its header says (`black-bean-salad-2.solution`
    /// starts with `#black-bean-salad-4`).
    pub fn load(profile: Profile, root: &Path) -> Result<Benchmark, DataError> {
        let mut recipes = Vec::new();
        for entry in manifest(profile).recipes {
            let path = root.join(&entry.gold_file);
            let text = std::fs::read_to_string(&path).map_err(|e| DataError::Unreadable {
                path: path.clone(),
                reason: e.to_string(),
            })?;
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
        Ok(Benchmark {
            profile,
            root: root.to_path_buf(),
            recipes,
        })
    }

    pub fn recipe(&self, id: &str) -> Option<&GoldRecipe> {
        self.recipes.iter().find(|r| r.id == id)
    }

    pub fn ids(&self) -> Vec<&str> {
        self.recipes.iter().map(|r| r.id.as_str()).collect()
    }
}
