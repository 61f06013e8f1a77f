//! Kitchen entities as an agent reads them: in words (`a medium bowl holding 200 g butter at
//! 18 °C`) and as the dish tree's JSON (`report::dish_tree`), built from what the entities
//! hold, so the words say no more and no less than the simulator knows.

use super::words::clock;
use crate::base::number::Number;
use crate::base::number::plain_numbers;
use crate::report::dish_tree::{self, DishNode};
use crate::simulation::Model;
use crate::world::{Entity, Value};
use serde::Serialize;

/// Parts listed in words before the rest is counted: a pantry holds dozens of bowls.
const PARTS_IN_WORDS: usize = 40;

/// Parts of an object an action made listed in words, each in brief: a fridge an action
/// returns holds dozens of things (a look at the place lists them all).
const PARTS_SUMMARISED: usize = 8;

/// A value in words.
pub fn words(model: &Model, value: &Value) -> String {
    words_to(model, value, usize::MAX)
}

/// A value in few words, for a line of a plan: an object with what it holds, but not what
/// those hold or are mixed of (`a baking tray (used) holding 31 × 30 g homogeneous mixture at
/// 180 °C (baked)`).
pub fn brief(model: &Model, value: &Value) -> String {
    words_to(model, value, 1)
}

/// A value in words, what objects hold told `depth` levels down.
fn words_to(model: &Model, value: &Value, depth: usize) -> String {
    let k = &model.k;
    let Value::Obj(e) = value else {
        return dish_tree::summary(model, value);
    };
    let class = spaced(model.onto.class_name(e.class));
    if model.onto.is_a(e.class, k.failed_object) {
        "a failed object (the primitive could not do what it was asked)".into()
    } else if e.class == k.kitchen_state {
        format!("the kitchen at {}", clock(kitchen_time(model, e)))
    } else if e.val(k.is_concept).truthy() {
        format!("{class} (a concept)")
    } else if e.class == k.amount_class || e.class == k.quantity_class {
        unit_words(&dish_tree::summary(model, value))
    } else {
        let node = dish_tree::build(model, e);
        match node.parts.len() > PARTS_SUMMARISED && depth == usize::MAX {
            true => summary(model, &node),
            false => phrase(model, &node, depth),
        }
    }
}

/// An object that holds many things in brief: the first few of its parts, without what
/// those hold, and how many more there are.
fn summary(model: &Model, node: &DishNode) -> String {
    let shown = DishNode {
        parts: node.parts[..PARTS_SUMMARISED].to_vec(),
        ..node.clone()
    };
    format!(
        "{} and {} more ({} things in all)",
        phrase(model, &shown, 1),
        node.parts.len() - PARTS_SUMMARISED,
        node.parts.len()
    )
}

/// A value as JSON: the dish tree of an object, none for a kitchen state (its contents are
/// what [`kitchen`] shows) or a value that is no object.
pub fn tree(model: &Model, value: &Value) -> Option<DishNode> {
    match value {
        Value::Obj(e) if e.class != model.k.kitchen_state => Some(dish_tree::build(model, e)),
        _ => None,
    }
}

/// The kitchen time a kitchen state is at.
pub fn kitchen_time(model: &Model, kitchen: &Entity) -> Number {
    kitchen
        .val(model.k.kitchen_time)
        .as_num()
        .unwrap_or(Number::ZERO)
}

/// One place of the kitchen (fridge, pantry, counter-top ...) and what it holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    pub place: String,
    pub words: String,
    pub contents: Vec<DishNode>,
}

/// Every place of a kitchen state, in the kitchen's order.
pub fn kitchen(model: &Model, kitchen: &Entity) -> Vec<Place> {
    kitchen
        .val(model.k.contents)
        .items()
        .iter()
        .filter_map(Value::as_obj)
        .map(|place| self::place(model, place))
        .collect()
}

