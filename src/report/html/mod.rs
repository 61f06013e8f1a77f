//! The evaluation as one self-contained HTML page that shows why each recipe scored as it did:
//! the metrics, the network as a layered graph, the execution on a timeline, the gold goals
//! reached and missed, and the predicted dish beside the gold dish.
//!
//! The page model ([`ReportModel`]) is plain serialisable data built from the evaluation's
//! detail and the executions, so another front end (the desktop GUI) can draw the same thing;
//! [`render`] turns it into HTML with every piece of text escaped.

mod render;

pub(crate) use render::STYLE;
pub use render::{escape, render};

use super::dish_tree::{self, DishNode};
use super::json::Summary;
use super::model::{DishDifferences, Signature};
use super::simulation::SimulationReport;
use super::{Metric, MetricSet, RecipeResult};
use crate::catalogue::Role;
use crate::language::ast::{Arg, Recipe};
use crate::metrics::smatch::{SmatchResult, compute_f, format_score};
use crate::metrics::{GoldRun, primary_output};
use crate::network::Network;
use crate::simulation::{Execution, Model};
use serde::Serialize;

/// Everything on the page.
#[derive(Clone, Debug, Serialize)]
pub struct ReportModel {
    /// The evaluated file, as named on the command line.
    pub source: String,
    pub signature: Signature,
    /// In file order.
    pub recipes: Vec<RecipePage>,
    /// The means over the recipes with their intervals (`--ci`).
    pub summary: Option<Summary>,
}

/// One recipe's part of the page.
#[derive(Clone, Debug, Serialize)]
pub struct RecipePage {
    pub recipe_id: String,
    /// The requested metrics, in column order.
    pub metrics: Vec<MetricCard>,
    /// Whether the network has an execution (its simulation metrics are `NIL` otherwise).
    pub solved: bool,
    /// Why there is no execution (empty when solved).
    pub unsolved_reason: String,
    pub network: NetworkDiagram,
    pub timeline: Timeline,
    /// Every gold goal, in gold execution order (empty when goal-condition success was not
    /// computed or there is no execution).
    pub goals: Vec<GoalLine>,
    pub dish: Option<DishComparison>,
}

/// A metric as the CSV prints it, with what lies behind it.
#[derive(Clone, Debug, Serialize)]
pub struct MetricCard {
    pub metric: Metric,
    pub label: String,
    /// Exactly the CSV's text (`0.42`, `2600`, `NIL`).
    pub value: String,
    /// A score in 0..=1 for a gauge (none for the time or `NIL`).
    pub fraction: Option<f64>,
    /// One line on where the value comes from.
    pub detail: String,
}

/// How an action of the network fared in the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionStatus {
    Executed,
    /// It ran, but its primary output is a failed object (the reference's "custom NIL").
    Failed,
    /// It never ran.
    NotRun,
}

impl ActionStatus {
    /// A network node's fill and stroke (RGB), one palette for the page and the launcher.
    pub fn colours(self) -> (u32, u32) {
        match self {
            ActionStatus::Executed => (0xeef4fc, 0x7ea6df),
            ActionStatus::Failed => (0xf8d7d7, 0xd14343),
            ActionStatus::NotRun => (0xffffff, 0x9aa5b1),
        }
    }
}

