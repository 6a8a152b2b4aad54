//! Writes that never lose a catalog, tested by breaking them: `olm-catalog edit` killed at every
//! step of its save, a full disk at every step, read-only files and folders, a file changed by
//! someone else in the middle, a symlinked catalog file, an unreadable file, Ctrl-C, and
//! `render --output-dir` over files it did not write. After each: every file is byte-equal to
//! its old or its new content, and the catalog is the old or the new version as a whole.
//!
//! The faults are injected by the debug build's `OLM_CATALOG_SAVE_FAULT` (crates/save, `fault`).
//! Permission cases run the CLI as `nobody` (setpriv) when the tests run as root, for whom
//! permission bits do not apply.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_olm-catalog");

/// The catalog before the edit: a package, its channel and two bundles, one file each.
const FILES: &[(&str, &str)] = &[
    ("demo/package.yaml", "schema: olm.package\nname: demo\ndefaultChannel: stable\n"),
    (
        "demo/channel.yaml",
        "schema: olm.channel\npackage: demo\nname: stable\nentries:\n- name: demo.v0.1.0\n- name: demo.v0.2.0\n  replaces: demo.v0.1.0\n",
    ),
    ("demo/v0.1.0.yaml", "schema: olm.bundle\nname: demo.v0.1.0\npackage: demo\nimage: example.com/demo:0.1.0\nproperties:\n- type: olm.package\n  value:\n    packageName: demo\n    version: 0.1.0\n"),
    ("demo/v0.2.0.yaml", "schema: olm.bundle\nname: demo.v0.2.0\npackage: demo\nimage: example.com/demo:0.2.0\nproperties:\n- type: olm.package\n  value:\n    packageName: demo\n    version: 0.2.0\n"),
];

/// The edit every case makes: a new bundle 0.3.0 (a new file) on the channel (a changed file).
const EDIT: &[&str] = &[
    "addBundle",
    "--package",
    "demo",
    "--channels",
    "stable",
    "--image",
    "example.com/demo:0.3.0",
    "--name",
    "demo.v0.3.0",
    "--version",
    "0.3.0",
];

type Tree = BTreeMap<String, Vec<u8>>;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("olm-safe-writes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn plant(dir: &Path, tree: &Tree) {
    let _ = std::fs::remove_dir_all(dir);
    for (p, c) in tree {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, c).unwrap();
    }
}

/// Every file under `dir` (relative path → bytes), hidden ones included.
fn tree(dir: &Path) -> Tree {
    fn walk(dir: &Path, rel: &str, out: &mut Tree) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &path, out);
            } else {
                out.insert(path, std::fs::read(e.path()).unwrap());
            }
        }
    }
    let mut out = Tree::new();
    walk(dir, "", &mut out);
    out
}

fn old_tree() -> Tree {
    FILES.iter().map(|(p, c)| (p.to_string(), c.as_bytes().to_vec())).collect()
}

