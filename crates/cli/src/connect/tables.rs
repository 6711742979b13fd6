//! What the terminal client knows of the tables it sits at or watches, and how it shows
//! them: the game's own screens, the seats, and a line for every move.

use super::autoplay::Plays;
use game::text::{seat_name, seat_number, signed};
use game::{ErasedGame, Outcome, Registry, Viewer};
use rand::TryRngCore;
use server::protocol::request;
use server::protocol::{ClientMessage, GameState, ServerMessage, TableInfo};
use std::collections::BTreeMap;

/// The tables of this client.
#[derive(Default)]
pub struct Tables {
    seen: BTreeMap<String, Seen>,
    focus: Option<String>,
    /// The lobby's open tables, kept up to date by the server.
    pub lobby: BTreeMap<String, TableInfo>,
    /// How many times `hint` was asked since the last move, to cycle through hints.
    hints_asked: usize,
    /// Which of this client's turns an engine plays (`--engine`), so that the line under
    /// the table says the engine moves, not "type it".
    engine: Option<Plays>,
}

/// A turn of this client's seat, with what an engine needs to play it.
pub struct Turn {
    /// The table.
    pub table: String,
    /// The game's id.
    pub game: String,
    /// This game's id at the table (a new one each deal).
    pub game_id: String,
    /// The table's sequence number the turn was seen at: the move is sent with it, so a
    /// move made for a state that has moved on is refused as stale.
    pub seq: u64,
    /// This client's seat.
    pub seat: usize,
    /// The seat's view.
    pub view: serde_json::Value,
    /// The seat's legal actions.
    pub legal: Vec<serde_json::Value>,
}

/// One table as this client last saw it.
struct Seen {
    seq: u64,
    info: TableInfo,
    you: Option<usize>,
    state: Option<GameState>,
    /// The seats as last printed, so a change is printed once.
    seats_line: String,
    /// The seat whose time ran out on the last action: if that action ended the game, the
    /// end is told as a loss on time, since the record holds only the default move (a
    /// Gomoku resignation, say).
    timed_out: Option<usize>,
}

impl Seen {
    fn viewer(&self) -> Viewer {
        match self.you {
            Some(s) => Viewer::Seat(s),
            None => Viewer::Spectator,
        }
    }

    /// Whether this client has a seat in a game that is not over: a line it types that
    /// the game reads as a move is then a move, on its turn or not, and the server says
    /// if it is not its turn. Read as a table word instead, Ten and a half's `stand` typed
    /// a moment early asked to give up the seat, which the server refuses until the
    /// game's end, and the person was told to wait for the game to end.
    fn in_game(&self) -> bool {
        self.you.is_some() && self.state.as_ref().is_some_and(|s| !s.to_act.is_empty())
    }

    /// Whether this client's seat may act now.
    fn may_act(&self) -> bool {
        match (&self.state, self.you) {
            (Some(state), Some(me)) => state.to_act.contains(&me),
            _ => false,
        }
    }

    /// Whether the person is to move: their seat may act and no computer plays it (托管).
    fn my_turn(&self) -> bool {
        let auto = self
            .you
            .and_then(|s| self.info.seats.get(s))
            .is_some_and(|s| s.auto);
        self.may_act() && !auto
    }

    /// The name of whoever sits in `seat`.
    fn who(&self, seat: usize) -> String {
        if self.you == Some(seat) {
            return "you".into();
        }
        let name = self.info.seats.get(seat).and_then(|s| {
            s.user
                .as_ref()
                .map(|u| u.name.clone())
                .or_else(|| s.bot.as_ref().map(|b| format!("computer {b}")))
        });
        match name {
            Some(n) => format!("{} ({n})", seat_name(seat)),
            None => seat_name(seat),
        }
    }