/// The dependency DAG laid out in topological layers, left to right.
#[derive(Clone, Debug, Serialize)]
pub struct NetworkDiagram {
    pub layers: usize,
    /// The most nodes in one layer.
    pub rows: usize,
    /// In file order.
    pub nodes: Vec<DiagramNode>,
    pub edges: Vec<DiagramEdge>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DiagramNode {
    /// 1-based position of the action in the recipe.
    pub action: usize,
    pub line: usize,
    pub primitive: String,
    /// The constant arguments, as written (`butter 230 g`).
    pub constants: String,
    /// The whole action.
    pub text: String,
    pub layer: usize,
    /// Position within the layer, from the top.
    pub row: usize,
    pub status: ActionStatus,
    /// The gold action whose goal this action reached.
    pub reached_goal: Option<usize>,
}

impl DiagramNode {
    /// What pointing at the node tells, on the page and in the launcher alike: the action, its
    /// line, how it fared, the gold goal it reached, and its text.
    pub fn hover_text(&self) -> String {
        let status = match self.status {
            ActionStatus::Executed => "executed",
            ActionStatus::Failed => "failed (its output is a failed object)",
            ActionStatus::NotRun => "never ran",
        };
        let goal = self
            .reached_goal
            .map(|g| format!("; reaches gold goal {g}"))
            .unwrap_or_default();
        format!(
            "#{} (line {}), {status}{goal}\n{}",
            self.action, self.line, self.text
        )
    }
}

/// A variable flowing from the action producing it to one using it (1-based actions).
#[derive(Clone, Debug, Serialize)]
pub struct DiagramEdge {
    pub from: usize,
    pub to: usize,
    pub variable: String,
    /// A kitchen state: it orders the actions rather than carrying an ingredient or tool, so
    /// it does not shape the layers.
    pub kitchen_state: bool,
}

impl NetworkDiagram {
    /// Where action `action` (1-based) sits, in grid units: its layer (column) and its row,
    /// layers with fewer nodes centred vertically. Every drawing of the diagram scales this.
    pub fn position(&self, action: usize) -> (f64, f64) {
        let node = &self.nodes[action - 1];
        let in_layer = self.nodes.iter().filter(|n| n.layer == node.layer).count();
        let offset = (self.rows - in_layer) as f64 / 2.0;
        (node.layer as f64, offset + node.row as f64)
    }
}

/// The executed actions against simulated time; overlapping actions sit in separate lanes.
#[derive(Clone, Debug, Serialize)]
pub struct Timeline {
    /// The execution time (the last availability), or the last end.
    pub end: f64,
    /// The gold execution time, for comparison.
    pub gold_end: Option<f64>,
    pub lanes: usize,
    /// In execution order.
    pub bars: Vec<TimelineBar>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TimelineBar {
    pub action: usize,
    pub primitive: String,
    pub text: String,
    pub start: f64,
    pub end: f64,
    pub lane: usize,
    /// The kitchen moved on before the result was ready (baking, warming up): the cook was
    /// free meanwhile.
    pub passive: bool,
    pub failed: bool,
}

/// One gold goal and how the prediction fared on it.
#[derive(Clone, Debug, Serialize)]
pub struct GoalLine {
    /// 1-based position of the action in the gold network.
    pub gold_action: usize,
    pub gold_text: String,
    /// The predicted action (1-based) that reached it, and its text.
    pub reached_by: Option<(usize, String)>,
    /// Why it was missed (empty when reached).
    pub reason: String,
}

/// The predicted dish chosen by the dish approximation score beside the gold dish.
#[derive(Clone, Debug, Serialize)]
pub struct DishComparison {
    pub score: f32,
    pub predicted_text: String,
    pub predicted: DishNode,
    pub gold: DishNode,
    pub differences: DishDifferences,
}

impl RecipePage {
    /// The page of `recipe` (read from `text`), evaluated as `result`, executed as `exec`,
    /// against its gold run.
    pub fn new(
        model: &Model,
        recipe: &Recipe,
        text: &str,
        exec: &Execution,
        result: &RecipeResult,
        gold: &GoldRun,
        metrics: &MetricSet,
    ) -> RecipePage {
        let simulation = SimulationReport::new(model, recipe, text, exec, "", None);
        let detail = result.detail.as_ref();
        let goal_detail = detail.filter(|_| metrics.contains(Metric::GoalConditionSuccess));
        let goals: Vec<GoalLine> = goal_detail
            .map(|d| {
                d.goals
                    .goals
                    .iter()
                    .map(|g| GoalLine {
                        gold_action: g.gold_predicate + 1,
                        gold_text: g.gold_text.clone(),
                        reached_by: g
                            .reached_by
                            .map(|p| (p + 1, recipe.predicates[p].to_string())),
                        reason: g.reason.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let status = statuses(model, recipe, exec);
        let dish = detail
            .filter(|_| metrics.contains(Metric::DishApproximationScore))
            .and_then(|d| {
                let differences = DishDifferences::of(d)?;
                let predicate = differences.action - 1;
                let step = exec.steps.iter().position(|s| s.predicate == predicate)?;
                let predicted = primary_output(exec, step).as_obj()?;
                let gold_dish = primary_output(&gold.execution, gold.output_step?).as_obj()?;
                Some(DishComparison {
                    score: d.dish.score,
                    predicted_text: recipe.predicates[predicate].to_string(),
                    predicted: dish_tree::build(model, predicted),
                    gold: dish_tree::build(model, gold_dish),
                    differences,
                })
            });
        let gold_time = gold.execution_time().map(|t| t.to_f64());
        RecipePage {
            recipe_id: recipe.id.clone(),
            metrics: metrics
                .iter()
                .map(|m| metric_card(m, result, gold_time))
                .collect(),
            solved: exec.solved,
            unsolved_reason: simulation.reason.clone(),
            network: diagram(model, recipe, text, &status, &goals),
            timeline: timeline(model, recipe, exec, &simulation, &status, gold_time),
            goals,
            dish,
        }
    }
}

/// In exact mode, where the reference's search and the optimum differ, both: the reader sees
/// what the reference prints and what the best alignment scores.
fn climb_beside_optimum(s: &SmatchResult) -> String {
    match (s.optimum, s.bound) {
        (Some(optimum), Some(bound)) if optimum != s.reference_climb || !s.proven => {
            let climb = compute_f(s.reference_climb, s.test_triples, s.gold_triples).2;
            let proof = if s.proven {
                "proven optimal".to_string()
            } else {
                format!("unproven: at most {bound}")
            };
            format!(
                "; the reference's search matches {} (Smatch {}), exact mode {optimum} ({proof})",
                s.reference_climb,
                format_score(climb)
            )
        }
        _ => String::new(),
    }
}

fn metric_card(m: Metric, r: &RecipeResult, gold_time: Option<f64>) -> MetricCard {
    let value = r.formatted(m);
    let (fraction, detail) = match m {
        Metric::SmatchScore => match &r.smatch {
            Some(s) => (
                Some(s.f_score),
                format!(
                    "precision {:.2}, recall {:.2}: {} of {} triples match the gold's {}{}",
                    s.precision,
                    s.recall,
                    s.matched,
                    s.test_triples,
                    s.gold_triples,
                    climb_beside_optimum(s)
                ),
            ),
            None => (None, "not computed".into()),
        },
        Metric::GoalConditionSuccess => match (r.goal_condition_success, &r.detail) {
            (Some(g), Some(d)) => (
                Some(g.to_f64()),
                format!(
                    "{} of {} gold goals reached",
                    d.goals.reached(),
                    d.goals.goals.len()
                ),
            ),
            _ => (None, "no execution".into()),
        },
        Metric::DishApproximationScore => {
            match (
                r.dish_approximation_score,
                r.detail.as_ref().and_then(DishDifferences::of),
            ) {
                (Some(s), Some(d)) => (
                    Some(f64::from(s)),
                    format!(
                        "contents {:.2}, container {:.2} (dish of action {})",
                        d.contents_ratio, d.container_ratio, d.action
                    ),
                ),
                (Some(s), None) => (Some(f64::from(s)), "no dish to compare".into()),
                _ => (None, "no execution".into()),
            }
        }
        Metric::ExecutionTime => (
            None,
            match gold_time {
                Some(g) => format!("simulated seconds; the gold takes {g}"),
                None => "simulated seconds".into(),
            },
        ),
    };
    MetricCard {
        metric: m,
        label: m.label().to_string(),
        value,
        fraction,
        detail,
    }
}

/// Each action's status, in file order.
fn statuses(model: &Model, recipe: &Recipe, exec: &Execution) -> Vec<ActionStatus> {
    let mut status = vec![ActionStatus::NotRun; recipe.predicates.len()];
    for (i, s) in exec.steps.iter().enumerate() {
        let failed = primary_output(exec, i)
            .as_obj()
            .is_some_and(|e| model.onto.is_a(e.class, model.k.failed_object));
        status[s.predicate] = if failed {
            ActionStatus::Failed
        } else {
            ActionStatus::Executed
        };
    }
    status
}

fn diagram(
    model: &Model,
    recipe: &Recipe,
    text: &str,
    status: &[ActionStatus],
    goals: &[GoalLine],
) -> NetworkDiagram {
    let network = Network::build(recipe, &model.catalogue);
    let n = recipe.predicates.len();
    let mut edges: Vec<DiagramEdge> = network
        .graph
        .raw_edges()
        .iter()
        .map(|e| {
            let variable = e.weight.clone();
            let kitchen_state = network.variables[&variable]
                .producer()
                .is_some_and(|o| o.role == Role::KitchenStateOut);
            DiagramEdge {
                from: e.source().index() + 1,
                to: e.target().index() + 1,
                variable,
                kitchen_state,
            }
        })
        .collect();
    edges.sort_by(|a, b| (a.from, a.to, &a.variable).cmp(&(b.from, b.to, &b.variable)));
    let flow: Vec<(usize, usize)> = edges
        .iter()
        .filter(|e| !e.kitchen_state)
        .map(|e| (e.from - 1, e.to - 1))
        .collect();
    let order = network
        .topological_order()
        .unwrap_or_else(|| (0..n).collect());
    let (layer, row) = layered_layout(n, &order, &flow);
    let layers = layer.iter().max().map_or(0, |l| l + 1);
    let mut per_layer = vec![0; layers];
    for &l in &layer {
        per_layer[l] += 1;
    }
    let nodes = recipe
        .predicates
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let constants: Vec<String> = p
                .args
                .iter()
                .filter(|a| !matches!(a, Arg::Var(_)))
                .map(ToString::to_string)
                .collect();
            DiagramNode {
                action: i + 1,
                line: crate::language::diagnostic::line_col(text, p.span.start).0,
                primitive: p.name.clone(),
                constants: constants.join(" "),
                text: p.to_string(),
                layer: layer[i],
                row: row[i],
                status: status[i],
                reached_goal: goals
                    .iter()
                    .find(|g| g.reached_by.as_ref().is_some_and(|(a, _)| *a == i + 1))
                    .map(|g| g.gold_action),
            }
        })
        .collect();
    NetworkDiagram {
        layers,
        rows: per_layer.into_iter().max().unwrap_or(0),
        nodes,
        edges,
    }
}

/// Layers and rows of `n` nodes: a node's layer is one past its latest predecessor along
/// `edges` (visited in `order`, a topological order where there is one); then every node with
/// successors moves right to just before its earliest successor, so that a fetched ingredient
/// sits beside its use. Rows follow the mean row of the neighbours (barycentre
/// sweeps), ties by file order.
fn layered_layout(n: usize, order: &[usize], edges: &[(usize, usize)]) -> (Vec<usize>, Vec<usize>) {
    let preds = |v: usize| edges.iter().filter(move |e| e.1 == v).map(|e| e.0);
    let succs = |v: usize| edges.iter().filter(move |e| e.0 == v).map(|e| e.1);
    let mut placed = vec![false; n];
    let mut layer = vec![0usize; n];
    for &v in order {
        layer[v] = preds(v)
            .filter(|&u| placed[u])
            .map(|u| layer[u] + 1)
            .max()
            .unwrap_or(0);
        placed[v] = true;
    }
    for &v in order.iter().rev() {
        if let Some(first_use) = succs(v).map(|w| layer[w]).min() {
            layer[v] = layer[v].max(first_use.saturating_sub(1));
        }
    }
    let layers = layer.iter().max().map_or(0, |l| l + 1);
    let mut position: Vec<f64> = (0..n).map(|v| v as f64).collect();
    let sweep = |position: &mut Vec<f64>, range: Vec<usize>, forward: bool| {
        for l in range {
            let mut members: Vec<usize> = (0..n).filter(|&v| layer[v] == l).collect();
            let key = |v: usize| {
                let neighbours: Vec<f64> = if forward {
                    preds(v).map(|u| position[u]).collect()
                } else {
                    succs(v).map(|u| position[u]).collect()
                };
                if neighbours.is_empty() {
                    position[v]
                } else {
                    neighbours.iter().sum::<f64>() / neighbours.len() as f64
                }
            };
            let keys: Vec<(usize, f64)> = members.iter().map(|&v| (v, key(v))).collect();
            members.sort_by(|a, b| {
                let ka = keys.iter().find(|k| k.0 == *a).map_or(0.0, |k| k.1);
                let kb = keys.iter().find(|k| k.0 == *b).map_or(0.0, |k| k.1);
                ka.total_cmp(&kb).then(a.cmp(b))
            });
            for (r, v) in members.into_iter().enumerate() {
                position[v] = r as f64;
            }
        }
    };
    for _ in 0..2 {
        sweep(&mut position, (0..layers).collect(), true);
        sweep(&mut position, (0..layers).rev().collect(), false);
    }
    sweep(&mut position, (0..layers).collect(), true);
    let row = position.into_iter().map(|p| p as usize).collect();
    (layer, row)
}

fn timeline(
    model: &Model,
    recipe: &Recipe,
    exec: &Execution,
    simulation: &SimulationReport,
    status: &[ActionStatus],
    gold_end: Option<f64>,
) -> Timeline {
    let seconds = |v: &Option<serde_json::Value>| v.as_ref().and_then(serde_json::Value::as_f64);
    let mut bars: Vec<TimelineBar> = simulation
        .steps
        .iter()
        .zip(&exec.steps)
        .map(|(report, step)| {
            let p = step.predicate;
            let end = seconds(&report.end);
            let start = seconds(&report.start).or(end).unwrap_or(0.0);
            let end = end.unwrap_or(start).max(start);
            let sig = model.catalogue.get(&recipe.predicates[p].name);
            let kitchen_moved_on = exec.slots[p]
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    sig.and_then(|s| s.args.get(*i))
                        .is_some_and(|a| a.role == Role::KitchenStateOut)
                })
                .filter_map(|(_, &slot)| exec.bindings[slot].available_at)
                .map(|t| t.to_f64())
                .next();
            TimelineBar {
                action: p + 1,
                primitive: recipe.predicates[p].name.clone(),
                text: report.action.text.clone(),
                start,
                end,
                lane: 0,
                passive: kitchen_moved_on.is_some_and(|k| k < end),
                failed: status[p] == ActionStatus::Failed,
            }
        })
        .collect();
    let lanes = assign_lanes(&mut bars);
    let last = bars.iter().map(|b| b.end).fold(0.0, f64::max);
    Timeline {
        end: seconds(&simulation.execution_time).unwrap_or(last),
        gold_end,
        lanes,
        bars,
    }
}

impl Timeline {
    /// The time axis: tick spacing (1, 2 or 5 × 10ⁿ, about ten ticks) and its end, a whole
    /// number of ticks covering both the execution and the gold time.
    pub fn axis(&self) -> (f64, f64) {
        let span = self.end.max(self.gold_end.unwrap_or(0.0)).max(1.0);
        let raw = (span / 10.0).max(1.0);
        let base = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * base)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * base);
        (step, (span / step).ceil() * step)
    }
}

