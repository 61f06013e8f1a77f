//! Primitives: cut, mash, peel, seed, wash, grind.
//!
//! Mash, peel and seed work on a detached copy of their input container (the kitchen state
//! keeps the unprocessed one); cut, wash and grind change the container in the kitchen.

use super::common::{
    Lookup, Start, bound, mark_used, node_at, node_mut, prepend_contents, set, update_contents,
};
use super::errors::LispError;
use crate::base::profile::Profile;
use crate::simulation::kitchen;
use crate::simulation::{Call, Primitive, SimError};
use crate::world::{Entity, Value, edit};

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("cut", &cut),
    ("mash", &mash),
    ("peel", &PEEL),
    ("seed", &SEED),
    ("wash", &wash),
    ("grind", &grind),
];

/// `cut`: every content gets the cut pattern; 2024 also needs a cutting board.
fn cut(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, mut ks, .. }, at) = call.start_after("object", 60)?;
    let tool_given = call.is_bound("cutting-tool");
    let with_board = m.profile == Profile::R2024;
    let surface_given = with_board && call.is_bound("cutting-surface");
    // A default knife comes before a default board; a given tool is looked up at the end.
    let knife = if tool_given {
        None
    } else {
        kitchen::take_default(&mut ks, m, m.class("knife")?, &[])
    };
    let board = if with_board {
        call.tool(&mut ks, "cutting-surface", "cutting-board", Lookup::Counter)?
    } else {
        None
    };
    let container = kitchen::find_in_kitchen(&ks, m, call.input("object")?);
    let ok =
        container.is_some() && (tool_given || knife.is_some()) && (!with_board || board.is_some());
    let (Some(container), true) = (container, ok) else {
        let mut outs = vec![("cut-object", 1.0, Some(at))];
        if !tool_given {
            outs.push(("cutting-tool", 0.0, Some(at)));
        }
        if with_board && !surface_given {
            outs.push((
                "cutting-surface",
                if tool_given { 1.0 } else { 0.0 },
                Some(at),
            ));
        }
        call.fail(&outs)?;
        return call.finish(ks, at);
    };
    let pattern = Value::Obj(call.input_arc("cut-pattern")?.clone());
    let is_cut = m.slot("is-cut")?;
    update_contents(m, node_mut(m, &mut ks, &container)?, |item| {
        set(m, item, is_cut, pattern.clone())
    })?;
    let tool = match knife {
        Some(k) => k,
        None => call
            .find(&ks, "cutting-tool", Lookup::Counter)?
            .ok_or(LispError::SETF_USED_OF_NIL)?,
    };
    mark_used(m, &mut ks, tool, LispError::USED_OF_NIL)?;
    if let Some(board) = board {
        mark_used(m, &mut ks, board, LispError::USED_OF_NIL)?;
    }
    call.bind(
        "cut-object",
        1.0,
        Value::Obj(node_at(m, &ks, &container)?),
        Some(at),
    )?;
    if !tool_given {
        let found = bound(m, &ks, tool, LispError::USED_OF_NIL)?;
        call.bind("cutting-tool", 0.0, found, Some(at))?;
    }
    if let (Some(board), false) = (board, surface_given) {
        let score = if tool_given { 1.0 } else { 0.0 };
        let found = bound(m, &ks, board, LispError::USED_OF_NIL)?;
        call.bind("cutting-surface", score, found, Some(at))?;
    }
    call.finish(ks, at)
}

