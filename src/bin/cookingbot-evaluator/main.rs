//! The `cookingbot-evaluator` binary: the command line lives in the library
//! (`cookingbot::app::cli`) so that the Python package's entry point runs the same code.

fn main() -> std::process::ExitCode {
    // A file-size limit (`ulimit -f`) would kill the process in the middle of a write and leave
    // its temporary file behind; ignored, the write fails with "File too large" instead and the
    // temporary file is removed like on any other error.
    // SAFETY: setting a signal's disposition to "ignore" before any thread is started.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    std::process::ExitCode::from(cookingbot::app::cli::main_from_args(std::env::args_os()))
}
