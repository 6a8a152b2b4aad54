//! The façade's conventions, shared by every API area: errors as JS `Error`s with a stable `code`
//! (`js_error`), results as plain JSON-compatible JS values (`to_js`), file lists and contents
//! read from JS (`files_from_js`, `content_from_js`), option objects checked for unknown keys
//! (`known_fields`), JSON reading errors without positions (`without_position`).

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::declcfg::FileInput;

/// A JS `Error` with `name = "OlmCatalogError"`, a stable `code`, and optional extra fields.
pub(crate) fn js_error(code: &str, message: &str, extra: Option<(&str, JsValue)>) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name("OlmCatalogError");
    let _ = js_sys::Reflect::set(&err, &"code".into(), &code.into());
    if let Some((k, v)) = extra {
        let _ = js_sys::Reflect::set(&err, &k.into(), &v);
    }
    err.into()
}

/// A JSON reading error's message without its line and column: the text was written by
/// `JSON.stringify` from the caller's object, so a position in it would mean nothing to them.
#[cfg(feature = "resolver")]
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    message.strip_suffix(&position).map(str::to_string).unwrap_or(message)
}

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&ser).map_err(|e| js_error("internal", &format!("cannot convert the result: {e}"), None))
}

/// Read `[{path, content}]` where content is a string or a `Uint8Array`.
pub(crate) fn files_from_js(files: &JsValue) -> Result<Vec<FileInput>, JsValue> {
    if !js_sys::Array::is_array(files) {
        return Err(js_error("invalid-input", "expected an array of {path, content} objects", None));
    }
    let arr = js_sys::Array::from(files);
    let mut out = Vec::with_capacity(arr.length() as usize);
    for (i, item) in arr.iter().enumerate() {
        let path = js_sys::Reflect::get(&item, &"path".into()).ok().and_then(|p| p.as_string());
        let Some(path) = path else {
            return Err(js_error("invalid-input", &format!("files[{i}].path must be a string"), None));
        };
        let content = js_sys::Reflect::get(&item, &"content".into()).unwrap_or(JsValue::UNDEFINED);
        let bytes = content_from_js(&content, &format!("files[{i}].content"))?;
        out.push(FileInput::new(path.trim_start_matches("./").to_string(), bytes));
    }
    Ok(out)
}

/// A file's content: a string or a `Uint8Array` (`what` names it in the error).
pub(crate) fn content_from_js(content: &JsValue, what: &str) -> Result<Vec<u8>, JsValue> {
    if let Some(s) = content.as_string() {
        Ok(s.into_bytes())
    } else if let Some(bytes) = content.dyn_ref::<js_sys::Uint8Array>() {
        // Copied once, straight into WebAssembly memory (`Uint8Array::new` would copy it in JS first).
        Ok(bytes.to_vec())
    } else {
        Err(js_error("invalid-input", &format!("{what} must be a string or a Uint8Array"), None))
    }
}

/// `value` as an object whose keys are all `known`, or an `invalid-input` error naming `what`.
pub(crate) fn known_fields(value: &JsValue, known: &[&str], what: &str) -> Result<(), JsValue> {
    let Some(obj) = value.dyn_ref::<js_sys::Object>().filter(|_| value.is_object() && !js_sys::Array::is_array(value))
    else {
        return Err(js_error("invalid-input", &format!("{what} must be an object"), None));
    };
    let keys = js_sys::Object::keys(obj);
    if let Some(k) = keys.iter().filter_map(|k| k.as_string()).find(|k| !known.contains(&k.as_str())) {
        let hint = if k == "path" { " (pass a loaded catalog as `catalog`)" } else { "" };
        return Err(js_error("invalid-input", &format!("{what}: unknown field `{k}`{hint}"), None));
    }
    Ok(())
}
