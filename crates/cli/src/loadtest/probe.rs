//! Looking at the server from outside: plain HTTP GETs (finished records, `/metrics`),
//! the per-stage timings in the metrics, and the server's memory from `/proc`.

use super::stats::GameSeen;
use crate::http::Http;
use anyhow::{anyhow, Context, Result};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The outcome of checking finished games against their stored records.
#[derive(Debug, Default, Serialize)]
pub struct Checked {
    /// Games whose stored record was read.
    pub games: usize,
    /// Acknowledged actions looked for.
    pub actions: usize,
    /// Acknowledged actions missing from, or different in, the stored record.
    pub lost: usize,
    /// Games whose stored record has another number of actions than were broadcast.
    pub miscounted: usize,
    /// The first few problems, in words.
    pub problems: Vec<String>,
}

impl Checked {
    fn problem(&mut self, text: String) {
        if self.problems.len() < 10 {
            self.problems.push(text);
        }
    }
}

/// Reads each game's record from `GET /api/games/{id}` (the store, not the table's memory)
/// and looks for every acknowledged action in its place, in the form its maker saw.
pub async fn check_records(host: &str, games: &[GameSeen], parallel: usize) -> Result<Checked> {
    let chunk = games.len().div_ceil(parallel.max(1)).max(1);
    let mut tasks = Vec::new();
    for part in games.chunks(chunk) {
        let part = part.to_vec();
        let host = host.to_string();
        tasks.push(tokio::spawn(async move {
            let mut http = Http::connect(&host).await?;
            let mut checked = Checked::default();
            for g in &part {
                check_one(&mut http, g, &mut checked).await?;
            }
            Ok::<_, anyhow::Error>(checked)
        }));
    }
    let mut all = Checked::default();
    for t in tasks {
        let c = t.await.map_err(|e| anyhow!("a checker stopped: {e}"))??;
        all.games += c.games;
        all.actions += c.actions;
        all.lost += c.lost;
        all.miscounted += c.miscounted;
        for p in c.problems {
            all.problem(p);
        }
    }
    Ok(all)
}

async fn check_one(http: &mut Http, g: &GameSeen, checked: &mut Checked) -> Result<()> {
    let (status, body) = http.get(&format!("/api/games/{}", g.game_id)).await?;
    checked.actions += g.acks.len();
    if status != 200 {
        checked.lost += g.acks.len();
        checked.problem(format!("{}: no stored record (HTTP {status})", g.game_id));
        return Ok(());
    }
    checked.games += 1;
    let record: Value = serde_json::from_slice(&body).context("a record that is not JSON")?;
    let stored = record["actions"].as_array().cloned().unwrap_or_default();
    if let Some(n) = g.actions {
        if n != stored.len() {
            checked.miscounted += 1;
            checked.problem(format!(
                "{}: {n} actions broadcast, {} stored",
                g.game_id,
                stored.len()
            ));
        }
    }
    for ack in &g.acks {
        let found = stored.get(ack.index).is_some_and(|a| {
            let private = a.get("sealed").filter(|s| !s.is_null()).or(a.get("action"));
            a["seat"].as_u64() == Some(ack.seat as u64) && private == Some(&ack.action)
        });
        if !found {
            checked.lost += 1;
            checked.problem(format!(
                "{}: action {} of seat {} ({}) is not in the stored record",
                g.game_id, ack.index, ack.seat, ack.action
            ));
        }
    }
    Ok(())
}

/// One histogram of `/metrics`: its bucket counts by upper bound, sum and count.
#[derive(Debug, Clone, Default)]
struct Hist {
    buckets: Vec<(f64, f64)>,
    sum: f64,
    count: f64,
}

/// A `/metrics` page, parsed: plain samples by name and labels, and histograms by name
/// (summed over their labels).
#[derive(Debug, Clone, Default)]
pub struct Scrape {
    samples: HashMap<String, f64>,
    hists: HashMap<String, Hist>,
}

