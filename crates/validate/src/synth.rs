//! Synthetic File-Based Catalogs of any size, for benchmarks, tests and examples: `N` packages
//! of `M` bundles each, with the shapes real catalogs have (replaces chains, `skips`, bounded
//! `skipRange` fans, several channels, dependencies between packages through
//! `olm.package.required`, `olm.gvk.required` and `olm.constraint`, deprecations), written as
//! opm-style YAML or JSON files, one `<package>/catalog.yaml` per package.
//!
//! The output is a pure function of [`Synth`]: the same options give byte-identical files. The
//! random choices come from a small xorshift generator seeded per package from
//! [`Synth::seed`] and the package's index, so package `p` is the same whatever the number of
//! packages, and catalogs of different sizes have the same mix of shapes (which is what a scale
//! curve needs). Every catalog generated is valid: dependencies point to earlier packages (a
//! DAG, each satisfiable), versions grow along every channel, every name is unique.
//!
//! It only produces text: [`FileInput`]s for [`load_files`](crate::load_files) and friends. It
//! reads nothing and knows nothing of the model.
//!
//! ```
//! use olm_catalog::synth::Synth;
//! use olm_catalog::validate_files;
//!
//! let files = Synth { packages: 3, bundles_per_package: 5, ..Synth::default() }.files();
//! assert_eq!(files.len(), 3);
//! let validated = validate_files(&files);
//! assert!(validated.report.valid, "{:?}", validated.report.diagnostics);
//! assert_eq!(validated.model.packages.iter().map(|p| p.bundles.len()).sum::<usize>(), 15);
//! ```

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use crate::declcfg::FileInput;

/// The file format of a generated catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Block YAML documents separated by `---`, keys sorted (as `opm render -o yaml` writes).
    #[default]
    Yaml,
    /// A stream of pretty-printed JSON objects (as `opm render -o json` writes).
    Json,
}

/// What to generate. `Synth::default()` is 50 packages × 20 bundles, YAML, seed 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synth {
    /// How many packages (`N`).
    pub packages: usize,
    /// How many bundles each package has (`M`).
    pub bundles_per_package: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// YAML or JSON.
    pub format: Format,
    /// Give every bundle a small `olm.csv.metadata` property (display name, description,
    /// install modes, owned CRDs), as real catalogs of that flavour have.
    pub csv_metadata: bool,
}

impl Default for Synth {
    fn default() -> Synth {
        Synth { packages: 50, bundles_per_package: 20, seed: 1, format: Format::Yaml, csv_metadata: true }
    }
}

impl Synth {
    /// A catalog of about `total` bundles with the default mix: packages of 20 bundles
    /// (`total / 20` of them, at least one), as in community catalogs.
    pub fn with_bundles(total: usize) -> Synth {
        let m = 20;
        Synth { packages: total.div_ceil(m).max(1), bundles_per_package: m, ..Synth::default() }
    }

    /// The name of package `p`.
    pub fn package_name(p: usize) -> String {
        format!("synth-{p:06}")
    }

    /// The generated files, one per package, in package order.
    pub fn files(&self) -> Vec<FileInput> {
        (0..self.packages).map(|p| self.package_file(p)).collect()
    }

    /// The file of package `p` (`<name>/catalog.yaml` or `.json`).
    pub fn package_file(&self, p: usize) -> FileInput {
        let blobs = PackagePlan::new(self, p).blobs(self);
        let name = Self::package_name(p);
        match self.format {
            Format::Yaml => FileInput::new(format!("{name}/catalog.yaml"), to_yaml(&blobs)),
            Format::Json => FileInput::new(format!("{name}/catalog.json"), to_json(&blobs)),
        }
    }
}

/// xorshift64*: small, fast, good enough to vary shapes; never zero.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    /// A generator for `stream` under `seed` (splitmix64 of both, so neighbouring streams differ).
    fn new(seed: u64, stream: u64) -> Rng {
        let mut z = seed.wrapping_add(stream.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// 64 hex digits, for an image digest.
    fn digest(&mut self) -> String {
        let mut s = String::with_capacity(64);
        for _ in 0..4 {
            let _ = write!(s, "{:016x}", self.next());
        }
        s
    }
}

/// How package `p` depends on an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dependency {
    /// `olm.package.required` on package `q`, any version from 1.0.0.
    Package(usize),
    /// `olm.gvk.required` on the API package `q` provides.
    Gvk(usize),
    /// `olm.constraint`: all of (package `q`, the API of package `q`).
    Constraint(usize),
}

/// The random choices for one package, drawn once.
struct PackagePlan {
    p: usize,
    name: String,
    /// Dependency of the bundles from index `dependency.1` on.
    dependency: Option<(Dependency, usize)>,
    /// Every bundle's image digest and its operator image digest.
    digests: Vec<(String, String)>,
}

