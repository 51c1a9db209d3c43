//! What upstream's API server and webhooks refuse of the objects around a placement, through
//! the real binary: MemberCluster taints (`pkg/utils/validator/membercluster.go`),
//! ClusterResourceOverride and ResourceOverride (the CRDs, `clusterresourceoverride.go`,
//! `resourceoverride.go`: selectors, placement refs, override rules, JSON patches, a resource
//! two overrides select) and staged update strategies (the CRD's limits and CEL rules), at
//! kubefleet-dev/kubefleet e160c1cdfdd9. Each refused object is an error with upstream's
//! message at the field it judged, and nothing is planned.

use crate::common::Test;

const EXAMPLE: &str = "testdata/kubefleet/example";
const NOW: &str = "2026-06-01T12:00:00Z";

/// The kind of a refused object: its manifest around the case's lines, and how errors name it.
#[derive(Clone, Copy)]
enum Kind {
    MemberCluster,
    ClusterResourceOverride,
    ResourceOverride,
    Strategy,
}

impl Kind {
    /// `(header, object)`: the manifest up to the case's lines, and the object errors name.
    fn parts(self) -> (&'static str, &'static str) {
        match self {
            Kind::MemberCluster => (
                "apiVersion: cluster.kubernetes-fleet.io/v1beta1
kind: MemberCluster
metadata: {name: member-x}
spec:
  identity: {kind: ServiceAccount, name: fleet-member-agent-sa, namespace: fleet-system}
  taints:
",
                "MemberCluster/member-x",
            ),
            Kind::ClusterResourceOverride => (
                "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterResourceOverride
metadata: {name: cro}
spec:
",
                "ClusterResourceOverride/cro",
            ),
            Kind::ResourceOverride => (
                "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ResourceOverride
metadata: {name: ro, namespace: shop}
spec:
",
                "ResourceOverride/shop/ro",
            ),
            Kind::Strategy => (
                "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateStrategy
metadata: {name: rings}
spec:
",
                "ClusterStagedUpdateStrategy/rings",
            ),
        }
    }
}

