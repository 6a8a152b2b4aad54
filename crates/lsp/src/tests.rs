//! The server over lsp-server's in-memory connection, as a client drives it: the handshake and
//! its refusals, findings pushed per file and across files, a file deleted under the server,
//! hover, definition, references, completion, symbols, quick fixes and rename, on a temporary
//! copy of `tests/fixtures/lsp-catalog` (package `foo`: `package.yaml` holds the package and
//! its channel, `bundles.yaml` the bundles; `foo.v1.1.2` has a z-stream gap).

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

/// A temporary copy of the fixture catalog, removed on drop.
pub struct Catalog(pub PathBuf);

impl Catalog {
    pub fn new(name: &str) -> Catalog {
        let dir = std::env::temp_dir().join(format!("olm-lsp-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/lsp-catalog/foo");
        std::fs::create_dir_all(dir.join("foo")).unwrap();
        for f in ["package.yaml", "bundles.yaml"] {
            std::fs::copy(from.join(f), dir.join("foo").join(f)).unwrap();
        }
        Catalog(dir)
    }

    pub fn uri(&self, rel: &str) -> String {
        lsp_types::Url::from_file_path(self.0.join(rel)).unwrap().to_string()
    }

    pub fn text(&self, rel: &str) -> String {
        std::fs::read_to_string(self.0.join(rel)).unwrap()
    }
}

impl Drop for Catalog {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A test client: the server runs on a thread.
struct Client {
    conn: Connection,
    server: Option<JoinHandle<bool>>,
    next: i32,
    /// Notifications received and not yet looked at.
    notes: Vec<Notification>,
}

impl Client {
    fn start() -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || crate::serve(&server));
        Client { conn, server: Some(handle), next: 0, notes: Vec::new() }
    }

    /// A client that went through the handshake on `catalog`.
    fn initialized(catalog: &Catalog) -> Client {
        let mut c = Client::start();
        let folder = json!([{"uri": lsp_types::Url::from_file_path(&catalog.0).unwrap(), "name": "catalog"}]);
        c.request("initialize", json!({"capabilities": {}, "workspaceFolders": folder})).unwrap();
        c.notify("initialized", json!({}));
        // A round trip: the catalog is read once this is answered.
        c.request("workspace/symbol", json!({"query": "\u{0}none"})).unwrap();
        c
    }

    fn recv(&mut self) -> Message {
        self.conn.receiver.recv_timeout(Duration::from_secs(20)).expect("the server answers")
    }

    /// The result of a request, or its error (code, message).
    fn request(&mut self, method: &str, params: Value) -> Result<Value, (i32, String)> {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => {
                    return match r.error {
                        Some(e) => Err((e.code, e.message)),
                        None => Ok(r.result.unwrap_or(Value::Null)),
                    }
                }
                Message::Notification(n) => self.notes.push(n),
                _ => {}
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    /// The diagnostics of `uri` in the last publication for it, waiting for one after a
    /// round trip (a request orders everything the server sent before its answer).
    fn diagnostics(&mut self, uri: &str) -> Option<Vec<Value>> {
        let _ = self.request("workspace/symbol", json!({"query": "\u{0}none"}));
        let found = self
            .notes
            .iter()
            .rev()
            .filter(|n| n.method == "textDocument/publishDiagnostics")
            .find(|n| n.params["uri"] == uri)
            .map(|n| n.params["diagnostics"].as_array().cloned().unwrap_or_default());
        self.notes.clear();
        found
    }

    fn at(&mut self, method: &str, uri: &str, line: u32, character: u32, extra: Value) -> Value {
        let mut params = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        self.request(method, params).unwrap()
    }

    fn stop(mut self) -> bool {
        self.request("shutdown", Value::Null).unwrap();
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap()
    }
}

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or_default().to_string()).collect()
}

