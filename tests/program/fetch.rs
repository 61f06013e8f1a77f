//! `fetch`: the benchmark data downloads, verifies and installs itself. The archives are built
//! here, at test time, from the benchmark data the tests found, in the layout of the GitHub
//! archives, and served by a local HTTP server; nothing touches the internet.

use crate::common;

use common::{benchmark_dir, data_dir, reference_rows};
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::download::{Cache, FetchError, Progress, Source, Upstream};
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A file of the 2024 manifest whose corruption the tests look for.
const CORRUPTED: &str =
    "data/gold-standard-solutions/meaning-only/almond-crescent-cookies.solution";

/// The regular files under `dir`, as (path relative to `dir`, contents), sorted.
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let relative = path.strip_prefix(root).unwrap().to_path_buf();
                out.push((relative, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The files of a profile's GitHub archive, paths inside the repository: the official
/// repository is the 2024 data folder as it is (plus a top-level file that is not data); the
/// thesis repository holds the 2023 data under `Benchmark/` with spaces in its folder names, as
/// on GitHub, beside folders that are not data.
fn repository(profile: Profile) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = match profile {
        Profile::R2024 => files_under(&benchmark_dir()),
        Profile::R2023 => files_under(&data_dir(Profile::R2023))
            .into_iter()
            .map(|(path, bytes)| {
                let spaced = path
                    .to_string_lossy()
                    .replace("gold-standard-solutions", "gold standard solutions")
                    .replace("utterance-and-meaning", "utterance and meaning")
                    .replace("recipe-texts", "recipe texts");
                (Path::new("Benchmark").join(spaced), bytes)
            })
            .collect(),
    };
    files.push(("README.md".into(), b"# not data\n".to_vec()));
    if profile == Profile::R2023 {
        files.push(("Thesis/README.md".into(), b"# not data either\n".to_vec()));
    }
    files
}

/// A `.tar.gz` like codeload's: a pax global header naming the commit, then every file under
/// one top-level folder `<repo>-<commit>/`.
fn tar_gz(profile: Profile, files: &[(PathBuf, Vec<u8>)]) -> Vec<u8> {
    let upstream = Upstream::of(profile);
    let top = format!("{}-{}", upstream.repo, upstream.commit);
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    let comment = format!("52 comment={}\n", upstream.commit);
    let mut pax = tar::Header::new_ustar();
    pax.set_entry_type(tar::EntryType::XGlobalHeader);
    pax.set_path("pax_global_header").unwrap();
    pax.set_size(comment.len() as u64);
    pax.set_cksum();
    tar.append(&pax, comment.as_bytes()).unwrap();
    for (path, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, Path::new(&top).join(path), bytes.as_slice())
            .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

fn zip(profile: Profile, files: &[(PathBuf, Vec<u8>)]) -> Vec<u8> {
    let upstream = Upstream::of(profile);
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (path, bytes) in files {
        let name = format!("{}-{}/{}", upstream.repo, upstream.commit, path.display());
        zip.start_file(name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// The repository with one byte of [`CORRUPTED`] changed.
fn corrupted_2024() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = repository(Profile::R2024);
    let (_, bytes) = files
        .iter_mut()
        .find(|(path, _)| path == Path::new(CORRUPTED))
        .expect("the 2024 data has the file");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    files
}

/// What the server answers to a GET of a path.
enum Reply {
    Ok(Vec<u8>),
    /// Announces the whole body but closes the connection halfway through it.
    CutShort(Vec<u8>),
}

/// Stops its server when dropped, so a server lives exactly as long as its test needs it
/// (however long the builds before the download take).
struct Server(Arc<AtomicBool>);

impl Drop for Server {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Serve `routes` on 127.0.0.1 (an ephemeral port) to at most `requests` requests, until the
/// returned `Server` is dropped. Unknown paths get 404. Returns the base URL.
fn serve(routes: Vec<(String, Reply)>, requests: usize) -> (String, Server) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    let stopped = Arc::new(AtomicBool::new(false));
    let server = Server(stopped.clone());
    std::thread::spawn(move || {
        let mut served = 0;
        while served < requests && !stopped.load(Ordering::Relaxed) {
            let Ok((stream, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            };
            served += 1;
            stream.set_nonblocking(false).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let mut reader = BufReader::new(stream);
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request_line.split(' ').nth(1).unwrap_or("");
            let mut stream = reader.into_inner();
            let head = |length: usize| {
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/x-gzip\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
                )
            };
            let _ = match routes.iter().find(|(route, _)| route == path) {
                Some((_, Reply::Ok(body))) => stream
                    .write_all(head(body.len()).as_bytes())
                    .and_then(|()| stream.write_all(body)),
                Some((_, Reply::CutShort(body))) => stream
                    .write_all(head(body.len()).as_bytes())
                    .and_then(|()| stream.write_all(&body[..body.len() / 2])),
                None => stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                ),
            };
        }
    });
    (base, server)
}

/// The path of a profile's archive on the server.
fn route(profile: Profile) -> String {
    Upstream::of(profile).url("")
}

/// The entries of the cache's `benchmark` folder: installations and any leftovers.
fn cache_entries(data_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(data_dir.join("benchmark"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn refused(data_dir: &Path, profile: Profile, source: &Source) -> FetchError {
    let cache = Cache::new(data_dir);
    let err = cache
        .fetch(profile, source, &mut |_| {})
        .expect_err("the data must be refused");
    assert_eq!(cache.cached(profile), None);
    assert!(!cache.dir(profile).exists());
    assert_eq!(cache_entries(data_dir), Vec::<String>::new(), "leftovers");
    assert!(
        !data_dir.join("benchmark").exists(),
        "the cache folder made"
    );
    err
}

#[test]
fn downloads_install_both_profiles_and_the_installed_data_evaluates() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let (base_url, _server) = serve(
        vec![
            (
                route(Profile::R2024),
                Reply::Ok(tar_gz(Profile::R2024, &repository(Profile::R2024))),
            ),
            (
                route(Profile::R2023),
                Reply::Ok(tar_gz(Profile::R2023, &repository(Profile::R2023))),
            ),
        ],
        2,
    );
    let data_dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(data_dir.path());
    let source = Source::Download { base_url };
    for profile in [Profile::R2024, Profile::R2023] {
        let mut events = Vec::new();
        let dir = cache
            .fetch(profile, &source, &mut |p| events.push(p))
            .unwrap_or_else(|e| panic!("{profile}: {e}"));
        assert_eq!(dir, data_dir.path().join("benchmark").join(profile.name()));
        let files = cookingbot::benchmark::manifest(profile).files.len();
        assert_eq!(
            events.last(),
            Some(&Progress::Verifying {
                checked: files,
                total: files
            })
        );
        let downloaded = events.iter().rev().find_map(|p| match p {
            Progress::Downloading { received, total } => Some((*received, *total)),
            _ => None,
        });
        assert!(matches!(downloaded, Some((n, Some(t))) if n == t && n > 0));
    }
    assert_eq!(cache_entries(data_dir.path()), ["2023", "2024"]);
    // The thesis repository's `Benchmark/data` is the 2023 data, folder names hyphenated.
    let thesis = cache.dir(Profile::R2023);
    assert!(
        thesis
            .join("data/gold-standard-solutions/utterance-and-meaning")
            .is_dir()
    );
    assert!(!thesis.join("Thesis").exists() && !thesis.join("README.md").exists());
    // Only the manifest's files are installed: the top-level README is not.
    assert!(!cache.dir(Profile::R2024).join("README.md").exists());

    let again = Cache::new(data_dir.path());
    assert_eq!(
        again.cached(Profile::R2024),
        Some(cache.dir(Profile::R2024))
    );
    assert_eq!(
        again.cached(Profile::R2023),
        Some(cache.dir(Profile::R2023))
    );

    // The first row of the documentation examples, from the installed data only.
    let installed = again.cached(Profile::R2024).unwrap();
    let row = &reference_rows("2024", "doc-examples.tsv")[0];
    let solution = row
        .solution
        .canonicalize()
        .unwrap()
        .strip_prefix(benchmark_dir().canonicalize().unwrap())
        .unwrap()
        .to_path_buf();
    let text = std::fs::read_to_string(installed.join(&solution)).unwrap();
    let evaluator = Evaluator::new(Profile::R2024, &installed).unwrap();
    let results = evaluator.evaluate(&text, &MetricSet::default()).unwrap();
    let first = &results[0];
    assert_eq!(
        [
            first.recipe_id.clone(),
            first.formatted(Metric::GoalConditionSuccess),
            first.formatted(Metric::DishApproximationScore),
            first.formatted(Metric::ExecutionTime),
        ],
        [
            row.recipe.clone(),
            row.gcs.clone(),
            row.dish.clone(),
            row.time.clone()
        ]
    );
}

#[test]
fn a_changed_byte_in_a_listed_file_refuses_the_download() {
    common::require_data!();
    let (base_url, _server) = serve(
        vec![(
            route(Profile::R2024),
            Reply::Ok(tar_gz(Profile::R2024, &corrupted_2024())),
        )],
        1,
    );
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2024,
        &Source::Download { base_url },
    );
    let FetchError::Differs { file, reason } = &err else {
        panic!("expected a differing file, got {err:?}")
    };
    assert_eq!(file, CORRUPTED);
    assert!(reason.starts_with("has SHA-256 "), "{reason}");
    assert!(
        err.to_string()
            .starts_with(&format!("{CORRUPTED} has SHA-256 "))
    );
}

#[test]
fn a_cut_short_download_is_refused() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let archive = tar_gz(Profile::R2024, &repository(Profile::R2024));
    let (base_url, _server) = serve(vec![(route(Profile::R2024), Reply::CutShort(archive))], 1);
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2024,
        &Source::Download { base_url },
    );
    let FetchError::Download { url, .. } = &err else {
        panic!("expected a download error, got {err:?}")
    };
    assert!(url.ends_with(&route(Profile::R2024)));
}

#[test]
fn a_truncated_archive_is_refused() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let mut archive = tar_gz(Profile::R2024, &repository(Profile::R2024));
    archive.truncate(archive.len() / 2);
    let (base_url, _server) = serve(vec![(route(Profile::R2024), Reply::Ok(archive))], 1);
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2024,
        &Source::Download { base_url },
    );
    let FetchError::Unreadable { origin, .. } = &err else {
        panic!("expected an unreadable archive, got {err:?}")
    };
    assert!(origin.ends_with(&route(Profile::R2024)), "{origin}");
}