/// (what, the kind, the lines after its header, the error after `file#document: object: `).
const REFUSED: &[(&str, Kind, &str, &str)] = &[
    (
        "taint-effect",
        Kind::MemberCluster,
        r#"    - {key: dedicated, effect: NoExecute}
"#,
        r#"spec.taints[0].effect: Unsupported value: "NoExecute": supported values: "NoSchedule""#,
    ),
    (
        "taint-effect-missing",
        Kind::MemberCluster,
        r#"    - {key: dedicated}
"#,
        r#"spec.taints[0].effect: Required value"#,
    ),
    (
        "taint-key",
        Kind::MemberCluster,
        r#"    - {key: a/b/c, value: v, effect: NoSchedule}
"#,
        r#"spec.taints: invalid taint key {Key:a/b/c Value:v Effect:NoSchedule}: a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"#,
    ),
    (
        "taint-value",
        Kind::MemberCluster,
        r#"    - {key: dedicated, value: not valid, effect: NoSchedule}
"#,
        r#"spec.taints: invalid taint value {Key:dedicated Value:not valid Effect:NoSchedule}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"#,
    ),
    (
        "taint-duplicate",
        Kind::MemberCluster,
        r#"    - {key: dedicated, value: infra, effect: NoSchedule}
    - {key: dedicated, value: infra, effect: NoSchedule}
"#,
        r#"spec.taints: taint {Key:dedicated Value:infra Effect:NoSchedule} already exists, taints must be unique"#,
    ),
    (
        "cro-namespaced",
        Kind::ClusterResourceOverride,
        r#"  placement: {name: web, scope: Namespaced}
  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"Invalid value: "object": clusterResourceOverride placement reference cannot be Namespaced scope"#,
    ),
    (
        "cro-no-selectors",
        Kind::ClusterResourceOverride,
        r#"  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.clusterResourceSelectors: Required value"#,
    ),
    (
        "cro-label-selector",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, labelSelector: {matchLabels: {a: b}}}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.clusterResourceSelectors: label selector is not supported for resource selection {Group: Version:v1 Kind:Namespace Name: LabelSelector:&{…} SelectionScope:NamespaceWithResources}"#,
    ),
    (
        "cro-no-name",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.clusterResourceSelectors: resource name is required for resource selection {Group: Version:v1 Kind:Namespace Name: LabelSelector:<nil> SelectionScope:NamespaceWithResources}"#,
    ),
    (
        "cro-duplicate-selector",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.clusterResourceSelectors: resource selector {Group: Version:v1 Kind:Namespace Name:web LabelSelector:<nil> SelectionScope:NamespaceWithResources} already exists, and must be unique"#,
    ),
    (
        "ro-duplicate-selector",
        Kind::ResourceOverride,
        r#"  resourceSelectors:
    - {group: apps, version: v1, kind: Deployment, name: api}
    - {group: apps, version: v1, kind: Deployment, name: api}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.resourceSelectors: resource selector {Group:apps Version:v1 Kind:Deployment Name:api} already exists, and must be unique"#,
    ),
    (
        "ro-selector-no-name",
        Kind::ResourceOverride,
        r#"  resourceSelectors:
    - {group: apps, version: v1, kind: Deployment}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.resourceSelectors[0].name: Required value"#,
    ),
    (
        "cro-property-term",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector:
          clusterSelectorTerms:
            - propertySelector: {matchExpressions: [{name: kubernetes-fleet.io/node-count, operator: Gt, values: ['1']}]}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.policy.overrideRules: invalid clusterSelector {LabelSelector:<nil> PropertySelector:&{…} PropertySorter:<nil>}: only labelSelector is supported"#,
    ),
    (
        "cro-term-without-label-selector",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector:
          clusterSelectorTerms:
            - {}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.policy.overrideRules: invalid clusterSelector {LabelSelector:<nil> PropertySelector:<nil> PropertySorter:<nil>}: labelSelector is required"#,
    ),
    (
        "cro-bad-label-selector",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector:
          clusterSelectorTerms:
            - labelSelector: {matchExpressions: [{key: a, operator: In}]}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.policy.overrideRules: the labelSelector in cluster selector is invalid: values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"#,
    ),
    (
        "cro-delete-with-patches",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        overrideType: Delete
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.policy.overrideRules: invalid JSONPatchOverrides: JSONPatchOverrides cannot be set when the override type is Delete"#,
    ),
    (
        "cro-no-patches",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
"#,
        r#"spec.policy.overrideRules: invalid JSONPatchOverrides: JSONPatchOverrides cannot be empty"#,
    ),
    (
        "cro-empty-patches",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: []
"#,
        r#"spec.policy.overrideRules[0].jsonPatchOverrides: Invalid value: 0: spec.policy.overrideRules[0].jsonPatchOverrides in body should have at least 1 items"#,
    ),
    (
        "cro-patch-op",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: move, path: /spec/a}]
"#,
        r#"spec.policy.overrideRules[0].jsonPatchOverrides[0].op: Unsupported value: "move": supported values: "add", "remove", "replace""#,
    ),
    (
        "cro-patch-paths",
        Kind::ClusterResourceOverride,
        r#"  clusterResourceSelectors:
    - {group: "", version: v1, kind: Namespace, name: web}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides:
          - {op: replace, path: /kind, value: Secret}
          - {op: add, path: /metadata/name, value: {a: 1, b: [x]}}
          - {op: remove, path: /status/x}
          - {op: add, path: spec}
          - {op: remove, path: /spec/replicas, value: 3}
          - {op: add, path: /metadata}
          - {op: add, path: '/spec//a', value: 1}
"#,
        r#"spec.policy.overrideRules: [invalid JSONPatchOverride {replace /kind {"Secret"}}: cannot override typeMeta fields, invalid JSONPatchOverride {add /metadata/name {{"a":1,"b":["x"]}}}: cannot override metadata fields except annotations and labels, invalid JSONPatchOverride {remove /status/x {}}: cannot override status fields, invalid JSONPatchOverride {add spec {}}: path must start with /, invalid JSONPatchOverride {remove /spec/replicas {3}}: remove operation cannot have value, invalid JSONPatchOverride {add /metadata {}}: cannot override field metadata, invalid JSONPatchOverride {add /spec//a {1}}: path cannot contain empty string]"#,
    ),
    (
        "ro-too-many-terms",
        Kind::ResourceOverride,
        r#"  resourceSelectors:
    - {group: apps, version: v1, kind: Deployment, name: api}
  policy:
    overrideRules:
      - clusterSelector:
          clusterSelectorTerms: [{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}},{labelSelector: {}}]
        jsonPatchOverrides: [{op: add, path: /metadata/labels/a, value: b}]
