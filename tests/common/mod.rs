//! Test support shared by every test binary (each includes this folder as its `common`
//! module): finding the benchmark data the way the product does, reporting tests that cannot
//! run without it, reading the reference's TSVs (`tests/data/reference/`), running the built
//! binary ([`binary`]) and the language layer's lookups ([`language`]).
#![allow(dead_code, unused_macros, unused_imports)]

pub mod binary;
pub mod fake_llm;
pub mod language;
pub mod llama;
pub mod ontology_tree;

pub use binary::{Outcome, Scratch, capped, evaluator, outcome, run, stderr, stdout};
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataSource;
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::report::batch_report::{RefusalReport, Row, UnitOutcome};
use cookingbot::service::context::{DataRequest, OFFLINE_VAR};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Return from the test unless the data of every profile named (default 2024) is found; a test
/// that returns here is reported as not run (see [`have_data`]).
macro_rules! require_data {
    () => {
        crate::common::require_data!(::cookingbot::base::profile::Profile::R2024)
    };
    ($($profile:expr),+) => {
        if !crate::common::have_data(&[$($profile),+]) {
            return;
        }
    };
}
pub(crate) use require_data;

/// Whether the data of every profile in `profiles` is there. When one is not, the test is
/// reported as not run on stderr (past the test harness's capture), the first time in this
/// binary with the way to get the data; with `CI=true` missing data fails the test instead.
pub fn have_data(profiles: &[Profile]) -> bool {
    let Some(why) = profiles.iter().find_map(|&p| data(p).err()) else {
        return true;
    };
    if in_ci() {
        panic!("{why}");
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let mut line = String::new();
    if NOT_RUN.fetch_add(1, Ordering::SeqCst) == 0 {
        line.push_str(&format!("not run for lack of benchmark data: {why}\n"));
        at_exit(summary);
    }
    line.push_str(&format!("test {test} not run: no benchmark data\n"));
    let _ = std::io::stderr().write_all(line.as_bytes());
    false
}

/// Whether this is a CI run (`CI=true`), where whatever a test needs must be there.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Tests of this binary that did not run for lack of data.
static NOT_RUN: AtomicUsize = AtomicUsize::new(0);

/// The test harness has no "not run" outcome: such tests pass, and this line after its own
/// summary says how many of them there were.
extern "C" fn summary() {
    let n = NOT_RUN.load(Ordering::SeqCst);
    let _ = writeln!(
        std::io::stderr(),
        "{n} test{} not run for lack of benchmark data (see above)",
        if n == 1 { "" } else { "s" }
    );
}

unsafe extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
}

fn at_exit(callback: extern "C" fn()) {
    // SAFETY: registering a plain function with the C library's exit handlers.
    unsafe {
        atexit(callback);
    }
}

/// The data folder of `profile` as the product finds it (`COOKINGBOT_BENCHMARK`, the `fetch`
/// cache, else the pinned download, verified), or why there is none. A failed download is not
/// tried again by the other test binaries of the same `cargo test` run (they share its parent).
pub fn data(profile: Profile) -> Result<PathBuf, String> {
    static FOUND: [OnceLock<Result<PathBuf, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    let cell = match profile {
        Profile::R2024 => &FOUND[0],
        Profile::R2023 => &FOUND[1],
    };
    cell.get_or_init(|| find(profile)).clone()
}

fn find(profile: Profile) -> Result<PathBuf, String> {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let run = format!("no-benchmark-{profile}-run-");
    let failed = tmp.join(format!("{run}{}", std::os::unix::process::parent_id()));
    if let Ok(why) = std::fs::read_to_string(&failed) {
        return Err(why);
    }
    // Notes of earlier runs are stale.
    for note in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        if note.file_name().to_string_lossy().starts_with(&run) {
            let _ = std::fs::remove_file(note.path());
        }
    }
    let request = DataRequest {
        profile,
        explicit: None,
        offline: cookingbot::service::context::offline_from_env(),
    };
    match cookingbot::service::context::locate(request, || true, &mut std::io::stderr()) {
        // Absolute, so that runs started in another folder (a scratch folder, the README's
        // examples) find it too when COOKINGBOT_BENCHMARK is relative, as `.ci/run` sets it.
        Ok(DataSource::Folder(dir)) => Ok(std::path::absolute(&dir).unwrap_or(dir)),
        Ok(DataSource::Demo | DataSource::User(_)) => {
            Err("found data is not the official benchmark".into())
        }
        Err(e) => {
            let why = e.to_string();
            let _ = std::fs::write(&failed, &why);
            Err(why)
        }
    }
}