    /// The seats in one line: who sits where, and whether they are ready, away or on 托管;
    /// with the table's status for a listing (at the table the game shows it).
    fn seats_text(&self, status: bool) -> String {
        let seats: Vec<String> = self
            .info
            .seats
            .iter()
            .map(|s| {
                let name = match (&s.user, &s.bot) {
                    (Some(u), _) if self.you == Some(s.seat) => format!("{} (you)", u.name),
                    (Some(u), _) => u.name.clone(),
                    (None, Some(b)) => format!("computer {b}"),
                    (None, None) => "empty".into(),
                };
                let mut flags = Vec::new();
                if self.info.status == "waiting" && s.ready && s.user.is_some() {
                    flags.push("ready");
                }
                if s.user.is_some() && !s.connected {
                    flags.push("away");
                }
                if s.auto {
                    flags.push("托管");
                }
                let flags = if flags.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", flags.join(", "))
                };
                format!("{} {name}{flags}", seat_number(s.seat))
            })
            .collect();
        let status = if status {
            format!(", {}", self.info.status)
        } else {
            String::new()
        };
        format!(
            "table {} ({}{status}): {}{}",
            self.info.id,
            self.info.game,
            seats.join(" · "),
            match self.info.spectators {
                0 => String::new(),
                n => format!(" · {n} watching"),
            }
        )
    }

    /// Quick play's promise while a seat is empty: how soon computers take the empty seats
    /// (people who join before then play each other). Without it, "open one that computers
    /// fill" looks like a table waiting for nobody.
    fn fill_line(&self) -> Option<String> {
        let ms = self.info.fill_ms?;
        let empty = self
            .info
            .seats
            .iter()
            .any(|s| s.user.is_none() && s.bot.is_none());
        empty.then(|| {
            format!(
                "Computers take the empty seats in {} s; people may still join.",
                ms.div_ceil(1000).max(1)
            )
        })
    }

    /// The table drawn for this client: the game's screen and whose turn it is.
    fn draw(&self, game: &dyn ErasedGame, engine: Option<Plays>) -> String {
        let Some(state) = &self.state else {
            return format!(
                "{}\nNo game running: `ready` when you are (a game starts when every seat \
                 is filled and ready).",
                self.seats_text(true)
            );
        };
        let screen = game
            .render_view(&state.view, self.viewer())
            .unwrap_or_else(|e| format!("(cannot draw the table: {e})"));
        let engine = engine.is_some_and(|p| p.game(game));
        format!("\n{}\n{}", screen.trim_end(), self.turn_text(state, engine))
    }

    /// Whose turn it is, with the time left; `engine` when an engine plays this client's
    /// turns here.
    fn turn_text(&self, state: &GameState, engine: bool) -> String {
        let time = state
            .deadline_ms
            .map(|ms| format!(" ({} s left)", ms.div_ceil(1000)))
            .unwrap_or_default();
        if self.my_turn() && engine {
            format!("» your move{time}: the engine plays it.")
        } else if self.my_turn() {
            format!("» your move{time}: type it, or `hint`, `auto`, `help`.")
        } else if self.may_act() {
            "The computer plays your move (托管); type a move or `auto off` to take over.".into()
        } else {
            let who: Vec<String> = state.to_act.iter().map(|&s| self.who(s)).collect();
            format!("Waiting for {}{time}.", who.join(", "))
        }
    }
}

impl Tables {
    /// No tables yet, for a client whose turns an engine plays as `engine` says.
    pub fn with_engine(engine: Option<Plays>) -> Tables {
        Tables {
            engine,
            ..Tables::default()
        }
    }

    /// The table the person's lines are about.
    pub fn focus(&self) -> Option<&str> {
        self.focus.as_deref()
    }

    /// Turns to another table this client is at.
    pub fn set_focus(&mut self, table: &str) -> Result<(), String> {
        if self.seen.contains_key(table) {
            self.focus = Some(table.to_string());
            Ok(())
        } else {
            Err(format!("you are not at table {table}"))
        }
    }

    /// Forgets a table left.
    pub fn forget(&mut self, table: &str) {
        self.seen.remove(table);
        if self.focus.as_deref() == Some(table) {
            self.focus = self.seen.keys().next().cloned();
        }
    }

    /// The game a table plays.
    pub fn game_of(&self, table: &str) -> Option<String> {
        self.seen.get(table).map(|t| t.info.game.clone())
    }

    /// Each table with the last sequence number seen, to resume after a reconnect.
    pub fn resume_points(&self) -> Vec<(String, u64)> {
        self.seen
            .iter()
            .map(|(id, t)| (id.clone(), t.seq))
            .collect()
    }

    /// The table in focus, drawn.
    pub fn draw(&self, registry: &Registry) -> String {
        match self.focused() {
            Some(t) => match registry.get(&t.info.game) {
                Ok(game) => t.draw(game, self.engine),
                Err(e) => e.to_string(),
            },
            None => "You are at no table: `quick GAME`, `tables`, `join TABLE`.".into(),
        }
    }

    fn focused(&self) -> Option<&Seen> {
        self.focus.as_ref().and_then(|f| self.seen.get(f))
    }

    /// Whether `line` is a move: the person has a seat in a game that is not over at the
    /// table in focus, and the game reads the line as one of its actions. Such a line is
    /// the move even when a table word spells it too (`stand` in Ten and a half, `open` in
    /// 五人斗地主's declaration), on the person's turn or not: the move is what is meant
    /// (off turn the server says it is not their turn); getting up waits for the game's
    /// end anyway, and `open` alone opens no table (it needs a game).
    pub fn reads_as_move(&self, registry: &Registry, line: &str) -> bool {
        !line.trim().is_empty()
            && self.focused().is_some_and(Seen::in_game)
            && self.read_move(registry, line.trim()).is_ok()
    }

