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
//! - [`is_merge_key`]: go-yaml v2's `isMerge` test for `<<`;
//! - [`Scalar::into_value`]: the JSON value of a resolved scalar.
//!
//! Go's number parsing is in [`go_strconv`](super::go_strconv), timestamp recognition in
//! [`go_time`](super::go_time), float text in `gotext`.
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

use super::super::value::{Str, Value};
use super::go_strconv::{go_parse_float_dot, go_parse_int, go_parse_uint};
use super::go_time::parse_timestamp;
use crate::gotext::decode_base64;
use crate::gotext::format_g as format_float_g;

/// What a YAML scalar resolves to, as the Go value go-yaml v2 produces in an `interface{}`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Scalar {
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
    Str(Str),
}

impl Scalar {
    /// The JSON value of a resolved scalar (numbers as `f64`, as Go's `encoding/json` decodes
    /// them into `interface{}`).
    pub(super) fn into_value(self) -> Value {
        match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(i) => Value::Number(i as f64),
            Scalar::Uint(u) => Value::Number(u as f64),
            Scalar::Float(f) => Value::Number(f),
            Scalar::Str(s) => Value::String(s),
        }
    }
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
pub(super) fn resolve(text: &str, plain: bool, tag: Option<&str>) -> Result<Scalar, String> {
    let want = match tag {
        None if plain => Want::Any,
        None => return Ok(Scalar::Str(Str::from(text))),
        Some(t) => match classify_tag(t) {
            TagClass::Core(name) => match name {
                "str" => Want::Str,
                "bool" => Want::Bool,
                "int" => Want::Int,
                "float" => Want::Float,
                "null" => Want::Null,
                "timestamp" => Want::Timestamp,
                // go-yaml decodes with Go's `base64.StdEncoding.DecodeString`.
                "binary" => {
                    return match decode_base64(text) {
                        Ok(bytes) => Ok(Scalar::Str(go_lossy_utf8(&bytes).into())),
                        Err(_) => Err("!!binary value contains invalid base64 data".to_string()),
                    };
                }
                // Not resolvable (`!!merge`, `!!seq`, `!!map`, `!!omap`, unknown): a string.
                _ => return Ok(Scalar::Str(Str::from(text))),
            },
            TagClass::Other => return Ok(Scalar::Str(Str::from(text))),
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
        Resolved::Str | Resolved::Timestamp => Scalar::Str(Str::from(text)),
    })
}

/// Whether an untagged plain scalar `text` resolves to a string because of its first byte alone
/// (the first test of the implicit resolution): no null, boolean, number, timestamp or special
/// float starts with it. Lets a reader make the string without the general resolution.
#[inline]
pub(super) fn plain_is_string(text: &str) -> bool {
    !matches!(
        text.as_bytes().first(),
        None | Some(
            b'+' | b'-' | b'0'
                ..=b'9' | b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' | b'.'
        )
    )
}

