//! The browser client (the repository's `web/` folder), built into the binary so that
//! `qipai serve` needs no files beside it and no Node or bundler to build or run.
//!
//! Files are served with their content type and an `ETag` (a hash of their bytes) under
//! `Cache-Control: no-cache`: a browser keeps them and revalidates each load with a cheap
//! `304 Not Modified`, so a new binary's client is never mixed with a cached old one.
//!
//! While working on the client, `QIPAI_WEB_DIR=web` makes the server read the files from
//! that folder at each request instead, so a change shows on reload without a rebuild.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::OnceLock;

/// One file of the client.
pub struct Asset {
    /// Its path below `/`, as the page asks for it (`js/app.js`).
    pub path: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

macro_rules! assets {
    ($($path:literal),* $(,)?) => {
        &[$(Asset {
            path: $path,
            body: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/", $path)),
        }),*]
    };
}

/// Every file of the client. A test checks that this list and the `web/` folder (less its
/// tests) agree, so a new file cannot be forgotten.
pub const ASSETS: &[Asset] = assets![
    "index.html",
    "app.css",
    "favicon.svg",
    "cues.css",
    "table.css",
    "pages.css",
    "js/app.js",
    "js/cards.js",
    "js/cardtable.js",
    "js/chat.js",
    "js/counter.js",
    "js/cues.js",
    "js/dom.js",
    "js/fair.js",
    "js/gomoku.js",
    "js/guide.js",
    "js/i18n.js",
    "js/levels.js",
    "js/lobby.js",
    "js/net.js",
    "js/over.js",
    "js/profile.js",
    "js/quickchat.js",
    "js/ratings.js",
    "js/rules.js",
    "js/sound.js",
    "js/swap2.js",
    "js/stakes.js",
    "js/table.js",
    "js/tenhalf.js",
];

/// The content type for a file name.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// Each asset's ETag, computed once.
fn etags() -> &'static HashMap<&'static str, String> {
    static TAGS: OnceLock<HashMap<&'static str, String>> = OnceLock::new();
    TAGS.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| {
                let hash = Sha256::digest(a.body);
                (a.path, format!("\"{}\"", hex::encode(&hash[..12])))
            })
            .collect()
    })
}

/// Serves the client: `/` is the page, anything else a file of it or 404.
pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let Some(asset) = ASSETS.iter().find(|a| a.path == path) else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    if let Some(dir) = std::env::var_os("QIPAI_WEB_DIR") {
        return match tokio::fs::read(std::path::Path::new(&dir).join(asset.path)).await {
            Ok(body) => (
                [
                    (header::CACHE_CONTROL, "no-store"),
                    (header::CONTENT_TYPE, content_type(asset.path)),
                ],
                body,
            )
                .into_response(),
            Err(e) => (StatusCode::NOT_FOUND, e.to_string()).into_response(),
        };
    }
    let tag = etags().get(asset.path).cloned().unwrap_or_default();
    // The security headers every response carries are added in `crate::http`.
    let cache = [(header::CACHE_CONTROL, "no-cache")];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let etag = HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("\"\""));
    if fresh {
        return (StatusCode::NOT_MODIFIED, cache, [(header::ETAG, etag)]).into_response();
    }
    (
        cache,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(asset.path)),
            ),
            (header::ETAG, etag),
        ],
        asset.body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn files(dir: &Path, base: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let path = e.path();
            let rel = path
                .strip_prefix(base)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            if path.is_dir() {
                // The end-to-end tests live beside the client but are not part of it.
                if rel != "tests" {
                    files(&path, base, out);
                }
            } else {
                out.push(rel);
            }
        }
    }

    #[test]
    fn every_file_of_the_client_is_built_in_and_nothing_else() {
        let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut on_disk = Vec::new();
        files(&base, &base, &mut on_disk);
        on_disk.sort();
        let mut listed: Vec<String> = ASSETS.iter().map(|a| a.path.to_string()).collect();
        listed.sort();
        assert_eq!(
            listed, on_disk,
            "web.rs's ASSETS and the web/ folder differ"
        );
    }

    #[test]
    fn content_types_fit_the_files() {
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("js/app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("favicon.svg"), "image/svg+xml");
    }
}
