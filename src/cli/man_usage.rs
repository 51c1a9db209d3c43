//! The EXAMPLES and EXIT STATUS of each subcommand's manual page. Every example runs as
//! written from the root of a fleetplan checkout (tests/cli/packaging.rs runs them and checks
//! the exit status given here), so the pages never show a command that does not work.

use crate::exit_code::ExitCode;

/// One example: what it does, and the arguments after `fleetplan`.
pub struct Example {
    pub what: &'static str,
    pub args: &'static [&'static str],
    /// The exit status it ends with on the bundled test data.
    pub status: ExitCode,
}

/// What a subcommand's page shows beyond the clap definition.
pub struct Usage {
    pub examples: &'static [Example],
    /// The exit statuses the subcommand ends with and what each means.
    pub exit: &'static [(ExitCode, &'static str)],
}

const INPUT_ERROR: (ExitCode, &str) = (
    ExitCode::Error,
    "an input could not be read or is invalid, or an item could not be planned",
);

const WRITE_ERROR: (ExitCode, &str) = (ExitCode::Error, "the files could not be written");

/// The page additions of subcommand `name`; `None` for a name without a page.
pub fn usage(name: &str) -> Option<Usage> {
    let usage = match name {
        "plan" => Usage {
            examples: &[
                Example {
                    what: "Plan the example fleet as a table.",
                    args: &["plan", "-f", "testdata/fleet"],
                    status: ExitCode::Success,
                },
                Example {
                    what: "Plan two items only, named as explain names them, as the Plan document.",
                    args: &["plan", "-f", "testdata/fleet", "placement/shop/storefront", "rs/frontend", "-o", "yaml"],
                    status: ExitCode::Success,
                },
                Example {
                    what: "Plan the workloads labelled team=web, with one cluster offline.",
                    args: &["plan", "-f", "testdata/fleet", "-f", "testdata/ci/labelled", "-l", "team=web", "--offline", "aws-eu-west-prod-1"],
                    status: ExitCode::Success,
                },
            ],
            exit: &[(ExitCode::Success, "every item was planned"), INPUT_ERROR],
        },
        "explain" => Usage {
            examples: &[
                Example {
                    what: "Why each cluster was or was not chosen for a ReplicaSet.",
                    args: &["explain", "-f", "testdata/fleet", "rs/frontend"],
                    status: ExitCode::Success,
                },
                Example {
                    what: "One cluster of a Karmada Deployment, first as a sentence.",
                    args: &["explain", "-f", "testdata/karmada/example", "deploy/shop/api", "--cluster", "member-eu-2"],
                    status: ExitCode::Success,
                },
            ],
            exit: &[
                (ExitCode::Success, "the item was explained"),
                (ExitCode::Error, "bad input, or no such item or cluster in the inputs"),
            ],
        },
        "select" => Usage {
            examples: &[Example {
                what: "The production clusters in two European regions.",
                args: &["select", "-f", "testdata/fleet", "env=prod,region in (eu-west,eu-central)"],
                status: ExitCode::Success,
            }],
            exit: &[
                (ExitCode::Success, "the matching clusters were listed"),
                (ExitCode::Error, "bad input, a selector that does not parse, or no clusters"),
            ],
        },
        "diff" => Usage {
            examples: &[
                Example {
                    what: "Compare the plan with the committed one.",
                    args: &["diff", "-f", "testdata/fleet", "--previous", "testdata/ci/plan.yaml"],
                    status: ExitCode::Success,
                },
                Example {
                    what: "What moves with a cluster offline, as a pull-request comment.",
                    args: &["diff", "-f", "testdata/fleet", "--previous", "testdata/ci/plan.yaml", "--offline", "aws-us-east-staging", "-o", "markdown"],
                    status: ExitCode::Changes,
                },
                Example {
                    what: "Compare with the decisions a live hub exported.",
                    args: &["diff", "-f", "testdata/fleet", "--previous", "testdata/ci/hub-export", "-o", "github"],
                    status: ExitCode::Changes,
                },
            ],
            exit: &[
                (ExitCode::Success, "no changes"),
                (ExitCode::Error, "bad input, an unusable previous plan, no inventory, or an item that could not be planned"),
                (ExitCode::Changes, "the plan differs from the previous one"),
            ],
        },
        "check" => Usage {
            examples: &[
                Example {
                    what: "Check a whole checkout, leaving vendored manifests out.",
                    args: &["check", "-f", "testdata/ci/repo", "--exclude", "vendor/"],
                    status: ExitCode::Success,
                },
                Example {
                    what: "Findings as SARIF for code scanning.",
                    args: &["check", "-f", "testdata/fleet", "-f", "testdata/ci/unsatisfied", "-o", "sarif"],
                    status: ExitCode::Unsatisfied,
                },
                Example {
                    what: "A JUnit report of the items labelled team=web.",
                    args: &["check", "-f", "testdata/fleet", "-f", "testdata/ci/labelled", "-l", "team=web", "-o", "junit"],
                    status: ExitCode::Unsatisfied,
                },
                Example {
                    what: "Validate manifests without an inventory.",
                    args: &["check", "-f", "testdata/fleet/workloads", "--manifests-only"],
                    status: ExitCode::Success,
                },
            ],
            exit: &[
                (ExitCode::Success, "every input is valid and every item satisfied"),
                (ExitCode::Error, "an input could not be read or is invalid, an item could not be planned, an item argument or selector names nothing, or there is no inventory"),
                (ExitCode::Unsatisfied, "every input is valid but some item is unsatisfied"),
            ],
        },
        "migrate" => Usage {
            examples: &[
                Example {
                    what: "Convert a PlacementRule and prove the Placement selects the same clusters.",
                    args: &["migrate", "-f", "testdata/fleet/inventory.yaml", "-f", "testdata/fleet/clustersets.yaml", "-f", "testdata/fleet/workloads/placementrule.json", "--verify"],
                    status: ExitCode::Success,
                },
                Example {
                    what: "Convert kubefed objects to Karmada policies.",
                    args: &["migrate", "--to", "karmada", "-f", "testdata/migrate/karmada/kubefed.yaml"],
                    status: ExitCode::Success,
                },
            ],
            exit: &[
                (ExitCode::Success, "converted (with --verify, every object plans identically)"),
                (ExitCode::Error, "bad input, or nothing to convert"),
                (ExitCode::Changes, "--verify: a migrated object plans differently from the old one"),
            ],
        },
        "vectors" => Usage {
            examples: &[Example {
                what: "Check this build against upstream KubeFleet's own test cases.",
                args: &["vectors", "kubefleet", "testdata/upstream/kubefleet.yaml"],
                status: ExitCode::Success,
            }],
            exit: &[
                (ExitCode::Success, "every vector of every file passes"),
                (ExitCode::Error, "a vector fails, or a file cannot be read or is no vector file of the suite"),
            ],
        },
        "completions" => Usage {
            examples: &[Example {
                what: "The bash completion script.",
                args: &["completions", "bash"],
                status: ExitCode::Success,
            }],
            exit: &[(ExitCode::Success, "printed or written"), WRITE_ERROR],
        },
        "man" => Usage {
            examples: &[Example {
                what: "The manual page of fleetplan itself.",
                args: &["man"],
                status: ExitCode::Success,
            }],
            exit: &[(ExitCode::Success, "printed or written"), WRITE_ERROR],
        },
        _ => return None,
    };
    Some(usage)
}
