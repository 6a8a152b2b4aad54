//! `manifests/`: every file decoded as one Kubernetes object, as opm's bundle parser does. Only
//! the first document of a file counts (more give a warning); a file that does not decode, or
//! whose object has no `kind`, is skipped with a warning; only the first ClusterServiceVersion is
//! kept. No object at all, or no CSV, is an error.

use super::fields;
use super::files::{files_in, folder_path, BundleFile};
use super::go_json::{to_json, Keys};
use crate::declcfg::{read_documents, FileInput, Node};
use crate::diagnostic::{Code, Diagnostic};

/// `kind` of a ClusterServiceVersion.
pub const CSV_KIND: &str = "ClusterServiceVersion";

/// One manifest object.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The file it was read from, as the caller named it.
    pub file: String,
    /// The object.
    pub node: Node,
    /// Its `kind`.
    pub kind: String,
}

/// The objects of `manifests/`, in file-name order, with the CSV among them.
#[derive(Debug, Clone)]
pub struct Manifests {
    /// Every object.
    pub objects: Vec<Manifest>,
    /// The index of the (first) CSV in `objects`.
    pub csv: usize,
}

impl Manifests {
    /// The CSV.
    pub fn csv(&self) -> &Manifest {
        &self.objects[self.csv]
    }
}

/// Read `root/manifests/`; `None` (with the error reported) when opm would fail the bundle.
pub fn read(root: &str, files: &[FileInput], diags: &mut Vec<Diagnostic>) -> Option<Manifests> {
    let mut objects: Vec<Manifest> = Vec::new();
    let mut csv: Option<usize> = None;
    for file in files_in(root, "manifests", files) {
        if file.name.starts_with('.') {
            continue;
        }
        let Some(manifest) = decode(&file, diags) else { continue };
        if manifest.kind == CSV_KIND {
            if let Some(first) = csv {
                diags.push(extra_csv(&manifest, &objects[first]));
                continue;
            }
            csv = Some(objects.len());
        }
        objects.push(manifest);
    }
    let folder = folder_path(root, "manifests");
    if objects.is_empty() {
        diags.push(Diagnostic::error(Code::BundleNoObjects, "no bundle objects found", fields::whole(&folder)));
        return None;
    }
    let Some(csv) = csv else {
        diags.push(Diagnostic::error(Code::BundleNoCsv, "no csv in bundle", fields::whole(&folder)));
        return None;
    };
    Some(Manifests { objects, csv })
}

/// The end of the warning for a file of several YAML documents: what happens to the others, and
/// the fix (opm's message before it).
pub(super) const EXTRA_DOCUMENT: &str =
    "; the documents after the first are not in the bundle: put each in a file of its own";

/// The first document of `file` as an object with a `kind`; a file that does not decode is left
/// out with a warning, as opm logs and leaves out one that go-yaml cannot read.
fn decode(file: &BundleFile<'_>, diags: &mut Vec<Diagnostic>) -> Option<Manifest> {
    let mut docs = read_documents(file.path, file.bytes).into_iter();
    let first = match docs.next() {
        None => return undecodable(file, "EOF", fields::whole(file.path), diags),
        Some(Err(d)) => return undecodable(file, &d.message, d.location, diags),
        Some(Ok(doc)) => doc,
    };
    for extra in docs.flatten().filter(|d| d.value.is_some()) {
        let message =
            format!("found more than one document inside {}, using only the first one{EXTRA_DOCUMENT}", file.name);
        let location = crate::diagnostic::Location { line: extra.line, column: 1, ..fields::whole(file.path) };
        diags.push(Diagnostic::warning(Code::BundleExtraDocument, message, location));
    }
    let Some(node) = first.value else {
        let location = crate::diagnostic::Location { line: first.line, column: 1, ..fields::whole(file.path) };
        return undecodable(file, "Object 'Kind' is missing in 'null'", location, diags);
    };
    if node.as_object().is_none() {
        let message =
            format!("json: cannot unmarshal {} into Go value of type map[string]interface {{}}", node.kind_name());
        return undecodable(file, &message, fields::at(file.path, &node), diags);
    }
    let kind = fields::loose_string(&node, "kind");
    if kind.is_empty() {
        let message = format!("Object 'Kind' is missing in '{}'", shorten(&to_json(&node, Keys::Sorted, true)));
        return undecodable(file, &message, fields::at(file.path, &node), diags);
    }
    Some(Manifest { file: file.path.to_string(), node, kind })
}

fn undecodable(
    file: &BundleFile<'_>,
    why: &str,
    location: crate::diagnostic::Location,
    diags: &mut Vec<Diagnostic>,
) -> Option<Manifest> {
    let message = format!(
        "failed to decode: {why} (manifests/{} is left out of the bundle, so OLM never creates it); fix it or remove it",
        file.name
    );
    diags.push(Diagnostic::warning(Code::BundleUndecodableFile, message, location));
    None
}

