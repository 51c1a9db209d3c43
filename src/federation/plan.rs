//! Federation v1: an object placed by its `federation.alpha.kubernetes.io/cluster-selector`
//! annotation, with replicas when it carries `replica-set-preferences`.

use crate::model::Workload;
use crate::replicas::parse_replica_set_preferences;

use crate::plan::items::{annotation_selection, replicas};
use crate::plan::{Planned, Run};

/// An object placed by its `federation.alpha.kubernetes.io/cluster-selector` annotation (or
/// everywhere without one), with replicas when it carries replica-set-preferences.
pub(crate) fn plan<'a>(
    run: &Run<'_, 'a>,
    workload: &Workload,
    preferences: Option<&str>,
    replicas: i64,
) -> Planned<'a> {
    let fleet = run.fleet;
    let selection = match annotation_selection(fleet, workload) {
        Ok(selection) => selection,
        Err(error) => return Planned::failed(workload, error.to_string()),
    };
    let Some(preferences) = preferences else {
        return Planned::selection(workload, fleet, selection);
    };
    match parse_replica_set_preferences(preferences) {
        Ok(preferences) => replicas::plan(run, workload, selection, &preferences, replicas),
        Err(error) => Planned::failed(workload, error.to_string()),
    }
}
