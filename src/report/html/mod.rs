//! The evaluation as one self-contained HTML page that shows why each recipe scored as it did:
//! the metrics, the network as a layered graph, the execution on a timeline, the gold goals
//! reached and missed, and the predicted dish beside the gold dish; and, when one is given, a
//! logged session's calls on the kitchen's timeline ([`TrajectoryPage`]).
//!
//! The page model ([`ReportModel`]) is plain serialisable data built from the evaluation's
//! detail and the executions, so another front end (the desktop GUI) can draw the same thing;
//! [`render`] turns it into HTML with every piece of text escaped.

mod escape;
mod render;
mod time_axis;
mod trajectory_section;

pub use escape::escape;
pub(crate) use render::STYLE;
pub use render::render;
pub use trajectory_section::{TrajectoryPage, TrajectoryStep};

use super::content::{DishDifferences, Signature};
use super::dish_tree::{self, DishNode};
use super::json::Summary;
use super::simulation::{SimulationReport, StepTimes};
use crate::data::catalogue::Role;
use crate::language::ast::{Arg, Recipe};
use crate::language::dependencies::Network;
use crate::metrics::metric::{Metric, MetricSet, RecipeResult};
use crate::metrics::smatch::{SmatchResult, compute_f, format_score};
use crate::metrics::{GoldRun, primary_output};
use crate::simulation::{Execution, Model};
use serde::Serialize;
use std::fmt::Write;

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
    /// A logged session of one of the recipes, shown after them (`report --trajectory`).
    pub trajectory: Option<TrajectoryPage>,
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

/// The drawing units of a network diagram: node size, the pitch of columns (layers) and rows,
/// the margin, and the gap between bands.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub node_width: f64,
    pub node_height: f64,
    pub column: f64,
    pub row: f64,
    pub pad: f64,
    pub band_gap: f64,
}

/// A network diagram placed on a drawing of bounded width: the layers run left to right and
/// wrap, like text, into bands stacked top to bottom, so a long network neither runs off the
/// page nor shrinks past legibility.
#[derive(Clone, Debug)]
pub struct DiagramLayout {
    pub grid: Grid,
    pub width: f64,
    pub height: f64,
    /// Layers per band.
    pub columns: usize,
    /// Each action's node: its top-left corner (file order).
    pub corners: Vec<(f64, f64)>,
    /// Each action's band (file order).
    bands: Vec<usize>,
    /// Each band's top.
    band_tops: Vec<f64>,
}

/// The line of an edge, in drawing units.
#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// A cubic Bézier curve (start, two controls, end), within a band.
    Curve([(f64, f64); 4]),
    /// Straight segments along the gaps between columns and bands, from one band to another.
    Path(Vec<(f64, f64)>),
}

impl NetworkDiagram {
    /// The diagram drawn with `grid` within `width`: as many layers per band as fit (at
    /// least one); rows are counted per band, and layers with fewer nodes are centred in
    /// their band.
    pub fn layout(&self, grid: Grid, width: f64) -> DiagramLayout {
        let spare = width - 2.0 * grid.pad - grid.node_width;
        let fitting = (spare / grid.column).floor().max(0.0) as usize + 1;
        let columns = fitting.min(self.layers.max(1));
        let band_count = self.layers.max(1).div_ceil(columns);
        let mut in_layer = vec![0usize; self.layers.max(1)];
        for n in &self.nodes {
            in_layer[n.layer] += 1;
        }
        let band_rows: Vec<usize> = in_layer
            .chunks(columns)
            .map(|c| c.iter().copied().max().unwrap_or(0).max(1))
            .collect();
        let band_height = |rows: usize| (rows - 1) as f64 * grid.row + grid.node_height;
        let mut band_tops = Vec::with_capacity(band_count);
        let mut top = grid.pad;
        for &rows in &band_rows {
            band_tops.push(top);
            top += band_height(rows) + grid.band_gap;
        }
        let bands: Vec<usize> = self.nodes.iter().map(|n| n.layer / columns).collect();
        let corners = self
            .nodes
            .iter()
            .zip(&bands)
            .map(|(n, &band)| {
                let offset = (band_rows[band] - in_layer[n.layer]) as f64 / 2.0;
                (
                    grid.pad + (n.layer % columns) as f64 * grid.column,
                    band_tops[band] + (offset + n.row as f64) * grid.row,
                )
            })
            .collect();
        DiagramLayout {
            grid,
            width: 2.0 * grid.pad + (columns - 1) as f64 * grid.column + grid.node_width,
            height: top - grid.band_gap + grid.pad,
            columns,
            corners,
            bands,
            band_tops,
        }
    }
}

