//! Networks with the mistakes a semantic parser or a language model makes, made from gold
//! networks deterministically: the differential campaign against the reference evaluator
//! (`examples/differential.rs`, `docs/differential.md`) scores them with both tools, and the
//! conformance test regenerates them to check the stored reference values.
//!
//! A mistake is identified by `recipe/kind/n`; its text depends only on the gold network, the
//! catalogue and that id (each id draws from its own random stream), so adding kinds or
//! variants never changes the networks of the ids that exist.

use crate::base::random::SplitMix64 as Rng;
use crate::data::catalogue::{Catalogue, Role};
use crate::language::ast::Recipe;

mod shapes;

/// The kinds of mistake, as a parser or a language model makes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An action left out; its consumers take an earlier output instead (its kitchen-state
    /// input, the container it was given).
    DropRewire,
    /// An output renamed where it is produced, so its consumers' variable is never bound.
    RenameOutput,
    /// A number changed: scaled up beyond the kitchen's stock, zero, fractional, below a unit.
    Quantity,
    /// An ingredient replaced by another of the benchmark's ingredients.
    SwapIngredient,
    /// A fetched tool or container, or a symbol argument of a step, replaced by another seen in
    /// the same position.
    SwapSymbol,
    /// A variable input replaced by another object made earlier (a wrong container, an object
    /// already used up by an earlier step).
    SwapVariable,
    /// A step written twice: verbatim, or with fresh outputs so it consumes its inputs again.
    Duplicate,
    /// A step moved to another place in the file.
    Reorder,
    /// Extra fetches chained into the kitchen states until the kitchen runs out.
    Exhaust,
    /// An argument missing or one too many.
    Arity,
    /// An unknown ingredient, tool or primitive, or a constant written as a variable.
    UnknownSymbol,
    /// Several recipes in one file: two different ones, or the same one twice.
    MultiRecipe,
    /// A step given an earlier kitchen state than the one before it: the work in between is
    /// lost to it (a branch of the kitchen).
    StaleState,
    /// An action replaced by another primitive of the catalogue, its arguments kept (most often
    /// one of the same arity, sometimes one with more or fewer arguments).
    SwapPrimitive,
    /// Two arguments of one action exchanged: two inputs, an input and an output, or a
    /// constant and a variable.
    SwapArguments,
    /// Two to four mistakes of the kinds above in one network, as a model's output rarely has
    /// only one.
    Combined,
    /// The network cut short after some action, as by a model that stopped early (most often
    /// in the final steps).
    Truncate,
    /// An action the recipe does not have (mixing, beating, baking, cutting, moving, cooling
    /// ...) done to an intermediate object or the final dish; the steps after it take its
    /// kitchen state, and sometimes its object.
    ExtraAction,
    /// One variable named as the output of two actions: a later action's output (and its
    /// consumers) given the name of an earlier output.
    ReuseVariable,
    /// An action given its own output, or a later action's output, as an input.
    SelfInput,
    /// The file written loosely: letter case, spacing, blank lines and comments, a number
    /// written another way, parentheses or line breaks wrong, the header varied or missing,
    /// `get-kitchen` missing or written twice.
    Format,
    /// An object named by its concept where the gold has a variable: `whisk` for the fetched
    /// whisk, `butter` for the proportioned butter, `baking-tray` for a tool left to default.
    ObjectAsConcept,
    /// Pairs of a fetch of a heap of one of the recipe's ingredients and its portioning into
    /// hundreds or thousands of portions (`shapes::PORTION_HEAPS`): a big shape.
    PortionHeap,
    /// The recipe's portioning with a portion a power of two smaller (`shapes::PORTION_DIVISORS`):
    /// hundreds of portions shaped, dipped, moved and baked one by one. A big shape.
    ManyPortions,
    /// The recipe's first fetched ingredient mixed again and again, each mix's container put in
    /// the next: a chain of `shapes::NESTED_MIXES` nested mixtures. A big shape.
    NestedMixes,
    /// Every egg fetched by the piece replaced by bananas of the same weight in grams, as
    /// `substitute --replace egg=banana` does. A big shape.
    EggToBanana,
}

impl Kind {
    pub const ALL: [Kind; 26] = [
        Kind::DropRewire,
        Kind::RenameOutput,
        Kind::Quantity,
        Kind::SwapIngredient,
        Kind::SwapSymbol,
        Kind::SwapVariable,
        Kind::Duplicate,
        Kind::Reorder,
        Kind::Exhaust,
        Kind::Arity,
        Kind::UnknownSymbol,
        Kind::MultiRecipe,
        Kind::StaleState,
        Kind::SwapPrimitive,
        Kind::SwapArguments,
        Kind::Combined,
        Kind::Truncate,
        Kind::ExtraAction,
        Kind::ReuseVariable,
        Kind::SelfInput,
        Kind::Format,
        Kind::ObjectAsConcept,
        Kind::PortionHeap,
        Kind::ManyPortions,
        Kind::NestedMixes,
        Kind::EggToBanana,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::DropRewire => "drop-rewire",
            Kind::RenameOutput => "rename-output",
            Kind::Quantity => "quantity",
            Kind::SwapIngredient => "swap-ingredient",
            Kind::SwapSymbol => "swap-symbol",
            Kind::SwapVariable => "swap-variable",
            Kind::Duplicate => "duplicate",
            Kind::Reorder => "reorder",
            Kind::Exhaust => "exhaust",
            Kind::Arity => "arity",
            Kind::UnknownSymbol => "unknown-symbol",
            Kind::MultiRecipe => "multi-recipe",
            Kind::StaleState => "stale-state",
            Kind::SwapPrimitive => "swap-primitive",
            Kind::SwapArguments => "swap-arguments",
            Kind::Combined => "combined",
            Kind::Truncate => "truncate",
            Kind::ExtraAction => "extra-action",
            Kind::ReuseVariable => "reuse-variable",
            Kind::SelfInput => "self-input",
            Kind::Format => "format",
            Kind::ObjectAsConcept => "object-as-concept",
            Kind::PortionHeap => "portion-heap",
            Kind::ManyPortions => "many-portions",
            Kind::NestedMixes => "nested-mixes",
            Kind::EggToBanana => "egg-to-banana",
        }
    }

    /// A shape sized by the id's variant to find where the reference slows down or stops
    /// (issue 52), not a mistake: the reference needs minutes to hours on the larger ones, so
    /// the default campaign leaves these kinds out and they are generated by name.
    pub fn is_big_shape(self) -> bool {
        matches!(
            self,
            Kind::PortionHeap | Kind::ManyPortions | Kind::NestedMixes | Kind::EggToBanana
        )
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One generated network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// `recipe/kind/n`.
    pub id: String,
    pub kind: Kind,
    pub text: String,
}

