//! One catalog file with the byte ranges of its nodes, and the edits on them that keep every
//! other byte: replace a scalar (keeping its quoting), set or remove a member, append or remove
//! a sequence item, append or remove a whole blob. Block YAML is edited by whole lines, at the
//! indentation of the neighbours; JSON and flow YAML by the commas between members.

use crate::declcfg::{spans, Pos, Quoting, Span, SpanKind, SpanMember};

use super::emit::{self, Out, Style};
use super::text::TextEdit;
use super::EditError;

/// A file's text and shape.
pub struct Doc {
    /// The path.
    pub file: String,
    /// The text.
    pub text: String,
    /// The root values.
    pub roots: Vec<Span>,
    /// How it writes new values.
    pub style: Style,
    /// In a basic template, the `entries` member whose items are the blobs (`roots` are then
    /// those items): new blobs are appended to it, removed blobs taken out of it.
    pub container: Option<SpanMember>,
}

impl Doc {
    /// Read `text`'s shape.
    pub fn new(file: &str, text: String) -> Result<Doc, EditError> {
        let f = spans(&text).map_err(|e| EditError::Unreadable {
            file: file.to_string(),
            line: e.line,
            reason: e.message,
        })?;
        let style = detect_style(&text, f.json, &f.roots);
        Ok(Doc { file: file.to_string(), text, roots: f.roots, style, container: None })
    }

    /// Read a basic template (`olm.template.basic`): its blobs are the items of the first
    /// document's `entries`.
    pub fn basic_template(file: &str, text: String) -> Result<Doc, EditError> {
        let mut doc = Doc::new(file, text)?;
        let unreadable = |reason: &str| EditError::Unreadable { file: file.into(), line: 1, reason: reason.into() };
        let first = doc.roots.first().ok_or_else(|| unreadable("the template is empty"))?;
        let entries = first
            .members()
            .iter()
            .rev()
            .find(|m| m.key.eq_ignore_ascii_case("entries"))
            .filter(|m| matches!(m.value.kind, SpanKind::Seq(_)))
            .ok_or_else(|| unreadable("the template has no entries list"))?
            .clone();
        doc.roots = entries.value.items().to_vec();
        doc.style = detect_style(&doc.text, doc.style.json, &doc.roots);
        doc.container = Some(entries);
        Ok(doc)
    }

    /// The root written at `pos` (a blob's source position).
    pub fn root_at(&self, pos: Pos) -> Result<&Span, EditError> {
        let at = |s: &Span| s.line == pos.line && s.column == pos.column;
        // A template's bundle is located at the `image` its entry names.
        let names_image = |r: &Span| self.container.is_some() && r.member("image").is_some_and(|m| at(&m.value));
        let found = self.roots.iter().find(|r| at(r)).or_else(|| self.roots.iter().find(|r| names_image(r)));
        found.ok_or_else(|| EditError::Unreadable {
            file: self.file.clone(),
            line: pos.line,
            reason: "no blob starts here".into(),
        })
    }

    fn edit(&self, start: usize, end: usize, new_text: impl Into<String>) -> TextEdit {
        TextEdit::new(&self.file, &self.text, start, end, new_text)
    }

    /// 0-based column of byte `at`.
    fn column(&self, at: usize) -> usize {
        let line_start = self.line_start(at);
        self.text[line_start..at].chars().count()
    }

    fn line_start(&self, at: usize) -> usize {
        self.text[..at].rfind('\n').map_or(0, |i| i + 1)
    }

    /// Just past the line break of the line holding byte `at` (the text's end on the last line).
    fn line_end(&self, at: usize) -> usize {
        self.text[at..].find('\n').map_or(self.text.len(), |i| at + i + 1)
    }

    /// Whether only blanks precede byte `at` on its line.
    fn first_on_line(&self, at: usize) -> bool {
        self.text[self.line_start(at)..at].trim().is_empty()
    }

