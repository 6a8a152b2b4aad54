//! Typed bundle properties. opm checks a property only structurally: its value is decoded into
//! the Go struct for its type and a JSON type mismatch is an error (`parse property[2] of type
//! "olm.gvk": json: cannot unmarshal number into Go struct field GVK.version of type string`).
//! Types without a struct (including `olm.constraint`, `olm.deprecated` and unknown ones) only
//! need a value that is present.
//!
//! [`parse_constraint`] parses `olm.constraint` values for the resolver and for our own lint.

mod constraint;

use crate::declcfg::go_type::{self, GoType};
use crate::declcfg::value::{Node, Str};
use crate::version::{RangeError, Release, ReleaseError, Version, VersionError, VersionRange};

pub use constraint::{
    parse_raw as parse_constraint, Constraint, ConstraintError, ConstraintValue, MAX_CONSTRAINT_SIZE,
};

pub use crate::declcfg::property_types::*;

/// `olm.package`: the bundle's own package and version.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageProperty {
    /// `packageName`.
    pub package_name: String,
    /// `version` as written.
    pub version: String,
    /// `release` as written; empty when not set.
    pub release: String,
    /// `version` parsed as opm parses it (blang, strict), or blang's error.
    pub parsed_version: Result<Version, VersionError>,
    /// `release` parsed (`None` when empty), or why opm rejects it.
    pub parsed_release: Result<Option<Release>, ReleaseError>,
}

impl PackageProperty {
    /// The property for `package_name` at `version` (no release), parsed.
    pub fn new(package_name: &str, version: &str) -> PackageProperty {
        PackageProperty {
            package_name: package_name.to_string(),
            version: version.to_string(),
            release: String::new(),
            parsed_version: Version::parse(version),
            parsed_release: Ok(None),
        }
    }
}

/// `olm.package.required`: a dependency on a package within a version range (blang syntax; not
/// checked by opm, so a bad range is kept with its error for the resolver and our lint).
#[derive(Debug, Clone, PartialEq)]
pub struct PackageRequired {
    /// `packageName`.
    pub package_name: String,
    /// `versionRange` as written.
    pub version_range: String,
    /// The parsed range, or blang's error.
    pub range: Result<VersionRange, RangeError>,
}

/// A group/version/kind (`olm.gvk` provides one, `olm.gvk.required` needs one).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Gvk {
    /// The API group.
    pub group: Str,
    /// The API version.
    pub version: Str,
    /// The kind.
    pub kind: Str,
}

impl Gvk {
    /// The API `group`/`version`, `kind`.
    pub fn new(group: &str, version: &str, kind: &str) -> Gvk {
        Gvk { group: group.into(), version: version.into(), kind: kind.into() }
    }
}

/// A parsed property.
#[derive(Debug, Clone, PartialEq)]
pub enum Property {
    /// `olm.package`: the bundle's package and version.
    Package(PackageProperty),
    /// `olm.package.required`: a dependency on a package.
    PackageRequired(PackageRequired),
    /// `olm.gvk`: an API the bundle provides.
    Gvk(Gvk),
    /// `olm.gvk.required`: an API the bundle needs.
    GvkRequired(Gvk),
    /// A manifest embedded as base64 (decoded at load time).
    BundleObject,
    /// CSV metadata (checked structurally; the value is the raw property's).
    CsvMetadata,
    /// `olm.channel` (internal use upstream).
    Channel {
        /// `channelName`.
        channel_name: String,
    },
    /// `olm.constraint`, parsed as OLM's resolver parses it. opm never interprets it, so a value
    /// the resolver would reject is kept with its error rather than failing the bundle.
    Constraint(Result<ConstraintValue, ConstraintError>),
    /// The legacy `olm.deprecated` marker (OLM v0 never installs such a bundle); any value.
    Deprecated,
    /// `olm.label` (opm does not check it; a value that is not an object is [`Property::Other`]).
    Label(String),
    /// `olm.label.required`: the label, or the Go decoding error OLM's resolver would fail with
    /// (opm does not check it).
    LabelRequired(Result<String, String>),
    /// A property of a type opm checks whose value did not decode: opm's error text (the model
    /// reports it as a diagnostic; the resolver fails on a dependency it cannot read).
    Invalid {
        /// The property type.
        type_: String,
        /// What opm prints after `parse property[i] of type "t": `.
        error: String,
    },
    /// Any other type (the value is the raw property's JSON).
    Other {
        /// The property type.
        type_: String,
    },
}

