//! `olm-catalog edit`: flags turned into an operation, the plan printed, the files written.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use olm_catalog::edit::{bundle_from_directory, plan_edit_with, EditPlan, Operation};
use olm_catalog::read_catalog;
use olm_catalog::render::bundle::BundleOptions;
use olm_catalog::render::BundleSource;
use olm_catalog::FileInput;
use olm_catalog_save::{Expect, FileWrite};
use serde_json::{json, Map, Value};

use crate::output::{answer, push_json, Fail, NEGATIVE};

pub const EXIT_CODES: &str = "Exit codes:
- 0: applied (or planned, with --dry-run)
- 1: the operation does not apply (the reason on stderr, or {\"error\", \"message\"} with --format \
json), or its result has errors the catalog did not have (nothing written unless --force)
- 2: usage or I/O error, or a file changed on disk since it was read (nothing written unless \
--force)

Writes are atomic and all or nothing: every changed file is written beside its target, flushed \
and renamed over it; a failure puts back the files already replaced, and a save a crash \
interrupted is finished by the next command that reads the catalog.";

#[derive(clap::Args)]
pub struct Args {
    /// The catalog directory or file.
    ///
    /// For a package maintained as a template: the template file, or a directory holding a
    /// template beside its rendered catalog (the template that expands to `--package` is edited).
    path: PathBuf,
    /// The operation: addBundle, promote, createChannel, renameChannel, removeChannel,
    /// setDefaultChannel, deprecate, undeprecate, removeBundle, setEdges (or `json`
    /// with `--op`).
    operation: String,
    /// The whole operation as JSON (`{"op":"deprecate","package":…}`).
    #[arg(long)]
    op: Option<String>,
    /// The package the operation is on.
    #[arg(long)]
    package: Option<String>,
    /// The bundle the operation is on (deprecate: else the `--channel`, else the package).
    #[arg(long)]
    bundle: Option<String>,
    /// The channel the operation is on (addBundle: one more of `--channels`).
    #[arg(long)]
    channel: Option<String>,
    /// Channels (comma-separated) for addBundle.
    #[arg(long, value_delimiter = ',')]
    channels: Vec<String>,
    /// Bundles (comma-separated) for createChannel.
    #[arg(long, value_delimiter = ',')]
    bundles: Vec<String>,
    /// deprecate: the deprecation message.
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
    /// addBundle: the new bundle's name (with --image).
    #[arg(long)]
    name: Option<String>,
    /// addBundle: the new bundle's version (with --image).
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
    /// Write even when the result has new errors, or a file changed on disk since it was read.
    #[arg(long)]
    force: bool,
    /// Output format (of the plan).
    #[arg(long, value_enum, default_value_t = EditFormat::Text)]
    format: EditFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EdgeArg {
    /// Replace the channel's head.
    Replaces,
    /// A skipRange over the channel (and `skips` of the head).
    SkipRange,
    /// The semver template's rule.
    Semver,
    /// The `--replaces`, `--skips` and `--skip-range` given.
    Explicit,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EditFormat {
    /// The edits, the catalog diff and the new findings.
    Text,
    /// The plan: `{edits, undo, diff, findings, graphs}`.
    Json,
    /// A unified diff of the files.
    Patch,
}

/// The operation the flags describe.
fn operation(a: &Args) -> Result<Operation, Fail> {
    if let Some(op) = &a.op {
        return serde_json::from_str(op).map_err(|e| Fail(format!("--op: {e}")));
    }
    let mut m = Map::new();
    m.insert("op".into(), json!(a.operation));
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(k.into(), v);
        }
    };
    put("package", a.package.clone().map(Value::from));
    put("bundle", a.bundle.clone().map(Value::from));
    put("message", a.message.clone().map(Value::from));
    put("to", a.to.clone().map(Value::from));
    put("edge", edge(a));
    match a.operation.as_str() {
        "setEdges" => {
            put("replaces", a.replaces.clone().map(Value::from));
            put("skips", list(&a.skips));
            put("skipRange", a.skip_range.clone().map(Value::from));
        }
        "addBundle" => {
            // A bundle is added to channels: `--channel X` is one more of them.
            let channels: Vec<&String> = a.channels.iter().chain(&a.channel).collect();
            put("channels", Some(json!(channels)));
            put("bundle", Some(new_bundle(a)?));
        }
        "createChannel" => put("bundles", Some(json!(a.bundles))),
        _ => {}
    }
    if a.operation != "addBundle" {
        put("channel", a.channel.clone().map(Value::from));
    }
    serde_json::from_value(Value::Object(m)).map_err(|e| Fail(format!("{}: {e}", a.operation)))
}

/// A comma-separated list, its empty items dropped.
fn list(s: &Option<String>) -> Option<Value> {
    s.as_ref().map(|s| json!(s.split(',').filter(|x| !x.is_empty()).collect::<Vec<_>>()))
}

/// `--edge` as the operation's `edge`.
fn edge(a: &Args) -> Option<Value> {
    Some(match a.edge? {
        EdgeArg::Replaces => json!({"kind": "replaces"}),
        EdgeArg::SkipRange => json!({"kind": "skipRange"}),
        EdgeArg::Semver => json!({"kind": "semver"}),
        EdgeArg::Explicit => json!({"kind": "explicit", "replaces": a.replaces,
            "skips": list(&a.skips).unwrap_or(json!([])), "skipRange": a.skip_range}),
    })
}

/// addBundle's bundle: from a directory, a blob file, or an image with a name and version.
fn new_bundle(a: &Args) -> Result<Value, Fail> {
    if let Some(dir) = &a.from_dir {
        let files = read_catalog(dir).map_err(|e| Fail::at(dir, e))?;
        let bundle = bundle_from_directory(&files).map_err(|e| Fail(e.to_string()))?;
        serde_json::to_value(bundle).map_err(|e| Fail(e.to_string()))
    } else if let Some(f) = &a.blob {
        let text = std::fs::read_to_string(f).map_err(|e| Fail::at(f, e))?;
        Ok(json!({ "blob": text }))
    } else {
        Ok(json!({"image": a.image, "name": a.name, "version": a.version}))
    }
}

/// Run `edit`: 0 done (or planned), 1 the operation does not apply or its result has
/// new errors, 2 usage or I/O error (returned as `Err`).
pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let op = operation(a)?;
    let files = crate::catalog::read(&a.path)?;
    let expected = snapshots(&a.path, &files)?;
    let mut source = BundleSource::new();
    for path in &a.template_bundles {
        let found = read_catalog(path).map_err(|e| Fail::at(path, e))?;
        source.add_input(&found, &BundleOptions::default());
    }
    let plan = match plan_edit_with(&files, &source, &op) {
        Ok(p) => p,
        Err(e) => {
            if a.format == EditFormat::Json {
                push_json(out, &json!({"error": e, "message": e.to_string()}))?;
            } else {
                eprintln!("olm-catalog: edit: {e}");
            }
            return Ok(NEGATIVE);
        }
    };
    print_plan(&plan, &files, a.format, out)?;
    let refused = plan.has_new_errors() && !a.force;
    if refused {
        eprintln!("olm-catalog: edit: the result has new errors; nothing written (--force writes anyway)");
    } else if !a.dry_run {
        write_files(&a.path, &plan, &expected, a.force)?;
    }
    Ok(answer(refused))
}

fn print_plan(plan: &EditPlan, files: &[FileInput], format: EditFormat, out: &mut String) -> Result<(), Fail> {
    match format {
        EditFormat::Json => push_json(out, plan)?,
        EditFormat::Patch => {
            for f in &plan.files {
                let old = files.iter().find(|o| o.path == f.path).map(|o| &o.content[..]).unwrap_or(b"");
                let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(&f.content));
                let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
                let header = (format!("a/{}", f.path), format!("b/{}", f.path));
                out.push_str(&diff.unified_diff().context_radius(3).header(&header.0, &header.1).to_string());
            }
        }
        EditFormat::Text => print_text(plan, out),
    }
    Ok(())
}

