//! `demo-server`: the HTTP side of benchgate's demo crate, measured by a `kind: load` suite.
//! Standard library only: HTTP/1.1 with keep-alive, one thread per connection.
//!
//! Usage: `demo-server --port N` (binds 127.0.0.1:N; stops on SIGTERM like any process).
//!
//! - `GET /health` → `200 ok`
//! - `GET /stats?count=N` → the summary `demo-cli stats --count N` prints (N ≤ 1 000 000)
//! - anything else → 404

use std::io::{BufRead, BufReader, Read as _, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::thread;
use std::time::Duration;

use demo_crate::{fnv1a, join_numbers, parse_numbers, pseudo_random, render_report};

/// Extra time every request takes, in milliseconds. benchgate's load-suite tests set it to 5 in a
/// head commit and check that the gate finds the slower p99 and the lower requests/s.
const EXTRA_DELAY_MS: u64 = 0;

const MAX_COUNT: usize = 1_000_000;
const MAX_HEADER_LINES: usize = 100;

fn stats(count: usize) -> String {
    let text = join_numbers(&pseudo_random(count, 42, 1_000_000));
    let mut values = parse_numbers(&text);
    values.sort_unstable();
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    format!("{}checksum: {:016x}\n", render_report(&values), fnv1a(&bytes))
}

/// The status and body for one request line's method and target.
fn route(method: &str, target: &str) -> (&'static str, String) {
    if method != "GET" {
        return ("405 Method Not Allowed", "only GET\n".to_string());
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match path {
        "/health" => ("200 OK", "ok\n".to_string()),
        "/stats" => {
            let count = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("count="))
                .map_or(Ok(1000), str::parse::<usize>);
            match count {
                Ok(n) if n <= MAX_COUNT => ("200 OK", stats(n)),
                _ => ("400 Bad Request", format!("count must be 0..={MAX_COUNT}\n")),
            }
        }
        _ => ("404 Not Found", "not found\n".to_string()),
    }
}

/// Serves one connection until the client closes it or asks to.
fn serve(stream: TcpStream) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let (method, target) = (
            parts.next().unwrap_or("").to_string(),
            parts.next().unwrap_or("/").to_string(),
        );
        let http10 = parts.next() == Some("HTTP/1.0");
        let mut close = http10;
        let mut length = 0usize;
        let mut header = String::new();
        for _ in 0..MAX_HEADER_LINES {
            header.clear();
            if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
                break;
            }
            let lower = header.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            if lower.starts_with("connection:") {
                close = lower.contains("close");
            }
        }
        // A body (there should be none for GET) is read and dropped.
        std::io::copy(&mut (&mut reader).take(length as u64), &mut std::io::sink())?;
        // per request
        if EXTRA_DELAY_MS > 0 {
            thread::sleep(Duration::from_millis(EXTRA_DELAY_MS));
        }
        let (status, body) = route(&method, &target);
        // One write per answer: several small ones would wait on the client's delayed ACKs.
        let answer = format!(
            "HTTP/1.1 {status}\r\ncontent-type: text/plain\r\ncontent-length: {}\r\n{}\r\n{body}",
            body.len(),
            if close { "connection: close\r\n" } else { "" }
        );
        writer.write_all(answer.as_bytes())?;
        if close {
            return Ok(());
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let port = match args.as_slice() {
        [flag, port] if flag == "--port" => port.parse::<u16>().ok(),
        _ => None,
    };
    let Some(port) = port else {
        eprintln!("usage: demo-server --port N");
        return ExitCode::from(2);
    };
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("demo-server: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::from(1);
        }
    };
    eprintln!("demo-server: listening on 127.0.0.1:{port}");
    for stream in listener.incoming() {
        match stream {
            Ok(s) => {
                thread::spawn(move || {
                    let _ = serve(s);
                });
            }
            Err(e) => eprintln!("demo-server: accept failed: {e}"),
        }
    }
    ExitCode::SUCCESS
}
