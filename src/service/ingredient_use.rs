//! How a recipe uses an ingredient, read from its network: what the actions its fetched
//! amount flows into do with it (creamed with sugar, whipped, greasing a tin, whisked into a
//! dressing, sprinkled on top, melted, baked or served raw, cracked, seeded, mashed, cut,
//! peeled, raised). `substitute
//! --suggest` sets apart the substitutes the role table calls unfit for one of these uses.
//!
//! The flow follows objects, never kitchen states: from each action naming the class, through
//! every action taking its primary output as an input, and on through theirs. The ingredients
//! in a bowl at an action are those fetched by the actions its inputs come from.

use crate::data::catalogue::{Catalogue, Role};
use crate::data::substitute_roles::Use;
use crate::language::ast::{Arg, Recipe};
use crate::language::dependencies::Network;
use crate::world::ontology::{ClassId, Ontology};
use std::collections::BTreeSet;

/// Actions that mix what a bowl holds: the first of them shows what the ingredient is mixed
/// with first (creamed with sugar, whipped, whisked into a dressing).
const MIXING: [&str; 3] = ["beat", "mix", "mingle"];
/// Actions that heat: an ingredient reaching none of them is served raw.
const HEATING: [&str; 4] = ["bake", "fry", "boil", "melt"];
/// Actions that make a dough into pieces: what reaches them is in a dough.
const SHAPING: [&str; 3] = ["shape", "flatten", "portion-and-arrange"];
/// What whips: a bowl beaten with one of these holds air.
const WHIPPING: [&str; 2] = ["egg-white", "heavy-cream"];
/// The raising agents: a bowl holding one is leavened.
const RAISING: [&str; 3] = ["baking-powder", "baking-soda", "self-rising-flour"];
/// Actions done to one ingredient alone, and the use each shows.
const ALONE: [(&str, Use); 5] = [
    ("crack", Use::Cracked),
    ("seed", Use::Seeded),
    ("mash", Use::Mashed),
    ("cut", Use::Cut),
    ("peel", Use::Peeled),
];
/// The acids of a dressing, besides every vinegar.
const CITRUS: [&str; 2] = ["lemon-juice", "lime-juice"];

/// One use, and the action (index in the recipe) that shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    pub what: Use,
    pub action: usize,
}

/// The uses of `class` in `recipe`, each once, with the first action that shows it.
pub fn uses_of(
    onto: &Ontology,
    catalogue: &Catalogue,
    recipe: &Recipe,
    class: ClassId,
) -> Vec<Shown> {
    let flow = Flow::new(onto, catalogue, recipe);
    let name = onto.class_name(class);
    let starts: Vec<usize> = (0..recipe.predicates.len())
        .filter(|&i| {
            let args = &recipe.predicates[i].args;
            args.iter().any(|a| a.is_sym(name))
        })
        .collect();
    let reached = flow.forward(&starts);
    let mut out: Vec<Shown> = Vec::new();
    let mut shown = |what, action| {
        if !out.iter().any(|s: &Shown| s.what == what) {
            out.push(Shown { what, action });
        }
    };
    for &(action, arg) in &reached {
        let p = &recipe.predicates[action];
        let arg_name = flow.arg_name(action, arg);
        match (p.name.as_str(), arg_name) {
            ("grease", Some("ingredient-to-grease-with")) => shown(Use::Greasing, action),
            ("sprinkle", Some("topping-container")) => shown(Use::Topping, action),
            ("top-with", Some("container-with-topping")) => shown(Use::Topping, action),
            ("melt", _) => shown(Use::Melted, action),
            ("bake", _) => shown(Use::Baked, action),
            (p, _) if SHAPING.contains(&p) => shown(Use::Dough, action),
            _ => {}
        }
        let held = flow.ingredients_at(action);
        if held.iter().any(|c| RAISING.contains(&onto.class_name(*c))) {
            shown(Use::Leavened, action);
        }
        // What is done to the ingredient alone (not to a dough holding it).
        if (held == [class] || recipe.predicates[action].name != "cut")
            && let Some(&(_, what)) = ALONE
                .iter()
                .find(|(p, _)| *p == recipe.predicates[action].name)
        {
            shown(what, action);
        }
    }
    let heated = reached
        .iter()
        .any(|&(a, _)| HEATING.contains(&recipe.predicates[a].name.as_str()));
    if let Some(&(first, _)) = reached
        .iter()
        .find(|&&(a, _)| MIXING.contains(&recipe.predicates[a].name.as_str()))
    {
        let held = flow.ingredients_at(first);
        let is = |c: ClassId, names: &[&str]| names.contains(&onto.class_name(c));
        let sugar = onto.class_id("sugar");
        let is_sugar = |c| sugar.is_some_and(|s| onto.is_a(c, s));
        let flour = onto
            .class_id("flour")
            .filter(|f| held.iter().any(|&c| onto.is_a(c, *f)));
        let beaten = recipe.predicates[first].name == "beat";
        if beaten && held.iter().any(|&c| is(c, &WHIPPING)) {
            shown(Use::Whipped, first);
        } else if recipe.predicates[first].name != "mingle"
            && flour.is_none()
            && held.len() > 1
            && held.iter().any(|&c| is_sugar(c))
        {
            shown(Use::Creamed, first);
        }
        let vinegar = onto.class_id("vinegar");
        let sour = |c| is(c, &CITRUS) || vinegar.is_some_and(|v| onto.is_a(c, v));
        if !heated && held.iter().any(|&c| sour(c)) {
            shown(Use::Dressing, first);
        }
    }
    if !heated && let Some(&first) = starts.first() {
        shown(Use::Raw, first);
    }
    out.sort_by_key(|s| s.action);
    out
}

