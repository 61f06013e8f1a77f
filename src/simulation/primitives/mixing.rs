//! Primitives: mix, beat, mingle, shake.
//!
//! All four turn the contents of a container on the counter-top into one mixture; they differ
//! in the tool (taken by default or given), the kind of mixture and its flag, the duration and
//! in which failures the reference guards against.

use super::common::{Lookup, Start, bound, mark_used, mix_in_container, node_at, node_mut};
use super::errors::LispError;
use crate::simulation::kitchen;
use crate::simulation::{Call, Primitive, SimError};
use crate::world::Value;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("beat", &BEAT),
    ("mix", &MIX),
    ("mingle", &MINGLE),
    ("shake", &shake),
];

/// A mixing primitive with a tool: what differs between beat, mix and mingle.
struct Blend {
    output: &'static str,
    input: &'static str,
    tool: &'static str,
    default_tool: &'static str,
    /// Where a given tool is looked up: on the counter-top (beat) or anywhere (mix, mingle).
    tool_lookup: Lookup,
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
    tool_lookup: Lookup::Counter,
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
    tool_lookup: Lookup::Kitchen,
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
    tool_lookup: Lookup::Kitchen,
    mixture: "heterogeneous-mixture",
    flag: None,
    duration: 30,
    container_checked: false,
    time_only_on_success: false,
};

impl Primitive for Blend {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let (Start { m, mut ks, .. }, at) = call.start_after(self.input, self.duration)?;
        let given_tool = call.is_bound(self.tool);
        let tool = call.tool(&mut ks, self.tool, self.default_tool, self.tool_lookup)?;
        let container = kitchen::find_on_counter(&ks, m, call.input(self.input)?);
        let ok = tool.is_some() && (container.is_some() || !self.container_checked);
        let (Some(tool), true) = (tool, ok) else {
            call.fail(&[(self.output, 1.0, Some(at))])?;
            if !given_tool {
                call.fail(&[(self.tool, 0.0, None)])?;
            }
            if given_tool && self.time_only_on_success {
                return call.finish_untimed(ks, at);
            }
            return call.finish(ks, at);
        };
        let container = container.ok_or(LispError::nil_argument("CONTENTS"))?;
        let flag = self.flag.map(|f| m.slot(f)).transpose()?;
        mix_in_container(
            m,
            call.maker,
            node_mut(m, &mut ks, &container)?,
            m.class(self.mixture)?,
            flag,
        )?;
        mark_used(m, &mut ks, tool, LispError::USED_OF_NIL)?;
        let mixed = node_at(m, &ks, &container)?;
        call.bind(self.output, 1.0, Value::Obj(mixed), Some(at))?;
        if !given_tool {
            let found = bound(m, &ks, tool, LispError::USED_OF_NIL)?;
            call.bind(self.tool, 0.0, found, None)?;
        }
        call.finish(ks, at)
    }
}

/// `shake`: only a covered container can be shaken.
fn shake(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let input = "container-with-input-ingredients";
    let (Start { m, mut ks, .. }, at) = call.start_after(input, 30)?;
    let coverable = m.class("coverable-container")?;
    let covered_with = m.slot("covered-with")?;
    let found = kitchen::find_on_counter(&ks, m, call.input(input)?).filter(|p| {
        kitchen::at(&ks, m, p)
            .is_some_and(|c| m.onto.is_a(c.class, coverable) && c.val(covered_with).truthy())
    });
    let Some(path) = found else {
        call.fail(&[("container-with-mixture", 1.0, Some(at))])?;
        return call.finish(ks, at);
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
    call.finish(ks, at)
}
