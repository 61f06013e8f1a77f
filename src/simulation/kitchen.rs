//! Searching and rearranging a kitchen state the way the reference's helper functions do.
//!
//! Order matters everywhere: "the closest unused whisk" is the first match of a particular
//! depth-first walk, and objects that move are put at the front of their new place.

use crate::simulation::Model;
use crate::world::ontology::ClassId;
use crate::world::seq::{Kinds, Seq};
use crate::world::{Entity, Pid, Value, edit};
use std::sync::Arc;

/// A position inside a kitchen state: indexes into successive `contents` lists.
pub type Path = Vec<usize>;

fn contents<'e>(e: &'e Entity, m: &Model) -> &'e Seq<Value> {
    m.k.contents_of(e).items()
}

/// The entity at `path` below `root`.
pub fn at<'e>(root: &'e Entity, m: &Model, path: &[usize]) -> Option<&'e Entity> {
    let mut cur = root;
    for &i in path {
        cur = contents(cur, m).get(i)?.as_obj()?;
    }
    Some(cur)
}

/// Mutable access to the entity at `path`, copying shared nodes on the way down.
pub fn at_mut<'e>(root: &'e mut Arc<Entity>, m: &Model, path: &[usize]) -> Option<&'e mut Entity> {
    let mut cur = edit(root);
    for &i in path {
        let list = cur.list_mut(m.k.contents)?;
        cur = match list.get_mut(i)? {
            Value::Obj(e) => edit(e),
            _ => return None,
        };
    }
    Some(cur)
}

/// Remove and return the entity at `path` (its container keeps NIL when emptied).
pub fn remove(root: &mut Arc<Entity>, m: &Model, path: &[usize]) -> Option<Arc<Entity>> {
    let (&last, parent) = path.split_last()?;
    let container = at_mut(root, m, parent)?;
    let list = container.list_mut(m.k.contents)?;
    let removed = (last < list.len()).then(|| list.remove(last));
    container.tidy_list(m.k.contents);
    match removed? {
        Value::Obj(e) => Some(e),
        _ => None,
    }
}

/// Put `e` at the front of the contents of the container at `path`.
pub fn push_front(root: &mut Arc<Entity>, m: &Model, path: &[usize], e: Arc<Entity>) -> bool {
    match at_mut(root, m, path).and_then(|c| c.list_mut(m.k.contents)) {
        Some(list) => {
            list.insert(0, Value::Obj(e));
            true
        }
        None => false,
    }
}

/// Path of the location of `class` (fridge, counter-top ...) directly in the kitchen state.
pub fn location(ks: &Entity, m: &Model, class: ClassId) -> Option<Path> {
    contents(ks, m)
        .iter()
        .position(|v| v.as_obj().is_some_and(|e| e.class == class))
        .map(|i| vec![i])
}

/// `find-object-by-persistent-id`: pre-order depth-first search below `from`. The parts of a
/// long list that hold neither the id nor a container are passed over ([`Seq::find_where`]).
pub fn find_pid(root: &Entity, m: &Model, from: &[usize], pid: Pid) -> Option<Path> {
    fn walk(e: &Entity, m: &Model, pid: Pid, path: &mut Path) -> bool {
        let may_hold = |k: &Kinds| k.may_hold_pid(pid) || k.may_hold_class(|c| m.k.is_container(c));
        let found = contents(e, m).find_where(may_hold, |i, item| {
            let obj = item.as_obj()?;
            path.push(i);
            if obj.pid == pid || (m.k.is_container(obj.class) && walk(obj, m, pid, path)) {
                return Some(());
            }
            path.pop();
            None
        });
        found.is_some()
    }
    let start = at(root, m, from)?;
    let mut path = from.to_vec();
    walk(start, m, pid, &mut path).then_some(path)
}

/// Look an object up on the counter-top (find-CT); failed objects are never found.
pub fn find_on_counter(ks: &Entity, m: &Model, obj: &Entity) -> Option<Path> {
    if obj.class == m.k.failed_object {
        return None;
    }
    let ct = location(ks, m, m.k.counter_top)?;
    find_pid(ks, m, &ct, obj.pid)
}

/// Look an object up anywhere in the kitchen (find-K); failed objects are never found.
pub fn find_in_kitchen(ks: &Entity, m: &Model, obj: &Entity) -> Option<Path> {
    if obj.class == m.k.failed_object {
        return None;
    }
    find_pid(ks, m, &[], obj.pid)
}

