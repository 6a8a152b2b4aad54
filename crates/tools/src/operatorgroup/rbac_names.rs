//! The names and labels OLM derives from hashes when it generates RBAC, each reproduced byte for
//! byte from the CSV's text.
//!
//! - An OperatorGroup's ClusterRoles are `olm.og.<group>.<role>-<hash>`, the hash being
//!   `base62(SHA-224("<namespace>/<group>/<role>"))` (OLM's `getClusterRoleName`): reproduced by
//!   [`group_cluster_role_name`].
//! - The aggregation label of an API is `olm.opgroup.permissions/aggregate-to-<hash>-<role>`, the
//!   hash being FNV-64a of `Kind.version.group` in lower-case hex (`APIKeyToGVKHash`): reproduced
//!   by [`aggregation_label`].
//! - The Roles, ClusterRoles and bindings made from a CSV's `permissions` and `clusterPermissions`
//!   are `<base>-<hash>` (`generateName` in OLM's `resolver/rbac.go`): the hash is
//!   `base62(SHA-224(…))` of the Go `encoding/json` encoding, newline-terminated as `json.Encoder`
//!   writes it, of `{name, [namespace,] permission}` (`DeepHashObject`), and the base is cut so
//!   that base and hash fit 63 bytes: reproduced by [`role_name`] and [`cluster_role_name`].
//! - Those objects carry `olm.permissions.hash`: `base62(SHA-224(json.Marshal(rules)))` on a role
//!   ([`rules_hash`]), of the role reference and subjects on a binding ([`binding_hash`]).
//!
//! The encodings follow Go's struct field order, `omitempty`, nil slices as `null`, and HTML
//! escaping (`<`, `>`, `&` as `\u003c`, …), byte for byte.

use crate::gotext::write_json_string;
use crate::model::csv::{PolicyRule, StrategyPermissions};
use crate::property::Gvk;

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

/// The label OLM puts on the Roles, ClusterRoles and bindings it generates for a CSV.
pub const PERMISSIONS_HASH_LABEL: &str = "olm.permissions.hash";

/// The API group of a binding's role reference.
pub const RBAC_API_GROUP: &str = "rbac.authorization.k8s.io";

/// The Role (and RoleBinding) OLM makes for CSV `csv` for one `permissions` entry:
/// `generateName("<csv>-<serviceAccount>", {name, permission})`.
pub fn role_name(csv: &str, perm: &StrategyPermissions) -> String {
    let mut json = String::from("{");
    if !csv.is_empty() {
        json.push_str("\"name\":");
        write_json_string(csv, true, &mut json);
        json.push(',');
    }
    json.push_str("\"permission\":");
    write_permission(perm, &mut json);
    json.push('}');
    generated_name(&format!("{csv}-{}", perm.service_account_name), &json)
}

/// The ClusterRole (and ClusterRoleBinding) OLM makes for CSV `csv` installed in `namespace` for
/// one `clusterPermissions` entry: `generateName("<csv>", {name, namespace, permission})`.
pub fn cluster_role_name(csv: &str, namespace: &str, perm: &StrategyPermissions) -> String {
    let mut json = String::from("{");
    for (key, value) in [("name", csv), ("namespace", namespace)] {
        if !value.is_empty() {
            json.push_str(&format!("\"{key}\":"));
            write_json_string(value, true, &mut json);
            json.push(',');
        }
    }
    json.push_str("\"permission\":");
    write_permission(perm, &mut json);
    json.push('}');
    generated_name(csv, &json)
}

/// `olm.permissions.hash` of a generated Role or ClusterRole: `base62(SHA-224)` of the rules as
/// `json.Marshal` writes them (no newline).
pub fn rules_hash(perm: &StrategyPermissions) -> String {
    let mut json = String::new();
    write_rules(perm, &mut json);
    base62(&sha224(json.as_bytes()))
}

/// `olm.permissions.hash` of a generated binding of `role_kind` `role` to service account
/// `account` in `namespace`: the hash of `{RoleRef, Subjects}` (an untagged Go struct).
pub fn binding_hash(role_kind: &str, role: &str, account: &str, namespace: &str) -> String {
    let mut json = format!("{{\"RoleRef\":{{\"apiGroup\":\"{RBAC_API_GROUP}\",\"kind\":");
    write_json_string(role_kind, true, &mut json);
    json.push_str(",\"name\":");
    write_json_string(role, true, &mut json);
    json.push_str("},\"Subjects\":[{\"kind\":\"ServiceAccount\",\"name\":");
    write_json_string(account, true, &mut json);
    if !namespace.is_empty() {
        json.push_str(",\"namespace\":");
        write_json_string(namespace, true, &mut json);
    }
    json.push_str("}]}");
    base62(&sha224(json.as_bytes()))
}

