//! Reading a file a user names (a `.solution`, a benchmark's `ontology.json` or `kitchen.json`,
//! `--kitchen`): regular files only, up to a size. A FIFO would block for ever and a device
//! (`/dev/zero`) never ends, so the file is opened without blocking and its type and size
//! checked before a byte is read.

use std::io::Read;
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    Unreadable(std::io::Error),
    /// What the file is instead (`a FIFO (named pipe)`, `a character device`, ...).
    NotRegular(&'static str),
    /// Its size in bytes, over the limit asked for.
    TooLarge(u64),
}

/// The bytes of the regular file at `path`, at most `limit` of them; a file growing while it is
/// read is cut just past the limit, and refused.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    let (file, size) = open_regular(path, limit)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(Refusal::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The regular file at `path`, opened for a reader that reads it as it goes (no more than
/// `limit` bytes: the caller takes that many), with its size when opened.
pub fn open_regular(path: &Path, limit: u64) -> Result<(std::fs::File, u64), Refusal> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(Refusal::Unreadable)?;
    let meta = file.metadata().map_err(Refusal::Unreadable)?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular(special_file_kind(&meta)));
    }
    if meta.len() > limit {
        return Err(Refusal::TooLarge(meta.len()));
    }
    Ok((file, meta.len()))
}

/// What a file that is not a regular file is, for the refusal.
fn special_file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}
