//! The argument types several commands share: output formats and upgrade semantics.

use clap::ValueEnum;
use olm_catalog::declcfg::write::Format;
use olm_catalog::graph::Semantics;

/// `--format` of the commands that print text or JSON.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    /// Human-readable text.
    Text,
    /// Pretty-printed JSON.
    Json,
}

/// `--format` of the commands that print a File-Based Catalog (or a template).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FbcFormat {
    /// JSON, as opm writes it (`-o json`).
    Json,
    /// YAML, as opm writes it (`-o yaml`).
    Yaml,
}

impl From<FbcFormat> for Format {
    fn from(f: FbcFormat) -> Format {
        match f {
            FbcFormat::Json => Format::Json,
            FbcFormat::Yaml => Format::Yaml,
        }
    }
}

/// `--semantics`: the rules an upgrade path follows.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SemanticsArg {
    /// OLM v0: one edge per resolution, to the entry closest to the head that replaces, skips or
    /// skipRange-covers the installed bundle.
    V0,
    /// OLM v1: the highest direct successor.
    V1,
}

impl From<SemanticsArg> for Semantics {
    fn from(s: SemanticsArg) -> Semantics {
        match s {
            SemanticsArg::V0 => Semantics::V0,
            SemanticsArg::V1 => Semantics::V1,
        }
    }
}
