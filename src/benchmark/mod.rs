//! The benchmark: which recipes exist, where their gold networks are, and which variable is
//! each recipe's dish. The manifest (`gold/benchmark.json`) is ours; the gold networks are
//! third-party data read from the benchmark's folder, never copied into the project. The small
//! demo benchmark (`gold/demo/`: our own recipes and gold networks) is compiled in, so the
//! program runs on a fresh machine with no data at all.

pub mod download;
use crate::base::profile::Profile;
use crate::base::suggest::closest;
use crate::data::data_file::DataFileProblem;
use crate::data::manifest::{self, ProfileManifest, USER_MANIFEST, UserManifest};
pub use crate::data::manifest::{FileEntry, RecipeEntry, manifest, sha256_hex};
use crate::language::ast::Recipe;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

const DEMO_MANIFEST: &str = include_str!("../../gold/demo/benchmark.json");

/// The demo's gold networks, keyed by their `gold_file` in the demo manifest.
const DEMO_GOLD: [(&str, &str); 3] = [
    (
        "garden-salad.solution",
        include_str!("../../gold/demo/garden-salad.solution"),
    ),
    (
        "cinnamon-toast-bites.solution",
        include_str!("../../gold/demo/cinnamon-toast-bites.solution"),
    ),
    (
        "shortbread-rounds.solution",
        include_str!("../../gold/demo/shortbread-rounds.solution"),
    ),
];

/// The `--benchmark` value that selects the embedded demo instead of a data folder.
pub const DEMO: &str = "demo";

/// What `--benchmark` names, told apart once where the command line is read, so that a front
/// end holding a located [`DataSource`] names it again without spelling it as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataChoice {
    /// The demo compiled into the program (`--benchmark demo`).
    Demo,
    /// A folder: the official data, or a user benchmark with its own manifest.
    Folder(PathBuf),
}

impl From<std::ffi::OsString> for DataChoice {
    fn from(arg: std::ffi::OsString) -> DataChoice {
        if arg == DEMO {
            DataChoice::Demo
        } else {
            DataChoice::Folder(PathBuf::from(arg))
        }
    }
}

impl From<&DataSource> for DataChoice {
    /// The choice that [`locate`] turns into this source again.
    fn from(source: &DataSource) -> DataChoice {
        match source {
            DataSource::Demo => DataChoice::Demo,
            DataSource::Folder(dir) => DataChoice::Folder(dir.clone()),
            DataSource::User(user) => DataChoice::Folder(user.root.clone()),
        }
    }
}

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
    /// A user benchmark (`new-benchmark`, `add-recipe`) or a gold network given alone
    /// (`--gold`): never the published benchmark, even where it includes official recipes.
    User,
}

impl DataStatus {
    pub fn name(self) -> &'static str {
        match self {
            DataStatus::Official => "official",
            DataStatus::Modified => "modified",
            DataStatus::Demo => "demo",
            DataStatus::User => "user",
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
    /// A user benchmark: a folder with [`USER_MANIFEST`].
    User(UserData),
}

/// A user benchmark: recipes of one's own in a folder laid out as the official data is, and
/// official recipes it includes by id.
#[derive(Clone, Debug, PartialEq)]
pub struct UserData {
    pub root: PathBuf,
    pub manifest: UserManifest,
    /// The official data folder, found as without `--benchmark`, when the manifest includes
    /// official recipes.
    pub official: Option<PathBuf>,
}

impl UserData {
    /// Whether `dir` holds a user benchmark (its manifest), rather than the official data.
    pub fn is_in(dir: &Path) -> bool {
        dir.join(USER_MANIFEST).is_file()
    }

