//! A loopback HTTP/1.1 server that answers every request with fixed raw bytes, for the bad-input tests
//! (HTML error pages, truncated bodies, stalls). It reads each request fully before answering.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// What the server does with each request.
#[derive(Clone, Debug)]
pub enum Behaviour {
    /// Write these bytes (a whole HTTP response, status line included) and close.
    Raw(Vec<u8>),
    /// Read the request, then say nothing for this long (a stalled server).
    Stall(Duration),
    /// Write these bytes (e.g. the status line and headers only), then say nothing for this long
    /// (slowloris: headers, then silence).
    PartialThenStall(Vec<u8>, Duration),
    /// Write these bytes one at a time, pausing this long after each (a body that trickles).
    Trickle(Vec<u8>, Duration),
    /// Answer the n-th request with the n-th of these whole HTTP responses, the last one again
    /// after them (a conversation: log in, then calls).
    InTurn(Vec<Vec<u8>>),
}

/// A running canned server; stops accepting when dropped.
pub struct Canned {
    port: u16,
    /// The last request received (head and body), for assertions on what the client sent.
    pub last_request: Arc<Mutex<Vec<u8>>>,
    /// Every request received, in order.
    requests: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl Canned {
    /// The URL of the server.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/soap", self.port)
    }

    /// The last request as text.
    pub fn last_request(&self) -> String {
        String::from_utf8_lossy(&self.last_request.lock().unwrap()).into_owned()
    }

    /// Every request received so far, in order, as text.
    pub fn requests(&self) -> Vec<String> {
        let all = self.requests.lock().unwrap();
        all.iter()
            .map(|r| String::from_utf8_lossy(r).into_owned())
            .collect()
    }
}

/// An HTTP response with `status`, `content_type` and `body`, Content-Length set.
pub fn http(status: u16, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// Starts a server on 127.0.0.1 with `behaviour` for every connection.
pub fn serve(behaviour: Behaviour) -> Canned {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().unwrap().port();
    let last_request = Arc::new(Mutex::new(Vec::new()));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let last = last_request.clone();
    let all = requests.clone();
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            let b = behaviour.clone();
            let last = last.clone();
            let all = all.clone();
            thread::spawn(move || handle(stream, b, last, all));
        }
    });
    Canned {
        port,
        last_request,
        requests,
    }
}

fn handle(
    stream: TcpStream,
    b: Behaviour,
    last: Arc<Mutex<Vec<u8>>>,
    all: Arc<Mutex<Vec<Vec<u8>>>>,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut head = Vec::new();
    let mut content_length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        head.extend_from_slice(line.as_bytes());
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            content_length = v.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0u8; content_length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    head.extend_from_slice(&body);
    let turn = {
        let mut all = all.lock().unwrap();
        all.push(head.clone());
        all.len() - 1
    };
    *last.lock().unwrap() = head;
    let mut stream = stream;
    match b {
        Behaviour::InTurn(answers) => {
            if let Some(bytes) = answers.get(turn).or(answers.last()) {
                let _ = stream.write_all(bytes);
                let _ = stream.flush();
            }
        }
        Behaviour::Raw(bytes) => {
            let _ = stream.write_all(&bytes);
            let _ = stream.flush();
        }
        Behaviour::Stall(d) => thread::sleep(d),
        Behaviour::PartialThenStall(bytes, d) => {
            let _ = stream.write_all(&bytes);
            let _ = stream.flush();
            thread::sleep(d);
        }
        Behaviour::Trickle(bytes, d) => {
            for b in bytes {
                if stream
                    .write_all(&[b])
                    .and_then(|()| stream.flush())
                    .is_err()
                {
                    return;
                }
                thread::sleep(d);
            }
        }
    }
}

/// A port on 127.0.0.1 with nothing listening (bound, then released).
pub fn refused_url() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    format!("http://127.0.0.1:{port}/soap")
}