#[test]
fn the_handshake_refuses_requests_out_of_order_and_shuts_down_cleanly() {
    let catalog = Catalog::new("handshake");
    let mut c = Client::start();
    assert_eq!(c.request("textDocument/hover", json!({})).unwrap_err().0, -32002);
    c.notify("textDocument/didOpen", json!({}));
    let init = c.request("initialize", json!({"capabilities": {}, "rootUri": catalog.uri("")})).unwrap();
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2);
    assert_eq!(init["capabilities"]["renameProvider"], true);
    assert_eq!(c.request("initialize", json!({"capabilities": {}})).unwrap_err().0, -32600);
    c.notify("initialized", json!({}));
    assert_eq!(c.request("olm/unknown", json!({})).unwrap_err().0, -32601);
    assert_eq!(c.request("textDocument/hover", json!({"bad": 1})).unwrap_err().0, -32602);
    c.notify("olm/unknownNotification", json!({"x": 1}));
    c.request("shutdown", Value::Null).unwrap();
    assert_eq!(c.request("textDocument/hover", json!({})).unwrap_err().0, -32600);
    c.notify("exit", Value::Null);
    assert!(c.server.take().unwrap().join().unwrap(), "exit after shutdown");
}

#[test]
fn exit_without_shutdown_says_so() {
    let mut c = Client::start();
    c.notify("exit", Value::Null);
    assert!(!c.server.take().unwrap().join().unwrap());
}

#[test]
fn findings_are_pushed_per_file_and_follow_a_change_in_another_file() {
    let catalog = Catalog::new("findings");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let first = c.diagnostics(&package).expect("the channel's file has a finding");
    assert_eq!(codes(&first), ["z-stream-gap"]);
    assert_eq!(first[0]["range"]["start"], json!({"line": 18, "character": 8}));
    assert_eq!(first[0]["severity"], 3, "a note by default");
    // Removing bundle foo.v1.0.1 from bundles.yaml leaves an entry without a bundle in package.yaml.
    let bundles = catalog.uri("foo/bundles.yaml");
    let text = catalog.text("foo/bundles.yaml");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": bundles, "languageId": "yaml", "version": 1, "text": text}}),
    );
    let cut = text.replace("name: foo.v1.0.1\n", "name: foo.v9.0.1\n");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": bundles, "version": 2}, "contentChanges": [{"text": cut}]}),
    );
    let after = c.diagnostics(&package).expect("package.yaml's findings are published again");
    assert!(codes(&after).contains(&"entry-without-bundle".to_string()), "{after:?}");
    // An incremental change puts the name back.
    let line = text.lines().position(|l| l == "name: foo.v1.0.1").unwrap() as u32;
    let range = json!({"start": {"line": line, "character": 11}, "end": {"line": line, "character": 12}});
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": bundles, "version": 3}, "contentChanges": [{"range": range, "text": "1"}]}),
    );
    assert_eq!(codes(&c.diagnostics(&package).unwrap()), ["z-stream-gap"]);
    assert!(c.stop());
}

#[test]
fn a_lint_level_comes_from_the_configuration_file() {
    let catalog = Catalog::new("config");
    std::fs::write(catalog.0.join(".olm-catalog.yaml"), "lints:\n  z-stream-gap: error\n").unwrap();
    let mut c = Client::initialized(&catalog);
    let found = c.diagnostics(&catalog.uri("foo/package.yaml")).unwrap();
    assert_eq!(found[0]["severity"], 1, "{found:?}");
    c.stop();
}

#[test]
fn a_file_deleted_under_the_server_is_dropped_and_requests_on_it_answer_empty() {
    let catalog = Catalog::new("deleted");
    let mut c = Client::initialized(&catalog);
    let bundles = catalog.uri("foo/bundles.yaml");
    std::fs::remove_file(catalog.0.join("foo/bundles.yaml")).unwrap();
    assert!(c.at("textDocument/hover", &bundles, 3, 8, json!({})).is_object(), "the session still has it");
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": bundles, "type": 3}]}));
    let found = c.diagnostics(&catalog.uri("foo/package.yaml")).unwrap();
    assert!(codes(&found).contains(&"entry-without-bundle".to_string()), "{found:?}");
    assert_eq!(c.at("textDocument/hover", &bundles, 3, 8, json!({})), Value::Null);
    assert_eq!(c.at("textDocument/definition", &bundles, 3, 8, json!({})), json!([]));
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": bundles}}));
    assert!(c.stop());
}

