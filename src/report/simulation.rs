//! What one simulated run of a network did, for people (`simulate`) and as JSON
//! (`simulate --json`): the executed actions with their times and bindings, the actions that
//! never ran and why, the execution time and the final dish.

use super::dish_tree::{self, DishNode};
use super::figures::number;
use crate::base::number::Number;
use crate::data::catalogue::Role;
use crate::language::ast::Recipe;
use crate::language::diagnostic::LineIndex;
use crate::simulation::{Execution, Model, Step};
use serde::Serialize;
use std::fmt::Write;

#[derive(Clone, Debug, Serialize)]
pub struct SimulationReport {
    pub recipe: String,
    pub profile: String,
    /// `builtin` or the kitchen file given.
    pub kitchen: String,
    /// Whether the recipe has an execution (the reference prints `NIL` otherwise).
    pub solved: bool,
    /// Why there is no execution (empty when solved).
    pub reason: String,
    pub execution_time: Option<serde_json::Value>,
    pub steps: Vec<StepReport>,
    pub not_run: Vec<ActionRef>,
    pub dish: Option<FinalDish>,
}

/// An action of the network with its place in the file.
#[derive(Clone, Debug, Serialize)]
pub struct ActionRef {
    /// 1-based position of the action in the recipe.
    pub action: usize,
    pub line: usize,
    pub column: usize,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct StepReport {
    #[serde(flatten)]
    pub action: ActionRef,
    /// Kitchen time of the input kitchen state.
    pub start: Option<serde_json::Value>,
    /// Availability of the primary output, or else of the output kitchen state.
    pub end: Option<serde_json::Value>,
    /// Every argument's binding; `produced` marks those this action bound.
    pub bindings: Vec<BindingReport>,
    /// Why the action made a failed object, where its failure began (not one it was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BindingReport {
    /// The primitive's name for the argument.
    pub argument: String,
    /// The variable (`?x`) or the constant as written.
    pub name: String,
    pub value: String,
    pub available_at: Option<serde_json::Value>,
    pub produced: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct FinalDish {
    /// The action whose primary output it is.
    #[serde(flatten)]
    pub action: ActionRef,
    /// How it was chosen: `gold` (the dish approximation score's best candidate) or `last`
    /// (the last action whose output no other action uses).
    pub chosen_by: String,
    /// The dish approximation score against the gold dish, when a gold run was available.
    pub score: Option<f32>,
    pub tree: DishNode,
}

/// When an executed action started, when its result was ready and when the kitchen moved on:
/// the one schedule `simulate`, the HTML report's timeline and the cook's guide read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepTimes {
    /// The kitchen time of its input kitchen state (none for `get-kitchen`, which has none).
    pub start: Option<Number>,
    /// The availability of its primary output, or else of its output kitchen state.
    pub end: Option<Number>,
    /// The availability of its output kitchen state: the cook may do something else from then
    /// on, before `end` when the action goes on by itself (an oven heating, a bake, butter
    /// coming to room temperature).
    pub kitchen_free: Option<Number>,
}

impl StepTimes {
    pub fn of(model: &Model, recipe: &Recipe, exec: &Execution, step: &Step) -> StepTimes {
        let p = step.predicate;
        let sig = model.catalogue.get(&recipe.predicates[p].name);
        let role = |i: usize| sig.and_then(|s| s.args.get(i)).map(|a| a.role);
        let slots = &exec.slots[p];
        let kitchen_out = (0..slots.len())
            .find(|&i| role(i) == Some(Role::KitchenStateOut))
            .map(|i| exec.bindings[slots[i]].available_at);
        let primary = slots
            .first()
            .map(|&s| &exec.bindings[s])
            .filter(|b| b.is_bound())
            .and_then(|b| b.available_at);
        StepTimes {
            start: step.start,
            end: primary.or(kitchen_out.flatten()),
            kitchen_free: kitchen_out.flatten(),
        }
    }

