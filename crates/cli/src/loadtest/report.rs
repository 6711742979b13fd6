//! The figures of a load test, for people and as JSON.

use super::probe::{Checked, Scrape, Stage};
use super::stats::{new_histogram, GameSeen, Latency, Live, Resumes, Sampled, Tally};
use super::{Args, PaceArg};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::time::Duration;

/// Who the clients are.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Plan {
    /// Seats played by clients.
    pub people_seats: usize,
    /// Seats played by the server's computers.
    pub computer_seats: usize,
    /// Clients watching a table.
    pub spectators: usize,
    /// Clients holding an idle connection.
    pub idle: usize,
}

/// Gauges sampled once a second inside the window.
#[derive(Debug, Default)]
pub struct Samples {
    /// Connections open.
    pub connections: Vec<i64>,
    /// Tables with a game on.
    pub playing: Vec<i64>,
}

/// Every client's view of each finished game, merged by game.
pub fn merge_games(tallies: &mut [Tally]) -> Vec<GameSeen> {
    let mut by_id: HashMap<String, GameSeen> = HashMap::new();
    for t in tallies.iter_mut() {
        for g in std::mem::take(&mut t.games) {
            let merged = by_id.entry(g.game_id.clone()).or_insert_with(|| GameSeen {
                game_id: g.game_id.clone(),
                ..GameSeen::default()
            });
            merged.views.extend(g.views);
        }
    }
    let mut games: Vec<GameSeen> = by_id.into_values().collect();
    games.sort_by(|a, b| a.game_id.cmp(&b.game_id));
    games
}

/// The server as its `/metrics` and `/proc` saw it during the window.
#[derive(Debug, Clone, Serialize, Default)]
pub struct ServerSide {
    /// Connections the server counted at the end of the window.
    pub connections: f64,
    /// Resident memory, MiB: the most seen, and at the end of the window.
    pub rss_mib_max: Option<f64>,
    /// At the end of the window.
    pub rss_mib_end: Option<f64>,
    /// An action's arrival at its table to its broadcast (ms): rules, commit, fan-out.
    pub action_ms: Stage,
    /// Of which: queued for the table's task (ms).
    pub action_queue_ms: Stage,
    /// Of which: waiting for the action's store commit (ms).
    pub action_commit_ms: Stage,
    /// One store commit (ms): one fsync for a batch of writes.
    pub commit_ms: Stage,
    /// Writes per commit.
    pub commit_batch: Stage,
    /// A computer's think time per move (ms).
    pub bot_ms: Stage,
    /// Messages received and sent per second.
    pub messages_in_per_s: f64,
    /// Messages sent per second.
    pub messages_out_per_s: f64,
    /// Errors the server sent in the window, by code.
    pub errors: BTreeMap<String, f64>,
}

/// What the report is made from.
pub struct Inputs<'a> {
    pub args: &'a Args,
    pub plan: Plan,
    pub live: &'a Live,
    pub tallies: &'a [Tally],
    pub samples: Samples,
    pub setup: Duration,
    pub measured: Duration,
    pub drained: Duration,
    pub before: &'a Scrape,
    pub after: &'a Scrape,
    pub checked: Checked,
    pub server_rss: Vec<f64>,
    pub siege: Option<super::hostile::Siege>,
}

/// Every figure.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The server.
    pub url: String,
    /// The games.
    pub games: Vec<String>,
    /// `think` or `flat`.
    pub pace: String,
    /// Clients asked for.
    pub clients: usize,
    /// Tables asked for.
    pub tables: usize,
    /// Who the clients were.
    pub plan: Plan,
    /// Seconds to connect everyone and sit down.
    pub setup_s: f64,
    /// Seconds measured.
    pub window_s: f64,
    /// Seconds the games in hand took to finish afterwards.
    pub drain_s: f64,
    /// Connections held (sampled each second).
    pub connections: Sampled,
    /// Tables with a game being played (sampled each second).
    pub tables_playing: Sampled,
    /// Games finished in the window.
    pub games_finished: u64,
    /// Per second.
    pub games_per_s: f64,
    /// Actions at the tables (people's and computers') in the window.
    pub actions: u64,
    /// Per second.
    pub actions_per_s: f64,
    /// Sending an action to receiving its broadcast, as the sender measured it.
    pub latency: Latency,
    /// Errors of every kind: error frames by code, broken connections, stalls.
    pub errors: u64,
    /// By class.
    pub errors_by_class: BTreeMap<String, u64>,
    /// Acknowledged actions missing from the stored records.
    pub lost: usize,
    /// Actions applied twice: a seat's action broadcast when its player had no move on
    /// its way (nor did its turn run out).
    pub doubled: u64,
    /// Actions received again in a replay after a resume, known by their sequence
    /// numbers and counted once.
    pub replayed: u64,
    /// Connections made again after one dropped.
    pub reconnects: u64,
    /// Tables that stood still after a player's connection dropped, and for how long.
    pub resumes: Resumes,
    /// The record check.
    pub records: Checked,
    /// Acknowledged actions of games still unfinished when the drain ended.
    pub unchecked_acks: u64,
    /// The server's side.
    pub server: ServerSide,
    /// The load generator's own memory, MiB.
    pub loadgen_rss_mib: Option<f64>,
    /// The server's memory, MiB, every ten seconds of the window (with `--server-pid`).
    pub rss_every_10s: Vec<f64>,
    /// How the hostile clients fared (`--hostile`).
    pub hostile: Option<super::hostile::Siege>,
}

