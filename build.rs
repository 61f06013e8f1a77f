//! Records what `--version` reports besides the crate's version: the commit the program is built
//! from (`unknown` outside a git checkout, as in a source archive) and the optional features.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_owned())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // Rebuilt when HEAD moves: HEAD itself, the branch it names, and the packed refs. Only
    // files that exist are watched: cargo runs this script again at every build for a missing
    // one, and recompiles the crate after it.
    if let (Some(dir), Some(common)) = (
        git(&["rev-parse", "--git-dir"]),
        git(&["rev-parse", "--git-common-dir"]),
    ) {
        let branch = git(&["symbolic-ref", "-q", "HEAD"]).map(|b| format!("{common}/{b}"));
        let watched = [
            Some(format!("{dir}/HEAD")),
            Some(format!("{common}/packed-refs")),
            branch,
        ];
        for path in watched.into_iter().flatten() {
            if std::path::Path::new(&path).is_file() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    let features: Vec<&str> = ["gui", "mcp", "python", "repl"]
        .into_iter()
        .filter(|f| std::env::var_os(format!("CARGO_FEATURE_{}", f.to_uppercase())).is_some())
        .collect();
    let features = if features.is_empty() {
        "none".to_owned()
    } else {
        features.join(", ")
    };
    println!(
        "cargo:rustc-env=COOKINGBOT_LONG_VERSION={} (commit {commit}; features: {features})",
        std::env::var("CARGO_PKG_VERSION").unwrap_or_default()
    );
}