#[test]
fn a_page_that_is_not_an_archive_is_refused() {
    let page = b"<html><body>Rate limit exceeded</body></html>".to_vec();
    let (base_url, _server) = serve(vec![(route(Profile::R2023), Reply::Ok(page))], 1);
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2023,
        &Source::Download {
            base_url: base_url.clone(),
        },
    );
    assert_eq!(
        err,
        FetchError::Unreadable {
            origin: format!("{base_url}{}", route(Profile::R2023)),
            reason: "not a .tar.gz or .zip archive".into()
        }
    );
}

#[test]
fn a_missing_archive_is_refused() {
    let (base_url, _server) = serve(vec![], 1);
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2024,
        &Source::Download { base_url },
    );
    assert!(
        matches!(&err, FetchError::Download { reason, .. } if reason.contains("404")),
        "{err:?}"
    );
}

#[test]
fn an_archive_with_the_data_at_its_top_is_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let archive = scratch.path().join("flat.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&archive).unwrap());
    for name in ["data/a.solution", "documentation/b.solution"] {
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
    }
    zip.finish().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2024,
        &Source::Local(archive.clone()),
    );
    assert_eq!(
        err,
        FetchError::Layout {
            origin: archive.display().to_string(),
            reason: "more than one top-level folder (data and documentation); expected GitHub's archive layout".into()
        }
    );
}

