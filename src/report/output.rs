//! Writing an output file whole or not at all, without harming what is at its path: a regular
//! file (or a new path) is replaced by rename, a character device or a pipe (`/dev/null`,
//! `/dev/stdout`, a FIFO) is written in place, and a symlink is never replaced: its target gets
//! the same treatment (a link to a regular file has that file replaced, atomically).

use std::fs::{self, File, Metadata};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Write `bytes` to `path`, whole or not at all where the path holds (or will hold) a regular
/// file. Missing parent directories are created, as the reference does.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // `metadata` follows symlinks: what matters is what the writing will reach.
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => replace_regular_file(&resolved(path)?, bytes),
        Ok(meta) if is_stream(&meta) => write_in_place(path, bytes),
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{} is a directory", path.display()),
        )),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is neither a regular file, a character device nor a pipe",
                path.display()
            ),
        )),
        // A link that leads nowhere: creating its target would write somewhere never named.
        Err(e) if fs::symlink_metadata(path).is_ok() => Err(match e.kind() {
            io::ErrorKind::NotFound => io::Error::new(
                io::ErrorKind::NotFound,
                format!("{} is a symbolic link to nothing", path.display()),
            ),
            _ => e,
        }),
        // A new path (or one that cannot be reached, which the creation will name).
        Err(_) => replace_regular_file(path, bytes),
    }
}

/// Character devices and pipes take a stream: renaming over them would replace the device
/// node (as root) or the pipe with a regular file.
fn is_stream(meta: &Metadata) -> bool {
    meta.file_type().is_char_device() || meta.file_type().is_fifo()
}

/// The path with every symlink resolved, so that a link is kept and its target replaced.
fn resolved(path: &Path) -> io::Result<PathBuf> {
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        fs::canonicalize(path)
    } else {
        Ok(path.to_path_buf())
    }
}

fn write_in_place(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = File::options().write(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// A temporary file unique to this write beside `path`, renamed over it once whole; the
/// temporary file is removed on every error (and on unwinding) by `tempfile`.
fn replace_regular_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // `create_dir_all` reports a file in the way as "File exists"; name it instead.
    if let Some(file) = dir.ancestors().find(|a| a.exists() && !a.is_dir()) {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is a file, not a directory", file.display()),
        ));
    }
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    // An existing file keeps its permissions; a new one gets the usual 0666 less the umask
    // rather than the temporary file's private 0600.
    let mode = match fs::metadata(path) {
        Ok(meta) => meta.permissions(),
        Err(_) => {
            use std::os::unix::fs::PermissionsExt;
            fs::Permissions::from_mode(0o666 & !current_umask())
        }
    };
    tmp.as_file().set_permissions(mode)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The process's umask, from `/proc/self/status` (setting and restoring it would race with
/// other threads creating files); the common 022 where that is unavailable.
fn current_umask() -> u32 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// Refuse an output that is one of the inputs: the same file (device and inode, whatever the
/// spelling of the path), which writing the results would destroy.
pub fn refuse_input_as_output<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), OutputIsInput> {
    let Ok(out) = fs::metadata(output) else {
        return Ok(());
    };
    if !out.is_file() {
        return Ok(());
    }
    for input in inputs {
        if let Ok(meta) = fs::metadata(input)
            && meta.dev() == out.dev()
            && meta.ino() == out.ino()
        {
            return Err(OutputIsInput {
                output: output.to_owned(),
                input: input.to_owned(),
            });
        }
    }
    Ok(())
}

/// An output path that is one of the inputs (the same file, however spelt).
#[derive(Debug, thiserror::Error)]
#[error("the output {} is the input {}; refusing to overwrite it", output.display(), input.display())]
pub struct OutputIsInput {
    pub output: std::path::PathBuf,
    pub input: std::path::PathBuf,
}

/// Set when standard output was closed as the process started (see [`stdout_was_closed`]).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Record that standard output was closed when the process started. The binary reads this
/// before `main`: by then std's runtime has opened `/dev/null` in its place (so that no file
/// opened later takes its number), where a report would be lost without a word.
pub fn stdout_was_closed() {
    STDOUT_CLOSED.store(true, Ordering::Relaxed);
}

/// Whether a report can be written to standard output: not when it was closed at the start.
pub fn stdout_open() -> io::Result<()> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Err(io::Error::other("it is closed"));
    }
    Ok(())
}
