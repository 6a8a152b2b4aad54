//! Reading the commands' inputs: catalog files, loaded catalogs and models, and `--from`. An
//! input is a path, or an image (`oci:`, `oci-archive:`, `docker-archive:`; see `image`).

use std::path::{Path, PathBuf};

use olm_catalog::declcfg::{load_files, DeclarativeConfig, FileInput};
use olm_catalog::graph::Start;
use olm_catalog::model;
use olm_catalog::read_catalog;
use olm_catalog::render::Rendered;
use olm_catalog::Diagnostic;

use crate::output::Fail;

/// Where an input's files are from, so that findings name them as the user can find them: a
/// directory's files under it, a file by its path, an image's as `REFERENCE@DIGEST:/configs/…`.
pub struct Origin {
    name: String,
    single_file: bool,
    dir: Option<PathBuf>,
}

impl Origin {
    fn of_path(path: &Path) -> Origin {
        let is_dir = path.is_dir();
        Origin { name: path.display().to_string(), single_file: !is_dir, dir: is_dir.then(|| path.to_path_buf()) }
    }

    /// The name of the input's file `f` (a path relative to the input's root).
    pub fn file(&self, f: &str) -> String {
        match &self.dir {
            Some(dir) => dir.join(f).display().to_string(),
            None if self.single_file => self.name.clone(),
            None => format!("{}/{f}", self.name.trim_end_matches('/')),
        }
    }

    /// `rendered`'s files named from here.
    pub fn name_rendered(&self, rendered: &mut Rendered) {
        rendered.name_files(&self.name, self.single_file);
    }

    /// `diagnostics` with their files named from here.
    pub fn name_diagnostics(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut rendered = Rendered { diagnostics, ..Rendered::default() };
        self.name_rendered(&mut rendered);
        rendered.diagnostics
    }
}

/// An input's files, where they are from, and for a bundle image its reference (a rendered
/// bundle's `image`).
pub struct Input {
    pub files: Vec<FileInput>,
    pub origin: Origin,
    pub bundle_image: Option<String>,
}

/// The files of the input `path`: a catalog or bundle directory or file, or an image.
pub fn read_input(path: &Path) -> Result<Input, Fail> {
    let Some(t) = crate::image::transport(path) else {
        return Ok(Input { files: read(path)?, origin: Origin::of_path(path), bundle_image: None });
    };
    let reference = path.display().to_string();
    let input = crate::image::read(&reference, t)?;
    let origin = Origin { name: input.name(), single_file: false, dir: None };
    // A bundle's `image` is the reference as given (`docker://` is a transport, not part of it).
    let image = reference.strip_prefix("docker://").unwrap_or(&reference).to_string();
    let bundle_image = matches!(input.opened.content.kind, olm_catalog_image::Kind::Bundle { .. }).then_some(image);
    let files = input.opened.content.files.into_iter().map(|(p, c)| FileInput::new(p, c)).collect();
    Ok(Input { files, origin, bundle_image })
}

/// The files of the catalog (directory or file) at `path` (after finishing a save of it that a
/// crash interrupted).
pub fn read(path: &Path) -> Result<Vec<FileInput>, Fail> {
    crate::save::finish_interrupted(path)?;
    read_catalog(path).map_err(|e| Fail::at(path, e))
}

/// The catalog at `path`, loaded.
pub fn load(path: &Path) -> Result<DeclarativeConfig, Fail> {
    Ok(load_loaded(path)?.0.config)
}

/// The catalog at `path`, loaded (a directory file by file, so the whole input is never in memory
/// at once), and where its files are from.
pub fn load_loaded(path: &Path) -> Result<(olm_catalog::Loaded, Origin), Fail> {
    if crate::image::transport(path).is_some() {
        let input = read_input(path)?;
        return Ok((load_files(&input.files), input.origin));
    }
    crate::save::finish_interrupted(path)?;
    let loaded = olm_catalog::load_dir(path).map_err(|e| Fail::at(path, e))?;
    Ok((loaded, Origin::of_path(path)))
}

/// The model of the catalog at `path`.
pub fn load_built(path: &Path) -> Result<model::Model, Fail> {
    Ok(model::build(&load(path)?).0)
}

/// The model of the catalog at `path`, its file names prefixed with where they are from so that
/// the findings of two catalogs tell them apart.
pub fn load_model(path: &Path) -> Result<model::Model, Fail> {
    let mut input = read_input(path)?;
    for f in &mut input.files {
        f.path = input.origin.file(&f.path);
    }
    Ok(model::build(&load_files(&input.files).config).0)
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
