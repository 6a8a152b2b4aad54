//! `olm-catalog completions SHELL`: the shell's completion script, generated from the clap
//! definition (clap_complete), so that it completes every command and option this binary has.

use clap::CommandFactory as _;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::output::{Fail, SUCCESS};

/// The help's last lines: how each shell loads the script, and the exit codes.
pub const AFTER_HELP: &str = "Load the script in the running shell, or install it (`make install` does):
- bash: `source <(olm-catalog completions bash)`
- zsh: `olm-catalog completions zsh > \"${fpath[1]}/_olm-catalog\"`
- fish: `olm-catalog completions fish > ~/.config/fish/completions/olm-catalog.fish`
- PowerShell: `olm-catalog completions powershell | Out-String | Invoke-Expression`

Exit codes:
- 0: the script was printed
- 2: usage error (an unknown shell)";

#[derive(clap::Args)]
pub struct Args {
    /// The shell the script is for.
    #[arg(value_enum)]
    shell: ShellArg,
}

/// The shells clap_complete writes for (its `Shell` less Elvish, which nobody asked for).
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ShellArg {
    Bash,
    Zsh,
    Fish,
    Powershell,
}

/// `cli` without its hidden commands (clap_complete completes them too, and clap cannot remove a
/// subcommand): the same version, arguments and other commands.
fn visible(cli: clap::Command) -> clap::Command {
    clap::Command::new("olm-catalog")
        .version(env!("CARGO_PKG_VERSION"))
        .args(cli.get_arguments().cloned())
        .subcommands(cli.get_subcommands().filter(|s| !s.is_hide_set()).cloned())
}

pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let shell = match a.shell {
        ShellArg::Bash => Shell::Bash,
        ShellArg::Zsh => Shell::Zsh,
        ShellArg::Fish => Shell::Fish,
        ShellArg::Powershell => Shell::PowerShell,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut visible(Cli::command()), "olm-catalog", &mut script);
    let script = String::from_utf8(script).map_err(|e| Fail(e.to_string()))?;
    out.push_str(&match shell {
        // clap_complete's bash script spells the state of a subcommand of a hyphenated binary one
        // way in its dispatch loop (`olm__catalog__subcmd__validate`) and another in the arms
        // that complete its options (`olm__subcmd__catalog__…`), so no option of a command ever
        // completed (clap-rs/clap#6421, open): the arms are spelled as the loop spells them.
        Shell::Bash => script.replace("olm__subcmd__catalog__subcmd__", "olm__catalog__subcmd__"),
        _ => script,
    });
    Ok(SUCCESS)
}
