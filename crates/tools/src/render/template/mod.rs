//! Catalog templates expanded offline, as `opm alpha render-template` expands them: the
//! template's kind is detected from the `schema` of its first document (`detect`), then the
//! `basic`, `semver` or `substitutes` rules turn it into FBC blobs, looking every bundle image up
//! in a [`BundleSource`] instead of pulling it from a registry.
//!
//! Every problem is a [`Diagnostic`](crate::Diagnostic) located in the template's own lines (file, line, column,
//! JSON pointer), with opm's wording for opm's errors. Blobs the template writes keep their
//! template positions; a bundle brought in for an image is located at the template element
//! that names the image, so later findings about it point at the line the author wrote.

mod basic;
mod detect;
mod locate;
mod semver;
mod substitutes;

use crate::declcfg::FileInput;
use crate::render::{BundleSource, Rendered};

/// The three kinds of template opm knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TemplateKind {
    /// `olm.template.basic`: FBC blobs with bundles given by image reference.
    Basic,
    /// `olm.semver`: bundles listed per maturity; channels and edges generated from versions.
    Semver,
    /// `olm.template.substitutes`: FBC blobs plus bundles that take the place of others.
    Substitutes,
}

impl TemplateKind {
    /// Every kind, in the order opm lists them.
    pub const ALL: [TemplateKind; 3] = [TemplateKind::Basic, TemplateKind::Semver, TemplateKind::Substitutes];

    /// The `schema` that selects this kind.
    pub fn schema(self) -> &'static str {
        match self {
            TemplateKind::Basic => "olm.template.basic",
            TemplateKind::Semver => "olm.semver",
            TemplateKind::Substitutes => "olm.template.substitutes",
        }
    }

    /// The kind's name on opm's command line (`basic`, `semver`, `substitutes`).
    pub fn name(self) -> &'static str {
        match self {
            TemplateKind::Basic => "basic",
            TemplateKind::Semver => "semver",
            TemplateKind::Substitutes => "substitutes",
        }
    }

    /// The kind a `schema` selects.
    pub fn from_schema(schema: &str) -> Option<TemplateKind> {
        TemplateKind::ALL.into_iter().find(|k| k.schema() == schema)
    }

    /// The kind a command-line name (`basic`) selects.
    pub fn from_name(name: &str) -> Option<TemplateKind> {
        TemplateKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Expand a template file (path + bytes) against the bundles of `source`, its kind detected from
/// the `schema` of its first document as opm does.
pub fn expand_template(file: &FileInput, source: &BundleSource) -> Rendered {
    match detect::detect(file) {
        Ok(kind) => expand_template_as(kind, file, source),
        Err(d) => Rendered { diagnostics: vec![d], ..Rendered::default() },
    }
}

/// Expand a template file as the given kind, whatever its `schema` says (opm's
/// `render-template TYPE FILE`); each kind then checks the schema itself.
pub fn expand_template_as(kind: TemplateKind, file: &FileInput, source: &BundleSource) -> Rendered {
    let doc = match detect::first_document(file) {
        Ok(doc) => doc,
        Err(d) => return Rendered { diagnostics: vec![d], ..Rendered::default() },
    };
    let mut out = match kind {
        TemplateKind::Basic => basic::expand(&file.path, doc, source),
        TemplateKind::Semver => semver::expand(&file.path, doc, source),
        TemplateKind::Substitutes => substitutes::expand(&file.path, doc, source),
    };
    crate::diagnostic::sort_diagnostics(&mut out.diagnostics);
    out
}

/// The kind of template `file` is, by the `schema` of its first document; `None` when it is not
/// a template (a catalog file, say). Files that name no template schema are not parsed.
pub fn template_kind(file: &FileInput) -> Option<TemplateKind> {
    let names = TemplateKind::ALL.map(TemplateKind::schema);
    let mentions = |needle: &str| file.content.windows(needle.len()).any(|w| w == needle.as_bytes());
    if !names.iter().any(|n| mentions(n)) {
        return None;
    }
    detect::detect(file).ok()
}
