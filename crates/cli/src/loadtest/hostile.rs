//! Hostile clients, for the abuse soak: while the players play, each attacker repeats one
//! attack from its own address until the run stops, reconnecting whenever the server
//! closes it, and counts how each of its connections ended.
//!
//! The attacks are those a stranger on the internet can make without an account: a mute
//! flood (names kept per connection), a client that asks for much and never reads, a storm
//! of `watch`/`resume` at the players' tables, a message flood, HTTP requests sent by half,
//! and login guessing against one account. What the soak shows is that none of them grows
//! the server's memory without bound or slows the players down.

use super::client::loopback;
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use server::client::connect_from;
use server::protocol::ClientMessage;
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

/// One kind of attack.
#[derive(Debug, Clone, Copy)]
enum Attack {
    /// Mutes of ever new names, below the rate limit, without logging in.
    MuteFlood,
    /// Asks for the games list (about 5 KB) and oversized `watch`es, never reading.
    NeverReads,
    /// `watch` and `resume` at the players' tables, as fast as the rate limit lets.
    WatchStorm,
    /// Pings at ten times the rate limit.
    Flood,
    /// HTTP requests whose headers never end.
    HalfSent,
    /// Wrong passwords for one account, several at once.
    LoginGuess,
}

const ATTACKS: [Attack; 6] = [
    Attack::MuteFlood,
    Attack::NeverReads,
    Attack::WatchStorm,
    Attack::Flood,
    Attack::HalfSent,
    Attack::LoginGuess,
];

/// How the hostile clients fared: per attack, how their connections ended.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Siege {
    /// Attack → how a connection ended (a close code and reason, or what the client saw)
    /// → how many.
    pub ended: BTreeMap<String, BTreeMap<String, u64>>,
    /// Attack → connections opened.
    pub opened: BTreeMap<String, u64>,
    /// Wrong passwords answered `wrong_password` (not `rate_limited`).
    pub guesses_heard: u64,
    /// Whether the attacked account's owner logged in from an address of their own at
    /// the end, past every guess.
    pub owner_logged_in: Option<bool>,
}

/// What every attacker shares.
struct Shared {
    url: String,
    host: String,
    stop: watch::Receiver<bool>,
    siege: Mutex<Siege>,
    /// The players' tables, for the watch storm (filled from the lobby).
    tables: Mutex<Vec<String>>,
    /// The account guessed at: its name and password.
    victim: (String, String),
}

impl Shared {
    fn opened(&self, attack: Attack) {
        if let Ok(mut s) = self.siege.lock() {
            *s.opened.entry(format!("{attack:?}")).or_default() += 1;
        }
    }

    fn ended(&self, attack: Attack, how: String) {
        if let Ok(mut s) = self.siege.lock() {
            *s.ended
                .entry(format!("{attack:?}"))
                .or_default()
                .entry(how)
                .or_default() += 1;
        }
    }

    fn stopped(&self) -> bool {
        *self.stop.borrow()
    }
}

/// Starts `n` attackers from `addresses` addresses of 127.1.0.0/16 against the server at
/// `url`; they stop when `stop` turns true, and the returned task then gives the tally.
pub async fn start(
    url: &str,
    n: usize,
    addresses: usize,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<tokio::task::JoinHandle<Siege>> {
    let host = crate::http::host_port(url);
    let victim = (
        format!("victim{}", rand::rng().random_range(0..1_000_000u32)),
        "the owner's password".to_string(),
    );
    let (mut owner, _, _) = server::client::Connection::open(url, None).await?;
    owner
        .session(ClientMessage::Register {
            name: victim.0.clone(),
            password: victim.1.clone(),
        })
        .await?;
    owner.close().await;
    let shared = Arc::new(Shared {
        url: url.to_string(),
        host,
        stop,
        siege: Mutex::default(),
        tables: Mutex::default(),
        victim,
    });
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let attack = ATTACKS[i % ATTACKS.len()];
            let from = loopback(1, i % addresses.max(1));
            tokio::spawn(attacker(shared.clone(), attack, from, i as u64))
        })
        .collect();
    Ok(tokio::spawn(async move {
        for t in tasks {
            let _ = t.await;
        }
        // The owner, from an address no attacker used, after every guess.
        let owner = async {
            let (mut c, _, _) = server::client::Connection::open(&shared.url, None).await?;
            c.session(ClientMessage::Login {
                name: shared.victim.0.clone(),
                password: shared.victim.1.clone(),
            })
            .await
        };
        let logged_in = owner.await.is_ok();
        let mut siege = shared.siege.lock().map(|s| s.clone()).unwrap_or_default();
        siege.owner_logged_in = Some(logged_in);
        siege
    }))
}

