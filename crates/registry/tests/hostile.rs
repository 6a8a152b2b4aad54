//! The client against registries that misbehave, served by a small scripted HTTP server in this
//! test: bearer-token challenges, wrong digests, truncated and endless bodies, huge manifests,
//! redirects to another host, 429 and 5xx. Each ends with a clear error or the right image, in
//! bounded time, with nothing wrong left in the cache.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use olm_catalog_image::{Budgets, Digest, CONFIGS_LABEL};
use olm_catalog_registry::{pull_with, Cache, ClientOptions, Error, PullOptions, RegistriesConf};

/// A request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    headers: BTreeMap<String, String>,
}

enum Reply {
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// A `Content-Length` larger than the body sent before closing.
    Truncated {
        declared: usize,
        body: Vec<u8>,
    },
    /// A chunked body that never ends.
    Endless,
}

fn reply(status: u16, body: impl Into<Vec<u8>>) -> Reply {
    Reply::Full { status, headers: Vec::new(), body: body.into() }
}

type Handler = dyn Fn(&Seen) -> Reply + Send + Sync;

/// A server on `host`:random port, answering every request with `handler`.
struct Server {
    addr: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    fn start(host: &str, handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = format!("{host}:{}", listener.local_addr().unwrap().port());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let log = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (handler, log) = (handler.clone(), log.clone());
                std::thread::spawn(move || serve(stream, &*handler, &log));
            }
        });
        Server { addr, seen }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<Seen>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || !line.starts_with("GET ") {
        return; // a TLS hello on the plain port, say
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut headers = BTreeMap::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let req = Seen { path, headers };
    log.lock().unwrap().push(req.clone());
    let mut out = stream;
    let _ = match handler(&req) {
        Reply::Full { status, headers, body } => {
            let mut head = format!("HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            out.write_all(head.as_bytes()).and_then(|_| out.write_all(&body))
        }
        Reply::Truncated { declared, body } => {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {declared}\r\nConnection: close\r\n\r\n");
            out.write_all(head.as_bytes()).and_then(|_| out.write_all(&body))
        }
        Reply::Endless => {
            let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
            let chunk = format!("{:x}\r\n{}\r\n", 65536, "\0".repeat(65536));
            let mut r = out.write_all(head.as_bytes());
            while r.is_ok() {
                r = out.write_all(chunk.as_bytes());
            }
            r
        }
    };
}

/// A small catalog image: its manifest and blobs.
struct Image {
    manifest: Vec<u8>,
    config: (Digest, Vec<u8>),
    layer: (Digest, Vec<u8>),
}

fn image() -> Image {
    let mut b = tar::Builder::new(Vec::new());
    let catalog = br#"{"schema":"olm.package","name":"p"}"#;
    let mut h = tar::Header::new_gnu();
    h.set_size(catalog.len() as u64);
    h.set_mode(0o644);
    b.append_data(&mut h, "configs/p/catalog.json", &catalog[..]).unwrap();
    let layer = b.into_inner().unwrap();
    let config = serde_json::to_vec(&serde_json::json!({"config": {"Labels": {CONFIGS_LABEL: "/configs"}}})).unwrap();
    let (cd, ld) = (Digest::sha256_of(&config), Digest::sha256_of(&layer));
    let manifest = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": cd.to_string(), "size": config.len()},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar", "digest": ld.to_string(), "size": layer.len()}],
    }))
    .unwrap();
    Image { manifest, config: (cd, config), layer: (ld, layer) }
}

