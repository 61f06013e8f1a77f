//! Dish approximation score (`find-best-dish-score`, `compare-node-dishes`, `unfold-dish`).
//!
//! Every "final output" of the prediction (a step whose primary-output variable no later step
//! mentions) is compared with the gold dish; the best comparison is the score. A comparison is
//! 0.98 × contents ratio + 0.02 × container ratio, where the contents are the dish unfolded into
//! base ingredients (mixtures scaled to grams, sprinkles and dips included, equal entries
//! merged). The weights are single floats as in the reference; point totals stay exact.

use super::equality::{Similarity, differing_slots, find_location, similar, similar_locations};
use super::{GoldRun, output_kitchen_state, primary_output};
use crate::base::budget;
use crate::base::number::Number;
use crate::simulation::primitives::common::{convert_to_g, quantity_of};
use crate::simulation::{Execution, Model, SimError};
use crate::world::ontology::SlotId;
use crate::world::seq::Seq;
use crate::world::{Entity, Maker, Value, edit};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::Arc;

/// The reference's `similarity-score`: awarded points over possible points.
#[derive(Clone, Copy, Debug)]
struct Points {
    points: Number,
    max: Number,
}

impl Points {
    fn new() -> Points {
        Points {
            points: Number::ZERO,
            max: Number::ZERO,
        }
    }

    fn add(&mut self, points: Number, max: Number) {
        self.points = self.points.add(points);
        self.max = self.max.add(max);
    }

    /// 1 when nothing could be earned.
    fn ratio(&self) -> Number {
        if self.max.is_zero() {
            Number::int(1)
        } else {
            self.points.div(self.max).unwrap_or(Number::int(1))
        }
    }
}

/// [`Points`] where every point is a whole one, awarded or not (the container, an
/// ingredient's slots, a mixture): counted as integers and divided once, the exact ratio the
/// sum of ones gives, without a rational addition per point.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    awarded: i64,
    offered: i64,
}

impl Tally {
    fn award(&mut self, ok: bool) {
        self.awarded += i64::from(ok);
        self.offered += 1;
    }

    /// [`Points::ratio`] of the whole points counted.
    fn ratio(&self) -> Number {
        Points {
            points: Number::int(self.awarded),
            max: Number::int(self.offered),
        }
        .ratio()
    }
}

/// A base ingredient of an unfolded dish with the mixtures it is part of (outermost first).
#[derive(Clone, Debug)]
pub struct Unfolded {
    pub ingredient: Entity,
    pub hierarchy: Vec<Arc<Entity>>,
}

/// How one gold ingredient was matched (as the JSON report shows it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IngredientMatch {
    pub class: String,
    /// `0.6 × slot ratio + 0.4 × hierarchy ratio` of the best predicted candidate.
    pub score: f32,
    /// Slots of the gold ingredient in which the chosen candidate differs.
    pub differing: Vec<String>,
}

/// What lies behind one dish comparison, in the JSON report's field order and names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DishDetail {
    pub contents_ratio: f32,
    pub container_ratio: f32,
    /// Matched gold ingredients with their score and the slots that differ.
    #[serde(rename = "ingredients")]
    pub matched: Vec<IngredientMatch>,
    /// Gold base ingredients with no predicted ingredient of the same class.
    pub missing: Vec<String>,
    /// Predicted base ingredients left unmatched.
    pub surplus: Vec<String>,
    /// Container aspects that differ (location, class, slots, number of portions).
    #[serde(rename = "container")]
    pub container_differences: Vec<String>,
}

/// The comparison of one predicted output with the gold dish.
#[derive(Clone, Debug)]
pub struct NodeDish {
    /// Index of the predicted predicate.
    pub predicate: usize,
    pub score: f32,
    /// `None` when the output is not a dish (failed object, not a container of ingredients).
    pub detail: Option<DishDetail>,
}

#[derive(Clone, Debug, Default)]
pub struct DishReport {
    pub score: f32,
    /// Every scored final output, from the last executed backwards.
    pub scored: Vec<NodeDish>,
    /// Index into `scored` of the (first) best comparison.
    pub best: Option<usize>,
}

/// `find-best-dish-score`: walk the prediction backwards, scoring each step whose
/// primary-output variable was not yet mentioned by a later step; the maximum wins.
pub fn best_dish_score(
    model: &Model,
    predicted: &Execution,
    gold: &GoldRun,
) -> Result<DishReport, SimError> {
    let mut dish = GoldDish::new(model, gold)?;
    best_dish_by(predicted, |step| dish.compare(predicted, step))
}

