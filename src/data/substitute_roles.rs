//! Which ingredient classes do the same job in a dish (`kitchens/substitutes.json`), by
//! culinary sense: roles such as solid fat, liquid oil, granulated sugar or acid, each with the
//! classes that fill it, which way each may be swapped, how strong each is, the uses of a
//! recipe where one does not fit, and what a cook should know; and, for every class a recipe
//! uses that has no substitute, why not. `substitute --suggest` proposes from it. Plain data,
//! read once; the classes are checked against the ontologies and kitchens by the test suite.

use super::catalogue::DataFileError;
use crate::base::number::Number;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const EMBEDDED: &str = include_str!("../../kitchens/substitutes.json");

/// How a recipe uses an ingredient, as its network shows it: what a substitute must be able
/// to do in its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Use {
    /// Beaten or mixed with sugar before anything else joins it.
    Creamed,
    /// Beaten in a bowl holding egg white or cream.
    Whipped,
    /// In a dough that is shaped, flattened or portioned.
    Dough,
    /// Greasing a tin or sheet.
    Greasing,
    /// Mixed with an acid in a dish that is never baked.
    Dressing,
    /// Sprinkled on top.
    Topping,
    /// Melted.
    Melted,
    /// In a dish that is baked.
    Baked,
    /// In a dish never baked, fried, boiled or melted.
    Raw,
    /// Cracked (an egg).
    Cracked,
    /// Seeded (a chili).
    Seeded,
    /// Mashed (a banana, an avocado).
    Mashed,
    /// Cut (chopped nuts, sliced vegetables).
    Cut,
    /// Peeled.
    Peeled,
    /// In a bowl with a raising agent.
    Leavened,
}

impl Use {
    /// The ontology's class of what the kitchen model can do this to (`crackable`), for the
    /// uses an action does to the ingredient alone.
    pub fn ability(self) -> Option<&'static str> {
        match self {
            Use::Cracked => Some("crackable"),
            Use::Seeded => Some("seedable"),
            Use::Mashed => Some("mashable"),
            Use::Cut => Some("cuttable"),
            Use::Peeled => Some("peelable"),
            _ => None,
        }
    }

    /// The use in words, as "the recipe … butter".
    pub fn words(self) -> &'static str {
        match self {
            Use::Creamed => "creams",
            Use::Whipped => "whips",
            Use::Dough => "works into a dough",
            Use::Greasing => "greases with",
            Use::Dressing => "whisks into a dressing",
            Use::Topping => "sprinkles on top",
            Use::Melted => "melts",
            Use::Baked => "bakes",
            Use::Raw => "serves uncooked",
            Use::Cracked => "cracks",
            Use::Seeded => "seeds",
            Use::Mashed => "mashes",
            Use::Cut => "cuts",
            Use::Peeled => "peels",
            Use::Leavened => "raises with a raising agent",
        }
    }
}

/// What else a recipe must hold for a class to work in another's place (baking soda: an acid).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Needs {
    /// What it needs, in words ("an acid").
    pub what: String,
    /// The classes that give it.
    pub classes: Vec<String>,
}

/// One class of a role, with what a cook should know of it there.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Member {
    pub class: String,
    /// How much of the role's job a gram of it does beside a class of strength 1.
    #[serde(default = "one")]
    pub strength: u32,
    /// Whether it is proposed in the place of the role's others.
    #[serde(default = "yes")]
    pub offered: bool,
    /// Whether the role's others are proposed in its place.
    #[serde(default = "yes")]
    pub replaced: bool,
    /// Why it is not offered or not replaced.
    pub why: Option<String>,
    /// Uses of the replaced class where this one does not fit, and why.
    #[serde(default)]
    pub unfit: BTreeMap<Use, String>,
    /// What a cook should know when it is put in another's place.
    pub note_offered: Option<String>,
    /// What a cook should know when another is put in its place.
    pub note_replaced: Option<String>,
    /// What else the recipe must hold for it to work in another's place.
    pub needs: Option<Needs>,
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// One role: what the classes do, why they share it, and the classes, in the file's order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Role {
    pub description: String,
    /// Why these classes do the same job (the role's source).
    pub reason: String,
    pub classes: Vec<Member>,
}

