//! The GBNF grammar of a network for llama.cpp's grammar-constrained decoding, made from the
//! primitive catalogue of the profile in use: each primitive with exactly its number of
//! arguments, variables where the primitive makes something or takes a kitchen state, so a
//! model held to it writes the 2023 `cut` with six arguments and the 2024 one with seven.
//! `grammar/solution.gbnf` and `grammar/solution-2023.gbnf` are its output for the built-in
//! catalogues (tests keep them so), for use with llama.cpp directly.

use crate::data::catalogue::{Catalogue, Role};

/// The grammar of a network's actions (without the `#recipe-id` header). The start rule is
/// one line, `root ::= …`, which [`with_root`] replaces.
pub fn grammar(catalogue: &Catalogue) -> String {
    let mut s = format!(
        "# GBNF grammar of a MUHAI Cooking Language network in profile {} (the actions of one\n\
         # recipe, without the `#recipe-id` header), for llama.cpp grammar-constrained decoding.\n\
         # Made from the primitive catalogue (kitchens/primitives.json) by cookingbot: each\n\
         # primitive with its arguments, `made` a variable the action makes or a kitchen state.\n\
         root      ::= \"(get-kitchen ?kitchen)\\n\" action+\n\
         action    ::= \"(\" form \")\\n\"\n\
         form      ::= ",
        catalogue.profile
    );
    let forms: Vec<String> = catalogue
        .iter()
        .filter(|p| p.name != "get-kitchen")
        .map(|p| {
            let args = p.args.iter().map(|a| match a.role {
                Role::Input | Role::Optional => " given",
                Role::Output | Role::KitchenStateOut | Role::KitchenStateIn => " made",
            });
            format!("{}{}", literal(&p.name), args.collect::<String>())
        })
        .collect();
    s.push_str(&forms.join(" |\n    "));
    s.push_str(
        "\nmade      ::= \" \" variable\n\
         given     ::= \" \" (variable | symbol | number)\n\
         variable  ::= \"?\" [a-z0-9] [a-z0-9-]*\n\
         symbol    ::= [a-z] [a-z0-9-]*\n\
         number    ::= [0-9]+ (\"/\" [1-9] [0-9]* | \".\" [0-9]+)?\n",
    );
    s
}

/// `grammar` with another start rule (`root ::= {root}`), for one answer that is not a
/// whole network.
pub fn with_root(grammar: &str, root: &str) -> String {
    grammar
        .lines()
        .map(|line| match line.starts_with("root ") {
            true => format!("root      ::= {root}\n"),
            false => format!("{line}\n"),
        })
        .collect()
}

/// A GBNF string literal.
fn literal(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}
