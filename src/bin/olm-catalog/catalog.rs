//! Reading the commands' inputs: catalog files, loaded catalogs and models, and `--from`.

use std::path::Path;

use olm_catalog::declcfg::{load_files, DeclarativeConfig, FileInput};
use olm_catalog::graph::Start;
use olm_catalog::model;
use olm_catalog::read_catalog;

use crate::output::Fail;

/// The files of the catalog (directory or file) at `path` (after finishing a save of it that a
/// crash interrupted).
pub fn read(path: &Path) -> Result<Vec<FileInput>, Fail> {
    crate::save::finish_interrupted(path)?;
    read_catalog(path).map_err(|e| Fail::at(path, e))
}

/// The catalog at `path`, loaded.
pub fn load(path: &Path) -> Result<DeclarativeConfig, Fail> {
    Ok(load_loaded(path)?.config)
}

/// The catalog at `path`, loaded file by file (the whole input is never in memory at once).
pub fn load_loaded(path: &Path) -> Result<olm_catalog::Loaded, Fail> {
    crate::save::finish_interrupted(path)?;
    olm_catalog::load_dir(path).map_err(|e| Fail::at(path, e))
}

/// The model of the catalog at `path`.
pub fn load_built(path: &Path) -> Result<model::Model, Fail> {
    Ok(model::build(&load(path)?).0)
}

/// The model of the catalog at `path`, its file names prefixed with `path` so that the
/// findings of two catalogs tell them apart.
pub fn load_model(path: &Path) -> Result<model::Model, Fail> {
    let is_dir = path.is_dir();
    let mut files = read(path)?;
    for f in &mut files {
        f.path = if is_dir { path.join(&f.path).display().to_string() } else { path.display().to_string() };
    }
    Ok(model::build(&load_files(&files).config).0)
}

/// `package` in `m`, or the failure naming the catalog at `path`.
pub fn package<'m>(m: &'m model::Model, package: &str, path: &Path) -> Result<&'m model::Package, Fail> {
    m.package(package).ok_or_else(|| Fail(format!("no package {package:?} in {}", path.display())))
}

/// Where an upgrade starts: `--from` names a bundle, or is a version (`1.2.0`, `v1.2.0`), read
/// against the channel by the library (`Start::from_input`).
pub fn start(from: &str) -> Start {
    Start::from_input(from)
}
