//! The `cookingbot-evaluator` binary: the command line lives in the library
//! (`cookingbot::app::cli`) so that the Python package's entry point runs the same code.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(cookingbot::app::cli::main_from_args(std::env::args_os()))
}