impl Report {
    /// Puts the figures together.
    pub fn new(i: Inputs<'_>) -> Report {
        let mut latency = new_histogram();
        for t in i.tallies {
            if let Some(h) = &t.latency {
                let _ = latency.add(h);
            }
        }
        let secs = i.measured.as_secs_f64().max(1e-9);
        let errors = i.live.errors();
        let games = i.live.games.load(std::sync::atomic::Ordering::Relaxed);
        let actions = i.live.actions.load(std::sync::atomic::Ordering::Relaxed);
        let (after, before) = (i.after, i.before);
        let delta = |key: &str| after.sample(key) - before.sample(key);
        let server = ServerSide {
            connections: after.sample("qipai_connections"),
            rss_mib_max: i.server_rss.iter().copied().reduce(f64::max),
            rss_mib_end: i.server_rss.last().copied(),
            action_ms: after.stage(before, "qipai_action_seconds", 1000.0),
            action_queue_ms: after.stage(before, "qipai_action_queue_seconds", 1000.0),
            action_commit_ms: after.stage(before, "qipai_action_commit_seconds", 1000.0),
            commit_ms: after.stage(before, "qipai_store_commit_seconds", 1000.0),
            commit_batch: after.stage(before, "qipai_store_commit_batch", 1.0),
            bot_ms: after.stage(before, "qipai_bot_think_seconds", 1000.0),
            messages_in_per_s: delta("qipai_messages_in_total") / secs,
            messages_out_per_s: delta("qipai_messages_out_total") / secs,
            errors: {
                let old = before.labelled("qipai_errors_total");
                after
                    .labelled("qipai_errors_total")
                    .into_iter()
                    .map(|(k, v)| {
                        let was = old.get(&k).copied().unwrap_or(0.0);
                        (k, v - was)
                    })
                    .filter(|(_, v)| *v > 0.0)
                    .collect()
            },
        };
        Report {
            url: i.args.url.clone(),
            games: i.args.games.clone(),
            pace: match i.args.pace {
                PaceArg::Think => format!("think {} ms", i.args.think_ms),
                PaceArg::Flat => "flat".into(),
            },
            clients: i.args.clients,
            tables: i.args.tables,
            plan: i.plan,
            setup_s: i.setup.as_secs_f64(),
            window_s: secs,
            drain_s: i.drained.as_secs_f64(),
            connections: Sampled::of(&i.samples.connections),
            tables_playing: Sampled::of(&i.samples.playing),
            games_finished: games,
            games_per_s: games as f64 / secs,
            actions,
            actions_per_s: actions as f64 / secs,
            latency: Latency::of(&latency),
            errors: errors.values().sum(),
            errors_by_class: errors,
            lost: i.checked.lost,
            doubled: i.live.doubled.load(std::sync::atomic::Ordering::Relaxed),
            replayed: i.live.replayed.load(std::sync::atomic::Ordering::Relaxed),
            reconnects: i.live.reconnects.load(std::sync::atomic::Ordering::Relaxed),
            resumes: Resumes::of(i.live),
            records: i.checked,
            unchecked_acks: i.tallies.iter().map(|t| t.unfinished_acks).sum(),
            server,
            loadgen_rss_mib: super::probe::rss_mib("self"),
            rss_every_10s: i.server_rss.iter().step_by(10).map(|m| m.round()).collect(),
            hostile: i.siege,
        }
    }