    /// The next suggestion for the person's move.
    pub fn hint(&mut self, registry: &Registry) -> String {
        let Some(t) = self.focused() else {
            return "You are at no table.".into();
        };
        let (Some(state), true) = (&t.state, t.may_act()) else {
            return "It is not your turn.".into();
        };
        let hints = registry
            .get(&t.info.game)
            .and_then(|g| g.hints(&state.view, &state.legal))
            .unwrap_or_default();
        if hints.is_empty() {
            let game = registry.get(&t.info.game);
            let options: Vec<String> = match game {
                Ok(g) if state.legal.len() <= 4 => state
                    .legal
                    .iter()
                    .map(|a| g.action_text(&state.view, a))
                    .collect(),
                _ => Vec::new(),
            };
            return match options.as_slice() {
                [] => "No suggestion here.".into(),
                _ => format!("No suggestion here; you may: {}.", options.join(", ")),
            };
        }
        let hint = &hints[self.hints_asked % hints.len()];
        self.hints_asked += 1;
        format!("hint: {hint}")
    }

    /// Every turn this client is to play now, at any of its tables: its seat may act, no
    /// computer plays it (托管), and the server sent its legal actions.
    pub fn turns(&self) -> Vec<Turn> {
        self.seen
            .values()
            .filter(|t| t.my_turn())
            .filter_map(|t| {
                let (state, seat) = (t.state.as_ref()?, t.you?);
                (!state.legal.is_empty()).then(|| Turn {
                    table: t.info.id.clone(),
                    game: t.info.game.clone(),
                    game_id: state.game_id.clone(),
                    seq: t.seq,
                    seat,
                    view: state.view.clone(),
                    legal: state.legal.clone(),
                })
            })
            .collect()
    }

    /// This client's seat at `table`, if it sits there.
    pub fn seat_at(&self, table: &str) -> Option<usize> {
        self.seen.get(table)?.you
    }

    /// The tables where this client sits, waiting for a game, not ready yet; each with
    /// the number of games it has played, which tells one wait from the next.
    pub fn waits(&self) -> Vec<(String, u64)> {
        self.seen
            .values()
            .filter(|t| t.info.status == "waiting")
            .filter(|t| {
                t.you
                    .and_then(|s| t.info.seats.get(s))
                    .is_some_and(|s| !s.ready)
            })
            .map(|t| (t.info.id.clone(), t.info.games))
            .collect()
    }

    /// Reads a typed move for the table in focus into the message that sends it.
    pub fn read_move(&self, registry: &Registry, text: &str) -> Result<ClientMessage, String> {
        let Some(t) = self.focused() else {
            return Err(format!(
                "'{text}' is not a command (`help` lists them), and you are at no table"
            ));
        };
        let Some(state) = &t.state else {
            return Err(format!(
                "'{text}' is not a command (`help` lists them), and no game is running at {}",
                t.info.id
            ));
        };
        // Whether the move may be made now is the server's to judge: some are allowed
        // out of turn (a Gomoku undo request), and a move typed while the computer plays
        // the seat (托管) takes the seat back.
        let game = registry.get(&t.info.game).map_err(|e| e.to_string())?;
        let action = game
            .parse_action(&state.view, text)
            .map_err(|e| format!("{e}. Try again (or `hint`)."))?;
        Ok(ClientMessage::Act(request::Act {
            table: t.info.id.clone(),
            action,
            seq: Some(t.seq),
        }))
    }

