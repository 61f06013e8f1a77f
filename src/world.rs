//! Kitchen entities: instances of ontology classes with slots, shared copy-on-write.
//!
//! The reference deep-copies the whole kitchen before every action and binds snapshots of
//! objects to variables. Here every object sits behind an `Arc`; a copy is a pointer copy and a
//! change copies only the path from the kitchen state down to the changed object
//! (`Arc::make_mut`). Snapshots therefore come for free and never change afterwards.

use crate::number::Number;
use crate::ontology::{ClassId, Init, Ontology, SlotId};
use std::sync::Arc;

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
    List(Arc<Vec<Value>>),
}

impl Value {
    pub fn obj(e: Entity) -> Value {
        Value::Obj(Arc::new(e))
    }

    pub fn list(items: Vec<Value>) -> Value {
        if items.is_empty() {
            Value::Nil
        } else {
            Value::List(Arc::new(items))
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
    pub fn items(&self) -> &[Value] {
        match self {
            Value::List(v) => v,
            _ => &[],
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
}

#[derive(Clone, Debug)]
pub struct Entity {
    pub class: ClassId,
    pub pid: Pid,
    /// Every effective slot of the class (except the ids), in the class's layout order.
    pub slots: Vec<(SlotId, Value)>,
}

impl Entity {
    pub fn get(&self, slot: SlotId) -> Option<&Value> {
        self.slots.iter().find(|(s, _)| *s == slot).map(|(_, v)| v)
    }

    /// The slot's value, NIL when the class has no such slot.
    pub fn val(&self, slot: SlotId) -> &Value {
        self.get(slot).unwrap_or(&Value::Nil)
    }

    pub fn has(&self, slot: SlotId) -> bool {
        self.get(slot).is_some()
    }

    /// Set a slot; `false` when the class lacks it (a Lisp error in the reference).
    #[must_use]
    pub fn set(&mut self, slot: SlotId, v: Value) -> bool {
        match self.slots.iter_mut().find(|(s, _)| *s == slot) {
            Some((_, old)) => {
                *old = v;
                true
            }
            None => false,
        }
    }

    /// Mutable access to a list-valued slot (NIL becomes an empty list).
    pub fn list_mut(&mut self, slot: SlotId) -> Option<&mut Vec<Value>> {
        let (_, v) = self.slots.iter_mut().find(|(s, _)| *s == slot)?;
        if !matches!(v, Value::List(_)) {
            *v = Value::List(Arc::new(Vec::new()));
        }
        match v {
            Value::List(l) => Some(Arc::make_mut(l)),
            _ => None,
        }
    }

    /// Normalise an emptied list slot back to NIL (the reference's empty list *is* NIL).
    pub fn tidy_list(&mut self, slot: SlotId) {
        if let Some((_, v)) = self.slots.iter_mut().find(|(s, _)| *s == slot)
            && matches!(v, Value::List(l) if l.is_empty())
        {
            *v = Value::Nil;
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

    pub fn fresh_pid(&mut self) -> Pid {
        self.next_pid += 1;
        self.next_pid
    }

    /// `make-instance`: a fresh object with the class defaults.
    pub fn make(&mut self, class: ClassId) -> Entity {
        let pid = self.fresh_pid();
        let c = self.onto.class(class);
        let mut slots = Vec::with_capacity(c.slots.len());
        for (slot, init) in c.slots.iter().zip(c.defaults.iter()) {
            slots.push((*slot, self.init(init)));
        }
        Entity { class, pid, slots }
    }

    /// `make-instance` with some slots given.
    pub fn make_with(&mut self, class: ClassId, set: &[(SlotId, Value)]) -> Entity {
        let mut e = self.make(class);
        for (s, v) in set {
            let _ = e.set(*s, v.clone());
        }
        e
    }

    pub fn init(&mut self, init: &Init) -> Value {
        match init {
            Init::Nil => Value::Nil,
            Init::T => Value::T,
            Init::Num(n) => Value::Num(*n),
            Init::Str(s) => Value::Str(Arc::from(s.as_str())),
            Init::List(items) => Value::list(items.iter().map(|i| self.init(i)).collect()),
            Init::Instance(class, set) => {
                let mut e = self.make(*class);
                for (s, i) in set {
                    let v = self.init(i);
                    let _ = e.set(*s, v);
                }
                Value::obj(e)
            }
        }
    }

    /// `copy-object`: same class and persistent id, slots carried over except those the
    /// class's copy methods do not copy (they take their defaults again).
    pub fn copy(&mut self, e: &Entity) -> Entity {
        let c = self.onto.class(e.class);
        let mut out = e.clone();
        for &slot in &c.uncopied {
            if let Some(i) = c.slots.iter().position(|s| *s == slot) {
                let v = self.init(&c.defaults[i]);
                let _ = out.set(slot, v);
            }
        }
        out
    }
}
