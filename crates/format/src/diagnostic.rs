//! The one type for everything the user is told: [`Diagnostic`], with a stable [`Code`], a
//! severity, a message and the place in the catalog it is about.
//!
//! Messages that mirror an `opm validate` check keep opm's wording; the table of codes is in
//! `docs/diagnostics.md`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How bad a finding is. Only errors make a catalog invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// `opm validate` would reject the catalog.
    Error,
    /// Valid for opm, but probably not what the author meant.
    Warning,
    /// For information: a lint lowered to a note by its default level or by configuration
    /// (never fails a run, even with `--deny-warnings`).
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        })
    }
}

/// A place in a catalog: file, 1-based line and column, and the JSON pointer of the field inside
/// its blob (`""` for the blob itself). `line` is 0 when the finding is about a whole file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Location {
    /// The file, as given to the loader (`/`-separated, relative to the catalog root).
    pub file: String,
    /// 1-based line (0 when the finding is about no particular place).
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// JSON pointer of the field inside its blob (`/entries/0/name`); empty for the blob itself.
    pub pointer: String,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.file)
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        }
    }
}

/// A secondary place a finding refers to ("first defined here").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Related {
    /// What is at the related location (`first defined here`).
    pub message: String,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
}

macro_rules! codes {
    ($($variant:ident = $text:literal,)*) => {
        /// Stable identifiers of findings; see `docs/diagnostics.md`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $(#[doc = concat!("`", $text, "`")] $variant,)* }
        impl Code {
            /// The code as printed (`duplicate-bundle`).
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $text,)* }
            }
            /// Every code, in declaration order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
            /// The code printed as `name` (`duplicate-bundle`), if there is one.
            pub fn from_name(name: &str) -> Option<Code> {
                // A search of the table rather than a `match` on the text, which compiles to a
                // much larger string switch; codes are named only when reading configuration.
                Code::ALL.iter().copied().find(|c| c.as_str() == name)
            }
        }
    };
}