/// `mash`: a detached copy of the input whose contents are mashed; a fork by default.
fn mash(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, mut ks, .. }, at) = call.start_after("input-ingredient", 60)?;
    let input = call.input_arc("input-ingredient")?.clone();
    let tool_given = call.is_bound("mashing-tool");
    let (fork, ok) = call.deferred_tool(&mut ks, "mashing-tool", "fork", &input)?;
    if !ok {
        let mut outs = vec![("mashed-ingredient", 1.0, Some(at))];
        if !tool_given {
            outs.push(("mashing-tool", 0.0, Some(at)));
        }
        call.fail(&outs)?;
        return call.finish(ks, at);
    }
    let mut mashed = call.maker.copy(&input);
    let flag = m.slot("mashed")?;
    update_contents(m, &mut mashed, |item| set(m, item, flag, Value::T))?;
    // A given tool that is not in the kitchen is only noticed when it is marked used.
    let tool = call.use_deferred_tool(&mut ks, fork, "mashing-tool")?;
    call.bind("mashed-ingredient", 1.0, Value::obj(mashed), Some(at))?;
    if !tool_given {
        let found = bound(m, &ks, tool, LispError::USED_OF_NIL)?;
        call.bind("mashing-tool", 0.0, found, Some(at))?;
    }
    call.finish(ks, at)
}

/// Peel and seed: a detached copy of the input is processed item by item with a knife, the
/// removed parts go into a fresh medium bowl.
struct Strip {
    output: &'static str,
    waste: &'static str,
    tool: &'static str,
    /// Peeling boiled eggs replaces them by hard-boiled eggs and shells.
    peeling: bool,
    /// Peel with a given tool sets the kitchen time only on success.
    time_only_on_success: bool,
}

const PEEL: Strip = Strip {
    output: "peeled-ingredient",
    waste: "peel-of-ingredient",
    tool: "peeling-tool",
    peeling: true,
    time_only_on_success: true,
};

const SEED: Strip = Strip {
    output: "seeded-ingredient",
    waste: "seed-of-ingredient",
    tool: "seeding-tool",
    peeling: false,
    time_only_on_success: false,
};

impl Primitive for Strip {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let (Start { m, mut ks, .. }, at) = call.start_after("input-ingredient", 60)?;
        let tool_given = call.is_bound(self.tool);
        let tool = call.tool(&mut ks, self.tool, "knife", Lookup::Counter)?;
        let bowl = kitchen::take_default(&mut ks, m, m.class("medium-bowl")?, &[]);
        let input = call.input_arc("input-ingredient")?.clone();
        let (Some(tool), Some(bowl), false) = (tool, bowl, call.is_failed(&input)) else {
            let mut outs = vec![(self.output, 1.0, Some(at)), (self.waste, 0.0, Some(at))];
            if !tool_given {
                outs.push((self.tool, 0.0, Some(at)));
            }
            call.fail(&outs)?;
            if tool_given && self.time_only_on_success {
                return call.finish_untimed(ks, at);
            }
            return call.finish(ks, at);
        };
        let mut processed = call.maker.copy(&input);
        let mut waste = Vec::new();
        if self.peeling {
            self.peel_items(call, &mut processed, &mut waste)?;
        } else {
            let seeded = m.slot("seeded")?;
            let seed_of = m.slot("seed-of")?;
            let seed = m.class("seed")?;
            let mut items = processed.val(m.k.contents).items().to_vec();
            for item in items.iter_mut() {
                let Value::Obj(e) = item else { continue };
                set(m, edit(e), seeded, Value::T)?;
                let mut s = call.maker.make(seed);
                set(m, &mut s, seed_of, item.clone())?;
                waste.push(Value::obj(s));
            }
            set(m, &mut processed, m.k.contents, Value::list(items))?;
        }
        let bowl_path =
            kitchen::find_pid(&ks, m, &[], bowl).ok_or(LispError::nil_argument("CONTENTS"))?;
        let bowl_obj = node_mut(m, &mut ks, &bowl_path)?;
        waste.reverse();
        prepend_contents(m, bowl_obj, waste)?;
        mark_used(m, &mut ks, tool, LispError::USED_OF_NIL)?;
        mark_used(m, &mut ks, bowl, LispError::USED_OF_NIL)?;
        call.bind(self.output, 1.0, Value::obj(processed), Some(at))?;
        let found = bound(m, &ks, bowl, LispError::USED_OF_NIL)?;
        call.bind(self.waste, 0.0, found, Some(at))?;
        if !tool_given {
            let found = bound(m, &ks, tool, LispError::USED_OF_NIL)?;
            call.bind(self.tool, 0.0, found, Some(at))?;
        }
        call.finish(ks, at)
    }
}

