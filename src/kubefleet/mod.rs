//! KubeFleet's scheduler, offline: ClusterResourcePlacement and ResourcePlacement
//! (placement.kubernetes-fleet.io v1 and v1beta1) over MemberClusters, as kubefleet-dev/kubefleet
//! schedules them at e160c1cdfdd9 (docs/kubefleet.md: the rules followed, each with its
//! upstream file, and the surprises).
//!
//! One folder per placement API, its files named by layer: `read` (the kinds and readers,
//! and what the CRDs and webhooks refuse of the objects around a placement), `model/` (the
//! CRD types: `member_cluster`, `policy`, `taint`, `binding`, override rules, strategy
//! stages, and every object of a run in `objects`), `plan` (a run's hub, the references and
//! refusals across objects, the plan step), `explain`; and the engine: the default profile's
//! plugins (`plugins/`), scores and picking (`score`), PickN's bookkeeping (`downscale`),
//! PickFixed (`pick_fixed`), the status text users read (`decisions`), what the API server and
//! webhook refuse of a placement's policy (`admission`), one placement scheduled cycle by
//! cycle over a run's `fleet` (`schedule`), override matching (`overrides`), stage assignment
//! (`stages`), and the data of a plan item (`item`; what the plan item holds of it,
//! written and read back: `fields`).

pub(crate) mod admission;
pub(crate) mod decisions;
pub(crate) mod diff;
pub(crate) mod downscale;
pub(crate) mod explain;
pub(crate) mod fields;
pub(crate) mod fleet;
pub(crate) mod item;
pub(crate) mod model;
pub(crate) mod overrides;
pub(crate) mod pick_fixed;
pub(crate) mod plan;
pub(crate) mod plugins;
pub(crate) mod property;
pub(crate) mod read;
pub(crate) mod schedule;
pub(crate) mod score;
pub(crate) mod stages;
pub(crate) mod status;
pub(crate) mod upstream_vectors;
