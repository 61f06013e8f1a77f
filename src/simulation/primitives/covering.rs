//! Primitives: cover, uncover, line.

use super::common::{Start, arc_by_pid, find_kitchen_entities, first_of, obj_mut, set};
use super::errors::LispError;
use crate::base::number::Number;
use crate::base::profile::Profile;
use crate::simulation::kitchen::{
    at, at_mut, find_in_kitchen, find_on_counter, location, push_front, take_default,
};
use crate::simulation::{Call, Model, Primitive, SimError};
use crate::world::ontology::SlotId;
use crate::world::seq::Seq;
use crate::world::{Entity, Pid, Value, edit};
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] =
    &[("cover", &cover), ("uncover", &uncover), ("line", &line)];

/// Remove the object `pid` from the top level of the counter-top (where it was put) and return
/// it; `None` when it is not there.
fn take_off_counter(ks: &mut Arc<Entity>, m: &Model, pid: Pid) -> Option<Arc<Entity>> {
    let ct = location(ks, m, m.k.counter_top)?;
    let counter = at_mut(ks, m, &ct)?;
    let list = counter.list_mut(m.k.contents)?;
    let i = list
        .iter()
        .position(|v| v.as_obj().is_some_and(|e| e.pid == pid));
    let removed = i.map(|i| list.remove(i));
    counter.tidy_list(m.k.contents);
    match removed? {
        Value::Obj(e) => Some(e),
        _ => None,
    }
}

/// `cover`: the cover (a lid matching the bowl, else plastic wrap, P9) leaves the counter-top
/// and sits in the object's `covered-with`. 20 s.
fn cover(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, k, mut ks, .. }, t) = call.start_after("object", 20)?;
    let object = call.input("object")?.clone();
    let given = call.is_bound("cover");
    let cover = if given {
        let c = call.input("cover")?;
        find_in_kitchen(&ks, m, c).map(|_| c.pid)
    } else {
        let name = ["medium-bowl", "large-bowl", "jar"]
            .iter()
            .find(|c| m.onto.is_a_name(object.class, c))
            .map(|c| format!("{c}-lid"))
            .unwrap_or_else(|| "plastic-wrap".to_string());
        take_default(&mut ks, m, m.class(&name)?, &[])
    };
    let ok = !call.is_failed(&object)
        && if given {
            !call.is_failed(call.input("cover")?)
        } else {
            cover.is_some()
        };
    if !ok {
        call.fail(&[("covered-object", 1.0, Some(t))])?;
        if !given {
            call.fail(&[("cover", 0.0, Some(t))])?;
        }
        return call.finish(ks, t);
    }
    let container = find_in_kitchen(&ks, m, &object)
        .map(|_| object.pid)
        .ok_or(LispError::nil("(SETF COVERED-WITH)"))?;
    let cover = cover.ok_or(LispError::nil("(SETF IS-COVERING)"))?;
    let mut lid = arc_by_pid(&ks, m, cover).ok_or(LispError::nil("(SETF IS-COVERING)"))?;
    {
        let l = edit(&mut lid);
        set(m, l, m.slot("is-covering")?, Value::T)?;
        set(m, l, k.used, Value::T)?;
    }
    // The lid in the kitchen is updated too when it stays somewhere other than the counter-top.
    if let Some(e) = obj_mut(&mut ks, m, cover) {
        *e = (*lid).clone();
    }
    take_off_counter(&mut ks, m, cover);
    let c = obj_mut(&mut ks, m, container).ok_or(LispError::nil("(SETF COVERED-WITH)"))?;
    set(m, c, m.slot("covered-with")?, Value::Obj(lid.clone()))?;
    let covered = arc_by_pid(&ks, m, container)
        .map(Value::Obj)
        .ok_or(LispError::nil("COVERED-WITH"))?;
    call.bind("covered-object", 1.0, covered, Some(t))?;
    if !given {
        call.bind("cover", 0.0, Value::Obj(lid), Some(t))?;
    }
    call.finish(ks, t)
}

