//! Every long flag the binary prints in its help is documented under `docs/`,
//! and every module of the crate is named in `docs/architecture.md` (and every
//! top-level one in `src/lib.rs`'s layout).
//!
//! The flags are defined in `src/config.rs` and described in `docs/operations.md`
//! (and, for the security ones, `docs/security.md`). Nothing ties the two together,
//! so a flag added to the binary without a word in the docs would go unnoticed.
//! This test runs `litewire --help` and `litewire passwd --help`, collects every
//! `--flag` they print, and fails naming the ones no page in `docs/` mentions.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Every long flag (`--name`) in `text`. A flag starts with `--` and a lowercase
/// letter after a character that is not part of a word, and runs over letters,
/// digits and hyphens; a trailing hyphen is not part of it.
fn long_flags(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let in_word = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    let mut flags = BTreeSet::new();
    let mut i = 0;
    while i + 2 < bytes.len() {
        let starts = bytes[i] == b'-'
            && bytes[i + 1] == b'-'
            && bytes[i + 2].is_ascii_lowercase()
            && (i == 0 || !in_word(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i + 2;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'-') {
            end += 1;
        }
        flags.insert(text[i..end].trim_end_matches('-').to_string());
        i = end;
    }
    flags
}

/// What `litewire <args>` prints on stdout.
fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_litewire"))
        .args(args)
        .output()
        .expect("run litewire");
    assert!(
        output.status.success(),
        "litewire {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

/// The text of every Markdown page in `docs/`, concatenated.
fn docs() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut text = String::new();
    for entry in std::fs::read_dir(&dir).expect("read docs/") {
        let path = entry.expect("docs/ entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            text += &std::fs::read_to_string(&path).expect("read a docs page");
            text += "\n";
        }
    }
    text
}

#[test]
fn every_flag_in_help_is_documented() {
    let printed: BTreeSet<String> = [&["--help"][..], &["passwd", "--help"][..]]
        .into_iter()
        .flat_map(|args| long_flags(&help(args)))
        .collect();
    assert!(
        printed.contains("--db") && printed.contains("--role"),
        "no flags found in the help output: {printed:?}"
    );

    let documented = long_flags(&docs());
    let missing: Vec<&String> = printed.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "flags that `litewire --help` prints but no page in docs/ mentions: {missing:?}"
    );
}

/// Every module of the library crate, as a path from `src/` (`engine/session`,
/// `sql/dialect/sequences/names`): one per `.rs` file, a folder's `mod.rs` naming
/// the folder.
fn modules() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = BTreeSet::new();
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a source folder") {
            let path = entry.expect("source entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let relative = path.strip_prefix(&root).expect("under src");
            let module = relative.with_extension("");
            let module = module.to_string_lossy();
            let module = module.strip_suffix("/mod").unwrap_or(&module);
            if !matches!(module, "lib" | "main") {
                found.insert(module.to_owned());
            }
        }
    }
    found
}

#[test]
fn every_module_is_named_in_the_architecture_page() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .expect("read docs/architecture.md");
    let modules = modules();
    assert!(modules.contains("engine/session/state"), "{modules:?}");
    let missing: Vec<&String> = modules
        .iter()
        .filter(|module| !page.contains(&format!("`{module}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "modules docs/architecture.md does not name (as `path`): {missing:?}"
    );

    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("read src/lib.rs");
    let top: Vec<&String> = modules
        .iter()
        .filter(|module| !module.contains('/'))
        .filter(|module| !lib.contains(&format!("`{module}`")))
        .collect();
    assert!(
        top.is_empty(),
        "top-level modules src/lib.rs's layout does not name (as `name`): {top:?}"
    );
}
