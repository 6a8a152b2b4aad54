//! The order of blobs and the field rules of each schema, as opm writes them.

use std::sync::Arc;

use super::*;
use crate::declcfg::value::{Pos, Value};
use crate::declcfg::{load_files, ChannelEntry, FileInput, Icon, Property, Spanned};

fn load(json: &str) -> DeclarativeConfig {
    let loaded = load_files(&[FileInput::new("catalog.json", json)]);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    loaded.config
}

/// `schema name` of each written blob, in order (names of packages, channels and bundles).
fn order(cfg: &DeclarativeConfig) -> Vec<String> {
    let text = write(cfg, Format::Json);
    let again = load_files(&[FileInput::new("out.json", text.as_str())]);
    let mut blobs: Vec<(Pos, String)> = Vec::new();
    blobs.extend(again.config.packages.iter().map(|p| (p.source.pos, format!("package {}", p.name.value))));
    blobs.extend(
        again.config.channels.iter().map(|c| (c.source.pos, format!("channel {}/{}", c.package.value, c.name.value))),
    );
    blobs.extend(
        again.config.bundles.iter().map(|b| (b.source.pos, format!("bundle {}/{}", b.package.value, b.name.value))),
    );
    blobs.extend(again.config.deprecations.iter().map(|d| (d.source.pos, format!("deprecations {}", d.package.value))));
    blobs.extend(again.config.others.iter().map(|m| (m.source.pos, format!("{} {}/{}", m.schema, m.package, m.name))));
    blobs.sort();
    blobs.into_iter().map(|(_, s)| s).collect()
}

#[test]
fn blobs_are_grouped_by_package_and_sorted_within_each_kind() {
    let cfg = load(
        r#"{"schema":"x.note","name":"global"}
{"schema":"olm.bundle","package":"b","name":"b.v2","image":"i"}
{"schema":"olm.channel","package":"b","name":"stable","entries":[]}
{"schema":"olm.deprecations","package":"b","entries":[]}
{"schema":"z.other","package":"b","name":"n"}
{"schema":"olm.package","name":"b","defaultChannel":"stable"}
{"schema":"olm.bundle","package":"b","name":"b.v1","image":"i"}
{"schema":"olm.channel","package":"b","name":"alpha","entries":[]}
{"schema":"a.other","package":"b","name":"z"}
{"schema":"olm.package","name":"a","defaultChannel":"x"}
"#,
    );
    // opm v1.73.0 (`opm render` of this catalog) writes the same order.
    assert_eq!(
        order(&cfg),
        [
            "package a",
            "package b",
            "channel b/alpha",
            "channel b/stable",
            "bundle b/b.v1",
            "bundle b/b.v2",
            "a.other b/z",
            "z.other b/n",
            "deprecations b",
            "x.note /global",
        ]
    );
}

#[test]
fn other_blobs_keep_their_order_within_a_schema_and_package_less_ones_come_last_as_read() {
    let cfg = load(
        r#"{"schema":"zz.other","name":"b"}
{"schema":"my.other","package":"p","name":"z"}
{"schema":"olm.package","name":"p"}
{"schema":"my.other","package":"p","name":"a"}
{"schema":"a.other","package":"p","name":"m"}
{"schema":"zz.other","name":"a"}
"#,
    );
    // As opm v1.73.0 writes them.
    assert_eq!(order(&cfg), ["package p", "a.other p/m", "my.other p/z", "my.other p/a", "zz.other /b", "zz.other /a"]);
}

