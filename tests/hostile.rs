//! Graph abuse and budgets (issue 15): well-formed but hostile catalogs, built in code
//! (`tests/hostile/catalogs.rs`), go through validation, the channel graphs (JSON, Mermaid, DOT)
//! and the upgrade path of the oldest entry. Each ends with a result or a clear finding, with
//! sizes that stay linear in the input (edge counts, JSON bytes, message lengths); the time and
//! memory budgets are measured by `benches/hostile.rs`, not here. Also: every budget of
//! docs/budgets.md that lives outside the resolver is hit once through the public API.

#[path = "hostile/catalogs.rs"]
mod catalogs;

use catalogs::{name, Hostile};
use olm_catalog::declcfg::{load_files, FileInput};
use olm_catalog::graph::{
    to_dot, to_mermaid, upgrade_path, ChannelGraph, EdgeKind, MermaidError, MermaidOptions, PackageGraph, PathError,
    Semantics, Start, UpgradePath, EXPANSION_BUDGET,
};
use olm_catalog::validate::{validate_files, Validated};
use olm_catalog::{Code, Model, Severity, Version, VersionRange};

/// The longest message any finding may have: lists of names are capped.
const MAX_MESSAGE: usize = 3_000;

fn validate(h: &Hostile) -> Validated {
    validate_files(std::slice::from_ref(&h.file))
}

/// The findings with `code`.
fn with_code(v: &Validated, code: Code) -> Vec<&str> {
    v.report.diagnostics.iter().filter(|d| d.code == code).map(|d| d.message.as_str()).collect()
}

/// No message is longer than [`MAX_MESSAGE`], opm's included.
fn assert_messages_bounded(v: &Validated) {
    let longest = v.report.diagnostics.iter().map(|d| d.message.len()).max().unwrap_or(0);
    assert!(longest <= MAX_MESSAGE, "a message of {longest} bytes");
    let opm = v.report.opm_message.as_deref().map_or(0, str::len);
    assert!(opm <= MAX_MESSAGE, "opm's message has {opm} bytes");
}

fn graph(m: &Model, h: &Hostile) -> ChannelGraph {
    let p = m.package(&h.package).expect("package");
    ChannelGraph::new(p, p.channel(&h.channel).expect("channel"))
}

fn path(m: &Model, h: &Hostile, semantics: Semantics) -> Result<UpgradePath, PathError> {
    let p = m.package(&h.package).expect("package");
    upgrade_path(p, p.channel(&h.channel).expect("channel"), &Start::Bundle(h.oldest.clone()), semantics)
}

fn json_len<T: serde::Serialize>(value: &T) -> usize {
    serde_json::to_string(value).expect("serializes").len()
}

fn mermaid(m: &Model, package: &str) -> Result<String, MermaidError> {
    to_mermaid(m, &MermaidOptions { package: Some(package.into()), v0_semantics: true, ..Default::default() })
}

#[test]
fn a_replaces_chain_of_50_000() {
    let n = 50_000;
    let h = catalogs::long_chain(n);
    let input = h.file.content.len();
    let v = validate(&h);
    assert!(v.report.valid, "{:?}", v.report.opm_message);
    assert_messages_bounded(&v);
    // Every patch from 1.0.2 on misses the earlier ones but the one it replaces.
    let gaps = with_code(&v, Code::ZStreamGap);
    assert_eq!(gaps.len(), n - 2);
    let head = name("chain", n - 1);
    let of_head = gaps.iter().find(|m| m.starts_with(&format!("\"{head}\""))).expect("the head's gap");
    assert!(of_head.contains(" (and 49,988 more): users on them"), "{of_head}");

    let g = graph(&v.model, &h);
    assert_eq!((g.nodes.len(), g.edges.len(), g.fans.len()), (n, n - 1, 0));
    assert_eq!(g.head.as_deref(), Some(head.as_str()));
    assert!(g.nodes.iter().all(|node| node.on_v0_chain && !node.stranded));
    assert!(json_len(&g) < input, "channel graph JSON of {} bytes", json_len(&g));
    let p = v.model.package("chain").expect("package");
    assert!(json_len(&PackageGraph::new(p)) < input);
    let mm = mermaid(&v.model, "chain").expect("draws");
    assert_eq!(mm.matches("-- replace -->").count(), n - 1);
    let dot = to_dot(&[g]);
    assert_eq!(dot.matches(" -> ").count(), n - 1);

    for semantics in [Semantics::V0, Semantics::V1] {
        let up = path(&v.model, &h, semantics).expect("a path");
        assert!(!up.stranded);
        assert_eq!(up.steps.len(), n - 1);
        assert!(up.steps.iter().all(|s| s.edge == EdgeKind::Replaces));
        assert_eq!(up.steps.last().map(|s| &*s.to), Some(head.as_str()));
    }
}