"#,
        r#"spec.policy.overrideRules[0].clusterSelector.clusterSelectorTerms: Too many: 11: must have at most 10 items"#,
    ),
    (
        "ro-no-policy",
        Kind::ResourceOverride,
        r#"  resourceSelectors:
    - {group: apps, version: v1, kind: Deployment, name: api}
"#,
        r#"spec.policy: Required value"#,
    ),
    (
        "stage-name",
        Kind::Strategy,
        r#"  stages:
    - {name: Canary, labelSelector: {}}
"#,
        r#"spec.stages[0].name: Invalid value: "Canary": spec.stages[0].name in body should match '^[a-z0-9]+$'"#,
    ),
    (
        "stage-name-long",
        Kind::Strategy,
        r#"  stages:
    - {name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, labelSelector: {}}
"#,
        r#"spec.stages[0].name: Too long: may not be more than 63 bytes"#,
    ),
    (
        "stage-concurrency",
        Kind::Strategy,
        r#"  stages:
    - {name: canary, maxConcurrency: 0}
"#,
        r#"spec.stages[0].maxConcurrency: Invalid value: "": maxConcurrency must be at least 1"#,
    ),
    (
        "stage-concurrency-percent",
        Kind::Strategy,
        r#"  stages:
    - {name: canary, maxConcurrency: 150%}
"#,
        r#"spec.stages[0].maxConcurrency: Invalid value: "150%": spec.stages[0].maxConcurrency in body should match '^(100|[1-9][0-9]?)%$'"#,
    ),
    (
        "stage-after-approval-wait",
        Kind::Strategy,
        r#"  stages:
    - name: canary
      afterStageTasks: [{type: Approval, waitTime: 1h}]
"#,
        r#"spec.stages[0].afterStageTasks: Invalid value: "array": AfterStageTaskType is Approval, waitTime is not allowed"#,
    ),
    (
        "stage-after-timed-no-wait",
        Kind::Strategy,
        r#"  stages:
    - name: canary
      afterStageTasks: [{type: TimedWait}]
"#,
        r#"spec.stages[0].afterStageTasks: Invalid value: "array": AfterStageTaskType is TimedWait, waitTime is required"#,
    ),
    (
        "stage-before-timed",
        Kind::Strategy,
        r#"  stages:
    - name: canary
      beforeStageTasks: [{type: TimedWait, waitTime: 1h}]
"#,
        r#"spec.stages[0].beforeStageTasks: Invalid value: "array": BeforeStageTaskType cannot be TimedWait"#,
    ),
    (
        "stage-too-many-after",
        Kind::Strategy,
        r#"  stages:
    - name: canary
      afterStageTasks: [{type: Approval}, {type: TimedWait, waitTime: 1m}, {type: Approval}]
"#,
        r#"spec.stages[0].afterStageTasks: Too many: 3: must have at most 2 items"#,
    ),
    (
        "stage-task-type",
        Kind::Strategy,
        r#"  stages:
    - name: canary
      afterStageTasks: [{type: Wait}]
"#,
        r#"spec.stages[0].afterStageTasks[0].type: Unsupported value: "Wait": supported values: "TimedWait", "Approval""#,
    ),
    (
        "stage-wait-time",
        Kind::Strategy,
        r#"  stages:
    - name: canary
      afterStageTasks: [{type: TimedWait, waitTime: 1d}]
"#,
        r#"spec.stages[0].afterStageTasks[0].waitTime: Invalid value: "1d": spec.stages[0].afterStageTasks[0].waitTime in body should match '^(?:(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:s|m|h))+$'"#,
    ),
    (
        "stage-missing",
        Kind::Strategy,
        r#"  {}
"#,
        r#"spec.stages: Required value"#,
    ),
];

