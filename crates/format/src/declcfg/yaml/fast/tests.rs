//! Tests of the fast path: every document it reads must give exactly what the event path gives
//! (values, key order, positions), and it must bail outside its subset. The randomized and
//! real-catalog comparisons are in `yaml/differential.rs`.

use super::super::events::parse_document;
use super::super::CheckedValue;
use super::*;

/// Whether two answers are the same (NaN != NaN, so the debug text decides then).
pub(in crate::declcfg::yaml) fn same(a: &Result<Option<Node>, YamlError>, b: &Result<Option<Node>, YamlError>) -> bool {
    // NaN != NaN: fall back to the debug text.
    a == b || format!("{a:?}") == format!("{b:?}")
}

#[track_caller]
fn assert_same(src: &str) {
    for first_line in [1, 7] {
        let doc = Document::new(src, first_line);
        let slow = parse_document(&doc);
        let Some(fast) = parse_fast(&doc) else {
            panic!("fast path bailed on {src:?} (slow path: {slow:?})");
        };
        assert!(same(&fast, &slow), "different results for {src:?}\nfast: {fast:#?}\nslow: {slow:#?}");
    }
}

#[track_caller]
fn assert_bails(src: &str) {
    let doc = Document::new(src, 1);
    assert!(parse_fast(&doc).is_none(), "fast path did not bail on {src:?}: {:?}", parse_fast(&doc));
}

#[test]
fn empty_and_comment_documents() {
    assert_same("");
    assert_same("\n");
    assert_same("   \n\n");
    assert_same("# only a comment\n");
    assert_same("  # indented comment\n\n# another\n");
}

#[test]
fn block_mappings() {
    assert_same("a: 1\n");
    assert_same("a: 1\nb: two\nc: three words here\n");
    assert_same("a:\n  b: 1\n  c:\n    d: x\ne: y\n");
    assert_same("  a: 1\n  b: 2\n");
    assert_same("a : 1\nb   :   2\n");
    assert_same("a:    spaced   \n");
    assert_same("url: quay.io/x/y@sha256:0123abc\nk:v: z\n");
    assert_same("a#b: c\n");
    assert_same("-x: 1\n");
    assert_same("a: -1\nb: -x\n");
    assert_same("a: x,y[0]{1}\n");
    assert_same("a[0]: x\n");
    assert_same("a: \"#x\"\n");
    assert_same("a: x#y\n");
    assert_same("é: ü\nkey ä: value ö\n");
    assert_same("a:\n  \"é\": 1\n  'ö': x\n");
}

#[test]
fn duplicate_keys_last_wins() {
    assert_same("a: 1\nb: 2\na: 3\n");
    assert_same("a:\n  x: 1\nb: 2\na: [] \n");
    assert_same("1: a\n'1': b\n");
}

#[test]
fn yaml_1_1_scalars_and_keys() {
    assert_same("a: yes\nb: No\nc: on\nd: ~\ne: null\nf: 1.0\ng: 0x1F\nh: 0777\ni: 1e3\nj: .inf\nk: -.Inf\nl: 1_000\n");
    assert_same("m: 2001-12-14\nn: +5\no: 08\np: 123456789012345678901234567890\n");
    assert_same("a: .nan\n");
    assert_same("yes: 1\n1.5: x\n10: y\ntrue: z\n0x10: w\n");
    assert_same("a: 'yes'\nb: \"1.0\"\nc: |\n  1\n");
    assert_same("1e3: x\n");
}

#[test]
fn empty_values() {
    assert_same("a:\nb: 1\n");
    assert_same("a:\n");
    assert_same("a:   \n");
    assert_same("a: # comment\nb:\n");
    assert_same("a:\n  # comment\nb: 1\n");
    assert_same("x:\n  a:\n  b:\n");
    assert_same("- a:\n  b:\n- c:\n");
    assert_same("a:\n-x: 1\n");
}