/// A gold network as tokens: enough structure to edit, printed back as the reference reads it.
#[derive(Clone, Debug, PartialEq)]
struct Network {
    id: String,
    steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
struct Step {
    name: String,
    args: Vec<String>,
}

impl Network {
    fn text(&self) -> String {
        let mut out = format!("#{}\n", self.id);
        for s in &self.steps {
            out.push('(');
            out.push_str(&s.name);
            for a in &s.args {
                out.push(' ');
                out.push_str(a);
            }
            out.push_str(")\n");
        }
        out
    }
}

/// The gold networks a campaign starts from, read once.
pub struct Golds {
    networks: Vec<Network>,
    catalogue: Catalogue,
}

impl Golds {
    /// `golds`: each recipe's id (the manifest's, which a gold file's header need not repeat)
    /// and its gold network.
    pub fn new<'a>(
        golds: impl IntoIterator<Item = (&'a str, &'a Recipe)>,
        catalogue: Catalogue,
    ) -> Golds {
        let networks = golds
            .into_iter()
            .map(|(id, recipe)| Network {
                id: id.to_string(),
                steps: recipe
                    .predicates
                    .iter()
                    .map(|p| Step {
                        name: p.name.clone(),
                        args: p.args.iter().map(|a| a.to_string()).collect(),
                    })
                    .collect(),
            })
            .collect();
        Golds {
            networks,
            catalogue,
        }
    }

