//! `registries.conf` (v2, containers-registries.conf(5)) as containers/image finds and reads it:
//! `CONTAINERS_REGISTRIES_CONF`, else `$HOME/.config/containers/registries.conf`, else
//! `/etc/containers/registries.conf`, plus the `.d` drop-ins beside it (in name order, later
//! entries win for the same prefix). For a reference, the entry with the longest matching
//! `prefix` (default: its `location`) gives its `location` (a rewrite), its mirrors (tried in
//! order), `insecure` (plain HTTP or unverified TLS) and `blocked`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Error;

#[derive(Debug, Clone, Default, Deserialize)]
struct File {
    #[serde(default)]
    registry: Vec<Entry>,
}

/// One `[[registry]]` table.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub struct Entry {
    #[serde(default)]
    pub prefix: Option<String>,
    #[serde(default)]
    pub location: String,
    #[serde(default)]
    pub insecure: bool,
    #[serde(default)]
    pub blocked: bool,
    #[serde(default)]
    pub mirror: Vec<Mirror>,
    #[serde(default)]
    pub mirror_by_digest_only: bool,
}

/// One `[[registry.mirror]]`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
pub struct Mirror {
    pub location: String,
    #[serde(default)]
    pub insecure: bool,
}

/// The configuration read.
#[derive(Debug, Clone, Default)]
pub struct RegistriesConf {
    entries: Vec<Entry>,
}

/// Where to fetch a repository from: `registry/repository` rewritten, and whether plain HTTP or
/// unverified TLS may be used there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub registry: String,
    pub repository: String,
    pub insecure: bool,
}

impl RegistriesConf {
    /// The configuration as containers/image finds it (none is an empty configuration).
    pub fn load() -> Result<RegistriesConf, Error> {
        let path = match std::env::var_os("CONTAINERS_REGISTRIES_CONF") {
            Some(p) => Some(PathBuf::from(p)),
            None => {
                let home = std::env::var_os("HOME").map(|h| Path::new(&h).join(".config/containers/registries.conf"));
                home.filter(|p| p.exists()).or_else(|| Some(PathBuf::from("/etc/containers/registries.conf")))
            }
        };
        let mut conf = RegistriesConf::default();
        if let Some(path) = path {
            conf.read_with_dropins(&path)?;
        }
        Ok(conf)
    }

    fn read_with_dropins(&mut self, path: &Path) -> Result<(), Error> {
        if path.exists() {
            self.add_file(path)?;
        }
        let dropins = PathBuf::from(format!("{}.d", path.display()));
        if let Ok(dir) = std::fs::read_dir(&dropins) {
            let mut files: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.retain(|p| p.extension().is_some_and(|e| e == "conf"));
            files.sort();
            for f in files {
                self.add_file(&f)?;
            }
        }
        Ok(())
    }

