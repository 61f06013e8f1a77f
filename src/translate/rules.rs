//! The rule-based translator: ingredient lines become `fetch-and-proportion` actions and
//! instruction verbs become primitives with default tools, threading the kitchen state and
//! the current mixture through the steps. Deterministic and offline; the benchmark's baseline.

use super::inventory::{Inventory, content_tokens};
use super::network::NetworkBuilder;
use super::quantity::{number, parse_line};
use super::recipe_text::RecipeText;
use super::{Translation, Translator, check_solution};
use crate::simulation::Model;
use num_rational::Rational64;

/// What an instruction verb asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Preheat,
    /// Put things together and work them with a primitive (`mix`, `beat`, `mingle`), or only
    /// put them together (`None`: add).
    Combine(Option<&'static str>),
    Sift,
    Bake,
    Cut(&'static str),
    Peel,
    Sprinkle,
    Refrigerate,
    Cool,
    Shape,
    Line,
    Grease,
    Melt,
    Boil,
    Drain,
    Cover,
    Wash,
    Mash,
    /// Move the current mixture or items (`transfer`, `pour`, `place`, `spread`).
    Transfer,
}

/// Verb words (prefixes of the lower-cased word) in the order they are tried.
const VERBS: [(&str, Verb); 38] = [
    ("preheat", Verb::Preheat),
    ("heat the oven", Verb::Preheat),
    ("mix", Verb::Combine(Some("mix"))),
    ("combin", Verb::Combine(Some("mix"))),
    ("stir", Verb::Combine(Some("mix"))),
    ("blend", Verb::Combine(Some("mix"))),
    ("whisk", Verb::Combine(Some("beat"))),
    ("beat", Verb::Combine(Some("beat"))),
    ("cream", Verb::Combine(Some("beat"))),
    ("toss", Verb::Combine(Some("mingle"))),
    ("fold", Verb::Combine(Some("mingle"))),
    ("add", Verb::Combine(None)),
    ("sift", Verb::Sift),
    ("bake", Verb::Bake),
    ("chop", Verb::Cut("chopped")),
    ("slice", Verb::Cut("slices")),
    ("dice", Verb::Cut("diced")),
    ("mince", Verb::Cut("minced")),
    ("cube", Verb::Cut("cubes")),
    ("halve", Verb::Cut("halved")),
    ("shred", Verb::Cut("shredded")),
    ("peel", Verb::Peel),
    ("sprinkle", Verb::Sprinkle),
    ("decorate", Verb::Sprinkle),
    ("refrigerat", Verb::Refrigerate),
    ("chill", Verb::Refrigerate),
    ("cool", Verb::Cool),
    ("shape", Verb::Shape),
    ("roll", Verb::Shape),
    ("line", Verb::Line),
    ("grease", Verb::Grease),
    ("melt", Verb::Melt),
    ("boil", Verb::Boil),
    ("drain", Verb::Drain),
    ("cover", Verb::Cover),
    ("wash", Verb::Wash),
    ("mash", Verb::Mash),
    ("transfer", Verb::Transfer),
];

/// Further words for moving things, kept apart so `place` does not shadow `preheat`.
const MOVES: [&str; 5] = ["pour", "place", "spread", "put", "spoon"];

/// Baking containers by the words that name them.
const BAKEWARE: [(&str, &str); 7] = [
    ("muffin", "muffin-tins"),
    ("cookie sheet", "cookie-sheet"),
    ("baking sheet", "baking-tray"),
    ("tray", "baking-tray"),
    ("dish", "baking-dish"),
    ("pan", "baking-tray"),
    ("sheet", "baking-tray"),
];

const DEFAULT_OVEN_CELSIUS: i64 = 180;
const DEFAULT_BAKE_MINUTES: i64 = 25;
const DEFAULT_PORTION_GRAMS: i64 = 25;

/// The rule-based translator over a model's kitchen.
pub struct RulesTranslator<'m> {
    model: &'m Model,
    inventory: Inventory,
}

impl<'m> RulesTranslator<'m> {
    pub fn new(model: &'m Model) -> RulesTranslator<'m> {
        RulesTranslator {
            model,
            inventory: Inventory::of(model),
        }
    }

    pub fn inventory(&self) -> &Inventory {
        &self.inventory
    }
}

impl Translator for RulesTranslator<'_> {
    fn name(&self) -> &str {
        "rules"
    }