fn extra_csv(ignored: &Manifest, first: &Manifest) -> Diagnostic {
    let name =
        |m: &Manifest| fields::path(&m.node, &["metadata", "name"]).and_then(Node::as_str).unwrap_or("").to_string();
    let message = format!(
        "a second ClusterServiceVersion ({}) is ignored: opm uses only the first one ({}); remove {} or give it a bundle directory of its own",
        name(ignored),
        name(first),
        ignored.file
    );
    Diagnostic::warning(Code::BundleExtraCsv, message, fields::at(&ignored.file, &ignored.node))
        .with_related("the CSV used", fields::at(&first.file, &first.node))
}

/// At most 200 characters of an object's JSON, for messages.
fn shorten(json: &str) -> String {
    match json.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &json[..i]),
        None => json.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(files: &[(&str, &str)]) -> (Option<Manifests>, Vec<Diagnostic>) {
        let files: Vec<FileInput> = files.iter().map(|(p, c)| FileInput::new(*p, *c)).collect();
        let mut diags = Vec::new();
        (read("b", &files, &mut diags), diags)
    }

    const CSV: &str = "kind: ClusterServiceVersion\nmetadata: {name: a.v1}\n";

    #[test]
    fn objects_come_in_file_name_order_and_hidden_files_are_skipped() {
        let (m, diags) = run(&[
            ("b/manifests/z.yaml", "kind: Service\n"),
            ("b/manifests/a.csv.yaml", CSV),
            ("b/manifests/.hidden", "kind: Secret\n"),
        ]);
        let m = m.unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(m.objects.iter().map(|o| o.kind.as_str()).collect::<Vec<_>>(), ["ClusterServiceVersion", "Service"]);
        assert_eq!(m.csv().file, "b/manifests/a.csv.yaml");
    }

    #[test]
    fn extra_documents_undecodable_files_and_a_second_csv_are_warnings() {
        let (m, diags) = run(&[
            ("b/manifests/a.yaml", CSV),
            ("b/manifests/b.yaml", "kind: ClusterServiceVersion\nmetadata: {name: b.v1}\n"),
            ("b/manifests/c.yaml", "kind: Service\n---\nkind: Secret\n"),
            ("b/manifests/d.yaml", "a: [\n"),
            ("b/manifests/e.yaml", "metadata: {}\n"),
        ]);
        assert_eq!(m.unwrap().objects.len(), 2);
        let codes: Vec<(Code, &str, u32)> =
            diags.iter().map(|d| (d.code, d.location.file.as_str(), d.location.line)).collect();
        assert_eq!(
            codes,
            [
                (Code::BundleExtraCsv, "b/manifests/b.yaml", 1),
                (Code::BundleExtraDocument, "b/manifests/c.yaml", 3),
                (Code::BundleUndecodableFile, "b/manifests/d.yaml", 2),
                (Code::BundleUndecodableFile, "b/manifests/e.yaml", 1),
            ]
        );
        assert!(diags[3].message.contains("Object 'Kind' is missing"), "{}", diags[3].message);
        assert!(
            diags[2].message.ends_with(
                "(manifests/d.yaml is left out of the bundle, so OLM never creates it); fix it or remove it"
            ),
            "{}",
            diags[2].message
        );
    }

    #[test]
    fn quoted_lines_at_any_column_decode_as_go_yaml_reads_them() {
        // As in opendatahub-operator 1.4.1's CRDs: a description goes on at its key's column.
        let crd = "kind: CustomResourceDefinition\nspec:\n  description: 'x\n  y'\n  flow: [a,\nb]\n";
        let (m, diags) = run(&[("b/manifests/a.yaml", CSV), ("b/manifests/crd.yaml", crd)]);
        assert!(diags.is_empty(), "{diags:?}");
        let m = m.unwrap();
        let spec = m.objects[1].node.get("spec").unwrap();
        assert_eq!(spec.get("description").and_then(Node::as_str), Some("x y"));
        assert_eq!(spec.get("flow").unwrap().as_array().unwrap().len(), 2);
    }

    #[test]
    fn no_objects_and_no_csv_are_opm_errors() {
        let (m, diags) = run(&[("b/manifests/x.yaml", "")]);
        assert!(m.is_none());
        assert_eq!(diags.last().unwrap().message, "no bundle objects found");
        assert_eq!(diags.last().unwrap().location.file, "b/manifests");
        let (m, diags) = run(&[("b/manifests/x.yaml", "kind: Service\n")]);
        assert!(m.is_none());
        assert_eq!(diags[0].message, "no csv in bundle");
    }
}
