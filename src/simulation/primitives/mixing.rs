//! Primitives: mix, beat, mingle, shake.
//!
//! All four turn the contents of a container on the counter-top into one mixture; they differ
//! in the tool (taken by default or given), the kind of mixture and its flag, the duration and
//! in which failures the reference guards against.

use super::common::{done_at, mark_used, mix_in_container, nil_error, node_at, node_mut, snapshot};
use crate::simulation::kitchen;
use crate::simulation::{Call, Primitive, SimError};
use crate::world::{Entity, Value};
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("beat", &BEAT),
    ("mix", &MIX),
    ("mingle", &MINGLE),
    ("shake", &Shake),
];

/// A mixing primitive with a tool: what differs between beat, mix and mingle.
struct Blend {
    output: &'static str,
    input: &'static str,
    tool: &'static str,
    default_tool: &'static str,
    /// A given tool must be on the counter-top (beat) rather than anywhere (mix, mingle).
    tool_on_counter: bool,
    mixture: &'static str,
    flag: Option<&'static str>,
    duration: i64,
    /// Mingle only checks the tool: a missing container is a Lisp error.
    container_checked: bool,
    /// Mix with a given tool sets the kitchen time only when it succeeds.
    time_only_on_success: bool,
}

const BEAT: Blend = Blend {
    output: "container-with-ingredients-beaten",
    input: "container-with-ingredients",
    tool: "tool",
    default_tool: "whisk",
    tool_on_counter: true,
    mixture: "homogeneous-mixture",
    flag: Some("beaten"),
    duration: 60,
    container_checked: true,
    time_only_on_success: false,
};

const MIX: Blend = Blend {
    output: "container-with-mixture",
    input: "container-with-input-ingredients",
    tool: "mixing-tool",
    default_tool: "whisk",
    tool_on_counter: false,
    mixture: "homogeneous-mixture",
    flag: Some("mixed"),
    duration: 30,
    container_checked: true,
    time_only_on_success: true,
};

const MINGLE: Blend = Blend {
    output: "container-with-mixture",
    input: "container-with-input-ingredients",
    tool: "mingling-tool",
    default_tool: "wooden-spoon",
    tool_on_counter: false,
    mixture: "heterogeneous-mixture",
    flag: None,
    duration: 30,
    container_checked: false,
    time_only_on_success: false,
};

impl Primitive for Blend {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let at = done_at(call, self.input, self.duration)?;
        let mut ks = call.kitchen_in()?.clone();
        let given_tool = call.is_bound(self.tool);
        let tool = if given_tool {
            let tool = call.input(self.tool)?;
            if self.tool_on_counter {
                kitchen::find_on_counter(&ks, m, tool)
            } else {
                kitchen::find_in_kitchen(&ks, m, tool)
            }
            .and_then(|p| kitchen::at(&ks, m, &p).map(|e| e.pid))
        } else {
            kitchen::take_default(&mut ks, m, m.class(self.default_tool)?, &[])
        };
        let container = kitchen::find_on_counter(&ks, m, call.input(self.input)?);
        let ok = tool.is_some() && (container.is_some() || !self.container_checked);
        let (Some(tool), true) = (tool, ok) else {
            let failed = call.failed();
            call.bind(self.output, 1.0, failed, Some(at))?;
            if !given_tool {
                let failed = call.failed();
                call.bind(self.tool, 0.0, failed, None)?;
            }
            if given_tool && self.time_only_on_success {
                return call.bind("kitchen-state-out", 1.0, Value::Obj(ks), Some(at));
            }
            return call.bind_kitchen("kitchen-state-out", ks, at);
        };
        let container = container.ok_or_else(|| nil_error("CONTENTS"))?;
        let flag = self.flag.map(|f| m.slot(f)).transpose()?;
        mix_in_container(
            m,
            call.maker,
            node_mut(m, &mut ks, &container)?,
            m.class(self.mixture)?,
            flag,
        )?;
        mark_used(m, &mut ks, tool)?;
        let mixed = node_at(m, &ks, &container)?;
        call.bind(self.output, 1.0, Value::Obj(mixed), Some(at))?;
        if !given_tool {
            call.bind(self.tool, 0.0, snapshot(m, &ks, tool)?, None)?;
        }
        call.bind_kitchen("kitchen-state-out", ks, at)
    }
}

/// `shake`: only a covered container can be shaken.
struct Shake;

impl Primitive for Shake {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let input = "container-with-input-ingredients";
        let at = done_at(call, input, 30)?;
        let mut ks: Arc<Entity> = call.kitchen_in()?.clone();
        let coverable = m.class("coverable-container")?;
        let covered_with = m.slot("covered-with")?;
        let found = kitchen::find_on_counter(&ks, m, call.input(input)?).filter(|p| {
            kitchen::at(&ks, m, p)
                .is_some_and(|c| m.onto.is_a(c.class, coverable) && c.val(covered_with).truthy())
        });
        let Some(path) = found else {
            let failed = call.failed();
            call.bind("container-with-mixture", 1.0, failed, Some(at))?;
            return call.bind_kitchen("kitchen-state-out", ks, at);
        };
        let flag = Some(m.slot("shaken")?);
        mix_in_container(
            m,
            call.maker,
            node_mut(m, &mut ks, &path)?,
            m.class("homogeneous-mixture")?,
            flag,
        )?;
        let shaken = node_at(m, &ks, &path)?;
        call.bind("container-with-mixture", 1.0, Value::Obj(shaken), Some(at))?;
        call.bind_kitchen("kitchen-state-out", ks, at)
    }
}
