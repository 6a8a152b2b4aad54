//! go-cmp's reporter, as far as it decides the lines it marks `-` and `+`: which records of a
//! difference are printed as removed/inserted values and which are descended into, how a value
//! is printed (types shown or elided, zero fields left out, lists cut by verbosity, long strings
//! cut with `...`, `String()` of API types), and when a printed value spans several lines (a
//! removed or inserted value longer than 80 columns, or holding a multi-line part). Lines of
//! unchanged context are not produced: the preflight reads only the marked ones.

use super::tree::{Key, Node};
use super::value::{scalar_text, Gv, Kind};

/// A diff mode: unknown (a difference being descended), identical, removed, inserted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Unknown,
    Identical,
    Removed,
    Inserted,
}

impl Mode {
    fn sign(self) -> Option<char> {
        match self {
            Mode::Removed => Some('-'),
            Mode::Inserted => Some('+'),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TypeMode {
    Emit,
    Elide,
    Auto,
}

/// Printed text: a line, a wrapped node (`prefix value suffix`), or a list of records.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Text {
    Line(String),
    Wrap(String, Box<Text>, String),
    List(Vec<Rec>),
}

/// One record of a list: its mark, key and value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rec {
    pub mode: Mode,
    pub key: String,
    pub value: Text,
    /// Lines of a triple-quoted string carry no comma and are always on their own line.
    pub bare: bool,
}

const ELLIPSIS: &str = "...";

fn rec(key: String, value: Text) -> Rec {
    Rec { mode: Mode::Unknown, key, value, bare: false }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Opts {
    mode: Mode,
    types: TypeMode,
    verbosity: i64,
    limit: bool,
    avoid_stringer: bool,
}

impl Opts {
    pub(crate) fn root() -> Opts {
        Opts { mode: Mode::Unknown, types: TypeMode::Emit, verbosity: 0, limit: false, avoid_stringer: false }
    }

    fn level(&self) -> u32 {
        self.verbosity.clamp(0, 16) as u32
    }

    fn with_mode(self, mode: Mode) -> Opts {
        Opts { mode, ..self }
    }

    fn with_types(self, types: TypeMode) -> Opts {
        Opts { types, ..self }
    }

    fn with_verbosity(self, verbosity: i64) -> Opts {
        Opts { verbosity, limit: true, ..self }
    }

    fn preset(self, i: i64) -> Opts {
        Opts { verbosity: i64::from(self.level()) + 2 * i, avoid_stringer: self.avoid_stringer || i > 0, ..self }
    }

    /// go-cmp's `FormatDiff`.
    pub(crate) fn format_diff(self, v: &Node, parent: Option<Kind>) -> Option<Text> {
        let opts = match self.mode {
            Mode::Identical => self.with_verbosity(1),
            _ if self.level() < 3 => self.with_verbosity(3),
            _ => self,
        };
        if opts.mode == Mode::Identical {
            // Unchanged context: never marked, so its text is not needed.
            return Some(Text::Line(ELLIPSIS.into()));
        }
        if opts.mode == Mode::Unknown && can_format_diff_slice(v) {
            return Some(Text::Line(ELLIPSIS.into()));
        }
        if v.max_depth == 0 {
            return match opts.mode {
                Mode::Removed => opts.format_value(v.x?, parent),
                Mode::Inserted => opts.format_value(v.y?, parent),
                _ => Some(Text::Line(ELLIPSIS.into())),
            };
        }
        let sample = v.x.or(v.y)?;
        match sample.kind() {
            Kind::Struct | Kind::Slice | Kind::Map => {
                let list = opts.format_diff_list(&v.records, sample.kind());
                Some(opts.format_type(sample, list))
            }
            Kind::Ptr => {
                let inner = opts.format_diff(v.value.as_deref()?, Some(Kind::Ptr))?;
                Some(Text::Wrap("&".into(), Box::new(inner), String::new()))
            }
            _ => None,
        }
    }

    fn format_diff_list(mut self, records: &[(Key, Node)], kind: Kind) -> Text {
        self.types = if kind == Kind::Struct { TypeMode::Auto } else { TypeMode::Elide };
        let mut max = -1i64;
        if self.limit {
            max = if self.mode == Mode::Identical {
                i64::from(((1u32 << self.level()) >> 1) << 2)
            } else {
                i64::from((1u32 << self.level()) << 1)
            };
            self.verbosity -= 1;
        }
        if self.mode != Mode::Unknown {
            return self.format_whole_list(records, kind, max);
        }
        let mut list = Vec::new();
        let mut diffs = 0i64;
        let mut dropped = false;
        for group in records.chunk_by(|(_, a), (_, b)| (a.num_diff == 0) == (b.num_diff == 0)) {
            if group[0].1.num_diff == 0 {
                list.push(rec(String::new(), Text::Line(ELLIPSIS.into())));
                continue;
            }
            if max >= 0 && diffs >= max {
                dropped = true;
                continue;
            }
            for (k, r) in group {
                self.diff_record(k, r, &mut list);
            }
            diffs += group.len() as i64;
        }
        if dropped {
            list.push(rec(String::new(), Text::Line(ELLIPSIS.into())));
        }
        Text::Wrap("{".into(), Box::new(Text::List(list)), "}".into())
    }

    /// A list printed whole as removed or inserted (a chain of single children).
    fn format_whole_list(self, records: &[(Key, Node)], kind: Kind, max: i64) -> Text {
        let mut list = Vec::new();
        for (k, r) in records {
            if list.len() as i64 == max {
                list.push(rec(String::new(), Text::Line(ELLIPSIS.into())));
                break;
            }
            let side = if self.mode == Mode::Removed { r.x } else { r.y };
            if kind == Kind::Struct && side.is_none_or(Gv::is_zero) {
                continue;
            }
            if let Some(out) = self.format_diff(r, Some(kind)) {
                list.push(rec(key_text(k), out));
            }
        }
        Text::Wrap("{".into(), Box::new(Text::List(list)), "}".into())
    }

    fn diff_record(self, k: &Key, r: &Node, list: &mut Vec<Rec>) {
        if can_format_diff_slice(r) {
            list.push(rec(key_text(k), Text::Line(ELLIPSIS.into())));
        } else if r.num_children == r.max_depth {
            let mut outx = self.with_mode(Mode::Removed).format_diff(r, None);
            let mut outy = self.with_mode(Mode::Inserted).format_diff(r, None);
            let mut i = 0;
            while i <= 6 && outx.is_some() && outx == outy {
                let o = self.preset(i);
                outx = o.with_mode(Mode::Removed).format_diff(r, None);
                outy = o.with_mode(Mode::Inserted).format_diff(r, None);
                i += 1;
            }
            for (mode, out) in [(Mode::Removed, outx), (Mode::Inserted, outy)] {
                if let Some(value) = out {
                    list.push(Rec { mode, key: key_text(k), value, bare: false });
                }
            }
        } else if let Some(out) = self.format_diff(r, None) {
            list.push(rec(key_text(k), out));
        }
    }

    fn format_type(self, v: &Gv, s: Text) -> Text {
        let show = match self.types {
            TypeMode::Elide => false,
            TypeMode::Emit => true,
            TypeMode::Auto => {
                matches!(v.kind(), Kind::Struct | Kind::Slice | Kind::Map)
                    && s != Text::Line("nil".into())
                    && self.mode != Mode::Identical
            }
        };
        if !show {
            return s;
        }
        let braced = matches!(&s, Text::Wrap(p, _, x) if (p.starts_with('{') && x.ends_with('}')) || (p.starts_with('(') && x.ends_with(')')));
        let s = if braced { s } else { Text::Wrap("(".into(), Box::new(s), ")".into()) };
        Text::Wrap(v.type_name().into(), Box::new(s), String::new())
    }

    /// How many members a printed list shows; lowers the verbosity of what is inside.
    fn cap(&mut self, len: usize) -> usize {
        if !self.limit {
            return len;
        }
        let max = ((1usize << self.level()) >> 1) << 2;
        self.verbosity -= 1;
        max
    }

    /// go-cmp's `FormatValue` for a value printed whole.
    fn format_value(self, v: &Gv, parent: Option<Kind>) -> Option<Text> {
        let _ = parent;
        if let (false, Gv::Ptr(Some(_), Some(text))) = (self.avoid_stringer, v) {
            return Some(self.format_string("s", text));
        }
        if let Some(text) = scalar_text(v) {
            return Some(Text::Line(text));
        }
        let mut o = self;
        let out = match v {
            Gv::Str(s) => return Some(self.format_string("", s)),
            Gv::Ptr(None, _) | Gv::Slice(_, None) | Gv::Map(_, None) => Text::Line("nil".into()),
            Gv::Ptr(Some(inner), _) => {
                let inner = self.format_value(inner, Some(Kind::Ptr))?;
                return Some(Text::Wrap("&".into(), Box::new(inner), String::new()));
            }
            Gv::Struct(_, fields) => {
                let max = o.cap(fields.len());
                let mut list = Vec::new();
                for (name, f) in fields.iter().filter(|(_, f)| !f.is_zero()) {
                    if list.len() == max {
                        list.push(rec(String::new(), Text::Line(ELLIPSIS.into())));
                        break;
                    }
                    list.push(rec((*name).into(), o.with_types(TypeMode::Auto).format_value(f, Some(Kind::Struct))?));
                }
                Text::Wrap("{".into(), Box::new(Text::List(list)), "}".into())
            }
            Gv::Slice(_, Some(items)) => {
                let max = o.cap(items.len());
                let mut list = Vec::new();
                for item in items {
                    if list.len() == max {
                        list.push(rec(String::new(), Text::Line(ELLIPSIS.into())));
                        break;
                    }
                    list.push(rec(String::new(), o.with_types(TypeMode::Elide).format_value(item, Some(Kind::Slice))?));
                }
                Text::Wrap("{".into(), Box::new(Text::List(list)), "}".into())
            }
            Gv::Map(_, Some(entries)) => {
                let max = o.cap(entries.len());
                let mut list = Vec::new();
                for (k, item) in entries {
                    if list.len() == max {
                        list.push(rec(String::new(), Text::Line(ELLIPSIS.into())));
                        break;
                    }
                    let value = o.with_types(TypeMode::Elide).format_value(item, Some(Kind::Map))?;
                    list.push(rec(go_string(k), value));
                }
                Text::Wrap("{".into(), Box::new(Text::List(list)), "}".into())
            }
            _ => return None,
        };
        Some(self.format_type(v, out))
    }

    /// go-cmp's `formatString`: cut to the verbosity's length, or triple-quoted when a removed or
    /// inserted string has four lines or more.
    fn format_string(self, prefix: &str, s: &str) -> Text {
        let (max_len, max_lines) = if self.limit {
            ((1usize << self.level()) << 5, (1usize << self.level()) << 2)
        } else {
            (s.len(), s.matches('\n').count() + 1)
        };
        let lines: Vec<&str> = s.strip_suffix('\n').unwrap_or(s).split('\n').collect();
        let printable = |l: &str| l.chars().all(|c| c == '\t' || crate::gotext::is_go_print(c));
        let triple = lines.len() >= 4
            && matches!(self.mode, Mode::Removed | Mode::Inserted)
            && lines.iter().all(|l| {
                let l = l.trim_end_matches('\r').trim_start_matches('\r');
                !l.strip_prefix(prefix).unwrap_or(l).starts_with("\"\"\"")
                    && !l.starts_with("...")
                    && printable(l)
                    && l.len() <= max_len
            });
        if triple {
            let bare = |t: String| Rec { mode: self.mode, key: String::new(), value: Text::Line(t), bare: true };
            let mut list = vec![bare(format!("{prefix}\"\"\""))];
            for (i, line) in lines.iter().enumerate() {
                if i + 1 == max_lines && lines.len() - i > 1 {
                    list.push(bare(ELLIPSIS.into()));
                    break;
                }
                list.push(bare(line.trim_end_matches('\r').trim_start_matches('\r').to_string()));
            }
            list.push(bare(format!("{prefix}\"\"\"")));
            return Text::Wrap("(".into(), Box::new(Text::List(list)), ")".into());
        }
        if s.len() > max_len + ELLIPSIS.len() {
            return Text::Line(format!("{prefix}{}{ELLIPSIS}", go_string_bytes(&s.as_bytes()[..max_len])));
        }
        Text::Line(format!("{prefix}{}", go_string(s)))
    }
}

fn key_text(k: &Key) -> String {
    match k {
        Key::None => String::new(),
        Key::Field(f) => (*f).to_string(),
        Key::Map(m) => go_string(m),
    }
}

/// go-cmp's specialised diff of long strings and of slices of scalars (printed as chunks, no
/// keys: the preflight finds no `field: value` in them).
fn can_format_diff_slice(v: &Node) -> bool {
    if v.num_diff == 0 {
        return false;
    }
    match (v.x, v.y) {
        (Some(Gv::Str(a)), Some(Gv::Str(b))) => a.len() >= 32 && b.len() >= 32,
        (Some(Gv::Slice(_, Some(a))), Some(Gv::Slice(_, Some(b)))) => {
            let scalar = a.iter().chain(b).all(|e| scalar_text(e).is_some() || matches!(e, Gv::Str(_)));
            scalar && !a.is_empty() && !b.is_empty() && (v.num_diff > 32 || (a.len() >= 32 && b.len() >= 32))
        }
        _ => false,
    }
}

/// go-cmp's quoting: Go's `%q`, or backquotes when that is shorter to read (printable, no
/// backquote or newline).
pub(crate) fn go_string(s: &str) -> String {
    let q = crate::gotext::quote(s);
    if q.len() == s.len() + 2 {
        return q;
    }
    if s.chars().all(|c| c != '`' && c != '\n' && (c == '\t' || crate::gotext::is_go_print(c))) {
        return format!("`{s}`");
    }
    q
}

/// [`go_string`] of a byte string cut at a byte count (possibly inside a character, which Go
/// quotes byte by byte).
fn go_string_bytes(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s) => go_string(s),
        Err(e) => {
            let valid = std::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or("");
            let mut q = crate::gotext::quote(valid);
            q.pop();
            for byte in &b[e.valid_up_to()..] {
                q.push_str(&format!("\\x{byte:02x}"));
            }
            q.push('"');
            q
        }
    }
}

