//! `substitute`: one ingredient for another in a network (`--replace butter=coconut-oil`),
//! run again and compared with the original by the evaluation's own metrics; or the
//! substitutes the role table proposes for an ingredient (`--suggest butter`), filtered by a
//! diet and, given a network, each tried in it.

use super::DataContext;
use super::golds::GoldSource;
use super::outcome::{AppError, Exit, Outcome};
use super::rewrite_run::{
    AnswerOutputs, Comparison, RerunFailure, fetched_class, held, held_grams, original_recipe,
    rerun,
};
use super::solution_file::read_solution_text;
use super::substitute_fit::{InRecipe, SetApart, Verdict, judge};
use crate::base::budget::Budget;
use crate::base::number::Number;
use crate::data::diet_table::Diet;
use crate::data::substitute_roles::SubstituteRoles;
use crate::language::diagnostic::Diagnostics;
use crate::metrics::diet::Tags;
use crate::report::figures::amount;
use crate::simulation::Model;
use crate::world::ontology::ClassId;
use crate::world::rewrite::substitution::{
    AmountRule, IngredientError, Substitution, ingredient_class, substitute,
};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What `substitute` is asked.
#[derive(Clone, Debug)]
pub enum SubstituteRequest {
    /// Replace one ingredient by another (`--replace FROM=TO`).
    Replace {
        from: String,
        to: String,
        /// `None`: the pair's default (`same-effect` where the role table gives the two
        /// different strengths, else `same-weight`).
        rule: Option<AmountRule>,
    },
    /// Propose substitutes (`--suggest CLASS [--diet NAME]`).
    Suggest { class: String, diet: Option<Diet> },
}

pub struct SubstituteOptions {
    /// The network (needed to replace; to suggest, each suggestion is tried in it).
    pub file: Option<PathBuf>,
    /// The recipe to use (default: the first in the file).
    pub recipe: Option<String>,
    pub data: DataContext,
    pub request: SubstituteRequest,
    pub outputs: AnswerOutputs,
}

/// A substitution made and run: `substitute`'s JSON, and what the tool server and the
/// Python package answer.
#[derive(Clone, Debug, Serialize)]
pub struct SubstituteAnswer {
    pub replace: String,
    pub with: String,
    pub amount_rule: AmountRule,
    /// The role of the role table that offers `with` in `replace`'s place (`None`: it offers
    /// it for none).
    pub role: Option<String>,
    /// Grams of `with` that do the work of one gram of `replace` (`"1/3"`), by the role table.
    pub strength_factor: Option<String>,
    /// Whether `with` fits the recipe's use of `replace` by the role table (`None`: no role).
    pub fit: Option<bool>,
    /// Why it does not fit.
    pub why_not: Option<String>,
    #[serde(flatten)]
    pub comparison: Comparison,
    /// What a cook should know beside the scores (a substitute the kitchen does not hold,
    /// what else the swap needs).
    pub notes: Vec<String>,
}

/// Replace `from` by `to` in recipe `recipe` (else the first) of `text` and compare the runs;
/// amounts by `rule`, else by the pair's default rule.
pub fn substitute_text(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
    replace: (&str, &str),
    rule: Option<AmountRule>,
    gold: &mut GoldSource<'_>,
) -> Result<SubstituteAnswer, RerunFailure> {
    let class = |name| {
        ingredient_class(&model.onto, name).map_err(|e| RerunFailure::Rewrite {
            message: e.to_string(),
            at: None,
        })
    };
    let (from, to) = (class(replace.0)?, class(replace.1)?);
    let (run, (verdict, rule)) = rerun(model, text, recipe, gold, |original| {
        let verdict = judge(
            model,
            from,
            to,
            Some(InRecipe {
                recipe: original,
                text,
            }),
        );
        let rule = rule.unwrap_or_else(|| verdict.default_rule());
        let s = Substitution {
            strength_factor: verdict.strength_factor.unwrap_or(Number::int(1)),
            weighed_as: fetched_class(model, from),
            ..Substitution::new(from, to, rule)
        };
        substitute(&model.onto, &model.catalogue, original, &s).map(|r| (r, (verdict, rule)))
    })?;
    let notes = swap_notes(model, to, &verdict);
    Ok(SubstituteAnswer {
        replace: model.onto.class_name(from).to_owned(),
        with: model.onto.class_name(to).to_owned(),
        amount_rule: rule,
        strength_factor: verdict.factor_text(),
        role: verdict.role,
        fit: verdict.fit,
        why_not: verdict.why_not,
        comparison: Comparison::of(&run),
        notes,
    })
}