/// Whether a mapping key is a merge key (`<<`) for go-yaml v2: the value is `<<` and the scalar
/// is implicit (plain and untagged, or tagged with the non-specific `!`) or tagged `!!merge`.
/// A quoted `"<<"` without a tag is an ordinary key.
pub(super) fn is_merge_key(text: &str, plain: bool, tag: Option<&str>) -> bool {
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
pub(super) fn key_text(s: &Scalar) -> String {
    match s {
        Scalar::Str(t) => t.to_string(),
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
pub(super) fn key_error(s: &Scalar) -> Option<String> {
    match s {
        Scalar::Null => Some("unsupported map key of type: %!s(<nil>), key: <nil>".to_string()),
        Scalar::Uint(u) => Some(format!("unsupported map key of type: uint64, key: {u:#x}")),
        _ => None,
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

/// How a tag decides resolution.
enum TagClass<'a> {
    /// A `tag:yaml.org,2002:` tag, by suffix.
    Core(&'a str),
    /// `!`, a local `!foo` tag, or a URI from another authority.
    Other,
}

const CORE_PREFIX: &str = "tag:yaml.org,2002:";

/// Classify a tag given as a suffix, `!!suffix`, a long `tag:yaml.org,2002:` form, or any other tag.
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
            // Underscores are digit separators; most numbers and versions have none, so the
            // text is only copied when one must be dropped.
            let plain: std::borrow::Cow<'_, str> = if text.contains('_') {
                text.chars().filter(|&c| c != '_').collect::<String>().into()
            } else {
                text.into()
            };
            if let Ok(i) = go_parse_int(&plain, 0) {
                return Resolved::Int(i);
            }
            if let Ok(u) = go_parse_uint(&plain, 0) {
                return Resolved::Uint(u);
            }
            if yaml_style_float(&plain) {
                // Rust and Go both round correctly; Go reports overflow as an error.
                if let Some(f) = crate::gotext::parse_decimal(&plain).filter(|f| f.is_finite()) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotext::json_number as go_json_number;

    fn plain(s: &str) -> Scalar {
        resolve(s, true, None).unwrap()
    }
    /// The shortcut agrees with the resolution: every text it calls a string resolves to one,
    /// and it leaves every other kind of scalar to the resolution.
    #[test]
    fn plain_texts_known_to_be_strings_by_their_first_byte_resolve_to_strings() {
        let texts = [
            "",
            "~",
            "null",
            "Null",
            "true",
            "yes",
            "Y",
            "on",
            "off",
            "no",
            "N",
            "false",
            ".inf",
            "-.inf",
            "+.INF",
            ".nan",
            "0",
            "12",
            "-3",
            "+4",
            "0x1f",
            "0o17",
            "1_000",
            "1e3",
            "1.5",
            "2006-01-02",
            "0b101",
            "-0b1",
            "name",
            "quay.io/a/b:1",
            "Operator",
            "<<",
            "@x",
            "_x",
            "%x",
            "=",
            "\u{e9}t\u{e9}",
            "9lives",
            "yaml",
            "nope",
        ];
        for t in texts {
            let is_str = matches!(plain(t), Scalar::Str(_));
            if plain_is_string(t) {
                assert!(is_str, "{t:?} is a string by its first byte but does not resolve to one");
            }
            if !is_str {
                assert!(!plain_is_string(t), "{t:?}");
            }
        }
        assert!(plain_is_string("image") && !plain_is_string("null") && !plain_is_string("12"));
    }

    fn tagged(s: &str, tag: &str) -> Result<Scalar, String> {
        resolve(s, false, Some(tag))
    }
    fn str_(s: &str) -> Scalar {
        Scalar::Str(Str::from(s))
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
        assert_eq!(tagged("+/+/", "binary"), Ok(str_("\u{FFFD}\u{FFFD}\u{FFFD}")));
        assert_eq!(tagged("aGk=\r\n", "binary"), Ok(str_("hi")));
        assert_eq!(tagged("\naG\rk=", "binary"), Ok(str_("hi")));
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
            "aGk_",
            "aG-=",
            "aGk=\t",
            "aGk=\u{a0}",
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
    fn yaml_style_float_regex() {
        for s in ["1", "1.", "1.5", ".5", "+.5", "-1e5", "1E+5", "1.5e-5", "+1", "007"] {
            assert!(yaml_style_float(s), "{s:?}");
        }
        for s in ["", ".", "+", "e5", ".e5", "1e", "1.5.5", "1e5.5", "1x", " 1", "1_0", "0x1"] {
            assert!(!yaml_style_float(s), "{s:?}");
        }
    }

    /// Odd inputs for [`no_panics_on_odd_input`].
    const ODD: &[&str] = &[
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

    #[test]
    fn no_panics_on_odd_input() {
        let samples = ODD;
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
                    }
                }
            }
            let _ = parse_timestamp(s);
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
