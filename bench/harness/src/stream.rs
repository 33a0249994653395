//! A streamed response of millions of report rows (`ItemStream`), against the in-memory reader:
//! what `bash bench/streaming.sh` runs.
//!
//! ```text
//! soapgen-bench stream-serve ROWS            serves ROWS rows per call on 127.0.0.1, prints its URL
//! soapgen-bench stream-read URL streamed|buffered   one call; prints bytes, secs, MB/s, rows, peak RSS
//! soapgen-bench stream-memory ROWS ITERS     the in-memory reader over an envelope of ROWS rows
//! soapgen-bench mtom-serve BYTES             serves an MTOM response with a BYTES attachment
//! soapgen-bench mtom-read URL DIR            one call, the attachment to a file in DIR
//! ```
//!
//! A row is what a report or a search returns (an id, a name, an amount, a timestamp, a flag):
//! about 210 bytes of XML, so 10 million rows are 2.1 GB. The server writes a `Content-Length`
//! body of the envelope's start, the rows (1,000 distinct ones, repeated with their ids counted
//! on), and the envelope's end, in 256 KiB writes.

use std::io::Write as _;
use std::time::Instant;

use soapgen_runtime::types::{DateTime, Decimal};
use soapgen_runtime::{soap_client, Client, Error, FromXml, ItemStream, ToXml};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The report service's namespace.
const NS: &str = "urn:soapgen:bench:report";

/// One row of a report.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:bench:report")]
pub struct Row {
    /// `id`.
    pub id: i64,
    /// `name`.
    pub name: String,
    /// `amount` (xs:decimal).
    pub amount: Decimal,
    /// `booked` (xs:dateTime).
    pub booked: DateTime,
    /// `settled`.
    pub settled: bool,
}

#[soap_client(namespace = "urn:soapgen:bench:report", soap = "1.1")]
trait Report {
    /// The whole report, read into memory.
    #[soap(
        name = "GetReport",
        action = "urn:soapgen:bench:report/GetReport",
        response = "GetReportResponse",
        result = "row"
    )]
    async fn get_report(&self, query: String) -> Result<Vec<Row>, Error>;

    /// The report's rows as they arrive.
    #[soap(
        name = "GetReport",
        action = "urn:soapgen:bench:report/GetReport",
        response = "GetReportResponse",
        result = "row"
    )]
    async fn get_report_stream(&self, query: String) -> Result<ItemStream<Row>, Error>;
}

/// The first row's id: every id has 8 digits, so that every block of rows has one length.
const FIRST: i64 = 10_000_000;

/// Row `i`.
fn row(i: i64) -> Row {
    Row {
        id: i,
        name: format!("Customer account {i:08} & partners"),
        amount: Decimal::new((100_000 + i * 37 % 900_000).into(), 2),
        booked: "2026-11-30T12:34:56.789+01:00".parse().expect("dateTime"),
        settled: i % 2 == 0,
    }
}

/// The XML of rows `from..from + n`, as the runtime's writer writes them inside the response.
fn rows_xml(from: i64, n: i64) -> String {
    let mut env = soapgen_runtime::envelope::EnvelopeWriter::new(
        soapgen_runtime::SoapVersion::Soap11,
        &[("r", NS)],
    )
    .expect("writer");
    env.body(|w| {
        w.start_element(soapgen_runtime::xml::Name::new(NS, "GetReportResponse"))?;
        for i in from..from + n {
            row(i).write_xml(w, soapgen_runtime::xml::Name::new(NS, "row"))?;
        }
        w.end_element()
    })
    .expect("rows");
    env.finish().expect("envelope")
}

/// The response's start, the XML of 1,000 rows, and its end.
fn parts() -> (String, String, String) {
    let whole = rows_xml(FIRST, 1000);
    let open = "<r:GetReportResponse>";
    let start = whole.find(open).expect("wrapper") + open.len();
    let end = whole.rfind("</r:GetReportResponse>").expect("wrapper end");
    (
        whole[..start].to_owned(),
        whole[start..end].to_owned(),
        whole[end..].to_owned(),
    )
}

/// This process's peak resident set (VmHWM), KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Reads one HTTP/1.1 request from `socket`: its header fields and a body of Content-Length
/// bytes; `false` when the connection ended first.
async fn read_request(socket: &mut tokio::net::TcpStream) -> bool {
    let mut buf = vec![0u8; 64 * 1024];
    let mut seen = Vec::new();
    loop {
        let Ok(n) = socket.read(&mut buf).await else {
            return false;
        };
        if n == 0 {
            return false;
        }
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        if let Some(h) = text.find("\r\n\r\n") {
            let len: usize = text[..h]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .and_then(|v| v.trim().parse().ok())
                })
                .unwrap_or(0);
            if seen.len() >= h + 4 + len {
                return true;
            }
        }
    }
}

