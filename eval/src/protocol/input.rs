//! Input lines read as bytes: a line that is not UTF-8 is an error for that line only, and the
//! lines after it are read as usual (reading a `String` would end the whole input there).

use std::io::{self, BufRead};

/// A line of input that is not valid UTF-8.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the line is not valid UTF-8 (invalid byte at position {position}); it was ignored")]
pub struct NotUtf8 {
    /// Where (in bytes, from the line's start) the first invalid byte is.
    pub position: usize,
}

/// Reads the next line, without its `\n` or `\r\n`; `Ok(None)` at the end of the input, and
/// `Ok(Some(Err(_)))` for a line that is not UTF-8 (it is consumed all the same).
pub fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<Result<String, NotUtf8>>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    Ok(Some(String::from_utf8(bytes).map_err(|e| NotUtf8 {
        position: e.utf8_error().valid_up_to(),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_not_utf8_is_an_error_and_the_next_lines_are_read() {
        let mut input = &b"isready\r\n\xffab\nd\xc3\xa9j\xc3\nlast"[..];
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok("isready".into())));
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Err(NotUtf8 { position: 0 }))
        );
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Err(NotUtf8 { position: 4 }))
        );
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok("last".into())));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }
}
