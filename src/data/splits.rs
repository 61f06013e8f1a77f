//! The official splits (`gold/splits.json`, ours): train, dev and test over the 30 official
//! recipes and the project's 18 held-out ones (`benchmarks/heldout/`), so that an agent is
//! tuned on one set and reported on another. Drawn once by the rule of docs/agents.md
//! ("Splits"), which a test below draws again: per benchmark and dish kind, the ids sorted and
//! shuffled by one seeded SplitMix64 stream, then dealt train, test, train, dev in turn.

use crate::base::suggest::closest;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// One of the three splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    Train,
    Dev,
    Test,
}

impl Split {
    pub const ALL: [Split; 3] = [Split::Train, Split::Dev, Split::Test];

    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Dev => "dev",
            Split::Test => "test",
        }
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A split name that is none of the three.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown split `{name}`: expected train, dev or test{}", did_you_mean(.name))]
pub struct UnknownSplit {
    pub name: String,
}

fn did_you_mean(name: &str) -> String {
    let names = Split::ALL.map(Split::name);
    match closest(name, names.into_iter(), 1).first() {
        Some(best) => format!(" (did you mean `{best}`?)"),
        None => String::new(),
    }
}

impl FromStr for Split {
    type Err = UnknownSplit;

    fn from_str(name: &str) -> Result<Split, UnknownSplit> {
        Split::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| UnknownSplit { name: name.into() })
    }
}

/// Which benchmark a recipe of the splits comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SplitBenchmark {
    /// The official benchmark (profile 2024's data, `COOKINGBOT_BENCHMARK`).
    Official,
    /// The project's held-out recipes, `benchmarks/heldout/`.
    Heldout,
}

impl SplitBenchmark {
    pub fn name(self) -> &'static str {
        match self {
            SplitBenchmark::Official => "official",
            SplitBenchmark::Heldout => "heldout",
        }
    }
}

/// One recipe's place in the splits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitRecipe {
    pub id: String,
    pub benchmark: SplitBenchmark,
    /// The dish kind the draw is stratified by: `baked`, `salad` or `other` (dressings, dips,
    /// no-bake desserts).
    pub kind: String,
    pub split: Split,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SplitsFile {
    /// The seed of the draw's SplitMix64 stream (read by the test that draws again).
    #[cfg_attr(not(test), allow(dead_code))]
    seed: u64,
    recipes: Vec<SplitRecipe>,
}

const EMBEDDED: &str = include_str!("../../gold/splits.json");

fn file() -> &'static SplitsFile {
    static READ: OnceLock<SplitsFile> = OnceLock::new();
    // The embedded file is checked by the tests below; a failure here is a build defect.
    READ.get_or_init(|| serde_json::from_str(EMBEDDED).expect("embedded gold/splits.json"))
}

/// Every recipe of the splits, by benchmark name (`heldout`, `official`) then id.
pub fn splits() -> &'static [SplitRecipe] {
    &file().recipes
}

/// The recipes of one split, in the order of [`splits`].
pub fn recipes_of(split: Split) -> impl Iterator<Item = &'static SplitRecipe> {
    splits().iter().filter(move |r| r.split == split)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;
    use crate::base::random::SplitMix64;
    use crate::data::manifest::{UserManifest, manifest};
    use std::collections::BTreeMap;

    /// The rule of docs/agents.md: strata in (benchmark, kind) order, each stratum's ids
    /// sorted then shuffled (Fisher–Yates, one stream from the seed for all strata, in that
    /// order), the strata one after another dealt train, test, train, dev, train, ...
    fn draw(seed: u64, recipes: &[SplitRecipe]) -> BTreeMap<String, Split> {
        let mut strata: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
        for r in recipes {
            strata
                .entry((r.benchmark.name(), &r.kind))
                .or_default()
                .push(&r.id);
        }
        let mut rng = SplitMix64::new(seed);
        let mut order: Vec<&str> = Vec::new();
        for ids in strata.values_mut() {
            ids.sort_unstable();
            for i in (1..ids.len()).rev() {
                ids.swap(i, rng.below(i + 1));
            }
            order.extend(ids.iter().copied());
        }
        let deal = [Split::Train, Split::Test, Split::Train, Split::Dev];
        order
            .into_iter()
            .enumerate()
            .map(|(n, id)| (id.to_string(), deal[n % deal.len()]))
            .collect()
    }

    #[test]
    fn the_file_is_the_documented_draw() {
        let file = file();
        let drawn = draw(file.seed, &file.recipes);
        let stored: BTreeMap<String, Split> = file
            .recipes
            .iter()
            .map(|r| (r.id.clone(), r.split))
            .collect();
        assert_eq!(stored, drawn);
        let sizes = Split::ALL.map(|s| recipes_of(s).count());
        assert_eq!(sizes, [24, 12, 12]);
    }

    #[test]
    fn every_official_and_heldout_recipe_is_in_exactly_one_split() {
        let heldout = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benchmarks/heldout/benchmark.json"
        ))
        .unwrap();
        let heldout = UserManifest::parse(&heldout).unwrap();
        let mut expected: Vec<(SplitBenchmark, String)> = manifest(Profile::R2024)
            .recipes
            .into_iter()
            .map(|r| (SplitBenchmark::Official, r.id))
            .chain(
                heldout
                    .recipes
                    .into_iter()
                    .map(|r| (SplitBenchmark::Heldout, r.id)),
            )
            .collect();
        expected.sort();
        let mut listed: Vec<(SplitBenchmark, String)> = splits()
            .iter()
            .map(|r| (r.benchmark, r.id.clone()))
            .collect();
        let by_name = |(b, id): &(SplitBenchmark, String)| (b.name(), id.clone());
        assert!(
            listed.is_sorted_by_key(by_name),
            "the file lists by benchmark, then id"
        );
        listed.sort();
        assert_eq!(listed, expected);
        assert_eq!(listed.len(), 48);
    }

    #[test]
    fn kinds_are_the_three_documented() {
        for r in splits() {
            assert!(
                ["baked", "salad", "other"].contains(&r.kind.as_str()),
                "{}: {}",
                r.id,
                r.kind
            );
        }
    }

    #[test]
    fn a_split_name_is_read_or_refused_with_the_closest() {
        assert_eq!("dev".parse::<Split>(), Ok(Split::Dev));
        assert_eq!(
            "tset".parse::<Split>().unwrap_err().to_string(),
            "unknown split `tset`: expected train, dev or test (did you mean `test`?)"
        );
        assert_eq!(
            "all".parse::<Split>().unwrap_err().to_string(),
            "unknown split `all`: expected train, dev or test"
        );
    }
}
