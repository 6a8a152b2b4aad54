//! Images named where a catalog or bundle path goes: `oci:DIR[:TAG]`, `oci-archive:FILE[:TAG]`,
//! `docker-archive:FILE` (`-`: standard input), `docker://REFERENCE` and bare registry references
//! (`quay.io/org/index:v1`, when no such path exists). The image is read by `olm-catalog-image`
//! (from a registry through `olm-catalog-registry`); this module opens the files, prints what was
//! skipped, and names the image in findings (`IMAGE@DIGEST:/configs/pkg/catalog.json`).

use std::fs::File;
use std::io::{BufReader, Cursor, Read as _};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use olm_catalog_image::{self as image, Budgets, Kind, Opened, Platform, Transport};
use olm_catalog_registry::{pull, Cache, ClientOptions, PullOptions, Reference};

use crate::output::Fail;

/// The options every command's image inputs share (global on the command line).
#[derive(clap::Args, Clone, Default)]
pub struct ImageArgs {
    /// The platform picked from a multi-arch image index: `OS/ARCH[/VARIANT]` (default
    /// linux/amd64, else the index's first manifest).
    #[arg(long, global = true, value_name = "OS/ARCH")]
    pub platform: Option<String>,
    /// Say on stderr which image and platform each image input resolved to.
    #[arg(long, global = true)]
    pub verbose: bool,
    /// Registry credentials file (default: `REGISTRY_AUTH_FILE`, then
    /// `$XDG_RUNTIME_DIR/containers/auth.json`, `~/.config/containers/auth.json`,
    /// `~/.docker/config.json`).
    #[arg(long, global = true, value_name = "FILE")]
    pub authfile: Option<PathBuf>,
    /// Read registry images without the cache (`$XDG_CACHE_HOME/olm-catalog`): every blob is
    /// downloaded (and still verified).
    #[arg(long, global = true)]
    pub no_cache: bool,
    /// Use no network: registry images come from the cache only (a digest reference).
    #[arg(long, global = true)]
    pub offline: bool,
    /// Verify registries' TLS certificates (`--tls-verify=false` turns that off for every
    /// registry; registries.conf's `insecure` does it for one).
    #[arg(long, global = true, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    pub tls_verify: bool,
    /// CA certificates (`*.crt`) to check every registry against, instead of each one's
    /// `certs.d/HOST` (`~/.config/containers/certs.d`, `/etc/containers/certs.d`, `/etc/docker/certs.d`).
    #[arg(long, global = true, value_name = "DIR")]
    pub cert_dir: Option<PathBuf>,
}

static ARGS: OnceLock<ImageArgs> = OnceLock::new();

/// Set the image options once, before any input is read.
pub fn configure(args: ImageArgs) {
    let _ = ARGS.set(args);
}

fn args() -> ImageArgs {
    ARGS.get().cloned().unwrap_or_default()
}

/// The image transport `arg` names, if it is an image reference rather than a path: a transport
/// prefix, or a registry reference (`quay.io/org/index:v1`) where no such path exists.
pub fn transport(arg: &Path) -> Option<Transport> {
    let s = arg.to_str()?;
    Transport::parse(s).or_else(|| {
        (!arg.exists() && Reference::looks_like_one(s)).then(|| Transport::Registry { reference: s.to_string() })
    })
}

/// An image input, read.
pub struct ImageInput {
    /// The reference as given.
    pub reference: String,
    pub opened: Opened,
}

impl ImageInput {
    /// How findings name the image's content: `REFERENCE@DIGEST:/configs` for a catalog,
    /// `REFERENCE@DIGEST:` for a bundle (whose files are `manifests/…`, `metadata/…`).
    pub fn name(&self) -> String {
        let at = format!("{}@{}:", self.reference, self.opened.image.digest);
        match &self.opened.content.kind {
            Kind::Catalog { configs } => format!("{at}/{}", configs.trim_matches('/')),
            Kind::Bundle { .. } => at,
        }
    }
}

/// Read the image `t` (named `reference` on the command line).
pub fn read(reference: &str, t: Transport) -> Result<ImageInput, Fail> {
    let a = args();
    let platform =
        a.platform.as_deref().map(Platform::parse).transpose().map_err(|e| Fail(format!("--platform: {e}")))?;
    let budgets = Budgets::default();
    let fail = |e: image::Error| Fail(format!("{reference}: {e}"));
    let opened = match &t {
        Transport::Oci { dir, tag } => {
            image::read_layout(image::DirTree(dir.into()), tag.as_deref(), platform.as_ref(), &budgets).map_err(fail)?
        }
        Transport::OciArchive { file, tag } => {
            let f = File::open(file).map_err(|e| Fail(format!("{reference}: {file}: {e}")))?;
            image::read_oci_archive(BufReader::new(f), tag.as_deref(), platform.as_ref(), &budgets).map_err(fail)?
        }
        Transport::DockerArchive { file, reference: tag } if file == "-" => {
            let mut bytes = Vec::new();
            std::io::stdin().lock().read_to_end(&mut bytes).map_err(|e| Fail(format!("{reference}: stdin: {e}")))?;
            image::read_docker_archive(Cursor::new(bytes), tag.as_deref(), &budgets).map_err(fail)?
        }
        Transport::DockerArchive { file, reference: tag } => {
            let f = File::open(file).map_err(|e| Fail(format!("{reference}: {file}: {e}")))?;
            image::read_docker_archive(BufReader::new(f), tag.as_deref(), &budgets).map_err(fail)?
        }
        Transport::Registry { reference: r } => {
            let options = PullOptions {
                client: ClientOptions {
                    authfile: a.authfile.clone(),
                    tls_verify: a.tls_verify,
                    cert_dir: a.cert_dir.clone(),
                    ..ClientOptions::default()
                },
                cache: if a.no_cache { None } else { Cache::default_location() },
                offline: a.offline,
                progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
            };
            let pulled =
                pull(r, platform.as_ref(), &budgets, &options).map_err(|e| Fail(format!("{reference}: {e}")))?;
            if a.verbose {
                let ep = &pulled.endpoint;
                eprintln!("olm-catalog: {reference}: read from {}/{}", ep.registry, ep.repository);
            }
            pulled.opened
        }
    };
    let input = ImageInput { reference: reference.to_string(), opened };
    note(&input, a.verbose);
    Ok(input)
}

/// Print what was skipped while unpacking (always) and what was picked (with --verbose).
fn note(input: &ImageInput, verbose: bool) {
    let image = &input.opened.image;
    for f in &input.opened.content.findings {
        eprintln!("olm-catalog: warning: {}@{}: {f}", input.reference, image.digest);
    }
    if verbose {
        let platform = match &image.picked {
            Some((p, n)) => format!(", platform {p} of {n} in the image index"),
            None => String::new(),
        };
        eprintln!("olm-catalog: {}: image {}{platform}", input.reference, image.digest);
    }
}
