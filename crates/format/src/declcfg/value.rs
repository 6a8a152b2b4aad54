//! The spanned JSON value tree every catalog file is read into, whatever its syntax.
//!
//! JSON streams and YAML documents both become [`Node`]s that remember the line and column they
//! started at, so every later finding can point back at the exact place in the file. Objects keep
//! their members in source order; a key given twice keeps only its last value (as Go's maps do).

use std::fmt::Write as _;

/// The string type of the tree: keys and string values up to 24 bytes are stored inline.
pub type Str = compact_str::CompactString;

/// A 1-based line and column (in characters) inside one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
pub struct Pos {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, counted in Unicode scalar values.
    pub column: u32,
}

impl Pos {
    /// A position at `line`, `column` (both 1-based).
    pub fn new(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }
}

/// One value with the position it started at.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Where the value starts.
    pub pos: Pos,
    /// The value itself.
    pub value: Value,
}

/// A JSON value. Numbers are kept as `f64`, as Go's generic decoding does.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (Go decodes every JSON number as a float64).
    Number(f64),
    /// A string (short ones stored inline, without a heap allocation).
    String(Str),
    /// An array (a boxed slice, not a `Vec`: without a capacity word, the tag fits in the
    /// string's spare byte, so a `Value` is 24 bytes and a `Member` 64).
    Array(Box<[Node]>),
    /// An object, members in source order.
    Object(Box<[Member]>),
}

/// One key/value pair of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key text (stored inline when short).
    pub key: Str,
    /// Where the key starts.
    pub key_pos: Pos,
    /// The value.
    pub value: Node,
}

/// Start loading the members or items of every object and array among `nodes`, before a walk
/// reaches them. Each is an allocation of its own: a walk over a tree read long before, which asks
/// for one only when it gets there, waits on memory once per object (most of its time).
#[inline(always)]
pub fn prefetch<'a>(nodes: impl Iterator<Item = &'a Node>) {
    #[cfg(target_arch = "x86_64")]
    for n in nodes {
        let at = match &n.value {
            Value::Object(m) => m.as_ptr().cast::<i8>(),
            Value::Array(a) => a.as_ptr().cast::<i8>(),
            _ => continue,
        };
        // SAFETY: a prefetch is a hint: it reads nothing the program sees and cannot fault.
        unsafe { std::arch::x86_64::_mm_prefetch(at, std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = nodes;
}

impl Node {
    /// A node at `pos`.
    pub fn new(pos: Pos, value: Value) -> Node {
        Node { pos, value }
    }

    /// The members when this is an object.
    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.value {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The text when this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements when this is an array.
    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The member with exactly this key.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_object()?.iter().find(|m| m.key == key).map(|m| &m.value)
    }

    /// The member Go's `encoding/json` would bind to a struct field named `field`: keys are
    /// matched case-insensitively (Unicode simple folding); when several keys fold to the same
    /// name, the last in sorted key order wins, because Go decodes the re-encoded, key-sorted
    /// blob and later keys overwrite earlier ones.
    pub fn field(&self, field: &str) -> Option<&Member> {
        field_of(self.as_object()?, field)
    }

    /// What kind of JSON value this is, in Go's words (`number`, `string`, `object`...).
    pub fn kind_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Compact JSON as Go re-encodes a generic value: object keys sorted, no HTML escaping.
    pub fn to_go_json(&self) -> String {
        let mut out = String::new();
        write_go_json(self, &mut out);
        out
    }

    /// Build a node (with no position) from a `serde_json::Value`.
    pub fn from_json(v: &serde_json::Value) -> Node {
        let value = match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.as_f64().unwrap_or(0.0)),
            serde_json::Value::String(s) => Value::String(s.into()),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(Node::from_json).collect()),
            serde_json::Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, v)| Member { key: k.into(), key_pos: Pos::default(), value: Node::from_json(v) })
                    .collect(),
            ),
        };
        Node::new(Pos::default(), value)
    }

    /// Convert to a `serde_json::Value` (object keys in sorted order).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => number_to_json(*n),
            Value::String(s) => serde_json::Value::String(String::from(s.as_str())),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(Node::to_json).collect()),
            Value::Object(m) => {
                serde_json::Value::Object(m.iter().map(|m| (String::from(m.key.as_str()), m.value.to_json())).collect())
            }
        }
    }
}

