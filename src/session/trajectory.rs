//! Trajectories: a session's calls logged as JSON lines, and run again. The first line is a
//! [`Header`] (the format, this program's version, the profile, the recipe, the benchmark and
//! kitchen with their checksums, and the generated variation when the task is one); each later
//! line is one [`Record`]: a call that changes the session, scores it or looks at it (`act`,
//! `undo`, `progress`, `finish`, `reset`, `look`, `hint`, `admissible`), with what the call
//! answered and the kitchen time after it. A record is written whole and flushed before the
//! call returns, so a crash leaves whole records.
//!
//! [`replay`] reads a log, opens the session its header names, makes every call again and
//! compares each record made with the one logged: a log either replays identically or names
//! its first difference (record, field, what the log holds and what the run gave). Every
//! front end logs through [`Session::log_into`] and replays through [`replay`].

use super::admissible::{Candidate, Query};
use super::hint::Hint;
use super::observation::{Observation, Score, View};
use super::progress::Progress;
use super::{Session, SessionError};
use crate::base::profile::Profile;
use crate::base::regular_file::{Refusal, open_regular};
use crate::benchmark::DataChoice;
use crate::evaluate::Evaluator;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// What the header's `trajectory` says.
pub const FORMAT: &str = "cookingbot-trajectory";

/// The version of the format this program writes and reads.
pub const VERSION: u64 = 1;

/// The most records a log holds: a hundred times a session's most lines, so an agent may undo
/// and act again at length; a log past it stops and says so.
pub const MAX_RECORDS: usize = 100_000;

/// The longest record read, in bytes: an observation of a large mixture with its dish trees is
/// tens of kilobytes.
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// The largest log read, in bytes.
pub const MAX_LOG_BYTES: u64 = 4 << 30;

/// Why a log cannot be written or replayed; every problem in a log's text names its file and
/// line (and column, where the JSON says one).
#[derive(Debug, thiserror::Error)]
pub enum TrajectoryError {
    #[error("{}: cannot write the trajectory log: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: the log holds {MAX_RECORDS} records, the most a trajectory log takes; later calls are not logged", path.display())]
    Full { path: PathBuf },
    #[error("{}: cannot read the trajectory log: {reason}", path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("{}:{line}: {message}", path.display())]
    Malformed {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// What the first line of a log says: which session the records were made in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// [`FORMAT`].
    pub trajectory: String,
    /// [`VERSION`].
    pub version: u64,
    /// The version of cookingbot that wrote the log.
    pub cookingbot: String,
    pub profile: String,
    pub recipe: String,
    /// `demo`, or the benchmark's folder (absolute).
    pub benchmark: String,
    /// The benchmark's status (`official`, `modified`, `demo`, `user`) and the SHA-256 of its
    /// gold files, as a run's signature says them.
    pub status: String,
    pub gold_sha256: String,
    /// The kitchen file the session started from (absolute), none for the built-in kitchen.
    pub kitchen: Option<PathBuf>,
    pub kitchen_sha256: String,
    /// Lines the session held when the log began, given again before the first record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// The generated variation the session's task is (`service::variation`), none for the
    /// official task: a replay makes it again from the data and this number.
    #[serde(default, skip_serializing_if = "is_official")]
    pub variation: u64,
}

fn is_official(variation: &u64) -> bool {
    *variation == 0
}

/// The calls a log records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Call {
    /// A line given ([`Session::act`], [`Session::attempt`]).
    Act,
    /// The last line taken back.
    Undo,
    /// How far the network is.
    Progress,
    /// The network scored.
    Finish,
    /// The session started again, empty.
    Reset,
    /// A variable or place looked at.
    Look,
    /// The gold's next action asked for.
    Hint,
    /// The lines that run now asked for.
    Admissible,
}

/// One call and what it answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub call: Call,
    /// `act`: the line given; `undo`: the line taken back (none when there was none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// `act`: the outcome and the observation's JSON (`rejected` for a line not taken).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation: Option<Value>,
    /// `progress`: the progress's JSON, or why there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<Value>,
    /// `finish`: [`score_json`] of the score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Value>,
    /// `look`: the name looked at, and the view's JSON or why there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<Value>,
    /// `hint`: the hint's JSON (null when the network matches the whole gold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<Value>,
    /// `admissible`: the query (`limit`, `primitive`, `using`) and the lines offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admissible: Option<Value>,
    /// The kitchen time after the call, in seconds.
    pub time: Value,
}