fn edit(dir: &Path, fault: Option<&str>, extra: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.arg("edit").arg(dir).args(EDIT).args(extra);
    if let Some(f) = fault {
        cmd.env("OLM_CATALOG_SAVE_FAULT", f);
    }
    cmd.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The catalog after the edit, made by an edit that nothing disturbs.
fn new_tree() -> Tree {
    // Tests run in parallel: each call edits a catalog of its own.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = scratch(&format!("reference-{n}"));
    plant(&dir, &old_tree());
    let o = edit(&dir, None, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = tree(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    t
}

/// Whether a file is one of the save's own: its journal, a temporary file or a backup, which a
/// kill leaves for the next run to finish or remove.
fn the_saves_own(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.starts_with(".olm-catalog-save") || name.ends_with(".olm-save") || name.ends_with(".olm-backup")
}

/// Each catalog file holds its old or its new content (or is absent on one side).
fn each_file_old_or_new(now: &Tree, old: &Tree, new: &Tree, what: &str) {
    for (p, c) in now.iter().filter(|(p, _)| !the_saves_own(p)) {
        assert!(
            old.get(p) == Some(c) || new.get(p) == Some(c),
            "{what}: {p} is neither old nor new: {:?}",
            String::from_utf8_lossy(c)
        );
    }
}

#[test]
fn an_edit_of_several_files_writes_them_all() {
    let (old, new) = (old_tree(), new_tree());
    let changed: Vec<&String> = new.keys().filter(|p| old.get(*p) != new.get(*p)).collect();
    assert!(changed.len() >= 2, "the edit must change several files: {changed:?}");
}

#[test]
fn killed_at_any_step_the_catalog_is_old_or_new_and_the_next_run_finishes_it() {
    let (old, new) = (old_tree(), new_tree());
    let dir = scratch("kill");
    let mut step = 1;
    loop {
        plant(&dir, &old);
        let o = edit(&dir, Some(&format!("kill@{step}")), &[]);
        let killed = !o.status.success();
        let now = tree(&dir);
        each_file_old_or_new(&now, &old, &new, &format!("killed at step {step}"));
        // The next command that reads the catalog finishes or undoes the save.
        let v = Command::new(BIN).arg("validate").arg(&dir).output().unwrap();
        let after = tree(&dir);
        assert!(after == old || after == new, "after a kill at step {step} and recovery, a mix: {:?}", after.keys());
        assert!(v.status.success(), "step {step}: {}", stderr(&v));
        if !killed {
            assert_eq!(after, new);
            break;
        }
        step += 1;
        assert!(step < 200, "the save never completed");
    }
    assert!(step > 10, "too few steps to mean anything: {step}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_disk_at_any_step_changes_nothing_and_says_so() {
    let old = old_tree();
    let dir = scratch("enospc");
    let mut failures = 0;
    for step in 1.. {
        plant(&dir, &old);
        let o = edit(&dir, Some(&format!("fail@{step}:28")), &[]);
        if o.status.success() {
            break;
        }
        failures += 1;
        assert_eq!(o.status.code(), Some(2), "step {step}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("No space left on device") && err.contains("nothing was changed"), "step {step}: {err}");
        assert_eq!(tree(&dir), old, "step {step}: {err}");
    }
    assert!(failures > 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_changed_by_someone_else_during_the_edit_stops_it() {
    let old = old_tree();
    let dir = scratch("changed");
    plant(&dir, &old);
    let child = Command::new(BIN)
        .arg("edit")
        .arg(&dir)
        .args(EDIT)
        .env("OLM_CATALOG_SAVE_FAULT", "sleep@1:1500")
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let theirs = b"schema: olm.channel\npackage: demo\nname: stable\nentries:\n- name: demo.v0.1.0\n";
    std::fs::write(dir.join("demo/channel.yaml"), theirs).unwrap();
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("demo/channel.yaml changed on disk since it was read") && err.contains("--force"), "{err}");
    let mut expected = old.clone();
    expected.insert("demo/channel.yaml".into(), theirs.to_vec());
    assert_eq!(tree(&dir), expected);
    // --force overwrites it.
    let o = edit(&dir, None, &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_read_only_file_is_not_replaced() {
    let old = old_tree();
    let dir = scratch("ro-file");
    plant(&dir, &old);
    let channel = dir.join("demo/channel.yaml");
    let mut perms = std::fs::metadata(&channel).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&channel, perms).unwrap();
    let o = edit(&dir, None, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("channel.yaml is read-only"), "{}", stderr(&o));
    assert_eq!(tree(&dir), old);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_symlinked_catalog_file_is_written_through_and_stays_a_link() {
    let dir = scratch("symlink");
    plant(&dir, &old_tree());
    let elsewhere = scratch("symlink-target").join("channel.yaml");
    std::fs::rename(dir.join("demo/channel.yaml"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.join("demo/channel.yaml")).unwrap();
    let o = edit(&dir, None, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(dir.join("demo/channel.yaml")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&elsewhere).unwrap(), new_tree()["demo/channel.yaml"]);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(elsewhere.parent().unwrap()).unwrap();
}

/// `olm-catalog` as a user without privileges: `nobody` through setpriv when the tests run as
/// root (who is not bound by permission bits), else as the user running the tests.
#[cfg(unix)]
fn unprivileged(args: &[&std::ffi::OsStr]) -> Output {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let mut cmd = if root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN]);
        c
    } else {
        Command::new(BIN)
    };
    cmd.args(args).output().expect("setpriv (util-linux) runs the CLI as nobody")
}

#[cfg(unix)]
fn world_readable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut d = Some(dir);
    while let Some(p) = d {
        let mode = std::fs::metadata(p).unwrap().permissions().mode();
        let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode | 0o005));
        d = p.parent().filter(|p| p.starts_with(std::env::temp_dir()) && *p != std::env::temp_dir());
    }
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_or_an_unreadable_file_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let old = old_tree();
    let dir = scratch("ro-dir");
    plant(&dir, &old);
    world_readable(&dir);
    for sub in ["", "demo"] {
        std::fs::set_permissions(dir.join(sub), std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let mut args: Vec<&std::ffi::OsStr> = vec!["edit".as_ref(), dir.as_os_str()];
    args.extend(EDIT.iter().map(std::ffi::OsStr::new));
    let o = unprivileged(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("Permission denied") && stderr(&o).contains("nothing was changed"), "{}", stderr(&o));
    for sub in ["", "demo"] {
        std::fs::set_permissions(dir.join(sub), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert_eq!(tree(&dir), old);
    // A file the user may not read: the edit stops before it plans anything.
    std::fs::set_permissions(dir.join("demo/v0.1.0.yaml"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let o = unprivileged(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("v0.1.0.yaml") && stderr(&o).contains("Permission denied"), "{}", stderr(&o));
    std::fs::set_permissions(dir.join("demo/v0.1.0.yaml"), std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(tree(&dir), old);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_a_save_lets_it_finish_and_leaves_nothing_behind() {
    let dir = scratch("sigint");
    plant(&dir, &old_tree());
    let child = Command::new(BIN)
        .arg("edit")
        .arg(&dir)
        .args(EDIT)
        .env("OLM_CATALOG_SAVE_FAULT", "sleep@4:1500")
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(600));
    // SAFETY: a signal to the child we started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    assert_eq!(tree(&dir), new_tree());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn render_into_a_folder_never_overwrites_what_it_did_not_write_unless_forced() {
    let src = scratch("render-src");
    plant(&src, &old_tree());
    let out = scratch("render-out");
    let render =
        |extra: &[&str]| Command::new(BIN).arg("render").arg(&src).arg("-o").arg(&out).args(extra).output().unwrap();
    let first = render(&[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let written = tree(&out);
    assert_eq!(written.keys().collect::<Vec<_>>(), ["demo/catalog.json"]);
    // The same output again: nothing to overwrite.
    assert!(render(&[]).status.success());
    // A hand-edited file there is not overwritten without --force.
    std::fs::write(out.join("demo/catalog.json"), "{}\n").unwrap();
    let o = render(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("demo/catalog.json exists and would be overwritten (--force overwrites)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(out.join("demo/catalog.json")).unwrap(), b"{}\n");
    assert!(render(&["--force"]).status.success());
    assert_eq!(tree(&out), written);
    std::fs::remove_dir_all(&src).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}
