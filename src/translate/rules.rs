//! The rule-based translator: ingredient lines become `fetch-and-proportion` actions and
//! instruction verbs become primitives with default tools, threading the kitchen state and
//! the current mixture through the steps. Deterministic and offline; the benchmark's baseline.

use super::forms::Form;
use super::inventory::{Inventory, content_tokens};
use super::llm::retrieve::render_recipe;
use super::network::NetworkBuilder;
use super::quantity::{number, parse_line};
use super::recipe_text::RecipeText;
use super::{Provenance, Translation, Translator, check_solution};
use crate::data::manifest::sha256_hex;
use crate::simulation::Model;
use num_rational::Rational64;

/// What an instruction verb asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Preheat,
    /// Put things together and work them with a primitive (`mix`, `beat`, `mingle`), or only
    /// put them together (`None`: add).
    Combine(Option<Form>),
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
    /// Bring to room temperature (`softened`, `soften`).
    Soften,
    Grind,
    Fry,
    /// Coat the current portions or mixture with an ingredient (`dip`, `roll in`, `coat`).
    Dip,
    /// Words that ask for no action the simulator models (`serve`, `set aside`, `enjoy`).
    Nothing,
    /// Move the current mixture or items (`transfer`, `pour`, `place`, `spread`).
    Transfer,
}

/// Verb words (prefixes of the lower-cased word) in the order they are tried.
const VERBS: &[(&str, Verb)] = &[
    ("preheat", Verb::Preheat),
    ("heat the oven", Verb::Preheat),
    ("heat oven", Verb::Preheat),
    ("mix", Verb::Combine(Some(Form::Mix))),
    ("combin", Verb::Combine(Some(Form::Mix))),
    ("stir", Verb::Combine(Some(Form::Mix))),
    ("blend", Verb::Combine(Some(Form::Mix))),
    ("work", Verb::Combine(Some(Form::Mix))),
    ("whisk", Verb::Combine(Some(Form::Beat))),
    ("beat", Verb::Combine(Some(Form::Beat))),
    ("cream", Verb::Combine(Some(Form::Beat))),
    ("toss", Verb::Combine(Some(Form::Mingle))),
    ("fold", Verb::Combine(Some(Form::Mingle))),
    ("add", Verb::Combine(None)),
    ("season", Verb::Combine(None)),
    // Eggs are cracked as they are fetched; cracking them "into" something adds them.
    ("crack", Verb::Combine(None)),
    ("sift", Verb::Sift),
    ("bake", Verb::Bake),
    ("roast", Verb::Bake),
    ("chop", Verb::Cut("chopped")),
    ("slice", Verb::Cut("slices")),
    ("dice", Verb::Cut("diced")),
    ("mince", Verb::Cut("minced")),
    ("cube", Verb::Cut("cubes")),
    ("halve", Verb::Cut("halved")),
    ("shred", Verb::Cut("shredded")),
    ("grate", Verb::Cut("shredded")),
    ("peel", Verb::Peel),
    ("sprinkle", Verb::Sprinkle),
    ("decorate", Verb::Sprinkle),
    ("dust", Verb::Sprinkle),
    ("garnish", Verb::Sprinkle),
    ("scatter", Verb::Sprinkle),
    ("refrigerat", Verb::Refrigerate),
    ("chill", Verb::Refrigerate),
    ("cool", Verb::Cool),
    ("stand", Verb::Cool),
    ("leave", Verb::Cool),
    ("shape", Verb::Shape),
    ("form", Verb::Shape),
    ("drop", Verb::Shape),
    ("roll", Verb::Shape),
    ("flatten", Verb::Shape),
    ("press", Verb::Shape),
    ("line", Verb::Line),
    ("grease", Verb::Grease),
    ("melt", Verb::Melt),
    ("boil", Verb::Boil),
    ("drain", Verb::Drain),
    ("cover", Verb::Cover),
    ("wash", Verb::Wash),
    ("rinse", Verb::Wash),
    ("mash", Verb::Mash),
    ("soften", Verb::Soften),
    ("grind", Verb::Grind),
    ("fry", Verb::Fry),
    // Sauté, pan-fry and brown are frying in the simulator's kitchen.
    ("saut", Verb::Fry),
    ("dip", Verb::Dip),
    ("coat", Verb::Dip),
    ("serve", Verb::Nothing),
    ("set aside", Verb::Nothing),
    ("enjoy", Verb::Nothing),
    ("gather", Verb::Nothing),
    ("transfer", Verb::Transfer),
    ("arrange", Verb::Transfer),
];

/// What a verb writes into the network, given the verb (for the primitive or pattern its
/// word carries), the clause from its word on, and the ingredients the clause mentions (the
/// rule takes those it uses).
type Rule = fn(&mut Writer, Verb, &str, &mut Vec<usize>);

