//! What a packager and a newcomer rely on: the committed completions and manual pages match the
//! CLI, the README's example commands print what the README shows, `--version` names the commit,
//! and usage lines read naturally when fleetplan runs as a kubectl plugin.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use crate::common::{self, Test};
use clap::{Arg, Command as ClapCommand};
use fleetplan::{command, completion_scripts, man_pages};

/// The one command that brings `completions/` and `man/` back in line with the CLI.
const REGENERATE: &str =
    "cargo run -q -- completions --dir completions && cargo run -q -- man --dir man";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every way `dir` differs from the `generated` files, one line each.
fn drift(dir: &str, generated: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, text) in generated {
        match fs::read_to_string(root().join(dir).join(name)) {
            Ok(committed) if committed == *text => {}
            Ok(_) => problems.push(format!("{dir}/{name} differs from the CLI")),
            Err(_) => problems.push(format!("{dir}/{name} is missing")),
        }
    }
    let names: BTreeSet<&str> = generated.iter().map(|(name, _)| name.as_str()).collect();
    let entries = fs::read_dir(root().join(dir)).map(|entries| entries.flatten().collect());
    for entry in entries.unwrap_or_else(|_: std::io::Error| Vec::new()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !names.contains(name.as_str()) {
            problems.push(format!("{dir}/{name} is not generated any more: delete it"));
        }
    }
    problems
}

fn assert_no_drift(dir: &str, generated: &[(String, String)]) {
    let problems = drift(dir, generated);
    assert!(
        problems.is_empty(),
        "{}\nregenerate with:\n    {REGENERATE}",
        problems.join("\n")
    );
}

/// The CLI as it would be if someone added a flag to `plan` without regenerating.
fn cli_with_a_new_flag() -> ClapCommand {
    command().mut_subcommand("plan", |plan| {
        plan.arg(
            Arg::new("drift-probe")
                .long("drift-probe")
                .help("A flag nobody generated files for."),
        )
    })
}

#[test]
fn committed_completions_match_the_cli() {
    assert_no_drift("completions", &completion_scripts(&command()));
}

#[test]
fn committed_man_pages_match_the_cli() {
    assert_no_drift("man", &man_pages(&command()));
}

#[test]
fn a_flag_added_without_regenerating_is_drift_in_every_completion_script() {
    let problems = drift("completions", &completion_scripts(&cli_with_a_new_flag()));
    assert_eq!(
        problems,
        [
            "completions/_fleetplan differs from the CLI",
            "completions/_fleetplan.ps1 differs from the CLI",
            "completions/fleetplan.bash differs from the CLI",
            "completions/fleetplan.elv differs from the CLI",
            "completions/fleetplan.fish differs from the CLI",
        ]
    );
}

#[test]
fn a_flag_added_without_regenerating_is_drift_in_the_subcommand_page() {
    let problems = drift("man", &man_pages(&cli_with_a_new_flag()));
    assert!(
        problems.contains(&"man/fleetplan-plan.1 differs from the CLI".to_string()),
        "{problems:?}"
    );
}

#[test]
fn version_names_the_crate_version_and_the_commit() {
    let commit = env!("FLEETPLAN_COMMIT");
    Test::new()
        .arg("--version")
        .stdout(format!(
            "fleetplan {} ({commit})\n",
            env!("CARGO_PKG_VERSION")
        ))
        .run();
    // A packager's FLEETPLAN_COMMIT wins over git (see build.rs).
    if std::env::var_os("FLEETPLAN_COMMIT").is_some() {
        return;
    }
    let from_git = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(root())
        .output();
    if let Ok(output) = from_git {
        if output.status.success() && root().join(".git").exists() {
            assert_eq!(common::stdout(&output).trim(), commit);
        }
    }
}

#[test]
fn usage_lines_name_fleetplan_when_run_directly() {
    Test::new()
        .arg("plan")
        .status(1)
        .stderr_contains("Usage: fleetplan plan --filename <PATH>")
        .run();
}