/// Dependencies point at most this many packages back: a DAG with short chains.
const DEPENDENCY_WINDOW: usize = 50;

impl PackagePlan {
    fn new(s: &Synth, p: usize) -> PackagePlan {
        let mut rng = Rng::new(s.seed, p as u64);
        let m = s.bundles_per_package;
        let dependency = (p > 0).then(|| {
            let q = p - 1 - rng.below(p.min(DEPENDENCY_WINDOW));
            let from = rng.below(m / 2 + 1);
            let kind = match rng.below(100) {
                0..15 => Some(Dependency::Package(q)),
                15..30 => Some(Dependency::Gvk(q)),
                30..35 => Some(Dependency::Constraint(q)),
                _ => None,
            };
            kind.map(|k| (k, from))
        });
        let digests = (0..m).map(|_| (rng.digest(), rng.digest())).collect();
        PackagePlan { p, name: Synth::package_name(p), dependency: dependency.flatten(), digests }
    }

    /// The version of bundle `i`: `1.<i/10>.<i%10>`.
    fn version(i: usize) -> String {
        format!("1.{}.{}", i / 10, i % 10)
    }

    fn bundle_name(&self, i: usize) -> String {
        format!("{}.v{}", self.name, Self::version(i))
    }

    /// The API package `q` provides: `Widget` in `<name>.example.com/v1`.
    fn gvk(q: usize) -> Value {
        json!({"group": format!("{}.example.com", Synth::package_name(q)), "kind": "Widget", "version": "v1"})
    }

    fn channels(&self, m: usize) -> Vec<(&'static str, usize)> {
        let mut channels = vec![("stable", 0)];
        if m >= 4 {
            channels.push(("fast", m / 2));
        }
        if m >= 3 && self.p % 3 == 0 {
            channels.push(("candidate", m - m / 3));
        }
        channels
    }

    fn blobs(&self, s: &Synth) -> Vec<Value> {
        let m = s.bundles_per_package;
        let channels = self.channels(m);
        let default = if self.p % 10 == 4 && channels.len() > 1 { channels[1].0 } else { "stable" };
        let mut blobs = vec![json!({
            "schema": "olm.package",
            "name": self.name,
            "defaultChannel": default,
            "description": format!("Synthetic operator number {}.", self.p),
        })];
        for &(channel, first) in &channels {
            blobs.push(self.channel(channel, first, m));
        }
        blobs.extend((0..m).map(|i| self.bundle(s, i)));
        if let Some(d) = self.deprecations(&channels, m) {
            blobs.push(d);
        }
        blobs
    }

    /// A channel of bundles `first..m`: each replaces the one before it (the first replaces
    /// nothing), except every fifth, which replaces the one before that and skips the one in
    /// between; every fourth has a skipRange over the (up to) eight versions before it.
    fn channel(&self, channel: &str, first: usize, m: usize) -> Value {
        let entries: Vec<Value> = (first..m)
            .map(|i| {
                let mut e = Map::new();
                e.insert("name".into(), self.bundle_name(i).into());
                if i % 5 == 0 && i >= first + 2 {
                    // Skip a bad release: replace the one before it, skip it.
                    e.insert("replaces".into(), self.bundle_name(i - 2).into());
                    e.insert("skips".into(), json!([self.bundle_name(i - 1)]));
                } else if i > first {
                    e.insert("replaces".into(), self.bundle_name(i - 1).into());
                }
                if i % 4 == 3 {
                    let range = format!(">={} <{}", Self::version(i.saturating_sub(8)), Self::version(i));
                    e.insert("skipRange".into(), range.into());
                }
                Value::Object(e)
            })
            .collect();
        json!({"schema": "olm.channel", "package": self.name, "name": channel, "entries": entries})
    }

    fn bundle(&self, s: &Synth, i: usize) -> Value {
        let version = Self::version(i);
        let (bundle_digest, operator_digest) = &self.digests[i];
        let image = format!("quay.io/synth/{}-bundle@sha256:{bundle_digest}", self.name);
        let operator = format!("quay.io/synth/{}@sha256:{operator_digest}", self.name);
        let mut properties = vec![json!({"type": "olm.gvk", "value": Self::gvk(self.p)})];
        properties.push(json!({"type": "olm.package", "value": {"packageName": self.name, "version": version}}));
        if let Some((dependency, from)) = self.dependency {
            if i >= from {
                properties.push(dependency_property(dependency));
            }
        }
        if s.csv_metadata {
            properties.push(self.csv_metadata(&operator));
        }
        json!({
            "schema": "olm.bundle",
            "package": self.name,
            "name": self.bundle_name(i),
            "image": image,
            "properties": properties,
            "relatedImages": [{"name": "operator", "image": operator}, {"name": "", "image": image}],
        })
    }

