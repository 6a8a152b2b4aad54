//! Colour in text output: `--color auto|always|never` (auto: colour when the stream is a
//! terminal, `NO_COLOR` unset and `CLICOLOR`/`TERM` allow it, as anstream decides), the severities
//! of findings and the verdict of a summary styled, and nothing styled otherwise (a pipe, a pager
//! without `-R`, a file get plain text; JSON, catalogs and the CI formats are never styled).

use std::sync::atomic::{AtomicBool, Ordering};

use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Style};

/// `--color`: when text output is coloured.
#[derive(Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum When {
    /// When the output is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always (even with `NO_COLOR`, into a pipe or a file).
    Always,
    /// Never.
    Never,
}

static STDOUT: AtomicBool = AtomicBool::new(false);
static STDERR: AtomicBool = AtomicBool::new(false);

/// Decide, once at start, whether standard output and standard error are coloured.
pub fn configure(when: When) {
    ColorChoice::write_global(match when {
        When::Auto => ColorChoice::Auto,
        When::Always => ColorChoice::Always,
        When::Never => ColorChoice::Never,
    });
    STDOUT.store(AutoStream::choice(&std::io::stdout()) != ColorChoice::Never, Ordering::Relaxed);
    STDERR.store(AutoStream::choice(&std::io::stderr()) != ColorChoice::Never, Ordering::Relaxed);
}

/// Whether what goes to standard output is coloured.
pub fn stdout() -> bool {
    STDOUT.load(Ordering::Relaxed)
}

/// Whether what goes to standard error is coloured.
pub fn stderr() -> bool {
    STDERR.load(Ordering::Relaxed)
}

/// The style of a severity's name.
fn severity_style(severity: &str) -> Option<Style> {
    let colour = match severity {
        "error" => AnsiColor::Red,
        "warning" => AnsiColor::Yellow,
        "note" => AnsiColor::Cyan,
        _ => return None,
    };
    Some(Style::new().bold().fg_color(Some(colour.into())))
}

/// `text` in `style` when `on`, else as it is.
pub fn paint(text: &str, style: Style, on: bool) -> String {
    if on {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// The verdict of a summary (`valid`, `invalid`): green or red when `on`.
pub fn verdict(text: &str, good: bool, on: bool) -> String {
    let colour = if good { AnsiColor::Green } else { AnsiColor::Red };
    paint(text, Style::new().bold().fg_color(Some(colour.into())), on)
}

/// The severity of one finding's line styled: `LOCATION: error[code]: …` and the related lines'
/// `LOCATION: note: …`, found as the first `: SEVERITY[` or `: note: ` of the line.
fn line(l: &str) -> String {
    let found = ["error", "warning", "note"].iter().find_map(|s| {
        let at = l.find(&format!(": {s}["))?;
        let code_end = l[at..].find("]: ")?;
        Some((at + 2, at + 2 + s.len(), at + code_end + 1, *s))
    });
    let found = found.or_else(|| l.find(": note: ").map(|at| (at + 2, at + 6, at + 6, "note")));
    let Some((start, end, code_end, severity)) = found else { return l.to_string() };
    let Some(style) = severity_style(severity) else { return l.to_string() };
    let bold = Style::new().bold();
    format!(
        "{}{}{}{}",
        paint(&l[..start], bold, true),
        paint(&l[start..end], style, true),
        paint(&l[end..code_end], bold, true),
        &l[code_end..]
    )
}

/// `text` (findings compiler style, one per line, with other lines between) with the severities
/// styled when `on`.
pub fn findings(text: &str, on: bool) -> String {
    if !on {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (i, l) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&line(l));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_line_has_its_location_severity_and_code_styled_and_its_message_plain() {
        let l = "c/p.yaml:3:1: error[bad-image]: an image: error[x] here";
        let styled = findings(l, true);
        assert_eq!(
            styled,
            "\u{1b}[1mc/p.yaml:3:1: \u{1b}[0m\u{1b}[1m\u{1b}[31merror\u{1b}[0m\u{1b}[1m[bad-image]\u{1b}[0m: an image: error[x] here"
        );
        assert_eq!(findings(l, false), l);
    }

    #[test]
    fn related_notes_and_warnings_take_their_colours_and_other_lines_stay_plain() {
        let text = "f:1:1: warning[w]: m\n  f:2:1: note: another head\nsummary: 1 warning\n";
        let styled = findings(text, true);
        let lines: Vec<&str> = styled.split('\n').collect();
        assert!(lines[0].contains("\u{1b}[33mwarning"), "{styled:?}");
        assert!(lines[1].contains("\u{1b}[36mnote"), "{styled:?}");
        assert_eq!(lines[2], "summary: 1 warning");
        assert_eq!(lines[3], "");
    }

    #[test]
    fn the_verdict_is_green_when_good_and_red_when_not() {
        assert_eq!(verdict("valid", true, true), "\u{1b}[1m\u{1b}[32mvalid\u{1b}[0m");
        assert_eq!(verdict("invalid", false, true), "\u{1b}[1m\u{1b}[31minvalid\u{1b}[0m");
        assert_eq!(verdict("invalid", false, false), "invalid");
    }
}
