//! User input as error messages echo it: quoted, and cut short when long, so a 100 kB protocol
//! line or a 5 MB token in a game record does not flood the message.

use std::fmt;

/// The most characters of user input an error message echoes.
pub const EXCERPT_CHARS: usize = 100;

/// Displays text as `{:?}` would (quoted, escaped), but beyond [`EXCERPT_CHARS`] characters
/// only its beginning, an ellipsis and its length: `"aaaa…" (100000 characters)`.
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a>(pub &'a str);

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0;
        match text.char_indices().nth(EXCERPT_CHARS) {
            None => write!(f, "{text:?}"),
            Some((cut, _)) => write!(
                f,
                "{:?}… ({} characters)",
                &text[..cut],
                text.chars().count()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_is_cut() {
        assert_eq!(Excerpt("e2e3").to_string(), "\"e2e3\"");
        assert_eq!(Excerpt("a\"b").to_string(), "\"a\\\"b\"");
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(Excerpt(&exact).to_string(), format!("{exact:?}"));
        let long = "é".repeat(100_000);
        let shown = Excerpt(&long).to_string();
        assert_eq!(
            shown,
            format!("\"{}\"… (100000 characters)", "é".repeat(EXCERPT_CHARS))
        );
    }
}
