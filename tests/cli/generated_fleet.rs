//! `genfleet`, the benchmark fleet generator, run as a user runs it, and its output planned by
//! the real binary: the same fleet written as a ClusterInventory (JSON and YAML, `--format
//! both`) and as ManagedClusters (`--clusters-as managedcluster`) plans identically, so the
//! benchmarks measure inputs the loaders agree on.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{self, Test};

/// `cargo test` builds the examples beside the test binaries: `target/<profile>/examples/`.
fn genfleet() -> PathBuf {
    example("genfleet")
}

fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_else(|error| panic!("{error}"));
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .unwrap_or_else(|| panic!("{}: no target directory", exe.display()));
    let genfleet = profile
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        genfleet.exists(),
        "{} is not built: a whole `cargo test` builds the examples (a single `--test` does not; \
         `cargo build --example {name}` first)",
        genfleet.display()
    );
    genfleet
}

fn generate(out: &Path, extra: &[&str]) {
    generate_sized(out, ("600", "150"), extra);
}

/// [`generate`] with `(clusters, placements)`.
fn generate_sized(out: &Path, (clusters, placements): (&str, &str), extra: &[&str]) {
    let status = Command::new(genfleet())
        .args([
            "--clusters",
            clusters,
            "--placements",
            placements,
            "--replica-workloads",
            "0",
        ])
        .args(["--seed", "7", "--out"])
        .arg(out)
        .args(extra)
        .status()
        .unwrap_or_else(|error| panic!("genfleet: {error}"));
    assert!(status.success(), "genfleet {extra:?}: {status}");
}

/// `plan -o json` of the generated `dir` at `--now 2026-06-01T00:00:00Z`.
fn plan(dir: &Path) -> String {
    plan_at(dir, "2026-06-01T00:00:00Z")
}

fn plan_at(dir: &Path, now: &str) -> String {
    let dir = dir.to_string_lossy();
    let output = Test::new()
        .args(["plan", "-f", &dir, "-o", "json", "--now", now])
        .run();
    common::stdout(&output)
}

#[test]
fn a_generated_fleet_plans_alike_as_inventory_json_yaml_and_managed_clusters() {
    let root = common::tempdir();
    let inventory = root.path().join("inventory");
    let managed = root.path().join("managed");
    generate(&inventory, &["--format", "both"]);
    generate(
        &managed,
        &["--format", "json", "--clusters-as", "managedcluster"],
    );
    let inventory_json = plan(&inventory.join("json"));
    // 150 placements, each one item; most select clusters.
    assert_eq!(
        inventory_json.matches("\"kind\": \"Placement\"").count(),
        150
    );
    assert!(inventory_json.matches("cluster-").count() > 1000);
    assert_eq!(inventory_json, plan(&inventory.join("yaml")));
    assert_eq!(inventory_json, plan(&managed));
}

