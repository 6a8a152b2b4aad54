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

    /// Resolve a problem given as JSON text: `[answer, text, lengths]`, the outcome's answer as
    /// JSON text (`{errors, errorType, explanation}`) and its installs as [`Rows`] (their
    /// fields' text and lengths, which cross as a string and an `Int32Array`, not as JSON to
    /// parse), without its picks, which the npm façade asks for when they are first read
    /// (`picksJson`): most callers never read them, and working them out and crossing them as
    /// JSON was a tenth of a call (docs/performance.md, "WebAssembly against native").
    #[wasm_bindgen(js_name = resolveRows)]
    pub fn resolve_rows(&self, problem: &[u8]) -> Result<js_sys::Array, JsValue> {
        // The snapshot, the variables and the outcome are dropped before this returns.
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        let outcome = self.run(problem, false)?;
        let answer = json(&Answer {
            errors: &outcome.errors,
            error_type: outcome.error_type,
            explanation: outcome.explanation.as_ref(),
        })?;
        let rows = Rows::of(&outcome.install);
        let lengths = js_sys::Int32Array::from(&rows.lengths[..]);
        Ok(js_sys::Array::of3(&answer.into(), &rows.text.into(), &lengths.into()))
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

/// The outcome's answer but its installs (`resolveRows`' first part).
#[cfg(feature = "resolver")]
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    errors: &'a [String],
    error_type: Option<&'static str>,
    explanation: Option<&'a resolve::Explanation>,
}

/// The installs as a text and lengths: every field of every install, in the order of
/// [`resolve::Install`]'s (`name, package, version, channel, catalog, catalogNamespace, replaces,
/// startingCSV`), written one after the other into `text`, and each one's length in UTF-16 code
/// units (JavaScript's string length; -1 for a field that is null). The façade (pkg/core.js,
/// `resolveOutcome`) cuts the text into the install objects: one string and one typed array
/// cross the boundary, where the installs as JSON were many short strings for the engine to
/// parse (docs/performance.md, "WebAssembly against native").
#[cfg(feature = "resolver")]
struct Rows {
    text: String,
    lengths: Vec<i32>,
}

#[cfg(feature = "resolver")]
impl Rows {
    fn of(installs: &[resolve::Install]) -> Rows {
        let mut rows = Rows { text: String::new(), lengths: Vec::with_capacity(installs.len() * 8) };
        for i in installs {
            let fields = [&i.name, &i.package, &i.version, &i.channel, &i.catalog, &i.catalog_namespace];
            let fields = fields.into_iter().map(Some).chain([i.replaces.as_ref(), i.starting_csv.as_ref()]);
            for field in fields {
                rows.lengths.push(field.map_or(-1, |f| {
                    rows.text.push_str(f);
                    utf16_len(f)
                }));
            }
        }
        rows
    }
}

/// The length of `s` in UTF-16 code units; an ASCII text's is its length in bytes.
#[cfg(feature = "resolver")]
fn utf16_len(s: &str) -> i32 {
    let n = if s.is_ascii() { s.len() } else { s.encode_utf16().count() };
    i32::try_from(n).unwrap_or(i32::MAX)
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
