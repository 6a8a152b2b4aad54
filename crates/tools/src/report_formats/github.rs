//! GitHub Actions workflow commands, one line per finding: `::error`, `::warning` or `::notice`
//! (for notes) with `file`, `line`, `col` (when the finding has a place) and `title` (the code),
//! then `::` and the message with its related places on following lines. Escaped as GitHub's
//! toolkit does: `%`, `\r`, `\n` everywhere, and `:` and `,` in property values too.

use std::fmt::Write as _;

use crate::diagnostic::{Diagnostic, Severity};

/// A message (the command's data).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property value (`file=…`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn command(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    }
}

fn line(d: &Diagnostic) -> String {
    let mut props = vec![format!("file={}", escape_property(&d.location.file))];
    if d.location.line > 0 {
        props.push(format!("line={}", d.location.line));
        props.push(format!("col={}", d.location.column));
    }
    props.push(format!("title={}", escape_property(d.code.as_str())));
    let mut message = d.message.clone();
    for r in &d.related {
        let _ = write!(message, "\n  {}: note: {}", r.location, r.message);
    }
    format!("::{} {}::{}", command(d.severity), props.join(","), escape_data(&message))
}

/// One workflow command per finding, each ending with a newline.
pub fn to_github(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| line(d) + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report_formats::testing::sample;

    #[test]
    fn one_command_per_finding_with_place_and_code() {
        let out = to_github(&sample());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        let code = sample()[0].code;
        assert_eq!(
            lines[0],
            format!(
                "::error file=a/c.yaml,line=3,col=5,title={code}::bad, really: 100%25%0Asecond <line> & \"quoted\"%0A  a/b.yaml:1:1: note: first defined here"
            )
        );
        assert!(lines[1].starts_with("::warning file=a/c.yaml,line=9,col=2,title="));
    }

    #[test]
    fn notes_are_notices_and_properties_escape_colons_and_commas() {
        let out = to_github(&sample());
        let last = out.lines().last().unwrap();
        assert!(last.starts_with("::notice file=x%2Cy%3Az.json,title="), "{last}");
        assert!(last.ends_with("::whole file"));
    }
}
