//! The clap definition of the command line: the commands (each one's arguments are in its module
//! of `commands/`) and where each is run. docs/cli.md is generated from it.

use clap::{Parser, Subcommand};

use crate::commands::{
    cli_reference, completions, convert_template, crd_safety, deps, diff, edit, graph, lsp, man, operatorgroup, path,
    rbac, render, resolve, template, validate,
};
use crate::output::{Fail, EXIT_CODES};

#[derive(Parser)]
#[command(
    name = "olm-catalog",
    version,
    about = "Validate and explore Operator Lifecycle Manager catalogs",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub images: crate::image::ImageArgs,
    /// Colour the text output: `auto` when it goes to a terminal and `NO_COLOR` is not set.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = crate::colour::When::Auto)]
    pub color: crate::colour::When,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check File-Based Catalogs the way `opm validate` does, and report every problem.
    #[command(after_help = validate::EXIT_CODES)]
    Validate(validate::Args),
    /// Draw a package's upgrade graph (all channels, or one).
    #[command(after_help = graph::EXIT_CODES)]
    Graph(graph::Args),
    /// The upgrades OLM takes from an installed bundle (or a bare version) to the channel head.
    #[command(after_help = path::EXIT_CODES)]
    Path(path::Args),
    /// Resolve subscriptions and dependencies as OLM v0 does: what would be installed, and why.
    #[command(after_help = resolve::EXIT_CODES)]
    Resolve(resolve::Args),
    /// Check a CSV against a cluster's OperatorGroups as OLM does: supported, or the reason and
    /// message OLM gives, the annotations it writes, and the bundle's install modes.
    #[command(after_help = operatorgroup::EXIT_CODES)]
    Operatorgroup(operatorgroup::Args),
    /// Preview the RBAC OLM generates for a bundle's CSV: the OperatorGroup's and the provided
    /// APIs' ClusterRoles, the Roles and bindings of its permissions in each target namespace,
    /// and what the operator may touch.
    #[command(after_help = rbac::EXIT_CODES)]
    Rbac(rbac::Args),
    /// Render bundle directories, trees of them (community layout), package manifests or
    /// catalogs into one File-Based Catalog, offline (`opm render`).
    #[command(after_help = render::EXIT_CODES)]
    Render(render::Args),
    /// Expand a catalog template (`olm.template.basic`, `olm.semver`,
    /// `olm.template.substitutes`), its bundle images looked up in `--bundles`, else pulled.
    #[command(after_help = template::EXIT_CODES)]
    Template(template::Args),
    /// Compare two catalogs: what changed, and where OLM v0 and v1 take every version
    /// installed from the old one (exit 1 when an update promise is broken).
    #[command(after_help = diff::EXIT_CODES)]
    Diff(diff::Args),
    /// A package's cross-package view: what it requires and who provides it, what nothing
    /// in the catalog satisfies, who requires it (exit 1 when a requirement is unmet).
    #[command(after_help = deps::EXIT_CODES)]
    Deps(deps::Args),
    /// Edit a catalog in place: one operation, its files rewritten with their formatting kept
    /// (exit 1 when the result has errors the catalog did not have; nothing is written then).
    #[command(after_help = edit::EXIT_CODES)]
    Edit(Box<edit::Args>),
    /// Whether CRDs may be upgraded, as OLM v1's CRD Upgrade Safety preflight and OLM v0 judge
    /// it: on every upgrade edge of a catalog, or between an old and a new CRD file or bundle
    /// directory (exit 1 when an upgrade is unsafe).
    #[command(after_help = crd_safety::EXIT_CODES)]
    CrdSafety(crd_safety::Args),
    /// Turn a File-Based Catalog into a template (`opm alpha convert-template basic`).
    #[command(after_help = convert_template::EXIT_CODES)]
    ConvertTemplate(convert_template::Args),
    /// Print the completion script of a shell (bash, zsh, fish, PowerShell).
    #[command(after_help = completions::AFTER_HELP)]
    Completions(completions::Args),
    /// Write the man pages (`olm-catalog.1`, one per command) into a directory.
    #[command(after_help = man::EXIT_CODES)]
    Man(man::Args),
    /// Run the language server (LSP 3.17 over standard input and output) for editors: findings
    /// as you type, hover, navigation, completion, symbols, quick fixes and rename.
    #[command(after_help = lsp::EXIT_CODES)]
    Lsp(lsp::Args),
    /// Print this command line's reference (docs/cli.md) as Markdown.
    #[command(name = "__cli-reference", hide = true)]
    CliReference,
}

impl Command {
    /// Run the command, its output appended to `out`; its exit code.
    pub fn run(self, out: &mut String) -> Result<u8, Fail> {
        match self {
            Command::Validate(a) => validate::run(&a, out),
            Command::Graph(a) => graph::run(a, out),
            Command::Path(a) => path::run(&a, out),
            Command::Resolve(a) => resolve::run(&a, out),
            Command::Operatorgroup(a) => operatorgroup::run(&a, out),
            Command::Rbac(a) => rbac::run(&a, out),
            Command::Render(a) => render::run(a, out),
            Command::Template(a) => template::run(a, out),
            Command::Diff(a) => diff::run(a, out),
            Command::Deps(a) => deps::run(&a, out),
            Command::Edit(a) => edit::run(&a, out),
            Command::CrdSafety(a) => crd_safety::run(&a, out),
            Command::ConvertTemplate(a) => convert_template::run(&a, out),
            Command::Completions(a) => completions::run(&a, out),
            Command::Man(a) => man::run(&a, out),
            Command::Lsp(a) => lsp::run(&a, out),
            Command::CliReference => cli_reference::run(out),
        }
    }
}