/// `stream-serve ROWS`: see the module docs. Runs until killed.
pub fn serve(rows: u64) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        println!("http://{}/report", listener.local_addr().expect("address"));
        let _ = std::io::stdout().flush();
        let (head, block, tail) = parts();
        // Four blocks of 1,000 rows with ids of 8 digits: one length, and repeated.
        let blocks: Vec<Vec<u8>> = (0..4)
            .map(|b| {
                let x = rows_xml(FIRST + b * 1000, 1000);
                let s = x.find("<r:row>").expect("row");
                let e = x.rfind("</r:GetReportResponse>").expect("end");
                x.as_bytes()[s..e].to_vec()
            })
            .collect();
        assert!(blocks.iter().all(|b| b.len() == block.len()));
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { continue };
            let (head, tail, blocks) = (head.clone(), tail.clone(), blocks.clone());
            tokio::spawn(async move {
                if !read_request(&mut socket).await {
                    return;
                }
                let whole_blocks = rows / 1000;
                let length = head.len() as u64
                    + whole_blocks * blocks[0].len() as u64
                    + tail.len() as u64;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {length}\r\n\r\n{head}"
                );
                if socket.write_all(answer.as_bytes()).await.is_err() {
                    return;
                }
                // 256 KiB writes: a run of whole blocks.
                let per = (256 * 1024 / blocks[0].len()).max(1);
                let mut batch = Vec::with_capacity(per * blocks[0].len());
                for b in 0..whole_blocks {
                    batch.extend_from_slice(&blocks[(b % 4) as usize]);
                    if batch.len() >= per * blocks[0].len() {
                        if socket.write_all(&batch).await.is_err() {
                            return;
                        }
                        batch.clear();
                    }
                }
                batch.extend_from_slice(tail.as_bytes());
                let _ = socket.write_all(&batch).await;
                let _ = socket.shutdown().await;
            });
        }
    });
}

/// `stream-read URL streamed|buffered`: one call; see the module docs.
pub fn read(url: &str, streamed: bool) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let client = ReportClient::from_client(
            Client::builder(url)
                .max_response_bytes(usize::MAX / 2)
                .timeout(std::time::Duration::from_secs(600))
                .build()
                .expect("client"),
        );
        let started = Instant::now();
        let (mut rows, mut sum) = (0u64, 0i64);
        if streamed {
            let mut stream = client
                .get_report_stream("all".to_owned())
                .await
                .expect("the call");
            while let Some(r) = stream.next().await {
                let r = r.expect("a row");
                rows += 1;
                sum = sum.wrapping_add(r.id);
            }
        } else {
            for r in client.get_report("all".to_owned()).await.expect("the call") {
                rows += 1;
                sum = sum.wrapping_add(r.id);
            }
        }
        let secs = started.elapsed().as_secs_f64();
        let (head, block, tail) = parts();
        let bytes = head.len() as u64 + rows / 1000 * block.len() as u64 + tail.len() as u64;
        println!(
            "mode={} rows={rows} bytes={bytes} secs={secs:.3} mb_per_s={:.1} peak_rss_kib={} checksum={sum}",
            if streamed { "streamed" } else { "buffered" },
            bytes as f64 / 1e6 / secs,
            peak_rss_kib()
        );
    });
}

/// `stream-memory ROWS ITERS`: the reader of a buffered call (the same `Vec<Row>` result
/// decoder) over an envelope of ROWS rows held in memory, ITERS times; prints the best MB/s.
pub fn memory(rows: i64, iters: u32) {
    use soapgen_runtime::envelope::{read_response, BodyContent};
    let xml = rows_xml(FIRST, rows);
    let mut best = f64::MAX;
    let mut count = 0;
    for _ in 0..iters {
        let started = Instant::now();
        let read = read_response(
            xml.as_bytes(),
            soapgen_runtime::xml::Limits::default(),
            Some(200),
            |r, start| {
                let _ = start;
                let mut out = Vec::new();
                while let Some(c) = r.next_child()? {
                    out.push(soapgen_runtime::__private::read_required::<Row>(r, c)?);
                }
                Ok(out)
            },
        );
        best = best.min(started.elapsed().as_secs_f64());
        match read {
            Ok(BodyContent::Payload(v)) => count = v.len(),
            other => panic!("not a report: {other:?}"),
        }
    }
    println!(
        "mode=memory rows={count} bytes={} secs={best:.4} mb_per_s={:.1} peak_rss_kib={}",
        xml.len(),
        xml.len() as f64 / 1e6 / best,
        peak_rss_kib()
    );
}

