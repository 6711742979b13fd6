//! The HTTP side: the WebSocket at `/ws`, health and metrics for operators, and read-only
//! JSON for records, replays, histories and leaderboards; everything else is the browser
//! client ([`crate::web`]).

use crate::hall::Hall;
use crate::store::HistoryCursor;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// Every route.
pub fn router(hall: Arc<Hall>) -> Router {
    let api = Router::new()
        .route("/api/games", get(games))
        .route("/api/games/{id}", get(record))
        .route("/api/games/{id}/players", get(players))
        .route("/api/games/{id}/replay/{step}", get(replay))
        .route("/api/games/{id}/export/{format}", get(export))
        .route("/api/users/{name}/games", get(history))
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route_layer(middleware::from_fn_with_state(hall.clone(), limit_api));
    Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .merge(api)
        .fallback(crate::web::serve)
        .layer(middleware::map_response(guarded))
        .with_state(hall)
}

/// What the page may load and who may frame it: its own scripts, styles and WebSocket
/// only, nothing inline, inside no other site's frame. A script injected into the page
/// (were one ever to get in) could neither run nor send anything elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Every response says how the browser must treat it ([`CONTENT_SECURITY_POLICY`]; no
/// framing, for browsers that predate `frame-ancestors`; no address of the hall's pages
/// sent to other sites, since a table's address holds its invite code; no guessing of
/// types).
async fn guarded(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ] {
        headers.insert(name, axum::http::HeaderValue::from_static(value));
    }
    response
}

/// Whether a WebSocket handshake's `Origin` may connect: none (a program, not a browser),
/// the hall's own (the host the request was sent to, by either scheme), or one the host
/// allowed ([`crate::ServerConfig::allowed_origins`]). Any other site's page would be
/// using its visitor's browser, and their session, as a client of this hall.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim_end_matches('/');
    if allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let own = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"));
    !host.is_empty() && own.is_some_and(|o| o.eq_ignore_ascii_case(host))
}

/// Answers `429 Too Many Requests` (with `Retry-After`) to an address past its share of
/// the API ([`crate::config::Limits::api_requests_per_second`]), before any work is done
/// for it; the WebSocket, the page and health checks are not counted here.
async fn limit_api(
    State(hall): State<Arc<Hall>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let address = client_address(peer, request.headers(), hall.config.behind_proxy);
    if hall.api_requests.take_in_hall(address).await {
        return next.run(request).await;
    }
    hall.metrics
        .errors
        .with_label_values(&["rate_limited"])
        .inc();
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, "1")],
        Json(json!({ "error": "too many requests from your address: slow down" })),
    )
        .into_response()
}

/// `ok` while the node serves; `503 draining` once a draining node got its signal
/// ([`Hall::start_draining`]), so that a reverse proxy's health check sends new
/// connections to the other nodes.
async fn healthz(State(hall): State<Arc<Hall>>) -> Response {
    if hall.draining() {
        return (StatusCode::SERVICE_UNAVAILABLE, "draining\n").into_response();
    }
    "ok\n".into_response()
}

fn not_found(what: String) -> Response {
    (StatusCode::NOT_FOUND, Json(json!({ "error": what }))).into_response()
}

fn bad_request(what: String) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "error": what }))).into_response()
}

/// Games a page of a history holds unless asked otherwise.
const HISTORY_PAGE: usize = 50;

/// The query of a history: `?before=…&limit=…`, read by hand so a malformed one gets an
/// answer in JSON like every other error.
#[derive(serde::Deserialize)]
struct HistoryQuery {
    before: Option<String>,
    limit: Option<String>,
}

/// A failure of the server's own (the database, a stored record it cannot read): logged
/// whole for the host, answered with no more than that it failed, since its text can tell
/// a stranger how the hall is built and where its data lives.
fn failed(e: impl std::fmt::Display) -> Response {
    tracing::error!(error = %e, "an HTTP request failed");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Json(json!({ "error": "internal error" })),
    )
        .into_response()
}

/// Bytes a connection reads at once. The library's default (128 KiB) would hold half a
/// gigabyte for 5,000 idle connections; messages are at most 16 KiB and the buffer grows
/// for a larger frame.
pub const READ_BUFFER: usize = 8 * 1024;

async fn ws(
    upgrade: WebSocketUpgrade,
    State(hall): State<Arc<Hall>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    if !origin_allowed(&headers, &hall.config.allowed_origins) {
        hall.metrics
            .errors
            .with_label_values(&["foreign_origin"])
            .inc();
        return (
            StatusCode::FORBIDDEN,
            "this hall's WebSocket serves its own page and the origins its host allows \
             (qipai serve --allowed-origin)\n",
        )
            .into_response();
    }
    if hall.draining() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "this node is draining: connect again, to another node\n",
        )
            .into_response();
    }
    let max = hall.config.limits.max_message;
    let address = client_address(peer, &headers, hall.config.behind_proxy);
    upgrade
        .read_buffer_size(READ_BUFFER)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| crate::conn::serve(socket, hall, address))
}

