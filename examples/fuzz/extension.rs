//! Extension files: a benchmark of one's own with a hostile `ontology.json` (up to 100,000
//! classes in chains, diamonds and cycles, duplicate keys, gram factors at and past the single
//! floats' range) and a hostile `kitchen.json` (the built-in kitchen with nested counts, deep
//! contents, duplicate keys, huge amounts), each sometimes cut short. Every input is loaded as
//! every command loads a benchmark's world: the extended ontology, then the model with its
//! kitchen.

use crate::{Input, Target, Verdict};
use cookingbot::base::profile::Profile;
use cookingbot::base::random::SplitMix64;
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

/// How many classes an ontology declares, drawn from these.
const CLASS_COUNTS: [usize; 6] = [1, 10, 200, 2_000, 20_000, 100_000];

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
}

impl Extensions {
    pub fn new(profile: Profile) -> Extensions {
        let path = format!(
            "{}/kitchens/full-kitchen-{profile}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        Extensions {
            profile,
            kitchen: std::fs::read_to_string(path).unwrap_or_default(),
        }
    }
}

impl Target for Extensions {
    fn describe(&self) -> String {
        "hostile ontology.json and kitchen.json, loaded as a benchmark's world".into()
    }

    fn input(&self, rng: &mut SplitMix64) -> Input {
        let flaw = match rng.below(8) {
            0 => Flaw::UnknownParent,
            1 => Flaw::Cycle,
            2 => Flaw::RepeatedKey,
            3 => Flaw::Factor,
            _ => Flaw::None,
        };
        let mut ontology = ontology(flaw, rng);
        let mut kitchen = match rng.below(2) {
            0 => self.kitchen.clone(),
            _ => kitchen(&self.kitchen, rng),
        };
        for text in [&mut ontology, &mut kitchen] {
            if rng.below(20) == 0 {
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
        match world.model(self.profile) {
            Ok(_) => Verdict::Ran,
            Err(_) => Verdict::Refused { at_budget: false },
        }
    }
}

fn pick<'a>(rng: &mut SplitMix64, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len())]
}

/// An ontology extension's text with at most one flaw, written by hand so that it can hold
/// what a JSON library would not write: repeated keys.
fn ontology(flaw: Flaw, rng: &mut SplitMix64) -> String {
    let n = CLASS_COUNTS[rng.below(CLASS_COUNTS.len())];
    let flawed = rng.below(n);
    let mut text = String::from("{\"classes\": {");
    for i in 0..n {
        let parent = match rng.below(5) {
            _ if i == flawed && flaw == Flaw::UnknownParent => "no-such-class".to_string(),
            _ if i == flawed && flaw == Flaw::Cycle => format!("fz-{}", i + rng.below(n - i)),
            // Chains and diamonds over the classes before.
            0 | 1 if i > 0 => format!("fz-{}", i - 1),
            2 if i > 1 => format!("fz-{}\", \"fz-{}", rng.below(i), rng.below(i)),
            _ => pick(rng, &PARENTS).to_string(),
        };
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

fn sep(i: usize) -> &'static str {
    if i == 0 { "" } else { ", " }
}

/// The built-in kitchen with hostile items put on its counter-top.
fn kitchen(builtin: &str, rng: &mut SplitMix64) -> String {
    const PLACE: &str =
        "{\"class\": \"counter-top\", \"name\": {\"string\": \"CounterTop\"}, \"contents\": [";
    let items: Vec<String> = (0..1 + rng.below(4)).map(|_| item(rng)).collect();
    let put = format!("{PLACE}{}", items.join(", "));
    let put = if items.is_empty() { put } else { put + ", " };
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
