//! One module per command: its arguments (`Args`), its exit codes (`EXIT_CODES`, the help's
//! last lines) and `run`, which turns the arguments into library calls and prints the answer.

pub mod cli_reference;
pub mod completions;
pub mod convert_template;
pub mod crd_safety;
pub mod deps;
pub mod diff;
pub mod edit;
pub mod graph;
pub mod graph_svg;
pub mod lsp;
pub mod man;
pub mod operatorgroup;
pub mod path;
pub mod rbac;
pub mod render;
pub mod resolve;
pub mod template;
pub mod validate;
