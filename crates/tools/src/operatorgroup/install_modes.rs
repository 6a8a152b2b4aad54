//! Install modes as OLM reads them (`InstallModeSet`, `NewInstallModeSet`, `Supports` in the
//! operator-framework API): a set of mode types with their `supported` flag, where a type that is
//! omitted counts as unsupported. There is no inference from one mode to another (the design
//! document suggests some; the code does none).

use std::collections::BTreeMap;
use std::fmt;

use crate::model::csv::InstallMode;

/// The four install mode types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum InstallModeType {
    /// The operator may watch its own namespace.
    OwnNamespace,
    /// The operator may watch one namespace other than its own.
    SingleNamespace,
    /// The operator may watch several namespaces.
    MultiNamespace,
    /// The operator may watch all namespaces.
    AllNamespaces,
}

impl InstallModeType {
    /// The four, in the order the CSV spec lists them.
    pub const ALL: [InstallModeType; 4] = [
        InstallModeType::OwnNamespace,
        InstallModeType::SingleNamespace,
        InstallModeType::MultiNamespace,
        InstallModeType::AllNamespaces,
    ];

    /// The type as a CSV spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            InstallModeType::OwnNamespace => "OwnNamespace",
            InstallModeType::SingleNamespace => "SingleNamespace",
            InstallModeType::MultiNamespace => "MultiNamespace",
            InstallModeType::AllNamespaces => "AllNamespaces",
        }
    }

    /// The type spelled exactly `name` (types are case-sensitive).
    pub fn from_name(name: &str) -> Option<InstallModeType> {
        InstallModeType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl fmt::Display for InstallModeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A CSV's install modes as a set: each type written, with its flag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InstallModeSet(BTreeMap<String, bool>);

/// `NewInstallModeSet`'s refusal: a type listed twice. `Display` gives OLM's message, which
/// prints the whole list as Go's `%v` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateInstallModes(pub Vec<InstallMode>);

impl fmt::Display for DuplicateInstallModes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.0.iter().map(|m| format!("{{{} {}}}", m.type_, m.supported)).collect();
        write!(f, "InstallMode list contains duplicates, cannot make set: [{}]", items.join(" "))
    }
}

impl std::error::Error for DuplicateInstallModes {}

/// Why an install mode set cannot watch a set of target namespaces (`Supports`); `Display`
/// gives OLM's message, which becomes the CSV's status message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unsupported {
    /// No target namespace at all.
    ZeroNamespaces,
    /// The operator's own namespace, without OwnNamespace.
    OwnNamespace,
    /// All namespaces (`""`), without AllNamespaces.
    AllNamespaces,
    /// One other namespace, without SingleNamespace.
    SingleNamespace,
    /// This many namespaces, without MultiNamespace.
    MultiNamespace(usize),
    /// `""` among several namespaces.
    NamespaceAllAmongMany,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const INVALID: &str = "operatorgroup has invalid selected namespaces";
        match self {
            Unsupported::ZeroNamespaces => write!(f, "{INVALID}, cannot configure to watch zero namespaces"),
            Unsupported::OwnNamespace => {
                f.write_str("OwnNamespace InstallModeType not supported, cannot configure to watch own namespace")
            }
            Unsupported::AllNamespaces => {
                f.write_str("AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces")
            }
            Unsupported::SingleNamespace => {
                f.write_str("SingleNamespace InstallModeType not supported, cannot configure to watch one namespace")
            }
            Unsupported::MultiNamespace(n) => {
                write!(f, "MultiNamespace InstallModeType not supported, cannot configure to watch {n} namespaces")
            }
            Unsupported::NamespaceAllAmongMany => {
                write!(f, "{INVALID}, NamespaceAll found when |selected namespaces| > 1")
            }
        }
    }
}

impl std::error::Error for Unsupported {}

impl InstallModeSet {
    /// The set of a CSV's list (`NewInstallModeSet`): refused when a type is listed twice.
    pub fn new(modes: &[InstallMode]) -> Result<InstallModeSet, DuplicateInstallModes> {
        let mut set = BTreeMap::new();
        for m in modes {
            if set.insert(m.type_.clone(), m.supported).is_some() {
                return Err(DuplicateInstallModes(modes.to_vec()));
            }
        }
        Ok(InstallModeSet(set))
    }