#[test]
fn a_chain_whose_every_entry_skips_all_earlier_versions() {
    let n = 20_000;
    let h = catalogs::skip_range_chain(n);
    let input = h.file.content.len();
    let v = validate(&h);
    assert!(v.report.valid);
    assert_eq!(v.report.diagnostics.len(), 0, "{:?}", v.report.diagnostics.first());

    // n²/2 skipRange edges, kept as one fan per entry.
    let g = graph(&v.model, &h);
    let quadratic = n * (n - 1) / 2;
    assert_eq!((g.edges.len(), g.fans.len()), (n - 1, n - 1));
    assert_eq!(g.edge_count(), n - 1 + quadratic);
    assert!(g.fans.iter().all(|f| f.runs.len() == 1));
    assert!(json_len(&g) < 2 * input, "channel graph JSON of {} bytes", json_len(&g));
    // Expanding them has a budget, and says so.
    let mut expanded = g.clone();
    assert_eq!(
        expanded.expand_ranges(EXPANSION_BUDGET).unwrap_err().to_string(),
        "channel \"stable\" of package \"chain\" has 200,009,999 upgrade edges once its skipRanges are expanded, more than the budget of 1,000,000; keep the skipRanges as ranges (fans) or raise the budget"
    );
    assert_eq!(expanded, g, "a refused expansion changes nothing");
    let p = v.model.package("chain").expect("package");
    assert!(PackageGraph::new(p).expand_ranges(EXPANSION_BUDGET).is_err());
    // opm's Mermaid would draw every edge: refused beyond the budget.
    assert_eq!(
        mermaid(&v.model, "chain").unwrap_err(),
        MermaidError::TooLarge { edges: n - 1 + quadratic, budget: EXPANSION_BUDGET }
    );
    // DOT draws each fan as a range node.
    let dot = to_dot(&[g]);
    assert!(dot.contains("200,009,999 edges are more than the budget of 1,000,000"));
    assert_eq!(dot.matches("shape=note").count(), n - 1);
    assert!(dot.len() < 2 * input);

    // OLM v0 and v1 both go straight to the head, whose range covers everything.
    for semantics in [Semantics::V0, Semantics::V1] {
        let up = path(&v.model, &h, semantics).expect("a path");
        assert_eq!(up.steps.len(), 1);
        assert_eq!(up.steps[0].edge, EdgeKind::SkipRange);
        assert_eq!(&*up.steps[0].to, name("chain", n - 1));
    }
}

#[test]
fn expanded_fans_are_exactly_the_skip_range_edges() {
    // Small enough to expand: every (covered, entry) pair, checked pair by pair with the range.
    let n = 300;
    let h = catalogs::skip_range_chain(n);
    let v = validate(&h);
    let g = graph(&v.model, &h);
    let p = v.model.package("chain").expect("package");
    let c = p.channel("stable").expect("channel");
    let mut want = Vec::new();
    for e in &c.entries {
        let Some(range) = e.range() else { continue };
        for x in &c.entries {
            let xv = x.bundle.and_then(|b| p.bundles[b].version.as_ref());
            if x.name.value != e.name.value && xv.is_some_and(|xv| range.contains(xv)) {
                want.push((x.name.value.clone(), e.name.value.clone()));
            }
        }
    }
    let got: Vec<(String, String)> = g
        .expanded_edges(EXPANSION_BUDGET)
        .expect("within budget")
        .into_iter()
        .filter(|e| e.kind == EdgeKind::SkipRange)
        .map(|e| (e.from, e.to))
        .collect();
    assert_eq!(got.len(), n * (n - 1) / 2);
    assert_eq!(got, want);
    // The range text is kept as written, and resolves as the version module reads it.
    let range = VersionRange::parse(&g.fans[0].range).expect("valid");
    let to = Version::parse(
        g.nodes
            .iter()
            .find(|node| node.name == g.fans[0].to)
            .and_then(|node| node.version.as_deref())
            .expect("version"),
    )
    .expect("version");
    assert!(!range.contains(&to));
}

