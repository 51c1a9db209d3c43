//! A document of a kind fleetplan does not plan is still a Kubernetes object: its `metadata`
//! must have ObjectMeta's shape, as the API server decodes it for every kind.

use crate::common::{self, Test};

#[test]
fn an_unread_kind_with_metadata_of_the_wrong_shape_fails_check_and_plan() {
    for (metadata, error) in [
        (
            "[a]",
            "metadata: invalid type: sequence, expected a mapping",
        ),
        (
            "just a string",
            "metadata: invalid type: string \"just a string\", expected a mapping",
        ),
        (
            "{name: flags, labels: {tier: [1]}}",
            "metadata.labels.tier: invalid type: sequence, expected a string",
        ),
        (
            "{name: [flags]}",
            "metadata.name: invalid type: sequence, expected a string",
        ),
    ] {
        let document = format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {metadata}\n");
        let output = Test::new()
            .args(["check", "--manifests-only", "-f", "-"])
            .stdin(document.clone())
            .status(1)
            .run();
        let stdout = common::stdout(&output);
        assert!(
            stdout.starts_with(&format!("error: <stdin>#1: line 1: {error}\n")),
            "{stdout}"
        );
        Test::new()
            .args(["plan", "-f", "testdata/fleet", "-f", "-"])
            .stdin(document)
            .stderr(format!("error: <stdin>#1: {error}\n"))
            .status(1)
            .run();
    }
}

#[test]
fn an_unread_kind_with_well_shaped_metadata_is_skipped() {
    Test::new()
        .args(["plan", "-f", "testdata/fleet", "-f", "-"])
        .stdin("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags, labels: {tier: web}}\n")
        .stderr_contains("")
        .run();
}
