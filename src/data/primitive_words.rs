//! What each primitive does, in one line of our own words, and what the kitchen supplies for
//! an optional argument left a fresh variable (`kitchens/primitive-words.json`). The
//! signatures themselves are the catalogue's; this only tells an agent what they are for.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The words of one primitive.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PrimitiveWords {
    /// One line: what the primitive does.
    pub does: String,
    /// Per optional argument, what the kitchen supplies when it is a fresh variable.
    #[serde(default)]
    pub defaults: BTreeMap<String, String>,
    /// Per number or unit argument, what kind of free value it takes: `amount` (of an
    /// ingredient), `count` (of objects), `portion` (a portion's size), `time` or
    /// `temperature`. An agent picks these; no kitchen object stands for them.
    #[serde(default)]
    pub free: BTreeMap<String, String>,
    /// Per input argument the primitive reads by its class, not looks up in the kitchen
    /// (`line`'s lining: paper cups fill muffin tins, anything else lines with baking paper),
    /// the class whose kinds a constant there may name. Anywhere else a constant of a held
    /// kind is a new concept the kitchen never holds, and what takes it fails.
    #[serde(default, rename = "by-class")]
    pub by_class: BTreeMap<String, String>,
    /// Per input argument holding what the primitive works on, what it is meant for: the
    /// reference runs it on anything (cracking salt makes eggs of it), the session warns.
    #[serde(default, rename = "meant-for")]
    pub meant_for: BTreeMap<String, MeantFor>,
}

/// What an argument of a primitive is meant to hold ([`PrimitiveWords::meant_for`]).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct MeantFor {
    /// Ontology classes: every ingredient the argument holds is meant to be one of them.
    pub classes: Vec<String>,
    /// Those classes in words (`eggs`).
    pub words: String,
}

/// The kinds of free value ([`PrimitiveWords::free`]).
pub const FREE_KINDS: [&str; 5] = ["amount", "count", "portion", "time", "temperature"];

#[derive(Deserialize)]
struct FileData {
    primitives: BTreeMap<String, PrimitiveWords>,
}

const EMBEDDED: &str = include_str!("../../kitchens/primitive-words.json");

/// The words of every built-in primitive, read once for the process.
pub fn builtin() -> &'static BTreeMap<String, PrimitiveWords> {
    static READ: OnceLock<BTreeMap<String, PrimitiveWords>> = OnceLock::new();
    READ.get_or_init(|| {
        // The embedded file is checked by the tests below; a failure here is a build defect.
        let data: FileData =
            serde_json::from_str(EMBEDDED).expect("embedded kitchens/primitive-words.json");
        data.primitives
    })
}

/// The words of primitive `name`, if it is a built-in one.
pub fn of(name: &str) -> Option<&'static PrimitiveWords> {
    builtin().get(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;
    use crate::data::catalogue::{Catalogue, Role};

    /// Every primitive of both profiles' catalogues has its line and a kind for every
    /// `quantity` argument that is an input in some case, every default names an optional
    /// argument of the primitive, the arguments read by class and meant for something are
    /// inputs, and no entry names a primitive no catalogue has.
    #[test]
    fn every_primitive_has_its_words_and_defaults_name_optional_arguments() {
        let catalogues = Profile::ALL.map(Catalogue::builtin);
        for catalogue in &catalogues {
            for sig in catalogue.iter() {
                let words = of(&sig.name).unwrap_or_else(|| panic!("no words for {}", sig.name));
                assert!(!words.does.is_empty(), "{}", sig.name);
                for (i, a) in sig.args.iter().enumerate() {
                    let input = sig.cases.iter().any(|c| c.is_input(i));
                    if input && a.ty == "quantity" {
                        assert!(words.free.contains_key(&a.name), "{}: {}", sig.name, a.name);
                    }
                }
            }
        }
        for (name, words) in builtin() {
            let sigs: Vec<_> = catalogues.iter().filter_map(|c| c.get(name)).collect();
            assert!(!sigs.is_empty(), "{name} is in no catalogue");
            for argument in words.defaults.keys() {
                let optional = sigs.iter().any(|s| {
                    s.args
                        .iter()
                        .any(|a| &a.name == argument && a.role == Role::Optional)
                });
                assert!(optional, "{name}: {argument} is no optional argument");
            }
            for (argument, kind) in &words.free {
                assert!(FREE_KINDS.contains(&kind.as_str()), "{name}: {kind}");
                assert!(
                    sigs.iter().all(|s| s.arg_index(argument).is_some()),
                    "{name}: {argument}"
                );
            }
            // `line`'s arguments are named apart in the two profiles: each name is one profile's.
            let an_input = |argument: &str| {
                sigs.iter().any(|s| {
                    s.arg_index(argument)
                        .is_some_and(|i| s.cases.iter().any(|c| c.is_input(i)))
                })
            };
            for argument in words.by_class.keys() {
                assert!(an_input(argument), "{name}: {argument}");
            }
            for (argument, meant) in &words.meant_for {
                assert!(
                    sigs.iter().all(|s| s.arg_index(argument).is_some()) && an_input(argument),
                    "{name}: {argument}"
                );
                assert!(
                    !meant.classes.is_empty() && !meant.words.is_empty(),
                    "{name}"
                );
            }
        }
    }
}
