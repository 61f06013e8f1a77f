//! The classes and slots the simulator itself refers to, resolved once per ontology.

use crate::world::Entity;
use crate::world::Value;
use crate::world::ontology::{ClassId, Ontology, SlotId};

/// Ids of the ontology names that the engine and the primitives use in hot paths.
#[derive(Debug)]
pub struct Known {
    pub contents: SlotId,
    pub items: SlotId,
    pub amount: SlotId,
    pub quantity: SlotId,
    pub unit: SlotId,
    pub value: SlotId,
    pub used: SlotId,
    pub temperature: SlotId,
    pub kitchen_time: SlotId,
    pub components: SlotId,
    pub is_concept: SlotId,
    pub arrangement: SlotId,

    pub kitchen_state: ClassId,
    pub counter_top: ClassId,
    pub failed_object: ClassId,
    pub list_of_kitchen_entities: ClassId,
    pub container: ClassId,
    pub ingredient: ClassId,
    pub mixture: ClassId,
    pub amount_class: ClassId,
    pub quantity_class: ClassId,
    pub g: ClassId,
    pub piece: ClassId,
    pub percent: ClassId,
    pub degrees_celsius: ClassId,
    /// The classes that take an addition and the slot that holds it, in the order the dish
    /// metric reads them (a dip, then a sprinkle), those the ontology has: looked up by name
    /// once here, not at every item of every dish compared.
    pub additions: Vec<(ClassId, SlotId)>,
    is_container: Vec<bool>,
    /// Where each class's layout holds `contents` and `used`: the kitchen's searches read a
    /// container's contents at every container they pass and whether each object of the
    /// class sought is used (a hundred bowls in the fridge), and looking the slot up by id
    /// cost them more than the rest of their step.
    contents_at: Vec<Option<usize>>,
    used_at: Vec<Option<usize>>,
}

impl Known {
    pub fn new(onto: &Ontology) -> Known {
        let slot = |n: &str| {
            onto.slot_id(n)
                .unwrap_or_else(|| panic!("ontology lacks slot {n}"))
        };
        let container = onto.known("container");
        let contents = slot("contents");
        let used = slot("used");
        Known {
            contents,
            items: slot("items"),
            amount: slot("amount"),
            quantity: slot("quantity"),
            unit: slot("unit"),
            value: slot("value"),
            used,
            temperature: slot("temperature"),
            kitchen_time: slot("kitchen-time"),
            components: slot("components"),
            is_concept: slot("is-concept"),
            arrangement: slot("arrangement"),
            kitchen_state: onto.known("kitchen-state"),
            counter_top: onto.known("counter-top"),
            failed_object: onto.known("failed-object"),
            list_of_kitchen_entities: onto.known("list-of-kitchen-entities"),
            container,
            ingredient: onto.known("ingredient"),
            mixture: onto.known("mixture"),
            amount_class: onto.known("amount"),
            quantity_class: onto.known("quantity"),
            g: onto.known("g"),
            piece: onto.known("piece"),
            percent: onto.known("percent"),
            degrees_celsius: onto.known("degrees-celsius"),
            additions: [
                ("dippable", "dipped-in"),
                ("can-be-sprinkled-on", "sprinkled-with"),
            ]
            .into_iter()
            .filter_map(|(class, slot)| Some((onto.class_id(class)?, onto.slot_id(slot)?)))
            .collect(),
            is_container: onto
                .classes()
                .map(|(id, _)| onto.is_a(id, container))
                .collect(),
            contents_at: places(onto, contents),
            used_at: places(onto, used),
        }
    }

    pub fn is_container(&self, class: ClassId) -> bool {
        self.is_container[class as usize]
    }

    /// `e`'s contents (NIL when its class has none).
    pub fn contents_of<'e>(&self, e: &'e Entity) -> &'e Value {
        read(e, self.contents, &self.contents_at)
    }

    /// Whether `e` is used (NIL when its class has no such slot).
    pub fn used_of<'e>(&self, e: &'e Entity) -> &'e Value {
        read(e, self.used, &self.used_at)
    }
}

/// Where each class's layout holds `slot`.
fn places(onto: &Ontology, slot: SlotId) -> Vec<Option<usize>> {
    onto.classes()
        .map(|(_, c)| c.slots.iter().position(|&s| s == slot))
        .collect()
}

/// `e`'s value of `slot`: read at the place its class's layout gives (`places`), or looked up
/// by id for an object laid out otherwise.
fn read<'e>(e: &'e Entity, slot: SlotId, places: &[Option<usize>]) -> &'e Value {
    let at = places.get(e.class as usize).copied().flatten();
    match at.and_then(|at| e.slot_at(at)) {
        Some((found, value)) if found == slot => value,
        _ => e.val(slot),
    }
}

#[cfg(test)]
mod tests {
    use crate::base::profile::Profile;
    use crate::simulation::Model;
    use crate::world::{Entity, Maker, Value};

    #[test]
    fn contents_and_used_are_read_where_the_object_holds_them() {
        let m = Model::builtin(Profile::R2024);
        let (k, bowl) = (&m.k, m.onto.known("medium-bowl"));
        let mut maker = Maker::new(&m.onto, 0);
        // Laid out as its class: read at the class's place.
        let made = maker.make_with(bowl, &[(k.contents, Value::T), (k.used, Value::T)]);
        assert!(matches!(k.contents_of(&made), Value::T));
        assert!(matches!(k.used_of(&made), Value::T));
        // Laid out otherwise (only the slots given, contents first): looked up by id.
        let odd = Entity::new(bowl, 1, vec![(k.used, Value::Nil), (k.contents, Value::T)]);
        assert!(matches!(k.contents_of(&odd), Value::T));
        assert!(matches!(k.used_of(&odd), Value::Nil));
        // A class without the slots: NIL.
        let quantity = maker.make(k.quantity_class);
        assert!(matches!(k.contents_of(&quantity), Value::Nil));
        assert!(matches!(k.used_of(&quantity), Value::Nil));
    }
}
