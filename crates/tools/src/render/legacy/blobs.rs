//! The `olm.package` and `olm.channel` blobs a legacy package becomes, located where the user can
//! find what decided them, and the package icon decoded from a CSV as the sqlite conversion did
//! (`pkg/sqlite/conversion.go` `populatePackageIcons`: `spec.icon[0]` of the default channel
//! head, base64 decoded, retried without spaces; an icon that still does not decode is left out
//! with a warning).

use std::sync::Arc;

use super::graph::PlannedChannel;
use crate::declcfg::{Channel, ChannelEntry, Icon, Package, Pos, Source, Spanned};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::gotext::{decode_base64, quote};

/// A blob source at `pos` in `file`.
pub fn source(file: &str, pos: Pos) -> Source {
    Source { file: Arc::from(file), pos }
}

/// The `olm.package` blob.
pub fn package(source: Source, name: &str, default_channel: Spanned<String>, icon: Option<Icon>) -> Package {
    let name = Spanned::new(name.to_string(), source.pos);
    Package { source, name, default_channel, icon, description: String::new(), properties: Vec::new() }
}

/// The `olm.channel` blob of a planned channel; every entry is placed at `entry_pos` (its edges
/// come from CSVs in other files).
pub fn channel(source: Source, package: &str, planned: &PlannedChannel, entry_pos: Pos) -> Channel {
    let at = |s: &str| Spanned::new(s.to_string(), entry_pos);
    let entries = planned
        .entries
        .iter()
        .map(|e| ChannelEntry {
            pos: entry_pos,
            name: at(&e.name),
            replaces: at(&e.replaces),
            skips: e.skips.iter().map(|s| at(s)).collect(),
            skip_range: at(&e.skip_range),
        })
        .collect();
    let (package, name) =
        (Spanned::new(package.to_string(), source.pos), Spanned::new(planned.name.clone(), source.pos));
    Channel { source, package, name, entries, properties: Vec::new() }
}

/// The icon of a CSV (`bundle` names it in the warning), or `None` when it has no data or does
/// not decode (then with the warning, located at `location`).
pub fn icon(bundle: &str, data: &str, media_type: &str, location: Location) -> (Option<Icon>, Option<Diagnostic>) {
    if data.is_empty() {
        return (None, None);
    }
    let decoded = decode_base64(data).or_else(|e| decode_base64(&data.replace(' ', "")).map_err(|_| e));
    match decoded {
        Ok(data) => (Some(Icon { data: data.into(), media_type: media_type.to_string() }), None),
        Err(e) => {
            let message = format!("base64 decode CSV icon for bundle {}: {e}; the package has no icon: encode the image again (`base64 -w0 icon.png`) into spec.icon[0].base64data", quote(bundle));
            (None, Some(Diagnostic::warning(Code::LegacyInvalidIcon, message, location)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::legacy::graph::PlannedEntry;

    #[test]
    fn an_icon_decodes_even_with_spaces_in_its_data() {
        let at = Location::default;
        assert_eq!(icon("a", "QUJD", "image/png", at()).0.map(|i| i.data.to_vec()), Some(b"ABC".to_vec()));
        assert_eq!(icon("a", "QU JD", "image/png", at()).0.map(|i| i.data.to_vec()), Some(b"ABC".to_vec()));
        assert_eq!(icon("a", "", "", at()), (None, None));
        let (none, warning) = icon("a.v1", "!!", "image/png", at());
        assert!(none.is_none());
        let w = warning.unwrap();
        assert_eq!(w.code, Code::LegacyInvalidIcon);
        assert!(w.message.starts_with("base64 decode CSV icon for bundle \"a.v1\": "), "{}", w.message);
    }

    #[test]
    fn a_planned_channel_becomes_a_blob() {
        let planned = PlannedChannel {
            name: "stable".into(),
            entries: vec![PlannedEntry {
                name: "a.v2".into(),
                replaces: "a.v1".into(),
                skips: vec!["a.v0".into()],
                skip_range: "<2.0.0".into(),
            }],
        };
        let c = channel(source("ops/a", Pos::default()), "a", &planned, Pos::default());
        assert_eq!((c.package.value.as_str(), c.name.value.as_str(), &*c.source.file), ("a", "stable", "ops/a"));
        let e = &c.entries[0];
        assert_eq!(
            (e.name.as_str(), e.replaces.as_str(), e.skips[0].as_str(), e.skip_range.as_str()),
            ("a.v2", "a.v1", "a.v0", "<2.0.0")
        );
    }
}
