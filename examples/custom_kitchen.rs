//! Running a network in a kitchen of one's own: the built-in 2024 kitchen with the butter
//! taken out of the fridge, against the built-in one, on the demo's shortbread (which needs
//! butter): there the fetch fails and the run goes on with a failed object, as the
//! reference's does. A kitchen is the JSON of `kitchens/` (format in `kitchens/README.md`); the command
//! line takes one with `--kitchen FILE`.
//!
//! ```sh
//! cargo run --example custom_kitchen
//! ```

use cookingbot::base::profile::Profile;
use cookingbot::language::parse::parse;
use cookingbot::report::dish_tree;
use cookingbot::simulation::Model;
use serde_json::Value;

/// The built-in kitchen's JSON without the containers in the fridge that hold `ingredient` or
/// a kind of it named after it (`salted-butter` is a `butter` too).
fn without(ingredient: &str) -> Result<String, Box<dyn std::error::Error>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/kitchens/full-kitchen-2024.json"
    );
    let mut kitchen: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let places = kitchen["kitchen"]["contents"]
        .as_array_mut()
        .ok_or("the kitchen has no contents")?;
    for place in places.iter_mut().filter(|p| p["class"] == "fridge") {
        if let Some(items) = place["contents"].as_array_mut() {
            items.retain(|item| {
                !item["contents"][0]["class"]
                    .as_str()
                    .is_some_and(|class| class.ends_with(ingredient))
            });
        }
    }
    Ok(kitchen.to_string())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/demo-perfect.solution"
    ))?;
    let parsed = parse(&text);
    let recipe = parsed
        .file
        .recipes
        .iter()
        .find(|r| r.id == "demo-shortbread-rounds")
        .ok_or("no shortbread in the demo")?;
    let kitchens = [
        ("built-in kitchen", Model::builtin(Profile::R2024)),
        (
            "kitchen without butter",
            Model::with_kitchen(Profile::R2024, &without("butter")?)?,
        ),
    ];
    for (name, model) in &kitchens {
        let exec = model.execute(recipe).map_err(|e| e.message)?;
        // The first fetch's primary output: the butter, or a failed object where there is none.
        let butter = dish_tree::summary(model, exec.value(1, 0));
        println!(
            "{name:<24} solved {:<5}  execution time {:>5}  proportioned butter: {butter}",
            exec.solved,
            exec.execution_time()
                .map_or("NIL".into(), |t| t.to_string()),
        );
    }
    Ok(())
}
