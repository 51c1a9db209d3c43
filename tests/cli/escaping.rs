//! Text from inputs reaches terminals, CI logs, pull-request comments and reports escaped for
//! each (`render::escape`); names that every output repeats are validated as the API server
//! validates them. Each input is built here: control characters do not survive an editor.

use std::path::Path;

use crate::common::{self, Test};

/// A CEL expression that does not parse, whose text (echoed in the Misconfigured message)
/// holds an OSC hyperlink, a screen clear, a bidi override and a line that GitHub would read
/// as a workflow command.
const HOSTILE_CEL: &str = "---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: hostile, namespace: ns}
spec:
  predicates:
    - requiredClusterSelector:
        celSelector:
          celExpressions:
            - \"(\\e]8;;https://evil.example\\a\\e[2J\\u202Eabc\\n::error file=x.yaml::pwned\"
";

/// Neither the escape character, the bell, a bidi override nor a line starting a workflow
/// command reaches the output.
fn assert_inert(text: &str, what: &str) {
    for (bad, name) in [('\u{1b}', "ESC"), ('\u{7}', "BEL"), ('\u{202e}', "U+202E")] {
        assert!(!text.contains(bad), "{what} holds {name}:\n{text}");
    }
    for line in text.lines() {
        assert!(
            !line.trim_start().starts_with("::error file=x.yaml"),
            "{what} has an injected workflow command:\n{text}"
        );
    }
}

fn write_inputs(dir: &Path, documents: &str) -> String {
    let path = dir.join("in.yaml");
    common::write(&path, &format!("{}{documents}", common::ONE_BOUND_CLUSTER));
    path.display().to_string()
}

#[test]
fn input_text_reaches_terminals_escaped_from_every_subcommand() {
    let dir = common::tempdir();
    let input = write_inputs(dir.path(), HOSTILE_CEL);
    let runs: [&[&str]; 5] = [
        &["plan", "-f", &input],
        &["explain", "-f", &input, "Placement/ns/hostile"],
        &["check", "-f", &input],
        &["check", "-f", &input, "-o", "github"],
        &["check", "-f", &input, "-o", "junit"],
    ];
    for args in runs {
        let output = Test::new()
            .args(args.iter().copied())
            .stderr_contains("")
            .status(1)
            .run();
        let stdout = common::stdout(&output);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_inert(&stdout, &format!("{args:?} stdout"));
        assert_inert(&stderr, &format!("{args:?} stderr"));
        let both = format!("{stdout}{stderr}");
        assert!(
            both.contains("\\u{1b}]8;;https://evil.example\\u{7}")
                || both.contains("%5Cu{1b}")
                || both.contains("\\u{1b}"),
            "{args:?}: the escape is shown, not dropped:\n{both}"
        );
    }
}

#[test]
fn inventory_cluster_names_are_dns_subdomains() {
    let dir = common::tempdir();
    let path = dir.path().join("fleet.yaml");
    common::write(
        &path,
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: fleet}\n\
         clusters:\n  - {name: east}\n  - {name: \"west\\n::error file=a.yaml::pwned\"}\n",
    );
    let file = path.display().to_string();
    let output = Test::new()
        .args(["check", "-f", &file, "-o", "github"])
        .stderr("")
        .status(1)
        .run();
    assert_eq!(
        common::stdout(&output),
        format!(
            "::error file={file},line=6::ClusterInventory/fleet: clusters[1].name: \
             Invalid value: \"west\\n::error file=a.yaml::pwned\": a lowercase RFC 1123 \
             subdomain must consist of lower case alphanumeric characters, '-' or '.', and must \
             start and end with an alphanumeric character (e.g. 'example.com', regex used for \
             validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n\
             1 error: the inputs could not be read, nothing was checked\n"
        )
    );
}

/// apimachinery's refusal of a label key holding an OSC title sequence (`\e]0;title\a`).
const OSC_TITLE_KEY: &str = "Invalid value: \"\\u{1b}]0;title\\u{7}\": name part must consist of \
     alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric \
     character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is \
     '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n";

#[test]
fn inventory_label_keys_are_qualified_names() {
    Test::new()
        .args(["select", "-f", "-"])
        .stdin(
            "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\n\
             clusters:\n  - {name: east, labels: {\"\\e]0;title\\a\": x}}\n",
        )
        .stderr(format!(
            "error: <stdin>#1: ClusterInventory/f: clusters[0].labels: {OSC_TITLE_KEY}"
        ))
        .status(1)
        .run();
}