/// What a stage cost inside the window: from the difference of two scrapes.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Stage {
    /// Observations.
    pub count: u64,
    /// Their mean (milliseconds for timings).
    pub mean: f64,
    /// The bucket bound under which 99% fall (milliseconds for timings).
    pub p99_at_most: f64,
}

impl Scrape {
    /// Reads the Prometheus text format (only what the server writes).
    pub fn parse(text: &str) -> Scrape {
        let mut s = Scrape::default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some((key, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let Ok(value) = value.parse::<f64>() else {
                continue;
            };
            let (name, labels) = key.split_once('{').unwrap_or((key, ""));
            if let Some(base) = name.strip_suffix("_bucket") {
                let le = labels
                    .split(',')
                    .find_map(|l| l.strip_prefix("le=\""))
                    .map(|l| l.trim_end_matches(['"', '}']));
                let bound = match le {
                    Some("+Inf") => f64::INFINITY,
                    Some(b) => b.parse().unwrap_or(f64::INFINITY),
                    None => continue,
                };
                let h = s.hists.entry(base.to_string()).or_default();
                match h.buckets.iter_mut().find(|(b, _)| *b == bound) {
                    Some((_, c)) => *c += value,
                    None => h.buckets.push((bound, value)),
                }
            } else if let Some(base) = name.strip_suffix("_sum") {
                s.hists.entry(base.to_string()).or_default().sum += value;
            } else if let Some(base) = name.strip_suffix("_count") {
                s.hists.entry(base.to_string()).or_default().count += value;
            }
            *s.samples.entry(key.to_string()).or_default() += value;
        }
        s
    }

    /// A plain sample, by its name with labels as written (`qipai_connections`).
    pub fn sample(&self, key: &str) -> f64 {
        self.samples.get(key).copied().unwrap_or(0.0)
    }

    /// Samples whose name starts with `prefix`, by their labels.
    pub fn labelled(&self, name: &str) -> BTreeMap<String, f64> {
        self.samples
            .iter()
            .filter_map(|(k, v)| {
                let labels = k.strip_prefix(name)?.strip_prefix('{')?;
                Some((labels.trim_end_matches('}').to_string(), *v))
            })
            .collect()
    }

    /// The histogram `name` between `before` and `self`, scaled by `unit` (1000 for
    /// seconds shown as milliseconds).
    pub fn stage(&self, before: &Scrape, name: &str, unit: f64) -> Stage {
        let empty = Hist::default();
        let (now, then) = (
            self.hists.get(name).unwrap_or(&empty),
            before.hists.get(name).unwrap_or(&empty),
        );
        let count = now.count - then.count;
        if count <= 0.0 {
            return Stage::default();
        }
        let mut buckets: Vec<(f64, f64)> = now
            .buckets
            .iter()
            .map(|(b, c)| {
                let old = then
                    .buckets
                    .iter()
                    .find(|(ob, _)| ob == b)
                    .map_or(0.0, |(_, c)| *c);
                (*b, c - old)
            })
            .collect();
        buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
        let p99 = buckets
            .iter()
            .find(|(_, c)| *c >= 0.99 * count)
            .map_or(f64::INFINITY, |(b, _)| *b);
        Stage {
            count: count as u64,
            mean: (now.sum - then.sum) / count * unit,
            p99_at_most: p99 * unit,
        }
    }
}

/// Scrapes `/metrics` (an empty scrape when it cannot be read: the figures are then
/// missing, not wrong).
pub async fn scrape(host: &str) -> Scrape {
    let Ok(mut http) = Http::connect(host).await else {
        return Scrape::default();
    };
    match http.get("/metrics").await {
        Ok((200, body)) => Scrape::parse(&String::from_utf8_lossy(&body)),
        _ => Scrape::default(),
    }
}

/// Resident memory of a process in MiB, from `/proc/<pid>/status` (`self` for this one).
pub fn rss_mib(pid: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
