//! The big shapes of issue 52: networks far larger than a recipe's, made to find where the
//! reference evaluator slows down or stops (a heap portioned in thousands, a dough portioned in
//! hundreds, mixtures nested hundreds deep, eggs swapped for bananas by weight). Each is sized
//! by its id's variant `n`, not drawn from a random stream, so `recipe/kind/n` grows with `n`
//! and an `n` past a table's end names no network.

use super::{Golds, Kind, Network, Step, is_number};
use crate::data::catalogue::Role;

/// `portion-heap/n`: pairs, grams fetched per pair and grams per portion — 200, 400, 400,
/// 1,200 and 3,000 portions in all.
pub(super) const PORTION_HEAPS: [(usize, u32, u32); 5] = [
    (1, 5_000, 25),
    (2, 10_000, 50),
    (1, 20_000, 50),
    (3, 20_000, 50),
    (3, 50_000, 50),
];

/// `many-portions/n`: what the gold's portion is divided by. Powers of two, so the new portion
/// is written exactly as a decimal.
pub(super) const PORTION_DIVISORS: [u32; 5] = [2, 4, 8, 16, 32];

/// `nested-mixes/n`: how many mixes. The project refuses a chain nested deeper than
/// `simulation::MAX_NESTING` (2,000 levels): 997 mixes of a fetched ingredient pass, the 998th
/// does not (the last two sizes; 1,000 and 2,000 are beyond it too). 497 and 498 were the
/// edge of the bound before it was placed where the reference stops.
pub(super) const NESTED_MIXES: [usize; 13] = [
    10, 25, 50, 100, 200, 300, 400, 497, 498, 1_000, 2_000, 997, 998,
];

/// Grams of one egg in the gram table of the kitchens' ontology (`egg` by the `piece`), by
/// which `substitute --replace egg=banana` converts an egg to bananas of the same weight.
const EGG_GRAMS: u32 = 50;

impl Golds {
    /// The network of big shape `kind`, variant `n`, made from `gold`; None when the gold has
    /// nothing to make it from or `n` is past the kind's table.
    pub(super) fn shape(&self, gold: &Network, kind: Kind, n: usize) -> Option<Network> {
        match kind {
            Kind::PortionHeap => self.portion_heap(gold, *PORTION_HEAPS.get(n)?),
            Kind::ManyPortions => many_portions(gold, *PORTION_DIVISORS.get(n)?),
            Kind::NestedMixes => self.nested_mixes(gold, *NESTED_MIXES.get(n)?),
            Kind::EggToBanana => (n == 0).then(|| egg_to_banana(gold))?,
            _ => None,
        }
    }

    /// `get-kitchen`, then `pairs` times: a fetch of `grams` g of the first ingredient the
    /// gold fetches by the gram, and its portioning in `portion` g portions.
    fn portion_heap(
        &self,
        gold: &Network,
        (pairs, grams, portion): (usize, u32, u32),
    ) -> Option<Network> {
        let (kitchen, state) = self.kitchen(gold)?;
        let ingredient = gold
            .steps
            .iter()
            .find(|s| s.name == "fetch-and-proportion" && s.args.last().is_some_and(|u| u == "g"))
            .and_then(|s| s.args.get(4))?;
        let mut steps = vec![kitchen];
        let mut state = state;
        for p in 1..=pairs {
            let (heap, with_heap) = (
                format!("?heap-{p}"),
                format!("?kitchen-state-with-heap-{p}"),
            );
            let fetch = [
                &heap,
                &with_heap,
                &state,
                &format!("?heap-container-{p}"),
                ingredient,
            ];
            steps.push(step(
                "fetch-and-proportion",
                &fetch,
                &[&grams.to_string(), "g"],
            ));
            let with_portions = format!("?kitchen-state-with-portions-{p}");
            let portions = [&format!("?portions-{p}"), &with_portions, &with_heap, &heap];
            let rest = [
                &portion.to_string(),
                "g",
                &format!("?pattern-{p}"),
                &format!("?countertop-{p}"),
            ];
            steps.push(step("portion-and-arrange", &portions, &rest));
            state = with_portions;
        }
        Some(Network {
            id: gold.id.clone(),
            steps,
        })
    }

