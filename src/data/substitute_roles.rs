//! Which ingredient classes do the same job in a dish (`kitchens/substitutes.json`): roles
//! such as fat, sugar, flour or acid, each with the classes that fill it. `substitute
//! --suggest` proposes the other classes of a class's roles. Plain data, read once; the
//! classes are checked against the ontologies and kitchens by the test suite.

use super::catalogue::DataFileError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const EMBEDDED: &str = include_str!("../../kitchens/substitutes.json");

/// One role: what the classes do, and the classes, in the file's order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Role {
    pub description: String,
    pub classes: Vec<String>,
}

/// The role table, roles by name.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubstituteRoles {
    /// What the table is, for people reading the file.
    pub about: String,
    pub roles: BTreeMap<String, Role>,
}

impl SubstituteRoles {
    /// The table built into the crate.
    pub fn builtin() -> &'static SubstituteRoles {
        static TABLE: OnceLock<SubstituteRoles> = OnceLock::new();
        // Checked by the test suite; a failure here is a build defect, not a user error.
        TABLE.get_or_init(|| Self::from_json(EMBEDDED).expect("kitchens/substitutes.json is valid"))
    }

    /// A table from its JSON: every role has a description and at least two classes, and no
    /// class is listed twice in one role.
    pub fn from_json(text: &str) -> Result<SubstituteRoles, DataFileError> {
        let table: SubstituteRoles = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for (name, role) in &table.roles {
            if role.classes.len() < 2 {
                return Err(format!("roles.{name}: a role needs at least two classes").into());
            }
            let mut seen: Vec<&str> = Vec::new();
            for class in &role.classes {
                if seen.contains(&class.as_str()) {
                    return Err(format!("roles.{name}: `{class}` is listed twice").into());
                }
                seen.push(class);
            }
        }
        Ok(table)
    }

    /// The roles `class` fills, by name.
    pub fn roles_of<'t>(&'t self, class: &'t str) -> impl Iterator<Item = (&'t str, &'t Role)> {
        self.roles
            .iter()
            .filter(move |(_, role)| role.classes.iter().any(|c| c == class))
            .map(|(name, role)| (name.as_str(), role))
    }

    /// Every class the table names, once, in role order.
    pub fn classes(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for class in self.roles.values().flat_map(|r| &r.classes) {
            if !out.contains(&class.as_str()) {
                out.push(class);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_reads_and_butter_is_a_fat() {
        let table = SubstituteRoles::builtin();
        let roles: Vec<&str> = table.roles_of("butter").map(|(n, _)| n).collect();
        assert_eq!(roles, ["fat"]);
    }

    #[test]
    fn a_role_of_one_class_or_a_class_twice_is_refused() {
        let one = r#"{"about": "", "roles": {"fat": {"description": "", "classes": ["butter"]}}}"#;
        let e = SubstituteRoles::from_json(one).unwrap_err();
        assert_eq!(e.0, "roles.fat: a role needs at least two classes");
        let twice = r#"{"about": "", "roles": {"fat": {"description": "", "classes": ["butter", "butter"]}}}"#;
        let e = SubstituteRoles::from_json(twice).unwrap_err();
        assert_eq!(e.0, "roles.fat: `butter` is listed twice");
    }
}