/// The score of one predicted step's output and its detail, as [`best_dish_score`] compares it.
pub type StepScore = (Number, Option<DishDetail>);

/// [`best_dish_score`]'s walk, each step's output scored by `score` (a caller that keeps the
/// scores of the steps it has seen compares only the new ones).
pub fn best_dish_by(
    predicted: &Execution,
    mut score: impl FnMut(usize) -> Result<StepScore, SimError>,
) -> Result<DishReport, SimError> {
    let mut seen: HashSet<usize> = HashSet::new();
    let mut report = DishReport::default();
    let mut best: Option<Number> = None;
    for step in (0..predicted.steps.len()).rev() {
        let p = predicted.steps[step].predicate;
        let slots = &predicted.slots[p];
        let Some(&first) = slots.first() else {
            continue;
        };
        if seen.contains(&first) {
            continue;
        }
        budget::at_action(p);
        // An error names the step whose output was being compared.
        let (score, detail) = score(step).map_err(|e| SimError {
            predicate: e.predicate.or(Some(p)),
            ..e
        })?;
        if best.is_none_or(|b| score.num_cmp(&b).is_gt()) {
            best = Some(score);
            report.best = Some(report.scored.len());
        }
        report.scored.push(NodeDish {
            predicate: p,
            score: score.to_f32(),
            detail,
        });
        seen.extend(slots.iter().copied());
    }
    report.score = best.map(|b| b.to_f32()).unwrap_or(0.0);
    Ok(report)
}

/// The gold dish, to compare predicted outputs with one at a time.
pub struct GoldDish<'m>(Comparer<'m>);

impl<'m> GoldDish<'m> {
    pub fn new(model: &'m Model, gold: &'m GoldRun) -> Result<GoldDish<'m>, SimError> {
        let gold_step = gold.output_step.ok_or_else(|| {
            SimError::new(format!(
                "the gold run of {} has no output node",
                gold.recipe.id
            ))
        })?;
        Ok(GoldDish(Comparer::new(model, gold, gold_step)))
    }

    /// `compare-node-dishes` for predicted step `step`.
    pub fn compare(&mut self, predicted: &Execution, step: usize) -> Result<StepScore, SimError> {
        self.0.compare(predicted, step)
    }
}

/// The step (into `exec.steps`) whose output the dish approximation score compared best.
pub fn best_step(exec: &Execution, report: &DishReport) -> Option<usize> {
    let best = report.scored.get(report.best?)?.predicate;
    exec.steps.iter().position(|s| s.predicate == best)
}

/// The last executed action whose primary output no other action uses: the dish when no gold
/// run says which output is (`None` for a run of no action).
pub fn last_unused_output(exec: &Execution) -> Option<usize> {
    let used_elsewhere = |step: usize| {
        let p = exec.steps[step].predicate;
        exec.slots[p].first().is_some_and(|slot| {
            exec.slots
                .iter()
                .enumerate()
                .any(|(q, slots)| q != p && slots.contains(slot))
        })
    };
    let last = exec.steps.len().checked_sub(1)?;
    Some(
        (0..exec.steps.len())
            .rev()
            .find(|&s| !used_elsewhere(s))
            .unwrap_or(last),
    )
}

/// Ontology names the comparison needs, the gold side (its dish unfolded once and kept
/// with the gold run), and what the unfoldings of the predicted dishes share.
struct Comparer<'m> {
    m: &'m Model,
    maker: Maker<'m>,
    gold_run: &'m GoldRun,
    gold: &'m Execution,
    gold_step: usize,
    unfolding: Unfolding,
}

impl<'m> Comparer<'m> {
    fn new(m: &'m Model, gold_run: &'m GoldRun, gold_step: usize) -> Self {
        Comparer {
            m,
            maker: m.maker(),
            gold_run,
            gold: &gold_run.execution,
            gold_step,
            unfolding: Unfolding::new(m),
        }
    }

