//! The program's entry points, above every front end: the binary's `main` and the Python
//! package's extension module both run the command line through [`main_from_args`], which
//! wires into it the launcher and the tool server this build has. Only here do front ends meet.

use crate::cli::{self, FrontEnds};
use std::ffi::OsString;

/// The front ends of this build, as the command line opens them.
fn front_ends(process_ends: bool) -> FrontEnds {
    FrontEnds {
        process_ends,
        #[cfg(feature = "gui")]
        launcher: |settings| crate::gui::run(settings).map_err(|e| e.to_string()),
        #[cfg(feature = "mcp")]
        tool_server: crate::mcp::run,
    }
}

/// Run the command line on `args` (the program name first, as `std::env::args_os` gives it)
/// in this process, and return its exit status: the binary, the Python package's
/// `cookingbot-evaluator` entry point and tests share it.
pub fn main_from_args(args: impl IntoIterator<Item = OsString>) -> u8 {
    cli::main_from_args(args, front_ends(false))
}

/// [`main_from_args`] for the binary's `main`: the process ends when it returns.
pub fn main_of_process(args: impl IntoIterator<Item = OsString>) -> u8 {
    cli::main_from_args(args, front_ends(true))
}

/// Run the command line in this process (the `cookingbot-evaluator` entry point).
#[cfg(feature = "python")]
#[pyo3::pyfunction]
fn main(py: pyo3::Python<'_>, argv: Vec<OsString>) -> i32 {
    i32::from(py.detach(|| main_from_args(argv)))
}

/// `cookingbot._native`: the Python front end's functions and the command line.
#[cfg(feature = "python")]
#[pyo3::pymodule]
fn _native(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
    use pyo3::prelude::*;
    crate::python::register(m)?;
    m.add_function(pyo3::wrap_pyfunction!(main, m)?)?;
    Ok(())
}