codes! {
    // Reading files.
    ReadError = "read-error",
    YamlSyntax = "yaml-syntax",
    JsonSyntax = "json-syntax",
    NotAnObject = "not-an-object",
    MissingSchema = "missing-schema",
    DuplicateKey = "duplicate-key",
    MetaKeyNotString = "meta-key-not-string",
    InvalidField = "invalid-field",
    InvalidIcon = "invalid-icon",
    InvalidBundleObject = "invalid-bundle-object",
    // Building the model (opm's conversion checks).
    PackageNoName = "package-no-name",
    DuplicatePackage = "duplicate-package",
    InvalidPackageName = "invalid-package-name",
    UnknownPackage = "unknown-package",
    ChannelNoName = "channel-no-name",
    DuplicateChannel = "duplicate-channel",
    DuplicateEntry = "duplicate-entry",
    BundleNoPackage = "bundle-no-package",
    DuplicateBundle = "duplicate-bundle",
    InvalidProperty = "invalid-property",
    PackagePropertyCount = "package-property-count",
    PackagePropertyMismatch = "package-property-mismatch",
    InvalidImage = "invalid-image",
    InvalidVersion = "invalid-version",
    InvalidRelease = "invalid-release",
    BundleNotInChannel = "bundle-not-in-channel",
    EntryWithoutBundle = "entry-without-bundle",
    DeprecationNoPackage = "deprecation-no-package",
    DuplicateDeprecations = "duplicate-deprecations",
    DeprecationNoSchema = "deprecation-no-schema",
    DuplicateDeprecationEntry = "duplicate-deprecation-entry",
    DeprecatedNotFound = "deprecated-not-found",
    DeprecatedPackageNamed = "deprecated-package-named",
    DeprecationUnknownSchema = "deprecation-unknown-schema",
    // Model validation (opm's aggregated checks).
    DefaultChannelUnset = "default-channel-unset",
    PackageNoChannels = "package-no-channels",
    EmptyChannel = "empty-channel",
    NoChannelHead = "no-channel-head",
    MultipleChannelHeads = "multiple-channel-heads",
    ReplacesCycle = "replaces-cycle",
    StrandedBundles = "stranded-bundles",
    DuplicateVersions = "duplicate-versions",
    EmptyDeprecationMessage = "empty-deprecation-message",
    BundleNameNotNormalized = "bundle-name-not-normalized",
    EmptySkip = "empty-skip",
    InvalidSkipRange = "invalid-skip-range",
    BundleImageUnset = "bundle-image-unset",
    BuildMetadataWithRelease = "build-metadata-with-release",
    // Lints: valid for opm, flagged by us.
    InvalidRequiredRange = "invalid-required-range",
    InvalidConstraint = "invalid-constraint",
    StrandedEntry = "stranded-entry",
    ReplacesSkipped = "replaces-skipped",
    VersionGoesBackwards = "version-goes-backwards",
    SkipRangeCoversNothing = "skip-range-covers-nothing",
    HeadNotHighest = "head-not-highest",
    DeprecatedHead = "deprecated-head",
    UnreachableEntry = "unreachable-entry",
    ZStreamGap = "z-stream-gap",
    // Catalog templates (render/template): problems in the template an author wrote.
    TemplateSchema = "template-schema",
    TemplateInvalid = "template-invalid",
    TemplateBundleReference = "template-bundle-reference",
    TemplateImageNotFound = "template-image-not-found",
    TemplateBundle = "template-bundle",
    TemplateSubstitution = "template-substitution",
    // Rendering bundle directories (render::bundle).
    BundleNoObjects = "bundle-no-objects",
    BundleNoCsv = "bundle-no-csv",
    BundleMissingCrd = "bundle-missing-crd",
    BundleNoAnnotations = "bundle-no-annotations",
    BundleInvalidCsv = "bundle-invalid-csv",
    BundleImageTemplate = "bundle-image-template",
    CsvMetadataInvalid = "csv-metadata-invalid",
    BundleExtraCsv = "bundle-extra-csv",
    BundleExtraDocument = "bundle-extra-document",
    BundleUndecodableFile = "bundle-undecodable-file",
    BundleBadDependencies = "bundle-bad-dependencies",
    BundleBadProperties = "bundle-bad-properties",
    // Rendering legacy trees of bundle directories and package manifests.
    LegacyCiYaml = "legacy-ci-yaml",
    LegacyBundleLeftOut = "legacy-bundle-left-out",
    LegacySemverInvalidVersion = "legacy-semver-invalid-version",
    LegacyNoDefaultChannel = "legacy-no-default-channel",
    LegacyInvalidIcon = "legacy-invalid-icon",
    PackageManifestNotFound = "package-manifest-not-found",
    PackageManifestInvalid = "package-manifest-invalid",
    PackageManifestNoPackageName = "package-manifest-no-package-name",
    PackageManifestHeadMissing = "package-manifest-head-missing",
    PackageManifestReplacesMissing = "package-manifest-replaces-missing",
    PackageManifestReplacesCycle = "package-manifest-replaces-cycle",
    PackageManifestNoDefaultChannel = "package-manifest-no-default-channel",
    PackageManifestUnlistedBundle = "package-manifest-unlisted-bundle",
    PackageManifestDuplicateBundle = "package-manifest-duplicate-bundle",
    // OperatorGroups and install modes (operatorgroup): lints on a bundle's CSV.
    OperatorgroupNoInstallMode = "operatorgroup-no-install-mode",
    OperatorgroupOnlyMultiNamespace = "operatorgroup-only-multinamespace",
    OperatorgroupDuplicateInstallModes = "operatorgroup-duplicate-install-modes",
    OperatorgroupUnknownInstallMode = "operatorgroup-unknown-install-mode",
    OperatorgroupBadCrdName = "operatorgroup-bad-crd-name",
    // Multitenancy (operatorgroup::multitenancy): one operator instance per tenant, and its limits.
    MultitenancyVersionSkew = "multitenancy-version-skew",
    MultitenancyOlderCrd = "multitenancy-older-crd",
    MultitenancySharedCrds = "multitenancy-shared-crds",
    MultitenancyDependency = "multitenancy-dependency",
    MultitenancyConversionWebhook = "multitenancy-conversion-webhook",
    MultitenancyOperatorInTenantNamespace = "multitenancy-operator-in-tenant-namespace",
    MultitenancyOverlappingTargets = "multitenancy-overlapping-targets",
    // Catalog updates (diff): promises an update of the old catalog to the new one breaks.
    UpdatePackageRemoved = "update-package-removed",
    UpdateChannelRemoved = "update-channel-removed",
    UpdateHeadBackwards = "update-head-backwards",
    UpdateNewlyStranded = "update-newly-stranded",
    UpdateReleaseRemoved = "update-release-removed",
    UpdateRequiredApiDropped = "update-required-api-dropped",
    UpdateMultipleReplacements = "update-multiple-replacements",
    UpdatePathThroughDeprecated = "update-path-through-deprecated",
    UpdateZStreamNotConverging = "update-z-stream-not-converging",
    // Lint configuration (lint_config) and OLM v1 readiness lints (olm_v1), in crates/lints.
    LintConfigInvalid = "lint-config-invalid",
    Olmv1PackageRequired = "olmv1-package-required",
    Olmv1GvkRequired = "olmv1-gvk-required",
    Olmv1Constraint = "olmv1-constraint",
    Olmv1NoAllNamespaces = "olmv1-no-all-namespaces",
    Olmv1Webhooks = "olmv1-webhooks",
    Olmv1ApiService = "olmv1-api-service",
    Olmv1ZeroMajor = "olmv1-zero-major",
    Olmv1BuildMetadata = "olmv1-build-metadata",
    // CRD upgrade safety (crd_safety): OLM v1's CRD Upgrade Safety preflight (one code per
    // crdify check), OLM v0's stored-version rule, CRDs dropped or not comparable, ownership.
    CrdScope = "crd-scope",
    CrdStoredVersionRemoval = "crd-stored-version-removal",
    CrdExistingFieldRemoval = "crd-existing-field-removal",
    CrdType = "crd-type",
    CrdRequired = "crd-required",
    CrdDefault = "crd-default",
    CrdEnum = "crd-enum",
    CrdMinimum = "crd-minimum",
    CrdMinLength = "crd-min-length",
    CrdMinItems = "crd-min-items",
    CrdMinProperties = "crd-min-properties",
    CrdMaximum = "crd-maximum",
    CrdMaxLength = "crd-max-length",
    CrdMaxItems = "crd-max-items",
    CrdMaxProperties = "crd-max-properties",
    CrdPattern = "crd-pattern",
    CrdNullable = "crd-nullable",
    CrdUnhandled = "crd-unhandled",
    CrdOlmV0StoredVersion = "crd-olm-v0-stored-version",
    CrdNotComparable = "crd-not-comparable",
    CrdRemoved = "crd-removed",
    CrdSharedOwnership = "crd-shared-ownership",
    CrdNoneInCatalog = "crd-none-in-catalog",
}

