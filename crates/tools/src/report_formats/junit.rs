//! JUnit XML for pipelines that show test reports: one `testsuite`, one `testcase` per finding
//! (classname the file, name `code at place`), a `failure` for each error; warnings and notes pass
//! with their text in `system-out`. No findings: one passing testcase, so the run still shows.
//! Text is escaped for XML, and characters XML 1.0 cannot carry are dropped.

use std::fmt::Write as _;

use crate::diagnostic::{Diagnostic, Severity};

/// `s` as XML character data or an attribute value.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

fn testcase(d: &Diagnostic, out: &mut String) {
    let name = format!("{} at {}", d.code, d.location);
    let _ = write!(out, "    <testcase classname=\"{}\" name=\"{}\">", escape(&d.location.file), escape(&name));
    let text = escape(&d.to_string());
    if d.severity == Severity::Error {
        let _ = write!(
            out,
            "\n      <failure type=\"{}\" message=\"{}\">{text}</failure>\n    ",
            d.code,
            escape(&d.message)
        );
    } else {
        let _ = write!(out, "\n      <system-out>{text}</system-out>\n    ");
    }
    out.push_str("</testcase>\n");
}

/// The JUnit report of `diagnostics`, the suite named `suite`.
pub fn to_junit(suite: &str, diagnostics: &[Diagnostic]) -> String {
    let failures = diagnostics.iter().filter(|d| d.is_error()).count();
    let tests = diagnostics.len().max(1);
    let suite = escape(suite);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"{suite}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">");
    let _ = writeln!(
        out,
        "  <testsuite name=\"{suite}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">"
    );
    for d in diagnostics {
        testcase(d, &mut out);
    }
    if diagnostics.is_empty() {
        let _ = writeln!(out, "    <testcase classname=\"{suite}\" name=\"no findings\"/>");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report_formats::testing::sample;

    #[test]
    fn a_testcase_per_finding_and_a_failure_per_error() {
        let out = to_junit("olm-catalog validate", &sample());
        assert_eq!(out.matches("<testcase ").count(), 3);
        assert_eq!(out.matches("<failure ").count(), 1);
        assert!(out.contains("<testsuite name=\"olm-catalog validate\" tests=\"3\" failures=\"1\""));
    }

    #[test]
    fn text_is_escaped() {
        let out = to_junit("s", &sample());
        assert!(out.contains("second &lt;line&gt; &amp; &quot;quoted&quot;"));
        assert!(!out.contains("<line>"));
        assert_eq!(escape("a\u{1}b\tc"), "ab&#9;c");
    }

    #[test]
    fn no_findings_is_one_passing_testcase() {
        let out = to_junit("s", &[]);
        assert!(out.contains("tests=\"1\" failures=\"0\""));
        assert_eq!(out.matches("<testcase ").count(), 1);
    }
}
