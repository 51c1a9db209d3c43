//! Outputs that CI reads stay within what CI takes: a `diff -o markdown` comment under
//! GitHub's 65,536 characters, and stderr a bounded number of errors per input file.

use std::fmt::Write as _;

use crate::common::{self, Test, ONE_BOUND_CLUSTER};

#[test]
fn a_markdown_diff_of_thousands_of_items_fits_a_comment_and_says_where_the_rest_is() {
    let dir = common::tempdir();
    let mut inputs = ONE_BOUND_CLUSTER.to_string();
    for n in 0..2_000 {
        let _ = write!(
            inputs,
            "---\napiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n\
             metadata: {{name: placement-{n}, namespace: ns}}\nspec: {{}}\n"
        );
    }
    let input = dir.path().join("in.yaml");
    common::write(&input, &inputs);
    let input = input.display().to_string();
    let plan = Test::new().args(["plan", "-f", &input, "-o", "yaml"]).run();
    // The previous plan had every item on another cluster: 2,000 items changed.
    let previous = common::stdout(&plan).replace("- east\n", "- west\n");
    let previous_path = dir.path().join("plan.yaml");
    common::write(&previous_path, &previous);
    let output = Test::new()
        .args(["diff", "-f", &input, "-o", "markdown"])
        .args(["--previous", &previous_path.display().to_string()])
        .status(2)
        .run();
    let comment = common::stdout(&output);
    assert!(
        comment.chars().count() <= 65_536,
        "{} characters",
        comment.chars().count()
    );
    assert!(comment.starts_with("### fleetplan diff: 2000 changed, 0 added, 0 removed, 0 errors\n"));
    assert!(
        comment.contains("**This diff is cut to fit a comment**")
            && comment.contains("The whole diff is what `fleetplan diff` prints"),
        "{comment}"
    );
}

#[test]
fn stderr_shows_at_most_one_hundred_errors_per_file_and_counts_the_rest() {
    let broken: String = (0..300)
        .map(|n| {
            format!(
                "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{n}, namespace: [x]}}\n"
            )
        })
        .collect();
    let output = Test::new()
        .args(["plan", "-f", "-"])
        .stdin(broken)
        .stderr_contains(
            "error: <stdin>: 200 more errors not shown (the first 100 of each file are)\n",
        )
        .status(1)
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 101, "{stderr}");
}

/// The cap holds for every error and warning printed about an object, not only for documents
/// that do not load: 150 Placements that are Misconfigured print 100 errors and a count.
#[test]
fn stderr_caps_item_errors_per_file() {
    let mut inputs = ONE_BOUND_CLUSTER.to_string();
    for n in 0..150 {
        let _ = write!(
            inputs,
            "---\napiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n\
             metadata: {{name: p{n}, namespace: ns}}\nspec:\n  predicates:\n  \
             - requiredClusterSelector: {{celSelector: {{celExpressions: ['nope()']}}}}\n"
        );
    }
    let output = Test::new()
        .args(["plan", "-f", "-"])
        .stdin(inputs)
        .stderr_contains(
            "error: <stdin>: 50 more errors not shown (the first 100 of each file are)\n",
        )
        .status(1)
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(errors.len(), 101, "{stderr}");
    assert!(
        errors[..100]
            .iter()
            .all(|line| line.starts_with("error: <stdin>#")
                && line.contains("PlacementMisconfigured")),
        "{stderr}"
    );
}

/// And for warnings, counted apart from errors: 150 inventory clusters whose label value
/// Kubernetes would refuse warn 100 times, then say how many more there are.
#[test]
fn stderr_caps_warnings_per_file() {
    let mut inventory = String::from(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\nclusters:\n",
    );
    for n in 0..150 {
        let _ = writeln!(inventory, "  - {{name: c{n}, labels: {{tier: 'a b'}}}}");
    }
    let output = Test::new()
        .args(["select", "-f", "-"])
        .stdin(inventory)
        .stderr_contains(
            "warning: <stdin>: 50 more warnings not shown (the first 100 of each file are)\n",
        )
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 101, "{stderr}");
    assert!(
        stderr
            .lines()
            .all(|line| line.starts_with("warning: <stdin>")),
        "{stderr}"
    );
}
