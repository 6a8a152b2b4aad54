//! The checks of crdify's default registry as OLM v1's preflight configures them, one function
//! per check on one property's old and new schema (children dropped), each returning crdify's
//! message when the change is refused: `enum` allows added values, `description` is not
//! enforced, everything else refuses (pattern and nullable: added, changed or removed).

use std::collections::BTreeSet;

use super::schema::Schema;
use crate::gotext::{format_g, quote, string_slice};

/// A check of the preflight: crdify's check names, and `unhandled` for a change no check
/// classifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub enum Check {
    Default,
    Enum,
    ExistingFieldRemoval,
    MaxItems,
    MaxLength,
    MaxProperties,
    Maximum,
    MinItems,
    MinLength,
    MinProperties,
    Minimum,
    Nullable,
    Pattern,
    Required,
    Scope,
    StoredVersionRemoval,
    Type,
    Unhandled,
}

impl Check {
    /// crdify's name of the check.
    pub fn name(self) -> &'static str {
        match self {
            Check::Default => "default",
            Check::Enum => "enum",
            Check::ExistingFieldRemoval => "existingFieldRemoval",
            Check::MaxItems => "maxItems",
            Check::MaxLength => "maxLength",
            Check::MaxProperties => "maxProperties",
            Check::Maximum => "maximum",
            Check::MinItems => "minItems",
            Check::MinLength => "minLength",
            Check::MinProperties => "minProperties",
            Check::Minimum => "minimum",
            Check::Nullable => "nullable",
            Check::Pattern => "pattern",
            Check::Required => "required",
            Check::Scope => "scope",
            Check::StoredVersionRemoval => "storedVersionRemoval",
            Check::Type => "type",
            Check::Unhandled => "unhandled",
        }
    }

    /// Every check, ordered by name (`unhandled` last), the order of the preflight's lines.
    pub const ALL: [Check; 18] = [
        Check::Default,
        Check::Enum,
        Check::ExistingFieldRemoval,
        Check::MaxItems,
        Check::MaxLength,
        Check::MaxProperties,
        Check::Maximum,
        Check::MinItems,
        Check::MinLength,
        Check::MinProperties,
        Check::Minimum,
        Check::Nullable,
        Check::Pattern,
        Check::Required,
        Check::Scope,
        Check::StoredVersionRemoval,
        Check::Type,
        Check::Unhandled,
    ];
}

/// The property checks' refusals for one property (`unhandled` excepted), in check order.
pub(crate) fn property_checks(a: &Schema, b: &Schema) -> Vec<(Check, String)> {
    let checks: [(Check, Option<String>); 14] = [
        (Check::Default, default(a, b)),
        (Check::Enum, enum_(a, b)),
        (Check::MaxItems, max(a.max_items, b.max_items, int)),
        (Check::MaxLength, max(a.max_length, b.max_length, int)),
        (Check::MaxProperties, max(a.max_properties, b.max_properties, int)),
        (Check::Maximum, max(a.maximum, b.maximum, float)),
        (Check::MinItems, min(a.min_items, b.min_items, int)),
        (Check::MinLength, min(a.min_length, b.min_length, int)),
        (Check::MinProperties, min(a.min_properties, b.min_properties, int)),
        (Check::Minimum, min(a.minimum, b.minimum, float)),
        (Check::Nullable, nullable(a, b)),
        (Check::Pattern, pattern(a, b)),
        (Check::Required, required(a, b)),
        (Check::Type, type_(a, b)),
    ];
    checks.into_iter().filter_map(|(c, m)| Some((c, m?))).collect()
}

fn int(v: i64) -> String {
    v.to_string()
}

fn float(v: f64) -> String {
    format_g(v, 64)
}

fn default(a: &Schema, b: &Schema) -> Option<String> {
    match (&a.default, &b.default) {
        (None, Some(new)) => Some(format!("default added when there was none previously : {}", quote(new))),
        (Some(old), None) => Some(format!("default value removed : {}", quote(old))),
        (Some(old), Some(new)) if old != new => {
            Some(format!("default value changed : {} -> {}", quote(old), quote(new)))
        }
        _ => None,
    }
}