/// The evaluator of a profile's benchmark data, loaded once per test binary; only for tests
/// that passed [`require_data`].
pub fn benchmark_evaluator(profile: Profile) -> Arc<Evaluator> {
    static LOADED: [OnceLock<Arc<Evaluator>>; 2] = [OnceLock::new(), OnceLock::new()];
    let cell = &LOADED[(profile == Profile::R2023) as usize];
    cell.get_or_init(|| {
        let ev = Evaluator::new(profile, data_dir(profile));
        Arc::new(ev.unwrap_or_else(|e| panic!("{e}")))
    })
    .clone()
}

/// The official benchmark data (profile 2024); only for tests that passed [`require_data`].
pub fn benchmark_dir() -> PathBuf {
    data_dir(Profile::R2024)
}

/// Point a run of the product at the data the tests found (`COOKINGBOT_BENCHMARK`); without
/// data it runs offline, so a test that needs none never downloads.
pub fn with_data(command: &mut std::process::Command) -> &mut std::process::Command {
    match data(Profile::R2024) {
        Ok(dir) => command.env("COOKINGBOT_BENCHMARK", dir),
        Err(_) => command
            .env_remove("COOKINGBOT_BENCHMARK")
            .env(OFFLINE_VAR, "1"),
    }
}

/// A profile's data folder; only for tests that passed [`require_data`].
pub fn data_dir(profile: Profile) -> PathBuf {
    data(profile).unwrap_or_else(|why| panic!("{why}"))
}

/// The gold networks of the 2024 data; only for tests that passed [`require_data`].
pub fn gold_dir() -> PathBuf {
    benchmark_dir().join("data/gold-standard-solutions/meaning-only")
}

/// The gold network of recipe `id` in the 2024 data.
pub fn gold_file(id: &str) -> PathBuf {
    gold_dir().join(format!("{id}.solution"))
}

/// The documentation's example solutions of the 2024 data (`documentation/examples/evaluation`).
pub fn examples_dir() -> PathBuf {
    benchmark_dir().join("documentation/examples/evaluation")
}

/// A file's text; a file that cannot be read fails the test with its path.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every `.solution` file under a folder and its subfolders, sorted; none fails the test.
pub fn solution_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "solution") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(
        !out.is_empty(),
        "no .solution files under {}",
        dir.display()
    );
    out
}

/// The project's copy of the reference's results (`tests/data/reference/<profile>`).
pub fn reference_dir(profile: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reference")
        .join(profile)
}

/// One row of a reference TSV.
#[derive(Debug, Clone)]
pub struct RefRow {
    pub solution: PathBuf,
    pub recipe: String,
    pub gcs: String,
    pub dish: String,
    pub time: String,
    pub error: String,
}

/// The rows of a reference TSV, their solution files found in the benchmark data (the TSVs
/// name them as the reference saw them, beside the data folders) or rebuilt from it.
pub fn reference_rows(profile: &str, name: &str) -> Vec<RefRow> {
    read_rows(&reference_dir(profile).join(name), |first| {
        solution_path(profile, first)
    })
}

/// The gold networks of an evaluator's benchmark as the differential campaign draws its
/// mistaken networks from them (`cookingbot::mistakes`).
pub fn campaign_golds(
    ev: &cookingbot::evaluate::Evaluator,
    profile: Profile,
) -> cookingbot::mistakes::Golds {
    cookingbot::mistakes::Golds::new(
        ev.benchmark
            .recipes
            .iter()
            .map(|r| (r.id.as_str(), &r.network)),
        cookingbot::data::catalogue::Catalogue::builtin(profile),
    )
}

/// The rows of the differential campaign's TSV (`tests/data/differential/<profile>.tsv`): the
/// first column is the network's id in `cookingbot::mistakes`, kept in `solution`.
pub fn differential_rows(profile: &str) -> Vec<RefRow> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/differential")
        .join(format!("{profile}.tsv"));
    read_rows(&path, |id| PathBuf::from(id))
}

