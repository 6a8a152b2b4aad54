//! .pre-commit-hooks.yaml: pre-commit (Debian's, installed by `make setup`) accepts the manifest,
//! every hook runs an existing `olm-catalog` command, and the `system` hook, run by pre-commit
//! itself in a catalog repository, passes a valid catalog and fails an invalid one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MANIFEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/.pre-commit-hooks.yaml");
const VALID: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1.0.0\n---\nschema: olm.bundle\npackage: foo\nname: foo.v1.0.0\nimage: quay.io/foo/bundle:v1.0.0\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: 1.0.0\n";

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("olm-catalog-pre-commit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e} (pre-commit and git are installed by `make setup`)"))
}

fn git(dir: &Path, args: &[&str]) {
    let out = run(Command::new("git").current_dir(dir).args(args));
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The hooks' `id` and `entry`, read from the manifest's block list.
fn hooks() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(MANIFEST).unwrap();
    let field = |l: &str, key: &str| l.trim_start_matches("- ").trim().strip_prefix(key).map(|v| v.trim().to_string());
    let ids = text.lines().filter_map(|l| field(l, "id:"));
    let entries = text.lines().filter_map(|l| field(l, "entry:"));
    ids.zip(entries).collect()
}

#[test]
fn pre_commit_accepts_the_manifest_and_every_hook_runs_an_olm_catalog_command() {
    let out = run(Command::new("pre-commit").args(["validate-manifest", MANIFEST]));
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let hooks = hooks();
    assert_eq!(hooks.len(), 2, "{hooks:?}");
    for (id, entry) in hooks {
        let mut words = entry.split_whitespace();
        assert_eq!(words.next(), Some("olm-catalog"), "{id}: {entry}");
        let out = run(Command::new(env!("CARGO_BIN_EXE_olm-catalog")).args(words).arg("--help"));
        assert!(out.status.success(), "{id}: `{entry}` is not a command: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// A repository of hooks holding this manifest, committed (pre-commit clones a `rev`).
fn hook_repository(root: &Path) -> (PathBuf, String) {
    let repo = root.join("hooks");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::copy(MANIFEST, repo.join(".pre-commit-hooks.yaml")).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "hooks"]);
    let rev = run(Command::new("git").current_dir(&repo).args(["rev-parse", "HEAD"])).stdout;
    (repo, String::from_utf8(rev).unwrap().trim().to_string())
}

#[test]
fn the_system_hook_run_by_pre_commit_fails_an_invalid_catalog() {
    let root = temp_dir("run");
    let (hooks, rev) = hook_repository(&root);
    let catalogs = root.join("catalogs");
    std::fs::create_dir_all(catalogs.join("catalog/foo")).unwrap();
    std::fs::write(catalogs.join("catalog/foo/catalog.yaml"), VALID).unwrap();
    let config = format!(
        "repos:\n- repo: {}\n  rev: {rev}\n  hooks:\n  - id: olm-catalog-validate-system\n    args: [catalog]\n",
        hooks.display()
    );
    std::fs::write(catalogs.join(".pre-commit-config.yaml"), config).unwrap();
    git(&catalogs, &["init", "-q"]);
    git(&catalogs, &["add", "."]);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_olm-catalog")).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let pre_commit = || {
        let mut c = Command::new("pre-commit");
        c.current_dir(&catalogs)
            .args(["run", "--all-files"])
            .env("PATH", &path)
            .env("PRE_COMMIT_HOME", root.join("cache"));
        run(&mut c)
    };
    let out = pre_commit();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("olm-catalog validate") && text.contains("Passed"), "{text}");
    // A bundle image with an upper-case repository: opm's error, and the commit is refused.
    let invalid = VALID.replace("quay.io/foo/bundle", "quay.io/Foo/bundle");
    std::fs::write(catalogs.join("catalog/foo/catalog.yaml"), invalid).unwrap();
    let out = pre_commit();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("Failed") && text.contains("catalog/foo/catalog.yaml:") && text.contains("error["), "{text}");
    let _ = std::fs::remove_dir_all(&root);
}