    fn translate(
        &mut self,
        recipe: &RecipeText,
        _sample: usize,
    ) -> Result<Translation, super::TranslateError> {
        let mut w = Writer {
            b: NetworkBuilder::new(),
            items: Vec::new(),
            current: None,
            others: Vec::new(),
            oven: None,
            bakeware: None,
            notes: Vec::new(),
        };
        for line in &recipe.ingredients {
            w.fetch(&self.inventory, line);
        }
        for instruction in &recipe.instructions {
            for clause in clauses(instruction) {
                w.clause(&clause);
            }
        }
        // Actions the simulator aborts on (cutting pepper, boiling a bowl) are taken out.
        while let Some(crash) = check_solution(self.model, &w.b.solution(&recipe.id)).crash {
            match crash.predicate.filter(|&p| p > 0 && p < w.b.len()) {
                Some(p) => {
                    w.notes.push(format!(
                        "left out {}: the simulator aborts on it ({})",
                        w.b.action_text(p),
                        crash.message
                    ));
                    w.b.remove(p);
                }
                None => {
                    return Err(super::TranslateError::new(format!(
                        "the simulator aborts on the network: {}",
                        crash.message
                    )));
                }
            }
        }
        let unused: Vec<&str> = w
            .items
            .iter()
            .filter(|i| !i.used)
            .map(|i| i.class.as_str())
            .collect();
        if !unused.is_empty() {
            w.notes.push(format!(
                "ingredients no instruction uses: {}",
                unused.join(", ")
            ));
        }
        Ok(Translation {
            solution: w.b.solution(&recipe.id),
            notes: w.notes,
        })
    }
}

/// A fetched ingredient and the variable holding it now.
struct Item {
    var: String,
    class: String,
    /// Words an instruction may call it by.
    words: Vec<String>,
    used: bool,
    cut: bool,
}

/// Whether the current thing is a container or a list of portions.
#[derive(Clone, PartialEq)]
enum Current {
    Container(String),
    Portions(String),
}

impl Current {
    fn var(&self) -> &str {
        match self {
            Current::Container(v) | Current::Portions(v) => v,
        }
    }
}

struct Writer {
    b: NetworkBuilder,
    items: Vec<Item>,
    current: Option<Current>,
    /// Mixtures set aside when a new one was started, latest last.
    others: Vec<String>,
    /// The preheated oven.
    oven: Option<String>,
    /// Lined, greased or fetched bakeware waiting for the mixture.
    bakeware: Option<String>,
    notes: Vec<String>,
}

impl Writer {
    fn fetch(&mut self, inventory: &Inventory, line: &str) {
        let parsed = parse_line(line);
        let Some(stock) = inventory.find(&parsed.name) else {
            self.notes
                .push(format!("no kitchen ingredient matches `{line}`; left out"));
            return;
        };
        if self.items.iter().any(|i| i.class == stock.class) {
            self.notes.push(format!(
                "`{line}`: {} is fetched already; left out",
                stock.class
            ));
            return;
        }
        let m = stock.measure(parsed.quantity, parsed.unit);
        let target = self.b.fresh("target-container");
        let out = self.b.act(
            "fetch-and-proportion",
            &[&format!("proportioned-{}", stock.class)],
            &[
                target,
                stock.class.clone(),
                m.quantity.to_string(),
                m.unit.to_string(),
            ],
        );
        let mut words = content_tokens(&parsed.name);
        words.extend(stock.class.split('-').map(str::to_string));
        let mut item = Item {
            var: out[0].clone(),
            class: stock.class.clone(),
            words,
            used: false,
            cut: false,
        };
        if let Some((_, Verb::Cut(pattern))) = verbs(&parsed.line).first() {
            item.var = self.cut(&item.var, pattern);
            item.cut = true;
        }
        self.items.push(item);
    }

    fn clause(&mut self, clause: &str) {
        let words = content_tokens(clause);
        let mut mentioned: Vec<usize> = (0..self.items.len())
            .filter(|&i| {
                self.items[i]
                    .words
                    .iter()
                    .any(|w| words.iter().any(|c| c == w))
            })
            .collect();
        // Each verb reads its amounts from its own words on (`bake 12 minutes, cool 10`).
        for (at, verb) in verbs(clause) {
            self.verb(verb, &clause[at..], &mut mentioned);
        }
    }

