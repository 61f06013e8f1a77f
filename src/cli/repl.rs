//! `play` at a terminal: lines read with rustyline (editing, history, Tab completion from the
//! service's [`Completion`]). Only the terminal's side is here; what a line does is
//! `service::play`'s.

use crate::service::outcome::AppError;
use crate::service::play::{Completion, Input, LineSource};
use rustyline::completion::Completer;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use std::io;

/// Completes with the words of the prompt it was last given.
struct Words(Option<Completion>);

impl Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(self
            .0
            .as_ref()
            .map_or((pos, Vec::new()), |words| words.complete(line, pos)))
    }
}

impl Hinter for Words {
    type Hint = String;
}

impl Highlighter for Words {}

impl Validator for Words {}

impl Helper for Words {}

/// The line editor, with the session's history.
pub(super) struct Editor(rustyline::Editor<Words, DefaultHistory>);

impl Editor {
    pub(super) fn new() -> Result<Editor, AppError> {
        // Tab completes the common part, a second Tab lists the words, as shells do.
        let config = Config::builder()
            .completion_type(CompletionType::List)
            .build();
        let mut editor = rustyline::Editor::with_config(config)
            .map_err(|e| AppError::Failed(format!("cannot edit lines at this terminal: {e}")))?;
        editor.set_helper(Some(Words(None)));
        Ok(Editor(editor))
    }
}

impl LineSource for Editor {
    fn read(&mut self, prompt: &str, words: &Completion) -> io::Result<Input> {
        if let Some(helper) = self.0.helper_mut() {
            helper.0 = Some(words.clone());
        }
        loop {
            match self.0.readline(prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = self.0.add_history_entry(line.as_str());
                    }
                    return Ok(Input::Line(line));
                }
                // Ctrl-C drops the line being typed, as shells do.
                Err(ReadlineError::Interrupted) => continue,
                Err(ReadlineError::Eof) => return Ok(Input::End),
                Err(ReadlineError::Io(e)) => return Err(e),
                Err(e) => return Err(io::Error::other(e.to_string())),
            }
        }
    }
}
