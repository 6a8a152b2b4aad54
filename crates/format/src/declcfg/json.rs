//! A JSON reader that keeps positions: one value at a time from a stream of concatenated values,
//! as Go's `json.Decoder` reads a catalog file that starts with `{`.
//!
//! Error texts follow Go's `encoding/json` wording (`invalid character 'x' after object key`),
//! because users compare our reports with opm's.

use super::value::{Member, Node, Pos, Str, Value};

/// Deepest nesting accepted before the reader gives up (Go's decoder allows 10000).
pub const MAX_DEPTH: usize = 1000;

/// A syntax error and where it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    /// Go-style message.
    pub message: String,
    /// Where the offending character is.
    pub pos: Pos,
}

/// Reads JSON values one after another from a text, tracking lines and columns.
pub struct JsonReader<'a> {
    src: &'a str,
    bytes: &'a [u8],
    at: usize,
    line: u32,
    line_start: usize,
    // Column cache: (byte offset, column) of the last position asked for on the current line.
    col_cache: (usize, u32),
    base_line: u32,
    // The members and items of the objects and arrays being read, innermost last: each object
    // or array takes its own off the top when it closes, into a list of exactly its length (a
    // list grown one push at a time would keep up to half its room empty).
    members: Vec<Member>,
    items: Vec<Node>,
}

impl<'a> JsonReader<'a> {
    /// A reader over `src`, whose first line is line `base_line` of its file.
    pub fn new(src: &'a str, base_line: u32) -> JsonReader<'a> {
        JsonReader {
            src,
            bytes: src.as_bytes(),
            at: 0,
            line: 0,
            line_start: 0,
            col_cache: (0, 1),
            base_line,
            members: Vec::new(),
            items: Vec::new(),
        }
    }

    /// The byte offset the reader is at.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// Skip whitespace; true when the end of input is reached.
    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.at >= self.bytes.len()
    }

    /// Read the next value.
    pub fn next_value(&mut self) -> Result<Node, JsonError> {
        self.skip_ws();
        self.value(0)
    }

    fn pos(&mut self) -> Pos {
        let (cb, cc) = self.col_cache;
        let (from, mut col) = if cb >= self.line_start && cb <= self.at { (cb, cc) } else { (self.line_start, 1) };
        let slice = self.src.get(from..self.at).unwrap_or("");
        col += slice.chars().count() as u32;
        self.col_cache = (self.at, col);
        Pos::new(self.base_line + self.line, col)
    }