    fn verb(&mut self, verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        match verb {
            Verb::Preheat => {
                let t = temperature(clause).unwrap_or(DEFAULT_OVEN_CELSIUS);
                let oven = self.b.fresh("oven");
                let out = self.b.act(
                    "preheat-oven",
                    &["preheated-oven"],
                    &[oven, t.to_string(), "degrees-celsius".into()],
                );
                self.oven = Some(out[0].clone());
            }
            Verb::Combine(op) => {
                self.gather(clause, mentioned, op.is_some());
                if let (Some(op), Some(Current::Container(c))) = (op, self.current.clone()) {
                    let tool = self.b.fresh(&format!("{op}-tool"));
                    let done = match op {
                        "beat" => "beaten",
                        "mingle" => "mingled",
                        _ => "mixed",
                    };
                    let out = self.b.act(op, &[done], &[c, tool]);
                    self.current = Some(Current::Container(out[0].clone()));
                }
            }
            Verb::Sift => {
                self.gather(clause, mentioned, true);
                if let Some(Current::Container(c)) = self.current.clone() {
                    let target = self.b.fresh("sift-target");
                    let tool = self.b.fresh("sifting-tool");
                    let out = self.b.act("sift", &["sifted"], &[target, c, tool]);
                    self.current = Some(Current::Container(out[0].clone()));
                }
            }
            Verb::Bake => {
                let Some(thing) = self.onto_bakeware(clause) else {
                    return;
                };
                let minutes = duration(clause)
                    .unwrap_or((Rational64::from_integer(DEFAULT_BAKE_MINUTES), "minute"));
                let (q, u) = (minutes.0.to_string(), minutes.1.to_string());
                let inputs = match self.oven.clone() {
                    Some(oven) => {
                        let (tq, tu) = (self.b.fresh("bake-temp"), self.b.fresh("bake-temp-unit"));
                        vec![thing, oven, q, u, tq, tu]
                    }
                    None => {
                        let oven = self.b.fresh("oven");
                        let t = temperature(clause).unwrap_or(DEFAULT_OVEN_CELSIUS);
                        vec![thing, oven, q, u, t.to_string(), "degrees-celsius".into()]
                    }
                };
                let out = self.b.act("bake", &["baked"], &inputs);
                self.current = Some(Current::Container(out[0].clone()));
            }
            Verb::Cut(pattern) => {
                let targets = self.take(mentioned, false);
                if targets.is_empty()
                    && let Some(Current::Container(c)) = self.current.clone()
                {
                    let out = self.cut(&c, pattern);
                    self.current = Some(Current::Container(out));
                }
                for i in targets {
                    if !self.items[i].cut {
                        self.items[i].var = self.cut(&self.items[i].var.clone(), pattern);
                        self.items[i].cut = true;
                    }
                }
            }
            Verb::Peel => {
                for i in self.take(mentioned, false) {
                    let tool = self.b.fresh("peeler");
                    let var = self.items[i].var.clone();
                    let out = self.b.act("peel", &["peeled", "peel"], &[var, tool]);
                    self.items[i].var = out[0].clone();
                }
            }
            Verb::Sprinkle => {
                let toppings = self.take(mentioned, true);
                for i in toppings {
                    let Some(cur) = self.current.clone() else {
                        return;
                    };
                    let topping = self.items[i].var.clone();
                    self.items[i].used = true;
                    let out = self.b.act(
                        "sprinkle",
                        &["sprinkled"],
                        &[cur.var().to_string(), topping],
                    );
                    self.current = Some(Current::Container(out[0].clone()));
                }
            }
            Verb::Refrigerate => {
                let Some(Current::Container(c)) = self.current.clone() else {
                    return;
                };
                let mut inputs = vec![c];
                if let Some((q, u)) = duration(clause) {
                    inputs.extend([self.b.fresh("fridge"), q.to_string(), u.to_string()]);
                } else {
                    inputs.extend(
                        ["fridge", "cooling-time", "cooling-unit"].map(|v| self.b.fresh(v)),
                    );
                }
                let out = self.b.act("refrigerate", &["chilled"], &inputs);
                self.current = Some(Current::Container(out[0].clone()));
            }
            Verb::Cool => {
                let Some(Current::Container(c)) = self.current.clone() else {
                    return;
                };
                let out = match duration(clause) {
                    Some((q, u)) => self.b.act(
                        "leave-for-time",
                        &["cooled"],
                        &[c, q.to_string(), u.to_string()],
                    ),
                    None => {
                        let (q, u) = (self.b.fresh("room-temp"), self.b.fresh("room-temp-unit"));
                        self.b.act("bring-to-temperature", &["cooled"], &[c, q, u])
                    }
                };
                self.current = Some(Current::Container(out[0].clone()));
            }
            Verb::Shape => {
                let Some(Current::Container(c)) = self.current.clone() else {
                    return;
                };
                let grams = grams_per_portion(clause).unwrap_or(DEFAULT_PORTION_GRAMS);
                let (pattern, dest) =
                    (self.b.fresh("pattern"), self.b.fresh("portion-destination"));
                let portions = self.b.act(
                    "portion-and-arrange",
                    &["portions"],
                    &[c, grams.to_string(), "g".into(), pattern, dest],
                );
                let shape = if clause.contains("crescent") {
                    "crescent-shape"
                } else if clause.contains("flat") || clause.contains("press") {
                    "flattened-ball-shape"
                } else {
                    "ball-shape"
                };
                let out = self
                    .b
                    .act("shape", &["shaped"], &[portions[0].clone(), shape.into()]);
                self.current = Some(Current::Portions(out[0].clone()));
            }
            Verb::Line | Verb::Grease => {
                let ware = self.fetch_bakeware(clause);
                let out = if verb == Verb::Line {
                    let paper = self.b.fresh("baking-paper");
                    self.b.act("line", &["lined"], &[ware, paper])
                } else {
                    let grease = match self.take(mentioned, true).first() {
                        Some(&i) => {
                            self.items[i].used = true;
                            self.items[i].var.clone()
                        }
                        None => self.b.fresh("grease-with"),
                    };
                    self.b.act("grease", &["greased"], &[ware, grease])
                };
                self.bakeware = Some(out[0].clone());
            }
            Verb::Melt | Verb::Boil | Verb::Drain | Verb::Wash | Verb::Mash => {
                let (op, tools): (&str, &[&str]) = match verb {
                    Verb::Melt => ("melt", &["melting-tool"]),
                    Verb::Boil => ("boil", &["stove", "heating-mode", "boil-time", "boil-unit"]),
                    Verb::Drain => ("drain", &["colander"]),
                    Verb::Wash => ("wash", &[]),
                    _ => ("mash", &["masher"]),
                };
                let outputs: &[&str] = if op == "drain" {
                    &["drained", "drained-liquid"]
                } else {
                    &[op]
                };
                let targets = self.take(mentioned, false);
                let run = |w: &mut Writer, var: String| {
                    let mut inputs = vec![var];
                    inputs.extend(tools.iter().map(|t| w.b.fresh(t)));
                    w.b.act(op, outputs, &inputs)[0].clone()
                };
                if targets.is_empty()
                    && let Some(Current::Container(c)) = self.current.clone()
                {
                    let out = run(self, c);
                    self.current = Some(Current::Container(out));
                }
                for i in targets {
                    let var = self.items[i].var.clone();
                    self.items[i].var = run(self, var);
                }
            }
            Verb::Cover => {
                let Some(Current::Container(c)) = self.current.clone() else {
                    return;
                };
                let cover = self.b.fresh("cover");
                let out = self.b.act("cover", &["covered"], &[c, cover]);
                self.current = Some(Current::Container(out[0].clone()));
            }
            Verb::Transfer => {
                if !mentioned.iter().all(|&i| self.items[i].used) {
                    self.gather(clause, mentioned, false);
                } else if let Some(Current::Container(c)) = self.current.clone()
                    && let Some(into) = self.others.pop()
                {
                    let out = self.transfer(into, c);
                    self.current = Some(Current::Container(out));
                }
                if BAKEWARE.iter().any(|(w, _)| clause.contains(w)) {
                    self.onto_bakeware(clause);
                }
            }
        }
    }

