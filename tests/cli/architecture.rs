//! The invariants ARCHITECTURE.md states, checked on the source: which layers may use which,
//! that only the CLI reads the clock, and that engines never print or touch files. Test code
//! (a file declared under `#[cfg(test)]`, or a file's part from its first `#[cfg(test)]` on)
//! is left out: tests may read fixtures.

use std::fs;
use std::path::{Path, PathBuf};

/// The placement APIs with a folder of their own (`src/<api>/`): their engine and their
/// per-layer pieces, each judged by its role name (`ROLES`); everything else is engine.
const API_FOLDERS: &[&str] = &["federation", "karmada", "kubefed", "kubefleet", "ocm"];

/// A file or folder's role name in an API folder, and the layer it belongs to.
const ROLES: &[(&str, &str)] = &[
    ("read", "load"),
    ("model", "model"),
    ("plan", "plan"),
    ("explain", "render"),
    ("migrate", "migrate"),
];

/// The shared engines outside the API folders.
const SHARED_ENGINES: &[&str] = &["replicas"];

/// The layers whose code computes plans: pure functions of their inputs.
const PURE: &[&str] = &["selector", "engine", "plan"];

/// A layer, and the layers it must never use.
const NEVER_USES: &[(&str, &[&str])] = &[
    (
        "model",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    (
        "load",
        &["plan", "render", "cli", "diff", "migrate", "engine"],
    ),
    (
        "selector",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    (
        "engine",
        &["load", "plan", "render", "cli", "diff", "migrate"],
    ),
    ("plan", &["load", "render", "cli", "diff", "migrate"]),
    ("diff", &["cli", "render", "migrate"]),
    ("render", &["cli"]),
    ("migrate", &["cli"]),
];

/// The layer of the module at `path` (its names below `crate`); `None` for the files outside
/// the layers (`lib.rs`, the registry that wires them, the shared utilities).
fn layer(path: &[String]) -> Option<&'static str> {
    let first = path.first()?.as_str();
    if API_FOLDERS.contains(&first) {
        let role = path.get(1).map(String::as_str);
        return Some(
            ROLES
                .iter()
                .find(|(name, _)| Some(*name) == role)
                .map_or("engine", |(_, layer)| layer),
        );
    }
    if SHARED_ENGINES.contains(&first) {
        return Some("engine");
    }
    [
        "model", "load", "selector", "plan", "render", "diff", "migrate", "cli",
    ]
    .into_iter()
    .find(|layer| *layer == first)
}

/// The module path of the source file at `path`.
fn module_of(path: &Path) -> Vec<String> {
    let relative = path.strip_prefix(src()).unwrap_or(path).with_extension("");
    let mut names: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(names.last().map(String::as_str), Some("mod" | "lib")) {
        names.pop();
    }
    names
}

fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The module paths `code` (of the module `module`) names through `crate::` or `super::`,
/// each as far as its first two names (a `{...}` group gives one path per member).
fn paths_used(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    for (start, _) in code.char_indices() {
        let rest = &code[start..];
        if !(rest.starts_with("crate::") || rest.starts_with("super::")) {
            continue;
        }
        if start > 0
            && (bytes[start - 1].is_ascii_alphanumeric() || b"_:".contains(&bytes[start - 1]))
        {
            continue;
        }
        let (mut base, mut rest) = (Vec::new(), rest);
        if let Some(after) = rest.strip_prefix("crate::") {
            rest = after;
        } else {
            let mut depth = 0;
            while let Some(after) = rest.strip_prefix("super::") {
                depth += 1;
                rest = after;
            }
            base = module[..module.len().saturating_sub(depth)].to_vec();
        }
        collect_paths(base, rest, &mut paths);
    }
    paths
}

fn collect_paths(mut path: Vec<String>, mut rest: &str, paths: &mut Vec<Vec<String>>) {
    loop {
        if path.len() >= 2 {
            break;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut member = 0;
            for (at, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        collect_paths(path.clone(), group[member..at].trim_start(), paths);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        collect_paths(path.clone(), group[member..at].trim_start(), paths);
                        member = at + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let name = identifier(rest);
        if name.is_empty() || name == "self" {
            break;
        }
        path.push(name.to_string());
        match rest[name.len()..].strip_prefix("::") {
            Some(after) => rest = after,
            None => break,
        }
    }
    paths.push(path);
}
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
    sources_of(dir, false)
}

/// The crate's files as [`code_of`] gives them, comments kept (or not).
fn sources_of(dir: &Path, comments: bool) -> Vec<(PathBuf, String)> {
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
        .map(|(path, text)| (path, without_tests(&text, comments)))
        .collect()
}

/// `text` without test code (and without comments unless `comments`): a one-line item under
/// `#[cfg(test)]` (a `mod` declaration, a `use`) is left out alone, anything longer from its
/// `#[cfg(test)]` on.
fn without_tests(text: &str, comments: bool) -> String {
    let mut code = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            match lines.next() {
                Some(item) if item.trim_end().ends_with(';') => continue,
                _ => break,
            }
        }
        if comments || !line.trim_start().starts_with("//") {
            code.push(line);
        }
    }
    code.join("\n")
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
    for (path, code) in code_of(&src()) {
        let module = module_of(&path);
        let Some(own) = layer(&module) else { continue };
        let Some((_, forbidden)) = NEVER_USES.iter().find(|(name, _)| *name == own) else {
            continue;
        };
        for used in paths_used(&module, &code) {
            if let Some(used_layer) = layer(&used).filter(|used| forbidden.contains(used)) {
                violations.push(format!(
                    "{} ({own}) uses crate::{} ({used_layer})",
                    relative(&path),
                    used.join("::")
                ));
            }
        }
    }
    violations.sort();
    violations.dedup();
    assert_exceptions("layering", &violations, LAYERING_EXCEPTIONS);
}

