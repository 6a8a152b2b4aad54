fn main() {
    let p = std::env::args().nth(1).unwrap();
    let b = std::fs::read(&p).unwrap();
    let l = olm_catalog::declcfg::load_files(&[olm_catalog::declcfg::FileInput::new(p.clone(), b)]);
    let f = if p.ends_with(".json") { olm_catalog::declcfg::write::Format::Json } else { olm_catalog::declcfg::write::Format::Yaml };
    print!("{}", olm_catalog::declcfg::write::write(&l.config, f));
}