    /// The mentioned ingredients not yet in a mixture (all of them, when `all` and none is
    /// mentioned and no mixture exists yet), marked as used by the caller's wish.
    fn take(&mut self, mentioned: &mut Vec<usize>, unused_only: bool) -> Vec<usize> {
        let picked: Vec<usize> = mentioned
            .iter()
            .copied()
            .filter(|&i| !unused_only || !self.items[i].used)
            .collect();
        mentioned.retain(|i| !picked.contains(i));
        picked
    }

    /// Put the mentioned unused ingredients into the current mixture, or start a new one
    /// (setting the current one aside) when the clause does not speak of the mixture.
    fn gather(&mut self, clause: &str, mentioned: &mut Vec<usize>, fallback_all: bool) {
        let mut add: Vec<usize> = self
            .take(mentioned, true)
            .into_iter()
            .filter(|&i| !self.items[i].used)
            .collect();
        if add.is_empty() && fallback_all && self.current.is_none() {
            add = (0..self.items.len())
                .filter(|&i| !self.items[i].used)
                .collect();
        }
        let refers_to_mixture = ["mixture", "batter", "dough", "it", "bowl"]
            .iter()
            .any(|w| clause.split(|c: char| !c.is_alphabetic()).any(|x| x == *w));
        let starts_new = !add.is_empty()
            && !refers_to_mixture
            && matches!(self.current, Some(Current::Container(_)))
            && clause.contains("combine");
        if starts_new && let Some(Current::Container(c)) = self.current.take() {
            self.others.push(c);
        }
        let mut into = match &self.current {
            Some(Current::Container(c)) => Some(c.clone()),
            _ => None,
        };
        for i in add {
            self.items[i].used = true;
            let item = self.items[i].var.clone();
            let target = into.clone().unwrap_or_else(|| self.b.fresh("bowl"));
            into = Some(self.transfer(target, item));
        }
        if let Some(c) = into {
            self.current = Some(Current::Container(c));
        }
    }

