//! A metric of one's own over executions: the share of a network's actions that the simulator
//! ran, and the simulated time per executed action, next to the reference's
//! execution time. Runs on the demo solutions shipped with the crate, no data needed:
//!
//! ```sh
//! cargo run --example custom_metric
//! ```

use cookingbot::base::profile::Profile;
use cookingbot::language::parse::parse;
use cookingbot::simulation::{Execution, Model};

/// The new metric: executed actions over all actions of the network (1.0 = everything ran).
pub fn coverage(exec: &Execution, actions: usize) -> f64 {
    if actions == 0 {
        return 0.0;
    }
    exec.steps.len() as f64 / actions as f64
}

#[allow(dead_code)] // the test suite includes this file and calls `main`
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let model = Model::builtin(Profile::R2024);
    for name in ["demo-perfect.solution", "demo-mistake.solution"] {
        let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path)?;
        let parsed = parse(&text);
        if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
            return Err(format!("{name}: {}", d.message).into());
        }
        for recipe in &parsed.file.recipes {
            let exec = model.execute(recipe).map_err(|e| e.message)?;
            let actions = recipe.predicates.len();
            let time = exec.execution_time().map(|t| t.to_f64());
            let per_action = time.map(|t| t / exec.steps.len().max(1) as f64);
            println!(
                "{name} {:<28} coverage {:.2}  execution time {:>6}  per action {:>6}",
                recipe.id,
                coverage(&exec, actions),
                time.map_or("NIL".into(), |t| format!("{t:.0}")),
                per_action.map_or("NIL".into(), |t| format!("{t:.1}")),
            );
        }
    }
    Ok(())
}
