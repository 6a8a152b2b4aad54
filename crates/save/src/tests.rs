//! The rules of [`save`], each on a scratch folder. (Faults injected at a step, which the
//! process' environment selects, are tested from the CLI, one process per case:
//! `tests/safe_writes.rs`.)

use super::*;

/// An empty folder of its own for a test (shared by the crate's tests).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("olm-save-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

fn unchanged(path: &Path) -> Expect {
    Expect::Unchanged(Snapshot::read(path).unwrap().1)
}

fn write(path: &Path, content: &str, expect: Expect) -> FileWrite {
    FileWrite { path: path.to_path_buf(), content: content.as_bytes().to_vec(), expect }
}

#[test]
fn files_read_and_files_new_are_written_and_nothing_else_is_left() {
    let dir = scratch("plain");
    let a = dir.join("a.yaml");
    std::fs::write(&a, "old a\n").unwrap();
    let b = dir.join("pkg/sub/b.json");
    let saved = save(&dir, &[write(&a, "new a\n", unchanged(&a)), write(&b, "{}\n", Expect::Absent)]).unwrap();
    assert_eq!(saved.written, vec![a.clone(), b.clone()]);
    assert_eq!((read(&a), read(&b)), ("new a\n".into(), "{}\n".into()));
    assert_eq!(names(&dir), ["a.yaml", "pkg"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_changed_since_it_was_read_stops_the_whole_save() {
    let dir = scratch("changed");
    let (a, b) = (dir.join("a.yaml"), dir.join("b.yaml"));
    std::fs::write(&a, "a\n").unwrap();
    std::fs::write(&b, "b\n").unwrap();
    let (ea, eb) = (unchanged(&a), unchanged(&b));
    std::fs::write(&b, "b, edited elsewhere\n").unwrap();
    let err = save(&dir, &[write(&a, "A\n", ea), write(&b, "B\n", eb)]).unwrap_err();
    assert!(matches!(&err, SaveError::Conflicts(c) if c == &[(b.clone(), Conflict::Changed)]), "{err}");
    assert_eq!(err.to_string(), format!("nothing written: {} changed on disk since it was read", b.display()));
    assert_eq!((read(&a), read(&b)), ("a\n".into(), "b, edited elsewhere\n".into()));
    assert_eq!(names(&dir), ["a.yaml", "b.yaml"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_conflict_is_named() {
    let dir = scratch("conflicts");
    let (gone, there, ro) = (dir.join("gone.yaml"), dir.join("there.yaml"), dir.join("ro.yaml"));
    for p in [&gone, &there, &ro] {
        std::fs::write(p, "x\n").unwrap();
    }
    let (eg, er) = (unchanged(&gone), unchanged(&ro));
    std::fs::remove_file(&gone).unwrap();
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms).unwrap();
    let err =
        save(&dir, &[write(&gone, "y", eg), write(&there, "y", Expect::Absent), write(&ro, "y", er)]).unwrap_err();
    let SaveError::Conflicts(list) = err else { panic!("{err}") };
    let kinds: Vec<Conflict> = list.iter().map(|(_, c)| *c).collect();
    assert_eq!(kinds, [Conflict::Deleted, Conflict::Exists, Conflict::ReadOnly]);
    assert_eq!(read(&there), "x\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn anything_overwrites_a_changed_file_but_not_a_read_only_one() {
    let dir = scratch("anything");
    let a = dir.join("a.yaml");
    std::fs::write(&a, "someone's\n").unwrap();
    save(&dir, &[write(&a, "mine\n", Expect::Anything)]).unwrap();
    assert_eq!(read(&a), "mine\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_already_holds_the_new_content_is_left_alone() {
    let dir = scratch("same");
    let a = dir.join("out/catalog.json");
    std::fs::create_dir_all(a.parent().unwrap()).unwrap();
    std::fs::write(&a, "{}\n").unwrap();
    let saved = save(&dir, &[write(&a, "{}\n", Expect::Absent)]).unwrap();
    assert_eq!((saved.written.len(), saved.unchanged.len()), (0, 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn permission_bits_are_kept_and_symlinks_written_through() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let dir = scratch("unix");
    let real = dir.join("real.yaml");
    std::fs::write(&real, "old\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.yaml");
    symlink("real.yaml", &link).unwrap();
    save(&dir, &[write(&link, "new\n", unchanged(&link))]).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(read(&real), "new\n");
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(names(&dir), ["link.yaml", "real.yaml"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