    /// `compare-node-dishes`: the score of one predicted step's output against the gold dish.
    fn compare(
        &mut self,
        exec: &Execution,
        step: usize,
    ) -> Result<(Number, Option<DishDetail>), SimError> {
        let value = primary_output(exec, step);
        let Some(s) = self.dish(value) else {
            return Ok((Number::ZERO, None));
        };
        let gold_value = primary_output(self.gold, self.gold_step);
        let g = gold_value
            .as_obj()
            .ok_or_else(|| SimError::new("the gold dish is not an object"))?;
        let mut detail = DishDetail::default();
        let container_ratio = self.container_points(exec, step, s, g, &mut detail).ratio();
        let contents_ratio = self.contents_points(s, g, &mut detail)?.ratio();
        detail.contents_ratio = contents_ratio.to_f32();
        detail.container_ratio = container_ratio.to_f32();
        let score = Number::float(0.98)
            .mul(contents_ratio)
            .add(Number::float(0.02).mul(container_ratio));
        Ok((score, Some(detail)))
    }

    /// The output as a dish, or `None` when it scores 0 without comparison: a failed object,
    /// neither a container nor a list, or holding anything but ingredients.
    fn dish<'v>(&self, value: &'v Value) -> Option<&'v Entity> {
        let (m, k) = (self.m, &self.m.k);
        let s = value.as_obj()?;
        if m.onto.is_a(s.class, k.failed_object) {
            return None;
        }
        if !(m.onto.is_a(s.class, k.container) || m.onto.is_a(s.class, k.list_of_kitchen_entities))
        {
            return None;
        }
        let items = all_ingredients(m, s);
        let only_ingredients = !items.is_empty()
            && items.iter().all(|i| {
                i.as_obj()
                    .is_some_and(|e| m.onto.is_a(e.class, k.ingredient))
            });
        only_ingredients.then_some(s)
    }

    /// The container part: the same location, class, slots (other than what it holds) and
    /// number of portions as the gold dish's; what differs goes to `detail`.
    fn container_points(
        &self,
        exec: &Execution,
        step: usize,
        s: &Entity,
        g: &Entity,
        detail: &mut DishDetail,
    ) -> Tally {
        let (m, k) = (self.m, &self.m.k);
        let value = primary_output(exec, step);
        let gold_value = primary_output(self.gold, self.gold_step);
        let mut container = Tally::default();
        let loc_s = find_location(m, value, output_kitchen_state(m, exec, step));
        let loc_g = find_location(
            m,
            gold_value,
            output_kitchen_state(m, self.gold, self.gold_step),
        );
        let same_location = similar_locations(&loc_s, &loc_g);
        container.award(same_location);
        if !same_location {
            detail.container_differences.push("location".into());
        }
        container.award(s.class == g.class);
        if s.class != g.class {
            detail.container_differences.push(format!(
                "class {} instead of {}",
                m.onto.class_name(s.class),
                m.onto.class_name(g.class)
            ));
        }
        for (slot, gv) in g.slots() {
            if slot == k.contents || slot == k.items {
                continue;
            }
            let ok = s.get(slot).is_some_and(|sv| similar(sv, gv));
            container.award(ok);
            if !ok {
                detail
                    .container_differences
                    .push(m.onto.slot_name(slot).to_string());
            }
        }
        let portions = |e: &Entity| dish_items(m, e).len();
        let same_portions = portions(s) == portions(g);
        container.award(same_portions);
        if !same_portions {
            detail.container_differences.push(format!(
                "{} portions instead of {}",
                portions(s),
                portions(g)
            ));
        }
        container
    }

    /// The contents part: each gold base ingredient against the first best predicted one of
    /// its class, which it then uses up; gold ingredients without one and predicted ones left
    /// over count as missed points. The gold dish is unfolded once, at its first comparison
    /// with a prediction, and kept with the gold run; the predicted dishes are unfolded with
    /// what this comparer's earlier unfoldings found.
    fn contents_points(
        &mut self,
        s: &Entity,
        g: &Entity,
        detail: &mut DishDetail,
    ) -> Result<Points, SimError> {
        let m = self.m;
        let mut sol = self.unfolding.unfold(m, &mut self.maker, s)?;
        let gold_unfolded = self.gold_run.unfolded_dish(m, &mut self.maker, g)?;
        let gold_unfolded: &[Unfolded] = &gold_unfolded;
        let mut contents = Points::new();
        let mut missing = 0i64;
        for gi in gold_unfolded {
            let class = gi.ingredient.class;
            let candidates: Vec<usize> = (0..sol.len())
                .filter(|&i| sol[i].ingredient.class == class)
                .collect();
            if candidates.is_empty() {
                missing += 1;
                detail.missing.push(m.onto.class_name(class).to_string());
                continue;
            }
            // The first candidate with the highest score.
            let mut best: Option<(usize, Number)> = None;
            for &i in &candidates {
                let sc = compare_hierarchy_ingredient(m, &sol[i], gi);
                if best.is_none_or(|(_, b)| sc.num_cmp(&b).is_gt()) {
                    best = Some((i, sc));
                }
            }
            if let Some((i, sc)) = best {
                contents.add(sc, Number::int(1));
                let chosen = sol.remove(i);
                detail.matched.push(IngredientMatch {
                    class: m.onto.class_name(class).to_string(),
                    score: sc.to_f32(),
                    differing: differing_slots(m, &gi.ingredient, &chosen.ingredient),
                });
            }
        }
        contents.max = contents
            .max
            .add(Number::int(missing))
            .add(Number::int(sol.len() as i64));
        detail.surplus = sol
            .iter()
            .map(|u| m.onto.class_name(u.ingredient.class).to_string())
            .collect();
        Ok(contents)
    }
}