/// A cluster object (ManagedCluster, KubeFedCluster, federation v1 Cluster, KubeFleet
/// MemberCluster) is an object the
/// API server validated: a label key that is no qualified name, or a value that is no label
/// value, is refused as `ValidateObjectMeta` refuses it (an inventory entry's value only
/// warns: design/formats.md). Karmada's Cluster: tests/cli/karmada_admission.rs.
#[test]
fn cluster_labels_are_validated_as_the_api_server_does() {
    // With the spec each kind requires, so that the labels are all that is wrong.
    let kinds = [
        (
            "cluster.open-cluster-management.io/v1",
            "ManagedCluster",
            "",
            "",
        ),
        (
            "core.kubefed.io/v1beta1",
            "KubeFedCluster",
            "kube-federation-system/",
            "",
        ),
        ("federation/v1beta1", "Cluster", "", ""),
        (
            "cluster.kubernetes-fleet.io/v1beta1",
            "MemberCluster",
            "",
            "spec: {identity: {kind: ServiceAccount, name: member}}\n",
        ),
    ];
    for (api_version, kind, namespace, spec) in kinds {
        let cluster = |labels: &str| {
            let namespace = namespace.trim_end_matches('/');
            format!(
                "apiVersion: {api_version}\nkind: {kind}\n\
                 metadata: {{name: east, namespace: '{namespace}', labels: {labels}}}\n{spec}"
            )
        };
        Test::new()
            .args(["select", "-f", "-"])
            .stdin(cluster("{\"\\e]0;title\\a\": x}"))
            .stderr(format!(
                "error: <stdin>#1: {kind}/{namespace}east: metadata.labels: {OSC_TITLE_KEY}"
            ))
            .status(1)
            .run();
        Test::new()
            .args(["select", "-f", "-"])
            .stdin(cluster("{env: \"prod\\n::error::x\"}"))
            .stderr(format!(
                "error: <stdin>#1: {kind}/{namespace}east: metadata.labels: Invalid value: \
                 \"prod\\n::error::x\": a valid label must be an empty string or consist of \
                 alphanumeric characters, '-', '_' or '.', and must start and end with an \
                 alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used \
                 for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n"
            ))
            .status(1)
            .run();
    }
}

/// A committed previous plan (or a hub export) is input too: a cluster name in it that holds
/// a backtick and a line feed must not close the code span and start a heading in the
/// pull-request comment.
#[test]
fn names_from_a_previous_plan_stay_inside_markdown_code_spans() {
    let dir = common::tempdir();
    let previous = dir.path().join("plan.yaml");
    let committed = std::fs::read_to_string("testdata/ci/plan.yaml").unwrap();
    let hostile = committed.replacen(
        "  - aws-eu-west-prod-1\n",
        "  - \"evil`\\n# pwned | x\"\n",
        1,
    );
    assert_ne!(hostile, committed);
    common::write(&previous, &hostile);
    let output = Test::new()
        .args(["diff", "-f", "testdata/fleet", "-o", "markdown"])
        .args(["--previous", &previous.display().to_string()])
        .status(2)
        .run();
    let stdout = common::stdout(&output);
    assert!(
        stdout
            .lines()
            .any(|line| line == "- `` - cluster evil`\\u{a}# pwned | x ``"),
        "{stdout}"
    );
    assert!(
        !stdout.lines().any(|line| line.starts_with("# pwned")),
        "{stdout}"
    );
}

/// Characters a reviewer's screen would act on (ESC, BEL, U+202E, NEL, a zero-width space).
const INVISIBLE: [char; 5] = ['\u{1b}', '\u{7}', '\u{202e}', '\u{85}', '\u{200b}'];

/// Every string in `value` (keys too), for finding what a data output read back as.
fn strings_of_json(value: &serde_json::Value, found: &mut Vec<String>) {
    match value {
        serde_json::Value::String(text) => found.push(text.clone()),
        serde_json::Value::Array(items) => {
            items.iter().for_each(|item| strings_of_json(item, found))
        }
        serde_json::Value::Object(map) => map.iter().for_each(|(key, item)| {
            found.push(key.clone());
            strings_of_json(item, found);
        }),
        _ => {}
    }
}

