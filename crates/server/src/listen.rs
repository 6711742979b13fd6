//! Accepting connections: TCP in, HTTP/1.1 or HTTP/2 served by hyper, the WebSocket
//! upgraded out of it ([`crate::http`]).
//!
//! `axum::serve` would do, but it bounds nothing a stranger can hold open: a client that
//! sends half a request keeps its connection for ever, and plain HTTP connections count
//! toward no limit. Here:
//!
//! * a request's headers must arrive within
//!   [`crate::config::Limits::request_headers_within`] of the connection being opened or
//!   going idle, or the connection is closed;
//! * one address holds at most [`HTTP_PER_WEBSOCKET`] times
//!   [`crate::config::Limits::connections_per_address`] HTTP connections at once (and at
//!   least [`HTTP_FLOOR`]): a browser keeps several idle connections a page open beside its
//!   WebSocket, which is counted apart, by [`crate::Hall::connection`], once upgraded.
//!   Behind a proxy every connection comes from the proxy, which must then bound its
//!   clients itself (docs/server.md).

use crate::config::Limits;
use crate::ratelimit::address_key;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt;

/// HTTP connections one address may hold for each WebSocket it may: a browser keeps up
/// to six idle connections to a host, shared by its tabs.
pub const HTTP_PER_WEBSOCKET: usize = 4;
/// The least bound on HTTP connections per address, however few WebSockets it may hold.
pub const HTTP_FLOOR: usize = 64;

/// The HTTP connections open from each address (keyed as the hall's other limits are).
#[derive(Default)]
struct OpenByAddress(Mutex<HashMap<IpAddr, usize>>);

/// One counted connection; uncounted when dropped.
struct Counted(Arc<OpenByAddress>, IpAddr);

impl OpenByAddress {
    fn open(self: &Arc<Self>, address: IpAddr, limit: usize) -> Option<Counted> {
        let address = address_key(address);
        let mut open = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(address).or_insert(0);
        if limit > 0 && *n >= limit {
            return None;
        }
        *n += 1;
        Some(Counted(self.clone(), address))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = self.0 .0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.1);
            }
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then stops accepting and lets
/// the requests in progress finish. `limits` bound each address's open HTTP connections
/// (`connections_per_address`, 0: no bound) and the wait for headers; `behind_proxy`
/// turns the bound per address off (see the module's docs).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    limits: &Limits,
    behind_proxy: bool,
) {
    let limit = match limits.connections_per_address {
        _ if behind_proxy => 0,
        0 => 0,
        n => (n * HTTP_PER_WEBSOCKET).max(HTTP_FLOOR),
    };
    let headers_within = limits.request_headers_within;
    let open = Arc::new(OpenByAddress::default());
    let (stop, stopping) = watch::channel(false);
    let (done, all_done) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of files, or a connection reset before it was accepted: the
                    // listener itself is fine; wait a moment rather than spin.
                    tracing::debug!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some(counted) = open.open(peer.ip(), limit) else {
            tracing::debug!(%peer, "too many HTTP connections from one address");
            continue;
        };
        // Frames are small and answer one another: Nagle's algorithm against the peer's
        // delayed acknowledgements would hold each for up to 40 ms.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
        tokio::spawn(connection(
            TokioIo::new(tcp),
            peer,
            app.clone(),
            stopping.clone(),
            headers_within,
            (counted, done.subscribe()),
        ));
    }
    let _ = stop.send(true);
    drop(all_done);
    done.closed().await;
}

/// One connection, until it ends or the server stops; `held` is dropped with it.
async fn connection(
    io: TokioIo<tokio::net::TcpStream>,
    peer: SocketAddr,
    app: Router,
    mut stopping: watch::Receiver<bool>,
    headers_within: Duration,
    held: (Counted, watch::Receiver<()>),
) {
    let service = app.map_request(move |request: Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        request
    });
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(headers_within);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(headers_within)
        .keep_alive_timeout(headers_within)
        .enable_connect_protocol();
    // A connection that sends nothing at all is closed as one that sends half a request
    // (hyper's timer starts at the first byte).
    let mut byte = [0u8; 1];
    let first = tokio::time::timeout(headers_within, io.inner().peek(&mut byte)).await;
    if !matches!(first, Ok(Ok(n)) if n > 0) {
        return;
    }
    let served = builder.serve_connection_with_upgrades(io, TowerToHyperService::new(service));
    tokio::pin!(served);
    let stop = async move {
        let _ = stopping.wait_for(|s| *s).await;
    };
    tokio::select! {
        result = served.as_mut() => {
            if let Err(e) = result {
                tracing::trace!(error = %e, "a connection ended in error");
            }
        }
        () = stop => {
            served.as_mut().graceful_shutdown();
            // Waits for the connection to finish its request and close.
            let _ = served.as_mut().await;
        }
    }
    drop(held);
}
