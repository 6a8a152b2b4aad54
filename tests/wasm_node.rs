//! The wasm binding tests, run in Node (`cargo test --target wasm32-unknown-unknown --test wasm_node`).
#![cfg(target_arch = "wasm32")]

include!("wasm/shared.rs");
