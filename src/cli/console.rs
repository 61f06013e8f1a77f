//! What the commands print to a person: the leading word of each line coloured where colour is
//! on (`--color`, `NO_COLOR`, a terminal), and notes left out with `--quiet`. Commands write
//! plain text; the two standard streams are wrapped here once.

use anstream::stream::{AsLockedWrite, RawStream};
use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Style};
use std::io::{self, Write};

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    Always,
    Never,
}

impl From<ColorWhen> for ColorChoice {
    fn from(when: ColorWhen) -> ColorChoice {
        match when {
            ColorWhen::Auto => ColorChoice::Auto,
            ColorWhen::Always => ColorChoice::Always,
            ColorWhen::Never => ColorChoice::Never,
        }
    }
}

/// The words a line may start with, and their colour: the severity of a diagnostic (with its
/// code, as in `error[E0201]:`) and the header of a recipe's summary.
const LEADERS: [(&str, Style); 5] = [
    ("error", AnsiColor::Red.on_default().bold()),
    ("warning", AnsiColor::Yellow.on_default().bold()),
    ("note", AnsiColor::Cyan.on_default().bold()),
    ("help", AnsiColor::Cyan.on_default().bold()),
    ("RECIPE", Style::new().bold()),
];

/// A standard stream that colours each line's leading word and, when quiet, drops notes.
/// Lines are passed on whole (a line is held until its newline or a flush).
pub struct Console<S: RawStream + AsLockedWrite> {
    stream: AutoStream<S>,
    quiet: bool,
    line: Vec<u8>,
}

impl<S: RawStream + AsLockedWrite> Console<S> {
    pub fn new(raw: S, color: ColorWhen, quiet: bool) -> Console<S> {
        Console {
            stream: AutoStream::new(raw, color.into()),
            quiet,
            line: Vec::new(),
        }
    }

    fn emit_line(&mut self) -> io::Result<()> {
        let line = std::mem::take(&mut self.line);
        let text = String::from_utf8_lossy(&line);
        if self.quiet && (text.starts_with("note:") || text.starts_with("signature:")) {
            return Ok(());
        }
        match leader(&text) {
            Some((end, style)) => write!(
                self.stream,
                "{style}{}{style:#}{}",
                &text[..end],
                &text[end..]
            ),
            None => self.stream.write_all(&line),
        }
    }
}

/// Where the line's leading word ends (with its `[CODE]` and colon) and its style.
fn leader(line: &str) -> Option<(usize, Style)> {
    LEADERS.iter().find_map(|&(word, style)| {
        let rest = line.strip_prefix(word)?;
        let code = if rest.starts_with('[') {
            rest.find(']')? + 1
        } else {
            0
        };
        rest[code..]
            .starts_with(':')
            .then_some((word.len() + code + 1, style))
    })
}

impl<S: RawStream + AsLockedWrite> Write for Console<S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for piece in buf.split_inclusive(|&b| b == b'\n') {
            self.line.extend_from_slice(piece);
            if piece.ends_with(b"\n") {
                self.emit_line()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            self.emit_line()?;
        }
        self.stream.flush()
    }
}

impl<S: RawStream + AsLockedWrite> Drop for Console<S> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(color: ColorWhen, quiet: bool, text: &str) -> String {
        let mut out = Vec::new();
        {
            let mut console = Console::new(&mut out, color, quiet);
            console.write_all(text.as_bytes()).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn leading_words_are_coloured_only_when_colour_is_on() {
        let text = "error[E0201]: unknown recipe\nwarning: a.csv is not a .json file\n  --> x\n";
        let coloured = shown(ColorWhen::Always, false, text);
        assert!(coloured.starts_with("\x1b[1m\x1b[31merror[E0201]:\x1b[0m unknown recipe\n"));
        assert!(coloured.contains("\x1b[33mwarning:\x1b[0m"));
        assert!(coloured.ends_with("  --> x\n"));
        assert_eq!(shown(ColorWhen::Never, false, text), text);
    }

    #[test]
    fn quiet_drops_notes_and_signatures_and_keeps_the_rest() {
        let text = "note: hill-climbing fell short\nsignature: x\nerror: refused\npartial";
        assert_eq!(
            shown(ColorWhen::Never, true, text),
            "error: refused\npartial"
        );
    }

    #[test]
    fn a_word_that_only_starts_like_a_leader_is_left_alone() {
        assert_eq!(leader("errors: 3"), None);
        assert_eq!(leader("error[E0201 unclosed"), None);
        assert_eq!(leader("RECIPE: x").map(|(end, _)| end), Some(7));
    }
}