    /// A set from type names and flags (a map cannot hold duplicates).
    pub fn from_flags<'a>(flags: impl IntoIterator<Item = (&'a str, bool)>) -> InstallModeSet {
        InstallModeSet(flags.into_iter().map(|(t, s)| (t.to_string(), s)).collect())
    }

    /// Whether `mode` is listed with `supported: true` (an omitted type is unsupported).
    pub fn supported(&self, mode: InstallModeType) -> bool {
        self.0.get(mode.as_str()).copied().unwrap_or(false)
    }

    /// The types written that are none of the four (OLM ignores them).
    pub fn unknown_types(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).filter(|t| InstallModeType::from_name(t).is_none()).collect()
    }

    /// Whether an operator in `operator_namespace` may watch `targets` (`""` meaning all
    /// namespaces), checked in OLM's order.
    pub fn supports(&self, operator_namespace: &str, targets: &[String]) -> Result<(), Unsupported> {
        use InstallModeType as T;
        let require = |mode: T, err: Unsupported| if self.supported(mode) { Ok(()) } else { Err(err) };
        match targets {
            [] => Err(Unsupported::ZeroNamespaces),
            [only] if only == operator_namespace => require(T::OwnNamespace, Unsupported::OwnNamespace),
            [only] if only.is_empty() => require(T::AllNamespaces, Unsupported::AllNamespaces),
            [_] => require(T::SingleNamespace, Unsupported::SingleNamespace),
            many => {
                require(T::MultiNamespace, Unsupported::MultiNamespace(many.len()))?;
                for ns in many {
                    if ns == operator_namespace {
                        require(T::OwnNamespace, Unsupported::OwnNamespace)?;
                    }
                    if ns.is_empty() {
                        return Err(Unsupported::NamespaceAllAmongMany);
                    }
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(flags: &[(&str, bool)]) -> InstallModeSet {
        InstallModeSet::from_flags(flags.iter().copied())
    }

    fn ns(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn check(s: &InstallModeSet, targets: &[&str]) -> Result<(), String> {
        s.supports("operators", &ns(targets)).map_err(|e| e.to_string())
    }

    #[test]
    fn each_kind_of_target_needs_its_mode() {
        let own = set(&[("OwnNamespace", true)]);
        assert_eq!(check(&own, &["operators"]), Ok(()));
        assert_eq!(
            check(&own, &["ns-0"]).unwrap_err(),
            "SingleNamespace InstallModeType not supported, cannot configure to watch one namespace"
        );
        assert_eq!(
            check(&own, &[""]).unwrap_err(),
            "AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces"
        );
        assert_eq!(
            check(&own, &["a", "b"]).unwrap_err(),
            "MultiNamespace InstallModeType not supported, cannot configure to watch 2 namespaces"
        );
        assert_eq!(
            check(&own, &[]).unwrap_err(),
            "operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces"
        );
    }

    #[test]
    fn an_omitted_mode_is_unsupported_and_nothing_is_inferred() {
        // MultiNamespace does not imply OwnNamespace.
        let multi = set(&[("MultiNamespace", true)]);
        assert_eq!(check(&multi, &["ns-0", "ns-1"]), Ok(()));
        assert_eq!(
            check(&multi, &["ns-0", "operators"]).unwrap_err(),
            "OwnNamespace InstallModeType not supported, cannot configure to watch own namespace"
        );
        // Nor does SingleNamespace or MultiNamespace imply OwnNamespace for one target.
        assert!(check(&set(&[("SingleNamespace", true), ("MultiNamespace", true)]), &["operators"]).is_err());
    }

    #[test]
    fn all_namespaces_cannot_be_mixed_with_others() {
        let every = set(&[("OwnNamespace", true), ("MultiNamespace", true), ("AllNamespaces", true)]);
        assert_eq!(
            check(&every, &["", "ns-0"]).unwrap_err(),
            "operatorgroup has invalid selected namespaces, NamespaceAll found when |selected namespaces| > 1"
        );
    }

    #[test]
    fn duplicates_cannot_make_a_set() {
        let modes = [
            InstallMode { type_: "OwnNamespace".into(), supported: true },
            InstallMode { type_: "OwnNamespace".into(), supported: false },
        ];
        assert_eq!(
            InstallModeSet::new(&modes).unwrap_err().to_string(),
            "InstallMode list contains duplicates, cannot make set: [{OwnNamespace true} {OwnNamespace false}]"
        );
        let ok = InstallModeSet::new(&modes[..1]).unwrap();
        assert!(ok.supported(InstallModeType::OwnNamespace));
        assert!(!ok.supported(InstallModeType::AllNamespaces));
    }

    #[test]
    fn unknown_types_are_kept_apart() {
        let s = set(&[("ownNamespace", true), ("AllNamespaces", true)]);
        assert_eq!(s.unknown_types(), ["ownNamespace"]);
        assert!(!s.supported(InstallModeType::OwnNamespace), "types are case-sensitive");
    }
}
