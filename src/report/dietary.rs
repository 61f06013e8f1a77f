//! A dish judged against a diet, as reports say it: the JSON of the `diet` command and of the
//! evaluation's `diets` (one shape for both), and text for people.

use super::figures::{amount, number};
use crate::data::diet_table::Diet;
use crate::language::diagnostic::LineIndex;
use crate::metrics::diet::{ActionRef, NoVerdict, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DietReport {
    pub diet: Diet,
    /// `null` when there is no verdict; `reason` says why.
    pub satisfied: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The action whose output is the dish judged.
    pub dish: Option<ActionReport>,
    /// The dish's ingredients the diet excludes, by the first action that brought each in.
    pub violations: Vec<ViolationReport>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViolationReport {
    /// The ingredient's class.
    pub ingredient: String,
    /// Its tags the diet excludes.
    pub tags: Vec<String>,
    /// How much of it the dish holds, every portion and share summed.
    pub amount: Amount,
    /// The actions it came from: those that fetched it (more than one when it was fetched
    /// twice), or, when none did, the first that held it (cracking an egg).
    pub actions: Vec<ActionReport>,
    /// The actions that carried it from there into the dish, the dish's own included.
    #[serde(default)]
    pub carried_by: Vec<ActionReport>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Amount {
    pub value: serde_json::Value,
    pub unit: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionReport {
    /// 1-based position of the action in the network.
    pub action: usize,
    /// Its line in the file, where the report had the file's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    pub text: String,
}

impl ActionReport {
    fn new(a: &ActionRef, lines: Option<&LineIndex<'_>>) -> ActionReport {
        ActionReport {
            action: a.predicate + 1,
            line: lines.map(|l| l.line_col(a.offset).0),
            text: a.text.clone(),
        }
    }

    /// `line 3`, or `action 3` without the file's text.
    fn place(&self) -> String {
        match self.line {
            Some(line) => format!("line {line}"),
            None => format!("action {}", self.action),
        }
    }

    /// `line 3: (fetch ...)`, or `action 3: ...` without the file's text.
    fn located(&self) -> String {
        match self.line {
            Some(line) => format!("line {line}: {}", self.text),
            None => format!("action {}: {}", self.action, self.text),
        }
    }
}

impl DietReport {
    /// The report of a verdict; with the file's text, actions are located by line too.
    pub fn new(v: &Verdict, text: Option<&str>) -> DietReport {
        let lines = text.map(LineIndex::new);
        let action = |a: &ActionRef| ActionReport::new(a, lines.as_ref());
        DietReport {
            diet: v.diet,
            satisfied: v.satisfied(),
            reason: v.no_verdict.as_ref().map(NoVerdict::reason),
            dish: v.dish.as_ref().map(action),
            violations: v
                .violations
                .iter()
                .map(|x| ViolationReport {
                    ingredient: x.ingredient.clone(),
                    tags: x.tags.clone(),
                    amount: Amount {
                        value: number(x.grams),
                        unit: "g".into(),
                    },
                    actions: x.actions.iter().map(action).collect(),
                    carried_by: x.carried_by.iter().map(action).collect(),
                })
                .collect(),
        }
    }

    /// The verdict for people: the answer, each excluded ingredient with its amount, tags and
    /// the actions that brought it in, then the action whose output was judged.
    pub fn render(&self, recipe: &str) -> String {
        let diet = self.diet.name();
        let mut out = match (self.satisfied, &self.reason) {
            (None, reason) => format!(
                "{recipe}: no verdict on {diet}: {}\n",
                reason.as_deref().unwrap_or_default()
            ),
            (Some(true), _) => {
                format!(
                    "{recipe} is {diet}: the dish holds no ingredient the {diet} diet excludes\n"
                )
            }
            (Some(false), _) => {
                let n = self.violations.len();
                let s = if n == 1 { "" } else { "s" };
                format!("{recipe} is not {diet}: {n} ingredient{s} of the dish excluded\n")
            }
        };
        for v in &self.violations {
            let _ = writeln!(
                out,
                "  {}: {} ({})",
                v.ingredient,
                amount(&v.amount.value, &v.amount.unit),
                v.tags.join(", ")
            );
            for a in &v.actions {
                let _ = writeln!(out, "    {}", a.located());
            }
            if !v.carried_by.is_empty() {
                let places: Vec<String> = v.carried_by.iter().map(ActionReport::place).collect();
                let _ = writeln!(out, "    carried into the dish by {}", places.join(", "));
            }
        }
        if let Some(dish) = &self.dish {
            let _ = writeln!(out, "the dish: the output of {}", dish.located());
        }
        out
    }
}