#[cfg(unix)]
#[test]
fn usage_lines_name_kubectl_fleetplan_when_run_as_a_kubectl_plugin() {
    let dir = common::tempdir();
    let plugin = dir.path().join("kubectl-fleetplan");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_fleetplan"), &plugin).unwrap();
    let help = Command::new(&plugin).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("Usage: kubectl fleetplan [OPTIONS] <COMMAND>"),
        "{help}"
    );
    let missing = Command::new(&plugin).arg("plan").output().unwrap();
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("Usage: kubectl fleetplan plan --filename <PATH>"),
        "{stderr}"
    );
}

/// Karmada is a full engine: `--help` (the crate description) and README's opening say so.
#[test]
fn help_and_the_readme_opening_name_karmada() {
    let help = Test::new().arg("--help").run();
    let first_line = common::stdout(&help)
        .lines()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(first_line.contains("Karmada"), "{first_line}");
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let opening = readme
        .split("\n\n")
        .find(|paragraph| paragraph.starts_with("fleetplan plans where"))
        .unwrap_or_default();
    assert!(opening.contains("Karmada `PropagationPolicy`"), "{opening}");
}

#[test]
fn readme_opens_with_the_two_newcomer_commands() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let first_block = readme
        .split("```")
        .nth(1)
        .map(|block| block.split_once('\n').map_or("", |(_, body)| body));
    assert_eq!(
        first_block,
        Some("cargo run --release -- plan -f testdata/fleet\ncargo test --locked\n")
    );
}

/// One README example: a `<!-- example: NAME [status=N] [cwd=DIR] [stdin=FILE] -->` line, a
/// fenced block holding one `$ fleetplan ARGS` line, then a fenced block with exactly what
/// stdout shows. It runs in DIR (the repository's root by default); with `stdin=FILE` (in
/// DIR) the command is `$ PRODUCER | fleetplan ARGS`, and FILE, what PRODUCER prints (a
/// `kustomize build`), is fleetplan's standard input: the producer is shown, not run.
struct Example {
    name: String,
    status: i32,
    cwd: Option<String>,
    stdin: Option<String>,
    args: Vec<String>,
    expected: String,
    /// Where the expected output sits in the README, for FLEETPLAN_BLESS=1.
    output: std::ops::Range<usize>,
}

/// The README's lines with the byte offset each starts at.
fn lines_with_offsets(text: &str) -> Vec<(usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n')
        .map(|line| {
            let start = offset;
            offset += line.len();
            (start, line.trim_end_matches('\n'))
        })
        .collect()
}

