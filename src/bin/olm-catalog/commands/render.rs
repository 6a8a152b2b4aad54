//! `olm-catalog render`: bundle directories, trees, package manifests or catalogs rendered into
//! one File-Based Catalog as `opm render` does, offline; and the findings of a rendering, which
//! `template` shares.

use std::path::PathBuf;

use clap::ValueEnum;
use olm_catalog::declcfg::DeclarativeConfig;
use olm_catalog::render::bundle::BundleOptions;
use olm_catalog::render::{render_input, InputKind, Rendered};
use olm_catalog::validate::Options;
use olm_catalog::Diagnostic;

use crate::args::FbcFormat;
use crate::catalog::read_input;
use crate::output::{answer, emit, report, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: rendered without errors
- 1: something was reported as an error (and left out), or with --validate the result is invalid
- 2: usage or I/O error, or with --output-dir a file there would be overwritten (nothing written \
unless --force)";

#[derive(clap::Args)]
pub struct Args {
    /// Inputs: a bundle directory, a tree of bundle directories or package manifests, or
    /// an FBC directory or file.
    ///
    /// A bundle directory (`manifests/` and `metadata/`) becomes one `olm.bundle` as `opm render`
    /// makes it; a tree in the community-operators layout (`operators/<pkg>/<version>/`) whole
    /// packages, channels and edges from the bundles' annotations and CSVs; package manifests
    /// packages by the legacy mapping; a File-Based Catalog itself. A catalog or bundle image
    /// (`oci:DIR[:TAG]`, `oci-archive:FILE[:TAG]`, `docker-archive:FILE[:REFERENCE]`, a registry
    /// reference) renders as `opm render IMAGE` renders it, a bundle's `image` being the
    /// reference as given. Problems go to stderr, located; a broken bundle is left out and the
    /// rest still renders.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format (opm's `-o`).
    #[arg(long, value_enum, default_value_t = FbcFormat::Json)]
    format: FbcFormat,
    /// `bundle-object-to-csv-metadata`: embedded manifests become one `olm.csv.metadata`
    /// (bundles with an image only, as opm does).
    #[arg(long, value_enum)]
    migrate_level: Option<MigrateLevel>,
    /// The bundle image of a directory, from `{{.Package}}`, `{{.Name}}` and
    /// `{{.Version}}` (opm's `--alpha-image-ref-template`).
    #[arg(long)]
    image_ref_template: Option<String>,
    /// Write one `<package>/catalog.<format>` per package under this directory instead of
    /// one stream on stdout.
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    /// With --output-dir: overwrite files there that this run did not write (a file that
    /// already holds what the run writes is left as it is).
    #[arg(long, requires = "output_dir")]
    force: bool,
    /// Also check the result as `validate` would, findings pointing into the inputs.
    #[arg(long)]
    validate: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MigrateLevel {
    /// The `olm.bundle.object` properties of a bundle's CSV become one `olm.csv.metadata`.
    BundleObjectToCsvMetadata,
}

pub fn run(a: Args, out: &mut String) -> Result<u8, Fail> {
    let mut all = Rendered::default();
    let mut only_catalogs = true;
    for path in &a.paths {
        let input = read_input(path)?;
        let options = BundleOptions {
            image: input.bundle_image,
            image_ref_template: a.image_ref_template.clone(),
            migrate_csv_metadata: a.migrate_level.is_some(),
        };
        let (kind, mut rendered) = render_input(&input.files, &options);
        only_catalogs &= kind == InputKind::Catalog;
        input.origin.name_rendered(&mut rendered);
        all.config.extend(rendered.config);
        all.diagnostics.extend(rendered.diagnostics);
    }
    let (config, diagnostics, code) = settle(all, a.validate);
    report(&diagnostics);
    emit(&config, a.format.into(), only_catalogs, a.output_dir.as_deref(), a.force, out)?;
    Ok(code)
}

/// A rendering's catalog, its findings (with `check`, its validation's) and the exit code.
pub fn settle(rendered: Rendered, check: bool) -> (DeclarativeConfig, Vec<Diagnostic>, u8) {
    if !check {
        let code = answer(rendered.diagnostics.iter().any(Diagnostic::is_error));
        return (rendered.config, rendered.diagnostics, code);
    }
    let validated = rendered.validate(Options::default());
    let code = answer(!validated.report.valid);
    (validated.loaded.config, validated.report.diagnostics, code)
}
