//! The shell examples of README.md and docs/*.md, run: every fenced block whose info string is
//! `console example` is a transcript of `$ command` lines, each followed by the output it prints
//! (stdout and stderr together). The commands run in `bash` with `olm-catalog` resolved to the
//! binary this package builds, in a scratch copy of the files the examples read (`www/examples/`,
//! `docs/examples/`), one copy per document so that a page's examples run in order, like a
//! reader's terminal, and an edit changes only the copy. The output shown must be the output
//! printed; a line `...` in it stands for any number of lines.
//!
//! The same documents are held to their other rules here: README.md at most 250 lines,
//! docs/performance.md at most 300, and no `console`, `sh`-with-`$` or `js`/`html` block left
//! unmarked (such blocks are examples, so they are run: JS ones by tests/node/docs.test.mjs, the
//! element's by tests/e2e/docs.test.mjs).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One fenced block of a Markdown document.
struct Block {
    info: String,
    /// The line of the opening fence, 1-based.
    line: usize,
    body: Vec<String>,
}

/// One `$ command` of a transcript and the output shown under it.
#[derive(Debug, PartialEq)]
struct Step {
    command: String,
    expected: Vec<String>,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents whose examples are run: README.md and every page of docs/.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![repo().join("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// The fenced blocks of `text`, in order (fences of three or more backticks).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, Block)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            Some((fence, block)) => {
                if trimmed.trim_end() == fence.as_str() {
                    out.push(open.take().unwrap().1);
                } else {
                    block.body.push(line.to_string());
                }
            }
            None if trimmed.starts_with("```") => {
                let ticks = trimmed.chars().take_while(|&c| c == '`').count();
                let info = trimmed[ticks..].trim().to_string();
                let block = Block { info, line: i + 1, body: Vec::new() };
                open = Some(("`".repeat(ticks), block));
            }
            None => {}
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    out
}

/// The steps of a transcript: `$ ` starts a command (a trailing `\` continues it on the next
/// line); the lines up to the next command are its output.
fn steps(body: &[String]) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut continued = false;
    for line in body {
        if continued {
            let step = out.last_mut().unwrap();
            step.command.push('\n');
            step.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push(Step { command: command.to_string(), expected: Vec::new() });
            continued = command.ends_with('\\');
        } else {
            let step = out.last_mut().expect("a transcript starts with a `$ ` command");
            step.expected.push(line.trim_end().to_string());
        }
    }
    out
}

/// Whether `actual` is `expected`, where a line `...` in `expected` stands for any lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => actual.first().is_some_and(|a| a == first) && matches(rest, &actual[1..]),
    }
}

/// A scratch copy of what the examples read, with `bin/olm-catalog` pointing at this build.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("olm-catalog-docs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["www/examples", "docs/examples"] {
        copy_tree(&repo().join(sub), &dir.join(sub));
    }
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_olm-catalog"), dir.join("bin/olm-catalog")).unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs `command` in `dir` with bash, stderr merged into stdout; the output's lines.
fn run(dir: &Path, command: &str) -> Vec<String> {
    let path = format!("{}:{}", dir.join("bin").display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).lines().map(|l| l.trim_end().to_string()).collect()
}

/// Runs every `console example` of one document; the mismatches, described.
fn check_document(doc: &Path) -> (usize, Vec<String>) {
    let name = doc.file_stem().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(doc).unwrap();
    let examples: Vec<Block> = blocks(&text).into_iter().filter(|b| b.info == "console example").collect();
    if examples.is_empty() {
        return (0, Vec::new());
    }
    let dir = scratch(&name);
    let mut failures = Vec::new();
    let mut count = 0;
    for block in &examples {
        for step in steps(&block.body) {
            count += 1;
            let actual = run(&dir, &step.command);
            if !matches(&step.expected, &actual) {
                failures.push(format!(
                    "{}:{}: `{}`\n--- shown\n{}\n--- printed\n{}\n",
                    doc.display(),
                    block.line,
                    step.command,
                    step.expected.join("\n"),
                    actual.join("\n")
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    (count, failures)
}

#[test]
fn every_shell_example_prints_what_it_shows() {
    let mut failures = Vec::new();
    let mut total = 0;
    for doc in documents() {
        let (count, failed) = check_document(&doc);
        println!("{}: {count} commands run", doc.display());
        total += count;
        failures.extend(failed);
    }
    assert!(total > 0, "no `console example` block found");
    assert!(failures.is_empty(), "{} of {total} examples differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_runnable_block_is_marked_as_an_example() {
    let mut unmarked = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for block in blocks(&text) {
            let lang = block.info.split_whitespace().next().unwrap_or("");
            let marked = block.info.split_whitespace().any(|w| w == "example");
            let runnable = matches!(lang, "console" | "js" | "javascript" | "html")
                || (lang == "sh" && block.body.iter().any(|l| l.starts_with("$ ")));
            if runnable && !marked {
                unmarked.push(format!("{}:{}: ```{}", doc.display(), block.line, block.info));
            }
        }
    }
    assert!(unmarked.is_empty(), "examples no test runs (mark them `example`):\n{}", unmarked.join("\n"));
}

#[test]
fn readme_and_performance_stay_short() {
    for (doc, limit) in [("README.md", 250), ("docs/performance.md", 300)] {
        let lines = std::fs::read_to_string(repo().join(doc)).unwrap().lines().count();
        assert!(lines <= limit, "{doc} has {lines} lines, more than {limit}");
    }
}

#[test]
fn a_transcript_is_commands_and_what_each_prints() {
    let body: Vec<String> = ["$ a \\", "  --b", "out 1", "out 2", "$ c"].iter().map(|s| s.to_string()).collect();
    assert_eq!(
        steps(&body),
        vec![
            Step { command: "a \\\n  --b".into(), expected: vec!["out 1".into(), "out 2".into()] },
            Step { command: "c".into(), expected: vec![] },
        ]
    );
}

#[test]
fn an_ellipsis_line_stands_for_any_lines_and_nothing_else_does() {
    let v = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&v(&["a", "...", "d"]), &v(&["a", "b", "c", "d"])));
    assert!(matches(&v(&["a", "...", "d"]), &v(&["a", "d"])));
    assert!(matches(&v(&["..."]), &v(&[])));
    assert!(!matches(&v(&["a", "...", "d"]), &v(&["a", "b"])));
    assert!(!matches(&v(&["a"]), &v(&["a", "b"])));
    assert!(!matches(&v(&["a", "b"]), &v(&["a", "c"])));
}

#[test]
fn fences_carry_their_info_string_and_line() {
    let text = "x\n```console example\n$ ls\n```\n\n````md\n```js\n````\n";
    let found = blocks(text);
    assert_eq!(found.len(), 2);
    assert_eq!((found[0].info.as_str(), found[0].line), ("console example", 2));
    assert_eq!(found[0].body, vec!["$ ls".to_string()]);
    assert_eq!(found[1].body, vec!["```js".to_string()]);
}
