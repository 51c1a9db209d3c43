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

/// A ManagedCluster is an object the API server validated: a label key that is no qualified
/// name, or a value that is no label value, is refused as `ValidateObjectMeta` refuses it
/// (an inventory entry's value only warns: design/formats.md).
#[test]
fn managed_cluster_labels_are_validated_as_the_api_server_does() {
    let cluster = |labels: &str| {
        format!(
            "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\n\
             metadata: {{name: east, labels: {labels}}}\n"
        )
    };
    Test::new()
        .args(["select", "-f", "-"])
        .stdin(cluster("{\"\\e]0;title\\a\": x}"))
        .stderr(format!(
            "error: <stdin>#1: ManagedCluster/east: metadata.labels: {OSC_TITLE_KEY}"
        ))
        .status(1)
        .run();
    Test::new()
        .args(["select", "-f", "-"])
        .stdin(cluster("{env: \"prod\\n::error::x\"}"))
        .stderr(
            "error: <stdin>#1: ManagedCluster/east: metadata.labels: Invalid value: \
             \"prod\\n::error::x\": a valid label must be an empty string or consist of \
             alphanumeric characters, '-', '_' or '.', and must start and end with an \
             alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for \
             validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n",
        )
        .status(1)
        .run();
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
