//! The OCM placement seed's user stories, planned through the real binary against
//! testdata/stories/fleet.yaml and compared with golden plans in testdata/stories/expected/;
//! `FLEETPLAN_BLESS=1 cargo test --test cli stories::` rewrites them.

use std::fs;
use std::path::Path;

use crate::common::{self, Test};

const NOW: &str = "2026-06-01T00:30:00Z";

fn plan(story: &str, now: &str) -> Test {
    Test::new()
        .args(["plan", "-o", "yaml", "--now", now])
        .args(["-f", "testdata/stories/fleet.yaml"])
        .args(["-f", &format!("testdata/stories/placements/{story}")])
}

/// Plans `story` at `now` and compares the plan with the golden file `expected`.
fn assert_plans_as(story: &str, now: &str, expected: &str) {
    let output = plan(story, now).run();
    common::golden(
        &Path::new("testdata/stories/expected").join(expected),
        &common::stdout(&output),
    );
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
        assert_plans_as(&story, NOW, &story);
    }
}

#[test]
fn an_expired_toleration_no_longer_selects_the_tainted_cluster() {
    assert_plans_as(
        "9-toleration-with-expiry.yaml",
        "2026-06-01T01:30:00Z",
        "9-toleration-with-expiry-after-expiry.yaml",
    );
}

#[test]
fn a_placement_without_bindings_selects_nothing_and_says_why() {
    for (story, reason) in [
        ("7-no-binding.yaml", "reason: NoManagedClusterSetBindings"),
        ("8-set-not-bound.yaml", "reason: NoIntersection"),
    ] {
        let output = plan(story, NOW).run();
        let text = common::stdout(&output);
        assert!(text.contains("  clusters: []\n"), "{story}: {text}");
        assert!(text.contains(reason), "{story}: {text}");
    }
}
