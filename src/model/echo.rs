//! Input values quoted back in messages (errors, warnings, explanations) are cut to a short
//! prefix followed by their length: a 200 MB label value must not become 200 MB of stderr.
//! Every message that repeats a value from the input goes through [`echo`].

use std::fmt;

/// The most characters of a value a message repeats.
pub(crate) const MAX_ECHO_CHARS: usize = 64;

/// `value` for a message: whole when short, else its first [`MAX_ECHO_CHARS`] characters and
/// its length, as `abc... (N bytes)` (`{}`) or `"abc"... (N bytes)` (`{:?}`).
pub(crate) fn echo(value: &str) -> Echo<'_> {
    Echo(value)
}

/// The longest source line a parser's error repeats (above the caret marking the column).
pub(crate) const MAX_LINE_CHARS: usize = 200;

/// `message` with every quoted span (`"..."` with its escapes, or `` `...` ``) longer than
/// [`MAX_ECHO_CHARS`] cut as [`echo`] cuts a value: for messages written by code that quotes
/// the value itself (serde's `unknown field `…``, `invalid type: string "…"`).
pub(crate) fn shorten_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let (before, quoted) = rest.split_at(open);
        out.push_str(before);
        let quote = quoted.as_bytes()[0];
        let body = &quoted[1..];
        let mut escaped = false;
        let close = body.char_indices().find_map(|(at, c)| {
            let found = !escaped && c == quote as char;
            escaped = quote == b'"' && !escaped && c == '\\';
            found.then_some(at)
        });
        let Some(close) = close else {
            out.push_str(quoted);
            return out;
        };
        let inner = &body[..close];
        match echo(inner).prefix() {
            Some(prefix) => {
                let quote = quote as char;
                out.push_str(&format!(
                    "{quote}{prefix}{quote}... ({} bytes)",
                    inner.len()
                ));
            }
            None => {
                out.push(quote as char);
                out.push_str(inner);
                out.push(quote as char);
            }
        }
        rest = &body[close + 1..];
    }
    out.push_str(rest);
    out
}

#[derive(Clone, Copy)]
pub(crate) struct Echo<'a>(&'a str);

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
    fn long_quoted_spans_are_cut_and_short_ones_kept() {
        let long = "v".repeat(1000);
        let message =
            format!("unknown field `{long}`, expected `spec`; found \"{long}\\\"\" and \"ok\"");
        let prefix = "v".repeat(MAX_ECHO_CHARS);
        assert_eq!(
            shorten_quoted(&message),
            format!("unknown field `{prefix}`... (1000 bytes), expected `spec`; found \"{prefix}\"... (1002 bytes) and \"ok\"")
        );
        assert_eq!(shorten_quoted("no quotes"), "no quotes");
        assert_eq!(shorten_quoted("open \"quote"), "open \"quote");
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
