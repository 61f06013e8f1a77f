//! A kitchen entity as a tree for people: a container, what it holds, mixtures with their
//! components, each with its amount and the properties that differ from its class's defaults.
//!
//! Used by `simulate` for the final dish and for value summaries; serialisable so that the JSON
//! report (and later the HTML report and GUI) show the same tree.

use crate::base::number::plain_numbers;
use crate::simulation::Model;
use crate::world::ontology::{Init, Ontology};
use crate::world::{Entity, Value};
use serde::Serialize;
use std::fmt::Write;

/// One entity of the tree. Equal neighbouring parts are merged into one node with a `count`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DishNode {
    pub class: String,
    /// How many equal entities this node stands for (portions on a tray).
    pub count: usize,
    pub amount: Option<Amount>,
    /// Slots whose value differs from the class default, in slot order.
    pub properties: Vec<Property>,
    /// Contents of a container, items of a list, components of a mixture.
    pub parts: Vec<DishNode>,
}

/// An amount as the Lisp printer shows it (`230 g`, `23/35 g`, `90.0 minute`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Amount {
    pub value: String,
    pub unit: String,
}

/// A non-default slot: a flag (`mixed`) has neither `value` nor `entity`; an ingredient-valued
/// slot (`sprinkled-with`) has `entity`; anything else a printed `value`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Property {
    pub name: String,
    pub value: Option<String>,
    pub entity: Option<Box<DishNode>>,
}

/// Slots shown as the node's amount or parts rather than as properties.
fn structural(m: &Model, slot: u16) -> bool {
    let k = &m.k;
    [k.amount, k.contents, k.items, k.components, k.is_concept].contains(&slot)
}

/// The tree of an entity. A failed object (the reference's "custom NIL") is a bare node.
pub fn build(m: &Model, e: &Entity) -> DishNode {
    let k = &m.k;
    let onto = &m.onto;
    if onto.is_a(e.class, k.failed_object) {
        return DishNode {
            class: onto.class_name(e.class).to_string(),
            count: 1,
            amount: None,
            properties: Vec::new(),
            parts: Vec::new(),
        };
    }
    let class = onto.class(e.class);
    let mut properties = Vec::new();
    for (i, (slot, v)) in e.slots().enumerate() {
        if structural(m, slot)
            || class
                .defaults
                .get(i)
                .is_some_and(|d| is_default(onto, v, d))
        {
            continue;
        }
        let name = onto.slot_name(slot).to_string();
        let property = match v {
            Value::T => Property {
                name,
                value: None,
                entity: None,
            },
            Value::Obj(o) if onto.is_a(o.class, k.ingredient) => Property {
                name,
                value: None,
                entity: Some(Box::new(build(m, o))),
            },
            other => Property {
                name,
                value: Some(summary(m, other)),
                entity: None,
            },
        };
        properties.push(property);
    }
    let parts = [k.contents, k.items, k.components]
        .into_iter()
        .filter_map(|s| e.get(s))
        .flat_map(|v| v.items().iter().filter_map(Value::as_obj))
        .map(|p| build(m, p));
    DishNode {
        class: onto.class_name(e.class).to_string(),
        count: 1,
        amount: amount(m, e),
        properties,
        parts: merge_equal_neighbours(parts),
    }
}

/// The parts with each run of equal neighbours one node, merged as they come: a counter-top
/// of a million equal portions is one node, never a million held at once (a session's look at
/// such a counter-top once asked for 128 MB the memory budget did not count, and aborted).
fn merge_equal_neighbours(parts: impl Iterator<Item = DishNode>) -> Vec<DishNode> {
    let mut out: Vec<DishNode> = Vec::new();
    for p in parts {
        match out.last_mut() {
            Some(last) if same_but_count(last, &p) => last.count += p.count,
            _ => out.push(p),
        }
    }
    out
}

fn same_but_count(a: &DishNode, b: &DishNode) -> bool {
    a.class == b.class && a.amount == b.amount && a.properties == b.properties && a.parts == b.parts
}

fn amount(m: &Model, e: &Entity) -> Option<Amount> {
    let k = &m.k;
    let a = e.get(k.amount)?.as_obj()?;
    let value = a.val(k.quantity).as_obj()?.val(k.value).as_num()?;
    let unit = a
        .val(k.unit)
        .as_obj()
        .map(|u| m.onto.class_name(u.class).to_string())
        .unwrap_or_default();
    Some(Amount {
        value: value.to_string(),
        unit,
    })
}