/// Why a property value does not decode into the Go type opm decodes it into; `Display` gives
/// opm's text (what it prints after `parse property[i] of type "t": `).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyError(String);

impl std::fmt::Display for PropertyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PropertyError {}

impl Property {
    /// Whether the property is a dependency of its bundle (`olm.gvk.required`,
    /// `olm.package.required`, `olm.label.required`, `olm.constraint`), one that parsed or one of
    /// the first two that did not: what the resolver makes a predicate of, or fails on.
    pub fn is_dependency(&self) -> bool {
        match self {
            Property::Constraint(_)
            | Property::GvkRequired(_)
            | Property::PackageRequired(_)
            | Property::LabelRequired(_) => true,
            Property::Invalid { type_, .. } => type_ == TYPE_GVK_REQUIRED || type_ == TYPE_PACKAGE_REQUIRED,
            _ => false,
        }
    }
}

/// Parse a property the way opm's `property.Parse` does.
pub fn parse(type_: &str, value: Option<&Node>) -> Result<Property, PropertyError> {
    parse_value(type_, value, false).map_err(PropertyError)
}

/// Every raw property parsed, with its index; one that does not decode is kept as
/// [`Property::Invalid`] with opm's text (the model reports those; OLM's resolver fails on a
/// dependency it cannot read).
pub fn parse_all(raw: &[crate::declcfg::Property]) -> Vec<(usize, Property)> {
    parse_each(raw, false)
}

/// [`parse_all`] of a bundle's properties. When the loader found that they decode into their Go
/// structs ([`declcfg::Bundle::properties_fit`](crate::declcfg::Bundle::properties_fit)), they
/// are not checked again.
pub fn parse_bundle(bundle: &crate::declcfg::Bundle) -> Vec<(usize, Property)> {
    parse_each(&bundle.properties, bundle.properties_fit)
}

fn parse_each(raw: &[crate::declcfg::Property], fit: bool) -> Vec<(usize, Property)> {
    crate::declcfg::value::prefetch(raw.iter().filter_map(|p| p.value.as_ref()?.built()));
    raw.iter()
        .enumerate()
        .map(|(i, p)| {
            let parsed = match &p.value {
                // Checked by the reader, without its tree (which is not read here either).
                Some(v) if v.checked_unread() && p.type_.value == TYPE_CSV_METADATA => Ok(Property::CsvMetadata),
                Some(v) if v.checked_unread() && p.type_.value == TYPE_BUNDLE_OBJECT => Ok(Property::BundleObject),
                value => parse_value(&p.type_.value, value.as_deref(), fit),
            };
            let parsed = parsed.unwrap_or_else(|error| Property::Invalid { type_: p.type_.value.to_string(), error });
            (i, parsed)
        })
        .collect()
}

/// The string fields `names` of an object ("" for one that is absent or not a string), its
/// members read once.
#[cfg(any(not(target_arch = "wasm32"), olm_wasm_speed))]
fn strings<S: for<'a> From<&'a str>>(value: &Node, names: [&str; 3]) -> [S; 3] {
    let members = value.as_object().unwrap_or(&[]);
    let at = crate::declcfg::value::field_indexes(members, names);
    let s = |i: Option<usize>| S::from(i.and_then(|i| members[i].value.as_str()).unwrap_or(""));
    [s(at[0]), s(at[1]), s(at[2])]
}

/// The browsers' modules, built for size: each field looked up by itself.
#[cfg(all(target_arch = "wasm32", not(olm_wasm_speed)))]
fn strings<S: for<'a> From<&'a str>>(value: &Node, names: [&str; 3]) -> [S; 3] {
    names.map(|f| S::from(value.field(f).and_then(|m| m.value.as_str()).unwrap_or("")))
}

