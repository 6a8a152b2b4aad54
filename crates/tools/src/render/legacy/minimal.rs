//! A stand-in bundle renderer for the unit tests of the graph rules: the CSV and annotations of a
//! bundle directory, and a blob with only its `olm.package` property (so a test needs no CRDs).

use std::sync::Arc;

use super::{csv, discover};
use crate::declcfg::{self, read_documents, FileInput, Node, Source, Spanned};
use crate::render::bundle::BundleOutcome;
use crate::render::{Annotations, RenderedBundle};

fn first_doc(f: &FileInput) -> Option<Node> {
    read_documents(&f.path, &f.content).into_iter().next()?.ok()?.value
}

/// The annotations of `metadata/`.
pub fn annotations(root: &str, files: &[FileInput]) -> Option<Annotations> {
    let dir = discover::join(root, "metadata");
    files.iter().filter(|f| discover::parent(&f.path) == dir).find_map(|f| {
        let doc = first_doc(f)?;
        let a = doc.get("annotations")?;
        let s = |k: &str| a.get(k).and_then(Node::as_str).unwrap_or("").trim().to_string();
        let channels = s("operators.operatorframework.io.bundle.channels.v1");
        Some(Annotations {
            package: s("operators.operatorframework.io.bundle.package.v1"),
            channels: channels.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect(),
            default_channel: s("operators.operatorframework.io.bundle.channel.default.v1"),
        })
    })
}

/// Render the CSV in `dir` with `annotations`.
pub fn render(dir: &str, files: &[FileInput], annotations: Annotations) -> BundleOutcome {
    let csv_file = files
        .iter()
        .filter(|f| discover::parent(&f.path) == dir)
        .find_map(|f| first_doc(f).filter(csv::is_csv).map(|n| (f, n)));
    let Some((file, node)) = csv_file else { return BundleOutcome { bundle: None, diagnostics: Vec::new() } };
    let version = csv::version(&node).unwrap_or("").to_string();
    let value = serde_json::json!({"packageName": annotations.package, "version": version});
    let property = declcfg::Property {
        pos: node.pos,
        type_: Spanned::new("olm.package".into(), node.pos),
        value: Some(Node::from_json(&value).into()),
    };
    let source = Source { file: Arc::from(file.path.as_str()), pos: node.pos };
    let blob = declcfg::Bundle {
        source,
        package: Spanned::new(annotations.package.clone(), node.pos),
        name: Spanned::new(csv::name(&node).unwrap_or("").to_string(), node.pos),
        image: Spanned::default(),
        properties: Arc::from(vec![property]),
        related_images: Default::default(),
        object_count: 0,
        properties_fit: false,
    };
    BundleOutcome { bundle: Some(RenderedBundle { blob, csv: Some(node), annotations }), diagnostics: Vec::new() }
}

/// Render a bundle directory (`manifests/` + `metadata/`).
pub fn render_bundle_dir(root: &str, files: &[FileInput]) -> BundleOutcome {
    match annotations(root, files) {
        Some(a) => render(&discover::join(root, "manifests"), files, a),
        None => BundleOutcome { bundle: None, diagnostics: Vec::new() },
    }
}