    /// Read the user benchmark in `root` for `profile`; the official recipes it includes must
    /// be the profile's, and are found in the official data ([`locate`] without a folder).
    pub fn open(profile: Profile, root: &Path) -> Result<UserData, DataError> {
        let manifest = UserData::read_manifest(root)?;
        let path = root.join(USER_MANIFEST);
        let invalid = |reason: String| DataError::Manifest {
            path: path.clone(),
            at: None,
            reason,
        };
        for id in &manifest.official_recipes {
            official_recipe(profile, id).map_err(|e| invalid(e.to_string()))?;
        }
        let mut ids: Vec<&str> = manifest
            .official_recipes
            .iter()
            .map(String::as_str)
            .collect();
        ids.extend(manifest.recipes.iter().map(|r| r.id.as_str()));
        ids.sort_unstable();
        if let Some(pair) = ids.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(invalid(format!("the recipe `{}` is listed twice", pair[0])));
        }
        let official = if manifest.official_recipes.is_empty() {
            None
        } else {
            match locate(profile, None) {
                Ok(DataSource::Folder(dir)) => Some(dir),
                Ok(_) => None,
                Err(DataError::NotFound { tried, .. }) => {
                    return Err(DataError::NoOfficialData {
                        manifest: root.join(USER_MANIFEST),
                        profile,
                        tried,
                    });
                }
                Err(e) => return Err(e),
            }
        };
        Ok(UserData {
            root: root.to_path_buf(),
            manifest,
            official,
        })
    }