fn enum_(a: &Schema, b: &Schema) -> Option<String> {
    let old: BTreeSet<&str> = a.enum_.iter().map(String::as_str).collect();
    let new: BTreeSet<&str> = b.enum_.iter().map(String::as_str).collect();
    if old.is_empty() && !new.is_empty() {
        let values: Vec<&str> = new.into_iter().collect();
        return Some(format!("enum constraint added when there was none previously : {}", string_slice(&values)));
    }
    let removed: Vec<&str> = old.difference(&new).copied().collect();
    (!removed.is_empty()).then(|| format!("allowed enum values removed : {}", string_slice(&removed)))
}

fn max<T: PartialOrd + Copy>(old: Option<T>, new: Option<T>, show: fn(T) -> String) -> Option<String> {
    match (old, new) {
        (None, Some(n)) => Some(format!("maximum constraint added when there was none previously : {}", show(n))),
        (Some(o), Some(n)) if n < o => Some(format!("maximum decreased : {} -> {}", show(o), show(n))),
        _ => None,
    }
}

fn min<T: PartialOrd + Copy>(old: Option<T>, new: Option<T>, show: fn(T) -> String) -> Option<String> {
    match (old, new) {
        (None, Some(n)) => Some(format!("minimum constraint added when there was none previously : {}", show(n))),
        (Some(o), Some(n)) if n > o => Some(format!("minimum increased : {} -> {}", show(o), show(n))),
        _ => None,
    }
}

fn nullable(a: &Schema, b: &Schema) -> Option<String> {
    match (a.nullable, b.nullable) {
        (false, true) => Some("nullable added : false -> true".into()),
        (true, false) => Some("nullable removed : true -> false".into()),
        _ => None,
    }
}

fn pattern(a: &Schema, b: &Schema) -> Option<String> {
    let (old, new) = (&a.pattern, &b.pattern);
    let what = match (old.is_empty(), new.is_empty()) {
        _ if old == new => return None,
        (true, false) => "pattern added",
        (false, true) => "pattern removed",
        _ => "pattern changed",
    };
    Some(format!("{what} : {} -> {}", quote(old), quote(new)))
}

/// The fields required now that were not before, sorted (crdify lists a set, in no order).
fn required(a: &Schema, b: &Schema) -> Option<String> {
    let old: BTreeSet<&str> = a.required.iter().map(String::as_str).collect();
    let added: BTreeSet<&str> = b.required.iter().map(String::as_str).filter(|r| !old.contains(r)).collect();
    let added: Vec<&str> = added.into_iter().collect();
    (!added.is_empty()).then(|| format!("new required fields: {}", string_slice(&added)))
}