#[test]
fn each_object_upstream_refuses_is_an_error_with_upstreams_message() {
    for (what, kind, lines, error) in REFUSED {
        let (header, object) = kind.parts();
        eprintln!("{what}");
        Test::new()
            .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW])
            .stdin(format!("{header}{lines}"))
            .stdout("")
            .stderr(format!("error: <stdin>#1: {object}: {error}\n"))
            .status(1)
            .run();
    }
}

#[test]
fn an_override_selecting_what_another_already_selects_is_refused_and_not_applied() {
    // The example's ResourceOverride shop/api-replicas selects Deployment api first.
    let output = Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW, "rp/shop/api"])
        .stdin(
            "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ResourceOverride
metadata: {name: api-labels, namespace: shop}
spec:
  resourceSelectors:
    - {group: apps, version: v1, kind: Deployment, name: api}
  policy:
    overrideRules:
      - clusterSelector: {clusterSelectorTerms: []}
        jsonPatchOverrides: [{op: add, path: /metadata/labels/team, value: shop}]
",
        )
        .stderr("error: <stdin>#1: ResourceOverride/shop/api-labels: spec.resourceSelectors: invalid resource selector {Group:apps Version:v1 Kind:Deployment Name:api}: the resource has been selected by both api-labels and api-replicas, which is not supported\n")
        .status(1)
        .run();
    let plan = String::from_utf8_lossy(&output.stdout);
    assert!(!plan.contains("api-labels"), "{plan}");
}

#[test]
fn a_staged_update_run_upstream_refuses_is_an_error_with_upstreams_message() {
    let long = "r".repeat(64);
    let cases = [
        (
            "v1beta1",
            long.clone(),
            "{placementName: web, stagedRolloutStrategyName: rings}".to_string(),
            format!("error: <stdin>#1: ClusterStagedUpdateRun/{long}: Invalid value: \"object\": metadata.name max length is 63\n"),
        ),
        (
            "v1beta1",
            "run".to_string(),
            "{placementName: web, stagedRolloutStrategyName: rings, state: Pause}".to_string(),
            "error: <stdin>#1: ClusterStagedUpdateRun/run: spec.state: Unsupported value: \"Pause\": supported values: \"Initialize\", \"Run\", \"Stop\"\n".to_string(),
        ),
        (
            // Quoted as Go's `%q` quotes it (`\x01`), as the API server writes it.
            "v1beta1",
            "run".to_string(),
            "{placementName: web, stagedRolloutStrategyName: rings, state: \"Pa\\x01use\"}".to_string(),
            "error: <stdin>#1: ClusterStagedUpdateRun/run: spec.state: Unsupported value: \"Pa\\x01use\": supported values: \"Initialize\", \"Run\", \"Stop\"\n".to_string(),
        ),
        (
            "v1beta1",
            "run".to_string(),
            format!("{{placementName: {}, stagedRolloutStrategyName: rings}}", "p".repeat(256)),
            "error: <stdin>#1: ClusterStagedUpdateRun/run: spec.placementName: Too long: may not be more than 255 bytes\n".to_string(),
        ),
    ];
    for (version, name, spec, error) in cases {
        Test::new()
            .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW])
            .stdin(format!(
                "apiVersion: placement.kubernetes-fleet.io/{version}\nkind: ClusterStagedUpdateRun\nmetadata: {{name: {name}}}\nspec: {spec}\n"
            ))
            .stdout("")
            .stderr(error)
            .status(1)
            .run();
    }
    // v1alpha1 allows names of up to 127 bytes (and requires resourceSnapshotIndex).
    Test::new()
        .args(["check", "-f", EXAMPLE, "-f", "-", "--now", NOW])
        .stdin(format!(
            "apiVersion: placement.kubernetes-fleet.io/v1alpha1\nkind: ClusterStagedUpdateRun\nmetadata: {{name: {long}}}\nspec: {{placementName: web, resourceSnapshotIndex: \"0\", stagedRolloutStrategyName: rings}}\n"
        ))
        .status(3)
        .run();
}

