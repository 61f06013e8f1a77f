//! Extension files: a benchmark of one's own with a hostile `ontology.json` (up to 100,000
//! classes in chains, diamonds and cycles, duplicate keys, gram factors at and past the single
//! floats' range) and a hostile `kitchen.json` (the built-in kitchen with nested counts, deep
//! contents, duplicate keys, huge amounts), each sometimes cut short. Every input is loaded as
//! every command loads a benchmark's world: the extended ontology, then the model with its
//! kitchen; a world that loads then runs the demo's shortbread gold network. About half of the
//! inputs are valid, so that the loading and the run after it are fuzzed, not only the checks
//! that refuse a file early (with hostile files four times in five, 94% were refused).

use crate::{Input, Target, Verdict};
use cookingbot::base::profile::Profile;
use cookingbot::base::random::SplitMix64;
use cookingbot::language::ast::Recipe;
use cookingbot::simulation::benchmark_world::{DataText, World};
use std::fmt::Write;
use std::path::PathBuf;

/// Built-in classes a new class may name as its parent.
const PARENTS: [&str; 7] = [
    "ingredient",
    "feta-cheese",
    "butter",
    "medium-bowl",
    "container",
    "frying-pan",
    "kitchen-entity",
];

/// Gram factors a cook would write, and numbers at and past the single floats' range (or not
/// numbers at all).
const FACTORS: [&str; 3] = ["250", "0.5", "1e-3"];
const HOSTILE_NUMBERS: [&str; 10] = [
    "1e308", "1e-300", "3.4e38", "3.5e38", "1e-45", "-1", "0", "1e39", "\"250\"", "null",
];

/// How many classes an ontology declares, drawn from these, or one time in
/// [`PAST_THE_BOUND_ONE_IN`] from counts past the bound of 10,000 (refused).
const CLASS_COUNTS: [usize; 4] = [1, 10, 200, 2_000];
const CLASS_COUNTS_PAST_THE_BOUND: [usize; 2] = [20_000, 100_000];
const PAST_THE_BOUND_ONE_IN: usize = 8;

/// One input in this many has a flawed ontology, a hostile kitchen, a file cut short.
const FLAWED_ONE_IN: usize = 4;
const HOSTILE_KITCHEN_ONE_IN: usize = 4;
const CUT_SHORT_ONE_IN: usize = 40;

/// The network a world that loads runs.
const GOLD: &str = include_str!("../../gold/demo/shortbread-rounds.solution");

/// The one flaw an input's ontology has, if any: most inputs are valid, so that loading goes
/// all the way through the classes they declare.
#[derive(Clone, Copy, PartialEq)]
enum Flaw {
    None,
    UnknownParent,
    Cycle,
    RepeatedKey,
    Factor,
}

pub struct Extensions {
    profile: Profile,
    kitchen: String,
    gold: Recipe,
}

impl Extensions {
    pub fn new(profile: Profile) -> Extensions {
        let path = format!(
            "{}/kitchens/full-kitchen-{profile}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let parsed = cookingbot::language::parse::parse(GOLD);
        Extensions {
            profile,
            kitchen: std::fs::read_to_string(path).unwrap_or_default(),
            gold: parsed
                .file
                .recipes
                .into_iter()
                .next()
                .expect("the gold recipe"),
        }
    }
}

impl Target for Extensions {
    fn describe(&self) -> String {
        "ontology.json and kitchen.json (a flaw one time in four), loaded as a benchmark's world, which runs the shortbread gold".into()
    }

    fn input(&self, rng: &mut SplitMix64) -> Input {
        let flaw = match rng.below(FLAWED_ONE_IN) {
            0 => [
                Flaw::UnknownParent,
                Flaw::Cycle,
                Flaw::RepeatedKey,
                Flaw::Factor,
            ][rng.below(4)],
            _ => Flaw::None,
        };
        let mut ontology = ontology(flaw, rng);
        let mut kitchen = match rng.below(HOSTILE_KITCHEN_ONE_IN) {
            0 => kitchen(&self.kitchen, rng),
            _ => self.kitchen.clone(),
        };
        for text in [&mut ontology, &mut kitchen] {
            if rng.below(CUT_SHORT_ONE_IN) == 0 {
                let at = rng.below(text.len().max(1));
                text.truncate(text.floor_char_boundary(at));
            }
        }
        Input {
            files: vec![("ontology.json", ontology), ("kitchen.json", kitchen)],
        }
    }

    fn run(&self, _: u64, input: &Input) -> Verdict {
        let file = |i: usize| {
            let (name, text) = &input.files[i];
            Some(DataText {
                path: PathBuf::from(name),
                text: text.clone(),
            })
        };
        let world = World {
            ontology: file(0),
            kitchen: file(1),
        };
        let model = match world.model(self.profile) {
            Ok(model) => model,
            Err(_) => return Verdict::Refused { at_budget: false },
        };
        match model.execute(&self.gold) {
            Ok(_) => Verdict::Ran,
            Err(e) => Verdict::Refused {
                at_budget: e.budget.is_some(),
            },
        }
    }
}

fn pick<'a>(rng: &mut SplitMix64, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len())]
}

