//! The details of the preflight's `unhandled` message. crdify reports an unhandled change with
//! go-cmp's diff of the two schemas (`cmp.Diff`), and operator-controller shortens it to
//! `unhandled changes found (Field old -> new; …)` from the diff's lines marked `-` and `+`
//! that read `field: value`. This module rebuilds those marked lines from the two schemas, with
//! go-cmp's rules for what it marks and how it prints values ([`tree`], [`report`], over the
//! schemas as Go values, [`value`]), and applies the preflight's shortening to them.

mod report;
mod tree;
mod value;

use crate::crd_safety::schema::Schema;
use value::Gv;

/// The `Field old -> new` details the preflight reads from go-cmp's diff of what the property
/// checks left of `a` and `b`, in order of first appearance.
pub(crate) fn unhandled_details(a: &Schema, b: &Schema) -> Vec<String> {
    let x = Gv::Ptr(Some(Box::new(value::schema(a, true))), None);
    let y = Gv::Ptr(Some(Box::new(value::schema(b, true))), None);
    let root = tree::compare(Some(&x), Some(&y));
    let Some(text) = report::Opts::root().format_diff(&root, None) else { return Vec::new() };
    let lines = report::marked_lines(&text);
    summarize(&lines)
}

#[derive(Default)]
struct Entry {
    before: String,
    after: String,
    before_raw: String,
    after_raw: String,
}

/// The preflight's shortening of marked diff lines (each `(sign, text)`).
fn summarize(lines: &[(char, String)]) -> Vec<String> {
    let mut entries: Vec<(String, Entry)> = Vec::new();
    for (sign, text) in lines {
        let cleaned = text.trim().trim_start_matches('\t').trim();
        let cleaned = cleaned.strip_suffix(',').unwrap_or(cleaned);
        let Some((field, raw)) = cleaned.split_once(':') else { continue };
        let (field, raw) = (field.trim(), raw.trim());
        if field.is_empty() {
            continue;
        }
        let value = normalize(raw);
        let i = match entries.iter().position(|(f, _)| f == field) {
            Some(i) => i,
            None => {
                entries.push((field.to_string(), Entry::default()));
                entries.len() - 1
            }
        };
        let e = &mut entries[i].1;
        if *sign == '-' {
            (e.before, e.before_raw) = (value, raw.to_string());
        } else {
            (e.after, e.after_raw) = (value, raw.to_string());
        }
    }
    let mut out = Vec::new();
    for (field, e) in entries {
        if (e.before.is_empty() && e.after.is_empty()) || (e.before == e.after && e.before_raw == e.after_raw) {
            continue;
        }
        let before = if e.before.is_empty() { "<empty>".to_string() } else { e.before.clone() };
        let mut after = if e.after.is_empty() { "<empty>".to_string() } else { e.after.clone() };
        if e.before == e.after {
            after.push_str(" (changed)");
        }
        out.push(format!("{field} {before} -> {after}"));
    }
    out
}

fn normalize(value: &str) -> String {
    let value = value.strip_suffix(',').unwrap_or(value).trim();
    match value {
        "" => return "<empty>".into(),
        "\"\"" => return value.into(),
        _ => {}
    }
    let value = value.replace("v1.", "");
    if value.contains("JSONSchemaProps") {
        return "<complex value>".into();
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details(a: impl Fn(&mut Schema), b: impl Fn(&mut Schema)) -> Vec<String> {
        let (mut x, mut y) = (Schema::default(), Schema::default());
        a(&mut x);
        b(&mut y);
        unhandled_details(&x, &y)
    }

    #[test]
    fn a_list_type_added_reads_nil_to_its_pointer() {
        let got = details(|_| {}, |b| b.x_list_type = Some("atomic".into()));
        assert_eq!(got, [r#"XListType nil -> &"atomic""#]);
    }

    #[test]
    fn list_map_keys_removed_read_as_a_typed_slice() {
        let got = details(
            |a| (a.x_list_map_keys, a.x_list_type) = (vec!["protocol".into(), "port".into()], Some("map".into())),
            |b| b.x_list_type = Some("atomic".into()),
        );
        assert_eq!(got, [r#"XListMapKeys []string{"protocol", "port"} -> nil"#, r#"XListType &"map" -> &"atomic""#]);
    }

    #[test]
    fn handled_fields_and_children_are_not_part_of_the_diff() {
        let got = details(|a| a.type_ = "string".into(), |b| b.format = "email".into());
        assert_eq!(got, [r#"Format "" -> "email""#]);
    }

    #[test]
    fn an_additional_properties_schema_removed_is_a_complex_value() {
        let got = details(
            |a| {
                let s = Schema { type_: "string".into(), ..Schema::default() };
                a.additional_properties =
                    Some(crate::crd_safety::schema::OrBool { allows: true, schema: Some(Box::new(s)) })
            },
            |_| {},
        );
        assert_eq!(got, ["AdditionalProperties <complex value> -> nil"]);
    }

    #[test]
    fn the_summary_keeps_the_last_value_of_a_field_and_marks_equal_looking_changes() {
        let lines = [
            ('-', "A: 1".to_string()),
            ('+', "A: 2".to_string()),
            ('+', "B: v1.X".to_string()),
            ('-', "B: X".to_string()),
        ];
        assert_eq!(summarize(&lines), ["A 1 -> 2", "B X -> X (changed)"]);
    }
}
