//! A package-manifest directory (`<pkg>.package.yaml` plus one folder per version holding a CSV
//! and its CRDs) → a whole FBC package, by the conventional mapping of the sqlite loader that
//! read these (operator-registry `pkg/sqlite/directory.go`, `pkg/sqlite/load.go`
//! `addPackageChannels`, `pkg/sqlite/conversion.go`):
//! - a CSV is any file whose first document has `kind: ClusterServiceVersion`; its bundle is every
//!   file of the CSV's directory;
//! - a channel holds its `currentCSV`, every CSV down its `spec.replaces` chain, and each CSV that a
//!   chain member's `spec.skips` names (skipped CSVs are not followed further; `olm.skipRange`
//!   adds no entries); each entry carries its CSV's replaces, skips and skipRange;
//! - the default channel is `defaultChannel`, or the lone channel when there is one;
//! - the icon is `spec.icon[0]` of the default channel's `currentCSV`;
//! - a CSV no channel reaches is left out, as the sqlite index left it out.

use std::collections::{BTreeMap, HashMap};

use super::csv::{self, CsvEdges};
use super::graph::{PlannedChannel, PlannedEntry};
use super::{blobs, discover};
use crate::declcfg::{read_documents, FileInput, Node, Pos, Spanned};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::render::bundle::BundleOutcome;
use crate::render::{Annotations, Rendered};

/// `<pkg>.package.yaml`, decoded as `pkg/registry/types.go` `PackageManifest`.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageManifest {
    /// The file it was read from.
    pub file: String,
    /// `packageName`.
    pub package_name: Spanned<String>,
    /// `channels`.
    pub channels: Vec<ManifestChannel>,
    /// `defaultChannel` (empty when unset).
    pub default_channel: Spanned<String>,
    /// Where the document starts.
    pub pos: Pos,
}

/// One of `channels`.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestChannel {
    /// Where the item starts.
    pub pos: Pos,
    /// `name`.
    pub name: Spanned<String>,
    /// `currentCSV`.
    pub current_csv: Spanned<String>,
}

/// One CSV of the package.
#[derive(Debug, Clone)]
struct CsvInfo {
    dir: String,
    file: String,
    edges: CsvEdges,
    csv: Node,
}

fn locate(file: &str, pos: Pos, pointer: &str) -> Location {
    Location { file: file.to_string(), line: pos.line, column: pos.column, pointer: pointer.to_string() }
}

/// A string field as Go's `encoding/json` binds it (keys matched case-insensitively); a value of
/// another type is opm's decoding error.
fn string_field(node: &Node, key: &str, go_field: &str) -> Result<Spanned<String>, String> {
    let Some(m) = node.field(key) else { return Ok(Spanned::default()) };
    match &m.value.value {
        crate::declcfg::Value::Null => Ok(Spanned::default()),
        crate::declcfg::Value::String(s) => Ok(Spanned::new(s.to_string(), m.value.pos)),
        _ => Err(format!(
            "json: cannot unmarshal {} into Go struct field {go_field} of type string",
            m.value.kind_name()
        )),
    }
}

