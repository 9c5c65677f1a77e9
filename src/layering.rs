//! The maps of the house are true. The code map of `lib.rs` names every module once, and every
//! `crate::` path in a module (comments aside) leads to a layer below the module's own; the
//! feature index of docs/architecture.md names every source file.

use std::collections::BTreeMap;
use std::path::Path;

const LIB: &str = include_str!("lib.rs");

/// Each layer of the code map, top first: the modules its bullet names before the colon.
fn layers() -> Vec<Vec<String>> {
    let map = LIB
        .split("//! # Code map")
        .nth(1)
        .and_then(|rest| rest.split("//! # Invariants").next())
        .expect("lib.rs has a code map");
    // Bullets, their continuation lines joined.
    let mut bullets: Vec<String> = Vec::new();
    for line in map.lines() {
        if let Some(start) = line.strip_prefix("//! - ") {
            bullets.push(start.to_owned());
        } else if let (Some(more), Some(last)) = (line.strip_prefix("//!   "), bullets.last_mut()) {
            last.push(' ');
            last.push_str(more);
        }
    }
    let mut layers = Vec::new();
    for bullet in bullets {
        let head = bullet.split(':').next().unwrap_or("");
        let names: Vec<String> = head
            .split("[`")
            .skip(1)
            .filter_map(|part| part.split("`]").next())
            .map(str::to_owned)
            .collect();
        layers.push(names);
    }
    layers
}

/// The modules `source` names through `crate::` paths, comments aside, test modules included
/// (a test may not reach up either), grouped imports (`use crate::{a, b::c}`) too.
fn uses(source: &str) -> Vec<String> {
    let code: String = source
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let first_segment = |text: &str| -> String {
        text.trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for part in code.split("crate::").skip(1) {
        match part.strip_prefix('{') {
            // Items at the group's top level: split at commas outside nested braces.
            Some(group) => {
                let (mut depth, mut start) = (0usize, 0usize);
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            out.push(first_segment(&group[start..i]));
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.push(first_segment(&group[start..i]));
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
            }
            None => out.push(first_segment(part)),
        }
    }
    out.retain(|name| !name.is_empty());
    out
}

#[test]
fn grouped_and_plain_paths_are_both_seen() {
    let source = "use crate::{auth::Via, store::{Store, Scoped},\n    http};\n// crate::cli\nfn f() { crate::domain::x(); }";
    assert_eq!(uses(source), ["auth", "store", "http", "domain"]);
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_code_map_names_every_module_once() {
    let declared: Vec<&str> = LIB
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let mapped: Vec<String> = layers().into_iter().flatten().collect();
    for module in &declared {
        let times = mapped.iter().filter(|m| m == module).count();
        assert_eq!(times, 1, "{module} is named {times} times in the code map");
    }
    assert_eq!(mapped.len(), declared.len(), "{mapped:?}");
}

#[test]
fn every_module_uses_only_layers_below_its_own() {
    let mut layer_of: BTreeMap<String, usize> = BTreeMap::new();
    for (depth, names) in layers().into_iter().enumerate() {
        for name in names {
            layer_of.insert(name, depth);
        }
    }
    // The crate root re-exports `app::start`.
    layer_of.insert("start".into(), layer_of["app"]);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = relative
            .iter()
            .next()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        let Some(&own) = layer_of.get(&module) else {
            continue; // lib.rs, main.rs, this test
        };
        let source = std::fs::read_to_string(&file).unwrap();
        for used in uses(&source) {
            match layer_of.get(&used) {
                Some(&layer) if used == module || layer > own => {}
                _ => wrong.push(format!("{} uses crate::{used}", relative.display())),
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Test-only modules (throwaway databases, fixtures) are compiled for tests, or with the
/// `testing` feature the tests and benches turn on: never into the shipped binary.
#[test]
fn test_only_modules_stay_out_of_the_shipped_build() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut open = Vec::new();
    let mut found = 0;
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let declared = line
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ");
            if declared != "mod testing;" && declared != "mod fixtures;" {
                continue;
            }
            found += 1;
            let attribute = i.checked_sub(1).map_or("", |before| lines[before].trim());
            if attribute != "#[cfg(test)]"
                && attribute != "#[cfg(any(test, feature = \"testing\"))]"
            {
                open.push(format!("{}:{}", file.display(), i + 1));
            }
        }
    }
    assert!(found >= 2, "the walk finds the test-only modules");
    assert!(
        open.is_empty(),
        "compiled into the shipped binary: {open:?}"
    );
}

/// The feature index of docs/architecture.md is true: every path it names exists, and every
/// source file of `src/` (unit test files aside) is in a feature's row, by its path or a folder
/// of it.
#[test]
fn the_feature_index_names_every_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = include_str!("../docs/architecture.md");
    let index = page
        .split("## Where each feature lives")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/architecture.md has a feature index");
    let named: Vec<&str> = index
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| feature"))
        .flat_map(|line| line.split('`').skip(1).step_by(2))
        .filter(|path| path.contains('/') || path.contains('.'))
        .collect();
    let missing: Vec<&&str> = named.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(missing.is_empty(), "named but not there: {missing:?}");
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    let unlisted: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(root).unwrap().to_string_lossy().into_owned())
        .filter(|f| !f.ends_with("/tests.rs"))
        .filter(|f| {
            !named
                .iter()
                .any(|p| f == p || (p.ends_with('/') && f.starts_with(p)))
        })
        .collect();
    assert!(unlisted.is_empty(), "in no feature: {unlisted:#?}");
}

/// SQL's dialects are the store's business: no module outside `src/store/` branches on one.
#[test]
fn no_dialect_branch_outside_the_store() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let branching: Vec<String> = files
        .iter()
        .filter(|f| !f.starts_with(src.join("store")) && !f.ends_with("layering.rs"))
        .filter(|f| {
            let source = std::fs::read_to_string(f).unwrap();
            source.contains("Dialect::") || source.contains(".dialect()")
        })
        .map(|f| f.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(
        branching.is_empty(),
        "dialect branches outside the store: {branching:?}"
    );
}

/// `store/mod.rs` is the store's face: it names the modules and hands on what the rest of the
/// program uses, and defines nothing that the store's own modules would reach up for.
#[test]
fn the_store_module_defines_nothing() {
    let face = include_str!("store/mod.rs");
    let defining: Vec<&str> = face
        .lines()
        .map(str::trim)
        .filter(|line| {
            !(line.is_empty()
                || line.starts_with("//")
                || line.starts_with("pub mod ")
                || line.starts_with("mod ")
                || line.starts_with("pub use ")
                || *line == "#[cfg(test)]")
        })
        .collect();
    assert!(defining.is_empty(), "store/mod.rs defines: {defining:?}");
}
