//! Which diets each ingredient class keeps (`kitchens/diet.json`): per class the tags that
//! decide diets (`dairy`, `gluten`, ...) or a rule saying how it is judged, and per diet the
//! tags it excludes. Plain data, read once; judging a simulated dish against it is
//! `metrics::diet`.

use super::catalogue::DataFileError;
use crate::base::suggest::closest;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const EMBEDDED: &str = include_str!("../../kitchens/diet.json");

/// The diets a dish is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Diet {
    Vegan,
    Vegetarian,
    GlutenFree,
    DairyFree,
    NutFree,
    EggFree,
}

impl Diet {
    pub const ALL: [Diet; 6] = [
        Diet::Vegan,
        Diet::Vegetarian,
        Diet::GlutenFree,
        Diet::DairyFree,
        Diet::NutFree,
        Diet::EggFree,
    ];

    /// The name on the command line, in the data file and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Diet::Vegan => "vegan",
            Diet::Vegetarian => "vegetarian",
            Diet::GlutenFree => "gluten-free",
            Diet::DairyFree => "dairy-free",
            Diet::NutFree => "nut-free",
            Diet::EggFree => "egg-free",
        }
    }

    /// A diet by name, in any case.
    pub fn parse(s: &str) -> Option<Diet> {
        Diet::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
    }

    /// [`Diet::parse`] with the error a user sees: the names, and the closest one to a typo.
    pub fn named(s: &str) -> Result<Diet, UnknownDiet> {
        Diet::parse(s).ok_or_else(|| {
            let names = Diet::ALL.map(Diet::name);
            let close = closest(&s.to_ascii_lowercase(), names.into_iter(), 1);
            UnknownDiet {
                word: s.to_owned(),
                closest: close.first().map(|name| name.to_string()),
            }
        })
    }
}

/// A word that names no diet, with the closest name when one is near.
#[derive(Debug, thiserror::Error)]
#[error("`{word}` is not a diet (one of {names}){hint}",
    names = Diet::ALL.map(Diet::name).join(", "),
    hint = closest.as_ref().map(|c| format!("; did you mean `{c}`?")).unwrap_or_default())]
pub struct UnknownDiet {
    pub word: String,
    pub closest: Option<String>,
}

/// How a class is judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The tags of the food itself (none: every diet keeps it).
    Tags(Vec<String>),
    /// A mixture: judged by the components it holds, never by itself.
    Components,
    /// An abstract class standing for any of its subclasses: every tag one of them has.
    Subclasses,
}

/// The tag that stands for ingredients nobody could verify; every diet excludes it.
pub const UNKNOWN: &str = "unknown";

/// `kitchens/diet.json`, decoded and checked.
#[derive(Debug)]
pub struct DietTable {
    /// Each tag with what it means.
    pub tags: BTreeMap<String, String>,
    /// The tags each diet excludes, in [`Diet::ALL`]'s order.
    excludes: Vec<Vec<String>>,
    /// Each ingredient class's rule, by class name.
    pub classes: BTreeMap<String, Rule>,
    /// Why a class has the tags it has, where that is not plain.
    pub notes: BTreeMap<String, String>,
}

impl DietTable {
    /// The table built into the crate.
    pub fn builtin() -> &'static DietTable {
        static TABLE: OnceLock<DietTable> = OnceLock::new();
        // Checked by the test suite; a failure here is a build defect, not a user error.
        TABLE.get_or_init(|| Self::from_json(EMBEDDED).expect("kitchens/diet.json is valid"))
    }

    pub fn from_json(text: &str) -> Result<DietTable, DataFileError> {
        let root: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let tags: BTreeMap<String, String> =
            serde_json::from_value(root["tags"].clone()).map_err(|e| format!("tags: {e}"))?;
        let known = |tag: &str, at: &str| {
            if tags.contains_key(tag) {
                Ok(tag.to_owned())
            } else {
                Err(format!("{at}: `{tag}` is not one of the tags"))
            }
        };
        let diets = root["diets"].as_object().ok_or("diets: not an object")?;
        if let Some(other) = diets
            .keys()
            .find(|d| !Diet::ALL.iter().any(|x| x.name() == *d))
        {
            return Err(format!("diets: `{other}` is not a diet this program knows").into());
        }
        let mut excludes = Vec::new();
        for diet in Diet::ALL {
            let at = format!("diets.{}", diet.name());
            let list = diets
                .get(diet.name())
                .and_then(Json::as_array)
                .ok_or_else(|| format!("{at}: not a list of tags"))?;
            let list = list
                .iter()
                .map(|t| known(t.as_str().unwrap_or_default(), &at))
                .collect::<Result<Vec<String>, String>>()?;
            if !list.iter().any(|t| t == UNKNOWN) {
                return Err(format!("{at}: every diet excludes `{UNKNOWN}`").into());
            }
            excludes.push(list);
        }
        let mut classes = BTreeMap::new();
        for (name, rule) in root["classes"]
            .as_object()
            .ok_or("classes: not an object")?
        {
            let at = format!("classes.{name}");
            let rule = match rule {
                Json::String(s) if s == "components" => Rule::Components,
                Json::String(s) if s == "subclasses" => Rule::Subclasses,
                Json::Array(list) => Rule::Tags(
                    list.iter()
                        .map(|t| known(t.as_str().unwrap_or_default(), &at))
                        .collect::<Result<_, _>>()?,
                ),
                _ => {
                    let wanted = "a list of tags, \"components\" or \"subclasses\"";
                    return Err(format!("{at}: {wanted}").into());
                }
            };
            classes.insert(name.clone(), rule);
        }
        let notes: BTreeMap<String, String> =
            serde_json::from_value(root["notes"].clone()).map_err(|e| format!("notes: {e}"))?;
        if let Some(class) = notes.keys().find(|c| !classes.contains_key(*c)) {
            return Err(format!("notes.{class}: no such class under `classes`").into());
        }
        Ok(DietTable {
            tags,
            excludes,
            classes,
            notes,
        })
    }

    /// The tags `diet` excludes.
    pub fn excludes(&self, diet: Diet) -> &[String] {
        &self.excludes[diet as usize]
    }

    pub fn rule(&self, class: &str) -> Option<&Rule> {
        self.classes.get(class)
    }

    /// A tag by name, or the error naming the tags and the closest one.
    pub fn tag(&self, word: &str) -> Result<&str, UnknownTag> {
        if let Some((tag, _)) = self.tags.get_key_value(word) {
            return Ok(tag);
        }
        let close = closest(word, self.tags.keys().map(String::as_str), 1);
        Err(UnknownTag {
            word: word.to_owned(),
            tags: self.tags.keys().cloned().collect(),
            closest: close.first().map(|c| c.to_string()),
        })
    }
}