/// Each kind of verb and its rule; a verb's words and payload do not matter here. `Nothing`
/// has no rule: it writes nothing.
const RULES: &[(Verb, Rule)] = &[
    (Verb::Preheat, Writer::preheat),
    (Verb::Combine(None), Writer::combine),
    (Verb::Sift, Writer::sift),
    (Verb::Bake, Writer::bake),
    (Verb::Cut(""), Writer::cut_items),
    (Verb::Sprinkle, Writer::top_with),
    (Verb::Dip, Writer::top_with),
    (Verb::Refrigerate, Writer::refrigerate),
    (Verb::Cool, Writer::cool),
    (Verb::Shape, Writer::shape),
    (Verb::Line, Writer::prepare_bakeware),
    (Verb::Grease, Writer::prepare_bakeware),
    (Verb::Peel, Writer::work_items),
    (Verb::Melt, Writer::work_items),
    (Verb::Boil, Writer::work_items),
    (Verb::Drain, Writer::work_items),
    (Verb::Wash, Writer::work_items),
    (Verb::Mash, Writer::work_items),
    (Verb::Soften, Writer::work_items),
    (Verb::Grind, Writer::work_items),
    (Verb::Fry, Writer::work_items),
    (Verb::Cover, Writer::cover),
    (Verb::Transfer, Writer::move_mixture),
];

/// Preparation words of an ingredient line (`butter, softened`, `2 eggs, beaten`) and what
/// they ask for before the ingredient is used; cutting words are the verbs' own.
const PREPARED: [(&str, Verb); 11] = [
    ("softened", Verb::Soften),
    ("room temperature", Verb::Soften),
    ("melted", Verb::Melt),
    ("beaten", Verb::Combine(Some(Form::Beat))),
    ("sifted", Verb::Sift),
    ("rinsed", Verb::Wash),
    ("washed", Verb::Wash),
    ("drained", Verb::Drain),
    ("peeled", Verb::Peel),
    ("mashed", Verb::Mash),
    (", ground", Verb::Grind),
];

/// Words that begin a clause continuing the previous one's verb (`…, and then the molasses`).
const CONTINUATIONS: [&str; 12] = [
    "and",
    "then",
    "the",
    "a",
    "an",
    "some",
    "remaining",
    "in",
    "into",
    "with",
    "plus",
    "also",
];

/// Further words for moving things, kept apart so `place` does not shadow `preheat`.
const MOVES: [&str; 7] = ["pour", "place", "spread", "put", "spoon", "drizzle", "fill"];

/// Baking containers by the words that name them.
const BAKEWARE: [(&str, &str); 7] = [
    ("muffin", "muffin-tins"),
    ("cookie sheet", "cookie-sheet"),
    ("baking sheet", "baking-tray"),
    ("tray", "baking-tray"),
    ("dish", "baking-dish"),
    ("pan", "pan"),
    ("sheet", "baking-tray"),
];

const DEFAULT_OVEN_CELSIUS: i64 = 180;
const DEFAULT_BAKE_MINUTES: i64 = 25;
const DEFAULT_PORTION_GRAMS: i64 = 25;

/// The rule-based translator over a model's kitchen.
pub struct RulesTranslator<'m> {
    model: &'m Model,
    inventory: Inventory,
    /// Whether actions the simulator aborts on are taken out (see [`RulesTranslator::text_only`]).
    simulated: bool,
}

