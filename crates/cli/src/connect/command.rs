//! What a person types in `qipai connect`: hall commands, or a move at the table.
//!
//! Hall commands are words a move never is (`join`, `ready`, `say`…); anything else typed
//! at a table is handed to the game to read as a move, exactly as in `qipai play`.

use anyhow::{bail, Context, Result};
use server::protocol::TableOptions;

/// The hall commands, for `help`.
pub const HELP: &str = "\
In the hall:
  games                      the games and their computer players
  tables [GAME]              the open tables
  quick GAME                 sit at an open table, or open one that computers fill
  create GAME [OPTION…]      open a table and sit at it; options: players=N, private,
                             people (no computers), rated, time=SECONDS (for every
                             turn), and the game's own KEY=VALUE (create gomoku rule=renju)
  join TABLE [SEAT] [CODE]   sit at a table (CODE: a private table's invite code)
  watch TABLE [CODE]         watch a table
  chat TEXT                  say something in the lobby
  ranks [GAME]               a game's rankings (the table's game when none is named)
  history [NAME]             a player's ratings and latest games, each with the address
                             of its replay (yours when no name is given, with your games
                             at private tables)
  mute NAME / unmute NAME    stop (or start again) hearing someone
  ban NAME REASON…           (a moderator) shut an account out, saying why
  unban NAME                 (a moderator) let it back
  bans                       (a moderator) the banned accounts, with why and when
  register NAME              make an account (a guest keeps its games); the password is
                             asked for without showing it
  login NAME / logout        log in to an account (password asked for), or go on as a
                             guest
  password                   change your password (asked for without showing it); your
                             other sessions end
  delete-account             delete your account, with its password: the name is free
                             again, the games stay; you go on as a guest
  quit                       leave (your seat is held for a while; connect again to return)
At a table:
  ready / unready            ready for the next game (it starts when every seat is ready)
  bot SEAT [NAME]            put a computer in an empty seat (the table's host)
  unbot SEAT                 take it out again
  say TEXT                   chat at the table
  auto / auto off            let the computer play your seat (托管), or take it back
  hint                       suggest a move (again for the next one)
  show                       draw the table again
  stand / leave              get up (between games) / leave the table
  table TABLE                switch to another table you are at
  anything else is your move, as the game's help says; on your turn a move comes
  first, even one spelled like a command (Ten and a half's `stand`, 五人斗地主's `open`)";

/// One line, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Nothing typed.
    Nothing,
    /// `help`.
    Help,
    /// `games`.
    Games,
    /// `tables [GAME]`.
    Tables(Option<String>),
    /// `quick GAME`.
    Quick(String),
    /// `create GAME [OPTION…]`.
    Create {
        /// The game.
        game: String,
        /// The table's options.
        options: TableOptions,
    },
    /// `join TABLE [SEAT] [CODE]`.
    Join {
        /// The table.
        table: String,
        /// The seat wanted.
        seat: Option<usize>,
        /// A private table's invite code.
        invite: Option<String>,
    },
    /// `watch TABLE [CODE]`.
    Watch {
        /// The table.
        table: String,
        /// A private table's invite code.
        invite: Option<String>,
    },
    /// `table TABLE`: the table the next lines are about.
    Focus(String),
    /// `ready` or `unready`.
    Ready(bool),
    /// `bot SEAT [NAME]`.
    AddBot {
        /// The seat.
        seat: usize,
        /// The bot; the game's strongest when none is named.
        bot: Option<String>,
    },
    /// `unbot SEAT`.
    RemoveBot(usize),
    /// `stand`.
    Stand,
    /// `leave`.
    Leave,
    /// `say TEXT`: table chat.
    Say(String),
    /// `chat TEXT`: lobby chat.
    Chat(String),
    /// `ban NAME REASON…`.
    Ban {
        /// The account.
        user: String,
        /// Why.
        reason: String,
    },
    /// `unban NAME`.
    Unban(String),
    /// `bans`.
    Bans,
    /// `ranks [GAME]`.
    Ranks(Option<String>),
    /// `history [NAME]`.
    History(Option<String>),
    /// `mute NAME` or `unmute NAME`.
    Mute(String, bool),
    /// `auto` or `auto off`.
    Auto(bool),
    /// `hint`.
    Hint,
    /// `show`.
    Show,
    /// `register NAME`, with the password typed twice at its prompts.
    Register {
        /// The account's name.
        name: String,
        /// Its password.
        password: String,
    },
    /// `login NAME`, with the password typed at its prompt.
    Login {
        /// The account's name.
        name: String,
        /// Its password.
        password: String,
    },
    /// `logout`: the session ends, and a guest's begins.
    Logout,
    /// `password`, with what was typed at its prompts.
    ChangePassword {
        /// The current password.
        password: String,
        /// The new one, typed twice alike.
        new_password: String,
    },
    /// `delete-account`, with the password typed at its prompt.
    DeleteAccount {
        /// The account's password.
        password: String,
    },
    /// `quit`.
    Quit,
    /// Anything else: a move, for the game to read.
    Move(String),
}

