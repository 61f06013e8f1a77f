//! The benchmark data a command needs: where `benchmark::locate` finds it, else, when the
//! command works on recipes of the official benchmark, downloaded and installed once exactly as
//! `fetch` does (progress bar on a terminal, messages on stderr). Every command that reads the
//! data goes through [`locate`], so they all download, or stay offline, the same way.

use crate::base::budget::DEFAULT_TIME_BUDGET;
use crate::base::profile::Profile;
use crate::benchmark::download::{Cache, FetchError, Source};
use crate::benchmark::{self, DataChoice, DataError, DataSource};
use clap::Args;
use clap::builder::BoolishValueParser;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Turns off downloading missing data (as `--offline` does).
pub const OFFLINE_VAR: &str = "COOKINGBOT_OFFLINE";

/// Whether [`OFFLINE_VAR`] turns downloading off, read as the command line's `--offline` reads
/// it (clap's boolish words: `y`, `yes`, `t`, `true`, `on`, `1`, in any case), for the front
/// ends that parse no command line (the Python package, the tests).
pub fn offline_from_env() -> bool {
    std::env::var(OFFLINE_VAR).is_ok_and(|v| says_yes(&v))
}

fn says_yes(value: &str) -> bool {
    ["y", "yes", "t", "true", "on", "1"]
        .iter()
        .any(|word| word.eq_ignore_ascii_case(value))
}

/// Where a command's data comes from: the reference version, the benchmark data, the initial
/// kitchen state, whether missing data may be downloaded, and how long a recipe may take. Declared once for every command
/// of the command line, and built directly by the launcher and the Python package.
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "Data")]
pub struct DataContext {
    /// Reference version to reproduce: 2024 (Babel HEAD, official benchmark data) or 2023
    /// (the documented January 2023 release).
    #[arg(long = "reference", global = true, default_value = "2024")]
    pub profile: Profile,
    /// Folder of the benchmark data (holding `data/gold-standard-solutions`), or `demo` for
    /// the small demo benchmark built into the program; default $COOKINGBOT_BENCHMARK, else
    /// the data `fetch` installs (downloaded first when missing, unless --offline).
    #[arg(long, global = true, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub benchmark: Option<DataChoice>,
    /// Another initial kitchen state (a JSON file in the format of `kitchens/`).
    #[arg(long, global = true)]
    pub kitchen: Option<PathBuf>,
    /// Never download benchmark data. Without it, a command that needs the official data and
    /// finds none (--benchmark, $COOKINGBOT_BENCHMARK, the `fetch` cache) downloads and
    /// installs it first, as `fetch` does.
    #[arg(long, global = true, env = OFFLINE_VAR, value_parser = BoolishValueParser::new())]
    pub offline: bool,
    /// Seconds one recipe may take, Smatch, simulation and metrics together; a recipe over it
    /// is refused, naming the phase and action it was in (no hang). Benchmark recipes take
    /// milliseconds.
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        help_heading = "Limits",
        default_value_t = DEFAULT_TIME_BUDGET.as_secs(),
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub timeout_per_recipe: u64,
}

impl Default for DataContext {
    fn default() -> Self {
        DataContext {
            profile: Profile::default(),
            benchmark: None,
            kitchen: None,
            offline: false,
            timeout_per_recipe: DEFAULT_TIME_BUDGET.as_secs(),
        }
    }
}

impl DataContext {
    /// The context of a front end without a command line (the Python package): downloads are
    /// allowed unless [`OFFLINE_VAR`] turns them off. `benchmark` is read as `--benchmark` reads
    /// it (`demo` names the demo).
    pub fn from_env(
        profile: Profile,
        benchmark: Option<PathBuf>,
        kitchen: Option<PathBuf>,
    ) -> DataContext {
        DataContext {
            profile,
            benchmark: benchmark.map(|b| DataChoice::from(b.into_os_string())),
            kitchen,
            offline: offline_from_env(),
            ..DataContext::default()
        }
    }

