//! Catalog and bundle images from a real registry: Debian's `docker-registry` (the Distribution
//! registry) started on 127.0.0.1 with a random port, images built by umoci and pushed by skopeo
//! (`images/build.rs`). Anonymous and htpasswd (basic) access, TLS with a test CA (openssl) from
//! certs.d or `--cert-dir`, registries.conf mirrors, insecure and blocked registries, the cache (a
//! cached digest needs no network, a corrupted entry is fetched again, `--no-cache` writes
//! nothing), templates pulling their bundle images.

#[path = "images/build.rs"]
#[allow(dead_code)] // umoci_label is for tests/images.rs
mod build;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use build::{run, skopeo_copy, umoci_bundle, umoci_catalog, Scratch};

const CATALOG: &str = "../shared/catalogs/fbc/openshift-optional-v4.17";

fn shared(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A registry serving from a scratch directory; stopped when dropped.
struct Registry {
    child: Child,
    addr: String,
}

impl Registry {
    /// Start one; `htpasswd`: a user and password it then requires.
    fn start(s: &Scratch, name: &str, htpasswd: Option<(&str, &str)>) -> Registry {
        Registry::start_with(s, name, htpasswd, None)
    }

    /// Start one; `tls`: its certificate and key files (HTTPS instead of HTTP).
    fn start_with(s: &Scratch, name: &str, htpasswd: Option<(&str, &str)>, tls: Option<(&str, &str)>) -> Registry {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let addr = format!("127.0.0.1:{port}");
        let mut config = format!(
            "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: {addr}\n",
            s.str(&format!("{name}-data"))
        );
        if let Some((certificate, key)) = tls {
            config.push_str(&format!("  tls:\n    certificate: {certificate}\n    key: {key}\n"));
        }
        if let Some((user, password)) = htpasswd {
            let hash = bcrypt::hash(password, 4).unwrap();
            std::fs::write(s.join(&format!("{name}.htpasswd")), format!("{user}:{hash}\n")).unwrap();
            config.push_str(&format!(
                "auth:\n  htpasswd:\n    realm: test-realm\n    path: {}\n",
                s.str(&format!("{name}.htpasswd"))
            ));
        }
        let config_path = s.join(&format!("{name}.yml"));
        std::fs::write(&config_path, config).unwrap();
        let child = Command::new("docker-registry")
            .args(["serve", &config_path.display().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("docker-registry is needed by this test ({e}); `make setup` installs it"));
        let started = Instant::now();
        while TcpStream::connect(&addr).is_err() {
            assert!(started.elapsed() < Duration::from_secs(20), "docker-registry did not start on {addr}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Registry { child, addr }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The CLI with a clean environment of its own: `HOME`, the cache and registries.conf in `s`.
fn cli(s: &Scratch, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_olm-catalog"))
        .args(args)
        .env("HOME", s.join("home"))
        .env("XDG_CACHE_HOME", s.join("cache"))
        .env("CONTAINERS_REGISTRIES_CONF", s.join("registries.conf"))
        .env_remove("REGISTRY_AUTH_FILE")
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("run the CLI")
}

fn registries_conf(s: &Scratch, text: &str) {
    std::fs::write(s.join("registries.conf"), text).unwrap();
}

fn insecure(addr: &str) -> String {
    format!("[[registry]]\nlocation = \"{addr}\"\ninsecure = true\n")
}

fn push(s: &Scratch, from: &str, to: &str, extra: &[&str]) {
    let mut args = vec!["--dest-tls-verify=false"];
    args.extend(extra);
    skopeo_copy(s, from, &format!("docker://{to}"), &args);
}

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn refused(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stdout));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON report with each finding's file cut to its path inside the catalog.
fn report(json: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    for d in v["diagnostics"].as_array_mut().expect("a validate report") {
        let Some(file) = d["file"].as_str().map(str::to_string) else { continue };
        let cut = file
            .split_once(":/configs/")
            .map(|(_, r)| r)
            .or_else(|| file.split_once("openshift-optional-v4.17/").map(|(_, r)| r));
        d["file"] = serde_json::Value::String(cut.unwrap_or(&file).to_string());
    }
    v
}

fn cache_files(s: &Scratch) -> Vec<std::path::PathBuf> {
    match std::fs::read_dir(s.join("cache/olm-catalog/blobs/sha256")) {
        Ok(d) => d.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn a_catalog_from_an_anonymous_registry_reads_as_from_disk_and_is_cached() {
    let s = Scratch::new("registry-anonymous");
    let mut reg = Registry::start(&s, "anon", None);
    umoci_catalog(&s, "layout", "cat", &shared(CATALOG));
    let tag = format!("{}/olm/cat:v1", reg.addr);
    push(&s, &format!("oci:{}:cat", s.str("layout")), &tag, &[]);
    registries_conf(&s, &insecure(&reg.addr));

    let disk = ok(&cli(&s, &["validate", &shared(CATALOG).display().to_string(), "--format", "json"]));
    // --no-cache reads everything from the registry and writes no cache.
    let uncached = ok(&cli(&s, &["validate", "--no-cache", &tag, "--format", "json"]));
    assert_eq!(report(&uncached), report(&disk));
    assert!(cache_files(&s).is_empty());
    let o = cli(&s, &["validate", "--verbose", &format!("docker://{tag}"), "--format", "json"]);
    assert_eq!(report(&ok(&o)), report(&disk));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let digest =
        stderr.split("image ").nth(1).and_then(|r| r.split_whitespace().next()).expect("--verbose names the digest");
    let is_layer = |p: &std::path::PathBuf| std::fs::read(p).unwrap().starts_with(&[0x1f, 0x8b]);
    assert_eq!(cache_files(&s).iter().filter(|p| is_layer(p)).count(), 2, "two layers");
    assert!(s.join("cache/olm-catalog/trees/sha256").read_dir().unwrap().count() == 1, "the unpacked files kept");

    // A corrupted cache entry is noticed and fetched again: a layer (once the unpacked files are
    // gone), and an unpacked file (read from the layers again).
    std::fs::remove_dir_all(s.join("cache/olm-catalog/trees")).unwrap();
    let layer = cache_files(&s).into_iter().find(|p| is_layer(p)).unwrap();
    std::fs::write(&layer, b"corrupted").unwrap();
    assert_eq!(report(&ok(&cli(&s, &["validate", &tag, "--format", "json"]))), report(&disk));
    assert!(is_layer(&layer));
    let one = std::fs::read(shared(CATALOG).join("nfd/catalog.yaml")).unwrap();
    let kept = cache_files(&s).into_iter().find(|p| std::fs::read(p).unwrap() == one).expect("nfd's catalog kept");
    std::fs::write(&kept, b"schema: olm.package\nname: tampered\n").unwrap();
    assert_eq!(report(&ok(&cli(&s, &["validate", &tag, "--format", "json"]))), report(&disk));
    assert_eq!(std::fs::read(&kept).unwrap(), one);

    // With the registry gone, the digest reference still reads (from the cache alone); the tag,
    // which needs a manifest request, does not.
    reg.stop();
    let by_digest = format!("{}/olm/cat@{digest}", reg.addr);
    assert_eq!(report(&ok(&cli(&s, &["validate", "--offline", &by_digest, "--format", "json"]))), report(&disk));
    assert_eq!(report(&ok(&cli(&s, &["validate", &by_digest, "--format", "json"]))), report(&disk));
    let e = refused(&cli(&s, &["validate", "--offline", &tag]));
    assert!(e.contains("--offline"), "{e}");
    refused(&cli(&s, &["validate", &tag]));
}

#[test]
fn basic_auth_takes_credentials_from_the_auth_files() {
    let s = Scratch::new("registry-basic");
    let reg = Registry::start(&s, "basic", Some(("olm", "s3cret")));
    umoci_catalog(&s, "layout", "cat", &shared(CATALOG));
    let tag = format!("{}/olm/cat:v1", reg.addr);
    push(&s, &format!("oci:{}:cat", s.str("layout")), &tag, &["--dest-creds", "olm:s3cret"]);
    registries_conf(&s, &insecure(&reg.addr));

    let e = refused(&cli(&s, &["validate", "--no-cache", &tag]));
    assert!(e.contains("unauthorized") && e.contains("no credentials found"), "{e}");
    let auth = |user: &str, password: &str| {
        use base64::Engine as _;
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        format!(r#"{{"auths": {{"{}": {{"auth": "{token}"}}}}}}"#, reg.addr)
    };
    std::fs::write(s.join("auth.json"), auth("olm", "wrong")).unwrap();
    let e = refused(&cli(&s, &["validate", "--no-cache", "--authfile", &s.str("auth.json"), &tag]));
    assert!(e.contains("unauthorized"), "{e}");
    std::fs::write(s.join("auth.json"), auth("olm", "s3cret")).unwrap();
    ok(&cli(&s, &["validate", "--no-cache", "--authfile", &s.str("auth.json"), &tag]));
    // podman's own place for it, under $HOME.
    std::fs::create_dir_all(s.join("home/.config/containers")).unwrap();
    std::fs::copy(s.join("auth.json"), s.join("home/.config/containers/auth.json")).unwrap();
    ok(&cli(&s, &["validate", "--no-cache", &tag]));

    // A credential helper named by docker's config.json (the docker-credential-* protocol: the
    // server on stdin, `{"Username", "Secret"}` on stdout).
    std::fs::remove_file(s.join("home/.config/containers/auth.json")).unwrap();
    std::fs::create_dir_all(s.join("bin")).unwrap();
    let helper = s.join("bin/docker-credential-olmtest");
    let script = format!("#!/bin/sh\nread server\n[ \"$server\" = \"{}\" ] || exit 1\necho '{{\"ServerURL\":\"'$server'\",\"Username\":\"olm\",\"Secret\":\"s3cret\"}}'\n", reg.addr);
    std::fs::write(&helper, script).unwrap();
    std::process::Command::new("chmod").args(["+x", &helper.display().to_string()]).status().unwrap();
    std::fs::create_dir_all(s.join("home/.docker")).unwrap();
    let config = format!(r#"{{"credHelpers": {{"{}": "olmtest"}}}}"#, reg.addr);
    std::fs::write(s.join("home/.docker/config.json"), config).unwrap();
    let path = format!("{}:{}", s.str("bin"), std::env::var("PATH").unwrap_or_default());
    let o = Command::new(env!("CARGO_BIN_EXE_olm-catalog"))
        .args(["validate", "--no-cache", &tag])
        .env("HOME", s.join("home"))
        .env("PATH", path)
        .env("XDG_CACHE_HOME", s.join("cache"))
        .env("CONTAINERS_REGISTRIES_CONF", s.join("registries.conf"))
        .env_remove("REGISTRY_AUTH_FILE")
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .unwrap();
    ok(&o);
}

#[test]
fn registries_conf_mirrors_and_blocks() {
    let s = Scratch::new("registry-mirror");
    let reg = Registry::start(&s, "mirror", None);
    umoci_catalog(&s, "layout", "cat", &shared(CATALOG));
    push(&s, &format!("oci:{}:cat", s.str("layout")), &format!("{}/mirror/olm/cat:v1", reg.addr), &[]);
    // The reference names a registry that does not exist; its mirror has the image.
    registries_conf(
        &s,
        &format!(
            "[[registry]]\nlocation = \"registry.invalid/olm\"\n[[registry.mirror]]\nlocation = \"{}/mirror/olm\"\ninsecure = true\n\
             [[registry]]\nlocation = \"blocked.invalid\"\nblocked = true\n",
            reg.addr
        ),
    );
    let o = cli(&s, &["validate", "--verbose", "registry.invalid/olm/cat:v1"]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("read from {}/mirror/olm/cat", reg.addr)));
    let e = refused(&cli(&s, &["validate", "blocked.invalid/x/cat:v1"]));
    assert!(e.contains("blocked by registries.conf"), "{e}");
}

#[test]
fn bundle_images_from_a_registry_render_as_their_directories() {
    let s = Scratch::new("registry-bundles");
    let reg = Registry::start(&s, "bundles", None);
    registries_conf(&s, &insecure(&reg.addr));
    let root = shared("../shared/catalogs/bundles");
    let mut operators: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    operators.sort();
    let mut checked = 0;
    for op in operators {
        let mut versions: Vec<_> = std::fs::read_dir(&op).unwrap().map(|e| e.unwrap().path()).collect();
        versions.sort();
        let Some(dir) =
            versions.into_iter().rev().find(|v| v.join("manifests").is_dir() && v.join("metadata").is_dir())
        else {
            continue;
        };
        let name = op.file_name().unwrap().to_string_lossy().into_owned();
        umoci_bundle(&s, "layout", &name, &dir);
        let reference = format!("{}/bundles/{name}:v1", reg.addr);
        push(&s, &format!("oci:{}:{name}", s.str("layout")), &reference, &[]);
        let image = cli(&s, &["render", &reference]);
        let directory = cli(&s, &["render", &dir.display().to_string(), "--image-ref-template", &reference]);
        assert_eq!(
            image.status.code(),
            directory.status.code(),
            "{reference}: {}",
            String::from_utf8_lossy(&image.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&image.stdout), String::from_utf8_lossy(&directory.stdout), "{reference}");
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn a_template_pulls_the_bundle_images_it_names() {
    let s = Scratch::new("registry-template");
    let reg = Registry::start(&s, "template", None);
    registries_conf(&s, &insecure(&reg.addr));
    let dir = shared("../shared/catalogs/bundles/kube-green");
    let mut versions: Vec<_> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("manifests").is_dir()).collect();
    versions.sort();
    let bundle = versions.last().unwrap();
    umoci_bundle(&s, "layout", "kg", bundle);
    let reference = format!("{}/bundles/kube-green:v1", reg.addr);
    push(&s, &format!("oci:{}:kg", s.str("layout")), &reference, &[]);
    let rendered: serde_json::Value =
        serde_json::from_str(&ok(&cli(&s, &["render", "--no-cache", &reference]))).unwrap();
    let (package, name) = (rendered["package"].as_str().unwrap(), rendered["name"].as_str().unwrap());
    let template = format!(
        "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: {package}\n  defaultChannel: stable\n\
         - schema: olm.channel\n  package: {package}\n  name: stable\n  entries:\n  - name: {name}\n\
         - schema: olm.bundle\n  image: {reference}\n"
    );
    std::fs::write(s.join("template.yaml"), template).unwrap();
    // --offline with an empty cache: the bundle is missing, reported in the template.
    let o = cli(&s, &["template", "--offline", &s.str("template.yaml")]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("template.yaml:"), "{}", String::from_utf8_lossy(&o.stderr));
    // Without --bundles the image is pulled, and the expansion validates.
    let expanded = ok(&cli(&s, &["template", &s.str("template.yaml"), "--validate"]));
    assert!(
        expanded.contains(&format!("\"image\": \"{reference}\""))
            && expanded.contains(&format!("\"name\": \"{name}\""))
    );
}

#[test]
fn a_tls_registry_is_checked_against_its_ca_from_certs_d_or_cert_dir() {
    let s = Scratch::new("registry-tls");
    let p = |f: &str| s.str(f);
    let days = ["-days", "2"];
    run(
        "openssl",
        &[
            &[
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                &p("ca.key"),
                "-out",
                &p("ca.crt"),
                "-subj",
                "/CN=olm-test-ca",
            ][..],
            &days,
        ]
        .concat(),
    );
    run(
        "openssl",
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            &p("tls.key"),
            "-out",
            &p("tls.csr"),
            "-subj",
            "/CN=127.0.0.1",
        ],
    );
    std::fs::write(s.join("ext.cnf"), "subjectAltName=IP:127.0.0.1\n").unwrap();
    let sign = [
        "x509",
        "-req",
        "-in",
        &p("tls.csr"),
        "-CA",
        &p("ca.crt"),
        "-CAkey",
        &p("ca.key"),
        "-CAcreateserial",
        "-out",
        &p("tls.crt"),
        "-extfile",
        &p("ext.cnf"),
    ];
    run("openssl", &[&sign[..], &days].concat());
    std::fs::create_dir_all(s.join("certs")).unwrap();
    std::fs::copy(s.join("ca.crt"), s.join("certs/ca.crt")).unwrap();

    let reg = Registry::start_with(&s, "tls", None, Some((&p("tls.crt"), &p("tls.key"))));
    umoci_catalog(&s, "layout", "cat", &shared(CATALOG));
    let tag = format!("{}/olm/cat:v1", reg.addr);
    skopeo_copy(&s, &format!("oci:{}:cat", p("layout")), &format!("docker://{tag}"), &["--dest-cert-dir", &p("certs")]);
    registries_conf(&s, "");

    let e = refused(&cli(&s, &["validate", "--no-cache", &tag]));
    assert!(e.to_lowercase().contains("certificate") || e.contains("UnknownIssuer"), "{e}");
    ok(&cli(&s, &["validate", "--no-cache", "--cert-dir", &p("certs"), &tag]));
    ok(&cli(&s, &["validate", "--no-cache", "--tls-verify=false", &tag]));
    let certs_d = s.join(&format!("home/.config/containers/certs.d/{}", reg.addr));
    std::fs::create_dir_all(&certs_d).unwrap();
    std::fs::copy(s.join("ca.crt"), certs_d.join("ca.crt")).unwrap();
    ok(&cli(&s, &["validate", "--no-cache", &tag]));
}

#[test]
fn a_multi_arch_index_from_a_registry_gives_the_platform_asked_for() {
    let s = Scratch::new("registry-index");
    let reg = Registry::start(&s, "index", None);
    registries_conf(&s, &insecure(&reg.addr));
    let (amd, arm) = (shared(CATALOG), shared("www/examples/community"));
    umoci_catalog(&s, "layout", "amd", &amd);
    umoci_catalog(&s, "layout", "arm", &arm);
    build::index_of(&s, "layout", "multi", &[("arm", "linux/arm64"), ("amd", "linux/amd64")]);
    let tag = format!("{}/olm/multi:v1", reg.addr);
    push(&s, &format!("oci:{}:multi", s.str("layout")), &tag, &["--all"]);
    let count = |args: &[&str]| -> usize {
        let v: serde_json::Value =
            serde_json::from_str(&ok(&cli(&s, &[&["validate", "--format", "json"][..], args].concat()))).unwrap();
        v["diagnostics"].as_array().unwrap().len()
    };
    assert_eq!(count(&[&tag]), count(&[&amd.display().to_string()]));
    assert_eq!(count(&["--platform", "linux/arm64", &tag]), count(&[&arm.display().to_string()]));
    let o = cli(&s, &["validate", "--verbose", "--platform", "linux/arm64", &tag]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("platform linux/arm64 of 2 in the image index"));
}
