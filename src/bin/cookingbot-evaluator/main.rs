//! The `cookingbot-evaluator` binary: the command line and its wiring live in the library
//! (`cookingbot::entry`) so that the Python package's entry point runs the same code.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether standard output was closed as the process started (`cmd >&-`), read before std's
/// runtime opens `/dev/null` in its place: a constructor in `.init_array` runs before it.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_STDOUT: extern "C" fn() = record_stdout;

extern "C" fn record_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

fn main() -> std::process::ExitCode {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        cookingbot::report::output::stdout_was_closed();
    }
    // A file-size limit (`ulimit -f`) would kill the process in the middle of a write and leave
    // its temporary file behind; ignored, the write fails with "File too large" instead and the
    // temporary file is removed like on any other error.
    // SAFETY: setting a signal's disposition to "ignore" before any thread is started.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    std::process::ExitCode::from(cookingbot::entry::main_of_process(std::env::args_os()))
}
