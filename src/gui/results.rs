//! A scored file on screen: the table of recipes (sortable by any column, values exactly as
//! the CSV prints them) and, for the selected recipe, why it scored as it did: the metrics'
//! sources, the gold goals missed, the dish differences, the network and the timeline.

use super::diagram;
use super::evaluation::{Evaluation, RecipeRow};
use crate::report::html::{RecipePage, goal_runs, missed_run_text, with_decimals};
use eframe::egui::{self, RichText};
use std::cmp::Ordering;

/// How the table is shown: the sort column (0 is the recipe id, then the metrics) and the
/// selected row (an index into the evaluation's rows).
#[derive(Clone, Debug, Default)]
pub struct View {
    pub sort: Option<(usize, bool)>,
    pub selected: Option<usize>,
}

/// A printed value as a number for sorting (`NIL` and text: none).
fn numeric(cell: &str) -> Option<f64> {
    match cell.split_once('/') {
        Some((n, d)) => Some(n.parse::<f64>().ok()? / d.parse::<f64>().ok()?),
        None => cell.parse().ok(),
    }
}

/// Row indices in display order: the reference's order, or sorted by a column (stable; `NIL`
/// last either way).
pub fn order(rows: &[RecipeRow], sort: Option<(usize, bool)>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let Some((column, ascending)) = sort else {
        return order;
    };
    let key = |i: usize| -> (Option<f64>, &str) {
        let r = &rows[i];
        match column {
            0 => (None, r.recipe_id.as_str()),
            c => (numeric(&r.printed[c - 1]), r.printed[c - 1].as_str()),
        }
    };
    order.sort_by(|&a, &b| {
        let ((na, ta), (nb, tb)) = (key(a), key(b));
        let by_value = match (column, na, nb) {
            (0, _, _) => ta.cmp(tb),
            (_, Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            (_, Some(_), None) => return Ordering::Less,
            (_, None, Some(_)) => return Ordering::Greater,
            (_, None, None) => Ordering::Equal,
        };
        if ascending {
            by_value
        } else {
            by_value.reverse()
        }
    });
    order
}

pub fn table(ui: &mut egui::Ui, e: &Evaluation, view: &mut View) {
    let headers: Vec<&str> = std::iter::once("recipe-id")
        .chain(e.metrics.iter().map(|m| m.name()))
        .collect();
    egui::Grid::new("results")
        .striped(true)
        .min_col_width(80.0)
        .spacing([18.0, 4.0])
        .show(ui, |ui| {
            for (c, h) in headers.iter().enumerate() {
                let direction = view.sort.filter(|s| s.0 == c).map(|s| s.1);
                let header = ui
                    .horizontal(|ui| {
                        let header = ui
                            .button(RichText::new(*h).strong())
                            .on_hover_text("sort by this column");
                        if let Some(ascending) = direction {
                            sort_mark(ui, ascending);
                        }
                        header
                    })
                    .inner;
                if header.clicked() {
                    view.sort = match view.sort {
                        Some((s, true)) if s == c => Some((c, false)),
                        Some((s, false)) if s == c => None,
                        _ => Some((c, true)),
                    };
                }
            }
            ui.end_row();
            for i in order(&e.rows, view.sort) {
                let row = &e.rows[i];
                if ui
                    .selectable_label(view.selected == Some(i), &row.recipe_id)
                    .clicked()
                {
                    view.selected = Some(i);
                }
                for cell in &row.printed {
                    ui.label(RichText::new(cell).monospace());
                }
                ui.end_row();
            }
        });
}

/// A triangle pointing up (ascending) or down, beside the sort column's header (the default
/// fonts have no arrow glyphs).
fn sort_mark(ui: &mut egui::Ui, ascending: bool) {
    let (rect, _) = ui.allocate_exact_size(egui::Vec2::splat(10.0), egui::Sense::hover());
    let (tip, base) = if ascending {
        (rect.center_top(), rect.bottom())
    } else {
        (rect.center_bottom(), rect.top())
    };
    ui.painter().add(egui::Shape::convex_polygon(
        vec![
            tip,
            egui::pos2(rect.right(), base),
            egui::pos2(rect.left(), base),
        ],
        ui.visuals().text_color(),
        egui::Stroke::NONE,
    ));
}

/// Why the selected recipe scored as it did.
pub fn details(ui: &mut egui::Ui, row: &RecipeRow) {
    ui.heading(format!("Why {} scored as it did", row.recipe_id));
    let page = match &row.page {
        Ok(p) => p,
        Err(why) => {
            ui.colored_label(ui.visuals().error_fg_color, why);
            return;
        }
    };
    for card in &page.metrics {
        ui.label(format!("{}: {} — {}", card.label, card.value, card.detail));
    }
    if !page.solved {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("No execution: {}", page.unsolved_reason),
        );
    }
    ui.separator();
    ui.strong("Network");
    diagram::legend(ui, &diagram::NETWORK_LEGEND);
    diagram::network(ui, &page.network);
    ui.separator();
    ui.strong("Execution timeline");
    diagram::legend(ui, &diagram::TIMELINE_LEGEND);
    diagram::timeline(ui, &page.timeline);
    goals(ui, page);
    dish(ui, page);
}

