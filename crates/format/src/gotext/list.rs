//! Lists of names in messages, capped: a message names at most a fixed number of items, then says
//! how many more there are (`a, b, c (and 19,990 more)`), so one finding about a huge channel
//! stays a line, not 200 KB. Two caps: [`OPM_LIST_CAP`] for messages that reproduce an upstream
//! text (generous, so every realistic message stays byte-identical to opm's) and [`LIST_CAP`] for
//! our own messages.

/// At most this many items in a message that reproduces opm's or OLM's text; beyond it the
/// message is ours, not theirs (upstream would print them all).
pub const OPM_LIST_CAP: usize = 100;

/// At most this many items in a message of our own (lints, explanations).
pub const LIST_CAP: usize = 10;

/// `n` with a comma every three digits, as in `19,990`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The suffix for `more` items left out: ` (and 19,990 more)`.
pub fn and_more(more: usize) -> String {
    format!(" (and {} more)", thousands(more))
}

/// `items` joined by `sep`, at most `cap` of them, then ` (and N more)`.
pub fn join_capped<S: AsRef<str>>(items: &[S], sep: &str, cap: usize) -> String {
    join_counted(items.iter().take(cap), items.len(), sep)
}

/// The first `shown` items (an iterator over at most the cap) of a list of `total` items, joined
/// by `sep`, then ` (and N more)` for the ones not shown: for lists that are counted without being
/// collected.
pub fn join_counted<S: AsRef<str>>(shown: impl IntoIterator<Item = S>, total: usize, sep: &str) -> String {
    let mut out = String::new();
    let mut n = 0;
    for item in shown {
        if n > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
        n += 1;
    }
    if total > n {
        out.push_str(&and_more(total - n));
    }
    out
}

/// Go's `%v` of a `[]string` ([`string_slice`](super::string_slice)), at most `cap` items:
/// `[a b c (and 19,990 more)]`.
pub fn string_slice_capped<S: AsRef<str>>(items: &[S], cap: usize) -> String {
    format!("[{}]", join_capped(items, " ", cap))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_get_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(19_990), "19,990");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn a_list_within_the_cap_is_joined_as_is() {
        assert_eq!(join_capped(&["a", "b", "c"], ", ", 3), "a, b, c");
        assert_eq!(join_capped::<&str>(&[], ", ", 3), "");
        assert_eq!(string_slice_capped(&["a", "b"], 2), "[a b]");
    }

    #[test]
    fn a_longer_list_names_the_first_items_and_counts_the_rest() {
        let names: Vec<String> = (0..20_000).map(|i| format!("b{i}")).collect();
        assert_eq!(join_capped(&names, ", ", 3), "b0, b1, b2 (and 19,997 more)");
        assert_eq!(join_capped(&names, " -> ", 2), "b0 -> b1 (and 19,998 more)");
        assert_eq!(string_slice_capped(&names, 2), "[b0 b1 (and 19,998 more)]");
        assert_eq!(join_counted(["x"], 5, ", "), "x (and 4 more)");
        assert_eq!(join_capped(&names, ", ", 0), " (and 20,000 more)");
    }

    #[test]
    fn capped_messages_stay_short() {
        let names: Vec<String> = (0..20_000).map(|i| format!("bundle.v1.0.{i}")).collect();
        assert!(join_capped(&names, ", ", OPM_LIST_CAP).len() < 2_000);
    }
}