/// The layering violations known and accepted for now, each said as the check says it.
const LAYERING_EXCEPTIONS: &[&str] = &[];

/// Each API folder's kinds: outside tests (in code and in comments), their names appear only
/// in the folder, the registry (`src/registry.rs`) and the CLI (its help text names them).
const KINDS: &[(&str, &[&str])] = &[
    (
        "karmada",
        &[
            "PropagationPolicy",
            "ClusterPropagationPolicy",
            "OverridePolicy",
            "ClusterOverridePolicy",
            "ResourceBinding",
            "ClusterResourceBinding",
        ],
    ),
    (
        "kubefed",
        &[
            "ReplicaSchedulingPreference",
            "KubeFedCluster",
            "FederatedTypeConfig",
            "FederatedNamespace",
        ],
    ),
    (
        "kubefleet",
        &[
            "ClusterResourcePlacement",
            "ResourcePlacement",
            "MemberCluster",
            "ClusterSchedulingPolicySnapshot",
            "SchedulingPolicySnapshot",
            "ClusterStagedUpdateStrategy",
            "StagedUpdateStrategy",
            "ClusterStagedUpdateRun",
            "StagedUpdateRun",
            "ClusterResourceOverride",
            "ResourceOverride",
            // Kinds of the same names as Karmada's (placement.kubernetes-fleet.io): each
            // API's folder may name its own.
            "ClusterResourceBinding",
            "ResourceBinding",
        ],
    ),
    (
        "ocm",
        &[
            "PlacementRule",
            "PlacementDecision",
            "ManagedClusterSet",
            "ManagedClusterSetBinding",
            "AddOnPlacementScore",
            "PlacementBinding",
            "ManifestWorkReplicaSet",
            "ManagedCluster",
            "PolicySet",
            "Subscription",
            "ApplicationSet",
            "ClusterManagementAddOn",
        ],
    ),
];

/// Kinds whose names are also names of the code (`Placement`: every API's plan has a
/// placement type): outside their API's folder only their string literal, `"Placement"`, is
/// refused.
const KIND_LITERALS: &[(&str, &str)] = &[("ocm", "Placement")];

/// Kind families: an API folder whose kinds are every word of a prefix followed by an
/// upper-case letter (kubefed's `Federated<Kind>`: FederatedDeployment, FederatedClusterRole,
/// any type a FederatedTypeConfig enables). A Rust type the crate defines with such a name
/// (`struct`, `enum`, `type` or `trait`: the plan's `FederatedFleet`, what the federation and
/// kubefed plan steps share) is a name of the code, not a kind, and is not one of them.
const KIND_FAMILIES: &[(&str, &str)] = &[("kubefed", "Federated")];

/// Where a kind name still appears outside its API's folder: `file: Kind`. None is left: any
/// is a new violation.
const KIND_EXCEPTIONS: &[&str] = &[];