/// One attacker: its attack again and again until the run stops.
async fn attacker(shared: Arc<Shared>, attack: Attack, from: IpAddr, seed: u64) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    while !shared.stopped() {
        shared.opened(attack);
        let how = match attack {
            Attack::HalfSent => half_sent(&shared, from).await,
            _ => websocket(&shared, attack, from, &mut rng).await,
        };
        shared.ended(attack, how);
        if !shared.stopped() {
            // A refused connection (the address's share is open) is retried, not spun on.
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Half an HTTP request, then silence: how long until the server closes it.
async fn half_sent(shared: &Shared, from: IpAddr) -> String {
    let url = format!("ws://{}/", shared.host);
    let mut tcp = match connect_from(from, &url).await {
        Ok(t) => t,
        Err(e) => return format!("connect: {}", e.kind()),
    };
    let started = std::time::Instant::now();
    if tcp
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Never-Ends: ")
        .await
        .is_err()
    {
        return "closed before the request".into();
    }
    let mut stop = shared.stop.clone();
    let mut buf = [0u8; 512];
    tokio::select! {
        _ = tcp.read(&mut buf) => format!("closed by the server after {} s", started.elapsed().as_secs()),
        _ = stop.wait_for(|s| *s) => "still open at the end".into(),
    }
}

/// A WebSocket attack, until the server closes the connection or the run stops.
async fn websocket(
    shared: &Shared,
    attack: Attack,
    from: IpAddr,
    rng: &mut rand::rngs::SmallRng,
) -> String {
    let url = server::client::ws_url(&shared.url);
    let tcp = match connect_from(from, &url).await {
        Ok(t) => t,
        Err(e) => return format!("connect: {}", e.kind()),
    };
    let ws = match tokio_tungstenite::client_async(url, tcp).await {
        Ok((ws, _)) => ws,
        Err(e) => return format!("handshake: {e}"),
    };
    let (mut sink, mut stream) = ws.split();
    let hello = ClientMessage::Hello {
        version: server::protocol::VERSION,
        token: None,
    };
    if sink.send(text(&hello)).await.is_err() {
        return "closed at hello".into();
    }
    let reads = !matches!(attack, Attack::NeverReads);
    let (closed_tx, mut closed) = tokio::sync::oneshot::channel::<String>();
    let heard = Arc::new(Mutex::new(Vec::<String>::new()));
    let wrong = Arc::new(std::sync::atomic::AtomicU64::new(0));
    // A client that never reads never hears the close either: it runs until the server
    // stops taking its messages (or the run stops), its close never to come.
    let (closed_tx, never) = if reads {
        (Some(closed_tx), None)
    } else {
        (None, Some(closed_tx))
    };
    let reader = closed_tx.map(|closed_tx| {
        let heard = heard.clone();
        let wrong = wrong.clone();
        tokio::spawn(async move {
            let how = loop {
                match stream.next().await {
                    Some(Ok(Message::Close(c))) => {
                        break c.map_or("closed without a code".into(), |c| {
                            format!("{} {}", u16::from(c.code), c.reason)
                        })
                    }
                    Some(Ok(Message::Text(t))) => {
                        if t.contains("\"wrong_password\"") {
                            wrong.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        if let Ok(mut h) = heard.lock() {
                            h.push(t.to_string());
                            if h.len() > 64 {
                                h.remove(0);
                            }
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => break format!("error: {e}"),
                    None => break "closed without a close frame".into(),
                }
            };
            let _ = closed_tx.send(how);
        })
    });
    // The attack's messages, paced just under or far over the limit of 20 a second.
    let mut stop = shared.stop.clone();
    let mut n = 0u64;
    let guessing = matches!(attack, Attack::LoginGuess);
    let how = loop {
        n += 1;
        let (message, pause) = match attack {
            Attack::MuteFlood => (
                ClientMessage::Mute {
                    user: format!("name{}", rng.random::<u64>()),
                    mute: true,
                },
                55,
            ),
            Attack::NeverReads if n.is_multiple_of(2) => (
                ClientMessage::Watch(server::protocol::request::Watch {
                    table: "t".repeat(15_000),
                    invite: None,
                }),
                55,
            ),
            Attack::NeverReads => (ClientMessage::Games, 55),
            Attack::WatchStorm => {
                if n == 1 {
                    (ClientMessage::Lobby { game: None }, 55)
                } else {
                    let table = pick_table(shared, &heard, rng);
                    if n.is_multiple_of(2) {
                        let table = table.unwrap_or_default();
                        (
                            ClientMessage::Watch(server::protocol::request::Watch {
                                table,
                                invite: None,
                            }),
                            55,
                        )
                    } else {
                        (
                            ClientMessage::Resume(server::protocol::request::Resume {
                                table: table.unwrap_or_default(),
                                last_seq: 0,
                                invite: None,
                            }),
                            55,
                        )
                    }
                }
            }
            Attack::Flood => (ClientMessage::Ping, 5),
            Attack::LoginGuess => (
                ClientMessage::Login {
                    name: shared.victim.0.clone(),
                    password: format!("guess {}", rng.random::<u32>()),
                },
                250,
            ),
            Attack::HalfSent => return "not a WebSocket attack".into(),
        };
        if sink.send(text(&message)).await.is_err() {
            break "the server stopped reading".to_string();
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(pause)) => {}
            how = &mut closed => break how.unwrap_or_else(|_| "reader gone".into()),
            _ = stop.wait_for(|s| *s) => break "still open at the end".into(),
        }
    };
    if let Some(r) = reader {
        r.abort();
    }
    drop(never);
    if guessing {
        if let Ok(mut s) = shared.siege.lock() {
            s.guesses_heard += wrong.load(std::sync::atomic::Ordering::Relaxed);
        }
    }
    how
}

/// A table to storm: one the lobby listed to this connection, or to any attacker.
fn pick_table(
    shared: &Shared,
    heard: &Mutex<Vec<String>>,
    rng: &mut rand::rngs::SmallRng,
) -> Option<String> {
    let mut tables = shared.tables.lock().ok()?;
    if let Ok(heard) = heard.lock() {
        for text in heard.iter() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
                continue;
            };
            let listed = v["tables"].as_array().into_iter().flatten();
            for t in listed.chain(std::iter::once(&v["table"])) {
                if let Some(id) = t["id"].as_str() {
                    if !tables.iter().any(|x| x == id) && tables.len() < 10_000 {
                        tables.push(id.to_string());
                    }
                }
            }
        }
    }
    (!tables.is_empty()).then(|| tables[rng.random_range(0..tables.len())].clone())
}

fn text(m: &ClientMessage) -> Message {
    Message::Text(serde_json::to_string(m).unwrap_or_default().into())
}
