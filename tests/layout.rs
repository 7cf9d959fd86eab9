//! The source tree keeps the layout `src/lib.rs` describes: imports run from the
//! front ends to `sql` and `engine`, from the engine to `sql`, and `sql` uses
//! neither; the front ends do not use each other or the server. Read from the
//! source files themselves, so a new `use` that breaks the flow fails here.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read source dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

/// `(file, line)` for each mention of `crate::<module>` (in a `use` or a path)
/// under `src/<folder>`.
fn mentions(folder: &str, module: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(folder);
    let needle = format!("crate::{module}");
    let mut found = Vec::new();
    for file in sources(&root) {
        let text = std::fs::read_to_string(&file).expect("read source");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains(&needle)
                && !code.contains(&format!("{needle}_"))
                && !code.contains(&format!("{needle}s"))
            {
                found.push(format!(
                    "{}:{}: {}",
                    file.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    found
}

#[test]
fn imports_run_one_way() {
    let rules = [
        ("sql", "engine"),
        ("sql", "pg"),
        ("sql", "http"),
        ("sql", "server"),
        ("engine", "pg"),
        ("engine", "http"),
        ("engine", "server"),
        ("pg", "http"),
        ("pg", "server"),
        ("http", "pg"),
        ("http", "server"),
        // Credentials serve both front ends and know neither; the engine knows
        // roles, not how a client proved one.
        ("auth", "pg"),
        ("auth", "http"),
        ("auth", "server"),
        ("engine", "auth"),
        ("sql", "auth"),
    ];
    let broken: Vec<String> = rules
        .iter()
        .flat_map(|(folder, module)| mentions(folder, module))
        .collect();
    assert!(
        broken.is_empty(),
        "imports against the data flow:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_check_sees_imports() {
    // The engine does use sql: if this finds nothing, the rule above checks nothing.
    assert!(!mentions("engine", "sql").is_empty());
}

#[test]
fn the_connection_state_does_not_know_its_protocols() {
    // Each protocol file builds on pg/connection.rs, never the other way round.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/pg/connection.rs");
    let text = std::fs::read_to_string(path).expect("read connection.rs");
    for protocol in ["simple", "extended", "copy_in", "copy_out"] {
        assert!(
            !text.contains(&format!("super::{protocol}")),
            "pg/connection.rs uses pg/{protocol}.rs"
        );
    }
}
