//! The CLI in the shell: `make install` into a temporary DESTDIR and PREFIX (binary, man pages
//! man reads, bash completion bash loads and runs, zsh and fish completions), the completion
//! scripts of every shell, and colour (`--color`, `NO_COLOR`, a terminal, a pipe).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_olm-catalog");
const INVALID: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1.0.0\n- name: foo.v2.0.0\n  replaces: foo.v1.0.0\n---\nschema: olm.bundle\npackage: foo\nname: foo.v1.0.0\nimage: quay.io/foo/bundle:v1.0.0\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: 1.0.0\n";

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("olm-catalog-shell-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e} (make, bash and man are installed by `make setup`)"))
}

fn ok(cmd: &mut Command) -> String {
    let out = run(cmd);
    assert!(
        out.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// An invalid catalog (a channel entry without its bundle) in a fresh directory.
fn invalid_catalog(name: &str) -> PathBuf {
    let d = temp_dir(name);
    std::fs::create_dir_all(d.join("foo")).unwrap();
    std::fs::write(d.join("foo/catalog.yaml"), INVALID).unwrap();
    d
}

#[test]
fn make_install_puts_the_binary_man_pages_and_completions_where_the_shell_and_man_find_them() {
    let root = temp_dir("install");
    let stage = root.join("stage");
    let prefix = "/opt/olm";
    ok(Command::new("make").current_dir(env!("CARGO_MANIFEST_DIR")).args(["-s", "install"]).args([
        format!("DESTDIR={}", stage.display()),
        format!("PREFIX={prefix}"),
        format!("BIN={BIN}"),
    ]));
    let installed = stage.join(prefix.trim_start_matches('/'));
    let version = ok(Command::new(installed.join("bin/olm-catalog")).arg("--version"));
    assert!(version.starts_with("olm-catalog "), "{version}");
    // man finds the pages under PREFIX/share/man and renders them.
    let man =
        |page: &str| ok(Command::new("man").args(["-P", "cat", page]).env("MANPATH", installed.join("share/man")));
    let top = man("olm-catalog");
    assert!(top.contains("olm-catalog-validate(1)") && top.contains("Validate and explore"), "{top}");
    let validate = man("olm-catalog-validate");
    assert!(
        validate.contains("olm-catalog-validate - Check File-Based Catalogs") && validate.contains("--baseline"),
        "{validate}"
    );
    let status = &validate[validate.find("EXIT STATUS").expect("an EXIT STATUS section")..];
    assert!(status.contains("Exit codes:") && status.contains(" 0: valid") && status.contains(" 2: usage"), "{status}");
    // A page for every command the top page lists (help included), none for the hidden one.
    let pages = std::fs::read_dir(installed.join("share/man/man1")).unwrap().count();
    let listed =
        top.lines().filter(|l| l.trim_start().starts_with("olm-catalog-") && l.trim_end().ends_with("(1)")).count();
    assert!(pages >= 17 && pages == listed + 1, "{pages} pages, {listed} listed:\n{top}");
    assert!(!installed.join("share/man/man1/olm-catalog-__cli-reference.1").exists());
    // bash loads the completion and completes a command and an option.
    let bash = installed.join("share/bash-completion/completions/olm-catalog");
    let complete = |line: &str| {
        let script = format!(
            "source '{}'; complete -p olm-catalog; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; \
             read -ra COMP_WORDS <<< \"$COMP_LINE\"; COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); \
             _olm__catalog olm-catalog \"${{COMP_WORDS[-1]}}\" \"${{COMP_WORDS[-2]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            bash.display()
        );
        ok(Command::new("bash").args(["--norc", "--noprofile", "-c", &script]))
    };
    let commands = complete("olm-catalog vali");
    assert!(
        commands.starts_with("complete -o bashdefault -o default -o nosort -F _olm__catalog olm-catalog\n"),
        "{commands}"
    );
    assert!(commands.lines().any(|l| l == "validate"), "{commands}");
    assert!(complete("olm-catalog validate --base").lines().any(|l| l == "--baseline"));
    let zsh = std::fs::read_to_string(installed.join("share/zsh/site-functions/_olm-catalog")).unwrap();
    assert!(zsh.starts_with("#compdef olm-catalog"));
    let fish = std::fs::read_to_string(installed.join("share/fish/vendor_completions.d/olm-catalog.fish")).unwrap();
    assert!(fish.contains("complete -c olm-catalog") && fish.contains("validate"));
    // uninstall takes away what install put there.
    ok(Command::new("make")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-s", "uninstall"])
        .args([format!("DESTDIR={}", stage.display()), format!("PREFIX={prefix}")]));
    let left: Vec<_> = walk(&stage);
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&root);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            files.extend(walk(&e.path()));
        } else {
            files.push(e.path());
        }
    }
    files
}