fn parse_examples(readme: &str) -> Vec<Example> {
    let lines = lines_with_offsets(readme);
    let mut examples = Vec::new();
    for (index, (_, line)) in lines.iter().enumerate() {
        let Some(marker) = line
            .strip_prefix("<!-- example: ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let mut words = marker.split_whitespace();
        let name = words.next().unwrap_or_default().to_string();
        let mut status = 0;
        let (mut cwd, mut stdin) = (None, None);
        for word in words {
            if let Some(dir) = word.strip_prefix("cwd=") {
                cwd = Some(dir.to_string());
            } else if let Some(file) = word.strip_prefix("stdin=") {
                stdin = Some(file.to_string());
            } else {
                match word.strip_prefix("status=").map(str::parse) {
                    Some(Ok(code)) => status = code,
                    _ => panic!("example {name}: unknown marker word {word:?}"),
                }
            }
        }
        let mut rest = lines[index + 1..]
            .iter()
            .filter(|(_, line)| !line.trim().is_empty());
        let fence = |line: Option<&(usize, &str)>, what: &str| {
            let line = line.map_or("", |(_, line)| *line);
            assert!(
                line.starts_with("```"),
                "example {name}: expected {what}, found {line:?}"
            );
        };
        fence(rest.next(), "a fenced command block");
        let command = rest.next().map_or("", |(_, line)| *line);
        let command = match &stdin {
            // `$ PRODUCER | fleetplan ARGS`: the producer's output is the stdin file.
            Some(_) => command
                .strip_prefix("$ ")
                .and_then(|command| command.split_once(" | "))
                .map_or(command.to_string(), |(_, fleetplan)| {
                    format!("$ {fleetplan}")
                }),
            None => command.to_string(),
        };
        let args = command
            .strip_prefix("$ fleetplan ")
            .map(|args| split_words(args, &name))
            .unwrap_or_else(|| {
                panic!("example {name}: expected `$ fleetplan ARGS`, found {command:?}")
            });
        fence(rest.next(), "the end of the command block");
        // The output block: its body runs from the line after the fence to the closing fence.
        let mut body = lines[index + 1..]
            .iter()
            .skip_while(|(_, line)| !line.starts_with("```"))
            .skip(1)
            .skip_while(|(_, line)| !line.starts_with("```"))
            .skip(1)
            .skip_while(|(_, line)| line.trim().is_empty());
        fence(body.next(), "a fenced output block");
        let mut expected = String::new();
        let mut start = None;
        let mut end = None;
        for (offset, line) in body {
            start.get_or_insert(*offset);
            if line.starts_with("```") {
                end = Some(*offset);
                break;
            }
            expected.push_str(line);
            expected.push('\n');
        }
        let end = end.unwrap_or_else(|| panic!("example {name}: the output block never ends"));
        examples.push(Example {
            name,
            status,
            cwd,
            stdin,
            args,
            expected,
            output: start.unwrap_or(end)..end,
        });
    }
    examples
}

/// Splits a command line like a POSIX shell would for plain words and '...'/"..." quoting;
/// anything that needs a real shell (pipes, redirections, variables) is refused.
fn split_words(line: &str, example: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let quoted: String = chars.by_ref().take_while(|&c| c != '\'').collect();
                word.get_or_insert_with(String::new).push_str(&quoted);
            }
            '"' => {
                let quoted: String = chars.by_ref().take_while(|&c| c != '"').collect();
                assert!(
                    !quoted.contains(['\\', '$', '`']),
                    "example {example}: use single quotes for {quoted:?}"
                );
                word.get_or_insert_with(String::new).push_str(&quoted);
            }
            '|' | '>' | '<' | ';' | '&' | '$' | '`' | '\\' => {
                panic!("example {example}: README examples run without a shell, found {c:?}")
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

fn run_example(example: &Example) -> (Option<i32>, String) {
    let dir = root().join(example.cwd.as_deref().unwrap_or("."));
    let stdin = match &example.stdin {
        Some(file) => fs::File::open(dir.join(file))
            .unwrap_or_else(|e| panic!("example {}: {file}: {e}", example.name))
            .into(),
        None => std::process::Stdio::null(),
    };
    let output = Command::new(env!("CARGO_BIN_EXE_fleetplan"))
        .args(&example.args)
        .current_dir(dir)
        .stdin(stdin)
        .output()
        .unwrap();
    (output.status.code(), common::stdout(&output))
}

/// The fenced block after each `<!-- MARKER: VALUE -->` line of `readme`: (value, body).
fn marked_blocks<'r>(readme: &'r str, marker: &str) -> Vec<(&'r str, String)> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut blocks = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(value) = line
            .strip_prefix(&format!("<!-- {marker}: "))
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let mut rest = lines[index + 1..]
            .iter()
            .skip_while(|line| line.trim().is_empty());
        assert!(
            rest.next().is_some_and(|line| line.starts_with("```")),
            "{marker} {value}: a fenced block must follow"
        );
        let body: Vec<&str> = rest
            .take_while(|line| !line.starts_with("```"))
            .copied()
            .collect();
        blocks.push((value, body.iter().map(|line| format!("{line}\n")).collect()));
    }
    blocks
}

/// A block after `<!-- file: PATH -->` shows the file as it is.
#[test]
fn readme_shows_the_files_it_names() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let files = marked_blocks(&readme, "file");
    assert!(!files.is_empty(), "README.md shows .fleetplan.yaml");
    for (path, body) in files {
        let file = fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(body, file, "README's block for {path}");
    }
}

