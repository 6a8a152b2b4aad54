//! `metadata/`: opm tries every file (in name order) as each of three kinds, whatever its name,
//! and keeps the first that decodes with content: the annotations file (a non-empty
//! `annotations` block with the package, channels or default channel), the dependencies file
//! (at least one entry in `dependencies`) and the properties file (at least one entry in
//! `properties`). No annotations file is an error; a dependencies or properties file that opm
//! silently skips (it does not parse, or its list is under the wrong key) is a warning here,
//! because the bundle then renders without what the author wrote.

use super::fields;
use super::files::{files_in, folder_path, BundleFile};
use crate::declcfg::{read_documents, FileInput, Node, Pos};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::render::Annotations;

/// Annotation key of the package.
pub const PACKAGE_KEY: &str = "operators.operatorframework.io.bundle.package.v1";
/// Annotation key of the channels.
pub const CHANNELS_KEY: &str = "operators.operatorframework.io.bundle.channels.v1";
/// Annotation key of the default channel.
pub const DEFAULT_CHANNEL_KEY: &str = "operators.operatorframework.io.bundle.channel.default.v1";

/// One entry of a dependencies or properties file: a type and a raw value.
#[derive(Debug, Clone)]
pub struct Entry {
    /// `type`.
    pub type_: String,
    /// `value` (`None` when missing).
    pub value: Option<Node>,
    /// The file, as the caller named it.
    pub file: String,
    /// Where the entry starts.
    pub pos: Pos,
}

/// What `metadata/` holds.
#[derive(Debug, Clone, Default)]
pub struct Metadata {
    /// The bundle annotations.
    pub annotations: Annotations,
    /// `dependencies` of the dependencies file.
    pub dependencies: Vec<Entry>,
    /// `properties` of the properties file.
    pub properties: Vec<Entry>,
}

/// One metadata file, decoded once: its first document, or why it does not decode.
struct Decoded<'a> {
    file: BundleFile<'a>,
    node: Result<Node, (String, Location)>,
}

/// Read `root/metadata/`; `None` (with opm's error) when there is no annotations file.
pub fn read(root: &str, files: &[FileInput], diags: &mut Vec<Diagnostic>) -> Option<Metadata> {
    let decoded: Vec<Decoded<'_>> = files_in(root, "metadata", files).into_iter().map(|f| decode(f, diags)).collect();
    let annotations = decoded.iter().find_map(|d| annotations_of(d.node.as_ref().ok()?).ok().flatten());
    let dependencies = first_list(&decoded, "dependencies");
    let properties = first_list(&decoded, "properties");
    for d in &decoded {
        diags.extend(skipped_warning(d, "dependencies", dependencies.as_ref().map(|(i, _)| decoded[*i].file.path)));
        diags.extend(skipped_warning(d, "properties", properties.as_ref().map(|(i, _)| decoded[*i].file.path)));
    }
    let Some(annotations) = annotations else {
        let folder = folder_path(root, "metadata");
        diags.push(Diagnostic::error(
            Code::BundleNoAnnotations,
            "Could not find annotations file",
            fields::whole(&folder),
        ));
        return None;
    };
    let entries = |found: Option<(usize, Vec<Entry>)>| found.map(|(_, e)| e).unwrap_or_default();
    Some(Metadata { annotations, dependencies: entries(dependencies), properties: entries(properties) })
}

fn decode<'a>(file: BundleFile<'a>, diags: &mut Vec<Diagnostic>) -> Decoded<'a> {
    let mut docs = read_documents(file.path, file.bytes).into_iter();
    let node = match docs.next() {
        None => Err(("the file is empty".to_string(), fields::whole(file.path))),
        Some(Err(d)) => Err((d.message, d.location)),
        Some(Ok(doc)) => doc.value.ok_or_else(|| {
            (
                "the first document is empty".to_string(),
                Location { line: doc.line, column: 1, ..fields::whole(file.path) },
            )
        }),
    };
    if node.is_ok() {
        for extra in docs.flatten().filter(|d| d.value.is_some()) {
            let message = format!(
                "found more than one document inside {}, using only the first one{}",
                file.name,
                super::manifests::EXTRA_DOCUMENT
            );
            let location = Location { line: extra.line, column: 1, ..fields::whole(file.path) };
            diags.push(Diagnostic::warning(Code::BundleExtraDocument, message, location));
        }
    }
    Decoded { file, node }
}