/// A JSON inventory over a megabyte, the one item of its List, has its fields read in the
/// walk that splits the List; after a small item it is walked again when checked. Either way
/// it plans as its YAML does.
#[test]
fn a_large_json_inventory_in_a_list_plans_as_its_yaml() {
    let root = common::tempdir();
    generate_sized(root.path(), ("3000", "20"), &["--format", "both"]);
    let json = root.path().join("json");
    let expected = plan(&root.path().join("yaml"));
    assert!(expected.matches("cluster-").count() > 100);
    let fleet = json.join("fleet.json");
    let text = std::fs::read_to_string(&fleet).unwrap_or_else(|error| panic!("{error}"));
    assert!(text.len() > 1 << 20, "{} bytes", text.len());
    assert!(text.starts_with(r#"{"apiVersion":"v1","items":[{"#));
    assert_eq!(plan(&json), expected);
    let small = r#"{"apiVersion":"example.com/v1","kind":"Note","metadata":{"name":"first"}},"#;
    common::write(
        &fleet,
        &text.replacen("\"items\":[", &format!("\"items\":[{small}"), 1),
    );
    assert_eq!(plan(&json), expected);
}

#[test]
fn genfleet_refuses_an_unknown_cluster_kind() {
    let root = common::tempdir();
    let output = Command::new(genfleet())
        .args(["--clusters-as", "fleet", "--out"])
        .arg(root.path())
        .output()
        .unwrap_or_else(|error| panic!("genfleet: {error}"));
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "genfleet: --clusters-as: expected inventory, managedcluster, karmada or kubefleet, found \"fleet\"\n"
    );
}

/// KubeFleet's mix (`just scale`'s `kubefleet` input, at 10k × 10k there): MemberClusters
/// the hub admits and ClusterResourcePlacements of every placement type, planned at the
/// time their heartbeats are set against.
#[test]
fn the_kubefleet_mix_plans_every_placement_over_its_member_clusters() {
    let root = common::tempdir();
    generate(
        root.path(),
        &["--clusters-as", "kubefleet", "--format", "json"],
    );
    let text = plan_at(root.path(), "2026-01-02T00:00:00Z");
    assert_eq!(
        text.matches("\"kind\": \"ClusterResourcePlacement\"")
            .count(),
        150,
        "{text}"
    );
    let workloads = std::fs::read_to_string(root.path().join("workloads.json"))
        .unwrap_or_else(|error| panic!("workloads.json: {error}"));
    for placement_type in ["PickAll", "PickN", "PickFixed"] {
        assert!(
            workloads.contains(&format!("\"placementType\":\"{placement_type}\"")),
            "{placement_type}"
        );
    }
    // Most placements land somewhere: 10% of the generated fleet is tainted or stale.
    assert!(text.matches("member-").count() > 1000, "{text}");
}

/// The Karmada mix: every generated Deployment is claimed by its group's policy and checks.
#[test]
fn the_karmada_mix_plans_every_deployment_with_its_policy() {
    let root = common::tempdir();
    let status = Command::new(genfleet())
        .args([
            "--clusters",
            "300",
            "--placements",
            "0",
            "--replica-workloads",
            "0",
            "--karmada-workloads",
            "50",
            "--clusters-as",
            "karmada",
            "--format",
            "json",
            "--out",
        ])
        .arg(root.path())
        .status()
        .unwrap_or_else(|error| panic!("genfleet: {error}"));
    assert!(status.success());
    let dir = root.path().display().to_string();
    Test::new()
        .args(["check", "-f", &dir])
        .stdout("50 items checked, all satisfied\n")
        .stderr_contains("")
        .run();
    let output = Test::new()
        .args(["plan", "-f", &dir, "-o", "json"])
        .stderr_contains("")
        .run();
    let text = common::stdout(&output);
    for group in 0..5 {
        assert!(
            text.contains(&format!(
                "PropagationPolicy/team-{group:02}/group-{group:05}"
            )),
            "group {group} is not claimed"
        );
    }
}

/// `--policies N`: the i-th Policy lands exactly where the i-th Placement does, and the rest
/// of the mix is unchanged (the benchmark compares the two runs).
#[test]
fn generated_policies_land_where_their_placements_do() {
    let root = common::tempdir();
    let (plain, with_policies) = (root.path().join("plain"), root.path().join("policies"));
    generate(&plain, &["--format", "json"]);
    generate(&with_policies, &["--format", "json", "--policies", "150"]);
    let text = plan(&with_policies);
    let plan: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let items = plan["items"].as_array().cloned().unwrap_or_default();
    let clusters = |kind: &str, name: &str| {
        items
            .iter()
            .find(|item| item["source"]["kind"] == kind && item["source"]["name"] == name)
            .map(|item| item["clusters"].clone())
    };
    for i in 0..150 {
        let placement = clusters("Placement", &format!("placement-{i:05}"));
        assert!(placement.is_some(), "placement-{i:05}");
        assert_eq!(
            clusters("Policy", &format!("policy-{i:05}")),
            placement,
            "policy-{i:05}"
        );
    }
    let placements_only: Vec<&serde_json::Value> = items
        .iter()
        .filter(|item| item["source"]["kind"] != "Policy")
        .collect();
    let plain: serde_json::Value = serde_json::from_str(&self::plan(&plain)).unwrap_or_default();
    assert_eq!(
        plain["items"]
            .as_array()
            .map(|items| items.iter().collect::<Vec<_>>()),
        Some(placements_only)
    );
}

/// `--mix heavy` (issue 32's shape): 30 regions and 200 teams; every Placement plans, the
/// team-scoped ones (no `numberOfClusters`) take every untainted, online cluster of their team,
/// the others at most their count; the same fleet plans alike from JSON and YAML.
#[test]
fn the_heavy_mix_plans_team_scoped_and_bounded_placements() {
    let root = common::tempdir();
    generate(root.path(), &["--format", "both", "--mix", "heavy"]);
    let text = plan(&root.path().join("json"));
    assert_eq!(text, plan(&root.path().join("yaml")));
    let fleet: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.path().join("json/fleet.json")).unwrap_or_default(),
    )
    .unwrap_or_default();
    let clusters = fleet["items"][0]["clusters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let distinct = |label: &str| {
        let values: std::collections::BTreeSet<String> = clusters
            .iter()
            .filter_map(|cluster| cluster["labels"][label].as_str().map(str::to_string))
            .collect();
        values.len()
    };
    assert_eq!(clusters.len(), 600);
    assert_eq!(distinct("region"), 30);
    assert!(distinct("team") > 180, "{} teams", distinct("team"));
    let workloads: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.path().join("json/workloads.json")).unwrap_or_default(),
    )
    .unwrap_or_default();
    let placements = workloads["items"].as_array().cloned().unwrap_or_default();
    let plan: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let items = plan["items"].as_array().cloned().unwrap_or_default();
    assert_eq!((placements.len(), items.len()), (150, 150));
    let mut team_scoped = 0;
    for item in &items {
        let placement = placements
            .iter()
            .find(|placement| placement["metadata"]["name"] == item["source"]["name"])
            .unwrap_or_else(|| panic!("{item}: no such Placement"));
        let chosen = item["clusters"].as_array().map_or(0, Vec::len);
        match placement["spec"]["numberOfClusters"].as_u64() {
            Some(count) => assert!(chosen as u64 <= count, "{item}"),
            None => {
                team_scoped += 1;
                let team = &placement["spec"]["predicates"][0]["requiredClusterSelector"]
                    ["labelSelector"]["matchLabels"]["team"];
                let tolerant = placement["spec"]["tolerations"].is_array();
                let expected = clusters
                    .iter()
                    .filter(|cluster| {
                        cluster["labels"]["team"] == *team
                            && cluster["online"] != false
                            && (tolerant || cluster["taints"].is_null())
                    })
                    .count();
                assert_eq!(chosen, expected, "{item}");
            }
        }
    }
    assert!(
        (30..=60).contains(&team_scoped),
        "{team_scoped} team-scoped"
    );
}

/// The floor `plan -o json` is compared with: it validates its inputs as JSON and writes the
/// bytes asked for; an input that is not JSON fails it.
#[test]
fn the_floor_validates_its_inputs_and_writes_as_many_bytes_as_asked() {
    let root = common::tempdir();
    generate(root.path(), &["--format", "json"]);
    let output = Command::new(example("floor"))
        .args(["--bytes", "100000"])
        .arg(root.path())
        .output()
        .unwrap_or_else(|error| panic!("floor: {error}"));
    assert!(output.status.success(), "{output:?}");
    assert_eq!(output.stdout.len(), 100_000);
    std::fs::write(root.path().join("broken.json"), "{\"a\": [1, }")
        .unwrap_or_else(|error| panic!("{error}"));
    let output = Command::new(example("floor"))
        .args(["--bytes", "10"])
        .arg(root.path())
        .output()
        .unwrap_or_else(|error| panic!("floor: {error}"));
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("floor: "));
}