/// `violations` are exactly the known `exceptions`: a new violation fails, and so does an
/// exception that no longer occurs (it is taken off the list).
fn assert_exceptions(check: &str, violations: &[String], exceptions: &[&str]) {
    let new: Vec<&String> = violations
        .iter()
        .filter(|violation| !exceptions.contains(&violation.as_str()))
        .collect();
    let gone: Vec<&&str> = exceptions
        .iter()
        .filter(|exception| !violations.iter().any(|violation| violation == *exception))
        .collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "{check}: new violations:\n{new:#?}\nexceptions that no longer occur (take them off the list):\n{gone:#?}"
    );
}

/// Whether `name` occurs in `code` as a whole word, or its plural (`name` and an `s`; for a
/// name ending in `y`, `ies` in its place: PropagationPolicies).
fn names(code: &str, name: &str) -> bool {
    let plural = name.strip_suffix('y').map(|stem| format!("{stem}ies"));
    std::iter::once(name).chain(plural.as_deref()).any(|form| {
        code.match_indices(form).any(|(at, _)| {
            let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let rest = &code[at + form.len()..];
            let rest = rest
                .strip_prefix('s')
                .filter(|after| !after.starts_with(word))
                .unwrap_or(rest);
            !code[..at].ends_with(word) && !rest.starts_with(word)
        })
    })
}

/// A kind is found as a whole word and in both its plurals, never inside another word.
#[test]
fn a_kind_is_found_as_a_word_and_in_its_plurals() {
    for code in [
        "a PropagationPolicy",
        "PropagationPolicies,",
        "(PropagationPolicys)",
    ] {
        assert!(names(code, "PropagationPolicy"), "{code}");
    }
    for code in [
        "ClusterPropagationPolicy",
        "PropagationPolicyName",
        "PropagationPoliciesX",
        "propagation policies",
    ] {
        assert!(!names(code, "PropagationPolicy"), "{code}");
    }
}

/// The kind names `code` (of the file `file`, relative to `src/`) names outside the folders
/// of the APIs that have a kind of that name, each once: `file: Kind`. A kind is known by
/// its API and its name, so an API's folder names its own kinds even where another API has
/// a kind of the same name (KubeFleet's and Karmada's `ResourceBinding`). A word of a kind
/// family (`KIND_FAMILIES`) is its API's kind unless it is one of `types`, the Rust types the
/// crate defines.
fn kind_violations(file: &str, code: &str, types: &[String]) -> Vec<String> {
    let mut violations: Vec<String> = KINDS
        .iter()
        .flat_map(|(_, kinds)| kinds.iter())
        .filter(|kind| names(code, kind))
        .filter(|kind| {
            !KINDS
                .iter()
                .any(|(api, kinds)| kinds.contains(kind) && file.starts_with(&format!("{api}/")))
        })
        .map(|kind| format!("{file}: {kind}"))
        .collect();
    for (api, prefix) in KIND_FAMILIES {
        if file.starts_with(&format!("{api}/")) {
            continue;
        }
        violations.extend(
            family_words(code, prefix)
                .filter(|word| !types.iter().any(|name| name == word))
                .map(|word| format!("{file}: {word}")),
        );
    }
    for (api, kind) in KIND_LITERALS {
        if !file.starts_with(&format!("{api}/")) && code.contains(&format!("\"{kind}\"")) {
            violations.push(format!("{file}: \"{kind}\""));
        }
    }
    violations.sort();
    violations.dedup();
    violations
}

/// The whole words of `code` that are `prefix` followed by an upper-case letter.
fn family_words<'c>(code: &'c str, prefix: &'c str) -> impl Iterator<Item = &'c str> {
    code.match_indices(prefix).filter_map(move |(at, _)| {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let rest = &code[at + prefix.len()..];
        (!code[..at].ends_with(word) && rest.starts_with(|c: char| c.is_ascii_uppercase()))
            .then(|| identifier(&code[at..]))
    })
}

/// The names of the Rust types (`struct`, `enum`, `type`, `trait`) `code` defines.
fn types_defined(code: &str) -> Vec<String> {
    let mut types = Vec::new();
    for keyword in ["struct ", "enum ", "type ", "trait "] {
        for (at, _) in code.match_indices(keyword) {
            let before = code[..at].chars().next_back();
            if before.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_')) {
                let name = identifier(&code[at + keyword.len()..]);
                if !name.is_empty() {
                    types.push(name.to_string());
                }
            }
        }
    }
    types
}

