//! Operations on a semver template (`olm.semver`): the template lists bundle images per maturity
//! (`Candidate`, `Fast`, `Stable`) and generates the channels, their edges and the default
//! channel from the versions. So adding a bundle adds its image to the list of each channel's
//! maturity, promoting adds an image to another maturity's list, removing takes the image out of
//! every list; whatever the template generates (edges, channel names, the default channel,
//! and deprecations, which its schema has no place for) is refused with the reason.

use crate::declcfg::{Span, SpanKind, SpanMember};
use crate::model::{Model, Package};

use super::doc::Doc;
use super::emit::Out;
use super::ops::image_of;
use super::text::TextEdit;
use super::{EdgePolicy, EditError, NewBundle, Operation};

/// The maturities, as the template's keys name them (matched case-insensitively).
const ARCHETYPES: [&str; 3] = ["candidate", "fast", "stable"];

/// The maturity list a channel name means: the maturity itself (`stable`) or a channel the
/// template generates from it (`stable-v1`, `stable-v1.2`).
pub fn archetype_of(channel: &str) -> Option<&'static str> {
    let lower = channel.to_ascii_lowercase();
    ARCHETYPES.into_iter().find(|a| {
        lower == *a || lower.strip_prefix(a).and_then(|r| r.strip_prefix("-v")).is_some_and(|v| !v.is_empty())
    })
}

/// The edits of `op` on the semver template `doc`, whose expansion is `model`; a bundle the
/// operation brings in is pushed onto `new_bundles` (the template names only its image).
pub fn edits(doc: &Doc, model: &Model, op: &Operation, new_bundles: &mut Vec<Out>) -> Result<Vec<TextEdit>, EditError> {
    let refuse = |reason: &str| Err(EditError::refused(op, reason));
    let name = op.package();
    let p = model.package(name).ok_or_else(|| EditError::NoPackage { package: name.into() })?;
    let t = Template::of(doc)?;
    match op {
        Operation::AddBundle { bundle, channels, edge, .. } => {
            check_policy(op, edge)?;
            if channels.is_empty() {
                return Err(EditError::Invalid { op: op.name().into(), reason: "name at least one channel".into() });
            }
            let (bundle_name, image, blob) = new_bundle(op, p, bundle)?;
            if p.bundle(&bundle_name).is_some() {
                return Err(EditError::refused(
                    op,
                    format!("bundle {bundle_name:?} already exists; promote it instead"),
                ));
            }
            new_bundles.extend(blob);
            let mut out = Vec::new();
            for a in archetypes(op, channels)? {
                out.push(t.add(doc, a, &image));
            }
            Ok(out)
        }
        Operation::Promote { bundle, channel, edge, .. } => {
            check_policy(op, edge)?;
            let image = image_in(p, bundle)?;
            let a = archetypes(op, std::slice::from_ref(channel))?[0];
            if t.listed(doc, a).iter().any(|(_, i)| *i == image) {
                return Err(EditError::refused(op, format!("{bundle:?} is already listed under {}", t.key(a))));
            }
            Ok(vec![t.add(doc, a, &image)])
        }
        Operation::RemoveBundle { bundle, .. } => {
            let image = image_in(p, bundle)?;
            for c in p.channels.iter().filter(|c| c.entry(bundle).is_some()) {
                if c.head().is_ok_and(|h| h.name.value == *bundle) && c.entries.len() > 1 {
                    return Err(EditError::refused(
                        op,
                        format!("{bundle:?} is the head of channel {:?}; add or promote a newer bundle first", c.name),
                    ));
                }
            }
            let mut out = Vec::new();
            for a in ARCHETYPES {
                let listed = t.listed(doc, a);
                let Some(owner) = t.bundles(doc, a) else { continue };
                for (i, _) in listed.iter().filter(|(_, im)| *im == image) {
                    out.push(doc.remove_item(owner, *i));
                }
            }
            Ok(out)
        }
        Operation::SetEdges { .. } => refuse(
            "a semver template generates every edge from the versions (replaces within a minor, skips across); \
             edit the catalog it renders to, or convert the package to a basic template",
        ),
        Operation::Deprecate { .. } | Operation::Undeprecate { .. } => refuse(
            "the semver template's schema has no place for deprecations (opm rejects unknown keys); \
             deprecate in a basic template or in the rendered catalog",
        ),
        Operation::SetDefaultChannel { .. } => refuse(
            "a semver template chooses the default channel itself (the highest maturity, \
             DefaultChannelTypePreference for major or minor channels)",
        ),
        Operation::CreateChannel { .. } | Operation::RenameChannel { .. } | Operation::RemoveChannel { .. } => refuse(
            "a semver template generates its channels from the maturities and versions; \
             add or promote bundles into Candidate, Fast or Stable instead",
        ),
    }
}

/// The template generates the edges: only the default policy or `semver` apply.
fn check_policy(op: &Operation, edge: &EdgePolicy) -> Result<(), EditError> {
    match edge {
        EdgePolicy::Replaces | EdgePolicy::Semver => Ok(()),
        _ => Err(EditError::refused(op, "a semver template generates the edges; only the semver edge policy applies")),
    }
}

