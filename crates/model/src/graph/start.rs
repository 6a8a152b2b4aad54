//! Where an upgrade starts ([`Start`]), and what a user's text means as one ([`Start::from_input`],
//! read against a channel by `read` when the path is computed).
//!
//! The rule, the same in every surface (`olm-catalog path` and `graph --from`, the JS
//! `upgradePath` and pictures, the site, `<olm-upgrade-graph from>`):
//! - text that names a bundle or an entry of the package is that bundle;
//! - else a version (`0.3.0`, `v0.3.0`; build metadata compared as the catalog writes it) is the
//!   bundle of the package with that version: the one the asked channel lists if there is one,
//!   else the package's. A version typed without build metadata also finds the bundles whose
//!   version has some (`1.0.0` finds `1.0.0+2`) when none has it exactly;
//! - several such bundles are a question back ([`Reading::Several`]), never a silent pick: OLM v0
//!   upgrades an installed CSV by its name, so each of them may have a path of its own;
//! - only a version that no bundle of the package has is a bare version: OLM can upgrade it only
//!   through a skipRange that covers it, and the path's note says so.

use crate::model::{typed_version, Channel, Package};
use crate::version::Version;

/// Where an upgrade starts: an installed bundle, a bare version, or a user's text to be read
/// against the channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// A bundle of the package.
    Bundle(String),
    /// A bare version (in no bundle of the package).
    Version(Version),
    /// An installed bundle that need not belong to the package (a renamed package's CSV, say).
    Installed {
        /// The installed bundle (CSV) name.
        name: String,
        /// Its version, when known.
        version: Option<Version>,
    },
    /// What a user typed: a bundle's name or a version (see the module's rule).
    Typed {
        /// The text as typed.
        text: String,
        /// The text read as a version, when it is one.
        version: Option<Version>,
    },
}

impl Start {
    /// A user's "from": a bundle name or a version, read against the channel when the path is
    /// computed (the module's rule).
    pub fn from_input(text: &str) -> Start {
        Start::Typed { text: text.trim().to_string(), version: typed_version(text) }
    }

    /// The start as a path's `from` names it: the bundle, or the version, or the text typed.
    pub fn name(&self) -> String {
        match self {
            Start::Bundle(b) | Start::Installed { name: b, .. } | Start::Typed { text: b, version: None } => b.clone(),
            Start::Version(v) | Start::Typed { version: Some(v), .. } => v.to_string(),
        }
    }
}

/// What a typed start means in one channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reading {
    /// Walk from this bundle; the note says how a version was read, when the text was one.
    Bundle(String, Option<String>),
    /// The typed version is no bundle's: walk from it as a bare version; the note says so.
    Bare(String),
    /// Several bundles of the package have the typed version: the question asking which one is
    /// installed, and their names.
    Several(String, Vec<String>),
}

/// What the typed `text` (and `version`, its reading as a version) means in `channel` of
/// `package` (the module's rule).
pub(super) fn read(package: &Package, channel: &Channel, text: &str, version: Option<&Version>) -> Reading {
    let names_something = package.bundle(text).is_some() || package.channels.iter().any(|c| c.entry(text).is_some());
    let Some(v) = version.filter(|_| !names_something) else {
        return Reading::Bundle(text.to_string(), None);
    };
    let mut found = bundles_of_version(package, v);
    let listed = found.iter().any(|b| channel.entry(b).is_some());
    if listed {
        found.retain(|b| channel.entry(b).is_some());
    }
    match found[..] {
        [] => Reading::Bare(format!(
            "{v} is not in this catalog; OLM can upgrade it only through a skipRange that covers it"
        )),
        [b] => {
            let (which, name, list) =
                if listed { ("", "", "") } else { (", which channel ", &*channel.name, " does not list") };
            Reading::Bundle(b.to_string(), Some(format!("{v} is the version of {b}{which}{name}{list}")))
        }
        _ => {
            let (within, name) = if listed { (" in channel ", &*channel.name) } else { ("", "") };
            let n = found.len();
            Reading::Several(
                format!(
                    "{n} bundles of this package have version {v}{within}{name}: {}; which one is installed? Give its name instead of the version",
                    found.join(", ")
                ),
                found.into_iter().map(str::to_string).collect(),
            )
        }
    }
}

/// The names of the package's bundles whose version is `v` with the same build metadata; when
/// there are none and `v` has no build metadata, those whose version is `v` with some.
fn bundles_of_version<'p>(package: &'p Package, v: &Version) -> Vec<&'p str> {
    let (mut exact, mut with_build) = (Vec::new(), Vec::new());
    for b in &package.bundles {
        // `==` ignores build metadata (blang's precedence); the catalog's is then compared as text.
        let Some(bv) = b.version.as_ref().filter(|bv| *bv == v) else { continue };
        if bv.semver().build.as_str() == v.semver().build.as_str() {
            exact.push(b.name.value.as_str());
        } else if !v.has_build() {
            with_build.push(b.name.value.as_str());
        }
    }
    if exact.is_empty() {
        with_build
    } else {
        exact
    }
}