/// Every `step`-th network of a profile's differential campaign, in the TSV's order: its id
/// and its text, as `cookingbot::mistakes` generates it from the benchmark's gold networks.
pub fn campaign_networks(ev: &Evaluator, profile: Profile, step: usize) -> Vec<(String, String)> {
    let golds = campaign_golds(ev, profile);
    let mut ids: Vec<String> = differential_rows(profile.name())
        .iter()
        .map(|r| r.solution.to_string_lossy().into_owned())
        .collect();
    ids.dedup();
    ids.into_iter()
        .step_by(step)
        .map(|id| {
            let mistake = golds
                .mistake(&id)
                .unwrap_or_else(|| panic!("{id} is generated"));
            (id, mistake.text)
        })
        .collect()
}

/// The recipe sections of a file: each header with the lines up to the next header (text
/// before the first header is a section of its own).
pub fn sections(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        match out.last_mut() {
            Some(last) if !line.starts_with('#') => last.push_str(line),
            _ => out.push(line.to_string()),
        }
    }
    out
}

/// The sections of a campaign network that are one benchmark recipe each, as files of their
/// own: (recipe id, section).
pub fn benchmark_sections(ev: &Evaluator, text: &str) -> Vec<(String, String)> {
    sections(text)
        .into_iter()
        .filter_map(|section| {
            let parsed = cookingbot::language::parse::parse(&section);
            let id = parsed.file.recipes.first()?.id.clone();
            (section.starts_with('#') && ev.benchmark.recipe(&id).is_some())
                .then_some((id, section))
        })
        .collect()
}

/// Other answers the reference gave for campaign networks under another random search order
/// (`tests/data/differential/<profile>-other-answers.tsv`, none when the file is absent).
pub fn differential_other_answers(profile: &str) -> Vec<RefRow> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/differential")
        .join(format!("{profile}-other-answers.tsv"));
    if path.exists() {
        read_rows(&path, |id| PathBuf::from(id))
    } else {
        Vec::new()
    }
}

fn read_rows(path: &Path, solution: impl Fn(&str) -> PathBuf) -> Vec<RefRow> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let get = |i: usize| f.get(i).copied().unwrap_or("").to_string();
            RefRow {
                solution: solution(&get(0)),
                recipe: get(1),
                gcs: get(2),
                dish: get(3),
                time: get(4),
                error: get(5),
            }
        })
        .collect()
}

fn solution_path(profile: &str, in_tsv: &str) -> PathBuf {
    if let Some(rest) = in_tsv.strip_prefix("../../benchmark-2023/") {
        data_dir(Profile::R2023).join(rest)
    } else if let Some(rest) = in_tsv.strip_prefix("../../benchmark/") {
        benchmark_dir().join(rest)
    } else {
        rebuilt(profile).join(in_tsv)
    }
}

/// The reference's own solution files of `profile` (`perturbed/`, `edge/`), rebuilt once per
/// process from the benchmark data by their edit scripts (see `tests/data/reference/README.md`).
pub fn rebuilt(profile: &str) -> PathBuf {
    static BUILT: [OnceLock<PathBuf>; 2] = [OnceLock::new(), OnceLock::new()];
    let profile: Profile = profile.parse().unwrap_or_else(|e| panic!("{e}"));
    let cell = match profile {
        Profile::R2024 => &BUILT[0],
        Profile::R2023 => &BUILT[1],
    };
    cell.get_or_init(|| {
        at_exit(remove_rebuilt);
        let dir = rebuilt_root().join(profile.name());
        rebuild_all(&reference_dir(profile.name()), &dir, profile);
        dir
    })
    .clone()
}

/// This process's rebuilt files, removed when it exits.
fn rebuilt_root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("reference-{}", std::process::id()))
}

extern "C" fn remove_rebuilt() {
    let _ = std::fs::remove_dir_all(rebuilt_root());
}

fn rebuild_all(from: &Path, to: &Path, profile: Profile) {
    let Ok(kinds) = std::fs::read_dir(from) else {
        return;
    };
    for kind in kinds.flatten().filter(|e| e.path().is_dir()) {
        let out = to.join(kind.file_name());
        std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
        for edit in std::fs::read_dir(kind.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = edit.file_name().to_string_lossy().into_owned();
            let Some(solution) = name.strip_suffix(".edit") else {
                continue;
            };
            let text = apply_edit(&edit.path(), &data_dir(profile));
            std::fs::write(out.join(solution), text)
                .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
        }
    }
}

