//! The invariants ARCHITECTURE.md states, checked on the source: which layers may use which,
//! that only the CLI reads the clock, and that engines never print or touch files. Test code
//! (a file declared under `#[cfg(test)]`, or a file's part from its first `#[cfg(test)]` on)
//! is left out: tests may read fixtures.

use std::fs;
use std::path::{Path, PathBuf};

/// The folders whose code computes plans: pure functions of their inputs.
const ENGINES: &[&str] = &["selector", "placement", "replicas", "karmada", "plan"];

/// A module, and the top-level modules it must never use.
const NEVER_USES: &[(&str, &[&str])] = &[
    (
        "model",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    (
        "load",
        &[
            "plan",
            "render",
            "cli",
            "diff",
            "migrate",
            "placement",
            "replicas",
            "karmada",
        ],
    ),
    (
        "selector",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    (
        "placement",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    (
        "replicas",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    (
        "karmada",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    ("plan", &["load", "render", "cli", "diff", "migrate"]),
    ("diff", &["cli", "render", "migrate"]),
    ("render", &["cli"]),
    ("migrate", &["cli"]),
];

/// What reading the clock, printing or touching files looks like in code.
const CLOCK: &[&str] = &["SystemTime::now", "Instant::now"];
const EFFECTS: &[&str] = &[
    "println!",
    "eprintln!",
    "print!(",
    "eprint!(",
    "std::fs",
    "File::",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every non-test source file under `dir`, with its code (comments and test parts removed).
fn code_of(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    collect(dir, &mut files);
    let test_only: Vec<PathBuf> = files
        .iter()
        .flat_map(|(path, text)| test_modules(path, text))
        .collect();
    files
        .into_iter()
        .filter(|(path, _)| {
            !test_only
                .iter()
                .any(|test| path.starts_with(test.with_extension("")) || *path == *test)
        })
        .map(|(path, text)| {
            let code = text
                .lines()
                .take_while(|line| line.trim() != "#[cfg(test)]")
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            (path, code)
        })
        .collect()
}

fn collect(dir: &Path, files: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            files.push((path, text));
        }
    }
}

/// The files `path` declares as `#[cfg(test)] mod name;`.
fn test_modules(path: &Path, text: &str) -> Vec<PathBuf> {
    let dir = match path.file_name().and_then(|name| name.to_str()) {
        Some("mod.rs" | "lib.rs") => path.parent().map(Path::to_path_buf),
        _ => Some(path.with_extension("")),
    };
    let Some(dir) = dir else { return Vec::new() };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|pair| pair[0] == "#[cfg(test)]")
        .filter_map(|pair| {
            let name = pair[1]
                .trim_start_matches("pub(crate) ")
                .strip_prefix("mod ")?
                .strip_suffix(';')?;
            Some(dir.join(format!("{name}.rs")))
        })
        .collect()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(src())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn layers_never_use_the_layers_above_them() {
    let mut violations = Vec::new();
    for (module, forbidden) in NEVER_USES {
        for (path, code) in code_of(&src().join(module)) {
            for used in *forbidden {
                if code.contains(&format!("crate::{used}::"))
                    || code.contains(&format!("crate::{used};"))
                    || code.contains(&format!("crate::{used}::{{"))
                {
                    violations.push(format!("{} uses crate::{used}", relative(&path)));
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn nothing_but_the_cli_uses_the_cli() {
    let mut violations = Vec::new();
    for (path, code) in code_of(&src()) {
        if !path.starts_with(src().join("cli"))
            && path != src().join("main.rs")
            && code.contains("crate::cli")
        {
            violations.push(relative(&path));
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn only_the_cli_reads_the_clock() {
    let mut violations = Vec::new();
    for (path, code) in code_of(&src()) {
        if path.starts_with(src().join("cli")) {
            continue;
        }
        for call in CLOCK.iter().filter(|call| code.contains(*call)) {
            violations.push(format!("{} calls {call}", relative(&path)));
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn engines_never_print_or_touch_files() {
    let mut violations = Vec::new();
    for engine in ENGINES {
        for (path, code) in code_of(&src().join(engine)) {
            for effect in EFFECTS.iter().filter(|effect| code.contains(*effect)) {
                violations.push(format!("{} uses {effect}", relative(&path)));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The error types of the `Result`s in `code` that are a bare `String`, one line each.
fn string_errors(code: &str) -> Vec<String> {
    let flat = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for (start, _) in flat.match_indices("Result<") {
        let arguments = &flat[start + "Result<".len()..];
        let (mut depth, mut last_comma, mut end) = (0usize, None, None);
        for (at, byte) in arguments.bytes().enumerate() {
            match byte {
                b'<' | b'(' | b'[' => depth += 1,
                b'>' if depth == 0 => {
                    end = Some(at);
                    break;
                }
                b'>' | b')' | b']' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => last_comma = Some(at),
                _ => {}
            }
        }
        if let (Some(comma), Some(end)) = (last_comma, end) {
            if arguments[comma + 1..end].trim() == "String" {
                found.push(format!("Result<{}>", &arguments[..end]));
            }
        }
    }
    found
}

#[test]
fn the_library_returns_typed_errors() {
    // An error is a type that carries its context and renders its message in one place
    // (`Display`); a `String` loses the context at the first `?`.
    let mut violations = Vec::new();
    for (path, code) in code_of(&src()) {
        for result in string_errors(&code) {
            violations.push(format!("{}: {result}", relative(&path)));
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    assert_eq!(
        string_errors("fn f() -> Result<Vec<(u8, u8)>,\n String> {} fn g() -> Result<(), E> {}"),
        ["Result<Vec<(u8, u8)>, String>"],
        "the check finds a String error across lines and nested types"
    );
}

#[test]
fn the_code_map_lists_every_top_level_module_and_nothing_else() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|error| panic!("{error}"));
    let map = text
        .split("## Code map")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .expect("ARCHITECTURE.md has a code map block");
    // The map's `src/` entries: two spaces, then the name (deeper lines are indented more).
    let listed: Vec<&str> = map
        .lines()
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let mut problems = Vec::new();
    let mut entries: Vec<String> = fs::read_dir(src())
        .unwrap_or_else(|error| panic!("{error}"))
        .map(|entry| {
            let path = entry.expect("directory entry").path();
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            if path.is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .collect();
    entries.sort();
    for entry in &entries {
        if !listed.contains(&entry.as_str()) {
            problems.push(format!("src/{entry} is not in the code map"));
        }
    }
    for name in &listed {
        if !entries.iter().any(|entry| entry == name) {
            problems.push(format!(
                "the code map lists src/{name}, which does not exist"
            ));
        }
    }
    assert!(entries.len() > 10, "src/ was read: {entries:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checks_see_the_code_they_guard() {
    // A check over no files passes vacuously: each must find the code it is about.
    let cli = code_of(&src().join("cli"));
    assert!(
        cli.iter().any(|(_, code)| code.contains("SystemTime::now")),
        "the clock read"
    );
    let load = code_of(&src().join("load"));
    assert!(
        load.iter().any(|(_, code)| code.contains("crate::model::")),
        "load's imports"
    );
    assert!(!code_of(&src().join("placement")).is_empty());
}