/// `compare-hierarchy-ingredient`: 0.6 × share of the gold ingredient's slots that the
/// candidate matches + 0.4 × agreement of the mixture hierarchies.
fn compare_hierarchy_ingredient(m: &Model, sol: &Unfolded, gold: &Unfolded) -> Number {
    let mut ingredient = Tally::default();
    for (slot, gv) in gold.ingredient.slots() {
        ingredient.award(sol.ingredient.get(slot).is_some_and(|sv| similar(sv, gv)));
    }
    let mut hierarchy = Points::new();
    for (gm, sm) in gold.hierarchy.iter().zip(&sol.hierarchy) {
        hierarchy.add(compare_mixture(m, sm, gm).ratio(), Number::int(1));
    }
    let surplus = (gold.hierarchy.len() as i64 - sol.hierarchy.len() as i64).abs();
    hierarchy.max = hierarchy.max.add(Number::int(surplus));
    Number::float(0.6)
        .mul(ingredient.ratio())
        .add(Number::float(0.4).mul(hierarchy.ratio()))
}

/// `compare-mixture`: the gold mixture's slots other than components and amount, and the class.
fn compare_mixture(m: &Model, sol: &Entity, gold: &Entity) -> Tally {
    let k = &m.k;
    let mut p = Tally::default();
    for (slot, gv) in gold.slots() {
        if slot == k.components || slot == k.amount {
            continue;
        }
        p.award(sol.get(slot).is_some_and(|sv| similar(sv, gv)));
    }
    p.award(sol.class == gold.class);
    p
}

/// `contents-or-items`: the contents of a container, the items of a list of kitchen entities.
fn dish_items<'e>(m: &Model, dish: &'e Entity) -> &'e Seq<Value> {
    let slot = if m.onto.is_a(dish.class, m.k.container) {
        m.k.contents
    } else {
        m.k.items
    };
    dish.val(slot).items()
}

/// `get-ingredient-additions`: the dip, then the sprinkle, when set and the class has them,
/// with the slot that holds each.
fn additions(m: &Model, e: &Entity) -> Vec<(SlotId, Value)> {
    let mut out = Vec::new();
    for &(c, s) in &m.k.additions {
        if m.onto.is_a(e.class, c) {
            let v = e.val(s);
            if v.truthy() {
                out.push((s, v.clone()));
            }
        }
    }
    out
}

/// `Err` once the recipe's time budget is spent, in the loops that grow with the dish (the
/// caller refuses the recipe with the budget's own message).
fn within_budget() -> Result<(), SimError> {
    budget::check().map_err(|_| SimError::new("the time budget ran out"))
}

/// `all-ingredients`: the contents (or items) preceded by their additions, those of later
/// elements first.
pub fn all_ingredients(m: &Model, dish: &Entity) -> Vec<Value> {
    let items = dish_items(m, dish);
    let mut out: Vec<Value> = Vec::new();
    for item in items {
        if let Some(e) = item.as_obj() {
            let mut adds: Vec<Value> = additions(m, e).into_iter().map(|(_, v)| v).collect();
            if !adds.is_empty() {
                adds.append(&mut out);
                out = adds;
            }
        }
    }
    out.extend(items.iter().cloned());
    out
}

