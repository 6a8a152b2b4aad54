//! `olm-catalog lsp` as an editor runs it: the binary over pipes, framed JSON-RPC in and out. A
//! malformed message, JSON that is no message, a broken header, an unknown method and requests
//! out of order are each answered and the server reads on; the findings of the catalog
//! (tests/fixtures/lsp-catalog) are published; `shutdown` then `exit` ends it with code 0, `exit`
//! alone with 1; the Helix configuration of docs/editors.md starts a server that answers; a
//! catalog template gets the findings `template --validate` prints, as it is edited, and hover and
//! definition on its images. The
//! protocol's features are tested in crates/lsp (its in-memory connection).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Server {
        Server::start_as(env!("CARGO_BIN_EXE_olm-catalog"), &["lsp", "--stdio"], None)
    }

    /// `command args`, with `path` as PATH when given.
    fn start_as(command: &str, args: &[&str], path: Option<&std::ffi::OsStr>) -> Server {
        let mut cmd = Command::new(command);
        if let Some(path) = path {
            cmd.env("PATH", path);
        }
        let mut child =
            cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start olm-catalog lsp");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Server { child, input, output }
    }

    fn send_raw(&mut self, body: &str) {
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.input.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string());
    }

    fn recv(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).unwrap() > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                length = v.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.output.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// Messages until the response with `id` (ids compared as JSON), that response last.
    fn until(&mut self, id: Value) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let m = self.recv();
            let done = m.get("method").is_none() && m["id"] == id;
            seen.push(m);
            if done {
                return seen;
            }
        }
    }

    fn exit_code(mut self) -> Option<i32> {
        drop(self.input);
        self.child.wait().unwrap().code()
    }
}

fn catalog(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("olm-lsp-pipes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("foo")).unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lsp-catalog/foo");
    for f in ["package.yaml", "bundles.yaml"] {
        std::fs::copy(from.join(f), dir.join("foo").join(f)).unwrap();
    }
    dir
}