/// `cookingbot-evaluator fetch --data-dir DATA_DIR`, offline: any download would fail.
fn fetch_command(data_dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"));
    command
        .env_remove("COOKINGBOT_DATA_DIR")
        .env("COOKINGBOT_FETCH_BASE_URL", "http://127.0.0.1:9")
        .arg("fetch")
        .arg("--data-dir")
        .arg(data_dir);
    command
}

/// How a run ended, as (exit code, stdout, stderr), to compare whole.
fn ended(command: &mut Command) -> (i32, String, String) {
    let o = common::outcome(command);
    (o.code, o.stdout, o.stderr)
}

#[test]
fn fetch_from_a_folder_and_from_archives_works_offline() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let scratch = tempfile::tempdir().unwrap();
    let tarball = scratch.path().join("official.tar.gz");
    std::fs::write(
        &tarball,
        tar_gz(Profile::R2024, &repository(Profile::R2024)),
    )
    .unwrap();
    let zipped = scratch.path().join("thesis.zip");
    std::fs::write(&zipped, zip(Profile::R2023, &repository(Profile::R2023))).unwrap();
    let folder_2023 = data_dir(Profile::R2023);

    for (profile, from) in [
        (Profile::R2024, benchmark_dir()),
        (Profile::R2023, folder_2023),
        (Profile::R2024, tarball),
        (Profile::R2023, zipped),
    ] {
        let data_dir = tempfile::tempdir().unwrap();
        let installed = data_dir.path().join("benchmark").join(profile.name());
        let fetch = || {
            let mut command = fetch_command(data_dir.path());
            command
                .args(["--reference", profile.name(), "--from"])
                .arg(&from);
            ended(&mut command)
        };
        assert_eq!(
            fetch(),
            (
                0,
                format!(
                    "installed the verified benchmark data for profile {profile} in {}\n",
                    installed.display()
                ),
                String::new()
            ),
            "{}",
            from.display()
        );
        assert_eq!(
            Cache::new(data_dir.path()).cached(profile),
            Some(installed.clone())
        );
        assert_eq!(
            fetch().1,
            format!(
                "benchmark data for profile {profile} is already installed in {}\n",
                installed.display()
            )
        );
    }
}

