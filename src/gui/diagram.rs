//! The report page's network graph and execution timeline, drawn with egui's painter from the
//! same model (`report::html`) and in the same colours as the HTML report; hovering a node or
//! a bar shows its action.

use crate::report::html::{Grid, NetworkDiagram, Route, Timeline};
use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Vec2, pos2};
use eframe::epaint::CubicBezierShape;

/// The network's drawing units, in points.
const GRID: Grid = Grid {
    node_width: 150.0,
    node_height: 40.0,
    column: 176.0,
    row: 50.0,
    pad: 10.0,
    band_gap: 30.0,
};

const INK: Color32 = Color32::from_rgb(0x1f, 0x29, 0x33);
const MUTED: Color32 = Color32::from_rgb(0x52, 0x60, 0x6d);
const EDGE: Color32 = Color32::from_rgb(0x84, 0x92, 0xa6);
const REACHED: Color32 = Color32::from_rgb(0x2a, 0x9d, 0x6a);
const GOLD: Color32 = Color32::from_rgb(0xb7, 0x89, 0x2b);

fn hex(rgb: u32) -> Color32 {
    Color32::from_rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
}

/// `s` cut to `max` characters with an ellipsis.
/// A filled box whose border lies inside it, as every box of these diagrams is drawn.
fn framed(painter: &egui::Painter, rect: Rect, radius: f32, fill: Color32, stroke: Stroke) {
    painter.rect(rect, radius, fill, stroke, egui::StrokeKind::Inside);
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut cut: String = s.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The dependency graph, layers left to right and wrapped into bands to fit the window's
/// width; arrows carry ingredients and tools.
pub fn network(ui: &mut egui::Ui, d: &NetworkDiagram) {
    let layout = d.layout(GRID, f64::from(ui.available_width()));
    let size = Vec2::new(layout.width as f32, layout.height as f32);
    let node_size = Vec2::new(GRID.node_width as f32, GRID.node_height as f32);
    let (response, painter) = ui.allocate_painter(size, Sense::hover());
    let origin = response.rect.min;
    let at = |(x, y): (f64, f64)| origin + Vec2::new(x as f32, y as f32);
    for e in d.edges.iter().filter(|e| !e.kitchen_state) {
        let stroke = Stroke::new(1.4, EDGE);
        let to = match layout.route(e) {
            Route::Curve(c) => {
                let curve = c.map(at);
                painter.add(CubicBezierShape::from_points_stroke(
                    curve,
                    false,
                    Color32::TRANSPARENT,
                    stroke,
                ));
                curve[3]
            }
            Route::Path(p) => {
                let points: Vec<Pos2> = p.into_iter().map(at).collect();
                let to = points.last().copied().unwrap_or(origin);
                painter.add(Shape::line(points, stroke));
                to
            }
        };
        painter.add(Shape::convex_polygon(
            vec![to, to + Vec2::new(-7.0, -4.0), to + Vec2::new(-7.0, 4.0)],
            EDGE,
            Stroke::NONE,
        ));
    }
    for (node, &corner) in d.nodes.iter().zip(&layout.corners) {
        let rect = Rect::from_min_size(at(corner), node_size);
        let (fill, stroke) = node.status.colours();
        let (fill, stroke) = (hex(fill), hex(stroke));
        framed(&painter, rect, 6.0, fill, Stroke::new(1.5, stroke));
        painter.text(
            rect.min + Vec2::new(7.0, 6.0),
            Align2::LEFT_TOP,
            clip(&node.primitive, 20),
            FontId::proportional(12.0),
            INK,
        );
        painter.text(
            rect.min + Vec2::new(7.0, 23.0),
            Align2::LEFT_TOP,
            clip(
                format!("#{}  {}", node.action, node.constants).trim_end(),
                24,
            ),
            FontId::proportional(11.0),
            MUTED,
        );
        if node.reached_goal.is_some() {
            painter.circle_filled(rect.right_top() + Vec2::new(-10.0, 10.0), 5.5, REACHED);
        }
        let id = response.id.with(node.action);
        ui.interact(rect, id, Sense::hover())
            .on_hover_text(node.hover_text());
    }
}

const LANE: f32 = 26.0;
const BAR: f32 = 18.0;
const LEFT: f32 = 56.0;
const TOP: f32 = 22.0;
/// The width of a character of a bar's label.
const LABEL_CHAR: f32 = 6.0;

/// The executed actions against simulated time, one lane per overlapping action; passive
/// actions (the kitchen moves on) in orange, the end and the gold's end marked.
pub fn timeline(ui: &mut egui::Ui, t: &Timeline) {
    let width = ui.available_width().max(400.0);
    let height = TOP + t.lanes as f32 * LANE + 30.0;
    let (response, painter) = ui.allocate_painter(Vec2::new(width, height), Sense::hover());
    let o = response.rect.min;
    let (step, axis_end) = t.axis();
    let plot = width - LEFT - 16.0;
    let x = |s: f64| o.x + LEFT + (s / axis_end) as f32 * plot;
    let axis_y = o.y + TOP + t.lanes as f32 * LANE;
    let small = FontId::proportional(11.0);
    for lane in 0..t.lanes {
        let y = o.y + TOP + lane as f32 * LANE;
        let band = Rect::from_min_size(pos2(o.x + LEFT, y), Vec2::new(plot, LANE));
        let fill = if lane % 2 == 0 {
            hex(0xf5f7fa)
        } else {
            Color32::WHITE
        };
        painter.rect_filled(band, 0.0, fill);
        painter.text(
            pos2(o.x + LEFT - 6.0, y + LANE / 2.0),
            Align2::RIGHT_CENTER,
            format!("lane {}", lane + 1),
            small.clone(),
            MUTED,
        );
    }
    let mut tick = 0.0;
    while tick <= axis_end + step / 2.0 {
        let tx = x(tick);
        painter.line_segment(
            [pos2(tx, o.y + TOP), pos2(tx, axis_y + 4.0)],
            Stroke::new(1.0, hex(0xe1e6ec)),
        );
        painter.text(
            pos2(tx, axis_y + 6.0),
            Align2::CENTER_TOP,
            tick,
            small.clone(),
            MUTED,
        );
        tick += step;
    }
    painter.line_segment(
        [pos2(o.x + LEFT, axis_y), pos2(o.x + LEFT + plot, axis_y)],
        Stroke::new(1.0, hex(0x9aa5b1)),
    );
    let fits = |label: &str, w: f32| label.chars().count() as f32 * LABEL_CHAR + 8.0 <= w;
    // Bars too narrow for a two-digit number are labelled by the run they sit in.
    let runs = t.short_runs(f64::from(2.0 * LABEL_CHAR + 8.0) * axis_end / f64::from(plot));
    let in_run = |i: usize| runs.iter().any(|r| r.contains(&i));
    for (i, b) in t.bars.iter().enumerate() {
        let x1 = x(b.start);
        let w = (x(b.end) - x1).max(3.0);
        let y = o.y + TOP + b.lane as f32 * LANE + (LANE - BAR) / 2.0;
        let rect = Rect::from_min_size(pos2(x1, y), Vec2::new(w, BAR));
        let (fill, stroke, ink) = if b.failed {
            (hex(0xf8d7d7), hex(0xd14343), hex(0x7a1f1f))
        } else if b.passive {
            (hex(0xfbe3bf), hex(0xe59a2f), hex(0x5c3a06))
        } else {
            (hex(0x3f7fd8), hex(0x2f65b3), Color32::WHITE)
        };
        framed(&painter, rect, 3.0, fill, Stroke::new(1.0, stroke));
        let label = b.labels().into_iter().find(|l| !in_run(i) && fits(l, w));
        if let Some(label) = label {
            painter.text(
                pos2(x1 + 4.0, y + BAR / 2.0),
                Align2::LEFT_CENTER,
                label,
                small.clone(),
                ink,
            );
        }
        let passive = if b.passive { " (passive)" } else { "" };
        ui.interact(rect, response.id.with(b.action), Sense::hover())
            .on_hover_text(format!(
                "#{} {}–{} s{passive}\n{}",
                b.action, b.start, b.end, b.text
            ));
    }
    for run in &runs {
        let (first, last) = (&t.bars[run[0]], &t.bars[run[run.len() - 1]]);
        let label = t.run_label(run);
        if fits(&label, x(last.end) - x(first.start)) {
            let y = o.y + TOP + first.lane as f32 * LANE + LANE / 2.0;
            // Dark on a light tab: the run's bars may leave gaps under its label.
            let tab = Rect::from_min_size(
                pos2(x(first.start) + 1.0, y - BAR / 2.0 + 3.0),
                Vec2::new(label.chars().count() as f32 * LABEL_CHAR + 8.0, BAR - 6.0),
            );
            painter.rect_filled(tab, 3.0, Color32::from_white_alpha(230));
            painter.text(
                pos2(x(first.start) + 4.0, y),
                Align2::LEFT_CENTER,
                label,
                small.clone(),
                INK,
            );
        }
    }
    let marker = |at: f64, text: String, colour: Color32, anchor: Align2| {
        let mx = x(at);
        painter.add(Shape::dashed_line(
            &[pos2(mx, o.y + TOP - 4.0), pos2(mx, axis_y)],
            Stroke::new(1.5, colour),
            5.0,
            3.0,
        ));
        let dx = if anchor == Align2::RIGHT_TOP {
            -4.0
        } else {
            4.0
        };
        painter.text(
            pos2(mx + dx, o.y + 2.0),
            anchor,
            text,
            FontId::proportional(11.0),
            colour,
        );
    };
    match t.gold_end {
        Some(g) if g == t.end => {
            marker(t.end, format!("end {g} s = gold"), GOLD, Align2::RIGHT_TOP)
        }
        Some(g) => {
            let (gold, end) = if g < t.end {
                (Align2::RIGHT_TOP, Align2::LEFT_TOP)
            } else {
                (Align2::LEFT_TOP, Align2::RIGHT_TOP)
            };
            marker(g, format!("gold {g} s"), GOLD, gold);
            marker(t.end, format!("end {} s", t.end), INK, end);
        }
        None => marker(t.end, format!("end {} s", t.end), INK, Align2::RIGHT_TOP),
    }
}

/// A coloured swatch and a word, for legends.
pub fn legend(ui: &mut egui::Ui, entries: &[(u32, &str)]) {
    ui.horizontal_wrapped(|ui| {
        for &(rgb, text) in entries {
            let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
            framed(
                ui.painter(),
                rect,
                2.0,
                hex(rgb),
                Stroke::new(1.0, hex(0x9aa5b1)),
            );
            ui.label(egui::RichText::new(text).small());
            ui.add_space(8.0);
        }
    });
}

/// The network's legend.
pub const NETWORK_LEGEND: [(u32, &str); 4] = [
    (0xeef4fc, "executed"),
    (0xf8d7d7, "failed"),
    (0xffffff, "never ran"),
    (0x2a9d6a, "reached a gold goal"),
];

/// The timeline's legend.
pub const TIMELINE_LEGEND: [(u32, &str); 3] = [
    (0x3f7fd8, "active: the cook is busy"),
    (0xfbe3bf, "passive: the kitchen moves on"),
    (0xf8d7d7, "failed"),
];
