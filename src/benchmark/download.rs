//! Benchmark data that installs itself: download a profile's data from its pinned GitHub commit
//! (or take a local archive or folder), check every file against the SHA-256 sums of
//! `gold/benchmark.json`, and install it atomically into a per-user cache that
//! [`crate::benchmark::locate`] searches. The data stays third-party: it is never copied into
//! the project.
//!
//! No terminal code here: progress goes to a callback, so front ends draw it as they like.

use crate::base::profile::Profile;
use crate::data::manifest::manifest;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// Overrides the platform data directory (the cache is `<dir>/benchmark/<profile>`).
pub const DATA_DIR_VAR: &str = "COOKINGBOT_DATA_DIR";
/// Overrides GitHub's archive server (a mirror, or a local server in tests).
pub const BASE_URL_VAR: &str = "COOKINGBOT_FETCH_BASE_URL";
/// GitHub's archive server: `<base>/<owner>/<repo>/tar.gz/<commit>`.
pub const CODELOAD: &str = "https://codeload.github.com";

/// No benchmark archive comes near this; a larger download is not the benchmark.
const DOWNLOAD_LIMIT: u64 = 256 << 20;

/// Where a profile's data comes from: a pinned commit of a GitHub repository, and the folder of
/// that repository that becomes the data root's `to` folder (`""` for the whole repository).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Upstream {
    pub owner: &'static str,
    pub repo: &'static str,
    pub commit: &'static str,
    pub from: &'static str,
    pub to: &'static str,
}

impl Upstream {
    pub fn of(profile: Profile) -> Upstream {
        match profile {
            // The official benchmark repository: the data root is the repository itself.
            Profile::R2024 => Upstream {
                owner: "muhai-project",
                repo: "recipe-execution-benchmark",
                commit: "6b153ea774ec326f10e2913b8c013ad40aa47474",
                from: "",
                to: "",
            },
            // The thesis repository holding the January 2023 release: only `Benchmark/data`.
            Profile::R2023 => Upstream {
                owner: "Robin-De-Haes",
                repo: "recipe-execution-benchmark",
                commit: "bcaeff67e922918dccf007faebf5f423aa539286",
                from: "Benchmark/data",
                to: "data",
            },
        }
    }

    /// The `.tar.gz` archive of the pinned commit on `base` (GitHub's codeload or a mirror).
    pub fn url(&self, base: &str) -> String {
        format!(
            "{}/{}/{}/tar.gz/{}",
            base.trim_end_matches('/'),
            self.owner,
            self.repo,
            self.commit
        )
    }

    /// Where a file of the repository (path without the archive's top folder) goes in the data
    /// root, or `None` when it is not part of the data. Folder names are written with hyphens for
    /// spaces (`gold standard solutions` → `gold-standard-solutions`), the layout the 2024
    /// repository's `data/` already has and `gold/benchmark.json` lists.
    fn data_path(&self, in_repo: &Path) -> Option<PathBuf> {
        let rest = in_repo.strip_prefix(self.from).ok()?;
        Some(hyphenate_folders(&Path::new(self.to).join(rest)))
    }
}

fn hyphenate_folders(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    let mut parts = path.iter().peekable();
    while let Some(part) = parts.next() {
        match (parts.peek(), part.to_str()) {
            (Some(_), Some(name)) => out.push(name.replace(' ', "-")),
            _ => out.push(part),
        }
    }
    out
}

/// What to install from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Download the pinned commit's archive from this server (GitHub's codeload by default).
    Download { base_url: String },
    /// A local `.tar.gz` or `.zip` laid out like GitHub's archive (one top-level folder), or a
    /// local folder laid out like the data root.
    Local(PathBuf),
}

impl Source {
    /// GitHub's archive server, or `$COOKINGBOT_FETCH_BASE_URL`.
    pub fn download() -> Source {
        Source::Download {
            base_url: std::env::var(BASE_URL_VAR).unwrap_or_else(|_| CODELOAD.to_string()),
        }
    }
}