    /// `value` with its keys sorted when the file sorts them (opm's YAML).
    fn prep(&self, value: &Out) -> Out {
        if self.style.sorted {
            value.clone().sorted()
        } else {
            value.clone()
        }
    }

    /// Replace a scalar, keeping its quoting.
    pub fn replace_scalar(&self, node: &Span, value: &str) -> TextEdit {
        let quoting = match node.kind {
            SpanKind::Scalar(q) if q != Quoting::Block && q != Quoting::Alias => q,
            _ => Quoting::Plain,
        };
        self.edit(node.start, node.end, emit::scalar(&Out::s(value), &self.style, quoting))
    }

    /// Set `key` of mapping `map` to `value`: a string over a scalar keeps its quoting; any other
    /// value replaces the member; a missing key is inserted (in sorted place when the mapping's
    /// keys are sorted, else last).
    pub fn set_member(&self, map: &Span, key: &str, value: &Out) -> TextEdit {
        let value = &self.prep(value);
        if let Some(m) = map.member(key) {
            if let (Out::Str(s), SpanKind::Scalar(_)) = (value, &m.value.kind) {
                return self.replace_scalar(&m.value, s);
            }
            let col = self.column(m.key_start);
            return self.edit(m.key_start, m.value.end, self.member_text(key, value, col));
        }
        self.insert_member(map, key, value)
    }

    fn member_text(&self, key: &str, value: &Out, col: usize) -> String {
        if self.style.json {
            format!("{}: {}", emit::json_string(key), emit::json(value, self.style.unit, col))
        } else {
            emit::member(key, value, &self.style, col)
        }
    }

    fn insert_member(&self, map: &Span, key: &str, value: &Out) -> TextEdit {
        let members = map.members();
        let Some(last) = members.last() else {
            return self.edit(map.start, map.end, self.value_text(&Out::Map(vec![(key.into(), value.clone())]), map));
        };
        if map.flow {
            let sep = if self.first_on_line(last.key_start) {
                format!("\n{}", " ".repeat(self.column(last.key_start)))
            } else {
                " ".into()
            };
            let text = if self.style.json {
                format!(",{sep}{}", self.member_text(key, value, self.column(last.key_start)))
            } else {
                format!(",{sep}{}: {}", emit::yaml_scalar(key, Quoting::Plain), emit::flow(value))
            };
            return self.edit(last.value.end, last.value.end, text);
        }
        let sorted = self.style.sorted && members.windows(2).all(|w| w[0].key <= w[1].key);
        if let Some(next) = members.iter().find(|m| sorted && m.key.as_str() > key) {
            let col = self.column(next.key_start);
            let text = format!("{}\n{}", self.member_text(key, value, col), " ".repeat(col));
            return self.edit(next.key_start, next.key_start, text);
        }
        let col = self.column(last.key_start);
        self.insert_line_after(last.value.end, &format!("{}{}", " ".repeat(col), self.member_text(key, value, col)))
    }

    /// Insert a whole line after the line holding byte `at`.
    fn insert_line_after(&self, at: usize, line: &str) -> TextEdit {
        let end = self.line_end(at);
        if end == self.text.len() && !self.text.ends_with('\n') {
            self.edit(end, end, format!("\n{line}"))
        } else {
            self.edit(end, end, format!("{line}\n"))
        }
    }

    /// A whole value written in place of `node`, in the file's style.
    fn value_text(&self, value: &Out, node: &Span) -> String {
        let col = self.column(node.start);
        if self.style.json || node.flow {
            if self.style.json && self.first_on_line(node.start) {
                emit::json(value, self.style.unit, col)
            } else {
                emit::flow(value)
            }
        } else {
            emit::value(value, &self.style, col)
        }
    }

    /// Remove `key` from `map` (nothing when it is absent): whole lines in block YAML, the member
    /// and one comma in JSON; a mapping left empty becomes `{}`.
    pub fn remove_member(&self, map: &Span, key: &str) -> Option<TextEdit> {
        let members = map.members();
        let i = members.iter().rposition(|m| m.key == key)?;
        if members.len() == 1 {
            return Some(self.edit(map.start, map.end, "{}"));
        }
        Some(self.remove_between(members.iter().map(|m| (m.key_start, m.value.end)).collect(), i, map.flow))
    }

