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

    /// Lets `task` think on a pool thread at once; `answer` gets its action no sooner than
    /// `delay` after this call, so people can follow the game.
    ///
    /// The thinking counts toward the pause: a computer that takes a second answers after
    /// that second, not after the pause and the second (a level-10 Gomoku reply used to take
    /// 0.7 s of pause plus its search). The pause is waited out after the pool's permit is
    /// given back, so a sleeping answer never holds a thread another table could use.
    pub fn think<F>(&self, game: &'static str, task: BotTask, delay: Duration, answer: F)
    where
        F: FnOnce(Result<Value, GameError>) + Send + 'static,
    {
        let permits = self.permits.clone();
        let metrics = self.metrics.clone();
        let asked = tokio::time::Instant::now();
        tokio::spawn(async move {
            let result = {
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
                result
            };
            tokio::time::sleep_until(asked + delay).await;
            answer(result);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::{mpsc, oneshot};
    use tokio::time::Instant as Clock;

    /// A stand-in bot that says when it starts thinking and answers `{"seat": n}`.
    fn task(seat: usize, started: oneshot::Sender<()>) -> BotTask {
        BotTask::new(seat, move || {
            let _ = started.send(());
            Ok(serde_json::json!({ "seat": seat }))
        })
    }

    /// What [`ask_two`] hands back: each stand-in's start, and each answer with the time
    /// it came.
    type Asked = (
        Vec<oneshot::Receiver<()>>,
        mpsc::UnboundedReceiver<(Result<Value, GameError>, Clock)>,
    );

    /// Asks `pool` for two computers' moves at once, each to be answered `delay` after.
    fn ask_two(pool: &BotPool, delay: Duration) -> Asked {
        let (answers_tx, answers) = mpsc::unbounded_channel();
        let mut starts = Vec::new();
        for seat in 0..2 {
            let (started_tx, started) = oneshot::channel();
            starts.push(started);
            let answers_tx = answers_tx.clone();
            pool.think("test", task(seat, started_tx), delay, move |result| {
                let _ = answers_tx.send((result, Clock::now()));
            });
        }
        (starts, answers)
    }

    /// The rule people see, first half: a computer starts thinking when asked, not after
    /// the delay. The delay is an hour and the test waits a minute at most for both
    /// stand-ins of a one-thread pool to start: with the pause before the thinking (the
    /// old order) they would start an hour in, and the wait would run out.
    #[tokio::test]
    async fn thinking_starts_at_once_however_long_the_delay() {
        let pool = BotPool::new(1, Arc::new(Metrics::new()));
        let (starts, _answers) = ask_two(&pool, Duration::from_secs(3_600));
        for started in starts {
            tokio::time::timeout(Duration::from_secs(60), started)
                .await
                .expect("a computer waited out the delay before thinking")
                .expect("the stand-in ran");
        }
    }

    /// The rule people see, second half: an answer comes no sooner than the delay after
    /// the computer was asked, however quickly it thought. The clock is read before the
    /// pool is asked, so the bound holds whatever the machine's load.
    #[tokio::test]
    async fn answers_wait_out_the_delay() {
        let pool = BotPool::new(1, Arc::new(Metrics::new()));
        let delay = Duration::from_millis(300);
        let asked = Clock::now();
        let (_starts, mut answers) = ask_two(&pool, delay);
        let mut seats = Vec::new();
        for _ in 0..2 {
            let (result, at) = answers.recv().await.expect("an answer");
            seats.push(result.expect("no error")["seat"].clone());
            assert!(at >= asked + delay, "an answer came before the delay");
        }
        seats.sort_by_key(|s| s.as_u64());
        assert_eq!(seats, [0, 1]);
    }
}