/// `copy-object` applied at every depth, as the reference copies a dish before unfolding it: a
/// copy keeps the persistent id and every slot but those its class does not copy, which take
/// their defaults again. Only objects of such classes (in the 2024 world none a dish holds)
/// and the objects and lists that hold them change, so only they are copied, in the order the
/// reference copies them (the defaults made in the same order); everything else is shared as
/// it is, equal to its copy in all the score compares. `None`: nothing under `e` changes.
/// An object found unchanged is not looked through again (the portions of a dish share their
/// mixtures' components).
fn deep_copy(
    m: &Model,
    maker: &mut Maker<'_>,
    e: &Entity,
    unchanged: &mut Unchanged,
) -> Option<Entity> {
    let uncopied = !m.onto.class(e.class).uncopied.is_empty();
    let mut out = uncopied.then(|| maker.copy(e));
    let mut at = 0;
    while let Some((slot, value)) = out.as_ref().unwrap_or(e).slot_at(at) {
        if let Some(copied) = copy_value(m, maker, value, unchanged) {
            let _ = out.get_or_insert_with(|| e.clone()).set(slot, copied);
        }
        at += 1;
    }
    out
}

/// The objects under which [`deep_copy`] changes nothing, by address, each held so that no
/// address is reused while the copy is made. Copying them again would make nothing and
/// change nothing: an object is immutable, and its defaults are made once.
#[derive(Default)]
struct Unchanged {
    addresses: FxHashSet<usize>,
    held: Vec<Arc<Entity>>,
}

/// [`deep_copy`] of a value: `None` when nothing in it changes.
fn copy_value(
    m: &Model,
    maker: &mut Maker<'_>,
    v: &Value,
    unchanged: &mut Unchanged,
) -> Option<Value> {
    match v {
        Value::Obj(e) => {
            let address = Arc::as_ptr(e) as usize;
            if unchanged.addresses.contains(&address) {
                return None;
            }
            let copied = deep_copy(m, maker, e, unchanged);
            if copied.is_none() {
                unchanged.addresses.insert(address);
                unchanged.held.push(Arc::clone(e));
            }
            copied.map(Value::obj)
        }
        Value::List(items) => {
            let mut out: Option<Vec<Value>> = None;
            for (i, item) in items.iter().enumerate() {
                let copied = copy_value(m, maker, item, unchanged);
                match (&mut out, copied) {
                    (Some(out), copied) => out.push(copied.unwrap_or_else(|| item.clone())),
                    (None, Some(copied)) => {
                        let mut changed: Vec<Value> = items.iter().take(i).cloned().collect();
                        changed.push(copied);
                        out = Some(changed);
                    }
                    (None, None) => {}
                }
            }
            out.map(|items| Value::List(Arc::new(items.into_iter().collect())))
        }
        _ => None,
    }
}

/// `unfold-dish`: the base ingredients of a container or list of kitchen entities, amounts in
/// grams, equal entries merged. Errors as the reference does (not a dish, no conversion).
pub fn unfold_dish(
    m: &Model,
    maker: &mut Maker<'_>,
    dish: &Entity,
) -> Result<Vec<Unfolded>, SimError> {
    let k = &m.k;
    if !(m.onto.is_a(dish.class, k.container)
        || m.onto.is_a(dish.class, k.list_of_kitchen_entities))
    {
        return Err(SimError::new(format!(
            "unfold-dish expects either a container or a list-of-kitchen-entities, but got {}",
            m.onto.class_name(dish.class).to_uppercase()
        )));
    }
    Unfolding::new(m).unfold(m, maker, dish)
}

/// What the unfoldings of one scoring's dishes share. The objects of a run never change and
/// its dishes share their mixtures (every final output holds what the steps before it made),
/// so what one unfolding found holds for the next: the objects under which the copy changes
/// nothing, the merge's comparisons of objects by identity, and the amount objects' templates.
struct Unfolding {
    /// Whether any class has slots a copy does not copy (else the copy is the dish itself).
    copies: bool,
    unchanged: Unchanged,
    /// The merge's comparison: entries equal up to their amounts.
    same: Similarity,
    amounts: Option<Amounts>,
}

impl Unfolding {
    fn new(m: &Model) -> Unfolding {
        Unfolding {
            copies: m.onto.classes().any(|(_, c)| !c.uncopied.is_empty()),
            unchanged: Unchanged::default(),
            same: Similarity::ignoring(&[m.k.amount]),
            amounts: None,
        }
    }

    /// [`unfold_dish`] of a container or list of kitchen entities.
    fn unfold(
        &mut self,
        m: &Model,
        maker: &mut Maker<'_>,
        dish: &Entity,
    ) -> Result<Vec<Unfolded>, SimError> {
        let (mut nodes, pieces) = self.unmerged(m, maker, dish)?;
        let merged = merge(m, &mut nodes, pieces, &mut self.same)?;
        Ok(nodes.resolve_pieces(&merged))
    }