/// Decode `<pkg>.package.yaml` (`pkg/registry/decode.go` `DecodePackageManifest`).
pub fn parse(file: &FileInput) -> Result<PackageManifest, Diagnostic> {
    let whole = |code: Code, message: String, pos: Pos| Diagnostic::error(code, message, locate(&file.path, pos, ""));
    let invalid = |message: String, pos: Pos| {
        whole(Code::PackageManifestInvalid, format!("could not decode contents into package manifest - {message}"), pos)
    };
    let doc = match read_documents(&file.path, &file.content).into_iter().next() {
        Some(Ok(doc)) => doc,
        Some(Err(e)) => return Err(invalid(e.message, Pos::new(e.location.line, e.location.column))),
        None => return Err(invalid("EOF".into(), Pos::default())),
    };
    let pos = Pos::new(doc.line, 1);
    let Some(node) = doc.value.filter(|n| n.as_object().is_some()) else {
        return Err(invalid("json: cannot unmarshal into Go value of type registry.PackageManifest".into(), pos));
    };
    let field = |k: &str, go: &str| string_field(&node, k, go).map_err(|e| invalid(e, node.pos));
    let package_name = field("packageName", "PackageManifest.packageName")?;
    let default_channel = field("defaultChannel", "PackageManifest.defaultChannel")?;
    let mut channels = Vec::new();
    if let Some(items) = node.field("channels").map(|m| &m.value) {
        let Some(items) = items.as_array() else {
            if items.value == crate::declcfg::Value::Null {
                return Ok(PackageManifest { file: file.path.clone(), package_name, channels, default_channel, pos });
            }
            return Err(invalid(format!("json: cannot unmarshal {} into Go struct field PackageManifest.channels of type []registry.PackageChannel", items.kind_name()), items.pos));
        };
        for item in items {
            let f = |k: &str, go: &str| string_field(item, k, go).map_err(|e| invalid(e, item.pos));
            channels.push(ManifestChannel {
                pos: item.pos,
                name: f("name", "PackageChannel.name")?,
                current_csv: f("currentCSV", "PackageChannel.currentCSV")?,
            });
        }
    }
    if package_name.value.is_empty() {
        return Err(whole(
            Code::PackageManifestNoPackageName,
            "name of package (packageName) is missing".into(),
            node.pos,
        ));
    }
    Ok(PackageManifest { file: file.path.clone(), package_name, channels, default_channel, pos: node.pos })
}

/// The package manifest file of directory `root`: a `*.package.yaml` in it, or else any other
/// file in it that reads as an object with `packageName`.
fn manifest_file<'a>(root: &str, files: &'a [FileInput]) -> Option<&'a FileInput> {
    let here: Vec<&FileInput> =
        files.iter().filter(|f| discover::parent(&f.path) == root.trim_end_matches('/')).collect();
    let named = here.iter().copied().find(|f| f.path.ends_with(".package.yaml") || f.path.ends_with(".package.yml"));
    named.or_else(|| {
        here.into_iter().find(|f| {
            matches!(read_documents(&f.path, &f.content).first(), Some(Ok(d)) if d.value.as_ref().and_then(|v| v.field("packageName")).is_some())
        })
    })
}

/// Every CSV under `root`, by name (a second CSV of the same name is reported and ignored).
fn find_csvs(files: &[FileInput], skip: &str, diags: &mut Vec<Diagnostic>) -> BTreeMap<String, CsvInfo> {
    let mut out: BTreeMap<String, CsvInfo> = BTreeMap::new();
    for f in files.iter().filter(|f| f.path != skip) {
        let Some(Ok(doc)) = read_documents(&f.path, &f.content).into_iter().next() else { continue };
        let Some(node) = doc.value.filter(csv::is_csv) else { continue };
        let name = csv::name(&node).unwrap_or("").to_string();
        if let Some(first) = out.get(&name) {
            let message = format!("bundle {name} is defined twice; the first is kept");
            let d = Diagnostic::error(Code::PackageManifestDuplicateBundle, message, locate(&f.path, node.pos, ""))
                .with_related("first defined here", locate(&first.file, first.csv.pos, ""));
            diags.push(d);
            continue;
        }
        let info = CsvInfo {
            dir: discover::parent(&f.path).to_string(),
            file: f.path.clone(),
            edges: csv::edges(&node),
            csv: node,
        };
        out.insert(name, info);
    }
    out
}