/// The client's address: the peer's, or behind a reverse proxy
/// ([`crate::ServerConfig::behind_proxy`]) the last address in `X-Forwarded-For`, which is
/// the one the proxy itself added (those before it come from the client and prove
/// nothing). The peer's when the header is missing or unreadable.
pub fn client_address(peer: SocketAddr, headers: &HeaderMap, behind_proxy: bool) -> IpAddr {
    if !behind_proxy {
        return peer.ip();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .last()
        .and_then(|a| a.trim().parse().ok())
        .unwrap_or(peer.ip())
}

/// The metrics, for clients on this machine only unless
/// [`crate::ServerConfig::public_metrics`].
async fn metrics(
    State(hall): State<Arc<Hall>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let address = client_address(peer, &headers, hall.config.behind_proxy);
    // A server listening on `[::]` sees this machine's IPv4 clients as `::ffff:127.0.0.1`.
    if !hall.config.public_metrics && !address.to_canonical().is_loopback() {
        return (
            StatusCode::FORBIDDEN,
            "the metrics are served to this machine only (qipai serve --public-metrics serves them to all)\n",
        )
            .into_response();
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        hall.metrics.render(),
    )
        .into_response()
}

async fn games(State(hall): State<Arc<Hall>>) -> Response {
    Json(hall.games()).into_response()
}

/// The finished game's record: what `qipai verify` checks. A game still running has no
/// public record yet (its seed is secret).
async fn record(State(hall): State<Arc<Hall>>, Path(id): Path<String>) -> Response {
    match finished(&hall, &id).await {
        Ok(r) => Json(r).into_response(),
        Err(response) => response,
    }
}

/// A finished game's record, or the response that says why there is none.
async fn finished(hall: &Hall, id: &str) -> Result<game::Record, Response> {
    match hall.store.finished_record(id).await {
        Ok(Some(r)) => Ok(r),
        Ok(None) => Err(not_found(format!("no finished game {id}"))),
        Err(e) => Err(failed(e)),
    }
}

/// Who played each seat of a finished game, for a replay to name them (the record itself
/// is the verifiable, player-free format `qipai verify` reads).
async fn players(State(hall): State<Arc<Hall>>, Path(id): Path<String>) -> Response {
    if let Err(response) = finished(&hall, &id).await {
        return response;
    }
    match hall.store.game_players(&id).await {
        Ok(players) => Json(json!({ "players": players })).into_response(),
        Err(e) => failed(e),
    }
}

async fn replay(
    State(hall): State<Arc<Hall>>,
    Path((id, step)): Path<(String, usize)>,
) -> Response {
    let record = match finished(&hall, &id).await {
        Ok(r) => r,
        Err(response) => return response,
    };
    match hall
        .registry
        .get(&record.game)
        .and_then(|g| g.replay_step(&record, step))
    {
        Ok(s) => Json(s).into_response(),
        Err(e) => failed(e),
    }
}

async fn export(
    State(hall): State<Arc<Hall>>,
    Path((id, format)): Path<(String, String)>,
) -> Response {
    let record = match finished(&hall, &id).await {
        Ok(r) => r,
        Err(response) => return response,
    };
    match hall
        .registry
        .get(&record.game)
        .and_then(|g| g.export(&record, &format))
    {
        Ok(Some(text)) => (
            [
                (
                    header::CONTENT_TYPE,
                    "text/plain; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{id}.{format}\""),
                ),
            ],
            text,
        )
            .into_response(),
        Ok(None) => not_found(format!(
            "{} games are not exported as {format}",
            record.game
        )),
        Err(e) => failed(e),
    }
}