#[test]
fn five_thousand_channels_sharing_fifty_bundles() {
    let (channels, bundles) = (5_000, 50);
    let h = catalogs::many_channels(channels, bundles);
    let input = h.file.content.len();
    let v = validate(&h);
    assert!(v.report.valid);
    assert_messages_bounded(&v);
    // The same 48 z-stream gaps in every channel.
    assert_eq!(with_code(&v, Code::ZStreamGap).len(), channels * (bundles - 2));

    let p = v.model.package("shared").expect("package");
    let pg = PackageGraph::new(p);
    assert_eq!(pg.channels.len(), channels);
    assert_eq!(pg.edge_count(), channels * (bundles - 1));
    // Each bundle's channels are listed once for the package, not once per channel.
    assert_eq!(pg.bundle_channels.len(), bundles);
    assert!(pg.bundle_channels.values().all(|cs| cs.len() == channels));
    assert!(pg.channels.iter().flat_map(|c| &c.nodes).all(|node| node.channels.is_none()));
    assert!(json_len(&pg) < 6 * input, "package graph JSON of {} bytes", json_len(&pg));
    let g = graph(&v.model, &h);
    assert_eq!(g.nodes[0].channels.as_ref().map(Vec::len), Some(channels));
    let mm = mermaid(&v.model, "shared").expect("draws");
    assert_eq!(mm.matches("-- replace -->").count(), channels * (bundles - 1));
    assert!(to_dot(&pg.channels).len() < 8 * input);

    let up = path(&v.model, &h, Semantics::V0).expect("a path");
    assert_eq!(up.steps.len(), bundles - 1);
}

#[test]
fn a_replaces_cycle_of_10_000_and_a_bundle_skipping_3_000() {
    let (n, skipped) = (10_000, 3_000);
    let h = catalogs::cycle_and_fan(n, skipped);
    let v = validate(&h);
    assert!(!v.report.valid);
    assert_messages_bounded(&v);
    // opm's message names the whole cycle: capped at 100 names.
    let cycle = with_code(&v, Code::ReplacesCycle);
    assert_eq!(cycle.len(), 1);
    let first = name("cycle", n - 1);
    assert!(
        cycle[0].contains(&format!("detected cycle in replaces chain of upgrade graph: {first} -> ")),
        "{}",
        cycle[0]
    );
    assert!(cycle[0].ends_with(" (and 9,901 more)"), "{}", cycle[0]);
    assert_eq!(v.report.opm_message.as_deref().map(|m| m.contains(" (and 9,901 more)")), Some(true));
    // Every skipped entry but the lowest can only be installed fresh.
    assert_eq!(with_code(&v, Code::UnreachableEntry).len(), skipped - 1);

    let g = graph(&v.model, &h);
    assert!(g.order_error.as_deref().is_some_and(|e| e.starts_with("a cycle exists in the chain of replacement")));
    let fan = v.model.package("fan").expect("fan");
    let fg = ChannelGraph::new(fan, fan.channel("stable").expect("channel"));
    assert_eq!(fg.edges.len(), skipped);
    assert!(mermaid(&v.model, "fan").is_ok());

    // OLM v0 cannot order the cycle; OLM v1 walks it one version at a time, then to the head.
    let err = path(&v.model, &h, Semantics::V0).unwrap_err();
    assert!(err.to_string().starts_with("a cycle exists in the chain of replacement beginning with"), "{err}");
    let up = path(&v.model, &h, Semantics::V1).expect("a path");
    assert!(!up.stranded);
    assert_eq!(up.steps.len(), n);
    let fan_path =
        upgrade_path(fan, fan.channel("stable").expect("channel"), &Start::Bundle(name("fan", 0)), Semantics::V0)
            .expect("a path");
    assert_eq!(fan_path.steps.len(), 1);
    assert_eq!(fan_path.steps[0].edge, EdgeKind::Skips);
}

#[test]
fn twenty_thousand_heads_are_named_a_hundred_at_a_time() {
    let n = 20_000;
    let h = catalogs::many_heads(n);
    let v = validate(&h);
    assert!(!v.report.valid);
    assert_messages_bounded(&v);
    let heads = with_code(&v, Code::MultipleChannelHeads);
    assert_eq!(heads.len(), 1);
    assert!(heads[0].ends_with(" (and 19,900 more)"), "{}", heads[0]);
    let d = v.report.diagnostics.iter().find(|d| d.code == Code::MultipleChannelHeads).expect("finding");
    assert_eq!(d.related.len(), n - 1, "every other head is still located");
    // OLM v0's resolver message lists the chains: capped too.
    let err = path(&v.model, &h, Semantics::V0).unwrap_err().to_string();
    assert!(err.contains("20000 replacement chains were found") && err.ends_with(" (and 19,900 more)"), "{err}");
    assert!(err.len() <= MAX_MESSAGE);
}

