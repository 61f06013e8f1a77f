//! The desktop launcher (`cookingbot-evaluator` with no arguments, or `gui`): a window in
//! which people who never use a terminal evaluate a solution file and see why each recipe
//! scored as it did. A thin front end over the service layer, like the command line: it drives the same
//! evaluation, writes the same CSV and draws the HTML report's model.

mod data;
mod diagram;
mod evaluation;
mod launcher;
mod results;
mod task;

use crate::service::launch::LaunchSettings;
pub use eframe::egui;
pub use launcher::Launcher;

/// Open the launcher window and wait until it is closed. `Err` says why no window could be
/// opened (no display, no OpenGL).
pub fn run(settings: LaunchSettings) -> Result<(), eframe::Error> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("cookingbot evaluator")
            .with_inner_size([1180.0, 860.0]),
        ..Default::default()
    };
    eframe::run_native(
        "cookingbot-evaluator",
        options,
        Box::new(|cc| {
            cc.egui_ctx.set_theme(egui::Theme::Light);
            Ok(Box::new(Launcher::new(settings)))
        }),
    )
}
