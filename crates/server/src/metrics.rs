//! What `/metrics` reports, in Prometheus' text format: connections, tables by game and
//! state, actions, store commit latency and batch sizes, bot think time, errors by code.

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};

/// Every metric the server keeps.
pub struct Metrics {
    registry: Registry,
    /// Open WebSocket connections.
    pub connections: IntGauge,
    /// Tables by game and state (`waiting`, `dealing`, `playing`).
    pub tables: IntGaugeVec,
    /// Actions accepted, by game.
    pub actions: IntCounterVec,
    /// Seconds per store commit (one fsync for a whole batch).
    pub commit_seconds: Histogram,
    /// Writes per store commit.
    pub commit_batch: Histogram,
    /// Seconds from an action's arrival at its table to its broadcast: rules, commit and
    /// fan-out together.
    pub action_seconds: Histogram,
    /// Seconds from an action's arrival at the server to its table taking it up: time
    /// queued for the table's task (one stage of `action_seconds`).
    pub action_queue_seconds: Histogram,
    /// Seconds an accepted action waited for its store commit (one stage of
    /// `action_seconds`).
    pub action_commit_seconds: Histogram,
    /// Seconds a bot thought per move, by game.
    pub bot_seconds: HistogramVec,
    /// Messages received.
    pub messages_in: IntCounter,
    /// Messages sent.
    pub messages_out: IntCounter,
    /// Errors sent to clients, by code.
    pub errors: IntCounterVec,
}

fn buckets() -> Vec<f64> {
    vec![
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
        5.0,
    ]
}

impl Metrics {
    /// A fresh set of metrics.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let connections = IntGauge::new("qipai_connections", "open WebSocket connections")
            .expect("static metric");
        let tables = IntGaugeVec::new(
            Opts::new("qipai_tables", "tables by game and state"),
            &["game", "state"],
        )
        .expect("static metric");
        let actions = IntCounterVec::new(
            Opts::new("qipai_actions_total", "actions accepted"),
            &["game"],
        )
        .expect("static metric");
        let commit_seconds = Histogram::with_opts(
            HistogramOpts::new("qipai_store_commit_seconds", "seconds per store commit")
                .buckets(buckets()),
        )
        .expect("static metric");
        let commit_batch = Histogram::with_opts(
            HistogramOpts::new("qipai_store_commit_batch", "writes per store commit").buckets(
                vec![
                    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0,
                ],
            ),
        )
        .expect("static metric");
        let action_seconds = Histogram::with_opts(
            HistogramOpts::new(
                "qipai_action_seconds",
                "seconds from an action's arrival at its table to its broadcast",
            )
            .buckets(buckets()),
        )
        .expect("static metric");
        let stage = |name: &str, help: &str| {
            Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets()))
                .expect("static metric")
        };
        let action_queue_seconds = stage(
            "qipai_action_queue_seconds",
            "seconds from an action's arrival to its table taking it up",
        );
        let action_commit_seconds = stage(
            "qipai_action_commit_seconds",
            "seconds an accepted action waited for its store commit",
        );
        let bot_seconds = HistogramVec::new(
            HistogramOpts::new("qipai_bot_think_seconds", "seconds a bot thought per move")
                .buckets(buckets()),
            &["game"],
        )
        .expect("static metric");
        let messages_in =
            IntCounter::new("qipai_messages_in_total", "messages received").expect("static metric");
        let messages_out =
            IntCounter::new("qipai_messages_out_total", "messages sent").expect("static metric");
        let errors = IntCounterVec::new(
            Opts::new("qipai_errors_total", "errors sent to clients"),
            &["code"],
        )
        .expect("static metric");
        for m in [
            Box::new(connections.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(tables.clone()),
            Box::new(actions.clone()),
            Box::new(commit_seconds.clone()),
            Box::new(commit_batch.clone()),
            Box::new(action_seconds.clone()),
            Box::new(action_queue_seconds.clone()),
            Box::new(action_commit_seconds.clone()),
            Box::new(bot_seconds.clone()),
            Box::new(messages_in.clone()),
            Box::new(messages_out.clone()),
            Box::new(errors.clone()),
        ] {
            registry.register(m).expect("metric names are distinct");
        }
        Metrics {
            registry,
            connections,
            tables,
            actions,
            commit_seconds,
            commit_batch,
            action_seconds,
            action_queue_seconds,
            action_commit_seconds,
            bot_seconds,
            messages_in,
            messages_out,
            errors,
        }
    }

    /// Everything, in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        if let Err(e) = TextEncoder::new().encode(&self.registry.gather(), &mut out) {
            return format!("# cannot encode metrics: {e}\n");
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}
