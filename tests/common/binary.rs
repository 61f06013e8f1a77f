//! Runs of the built evaluator binary, and the scratch folders they read and write.

use super::with_data;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The evaluator binary of this build, pointed at the data the tests found (see
/// [`with_data`]).
pub fn evaluator() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"));
    with_data(&mut command);
    command
}

/// The evaluator with its address space capped at `bytes` (see [`capped`]).
pub fn evaluator_capped(bytes: u64) -> Command {
    let mut command = evaluator();
    capped(&mut command, bytes);
    command
}

/// `command` with its address space capped at `bytes` (`RLIMIT_AS`): an allocation past it
/// fails, and a run that does not bound its memory aborts instead of ending with a message.
pub fn capped(command: &mut Command, bytes: u64) -> &mut Command {
    use std::os::unix::process::CommandExt;
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: between fork and exec the child only calls setrlimit, which is async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        })
    }
}

/// A run of the evaluator with `args`, its output collected.
pub fn run(args: &[&str]) -> Output {
    evaluator().args(args).output().expect("the binary runs")
}

/// A run's standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// How a run ended: its exit code and what it printed.
pub struct Outcome {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `command` to its end. A run that panicked or was killed by a signal (a stack overflow
/// aborts) fails the test: the product must exit with a code and a message on every input.
pub fn outcome(command: &mut Command) -> Outcome {
    let out = command.output().expect("the binary runs");
    let stderr = stderr(&out);
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {:?}\n{stderr}", out.status));
    assert!(
        !stderr.contains("panicked"),
        "the binary panicked:\n{stderr}"
    );
    Outcome {
        code,
        stdout: stdout(&out),
        stderr,
    }
}

/// A fresh folder under the system's temporary folder, named after its test (unique in this
/// process), removed when dropped; it reads as the [`Path`] of the folder.
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    pub fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("cookingbot-tests-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch { dir }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("scratch file");
        path
    }

    /// Names of the files now in the folder, sorted.
    pub fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .expect("list the scratch folder")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