#[test]
fn the_command_names_the_bad_file_and_installs_nothing() {
    common::require_data!();
    let scratch = tempfile::tempdir().unwrap();
    let tarball = scratch.path().join("official.tar.gz");
    std::fs::write(&tarball, tar_gz(Profile::R2024, &corrupted_2024())).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = ended(fetch_command(data_dir.path()).arg("--from").arg(&tarball));
    assert_eq!((code, stdout.as_str()), (1, ""));
    let prefix = format!(
        "error: cannot install the benchmark data for profile 2024 from {}: {CORRUPTED} has SHA-256 ",
        tarball.display()
    );
    assert!(stderr.starts_with(&prefix), "{stderr}");
    assert!(stderr.ends_with("; nothing was installed\n"), "{stderr}");
    assert_eq!(cache_entries(data_dir.path()), Vec::<String>::new());
}

#[test]
fn evaluation_finds_the_installed_data() {
    common::require_data!();
    let data_dir = tempfile::tempdir().unwrap();
    Cache::new(data_dir.path())
        .fetch(Profile::R2024, &Source::Local(benchmark_dir()), &mut |_| {})
        .unwrap();
    let row = &reference_rows("2024", "doc-examples.tsv")[0];
    let output = data_dir.path().join("results.csv");
    let mut command = Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"));
    command
        .env_remove("COOKINGBOT_BENCHMARK")
        .env("COOKINGBOT_DATA_DIR", data_dir.path())
        .arg("-input")
        .arg(&row.solution)
        .arg("-output")
        .arg(&output);
    let (code, _, stderr) = ended(&mut command);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        format!(
            "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n{},{},{},{}\n",
            row.recipe, row.gcs, row.dish, row.time
        )
    );
}

#[test]
fn fetch_all_with_one_source_is_a_usage_error() {
    let data_dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) =
        ended(fetch_command(data_dir.path()).args(["--all", "--from", "somewhere.tar.gz"]));
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            2,
            "",
            "error: --from holds the data of one profile; choose it with --reference 2023 or --reference 2024\n"
        )
    );
}

/// A machine that has never seen the benchmark: empty home and data folders, no benchmark
/// variables, and the download pointed at `base_url`.
struct FreshMachine {
    home: tempfile::TempDir,
    data_home: tempfile::TempDir,
    work: tempfile::TempDir,
}