/// The rule, on package `foo` whose bundle `foo.vX.Y.Z` has version X.Y.Z unless said otherwise.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::{channel, foo, TestCatalog};
    use crate::model::Model;

    fn reading(m: &Model, channel_name: &str, text: &str) -> Reading {
        let Start::Typed { text, version } = Start::from_input(text) else { unreachable!("typed") };
        read(foo(m), channel(m, channel_name), &text, version.as_ref())
    }

    fn bundle(name: &str, note: &str) -> Reading {
        Reading::Bundle(name.into(), (!note.is_empty()).then(|| note.to_string()))
    }

    fn two_channels() -> Model {
        TestCatalog::new()
            .channel("stable", "[{name: foo.v1.0.0}, {name: foo.v1.1.0, replaces: foo.v1.0.0}]")
            .channel("fast", "[{name: foo.v1.1.0}, {name: foo.v1.2.0, replaces: foo.v1.1.0}]")
            .build()
    }

    #[test]
    fn a_typed_version_is_the_bundle_of_that_version() {
        let m = two_channels();
        let note = "1.0.0 is the version of foo.v1.0.0";
        assert_eq!(reading(&m, "stable", "1.0.0"), bundle("foo.v1.0.0", note));
        assert_eq!(reading(&m, "stable", "v1.0.0"), bundle("foo.v1.0.0", note));
    }

    #[test]
    fn a_bundle_the_channel_does_not_list_is_the_packages() {
        let m = two_channels();
        let note = "1.2.0 is the version of foo.v1.2.0, which channel stable does not list";
        assert_eq!(reading(&m, "stable", "1.2.0"), bundle("foo.v1.2.0", note));
    }

    #[test]
    fn a_name_wins_over_a_version_and_text_that_is_neither_stays_a_name() {
        let m = two_channels();
        assert_eq!(reading(&m, "stable", "foo.v1.0.0"), bundle("foo.v1.0.0", ""));
        assert_eq!(reading(&m, "stable", "nothing"), bundle("nothing", ""));
        let named = TestCatalog::new().channel("stable", "[{name: '1.0.0'}]").version("1.0.0", "2.0.0").build();
        assert_eq!(reading(&named, "stable", "1.0.0"), bundle("1.0.0", ""));
    }

    #[test]
    fn only_a_version_no_bundle_has_is_a_bare_version() {
        let m = two_channels();
        let note = "1.0.5 is not in this catalog; OLM can upgrade it only through a skipRange that covers it";
        assert_eq!(reading(&m, "stable", "v1.0.5"), Reading::Bare(note.into()));
    }

    #[test]
    fn build_metadata_is_compared_as_the_catalog_writes_it() {
        let m = TestCatalog::new()
            .channel("stable", "[{name: foo.a}, {name: foo.b, replaces: foo.a}, {name: foo.c, replaces: foo.b}]")
            .version("foo.a", "1.0.0")
            .version("foo.b", "1.0.0+2")
            .version("foo.c", "2.0.0+7")
            .build();
        // The exact version first; without build metadata, a version that has some.
        assert_eq!(reading(&m, "stable", "1.0.0"), bundle("foo.a", "1.0.0 is the version of foo.a"));
        assert_eq!(reading(&m, "stable", "1.0.0+2"), bundle("foo.b", "1.0.0+2 is the version of foo.b"));
        assert_eq!(reading(&m, "stable", "2.0.0"), bundle("foo.c", "2.0.0 is the version of foo.c"));
        // Build metadata the catalog does not have is another version.
        assert!(matches!(reading(&m, "stable", "2.0.0+8"), Reading::Bare(_)));
    }

    #[test]
    fn several_bundles_of_one_version_are_a_question_never_a_pick() {
        let m = TestCatalog::new()
            .channel("stable", "[{name: foo.a}, {name: foo.b, replaces: foo.a}, {name: foo.c, replaces: foo.b}]")
            .channel("fast", "[{name: foo.c}, {name: foo.d, replaces: foo.c}]")
            .version("foo.a", "1.0.0+1")
            .version("foo.b", "1.0.0+2")
            .version("foo.c", "3.0.0")
            .version("foo.d", "3.0.0")
            .build();
        let several = |within: &str, bundles: &[&str]| {
            let version = if bundles[0] == "foo.a" { "1.0.0" } else { "3.0.0" };
            Reading::Several(
                format!(
                    "2 bundles of this package have version {version}{within}: {}; which one is installed? Give its name instead of the version",
                    bundles.join(", ")
                ),
                bundles.iter().map(|b| b.to_string()).collect(),
            )
        };
        assert_eq!(reading(&m, "stable", "1.0.0"), several(" in channel stable", &["foo.a", "foo.b"]));
        assert_eq!(reading(&m, "fast", "1.0.0"), several("", &["foo.a", "foo.b"]));
        // The asked channel lists one of them: that one.
        assert_eq!(reading(&m, "stable", "3.0.0"), bundle("foo.c", "3.0.0 is the version of foo.c"));
        assert_eq!(reading(&m, "fast", "3.0.0"), several(" in channel fast", &["foo.c", "foo.d"]));
    }
}