    /// The unfolding of a container or list: mixtures scaled to grams down to their base
    /// ingredients, each an entry, nothing merged.
    fn unmerged(
        &mut self,
        m: &Model,
        maker: &mut Maker<'_>,
        dish: &Entity,
    ) -> Result<(Nodes, Vec<Piece>), SimError> {
        let k = &m.k;
        let copied = if self.copies {
            deep_copy(m, maker, dish, &mut self.unchanged)
        } else {
            None
        };
        let copy = copied.as_ref().unwrap_or(dish);
        let amounts = self.amounts.get_or_insert_with(|| Amounts::new(m, maker));
        let mut unfolder = Unfolder {
            m,
            maker,
            amounts,
            nodes: Nodes::default(),
            pieces: Vec::new(),
        };
        for item in all_ingredients(m, copy) {
            within_budget()?;
            let Value::Obj(e) = &item else { continue };
            // Converted to grams, a copy of the item with another amount; a copy of a class
            // with slots it does not copy differs in more.
            let source = m
                .onto
                .class(e.class)
                .uncopied
                .is_empty()
                .then(|| Arc::clone(e));
            if m.onto.is_a(e.class, k.mixture) {
                let g = convert_to_g(m, unfolder.maker, e)?;
                unfolder.mixture(g, source, &[])?;
            } else if m.onto.is_a(e.class, k.ingredient) {
                let ingredient = convert_to_g(m, unfolder.maker, e)?;
                unfolder.piece(ingredient, source, Vec::new());
            }
        }
        Ok((unfolder.nodes, unfolder.pieces))
    }
}

/// A quantity and an amount as `make-instance` makes them, cloned for each component's new
/// amount rather than made again (making an amount makes its defaults, a quantity and a
/// unit, only to replace them). The clones share the templates' persistent ids, which no
/// score, detail or diet reads (comparisons are id-blind).
struct Amounts {
    quantity: Entity,
    amount: Entity,
}

impl Amounts {
    fn new(m: &Model, maker: &mut Maker<'_>) -> Amounts {
        let k = &m.k;
        Amounts {
            quantity: maker.make_with(k.quantity_class, &[(k.value, Value::Num(Number::ZERO))]),
            amount: maker.make_with(
                k.amount_class,
                &[(k.quantity, Value::Nil), (k.unit, Value::Nil)],
            ),
        }
    }

    /// An amount of `value` `unit`s.
    fn of(&self, m: &Model, value: Number, unit: Value) -> Entity {
        let k = &m.k;
        let mut quantity = self.quantity.clone();
        let _ = quantity.set(k.value, Value::Num(value));
        let mut amount = self.amount.clone();
        let _ = amount.set(k.quantity, Value::obj(quantity));
        let _ = amount.set(k.unit, unit);
        amount
    }
}

/// The base ingredients of a container or list of kitchen entities, amounts in grams, as
/// [`unfold_dish`] finds them before it merges equal entries: each still has the persistent
/// id of the object it was taken from. Not a container or list: none.
pub fn dish_ingredients(
    m: &Model,
    maker: &mut Maker<'_>,
    dish: &Entity,
) -> Result<Vec<Entity>, SimError> {
    if !(m.onto.is_a(dish.class, m.k.container)
        || m.onto.is_a(dish.class, m.k.list_of_kitchen_entities))
    {
        return Ok(Vec::new());
    }
    let (nodes, pieces) = Unfolding::new(m).unmerged(m, maker, dish)?;
    Ok(pieces
        .iter()
        .map(|p| nodes.entities[p.id].clone())
        .collect())
}

/// Every object unfolding makes or changes, by creation number. In the reference, unfolding and
/// merging change objects in place that other objects still point at: a component's amount
/// becomes absolute and merging sums amounts into the first entry, while the component's
/// mixture lists it and the `sprinkled-with` or `dipped-in` slot of the ingredient it was added
/// to holds it. Those slots are compared with their amounts, so they are rebuilt from the final
/// objects once merging is over.
#[derive(Default)]
struct Nodes {
    entities: Vec<Entity>,
    /// Slots of a node that point at other nodes.
    links: Vec<Vec<(SlotId, Link)>>,
    /// The dish's object each node was taken from, where the node differs from it in its
    /// amount at most (until merging sums amounts): the merge compares two nodes ignoring their
    /// amounts, so they compare as these objects do, remembered by identity across the
    /// unfoldings of a scoring.
    sources: Vec<Option<Arc<Entity>>>,
}

