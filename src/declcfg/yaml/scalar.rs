//! YAML 1.1 scalar resolution exactly as opm sees it: what JSON value one YAML scalar becomes
//! when sigs.k8s.io/yaml (v1.6.0, on go.yaml.in/yaml/v2 = go-yaml v2.4) decodes a document into
//! `interface{}` and converts it to JSON.
//!
//! This module owns:
//! - [`resolve`]: go-yaml v2's `resolve` plus the `decoder.scalar` rules for an `interface{}`
//!   target (quoted and block scalars are strings unless tagged, timestamps stay strings,
//!   `!!binary` is base64-decoded, `!!float` accepts integers, tag mismatches are errors);
//! - [`key_text`] / [`key_error`]: how sigs.k8s.io/yaml's `convertToJSONableObject` turns a
//!   non-string map key into a JSON object key (floats use 32-bit `%g`, `uint64` and null keys
//!   are rejected);
//! - [`go_json_number`] and [`format_float_g`]: Go's `encoding/json` and `strconv` float text;
//! - [`is_merge_key`]: go-yaml v2's `isMerge` test for `<<`.
//!
//! Facts followed (go-yaml v2 `resolve.go`, `decode.go`, `parserc.go`; Go `strconv`, `time`,
//! `encoding/base64`, `encoding/json`; sigs.k8s.io/yaml `yaml.go`):
//! - Only an untagged plain scalar, or a scalar with a core tag, is resolved. A quoted or block
//!   scalar without a tag is a string. A non-specific `!` tag or any non-core tag (`!foo`,
//!   `!!seq`, `!!merge`, ...) makes the scalar a string, whatever its style.
//! - Resolution is keyed on the first byte: sign, digit, one of `yYnNtTfFoO~`, `.`, or the empty
//!   string. Anything else is a string at once (so `<<`, `'x'`, `-` and so on).
//! - Integers go through Go's `strconv.ParseInt(s, 0, 64)` after *all* `_` are removed, so
//!   `0x1F`, `0o17`, `0b101`, `0777` (octal), `+5` are integers; `08` is not octal and falls
//!   through to a float 8. Values above `i64::MAX` become `uint64`, larger ones a float when they
//!   look decimal (`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`), else a string.
//!   Out-of-range floats (`1e999`) are strings, not infinities.
//! - JSON output: integers print as integers; floats with Go's `json.Marshal` rules, so `1.0`
//!   becomes `1`; NaN and infinities make the whole conversion fail.

/// What a YAML scalar resolves to, as the Go value go-yaml v2 produces in an `interface{}`.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// `nil`: `~`, `null`, `Null`, `NULL`, an empty plain scalar, or `!!null`.
    Null,
    /// YAML 1.1 booleans (`y`, `yes`, `on`, `true`, ... and their negatives).
    Bool(bool),
    /// Go `int`/`int64`: every integer that fits in 64-bit signed.
    Int(i64),
    /// Go `uint64`: integers above `i64::MAX` that still fit 64 bits unsigned.
    Uint(u64),
    /// Go `float64` (may be NaN or infinite for `.nan` / `.inf`).
    Float(f64),
    /// A string (also timestamps, `!!binary` data and every non-core tag).
    Str(String),
}

/// Resolve a scalar the way go-yaml v2 decodes it into `interface{}`.
///
/// - `text`: the scalar's value after YAML parsing (escapes and folding applied).
/// - `plain`: true for an unquoted plain scalar; false for single/double quoted, literal, folded.
/// - `tag`: `None` when untagged. A core tag may be given as its suffix (`"int"`), as `"!!int"`,
///   or in long form `"tag:yaml.org,2002:int"`. `"!"` is the non-specific tag; other values
///   starting with `!`, or containing `:`, are non-core tags.
///
/// Errors carry go-yaml's text without its `yaml: ` prefix, e.g.
/// ``cannot decode !!str `abc` as a !!int`` (go-yaml reports these without a line number).
pub fn resolve(text: &str, plain: bool, tag: Option<&str>) -> Result<Scalar, String> {
    let want = match tag {
        None if plain => Want::Any,
        None => return Ok(Scalar::Str(text.to_string())),
        Some(t) => match classify_tag(t) {
            TagClass::Core(name) => match name {
                "str" => Want::Str,
                "bool" => Want::Bool,
                "int" => Want::Int,
                "float" => Want::Float,
                "null" => Want::Null,
                "timestamp" => Want::Timestamp,
                "binary" => {
                    return match go_base64_decode(text) {
                        Some(bytes) => Ok(Scalar::Str(go_lossy_utf8(&bytes))),
                        None => Err("!!binary value contains invalid base64 data".to_string()),
                    };
                }
                // Not resolvable (`!!merge`, `!!seq`, `!!map`, `!!omap`, unknown): a string.
                _ => return Ok(Scalar::Str(text.to_string())),
            },
            TagClass::Other => return Ok(Scalar::Str(text.to_string())),
        },
    };
    let got = resolve_implicit(text, want);
    let got = match (want, got) {
        (Want::Any | Want::Str, g) => g,
        (w, g) if w.kind() == g.kind() => g,
        (Want::Float, Resolved::Int(i)) => Resolved::Float(i as f64),
        (w, g) => return Err(format!("cannot decode !!{} `{}` as a !!{}", g.kind(), text, w.kind())),
    };
    Ok(match got {
        Resolved::Null => Scalar::Null,
        Resolved::Bool(b) => Scalar::Bool(b),
        Resolved::Int(i) => Scalar::Int(i),
        Resolved::Uint(u) => Scalar::Uint(u),
        Resolved::Float(f) => Scalar::Float(f),
        // Timestamps are kept as their text when the target is interface{}.
        Resolved::Str | Resolved::Timestamp => Scalar::Str(text.to_string()),
    })
}

/// Whether a mapping key is a merge key (`<<`) for go-yaml v2: the value is `<<` and the scalar
/// is implicit (plain and untagged, or tagged with the non-specific `!`) or tagged `!!merge`.
/// A quoted `"<<"` without a tag is an ordinary key.
pub fn is_merge_key(text: &str, plain: bool, tag: Option<&str>) -> bool {
    if text != "<<" {
        return false;
    }
    match tag {
        None => plain,
        Some("!") => true,
        Some(t) => matches!(classify_tag(t), TagClass::Core("merge")),
    }
}