    /// `get-kitchen`, the gold's first `fetch-and-proportion`, and `mixes` mixes, each of the
    /// previous one's mixture with one tool left to default.
    fn nested_mixes(&self, gold: &Network, mixes: usize) -> Option<Network> {
        let (kitchen, _) = self.kitchen(gold)?;
        let fetch = gold
            .steps
            .iter()
            .find(|s| s.name == "fetch-and-proportion")?;
        let mut state = fetch.args[self.state_out(fetch)?].clone();
        let output = (0..fetch.args.len()).find(|&k| self.role(fetch, k) == Some(Role::Output))?;
        let mut mixture = fetch.args[output].clone();
        let mut steps = vec![kitchen, fetch.clone()];
        for i in 1..=mixes {
            let (mixed, with_mixed) = (
                format!("?nested-mixture-{i}"),
                format!("?kitchen-state-with-nested-mixture-{i}"),
            );
            steps.push(step(
                "mix",
                &[&mixed, &with_mixed, &state, &mixture],
                &["?nesting-tool"],
            ));
            (mixture, state) = (mixed, with_mixed);
        }
        Some(Network {
            id: gold.id.clone(),
            steps,
        })
    }

    /// The gold's `get-kitchen` and the kitchen state it makes.
    fn kitchen(&self, gold: &Network) -> Option<(Step, String)> {
        let kitchen = gold.steps.iter().find(|s| s.name == "get-kitchen")?;
        Some((kitchen.clone(), kitchen.args.first()?.clone()))
    }
}

/// The gold with its first portioning by the gram done in portions `divisor` times smaller.
fn many_portions(gold: &Network, divisor: u32) -> Option<Network> {
    let mut net = gold.clone();
    let portioning = net.steps.iter_mut().find(|s| {
        s.name == "portion-and-arrange"
            && s.args.len() > 5
            && is_number(&s.args[4])
            && s.args[5] == "g"
    })?;
    let grams: f64 = portioning.args[4].parse().ok()?;
    portioning.args[4] = format!("{}", grams / f64::from(divisor));
    Some(net)
}

/// The gold with every `egg N piece` written `banana 50·N g`; None when it fetches no egg by
/// the piece.
fn egg_to_banana(gold: &Network) -> Option<Network> {
    let mut net = gold.clone();
    let mut swapped = false;
    for s in &mut net.steps {
        for k in 0..s.args.len().saturating_sub(2) {
            if s.args[k] == "egg" && s.args[k + 2] == "piece" {
                let Ok(eggs) = s.args[k + 1].parse::<f64>() else {
                    continue;
                };
                s.args[k] = "banana".into();
                s.args[k + 1] = format!("{}", eggs * f64::from(EGG_GRAMS));
                s.args[k + 2] = "g".into();
                swapped = true;
            }
        }
    }
    swapped.then_some(net)
}