#[test]
fn every_shell_has_a_completion_script_naming_the_commands() {
    for (shell, marker) in [
        ("bash", "complete -F _olm__catalog"),
        ("zsh", "#compdef olm-catalog"),
        ("fish", "complete -c olm-catalog"),
        ("powershell", "Register-ArgumentCompleter -Native -CommandName 'olm-catalog'"),
    ] {
        let script = ok(Command::new(BIN).args(["completions", shell]));
        assert!(script.contains(marker), "{shell}: {script}");
        for command in ["validate", "diff", "crd-safety", "completions"] {
            assert!(script.contains(command), "{shell} lacks {command}");
        }
        assert!(!script.contains("__cli-reference"), "{shell} completes the hidden command");
    }
    let out = run(Command::new(BIN).args(["completions", "tcsh"]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn man_writes_one_page_per_command_and_fails_on_a_directory_it_cannot_make() {
    let dir = temp_dir("man");
    let printed = ok(Command::new(BIN).args(["man", "--out"]).arg(dir.join("pages")));
    assert!(printed.lines().count() >= 16, "{printed}");
    let roff = std::fs::read_to_string(dir.join("pages/olm-catalog-diff.1")).unwrap();
    assert!(roff.starts_with(".ie \\n(.g .ds Aq \\(aq") && roff.contains(".TH olm-catalog-diff 1"), "{roff}");
    std::fs::write(dir.join("file"), "").unwrap();
    let out = run(Command::new(BIN).args(["man", "--out"]).arg(dir.join("file/pages")));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("file/pages"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn validate(catalog: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(BIN);
    cmd.arg("validate").arg(catalog.join("foo")).args(args).env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = run(&mut cmd);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn colour_follows_the_flag_no_color_and_the_terminal() {
    let d = invalid_catalog("colour");
    let coloured = validate(&d, &["--color", "always"], &[]);
    assert!(coloured.contains("\u{1b}[1m\u{1b}[31merror\u{1b}[0m"), "{coloured:?}");
    assert!(coloured.contains("\u{1b}[1m\u{1b}[31minvalid\u{1b}[0m: 1 error, 0 warnings"), "{coloured:?}");
    // The flag wins over NO_COLOR; NO_COLOR and a pipe make auto plain; never is plain.
    assert_eq!(validate(&d, &["--color", "always"], &[("NO_COLOR", "1")]), coloured);
    let plain = validate(&d, &[], &[]);
    assert!(!plain.contains('\u{1b}') && plain.contains(": error[entry-without-bundle]: "), "{plain:?}");
    assert_eq!(validate(&d, &[], &[("NO_COLOR", "1")]), plain);
    assert_eq!(validate(&d, &["--color", "never"], &[("CLICOLOR_FORCE", "1")]), plain);
    // Styles are only added, never anything else: stripped, the coloured text is the plain one.
    let stripped = coloured.replace("\u{1b}[1m", "").replace("\u{1b}[31m", "").replace("\u{1b}[0m", "");
    assert_eq!(stripped, plain);
    // JSON and the CI formats stay plain whatever the flag says.
    for format in ["json", "sarif", "github", "markdown"] {
        assert!(!validate(&d, &["--color", "always", "--format", format], &[]).contains('\u{1b}'), "{format}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn auto_colours_a_terminal_unless_no_color_is_set() {
    // script(1) (util-linux) runs the CLI on a pseudo-terminal and copies what it printed.
    let d = invalid_catalog("tty");
    let on_tty = |no_color: bool| {
        let line = format!("{BIN} validate {}", d.join("foo").display());
        let mut cmd = Command::new("script");
        cmd.args(["-qec", &line, "/dev/null"]).env("TERM", "xterm").env_remove("NO_COLOR");
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        String::from_utf8(run(&mut cmd).stdout).unwrap()
    };
    let tty = on_tty(false);
    assert!(tty.contains("\u{1b}[31merror"), "{tty:?}");
    let tty = on_tty(true);
    assert!(tty.contains("error[entry-without-bundle]") && !tty.contains('\u{1b}'), "{tty:?}");
    let _ = std::fs::remove_dir_all(&d);
}
