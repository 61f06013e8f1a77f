//! Kitchen entities: instances of ontology classes with slots, shared copy-on-write.
//!
//! The reference deep-copies the whole kitchen before every action and binds snapshots of
//! objects to variables. Here every object sits behind an `Arc`; a copy is a pointer copy and a
//! change copies only the path from the kitchen state down to the changed object
//! (`Arc::make_mut`). Snapshots therefore come for free and never change afterwards.
//!
//! What is made or copied is counted against the recipe's memory budget
//! ([`budget::charge`]): an object one cell and one per slot, a list one per item.

pub mod ontology;
pub mod rewrite;
pub mod seq;

use crate::base::budget;
use crate::base::number::Number;
use crate::world::ontology::{
    Class, ClassId, Init, Made as DefaultMade, Ontology, SlotId, defaults_made,
};
use crate::world::seq::{Seq, Tagged};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, OnceLock, Weak};

/// Identity that survives copying ("persistent-id"); all look-ups across kitchen states use it.
pub type Pid = u32;

#[derive(Clone, Debug)]
pub enum Value {
    Nil,
    T,
    Num(Number),
    /// A raw symbol inside a list constant of a network (`(a b)`); no primitive can use it.
    Sym(Arc<str>),
    /// A Lisp string; compared case-insensitively.
    Str(Arc<str>),
    Obj(Arc<Entity>),
    /// A list: its items shared with every copy of the value, and in parts with the lists
    /// made from it by an edit once it is long ([`Seq`]).
    List(Arc<Seq<Value>>),
}

impl Value {
    pub fn obj(e: Entity) -> Value {
        Value::Obj(Arc::new(e))
    }

    pub fn list(items: Vec<Value>) -> Value {
        budget::charge(items.len());
        if items.is_empty() {
            Value::Nil
        } else {
            Value::List(Arc::new(Seq::from(items)))
        }
    }

    pub fn as_obj(&self) -> Option<&Entity> {
        match self {
            Value::Obj(e) => Some(e),
            _ => None,
        }
    }

    pub fn as_num(&self) -> Option<Number> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// List elements (NIL is the empty list).
    pub fn items(&self) -> &Seq<Value> {
        static NONE: Seq<Value> = Seq::new();
        match self {
            Value::List(v) => v,
            _ => &NONE,
        }
    }

    /// NIL, which in Lisp is also the empty list.
    pub fn is_nil(&self) -> bool {
        match self {
            Value::Nil => true,
            Value::List(items) => items.is_empty(),
            _ => false,
        }
    }

    pub fn truthy(&self) -> bool {
        !self.is_nil()
    }

    /// Whether some path from this value down through objects' slots and lists' items is
    /// longer than `limit` values. Walked with an explicit stack, so the walk itself never
    /// recurses; shared values are remembered by address, so it does not follow every path
    /// to them. A value held once (its `Arc` counted once, and not in a layout objects share) is
    /// reached only through its one holder, so it is met once and not remembered: what a primitive has just made (a
    /// thousand cracked eggs) costs no look-up. Nor is a shared value whose walk met at most
    /// [`SMALL_WALK`] values: walking it again costs no more than remembering it. A long list
    /// remembers the height of its tallest item in its parts ([`Seq::tallest`]), so a
    /// counter-top of a million portions that the next kitchen state shares is walked only
    /// where an edit changed it. An object remembers its height once a walk has measured it
    /// whole (until it changes), so the next walk that meets it, the check of a later output
    /// holding it, stops there.
    pub fn nested_deeper_than(&self, limit: usize) -> bool {
        self.height_within(limit, &mut HashMap::default()).is_none()
    }

    /// The height of the longest path down from this value (1 for an object of plain slots,
    /// 0 for a value that is neither an object nor a list), or `None` when it is over `limit`;
    /// `heights` holds the shared values walked so far.
    fn height_within(&self, limit: usize, heights: &mut Heights) -> Option<usize> {
        /// The identity of an object or list, and whether it is held more than once (only then
        /// is its height remembered).
        fn key(v: &Value) -> Option<(usize, bool)> {
            match v {
                Value::Obj(e) => Some((Arc::as_ptr(e) as usize, Arc::strong_count(e) > 1)),
                Value::List(l) => Some((
                    Arc::as_ptr(l) as *const u8 as usize,
                    Arc::strong_count(l) > 1,
                )),
                _ => None,
            }
        }
        /// The child at `i` and whether a layout several objects share holds it, or the
        /// height of an object's default not made yet.
        fn child(v: &Value, i: usize) -> Option<Result<(&Value, bool), usize>> {
            match v {
                Value::Obj(e) => Some(e.value_or_height(i)?.map(|c| (c, e.shares_value_at(i)))),
                Value::List(l) => l.get(i).map(|c| Ok((c, false))),
                _ => None,
            }
        }
        /// The height an object remembers from an earlier walk.
        fn measured(v: &Value) -> Option<usize> {
            v.as_obj().and_then(|e| e.height.get())
        }
        /// The height of a long list, from what its parts remember.
        fn long_list(v: &Value, heights: &mut Heights) -> Option<usize> {
            let Value::List(l) = v else { return None };
            let mut height_of = |item: &Value| match key(item) {
                None => 0,
                Some(_) => (item.height_within(usize::MAX, heights))
                    .expect("no height is over the largest number"),
            };
            l.tallest(&mut height_of).map(|tallest| tallest + 1)
        }
        let Some((_, root_shared)) = key(self) else {
            return Some(0);
        };
        if let Some(height) = measured(self) {
            return (height <= limit).then_some(height);
        }
        if let Some(height) = long_list(self, heights) {
            return (height <= limit).then_some(height);
        }
        // The path: each value, its next child, the greatest height among its children, how
        // many values the walk had met when it reached it, and whether it is shared.
        let mut path: Vec<(&Value, usize, usize, usize, bool)> = vec![(self, 0, 0, 0, root_shared)];
        let mut met = 1;
        loop {
            let depth = path.len();
            if depth > limit {
                return None;
            }
            let (value, next, tallest, _, _) = path.last_mut().expect("the path is not empty");
            let Some(c) = child(value, *next) else {
                let (value, _, tallest, met_before, shared) =
                    path.pop().expect("the path is not empty");
                let height = tallest + 1;
                if let Value::Obj(e) = value {
                    e.height.remember(height);
                } else if let Some((k, _)) = key(value)
                    && shared
                    && met - met_before > SMALL_WALK
                {
                    heights.insert(k, height);
                }
                match path.last_mut() {
                    Some(parent) => parent.2 = parent.2.max(height),
                    None => return Some(height),
                }
                continue;
            };
            *next += 1;
            let (c, in_shared_layout) = match c {
                Ok(c) => c,
                Err(height) if depth + height > limit => return None,
                Err(height) => {
                    *tallest = (*tallest).max(height);
                    continue;
                }
            };
            let Some((k, held_twice)) = key(c) else {
                continue;
            };
            let shared = held_twice || in_shared_layout;
            let known = match shared {
                true => heights.get(&k).copied(),
                false => None,
            };
            let known = measured(c).or(known);
            match known.or_else(|| long_list(c, heights)) {
                Some(h) if depth + h > limit => return None,
                Some(h) => {
                    let (_, _, tallest, _, _) = path.last_mut().expect("the path is not empty");
                    *tallest = (*tallest).max(h);
                }
                None => {
                    path.push((c, 0, 0, met, shared));
                    met += 1;
                }
            }
        }
    }
}

