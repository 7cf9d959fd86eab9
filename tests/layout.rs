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

/// One source file as a module: its path from the crate root (`["engine",
/// "session"]` for `src/engine/session.rs` or `src/engine/session/mod.rs`) and its
/// code without comments, literals and its inline test module.
struct ModuleFile {
    path: Vec<String>,
    file: PathBuf,
    code: String,
}

/// Every file of the library crate (`src/main.rs` is a crate of its own).
fn module_files() -> Vec<ModuleFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<ModuleFile> = sources(&root)
        .into_iter()
        .filter(|file| file != &root.join("main.rs"))
        .map(|file| {
            let relative = file.strip_prefix(&root).expect("under src");
            let mut path: Vec<String> = relative
                .with_extension("")
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
                path.pop();
            }
            let text = std::fs::read_to_string(&file).expect("read source");
            ModuleFile {
                path,
                code: strip(without_test_module(&text)),
                file: relative.to_path_buf(),
            }
        })
        .collect();
    files.sort_by(|a, b| a.file.cmp(&b.file));
    files
}

/// The text before the inline `#[cfg(test)] mod tests { ... }`, if any.
fn without_test_module(text: &str) -> &str {
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.contains("mod ") && next.contains('{'))
        {
            return &text[..offset];
        }
        offset += line.len();
    }
    text
}

