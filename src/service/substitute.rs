//! `substitute`: one ingredient for another in a network (`--replace butter=coconut-oil`),
//! run again and compared with the original by the evaluation's own metrics; or the
//! substitutes the role table proposes for an ingredient (`--suggest butter`), filtered by a
//! diet and, given a network, each tried in it.

use super::DataContext;
use super::golds::GoldSource;
use super::outcome::{AppError, Exit, Outcome};
use super::rewrite_run::{AnswerOutputs, Comparison, RerunFailure, held, held_grams, rerun};
use super::solution_file::read_solution_text;
use crate::base::budget::Budget;
use crate::data::diet_table::Diet;
use crate::data::substitute_roles::SubstituteRoles;
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
        rule: AmountRule,
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
    #[serde(flatten)]
    pub comparison: Comparison,
    /// What a cook should know beside the scores (a substitute the kitchen does not hold).
    pub notes: Vec<String>,
}

/// Replace `from` by `to` in recipe `recipe` (else the first) of `text` and compare the runs.
pub fn substitute_text(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
    replace: (&str, &str),
    rule: AmountRule,
    gold: &mut GoldSource<'_>,
) -> Result<SubstituteAnswer, RerunFailure> {
    let class = |name| {
        ingredient_class(&model.onto, name).map_err(|e| RerunFailure::Rewrite {
            message: e.to_string(),
            at: None,
        })
    };
    let s = Substitution {
        replace: class(replace.0)?,
        with: class(replace.1)?,
        rule,
    };
    let (run, ()) = rerun(model, text, recipe, gold, |original| {
        substitute(&model.onto, &model.catalogue, original, &s).map(|r| (r, ()))
    })?;
    let with = model.onto.class_name(s.with).to_owned();
    let notes = not_held_note(model, s.with).into_iter().collect();
    Ok(SubstituteAnswer {
        replace: model.onto.class_name(s.replace).to_owned(),
        with,
        amount_rule: rule,
        comparison: Comparison::of(&run),
        notes,
    })
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
    /// The network to try them in has errors: the first one's message.
    #[error("the network has errors: {0}")]
    Invalid(String),
    /// The network holds no such recipe, or the benchmark data cannot be used.
    #[error("{0}")]
    Network(String),
}

/// The classes sharing a role with `ingredient` in the role table, those `diet` excludes by
/// the diet table set apart, each tried in `network` (recipe `recipe` of a text) with `rule`
/// when one is given.
pub fn suggest(
    model: &Model,
    ingredient: &str,
    diet: Option<Diet>,
    network: Option<(&str, Option<&str>)>,
    rule: AmountRule,
    gold: &mut GoldSource<'_>,
) -> Result<Suggestions, SuggestError> {
    let class = ingredient_class(&model.onto, ingredient)?;
    let name = model.onto.class_name(class).to_owned();
    let table = SubstituteRoles::builtin();
    let mut candidates: Vec<(String, Vec<String>)> = Vec::new();
    for (role, entry) in table.roles_of(&name) {
        for other in entry.classes.iter().filter(|c| **c != name) {
            match candidates.iter_mut().find(|(c, _)| c == other) {
                Some((_, roles)) => roles.push(role.to_owned()),
                None => candidates.push((other.clone(), vec![role.to_owned()])),
            }
        }
    }
    if candidates.is_empty() {
        let roles: Vec<&str> = table.roles.keys().map(String::as_str).collect();
        return Err(SuggestError::NoRole {
            class: name,
            roles: roles.join(", "),
        });
    }
    let tags = Tags::new(&model.onto);
    let excluded = |class| diet.map_or(Vec::new(), |d| tags.excluded(class, d));
    let mut recipe = None;
    let mut out = Suggestions {
        ingredient: name.clone(),
        diet,
        ingredient_excluded_because: excluded(class),
        suggestions: Vec::new(),
        excluded: Vec::new(),
        recipe: None,
    };
    // Every try runs within one budget, the recipe's: past it, the rest are not tried.
    let budget = model.time_budget;
    let until = Instant::now().checked_add(budget);
    let spent = || until.is_some_and(|t| Instant::now() >= t);
    Budget::new(budget).run(|| {
        for (candidate, roles) in candidates {
            let Some(id) = model.onto.class_id(&candidate) else {
                continue;
            };
            let because = excluded(id);
            if !because.is_empty() {
                out.excluded.push(Excluded {
                    class: candidate,
                    because,
                });
                continue;
            }
            let tried = network.map(|(text, id_asked)| {
                if spent() {
                    return Ok(Tried::not_tried(budget));
                }
                let answer =
                    substitute_text(model, text, id_asked, (&name, &candidate), rule, &mut *gold);
                if let Ok(a) = &answer {
                    recipe = Some(a.comparison.recipe.clone());
                }
                Tried::of(answer)
            });
            out.suggestions.push(Suggestion {
                class: candidate,
                roles,
                in_kitchen: !held(model, id).is_empty(),
                in_kitchen_grams: held_grams(model, id).map(crate::report::figures::number),
                tried: tried.transpose()?,
            });
        }
        Ok::<_, SuggestError>(())
    })?;
    out.recipe = recipe;
    Ok(out)
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
                    error: a.comparison.failure.as_ref().map(|f| f.message.clone()),
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
            Err(RerunFailure::Invalid(d)) => Err(SuggestError::Invalid(
                d.first().map(|d| d.message.clone()).unwrap_or_default(),
            )),
            Err(RerunFailure::Recipe(e) | RerunFailure::Data(e)) => Err(SuggestError::Network(e)),
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
            let answer = suggest(
                &model,
                class,
                *diet,
                network,
                AmountRule::default(),
                &mut gold,
            );
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
                "  {} ({}; {held})",
                sug.class,
                sug.roles.join(", ")
            ));
            if let Some(t) = &sug.tried {
                s.push_str(&t.render());
            }
            s.push('\n');
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
