//! `olm-catalog lsp`: a language server (LSP 3.17 over stdio) for File-Based Catalogs. The
//! workspace folder is the catalog (read as `validate` reads a directory, `.indexignore`
//! honoured, the lint configuration file found from it upwards); every finding of `validate`
//! is pushed per file as the documents change, and catalog templates among the files get their
//! own and their expansion's findings ([`templates`]) ([`workspace`], over the edit engine's
//! `EditSession` and its incremental `validate::Session`); hover, definition, references,
//! completion and symbols read an index of the names each package's blobs spell ([`index`]);
//! quick fixes, refactorings and rename are the edit engine's operations turned into
//! `WorkspaceEdit`s ([`actions`]). Native only; the CLI's `lsp` command runs [`run_stdio`].
//!
//! Bad input never ends the server: a malformed message is answered with a JSON-RPC parse
//! error ([`transport`]), an unknown method with `MethodNotFound`, a request before
//! `initialize` with `ServerNotInitialized`, and a request about a file the catalog does not hold
//! with an empty answer.

use olm_catalog_format::{declcfg, diagnostic, version, Diagnostic, Severity};
use olm_catalog_model::{graph, model};
use olm_catalog_tools::{edit, render};
use olm_catalog_validate::validate;

pub mod actions;
pub mod convert;
pub mod features;
pub mod fixes;
pub mod index;
pub mod server;
pub mod templates;
pub mod transport;
pub mod workspace;

/// The transport crate, for clients of [`serve`] (tests, the benchmark's in-memory client).
pub use lsp_server;
pub use server::serve;

/// Serve on standard input and output until `exit`; `Ok(true)` when the client shut the server
/// down first (exit code 0), `Ok(false)` when it did not (exit code 1).
pub fn run_stdio() -> std::io::Result<bool> {
    let (connection, threads) = transport::stdio();
    let clean = serve(&connection);
    drop(connection);
    threads.join()?;
    Ok(clean)
}

#[cfg(test)]
mod tests;