/// The role table: roles by name, and the classes with no substitute, with the reason.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubstituteRoles {
    /// What the table is, for people reading the file.
    pub about: String,
    pub roles: BTreeMap<String, Role>,
    /// Classes recipes use that no role holds, and why they have no substitute.
    pub no_role: BTreeMap<String, String>,
}

/// One class proposed in another's place by one role.
#[derive(Clone, Debug)]
pub struct Offer<'t> {
    pub role: &'t str,
    /// The class replaced, in the role.
    pub replaced: &'t Member,
    /// The class offered, in the role.
    pub offered: &'t Member,
}

impl Offer<'_> {
    /// Grams of the offered class that do the work of one gram of the replaced one.
    pub fn strength_factor(&self) -> Number {
        let (from, to) = (self.replaced.strength, self.offered.strength);
        Number::ratio(i64::from(from), i64::from(to)).unwrap_or(Number::int(1))
    }
}

impl Role {
    /// The member for `class`, if the role holds it.
    pub fn member(&self, class: &str) -> Option<&Member> {
        self.classes.iter().find(|m| m.class == class)
    }
}

impl SubstituteRoles {
    /// The table built into the crate.
    pub fn builtin() -> &'static SubstituteRoles {
        static TABLE: OnceLock<SubstituteRoles> = OnceLock::new();
        // Checked by the test suite; a failure here is a build defect, not a user error.
        TABLE.get_or_init(|| Self::from_json(EMBEDDED).expect("kitchens/substitutes.json is valid"))
    }

    /// A table from its JSON: every role has a reason and at least two classes, one of which
    /// is offered in another's place; no class is listed twice in one role or both in a role
    /// and without one; a strength is at least 1; a class not offered or not replaced says why.
    pub fn from_json(text: &str) -> Result<SubstituteRoles, DataFileError> {
        let table: SubstituteRoles = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for (name, role) in &table.roles {
            let fail = |what: String| Err(format!("roles.{name}: {what}").into());
            if role.classes.len() < 2 {
                return fail("a role needs at least two classes".into());
            }
            if role.reason.trim().is_empty() {
                return fail("a role needs its reason".into());
            }
            for (i, m) in role.classes.iter().enumerate() {
                let class = &m.class;
                if role.classes[..i].iter().any(|o| o.class == *class) {
                    return fail(format!("`{class}` is listed twice"));
                }
                if m.strength == 0 {
                    return fail(format!("`{class}`: a strength is at least 1"));
                }
                if (!m.offered || !m.replaced) && m.why.is_none() {
                    return fail(format!("`{class}` is not offered or not replaced: say why"));
                }
                if table.no_role.contains_key(class) {
                    return fail(format!("`{class}` is also in no_role"));
                }
            }
            if role
                .classes
                .iter()
                .all(|m| table.offers_in(name, role, &m.class).is_empty())
            {
                return fail("no class of it is offered in another's place".into());
            }
        }
        Ok(table)
    }

    /// The roles `class` is a member of, by name.
    pub fn roles_of<'t>(&'t self, class: &'t str) -> impl Iterator<Item = (&'t str, &'t Role)> {
        self.roles
            .iter()
            .filter(move |(_, role)| role.member(class).is_some())
            .map(|(name, role)| (name.as_str(), role))
    }

    /// The classes offered in `class`'s place, by role, in role and file order; a class
    /// offered by two roles once, by the first.
    pub fn offers<'t>(&'t self, class: &'t str) -> Vec<Offer<'t>> {
        let mut out: Vec<Offer<'t>> = Vec::new();
        for (name, role) in self.roles_of(class) {
            for offer in self.offers_in(name, role, class) {
                if !out.iter().any(|o| o.offered.class == offer.offered.class) {
                    out.push(offer);
                }
            }
        }
        out
    }

    fn offers_in<'t>(&'t self, name: &'t str, role: &'t Role, class: &str) -> Vec<Offer<'t>> {
        let Some(replaced) = role.member(class).filter(|m| m.replaced) else {
            return Vec::new();
        };
        role.classes
            .iter()
            .filter(|m| m.offered && m.class != class)
            .map(|offered| Offer {
                role: name,
                replaced,
                offered,
            })
            .collect()
    }

    /// Why the table offers nothing in `class`'s place: its `no_role` reason, or the reason
    /// its roles give (it is replaced by none of them); `None` when it offers something or
    /// does not know the class.
    pub fn why_none(&self, class: &str) -> Option<String> {
        if let Some(why) = self.no_role.get(class) {
            return Some(why.clone());
        }
        if !self.offers(class).is_empty() {
            return None;
        }
        let whys: Vec<&str> = self
            .roles_of(class)
            .filter_map(|(_, role)| role.member(class)?.why.as_deref())
            .collect();
        (!whys.is_empty()).then(|| whys.join("; "))
    }

    /// Every class the table names in a role, once, in role order.
    pub fn classes(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for class in self.roles.values().flat_map(|r| &r.classes) {
            if !out.contains(&class.class.as_str()) {
                out.push(&class.class);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn butter_is_a_solid_fat_and_no_oil_is_offered_for_it() {
        let table = SubstituteRoles::builtin();
        let roles: Vec<&str> = table.roles_of("butter").map(|(n, _)| n).collect();
        assert_eq!(roles, ["solid-fat"]);
        let offered: Vec<&str> = table
            .offers("butter")
            .iter()
            .map(|o| o.offered.class.as_str())
            .collect();
        assert_eq!(offered, ["salted-butter", "coconut-oil"]);
    }

    #[test]
    fn a_substitution_that_works_one_way_is_offered_that_way_only() {
        let table = SubstituteRoles::builtin();
        let for_egg: Vec<&str> = table
            .offers("egg")
            .iter()
            .map(|o| o.offered.class.as_str())
            .collect();
        assert_eq!(for_egg, ["banana"]);
        assert!(table.offers("banana").is_empty());
        assert_eq!(
            table.why_none("banana").as_deref(),
            Some("the banana of a banana bread is the dish itself: an egg does not stand for it")
        );
        // An abstract class is replaced, never offered.
        assert!(
            table
                .offers("vegetable-oil")
                .iter()
                .all(|o| o.offered.class != "oil")
        );
        assert!(!table.offers("oil").is_empty());
    }

    #[test]
    fn soda_for_powder_takes_a_third_of_the_weight_and_powder_for_soda_three_times() {
        let table = SubstituteRoles::builtin();
        let factor = |from: &str, to: &str| {
            let offers = table.offers(from);
            let o = offers
                .iter()
                .find(|o| o.offered.class == to)
                .expect("offered");
            o.strength_factor().to_string()
        };
        assert_eq!(factor("baking-powder", "baking-soda"), "1/3");
        assert_eq!(factor("baking-soda", "baking-powder"), "3");
        assert_eq!(factor("fresh-basil", "dried-dill-weed"), "1/3");
        assert_eq!(factor("butter", "coconut-oil"), "1");
    }

    #[test]
    fn a_table_that_breaks_a_rule_is_refused_naming_it() {
        let role = |classes: &str| {
            format!(
                r#"{{"about": "", "no_role": {{}}, "roles": {{"fat": {{"description": "", "reason": "r", "classes": [{classes}]}}}}}}"#
            )
        };
        let cases = [
            (
                r#"{"class": "butter"}"#,
                "roles.fat: a role needs at least two classes",
            ),
            (
                r#"{"class": "butter"}, {"class": "butter"}"#,
                "roles.fat: `butter` is listed twice",
            ),
            (
                r#"{"class": "butter"}, {"class": "lard", "strength": 0}"#,
                "roles.fat: `lard`: a strength is at least 1",
            ),
            (
                r#"{"class": "butter"}, {"class": "lard", "offered": false}"#,
                "roles.fat: `lard` is not offered or not replaced: say why",
            ),
            (
                r#"{"class": "butter", "offered": false, "why": "w"}, {"class": "lard", "offered": false, "why": "w"}"#,
                "roles.fat: no class of it is offered in another's place",
            ),
        ];
        for (classes, message) in cases {
            let e = SubstituteRoles::from_json(&role(classes)).unwrap_err();
            assert_eq!(e.0, message);
        }
    }
}