    fn add_file(&mut self, path: &Path) -> Result<(), Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::Config { file: path.display().to_string(), message: e.to_string() })?;
        self.add_text(&path.display().to_string(), &text)
    }

    /// Add the entries of one file's text (a later entry with the same prefix replaces the earlier).
    pub fn add_text(&mut self, file: &str, text: &str) -> Result<(), Error> {
        let parsed: File =
            toml::from_str(text).map_err(|e| Error::Config { file: file.into(), message: e.to_string() })?;
        for e in parsed.registry {
            let prefix = e.prefix.clone().unwrap_or_else(|| e.location.clone());
            self.entries.retain(|old| old.prefix.clone().unwrap_or_else(|| old.location.clone()) != prefix);
            self.entries.push(e);
        }
        Ok(())
    }

    /// The entry for `name` (`registry/repository`): the longest prefix that matches whole
    /// path components.
    fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .filter_map(|e| {
                let prefix = e.prefix.as_deref().unwrap_or(&e.location);
                let matches = name == prefix
                    || name
                        .strip_prefix(prefix)
                        .is_some_and(|rest| rest.starts_with('/') || rest.starts_with(':') || rest.starts_with('@'));
                matches.then_some((prefix.len(), e))
            })
            .max_by_key(|(len, _)| *len)
            .map(|(_, e)| e)
    }

    /// Where to fetch `name` from, in order (mirrors first, then the location), or the refusal
    /// when its registry is blocked. `by_digest`: the reference has a digest (mirrors marked
    /// `mirror-by-digest-only` serve only those).
    pub fn endpoints(&self, registry: &str, repository: &str, by_digest: bool) -> Result<Vec<Endpoint>, Error> {
        let name = format!("{registry}/{repository}");
        let Some(e) = self.entry(&name) else {
            return Ok(vec![Endpoint { registry: registry.into(), repository: repository.into(), insecure: false }]);
        };
        if e.blocked {
            return Err(Error::Blocked { name });
        }
        let prefix = e.prefix.as_deref().unwrap_or(&e.location);
        let rest = &name[prefix.len()..];
        let rewrite = |location: &str, insecure: bool| {
            let full = format!("{location}{rest}");
            let (registry, repository) = full.split_once('/').unwrap_or((&full, ""));
            Endpoint { registry: registry.into(), repository: repository.into(), insecure }
        };
        let mut out = Vec::new();
        if by_digest || !e.mirror_by_digest_only {
            out.extend(e.mirror.iter().map(|m| rewrite(&m.location, m.insecure)));
        }
        let location = if e.location.is_empty() { prefix } else { &e.location };
        out.push(rewrite(location, e.insecure));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conf(text: &str) -> RegistriesConf {
        let mut c = RegistriesConf::default();
        c.add_text("registries.conf", text).unwrap();
        c
    }

    fn ep(registry: &str, repository: &str, insecure: bool) -> Endpoint {
        Endpoint { registry: registry.into(), repository: repository.into(), insecure }
    }

    #[test]
    fn no_entry_means_the_registry_itself() {
        assert_eq!(conf("").endpoints("quay.io", "org/x", false).unwrap(), [ep("quay.io", "org/x", false)]);
    }

    #[test]
    fn a_location_rewrites_the_prefix_and_mirrors_come_first() {
        let c = conf(
            r#"
[[registry]]
prefix = "registry.redhat.io/redhat"
location = "internal.example.com/rh"
[[registry.mirror]]
location = "mirror.example.com:5000/rh-mirror"
insecure = true
"#,
        );
        assert_eq!(
            c.endpoints("registry.redhat.io", "redhat/redhat-operator-index", false).unwrap(),
            [
                ep("mirror.example.com:5000", "rh-mirror/redhat-operator-index", true),
                ep("internal.example.com", "rh/redhat-operator-index", false)
            ]
        );
        // A prefix matches whole components only.
        assert_eq!(
            c.endpoints("registry.redhat.io", "redhatx/y", false).unwrap(),
            [ep("registry.redhat.io", "redhatx/y", false)]
        );
    }

    #[test]
    fn the_longest_prefix_wins_and_insecure_and_blocked_apply() {
        let c = conf(
            r#"
[[registry]]
location = "localhost:5000"
insecure = true
[[registry]]
location = "localhost:5000/private"
blocked = true
"#,
        );
        assert_eq!(c.endpoints("localhost:5000", "cat", false).unwrap(), [ep("localhost:5000", "cat", true)]);
        assert!(matches!(c.endpoints("localhost:5000", "private/cat", false), Err(Error::Blocked { .. })));
    }

    #[test]
    fn digest_only_mirrors_serve_only_digest_references() {
        let c = conf("[[registry]]\nlocation = \"q.io\"\nmirror-by-digest-only = true\n[[registry.mirror]]\nlocation = \"m.io\"\n");
        assert_eq!(c.endpoints("q.io", "a", false).unwrap().len(), 1);
        assert_eq!(c.endpoints("q.io", "a", true).unwrap().len(), 2);
    }

    #[test]
    fn a_malformed_file_is_a_located_error() {
        let e = RegistriesConf::default().add_text("/etc/containers/registries.conf", "[[registry]\n").unwrap_err();
        assert!(e.to_string().starts_with("/etc/containers/registries.conf:"), "{e}");
    }
}