/// What a cook should know of swapping in `class`: whether the kitchen holds it, then the
/// role table's notes on the pair.
fn swap_notes(model: &Model, class: ClassId, verdict: &Verdict) -> Vec<String> {
    let held = not_held_note(model, class);
    held.into_iter()
        .chain(verdict.notes.iter().cloned())
        .collect()
}

/// What a cook should know of a substitute the kitchen holds none of itself: fetching it
/// fails, unless it is an abstract class (`oil`) of which the kitchen holds subclasses, which
/// fetching finds in its place (an object whose class is a subclass is one of the class).
fn not_held_note(model: &Model, class: ClassId) -> Option<String> {
    if !held(model, class).is_empty() {
        return None;
    }
    let name = model.onto.class_name(class);
    let mut below: Vec<&str> = model
        .onto
        .classes()
        .filter(|&(c, _)| c != class && model.onto.is_a(c, class) && !held(model, c).is_empty())
        .map(|(c, _)| model.onto.class_name(c))
        .collect();
    below.sort_unstable();
    Some(if below.is_empty() {
        format!("the kitchen holds no {name}: fetching it fails, and so does every action using it")
    } else {
        format!(
            "{name} is an abstract class: the kitchen holds none of it as such, so fetching it takes the first object of a subclass it finds; the subclasses the kitchen holds: {} (replace by one to choose)",
            below.join(", ")
        )
    })
}

/// One proposed substitute.
#[derive(Clone, Debug, Serialize)]
pub struct Suggestion {
    pub class: String,
    /// The roles it shares with the ingredient replaced.
    pub roles: Vec<String>,
    /// The role that offers it in the ingredient's place.
    pub role: String,
    /// Grams of it that do the work of one gram of the ingredient (`"1/3"`).
    pub strength_factor: String,
    /// How its amount follows from the ingredient's (`same-effect` where the strengths differ).
    pub amount_rule: AmountRule,
    /// Whether it fits the recipe's use of the ingredient (always, without a network).
    pub fit: bool,
    /// Why it does not fit (then it is listed under `unfit`).
    pub why_not: Option<String>,
    /// What kind of reason sets it apart: `use` (the role table's word on the recipe's use),
    /// `kitchen-model` (the ontology does not let it undergo what the recipe does), `amount`
    /// (no conversion of the amount) or `run` (tried, an action of the recipe fails).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_apart: Option<SetApart>,
    /// What a cook should know of the swap.
    pub notes: Vec<String>,
    /// Whether the kitchen holds it (fetching it fails otherwise).
    pub in_kitchen: bool,
    /// Grams of it the kitchen holds, where the gram table weighs every amount of it.
    pub in_kitchen_grams: Option<serde_json::Value>,
    /// It tried in the network, when one was given (`None`: not tried).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tried: Option<Tried>,
}

/// How a suggestion did in the network: executes, and its scores against the original.
#[derive(Clone, Debug, Serialize)]
pub struct Tried {
    pub executes: bool,
    pub goal_condition_success: Option<f64>,
    pub dish_approximation_score: Option<f32>,
    pub execution_time: Option<serde_json::Value>,
    /// Why it could not be tried (an amount without grams), or where it fails as the
    /// reference's evaluator fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A class the diet excludes, and why: its tags the diet excludes (`kitchens/diet.json`).
#[derive(Clone, Debug, Serialize)]
pub struct Excluded {
    pub class: String,
    pub because: Vec<String>,
}

/// The substitutes of an ingredient: `substitute --suggest`'s JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Suggestions {
    pub ingredient: String,
    pub diet: Option<Diet>,
    /// The ingredient's own tags the diet excludes; empty when it keeps it (or no diet).
    pub ingredient_excluded_because: Vec<String>,
    pub suggestions: Vec<Suggestion>,
    /// Substitutes the role table sets apart for the recipe's use of the ingredient, each
    /// with `why_not` (not tried).
    pub unfit: Vec<Suggestion>,
    /// Classes of the same roles the diet excludes.
    pub excluded: Vec<Excluded>,
    /// The recipe the suggestions were tried in, when a network was given.
    pub recipe: Option<String>,
}

/// Why no substitutes were suggested.
#[derive(Debug, thiserror::Error)]
pub enum SuggestError {
    #[error(transparent)]
    Ingredient(#[from] IngredientError),
    /// The role table gives the class no role; its roles, listed.
    #[error(
        "the role table (kitchens/substitutes.json) gives {class} no role, so no substitute; its roles: {roles}"
    )]
    NoRole { class: String, roles: String },
    /// The role table offers nothing in the class's place, and says why.
    #[error("the role table (kitchens/substitutes.json) offers no substitute for {class}: {why}")]
    NoSubstitute { class: String, why: String },
    /// The network to try them in has errors: the first one's message.
    #[error("the network has errors: {0}")]
    Invalid(String),
    /// The network holds no such recipe, or the benchmark data cannot be used.
    #[error("{0}")]
    Network(String),
}

