//! Faults injected at a chosen step of a save, for the tests that break it (debug builds only;
//! release builds never read the variable).
//!
//! `OLM_CATALOG_SAVE_FAULT=kill@N` kills the process with `SIGKILL` when the save reaches its
//! N-th step (1-based), as a power cut or `kill -9` would; `fail@N:ERRNO` makes that step fail
//! with the OS error `ERRNO` (28 is `ENOSPC`, a full disk); `sleep@N:MS` pauses there for `MS`
//! milliseconds (for a test to change a file, or send a signal, in the middle). The steps are every write of a chunk
//! of at most [`CHUNK`] bytes, every flush to disk, link, rename and removal, in order.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes written at a time (each a step).
pub const CHUNK: usize = 4096;

static STEPS: AtomicUsize = AtomicUsize::new(0);

/// What to do at a step.
#[derive(Debug, PartialEq, Eq)]
enum Fault {
    Kill(usize),
    Fail(usize, i32),
    Sleep(usize, u64),
}

fn parse(spec: &str) -> Option<Fault> {
    if let Some(n) = spec.strip_prefix("kill@") {
        return n.parse().ok().map(Fault::Kill);
    }
    if let Some((n, ms)) = spec.strip_prefix("sleep@").and_then(|s| s.split_once(':')) {
        return Some(Fault::Sleep(n.parse().ok()?, ms.parse().ok()?));
    }
    let (n, errno) = spec.strip_prefix("fail@")?.split_once(':')?;
    Some(Fault::Fail(n.parse().ok()?, errno.parse().ok()?))
}

/// Count one step of a save; in a debug build, inject the configured fault when it is the one.
pub fn step() -> io::Result<()> {
    let n = STEPS.fetch_add(1, Ordering::SeqCst) + 1;
    if !cfg!(debug_assertions) {
        return Ok(());
    }
    static FAULT: std::sync::OnceLock<Option<Fault>> = std::sync::OnceLock::new();
    let fault = FAULT.get_or_init(|| std::env::var("OLM_CATALOG_SAVE_FAULT").ok().as_deref().and_then(parse));
    match *fault {
        Some(Fault::Kill(at)) if at == n => kill(),
        Some(Fault::Fail(at, errno)) if at == n => Err(io::Error::from_raw_os_error(errno)),
        Some(Fault::Sleep(at, ms)) if at == n => {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            Ok(())
        }
        _ => Ok(()),
    }
}

#[cfg(unix)]
fn kill() -> io::Result<()> {
    // SAFETY: sending a signal to this process has no memory effects.
    unsafe {
        libc::kill(libc::getpid(), libc::SIGKILL);
    }
    unreachable!("SIGKILL does not return")
}

#[cfg(not(unix))]
fn kill() -> io::Result<()> {
    std::process::abort()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_step_and_what_happens_there() {
        assert_eq!(parse("kill@3"), Some(Fault::Kill(3)));
        assert_eq!(parse("fail@12:28"), Some(Fault::Fail(12, 28)));
        assert_eq!(parse("sleep@1:500"), Some(Fault::Sleep(1, 500)));
        assert_eq!(parse("fail@12"), None);
        assert_eq!(parse("explode@1"), None);
    }
}