#[test]
fn block_sequences() {
    assert_same("- a\n- b\n");
    assert_same("a:\n  - x\n  - y\nb: 1\n");
    assert_same("a:\n- x\n- y\nb: 1\n");
    assert_same("a:\n- x\n- y\n");
    assert_same("entries:\n- name: x\n  replaces: y\n  skips:\n  - a\n  - b\n- name: z\nname: c\n");
    assert_same("a:\n    - x\n    -   y\n");
    assert_same("-   name: x\n    v: 1\n-   name: y\n");
    assert_same("- - a\n  - b\n- - c\n");
    assert_same("- - - deep\n");
    assert_same("a:\n- - x\n  - y\n- z\n");
    assert_same("- a: 1\n  b:\n  - x\n  c:\n    d: e\n- f\n");
    assert_same("- 'q'\n- \"d\"\n- 'k': v\n- \"k2\": v2\n  other: 1\n");
    assert_same("- x # c\n- y\n");
    assert_same("- x\n\n# c\n\n- y\n");
    assert_same("a:\n- x\n# c\nb: 1\n");
    // Sequences at their key's indentation inside entries of such sequences.
    assert_same("a:\n- b:\n  - x\n  - y\n  c: 1\n- d\ne: 2\n");
    assert_same("- a:\n  - x\n- b:\n- c\n");
    assert_same("a:\n- |1\n  x\n- |\n x\n- >-\n  y\n");
    assert_same("- k: |\n   x\n  j: 1\n");
}

#[test]
fn empty_flow_collections() {
    assert_same("a: []\nb: {}\nc: [ ]\nd: {  }\ne: [] # c\n");
    assert_same("- []\n- {}\n- x\n");
    assert_same("a:\n- []\n- {}\nb: 1\n");
    assert_same("a:\n  []\nb:\n  {}\n");
    assert_same("[]\n");
    assert_same("{}\n");
    assert_same("- [] \n- {}  # c\n");
}

#[test]
fn comments_and_blank_lines() {
    assert_same("# head\na: 1 # tail\n\n  # indented\nb:   'x'   # q\nc: |  # block\n  t\n# end\n");
    assert_same("a:\n\n  b: 1\n\n\n  c: 2\n\n");
    assert_same("a: x\n   \n  \nb: y\n");
}

#[test]
fn multi_line_plain_scalars() {
    assert_same("description: This is a long\n  description that goes on\n  and on.\nnext: 1\n");
    assert_same("a: one\n\n  two\n\n\n  three\nb: x\n");
    assert_same("a: one   \n     two   \n  three\n");
    assert_same("a:\n  one\n  two\nb: 1\n");
    assert_same("a:\n    one\n  two\n");
    assert_same("- one\n  two\n- three\n");
    assert_same("a:\n- one\n  two\n- three\n");
    assert_same("- name: one\n   two\n  next: x\n");
    assert_same("a: one\n  - two\n  [x] {y} \"z\" 'w' |v >u &t *s !r %q @p\n");
    assert_same("a: one\n  two  three\n");
    assert_same("a: 1\n  2\n");
    assert_same("a: yes\n  no\n");
    assert_same("a: x\n \n  y\n");
    assert_same("a: x#y\n  z#w\n");
}

#[test]
fn single_quoted_scalars() {
    assert_same("a: 'it''s'\nb: ''\nc: ''''\nd: '  padded  '\n");
    assert_same("a: 'one\n  two'\n");
    assert_same("a: 'one   \n     two'\n");
    assert_same("a: 'one\n\n  two\n\n\n  three'\n");
    assert_same("a: 'x '' \n  y'\n");
    assert_same("a: '# not a comment'\nb: 'x: y'\nc: '\\n'\n");
    assert_same("- 'one\n  two'\n- x\n");
    assert_same("a: 'tab\there'\n");
    assert_same("a: 'tab\t\n  here'\n");
    assert_same("a: 'x' # c\n");
    assert_same("a: 'é\n  ü'\n");
}

