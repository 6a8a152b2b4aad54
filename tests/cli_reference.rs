//! docs/cli.md is the CLI's reference generated from its clap definition: it must be exactly what
//! `olm-catalog __cli-reference` prints, so that it never drifts from the command line.

use std::process::Command;

const REGENERATE: &str = "regenerate it with `make cli-reference` \
(cargo run --bin olm-catalog -- __cli-reference > docs/cli.md)";

fn generated() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_olm-catalog")).arg("__cli-reference").output().expect("run the CLI");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn docs_cli_md_is_the_generated_reference() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md");
    let committed = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}; {REGENERATE}"));
    let generated = generated();
    if committed != generated {
        let line = committed.lines().zip(generated.lines()).position(|(a, b)| a != b);
        let line = line.unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        let (old, new) = (committed.lines().nth(line), generated.lines().nth(line));
        panic!(
            "docs/cli.md differs from the CLI's definition at line {}:\n  committed: {old:?}\n  generated: {new:?}\n{REGENERATE}",
            line + 1
        );
    }
}

#[test]
fn the_reference_covers_every_command_and_hides_itself() {
    let text = generated();
    let help = Command::new(env!("CARGO_BIN_EXE_olm-catalog")).arg("--help").output().expect("run the CLI");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    // Every command `--help` lists has its section, with its usage and exit codes.
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 12, "{help}");
    for c in commands {
        let section = format!("## `olm-catalog {c}`");
        let start = text.find(&section).unwrap_or_else(|| panic!("no section {section}"));
        let body = &text[start..];
        let body = &body[..body[3..].find("\n## ").map_or(body.len(), |i| i + 3)];
        assert!(body.contains(&format!("**Usage:** `olm-catalog {c} ")), "{body}");
        assert!(body.contains("Exit codes:"), "{body}");
    }
    assert!(!text.contains("__cli-reference"), "the generator documents itself");
    // Defaults and possible values are part of the reference.
    assert!(text.contains("Default value: `text`"), "{text}");
    assert!(text.contains("`sarif`"), "{text}");
}