#[test]
fn hover_on_an_entry_tells_version_channels_and_paths_to_the_head() {
    let catalog = Catalog::new("hover");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    // `- name: foo.v1.0.1` is line 10 (0-based).
    let hover = c.at("textDocument/hover", &package, 9, 10, json!({}));
    let text = hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("{hover}"));
    assert!(text.contains("version: `1.0.1`"), "{text}");
    assert!(text.contains("channels: `stable`"), "{text}");
    assert!(text.contains("OLM v0 path to the head of `stable`: `foo.v1.0.1` → `foo.v1.0.2` → `foo.v1.1.0`"), "{text}");
    assert!(text.contains("OLM v1 path to the head of `stable`"), "{text}");
    // The skipRange of foo.v1.0.2 (line 14) covers 1.0.0 and 1.0.1.
    let hover = c.at("textDocument/hover", &package, 13, 15, json!({}));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("covers 2 version(s)") && text.contains("`1.0.1` (`foo.v1.0.1`)"), "{text}");
    // A property type: its meaning and parsed value.
    let hover = c.at("textDocument/hover", &catalog.uri("foo/bundles.yaml"), 6, 9, json!({}));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("the bundle's package, version and release") && text.contains("parsed value"), "{text}");
    c.stop();
}

#[test]
fn definition_and_references_cross_files() {
    let catalog = Catalog::new("navigate");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let bundles = catalog.uri("foo/bundles.yaml");
    // `replaces: foo.v1.0.0` (line 10) → the bundle blob's name in bundles.yaml (line 3).
    let def = c.at("textDocument/definition", &package, 10, 14, json!({}));
    assert_eq!(
        def,
        json!([{"uri": bundles, "range": {"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 16}}}])
    );
    // defaultChannel → the channel's name.
    let def = c.at("textDocument/definition", &package, 2, 17, json!({}));
    assert_eq!(def[0]["range"]["start"], json!({"line": 6, "character": 6}));
    // foo.v1.0.1's bundle name → its entry and the replaces naming it, and itself.
    let refs = c.at("textDocument/references", &bundles, 13, 8, json!({"context": {"includeDeclaration": true}}));
    let lines: Vec<(String, u64)> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["uri"].as_str().unwrap().to_string(), l["range"]["start"]["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(lines, [(bundles.clone(), 13), (package.clone(), 9), (package.clone(), 12)]);
    c.stop();
}

#[test]
fn completion_offers_bundles_channels_types_and_schemas() {
    let catalog = Catalog::new("complete");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let mut text = catalog.text("foo/package.yaml");
    text.push_str("- name: foo.v2.0.0\n  replaces: \n");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": package, "languageId": "yaml", "version": 1, "text": text}}),
    );
    let labels = |v: Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
    };
    let replaces = labels(c.at("textDocument/completion", &package, 21, 12, json!({})));
    assert!(replaces.contains(&"foo.v1.1.2".to_string()) && replaces.len() == 6, "{replaces:?}");
    let channels = labels(c.at("textDocument/completion", &package, 2, 16, json!({})));
    assert_eq!(channels, ["stable"]);
    let schemas = labels(c.at("textDocument/completion", &package, 0, 8, json!({})));
    assert!(schemas.contains(&"olm.deprecations".to_string()), "{schemas:?}");
    let types = labels(c.at("textDocument/completion", &catalog.uri("foo/bundles.yaml"), 6, 8, json!({})));
    assert!(types.contains(&"olm.gvk.required".to_string()), "{types:?}");
    c.stop();
}

#[test]
fn symbols_of_a_document_and_of_the_workspace() {
    let catalog = Catalog::new("symbols");
    let mut c = Client::initialized(&catalog);
    let doc = c
        .request("textDocument/documentSymbol", json!({"textDocument": {"uri": catalog.uri("foo/package.yaml")}}))
        .unwrap();
    assert_eq!(doc.as_array().unwrap().len(), 1, "{doc:#}");
    assert_eq!(doc[0]["name"], "foo");
    let stable = &doc[0]["children"][0];
    assert_eq!(stable["name"], "stable");
    assert_eq!(stable["children"].as_array().unwrap().len(), 6);
    assert_eq!(stable["range"]["end"]["line"], 18, "the channel's range runs over its entries");
    assert_eq!(doc[0]["range"]["end"]["line"], 18);
    // bundles.yaml has no package blob: its bundles are at the top.
    let doc = c
        .request("textDocument/documentSymbol", json!({"textDocument": {"uri": catalog.uri("foo/bundles.yaml")}}))
        .unwrap();
    assert_eq!(doc.as_array().unwrap().len(), 6);
    let found = c.request("workspace/symbol", json!({"query": "v1.1"})).unwrap();
    let names: Vec<&str> = found.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["foo.v1.1.0", "foo.v1.1.1", "foo.v1.1.2"]);
    c.stop();
}

#[test]
fn the_z_stream_gap_has_a_quick_fix_and_entries_have_refactorings() {
    let catalog = Catalog::new("actions");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let diags = c.diagnostics(&package).unwrap();
    let range = diags[0]["range"].clone();
    let params = json!({"textDocument": {"uri": package}, "range": range, "context": {"diagnostics": diags}});
    let actions = c.request("textDocument/codeAction", params).unwrap();
    let fix = &actions[0];
    assert_eq!(fix["title"], "Add skipRange \">=1.1.0 <1.1.2\" to foo.v1.1.2");
    assert_eq!(fix["kind"], "quickfix");
    let edits = fix["edit"]["changes"][&package].as_array().unwrap();
    assert!(
        edits.iter().any(|e| e["newText"].as_str().unwrap().contains("skipRange: '>=1.1.0 <1.1.2'")
            || e["newText"].as_str().unwrap().contains("skipRange: \">=1.1.0 <1.1.2\"")),
        "{edits:?}"
    );
    let titles: Vec<&str> = actions.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert!(titles.contains(&"Deprecate bundle foo.v1.1.2"), "{titles:?}");
    c.stop();
}

#[test]
fn rename_a_bundle_or_a_channel_across_files() {
    let catalog = Catalog::new("rename");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let bundles = catalog.uri("foo/bundles.yaml");
    let edit = c.at("textDocument/rename", &package, 9, 10, json!({"newName": "foo.v1.0.1-fixed"}));
    let changes = edit["changes"].as_object().unwrap();
    assert_eq!(changes[&package].as_array().unwrap().len(), 2, "the entry and the replaces naming it");
    assert_eq!(changes[&bundles].as_array().unwrap().len(), 1, "the bundle's name");
    assert!(changes[&bundles][0]["newText"] == "foo.v1.0.1-fixed");
    let edit = c.at("textDocument/rename", &package, 6, 8, json!({"newName": "fast"}));
    let edits = edit["changes"][&package].as_array().unwrap();
    assert!(edits.iter().all(|e| e["newText"].as_str().unwrap().contains("fast")), "{edits:?}");
    assert_eq!(edits.len(), 2, "the channel's name and the default channel: {edits:?}");
    let taken = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": package}, "position": {"line": 9, "character": 10}, "newName": "foo.v1.0.0"}),
    );
    assert!(taken.unwrap_err().1.contains("already has a bundle"));
    c.stop();
}

#[test]
fn an_indexignore_edit_brings_back_the_files_it_no_longer_ignores() {
    let catalog = Catalog::new("indexignore");
    std::fs::write(catalog.0.join(".indexignore"), "extra.yaml\n").unwrap();
    std::fs::write(catalog.0.join("extra.yaml"), "schema: olm.bundle\npackage: bar\nname: bar.v1\n").unwrap();
    let mut c = Client::initialized(&catalog);
    let extra = catalog.uri("extra.yaml");
    assert_eq!(c.diagnostics(&extra), None, "ignored: never read");
    let ignore = catalog.uri(".indexignore");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": ignore, "languageId": "text", "version": 1, "text": "extra.yaml\n"}}),
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": ignore, "version": 2}, "contentChanges": [{"text": ""}]}),
    );
    let found = c.diagnostics(&extra).expect("read now");
    assert!(!found.is_empty());
    c.stop();
}