impl Record {
    fn of(call: Call, session: &Session) -> Record {
        Record {
            call,
            line: None,
            outcome: None,
            observation: None,
            progress: None,
            score: None,
            name: None,
            view: None,
            hint: None,
            query: None,
            admissible: None,
            time: session.time(),
        }
    }

    fn act(session: &Session, line: &str, seen: &Observation) -> Record {
        let observation = seen.json();
        Record {
            line: Some(line.to_string()),
            outcome: observation.get("outcome").cloned(),
            observation: Some(observation),
            ..Record::of(Call::Act, session)
        }
    }

    fn undo(session: &Session, undone: Option<&str>) -> Record {
        Record {
            line: undone.map(str::to_string),
            ..Record::of(Call::Undo, session)
        }
    }

    fn progress(session: &Session, progress: &Result<Progress, SessionError>) -> Record {
        let value = match progress {
            Ok(progress) => crate::report::json::value(progress),
            Err(e) => json!({ "error": e.to_string() }),
        };
        Record {
            progress: Some(value),
            ..Record::of(Call::Progress, session)
        }
    }

    fn finish(session: &Session, score: &Score) -> Record {
        Record {
            score: Some(score_json(score)),
            ..Record::of(Call::Finish, session)
        }
    }

    fn look(session: &Session, name: &str, view: &Result<View, SessionError>) -> Record {
        let value = match view {
            Ok(view) => crate::report::json::value(view),
            Err(e) => json!({ "error": e.to_string() }),
        };
        Record {
            name: Some(name.to_string()),
            view: Some(value),
            ..Record::of(Call::Look, session)
        }
    }

    fn hint(session: &Session, hint: &Option<Hint>) -> Record {
        Record {
            hint: Some(crate::report::json::value(hint)),
            ..Record::of(Call::Hint, session)
        }
    }

    fn admissible(session: &Session, query: &Query, offered: &[Candidate]) -> Record {
        let query = json!({
            "limit": query.limit,
            "primitive": query.primitive,
            "using": query.using,
        });
        Record {
            query: Some(query),
            admissible: Some(crate::report::json::value(&offered)),
            ..Record::of(Call::Admissible, session)
        }
    }
}

/// The query an `admissible` record logs, read back.
fn logged_query(record: &Record) -> Result<Query, String> {
    let query = record
        .query
        .as_ref()
        .ok_or("an `admissible` record needs its `query`")?;
    let text = |field: &str| query.get(field).and_then(Value::as_str).map(str::to_string);
    let limit = query.get("limit").and_then(Value::as_u64);
    let limit = limit.ok_or("an `admissible` record's `query` needs its `limit`, a count")?;
    Ok(Query {
        limit: usize::try_from(limit).unwrap_or(usize::MAX),
        primitive: text("primitive"),
        using: text("using"),
    })
}

/// A score as the front ends hand it on: the reference's CSV, the evaluation's unit as
/// `evaluate --format json` writes it, and why there is no dish.
pub fn score_json(score: &Score) -> Value {
    json!({ "csv": score.csv, "unit": score.json, "why_no_dish": score.why_no_dish })
}

/// A log file being written.
pub struct Log {
    out: File,
    path: PathBuf,
    records: usize,
    /// The first write that failed: nothing more is written after it.
    failed: Option<TrajectoryError>,
    /// The failure not yet told to the front end.
    untold: bool,
}

impl Log {
    /// A new log at `path` (a file there is replaced); nothing is written until
    /// [`Session::log_into`] writes its header.
    pub fn create(path: &Path) -> Result<Log, TrajectoryError> {
        Log::open(
            path,
            OpenOptions::new().write(true).create(true).truncate(true),
        )
    }

    /// A new log at `path` where no file is yet: what a remote client may ask for, so that it
    /// can replace no file of the server's machine.
    pub fn create_new(path: &Path) -> Result<Log, TrajectoryError> {
        Log::open(path, OpenOptions::new().write(true).create_new(true))
    }