/// `fit`: the value is known to decode into its type's Go struct (not checked again).
fn parse_value(type_: &str, value: Option<&Node>, fit: bool) -> Result<Property, String> {
    let Some(value) = value else {
        return Err("unexpected end of JSON input".to_string());
    };
    let check = |ty: &GoType| if fit { Ok(()) } else { go_type::check(value, ty) };
    let s = |n: &Node, f: &str| n.field(f).and_then(|m| m.value.as_str()).unwrap_or("").to_string();
    match type_ {
        TYPE_PACKAGE => {
            check(&go_type::PACKAGE)?;
            let [package_name, version, release] = strings(value, ["packageName", "version", "release"]);
            Ok(Property::Package(PackageProperty {
                package_name,
                parsed_version: Version::parse(&version),
                parsed_release: Release::parse(&release),
                version,
                release,
            }))
        }
        TYPE_PACKAGE_REQUIRED => {
            check(&go_type::PACKAGE_REQUIRED)?;
            let version_range = s(value, "versionRange");
            Ok(Property::PackageRequired(PackageRequired {
                package_name: s(value, "packageName"),
                range: VersionRange::parse(&version_range),
                version_range,
            }))
        }
        TYPE_GVK | TYPE_GVK_REQUIRED => {
            let ty = if type_ == TYPE_GVK { &go_type::GVK } else { &go_type::GVK_REQUIRED };
            check(ty)?;
            let [group, version, kind] = strings(value, ["group", "version", "kind"]);
            let gvk = Gvk { group, version, kind };
            Ok(if type_ == TYPE_GVK { Property::Gvk(gvk) } else { Property::GvkRequired(gvk) })
        }
        TYPE_BUNDLE_OBJECT => {
            // The data itself was decoded (and any error reported) when the catalog was loaded.
            check(&go_type::BUNDLE_OBJECT)?;
            Ok(Property::BundleObject)
        }
        TYPE_CSV_METADATA => {
            check(&go_type::CSV_METADATA)?;
            Ok(Property::CsvMetadata)
        }
        TYPE_CHANNEL => {
            check(&go_type::CHANNEL)?;
            Ok(Property::Channel { channel_name: s(value, "channelName") })
        }
        TYPE_CONSTRAINT => Ok(Property::Constraint(constraint::parse(value))),
        TYPE_DEPRECATED => Ok(Property::Deprecated),
        TYPE_LABEL if value.as_object().is_some() => Ok(Property::Label(s(value, "label"))),
        TYPE_LABEL_REQUIRED => Ok(Property::LabelRequired(match value.as_object() {
            Some(_) => Ok(s(value, "label")),
            None => Err(format!(
                "json: cannot unmarshal {} into Go value of type property.LabelRequired",
                value.kind_name()
            )),
        })),
        _ => Ok(Property::Other { type_: type_.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::json::JsonReader;

    fn node(src: &str) -> Node {
        JsonReader::new(src, 1).next_value().unwrap()
    }

    #[test]
    fn typed_properties() {
        let p = parse(TYPE_PACKAGE, Some(&node(r#"{"packageName":"a","version":"1.0.0","release":"2"}"#))).unwrap();
        let Property::Package(pp) = p else { panic!("not a package property") };
        assert_eq!((pp.package_name.as_str(), pp.version.as_str(), pp.release.as_str()), ("a", "1.0.0", "2"));
        assert_eq!(pp.parsed_version.unwrap().to_string(), "1.0.0");
        assert_eq!(pp.parsed_release.unwrap().unwrap().to_string(), "2");
        assert!(matches!(
            parse(TYPE_CONSTRAINT, Some(&node(r#"{"cel":{"rule":"true"}}"#))),
            Ok(Property::Constraint(Ok(_)))
        ));
        // opm accepts any constraint value; the resolver's verdict is kept for our lint.
        assert!(matches!(parse(TYPE_CONSTRAINT, Some(&node(r#"{"bogus":1}"#))), Ok(Property::Constraint(Err(_)))));
        assert_eq!(parse(TYPE_DEPRECATED, Some(&node("{}"))), Ok(Property::Deprecated));
        assert_eq!(parse("x.custom", Some(&node("null"))), Ok(Property::Other { type_: "x.custom".into() }));
        assert_eq!(parse("x.custom", None).unwrap_err().to_string(), "unexpected end of JSON input");
    }

    /// Values the reader checked without their trees are parsed as their types, and their trees
    /// are still not built.
    #[test]
    fn checked_values_are_parsed_without_their_trees() {
        let yaml = "schema: olm.bundle\nname: b\npackage: p\nproperties:\n- type: olm.csv.metadata\n  value:\n    displayName: x\n- type: olm.bundle.object\n  value:\n    data: eyJraW5kIjoiQ29uZmlnTWFwIn0=\n";
        let loaded = crate::declcfg::load_files(&[crate::declcfg::FileInput::new("b.yaml", yaml)]);
        let bundle = &loaded.config.bundles[0];
        let parsed: Vec<Property> = parse_bundle(bundle).into_iter().map(|(_, p)| p).collect();
        assert_eq!(parsed, [Property::CsvMetadata, Property::BundleObject]);
        assert!(bundle.properties.iter().all(|p| p.value.as_ref().is_some_and(|v| v.built().is_none())));
    }
}
