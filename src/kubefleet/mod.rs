//! KubeFleet's scheduler, offline: ClusterResourcePlacement and ResourcePlacement
//! (placement.kubernetes-fleet.io v1 and v1beta1) over MemberClusters, as kubefleet-dev/kubefleet
//! schedules them at e160c1cdfdd9 (docs/kubefleet.md: the rules followed, each with its
//! upstream file, and the surprises).
//!
//! One folder per placement API: the CRD types read from decoded manifests with field paths
//! (`member_cluster`, `policy`, `taint`, `binding`, `overrides`, `stages`), the default
//! profile's plugins (`plugins/`), scores and picking (`score`), PickN's bookkeeping
//! (`downscale`), PickFixed (`pick_fixed`), the status text users read (`decisions`), what the
//! API server and webhook refuse (`admission`), and one placement scheduled cycle by cycle over
//! a run's `fleet` (`schedule`), and the plan step that puts them together into the data of a
//! plan item (`item`). Not yet wired into load/plan/render: nothing outside this
//! folder calls it.

pub(crate) mod admission;
pub(crate) mod binding;
pub(crate) mod decisions;
pub(crate) mod diff;
pub(crate) mod downscale;
pub(crate) mod explain;
pub(crate) mod fleet;
pub(crate) mod item;
pub(crate) mod member_cluster;
pub(crate) mod model;
pub(crate) mod objects;
pub(crate) mod overrides;
pub(crate) mod pick_fixed;
pub(crate) mod plan;
pub(crate) mod plugins;
pub(crate) mod policy;
pub(crate) mod property;
pub(crate) mod read;
pub(crate) mod schedule;
pub(crate) mod score;
pub(crate) mod stages;
pub(crate) mod status;
pub(crate) mod taint;
#[cfg(test)]
mod upstream_vectors;
