//! Kubernetes' order of API version names (`CompareKubeAwareVersionStrings`): names of the form
//! `v<major>[alpha|beta<minor>]` come after all others; among them GA after beta after alpha,
//! then by major, then by minor; other names in reverse byte order.

use std::cmp::Ordering;

/// `a` against `b` in Kubernetes' version order (lowest first).
pub(crate) fn compare_kube_versions(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (parse(a), parse(b)) {
        (None, None) => b.cmp(a),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some((ma, ta, na)), Some((mb, tb, nb))) => ta.cmp(&tb).then(ma.cmp(&mb)).then(na.cmp(&nb)),
    }
}

/// (major, stability: alpha 0, beta 1, GA 2, minor) of a Kubernetes version name.
fn parse(v: &str) -> Option<(u64, u8, u64)> {
    let rest = v.strip_prefix('v')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let major: u64 = rest[..digits].parse().ok()?;
    let tail = &rest[digits..];
    if tail.is_empty() {
        return Some((major, 2, 0));
    }
    let (kind, minor) = if let Some(m) = tail.strip_prefix("alpha") {
        (0, m)
    } else if let Some(m) = tail.strip_prefix("beta") {
        (1, m)
    } else {
        return None;
    };
    if minor.is_empty() || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((major, kind, minor.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_versions_sort_ga_after_beta_after_alpha_then_by_number() {
        let mut v = vec!["v1", "v2beta1", "v1alpha1", "v1beta2", "v1beta1", "foo", "bar", "v10", "v2"];
        v.sort_by(|a, b| compare_kube_versions(a, b));
        assert_eq!(v, ["foo", "bar", "v1alpha1", "v1beta1", "v1beta2", "v2beta1", "v1", "v2", "v10"]);
    }
}