    /// The report for people.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let mib = |m: Option<f64>| m.map_or("-".to_string(), |m| format!("{m:.0} MiB"));
        let stage = |st: &Stage, unit: &str| {
            format!(
                "mean {:.2}{unit}, p99 ≤ {:.2}{unit} ({} observed)",
                st.mean, st.p99_at_most, st.count
            )
        };
        let _ = writeln!(
            s,
            "load test of {} — {} clients, {} tables ({}), pace {}",
            self.url,
            self.clients,
            self.tables,
            self.games.join(","),
            self.pace
        );
        let _ = writeln!(
            s,
            "  seats: {} people, {} computers; {} spectators, {} idle",
            self.plan.people_seats, self.plan.computer_seats, self.plan.spectators, self.plan.idle
        );
        let _ = writeln!(
            s,
            "  setup {:.1} s, window {:.1} s, drain {:.1} s",
            self.setup_s, self.window_s, self.drain_s
        );
        let _ = writeln!(
            s,
            "connections held   min {} mean {:.0} max {} (server counts {:.0})",
            self.connections.min,
            self.connections.mean,
            self.connections.max,
            self.server.connections
        );
        let _ = writeln!(
            s,
            "tables playing     min {} mean {:.0} max {}",
            self.tables_playing.min, self.tables_playing.mean, self.tables_playing.max
        );
        let _ = writeln!(
            s,
            "games              {} ({:.2}/s)",
            self.games_finished, self.games_per_s
        );
        let _ = writeln!(
            s,
            "actions            {} ({:.1}/s)",
            self.actions, self.actions_per_s
        );
        let l = &self.latency;
        let _ = writeln!(
            s,
            "action→broadcast   p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms ({} samples)",
            l.p50_ms, l.p99_ms, l.p999_ms, l.max_ms, l.count
        );
        let _ = writeln!(
            s,
            "errors             {} {:?}",
            self.errors, self.errors_by_class
        );
        let _ = writeln!(
            s,
            "lost actions       {} ({} acknowledged actions in {} stored games checked; {} games miscounted; {} actions of unfinished games unchecked)",
            self.lost, self.records.actions, self.records.games, self.records.miscounted, self.unchecked_acks
        );
        for p in &self.records.problems {
            let _ = writeln!(s, "  {p}");
        }
        let _ = writeln!(
            s,
            "doubled actions    {}; {} replayed after a resume counted once; {} stored but never seen broadcast",
            self.doubled, self.replayed, self.records.unseen
        );
        let r = &self.resumes;
        if self.reconnects > 0 || r.stopped > 0 {
            let _ = writeln!(
                s,
                "reconnects         {}; {} tables stood still, {} played again: first drop → next action p50 {} ms, p99 {} ms, max {} ms",
                self.reconnects, r.stopped, r.resumed, r.p50_ms, r.p99_ms, r.max_ms
            );
        }
        let v = &self.server;
        let _ = writeln!(
            s,
            "server RSS         max {}, end {}; load generator {}",
            mib(v.rss_mib_max),
            mib(v.rss_mib_end),
            mib(self.loadgen_rss_mib)
        );
        if let Some(siege) = &self.hostile {
            let _ = writeln!(s, "server RSS, MiB, every 10 s: {:?}", self.rss_every_10s);
            let _ = writeln!(
                s,
                "hostile clients (connections opened, and how they ended):"
            );
            for (attack, ended) in &siege.ended {
                let opened = siege.opened.get(attack).copied().unwrap_or(0);
                let _ = writeln!(s, "  {attack:<11} {opened:>6} opened");
                for (how, n) in ended {
                    let _ = writeln!(s, "      {n:>6}  {how}");
                }
            }
            let _ = writeln!(
                s,
                "  login guesses answered wrong_password: {}; the owner logged in afterwards from another address: {:?}",
                siege.guesses_heard, siege.owner_logged_in
            );
        }
        let _ = writeln!(s, "server stages (from /metrics, window only):");
        for (name, st, unit) in [
            ("action arrival → broadcast", &v.action_ms, " ms"),
            ("  queued for the table", &v.action_queue_ms, " ms"),
            ("  waiting for its commit", &v.action_commit_ms, " ms"),
            ("store commit", &v.commit_ms, " ms"),
            ("writes per commit", &v.commit_batch, ""),
            ("computer think", &v.bot_ms, " ms"),
        ] {
            let _ = writeln!(s, "  {name:<29}{}", stage(st, unit));
        }
        let _ = writeln!(
            s,
            "  messages in {:.0}/s, out {:.0}/s; errors sent {:?}",
            v.messages_in_per_s, v.messages_out_per_s, v.errors
        );
        s
    }
}
