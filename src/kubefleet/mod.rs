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

pub mod admission;
pub mod binding;
pub mod decisions;
pub mod downscale;
pub mod fleet;
pub mod item;
pub mod member_cluster;
pub mod overrides;
pub mod pick_fixed;
pub mod plugins;
pub mod policy;
pub mod property;
pub mod read;
pub mod schedule;
pub mod score;
pub mod stages;
pub mod status;
pub mod taint;
#[cfg(test)]
mod upstream_vectors;