    /// Remove element `i` of a collection whose elements span `parts` (start, end).
    fn remove_between(&self, parts: Vec<(usize, usize)>, i: usize, flow: bool) -> TextEdit {
        let (start, end) = parts[i];
        if flow {
            return match (parts.get(i + 1), i.checked_sub(1).map(|p| parts[p])) {
                (Some(&(next, _)), _) => self.edit(start, next, ""),
                (None, Some((_, prev_end))) => self.edit(prev_end, end, ""),
                (None, None) => self.edit(start, end, ""),
            };
        }
        if self.first_on_line(start) {
            self.edit(self.line_start(start), self.line_end(end), "")
        } else if let Some(&(next, _)) = parts.get(i + 1) {
            self.edit(start, next, "")
        } else {
            // The last element shares its line with what comes before (`- key: v`): keep that
            // line, drop the element's text and what follows it on its last line.
            let cut = self.line_end(end);
            let keep_break = if self.text[..cut].ends_with('\n') { "\n" } else { "" };
            self.edit(start, cut, keep_break)
        }
    }

    /// Append `value` to the sequence under `owner` (a member whose value is a sequence).
    pub fn push_item(&self, owner: &SpanMember, value: &Out) -> TextEdit {
        let value = &self.prep(value);
        let seq = &owner.value;
        let Some(last) = seq.items().last() else {
            return self.replace_member_value(owner, &Out::Seq(vec![value.clone()]));
        };
        if seq.flow {
            let sep = if self.first_on_line(last.start) {
                format!("\n{}", " ".repeat(self.column(last.start)))
            } else {
                " ".into()
            };
            let body = if self.style.json && self.first_on_line(last.start) {
                emit::json(value, self.style.unit, self.column(last.start))
            } else {
                emit::flow(value)
            };
            return self.edit(last.end, last.end, format!(",{sep}{body}"));
        }
        let dash = self.dash_before(last.start);
        let col = self.column(dash);
        let body = emit::yaml_block(value, &self.style, col + 2);
        self.insert_line_after(last.end, &format!("{}- {body}", " ".repeat(col)))
    }

    /// Replace a member's value by a freshly written one (the key stays).
    fn replace_member_value(&self, owner: &SpanMember, value: &Out) -> TextEdit {
        let col = self.column(owner.key_start);
        let key = &self.text[owner.key_start..owner.key_end];
        let member = self.member_text("\u{0}", value, col);
        let tail = member.strip_prefix(&emit::yaml_scalar("\u{0}", Quoting::Plain)).unwrap_or(&member);
        let tail = tail.strip_prefix(&emit::json_string("\u{0}")).unwrap_or(tail);
        self.edit(owner.key_start, owner.value.end, format!("{key}{tail}"))
    }

    /// The `-` of a block sequence item whose content starts at `at`.
    fn dash_before(&self, at: usize) -> usize {
        let before = &self.text[..at];
        before.trim_end().strip_suffix('-').map_or(at, |s| s.len())
    }

    /// Remove item `i` of the sequence under `owner`; the last item leaves `[]`.
    pub fn remove_item(&self, owner: &SpanMember, i: usize) -> TextEdit {
        let seq = &owner.value;
        let items = seq.items();
        if items.len() == 1 {
            return self.replace_member_value(owner, &Out::Seq(vec![]));
        }
        let parts: Vec<(usize, usize)> = items
            .iter()
            .map(|s| if seq.flow { (s.start, s.end) } else { (self.dash_before(s.start), s.end) })
            .collect();
        self.remove_between(parts, i, seq.flow)
    }

