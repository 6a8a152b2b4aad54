//! Credentials as podman and skopeo find them: `--authfile`, else `REGISTRY_AUTH_FILE`, else
//! `$XDG_RUNTIME_DIR/containers/auth.json`, `$HOME/.config/containers/auth.json`,
//! `$HOME/.docker/config.json`; in each, `auths` (keys `registry[/repository]`, the most specific
//! first, `https://` and `/v1/` spellings included) with `auth` = base64(`user:password`), and
//! `credHelpers`/`credsStore` through the `docker-credential-*` protocol.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use base64::Engine as _;
use serde::Deserialize;

use crate::Error;

/// A user name and password (or token) for basic auth and token requests.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Credentials({}, ***)", self.username)
    }
}

impl Credentials {
    /// The `Authorization` header value of basic auth.
    pub fn basic_header(&self) -> String {
        let raw = format!("{}:{}", self.username, self.password);
        format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(raw))
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AuthFile {
    #[serde(default)]
    auths: BTreeMap<String, AuthEntry>,
    #[serde(default)]
    cred_helpers: BTreeMap<String, String>,
    #[serde(default)]
    creds_store: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct AuthEntry {
    #[serde(default)]
    auth: Option<String>,
}

/// The files looked at, in order (`authfile`: the `--authfile` option).
pub fn auth_files(authfile: Option<&Path>) -> Vec<PathBuf> {
    if let Some(f) = authfile {
        return vec![f.to_path_buf()];
    }
    // Set but empty is unset, as containers/image reads these variables.
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(f) = var("REGISTRY_AUTH_FILE") {
        return vec![PathBuf::from(f)];
    }
    let mut files = Vec::new();
    if let Some(run) = var("XDG_RUNTIME_DIR") {
        files.push(Path::new(&run).join("containers/auth.json"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        files.push(Path::new(&home).join(".config/containers/auth.json"));
        files.push(Path::new(&home).join(".docker/config.json"));
    }
    files
}

/// The credentials for `registry/repository` from the first file that has some.
pub fn lookup(files: &[PathBuf], registry: &str, repository: &str) -> Result<Option<Credentials>, Error> {
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let parsed: AuthFile = serde_json::from_str(&text)
            .map_err(|e| Error::Config { file: file.display().to_string(), message: e.to_string() })?;
        if let Some(c) = from_file(&parsed, registry, repository, file)? {
            return Ok(Some(c));
        }
    }
    Ok(None)
}

fn from_file(f: &AuthFile, registry: &str, repository: &str, file: &Path) -> Result<Option<Credentials>, Error> {
    // Most specific first: registry/a/b, registry/a, registry.
    let mut keys = Vec::new();
    let parts: Vec<&str> = repository.split('/').collect();
    for n in (1..=parts.len()).rev() {
        keys.push(format!("{registry}/{}", parts[..n].join("/")));
    }
    keys.push(registry.to_string());
    if registry == crate::reference::DOCKER_HUB {
        keys.push("index.docker.io".into());
    }
    for key in &keys {
        let entry = f.auths.iter().find(|(k, _)| normalise(k) == *key).map(|(_, e)| e);
        if let Some(auth) = entry.and_then(|e| e.auth.as_deref()).filter(|a| !a.is_empty()) {
            return decode(auth, file).map(Some);
        }
    }
    let helper = f.cred_helpers.get(registry).or(f.creds_store.as_ref());
    match helper {
        Some(h) => helper_get(h, registry),
        None => Ok(None),
    }
}

/// An `auths` key without scheme and API path (`https://index.docker.io/v1/` → `index.docker.io`).
fn normalise(key: &str) -> String {
    let k = key.strip_prefix("https://").or_else(|| key.strip_prefix("http://")).unwrap_or(key);
    k.trim_end_matches('/').trim_end_matches("/v1").trim_end_matches("/v2").to_string()
}

fn decode(auth: &str, file: &Path) -> Result<Credentials, Error> {
    let bad = |m: &str| Error::Config { file: file.display().to_string(), message: m.to_string() };
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(auth.trim()).map_err(|_| bad("an `auth` is not base64"))?;
    let text = String::from_utf8(bytes).map_err(|_| bad("an `auth` is not UTF-8"))?;
    let (username, password) = text.split_once(':').ok_or_else(|| bad("an `auth` is not user:password"))?;
    Ok(Credentials { username: username.into(), password: password.into() })
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct HelperReply {
    username: String,
    secret: String,
}

/// `docker-credential-HELPER get` with the server on stdin; no credentials when it has none.
fn helper_get(helper: &str, registry: &str) -> Result<Option<Credentials>, Error> {
    let program = format!("docker-credential-{helper}");
    let failed = |m: String| Error::Config { file: program.clone(), message: m };
    let mut child = Command::new(&program)
        .arg("get")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(registry.as_bytes());
    }
    let out = child.wait_with_output().map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        // "credentials not found in native keychain": none, not an error.
        return Ok(None);
    }
    let reply: HelperReply = serde_json::from_slice(&out.stdout).map_err(|e| failed(e.to_string()))?;
    Ok(Some(Credentials { username: reply.username, password: reply.secret }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(json: &str) -> AuthFile {
        serde_json::from_str(json).unwrap()
    }

    fn enc(s: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(s)
    }

    #[test]
    fn the_most_specific_key_wins() {
        let f = file(&format!(
            r#"{{"auths": {{"quay.io": {{"auth": "{}"}}, "quay.io/org": {{"auth": "{}"}}}}}}"#,
            enc("all:a"),
            enc("org:o")
        ));
        let p = Path::new("auth.json");
        assert_eq!(from_file(&f, "quay.io", "org/x", p).unwrap().unwrap().username, "org");
        assert_eq!(from_file(&f, "quay.io", "other/x", p).unwrap().unwrap().username, "all");
        assert_eq!(from_file(&f, "ghcr.io", "org/x", p).unwrap(), None);
    }

    #[test]
    fn docker_config_spellings_of_a_registry_are_understood() {
        let f = file(&format!(r#"{{"auths": {{"https://index.docker.io/v1/": {{"auth": "{}"}}}}}}"#, enc("me:pw")));
        let c = from_file(&f, "docker.io", "library/busybox", Path::new("config.json")).unwrap().unwrap();
        assert_eq!((c.username.as_str(), c.password.as_str()), ("me", "pw"));
        assert_eq!(c.basic_header(), format!("Basic {}", enc("me:pw")));
    }

    #[test]
    fn a_broken_auth_entry_names_its_file() {
        let f = file(r#"{"auths": {"quay.io": {"auth": "!!"}}}"#);
        let e = from_file(&f, "quay.io", "x", Path::new("/run/auth.json")).unwrap_err().to_string();
        assert!(e.contains("/run/auth.json"), "{e}");
    }

    #[test]
    fn the_authfile_option_comes_before_everything() {
        assert_eq!(auth_files(Some(Path::new("/a.json"))), [PathBuf::from("/a.json")]);
    }
}
