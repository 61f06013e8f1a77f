//! `scale`: every ingredient amount of a network times a factor (`--factor 1.5`, or
//! `--servings N --serves M`), run again and compared with the original: the evaluation's
//! metrics against the original's run, the dish's proportions ingredient by ingredient, the
//! counts a cook rounds, and what the kitchen model says no longer fits.

use super::DataContext;
use super::golds::GoldSource;
use super::outcome::{Exit, Outcome};
use super::rewrite_run::{AnswerOutputs, Comparison, Rerun, RerunFailure, held_grams, rerun};
use super::solution_file::read_solution_text;
use crate::base::number::{Number, decimal};
use crate::language::ast::Recipe;
use crate::language::diagnostic::line_cols;
use crate::metrics::dish::unfold_dish;
use crate::metrics::primary_output;
use crate::report::figures::{amount, number};
use crate::simulation::{Execution, Model};
use crate::world::ontology::ClassId;
use crate::world::rewrite::scaling::{Factor, Rounding, scale};
use crate::world::rewrite::taken_from_kitchen;
use serde::Serialize;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// What the kitchen model says of capacities: nothing refuses a bowl, a tray or an oven for
/// size, so the answer names what it can measure instead.
pub const NO_CAPACITIES: &str = "the kitchen model gives bowls, trays and ovens no capacity: nothing is refused for size, so only the kitchen's stock and the portions cut are reported";

/// The relative difference under which two gram amounts where a single float entered count as
/// equal: mixtures of float amounts are split and summed in single floats (portions are cut by
/// repeated subtraction), which drifts by up to about 1e-5 of an amount on the benchmark.
const FLOAT_TOLERANCE: f64 = 1e-4;

pub struct ScaleOptions {
    pub file: PathBuf,
    /// The recipe to use (default: the first in the file).
    pub recipe: Option<String>,
    pub data: DataContext,
    pub factor: Factor,
    pub outputs: AnswerOutputs,
}

/// A network scaled and run: `scale`'s JSON, and what the tool server and the Python package
/// answer.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleAnswer {
    /// The factor, exactly (`3/2`).
    pub factor: String,
    pub factor_value: f64,
    #[serde(flatten)]
    pub comparison: Comparison,
    /// Each base ingredient of the dish, original and scaled, in the original dish's order.
    pub proportions: Vec<Proportion>,
    /// Whether the scaled network executes and every base ingredient of the dish is scaled by
    /// the factor or by a rounded count's own; `None` when the original's dish holds no base
    /// ingredients (a failed object, a container of tools), so there is nothing to compare.
    pub proportions_preserved: Option<bool>,
    /// The counts rounded as a cook rounds them.
    pub rounding: Vec<RoundedCount>,
    pub capacity: Capacity,
}

/// One base ingredient of the dish (the dish unfolded as the dish approximation score unfolds
/// it, grams summed by class).
#[derive(Clone, Debug, Serialize)]
pub struct Proportion {
    pub ingredient: String,
    pub original_grams: Value,
    /// `None` when the scaled dish has none of it.
    pub scaled_grams: Option<Value>,
    /// Scaled grams over original grams.
    pub ratio: Option<f64>,
    /// Its share of the dish's weight, original and scaled.
    pub original_share: f64,
    pub scaled_share: Option<f64>,
    /// Whether it is scaled, not by the factor, but by the effective factor of a rounded count
    /// (an egg rounded up, and the whole egg or yolk made of it).
    pub rounded: bool,
    /// Whether it is scaled by the factor: exactly, or within 1e-4 of its amount where a
    /// single float entered.
    pub preserved: bool,
    /// The dish approximation score's points for it in the scaled dish against the original
    /// (the amount differs by design), when matched.
    pub dish_score: Option<f32>,
}

/// A counted amount rounded as a cook rounds it.
#[derive(Clone, Debug, Serialize)]
pub struct RoundedCount {
    /// 1-based position of the action, and its line in the original text.
    pub action: usize,
    pub line: usize,
    pub ingredient: Option<String>,
    pub unit: String,
    pub original: Value,
    pub exact: Value,
    pub rounded: Value,
    /// The factor this amount was really scaled by.
    pub effective_factor: String,
}