/// The JSON object key text sigs.k8s.io/yaml produces for a map key that resolved to `s`:
/// strings as is, `true`/`false`, integers in decimal, floats with Go
/// `strconv.FormatFloat(f, 'g', -1, 32)` (32-bit precision, `1e+06` style) with `.inf`, `-.inf`
/// and `.nan` for the special values.
///
/// sigs.k8s.io/yaml *rejects* null and `uint64` keys (see [`key_error`]); for those this returns
/// `"null"` and the decimal value so callers that only need a name still get one.
pub fn key_text(s: &Scalar) -> String {
    match s {
        Scalar::Str(t) => t.clone(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Uint(u) => u.to_string(),
        Scalar::Null => "null".to_string(),
        Scalar::Float(f) => match format_float_g(*f, 32).as_str() {
            "+Inf" => ".inf".to_string(),
            "-Inf" => "-.inf".to_string(),
            "NaN" => ".nan".to_string(),
            other => other.to_string(),
        },
    }
}

/// The error sigs.k8s.io/yaml's `convertToJSONableObject` raises for a map key of this kind, if
/// any: null keys (Go `nil`) and `uint64` keys have no case there. The real message goes on with
/// `, value: %+#v` of the entry's value, which the caller may append.
pub fn key_error(s: &Scalar) -> Option<String> {
    match s {
        Scalar::Null => Some("unsupported map key of type: %!s(<nil>), key: <nil>".to_string()),
        Scalar::Uint(u) => Some(format!("unsupported map key of type: uint64, key: {u:#x}")),
        _ => None,
    }
}

/// The JSON text Go's `encoding/json` writes for a scalar that is a number (`None` for null,
/// booleans and strings). Errors as [`go_json_number`] for NaN and infinities.
pub fn json_number_text(s: &Scalar) -> Option<Result<String, String>> {
    match s {
        Scalar::Int(i) => Some(Ok(i.to_string())),
        Scalar::Uint(u) => Some(Ok(u.to_string())),
        Scalar::Float(f) => Some(go_json_number(*f)),
        _ => None,
    }
}

/// The JSON number text Go's `json.Marshal` writes for a `float64`: shortest digits, plain
/// decimal notation unless `abs < 1e-6` or `abs >= 1e21` (then `1e+21`, `1.5e-7`), `-0` for
/// negative zero. NaN and infinities are errors worded like Go's
/// (`json: unsupported value: +Inf`).
pub fn go_json_number(f: f64) -> Result<String, String> {
    if !f.is_finite() {
        return Err(format!("json: unsupported value: {}", format_float_g(f, 64)));
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let (digits, dp) = shortest_digits_f64(abs);
        let mut s = fmt_e(f.is_sign_negative(), &digits, dp);
        // Go cleans e-07 up to e-7.
        let b = s.as_bytes();
        let n = b.len();
        if n >= 4 && b[n - 4] == b'e' && b[n - 3] == b'-' && b[n - 2] == b'0' {
            s.remove(n - 2);
        }
        Ok(s)
    } else if abs == 0.0 {
        Ok(if f.is_sign_negative() { "-0" } else { "0" }.to_string())
    } else {
        let (digits, dp) = shortest_digits_f64(abs);
        Ok(fmt_f(f.is_sign_negative(), &digits, dp))
    }
}

/// Go `strconv.FormatFloat(f, 'g', -1, bit_size)`; `bit_size` 32 first rounds to `float32`
/// (anything but 32 means 64). Special values print as `NaN`, `+Inf`, `-Inf`.
pub fn format_float_g(f: f64, bit_size: u32) -> String {
    let (neg, digits, dp) = if bit_size == 32 {
        let g = f as f32;
        if g.is_nan() {
            return "NaN".to_string();
        }
        if g.is_infinite() {
            return if g > 0.0 { "+Inf" } else { "-Inf" }.to_string();
        }
        if g == 0.0 {
            return if g.is_sign_negative() { "-0" } else { "0" }.to_string();
        }
        let (d, dp) = shortest_digits_f32(g.abs());
        (g.is_sign_negative(), d, dp)
    } else {
        if f.is_nan() {
            return "NaN".to_string();
        }
        if f.is_infinite() {
            return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
        }
        if f == 0.0 {
            return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
        }
        let (d, dp) = shortest_digits_f64(f.abs());
        (f.is_sign_negative(), d, dp)
    };
    // Shortest %g: exponent form when the exponent is < -4 or >= 6 (Go uses precision 6 for
    // this decision whenever the precision is "shortest").
    let exp = dp - 1;
    if !(-4..6).contains(&exp) {
        fmt_e(neg, &digits, dp)
    } else {
        fmt_f(neg, &digits, dp)
    }
}

// ---------------------------------------------------------------------------------------------
// Resolution internals
// ---------------------------------------------------------------------------------------------

/// The tag a scalar is decoded with.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Want {
    Any,
    Str,
    Bool,
    Int,
    Float,
    Null,
    Timestamp,
}

impl Want {
    fn kind(self) -> &'static str {
        match self {
            Want::Any => "",
            Want::Str => "str",
            Want::Bool => "bool",
            Want::Int => "int",
            Want::Float => "float",
            Want::Null => "null",
            Want::Timestamp => "timestamp",
        }
    }
}

/// What `resolve` found, with its tag.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str,
    Timestamp,
}

impl Resolved {
    fn kind(self) -> &'static str {
        match self {
            Resolved::Null => "null",
            Resolved::Bool(_) => "bool",
            Resolved::Int(_) | Resolved::Uint(_) => "int",
            Resolved::Float(_) => "float",
            Resolved::Str => "str",
            Resolved::Timestamp => "timestamp",
        }
    }
}

enum TagClass<'a> {
    /// A `tag:yaml.org,2002:` tag, by suffix.
    Core(&'a str),
    /// `!`, a local `!foo` tag, or a URI from another authority.
    Other,
}

const CORE_PREFIX: &str = "tag:yaml.org,2002:";

fn classify_tag(t: &str) -> TagClass<'_> {
    if let Some(s) = t.strip_prefix(CORE_PREFIX) {
        TagClass::Core(s)
    } else if let Some(s) = t.strip_prefix("!!") {
        TagClass::Core(s)
    } else if t.starts_with('!') || t.contains(':') {
        TagClass::Other
    } else {
        TagClass::Core(t)
    }
}

/// go-yaml v2 `resolve` for a resolvable tag other than `!!str`'s early exit (`want` is only
/// consulted for the timestamp attempt; the caller checks the result against it).
fn resolve_implicit(text: &str, want: Want) -> Resolved {
    if want == Want::Str {
        return Resolved::Str;
    }
    let hint = match text.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => return Resolved::Str,
    };
    if let Some(r) = lookup(text) {
        return r;
    }
    match hint {
        b'.' => {
            if let Some(f) = go_parse_float_dot(text) {
                return Resolved::Float(f);
            }
        }
        b'D' | b'S' => {
            if matches!(want, Want::Any | Want::Timestamp) && parse_timestamp(text) {
                return Resolved::Timestamp;
            }
            let plain: String = text.chars().filter(|&c| c != '_').collect();
            if let Ok(i) = go_parse_int(&plain, 0) {
                return Resolved::Int(i);
            }
            if let Ok(u) = go_parse_uint(&plain, 0) {
                return Resolved::Uint(u);
            }
            if yaml_style_float(&plain) {
                // Rust and Go both round correctly; Go reports overflow as an error.
                if let Some(f) = plain.parse::<f64>().ok().filter(|f| f.is_finite()) {
                    return Resolved::Float(f);
                }
            }
            if let Some(rest) = plain.strip_prefix("0b") {
                // Base 2 after the prefix, through ParseInt, which still accepts a sign here.
                if let Ok(i) = go_parse_int(rest, 2) {
                    return Resolved::Int(i);
                }
                if let Ok(u) = go_parse_uint(rest, 2) {
                    return Resolved::Uint(u);
                }
            } else if let Some(Ok(i)) = plain.strip_prefix("-0b").map(|rest| go_parse_int(&format!("-{rest}"), 2)) {
                return Resolved::Int(i);
            }
        }
        _ => {}
    }
    Resolved::Str
}