/// Greedy interval partitioning: the cook's own (active) actions first, so they share the
/// first lanes, then the passive ones; each bar takes the first lane free at its start.
fn assign_lanes(bars: &mut [TimelineBar]) -> usize {
    let mut order: Vec<usize> = (0..bars.len()).collect();
    order.sort_by(|&a, &b| {
        (bars[a].passive, bars[a].start)
            .partial_cmp(&(bars[b].passive, bars[b].start))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut free_at: Vec<f64> = Vec::new();
    for i in order {
        let b = &mut bars[i];
        let lane = match free_at.iter().position(|&t| t <= b.start) {
            Some(l) => l,
            None => {
                free_at.push(f64::NEG_INFINITY);
                free_at.len() - 1
            }
        };
        free_at[lane] = b.end;
        b.lane = lane;
    }
    free_at.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_mode_shows_the_references_climb_where_it_differs() {
        let mut s = SmatchResult {
            precision: 1.0,
            recall: 347.0 / 354.0,
            f_score: 0.99,
            matched: 347,
            test_triples: 347,
            gold_triples: 354,
            reference_climb: 332,
            optimum: Some(347),
            proven: true,
            bound: Some(347),
            hill_climbing_fell_short: true,
        };
        assert_eq!(
            climb_beside_optimum(&s),
            "; the reference's search matches 332 (Smatch 0.95), exact mode 347 (proven optimal)"
        );
        (s.proven, s.bound) = (false, Some(350));
        assert!(climb_beside_optimum(&s).ends_with("(unproven: at most 350)"));
        (s.reference_climb, s.proven, s.bound) = (347, true, Some(347));
        assert_eq!(climb_beside_optimum(&s), "");
    }

    #[test]
    fn layers_follow_the_flow_and_sources_sit_beside_their_use() {
        // 0 → 1 → 2, and 3 feeds only 2; 4 is unconnected.
        let edges = [(0, 1), (1, 2), (3, 2)];
        let (layer, row) = layered_layout(5, &[0, 1, 2, 3, 4], &edges);
        assert_eq!(layer, vec![0, 1, 2, 1, 0]);
        // Layer 1 holds 1 and 3 (by file order), layer 0 holds 0 and 4.
        assert_eq!((row[1], row[3]), (0, 1));
        assert_eq!((row[0], row[4]), (0, 1));
    }

    fn bar(start: f64, end: f64, passive: bool) -> TimelineBar {
        TimelineBar {
            action: 1,
            primitive: String::new(),
            text: String::new(),
            start,
            end,
            lane: 0,
            passive,
            failed: false,
        }
    }

    #[test]
    fn overlapping_actions_get_parallel_lanes_with_the_cook_first() {
        let mut bars = vec![
            bar(0.0, 30.0, false),
            bar(30.0, 830.0, true),
            bar(30.0, 60.0, false),
            bar(60.0, 900.0, true),
            bar(60.0, 60.0, false),
            bar(850.0, 870.0, false),
        ];
        assert_eq!(assign_lanes(&mut bars), 3);
        let lanes: Vec<usize> = bars.iter().map(|b| b.lane).collect();
        assert_eq!(lanes, vec![0, 1, 0, 2, 0, 0]);
    }
}