#[test]
fn a_member_cluster_without_its_identity_is_refused_as_the_crd_refuses_it() {
    for (spec, error) in [
        ("spec: {}\n", "spec.identity: Required value"),
        (
            "spec: {identity: {kind: ServiceAccount}}\n",
            "spec.identity.name: Required value",
        ),
        ("", "spec: Required value"),
    ] {
        Test::new()
            .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW])
            .stdin(format!(
                "apiVersion: cluster.kubernetes-fleet.io/v1beta1\nkind: MemberCluster\nmetadata: {{name: member-x}}\n{spec}"
            ))
            .stdout("")
            .stderr(format!("error: <stdin>#1: MemberCluster/member-x: {error}\n"))
            .status(1)
            .run();
    }
}

/// Both versions' CRD: `size(self.metadata.name) < 64`, though the name is a DNS subdomain.
#[test]
fn a_member_cluster_named_past_63_bytes_is_refused_as_the_crd_refuses_it() {
    let spec = "spec: {identity: {kind: ServiceAccount, name: agent, namespace: fleet-system}}\n";
    let member = |version: &str, name: &str| {
        format!(
            "apiVersion: cluster.kubernetes-fleet.io/{version}\nkind: MemberCluster\nmetadata: {{name: {name}}}\n{spec}"
        )
    };
    let long = "m".repeat(64);
    for version in ["v1beta1", "v1"] {
        Test::new()
            .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW])
            .stdin(member(version, &long))
            .stdout("")
            .stderr(format!(
                "error: <stdin>#1: MemberCluster/{long}: Invalid value: \"object\": metadata.name max length is 63\n"
            ))
            .status(1)
            .run();
    }
    Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW, "-o", "json"])
        .stdin(member("v1beta1", &"m".repeat(63)))
        .stderr("")
        .run();
}

