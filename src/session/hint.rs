//! The expert of imitation learning and debugging: the gold network's next action the agent
//! has not matched yet, written with the agent's own variables where the gold's map to them.
//!
//! It reveals the gold, so it belongs to sessions an agent learns or is debugged in, never to
//! an evaluation: the tool server and the gym environment, where agents are scored, do not
//! offer it.
//!
//! The gold's actions are matched in gold order: an action of the agent that ran matches a
//! gold action when it is of the same primitive and, at every input the gold action takes
//! (its constants, and its variables bound by earlier gold actions; kitchen states aside,
//! since any extra action of the agent moves its kitchen on), it has the same constant or the
//! variable the gold's maps to. Its outputs then map the gold action's outputs. The hint
//! chains from the agent's current kitchen state where the gold chains from its last one,
//! and from the agent's state that maps the gold's where the gold goes back to an older one
//! (some gold networks do), so that following the hints writes the gold network.

use crate::data::catalogue::Role;
use crate::language::ast::{Arg, Recipe};
use crate::simulation::Model;
use crate::simulation::stepwise::{Standing, Stepwise};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// The next gold action.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    /// The line to give: the gold action with the agent's variables.
    pub line: String,
    pub primitive: String,
    /// Which gold action it is (1-based), of how many.
    pub action: usize,
    pub actions: usize,
}

/// The first gold action of `gold` the actions of `run` do not match, as a line the session
/// can take now; none when every gold action is matched.
pub fn next(
    model: &Model,
    gold: &Recipe,
    run: &Stepwise,
    kitchen: Option<&str>,
    written: &HashSet<&str>,
) -> Option<Hint> {
    let mut map: HashMap<&str, String> = HashMap::new();
    let mut used = vec![false; run.recipe().predicates.len()];
    let mut made: HashSet<&str> = HashSet::new();
    for (g, action) in gold.predicates.iter().enumerate() {
        let sig = model.catalogue.get(&action.name);
        let kitchen_in = |i: usize| {
            sig.and_then(|s| s.args.get(i))
                .is_some_and(|a| a.role == Role::KitchenStateIn)
        };
        let is_input = |i: usize, a: &Arg| match a {
            Arg::Var(v) => made.contains(&**v) && !kitchen_in(i),
            _ => true,
        };
        let matched = (0..used.len()).find(|&p| {
            let agent = &run.recipe().predicates[p];
            !used[p]
                && matches!(run.standing(p), Some(Standing::Ran { .. }))
                && agent.name == action.name
                && agent.args.len() == action.args.len()
                && action.args.iter().enumerate().all(|(i, a)| {
                    !is_input(i, a)
                        || match a {
                            Arg::Var(v) => {
                                agent.args[i].as_var() == map.get(&**v).map(String::as_str)
                            }
                            _ => agent.args[i] == *a,
                        }
                })
        });
        let Some(p) = matched else {
            // The gold chains from its last kitchen state: the agent's current one stands for
            // it. A gold action that goes back to an older state goes back to the agent's.
            let chained = g.checked_sub(1).and_then(|last| {
                let last = &gold.predicates[last];
                let sig = model.catalogue.get(&last.name)?;
                let out = sig
                    .args
                    .iter()
                    .position(|a| a.role == Role::KitchenStateOut)?;
                last.args.get(out).and_then(Arg::as_var)
            });
            let kitchen_in_arg = action.args.iter().enumerate().find(|&(i, _)| kitchen_in(i));
            let follows = kitchen_in_arg.is_none_or(|(_, a)| a.as_var() == chained);
            let kitchen = kitchen.filter(|_| follows);
            let line = written_with(action, &map, kitchen, written, &kitchen_in, &is_input);
            return Some(Hint {
                line,
                primitive: action.name.clone(),
                action: g + 1,
                actions: gold.predicates.len(),
            });
        };
        used[p] = true;
        let agent = &run.recipe().predicates[p];
        for (i, a) in action.args.iter().enumerate() {
            if let (Arg::Var(v), Some(mine)) = (a, agent.args[i].as_var()) {
                map.entry(&**v).or_insert_with(|| mine.to_string());
                made.insert(&**v);
            }
        }
    }
    None
}

/// The gold action as a line of the agent's: mapped inputs, the current kitchen state, and the
/// gold's own names for outputs unless the agent wrote them already.
fn written_with(
    action: &crate::language::ast::Predicate,
    map: &HashMap<&str, String>,
    kitchen: Option<&str>,
    written: &HashSet<&str>,
    kitchen_in: &dyn Fn(usize) -> bool,
    is_input: &dyn Fn(usize, &Arg) -> bool,
) -> String {
    let args: Vec<String> = action
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            Arg::Var(v) if kitchen_in(i) => {
                format!(
                    "?{}",
                    kitchen
                        .or(map.get(&**v).map(String::as_str))
                        .unwrap_or(&**v)
                )
            }
            Arg::Var(v) if is_input(i, a) => {
                format!("?{}", map.get(&**v).map_or(&**v, String::as_str))
            }
            Arg::Var(v) => {
                let name = (1..)
                    .map(|n| match n {
                        1 => v.to_string(),
                        n => format!("{v}-{n}"),
                    })
                    .find(|name| !written.contains(name.as_str()))
                    .unwrap_or_default();
                format!("?{name}")
            }
            other => other.to_string(),
        })
        .collect();
    format!("({} {})", action.name, args.join(" "))
}