/// The classes the role table offers in `ingredient`'s place, those `diet` excludes by the
/// diet table set apart, and, given `network` (recipe `recipe` of a text), those unfit for
/// its use of the ingredient set apart with why, and each other tried in it with `rule` (else
/// each pair's default rule).
pub fn suggest(
    model: &Model,
    ingredient: &str,
    diet: Option<Diet>,
    network: Option<(&str, Option<&str>)>,
    rule: Option<AmountRule>,
    gold: &mut GoldSource<'_>,
) -> Result<Suggestions, SuggestError> {
    let class = ingredient_class(&model.onto, ingredient)?;
    let name = model.onto.class_name(class).to_owned();
    let table = SubstituteRoles::builtin();
    let offers = table.offers(&name);
    if offers.is_empty() {
        return Err(match table.why_none(&name) {
            Some(why) => SuggestError::NoSubstitute { class: name, why },
            None => SuggestError::NoRole {
                class: name,
                roles: table
                    .roles
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
            },
        });
    }
    let original = network
        .map(|(text, id)| original_recipe(model, text, id).map(|r| (r, text)))
        .transpose()
        .map_err(SuggestError::refused)?;
    let in_recipe = original
        .as_ref()
        .map(|(recipe, text)| InRecipe { recipe, text });
    let tags = Tags::new(&model.onto);
    let excluded = |class| diet.map_or(Vec::new(), |d| tags.excluded(class, d));
    let mut out = Suggestions {
        ingredient: name.clone(),
        diet,
        ingredient_excluded_because: excluded(class),
        suggestions: Vec::new(),
        unfit: Vec::new(),
        excluded: Vec::new(),
        recipe: original.as_ref().map(|(r, _)| r.id.clone()),
    };
    // Every try runs within one budget, the recipe's: past it, the rest are not tried.
    let budget = model.time_budget;
    let until = Instant::now().checked_add(budget);
    let spent = || until.is_some_and(|t| Instant::now() >= t);
    Budget::new(budget).run(|| {
        for offer in &offers {
            let candidate = offer.offered.class.as_str();
            let Some(id) = model.onto.class_id(candidate) else {
                continue;
            };
            let because = excluded(id);
            if !because.is_empty() {
                out.excluded.push(Excluded {
                    class: candidate.to_owned(),
                    because,
                });
                continue;
            }
            let mut verdict = judge(model, class, id, in_recipe);
            let fit = verdict.fit != Some(false);
            let tried = network.filter(|_| fit).map(|(text, id_asked)| {
                if spent() {
                    return Ok(Tried::not_tried(budget));
                }
                let answer =
                    substitute_text(model, text, id_asked, (&name, candidate), rule, &mut *gold);
                // A run stopped by the time budget says nothing of the substitute.
                if let Some((kind, why)) = failure_of(&answer).filter(|_| !spent()) {
                    verdict.failed(candidate, kind, why);
                }
                Tried::of(answer)
            });
            let suggestion = Suggestion::of(model, &name, id, &verdict, rule, tried.transpose()?);
            if suggestion.fit {
                out.suggestions.push(suggestion);
            } else {
                out.unfit.push(suggestion);
            }
        }
        Ok::<_, SuggestError>(())
    })?;
    Ok(out)
}

/// Why a substitute tried in the recipe fails there, and of what kind (after "the recipe"):
/// its amount cannot be converted, or an action of the rewritten network fails; `None` where
/// it runs, or where the network itself cannot be read or run (the call's error).
fn failure_of(answer: &Result<SubstituteAnswer, RerunFailure>) -> Option<(SetApart, String)> {
    let fails = |what: String| Some((SetApart::Run, format!("with it does not run: {what}")));
    match answer {
        Ok(a) => {
            let c = &a.comparison;
            match (&c.failure, c.failed_actions.first()) {
                (Some(f), _) => fails(format!("the reference's evaluator fails at {}", f.words())),
                (None, _) if c.executes => None,
                (None, Some(f)) => fails(f.words()),
                (None, None) => fails("it makes no dish".into()),
            }
        }
        Err(RerunFailure::Rewrite { message, .. }) => Some((
            SetApart::Amount,
            format!("gives an amount that cannot be converted: {message}"),
        )),
        Err(RerunFailure::RewriteInvalid { diagnostics, .. }) => fails(
            diagnostics
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_default(),
        ),
        Err(RerunFailure::Failed(e)) => fails(e.words()),
        Err(_) => None,
    }
}

