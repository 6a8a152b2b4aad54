//! Any YAML or JSON file read as plain value trees, one per document, the way Kubernetes'
//! `YAMLOrJSONDecoder` reads manifests: a file whose first non-space byte is `{` is a JSON
//! stream, anything else YAML documents split at `---` lines. Unlike the catalog loader, nothing
//! here interprets the values (no `schema`, no blobs): bundle manifests, annotations and
//! templates are read through this.

use super::json::JsonReader;
use super::value::{Node, Pos};
use super::yaml;
use crate::diagnostic::{Code, Diagnostic, Location};

/// One document of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The line the document starts at (1-based).
    pub line: u32,
    /// Its value; `None` for a document with no value (blank, comments only, a lone `---`).
    pub value: Option<Node>,
}

/// Every document of `bytes` (the file `path`), in order. Reading stops at the first document
/// that does not parse, which is reported (located in `path`) as the last item.
pub fn read_documents(path: &str, bytes: &[u8]) -> Vec<Result<Document, Diagnostic>> {
    let text = super::load::text_of(bytes);
    let error = |code: Code, message: String, pos: Pos| {
        let location = Location { file: path.to_string(), line: pos.line, column: pos.column, pointer: String::new() };
        Diagnostic::error(code, message, location)
    };
    let head = &bytes[..bytes.len().min(4096)];
    let mut out = Vec::new();
    if head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        let mut reader = JsonReader::new(&text, 1);
        while !reader.at_end() {
            match reader.next_value() {
                Ok(node) => out.push(Ok(Document { line: node.pos.line, value: Some(node) })),
                Err(e) => {
                    out.push(Err(error(Code::JsonSyntax, e.message, e.pos)));
                    break;
                }
            }
        }
        return out;
    }
    let docs = match yaml::split_documents(&text, 1) {
        Ok(d) => d,
        Err(e) => return vec![Err(error(Code::YamlSyntax, e.message, e.pos))],
    };
    for doc in &docs {
        match yaml::parse(doc) {
            Ok(value) => out.push(Ok(Document { line: doc.line(), value })),
            Err(e) => {
                out.push(Err(error(Code::YamlSyntax, e.message, e.pos)));
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<Result<Option<String>, String>> {
        read_documents("f.yaml", text.as_bytes())
            .into_iter()
            .map(|d| d.map(|d| d.value.map(|n| n.to_go_json())).map_err(|e| e.message))
            .collect()
    }

    #[test]
    fn yaml_documents_are_split_at_separator_lines() {
        assert_eq!(values("a: 1\n---\nb: [x]\n"), [Ok(Some(r#"{"a":1}"#.into())), Ok(Some(r#"{"b":["x"]}"#.into()))]);
        assert_eq!(values("---\n# only a comment\n"), [Ok(None)]);
    }

    #[test]
    fn a_json_file_is_a_stream_of_values() {
        assert_eq!(values("{\"a\": 1}\n{\"b\": 2}"), [Ok(Some(r#"{"a":1}"#.into())), Ok(Some(r#"{"b":2}"#.into()))]);
    }

    #[test]
    fn reading_stops_at_the_first_broken_document_which_is_located() {
        let docs = read_documents("m/x.yaml", b"a: 1\n---\nb: [\n---\nc: 3\n");
        assert_eq!(docs.len(), 2);
        let err = docs[1].as_ref().unwrap_err();
        assert_eq!(err.code, Code::YamlSyntax);
        assert_eq!(err.location.file, "m/x.yaml");
        assert!(err.location.line >= 3, "{err:?}");
    }
}
