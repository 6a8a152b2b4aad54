//! The `olm-catalog` command line: a thin surface over the library (no logic of its own).
//!
//! `cli` is the clap definition (the commands, their arguments and help), from which
//! docs/cli.md is generated (`olm-catalog __cli-reference`, `make cli-reference`); `commands/`
//! holds one module per command; `args` the argument types several commands share, `catalog`
//! the reading of their inputs, `colour` the colour of text output, and `output` the exit codes,
//! the failure that ends a run and the printing every command shares.
//!
//! Exit codes: 0 success (valid catalog, path reaches the head), 1 a negative answer (invalid
//! catalog, stranded version, a CSV its OperatorGroup does not support, an unmet dependency), 2
//! usage or I/O error.

#[cfg(target_arch = "wasm32")]
fn main() {
    // The command line is native only; the WebAssembly build is used through the npm package.
}

#[cfg(not(target_arch = "wasm32"))]
mod alloc;
#[cfg(not(target_arch = "wasm32"))]
mod args;
#[cfg(not(target_arch = "wasm32"))]
mod catalog;
#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod colour;
#[cfg(not(target_arch = "wasm32"))]
mod commands;
#[cfg(not(target_arch = "wasm32"))]
mod image;
#[cfg(not(target_arch = "wasm32"))]
mod output;
#[cfg(not(target_arch = "wasm32"))]
mod save;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser as _;
    alloc::configure();
    let cli = match cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            let code = if e.use_stderr() { output::FAILURE } else { output::SUCCESS };
            return std::process::ExitCode::from(code);
        }
    };
    colour::configure(cli.color);
    image::configure(cli.images);
    let mut out = String::new();
    let result = cli.command.run(&mut out);
    output::finish(&out, result)
}
