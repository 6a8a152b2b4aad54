//! The language server's budget (issue 37): from a `didChange` in community-v4.20's largest file
//! to the `publishDiagnostics` it causes, measured by a client of the server over lsp-server's
//! in-memory connection (the server on its own thread, as over stdio). Each edit is a keystroke
//! that changes the file's findings: a character typed at the end of a bundle's version (the
//! version becomes invalid), then deleted. Prints the median and the 95th percentile against the
//! target (≤ 20 ms); then 10,000 more such edits, and the live heap (a counting allocator around
//! mimalloc) after them against after the first 100: flat when it grew by less than 1 MB.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use olm_catalog_lsp::lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

#[path = "common/mod.rs"]
mod common;

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc(l) };
        if !p.is_null() {
            LIVE.fetch_add(l.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { mimalloc::MiMalloc.realloc(p, l, new) };
        if !q.is_null() {
            LIVE.fetch_add(new, Ordering::Relaxed);
            LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The client's end.
struct Client {
    conn: Connection,
    next: i32,
}

impl Client {
    fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    /// Send a request and wait for its response, dropping what comes before.
    fn round_trip(&mut self, method: &str, params: Value) {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        while !matches!(self.conn.receiver.recv().unwrap(), Message::Response(r) if r.id == id) {}
    }

    /// Wait for the diagnostics of `uri`; how many.
    fn published(&self, uri: &str) -> usize {
        loop {
            if let Message::Notification(n) = self.conn.receiver.recv().unwrap() {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    return n.params["diagnostics"].as_array().map_or(0, Vec::len);
                }
            }
        }
    }
}

/// The 0-based line and the length (UTF-16 units, ASCII here) of the first block-style bundle
/// version of `text` (the line after `packageName: …`).
fn version_line(text: &str) -> (u32, u32) {
    let lines: Vec<&str> = text.lines().collect();
    let at = (1..lines.len())
        .find(|&i| lines[i - 1].contains("packageName: ") && lines[i].trim_start().starts_with("version: "))
        .expect("a block-style bundle version");
    (at as u32, lines[at].len() as u32)
}

/// The largest file of community-v4.20: its URI, text, path in the catalog; the catalog's URI.
struct Subject {
    root: String,
    uri: String,
    path: String,
    text: String,
}

fn subject() -> Subject {
    let dir = common::fbc_dir().join("community-v4.20");
    let largest = common::read(&dir).into_iter().max_by_key(|f| f.content.len()).expect("a file");
    let file = dir.join(&largest.path).canonicalize().unwrap();
    Subject {
        root: format!("file://{}", dir.canonicalize().unwrap().display()),
        uri: format!("file://{}", file.display()),
        text: String::from_utf8_lossy(&largest.content).into_owned(),
        path: largest.path,
    }
}

/// One keystroke at the end of line `line` (length `end`) of `uri`, or its undo; the time to
/// the file's diagnostics.
fn keystroke(client: &Client, uri: &str, (line, end): (u32, u32), version: i32) -> Duration {
    let change = if version % 2 == 1 {
        json!({"range": {"start": {"line": line, "character": end}, "end": {"line": line, "character": end}}, "text": "x"})
    } else {
        json!({"range": {"start": {"line": line, "character": end}, "end": {"line": line, "character": end + 1}}, "text": ""})
    };
    let t = Instant::now();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
    );
    client.published(uri);
    t.elapsed()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let s = subject();
    let at = version_line(&s.text);
    let (server, conn) = Connection::memory();
    let handle = std::thread::spawn(move || olm_catalog_lsp::serve(&server));
    let mut client = Client { conn, next: 0 };
    let t = Instant::now();
    client.round_trip("initialize", json!({"capabilities": {}, "rootUri": s.root}));
    client.notify("initialized", json!({}));
    client.round_trip("olm/ping", Value::Null);
    let open = t.elapsed();
    let doc = json!({"uri": s.uri, "languageId": "yaml", "version": 0, "text": s.text});
    client.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    client.round_trip("olm/ping", Value::Null);

    let runs = common::runs().max(50) * 4;
    let mut times: Vec<Duration> = (1..=runs as i32).map(|v| keystroke(&client, &s.uri, at, v)).collect();
    times.sort();
    let (median, p95) = (times[times.len() / 2], times[times.len() * 95 / 100]);
    println!("community-v4.20: server open (initialize to the first answer) {:.0} ms", ms(open));
    println!(
        "  didChange → publishDiagnostics in {} ({:.1} MB), {runs} edits: median {:.2} ms, p95 {:.2} ms",
        s.path,
        s.text.len() as f64 / 1e6,
        ms(median),
        ms(p95)
    );
    common::target(
        &format!("lsp didChange → publishDiagnostics ≤ 20 ms, the largest file ({}, native)", s.path),
        &format!("{:.2} ms (p95 {:.2} ms)", ms(median), ms(p95)),
        ms(median) <= 20.0,
    );

    let edits = 10_000;
    let first = runs as i32 + 1;
    let mut base = 0;
    for v in first..first + edits {
        keystroke(&client, &s.uri, at, v);
        if v == first + 99 {
            base = LIVE.load(Ordering::Relaxed);
        }
    }
    let after = LIVE.load(Ordering::Relaxed);
    let growth = after as f64 - base as f64;
    let mb = |b: f64| b / 1e6;
    println!(
        "  live heap after 100 edits {:.1} MB, after {edits} {:.1} MB ({:+.2} MB)",
        mb(base as f64),
        mb(after as f64),
        mb(growth)
    );
    common::target(
        "lsp memory flat over 10,000 edits (live heap growth after the first 100 < 1 MB)",
        &format!("{:+.2} MB", mb(growth)),
        growth < 1e6,
    );
    client.round_trip("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    handle.join().unwrap();
}