impl Suggestion {
    /// Class `id` offered in `ingredient`'s place, as the verdict says, tried or not.
    fn of(
        model: &Model,
        ingredient: &str,
        id: ClassId,
        verdict: &Verdict,
        rule: Option<AmountRule>,
        tried: Option<Tried>,
    ) -> Suggestion {
        let class = model.onto.class_name(id).to_owned();
        let table = SubstituteRoles::builtin();
        let roles: Vec<String> = table
            .roles_of(ingredient)
            .filter(|(_, role)| role.member(&class).is_some())
            .map(|(name, _)| name.to_owned())
            .collect();
        Suggestion {
            roles,
            role: verdict.role.clone().unwrap_or_default(),
            strength_factor: verdict.factor_text().unwrap_or_else(|| "1".into()),
            amount_rule: rule.unwrap_or_else(|| verdict.default_rule()),
            fit: verdict.fit != Some(false),
            why_not: verdict.why_not.clone(),
            set_apart: verdict.set_apart,
            notes: swap_notes(model, id, verdict),
            in_kitchen: !held(model, id).is_empty(),
            in_kitchen_grams: held_grams(model, id).map(crate::report::figures::number),
            tried,
            class,
        }
    }
}

impl Tried {
    /// A suggestion left untried: the tries before it spent the recipe's time budget.
    fn not_tried(budget: Duration) -> Tried {
        Tried::failed(format!(
            "not tried: the time budget of {} s (--timeout-per-recipe) was spent on the substitutes before it",
            budget.as_secs_f64()
        ))
    }

    /// A suggestion that could not be tried, and why.
    fn failed(error: String) -> Tried {
        Tried {
            executes: false,
            goal_condition_success: None,
            dish_approximation_score: None,
            execution_time: None,
            error: Some(error),
        }
    }

    /// A suggestion's run; a network that cannot be read at all is the call's error.
    fn of(answer: Result<SubstituteAnswer, RerunFailure>) -> Result<Tried, SuggestError> {
        let failed = Tried::failed;
        match answer {
            Ok(a) => {
                let r = &a.comparison.against_original;
                Ok(Tried {
                    executes: a.comparison.executes,
                    goal_condition_success: r.goal_condition_success.as_ref().map(|g| g.value),
                    dish_approximation_score: r.dish_approximation_score,
                    execution_time: r.execution_time.clone(),
                    error: (a.comparison.failure.as_ref().map(|f| f.message.clone()))
                        .or_else(|| a.comparison.failed_actions.first().map(|f| f.words())),
                })
            }
            Err(RerunFailure::Rewrite { message, .. }) => Ok(failed(message)),
            Err(RerunFailure::Failed(e)) => Ok(failed(e.message)),
            Err(RerunFailure::RewriteInvalid { diagnostics, .. }) => Ok(failed(
                diagnostics
                    .first()
                    .map(|d| d.message.clone())
                    .unwrap_or_default(),
            )),
            Err(other) => Err(SuggestError::refused(other)),
        }
    }
}

impl SuggestError {
    /// A network that cannot be read or run at all: the call's error.
    fn refused(failure: RerunFailure) -> SuggestError {
        let first = |d: &Diagnostics| d.first().map(|d| d.message.clone()).unwrap_or_default();
        match failure {
            RerunFailure::Invalid(d) => SuggestError::Invalid(first(&d)),
            RerunFailure::RewriteInvalid { diagnostics, .. } => {
                SuggestError::Invalid(first(&diagnostics))
            }
            RerunFailure::Recipe(e) | RerunFailure::Data(e) => SuggestError::Network(e),
            RerunFailure::Rewrite { message, .. } => SuggestError::Network(message),
            RerunFailure::Failed(e) => SuggestError::Network(e.message),
        }
    }
}

