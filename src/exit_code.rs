//! The exit codes every subcommand shares (see README "Exit codes").

use std::process::ExitCode as StdExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCode {
    /// Success.
    Success,
    /// Bad input or a failed item.
    Error,
    /// `diff`: the new plan differs from the previous one.
    Changes,
    /// `check`: every input is valid but some item is unsatisfied.
    Unsatisfied,
}

impl ExitCode {
    pub fn code(self) -> u8 {
        match self {
            ExitCode::Success => 0,
            ExitCode::Error => 1,
            ExitCode::Changes => 2,
            ExitCode::Unsatisfied => 3,
        }
    }
}

impl From<ExitCode> for StdExitCode {
    fn from(code: ExitCode) -> Self {
        StdExitCode::from(code.code())
    }
}
