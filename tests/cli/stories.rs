//! The OCM placement seed's user stories, planned through the real binary against
//! testdata/stories/fleet.yaml and compared with golden plans in testdata/stories/expected/.

use std::fs;
use std::path::Path;

use crate::common::Test;

const NOW: &str = "2026-06-01T00:30:00Z";

fn plan(story: &str, now: &str) -> Test {
    Test::new()
        .args(["plan", "-o", "yaml", "--now", now])
        .args(["-f", "testdata/stories/fleet.yaml"])
        .args(["-f", &format!("testdata/stories/placements/{story}")])
}

fn expected(name: &str) -> String {
    fs::read_to_string(Path::new("testdata/stories/expected").join(name))
        .unwrap_or_else(|error| panic!("expected/{name}: {error}"))
}

#[test]
fn every_story_plans_as_its_golden_file() {
    let mut stories: Vec<String> = fs::read_dir("testdata/stories/placements")
        .expect("stories exist")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    stories.sort();
    assert!(stories.len() >= 8, "{stories:?}");
    for story in stories {
        plan(&story, NOW).stdout(expected(&story)).run();
    }
}

#[test]
fn an_expired_toleration_no_longer_selects_the_tainted_cluster() {
    plan("9-toleration-with-expiry.yaml", "2026-06-01T01:30:00Z")
        .stdout(expected("9-toleration-with-expiry-after-expiry.yaml"))
        .run();
}

#[test]
fn a_placement_without_bindings_selects_nothing_and_says_why() {
    for (story, reason) in [
        ("7-no-binding.yaml", "reason: NoManagedClusterSetBindings"),
        ("8-set-not-bound.yaml", "reason: NoIntersection"),
    ] {
        let output = plan(story, NOW).run();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("  clusters: []\n"), "{story}: {text}");
        assert!(text.contains(reason), "{story}: {text}");
    }
}
