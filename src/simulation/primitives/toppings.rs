//! Primitives: sprinkle, dip, top-with, spread, grease, flour.
//!
//! Sprinkle, dip and top-with share one topping out over the portions of a container or of a
//! list on the counter-top; grease and flour coat a container with butter or flour, taken from
//! the stores (10 g) or given.

use super::common::{
    FoundEntity, Lookup, Start, amount, amount_value, bound, done_at, first_content, first_of,
    grams, list_copy, list_or_container, locate_on_counter, mark_used, next_portion, node_at,
    node_mut, portion_size, quantity_of, set, set_at, update_contents, update_found,
};
use super::errors::LispError;
use crate::base::number::Number;
use crate::simulation::kitchen::{self, Path};
use crate::simulation::{Call, Primitive, SimError};
use crate::world::ontology::SlotId;
use crate::world::seq::Seq;
use crate::world::{Entity, Maker, Value};
use std::cmp::Ordering;
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("sprinkle", &SPRINKLE),
    ("dip", &DIP),
    ("top-with", &top_with),
    ("spread", &spread),
    ("grease", &GREASE),
    ("flour", &FLOUR),
];

/// What receives a topping: the contents of a container, or the items of a list.
enum Portions {
    Container(Path),
    Items(Arc<Entity>, Vec<FoundEntity>),
}

impl Portions {
    fn count(&self, call: &Call<'_, '_>, ks: &Entity) -> usize {
        match self {
            Portions::Container(p) => kitchen::at(ks, call.model, p)
                .map_or(0, |c| c.val(call.model.k.contents).items().len()),
            Portions::Items(_, found) => found.len(),
        }
    }

    /// Apply `f` to the i-th portion, in order; returns the primary output.
    fn update(
        &self,
        call: &mut Call<'_, '_>,
        ks: &mut Arc<Entity>,
        mut f: impl FnMut(&mut Call<'_, '_>, &mut Entity, usize) -> Result<(), SimError>,
    ) -> Result<Value, SimError> {
        let m = call.model;
        let mut i = 0;
        match self {
            Portions::Container(p) => {
                update_contents(m, node_mut(m, ks, p)?, |e| {
                    i += 1;
                    f(call, e, i - 1)
                })?;
                Ok(Value::Obj(node_at(m, ks, p)?))
            }
            Portions::Items(list, found) => {
                let items = update_found(m, ks, found, |e| {
                    i += 1;
                    f(call, e, i - 1)
                })?;
                list_copy(m, call.maker, list, items)
            }
        }
    }
}

/// The portions of `arg`: a list looked up with find-kitchen-entities (`None` when it is a
/// failed-object) or a container on the counter-top.
fn find_portions(
    call: &Call<'_, '_>,
    ks: &Entity,
    arg: &str,
    as_list: bool,
) -> Result<Option<Portions>, SimError> {
    let m = call.model;
    let thing = call.input_arc(arg)?;
    Ok(if as_list {
        locate_on_counter(m, thing, ks)?.map(|found| Portions::Items(thing.clone(), found))
    } else {
        kitchen::find_on_counter(ks, m, thing).map(Portions::Container)
    })
}

/// A topping shared out: the portions that receive it, the container it is taken from (emptied
/// afterwards) and the slot of each portion that holds its share.
struct Serving {
    portions: Portions,
    topping_container: Path,
    slot: SlotId,
}

impl Serving {
    /// Divide the first content of the topping container (in grams) equally over the
    /// portions. Returns the primary output and the per-portion amount.
    fn equally(
        &self,
        call: &mut Call<'_, '_>,
        ks: &mut Arc<Entity>,
    ) -> Result<(Value, Value), SimError> {
        let m = call.model;
        let topping = first_content(m, ks, &self.topping_container)?;
        let total = grams(m, call.maker, &topping)?;
        let n = self.portions.count(call, ks) as i64;
        let each = total.div(Number::int(n)).ok_or(LispError::DivisionByZero)?;
        let each = amount(m, call.maker, each, m.k.g);
        let out = self.serve(call, ks, |maker| {
            let mut t = maker.copy(&topping);
            set(m, &mut t, m.k.amount, each.clone())?;
            Ok(Some(t))
        })?;
        Ok((out, each))
    }

