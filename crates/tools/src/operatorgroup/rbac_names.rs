//! The names and labels OLM derives from hashes when it generates RBAC, reproduced where OLM's
//! hash is a pure function of strings (and marked as a placeholder where it is not).
//!
//! - An OperatorGroup's ClusterRoles are `olm.og.<group>.<role>-<hash>`, the hash being
//!   `base62(SHA-224("<namespace>/<group>/<role>"))` (OLM's `getClusterRoleName`): reproduced by
//!   [`group_cluster_role_name`].
//! - The aggregation label of an API is `olm.opgroup.permissions/aggregate-to-<hash>-<role>`, the
//!   hash being FNV-64a of `Kind.version.group` in lower-case hex (`APIKeyToGVKHash`): reproduced
//!   by [`aggregation_label`].
//! - The Roles and ClusterRoles made from a CSV's `permissions` and `clusterPermissions` end in a
//!   hash of OLM's in-memory Go values (FNV-32a over a `go-spew` debug print of the CSV name and
//!   the permission struct, `generateName` in OLM's `resolver/rbac.go`): deterministic, but a
//!   function of Go type names and field layout, not of the CSV text alone, so it is not
//!   reproduced: [`HASH_PLACEHOLDER`] stands in its place.

use crate::property::Gvk;

/// What stands for the hash OLM appends to a permission's Role or ClusterRole name.
pub const HASH_PLACEHOLDER: &str = "<hash>";

/// Why [`HASH_PLACEHOLDER`] is not the real suffix (for reports).
pub const HASH_PLACEHOLDER_REASON: &str = "OLM suffixes the Roles and ClusterRoles it makes from `permissions` and \
`clusterPermissions` with FNV-32a of a go-spew print of its Go values (the CSV name, the namespace for a \
ClusterRole, the permission struct): stable for one OLM build, but not computable from the CSV text, so \
`<hash>` stands in for it";

/// Kubernetes' limit on a resource name (OLM's `kubeResourceNameLimit`).
const NAME_LIMIT: usize = 253;

/// OLM's limit on the names `generateName` makes (`maxNameLength`).
const GENERATED_NAME_LIMIT: usize = 63;

/// The ClusterRole OLM makes for `group` in `namespace` with role type `role` (`admin`, `edit`,
/// `view`): `olm.og.<group>.<role>-<hash>`, the group name cut so the name fits 253 characters.
pub fn group_cluster_role_name(namespace: &str, group: &str, role: &str) -> String {
    let hash = base62(&sha224(format!("{namespace}/{group}/{role}").as_bytes()));
    let limit = NAME_LIMIT - "olm.og..-".len() - role.len() - hash.len();
    let group = if group.len() < limit { group } else { cut(group, limit) };
    format!("olm.og.{group}.{role}-{hash}")
}

/// The label a provided API's ClusterRole carries and its group's ClusterRole selects:
/// `olm.opgroup.permissions/aggregate-to-<fnv64a hex of Kind.version.group>-<role>`.
pub fn aggregation_label(api: &Gvk, role: &str) -> String {
    let key = format!("{}.{}.{}", api.kind, api.version, api.group);
    format!("olm.opgroup.permissions/aggregate-to-{:x}-{role}", fnv64a(key.as_bytes()))
}

/// A name OLM's `generateName` makes from `base`: `<base>-<hash>` with the hash as
/// [`HASH_PLACEHOLDER`]; `base` is cut as OLM cuts it for the longest hash (10 characters) when
/// the name would exceed 63 characters.
pub fn generated_name(base: &str) -> String {
    const LONGEST_HASH: usize = 10;
    let base = if base.len() + LONGEST_HASH > GENERATED_NAME_LIMIT {
        cut(base, GENERATED_NAME_LIMIT - LONGEST_HASH - 1)
    } else {
        base
    };
    format!("{base}-{HASH_PLACEHOLDER}")
}

/// The first `n` bytes of `s` (Go slices bytes; a cut inside a character moves back to its start).
fn cut(s: &str, n: usize) -> &str {
    let mut end = n.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// FNV-1a, 64 bits.
fn fnv64a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A big-endian number in base 62 with Go's digits (`big.Int.Text(62)`): `0-9a-zA-Z`, no leading
/// zeros.
fn base62(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n: Vec<u8> = bytes.iter().copied().skip_while(|&b| b == 0).collect();
    let mut out = Vec::new();
    while !n.is_empty() {
        let mut rem = 0u32;
        for d in n.iter_mut() {
            let cur = rem * 256 + u32::from(*d);
            *d = (cur / 62) as u8;
            rem = cur % 62;
        }
        out.push(DIGITS[rem as usize]);
        let zeros = n.iter().take_while(|&&b| b == 0).count();
        n.drain(..zeros);
    }
    if out.is_empty() {
        out.push(b'0');
    }
    out.iter().rev().map(|&b| b as char).collect()
}

/// SHA-224 (FIPS 180-4), as Go's `crypto/sha256.Sum224`.
fn sha224(message: &[u8]) -> [u8; 28] {
    use sha2::Digest as _;
    sha2::Sha224::digest(message).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha224_matches_the_fips_examples() {
        assert_eq!(hex(&sha224(b"abc")), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
        assert_eq!(hex(&sha224(b"")), "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f");
        let two_blocks = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        assert_eq!(hex(&sha224(two_blocks)), "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525");
    }

    #[test]
    fn base62_uses_gos_digits_without_leading_zeros() {
        assert_eq!(base62(&[0, 0]), "0");
        assert_eq!(base62(&[61]), "Z");
        assert_eq!(base62(&[62]), "10");
        assert_eq!(base62(&[1, 0]), "48"); // 256 = 4*62 + 8
    }

    #[test]
    fn a_groups_cluster_roles_are_named_olm_og_group_role_hash() {
        // base62(SHA-224("operators/global/admin")), computed independently.
        assert_eq!(
            group_cluster_role_name("operators", "global", "admin"),
            "olm.og.global.admin-8tYz3SPASiNERpqwgmJaSaaF6Hf7uvHTiAwz4h"
        );
        assert_eq!(
            group_cluster_role_name("operators", "global", "view"),
            "olm.og.global.view-9eAUpZel17o5V221YbXWYax1C4osLi4HmMtLkS"
        );
        let long = "g".repeat(300);
        let name = group_cluster_role_name("ns", &long, "edit");
        assert!(name.len() <= 253, "{}", name.len());
    }

    #[test]
    fn an_apis_aggregation_label_hashes_kind_version_group() {
        let api = Gvk { group: "kube-green.com".into(), version: "v1alpha1".into(), kind: "SleepInfo".into() };
        assert_eq!(aggregation_label(&api, "edit"), "olm.opgroup.permissions/aggregate-to-b811a0371c0d261a-edit");
    }

    #[test]
    fn generated_names_carry_a_placeholder_and_fit_63_characters() {
        assert_eq!(generated_name("etcd.v1-etcd-operator"), "etcd.v1-etcd-operator-<hash>");
        let long = "x".repeat(70);
        assert_eq!(generated_name(&long), format!("{}-<hash>", "x".repeat(52)));
    }
}