/// A document whose content comes as an MTOM attachment (XOP 1.0 §3).
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:bench:files")]
pub struct Document {
    /// `name`.
    pub name: String,
    /// `content` (xs:base64Binary, sent as an `xop:Include`).
    pub content: soapgen_runtime::types::Base64Binary,
}

#[soap_client(namespace = "urn:soapgen:bench:files", soap = "1.1")]
trait Files {
    #[soap(
        name = "Fetch",
        action = "urn:soapgen:bench:files/Fetch",
        response = "FetchResponse",
        result = "document"
    )]
    async fn fetch(&self, name: String) -> Result<Document, Error>;
}

/// The attachment's byte at `i`: a pattern the reader checks without holding it.
fn pattern(i: u64) -> u8 {
    (i.wrapping_mul(2_654_435_761) >> 13) as u8
}

/// `mtom-serve BYTES`: answers each call with an MTOM response (`multipart/related`, a binary
/// part of BYTES bytes), written in 256 KiB writes. Runs until killed.
pub fn mtom_serve(bytes: u64) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        println!("http://{}/files", listener.local_addr().expect("address"));
        let _ = std::io::stdout().flush();
        let head = "--MIME_b\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n\
            Content-ID: <root@bench>\r\n\r\n\
            <s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
            <f:FetchResponse xmlns:f=\"urn:soapgen:bench:files\"><f:document><f:name>archive.bin</f:name>\
            <f:content><xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" \
            href=\"cid:data@bench\"/></f:content></f:document></f:FetchResponse></s:Body></s:Envelope>\
            \r\n--MIME_b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\n\
            Content-ID: <data@bench>\r\n\r\n";
        let tail = "\r\n--MIME_b--\r\n";
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { continue };
            tokio::spawn(async move {
                if !read_request(&mut socket).await {
                    return;
                }
                let length = head.len() as u64 + bytes + tail.len() as u64;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: multipart/related; boundary=\"MIME_b\"; \
                     type=\"application/xop+xml\"; start=\"<root@bench>\"; start-info=\"text/xml\"\r\n\
                     Content-Length: {length}\r\n\r\n{head}"
                );
                if socket.write_all(answer.as_bytes()).await.is_err() {
                    return;
                }
                let mut at = 0u64;
                let mut block = vec![0u8; 256 * 1024];
                while at < bytes {
                    let n = (bytes - at).min(block.len() as u64) as usize;
                    for (k, b) in block[..n].iter_mut().enumerate() {
                        *b = pattern(at + k as u64);
                    }
                    if socket.write_all(&block[..n]).await.is_err() {
                        return;
                    }
                    at += n as u64;
                }
                let _ = socket.write_all(tail.as_bytes()).await;
                let _ = socket.shutdown().await;
            });
        }
    });
}

/// `mtom-read URL DIR`: one call with an `AttachmentStore` in DIR; checks the file against the
/// pattern (reading it, not the mapping) and removes it; prints bytes, secs, MB/s, peak RSS.
pub fn mtom_read(url: &str, dir: &str) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let client = FilesClient::from_client(
            Client::builder(url)
                .attachment_store(soapgen_runtime::mime::AttachmentStore::dir(dir))
                .timeout(std::time::Duration::from_secs(600))
                .build()
                .expect("client"),
        );
        let started = Instant::now();
        let doc = client
            .fetch("archive.bin".to_owned())
            .await
            .expect("the call");
        let secs = started.elapsed().as_secs_f64();
        let rss = peak_rss_kib();
        let len = doc.content.len() as u64;
        let file = soapgen_runtime::mime::file_of(&doc.content).expect("mapped from a file");
        drop(doc);
        // The file holds the pattern: read back in pieces (the page cache, not this process's
        // memory).
        use std::io::Read as _;
        let mut f = std::fs::File::open(&file).expect("the file");
        let mut buf = vec![0u8; 1 << 20];
        let mut at = 0u64;
        loop {
            let n = f.read(&mut buf).expect("read");
            if n == 0 {
                break;
            }
            assert!(
                buf[..n]
                    .iter()
                    .enumerate()
                    .all(|(k, &b)| b == pattern(at + k as u64)),
                "the file differs from what was sent near byte {at}"
            );
            at += n as u64;
        }
        assert_eq!(at, len, "the file's length");
        std::fs::remove_file(&file).expect("remove the file");
        println!(
            "mode=mtom bytes={len} secs={secs:.3} mb_per_s={:.1} peak_rss_kib={rss}",
            len as f64 / 1e6 / secs
        );
    });
}