    fn open(path: &Path, options: &OpenOptions) -> Result<Log, TrajectoryError> {
        let path = absolute(path);
        let out = options
            .open(&path)
            .map_err(|source| TrajectoryError::Write {
                path: path.clone(),
                source,
            })?;
        Ok(Log {
            out,
            path,
            records: 0,
            failed: None,
            untold: false,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Write one JSON line whole, flushed; past [`MAX_RECORDS`] or after a failed write,
    /// nothing.
    fn write(&mut self, value: &impl Serialize) {
        if self.failed.is_some() {
            return;
        }
        if self.records > MAX_RECORDS {
            self.fail(TrajectoryError::Full {
                path: self.path.clone(),
            });
            return;
        }
        let mut text = serde_json::to_string(value).unwrap_or_default();
        text.push('\n');
        let written = self.out.write_all(text.as_bytes());
        match written.and_then(|()| self.out.flush()) {
            Ok(()) => self.records += 1,
            Err(source) => self.fail(TrajectoryError::Write {
                path: self.path.clone(),
                source,
            }),
        }
    }

    fn fail(&mut self, error: TrajectoryError) {
        self.failed = Some(error);
        self.untold = true;
    }
}

/// Where a session writes its trajectory, if anywhere. A clone of a session (a fork) starts
/// with none: two sessions never write one log.
#[derive(Default)]
pub struct LogSlot(Mutex<Option<Log>>);

impl Clone for LogSlot {
    fn clone(&self) -> LogSlot {
        LogSlot::default()
    }
}

impl Session {
    /// Log this session's calls into `log` from now on: its header first (`kitchen`, the
    /// kitchen file the session's model was made with, for the header to name it again).
    pub fn log_into(&mut self, log: Log, kitchen: Option<&Path>) {
        self.log_variation_into(log, kitchen, 0);
    }

    /// [`Session::log_into`] for a session on generated variation `variation` of its recipe
    /// (its evaluator the variation's): the header names the variation, for a replay to make
    /// it again.
    pub fn log_variation_into(&mut self, mut log: Log, kitchen: Option<&Path>, variation: u64) {
        let model = self.model();
        let benchmark = &self.evaluator.benchmark;
        let benchmark_name = match DataChoice::from(&benchmark.source) {
            DataChoice::Demo => crate::benchmark::DEMO.to_string(),
            DataChoice::Folder(dir) => absolute(&dir).display().to_string(),
        };
        let header = Header {
            trajectory: FORMAT.into(),
            version: VERSION,
            cookingbot: env!("CARGO_PKG_VERSION").into(),
            profile: model.profile.name().into(),
            recipe: self.recipe.clone(),
            benchmark: benchmark_name,
            status: benchmark.fingerprint.status.name().into(),
            gold_sha256: benchmark.fingerprint.sha256.clone(),
            kitchen: kitchen.map(absolute),
            kitchen_sha256: model.kitchen_sha256.clone(),
            lines: self.lines_given(),
            variation,
        };
        log.write(&header);
        *self.log.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(log);
    }

    /// The lines given so far that the network holds, in order: the header when the agent
    /// gave one, then every line. A new session given them is this one again.
    pub fn lines_given(&self) -> Vec<String> {
        let given = (self.header != format!("#{}", self.recipe)).then(|| self.header.clone());
        given
            .into_iter()
            .chain(self.lines.iter().map(|l| l.text.clone()))
            .collect()
    }

    /// The log's first failure (a write refused, the log full), once: the front end says it.
    pub fn log_failure(&self) -> Option<String> {
        let mut slot = self.log.0.lock().unwrap_or_else(PoisonError::into_inner);
        let log = slot.as_mut().filter(|l| l.untold)?;
        log.untold = false;
        log.failed.as_ref().map(ToString::to_string)
    }

    /// Start again with an empty network, logging on where this session logged.
    pub fn reset(&mut self) -> Result<(), SessionError> {
        let fresh = Session::with_evaluator(self.evaluator.clone(), &self.recipe)?;
        let log = std::mem::take(&mut self.log);
        *self = Session { log, ..fresh };
        self.record(|s| Record::of(Call::Reset, s));
        Ok(())
    }

    /// Write the record `make` makes, when the session logs.
    fn record(&self, make: impl FnOnce(&Session) -> Record) {
        let mut slot = self.log.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(log) = slot.as_mut() {
            log.write(&make(self));
        }
    }

    pub(super) fn record_act(&self, line: &str, result: &Result<Observation, SessionError>) {
        self.record(|s| match result {
            Ok(seen) => Record::act(s, line, seen),
            Err(e) => Record::act(s, line, &s.rejected(e)),
        });
    }

    pub(super) fn record_undo(&self, undone: Option<&str>) {
        self.record(|s| Record::undo(s, undone));
    }

    pub(super) fn record_progress(&self, progress: &Result<Progress, SessionError>) {
        self.record(|s| Record::progress(s, progress));
    }

    pub(super) fn record_finish(&self, score: &Score) {
        self.record(|s| Record::finish(s, score));
    }

    pub(super) fn record_look(&self, name: &str, view: &Result<View, SessionError>) {
        self.record(|s| Record::look(s, name, view));
    }

    pub(super) fn record_hint(&self, hint: &Option<Hint>) {
        self.record(|s| Record::hint(s, hint));
    }

    pub(super) fn record_admissible(&self, query: &Query, offered: &[Candidate]) {
        self.record(|s| Record::admissible(s, query, offered));
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What a replay found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    /// Whether every record made again is the record logged.
    pub identical: bool,
    /// How many records were compared (the header not counted).
    pub records: usize,
    /// The first record that differs.
    pub difference: Option<Difference>,
}

impl Replay {
    /// What the replay found, in a line: how many records were the same, or the first
    /// difference located in the log at `path`.
    pub fn words(&self, path: &Path) -> String {
        match &self.difference {
            None => format!(
                "identical: {} record(s) of {} replayed, each as logged",
                self.records,
                path.display()
            ),
            Some(d) => format!(
                "different at record {} ({}:{}), {}: the log holds {}, the replay gave {}",
                d.record,
                path.display(),
                d.line,
                d.field,
                d.expected,
                d.got
            ),
        }
    }
}

/// The first place a replay differs from its log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// The record (1 the first after the header; 0 the header itself).
    pub record: usize,
    /// Its line in the log.
    pub line: usize,
    /// Where in the record, as a path (`observation.objects[0].words`).
    pub field: String,
    /// What the log holds there (null where it holds nothing).
    pub expected: Value,
    /// What the replay gave there.
    pub got: Value,
}

/// The data and task a log's header names, from which the caller opens the evaluator (offline,
/// as every command locates its data, and the generated variation made: the service's
/// `replay`), since where data is found and how a variation is made are the service's to say.
#[derive(Clone, Debug)]
pub struct LogData {
    pub profile: Profile,
    pub benchmark: DataChoice,
    pub kitchen: Option<PathBuf>,
    pub recipe: String,
    /// The generated variation of the recipe the session ran, 0 for the official task.
    pub variation: u64,
}

/// Run the log at `path` again from its header, on the evaluator `open` gives for the header's
/// data, and compare every record.
pub fn replay<E: std::fmt::Display>(
    path: &Path,
    open: impl FnOnce(LogData) -> Result<Arc<Evaluator>, E>,
) -> Result<Replay, TrajectoryError> {
    let (mut reader, header) = open_log(path)?;
    let (mut session, mismatch) = open_session(&reader, &header, open)?;
    if let Some(difference) = mismatch {
        return Ok(different(0, difference));
    }
    let mut records = 0;
    while let Some((number, text)) = reader.next_line()? {
        let record: Record = parse(&reader, number, &text)?;
        let logged: Value = parse(&reader, number, &text)?;
        let made = perform(&mut session, &record).map_err(|m| reader.malformed(number, m))?;
        records += 1;
        let made = serde_json::to_string(&made).unwrap_or_default();
        let made: Value = serde_json::from_str(&made).unwrap_or_default();
        if let Some((field, expected, got)) = first_difference(&logged, &made, String::new()) {
            let difference = Difference {
                record: records,
                line: number,
                field,
                expected,
                got,
            };
            return Ok(Replay {
                identical: false,
                records,
                difference: Some(difference),
            });
        }
    }
    Ok(Replay {
        identical: true,
        records,
        difference: None,
    })
}

/// The log at `path` read whole, its header and records, each checked as a replay checks it
/// (without running them).
pub fn read(path: &Path) -> Result<(Header, Vec<Record>), TrajectoryError> {
    let (mut reader, header) = open_log(path)?;
    let mut records = Vec::new();
    while let Some((number, text)) = reader.next_line()? {
        records.push(parse(&reader, number, &text)?);
    }
    Ok((header, records))
}

fn different(records: usize, difference: Difference) -> Replay {
    Replay {
        identical: false,
        records,
        difference: Some(difference),
    }
}

/// The log at `path` opened, its header read.
fn open_log(path: &Path) -> Result<(LogReader, Header), TrajectoryError> {
    let mut reader = LogReader::open(path)?;
    let Some((number, text)) = reader.next_line()? else {
        return Err(reader.malformed(1, "an empty log: its first line is the header".into()));
    };
    let header = read_header(&reader, number, &text)?;
    Ok((reader, header))
}

fn read_header(reader: &LogReader, number: usize, text: &str) -> Result<Header, TrajectoryError> {
    let value: Value = parse(reader, number, text)?;
    if value.get("trajectory") != Some(&json!(FORMAT)) {
        let message =
            format!("not a trajectory log: the header has no \"trajectory\": \"{FORMAT}\"");
        return Err(reader.malformed(number, message));
    }
    if let Some(version) = value.get("version").filter(|v| **v != json!(VERSION)) {
        let message = format!(
            "a trajectory log of version {version}; this cookingbot ({}) reads version {VERSION}",
            env!("CARGO_PKG_VERSION")
        );
        return Err(reader.malformed(number, message));
    }
    parse(reader, number, text)
}

/// The session the header names, given the lines it held when the log began, and the first
/// difference between the header and the data found now (the gold files or the kitchen
/// changed since).
fn open_session<E: std::fmt::Display>(
    reader: &LogReader,
    header: &Header,
    open: impl FnOnce(LogData) -> Result<Arc<Evaluator>, E>,
) -> Result<(Session, Option<Difference>), TrajectoryError> {
    let at = |message: String| reader.malformed(1, message);
    let profile: Profile = header.profile.parse().map_err(at)?;
    let data = LogData {
        profile,
        benchmark: DataChoice::from(std::ffi::OsString::from(&header.benchmark)),
        kitchen: header.kitchen.clone(),
        recipe: header.recipe.clone(),
        variation: header.variation,
    };
    let evaluator = open(data).map_err(|e| at(e.to_string()))?;
    let mut session =
        Session::with_evaluator(evaluator, &header.recipe).map_err(|e| at(e.to_string()))?;
    let now = {
        let benchmark = &session.evaluator.benchmark;
        json!({
            "status": benchmark.fingerprint.status.name(),
            "gold_sha256": benchmark.fingerprint.sha256,
            "kitchen_sha256": session.model().kitchen_sha256,
        })
    };
    let logged = json!({
        "status": header.status,
        "gold_sha256": header.gold_sha256,
        "kitchen_sha256": header.kitchen_sha256,
    });
    let mismatch = first_difference(&logged, &now, String::new());
    let mismatch = mismatch.map(|(field, expected, got)| Difference {
        record: 0,
        line: 1,
        field,
        expected,
        got,
    });
    for line in &header.lines {
        session.attempt(line);
    }
    Ok((session, mismatch))
}

/// Make the call `record` logs on `session`: the record it makes now.
fn perform(session: &mut Session, record: &Record) -> Result<Record, String> {
    Ok(match record.call {
        Call::Act => {
            let line = record
                .line
                .as_deref()
                .ok_or("an `act` record needs its `line`")?;
            let seen = session.attempt(line);
            Record::act(session, line, &seen)
        }
        Call::Undo => {
            let undone = session.undo().ok();
            Record::undo(session, undone.as_deref())
        }
        Call::Progress => {
            let progress = session.progress();
            Record::progress(session, &progress)
        }
        Call::Finish => {
            let score = session.finish();
            Record::finish(session, &score)
        }
        Call::Reset => {
            session.reset().map_err(|e| e.to_string())?;
            Record::of(Call::Reset, session)
        }
        Call::Look => {
            let name = record
                .name
                .as_deref()
                .ok_or("a `look` record needs its `name`")?;
            Record::look(session, name, &session.look(name))
        }
        Call::Hint => Record::hint(session, &session.hint()),
        Call::Admissible => {
            let query = logged_query(record)?;
            Record::admissible(session, &query, &session.admissible(&query))
        }
    })
}

/// The first place (in a walk of `expected`'s fields, then `got`'s fields it lacks) where two
/// values differ: its path, and each value there (null where one has none).
fn first_difference(expected: &Value, got: &Value, at: String) -> Option<(String, Value, Value)> {
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            let mut keys = e.keys().chain(g.keys().filter(|k| !e.contains_key(*k)));
            keys.find_map(|k| {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                let (e, g) = (e.get(k), g.get(k));
                match (e, g) {
                    (Some(e), Some(g)) => first_difference(e, g, path),
                    _ => Some((
                        path,
                        e.cloned().unwrap_or_default(),
                        g.cloned().unwrap_or_default(),
                    )),
                }
            })
        }
        (Value::Array(e), Value::Array(g)) if e.len() == g.len() => (e.iter().zip(g))
            .enumerate()
            .find_map(|(i, (e, g))| first_difference(e, g, format!("{at}[{i}]"))),
        _ => (expected != got).then(|| (at, expected.clone(), got.clone())),
    }
}

/// A record's text read as `T`, or where and why it cannot be.
fn parse<T: for<'de> Deserialize<'de>>(
    reader: &LogReader,
    number: usize,
    text: &str,
) -> Result<T, TrajectoryError> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&place).unwrap_or(&message).to_string();
        TrajectoryError::Malformed {
            path: reader.path.clone(),
            line: number,
            message: format!("column {}: {message}", e.column()),
        }
    })
}