/// go-yaml v2 reads the lines that continue a quoted scalar at any column (the slow path pads
/// them for saphyr): at the key's column, as CRDs of opendatahub-operator 1.4.1 have them, or
/// less indented, even at column 0. A document marker there is an error.
#[test]
fn quoted_scalars_go_on_at_any_column() {
    assert_same("a: 'x\ny'\n");
    assert_same("a:\n  b: 'x\n  y'\n  c: 1\n");
    assert_same("a:\n  b: 'x\n y'\nc: 2\n");
    assert_same("a:\n  b: \"x\ny\\\nz\"\n  c: 1\n");
    assert_same("- a: 'x\n\n  y'\n  b: 'é\nü'\n- c\n");
    assert_same(concat!(
        "properties:\n",
        "  kind:\n",
        "    description: 'Kind is a string value representing the REST resource this\n",
        "    object represents. In CamelCase. More info: https://git.k8s.io/community'\n",
        "    type: string\n",
    ));
    assert_bails("a: 'x\n...\ny'\n");
    assert_bails("a: 'x\n--- \ny'\n");
}

#[test]
fn double_quoted_scalars() {
    assert_same("a: \"x\\ny\\tz\\\\ \\\" \\/ \\0 \\a \\b \\v \\f \\r \\e \\  \\N \\_ \\L \\P\"\n");
    assert_same("a: \"\\x41\\u00e9\\U0001F600\"\n");
    assert_same("a: \"one\n  two\"\n");
    assert_same("a: \"one   \n  two\"\n");
    assert_same("a: \"one\\\n  two\"\n");
    assert_same("a: \"one \\\n  two\"\n");
    assert_same("a: \"one\\\n\n  two\"\n");
    assert_same("a: \"one\n\n\n  two\"\n");
    assert_same("a: \"x\\t \n  y\"\n");
    assert_same("a: \"\\  \n  y\"\n");
    assert_same("a: \"\\\t\"\n");
    assert_same("a: \"\" # c\n");
    assert_same("\"k\": \"v\"\n'k2' : v2\n");
    assert_same("a: \"{\\\"x\\\": 1}\"\n");
}

#[test]
fn literal_block_scalars() {
    assert_same("a: |\n  one\n  two\nb: 1\n");
    assert_same("a: |-\n  one\n  two\nb: 1\n");
    assert_same("a: |+\n  one\n  two\n\n\nb: 1\n");
    assert_same("a: |\n  one\n\n\nb: 1\n");
    assert_same("a: |-\n  one\n\n\n");
    assert_same("a: |\n\n  one\n    more\n  two\n");
    assert_same("a: |\n  \n  one\n");
    assert_same("a: |\n  one\n      \n  two\n     \n");
    assert_same("a: |\n    deep\n    deeper\n");
    assert_same("a: |\n  # not a comment\n  x: y\n  - z\n");
    assert_same("a: |\n  tab\there\n  \tleading tab\n");
    assert_same("- |\n  item\n- |-\n  item2\n");
    assert_same("- a: |\n    x\n  b: y\n");
    assert_same("a:\n- |\n  x\n- y\n");
    assert_same("a: |2\n   x\n  y\n");
    assert_same("a: |2-\n    x\n  y\n");
    assert_same("a: |-2\n  x\n");
    assert_same("a: |+2\n  x\n\n");
    assert_same("- |1\n  x\n");
    assert_same("a: |\n  é\n  ü\nb: é\n");
    assert_same("a: |\n  x\n# comment\nb: 1\n");
    assert_same("a: |\n  x\n  # indented comment is text\nb: 1\n");
    assert_same("a: |\n  x\n\n   \nb: 1\n");
    assert_same("a: |+\n  x\n\n   \nb: 1\n");
}

#[test]
fn folded_block_scalars() {
    assert_same("a: >\n  one\n  two\n\n  three\nb: 1\n");
    assert_same("a: >-\n  one\n  two\n");
    assert_same("a: >+\n  one\n  two\n\n");
    assert_same("a: >\n  one\n    more\n  two\n\n    more2\n\n  three\n");
    assert_same("a: >\n\n  one\n\n\n  two\n");
    assert_same("a: >\n  one\n   \n  two\n");
    assert_same("a: >\n  one\n  \ttab\n  two\n");
    assert_same("a: >2\n    one\n  two\n");
}

