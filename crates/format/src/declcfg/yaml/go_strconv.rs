//! Go's `strconv` number parsing as go-yaml v2's `resolve` calls it: `ParseInt` and
//! `ParseUint` with base 0 (`0x`, `0o`, `0b` prefixes, leading-`0` octal, `_` per Go's
//! `underscoreOK`) or an explicit base, and `ParseFloat` for the one case where go-yaml hands
//! it raw text (values starting with `.`). Only what scalar resolution needs: the parsed value,
//! or whether Go reports a syntax or a range error.

/// Go `strconv.ParseFloat(s, 64)` for a string that starts with `.` (the only case where
/// go-yaml hands the raw text, underscores included, to ParseFloat). `None` on a syntax error
/// or overflow.
pub(super) fn go_parse_float_dot(s: &str) -> Option<f64> {
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
    crate::gotext::parse_decimal(&clean).filter(|f| f.is_finite())
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
pub(super) enum NumErr {
    Syntax,
    Range,
}

/// Go `strconv.ParseUint(s, base, 64)` for base 0 (prefixes `0x`, `0o`, `0b`, leading-`0`
/// octal, underscores per Go syntax) or an explicit base 2..=36. No sign accepted.
pub(super) fn go_parse_uint(s: &str, base: u32) -> Result<u64, NumErr> {
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
pub(super) fn go_parse_int(s: &str, base: u32) -> Result<i64, NumErr> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