/// Heights of the shared values a walk of [`Value::nested_deeper_than`] has measured, by
/// address.
type Heights = HashMap<usize, usize, BuildHasherDefault<AddressHasher>>;

impl Tagged for Value {
    fn tag(&self) -> Option<(u32, u16)> {
        self.as_obj().map(|e| (e.pid, e.class))
    }
}

/// The most values a shared value's walk may meet and still be walked again rather than
/// remembered by [`Value::nested_deeper_than`] (a portion of dough: its amount and unit).
const SMALL_WALK: usize = 16;

/// Hashes the address of an object or list for [`Value::nested_deeper_than`]'s table of
/// heights. The table holds one entry for each shared value walked (a counter-top of a
/// million portions held by two kitchen states: a million), and SipHash on each address cost
/// as much as the walk itself; an address is already unique, so a multiply spreads it.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(b));
        }
    }

    fn write_usize(&mut self, address: usize) {
        self.write_u64(address as u64);
    }

    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing; the high bits folded down, as the table indexes by the low ones.
        let h = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

/// An object's height once measured, plus one (0: not measured). Copies keep it, as they
/// hold the same values; relaxed ordering suffices, as every thread that measures an object
/// stores the same number.
#[derive(Default)]
struct Height(AtomicU16);

impl Height {
    fn get(&self) -> Option<usize> {
        (self.0.load(Ordering::Relaxed) as usize).checked_sub(1)
    }

    fn remember(&self, height: usize) {
        if let Ok(stored) = u16::try_from(height + 1) {
            self.0.store(stored, Ordering::Relaxed);
        }
    }
}

impl Clone for Height {
    fn clone(&self) -> Self {
        Height(AtomicU16::new(self.0.load(Ordering::Relaxed)))
    }
}

/// A kitchen object. Its defaults that make objects (a kitchen state's places, a temperature's
/// amount) are made when first read, not when it is made: a `failed-object` of the reference
/// makes some thirty objects nothing ever reads, one for every action that fails. They take
/// the persistent ids and count the cells they would have when it was made, so which
/// defaults were read never shows.
///
/// Its slots are a layout shared with its copies and, for an object `make-instance` made,
/// with every object of its class (the class's plain defaults: NIL, T, numbers, strings),
/// and the slots changed since: a long network binds a fresh object or a changed copy at
/// every action, which then holds what it changed, not every slot of its class.
#[derive(Clone)]
pub struct Entity {
    pub class: ClassId,
    pub pid: Pid,
    /// Its height as [`Value::nested_deeper_than`] measured it, once measured: the values an
    /// object holds change only through its `&mut` methods, which forget it, so the engine's
    /// check of every output walks only what is new since (it sits in padding: no memory).
    height: Height,
    /// Every effective slot of the class (except the ids), in the class's layout order, with
    /// its value unless `changed` or `unmade` holds it (a default not made yet holds NIL).
    base: Arc<[(SlotId, Value)]>,
    /// The values of slots changed while `base` was shared, by the slot's place in the layout.
    changed: Changed,
    /// The place of the slot `changed` holds when it holds one.
    one_at: u16,
    /// Shared by the object's copies until one of them changes such a slot: a copy made
    /// before a default is read and the object read it alike, as the same ids.
    unmade: Option<Arc<Unmade>>,
}

/// The slots an object changed while sharing its layout, by place in the layout. Nearly
/// every object a long network makes or copies changes one slot (a concept's `is-concept`, a
/// quantity's value, an oven's temperature), held here without a list of its own (its place
/// in [`Entity::one_at`]): a list cost an allocation and the allocator's overhead per object,
/// several times an action.
#[derive(Clone, Debug)]
enum Changed {
    One(Value),
    /// None, or more than one (or one at a place past `u16`), sized to fit.
    Many(Box<[(usize, Value)]>),
}

impl Default for Changed {
    fn default() -> Changed {
        Changed::Many(Box::default())
    }
}

impl Changed {
    fn is_empty(&self) -> bool {
        matches!(self, Changed::Many(all) if all.is_empty())
    }

    /// The changed slots in a list with room for `room` more.
    fn into_vec(self, one_at: u16, room: usize) -> Vec<(usize, Value)> {
        match self {
            Changed::One(v) => {
                let mut all = Vec::with_capacity(1 + room);
                all.push((usize::from(one_at), v));
                all
            }
            Changed::Many(all) => {
                let mut all = all.into_vec();
                all.reserve_exact(room);
                all
            }
        }
    }