impl Strip {
    /// Peel every item of `container` (new contents in reverse order); `waste` receives the
    /// peels and shells in the order they were made.
    fn peel_items(
        &self,
        call: &mut Call<'_, '_>,
        container: &mut Entity,
        waste: &mut Vec<Value>,
    ) -> Result<(), SimError> {
        let m = call.model;
        let egg = m.class("egg")?;
        let boiled = m.slot("boiled")?;
        let peeled = m.slot("peeled")?;
        let peel_of = m.slot("peel-of")?;
        let cracked = m.slot("cracked")?;
        let mut out = Vec::new();
        for item in container.val(m.k.contents).items() {
            let Value::Obj(e) = item else { continue };
            let boiled_egg = m.onto.is_a(e.class, egg)
                && e.get(boiled)
                    .ok_or(LispError::nil_argument("BOILED"))?
                    .truthy();
            if boiled_egg {
                out.push(Value::obj(call.maker.make(m.class("hard-boiled-egg")?)));
                let shell = call
                    .maker
                    .make_with(m.class("egg-shell")?, &[(cracked, Value::T)]);
                waste.push(Value::obj(shell));
            } else {
                let mut e = e.clone();
                set(m, edit(&mut e), peeled, Value::T)?;
                let e = Value::Obj(e);
                let mut p = call.maker.make(m.class("peel")?);
                set(m, &mut p, peel_of, e.clone())?;
                out.push(e);
                waste.push(Value::obj(p));
            }
        }
        out.reverse();
        set(m, container, m.k.contents, Value::list(out))
    }
}

/// `wash`: every washable content of a container on the counter-top is washed.
fn wash(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let input = "container-with-input-ingredients";
    let output = "container-with-washed-ingredients";
    let (Start { m, mut ks, .. }, at) = call.start_after(input, 60)?;
    let Some(path) = kitchen::find_on_counter(&ks, m, call.input(input)?) else {
        call.fail(&[(output, 1.0, Some(at))])?;
        return call.finish(ks, at);
    };
    flag_contents(call, node_mut(m, &mut ks, &path)?, "washable", "washed")?;
    call.bind(output, 1.0, Value::Obj(node_at(m, &ks, &path)?), Some(at))?;
    call.finish(ks, at)
}

/// Set `flag` on every content that is a `property` (e.g. washable → washed).
fn flag_contents(
    call: &Call<'_, '_>,
    container: &mut Entity,
    property: &str,
    flag: &str,
) -> Result<(), SimError> {
    let m = call.model;
    let property = m.class(property)?;
    let flag = m.slot(flag)?;
    update_contents(m, container, |item| {
        if m.onto.is_a(item.class, property) {
            set(m, item, flag, Value::T)
        } else {
            Ok(())
        }
    })
}

/// `grind`: grindable contents are ground, with a food processor by default.
fn grind(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let input = "container-with-ingredients-to-be-ground";
    let output = "container-with-ground-contents";
    let (Start { m, mut ks, .. }, at) = call.start_after(input, 90)?;
    let tool_given = call.is_bound("grinding-tool");
    let tool = call.tool(&mut ks, "grinding-tool", "food-processor", Lookup::Kitchen)?;
    let container = kitchen::find_in_kitchen(&ks, m, call.input(input)?);
    let (Some(path), Some(tool)) = (container, tool) else {
        let mut outs = vec![(output, 1.0, Some(at))];
        if !tool_given {
            outs.push(("grinding-tool", 1.0, Some(at)));
        }
        call.fail(&outs)?;
        return call.finish(ks, at);
    };
    flag_contents(call, node_mut(m, &mut ks, &path)?, "grindable", "ground")?;
    mark_used(m, &mut ks, tool, LispError::USED_OF_NIL)?;
    call.bind(output, 1.0, Value::Obj(node_at(m, &ks, &path)?), Some(at))?;
    if !tool_given {
        let found = bound(m, &ks, tool, LispError::USED_OF_NIL)?;
        call.bind("grinding-tool", 1.0, found, Some(at))?;
    }
    call.finish(ks, at)
}
