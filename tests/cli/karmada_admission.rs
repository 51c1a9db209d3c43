//! What Karmada's admission refuses (the policy webhooks, the Cluster API's validation, the
//! CRD schemas, the API server for templates) is an error through the real binary, with
//! upstream's reason: one input per rule, built here, each otherwise valid.

use crate::common::{self, Test};

const SELECTOR: &str = "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]";

fn cluster(spec: &str) -> String {
    format!(
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {{name: member1}}\n\
         spec: {{syncMode: Push{spec}}}\n"
    )
}

fn deployment(spec: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web, namespace: shop}}\n\
         spec: {{template: {{spec: {{containers: [{{name: web, image: nginx}}]}}}}{spec}}}\n"
    )
}

fn policy(spec: &str) -> String {
    format!(
        "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n\
         metadata: {{name: p, namespace: shop}}\nspec: {{{spec}}}\n"
    )
}

/// `plan` of a Cluster, a Deployment and a policy: exit 1 with `error` about `document`
/// (`Kind/namespace/name: path: message`).
fn refused(objects: [String; 3], document: usize, error: &str) {
    Test::new()
        .args(["plan", "-f", "-"])
        .stdin(objects.join("---\n"))
        .stderr(format!("error: <stdin>#{document}: {error}\n"))
        .status(1)
        .run();
}

fn refused_policy(spec: &str, error: &str) {
    refused(
        [cluster(""), deployment(""), policy(spec)],
        3,
        &format!("PropagationPolicy/shop/p: {error}"),
    );
}

#[test]
fn the_base_case_plans() {
    Test::new()
        .args(["plan", "-f", "-"])
        .stdin([cluster(""), deployment(""), policy(SELECTOR)].join("---\n"))
        .stderr_contains("")
        .run();
}

#[test]
fn field_selector_keys_and_operators_are_the_webhooks() {
    for (placement, error) in [
        (
            "clusterAffinity: {fieldSelector: {matchExpressions: [{key: color, operator: In, values: [red]}]}}",
            "spec.placement.clusterAffinity.fieldSelector: unsupported key \"color\", must be provider, region, or zone",
        ),
        (
            "clusterAffinity: {fieldSelector: {matchExpressions: [{key: region, operator: Exists}]}}",
            "spec.placement.clusterAffinity.fieldSelector: unsupported operator \"Exists\", must be In or NotIn",
        ),
        (
            "clusterAffinities: [{affinityName: a, fieldSelector: {matchExpressions: [{key: '', operator: In}]}}]",
            "spec.placement.clusterAffinities[0].fieldSelector: unsupported key \"\", must be provider, region, or zone",
        ),
    ] {
        refused_policy(&format!("{SELECTOR}, placement: {{{placement}}}"), error);
    }
}