/// Whether a value is what the initial value `init` makes (up to persistent ids).
fn is_default(onto: &Ontology, v: &Value, init: &Init) -> bool {
    match (v, init) {
        (Value::Nil, Init::Nil) | (Value::T, Init::T) => true,
        (Value::Num(a), Init::Num(b)) => a == b,
        (Value::Str(a), Init::Str(b)) => **a == **b,
        (Value::List(items), Init::List(inits)) => {
            items.len() == inits.len()
                && items.iter().zip(inits).all(|(v, i)| is_default(onto, v, i))
        }
        (Value::Obj(e), Init::Instance(class, set)) => {
            let c = onto.class(*class);
            e.class == *class
                && c.slots.iter().zip(&c.defaults).all(|(slot, default)| {
                    let init = set
                        .iter()
                        .find(|(s, _)| s == slot)
                        .map_or(&**default, |(_, i)| i);
                    is_default(onto, e.val(*slot), init)
                })
        }
        _ => false,
    }
}

/// A one-line description of a value: `butter 230 g`, `medium-bowl containing butter 230 g`,
/// `kitchen-state at 120`, `crescent-shape (concept)`, `18 degrees-celsius` (an amount).
pub fn summary(m: &Model, v: &Value) -> String {
    let k = &m.k;
    match v {
        Value::Nil => "NIL".into(),
        Value::T => "T".into(),
        Value::Num(n) => n.to_string(),
        Value::Sym(s) => s.to_string(),
        Value::Str(s) => format!("{s:?}"),
        Value::List(items) => {
            let inner: Vec<String> = items.iter().map(|i| summary(m, i)).collect();
            format!("({})", inner.join(" "))
        }
        Value::Obj(e) => {
            let class = m.onto.class_name(e.class);
            if m.onto.is_a(e.class, k.failed_object) {
                return format!("{class} (the action failed)");
            }
            if e.class == k.kitchen_state {
                return format!("{class} at {}", summary(m, e.val(k.kitchen_time)));
            }
            if e.class == k.amount_class {
                let unit = e
                    .val(k.unit)
                    .as_obj()
                    .map_or("", |u| m.onto.class_name(u.class));
                let value = e
                    .val(k.quantity)
                    .as_obj()
                    .map_or(&Value::Nil, |q| q.val(k.value));
                return format!("{} {unit}", summary(m, value));
            }
            if e.class == k.quantity_class {
                return format!("{class} {}", summary(m, e.val(k.value)));
            }
            if e.val(k.is_concept).truthy() {
                return format!("{class} (concept)");
            }
            let node = build(m, e);
            let mut s = headline(&node);
            if !node.parts.is_empty() {
                let parts: Vec<String> = node.parts.iter().map(headline).collect();
                let verb = if m.onto.is_a(e.class, k.mixture) {
                    "of"
                } else {
                    "containing"
                };
                let _ = write!(s, " {verb} {}", parts.join(", "));
            }
            s
        }
    }
}

/// `3 × butter 230 g`: count, class and amount.
fn headline(node: &DishNode) -> String {
    let mut s = String::new();
    if node.count > 1 {
        let _ = write!(s, "{} × ", node.count);
    }
    s.push_str(&node.class);
    if let Some(a) = &node.amount {
        // For people: the amount as a cook reads it, a share as a percent.
        let _ = write!(s, " {}", plain_numbers(&format!("{} {}", a.value, a.unit)));
    }
    s
}

/// The tree as indented text, two spaces per level; properties follow the headline in
/// brackets, ingredient-valued properties become `name:` lines among the parts.
pub fn render(node: &DishNode, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    let _ = write!(out, "{pad}{}", headline(node));
    let flags: Vec<String> = node
        .properties
        .iter()
        .filter(|p| p.entity.is_none())
        .map(|p| match &p.value {
            Some(v) => format!("{} {v}", p.name),
            None => p.name.clone(),
        })
        .collect();
    if !flags.is_empty() {
        let _ = write!(out, " [{}]", flags.join(", "));
    }
    out.push('\n');
    for p in &node.properties {
        if let Some(e) = &p.entity {
            let _ = writeln!(out, "{pad}  {}:", p.name);
            render(e, indent + 2, out);
        }
    }
    for part in &node.parts {
        render(part, indent + 1, out);
    }
}
