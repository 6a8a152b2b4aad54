//! Resolution: `Resolver` (attached catalogs, problems as JSON text), `resolveV1` and the
//! resolution benchmark hook (`__resolveCount`).

use wasm_bindgen::prelude::*;

use super::catalog::Catalog;
use crate::convert::{js_error, to_js, without_position};
use crate::{region, resolve, ALLOCATOR, RESOLVE_REGION_BYTES};

/// Resolution over attached catalogs (loaded `Catalog`s, shared, not copied) and the problem's
/// own inline catalogs.
#[cfg(feature = "resolver")]
#[wasm_bindgen]
pub struct Resolver {
    attached: Vec<crate::cluster::CatalogSource>,
}

#[cfg(feature = "resolver")]
impl Default for Resolver {
    fn default() -> Self {
        Resolver::new()
    }
}

#[cfg(feature = "resolver")]
#[wasm_bindgen]
impl Resolver {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Resolver {
        Resolver { attached: Vec::new() }
    }

    /// Make a loaded catalog visible as catalog source `name` in `namespace` with `priority`.
    pub fn attach(&mut self, catalog: &Catalog, name: String, namespace: String, priority: i32) {
        self.attached.push(crate::cluster::CatalogSource {
            name,
            namespace,
            priority,
            model: catalog.inner.model.clone(),
        });
    }

    /// Resolve a problem the façade wrote as JSON text (`JSON.stringify`), given as its UTF-8
    /// bytes (`TextEncoder`, which copies them in one call; a string argument is copied a
    /// character at a time by the glue): read in one pass, not one property at a time across the
    /// boundary (docs/performance.md, "WebAssembly against native"). `picks`: whether to work out
    /// why each bundle was picked.
    fn run(&self, problem: &[u8], picks: bool) -> Result<resolve::Outcome, JsValue> {
        let problem: crate::cluster::problem_json::ProblemJson = serde_json::from_slice(problem)
            .map_err(|e| js_error("invalid-input", &format!("resolution problem: {}", without_position(&e)), None))?;
        let mut cluster =
            problem.into_cluster().map_err(|e| js_error("invalid-input", &format!("resolution problem: {e}"), None))?;
        cluster.catalogs.extend(self.attached.iter().cloned());
        Ok(resolve::resolve_with(&cluster, resolve::Options { picks, ..resolve::Options::default() }).into())
    }

    /// Resolve a problem given as JSON text: the outcome's answer as JSON text (`{install, errors,
    /// errorType, explanation}`, the installs as [`Rows`]), without its picks, which the
    /// npm façade asks for when they are first read (`picksJson`): most callers never read them,
    /// and working them out and crossing them as JSON was a tenth of a call (docs/performance.md,
    /// "WebAssembly against native").
    #[wasm_bindgen(js_name = resolveJson)]
    pub fn resolve_json(&self, problem: &[u8]) -> Result<String, JsValue> {
        // The snapshot, the variables and the outcome are dropped before this returns.
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        let outcome = self.run(problem, false)?;
        json(&Answer {
            install: Rows(&outcome.install),
            errors: &outcome.errors,
            error_type: outcome.error_type,
            explanation: outcome.explanation.as_ref(),
        })
    }

    /// Resolve a problem given as JSON text again and return its picks (why each bundle was
    /// picked) as JSON text, without their requirement texts (`requiredByJson`).
    #[wasm_bindgen(js_name = picksJson)]
    pub fn picks_json(&self, problem: &[u8]) -> Result<String, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        json(&self.run(problem, true)?.picks)
    }

    /// Resolve a problem given as JSON text again and format its picks' requirement texts (OLM's
    /// constraint messages, which list the candidates): a JSON array with one text (or `null`,
    /// for a pick that was mandatory on its own) per pick (`picksJson`), in order.
    #[wasm_bindgen(js_name = requiredByJson)]
    pub fn required_by_json(&self, problem: &[u8]) -> Result<String, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        let texts: Vec<Option<String>> = self
            .run(problem, true)?
            .picks
            .iter()
            .map(|p| p.required_by.as_ref().map(resolve::Requirement::text))
            .collect();
        json(&texts)
    }

    /// Resolve a problem given as JSON text and render the outcome as the CLI's text.
    #[wasm_bindgen(js_name = resolveText)]
    pub fn resolve_text(&self, problem: &[u8]) -> Result<String, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        Ok(self.run(problem, true)?.to_text())
    }
}

