//! What the desktop launcher is asked to open with. The command line fills it in and the
//! launcher reads it; the binary hands one to the other, so neither names the other.

use crate::base::profile::Profile;
use crate::benchmark::DataChoice;
use crate::metrics::metric::{Metric, MetricSet};
use std::path::PathBuf;

/// How the launcher opens: the `gui` command's options, or none when the program runs with no
/// arguments.
#[derive(Clone, Debug)]
pub struct LaunchSettings {
    pub input: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub metrics: MetricSet,
    pub profile: Profile,
    /// `--benchmark`: a data folder or `demo`.
    pub benchmark: Option<DataChoice>,
    /// Start the evaluation at once (input and output given).
    pub start: bool,
}

impl Default for LaunchSettings {
    fn default() -> Self {
        LaunchSettings {
            input: None,
            output: None,
            metrics: Metric::ALL
                .into_iter()
                .fold(MetricSet::empty(), MetricSet::with),
            profile: Profile::R2024,
            benchmark: None,
            start: false,
        }
    }
}
