//! Test support for the language layer: the benchmark's recipe ids and class lookups.

use super::read;
use cookingbot::base::profile::Profile;
use cookingbot::language::validate::ClassLookup;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The 30 recipe ids the benchmark supports (the project's manifest, `gold/benchmark.json`).
pub fn known_recipe_ids() -> Vec<String> {
    cookingbot::benchmark::manifest(Profile::R2023)
        .recipes
        .into_iter()
        .map(|r| r.id)
        .collect()
}

/// Class lookups from the repository's ontology data (`kitchens/ontology-<profile>.json`),
/// standing in for the ontology module in the language tests.
pub struct TestClasses {
    ancestors: HashMap<String, HashSet<String>>,
}

impl TestClasses {
    pub fn load(profile: Profile) -> TestClasses {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("kitchens/ontology-{}.json", profile.name()));
        let json: serde_json::Value = serde_json::from_str(&read(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut ancestors = HashMap::new();
        for class in json["classes"].as_array().expect("a list of classes") {
            let name = class["name"].as_str().expect("a class name").to_string();
            let precedence = class["precedence"].as_array().expect("a precedence list");
            let set = precedence
                .iter()
                .filter_map(|v| v.as_str())
                .map(str::to_string)
                .collect();
            ancestors.insert(name, set);
        }
        TestClasses { ancestors }
    }
}

impl ClassLookup for TestClasses {
    fn class_exists(&self, name: &str) -> bool {
        self.ancestors.contains_key(name)
    }
    fn is_a(&self, class: &str, ancestor: &str) -> bool {
        ancestor == "t"
            || class == ancestor
            || self
                .ancestors
                .get(class)
                .is_some_and(|s| s.contains(ancestor))
    }
    fn is_conceptualizable(&self, class: &str) -> bool {
        self.is_a(class, "conceptualizable")
    }
    fn class_names(&self) -> Vec<&str> {
        self.ancestors.keys().map(String::as_str).collect()
    }
}