    /// The time one recipe may take (`--timeout-per-recipe`).
    pub fn time_budget(&self) -> Duration {
        Duration::from_secs(self.timeout_per_recipe)
    }

    pub fn request(&self) -> DataRequest<'_> {
        DataRequest {
            profile: self.profile,
            explicit: self.benchmark.as_ref(),
            offline: self.offline,
        }
    }
}

/// Where to look for a profile's data and whether missing data may be downloaded.
#[derive(Clone, Copy, Debug)]
pub struct DataRequest<'a> {
    pub profile: Profile,
    /// `--benchmark DIR` or `demo`: only that, never a download.
    pub explicit: Option<&'a DataChoice>,
    /// `--offline`: never download.
    pub offline: bool,
}

/// The data of `request.profile`. When none is found, no folder was named, downloads are
/// allowed and `names_official()` says the work is on official recipes (asked only then), the
/// pinned data is downloaded into the user's cache; a failed download is
/// [`DataError::NotDownloaded`], which names the cause and the other ways to get the data.
/// Anything else (the demo's recipes, unknown ids) gets the plain [`DataError::NotFound`]. A
/// user benchmark that includes official recipes gets them downloaded the same way.
pub fn locate(
    request: DataRequest<'_>,
    names_official: impl FnOnce() -> bool,
    err: &mut dyn Write,
) -> Result<DataSource, DataError> {
    let profile = request.profile;
    let (tried, user_benchmark) = match benchmark::locate(profile, request.explicit) {
        Err(DataError::NotFound { tried, .. }) if request.explicit.is_none() => (tried, false),
        Err(DataError::NoOfficialData { tried, .. }) if !request.offline => (tried, true),
        found => return found,
    };
    if request.offline || !(user_benchmark || names_official()) {
        return Err(DataError::NotFound { profile, tried });
    }
    let installed = Cache::user()
        .ok_or(FetchError::NoDataDir)
        .and_then(|cache| super::install::install(&cache, profile, &Source::download()));
    match installed {
        Ok(dir) => {
            let _ = writeln!(
                err,
                "installed the verified benchmark data for profile {profile} in {}",
                dir.display()
            );
            // A user benchmark's official recipes are now found where `fetch` installs.
            if user_benchmark {
                benchmark::locate(profile, request.explicit)
            } else {
                Ok(DataSource::Folder(dir))
            }
        }
        Err(cause) => Err(DataError::NotDownloaded {
            profile,
            tried,
            cause,
        }),
    }
}

/// Whether any of the solution texts names a recipe of the profile's official benchmark.
pub fn names_official<'t>(profile: Profile, texts: impl IntoIterator<Item = &'t str>) -> bool {
    let manifest = benchmark::manifest(profile);
    texts.into_iter().any(|text| {
        crate::language::parse::parse(text)
            .file
            .recipes
            .iter()
            .any(|r| manifest.has(&r.id))
    })
}

#[cfg(test)]
mod tests {
    use super::says_yes;
    use clap::builder::BoolishValueParser;
    use clap::{Arg, Command};

    /// The environment variable means what `--offline`'s value parser makes of the same word.
    #[test]
    fn offline_words_are_read_as_the_command_line_reads_them() {
        let words = [
            "1", "0", "true", "TRUE", "false", "yes", "No", "y", "n", "on", "off", "t",
        ];
        for word in words {
            let cli = Command::new("t").arg(
                Arg::new("offline")
                    .long("offline")
                    .value_parser(BoolishValueParser::new()),
            );
            let matches = cli.try_get_matches_from(["t", "--offline", word]).unwrap();
            let clap_says = *matches.get_one::<bool>("offline").unwrap();
            assert_eq!(says_yes(word), clap_says, "{word}");
        }
        assert!(!says_yes("") && !says_yes("maybe"));
    }
}