/// A log read a line at a time, each no longer than [`MAX_RECORD_BYTES`].
struct LogReader {
    path: PathBuf,
    lines: BufReader<std::io::Take<File>>,
    number: usize,
}

impl LogReader {
    fn open(path: &Path) -> Result<LogReader, TrajectoryError> {
        let unreadable = |reason: String| TrajectoryError::Unreadable {
            path: path.to_path_buf(),
            reason,
        };
        let (file, _) = open_regular(path, MAX_LOG_BYTES).map_err(|r| match r {
            Refusal::Unreadable(e) => unreadable(e.to_string()),
            Refusal::NotRegular(kind) => unreadable(format!("{kind}, not a regular file")),
            Refusal::TooLarge(size) => unreadable(format!(
                "{size} bytes; logs of at most {MAX_LOG_BYTES} bytes are read"
            )),
        })?;
        Ok(LogReader {
            path: path.to_path_buf(),
            lines: BufReader::new(file.take(MAX_LOG_BYTES)),
            number: 0,
        })
    }

    fn malformed(&self, line: usize, message: String) -> TrajectoryError {
        TrajectoryError::Malformed {
            path: self.path.clone(),
            line,
            message,
        }
    }

    /// The next line, numbered from 1, without its line feed; none at the end. A blank line,
    /// a line over the bound or one that is not UTF-8 is malformed.
    fn next_line(&mut self) -> Result<Option<(usize, String)>, TrajectoryError> {
        self.number += 1;
        let mut bytes = Vec::new();
        let limit = MAX_RECORD_BYTES as u64 + 1;
        let read = self
            .lines
            .by_ref()
            .take(limit)
            .read_until(b'\n', &mut bytes);
        let read = read.map_err(|e| self.malformed(self.number, format!("cannot read: {e}")))?;
        if read == 0 {
            return Ok(None);
        }
        let ended = bytes.last() == Some(&b'\n');
        if ended {
            bytes.pop();
        }
        if bytes.len() > MAX_RECORD_BYTES {
            let message = format!("a record over {MAX_RECORD_BYTES} bytes, the longest read");
            return Err(self.malformed(self.number, message));
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| self.malformed(self.number, "not UTF-8 text".into()))?;
        if text.trim().is_empty() {
            let message = "a blank line: every line of a log is one JSON record".into();
            return Err(self.malformed(self.number, message));
        }
        Ok(Some((self.number, text)))
    }
}