/// An ontology extension's text with at most one flaw, written by hand so that it can hold
/// what a JSON library would not write: repeated keys.
fn ontology(flaw: Flaw, rng: &mut SplitMix64) -> String {
    let n = match rng.below(PAST_THE_BOUND_ONE_IN) {
        0 => CLASS_COUNTS_PAST_THE_BOUND[rng.below(CLASS_COUNTS_PAST_THE_BOUND.len())],
        _ => CLASS_COUNTS[rng.below(CLASS_COUNTS.len())],
    };
    let flawed = rng.below(n);
    // Each class's first parent among the classes before it, to find a class's ancestors.
    let mut up: Vec<Option<usize>> = Vec::with_capacity(n);
    let mut text = String::from("{\"classes\": {");
    for i in 0..n {
        let (parent, first) = match rng.below(5) {
            _ if i == flawed && flaw == Flaw::UnknownParent => ("no-such-class".to_string(), None),
            _ if i == flawed && flaw == Flaw::Cycle => {
                (format!("fz-{}", i + rng.below(n - i)), None)
            }
            // Chains and diamonds over the classes before.
            0 | 1 if i > 0 => (format!("fz-{}", i - 1), Some(i - 1)),
            2 if i > 1 => diamond(rng.below(i), &up, rng),
            _ => (pick(rng, &PARENTS).to_string(), None),
        };
        up.push(first);
        let _ = write!(text, "{}\"fz-{i}\": {{\"is_a\": [\"{parent}\"]", sep(i));
        if i == flawed && flaw == Flaw::RepeatedKey {
            let _ = write!(text, ", \"is_a\": [\"{}\"]", pick(rng, &PARENTS));
        }
        if rng.below(10) == 0 {
            let _ = write!(text, ", \"new_slots\": {{\"fz-slot-{i}\": null}}");
        }
        if rng.below(20) == 0 {
            let _ = write!(
                text,
                ", \"diet\": [\"{}\"]",
                pick(rng, &["dairy", "meat", "egg"])
            );
        }
        text.push('}');
    }
    text.push_str("}, \"conversion_to_g\": {");
    for i in 0..1 + rng.below(n.min(1_000)) {
        let unit = pick(rng, &["piece", "g", "teaspoon"]);
        let factor = match flaw == Flaw::Factor && i == 0 {
            true => pick(rng, &HOSTILE_NUMBERS),
            false => pick(rng, &FACTORS),
        };
        let _ = write!(text, "{}\"fz-{i}\": {{\"{unit}\": {factor}}}", sep(i));
    }
    text.push_str("}}");
    text
}

/// The parents of a diamond over class `a`: `a` and one of its ancestors a few steps up (or
/// `a` alone when it has none). A class listed before its own ancestor always has an order of
/// its parents' classes (C3 keeps each parent's order); two classes taken at random often have
/// none, and half the files were refused for it.
fn diamond(a: usize, up: &[Option<usize>], rng: &mut SplitMix64) -> (String, Option<usize>) {
    let mut b = a;
    for _ in 0..1 + rng.below(5) {
        match up[b] {
            Some(above) => b = above,
            None => break,
        }
    }
    match b == a {
        true => (format!("fz-{a}"), Some(a)),
        false => (format!("fz-{a}\", \"fz-{b}"), Some(a)),
    }
}

fn sep(i: usize) -> &'static str {
    if i == 0 { "" } else { ", " }
}

/// The built-in kitchen with hostile items put on its counter-top.
fn kitchen(builtin: &str, rng: &mut SplitMix64) -> String {
    const PLACE: &str =
        "{\"class\": \"counter-top\", \"name\": {\"string\": \"CounterTop\"}, \"contents\": [";
    let items: Vec<String> = (0..1 + rng.below(4)).map(|_| item(rng)).collect();
    let put = format!("{PLACE}{}", items.join(", "));
    // A comma only before the place's own contents (a trailing one would be a flaw more).
    let rest = builtin.split_once(PLACE).map_or("", |(_, rest)| rest);
    let put = match rest.trim_start().starts_with(']') {
        true => put,
        false => put + ", ",
    };
    builtin.replacen(PLACE, &put, 1)
}

/// One hostile kitchen item.
fn item(rng: &mut SplitMix64) -> String {
    match rng.below(4) {
        // Counts nested up to five deep: their product, not each count, is what is made.
        0 => {
            let depth = 1 + rng.below(5);
            let mut inner = "{\"class\": \"butter\", \"count\": 10}".to_string();
            for _ in 0..depth {
                let count = pick(rng, &["2", "100", "1000", "100000", "-1", "1.5"]);
                inner = format!(
                    "{{\"class\": \"medium-bowl\", \"count\": {count}, \"contents\": [{inner}]}}"
                );
            }
            inner
        }
        // Contents nested hundreds deep.
        1 => {
            let depth = 1 + rng.below(2_000);
            let open = "{\"class\": \"medium-bowl\", \"contents\": [".repeat(depth);
            format!("{open}{}", "]}".repeat(depth))
        }
        // A key given twice.
        2 => format!(
            "{{\"class\": \"butter\", \"class\": \"{}\"}}",
            pick(rng, &["whisk", "butter", "fz-0"])
        ),
        _ => format!(
            "{{\"class\": \"butter\", \"amount\": {{\"class\": \"amount\", \"quantity\": {{\"class\": \"quantity\", \"value\": {}}}, \"unit\": \"g\"}}}}",
            pick(rng, &HOSTILE_NUMBERS)
        ),
    }
}