/// A JSON number for `n`, as an integer when it is a whole number that fits.
fn number_to_json(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        serde_json::Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map(serde_json::Value::Number).unwrap_or(serde_json::Value::Null)
    }
}

/// See [`Node::field`].
pub fn field_of<'a>(members: &'a [Member], field: &str) -> Option<&'a Member> {
    field_index(members, field).map(|i| &members[i])
}

/// The index of the member [`field_of`] selects.
pub fn field_index(members: &[Member], field: &str) -> Option<usize> {
    key_index(members.iter().map(|m| m.key.as_str()), field)
}

/// The index of the key Go binds to `field` among an object's keys, in order: of those that
/// match it ([`key_matches`]), the greatest, the last of equal ones.
#[inline]
pub fn key_index<'k>(keys: impl Iterator<Item = &'k str>, field: &str) -> Option<usize> {
    let mut best: Option<(usize, &str)> = None;
    for (i, key) in keys.enumerate() {
        if key_matches(key, field) && best.is_none_or(|(_, b)| key >= b) {
            best = Some((i, key));
        }
    }
    best.map(|(i, _)| i)
}

/// [`field_index`] of each of a few fields (ASCII names), in one pass over the members: see
/// [`find_fields`].
pub fn field_indexes<const N: usize>(members: &[Member], fields: [&str; N]) -> [Option<usize>; N] {
    let mut out = [None; N];
    find_fields(members, &fields, &mut out);
    out
}

/// `out[f]` = [`field_index`] of `fields[f]`, found in one pass over the members. A key folds to
/// an ASCII field of its own length only when it is its ASCII spelling in some case (a non-ASCII
/// letter takes more bytes than the ASCII one it folds to); a longer key only when it holds a
/// non-ASCII letter (the Kelvin sign folds to `k`): an object with such a key is looked up field
/// by field. Browsers' modules ([`crate::FAST_PATHS`]) always look up field by field; elsewhere it
/// is inlined, so that each call site compares with its own field names' lengths.
#[cfg_attr(any(not(target_arch = "wasm32"), olm_wasm_speed), inline(always))]
fn find_fields(members: &[Member], fields: &[&str], out: &mut [Option<usize>]) {
    let by_field =
        |out: &mut [Option<usize>]| out.iter_mut().zip(fields).for_each(|(o, f)| *o = field_index(members, f));
    if !crate::FAST_PATHS {
        return by_field(out);
    }
    for (i, m) in members.iter().enumerate() {
        let k = m.key.as_bytes();
        let mut longer = false;
        for (f, field) in fields.iter().enumerate() {
            let fb = field.as_bytes();
            if k.len() != fb.len() {
                longer |= k.len() > fb.len();
                continue;
            }
            if (same_bytes(k, fb) || same_ignoring_ascii_case(k, fb))
                && out[f].is_none_or(|b: usize| m.key.as_str() >= members[b].key.as_str())
            {
                out[f] = Some(i);
            }
        }
        if longer && !(k.len() < 32 && short_ascii(k)) && !k.is_ascii() {
            return by_field(out);
        }
    }
}