/// How far an installation has come, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Bytes received so far; `total` when the server announced it.
    Downloading { received: u64, total: Option<u64> },
    /// Writing the data into the temporary folder.
    Unpacking,
    /// Files checked against the manifest so far.
    Verifying { checked: usize, total: usize },
}

/// Why benchmark data could not be installed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// No `--data-dir`, no `$COOKINGBOT_DATA_DIR` and no platform data directory.
    #[error(
        "no data directory for the benchmark cache; pass --data-dir DIR or set {}",
        DATA_DIR_VAR
    )]
    NoDataDir,
    /// The server could not be reached or did not deliver the archive.
    #[error("cannot download {url}: {reason}")]
    Download { url: String, reason: String },
    /// The archive or folder (`origin`: its URL or path) could not be read: not an archive,
    /// truncated, corrupt.
    #[error("cannot read {origin}: {reason}")]
    Unreadable { origin: String, reason: String },
    /// The archive is not laid out like GitHub's (one top-level folder, relative paths).
    #[error("{origin}: {reason}")]
    Layout { origin: String, reason: String },
    /// A file of the manifest is absent (path relative to the data root).
    #[error("{file} is missing")]
    Missing { file: String },
    /// A file of the manifest has another size or SHA-256 sum than the manifest says.
    #[error("{file} {reason}")]
    Differs { file: String, reason: String },
    /// Writing the cache failed.
    #[error("{}: {reason}", .path.display())]
    Io { path: PathBuf, reason: String },
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> FetchError + '_ {
    move |e| FetchError::Io {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

fn unreadable<E: fmt::Display>(origin: &str) -> impl Fn(E) -> FetchError + '_ {
    move |e| FetchError::Unreadable {
        origin: origin.to_string(),
        reason: e.to_string(),
    }
}

/// The benchmark cache under one data directory: profile `p` is installed in
/// `<data dir>/benchmark/<p>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    root: PathBuf,
}

impl Cache {
    /// The cache under `data_dir` (`--data-dir`).
    pub fn new(data_dir: impl Into<PathBuf>) -> Cache {
        Cache {
            root: data_dir.into().join("benchmark"),
        }
    }

    /// `$COOKINGBOT_DATA_DIR`, else the platform data directory's `cookingbot` folder
    /// (`~/.local/share/cookingbot` on Linux).
    pub fn user() -> Option<Cache> {
        std::env::var_os(DATA_DIR_VAR)
            .map(PathBuf::from)
            .or_else(|| dirs::data_dir().map(|d| d.join("cookingbot")))
            .map(Cache::new)
    }

    /// Where `profile` is (or would be) installed.
    pub fn dir(&self, profile: Profile) -> PathBuf {
        self.root.join(profile.name())
    }

    /// The installed data of `profile`, if present and every manifest file checks out.
    pub fn cached(&self, profile: Profile) -> Option<PathBuf> {
        let dir = self.dir(profile);
        verify(profile, &dir, &mut |_| {}).ok().map(|()| dir)
    }