/// The annotations of an `AnnotationsFile`: `Ok(None)` when it decodes to the zero value.
fn annotations_of(node: &Node) -> Result<Option<Annotations>, String> {
    if node.as_object().is_none() {
        return Err(fields::mismatch(node, "registry.AnnotationsFile"));
    }
    let Some(block) = fields::get(node, "annotations") else { return Ok(None) };
    if block.as_object().is_none() {
        return Err(fields::mismatch(block, "registry.Annotations"));
    }
    let package = fields::string(block, PACKAGE_KEY)?;
    let channels = fields::string(block, CHANNELS_KEY)?;
    let default_channel = fields::string(block, DEFAULT_CHANNEL_KEY)?;
    if package.is_empty() && channels.is_empty() && default_channel.is_empty() {
        return Ok(None);
    }
    let channels = channels.split(',').map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect();
    Ok(Some(Annotations { package, channels, default_channel }))
}

/// The first file (index) whose `key` list decodes with at least one entry.
fn first_list(decoded: &[Decoded<'_>], key: &str) -> Option<(usize, Vec<Entry>)> {
    decoded.iter().enumerate().find_map(|(i, d)| {
        let entries = list_of(d.node.as_ref().ok()?, key, d.file.path).ok()?;
        (!entries.is_empty()).then_some((i, entries))
    })
}

/// The `key` list of a `DependenciesFile` / `PropertiesFile` (`[{type, value}]`).
fn list_of(node: &Node, key: &str, file: &str) -> Result<Vec<Entry>, String> {
    if node.as_object().is_none() {
        return Err(fields::mismatch(node, "a map"));
    }
    let items = fields::array(node, key, "[]registry.Property")?;
    items
        .iter()
        .map(|item| {
            if item.as_object().is_none() {
                return Err(fields::mismatch(item, "registry.Property"));
            }
            let type_ = fields::string(item, "type")?;
            let value = item.field("value").map(|m| m.value.clone());
            Ok(Entry { type_, value, file: file.to_string(), pos: item.pos })
        })
        .collect()
}

/// A warning when a file named after `key` (`dependencies.yaml`) is not the one opm used.
fn skipped_warning(d: &Decoded<'_>, key: &str, used: Option<&str>) -> Option<Diagnostic> {
    if !d.file.name.starts_with(key) || used == Some(d.file.path) {
        return None;
    }
    let code = if key == "dependencies" { Code::BundleBadDependencies } else { Code::BundleBadProperties };
    let (why, location, fix) = match &d.node {
        Err((message, location)) => (format!("does not decode: {message}"), location.clone(), "fix it".to_string()),
        Ok(node) => (
            list_problem(node, key, d.file.path),
            fields::at(d.file.path, node),
            format!("give it a top-level `{key}` list"),
        ),
    };
    let consequence = match used {
        Some(other) => format!("opm takes the bundle's {key} from {other} instead: keep them in one file"),
        None => format!("opm skips it, so the bundle gets none of these {key}: {fix}, or remove it"),
    };
    Some(Diagnostic::warning(code, format!("metadata/{} {why}; {consequence}", d.file.name), location))
}

/// Why a decoded file gives no `key` entries.
fn list_problem(node: &Node, key: &str, file: &str) -> String {
    if let Err(e) = list_of(node, key, file) {
        return format!("is not a {key} file: {e}");
    }
    let other = if key == "dependencies" { "properties" } else { "dependencies" };
    let keys: Vec<&str> = node.as_object().unwrap_or_default().iter().map(|m| m.key.as_str()).collect();
    if list_of(node, other, file).is_ok_and(|e| !e.is_empty()) {
        return format!(
            "has no `{key}` list but a `{other}` one (opm reads any metadata file with `{other}` entries as the {other} file)"
        );
    }
    format!("has no `{key}` entries (top-level keys: {})", keys.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(files: &[(&str, &str)]) -> (Option<Metadata>, Vec<Diagnostic>) {
        let files: Vec<FileInput> = files.iter().map(|(p, c)| FileInput::new(*p, *c)).collect();
        let mut diags = Vec::new();
        (read("b", &files, &mut diags), diags)
    }

    const ANNOTATIONS: &str = "annotations:\n  operators.operatorframework.io.bundle.package.v1: foo\n  \
                               operators.operatorframework.io.bundle.channels.v1: beta, stable\n";

    #[test]
    fn the_annotations_file_is_found_by_content_not_name() {
        let (m, diags) = run(&[("b/metadata/zzz.yaml", ANNOTATIONS), ("b/metadata/a.yaml", "annotations: {}\n")]);
        let m = m.unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(m.annotations.package, "foo");
        assert_eq!(m.annotations.channels, ["beta", "stable"]);
        let (m, diags) = run(&[("b/metadata/annotations.yaml", "annotations:\n  other: x\n")]);
        assert!(m.is_none());
        assert_eq!(diags[0].message, "Could not find annotations file");
        assert_eq!(diags[0].location.file, "b/metadata");
    }

    #[test]
    fn an_empty_first_document_is_located_at_its_line() {
        // Found by fuzzing: the warning had a line but column 0.
        let (_, diags) = run(&[
            ("b/metadata/annotations.yaml", ANNOTATIONS),
            ("b/metadata/dependencies.yaml", "\n---\ndependencies: []\n"),
        ]);
        assert!(
            diags[0]
                .message
                .ends_with("the first document is empty; opm skips it, so the bundle gets none of these dependencies: fix it, or remove it"),
            "{diags:?}"
        );
        assert_eq!((diags[0].location.line, diags[0].location.column), (1, 1));
    }

    #[test]
    fn dependencies_and_properties_come_from_the_first_file_with_entries() {
        let (m, diags) = run(&[
            ("b/metadata/annotations.yaml", ANNOTATIONS),
            (
                "b/metadata/dependencies.yaml",
                "dependencies:\n- type: olm.gvk\n  value: {group: g, kind: K, version: v1}\n",
            ),
            ("b/metadata/properties.yaml", "properties:\n- type: olm.label\n  value: {label: x}\n"),
        ]);
        let m = m.unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(m.dependencies[0].type_, "olm.gvk");
        assert_eq!((m.properties[0].type_.as_str(), m.properties[0].pos.line), ("olm.label", 2));
    }

    #[test]
    fn a_broken_dependencies_file_is_skipped_as_opm_does_with_a_located_warning() {
        let broken =
            "dependencies:\n  - type: olm.gvk\n    value:\n      group: a\n  - type: olm.gvk\n      value: {}\n";
        let (m, diags) = run(&[("b/metadata/annotations.yaml", ANNOTATIONS), ("b/metadata/dependencies.yaml", broken)]);
        assert!(m.unwrap().dependencies.is_empty());
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, Code::BundleBadDependencies);
        assert_eq!(diags[0].location.file, "b/metadata/dependencies.yaml");
        assert!(diags[0].location.line >= 5, "{:?}", diags[0]);
        assert!(diags[0].message.contains("gets none of these dependencies"), "{}", diags[0].message);
    }

    #[test]
    fn a_properties_file_holding_dependencies_becomes_the_dependencies_file() {
        let wrong = "dependencies:\n- type: olm.package\n  value: {packageName: p, version: 1.0.0}\n";
        let (m, diags) = run(&[("b/metadata/annotations.yaml", ANNOTATIONS), ("b/metadata/properties.yaml", wrong)]);
        let m = m.unwrap();
        assert_eq!(m.dependencies.len(), 1);
        assert!(m.properties.is_empty());
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, Code::BundleBadProperties);
        assert!(diags[0].message.contains("has no `properties` list but a `dependencies` one"), "{}", diags[0].message);
    }
}
