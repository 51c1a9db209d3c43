//! The scheduler framework's plugin status (`pkg/scheduler/framework/status.go`): a code and
//! reasons, printed as `"<Code>, <reason>, …"`, which is the text a user reads in
//! `clusterDecisions[].reason`.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Code {
    Success,
    InternalError,
    ClusterUnschedulable,
    ClusterAlreadySelected,
    Skip,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Success => "Success",
            Code::InternalError => "InternalError",
            Code::ClusterUnschedulable => "ClusterUnschedulable",
            Code::ClusterAlreadySelected => "ClusterAlreadySelected",
            Code::Skip => "Skip",
        }
    }
}

/// A non-success plugin status (a success is `None` where a status is optional).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: Code,
    pub reasons: Vec<String>,
}

impl Status {
    pub fn new(code: Code, reason: impl Into<String>) -> Status {
        Status {
            code,
            reasons: vec![reason.into()],
        }
    }

    pub fn unschedulable(reason: impl Into<String>) -> Status {
        Status::new(Code::ClusterUnschedulable, reason)
    }

    pub fn skip(reason: impl Into<String>) -> Status {
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
