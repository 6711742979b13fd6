//! What the hall's HTTP API tells a terminal player between games: a game's rankings
//! (`ranks`) and a player's finished games (`history`), as the page's Rankings and Profile
//! show them.
//!
//! The WebSocket carries tables and chat; records, histories and rankings are the HTTP
//! API's, on the same address. A player's own history is asked for with the session's
//! token, so it lists their games at private tables too, as the page's does.

use crate::http::{host_port, Http};
use anyhow::{bail, Context, Result};
use game::Registry;
use serde::Deserialize;
use server::protocol::UserInfo;
use server::store::{GameStats, GameSummary};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long an answer may take before the command gives up (the table goes on meanwhile
/// only once it returns).
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// How many games of a history are asked for and printed, newest first.
const SHOWN: usize = 20;

/// One row of `/api/leaderboard/{game}`.
#[derive(Deserialize)]
struct Ranked {
    name: String,
    rating: f64,
    games: u64,
    #[serde(default)]
    provisional: bool,
}

/// `/api/users/{name}/games`.
#[derive(Deserialize)]
struct History {
    user: UserInfo,
    games: Vec<GameSummary>,
    #[serde(default)]
    ratings: Vec<Rated>,
    /// The player's record at each game played.
    #[serde(default)]
    stats: Vec<GameStats>,
    /// Set when there are older games than this page holds.
    #[serde(default)]
    next: Option<String>,
}

/// A rating in a history.
#[derive(Deserialize)]
struct Rated {
    game: String,
    rating: f64,
    deviation: f64,
    games: u64,
}

/// GETs `path` from the server of `url` (as `token`'s session if given) and reads the
/// JSON; an answer other than 200 is the server's error message.
async fn get<T: for<'de> Deserialize<'de>>(
    url: &str,
    path: &str,
    token: Option<&str>,
) -> Result<T> {
    let ask = async {
        let mut http = Http::connect(&host_port(url)).await?;
        http.get_as(path, token).await
    };
    let (status, body) = tokio::time::timeout(ANSWER_WITHIN, ask)
        .await
        .context("the server did not answer in time")??;
    if status == 429 {
        bail!("the server asks to slow down: try again in a second");
    }
    if status != 200 {
        let message = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["error"].as_str().map(str::to_string))
            .unwrap_or_else(|| String::from_utf8_lossy(&body).trim().to_string());
        bail!("{message}");
    }
    serde_json::from_slice(&body).with_context(|| format!("GET {path}: not the expected JSON"))
}

