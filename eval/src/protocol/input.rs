//! Input lines read as bytes, each of at most [`MAX_LINE_BYTES`]: a line that is not UTF-8,
//! or longer than that, is an error for that line only (a long one is skipped to its end
//! without being held in memory), and the lines after it are read as usual (reading a
//! `String` would end the whole input at a bad byte, and hold a line of any length).

use std::io::{self, BufRead, ErrorKind};

/// The longest line read, its `\n` included (a `position` command of a game of thousands of
/// turns takes well under this).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A line of input that was refused (and consumed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadLine {
    /// It is not valid UTF-8.
    #[error("the line is not valid UTF-8 (invalid byte at position {position}); it was ignored")]
    NotUtf8 {
        /// Where (in bytes, from the line's start) the first invalid byte is.
        position: usize,
    },
    /// It is longer than the most a line may have.
    #[error("the line is over {limit} bytes, the most a line may have; it was ignored")]
    TooLong {
        /// The most bytes a line may have.
        limit: usize,
    },
}

/// Reads the next line, without its `\n` or `\r\n`; `Ok(None)` at the end of the input, and
/// `Ok(Some(Err(_)))` for a line that is not UTF-8 or is over [`MAX_LINE_BYTES`] (it is
/// consumed all the same).
pub fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<Result<String, BadLine>>> {
    read_line_within(input, MAX_LINE_BYTES)
}

/// [`read_line`] with lines of at most `limit` bytes.
fn read_line_within<R: BufRead>(
    input: &mut R,
    limit: usize,
) -> io::Result<Option<Result<String, BadLine>>> {
    let mut bytes = Vec::new();
    let (mut any, mut too_long) = (false, false);
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let end = buffer.iter().position(|&b| b == b'\n');
        let chunk = &buffer[..end.map_or(buffer.len(), |i| i + 1)];
        if !too_long && bytes.len() + chunk.len() > limit {
            too_long = true;
            bytes = Vec::new();
        }
        if !too_long {
            bytes.extend_from_slice(chunk);
        }
        let used = chunk.len();
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Err(BadLine::TooLong { limit })));
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    Ok(Some(String::from_utf8(bytes).map_err(|e| {
        BadLine::NotUtf8 {
            position: e.utf8_error().valid_up_to(),
        }
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
            Some(Err(BadLine::NotUtf8 { position: 0 }))
        );
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Err(BadLine::NotUtf8 { position: 4 }))
        );
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok("last".into())));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn a_line_over_the_limit_is_refused_without_being_held_and_the_next_is_read() {
        // A small buffer, so that the long line arrives in many pieces.
        let text = b"go\nabcdefghij\nabcdefgh\nuci";
        let mut input = io::BufReader::with_capacity(3, &text[..]);
        let read = |input: &mut io::BufReader<&[u8]>| read_line_within(input, 9).unwrap();
        assert_eq!(read(&mut input), Some(Ok("go".into())));
        assert_eq!(read(&mut input), Some(Err(BadLine::TooLong { limit: 9 })));
        assert_eq!(read(&mut input), Some(Ok("abcdefgh".into())));
        assert_eq!(read(&mut input), Some(Ok("uci".into())));
        assert_eq!(read(&mut input), None);
        // The real limit: two megabytes without a newline, then a command.
        let mut long = vec![b'a'; 2 << 20];
        long.extend_from_slice(b"\nisready\n");
        let mut input = &long[..];
        let refused = read_line(&mut input).unwrap().unwrap().unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!(
                "the line is over {MAX_LINE_BYTES} bytes, the most a line may have; it was ignored"
            )
        );
        assert_eq!(read_line(&mut input).unwrap(), Some(Ok("isready".into())));
    }
}
