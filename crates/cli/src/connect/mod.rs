//! `qipai connect [URL]`: the terminal client of a hall.
//!
//! It draws every game with the same screens as `qipai play` (the game's own text, through
//! the registry), so a person who knows one knows the other. The server is the judge: a
//! move typed here is read by the game into its JSON form and sent; what comes back —
//! the state, the others' public moves, chat — is printed as it arrives, above the line
//! being typed. A lost connection is made again with the session's token, and each table
//! resumed from the last sequence number seen.

mod autoplay;
mod command;
mod input;
mod standings;
mod tables;
mod words;

use anyhow::{bail, Context, Result};
use command::Command;
use game::Registry;
use input::Screen;
use server::client::{ClientError, Connection};
use server::protocol::{request, ErrorCode};
use server::protocol::{ClientMessage, ServerMessage, UserInfo};
use std::path::PathBuf;
use std::time::Duration;
use tables::Tables;
use words::{ago, describe, lost_line};

/// Client options.
#[derive(clap::Args)]
pub struct Args {
    /// The server: `host:port`, `http://host:port` or `ws://host:port/ws`.
    #[arg(default_value = "127.0.0.1:7878")]
    url: String,
    /// Log in to this account (the password is asked for, or read from `QIPAI_PASSWORD`);
    /// without it you play as a guest.
    #[arg(long)]
    name: Option<String>,
    /// Create the account `--name` first (a guest session in `--session` keeps its games).
    #[arg(long, requires = "name")]
    register: bool,
    /// Keep the session's token in this file, so the next `connect` is the same player,
    /// back in the same seats.
    #[arg(long)]
    session: Option<PathBuf>,
    /// An engine that plays this client's turns; tables are still chosen by typing.
    #[command(flatten)]
    engine: crate::engine::EngineArgs,
}

/// How long to keep trying to reconnect after the connection is lost.
const RECONNECT_FOR: Duration = Duration::from_secs(60);

/// Connects, opens a session and runs until the person quits.
pub fn run(registry: &Registry, args: Args) -> Result<()> {
    let password = match &args.name {
        Some(name) => Some(match std::env::var("QIPAI_PASSWORD") {
            Ok(p) => p,
            Err(_) => rpassword::prompt_password(format!("password for {name}: "))
                .context("cannot read the password")?,
        }),
        None => None,
    };
    let autoplay = args
        .engine
        .start_for_any(registry)?
        .map(autoplay::Autoplay::new);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    runtime.block_on(async move {
        let saved = match &args.session {
            Some(path) => std::fs::read_to_string(path)
                .ok()
                .map(|t| t.trim().to_string()),
            None => None,
        };
        let (conn, user, seated) = Connection::open(&args.url, saved.as_deref())
            .await
            .with_context(|| format!("cannot connect to {}", args.url))?;
        let (screen, lines) = input::start();
        let mut client = Client {
            registry,
            url: args.url.clone(),
            conn,
            token: saved.filter(|_| user.is_some()),
            user,
            session_file: args.session.clone(),
            tables: Tables::with_engine(autoplay.as_ref().map(autoplay::Autoplay::plays)),
            screen,
            autoplay,
        };
        client
            .start(args.name, password, args.register, seated)
            .await?;
        client.run(lines).await
    })
}

/// A connected client: the connection, the session and what it knows of its tables.
struct Client<'a> {
    registry: &'a Registry,
    url: String,
    conn: Connection,
    token: Option<String>,
    user: Option<UserInfo>,
    session_file: Option<PathBuf>,
    tables: Tables,
    screen: Screen,
    /// The engine that plays this client's turns, if one was named.
    autoplay: Option<autoplay::Autoplay>,
}