/// The prompts a typed line asks to be answered without echo, before it is read: the
/// passwords of `register NAME`, `login NAME`, `password` and `delete-account`. The line
/// itself holds no secret, so it can be echoed and kept in the history like any other.
pub fn secret_prompts(line: &str) -> &'static [&'static str] {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["register", _] => &["password (8 characters or more): ", "the password again: "],
        ["login", _] => &["password: "],
        ["password"] => &[
            "current password: ",
            "new password (8 characters or more): ",
            "the new password again: ",
        ],
        ["delete-account"] => &["your password, to delete the account: "],
        _ => &[],
    }
}

impl Command {
    /// Reads a typed line with the answers to its [`secret_prompts`]. Errors say how the
    /// command is written.
    pub fn read(line: &str, secrets: Vec<String>) -> Result<Command> {
        let mut secrets = secrets.into_iter();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["register", name] => {
                let (Some(password), Some(again)) = (secrets.next(), secrets.next()) else {
                    bail!("no password typed; no account made")
                };
                if password != again {
                    bail!("the two passwords differ; no account made")
                }
                Ok(Command::Register {
                    name: name.to_string(),
                    password,
                })
            }
            ["login", name] => match secrets.next() {
                Some(password) if !password.is_empty() => Ok(Command::Login {
                    name: name.to_string(),
                    password,
                }),
                _ => bail!("no password typed"),
            },
            ["password"] => {
                let (Some(password), Some(new_password), Some(again)) =
                    (secrets.next(), secrets.next(), secrets.next())
                else {
                    bail!("no password typed; nothing changed")
                };
                if new_password != again {
                    bail!("the two new passwords differ; nothing changed")
                }
                Ok(Command::ChangePassword {
                    password,
                    new_password,
                })
            }
            ["delete-account"] => match secrets.next() {
                Some(password) if !password.is_empty() => Ok(Command::DeleteAccount { password }),
                _ => bail!("no password typed; the account stays"),
            },
            _ => Command::parse(line),
        }
    }

    /// Reads a typed line that asked for no secret. Errors say how the command is written.
    pub fn parse(line: &str) -> Result<Command> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        let one = |what: &str| -> Result<String> {
            match args.as_slice() {
                [a] => Ok(a.to_string()),
                _ => bail!("`{word}` takes {what}"),
            }
        };
        // A command that takes nothing refuses what follows it rather than drop it:
        // `leave t4xk2mq` would otherwise leave the table in view, whichever it is.
        let alone = |command: Command| -> Result<Command> {
            match args.as_slice() {
                [] => Ok(command),
                _ => bail!("`{word}` takes nothing after it"),
            }
        };
        Ok(match word.to_ascii_lowercase().as_str() {
            "" => Command::Nothing,
            "help" | "?" => alone(Command::Help)?,
            "games" => alone(Command::Games)?,
            "tables" | "lobby" => Command::Tables(args.first().map(|g| g.to_string())),
            "quick" => Command::Quick(one("a game: quick doudizhu")?),
            "create" | "open" => create(&args)?,
            "join" | "sit" => {
                let Some(table) = args.first() else {
                    bail!("`join` takes a table: join t4xk2mq [SEAT] [CODE]")
                };
                let (mut seat, mut invite) = (None, None);
                for a in &args[1..] {
                    match a.parse::<usize>() {
                        Ok(_) if seat.is_none() => seat = Some(typed_seat(a)?),
                        _ => invite = Some(a.to_string()),
                    }
                }
                Command::Join {
                    table: table.to_string(),
                    seat,
                    invite,
                }
            }
            "watch" => match args.as_slice() {
                [table] => Command::Watch {
                    table: table.to_string(),
                    invite: None,
                },
                [table, code] => Command::Watch {
                    table: table.to_string(),
                    invite: Some(code.to_string()),
                },
                _ => bail!("`watch` takes a table and, if private, its code"),
            },
            "table" => Command::Focus(one("a table you are at")?),
            "ready" => alone(Command::Ready(true))?,
            "unready" => alone(Command::Ready(false))?,
            "bot" => match args.as_slice() {
                [seat] => Command::AddBot {
                    seat: typed_seat(seat)?,
                    bot: None,
                },
                [seat, bot] => Command::AddBot {
                    seat: typed_seat(seat)?,
                    bot: Some(bot.to_string()),
                },
                _ => bail!("`bot` takes a seat and, if you like, a bot's name: bot 2 heuristic"),
            },
            "unbot" => Command::RemoveBot(typed_seat(&one("a seat")?)?),
            "stand" => alone(Command::Stand)?,
            "leave" if !args.is_empty() => {
                bail!("`leave` takes nothing after it: it leaves the table in view (`table ID` first to view another)")
            }
            "leave" => Command::Leave,
            "say" if !rest.is_empty() => Command::Say(rest.to_string()),
            "chat" if !rest.is_empty() => Command::Chat(rest.to_string()),
            "say" | "chat" => bail!("`{word}` takes what to say"),
            "ranks" | "rankings" => match args.as_slice() {
                [] => Command::Ranks(None),
                [game] => Command::Ranks(Some(game.to_string())),
                _ => bail!("`{word}` takes a game: ranks gomoku"),
            },
            "history" => match args.as_slice() {
                [] => Command::History(None),
                [name] => Command::History(Some(name.to_string())),
                _ => bail!("`history` takes a player's name, or nothing for yours"),
            },
            "ban" => match rest.split_once(char::is_whitespace) {
                Some((user, reason)) if !reason.trim().is_empty() => Command::Ban {
                    user: user.to_string(),
                    reason: reason.trim().to_string(),
                },
                _ => bail!("`ban` takes a name and the reason: ban NAME abuse in chat"),
            },
            "unban" => Command::Unban(one("a name")?),
            "bans" => alone(Command::Bans)?,
            "mute" => Command::Mute(one("a name")?, true),
            "unmute" => Command::Mute(one("a name")?, false),
            "auto" | "托管" => match rest {
                "" | "on" => Command::Auto(true),
                "off" => Command::Auto(false),
                _ => bail!("`auto` or `auto off`"),
            },
            "hint" | "h" => alone(Command::Hint)?,
            "show" => alone(Command::Show)?,
            "password" | "delete-account" => {
                bail!("`{word}` takes nothing after it: it asks for the password itself")
            }
            "register" | "login" => {
                bail!("`{word}` takes a name: {word} NAME (it asks for the password itself)")
            }
            "logout" => alone(Command::Logout)?,
            "quit" | "exit" => alone(Command::Quit)?,
            _ => Command::Move(line.to_string()),
        })
    }
}

