//! `WWW-Authenticate` challenges (RFC 7235): the scheme and its parameters, as a registry asks
//! for basic auth or a bearer token (`realm`, `service`, `scope`).

use std::collections::BTreeMap;

/// One challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// `bearer` or `basic` (lowercase).
    pub scheme: String,
    pub params: BTreeMap<String, String>,
}

impl Challenge {
    /// The first challenge of a header value.
    pub fn parse(header: &str) -> Option<Challenge> {
        let header = header.trim();
        let (scheme, rest) = header.split_once(' ').unwrap_or((header, ""));
        if scheme.is_empty() {
            return None;
        }
        let mut params = BTreeMap::new();
        let mut chars = rest.chars().peekable();
        loop {
            while chars.peek().is_some_and(|c| *c == ',' || c.is_whitespace()) {
                chars.next();
            }
            let key: String = std::iter::from_fn(|| chars.next_if(|c| *c != '=' && *c != ',')).collect();
            if key.is_empty() || chars.next() != Some('=') {
                break;
            }
            let mut value = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => value.extend(chars.next()),
                        '"' => break,
                        c => value.push(c),
                    }
                }
            } else {
                value = std::iter::from_fn(|| chars.next_if(|c| *c != ',')).collect::<String>().trim().to_string();
            }
            params.insert(key.trim().to_ascii_lowercase(), value);
        }
        Some(Challenge { scheme: scheme.to_ascii_lowercase(), params })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bearer_challenge_gives_realm_service_and_scope() {
        let c = Challenge::parse(
            r#"Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:a/b:pull,push""#,
        )
        .unwrap();
        assert_eq!(c.scheme, "bearer");
        assert_eq!(c.params["realm"], "https://auth.example.com/token");
        assert_eq!(c.params["service"], "registry.example.com");
        assert_eq!(c.params["scope"], "repository:a/b:pull,push");
    }

    #[test]
    fn a_basic_challenge_and_unquoted_values() {
        let c = Challenge::parse("Basic realm=basic-realm").unwrap();
        assert_eq!((c.scheme.as_str(), c.params["realm"].as_str()), ("basic", "basic-realm"));
        assert_eq!(Challenge::parse(""), None);
    }
}
