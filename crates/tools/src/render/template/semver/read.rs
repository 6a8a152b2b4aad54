//! Reading an `olm.semver` template as opm's `readFile` does: `sigs.k8s.io/yaml`'s strict
//! decoding into `SemverTemplateData` (keys bound case-insensitively, an unknown key or a value
//! of the wrong JSON type is an error), then the schema and channel-kind checks.

use super::super::locate::{child, error, type_error};
use crate::declcfg::value::fold_eq;
use crate::declcfg::{Member, Node, Pos, Value};
use crate::diagnostic::{Code, Diagnostic};

/// The maturity archetypes, in ascending priority.
pub(super) const ARCHETYPES: [&str; 3] = ["candidate", "fast", "stable"];

/// One `image` listed under an archetype, and where.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BundleRef {
    /// The image reference.
    pub image: String,
    /// Where the image value (or its entry) is.
    pub pos: Pos,
    /// Its JSON pointer, keys as written.
    pub pointer: String,
}

/// A kind of generated channel; the order is opm's preference when neither kind is preferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Stream {
    /// No kind (the initial default-channel mark).
    None,
    /// `<archetype>-v<major>`.
    Major,
    /// `<archetype>-v<major>.<minor>`.
    Minor,
}

/// A decoded and checked template.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Template {
    /// Whether major channels are generated.
    pub major: bool,
    /// Whether minor channels are generated (also when neither is asked for).
    pub minor: bool,
    /// The kind the default channel prefers.
    pub preference: Stream,
    /// The images of candidate, fast and stable.
    pub archetypes: [Vec<BundleRef>; 3],
    /// Where the document starts.
    pub start: Pos,
}

const TOP: &str = "SemverTemplateData";

/// Decode and check the template document `doc` of `file`.
pub(super) fn read(file: &str, doc: Option<&Node>) -> Result<Template, Vec<Diagnostic>> {
    let start = doc.map_or(Pos::new(1, 1), |d| d.pos);
    let mut d = Decoded {
        template: Template {
            major: false,
            minor: false,
            preference: Stream::None,
            archetypes: Default::default(),
            start,
        },
        ..Decoded::default()
    };
    match doc.map(|n| &n.value) {
        None | Some(Value::Null) => {}
        Some(Value::Object(members)) => d.top(members),
        Some(_) => {
            let kind = doc.map_or("null", Node::kind_name);
            d.fail(format!("json: cannot unmarshal {kind} into Go value of type semver.{TOP}"), start, "");
        }
    }
    let wrap = |m: String| format!("render: unable to read file: {m}");
    if !d.errors.is_empty() {
        let decode = |(m, pos, ptr): (String, Pos, String)| {
            error(
                file,
                Code::TemplateInvalid,
                wrap(format!("error unmarshaling JSON: while decoding JSON: {m}")),
                pos,
                &ptr,
            )
        };
        return Err(d.errors.into_iter().map(decode).collect());
    }
    if d.schema != "olm.semver" {
        let msg = wrap("readFile: input file has unknown schema, should be \"olm.semver\"".into());
        return Err(vec![error(file, Code::TemplateSchema, msg, d.schema_at.0, &d.schema_at.1)]);
    }
    d.settle_kinds()
        .map_err(|m| vec![error(file, Code::TemplateInvalid, wrap(m), d.preference_at.0, &d.preference_at.1)])?;
    Ok(d.template)
}

#[derive(Default)]
struct Decoded {
    template: Template,
    schema: String,
    schema_at: (Pos, String),
    preference: String,
    preference_at: (Pos, String),
    errors: Vec<(String, Pos, String)>,
}

impl Default for Template {
    fn default() -> Template {
        Template {
            major: false,
            minor: false,
            preference: Stream::None,
            archetypes: Default::default(),
            start: Pos::new(1, 1),
        }
    }
}

impl Decoded {
    fn fail(&mut self, message: String, pos: Pos, pointer: &str) {
        self.errors.push((message, pos, pointer.to_string()));
    }