/// `uncover`: the cover goes back to the front of the counter-top (still used). 20 s.
fn uncover(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, mut ks, .. }, t) = call.start_after("object", 20)?;
    let object = call.input("object")?;
    let container = find_in_kitchen(&ks, m, object)
        .map(|_| object.pid)
        .ok_or(LispError::nil("COVERED-WITH"))?;
    let covered_with = m.slot("covered-with")?;
    let lid = arc_by_pid(&ks, m, container).and_then(|c| match c.val(covered_with) {
        Value::Obj(l) => Some(l.clone()),
        _ => None,
    });
    let Some(mut lid) = lid else {
        call.fail(&[("uncovered-object", 1.0, Some(t)), ("cover", 1.0, Some(t))])?;
        return call.finish(ks, t);
    };
    let c = obj_mut(&mut ks, m, container).ok_or(LispError::nil("COVERED-WITH"))?;
    set(m, c, covered_with, Value::Nil)?;
    set(m, edit(&mut lid), m.slot("is-covering")?, Value::Nil)?;
    let ct = location(&ks, m, m.k.counter_top).ok_or(LispError::CONTENTS_OF_NIL)?;
    push_front(&mut ks, m, &ct, lid.clone());
    let uncovered = arc_by_pid(&ks, m, container)
        .map(Value::Obj)
        .ok_or(LispError::CONTENTS_OF_NIL)?;
    call.bind("uncovered-object", 1.0, uncovered, Some(t))?;
    call.bind("cover", 1.0, Value::Obj(lid), Some(t))?;
    call.finish(ks, t)
}

/// Argument names of `line` per profile (2023: tray and paper; 2024: any lineable thing or list,
/// any lining).
struct LineArgs {
    out: &'static str,
    thing: &'static str,
    lining: &'static str,
}

fn line_args(call: &Call<'_, '_>) -> LineArgs {
    if call.sig.arg_index("baking-tray").is_some() {
        LineArgs {
            out: "lined-baking-tray",
            thing: "baking-tray",
            lining: "baking-paper",
        }
    } else {
        LineArgs {
            out: "lined-thing",
            thing: "thing-to-be-lined",
            lining: "lining",
        }
    }
}

/// `line`: a lineable thing (a concept takes a fresh one) gets a lining, by default fresh baking
/// paper (a given paper is ignored, P9; paper cups fill muffin tins). Profile 2024 also lines
/// every element of a list of lineable things: with fresh baking papers, or with copies of the
/// first content of a given bowl (lettuce on plates). 150 s.
fn line(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, ks, kt, .. } = call.start()?;
    let a = line_args(call);
    let t = kt.add(Number::int(150));
    let thing = call.input(a.thing)?.clone();
    let given = call.is_bound(a.lining);
    let lining = if given {
        Some(call.input(a.lining)?.clone())
    } else {
        None
    };
    let lineable = m.onto.is_a_name(thing.class, "lineable");
    let is_list = m.onto.is_a(thing.class, m.k.list_of_kitchen_entities);
    let all = |items: &Seq<Value>, class: &str| {
        items
            .iter()
            .all(|v| v.as_obj().is_some_and(|e| m.onto.is_a_name(e.class, class)))
    };
    let items_lineable = all(thing.val(m.k.items).items(), "lineable");
    let result = match &lining {
        None if lineable => line_one(call, ks, &thing, None, &a)?,
        None if is_list && items_lineable => line_list_with_paper(call, ks, &thing, &a)?,
        Some(l) if lineable && m.onto.is_a_name(l.class, "can-be-lined-with") => {
            line_one(call, ks, &thing, Some(l), &a)?
        }
        Some(l)
            if is_list
                && m.onto.is_a_name(l.class, "transferable-container")
                && items_lineable
                && all(l.val(m.k.contents).items(), "can-be-lined-with") =>
        {
            line_list_with_contents(call, ks, &thing, l)?
        }
        _ => {
            let (failed, ks) = not_lined(call, ks, &a, !given)?;
            call.bind(a.out, 1.0, failed, Some(t))?;
            // HEAD sets the new state's time only in the branches that line something.
            return match m.profile {
                Profile::R2024 => call.finish_untimed(ks, t),
                Profile::R2023 => call.finish(ks, t),
            };
        }
    };
    let (out, ks) = result;
    call.bind(a.out, 1.0, out, Some(t))?;
    call.finish(ks, t)
}

/// Nothing lined: a failed output (and a failed default lining when `bind_lining`).
fn not_lined(
    call: &mut Call<'_, '_>,
    ks: Arc<Entity>,
    a: &LineArgs,
    bind_lining: bool,
) -> Result<(Value, Arc<Entity>), SimError> {
    if bind_lining {
        call.fail(&[(a.lining, 0.0, None)])?;
    }
    Ok((call.failed(), ks))
}

/// Mark a lining (paper, cups) as lining and used.
fn mark_lining(m: &Model, lining: &mut Entity, is_lining: SlotId) -> Result<(), SimError> {
    set(m, lining, is_lining, Value::T)?;
    set(m, lining, m.k.used, Value::T)
}

/// Line a lineable thing with `lining` and mark it used.
fn set_lined(m: &Model, e: &mut Entity, lined_with: SlotId, lining: Value) -> Result<(), SimError> {
    set(m, e, lined_with, lining)?;
    set(m, e, m.k.used, Value::T)
}