    /// `transfer-contents` of everything in `from` into `into`; the filled container.
    fn transfer(&mut self, into: String, from: String) -> String {
        let (q, u) = (self.b.fresh("quantity"), self.b.fresh("unit"));
        self.b.act(
            "transfer-contents",
            &["mixture", "rest"],
            &[into, from, q, u],
        )[0]
        .clone()
    }

    fn cut(&mut self, var: &str, pattern: &str) -> String {
        let (knife, board) = (self.b.fresh("knife"), self.b.fresh("cutting-board"));
        self.b.act(
            "cut",
            &["cut"],
            &[var.to_string(), pattern.to_string(), knife, board],
        )[0]
        .clone()
    }

    fn fetch_bakeware(&mut self, clause: &str) -> String {
        let class = BAKEWARE
            .iter()
            .find(|(w, _)| clause.contains(w))
            .map_or("baking-tray", |(_, c)| c);
        self.b
            .act("fetch", &[class], &[class.to_string(), "1".into()])[0]
            .clone()
    }

    /// Move the current mixture or portions onto the bakeware (fetched if none is ready);
    /// the container to bake.
    fn onto_bakeware(&mut self, clause: &str) -> Option<String> {
        let cur = self.current.clone()?;
        let ware = match self.bakeware.take() {
            Some(w) => w,
            None if matches!(cur, Current::Portions(_)) || !self.on_bakeware() => {
                self.fetch_bakeware(clause)
            }
            None => return Some(cur.var().to_string()),
        };
        let out = match cur {
            Current::Container(c) => self.transfer(ware, c),
            Current::Portions(p) => {
                let pattern =
                    arrangement(clause).map_or_else(|| self.b.fresh("pattern"), str::to_string);
                self.b
                    .act("transfer-items", &["on-tray"], &[p, pattern, ware])[0]
                    .clone()
            }
        };
        self.current = Some(Current::Container(out.clone()));
        Some(out)
    }

    /// Whether the current container came out of a transfer onto bakeware or the oven.
    fn on_bakeware(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|c| c.var().starts_with("?on-tray") || c.var().starts_with("?baked"))
    }
}

