//! `olm-catalog template`: a catalog template expanded offline, its bundle images looked up
//! among the bundles of `--bundles`.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use olm_catalog::declcfg::write::Format;
use olm_catalog::declcfg::FileInput;
use olm_catalog::graph::{to_mermaid, MermaidOptions};
use olm_catalog::model;
use olm_catalog::render::bundle::BundleOptions;
use olm_catalog::render::template::{expand_template, expand_template_as, TemplateKind};
use olm_catalog::render::BundleSource;

use super::render::settle;
use crate::catalog::read_input;
use crate::output::{emit, report, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: expanded without errors
- 1: a template problem (located in the template), or with --validate the expansion is invalid
- 2: usage or I/O error, or with --output-dir a file there would be overwritten (nothing written \
unless --force)";

#[derive(clap::Args)]
pub struct Args {
    /// The template file (YAML or JSON).
    file: PathBuf,
    /// Where the bundles are: catalogs, bundle directories or trees (directories need
    /// `--image-ref-template` to have an image), catalog or bundle images (`oci:`,
    /// `oci-archive:`, `docker-archive:`, registry references; a bundle image's image is its
    /// reference as given). A bundle image the template names and these do not have is pulled,
    /// as opm does (`--offline`: from the cache only).
    #[arg(long, num_args = 1..)]
    bundles: Vec<PathBuf>,
    /// The template kind, whatever its `schema` says (default: detected from it).
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// Image references for bundle directories given in `--bundles`.
    #[arg(long)]
    image_ref_template: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TemplateFormat::Json)]
    format: TemplateFormat,
    /// Write one `<package>/catalog.<format>` per package under this directory.
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    /// With --output-dir: overwrite files there that this run did not write (a file that
    /// already holds what the run writes is left as it is).
    #[arg(long, requires = "output_dir")]
    force: bool,
    /// Also check the expansion as `validate` would, findings pointing into the template.
    #[arg(long)]
    validate: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TemplateFormat {
    /// The expanded catalog, as `opm alpha render-template -o json` writes it.
    Json,
    /// The expanded catalog, as `opm alpha render-template -o yaml` writes it.
    Yaml,
    /// The expansion's upgrade graphs (as `opm alpha render-template -o mermaid`).
    Mermaid,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum KindArg {
    /// `olm.template.basic`: FBC blobs, bundles named by their image.
    Basic,
    /// `olm.semver`: channels and edges generated from the bundles' versions.
    Semver,
    /// `olm.template.substitutes`: FBC blobs plus bundles that take the place of others.
    Substitutes,
}

pub fn run(a: Args, out: &mut String) -> Result<u8, Fail> {
    let mut source = BundleSource::new();
    // Problems in the bundle sources are reported but do not fail the expansion.
    let mut source_diags = Vec::new();
    for path in &a.bundles {
        source_diags.extend(add_source(&mut source, path, &a)?);
    }
    let bytes = std::fs::read(&a.file).map_err(|e| Fail::at(&a.file, e))?;
    let input = FileInput::new(a.file.display().to_string(), bytes);
    let expand = |source: &BundleSource| match a.kind {
        Some(k) => expand_template_as(kind(k), &input, source),
        None => expand_template(&input, source),
    };
    let mut rendered = expand(&source);
    // Bundle images the sources do not have are pulled, as opm does (from the cache alone with
    // --offline), and the template expanded again; one that cannot be read stays missing, which
    // the expansion reports where the template names it.
    let missing: Vec<String> =
        source.missing().into_iter().filter(|i| crate::image::transport(Path::new(i)).is_some()).collect();
    if !missing.is_empty() {
        for image in &missing {
            match add_source(&mut source, Path::new(image), &a) {
                Ok(ds) => source_diags.extend(ds),
                Err(Fail(e)) => eprintln!("olm-catalog: warning: {e}"),
            }
        }
        rendered = expand(&source);
    }
    let (config, diagnostics, code) = settle(rendered, a.validate);
    report(&source_diags);
    report(&diagnostics);
    let dir = a.output_dir.as_deref();
    match a.format {
        TemplateFormat::Json => emit(&config, Format::Json, false, dir, a.force, out)?,
        TemplateFormat::Yaml => emit(&config, Format::Yaml, false, dir, a.force, out)?,
        TemplateFormat::Mermaid => {
            let (m, _) = model::build(&config);
            out.push_str(&to_mermaid(&m, &MermaidOptions::default()).map_err(|e| Fail(e.to_string()))?);
        }
    }
    Ok(code)
}

/// Add the bundles of the input `path` (a catalog, bundle directory or tree, or an image) to
/// `source`; the problems met rendering it.
fn add_source(source: &mut BundleSource, path: &Path, a: &Args) -> Result<Vec<olm_catalog::Diagnostic>, Fail> {
    let input = read_input(path)?;
    let image = input.bundle_image;
    let options =
        BundleOptions { image, image_ref_template: a.image_ref_template.clone(), migrate_csv_metadata: false };
    Ok(input.origin.name_diagnostics(source.add_input(&input.files, &options)))
}

fn kind(k: KindArg) -> TemplateKind {
    match k {
        KindArg::Basic => TemplateKind::Basic,
        KindArg::Semver => TemplateKind::Semver,
        KindArg::Substitutes => TemplateKind::Substitutes,
    }
}
