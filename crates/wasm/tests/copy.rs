//! The byte copies of Node's WebAssembly module (`src/copy.rs`), compiled natively for their unit
//! tests (the crate itself is empty on other targets than wasm32).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../src/copy.rs"]
#[allow(dead_code)]
mod copy;
