//! A large ontology extension for the tests and the bench of loading one: `n` classes under
//! `feta-cheese`, `c{i}` the child of `c{(i-1)/2}` and, every other class, of `c{(i-1)/4}`
//! too (multiple inheritance, 12 deep at 4,000 classes).

/// The parents of class `c{i}`.
pub fn tree_parents(i: usize) -> Vec<String> {
    match i {
        0 => vec!["feta-cheese".to_owned()],
        _ if i > 3 && i.is_multiple_of(2) && (i - 1) / 4 != (i - 1) / 2 => {
            vec![format!("c{}", (i - 1) / 2), format!("c{}", (i - 1) / 4)]
        }
        _ => vec![format!("c{}", (i - 1) / 2)],
    }
}

/// The `ontology.json` of `n` such classes.
pub fn tree_ontology(n: usize) -> serde_json::Value {
    let classes: serde_json::Map<String, serde_json::Value> = (0..n)
        .map(|i| {
            (
                format!("c{i}"),
                serde_json::json!({ "is_a": tree_parents(i) }),
            )
        })
        .collect();
    serde_json::json!({ "classes": classes })
}
