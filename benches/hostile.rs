//! placeholder
#[path = "../tests/hostile/catalogs.rs"]
mod catalogs;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--write") {
        let dir = std::path::PathBuf::from(&args[i + 1]);
        for h in catalogs::all() {
            let d = dir.join(h.name);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("catalog.json"), &h.file.content).unwrap();
            println!("{} {} {} {}", d.display(), h.package, h.channel, h.oldest);
        }
    }
}