    fn skip_ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b' ' | b'\t' | b'\r' => self.at += 1,
                b'\n' => {
                    self.at += 1;
                    self.line += 1;
                    self.line_start = self.at;
                }
                _ => break,
            }
        }
    }

    fn err(&mut self, message: String) -> JsonError {
        JsonError { message, pos: self.pos() }
    }

    fn unexpected(&mut self, context: &str) -> JsonError {
        match self.src.get(self.at..).and_then(|s| s.chars().next()) {
            None => self.err("unexpected EOF".to_string()),
            Some(c) => {
                let m = format!("invalid character {} {}", quote_char(c), context);
                self.err(m)
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err("exceeded max depth".to_string()));
        }
        let pos = self.pos();
        match self.bytes.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let members = self.object(depth)?;
                Ok(Node::new(pos, Value::Object(members)))
            }
            Some(b'[') => {
                self.at += 1;
                let start = self.items.len();
                let read = self.array(depth);
                let items = tail(&mut self.items, start);
                read.map(|()| Node::new(pos, Value::Array(items)))
            }
            Some(b'"') => Ok(Node::new(pos, Value::String(self.string()?))),
            Some(b't') => self.literal("true", Value::Bool(true), pos),
            Some(b'f') => self.literal("false", Value::Bool(false), pos),
            Some(b'n') => self.literal("null", Value::Null, pos),
            Some(b'-' | b'0'..=b'9') => self.number(pos),
            _ => Err(self.unexpected("looking for beginning of value")),
        }
    }

    /// An object's members, after its `{`.
    fn object(&mut self, depth: usize) -> Result<Box<[Member]>, JsonError> {
        let start = self.members.len();
        let read = self.members_into_scratch(depth);
        let members = tail(&mut self.members, start);
        read.map(|()| collect_members(members))
    }

    /// Push an object's members on `self.members`, after its `{`, up to and past its `}`.
    fn members_into_scratch(&mut self, depth: usize) -> Result<(), JsonError> {
        self.elements(b'}', "after object key:value pair", |r| {
            if r.bytes.get(r.at) != Some(&b'"') {
                return Err(r.unexpected("looking for beginning of object key string"));
            }
            let key_pos = r.pos();
            let key = r.string()?;
            r.skip_ws();
            if r.bytes.get(r.at) != Some(&b':') {
                return Err(r.unexpected("after object key"));
            }
            r.at += 1;
            r.skip_ws();
            let value = r.value(depth + 1)?;
            r.members.push(Member { key, key_pos, value });
            Ok(())
        })
    }

    /// Push an array's items on `self.items`, after its `[`, up to and past its `]`.
    fn array(&mut self, depth: usize) -> Result<(), JsonError> {
        self.elements(b']', "after array element", |r| {
            let item = r.value(depth + 1)?;
            r.items.push(item);
            Ok(())
        })
    }

    /// The elements of an object or array up to and past its `close`, each read by `element`
    /// (at its first character), separated by commas; `after`: where a wrong separator is.
    fn elements(
        &mut self,
        close: u8,
        after: &str,
        mut element: impl FnMut(&mut Self) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        self.skip_ws();
        if self.bytes.get(self.at) == Some(&close) {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.skip_ws();
            element(self)?;
            self.skip_ws();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(&b) if b == close => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected(after)),
            }
        }
    }

    fn literal(&mut self, word: &str, value: Value, pos: Pos) -> Result<Node, JsonError> {
        for (i, expected) in word.bytes().enumerate() {
            match self.bytes.get(self.at) {
                Some(&b) if b == expected => self.at += 1,
                _ => {
                    let ctx = format!("in literal {} (expecting {})", word, quote_char(expected as char));
                    if i == 0 {
                        return Err(self.unexpected("looking for beginning of value"));
                    }
                    return Err(self.unexpected(&ctx));
                }
            }
        }
        Ok(Node::new(pos, value))
    }

    fn number(&mut self, pos: Pos) -> Result<Node, JsonError> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        match self.bytes.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.bytes.get(self.at), Some(b'0'..=b'9')) {
                    self.at += 1;
                }
            }
            _ => return Err(self.unexpected("in numeric literal")),
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if !matches!(self.bytes.get(self.at), Some(b'0'..=b'9')) {
                return Err(self.unexpected("after decimal point in numeric literal"));
            }
            while matches!(self.bytes.get(self.at), Some(b'0'..=b'9')) {
                self.at += 1;
            }
        }
        if matches!(self.bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !matches!(self.bytes.get(self.at), Some(b'0'..=b'9')) {
                return Err(self.unexpected("in exponent of numeric literal"));
            }
            while matches!(self.bytes.get(self.at), Some(b'0'..=b'9')) {
                self.at += 1;
            }
        }
        // Go's scanner rejects a literal that runs straight into another number character.
        if matches!(self.bytes.get(self.at), Some(b'-' | b'+')) {
            return Err(self.unexpected("in numeric literal"));
        }
        let text = self.src.get(start..self.at).unwrap_or("0");
        let n = crate::gotext::parse_decimal(text).unwrap_or(f64::NAN);
        if !n.is_finite() {
            return Err(JsonError {
                message: format!("json: cannot unmarshal number {text} into Go value of type float64"),
                pos,
            });
        }
        Ok(Node::new(pos, Value::Number(n)))
    }

    /// A string literal, the reader at its opening quote: a fast scan while there is no escape.
    fn string(&mut self) -> Result<Str, JsonError> {
        // Opening quote.
        self.at += 1;
        let start = self.at;
        // Fast path: no escapes.
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b'"' => {
                    let s = Str::from(self.src.get(start..self.at).unwrap_or(""));
                    self.at += 1;
                    return Ok(s);
                }
                b'\\' => break,
                b if b < 0x20 => return Err(self.unexpected("in string literal")),
                _ => self.at += 1,
            }
        }
        let out = self.src.get(start..self.at).unwrap_or("").to_string();
        // Unescaping grew the text a push at a time: give back the room it did not use.
        self.string_rest(out).map(|mut s| {
            s.shrink_to_fit();
            Str::from(s)
        })
    }

    /// The rest of a string literal from its first escape (or the end of input), appended to `out`.
    fn string_rest(&mut self, mut out: String) -> Result<String, JsonError> {
        loop {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(self.err("unexpected EOF".to_string()));
            };
            match b {
                b'"' => {
                    self.at += 1;
                    return Ok(out);
                }
                // Escapes are decoded here rather than in a helper: one measured slower on escape-heavy text.
                b'\\' => {
                    self.at += 1;
                    let Some(&e) = self.bytes.get(self.at) else {
                        return Err(self.err("unexpected EOF".to_string()));
                    };
                    self.at += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => out.push(self.unicode_escape()?),
                        _ => {
                            self.at -= 1;
                            return Err(self.unexpected("in string escape code"));
                        }
                    }
                }
                b if b < 0x20 => return Err(self.unexpected("in string literal")),
                _ => self.plain_run(&mut out),
            }
        }
    }

    /// Copy the run of characters up to the next quote, backslash or control byte into `out`.
    fn plain_run(&mut self, out: &mut String) {
        let run_start = self.at;
        while let Some(&b) = self.bytes.get(self.at) {
            if b == b'"' || b == b'\\' || b < 0x20 {
                break;
            }
            self.at += 1;
        }
        out.push_str(self.src.get(run_start..self.at).unwrap_or(""));
    }

    /// The character of a `\u` escape, the reader after its `u`: U+FFFD for a lone surrogate.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let hi = self.hex4()?;
        let c = if (0xD800..0xDC00).contains(&hi) { self.low_surrogate(hi) } else { char::from_u32(hi) };
        Ok(c.unwrap_or('\u{FFFD}'))
    }

    /// The character of the pair whose high half `hi` was read, or None (reader unmoved) without a low half.
    fn low_surrogate(&mut self, hi: u32) -> Option<char> {
        let save = self.at;
        if self.bytes.get(self.at) != Some(&b'\\') || self.bytes.get(self.at + 1) != Some(&b'u') {
            return None;
        }
        self.at += 2;
        match self.hex4() {
            Ok(lo) if (0xDC00..0xE000).contains(&lo) => char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)),
            _ => {
                self.at = save;
                None
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.bytes.get(self.at) {
                Some(&b @ b'0'..=b'9') => b - b'0',
                Some(&b @ b'a'..=b'f') => b - b'a' + 10,
                Some(&b @ b'A'..=b'F') => b - b'A' + 10,
                _ => return Err(self.unexpected("in \\u hexadecimal character escape")),
            };
            v = v * 16 + d as u32;
            self.at += 1;
        }
        Ok(v)
    }
}

