//! SARIF 2.1.0: one run of the tool `olm-catalog`, a rule per code found (sorted), a result per
//! finding with its level (`error`, `warning`, `note` are SARIF's own), its file and region, the
//! JSON pointer as a logical location, and related places as related locations.

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Location};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const HELP: &str = "https://github.com/olm-catalog/olm-catalog/blob/main/docs/diagnostics.md";
const TOOL_URI: &str = "https://www.npmjs.com/package/olm-catalog";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
struct Run<'a> {
    tool: Tool,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Text,
    help_uri: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    level: String,
    message: Text,
    locations: [ResultLocation<'a>; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<RelatedLocation<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultLocation<'a> {
    physical_location: Physical<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    logical_locations: Option<[Logical<'a>; 1]>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Logical<'a> {
    fully_qualified_name: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Physical<'a> {
    artifact_location: Artifact<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct Artifact<'a> {
    uri: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RelatedLocation<'a> {
    id: usize,
    message: Text,
    physical_location: Physical<'a>,
}

fn physical(l: &Location) -> Physical<'_> {
    Physical {
        artifact_location: Artifact { uri: &l.file },
        region: (l.line > 0).then_some(Region { start_line: l.line, start_column: l.column }),
    }
}

fn result(d: &Diagnostic) -> SarifResult<'_> {
    let pointer = &d.location.pointer;
    SarifResult {
        rule_id: d.code.as_str(),
        level: d.severity.to_string(),
        message: Text { text: d.message.clone() },
        locations: [ResultLocation {
            physical_location: physical(&d.location),
            logical_locations: (!pointer.is_empty()).then_some([Logical { fully_qualified_name: pointer }]),
        }],
        related_locations: d
            .related
            .iter()
            .enumerate()
            .map(|(id, r)| RelatedLocation {
                id,
                message: Text { text: r.message.clone() },
                physical_location: physical(&r.location),
            })
            .collect(),
    }
}

/// The SARIF log of `diagnostics`, pretty-printed JSON with a final newline.
pub fn to_sarif(diagnostics: &[Diagnostic]) -> String {
    let mut ids: Vec<&'static str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    crate::sort::sort(&mut ids);
    ids.dedup();
    let rules = ids
        .into_iter()
        .map(|id| Rule { id, short_description: Text { text: id.replace('-', " ") }, help_uri: HELP })
        .collect();
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool { driver: Driver { name: "olm-catalog", information_uri: TOOL_URI, rules } },
            results: diagnostics.iter().map(result).collect(),
        }],
    };
    let mut out = serde_json::to_string_pretty(&log).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report_formats::testing::sample;

    #[test]
    fn a_log_has_the_required_structure_of_sarif_2_1_0() {
        let log: serde_json::Value = serde_json::from_str(&to_sarif(&sample())).unwrap();
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["$schema"], SCHEMA);
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "olm-catalog");
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        assert_eq!(results[0]["level"], "error");
        assert_eq!(results[2]["level"], "note");
        assert_eq!(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 3);
        assert_eq!(results[0]["relatedLocations"][0]["message"]["text"], "first defined here");
        assert!(results[2]["locations"][0]["physicalLocation"].get("region").is_none(), "line 0: no region");
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), 3);
    }

    #[test]
    fn no_findings_is_still_a_run() {
        let log: serde_json::Value = serde_json::from_str(&to_sarif(&[])).unwrap();
        assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    }
}
