//! The launcher window: choose the input `.solution` file and the output CSV (typed, pasted or
//! picked in the platform's dialogs), tick the metrics, start; the start button stays
//! disabled until input and output are chosen. Results and errors appear below.

use super::data::{self, Data};
use super::evaluation::{self, Outcome, Request};
use super::results::{self, View};
use super::task::Task;
use crate::base::profile::Profile;
use crate::benchmark::DataChoice;
use crate::metrics::metric::{Metric, MetricSet};
use crate::report::html::render;
use crate::report::write_atomically;
use crate::service::launch::LaunchSettings;
use crate::service::report_page::{beside, open_in_browser};
use eframe::egui::{self, RichText};
use std::path::PathBuf;

pub struct Launcher {
    input: String,
    output: String,
    metrics: [bool; 4],
    data: Data,
    running: Option<Task<Outcome>>,
    outcome: Option<Outcome>,
    view: View,
    /// The last file action's result (saved, opened, or why not).
    note: Option<String>,
    start_pending: bool,
}

impl Launcher {
    pub fn new(settings: LaunchSettings) -> Launcher {
        let path = |p: Option<PathBuf>| p.map(|p| p.display().to_string()).unwrap_or_default();
        Launcher {
            input: path(settings.input),
            output: path(settings.output),
            metrics: Metric::ALL.map(|m| settings.metrics.contains(m)),
            data: Data::locate(settings.profile, settings.benchmark),
            running: None,
            outcome: None,
            view: View::default(),
            note: None,
            start_pending: settings.start,
        }
    }