    /// Install `profile` from `source`, replacing any earlier installation. The data is
    /// unpacked into a temporary sibling folder, verified, and only then renamed into place:
    /// on any error nothing is left behind (not even the cache's folders, when this call made
    /// them) and an earlier installation is untouched.
    pub fn fetch(
        &self,
        profile: Profile,
        source: &Source,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<PathBuf, FetchError> {
        let made: Vec<PathBuf> = self
            .root
            .ancestors()
            .take_while(|dir| !dir.as_os_str().is_empty() && !dir.exists())
            .map(Path::to_path_buf)
            .collect();
        let installed = self.install(profile, source, progress);
        if installed.is_err() {
            // Innermost first; a folder someone else filled meanwhile stays.
            for dir in &made {
                let _ = fs::remove_dir(dir);
            }
        }
        installed
    }

    fn install(
        &self,
        profile: Profile,
        source: &Source,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<PathBuf, FetchError> {
        fs::create_dir_all(&self.root).map_err(io_error(&self.root))?;
        let staging = Scratch(self.scratch_path(profile, "partial"));
        fs::create_dir(&staging.0).map_err(io_error(&staging.0))?;
        let upstream = Upstream::of(profile);
        let listed = Listed::of(profile);
        match source {
            Source::Download { base_url } => {
                let archive = Scratch(self.scratch_path(profile, "download"));
                let url = upstream.url(base_url);
                download(&url, &archive.0, progress)?;
                progress(Progress::Unpacking);
                unpack(&archive.0, &url, &upstream, &listed, &staging.0)?;
            }
            Source::Local(path) if path.is_dir() => {
                progress(Progress::Unpacking);
                copy_tree(path, Path::new(""), &listed, &staging.0)?;
            }
            Source::Local(path) => {
                progress(Progress::Unpacking);
                unpack(
                    path,
                    &path.display().to_string(),
                    &upstream,
                    &listed,
                    &staging.0,
                )?;
            }
        }
        verify(profile, &staging.0, progress)?;
        let target = self.dir(profile);
        staging.install(&target, &self.scratch_path(profile, "old"))?;
        Ok(target)
    }

    fn scratch_path(&self, profile: Profile, what: &str) -> PathBuf {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        self.root
            .join(format!(".{profile}.{what}-{}-{nanos}", std::process::id()))
    }
}

/// Where the user's cache keeps `profile` (see [`Cache::user`]).
pub fn cache_dir(profile: Profile) -> Option<PathBuf> {
    Cache::user().map(|c| c.dir(profile))
}

/// The user's verified installation of `profile`, if any.
pub fn cached(profile: Profile) -> Option<PathBuf> {
    Cache::user()?.cached(profile)
}

/// Install `profile` from `source` into the user's cache.
pub fn fetch(
    profile: Profile,
    source: &Source,
    progress: &mut dyn FnMut(Progress),
) -> Result<PathBuf, FetchError> {
    Cache::user()
        .ok_or(FetchError::NoDataDir)?
        .fetch(profile, source, progress)
}

/// Check every file `gold/benchmark.json` lists for `profile` under `root`, in manifest order;
/// the first missing or differing file is the error. Files not listed are not looked at.
pub fn verify(
    profile: Profile,
    root: &Path,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), FetchError> {
    let files = manifest(profile).files;
    for (checked, entry) in files.iter().enumerate() {
        progress(Progress::Verifying {
            checked,
            total: files.len(),
        });
        let bytes = match fs::read(root.join(&entry.path)) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(FetchError::Missing {
                    file: entry.path.clone(),
                });
            }
            Err(e) => {
                return Err(FetchError::Differs {
                    file: entry.path.clone(),
                    reason: format!("cannot be read: {e}"),
                });
            }
        };
        entry
            .check(&bytes)
            .map_err(|mismatch| FetchError::Differs {
                file: entry.path.clone(),
                reason: mismatch.to_string(),
            })?;
    }
    progress(Progress::Verifying {
        checked: files.len(),
        total: files.len(),
    });
    Ok(())
}

/// Stream `url` into the file `to`.
fn download(url: &str, to: &Path, progress: &mut dyn FnMut(Progress)) -> Result<(), FetchError> {
    let failed = |reason: String| FetchError::Download {
        url: url.to_string(),
        reason,
    };
    let agent = ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_per_read(Some(Duration::from_secs(60)))
        .build()
        .new_agent();
    let mut response = agent.get(url).call().map_err(|e| failed(e.to_string()))?;
    let total = response.body().content_length();
    let mut body = response
        .body_mut()
        .with_config()
        .limit(DOWNLOAD_LIMIT)
        .reader();
    let mut file = File::create(to).map_err(io_error(to))?;
    let mut buffer = vec![0; 64 << 10];
    let mut received = 0;
    progress(Progress::Downloading { received, total });
    loop {
        let n = body.read(&mut buffer).map_err(|e| failed(e.to_string()))?;
        if n == 0 {
            break;
        }
        file.write_all(&buffer[..n]).map_err(io_error(to))?;
        received += n as u64;
        progress(Progress::Downloading { received, total });
    }
    file.sync_all().map_err(io_error(to))
}

