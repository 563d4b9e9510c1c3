//! Short quotes of user input for error messages: an error names what it
//! could not read, but never echoes a whole (possibly huge) input back.

/// The most characters of input an error message quotes.
pub const EXCERPT_CHARS: usize = 32;

/// `text` as an error message quotes it: whole when it is at most
/// [`EXCERPT_CHARS`] characters long, else its first characters and `…`.
///
/// ```
/// use epaminondas_rules::excerpt;
/// assert_eq!(excerpt("e1,e3-e5"), "e1,e3-e5");
/// assert_eq!(excerpt(&"a".repeat(1_000_000)).chars().count(), 33);
/// ```
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_whole_and_long_text_is_cut_on_a_character() {
        assert_eq!(excerpt(""), "");
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let long = "é".repeat(EXCERPT_CHARS + 5);
        let cut = excerpt(&long);
        assert_eq!(cut, format!("{}…", "é".repeat(EXCERPT_CHARS)));
    }
}