/// A player's games and ratings. Games at private tables are the player's own business:
/// they are listed only when the request carries the player's own session
/// (`Authorization: Bearer <token>`, the token the WebSocket session gave). Without one,
/// or with anyone else's or an expired one, the history is the public one.
///
/// A page holds `limit` games (1 to 100, 50 by default), newest first; when there may be
/// more, `next` is the `before` that asks for the following page.
async fn history(
    State(hall): State<Arc<Hall>>,
    Path(name): Path<String>,
    Query(page): Query<HistoryQuery>,
    headers: HeaderMap,
) -> Response {
    let limit = match page.limit.as_deref().map(str::parse::<usize>) {
        None => HISTORY_PAGE,
        Some(Ok(n)) if (1..=100).contains(&n) => n,
        Some(_) => return bad_request("limit is a number of games from 1 to 100".into()),
    };
    let before = match page.before.as_deref().map(HistoryCursor::parse) {
        None => None,
        Some(Some(cursor)) => Some(cursor),
        Some(None) => return bad_request("before is the `next` of an earlier page".into()),
    };
    let (user, banned) = match hall.store.user_by_name(&name).await {
        Ok(Some(u)) => (u.info, u.banned.is_some()),
        Ok(None) => return not_found(format!("no player {name}")),
        Err(e) => return failed(e),
    };
    let asking = match bearer(&headers) {
        Some(token) => hall.accounts.resume(token).await.ok(),
        None => None,
    };
    let own = asking.as_ref().is_some_and(|a| a.id == user.id);
    // A moderator looking at someone they may ban is offered to (the page's Ban button).
    let can_moderate = asking
        .as_ref()
        .is_some_and(|a| crate::moderation::is_moderator(&hall, a))
        && !crate::moderation::is_moderator(&hall, &user);
    // A moderator's own profile is where the page lists the bans.
    let moderator = own && crate::moderation::is_moderator(&hall, &user);
    let games = match hall
        .store
        .history(user.id, limit, own, before.as_ref())
        .await
    {
        Ok(games) => games,
        Err(e) => return failed(e),
    };
    let next = (games.len() == limit)
        .then(|| games.last().map(|g| HistoryCursor::after(g).to_string()))
        .flatten();
    // The player's rating at every game (a profile page shows those played rated).
    let mut ratings = Vec::new();
    for g in hall.registry.games() {
        match hall.store.rating(user.id, g.id()).await {
            Ok(r) => ratings.push(json!({ "game": g.id(), "rating": r.rating, "deviation": r.deviation, "games": r.games, "provisional": r.provisional() })),
            Err(e) => return failed(e),
        }
    }
    let stats = match hall.store.stats(user.id, own).await {
        Ok(stats) => stats,
        Err(e) => return failed(e),
    };
    let computers = match hall.store.computer_record(user.id, own).await {
        Ok(record) => computer_levels(&hall, record),
        Err(e) => return failed(e),
    };
    Json(json!({
        "user": user,
        "games": games,
        "ratings": ratings,
        "stats": stats,
        "computers": computers,
        "next": next,
        "banned": banned,
        "can_moderate": can_moderate,
        "moderator": moderator,
    }))
    .into_response()
}

/// A player's record against computers, each bot named by its level at its game
/// (`"level": "strong"`, `null` for a bot no level plays).
fn computer_levels(hall: &Hall, record: Vec<crate::store::ComputerRecord>) -> Vec<Value> {
    record
        .into_iter()
        .map(|r| {
            let level = hall
                .registry
                .get(&r.game)
                .ok()
                .and_then(|g| crate::catalog::level_of(g, &r.bot));
            let mut row = json!(r);
            row["level"] = json!(level);
            row
        })
        .collect()
}

/// The token of an `Authorization: Bearer <token>` header, if the request has one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

async fn leaderboard(State(hall): State<Arc<Hall>>, Path(game): Path<String>) -> Response {
    if hall.registry.get(&game).is_err() {
        return not_found(format!("no game {game}"));
    }
    match hall.store.leaderboard(&game, 50).await {
        Ok(rows) => Json(
            rows.into_iter()
                .map(|(name, r)| json!({ "name": name, "rating": r.rating, "deviation": r.deviation, "games": r.games, "provisional": r.provisional() }))
                .collect::<Vec<_>>(),
        )
        .into_response(),
        Err(e) => failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn behind_a_proxy_the_client_is_the_last_forwarded_address_else_the_peer() {
        let proxy: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        let mut headers = HeaderMap::new();
        // The client wrote the first entry itself; the proxy appended the real one.
        headers.append(
            "x-forwarded-for",
            HeaderValue::from_static("6.6.6.6, 203.0.113.7"),
        );
        assert_eq!(
            client_address(proxy, &headers, true),
            "203.0.113.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(proxy, &headers, false), proxy.ip());
        headers.append("x-forwarded-for", HeaderValue::from_static("2001:db8::1"));
        assert_eq!(
            client_address(proxy, &headers, true),
            "2001:db8::1".parse::<IpAddr>().unwrap()
        );
        let unreadable = HeaderMap::from_iter([(
            header::HeaderName::from_static("x-forwarded-for"),
            HeaderValue::from_static("somewhere"),
        )]);
        assert_eq!(client_address(proxy, &unreadable, true), proxy.ip());
        assert_eq!(client_address(proxy, &HeaderMap::new(), true), proxy.ip());
    }
}
