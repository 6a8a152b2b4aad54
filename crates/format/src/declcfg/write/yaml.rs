//! One blob as sigs.k8s.io/yaml's `JSONToYAML` prints it: the JSON re-read by go-yaml v2 into
//! generic values and marshalled again by go-yaml v2's emitter (libyaml's, in Go).
//!
//! This file owns the layout — go-yaml v2's emitter state for block mappings and sequences, and
//! its map-key order — and what each JSON value becomes as a YAML scalar; how a string is
//! styled and written is [`yaml_scalar`](super::yaml_scalar)'s.
//!
//! Layout facts (go-yaml v2 `emitterc.go`, `encode.go`, `sorter.go`; indent 2, width 80):
//! - Mappings are block mappings, keys in go-yaml's `keyList` order: rune by rune, where two
//!   letters compare as code points, a non-letter sorts before a letter, and runs of digits
//!   compare as numbers.
//! - A sequence that is a mapping value is not indented (`key:` then `- item` at the key's
//!   column); a sequence item that is a collection starts on the `- ` line.
//! - Empty mappings and sequences are written in flow style: `{}` and `[]`.
//! - A key longer than 128 bytes, or with a line break, is a complex key (`? key` / `: value`).
//! - Numbers: the JSON text go-yaml re-reads is an `int` when it fits 64 bits (signed, then
//!   unsigned), else a float printed with `strconv.FormatFloat(f, 'g', -1, 64)`.

use std::cmp::Ordering;

use super::super::value::{go_float, Member, Node, Value};
use super::emitter::{Context, Emitter};
use super::yaml_scalar::{self, Style};

/// The longest key go-yaml writes as a simple key.
const MAX_SIMPLE_KEY: usize = 128;

/// Write `value` as the one document of a `yaml.Marshal` call (no `---`; a final newline).
pub(super) fn write_document(value: &Node, out: &mut String) {
    let mut e = Emitter::new(out);
    e.node(value, Context::default());
    e.write_indent();
}

impl Emitter<'_> {
    fn node(&mut self, node: &Node, ctx: Context) {
        match &node.value {
            Value::Object(members) if members.is_empty() => self.flow_empty("{", "}"),
            Value::Array(items) if items.is_empty() => self.flow_empty("[", "]"),
            Value::Object(members) => self.mapping(members),
            Value::Array(items) => self.sequence(items, ctx),
            Value::Null => yaml_scalar::emit(self, "null", Style::Plain, ctx),
            Value::Bool(b) => yaml_scalar::emit(self, if *b { "true" } else { "false" }, Style::Plain, ctx),
            Value::Number(n) => yaml_scalar::emit(self, &number(*n), Style::Plain, ctx),
            Value::String(s) => yaml_scalar::emit(self, s, yaml_scalar::string_style(s), ctx),
        }
    }

    fn flow_empty(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    fn sequence(&mut self, items: &[Node], ctx: Context) {
        self.increase_indent(false, ctx.mapping && !self.indention);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::default());
        }
        self.pop_indent();
    }

    fn mapping(&mut self, members: &[Member]) {
        self.increase_indent(false, false);
        let mut sorted: Vec<&Member> = members.iter().collect();
        crate::sort::sort_by(&mut sorted, |a, b| key_order(&a.key, &b.key));
        for m in sorted {
            self.write_indent();
            let value_ctx = Context { mapping: true, simple_key: false };
            if m.key.len() <= MAX_SIMPLE_KEY && !yaml_scalar::is_multiline(&m.key) {
                let key_ctx = Context { mapping: true, simple_key: true };
                yaml_scalar::emit(self, &m.key, yaml_scalar::string_style(&m.key), key_ctx);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                yaml_scalar::emit(self, &m.key, yaml_scalar::string_style(&m.key), value_ctx);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(&m.value, value_ctx);
        }
        self.pop_indent();
    }
}

/// The YAML text of a JSON number as go-yaml re-reads and re-prints Go's JSON text of it.
pub(super) fn number(n: f64) -> String {
    let text = go_float(n);
    if let Ok(i) = text.parse::<i64>() {
        return i.to_string();
    }
    if let Ok(u) = text.parse::<u64>() {
        return u.to_string();
    }
    crate::gotext::format_g(crate::gotext::parse_decimal(&text).unwrap_or(n), 64)
}

/// go-yaml v2's `keyList.Less` for two string keys, as an ordering.
pub(super) fn key_order(a: &str, b: &str) -> Ordering {
    if key_less(a, b) {
        Ordering::Less
    } else if key_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

fn key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let (al, bl) = (ar[i].is_alphabetic(), br[i].is_alphabetic());
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        return digits_less(&ar, &br, i);
    }
    ar.len() < br.len()
}

/// The non-letter branch of `keyList.Less` at the first difference `i`: compare the runs of
/// digits starting there as numbers (a run continuing non-zero digits before `i` counts from 1),
/// then by run length, then by the characters.
fn digits_less(ar: &[char], br: &[char], i: usize) -> bool {
    let (mut an, mut bn) = (0i64, 0i64);
    if ar[i] == '0' || br[i] == '0' {
        let before = ar[..i].iter().rev().take_while(|c| c.is_ascii_digit());
        if before.clone().any(|&c| c != '0') {
            an = 1;
            bn = 1;
        }
    }
    let run = |r: &[char], mut n: i64| {
        let mut j = i;
        while j < r.len() && r[j].is_ascii_digit() {
            n = n.wrapping_mul(10).wrapping_add(i64::from(r[j] as u8 - b'0'));
            j += 1;
        }
        (n, j)
    };
    let (an, ai) = run(ar, an);
    let (bn, bi) = run(br, bn);
    if an != bn {
        return an < bn;
    }
    if ai != bi {
        return ai < bi;
    }
    ar[i] < br[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::json::JsonReader;

    fn yaml(json: &str) -> String {
        let mut out = String::new();
        write_document(&JsonReader::new(json, 1).next_value().unwrap(), &mut out);
        out
    }

    #[test]
    fn sequences_in_mappings_are_not_indented_and_items_start_on_the_dash_line() {
        let got = yaml(r#"{"entries":[{"name":"a","skips":["x","w"]}],"m":{"k":[[1]]}}"#);
        assert_eq!(got, "entries:\n- name: a\n  skips:\n  - x\n  - w\nm:\n  k:\n  - - 1\n");
    }

    #[test]
    fn empty_collections_are_flow_and_null_is_plain() {
        assert_eq!(yaml(r#"{"a":{},"b":[],"c":null,"d":[{}]}"#), "a: {}\nb: []\nc: null\nd:\n- {}\n");
    }

    #[test]
    fn keys_sort_non_letters_first_and_digit_runs_as_numbers() {
        assert_eq!(yaml(r#"{"b":1,"a10":1,"a9":1,"_x":1,"B":1}"#), "_x: 1\nB: 1\na9: 1\na10: 1\nb: 1\n");
        assert_eq!(key_order("a", "ab"), Ordering::Less);
        assert_eq!(key_order("a1", "a01"), Ordering::Less);
    }

    #[test]
    fn numbers_are_ints_when_they_fit_else_go_g_floats() {
        assert_eq!(number(1.0), "1");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(1e20), "1e+20");
        assert_eq!(number(1e-7), "1e-07");
        assert_eq!(number(12345678901234567000.0), "12345678901234567000");
    }

    #[test]
    fn long_keys_are_complex_keys() {
        let key = "k".repeat(129);
        assert_eq!(yaml(&format!(r#"{{"{key}":1}}"#)), format!("? {key}\n: 1\n"));
    }
}
