//! Images made by real tools, not by olm-catalog: `umoci` builds catalog and bundle images from
//! directories (with their labels), `skopeo copy` turns them into the other transports. A tool
//! that is missing fails the test (`make setup` installs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";

/// A scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("olm-catalog-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    pub fn join(&self, p: &str) -> PathBuf {
        self.0.join(p)
    }

    pub fn str(&self, p: &str) -> String {
        self.join(p).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Run `program args`, failing the test with its output when it fails or is missing.
pub fn run(program: &str, args: &[&str]) -> Output {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} is needed by this test ({e}); `make setup` installs it"));
    assert!(
        out.status.success(),
        "{program} {}: {}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Copy the directory `from` into `to` (`cp -a`).
pub fn copy_dir(from: &Path, to: &Path) {
    run("cp", &["-a", &from.display().to_string(), &to.display().to_string()]);
}

/// A catalog image `layout:tag` built by umoci: `catalog` under `/configs` plus a package that a
/// second layer deletes again (a whiteout), labelled as a catalog image.
pub fn umoci_catalog(s: &Scratch, layout: &str, tag: &str, catalog: &Path) {
    let image = format!("{}:{tag}", s.str(layout));
    if !s.join(layout).exists() {
        run("umoci", &["init", "--layout", &s.str(layout)]);
    }
    run("umoci", &["new", "--image", &image]);
    let first = s.str(&format!("{tag}-unpacked-1"));
    run("umoci", &["unpack", "--image", &image, &first]);
    let configs = Path::new(&first).join("rootfs/configs");
    copy_dir(catalog, &configs);
    let gone = configs.join("zz-whited-out");
    std::fs::create_dir_all(&gone).unwrap();
    std::fs::write(gone.join("catalog.json"), r#"{"schema":"olm.package","name":"zz-whited-out"}"#).unwrap();
    run("umoci", &["repack", "--image", &image, &first]);
    let second = s.str(&format!("{tag}-unpacked-2"));
    run("umoci", &["unpack", "--image", &image, &second]);
    std::fs::remove_dir_all(Path::new(&second).join("rootfs/configs/zz-whited-out")).unwrap();
    run("umoci", &["repack", "--image", &image, &second]);
    run("umoci", &["config", "--image", &image, "--config.label", &format!("{CONFIGS_LABEL}=/configs")]);
    for d in [first, second] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A bundle image `layout:tag` of the bundle directory `bundle`, built with `umoci insert` (one
/// layer for `manifests/`, one for `metadata/`) and labelled as opm's bundle Dockerfile does.
pub fn umoci_bundle(s: &Scratch, layout: &str, tag: &str, bundle: &Path) {
    let image = format!("{}:{tag}", s.str(layout));
    if !s.join(layout).exists() {
        run("umoci", &["init", "--layout", &s.str(layout)]);
    }
    run("umoci", &["new", "--image", &image]);
    for dir in ["manifests", "metadata"] {
        run("umoci", &["insert", "--image", &image, &bundle.join(dir).display().to_string(), &format!("/{dir}")]);
    }
    let mut args = vec!["config".to_string(), "--image".into(), image.clone()];
    for (k, v) in [
        ("operators.operatorframework.io.bundle.mediatype.v1", "registry+v1"),
        ("operators.operatorframework.io.bundle.manifests.v1", "manifests/"),
        ("operators.operatorframework.io.bundle.metadata.v1", "metadata/"),
    ] {
        args.push("--config.label".into());
        args.push(format!("{k}={v}"));
    }
    run("umoci", &args.iter().map(String::as_str).collect::<Vec<_>>());
}

/// Set labels on `layout:tag` (umoci).
pub fn umoci_label(s: &Scratch, layout: &str, tag: &str, labels: &[(&str, &str)]) {
    let image = format!("{}:{tag}", s.str(layout));
    let mut args = vec!["config".to_string(), "--image".into(), image];
    for (k, v) in labels {
        args.push("--config.label".into());
        args.push(format!("{k}={v}"));
    }
    run("umoci", &args.iter().map(String::as_str).collect::<Vec<_>>());
}

/// `skopeo copy FROM TO` with a permissive policy of the scratch directory's own, and `extra`
/// options.
pub fn skopeo_copy(s: &Scratch, from: &str, to: &str, extra: &[&str]) {
    let policy = s.join("policy.json");
    if !policy.exists() {
        std::fs::write(&policy, r#"{"default":[{"type":"insecureAcceptAnything"}]}"#).unwrap();
    }
    let policy = policy.display().to_string();
    let mut args = vec!["--policy", &policy, "copy", "-q"];
    args.extend(extra);
    args.extend([from, to]);
    run("skopeo", &args);
}

/// An image index tagged `tag` in the layout, of the images tagged `images` there, each with its
/// platform (`os/arch`, set on its config by umoci). The index blob is written here (no tool
/// makes one from local images); the manifests it lists are umoci's.
pub fn index_of(s: &Scratch, layout: &str, tag: &str, images: &[(&str, &str)]) {
    let root = s.join(layout);
    let mut manifests = Vec::new();
    for (image, platform) in images {
        let (os, arch) = platform.split_once('/').unwrap();
        run("umoci", &["config", "--image", &format!("{}:{image}", s.str(layout)), "--os", os, "--architecture", arch]);
        let index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(root.join("index.json")).unwrap()).unwrap();
        let named = |d: &&serde_json::Value| d["annotations"]["org.opencontainers.image.ref.name"] == *image;
        let mut desc = index["manifests"].as_array().unwrap().iter().find(named).unwrap().clone();
        desc.as_object_mut().unwrap().remove("annotations");
        desc["platform"] = serde_json::json!({"os": os, "architecture": arch});
        manifests.push(desc);
    }
    let blob = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": manifests
    }))
    .unwrap();
    use sha2::Digest as _;
    let hex: String = sha2::Sha256::digest(&blob).iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(root.join("blobs/sha256").join(&hex), &blob).unwrap();
    let mut index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("index.json")).unwrap()).unwrap();
    index["manifests"].as_array_mut().unwrap().push(serde_json::json!({
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "digest": format!("sha256:{hex}"),
        "size": blob.len(),
        "annotations": {"org.opencontainers.image.ref.name": tag},
    }));
    std::fs::write(root.join("index.json"), serde_json::to_vec(&index).unwrap()).unwrap();
}