/// A place and what it holds, in words and as trees.
pub fn place(model: &Model, place: &Entity) -> Place {
    let node = dish_tree::build(model, place);
    let name = model.onto.class_name(place.class).to_string();
    let words = if node.parts.is_empty() {
        format!("{} is empty", spaced(&name))
    } else {
        format!(
            "{} holds {}",
            spaced(&name),
            parts(model, &node.parts, usize::MAX)
        )
    };
    Place {
        place: name,
        words,
        contents: node.parts,
    }
}

/// A tree in words: count or amount, class, properties, then what it holds, `depth` levels
/// down.
fn phrase(model: &Model, node: &DishNode, depth: usize) -> String {
    let class = spaced(&node.class);
    let mut s = match (&node.amount, node.count) {
        (Some(a), 1) => format!("{} {class}", unit_words(&format!("{} {}", a.value, a.unit))),
        (Some(a), n) => format!(
            "{n} × {} {class}",
            unit_words(&format!("{} {}", a.value, a.unit))
        ),
        (None, 1) => format!("{} {class}", article(&class)),
        (None, n) => format!("{n} × {class}"),
    };
    let mut flags = Vec::new();
    for p in &node.properties {
        match (&p.value, &p.entity) {
            (Some(v), _) if p.name == "temperature" => {
                s.push_str(&format!(" at {}", unit_words(v)))
            }
            (Some(v), _) => flags.push(format!("{} {}", spaced(&p.name), unit_words(v))),
            (None, Some(e)) => flags.push(format!(
                "{} {}",
                spaced(&p.name),
                phrase(model, e, depth.saturating_sub(1))
            )),
            (None, None) => flags.push(spaced(&p.name)),
        }
    }
    if !flags.is_empty() {
        s.push_str(&format!(" ({})", flags.join(", ")));
    }
    if !node.parts.is_empty() && depth > 0 {
        let mixture = model
            .onto
            .class_id(&node.class)
            .is_some_and(|c| model.onto.is_a(c, model.k.mixture));
        let verb = if mixture { "of" } else { "holding" };
        s.push_str(&format!(" {verb} {}", parts(model, &node.parts, depth - 1)));
    }
    s
}

fn parts(model: &Model, parts: &[DishNode], depth: usize) -> String {
    let mut shown: Vec<String> = parts
        .iter()
        .take(PARTS_IN_WORDS)
        .map(|p| phrase(model, p, depth))
        .collect();
    if parts.len() > PARTS_IN_WORDS {
        shown.push(format!("{} more", parts.len() - PARTS_IN_WORDS));
    }
    shown.join(", ")
}

/// Class and slot names as words: `medium-bowl` is `medium bowl`.
pub fn spaced(name: &str) -> String {
    name.replace('-', " ")
}

fn article(words: &str) -> &'static str {
    match words.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// Units and numbers as people write them: `18 degrees-celsius` is `18 °C`, `2276/5 g` is
/// `455.2 g`.
pub fn unit_words(amount: &str) -> String {
    unit_names(&plain_numbers(amount))
}

/// Units as people write them, the numbers as printed (for a reader with a rounding rule of
/// its own, such as the cook's guide).
pub fn unit_names(amount: &str) -> String {
    amount
        .replace(" degrees-celsius", " °C")
        .replace(" degrees-fahrenheit", " °F")
        .split(' ')
        .map(unit_word)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A unit's hyphens are spaces (`tea-spoon` reads `tea spoon`); a number's minus sign stays.
fn unit_word(word: &str) -> String {
    if word.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.') {
        word.to_string()
    } else {
        word.replace('-', " ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_articles_read_as_people_write_them() {
        assert_eq!(unit_words("18 degrees-celsius"), "18 °C");
        assert_eq!(unit_words("-5 degrees-celsius"), "-5 °C");
        assert_eq!(unit_names("-1/2 tea-spoon"), "-1/2 tea spoon");
        assert_eq!(article("egg"), "an");
    }
}