/// Runs every README example through the real binary. With FLEETPLAN_BLESS=1 the README's
/// output blocks are rewritten from what the binary prints (review the diff before committing).
#[test]
fn readme_examples_print_what_the_readme_shows() {
    let path = root().join("README.md");
    let readme = fs::read_to_string(&path).unwrap();
    let examples = parse_examples(&readme);
    assert!(!examples.is_empty(), "README.md has no examples");
    let bless = common::blessing();
    let mut blessed = readme.clone();
    let mut failures = Vec::new();
    for example in examples.iter().rev() {
        let (status, stdout) = run_example(example);
        if status != Some(example.status) {
            failures.push(format!(
                "example {}: exit status {status:?}, README says {}",
                example.name, example.status
            ));
        }
        if stdout != example.expected {
            if bless {
                blessed.replace_range(example.output.clone(), &stdout);
            } else {
                failures.push(format!(
                    "example {}: fleetplan {:?}\n--- README shows\n{}--- fleetplan prints\n{}",
                    example.name, example.args, example.expected, stdout
                ));
            }
        }
    }
    if bless && blessed != readme {
        fs::write(&path, blessed).unwrap();
    }
    assert!(
        failures.is_empty(),
        "{}\n(FLEETPLAN_BLESS=1 cargo test --test cli packaging::readme rewrites the README's outputs)",
        failures.join("\n")
    );
}

#[test]
fn example_commands_split_like_a_shell() {
    assert_eq!(
        split_words(
            "select -f testdata/fleet 'region in (eu-west)' -o name",
            "t"
        ),
        [
            "select",
            "-f",
            "testdata/fleet",
            "region in (eu-west)",
            "-o",
            "name"
        ]
    );
    assert_eq!(split_words("a\"b c\"'d'", "t"), ["ab cd"]);
}

#[test]
fn an_example_reads_what_a_producer_printed_from_a_file() {
    let readme = "<!-- example: demo cwd=testdata/ci/team stdin=rendered/prod.yaml -->\n```sh\n$ kustomize build deploy | fleetplan check -f -\n```\n\n```text\nok\n```\n";
    let [example] = parse_examples(readme)
        .try_into()
        .unwrap_or_else(|_| panic!("one example"));
    assert_eq!(example.cwd.as_deref(), Some("testdata/ci/team"));
    assert_eq!(example.stdin.as_deref(), Some("rendered/prod.yaml"));
    assert_eq!(example.args, ["check", "-f", "-"]);
}

#[test]
fn examples_are_read_with_their_status_and_output() {
    let readme = "text\n<!-- example: demo status=2 -->\n```sh\n$ fleetplan diff 'a b'\n```\n\n```text\none\ntwo\n```\n";
    let examples = parse_examples(readme);
    let [example] = examples.as_slice() else {
        panic!("one example expected");
    };
    assert_eq!(example.name, "demo");
    assert_eq!(example.status, 2);
    assert_eq!(example.args, ["diff", "a b"]);
    assert_eq!(example.expected, "one\ntwo\n");
    assert_eq!(&readme[example.output.clone()], "one\ntwo\n");
}