/// The seat a person typed, by its number from 1 (as the table shows it), as the index
/// from 0 that the server reads.
fn typed_seat(text: &str) -> Result<usize> {
    match text.parse::<usize>() {
        Ok(0) => bail!("seats are numbered from 1: seat 1 is the first"),
        Ok(n) => Ok(n - 1),
        Err(_) => bail!("'{text}' is not a seat number"),
    }
}

/// `create GAME [OPTION…]`.
fn create(args: &[&str]) -> Result<Command> {
    let Some((game, rest)) = args.split_first() else {
        bail!("`create` takes a game: create doudizhu [OPTION…]")
    };
    let mut options = TableOptions::default();
    for option in rest {
        match *option {
            "private" => options.private = true,
            "people" => options.computers = false,
            "rated" => options.rated = true,
            _ => match option.split_once('=') {
                Some(("time", n)) => {
                    let seconds = n.parse().ok().filter(|&s: &u32| s > 0).with_context(|| {
                        format!("time takes the seconds a turn may take, not '{n}'")
                    })?;
                    options.turn_seconds.insert("*".into(), seconds);
                }
                Some(("players", n)) => {
                    options.seats =
                        Some(n.parse().with_context(|| {
                            format!("players takes a number of players, not '{n}'")
                        })?)
                }
                _ => crate::options::set_option(&mut options.config, option)?,
            },
        }
    }
    Ok(Command::Create {
        game: game.to_string(),
        options,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hall_words_are_commands_and_everything_else_is_a_move() {
        assert_eq!(Command::parse("ready").unwrap(), Command::Ready(true));
        // Seats are typed as the table numbers them, from 1; the server gets the index.
        assert_eq!(
            Command::parse("join t1 2").unwrap(),
            Command::Join {
                table: "t1".into(),
                seat: Some(1),
                invite: None
            }
        );
        assert_eq!(
            Command::parse("bot 3 heuristic").unwrap(),
            Command::AddBot {
                seat: 2,
                bot: Some("heuristic".into())
            }
        );
        assert_eq!(Command::parse("unbot 1").unwrap(), Command::RemoveBot(0));
        for zero in ["join t1 0", "bot 0", "unbot 0"] {
            let said = Command::parse(zero).unwrap_err().to_string();
            assert!(said.contains("numbered from 1"), "{zero}: {said}");
        }
        assert_eq!(
            Command::parse("join t1 abc123").unwrap(),
            Command::Join {
                table: "t1".into(),
                seat: None,
                invite: Some("abc123".into())
            }
        );
        assert_eq!(
            Command::parse("say 你好 all").unwrap(),
            Command::Say("你好 all".into())
        );
        assert_eq!(Command::parse("auto off").unwrap(), Command::Auto(false));
        assert_eq!(
            Command::parse("3 3 3 4").unwrap(),
            Command::Move("3 3 3 4".into())
        );
        assert_eq!(Command::parse("h8").unwrap(), Command::Move("h8".into()));
        assert!(Command::parse("bot x").is_err());
        for extra in [
            "ready now",
            "leave t4xk2mq",
            "bans all",
            "quit now",
            "stand up",
        ] {
            let said = Command::parse(extra).unwrap_err().to_string();
            assert!(said.contains("takes nothing after it"), "{extra}: {said}");
        }
        assert!(Command::parse("say").is_err());
    }

    #[test]
    fn create_reads_the_hall_options_and_the_games_own() {
        let Command::Create { game, options } =
            Command::parse("create gomoku rule=renju private people players=2 time=5").unwrap()
        else {
            panic!("not create")
        };
        assert_eq!(game, "gomoku");
        assert_eq!(options.config, json!({"rule":"renju"}));
        assert!(options.private && !options.computers);
        assert_eq!(options.seats, Some(2));
        assert_eq!(options.turn_seconds_in("move"), Some(5));
        assert!(Command::parse("create tenhalf players=many").is_err());
        assert!(Command::parse("create gomoku time=0").is_err());
        assert!(Command::parse("create gomoku time=soon").is_err());
    }

    #[test]
    fn passwords_come_from_their_prompts_never_from_the_line() {
        assert_eq!(secret_prompts("password").len(), 3);
        assert_eq!(secret_prompts(" delete-account ").len(), 1);
        assert!(secret_prompts("password hunter2").is_empty());
        assert!(secret_prompts("3 3 3").is_empty());
        assert_eq!(secret_prompts("register ruth").len(), 2);
        assert_eq!(secret_prompts("login ruth").len(), 1);
        assert!(secret_prompts("login ruth hunter2").is_empty());
        assert!(Command::parse("login ruth hunter2").is_err());
        assert!(Command::parse("register").is_err());
        let typed = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            Command::read("login ruth", typed(&["a secret"])).unwrap(),
            Command::Login {
                name: "ruth".into(),
                password: "a secret".into()
            }
        );
        let differ = Command::read("register ruth", typed(&["one secret", "another"]));
        assert!(format!("{:#}", differ.unwrap_err()).contains("differ"));
        assert_eq!(
            Command::read("password", typed(&["old one", "new one!", "new one!"])).unwrap(),
            Command::ChangePassword {
                password: "old one".into(),
                new_password: "new one!".into()
            }
        );
        let differ = Command::read("password", typed(&["old one", "new one!", "new one?"]));
        assert!(format!("{:#}", differ.unwrap_err()).contains("differ"));
        assert!(Command::read("password", Vec::new()).is_err());
        assert!(Command::parse("password hunter2").is_err());
        assert_eq!(
            Command::read("delete-account", typed(&["old one"])).unwrap(),
            Command::DeleteAccount {
                password: "old one".into()
            }
        );
        assert!(Command::read("delete-account", typed(&[""])).is_err());
        assert_eq!(
            Command::read("ready", Vec::new()).unwrap(),
            Command::Ready(true)
        );
    }
}