    /// The manifest in `root`, as written; a JSON error is located by line and column.
    pub fn read_manifest(root: &Path) -> Result<UserManifest, DataError> {
        let path = root.join(USER_MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| DataError::Unreadable {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        UserManifest::parse(&text).map_err(|e| {
            let place = format!(" at line {} column {}", e.line(), e.column());
            DataError::Manifest {
                reason: e.to_string().trim_end_matches(&place).to_owned(),
                at: Some((e.line(), e.column())),
                path,
            }
        })
    }

    /// A benchmark of the one gold network in `file` (`--gold`): the recipe's id is the
    /// file's header, its dish `dish` or else [`default_dish`].
    pub fn single(file: &Path, dish: Option<&str>) -> Result<UserData, DataError> {
        let text = std::fs::read_to_string(file).map_err(|e| DataError::Unreadable {
            path: file.to_path_buf(),
            reason: e.to_string(),
        })?;
        let network = first_network(file, &text)?;
        let primary_output_var = dish_variable(file, &network, dish)?;
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        let entry = RecipeEntry {
            id: network.id.clone(),
            gold_file: name.unwrap_or_default(),
            gold_file_header: Some(network.id),
            primary_output_var,
            recipe_text: None,
        };
        Ok(UserData {
            root: file.parent().map(Path::to_path_buf).unwrap_or_default(),
            manifest: UserManifest {
                official_recipes: Vec::new(),
                recipes: vec![entry],
            },
            official: None,
        })
    }

    /// Its recipes, official and own, in id order.
    fn profile_manifest(&self, profile: Profile) -> ProfileManifest {
        let official = manifest::manifest(profile).recipes.into_iter();
        let mut recipes: Vec<RecipeEntry> = official
            .filter(|r| self.manifest.official_recipes.contains(&r.id))
            .chain(self.manifest.recipes.iter().cloned())
            .collect();
        recipes.sort_by(|a, b| a.id.cmp(&b.id));
        ProfileManifest {
            recipes,
            files: Vec::new(),
        }
    }
}

/// The variable the benchmark would name as a recipe's dish: the output (first argument) of
/// the network's last action, as for 29 of the 30 official recipes (broccoli-salad names an
/// earlier one).
pub fn default_dish(network: &Recipe) -> Option<String> {
    let last = network.predicates.last()?;
    last.args.first()?.as_var().map(|v| format!("?{v}"))
}

/// A gold network's dish variable: `given`, which must be one of its variables, else
/// [`default_dish`].
pub fn dish_variable(
    path: &Path,
    network: &Recipe,
    given: Option<&str>,
) -> Result<String, DataError> {
    let unusable = |reason: String| DataError::Malformed {
        path: path.to_path_buf(),
        reason,
    };
    let Some(var) = given else {
        return default_dish(network).ok_or_else(|| {
            unusable(
                "its last action has no output variable; name the dish with --dish ?VAR".into(),
            )
        });
    };
    let name = var.trim_start_matches('?').to_lowercase();
    let used = network
        .predicates
        .iter()
        .flat_map(|p| &p.args)
        .any(|a| a.as_var() == Some(name.as_str()));
    if used {
        Ok(format!("?{name}"))
    } else {
        Err(unusable(format!("it has no variable {var} (--dish)")))
    }
}

/// The first network of a gold file's text; a file with errors or none is malformed.
pub fn first_network(path: &Path, text: &str) -> Result<Recipe, DataError> {
    let parsed = crate::language::parse::parse(text);
    if let Some(d) = parsed.diagnostics.first_error() {
        return Err(DataError::Malformed {
            path: path.to_path_buf(),
            reason: d.message.clone(),
        });
    }
    parsed
        .file
        .recipes
        .into_iter()
        .next()
        .ok_or_else(|| DataError::Malformed {
            path: path.to_path_buf(),
            reason: "no recipe".into(),
        })
}

/// `Ok` when `id` is a recipe of the profile's official benchmark.
pub fn official_recipe(profile: Profile, id: &str) -> Result<(), DataError> {
    let official = manifest::manifest(profile);
    if official.has(id) {
        return Ok(());
    }
    let close = closest(id, official.recipes.iter().map(|r| r.id.as_str()), 3);
    Err(DataError::NotOfficial {
        profile,
        id: id.to_owned(),
        close: close.into_iter().map(str::to_owned).collect(),
    })
}

/// A path is always a folder, even `demo`: the name selects the demo only through [`locate`].
impl<P: AsRef<Path>> From<P> for DataSource {
    fn from(dir: P) -> DataSource {
        DataSource::Folder(dir.as_ref().to_path_buf())
    }
}

impl DataSource {
    /// What a folder holds: a user benchmark when it has one's manifest, else the official
    /// data's layout.
    pub fn of_folder(profile: Profile, dir: PathBuf) -> Result<DataSource, DataError> {
        if UserData::is_in(&dir) {
            UserData::open(profile, &dir).map(DataSource::User)
        } else {
            Ok(DataSource::Folder(dir))
        }
    }

    /// Which recipes the source has for a profile.
    pub fn manifest(&self, profile: Profile) -> Result<ProfileManifest, DataError> {
        match self {
            DataSource::Folder(_) => Ok(manifest(profile)),
            DataSource::Demo => {
                manifest::parse(DEMO_MANIFEST, profile).ok_or(DataError::NoDemo { profile })
            }
            DataSource::User(user) => Ok(user.profile_manifest(profile)),
        }
    }

    /// Where a file of recipe `id` (named relative to its data folder) is on disk: none for
    /// the demo, whose files are compiled in.
    pub fn file(&self, id: &str, relative: &str) -> Option<PathBuf> {
        let root = match self {
            DataSource::Folder(root) => root,
            DataSource::Demo => return None,
            DataSource::User(user) if user.manifest.official_recipes.iter().any(|r| r == id) => {
                user.official.as_ref()?
            }
            DataSource::User(user) => &user.root,
        };
        Some(root.join(relative))
    }

    /// The recipe text of a manifest entry, where it is on disk.
    pub fn recipe_text(&self, entry: &RecipeEntry) -> Option<PathBuf> {
        self.file(&entry.id, entry.recipe_text.as_deref()?)
    }

    /// The text of a recipe's gold file, with the path to show in messages.
    fn gold_text(&self, entry: &RecipeEntry) -> Result<(PathBuf, Cow<'static, str>), DataError> {
        if let Some(path) = self.file(&entry.id, &entry.gold_file) {
            return match std::fs::read_to_string(&path) {
                Ok(text) => Ok((path, Cow::Owned(text))),
                Err(e) => Err(DataError::Unreadable {
                    path,
                    reason: e.to_string(),
                }),
            };
        }
        let path = Path::new("gold/demo").join(&entry.gold_file);
        match DEMO_GOLD.iter().find(|(name, _)| *name == entry.gold_file) {
            Some((_, text)) => Ok((path, Cow::Borrowed(text))),
            None => Err(DataError::Unreadable {
                path,
                reason: "not compiled into the program".into(),
            }),
        }
    }
}

impl fmt::Display for DataSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataSource::Folder(dir) => write!(f, "{}", dir.display()),
            DataSource::Demo => write!(f, "the embedded demo benchmark"),
            DataSource::User(user) => write!(f, "{}", user.root.display()),
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
        cause: crate::benchmark::download::FetchError,
    },
    /// The demo benchmark was asked for a profile it has no gold networks for.
    NoDemo { profile: Profile },
    /// A gold file is missing or unreadable.
    Unreadable { path: PathBuf, reason: String },
    /// A gold file does not parse as a network.
    Malformed { path: PathBuf, reason: String },
    /// A user benchmark includes official recipes and no official data was found.
    NoOfficialData {
        manifest: PathBuf,
        profile: Profile,
        tried: Vec<PathBuf>,
    },
    /// A recipe named as official is not one of the profile's official recipes.
    NotOfficial {
        profile: Profile,
        id: String,
        /// The closest official ids.
        close: Vec<String>,
    },
    /// A user benchmark's manifest is not valid JSON of its shape (`at`: line and column), or
    /// names recipes that do not fit.
    Manifest {
        path: PathBuf,
        at: Option<(usize, usize)>,
        reason: String,
    },
    /// A user benchmark's `ontology.json` or `kitchen.json` cannot be read or used.
    World(DataFileProblem),
}