/// Line the list item `elem` in place: the reference changes the list's own item, which
/// [`crate::simulation::effects::aliased`] records.
fn line_item(
    m: &Model,
    elem: &mut Value,
    lined_with: SlotId,
    lining: Value,
) -> Result<(), SimError> {
    if let Value::Obj(e) = elem {
        let before = e.clone();
        set_lined(m, edit(e), lined_with, lining)?;
        crate::simulation::effects::aliased(before, e);
    }
    Ok(())
}

/// The lineable thing in the new state: a fresh one for a concept, else looked up on the
/// counter-top.
fn target_lineable(call: &Call<'_, '_>, ks: &mut Arc<Entity>, thing: &Entity) -> Option<Pid> {
    let m = call.model;
    if thing.val(m.k.is_concept).truthy() {
        take_default(ks, m, thing.class, &[])
    } else {
        find_on_counter(ks, m, thing).map(|_| thing.pid)
    }
}

/// Line one lineable thing; binds the default lining itself in case 1.
fn line_one(
    call: &mut Call<'_, '_>,
    mut ks: Arc<Entity>,
    thing: &Entity,
    lining: Option<&Entity>,
    a: &LineArgs,
) -> Result<(Value, Arc<Entity>), SimError> {
    let m = call.model;
    let k = &m.k;
    let tray = target_lineable(call, &mut ks, thing);
    let paper_class = m.class("baking-paper")?;
    let cups_class = m.class("paper-baking-cups")?;
    // The lining: paper cups collected for muffin tins, else the first unused baking paper.
    let mut cups: Option<Entity> = None;
    let paper = match (tray, lining) {
        (None, _) => None,
        (Some(_), Some(l))
            if m.onto.is_a_name(thing.class, "muffin-tins") && l.class == cups_class =>
        {
            cups = Some(collect_cups(call, &mut ks, thing)?);
            None
        }
        (Some(_), _) => take_default(&mut ks, m, paper_class, &[]),
    };
    let (is_lining, lined_with) = (m.slot("is-lining")?, m.slot("lined-with")?);
    let lining_obj: Option<Arc<Entity>> = match (&cups, paper) {
        (Some(c), _) if c.val(k.items).truthy() => {
            let mut c = c.clone();
            mark_lining(m, &mut c, is_lining)?;
            if let Some(items) = c.list_mut(k.items) {
                for cup in items.iter_mut() {
                    if let Value::Obj(e) = cup {
                        set(m, edit(e), k.used, Value::T)?;
                    }
                }
            }
            Some(Arc::new(c))
        }
        (Some(_), _) => None,
        (None, Some(p)) => {
            let mut p =
                take_off_counter(&mut ks, m, p).ok_or(LispError::nil("(SETF IS-LINING)"))?;
            mark_lining(m, edit(&mut p), is_lining)?;
            Some(p)
        }
        (None, None) => None,
    };
    let (Some(tray), Some(lining_obj)) = (tray, lining_obj) else {
        return not_lined(call, ks, a, lining.is_none());
    };
    let e = obj_mut(&mut ks, m, tray).ok_or(LispError::nil("(SETF LINED-WITH)"))?;
    set_lined(m, e, lined_with, Value::Obj(lining_obj.clone()))?;
    let out = arc_by_pid(&ks, m, tray)
        .map(Value::Obj)
        .ok_or(LispError::nil("LINED-WITH"))?;
    if lining.is_none() {
        call.bind(a.lining, 0.0, Value::Obj(lining_obj), None)?;
    }
    Ok((out, ks))
}

/// Paper cups for muffin tins: take cup collections by default and move cups out of them until
/// there is one per tin; an emptied collection leaves the counter-top.
fn collect_cups(
    call: &mut Call<'_, '_>,
    ks: &mut Arc<Entity>,
    tins: &Entity,
) -> Result<Entity, SimError> {
    let m = call.model;
    let k = &m.k;
    let cups_class = m.class("paper-baking-cups")?;
    let number_of_tins = m.slot("number-of-tins")?;
    let mut remaining = tins
        .val(number_of_tins)
        .as_obj()
        .and_then(|q| q.val(k.value).as_num())
        .ok_or(LispError::nil("VALUE"))?;
    let mut collected = call.maker.make(cups_class);
    loop {
        let Some(pid) = take_default(ks, m, cups_class, &[]) else {
            return Err(LispError::nil("ITEMS").into());
        };
        let one = Number::int(1);
        let coll = obj_mut(ks, m, pid).ok_or(LispError::nil("ITEMS"))?;
        let mut items = coll.val(k.items).items().to_vec();
        while remaining.num_cmp(&Number::ZERO).is_gt() && !items.is_empty() {
            let cup = items.remove(0);
            if let Some(list) = collected.list_mut(k.items) {
                list.insert(0, cup);
            }
            remaining = remaining.sub(one);
        }
        let emptied = items.is_empty();
        set(m, coll, k.items, Value::list(items))?;
        if emptied {
            take_off_counter(ks, m, pid);
        }
        if !remaining.num_cmp(&Number::ZERO).is_gt() {
            break;
        }
    }
    collected.tidy_list(k.items);
    Ok(collected)
}