    /// The top-level keys, in the sorted order of the JSON `sigs.k8s.io/yaml` hands to Go.
    fn top(&mut self, members: &[Member]) {
        let mut sorted: Vec<&Member> = members.iter().collect();
        crate::sort::sort_by(&mut sorted, |a, b| a.key.cmp(&b.key));
        for m in sorted {
            let pointer = child("", &m.key);
            let v = &m.value;
            if v.value == Value::Null && known(&m.key) {
                continue;
            }
            if fold_eq(&m.key, "schema") {
                self.schema_at = (v.pos, pointer.clone());
                if let Some(s) = self.string(v, "schema", &pointer) {
                    self.schema = s;
                }
            } else if fold_eq(&m.key, "generateMajorChannels") {
                if let Some(b) = self.boolean(v, "generateMajorChannels", &pointer) {
                    self.template.major = b;
                }
            } else if fold_eq(&m.key, "generateMinorChannels") {
                if let Some(b) = self.boolean(v, "generateMinorChannels", &pointer) {
                    self.template.minor = b;
                }
            } else if fold_eq(&m.key, "defaultChannelTypePreference") {
                self.preference_at = (v.pos, pointer.clone());
                match &v.value {
                    Value::String(s) => self.preference = s.to_string(),
                    _ => self.fail(
                        type_error(v, &format!("{TOP}.defaultChannelTypePreference"), "semver.StreamType"),
                        v.pos,
                        &pointer,
                    ),
                }
            } else if let Some(i) = ARCHETYPES.iter().position(|a| fold_eq(&m.key, a)) {
                self.template.archetypes[i] = self.archetype(v, ARCHETYPES[i], &pointer);
            } else {
                self.fail(format!("json: unknown field {}", crate::gotext::quote(&m.key)), m.key_pos, &pointer);
            }
        }
    }

    fn string(&mut self, v: &Node, field: &str, pointer: &str) -> Option<String> {
        match &v.value {
            Value::String(s) => Some(s.to_string()),
            _ => {
                self.fail(type_error(v, &format!("{TOP}.{field}"), "string"), v.pos, pointer);
                None
            }
        }
    }

    fn boolean(&mut self, v: &Node, field: &str, pointer: &str) -> Option<bool> {
        match &v.value {
            Value::Bool(b) => Some(*b),
            _ => {
                self.fail(type_error(v, &format!("{TOP}.{field}"), "bool"), v.pos, pointer);
                None
            }
        }
    }

    /// `{bundles: [{image: ...}, ...]}`.
    fn archetype(&mut self, v: &Node, name: &str, pointer: &str) -> Vec<BundleRef> {
        let mut refs = Vec::new();
        let Some(members) = v.as_object() else {
            self.fail(type_error(v, &format!("{TOP}.{name}"), "semver.channelBundles"), v.pos, pointer);
            return refs;
        };
        for m in members {
            let ptr = child(pointer, &m.key);
            if !fold_eq(&m.key, "bundles") {
                self.fail(format!("json: unknown field {}", crate::gotext::quote(&m.key)), m.key_pos, &ptr);
                continue;
            }
            match &m.value.value {
                Value::Null => refs.clear(),
                Value::Array(items) => {
                    refs.clear();
                    for (i, item) in items.iter().enumerate() {
                        refs.extend(self.bundle(item, name, &child(&ptr, &i.to_string())));
                    }
                }
                _ => self.fail(
                    type_error(&m.value, &format!("{TOP}.{name}.bundles"), "[]semver.bundleEntry"),
                    m.value.pos,
                    &ptr,
                ),
            }
        }
        refs
    }

    /// `{image: ...}`.
    fn bundle(&mut self, item: &Node, archetype: &str, pointer: &str) -> Option<BundleRef> {
        let field = format!("{TOP}.{archetype}.bundles");
        let mut found = BundleRef { image: String::new(), pos: item.pos, pointer: pointer.to_string() };
        match &item.value {
            Value::Null => return Some(found),
            Value::Object(members) => {
                for m in members {
                    let ptr = child(pointer, &m.key);
                    if !fold_eq(&m.key, "image") {
                        self.fail(format!("json: unknown field {}", crate::gotext::quote(&m.key)), m.key_pos, &ptr);
                        continue;
                    }
                    match &m.value.value {
                        Value::Null => {}
                        Value::String(s) => found = BundleRef { image: s.to_string(), pos: m.value.pos, pointer: ptr },
                        _ => self.fail(type_error(&m.value, &format!("{field}.image"), "string"), m.value.pos, &ptr),
                    }
                }
            }
            _ => {
                self.fail(type_error(item, &field, "semver.bundleEntry"), item.pos, pointer);
                return None;
            }
        }
        Some(found)
    }