/// Run the command: the answer on `out` (or `-o`), problems on `err`. Exit codes: 0 done (a
/// substitution that does not execute is an answer too), 1 the request or the network cannot
/// be used as asked (errors, an unknown or absent ingredient, a crash), 2 a file or the data
/// cannot be used.
pub fn run(opts: &SubstituteOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    opts.outputs
        .refuse_overwriting(opts.file.as_deref(), &opts.data)?;
    let text = opts.file.as_deref().map(read_solution_text).transpose()?;
    let (model, _) = super::load_model(&opts.data)?;
    let name = opts
        .file
        .as_ref()
        .map(|f| f.display().to_string())
        .unwrap_or_default();
    let mut once = super::simulate::GoldOnce::default();
    let mut gold = |id: &str| once.get(&opts.data, id, err);
    match &opts.request {
        SubstituteRequest::Replace { from, to, rule } => {
            let Some(text) = text else {
                return Err(AppError::Failed(
                    "--replace needs a network to substitute in".into(),
                ));
            };
            let answer = match substitute_text(
                &model,
                &text,
                opts.recipe.as_deref(),
                (from, to),
                *rule,
                &mut gold,
            ) {
                Ok(answer) => answer,
                Err(failure) => {
                    return super::rewrite_run::report_failure(&name, &text, failure, err);
                }
            };
            let network = Some(answer.comparison.network.as_str());
            opts.outputs
                .write(&answer, SubstituteAnswer::render, network, out)?;
            Ok(Exit::Success)
        }
        SubstituteRequest::Suggest { class, diet } => {
            let network = text.as_deref().map(|t| (t, opts.recipe.as_deref()));
            let answer = suggest(&model, class, *diet, network, None, &mut gold);
            let answer = match answer {
                Ok(answer) => answer,
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    return Ok(Exit::Failed);
                }
            };
            opts.outputs
                .write(&answer, Suggestions::render, None, out)?;
            Ok(Exit::Success)
        }
    }
}

impl SubstituteAnswer {
    /// The answer for people.
    pub fn render(&self) -> String {
        let mut s = format!(
            "{}: {} replaced by {} ({})\n",
            self.comparison.recipe,
            self.replace,
            self.with,
            self.amount_rule.name()
        );
        if let (Some(role), Some(factor)) = (&self.role, &self.strength_factor) {
            s.push_str(&format!(
                "role: {role}; strength factor {factor} (grams of {} for a gram of {})\n",
                self.with, self.replace
            ));
        }
        if let Some(why) = &self.why_not {
            s.push_str(&format!("unfit: {why}\n"));
        }
        self.comparison.render_into(&mut s, "substituted");
        for note in &self.notes {
            s.push_str(&format!("note: {note}\n"));
        }
        s
    }
}

impl Suggestions {
    /// The suggestions for people.
    pub fn render(&self) -> String {
        let diet = self
            .diet
            .map(|d| format!(" ({})", d.name()))
            .unwrap_or_default();
        let mut s = format!("Substitutes for {}{diet}", self.ingredient);
        match &self.recipe {
            Some(recipe) => s.push_str(&format!(", tried in {recipe} against the original:\n")),
            None => s.push_str(":\n"),
        }
        if self.suggestions.is_empty() {
            s.push_str("  none\n");
        }
        for sug in &self.suggestions {
            let held = match (&sug.in_kitchen_grams, sug.in_kitchen) {
                (Some(g), _) => format!("the kitchen holds {}", amount(g, "g")),
                (None, true) => "in the kitchen".to_owned(),
                (None, false) => "the kitchen holds none".to_owned(),
            };
            s.push_str(&format!(
                "  {} ({}; strength factor {}, {}; {held})",
                sug.class,
                sug.role,
                sug.strength_factor,
                sug.amount_rule.name()
            ));
            if let Some(t) = &sug.tried {
                s.push_str(&t.render());
            }
            s.push('\n');
            for note in &sug.notes {
                s.push_str(&format!("    note: {note}\n"));
            }
        }
        for sug in &self.unfit {
            s.push_str(&format!(
                "  unfit: {} ({})\n",
                sug.class,
                sug.why_not.as_deref().unwrap_or_default()
            ));
        }
        if let Some(diet) = self
            .diet
            .filter(|_| !self.ingredient_excluded_because.is_empty())
        {
            s.push_str(&format!(
                "{} is not {}: {}\n",
                self.ingredient,
                diet.name(),
                self.ingredient_excluded_because.join(", ")
            ));
        }
        for e in &self.excluded {
            s.push_str(&format!(
                "  excluded: {} ({})\n",
                e.class,
                e.because.join(", ")
            ));
        }
        s
    }
}

impl Tried {
    fn render(&self) -> String {
        if let Some(error) = &self.error {
            return format!(": fails ({error})");
        }
        let two = |x: Option<f32>| {
            x.map(|v| crate::base::number::round_decimal_str(v, 2))
                .unwrap_or_else(|| "NIL".into())
        };
        let time = self
            .execution_time
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_else(|| "NIL".into());
        format!(
            ": {}; dish {}, goals {}, time {time}",
            if self.executes {
                "executes"
            } else {
                "does not execute"
            },
            two(self.dish_approximation_score),
            two(self.goal_condition_success.map(|g| g as f32)),
        )
    }
}