/// The objects' flow through one recipe.
struct Flow<'r> {
    recipe: &'r Recipe,
    catalogue: &'r Catalogue,
    onto: &'r Ontology,
    network: Network,
}

impl<'r> Flow<'r> {
    fn new(onto: &'r Ontology, catalogue: &'r Catalogue, recipe: &'r Recipe) -> Flow<'r> {
        Flow {
            recipe,
            catalogue,
            onto,
            network: Network::build(recipe, catalogue),
        }
    }

    /// The name of argument `arg` of action `action` in the catalogue.
    fn arg_name(&self, action: usize, arg: usize) -> Option<&'r str> {
        let p = &self.recipe.predicates[action];
        let sig = self.catalogue.get(&p.name)?;
        sig.args.get(arg).map(|a| a.name.as_str())
    }

    /// The variable of an action's primary output (its first argument), if it has one.
    fn output(&self, action: usize) -> Option<&'r str> {
        self.recipe.predicates[action].args.first()?.as_var()
    }

    /// The actions an object flow reaches from `starts` (themselves included, at no
    /// argument), each with the argument the flow enters it by, in file order.
    fn forward(&self, starts: &[usize]) -> Vec<(usize, usize)> {
        let mut reached: BTreeSet<(usize, usize)> =
            starts.iter().map(|&a| (a, usize::MAX)).collect();
        let mut seen: BTreeSet<usize> = starts.iter().copied().collect();
        let mut todo: Vec<usize> = starts.to_vec();
        while let Some(action) = todo.pop() {
            let Some(var) = self.output(action) else {
                continue;
            };
            let Some(flow) = self.network.variables.get(var) else {
                continue;
            };
            for o in flow.uses() {
                if matches!(o.role, Role::Input | Role::Optional) && o.action != action {
                    reached.insert((o.action, o.arg));
                    if seen.insert(o.action) {
                        todo.push(o.action);
                    }
                }
            }
        }
        reached.into_iter().collect()
    }

    /// The ingredient classes fetched by the actions whose objects flow into `action`.
    fn ingredients_at(&self, action: usize) -> Vec<ClassId> {
        let ingredient = self.onto.class_id("ingredient");
        let mut out: Vec<ClassId> = Vec::new();
        let mut seen: BTreeSet<usize> = BTreeSet::new();
        let mut todo = vec![action];
        while let Some(a) = todo.pop() {
            if !seen.insert(a) {
                continue;
            }
            let p = &self.recipe.predicates[a];
            for (i, arg) in p.args.iter().enumerate() {
                match arg {
                    Arg::Sym(name) => {
                        if let Some(c) = self.onto.class_id(name)
                            && ingredient.is_some_and(|i| self.onto.is_a(c, i))
                            && !out.contains(&c)
                        {
                            out.push(c);
                        }
                    }
                    _ => {
                        let producer = arg
                            .as_var()
                            .and_then(|v| self.network.variables.get(v))
                            .and_then(|f| f.producer())
                            .filter(|o| o.action != a);
                        let input = self
                            .arg_role(a, i)
                            .is_some_and(|r| matches!(r, Role::Input | Role::Optional));
                        if let Some(o) = producer.filter(|_| input) {
                            todo.push(o.action);
                        }
                    }
                }
            }
        }
        out
    }

    fn arg_role(&self, action: usize, arg: usize) -> Option<Role> {
        let p = &self.recipe.predicates[action];
        let sig = self.catalogue.get(&p.name)?;
        sig.args.get(arg).map(|a| a.role)
    }
}