    /// Whether the kitchen moved on before the result was ready: the action went on by
    /// itself while the cook was free.
    pub fn goes_on_by_itself(&self) -> bool {
        matches!((self.kitchen_free, self.end), (Some(free), Some(end)) if free.num_cmp(&end).is_lt())
    }
}

impl SimulationReport {
    /// Describe `exec`, a run of `recipe` read from `text`. `dish` is the chosen final
    /// dish's step index (into `exec.steps`), how it was chosen and its score.
    pub fn new(
        model: &Model,
        recipe: &Recipe,
        text: &str,
        exec: &Execution,
        kitchen: &str,
        dish: Option<(usize, &str, Option<f32>)>,
    ) -> SimulationReport {
        let lines = LineIndex::new(text);
        let action = |p: usize| {
            let pred = &recipe.predicates[p];
            let (line, column) = lines.line_col(pred.span.start);
            ActionRef {
                action: p + 1,
                line,
                column,
                text: pred.to_string(),
            }
        };
        let steps = exec
            .steps
            .iter()
            .map(|s| {
                let p = s.predicate;
                let sig = model.catalogue.get(&recipe.predicates[p].name);
                let slots = &exec.slots[p];
                let times = StepTimes::of(model, recipe, exec, s);
                let bindings = slots
                    .iter()
                    .enumerate()
                    .map(|(i, &slot)| {
                        let b = &exec.bindings[slot];
                        let case = sig.and_then(|sig| sig.cases.get(s.case));
                        BindingReport {
                            argument: sig
                                .and_then(|s| s.args.get(i))
                                .map(|a| a.name.clone())
                                .unwrap_or_default(),
                            name: exec.names[slot].to_owned(),
                            value: dish_tree::summary(model, &b.value),
                            available_at: b.available_at.map(number),
                            produced: case.is_some_and(|c| !c.is_input(i)),
                        }
                    })
                    .collect();
                StepReport {
                    action: action(p),
                    start: times.start.map(number),
                    end: times.end.map(number),
                    bindings,
                    failed: None,
                }
            })
            .collect();
        let ran: Vec<usize> = exec.steps.iter().map(|s| s.predicate).collect();
        let not_run: Vec<usize> = (0..recipe.predicates.len())
            .filter(|p| !ran.contains(p) && !exec.repeat[*p])
            .collect();
        let dish = dish.and_then(|(step, chosen_by, score)| {
            let e = crate::metrics::primary_output(exec, step).as_obj()?;
            Some(FinalDish {
                action: action(exec.steps[step].predicate),
                chosen_by: chosen_by.to_string(),
                score,
                tree: dish_tree::build(model, e),
            })
        });
        SimulationReport {
            recipe: recipe.id.clone(),
            profile: model.profile.to_string(),
            kitchen: kitchen.to_string(),
            solved: exec.solved,
            reason: if exec.solved {
                String::new()
            } else {
                why_unsolved(model, recipe, exec, &not_run)
            },
            execution_time: exec
                .solved
                .then(|| exec.execution_time())
                .flatten()
                .map(number),
            steps,
            not_run: not_run.into_iter().map(action).collect(),
            dish,
        }
    }

    /// The report as text. `trace` shows every argument's binding, not only those produced.
    pub fn render(&self, trace: bool) -> String {
        let mut out = String::new();
        let t = |v: &Option<serde_json::Value>| v.as_ref().map_or("-".into(), |v| v.to_string());
        let _ = writeln!(
            out,
            "recipe {} (reference {}, kitchen {})\n",
            self.recipe, self.profile, self.kitchen
        );
        let _ = writeln!(out, "executed actions:");
        let _ = writeln!(out, "  start    end  line  action");
        for s in &self.steps {
            let _ = writeln!(
                out,
                "{:>7} {:>6} {:>5}  {}",
                t(&s.start),
                t(&s.end),
                s.action.line,
                s.action.text
            );
            if let Some(why) = &s.failed {
                let _ = writeln!(out, "{:22}failed: {why}", "");
            }
            for b in s.bindings.iter().filter(|b| trace || b.produced) {
                let arg = if trace {
                    format!("{}: ", b.argument)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "{:22}{arg}{} = {} (available at {})",
                    "",
                    b.name,
                    b.value,
                    t(&b.available_at)
                );
            }
        }
        if !self.not_run.is_empty() {
            let _ = writeln!(out, "\nactions that never ran:");
            for a in &self.not_run {
                let _ = writeln!(out, "{:>20}  {}", a.line, a.text);
            }
        }
        out.push('\n');
        if self.solved {
            let _ = writeln!(out, "execution: yes");
        } else {
            let _ = writeln!(out, "execution: NIL ({})", self.reason);
        }
        let _ = writeln!(
            out,
            "execution time: {}",
            self.execution_time
                .as_ref()
                .map_or("NIL".into(), |v| v.to_string())
        );
        if let Some(d) = &self.dish {
            let how = match d.score {
                Some(s) => format!(
                    "the dish approximation score's best candidate, {} against the gold dish",
                    crate::base::number::two_decimals(crate::base::number::Number::float(s))
                ),
                None => "the last action whose output no other action uses".into(),
            };
            let _ = writeln!(
                out,
                "\nfinal dish (output of line {}, {how}):",
                d.action.line
            );
            dish_tree::render(&d.tree, 1, &mut out);
        }
        out
    }
}

/// One line: the actions that could not run and which of their inputs were never produced,
/// or the variables left unbound when every action ran.
fn why_unsolved(model: &Model, recipe: &Recipe, exec: &Execution, not_run: &[usize]) -> String {
    let unbound = |slot: usize| !exec.bindings[slot].is_bound();
    if not_run.is_empty() {
        let mut names: Vec<&str> = exec
            .slots
            .iter()
            .flatten()
            .filter(|&&s| unbound(s))
            .map(|&s| &exec.names[s])
            .collect();
        names.dedup();
        return format!("every action ran but {} stayed unbound", names.join(", "));
    }
    let parts: Vec<String> = not_run
        .iter()
        .map(|&p| {
            let pred = &recipe.predicates[p];
            let sig = model.catalogue.get(&pred.name);
            let missing: Vec<&str> = exec.slots[p]
                .iter()
                .enumerate()
                .filter(|&(i, &s)| {
                    let role = sig.and_then(|sig| sig.args.get(i)).map(|a| a.role);
                    unbound(s) && matches!(role, Some(Role::Input | Role::KitchenStateIn))
                })
                .map(|(_, &s)| &exec.names[s])
                .collect();
            if missing.is_empty() {
                format!("{} (action {}) never ran", pred.name, p + 1)
            } else {
                format!(
                    "{} (action {}) lacks {}",
                    pred.name,
                    p + 1,
                    missing.join(", ")
                )
            }
        })
        .collect();
    format!(
        "{} action(s) could not run: {}",
        not_run.len(),
        parts.join("; ")
    )
}