/// Add a member, replacing the value of an existing identical key (last one wins, as in Go).
pub fn insert_member(members: &mut Vec<Member>, member: Member) {
    if let Some(existing) = members.iter_mut().find(|m| m.key == member.key) {
        *existing = member;
    } else {
        members.push(member);
    }
}

/// Whether two of `members` have the same key. Each key is read once into a fingerprint (its
/// length and first and last bytes); only keys with equal fingerprints are compared.
pub fn has_duplicate_keys(members: &[Member]) -> bool {
    const SMALL: usize = 32;
    if members.len() > SMALL {
        let mut seen = crate::hash::HashSet::default();
        return !members.iter().all(|m| seen.insert(m.key.as_str()));
    }
    if members.len() < 2 {
        return false;
    }
    let mut prints = [0u32; SMALL];
    for (i, m) in members.iter().enumerate() {
        let key = m.key.as_str();
        let b = key.as_bytes();
        let print = (b.len() as u32) << 16
            | u32::from(b.first().copied().unwrap_or(0)) << 8
            | u32::from(b.last().copied().unwrap_or(0));
        if prints[..i].iter().zip(members).any(|(&p, other)| p == print && other.key.as_str() == key) {
            return true;
        }
        prints[i] = print;
    }
    false
}

/// Collect `members` into an object's member list: in order when no key repeats, else each
/// repeated key keeps its first place and its last value ([`insert_member`]).
pub fn collect_members(members: Box<[Member]>) -> Box<[Member]> {
    if !has_duplicate_keys(&members) {
        return members;
    }
    let mut out = Vec::with_capacity(members.len());
    for m in members {
        insert_member(&mut out, m);
    }
    out.into_boxed_slice()
}

/// The elements of a scratch stack from `start` on, taken off it into a slice of exactly their
/// number (`Vec::split_off(0)` would hand over the whole stack's room).
pub fn tail<T>(stack: &mut Vec<T>, start: usize) -> Box<[T]> {
    stack.drain(start..).collect()
}

