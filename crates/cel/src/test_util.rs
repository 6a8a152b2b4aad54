//! Helpers shared by the unit tests of this folder: evaluate a rule against properties, get a
//! rule's compile error text, run deep cases on a big stack.

use serde_json::Value as Json;

use super::{CelError, CelRule};

/// Evaluates `rule` against `(type, value)` properties; panics if it does not compile.
pub(super) fn eval(rule: &str, properties: &[(&str, Json)]) -> bool {
    let rule = CelRule::compile(rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
    let props: Vec<(&str, &Json)> = properties.iter().map(|(t, v)| (*t, v)).collect();
    rule.matches(&props)
}

/// Evaluates `rule` with [`super::CEL_COST_LIMIT`]: the result and its cost, or what it had
/// spent when the limit stopped it.
pub(super) fn evaluate(rule: &str, properties: &[(&str, Json)]) -> Result<(bool, u64), u64> {
    let rule = CelRule::compile(rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
    let props: Vec<(&str, &Json)> = properties.iter().map(|(t, v)| (*t, v)).collect();
    rule.evaluate(&props, super::CEL_COST_LIMIT).map(|e| (e.matched, e.cost)).map_err(|e| e.spent)
}

/// The compile error text of `rule`; panics if it compiles or fails otherwise.
pub(super) fn compile_error(rule: &str) -> String {
    match CelRule::compile(rule) {
        Err(CelError::Compile(text)) => text,
        Err(other) => panic!("{rule}: expected a compile error, got {other:?}"),
        Ok(_) => panic!("{rule}: expected a compile error, compiled"),
    }
}

/// Runs `f` on a thread with a large stack: unoptimized builds have large frames, so
/// deep-but-allowed rules may need more than the 2 MiB test threads have.
pub(super) fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(256 << 20).spawn(f).unwrap().join().unwrap()
}