    /// Given amount per portion (converted to grams), compared with what is left of the
    /// topping in its own unit; the last portion served gets the rest in grams, later ones
    /// nothing.
    fn by_amount(&self, call: &mut Call<'_, '_>, ks: &mut Arc<Entity>) -> Result<Value, SimError> {
        let m = call.model;
        let topping = first_content(m, ks, &self.topping_container)?;
        let mut left = amount_value(
            m,
            topping
                .val(m.k.amount)
                .as_obj()
                .ok_or(LispError::nil_argument("QUANTITY"))?,
        )
        .ok_or(LispError::nil_argument("VALUE"))?;
        let (size, size_value) = portion_size(call, &topping, "topping-quantity", "topping-unit")?;
        let size_value = size_value.ok_or(LispError::nil_argument("VALUE"))?;
        self.serve(call, ks, |maker| {
            if left.num_cmp(&Number::ZERO) != Ordering::Greater {
                return Ok(None);
            }
            let mut t = maker.copy(&topping);
            let share = next_portion(m, maker, &mut left, size_value, &size);
            set(m, &mut t, m.k.amount, share)?;
            Ok(Some(t))
        })
    }

    /// Put what `share` makes (nothing for `None`) into each portion's slot, in order, then
    /// empty the topping container. Returns the primary output.
    fn serve(
        &self,
        call: &mut Call<'_, '_>,
        ks: &mut Arc<Entity>,
        mut share: impl FnMut(&mut Maker<'_>) -> Result<Option<Entity>, SimError>,
    ) -> Result<Value, SimError> {
        let m = call.model;
        let out = self
            .portions
            .update(call, ks, |call, portion, _| match share(call.maker)? {
                Some(t) => set(m, portion, self.slot, Value::obj(t)),
                None => Ok(()),
            })?;
        set_at(m, ks, &self.topping_container, m.k.contents, Value::Nil)?;
        Ok(out)
    }
}

/// Sprinkle and dip: what differs is the slot, which kind of input is tried first and when
/// they fail.
struct Share {
    output: &'static str,
    topping: &'static str,
    slot: &'static str,
    /// Dip tries a list first and fails only for failed-object inputs (anything else missing
    /// is an error); sprinkle tries a container first and fails when a look-up finds nothing.
    dip: bool,
}

const SPRINKLE: Share = Share {
    output: "sprinkled-object",
    topping: "topping-container",
    slot: "sprinkled-with",
    dip: false,
};
const DIP: Share = Share {
    output: "dipped-object",
    topping: "dip-container",
    slot: "dipped-in",
    dip: true,
};

impl Primitive for Share {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let object = call.input_arc("object")?.clone();
        let (is_list, is_container) = list_or_container(call.model, &object);
        let as_list = if self.dip {
            is_list
        } else {
            !is_container && is_list
        };
        if !is_list && !is_container {
            // Neither a list nor a container: the reference binds nothing.
            return Ok(());
        }
        let (Start { m, mut ks, .. }, at) = call.start_after("object", 50)?;
        let portions = find_portions(call, &ks, "object", as_list)?;
        let topping_obj = call.input_arc(self.topping)?.clone();
        let topping = kitchen::find_on_counter(&ks, m, &topping_obj);
        let fails = if self.dip {
            call.is_failed(&object) || call.is_failed(&topping_obj)
        } else {
            portions.is_none() || topping.is_none()
        };
        if fails {
            call.fail(&[(self.output, 1.0, Some(at))])?;
            return call.finish(ks, at);
        }
        let topping = topping.ok_or(LispError::nil_argument("CONTENTS"))?;
        let portions = portions.ok_or(LispError::nil_argument("CONTENTS"))?;
        let serving = Serving {
            portions,
            topping_container: topping,
            slot: m.slot(self.slot)?,
        };
        let (out, _) = serving.equally(call, &mut ks)?;
        call.bind(self.output, 1.0, out, Some(at))?;
        call.finish(ks, at)
    }
}

