//! RFC 3339 timestamps as Unix seconds (metav1.Time has second precision).
// Owned by the loader work (issue 2).