/// A word that names no tag of the diet table, with the tags and the closest one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{word}` is not a diet tag (one of {names}){hint}",
    names = tags.join(", "),
    hint = closest.as_ref().map(|c| format!("; did you mean `{c}`?")).unwrap_or_default())]
pub struct UnknownTag {
    pub word: String,
    pub tags: Vec<String>,
    pub closest: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_reads_and_names_every_diet() {
        let table = DietTable::builtin();
        assert_eq!(
            table.excludes(Diet::Vegetarian),
            ["fish", "gelatin", "meat", "rennet", "unknown"]
        );
        assert_eq!(table.excludes(Diet::GlutenFree), ["gluten", "unknown"]);
        assert_eq!(
            table.rule("butter"),
            Some(&Rule::Tags(vec!["dairy".into()]))
        );
        assert_eq!(table.rule("dough"), Some(&Rule::Components));
        assert_eq!(table.rule("flour"), Some(&Rule::Subclasses));
        assert_eq!(table.rule("cutting-board"), None);
    }

    #[test]
    fn names_parse_in_any_case_and_typos_get_the_closest() {
        assert_eq!(Diet::parse("Gluten-Free"), Some(Diet::GlutenFree));
        assert_eq!(
            Diet::named("vegn").unwrap_err().to_string(),
            "`vegn` is not a diet (one of vegan, vegetarian, gluten-free, dairy-free, nut-free, egg-free); did you mean `vegan`?"
        );
        assert_eq!(
            DietTable::builtin().tag("diary").unwrap_err().to_string(),
            "`diary` is not a diet tag (one of dairy, egg, fish, gelatin, gluten, honey, meat, nut, peanut, rennet, unknown); did you mean `dairy`?"
        );
    }

    #[test]
    fn a_table_with_an_unknown_tag_or_a_diet_without_unknown_is_refused() {
        let text = |classes: &str, vegan: &str| {
            let diets: Vec<String> = Diet::ALL
                .iter()
                .map(|d| match d {
                    Diet::Vegan => format!("\"vegan\": {vegan}"),
                    d => format!("\"{}\": [\"unknown\"]", d.name()),
                })
                .collect();
            format!(
                r#"{{"tags": {{"dairy": "", "unknown": ""}}, "diets": {{{}}}, "classes": {classes}, "notes": {{}}}}"#,
                diets.join(", ")
            )
        };
        let ok = DietTable::from_json(&text(r#"{"milk": ["dairy"]}"#, r#"["dairy", "unknown"]"#));
        assert!(ok.is_ok());
        let e = DietTable::from_json(&text(r#"{"milk": ["diary"]}"#, r#"["unknown"]"#));
        assert_eq!(
            e.unwrap_err().0,
            "classes.milk: `diary` is not one of the tags"
        );
        let e = DietTable::from_json(&text("{}", r#"["dairy"]"#));
        assert_eq!(
            e.unwrap_err().0,
            "diets.vegan: every diet excludes `unknown`"
        );
        let e = DietTable::from_json(&text(r#"{"milk": "mixture"}"#, r#"["unknown"]"#));
        assert_eq!(
            e.unwrap_err().0,
            "classes.milk: a list of tags, \"components\" or \"subclasses\""
        );
    }
}