#[test]
fn positions_follow_saphyr() {
    // Block scalars sit at their first content line; indentless sequences at their first
    // entry's content; empty values at their colon.
    let src = "a:\n- x\nb: |\n\n  text\nc:\nd: 'q'\n";
    assert_same(src);
    let doc = Document::new(src, 10);
    let n = parse_fast(&doc).unwrap().unwrap().unwrap();
    assert_eq!(n.get("a").unwrap().pos, Pos::new(11, 3));
    assert_eq!(n.get("b").unwrap().pos, Pos::new(14, 3));
    assert_eq!(n.get("c").unwrap().pos, Pos::new(15, 2));
    assert_eq!(n.get("d").unwrap().pos, Pos::new(16, 4));
    assert_same("é: []\n");
    assert_same("ééé: x\n\"ü\": y\nü: |\n  z\n");
}

#[test]
fn catalog_like_documents() {
    assert_same(concat!(
        "defaultChannel: stable\n",
        "icon:\n",
        "  base64data: iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAACXBIWXMAAACxAAAAsQHGLUmNAAAEOklEQVR4nO1bTUhUURQ+ZSioGAyNTFAmNBCjUEHSShRaTRs3tWlR61q3KciVC1e1rV3QOjduciUo0iIUpqARYQI1QVGZSHRASYrv8e7wmnz33vfmnjPPZj54zCjv3nfvd8/fO+fMmQdvP/6mJsbZZt480CIgAWtoKFoEJGANDYU1AVdSXTSQ6aHO9nOJ3QzWhjVirbaw3s2j2/2Uy/RU/97dP6S18gEVt/a8C98loQ5EbfhCd0f16ctbezQx89VqNbGPEw/EdasvVSVkrrRD86Vt2tk/ZKEi3d1BI9leGs2m/9pwPXAmz1jQvZuXvGu+tENThe/OiEh7c1+mkWzayXxBsCg0FoprqrBBH4qbVDn6FWse6PTdgYseqVxgtWhYOMT15exKZBsBvX5655ozUQ8DuxvEBibHrkcSX9yLMdybB8TigMfDWc+TmIB7cK8UYr0NKteDT+UFbAED+WahFEpSVEO3tF6uumF8RkUsG6B8PwwcDBX0HMbKRmSxQSwWY2v/b7t5uFyMh9uNa2AVnOYD4KpARGd7m/HeV7MrtLhe9r5Dkl7kB41jKkfH3sbhYl3BqQ3Awp5Pf7ay+BB3FVaDOBMwJ+Z2uXnAuRFE8DMxU/R0XQdIyZPhq94dpk1hLszJEWGyeAHoJQydiQQYUIg/7MlyiAFTRrNeXQ8DqxvEwsM2pqBc3klSgLFhHsMV2OMARIEwXmGA5xjqS/0jBRiDsdxgJ0Cpgw7wHMBcabt6F6fYByESCcLd6VQBeQa88S2u//BOHvcqF8kNsVDYZOmhBjjx5a2fzl2dDmIEmLJGQ35I/b6wESukjQvRpKjOLap0m3RqTZQAk15HSWa6gigBiOR0LrHL4h3CNcTrAjoRz2XOi64FECeAK2McFy0CErCGhiJRBKQFkqC1aBEg/UCdF/jv4wAyGEFkiaSlIFESQIF3AimIEqBEXPdqzFEA1UGMAOT+7vtFTt07gSq4SEGMAKS+VahreimySZO7gggB0Ouc117T5ok4DKEpQyRlC9gJQPEjWOwczfZ6n7WlsVoECyecYCcANf5gqSzn9/VADXYNLhFjTzUBOMXcCQZN6bgpW4yx3KVyFgKU2Ie5NCUFyP0tGQwi5uBUB+cEIJIbzw8Y/bmSgtcL37RZIvJJwJwcUaJTArCpybEbVjG9Sn3bFE7Ijw8wt2sXWXd/QNQGCfJ1vzZDjPEPLVpoKAkNEk3ZIjOeHzzRokfBTHGT3n1aDR2h6oF5v1ZoAxxA7SFEaZUVC4WxOd3mFXAPd0k8CPZQC/oatVESarJWrog0SrISUE+rLAh7Nv3ldLbKumqWBnGYBx3oiW+W5myXx3ywCyAjMe3yjfjBBIgACbh0P5iIAus4AA9B8XK1XBFpXYkDBGX9qU46ODq2PhBrCZCu28cBDiZqMNQqjSVgDQ1Fi4AErKGhaG4CiOgPK6Ej+g5fAyMAAAAASUVORK5CYII=\n",
        "  mediatype: image/png\n",
        "name: infinispan\n",
        "schema: olm.package\n",
    ));
    assert_same(concat!(
        "image: quay.io/x/y@sha256:abc\n",
        "name: op.v1.0.0\n",
        "package: op\n",
        "properties:\n",
        "- type: olm.gvk\n",
        "  value:\n",
        "    group: example.com\n",
        "    kind: Thing\n",
        "    version: v1\n",
        "- type: olm.csv.metadata\n",
        "  value:\n",
        "    annotations:\n",
        "      alm-examples: |-\n",
        "        [\n",
        "          {\n",
        "            \"apiVersion\": \"x/v1\",\n",
        "            \"kind\": \"Thing\"\n",
        "          }\n",
        "        ]\n",
        "      capabilities: Basic Install\n",
        "      createdAt: \"2024-01-01T00:00:00Z\"\n",
        "      description: A long description that go-yaml folded over\n",
        "        several lines, as it does past eighty columns.\n",
        "    description: |\n",
        "      # Title\n",
        "\n",
        "      Text.\n",
        "    keywords:\n",
        "    - a\n",
        "    - b\n",
        "    links:\n",
        "    - name: Docs\n",
        "      url: https://example.com\n",
        "    maintainers:\n",
        "    - email: a@b.c\n",
        "      name: A\n",
        "    maturity: alpha\n",
        "    minKubeVersion: 1.21.0\n",
        "relatedImages:\n",
        "- image: quay.io/x/y@sha256:abc\n",
        "  name: \"\"\n",
        "schema: olm.bundle\n",
    ));
}