#[test]
fn a_bundle_can_be_promoted_to_the_channels_that_do_not_list_it() {
    let catalog = Catalog::new("promote");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let mut text = catalog.text("foo/package.yaml");
    text.push_str("---\nschema: olm.channel\npackage: foo\nname: fast\nentries:\n- name: foo.v1.0.0\n");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": package, "languageId": "yaml", "version": 1, "text": text}}),
    );
    let at = json!({"start": {"line": 9, "character": 10}, "end": {"line": 9, "character": 10}});
    let params = json!({"textDocument": {"uri": package}, "range": at, "context": {"diagnostics": []}});
    let actions = c.request("textDocument/codeAction", params).unwrap();
    let promote = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Promote foo.v1.0.1 to channel fast")
        .unwrap_or_else(|| panic!("{actions:#}"));
    assert_eq!(promote["kind"], "refactor");
    let edits = promote["edit"]["changes"][&package].as_array().unwrap();
    assert!(edits.iter().any(|e| e["newText"].as_str().unwrap().contains("foo.v1.0.1")), "{edits:?}");
    c.stop();
}

#[test]
fn json_catalogs_channels_and_packages() {
    let catalog = Catalog::new("json");
    let json_file = concat!(
        "{\"schema\": \"olm.package\", \"name\": \"bar\", \"defaultChannel\": \"alpha\"}\n",
        "{\"schema\": \"olm.channel\", \"package\": \"bar\", \"name\": \"alpha\",\n",
        " \"entries\": [{\"name\": \"bar.v1\"}, {\"name\": \"bar.v2\", \"replaces\": \"bar.v1\"}]}\n",
        "{\"schema\": \"olm.bundle\", \"package\": \"bar\", \"name\": \"bar.v1\", \"image\": \"r/bar:1\",\n",
        " \"properties\": [{\"type\": \"olm.package\", \"value\": {\"packageName\": \"bar\", \"version\": \"1.0.0\"}}]}\n",
        "{\"schema\": \"olm.bundle\", \"package\": \"bar\", \"name\": \"bar.v2\", \"image\": \"r/bar:2\",\n",
        " \"properties\": [{\"type\": \"olm.package\", \"value\": {\"packageName\": \"bar\", \"version\": \"2.0.0\"}}]}\n",
    );
    std::fs::create_dir_all(catalog.0.join("bar")).unwrap();
    std::fs::write(catalog.0.join("bar/catalog.json"), json_file).unwrap();
    let mut c = Client::initialized(&catalog);
    let uri = catalog.uri("bar/catalog.json");
    // `"replaces": "bar.v1"` on line 2: the name inside the quotes, 66..72.
    let col = json_file.lines().nth(2).unwrap().rfind("bar.v1").unwrap() as u32;
    let def = c.at("textDocument/definition", &uri, 2, col + 1, json!({}));
    let line3 = json_file.lines().nth(3).unwrap();
    let start = line3.find("bar.v1").unwrap() as u64;
    assert_eq!(
        def[0]["range"],
        json!({"start": {"line": 3, "character": start}, "end": {"line": 3, "character": start + 6}})
    );
    // The default channel: its head; the package: its channels.
    let col = json_file.lines().next().unwrap().rfind("alpha").unwrap() as u32;
    let hover = c.at("textDocument/hover", &uri, 0, col, json!({}));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("**channel** `alpha`") && text.contains("head: `bar.v2`") && text.contains("the default channel"),
        "{text}"
    );
    let col = json_file.find("\"bar\"").unwrap() as u32 + 1;
    let hover = c.at("textDocument/hover", &uri, 0, col, json!({}));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**package** `bar`") && text.contains("channels: `alpha`"), "{text}");
    c.stop();
}

