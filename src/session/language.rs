//! The action language as an agent reads it: each primitive of the session's catalogue with
//! its arguments in order (role, type, what the kitchen supplies for an optional one left a
//! fresh variable), the cases the reference runs it under, and one line of what it does.
//! Signatures are the catalogue's (`data::catalogue`), the words `data::primitive_words`'.

use crate::data::catalogue::{Catalogue, PrimitiveSig, Role};
use crate::data::primitive_words;
use crate::translate::llm::prompt::form;
use serde::Serialize;

/// One primitive of the language.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Primitive {
    pub name: String,
    /// What it does, in one line (empty for a model's own primitive without words).
    pub does: String,
    pub arguments: Vec<Argument>,
    /// The argument patterns it runs under: per case, the arguments bound on entry (the rest
    /// must be fresh variables, which the action binds).
    pub cases: Vec<Vec<String>>,
    /// The compact form: `(cut ?cut-object ?ks-out ?ks-in object cut-pattern:cutting-pattern
    /// [cutting-tool])`.
    pub form: String,
}

/// One argument of a primitive, in its place.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Argument {
    pub name: String,
    /// `output`, `kitchen-state-out`, `kitchen-state-in`, `input` or `optional` (an input in
    /// some cases, made by the action with a default in the others).
    pub role: &'static str,
    /// The ontology class its value must be an instance of (`t`: anything).
    #[serde(rename = "type")]
    pub ty: String,
    /// What the kitchen supplies for an optional argument given as a fresh variable.
    pub default: Option<String>,
}

/// The short name of a role.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Optional => "optional",
        other => other.name(),
    }
}

/// Every primitive of `catalogue`, in its order.
pub fn primitives(catalogue: &Catalogue) -> Vec<Primitive> {
    catalogue.iter().map(primitive).collect()
}

fn primitive(sig: &PrimitiveSig) -> Primitive {
    let words = primitive_words::of(&sig.name);
    let arguments = sig
        .args
        .iter()
        .map(|a| Argument {
            name: a.name.clone(),
            role: role_name(a.role),
            ty: a.ty.clone(),
            default: (a.role == Role::Optional)
                .then(|| words.and_then(|w| w.defaults.get(&a.name)).cloned())
                .flatten(),
        })
        .collect();
    let cases = sig
        .cases
        .iter()
        .map(|c| {
            (0..sig.arity())
                .filter(|&i| c.is_input(i))
                .map(|i| sig.args[i].name.clone())
                .collect()
        })
        .collect();
    Primitive {
        name: sig.name.clone(),
        does: words.map_or(String::new(), |w| w.does.clone()),
        arguments,
        cases,
        form: form(sig),
    }
}

/// The language in a few lines per primitive, for the opening an agent reads first.
pub fn compact(catalogue: &Catalogue) -> String {
    let mut s = String::from(
        "THE ACTIONS: one per line, `(primitive arg ...)`, arguments in this order. `?out` is a \
         fresh variable the action binds, `?ks-out` the new kitchen state, `?ks-in` the kitchen \
         state the last action made (chain them), `name` an input (a variable bound earlier or \
         a constant), `[name]` optional (a fresh variable: the kitchen supplies the default), \
         `name:type` an input taking a constant of that type.\n",
    );
    for p in primitives(catalogue) {
        s.push_str(&p.form);
        if !p.does.is_empty() {
            s.push_str(&format!(" ; {}", p.does));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;

    #[test]
    fn cut_of_2024_reads_in_order_with_roles_defaults_and_cases() {
        let catalogue = Catalogue::builtin(Profile::R2024);
        let cut = primitives(&catalogue)
            .into_iter()
            .find(|p| p.name == "cut")
            .unwrap();
        let roles: Vec<(&str, &str, Option<&str>)> = cut
            .arguments
            .iter()
            .map(|a| (a.name.as_str(), a.role, a.default.as_deref()))
            .collect();
        assert_eq!(
            roles,
            [
                ("cut-object", "output", None),
                ("kitchen-state-out", "kitchen-state-out", None),
                ("kitchen-state-in", "kitchen-state-in", None),
                ("object", "input", None),
                ("cut-pattern", "input", None),
                ("cutting-tool", "optional", Some("a knife")),
                ("cutting-surface", "optional", Some("a cutting board")),
            ]
        );
        assert_eq!(cut.cases.len(), 4);
        assert_eq!(
            cut.cases[0],
            ["kitchen-state-in", "object", "cut-pattern"].map(String::from)
        );
        assert_eq!(
            cut.does,
            "cuts a container's contents in a pattern (slices, cubes, ...)"
        );
        let text = compact(&catalogue);
        assert!(text.contains(
            "(cut ?cut-object ?ks-out ?ks-in object cut-pattern:cutting-pattern [cutting-tool] [cutting-surface]) ; cuts a container's contents in a pattern (slices, cubes, ...)\n"
        ), "{text}");
        assert_eq!(text.lines().count(), 1 + catalogue.len());
    }
}
