//! How Go prints a float: `%v` (`strconv.FormatFloat(f, 'g', -1, bits)`) and `encoding/json`;
//! and how it reads one written in decimal ([`parse_decimal`], `strconv.ParseFloat`).
//!
//! Both use the shortest digits that read back to the same value (what Rust's `{:e}` gives);
//! they differ in when they switch to exponent form: `%v` when the decimal exponent is below -4
//! or at least 6 (`1e+06`), JSON when the magnitude is below 1e-6 or at least 1e21.

/// The shortest digits of a finite, non-zero `abs` and its decimal exponent `e`
/// (`abs = d.ddd × 10^e`).
fn shortest(abs: f64, bits: u32) -> (String, i32) {
    let s = if bits == 32 { format!("{:e}", abs as f32) } else { format!("{abs:e}") };
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    (mant.replace('.', ""), exp.parse().unwrap_or(0))
}

/// The `f64` nearest to decimal text `[+-]digits[.digits][(e|E)[+-]digits]` (digits may be
/// missing on one side of the point, not both), correctly rounded as Go's `strconv.ParseFloat`
/// and Rust's `str::parse` round it; an infinity when it overflows. `None` for any other text
/// (`inf`, `nan`, hexadecimal and underscores are the callers' business).
///
/// The same value as `text.parse::<f64>()` on that grammar, without the standard library's
/// table of 651 powers of five, 10 KB in every WebAssembly module that parses a float.
pub fn parse_decimal(text: &str) -> Option<f64> {
    use lexical_parse_float::FromLexical;
    let b = text.as_bytes();
    let body = match b.first() {
        Some(b'+' | b'-') => &b[1..],
        _ => b,
    };
    // The grammar checked here: the crate reads `inf`, `NaN` and other spellings too.
    let mantissa = body.iter().position(|c| matches!(c, b'e' | b'E')).map_or(body, |e| &body[..e]);
    let exponent = &body[mantissa.len()..];
    let digits = mantissa.iter().filter(|c| c.is_ascii_digit()).count();
    let points = mantissa.iter().filter(|&&c| c == b'.').count();
    let exponent_ok = match exponent {
        [] => true,
        [_, b'+' | b'-', rest @ ..] | [_, rest @ ..] => !rest.is_empty() && rest.iter().all(u8::is_ascii_digit),
    };
    if digits == 0 || points > 1 || digits + points != mantissa.len() || !exponent_ok {
        return None;
    }
    f64::from_lexical(b).ok()
}

/// `d.ddde±XX` with Go's at-least-two-digit exponent.
fn exponent_form(neg: bool, digits: &str, exp: i32) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&digits[..1]);
    if digits.len() > 1 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    let sign = if exp < 0 { '-' } else { '+' };
    out.push_str(&format!("e{sign}{:02}", exp.unsigned_abs()));
    out
}

/// Plain decimal form of `digits × 10^(exp - len + 1)`.
fn decimal_form(neg: bool, digits: &str, exp: i32) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let point = exp + 1;
    if point <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat(point.unsigned_abs() as usize));
        out.push_str(digits);
    } else if point as usize >= digits.len() {
        out.push_str(digits);
        out.push_str(&"0".repeat(point as usize - digits.len()));
    } else {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    }
    out
}

/// Go's `%v` of a float: `strconv.FormatFloat(f, 'g', -1, bits)`. `bits` 32 rounds to `float32`
/// first (anything else means 64). Special values print as `NaN`, `+Inf`, `-Inf`.
pub fn format_g(f: f64, bits: u32) -> String {
    let f = if bits == 32 { f64::from(f as f32) } else { f };
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let (digits, exp) = shortest(f.abs(), bits);
    if !(-4..6).contains(&exp) {
        exponent_form(f < 0.0, &digits, exp)
    } else {
        decimal_form(f < 0.0, &digits, exp)
    }
}

/// The JSON text Go's `encoding/json` writes for a `float64`: plain decimal unless
/// `abs < 1e-6` or `abs >= 1e21` (then `1e+21`, `1e-7`: Go trims the exponent's leading zero
/// for negative exponents), `-0` for negative zero. NaN and infinities are Go's error
/// (`json: unsupported value: +Inf`).
pub fn json_number(f: f64) -> Result<String, String> {
    if !f.is_finite() {
        return Err(format!("json: unsupported value: {}", format_g(f, 64)));
    }
    if f == 0.0 {
        return Ok(if f.is_sign_negative() { "-0" } else { "0" }.into());
    }
    let abs = f.abs();
    let (digits, exp) = shortest(abs, 64);
    if (1e-6..1e21).contains(&abs) {
        return Ok(decimal_form(f < 0.0, &digits, exp));
    }
    let s = exponent_form(f < 0.0, &digits, exp);
    Ok(match s.split_once("e-0") {
        Some((mant, rest)) => format!("{mant}e-{rest}"),
        None => s,
    })
}

#[cfg(test)]
mod tests {
    use super::{format_g, json_number, parse_decimal};

    /// `parse_decimal` must be `str::parse::<f64>` on the decimal grammar, bit for bit, and
    /// refuse everything else.
    fn same_as_std(text: &str) {
        let std = text.parse::<f64>().ok();
        let decimal = text.bytes().all(|c| c.is_ascii_digit() || b"+-.eE".contains(&c));
        let ours = parse_decimal(text);
        if decimal || ours.is_some() {
            assert_eq!(ours.map(f64::to_bits), std.map(f64::to_bits), "{text:?}");
        }
    }