    /// Append a new blob at the end of the file.
    pub fn append_root(&self, value: &Out) -> TextEdit {
        if let Some(entries) = &self.container {
            return self.push_item(entries, value);
        }
        let end = self.text.len();
        let lead = if self.text.is_empty() || self.text.ends_with('\n') { "" } else { "\n" };
        let body = if self.style.json {
            emit::json(value, self.style.unit, 0)
        } else {
            let v = if self.style.sorted { value.clone().sorted() } else { value.clone() };
            format!("---\n{}", emit::yaml_block(&v, &self.style, 0))
        };
        self.edit(end, end, format!("{lead}{body}\n"))
    }

    /// Remove blob `root`, with its document separator.
    pub fn remove_root(&self, root: &Span) -> TextEdit {
        let i = self.roots.iter().position(|r| r.start == root.start).unwrap_or(0);
        if let Some(entries) = &self.container {
            return self.remove_item(entries, i);
        }
        let start = if self.style.json { root.start } else { self.doc_start(root.start) };
        let end = match self.roots.get(i + 1) {
            Some(next) if self.style.json => next.start,
            Some(next) => self.doc_start(next.start),
            None => self.text.len(),
        };
        if self.roots.get(i + 1).is_none() && self.style.json && i > 0 {
            return self.edit(self.roots[i - 1].end, root.end, "");
        }
        self.edit(start, end, "")
    }

    /// Where the document holding `at` begins: its `---` line, else its first line.
    fn doc_start(&self, at: usize) -> usize {
        let mut line = self.line_start(at);
        let first = line;
        while line > 0 {
            let prev = self.line_start(line - 1);
            let text = self.text[prev..line].trim();
            if text.starts_with("---") {
                return prev;
            }
            if !(text.is_empty() || text.starts_with('#')) {
                break;
            }
            line = prev;
        }
        first
    }
}