/// Runs the committed bash completion for `words` (the last one being completed) with the
/// test binary first on PATH, and returns the candidates bash would offer.
#[cfg(unix)]
fn bash_completes(words: &[&str]) -> Vec<String> {
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_fleetplan"))
        .parent()
        .expect("the binary has a directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let quoted: Vec<String> = words.iter().map(|word| format!("'{word}'")).collect();
    let script = format!(
        "source completions/fleetplan.bash; COMP_WORDS=({}); COMP_CWORD={}; \
         COMP_LINE=\"${{COMP_WORDS[*]}}\"; COMP_POINT=${{#COMP_LINE}}; \
         _fleetplan_names fleetplan; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        quoted.join(" "),
        words.len() - 1
    );
    let output = Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("PATH", path)
        .output()
        .expect("bash runs");
    common::stdout(&output)
        .lines()
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(unix)]
#[test]
fn bash_completes_explain_cluster_names_from_the_inputs() {
    assert_eq!(
        bash_completes(&[
            "fleetplan",
            "explain",
            "-f",
            "testdata/fleet",
            "storefront",
            "--cluster",
            "aws-eu"
        ]),
        ["aws-eu-west-prod-1", "aws-eu-west-prod-2"]
    );
}

#[cfg(unix)]
#[test]
fn bash_completes_explain_items_from_the_inputs() {
    assert_eq!(
        bash_completes(&[
            "fleetplan",
            "explain",
            "-f",
            "testdata/fleet",
            "Placement/shop/"
        ]),
        ["Placement/shop/gpu-batch", "Placement/shop/storefront"]
    );
}

/// The word after any of explain's flags that take a value is that value, never an item:
/// the wrapper's list of such flags comes from the clap definition, so none is missed.
#[cfg(unix)]
#[test]
fn bash_completes_no_item_as_the_value_of_a_flag() {
    let explain = std::process::Command::new(env!("CARGO_BIN_EXE_fleetplan"))
        .args(["explain", "--help"])
        .output()
        .expect("help runs");
    let help = common::stdout(&explain);
    // `-n, --namespace <NAMESPACE>`: both spellings of every flag that takes a value.
    let value_flags: Vec<&str> = help
        .lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with('-') && line.contains(" <"))
        .flat_map(|line| {
            line.split([',', ' '])
                .take_while(|word| !word.starts_with('<'))
                .filter(|word| word.starts_with('-'))
        })
        .collect();
    assert!(
        value_flags.contains(&"-n") && value_flags.contains(&"--namespace"),
        "{help}"
    );
    // Without a flag before it, the same word completes to items: the loop below compares.
    let items = [
        "fleetplan",
        "explain",
        "-f",
        "testdata/fleet",
        "Placement/shop/",
    ];
    assert!(!bash_completes(&items).is_empty());
    for flag in value_flags {
        let offered = bash_completes(&[
            "fleetplan",
            "explain",
            "-f",
            "testdata/fleet",
            flag,
            "Placement/shop/",
        ]);
        assert!(
            !offered.iter().any(|word| word.starts_with("Placement/")),
            "{flag} completed items: {offered:?}"
        );
    }
}

/// The input flags that change item names (`-n` gives namespace-less objects a namespace)
/// are passed on to the `plan` the wrapper runs.
#[cfg(unix)]
#[test]
fn bash_completes_items_with_the_namespace_flag_applied() {
    for (namespace, expected) in [
        (&[][..], "Placement/default/prod"),
        (&["-n", "team-a"][..], "Placement/team-a/prod"),
    ] {
        let mut words = vec!["fleetplan", "explain", "-f", "testdata/namespace"];
        words.extend_from_slice(namespace);
        words.push("Placement/");
        assert_eq!(bash_completes(&words), [expected], "{namespace:?}");
    }
}

#[cfg(unix)]
#[test]
fn bash_still_completes_subcommands_statically() {
    assert!(bash_completes(&["fleetplan", "ex"]).contains(&"explain".to_string()));
}

#[test]
fn pre_commit_hooks_run_fleetplan_check_over_the_repository() {
    let text = fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: Vec<serde_yaml::Value> = serde_yaml::from_str(&text).unwrap();
    let ids: Vec<&str> = hooks
        .iter()
        .filter_map(|hook| hook["id"].as_str())
        .collect();
    assert_eq!(ids, ["fleetplan-check", "fleetplan-check-system"]);
    let languages: Vec<&str> = hooks
        .iter()
        .filter_map(|hook| hook["language"].as_str())
        .collect();
    assert_eq!(languages, ["rust", "system"]);
    for hook in &hooks {
        assert_eq!(hook["pass_filenames"].as_bool(), Some(false), "{hook:?}");
        let entry = hook["entry"].as_str().unwrap_or_default();
        let mut words = entry.split_whitespace();
        assert_eq!(words.next(), Some("fleetplan"), "{hook:?}");
        let args = hook["args"].as_sequence().cloned().unwrap_or_default();
        // What pre-commit runs, from the root of a repository holding the example fleet.
        Test::new()
            .current_dir(root().join("testdata/fleet"))
            .args(words)
            .args(args.iter().filter_map(|arg| arg.as_str()))
            .stdout("10 items checked, all satisfied\n")
            .run();
    }
}