/// A path segment, percent-encoded: a name may hold any character a player chose.
fn segment(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The game's name as people know it (`Gomoku 五子棋`), or its id if this build lacks it.
fn game_name(registry: &Registry, id: &str) -> String {
    registry
        .get(id)
        .map_or_else(|_| id.to_string(), |g| g.name().to_string())
}

/// `ranks GAME`: the game's rankings, settled ratings ranked and provisional ones after.
pub async fn rankings(registry: &Registry, url: &str, game: &str) -> Result<String> {
    registry.get(game)?;
    let rows: Vec<Ranked> = get(url, &format!("/api/leaderboard/{}", segment(game)), None).await?;
    Ok(rankings_text(&game_name(registry, game), &rows))
}

fn rankings_text(game: &str, rows: &[Ranked]) -> String {
    if rows.is_empty() {
        return format!("No rated games of {game} yet: only games between registered players at rated tables count.");
    }
    let mut lines = vec![
        format!("Rankings of {game}:"),
        format!(
            "{:>4}  {:<20} {:>7} {:>6}",
            "#", "player", "rating", "games"
        ),
    ];
    for (i, r) in rows.iter().enumerate() {
        if r.provisional && (i == 0 || !rows[i - 1].provisional) {
            lines.push("  not ranked yet (few games; ? marks an unsure rating):".into());
        }
        let rank = if r.provisional {
            String::new()
        } else {
            (i + 1).to_string()
        };
        let rating = format!("{:.0}{}", r.rating, if r.provisional { "?" } else { "" });
        lines.push(format!(
            "{rank:>4}  {:<20} {rating:>7} {:>6}",
            r.name, r.games
        ));
    }
    lines.join("\n")
}

/// `history [NAME]`: a player's ratings and latest games, each with its replay's address.
pub async fn history(
    registry: &Registry,
    url: &str,
    name: &str,
    token: Option<&str>,
) -> Result<String> {
    let path = format!("/api/users/{}/games?limit={SHOWN}", segment(name));
    let history: History = get(url, &path, token).await?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    Ok(history_text(
        registry,
        &history,
        &format!("http://{}", host_port(url)),
        now,
    ))
}

fn history_text(registry: &Registry, h: &History, base: &str, now: i64) -> String {
    let mut lines = vec![format!(
        "{}{}",
        h.user.name,
        if h.user.guest { " (guest)" } else { "" }
    )];
    let rated: Vec<String> = h
        .ratings
        .iter()
        .filter(|r| r.games > 0)
        .map(|r| {
            format!(
                "{} {:.0} ±{:.0} ({} rated)",
                game_name(registry, &r.game),
                r.rating,
                2.0 * r.deviation,
                r.games
            )
        })
        .collect();
    if !rated.is_empty() {
        lines.push(format!("Ratings: {}", rated.join(", ")));
    }
    let record: Vec<String> = h
        .stats
        .iter()
        .map(|r| {
            // No count of wins where none of the games had a winning side (all draws).
            let won = r.won.map_or_else(String::new, |n| format!(", {n} won"));
            let games = if r.played == 1 { "game" } else { "games" };
            format!(
                "{} {} {games}{won}, {:+}",
                game_name(registry, &r.game),
                r.played,
                r.net
            )
        })
        .collect();
    if !record.is_empty() {
        lines.push(format!("Record: {}", record.join("; ")));
    }
    let finished: Vec<&GameSummary> = h.games.iter().filter(|g| g.finished_at.is_some()).collect();
    if finished.is_empty() {
        lines.push("No finished games yet.".into());
        return lines.join("\n");
    }
    lines.push("Latest games:".into());
    for g in &finished {
        let score = g.score.map_or_else(String::new, |s| format!("{s:+}"));
        let private = if g.private { " [private]" } else { "" };
        lines.push(format!(
            "  {} {}{private}, {score} with {}: {base}/#/replay/{}",
            ago(now - g.finished_at.unwrap_or(now)),
            game_name(registry, &g.game),
            company(g),
            g.id
        ));
    }
    if h.next.is_some() {
        lines.push(format!(
            "  … and older ones, on the profile page: {base}/#/profile/{}",
            segment(&h.user.name)
        ));
    }
    lines.join("\n")
}

/// Whom a game was played with: the people by name, the computers counted.
fn company(g: &GameSummary) -> String {
    let others: Vec<_> = g.players.iter().filter(|p| p.seat != g.seat).collect();
    let mut parts: Vec<String> = others
        .iter()
        .filter_map(|p| p.user.as_ref().map(|u| u.name.clone()))
        .collect();
    match others.iter().filter(|p| p.bot.is_some()).count() {
        0 => {}
        1 => parts.push("a computer".into()),
        n => parts.push(format!("{n} computers")),
    }
    if parts.is_empty() {
        "nobody".into()
    } else {
        parts.join(", ")
    }
}

/// How long ago, in the largest whole unit.
fn ago(seconds: i64) -> String {
    let s = seconds.max(0);
    match s {
        0..60 => "just now".into(),
        60..3_600 => format!("{} min ago", s / 60),
        3_600..86_400 => format!("{} h ago", s / 3_600),
        86_400..172_800 => "1 day ago".into(),
        _ => format!("{} days ago", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_sent_percent_encoded() {
        assert_eq!(segment("ann"), "ann");
        assert_eq!(segment("李 雷/x"), "%E6%9D%8E%20%E9%9B%B7%2Fx");
    }

    #[test]
    fn ages_are_told_in_the_largest_whole_unit() {
        assert_eq!(ago(-5), "just now");
        assert_eq!(ago(59), "just now");
        assert_eq!(ago(125), "2 min ago");
        assert_eq!(ago(7_300), "2 h ago");
        assert_eq!(ago(86_400), "1 day ago");
        assert_eq!(ago(3 * 86_400 + 5), "3 days ago");
    }
}