    #[test]
    fn decimal_text_reads_as_the_standard_library_reads_it() {
        for s in [
            "0",
            "-0",
            "+0",
            "1",
            "1.",
            ".5",
            "+.5",
            "-1e5",
            "1E+5",
            "1.5e-5",
            "007",
            "0.1",
            "3.14159",
            "1e308",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e309",
            "2.2250738585072014e-308",
            "4.9e-324",
            "2.4e-324",
            "2.5e-324",
            "1e-400",
            "9007199254740993",
            "123456789012345678901234567890",
            "0.000000000000000000000000000001",
            "1e0000000000000000000001",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "9007199254740992.5",
            "9007199254740993.0000000001",
        ] {
            same_as_std(s);
            assert!(parse_decimal(s).is_some(), "{s}");
        }
        for s in [
            "", ".", "+", "-", "e5", ".e5", "1e", "1e+", "1.5.5", "1e5.5", "1x", " 1", "1_0", "0x1", "inf", "-inf",
            "infinity", "NaN", "nan", "1e5e5", "++1", "1+", "٣",
        ] {
            assert_eq!(parse_decimal(s), None, "{s:?}");
        }
    }

    #[test]
    fn random_decimal_text_reads_as_the_standard_library_reads_it() {
        // A fixed xorshift sequence: many digits (rounding halfway cases), exponents at the
        // edges of the range (overflow, subnormals) and stray signs and points.
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = move |n: u64| rng.next() % n;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..next(3) {
                s.push(b"+-."[next(3) as usize] as char);
            }
            for _ in 0..next(40) {
                s.push((b'0' + next(10) as u8) as char);
            }
            if next(2) == 0 {
                s.push('.');
            }
            for _ in 0..next(25) {
                s.push((b'0' + next(10) as u8) as char);
            }
            if next(2) == 0 {
                s.push(if next(2) == 0 { 'e' } else { 'E' });
                if next(2) == 0 {
                    s.push(if next(2) == 0 { '-' } else { '+' });
                }
                s.push_str(&next(700).to_string());
            }
            same_as_std(&s);
        }
    }

    #[test]
    fn percent_v_switches_to_exponent_form_at_a_million() {
        assert_eq!(format_g(999_999.0, 64), "999999");
        assert_eq!(format_g(1_000_000.0, 64), "1e+06");
        assert_eq!(format_g(1_234_567.0, 64), "1.234567e+06");
        assert_eq!(format_g(1e21, 64), "1e+21");
        assert_eq!(format_g(0.0001, 64), "0.0001");
        assert_eq!(format_g(0.00001, 64), "1e-05");
        assert_eq!(format_g(1.5, 64), "1.5");
        assert_eq!(format_g(-2.0, 64), "-2");
        assert_eq!(format_g(-0.0, 64), "-0");
        assert_eq!(format_g(f64::INFINITY, 64), "+Inf");
        assert_eq!(format_g(f64::NAN, 64), "NaN");
    }

    #[test]
    fn thirty_two_bit_floats_round_first() {
        assert_eq!(format_g(0.1, 32), "0.1");
        assert_eq!(format_g(16_777_217.0, 32), "1.6777216e+07");
    }

    #[test]
    fn json_switches_at_1e21() {
        assert_eq!(json_number(1_000_000.0).unwrap(), "1000000");
        assert_eq!(json_number(1e20).unwrap(), "100000000000000000000");
        assert_eq!(json_number(1e21).unwrap(), "1e+21");
        assert_eq!(json_number(1.5e-7).unwrap(), "1.5e-7");
        assert_eq!(json_number(1e-6).unwrap(), "0.000001");
        assert_eq!(json_number(-0.0).unwrap(), "-0");
        assert_eq!(json_number(f64::NEG_INFINITY).unwrap_err(), "json: unsupported value: -Inf");
    }

    #[test]
    fn percent_v_edge_values() {
        assert_eq!(format_g(0.1 + 0.2, 64), "0.30000000000000004");
        assert_eq!(format_g(1.5e300, 64), "1.5e+300");
        assert_eq!(format_g(5e-324, 64), "5e-324");
        assert_eq!(format_g(f64::MAX, 64), "1.7976931348623157e+308");
        assert_eq!(format_g(f32::MAX as f64, 32), "3.4028235e+38");
        assert_eq!(format_g(1e-45, 32), "1e-45");
    }

    #[test]
    fn json_edge_values() {
        let j = |f: f64| json_number(f).unwrap();
        assert_eq!(j(123456789012345680000.0), "123456789012345680000");
        assert_eq!(j(1.5e21), "1.5e+21");
        assert_eq!(j(1e300), "1e+300");
        assert_eq!(j(0.0000015), "0.0000015");
        assert_eq!(j(-1.5e-7), "-1.5e-7");
        assert_eq!(j(1e-10), "1e-10");
        assert_eq!(j(1e-100), "1e-100");
        assert_eq!(j(5e-324), "5e-324");
        assert_eq!(j(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(j(9007199254740993.0), "9007199254740992");
        assert_eq!(j(18446744073709551616.0), "18446744073709552000");
        assert_eq!(j(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(json_number(f64::NAN), Err("json: unsupported value: NaN".into()));
    }
}