    fn csv_metadata(&self, operator: &str) -> Value {
        let gvk = Self::gvk(self.p);
        let crd = format!("widgets.{}", gvk["group"].as_str().unwrap_or_default());
        json!({"type": "olm.csv.metadata", "value": {
            "annotations": {"capabilities": "Basic Install", "containerImage": operator},
            "apiServiceDefinitions": {},
            "crdDescriptions": {"owned": [{"name": crd, "version": "v1", "kind": "Widget", "displayName": "Widget"}]},
            "description": format!("Operator {} manages widgets. It is synthetic: generated for benchmarks.", self.p),
            "displayName": format!("Synthetic operator {}", self.p),
            "installModes": [
                {"supported": true, "type": "OwnNamespace"},
                {"supported": true, "type": "SingleNamespace"},
                {"supported": false, "type": "MultiNamespace"},
                {"supported": true, "type": "AllNamespaces"},
            ],
            "keywords": ["synthetic", "widgets"],
            "maturity": "stable",
            "provider": {"name": "Synth"},
        }})
    }

    /// Every seventh package deprecates its two oldest bundles; every thirteenth also its `fast`
    /// channel; every twenty-ninth the whole package.
    fn deprecations(&self, channels: &[(&str, usize)], m: usize) -> Option<Value> {
        let mut entries = Vec::new();
        if self.p % 7 == 3 {
            for i in 0..m.min(2) {
                entries.push(json!({
                    "reference": {"schema": "olm.bundle", "name": self.bundle_name(i)},
                    "message": format!("{} is too old; upgrade.", self.bundle_name(i)),
                }));
            }
        }
        if self.p % 13 == 5 && channels.iter().any(|c| c.0 == "fast") {
            entries.push(json!({"reference": {"schema": "olm.channel", "name": "fast"}, "message": "use stable"}));
        }
        if self.p % 29 == 1 {
            entries.push(json!({"reference": {"schema": "olm.package"}, "message": "this package is retired"}));
        }
        (!entries.is_empty()).then(|| json!({"schema": "olm.deprecations", "package": self.name, "entries": entries}))
    }
}

fn dependency_property(d: Dependency) -> Value {
    match d {
        Dependency::Package(q) => json!({"type": "olm.package.required",
            "value": {"packageName": Synth::package_name(q), "versionRange": ">=1.0.0"}}),
        Dependency::Gvk(q) => json!({"type": "olm.gvk.required", "value": PackagePlan::gvk(q)}),
        Dependency::Constraint(q) => json!({"type": "olm.constraint", "value": {
            "failureMessage": format!("requires {}", Synth::package_name(q)),
            "all": {"constraints": [
                {"package": {"packageName": Synth::package_name(q), "versionRange": ">=1.0.0"}},
                {"gvk": PackagePlan::gvk(q)},
            ]},
        }}),
    }
}

fn to_json(blobs: &[Value]) -> String {
    let mut out = String::new();
    for b in blobs {
        out.push_str(&serde_json::to_string_pretty(b).unwrap_or_default());
        out.push('\n');
    }
    out
}

fn to_yaml(blobs: &[Value]) -> String {
    let mut out = String::new();
    for b in blobs {
        out.push_str("---\n");
        yaml_value(&mut out, b, 0);
    }
    out
}

/// A value in block style at `indent` (the caller has written the key or `- ` before it when
/// it is a scalar or an empty collection; maps and lists start on their own lines).
fn yaml_value(out: &mut String, v: &Value, indent: usize) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 || !out.ends_with("- ") {
                    out.push_str(&" ".repeat(indent));
                }
                out.push_str(k);
                out.push(':');
                yaml_child(out, x, indent);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for x in items {
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                match x {
                    Value::Object(m) if !m.is_empty() => yaml_value(out, x, indent + 2),
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        yaml_value(out, x, indent + 2)
                    }
                    scalar => {
                        yaml_scalar(out, scalar);
                        out.push('\n');
                    }
                }
            }
        }
        scalar => {
            yaml_scalar(out, scalar);
            out.push('\n');
        }
    }
}

/// What follows `key:`: a scalar on the same line, a map indented below, a list at the key's
/// own indentation (as go-yaml writes it).
fn yaml_child(out: &mut String, x: &Value, indent: usize) {
    match x {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            yaml_value(out, x, indent + 2);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            yaml_value(out, x, indent);
        }
        scalar => {
            out.push(' ');
            yaml_scalar(out, scalar);
            out.push('\n');
        }
    }
}

