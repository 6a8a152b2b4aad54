//! The `olm-catalog` command line: a thin surface over the library (no logic of its own).
//!
//! Exit codes: 0 success (valid catalog, path reaches the head), 1 a negative answer (invalid
//! catalog, stranded version, a CSV its OperatorGroup does not support, an unmet dependency), 2
//! usage or I/O error.

#[cfg(target_arch = "wasm32")]
fn main() {
    // The command line is native only; the WebAssembly build is used through the npm package.
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    #[global_allocator]
    static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

    use std::io::Write as _;
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    use clap::{Parser, Subcommand, ValueEnum};

    use olm_catalog::declcfg::write::{self, Format};
    use olm_catalog::declcfg::{load_files, DeclarativeConfig, FileInput};
    use olm_catalog::graph::{
        to_dot_within, to_mermaid, to_mermaid_within, upgrade_path, ChannelGraph, MermaidOptions, PackageGraph,
        Semantics, Start,
    };
    use olm_catalog::read_catalog;
    use olm_catalog::render::bundle::BundleOptions;
    use olm_catalog::render::convert::{to_basic_template, write_basic_template};
    use olm_catalog::render::template::{expand_template, expand_template_as, TemplateKind};
    use olm_catalog::render::{render_input, BundleSource, InputKind, Rendered};
    use olm_catalog::report_formats::{render_diagnostics, render_diff, ReportFormat};
    use olm_catalog::validate::{only_new, validate_loaded_with, LintConfig, Options};
    use olm_catalog::version::Version;
    use olm_catalog::{model, Diagnostic, Severity};

    #[derive(Parser)]
    #[command(name = "olm-catalog", version, about = "Validate and explore Operator Lifecycle Manager catalogs")]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// Check File-Based Catalogs the way `opm validate` does, and report every problem.
        Validate {
            /// Catalog directories or files; each is validated as its own catalog.
            #[arg(required = true)]
            paths: Vec<PathBuf>,
            /// Output format.
            #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
            format: ValidateFormat,
            /// Report only what `opm validate` checks (no lint warnings).
            #[arg(long)]
            no_lints: bool,
            /// Lint configuration file (default: the first `.olm-catalog.yaml` or
            /// `.olm-catalog.yml` found from each catalog's directory upwards).
            #[arg(long)]
            config: Option<PathBuf>,
            /// Set a lint's level: `code=off|note|warning|error` (repeatable; over the file).
            #[arg(long = "lint", value_name = "CODE=LEVEL")]
            lint: Vec<String>,
            /// Warnings fail the run (exit 1).
            #[arg(long)]
            deny_warnings: bool,
            /// Run the OLM v1 readiness lints (`olmv1-*`).
            #[arg(long = "olm-v1")]
            olm_v1: bool,
            /// Report only the findings this catalog (directory or file) did not have.
            #[arg(long)]
            baseline: Option<PathBuf>,
        },
        /// Draw a package's upgrade graph (all channels, or one).
        Graph {
            /// Catalog directory or file.
            path: PathBuf,
            /// The package.
            #[arg(long)]
            package: String,
            /// Only this channel.
            #[arg(long)]
            channel: Option<String>,
            /// Output format: JSON graph (nodes, typed edges, flags), Mermaid (as `opm alpha
            /// render-graph`), Graphviz DOT, or SVG (one channel: `--channel`, else the default).
            #[arg(long, value_enum, default_value_t = GraphFormat::Json)]
            format: GraphFormat,
            /// SVG: highlight the upgrade path from this installed bundle or version to the head.
            #[arg(long)]
            from: Option<String>,
            /// SVG: the rules the highlighted path follows.
            #[arg(long, value_enum, default_value_t = SemanticsArg::V0)]
            semantics: SemanticsArg,
            /// SVG: colours (`auto` follows the reader's light or dark preference).
            #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
            theme: ThemeArg,
            /// SVG: keep this collapsed z-stream group expanded (its id, `group:NAME`; repeatable).
            #[arg(long, value_name = "GROUP")]
            expand: Vec<String>,
            /// SVG: never collapse z-stream runs (graphs of 100+ nodes collapse them by default).
            #[arg(long)]
            no_collapse: bool,
            /// Mermaid: only edges at or above this bundle's version (`--minimum-edge` of opm).
            #[arg(long)]
            minimum_edge: Option<String>,
            /// Mermaid: mark what OLM v0 skips (`--draw-v0-semantics` of opm).
            #[arg(long)]
            v0_semantics: bool,
            /// JSON: list every skipRange edge in `edges` instead of keeping each skipRange as a
            /// range (`fans`); refused beyond `--max-edges`. SVG: draw every skipRange edge instead
            /// of one fan per range (fans stay beyond 2,000 edges, with a note).
            #[arg(long)]
            expand_ranges: bool,
            /// The most edges a graph may have once skipRanges are expanded (`--expand-ranges`,
            /// Mermaid; DOT draws skipRanges as ranges beyond it).
            #[arg(long, value_name = "N", default_value_t = olm_catalog::graph::EXPANSION_BUDGET)]
            max_edges: usize,
        },
        /// The upgrades OLM takes from an installed bundle (or a bare version) to the channel head.
        Path {
            /// Catalog directory or file.
            path: PathBuf,
            #[arg(long)]
            package: String,
            #[arg(long)]
            channel: String,
            /// Installed bundle name, or a version like 1.2.0.
            #[arg(long)]
            from: String,
            /// OLM v0 (one edge per resolution, closest to the head) or OLM v1 (highest successor).
            #[arg(long, value_enum, default_value_t = SemanticsArg::V0)]
            semantics: SemanticsArg,
            #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
            format: TextOrJson,
        },
        /// Resolve subscriptions and dependencies as OLM v0 does: what would be installed, and why.
        Resolve {
            /// The problem as JSON: namespace, catalogs (inline packages, or `path` naming an FBC
            /// directory relative to this file), installed operators, subscriptions.
            problem: PathBuf,
            #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
            format: TextOrJson,
        },
        /// Check a CSV against a cluster's OperatorGroups as OLM does: supported, or the reason and
        /// message OLM gives, the annotations it writes, and the bundle's install modes.
        Operatorgroup {
            /// The check as JSON: `operatorNamespace`, `namespaces`, `operatorGroups` (or
            /// `targetNamespaces`), and a catalog bundle (`path` relative to this file, `package`,
            /// `bundle`) or inline `installModes` / `installModesList` and `providedAPIs`.
            check: PathBuf,
            #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
            format: TextOrJson,
        },
        /// Preview the RBAC OLM generates for a bundle's CSV: the OperatorGroup's and the provided
        /// APIs' ClusterRoles, the Roles and bindings of its permissions in each target namespace,
        /// and what the operator may touch.
        Rbac {
            /// An FBC directory or file.
            path: PathBuf,
            #[arg(long)]
            package: String,
            /// The bundle (default: the head of the package's default channel).
            #[arg(long)]
            bundle: Option<String>,
            /// The install mode (default: each mode the CSV supports).
            #[arg(long, value_enum)]
            install_mode: Option<InstallModeArg>,
            /// The operator's namespace (and its OperatorGroup's).
            #[arg(long, default_value = "operators")]
            namespace: String,
            /// The OperatorGroup's name.
            #[arg(long, default_value = "operator-group")]
            operator_group: String,
            /// The group's target namespaces, comma-separated (default: an example for the mode).
            #[arg(long, value_delimiter = ',')]
            target_namespaces: Option<Vec<String>>,
            #[arg(long, value_enum, default_value_t = RbacFormat::Text)]
            format: RbacFormat,
        },
        /// Render bundle directories, trees of them (community layout), package manifests or
        /// catalogs into one File-Based Catalog, offline (`opm render`).
        Render {
            /// Inputs: a bundle directory, a tree of bundle directories or package manifests, or
            /// an FBC directory or file.
            #[arg(required = true)]
            paths: Vec<PathBuf>,
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
            /// Also check the result as `validate` would, findings pointing into the inputs.
            #[arg(long)]
            validate: bool,
        },
        /// Expand a catalog template (`olm.template.basic`, `olm.semver`,
        /// `olm.template.substitutes`) offline, its bundle images looked up in `--bundles`.
        Template {
            /// The template file (YAML or JSON).
            file: PathBuf,
            /// Where the bundles are: catalogs, bundle directories or trees (directories need
            /// `--image-ref-template` to have an image).
            #[arg(long, required = true, num_args = 1..)]
            bundles: Vec<PathBuf>,
            /// The template kind, whatever its `schema` says (default: detected from it).
            #[arg(long, value_enum)]
            kind: Option<KindArg>,
            /// Image references for bundle directories given in `--bundles`.
            #[arg(long)]
            image_ref_template: Option<String>,
            #[arg(long, value_enum, default_value_t = TemplateFormat::Json)]
            format: TemplateFormat,
            /// Write one `<package>/catalog.<format>` per package under this directory.
            #[arg(short = 'o', long = "output-dir")]
            output_dir: Option<PathBuf>,
            /// Also check the expansion as `validate` would, findings pointing into the template.
            #[arg(long)]
            validate: bool,
        },
        /// Compare two catalogs: what changed, and where OLM v0 and v1 take every version
        /// installed from the old one (exit 1 when an update promise is broken).
        Diff {
            /// The old catalog (directory or file).
            old: PathBuf,
            /// The new catalog (directory or file).
            new: PathBuf,
            /// Output format.
            #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
            format: DiffFormat,
            /// Only this package.
            #[arg(long)]
            package: Option<String>,
        },
        /// A package's cross-package view: what it requires and who provides it, what nothing
        /// in the catalog satisfies, who requires it (exit 1 when a requirement is unmet).
        Deps {
            /// Catalog directory or file.
            path: PathBuf,
            /// The package.
            #[arg(long)]
            package: String,
            #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
            format: TextOrJson,
            /// Only the package's channel heads (their requirements and provided APIs).
            #[arg(long)]
            heads_only: bool,
        },
        /// Edit a catalog in place: one operation, its files rewritten with their formatting kept
        /// (exit 1 when the result has errors the catalog did not have; nothing is written then).
        Edit(Box<EditArgs>),
        /// Turn a File-Based Catalog into a template (`opm alpha convert-template basic`).
        ConvertTemplate {
            /// The template kind to make (only `basic`).
            kind: ConvertKind,
            /// An FBC directory or file.
            path: PathBuf,
            #[arg(long, value_enum, default_value_t = FbcFormat::Json)]
            format: FbcFormat,
        },
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum FbcFormat {
        Json,
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

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum TemplateFormat {
        Json,
        Yaml,
        /// The expansion's upgrade graphs (as `opm alpha render-template -o mermaid`).
        Mermaid,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum RbacFormat {
        Text,
        Json,
        Yaml,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    #[value(rename_all = "PascalCase")]
    enum InstallModeArg {
        OwnNamespace,
        SingleNamespace,
        MultiNamespace,
        AllNamespaces,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum MigrateLevel {
        BundleObjectToCsvMetadata,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum KindArg {
        Basic,
        Semver,
        Substitutes,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum ConvertKind {
        Basic,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum ValidateFormat {
        /// `file:line:col: error[code]: message`, one per finding, then a summary.
        Text,
        /// `{"valid": bool, "diagnostics": [...]}`.
        Json,
        /// The single message `opm validate` would print (empty when valid).
        Opm,
        /// SARIF 2.1.0 (GitHub code scanning).
        Sarif,
        /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=code::message`).
        Github,
        /// A pull-request comment: summary and a table of the findings.
        Markdown,
        /// JUnit XML: a testcase per finding, a failure per error.
        Junit,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum DiffFormat {
        /// The change summary, findings and update-safety tables.
        Text,
        /// The whole `CatalogDiff`.
        Json,
        /// A pull-request comment: summary, findings, changes and update-safety tables.
        Markdown,
        /// SARIF 2.1.0 of the findings.
        Sarif,
        /// GitHub Actions workflow commands for the findings.
        Github,
        /// JUnit XML of the findings.
        Junit,
    }

    /// The shared renderer behind a CLI format, if the format is one of `report_formats`.
    fn report_format(format: impl ValueEnum) -> Option<ReportFormat> {
        ReportFormat::from_name(format.to_possible_value()?.get_name())
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum GraphFormat {
        Json,
        Mermaid,
        Dot,
        Svg,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum ThemeArg {
        Light,
        Dark,
        Auto,
    }

    /// `graph --format svg`'s options.
    struct SvgFlags {
        from: Option<String>,
        semantics: SemanticsArg,
        theme: ThemeArg,
        expand: Vec<String>,
        collapse: bool,
        fans: bool,
    }

    /// `graph --format svg`: one channel's picture, the path from `--from` highlighted.
    fn graph_svg(
        path: &Path,
        package: &str,
        channel: Option<String>,
        flags: SvgFlags,
        out: &mut String,
    ) -> Result<u8, Fail> {
        use olm_catalog::graph::{render_graph_svg, PictureOptions, SvgOptions, Theme};
        let (m, _) = model::build(&load(path)?);
        let p = m.package(package).ok_or_else(|| Fail(format!("no package {package:?} in {}", path.display())))?;
        let mut picture = PictureOptions::new(package);
        picture.channel = channel;
        picture.drawing.semantics = match flags.semantics {
            SemanticsArg::V0 => Semantics::V0,
            SemanticsArg::V1 => Semantics::V1,
        };
        // `--from` names a bundle, or else may be a version (`1.2.0`, `v1.2.0`), as for `path`.
        picture.from = flags.from.map(|f| {
            let version = Version::parse(f.strip_prefix('v').unwrap_or(&f)).ok();
            Start::from_input(p, &f, version)
        });
        picture.drawing.expand = flags.expand;
        picture.drawing.collapse = flags.collapse;
        picture.drawing.expand_fans = flags.fans;
        let mut options = SvgOptions::new(picture);
        options.theme = match flags.theme {
            ThemeArg::Light => Theme::Light,
            ThemeArg::Dark => Theme::Dark,
            ThemeArg::Auto => Theme::Auto,
        };
        out.push_str(&render_graph_svg(&m, &options).map_err(|e| Fail(e.to_string()))?);
        Ok(0)
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum TextOrJson {
        Text,
        Json,
    }

    #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum SemanticsArg {
        V0,
        V1,
    }

    /// A failure that ends the command with exit code 2.
    struct Fail(String);

    use edit_cli::EditArgs;

    /// `olm-catalog edit`: flags turned into an operation, the plan printed, the files written.
    mod edit_cli {
        use std::path::PathBuf;

        use clap::{Args, ValueEnum};
        use olm_catalog::edit::{bundle_from_directory, plan_edit_with, EditPlan, Operation};
        use olm_catalog::read_catalog;
        use serde_json::{json, Map, Value};

        #[derive(Args)]
        pub struct EditArgs {
            /// The catalog directory or file.
            path: PathBuf,
            /// The operation: addBundle, promote, createChannel, renameChannel, removeChannel,
            /// setDefaultChannel, deprecate, undeprecate, removeBundle, setEdges (or `json`
            /// with `--op`).
            operation: String,
            /// The whole operation as JSON (`{"op":"deprecate","package":…}`).
            #[arg(long)]
            op: Option<String>,
            #[arg(long)]
            package: Option<String>,
            #[arg(long)]
            bundle: Option<String>,
            #[arg(long)]
            channel: Option<String>,
            /// Channels (comma-separated) for addBundle.
            #[arg(long, value_delimiter = ',')]
            channels: Vec<String>,
            /// Bundles (comma-separated) for createChannel.
            #[arg(long, value_delimiter = ',')]
            bundles: Vec<String>,
            #[arg(long)]
            message: Option<String>,
            /// The new name for renameChannel.
            #[arg(long)]
            to: Option<String>,
            /// setEdges / explicit edges: `replaces` (empty removes it).
            #[arg(long)]
            replaces: Option<String>,
            /// setEdges / explicit edges: `skips`, comma-separated (empty removes them).
            #[arg(long)]
            skips: Option<String>,
            /// setEdges / explicit edges: `skipRange` (empty removes it).
            #[arg(long)]
            skip_range: Option<String>,
            /// How a new entry's edges are chosen.
            #[arg(long, value_enum)]
            edge: Option<EdgeArg>,
            /// addBundle: the bundle image (with --name and --version).
            #[arg(long)]
            image: Option<String>,
            #[arg(long)]
            name: Option<String>,
            #[arg(long)]
            version: Option<String>,
            /// addBundle: a file holding an `olm.bundle` blob (JSON or YAML).
            #[arg(long)]
            blob: Option<PathBuf>,
            /// addBundle: a bundle directory (manifests/, metadata/), rendered as `opm render` does.
            #[arg(long)]
            from_dir: Option<PathBuf>,
            /// For a package maintained as a template: catalogs or bundle directories its bundle
            /// images are looked up in (as `template --bundles`), for the preview.
            #[arg(long, num_args = 1..)]
            template_bundles: Vec<PathBuf>,
            /// Print the plan; write nothing.
            #[arg(long)]
            dry_run: bool,
            /// Write even when the result has new errors.
            #[arg(long)]
            force: bool,
            #[arg(long, value_enum, default_value_t = EditFormat::Text)]
            format: EditFormat,
        }

        #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
        pub enum EdgeArg {
            Replaces,
            SkipRange,
            Semver,
            Explicit,
        }

        #[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
        pub enum EditFormat {
            Text,
            Json,
            Patch,
        }

        /// The operation the flags describe.
        fn operation(a: &EditArgs) -> Result<Operation, String> {
            if let Some(op) = &a.op {
                return serde_json::from_str(op).map_err(|e| format!("--op: {e}"));
            }
            let mut m = Map::new();
            m.insert("op".into(), json!(a.operation));
            let mut put = |k: &str, v: Option<Value>| {
                if let Some(v) = v {
                    m.insert(k.into(), v);
                }
            };
            let list = |s: &Option<String>| {
                s.as_ref().map(|s| json!(s.split(',').filter(|x| !x.is_empty()).collect::<Vec<_>>()))
            };
            put("package", a.package.clone().map(Value::from));
            put("bundle", a.bundle.clone().map(Value::from));
            put("message", a.message.clone().map(Value::from));
            put("to", a.to.clone().map(Value::from));
            let edge = match a.edge {
                Some(EdgeArg::Replaces) => Some(json!({"kind": "replaces"})),
                Some(EdgeArg::SkipRange) => Some(json!({"kind": "skipRange"})),
                Some(EdgeArg::Semver) => Some(json!({"kind": "semver"})),
                Some(EdgeArg::Explicit) => Some(json!({"kind": "explicit", "replaces": a.replaces,
                    "skips": list(&a.skips).unwrap_or(json!([])), "skipRange": a.skip_range})),
                None => None,
            };
            put("edge", edge);
            match a.operation.as_str() {
                "setEdges" => {
                    put("replaces", a.replaces.clone().map(Value::from));
                    put("skips", list(&a.skips));
                    put("skipRange", a.skip_range.clone().map(Value::from));
                }
                "addBundle" => {
                    put("channels", Some(json!(a.channels)));
                    let bundle = if let Some(dir) = &a.from_dir {
                        let files = read_catalog(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                        serde_json::to_value(bundle_from_directory(&files).map_err(|e| e.to_string())?)
                            .map_err(|e| e.to_string())?
                    } else if let Some(f) = &a.blob {
                        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
                        json!({ "blob": text })
                    } else {
                        json!({"image": a.image, "name": a.name, "version": a.version})
                    };
                    put("bundle", Some(bundle));
                }
                "createChannel" => put("bundles", Some(json!(a.bundles))),
                _ => {}
            }
            put("channel", a.channel.clone().map(Value::from));
            serde_json::from_value(Value::Object(m)).map_err(|e| format!("{}: {e}", a.operation))
        }

        /// Run `edit`: 0 done (or planned), 1 the operation does not apply or its result has
        /// new errors, 2 usage or I/O error (returned as `Err`).
        pub fn run(a: &EditArgs, out: &mut String) -> Result<u8, String> {
            let op = operation(a)?;
            let files = read_catalog(&a.path).map_err(|e| format!("{}: {e}", a.path.display()))?;
            let mut source = olm_catalog::render::BundleSource::new();
            for path in &a.template_bundles {
                let found = read_catalog(path).map_err(|e| format!("{}: {e}", path.display()))?;
                source.add_input(&found, &olm_catalog::render::bundle::BundleOptions::default());
            }
            let plan = match plan_edit_with(&files, &source, &op) {
                Ok(p) => p,
                Err(e) => {
                    if a.format == EditFormat::Json {
                        let err = json!({"error": e, "message": e.to_string()});
                        out.push_str(&serde_json::to_string_pretty(&err).unwrap_or_default());
                        out.push('\n');
                    } else {
                        eprintln!("olm-catalog: edit: {e}");
                    }
                    return Ok(1);
                }
            };
            print_plan(&plan, &files, a.format, out);
            let refused = plan.has_new_errors() && !a.force;
            if refused {
                eprintln!("olm-catalog: edit: the result has new errors; nothing written (--force writes anyway)");
            } else if !a.dry_run {
                write_files(&a.path, &plan)?;
            }
            Ok(if refused { 1 } else { 0 })
        }

        fn print_plan(plan: &EditPlan, files: &[olm_catalog::FileInput], format: EditFormat, out: &mut String) {
            match format {
                EditFormat::Json => {
                    out.push_str(&serde_json::to_string_pretty(plan).unwrap_or_default());
                    out.push('\n');
                }
                EditFormat::Patch => {
                    for f in &plan.files {
                        let old = files.iter().find(|o| o.path == f.path).map(|o| &o.content[..]).unwrap_or(b"");
                        let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(&f.content));
                        let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
                        let header = (format!("a/{}", f.path), format!("b/{}", f.path));
                        out.push_str(&diff.unified_diff().context_radius(3).header(&header.0, &header.1).to_string());
                    }
                }
                EditFormat::Text => {
                    for e in &plan.edits {
                        let what = if e.range.start == e.range.end { "insert" } else { "replace" };
                        out.push_str(&format!(
                            "{}:{}:{}: {what} {} bytes\n",
                            e.file,
                            e.lsp.start.line + 1,
                            e.lsp.start.character + 1,
                            e.new_text.len()
                        ));
                    }
                    out.push_str(&olm_catalog::diff::to_text(&plan.diff));
                    for d in plan.findings.iter().filter(|d| !plan.diff.findings.contains(d)) {
                        out.push_str(&format!(
                            "{}:{}:{}: {} [{}] {}\n",
                            d.location.file,
                            d.location.line,
                            d.location.column,
                            d.severity,
                            d.code.as_str(),
                            d.message
                        ));
                    }
                }
            }
        }

        fn write_files(root: &std::path::Path, plan: &EditPlan) -> Result<(), String> {
            for f in &plan.files {
                let path = if root.is_dir() { root.join(&f.path) } else { root.to_path_buf() };
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
                std::fs::write(&path, &f.content).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(())
        }
    }

    pub fn main() -> ExitCode {
        let cli = match Cli::try_parse() {
            Ok(c) => c,
            Err(e) => {
                let _ = e.print();
                return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
            }
        };
        let mut out = String::new();
        let result = match cli.command {
            Command::Validate { paths, format, no_lints, config, lint, deny_warnings, olm_v1, baseline } => {
                let settings = LintSettings { file: config, lint, deny_warnings, olm_v1 };
                validate(&paths, format, !no_lints, &settings, baseline.as_deref(), &mut out)
            }
            Command::Graph {
                path,
                format: GraphFormat::Svg,
                package,
                channel,
                from,
                semantics,
                theme,
                expand,
                no_collapse,
                expand_ranges,
                ..
            } => {
                let flags = SvgFlags { from, semantics, theme, expand, collapse: !no_collapse, fans: expand_ranges };
                graph_svg(&path, &package, channel, flags, &mut out)
            }
            Command::Graph {
                path,
                package,
                channel,
                format,
                minimum_edge,
                v0_semantics,
                expand_ranges,
                max_edges,
                ..
            } => {
                let mermaid = MermaidFlags { minimum_edge, v0_semantics };
                let budget = GraphBudget { expand_ranges, max_edges };
                graph(&path, &package, channel.as_deref(), format, mermaid, budget, &mut out)
            }
            Command::Path { path, package, channel, from, semantics, format } => {
                path_cmd(&path, &package, &channel, &from, semantics, format, &mut out)
            }
            Command::Resolve { problem, format } => resolve_cmd(&problem, format, &mut out),
            Command::Operatorgroup { check, format } => operatorgroup_cmd(&check, format, &mut out),
            Command::Rbac {
                path,
                package,
                bundle,
                install_mode,
                namespace,
                operator_group,
                target_namespaces,
                format,
            } => {
                let group = RbacGroup { install_mode, namespace, operator_group, target_namespaces };
                rbac_cmd(&path, &package, bundle.as_deref(), &group, format, &mut out)
            }
            Command::Render { paths, format, migrate_level, image_ref_template, output_dir, validate } => {
                let options =
                    BundleOptions { image: None, image_ref_template, migrate_csv_metadata: migrate_level.is_some() };
                render_cmd(&paths, &options, format.into(), output_dir.as_deref(), validate, &mut out)
            }
            Command::Template { file, bundles, kind, image_ref_template, format, output_dir, validate } => {
                let options = BundleOptions { image: None, image_ref_template, migrate_csv_metadata: false };
                let kind = kind.map(|k| match k {
                    KindArg::Basic => TemplateKind::Basic,
                    KindArg::Semver => TemplateKind::Semver,
                    KindArg::Substitutes => TemplateKind::Substitutes,
                });
                template_cmd(&file, &bundles, kind, &options, format, output_dir.as_deref(), validate, &mut out)
            }
            Command::Diff { old, new, format, package } => diff_cmd(&old, &new, format, package, &mut out),
            Command::Deps { path, package, format, heads_only } => {
                deps_cmd(&path, &package, format, heads_only, &mut out)
            }
            Command::ConvertTemplate { kind: ConvertKind::Basic, path, format } => {
                convert_cmd(&path, format.into(), &mut out)
            }
            Command::Edit(args) => edit_cli::run(&args, &mut out).map_err(Fail),
        };
        // A closed pipe (`| head`) is not an error worth a panic.
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
        match result {
            Ok(code) => ExitCode::from(code),
            Err(Fail(m)) => {
                eprintln!("olm-catalog: {m}");
                ExitCode::from(2)
            }
        }
    }

    /// Read a problem file; catalogs with a `path` are loaded from that FBC directory or file
    /// (relative to the problem file).
    fn read_problem(file: &Path) -> Result<olm_catalog::cluster::Cluster, Fail> {
        use olm_catalog::cluster::problem_json::{ProblemError, ProblemJson};
        let text = std::fs::read_to_string(file).map_err(|e| Fail(format!("{}: {e}", file.display())))?;
        let problem: ProblemJson = serde_json::from_str(&text)
            .map_err(|e| Fail(format!("{}: not a resolution problem: {e}", file.display())))?;
        let base = file.parent().unwrap_or(Path::new("."));
        let mut failed = None;
        let cluster = problem.into_cluster_with(&mut |c, p| match load(&base.join(p)) {
            Ok(cfg) => Ok(model::build(&cfg).0),
            Err(Fail(m)) => {
                failed = Some(Fail(m.clone()));
                Err(ProblemError::Load { catalog: c.name.clone(), message: m })
            }
        });
        match (cluster, failed) {
            (Ok(c), _) => Ok(c),
            (Err(_), Some(f)) => Err(f),
            (Err(e), None) => Err(Fail(e.to_string())),
        }
    }

    fn resolve_cmd(file: &Path, format: TextOrJson, out: &mut String) -> Result<u8, Fail> {
        let problem = read_problem(file)?;
        let outcome = olm_catalog::resolve::Outcome::from(olm_catalog::resolve::resolve(&problem));
        match format {
            TextOrJson::Json => {
                out.push_str(&serde_json::to_string_pretty(&outcome.with_texts()).map_err(|e| Fail(e.to_string()))?);
                out.push('\n');
            }
            TextOrJson::Text => out.push_str(&outcome.to_text()),
        }
        Ok(if outcome.error_type.is_none() { 0 } else { 1 })
    }

    /// Read a check file (a catalog `path` is relative to it), run it; exit 1 unless supported.
    fn operatorgroup_cmd(file: &Path, format: TextOrJson, out: &mut String) -> Result<u8, Fail> {
        use olm_catalog::cluster::operator_group_json::CheckJson;
        let text = std::fs::read_to_string(file).map_err(|e| Fail(format!("{}: {e}", file.display())))?;
        let json: CheckJson = serde_json::from_str(&text)
            .map_err(|e| Fail(format!("{}: not an operatorgroup check: {e}", file.display())))?;
        let base = file.parent().unwrap_or(Path::new("."));
        let check = json
            .into_check(&mut |p| load(&base.join(p)).map(|cfg| model::build(&cfg).0).map_err(|Fail(m)| m))
            .map_err(|e| Fail(format!("{}: {e}", file.display())))?;
        let report = olm_catalog::operatorgroup::check(&check);
        match format {
            TextOrJson::Json => {
                out.push_str(&serde_json::to_string_pretty(&report).map_err(|e| Fail(e.to_string()))?);
                out.push('\n');
            }
            TextOrJson::Text => out.push_str(&report.to_text()),
        }
        Ok(if report.membership.outcome.is_supported() { 0 } else { 1 })
    }

    /// The OperatorGroup options of `rbac`.
    struct RbacGroup {
        install_mode: Option<InstallModeArg>,
        namespace: String,
        operator_group: String,
        target_namespaces: Option<Vec<String>>,
    }

    /// Preview a bundle's RBAC under each install mode asked for (or that the CSV supports); exit
    /// 1 when the CSV's permissions are unknown or a mode asked for is not supported.
    fn rbac_cmd(
        path: &Path,
        package: &str,
        bundle: Option<&str>,
        group: &RbacGroup,
        format: RbacFormat,
        out: &mut String,
    ) -> Result<u8, Fail> {
        use olm_catalog::operatorgroup::rbac_bundle::{preview_bundle_rbac, RbacRequest, RbacRequestError};
        use olm_catalog::operatorgroup::InstallModeType;
        let (m, _) = model::build(&load(path)?);
        let request = RbacRequest {
            package: package.to_string(),
            bundle: bundle.map(str::to_string),
            install_mode: group.install_mode.map(|m| InstallModeType::ALL[m as usize]),
            namespace: group.namespace.clone(),
            operator_group: group.operator_group.clone(),
            target_namespaces: group.target_namespaces.clone(),
        };
        let rbac = match preview_bundle_rbac(&m, &request) {
            Ok(r) => r,
            Err(RbacRequestError::UnknownPackage(p)) => {
                return Err(Fail(format!("no package {p:?} in {}", path.display())))
            }
            Err(e @ RbacRequestError::NoCsv(_)) => {
                eprintln!("olm-catalog: {e}");
                return Ok(1);
            }
            Err(e) => return Err(Fail(e.to_string())),
        };
        if rbac.previews.is_empty() {
            eprintln!("olm-catalog: {}", rbac.problem().unwrap_or_default());
            return Ok(1);
        }
        match format {
            RbacFormat::Text => out.push_str(&rbac.to_text()),
            RbacFormat::Json => {
                out.push_str(&serde_json::to_string_pretty(&rbac.previews).map_err(|e| Fail(e.to_string()))?);
                out.push('\n');
            }
            RbacFormat::Yaml => out.push_str(&rbac.to_yaml()),
        }
        if !rbac.permissions_known {
            eprintln!("olm-catalog: {}", rbac.problem().unwrap_or_default());
            return Ok(1);
        }
        Ok(if rbac.previews.iter().any(|p| p.unsupported.is_some()) { 1 } else { 0 })
    }

    fn read(path: &Path) -> Result<Vec<olm_catalog::declcfg::FileInput>, Fail> {
        read_catalog(path).map_err(|e| Fail(format!("{}: {e}", path.display())))
    }

    /// The model of the catalog at `path`, its file names prefixed with `path` so that the
    /// findings of two catalogs tell them apart.
    fn load_model(path: &Path) -> Result<model::Model, Fail> {
        let is_dir = path.is_dir();
        let mut files = read(path)?;
        for f in &mut files {
            f.path = if is_dir { path.join(&f.path).display().to_string() } else { path.display().to_string() };
        }
        Ok(model::build(&load_files(&files).config).0)
    }

    /// Compare two catalogs; exit 1 when an update-safety error is found.
    fn diff_cmd(
        old: &Path,
        new: &Path,
        format: DiffFormat,
        package: Option<String>,
        out: &mut String,
    ) -> Result<u8, Fail> {
        use olm_catalog::diff::{diff_with, to_text, DiffOptions};
        let result = diff_with(&load_model(old)?, &load_model(new)?, &DiffOptions { package });
        match format {
            DiffFormat::Json => {
                out.push_str(&serde_json::to_string_pretty(&result).map_err(|e| Fail(e.to_string()))?);
                out.push('\n');
            }
            DiffFormat::Text => out.push_str(&to_text(&result)),
            _ => out.push_str(&report_format(format).map(|f| render_diff(f, &result)).unwrap_or_default()),
        }
        Ok(if result.has_errors() { 1 } else { 0 })
    }

    fn load(path: &Path) -> Result<DeclarativeConfig, Fail> {
        Ok(load_loaded(path)?.config)
    }

    /// The catalog at `path`, loaded file by file (the whole input is never in memory at once).
    fn load_loaded(path: &Path) -> Result<olm_catalog::Loaded, Fail> {
        olm_catalog::load_dir(path).map_err(|e| Fail(format!("{}: {e}", path.display())))
    }

    /// The lint options of `validate`.
    struct LintSettings {
        file: Option<PathBuf>,
        lint: Vec<String>,
        deny_warnings: bool,
        olm_v1: bool,
    }

    /// The first `.olm-catalog.yaml` (or `.yml`) from the catalog's directory upwards.
    fn find_config(catalog: &Path) -> Option<PathBuf> {
        let abs = std::path::absolute(catalog).ok()?;
        let start = if abs.is_dir() { abs.as_path() } else { abs.parent()? };
        start
            .ancestors()
            .find_map(|dir| [".olm-catalog.yaml", ".olm-catalog.yml"].iter().map(|n| dir.join(n)).find(|f| f.is_file()))
    }

    /// The configuration for `catalog`: its file (given or found), then the command line.
    fn lint_config(catalog: &Path, settings: &LintSettings) -> Result<LintConfig, Fail> {
        let mut config = LintConfig::default();
        if let Some(file) = settings.file.clone().or_else(|| find_config(catalog)) {
            let bytes = std::fs::read(&file).map_err(|e| Fail(format!("{}: {e}", file.display())))?;
            let found = LintConfig::from_file(&file.display().to_string(), &bytes)
                .map_err(|ds| Fail(ds.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")))?;
            config.merge(found);
        }
        let mut cli =
            LintConfig { deny_warnings: settings.deny_warnings, olm_v1: settings.olm_v1, ..LintConfig::default() };
        for s in &settings.lint {
            cli.set(s).map_err(|e| Fail(format!("--lint {s}: {e}")))?;
        }
        config.merge(cli);
        Ok(config)
    }

    fn validate(
        paths: &[PathBuf],
        format: ValidateFormat,
        lints: bool,
        settings: &LintSettings,
        baseline: Option<&Path>,
        out: &mut String,
    ) -> Result<u8, Fail> {
        let mut valid = true;
        let mut passes = true;
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        let mut opm_messages = Vec::new();
        for path in paths {
            let config = lint_config(path, settings)?;
            let deny_warnings = config.deny_warnings;
            let options = Options { lints, config };
            let result = validate_loaded_with(load_loaded(path)?, options.clone());
            let report = match baseline {
                Some(old) => only_new(&result, &validate_loaded_with(load_loaded(old)?, options)),
                None => result.report,
            };
            valid &= report.valid;
            passes &= report.passes(deny_warnings);
            if let Some(m) = report.opm_message {
                opm_messages.push(m);
            }
            let is_dir = path.is_dir();
            for mut d in report.diagnostics {
                let prefix = |f: &mut String| {
                    *f = if is_dir { path.join(&*f).display().to_string() } else { path.display().to_string() };
                };
                prefix(&mut d.location.file);
                for r in &mut d.related {
                    prefix(&mut r.location.file);
                }
                diagnostics.push(d);
            }
        }
        let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
        let (errors, warnings, notes) = (count(Severity::Error), count(Severity::Warning), count(Severity::Note));
        match format {
            ValidateFormat::Text => {
                for d in &diagnostics {
                    out.push_str(&format!("{d}\n"));
                }
                let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
                let mut summary = format!(
                    "{}: {}, {}",
                    if valid { "valid" } else { "invalid" },
                    plural(errors, "error"),
                    plural(warnings, "warning")
                );
                if notes > 0 {
                    summary.push_str(&format!(", {}", plural(notes, "note")));
                }
                out.push_str(&summary);
                out.push('\n');
            }
            ValidateFormat::Json => {
                // A struct, not `json!`: the findings keep their field order, as in the Node CLI.
                #[derive(serde::Serialize)]
                struct Output<'a> {
                    diagnostics: &'a [Diagnostic],
                    valid: bool,
                }
                out.push_str(
                    &serde_json::to_string_pretty(&Output { diagnostics: &diagnostics, valid }).unwrap_or_default(),
                );
                out.push('\n');
            }
            ValidateFormat::Opm => {
                for m in &opm_messages {
                    out.push_str(m);
                    out.push('\n');
                }
            }
            _ => {
                if let Some(f) = report_format(format) {
                    out.push_str(&render_diagnostics(f, &diagnostics, valid));
                }
            }
        }
        Ok(if passes { 0 } else { 1 })
    }

    /// Print findings on stderr, compiler style, file names as the user gave them.
    fn report(diagnostics: &[Diagnostic]) {
        let mut err = std::io::stderr().lock();
        for d in diagnostics {
            let _ = writeln!(err, "{d}");
        }
    }

    /// `path`'s findings with their files named from the working directory.
    fn prefixed(path: &Path, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut rendered = Rendered { diagnostics, ..Rendered::default() };
        rendered.name_files(&path.display().to_string(), !path.is_dir());
        rendered.diagnostics
    }

    /// The output of `render` and `template`: one stream, or one file per package under `dir`.
    fn emit(
        cfg: &DeclarativeConfig,
        format: Format,
        loaded_only: bool,
        dir: Option<&Path>,
        out: &mut String,
    ) -> Result<(), Fail> {
        let Some(dir) = dir else {
            out.push_str(&if loaded_only { write::write_loaded(cfg, format) } else { write::write(cfg, format) });
            return Ok(());
        };
        for (package, text) in write::write_by_package(cfg, format) {
            let folder = dir.join(&package);
            std::fs::create_dir_all(&folder).map_err(|e| Fail(format!("{}: {e}", folder.display())))?;
            let file = folder.join(format!("catalog{}", format.extension()));
            std::fs::write(&file, text).map_err(|e| Fail(format!("{}: {e}", file.display())))?;
        }
        Ok(())
    }

    /// Report a rendering's findings (and, with `check`, its validation's); the exit code.
    fn finish(rendered: Rendered, check: bool) -> (DeclarativeConfig, Vec<Diagnostic>, u8) {
        if !check {
            let code = u8::from(rendered.diagnostics.iter().any(Diagnostic::is_error));
            return (rendered.config, rendered.diagnostics, code);
        }
        let validated = rendered.validate(Options::default());
        let code = u8::from(!validated.report.valid);
        (validated.loaded.config, validated.report.diagnostics, code)
    }

    fn render_cmd(
        paths: &[PathBuf],
        options: &BundleOptions,
        format: Format,
        dir: Option<&Path>,
        check: bool,
        out: &mut String,
    ) -> Result<u8, Fail> {
        let mut all = Rendered::default();
        let mut only_catalogs = true;
        for path in paths {
            let (kind, mut rendered) = render_input(&read(path)?, options);
            only_catalogs &= kind == InputKind::Catalog;
            rendered.name_files(&path.display().to_string(), !path.is_dir());
            all.config.extend(rendered.config);
            all.diagnostics.extend(rendered.diagnostics);
        }
        let (config, diagnostics, code) = finish(all, check);
        report(&diagnostics);
        emit(&config, format, only_catalogs, dir, out)?;
        Ok(code)
    }

    #[allow(clippy::too_many_arguments)]
    fn template_cmd(
        file: &Path,
        bundles: &[PathBuf],
        kind: Option<TemplateKind>,
        options: &BundleOptions,
        format: TemplateFormat,
        dir: Option<&Path>,
        check: bool,
        out: &mut String,
    ) -> Result<u8, Fail> {
        let mut source = BundleSource::new();
        // Problems in the bundle sources are reported but do not fail the expansion.
        let mut source_diags = Vec::new();
        for path in bundles {
            source_diags.extend(prefixed(path, source.add_input(&read(path)?, options)));
        }
        let bytes = std::fs::read(file).map_err(|e| Fail(format!("{}: {e}", file.display())))?;
        let input = FileInput::new(file.display().to_string(), bytes);
        let rendered = match kind {
            Some(k) => expand_template_as(k, &input, &source),
            None => expand_template(&input, &source),
        };
        let (config, diagnostics, code) = finish(rendered, check);
        report(&source_diags);
        report(&diagnostics);
        match format {
            TemplateFormat::Json => emit(&config, Format::Json, false, dir, out)?,
            TemplateFormat::Yaml => emit(&config, Format::Yaml, false, dir, out)?,
            TemplateFormat::Mermaid => {
                let (m, _) = model::build(&config);
                out.push_str(&to_mermaid(&m, &MermaidOptions::default()).map_err(|e| Fail(e.to_string()))?);
            }
        }
        Ok(code)
    }

    fn convert_cmd(path: &Path, format: Format, out: &mut String) -> Result<u8, Fail> {
        let loaded = load_files(&read(path)?);
        let errors: Vec<Diagnostic> = loaded.diagnostics.into_iter().filter(Diagnostic::is_error).collect();
        if !errors.is_empty() {
            report(&prefixed(path, errors));
            return Ok(1);
        }
        out.push_str(&write_basic_template(&to_basic_template(&loaded.config), format));
        Ok(0)
    }

    /// A package's cross-package view; exit 1 when a requirement is unsatisfied or unreadable.
    fn deps_cmd(
        path: &Path,
        package: &str,
        format: TextOrJson,
        heads_only: bool,
        out: &mut String,
    ) -> Result<u8, Fail> {
        use olm_catalog::deps::{package_deps, DepsOptions};
        let (m, _) = model::build(&load(path)?);
        let deps = package_deps(&m, package, &DepsOptions { heads_only })
            .map_err(|e| Fail(format!("{}: {e}", path.display())))?;
        match format {
            TextOrJson::Json => {
                out.push_str(&serde_json::to_string_pretty(&deps).map_err(|e| Fail(e.to_string()))?);
                out.push('\n');
            }
            TextOrJson::Text => out.push_str(&deps.to_text()),
        }
        Ok(u8::from(deps.has_unmet()))
    }

    /// `graph`'s Mermaid options.
    struct MermaidFlags {
        minimum_edge: Option<String>,
        v0_semantics: bool,
    }

    /// `graph`'s skipRange expansion: whether JSON expands them, and the most edges allowed.
    struct GraphBudget {
        expand_ranges: bool,
        max_edges: usize,
    }

    fn graph(
        path: &Path,
        package: &str,
        channel: Option<&str>,
        format: GraphFormat,
        mermaid: MermaidFlags,
        budget: GraphBudget,
        out: &mut String,
    ) -> Result<u8, Fail> {
        let (m, _) = model::build(&load(path)?);
        let p = m.package(package).ok_or_else(|| Fail(format!("no package {package:?} in {}", path.display())))?;
        let channels: Vec<&model::Channel> = match channel {
            Some(c) => vec![p.channel(c).ok_or_else(|| Fail(format!("package {package:?} has no channel {c:?}")))?],
            None => p.channels.iter().collect(),
        };
        match format {
            GraphFormat::Mermaid => {
                let channel = channel.map(str::to_string);
                let MermaidFlags { minimum_edge, v0_semantics } = mermaid;
                let opts = MermaidOptions { minimum_edge, package: Some(package.to_string()), channel, v0_semantics };
                out.push_str(&to_mermaid_within(&m, &opts, budget.max_edges).map_err(|e| Fail(e.to_string()))?);
            }
            GraphFormat::Dot => {
                let graphs: Vec<ChannelGraph> = match channel {
                    Some(_) => vec![ChannelGraph::new(p, channels[0])],
                    None => PackageGraph::new(p).channels,
                };
                out.push_str(&to_dot_within(&graphs, budget.max_edges));
            }
            GraphFormat::Svg => return Err(Fail("--format svg is drawn by graph_svg".into())),
            GraphFormat::Json => {
                let fail = |e: olm_catalog::graph::ExpansionError| Fail(e.to_string());
                let json = match channel {
                    Some(_) => {
                        let mut g = ChannelGraph::new(p, channels[0]);
                        if budget.expand_ranges {
                            g.expand_ranges(budget.max_edges).map_err(fail)?;
                        }
                        serde_json::to_string_pretty(&SortedKeys(&g))
                    }
                    None => {
                        let mut g = PackageGraph::new(p);
                        if budget.expand_ranges {
                            g.expand_ranges(budget.max_edges).map_err(fail)?;
                        }
                        serde_json::to_string_pretty(&SortedPackageGraph(&g))
                    }
                };
                out.push_str(&json.map_err(|e| Fail(e.to_string()))?);
                out.push('\n');
            }
        }
        Ok(0)
    }

    /// A value written with its object keys sorted (through a `serde_json::Value`, whose maps
    /// are sorted), as the graph JSON has always been printed.
    struct SortedKeys<'a, T>(&'a T);

    impl<T: serde::Serialize> serde::Serialize for SortedKeys<'_, T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serde_json::to_value(self.0).map_err(serde::ser::Error::custom)?.serialize(s)
        }
    }

    /// A package graph with sorted keys, one channel's `Value` at a time (a package of 5,000
    /// channels never exists as one `Value` tree).
    struct SortedPackageGraph<'a>(&'a PackageGraph);

    impl serde::Serialize for SortedPackageGraph<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq};
            struct Channels<'a>(&'a [ChannelGraph]);
            impl serde::Serialize for Channels<'_> {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut seq = s.serialize_seq(Some(self.0.len()))?;
                    for c in self.0 {
                        seq.serialize_element(&SortedKeys(c))?;
                    }
                    seq.end()
                }
            }
            let g = self.0;
            let mut map = s.serialize_map(Some(4))?;
            map.serialize_entry("bundleChannels", &g.bundle_channels)?;
            map.serialize_entry("channels", &Channels(&g.channels))?;
            map.serialize_entry("defaultChannel", &g.default_channel)?;
            map.serialize_entry("package", &g.package)?;
            map.end()
        }
    }

    fn path_cmd(
        path: &Path,
        package: &str,
        channel: &str,
        from: &str,
        semantics: SemanticsArg,
        format: TextOrJson,
        out: &mut String,
    ) -> Result<u8, Fail> {
        let cfg = load(path)?;
        let (m, _) = model::build(&cfg);
        let p = m.package(package).ok_or_else(|| Fail(format!("no package {package:?} in {}", path.display())))?;
        let c = p.channel(channel).ok_or_else(|| Fail(format!("package {package:?} has no channel {channel:?}")))?;
        let semantics = match semantics {
            SemanticsArg::V0 => Semantics::V0,
            SemanticsArg::V1 => Semantics::V1,
        };
        // `--from` names a bundle, or else may be a version (`1.2.0`, `v1.2.0`).
        let version = Version::parse(from.strip_prefix('v').unwrap_or(from)).ok();
        let start = Start::from_input(p, from, version);
        let up = upgrade_path(p, c, &start, semantics).map_err(|e| Fail(e.to_string()))?;
        match format {
            TextOrJson::Json => {
                out.push_str(&serde_json::to_string_pretty(&up).unwrap_or_default());
                out.push('\n');
            }
            TextOrJson::Text => {
                let head = up.to.as_deref().unwrap_or("(no head)");
                if up.steps.is_empty() && !up.stranded {
                    out.push_str(&format!("{} is the head of channel {channel}\n", up.from));
                }
                for s in &up.steps {
                    out.push_str(&format!("{} -> {} ({})\n", s.from, s.to, s.edge.as_str()));
                }
                if up.stranded {
                    out.push_str(&format!(
                        "stranded: no path from {} to {head}: {}\n",
                        up.from,
                        up.reason.as_deref().unwrap_or("")
                    ));
                } else if !up.steps.is_empty() {
                    out.push_str(&format!(
                        "{} upgrade{} to reach {head}\n",
                        up.steps.len(),
                        if up.steps.len() == 1 { "" } else { "s" }
                    ));
                }
            }
        }
        Ok(if up.stranded { 1 } else { 0 })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_package_graph_is_printed_as_its_sorted_value() {
            let yaml = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
                schema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n- {name: foo.v2, replaces: foo.v1, skipRange: '<2.0.0'}\n---\n\
                schema: olm.channel\npackage: foo\nname: fast\nentries:\n- name: foo.v2\n---\n\
                schema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
                - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n---\n\
                schema: olm.bundle\npackage: foo\nname: foo.v2\nimage: example.com/foo:2\nproperties:\n\
                - {type: olm.package, value: {packageName: foo, version: 2.0.0}}\n";
            let (m, _) = model::build(&load_files(&[FileInput::new("c.yaml", yaml)]).config);
            let g = PackageGraph::new(m.package("foo").expect("foo"));
            let want = serde_json::to_string_pretty(&serde_json::to_value(&g).expect("value")).expect("json");
            assert_eq!(serde_json::to_string_pretty(&SortedPackageGraph(&g)).expect("json"), want);
            let c = &g.channels[0];
            let want = serde_json::to_string_pretty(&serde_json::to_value(c).expect("value")).expect("json");
            assert_eq!(serde_json::to_string_pretty(&SortedKeys(c)).expect("json"), want);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    native::main()
}