impl Client<'_> {
    /// Opens the session (login, register or guest, unless the saved token still works)
    /// and returns to the tables where the player sits.
    async fn start(
        &mut self,
        name: Option<String>,
        password: Option<String>,
        register: bool,
        seated: Vec<String>,
    ) -> Result<()> {
        let wanted = match (name, password) {
            (Some(name), Some(password)) if register => {
                Some(ClientMessage::Register { name, password })
            }
            (Some(name), Some(password)) => {
                let same = self.user.as_ref().is_some_and(|u| u.name == name);
                (!same).then_some(ClientMessage::Login { name, password })
            }
            _ => self.user.is_none().then_some(ClientMessage::Guest),
        };
        if let Some(message) = wanted {
            let (token, user) = self.conn.session(message).await?;
            self.keep_session(token, user)?;
        }
        let who = self.user.as_ref().map(describe).unwrap_or_default();
        self.say(&format!(
            "Connected to {} as {who}. Type `help` for the commands, `quick doudizhu` to play.",
            self.url
        ))?;
        // The lobby is watched for the whole session: `tables` lists it as it is now, and
        // lobby chat is heard.
        self.send(ClientMessage::Lobby { game: None }).await?;
        for table in seated {
            // The largest sequence number asks for the table as it is now, nothing replayed.
            self.send(ClientMessage::Resume(request::Resume {
                table,
                last_seq: u64::MAX,
                invite: None,
            }))
            .await?;
        }
        Ok(())
    }

    /// Remembers a new session, in the session file too.
    fn keep_session(&mut self, token: String, user: UserInfo) -> Result<()> {
        if let Some(path) = &self.session_file {
            save_token(path, &token).with_context(|| format!("cannot write {}", path.display()))?;
        }
        self.token = Some(token);
        self.user = Some(user);
        Ok(())
    }

    /// Prints text for the person.
    fn say(&mut self, text: &str) -> Result<()> {
        self.screen.say(text)
    }

    /// Sends a message; a broken connection shows up on the next receive.
    async fn send(&mut self, message: ClientMessage) -> Result<()> {
        if let Err(e) = self.conn.send(&message).await {
            tracing::debug!("send failed: {e}");
        }
        Ok(())
    }

    /// The loop: typed lines and server messages as they come, until `quit`.
    async fn run(
        &mut self,
        mut lines: tokio::sync::mpsc::UnboundedReceiver<Option<input::Typed>>,
    ) -> Result<()> {
        loop {
            // What the server already sent is taken in before the next typed line, so a
            // line typed after a message arrived is read in that message's light.
            tokio::select! {
                biased;
                message = self.conn.recv() => match message {
                    Ok(message) => {
                        if let Some(autoplay) = &mut self.autoplay {
                            autoplay.heard(&message, &self.tables);
                            if let Err(e) =
                                autoplay.tell_result(&message, self.registry, &self.tables).await
                            {
                                self.say(&format!("The engine was not told how the game ended: {e:#}"))?;
                            }
                        }
                        self.message(message).await?;
                        self.engine_turns().await?;
                    }
                    Err(e) => self.reconnect(e).await?,
                },
                line = lines.recv() => {
                    let Some(Some(input::Typed { line, secrets })) = line else { break };
                    if self.screen.echoes() && !line.is_empty() {
                        self.say(&format!("> {line}"))?;
                    }
                    // While the person's game runs a move the game reads comes first: some
                    // are spelled like table words (Ten and a half's `stand`, 五人斗地主's `open`).
                    let command = if self.tables.reads_as_move(self.registry, &line) {
                        Ok(Command::Move(line.trim().to_string()))
                    } else {
                        Command::read(&line, secrets)
                    };
                    match command {
                        Ok(Command::Quit) => break,
                        Ok(command) => {
                            if let Err(e) = self.command(command).await {
                                self.say(&format!("{e:#}"))?;
                            }
                        }
                        Err(e) => self.say(&format!("{e:#}"))?,
                    }
                }
            }
        }
        self.say("bye")?;
        Ok(())
    }

    /// Lets the engine, if there is one, play every turn of this client it was not asked
    /// yet, and say `ready` where this client waits for the next game.
    async fn engine_turns(&mut self) -> Result<()> {
        let Some(autoplay) = &mut self.autoplay else {
            return Ok(());
        };
        let ready = autoplay.ready_at(&self.tables);
        let due = autoplay.due(self.registry, &self.tables)?;
        for table in ready {
            self.send(ClientMessage::Ready(request::Ready { table, ready: true }))
                .await?;
        }
        for (turn, engine) in due {
            let answer = match autoplay::decide(engine, &turn).await {
                Ok((engine, answer)) => {
                    if let Some(autoplay) = &mut self.autoplay {
                        autoplay.keep(&turn, engine);
                    }
                    answer
                }
                Err(e) => Err(e),
            };
            match answer {
                Ok(action) => {
                    if let Some(autoplay) = &mut self.autoplay {
                        autoplay.send_at(&turn.table).await;
                    }
                    self.send(ClientMessage::Act(request::Act {
                        table: turn.table,
                        action,
                        seq: Some(turn.seq),
                    }))
                    .await?
                }
                Err(e) => self.say(&format!(
                    "The engine could not play at {}: {e}. The turn is yours to play (or \
                     `auto`).",
                    turn.table
                ))?,
            }
        }
        Ok(())
    }

    /// After a lost connection: connects again with the session's token and resumes each
    /// table from the last number seen, for up to [`RECONNECT_FOR`].
    async fn reconnect(&mut self, why: ClientError) -> Result<()> {
        self.say(&lost_line(&why))?;
        let started = std::time::Instant::now();
        let mut wait = Duration::from_millis(250);
        loop {
            tokio::time::sleep(wait).await;
            match Connection::open(&self.url, self.token.as_deref()).await {
                Ok((conn, user, _)) => {
                    self.conn = conn;
                    if user.is_none() {
                        self.say("The session has ended; playing on as a new guest.")?;
                        let (token, user) = self.conn.session(ClientMessage::Guest).await?;
                        self.keep_session(token, user)?;
                    }
                    self.send(ClientMessage::Lobby { game: None }).await?;
                    for (table, last_seq) in self.tables.resume_points() {
                        self.send(ClientMessage::Resume(request::Resume {
                            table,
                            last_seq,
                            invite: None,
                        }))
                        .await?;
                    }
                    return self.say("Reconnected.");
                }
                Err(e) if started.elapsed() > RECONNECT_FOR => {
                    bail!("cannot reconnect to {}: {e}", self.url)
                }
                Err(_) => wait = (wait * 2).min(Duration::from_secs(4)),
            }
        }
    }

    /// Carries out a typed command.
    async fn command(&mut self, command: Command) -> Result<()> {
        let focus = self.tables.focus().map(str::to_string);
        let at_table = |what: &str| -> Result<String> {
            focus
                .clone()
                .with_context(|| format!("`{what}` is for a table: join one first"))
        };
        let message = match command {
            Command::Nothing | Command::Quit => return Ok(()),
            Command::Help => return self.say(command::HELP),
            Command::Games => ClientMessage::Games,
            Command::Tables(game) => {
                let text = self.tables.lobby_text(game.as_deref());
                return self.say(&text);
            }
            Command::Quick(game) => ClientMessage::QuickPlay { game, level: None },
            Command::Create { game, options } => ClientMessage::CreateTable { game, options },
            Command::Join {
                table,
                seat,
                invite,
            } => ClientMessage::Join(request::Join {
                table,
                seat,
                invite,
            }),
            Command::Watch { table, invite } => {
                ClientMessage::Watch(request::Watch { table, invite })
            }
            Command::Focus(table) => {
                return match self.tables.set_focus(&table) {
                    Ok(()) => self.show(),
                    Err(e) => self.say(&e),
                }
            }
            Command::Ready(ready) => ClientMessage::Ready(request::Ready {
                table: at_table("ready")?,
                ready,
            }),
            Command::AddBot { seat, bot } => {
                let table = at_table("bot")?;
                let bot = match bot {
                    Some(b) => b,
                    None => self.default_bot(&table)?,
                };
                ClientMessage::AddBot(request::AddBot { table, seat, bot })
            }
            Command::RemoveBot(seat) => ClientMessage::RemoveBot(request::RemoveBot {
                table: at_table("unbot")?,
                seat,
            }),
            Command::Stand => ClientMessage::Stand(request::Stand {
                table: at_table("stand")?,
            }),
            Command::Leave => {
                let table = at_table("leave")?;
                self.tables.forget(&table);
                ClientMessage::Leave(request::Leave { table })
            }
            Command::Say(text) => ClientMessage::Chat {
                table: Some(at_table("say")?),
                text,
            },
            Command::Chat(text) => ClientMessage::Chat { table: None, text },
            Command::Mute(user, mute) => ClientMessage::Mute { user, mute },
            Command::Ban { user, reason } => ClientMessage::Ban { user, reason },
            Command::Unban(user) => ClientMessage::Unban { user },
            Command::Bans => ClientMessage::Bans,
            Command::Ranks(game) => {
                let game = game
                    .or_else(|| focus.as_deref().and_then(|t| self.tables.game_of(t)))
                    .context("`ranks` takes a game: ranks gomoku")?;
                let text = standings::rankings(self.registry, &self.url, &game).await?;
                return self.say(&text);
            }
            Command::History(name) => {
                let name = name
                    .or_else(|| self.user.as_ref().map(|u| u.name.clone()))
                    .context("no session yet: `history NAME` names a player")?;
                let token = self.token.clone();
                let text =
                    standings::history(self.registry, &self.url, &name, token.as_deref()).await?;
                return self.say(&text);
            }
            Command::Auto(on) => ClientMessage::Auto(request::Auto {
                table: at_table("auto")?,
                on,
            }),
            Command::Hint => {
                let hint = self.tables.hint(self.registry);
                return self.say(&hint);
            }
            Command::Show => return self.show(),
            Command::ChangePassword {
                password,
                new_password,
            } => ClientMessage::ChangePassword {
                password,
                new_password,
            },
            Command::DeleteAccount { password } => ClientMessage::DeleteAccount { password },
            Command::Register { name, password } => ClientMessage::Register { name, password },
            Command::Login { name, password } => ClientMessage::Login { name, password },
            Command::Logout => ClientMessage::Logout,
            Command::Move(text) => match self.tables.read_move(self.registry, &text) {
                Ok(message) => message,
                Err(why) => return self.say(&why),
            },
        };
        self.send(message).await
    }

    /// The computer a table's game seats by default.
    fn default_bot(&self, table: &str) -> Result<String> {
        let game = self.tables.game_of(table).context("no such table")?;
        let game = self.registry.get(&game)?;
        Ok(game.default_bot().to_string())
    }

    /// Draws the table in focus again.
    fn show(&mut self) -> Result<()> {
        let text = self.tables.draw(self.registry);
        self.say(&text)
    }

    /// Takes in a message from the server.
    async fn message(&mut self, message: ServerMessage) -> Result<()> {
        match message {
            ServerMessage::Session { token, user } => {
                let who = describe(&user);
                self.keep_session(token, user)?;
                self.say(&format!("You are {who}."))
            }
            ServerMessage::LoggedOut => {
                self.user = None;
                self.token = None;
                self.say("Logged out. You go on as a guest.")?;
                self.send(ClientMessage::Guest).await
            }
            ServerMessage::PasswordChanged { sessions_ended: 0 } => {
                self.say("Your password is changed.")
            }
            ServerMessage::PasswordChanged { sessions_ended } => self.say(&format!(
                "Your password is changed; {} of the account ended.",
                game::text::count(sessions_ended as usize, "other session")
            )),
            ServerMessage::AccountDeleted => {
                let (name, id) = self.user.take().map(|u| (u.name, u.id)).unwrap_or_default();
                self.token = None;
                self.say(&format!(
                    "The account {name} is deleted: the name is free again, and its games \
                     stay, under the name deleted-{id}. You go on as a guest."
                ))?;
                self.send(ClientMessage::Guest).await
            }
            ServerMessage::Games { games } => {
                let lines: Vec<String> = games
                    .iter()
                    .map(|g| {
                        format!(
                            "{:<10} {}  ({} players; computers: {})",
                            g.id,
                            g.name,
                            game::text::players(&(g.seats[0]..=g.seats[1])),
                            g.bots.join(", ")
                        )
                    })
                    .collect();
                self.say(&lines.join("\n"))
            }
            ServerMessage::Lobby { tables } => {
                let n = tables.len();
                self.tables.lobby = tables.into_iter().map(|t| (t.id.clone(), t)).collect();
                if n > 0 {
                    self.say(&format!(
                        "{} open in the lobby: `tables` lists them.",
                        game::text::count(n, "table")
                    ))?;
                }
                Ok(())
            }
            ServerMessage::LobbyTable { table } => {
                self.tables.lobby.insert(table.id.clone(), table);
                Ok(())
            }
            ServerMessage::LobbyClosed { table } => {
                self.tables.lobby.remove(&table);
                Ok(())
            }
            ServerMessage::Welcome { .. } | ServerMessage::Pong => Ok(()),
            ServerMessage::Created {
                table,
                game,
                invite,
            } => {
                let code = match invite {
                    Some(code) => {
                        format!(" It is private: others join with `join {table} {code}`.")
                    }
                    None => format!(" Others join with `join {table}`."),
                };
                self.say(&format!("Opened table {table} ({game}).{code}"))
            }
            ServerMessage::Commitment {
                table,
                game_id,
                commitment,
                ..
            } => {
                let nonce = tables::nonce()?;
                self.say(&format!(
                    "Dealing {game_id}: the server is committed to {commitment}; your random \
                     nonce {nonce} goes into the deal."
                ))?;
                self.send(ClientMessage::Nonce(request::Nonce {
                    table,
                    game_id,
                    nonce,
                }))
                .await
            }
            ServerMessage::Chat {
                table, from, text, ..
            } => {
                let place = match table {
                    Some(t) => t,
                    None => "lobby".into(),
                };
                self.say(&format!("[{place}] {from}: {text}"))
            }
            ServerMessage::Moderated {
                user,
                banned: true,
                sessions_ended,
            } => self.say(&format!(
                "{user} is banned; sessions ended: {sessions_ended}."
            )),
            ServerMessage::Moderated { user, .. } => {
                self.say(&format!("{user} is no longer banned."))
            }
            ServerMessage::Bans { bans } => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() as i64);
                let mut lines = vec![match bans.len() {
                    0 => "Nobody is banned.".to_string(),
                    n => format!(
                        "{} banned, the latest first:",
                        game::text::count(n, "account")
                    ),
                }];
                lines.extend(
                    bans.iter()
                        .map(|b| format!("  {} — {} ({})", b.user, b.reason, ago(b.since, now))),
                );
                self.say(&lines.join("\n"))
            }
            // Banned: the server closes the connection, and neither the session nor a
            // new guest would let the client back in.
            ServerMessage::Error {
                code: ErrorCode::Banned,
                message,
                ..
            } => {
                self.say(&format!("You are {message}."))?;
                bail!("banned from {}", self.url)
            }
            // The account connected again elsewhere, which has the session and the seats
            // now. Reconnecting would take them back, and the other client would do the
            // same: the two would take turns forever.
            ServerMessage::Error {
                code: ErrorCode::TakenOver,
                table: None,
                ..
            } => {
                self.say(
                    "This account connected again elsewhere, which plays on; this terminal \
                     stops. (`qipai connect` again takes the account back here.)",
                )?;
                bail!("taken over by another connection of this account")
            }
            ServerMessage::Error {
                code,
                message,
                table,
            } => {
                let place = table.map(|t| format!("{t}: ")).unwrap_or_default();
                self.say(&format!("refused ({code}): {place}{message}"))
            }
            table_message => {
                let me = self.user.as_ref().map(|u| u.name.clone());
                let text = self
                    .tables
                    .take(self.registry, table_message, me.as_deref());
                match text {
                    Some(text) => self.say(&text),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Writes a session token where only its owner may read it: whoever reads the file can
/// play as them until the session ends.
fn save_token(path: &std::path::Path, token: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(path)?
        .write_all(format!("{token}\n").as_bytes())
}