/// A step of `name` whose arguments are `vars` then `rest`.
fn step(name: &str, vars: &[&String], rest: &[&str]) -> Step {
    let args = vars.iter().map(|v| v.to_string());
    Step {
        name: name.into(),
        args: args.chain(rest.iter().map(|r| r.to_string())).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;
    use crate::data::catalogue::Catalogue;
    use crate::language::parse::parse;

    const GOLD: &str = "#r\n(get-kitchen ?k)\n\
        (fetch-and-proportion ?e ?k1 ?k ?t1 egg 2 piece)\n\
        (fetch-and-proportion ?b ?k2 ?k1 ?t2 butter 200 g)\n\
        (transfer-contents ?c ?rest ?k3 ?k2 ?e ?b ?q ?u)\n\
        (portion-and-arrange ?p ?k4 ?k3 ?c 25 g ?pattern ?countertop)\n";

    fn golds(text: &str) -> Golds {
        let parsed = parse(text);
        Golds::new(
            [("r", &parsed.file.recipes[0])],
            Catalogue::builtin(Profile::R2024),
        )
    }

    fn text(g: &Golds, id: &str) -> Option<String> {
        g.mistake(id).map(|m| m.text)
    }

    #[test]
    fn nested_mixes_put_each_mixture_in_the_next_mix() {
        let g = golds(GOLD);
        let mut want = String::from(
            "#r\n(get-kitchen ?k)\n(fetch-and-proportion ?e ?k1 ?k ?t1 egg 2 piece)\n",
        );
        let (mut object, mut state) = ("?e".to_string(), "?k1".to_string());
        for i in 1..=10 {
            let (m, k) = (
                format!("?nested-mixture-{i}"),
                format!("?kitchen-state-with-nested-mixture-{i}"),
            );
            want += &format!("(mix {m} {k} {state} {object} ?nesting-tool)\n");
            (object, state) = (m, k);
        }
        assert_eq!(text(&g, "r/nested-mixes/0").as_deref(), Some(&*want));
        let sizes: Vec<usize> = (0..=NESTED_MIXES.len())
            .map_while(|n| g.mistake(&format!("r/nested-mixes/{n}")))
            .map(|m| m.text.matches("(mix ").count())
            .collect();
        assert_eq!(sizes, NESTED_MIXES);
    }

    #[test]
    fn portion_heap_fetches_heaps_of_an_ingredient_weighed_in_grams_and_portions_them() {
        let g = golds(GOLD);
        assert_eq!(
            text(&g, "r/portion-heap/1").as_deref(),
            Some(
                "#r\n(get-kitchen ?k)\n\
                 (fetch-and-proportion ?heap-1 ?kitchen-state-with-heap-1 ?k ?heap-container-1 butter 10000 g)\n\
                 (portion-and-arrange ?portions-1 ?kitchen-state-with-portions-1 ?kitchen-state-with-heap-1 ?heap-1 50 g ?pattern-1 ?countertop-1)\n\
                 (fetch-and-proportion ?heap-2 ?kitchen-state-with-heap-2 ?kitchen-state-with-portions-1 ?heap-container-2 butter 10000 g)\n\
                 (portion-and-arrange ?portions-2 ?kitchen-state-with-portions-2 ?kitchen-state-with-heap-2 ?heap-2 50 g ?pattern-2 ?countertop-2)\n"
            )
        );
        assert_eq!(text(&g, "r/portion-heap/5"), None);
        // No ingredient fetched by the gram: no heap.
        let by_the_piece = golds(&GOLD.replace("butter 200 g", "butter 2 piece"));
        assert_eq!(text(&by_the_piece, "r/portion-heap/0"), None);
    }

    #[test]
    fn many_portions_divides_the_gold_portion_by_powers_of_two() {
        let g = golds(GOLD);
        let made: Vec<String> = (0..6)
            .filter_map(|n| text(&g, &format!("r/many-portions/{n}")))
            .collect();
        let want: Vec<String> = ["12.5", "6.25", "3.125", "1.5625", "0.78125"]
            .iter()
            .map(|q| GOLD.replace("?c 25 g", &format!("?c {q} g")))
            .collect();
        assert_eq!(made, want);
    }

    #[test]
    fn egg_to_banana_swaps_eggs_for_bananas_of_the_same_weight() {
        let g = golds(GOLD);
        let want = GOLD.replace("egg 2 piece", "banana 100 g");
        assert_eq!(text(&g, "r/egg-to-banana/0").as_deref(), Some(&*want));
        assert_eq!(text(&g, "r/egg-to-banana/1"), None);
        let no_egg = golds(&GOLD.replace("egg 2 piece", "white-sugar 100 g"));
        assert_eq!(text(&no_egg, "r/egg-to-banana/0"), None);
    }

    /// The weight used is the ontology's, in both profiles (what `substitute` converts by).
    #[test]
    fn an_egg_weighs_what_the_ontology_says() {
        for profile in Profile::ALL {
            let onto = crate::world::ontology::Ontology::builtin(profile);
            let (egg, piece) = (onto.class_id("egg"), onto.class_id("piece"));
            let grams = egg.zip(piece).and_then(|(e, p)| onto.grams_per(e, p));
            assert_eq!(
                grams.map(|g| g.to_string()),
                Some(EGG_GRAMS.to_string()),
                "{profile:?}"
            );
        }
    }
}
