//! Structural checks of the data files under `kitchens/` and `gold/`.

use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;

const PROFILES: [&str; 2] = ["2023", "2024"];

fn load(rel: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Class name -> precedence list (without the class itself).
struct Ontology {
    precedence: HashMap<String, Vec<String>>,
}

impl Ontology {
    fn load(profile: &str) -> (Ontology, Value) {
        let v = load(&format!("kitchens/ontology-{profile}.json"));
        assert_eq!(v["profile"], profile);
        let mut precedence = HashMap::new();
        for c in v["classes"].as_array().unwrap() {
            let name = c["name"].as_str().unwrap().to_string();
            let prec = c["precedence"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            assert!(
                precedence.insert(name.clone(), prec).is_none(),
                "{profile}: class {name} defined twice"
            );
        }
        (Ontology { precedence }, v)
    }

    fn has(&self, class: &str) -> bool {
        self.precedence.contains_key(class)
    }

    fn is_a(&self, class: &str, ancestor: &str) -> bool {
        class == ancestor || self.precedence[class].iter().any(|c| c == ancestor)
    }
}

/// Every class mentioned by an encoded value (default or kitchen entity) must exist.
fn check_value(onto: &Ontology, v: &Value, ctx: &str) {
    match v {
        Value::String(s) => assert!(onto.has(s), "{ctx}: unknown class {s}"),
        Value::Array(items) => items.iter().for_each(|x| check_value(onto, x, ctx)),
        Value::Object(map) => {
            if let Some(c) = map.get("class") {
                let c = c.as_str().unwrap();
                assert!(onto.has(c), "{ctx}: unknown class {c}");
                if let Some(n) = map.get("count") {
                    assert!(n.as_u64().unwrap() >= 2, "{ctx}: count below 2");
                }
                for (k, x) in map {
                    if k != "class" && k != "count" {
                        check_value(onto, x, &format!("{ctx}/{c}.{k}"));
                    }
                }
            } else {
                let keys: Vec<&str> = map.keys().map(|k| k.as_str()).collect();
                assert!(
                    matches!(keys.as_slice(), ["ratio"] | ["string"]),
                    "{ctx}: unexpected object {v}"
                );
            }
        }
        Value::Null | Value::Bool(true) | Value::Number(_) => {}
        Value::Bool(false) => panic!("{ctx}: false is not an encoded value"),
    }
}

fn count(entities: &Value) -> u64 {
    entities
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.get("count").and_then(Value::as_u64).unwrap_or(1))
        .sum()
}

#[test]
fn ontologies_are_closed() {
    for p in PROFILES {
        let (onto, v) = Ontology::load(p);
        for c in v["classes"].as_array().unwrap() {
            let name = c["name"].as_str().unwrap();
            for s in onto.precedence[name].iter() {
                assert!(onto.has(s), "{p}: {name} inherits unknown {s}");
            }
            let mut seen = HashSet::new();
            for slot in c["slots"].as_array().unwrap() {
                let sname = slot["name"].as_str().unwrap();
                assert!(seen.insert(sname), "{p}: {name}.{sname} twice");
                assert!(sname != "id" && sname != "persistent-id");
                check_value(&onto, &slot["default"], &format!("{p}/{name}.{sname}"));
            }
            if let Some(u) = c.get("uncopied") {
                for s in u.as_array().unwrap() {
                    assert!(
                        seen.contains(s.as_str().unwrap()),
                        "{p}: {name} uncopied {s}"
                    );
                }
            }
        }
        for (class, units) in v["conversions"].as_object().unwrap() {
            assert!(onto.has(class), "{p}: conversion for unknown {class}");
            for (unit, factor) in units.as_object().unwrap() {
                assert!(onto.is_a(unit, "unit"), "{p}: {class} unit {unit}");
                assert!(factor.is_number());
            }
        }
    }
    // Quirk K3: only the 2023 copy of `perishable` forgets keep-frozen.
    let (_, v23) = Ontology::load("2023");
    let butter = v23["classes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "butter")
        .unwrap();
    assert_eq!(butter["uncopied"], serde_json::json!(["keep-frozen"]));
}

#[test]
fn kitchens_match_ontologies() {
    let expected_locations: HashMap<&str, Vec<&str>> = HashMap::from([
        (
            "2023",
            vec![
                "stove",
                "microwave",
                "oven",
                "counter-top",
                "fridge",
                "freezer",
                "pantry",
                "kitchen-cabinet",
            ],
        ),
        (
            "2024",
            vec![
                "kitchen-sink",
                "stove",
                "microwave",
                "counter-top",
                "oven",
                "fridge",
                "freezer",
                "pantry",
                "kitchen-cabinet",
            ],
        ),
    ]);
    let expected_counts: HashMap<&str, [(&str, u64); 4]> = HashMap::from([
        (
            "2023",
            [
                ("kitchen-cabinet", 143),
                ("fridge", 45),
                ("freezer", 1),
                ("pantry", 57),
            ],
        ),
        (
            "2024",
            [
                ("kitchen-cabinet", 194),
                ("fridge", 45),
                ("freezer", 1),
                ("pantry", 57),
            ],
        ),
    ]);
    for p in PROFILES {
        let (onto, _) = Ontology::load(p);
        let k = load(&format!("kitchens/full-kitchen-{p}.json"));
        assert_eq!(k["profile"], p);
        let root = &k["kitchen"];
        assert_eq!(root["class"], "kitchen-state");
        check_value(&onto, root, p);
        let locations = root["contents"].as_array().unwrap();
        let names: Vec<&str> = locations
            .iter()
            .map(|l| l["class"].as_str().unwrap())
            .collect();
        assert_eq!(names, expected_locations[p], "{p}: location order");
        for (loc, n) in expected_counts[p] {
            let l = locations.iter().find(|l| l["class"] == loc).unwrap();
            assert_eq!(count(&l["contents"]), n, "{p}: {loc} count");
        }
        // Ingredient stores: every entry is a used bowl holding one ingredient.
        for loc in ["fridge", "freezer", "pantry"] {
            let l = locations.iter().find(|l| l["class"] == loc).unwrap();
            for bowl in l["contents"].as_array().unwrap() {
                let b = bowl["class"].as_str().unwrap();
                assert!(onto.is_a(b, "transferable-container"), "{p}: {b} in {loc}");
                assert_eq!(bowl["used"], true);
                let inside = bowl["contents"].as_array().unwrap();
                assert_eq!(inside.len(), 1);
                let ing = inside[0]["class"].as_str().unwrap();
                assert!(
                    onto.is_a(ing, "ingredient"),
                    "{p}: {ing} is not an ingredient"
                );
                let amount = &inside[0]["amount"];
                assert_eq!(amount["class"], "amount", "{p}: {ing} amount");
                assert!(onto.is_a(amount["unit"].as_str().unwrap(), "unit"));
            }
        }
    }
}

#[test]
fn primitive_types_exist() {
    let prims = load("kitchens/primitives.json");
    for p in PROFILES {
        let (onto, _) = Ontology::load(p);
        let mut names = HashSet::new();
        for prim in prims["primitives"].as_array().unwrap() {
            let applies = prim
                .get("profiles")
                .is_none_or(|ps| ps.as_array().unwrap().iter().any(|x| x == p));
            if !applies {
                continue;
            }
            let name = prim["name"].as_str().unwrap();
            assert!(names.insert(name), "{p}: primitive {name} twice");
            let args: Vec<&str> = prim["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    let ty = a["type"].as_str().unwrap();
                    assert!(ty == "t" || onto.has(ty), "{p}: {name} type {ty}");
                    a["name"].as_str().unwrap()
                })
                .collect();
            for case in prim["cases"].as_array().unwrap() {
                for arg in case.as_array().unwrap() {
                    assert!(
                        args.contains(&arg.as_str().unwrap()),
                        "{p}: {name} case {arg}"
                    );
                }
            }
        }
        let expected = if p == "2023" { 38 } else { 39 };
        assert_eq!(names.len(), expected, "{p}: number of primitives");
    }
}

#[test]
fn benchmark_manifest_is_consistent() {
    let m = load("gold/benchmark.json");
    for p in PROFILES {
        let prof = &m["profiles"][p];
        let files: HashSet<&str> = prof["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                assert_eq!(f["sha256"].as_str().unwrap().len(), 64);
                assert!(f["size"].is_u64());
                f["path"].as_str().unwrap()
            })
            .collect();
        let recipes = prof["recipes"].as_array().unwrap();
        assert_eq!(recipes.len(), 30, "{p}");
        let mut ids = HashSet::new();
        for r in recipes {
            assert!(ids.insert(r["id"].as_str().unwrap()));
            assert!(files.contains(r["gold_file"].as_str().unwrap()), "{p}: {r}");
            assert!(
                files.contains(r["recipe_text"].as_str().unwrap()),
                "{p}: {r}"
            );
            assert!(r["primary_output_var"].as_str().unwrap().starts_with('?'));
            // Networks are third-party data: the manifest names them, never holds them.
            assert!(r.get("embedded_network").is_none(), "{p}: {r}");
        }
    }
}