/// OLM's `generateName`: `<base>-<hash>`, the hash `base62(SHA-224)` of `json` and a newline (what
/// `json.Encoder` writes); when `base` and the hash together exceed 63 bytes, `base` is cut to
/// `63 - len(hash) - 1` bytes (so a name of exactly 64 bytes is left as OLM leaves it).
pub fn generated_name(base: &str, json: &str) -> String {
    let hash = base62(&sha224(format!("{json}\n").as_bytes()));
    let base = if base.len() + hash.len() > GENERATED_NAME_LIMIT {
        cut(base, GENERATED_NAME_LIMIT - hash.len() - 1)
    } else {
        base
    };
    format!("{base}-{hash}")
}

/// A `StrategyDeploymentPermissions` as Go encodes it: `serviceAccountName`, then `rules`.
fn write_permission(perm: &StrategyPermissions, out: &mut String) {
    out.push_str("{\"serviceAccountName\":");
    write_json_string(&perm.service_account_name, true, out);
    out.push_str(",\"rules\":");
    write_rules(perm, out);
    out.push('}');
}

/// A `[]PolicyRule` (`null` when nil).
fn write_rules(perm: &StrategyPermissions, out: &mut String) {
    if perm.rules_null {
        out.push_str("null");
        return;
    }
    out.push('[');
    for (i, rule) in perm.rules.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_rule(rule, out);
    }
    out.push(']');
}

/// A `PolicyRule`: `verbs` (`null` when nil), then `apiGroups`, `resources`, `resourceNames`,
/// `nonResourceURLs`, each left out when empty.
fn write_rule(rule: &PolicyRule, out: &mut String) {
    out.push_str("{\"verbs\":");
    if rule.verbs_null {
        out.push_str("null");
    } else {
        write_strings(&rule.verbs, out);
    }
    let optional = [
        ("apiGroups", &rule.api_groups),
        ("resources", &rule.resources),
        ("resourceNames", &rule.resource_names),
        ("nonResourceURLs", &rule.non_resource_urls),
    ];
    for (key, items) in optional.into_iter().filter(|(_, items)| !items.is_empty()) {
        out.push_str(&format!(",\"{key}\":"));
        write_strings(items, out);
    }
    out.push('}');
}

fn write_strings(items: &[String], out: &mut String) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(item, true, out);
    }
    out.push(']');
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
        let api = Gvk::new("kube-green.com", "v1alpha1", "SleepInfo");
        assert_eq!(aggregation_label(&api, "edit"), "olm.opgroup.permissions/aggregate-to-b811a0371c0d261a-edit");
    }

    fn perm(account: &str, rules: Vec<PolicyRule>) -> StrategyPermissions {
        StrategyPermissions { service_account_name: account.into(), rules, rules_null: false }
    }

    fn pods() -> PolicyRule {
        PolicyRule {
            api_groups: vec!["".into()],
            resources: vec!["pods".into()],
            verbs: vec!["get".into()],
            ..PolicyRule::default()
        }
    }

    #[test]
    fn permissions_encode_as_gos_structs_in_field_order_with_omitempty() {
        let mut out = String::new();
        write_permission(&perm("sa", vec![pods()]), &mut out);
        assert_eq!(
            out,
            r#"{"serviceAccountName":"sa","rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]}"#
        );
    }

    #[test]
    fn nil_slices_encode_as_null_and_empty_ones_as_brackets() {
        let mut nil = perm("sa", Vec::new());
        nil.rules_null = true;
        let mut out = String::new();
        write_permission(&nil, &mut out);
        assert_eq!(out, r#"{"serviceAccountName":"sa","rules":null}"#);
        let rule = PolicyRule { verbs_null: true, non_resource_urls: vec!["/m".into()], ..PolicyRule::default() };
        out.clear();
        write_permission(&perm("sa", vec![rule, PolicyRule::default()]), &mut out);
        assert_eq!(
            out,
            r#"{"serviceAccountName":"sa","rules":[{"verbs":null,"nonResourceURLs":["/m"]},{"verbs":[]}]}"#
        );
    }

    #[test]
    fn html_characters_are_escaped_as_json_marshal_does() {
        let rule = PolicyRule { verbs: vec!["<&>".into()], ..PolicyRule::default() };
        let mut out = String::new();
        write_rules(&perm("sa", vec![rule]), &mut out);
        assert_eq!(out, r#"[{"verbs":["\u003c\u0026\u003e"]}]"#);
    }

    #[test]
    fn a_generated_name_is_base_dash_hash_cut_to_63_bytes() {
        // base62(SHA-224("{}\n")).
        let hash = base62(&sha224(b"{}\n"));
        assert_eq!(generated_name("etcd.v1-etcd-operator", "{}"), format!("etcd.v1-etcd-operator-{hash}"));
        let long = "x".repeat(70);
        assert_eq!(generated_name(&long, "{}"), format!("{}-{hash}", "x".repeat(62 - hash.len())));
        assert_eq!(generated_name(&long, "{}").len(), 63);
        // OLM cuts only when base and hash exceed 63 bytes: exactly 63 leaves a 64-byte name.
        let edge = "y".repeat(63 - hash.len());
        assert_eq!(generated_name(&edge, "{}").len(), 64);
    }
}