    /// What `all` holds, with the place of the one slot when it is one.
    fn from_vec(mut all: Vec<(usize, Value)>) -> (u16, Changed) {
        match all.pop() {
            Some((at, v)) if all.is_empty() && u16::try_from(at).is_ok() => {
                (u16::try_from(at).unwrap_or_default(), Changed::One(v))
            }
            last => {
                all.extend(last);
                (0, Changed::Many(all.into_boxed_slice()))
            }
        }
    }
}

/// The defaults of an object that are made when first read.
#[derive(Clone, Debug)]
struct Unmade {
    classes: Arc<Vec<Class>>,
    defaults: Vec<Pending>,
}

/// A default to make on first read: what makes it, where its slot is, and the persistent id
/// its objects count on from.
#[derive(Clone, Debug)]
struct Pending {
    at: usize,
    after_pid: Pid,
    init: Arc<Init>,
    value: OnceLock<Value>,
}

/// The fields that say what an object is (not the height measured of it).
impl std::fmt::Debug for Entity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entity")
            .field("class", &self.class)
            .field("pid", &self.pid)
            .field("base", &self.base)
            .field("changed", &self.changed)
            .field("unmade", &self.unmade)
            .finish()
    }
}

impl Entity {
    /// An object with every slot given.
    pub fn new(class: ClassId, pid: Pid, slots: Vec<(SlotId, Value)>) -> Entity {
        Entity::laid_out(class, pid, Arc::from(slots))
    }

    fn laid_out(class: ClassId, pid: Pid, base: Arc<[(SlotId, Value)]>) -> Entity {
        Entity {
            class,
            pid,
            height: Height::default(),
            base,
            changed: Changed::default(),
            one_at: 0,
            unmade: None,
        }
    }

    /// Forget the measured height: a slot's value is about to change.
    fn forget_height(&mut self) {
        *self.height.0.get_mut() = 0;
    }

    fn place(&self, slot: SlotId) -> Option<usize> {
        self.base.iter().position(|(s, _)| *s == slot)
    }

    pub fn get(&self, slot: SlotId) -> Option<&Value> {
        let at = self.place(slot)?;
        Some(self.value_at(at))
    }

    /// The slot at `at` of the class's layout, with its value.
    pub fn slot_at(&self, at: usize) -> Option<(SlotId, &Value)> {
        let (slot, _) = self.base.get(at)?;
        Some((*slot, self.value_at(at)))
    }

    /// Every slot with its value, in the class's layout order.
    pub fn slots(&self) -> impl Iterator<Item = (SlotId, &Value)> {
        (0..self.base.len()).filter_map(|at| self.slot_at(at))
    }

    /// Every slot's value, changeable (every default made first, the layout made the
    /// object's own).
    pub fn slots_mut(&mut self) -> impl Iterator<Item = (SlotId, &mut Value)> {
        self.forget_height();
        for at in 0..self.base.len() {
            self.settle(at);
        }
        if !self.changed.is_empty() || Arc::get_mut(&mut self.base).is_none() {
            self.base = self.folded();
            self.changed = Changed::default();
        }
        let own = Arc::get_mut(&mut self.base).expect("the layout was just made the object's own");
        own.iter_mut().map(|(s, v)| (*s, v))
    }

    /// A slot's value, changeable; `None` when the class lacks it.
    pub fn get_mut(&mut self, slot: SlotId) -> Option<&mut Value> {
        let at = self.place(slot)?;
        self.settle(at);
        Some(self.own(at))
    }

    /// The value at `at`, changeable: in the layout when the object holds it alone, else
    /// copied into the changed slots first.
    fn own(&mut self, at: usize) -> &mut Value {
        self.forget_height();
        if self.changed_at(at).is_some() {
            return self.changed_at_mut(at).expect("just found");
        }
        if Arc::get_mut(&mut self.base).is_some() {
            return &mut Arc::get_mut(&mut self.base).expect("held once")[at].1;
        }
        self.change(at, self.base[at].1.clone())
    }

    /// A copy of this object to change. An object that changed more than half of its slots
    /// gives the copy a layout of its own with the changes in it: a kitchen state has most of
    /// its slots changed (its places and temperature made, its time), and each action's copy
    /// of it held them all again, where now it holds what the actions since changed.
    fn copy_to_change(&self) -> Entity {
        let changed = match &self.changed {
            Changed::One(_) => 1,
            Changed::Many(all) => all.len(),
        };
        if changed * 2 <= self.base.len() {
            return self.clone();
        }
        Entity {
            class: self.class,
            pid: self.pid,
            height: self.height.clone(),
            base: self.folded(),
            changed: Changed::default(),
            one_at: 0,
            unmade: self.unmade.clone(),
        }
    }

    /// The layout with the changed slots' values in it.
    fn folded(&self) -> Arc<[(SlotId, Value)]> {
        let mut own = self.base.to_vec();
        match &self.changed {
            Changed::One(v) => own[usize::from(self.one_at)].1 = v.clone(),
            Changed::Many(all) => {
                for (at, v) in all.iter() {
                    own[*at].1 = v.clone();
                }
            }
        }
        Arc::from(own)
    }

    /// The changed value of the slot at `at`, if it changed.
    fn changed_at(&self, at: usize) -> Option<&Value> {
        match &self.changed {
            Changed::One(v) => (usize::from(self.one_at) == at).then_some(v),
            Changed::Many(all) => all.iter().find(|(a, _)| *a == at).map(|(_, v)| v),
        }
    }

    fn changed_at_mut(&mut self, at: usize) -> Option<&mut Value> {
        match &mut self.changed {
            Changed::One(v) => (usize::from(self.one_at) == at).then_some(v),
            Changed::Many(all) => all.iter_mut().find(|(a, _)| *a == at).map(|(_, v)| v),
        }
    }

    /// Add the slot at `at` (not changed yet) with `v` to the changed slots; its value there.
    fn change(&mut self, at: usize, v: Value) -> &mut Value {
        self.changed = match (std::mem::take(&mut self.changed), u16::try_from(at)) {
            (none, Ok(one_at)) if none.is_empty() => {
                self.one_at = one_at;
                Changed::One(v)
            }
            (held, _) => {
                let mut all = held.into_vec(self.one_at, 1);
                all.push((at, v));
                Changed::Many(all.into_boxed_slice())
            }
        };
        self.changed_at_mut(at).expect("just changed")
    }

