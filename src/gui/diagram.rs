//! The report page's network graph and execution timeline, drawn with egui's painter from the
//! same model (`report::html`) and in the same colours as the HTML report; hovering a node or
//! a bar shows its action.

use crate::report::html::{Grid, NetworkDiagram, Route, Timeline, TimelineGrid, TimelineLayout};
use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Vec2};
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

/// The timeline's drawing units, in points.
const TIMELINE_GRID: TimelineGrid = TimelineGrid {
    left: 56.0,
    top: 22.0,
    lane: 26.0,
    bar: 18.0,
    label_char: 6.0,
};

/// The executed actions against simulated time, one lane per overlapping action; passive
/// actions (the kitchen moves on) in orange, the end and the gold's end marked.
pub fn timeline(ui: &mut egui::Ui, t: &Timeline) {
    let g = TIMELINE_GRID;
    let width = ui.available_width().max(400.0);
    let height = (g.top + t.lanes as f64 * g.lane) as f32 + 30.0;
    let (response, painter) = ui.allocate_painter(Vec2::new(width, height), Sense::hover());
    let plot = width - g.left as f32 - 16.0;
    let l = t.layout(g, f64::from(plot));
    let o = response.rect.min;
    let at = |x: f64, y: f64| o + Vec2::new(x as f32, y as f32);
    let small = FontId::proportional(11.0);
    let lane_size = Vec2::new(plot, g.lane as f32);
    for lane in 0..t.lanes {
        let top = at(g.left, l.lane_top(lane));
        let fill = if lane % 2 == 0 {
            hex(0xf5f7fa)
        } else {
            Color32::WHITE
        };
        painter.rect_filled(Rect::from_min_size(top, lane_size), 0.0, fill);
        let text = format!("lane {}", lane + 1);
        let left = top + Vec2::new(-6.0, lane_size.y / 2.0);
        painter.text(left, Align2::RIGHT_CENTER, text, small.clone(), MUTED);
    }
    for &(tick, x) in &l.ticks {
        let (top, bottom) = (at(x, g.top), at(x, l.axis_y));
        painter.line_segment(
            [top, bottom + Vec2::new(0.0, 4.0)],
            Stroke::new(1.0, hex(0xe1e6ec)),
        );
        let below = bottom + Vec2::new(0.0, 6.0);
        painter.text(below, Align2::CENTER_TOP, tick, small.clone(), MUTED);
    }
    let axis = [at(g.left, l.axis_y), at(g.left + l.plot, l.axis_y)];
    painter.line_segment(axis, Stroke::new(1.0, hex(0x9aa5b1)));
    timeline_bars(ui, &painter, response.id, t, &l, at);
    timeline_marks(&painter, &l, at);
}

/// The bars with their labels and hover text.
fn timeline_bars(
    ui: &egui::Ui,
    painter: &egui::Painter,
    id: egui::Id,
    t: &Timeline,
    l: &TimelineLayout,
    at: impl Fn(f64, f64) -> Pos2,
) {
    let bar = l.grid.bar as f32;
    for (b, placed) in t.bars.iter().zip(&l.bars) {
        let rect = Rect::from_min_size(at(placed.x, placed.y), Vec2::new(placed.width as f32, bar));
        let (fill, stroke, ink) = if b.failed {
            (hex(0xf8d7d7), hex(0xd14343), hex(0x7a1f1f))
        } else if b.passive {
            (hex(0xfbe3bf), hex(0xe59a2f), hex(0x5c3a06))
        } else {
            (hex(0x3f7fd8), hex(0x2f65b3), Color32::WHITE)
        };
        framed(painter, rect, 3.0, fill, Stroke::new(1.0, stroke));
        if let Some(label) = &placed.label {
            let left = rect.left_center() + Vec2::new(4.0, 0.0);
            painter.text(
                left,
                Align2::LEFT_CENTER,
                label,
                FontId::proportional(11.0),
                ink,
            );
        }
        let passive = if b.passive { " (passive)" } else { "" };
        ui.interact(rect, id.with(b.action), Sense::hover())
            .on_hover_text(format!(
                "#{} {}–{} s{passive}\n{}",
                b.action, b.start, b.end, b.text
            ));
    }
}

/// The labels of runs of short bars, on light tabs, and the end and gold markers.
fn timeline_marks(painter: &egui::Painter, l: &TimelineLayout, at: impl Fn(f64, f64) -> Pos2) {
    let g = l.grid;
    let small = FontId::proportional(11.0);
    for run in &l.runs {
        // Dark on a light tab: the run's bars may leave gaps under its label.
        let tab = Rect::from_min_size(
            at(run.x + 1.0, run.y + 3.0),
            Vec2::new(g.label_width(&run.label) as f32, (g.bar - 6.0) as f32),
        );
        painter.rect_filled(tab, 3.0, Color32::from_white_alpha(230));
        let left = at(run.x + 4.0, run.y + g.bar / 2.0);
        painter.text(left, Align2::LEFT_CENTER, &run.label, small.clone(), INK);
    }
    for m in &l.markers {
        let colour = if m.gold { GOLD } else { INK };
        painter.add(Shape::dashed_line(
            &[at(m.x, g.top - 4.0), at(m.x, l.axis_y)],
            Stroke::new(1.5, colour),
            5.0,
            3.0,
        ));
        let (anchor, dx) = if m.text_left {
            (Align2::RIGHT_TOP, -4.0)
        } else {
            (Align2::LEFT_TOP, 4.0)
        };
        let text_at = at(m.x + dx, 2.0);
        painter.text(text_at, anchor, &m.text, small.clone(), colour);
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
