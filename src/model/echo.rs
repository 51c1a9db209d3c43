//! Input values quoted back in messages (errors, warnings, explanations) are cut to a short
//! prefix followed by their length: a 200 MB label value must not become 200 MB of stderr.
//! Every message that repeats a value from the input goes through [`echo`].

use std::fmt;

/// The most characters of a value a message repeats.
pub const MAX_ECHO_CHARS: usize = 64;

/// `value` for a message: whole when short, else its first [`MAX_ECHO_CHARS`] characters and
/// its length, as `abc... (N bytes)` (`{}`) or `"abc"... (N bytes)` (`{:?}`).
pub fn echo(value: &str) -> Echo<'_> {
    Echo(value)
}

#[derive(Clone, Copy)]
pub struct Echo<'a>(&'a str);

impl<'a> Echo<'a> {
    fn prefix(self) -> Option<&'a str> {
        let (cut, _) = self.0.char_indices().nth(MAX_ECHO_CHARS)?;
        self.0.get(..cut)
    }
}

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix() {
            None => f.write_str(self.0),
            Some(prefix) => write!(f, "{prefix}... ({} bytes)", self.0.len()),
        }
    }
}

impl fmt::Debug for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix() {
            None => write!(f, "{:?}", self.0),
            Some(prefix) => write!(f, "{prefix:?}... ({} bytes)", self.0.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_whole() {
        assert_eq!(echo("prod").to_string(), "prod");
        assert_eq!(format!("{:?}", echo("a\"b")), r#""a\"b""#);
        let limit = "x".repeat(MAX_ECHO_CHARS);
        assert_eq!(echo(&limit).to_string(), limit);
    }

    #[test]
    fn long_values_are_a_prefix_and_a_length() {
        let long = "é".repeat(1000);
        let prefix = "é".repeat(MAX_ECHO_CHARS);
        assert_eq!(echo(&long).to_string(), format!("{prefix}... (2000 bytes)"));
        assert_eq!(
            format!("{:?}", echo(&long)),
            format!("\"{prefix}\"... (2000 bytes)")
        );
    }
}