impl FreshMachine {
    fn new() -> FreshMachine {
        FreshMachine {
            home: tempfile::tempdir().unwrap(),
            data_home: tempfile::tempdir().unwrap(),
            work: tempfile::tempdir().unwrap(),
        }
    }

    /// Where the evaluator installs the data it downloads (the platform data directory).
    fn installed(&self, profile: Profile) -> PathBuf {
        self.data_home
            .path()
            .join("cookingbot/benchmark")
            .join(profile.name())
    }

    fn evaluator(&self, base_url: &str) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cookingbot-evaluator"));
        command
            .current_dir(self.work.path())
            .env_remove("COOKINGBOT_BENCHMARK")
            .env_remove("COOKINGBOT_BENCHMARK_2023")
            .env_remove("COOKINGBOT_DATA_DIR")
            .env_remove("COOKINGBOT_OFFLINE")
            .env("HOME", self.home.path())
            .env("XDG_DATA_HOME", self.data_home.path())
            .env("COOKINGBOT_FETCH_BASE_URL", base_url);
        command
    }

    /// A solution for almond-crescent-cookies: its gold network, read at test time.
    fn almond_solution(&self) -> PathBuf {
        let gold = benchmark_dir().join(CORRUPTED);
        let path = self.work.path().join("almond.solution");
        std::fs::copy(gold, &path).unwrap();
        path
    }
}

/// Nothing listens on the discard port: any download fails at once.
const UNREACHABLE: &str = "http://127.0.0.1:9";

/// A port that accepts nothing and tells afterwards whether anyone tried to connect.
struct Tripwire(TcpListener);

impl Tripwire {
    fn new() -> Tripwire {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        Tripwire(listener)
    }

    fn url(&self) -> String {
        format!("http://{}", self.0.local_addr().unwrap())
    }

    fn touched(&self) -> bool {
        self.0.accept().is_ok()
    }
}

#[test]
fn offline_with_no_data_an_official_solution_fails_with_one_message_and_writes_nothing() {
    common::require_data!();
    let machine = FreshMachine::new();
    let solution = machine.almond_solution();
    let output = machine.work.path().join("out.csv");
    let (code, stdout, stderr) = ended(
        machine
            .evaluator(UNREACHABLE)
            .arg("-input")
            .arg(&solution)
            .arg("-output")
            .arg(&output),
    );
    let url = format!("{UNREACHABLE}{}", route(Profile::R2024));
    assert_eq!(
        (code, stdout.as_str(), stderr),
        (
            2,
            "",
            format!(
                "error: no benchmark data for profile 2024 was found (looked in {}) and downloading it failed: cannot download {url}: io: Connection refused (os error 111); get it with `cookingbot-evaluator fetch --reference 2024` (on a machine without internet: `cookingbot-evaluator fetch --reference 2024 --from ARCHIVE_OR_DIR`), pass --benchmark DIR (the folder holding `data/gold-standard-solutions`) or set COOKINGBOT_BENCHMARK\n",
                machine.installed(Profile::R2024).display()
            )
        )
    );
    assert!(!output.exists());
    assert_eq!(
        std::fs::read_dir(machine.data_home.path()).unwrap().count(),
        0,
        "nothing is left in the data folder"
    );
}

#[test]
fn with_no_data_an_official_solution_downloads_it_then_evaluates() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let (base_url, _server) = serve(
        vec![(
            route(Profile::R2024),
            Reply::Ok(tar_gz(Profile::R2024, &repository(Profile::R2024))),
        )],
        1,
    );
    let machine = FreshMachine::new();
    let row = &reference_rows("2024", "doc-examples.tsv")[0];
    let output = machine.work.path().join("out.csv");
    // The evaluator runs in the machine's work folder: the shared data may be given relative.
    let solution = std::path::absolute(&row.solution).unwrap();
    let evaluate = |base_url: &str| {
        ended(
            machine
                .evaluator(base_url)
                .arg("-input")
                .arg(&solution)
                .arg("-output")
                .arg(&output),
        )
    };
    let (code, _, stderr) = evaluate(&base_url);
    assert_eq!(code, 0, "{stderr}");
    let installed = machine.installed(Profile::R2024);
    assert!(
        stderr.starts_with(&format!(
            "installed the verified benchmark data for profile 2024 in {}\nsignature: ",
            installed.display()
        )),
        "{stderr}"
    );
    assert_eq!(
        Cache::new(machine.data_home.path().join("cookingbot")).cached(Profile::R2024),
        Some(installed)
    );
    let expected = format!(
        "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n{},{},{},{}\n",
        row.recipe, row.gcs, row.dish, row.time
    );
    assert_eq!(std::fs::read_to_string(&output).unwrap(), expected);

    // Installed once: the next run finds it and never connects.
    std::fs::remove_file(&output).unwrap();
    let tripwire = Tripwire::new();
    let (code, _, stderr) = evaluate(&tripwire.url());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.starts_with("signature: "), "{stderr}");
    assert_eq!(std::fs::read_to_string(&output).unwrap(), expected);
    assert!(!tripwire.touched());
}

