//! A package-manifest version folder (a CSV and its CRDs side by side, no `metadata/`) rendered
//! through the bundle-directory renderer: the folder is presented as `<dir>/manifests/` beside a
//! `<dir>/metadata/annotations.yaml` written from the annotations the package manifest implies,
//! and every path of the result is mapped back to the files the user has.

use std::sync::Arc;

use super::discover;
use crate::declcfg::FileInput;
use crate::render::bundle::BundleOutcome;
use crate::render::Annotations;

/// The annotations file a bundle built from `annotations` would carry.
fn annotations_yaml(a: &Annotations) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut out = String::from("annotations:\n");
    out += "  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n";
    out += "  operators.operatorframework.io.bundle.manifests.v1: manifests/\n";
    out += "  operators.operatorframework.io.bundle.metadata.v1: metadata/\n";
    out += &format!("  operators.operatorframework.io.bundle.package.v1: {}\n", q(&a.package));
    out += &format!("  operators.operatorframework.io.bundle.channels.v1: {}\n", q(&a.channels.join(",")));
    if !a.default_channel.is_empty() {
        out += &format!("  operators.operatorframework.io.bundle.channel.default.v1: {}\n", q(&a.default_channel));
    }
    out
}

/// Render the files directly in `dir` as a bundle with `annotations`, using `render_dir` (which
/// renders a `manifests/` + `metadata/` directory).
pub fn render(
    dir: &str,
    files: &[FileInput],
    annotations: &Annotations,
    render_dir: &dyn Fn(&str, &[FileInput]) -> BundleOutcome,
) -> BundleOutcome {
    let manifests = discover::join(dir, "manifests");
    let mut laid_out: Vec<FileInput> = files
        .iter()
        .filter(|f| discover::parent(&f.path) == dir.trim_end_matches('/'))
        .map(|f| FileInput {
            path: discover::join(&manifests, f.path.rsplit('/').next().unwrap_or(&f.path)),
            content: f.content.clone(),
        })
        .collect();
    laid_out.push(FileInput::new(discover::join(dir, "metadata/annotations.yaml"), annotations_yaml(annotations)));
    let mut outcome = render_dir(dir, &laid_out);
    let back = |path: &str| match path.strip_prefix(&manifests).and_then(|rest| rest.strip_prefix('/')) {
        Some(name) => discover::join(dir, name),
        None => path.to_string(),
    };
    for d in &mut outcome.diagnostics {
        d.location.file = back(&d.location.file);
        for r in &mut d.related {
            r.location.file = back(&r.location.file);
        }
    }
    if let Some(b) = &mut outcome.bundle {
        b.blob.source.file = Arc::from(back(&b.blob.source.file));
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::legacy::minimal;

    #[test]
    fn a_version_folder_renders_as_a_bundle_with_the_implied_annotations_and_its_own_paths() {
        let csv = "kind: ClusterServiceVersion\nmetadata:\n  name: db.v1\nspec:\n  version: 1.0.0\n";
        let files =
            vec![FileInput::new("pm/db/1.0/db.csv.yaml", csv), FileInput::new("pm/db/1.0/sub/other.yaml", "x: 1\n")];
        let a = Annotations {
            package: "db".into(),
            channels: vec!["alpha".into(), "beta".into()],
            default_channel: "beta".into(),
        };
        let seen = std::cell::RefCell::new(Vec::new());
        let out = render("pm/db/1.0", &files, &a, &|root, files| {
            seen.borrow_mut().extend(files.iter().map(|f| f.path.clone()));
            minimal::render_bundle_dir(root, files)
        });
        assert_eq!(*seen.borrow(), ["pm/db/1.0/manifests/db.csv.yaml", "pm/db/1.0/metadata/annotations.yaml"]);
        let b = out.bundle.unwrap();
        assert_eq!(&*b.blob.source.file, "pm/db/1.0/db.csv.yaml");
        assert_eq!(b.annotations, a);
    }

    #[test]
    fn annotation_values_are_quoted() {
        let a = Annotations { package: "a: b".into(), channels: vec!["x".into()], default_channel: String::new() };
        let text = annotations_yaml(&a);
        assert!(text.contains("package.v1: \"a: b\"\n"), "{text}");
        assert!(!text.contains("channel.default.v1"));
    }
}