    /// Drop the slot at `at` from the changed slots.
    fn unchange(&mut self, at: usize) {
        if self.changed_at(at).is_some() {
            let mut all = std::mem::take(&mut self.changed).into_vec(self.one_at, 0);
            all.retain(|(a, _)| *a != at);
            (self.one_at, self.changed) = Changed::from_vec(all);
        }
    }

    /// Put `v` into the slot at `at`.
    fn put(&mut self, at: usize, v: Value) {
        self.forget_height();
        if let Some(held) = self.changed_at_mut(at) {
            *held = v;
        } else if let Some(own) = Arc::get_mut(&mut self.base) {
            own[at].1 = v;
        } else {
            self.change(at, v);
        }
    }

    /// The value at `at`, or how deep it nests when it is a default not made yet (which
    /// measuring it does not make).
    fn value_or_height(&self, at: usize) -> Option<Result<&Value, usize>> {
        self.base.get(at)?;
        let unread = (self.unmade.as_ref()).filter(|u| {
            u.defaults
                .iter()
                .any(|p| p.at == at && p.value.get().is_none())
        });
        Some(match unread {
            Some(u) => Err(defaults_made(&u.classes, self.class)[at].height as usize),
            None => Ok(self.value_at(at)),
        })
    }

    /// Whether the value at `at` is held by the layout this object shares with others (so
    /// a value held once there may be reached through several objects).
    fn shares_value_at(&self, at: usize) -> bool {
        Arc::strong_count(&self.base) > 1 && self.changed_at(at).is_none()
    }

    /// The slots whose values are made, with them: a default not read yet holds no object
    /// that anything has seen.
    pub fn made_slots(&self) -> impl Iterator<Item = (SlotId, &Value)> {
        (0..self.base.len()).filter_map(|at| match self.value_or_height(at)? {
            Ok(v) => Some((self.base[at].0, v)),
            Err(_) => None,
        })
    }

    fn value_at(&self, at: usize) -> &Value {
        let pending =
            (self.unmade.as_ref()).and_then(|u| Some((u, u.defaults.iter().find(|p| p.at == at)?)));
        if let Some((unmade, p)) = pending {
            return p.value.get_or_init(|| {
                let mut made = Making::later(&unmade.classes, p.after_pid);
                made.init(&p.init)
            });
        }
        match self.changed_at(at) {
            Some(v) => v,
            None => &self.base[at].1,
        }
    }

    /// Make the default at `at` if it is not made yet, into the slot itself.
    fn settle(&mut self, at: usize) {
        let Some(unmade) = self.unmade.as_mut() else {
            return;
        };
        let Some(i) = unmade.defaults.iter().position(|p| p.at == at) else {
            return;
        };
        let unmade = Arc::make_mut(unmade);
        let p = unmade.defaults.swap_remove(i);
        let value = match p.value.into_inner() {
            Some(v) => v,
            None => Making::later(&unmade.classes, p.after_pid).init(&p.init),
        };
        if unmade.defaults.is_empty() {
            self.unmade = None;
        }
        self.put(at, value);
    }

    /// The default at `at` is to be made on first read, its objects' ids after `after_pid`.
    fn defer(&mut self, classes: &Arc<Vec<Class>>, at: usize, init: &Arc<Init>, after_pid: Pid) {
        self.forget_height();
        match self.base[at].1 {
            // Made by `make-instance`: the layout holds NIL there, and nothing changed it yet.
            Value::Nil => self.unchange(at),
            _ => self.put(at, Value::Nil),
        }
        let unmade = Arc::make_mut(self.unmade.get_or_insert_with(|| {
            Arc::new(Unmade {
                classes: Arc::clone(classes),
                defaults: Vec::new(),
            })
        }));
        unmade.defaults.retain(|p| p.at != at);
        // Sized to fit: a failed action's object holds its pending defaults to the end.
        unmade.defaults.reserve_exact(1);
        unmade.defaults.push(Pending {
            at,
            after_pid,
            init: Arc::clone(init),
            value: OnceLock::new(),
        });
    }

    /// The slot's value, NIL when the class has no such slot.
    pub fn val(&self, slot: SlotId) -> &Value {
        self.get(slot).unwrap_or(&Value::Nil)
    }

    pub fn has(&self, slot: SlotId) -> bool {
        self.place(slot).is_some()
    }

    /// Set a slot; `false` when the class lacks it (a Lisp error in the reference).
    #[must_use]
    pub fn set(&mut self, slot: SlotId, v: Value) -> bool {
        let Some(at) = self.place(slot) else {
            return false;
        };
        if let Some(unmade) = self.unmade.as_mut()
            && unmade.defaults.iter().any(|p| p.at == at)
        {
            Arc::make_mut(unmade).defaults.retain(|p| p.at != at);
            if unmade.defaults.is_empty() {
                self.unmade = None;
            }
        }
        self.put(at, v);
        true
    }

    /// Mutable access to a list-valued slot (NIL becomes an empty list). A list another value
    /// holds too is copied first, a long one sharing its chunks ([`Seq`]); the copy counts
    /// against the memory budget.
    pub fn list_mut(&mut self, slot: SlotId) -> Option<&mut Seq<Value>> {
        let v = self.get_mut(slot)?;
        if !matches!(v, Value::List(_)) {
            *v = Value::List(Arc::new(Seq::new()));
        }
        match v {
            Value::List(l) => {
                if Arc::get_mut(l).is_none() {
                    budget::charge(l.copied_by_edit());
                }
                Some(Arc::make_mut(l))
            }
            _ => None,
        }
    }

    /// Put `items` before the items of a list-valued slot (NIL is the empty list), sharing the
    /// items it held ([`Seq::prepend`]); `false` when the class lacks the slot.
    #[must_use]
    pub fn prepend(&mut self, slot: SlotId, items: Vec<Value>) -> bool {
        budget::charge(items.len());
        let Some(list) = self.list_mut(slot) else {
            return false;
        };
        list.prepend(items);
        self.tidy_list(slot);
        true
    }