#[test]
fn bails_outside_the_subset() {
    // Anchors, aliases, tags, merge keys.
    assert_bails("a: &x 1\nb: *x\n");
    assert_bails("a: !!str 1\n");
    assert_bails("a: !foo x\n");
    assert_bails("<<: {a: 1}\n");
    assert_bails("b:\n  <<: x\n");
    // Flow collections with content, complex keys, directives, markers.
    assert_bails("a: [1, 2]\n");
    assert_bails("a: {b: 1}\n");
    assert_bails("[a]\n");
    assert_bails("? a\n: b\n");
    assert_bails("%YAML 1.1\n---\na: 1\n");
    assert_bails("a: 1\n...\n");
    assert_bails("a: 1\n--- \nb: 2\n");
    // Tabs, CR, BOM, NEL, line separators, control characters.
    assert_bails("a:\t1\n");
    assert_bails("a:\n\tb: 1\n");
    assert_bails("a: x\t\n");
    assert_bails("a: 1\r\n");
    assert_bails("\u{feff}a: 1\n");
    assert_bails("a: x\u{85}y\n");
    assert_bails("a: x\u{2028}y\n");
    assert_bails("a: 'x\u{2029}y'\n");
    assert_bails("a: |\n  x\u{1}y\n");
    assert_bails("a: x\0y\n");
    assert_bails("# c\u{2028}a: 1\n");
    // Keys sigs.k8s.io/yaml rejects, or that are not keys.
    assert_bails("~: x\n");
    assert_bails("null: x\n");
    assert_bails("18446744073709551615: x\n");
    assert_bails("a: b: c\n");
    assert_bails("a: 1\nb\n");
    assert_bails("'a\n  b': 1\n");
    // Irregular indentation and errors.
    assert_bails("a: 1\n  b: 2\n");
    assert_bails("a:\n  b: 1\n c: 2\n");
    assert_bails("a:\n  - x\n  b: 1\n");
    assert_bails("a: x # c\n  y\n");
    assert_bails("a: 'unterminated\n");
    assert_bails("a: \"\\q\"\n");
    assert_bails("a: \"\\uD800\"\n");
    assert_bails("a: 'x' y\n");
    assert_bails("a: 'x'# c\n");
    assert_bails("a: x\n  # c\n  y\n");
    assert_bails("a: x\n  y: z\n");
    // Empty entries and block scalars, header variants.
    assert_bails("-\n- x\n");
    assert_bails("- # c\n  x\n");
    assert_bails("a:\n-\n");
    assert_bails("a: |\nb: 1\n");
    assert_bails("a: |\n\n");
    assert_bails("a: |0\n  x\n");
    assert_bails("a: |x\n  x\n");
    assert_bails("a: |# c\n  x\n");
    assert_bails("a: |\n    \n  x\n");
    assert_bails("a: |2\n x\n");
    // Root scalars, no final line break.
    assert_bails("just text\n");
    assert_bails("'quoted'\n");
    assert_bails("a: 1");
    // Over-long keys.
    assert_bails(&format!("{}: x\n", "k".repeat(MAX_KEY_BYTES + 1)));
}

