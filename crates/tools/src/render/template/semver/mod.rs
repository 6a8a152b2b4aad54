//! The semver template (`olm.semver`): bundles listed per maturity (candidate, fast, stable);
//! channels, edges and the default channel generated from their versions as opm does
//! (`alpha/template/semver/semver.go`). [`read`] decodes and checks the document, [`channels`]
//! generates and links the channels; this file looks the images up, checks each bundle's
//! package and version, and assembles the package, channel and bundle blobs.

mod channels;
mod read;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::basic::not_found;
use super::locate::{error, relocate};
use crate::declcfg::{self, Node, Pos, Source, Spanned};
use crate::diagnostic::{Code, Diagnostic};
use crate::gotext::quote as q;
use crate::property::{self, Property};
use crate::render::{BundleSource, Rendered, RenderedBundle};
use crate::version::Version;
use channels::{Channels, Listed};
use read::{BundleRef, Stream, Template};

/// Expand the template document `doc` of `file`.
pub(super) fn expand(file: &str, doc: Option<Node>, source: &BundleSource) -> Rendered {
    let template = match read::read(file, doc.as_ref()) {
        Ok(t) => t,
        Err(diagnostics) => return Rendered { diagnostics, ..Rendered::default() },
    };
    let mut out = Rendered::default();
    let rendered = render_images(file, &template, source, &mut out.diagnostics);
    if rendered.is_empty() {
        if out.diagnostics.is_empty() {
            let msg = "render: no bundles specified or no bundles could be rendered".to_string();
            out.diagnostics.push(error(file, Code::TemplateBundle, msg, template.start, ""));
        }
        return out;
    }
    let mut placed = Placed::default();
    let listed: [Vec<Listed>; 3] =
        std::array::from_fn(|a| placed.archetype(file, &template.archetypes[a], &rendered, &mut out.diagnostics));
    let kinds: Vec<Stream> = [(template.major, Stream::Major), (template.minor, Stream::Minor)]
        .iter()
        .filter(|k| k.0)
        .map(|k| k.1)
        .collect();
    let generated = channels::generate(&listed, &kinds, template.preference);
    let file_arc: Arc<str> = Arc::from(file);
    if let Some((name, pos)) = &placed.package {
        out.config.packages.push(package_blob(&file_arc, name, *pos, &generated, &rendered));
        out.config.channels = generated.channels.iter().map(|c| channel_blob(&file_arc, name, c)).collect();
    }
    out.config.bundles = rendered.values().map(|(r, b)| relocate(&b.blob, &file_arc, r.pos)).collect();
    crate::sort::sort_by_key(&mut out.config.bundles, |b| b.source.pos);
    out
}

/// Step 1: every distinct image, looked up; each one not found is reported where it is first
/// listed. Keyed by image, with the first reference.
fn render_images<'a>(
    file: &str,
    template: &'a Template,
    source: &'a BundleSource,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<&'a str, (&'a BundleRef, &'a RenderedBundle)> {
    let mut rendered = HashMap::new();
    let mut missing = std::collections::HashSet::new();
    for r in template.archetypes.iter().flatten() {
        if rendered.contains_key(r.image.as_str()) || missing.contains(r.image.as_str()) {
            continue;
        }
        match source.get(&r.image) {
            Some(b) => {
                rendered.insert(r.image.as_str(), (r, b));
            }
            None => {
                missing.insert(r.image.as_str());
                diags.push(not_found(file, &r.image, r.pos, &r.pointer));
            }
        }
    }
    rendered
}

/// Step 2's state: the package, fixed by the first bundle placed.
#[derive(Default)]
struct Placed {
    package: Option<(String, Pos)>,
}