/// `find-unused-kitchen-entity`: first an unused match directly in a place (in order), then
/// recursively inside each container of that place, in order.
pub fn find_unused(ks: &Entity, m: &Model, class: ClassId, excluded: &[Pid]) -> Option<Path> {
    fn walk(e: &Entity, m: &Model, class: ClassId, excluded: &[Pid], path: &mut Path) -> bool {
        let items = contents(e, m);
        let direct = items.find_where(
            |k| k.may_hold_class(|c| m.onto.is_a(c, class)),
            |i, item| {
                let obj = item.as_obj()?;
                let unused = m.onto.is_a(obj.class, class)
                    && !m.k.used_of(obj).truthy()
                    && !excluded.contains(&obj.pid);
                unused.then_some(i)
            },
        );
        if let Some(i) = direct {
            path.push(i);
            return true;
        }
        let inside = items.find_where(
            |k| k.may_hold_class(|c| m.k.is_container(c)),
            |i, item| {
                let obj = item.as_obj().filter(|o| m.k.is_container(o.class))?;
                path.push(i);
                if walk(obj, m, class, excluded, path) {
                    return Some(());
                }
                path.pop();
                None
            },
        );
        inside.is_some()
    }
    let mut path = Vec::new();
    walk(ks, m, class, excluded, &mut path).then_some(path)
}

/// `retrieve-concept-instance-and-bring-to-countertop`: take the first unused object of
/// `class` and put it at the front of the counter-top. Returns its persistent id.
///
/// An object taken from the counter-top itself is lost: the reference puts it in front of the
/// counter-top and then removes every occurrence of it from the place it came from, the same
/// counter-top. The step that took it still uses it (the reference holds the object), so it
/// stays until the step ends; the engine then removes it from the kitchen state the step
/// produces ([`super::effects`]).
pub fn take_default(
    ks: &mut Arc<Entity>,
    m: &Model,
    class: ClassId,
    excluded: &[Pid],
) -> Option<Pid> {
    let path = find_unused(ks, m, class, excluded)?;
    let obj = remove(ks, m, &path)?;
    let pid = obj.pid;
    let ct = location(ks, m, m.k.counter_top)?;
    if path[..path.len() - 1] == ct[..] {
        super::effects::lost(pid);
    }
    push_front(ks, m, &ct, obj).then_some(pid)
}

/// Remove the objects `pids` from the top of the counter-top.
pub fn remove_from_counter(ks: &mut Arc<Entity>, m: &Model, pids: &[Pid]) {
    let Some(ct) = location(ks, m, m.k.counter_top) else {
        return;
    };
    if let Some(counter) = at_mut(ks, m, &ct)
        && let Some(list) = counter.list_mut(m.k.contents)
    {
        list.retain(|v| v.as_obj().is_none_or(|e| !pids.contains(&e.pid)));
        counter.tidy_list(m.k.contents);
    }
}

/// `find-ingredient`: the container holding the first object of `class`, searching every
/// place but the counter-top; returns (path of that container, path of the place holding it).
pub fn find_ingredient(ks: &Entity, m: &Model, class: ClassId) -> Option<(Path, Path)> {
    // Returns (path of the match, path of its parent) where found.
    fn walk(e: &Entity, m: &Model, class: ClassId, path: &mut Path) -> Option<Path> {
        let items = contents(e, m);
        let not_counter = |c: ClassId| c != m.k.counter_top;
        let direct = items.find_where(
            |k| k.may_hold_class(|c| not_counter(c) && m.onto.is_a(c, class)),
            |i, item| {
                let obj = item.as_obj()?;
                (not_counter(obj.class) && m.onto.is_a(obj.class, class)).then_some(i)
            },
        );
        if let Some(i) = direct {
            let mut p = path.clone();
            p.push(i);
            return Some(p);
        }
        let is_inner = |c: ClassId| not_counter(c) && m.k.is_container(c);
        items.find_where(
            |k| k.may_hold_class(is_inner),
            |i, item| {
                let obj = item.as_obj().filter(|o| is_inner(o.class))?;
                path.push(i);
                let found = walk(obj, m, class, path);
                path.pop();
                found
            },
        )
    }
    let found = walk(ks, m, class, &mut Vec::new())?;
    // The reference answers with the bowl and the place holding the bowl: one level up from
    // the ingredient when it sits in a bowl, the place itself otherwise.
    if found.len() >= 3 {
        let bowl = found[..found.len() - 1].to_vec();
        let place = found[..found.len() - 2].to_vec();
        Some((bowl, place))
    } else {
        let place = found[..found.len() - 1].to_vec();
        Some((found, place))
    }
}