#[test]
fn deep_nesting_bails_without_overflow() {
    let mut src = String::new();
    for i in 0..(MAX_FAST_DEPTH + 20) {
        src.push_str(&" ".repeat(i));
        src.push_str("a:\n");
    }
    assert_bails(&src);
    let src = format!("{}x\n", "- ".repeat(MAX_FAST_DEPTH + 20));
    assert_bails(&src);
    // Shallower nesting is fine.
    let src = format!("{}x\n", "- ".repeat(50));
    assert_same(&src);
}

/// `node` with each checked value's tree (read from its text) in place of the null it left;
/// `None` when one has no null at its position.
pub(in crate::declcfg::yaml) fn with_checked_values(
    mut node: Node,
    doc: &Document<'_>,
    checked: Vec<CheckedValue>,
) -> Option<Node> {
    fn put(node: &mut Node, pos: Pos, value: &Node) -> bool {
        match &mut node.value {
            Value::Null if node.pos == pos => {
                *node = value.clone();
                true
            }
            Value::Object(members) => members.iter_mut().any(|m| put(&mut m.value, pos, value)),
            Value::Array(items) => items.iter_mut().any(|i| put(i, pos, value)),
            _ => false,
        }
    }
    for c in checked {
        let value = checked_value(doc, &c);
        if !put(&mut node, c.pos, &value) {
            return None;
        }
    }
    Some(node)
}

/// A checked value of `doc`, with its text copied, as the loader keeps it.
fn checked_value(doc: &Document<'_>, c: &CheckedValue) -> crate::declcfg::PropertyValue {
    let string = c.string.as_ref().map(|r| r.start - c.span.start..r.end - c.span.start);
    crate::declcfg::PropertyValue::checked_text(&doc.text[c.span.clone()], c.first_line, string)
}