#[test]
fn an_entry_without_a_bundle_has_a_quick_fix_removing_it() {
    let catalog = Catalog::new("dangling");
    let bundles: Vec<String> = catalog.text("foo/bundles.yaml").split("---\n").map(String::from).collect();
    let kept: Vec<String> = bundles.into_iter().filter(|b| !b.contains("name: foo.v1.0.1\n")).collect();
    std::fs::write(catalog.0.join("foo/bundles.yaml"), kept.join("---\n")).unwrap();
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let diags = c.diagnostics(&package).unwrap();
    let dangling: Vec<Value> = diags.into_iter().filter(|d| d["code"] == "entry-without-bundle").collect();
    let params =
        json!({"textDocument": {"uri": package}, "range": dangling[0]["range"], "context": {"diagnostics": dangling}});
    let actions = c.request("textDocument/codeAction", params).unwrap();
    assert_eq!(actions[0]["title"], "Remove the entry foo.v1.0.1, which has no bundle (re-wire its channels)");
    // Applied: the entry is gone, and no finding is left but the gap.
    let mut text = catalog.text("foo/package.yaml");
    let mut edits: Vec<Value> = actions[0]["edit"]["changes"][&package].as_array().unwrap().clone();
    edits.sort_by_key(|e| {
        std::cmp::Reverse((e["range"]["start"]["line"].as_u64(), e["range"]["start"]["character"].as_u64()))
    });
    for e in edits {
        let lines = crate::convert::Lines::new(&text);
        let range: lsp_types::Range = serde_json::from_value(e["range"].clone()).unwrap();
        let (start, end) = (lines.offset(range.start), lines.offset(range.end));
        text.replace_range(start..end, e["newText"].as_str().unwrap());
    }
    // Re-wired as the edit engine removes a bundle: who replaced it skips it (users on it still
    // upgrade).
    assert!(!text.contains("- name: foo.v1.0.1"), "{text}");
    assert!(text.contains("- name: foo.v1.0.2\n  replaces: foo.v1.0.0\n"), "{text}");
    assert!(text.contains("  skips:\n  - foo.v1.0.1\n"), "{text}");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": package, "languageId": "yaml", "version": 1, "text": text}}),
    );
    assert_eq!(codes(&c.diagnostics(&package).unwrap()), ["z-stream-gap"]);
    c.stop();
}