#[test]
fn offline_mode_and_the_demo_never_download() {
    common::require_data!();
    let machine = FreshMachine::new();
    let solution = machine.almond_solution();
    let output = machine.work.path().join("out.csv");
    let tripwire = Tripwire::new();
    let not_found = format!(
        "error: no benchmark data for profile 2024 was found (looked in {}); get it with `cookingbot-evaluator fetch --reference 2024` (on a machine without internet: `cookingbot-evaluator fetch --reference 2024 --from ARCHIVE_OR_DIR`), pass --benchmark DIR (the folder holding `data/gold-standard-solutions`) or set COOKINGBOT_BENCHMARK, or try the embedded demo with --benchmark demo\n",
        machine.installed(Profile::R2024).display()
    );
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-mistake.solution");
    let evaluate = |input: &Path, args: &[&str], offline_var: Option<&str>| {
        let mut command = machine.evaluator(&tripwire.url());
        if let Some(value) = offline_var {
            command.env("COOKINGBOT_OFFLINE", value);
        }
        ended(
            command
                .args(args)
                .arg("-input")
                .arg(input)
                .arg("-output")
                .arg(&output),
        )
    };
    // Downloads turned off by the flag or the variable: the plain message.
    for (args, var) in [(&["--offline"][..], None), (&[][..], Some("1"))] {
        let (code, stdout, stderr) = evaluate(&solution, args, var);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (2, "", not_found.as_str())
        );
    }
    // The demo's recipes are not the official benchmark's: nothing to download.
    let (code, _, stderr) = evaluate(&demo, &[], None);
    assert_eq!((code, stderr.as_str()), (2, not_found.as_str()));
    assert!(!output.exists());
    // `--benchmark demo` names its data.
    let (code, _, stderr) = evaluate(&demo, &["--benchmark", "demo"], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(output.exists());
    assert!(!tripwire.touched());
    assert!(!machine.data_home.path().join("cookingbot").exists());
}

