//! `fleetplan vectors SUITE FILE...`: upstream's own test cases run through the binary's
//! engines. Every bundled file passes in full; a changed expectation fails with the vector's
//! id; a file that is no vector file is an error naming where, never a panic or a pass.

use serde_json::{json, Value};

use crate::common::{self, Test};

const KUBEFLEET: &str = "testdata/upstream/kubefleet.yaml";

/// The bundled KubeFleet vectors, each changed by `alter`.
fn altered(alter: impl Fn(&mut Value)) -> String {
    altered_list(KUBEFLEET, "vectors", alter)
}

/// The bundled vector file `path`, each vector of its list `list` changed by `alter`.
fn altered_list(path: &str, list: &str, alter: impl Fn(&mut Value)) -> String {
    let text = std::fs::read_to_string(path).expect("the vectors are readable");
    let mut file: Value = serde_yaml::from_str(&text).expect("the vectors parse");
    for vector in file[list].as_array_mut().expect("a list of vectors") {
        alter(vector);
    }
    serde_yaml::to_string(&file).expect("serializable")
}

#[test]
fn all_261_kubefleet_vectors_pass_through_the_binary() {
    Test::new()
        .args(["vectors", "kubefleet", KUBEFLEET])
        .stdout("testdata/upstream/kubefleet.yaml: kubefleet: 261 vectors, 261 pass\n")
        .stderr("")
        .status(0)
        .run();
}

#[test]
fn a_vector_whose_expectation_is_altered_fails_with_its_id() {
    let id = "TestPickFromResourceMatchedOverridesForTargetCluster/cluster not found";
    let file = altered(|vector| {
        if vector["id"] == id {
            vector["expected"] = json!({"clusterResourceOverrides": [], "resourceOverrides": []});
        }
    });
    Test::new()
        .args(["vectors", "kubefleet", "-"])
        .stdin(file)
        .stdout(format!(
            "<stdin>: {id} (overridesForCluster): got {{\"error\":true}}, expected {{\"clusterResourceOverrides\":[],\"resourceOverrides\":[]}}
<stdin>: kubefleet: 261 vectors, 260 pass, 1 fail
"
        ))
        .stderr("")
        .status(1)
        .run();
}

#[test]
fn every_vector_fails_when_its_expectation_gains_a_field() {
    // No runner compares only part of what a vector expects.
    let file = altered(|vector| vector["expected"]["altered"] = json!(true));
    let output = Test::new()
        .args(["vectors", "kubefleet", "-"])
        .stdin(file)
        .stderr("")
        .status(1)
        .run();
    let stdout = common::stdout(&output);
    assert!(
        stdout.ends_with("<stdin>: kubefleet: 261 vectors, 0 pass, 261 fail\n"),
        "{stdout}"
    );
}

#[test]
fn a_file_that_is_no_vector_file_is_an_error_at_its_path() {
    let dir = common::tempdir();
    let cases = [
        ("empty.yaml", "", "empty.yaml: the file is empty: there are no vectors to run"),
        ("none.yaml", "vectors: []\n", "none.yaml#vectors: no vectors: there is nothing to run"),
        ("other.yaml", "cases: []\n", "other.yaml: missing field `vectors`"),
        (
            "fields.yaml",
            "vectors:\n- id: a\n  kind: filter\n  input: {}\n",
            "fields.yaml#vectors[0]: missing field `expected` at line 2 column 3",
        ),
        (
            "syntax.yaml",
            "vectors: [\n",
            "syntax.yaml#vectors: did not find expected node content at line 2 column 1, while parsing a flow node",
        ),
        (
            "twice.yaml",
            "vectors:\n- {id: a, kind: x, input: {}, expected: {}}\n- {id: a, kind: x, input: {}, expected: {}}\n",
            "twice.yaml#vectors[1].id: \"a\" is also the id of vectors[0]",
        ),
    ];
    for (name, text, error) in cases {
        let path = dir.path().join(name);
        common::write(&path, text);
        Test::new()
            .current_dir(dir.path())
            .args(["vectors", "kubefleet", name])
            .stdout("")
            .stderr(format!("error: {error}\n"))
            .status(1)
            .run();
    }
}

#[test]
fn each_file_is_reported_in_the_order_given_and_a_bad_one_fails_the_run() {
    let dir = common::tempdir();
    common::write(&dir.path().join("empty.yaml"), "\n");
    let kubefleet = std::fs::canonicalize(KUBEFLEET).expect("the vectors exist");
    let kubefleet = kubefleet.to_string_lossy();
    Test::new()
        .current_dir(dir.path())
        .args(["vectors", "kubefleet", &kubefleet, "empty.yaml", "."])
        .stdout(format!("{kubefleet}: kubefleet: 261 vectors, 261 pass\n"))
        .stderr(
            "error: empty.yaml: the file is empty: there are no vectors to run
error: .: not a regular file
",
        )
        .status(1)
        .run();
}

#[test]
fn an_unknown_suite_is_a_usage_error_naming_the_suites() {
    Test::new()
        .args(["vectors", "kubefed", KUBEFLEET])
        .stdout("")
        .stderr_contains("invalid value 'kubefed' for '<SUITE>'")
        .stderr_contains("[possible values: kubefleet, ocm, planner, selector]")
        .status(1)
        .run();
}