/// The members of one channel, walking as `addPackageChannels` walked, oldest first: the skipped
/// CSVs that are not on the replaces chain, then the chain from its tail to `currentCSV`.
fn members(
    channel: &ManifestChannel,
    manifest: &PackageManifest,
    csvs: &BTreeMap<String, CsvInfo>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let head = channel.current_csv.value.clone();
    if !csvs.contains_key(&head) {
        let location = locate(&manifest.file, channel.current_csv.pos, "");
        diags.push(Diagnostic::error(
            Code::PackageManifestHeadMissing,
            format!("no bundle found for bundlename {head}"),
            location,
        ));
        return Vec::new();
    }
    let (mut chain, mut skipped) = (vec![head.clone()], Vec::new());
    let mut current = head.clone();
    while let Some(info) = csvs.get(&current) {
        skipped.extend(info.edges.skips.iter().filter(|s| csvs.contains_key(&s.value)).map(|s| s.value.clone()));
        let replaces = &info.edges.replaces;
        let at = locate(&info.file, replaces.pos, "/spec/replaces");
        if replaces.value.is_empty() {
            break;
        }
        if chain.contains(&replaces.value) {
            let message = format!("Cycle detected, {current} replaces {}", replaces.value);
            diags.push(Diagnostic::error(Code::PackageManifestReplacesCycle, message, at));
            break;
        }
        if !csvs.contains_key(&replaces.value) {
            let message = format!("Invalid bundle {head}, replaces nonexistent bundle {}", replaces.value);
            diags.push(Diagnostic::error(Code::PackageManifestReplacesMissing, message, at));
            break;
        }
        chain.push(replaces.value.clone());
        current = replaces.value.clone();
    }
    let skipped_only: Vec<String> = skipped.into_iter().rev().filter(|s| !chain.contains(s)).collect();
    let mut out: Vec<String> = Vec::new();
    for name in skipped_only.into_iter().chain(chain.into_iter().rev()) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The default channel (`PackageManifest.GetDefaultChannel`), or opm's error when none is listed.
fn default_channel(manifest: &PackageManifest, diags: &mut Vec<Diagnostic>) -> Spanned<String> {
    let listed = |name: &str| manifest.channels.iter().any(|c| c.name.value == name);
    if !manifest.default_channel.value.is_empty() && listed(&manifest.default_channel.value) {
        return manifest.default_channel.clone();
    }
    if manifest.default_channel.value.is_empty() && manifest.channels.len() == 1 {
        return Spanned::new(manifest.channels[0].name.value.clone(), manifest.pos);
    }
    let pos = if manifest.default_channel.value.is_empty() { manifest.pos } else { manifest.default_channel.pos };
    let message = format!("no default channel specified for {}", manifest.package_name.value);
    diags.push(Diagnostic::error(Code::PackageManifestNoDefaultChannel, message, locate(&manifest.file, pos, "")));
    manifest.default_channel.clone()
}

/// Render the package manifest directory `root`; `render_dir` renders one version folder given the
/// annotations the package manifest implies for it.
pub fn render(
    root: &str,
    files: &[FileInput],
    render_dir: &dyn Fn(&str, &[FileInput], &Annotations) -> BundleOutcome,
) -> Rendered {
    let mut out = Rendered::default();
    let Some(file) = manifest_file(root, files) else {
        let location = Location { file: root.to_string(), ..Location::default() };
        let message = format!("valid PackageManifest YAML file not found in {root}");
        out.diagnostics.push(Diagnostic::error(Code::PackageManifestNotFound, message, location));
        return out;
    };
    let manifest = match parse(file) {
        Ok(m) => m,
        Err(d) => {
            out.diagnostics.push(d);
            return out;
        }
    };
    let csvs = find_csvs(files, &file.path, &mut out.diagnostics);
    let default = default_channel(&manifest, &mut out.diagnostics);
    let (order, mut channels_of) = add_channels(&manifest, &csvs, &mut out);
    add_package(&manifest, &csvs, &default, &mut out);
    warn_unlisted(&csvs, &order, &mut out.diagnostics);
    let package = &manifest.package_name.value;
    for name in order {
        let Some(info) = csvs.get(&name) else { continue };
        let annotations = Annotations {
            package: package.clone(),
            channels: channels_of.remove(&name).unwrap_or_default(),
            default_channel: default.value.clone(),
        };
        let in_dir: Vec<FileInput> =
            files.iter().filter(|f| discover::parent(&f.path) == info.dir && f.path != file.path).cloned().collect();
        let outcome = render_dir(&info.dir, &in_dir, &annotations);
        out.diagnostics.extend(outcome.diagnostics);
        match outcome.bundle {
            Some(b) => out.config.bundles.push(b.blob),
            None => out.diagnostics.push(super::tree::left_out(&info.dir)),
        }
    }
    out
}

/// Add a channel blob per channel of the manifest; returns the bundles of the channels in the
/// order first met, and the channels each bundle is in.
fn add_channels(
    manifest: &PackageManifest,
    csvs: &BTreeMap<String, CsvInfo>,
    out: &mut Rendered,
) -> (Vec<String>, HashMap<String, Vec<String>>) {
    let package = &manifest.package_name.value;
    let mut channels_of: HashMap<String, Vec<String>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for channel in &manifest.channels {
        let names = members(channel, manifest, csvs, &mut out.diagnostics);
        let entries = names.iter().filter_map(|n| csvs.get(n).map(|c| entry(n, &c.edges))).collect();
        for n in &names {
            channels_of.entry(n.clone()).or_default().push(channel.name.value.clone());
            if !order.contains(n) {
                order.push(n.clone());
            }
        }
        let planned = PlannedChannel { name: channel.name.value.clone(), entries };
        out.config.channels.push(blobs::channel(
            blobs::source(&manifest.file, channel.pos),
            package,
            &planned,
            channel.pos,
        ));
    }
    (order, channels_of)
}

/// Add the package blob first, with the icon of the default channel's current CSV.
fn add_package(
    manifest: &PackageManifest,
    csvs: &BTreeMap<String, CsvInfo>,
    default: &Spanned<String>,
    out: &mut Rendered,
) {
    let icon = manifest
        .channels
        .iter()
        .find(|c| c.name.value == default.value)
        .and_then(|c| csvs.get(&c.current_csv.value))
        .and_then(|h| {
            let (data, media, pos) = csv::icon(&h.csv)?;
            let (icon, warning) =
                blobs::icon(csv::name(&h.csv).unwrap_or(""), &data, &media, locate(&h.file, pos, "/spec/icon/0"));
            out.diagnostics.extend(warning);
            icon
        });
    let source = blobs::source(&manifest.file, manifest.pos);
    out.config.packages.insert(0, blobs::package(source, &manifest.package_name.value, default.clone(), icon));
}

/// Warn of each CSV no channel lists (it is left out).
fn warn_unlisted(csvs: &BTreeMap<String, CsvInfo>, order: &[String], diags: &mut Vec<Diagnostic>) {
    for (name, info) in csvs {
        if !order.contains(name) {
            let message = format!(
                "bundle {name} is in no channel: no currentCSV reaches it through replaces or skips; it is left out, so OLM cannot install it; to keep it, have a listed CSV replace it (`spec.replaces: {name}`) or skip it (`spec.skips`), or else delete {}",
                if info.dir.is_empty() { "its directory" } else { &info.dir }
            );
            diags.push(Diagnostic::warning(
                Code::PackageManifestUnlistedBundle,
                message,
                locate(&info.file, info.csv.pos, ""),
            ));
        }
    }
}

fn entry(name: &str, edges: &CsvEdges) -> PlannedEntry {
    PlannedEntry {
        name: name.to_string(),
        replaces: edges.replaces.value.clone(),
        skips: edges.skips.iter().map(|s| s.value.clone()).collect(),
        skip_range: edges.skip_range.value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::legacy::minimal;

    fn csv(name: &str, version: &str, extra: &str) -> String {
        format!("apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: {name}\nspec:\n  version: {version}\n{extra}")
    }

    fn render_files(files: &[(&str, String)]) -> Rendered {
        let files: Vec<FileInput> = files.iter().map(|(p, t)| FileInput::new(*p, t.as_bytes())).collect();
        render("db", &files, &|dir, files, a| minimal::render(dir, files, a.clone()))
    }

    /// A package `db` with two channels: `stable` (head db.v0.3.0, which replaces db.v0.2.0 and
    /// skips db.v0.1.0) and `beta` (head db.v0.2.0).
    fn package() -> Vec<(&'static str, String)> {
        vec![
            ("db/db.package.yaml", "packageName: db\nchannels:\n- name: stable\n  currentCSV: db.v0.3.0\n- name: beta\n  currentCSV: db.v0.2.0\ndefaultChannel: stable\n".into()),
            ("db/0.1.0/db.v0.1.0.clusterserviceversion.yaml", csv("db.v0.1.0", "0.1.0", "")),
            ("db/0.2.0/db.v0.2.0.clusterserviceversion.yaml", csv("db.v0.2.0", "0.2.0", "  replaces: db.v0.1.0\n")),
            ("db/0.2.0/db.crd.yaml", "kind: CustomResourceDefinition\n".into()),
            (
                "db/0.3.0/db.v0.3.0.clusterserviceversion.yaml",
                csv("db.v0.3.0", "0.3.0", "  replaces: db.v0.2.0\n  skips: [db.v0.1.0]\n  icon:\n  - base64data: QUJD\n    mediatype: image/png\n"),
            ),
        ]
    }

    fn entries(r: &Rendered, channel: &str) -> Vec<(String, String, Vec<String>)> {
        let c = r.config.channels.iter().find(|c| c.name.value == channel).unwrap();
        c.entries
            .iter()
            .map(|e| {
                (e.name.value.clone(), e.replaces.value.clone(), e.skips.iter().map(|s| s.value.clone()).collect())
            })
            .collect()
    }

    #[test]
    fn channels_hold_the_replaces_chain_from_current_csv_and_the_skipped_csvs() {
        let r = render_files(&package());
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let p = &r.config.packages[0];
        assert_eq!(
            (p.name.value.as_str(), p.default_channel.value.as_str(), &*p.source.file),
            ("db", "stable", "db/db.package.yaml")
        );
        assert_eq!(
            p.icon.as_ref().map(|i| (i.data.to_vec(), i.media_type.as_str())),
            Some((b"ABC".to_vec(), "image/png"))
        );
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            entries(&r, "stable"),
            [
                ("db.v0.1.0".into(), "".into(), s(&[])),
                ("db.v0.2.0".into(), "db.v0.1.0".into(), s(&[])),
                ("db.v0.3.0".into(), "db.v0.2.0".into(), s(&["db.v0.1.0"])),
            ]
        );
        assert_eq!(
            entries(&r, "beta"),
            [("db.v0.1.0".into(), "".into(), s(&[])), ("db.v0.2.0".into(), "db.v0.1.0".into(), s(&[]))]
        );
        let bundles: Vec<&str> = r.config.bundles.iter().map(|b| b.name.value.as_str()).collect();
        assert_eq!(bundles, ["db.v0.1.0", "db.v0.2.0", "db.v0.3.0"]);
        assert_eq!(&*r.config.channels[0].source.file, "db/db.package.yaml");
        assert_eq!(r.config.channels[0].source.pos.line, 3);
    }

    #[test]
    fn skipped_csvs_are_members_but_their_own_replaces_are_not_followed() {
        let mut files = package();
        files[0].1 = "packageName: db\nchannels:\n- name: stable\n  currentCSV: db.v0.3.0\n".into();
        files[4].1 = csv("db.v0.3.0", "0.3.0", "  skips: [db.v0.2.0, db.v0.0.9]\n");
        let r = render_files(&files);
        let names: Vec<String> = entries(&r, "stable").into_iter().map(|e| e.0).collect();
        // db.v0.2.0 is skipped, so it is an entry; what it replaces (db.v0.1.0) is not reached.
        // db.v0.0.9 has no CSV, so it is named in skips but is no entry.
        assert_eq!(names, ["db.v0.2.0", "db.v0.3.0"]);
        assert_eq!(r.config.packages[0].default_channel.value, "stable");
        let unlisted: Vec<&Diagnostic> =
            r.diagnostics.iter().filter(|d| d.code == Code::PackageManifestUnlistedBundle).collect();
        assert_eq!(unlisted.len(), 1);
        assert!(unlisted[0].message.starts_with("bundle db.v0.1.0 is in no channel"));
        assert_eq!(unlisted[0].location.file, "db/0.1.0/db.v0.1.0.clusterserviceversion.yaml");
    }

    #[test]
    fn a_missing_replaces_target_is_opms_error_located_at_the_replaces() {
        let mut files = package();
        files.remove(1);
        let r = render_files(&files);
        let d: Vec<&Diagnostic> =
            r.diagnostics.iter().filter(|d| d.code == Code::PackageManifestReplacesMissing).collect();
        // opm names the channel's currentCSV, not the CSV that replaces.
        assert_eq!(d[0].message, "Invalid bundle db.v0.3.0, replaces nonexistent bundle db.v0.1.0");
        assert_eq!(
            (d[0].location.file.as_str(), d[0].location.line, d[0].location.pointer.as_str()),
            ("db/0.2.0/db.v0.2.0.clusterserviceversion.yaml", 7, "/spec/replaces")
        );
        assert_eq!(d[1].message, "Invalid bundle db.v0.2.0, replaces nonexistent bundle db.v0.1.0");
        // The chain down to the break still renders.
        assert_eq!(entries(&r, "stable").len(), 2);
    }

    #[test]
    fn a_replaces_cycle_is_opms_error() {
        let mut files = package();
        files[1].1 = csv("db.v0.1.0", "0.1.0", "  replaces: db.v0.3.0\n");
        let r = render_files(&files);
        let cycle: Vec<&str> = r
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::PackageManifestReplacesCycle)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            cycle,
            ["Cycle detected, db.v0.1.0 replaces db.v0.3.0", "Cycle detected, db.v0.3.0 replaces db.v0.2.0"]
        );
    }

    #[test]
    fn a_current_csv_that_does_not_exist_is_reported_at_the_package_manifest() {
        let mut files = package();
        files[0].1 = "packageName: db\nchannels:\n- name: stable\n  currentCSV: db.v9\n".into();
        let r = render_files(&files);
        let d = r.diagnostics.iter().find(|d| d.code == Code::PackageManifestHeadMissing).unwrap();
        assert_eq!(
            (d.message.as_str(), d.location.line, d.location.column),
            ("no bundle found for bundlename db.v9", 4, 15)
        );
    }

    #[test]
    fn the_default_channel_rules() {
        let pm = |text: &str| parse(&FileInput::new("p.package.yaml", text)).unwrap();
        let mut diags = Vec::new();
        let one = pm("packageName: a\nchannels: [{name: alpha, currentCSV: a.v1}]\n");
        assert_eq!(default_channel(&one, &mut diags).value, "alpha");
        let two = pm("packageName: a\nchannels: [{name: alpha, currentCSV: a.v1}, {name: beta, currentCSV: a.v2}]\n");
        assert_eq!(default_channel(&two, &mut diags).value, "");
        let named_none = pm("packageName: a\ndefaultChannel: gamma\nchannels: [{name: alpha, currentCSV: a.v1}]\n");
        default_channel(&named_none, &mut diags);
        let messages: Vec<(&str, u32)> = diags.iter().map(|d| (d.message.as_str(), d.location.line)).collect();
        assert_eq!(messages, [("no default channel specified for a", 1), ("no default channel specified for a", 2)]);
    }

    #[test]
    fn a_package_manifest_needs_a_package_name_and_the_right_types() {
        let err = |text: &str| parse(&FileInput::new("p/p.package.yaml", text)).unwrap_err();
        let d = err("channels: []\n");
        assert_eq!(
            (d.code, d.message.as_str()),
            (Code::PackageManifestNoPackageName, "name of package (packageName) is missing")
        );
        let d = err("packageName: [a]\n");
        assert_eq!(d.code, Code::PackageManifestInvalid);
        assert_eq!(d.message, "could not decode contents into package manifest - json: cannot unmarshal array into Go struct field PackageManifest.packageName of type string");
        // Go's encoding/json matches keys case-insensitively.
        assert_eq!(parse(&FileInput::new("p.yaml", "PackageName: a\n")).unwrap().package_name.value, "a");
    }

    #[test]
    fn a_directory_without_a_package_manifest_is_reported() {
        let r = render("x", &[FileInput::new("x/1/csv.yaml", csv("x.v1", "1.0.0", ""))], &|d, f, a| {
            minimal::render(d, f, a.clone())
        });
        assert_eq!(r.diagnostics[0].code, Code::PackageManifestNotFound);
        assert_eq!(r.diagnostics[0].message, "valid PackageManifest YAML file not found in x");
    }

    #[test]
    fn two_csvs_with_one_name_keep_the_first() {
        let mut files = package();
        files.push(("db/copy/db.v0.1.0.clusterserviceversion.yaml", csv("db.v0.1.0", "0.1.0", "")));
        let r = render_files(&files);
        let d = r.diagnostics.iter().find(|d| d.code == Code::PackageManifestDuplicateBundle).unwrap();
        assert_eq!(d.location.file, "db/copy/db.v0.1.0.clusterserviceversion.yaml");
        assert_eq!(d.related[0].location.file, "db/0.1.0/db.v0.1.0.clusterserviceversion.yaml");
    }
}