enum Link {
    /// An addition: one object.
    One(usize),
    /// A mixture's components, in order; a component that is neither ingredient nor mixture
    /// stays as it was.
    Components(Vec<Result<usize, Value>>),
}

/// An entry of the unfolded dish: its ingredient and the mixtures it is part of (outermost
/// first), as nodes.
struct Piece {
    id: usize,
    hierarchy: Vec<usize>,
}

impl Nodes {
    fn add(&mut self, e: Entity, source: Option<Arc<Entity>>) -> usize {
        self.entities.push(e);
        self.links.push(Vec::new());
        self.sources.push(source);
        self.entities.len() - 1
    }

    /// Whether nodes `a` and `b` are similar ignoring their amounts (`same` ignores them).
    fn similar(&self, a: usize, b: usize, same: &mut Similarity) -> bool {
        match (&self.sources[a], &self.sources[b]) {
            (Some(x), Some(y)) => same.objects_similar(x, y),
            _ => same.entities_similar(&self.entities[a], &self.entities[b]),
        }
    }

    /// The final state of every node, links followed (nodes only point at later ones).
    fn resolve_all(&self) -> Vec<Arc<Entity>> {
        let mut done: Vec<Option<Arc<Entity>>> = vec![None; self.entities.len()];
        for id in (0..self.entities.len()).rev() {
            let mut e = self.entities[id].clone();
            for (slot, link) in &self.links[id] {
                let value = match link {
                    Link::One(n) => done[*n].clone().map_or(Value::Nil, Value::Obj),
                    Link::Components(parts) => Value::List(Arc::new(
                        parts
                            .iter()
                            .map(|p| match p {
                                Ok(n) => done[*n].clone().map_or(Value::Nil, Value::Obj),
                                Err(v) => v.clone(),
                            })
                            .collect(),
                    )),
                };
                let _ = e.set(*slot, value);
            }
            done[id] = Some(Arc::new(e));
        }
        done.into_iter().flatten().collect()
    }

    fn resolve_pieces(&self, pieces: &[Piece]) -> Vec<Unfolded> {
        if self.links.iter().all(Vec::is_empty) {
            return pieces
                .iter()
                .map(|p| Unfolded {
                    ingredient: self.entities[p.id].clone(),
                    hierarchy: p
                        .hierarchy
                        .iter()
                        .map(|&h| Arc::new(self.entities[h].clone()))
                        .collect(),
                })
                .collect();
        }
        let done = self.resolve_all();
        pieces
            .iter()
            .map(|p| Unfolded {
                ingredient: (*done[p.id]).clone(),
                hierarchy: p.hierarchy.iter().map(|&h| done[h].clone()).collect(),
            })
            .collect()
    }
}

/// One dish being unfolded: the nodes and entries found so far.
struct Unfolder<'u, 'm> {
    m: &'u Model,
    maker: &'u mut Maker<'m>,
    amounts: &'u Amounts,
    nodes: Nodes,
    pieces: Vec<Piece>,
}

impl Unfolder<'_, '_> {
    /// `unfold-mixture`: every component gets fraction × the mixture's amount (in the
    /// mixture's unit); nested mixtures recurse; additions of components are unfolded as they
    /// are, outside any hierarchy. Returns the mixture's node.
    fn mixture(
        &mut self,
        mixture: Entity,
        source: Option<Arc<Entity>>,
        parents: &[usize],
    ) -> Result<usize, SimError> {
        let m = self.m;
        let k = &m.k;
        let (total, _) = quantity_of(m, &mixture)?;
        let unit = mixture
            .val(k.amount)
            .as_obj()
            .map(|a| a.val(k.unit).clone())
            .unwrap_or(Value::Nil);
        // The list itself, shared: the node takes the mixture.
        let components = mixture.val(k.components).clone();
        let node = self.nodes.add(mixture, source);
        let mut hierarchy = parents.to_vec();
        hierarchy.push(node);
        let mut parts = Vec::with_capacity(components.items().len());
        for comp in components.items() {
            within_budget()?;
            let Value::Obj(source) = comp else {
                parts.push(Err(comp.clone()));
                continue;
            };
            let (fraction, _) = quantity_of(m, source)?;
            let mut c = (**source).clone();
            let amount = self.amounts.of(m, fraction.mul(total), unit.clone());
            let _ = c.set(k.amount, Value::obj(amount));
            let adds = additions(m, &c);
            let source = Some(Arc::clone(source));
            let host = if m.onto.is_a(c.class, k.mixture) {
                self.mixture(c, source, &hierarchy)?
            } else if m.onto.is_a(c.class, k.ingredient) {
                self.piece(c, source, hierarchy.clone())
            } else {
                parts.push(Err(Value::obj(c)));
                continue;
            };
            parts.push(Ok(host));
            for (slot, a) in adds {
                let Value::Obj(a) = a else { continue };
                let added = if m.onto.is_a(a.class, k.mixture) {
                    self.mixture((*a).clone(), Some(Arc::clone(&a)), &[])?
                } else if m.onto.is_a(a.class, k.ingredient) {
                    self.piece((*a).clone(), Some(Arc::clone(&a)), Vec::new())
                } else {
                    continue;
                };
                self.nodes.links[host].push((slot, Link::One(added)));
            }
        }
        self.nodes.links[node].push((k.components, Link::Components(parts)));
        Ok(node)
    }

