//! Computers think away from the network: a bounded pool of blocking threads runs each
//! [`BotTask`], so a level-10 Gomoku search or a thousand bot tables never delay another
//! table's messages. A table asks, carries on, and hears the answer later as a command.

use crate::metrics::Metrics;
use game::{BotTask, GameError};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The pool.
#[derive(Clone)]
pub struct BotPool {
    permits: Arc<Semaphore>,
    metrics: Arc<Metrics>,
}

impl BotPool {
    /// A pool running at most `threads` bots at once.
    pub fn new(threads: usize, metrics: Arc<Metrics>) -> BotPool {
        BotPool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            metrics,
        }
    }

    /// Lets `task` think after `delay` (so people can follow the game), on a pool thread;
    /// `answer` gets its action.
    pub fn think<F>(&self, game: &'static str, task: BotTask, delay: Duration, answer: F)
    where
        F: FnOnce(Result<Value, GameError>) + Send + 'static,
    {
        let permits = self.permits.clone();
        let metrics = self.metrics.clone();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let Ok(_permit) = permits.acquire_owned().await else {
                return;
            };
            let started = Instant::now();
            let seat = task.seat();
            let result = tokio::task::spawn_blocking(move || task.run())
                .await
                .unwrap_or_else(|e| {
                    Err(GameError::BotFailed {
                        seat,
                        message: format!("the bot stopped: {e}"),
                    })
                });
            metrics
                .bot_seconds
                .with_label_values(&[game])
                .observe(started.elapsed().as_secs_f64());
            answer(result);
        });
    }
}
