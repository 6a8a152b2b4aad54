//! DNS-1123 label checks for package names (spec `fbc.md` §3.1).
//!
//! This module owns a hand-written equivalent of kubernetes/apimachinery
//! `pkg/util/validation` `IsDNS1123Label`, returning the same messages in the
//! same order, and [`go_string_slice`], which prints a list of strings the way
//! Go's `%v` prints a `[]string` (`[a b]`), as used in
//! `invalid package name %q: %v`.

/// Maximum length in bytes of a DNS-1123 label.
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;

/// `RegexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc")`,
/// reproduced exactly, including the double space before `or`.
pub const DNS1123_LABEL_REGEX_ERROR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/// `MaxLenError(63)`.
pub const DNS1123_LABEL_TOO_LONG: &str = "must be no more than 63 characters";

/// Returned instead of the regex message when the value is a valid DNS-1123
/// subdomain (so its only problem is dots).
pub const DNS1123_LABEL_DOTS: &str = "must not contain dots";

/// `IsDNS1123Label`: the list of problems with `name`, empty when it is a
/// valid label.
///
/// - longer than 63 bytes: `must be no more than 63 characters`;
/// - not matching `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`: `must not contain dots`
///   if it still matches the DNS-1123 subdomain pattern (length not checked),
///   else the long regex message.
pub fn dns1123_label_errors(name: &str) -> Vec<String> {
    let mut errs = Vec::new();
    // Go's len() counts bytes.
    if name.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(DNS1123_LABEL_TOO_LONG.to_string());
    }
    if !is_label(name) {
        if is_subdomain(name) {
            errs.push(DNS1123_LABEL_DOTS.to_string());
        } else {
            errs.push(DNS1123_LABEL_REGEX_ERROR.to_string());
        }
    }
    errs
}

/// `true` when [`dns1123_label_errors`] finds nothing.
#[cfg(test)]
pub fn is_dns1123_label(name: &str) -> bool {
    name.len() <= DNS1123_LABEL_MAX_LENGTH && is_label(name)
}

/// Anchored `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn is_label(s: &str) -> bool {
    let b = s.as_bytes();
    let is_alnum = |x: u8| x.is_ascii_lowercase() || x.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) if is_alnum(f) && is_alnum(l) => {}
        _ => return false,
    }
    b.iter().all(|&x| is_alnum(x) || x == b'-')
}

/// Anchored `label(\.label)*`.
fn is_subdomain(s: &str) -> bool {
    s.split('.').all(is_label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_labels() {
        for s in ["a", "0", "abc", "a-b", "a--b", "123-abc", "my-name", "9a", &"a".repeat(63)] {
            assert!(dns1123_label_errors(s).is_empty(), "{:?}", s);
            assert!(is_dns1123_label(s), "{:?}", s);
        }
    }

    #[test]
    fn dots() {
        for s in ["a.b", "foo.bar.baz", "1.2.3"] {
            assert_eq!(dns1123_label_errors(s), vec!["must not contain dots".to_string()], "{:?}", s);
            assert!(!is_dns1123_label(s));
        }
    }

    #[test]
    fn regex_message() {
        for s in ["", "-", "-a", "a-", "A", "aBc", "a_b", ".", "a.", ".a", "a..b", "a.-b", "a b", "é", "a.B", "a/b"] {
            assert_eq!(dns1123_label_errors(s), vec![DNS1123_LABEL_REGEX_ERROR.to_string()], "{:?}", s);
            assert!(!is_dns1123_label(s));
        }
        assert!(DNS1123_LABEL_REGEX_ERROR.contains("'my-name',  or '123-abc'"));
    }

    #[test]
    fn too_long() {
        let long = "a".repeat(64);
        assert_eq!(dns1123_label_errors(&long), vec!["must be no more than 63 characters".to_string()]);
        assert!(!is_dns1123_label(&long));
        // Length first, then the pattern message.
        let long_dots = format!("{}.b", "a".repeat(62));
        assert_eq!(
            dns1123_label_errors(&long_dots),
            vec!["must be no more than 63 characters".to_string(), "must not contain dots".to_string()]
        );
        let long_bad = format!("{}_", "a".repeat(63));
        assert_eq!(
            dns1123_label_errors(&long_bad),
            vec!["must be no more than 63 characters".to_string(), DNS1123_LABEL_REGEX_ERROR.to_string()]
        );
        // Bytes, not characters: 32 two-byte characters are 64 bytes.
        let multibyte = "é".repeat(32);
        assert_eq!(
            dns1123_label_errors(&multibyte),
            vec!["must be no more than 63 characters".to_string(), DNS1123_LABEL_REGEX_ERROR.to_string()]
        );
        // The subdomain check itself ignores length (253 does not apply).
        let huge = vec!["a"; 200].join(".");
        assert_eq!(
            dns1123_label_errors(&huge),
            vec!["must be no more than 63 characters".to_string(), "must not contain dots".to_string()]
        );
    }

    #[test]
    fn go_slice_format() {
        assert_eq!(crate::gotext::string_slice::<String>(&[]), "[]");
        assert_eq!(crate::gotext::string_slice(&["a".to_string()]), "[a]");
        assert_eq!(crate::gotext::string_slice(&["a".to_string(), "b c".to_string()]), "[a b c]");
        assert_eq!(crate::gotext::string_slice(&["".to_string(), "".to_string()]), "[ ]");
        assert_eq!(crate::gotext::string_slice(&dns1123_label_errors("foo.bar")), "[must not contain dots]");
        assert_eq!(
            crate::gotext::string_slice(&dns1123_label_errors("Foo")),
            "[a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]"
        );
    }
}