/// [`field_index`] for each of a list of fields at once, in one pass over an object's members
/// (each key read once). Built once for the list (a Go struct's fields) and then used for any
/// number of objects: `find` fills `out[f]` with the index of the member `field_of(members,
/// name(&fields[f]))` selects.
///
/// An ASCII key can only fold to a field of its length whose first and last letters are its own
/// in either case: the table holds, for each of the three, the fields that have it, and a key is
/// compared with the fields in all three (most often one). A non-ASCII key (which may fold to a
/// shorter name: the Kelvin sign folds to `k`) is compared with every field.
#[derive(Clone)]
pub struct FieldTable {
    /// Fields by first byte and by last byte, folded to 5 bits (`A` and `a` share a slot; a
    /// collision only adds candidates that `key_matches` then rejects), and by length (under 32).
    /// Fields 0 to 63 only.
    by_first: [u64; 32],
    by_last: [u64; 32],
    by_len: [u64; 32],
    /// Fields whose name is not ASCII or not shorter than 32 bytes: candidates for every key.
    everywhere: u64,
    /// Every field of the first 64.
    all: u64,
}

impl FieldTable {
    pub fn new<T>(fields: &[T], name: impl Fn(&T) -> &str) -> FieldTable {
        let mut table = FieldTable { by_first: [0; 32], by_last: [0; 32], by_len: [0; 32], everywhere: 0, all: 0 };
        for (f, field) in fields.iter().enumerate().take(64) {
            let bit = 1 << f;
            table.all |= bit;
            let n = name(field).as_bytes();
            match (n.first(), n.last()) {
                (Some(&a), Some(&z)) if n.len() < 32 && n.is_ascii() => {
                    table.by_first[usize::from(a & 31)] |= bit;
                    if crate::FAST_PATHS {
                        table.by_last[usize::from(z & 31)] |= bit;
                        table.by_len[n.len()] |= bit;
                    }
                }
                _ => table.everywhere |= bit,
            }
        }
        table
    }

    /// The fields (of the first 64) an ASCII key `k` may fold to; every field for any other key.
    #[inline(always)]
    pub fn candidates(&self, k: &[u8]) -> u64 {
        match (k.first(), k.last()) {
            // The browsers' modules, built for size, filter by the first letter alone.
            (Some(&a), _) if !crate::FAST_PATHS && a.is_ascii() => self.by_first[usize::from(a & 31)] | self.everywhere,
            (Some(&a), Some(&z)) if k.len() < 32 && short_ascii(k) => {
                self.by_first[usize::from(a & 31)] & self.by_last[usize::from(z & 31)] & self.by_len[k.len()]
                    | self.everywhere
            }
            _ => self.all,
        }
    }

    /// `fields` and `name` as given to [`FieldTable::new`]; `out` as long as `fields`.
    pub fn find<T>(&self, members: &[Member], fields: &[T], name: impl Fn(&T) -> &str, out: &mut [Option<usize>]) {
        out.iter_mut().for_each(|o| *o = None);
        for (i, m) in members.iter().enumerate() {
            let key = m.key.as_str();
            let mut candidates = self.candidates(key.as_bytes());
            while candidates != 0 {
                let f = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if key_matches(key, name(&fields[f])) && out[f].is_none_or(|b| key >= members[b].key.as_str()) {
                    out[f] = Some(i);
                }
            }
            if fields.len() > 64 {
                for (f, field) in fields.iter().enumerate().skip(64) {
                    if key_matches(key, name(field)) && out[f].is_none_or(|b| key >= members[b].key.as_str()) {
                        out[f] = Some(i);
                    }
                }
            }
        }
    }
}

/// `k.is_ascii()` for a key shorter than 32 bytes, by words when it has 8 or more.
#[inline(always)]
fn short_ascii(k: &[u8]) -> bool {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let word = |at: usize| u64::from_ne_bytes(k[at..at + 8].try_into().unwrap_or_default());
    match k.len() {
        8..=16 => (word(0) | word(k.len() - 8)) & HIGH_BITS == 0,
        _ => k.is_ascii(),
    }
}