/// Unpack the data files of a `.tar.gz` or `.zip` archive (told apart by their first bytes)
/// into `root`. `origin` names the archive in messages (its URL when downloaded).
/// The files the manifest lists for a profile, by their place in the data root, with their
/// sizes: only these are installed, each read no further than its size (plus one byte, to tell
/// a larger file), so an archive bomb or an unlisted file costs no disk.
struct Listed(std::collections::HashMap<PathBuf, u64>);

impl Listed {
    fn of(profile: Profile) -> Listed {
        Listed(
            manifest(profile)
                .files
                .into_iter()
                .map(|f| (PathBuf::from(f.path), f.size))
                .collect(),
        )
    }

    /// Install `relative` from `contents` under `root` if the manifest lists it.
    fn install(
        &self,
        root: &Path,
        relative: &Path,
        contents: &mut dyn Read,
        origin: &str,
    ) -> Result<(), FetchError> {
        let Some(&size) = self.0.get(relative) else {
            return Ok(());
        };
        let to = root.join(relative);
        let written = write_file(&to, &mut contents.take(size + 1), origin)?;
        if written > size {
            return Err(FetchError::Differs {
                file: relative.display().to_string(),
                reason: format!(
                    "is larger than the benchmark's {size} bytes in {origin}; not installed"
                ),
            });
        }
        Ok(())
    }
}

fn unpack(
    archive: &Path,
    origin: &str,
    upstream: &Upstream,
    listed: &Listed,
    root: &Path,
) -> Result<(), FetchError> {
    let mut file = File::open(archive).map_err(unreadable(origin))?;
    let mut magic = [0; 4];
    let n = file.read(&mut magic).map_err(unreadable(origin))?;
    file.rewind().map_err(unreadable(origin))?;
    let mut place = Placer {
        origin,
        upstream,
        listed,
        root,
        top: None,
    };
    match &magic[..n] {
        [0x1f, 0x8b, ..] => {
            let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
            let entries = tar.entries().map_err(unreadable(origin))?;
            for entry in entries {
                let mut entry = entry.map_err(unreadable(origin))?;
                if !entry.header().entry_type().is_file() {
                    continue;
                }
                let path = entry.path().map_err(unreadable(origin))?.into_owned();
                place.file(&path, &mut entry)?;
            }
            Ok(())
        }
        [b'P', b'K', 3, 4] => {
            let mut zip = zip::ZipArchive::new(file).map_err(unreadable(origin))?;
            for i in 0..zip.len() {
                let mut entry = zip.by_index(i).map_err(unreadable(origin))?;
                if !entry.is_file() {
                    continue;
                }
                let path = entry.enclosed_name().ok_or_else(|| FetchError::Layout {
                    origin: origin.to_string(),
                    reason: format!("unsafe path {}", entry.name().unwrap_or_default()),
                })?;
                place.file(&path, &mut entry)?;
            }
            Ok(())
        }
        _ => Err(unreadable(origin)("not a .tar.gz or .zip archive")),
    }
}

/// Writes an archive's files into the data root: strips the single top-level folder and keeps
/// what [`Upstream::data_path`] maps.
struct Placer<'a> {
    origin: &'a str,
    upstream: &'a Upstream,
    listed: &'a Listed,
    root: &'a Path,
    top: Option<PathBuf>,
}

impl Placer<'_> {
    fn file(&mut self, path: &Path, contents: &mut dyn Read) -> Result<(), FetchError> {
        let layout = |reason: String| FetchError::Layout {
            origin: self.origin.to_string(),
            reason,
        };
        if !path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(layout(format!("unsafe path {}", path.display())));
        }
        let mut parts = path.components();
        let top = Path::new(parts.next().map_or("".as_ref(), |c| c.as_os_str()));
        let in_repo = parts.as_path();
        if in_repo.as_os_str().is_empty() {
            return Err(layout(format!(
                "{} is not inside a top-level folder (expected GitHub's archive layout)",
                path.display()
            )));
        }
        match &self.top {
            Some(seen) if seen != top => {
                return Err(layout(format!(
                    "more than one top-level folder ({} and {}); expected GitHub's archive layout",
                    seen.display(),
                    top.display()
                )));
            }
            Some(_) => {}
            None => self.top = Some(top.to_path_buf()),
        }
        match self.upstream.data_path(in_repo) {
            Some(relative) => self
                .listed
                .install(self.root, &relative, contents, self.origin),
            None => Ok(()),
        }
    }
}