#[test]
fn every_schema_refusal_of_an_object_is_an_error_at_its_field() {
    // A MemberCluster (its labels, heartbeat period, identity and two taints), a strategy, an
    // override and a run, each refused for several reasons: every one is reported, at its
    // line, in the order the CRD's fields are checked.
    let cases = "testdata/kubefleet/cases/schema-refusals.yaml";
    let at = |document: usize, line: usize, object: &str, error: &str| {
        format!("error: {cases}#{document}: line {line}: {object}: {error}\n")
    };
    let member = "MemberCluster/member-x";
    let strategy = "ClusterStagedUpdateStrategy/rings";
    let cro = "ClusterResourceOverride/cro";
    let run = "ClusterStagedUpdateRun/rollout";
    let expected = [
        at(1, 7, member, "metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
        at(1, 9, member, "spec.heartbeatPeriodSeconds: Invalid value: 900: spec.heartbeatPeriodSeconds in body should be less than or equal to 600"),
        at(1, 3, member, "spec.identity.name: Required value"),
        at(1, 14, member, "spec.taints[0].effect: Unsupported value: \"NoExecute\": supported values: \"NoSchedule\""),
        at(1, 3, member, "spec.taints[1].key: Required value"),
        at(2, 23, strategy, "spec.stages[0].name: Invalid value: \"Canary\": spec.stages[0].name in body should match '^[a-z0-9]+$'"),
        at(2, 24, strategy, "spec.stages[0].maxConcurrency: Invalid value: \"\": maxConcurrency must be at least 1"),
        at(2, 27, strategy, "spec.stages[1].afterStageTasks[0].type: Unsupported value: \"Wait\": supported values: \"TimedWait\", \"Approval\""),
        at(3, 29, cro, "spec.clusterResourceSelectors[0].group: Required value"),
        at(3, 29, cro, "spec.clusterResourceSelectors[0].version: Required value"),
        at(3, 39, cro, "spec.policy.overrideRules[0].jsonPatchOverrides[0].op: Unsupported value: \"move\": supported values: \"add\", \"remove\", \"replace\""),
        // v1alpha1 requires resourceSnapshotIndex and has no `state` to refuse.
        at(4, 41, run, "spec.placementName: Required value"),
        at(4, 41, run, "spec.resourceSnapshotIndex: Required value"),
        at(4, 41, run, "spec.stagedRolloutStrategyName: Required value"),
    ]
    .concat();
    Test::new()
        .args(["check", "-f", EXAMPLE, "-f", cases, "--now", NOW])
        .stdout(format!("{expected}unsatisfied: testdata/kubefleet/example/placements.yaml#3: line 48: ClusterResourcePlacement/pinned: SchedulingPolicyUnfulfilled: could not find all clusters needed as specified by the scheduling policy, found 1 cluster(s) instead\n4 items checked: 14 errors, 1 unsatisfied\n"))
        .status(1)
        .run();
}

/// A placement's `spec.strategy.type` is the CRD's enum (`RollingUpdate`, `External`) of type
/// string, and `spec.policy.tolerations` holds at most 100 items (the CRD's `maxItems`): each
/// refusal is an error with the API server's message at its field.
#[test]
fn a_placement_s_strategy_type_and_toleration_count_are_admitted_as_the_crd_admits_them() {
    let placement = |lines: &str| {
        format!(
            "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterResourcePlacement\n\
             metadata: {{name: crp-x}}\nspec:\n  resourceSelectors: [{{group: \"\", version: v1, \
             kind: Namespace, name: shop}}]\n{lines}"
        )
    };
    for (lines, error) in [
        (
            "  strategy: {type: Bogus}\n",
            r#"spec.strategy.type: Unsupported value: "Bogus": supported values: "RollingUpdate", "External""#,
        ),
        (
            "  strategy: {type: 1}\n",
            r#"spec.strategy.type: Invalid value: "integer": spec.strategy.type in body must be of type string: "integer""#,
        ),
    ] {
        Test::new()
            .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW])
            .stdin(placement(lines))
            .stdout("")
            .stderr(format!(
                "error: <stdin>#1: ClusterResourcePlacement/crp-x: {error}\n"
            ))
            .status(1)
            .run();
    }
    let tolerations = |count: usize| {
        let items: String = (0..count)
            .map(|index| format!("    - {{key: k{index}, operator: Exists}}\n"))
            .collect();
        placement(&format!(
            "  policy:\n    placementType: PickAll\n    tolerations:\n{items}"
        ))
    };
    Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW, "-o", "name"])
        .stdin(tolerations(101))
        .stderr(
            "error: <stdin>#1: ClusterResourcePlacement/crp-x: spec.policy.tolerations: Too many: \
             101: must have at most 100 items\n",
        )
        .status(1)
        .run();
    Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW, "-o", "name"])
        .stdin(tolerations(100))
        .stderr("")
        .run();
}