/// go-yaml v2's `resolveMap` (YAML 1.1 booleans, nulls, special floats).
fn lookup(text: &str) -> Option<Resolved> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Resolved::Bool(true),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Resolved::Bool(false),
        "" | "~" | "null" | "Null" | "NULL" => Resolved::Null,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go `strconv.ParseFloat(s, 64)` for a string that starts with `.` (the only case where
/// go-yaml hands the raw text, underscores included, to ParseFloat). `None` on a syntax error
/// or overflow.
fn go_parse_float_dot(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    if b.first() != Some(&b'.') {
        return None;
    }
    let mut i = 1;
    let mut saw_digits = false;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        saw_digits |= b[i].is_ascii_digit();
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if i >= b.len() || !b[i].is_ascii_digit() {
            return None;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    if i != b.len() {
        return None;
    }
    if s.contains('_') && !underscore_ok(s) {
        return None;
    }
    let clean: String = s.chars().filter(|&c| c != '_').collect();
    match clean.parse::<f64>() {
        Ok(f) if f.is_finite() => Some(f),
        _ => None,
    }
}

/// Go `strconv.underscoreOK`: underscores only between digits or after a base prefix.
fn underscore_ok(s: &str) -> bool {
    let mut b = s.as_bytes();
    if let [b'+' | b'-', rest @ ..] = b {
        b = rest;
    }
    // saw: '^' start, '0' digit or prefix, '_' underscore, '!' other.
    let mut saw = b'^';
    let mut i = 0;
    let mut hex = false;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1].to_ascii_lowercase(), b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = b[1].eq_ignore_ascii_case(&b'x');
    }
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

#[derive(Debug, PartialEq)]
enum NumErr {
    Syntax,
    Range,
}

/// Go `strconv.ParseUint(s, base, 64)` for base 0 (prefixes `0x`, `0o`, `0b`, leading-`0`
/// octal, underscores per Go syntax) or an explicit base 2..=36. No sign accepted.
fn go_parse_uint(s: &str, base: u32) -> Result<u64, NumErr> {
    if s.is_empty() {
        return Err(NumErr::Syntax);
    }
    let s0 = s;
    let base0 = base == 0;
    let b = s.as_bytes();
    let (mut base, mut digits) = (base, b);
    if base0 {
        base = 10;
        if b[0] == b'0' {
            if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'b') {
                base = 2;
                digits = &b[2..];
            } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'o') {
                base = 8;
                digits = &b[2..];
            } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'x') {
                base = 16;
                digits = &b[2..];
            } else {
                base = 8;
                digits = &b[1..];
            }
        }
    }
    if !(2..=36).contains(&base) {
        return Err(NumErr::Syntax);
    }
    let mut n: u64 = 0;
    let mut underscores = false;
    for &c in digits {
        let d = match c {
            b'_' if base0 => {
                underscores = true;
                continue;
            }
            b'0'..=b'9' => (c - b'0') as u32,
            b'a'..=b'z' | b'A'..=b'Z' => (c.to_ascii_lowercase() - b'a') as u32 + 10,
            _ => return Err(NumErr::Syntax),
        };
        if d >= base {
            return Err(NumErr::Syntax);
        }
        n = match n.checked_mul(base as u64).and_then(|m| m.checked_add(d as u64)) {
            Some(v) => v,
            None => return Err(NumErr::Range),
        };
    }
    if underscores && !underscore_ok(s0) {
        return Err(NumErr::Syntax);
    }
    Ok(n)
}

/// Go `strconv.ParseInt(s, base, 64)`: an optional `+`/`-`, then [`go_parse_uint`].
fn go_parse_int(s: &str, base: u32) -> Result<i64, NumErr> {
    if s.is_empty() {
        return Err(NumErr::Syntax);
    }
    let (neg, rest) = match s.as_bytes()[0] {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let un = match go_parse_uint(rest, base) {
        Ok(u) => u,
        Err(NumErr::Range) => return Err(NumErr::Range),
        Err(NumErr::Syntax) => return Err(NumErr::Syntax),
    };
    const CUTOFF: u64 = 1 << 63;
    if !neg && un >= CUTOFF {
        return Err(NumErr::Range);
    }
    if neg && un > CUTOFF {
        return Err(NumErr::Range);
    }
    Ok(if neg { (un as i64).wrapping_neg() } else { un as i64 })
}

// ---------------------------------------------------------------------------------------------
// Timestamps (only decisive for an explicit `!!timestamp` tag: untagged, a timestamp-looking
// value is a string either way)
// ---------------------------------------------------------------------------------------------

/// go-yaml v2 `parseTimestamp`: four digits and `-`, then Go `time.Parse` with one of
/// `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999`, `2006-1-2`.
fn parse_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let i = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if i != 4 || i == b.len() || b[i] != b'-' {
        return false;
    }
    [Layout::DateTime(b'T'), Layout::DateTime(b't'), Layout::Spaced, Layout::Date].iter().any(|&l| go_time_parse(b, l))
}

#[derive(Clone, Copy)]
enum Layout {
    /// `2006-1-2<sep>15:4:5.999999999Z07:00`
    DateTime(u8),
    /// `2006-1-2 15:4:5.999999999`
    Spaced,
    /// `2006-1-2`
    Date,
}

/// Go `time` getnum: one or two digits.
fn getnum(v: &[u8]) -> Option<(u32, &[u8])> {
    match v {
        [a, b, rest @ ..] if a.is_ascii_digit() && b.is_ascii_digit() => {
            Some(((a - b'0') as u32 * 10 + (b - b'0') as u32, rest))
        }
        [a, rest @ ..] if a.is_ascii_digit() => Some(((a - b'0') as u32, rest)),
        _ => None,
    }
}

fn lit(v: &[u8], c: u8) -> Option<&[u8]> {
    match v {
        [x, rest @ ..] if *x == c => Some(rest),
        _ => None,
    }
}

fn go_time_parse(v: &[u8], layout: Layout) -> bool {
    parse_layout(v, layout).is_some()
}

