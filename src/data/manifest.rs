//! The benchmark manifest (`gold/benchmark.json`, ours): per profile, the recipes, where their
//! gold networks and texts are, each recipe's dish variable, and the size and SHA-256 sum of
//! every file of the published data. Plain data at the bottom of the crate: locating and
//! downloading the data (`benchmark`, `fetch`) are built over it.

use crate::base::profile::Profile;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

const MANIFEST: &str = include_str!("../../gold/benchmark.json");

#[derive(Deserialize)]
struct ManifestFile {
    profiles: std::collections::BTreeMap<String, ProfileManifest>,
}

/// The manifest of `profile` in an embedded manifest file.
pub(crate) fn parse(json: &str, profile: Profile) -> Option<ProfileManifest> {
    let file: ManifestFile =
        serde_json::from_str(json).expect("embedded manifests are valid (checked by tests)");
    file.profiles.get(profile.name()).cloned()
}

/// What the project knows about one profile's benchmark data.
#[derive(Clone, Debug, Deserialize)]
pub struct ProfileManifest {
    pub recipes: Vec<RecipeEntry>,
    #[serde(default)]
    pub files: Vec<FileEntry>,
}

impl ProfileManifest {
    /// Whether `id` is one of the profile's recipes.
    pub fn has(&self, id: &str) -> bool {
        self.recipes.iter().any(|r| r.id == id)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecipeEntry {
    pub id: String,
    /// The gold network's file, relative to the data folder.
    pub gold_file: String,
    /// The header (`#id`) the gold file starts with, which need not be the id
    /// (`black-bean-salad-2.solution` is headed `#black-bean-salad-4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold_file_header: Option<String>,
    /// The variable whose value is the recipe's dish (`?almond-crescent-cookies`).
    pub primary_output_var: String,
    /// The recipe text's file, relative to the data folder; none for a gold network given
    /// alone (`--gold`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe_text: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

impl FileEntry {
    /// Whether `bytes` are this file as the benchmark published it; `Err` says how they differ.
    pub fn check(&self, bytes: &[u8]) -> Result<(), Mismatch> {
        if bytes.len() as u64 != self.size {
            return Err(Mismatch::Size {
                found: bytes.len() as u64,
                published: self.size,
            });
        }
        let sum = sha256_hex(bytes);
        if sum != self.sha256 {
            return Err(Mismatch::Sum {
                found: sum,
                published: self.sha256.clone(),
            });
        }
        Ok(())
    }
}

/// How a file differs from the benchmark's published one.
#[derive(Debug, thiserror::Error)]
pub enum Mismatch {
    #[error("has {found} bytes, the benchmark's has {published}")]
    Size { found: u64, published: u64 },
    #[error("has SHA-256 {found}, the benchmark's is {published}")]
    Sum { found: String, published: String },
}

/// The SHA-256 sum of `bytes` in lower-case hex, as the manifest writes it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes in lower-case hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where a benchmark folder keeps its gold networks, as the official data lays them out.
pub const GOLD_DIR: &str = "data/gold-standard-solutions/meaning-only";
/// Where a benchmark folder keeps its recipe texts, as the official data lays them out.
pub const TEXT_DIR: &str = "data/recipe-texts";
/// The manifest of a user benchmark (recipes of one's own), at its folder's root.
pub const USER_MANIFEST: &str = "benchmark.json";

/// The manifest of a user benchmark (`benchmark.json`, written by `add-recipe`): its own
/// recipes, with files relative to its folder, and the official recipes it includes by id, read
/// from the official data.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserManifest {
    #[serde(default)]
    pub official_recipes: Vec<String>,
    #[serde(default)]
    pub recipes: Vec<RecipeEntry>,
}

impl UserManifest {
    pub fn parse(json: &str) -> Result<UserManifest, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// Stable JSON: ids sorted, fields in a fixed order, so that adding a recipe changes only
    /// its own lines.
    pub fn to_json(&self) -> String {
        let mut sorted = self.clone();
        sorted.official_recipes.sort();
        sorted.recipes.sort_by(|a, b| a.id.cmp(&b.id));
        let mut text =
            serde_json::to_string_pretty(&sorted).expect("a manifest is plain strings and lists");
        text.push('\n');
        text
    }

    /// Whether `id` names one of its recipes, its own or an official one.
    pub fn has(&self, id: &str) -> bool {
        self.official_recipes.iter().any(|r| r == id) || self.recipes.iter().any(|r| r.id == id)
    }
}

/// The manifest of a profile.
pub fn manifest(profile: Profile) -> ProfileManifest {
    parse(MANIFEST, profile).expect("gold/benchmark.json covers every profile (checked by tests)")
}
