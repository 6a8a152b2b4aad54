//! opm's `--alpha-image-ref-template`: a Go `text/template` executed with the bundle's
//! `{{.Package}}` (the annotation package), `{{.Name}}` (the CSV name) and `{{.Version}}` (the
//! version of its first `olm.package` property). Those three fields are all the data holds, so
//! they are what is implemented, with Go's `{{-`/`-}}` whitespace trimming; anything else in an
//! action is reported as a clear error.

/// A compiled template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRefTemplate {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Package,
    Name,
    Version,
}

impl ImageRefTemplate {
    /// Compile `text`, or say what is not supported.
    pub fn compile(text: &str) -> Result<ImageRefTemplate, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find("{{") {
            let mut before = &rest[..open];
            let mut action = &rest[open + 2..];
            if let Some(a) = action.strip_prefix("- ") {
                before = before.trim_end();
                action = a;
            }
            let close = action.find("}}").ok_or_else(|| format!("template {text:?}: unclosed action"))?;
            let mut inner = &action[..close];
            rest = &action[close + 2..];
            if let Some(i) = inner.strip_suffix(" -") {
                inner = i;
                rest = rest.trim_start();
            }
            parts.push(Part::Text(before.to_string()));
            parts.push(field(inner.trim(), text)?);
        }
        parts.push(Part::Text(rest.to_string()));
        parts.retain(|p| *p != Part::Text(String::new()));
        Ok(ImageRefTemplate { parts })
    }

    /// The image reference for a bundle.
    pub fn execute(&self, package: &str, name: &str, version: &str) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.as_str(),
                Part::Package => package,
                Part::Name => name,
                Part::Version => version,
            })
            .collect()
    }
}

fn field(action: &str, text: &str) -> Result<Part, String> {
    match action {
        ".Package" => Ok(Part::Package),
        ".Name" => Ok(Part::Name),
        ".Version" => Ok(Part::Version),
        a if a.starts_with('.') && a[1..].chars().all(|c| c.is_alphanumeric() || c == '_') && a.len() > 1 => Err(format!(
            "template {text:?}: can't evaluate field {} in type action.imageReferenceTemplateData \
             (the fields are .Package, .Name and .Version)",
            &a[1..]
        )),
        a => Err(format!(
            "template {text:?}: unsupported action {{{{{a}}}}}: only {{{{.Package}}}}, {{{{.Name}}}} and {{{{.Version}}}} are supported"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_fields_are_substituted() {
        let t = ImageRefTemplate::compile("test.registry/{{.Package}}-operator/{{ .Package }}:v{{.Version}}").unwrap();
        assert_eq!(t.execute("foo", "foo.v0.2.0", "0.2.0"), "test.registry/foo-operator/foo:v0.2.0");
        let t = ImageRefTemplate::compile("r/{{.Name}}").unwrap();
        assert_eq!(t.execute("p", "n", "v"), "r/n");
        assert_eq!(ImageRefTemplate::compile("plain").unwrap().execute("p", "n", "v"), "plain");
    }

    #[test]
    fn trim_markers_trim_the_adjacent_text() {
        let t = ImageRefTemplate::compile("r/x: {{- .Version -}} :y").unwrap();
        assert_eq!(t.execute("p", "n", "1"), "r/x:1:y");
    }

    #[test]
    fn anything_else_is_a_clear_error() {
        assert!(ImageRefTemplate::compile("r/{{.Package").unwrap_err().contains("unclosed action"));
        let e = ImageRefTemplate::compile("r/{{.Channel}}").unwrap_err();
        assert!(e.contains("can't evaluate field Channel"), "{e}");
        let e = ImageRefTemplate::compile("r/{{printf \"%s\" .Name}}").unwrap_err();
        assert!(e.contains("unsupported action"), "{e}");
    }
}