#[test]
fn simulate_without_data_warns_when_the_download_fails_and_shows_the_run() {
    common::require_data!();
    let machine = FreshMachine::new();
    let solution = machine.almond_solution();
    let (code, stdout, stderr) = ended(
        machine
            .evaluator(UNREACHABLE)
            .arg("simulate")
            .arg(&solution),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.starts_with("warning: no benchmark data for profile 2024 was found (looked in ")
            && stderr.contains(") and downloading it failed: cannot download ")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(
        stdout.contains("the last action whose output no other action uses"),
        "{stdout}"
    );
}

/// The README's test command, for its conformance binary, in a fresh clone with nothing beside
/// it: the data of both profiles comes from a local server standing in for GitHub, is
/// downloaded, verified and installed once, and every reference row passes. The server stays
/// up until this test ends, however long the copy's builds take.
#[test]
fn a_fresh_clone_downloads_the_data_and_passes_the_conformance_tests() {
    common::require_data!(Profile::R2024, Profile::R2023);
    let command = format!("{} --test conformance", common::readme_commands()[1]);
    assert!(command.starts_with("cargo test"), "{command}");
    let clone = common::FreshClone::new();
    let built = clone
        .command(&format!("{command} --no-run"))
        .output()
        .unwrap();
    let build_log = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{build_log}");
    // The clone's target directory came with every dependency compiled.
    let compiled: Vec<&str> = (build_log.lines())
        .filter(|l| l.trim_start().starts_with("Compiling "))
        .collect();
    assert!(
        compiled.iter().all(|l| l.contains("Compiling cookingbot ")),
        "{build_log}"
    );
    let (base_url, _server) = serve(
        [Profile::R2024, Profile::R2023]
            .map(|p| (route(p), Reply::Ok(tar_gz(p, &repository(p)))))
            .into(),
        2,
    );
    let out = clone
        .command(&command)
        .env("COOKINGBOT_FETCH_BASE_URL", &base_url)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{command}\n{stdout}\n{stderr}");
    // Every conformance test ran there (none returned early for lack of data).
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let tests: usize = std::fs::read_dir(&folder)
        .unwrap()
        .map(|file| {
            common::read(&file.unwrap().path())
                .matches("#[test]")
                .count()
        })
        .sum();
    assert!(
        stdout.contains(&format!("test result: ok. {tests} passed; 0 failed")),
        "{stdout}"
    );
    assert!(!stderr.contains("not run"), "{stderr}");
    let cookingbot = clone.data_home().join("cookingbot/benchmark");
    for profile in [Profile::R2024, Profile::R2023] {
        assert!(
            stderr.contains(&format!(
                "installed the verified benchmark data for profile {profile} in {}",
                cookingbot.join(profile.name()).display()
            )),
            "{stderr}"
        );
    }
}

/// A listed file swollen to 64 MiB of zeros (a few kilobytes compressed): refused at its size,
/// naming it, with nothing written; a swollen unlisted file is not installed at all.
#[test]
fn archive_bombs_are_refused_or_skipped_unwritten() {
    common::require_data!();
    let scratch = tempfile::tempdir().unwrap();
    let listed_size = std::fs::metadata(benchmark_dir().join(CORRUPTED))
        .unwrap()
        .len();
    let mut bomb = repository(Profile::R2024);
    bomb.iter_mut()
        .find(|(path, _)| path == Path::new(CORRUPTED))
        .expect("the file is in the repository")
        .1 = vec![0; 64 << 20];
    let tarball = scratch.path().join("bomb.tar.gz");
    std::fs::write(&tarball, tar_gz(Profile::R2024, &bomb)).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2024,
        &Source::Local(tarball.clone()),
    );
    assert_eq!(
        err.to_string(),
        format!(
            "{CORRUPTED} is larger than the benchmark's {listed_size} bytes in {}; not installed",
            tarball.display()
        )
    );

    let mut extra = repository(Profile::R2024);
    extra.push(("data/zeros.bin".into(), vec![0; 64 << 20]));
    let tarball = scratch.path().join("extra.tar.gz");
    std::fs::write(&tarball, tar_gz(Profile::R2024, &extra)).unwrap();
    let cache = Cache::new(data_dir.path());
    let installed = cache
        .fetch(Profile::R2024, &Source::Local(tarball), &mut |_| {})
        .expect("installed");
    assert!(!installed.join("data/zeros.bin").exists());
    assert!(!installed.join("README.md").exists());
}

/// A folder source whose listed file is a symbolic link: the link is not followed (the file
/// counts as missing), and installed files are 0644 whatever the source's mode.
#[test]
fn a_folder_source_never_follows_symlinks() {
    use std::os::unix::fs::PermissionsExt;
    common::require_data!();
    let folder = tempfile::tempdir().unwrap();
    for (path, bytes) in files_under(&benchmark_dir()) {
        let to = folder.path().join(&path);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(&to, bytes).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let data_dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(data_dir.path());
    let installed = cache
        .fetch(
            Profile::R2024,
            &Source::Local(folder.path().into()),
            &mut |_| {},
        )
        .expect("installed");
    let mode = std::fs::metadata(installed.join(CORRUPTED))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644);

    let linked = folder.path().join(CORRUPTED);
    std::fs::remove_file(&linked).unwrap();
    std::os::unix::fs::symlink(benchmark_dir().join(CORRUPTED), &linked).unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let err = refused(
        data_dir.path(),
        Profile::R2024,
        &Source::Local(folder.path().into()),
    );
    assert_eq!(err.to_string(), format!("{CORRUPTED} is missing"));
}