    /// The cells this object counts for on its own (see [`budget::MEMORY_BUDGET`]).
    fn cells(&self) -> usize {
        1 + self.base.len()
    }

    /// Normalise an emptied list slot back to NIL (the reference's empty list *is* NIL).
    pub fn tidy_list(&mut self, slot: SlotId) {
        if let Some(v) = self.get_mut(slot)
            && matches!(v, Value::List(l) if l.is_empty())
        {
            *v = Value::Nil;
        }
    }
}

/// Mutable access to an object, copied first when another value holds it too
/// ([`Entity::copy_to_change`]); the copy counts against the memory budget.
pub fn edit(e: &mut Arc<Entity>) -> &mut Entity {
    if Arc::get_mut(e).is_none() {
        budget::charge(e.cells());
        *e = Arc::new(e.copy_to_change());
    }
    Arc::get_mut(e).expect("held once")
}

/// The value of a default that makes neither an object nor a list (NIL, T, a number, a
/// string), which every object made with it may share.
fn plain(init: &Init) -> Option<Value> {
    match init {
        Init::Nil => Some(Value::Nil),
        Init::T => Some(Value::T),
        Init::Num(n) => Some(Value::Num(*n)),
        Init::Str(s) => Some(Value::Str(s.clone())),
        Init::List(items) if items.is_empty() => Some(Value::Nil),
        Init::Instance(..) | Init::List(_) => None,
    }
}

/// The plain defaults of a class (NIL where a default makes an object or a list): the layout
/// every object `make-instance` makes of it starts from, made once per class table and thread.
fn plain_defaults(classes: &Arc<Vec<Class>>, class: ClassId) -> Arc<[(SlotId, Value)]> {
    type Layouts = (Weak<Vec<Class>>, Vec<Option<Arc<[(SlotId, Value)]>>>);
    thread_local! {
        static LAYOUTS: RefCell<Layouts> = const { RefCell::new((Weak::new(), Vec::new())) };
    }
    LAYOUTS.with_borrow_mut(|(table, layouts)| {
        // The weak reference keeps the table's address from being reused by another.
        if !std::ptr::eq(table.as_ptr(), Arc::as_ptr(classes)) {
            *table = Arc::downgrade(classes);
            layouts.clear();
        }
        layouts.resize(layouts.len().max(classes.len()), None);
        let c = &classes[class as usize];
        let layout = layouts[class as usize].get_or_insert_with(|| {
            (c.slots.iter().zip(&c.defaults))
                .map(|(slot, init)| (*slot, plain(init).unwrap_or(Value::Nil)))
                .collect()
        });
        Arc::clone(layout)
    })
}

/// Makes objects from the class table, handing out persistent ids in `make-instance`'s order:
/// now (charging the budget for what is made) or later, when an object's default is first
/// read (the ids and cells it was given when the object was made).
struct Making<'c> {
    classes: &'c Arc<Vec<Class>>,
    last_pid: Pid,
    charged: bool,
}

impl<'c> Making<'c> {
    /// The maker of a default first read, its objects' ids after `after_pid`.
    fn later(classes: &'c Arc<Vec<Class>>, after_pid: Pid) -> Self {
        Making {
            classes,
            last_pid: after_pid,
            charged: false,
        }
    }

    fn charge(&self, cells: u64) {
        if self.charged {
            budget::charge(usize::try_from(cells).unwrap_or(usize::MAX));
        }
    }

    /// `make-instance`: a fresh object; the defaults that make objects are made on first read.
    /// The slots `given` are set by the caller right after: their defaults' objects take their
    /// persistent ids and cells as ever, but nothing is kept to make them later.
    fn make(&mut self, class: ClassId, given: &dyn Fn(SlotId) -> bool) -> Entity {
        self.last_pid += 1;
        let c = &self.classes[class as usize];
        let made = defaults_made(self.classes, class);
        let mut e = Entity::laid_out(class, self.last_pid, plain_defaults(self.classes, class));
        let put_off = |at: usize| made[at].objects != 0 && !given(c.slots[at]);
        // The defaults put off ([`Making::default`]) held in one allocation, not grown one by one.
        let deferred = (0..made.len()).filter(|&at| put_off(at)).count();
        if deferred > 0 {
            e.unmade = Some(Arc::new(Unmade {
                classes: Arc::clone(self.classes),
                defaults: Vec::with_capacity(deferred),
            }));
        }
        for (at, init) in c.defaults.iter().enumerate() {
            // The layout holds the plain ones already.
            if plain(init).is_none() {
                match made[at].objects == 0 || put_off(at) {
                    true => self.default(&mut e, at, init, made[at]),
                    false => self.skip(made[at]),
                }
            }
        }
        self.charge(e.cells() as u64);
        e
    }

    /// What a default that is set over at once counts for: its objects' ids and its cells.
    fn skip(&mut self, made: DefaultMade) {
        self.last_pid = self.last_pid.saturating_add(made.objects);
        self.charge(made.cells);
    }

    /// The default `init` (which makes `made`) into the slot at `at` of `e`.
    fn default(&mut self, e: &mut Entity, at: usize, init: &Arc<Init>, made: DefaultMade) {
        if made.objects == 0 {
            let value = self.init(init);
            e.put(at, value);
        } else {
            e.defer(self.classes, at, init, self.last_pid);
            self.skip(made);
        }
    }

    fn init(&mut self, init: &Init) -> Value {
        match init {
            Init::Nil | Init::T | Init::Num(_) | Init::Str(_) => {
                plain(init).expect("a plain default")
            }
            Init::List(items) => {
                let items: Vec<Value> = items.iter().map(|i| self.init(i)).collect();
                self.charge(items.len() as u64);
                match items.is_empty() {
                    true => Value::Nil,
                    false => Value::List(Arc::new(Seq::from(items))),
                }
            }
            Init::Instance(class, set) => {
                let mut e = self.make(*class, &|slot| set.iter().any(|(s, _)| *s == slot));
                for (s, i) in set {
                    let v = self.init(i);
                    let _ = e.set(*s, v);
                }
                Value::obj(e)
            }
        }
    }
}