    /// Takes in a table's message; what to print, if anything.
    pub fn take(
        &mut self,
        registry: &Registry,
        message: ServerMessage,
        me: Option<&str>,
    ) -> Option<String> {
        match message {
            ServerMessage::Table {
                table,
                seq,
                info,
                you,
                game,
            } => {
                let game_kind = registry.get(&info.game).ok()?;
                let mut seen = Seen {
                    seq,
                    info,
                    you,
                    state: game,
                    seats_line: String::new(),
                    timed_out: None,
                };
                seen.seats_line = seen.seats_text(false);
                let mut text = seen.seats_text(true);
                let ready = you
                    .and_then(|s| seen.info.seats.get(s))
                    .is_some_and(|s| s.ready);
                if seen.state.is_some() {
                    text.push_str(&seen.draw(game_kind, self.engine));
                } else {
                    if let Some(line) = seen.fill_line() {
                        text.push('\n');
                        text.push_str(&line);
                    }
                    if you.is_some() && !ready {
                        text.push_str("\nType `ready` when you are; `help` for the commands.");
                    }
                }
                self.hints_asked = 0;
                self.seen.insert(table.clone(), seen);
                self.focus = Some(table);
                Some(text)
            }
            ServerMessage::Seats { table, seq, info } => {
                let seen = self.seen.get_mut(&table)?;
                seen.seq = seen.seq.max(seq);
                let was_auto = seen.you.is_some_and(|s| seen.info.seats[s].auto);
                seen.info = info;
                let now_auto = seen
                    .you
                    .and_then(|s| seen.info.seats.get(s))
                    .is_some_and(|s| s.auto);
                let line = seen.seats_text(false);
                let mut out = Vec::new();
                if line != seen.seats_line {
                    seen.seats_line = line.clone();
                    out.push(line);
                }
                match (was_auto, now_auto) {
                    (false, true) => out.push(
                        "托管: the computer plays your seat now; `auto off` takes it back.".into(),
                    ),
                    (true, false) => out.push("托管 is off: you play your seat.".into()),
                    _ => {}
                }
                (!out.is_empty()).then(|| out.join("\n"))
            }
            ServerMessage::Action {
                table,
                seq,
                seat,
                action,
                events,
                timed_out,
                game,
            } => {
                let seen = self.seen.get_mut(&table)?;
                seen.seq = seen.seq.max(seq);
                seen.timed_out = timed_out.then_some(seat);
                let kind = registry.get(&seen.info.game).ok()?;
                if game.is_some() {
                    seen.state = game;
                }
                self.hints_asked = 0;
                let viewer = seen.viewer();
                let view = seen
                    .state
                    .as_ref()
                    .map(|s| s.view.clone())
                    .unwrap_or_default();
                let mut lines: Vec<String> = events
                    .iter()
                    .filter_map(|e| kind.event_text(e, viewer))
                    .collect();
                if lines.is_empty() {
                    lines.push(if seen.you == Some(seat) {
                        format!("you: {}", kind.action_text(&view, &action))
                    } else {
                        format!(
                            "{}: {}",
                            seen.who(seat),
                            kind.public_action_text(&view, &action)
                        )
                    });
                }
                if timed_out {
                    lines.insert(
                        0,
                        if seen.you == Some(seat) {
                            "Your time ran out; the rules' default move was made for you:".into()
                        } else {
                            format!(
                                "Time ran out for {}; the rules' default move:",
                                seen.who(seat)
                            )
                        },
                    );
                }
                if seen.my_turn() {
                    lines.push(seen.draw(kind, self.engine));
                }
                Some(lines.join("\n"))
            }
            ServerMessage::GameOver {
                table,
                seq,
                game_id,
                record,
                totals,
                ..
            } => {
                let seen = self.seen.get_mut(&table)?;
                seen.seq = seen.seq.max(seq);
                let kind = registry.get(&seen.info.game).ok()?;
                let viewer = seen.viewer();
                let mut lines = Vec::new();
                if let Some(state) = seen.state.take() {
                    if let Ok(screen) = kind.render_view(&state.view, viewer) {
                        lines.push(format!("\n{}", screen.trim_end()));
                    }
                }
                if let Ok(outcome) = serde_json::from_value::<Outcome>(record["outcome"].clone()) {
                    lines.push(kind.outcome_text(&outcome, viewer));
                }
                match seen.timed_out.take() {
                    Some(s) if seen.you == Some(s) => lines.push(
                        "Your time ran out: the rules' default move for you ended the game.".into(),
                    ),
                    Some(s) => lines.push(format!(
                        "The game ended on time: {} ran out, and the rules' default move ended \
                         it.",
                        seen.who(s)
                    )),
                    None => {}
                }
                let totals: Vec<String> = totals
                    .iter()
                    .enumerate()
                    .map(|(s, t)| format!("{} {}", seen.who(s), signed(*t)))
                    .collect();
                lines.push(format!("Match totals: {}.", totals.join(", ")));
                lines.push(format!(
                    "The record, seed revealed: /api/games/{game_id} (check it with `qipai \
                     verify`).{}",
                    match (seen.you, me) {
                        (Some(_), Some(_)) => " Type `ready` for the next game.",
                        _ => "",
                    }
                ));
                Some(lines.join("\n"))
            }
            _ => None,
        }
    }
}

impl Tables {
    /// The lobby's tables (of `game`, or all), one line each.
    pub fn lobby_text(&self, game: Option<&str>) -> String {
        let tables: Vec<&TableInfo> = self
            .lobby
            .values()
            .filter(|t| game.is_none_or(|g| t.game == g))
            .collect();
        lobby_lines(&tables)
    }
}

/// Tables, one line each.
fn lobby_lines(tables: &[&TableInfo]) -> String {
    if tables.is_empty() {
        return "No open tables: `quick GAME` or `create GAME` opens one.".into();
    }
    tables
        .iter()
        .map(|t| {
            let seen = Seen {
                seq: 0,
                info: (*t).clone(),
                you: None,
                state: None,
                seats_line: String::new(),
                timed_out: None,
            };
            seen.seats_text(true)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A fresh random nonce for a deal: 16 bytes from the operating system, in hex.
pub fn nonce() -> anyhow::Result<String> {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
#[path = "tables_tests.rs"]
mod tests;