#[test]
fn affinity_names_are_label_keys_unique_with_their_overflow() {
    let dynamic = "replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {dynamicWeight: AvailableReplicas}}";
    for (terms, error) in [
        (
            "[{affinityName: 'not a key', clusterNames: [member1]}]",
            "spec.placement.clusterAffinities[0].affinityName: Invalid value: \"not a key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ),
        (
            "[{affinityName: '', clusterNames: [member1]}]",
            "spec.placement.clusterAffinities[0].affinityName: should be at least 1 chars long",
        ),
        (
            "[{affinityName: primary, clusterNames: [member1], overflowAffinities: [{affinityName: primary, clusterNames: [member1]}]}]",
            "spec.placement.clusterAffinities[0].overflowAffinities[0].affinityName: overflow affinity name must be unique and must not duplicate the primary group's affinityName",
        ),
        (
            "[{affinityName: primary, overflowAffinities: [{affinityName: spill, clusterNames: [member1]}]}]",
            "spec.placement.clusterAffinities[0].overflowAffinities: overflowAffinities can only be used together with the inline ClusterAffinity",
        ),
    ] {
        refused_policy(
            &format!("{SELECTOR}, placement: {{{dynamic}, clusterAffinities: {terms}}}"),
            error,
        );
    }
}

#[test]
fn toleration_operators_lt_and_gt_are_refused() {
    refused_policy(
        &format!("{SELECTOR}, placement: {{clusterTolerations: [{{key: tier, operator: Gt, value: '2'}}]}}"),
        "spec.placement.clusterTolerations[0].operator: Unsupported value: \"Gt\": supported values: \"\", \"Exists\", \"Equal\"",
    );
}

#[test]
fn resource_selectors_must_exist_and_stay_in_the_policys_namespace() {
    refused_policy(
        "resourceSelectors: []",
        "spec.resourceSelectors: should have at least 1 items, found 0",
    );
    refused_policy(
        "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: other, name: web}]",
        "spec.resourceSelectors[0].namespace: \"other\": namespace of resource selector must be the same as the namespace of the policy",
    );
}

#[test]
fn preemption_suspension_and_failover_combinations_are_the_webhooks() {
    for (spec, error) in [
        (
            "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}], preemption: Always",
            "spec.resourceSelectors[0].name: name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption",
        ),
        (
            "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}], preemption: Sometimes",
            "spec.preemption: Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\"",
        ),
        (
            "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}], suspension: {dispatching: true, dispatchingOnClusters: {clusterNames: [member1]}}",
            "spec.suspension: suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames",
        ),
        (
            "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}], failover: {application: {decisionConditions: {tolerationSeconds: 60}}}",
            "spec.propagateDeps: application failover is set, propagateDeps must be true",
        ),
        (
            "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}], propagateDeps: true, failover: {application: {decisionConditions: {tolerationSeconds: -1}}}",
            "spec.failover.application.decisionConditions.tolerationSeconds: Invalid value: -1: must be greater than or equal to 0",
        ),
        (
            "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}], propagateDeps: true, failover: {application: {decisionConditions: {}, purgeMode: Directly, gracePeriodSeconds: 30}}",
            "spec.failover.application.gracePeriodSeconds: Invalid value: 30: only takes effect when purgeMode is gracefully",
        ),
    ] {
        refused_policy(spec, error);
    }
}

#[test]
fn cluster_taints_and_locations_are_the_cluster_apis() {
    for (spec, error) in [
        (
            ", taints: [{key: dedicated, effect: PreferNoSchedule}]",
            "spec.taints[0].effect: Unsupported value: \"PreferNoSchedule\": supported values: \"NoSchedule\", \"NoExecute\"",
        ),
        (
            ", taints: [{key: dedicated, value: a, effect: NoSchedule}, {key: dedicated, value: b, effect: NoSchedule}]",
            "spec.taints[1]: Duplicate value: {key: \"dedicated\", effect: \"NoSchedule\"}: taints must be unique by key and effect pair",
        ),
        (
            ", region: 'us east'",
            "spec.region: Invalid value: \"us east\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ),
        (
            ", zone: a, zones: [b]",
            "spec: Zone and Zones cannot co-exist",
        ),
    ] {
        refused(
            [cluster(spec), deployment(""), policy(SELECTOR)],
            1,
            &format!("Cluster/member1: {error}"),
        );
    }
}

/// `ValidateClusterSpec`: `syncMode` is required and one of Pull, Push.
#[test]
fn cluster_sync_mode_is_required_and_push_or_pull() {
    for (spec, error) in [
        ("{}", "spec.syncMode: Required value"),
        ("{syncMode: ''}", "spec.syncMode: Required value"),
        (
            "{syncMode: push}",
            "spec.syncMode: Unsupported value: \"push\": supported values: \"Pull\", \"Push\"",
        ),
    ] {
        let member = format!(
            "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {{name: member1}}\nspec: {spec}\n"
        );
        refused(
            [member, deployment(""), policy(SELECTOR)],
            1,
            &format!("Cluster/member1: {error}"),
        );
    }
    let pull = cluster("").replace("syncMode: Push", "syncMode: Pull");
    Test::new()
        .args(["plan", "-f", "-"])
        .stdin([pull, deployment(""), policy(SELECTOR)].join("---\n"))
        .stderr_contains("")
        .run();
}

/// `ValidateCluster` runs `ValidateObjectMeta`: a label key that is no qualified name, or a
/// value that is no label value, is refused with apimachinery's message.
#[test]
fn cluster_labels_are_the_api_servers() {
    for (labels, error) in [
        (
            "{\"a b\": x}",
            "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ),
        (
            "{tier: \"gold\\u202Eevil\"}",
            "metadata.labels: Invalid value: \"gold\\u{202e}evil\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ),
    ] {
        let member = cluster("").replace(
            "metadata: {name: member1}",
            &format!("metadata: {{name: member1, labels: {labels}}}"),
        );
        refused(
            [member, deployment(""), policy(SELECTOR)],
            1,
            &format!("Cluster/member1: {error}"),
        );
    }
}

#[test]
fn negative_replicas_parallelism_and_requests_are_the_api_servers() {
    refused(
        [cluster(""), deployment(", replicas: -1"), policy(SELECTOR)],
        2,
        "Deployment/shop/web: spec.replicas: Invalid value: -1: must be greater than or equal to 0",
    );
    let requests =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n\
                    spec: {replicas: 1, template: {spec: {containers: [{name: web, image: nginx, \
                    resources: {requests: {cpu: '-1'}}}]}}}\n";
    refused(
        [cluster(""), requests.to_string(), policy(SELECTOR)],
        2,
        "Deployment/shop/web: spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
    );
    let job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: web, namespace: shop}\n\
               spec: {parallelism: -2, template: {spec: {containers: [{name: web, image: nginx}]}}}\n";
    refused(
        [
            cluster(""),
            job.to_string(),
            policy("resourceSelectors: [{apiVersion: batch/v1, kind: Job, name: web}]"),
        ],
        2,
        "Job/shop/web: spec.parallelism: Invalid value: -2: must be greater than or equal to 0",
    );
}

#[test]
fn check_reports_a_refused_policy_as_an_error() {
    let output = Test::new()
        .args(["check", "-f", "-"])
        .stdin([cluster(""), deployment(""), policy("resourceSelectors: []")].join("---\n"))
        .status(1)
        .run();
    let stdout = common::stdout(&output);
    assert!(
        stdout.contains(
            "PropagationPolicy/shop/p: spec.resourceSelectors: should have at least 1 items, found 0"
        ),
        "{stdout}"
    );
}
