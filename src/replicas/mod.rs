//! The federated ReplicaSet / kubefed replica planner, replica for replica as the reference.
