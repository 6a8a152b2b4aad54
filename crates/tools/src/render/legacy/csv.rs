//! What the legacy formats read from a ClusterServiceVersion beyond what `opm render` keeps: its
//! upgrade edges (`spec.replaces`, `spec.skips`, the `olm.skipRange` annotation) and its icon,
//! each with the position it was written at.

use crate::declcfg::{Node, Pos, Spanned};

/// The upgrade edges a CSV declares.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CsvEdges {
    /// `spec.replaces` (empty when unset).
    pub replaces: Spanned<String>,
    /// `spec.skips`, in order (non-string items are ignored).
    pub skips: Vec<Spanned<String>>,
    /// `metadata.annotations["olm.skipRange"]` (empty when unset).
    pub skip_range: Spanned<String>,
}

/// The CSV's `metadata.name`.
pub fn name(csv: &Node) -> Option<&str> {
    csv.get("metadata")?.get("name")?.as_str()
}

/// The CSV's `spec.version`, as written.
pub fn version(csv: &Node) -> Option<&str> {
    csv.get("spec")?.get("version")?.as_str()
}

/// Whether a manifest is a ClusterServiceVersion.
pub fn is_csv(manifest: &Node) -> bool {
    manifest.get("kind").and_then(Node::as_str) == Some("ClusterServiceVersion")
}

/// The edges of `csv`.
pub fn edges(csv: &Node) -> CsvEdges {
    let spec = csv.get("spec");
    let text = |n: Option<&Node>| n.and_then(|n| n.as_str().map(|s| Spanned::new(s.to_string(), n.pos)));
    let replaces = text(spec.and_then(|s| s.get("replaces"))).unwrap_or_default();
    let skips = spec
        .and_then(|s| s.get("skips"))
        .and_then(Node::as_array)
        .map(|items| items.iter().filter_map(|n| text(Some(n))).collect())
        .unwrap_or_default();
    let annotation = csv.get("metadata").and_then(|m| m.get("annotations")).and_then(|a| a.get("olm.skipRange"));
    let skip_range = text(annotation).unwrap_or_default();
    CsvEdges { replaces, skips, skip_range }
}

/// `spec.icon[0]`: its `base64data` and `mediatype`, and where the icon starts.
pub fn icon(csv: &Node) -> Option<(String, String, Pos)> {
    let first = csv.get("spec")?.get("icon")?.as_array()?.first()?;
    let field = |k: &str| first.get(k).and_then(Node::as_str).unwrap_or("").to_string();
    Some((field("base64data"), field("mediatype"), first.pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    fn csv(text: &str) -> Node {
        read_documents("m/csv.yaml", text.as_bytes()).remove(0).unwrap().value.unwrap()
    }

    #[test]
    fn edges_come_from_replaces_skips_and_the_skip_range_annotation() {
        let c = csv(
            "kind: ClusterServiceVersion\nmetadata:\n  name: a.v2\n  annotations:\n    olm.skipRange: '>=1.0.0 <2.0.0'\nspec:\n  version: 2.0.0\n  replaces: a.v1\n  skips: [a.v1.5, 3]\n",
        );
        assert!(is_csv(&c));
        assert_eq!((name(&c), version(&c)), (Some("a.v2"), Some("2.0.0")));
        let e = edges(&c);
        assert_eq!(e.replaces.value, "a.v1");
        assert_eq!(e.replaces.pos, Pos::new(8, 13));
        assert_eq!(e.skips.iter().map(|s| s.value.as_str()).collect::<Vec<_>>(), ["a.v1.5"]);
        assert_eq!(e.skip_range.value, ">=1.0.0 <2.0.0");
    }

    #[test]
    fn a_csv_without_edges_has_empty_ones() {
        assert_eq!(edges(&csv("kind: ClusterServiceVersion\nspec: {}\n")), CsvEdges::default());
    }

    #[test]
    fn the_icon_is_the_first_of_spec_icon() {
        let c = csv("spec:\n  icon:\n  - base64data: QUJD\n    mediatype: image/png\n  - base64data: x\n");
        let (data, media, _) = icon(&c).unwrap();
        assert_eq!((data.as_str(), media.as_str()), ("QUJD", "image/png"));
        assert!(icon(&csv("spec: {icon: []}\n")).is_none());
    }
}
