//! The layering of the source, checked: no module imports from a layer above
//! its own or from a front end beside it, and no two modules of one parent
//! import each other, directly or in a loop (docs/layout.md).
//!
//! The imports are read from the source text: every `use` tree and every
//! `crate::`/`super::`/`orca::` path outside comments and test modules,
//! resolved to the deepest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The crate's top-level modules by layer, lowest first: a module may import
/// from lower layers only. One layer's modules sit beside each other (the
/// front ends over the engine, say) and import none of each other.
const LAYERS: &[&[&str]] = &[
    &["cpu", "duration", "score"],
    &["game"],
    &["rng", "wthor", "obf", "perft"],
    &["eval"],
    &["search"],
    &["solve", "bench", "book", "train", "ggf"],
    &["engine", "session"],
    &["protocol", "web", "play"],
    &["referee"],
    &["round"],
    &["cli"],
];

type Module = Vec<String>;

/// Every module of `src/` with its file: `src/a/b.rs` and `src/a/b/mod.rs`
/// are `a::b`; `lib.rs` and `main.rs` the root.
fn modules(dir: &Path, prefix: &Module, out: &mut BTreeMap<Module, String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut child = prefix.clone();
            child.push(name);
            modules(&path, &child, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module = prefix.clone();
            if !matches!(name.as_str(), "mod" | "lib" | "main") {
                module.push(name);
            }
            out.insert(
                module,
                fs::read_to_string(&path).expect("a readable source file"),
            );
        }
    }
}

