//! The rules of unpacking layers into the kept subtree.

use super::*;

enum E<'a> {
    File(&'a str, &'a str),
    Dir(&'a str),
    Symlink(&'a str, &'a str),
    HardLink(&'a str, &'a str),
    Fifo(&'a str),
}

/// A tar stream whose entry names are written as given (the tar crate's builder refuses `..`
/// and absolute names, which hostile layers have).
fn layer(entries: &[E]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for e in entries {
        let mut h = tar::Header::new_old();
        let (name, data, kind, link) = match e {
            E::File(n, d) => (*n, d.as_bytes(), tar::EntryType::Regular, None),
            E::Dir(n) => (*n, &b""[..], tar::EntryType::Directory, None),
            E::Symlink(n, t) => (*n, &b""[..], tar::EntryType::Symlink, Some(*t)),
            E::HardLink(n, t) => (*n, &b""[..], tar::EntryType::Link, Some(*t)),
            E::Fifo(n) => (*n, &b""[..], tar::EntryType::Fifo, None),
        };
        h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        if let Some(t) = link {
            h.as_old_mut().linkname[..t.len()].copy_from_slice(t.as_bytes());
        }
        h.set_entry_type(kind);
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append(&h, data).unwrap();
    }
    b.into_inner().unwrap()
}

fn unpack(roots: &[&str], layers: &[Vec<u8>]) -> (Vec<(String, String)>, Vec<Finding>) {
    let mut x = Extraction::new(roots, &Budgets::default());
    for (i, l) in layers.iter().enumerate() {
        let changes = x.read_layer(&format!("L{i}"), l.as_slice()).unwrap();
        x.commit(changes);
    }
    let (files, findings) = x.finish(|p| Some(p.to_string()));
    (files.into_iter().map(|(p, c)| (p, String::from_utf8(c).unwrap())).collect(), findings)
}

fn names(files: &[(String, String)]) -> Vec<&str> {
    files.iter().map(|(p, _)| p.as_str()).collect()
}

#[test]
fn only_the_kept_subtree_is_extracted() {
    let l = layer(&[
        E::File("etc/passwd", "x"),
        E::Dir("configs"),
        E::File("./configs/a/catalog.json", "{}"),
        E::File("configsx", "no"),
    ]);
    let (files, findings) = unpack(&["/configs"], &[l]);
    assert_eq!(files, vec![("configs/a/catalog.json".to_string(), "{}".to_string())]);
    assert!(findings.is_empty());
}

#[test]
fn a_later_layer_replaces_a_file_and_a_whiteout_deletes_one_from_lower_layers() {
    let base =
        layer(&[E::File("configs/a.json", "1"), E::File("configs/b.json", "1"), E::File("configs/c/d.json", "1")]);
    let top = layer(&[E::File("configs/a.json", "2"), E::File("configs/.wh.b.json", ""), E::File("configs/.wh.c", "")]);
    let (files, _) = unpack(&["configs"], &[base, top]);
    assert_eq!(files, vec![("configs/a.json".to_string(), "2".to_string())]);
}

#[test]
fn an_opaque_directory_hides_lower_content_but_keeps_its_own_layers() {
    let base = layer(&[E::File("configs/old/x.json", "1"), E::File("configs/keep.json", "1")]);
    let top = layer(&[E::File("configs/old/.wh..wh..opq", ""), E::File("configs/old/new.json", "2")]);
    let (files, _) = unpack(&["configs"], &[base, top]);
    assert_eq!(names(&files), ["configs/keep.json", "configs/old/new.json"]);
}

#[test]
fn a_whiteout_of_the_root_or_an_ancestor_removes_the_whole_subtree() {
    let base = layer(&[E::File("configs/a.json", "1")]);
    assert!(unpack(&["configs"], &[base.clone(), layer(&[E::File(".wh.configs", "")])]).0.is_empty());
    assert!(unpack(&["configs"], &[base.clone(), layer(&[E::File(".wh..wh..opq", "")])]).0.is_empty());
    let readded = layer(&[E::File(".wh.configs", ""), E::File("configs/b.json", "2")]);
    assert_eq!(names(&unpack(&["configs"], &[base, readded]).0), ["configs/b.json"]);
}

#[test]
fn a_file_replaces_a_lower_directory_of_the_same_name() {
    let base = layer(&[E::File("configs/p/catalog.json", "1")]);
    let top = layer(&[E::File("configs/p", "file")]);
    assert_eq!(unpack(&["configs"], &[base, top]).0, vec![("configs/p".to_string(), "file".to_string())]);
}

#[test]
fn entries_that_could_escape_the_image_and_devices_are_skipped_with_a_finding() {
    let l = layer(&[
        E::File("/configs/abs.json", "x"),
        E::File("configs/../../etc/evil", "x"),
        E::Symlink("configs/up", "../../../etc/shadow"),
        E::Fifo("configs/pipe"),
        E::File("configs/ok.json", "{}"),
    ]);
    let (files, findings) = unpack(&["configs"], &[l]);
    assert_eq!(names(&files), ["configs/ok.json"]);
    let kinds: Vec<&FindingKind> = findings.iter().map(|f| &f.kind).collect();
    assert_eq!(
        kinds,
        [
            &FindingKind::AbsolutePath,
            &FindingKind::ParentDirectory,
            &FindingKind::LinkEscapes { target: "../../../etc/shadow".into() },
            &FindingKind::SpecialFile
        ]
    );
    assert!(findings[0].to_string().contains("\"/configs/abs.json\" is an absolute path; skipped"), "{}", findings[0]);
}

#[test]
fn links_inside_the_subtree_read_their_targets_content() {
    let l = layer(&[
        E::File("configs/a.json", "A"),
        E::Symlink("configs/s.json", "a.json"),
        E::Symlink("configs/abs.json", "/configs/a.json"),
        E::HardLink("configs/h.json", "configs/a.json"),
        E::Symlink("configs/out.json", "/etc/hostname"),
    ]);
    let (files, findings) = unpack(&["configs"], &[l]);
    assert_eq!(names(&files), ["configs/a.json", "configs/abs.json", "configs/h.json", "configs/s.json"]);
    assert!(files.iter().all(|(_, c)| c == "A"));
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].kind, FindingKind::LinkUnresolved { target: "etc/hostname".into() });
}