/// Go `time.Parse` for one of the layouts; `None` on any parse or range error.
fn parse_layout(v: &[u8], layout: Layout) -> Option<()> {
    // 2006: exactly four characters, checked digits by the caller.
    let year: i64 = std::str::from_utf8(v.get(..4)?).ok()?.parse().ok()?;
    let v = lit(&v[4..], b'-')?;
    let (month, v) = getnum(v)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let v = lit(v, b'-')?;
    let (day, mut v) = getnum(v)?;
    if let Layout::DateTime(_) | Layout::Spaced = layout {
        v = match layout {
            Layout::DateTime(sep) => lit(v, sep)?,
            _ => {
                // A layout space matches one or more spaces (or the end of the value).
                if !v.is_empty() && v[0] != b' ' {
                    return None;
                }
                let n = v.iter().take_while(|&&c| c == b' ').count();
                &v[n..]
            }
        };
        let (hour, w) = getnum(v)?;
        if hour >= 24 {
            return None;
        }
        let w = lit(w, b':')?;
        let (min, w) = getnum(w)?;
        if min >= 60 {
            return None;
        }
        let w = lit(w, b':')?;
        let (sec, mut w) = getnum(w)?;
        if sec >= 60 {
            return None;
        }
        // .999999999: optional fraction, any number of digits, `.` or `,`.
        if w.len() >= 2 && (w[0] == b'.' || w[0] == b',') && w[1].is_ascii_digit() {
            let n = 1 + w[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            w = &w[n..];
        }
        if let Layout::DateTime(_) = layout {
            // Z07:00
            if let Some(rest) = lit(w, b'Z') {
                w = rest;
            } else {
                if w.len() < 6 || w[3] != b':' {
                    return None;
                }
                let sign = w[0];
                let hh = &w[1..3];
                let mm = &w[4..6];
                if !hh.iter().all(u8::is_ascii_digit) || !mm.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let hr = (hh[0] - b'0') as u32 * 10 + (hh[1] - b'0') as u32;
                let mi = (mm[0] - b'0') as u32 * 10 + (mm[1] - b'0') as u32;
                if hr > 24 || mi > 60 || (sign != b'+' && sign != b'-') {
                    return None;
                }
                w = &w[6..];
            }
        }
        v = w;
    }
    if !v.is_empty() {
        return None; // extra text
    }
    if day < 1 || day > days_in(month, year) {
        return None;
    }
    Some(())
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

// ---------------------------------------------------------------------------------------------
// !!binary
// ---------------------------------------------------------------------------------------------

/// Go `base64.StdEncoding.DecodeString`: padded standard alphabet, `\r` and `\n` ignored
/// anywhere, non-zero trailing bits accepted. `None` on corrupt input.
fn go_base64_decode(s: &str) -> Option<Vec<u8>> {
    let chars: Vec<u8> = s.bytes().filter(|&c| c != b'\r' && c != b'\n').collect();
    if chars.len() % 4 != 0 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a') as u32 + 26,
            b'0'..=b'9' => (c - b'0') as u32 + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::with_capacity(chars.len() / 4 * 3);
    let quanta = chars.len() / 4;
    for (qi, q) in chars.chunks(4).enumerate() {
        let last = qi + 1 == quanta;
        let pad = q.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut acc = 0u32;
        for &c in &q[..4 - pad] {
            acc = (acc << 6) | val(c)?;
        }
        match pad {
            0 => out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]),
            1 => {
                acc <<= 6;
                out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8]);
            }
            _ => {
                acc <<= 12;
                out.push((acc >> 16) as u8);
            }
        }
    }
    Some(out)
}