impl DiagramLayout {
    /// The line of `edge`, from its source's right side to its target's left side: a curve
    /// within a band; between bands, out into the gap right of the source's column, along
    /// the gap above the lower band, and down the gap left of the target's column.
    pub fn route(&self, edge: &DiagramEdge) -> Route {
        let g = &self.grid;
        let (x1, y1) = self.corners[edge.from - 1];
        let (x2, y2) = self.corners[edge.to - 1];
        let (sx, sy) = (x1 + g.node_width, y1 + g.node_height / 2.0);
        let (tx, ty) = (x2, y2 + g.node_height / 2.0);
        let (from_band, to_band) = (self.bands[edge.from - 1], self.bands[edge.to - 1]);
        if from_band == to_band {
            let bend = ((tx - sx).abs() / 2.0).max(30.0);
            return Route::Curve([(sx, sy), (sx + bend, sy), (tx - bend, ty), (tx, ty)]);
        }
        let aside = (g.column - g.node_width) / 2.0;
        let gap_y = self.band_tops[from_band.max(to_band)] - g.band_gap / 2.0;
        Route::Path(vec![
            (sx, sy),
            (sx + aside, sy),
            (sx + aside, gap_y),
            (tx - aside, gap_y),
            (tx - aside, ty),
            (tx, ty),
        ])
    }
}

/// Missed goals in runs: consecutive missed goals with the same reason form one run, every
/// other goal a run of its own, so that a reason repeated down a chain of actions is said once.
pub fn goal_runs(goals: &[GoalLine]) -> Vec<&[GoalLine]> {
    goals
        .chunk_by(|a, b| a.reached_by.is_none() && b.reached_by.is_none() && a.reason == b.reason)
        .collect()
}

/// What a run of missed goals says once: `8 goals, gold 11–18: <reason>`, or the reason alone
/// for a single goal.
pub fn missed_run_text(run: &[GoalLine]) -> String {
    match run {
        [first, .., last] => format!(
            "{} goals, gold {}–{}: {}",
            run.len(),
            first.gold_action,
            last.gold_action,
            first.reason
        ),
        [one] => one.reason.clone(),
        [] => String::new(),
    }
}