/// An instruction split at sentence ends, semicolons and `then`.
fn clauses(instruction: &str) -> Vec<String> {
    let lower = instruction
        .to_lowercase()
        .replace(", then", ";")
        .replace(" then ", ";");
    lower
        .split(['.', ';', '!'])
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

/// The verbs of a clause, in text order, each at most once.
fn verbs(clause: &str) -> Vec<(usize, Verb)> {
    let words: Vec<(usize, &str)> = clause
        .match_indices(|c: char| c.is_alphabetic())
        .filter(|(i, _)| *i == 0 || !clause[..*i].ends_with(|c: char| c.is_alphabetic()))
        .map(|(i, _)| (i, &clause[i..]))
        .collect();
    let mut found: Vec<(usize, Verb)> = Vec::new();
    for (i, rest) in words {
        let word = rest
            .split(|c: char| !c.is_alphabetic())
            .next()
            .unwrap_or("");
        let verb = VERBS
            .iter()
            .find(|(v, _)| {
                if v.contains(' ') {
                    rest.starts_with(v)
                } else {
                    word.starts_with(v) && !is_noun_use(word, rest)
                }
            })
            .map(|(_, v)| *v)
            .or_else(|| MOVES.contains(&word).then_some(Verb::Transfer));
        if let Some(v) = verb
            && !found.iter().any(|(_, f)| *f == v)
        {
            found.push((i, v));
        }
    }
    found
}

/// Words that start like a verb but name a thing here (`cream cheese`, `cooling rack`).
fn is_noun_use(word: &str, rest: &str) -> bool {
    rest.starts_with("cream cheese")
        || rest.starts_with("heavy cream")
        || word.starts_with("cooling")
        || word == "cooled"
        || word == "mixture"
        || word == "mixer"
        || word == "address"
        || word == "lines"
        || word == "rolls"
}

/// `180 C`, `350°F`, `350 degrees F` → degrees Celsius (rounded).
fn temperature(clause: &str) -> Option<i64> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        let Ok(value) = digits.parse::<i64>() else {
            continue;
        };
        let tail: String = w[digits.len()..]
            .chars()
            .chain(words.get(i + 1).copied().unwrap_or("").chars())
            .chain(" ".chars())
            .chain(words.get(i + 2).copied().unwrap_or("").chars())
            .collect::<String>()
            .replace("degrees", "")
            .replace('°', "");
        let tail = tail.trim_start();
        if tail.starts_with('f') {
            return Some(((value - 32) * 5 + 4) / 9);
        }
        if tail.starts_with('c') && value >= 50 {
            return Some(value);
        }
    }
    None
}

/// `10 to 15 minutes`, `2 hours`, `1 1/2 hours` → the first amount and its time unit.
fn duration(clause: &str) -> Option<(Rational64, &'static str)> {
    let words: Vec<&str> = clause
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .collect();
    let mut last_number = None;
    for w in words {
        if let Some(n) = number(w) {
            last_number.get_or_insert(n);
            continue;
        }
        let unit = if w.starts_with("min") {
            Some("minute")
        } else if w.starts_with("hour") || w == "hr" || w == "hrs" {
            Some("hour")
        } else {
            None
        };
        match (unit, last_number) {
            (Some(u), Some(n)) => return Some((n, u)),
            (None, Some(_)) if !matches!(w, "to" | "or" | "and") => last_number = None,
            _ => {}
        }
    }
    None
}

/// `30 grams of the dough` → 30.
fn grams_per_portion(clause: &str) -> Option<i64> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let unit = w[1].trim_end_matches(',');
        (unit == "g" || unit.starts_with("gram"))
            .then(|| w[0].parse::<i64>().ok())
            .flatten()
    })
}

fn arrangement(clause: &str) -> Option<&'static str> {
    if clause.contains("5 cm apart") {
        Some("5-cm-apart")
    } else if clause.contains("2 inches apart") || clause.contains("two inches apart") {
        Some("two-inch-apart")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_temperatures() {
        assert_eq!(temperature("preheat the oven to 180 c"), Some(180));
        assert_eq!(temperature("preheat oven to 350°f"), Some(177));
        assert_eq!(temperature("preheat oven to 350 degrees f"), Some(177));
        assert_eq!(temperature("bake for 10 minutes"), None);
        let m = |n| Some((Rational64::from_integer(n), "minute"));
        assert_eq!(duration("bake in the oven for 10 to 15 minutes"), m(10));
        assert_eq!(duration("bake 25 min"), m(25));
        assert_eq!(
            duration("refrigerate 2 hours before serving"),
            Some((Rational64::from_integer(2), "hour"))
        );
        assert_eq!(duration("use 2 bowls for 5 people"), None);
    }

    #[test]
    fn verbs_in_text_order() {
        let v: Vec<Verb> = verbs("cover and refrigerate 2 hours")
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        assert_eq!(v, [Verb::Cover, Verb::Refrigerate]);
        let v: Vec<Verb> = verbs("beat the cream cheese until smooth")
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        assert_eq!(v, [Verb::Combine(Some("beat"))]);
        let v: Vec<Verb> = verbs("heat the oven to 170 c")
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        assert_eq!(v, [Verb::Preheat]);
    }
}