/// Rebuild a solution file from its edit script: lines are `from N FILE` (source N is the data
/// file FILE), `rename ?OLD ?NEW` (in every line copied later), `copy N A-B [cr]` (lines A to B
/// of source N, each ending in a carriage return with `cr`) and `add "JSON string"` (a new
/// line). The file is the lines joined by line feeds.
pub fn apply_edit(script: &Path, data: &Path) -> String {
    let text =
        std::fs::read_to_string(script).unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    let bad = |line: &str| -> ! { panic!("{}: bad line {line:?}", script.display()) };
    let mut sources: Vec<(String, Vec<String>)> = Vec::new();
    let mut names: Vec<(String, String)> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let (op, rest) = line.split_once(' ').unwrap_or_else(|| bad(line));
        match op {
            "from" => {
                let (n, file) = rest.split_once(' ').unwrap_or_else(|| bad(line));
                let path = data.join(file);
                let body = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                sources.push((
                    n.to_string(),
                    body.split('\n').map(str::to_string).collect(),
                ));
            }
            "rename" => {
                let (old, new) = rest.split_once(' ').unwrap_or_else(|| bad(line));
                names.push((old.to_string(), new.to_string()));
            }
            "copy" => {
                let mut parts = rest.split(' ');
                let (Some(n), Some(span)) = (parts.next(), parts.next()) else {
                    bad(line)
                };
                let cr = if parts.next() == Some("cr") { "\r" } else { "" };
                let (first, last) = span.split_once('-').unwrap_or((span, span));
                let (Ok(first), Ok(last)) = (first.parse::<usize>(), last.parse::<usize>()) else {
                    bad(line)
                };
                let source = &sources
                    .iter()
                    .find(|(k, _)| k == n)
                    .unwrap_or_else(|| bad(line))
                    .1;
                for copied in source.get(first - 1..last).unwrap_or_else(|| bad(line)) {
                    out.push(format!("{}{cr}", rename(copied, &names)));
                }
            }
            "add" => out.push(serde_json::from_str(rest).unwrap_or_else(|_| bad(line))),
            _ => bad(line),
        }
    }
    out.join("\n")
}