/// Write a new file readable by all (the data is public; the mode does not depend on the
/// source's), returning the bytes written.
fn write_file(to: &Path, contents: &mut dyn Read, origin: &str) -> Result<u64, FetchError> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(io_error(parent))?;
    }
    let mut file = File::options()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .open(to)
        .map_err(io_error(to))?;
    // `mode` is filtered by the umask; the installed mode is set whatever the umask.
    file.set_permissions(fs::Permissions::from_mode(0o644))
        .map_err(io_error(to))?;
    io::copy(contents, &mut file).map_err(unreadable(origin))
}

/// Copy the regular files under `from/relative` that the manifest lists into `to/relative`
/// (folder names hyphenated as in archives, so a checkout of the repository works too).
/// Symbolic links are never followed, to files or folders: they could lead anywhere.
fn copy_tree(from: &Path, relative: &Path, listed: &Listed, to: &Path) -> Result<(), FetchError> {
    let dir = from.join(relative);
    let origin = dir.display().to_string();
    for entry in fs::read_dir(&dir).map_err(unreadable(&origin))? {
        let entry = entry.map_err(unreadable(&origin))?;
        let path = relative.join(entry.file_name());
        // `DirEntry::file_type` does not follow symbolic links.
        let kind = entry.file_type().map_err(unreadable(&origin))?;
        if kind.is_dir() {
            copy_tree(from, &path, listed, to)?;
        } else if kind.is_file() {
            let origin = entry.path().display().to_string();
            let mut file = File::open(entry.path()).map_err(unreadable(&origin))?;
            listed.install(to, &hyphenate_folders(&path), &mut file, &origin)?;
        }
    }
    Ok(())
}

/// A temporary file or folder that is removed unless installed.
struct Scratch(PathBuf);

impl Scratch {
    /// Rename this folder to `target`, moving an earlier installation aside to `old` first and
    /// back if the rename fails.
    fn install(mut self, target: &Path, old: &Path) -> Result<(), FetchError> {
        let replacing = target.exists();
        if replacing {
            fs::rename(target, old).map_err(io_error(target))?;
        }
        if let Err(e) = fs::rename(&self.0, target) {
            if replacing {
                let _ = fs::rename(old, target);
            }
            return Err(io_error(target)(e));
        }
        if replacing {
            let _ = fs::remove_dir_all(old);
        }
        self.0 = PathBuf::new();
        Ok(())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.0.as_os_str().is_empty() {
            return;
        }
        if self.0.is_dir() {
            let _ = fs::remove_dir_all(&self.0);
        } else {
            let _ = fs::remove_file(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_folders_map_to_the_data_root() {
        let cases = [
            (
                Profile::R2023,
                "Benchmark/data/gold standard solutions/meaning-only/cole-slaw.solution",
                Some("data/gold-standard-solutions/meaning-only/cole-slaw.solution"),
            ),
            (Profile::R2023, "Thesis/thesis.pdf", None),
            (
                Profile::R2024,
                "documentation/examples/gold standard annotations/a b.solution",
                Some("documentation/examples/gold-standard-annotations/a b.solution"),
            ),
        ];
        for (profile, in_repository, in_data_root) in cases {
            assert_eq!(
                Upstream::of(profile).data_path(Path::new(in_repository)),
                in_data_root.map(PathBuf::from),
                "{in_repository}"
            );
        }
    }

    #[test]
    fn archive_urls_pin_the_commit() {
        assert_eq!(
            Upstream::of(Profile::R2024).url("https://codeload.github.com/"),
            "https://codeload.github.com/muhai-project/recipe-execution-benchmark/tar.gz/6b153ea774ec326f10e2913b8c013ad40aa47474"
        );
    }
}