/// The indent unit, sequence style and key order a file uses.
fn detect_style(text: &str, json: bool, roots: &[Span]) -> Style {
    let col = |at: usize| text[..at].rfind('\n').map_or(at, |i| at - i - 1);
    let mut style = Style { json, unit: if json { 4 } else { 2 }, indentless: true, sorted: !json };
    let Some(root) = roots.first() else { return style };
    if json {
        if let Some(m) = root.members().iter().find(|m| text[..m.key_start].ends_with(' ')) {
            style.unit = col(m.key_start).saturating_sub(col(root.start)).max(1);
        }
        return style;
    }
    style.sorted = root.members().windows(2).all(|w| w[0].key <= w[1].key);
    for m in roots.iter().take(8).flat_map(|r| r.members()) {
        match &m.value.kind {
            SpanKind::Map(inner) if !m.value.flow && !inner.is_empty() => {
                style.unit = col(inner[0].key_start).saturating_sub(col(m.key_start)).max(1);
            }
            SpanKind::Seq(items) if !m.value.flow && !items.is_empty() => {
                let dash = text[..items[0].start].trim_end().len().saturating_sub(1);
                style.indentless = col(dash) == col(m.key_start);
            }
            _ => {}
        }
    }
    style
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::FileInput;
    use crate::edit::apply_edits;

    fn apply(doc: &Doc, e: TextEdit) -> String {
        let out = apply_edits(&[FileInput::new(doc.file.clone(), doc.text.clone())], &[e]).unwrap();
        String::from_utf8(out[0].content.clone()).unwrap()
    }

    fn doc(t: &str) -> Doc {
        Doc::new("f", t.to_string()).unwrap()
    }

    const CHANNEL: &str = "---\nentries:\n- name: a.v1 # first\n- name: a.v2\n  replaces: a.v1\n\n# trailing\nname: stable\npackage: a\nschema: olm.channel\n";

    #[test]
    fn a_scalar_keeps_its_quoting_and_its_comment() {
        let d = doc("name: 'a' # c\nother: \"b\"\n");
        let r = &d.roots[0];
        assert_eq!(apply(&d, d.set_member(r, "name", &Out::s("x'y"))), "name: 'x''y' # c\nother: \"b\"\n");
        assert_eq!(apply(&d, d.set_member(r, "other", &Out::s("z"))), "name: 'a' # c\nother: \"z\"\n");
    }

    #[test]
    fn a_member_is_inserted_in_sorted_place_at_the_neighbours_indentation() {
        let d = doc(CHANNEL);
        let entry = &d.roots[0].member("entries").unwrap().value.items()[0];
        let got = apply(&d, d.set_member(entry, "skipRange", &Out::s("<1.0.0")));
        assert!(got.contains("- name: a.v1 # first\n  skipRange: <1.0.0\n- name: a.v2"), "{got}");
        let second = &d.roots[0].member("entries").unwrap().value.items()[1];
        let got = apply(&d, d.set_member(second, "skips", &Out::Seq(vec![Out::s("a.v0")])));
        assert!(got.contains("  replaces: a.v1\n  skips:\n  - a.v0\n\n# trailing"), "{got}");
    }

    #[test]
    fn removing_members_and_items_takes_whole_lines() {
        let d = doc(CHANNEL);
        let entries = d.roots[0].member("entries").unwrap();
        let second = &entries.value.items()[1];
        let got = apply(&d, d.remove_member(second, "replaces").unwrap());
        assert_eq!(got, CHANNEL.replace("  replaces: a.v1\n", ""));
        let got = apply(&d, d.remove_item(entries, 0));
        assert_eq!(got, CHANNEL.replace("- name: a.v1 # first\n", ""));
        let got = apply(&d, d.remove_item(entries, 1));
        assert_eq!(got, CHANNEL.replace("- name: a.v2\n  replaces: a.v1\n", ""));
        let got = apply(&d, d.push_item(entries, &Out::map([("name", Out::s("a.v3")), ("replaces", Out::s("a.v2"))])));
        assert!(got.contains("  replaces: a.v1\n- name: a.v3\n  replaces: a.v2\n\n# trailing"), "{got}");
    }

    #[test]
    fn json_members_and_items_are_edited_with_their_commas() {
        let t = "{\n    \"schema\": \"olm.channel\",\n    \"entries\": [\n        {\n            \"name\": \"a\"\n        }\n    ]\n}\n";
        let d = doc(t);
        assert_eq!(d.style.unit, 4);
        let entries = d.roots[0].member("entries").unwrap();
        let item = &entries.value.items()[0];
        let got = apply(&d, d.set_member(item, "replaces", &Out::s("z")));
        assert!(got.contains("\"name\": \"a\",\n            \"replaces\": \"z\"\n        }"), "{got}");
        let got = apply(&d, d.push_item(entries, &Out::map([("name", Out::s("b"))])));
        assert!(got.contains("        },\n        {\n            \"name\": \"b\"\n        }\n    ]"), "{got}");
        let got = apply(&d, d.remove_member(&d.roots[0], "schema").unwrap());
        assert!(got.starts_with("{\n    \"entries\""), "{got}");
        let got = apply(&d, d.remove_item(entries, 0));
        assert!(got.contains("\"entries\": []"), "{got}");
    }

    #[test]
    fn blobs_are_appended_and_removed_with_their_separators() {
        let d = doc(CHANNEL);
        let got =
            apply(&d, d.append_root(&Out::map([("schema", Out::s("olm.deprecations")), ("package", Out::s("a"))])));
        assert!(got.ends_with("schema: olm.channel\n---\npackage: a\nschema: olm.deprecations\n"), "{got}");
        let two = format!("{CHANNEL}---\nname: b\n");
        let d = doc(&two);
        assert_eq!(apply(&d, d.remove_root(&d.roots[0])), "---\nname: b\n");
        assert_eq!(apply(&d, d.remove_root(&d.roots[1])), CHANNEL);
        let j = doc("{\"a\": 1}\n{\"b\": 2}\n");
        assert_eq!(apply(&j, j.remove_root(&j.roots[1])), "{\"a\": 1}\n");
        assert_eq!(apply(&j, j.remove_root(&j.roots[0])), "{\"b\": 2}\n");
    }
}