    /// A base ingredient's node and its entry, under the mixtures `hierarchy`.
    fn piece(
        &mut self,
        ingredient: Entity,
        source: Option<Arc<Entity>>,
        hierarchy: Vec<usize>,
    ) -> usize {
        let id = self.nodes.add(ingredient, source);
        self.pieces.push(Piece { id, hierarchy });
        id
    }
}

/// Merge entries equal up to their amounts (and those of their mixtures) into the first one,
/// summing the amounts. The result is in reverse order; after a merge the remaining entries
/// are reversed too (SBCL's `set-difference` builds its result by pushing).
///
/// Each pass costs what the remaining entries cost: the entries of a dish of many portions
/// share their mixtures, so two mixtures are compared once (`Hierarchies`), and the merged
/// entries are dropped by a mark, not searched for.
///
/// `same` compares ignoring the amounts (the unfoldings of one scoring share it).
fn merge(
    m: &Model,
    nodes: &mut Nodes,
    mut rest: Vec<Piece>,
    same: &mut Similarity,
) -> Result<Vec<Piece>, SimError> {
    let mut hierarchies = Hierarchies::default();
    let mut merged: Vec<Piece> = Vec::new();
    while !rest.is_empty() {
        // One pass per entry left after the merges (a dish of thousands of distinct entries).
        within_budget()?;
        let item = rest.remove(0);
        let matching: Vec<bool> = rest
            .iter()
            .map(|other| {
                nodes.similar(item.id, other.id, same)
                    && item.hierarchy.len() == other.hierarchy.len()
                    && item
                        .hierarchy
                        .iter()
                        .zip(&other.hierarchy)
                        .all(|(&a, &b)| hierarchies.similar(nodes, a, b, same))
            })
            .collect();
        if matching.contains(&true) {
            let e = &nodes.entities;
            let mut sum = Number::ZERO;
            for (other, _) in rest.iter().zip(&matching).filter(|(_, hit)| **hit) {
                sum = sum.add(quantity_of(m, &e[other.id])?.0);
            }
            let value = quantity_of(m, &e[item.id])?.0.add(sum);
            set_amount_value(m, &mut nodes.entities[item.id], value);
            rest = rest
                .into_iter()
                .zip(matching)
                .filter(|(_, hit)| !hit)
                .map(|(u, _)| u)
                .rev()
                .collect();
        }
        merged.push(item);
    }
    merged.reverse();
    Ok(merged)
}

/// The similarity of two mixture nodes, each pair compared once: merging changes only the
/// amounts of the entries, which the comparison ignores at every depth, so the answer holds
/// for the whole merge. The objects the nodes hold are compared once each in `same` (the
/// portions of a dish share their mixtures' components).
#[derive(Default)]
struct Hierarchies {
    known: FxHashMap<(usize, usize), bool>,
}

impl Hierarchies {
    fn similar(&mut self, nodes: &Nodes, a: usize, b: usize, same: &mut Similarity) -> bool {
        *self
            .known
            .entry((a, b))
            .or_insert_with(|| nodes.similar(a, b, same))
    }
}

/// Overwrite the value of an ingredient's amount in place.
fn set_amount_value(m: &Model, e: &mut Entity, value: Number) {
    let k = &m.k;
    if let Some(Value::Obj(amount)) = e.get_mut(k.amount) {
        let amount = edit(amount);
        if let Some(Value::Obj(q)) = amount.get_mut(k.quantity) {
            let _ = edit(q).set(k.value, Value::Num(value));
        }
    }
}
