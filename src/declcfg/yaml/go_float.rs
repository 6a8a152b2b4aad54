//! Go's float text, as opm's libraries print floats: `strconv.FormatFloat(f, 'g', -1, 32|64)`
//! (sigs.k8s.io/yaml names float map keys with the 32-bit form) and `encoding/json`'s number
//! text for a `float64`. Kept together in this one file, to be replaced by a shared Go-text
//! module.
//!
//! The loader only needs [`format_float_g`] today (float keys); the value model keeps `f64`
//! and `value::go_float` prints it. [`go_json_number`] and [`json_number_text`] are kept with
//! their tests for that shared module.

use super::scalar::Scalar;

/// The JSON text Go's `encoding/json` writes for a scalar that is a number (`None` for null,
/// booleans and strings). Errors as [`go_json_number`] for NaN and infinities.
#[cfg_attr(not(test), allow(dead_code))]
pub(super) fn json_number_text(s: &Scalar) -> Option<Result<String, String>> {
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
#[cfg_attr(not(test), allow(dead_code))]
pub(super) fn go_json_number(f: f64) -> Result<String, String> {
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
pub(super) fn format_float_g(f: f64, bit_size: u32) -> String {
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

/// Shortest round-trip decimal digits of a finite, positive `f64`, with the decimal point
/// position: value = 0.d1d2d3... × 10^dp.
fn shortest_digits_f64(f: f64) -> (String, i32) {
    split_exp(&format!("{f:e}"))
}

/// As [`shortest_digits_f64`] for a `f32` (digits that round-trip at 32-bit precision).
fn shortest_digits_f32(f: f32) -> (String, i32) {
    split_exp(&format!("{f:e}"))
}

/// Digits and decimal-point position from Rust's `{:e}` text (`1.5e3` gives `15` and 4).
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
    use super::super::scalar::resolve;
    use super::*;

    fn plain(s: &str) -> Scalar {
        resolve(s, true, None).unwrap()
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
}