#[test]
fn bad_messages_are_answered_and_the_session_goes_on_to_a_clean_exit() {
    let dir = catalog("clean");
    let mut s = Server::start();
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}}));
    assert_eq!(s.until(json!(1)).last().unwrap()["error"]["code"], -32002, "before initialize");
    let root = format!("file://{}", dir.display());
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"capabilities": {}, "rootUri": root}}));
    let init = s.until(json!(2)).pop().unwrap();
    assert_eq!(init["result"]["serverInfo"]["name"], "olm-catalog");
    s.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    // The bad messages are answered by the reader thread while the server publishes the
    // catalog's findings: every message seen is kept, whichever order they come in.
    s.send_raw("{this is not json");
    let mut seen = s.until(Value::Null);
    assert_eq!(seen.last().unwrap()["error"]["code"], -32700);
    s.send_raw("[1, 2, 3]");
    seen.extend(s.until(Value::Null));
    assert_eq!(seen.last().unwrap()["error"]["code"], -32600);
    write!(s.input, "Content-Type: nothing-else\r\nNot a header\r\n").unwrap();
    s.send(json!({"jsonrpc": "2.0", "id": 3, "method": "olm/nothing", "params": {}}));
    seen.extend(s.until(json!(3)));
    assert_eq!(seen.last().unwrap()["error"]["code"], -32601);
    let published: Vec<&Value> = seen.iter().filter(|m| m["method"] == "textDocument/publishDiagnostics").collect();
    assert_eq!(published.len(), 1, "{seen:?}");
    assert!(published[0]["params"]["uri"].as_str().unwrap().ends_with("foo/package.yaml"));
    assert_eq!(published[0]["params"]["diagnostics"][0]["code"], "z-stream-gap");
    s.send(json!({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}));
    assert_eq!(s.until(json!(4)).pop().unwrap()["result"], Value::Null);
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(s.exit_code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn exit_without_shutdown_and_a_closed_input_end_with_code_1() {
    let mut s = Server::start();
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(s.exit_code(), Some(1));
    let s = Server::start();
    assert_eq!(s.exit_code(), Some(1), "input closed without a message");
}

#[test]
fn the_helix_configuration_of_the_docs_starts_the_server() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors.md")).unwrap();
    let block = doc.split_once("## Helix").unwrap().1.split_once("```toml\n").unwrap().1.split_once("\n```").unwrap().0;
    let config: toml::Table = block.parse().expect("languages.toml as Helix reads it");
    let server = &config["language-server"]["olm-catalog"];
    let languages = config["language"].as_array().unwrap();
    for name in ["yaml", "json"] {
        let language = languages.iter().find(|l| l["name"].as_str() == Some(name)).unwrap();
        assert!(language["language-servers"].as_array().unwrap().iter().any(|s| s.as_str() == Some("olm-catalog")));
    }
    let command = server["command"].as_str().unwrap();
    let args: Vec<&str> = server["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    let bin = Path::new(env!("CARGO_BIN_EXE_olm-catalog"));
    let path = std::env::join_paths(
        std::iter::once(bin.parent().unwrap().to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let dir = catalog("helix");
    let mut s = Server::start_as(command, &args, Some(&path));
    let root = format!("file://{}", dir.display());
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": root}}));
    assert_eq!(s.until(json!(1)).pop().unwrap()["result"]["capabilities"]["hoverProvider"], true);
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    s.until(json!(2));
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(s.exit_code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

/// (file, line, code, message) of every finding, sorted.
type Found = Vec<(String, u64, String, String)>;

#[test]
fn the_findings_published_for_a_real_catalog_are_validates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/kube-descheduler");
    let dir = dir.canonicalize().expect("the shared catalogs are present");
    let cli = Command::new(env!("CARGO_BIN_EXE_olm-catalog"))
        .args(["validate", "--format", "json"])
        .arg(&dir)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let mut expected: Found = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["code"].to_string(),
                d["message"].to_string(),
            )
        })
        .collect();
    expected.sort();
    assert!(expected.len() > 50, "kube-descheduler has findings: {}", expected.len());

    let mut s = Server::start();
    let root = format!("file://{}", dir.display());
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": root}}));
    s.until(json!(1));
    s.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    let mut published: Found = Vec::new();
    for m in s.until(json!(2)).iter().filter(|m| m["method"] == "textDocument/publishDiagnostics") {
        let file = m["params"]["uri"].as_str().unwrap().strip_prefix("file://").unwrap().to_string();
        for d in m["params"]["diagnostics"].as_array().unwrap() {
            let line = d["range"]["start"]["line"].as_u64().unwrap()
                + u64::from(
                    d["range"] != json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
                );
            published.push((file.clone(), line, d["code"].to_string(), d["message"].to_string()));
        }
    }
    published.sort();
    assert_eq!(published, expected);
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(s.exit_code(), Some(0));
}

/// A published finding as (line, code, message), lines counted from 1 as the CLI prints them.
fn found(d: &Value) -> (u64, String, String) {
    let line = d["range"]["start"]["line"].as_u64().unwrap() + 1;
    (line, d["code"].as_str().unwrap().to_string(), d["message"].as_str().unwrap().to_string())
}

/// The findings of `template --validate` (its text report on standard error) in `dir`.
fn template_findings(dir: &Path, template: &str, bundles: &str) -> Vec<(u64, String, String)> {
    let cli = Command::new(env!("CARGO_BIN_EXE_olm-catalog"))
        .current_dir(dir)
        .args(["template", template, "--bundles", bundles, "--validate"])
        .output()
        .unwrap();
    let mut out: Vec<_> = String::from_utf8(cli.stderr)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(template)?.strip_prefix(':')?;
            let (line, rest) = rest.split_once(':')?;
            let (_, rest) = rest.split_once(": ")?;
            let (code, message) = rest.split_once("]: ")?;
            Some((line.parse().ok()?, code.split_once('[')?.1.to_string(), message.to_string()))
        })
        .collect();
    out.sort();
    out
}