#[test]
fn an_api_s_kind_names_appear_only_in_its_folder_the_registry_and_the_cli() {
    let files = code_of(&src());
    let types: Vec<String> = files
        .iter()
        .flat_map(|(_, code)| types_defined(code))
        .collect();
    let mut violations = Vec::new();
    // Comments count too: a framework comment that names an API's kind is the framework
    // knowing that API.
    for (path, code) in &sources_of(&src(), true) {
        let file = relative(path);
        if file == "registry.rs" || file.starts_with("cli/") {
            continue;
        }
        violations.extend(kind_violations(&file, code, &types));
    }
    assert!(!code_of(&src().join("karmada")).is_empty());
    assert_exceptions("kind names", &violations, KIND_EXCEPTIONS);
    let code = "let kinds = [\"ResourceBindings\", \"MemberCluster\", \"MemberClusterSet\"];";
    assert_eq!(
        kind_violations("kubefleet/read.rs", code, &[]),
        Vec::<String>::new()
    );
    assert_eq!(
        kind_violations("karmada/read.rs", code, &[]),
        ["karmada/read.rs: MemberCluster"],
        "a kind of the same name as the folder's own is still another API's"
    );
    assert_eq!(
        kind_violations("ocm/plan.rs", code, &[]),
        ["ocm/plan.rs: MemberCluster", "ocm/plan.rs: ResourceBinding"],
        "a kind two APIs share is named outside both folders once"
    );
    let code = "struct FederatedFleet; let kinds = [\"FederatedJob\", \"Federated{kind}\"]; \
                let shared = \"NotFederatedJob FederatedFleet\";";
    let types = types_defined(code);
    assert_eq!(types, ["FederatedFleet"]);
    assert_eq!(
        kind_violations("karmada/migrate.rs", code, &types),
        ["karmada/migrate.rs: FederatedJob"],
        "a word of kubefed's family is its kind, unless it is a type of the crate"
    );
    assert_eq!(
        kind_violations("kubefed/migrate.rs", code, &types),
        Vec::<String>::new()
    );
    let code = "struct Placement; if kind == \"Placement\" { return \"Placements\"; }";
    assert_eq!(
        kind_violations("migrate/in_place.rs", code, &[]),
        ["migrate/in_place.rs: \"Placement\""],
        "a kind that is also a type's name is refused as a string literal"
    );
    assert_eq!(
        kind_violations("ocm/migrate.rs", code, &[]),
        Vec::<String>::new()
    );
}

/// The API folders a file's code names as modules: a `crate::`/`super::` path (or a
/// `{...}` group member) starting with the folder, or a bare `api::` path (after a
/// `use crate::api;`, or in lib.rs, the crate root).
fn api_modules_named(module: &[String], code: &str) -> Vec<&'static str> {
    let mut named: Vec<&'static str> = paths_used(module, code)
        .iter()
        .filter_map(|path| {
            API_FOLDERS
                .iter()
                .find(|api| path.first() == Some(&api.to_string()))
        })
        .copied()
        .collect();
    for api in API_FOLDERS {
        let bare = code.match_indices(&format!("{api}::")).any(|(at, _)| {
            !code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        });
        if bare {
            named.push(api);
        }
    }
    named.sort_unstable();
    named.dedup();
    named
}

#[test]
fn an_api_s_modules_are_named_only_in_its_folder_the_registry_and_lib_rs() {
    let mut violations = Vec::new();
    for (path, code) in code_of(&src()) {
        let file = relative(&path);
        if file == "registry.rs" {
            continue;
        }
        // lib.rs declares the folders (`mod`) and exports the engines benchmarked and fuzzed
        // apart (`pub use`); anything else it says is checked.
        let code = if file == "lib.rs" {
            code.lines()
                .filter(|line| !line.starts_with("mod ") && !line.starts_with("pub use "))
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            code
        };
        for api in api_modules_named(&module_of(&path), &code) {
            if !file.starts_with(&format!("{api}/")) {
                violations.push(format!("{file}: {api}"));
            }
        }
    }
    violations.sort();
    assert_exceptions("API module paths", &violations, API_MODULE_EXCEPTIONS);
    let module = ["plan".to_string()];
    assert_eq!(
        api_modules_named(
            &module,
            "use crate::{karmada, model}; use crate::ocm::X; kubefleet::plan(); a::kubefed::b"
        ),
        ["karmada", "kubefleet", "ocm"]
    );
}

/// Where an API's module path is still named outside its folder and the registry:
/// `file: api`. None is left: any is a new violation.
const API_MODULE_EXCEPTIONS: &[&str] = &[];