/// What no longer fits, as far as the kitchen model says.
#[derive(Clone, Debug, Serialize)]
pub struct Capacity {
    pub note: &'static str,
    /// Ingredients the scaled network takes more of than the kitchen holds (the simulator,
    /// like the reference, takes them anyway).
    pub beyond_stock: Vec<Stock>,
    /// The portions each portion-cutting action makes, original and scaled.
    pub portions: Vec<Portions>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Stock {
    pub ingredient: String,
    pub kitchen_grams: Value,
    pub original_grams: Value,
    pub scaled_grams: Value,
}

#[derive(Clone, Debug, Serialize)]
pub struct Portions {
    pub action: usize,
    pub original: usize,
    pub scaled: Option<usize>,
}

/// Scale recipe `recipe` (else the first) of `text` by `factor` and compare the runs.
pub fn scale_text(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
    factor: Factor,
    gold: &mut GoldSource<'_>,
) -> Result<ScaleAnswer, RerunFailure> {
    let (run, rounding) = rerun(model, text, recipe, gold, |original| {
        let scaled = scale(&model.onto, &model.catalogue, original, factor);
        Ok((scaled.rewrite, scaled.rounding))
    })?;
    let proportions = proportions(model, &run, factor, &rounding)
        .map_err(|e| RerunFailure::Failed(super::rewrite_run::unlocated(e)))?;
    let proportions_preserved = (!proportions.is_empty())
        .then(|| run.executes() && proportions.iter().all(|p| p.preserved || p.rounded));
    Ok(ScaleAnswer {
        factor: factor.to_string(),
        factor_value: factor.value().to_f64(),
        proportions,
        proportions_preserved,
        rounding: rounded_counts(text, &run, &rounding),
        capacity: capacity(model, &run),
        comparison: Comparison::of(&run),
    })
}

/// The dish's base ingredients before and after, by class: the output of the original's dish
/// action in both runs (actions keep their places in a rewrite).
fn proportions(
    model: &Model,
    run: &Rerun,
    factor: Factor,
    rounding: &[Rounding],
) -> Result<Vec<Proportion>, String> {
    let Some(original_step) = run.original.output_step else {
        return Ok(Vec::new());
    };
    let original = dish_grams(model, &run.original.execution, original_step)?;
    let dish_action = run.original.execution.steps[original_step].predicate;
    let scaled_step = run
        .rewritten
        .as_ref()
        .filter(|e| e.solved)
        .and_then(|e| Some((e, e.steps.iter().position(|s| s.predicate == dish_action)?)));
    let scaled = match scaled_step {
        Some((exec, step)) => dish_grams(model, exec, step)?,
        None => Vec::new(),
    };
    let total = |dish: &[(String, Number)]| dish.iter().map(|(_, g)| g.to_f64()).sum::<f64>();
    let (original_total, scaled_total) = (total(&original), total(&scaled));
    let detail = run.against_original.detail.as_ref();
    let compared = detail
        .and_then(|d| d.dish.scored.iter().find(|n| n.predicate == dish_action))
        .and_then(|n| n.detail.as_ref());
    let effective: Vec<Number> = rounding.iter().map(Rounding::effective_factor).collect();
    Ok(original
        .iter()
        .map(|(class, grams)| {
            let after = scaled.iter().find(|(c, _)| c == class).map(|(_, g)| *g);
            let preserved = after.is_some_and(|a| scaled_by(*grams, a, factor.value()));
            let rounded = !preserved
                && after.is_some_and(|a| effective.iter().any(|f| scaled_by(*grams, a, *f)));
            Proportion {
                ingredient: class.clone(),
                original_grams: number(*grams),
                scaled_grams: after.map(number),
                ratio: after.map(|a| a.to_f64() / grams.to_f64()),
                original_share: grams.to_f64() / original_total,
                scaled_share: after.map(|a| a.to_f64() / scaled_total),
                rounded,
                preserved,
                dish_score: compared
                    .and_then(|d| d.matched.iter().find(|m| m.class == *class))
                    .map(|m| m.score),
            }
        })
        .collect())
}

/// Whether `after` is `before` times `factor`: exactly for exact amounts, within single-float
/// rounding where a float entered.
fn scaled_by(before: Number, after: Number, factor: Number) -> bool {
    let expected = before.mul(factor);
    if !expected.is_float() && !after.is_float() {
        return expected.num_eq(&after);
    }
    let (e, a) = (expected.to_f64(), after.to_f64());
    (e - a).abs() <= FLOAT_TOLERANCE * e.abs().max(a.abs())
}

/// The dish made by step `step`, unfolded into base ingredients, grams summed by class in
/// first-appearance order.
fn dish_grams(
    model: &Model,
    exec: &Execution,
    step: usize,
) -> Result<Vec<(String, Number)>, String> {
    let Some(dish) = primary_output(exec, step).as_obj() else {
        return Ok(Vec::new());
    };
    let mut maker = model.maker();
    let unfolded = unfold_dish(model, &mut maker, dish).map_err(|e| e.message)?;
    let mut out: Vec<(String, Number)> = Vec::new();
    for u in unfolded {
        let grams = crate::simulation::primitives::common::quantity_of(model, &u.ingredient)
            .map_err(|e| e.message)?
            .0;
        let class = model.onto.class_name(u.ingredient.class);
        match out.iter_mut().find(|(c, _)| c == class) {
            Some((_, sum)) => *sum = sum.add(grams),
            None => out.push((class.to_owned(), grams)),
        }
    }
    Ok(out)
}

fn rounded_counts(text: &str, run: &Rerun, rounding: &[Rounding]) -> Vec<RoundedCount> {
    let starts = rounding
        .iter()
        .map(|r| run.original.recipe.predicates[r.predicate].span.start);
    rounding
        .iter()
        .zip(line_cols(text, starts))
        .map(|(r, (line, _))| RoundedCount {
            action: r.predicate + 1,
            line,
            ingredient: r.ingredient.clone(),
            unit: r.unit.clone(),
            original: number(r.original),
            exact: number(r.exact),
            rounded: number(r.rounded),
            effective_factor: r.effective_factor().to_string(),
        })
        .collect()
}

/// The kitchen's stock against what the scaled network takes, and the portions cut.
fn capacity(model: &Model, run: &Rerun) -> Capacity {
    let taken = |recipe| taken_from_kitchen(&model.onto, &model.catalogue, recipe);
    let before = taken(&run.original.recipe);
    let beyond_stock = taken(&run.rewritten_recipe)
        .into_iter()
        .filter_map(|(class, scaled): (ClassId, Number)| {
            let held = held_grams(model, class)?;
            if scaled.num_cmp(&held).is_le() {
                return None;
            }
            let original = before.iter().find(|(c, _)| *c == class)?.1;
            Some(Stock {
                ingredient: model.onto.class_name(class).to_owned(),
                kitchen_grams: number(held),
                original_grams: number(original),
                scaled_grams: number(scaled),
            })
        })
        .collect();
    let scaled_portions = run
        .rewritten
        .as_ref()
        .map(|exec| portions(model, &run.rewritten_recipe, exec))
        .unwrap_or_default();
    let portions = portions(model, &run.original.recipe, &run.original.execution)
        .into_iter()
        .map(|(predicate, original)| Portions {
            action: predicate + 1,
            original,
            scaled: scaled_portions
                .iter()
                .find(|(p, _)| *p == predicate)
                .map(|(_, n)| *n),
        })
        .collect();
    Capacity {
        note: NO_CAPACITIES,
        beyond_stock,
        portions,
    }
}

/// The portions each executed `portion-and-arrange` of `recipe` cut: (action, count).
fn portions(model: &Model, recipe: &Recipe, exec: &Execution) -> Vec<(usize, usize)> {
    let k = &model.k;
    exec.steps
        .iter()
        .enumerate()
        .filter(|(_, s)| recipe.predicates[s.predicate].name == "portion-and-arrange")
        .filter_map(|(i, s)| {
            let made = primary_output(exec, i).as_obj()?;
            let slot = if made.has(k.items) {
                k.items
            } else {
                k.contents
            };
            Some((s.predicate, made.val(slot).items().len()))
        })
        .collect()
}

/// Run the command: the answer on `out` (or `-o`), problems on `err`. Exit codes: 0 done (a
/// scaled network that does not execute is an answer too), 1 the network cannot be scaled or
/// run as asked, 2 a file or the data cannot be used.
pub fn run(opts: &ScaleOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    opts.outputs
        .refuse_overwriting(Some(&opts.file), &opts.data)?;
    let text = read_solution_text(&opts.file)?;
    let (model, _) = super::load_model(&opts.data)?;
    let name = opts.file.display().to_string();
    let mut once = super::simulate::GoldOnce::default();
    let mut gold = |id: &str| once.get(&opts.data, id, err);
    let answer = match scale_text(
        &model,
        &text,
        opts.recipe.as_deref(),
        opts.factor,
        &mut gold,
    ) {
        Ok(answer) => answer,
        Err(failure) => return super::rewrite_run::report_failure(&name, &text, failure, err),
    };
    let network = Some(answer.comparison.network.as_str());
    opts.outputs
        .write(&answer, ScaleAnswer::render, network, out)?;
    Ok(Exit::Success)
}

impl ScaleAnswer {
    /// The answer for people.
    pub fn render(&self) -> String {
        let mut s = format!(
            "{} scaled by {}\n",
            self.comparison.recipe,
            decimal(self.factor_value)
        );
        self.comparison.render_into(&mut s, "scaled");
        if !self.proportions.is_empty() {
            s.push_str("The dish, grams original → scaled (share of the dish):\n");
        }
        for p in &self.proportions {
            let scaled = p
                .scaled_grams
                .as_ref()
                .map_or_else(|| "none".into(), |g| amount(g, "g"));
            let share = |x: f64| format!("{:.1} %", 100.0 * x);
            let mark = match (p.preserved, p.rounded) {
                (true, _) => "",
                (false, true) => "  (a rounded count)",
                (false, false) => "  (not scaled by the factor)",
            };
            s.push_str(&format!(
                "  {}: {} → {scaled} ({} → {}){mark}\n",
                p.ingredient,
                amount(&p.original_grams, "g"),
                share(p.original_share),
                p.scaled_share.map(share).unwrap_or_else(|| "none".into()),
            ));
        }
        s.push_str(match self.proportions_preserved {
            Some(true) => "Every proportion of the dish is kept.\n",
            Some(false) => "Not every proportion of the dish is kept.\n",
            None => "The original's dish holds no base ingredients to compare.\n",
        });
        for r in &self.rounding {
            s.push_str(&format!(
                "Rounded: action {} (line {}): {} {} × {} = {} → {} (× {})\n",
                r.action,
                r.line,
                amount(&r.original, &r.unit),
                r.ingredient.as_deref().unwrap_or("of it"),
                decimal(self.factor_value),
                amount(&r.exact, &r.unit),
                amount(&r.rounded, &r.unit),
                decimal(ratio(&r.rounded, &r.original))
            ));
        }
        s.push_str(&format!("Capacity: {}.\n", self.capacity.note));
        for p in &self.capacity.portions {
            let scaled = p
                .scaled
                .map(|n| n.to_string())
                .unwrap_or_else(|| "none".into());
            s.push_str(&format!(
                "  portions of action {}: {} → {scaled}\n",
                p.action, p.original
            ));
        }
        for b in &self.capacity.beyond_stock {
            s.push_str(&format!(
                "  beyond the kitchen's stock: {}: the kitchen holds {}, the scaled network takes {} (the original {}); the simulator takes it anyway\n",
                b.ingredient,
                amount(&b.kitchen_grams, "g"),
                amount(&b.scaled_grams, "g"),
                amount(&b.original_grams, "g")
            ));
        }
        s
    }
}

/// `a / b` of two JSON numbers, for people (0 where either is none).
fn ratio(a: &Value, b: &Value) -> f64 {
    match (a.as_f64(), b.as_f64()) {
        (Some(a), Some(b)) if b != 0.0 => a / b,
        _ => 0.0,
    }
}
