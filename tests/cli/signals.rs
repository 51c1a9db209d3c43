//! SIGINT, SIGTERM and SIGHUP during `plan --out` and `migrate --out`: the run ends as the
//! signal ends it, the staged file or directory is gone, and the target is as it was. Each
//! test starts the real binary on an input large enough to be caught while staging, waits
//! for the staged output to appear, then signals it.

use std::fmt::Write as _;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

/// Far above how long the runs take; past it the child is killed and the test fails.
const BOUND: Duration = Duration::from_secs(120);

const SIGNALS: [(&str, i32); 3] = [("INT", 2), ("TERM", 15), ("HUP", 1)];

fn start(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_fleetplan"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("fleetplan starts")
}

/// Waits until `dir` holds a staged output, then sends `signal`; the child must end by it.
fn interrupt_while_staging(mut child: Child, dir: &Path, signal: (&str, i32)) {
    let started = Instant::now();
    loop {
        let staging = common::entries(dir)
            .iter()
            .any(|name| name.starts_with(".fleetplan-tmp-"));
        if staging {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the run ended ({status}) before it was caught staging: make the input larger");
        }
        assert!(started.elapsed() < BOUND, "nothing was staged");
        std::thread::sleep(Duration::from_millis(1));
    }
    let sent = Command::new("kill")
        .args(["-s", signal.0, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > BOUND {
            let _ = child.kill();
            panic!("SIG{} did not end the run", signal.0);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = child.wait().expect("wait");
    assert_eq!(
        status.signal(),
        Some(signal.1),
        "ended by SIG{}: {status}",
        signal.0
    );
}

/// `clusters` clusters in the bound set and `placements` Placements that each select them all.
fn large_plan_input(clusters: usize, placements: usize) -> String {
    let mut text = String::from(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: fleet}\nclusters:\n",
    );
    for n in 0..clusters {
        let _ = writeln!(
            text,
            "  - {{name: cluster-{n}, labels: {{cluster.open-cluster-management.io/clusterset: default}}}}"
        );
    }
    text.push_str(
        "---\napiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\n\
         metadata: {name: default}\n---\napiVersion: cluster.open-cluster-management.io/v1beta2\n\
         kind: ManagedClusterSetBinding\nmetadata: {name: default, namespace: ns}\n\
         spec: {clusterSet: default}\n",
    );
    for n in 0..placements {
        let _ = write!(
            text,
            "---\napiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n\
             metadata: {{name: p-{n}, namespace: ns}}\nspec: {{}}\n"
        );
    }
    text
}

#[test]
fn a_signal_during_plan_out_leaves_no_staged_file_and_the_plan_as_it_was() {
    let dir = common::tempdir();
    common::write(&dir.path().join("in.yaml"), &large_plan_input(3_000, 400));
    common::write(&dir.path().join("plan.yaml"), "last good plan\n");
    for signal in SIGNALS {
        let child = start(
            dir.path(),
            &["plan", "-f", "in.yaml", "-o", "yaml", "--out", "plan.yaml"],
        );
        interrupt_while_staging(child, dir.path(), signal);
        assert_eq!(common::entries(dir.path()), ["in.yaml", "plan.yaml"]);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap(),
            "last good plan\n"
        );
    }
}

#[test]
fn a_signal_during_migrate_out_leaves_no_staging_directory() {
    let dir = common::tempdir();
    let rules: String = (0..2_500)
        .map(|n| {
            format!(
                "---\napiVersion: apps.open-cluster-management.io/v1\nkind: PlacementRule\n\
                 metadata: {{name: rule-{n}, namespace: apps}}\n\
                 spec: {{clusterSelector: {{matchLabels: {{env: prod}}}}}}\n"
            )
        })
        .collect();
    common::write(&dir.path().join("rules.yaml"), &rules);
    for signal in SIGNALS {
        let child = start(
            dir.path(),
            &["migrate", "-f", "rules.yaml", "--out", "migrated"],
        );
        interrupt_while_staging(child, dir.path(), signal);
        assert_eq!(common::entries(dir.path()), ["rules.yaml"]);
    }
}
