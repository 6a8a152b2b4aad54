//! The OLM v0 resolver over a fuzzed problem: the bytes are decoded (with `arbitrary`) into a
//! small cluster — up to 3 catalogs of up to 3 packages, channels with replaces, skips and
//! skipRanges, bundles with versions and dependency properties (GVKs, packages, labels,
//! `olm.constraint` with CEL and compounds), installed CSVs, subscriptions — drawn mostly from
//! small vocabularies so that names meet, with free text as an escape hatch. Resolution must
//! return (a resolution or an error), and its outcome must render as text and JSON.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use olm_catalog::cluster::problem_json::{
    BundleJson, CatalogJson, ChannelJson, EntryJson, InstalledJson, PackageJson, ProblemJson, PropertyJson,
};
use olm_catalog::resolve::{resolve, Outcome};
use olm_catalog::{Subscription, SystemConstraint};
use serde_json::{json, Value};

const PACKAGES: [&str; 4] = ["etcd", "prometheus", "vault", "Bad_Name"];
const CHANNELS: [&str; 3] = ["stable", "alpha", ""];
const VERSIONS: [&str; 9] = ["0.1.0", "1.0.0", "1.0.1", "1.1.0-rc.1", "2.0.0", "1.0.0+build.1", "", "v1.2", "x"];
const RANGES: [&str; 8] = [">=1.0.0 <2.0.0", "<1.0.1", ">=0.0.0", "1.x", ">1.0.0 || <0.1.0", "!1.0.1", "", "bad"];
const GROUPS: [&str; 3] = ["etcd.io", "monitoring.coreos.com", "vault.io"];
const KINDS: [&str; 3] = ["EtcdCluster", "Prometheus", "Vault"];
const LABELS: [&str; 3] = ["stable", "beta", ""];
const RULES: [&str; 6] = [
    "properties.exists(p, p.type == 'olm.label' && p.value.label == 'stable')",
    "properties.exists(p, p.type == 'olm.package' && semver_compare(p.value.version, '1.0.0') >= 0)",
    "properties.all(p, p.type != 'olm.gvk')",
    "true",
    "properties.size() > 100",
    "undefined_var == 1",
];

fn pick<T: Copy>(list: &[T], i: u8) -> T {
    list[i as usize % list.len()]
}

fn bundle_name(pkg: u8, i: u8) -> String {
    format!("{}.v{}", pick(&PACKAGES, pkg), i % 6)
}

fn bounded<T>(v: &[T], n: usize) -> &[T] {
    &v[..v.len().min(n)]
}

#[derive(Arbitrary, Debug)]
enum Constraint {
    Gvk(u8),
    Package(u8, u8),
    Cel(u8),
    All(Vec<Constraint>),
    Any(Vec<Constraint>),
    Not(Vec<Constraint>),
    Raw(String),
}