    /// opm's defaults and checks of the generated kinds and the default-channel preference.
    fn settle_kinds(&mut self) -> Result<(), String> {
        let t = &mut self.template;
        if !t.major && !t.minor {
            t.minor = true;
        }
        let mismatch = |kind: &str, what: &str| {
            format!("schema attribute mismatch: DefaultChannelTypePreference set to '{kind}' doesn't make sense if not generating {what}-version channels")
        };
        t.preference = match self.preference.as_str() {
            "" if t.minor => Stream::Minor,
            "" => Stream::Major,
            "minor" if !t.minor => return Err(mismatch("minor", "minor")),
            "minor" => Stream::Minor,
            "major" if !t.major => return Err(mismatch("major", "major")),
            "major" => Stream::Major,
            other => {
                return Err(format!(
                    "unknown DefaultChannelTypePreference: {}\nValid values are 'major' or 'minor'",
                    crate::gotext::quote(other)
                ))
            }
        };
        Ok(())
    }
}

/// Whether `key` binds to a field of the template (a null for it leaves the field unset).
fn known(key: &str) -> bool {
    ["schema", "generateMajorChannels", "generateMinorChannels", "defaultChannelTypePreference"]
        .iter()
        .chain(ARCHETYPES.iter())
        .any(|f| fold_eq(key, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    fn read_text(text: &str) -> Result<Template, Vec<String>> {
        let doc = read_documents("t.yaml", text.as_bytes()).remove(0).unwrap().value;
        read("t.yaml", doc.as_ref()).map_err(|ds| ds.into_iter().map(|d| d.message).collect())
    }

    #[test]
    fn keys_bind_case_insensitively_and_minor_channels_are_the_default() {
        let t = read_text("Schema: olm.semver\nStable:\n  Bundles:\n  - Image: a\n  - image: b\n").unwrap();
        assert!(t.minor && !t.major);
        assert_eq!(t.preference, Stream::Minor);
        let images: Vec<&str> = t.archetypes[2].iter().map(|b| b.image.as_str()).collect();
        assert_eq!(images, ["a", "b"]);
        assert_eq!(t.archetypes[2][1].pointer, "/Stable/Bundles/1/image");
        let t = read_text("schema: olm.semver\ngenerateMajorChannels: true\n").unwrap();
        assert_eq!((t.major, t.minor, t.preference), (true, false, Stream::Major));
    }

    #[test]
    fn decoding_is_strict() {
        let e = read_text("schema: olm.semver\ninvalid: {}\n").unwrap_err();
        assert_eq!(e, ["render: unable to read file: error unmarshaling JSON: while decoding JSON: json: unknown field \"invalid\""]);
        let e = read_text("schema: olm.semver\ngenerateMajorChannels: yes please\n").unwrap_err();
        assert!(e[0].ends_with(
            "json: cannot unmarshal string into Go struct field SemverTemplateData.generateMajorChannels of type bool"
        ));
        let e = read_text("schema: olm.semver\nstable:\n  bundles:\n  - img: x\n").unwrap_err();
        assert!(e[0].ends_with("json: unknown field \"img\""));
    }

    #[test]
    fn schema_and_preference_are_checked() {
        let e = read_text("schema: olm.template.basic\n").unwrap_err();
        assert_eq!(
            e,
            ["render: unable to read file: readFile: input file has unknown schema, should be \"olm.semver\""]
        );
        let e = read_text("schema: olm.semver\ngenerateMajorChannels: true\ndefaultChannelTypePreference: minor\n")
            .unwrap_err();
        assert!(e[0].contains(
            "DefaultChannelTypePreference set to 'minor' doesn't make sense if not generating minor-version channels"
        ));
        let e = read_text("schema: olm.semver\ndefaultChannelTypePreference: major\n").unwrap_err();
        assert!(e[0].contains("set to 'major' doesn't make sense if not generating major-version channels"));
        let e = read_text("schema: olm.semver\ndefaultChannelTypePreference: patch\n").unwrap_err();
        assert!(e[0].ends_with("unknown DefaultChannelTypePreference: \"patch\"\nValid values are 'major' or 'minor'"));
    }
}
