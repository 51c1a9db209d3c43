//! The OCM placement scheduler: clusterset resolution, filters, prioritizers, selection,
//! spread and anti-affinity, decision groups, conditions. Plus PlacementRule evaluation.