#[test]
fn a_vector_s_id_kind_and_input_are_escaped_for_the_terminal() {
    let file = "vectors:
- id: \"evil\\e]0;title\\a\\u202e\"
  kind: \"kind\\e[2J\"
  input: {}
  expected: {}
- id: \"::error::forged\"
  kind: filter
  input: {plugin: ClusterEligibility, cluster: {metadata: {name: \"\\e[31m\"}}, now: \"\\e[31m\"}
  expected: {}
";
    Test::new()
        .args(["vectors", "kubefleet", "-"])
        .stdin(file)
        .stdout(
            "<stdin>: evil\\u{1b}]0;title\\u{7}\\u{202e} (kind\\u{1b}[2J): no runner for kind \"kind\\u{1b}[2J\" in this suite
<stdin>: ::error::forged (filter): the input does not decode: expected an RFC 3339 time like \"2006-01-02T15:04:05Z\", found \"\\u{1b}[31m\"
<stdin>: kubefleet: 2 vectors, 0 pass, 2 fail
",
        )
        .stderr("")
        .status(1)
        .run();
}

#[test]
fn all_52_planner_cases_pass_and_a_changed_plan_fails_with_its_name() {
    Test::new()
        .args(["vectors", "planner", "testdata/upstream/planner.yaml"])
        .stdout("testdata/upstream/planner.yaml: planner: 52 vectors, 52 pass\n")
        .stderr("")
        .status(0)
        .run();
    let file = altered_list("testdata/upstream/planner.yaml", "cases", |case| {
        if case["name"] == "TestEqual#1" {
            case["expected"]["plan"]["A"] = json!(26);
        }
    });
    Test::new()
        .args(["vectors", "planner", "-"])
        .stdin(file)
        .stdout(
            "<stdin>: TestEqual#1 (plan): plan: got {\"A\": 16, \"B\": 17, \"C\": 17}, want {\"A\": 26, \"B\": 17, \"C\": 17}
<stdin>: planner: 52 vectors, 51 pass, 1 fail
",
        )
        .stderr("")
        .status(1)
        .run();
    // An expectation the runner would not compare is refused, never ignored.
    let file = altered_list("testdata/upstream/planner.yaml", "cases", |case| {
        case["expected"]["altered"] = json!(true);
    });
    Test::new()
        .args(["vectors", "planner", "-"])
        .stdin(file)
        .stdout("")
        .stderr("error: <stdin>#cases[0].expected.altered: unknown field `altered`, expected `plan` or `overflow` at line 4 column 5\n")
        .status(1)
        .run();
}

#[test]
fn all_221_selector_cases_pass_and_a_changed_or_uncompared_expectation_fails() {
    Test::new()
        .args(["vectors", "selector", "testdata/upstream/selector.yaml"])
        .stdout("testdata/upstream/selector.yaml: selector: 221 vectors, 221 pass\n")
        .stderr("")
        .status(0)
        .run();
    // Cases sharing a source are told apart by their place among them.
    let source = "kubernetes/apimachinery pkg/labels/selector_test.go TestSelectorParse/good";
    let file = format!(
        "- source: {source}
  kind: parse
  input: {{selector: 'x=a,y=b,z=c'}}
  expected: {{ok: true, string: 'x=a,y=b,z=c'}}
- source: {source}
  kind: parse
  input: {{selector: ''}}
  expected: {{ok: false, error_contains: invalid}}
"
    );
    Test::new()
        .args(["vectors", "selector", "-"])
        .stdin(file)
        .stdout(format!(
            "<stdin>: {source} #2 (parse): ok: got true, want false; error_contains: not compared for this case
<stdin>: selector: 2 vectors, 1 pass, 1 fail
"
        ))
        .stderr("")
        .status(1)
        .run();
}

#[test]
fn all_56_ocm_cases_pass_and_a_changed_expectation_or_a_bad_input_fails_its_case() {
    Test::new()
        .args(["vectors", "ocm", "testdata/upstream/ocm.yaml"])
        .stdout("testdata/upstream/ocm.yaml: ocm: 56 vectors, 56 pass\n")
        .stderr("")
        .status(0)
        .run();
    let file = "- id: sets
  kind: eligible_clustersets
  input: {boundClusterSets: [a, b], placementClusterSets: [b]}
  expected: {clusterSets: [a], note: a remark is not an expectation}
- id: time
  kind: filter
  plugin: Predicate
  input: {placement: {namespace: ns, name: p, spec: {}}, now: 'not a time'}
  expected: {filtered: []}
- id: nothing
  kind: eligible_clustersets
  input: {}
  expected: {}
";
    Test::new()
        .args(["vectors", "ocm", "-"])
        .stdin(file)
        .stdout(
            "<stdin>: sets (eligible_clustersets): clusterSets: got [\"b\"], want [\"a\"]
<stdin>: time (filter): the input does not decode: not a YYYY-MM-DDTHH:MM:SSZ time: \"not a time\"
<stdin>: nothing (eligible_clustersets): nothing expected
<stdin>: ocm: 3 vectors, 0 pass, 3 fail
",
        )
        .stderr("")
        .status(1)
        .run();
}

#[test]
fn counts_at_the_integers_edges_are_compared_never_a_panic() {
    // A vector file is input: upstream's Go wraps int32 counts and compares what it gets;
    // nothing here may overflow.
    let file = "vectors:
- id: obsolete
  kind: shouldDownscale
  input: {policy: {placementType: PickN, numberOfClusters: 1}, desired: 1, present: 2, obsolete: 18446744073709551615}
  expected: {act: true, count: 1}
- id: skew
  kind: tscWillViolate
  input: {counts: {a: 2147483647, b: -2147483648}, smallest: -2147483648, secondSmallest: 2147483647, largest: 2147483647, domain: a, maxSkew: 2147483647}
  expected: {violated: false, skewChange: 1}
";
    Test::new()
        .args(["vectors", "kubefleet", "-"])
        .stdin(file)
        .stdout("<stdin>: kubefleet: 2 vectors, 2 pass\n")
        .stderr("")
        .status(0)
        .run();
}