impl Placed {
    /// The bundles of one archetype that opm can place, each problem reported at the template
    /// element (`render: unable to post-process bundle info: ...`).
    fn archetype(
        &mut self,
        file: &str,
        refs: &[BundleRef],
        rendered: &HashMap<&str, (&BundleRef, &RenderedBundle)>,
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<Listed> {
        let fail = |diags: &mut Vec<Diagnostic>, r: &BundleRef, m: String| {
            let msg = format!("render: unable to post-process bundle info: {m}");
            diags.push(error(file, Code::TemplateBundle, msg, r.pos, &r.pointer));
        };
        let mut listed: Vec<Listed> = Vec::new();
        for r in refs {
            let Some((_, b)) = rendered.get(r.image.as_str()) else { continue };
            let name = &b.blob.name.value;
            let (package, version) = match package_and_version(&b.blob) {
                Ok(pv) => pv,
                Err(m) => {
                    fail(diags, r, m);
                    continue;
                }
            };
            match &self.package {
                Some((p, _)) if *p != package => {
                    fail(diags, r, format!("bundle {} does not belong to this package: {}", q(&package), q(p)));
                    continue;
                }
                Some(_) => {}
                None => self.package = Some((package, r.pos)),
            }
            if listed.iter().any(|l| &l.name == name) {
                fail(diags, r, format!("duplicate bundle name {}", q(name)));
                continue;
            }
            listed.push(Listed { name: name.clone(), version, pos: r.pos });
        }
        let conflicts = build_metadata_conflicts(&listed);
        for (i, message) in conflicts.iter().rev() {
            let l = listed.remove(*i);
            if let Some(r) = refs.iter().find(|r| r.pos == l.pos) {
                fail(diags, r, message.clone());
            }
        }
        listed
    }
}

/// The bundle's package name and version from its single `olm.package` property, or opm's error.
fn package_and_version(b: &declcfg::Bundle) -> Result<(String, Version), String> {
    let name = &b.name.value;
    let props = property::parse_bundle(b);
    if let Some((i, Property::Invalid { type_, error })) =
        props.iter().find(|(_, p)| matches!(p, Property::Invalid { .. }))
    {
        return Err(format!(
            "parse properties for bundle {}: parse property[{i}] of type {}: {error}",
            q(name),
            q(type_)
        ));
    }
    let packages: Vec<&property::PackageProperty> = props
        .iter()
        .filter_map(|(_, p)| match p {
            Property::Package(pp) => Some(pp),
            _ => None,
        })
        .collect();
    let [pp] = packages.as_slice() else {
        return Err(format!("bundle {} has multiple {} properties, expected exactly 1", q(name), q("olm.package")));
    };
    match &pp.parsed_version {
        Ok(v) => Ok((pp.package_name.clone(), v.clone())),
        Err(e) => Err(format!("bundle {} has invalid version {}: {e}", q(name), q(&pp.version))),
    }
}

/// The bundles (by index) whose version equals an earlier one's once build metadata is
/// stripped, with opm's message.
fn build_metadata_conflicts(listed: &[Listed]) -> Vec<(usize, String)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, l) in listed.iter().enumerate() {
        let stripped = l.version.without_build().to_string();
        if seen.insert(stripped.clone(), i).is_some() {
            out.push((
                i,
                format!(
                    "encountered bundle versions which differ only by build metadata, which cannot be ordered: bundle version {} cannot be compared to {}",
                    q(&l.version.to_string()),
                    q(&stripped)
                ),
            ));
        }
    }
    out
}

/// The `olm.package` blob: named by the first bundle, with the default channel, and the
/// description and icon of the default channel's last entry's CSV.
fn package_blob(
    file: &Arc<str>,
    name: &str,
    pos: Pos,
    generated: &Channels,
    rendered: &HashMap<&str, (&BundleRef, &RenderedBundle)>,
) -> declcfg::Package {
    let default = generated.channels.iter().find(|c| c.name == generated.default_channel);
    let head = default.and_then(|c| c.entries.last());
    let csv = head
        .and_then(|e| rendered.values().find(|(_, b)| b.blob.name.value == e.name))
        .and_then(|(_, b)| b.csv.as_ref());
    let spec = csv.and_then(|c| c.get("spec"));
    let description = spec.and_then(|s| s.get("description")).and_then(Node::as_str).unwrap_or("").to_string();
    let icon = spec.and_then(|s| s.get("icon")).and_then(Node::as_array).and_then(|a| a.first()).and_then(|i| {
        let data = crate::gotext::decode_base64(i.get("base64data")?.as_str()?).ok()?;
        Some(declcfg::Icon {
            data: data.into(),
            media_type: i.get("mediatype").and_then(Node::as_str).unwrap_or("").to_string(),
        })
    });
    declcfg::Package {
        source: Source { file: file.clone(), pos },
        name: Spanned::new(name.to_string(), pos),
        default_channel: Spanned::new(generated.default_channel.clone(), default.map_or(pos, |c| c.pos)),
        icon,
        description,
        properties: Vec::new(),
    }
}

/// An `olm.channel` blob located at the bundle that created the channel.
fn channel_blob(file: &Arc<str>, package: &str, c: &channels::Generated) -> declcfg::Channel {
    let entries = c
        .entries
        .iter()
        .map(|e| declcfg::ChannelEntry {
            pos: e.pos,
            name: Spanned::new(e.name.clone(), e.pos),
            replaces: Spanned::new(e.replaces.clone(), e.pos),
            skips: e.skips.iter().map(|s| Spanned::new(s.clone(), e.pos)).collect(),
            skip_range: Spanned::new(String::new(), e.pos),
        })
        .collect();
    declcfg::Channel {
        source: Source { file: file.clone(), pos: c.pos },
        package: Spanned::new(package.to_string(), c.pos),
        name: Spanned::new(c.name.clone(), c.pos),
        entries,
        properties: Vec::new(),
    }
}
