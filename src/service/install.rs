//! The `fetch` command: install the benchmark data of one or both profiles into the cache,
//! with a progress bar when stderr is a terminal.

use crate::base::profile::Profile;
use crate::benchmark::download::{Cache, FetchError, Progress, Source};
use crate::service::outcome::{AppError, Exit, Outcome};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

pub struct FetchOptions {
    pub profiles: Vec<Profile>,
    /// A local archive or data folder instead of the download.
    pub from: Option<PathBuf>,
    /// The data directory instead of `$COOKINGBOT_DATA_DIR` or the platform's.
    pub data_dir: Option<PathBuf>,
}

/// Install every requested profile that is not installed yet; report on `out`, problems on
/// `err`. A profile that could not be installed fails the command; the others are installed.
pub fn run(opts: &FetchOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let cache = opts
        .data_dir
        .clone()
        .map(Cache::new)
        .or_else(Cache::user)
        .ok_or(FetchError::NoDataDir)?;
    if opts.from.is_some() && opts.profiles.len() > 1 {
        return Err(AppError::Options(
            "--from holds the data of one profile; choose it with --reference 2023 or --reference 2024".into(),
        ));
    }
    let source = opts
        .from
        .clone()
        .map_or_else(Source::download, Source::Local);
    let origin = match &source {
        Source::Download { base_url } => base_url.clone(),
        Source::Local(path) => path.display().to_string(),
    };
    let mut exit = Exit::Success;
    for &profile in &opts.profiles {
        if let Some(dir) = cache.cached(profile) {
            let _ = writeln!(
                out,
                "benchmark data for profile {profile} is already installed in {}",
                dir.display()
            );
            continue;
        }
        match install(&cache, profile, &source) {
            Ok(dir) => {
                let _ = writeln!(
                    out,
                    "installed the verified benchmark data for profile {profile} in {}",
                    dir.display()
                );
            }
            Err(e) => {
                let _ = writeln!(
                    err,
                    "error: cannot install the benchmark data for profile {profile} from {origin}: {e}; nothing was installed"
                );
                exit = Exit::Failed;
            }
        }
    }
    Ok(exit)
}

/// Install `profile` from `source` into `cache`, with the progress bar on a terminal; what
/// `fetch` does for each profile, and what evaluation does when it finds no data.
pub(crate) fn install(
    cache: &Cache,
    profile: Profile,
    source: &Source,
) -> Result<PathBuf, FetchError> {
    let mut bar = Bar::on_terminal(profile);
    let result = cache.fetch(profile, source, &mut |p| bar.show(p));
    bar.clear();
    result
}

/// A progress bar on stderr, or nothing when stderr is not a terminal.
struct Bar {
    bar: Option<ProgressBar>,
    template: &'static str,
}

impl Bar {
    fn on_terminal(profile: Profile) -> Bar {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::no_length();
            bar.set_prefix(format!("benchmark {profile}"));
            bar
        });
        Bar { bar, template: "" }
    }

    fn show(&mut self, progress: Progress) {
        let Some(bar) = &self.bar else { return };
        let (template, position, length) = match progress {
            Progress::Downloading {
                received,
                total: Some(total),
            } => (
                "{prefix} downloading {wide_bar} {bytes}/{total_bytes}",
                received,
                Some(total),
            ),
            Progress::Downloading {
                received,
                total: None,
            } => ("{prefix} downloading {spinner} {bytes}", received, None),
            Progress::Unpacking => ("{prefix} unpacking {spinner}", 0, None),
            Progress::Verifying { checked, total } => (
                "{prefix} verifying {wide_bar} {pos}/{len} files",
                checked as u64,
                Some(total as u64),
            ),
        };
        if self.template != template {
            self.template = template;
            bar.set_style(
                ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            match length {
                Some(length) => bar.set_length(length),
                None => bar.unset_length(),
            }
        }
        bar.set_position(position);
    }

    fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
