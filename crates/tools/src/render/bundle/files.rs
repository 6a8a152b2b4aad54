//! Which of the caller's files opm reads from a bundle directory: the regular files directly in
//! `manifests/` (not in subdirectories, not hidden) and directly in `metadata/` (hidden ones
//! too), each list sorted by name as `fs.ReadDir` returns them.

use crate::declcfg::FileInput;

/// One file of the bundle directory.
#[derive(Debug, Clone, Copy)]
pub struct BundleFile<'a> {
    /// The path as the caller named it (for locations).
    pub path: &'a str,
    /// The name inside its folder (`foo.clusterserviceversion.yaml`).
    pub name: &'a str,
    /// The content.
    pub bytes: &'a [u8],
}

/// The files of `folder` (`manifests` or `metadata`) directly under `root`, sorted by name.
pub fn files_in<'a>(root: &str, folder: &str, files: &'a [FileInput]) -> Vec<BundleFile<'a>> {
    let mut out: Vec<BundleFile<'a>> = files
        .iter()
        .filter_map(|f| {
            let rel = relative(root, &f.path)?;
            let name = rel.strip_prefix(folder)?.strip_prefix('/')?;
            (!name.is_empty() && !name.contains('/')).then_some(BundleFile { path: &f.path, name, bytes: &f.content })
        })
        .collect();
    crate::sort::sort_by(&mut out, |a, b| a.name.cmp(b.name));
    out
}

/// `path` relative to `root` (`root` may be empty, or end with `/`).
fn relative<'a>(root: &str, path: &'a str) -> Option<&'a str> {
    let root = root.trim_end_matches('/');
    if root.is_empty() || root == "." {
        return Some(path.strip_prefix("./").unwrap_or(path));
    }
    path.strip_prefix(root)?.strip_prefix('/')
}

/// `root/folder`, for findings about a folder as a whole.
pub fn folder_path(root: &str, folder: &str) -> String {
    let root = root.trim_end_matches('/');
    if root.is_empty() {
        folder.to_string()
    } else {
        format!("{root}/{folder}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_direct_children_of_the_folder_are_read_sorted_by_name() {
        let files = vec![
            FileInput::new("op/1.0/manifests/z.yaml", "a"),
            FileInput::new("op/1.0/manifests/a.yaml", "b"),
            FileInput::new("op/1.0/manifests/sub/c.yaml", "c"),
            FileInput::new("op/1.0/metadata/annotations.yaml", "d"),
            FileInput::new("op/1.0x/manifests/b.yaml", "e"),
        ];
        let names: Vec<&str> = files_in("op/1.0", "manifests", &files).iter().map(|f| f.name).collect();
        assert_eq!(names, ["a.yaml", "z.yaml"]);
        assert_eq!(files_in("op/1.0/", "metadata", &files).len(), 1);
        let bare = vec![FileInput::new("manifests/x.yaml", "")];
        assert_eq!(files_in("", "manifests", &bare)[0].path, "manifests/x.yaml");
        assert_eq!(folder_path("", "manifests"), "manifests");
        assert_eq!(folder_path("a/b/", "metadata"), "a/b/metadata");
    }
}