/// `line` with every whole token (a run of characters other than spaces and parentheses) that
/// `names` renames replaced.
fn rename(line: &str, names: &[(String, String)]) -> String {
    if names.is_empty() {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        let new = names.iter().find(|(old, _)| old == token).map(|(_, n)| n);
        out.push_str(new.unwrap_or(token));
        token.clear();
    };
    for c in line.chars() {
        if c.is_whitespace() || c == '(' || c == ')' {
            flush(&mut token, &mut out);
            out.push(c);
        } else {
            token.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// The commands of the README's first code block (the two set-up commands).
pub fn readme_commands() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("README.md: {e}"));
    readme
        .lines()
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// A fresh clone of the repository on a machine that has only the Rust toolchain: its tracked
/// files as they are in the work tree, an empty home and data home, and a target directory of
/// its own, so that its builds never touch this build's binaries.
pub struct FreshClone {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
    data_home: tempfile::TempDir,
    target: tempfile::TempDir,
}

impl FreshClone {
    pub fn new() -> FreshClone {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = tempfile::tempdir().unwrap();
        let listed = std::process::Command::new("git")
            .args(["ls-files", "-z"])
            .current_dir(root)
            .output()
            .expect("git runs");
        assert!(listed.status.success());
        let files = String::from_utf8(listed.stdout).unwrap();
        for file in files.split('\0').filter(|f| !f.is_empty()) {
            let to = dir.path().join(file);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(root.join(file), &to).unwrap_or_else(|e| panic!("{file}: {e}"));
        }
        FreshClone {
            dir,
            home: tempfile::tempdir().unwrap(),
            data_home: tempfile::tempdir().unwrap(),
            target: seeded_target_dir(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Where the evaluator installs downloaded data (`XDG_DATA_HOME`).
    pub fn data_home(&self) -> &Path {
        self.data_home.path()
    }

    /// `sh -c command` in the clone: the environment of the shell this test was started from
    /// (what `cargo test` adds taken away), no benchmark or test variables, crates from the
    /// toolchain's cache (offline), and the clone's own target directory.
    pub fn command(&self, command: &str) -> std::process::Command {
        let mut shell = std::process::Command::new("sh");
        for (var, _) in std::env::vars_os() {
            if set_by_cargo_test(&var.to_string_lossy()) {
                shell.env_remove(var);
            }
        }
        // `PATH` stays the build's, which some build scripts watch; `cargo` is put on it only
        // where it is not found there.
        let mut path: Vec<PathBuf> =
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect();
        if !path.iter().any(|dir| dir.join("cargo").is_file()) {
            let cargo =
                PathBuf::from(std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into()));
            path.insert(0, cargo.parent().unwrap().to_path_buf());
        }
        shell
            .arg("-c")
            .arg(command)
            .current_dir(self.path())
            .env_remove("COOKINGBOT_BENCHMARK")
            .env_remove("COOKINGBOT_BENCHMARK_2023")
            .env_remove("COOKINGBOT_DATA_DIR")
            .env_remove("COOKINGBOT_OFFLINE")
            .env_remove("COOKINGBOT_FETCH_BASE_URL")
            .env_remove("CI")
            .env("CARGO_HOME", tool_home("CARGO_HOME", ".cargo"))
            .env("RUSTUP_HOME", tool_home("RUSTUP_HOME", ".rustup"))
            .env("HOME", self.home.path())
            .env("XDG_DATA_HOME", self.data_home())
            .env("PATH", std::env::join_paths(path).unwrap())
            .env("CARGO_TARGET_DIR", self.target.path())
            .env("CARGO_NET_OFFLINE", "true");
        shell
    }
}

/// What `cargo test` adds to the environment of a test it runs (of the package, its build
/// script's output folder, the library path): a user's shell has none of it, and the build
/// scripts that watch such variables (ring's) would run again and rebuild their crate.
fn set_by_cargo_test(var: &str) -> bool {
    const PREFIXES: [&str; 4] = [
        "CARGO_PKG_",
        "CARGO_MANIFEST_",
        "CARGO_BIN_",
        "CARGO_CRATE_",
    ];
    const NAMES: [&str; 5] = [
        "CARGO",
        "CARGO_TARGET_TMPDIR",
        "CARGO_PRIMARY_PACKAGE",
        "OUT_DIR",
        "LD_LIBRARY_PATH",
    ];
    PREFIXES.iter().any(|prefix| var.starts_with(prefix)) || NAMES.contains(&var)
}

/// A target directory (inside this build's, on its file system) holding this build's compiled
/// dependencies, so a clone's build compiles only the crate itself. Cargo judges a unit fresh by
/// its fingerprint and by modification times, and rewrites fingerprints and build-script
/// outputs in place: those are copied with their times; the dependencies' libraries, which a
/// fresh unit never rewrites, are hard-linked. Nothing of the crate itself is brought over.
fn seeded_target_dir() -> tempfile::TempDir {
    let exe = std::env::current_exe().unwrap();
    let profile = exe
        .ancestors()
        .nth(2)
        .expect("target/<profile>/deps/<test>");
    let target = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let seeded = target.path().join(profile.file_name().unwrap());
    let of_the_crate = |name: &str| name.starts_with("cookingbot-");
    for folder in [".fingerprint", "build"] {
        for entry in std::fs::read_dir(profile.join(folder)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if !of_the_crate(&name.to_string_lossy()) {
                copy_with_times(&entry.path(), &seeded.join(folder).join(&name));
            }
        }
    }
    std::fs::create_dir_all(seeded.join("deps")).unwrap();
    for entry in std::fs::read_dir(profile.join("deps")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let library = [".rlib", ".rmeta", ".so"].iter().any(|e| name.ends_with(e));
        if library && name.starts_with("lib") && !of_the_crate(&name[3..]) {
            std::fs::hard_link(entry.path(), seeded.join("deps").join(&name))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
    target
}

/// Copy a file or folder, each file keeping its modification time.
fn copy_with_times(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_with_times(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
        let modified = std::fs::metadata(from).unwrap().modified().unwrap();
        std::fs::File::options()
            .write(true)
            .open(to)
            .and_then(|file| file.set_modified(modified))
            .unwrap();
    }
}

/// Where the toolchain lives; kept when `HOME` is emptied (a fresh machine has Rust installed).
fn tool_home(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(default)
    })
}

/// The SHA-256 sums (hex) of the official 2024 gold files, concatenated in the manifest's
/// order, and of the built-in kitchen file, computed here from the files themselves (not by the
/// product's code).
pub fn official_data_sums() -> (String, String) {
    use sha2::{Digest, Sha256};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("gold/benchmark.json")).unwrap())
            .unwrap();
    let mut gold = Sha256::new();
    for recipe in manifest["profiles"]["2024"]["recipes"].as_array().unwrap() {
        let file = benchmark_dir().join(recipe["gold_file"].as_str().unwrap());
        gold.update(std::fs::read(file).unwrap());
    }
    let kitchen =
        Sha256::digest(std::fs::read(root.join("kitchens/full-kitchen-2024.json")).unwrap());
    let hex = |sum: &[u8]| -> String { sum.iter().map(|b| format!("{b:02x}")).collect() };
    (hex(&gold.finalize()), hex(&kitchen))
}

/// The data part of the signature of a run on the official 2024 data with the built-in
/// kitchen: text reports show 12 hex digits of each sum.
pub fn official_data_signature() -> String {
    let (gold, kitchen) = official_data_sums();
    format!(
        "data official, gold sha256 {}, kitchen sha256 {}",
        &gold[..12],
        &kitchen[..12]
    )
}

/// A network of recipe `recipe`: `ingredient` fetched, then `n` mixing actions each on the
/// mixture before it, all with one tool (the chain whose mixtures nest two levels an action).
pub fn mixing_chain(recipe: &str, ingredient: &str, n: usize) -> String {
    let mut text = format!(
        "#{recipe}\n(get-kitchen ?k0)\n(fetch-and-proportion ?m0 ?ks0 ?k0 ?bowl {ingredient} 100 g)\n"
    );
    for i in 1..=n {
        text.push_str(&format!(
            "(mix ?m{i} ?ks{i} ?ks{} ?m{} ?whisk)\n",
            i - 1,
            i - 1
        ));
    }
    text
}

/// A network of recipe `recipe`: `get-kitchen`, then `action(i)` for `i` in `1..=n`, the `i`th
/// taking kitchen state `?ks{i-1}` and making `?ks{i}` (a chain of `n + 1` actions).
pub fn kitchen_chain(recipe: &str, n: usize, action: impl Fn(usize) -> String) -> String {
    let mut text = format!("#{recipe}\n(get-kitchen ?ks0)\n");
    for i in 1..=n {
        text.push_str(&action(i));
        text.push('\n');
    }
    text
}

/// A network of recipe `recipe` that heaps portions on the counter-top: `pairs` times, 1,000
/// kg of `ingredient` fetched into the same bowl and cut into 20,000 portions of 50 g, every
/// later kitchen state holding every portion cut before it.
pub fn portion_heap(recipe: &str, ingredient: &str, pairs: usize) -> String {
    let mut text = format!("#{recipe}\n(get-kitchen ?ks0)\n");
    for i in 1..=pairs {
        text.push_str(&format!(
            "(fetch-and-proportion ?dough{i} ?fetched{i} ?ks{} ?bowl {ingredient} 1000000 g)\n\
             (portion-and-arrange ?portions{i} ?ks{i} ?fetched{i} ?dough{i} 50 g ?pattern{i} ?counter{i})\n",
            i - 1
        ));
    }
    text
}

/// A network of recipe `recipe`: `n` actions that need only the kitchen (each fetches 1 g of
/// `ingredient`), so that every ordering of them is a path of the search, and one action whose
/// kitchen state nothing makes: no ordering completes, and the search meets 2^n sets of
/// executed actions.
pub fn independent_actions(recipe: &str, ingredient: &str, n: usize) -> String {
    let mut text = format!("#{recipe}\n(get-kitchen ?k0)\n");
    for i in 0..n {
        text.push_str(&format!(
            "(fetch-and-proportion ?x{i} ?ks{i} ?k0 ?c{i} {ingredient} 1 g)\n"
        ));
    }
    text.push_str("(mix ?m ?ks-mixed ?never-made ?x0 ?whisk)\n");
    text
}

/// Every metric, as `evaluate` computes them by default.
pub fn all_metrics() -> MetricSet {
    Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with)
}

/// What `evaluate` writes for a file of one recipe, computed here from the file: its CSV and
/// its JSON unit (the row with its report, or the refusal).
pub fn file_score(ev: &Evaluator, name: &str, text: &str) -> (String, serde_json::Value) {
    let metrics = all_metrics();
    match ev.evaluate(text, &metrics) {
        Ok(rows) => {
            assert_eq!(rows.len(), 1, "{name}: one recipe");
            let unit = UnitOutcome::Scored(Box::new(Row::new(&rows[0], &metrics)));
            let csv = cookingbot::report::csv::render(&rows, &metrics);
            (csv, cookingbot::report::json::value(&unit))
        }
        Err(refusal) => {
            let unit = UnitOutcome::Refused(RefusalReport {
                message: refusal.message.clone(),
                rendered: refusal.render(name, text),
                recipes: refusal.recipes.clone(),
            });
            (String::new(), cookingbot::report::json::value(&unit))
        }
    }
}