/// Creates objects: the source of fresh persistent ids for one simulation run.
#[derive(Clone, Debug)]
pub struct Maker<'o> {
    pub onto: &'o Ontology,
    next_pid: Pid,
}

impl<'o> Maker<'o> {
    pub fn new(onto: &'o Ontology, first_pid: Pid) -> Self {
        Maker {
            onto,
            next_pid: first_pid,
        }
    }

    /// The last persistent id handed out, to go on with the ids of a run later
    /// ([`Maker::new`] with it).
    pub fn last_pid(&self) -> Pid {
        self.next_pid
    }

    pub fn fresh_pid(&mut self) -> Pid {
        self.next_pid += 1;
        self.next_pid
    }

    /// Runs `f` with a maker that charges the budget, going on with this one's ids.
    fn now<T>(&mut self, f: impl FnOnce(&mut Making<'_>) -> T) -> T {
        let mut made = Making {
            classes: self.onto.class_table(),
            last_pid: self.next_pid,
            charged: true,
        };
        let out = f(&mut made);
        self.next_pid = made.last_pid;
        out
    }

    /// `make-instance`: a fresh object with the class defaults.
    pub fn make(&mut self, class: ClassId) -> Entity {
        self.now(|made| made.make(class, &|_| false))
    }

    /// `make-instance` with some slots given.
    pub fn make_with(&mut self, class: ClassId, set: &[(SlotId, Value)]) -> Entity {
        let given = |slot| set.iter().any(|(s, _)| *s == slot);
        let mut e = self.now(|made| made.make(class, &given));
        for (s, v) in set {
            let _ = e.set(*s, v.clone());
        }
        e
    }

    pub fn init(&mut self, init: &Init) -> Value {
        self.now(|made| made.init(init))
    }

    /// `copy-object`: same class and persistent id, slots carried over except those the
    /// class's copy methods do not copy (they take their defaults again).
    pub fn copy(&mut self, e: &Entity) -> Entity {
        let c = self.onto.class(e.class);
        budget::charge(e.cells());
        let mut out = e.clone();
        let made = defaults_made(self.onto.class_table(), e.class);
        for &slot in &c.uncopied {
            if let Some(at) = c.slots.iter().position(|s| *s == slot) {
                self.now(|maker| maker.default(&mut out, at, &c.defaults[at], made[at]));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An object holding `inner` in its one slot.
    fn wrap(inner: Value) -> Value {
        Value::obj(Entity::new(0, 0, vec![(0, inner)]))
    }

    fn chain(levels: usize) -> Value {
        (1..levels).fold(wrap(Value::Nil), |v, _| wrap(v))
    }

    #[test]
    fn nesting_counts_objects_and_lists_on_the_longest_path() {
        assert!(!Value::Nil.nested_deeper_than(0));
        assert!(!chain(5).nested_deeper_than(5));
        assert!(chain(5).nested_deeper_than(4));
        // A list is a level of its own: object → list → object.
        let listed = wrap(Value::list(vec![wrap(Value::Nil), Value::T]));
        assert!(!listed.nested_deeper_than(3));
        assert!(listed.nested_deeper_than(2));
        // The deepest of several branches decides.
        let uneven = Value::list(vec![chain(2), chain(7), chain(1)]);
        assert!(!uneven.nested_deeper_than(8));
        assert!(uneven.nested_deeper_than(7));
    }

    #[test]
    fn shared_values_are_remembered_and_measured_where_they_sit() {
        // Each level holds the one below twice: 2^60 paths, 60 distinct objects.
        let mut v = wrap(Value::Nil);
        for _ in 0..59 {
            v = Value::obj(Entity::new(0, 0, vec![(0, v.clone()), (1, v)]));
        }
        assert!(!v.nested_deeper_than(60));
        assert!(v.nested_deeper_than(59));
        // A value first met shallow and then deeper is measured at its deeper place.
        let shared = chain(3);
        let v = Value::list(vec![shared.clone(), wrap(wrap(shared))]);
        assert!(!v.nested_deeper_than(6));
        assert!(v.nested_deeper_than(5));
    }

    #[test]
    fn a_measured_height_is_forgotten_when_the_object_changes() {
        // Measured once, then changed in place and through a copy: each change is seen.
        let mut held = Arc::new(Entity::new(0, 0, vec![(0, chain(2)), (1, Value::T)]));
        let measure = |e: &Arc<Entity>, limit| Value::Obj(e.clone()).nested_deeper_than(limit);
        assert!(!measure(&held, 3));
        assert!(measure(&held, 2));
        assert!(edit(&mut held).set(0, chain(5)));
        assert!(measure(&held, 5));
        let snapshot = held.clone();
        let list = edit(&mut held).list_mut(1).expect("slot 1");
        list.insert(0, chain(7));
        assert!(measure(&held, 8) && !measure(&held, 9));
        assert!(!measure(&snapshot, 6), "the snapshot keeps its own height");
        // A deeper object inside a measured one, changed through the holder's slot.
        let mut outer = Arc::new(Entity::new(0, 0, vec![(0, Value::Obj(held))]));
        assert!(!measure(&outer, 10));
        if let Some(Value::Obj(inner)) = edit(&mut outer).get_mut(0) {
            assert!(edit(inner).set(0, chain(20)));
        }
        assert!(measure(&outer, 20) && !measure(&outer, 22));
        // Every slot made changeable at once.
        for (_, v) in edit(&mut outer).slots_mut() {
            *v = Value::Nil;
        }
        assert!(!measure(&outer, 1));
    }

    /// A place holding `items` in its slot 0 (contents) and a plain value in slot 1.
    fn place(pid: Pid, items: Vec<Value>) -> Arc<Entity> {
        Arc::new(Entity::new(
            0,
            pid,
            vec![(0, Value::list(items)), (1, Value::T)],
        ))
    }

    #[test]
    fn a_kitchen_state_copy_shares_what_a_change_does_not_touch() {
        use crate::base::budget::{self, Budget};
        // A kitchen of two places, each holding one object: the snapshot an earlier binding
        // keeps, and the state the next action changes one object of.
        let (fridge, counter) = (
            place(2, vec![Value::Obj(place(4, vec![]))]),
            place(3, vec![Value::Obj(place(5, vec![]))]),
        );
        let snapshot = place(1, vec![Value::Obj(fridge), Value::Obj(counter)]);
        let mut next = snapshot.clone();
        let charged = Budget::new(std::time::Duration::from_secs(60)).run(|| {
            let before = budget::cells();
            // The change's path: kitchen → its contents → the counter → its contents → object.
            let kitchen = edit(&mut next);
            let places = kitchen.list_mut(0).expect("the kitchen has contents");
            let Some(Value::Obj(counter)) = places.get_mut(1) else {
                unreachable!("the counter is an object")
            };
            let on_counter = edit(counter).list_mut(0).expect("the counter has contents");
            let Some(Value::Obj(object)) = on_counter.get_mut(0) else {
                unreachable!("the counter holds an object")
            };
            assert!(edit(object).set(1, Value::Nil));
            budget::cells() - before
        });
        // What the path holds is copied and charged, an object a cell and one per slot, a list
        // one per item: kitchen 3, its places 2, counter 3, its contents 1, object 3. No more.
        assert_eq!(charged, 3 + 2 + 3 + 1 + 3);
        let (old, new) = (snapshot.val(0).items(), next.val(0).items());
        let obj = |v: &Value| match v {
            Value::Obj(e) => e.clone(),
            _ => unreachable!("places are objects"),
        };
        // The untouched place is the same object in both states, its contents too.
        assert!(Arc::ptr_eq(&obj(&old[0]), &obj(&new[0])));
        assert!(!Arc::ptr_eq(&obj(&old[1]), &obj(&new[1])));
        // The snapshot still holds the object as it was.
        assert!(
            obj(&old[1].as_obj().unwrap().val(0).items()[0])
                .val(1)
                .truthy()
        );
        assert!(
            obj(&new[1].as_obj().unwrap().val(0).items()[0])
                .val(1)
                .is_nil()
        );
        // Ids survive the copy: the changed path has the same persistent ids.
        assert_eq!(obj(&new[1]).pid, 3);
        assert_eq!(next.pid, 1);
    }

    /// A counter-top of 20,000 portions (what one portioning makes at most) and one more put in
    /// front of it by the next kitchen state: the new state's list shares the old one's chunks,
    /// so each portion but those of the chunk the new one went into is held once, and the
    /// copy is charged for that chunk only. A copied list held every portion twice and was
    /// charged 20,000 cells, for every later kitchen state that changed the counter-top.
    #[test]
    fn a_kitchen_state_that_adds_a_portion_shares_the_counter_tops_other_portions() {
        use crate::base::budget::{self, Budget};
        use crate::world::seq::FLAT_MAX;
        let portions = (0..20_000).map(|pid| Value::Obj(place(10 + pid, vec![])));
        let snapshot = place(1, vec![Value::Obj(place(2, portions.collect()))]);
        let mut next = snapshot.clone();
        let charged = Budget::new(std::time::Duration::from_secs(60)).run(|| {
            let before = budget::cells();
            let kitchen = edit(&mut next);
            let places = kitchen.list_mut(0).expect("the kitchen has contents");
            let Some(Value::Obj(counter)) = places.get_mut(0) else {
                unreachable!("the counter is an object")
            };
            let on_counter = edit(counter).list_mut(0).expect("the counter has contents");
            on_counter.insert(0, Value::Obj(place(9, vec![])));
            budget::cells() - before
        });
        fn on_counter(ks: &Entity) -> Vec<Option<&Entity>> {
            let counter = ks.val(0).items()[0].as_obj().expect("a counter");
            counter.val(0).items().iter().map(Value::as_obj).collect()
        }
        let (old, new) = (on_counter(&snapshot), on_counter(&next));
        assert_eq!((old.len(), new.len()), (20_000, 20_001));
        assert_eq!(new[0].map(|p| p.pid), Some(9));
        // The same portions in the same order.
        assert!(
            old.iter()
                .zip(&new[1..])
                .all(|(a, b)| a.map(|a| a.pid) == b.map(|b| b.pid))
        );
        let held_twice = snapshot.val(0).items()[0]
            .as_obj()
            .expect("a counter")
            .val(0)
            .items()
            .iter()
            .filter(|p| matches!(p, Value::Obj(p) if Arc::strong_count(p) > 1))
            .count();
        assert!(held_twice <= FLAT_MAX, "{held_twice} portions held twice");
        // Kitchen 3 cells, its places 1, counter 3, the counter's contents one edit's chunks.
        assert_eq!(charged, 3 + 1 + 3 + FLAT_MAX as u64);
    }

    /// The reference's `failed-object` is also a kitchen state: its defaults hold nine places,
    /// each with a temperature, some thirty objects per failed action. They are made when
    /// first read, with the ids and budget cells they had when the object was made, so the
    /// object made next gets the same id and reading them changes nothing but memory.
    #[test]
    fn an_objects_default_objects_are_made_when_first_read_with_their_ids() {
        use crate::base::budget::{self, Budget};
        use crate::base::profile::Profile;
        let onto = Ontology::builtin(Profile::R2024);
        let (failed, contents) = (
            onto.known("failed-object"),
            onto.slot_id("contents").unwrap(),
        );
        let mut maker = Maker::new(&onto, 100);
        let (failed, next, charged) = Budget::new(std::time::Duration::from_secs(60)).run(|| {
            let failed = Arc::new(maker.make(failed));
            let next = maker.make(onto.known("whisk"));
            (failed, next, budget::cells())
        });
        let unmade = |e: &Entity| -> Vec<&str> {
            let made: Vec<SlotId> = e.made_slots().map(|(s, _)| s).collect();
            let layout = onto.class(e.class).slots.iter();
            (layout.filter(|s| !made.contains(s)))
                .map(|s| onto.slot_name(*s))
                .collect()
        };
        assert_eq!(unmade(&failed), ["temperature", "arrangement", "contents"]);
        let copy = (*failed).clone();
        // The failed object's 33 objects take ids 101 to 133 (its places from 108, after its
        // temperature's and its arrangement's) and the whisk the one after them, as
        // `make-instance` gives them; the budget is charged for all of them.
        assert_eq!((failed.pid, next.pid, charged), (101, 134, 176));
        // Measured without making them: kitchen state, places, place, amount, quantity.

        let nests = |levels| Value::Obj(failed.clone()).nested_deeper_than(levels);
        assert!(nests(4) && !nests(5));
        let places: Vec<Pid> = (failed.val(contents).items().iter())
            .map(|p| p.as_obj().expect("a place").pid)
            .collect();
        assert_eq!(places, [108, 110, 111, 112, 114, 116, 123, 130, 132]);
        assert_eq!(unmade(&failed), ["temperature", "arrangement"]);
        assert!(nests(4) && !nests(5));
        // A copy made before the read reads the same objects.
        let pid = |v: &Value| v.as_obj().map(|p| p.pid);
        assert_eq!(pid(&copy.val(contents).items()[8]), Some(132));
    }

    /// Objects `make-instance` makes of one class share its plain defaults, and a change (a
    /// concept's `is-concept`, a copy's new kitchen time) holds the changed slot alone: a long
    /// network makes such an object or copy at every action, which held every slot of its
    /// class.
    #[test]
    fn objects_share_their_class_layout_and_hold_only_what_changed() {
        use crate::base::budget::Budget;
        use crate::base::profile::Profile;
        let onto = Ontology::builtin(Profile::R2024);
        let (whisk, is_concept) = (onto.known("whisk"), onto.slot_id("is-concept").unwrap());
        let mut maker = Maker::new(&onto, 0);
        let (mut a, b) = Budget::new(std::time::Duration::from_secs(60))
            .run(|| (maker.make(whisk), maker.make(whisk)));
        assert!(Arc::ptr_eq(&a.base, &b.base) && a.changed.is_empty());
        assert!(a.set(is_concept, Value::T));
        assert!(Arc::ptr_eq(&a.base, &b.base));
        assert!(matches!(a.changed, Changed::One(..)));
        assert!(a.val(is_concept).truthy() && b.val(is_concept).is_nil());
        let shown = |e: &Entity| -> Vec<String> {
            e.slots()
                .map(|(s, v)| format!("{} {v:?}", onto.slot_name(s)))
                .collect()
        };
        let (in_a, in_b) = (shown(&a), shown(&b));
        assert_eq!(in_a.len(), onto.class(whisk).slots.len());
        let differ: Vec<_> = (in_a.iter().zip(&in_b)).filter(|(x, y)| x != y).collect();
        assert_eq!(
            differ,
            [(&"is-concept T".to_string(), &"is-concept Nil".to_string())]
        );
        // A copy shares the layout and the change until it changes the slot again.
        let mut copy = a.clone();
        assert!(copy.set(is_concept, Value::Nil));
        assert!(a.val(is_concept).truthy() && copy.val(is_concept).is_nil());
        // Every slot changeable: the layout becomes the object's own, with what changed.
        assert_eq!(copy.slots_mut().count(), in_a.len());
        assert!(!Arc::ptr_eq(&copy.base, &b.base) && copy.changed.is_empty());
        assert_eq!(shown(&copy), in_b);
    }

    /// An object that changed more than half its slots gives the copy an action changes a
    /// layout of its own with the changes in it, so that the copy's own copies hold only what
    /// changes after: a kitchen state copied at every action held its made places, its
    /// temperature and its time again at every copy. Fewer changes are shared as they were.
    #[test]
    fn a_copy_of_an_object_changed_all_over_holds_its_changes_in_its_layout() {
        use crate::base::budget::Budget;
        use crate::base::profile::Profile;
        let onto = Ontology::builtin(Profile::R2024);
        let slot = |name: &str| onto.slot_id(name).unwrap();
        let mut maker = Maker::new(&onto, 0);
        let (changed, copy, copy_of_copy) =
            Budget::new(std::time::Duration::from_secs(60)).run(|| {
                let mut oven = maker.make(onto.known("oven"));
                assert!(oven.set(slot("temperature"), Value::T));
                assert!(matches!(oven.changed, Changed::One(_)));
                assert!(oven.set(slot("arrangement"), Value::Num(Number::int(1))));
                assert!(oven.set(slot("contents"), Value::Num(Number::int(2))));
                let changed = Arc::new(oven);
                let mut copy = Arc::clone(&changed);
                assert!(edit(&mut copy).set(slot("temperature"), Value::Nil));
                let mut copy_of_copy = Arc::clone(&copy);
                assert!(edit(&mut copy_of_copy).set(slot("temperature"), Value::T));
                (changed, copy, copy_of_copy)
            });
        // Three of the oven's five slots changed: its copy holds them in its own layout.
        assert!(!Arc::ptr_eq(&copy.base, &changed.base) && copy.changed.is_empty());
        assert!(copy.val(slot("temperature")).is_nil());
        assert_eq!(copy.val(slot("contents")).as_num(), Some(Number::int(2)));
        // The copy changed none of its own layout: its copy shares it and holds one slot.
        assert!(Arc::ptr_eq(&copy_of_copy.base, &copy.base));
        assert!(matches!(copy_of_copy.changed, Changed::One(_)));
        assert!(copy_of_copy.val(slot("temperature")).truthy());
        let shown = |e: &Entity| format!("{:?}", e.slots().collect::<Vec<_>>());
        assert_eq!(shown(&changed), shown(&copy_of_copy));
    }

    #[test]
    fn a_chain_far_deeper_than_the_call_stack_allows_is_measured() {
        // Dropping it would recurse as deep: it is leaked, as the simulator never builds it.
        let deep = std::mem::ManuallyDrop::new(chain(200_000));
        assert!(deep.nested_deeper_than(199_999));
        assert!(!deep.nested_deeper_than(200_000));
    }
}