/// Whether `key` folds to `field`. Field names are ASCII, and a key can only fold to one when it
/// is as long (ASCII) or longer (non-ASCII letters such as the Kelvin sign fold to ASCII ones).
#[cfg_attr(any(not(target_arch = "wasm32"), olm_wasm_speed), inline)]
#[cfg_attr(all(target_arch = "wasm32", not(olm_wasm_speed)), inline(never))]
pub fn key_matches(key: &str, field: &str) -> bool {
    let (k, f) = (key.as_bytes(), field.as_bytes());
    if k.len() < f.len() {
        return false;
    }
    // A key that starts with an ASCII byte folds to a text that starts with it: a different
    // first letter rules it out without looking further (most keys of an object).
    if let (Some(a), Some(b)) = (k.first(), f.first()) {
        if a.is_ascii() && !a.eq_ignore_ascii_case(b) {
            return false;
        }
    }
    // Most keys are spelled as their field: one comparison of the bytes first.
    let same = |k, f| {
        if crate::FAST_PATHS {
            same_bytes(k, f) || same_ignoring_ascii_case(k, f)
        } else {
            k.eq_ignore_ascii_case(f)
        }
    };
    if key.len() == field.len() && same(k, f) {
        return true;
    }
    if key.len() < field.len() || key.is_ascii() {
        return false;
    }
    fold_eq(key, field)
}

/// `a == b` for two slices of the same length, without a call for the short ones field names
/// are (up to 16 bytes: two overlapping word comparisons).
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().unwrap_or_default());
    let half = |s: &[u8], at: usize| u32::from_ne_bytes(s[at..at + 4].try_into().unwrap_or_default());
    match n {
        8..=16 if b.len() == n => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 if b.len() == n => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => a == b,
    }
}

/// `a.eq_ignore_ascii_case(b)`, two slices of the same length; for the lengths [`same_bytes`]
/// compares by words, two words with every byte's `0x20` bit set must be equal first (a letter and
/// its other case differ only in that bit), which rules out most pairs (`displayName`,
/// `description`) without a byte loop.
#[inline(always)]
fn same_ignoring_ascii_case(a: &[u8], b: &[u8]) -> bool {
    const CASE_BITS: u64 = 0x2020_2020_2020_2020;
    let n = a.len();
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().unwrap_or_default()) | CASE_BITS;
    match n {
        8..=16 if b.len() == n && (word(a, 0) != word(b, 0) || word(a, n - 8) != word(b, n - 8)) => false,
        _ => a.eq_ignore_ascii_case(b),
    }
}

/// Case-insensitive equality under simple Unicode folding, ASCII fast path.
pub fn fold_eq(a: &str, b: &str) -> bool {
    if a.len() == b.len() && a.eq_ignore_ascii_case(b) {
        return true;
    }
    if a.is_ascii() && b.is_ascii() {
        return false;
    }
    fold(a) == fold(b)
}

/// The case fold of a key, used to group keys that differ only by case.
pub fn fold(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

fn write_go_json(node: &Node, out: &mut String) {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&go_float(*n)),
        Value::String(s) => write_go_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, n) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_json(n, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            let mut sorted: Vec<&Member> = m.iter().collect();
            crate::sort::sort_by(&mut sorted, |a, b| a.key.cmp(&b.key));
            out.push('{');
            for (i, m) in sorted.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_string(&m.key, out);
                out.push(':');
                write_go_json(&m.value, out);
            }
            out.push('}');
        }
    }
}

/// A float64 the way Go's `encoding/json` prints it (`null` for NaN and infinities, which a
/// parsed catalog never holds).
pub fn go_float(f: f64) -> String {
    crate::gotext::json_number(f).unwrap_or_else(|_| "null".to_string())
}