/// The edits (`file:line:col: insert|replace N bytes`), the catalog diff and the new findings.
fn print_text(plan: &EditPlan, out: &mut String) {
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
    out.push_str(&crate::colour::findings(&olm_catalog::diff::to_text(&plan.diff), crate::colour::stdout()));
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

/// What each file held when it was read (its path on disk, and the snapshot).
fn snapshots(root: &Path, files: &[FileInput]) -> Result<Vec<(PathBuf, Expect)>, Fail> {
    let is_dir = root.is_dir();
    files
        .iter()
        .map(|f| {
            let path = on_disk(root, is_dir, &f.path);
            Ok((path.clone(), crate::save::snapshot(&path, &f.content)?))
        })
        .collect()
}

/// Where a catalog file (its path in the plan) is on disk, `root` being a folder or the file.
fn on_disk(root: &Path, is_dir: bool, file: &str) -> PathBuf {
    if is_dir {
        root.join(file)
    } else {
        root.to_path_buf()
    }
}

/// Write the plan's files all or nothing: each must still be what was read (or not exist, for a
/// new file), unless `force`.
fn write_files(root: &Path, plan: &EditPlan, expected: &[(PathBuf, Expect)], force: bool) -> Result<(), Fail> {
    let is_dir = root.is_dir();
    let writes: Vec<FileWrite> = plan
        .files
        .iter()
        .map(|f| {
            let path = on_disk(root, is_dir, &f.path);
            let expect = match expected.iter().find(|(p, _)| *p == path) {
                _ if force => Expect::Anything,
                Some((_, e)) => e.clone(),
                None => Expect::Absent,
            };
            FileWrite { path, content: f.content.clone(), expect }
        })
        .collect();
    crate::save::write(&crate::save::root_of(root), &writes).map(|_| ())
}