fn goals(ui: &mut egui::Ui, page: &RecipePage) {
    if page.goals.is_empty() {
        return;
    }
    let missed = page.goals.iter().filter(|g| g.reached_by.is_none()).count();
    ui.separator();
    ui.strong(format!(
        "Gold goals missed: {missed} of {}",
        page.goals.len()
    ));
    // A reason repeated down a chain of goals is said once, after the goals it explains.
    for run in goal_runs(&page.goals)
        .into_iter()
        .filter(|r| r[0].reached_by.is_none())
    {
        for g in run {
            ui.label(format!("#{} {}", g.gold_action, g.gold_text));
        }
        ui.label(RichText::new(format!("    missed: {}", missed_run_text(run))).strong());
    }
}

fn dish(ui: &mut egui::Ui, page: &RecipePage) {
    let Some(d) = &page.dish else { return };
    let x = &d.differences.detail;
    ui.separator();
    ui.strong(format!(
        "Dish differences (the output of action #{}: {})",
        d.differences.action, d.predicted_text
    ));
    let mut any = false;
    let mut line = |ui: &mut egui::Ui, text: String| {
        any = true;
        ui.label(text);
    };
    for m in &x.missing {
        line(ui, format!("missing: {m}"));
    }
    for s in &x.surplus {
        line(ui, format!("not in the gold dish: {s}"));
    }
    for i in x.matched.iter().filter(|i| !i.differing.is_empty()) {
        line(
            ui,
            format!(
                "{} differs in {} (score {:.2})",
                i.class,
                i.differing.join(", "),
                i.score
            ),
        );
    }
    if !x.container_differences.is_empty() {
        line(
            ui,
            format!(
                "container differs in {}",
                x.container_differences.join(", ")
            ),
        );
    }
    if !any {
        ui.label("none: the dish matches the gold dish");
    }
    ui.collapsing("Predicted dish beside the gold dish", |ui| {
        ui.columns(2, |cols| {
            for (col, (title, node)) in cols
                .iter_mut()
                .zip([("predicted", &d.predicted), ("gold", &d.gold)])
            {
                col.strong(title);
                let mut text = String::new();
                crate::report::dish_tree::render(node, 0, &mut text);
                // Amounts as decimals; the exact ratios when pointed at.
                match with_decimals(&text) {
                    Some(decimal) => {
                        col.label(RichText::new(decimal).monospace())
                            .on_hover_text(text);
                    }
                    None => {
                        col.label(RichText::new(text).monospace());
                    }
                }
            }
        });
    });
}
