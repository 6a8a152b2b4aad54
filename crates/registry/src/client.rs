//! HTTP to a registry (Docker Registry v2 / OCI distribution): manifests with the right
//! `Accept`, blobs, the bearer-token challenge (anonymous or with credentials) and basic auth,
//! plain HTTP or unverified TLS only for `insecure` registries, retries with backoff on 429, 5xx
//! and dropped connections, timeouts. The `Authorization` header never follows a redirect to
//! another host.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use olm_catalog_image::spec::MANIFEST_TYPES;
use olm_catalog_image::{read_limited, Digest};
use serde::Deserialize;
use ureq::config::RedirectAuthHeaders;
use ureq::http::Response;
use ureq::tls::{Certificate, RootCerts, TlsConfig};
use ureq::{Agent, Body};

use crate::auth::{auth_files, lookup};
use crate::challenge::Challenge;
use crate::conf::Endpoint;
use crate::Error;

/// How the client behaves.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// `--authfile`.
    pub authfile: Option<PathBuf>,
    /// `--tls-verify=false` turns certificate checks off for every registry, and lets one that
    /// gives no HTTPS answer be read over plain HTTP.
    pub tls_verify: bool,
    /// `--cert-dir`: the CA certificates (`*.crt`) of every registry, instead of each one's
    /// `certs.d/HOST` directory.
    pub cert_dir: Option<PathBuf>,
    /// Connecting and waiting for a response's headers, and each read of a body.
    pub timeout: Duration,
    /// Attempts of one request (the first included) on 429, 5xx and dropped connections.
    pub attempts: u32,
    /// The first wait between attempts (doubled each time).
    pub backoff: Duration,
}

impl Default for ClientOptions {
    fn default() -> ClientOptions {
        ClientOptions {
            authfile: None,
            tls_verify: true,
            cert_dir: None,
            timeout: Duration::from_secs(30),
            attempts: 4,
            backoff: Duration::from_millis(250),
        }
    }
}

/// A registry client: one per run, it keeps tokens and each insecure host's scheme.
pub struct Client {
    options: ClientOptions,
    /// Made on first use (a run that finds everything in the cache sets up no TLS): by registry
    /// (its CA certificates), and one that verifies nothing.
    verified: RefCell<HashMap<String, Agent>>,
    unverified: std::cell::OnceCell<Agent>,
    /// `Authorization` values by (registry, repository).
    auth: RefCell<HashMap<(String, String), String>>,
    /// The scheme an insecure host answered on.
    schemes: RefCell<HashMap<String, &'static str>>,
}

/// A manifest as the registry sent it.
pub struct Fetched {
    pub bytes: Vec<u8>,
    pub media_type: Option<String>,
    /// `Docker-Content-Digest`, when sent.
    pub digest_header: Option<String>,
}

#[derive(Deserialize)]
struct TokenReply {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    access_token: Option<String>,
}

fn agent(options: &ClientOptions, verify: bool, roots: Vec<Certificate<'static>>) -> Agent {
    let mut tls = TlsConfig::builder().disable_verification(!verify);
    if !roots.is_empty() {
        tls = tls.root_certs(RootCerts::new_with_certs(&roots));
    }
    let tls = tls.build();
    Agent::config_builder()
        .http_status_as_error(false)
        .redirect_auth_headers(RedirectAuthHeaders::SameHost)
        .max_redirects(5)
        .timeout_connect(Some(options.timeout))
        .timeout_recv_response(Some(options.timeout))
        .timeout_per_read(Some(options.timeout))
        .user_agent("olm-catalog")
        .tls_config(tls)
        .build()
        .into()
}

impl Client {
    pub fn new(options: ClientOptions) -> Client {
        Client {
            verified: RefCell::default(),
            unverified: std::cell::OnceCell::new(),
            options,
            auth: RefCell::default(),
            schemes: RefCell::default(),
        }
    }

    fn agent_for(&self, ep: &Endpoint) -> Result<Agent, Error> {
        if ep.insecure || !self.options.tls_verify {
            return Ok(self.unverified().clone());
        }
        if let Some(a) = self.verified.borrow().get(&ep.registry) {
            return Ok(a.clone());
        }
        let a = agent(&self.options, true, self.ca_certs(&ep.registry)?);
        self.verified.borrow_mut().insert(ep.registry.clone(), a.clone());
        Ok(a)
    }

    fn unverified(&self) -> &Agent {
        self.unverified.get_or_init(|| agent(&self.options, false, Vec::new()))
    }