fn yaml_scalar(out: &mut String, v: &Value) {
    match v {
        Value::String(s) if plain(s) => out.push_str(s),
        Value::String(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
        other => out.push_str(&other.to_string()),
    }
}

/// A string YAML 1.1 reads back as the same string when written plain: starts with a letter,
/// has no indicator or space, and is not a boolean or null word.
fn plain(s: &str) -> bool {
    let special = ["y", "yes", "n", "no", "true", "false", "on", "off", "null"];
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "._/@-".contains(c))
        && !special.iter().any(|w| w.eq_ignore_ascii_case(s))
}

#[cfg(test)]
mod tests {
    //! The generator's promises: deterministic, the requested size, valid, every shape present.

    use super::*;
    use crate::validate::validate_files;

    fn text(files: &[FileInput]) -> String {
        files.iter().map(|f| String::from_utf8_lossy(&f.content).into_owned()).collect()
    }

    #[test]
    fn the_same_options_give_the_same_bytes_and_package_p_does_not_depend_on_n() {
        let small = Synth { packages: 5, ..Synth::default() }.files();
        let big = Synth { packages: 40, ..Synth::default() }.files();
        assert_eq!(text(&small), text(&Synth { packages: 5, ..Synth::default() }.files()));
        assert_eq!(text(&small), text(&big[..5]));
        let other_seed = Synth { packages: 5, seed: 2, ..Synth::default() }.files();
        assert_ne!(text(&small), text(&other_seed));
    }

    #[test]
    fn catalogs_of_either_format_are_valid_and_have_n_times_m_bundles() {
        for format in [Format::Yaml, Format::Json] {
            let s = Synth { packages: 60, bundles_per_package: 12, format, ..Synth::default() };
            let v = validate_files(&s.files());
            let errors: Vec<_> = v.report.diagnostics.iter().filter(|d| d.severity == crate::Severity::Error).collect();
            assert!(v.report.valid && errors.is_empty(), "{format:?}: {errors:#?}");
            assert_eq!(v.model.packages.len(), 60);
            assert_eq!(v.model.packages.iter().map(|p| p.bundles.len()).sum::<usize>(), 720);
        }
    }

    #[test]
    fn yaml_and_json_give_the_same_model() {
        let yaml = Synth { packages: 8, ..Synth::default() };
        let json = Synth { format: Format::Json, ..yaml.clone() };
        let (a, b) = (validate_files(&yaml.files()).model, validate_files(&json.files()).model);
        for (pa, pb) in a.packages.iter().zip(&b.packages) {
            assert_eq!(pa.name, pb.name);
            let names = |p: &crate::model::Package| {
                p.channels.iter().flat_map(|c| c.entries.iter().map(|e| e.name.value.clone())).collect::<Vec<_>>()
            };
            assert_eq!(names(pa), names(pb));
            let props = |p: &crate::model::Package| p.bundles.iter().map(|b| b.properties.clone()).collect::<Vec<_>>();
            assert_eq!(props(pa), props(pb));
        }
    }

    #[test]
    fn every_shape_appears_in_a_catalog_of_a_hundred_packages() {
        let files = Synth { packages: 100, ..Synth::default() }.files();
        let all = text(&files);
        for needle in ["replaces:", "skips:", "skipRange:", "name: candidate", "defaultChannel: fast"] {
            assert!(all.contains(needle), "no {needle:?}");
        }
        let model = validate_files(&files).model;
        let bundles = || model.packages.iter().flat_map(|p| &p.bundles);
        for t in ["olm.package.required", "olm.gvk.required", "olm.constraint", "olm.csv.metadata"] {
            assert!(bundles().any(|b| b.raw_properties.iter().any(|p| p.type_.value == t)), "no {t}");
        }
        assert!(bundles().any(|b| b.deprecation.is_some()));
        assert!(model.packages.iter().any(|p| p.deprecation.is_some()));
        assert!(model.packages.iter().flat_map(|p| &p.channels).any(|c| c.deprecation.is_some()));
        assert!(model.packages.iter().all(|p| p.channels.len() >= 2));
        assert!(model.packages.iter().any(|p| p.channels.len() == 3));
    }

    #[test]
    fn dependencies_point_to_earlier_packages_within_the_window() {
        for p in 1..300 {
            let plan = PackagePlan::new(&Synth::default(), p);
            if let Some((Dependency::Package(q) | Dependency::Gvk(q) | Dependency::Constraint(q), _)) = plan.dependency
            {
                assert!(q < p && p - q <= DEPENDENCY_WINDOW, "{p} -> {q}");
            }
        }
    }

    #[test]
    fn with_bundles_rounds_up_to_whole_packages() {
        let s = Synth::with_bundles(1_000);
        assert_eq!((s.packages, s.bundles_per_package), (50, 20));
        assert_eq!(Synth::with_bundles(1).packages, 1);
        assert_eq!(Synth::with_bundles(0).packages, 1);
    }
}