/// Code with comments, string and character literals blanked out.
fn strip(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            let mut j = i;
            while j < bytes.len() {
                if text[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if text[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            i = j;
        } else if let Some(end) = raw_string_end(rest) {
            out.push_str("\"\"");
            i += end;
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if bytes[i] == b'\'' && char_literal_end(rest).is_some() {
            out.push_str("' '");
            i += char_literal_end(rest).unwrap_or(1);
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The length of a raw string literal (`r"..."`, `r#"..."#`, `br"..."`) at the
/// start of `text`.
fn raw_string_end(text: &str) -> Option<usize> {
    let after_prefix = text.strip_prefix("br").or_else(|| text.strip_prefix('r'))?;
    let hashes = after_prefix.len() - after_prefix.trim_start_matches('#').len();
    let body = after_prefix[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body.find(&close)?;
    Some(text.len() - body.len() + end + close.len())
}

/// The length of a character literal (`'x'`, `'\n'`, `'\u{1F600}'`) at the start of
/// `text`; `None` for a lifetime.
fn char_literal_end(text: &str) -> Option<usize> {
    let body = &text[1..];
    if let Some(escaped) = body.strip_prefix('\\') {
        let end = escaped.find('\'')?;
        return Some(1 + 1 + end + 1);
    }
    let c = body.chars().next()?;
    body[c.len_utf8()..]
        .starts_with('\'')
        .then_some(1 + c.len_utf8() + 1)
}

/// Paths of `code`: every `use` tree expanded, and every other path of two or more
/// segments (`super::session::Session`, `crate::sql::parse_batch`).
fn paths(code: &str) -> Vec<Vec<String>> {
    let tokens = path_tokens(code);
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "in" && i >= 2 && tokens[i - 1] == "(" && tokens[i - 2] == "pub" {
            // `pub(in crate::engine)`: a visibility, not an import.
            i = tokens[i..]
                .iter()
                .position(|t| t == ")")
                .map_or(tokens.len(), |p| i + p);
        } else if tokens[i] == "use" {
            let end = tokens[i..]
                .iter()
                .position(|t| t == ";")
                .map_or(tokens.len(), |p| i + p);
            use_tree(&tokens[i + 1..end], &mut Vec::new(), &mut found);
            i = end;
        } else if is_ident(&tokens[i]) && tokens.get(i + 1).is_some_and(|t| t == "::") {
            let mut path = vec![tokens[i].clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(t))
            {
                path.push(tokens[j + 1].clone());
                j += 2;
            }
            let preceded_by_path = i > 0 && tokens[i - 1] == "::";
            if !preceded_by_path {
                found.push(path);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::` and single punctuation characters.
fn path_tokens(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = start + c.len_utf8();
            while let Some(&(i, next)) = chars.peek() {
                if !(next.is_alphanumeric() || next == '_') {
                    break;
                }
                end = i + next.len_utf8();
                chars.next();
            }
            tokens.push(code[start..end].to_string());
        } else if c == ':' && chars.peek().is_some_and(|&(_, next)| next == ':') {
            chars.next();
            tokens.push("::".to_string());
        } else if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    tokens
}

/// Expands one `use` tree (`a::{b, c::d as e, self}`) into its paths.
fn use_tree(tokens: &[String], prefix: &mut Vec<String>, found: &mut Vec<Vec<String>>) {
    let mut i = 0;
    let start = prefix.len();
    while i < tokens.len() {
        match tokens[i].as_str() {
            "{" => {
                let mut depth = 0;
                let mut item_start = i + 1;
                for j in i..tokens.len() {
                    match tokens[j].as_str() {
                        "{" => depth += 1,
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                use_tree(&tokens[item_start..j], prefix, found);
                                break;
                            }
                        }
                        "," if depth == 1 => {
                            use_tree(&tokens[item_start..j], prefix, found);
                            item_start = j + 1;
                        }
                        _ => {}
                    }
                }
                prefix.truncate(start);
                return;
            }
            "as" | "*" => break,
            "::" | "pub" | "(" | ")" | "in" => {}
            "self" if i > 0 => {}
            segment => prefix.push(segment.to_string()),
        }
        i += 1;
    }
    // An empty item (after a trailing comma) names nothing.
    if prefix.len() > start {
        found.push(prefix.clone());
    }
    prefix.truncate(start);
}

/// The file a path names, seen from module `from`: `crate::`, `super::`,
/// `self::` and the names of `from`'s own child modules; the longest prefix that is
/// a module of the crate.
fn resolve<'a>(from: &[String], path: &[String], files: &'a [ModuleFile]) -> Option<&'a Path> {
    let mut full: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") => {
            let mut base = from.to_vec();
            let supers = path.iter().take_while(|s| *s == "super").count();
            base.truncate(base.len().checked_sub(supers)?);
            return resolve_full(base, &path[supers..], files);
        }
        Some("self") => from.to_vec(),
        Some(first) => {
            let mut child = from.to_vec();
            child.push(first.to_string());
            if !files.iter().any(|f| f.path == child) {
                return None;
            }
            from.to_vec()
        }
        None => return None,
    };
    let skip = usize::from(matches!(path[0].as_str(), "crate" | "self"));
    full.extend(path[skip..].iter().cloned());
    resolve_full(full, &[], files)
}

fn resolve_full<'a>(
    mut base: Vec<String>,
    rest: &[String],
    files: &'a [ModuleFile],
) -> Option<&'a Path> {
    base.extend(rest.iter().cloned());
    (0..=base.len()).rev().find_map(|n| {
        files
            .iter()
            .find(|f| f.path == base[..n])
            .map(|f| f.file.as_path())
    })
}

/// File → the files it imports from (a parent's `mod` declarations are not
/// imports; its `use` and `pub use` of its children are).
fn import_graph(files: &[ModuleFile]) -> Vec<(PathBuf, Vec<PathBuf>)> {
    files
        .iter()
        .map(|file| {
            let mut targets: Vec<PathBuf> = paths(&file.code)
                .iter()
                .filter_map(|path| resolve(&file.path, path, files))
                .filter(|target| *target != file.file)
                .map(Path::to_path_buf)
                .collect();
            targets.sort();
            targets.dedup();
            (file.file.clone(), targets)
        })
        .collect()
}

/// The circles of `graph`: each strongly connected set of two or more files.
fn circles(graph: &[(PathBuf, Vec<PathBuf>)]) -> Vec<Vec<PathBuf>> {
    // Two files are in one circle when each reaches the other.
    let reach = |from: &PathBuf| {
        let mut seen = vec![from.clone()];
        let mut pending = vec![from.clone()];
        while let Some(next) = pending.pop() {
            for (file, targets) in graph {
                if *file == next {
                    for target in targets {
                        if !seen.contains(target) {
                            seen.push(target.clone());
                            pending.push(target.clone());
                        }
                    }
                }
            }
        }
        seen
    };
    let reaches: Vec<(PathBuf, Vec<PathBuf>)> = graph
        .iter()
        .map(|(file, _)| (file.clone(), reach(file)))
        .collect();
    let mut circles: Vec<Vec<PathBuf>> = Vec::new();
    for (file, reached) in &reaches {
        if circles.iter().any(|c| c.contains(file)) {
            continue;
        }
        let circle: Vec<PathBuf> = reaches
            .iter()
            .filter(|(other, back)| other != file && reached.contains(other) && back.contains(file))
            .map(|(other, _)| other.clone())
            .collect();
        if !circle.is_empty() {
            let mut circle = circle;
            circle.insert(0, file.clone());
            circles.push(circle);
        }
    }
    circles
}

#[test]
fn no_file_imports_in_a_circle() {
    let graph = import_graph(&module_files());
    let found = circles(&graph);
    let shown: Vec<String> = found
        .iter()
        .map(|circle| {
            // Each file of the circle, with what it imports from the others.
            let edges: Vec<String> = graph
                .iter()
                .filter(|(file, _)| circle.contains(file))
                .map(|(file, targets)| {
                    let inside: Vec<String> = targets
                        .iter()
                        .filter(|t| circle.contains(t))
                        .map(|t| t.display().to_string())
                        .collect();
                    format!("  {} → {}", file.display(), inside.join(", "))
                })
                .collect();
            format!(
                "- a circle of {} files:\n{}",
                circle.len(),
                edges.join("\n")
            )
        })
        .collect();
    assert!(
        found.is_empty(),
        "files of src/ that import each other, directly or through others (a module's \
         files import their siblings by path, never through the parent's re-exports):\n{}",
        shown.join("\n")
    );
}

#[test]
fn the_import_graph_sees_imports() {
    let graph = import_graph(&module_files());
    let targets_of = |file: &str| {
        graph
            .iter()
            .find(|(f, _)| f == Path::new(file))
            .map(|(_, targets)| targets.clone())
            .unwrap_or_default()
    };
    // `use` trees, `super::` and `crate::` paths all count: if these are not
    // found, the circle check above checks nothing.
    assert!(targets_of("server.rs").contains(&PathBuf::from("engine/mod.rs")));
    assert!(targets_of("engine/pool.rs").contains(&PathBuf::from("config.rs")));
    let circle = circles(&[
        (PathBuf::from("a.rs"), vec![PathBuf::from("b.rs")]),
        (PathBuf::from("b.rs"), vec![PathBuf::from("c.rs")]),
        (PathBuf::from("c.rs"), vec![PathBuf::from("a.rs")]),
        (PathBuf::from("d.rs"), vec![PathBuf::from("a.rs")]),
    ]);
    assert_eq!(circle.len(), 1);
    assert_eq!(circle[0].len(), 3);
}

/// Lines before a file's tests: one concept per file keeps this short.
const MAX_LINES: usize = 800;

#[test]
fn no_file_is_past_one_concept() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut long: Vec<String> = sources(&root)
        .into_iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(&file).expect("read source");
            let lines = text
                .lines()
                .take_while(|line| line.trim() != "#[cfg(test)]")
                .count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", file.display()))
        })
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines before their tests:\n{}",
        long.join("\n")
    );
}