/// The `fleetplan …` command lines of the README's CI section, as far as the shell passes
/// them (up to a redirection or `||`), and its `cargo install` lines.
fn readme_ci_commands() -> (Vec<Vec<String>>, Vec<String>) {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("\n## CI\n").expect("README has a CI section");
    let section = readme.get(start + 1..).unwrap_or_default();
    let section = section
        .get(
            ..section
                .get(1..)
                .and_then(|rest| rest.find("\n## "))
                .unwrap_or(section.len()),
        )
        .unwrap_or_default();
    let mut commands = Vec::new();
    let mut installs = Vec::new();
    for block in section.split("```yaml\n").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        serde_yaml::from_str::<serde_yaml::Value>(block)
            .unwrap_or_else(|error| panic!("README CI block is not YAML: {error}\n{block}"));
        // Comments (whole lines, or after ` #`) are prose about the commands.
        let lines = block
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'));
        for line in lines.map(|line| line.split(" #").next().unwrap_or_default()) {
            if let Some(at) = line.find("cargo install") {
                installs.push(line.get(at..).unwrap_or_default().to_string());
            } else if let Some(at) = line.find("fleetplan ") {
                let command = line.get(at..).unwrap_or_default();
                let command = command.split(['>', '|']).next().unwrap_or_default();
                let words = command
                    .split_whitespace()
                    .map(|word| word.trim_matches('\'').to_string());
                commands.push(words.collect());
            }
        }
    }
    (commands, installs)
}

/// CI jobs install a release (the Action, or the archive checked against SHA256SUMS) rather
/// than compiling fleetplan in every job of every pull request, and every `fleetplan` command
/// they hold runs in `testdata/ci/team`, a repository laid out as a team's with the README's
/// `.fleetplan.yaml`: each succeeds without a word on stderr, so no job names a flag
/// fleetplan does not have or inputs the config file does not give.
#[test]
fn readme_ci_jobs_install_a_release_and_their_commands_run_on_a_team_repository() {
    let (commands, installs) = readme_ci_commands();
    assert!(commands.len() >= 4, "{commands:?}");
    for words in &commands {
        let output = Command::new(env!("CARGO_BIN_EXE_fleetplan"))
            .args(words.iter().skip(1))
            .current_dir(root().join("testdata/ci/team"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            (
                output.status.code(),
                String::from_utf8_lossy(&output.stderr).into_owned()
            ),
            (Some(0), String::new()),
            "README CI command {words:?} in testdata/ci/team\n{}",
            common::stdout(&output)
        );
    }
    assert_eq!(installs, Vec::<String>::new());
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let ci = readme.split("\n## CI\n").nth(1).unwrap_or_default();
    assert!(
        ci.contains("- uses: fleetplan/fleetplan@v"),
        "no Action in the CI recipes"
    );
    assert!(
        ci.contains("sha256sum -c"),
        "a CI recipe installs an unchecked archive"
    );
}

/// Outside the CI section too: an install without `--locked` resolves the newest
/// dependencies instead of those fleetplan was tested with.
#[test]
fn every_cargo_install_in_the_readme_is_locked() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let installs: Vec<&str> = readme
        .lines()
        .filter(|line| line.contains("cargo install"))
        .collect();
    assert!(installs.len() > 1, "{installs:?}");
    for install in installs {
        assert!(install.contains("--locked"), "{install}");
    }
}

#[test]
fn every_manual_page_example_runs_and_ends_with_its_documented_status() {
    let mut count = 0;
    for subcommand in command().get_subcommands() {
        let name = subcommand.get_name();
        if name == "help" {
            continue;
        }
        let usage = fleetplan::man_usage(name)
            .unwrap_or_else(|| panic!("fleetplan-{name}.1 has no examples"));
        assert!(!usage.examples.is_empty(), "{name}");
        for example in usage.examples {
            assert_eq!(example.args.first(), Some(&name), "{}", example.what);
            let output = Command::new(env!("CARGO_BIN_EXE_fleetplan"))
                .args(example.args)
                .current_dir(root())
                .output()
                .unwrap();
            assert_eq!(
                output.status.code(),
                Some(i32::from(example.status.code())),
                "fleetplan {:?}\n{}",
                example.args,
                String::from_utf8_lossy(&output.stderr)
            );
            let documented = usage.exit.iter().any(|(code, _)| *code == example.status);
            assert!(
                documented,
                "{name}: status of {:?} not in EXIT STATUS",
                example.args
            );
            count += 1;
        }
    }
    assert!(count >= 15, "{count}");
}