/// `text` with the LSP `edits` applied.
fn applied(mut text: String, edits: &[Value]) -> String {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| {
        std::cmp::Reverse((e["range"]["start"]["line"].as_u64(), e["range"]["start"]["character"].as_u64()))
    });
    for e in edits {
        let lines = crate::convert::Lines::new(&text);
        let range: lsp_types::Range = serde_json::from_value(e["range"].clone()).unwrap();
        let (start, end) = (lines.offset(range.start), lines.offset(range.end));
        text.replace_range(start..end, e["newText"].as_str().unwrap());
    }
    text
}

/// Each finding the edit engine can fix, made in `foo/package.yaml` (the fixture's package and
/// channel, and the blobs given): the quick fix's title, and the finding gone once it is applied.
#[test]
fn every_fixable_finding_has_a_quick_fix_that_removes_it() {
    let channel = |entries: &str| format!("---\nschema: olm.channel\npackage: foo\nname: s\nentries:\n{entries}");
    let deprecations = |name: &str| {
        format!("---\nschema: olm.deprecations\npackage: foo\nentries:\n- reference: {{schema: olm.bundle, name: {name}}}\n  message: old\n")
    };
    let replaces_what_it_skips = channel(
        "- name: foo.v1.0.0\n- name: foo.v1.0.1\n  replaces: foo.v1.0.0\n- name: foo.v1.0.2\n  replaces: foo.v1.0.1\n  skips: [foo.v1.0.1]\n",
    );
    let new_bundle = "---\nschema: olm.bundle\npackage: foo\nname: foo.v2.0.0\nimage: example.com/foo:2.0.0\nproperties:\n- type: olm.package\n  value: {packageName: foo, version: 2.0.0}\n";
    let cases: Vec<(String, &str, &str)> = vec![
        (replaces_what_it_skips.clone(), "stranded-entry", "Add foo.v1.0.0 to the skips of foo.v1.0.2"),
        (replaces_what_it_skips, "replaces-skipped", "Drop foo.v1.0.1 from the skips of foo.v1.0.2"),
        (
            channel("- name: foo.v1.0.0\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n- name: foo.v1.2.0\n  replaces: foo.v1.1.0\n- name: foo.v1.3.0\n  replaces: foo.v1.2.0\n  skips: [foo.v1.1.0]\n"),
            "replaces-skipped",
            "Drop foo.v1.1.0 from the skips of foo.v1.3.0",
        ),
        (
            channel("- name: foo.v1.7.0\n- name: foo.v1.8.0\n  replaces: foo.v1.7.0\n- name: foo.v1.8.1\n  replaces: foo.v1.7.0\n  skips: [foo.v1.8.0]\n- name: foo.v1.9.0\n  replaces: foo.v1.8.0\n- name: foo.v1.9.1\n  replaces: foo.v1.8.1\n  skips: [foo.v1.9.0]\n"),
            "replaces-skipped",
            "Make foo.v1.9.0 replace foo.v1.8.1, which skips foo.v1.8.0",
        ),
        (
            channel("- name: foo.v1.0.0\n- name: foo.v1.0.1\n  replaces: foo.v1.0.0\n  skipRange: '>=3.0.0 <4.0.0'\n"),
            "skip-range-covers-nothing",
            "Remove the skipRange of foo.v1.0.1, which covers nothing",
        ),
        (
            channel("- name: foo.v1.0.0\n- name: foo.v1.0.1\n  replaces: foo.v1.0.0\n  skips: ['']\n"),
            "empty-skip",
            "Remove the empty skips of foo.v1.0.1",
        ),
        (
            channel("- name: foo.v1.0.0\n- name: foo.v1.0.1\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n  skips: [foo.v1.0.1]\n"),
            "unreachable-entry",
            "Make foo.v1.0.1 replace foo.v1.0.0",
        ),
        (
            channel("- name: foo.v1.0.0\n- name: foo.v1.0.1\n  replaces: foo.v1.0.0\n") + &deprecations("foo.v1.0.1"),
            "deprecated-head",
            "Remove the deprecation of the head foo.v1.0.1",
        ),
        (deprecations("foo.v9"), "deprecated-not-found", "Remove the deprecation of foo.v9, which does not exist"),
        (new_bundle.to_string(), "bundle-not-in-channel", "Add foo.v2.0.0 to the default channel stable"),
    ];
    let catalog = Catalog::new("fixes");
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let original = catalog.text("foo/package.yaml");
    for (version, (blobs, code, title)) in cases.into_iter().enumerate() {
        let text = format!("{original}{blobs}");
        let open = json!({"uri": package, "languageId": "yaml", "version": version * 2, "text": text});
        c.notify("textDocument/didOpen", json!({ "textDocument": open }));
        let found: Vec<Value> = c.diagnostics(&package).unwrap().into_iter().filter(|d| d["code"] == code).collect();
        assert_eq!(found.len(), 1, "{code}: {found:?}");
        let params =
            json!({"textDocument": {"uri": package}, "range": found[0]["range"], "context": {"diagnostics": found}});
        let actions = c.request("textDocument/codeAction", params).unwrap();
        let fix = &actions[0];
        assert_eq!((fix["title"].as_str(), fix["kind"].as_str()), (Some(title), Some("quickfix")), "{code}");
        let edited = applied(text, fix["edit"]["changes"][&package].as_array().unwrap());
        let change =
            json!({"textDocument": {"uri": package, "version": version * 2 + 1}, "contentChanges": [{"text": edited}]});
        c.notify("textDocument/didChange", change);
        let left = codes(&c.diagnostics(&package).expect("the fix changes the findings"));
        assert!(!left.iter().any(|l| l == code), "{code} is fixed: {left:?}\n{edited}");
        c.notify("textDocument/didClose", json!({"textDocument": {"uri": package}}));
    }
    c.stop();
}