/// `top-with` (2024): every portion gets some of the topping on top, equal shares or a given
/// amount each until the topping runs out.
fn top_with(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, mut ks, .. }, at) = call.start_after("thing-to-be-topped", 50)?;
    let thing = call.input_arc("thing-to-be-topped")?.clone();
    let given_amount = call.is_bound("topping-quantity");
    let can_have_on_top = m.class("can-have-on-top")?;
    let all_toppable = |v: &Seq<Value>| {
        v.iter().all(|e| {
            e.as_obj()
                .is_some_and(|e| m.onto.is_a(e.class, can_have_on_top))
        })
    };
    let (is_list, is_container) = list_or_container(m, &thing);
    let toppable = (is_container && all_toppable(thing.val(m.k.contents).items()))
        || (is_list && all_toppable(thing.val(m.k.items).items()));
    if !toppable {
        // The kitchen time is only set once the thing qualifies.
        call.fail(&[("topped-object", 1.0, Some(at))])?;
        if !given_amount {
            call.fail(&[
                ("topping-quantity", 1.0, Some(at)),
                ("topping-unit", 1.0, Some(at)),
            ])?;
        }
        return call.finish_untimed(ks, at);
    }
    // Equal shares try a list first, given amounts a container first.
    let as_list = if given_amount {
        is_list && !is_container
    } else {
        is_list
    };
    let portions = find_portions(call, &ks, "thing-to-be-topped", as_list)?;
    let topping = kitchen::find_on_counter(&ks, m, call.input("container-with-topping")?);
    let (Some(portions), Some(topping)) = (portions, topping) else {
        if !given_amount {
            // No case of the reference's binds anything here.
            return Ok(());
        }
        call.fail(&[("topped-object", 1.0, Some(at))])?;
        return call.finish(ks, at);
    };
    let serving = Serving {
        portions,
        topping_container: topping,
        slot: m.slot("has-on-top")?,
    };
    if !given_amount {
        let (out, each) = serving.equally(call, &mut ks)?;
        let each = each
            .as_obj()
            .cloned()
            .unwrap_or_else(|| call.maker.make(m.k.amount_class));
        call.bind("topped-object", 1.0, out, Some(at))?;
        call.bind(
            "topping-quantity",
            1.0,
            each.val(m.k.quantity).clone(),
            None,
        )?;
        call.bind("topping-unit", 1.0, each.val(m.k.unit).clone(), None)?;
        return call.finish(ks, at);
    }
    let out = serving.by_amount(call, &mut ks)?;
    call.bind("topped-object", 1.0, out, Some(at))?;
    call.finish(ks, at)
}

/// `spread`: the spread is divided (as a float, in its own unit) over the items of the object
/// container, or put into it when it is empty. A given tool takes longer than the spatula.
fn spread(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let object_arg = "object-to-be-spread";
    let tool_arg = "can-spread-kitchen-tool";
    let output = "container-with-objects-that-have-been-spread";
    let tool_given = call.is_bound(tool_arg);
    let (Start { m, mut ks, .. }, at) =
        call.start_after(object_arg, if tool_given { 120 } else { 20 })?;
    let tool = call.tool(&mut ks, tool_arg, "spatula", Lookup::Kitchen)?;
    // Looked up after the spatula moved, so that the paths are those of the final state.
    let object = kitchen::find_in_kitchen(&ks, m, call.input(object_arg)?);
    let spread_in = call.input_arc("container-with-spread")?.clone();
    let spread_container = kitchen::find_in_kitchen(&ks, m, &spread_in);
    let (Some(object), Some(spread_container), Some(tool)) = (object, spread_container, tool)
    else {
        call.fail(&[(output, 1.0, Some(at))])?;
        if !tool_given {
            call.fail(&[(tool_arg, 0.0, Some(at))])?;
        }
        return call.finish(ks, at);
    };
    let items = kitchen::at(&ks, m, &object)
        .map(|o| o.val(m.k.contents).clone())
        .unwrap_or(Value::Nil);
    if items.truthy() {
        let spreadable = m.class("can-be-spread-upon")?;
        let n = items
            .items()
            .iter()
            .filter(|v| v.as_obj().is_some_and(|e| m.onto.is_a(e.class, spreadable)))
            .count();
        let spread = first_of(m, &spread_in).ok_or(LispError::nil_argument("AMOUNT"))?;
        let (value, unit) = quantity_of(m, &spread)?;
        let each = value
            .div(Number::int(n as i64))
            .ok_or(LispError::DivisionByZero)?;
        let each = Number::float(each.to_f32());
        let spread_slot = m.slot("spread")?;
        let spread_with = m.slot("spread-with")?;
        let maker = &mut *call.maker;
        update_contents(m, node_mut(m, &mut ks, &object)?, |item| {
            let mut portion = maker.copy(&spread);
            let a = amount(m, maker, each, unit);
            set(m, &mut portion, m.k.amount, a)?;
            set(m, &mut portion, spread_slot, Value::T)?;
            set(m, item, spread_with, Value::obj(portion))
        })?;
    } else {
        // Nothing to spread upon: the spread goes onto the container itself.
        set_at(
            m,
            &mut ks,
            &object,
            m.k.contents,
            spread_in.val(m.k.contents).clone(),
        )?;
    }
    set_at(m, &mut ks, &spread_container, m.k.contents, Value::Nil)?;
    mark_used(m, &mut ks, tool, LispError::USED_OF_NIL)?;
    call.bind(output, 1.0, Value::Obj(node_at(m, &ks, &object)?), Some(at))?;
    if !tool_given {
        let found = bound(m, &ks, tool, LispError::USED_OF_NIL)?;
        call.bind(tool_arg, 0.0, found, Some(at))?;
    }
    call.finish(ks, at)
}