/// A ClusterResourcePlacement `crp-x` of placement.kubernetes-fleet.io/VERSION whose
/// `spec.policy` is `policy` (its lines, indented 4).
fn crp_x(version: &str, policy: &str) -> String {
    format!(
        "apiVersion: placement.kubernetes-fleet.io/{version}
kind: ClusterResourcePlacement
metadata: {{name: crp-x}}
spec:
  resourceSelectors: [{{group: \"\", version: v1, kind: Namespace, name: shop}}]
  policy:
{policy}"
    )
}

/// `crp-x`, a PickN of 1 whose `clusterAffinity` is `affinity` (its lines, indented 8), and
/// whatever follows it in the policy.
fn pick_n_affinity(version: &str, affinity: &str) -> String {
    crp_x(
        version,
        &format!(
            "    placementType: PickN
    numberOfClusters: 1
    affinity:
      clusterAffinity:
{affinity}"
        ),
    )
}

/// Plans `placement` (the ClusterResourcePlacement `crp-x`) beside the example: refused by
/// the webhook with `messages`, aggregated as `utilerrors.NewAggregate` prints several.
fn refused_by_the_webhook(placement: &str, messages: &[&str]) {
    Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW, "-o", "name"])
        .stdin(placement)
        .stderr(format!(
            "error: <stdin>#1: ClusterResourcePlacement/crp-x: the placement policy field is \
             invalid: [{}]\n",
            messages.join(", ")
        ))
        .status(1)
        .run();
}

/// The webhook's property-requirement messages are `validatePropertySelectorRequirements`'
/// (`pkg/utils/validator/placement.go` at e160c1cdfdd9): per requirement, its name, then
/// `invalid requirement on property X:` with the first fault of its operator and value; then,
/// per property with several requirements, `inconsistent requirements on property X:` with the
/// first contradiction only; all aggregated as `utilerrors.NewAggregate` prints them.
#[test]
fn property_requirements_are_refused_with_the_webhook_s_messages_in_its_order() {
    let placement = pick_n_affinity(
        "v1beta1",
        "        requiredDuringSchedulingIgnoredDuringExecution:
          clusterSelectorTerms:
            - propertySelector:
                matchExpressions:
                  - {name: cpu, operator: Gte, values: [\"x\"]}
                  - {name: cpu, operator: Eq, values: []}
                  - {name: cpu, operator: Eq, values: [\"y\"]}
                  - {name: nodes, operator: Eq, values: [\"5\"]}
                  - {name: nodes, operator: Eq, values: [\"6\"]}
                  - {name: nodes, operator: Lt, values: [\"1\"]}
                  - {name: zones, operator: Gt, values: [\"5\"]}
                  - {name: zones, operator: Lt, values: [\"3\"]}
                  - {name: zones, operator: Eq, values: [\"4\"]}
",
    );
    let messages = [
        "invalid requirement on property cpu: unsupported operator Gte",
        "invalid requirement on property cpu: operator Eq requires exactly one value, got 0",
        "invalid requirement on property cpu: value \"y\" is not a valid resource.Quantity: \
         quantities must match the regular expression \
         '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        "inconsistent requirements on property nodes: conflicting Eq values 5 and 6",
        "inconsistent requirements on property zones: lower bound (5) and upper bound (3) \
         exclude all values",
    ];
    refused_by_the_webhook(&placement, &messages);
}

/// The CRD's `required` lists under `spec.policy` (v1 and v1beta1 alike): a preferred term
/// without `weight` or `preference`, a property sorter without `sortOrder` or `name`, a
/// property selector without `matchExpressions`, an expression without `operator` or `values`,
/// a spread constraint without `topologyKey` are refused by the API server, each at its field
/// (`Required value`, not also judged by the enum the default would fail); nothing defaults
/// them.
#[test]
fn a_policy_missing_a_field_the_crd_requires_is_refused_at_that_field() {
    let placement = pick_n_affinity(
        "v1",
        "        requiredDuringSchedulingIgnoredDuringExecution:
          clusterSelectorTerms:
            - propertySelector: {}
            - propertySelector:
                matchExpressions:
                  - {name: cpu}
        preferredDuringSchedulingIgnoredDuringExecution:
          - preference:
              propertySorter: {name: kubernetes-fleet.io/node-count}
          - weight: 10
          - weight: 5
            preference:
              propertySorter: {}
    topologySpreadConstraints:
      - {maxSkew: 1}
",
    );
    let at = "spec.policy.affinity.clusterAffinity";
    let required = "requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms";
    let preferred = "preferredDuringSchedulingIgnoredDuringExecution";
    let fields = [
        format!("{at}.{required}[0].propertySelector.matchExpressions"),
        format!("{at}.{required}[1].propertySelector.matchExpressions[0].operator"),
        format!("{at}.{required}[1].propertySelector.matchExpressions[0].values"),
        format!("{at}.{preferred}[0].weight"),
        format!("{at}.{preferred}[0].preference.propertySorter.sortOrder"),
        format!("{at}.{preferred}[1].preference"),
        format!("{at}.{preferred}[2].preference.propertySorter.name"),
        format!("{at}.{preferred}[2].preference.propertySorter.sortOrder"),
        "spec.policy.topologySpreadConstraints[0].topologyKey".to_string(),
    ];
    let stderr: String = fields
        .iter()
        .map(|field| {
            format!("error: <stdin>#1: ClusterResourcePlacement/crp-x: {field}: Required value\n")
        })
        .collect();
    Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "-", "--now", NOW, "-o", "name"])
        .stdin(placement)
        .stderr(stderr)
        .status(1)
        .run();
}

/// The webhook's toleration messages are `validateTolerations`' (`pkg/utils/validator/
/// placement.go` at e160c1cdfdd9): each names the whole toleration as Go's `%+v` prints it,
/// one message per fault of its key (`IsQualifiedName`) or, with `Equal`, of its value
/// (`IsValidLabelValue`), then a repeated toleration.
#[test]
fn tolerations_are_refused_with_the_webhook_s_messages() {
    let long = format!("{}!", "k".repeat(63));
    let placement = crp_x(
        "v1beta1",
        &format!(
            "    placementType: PickAll
    tolerations:
      - {{key: {long}, operator: Exists}}
      - {{key: dedicated, value: \"-v-\", effect: NoSchedule}}
      - {{key: dedicated, value: \"-v-\", effect: NoSchedule}}
"
        ),
    );
    let name = "name part must consist of alphanumeric characters, '-', '_' or '.', and must \
                start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  \
                or '123-abc', regex used for validation is \
                '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let value = "a valid label must be an empty string or consist of alphanumeric characters, \
                 '-', '_' or '.', and must start and end with an alphanumeric character (e.g. \
                 'MyValue',  or 'my_value',  or '12345', regex used for validation is \
                 '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    let first = format!("{{Key:{long} Operator:Exists Value: Effect:}}");
    let second = "{Key:dedicated Operator:Equal Value:-v- Effect:NoSchedule}";
    let messages = [
        format!("invalid toleration key {first}: name part must be no more than 63 bytes"),
        format!("invalid toleration key {first}: {name}"),
        format!("invalid toleration value {second}: {value}"),
        format!("toleration {second} already exists, tolerations must be unique"),
    ];
    let messages: Vec<&str> = messages.iter().map(String::as_str).collect();
    refused_by_the_webhook(&placement, &messages);
}

/// `validatePolicyForPickFixedPlacementType` (`pkg/utils/validator/placement.go` at
/// e160c1cdfdd9): a name past 63 characters is refused with a message of its own, after the
/// name's DNS-1123 subdomain faults (was: folded into them as "must be no more than 63
/// characters").
#[test]
fn a_pick_fixed_name_past_63_characters_is_refused_with_the_webhook_s_own_message() {
    let long = "m".repeat(64);
    let bad = format!("{}_", "m".repeat(63));
    let placement = crp_x(
        "v1beta1",
        &format!(
            "    placementType: PickFixed
    clusterNames: [{long}, {bad}]
"
        ),
    );
    let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
                     characters, '-' or '.', and must start and end with an alphanumeric \
                     character (e.g. 'example.com', regex used for validation is \
                     '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let messages = [
        format!("PickFixed cluster name {long} cannot have length exceeding 63"),
        format!("PickFixed cluster name {bad} is not a valid member name: {subdomain}"),
        format!("PickFixed cluster name {bad} cannot have length exceeding 63"),
    ];
    let messages: Vec<&str> = messages.iter().map(String::as_str).collect();
    refused_by_the_webhook(&placement, &messages);
}
