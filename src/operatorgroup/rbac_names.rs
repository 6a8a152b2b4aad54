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

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

/// SHA-224 (FIPS 180-4): SHA-256 with its own initial values, cut to 28 bytes.
fn sha224(message: &[u8]) -> [u8; 28] {
    let mut h: [u32; 8] =
        [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4];
    let mut padded = message.to_vec();
    padded.push(0x80);
    while padded.len() % 64 != 56 {
        padded.push(0);
    }
    padded.extend_from_slice(&((message.len() as u64) * 8).to_be_bytes());
    for block in padded.chunks_exact(64) {
        compress(&mut h, block);
    }
    let mut out = [0u8; 28];
    for (i, word) in h.iter().take(7).enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

fn compress(h: &mut [u32; 8], block: &[u8]) {
    let mut w = [0u32; 64];
    for (i, c) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
    }
    for i in 16..64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    for i in 0..64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(maj);
        (hh, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
    }
    for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
        *x = x.wrapping_add(y);
    }
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
