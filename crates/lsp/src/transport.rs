//! The stdio transport: `Content-Length` framed JSON-RPC messages in and out, on two threads,
//! as lsp-server's own but forgiving: a body that is not a JSON-RPC message is answered with a
//! parse error (-32700, id null) and the server reads on; a broken header is skipped.

use std::io::{self, BufRead, Write};
use std::thread;

use crossbeam_channel::unbounded;
use lsp_server::{Connection, Message};

/// The reader and writer threads.
pub struct Threads {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Wait for the writer to flush what the server sent (the reader ends at `exit` or end of
    /// input; it is not waited for when the client keeps its end open).
    pub fn join(self) -> io::Result<()> {
        drop(self.reader);
        self.writer.join().unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")))
    }
}

/// A connection over this process' standard input and output.
pub fn stdio() -> (Connection, Threads) {
    let (to_writer, writer_rx) = unbounded::<Message>();
    let (reader_tx, from_reader) = unbounded::<Message>();
    let writer = thread::spawn(move || {
        for message in writer_rx {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            message.write(&mut out)?;
            out.flush()?;
        }
        Ok(())
    });
    let reader = thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        read_messages(&mut input, |m| reader_tx.send(m).is_ok(), |e| write_raw(&io::stdout(), &e));
    });
    (Connection { sender: to_writer, receiver: from_reader }, Threads { reader, writer })
}

/// Read framed messages from `input` until its end or `exit`, handing each to `deliver` (which
/// says whether to go on) and each error response for a bad one to `reply`.
pub fn read_messages(
    input: &mut impl BufRead,
    mut deliver: impl FnMut(Message) -> bool,
    mut reply: impl FnMut(String),
) {
    loop {
        let body = match read_frame(input) {
            Ok(Some(body)) => body,
            Ok(None) => return,
            Err(Frame::Header(h)) => {
                reply(error_json(-32700, &format!("malformed header: {h:?}")));
                continue;
            }
            Err(Frame::Io) => return,
        };
        let object = matches!(serde_json::from_slice::<serde_json::Value>(&body), Ok(serde_json::Value::Object(_)));
        match serde_json::from_slice::<Message>(&body).map_err(|e| e.to_string()) {
            Ok(_) if !object => reply(error_json(-32600, "not a JSON-RPC message: not an object")),
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if !deliver(message) || exit {
                    return;
                }
            }
            Err(e) => {
                let code = if serde_json::from_slice::<serde_json::Value>(&body).is_ok() { -32600 } else { -32700 };
                reply(error_json(code, &format!("not a JSON-RPC message: {e}")));
            }
        }
    }
}

/// What went wrong reading a frame.
enum Frame {
    /// A header line that is not `Name: value` (or a bad `Content-Length`).
    Header(String),
    /// Reading failed, or the input ended inside a message.
    Io,
}

/// One message's body (`None` at the end of the input).
fn read_frame(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, Frame> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line).map_err(|_| Frame::Io)? == 0 {
            return if length.is_none() { Ok(None) } else { Err(Frame::Io) };
        }
        let text = line.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        let Some((name, value)) = text.split_once(": ") else { return Err(Frame::Header(text.to_string())) };
        if name.eq_ignore_ascii_case("Content-Length") {
            length = Some(value.trim().parse::<usize>().map_err(|_| Frame::Header(text.to_string()))?);
        }
    }
    let length = length.unwrap_or(0);
    let mut body = vec![0; length];
    input.read_exact(&mut body).map_err(|_| Frame::Io)?;
    Ok(Some(body))
}

/// A JSON-RPC error response with id null.
fn error_json(code: i32, message: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

fn write_raw(stdout: &io::Stdout, body: &str) {
    let mut out = stdout.lock();
    let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len());
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(parts: &[&str]) -> String {
        parts.iter().map(|b| format!("Content-Length: {}\r\n\r\n{b}", b.len())).collect()
    }

    /// Every message read, and the error replies, for `input`.
    fn read(input: &str) -> (Vec<Message>, Vec<String>) {
        let (mut got, mut errors) = (Vec::new(), Vec::new());
        read_messages(
            &mut input.as_bytes(),
            |m| {
                got.push(m);
                true
            },
            |e| errors.push(e),
        );
        (got, errors)
    }

    #[test]
    fn a_malformed_body_is_answered_and_the_next_message_still_read() {
        let input = frames(&["{not json", r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#]);
        let (got, errors) = read(&input);
        assert_eq!(got.len(), 1);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("-32700") && errors[0].contains("\"id\":null"), "{}", errors[0]);
    }

    #[test]
    fn json_that_is_no_message_is_an_invalid_request() {
        let (got, errors) = read(&frames(&["[1, 2]"]));
        assert!(got.is_empty());
        assert!(errors[0].contains("-32600"), "{}", errors[0]);
    }

    #[test]
    fn a_bad_header_is_reported_and_reading_goes_on() {
        let input = format!("Garbage\r\n{}", frames(&[r#"{"jsonrpc":"2.0","method":"exit"}"#]));
        let (got, errors) = read(&input);
        assert_eq!((got.len(), errors.len()), (1, 1));
    }

    #[test]
    fn the_input_ending_inside_a_message_ends_reading() {
        let (got, errors) = read("Content-Length: 50\r\n\r\n{\"jsonrpc\"");
        assert!(got.is_empty() && errors.is_empty());
    }
}
