//! Plain HTTP GETs to a hall's API, for the commands that read it: `qipai connect`
//! (rankings, histories) and `qipai loadtest` (records, `/metrics`).
//!
//! One kept-alive HTTP/1.1 connection, no TLS: `qipai connect` speaks plain `ws://` to the
//! same address, and a hall behind TLS has its proxy in front of both.

use anyhow::{Context, Result};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// `host:port` of a server given as `host:port`, `http://…` or `ws://…`.
pub fn host_port(url: &str) -> String {
    let rest = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .trim_end_matches('/');
    rest.split('/').next().unwrap_or(rest).to_string()
}

/// One kept-alive HTTP/1.1 connection to the server.
pub struct Http {
    host: String,
    sender: SendRequest<Empty<Bytes>>,
}

impl Http {
    /// Connects to `host` (`host:port`).
    pub async fn connect(host: &str) -> Result<Http> {
        let stream = TcpStream::connect(host)
            .await
            .with_context(|| format!("cannot connect to {host}"))?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .context("HTTP handshake")?;
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Ok(Http {
            host: host.to_string(),
            sender,
        })
    }

    /// GETs `path`: the status and the body. A server that limits what one address may
    /// ask of its API (`qipai serve` without `--api-requests-per-second 0`) answers 429
    /// past its share: the request is made again after the second it asks to wait, so a
    /// record is not counted lost for being asked for too fast (up to a minute of waits).
    pub async fn get(&mut self, path: &str) -> Result<(u16, Bytes)> {
        let mut waits = 0;
        loop {
            let (status, body) = self.get_as(path, None).await?;
            if status != 429 || waits == 60 {
                return Ok((status, body));
            }
            waits += 1;
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    }

    /// GETs `path` once, as the session of `token` if given (`Authorization: Bearer`, as
    /// the page asks): the status and the body.
    pub async fn get_as(&mut self, path: &str, token: Option<&str>) -> Result<(u16, Bytes)> {
        self.sender.ready().await.context("HTTP connection")?;
        let mut request = hyper::Request::get(path).header(hyper::header::HOST, &self.host);
        if let Some(token) = token {
            request = request.header(hyper::header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = request.body(Empty::new()).context("HTTP request")?;
        let response = self
            .sender
            .send_request(request)
            .await
            .with_context(|| format!("GET {path}"))?;
        let status = response.status().as_u16();
        let body = response
            .into_body()
            .collect()
            .await
            .with_context(|| format!("GET {path}: body"))?
            .to_bytes();
        Ok((status, body))
    }
}