#[test]
fn a_blocked_chain_strands_every_entry_below_the_block() {
    let n = 20_000;
    let h = catalogs::blocked_chain(n);
    let v = validate(&h);
    assert!(v.report.valid);
    let stranded: Vec<&str> = with_code(&v, Code::StrandedEntry);
    assert_eq!(stranded.len(), n - 2);
    let up = path(&v.model, &h, Semantics::V0).expect("a path");
    assert!(up.stranded);
    let reason = up.reason.expect("a reason");
    assert_eq!(
        reason,
        format!(
            "\"{}\" would upgrade \"{}\" but carries the olm.deprecated property, which OLM v0 never installs",
            name("chain", n - 2),
            name("chain", n - 3)
        )
    );
    // The lint says what the path says, for every entry (computed for all entries at once).
    assert!(stranded.iter().all(|m| m.contains(&reason)));
    assert!(v.report.diagnostics.iter().all(|d| d.severity != Severity::Error));
}

/// The parser budgets of docs/budgets.md, hit through `load_files`: a finding, not a hang.
mod parser_budgets {
    use super::*;

    fn load_error(path: &str, text: String) -> String {
        let loaded = load_files(&[FileInput::new(path, text.into_bytes())]);
        let errors: Vec<&str> =
            loaded.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.as_str()).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        errors[0].to_string()
    }

    #[test]
    fn yaml_alias_expansion_stops_at_four_million_values() {
        // A billion laughs: 10 aliases per level, 10^10 values if expanded.
        let mut src = String::from("schema: olm.package\nname: foo\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = format!("*a{}", i - 1);
            src.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
        }
        let err = load_error("bomb.yaml", src);
        assert!(err.contains("document expands to more than 4000000 values (too many aliases)"), "{err}");
        // Just under the budget is read: 10^6 values.
        let mut src = String::from("schema: olm.package\nname: foo\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..6 {
            let prev = format!("*a{}", i - 1);
            src.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
        }
        assert_no_error("ok.yaml", src);
    }

    #[test]
    fn yaml_flow_nesting_stops_at_255_levels() {
        // saphyr's scanner counts flow levels in a u8.
        let deep = |n: usize| format!("schema: olm.package\nname: foo\nx: {}{}\n", "[".repeat(n), "]".repeat(n));
        let err = load_error("deep.yaml", deep(256));
        assert!(err.ends_with("yaml: line 3: recursion limit exceeded"), "{err}");
        assert_no_error("ok.yaml", deep(255));
    }

    #[test]
    fn yaml_block_nesting_stops_at_1000_levels() {
        let deep = |n: usize| {
            let mut s = String::from("schema: olm.package\nname: foo\n");
            for i in 0..n {
                s.push_str(&format!("{}a:\n", " ".repeat(i)));
            }
            s.push_str(&format!("{}b\n", " ".repeat(n)));
            s
        };
        let err = load_error("deep.yaml", deep(1_001));
        assert!(err.ends_with("yaml: nesting deeper than 1000 levels"), "{err}");
        assert_no_error("ok.yaml", deep(1_000));
    }

    #[test]
    fn json_nesting_stops_at_1000_levels() {
        let deep = |n: usize| {
            format!("{{\"schema\":\"olm.package\",\"name\":\"foo\",\"x\":{}{}}}\n", "[".repeat(n), "]".repeat(n))
        };
        // Beyond the JSON reader's depth the file is read as YAML, as opm does, for its message.
        let err = load_error("deep.json", deep(1_001));
        assert!(err.ends_with("recursion limit exceeded"), "{err}");
        assert_no_error("ok.json", deep(1_000));
    }

    #[test]
    fn yaml_simple_keys_stop_at_1024_characters() {
        let keyed = |n: usize| format!("schema: olm.package\nname: foo\n{}: v\n", "k".repeat(n));
        let err = load_error("key.yaml", keyed(1_025));
        assert!(err.ends_with("yaml: line 3: simple key expect ':'"), "{err}");
        assert_no_error("ok.yaml", keyed(1_024));
    }

    #[test]
    fn strings_have_no_budget_of_their_own() {
        // A 5 MB description is read whole: strings are bounded by the input only.
        let text = format!("schema: olm.package\nname: foo\ndescription: {}\n", "x".repeat(5_000_000));
        let loaded = load_files(&[FileInput::new("big.yaml", text.into_bytes())]);
        assert!(!loaded.diagnostics.iter().any(|d| d.is_error()));
        assert_eq!(loaded.config.packages[0].description.len(), 5_000_000);
    }

    fn assert_no_error(path: &str, text: String) {
        let loaded = load_files(&[FileInput::new(path, text.into_bytes())]);
        assert!(!loaded.diagnostics.iter().any(|d| d.is_error()), "{:?}", loaded.diagnostics);
    }
}