/// Bytes to text as Go's `encoding/json` writes a Go string: every byte that does not start a
/// valid UTF-8 sequence becomes one U+FFFD.
fn go_lossy_utf8(mut b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    loop {
        match std::str::from_utf8(b) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let good = e.valid_up_to();
                // The prefix up to `valid_up_to` is valid UTF-8.
                out.push_str(std::str::from_utf8(&b[..good]).unwrap_or_default());
                out.push('\u{FFFD}');
                b = &b[good + 1..];
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Go float formatting
// ---------------------------------------------------------------------------------------------

/// Shortest round-trip decimal digits of a finite, positive `f64`, with the decimal point
/// position: value = 0.d1d2d3... × 10^dp.
fn shortest_digits_f64(f: f64) -> (String, i32) {
    split_exp(&format!("{f:e}"))
}

/// As [`shortest_digits_f64`] for a `f32` (digits that round-trip at 32-bit precision).
fn shortest_digits_f32(f: f32) -> (String, i32) {
    split_exp(&format!("{f:e}"))
}

fn split_exp(s: &str) -> (String, i32) {
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    (digits, exp + 1)
}

/// Go `fmtE` with precision `digits.len() - 1`.
fn fmt_e(neg: bool, digits: &str, dp: i32) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    let d = digits.as_bytes();
    s.push(*d.first().unwrap_or(&b'0') as char);
    if d.len() > 1 {
        s.push('.');
        s.push_str(&digits[1..]);
    }
    s.push('e');
    let mut exp = if d.is_empty() { 0 } else { dp - 1 };
    if exp < 0 {
        s.push('-');
        exp = -exp;
    } else {
        s.push('+');
    }
    if exp < 10 {
        s.push('0');
    }
    s.push_str(&exp.to_string());
    s
}

/// Go `fmtF` with precision `max(digits.len() - dp, 0)`.
fn fmt_f(neg: bool, digits: &str, dp: i32) -> String {
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    let d = digits.as_bytes();
    let nd = d.len() as i32;
    if dp > 0 {
        let m = nd.min(dp);
        s.push_str(&digits[..m as usize]);
        for _ in m..dp {
            s.push('0');
        }
    } else {
        s.push('0');
    }
    let prec = (nd - dp).max(0);
    if prec > 0 {
        s.push('.');
        for i in 1..=prec {
            let j = dp + i - 1;
            s.push(if (0..nd).contains(&j) { d[j as usize] as char } else { '0' });
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Scalar {
        resolve(s, true, None).unwrap()
    }
    fn tagged(s: &str, tag: &str) -> Result<Scalar, String> {
        resolve(s, false, Some(tag))
    }
    fn str_(s: &str) -> Scalar {
        Scalar::Str(s.to_string())
    }

    #[test]
    fn nulls() {
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(s), Scalar::Null, "{s:?}");
        }
        for s in ["nULL", "nul", "None", "nil", "NuLL"] {
            assert_eq!(plain(s), str_(s), "{s:?}");
        }
    }

    #[test]
    fn booleans_yaml11() {
        for s in ["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"] {
            assert_eq!(plain(s), Scalar::Bool(true), "{s:?}");
        }
        for s in ["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"] {
            assert_eq!(plain(s), Scalar::Bool(false), "{s:?}");
        }
        for s in ["yEs", "tRUE", "oN", "o", "t", "f", "T", "F", "nO", "OFf", "yes ", "Yes!"] {
            assert_eq!(plain(s), str_(s), "{s:?}");
        }
    }

    #[test]
    fn quoted_and_block_scalars_are_strings() {
        for s in ["yes", "1", "1.5", "null", "", "~", "0x10", ".inf"] {
            assert_eq!(resolve(s, false, None).unwrap(), str_(s), "{s:?}");
        }
    }

    #[test]
    fn decimal_integers() {
        assert_eq!(plain("0"), Scalar::Int(0));
        assert_eq!(plain("-0"), Scalar::Int(0));
        assert_eq!(plain("+0"), Scalar::Int(0));
        assert_eq!(plain("42"), Scalar::Int(42));
        assert_eq!(plain("+42"), Scalar::Int(42));
        assert_eq!(plain("-42"), Scalar::Int(-42));
        assert_eq!(plain("1_000_000"), Scalar::Int(1_000_000));
        assert_eq!(plain("1__0"), Scalar::Int(10));
        assert_eq!(plain("1_"), Scalar::Int(1));
        assert_eq!(plain("-1_0"), Scalar::Int(-10));
        assert_eq!(plain("9223372036854775807"), Scalar::Int(i64::MAX));
        assert_eq!(plain("-9223372036854775808"), Scalar::Int(i64::MIN));
    }

    #[test]
    fn leading_underscore_is_a_string() {
        assert_eq!(plain("_1"), str_("_1"));
    }

    #[test]
    fn based_integers() {
        assert_eq!(plain("0x1F"), Scalar::Int(31));
        assert_eq!(plain("0X1f"), Scalar::Int(31));
        assert_eq!(plain("-0x1F"), Scalar::Int(-31));
        assert_eq!(plain("+0x1F"), Scalar::Int(31));
        assert_eq!(plain("0x_1F"), Scalar::Int(31));
        // All underscores go before Go parses, so Go's own underscore rules never bite here.
        assert_eq!(plain("0x1_"), Scalar::Int(1));
        assert_eq!(plain("0x__1__"), Scalar::Int(1));
        assert_eq!(plain("0777"), Scalar::Int(511));
        assert_eq!(plain("-0777"), Scalar::Int(-511));
        assert_eq!(plain("0_777"), Scalar::Int(511));
        assert_eq!(plain("00"), Scalar::Int(0));
        // YAML 1.2 octal: Go's ParseInt with base 0 understands 0o (and 0O).
        assert_eq!(plain("0o17"), Scalar::Int(15));
        assert_eq!(plain("0O17"), Scalar::Int(15));
        assert_eq!(plain("-0o17"), Scalar::Int(-15));
        assert_eq!(plain("0b101"), Scalar::Int(5));
        assert_eq!(plain("0B101"), Scalar::Int(5));
        assert_eq!(plain("-0b101"), Scalar::Int(-5));
        // go-yaml's own 0b fallback hands a sign after the prefix to ParseInt.
        assert_eq!(plain("0b-101"), Scalar::Int(-5));
        assert_eq!(plain("0b+101"), Scalar::Int(5));
        assert_eq!(plain("-0b-101"), str_("-0b-101"));
        assert_eq!(plain("0x"), str_("0x"));
        assert_eq!(plain("0b"), str_("0b"));
        assert_eq!(plain("0o"), str_("0o"));
        assert_eq!(plain("0xG"), str_("0xG"));
        assert_eq!(plain("0b2"), str_("0b2"));
        assert_eq!(plain("0o8"), str_("0o8"));
        assert_eq!(plain("0x7FFFFFFFFFFFFFFF"), Scalar::Int(i64::MAX));
        assert_eq!(plain("0xFFFFFFFFFFFFFFFF"), Scalar::Uint(u64::MAX));
        assert_eq!(plain("0x10000000000000000"), str_("0x10000000000000000"));
        assert_eq!(plain("-0x8000000000000000"), Scalar::Int(i64::MIN));
        assert_eq!(plain("-0x8000000000000001"), str_("-0x8000000000000001"));
        let ones = "1".repeat(64);
        assert_eq!(plain(&format!("0b{ones}")), Scalar::Uint(u64::MAX));
        assert_eq!(plain(&format!("0b1{ones}")), str_(&format!("0b1{ones}")));
    }

    #[test]
    fn not_octal_falls_to_float() {
        assert_eq!(plain("08"), Scalar::Float(8.0));
        assert_eq!(plain("09"), Scalar::Float(9.0));
        assert_eq!(plain("0778"), Scalar::Float(778.0));
        assert_eq!(plain("-08"), Scalar::Float(-8.0));
        assert_eq!(plain("08.5"), Scalar::Float(8.5));
    }

    #[test]
    fn integer_overflow() {
        assert_eq!(plain("9223372036854775808"), Scalar::Uint(9223372036854775808));
        assert_eq!(plain("18446744073709551615"), Scalar::Uint(u64::MAX));
        // ParseUint takes no sign: a '+' pushes the value to a float.
        assert_eq!(plain("+9223372036854775808"), Scalar::Float(9223372036854775808.0));
        assert_eq!(plain("18446744073709551616"), Scalar::Float(18446744073709551616.0));
        assert_eq!(plain("-9223372036854775809"), Scalar::Float(-9223372036854775809.0));
        assert_eq!(plain("1_8446744073709551616"), Scalar::Float(18446744073709551616.0));
        let big = "9".repeat(400);
        assert_eq!(plain(&big), str_(&big), "overflows float64 too");
    }

    #[test]
    fn floats() {
        assert_eq!(plain("1.5"), Scalar::Float(1.5));
        assert_eq!(plain("1.0"), Scalar::Float(1.0));
        assert_eq!(plain("1."), Scalar::Float(1.0));
        assert_eq!(plain("-1.5"), Scalar::Float(-1.5));
        assert_eq!(plain("+1.5"), Scalar::Float(1.5));
        assert_eq!(plain(".5"), Scalar::Float(0.5));
        assert_eq!(plain("+.5"), Scalar::Float(0.5));
        assert_eq!(plain("-.5"), Scalar::Float(-0.5));
        assert_eq!(plain("1e5"), Scalar::Float(1e5));
        assert_eq!(plain("1E5"), Scalar::Float(1e5));
        assert_eq!(plain("1e+5"), Scalar::Float(1e5));
        assert_eq!(plain("1.5e-3"), Scalar::Float(1.5e-3));
        assert_eq!(plain("1_000.5"), Scalar::Float(1000.5));
        assert_eq!(plain("6.02e23"), Scalar::Float(6.02e23));
        assert_eq!(plain(".5e3"), Scalar::Float(500.0));
        assert_eq!(plain(".5E+3"), Scalar::Float(500.0));
        assert_eq!(plain("1e-400"), Scalar::Float(0.0), "underflow is not an error");
        match plain("-0.0") {
            Scalar::Float(f) => assert!(f == 0.0 && f.is_sign_negative()),
            other => panic!("{other:?}"),
        }
        for s in [
            "1e999", "-1e999", ".5e999", "1.2.3", "1e", "1e+", "e5", "1.5x", "1 2", "1,5", "1:20", "12:30:45", "1/2",
            "5%", "1e5.5", "0x1.8p1", "+", "-", ".", "..", ".e5", "+-1", "--1", "1-", "1+1",
        ] {
            assert_eq!(plain(s), str_(s), "{s:?}");
        }
    }

    #[test]
    fn dot_floats_use_raw_text_with_go_underscore_rules() {
        assert_eq!(plain(".5_0"), Scalar::Float(0.5));
        assert_eq!(plain(".1_2e1_0"), Scalar::Float(0.12e10));
        assert_eq!(plain("._5"), str_("._5"));
        assert_eq!(plain(".5_"), str_(".5_"));
        assert_eq!(plain(".5_e3"), str_(".5_e3"));
        assert_eq!(plain(".5e_3"), str_(".5e_3"));
        assert_eq!(plain(".5.5"), str_(".5.5"));
        assert_eq!(plain(".abc"), str_(".abc"));
        assert_eq!(plain(".5e"), str_(".5e"));
    }

    #[test]
    fn special_floats() {
        for s in [".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"] {
            assert_eq!(plain(s), Scalar::Float(f64::INFINITY), "{s:?}");
        }
        for s in ["-.inf", "-.Inf", "-.INF"] {
            assert_eq!(plain(s), Scalar::Float(f64::NEG_INFINITY), "{s:?}");
        }
        for s in [".nan", ".NaN", ".NAN"] {
            assert!(matches!(plain(s), Scalar::Float(f) if f.is_nan()), "{s:?}");
        }
        for s in [".iNf", "inf", "Infinity", "NaN", "nan", "-.nan", "+.nan", ".Nan", "-inf"] {
            assert_eq!(plain(s), str_(s), "{s:?}");
        }
    }

    #[test]
    fn timestamps_stay_strings() {
        for s in [
            "2001-12-14",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10",
            "2002-12-14T21:59:43Z",
            "2001-1-2",
            "2001-12-14 21:59:43.10 -5",
            "1999-99-99",
        ] {
            assert_eq!(plain(s), str_(s), "{s:?}");
        }
    }

    #[test]
    fn timestamp_parser() {
        for s in [
            "2001-12-14",
            "2001-1-2",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14T21:59:43.10+05:30",
            "2001-12-14T21:59:43Z",
            "2001-12-14T1:2:3Z",
            "2001-12-14 21:59:43.10",
            "2001-12-14   21:59:43",
            "2001-12-14 21:59:43,5",
            "2000-02-29",
            "2001-12-14T21:59:43.1234567891234Z",
            "2001-12-14T21:59:43+24:60",
        ] {
            assert!(parse_timestamp(s), "{s:?}");
        }
        for s in [
            "2001-12-14 21:59:43.10 -5",
            "2001-13-01",
            "2001-00-01",
            "2001-02-29",
            "1900-02-29",
            "2001-12-32",
            "2001-12-0",
            "2001-12-14T24:00:00Z",
            "2001-12-14T21:60:00Z",
            "2001-12-14T21:59:60Z",
            "2001-12-14T21:59:43",
            "2001-12-14T21:59:43+0500",
            "2001-12-14T21:59:43+25:00",
            "2001-12-14 ",
            "2001-12-14x",
            "20011-12-14",
            "201-12-14",
            "2001-123-14",
            "2001-12-14T21:59:43.Z",
            "2001-12-14 21:59",
            "2001-12-14T21:59:43*05:00",
        ] {
            assert!(!parse_timestamp(s), "{s:?}");
        }
    }

    #[test]
    fn timestamp_tag() {
        assert_eq!(tagged("2001-12-14", "timestamp"), Ok(str_("2001-12-14")));
        assert_eq!(tagged("2001-12-14T21:59:43Z", "!!timestamp"), Ok(str_("2001-12-14T21:59:43Z")));
        assert_eq!(tagged("2001-13-14", "timestamp"), Err("cannot decode !!str `2001-13-14` as a !!timestamp".into()));
        assert_eq!(tagged("123", "timestamp"), Err("cannot decode !!int `123` as a !!timestamp".into()));
        assert_eq!(tagged("yes", "timestamp"), Err("cannot decode !!bool `yes` as a !!timestamp".into()));
    }

    #[test]
    fn other_strings() {
        for s in [
            "hello",
            "<<",
            "-",
            "- x",
            "a: b",
            "@x",
            "'q'",
            "1.2.3-alpha",
            "v1.0.0",
            "0.1.0",
            "3.14.15",
            "é",
            "ÿes",
            "12e",
            "1_000_x",
        ] {
            assert_eq!(plain(s), str_(s), "{s:?}");
        }
    }

    #[test]
    fn str_tag() {
        for tag in ["str", "!!str", "tag:yaml.org,2002:str"] {
            for s in ["1", "yes", "", "~", "1.5", ".inf", "2001-12-14"] {
                assert_eq!(resolve(s, true, Some(tag)), Ok(str_(s)), "{tag} {s:?}");
                assert_eq!(resolve(s, false, Some(tag)), Ok(str_(s)), "{tag} {s:?}");
            }
        }
    }

    #[test]
    fn core_tags_resolve_quoted_scalars_too() {
        assert_eq!(tagged("123", "int"), Ok(Scalar::Int(123)));
        assert_eq!(tagged("0x10", "!!int"), Ok(Scalar::Int(16)));
        assert_eq!(tagged("18446744073709551615", "int"), Ok(Scalar::Uint(u64::MAX)));
        assert_eq!(tagged("yes", "bool"), Ok(Scalar::Bool(true)));
        assert_eq!(tagged("Off", "tag:yaml.org,2002:bool"), Ok(Scalar::Bool(false)));
        assert_eq!(tagged("", "null"), Ok(Scalar::Null));
        assert_eq!(tagged("~", "null"), Ok(Scalar::Null));
        assert_eq!(tagged("1.5", "float"), Ok(Scalar::Float(1.5)));
        assert_eq!(resolve("1.5", true, Some("float")), Ok(Scalar::Float(1.5)));
    }

    #[test]
    fn float_tag_accepts_ints() {
        assert_eq!(tagged("1", "float"), Ok(Scalar::Float(1.0)));
        assert_eq!(tagged("0x10", "float"), Ok(Scalar::Float(16.0)));
        assert_eq!(tagged("-7", "float"), Ok(Scalar::Float(-7.0)));
        assert_eq!(tagged("9223372036854775807", "float"), Ok(Scalar::Float(9223372036854775807.0)));
        // A uint64 is not converted: go-yaml only converts int and int64.
        assert_eq!(
            tagged("9223372036854775808", "float"),
            Err("cannot decode !!int `9223372036854775808` as a !!float".into())
        );
        assert_eq!(tagged(".inf", "float"), Ok(Scalar::Float(f64::INFINITY)));
    }

    #[test]
    fn tag_mismatches() {
        assert_eq!(tagged("abc", "int"), Err("cannot decode !!str `abc` as a !!int".into()));
        assert_eq!(tagged("1.5", "int"), Err("cannot decode !!float `1.5` as a !!int".into()));
        assert_eq!(tagged("true", "int"), Err("cannot decode !!bool `true` as a !!int".into()));
        assert_eq!(tagged("", "int"), Err("cannot decode !!null `` as a !!int".into()));
        assert_eq!(tagged("~", "bool"), Err("cannot decode !!null `~` as a !!bool".into()));
        assert_eq!(tagged("1", "bool"), Err("cannot decode !!int `1` as a !!bool".into()));
        assert_eq!(tagged("abc", "null"), Err("cannot decode !!str `abc` as a !!null".into()));
        assert_eq!(tagged("false", "null"), Err("cannot decode !!bool `false` as a !!null".into()));
        assert_eq!(tagged("abc", "float"), Err("cannot decode !!str `abc` as a !!float".into()));
        assert_eq!(tagged("1e999", "float"), Err("cannot decode !!str `1e999` as a !!float".into()));
        assert_eq!(tagged("2001-12-14", "int"), Err("cannot decode !!str `2001-12-14` as a !!int".into()));
        assert_eq!(tagged("<<", "int"), Err("cannot decode !!str `<<` as a !!int".into()));
    }

    #[test]
    fn non_core_tags_are_strings() {
        for tag in [
            "!",
            "!foo",
            "!local",
            "tag:example.com,2000:app/foo",
            "merge",
            "!!merge",
            "seq",
            "!!map",
            "tag:yaml.org,2002:omap",
            "!!whatever",
        ] {
            for s in ["123", "yes", "", "~", "<<"] {
                assert_eq!(resolve(s, true, Some(tag)), Ok(str_(s)), "{tag} {s:?}");
                assert_eq!(resolve(s, false, Some(tag)), Ok(str_(s)), "{tag} {s:?}");
            }
        }
    }

    #[test]
    fn binary_tag() {
        assert_eq!(tagged("aGVsbG8=", "binary"), Ok(str_("hello")));
        assert_eq!(tagged("aGVsbG8gd29ybGQ=", "!!binary"), Ok(str_("hello world")));
        assert_eq!(tagged("aGVs\nbG8=\n", "binary"), Ok(str_("hello")));
        assert_eq!(tagged("aGVs\r\nbG8=", "binary"), Ok(str_("hello")));
        assert_eq!(tagged("aGk=", "binary"), Ok(str_("hi")));
        assert_eq!(tagged("aA==", "binary"), Ok(str_("h")));
        assert_eq!(tagged("aB==", "binary"), Ok(str_("h")), "trailing bits are not checked");
        assert_eq!(tagged("aA=\n=", "binary"), Ok(str_("h")));
        assert_eq!(tagged("", "binary"), Ok(str_("")));
        assert_eq!(resolve("aGk=", true, Some("binary")), Ok(str_("hi")));
        // Invalid UTF-8 bytes become U+FFFD one byte at a time, as Go's JSON encoder writes them.
        assert_eq!(tagged("/w==", "binary"), Ok(str_("\u{FFFD}")));
        assert_eq!(tagged("4oJB", "binary"), Ok(str_("\u{FFFD}\u{FFFD}A")));
        assert_eq!(tagged("4oKs", "binary"), Ok(str_("€")));
        let bad = Err("!!binary value contains invalid base64 data".to_string());
        for s in [
            "aGVsbG8",
            "aGVsbG8==",
            "a===",
            "====",
            "aA==aA==",
            "aG Vs",
            "aGVs bG8=",
            "aGk-",
            "a",
            "aA=",
            "=aAA",
            "a=AA",
        ] {
            assert_eq!(tagged(s, "binary"), bad, "{s:?}");
        }
    }

    #[test]
    fn merge_keys() {
        assert!(is_merge_key("<<", true, None));
        assert!(!is_merge_key("<<", false, None));
        assert!(is_merge_key("<<", false, Some("!")));
        assert!(is_merge_key("<<", true, Some("!")));
        assert!(is_merge_key("<<", false, Some("merge")));
        assert!(is_merge_key("<<", false, Some("!!merge")));
        assert!(is_merge_key("<<", false, Some("tag:yaml.org,2002:merge")));
        assert!(!is_merge_key("<<", true, Some("str")));
        assert!(!is_merge_key("<<", true, Some("!foo")));
        assert!(!is_merge_key("< <", true, None));
        assert!(!is_merge_key("x", false, Some("merge")));
        // As a value, a plain << is just a string.
        assert_eq!(plain("<<"), str_("<<"));
    }

    #[test]
    fn keys() {
        assert_eq!(key_text(&plain("true")), "true");
        assert_eq!(key_text(&plain("yes")), "true");
        assert_eq!(key_text(&plain("off")), "false");
        assert_eq!(key_text(&plain("1")), "1");
        assert_eq!(key_text(&plain("0x10")), "16");
        assert_eq!(key_text(&plain("-5")), "-5");
        assert_eq!(key_text(&plain("1_000")), "1000");
        assert_eq!(key_text(&plain("name")), "name");
        assert_eq!(key_text(&plain("2001-12-14")), "2001-12-14");
        assert_eq!(key_text(&plain("~")), "null");
        // Floats: FormatFloat(f, 'g', -1, 32).
        assert_eq!(key_text(&plain("1.5")), "1.5");
        assert_eq!(key_text(&plain("1.0")), "1");
        assert_eq!(key_text(&plain("0.1")), "0.1");
        assert_eq!(key_text(&plain("3.14159265358979")), "3.1415927");
        assert_eq!(key_text(&plain("1e3")), "1000");
        assert_eq!(key_text(&plain("100000.0")), "100000");
        assert_eq!(key_text(&plain("1e6")), "1e+06");
        assert_eq!(key_text(&plain("1234567.0")), "1.234567e+06");
        assert_eq!(key_text(&plain("123456789.0")), "1.2345679e+08");
        assert_eq!(key_text(&plain("0.0001")), "0.0001");
        assert_eq!(key_text(&plain("0.00001")), "1e-05");
        assert_eq!(key_text(&plain("1.5e-10")), "1.5e-10");
        assert_eq!(key_text(&plain("1e100")), ".inf", "beyond float32 range");
        assert_eq!(key_text(&plain("-1e100")), "-.inf");
        assert_eq!(key_text(&plain("1e-100")), "0");
        assert_eq!(key_text(&plain("08")), "8");
        assert_eq!(key_text(&plain("-0.0")), "-0");
        assert_eq!(key_text(&plain("0.0")), "0");
        assert_eq!(key_text(&plain(".inf")), ".inf");
        assert_eq!(key_text(&plain("-.Inf")), "-.inf");
        assert_eq!(key_text(&plain(".NaN")), ".nan");
        assert_eq!(key_text(&plain("18446744073709551616")), "1.8446744e+19");
    }

    #[test]
    fn key_errors() {
        assert_eq!(key_error(&plain("a")), None);
        assert_eq!(key_error(&plain("1")), None);
        assert_eq!(key_error(&plain("1.5")), None);
        assert_eq!(key_error(&plain("yes")), None);
        assert_eq!(key_error(&plain("")), Some("unsupported map key of type: %!s(<nil>), key: <nil>".into()));
        assert_eq!(
            key_error(&plain("18446744073709551615")),
            Some("unsupported map key of type: uint64, key: 0xffffffffffffffff".into())
        );
    }

    #[test]
    fn format_float_g_64() {
        assert_eq!(format_float_g(1.5, 64), "1.5");
        assert_eq!(format_float_g(100000.0, 64), "100000");
        assert_eq!(format_float_g(1e6, 64), "1e+06");
        assert_eq!(format_float_g(0.1, 64), "0.1");
        assert_eq!(format_float_g(0.1 + 0.2, 64), "0.30000000000000004");
        assert_eq!(format_float_g(1e-5, 64), "1e-05");
        assert_eq!(format_float_g(1.5e300, 64), "1.5e+300");
        assert_eq!(format_float_g(f64::INFINITY, 64), "+Inf");
        assert_eq!(format_float_g(f64::NEG_INFINITY, 64), "-Inf");
        assert_eq!(format_float_g(f64::NAN, 64), "NaN");
        assert_eq!(format_float_g(-0.0, 64), "-0");
        assert_eq!(format_float_g(5e-324, 64), "5e-324");
        assert_eq!(format_float_g(f64::MAX, 64), "1.7976931348623157e+308");
        assert_eq!(format_float_g(f32::MAX as f64, 32), "3.4028235e+38");
        assert_eq!(format_float_g(1e-45, 32), "1e-45");
    }

    #[test]
    fn json_numbers() {
        let j = |f: f64| go_json_number(f).unwrap();
        assert_eq!(j(1.0), "1");
        assert_eq!(j(1.5), "1.5");
        assert_eq!(j(-1.5), "-1.5");
        assert_eq!(j(0.0), "0");
        assert_eq!(j(-0.0), "-0");
        assert_eq!(j(100.0), "100");
        assert_eq!(j(1e20), "100000000000000000000");
        assert_eq!(j(123456789012345680000.0), "123456789012345680000");
        assert_eq!(j(1e21), "1e+21");
        assert_eq!(j(1.5e21), "1.5e+21");
        assert_eq!(j(1e300), "1e+300");
        assert_eq!(j(0.000001), "0.000001");
        assert_eq!(j(0.0000015), "0.0000015");
        assert_eq!(j(1e-7), "1e-7");
        assert_eq!(j(1.5e-7), "1.5e-7");
        assert_eq!(j(-1.5e-7), "-1.5e-7");
        assert_eq!(j(1e-10), "1e-10");
        assert_eq!(j(1e-100), "1e-100");
        assert_eq!(j(5e-324), "5e-324");
        assert_eq!(j(0.1), "0.1");
        assert_eq!(j(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(j(9007199254740993.0), "9007199254740992");
        assert_eq!(j(18446744073709551616.0), "18446744073709552000");
        assert_eq!(j(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(go_json_number(f64::INFINITY), Err("json: unsupported value: +Inf".into()));
        assert_eq!(go_json_number(f64::NEG_INFINITY), Err("json: unsupported value: -Inf".into()));
        assert_eq!(go_json_number(f64::NAN), Err("json: unsupported value: NaN".into()));
    }

    #[test]
    fn json_number_text_of_scalars() {
        assert_eq!(json_number_text(&plain("1.0")), Some(Ok("1".into())));
        assert_eq!(json_number_text(&plain("1e5")), Some(Ok("100000".into())));
        assert_eq!(json_number_text(&plain("-42")), Some(Ok("-42".into())));
        assert_eq!(json_number_text(&plain("9223372036854775807")), Some(Ok("9223372036854775807".into())));
        assert_eq!(json_number_text(&plain("18446744073709551615")), Some(Ok("18446744073709551615".into())));
        assert_eq!(json_number_text(&plain(".inf")), Some(Err("json: unsupported value: +Inf".into())));
        assert_eq!(json_number_text(&plain("yes")), None);
        assert_eq!(json_number_text(&plain("x")), None);
        assert_eq!(json_number_text(&plain("")), None);
    }

    #[test]
    fn go_parse_helpers() {
        assert_eq!(go_parse_uint("0", 0), Ok(0));
        assert_eq!(go_parse_uint("0x", 0), Err(NumErr::Syntax));
        assert_eq!(go_parse_uint("1_0", 0), Ok(10));
        assert_eq!(go_parse_uint("1__0", 0), Err(NumErr::Syntax));
        assert_eq!(go_parse_uint("0x_1", 0), Ok(1));
        assert_eq!(go_parse_uint("_1", 0), Err(NumErr::Syntax));
        assert_eq!(go_parse_uint("1_", 0), Err(NumErr::Syntax));
        assert_eq!(go_parse_uint("1_0", 10), Err(NumErr::Syntax));
        assert_eq!(go_parse_uint("+1", 0), Err(NumErr::Syntax));
        assert_eq!(go_parse_uint("18446744073709551616", 0), Err(NumErr::Range));
        assert_eq!(go_parse_int("-9223372036854775808", 0), Ok(i64::MIN));
        assert_eq!(go_parse_int("9223372036854775808", 0), Err(NumErr::Range));
        assert_eq!(go_parse_int("-", 0), Err(NumErr::Syntax));
        assert_eq!(go_parse_int("", 0), Err(NumErr::Syntax));
        assert!(underscore_ok("1_000"));
        assert!(!underscore_ok("1__000"));
        assert!(underscore_ok("0x_ff"));
        assert!(underscore_ok("-0b_1"));
    }

    #[test]
    fn yaml_style_float_regex() {
        for s in ["1", "1.", "1.5", ".5", "+.5", "-1e5", "1E+5", "1.5e-5", "+1", "007"] {
            assert!(yaml_style_float(s), "{s:?}");
        }
        for s in ["", ".", "+", "e5", ".e5", "1e", "1.5.5", "1e5.5", "1x", " 1", "1_0", "0x1"] {
            assert!(!yaml_style_float(s), "{s:?}");
        }
    }

    #[test]
    fn no_panics_on_odd_input() {
        let samples = [
            "",
            " ",
            "\0",
            "\u{FEFF}",
            "é",
            "-é",
            "1é",
            ".é",
            "0xé",
            "0bé",
            "2001-é",
            "2001-1é",
            "2001-12-14T",
            "2001-12-14T1",
            "2001-12-14T1:",
            "2001-12-14T1:2:3+",
            "2001-12-14T1:2:3+05",
            "2001-12-14T1:2:3+0é:00",
            "2001-12-14T1:2:3.",
            "9999-",
            "0000-00-00",
            "-0b",
            "-0o",
            "0b-",
            "0b+",
            "--",
            "+.",
            "-.",
            ".-",
            "._",
            "_",
            "__",
            "0_",
            "0x__",
            "1e-",
            "1e+_",
            "\u{10FFFF}",
            "~~",
            "<<<",
            "0o_7",
            "0o-7",
            "0x-1",
            "0X",
            "0B",
            "0O",
        ];
        let tags: [Option<&str>; 12] = [
            None,
            Some("str"),
            Some("int"),
            Some("float"),
            Some("bool"),
            Some("null"),
            Some("timestamp"),
            Some("binary"),
            Some("!"),
            Some("!x"),
            Some("merge"),
            Some(""),
        ];
        for s in samples {
            for t in tags {
                for p in [true, false] {
                    if let Ok(v) = resolve(s, p, t) {
                        let _ = key_text(&v);
                        let _ = key_error(&v);
                        let _ = json_number_text(&v);
                    }
                }
            }
            let _ = parse_timestamp(s);
            let _ = go_base64_decode(s);
            let _ = is_merge_key(s, true, None);
        }
        for f in [f64::MIN_POSITIVE, -f64::MIN_POSITIVE, 1e-310, f64::MAX, f64::MIN, f64::EPSILON] {
            let _ = go_json_number(f);
            let _ = format_float_g(f, 32);
            let _ = format_float_g(f, 64);
        }
    }

    #[test]
    fn empty_tag_string_is_treated_as_core_suffix() {
        // An empty suffix is `tag:yaml.org,2002:` itself: not resolvable, so a string.
        assert_eq!(resolve("1", true, Some("")), Ok(str_("1")));
    }
}
