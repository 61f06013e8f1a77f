//! The benchmark data the launcher scores against: found where the command line finds it
//! (`benchmark::locate`), else the embedded demo, with a button that installs the real data
//! (`fetch`) on a background thread.

use super::task::{Progress, Task};
use crate::base::profile::Profile;
use crate::benchmark::download::{self, FetchError, Source};
use crate::benchmark::{self, DataChoice, DataError, DataSource};
use eframe::egui;
use std::path::PathBuf;

pub struct Data {
    pub profile: Profile,
    /// `--benchmark`, if given.
    explicit: Option<DataChoice>,
    /// What evaluations use; `None` when the profile has no usable data at all.
    pub source: Option<DataSource>,
    /// One line on the state of the data.
    pub note: String,
    fetching: Option<Task<Result<PathBuf, FetchError>>>,
}

impl Data {
    pub fn locate(profile: Profile, explicit: Option<DataChoice>) -> Data {
        let (source, note) = match benchmark::locate(profile, explicit.as_ref()) {
            Ok(DataSource::Demo) => (
                Some(DataSource::Demo),
                "Benchmark: the embedded demo (three recipes of our own).".to_string(),
            ),
            Ok(DataSource::Folder(dir)) => (
                Some(DataSource::Folder(dir.clone())),
                format!("Benchmark data found: {}", dir.display()),
            ),
            Ok(DataSource::User(user)) => (
                Some(DataSource::User(user.clone())),
                format!("Your own benchmark: {}", user.root.display()),
            ),
            Err(DataError::NotFound { .. }) if explicit.is_none() => {
                match benchmark::locate(profile, Some(&DataChoice::Demo)) {
                    Ok(demo) => (
                        Some(demo),
                        "No benchmark data found: using the embedded demo benchmark (three recipes of our own).".to_string(),
                    ),
                    Err(e) => (None, format!("No benchmark data found. {e}")),
                }
            }
            Err(e) => (None, e.to_string()),
        };
        Data {
            profile,
            explicit,
            source,
            note,
            fetching: None,
        }
    }

    /// Whether the data is on disk, the real benchmark or one's own (nothing to fetch).
    fn has_folder(&self) -> bool {
        matches!(
            self.source,
            Some(DataSource::Folder(_) | DataSource::User(_))
        )
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        if let Some(task) = &self.fetching {
            if let Some(result) = task.finished() {
                self.fetching = None;
                match result {
                    Ok(dir) => {
                        self.note = format!("Benchmark data installed: {}", dir.display());
                        self.source = Some(DataSource::Folder(dir));
                        self.explicit = None;
                    }
                    Err(e) => self.note = format!("Fetching failed: {e}"),
                }
            } else {
                let p = task.progress();
                ui.label(&p.stage);
                bar(ui, &p);
                return;
            }
        }
        ui.label(&self.note);
        if !self.has_folder() && ui.button("Fetch the benchmark data").clicked() {
            self.start_fetch(ui.ctx());
        }
    }

    fn start_fetch(&mut self, ctx: &egui::Context) {
        let profile = self.profile;
        self.fetching = Some(Task::spawn(ctx, "connecting", move |reporter| {
            download::fetch(profile, &Source::download(), &mut |p| {
                let (stage, fraction) = match p {
                    download::Progress::Downloading { received, total } => (
                        format!("downloading: {} kB", received / 1000),
                        total.map(|t| received as f32 / t.max(1) as f32),
                    ),
                    download::Progress::Unpacking => ("unpacking".to_string(), None),
                    download::Progress::Verifying { checked, total } => (
                        format!("verifying: {checked} of {total} files"),
                        Some(checked as f32 / total.max(1) as f32),
                    ),
                };
                reporter.report(stage, fraction);
            })
        }));
    }

    pub fn busy(&self) -> bool {
        self.fetching.is_some()
    }

    /// The same data for another profile.
    pub fn for_profile(&self, profile: Profile) -> Data {
        Data::locate(profile, self.explicit.clone())
    }
}

/// A progress bar; animated when the share done is unknown.
pub fn bar(ui: &mut egui::Ui, p: &Progress) {
    let bar = match p.fraction {
        Some(f) => egui::ProgressBar::new(f).show_percentage(),
        None => egui::ProgressBar::new(0.0).animate(true),
    };
    ui.add(bar);
}