#[test]
fn the_kept_bytes_and_the_entries_have_budgets() {
    let l = layer(&[E::File("configs/a", "12345"), E::File("configs/b", "12345")]);
    let small = Budgets { extracted_bytes: 8, ..Budgets::default() };
    let e = Extraction::new(&["configs"], &small).read_layer("L", l.as_slice()).unwrap_err();
    assert!(matches!(e, Error::Budget { .. }), "{e}");
    let few = Budgets { entries: 1, ..Budgets::default() };
    assert!(Extraction::new(&["configs"], &few).read_layer("L", l.as_slice()).is_err());
}

#[test]
fn a_stream_without_end_blocks_is_read_to_its_last_entry() {
    // umoci 0.4.7 writes layers without the two zero blocks that end a tar stream.
    let mut l = layer(&[E::File("configs/a", "x")]);
    l.truncate(l.len() - 1024);
    assert_eq!(names(&unpack(&["configs"], &[l]).0), ["configs/a"]);
}

#[test]
fn a_stream_that_ends_right_after_its_last_files_data_is_read_whole() {
    // umoci 0.4.7's `insert` also leaves out the last entry's padding to a 512-byte block.
    let l = layer(&[E::File("configs/a", "first"), E::File("configs/b", "hello")]);
    let end = l.len() - 1024 - (512 - 5);
    assert_eq!(
        unpack(&["configs"], &[l[..end].to_vec()]).0,
        vec![("configs/a".into(), "first".into()), ("configs/b".into(), "hello".into())]
    );
}

#[test]
fn a_truncated_layer_is_an_error() {
    let mut l = layer(&[E::File("configs/a", &"x".repeat(2000))]);
    l.truncate(1000);
    assert!(Extraction::new(&["configs"], &Budgets::default()).read_layer("L", l.as_slice()).is_err());
}