/// A JSON string literal as Go writes it with HTML escaping off.
pub fn write_go_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A catalog's tree is most of its memory: a value is three words (its tag in the string's
    /// spare byte), a node four, an object member eight.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn values_nodes_and_members_are_24_32_and_64_bytes() {
        use std::mem::size_of;
        assert_eq!((size_of::<Value>(), size_of::<Node>(), size_of::<Member>()), (24, 32, 64));
    }

    fn s(v: &str) -> Node {
        Node::new(Pos::default(), Value::String(v.into()))
    }

    fn obj(members: &[(&str, Node)]) -> Node {
        Node::new(
            Pos::default(),
            Value::Object(
                members
                    .iter()
                    .map(|(k, v)| Member { key: (*k).into(), key_pos: Pos::default(), value: v.clone() })
                    .collect(),
            ),
        )
    }

    /// The one-pass lookup of a few fields selects what the lookup of each selects.
    #[test]
    fn field_indexes_agree_with_field_index() {
        let keys = ["name", "Name", "NAME", "image", "imagE", "package", "pacKage", "\u{212a}ind", "kind", "x"];
        let mut seed = 7u32;
        for _ in 0..2000 {
            let n = (seed % 6) as usize;
            let members: Vec<Member> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    let key = keys[(seed >> 16) as usize % keys.len()];
                    Member { key: key.into(), key_pos: Pos::new(1, 1), value: Node::new(Pos::new(1, 1), Value::Null) }
                })
                .collect();
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let fields = ["name", "image", "package", "kind"];
            assert_eq!(field_indexes(&members, fields), fields.map(|f| field_index(&members, f)));
        }
    }

    #[test]
    fn the_word_filter_keeps_every_pair_equal_but_for_ascii_case() {
        let words =
            ["displayName", "description", "DisplayName", "DESCRIPTION", "displayname", "display@ame", "display`ame"];
        for a in words {
            for b in words {
                assert_eq!(same_ignoring_ascii_case(a.as_bytes(), b.as_bytes()), a.eq_ignore_ascii_case(b), "{a} {b}");
            }
        }
    }

    #[test]
    fn same_bytes_is_equality_at_every_length() {
        for n in 0..24 {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i).collect();
            assert!(same_bytes(&a, &a.clone()));
            for at in 0..n {
                let mut b = a.clone();
                b[at] = b'Z';
                assert!(!same_bytes(&a, &b), "length {n}, differing at {at}");
            }
        }
    }

    #[test]
    fn field_matching_is_case_insensitive_and_prefers_last_sorted_key() {
        let o = obj(&[("Name", s("a")), ("name", s("b"))]);
        assert_eq!(o.field("name").unwrap().value.as_str(), Some("b"));
        let o = obj(&[("NAME", s("a")), ("Name", s("b"))]);
        assert_eq!(o.field("name").unwrap().value.as_str(), Some("b"));
        assert!(o.field("other").is_none());
        // Kelvin sign folds to k.
        let o = obj(&[("\u{212A}ind", s("x"))]);
        assert_eq!(o.field("kind").unwrap().value.as_str(), Some("x"));
    }

    #[test]
    fn fields_found_in_one_pass_are_those_field_of_finds() {
        let keys = ["Name", "name", "kind", "\u{212A}IND", "versionRange", "-x", "@a", "`a", "", "NAME", "zeta"];
        let fields = ["name", "kind", "versionrange", "-x", "`a", "", "missing", "x-descriptors"];
        let table = FieldTable::new(&fields, |f| *f);
        for n in 0..keys.len() {
            let o = obj(&keys[..n].iter().map(|k| (*k, s(k))).collect::<Vec<_>>());
            let members = o.as_object().unwrap();
            let mut out = [Some(99); 8];
            table.find(members, &fields, |f| *f, &mut out);
            for (f, field) in fields.iter().enumerate() {
                assert_eq!(out[f], field_index(members, field), "{field} among {:?}", &keys[..n]);
            }
        }
    }

    #[test]
    fn go_json_sorts_keys_and_escapes_like_go() {
        let o = obj(&[("z", s("<a>\n")), ("a", Node::new(Pos::default(), Value::Number(1.0)))]);
        assert_eq!(o.to_go_json(), r#"{"a":1,"z":"<a>\n"}"#);
    }

    #[test]
    fn go_float_formats() {
        assert_eq!(go_float(1.0), "1");
        assert_eq!(go_float(1.5), "1.5");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(1e-7), "1e-7");
        assert_eq!(go_float(-0.000001), "-0.000001");
        assert_eq!(go_float(12345678901234567890.0), "12345678901234567000");
    }
}