/// The lines of `text` marked `-` or `+`, without their marks and indentation.
pub(crate) fn marked_lines(text: &Text) -> Vec<(char, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    expand(text, None, &mut current, &mut out);
    out
}

/// Expanded printing: `current` is the line being built; `mark` the mode inherited by the lines
/// this text starts.
fn expand(text: &Text, mark: Option<char>, current: &mut String, out: &mut Vec<(char, String)>) {
    match text {
        Text::Line(l) => current.push_str(l),
        Text::Wrap(prefix, inner, suffix) => {
            current.push_str(prefix);
            match compact(inner, mark) {
                Some(line) => current.push_str(&line),
                None => expand(inner, mark, current, out),
            }
            current.push_str(suffix);
        }
        Text::List(recs) => {
            // The line opening the list is printed before its records.
            if let Some(m) = mark {
                out.push((m, std::mem::take(current)));
            }
            current.clear();
            for r in recs {
                let line_mark = mark.or(r.mode.sign());
                let mut line = String::new();
                if !r.key.is_empty() {
                    line.push_str(&r.key);
                    line.push_str(": ");
                }
                match compact(&r.value, line_mark) {
                    Some(v) => line.push_str(&v),
                    None => expand(&r.value, line_mark, &mut line, out),
                }
                if !r.bare {
                    line.push(',');
                }
                if let Some(m) = line_mark {
                    out.push((m, line));
                }
            }
        }
    }
}

/// The single-line form of `text` under `mark`, when go-cmp prints it on one line.
fn compact(text: &Text, mark: Option<char>) -> Option<String> {
    match text {
        Text::Line(l) => Some(l.clone()),
        Text::Wrap(prefix, inner, suffix) => Some(format!("{prefix}{}{suffix}", compact(inner, mark)?)),
        Text::List(recs) => {
            let mut line = String::new();
            for (i, r) in recs.iter().enumerate() {
                if r.mode != Mode::Unknown || r.bare {
                    return None;
                }
                if !r.key.is_empty() {
                    line.push_str(&r.key);
                    line.push_str(": ");
                }
                line.push_str(&compact(&r.value, mark.or(r.mode.sign()))?);
                if i + 1 < recs.len() {
                    line.push_str(", ");
                }
            }
            if mark.is_some() && line.len() > 80 {
                return None;
            }
            Some(line)
        }
    }
}
