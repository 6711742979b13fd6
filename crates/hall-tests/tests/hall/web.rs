//! The browser client is served from the binary: the page at `/`, its files with their
//! content types, revalidation by ETag, and 404 for anything else.

use crate::common::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A plain HTTP/1.1 GET; the whole answer as text.
async fn get(addr: &str, path: &str, extra: &str) -> String {
    let mut s = TcpStream::connect(addr).await.expect("connects");
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\r\n");
    s.write_all(req.as_bytes()).await.expect("sent");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    String::from_utf8_lossy(&out).into_owned()
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    answer.split("\r\n\r\n").next()?.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_files_are_served_with_types_and_etags() {
    let server = TestServer::fresh("web").await;
    let page = get(&server.addr, "/", "").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert_eq!(
        header(&page, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(header(&page, "cache-control"), Some("no-cache"));
    assert!(page.contains("/js/app.js"), "the page loads the client");

    let js = get(&server.addr, "/js/app.js", "").await;
    assert!(js.starts_with("HTTP/1.1 200"));
    assert_eq!(
        header(&js, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let tag = header(&js, "etag").expect("an etag").to_string();
    let again = get(
        &server.addr,
        "/js/app.js",
        &format!("If-None-Match: {tag}\r\n"),
    )
    .await;
    assert!(again.starts_with("HTTP/1.1 304"), "{again}");

    let css = get(&server.addr, "/app.css", "").await;
    assert_eq!(
        header(&css, "content-type"),
        Some("text/css; charset=utf-8")
    );

    assert!(get(&server.addr, "/nope.js", "")
        .await
        .starts_with("HTTP/1.1 404"));
    assert!(get(&server.addr, "/api/nothing", "")
        .await
        .starts_with("HTTP/1.1 404"));
    // The API is untouched by the fallback.
    assert!(get(&server.addr, "/healthz", "").await.contains("ok"));
    server.stop().await;
}