#[test]
fn channels_and_bundles_with_the_same_name_come_out_in_the_order_gos_sort_slice_leaves_them() {
    let mut lines = vec![r#"{"schema":"olm.package","name":"p"}"#.to_string()];
    for i in 0..20 {
        lines.push(format!(r#"{{"schema":"olm.bundle","package":"p","name":"b{}","image":"img{i}"}}"#, i % 7));
    }
    for i in 0..15 {
        lines.push(format!(
            r#"{{"schema":"olm.channel","package":"p","name":"c{}","entries":[{{"name":"e{i}"}}]}}"#,
            i % 4
        ));
    }
    let cfg = load(&lines.join("\n"));
    let text = write(&cfg, Format::Json);
    let again = load_files(&[FileInput::new("out.json", text.as_str())]).config;
    let entries: Vec<&str> = again.channels.iter().map(|c| c.entries[0].name.value.as_str()).collect();
    let images: Vec<&str> = again.bundles.iter().map(|b| b.image.value.as_str()).collect();
    // opm v1.73.0's `opm render` of this catalog.
    assert_eq!(
        entries,
        ["e8", "e12", "e4", "e0", "e1", "e13", "e5", "e9", "e6", "e10", "e2", "e14", "e7", "e11", "e3"]
    );
    assert_eq!(
        images,
        [
            "img14", "img0", "img7", "img1", "img15", "img8", "img9", "img2", "img16", "img10", "img3", "img17",
            "img11", "img4", "img18", "img12", "img5", "img19", "img6", "img13"
        ]
    );
}

#[test]
fn write_by_package_gives_one_text_per_package_with_the_unpackaged_blobs_last_under_empty() {
    let cfg = load(
        r#"{"schema":"olm.package","name":"b","defaultChannel":"s"}
{"schema":"x.note"}
{"schema":"olm.package","name":"a","defaultChannel":"s"}
"#,
    );
    let files = write_by_package(&cfg, Format::Yaml);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", ""]);
    assert_eq!(files[2].1, "---\nschema: x.note\n");
    assert_eq!(files[0].1, "---\ndefaultChannel: s\nname: a\nschema: olm.package\n");
}

#[test]
fn fields_follow_go_struct_order_and_omitempty() {
    let cfg = load(
        r#"{"schema":"olm.package","name":"p","defaultChannel":""}
{"schema":"olm.channel","package":"p","name":"c","entries":[{"name":"e","skips":[],"replaces":""}]}
{"schema":"olm.bundle","image":"","properties":[{"type":"t"}],"relatedImages":[{"image":"i"}]}
{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.package"},"message":"m"}]}
"#,
    );
    let text = write(&cfg, Format::Json);
    let compact: String = text.split_whitespace().collect();
    assert_eq!(
        compact,
        concat!(
            r#"{"schema":"olm.package","name":"p","defaultChannel":""}"#,
            r#"{"schema":"olm.channel","name":"c","package":"p","entries":[{"name":"e"}]}"#,
            r#"{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.package"},"message":"m"}]}"#,
            // opm drops a bundle with no package; here it is kept, after the packages.
            r#"{"schema":"olm.bundle","image":"","properties":[{"type":"t","value":null}],"relatedImages":[{"name":"","image":"i"}]}"#,
        )
    );
}

#[test]
fn icons_are_base64_and_raw_values_keep_or_sort_their_keys() {
    let cfg = load(
        r#"{"schema":"olm.package","name":"p","defaultChannel":"s","icon":{"base64data":"PHN2Zz4=","mediatype":"image/svg+xml"},"description":"<d>","properties":[{"type":"t","value":{"b":1,"a":{"d":2,"c":3}}}]}
{"schema":"x.y","package":"p","z":1,"a":[{"y":1,"x":2}]}
"#,
    );
    let compact = |s: String| s.split_whitespace().collect::<String>();
    assert_eq!(
        compact(write(&cfg, Format::Json)),
        concat!(
            r#"{"schema":"olm.package","name":"p","defaultChannel":"s","icon":{"base64data":"PHN2Zz4=","mediatype":"image/svg+xml"},"#,
            r#""description":"<d>","properties":[{"type":"t","value":{"b":1,"a":{"d":2,"c":3}}}]}"#,
            r#"{"schema":"x.y","package":"p","z":1,"a":[{"y":1,"x":2}]}"#,
        )
    );
    assert_eq!(
        compact(write_loaded(&cfg, Format::Json)),
        concat!(
            r#"{"schema":"olm.package","name":"p","defaultChannel":"s","icon":{"base64data":"PHN2Zz4=","mediatype":"image/svg+xml"},"#,
            r#""description":"<d>","properties":[{"type":"t","value":{"a":{"c":3,"d":2},"b":1}}]}"#,
            r#"{"a":[{"x":2,"y":1}],"package":"p","schema":"x.y","z":1}"#,
        )
    );
}

#[test]
fn blobs_built_in_code_are_written_like_loaded_ones() {
    let s = |v: &str| Spanned::new(v.to_string(), Pos::default());
    let source = Source { file: Arc::from(""), pos: Pos::default() };
    let mut cfg = DeclarativeConfig::default();
    cfg.packages.push(Package {
        source: source.clone(),
        name: s("p"),
        default_channel: s("stable"),
        icon: Some(Icon { data: b"<svg>".to_vec().into(), media_type: "image/svg+xml".into() }),
        description: String::new(),
        properties: Vec::new(),
    });
    cfg.channels.push(Channel {
        source: source.clone(),
        package: s("p"),
        name: s("stable"),
        entries: vec![ChannelEntry {
            pos: Pos::default(),
            name: s("p.v1"),
            replaces: s("p.v0"),
            skips: vec![s("p.v0.1")],
            skip_range: s("<1.0.0"),
        }],
        properties: Vec::new(),
    });
    let value = Node::new(Pos::default(), Value::String("1.0.0".into()));
    cfg.bundles.push(Bundle {
        source,
        package: s("p"),
        name: s("p.v1"),
        image: s("quay.io/p:v1"),
        properties: vec![Property {
            pos: Pos::default(),
            type_: Spanned::new("x".into(), Pos::default()),
            value: Some(value.into()),
        }]
        .into(),
        related_images: Default::default(),
        object_count: 0,
        properties_fit: false,
    });
    assert_eq!(
        write(&cfg, Format::Yaml),
        "---\ndefaultChannel: stable\nicon:\n  base64data: PHN2Zz4=\n  mediatype: image/svg+xml\nname: p\nschema: olm.package\n\
         ---\nentries:\n- name: p.v1\n  replaces: p.v0\n  skipRange: <1.0.0\n  skips:\n  - p.v0.1\nname: stable\npackage: p\nschema: olm.channel\n\
         ---\nimage: quay.io/p:v1\nname: p.v1\npackage: p\nproperties:\n- type: x\n  value: 1.0.0\nschema: olm.bundle\n"
    );
}

#[test]
fn formats_parse_and_print() {
    assert_eq!("json".parse::<Format>(), Ok(Format::Json));
    assert_eq!("yaml".parse::<Format>(), Ok(Format::Yaml));
    assert_eq!(Format::Yaml.to_string(), "yaml");
    assert_eq!(
        "xml".parse::<Format>().unwrap_err().to_string(),
        r#"invalid output format "xml", expected (json|yaml)"#
    );
}