/// Grease and flour: coat a container with 10 g of an ingredient from the stores, or with the
/// whole first content of a given bowl.
struct Coat {
    output: &'static str,
    container: &'static str,
    ingredient: &'static str,
    /// The class looked for in the stores.
    source: &'static str,
    /// The slot of the container that receives the coating.
    slot: &'static str,
    /// The reference's setter of `slot`, named in its error when the container is gone.
    setter: &'static str,
    /// Grease marks the coating as spread.
    spread: bool,
}

const GREASE: Coat = Coat {
    output: "greased-container",
    container: "container-to-grease",
    ingredient: "ingredient-to-grease-with",
    source: "butter",
    slot: "brushed-with",
    setter: "(SETF BRUSHED-WITH)",
    spread: true,
};

const FLOUR: Coat = Coat {
    output: "floured-container",
    container: "container-to-flour",
    ingredient: "ingredient-to-flour-with",
    source: "all-purpose-flour",
    slot: "sprinkled-with",
    setter: "(SETF SPRINKLED-WITH)",
    spread: false,
};

impl Primitive for Coat {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let at = done_at(call, self.container, 60)?;
        if call.is_bound(self.ingredient) {
            self.coat_with_given(call, at)
        } else {
            self.coat_from_stores(call, at)
        }
    }
}

impl Coat {
    fn fail(
        &self,
        call: &mut Call<'_, '_>,
        ks: Arc<Entity>,
        at: Number,
        set_time: bool,
    ) -> Result<(), SimError> {
        call.fail(&[(self.output, 1.0, Some(at))])?;
        if !call.is_bound(self.ingredient) {
            call.fail(&[(self.ingredient, 0.0, None)])?;
        }
        if set_time {
            call.finish(ks, at)
        } else {
            call.finish_untimed(ks, at)
        }
    }

    /// Put `coating` on the container at `container` (its path in the final state), mark it
    /// used, bind the output and finish.
    fn coat(
        &self,
        call: &mut Call<'_, '_>,
        mut ks: Arc<Entity>,
        container: Option<Path>,
        coating: Value,
        at: Number,
    ) -> Result<(), SimError> {
        let m = call.model;
        let container = container.ok_or(LispError::nil_argument(self.setter))?;
        let c = node_mut(m, &mut ks, &container)?;
        set(m, c, m.slot(self.slot)?, coating)?;
        set(m, c, m.k.used, Value::T)?;
        call.bind(
            self.output,
            1.0,
            Value::Obj(node_at(m, &ks, &container)?),
            Some(at),
        )?;
        call.finish(ks, at)
    }