/// A character quoted as Go's JSON scanner does in its messages.
pub fn quote_char(c: char) -> String {
    match c {
        '\'' => "'\\''".to_string(),
        '"' => "'\"'".to_string(),
        c if c.is_control() => format!("'{}'", c.escape_default()),
        c => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(src: &str) -> Result<Vec<Node>, JsonError> {
        let mut r = JsonReader::new(src, 1);
        let mut out = Vec::new();
        while !r.at_end() {
            out.push(r.next_value()?);
        }
        Ok(out)
    }

    fn member(key: &str) -> Member {
        Member { key: key.into(), key_pos: Pos::default(), value: Node::new(Pos::default(), Value::Null) }
    }

    #[test]
    fn duplicate_keys_are_found_among_few_and_many_members() {
        let keys = |ks: &[&str]| ks.iter().map(|k| member(k)).collect::<Vec<_>>();
        assert!(!has_duplicate_keys(&keys(&[])));
        assert!(!has_duplicate_keys(&keys(&["ab", "ba", "axb", "a-b"])));
        assert!(has_duplicate_keys(&keys(&["ab", "ba", "axb", "ab"])));
        let many: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        let mut ms = keys(&many.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(!has_duplicate_keys(&ms));
        ms.push(member("k7"));
        assert!(has_duplicate_keys(&ms));
    }

    #[test]
    fn collected_members_keep_the_first_place_and_the_last_value_of_a_repeated_key() {
        let mut ms = vec![member("a"), member("b"), member("a")];
        ms[2].value.value = Value::Bool(true);
        let out = collect_members(ms.into());
        assert_eq!(out.iter().map(|m| m.key.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(out[0].value.value, Value::Bool(true));
    }

    #[test]
    fn reads_concatenated_objects_with_positions() {
        let v = read_all("{\"a\": 1}{\"b\": [true, null]}\n  {\"c\": \"x\\u00e9\\ud83d\\ude00\"}").unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[1].pos, Pos::new(1, 9));
        assert_eq!(v[2].pos, Pos::new(2, 3));
        assert_eq!(v[2].get("c").unwrap().as_str(), Some("xé😀"));
        assert_eq!(v[2].field("c").unwrap().key_pos, Pos::new(2, 4));
    }

    #[test]
    fn columns_count_characters() {
        let v = read_all("{\"é\": \"ü\", \"k\": 2}").unwrap();
        assert_eq!(v[0].field("k").unwrap().value.pos, Pos::new(1, 17));
    }

    #[test]
    fn go_style_errors() {
        assert_eq!(read_all("{\"a\" 1}").unwrap_err().message, "invalid character '1' after object key");
        assert_eq!(
            read_all("{\"a\":1,}").unwrap_err().message,
            "invalid character '}' looking for beginning of object key string"
        );
        assert_eq!(read_all("{}\n---").unwrap_err().message, "invalid character '-' in numeric literal");
        assert_eq!(read_all("{\"a\":").unwrap_err().message, "unexpected EOF");
        assert_eq!(
            read_all("{\"a\":tru}").unwrap_err().message,
            "invalid character '}' in literal true (expecting 'e')"
        );
    }

    #[test]
    fn duplicate_keys_keep_last_value() {
        let v = read_all("{\"a\":1,\"a\":2}").unwrap();
        assert_eq!(v[0].as_object().unwrap().len(), 1);
        assert_eq!(v[0].get("a").unwrap().value, Value::Number(2.0));
    }

    /// Arrays and objects are boxed slices (no spare room by their type); an escaped string gives
    /// back what its growth left over.
    #[test]
    fn escaped_strings_keep_no_spare_room() {
        let text =
            format!(r#"{{"a":[1,{{"b":2,"c":[3,4,5]}},6],"d":{{"e":"{}\n"}},"f":[],"g":{{}}}}"#, "x".repeat(100));
        let v = read_all(&text).unwrap();
        let top = v[0].as_object().unwrap();
        assert_eq!(top.iter().map(|m| m.key.as_str()).collect::<Vec<_>>(), ["a", "d", "f", "g"]);
        let Value::Array(a) = &v[0].get("a").unwrap().value else { panic!("an array") };
        assert_eq!(a.len(), 3);
        let inner = a[1].as_object().unwrap();
        assert_eq!(inner.iter().map(|m| m.key.as_str()).collect::<Vec<_>>(), ["b", "c"]);
        let Value::Array(c) = &a[1].get("c").unwrap().value else { panic!("an array") };
        assert_eq!(c.len(), 3);
        let Value::String(e) = &v[0].get("d").unwrap().get("e").unwrap().value else { panic!("a string") };
        assert_eq!((e.len(), e.capacity()), (101, 101));
    }

    #[test]
    fn a_reader_goes_on_reading_after_a_value_of_several_levels() {
        let v = read_all(r#"{"a":{"b":[1,{"c":2}]}} {"d":[3]}"#).unwrap();
        assert_eq!(v[0].get("a").unwrap().get("b").unwrap().to_go_json(), "[1,{\"c\":2}]");
        assert_eq!(v[1].get("d").unwrap().to_go_json(), "[3]");
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(MAX_DEPTH + 5);
        assert_eq!(read_all(&deep).unwrap_err().message, "exceeded max depth");
    }
}