/// Printed text for people: every exact ratio the Lisp printer wrote (`60/409 percent`,
/// `[temperature 1190/9 degrees-celsius]`) becomes a decimal (`0.15 percent`; two
/// significant digits below 0.01), so a page shows decimals and keeps the exact text for its
/// hover. `None` when the text holds no ratio.
pub fn with_decimals(printed: &str) -> Option<String> {
    // A ratio is a whole word: digits, a slash, digits, after an optional minus sign.
    let part_of_word = |c: char| c.is_alphanumeric() || matches!(c, '.' | '/' | '-' | '_');
    let mut out = String::with_capacity(printed.len());
    let mut any = false;
    let mut rest = printed;
    while let Some(c) = rest.chars().next() {
        let word_len = rest.find(|c: char| !part_of_word(c)).unwrap_or(rest.len());
        if word_len == 0 {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let word = &rest[..word_len];
        match ratio(word) {
            Some(v) => {
                any = true;
                let places = if v != 0.0 && v.abs() < 0.005 {
                    (-v.abs().log10()).floor() as usize + 2
                } else {
                    2
                };
                let _ = write!(out, "{v:.places$}");
            }
            None => out.push_str(word),
        }
        rest = &rest[word_len..];
    }
    any.then_some(out)
}

/// The value of `word` if it is a ratio (`-12/35`).
fn ratio(word: &str) -> Option<f64> {
    let (n, d) = word.split_once('/')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(n.strip_prefix('-').unwrap_or(n)) || !digits(d) {
        return None;
    }
    Some(n.parse::<f64>().ok()? / d.parse::<f64>().ok()?).filter(|v| v.is_finite())
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

impl TimelineBar {
    /// What the bar can say inside itself, longest first: the action and its primitive, or
    /// its number alone.
    pub fn labels(&self) -> [String; 2] {
        [
            format!("#{} {}", self.action, self.primitive),
            self.action.to_string(),
        ]
    }
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
                        d.detail.contents_ratio, d.detail.container_ratio, d.action
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
    let lines = crate::language::diagnostic::LineIndex::new(text);
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
                line: lines.line_col(p.span.start).0,
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
            TimelineBar {
                action: p + 1,
                primitive: recipe.predicates[p].name.clone(),
                text: report.action.text.clone(),
                start,
                end,
                lane: 0,
                passive: StepTimes::of(model, recipe, exec, step).goes_on_by_itself(),
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

impl Timeline {
    /// Runs of bars in one lane, in time order, each shorter than `short` seconds and each
    /// starting less than `short` after the one before: too narrow to be labelled one by one,
    /// such a run (two bars or more) is labelled as a whole. Indices into `bars`.
    pub fn short_runs(&self, short: f64) -> Vec<Vec<usize>> {
        let mut runs = Vec::new();
        for lane in 0..self.lanes {
            let mut in_lane: Vec<usize> = (0..self.bars.len())
                .filter(|&i| self.bars[i].lane == lane)
                .collect();
            in_lane.sort_by(|&a, &b| self.bars[a].start.total_cmp(&self.bars[b].start));
            let mut run: Vec<usize> = Vec::new();
            for i in in_lane {
                let b = &self.bars[i];
                let joins = run
                    .last()
                    .is_some_and(|&p| b.start - self.bars[p].end < short);
                if b.end - b.start >= short || !joins {
                    if run.len() > 1 {
                        runs.push(std::mem::take(&mut run));
                    }
                    run.clear();
                }
                if b.end - b.start < short {
                    run.push(i);
                }
            }
            if run.len() > 1 {
                runs.push(run);
            }
        }
        runs
    }

    /// A run's label: `#2–9` when its actions follow each other in the network, else
    /// `8 actions`.
    pub fn run_label(&self, run: &[usize]) -> String {
        let actions: Vec<usize> = run.iter().map(|&i| self.bars[i].action).collect();
        let consecutive = actions.windows(2).all(|w| w[1] == w[0] + 1);
        match (actions.first(), actions.last()) {
            (Some(first), Some(last)) if consecutive => format!("#{first}–{last}"),
            _ => format!("{} actions", actions.len()),
        }
    }
}

/// The drawing units of a timeline: the plot's left edge and top, the pitch of the lanes, the
/// height of a bar and the width of a character of a label.
#[derive(Clone, Copy, Debug)]
pub struct TimelineGrid {
    pub left: f64,
    pub top: f64,
    pub lane: f64,
    pub bar: f64,
    pub label_char: f64,
}

impl TimelineGrid {
    /// The width a label takes inside a bar, with its margins.
    pub fn label_width(&self, label: &str) -> f64 {
        label.chars().count() as f64 * self.label_char + 8.0
    }
}

/// A timeline placed on a plot of a given width, as the HTML report and the GUI both draw it:
/// where every tick, bar, label and marker goes, in drawing units.
#[derive(Clone, Debug)]
pub struct TimelineLayout {
    pub grid: TimelineGrid,
    /// The plot's width.
    pub plot: f64,
    /// The time axis, below the last lane.
    pub axis_y: f64,
    /// Each tick's time and its x.
    pub ticks: Vec<(f64, f64)>,
    /// Each bar's place, in the order of [`Timeline::bars`].
    pub bars: Vec<PlacedBar>,
    /// Runs of bars too narrow to label one by one, where the run's label fits over them.
    pub runs: Vec<PlacedRun>,
    /// The execution's end and the gold's, each a dashed line with its label.
    pub markers: Vec<TimeMarker>,
}

/// A bar's box and the longest of its labels that fits inside it (none inside a run).
#[derive(Clone, Debug)]
pub struct PlacedBar {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub label: Option<String>,
}

/// A run of short bars in one lane with its label (`#2–9`), from its first bar's start to its
/// last bar's end.
#[derive(Clone, Debug)]
pub struct PlacedRun {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub label: String,
    pub actions: usize,
    pub start: f64,
    pub end: f64,
}

/// A moment marked on the timeline: the execution's end or the gold's.
#[derive(Clone, Debug)]
pub struct TimeMarker {
    pub x: f64,
    pub text: String,
    /// Drawn in the gold's colour (the gold's end, or an end equal to it).
    pub gold: bool,
    /// The label sits left of the line, away from the other marker.
    pub text_left: bool,
}

impl TimelineLayout {
    /// The top of a lane.
    pub fn lane_top(&self, lane: usize) -> f64 {
        self.grid.top + lane as f64 * self.grid.lane
    }
}

impl Timeline {
    /// The timeline placed with `grid` on a plot `plot` wide, its axis as [`Timeline::axis`]
    /// gives it. Bars too narrow for a two-digit number are labelled by the run they sit in.
    pub fn layout(&self, grid: TimelineGrid, plot: f64) -> TimelineLayout {
        let (step, axis_end) = self.axis();
        let x = |s: f64| grid.left + s / axis_end * plot;
        let bar_top =
            |lane: usize| grid.top + lane as f64 * grid.lane + (grid.lane - grid.bar) / 2.0;
        let mut ticks = Vec::new();
        let mut tick = 0.0;
        while tick <= axis_end + step / 2.0 {
            ticks.push((tick, x(tick)));
            tick += step;
        }
        let fits = |label: &str, w: f64| grid.label_width(label) <= w;
        let runs = self.short_runs((2.0 * grid.label_char + 8.0) * axis_end / plot);
        let in_run = |i: usize| runs.iter().any(|r| r.contains(&i));
        let bars = self
            .bars
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let x1 = x(b.start);
                let width = (x(b.end) - x1).max(3.0);
                PlacedBar {
                    x: x1,
                    y: bar_top(b.lane),
                    width,
                    label: b
                        .labels()
                        .into_iter()
                        .find(|l| !in_run(i) && fits(l, width)),
                }
            })
            .collect();
        let runs = runs
            .iter()
            .filter_map(|run| {
                let (first, last) = (&self.bars[run[0]], &self.bars[run[run.len() - 1]]);
                let (x1, width) = (x(first.start), x(last.end) - x(first.start));
                let label = self.run_label(run);
                fits(&label, width).then(|| PlacedRun {
                    x: x1,
                    y: bar_top(first.lane),
                    width,
                    label,
                    actions: run.len(),
                    start: first.start,
                    end: last.end,
                })
            })
            .collect();
        TimelineLayout {
            grid,
            plot,
            axis_y: grid.top + self.lanes as f64 * grid.lane,
            ticks,
            bars,
            runs,
            markers: self.markers(x),
        }
    }

    /// The end, and the gold's end when there is one, at their x; the labels on the sides
    /// away from each other.
    fn markers(&self, x: impl Fn(f64) -> f64) -> Vec<TimeMarker> {
        let marker = |at: f64, text: String, gold: bool, text_left: bool| TimeMarker {
            x: x(at),
            text,
            gold,
            text_left,
        };
        let end = self.end;
        match self.gold_end {
            Some(g) if g == end => vec![marker(end, format!("end {g} s = gold"), true, true)],
            Some(g) => {
                let gold_left = g < end;
                vec![
                    marker(g, format!("gold {g} s"), true, gold_left),
                    marker(end, format!("end {end} s"), false, !gold_left),
                ]
            }
            None => vec![marker(end, format!("end {end} s"), false, true)],
        }
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
            climb_complete: true,
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

    fn node(action: usize, layer: usize, row: usize) -> DiagramNode {
        DiagramNode {
            action,
            line: action,
            primitive: String::new(),
            constants: String::new(),
            text: String::new(),
            layer,
            row,
            status: ActionStatus::Executed,
            reached_goal: None,
        }
    }

    const GRID: Grid = Grid {
        node_width: 100.0,
        node_height: 40.0,
        column: 120.0,
        row: 50.0,
        pad: 10.0,
        band_gap: 30.0,
    };

    /// A chain of five layers (two nodes in layer 1) in a width for two layers: three bands,
    /// rows counted per band, and an edge between bands along the gaps.
    #[test]
    fn wide_networks_wrap_into_bands_that_fit_the_width() {
        let edge = |from, to| DiagramEdge {
            from,
            to,
            variable: String::new(),
            kitchen_state: false,
        };
        let d = NetworkDiagram {
            layers: 5,
            rows: 2,
            nodes: vec![
                node(1, 0, 0),
                node(2, 1, 0),
                node(3, 1, 1),
                node(4, 2, 0),
                node(5, 3, 0),
                node(6, 4, 0),
            ],
            edges: vec![edge(1, 2), edge(2, 4), edge(4, 5)],
        };
        // 2 × 10 + 100 + 120 = 240: two layers; 239 leaves one.
        assert_eq!(d.layout(GRID, 239.0).columns, 1);
        let l = d.layout(GRID, 240.0);
        assert_eq!((l.columns, l.width), (2, 240.0));
        // Band 1 (layers 0–1) has two rows; bands 2 and 3 one each.
        assert_eq!(
            l.corners,
            vec![
                (10.0, 35.0),
                (130.0, 10.0),
                (130.0, 60.0),
                (10.0, 130.0),
                (130.0, 130.0),
                (10.0, 200.0)
            ]
        );
        assert_eq!(l.height, 250.0);
        assert_eq!(
            l.route(&edge(1, 2)),
            Route::Curve([(110.0, 55.0), (140.0, 55.0), (100.0, 30.0), (130.0, 30.0)])
        );
        // From #2's right side down the gap beside its column, along the gap above band 2,
        // down the gap left of #4's column.
        assert_eq!(
            l.route(&edge(2, 4)),
            Route::Path(vec![
                (230.0, 30.0),
                (240.0, 30.0),
                (240.0, 115.0),
                (0.0, 115.0),
                (0.0, 150.0),
                (10.0, 150.0)
            ])
        );
    }

    fn goal(gold_action: usize, reason: &str) -> GoalLine {
        GoalLine {
            gold_action,
            gold_text: String::new(),
            reached_by: reason.is_empty().then(|| (gold_action, String::new())),
            reason: reason.into(),
        }
    }

    #[test]
    fn consecutive_goals_missed_for_one_reason_form_one_run() {
        let goals = [
            goal(1, ""),
            goal(2, "no bowl"),
            goal(3, "no bowl"),
            goal(4, "no bowl"),
            goal(5, "no tray"),
            goal(6, ""),
            goal(7, ""),
            goal(8, "no tray"),
        ];
        let runs: Vec<Vec<usize>> = goal_runs(&goals)
            .iter()
            .map(|r| r.iter().map(|g| g.gold_action).collect())
            .collect();
        assert_eq!(
            runs,
            vec![vec![1], vec![2, 3, 4], vec![5], vec![6], vec![7], vec![8]]
        );
        assert_eq!(missed_run_text(&goals[1..4]), "3 goals, gold 2–4: no bowl");
        assert_eq!(missed_run_text(&goals[4..5]), "no tray");
    }

    #[test]
    fn ratios_print_as_decimals_and_other_text_is_left_alone() {
        assert_eq!(
            with_decimals("60/409 percent").as_deref(),
            Some("0.15 percent")
        );
        assert_eq!(
            with_decimals("temperature 1190/9 degrees-celsius").as_deref(),
            Some("temperature 132.22 degrees-celsius")
        );
        assert_eq!(with_decimals("-1/2 g").as_deref(), Some("-0.50 g"));
        assert_eq!(with_decimals("1/409 g").as_deref(), Some("0.0024 g"));
        assert_eq!(with_decimals("230 g"), None);
        assert_eq!(with_decimals("90.0 minute"), None);
        assert_eq!(with_decimals("either/or 1/ /2 a/2"), None);
        assert_eq!(with_decimals("1/0 g"), None);
        assert_eq!(
            with_decimals("bowl [temperature 1190/9, 1/4]").as_deref(),
            Some("bowl [temperature 132.22, 0.25]")
        );
    }

    #[test]
    fn short_bars_back_to_back_in_a_lane_form_runs() {
        let mut bars = vec![
            bar(0.0, 10.0, false),
            bar(10.0, 20.0, false),
            bar(20.0, 100.0, false),
            bar(100.0, 105.0, false),
            bar(108.0, 110.0, false),
            bar(200.0, 205.0, false),
            bar(0.0, 5.0, true),
        ];
        for (i, b) in bars.iter_mut().enumerate() {
            b.action = i + 1;
        }
        bars[6].lane = 1;
        bars[4].action = 9;
        let t = Timeline {
            end: 205.0,
            gold_end: None,
            lanes: 2,
            bars,
        };
        let runs = t.short_runs(15.0);
        assert_eq!(runs, vec![vec![0, 1], vec![3, 4]]);
        assert_eq!(t.run_label(&runs[0]), "#1–2");
        assert_eq!(t.run_label(&runs[1]), "2 actions");
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
