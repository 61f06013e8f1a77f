//! The kitchen world of a benchmark of one's own: its folder may hold [`ONTOLOGY_FILE`]
//! (classes and gram conversions added to the built-in ontology) and [`KITCHEN_FILE`] (the
//! initial kitchen, in the format of `kitchens/`, where new things can be placed). Every front
//! end builds its model through [`World`], so every command sees the same world for the same
//! `--benchmark DIR` and `--kitchen FILE`.

use crate::base::profile::Profile;
use crate::base::regular_file::{Refusal, read_regular};
use crate::benchmark::{DataChoice, DataSource, UserData};
use crate::data::data_file::{DataFileProblem, MAX_DATA_FILE_BYTES};
use crate::data::manifest::sha256_hex;
use crate::simulation::{Model, builtin_kitchen};
use crate::world::ontology::Ontology;
use std::path::{Path, PathBuf};

/// Classes and conversions of one's own, at a user benchmark's root.
pub const ONTOLOGY_FILE: &str = "ontology.json";
/// The initial kitchen state of a user benchmark, at its root.
pub const KITCHEN_FILE: &str = "kitchen.json";

/// A data file as read: where it is (for messages) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataText {
    pub path: PathBuf,
    pub text: String,
}

impl DataText {
    /// The file's text: a regular file of at most [`MAX_DATA_FILE_BYTES`], UTF-8; a FIFO or a
    /// device is refused unread, as a `.solution` is.
    fn read(path: &Path, kind: &'static str) -> Result<DataText, DataFileProblem> {
        let unreadable = |reason: String| DataFileProblem::Unreadable {
            path: path.to_owned(),
            kind,
            reason,
        };
        let bytes = read_regular(path, MAX_DATA_FILE_BYTES).map_err(|refusal| {
            unreadable(match refusal {
                Refusal::Unreadable(e) => e.to_string(),
                Refusal::NotRegular(what) => {
                    format!("{what}, not a regular file; only regular files are read")
                }
                Refusal::TooLarge(size) => format!(
                    "{size} bytes; {kind} files of at most {MAX_DATA_FILE_BYTES} bytes ({} MiB) are read",
                    MAX_DATA_FILE_BYTES >> 20
                ),
            })
        })?;
        let text = String::from_utf8(bytes).map_err(|e| unreadable(e.utf8_error().to_string()))?;
        Ok(DataText {
            path: path.to_owned(),
            text,
        })
    }

    /// The text as JSON; a syntax error or a key given twice located.
    fn json(&self, kind: &'static str) -> Result<serde_json::Value, DataFileProblem> {
        DataFileProblem::parse(&self.path, kind, &self.text)
    }
}

/// What a profile's built-in world is extended or replaced with: none, a benchmark's files,
/// `--kitchen`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct World {
    pub ontology: Option<DataText>,
    pub kitchen: Option<DataText>,
}

impl World {
    /// The files of a user benchmark's folder (none for any other folder).
    pub fn of_folder(dir: &Path) -> Result<World, DataFileProblem> {
        if !UserData::is_in(dir) {
            return Ok(World::default());
        }
        let optional = |name: &str, kind| {
            let path = dir.join(name);
            path.exists()
                .then(|| DataText::read(&path, kind))
                .transpose()
        };
        Ok(World {
            ontology: optional(ONTOLOGY_FILE, "ontology")?,
            kitchen: optional(KITCHEN_FILE, "kitchen")?,
        })
    }

    /// The world of `--benchmark` and `--kitchen`: the kitchen file named replaces the
    /// benchmark's.
    pub fn of(
        benchmark: Option<&DataChoice>,
        kitchen: Option<&Path>,
    ) -> Result<World, DataFileProblem> {
        let mut world = match benchmark {
            Some(DataChoice::Folder(dir)) => World::of_folder(dir)?,
            _ => World::default(),
        };
        if let Some(path) = kitchen {
            world.kitchen = Some(DataText::read(path, "kitchen")?);
        }
        Ok(world)
    }

    /// The world of located benchmark data.
    pub fn of_source(source: &DataSource) -> Result<World, DataFileProblem> {
        match source {
            DataSource::User(user) => World::of_folder(&user.root),
            _ => Ok(World::default()),
        }
    }

    /// The profile's ontology with the extension's classes and conversions.
    pub fn ontology(&self, profile: Profile) -> Result<Ontology, DataFileProblem> {
        let mut onto = Ontology::builtin(profile);
        if let Some(file) = &self.ontology {
            onto.extend(&file.json("ontology")?).map_err(|e| {
                DataFileProblem::located(file.path.clone(), "ontology", &file.text, &e)
            })?;
        }
        Ok(onto)
    }

    /// The model of this world: the extended ontology and the kitchen (the built-in one
    /// unless a file replaces it).
    pub fn model(&self, profile: Profile) -> Result<Model, DataFileProblem> {
        let onto = self.ontology(profile)?;
        let kitchen = self.kitchen.clone().unwrap_or_else(|| DataText {
            path: PathBuf::from(format!("kitchens/full-kitchen-{profile}.json")),
            text: builtin_kitchen(profile).to_owned(),
        });
        let located =
            |e| DataFileProblem::located(kitchen.path.clone(), "kitchen", &kitchen.text, &e);
        let mut model =
            Model::new(onto, &kitchen.text, &kitchen.json("kitchen")?).map_err(located)?;
        model.ontology_sha256 = self
            .ontology
            .as_ref()
            .map(|f| sha256_hex(f.text.as_bytes()));
        Ok(model)
    }

    /// Where to add what the kitchen lacks, for a message: the kitchen file's path, or, for
    /// the built-in kitchen, a kitchen file of one's own.
    pub fn kitchen_file(&self) -> String {
        self.kitchen.as_ref().map_or_else(
            || "a kitchen file of your own (--kitchen FILE)".to_owned(),
            |k| k.path.display().to_string(),
        )
    }

    /// How reports name the kitchen: `builtin`, or the file's path.
    pub fn kitchen_name(&self) -> String {
        self.kitchen
            .as_ref()
            .map_or_else(|| "builtin".to_owned(), |k| k.path.display().to_string())
    }
}