    /// 10 g taken from the first bowl of the source ingredient in the stores (the bowl ends up
    /// at the front of its place); the output ingredient is a detached copy of that bowl.
    fn coat_from_stores(&self, call: &mut Call<'_, '_>, at: Number) -> Result<(), SimError> {
        let Start { m, mut ks, .. } = call.start()?;
        let target = call.input_arc(self.container)?.clone();
        let container = kitchen::find_in_kitchen(&ks, m, &target);
        let source = kitchen::find_ingredient(&ks, m, m.class(self.source)?);
        // Grease checks only for a failed container (a missing butter is an error); flour fails
        // when the container or the flour is missing.
        let fails = if self.spread {
            call.is_failed(&target)
        } else {
            container.is_none() || source.is_none()
        };
        if fails {
            return self.fail(call, ks, at, true);
        }
        let (bowl, place) = source.ok_or(LispError::nil_argument("PERSISTENT-ID"))?;
        if place.len() != 1 {
            return Err(LispError::NonLocationPlace.into());
        }
        let bowl_obj = node_at(m, &ks, &bowl)?;
        let first = first_of(m, &bowl_obj).ok_or(LispError::nil_argument("AMOUNT"))?;
        // The detached copy with 10 g of the ingredient.
        let mut copy_bowl = call.maker.copy(&bowl_obj);
        let mut coating = call.maker.copy(&first);
        let ten = amount(m, call.maker, Number::int(10), m.k.g);
        set(m, &mut coating, m.k.amount, ten)?;
        if self.spread {
            set(m, &mut coating, m.slot("spread")?, Value::T)?;
        }
        let coating = Value::obj(coating);
        let mut rest = copy_bowl.val(m.k.contents).items().to_vec();
        if let Some(v) = rest.first_mut() {
            *v = coating.clone();
        }
        set(m, &mut copy_bowl, m.k.contents, Value::list(rest))?;
        // The stored ingredient loses 10 of whatever unit it is in.
        let (value, _) = quantity_of(m, &first)?;
        let mut reduced = first.clone();
        let mut amt = inner_copy(&reduced, m.k.amount, "QUANTITY")?;
        let mut q = inner_copy(&amt, m.k.quantity, "VALUE")?;
        set(m, &mut q, m.k.value, Value::Num(value.sub(Number::int(10))))?;
        set(m, &mut amt, m.k.quantity, Value::obj(q))?;
        set(m, &mut reduced, m.k.amount, Value::obj(amt))?;
        let bowl_mut = node_mut(m, &mut ks, &bowl)?;
        let mut contents = bowl_mut.val(m.k.contents).items().to_vec();
        if let Some(v) = contents.first_mut() {
            *v = Value::obj(reduced);
        }
        set(m, bowl_mut, m.k.contents, Value::list(contents))?;
        let moved =
            kitchen::remove(&mut ks, m, &bowl).ok_or(LispError::nil_argument("CONTENTS"))?;
        kitchen::push_front(&mut ks, m, &place, moved);
        call.bind(self.ingredient, 0.0, Value::obj(copy_bowl), None)?;
        // The container is looked up again: moving the bowl may shift its path.
        let container = kitchen::find_in_kitchen(&ks, m, &target);
        self.coat(call, ks, container, coating, at)
    }

    /// The whole first content of the given bowl coats the container; the bowl is emptied.
    fn coat_with_given(&self, call: &mut Call<'_, '_>, at: Number) -> Result<(), SimError> {
        let Start { m, mut ks, .. } = call.start()?;
        let target = call.input_arc(self.container)?.clone();
        let given = call.input_arc(self.ingredient)?.clone();
        let container = kitchen::find_in_kitchen(&ks, m, &target);
        let bowl = kitchen::find_in_kitchen(&ks, m, &given);
        let first = |ks: &Entity, p: &Path| kitchen::at(ks, m, p).and_then(|b| first_of(m, b));
        // Grease takes the bowl's content before checking anything (a missing bowl is an
        // error) and fails for failed inputs; flour fails when container or content is missing.
        let coating = if self.spread {
            let bowl = bowl.as_ref().ok_or(LispError::nil_argument("CONTENTS"))?;
            let coating = first(&ks, bowl);
            if call.is_failed(&given) || call.is_failed(&target) {
                return self.fail(call, ks, at, false);
            }
            coating.ok_or(LispError::nil_argument("(SETF SPREAD)"))?
        } else {
            match (
                container.is_some(),
                bowl.as_ref().and_then(|b| first(&ks, b)),
            ) {
                (true, Some(c)) => c,
                _ => return self.fail(call, ks, at, true),
            }
        };
        let bowl = bowl.ok_or(LispError::nil_argument("CONTENTS"))?;
        let mut coating = coating;
        if self.spread {
            set(m, &mut coating, m.slot("spread")?, Value::T)?;
        }
        set_at(m, &mut ks, &bowl, m.k.contents, Value::Nil)?;
        self.coat(call, ks, container, Value::obj(coating), at)
    }
}

/// A copy of the object in `slot` of `e`, to change and set back; `missing` is the argument the
/// reference finds nil when there is none.
fn inner_copy(e: &Entity, slot: SlotId, missing: &'static str) -> Result<Entity, SimError> {
    Ok(e.val(slot)
        .as_obj()
        .cloned()
        .ok_or(LispError::nil_argument(missing))?)
}
