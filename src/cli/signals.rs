//! The end of a process the prompt does not see: SIGTERM (`kill`, a shutdown) and SIGHUP (its
//! terminal closed). By default either ends `play` at once and every line typed is lost; here
//! the signal is handed to a thread of its own (the handler only writes its number to a pipe,
//! the one thing a handler may safely do), which ends the session as `:quit` would and exits
//! with 128 + the signal's number, as a shell reports a process a signal ended.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::FromRawFd;
use std::sync::atomic::{AtomicI32, Ordering};

/// The signals that end a session from outside, with their names.
const ENDINGS: [(libc::c_int, &str); 2] = [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP")];

/// The pipe's end the handler writes to (-1 before it is made).
static PIPE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn handler(signal: libc::c_int) {
    let byte = signal as u8;
    let fd = PIPE.load(Ordering::Relaxed);
    // SAFETY: `write` is async-signal-safe; a full pipe drops the byte, and one is enough.
    unsafe {
        libc::write(fd, (&raw const byte).cast(), 1);
    }
}

/// From now on, SIGTERM and SIGHUP run `end(name, status)` on a thread of its own, with the
/// terminal put back as it was now (a line editor may have it in raw mode); `end` exits, with
/// `status` (128 + the signal's number).
pub(super) fn on_ending(end: impl FnOnce(&str, i32) + Send + 'static) -> io::Result<()> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors `pipe` writes; the flags are set on
    // descriptors just made: neither is inherited by a child, and the handler's writes never
    // block.
    unsafe {
        if libc::pipe(fds.as_mut_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        for fd in fds {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
        libc::fcntl(fds[1], libc::F_SETFL, libc::O_NONBLOCK);
    }
    // SAFETY: the read end is ours alone from here on.
    let mut read = unsafe { File::from_raw_fd(fds[0]) };
    PIPE.store(fds[1], Ordering::Relaxed);
    let terminal = Terminal::now();
    for (signal, _) in ENDINGS {
        // SAFETY: a zeroed sigaction with a plain handler; SA_RESTART lets the prompt's read
        // go on undisturbed until the thread below ends the process.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut byte = [0u8];
            if read.read_exact(&mut byte).is_ok() {
                terminal.restore();
                let signal = libc::c_int::from(byte[0]);
                let name = ENDINGS
                    .iter()
                    .find(|(s, _)| *s == signal)
                    .map_or("a signal", |(_, name)| name);
                end(name, 128 + signal);
            }
        })?;
    Ok(())
}

/// The settings of the terminal on standard input, when it is one.
struct Terminal(Option<libc::termios>);

impl Terminal {
    fn now() -> Terminal {
        // SAFETY: tcgetattr fills the zeroed termios, or fails when stdin is no terminal.
        unsafe {
            let mut settings: libc::termios = std::mem::zeroed();
            let got = libc::tcgetattr(libc::STDIN_FILENO, &mut settings) == 0;
            Terminal(got.then_some(settings))
        }
    }

    fn restore(&self) {
        if let Some(settings) = &self.0 {
            // SAFETY: settings read from this terminal; a closed terminal makes it fail, harmless.
            unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, settings) };
        }
    }
}