/// The registry's answer for `image`, or `None` for a path it does not serve.
fn serve_image(img: &Image, path: &str) -> Option<Reply> {
    if path == "/v2/" {
        return Some(reply(200, "{}"));
    }
    if path == "/v2/olm/cat/manifests/v1" {
        let headers = vec![("Content-Type".into(), "application/vnd.oci.image.manifest.v1+json".into())];
        return Some(Reply::Full { status: 200, headers, body: img.manifest.clone() });
    }
    for (d, bytes) in [&img.config, &img.layer] {
        if path == format!("/v2/olm/cat/blobs/{d}") {
            return Some(reply(200, bytes.clone()));
        }
    }
    None
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("olm-catalog-hostile-registry-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        Scratch(d)
    }

    fn cached(&self) -> usize {
        std::fs::read_dir(self.0.join("blobs/sha256")).map(|d| d.count()).unwrap_or(0)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn options(cache: Option<&Scratch>) -> PullOptions {
    PullOptions {
        client: ClientOptions {
            timeout: Duration::from_secs(5),
            attempts: 3,
            backoff: Duration::from_millis(10),
            ..Default::default()
        },
        cache: cache.map(|s| Cache::at(&s.0)),
        offline: false,
        progress: false,
    }
}

fn conf(addr: &str) -> RegistriesConf {
    let mut c = RegistriesConf::default();
    c.add_text("test", &format!("[[registry]]\nlocation = \"{addr}\"\ninsecure = true\n")).unwrap();
    c
}

fn pull(server: &Server, cache: Option<&Scratch>) -> Result<Vec<String>, Error> {
    let pulled = pull_with(
        &format!("{}/olm/cat:v1", server.addr),
        &conf(&server.addr),
        None,
        &Budgets::default(),
        &options(cache),
    )?;
    Ok(pulled.opened.content.files.into_iter().map(|(p, _)| p).collect())
}

#[test]
fn a_bearer_challenge_is_answered_with_an_anonymous_token() {
    let img = image();
    let realm = Arc::new(Mutex::new(String::new()));
    let realm_in = realm.clone();
    let server = Server::start("127.0.0.1", move |r| {
        if r.path.starts_with("/token?") {
            return reply(200, r#"{"token": "t0k3n"}"#);
        }
        if r.headers.get("authorization").map(String::as_str) != Some("Bearer t0k3n") {
            let challenge = format!(
                r#"Bearer realm="{}",service="fake",scope="repository:olm/cat:pull""#,
                realm_in.lock().unwrap()
            );
            return Reply::Full {
                status: 401,
                headers: vec![("WWW-Authenticate".into(), challenge)],
                body: Vec::new(),
            };
        }
        serve_image(&img, &r.path).unwrap_or_else(|| reply(404, ""))
    });
    *realm.lock().unwrap() = format!("http://{}/token", server.addr);
    assert_eq!(pull(&server, None).unwrap(), ["p/catalog.json"]);
    let tokens: Vec<Seen> = server.seen().into_iter().filter(|s| s.path.starts_with("/token")).collect();
    assert_eq!(tokens.len(), 1, "one token for the run");
    assert_eq!(tokens[0].path, "/token?scope=repository%3Aolm%2Fcat%3Apull&service=fake");
    assert!(!tokens[0].headers.contains_key("authorization"), "anonymous");
}

#[test]
fn a_blob_with_the_wrong_bytes_is_refused_and_not_cached() {
    let img = image();
    let layer = img.layer.0.to_string();
    let server = Server::start("127.0.0.1", move |r| {
        if r.path.ends_with(&layer) {
            return reply(200, "not the layer");
        }
        serve_image(&img, &r.path).unwrap_or_else(|| reply(404, ""))
    });
    let cache = Scratch::new("digest");
    let e = pull(&server, Some(&cache)).unwrap_err().to_string();
    assert!(
        e.contains("digest mismatch") && e.contains(&format!("got {}", Digest::sha256_of(b"not the layer"))),
        "{e}"
    );
    assert_eq!(cache.cached(), 2, "the manifest and config only");
}

#[test]
fn truncated_and_endless_bodies_end_with_an_error_in_bounded_time() {
    for endless in [false, true] {
        let img = image();
        let layer = img.layer.0.to_string();
        let bytes = img.layer.1.clone();
        let server = Server::start("127.0.0.1", move |r| {
            if r.path.ends_with(&layer) {
                return if endless {
                    Reply::Endless
                } else {
                    Reply::Truncated { declared: bytes.len(), body: bytes[..100].to_vec() }
                };
            }
            serve_image(&img, &r.path).unwrap_or_else(|| reply(404, ""))
        });
        let cache = Scratch::new(if endless { "endless" } else { "truncated" });
        let started = Instant::now();
        assert!(pull(&server, Some(&cache)).is_err(), "endless: {endless}");
        assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
        assert_eq!(cache.cached(), 2);
        assert!(pull(&server, None).is_err(), "endless: {endless}, no cache");
    }
}

#[test]
fn a_huge_manifest_is_refused() {
    let server = Server::start("127.0.0.1", |r| {
        if r.path.contains("/manifests/") {
            return reply(200, vec![b' '; 5 << 20]);
        }
        reply(200, "{}")
    });
    let e = pull(&server, None).unwrap_err().to_string();
    assert!(e.contains("larger than 4194304 bytes"), "{e}");
}

#[test]
fn credentials_never_follow_a_redirect_to_another_host() {
    let img = image();
    let (ld, layer) = img.layer.clone();
    let cdn = Server::start("localhost", move |_| reply(200, layer.clone()));
    let cdn_addr = cdn.addr.clone();
    let realm = Arc::new(Mutex::new(String::new()));
    let realm_in = realm.clone();
    let server = Server::start("127.0.0.1", move |r| {
        if r.path.starts_with("/token?") {
            return reply(200, r#"{"token": "secret"}"#);
        }
        if r.headers.get("authorization").map(String::as_str) != Some("Bearer secret") {
            let challenge = format!("Bearer realm=\"{}\"", realm_in.lock().unwrap());
            return Reply::Full {
                status: 401,
                headers: vec![("WWW-Authenticate".into(), challenge)],
                body: Vec::new(),
            };
        }
        if r.path.ends_with(&ld.to_string()) {
            let to = format!("http://{cdn_addr}/layer");
            return Reply::Full { status: 307, headers: vec![("Location".into(), to)], body: Vec::new() };
        }
        serve_image(&img, &r.path).unwrap_or_else(|| reply(404, ""))
    });
    *realm.lock().unwrap() = format!("http://{}/token", server.addr);
    assert_eq!(pull(&server, None).unwrap(), ["p/catalog.json"]);
    let at_cdn = cdn.seen();
    assert_eq!(at_cdn.len(), 1);
    assert!(!at_cdn[0].headers.contains_key("authorization"), "{:?}", at_cdn[0].headers);
}

#[test]
fn too_many_requests_and_server_errors_are_retried_then_given_up() {
    let img = image();
    let count = Arc::new(Mutex::new(0));
    let seen = count.clone();
    let server = Server::start("127.0.0.1", move |r| {
        if r.path.contains("/manifests/") {
            let mut n = seen.lock().unwrap();
            *n += 1;
            if *n <= 2 {
                return reply(if *n == 1 { 429 } else { 503 }, "busy");
            }
        }
        serve_image(&img, &r.path).unwrap_or_else(|| reply(404, ""))
    });
    assert_eq!(pull(&server, None).unwrap(), ["p/catalog.json"]);
    assert_eq!(*count.lock().unwrap(), 3);

    let down = Server::start("127.0.0.1", |r| if r.path == "/v2/" { reply(200, "{}") } else { reply(500, "down") });
    let started = Instant::now();
    let e = pull(&down, None).unwrap_err().to_string();
    assert!(e.contains("HTTP 500") && e.contains("down"), "{e}");
    let tries = down.seen().iter().filter(|s| s.path.contains("/manifests/")).count();
    assert_eq!(tries, 3);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_dropped_blob_download_is_resumed_where_it_stopped() {
    for honours_range in [true, false] {
        let img = image();
        let (ld, bytes) = img.layer.clone();
        let layer = ld.to_string();
        let first = Arc::new(Mutex::new(true));
        let server = Server::start("127.0.0.1", move |r| {
            if r.path.ends_with(&ld.to_string()) {
                let mut first = first.lock().unwrap();
                if *first {
                    *first = false;
                    return Reply::Truncated { declared: bytes.len(), body: bytes[..700].to_vec() };
                }
                if let (true, Some(range)) = (honours_range, r.headers.get("range")) {
                    let from: usize = range.trim_start_matches("bytes=").trim_end_matches('-').parse().unwrap();
                    return Reply::Full { status: 206, headers: Vec::new(), body: bytes[from..].to_vec() };
                }
                return reply(200, bytes.clone());
            }
            serve_image(&img, &r.path).unwrap_or_else(|| reply(404, ""))
        });
        assert_eq!(pull(&server, None).unwrap(), ["p/catalog.json"], "honours Range: {honours_range}");
        let blob_requests = server.seen().into_iter().filter(|s| s.path.ends_with(&layer));
        let asked: Vec<Option<String>> = blob_requests.map(|s| s.headers.get("range").cloned()).collect();
        assert_eq!(asked, [None, Some("bytes=700-".to_string())]);
    }
}
