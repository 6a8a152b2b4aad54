//! Go's text for the values cel-go hands to `semver_compare`: `fmt.Sprint` of a Go value and
//! `%v` of a float64 (from [`crate::gotext`]).

use cel::objects::Key;
use cel::Value;

/// Values nested deeper than this print as `...` (the JSON depth bound keeps real ones lower).
const MAX_DEPTH: usize = 128;

/// The text Go's `fmt.Sprint` gives for the Go value cel-go holds for `value`.
///
/// Only strings and numbers can become versions; the other forms only need to fail parsing
/// (and read sensibly in the error).
pub(super) fn go_sprint(value: &Value, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return String::from("...");
    }
    match value {
        Value::String(s) => s.to_string(),
        Value::Float(f) => go_float(*f),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => String::from("NULL_VALUE"),
        Value::Bytes(bytes) => {
            let parts: Vec<String> = bytes.iter().map(u8::to_string).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::List(items) => {
            let parts: Vec<String> = items.iter().map(|x| go_sprint(x, depth + 1)).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Map(map) => {
            let mut parts: Vec<String> = map
                .map
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        Key::Int(i) => i.to_string(),
                        Key::Uint(u) => u.to_string(),
                        Key::Bool(b) => b.to_string(),
                        Key::String(s) => s.to_string(),
                    };
                    format!("{key}:{}", go_sprint(v, depth + 1))
                })
                .collect();
            crate::sort::sort(&mut parts);
            format!("map[{}]", parts.join(" "))
        }
        other => format!("{other:?}"),
    }
}

/// Go's `%v` of a float64 (see [`crate::gotext::format_g`]).
pub(super) fn go_float(f: f64) -> String {
    crate::gotext::format_g(f, 64)
}

#[cfg(test)]
mod tests {
    //! Go's formatting of the values `semver_compare` sees.

    use super::*;

    #[test]
    fn floats_print_like_gos_v_verb() {
        for (f, text) in [
            (1.0, "1"),
            (1.5, "1.5"),
            (-2.5, "-2.5"),
            (0.0, "0"),
            (-0.0, "-0"),
            (100000.0, "100000"),
            (123456.0, "123456"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (12345.678, "12345.678"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (0.00001, "1e-05"),
            (0.1, "0.1"),
            (1e100, "1e+100"),
            (1.25e-7, "1.25e-07"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
        ] {
            assert_eq!(go_float(f), text, "{f}");
        }
    }

    #[test]
    fn other_values_print_like_gos_sprint() {
        assert_eq!(go_sprint(&Value::Int(-3), 0), "-3");
        assert_eq!(go_sprint(&Value::Null, 0), "NULL_VALUE");
        assert_eq!(go_sprint(&Value::Bool(true), 0), "true");
        assert_eq!(go_sprint(&Value::List(vec![Value::Int(1), Value::Float(2.5)].into()), 0), "[1 2.5]");
    }
}