fn strings_of_yaml(value: &serde_yaml::Value, found: &mut Vec<String>) {
    match value {
        serde_yaml::Value::String(text) => found.push(text.clone()),
        serde_yaml::Value::Sequence(items) => {
            items.iter().for_each(|item| strings_of_yaml(item, found));
        }
        serde_yaml::Value::Mapping(map) => map.iter().for_each(|(key, item)| {
            strings_of_yaml(key, found);
            strings_of_yaml(item, found);
        }),
        serde_yaml::Value::Tagged(tagged) => strings_of_yaml(&tagged.value, found),
        _ => {}
    }
}

/// `text` shows none of [`INVISIBLE`] but holds `escaped`, and the strings it reads back as
/// hold `wanted` whole.
fn assert_escaped_data(text: &str, escaped: &str, strings: &[String], wanted: &str) {
    for bad in INVISIBLE {
        assert!(!text.contains(bad), "{:?} is written raw:\n{text}", bad);
    }
    assert!(text.contains(escaped), "no {escaped} in:\n{text}");
    assert!(
        strings.iter().any(|found| found.contains(wanted)),
        "no string holds {wanted:?}: {strings:?}"
    );
}

/// The CEL expression of [`HOSTILE_CEL`] as cel-go's message quotes it: its first line.
const QUOTED_CEL: &str = "(\u{1b}]8;;https://evil.example\u{7}\u{1b}[2J\u{202e}abc";

#[test]
fn json_output_escapes_invisible_characters_and_reads_back_the_same() {
    let dir = common::tempdir();
    let input = write_inputs(dir.path(), HOSTILE_CEL);
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", &input])
        .stderr_contains("")
        .status(1)
        .run();
    let text = common::stdout(&output);
    let mut strings = Vec::new();
    strings_of_json(&serde_json::from_str(&text).expect("JSON"), &mut strings);
    assert_escaped_data(&text, "\\u001b[2J\\u202eabc", &strings, QUOTED_CEL);
}

#[test]
fn yaml_output_escapes_invisible_characters_and_reads_back_the_same() {
    let dir = common::tempdir();
    let input = write_inputs(dir.path(), HOSTILE_CEL);
    let output = Test::new()
        .args(["plan", "-o", "yaml", "-f", &input])
        .stderr_contains("")
        .status(1)
        .run();
    let text = common::stdout(&output);
    let mut strings = Vec::new();
    strings_of_yaml(&serde_yaml::from_str(&text).expect("YAML"), &mut strings);
    assert_escaped_data(&text, "\\u001B[2J\\u202Eabc", &strings, QUOTED_CEL);
    // A label value (an inventory's values only warn) with invisible characters, and one
    // holding the text `\uFFFF`, read back exactly.
    let output = Test::new()
        .args(["select", "-o", "yaml", "-f", "-"])
        .stdin(
            "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\n\
             clusters:\n  - {name: east, labels: {tier: \"gold\\u202Eevil\\u0085\\u200Bx\"}}\n  \
             - {name: west, labels: {tier: \"a\\\\uFFFFb\\\\\"}}\n",
        )
        .stderr_contains("would be rejected by Kubernetes")
        .run();
    let text = common::stdout(&output);
    let mut strings = Vec::new();
    strings_of_yaml(&serde_yaml::from_str(&text).expect("YAML"), &mut strings);
    assert_escaped_data(
        &text,
        "\"gold\\u202Eevil\\u0085\\u200Bx\"",
        &strings,
        "gold\u{202e}evil\u{85}\u{200b}x",
    );
    assert!(
        strings.iter().any(|found| found == "a\\uFFFFb\\"),
        "{strings:?}"
    );
}

#[test]
fn sarif_output_escapes_invisible_characters_and_reads_back_the_same() {
    let dir = common::tempdir();
    let input = write_inputs(dir.path(), HOSTILE_CEL);
    let output = Test::new()
        .args(["check", "-o", "sarif", "-f", &input])
        .stderr_contains("")
        .status(1)
        .run();
    let text = common::stdout(&output);
    let mut strings = Vec::new();
    strings_of_json(&serde_json::from_str(&text).expect("SARIF"), &mut strings);
    assert_escaped_data(&text, "\\u001b[2J\\u202eabc", &strings, QUOTED_CEL);
}