    /// The CA certificates `registry` is checked against (none: the public roots): every `*.crt`
    /// of `--cert-dir`, else of the first of `$HOME/.config/containers/certs.d/HOST`,
    /// `/etc/containers/certs.d/HOST`, `/etc/docker/certs.d/HOST` that exists.
    fn ca_certs(&self, registry: &str) -> Result<Vec<Certificate<'static>>, Error> {
        let mut dirs: Vec<PathBuf> = self.options.cert_dir.iter().cloned().collect();
        if dirs.is_empty() {
            if let Some(home) = std::env::var_os("HOME") {
                dirs.push(std::path::Path::new(&home).join(".config/containers/certs.d").join(registry));
            }
            dirs.push(PathBuf::from("/etc/containers/certs.d").join(registry));
            dirs.push(PathBuf::from("/etc/docker/certs.d").join(registry));
        }
        let Some(dir) = dirs.into_iter().find(|d| d.is_dir()) else { return Ok(Vec::new()) };
        let bad = |f: &std::path::Path, m: String| Error::Config { file: f.display().to_string(), message: m };
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| bad(&dir, e.to_string()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "crt"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|f| {
                let pem = std::fs::read(f).map_err(|e| bad(f, e.to_string()))?;
                Certificate::from_pem(&pem).map(|c| c.to_owned()).map_err(|e| bad(f, e.to_string()))
            })
            .collect()
    }

    /// `https`, or for an insecure registry (or every one with `--tls-verify=false`, as
    /// containers/image does) whatever it answers on (HTTPS unverified first, then plain HTTP),
    /// found once per host.
    fn scheme(&self, ep: &Endpoint) -> &'static str {
        if !ep.insecure && self.options.tls_verify {
            return "https";
        }
        if let Some(s) = self.schemes.borrow().get(&ep.registry) {
            return s;
        }
        let host = crate::reference::api_host(&ep.registry);
        let https_answers = self.unverified().get(&format!("https://{host}/v2/")).call().is_ok();
        let scheme = if https_answers { "https" } else { "http" };
        self.schemes.borrow_mut().insert(ep.registry.clone(), scheme);
        scheme
    }

    /// The manifest `reference` (a tag or digest) of the endpoint's repository.
    pub fn manifest(&self, ep: &Endpoint, reference: &str, limit: u64) -> Result<Fetched, Error> {
        let what = format!("manifest {}/{}:{reference}", ep.registry, ep.repository);
        let resp = self.get(ep, &format!("manifests/{reference}"), Some(&MANIFEST_TYPES.join(", ")), &what)?;
        let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let media_type = header("content-type").map(|t| t.split(';').next().unwrap_or("").trim().to_string());
        let digest_header = header("docker-content-digest");
        let bytes = read_limited(resp.into_body().into_reader(), &what, limit).map_err(Error::Image)?;
        Ok(Fetched { bytes, media_type, digest_header })
    }

    /// The blob `d`'s bytes, as they arrive (the caller verifies them).
    /// A connection that drops part-way is picked up where it stopped (`Range`), a few times.
    pub fn blob(&self, ep: &Endpoint, d: &Digest) -> Result<Box<dyn Read>, Error> {
        let what = format!("blob {d} of {}/{}", ep.registry, ep.repository);
        let path = format!("blobs/{d}");
        let resp = self.get(ep, &path, None, &what)?;
        let host = crate::reference::api_host(&ep.registry);
        Ok(Box::new(Resuming {
            inner: Box::new(resp.into_body().into_reader()),
            agent: self.agent_for(ep)?,
            url: format!("{}://{host}/v2/{}/{path}", self.scheme(ep), ep.repository),
            authorization: self.auth.borrow().get(&(ep.registry.clone(), ep.repository.clone())).cloned(),
            read: 0,
            resumes_left: self.options.attempts.saturating_sub(1),
        }))
    }

    /// GET `/v2/REPOSITORY/PATH`, authorising when challenged; a success or the error.
    fn get(&self, ep: &Endpoint, path: &str, accept: Option<&str>, what: &str) -> Result<Response<Body>, Error> {
        let host = crate::reference::api_host(&ep.registry);
        let url = format!("{}://{host}/v2/{}/{path}", self.scheme(ep), ep.repository);
        let key = (ep.registry.clone(), ep.repository.clone());
        for round in 0..2 {
            let authorization = self.auth.borrow().get(&key).cloned();
            let agent = self.agent_for(ep)?;
            let resp = self.with_retries(&url, || {
                let mut req = agent.get(&url);
                if let Some(a) = accept {
                    req = req.header("Accept", a);
                }
                if let Some(a) = &authorization {
                    req = req.header("Authorization", a);
                }
                req.call()
            })?;
            let status = resp.status().as_u16();
            if status == 401 && round == 0 {
                let challenge =
                    resp.headers().get("www-authenticate").and_then(|v| v.to_str().ok()).and_then(Challenge::parse);
                let value = self.authorize(ep, challenge)?;
                self.auth.borrow_mut().insert(key.clone(), value);
                continue;
            }
            return match status {
                200..=299 => Ok(resp),
                401 | 403 => Err(Error::Unauthorized {
                    registry: ep.registry.clone(),
                    message: format!("{what}: HTTP {status}"),
                }),
                404 => Err(Error::NotFound { what: what.to_string() }),
                _ => Err(Error::Http { url, status, message: snippet(resp) }),
            };
        }
        Err(Error::Unauthorized {
            registry: ep.registry.clone(),
            message: format!("{what}: refused after authorising"),
        })
    }

    /// The `Authorization` value a challenge asks for: a bearer token from its realm (with the
    /// user's credentials if they have some, anonymous otherwise), or basic credentials.
    fn authorize(&self, ep: &Endpoint, challenge: Option<Challenge>) -> Result<String, Error> {
        let files = auth_files(self.options.authfile.as_deref());
        let creds = lookup(&files, &ep.registry, &ep.repository)?;
        let unauthorized = |m: String| Error::Unauthorized { registry: ep.registry.clone(), message: m };
        let challenge =
            challenge.ok_or_else(|| unauthorized("HTTP 401 without a WWW-Authenticate challenge".into()))?;
        match challenge.scheme.as_str() {
            "basic" => creds.map(|c| c.basic_header()).ok_or_else(|| {
                let looked: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                unauthorized(format!("basic auth required and no credentials found (looked in {})", looked.join(", ")))
            }),
            "bearer" => {
                let realm = challenge
                    .params
                    .get("realm")
                    .ok_or_else(|| unauthorized("bearer challenge without realm".into()))?;
                let scope = challenge
                    .params
                    .get("scope")
                    .cloned()
                    .unwrap_or_else(|| format!("repository:{}:pull", ep.repository));
                let mut url = format!("{realm}?scope={}", encode(&scope));
                if let Some(service) = challenge.params.get("service") {
                    url.push_str(&format!("&service={}", encode(service)));
                }
                let agent = self.agent_for(ep)?;
                let resp = self.with_retries(&url, || {
                    let mut req = agent.get(&url);
                    if let Some(c) = &creds {
                        req = req.header("Authorization", &c.basic_header());
                    }
                    req.call()
                })?;
                if !resp.status().is_success() {
                    return Err(unauthorized(format!("token request to {realm}: HTTP {}", resp.status().as_u16())));
                }
                let body =
                    read_limited(resp.into_body().into_reader(), "token response", 1 << 20).map_err(Error::Image)?;
                let reply: TokenReply =
                    serde_json::from_slice(&body).map_err(|e| unauthorized(format!("token response: {e}")))?;
                let token = reply
                    .token
                    .or(reply.access_token)
                    .ok_or_else(|| unauthorized("token response without a token".into()))?;
                Ok(format!("Bearer {token}"))
            }
            other => Err(unauthorized(format!("unsupported authentication scheme {other:?}"))),
        }
    }

    /// `call` again, with backoff, while it fails with 429, a 5xx or a dropped connection.
    fn with_retries(
        &self,
        url: &str,
        call: impl Fn() -> Result<Response<Body>, ureq::Error>,
    ) -> Result<Response<Body>, Error> {
        let mut wait = self.options.backoff;
        for attempt in 1..=self.options.attempts.max(1) {
            let last = attempt == self.options.attempts.max(1);
            match call() {
                Ok(resp) => {
                    let s = resp.status().as_u16();
                    if last || !(s == 429 || (500..600).contains(&s) && s != 501) {
                        return Ok(resp);
                    }
                    let after = resp.headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
                    std::thread::sleep(after.map(Duration::from_secs).unwrap_or(wait).min(Duration::from_secs(30)));
                }
                Err(e) if !last && retryable(&e) => std::thread::sleep(wait),
                Err(e) => return Err(Error::Transfer { what: url.to_string(), message: e.to_string() }),
            }
            wait *= 2;
        }
        unreachable!("the last attempt returns")
    }
}