impl<'m> RulesTranslator<'m> {
    pub fn new(model: &'m Model) -> RulesTranslator<'m> {
        RulesTranslator {
            model,
            inventory: Inventory::of(model),
            simulated: true,
        }
    }

    /// The rules alone, without the pass that runs the network in the simulator and takes out
    /// the actions it aborts on: the network one reading of the text gives, which an agent
    /// acting with feedback (`agent::repair`) starts from.
    pub fn text_only(model: &'m Model) -> RulesTranslator<'m> {
        RulesTranslator {
            simulated: false,
            ..RulesTranslator::new(model)
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

    /// The rules read only the recipe (and the program's own version, which the stored sample
    /// records), so the digest is of the recipe as the translators render it.
    fn provenance(&self, recipe: &RecipeText, _sample: usize) -> Provenance {
        Provenance {
            model: None,
            input: "the recipe text as rendered for the translators",
            input_sha256: sha256_hex(render_recipe(recipe).as_bytes()),
        }
    }

    fn translate(
        &mut self,
        recipe: &RecipeText,
        _sample: usize,
    ) -> Result<Translation, super::TranslateError> {
        let mut w = Writer {
            b: NetworkBuilder::new(self.model.profile),
            items: Vec::new(),
            current: None,
            others: Vec::new(),
            oven: None,
            bakeware: None,
            last: Verb::Combine(None),
            last_item: None,
            new_bowl: false,
            unmixed: false,
            notes: Vec::new(),
            untranslated: 0,
        };
        for (n, line) in recipe.ingredients.iter().enumerate() {
            w.fetch(
                &self.inventory,
                line,
                recipe.ingredient_lines.get(n).copied(),
            );
        }
        for (n, instruction) in recipe.instructions.iter().enumerate() {
            for clause in clauses(instruction) {
                w.clause(
                    &self.inventory,
                    &clause,
                    recipe.instruction_lines.get(n).copied(),
                );
            }
        }
        // Actions the simulator aborts on (cutting pepper, boiling a bowl) are taken out.
        while let Some(crash) = self
            .simulated
            .then(|| check_solution(self.model, &w.b.solution(&recipe.id)).crash)
            .flatten()
        {
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
            untranslated: Some(w.untranslated),
        })
    }
}

/// `line 12: ` before a note about a located piece of text.
fn located(line: Option<usize>, note: String) -> String {
    match line {
        Some(l) => format!("line {l}: {note}"),
        None => note,
    }
}

/// A fetched ingredient and the variable holding it now.
struct Item {
    var: String,
    class: String,
    /// Words an instruction may call it by.
    words: Vec<String>,
    /// The words of its own line's name (`pepper` for `1/4 teaspoon pepper`).
    name_words: Vec<String>,
    used: bool,
    cut: bool,
    /// Set apart for the end (`additional sugar`, `sugar for decoration`): not part of
    /// "all the ingredients".
    reserved: bool,
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

    /// The same kind of thing, now held by `var`.
    fn with(&self, var: String) -> Current {
        match self {
            Current::Container(_) => Current::Container(var),
            Current::Portions(_) => Current::Portions(var),
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
    /// The latest verb, which a clause without one continues.
    last: Verb,
    /// The ingredient worked on last, which `it` or `them` names.
    last_item: Option<usize>,
    /// The clause asks for a new bowl (`in a separate bowl, beat the eggs`).
    new_bowl: bool,
    /// Things were added to the current mixture since it was last mixed.
    unmixed: bool,
    notes: Vec<String>,
    /// Clauses left out for want of a verb the rules know (each is a note).
    untranslated: usize,
}

/// Words of an ingredient line that keep it for the end of the recipe.
const RESERVING: [&str; 9] = [
    "additional",
    "for decoration",
    "for decorating",
    "for dusting",
    "for rolling",
    "for garnish",
    "for topping",
    "for serving",
    "to serve",
];

impl Writer {
    fn fetch(&mut self, inventory: &Inventory, line: &str, at: Option<usize>) {
        let parsed = parse_line(line);
        let Some(stock) = inventory.find(&parsed.name) else {
            self.notes.push(located(
                at,
                format!("no kitchen ingredient matches `{line}`; left out"),
            ));
            return;
        };
        let m = stock.measure(parsed.quantity, parsed.unit);
        let out = self.b.act(
            Form::FetchAndProportion,
            &[&format!("proportioned-{}", stock.class)],
            &[
                stock.class.clone(),
                m.quantity.to_string(),
                m.unit.to_string(),
            ],
        );
        let name_words = content_tokens(&parsed.name);
        let mut words = name_words.clone();
        words.extend(
            stock
                .class
                .split('-')
                .filter(|w| *w != "all")
                .map(str::to_string),
        );
        words.extend(kinds(&stock.class).map(str::to_string));
        let mut var = out[0].clone();
        if stock.class == "egg" {
            var = self.b.act(Form::Crack, &["cracked-egg"], &[var])[0].clone();
        }
        let mut cut = false;
        // What the line says was done to the ingredient, in the line's order.
        let mut prepared: Vec<(usize, Verb)> = PREPARED
            .iter()
            .filter_map(|(w, v)| parsed.line.find(w).map(|at| (at, *v)))
            .collect();
        // A participle of the kitchen's own name describes the ingredient (`shredded coconut`).
        let named = |at: usize| {
            let word = parsed.line[at..].split(|c: char| !c.is_alphabetic()).next();
            word.is_some_and(|w| stock.class.split('-').any(|t| t == w))
        };
        prepared.extend(
            verbs(&parsed.line)
                .into_iter()
                .filter(|&(at, v)| matches!(v, Verb::Cut(_)) && !named(at)),
        );
        prepared.sort_by_key(|(at, _)| *at);
        for (_, verb) in prepared {
            if let Verb::Cut(pattern) = verb {
                if !cut {
                    var = self.cut(&var, pattern);
                    cut = true;
                }
            } else {
                var = self.apply(verb, var, "");
            }
        }
        self.items.push(Item {
            var,
            class: stock.class.clone(),
            words,
            name_words,
            used: false,
            cut,
            reserved: RESERVING.iter().any(|w| parsed.line.contains(w)),
        });
    }

    fn clause(&mut self, inventory: &Inventory, clause: &str, at: Option<usize>) {
        let mut mentioned = self.mentions(inventory, clause);
        self.new_bowl = (clause.contains("in a ") && clause.contains("bowl"))
            || clause.contains("another")
            || clause.contains("separate");
        let pronoun = clause
            .split(|c: char| !c.is_alphabetic())
            .any(|w| w == "it" || w == "them");
        let named_by_pronoun = self
            .last_item
            .filter(|&i| pronoun && mentioned.is_empty() && !self.items[i].used);
        mentioned.extend(named_by_pronoun);
        // A participle inside a clause describes (`the sliced onion`, `a lined sheet`).
        let found: Vec<(usize, Verb)> = verbs(clause)
            .into_iter()
            .filter(|&(at, _)| {
                let word = clause[at..].split(|c: char| !c.is_alphabetic()).next();
                at == 0 || !word.is_some_and(|w| w.ends_with("ed"))
            })
            .collect();
        if found.is_empty() && clause.contains(char::is_alphabetic) {
            let first = clause
                .split(|c: char| !c.is_alphanumeric())
                .find(|w| !w.is_empty())
                .unwrap_or("");
            if !mentioned.is_empty() && CONTINUATIONS.contains(&first) {
                let last = self.last;
                self.verb(last, clause, &mut mentioned);
            } else {
                self.untranslated += 1;
                self.notes.push(located(
                    at,
                    format!("not understood, left out: `{clause}` (no verb the rules know; `{first}` is not one)"),
                ));
            }
            return;
        }
        // Each verb reads its amounts from its own words on (`bake 12 minutes, cool 10`).
        for (at, verb) in found {
            // Once portions are made, `them` names the portions (`roll into balls and place
            // them on the sheet`), not the ingredient worked last.
            if let (Some(Current::Portions(_)), Some(i)) = (&self.current, named_by_pronoun) {
                mentioned.retain(|&m| m != i);
            }
            self.verb(verb, &clause[at..], &mut mentioned);
            self.last = verb;
        }
    }

    /// The ingredients a clause speaks of. "All (the) ingredients" are the unused ones not
    /// kept for the end. Otherwise each ingredient claims a run of consecutive clause words
    /// that are its words, best claims first (unused, naming its head noun, longer, more of
    /// its own name), so `the flour and almond flour` names two flours and `salt and pepper`
    /// the pepper rather than the chili pepper; a run is claimed once.
    fn mentions(&self, inventory: &Inventory, clause: &str) -> Vec<usize> {
        let all = [
            "all ingredients",
            "all the ingredients",
            "all of the ingredients",
            "remaining ingredients",
            "rest of the ingredients",
            "everything",
        ];
        if all.iter().any(|w| clause.contains(w)) {
            return (0..self.items.len())
                .filter(|&i| !self.items[i].used && !self.items[i].reserved)
                .collect();
        }
        let words = content_tokens(clause);
        // Per item, its longest run of clause words: (start, end) and how it ranks.
        let mut claims: Vec<(ClaimRank, usize, (usize, usize))> = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            let mut best: Option<(usize, usize)> = None;
            let mut start = 0;
            while start < words.len() {
                // A run follows the order of the item's words (`almond flour`, not `flour
                // almond`).
                let place = |k: usize| item.words.iter().position(|w| *w == words[k]);
                let end = (start..words.len())
                    .find(
                        |&k| match (place(k), k.checked_sub(1).filter(|&p| p >= start)) {
                            (None, _) => true,
                            (Some(here), Some(prev)) => place(prev).is_none_or(|p| here <= p),
                            (Some(_), None) => false,
                        },
                    )
                    .unwrap_or(words.len());
                if end > start && best.is_none_or(|(s, e)| end - start > e - s) {
                    best = Some((start, end));
                }
                start = end.max(start + 1);
            }
            let Some((s, e)) = best else { continue };
            let run = &words[s..e];
            let head = item.name_words.last().is_some_and(|h| run.contains(h));
            let own = item.name_words.iter().filter(|w| run.contains(w)).count();
            // The kitchen's own reading of the words (`flour` is all-purpose flour).
            let kitchen = inventory
                .find(&run.join(" "))
                .is_some_and(|s| s.class == item.class);
            let rank = (
                !item.used,
                kitchen,
                head,
                e - s,
                own * 1000 / item.name_words.len().max(1),
            );
            claims.push((rank, i, (s, e)));
        }
        claims.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut taken = vec![false; words.len()];
        let mut mentioned = Vec::new();
        for (_, i, (s, e)) in claims {
            if taken[s..e].iter().all(|t| !t) {
                taken[s..e].iter_mut().for_each(|t| *t = true);
                mentioned.push(i);
            }
        }
        mentioned.sort_unstable();
        mentioned
    }

    /// Write what `verb` asks for, by its rule in [`RULES`].
    fn verb(&mut self, verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        let kind = std::mem::discriminant(&verb);
        if let Some((_, rule)) = RULES
            .iter()
            .find(|(v, _)| std::mem::discriminant(v) == kind)
        {
            rule(self, verb, clause, mentioned);
        }
    }

    /// `preheat 350°F`: a preheated oven, which later bakes use.
    fn preheat(&mut self, _verb: Verb, clause: &str, _mentioned: &mut Vec<usize>) {
        let t = temperature(clause).unwrap_or(DEFAULT_OVEN_CELSIUS);
        let out = self.b.act(
            Form::PreheatOven,
            &["preheated-oven"],
            &[t.to_string(), "degrees-celsius".into()],
        );
        self.oven = Some(out[0].clone());
    }

    /// `mix`, `beat`, `add`: the mentioned ingredients into the current mixture (or a mixture set
    /// aside back into it), then worked with the verb's primitive, if it has one.
    fn combine(&mut self, verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        let Verb::Combine(op) = verb else {
            return;
        };
        if !self.gather(clause, mentioned, op.is_some()) {
            self.join_set_aside(clause);
        }
        if let (Some(op), Some(Current::Container(c))) = (op, self.current.clone()) {
            let done = match op {
                Form::Beat => "beaten",
                Form::Mingle => "mingled",
                _ => "mixed",
            };
            let out = self.b.act(op, &[done], &[c]);
            self.current = Some(Current::Container(out[0].clone()));
            self.unmixed = false;
        }
    }

    /// `sift`: the mentioned ingredients (or all, to start) gathered, and the mixture sifted.
    fn sift(&mut self, verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        self.gather(clause, mentioned, true);
        if let Some(Current::Container(c)) = self.current.clone() {
            let out = self.apply(verb, c, clause);
            self.current = Some(Current::Container(out));
        }
    }

    /// `bake`: the current mixture or portions onto bakeware, into the preheated oven (or one
    /// heated to the clause's temperature) for the clause's time.
    fn bake(&mut self, _verb: Verb, clause: &str, _mentioned: &mut Vec<usize>) {
        let Some(thing) = self.onto_bakeware(clause) else {
            return;
        };
        let minutes =
            duration(clause).unwrap_or((Rational64::from_integer(DEFAULT_BAKE_MINUTES), "minute"));
        let (q, u) = (minutes.0.to_string(), minutes.1.to_string());
        let out = match self.oven.clone() {
            Some(oven) => self
                .b
                .act(Form::BakeInOven, &["baked"], &[thing, oven, q, u]),
            None => {
                let t = temperature(clause).unwrap_or(DEFAULT_OVEN_CELSIUS);
                let at = [thing, q, u, t.to_string(), "degrees-celsius".into()];
                self.b.act(Form::BakeAt, &["baked"], &at)
            }
        };
        self.current = Some(Current::Container(out[0].clone()));
    }

    /// `chop`, `slice`, `dice`: the mentioned ingredients cut once each, or else the mixture.
    fn cut_items(&mut self, verb: Verb, _clause: &str, mentioned: &mut Vec<usize>) {
        let Verb::Cut(pattern) = verb else {
            return;
        };
        let targets = self.take(mentioned, false);
        if targets.is_empty()
            && let Some(Current::Container(c)) = self.current.clone()
        {
            let out = self.cut(&c, pattern);
            self.current = Some(Current::Container(out));
        }
        for i in targets {
            self.last_item = Some(i);
            if !self.items[i].cut {
                self.items[i].var = self.cut(&self.items[i].var.clone(), pattern);
                self.items[i].cut = true;
            }
        }
    }

    /// `sprinkle` or `dip`: the current mixture or portions with each mentioned ingredient not
    /// yet used; a dip keeps portions portions, a sprinkle leaves a container.
    fn top_with(&mut self, verb: Verb, _clause: &str, mentioned: &mut Vec<usize>) {
        let toppings = self.take(mentioned, true);
        for i in toppings {
            let Some(cur) = self.current.clone() else {
                return;
            };
            let topping = self.items[i].var.clone();
            self.items[i].used = true;
            let out = if verb == Verb::Dip {
                let out = self
                    .b
                    .act(Form::Dip, &["dipped"], &[cur.var().to_string(), topping]);
                cur.with(out[0].clone())
            } else {
                let out = self.b.act(
                    Form::Sprinkle,
                    &["sprinkled"],
                    &[cur.var().to_string(), topping],
                );
                Current::Container(out[0].clone())
            };
            self.current = Some(out);
        }
    }

    /// `refrigerate`, `chill`: the current mixture (portions on bakeware) in the fridge, for
    /// the clause's time if it gives one.
    fn refrigerate(&mut self, _verb: Verb, clause: &str, _mentioned: &mut Vec<usize>) {
        // Portions are chilled on the bakeware made ready for them (or a tray).
        if let Some(Current::Portions(_)) = self.current {
            self.onto_bakeware(clause);
        }
        let Some(Current::Container(c)) = self.current.clone() else {
            return;
        };
        let out = match duration(clause) {
            Some((q, u)) => {
                let timed = [c, q.to_string(), u.to_string()];
                self.b.act(Form::RefrigerateFor, &["chilled"], &timed)
            }
            None => self.b.act(Form::Refrigerate, &["chilled"], &[c]),
        };
        self.current = Some(Current::Container(out[0].clone()));
    }

    /// `cool`, `let stand`: the current mixture on a wire rack when the clause says so, left for
    /// the clause's time or brought to room temperature.
    fn cool(&mut self, _verb: Verb, clause: &str, _mentioned: &mut Vec<usize>) {
        let Some(Current::Container(mut c)) = self.current.clone() else {
            return;
        };
        if clause.contains("rack") {
            let rack = self.b.act(
                Form::Fetch,
                &["wire-rack"],
                &["wire-rack".into(), "1".into()],
            );
            c = self
                .b
                .act(Form::TransferItems, &["on-rack"], &[c, rack[0].clone()])[0]
                .clone();
        }
        let out = match duration(clause) {
            Some((q, u)) => self.b.act(
                Form::LeaveForTime,
                &["cooled"],
                &[c, q.to_string(), u.to_string()],
            ),
            None => self.b.act(Form::BringToTemperature, &["cooled"], &[c]),
        };
        self.current = Some(Current::Container(out[0].clone()));
    }

    /// `shape`, `form`, `roll`, `flatten`: the mixed dough portioned and shaped (balls,
    /// crescents, flat), or what lies on bakeware shaped there; `roll in` an ingredient is a
    /// dip.
    fn shape(&mut self, _verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        if clause.starts_with("roll") && clause.contains(" in ") && !mentioned.is_empty() {
            return self.top_with(Verb::Dip, clause, mentioned);
        }
        let shape = if clause.contains("crescent") {
            "crescent-shape"
        } else if clause.contains("flat") || clause.contains("press") {
            "flattened-ball-shape"
        } else {
            "ball-shape"
        };
        // What already lies on bakeware is shaped where it lies (`press each ball flat`).
        if self.on_bakeware()
            && let Some(Current::Container(c)) = self.current.clone()
        {
            let out = self.b.act(Form::Shape, &["on-tray"], &[c, shape.into()]);
            self.current = Some(Current::Container(out[0].clone()));
            return;
        }
        // Only a mixed dough comes apart in portions of itself.
        if self.unmixed {
            self.combine(Verb::Combine(Some(Form::Mix)), "", &mut Vec::new());
        }
        let portions = match self.current.clone() {
            Some(Current::Container(c)) => {
                let grams = grams_per_portion(clause).unwrap_or(DEFAULT_PORTION_GRAMS);
                self.b.act(
                    Form::PortionAndArrange,
                    &["portions"],
                    &[c, grams.to_string(), "g".into()],
                )
            }
            // Portions shaped once more (`roll into balls, then shape crescents`).
            Some(Current::Portions(p)) => vec![p],
            None => return,
        };
        let out = self.b.act(
            Form::Shape,
            &["shaped"],
            &[portions[0].clone(), shape.into()],
        );
        self.current = Some(Current::Portions(out[0].clone()));
    }

    /// `line` or `grease`: bakeware fetched and lined with paper or greased with a mentioned
    /// fat, waiting for the mixture.
    fn prepare_bakeware(&mut self, verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        let ware = self.fetch_bakeware(clause);
        let out = if verb == Verb::Line {
            self.b.act(Form::Line, &["lined"], &[ware])
        } else {
            mentioned.retain(|&i| is_fat(&self.items[i].class));
            match self.take(mentioned, true).first() {
                Some(&i) => {
                    self.items[i].used = true;
                    let fat = self.items[i].var.clone();
                    self.b.act(Form::GreaseWith, &["greased"], &[ware, fat])
                }
                None => self.b.act(Form::Grease, &["greased"], &[ware]),
            }
        };
        self.bakeware = Some(out[0].clone());
    }

    /// `melt`, `boil`, `peel`, `fry`…: each mentioned ingredient worked with the verb's
    /// primitive, or else the current mixture (never peeled).
    fn work_items(&mut self, verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        let targets = self.take(mentioned, false);
        if targets.is_empty()
            && verb != Verb::Peel
            && let Some(Current::Container(c)) = self.current.clone()
        {
            let out = self.apply(verb, c, clause);
            self.current = Some(Current::Container(out));
        }
        for &i in &targets {
            self.last_item = Some(i);
            let var = self.items[i].var.clone();
            self.items[i].var = self.apply(verb, var, clause);
        }
        // `Mash the avocados in a bowl`: what was worked goes into the bowl.
        if clause.contains("bowl") {
            self.gather(clause, &mut targets.clone(), false);
        }
    }

    /// `cover`: the current mixture covered.
    fn cover(&mut self, _verb: Verb, _clause: &str, _mentioned: &mut Vec<usize>) {
        let Some(Current::Container(c)) = self.current.clone() else {
            return;
        };
        let out = self.b.act(Form::Cover, &["covered"], &[c]);
        self.current = Some(Current::Container(out[0].clone()));
    }

    /// `transfer`, `pour`, `place`: mentioned ingredients not yet used into the mixture, or the
    /// mixture into one set aside; onto bakeware when the clause names it.
    fn move_mixture(&mut self, _verb: Verb, clause: &str, mentioned: &mut Vec<usize>) {
        if !mentioned.iter().all(|&i| self.items[i].used) {
            if !self.gather(clause, mentioned, false) {
                self.join_set_aside(clause);
            }
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

    /// A primitive that works one thing with default tools (melt, boil, peel…), applied to
    /// `var`; the variable holding the result. Durations are read from `clause`.
    fn apply(&mut self, verb: Verb, var: String, clause: &str) -> String {
        let (form, outputs, values): (Form, &[&str], Vec<String>) = match verb {
            Verb::Melt => (Form::Melt, &["melted"], vec![var]),
            // Boiling happens in a pot on the stove: a bowl is not boiled in.
            Verb::Boil => {
                let in_pot = self.move_into_fetched("cooking-pot", "in-pot", var);
                match duration(clause) {
                    Some((q, u)) => (
                        Form::BoilFor,
                        &["boiled"],
                        vec![in_pot, q.to_string(), u.to_string()],
                    ),
                    None => (Form::Boil, &["boiled"], vec![in_pot]),
                }
            }
            // Frying happens in a pan on the stove, for the simulator's own time (no case of
            // `fry` takes one).
            Verb::Fry => {
                let in_pan = self.move_into_fetched("frying-pan", "in-pan", var);
                (Form::Fry, &["fried"], vec![in_pan])
            }
            Verb::Drain => (Form::Drain, &["drained", "drained-liquid"], vec![var]),
            Verb::Wash => (Form::Wash, &["washed"], vec![var]),
            Verb::Mash => (Form::Mash, &["mashed"], vec![var]),
            Verb::Peel => (Form::Peel, &["peeled", "peel"], vec![var]),
            Verb::Grind => (Form::Grind, &["ground"], vec![var]),
            Verb::Soften => (Form::BringToTemperature, &["softened"], vec![var]),
            Verb::Sift => (Form::Sift, &["sifted"], vec![var]),
            Verb::Combine(Some(op)) => (op, &["beaten"], vec![var]),
            _ => return var,
        };
        self.b.act(form, outputs, &values)[0].clone()
    }

    /// Everything in `var` moved into a fetched `class` (a pot to boil in, a pan to fry in);
    /// the filled vessel, held by a variable named `output`.
    fn move_into_fetched(&mut self, class: &str, output: &str, var: String) -> String {
        let vessel = self
            .b
            .act(Form::Fetch, &[class], &[class.into(), "1".into()]);
        self.b.act(
            Form::TransferContentsInto,
            &[output, "rest"],
            &[vessel[0].clone(), var],
        )[0]
        .clone()
    }

    /// A clause that brings back a mixture set aside (`toss with the dressing`, `stir the
    /// dry ingredients into the butter mixture`) joins it with the current one: the current
    /// one goes into it when the clause says `into`, else it goes into the current one.
    fn join_set_aside(&mut self, clause: &str) {
        let speaks_of_other = [
            "dressing",
            "mixture",
            "dry ingredients",
            "wet ingredients",
            "sauce",
            "together",
        ]
        .iter()
        .any(|w| clause.contains(w));
        if !speaks_of_other {
            return;
        }
        let Some(Current::Container(c)) = self.current.clone() else {
            return;
        };
        let Some(other) = self.others.pop() else {
            return;
        };
        let out = if clause.contains("into") {
            self.transfer(other, c)
        } else {
            self.transfer(c, other)
        };
        self.current = Some(Current::Container(out));
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
    /// (setting the current one aside) when the clause names a new bowl or combines things
    /// without speaking of the mixture. Whether a new one was started.
    fn gather(&mut self, clause: &str, mentioned: &mut Vec<usize>, fallback_all: bool) -> bool {
        let mut add: Vec<usize> = self
            .take(mentioned, true)
            .into_iter()
            .filter(|&i| !self.items[i].used)
            .collect();
        if add.is_empty() && fallback_all && self.current.is_none() {
            add = (0..self.items.len())
                .filter(|&i| !self.items[i].used && !self.items[i].reserved)
                .collect();
        }
        let refers_to_mixture = ["mixture", "batter", "dough", "it", "bowl"]
            .iter()
            .any(|w| clause.split(|c: char| !c.is_alphabetic()).any(|x| x == *w));
        let starts_new = !add.is_empty()
            && matches!(self.current, Some(Current::Container(_)))
            && (self.new_bowl || (clause.contains("combine") && !refers_to_mixture));
        self.new_bowl &= !starts_new;
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
            into = Some(match into {
                Some(target) => self.transfer(target, item),
                // A new container, the kitchen's default.
                None => self
                    .b
                    .act(Form::TransferContents, &["mixture", "rest"], &[item])[0]
                    .clone(),
            });
            self.unmixed = true;
        }
        if let Some(c) = into {
            self.current = Some(Current::Container(c));
        }
        starts_new
    }

    /// `transfer-contents` of everything in `from` into `into`; the filled container.
    fn transfer(&mut self, into: String, from: String) -> String {
        self.b.act(
            Form::TransferContentsInto,
            &["mixture", "rest"],
            &[into, from],
        )[0]
        .clone()
    }

    fn cut(&mut self, var: &str, pattern: &str) -> String {
        let values = [var.to_string(), pattern.to_string()];
        self.b.act(Form::Cut, &["cut"], &values)[0].clone()
    }

    /// Fetch the bakeware the clause names, lined when it says so (`a parchment-lined sheet`).
    fn fetch_bakeware(&mut self, clause: &str) -> String {
        let class = BAKEWARE
            .iter()
            .find(|(w, _)| clause.contains(w))
            .map_or("baking-tray", |(_, c)| c);
        let ware = self
            .b
            .act(Form::Fetch, &[class], &[class.to_string(), "1".into()])[0]
            .clone();
        if clause.contains("lined") || clause.contains("parchment") {
            return self.b.act(Form::Line, &["lined"], &[ware])[0].clone();
        }
        ware
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
            Current::Container(c) => {
                self.b
                    .act(Form::TransferContentsInto, &["on-tray", "rest"], &[ware, c])[0]
                    .clone()
            }
            Current::Portions(p) => {
                let (form, values) = match arrangement(clause) {
                    Some(pattern) => (Form::TransferItemsArranged, vec![p, pattern.into(), ware]),
                    None => (Form::TransferItems, vec![p, ware]),
                };
                self.b.act(form, &["on-tray"], &values)[0].clone()
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

/// How well an ingredient's run of words names it, best greatest: unused, the kitchen reads
/// the words as its class, the run holds its head noun, the run's length, and the share of its
/// own name (per mille) the run says.
type ClaimRank = (bool, bool, bool, usize, usize);

/// Whether a pan can be greased with the ingredient (not `grease and flour a pan`'s flour).
fn is_fat(class: &str) -> bool {
    ["butter", "oil", "margarine", "shortening", "lard", "spray"]
        .iter()
        .any(|f| class.split('-').any(|w| w == *f))
}

/// Words for kinds of ingredient that recipes use for several at once (`the spices`,
/// `the nuts`) that a class belongs to.
fn kinds(class: &str) -> impl Iterator<Item = &'static str> {
    let spice =
        class.starts_with("ground-") || class.ends_with("cinnamon") || class.ends_with("nutmeg");
    let nut = [
        "walnut",
        "almond",
        "pecan",
        "hazelnut",
        "peanut",
        "cashew",
        "pistachio",
    ]
    .iter()
    .any(|n| class.split('-').any(|w| w == *n));
    [(spice, "spice"), (nut, "nut")]
        .into_iter()
        .filter(|(is, _)| *is)
        .map(|(_, w)| w)
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

/// Words that start like a verb but are no instruction here (`cream cheese`, `cooling rack`,
/// `working with a spoonful at a time`).
fn is_noun_use(word: &str, rest: &str) -> bool {
    rest.starts_with("cream cheese")
        || rest.starts_with("heavy cream")
        || word.starts_with("cooling")
        || word == "cooled"
        || word == "preheated"
        || word == "formula"
        || word == "mixture"
        || word == "mixer"
        || word == "address"
        || word == "lines"
        || word == "rolls"
        || word == "leaves"
        || word == "working"
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
        assert_eq!(v, [Verb::Combine(Some(Form::Beat))]);
        let v: Vec<Verb> = verbs("heat the oven to 170 c")
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        assert_eq!(v, [Verb::Preheat]);
    }

    #[test]
    fn verbs_the_heldout_texts_taught() {
        let first = |clause: &str| {
            verbs(clause)
                .into_iter()
                .map(|(_, v)| v)
                .collect::<Vec<_>>()
        };
        assert_eq!(first("coarsely grate the carrots"), [Verb::Cut("shredded")]);
        assert_eq!(first("scatter the walnuts over the top"), [Verb::Sprinkle]);
        assert_eq!(
            first("leave the cookies on the sheet for 5 minutes"),
            [Verb::Cool]
        );
        assert_eq!(first("arrange the balls 5 cm apart"), [Verb::Transfer]);
        assert_eq!(first("press each ball flat"), [Verb::Shape]);
        assert_eq!(first("flatten them slightly"), [Verb::Shape]);
        assert_eq!(first("work in the flour"), [Verb::Combine(Some(Form::Mix))]);
        // The same words naming no instruction.
        assert_eq!(first("fresh oregano leaves"), []);
        assert_eq!(
            first("working with a spoonful at a time, shape it"),
            [Verb::Shape]
        );
    }

    #[test]
    fn every_verb_has_a_rule() {
        let kind = std::mem::discriminant::<Verb>;
        for (word, verb) in VERBS.iter().chain(&PREPARED) {
            let ruled = RULES.iter().any(|(v, _)| kind(v) == kind(verb));
            assert_eq!(ruled, *verb != Verb::Nothing, "{word}");
        }
    }
}