    /// `variants` networks of every kind but the big shapes for every recipe, duplicates and
    /// unchanged networks left out, in recipe, kind, variant order.
    pub fn campaign(&self, variants: usize) -> Vec<Mistake> {
        let kinds: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| !k.is_big_shape())
            .collect();
        self.of_kinds(&kinds, variants)
    }

    /// `variants` networks of each of `kinds` for every recipe, as [`Golds::campaign`] makes them.
    pub fn of_kinds(&self, kinds: &[Kind], variants: usize) -> Vec<Mistake> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for net in &self.networks {
            for &kind in kinds {
                for n in 0..variants {
                    let id = format!("{}/{}/{n}", net.id, kind.name());
                    if let Some(m) = self.mistake(&id)
                        && m.text != net.text()
                        && seen.insert(m.text.clone())
                    {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The network of one id, `recipe/kind/n`; None when the id names no recipe or kind, or the
    /// mistake does not apply to the recipe.
    pub fn mistake(&self, id: &str) -> Option<Mistake> {
        let mut parts = id.split('/');
        let (recipe, kind, variant) = (parts.next()?, parts.next()?, parts.next()?);
        let kind = Kind::from_name(kind)?;
        let gold = self.networks.iter().find(|n| n.id == recipe)?;
        let text = if kind.is_big_shape() {
            self.shape(gold, kind, variant.parse().ok()?)?.text()
        } else {
            self.make(gold, kind, &mut Rng::from_text(id))?
        };
        Some(Mistake {
            id: id.to_string(),
            kind,
            text,
        })
    }

    fn make(&self, gold: &Network, kind: Kind, rng: &mut Rng) -> Option<String> {
        match kind {
            Kind::MultiRecipe => return self.multi_recipe(gold, rng),
            Kind::Format => return format(gold, rng),
            _ => {}
        }
        let mut net = gold.clone();
        self.apply(&mut net, kind, rng)?;
        Some(net.text())
    }

    /// One mistake of `kind` made in `net`; None when it does not apply, and for the kinds
    /// that are mistakes of the file rather than of one network (`MultiRecipe`, `Format`) or
    /// big shapes (made whole by `Golds::shape`).
    fn apply(&self, net: &mut Network, kind: Kind, rng: &mut Rng) -> Option<()> {
        match kind {
            Kind::DropRewire => self.drop_rewire(net, rng),
            Kind::RenameOutput => self.rename_output(net, rng),
            Kind::Quantity => quantity(net, rng),
            Kind::SwapIngredient => self.swap_symbol(net, rng, true),
            Kind::SwapSymbol => self.swap_symbol(net, rng, false),
            Kind::SwapVariable => self.swap_variable(net, rng),
            Kind::Duplicate => self.duplicate(net, rng),
            Kind::Reorder => reorder(net, rng),
            Kind::Exhaust => self.exhaust(net, rng),
            Kind::Arity => arity(net, rng),
            Kind::UnknownSymbol => self.unknown_symbol(net, rng),
            Kind::MultiRecipe | Kind::Format => None,
            Kind::PortionHeap | Kind::ManyPortions | Kind::NestedMixes | Kind::EggToBanana => None,
            Kind::StaleState => self.stale_state(net, rng),
            Kind::SwapPrimitive => self.swap_primitive(net, rng),
            Kind::SwapArguments => self.swap_arguments(net, rng),
            Kind::Combined => self.combined(net, rng),
            Kind::Truncate => truncate(net, rng),
            Kind::ExtraAction => self.extra_action(net, rng),
            Kind::ReuseVariable => self.reuse_variable(net, rng),
            Kind::SelfInput => self.self_input(net, rng),
            Kind::ObjectAsConcept => self.object_as_concept(net, rng),
        }
    }

    fn role(&self, step: &Step, arg: usize) -> Option<Role> {
        let sig = self.catalogue.get(&step.name)?;
        (sig.arity() == step.args.len()).then(|| sig.args[arg].role)
    }

    /// Where a step puts the kitchen state it makes (`get-kitchen` makes the first one).
    fn state_out(&self, step: &Step) -> Option<usize> {
        (0..step.args.len()).find(|&k| {
            self.role(step, k) == Some(Role::KitchenStateOut)
                || (step.name == "get-kitchen" && k == 0)
        })
    }

    /// Positions of variables a step produces: its outputs, and defaulted inputs it is the
    /// first to mention.
    fn produced(&self, net: &Network, at: usize) -> Vec<usize> {
        let step = &net.steps[at];
        (0..step.args.len())
            .filter(|&k| {
                let a = &step.args[k];
                a.starts_with('?')
                    && match self.role(step, k) {
                        Some(Role::Output | Role::KitchenStateOut) => true,
                        Some(Role::Optional) => !mentioned_before(net, at, a),
                        _ => false,
                    }
            })
            .collect()
    }

    /// Steps that can be edited (everything but `get-kitchen`, whose state all others need).
    fn editable(&self, net: &Network) -> Vec<usize> {
        (0..net.steps.len())
            .filter(|&i| net.steps[i].name != "get-kitchen")
            .collect()
    }

    fn drop_rewire(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let at = *rng.pick(&self.editable(net))?;
        let step = net.steps[at].clone();
        let state_in = (0..step.args.len())
            .find(|&k| self.role(&step, k) == Some(Role::KitchenStateIn))
            .map(|k| step.args[k].clone());
        // The object the step worked on: its first variable input made by an earlier step.
        let object_in = (0..step.args.len()).find_map(|k| {
            let a = &step.args[k];
            (self.role(&step, k) == Some(Role::Input)
                && a.starts_with('?')
                && mentioned_before(net, at, a))
            .then(|| a.clone())
        });
        let mut renames = Vec::new();
        for k in self.produced(net, at) {
            let replacement = match self.role(&step, k) {
                Some(Role::KitchenStateOut) => state_in.clone(),
                Some(Role::Output) => object_in.clone(),
                _ => None,
            };
            if let Some(r) = replacement {
                renames.push((step.args[k].clone(), r));
            }
        }
        net.steps.remove(at);
        for s in &mut net.steps[at..] {
            for a in &mut s.args {
                if let Some((_, r)) = renames.iter().find(|(o, _)| o == a) {
                    *a = r.clone();
                }
            }
        }
        Some(())
    }

    fn rename_output(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let candidates: Vec<(usize, usize)> = self
            .editable(net)
            .into_iter()
            .flat_map(|i| self.produced(net, i).into_iter().map(move |k| (i, k)))
            .collect();
        let &(i, k) = rng.pick(&candidates)?;
        let arg = &mut net.steps[i].args[k];
        *arg = format!("{arg}-renamed");
        Some(())
    }

    /// A symbol in a position where the benchmark's gold networks have other symbols:
    /// ingredients (`ingredient` true) or anything else (tools, containers, units, patterns).
    fn swap_symbol(&self, net: &mut Network, rng: &mut Rng, ingredient: bool) -> Option<()> {
        let is_ingredient =
            |step: &Step, k: usize| self.arg_name(step, k) == Some("ingredient-concept");
        let candidates = positions(net, self.editable(net), |s, k| {
            is_symbol(&s.args[k]) && is_ingredient(s, k) == ingredient
        });
        let &(i, k) = rng.pick(&candidates)?;
        let (name, current) = (net.steps[i].name.clone(), net.steps[i].args[k].clone());
        let mut pool: Vec<&str> = self
            .networks
            .iter()
            .flat_map(|n| &n.steps)
            .filter(|s| s.name == name && s.args.len() > k)
            .map(|s| s.args[k].as_str())
            .filter(|a| is_symbol(a) && *a != current)
            .collect();
        pool.sort_unstable();
        pool.dedup();
        net.steps[i].args[k] = rng.pick(&pool)?.to_string();
        Some(())
    }

    fn arg_name(&self, step: &Step, k: usize) -> Option<&str> {
        let sig = self.catalogue.get(&step.name)?;
        sig.args.get(k).map(|a| a.name.as_str())
    }

    fn swap_variable(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let candidates: Vec<(usize, usize)> = positions(net, self.editable(net), |s, k| {
            s.args[k].starts_with('?') && self.role(s, k) == Some(Role::Input)
        })
        .into_iter()
        .filter(|&(i, k)| mentioned_before(net, i, &net.steps[i].args[k]))
        .collect();
        let &(i, k) = rng.pick(&candidates)?;
        // Objects made before step i (kitchen states excluded: those are another mistake).
        let shared: &Network = net;
        let current = &shared.steps[i].args[k];
        let mut pool: Vec<String> = Vec::new();
        for j in 0..i {
            let step = &shared.steps[j];
            for m in self.produced(shared, j) {
                if self.role(step, m) != Some(Role::KitchenStateOut) && step.args[m] != *current {
                    pool.push(step.args[m].clone());
                }
            }
        }
        pool.dedup();
        net.steps[i].args[k] = rng.pick(&pool)?.clone();
        Some(())
    }

    fn duplicate(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let at = *rng.pick(&self.editable(net))?;
        let mut copy = net.steps[at].clone();
        if rng.below(2) == 1 {
            for k in self.produced(net, at) {
                copy.args[k] = format!("{}-again", copy.args[k]);
            }
        }
        net.steps.insert(at + 1, copy);
        Some(())
    }

    /// After step `at`, `count` extra fetches of one tool or container threaded into the
    /// kitchen-state chain.
    fn exhaust(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        const THINGS: [&str; 4] = ["large-bowl", "medium-bowl", "small-bowl", "baking-tray"];
        let with_state: Vec<(usize, usize)> = (0..net.steps.len())
            .filter_map(|i| self.state_out(&net.steps[i]).map(|k| (i, k)))
            .collect();
        let &(at, k) = rng.pick(&with_state)?;
        let state = net.steps[at].args[k].clone();
        let thing = *rng.pick(&THINGS)?;
        let count = 4 + rng.below(12);
        let mut previous = state.clone();
        let mut extra = Vec::new();
        for n in 0..count {
            let next = format!("?exhaust-state-{n}");
            extra.push(Step {
                name: "fetch".into(),
                args: vec![
                    format!("?exhaust-thing-{n}"),
                    next.clone(),
                    previous.clone(),
                    thing.into(),
                    "1".into(),
                ],
            });
            previous = next;
        }
        for s in &mut net.steps[at + 1..] {
            for a in &mut s.args {
                if *a == state {
                    *a = previous.clone();
                }
            }
        }
        net.steps.splice(at + 1..at + 1, extra);
        Some(())
    }

    fn unknown_symbol(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let editable = self.editable(net);
        match rng.below(4) {
            // An unknown primitive: a verb the catalogue does not have, or a misspelling.
            0 => {
                const VERBS: [&str; 5] = ["stir", "combine", "add", "whisk-together", "cook"];
                let at = *rng.pick(&editable)?;
                let name = match rng.below(2) {
                    0 => rng.pick(&VERBS)?.to_string(),
                    _ => format!("{}s", net.steps[at].name),
                };
                if self.catalogue.get(&name).is_some() {
                    return None;
                }
                net.steps[at].name = name;
            }
            kind => {
                let symbols = positions(net, editable, |s, k| is_symbol(&s.args[k]));
                let &(i, k) = rng.pick(&symbols)?;
                let arg = &mut net.steps[i].args[k];
                *arg = match kind {
                    // Misspelt: a letter doubled.
                    1 => {
                        let chars: Vec<char> = arg.chars().collect();
                        let cut = chars.len().div_ceil(2);
                        chars[..cut].iter().chain(&chars[cut - 1..]).collect()
                    }
                    // Made up, as a model invents an ingredient or a tool.
                    2 => format!("fresh-{arg}"),
                    // A constant written as a variable: never bound.
                    _ => format!("?{arg}"),
                };
            }
        }
        Some(())
    }

    fn stale_state(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let state_in =
            |s: &Step| (0..s.args.len()).find(|&k| self.role(s, k) == Some(Role::KitchenStateIn));
        let candidates: Vec<(usize, usize)> = self
            .editable(net)
            .into_iter()
            .filter_map(|i| state_in(&net.steps[i]).map(|k| (i, k)))
            .collect();
        let &(i, k) = rng.pick(&candidates)?;
        // Kitchen states made at least two steps before: the one just before is the gold's.
        let earlier: Vec<String> = (0..i.saturating_sub(1))
            .filter_map(|j| {
                let s = &net.steps[j];
                self.state_out(s).map(|m| s.args[m].clone())
            })
            .filter(|v| *v != net.steps[i].args[k])
            .collect();
        net.steps[i].args[k] = rng.pick(&earlier)?.clone();
        Some(())
    }

    /// Most often a primitive of the same arity, so that only the meaning changes; one time in
    /// four one of another arity.
    fn swap_primitive(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let at = *rng.pick(&self.editable(net))?;
        let (name, arity) = (&net.steps[at].name, net.steps[at].args.len());
        let same_arity = rng.below(4) != 0;
        let pool: Vec<&str> = self
            .catalogue
            .iter()
            .filter(|p| p.name != *name && p.name != "get-kitchen")
            .filter(|p| (p.arity() == arity) == same_arity)
            .map(|p| p.name.as_str())
            .collect();
        net.steps[at].name = rng.pick(&pool)?.to_string();
        Some(())
    }

    fn swap_arguments(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let input = |r: Option<Role>| {
            matches!(r, Some(Role::Input | Role::Optional | Role::KitchenStateIn))
        };
        let output = |r: Option<Role>| matches!(r, Some(Role::Output | Role::KitchenStateOut));
        let mode = rng.below(3);
        let mut pairs = Vec::new();
        for i in self.editable(net) {
            let s = &net.steps[i];
            for a in 0..s.args.len() {
                for b in a + 1..s.args.len() {
                    let (ra, rb) = (self.role(s, a), self.role(s, b));
                    let fits = match mode {
                        0 => input(ra) && input(rb),
                        1 => input(ra) && output(rb) || output(ra) && input(rb),
                        _ => s.args[a].starts_with('?') != s.args[b].starts_with('?'),
                    };
                    if fits && s.args[a] != s.args[b] {
                        pairs.push((i, a, b));
                    }
                }
            }
        }
        let &(i, a, b) = rng.pick(&pairs)?;
        net.steps[i].args.swap(a, b);
        Some(())
    }

    /// Mistakes of the single kinds, each drawn from the same stream; a kind that does not
    /// apply (or changes nothing) is drawn again, a few times at most.
    fn combined(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        // The first round's kinds, each a mistake within the network (not `multi-recipe`,
        // which adds a network).
        let kinds: Vec<Kind> = Kind::ALL
            .into_iter()
            .take_while(|&k| k != Kind::SwapPrimitive)
            .filter(|&k| k != Kind::MultiRecipe)
            .collect();
        let count = 2 + rng.below(3);
        let mut made = 0;
        for _ in 0..3 * count {
            if made == count {
                break;
            }
            let kind = *rng.pick(&kinds)?;
            let mut trial = net.clone();
            if self.apply(&mut trial, kind, rng).is_some() && trial != *net {
                *net = trial;
                made += 1;
            }
        }
        (made >= 2).then_some(())
    }

    /// An action of the benchmark's gold networks (one whose other arguments are all made by
    /// the action itself) applied to an object made earlier, inserted anywhere after that
    /// object is made and threaded into the kitchen-state chain.
    fn extra_action(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        const ACTIONS: [&str; 8] = [
            "mix",
            "beat",
            "mingle",
            "bake",
            "cut",
            "transfer-contents",
            "leave-for-time",
            "refrigerate",
        ];
        // Templates: the action, and where its object and kitchen state go.
        let mut templates: Vec<(&Step, usize, usize)> = Vec::new();
        for s in self.networks.iter().flat_map(|n| &n.steps) {
            if !ACTIONS.contains(&s.name.as_str()) || self.catalogue.get(&s.name).is_none() {
                continue;
            }
            let role = |k| self.role(s, k);
            let object = (0..s.args.len())
                .find(|&k| role(k) == Some(Role::Input) && s.args[k].starts_with('?'));
            let state = (0..s.args.len()).find(|&k| role(k) == Some(Role::KitchenStateIn));
            let (Some(object), Some(state)) = (object, state) else {
                continue;
            };
            let made_by_itself = (0..s.args.len()).all(|k| {
                k == object
                    || k == state
                    || !s.args[k].starts_with('?')
                    || role(k) != Some(Role::Input)
            });
            if made_by_itself
                && !templates
                    .iter()
                    .any(|(t, _, _)| t.args == s.args && t.name == s.name)
            {
                templates.push((s, object, state));
            }
        }
        let &(template, object_at, state_at) = rng.pick(&templates)?;
        let objects: Vec<(usize, usize)> = self
            .editable(net)
            .into_iter()
            .flat_map(|i| self.produced(net, i).into_iter().map(move |k| (i, k)))
            .filter(|&(i, k)| self.role(&net.steps[i], k) == Some(Role::Output))
            .collect();
        let &(made_at, k) = rng.pick(&objects)?;
        let object = net.steps[made_at].args[k].clone();
        let at = made_at + 1 + rng.below(net.steps.len() - made_at);
        let state = (0..at).rev().find_map(|j| {
            self.state_out(&net.steps[j])
                .map(|m| net.steps[j].args[m].clone())
        })?;
        let sig = self.catalogue.get(&template.name)?;
        let mut step = Step {
            name: template.name.clone(),
            args: template.args.clone(),
        };
        for (k, a) in step.args.iter_mut().enumerate() {
            if k == object_at {
                *a = object.clone();
            } else if k == state_at {
                *a = state.clone();
            } else if a.starts_with('?') {
                *a = format!("?extra-{}", sig.args[k].name);
            }
        }
        let new_state = self.state_out(&step).map(|m| step.args[m].clone())?;
        let new_object = step.args[0].clone();
        let takes_object = rng.below(2) == 0;
        for s in &mut net.steps[at..] {
            for a in &mut s.args {
                if *a == state {
                    *a = new_state.clone();
                } else if takes_object && *a == object {
                    *a = new_object.clone();
                }
            }
        }
        net.steps.insert(at, step);
        Some(())
    }

    /// Kitchen states are named like kitchen states, objects like objects.
    fn reuse_variable(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let outputs: Vec<(usize, usize, Option<Role>)> = self
            .editable(net)
            .into_iter()
            .flat_map(|i| self.produced(net, i).into_iter().map(move |k| (i, k)))
            .map(|(i, k)| (i, k, self.role(&net.steps[i], k)))
            .filter(|(_, _, r)| matches!(r, Some(Role::Output | Role::KitchenStateOut)))
            .collect();
        let later: Vec<&(usize, usize, Option<Role>)> = outputs
            .iter()
            .filter(|(j, _, r)| outputs.iter().any(|(i, _, q)| i < j && q == r))
            .collect();
        let &&(at, k, role) = rng.pick(&later)?;
        let earlier: Vec<&str> = outputs
            .iter()
            .filter(|(i, _, r)| *i < at && *r == role)
            .map(|&(i, m, _)| net.steps[i].args[m].as_str())
            .collect();
        let name = rng.pick(&earlier)?.to_string();
        let old = net.steps[at].args[k].clone();
        for s in &mut net.steps[at..] {
            for a in &mut s.args {
                if *a == old {
                    *a = name.clone();
                }
            }
        }
        Some(())
    }

    /// Half the time the action's own output, else the output of an action after it.
    fn self_input(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        let candidates = positions(net, self.editable(net), |s, k| {
            s.args[k].starts_with('?') && self.role(s, k) == Some(Role::Input)
        });
        let &(at, k) = rng.pick(&candidates)?;
        let steps = if rng.below(2) == 0 {
            at..at + 1
        } else {
            at + 1..net.steps.len()
        };
        let pool: Vec<String> = steps
            .flat_map(|j| {
                let s = &net.steps[j];
                (0..s.args.len())
                    .filter(|&m| self.role(s, m) == Some(Role::Output))
                    .map(|m| s.args[m].clone())
                    .collect::<Vec<_>>()
            })
            .collect();
        net.steps[at].args[k] = rng.pick(&pool)?.clone();
        Some(())
    }

    /// The concept a network's variable was fetched as: `fetch`'s concept, or
    /// `fetch-and-proportion`'s ingredient.
    fn fetched_concept<'n>(&self, net: &'n Network, var: &str) -> Option<&'n str> {
        net.steps.iter().find_map(|s| {
            let concept = match s.name.as_str() {
                "fetch" => "concept-to-fetch",
                "fetch-and-proportion" => "ingredient-concept",
                _ => return None,
            };
            let at = (0..s.args.len()).find(|&k| self.arg_name(s, k) == Some(concept))?;
            (s.args.first().map(String::as_str) == Some(var))
                .then(|| s.args[at].as_str())
                .filter(|c| is_symbol(c))
        })
    }

    /// The variable's own concept when it was fetched, else a concept the gold networks fetch
    /// for that argument of that primitive.
    fn object_as_concept(&self, net: &mut Network, rng: &mut Rng) -> Option<()> {
        // Concepts seen per (primitive, argument) across the gold networks.
        let mut seen: Vec<(&str, usize, &str)> = Vec::new();
        for n in &self.networks {
            for s in &n.steps {
                for (k, a) in s.args.iter().enumerate() {
                    if let Some(c) = self.fetched_concept(n, a).filter(|_| k > 0)
                        && !seen.contains(&(s.name.as_str(), k, c))
                    {
                        seen.push((s.name.as_str(), k, c));
                    }
                }
            }
        }
        let pool = |s: &Step, k: usize| -> Vec<&str> {
            seen.iter()
                .filter(|(name, at, _)| *name == s.name && *at == k)
                .map(|t| t.2)
                .collect()
        };
        let candidates = positions(net, self.editable(net), |s, k| {
            s.args[k].starts_with('?')
                && matches!(self.role(s, k), Some(Role::Input | Role::Optional))
                && (self.fetched_concept(net, &s.args[k]).is_some() || !pool(s, k).is_empty())
        });
        let &(i, k) = rng.pick(&candidates)?;
        let own = self.fetched_concept(net, &net.steps[i].args[k]);
        let others = pool(&net.steps[i], k);
        let concept = match own {
            Some(c) if others.is_empty() || rng.below(2) == 0 => c,
            _ => *rng.pick(&others)?,
        };
        net.steps[i].args[k] = concept.to_string();
        Some(())
    }

    fn multi_recipe(&self, gold: &Network, rng: &mut Rng) -> Option<String> {
        if rng.below(3) == 0 {
            return Some(format!("{}{}", gold.text(), gold.text()));
        }
        let others: Vec<&Network> = self.networks.iter().filter(|n| n.id != gold.id).collect();
        let other = *rng.pick(&others)?;
        // The second recipe carries one mistake of its own, of a kind that keeps it a network.
        const KINDS: [Kind; 4] = [
            Kind::DropRewire,
            Kind::Quantity,
            Kind::SwapIngredient,
            Kind::RenameOutput,
        ];
        let kind = *rng.pick(&KINDS)?;
        let second = self.make(other, kind, rng)?;
        Some(format!("{}{second}", gold.text()))
    }
}

/// Every argument position `(step, argument)` of the steps `steps`, in order, that `keep`
/// accepts.
fn positions(
    net: &Network,
    steps: impl IntoIterator<Item = usize>,
    keep: impl Fn(&Step, usize) -> bool,
) -> Vec<(usize, usize)> {
    steps
        .into_iter()
        .flat_map(|i| (0..net.steps[i].args.len()).map(move |k| (i, k)))
        .filter(|&(i, k)| keep(&net.steps[i], k))
        .collect()
}

fn mentioned_before(net: &Network, at: usize, var: &str) -> bool {
    net.steps[..at]
        .iter()
        .any(|s| s.args.iter().any(|a| a == var))
}

fn is_symbol(arg: &str) -> bool {
    arg.starts_with(|c: char| c.is_ascii_alphabetic())
}

fn is_number(arg: &str) -> bool {
    arg.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.')
}

/// Numbers as they go wrong: a unit slip (×10, ×100), more than asked, zero, a fraction, a
/// float where the gold has an integer, less than one unit, negative.
fn quantity(net: &mut Network, rng: &mut Rng) -> Option<()> {
    let numbers = positions(net, 0..net.steps.len(), |s, k| is_number(&s.args[k]));
    let &(i, k) = rng.pick(&numbers)?;
    let arg = &mut net.steps[i].args[k];
    let value: f64 = arg.parse().ok().or_else(|| {
        let (n, d) = arg.split_once('/')?;
        Some(n.parse::<f64>().ok()? / d.parse::<f64>().ok()?)
    })?;
    let new = match rng.below(9) {
        0 => format!("{}", (value * 10.0).round()),
        1 => format!("{}", (value * 100.0).round()),
        2 => format!("{}", (value + 1.0 + rng.below(3) as f64).round()),
        3 => "0".to_string(),
        4 => "1/3".to_string(),
        5 => format!("{:.1}", value + 0.5),
        6 => "0.01".to_string(),
        7 => format!("-{}", arg),
        _ => format!("{}", (value / 2.0).floor()),
    };
    if new == *arg {
        return None;
    }
    *arg = new;
    Some(())
}

fn reorder(net: &mut Network, rng: &mut Rng) -> Option<()> {
    if net.steps.len() < 3 {
        return None;
    }
    let from = 1 + rng.below(net.steps.len() - 1);
    let to = 1 + rng.below(net.steps.len() - 1);
    if from == to {
        return None;
    }
    let step = net.steps.remove(from);
    net.steps.insert(to, step);
    Some(())
}

/// The first `k` actions kept, `k` at least two: most often the last one to four actions
/// lost, else a cut anywhere.
fn truncate(net: &mut Network, rng: &mut Rng) -> Option<()> {
    let n = net.steps.len();
    if n < 3 {
        return None;
    }
    let keep = if rng.below(3) == 0 {
        2 + rng.below(n - 2)
    } else {
        n - 1 - rng.below((n - 2).min(4))
    };
    net.steps.truncate(keep);
    Some(())
}

/// The gold network's file with one slip of writing.
fn format(gold: &Network, rng: &mut Rng) -> Option<String> {
    let text = gold.text();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 0 is the header, line 1 `get-kitchen`; the steps follow.
    let step = 1 + rng.below(lines.len().checked_sub(1).filter(|&n| n > 0)?);
    let line = &mut lines[step];
    match rng.below(8) {
        // Letter case: one step, or the whole file, in capitals.
        0 => match rng.below(3) {
            0 => *line = line.to_uppercase(),
            1 => {
                let end = line.find(' ')?;
                let name = line[..end].to_uppercase();
                line.replace_range(..end, &name);
            }
            _ => return Some(text.to_uppercase()),
        },
        // Spacing: doubled spaces or tabs between arguments, spaces inside the parentheses,
        // or the step indented.
        1 => match rng.below(4) {
            0 => *line = line.replace(' ', "  "),
            1 => *line = line.replace(' ', "\t"),
            2 => *line = format!("( {} )", &line[1..line.len() - 1]),
            _ => *line = format!("{}{line}", ["  ", "\t"][rng.below(2)]),
        },
        // A blank line (empty, spaces, a tab, a carriage return), or Windows line ends.
        2 => match rng.below(5) {
            4 => return Some(text.replace('\n', "\r\n")),
            k => lines.insert(step, ["", "   ", "\t", "\r"][k].to_string()),
        },
        // A comment: a line of its own (maybe indented), or after the step.
        3 => match rng.below(3) {
            0 => lines.insert(step, ";; next step".into()),
            1 => lines.insert(step, "  ; next step".into()),
            _ => line.push_str(" ; as the recipe says"),
        },
        // A number written another way.
        4 => {
            let at: Vec<usize> = (1..lines.len())
                .filter(|&i| lines[i].split(' ').any(is_number))
                .collect();
            let i = *rng.pick(&at)?;
            let mut words: Vec<String> = lines[i].split(' ').map(String::from).collect();
            let numbers: Vec<usize> = (0..words.len()).filter(|&k| is_number(&words[k])).collect();
            let k = *rng.pick(&numbers)?;
            let (word, close) = match words[k].strip_suffix(')') {
                Some(w) => (w.to_string(), ")"),
                None => (words[k].clone(), ""),
            };
            if word.contains('/') {
                return None;
            }
            let written = if word.contains('.') {
                match rng.below(3) {
                    0 => word.strip_prefix('0')?.to_string(),
                    1 => format!("{word}0"),
                    _ => format!("{word}e0"),
                }
            } else {
                match rng.below(4) {
                    0 => format!("{word}.0"),
                    1 => format!("{word}."),
                    2 => format!("{word}.00"),
                    _ => format!("{word}e0"),
                }
            };
            words[k] = format!("{written}{close}");
            lines[i] = words.join(" ");
        }
        // Parentheses and line breaks: the closing parenthesis missing, one too many, two
        // steps on one line, a step broken over two lines.
        5 => match rng.below(4) {
            0 => {
                line.pop();
            }
            1 => line.push(')'),
            2 => {
                let next = lines.get(step + 1)?.clone();
                lines[step].push(' ');
                lines[step].push_str(&next);
                lines.remove(step + 1);
            }
            _ => {
                let cut = line.rfind(' ')?;
                let rest = line.split_off(cut);
                lines.insert(step + 1, rest.trim_start().to_string());
            }
        },
        // The header: a space after `#`, capitals, words after the id, or no header.
        6 => {
            let id = &gold.id;
            match rng.below(4) {
                0 => lines[0] = format!("# {id}"),
                1 => lines[0] = format!("#{}", id.to_uppercase()),
                2 => lines[0] = format!("#{id} (from the recipe text)"),
                _ => {
                    lines.remove(0);
                }
            }
        }
        // `get-kitchen` left out, or written twice (the same or another variable).
        _ => {
            let kitchen = lines[1].clone();
            match rng.below(3) {
                0 => {
                    lines.remove(1);
                }
                1 => lines.insert(2, kitchen),
                _ => lines.insert(2, "(get-kitchen ?another-kitchen)".into()),
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Some(out)
}

/// A missing last argument, an extra variable, or an extra constant.
fn arity(net: &mut Network, rng: &mut Rng) -> Option<()> {
    let at = 1 + rng.below(net.steps.len().checked_sub(1).filter(|&n| n > 0)?);
    let args = &mut net.steps[at].args;
    match rng.below(3) {
        0 => {
            args.pop()?;
        }
        1 => args.push("?extra-argument".into()),
        _ => args.push("1".into()),
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;
    use crate::language::parse::parse;

    const GOLD: &str = "#r\n(get-kitchen ?k)\n\
        (fetch-and-proportion ?b ?k1 ?k ?t butter 200 g)\n\
        (fetch ?bowl ?k2 ?k1 large-bowl 1)\n\
        (transfer-contents ?c ?rest ?k3 ?k2 ?bowl ?b ?q ?u)\n\
        (beat ?d ?k4 ?k3 ?c ?tool)\n";

    fn golds() -> Golds {
        // A second recipe, so that files of several recipes can be made and symbols swapped.
        let other = GOLD
            .replace("#r", "#s")
            .replace("butter 200", "white-sugar 100")
            .replace("large-bowl", "medium-bowl");
        let (r, s) = (parse(GOLD), parse(&other));
        let (r, s) = (&r.file.recipes[0], &s.file.recipes[0]);
        Golds::new([("r", r), ("s", s)], Catalogue::builtin(Profile::R2024))
    }

    #[test]
    fn drop_rewire_gives_consumers_the_dropped_steps_inputs() {
        let g = golds();
        let mut net = g.networks[0].clone();
        // The transfer dropped: the beating gets the butter it was to pour into the bowl.
        let dropped = (0..64)
            .filter_map(|n| {
                let mut net = net.clone();
                let mut rng = Rng::from_text(&format!("r/drop-rewire/{n}"));
                g.drop_rewire(&mut net, &mut rng).map(|_| net)
            })
            .find(|n| !n.steps.iter().any(|s| s.name == "transfer-contents"))
            .expect("some stream drops the transfer");
        net.steps.remove(3);
        net.steps[3].args = ["?d", "?k4", "?k2", "?b", "?tool"]
            .map(String::from)
            .to_vec();
        assert_eq!(dropped, net);
    }

    #[test]
    fn ids_are_stable_and_campaigns_have_no_duplicates() {
        let g = golds();
        let a = g.campaign(6);
        assert_eq!(a, g.campaign(6));
        for m in &a {
            assert_eq!(g.mistake(&m.id).as_ref(), Some(m));
            assert_ne!(m.text, GOLD);
        }
        let texts: std::collections::HashSet<_> = a.iter().map(|m| &m.text).collect();
        assert_eq!(texts.len(), a.len());
        let missing: Vec<_> = Kind::ALL
            .iter()
            .filter(|k| !k.is_big_shape() && !a.iter().any(|m| m.kind == **k))
            .collect();
        assert!(missing.is_empty(), "no mistake of kinds {missing:?}");
        assert!(a.iter().all(|m| !m.kind.is_big_shape()));
    }

    /// The networks of the first `count` ids of a kind for recipe `r` that apply.
    fn made(g: &Golds, kind: Kind, count: usize) -> Vec<Network> {
        (0..64)
            .filter_map(|n| {
                let mut net = g.networks[0].clone();
                let mut rng = Rng::from_text(&format!("r/{}/{n}", kind.name()));
                g.apply(&mut net, kind, &mut rng).map(|_| net)
            })
            .take(count)
            .collect()
    }

    #[test]
    fn truncate_keeps_a_prefix_of_at_least_two_actions() {
        let g = golds();
        let gold = &g.networks[0].steps;
        for net in made(&g, Kind::Truncate, 8) {
            assert!((2..gold.len()).contains(&net.steps.len()), "{}", net.text());
            assert_eq!(net.steps[..], gold[..net.steps.len()]);
        }
    }

    #[test]
    fn extra_action_is_threaded_into_the_kitchen_state_chain() {
        let g = golds();
        for net in made(&g, Kind::ExtraAction, 8) {
            assert_eq!(net.steps.len(), g.networks[0].steps.len() + 1);
            let at = net
                .steps
                .iter()
                .position(|s| s.args.iter().any(|a| a.starts_with("?extra-")))
                .expect("an extra action");
            let extra = &net.steps[at];
            let k = (0..extra.args.len())
                .find(|&k| g.role(extra, k) == Some(Role::KitchenStateIn))
                .expect("a kitchen state in");
            let state_in = &extra.args[k];
            // It takes the state made just before it, and is the only one to take it.
            assert_eq!(
                g.state_out(&net.steps[at - 1])
                    .map(|k| &net.steps[at - 1].args[k]),
                Some(state_in)
            );
            let takers = net
                .steps
                .iter()
                .filter(|s| s.args.contains(state_in))
                .count();
            assert_eq!(takers, 2, "{}", net.text());
        }
    }

    #[test]
    fn reuse_variable_names_two_outputs_alike() {
        let g = golds();
        for net in made(&g, Kind::ReuseVariable, 8) {
            let mut outputs = Vec::new();
            for s in &net.steps {
                for k in 0..s.args.len() {
                    if matches!(g.role(s, k), Some(Role::Output | Role::KitchenStateOut)) {
                        outputs.push(&s.args[k]);
                    }
                }
            }
            let distinct: std::collections::HashSet<_> = outputs.iter().collect();
            assert_eq!(distinct.len() + 1, outputs.len(), "{}", net.text());
        }
    }

    #[test]
    fn exhaust_threads_the_extra_fetches_into_the_chain() {
        let g = golds();
        let m = (0..32)
            .filter_map(|n| g.mistake(&format!("r/exhaust/{n}")))
            .next()
            .expect("exhaust applies");
        let parsed = parse(&m.text);
        let steps = &parsed.file.recipes[0].predicates;
        assert!(steps.len() > 5, "{}", m.text);
        // Every kitchen state is made once and consumed once, but the last one.
        let mut uses = std::collections::BTreeMap::<String, usize>::new();
        for a in steps.iter().flat_map(|p| &p.args) {
            let a = a.to_string();
            if a.starts_with("?k") || a.starts_with("?exhaust-state") {
                *uses.entry(a).or_default() += 1;
            }
        }
        let once: Vec<_> = uses.iter().filter(|(_, n)| **n == 1).collect();
        assert_eq!(once.len(), 1, "{uses:?}");
        assert!(uses.values().all(|n| *n <= 2), "{uses:?}");
    }
}