fn type_(a: &Schema, b: &Schema) -> Option<String> {
    (a.type_ != b.type_).then(|| format!("type changed : {} -> {}", quote(&a.type_), quote(&b.type_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(edit_old: impl Fn(&mut Schema), edit_new: impl Fn(&mut Schema)) -> Vec<(Check, String)> {
        let (mut a, mut b) = (Schema::default(), Schema::default());
        edit_old(&mut a);
        edit_new(&mut b);
        property_checks(&a, &b)
    }

    fn one(check: Check, message: &str) -> Vec<(Check, String)> {
        vec![(check, message.to_string())]
    }

    #[test]
    fn a_type_change_is_refused() {
        let got = pair(|a| a.type_ = "string".into(), |b| b.type_ = "integer".into());
        assert_eq!(got, one(Check::Type, r#"type changed : "string" -> "integer""#));
    }

    #[test]
    fn new_required_fields_are_refused_and_listed_sorted() {
        let got = pair(|a| a.required = vec!["a".into()], |b| b.required = vec!["c".into(), "a".into(), "b".into()]);
        assert_eq!(got, one(Check::Required, "new required fields: [b c]"));
    }

    #[test]
    fn a_required_field_made_optional_is_allowed() {
        assert_eq!(pair(|a| a.required = vec!["a".into()], |_| {}), vec![]);
    }

    #[test]
    fn a_default_added_changed_or_removed_is_refused() {
        let added = pair(|_| {}, |b| b.default = Some(r#""Full""#.into()));
        assert_eq!(added, one(Check::Default, r#"default added when there was none previously : "\"Full\"""#));
        let changed = pair(|a| a.default = Some("1".into()), |b| b.default = Some("2".into()));
        assert_eq!(changed, one(Check::Default, r#"default value changed : "1" -> "2""#));
        let removed = pair(|a| a.default = Some("1".into()), |_| {});
        assert_eq!(removed, one(Check::Default, r#"default value removed : "1""#));
    }

    #[test]
    fn an_enum_added_where_there_was_none_is_refused() {
        let got = pair(|_| {}, |b| b.enum_ = vec![r#""b""#.into(), r#""a""#.into()]);
        assert_eq!(got, one(Check::Enum, r#"enum constraint added when there was none previously : ["a" "b"]"#));
    }

    #[test]
    fn enum_values_removed_are_refused_and_values_added_allowed() {
        let removed = pair(|a| a.enum_ = vec!["1".into(), "2".into()], |b| b.enum_ = vec!["2".into(), "3".into()]);
        assert_eq!(removed, one(Check::Enum, "allowed enum values removed : [1]"));
        assert_eq!(pair(|a| a.enum_ = vec!["1".into()], |b| b.enum_ = vec!["1".into(), "2".into()]), vec![]);
        // crdify counts the values of an enum dropped altogether as removed.
        assert_eq!(pair(|a| a.enum_ = vec!["1".into()], |_| {}), one(Check::Enum, "allowed enum values removed : [1]"));
    }

    #[test]
    fn a_maximum_added_or_lowered_is_refused_and_raised_allowed() {
        let added = pair(|_| {}, |b| b.max_length = Some(63));
        assert_eq!(added, one(Check::MaxLength, "maximum constraint added when there was none previously : 63"));
        let lowered = pair(|a| a.max_items = Some(5), |b| b.max_items = Some(3));
        assert_eq!(lowered, one(Check::MaxItems, "maximum decreased : 5 -> 3"));
        let float = pair(|a| a.maximum = Some(1.5), |b| b.maximum = Some(1e6));
        assert_eq!(float, vec![]);
        let props = pair(|a| a.max_properties = Some(2), |b| b.max_properties = Some(1));
        assert_eq!(props, one(Check::MaxProperties, "maximum decreased : 2 -> 1"));
        assert_eq!(
            pair(|a| a.maximum = Some(1e6), |b| b.maximum = Some(2.5)),
            one(Check::Maximum, "maximum decreased : 1e+06 -> 2.5")
        );
    }

    #[test]
    fn a_minimum_added_or_raised_is_refused_and_lowered_or_removed_allowed() {
        let added = pair(|_| {}, |b| b.min_length = Some(1));
        assert_eq!(added, one(Check::MinLength, "minimum constraint added when there was none previously : 1"));
        let raised = pair(|a| a.minimum = Some(0.0), |b| b.minimum = Some(1.0));
        assert_eq!(raised, one(Check::Minimum, "minimum increased : 0 -> 1"));
        assert_eq!(pair(|a| a.min_items = Some(2), |b| b.min_items = Some(1)), vec![]);
        assert_eq!(pair(|a| a.min_properties = Some(2), |_| {}), vec![]);
        assert_eq!(pair(|_| {}, |b| b.min_properties = Some(1)).len(), 1);
    }

    #[test]
    fn a_pattern_added_changed_or_removed_is_refused() {
        assert_eq!(pair(|_| {}, |b| b.pattern = "x".into()), one(Check::Pattern, r#"pattern added : "" -> "x""#));
        assert_eq!(pair(|a| a.pattern = "x".into(), |_| {}), one(Check::Pattern, r#"pattern removed : "x" -> """#));
        let changed = pair(|a| a.pattern = "x".into(), |b| b.pattern = "y".into());
        assert_eq!(changed, one(Check::Pattern, r#"pattern changed : "x" -> "y""#));
    }

    #[test]
    fn nullable_added_or_removed_is_refused() {
        assert_eq!(pair(|_| {}, |b| b.nullable = true), one(Check::Nullable, "nullable added : false -> true"));
        assert_eq!(pair(|a| a.nullable = true, |_| {}), one(Check::Nullable, "nullable removed : true -> false"));
    }

    #[test]
    fn a_description_change_is_ignored() {
        assert_eq!(pair(|a| a.description = "a".into(), |b| b.description = "b".into()), vec![]);
    }
}