/// The types `registry.rs` re-exports from an API's folder (`pub use crate::<api>::…` or
/// `pub(crate) use`), each with its API and the name it goes by (`X as Y`: `Y`); the
/// functions and constants it re-exports are the registry's hooks, called by name.
fn api_types_reexported(registry: &str) -> Vec<(&'static str, String)> {
    let mut types = Vec::new();
    for statement in registry.split(';') {
        let Some(at) = statement.find("use crate::") else {
            continue;
        };
        let visibility = statement[..at].trim_end();
        if !visibility.ends_with("pub") && !visibility.ends_with("pub(crate)") {
            continue;
        }
        let path: String = statement[at + "use crate::".len()..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let Some(api) = API_FOLDERS
            .iter()
            .find(|api| path.starts_with(&format!("{api}::")))
        else {
            continue;
        };
        let items = match path.find('{') {
            Some(open) => path[open + 1..].trim_end_matches('}').to_string(),
            None => path.rsplit("::").next().unwrap_or_default().to_string(),
        };
        for item in items
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            let name = item.rsplit(" as ").next().unwrap_or(item);
            let is_type = name.starts_with(|c: char| c.is_ascii_uppercase())
                && name.contains(|c: char| c.is_ascii_lowercase());
            if is_type {
                types.push((*api, name.to_string()));
            }
        }
    }
    types
}

/// Outside its folder, an API's types are named only by the registry, which re-exports what
/// the frameworks hold (a plan item's `KubeFleetFields`, a trace's `KubeFleetTrace`), and by
/// lib.rs's facade: the frameworks hold them in the registry's own types (`ItemFields`,
/// `ItemTrace`, `WorkloadKind`, `Stores`), never by name.
#[test]
fn an_api_s_types_are_named_outside_its_folder_only_by_the_registry_and_lib_rs() {
    let registry = fs::read_to_string(src().join("registry.rs")).expect("src/registry.rs");
    let types = api_types_reexported(&without_tests(&registry, false));
    for expected in ["KubeFleetFields", "KubeFleetPlacement", "ResourceTemplate"] {
        assert!(
            types.iter().any(|(_, name)| name == expected),
            "{expected} in {types:?}"
        );
    }
    let mut violations = Vec::new();
    for (path, code) in code_of(&src()) {
        let file = relative(&path);
        if file == "registry.rs" || file == "lib.rs" {
            continue;
        }
        for (api, name) in &types {
            if !file.starts_with(&format!("{api}/")) && names(&code, name) {
                violations.push(format!("{file}: {name}"));
            }
        }
    }
    violations.sort();
    assert_exceptions("API types", &violations, API_TYPE_EXCEPTIONS);
    assert_eq!(
        api_types_reexported(
            "pub use crate::kubefleet::fields::{\n    Aa,\n    Bb,\n};\n\
             pub(crate) use crate::karmada::model::C as Dd; use crate::ocm::Ee; pub use crate::model::Ff;\n\
             pub(crate) use crate::ocm::g::{hook, KINDS};"
        ),
        [
            ("kubefleet", "Aa".to_string()),
            ("kubefleet", "Bb".to_string()),
            ("karmada", "Dd".to_string()),
        ]
    );
}

/// Where an API's type is still named outside its folder and the registry: `file: Type`.
const API_TYPE_EXCEPTIONS: &[&str] = &[];

#[test]
fn the_layer_check_resolves_paths_and_roles() {
    let module: Vec<String> = ["karmada", "read"].map(String::from).to_vec();
    let used = paths_used(
        &module,
        "use super::scheduler::X; use crate::karmada::{model::A, plan}; use crate::load::Y;",
    );
    let layers: Vec<Option<&str>> = used.iter().map(|path| layer(path)).collect();
    assert_eq!(
        layers,
        [Some("engine"), Some("model"), Some("plan"), Some("load")],
        "{used:?}"
    );
    assert_eq!(layer(&module), Some("load"));
    assert_eq!(layer(&["karmada".to_string()]), Some("engine"));
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
    for (path, code) in code_of(&src()) {
        if !layer(&module_of(&path)).is_some_and(|layer| PURE.contains(&layer)) {
            continue;
        }
        for effect in EFFECTS.iter().filter(|effect| code.contains(*effect)) {
            violations.push(format!("{} uses {effect}", relative(&path)));
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
    assert!(!code_of(&src().join("ocm")).is_empty());
}
