//! The primitives: one small unit per primitive or family, all behind [`Primitive`].
//!
//! Which primitives exist and their argument patterns is data (the catalogue); this registry
//! maps each name to the code that gives it meaning.

pub mod common;
mod covering;
mod cutting;
pub mod errors;
mod fetch;
mod get_kitchen;
mod mixing;
mod portions;
mod temperature;
mod toppings;
mod transfer;

use crate::simulation::{Call, Primitive, SimError};
use std::collections::HashMap;
use std::sync::Arc;

/// A built-in primitive, shared by every model.
struct Builtin(&'static dyn Primitive);

impl Primitive for Builtin {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        self.0.run(call)
    }
}

/// Every implemented primitive by name.
pub fn registry() -> HashMap<String, Arc<dyn Primitive>> {
    let families: &[&[(&'static str, &'static dyn Primitive)]] = &[
        covering::PRIMITIVES,
        cutting::PRIMITIVES,
        fetch::PRIMITIVES,
        get_kitchen::PRIMITIVES,
        mixing::PRIMITIVES,
        portions::PRIMITIVES,
        temperature::PRIMITIVES,
        toppings::PRIMITIVES,
        transfer::PRIMITIVES,
    ];
    let builtin = |&(name, code): &(&str, &'static dyn Primitive)| {
        (
            name.to_owned(),
            Arc::new(Builtin(code)) as Arc<dyn Primitive>,
        )
    };
    families
        .iter()
        .flat_map(|f| f.iter().map(builtin))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::registry;
    use crate::base::profile::Profile;
    use crate::data::catalogue::Catalogue;
    use std::collections::BTreeSet;

    /// A primitive the catalogue lists without code (or code the catalogue does not list)
    /// would only show when a recipe uses it: the two name the same primitives.
    #[test]
    fn registry_and_catalogue_name_the_same_primitives() {
        let implemented: BTreeSet<String> = registry().keys().map(|n| n.to_string()).collect();
        let mut catalogued = BTreeSet::new();
        for profile in [Profile::R2023, Profile::R2024] {
            let names: BTreeSet<String> = Catalogue::builtin(profile)
                .iter()
                .map(|sig| sig.name.clone())
                .collect();
            let unimplemented: Vec<&String> = names.difference(&implemented).collect();
            assert!(
                unimplemented.is_empty(),
                "{profile:?}: catalogued but not implemented: {unimplemented:?}"
            );
            catalogued.extend(names);
        }
        let uncatalogued: Vec<&String> = implemented.difference(&catalogued).collect();
        assert!(
            uncatalogued.is_empty(),
            "implemented but in no profile's catalogue: {uncatalogued:?}"
        );
    }
}