/// What `resolveJson` returns: the outcome without its picks, the installs as [`Rows`].
#[cfg(feature = "resolver")]
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    install: Rows<'a>,
    errors: &'a [String],
    error_type: Option<&'static str>,
    explanation: Option<&'a resolve::Explanation>,
}

/// The installs as `{text, lengths}`: every field of every install, in the order of
/// [`resolve::Install`]'s (`name, package, version, channel, catalog, catalogNamespace, replaces,
/// startingCSV`), written one after the other into `text`, and each one's length in UTF-16 code
/// units (JavaScript's string length; -1 for a field that is null). The façade (pkg/core.js,
/// `resolveOutcome`) cuts the text into the install objects: the engine's `JSON.parse` reads one
/// long string and an array of numbers in half the time it takes for the many short strings
/// (docs/performance.md, "WebAssembly against native").
#[cfg(feature = "resolver")]
struct Rows<'a>(&'a [resolve::Install]);

#[cfg(feature = "resolver")]
impl serde::Serialize for Rows<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut text = String::new();
        let mut lengths: Vec<i64> = Vec::with_capacity(self.0.len() * 8);
        for i in self.0 {
            let fields = [&i.name, &i.package, &i.version, &i.channel, &i.catalog, &i.catalog_namespace];
            let fields = fields.into_iter().map(Some).chain([i.replaces.as_ref(), i.starting_csv.as_ref()]);
            for field in fields {
                match field {
                    Some(f) => {
                        text.push_str(f);
                        lengths.push(f.encode_utf16().count() as i64);
                    }
                    None => lengths.push(-1),
                }
            }
        }
        let mut st = s.serialize_struct("Rows", 2)?;
        st.serialize_field("text", &text)?;
        st.serialize_field("lengths", &lengths)?;
        st.end()
    }
}

/// `value` as JSON text for the façade to parse.
#[cfg(feature = "resolver")]
fn json(value: &impl serde::Serialize) -> Result<String, JsValue> {
    serde_json::to_string(value).map_err(|e| js_error("internal", &format!("cannot convert the result: {e}"), None))
}

/// OLM v1's choice for one package (`{packageName, channels, versionRange,
/// upgradeConstraintPolicy, installedBundle, catalogs}`): `{bundle, version, catalog, ...}`;
/// throws `code: "no-bundle"` with OLM v1's message when nothing (or more than one) qualifies.
#[cfg(feature = "resolver")]
#[wasm_bindgen(js_name = resolveV1)]
pub fn resolve_v1(problem: JsValue) -> Result<JsValue, JsValue> {
    let problem: resolve::v1::V1Problem = serde_wasm_bindgen::from_value(problem)
        .map_err(|e| js_error("invalid-input", &format!("v1 resolution problem: {e}"), None))?;
    let pick = resolve::v1::resolve_v1(&problem).map_err(|e| js_error("no-bundle", &e.to_string(), None))?;
    to_js(&pick)
}

/// Benchmark hook: the resolution alone (`resolve::resolve`, the function the native benchmark
/// times, the picks worked out as there) of a problem given as JSON text, on the attached
/// catalogs; returns the number of installs. The outcome stays in the module: the like-for-like
/// figure beside `__graphsAndPaths` (docs/performance.md, "The targets"). Not part of the API.
#[cfg(all(feature = "resolver", feature = "tools"))]
#[wasm_bindgen]
impl Resolver {
    #[wasm_bindgen(js_name = __resolveCount)]
    pub fn resolve_count(&self, problem: &[u8]) -> Result<usize, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        Ok(self.run(problem, true)?.install.len())
    }
}