/// On the real catalogs, every `olm.csv.metadata` and `olm.bundle.object` value is checked
/// without its tree; read back from its text, each one is the tree the fast path builds,
/// positions included, and decodes into its Go struct (a bundle object's `data` string is read
/// without the tree too); the rest of each document is read as it is without the check.
#[test]
fn checked_values_read_back_as_their_trees() {
    use crate::declcfg::go_type::{check, BUNDLE_OBJECT, CSV_METADATA};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/catalogs/fbc");
    let files = crate::declcfg::read_catalog(&root).expect("the shared catalogs");
    let (mut count, mut objects) = (0, 0);
    for f in &files {
        let Ok(text) = std::str::from_utf8(&f.content) else { continue };
        for doc in super::super::split_documents(text, 1).unwrap_or_default() {
            let Some(Ok(Some(tree))) = parse_fast(&doc) else { continue };
            let Some((Some(with_nulls), checked)) = parse_fast_checking(&doc) else {
                panic!("{}:{}: read without the check, not with it", f.path, doc.first_line)
            };
            for c in &checked {
                let value = checked_value(&doc, c);
                assert!(value.checked_unread() && value.built().is_none());
                let string = value.checked_string().map(str::to_string);
                assert!(value.built().is_none(), "the string is read without the tree");
                assert!(check(&value, c.ty).is_ok(), "{}: {:?}", f.path, c.pos);
                if std::ptr::eq(c.ty, &BUNDLE_OBJECT) {
                    assert_eq!(string.as_deref(), value.get("data").and_then(Node::as_str), "{}: {:?}", f.path, c.pos);
                    objects += 1;
                } else {
                    assert!(std::ptr::eq(c.ty, &CSV_METADATA) && string.is_none());
                }
            }
            count += checked.len();
            let whole = with_checked_values(with_nulls, &doc, checked);
            assert_eq!(whole.as_ref(), Some(&tree), "{}:{}", f.path, doc.first_line);
        }
    }
    assert!(count > 900 && objects > 1000, "{count} values checked, {objects} bundle objects");
}
/// A bundle object is checked without its tree only as most are written: `data` alone, on
/// the next line, its string on one plain line; any other way, its tree is read.
#[test]
fn bundle_objects_are_checked_when_data_is_one_plain_line() {
    let doc = |src: &'static str| Document::new(src, 1);
    let object = |value: &str| format!("properties:\n- type: olm.bundle.object\n  value:{value}- type: olm.package\n");
    let fine: &'static str = Box::leak(object("\n    data: eyJhIjoxfQ==\n").into_boxed_str());
    let (node, checked) = parse_fast_checking(&doc(fine)).unwrap();
    assert_eq!(checked.len(), 1);
    let c = &checked[0];
    assert_eq!(&fine[c.string.clone().unwrap()], "eyJhIjoxfQ==");
    assert_eq!(&fine[c.span.clone()], "  value:\n    data: eyJhIjoxfQ==\n");
    assert_eq!(checked_value(&doc(fine), c).checked_string(), Some("eyJhIjoxfQ=="));
    assert_eq!(with_checked_values(node.unwrap(), &doc(fine), checked), parse_fast(&doc(fine)).unwrap().unwrap());
    for value in [
        " {data: eyJhIjoxfQ==}\n",
        "\n    data: 'eyJhIjoxfQ=='\n",
        "\n    data: eyJhIjox\n      fQ==\n",
        "\n    data: eyJhIjoxfQ== # a comment\n",
        "\n    data: 123\n",
        "\n    data: a\n    data: b\n",
        // A key Go passes over (`data` is then empty).
        "\n    kind: x\n",
        "\n    Data: x\n    data: y\n",
        "\n",
    ] {
        let src: &'static str = Box::leak(object(value).into_boxed_str());
        // (A flow mapping with content is not in the fast path's subset at all.)
        let Some((node, checked)) = parse_fast_checking(&doc(src)) else {
            assert!(parse_fast(&doc(src)).is_none(), "{src}");
            continue;
        };
        assert!(checked.is_empty(), "{src}");
        assert_eq!(node, parse_fast(&doc(src)).unwrap().unwrap(), "{src}");
    }
}

/// A value the check is not sure of is read as a tree, and the document is the same.
#[test]
fn csv_metadata_the_check_is_not_sure_of_is_read_as_a_tree() {
    let doc = |src: &'static str| Document::new(src, 1);
    let fine = "properties:\n- type: olm.csv.metadata\n  value:\n    displayName: x\n    installModes:\n    - type: OwnNamespace\n      supported: true\n    - {}\n    keywords: []\n";
    let (_, checked) = parse_fast_checking(&doc(fine)).unwrap();
    assert_eq!(checked.len(), 1);
    for src in [
        // A number where the struct has a string, a string where it has a bool.
        "properties:\n- type: olm.csv.metadata\n  value:\n    displayName: 1\n",
        "properties:\n- type: olm.csv.metadata\n  value:\n    installModes:\n    - supported: 'yes'\n",
        // Two keys that fold to one field; a mapping where the struct has a slice.
        "properties:\n- type: olm.csv.metadata\n  value:\n    keywords: [ ]\n    Keywords: []\n",
        "properties:\n- type: olm.csv.metadata\n  value:\n    keywords:\n      a: b\n",
    ] {
        let (node, checked) = parse_fast_checking(&doc(src)).unwrap();
        assert!(checked.is_empty(), "{src}");
        assert_eq!(node, parse_fast(&doc(src)).unwrap().unwrap(), "{src}");
    }
}