impl From<DataFileProblem> for DataError {
    fn from(problem: DataFileProblem) -> DataError {
        DataError::World(problem)
    }
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
            DataError::NoOfficialData {
                manifest,
                profile,
                tried,
            } => {
                write!(
                    f,
                    "{} includes official recipes, read from the official data, and ",
                    manifest.display()
                )?;
                not_found(f, *profile, tried)?;
                write!(
                    f,
                    "; get it with `cookingbot-evaluator fetch --reference {profile}` or set {}",
                    env_var(*profile)
                )
            }
            DataError::NotOfficial { profile, id, close } => {
                write!(
                    f,
                    "`{id}` is not a recipe of the official benchmark (profile {profile})"
                )?;
                if !close.is_empty() {
                    write!(f, "; did you mean {}?", close.join(", "))?;
                }
                Ok(())
            }
            DataError::Manifest { path, at, reason } => {
                write!(f, "{}", path.display())?;
                if let Some((line, column)) = at {
                    write!(f, ":{line}:{column}")?;
                }
                write!(f, ": not a usable benchmark manifest: {reason}")
            }
            DataError::World(problem) => write!(f, "{problem}"),
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

/// Where a profile's data is: `--benchmark demo` is the embedded demo; `--benchmark DIR` holding
/// a user benchmark's manifest is that benchmark ([`UserData::open`]); `--benchmark DIR`, else
/// the profile's environment variable, else (profile 2023) a `benchmark-2023` folder beside the
/// 2024 data, else the data installed by `cookingbot-evaluator fetch`
/// ([`crate::benchmark::download::cache_dir`]).
pub fn locate(profile: Profile, explicit: Option<&DataChoice>) -> Result<DataSource, DataError> {
    let explicit = match explicit {
        Some(DataChoice::Demo) => {
            DataSource::Demo.manifest(profile)?;
            return Ok(DataSource::Demo);
        }
        Some(DataChoice::Folder(dir)) => match DataSource::of_folder(profile, dir.clone())? {
            DataSource::Folder(_) => Some(dir.as_path()),
            user => return Ok(user),
        },
        None => None,
    };
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
        candidates.extend(crate::benchmark::download::cache_dir(profile));
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
            let (path, text) = source.gold_text(&entry)?;
            sum.update(text.as_bytes());
            if first_difference.is_none() && matches!(source, DataSource::Folder(_)) {
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
            let network = first_network(&path, &text)?;
            recipes.push(GoldRecipe {
                id: entry.id,
                network,
                primary_output_var: entry.primary_output_var,
                file: path,
            });
        }
        let status = match (source, &first_difference) {
            (DataSource::Demo, _) => DataStatus::Demo,
            (DataSource::User(_), _) => DataStatus::User,
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
