//! Which version of the reference evaluator to reproduce.

use std::fmt;
use std::str::FromStr;

/// The two reference versions (see `shared/reference/README.md`): `2024` is Babel HEAD with the
/// official benchmark repository's gold networks (the default), `2023` is the January 2023
/// release that the documentation and the downloadable executable describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Profile {
    R2023,
    #[default]
    R2024,
}

impl Profile {
    pub const ALL: [Profile; 2] = [Profile::R2023, Profile::R2024];

    /// Of two versions of something (embedded data come one per profile), this profile's.
    pub fn pick<T>(self, r2023: T, r2024: T) -> T {
        match self {
            Profile::R2023 => r2023,
            Profile::R2024 => r2024,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Profile::R2023 => "2023",
            Profile::R2024 => "2024",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "2023" => Ok(Profile::R2023),
            "2024" => Ok(Profile::R2024),
            other => Err(format!(
                "unknown reference profile `{other}` (expected 2023 or 2024)"
            )),
        }
    }
}