impl Code {
    /// Whether findings of this code are lints: our own checks, warnings by default, whose level
    /// configuration may change (`docs/diagnostics.md`, "Configuring lints"). The other codes
    /// mirror `opm validate`'s errors (or authoring tools' problems) and stay as they are.
    pub fn is_lint(self) -> bool {
        use Code::*;
        matches!(
            self,
            InvalidRequiredRange
                | InvalidConstraint
                | StrandedEntry
                | ReplacesSkipped
                | VersionGoesBackwards
                | SkipRangeCoversNothing
                | HeadNotHighest
                | DeprecatedHead
                | UnreachableEntry
                | ZStreamGap
                | OperatorgroupNoInstallMode
                | OperatorgroupOnlyMultiNamespace
                | OperatorgroupDuplicateInstallModes
                | OperatorgroupUnknownInstallMode
                | OperatorgroupBadCrdName
                | Olmv1PackageRequired
                | Olmv1GvkRequired
                | Olmv1Constraint
                | Olmv1NoAllNamespaces
                | Olmv1Webhooks
                | Olmv1ApiService
                | Olmv1ZeroMajor
                | Olmv1BuildMetadata
                | CrdScope
                | CrdStoredVersionRemoval
                | CrdExistingFieldRemoval
                | CrdType
                | CrdRequired
                | CrdDefault
                | CrdEnum
                | CrdMinimum
                | CrdMinLength
                | CrdMinItems
                | CrdMinProperties
                | CrdMaximum
                | CrdMaxLength
                | CrdMaxItems
                | CrdMaxProperties
                | CrdPattern
                | CrdNullable
                | CrdUnhandled
                | CrdOlmV0StoredVersion
                | CrdNotComparable
                | CrdRemoved
                | CrdSharedOwnership
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A code read back from its stable string (diagnostics handed back by the JS bindings).
impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
        let name = String::deserialize(d)?;
        Code::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown diagnostic code {name:?}")))
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The stable code (`duplicate-bundle`), documented in `docs/diagnostics.md`.
    pub code: Code,
    /// Error (opm rejects the catalog) or warning (our lints).
    pub severity: Severity,
    /// The message: opm's wording for opm's checks, a plain sentence for our lints.
    pub message: String,
    /// Where the problem is.
    #[serde(flatten)]
    pub location: Location,
    /// Other places the finding refers to (the first definition of a duplicate...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

impl Diagnostic {
    /// An error at `location`.
    pub fn error(code: Code, message: impl Into<String>, location: Location) -> Diagnostic {
        Diagnostic { code, severity: Severity::Error, message: message.into(), location, related: Vec::new() }
    }

    /// A warning at `location`.
    pub fn warning(code: Code, message: impl Into<String>, location: Location) -> Diagnostic {
        Diagnostic { code, severity: Severity::Warning, message: message.into(), location, related: Vec::new() }
    }

    /// Add a related location.
    pub fn with_related(mut self, message: impl Into<String>, location: Location) -> Diagnostic {
        self.related.push(Related { message: message.into(), location });
        self
    }

    /// A note at `location`.
    pub fn note(code: Code, message: impl Into<String>, location: Location) -> Diagnostic {
        Diagnostic { code, severity: Severity::Note, message: message.into(), location, related: Vec::new() }
    }

    /// Whether this finding makes the catalog invalid.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// Compiler style: `file:line:col: error[code]: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}[{}]: {}", self.location, self.severity, self.code, self.message)?;
        for r in &self.related {
            write!(f, "\n  {}: note: {}", r.location, r.message)?;
        }
        Ok(())
    }
}

/// Sort findings by place, then code and message, and drop exact repeats.
pub fn sort_diagnostics(diags: &mut Vec<Diagnostic>) {
    crate::sort::sort_by(diags, |a, b| {
        (&a.location.file, a.location.line, a.location.column, a.code, &a.message).cmp(&(
            &b.location.file,
            b.location.line,
            b.location.column,
            b.code,
            &b.message,
        ))
    });
    diags.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_documented() {
        let doc = include_str!("../../../docs/diagnostics.md");
        for code in Code::ALL {
            assert!(doc.contains(&format!("| `{}` |", code.as_str())), "docs/diagnostics.md lacks {code}");
        }
    }

    #[test]
    fn lints_are_the_codes_documented_as_configurable() {
        // A row's severity column says `warning` (or `note`, `off`: a lint's default level) exactly
        // for lints; warnings of rendering, of multitenancy checks and of catalog diffs are not
        // lints (no catalog validation reports them); `crd-safety`'s are lints of `validate` but
        // for its note that a catalog has no CRDs.
        let doc = include_str!("../../../docs/diagnostics.md");
        for code in Code::ALL {
            let row = doc.lines().find(|l| l.starts_with(&format!("| `{}` |", code.as_str()))).unwrap_or_default();
            let severity = row.split('|').nth(2).unwrap_or_default().trim();
            let lint_like = ["warning", "note", "off"].contains(&severity);
            if code.is_lint() {
                assert!(lint_like, "{code} is a lint but documented as {severity:?}");
            } else if lint_like {
                let render = ["bundle-", "legacy-", "package-manifest-", "multitenancy-", "update-", "crd-"];
                assert!(render.iter().any(|p| code.as_str().starts_with(p)), "{code} is documented as {severity:?}");
            }
        }
    }

    #[test]
    fn codes_round_trip_through_their_names() {
        for code in Code::ALL {
            assert_eq!(Code::from_name(code.as_str()), Some(*code));
        }
        assert_eq!(Code::from_name("no-such-code"), None);
    }

    #[test]
    fn compiler_style_display() {
        let d = Diagnostic::error(
            Code::DuplicatePackage,
            "duplicate package \"foo\"",
            Location { file: "a/catalog.yaml".into(), line: 3, column: 7, pointer: "/name".into() },
        );
        assert_eq!(d.to_string(), "a/catalog.yaml:3:7: error[duplicate-package]: duplicate package \"foo\"");
    }
}