    /// Whether an evaluation is under way.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    fn metric_set(&self) -> MetricSet {
        Metric::ALL
            .into_iter()
            .zip(self.metrics)
            .filter(|(_, on)| *on)
            .fold(MetricSet::empty(), |set, (m, _)| set.with(m))
    }

    /// The evaluation the form describes, once input, output, a metric and data are there.
    fn request(&self) -> Option<Request> {
        let (input, output) = (self.input.trim(), self.output.trim());
        if input.is_empty() || output.is_empty() || !self.metrics.contains(&true) {
            return None;
        }
        Some(Request {
            input: PathBuf::from(input),
            output: PathBuf::from(output),
            metrics: self.metric_set(),
            profile: self.data.profile,
            data: self.data.source.clone()?,
        })
    }

    fn start(&mut self, ctx: &egui::Context, request: Request) {
        self.outcome = None;
        self.view = View::default();
        self.note = None;
        self.running = Some(Task::spawn(ctx, "reading the input", move |reporter| {
            evaluation::run(&request, reporter)
        }));
    }

    /// The whole window; called every frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.poll();
        egui::Panel::top("form").show(ui, |ui| {
            ui.add_space(4.0);
            self.form(ui);
            ui.add_space(4.0);
        });
        egui::CentralPanel::default_margins().show(ui, |ui| {
            // A solid scroll bar: the details run longer than the window, and say so.
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| self.outcome_ui(ui));
        });
    }

    fn poll(&mut self) {
        if let Some(outcome) = self.running.as_ref().and_then(Task::finished) {
            self.running = None;
            if let Outcome::Scored(e) = &outcome {
                self.view.selected = (!e.rows.is_empty()).then_some(0);
            }
            self.outcome = Some(outcome);
        }
    }

    fn form(&mut self, ui: &mut egui::Ui) {
        let idle = self.running.is_none();
        egui::Grid::new("paths")
            .num_columns(3)
            .spacing([8.0, 6.0])
            .show(ui, |ui| {
                path_row(
                    ui,
                    "Input .solution file",
                    &mut self.input,
                    idle,
                    Dialog::Open,
                );
                path_row(ui, "Output CSV file", &mut self.output, idle, Dialog::Save);
            });
        ui.horizontal_wrapped(|ui| {
            ui.label("Metrics:");
            for (m, on) in Metric::ALL.into_iter().zip(self.metrics.iter_mut()) {
                ui.add_enabled(idle, egui::Checkbox::new(on, m.name()));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Reference:");
            let mut profile = self.data.profile;
            ui.add_enabled_ui(idle && !self.data.busy(), |ui| {
                egui::ComboBox::from_id_salt("profile")
                    .selected_text(profile.name())
                    .show_ui(ui, |ui| {
                        for p in Profile::ALL {
                            ui.selectable_value(&mut profile, p, p.name());
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            if profile != self.data.profile {
                self.data = self.data.for_profile(profile);
            }
            self.data.ui(ui);
        });
        let request = self.request();
        ui.horizontal(|ui| {
            let ready = idle && request.is_some() && !self.data.busy();
            let start = ui.add_enabled(ready, egui::Button::new("Start"));
            if let Some(task) = &self.running {
                let p = task.progress();
                if ui.button("Cancel").clicked() {
                    task.cancel();
                }
                let stage = if task.is_cancelling() {
                    "cancelling after this recipe"
                } else {
                    &p.stage
                };
                ui.label(stage);
                data::bar(ui, &p);
            } else if request.is_none() {
                ui.label(
                    RichText::new("Choose the input and the output file and tick a metric.").weak(),
                );
            }
            let start_now = std::mem::take(&mut self.start_pending) && ready;
            if let Some(r) = request.filter(|_| start.clicked() || start_now) {
                self.start(ui.ctx(), r);
            }
        });
    }

    fn outcome_ui(&mut self, ui: &mut egui::Ui) {
        match &self.outcome {
            None if self.running.is_none() => self.empty_state(ui),
            None => {}
            Some(Outcome::Cancelled) => {
                ui.label("Cancelled: nothing was written.");
            }
            Some(Outcome::Failed(msg)) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("error: {msg}"));
            }
            Some(Outcome::Refused(problems)) => {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    "The file is refused; no results were written.",
                );
                egui::Grid::new("problems").striped(true).show(ui, |ui| {
                    ui.strong("line");
                    ui.strong("column");
                    ui.strong("problem");
                    ui.end_row();
                    for p in problems {
                        let (line, column) =
                            p.at.map_or((String::new(), String::new()), |(l, c)| {
                                (l.to_string(), c.to_string())
                            });
                        ui.label(line);
                        ui.label(column);
                        ui.label(&p.message);
                        ui.end_row();
                    }
                });
            }
            Some(Outcome::Scored(e)) => {
                ui.horizontal(|ui| {
                    ui.label(format!("Results written to {}", e.output.display()));
                    if ui.button("Save CSV as…").clicked() {
                        self.note = save_copy(e).or(self.note.take());
                    }
                    if ui.button("Open HTML report").clicked() {
                        self.note = Some(open_report(e));
                    }
                });
                if let Some(note) = &self.note {
                    ui.label(note);
                }
                results::table(ui, e, &mut self.view);
                if let Some(row) = self.view.selected.and_then(|i| e.rows.get(i)) {
                    ui.separator();
                    results::details(ui, row);
                }
            }
        }
    }
}

impl Launcher {
    /// Before the first run: what to do, and the demo example one click away.
    fn empty_state(&mut self, ui: &mut egui::Ui) {
        ui.add_space(12.0);
        ui.label(
            "No results yet. Choose a .solution file and where to write the CSV above, then Start.",
        );
        ui.horizontal(|ui| {
            ui.label("Or see what the evaluator shows:");
            if ui.button("Open the demo example").clicked() {
                match self.open_demo() {
                    Ok(request) => self.start(ui.ctx(), request),
                    Err(why) => self.note = Some(why),
                }
            }
        });
        ui.label(
            RichText::new(
                "The demo example is a solution file with mistakes for the embedded demo \
                 benchmark (three recipes of our own): no download needed.",
            )
            .weak(),
        );
        if let Some(note) = &self.note {
            ui.colored_label(ui.visuals().error_fg_color, note);
        }
    }

    /// The demo example written to a fresh folder, the form filled in for it (the demo
    /// benchmark, results beside it), and the run it describes.
    fn open_demo(&mut self) -> Result<Request, String> {
        let dir = tempfile::Builder::new()
            .prefix("cookingbot-demo-")
            .tempdir()
            .map_err(|e| format!("cannot make a folder for the demo example: {e}"))?
            .keep();
        let input = dir.join("demo-mistake.solution");
        write_atomically(&input, DEMO_EXAMPLE.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", input.display()))?;
        self.input = input.display().to_string();
        self.output = dir.join("results.csv").display().to_string();
        self.data = Data::locate(self.data.profile, Some(DataChoice::Demo));
        self.request()
            .ok_or_else(|| "tick a metric to evaluate the demo example".to_string())
    }
}

/// The demo benchmark's example with mistakes (`examples/demo-mistake.solution`).
const DEMO_EXAMPLE: &str = include_str!("../../examples/demo-mistake.solution");

impl eframe::App for Launcher {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        Launcher::ui(self, ui);
    }
}

#[derive(Clone, Copy)]
enum Dialog {
    Open,
    Save,
}

/// A labelled path field with a button for the platform's file dialog.
fn path_row(ui: &mut egui::Ui, label: &str, path: &mut String, enabled: bool, dialog: Dialog) {
    let label = ui.label(label);
    ui.add_enabled_ui(enabled, |ui| {
        ui.add_sized([560.0, 20.0], egui::TextEdit::singleline(path))
            .labelled_by(label.id);
    });
    if ui
        .add_enabled(enabled, egui::Button::new("Browse…"))
        .clicked()
    {
        let picked = match dialog {
            Dialog::Open => rfd::FileDialog::new()
                .add_filter("solution files", &["solution"])
                .pick_file(),
            Dialog::Save => rfd::FileDialog::new()
                .add_filter("CSV", &["csv"])
                .set_file_name("results.csv")
                .save_file(),
        };
        if let Some(p) = picked {
            *path = p.display().to_string();
        }
    }
    ui.end_row();
}

/// Save the CSV elsewhere through the save dialog; the note to show.
fn save_copy(e: &evaluation::Evaluation) -> Option<String> {
    let path = rfd::FileDialog::new()
        .add_filter("CSV", &["csv"])
        .set_file_name("results.csv")
        .save_file()?;
    Some(match write_atomically(&path, e.csv.as_bytes()) {
        Ok(()) => format!("CSV saved to {}", path.display()),
        Err(err) => format!("cannot write {}: {err}", path.display()),
    })
}

/// Write the HTML report beside the output (as `-show-output true` does) and open it.
fn open_report(e: &evaluation::Evaluation) -> String {
    let html = beside(&e.output);
    if let Err(err) = write_atomically(&html, render(&e.report).as_bytes()) {
        return format!("cannot write {}: {err}", html.display());
    }
    match open_in_browser(&html) {
        Ok(()) => format!("report written to {} and opened", html.display()),
        Err(why) => format!(
            "report written to {}; cannot open it ({why}): open it in a browser",
            html.display()
        ),
    }
}