/// A blob's body that, when the connection drops, asks again for the rest (`Range:
/// bytes=N-`); a registry that answers with the whole blob again has its first N bytes skipped.
struct Resuming {
    inner: Box<dyn Read>,
    agent: Agent,
    url: String,
    authorization: Option<String>,
    read: u64,
    resumes_left: u32,
}

impl Resuming {
    fn resume(&mut self) -> Result<(), ureq::Error> {
        let mut req = self.agent.get(&self.url).header("Range", &format!("bytes={}-", self.read));
        if let Some(a) = &self.authorization {
            req = req.header("Authorization", a);
        }
        let resp = req.call()?;
        let status = resp.status().as_u16();
        let mut body: Box<dyn Read> = Box::new(resp.into_body().into_reader());
        match status {
            206 => {}
            200 => {
                std::io::copy(&mut (&mut body).take(self.read), &mut std::io::sink())?;
            }
            s => return Err(ureq::Error::StatusCode(s)),
        }
        self.inner = body;
        Ok(())
    }
}

impl Read for Resuming {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.inner.read(buf) {
                Ok(n) => {
                    self.read += n as u64;
                    return Ok(n);
                }
                Err(e) if self.resumes_left > 0 => {
                    self.resumes_left -= 1;
                    if self.resume().is_err() {
                        return Err(e);
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }
}

fn retryable(e: &ureq::Error) -> bool {
    matches!(e, ureq::Error::Io(_) | ureq::Error::Timeout(_) | ureq::Error::ConnectionFailed | ureq::Error::Protocol(_))
}

/// The start of an error response's body, for the message.
fn snippet(resp: Response<Body>) -> String {
    let mut buf = Vec::new();
    let _ = resp.into_body().into_reader().take(300).read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).trim().to_string()
}

/// Percent-encode a query value.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(encode("repository:a/b:pull"), "repository%3Aa%2Fb%3Apull");
    }
}