/// `source` without comments and without its inline test module.
fn code(source: &str) -> String {
    let source = match source.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &source[..at],
        None => source,
    };
    source
        .lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}`), each as its segments.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let Some(open) = tree.find('{') else {
        return vec![tree.split("::").map(|s| s.trim().to_owned()).collect()];
    };
    let prefix: Vec<String> = tree[..open]
        .trim_end_matches(':')
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').expect("a closed use tree")];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(p.trim()))
        .map(|rest| prefix.iter().cloned().chain(rest).collect())
        .collect()
}

/// The paths `code` refers to: its `use` trees and its qualified paths.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = rest.find(';') else { break };
        let tree = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let tree_like = tree
            .chars()
            .all(|c| c.is_alphanumeric() || "_:{}, *".contains(c));
        if tree_like && tree.starts_with(|c: char| c.is_alphabetic() || c == '{') {
            out.extend(expand(&tree));
        }
    }
    for start in ["crate::", "super::", "orca::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            if code[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|&c| c.is_alphanumeric() || c == '_' || c == ':')
                .collect();
            out.push(
                path.split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }
    out
}

/// The deepest module `path`, written in `module`, names.
fn resolve(module: &Module, path: &[String], all: &BTreeMap<Module, String>) -> Option<Module> {
    let mut segments = path
        .iter()
        .map(|s| s.split(" as ").next().unwrap_or(s))
        .peekable();
    let mut base = match *segments.peek()? {
        "crate" | "orca" => {
            segments.next();
            Vec::new()
        }
        "super" => {
            let mut base = module.clone();
            while segments.next_if_eq(&"super").is_some() {
                base.pop();
            }
            base
        }
        "self" => {
            segments.next();
            module.clone()
        }
        // A child module named directly (`use ordering::MoveList`).
        first if all.contains_key(&child(module, first)) => module.clone(),
        _ => return None,
    };
    for segment in segments {
        let next = child(&base, segment);
        if !all.contains_key(&next) {
            break;
        }
        base = next;
    }
    Some(base)
}

fn child(module: &Module, name: &str) -> Module {
    let mut child = module.clone();
    child.push(name.to_owned());
    child
}

/// What each module imports (other modules only; test files left out).
fn imports() -> BTreeMap<Module, BTreeSet<Module>> {
    let mut all = BTreeMap::new();
    modules(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
        &Vec::new(),
        &mut all,
    );
    let mut edges = BTreeMap::new();
    for (module, source) in &all {
        if module.last().is_some_and(|m| m == "tests") {
            continue;
        }
        let targets: BTreeSet<Module> = paths(&code(source))
            .iter()
            .filter_map(|p| resolve(module, p, &all))
            .filter(|t| t != module)
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

fn within(module: &[String], outer: &[String]) -> bool {
    module.starts_with(outer)
}

#[test]
fn the_reader_sees_use_trees_and_paths() {
    let found = paths(&code(
        "use super::{a::B, c::{d, e as f}};\nlet x = crate::g::h(1); // crate::no",
    ));
    let found: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert!(found.contains(&"super::a::B".into()), "{found:?}");
    assert!(found.contains(&"super::c::e as f".into()), "{found:?}");
    assert!(found.contains(&"crate::g::h".into()), "{found:?}");
    assert!(!found.contains(&"crate::no".into()), "{found:?}");
}

#[test]
fn the_reader_finds_known_imports() {
    let edges = imports();
    let module = |m: &str| m.split("::").map(str::to_owned).collect::<Module>();
    let deepen = &edges[&module("search::deepen")];
    for known in ["search::endgame", "search::midgame::root", "eval", "game"] {
        assert!(deepen.contains(&module(known)), "{known}: {deepen:?}");
    }
    assert!(edges[&module("cli::play")].contains(&module("play")));
}

#[test]
fn every_top_level_module_has_a_layer() {
    let edges = imports();
    let tops: BTreeSet<&String> = edges.keys().filter_map(|m| m.first()).collect();
    for top in tops {
        assert!(
            LAYERS.iter().any(|l| l.contains(&top.as_str())),
            "`{top}` is in no layer of tests/layout.rs (and docs/layout.md)"
        );
    }
}

#[test]
fn modules_import_only_from_layers_below() {
    let layer = |top: &str| LAYERS.iter().position(|l| l.contains(&top));
    let mut wrong = Vec::new();
    for (module, targets) in imports() {
        let Some(from) = module.first() else { continue };
        for target in targets {
            let Some(to) = target.first() else { continue };
            if to != from && layer(to) >= layer(from) {
                wrong.push(format!("{} -> {}", name(&module), name(&target)));
            }
        }
    }
    assert!(wrong.is_empty(), "imports up or sideways: {wrong:#?}");
}

#[test]
fn no_two_modules_import_each_other() {
    let edges = imports();
    // For each parent, a graph of its children: a -> b when something in a
    // imports something in b. A loop in it is an import circle.
    let parents: BTreeSet<Module> = edges
        .keys()
        .filter(|m| !m.is_empty())
        .map(|m| m[..m.len() - 1].to_vec())
        .collect();
    let mut circles = Vec::new();
    for parent in parents {
        let children: BTreeSet<Module> = edges
            .keys()
            .filter(|m| m.len() > parent.len() && within(m, &parent))
            .map(|m| m[..=parent.len()].to_vec())
            .collect();
        let reaches = |a: &Module| -> BTreeSet<Module> {
            children
                .iter()
                .filter(|b| *b != a)
                .filter(|b| {
                    edges.iter().any(|(from, targets)| {
                        within(from, a) && targets.iter().any(|t| within(t, b))
                    })
                })
                .cloned()
                .collect()
        };
        let graph: BTreeMap<Module, BTreeSet<Module>> =
            children.iter().map(|a| (a.clone(), reaches(a))).collect();
        // A child that reaches itself through the graph is on a circle.
        for start in &children {
            let mut seen = BTreeSet::new();
            let mut todo: Vec<&Module> = graph[start].iter().collect();
            while let Some(next) = todo.pop() {
                if seen.insert(next.clone()) {
                    todo.extend(graph[next].iter());
                }
            }
            if seen.contains(start) {
                let back: Vec<String> = graph[start]
                    .iter()
                    .filter(|b| {
                        let mut seen = BTreeSet::new();
                        let mut todo = vec![*b];
                        while let Some(n) = todo.pop() {
                            if seen.insert(n.clone()) {
                                todo.extend(graph[n].iter());
                            }
                        }
                        seen.contains(start)
                    })
                    .map(|b| name(b))
                    .collect();
                circles.push(format!("{} -> {}", name(start), back.join(", ")));
            }
        }
    }
    assert!(circles.is_empty(), "import circles: {circles:#?}");
}