/// The findings published for `uri` among `messages` (the last publication wins).
fn published_for(messages: &[Value], uri: &str) -> Option<Vec<(u64, String, String)>> {
    let last = messages
        .iter()
        .rev()
        .find(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)?;
    let mut out: Vec<_> = last["params"]["diagnostics"].as_array().unwrap().iter().map(found).collect();
    out.sort();
    Some(out)
}

#[test]
fn a_template_gets_its_expansions_findings_with_the_bundles_of_the_lint_configuration() {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/kube-descheduler/v4.16");
    let dir = std::env::temp_dir().join(format!("olm-lsp-pipes-template-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("catalog/cluster-kube-descheduler-operator")).unwrap();
    let catalog = "catalog/cluster-kube-descheduler-operator/catalog.json";
    std::fs::copy(from.join(catalog), dir.join(catalog)).expect("the shared catalogs are present");
    let template = std::fs::read_to_string(from.join("catalog-template.yaml")).unwrap();
    std::fs::write(dir.join("catalog-template.yaml"), &template).unwrap();
    std::fs::write(dir.join(".olm-catalog.yaml"), "bundles: [catalog]\n").unwrap();
    let expected = template_findings(&dir, "catalog-template.yaml", "catalog");
    assert!(expected.iter().any(|f| f.1 == "replaces-skipped"), "{expected:?}");

    let mut s = Server::start();
    let root = format!("file://{}", dir.display());
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": root}}));
    s.until(json!(1));
    s.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let uri = format!("{root}/catalog-template.yaml");
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "workspace/symbol", "params": {"query": ""}}));
    assert_eq!(published_for(&s.until(json!(2)), &uri), Some(expected));

    // Hover and definition on a bundle image: the bundle the source has under it.
    let line = template.lines().position(|l| l.starts_with("- image: ")).unwrap();
    let at = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 12}});
    s.send(json!({"jsonrpc": "2.0", "id": 10, "method": "textDocument/hover", "params": at}));
    let hover = s.until(json!(10)).pop().unwrap();
    let text = hover["result"]["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        text.contains("bundle of package `cluster-kube-descheduler-operator`") && text.contains("- version: "),
        "{text}"
    );
    s.send(json!({"jsonrpc": "2.0", "id": 11, "method": "textDocument/definition", "params": at}));
    let def = s.until(json!(11)).pop().unwrap();
    assert_eq!(def["result"][0]["uri"], format!("{root}/{catalog}"), "{def}");
    let name = text.split("**").nth(1).unwrap();
    let json_text = std::fs::read_to_string(dir.join(catalog)).unwrap();
    let def_line = def["result"][0]["range"]["start"]["line"].as_u64().unwrap() as usize;
    assert!(json_text.lines().nth(def_line).unwrap().contains(&format!("\"name\": \"{name}\"")), "{def}");

    // An image no source has, typed into the template: the expansion's error at that line.
    let edited =
        template.replacen("\n- image: ", "\n- image: example.com/not/there:1\n  schema: olm.bundle\n- image: ", 1);
    let line = edited.lines().position(|l| l.contains("example.com/not/there")).unwrap() as u64 + 1;
    std::fs::write(dir.join("catalog-template.yaml"), &edited).unwrap();
    let changed = json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": edited}]});
    s.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": changed}));
    s.send(json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    let now = published_for(&s.until(json!(3)), &uri).expect("the edit publishes the template's findings");
    assert_eq!(now, template_findings(&dir, "catalog-template.yaml", "catalog"));
    assert!(now.iter().any(|f| f.0 == line && f.2.contains("example.com/not/there:1")), "{now:?}");
    s.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(s.exit_code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}
