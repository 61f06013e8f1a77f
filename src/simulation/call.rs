//! The interface between the engine and one primitive: what the primitive sees of its
//! arguments and how it binds its outputs ([`Call`]), and what a primitive is ([`Primitive`]).

use super::*;

/// What a primitive sees of one argument when it runs.
#[derive(Clone, Debug)]
pub struct ArgIn {
    pub value: Value,
    pub available_at: Option<Number>,
}

/// The interface between the engine and one primitive's implementation.
pub struct Call<'m, 'a> {
    pub model: &'m Model,
    pub maker: &'a mut Maker<'m>,
    pub sig: &'m PrimitiveSig,
    pub case: usize,
    pub(super) args: Vec<Option<ArgIn>>,
    pub(super) out: Vec<Option<Binding>>,
}

impl<'m> Call<'m, '_> {
    pub(super) fn index(&self, name: &str) -> Result<usize, SimError> {
        self.sig
            .arg_index(name)
            .ok_or_else(|| SimError::new(format!("{} has no argument {name}", self.sig.name)))
    }

    /// Whether argument `name` was bound when the primitive started.
    pub fn is_bound(&self, name: &str) -> bool {
        self.index(name).is_ok_and(|i| self.args[i].is_some())
    }

    /// The value bound to argument `name` when the primitive started (`None`: unbound), for
    /// code that takes any value, not only objects (primitives written in other languages).
    pub fn value(&self, name: &str) -> Result<Option<&Value>, SimError> {
        let i = self.index(name)?;
        Ok(self.args[i].as_ref().map(|a| &a.value))
    }

    /// The object bound to input `name`.
    pub fn input(&self, name: &str) -> Result<&Entity, SimError> {
        self.input_arc(name).map(|e| &**e)
    }

    /// The object bound to input `name`, shared (to keep it without copying).
    pub fn input_arc(&self, name: &str) -> Result<&Arc<Entity>, SimError> {
        let i = self.index(name)?;
        match &self.args[i] {
            Some(ArgIn {
                value: Value::Obj(e),
                ..
            }) => Ok(e),
            _ => Err(SimError::new(format!(
                "{}: {name} is not bound to an object",
                self.sig.name
            ))),
        }
    }

    /// The availability time of input `name` (`None` for constants and untimed outputs).
    /// The reference looks the time up by the object's id among the primitive's arguments in
    /// their order. In 2024 every copy of an object keeps its id, so when an earlier argument
    /// holds the same object (another kitchen state's copy of it, as when two branches fetched
    /// the same bowl) that argument's time is the one used; in 2023 a copy gets an id of its
    /// own and each argument has its own time.
    pub fn available_at(&self, name: &str) -> Result<Option<Number>, SimError> {
        let i = self.index(name)?;
        let Some(arg) = &self.args[i] else {
            return Ok(None);
        };
        let first = match &arg.value {
            Value::Obj(object) if self.model.profile == Profile::R2024 => self
                .args
                .iter()
                .flatten()
                .find(|a| matches!(&a.value, Value::Obj(o) if o.pid == object.pid))
                .unwrap_or(arg),
            _ => arg,
        };
        Ok(first.available_at)
    }

    /// `max(kitchen time, availability of input)`: the reference fails with a type error
    /// when the input has no availability time.
    pub fn ready_at(&self, kt: Number, name: &str) -> Result<Number, SimError> {
        match self.available_at(name)? {
            Some(t) => Ok(kt.max(t)),
            None => Err(primitives::errors::LispError::NIL_NOT_REAL.into()),
        }
    }

    /// The input kitchen state (argument `kitchen-state-in`).
    pub fn kitchen_in(&self) -> Result<&Arc<Entity>, SimError> {
        self.input_arc("kitchen-state-in")
    }

    /// The kitchen time of a kitchen state.
    pub fn kitchen_time(&self, ks: &Entity) -> Number {
        ks.val(self.model.k.kitchen_time)
            .as_num()
            .unwrap_or(Number::ZERO)
    }

    /// Bind output `name`. Binding `Value::Nil` leaves the variable unbound, as in the
    /// reference (the recipe then has no execution).
    pub fn bind(
        &mut self,
        name: &str,
        score: f32,
        value: Value,
        at: Option<Number>,
    ) -> Result<(), SimError> {
        let i = self.index(name)?;
        self.out[i] = Some(Binding {
            value,
            score,
            available_at: at,
        });
        Ok(())
    }

    /// Bind the new kitchen state with `kitchen-time` set to `at`.
    pub fn bind_kitchen(
        &mut self,
        name: &str,
        mut ks: Arc<Entity>,
        at: Number,
    ) -> Result<(), SimError> {
        let slot = self.model.k.kitchen_time;
        let _ = crate::world::edit(&mut ks).set(slot, Value::Num(at));
        self.bind(name, 1.0, Value::Obj(ks), Some(at))
    }

    /// A fresh `failed-object` (the reference's "custom NIL" that flows through the network).
    pub fn failed(&mut self) -> Value {
        Value::obj(self.maker.make(self.model.k.failed_object))
    }

    pub fn is_failed(&self, e: &Entity) -> bool {
        self.model.onto.is_a(e.class, self.model.k.failed_object)
    }
}

/// One primitive's semantics. Implementations read their inputs from the [`Call`], work on a
/// copy of the input kitchen state and bind their outputs.
pub trait Primitive: Send + Sync {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError>;
}

/// A primitive is usually one function of its own logic; families that differ only in data
/// (e.g. beat, mix and mingle) implement [`Primitive`] on a struct of that data instead.
impl<F> Primitive for F
where
    F: Fn(&mut Call<'_, '_>) -> Result<(), SimError> + Send + Sync,
{
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        self(call)
    }
}
