//! A CEL expression cel-go's checker refuses (an undeclared function, an operator no overload
//! takes) makes the Placement Misconfigured, as on the hub, instead of silently matching no
//! cluster.

use crate::common::Test;

fn placement(expression: &str) -> String {
    format!(
        "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n\
         metadata: {{name: cel, namespace: shop}}\nspec:\n  clusterSets: [prod]\n  \
         predicates:\n  - requiredClusterSelector:\n      celSelector:\n        \
         celExpressions: [{expression:?}]\n"
    )
}

fn misconfigured(expression: &str, message: &str) {
    Test::new()
        .args(["plan", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/fleet/clustersets.yaml", "-f", "-"])
        .stdin(placement(expression))
        .stderr_contains(format!(
            "Placement/shop/cel: PlacementMisconfigured: Predicate:compilation failed: {message}"
        ))
        .status(1)
        .run();
}

#[test]
fn an_operator_no_overload_takes_is_misconfigured() {
    misconfigured(
        "'a' * 3",
        "ERROR: <input>:1:5: found no matching overload for '_*_' applied to '(string, int)'\n | 'a' * 3\n | ....^",
    );
    misconfigured(
        "managedCluster.metadata.name == 'a' && 1 + 'b' == 2",
        "ERROR: <input>:1:42: found no matching overload for '_+_' applied to '(int, string)'",
    );
    misconfigured(
        "managedCluster.metadata.name == 'a' || 'abc'.startsWith(1)",
        "ERROR: <input>:1:56: found no matching overload for 'startsWith' applied to 'string.(int)'",
    );
    misconfigured(
        "-'a' == 'b'",
        "ERROR: <input>:1:1: found no matching overload for '-_' applied to '(string)'",
    );
}

#[test]
fn an_undeclared_function_is_misconfigured() {
    misconfigured(
        "frobnicate(managedCluster.metadata.name)",
        "ERROR: <input>:1:11: undeclared reference to 'frobnicate' (in container '')",
    );
    misconfigured(
        "managedCluster.metadata.name.shout() == 'A'",
        "ERROR: <input>:1:35: undeclared reference to 'shout' (in container '')",
    );
}

#[test]
fn declared_functions_and_dynamic_operands_still_compile() {
    // Each expression with a cluster it must select: compiling is not enough, an expression
    // that silently matched nothing would also read `Succeedconfigured`.
    for (expression, selected) in [
        (
            "managedCluster.metadata.name.startsWith('gcp') && size(managedCluster.metadata.labels) > 0",
            "gcp-eu-central-prod-1",
        ),
        (
            "managedCluster.metadata.labels['cloud'] + '-x' == 'aws-x'",
            "aws-eu-west-prod-1",
        ),
        // OCM's environment declares cel-go's optional types (sdk-go `BaseEnvOpts`:
        // `cel.OptionalTypes()`): the functions, the syntax and the macros evaluate.
        (
            "optional.of(1).hasValue() && int('3') * 2 == 6 && 2.0 > 1.0 && \
             managedCluster.metadata.labels[?'cloud'].orValue('none') == 'gcp' && \
             managedCluster.?metadata.?name.optMap(n, n + '!').value() == 'gcp-eu-central-prod-1!'",
            "gcp-eu-central-prod-1",
        ),
        (
            "[?optional.none(), ?optional.of(1)] == [1] && {?'a': optional.none()}.size() == 0 && \
             !optional.ofNonZeroValue(0).hasValue() && \
             managedCluster.?metadata.?labels.?cloud.orValue('') == 'aws' && \
             strings.quote('a\"b') == '\"a\\\\\"b\"' && ip.isCanonical('2001:db8::abcd') && \
             !ip.isCanonical('2001:DB8::ABCD')",
            "aws-eu-west-prod-1",
        ),
    ] {
        let output = Test::new()
            .args(["plan", "-o", "json", "-f", "testdata/fleet/inventory.yaml"])
            .args(["-f", "testdata/fleet/clustersets.yaml", "-f", "-"])
            .stdin(placement(expression))
            .stderr_contains("")
            .run();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.contains("\"reason\": \"Succeedconfigured\""),
            "{expression}: {text}"
        );
        assert!(
            text.contains(&format!("\"{selected}\"")),
            "{expression} does not select {selected}: {text}"
        );
    }
}

/// cel-go's checker binds `==`'s, `!=`'s and the ternary's operands to one type, and indexes
/// lists by int and maps by their key type: nothing converts implicitly (`dyn(1) == 1.0` is
/// how CEL compares across types), and OCM's environment does not enable
/// `CrossTypeNumericComparisons`, so `2.0 > 1` is refused too.
#[test]
fn mismatched_operands_of_equality_ternary_and_index_are_misconfigured() {
    misconfigured(
        "managedCluster.metadata.name == 'a' || 1 == 1.0",
        "ERROR: <input>:1:42: found no matching overload for '_==_' applied to '(int, double)'",
    );
    misconfigured(
        "managedCluster.metadata.name != 'a' && [1] != ['a']",
        "ERROR: <input>:1:44: found no matching overload for '_!=_' applied to '(list(int), list(string))'",
    );
    misconfigured(
        "(managedCluster.metadata.name == 'a' ? 1 : 'b') == 1",
        "ERROR: <input>:1:38: found no matching overload for '_?_:_' applied to '(bool, int, string)'",
    );
    misconfigured(
        "managedCluster[0] == 1",
        "ERROR: <input>:1:15: found no matching overload for '_[_]' applied to '(map(string, dyn), int)'",
    );
    misconfigured(
        "[1, 2]['a'] == 1",
        "ERROR: <input>:1:7: found no matching overload for '_[_]' applied to '(list(int), string)'",
    );
    misconfigured(
        "int('3') * 2 == 6 && 2.0 > 1 && optional.of(1).hasValue()",
        "ERROR: <input>:1:26: found no matching overload for '_>_' applied to '(double, int)'",
    );
    misconfigured(
        "managedCluster.metadata.name == 'x' || 1",
        "ERROR: <input>:1:40: expected type 'bool' but found 'int'",
    );
}