/// 2024, case 1 with a list: one fresh baking paper per element. The elements lined are the
/// list's own items (`find-kitchen-entities` at HEAD returns them, not the counter-top's
/// objects), so the kitchen state's plates stay unlined; the papers stay on the counter-top.
fn line_list_with_paper(
    call: &mut Call<'_, '_>,
    mut ks: Arc<Entity>,
    thing: &Entity,
    a: &LineArgs,
) -> Result<(Value, Arc<Entity>), SimError> {
    let m = call.model;
    let k = &m.k;
    let found = kitchen_entities(call, &ks, thing)?;
    let paper_class = m.class("baking-paper")?;
    let n = thing.val(k.items).items().len();
    let papers: Vec<Option<Pid>> = (0..n)
        .map(|_| take_default(&mut ks, m, paper_class, &[]))
        .collect();
    let Some(mut list) = found.filter(|_| n > 0) else {
        return not_lined(call, ks, a, true);
    };
    let is_lining = m.slot("is-lining")?;
    let mut linings = Vec::with_capacity(n);
    let papers = papers.iter().map(|paper| {
        let paper = paper.ok_or(LispError::nil("(SETF IS-LINING)"))?;
        let p = obj_mut(&mut ks, m, paper).ok_or(LispError::nil("(SETF IS-LINING)"))?;
        mark_lining(m, p, is_lining)?;
        let p = arc_by_pid(&ks, m, paper).ok_or(LispError::nil("(SETF IS-LINING)"))?;
        linings.push(Value::Obj(p.clone()));
        Ok(Value::Obj(p))
    });
    line_elements(m, &mut list, papers)?;
    call.bind(a.lining, 1.0, Value::list(linings), None)?;
    Ok((Value::obj(list), ks))
}

/// 2024, case 2 with a list and a bowl: every element is lined with a copy of the bowl's first
/// content (e.g. lettuce leaves on plates); the bowl keeps its contents.
fn line_list_with_contents(
    call: &mut Call<'_, '_>,
    ks: Arc<Entity>,
    thing: &Entity,
    bowl: &Entity,
) -> Result<(Value, Arc<Entity>), SimError> {
    let m = call.model;
    let list = kitchen_entities(call, &ks, thing)?;
    let mut list = list.ok_or(LispError::nil("ITEMS"))?;
    let source = find_in_kitchen(&ks, m, bowl).and_then(|p| at(&ks, m, &p).cloned());
    let first = source.as_ref().and_then(|b| first_of(m, b));
    let is_lining = m.slot("is-lining")?;
    let copies = std::iter::repeat_with(|| {
        let first = first.as_ref().ok_or(LispError::nil("(SETF IS-LINING)"))?;
        let mut copy = call.maker.copy(first);
        set(m, &mut copy, is_lining, Value::T)?;
        Ok(Value::obj(copy))
    });
    line_elements(m, &mut list, copies)?;
    Ok((Value::obj(list), ks))
}

/// Line the elements of `list` in order, each with the next of `linings` (made only while
/// elements are left).
fn line_elements(
    m: &Model,
    list: &mut Entity,
    linings: impl Iterator<Item = Result<Value, SimError>>,
) -> Result<(), SimError> {
    let lined_with = m.slot("lined-with")?;
    let mut items = list.val(m.k.items).items().to_vec();
    for (elem, lining) in items.iter_mut().zip(linings) {
        line_item(m, elem, lined_with, lining?)?;
    }
    set(m, list, m.k.items, Value::list(items))
}

/// `find-kitchen-entities` of the list `thing` on the counter-top of `ks`.
fn kitchen_entities(
    call: &mut Call<'_, '_>,
    ks: &Entity,
    thing: &Entity,
) -> Result<Option<Entity>, SimError> {
    let m = call.model;
    let ct = location(ks, m, m.k.counter_top).ok_or(LispError::CONTENTS_OF_NIL)?;
    let counter = at(ks, m, &ct).ok_or(LispError::CONTENTS_OF_NIL)?;
    find_kitchen_entities(m, call.maker, thing, counter)
}