impl Constraint {
    fn json(&self, depth: usize) -> Value {
        let list = |cs: &[Constraint]| {
            let items: Vec<Value> =
                if depth > 3 { Vec::new() } else { bounded(cs, 3).iter().map(|c| c.json(depth + 1)).collect() };
            json!({"constraints": items})
        };
        match self {
            Constraint::Gvk(i) => {
                json!({"gvk": {"group": pick(&GROUPS, *i), "version": "v1", "kind": pick(&KINDS, *i)}})
            }
            Constraint::Package(p, r) => {
                json!({"package": {"packageName": pick(&PACKAGES, *p), "versionRange": pick(&RANGES, *r)}})
            }
            Constraint::Cel(i) => json!({"cel": {"rule": pick(&RULES, *i)}, "failureMessage": "needs it"}),
            Constraint::All(cs) => json!({"all": list(cs)}),
            Constraint::Any(cs) => json!({"any": list(cs)}),
            Constraint::Not(cs) => json!({"not": list(cs)}),
            Constraint::Raw(s) => serde_json::from_str(s).unwrap_or(Value::String(s.clone())),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Prop {
    Package(u8, u8),
    Gvk(u8),
    GvkRequired(u8),
    PackageRequired(u8, u8),
    Label(u8),
    Constraint(Constraint),
    Deprecated,
    Other(String, String),
}

impl Prop {
    fn json(&self) -> PropertyJson {
        let (t, value) = match self {
            Prop::Package(p, v) => {
                ("olm.package", json!({"packageName": pick(&PACKAGES, *p), "version": pick(&VERSIONS, *v)}))
            }
            Prop::Gvk(i) => ("olm.gvk", json!({"group": pick(&GROUPS, *i), "version": "v1", "kind": pick(&KINDS, *i)})),
            Prop::GvkRequired(i) => {
                ("olm.gvk.required", json!({"group": pick(&GROUPS, *i), "version": "v1", "kind": pick(&KINDS, *i)}))
            }
            Prop::PackageRequired(p, r) => {
                ("olm.package.required", json!({"packageName": pick(&PACKAGES, *p), "versionRange": pick(&RANGES, *r)}))
            }
            Prop::Label(i) => ("olm.label", json!({"label": pick(&LABELS, *i)})),
            Prop::Constraint(c) => ("olm.constraint", c.json(0)),
            Prop::Deprecated => ("olm.deprecated", json!({})),
            Prop::Other(t, v) => {
                return PropertyJson {
                    type_: t.clone(),
                    value: serde_json::from_str(v).unwrap_or(Value::String(v.clone())),
                }
            }
        };
        PropertyJson { type_: t.to_string(), value }
    }
}

fn props(p: &[Prop]) -> Vec<PropertyJson> {
    bounded(p, 4).iter().map(Prop::json).collect()
}

#[derive(Arbitrary, Debug)]
struct Entry {
    bundle: u8,
    replaces: Option<u8>,
    skips: Vec<u8>,
    skip_range: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct Channel {
    name: u8,
    entries: Vec<Entry>,
}

#[derive(Arbitrary, Debug)]
struct Bundle {
    index: u8,
    version: u8,
    properties: Vec<Prop>,
}

#[derive(Arbitrary, Debug)]
struct Package {
    name: u8,
    default_channel: Option<u8>,
    channels: Vec<Channel>,
    bundles: Vec<Bundle>,
}

#[derive(Arbitrary, Debug)]
struct Catalog {
    priority: i8,
    global: bool,
    packages: Vec<Package>,
}

#[derive(Arbitrary, Debug)]
struct Installed {
    package: u8,
    index: u8,
    version: u8,
    properties: Vec<Prop>,
    failed: bool,
    replaces: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct Sub {
    package: u8,
    channel: Option<u8>,
    catalog: u8,
    installed: Option<u8>,
    starting: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct Problem {
    catalogs: Vec<Catalog>,
    installed: Vec<Installed>,
    subscriptions: Vec<Sub>,
    prohibited: Vec<(u8, u8)>,
    global_visible: bool,
    fail_forward: bool,
}

fn package(p: &Package) -> PackageJson {
    let channels = bounded(&p.channels, 3)
        .iter()
        .map(|c| ChannelJson {
            name: pick(&CHANNELS, c.name).to_string(),
            entries: bounded(&c.entries, 6)
                .iter()
                .map(|e| EntryJson {
                    name: bundle_name(p.name, e.bundle),
                    replaces: e.replaces.map(|r| bundle_name(p.name, r)),
                    skips: bounded(&e.skips, 3).iter().map(|s| bundle_name(p.name, *s)).collect(),
                    skip_range: e.skip_range.map(|r| pick(&RANGES, r).to_string()),
                })
                .collect(),
        })
        .collect();
    let bundles = bounded(&p.bundles, 6)
        .iter()
        .map(|b| BundleJson {
            name: bundle_name(p.name, b.index),
            version: pick(&VERSIONS, b.version).to_string(),
            properties: props(&b.properties),
        })
        .collect();
    PackageJson {
        name: pick(&PACKAGES, p.name).to_string(),
        default_channel: p.default_channel.map(|c| pick(&CHANNELS, c).to_string()),
        channels,
        bundles,
    }
}

fn problem(p: &Problem) -> ProblemJson {
    let catalog_name = |i: u8| format!("cat{}", i % 3);
    let ns = |global: bool| if global { "olm" } else { "ns" }.to_string();
    ProblemJson {
        namespace: "ns".into(),
        resolution_namespaces: p.global_visible.then(|| vec!["ns".into(), "olm".into()]),
        catalogs: bounded(&p.catalogs, 3)
            .iter()
            .enumerate()
            .map(|(i, c)| CatalogJson {
                name: catalog_name(i as u8),
                namespace: ns(c.global),
                priority: c.priority as i32,
                packages: bounded(&c.packages, 3).iter().map(package).collect(),
                path: None,
            })
            .collect(),
        installed: bounded(&p.installed, 3)
            .iter()
            .map(|i| InstalledJson {
                name: bundle_name(i.package, i.index),
                version: pick(&VERSIONS, i.version).to_string(),
                properties: props(&i.properties),
                phase: Some(if i.failed { "Failed" } else { "Succeeded" }.into()),
                replaces: i.replaces.map(|r| bundle_name(i.package, r)),
            })
            .collect(),
        subscriptions: bounded(&p.subscriptions, 4)
            .iter()
            .enumerate()
            .map(|(n, s)| Subscription {
                name: format!("sub{n}"),
                package: pick(&PACKAGES, s.package).to_string(),
                channel: s.channel.map(|c| pick(&CHANNELS, c).to_string()).unwrap_or_default(),
                catalog: catalog_name(s.catalog),
                catalog_namespace: ns(s.catalog & 0x80 != 0),
                installed_csv: s.installed.map(|i| bundle_name(s.package, i)),
                starting_csv: s.starting.map(|i| bundle_name(s.package, i)),
            })
            .collect(),
        system_constraints: bounded(&p.prohibited, 2)
            .iter()
            .map(|(pkg, i)| SystemConstraint { bundle: bundle_name(*pkg, *i), message: "prohibited".into() })
            .collect(),
        fail_forward: p.fail_forward,
    }
}

fuzz_target!(|p: Problem| {
    let Ok(cluster) = problem(&p).into_cluster() else { return };
    let outcome = Outcome::from(resolve(&cluster));
    let _ = outcome.to_text();
    serde_json::to_string(&outcome).expect("the outcome serializes");
});
