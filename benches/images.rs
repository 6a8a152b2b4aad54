//! Catalog images against the catalog on disk (issue 35's speed targets): a real registry
//! (Debian's `docker-registry` on a random port) serves community-v4.20 built into an image by
//! umoci and pushed by skopeo, and the release CLI validates it
//!
//! - cold (empty cache) against `skopeo copy` of the image to an OCI layout plus `validate` of
//!   the catalog directory: ≤ 1.2× (the download is the limit);
//! - warm, by digest, against `validate` of the directory: ≤ 1.1×; warm by tag (one manifest
//!   request more), for information;
//! - peak memory (`/usr/bin/time -f %M`) of the warm image read beyond the directory's: ≤ 2× the
//!   catalog's size.
//!
//! umoci, skopeo and docker-registry are needed (`make setup`).

#[path = "common/mod.rs"]
mod common;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CLI: &str = env!("CARGO_BIN_EXE_olm-catalog");

fn run(program: &str, args: &[&str], env: &[(&str, &Path)]) -> std::process::Output {
    let mut c = Command::new(program);
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap_or_else(|e| panic!("{program}: {e} (`make setup` installs it)"));
    assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn dir_size(p: &Path) -> u64 {
    std::fs::read_dir(p)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                dir_size(&e.path())
            } else {
                e.metadata().unwrap().len()
            }
        })
        .sum()
}

struct Registry(Child);

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The digest `validate --verbose` says `reference` resolved to.
fn image_digest(reference: &str, env: &[(&str, &Path)]) -> String {
    let out = Command::new(CLI)
        .args(["validate", "--verbose", reference])
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .output()
        .expect("run the CLI");
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr.split("image ").nth(1).and_then(|r| r.split_whitespace().next()).expect("the digest").to_string()
}

/// The peak resident memory of `validate INPUT`, in KB (`/usr/bin/time -f %M`).
fn peak_kb(input: &str, env: &[(&str, &Path)]) -> u64 {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M", CLI, "validate", input])
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .output()
        .expect("/usr/bin/time");
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines().last().and_then(|l| l.trim().parse().ok()).expect("a peak in KB")
}

/// community-v4.20 built into an OCI layout by umoci (`DIR/layout:cat`); its reference.
fn build_image(scratch: &Path, catalog: &Path) -> String {
    let s = |p: &str| scratch.join(p).display().to_string();
    let image = format!("{}:cat", s("layout"));
    run("umoci", &["init", "--layout", &s("layout")], &[]);
    run("umoci", &["new", "--image", &image], &[]);
    run("umoci", &["unpack", "--image", &image, &s("bundle")], &[]);
    run("cp", &["-a", &catalog.display().to_string(), &s("bundle/rootfs/configs")], &[]);
    run("umoci", &["repack", "--image", &image, &s("bundle")], &[]);
    let label = "operators.operatorframework.io.index.configs.v1=/configs";
    run("umoci", &["config", "--image", &image, "--config.label", label], &[]);
    image
}

