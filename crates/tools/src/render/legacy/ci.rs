//! The community pipeline's per-operator `ci.yaml`: which update-graph mode builds the operator's
//! channels.
//!
//! Source: the community-operators docs (`docs/operator-ci-yaml.md`: "`replaces-mode`: every
//! next version defines which version will be replaced using `replaces` key in the CSV file";
//! "`semver-mode`: every version will be replaced by the next higher version according to
//! semantic versioning"; `replaces-mode` when the key is absent), and the pipeline's reading of it
//! (`operator-repo`'s `Operator.update_graph`: `config.get("updateGraph", "replaces-mode")`).

use crate::declcfg::{read_documents, Node};
use crate::diagnostic::{Code, Diagnostic, Location};

/// How an operator's upgrade graph is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpdateGraph {
    /// Edges from each CSV's `replaces`, `skips` and `olm.skipRange` (the default).
    #[default]
    Replaces,
    /// Each bundle of a channel replaces the next lower version of that channel.
    Semver,
}

/// The mode `ci.yaml` (the file `path`) sets; a file that does not parse or names another mode
/// is reported as a warning and read as `replaces-mode`.
pub fn update_graph(path: &str, bytes: &[u8]) -> (UpdateGraph, Vec<Diagnostic>) {
    let whole_file = || Location { file: path.to_string(), ..Location::default() };
    let mut docs = read_documents(path, bytes).into_iter();
    let value = match docs.next() {
        Some(Ok(doc)) => doc.value,
        Some(Err(e)) => {
            let message = format!("ci.yaml does not parse, read as replaces-mode: {}; fix its YAML", e.message);
            return (UpdateGraph::Replaces, vec![Diagnostic::warning(Code::LegacyCiYaml, message, e.location)]);
        }
        None => None,
    };
    let Some(mode) = value.as_ref().and_then(|v| v.get("updateGraph")) else {
        return (UpdateGraph::Replaces, Vec::new());
    };
    match mode.as_str() {
        Some("replaces-mode") => (UpdateGraph::Replaces, Vec::new()),
        Some("semver-mode") => (UpdateGraph::Semver, Vec::new()),
        _ => {
            let shown = mode.as_str().map(str::to_string).unwrap_or_else(|| Node::to_go_json(mode));
            let message =
                format!(
                "unknown updateGraph {shown:?}, read as replaces-mode; write `updateGraph: replaces-mode` or `updateGraph: semver-mode`"
            );
            let location = Location {
                line: mode.pos.line,
                column: mode.pos.column,
                pointer: "/updateGraph".into(),
                ..whole_file()
            };
            (UpdateGraph::Replaces, vec![Diagnostic::warning(Code::LegacyCiYaml, message, location)])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(text: &str) -> (UpdateGraph, usize) {
        let (m, d) = update_graph("op/ci.yaml", text.as_bytes());
        (m, d.len())
    }

    #[test]
    fn the_mode_is_read_from_update_graph() {
        assert_eq!(mode("updateGraph: semver-mode\nreviewers: [a]\n"), (UpdateGraph::Semver, 0));
        assert_eq!(mode("---\nupdateGraph: replaces-mode\n"), (UpdateGraph::Replaces, 0));
    }

    #[test]
    fn without_the_key_the_mode_is_replaces() {
        assert_eq!(mode("reviewers: [a]\n"), (UpdateGraph::Replaces, 0));
        assert_eq!(mode(""), (UpdateGraph::Replaces, 0));
    }

    #[test]
    fn an_unknown_mode_or_a_broken_file_is_a_warning() {
        let (m, d) = update_graph("op/ci.yaml", b"updateGraph: semver-skippatch\n");
        assert_eq!(m, UpdateGraph::Replaces);
        assert_eq!((d[0].code, d[0].location.line, d[0].is_error()), (Code::LegacyCiYaml, 1, false));
        assert_eq!(mode("updateGraph: [\n"), (UpdateGraph::Replaces, 1));
    }
}
