//! The scheduler framework's plugin status (`pkg/scheduler/framework/status.go`): a code and
//! reasons, printed as `"<Code>, <reason>, …"`, which is the text a user reads in
//! `clusterDecisions[].reason`.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Code {
    InternalError,
    ClusterUnschedulable,
    ClusterAlreadySelected,
    Skip,
}

impl Code {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Code::InternalError => "InternalError",
            Code::ClusterUnschedulable => "ClusterUnschedulable",
            Code::ClusterAlreadySelected => "ClusterAlreadySelected",
            Code::Skip => "Skip",
        }
    }
}

/// A non-success plugin status (a success is `None` where a status is optional).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Status {
    pub(crate) code: Code,
    pub(crate) reasons: Vec<String>,
}

impl Status {
    pub(crate) fn new(code: Code, reason: impl Into<String>) -> Status {
        Status {
            code,
            reasons: vec![reason.into()],
        }
    }

    pub(crate) fn unschedulable(reason: impl Into<String>) -> Status {
        Status::new(Code::ClusterUnschedulable, reason)
    }

    pub(crate) fn skip(reason: impl Into<String>) -> Status {
        Status::new(Code::Skip, reason)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code.as_str())?;
        for reason in &self.reasons {
            write!(f, ", {reason}")?;
        }
        Ok(())
    }
}