/// The maturity of each named channel (each once, in order); a name that is none is refused.
fn archetypes(op: &Operation, channels: &[String]) -> Result<Vec<&'static str>, EditError> {
    let mut out = Vec::new();
    for c in channels {
        let a = archetype_of(c).ok_or_else(|| {
            EditError::refused(
                op,
                format!(
                    "a semver template has only Candidate, Fast and Stable (and the channels it generates from them, \
                     such as stable-v1); {c:?} is none of them"
                ),
            )
        })?;
        if !out.contains(&a) {
            out.push(a);
        }
    }
    Ok(out)
}

/// The image an existing bundle is listed by.
fn image_in(p: &Package, bundle: &str) -> Result<String, EditError> {
    let b = p.bundle(bundle).ok_or_else(|| EditError::NoBundle {
        package: p.name.clone(),
        bundle: bundle.into(),
        channel: None,
    })?;
    Ok(b.image.value.clone())
}

/// A new bundle's name, image and (for the expansion) its blob.
fn new_bundle(op: &Operation, p: &Package, nb: &NewBundle) -> Result<(String, String, Option<Out>), EditError> {
    let invalid = |reason: &str| EditError::Invalid { op: op.name().into(), reason: reason.into() };
    let (name, blob) = super::ops::bundle_blob_of(op, p, nb)?;
    let image = image_of(&blob).ok_or_else(|| invalid("a template names its bundles by image; the bundle has none"))?;
    Ok((name, image, Some(blob)))
}

/// Where the template's lists are, and how its keys are spelled.
struct Template {
    /// `Schema` rather than `schema`: new keys are capitalised too.
    capitalised: bool,
}

fn member_ci<'s>(map: &'s Span, key: &str) -> Option<&'s SpanMember> {
    map.members().iter().rev().find(|m| m.key.eq_ignore_ascii_case(key))
}

/// A scalar's text without its quotes (image references need no escapes but a quote's).
fn unquote(text: &str) -> String {
    if text.starts_with('"') {
        serde_json::from_str(text).unwrap_or_else(|_| text.trim_matches('"').to_string())
    } else if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        inner.replace("''", "'")
    } else {
        text.trim().to_string()
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

impl Template {
    fn of(doc: &Doc) -> Result<Template, EditError> {
        let root = doc.roots.first().ok_or_else(|| EditError::Unreadable {
            file: doc.file.clone(),
            line: 1,
            reason: "the template is empty".into(),
        })?;
        let capitalised = member_ci(root, "schema").is_some_and(|m| m.key.starts_with('S'));
        Ok(Template { capitalised })
    }

    fn key(&self, k: &str) -> String {
        if self.capitalised {
            capitalise(k)
        } else {
            k.to_string()
        }
    }

    /// The `Bundles` member of a maturity, when it is a list.
    fn bundles<'d>(&self, doc: &'d Doc, archetype: &str) -> Option<&'d SpanMember> {
        let a = member_ci(&doc.roots[0], archetype)?;
        member_ci(&a.value, "bundles").filter(|m| matches!(m.value.kind, SpanKind::Seq(_)))
    }

    /// The images listed under a maturity, with their index.
    fn listed(&self, doc: &Doc, archetype: &str) -> Vec<(usize, String)> {
        let Some(owner) = self.bundles(doc, archetype) else { return Vec::new() };
        let image = |item: &Span| {
            let m = member_ci(item, "image")?;
            Some(unquote(&doc.text[m.value.start..m.value.end]))
        };
        owner.value.items().iter().enumerate().filter_map(|(i, s)| Some((i, image(s)?))).collect()
    }

    /// Append `image` to a maturity's list, creating the list or the maturity when missing.
    fn add(&self, doc: &Doc, archetype: &str, image: &str) -> TextEdit {
        let root = &doc.roots[0];
        let Some(a) = member_ci(root, archetype) else {
            let list = Out::Map(vec![(self.key("bundles"), Out::Seq(vec![self.item(doc, None, image)]))]);
            return doc.set_member(root, &self.key(archetype), &list);
        };
        match member_ci(&a.value, "bundles") {
            Some(owner) if matches!(owner.value.kind, SpanKind::Seq(_)) => {
                doc.push_item(owner, &self.item(doc, Some(owner), image))
            }
            Some(owner) => doc.set_member(&a.value, &owner.key, &Out::Seq(vec![self.item(doc, None, image)])),
            None => doc.set_member(&a.value, &self.key("bundles"), &Out::Seq(vec![self.item(doc, None, image)])),
        }
    }

    /// A list item naming `image`, its key spelled as the list's other items spell it.
    fn item(&self, _doc: &Doc, owner: Option<&SpanMember>, image: &str) -> Out {
        let key = owner
            .and_then(|o| o.value.items().iter().find_map(|i| member_ci(i, "image")))
            .map_or_else(|| self.key("image"), |m| m.key.clone());
        Out::Map(vec![(key, Out::s(image))])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_name_means_the_maturity_it_is_generated_from() {
        assert_eq!(archetype_of("stable"), Some("stable"));
        assert_eq!(archetype_of("Fast"), Some("fast"));
        assert_eq!(archetype_of("candidate-v1.2"), Some("candidate"));
        assert_eq!(archetype_of("stable-v2"), Some("stable"));
        assert_eq!(archetype_of("stable-"), None);
        assert_eq!(archetype_of("alpha"), None);
        assert_eq!(archetype_of("stablev1"), None);
    }
}