/// A registry on a random port serving from `scratch`, and its address (with a registries.conf
/// marking it insecure, and a permissive skopeo policy, in `scratch`).
fn start_registry(scratch: &Path) -> (Registry, String) {
    let s = |p: &str| scratch.join(p).display().to_string();
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let config = format!(
        "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: {addr}\n",
        s("data")
    );
    std::fs::write(scratch.join("config.yml"), config).unwrap();
    let child = Command::new("docker-registry")
        .args(["serve", &s("config.yml")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let registry = Registry(child.expect("docker-registry (`make setup` installs it)"));
    let started = Instant::now();
    while TcpStream::connect(&addr).is_err() {
        assert!(started.elapsed() < Duration::from_secs(20), "docker-registry did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::fs::write(scratch.join("policy.json"), r#"{"default":[{"type":"insecureAcceptAnything"}]}"#).unwrap();
    let conf = format!("[[registry]]\nlocation = \"{addr}\"\ninsecure = true\n");
    std::fs::write(scratch.join("registries.conf"), conf).unwrap();
    (registry, addr)
}

fn main() {
    let catalog = common::fbc_dir().join("community-v4.20");
    let scratch = std::env::temp_dir().join(format!("olm-catalog-bench-images-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let s = |p: &str| scratch.join(p).display().to_string();

    let image = build_image(&scratch, &catalog);
    let (_registry, addr) = start_registry(&scratch);
    let tag = format!("{addr}/olm/cat:v1");
    let skopeo = |from: &str, to: &str, tls: &str| {
        run("skopeo", &["--policy", &s("policy.json"), "copy", "-q", tls, from, to], &[])
    };
    skopeo(&format!("oci:{image}"), &format!("docker://{tag}"), "--dest-tls-verify=false");

    let cache = scratch.join("cache");
    let conf = scratch.join("registries.conf");
    let env: [(&str, &Path); 2] = [("XDG_CACHE_HOME", &cache), ("CONTAINERS_REGISTRIES_CONF", &conf)];
    let validate = |input: &str| {
        Command::new(CLI)
            .args(["validate", input])
            .envs(env.iter().map(|(k, v)| (*k, *v)))
            .output()
            .expect("run the CLI")
    };
    let dir = catalog.display().to_string();
    let runs = common::runs().min(5);

    println!("images: community-v4.20 ({} MB) from a local registry", dir_size(&catalog) / 1_000_000);
    let (disk, _) = common::wall_and_cpu(runs, || drop(validate(&dir)));
    let (cold, _) = common::wall_and_cpu(runs, || {
        let _ = std::fs::remove_dir_all(&cache);
        drop(validate(&tag));
    });
    let (copy_then_validate, _) = common::wall_and_cpu(runs, || {
        let _ = std::fs::remove_dir_all(scratch.join("copy"));
        skopeo(&format!("docker://{tag}"), &format!("oci:{}:cat", s("copy")), "--src-tls-verify=false");
        drop(validate(&dir));
    });
    let digest = image_digest(&tag, &env);
    let by_digest = format!("{addr}/olm/cat@{digest}");
    let (warm_digest, _) = common::wall_and_cpu(runs, || drop(validate(&by_digest)));
    let (warm_tag, _) = common::wall_and_cpu(runs, || drop(validate(&tag)));

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let cold_ratio = ratio(cold, copy_then_validate);
    common::target(
        "images: validate IMAGE, cold cache, local registry ÷ skopeo copy + validate DIR ≤ 1.2×",
        &format!("{cold_ratio:.2}× ({:.0} ms ÷ {:.0} ms)", ms(cold), ms(copy_then_validate)),
        cold_ratio <= 1.2,
    );
    let warm_ratio = ratio(warm_digest, disk);
    common::target(
        "images: validate IMAGE@DIGEST, warm cache ÷ validate DIR ≤ 1.1×",
        &format!("{warm_ratio:.2}× ({:.0} ms ÷ {:.0} ms)", ms(warm_digest), ms(disk)),
        warm_ratio <= 1.1,
    );
    common::info(
        "images: validate IMAGE:TAG, warm cache (one manifest request) ÷ validate DIR",
        &format!("{:.2}× ({:.0} ms)", ratio(warm_tag, disk), ms(warm_tag)),
    );

    let (peak_image, peak_disk) = (peak_kb(&by_digest, &env), peak_kb(&dir, &env));
    let size_kb = dir_size(&catalog) / 1024;
    let extra = peak_image.saturating_sub(peak_disk);
    common::target(
        "images: peak memory of validate IMAGE beyond validate DIR ≤ 2× the catalog's size",
        &format!(
            "{:.1}× ({} MB image, {} MB directory, catalog {} MB)",
            extra as f64 / size_kb as f64,
            peak_image / 1024,
            peak_disk / 1024,
            size_kb / 1024
        ),
        extra <= 2 * size_kb,
    );
    let _ = std::fs::remove_dir_all(&scratch);
}
