//! Looking at the server from outside: plain HTTP GETs (finished records, `/metrics`),
//! the per-stage timings in the metrics, and the server's memory from `/proc`.

use super::stats::{GameSeen, View};
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
    /// Games whose stored record has another number of actions than were broadcast, or
    /// them in another order.
    pub miscounted: usize,
    /// Stored actions the table's host never saw broadcast: those its node stored and
    /// died before publishing (or that a resume on another node could not replay).
    pub unseen: usize,
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

/// A kept-alive connection to the first of `hosts` that answers (any node of a hall
/// reads the same records).
async fn connect_any(hosts: &[String]) -> Result<Http> {
    let mut last = anyhow!("no node to read the records from");
    for host in hosts {
        match Http::connect(host).await {
            Ok(http) => return Ok(http),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Reads each game's record from `GET /api/games/{id}` (the store, not the table's memory)
/// and looks for every acknowledged action in its place, in the form its maker saw.
pub async fn check_records(
    hosts: &[String],
    games: &[GameSeen],
    parallel: usize,
) -> Result<Checked> {
    let chunk = games.len().div_ceil(parallel.max(1)).max(1);
    let mut tasks = Vec::new();
    for part in games.chunks(chunk) {
        let part = part.to_vec();
        let hosts = hosts.to_vec();
        tasks.push(tokio::spawn(async move {
            let mut http = connect_any(&hosts).await?;
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
        all.unseen += c.unseen;
        for p in c.problems {
            all.problem(p);
        }
    }
    Ok(all)
}

async fn check_one(http: &mut Http, g: &GameSeen, checked: &mut Checked) -> Result<()> {
    let (status, body) = http.get(&format!("/api/games/{}", g.game_id)).await?;
    let acks: usize = g.views.iter().map(View::acks).sum();
    checked.actions += acks;
    if status != 200 {
        checked.lost += acks;
        checked.problem(format!("{}: no stored record (HTTP {status})", g.game_id));
        return Ok(());
    }
    checked.games += 1;
    let record: Value = serde_json::from_slice(&body).context("a record that is not JSON")?;
    let stored = record["actions"].as_array().cloned().unwrap_or_default();
    for view in &g.views {
        place(view, &stored, &g.game_id, checked);
    }
    Ok(())
}

/// Finds each stretch of `view` in the stored actions: where it started, if the client
/// knew; else the first place from the end of the stretch before where the seats of every
/// action it saw, and its own actions, are the record's. An acknowledged action that is
/// not there is lost. The host saw every action broadcast: its stretches account for the
/// record's length, less what it could not see.
fn place(view: &View, stored: &[Value], game_id: &str, checked: &mut Checked) {
    let same = |at: usize, action: &Value| {
        stored.get(at).is_some_and(|a| {
            let private = a.get("sealed").filter(|s| !s.is_null()).or(a.get("action"));
            a["seat"].as_u64() == Some(view.seat as u64) && private == Some(action)
        })
    };
    let mut pos = 0;
    for seg in &view.segments {
        let fits = |b: usize| {
            b + seg.seats.len() <= stored.len()
                && seg
                    .seats
                    .iter()
                    .enumerate()
                    .all(|(j, s)| stored[b + j]["seat"].as_u64() == Some(u64::from(*s)))
                && seg.acks.iter().all(|(o, a)| same(b + o, a))
        };
        let found = match seg.start {
            Some(b) => fits(b).then_some(b),
            None => (pos..=stored.len()).find(|b| fits(*b)),
        };
        if let Some(b) = found {
            if view.host {
                checked.unseen += b.saturating_sub(pos);
            }
            pos = b + seg.seats.len();
            continue;
        }
        // Not found whole: where most of its own actions are (its start, if known).
        let matching = |b: usize| seg.acks.iter().filter(|(o, a)| same(b + o, a)).count();
        let base = seg.start.unwrap_or_else(|| {
            let last = stored.len().saturating_sub(seg.seats.len()).max(pos);
            (pos..=last)
                .rev()
                .max_by_key(|b| matching(*b))
                .unwrap_or(pos)
        });
        let mut missing = 0;
        for (o, a) in &seg.acks {
            if !same(base + o, a) {
                missing += 1;
                checked.problem(format!(
                    "{game_id}: action {} of seat {} ({a}) is not in the stored record",
                    base + o,
                    view.seat
                ));
            }
        }
        checked.lost += missing;
        if missing == 0 && view.host {
            checked.miscounted += 1;
            checked.problem(format!(
                "{game_id}: the actions broadcast from {base} on are not the stored ones"
            ));
        }
        pos = base + seg.seats.len();
    }
    if view.host && pos != stored.len() {
        let placed = view.segments.iter().all(|s| s.start.is_some());
        if placed || pos > stored.len() {
            checked.miscounted += 1;
            checked.problem(format!(
                "{game_id}: {pos} actions broadcast, {} stored",
                stored.len()
            ));
        } else {
            checked.unseen += stored.len() - pos;
        }
    }
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

    /// Adds another node's scrape to this one: samples and histograms summed.
    pub fn add(&mut self, other: Scrape) {
        for (k, v) in other.samples {
            *self.samples.entry(k).or_default() += v;
        }
        for (name, h) in other.hists {
            let mine = self.hists.entry(name).or_default();
            mine.sum += h.sum;
            mine.count += h.count;
            for (bound, c) in h.buckets {
                match mine.buckets.iter_mut().find(|(b, _)| *b == bound) {
                    Some((_, n)) => *n += c,
                    None => mine.buckets.push((bound, c)),
                }
            }
        }
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

/// Scrapes `/metrics`; `None` when it cannot be read (the figures are then missing, not
/// wrong).
pub async fn scrape(host: &str) -> Option<Scrape> {
    let mut http = Http::connect(host).await.ok()?;
    match http.get("/metrics").await {
        Ok((200, body)) => Some(Scrape::parse(&String::from_utf8_lossy(&body))),
        _ => None,
    }
}

/// Scrapes every node of the hall, in order.
pub async fn scrape_all(hosts: &[String]) -> Vec<Option<Scrape>> {
    let mut all = Vec::with_capacity(hosts.len());
    for host in hosts {
        all.push(scrape(host).await);
    }
    all
}

/// The hall's scrapes before and after the window: the sum over the nodes that answered
/// both times (a node that died in the window is left out of both, so that no
/// difference goes negative).
pub fn both(before: Vec<Option<Scrape>>, after: Vec<Option<Scrape>>) -> (Scrape, Scrape) {
    let (mut b, mut a) = (Scrape::default(), Scrape::default());
    for (x, y) in before.into_iter().zip(after) {
        if let (Some(x), Some(y)) = (x, y) {
            b.add(x);
            a.add(y);
        }
    }
    (b, a)
}

/// Resident memory of a process in MiB, from `/proc/<pid>/status` (`self` for this one).
pub fn rss_mib(pid: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loadtest::stats::Segment;
    use serde_json::json;

    /// A stored record's actions: seats 0, 1, 2 in turn, the action `n` at index `n`.
    fn stored(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| json!({"seat": i % 3, "action": {"n": i}}))
            .collect()
    }

    fn segment(start: Option<usize>, from: usize, to: usize, seat: usize) -> Segment {
        Segment {
            start,
            seats: (from..to).map(|i| (i % 3) as u8).collect(),
            acks: (from..to)
                .filter(|i| i % 3 == seat)
                .map(|i| (i - from, json!({"n": i})))
                .collect(),
        }
    }

    fn checked(view: &View, n: usize) -> Checked {
        let mut c = Checked::default();
        place(view, &stored(n), "g", &mut c);
        c
    }

    #[test]
    fn a_stretch_after_a_takeover_is_found_past_the_actions_never_seen() {
        // The host saw actions 0–3, missed 4 (its node died after storing it), and saw
        // 5–8 after resuming on another node, not knowing where they stood.
        let view = View {
            seat: 0,
            host: true,
            segments: vec![segment(Some(0), 0, 4, 0), segment(None, 5, 9, 0)],
        };
        let c = checked(&view, 9);
        assert_eq!(
            (c.lost, c.miscounted, c.unseen),
            (0, 0, 1),
            "{:?}",
            c.problems
        );
    }

    #[test]
    fn an_acknowledged_action_missing_from_the_record_is_lost() {
        let mut late = segment(None, 5, 9, 0);
        late.acks.push((1, json!({"n": 99})));
        let view = View {
            seat: 0,
            host: false,
            segments: vec![segment(Some(0), 0, 4, 0), late],
        };
        let c = checked(&view, 9);
        assert_eq!(c.lost, 1, "{:?}", c.problems);
    }

    #[test]
    fn a_host_that_saw_every_action_and_another_count_stored_is_miscounted() {
        let view = View {
            seat: 0,
            host: true,
            segments: vec![segment(Some(0), 0, 6, 0)],
        };
        assert_eq!(checked(&view, 7).miscounted, 1);
        assert_eq!(checked(&view, 6).miscounted, 0);
    }
}
