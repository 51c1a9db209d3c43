//! Objects Karmada's resource detector never propagates (reserved and `kube-*` namespaces,
//! Events, Leases, Karmada's own API groups, templates another controller claims) are not
//! planned onto members, and the plan says why.

use crate::common::{self, Test};

const CLUSTER: &str = "apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
spec: {syncMode: Push}
status:
  apiEnablements:
  - {groupVersion: apps/v1, resources: [{kind: Deployment, name: deployments}]}
  - {groupVersion: v1, resources: [{kind: Event, name: events}, {kind: ConfigMap, name: configmaps}]}
  - {groupVersion: coordination.k8s.io/v1, resources: [{kind: Lease, name: leases}]}
";

const POLICY: &str = "apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: everything}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  - {apiVersion: v1, kind: Event}
  - {apiVersion: v1, kind: ConfigMap}
  - {apiVersion: coordination.k8s.io/v1, kind: Lease}
";

fn object(api_version: &str, kind: &str, namespace: &str, extra: &str) -> String {
    format!(
        "apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: x, namespace: {namespace}{extra}}}\n"
    )
}

#[test]
fn objects_the_detector_filters_out_are_not_planned_and_say_why() {
    let documents = [
        CLUSTER.to_string(),
        POLICY.to_string(),
        object("apps/v1", "Deployment", "shop", ""),
        object("apps/v1", "Deployment", "kube-system", ""),
        object("apps/v1", "Deployment", "karmada-system", ""),
        object("apps/v1", "Deployment", "karmada-cluster", ""),
        object("apps/v1", "Deployment", "karmada-es-member1", ""),
        object("v1", "Event", "shop", ""),
        object("coordination.k8s.io/v1", "Lease", "shop", ""),
        object(
            "v1",
            "ConfigMap",
            "shop",
            ", labels: {resourcetemplate.karmada.io/claimed-by: MultiClusterService}",
        ),
    ];
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", "-"])
        .stdin(documents.join("---\n"))
        .stderr_contains("")
        .run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let placed: Vec<String> = plan["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|item| item["clusters"].as_array().is_some_and(|c| !c.is_empty()))
        .map(|item| format!("{}/{}", item["source"]["kind"], item["source"]["namespace"]))
        .collect();
    assert_eq!(placed, ["\"Deployment\"/\"shop\""]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    for (document, object, why) in [
        (4, "Deployment/kube-system/x", "namespace kube-system matches kube-.* (--skipped-propagating-namespaces default): the resource detector ignores its objects"),
        (5, "Deployment/karmada-system/x", "namespace karmada-system is reserved by Karmada: the resource detector ignores its objects"),
        (6, "Deployment/karmada-cluster/x", "namespace karmada-cluster is reserved by Karmada: the resource detector ignores its objects"),
        (7, "Deployment/karmada-es-member1/x", "namespace karmada-es-member1 is reserved by Karmada: the resource detector ignores its objects"),
        (8, "Event/shop/x", "the resource detector does not watch v1/Event (--skipped-propagating-apis defaults)"),
        (9, "Lease/shop/x", "the resource detector does not watch coordination.k8s.io/v1/Lease (--skipped-propagating-apis defaults)"),
        (10, "ConfigMap/shop/x", "label resourcetemplate.karmada.io/claimed-by=MultiClusterService: another controller owns the template, the resource detector leaves it alone"),
    ] {
        let line = format!("warning: <stdin>#{document}: {object}: not propagated: {why}\n");
        assert!(stderr.contains(&line), "{line}\n{stderr}");
    }
}

#[test]
fn check_says_why_an_object_was_not_propagated() {
    let documents = [
        CLUSTER.to_string(),
        POLICY.to_string(),
        object("apps/v1", "Deployment", "kube-system", ""),
    ];
    let output = Test::new()
        .args(["check", "-f", "-"])
        .stdin(documents.join("---\n"))
        .stderr_contains("")
        .run();
    let text = common::stdout(&output) + &String::from_utf8_lossy(&output.stderr);
    assert!(
        text.contains(
            "Deployment/kube-system/x: not propagated: namespace kube-system matches kube-.*"
        ),
        "{text}"
    );
}