#[test]
fn deprecation_refactorings_follow_what_is_deprecated() {
    let catalog = Catalog::new("undeprecate");
    let mut text = catalog.text("foo/package.yaml");
    text.push_str("---\nschema: olm.deprecations\npackage: foo\nentries:\n- reference: {schema: olm.bundle, name: foo.v1.0.1}\n  message: old\n");
    std::fs::write(catalog.0.join("foo/package.yaml"), &text).unwrap();
    let mut c = Client::initialized(&catalog);
    let package = catalog.uri("foo/package.yaml");
    let titles = |c: &mut Client, line: u32, character: u32| -> Vec<String> {
        let at =
            json!({"start": {"line": line, "character": character}, "end": {"line": line, "character": character}});
        let params = json!({"textDocument": {"uri": package}, "range": at, "context": {"diagnostics": []}});
        let actions = c.request("textDocument/codeAction", params).unwrap();
        actions.as_array().unwrap().iter().map(|a| a["title"].as_str().unwrap().to_string()).collect()
    };
    let on_deprecated = titles(&mut c, 9, 10);
    assert!(on_deprecated.contains(&"Undeprecate bundle foo.v1.0.1".to_string()), "{on_deprecated:?}");
    assert!(!on_deprecated.contains(&"Deprecate bundle foo.v1.0.1".to_string()), "{on_deprecated:?}");
    let on_other = titles(&mut c, 8, 10);
    assert!(on_other.contains(&"Deprecate bundle foo.v1.0.0".to_string()), "{on_other:?}");
    assert!(!on_other.iter().any(|t| t.starts_with("Undeprecate")), "{on_other:?}");
    let on_package = titles(&mut c, 1, 7);
    assert_eq!(on_package, ["Deprecate package foo"]);
    c.stop();
}
